import { describe, expect, it } from 'vitest';
import { KindConfigError, kindNodes, parseKindConfig } from './kindconfig';
import { DEFAULT_KIND_CONFIG } from './defaults';

describe('parseKindConfig', () => {
  it('reads the bookshop cluster: k8s-lab, a control plane with port 30080 mapped, two workers', () => {
    const c = parseKindConfig(DEFAULT_KIND_CONFIG);
    expect(c.name).toBe('k8s-lab');
    expect(c.nodes.map((n) => n.role)).toEqual(['control-plane', 'worker', 'worker']);
    expect(c.nodes[0].extraPortMappings).toEqual([{ containerPort: 30080, hostPort: 30080, listenAddress: '0.0.0.0', protocol: 'TCP' }]);
    expect(c.networking).toMatchObject({ podSubnet: '10.244.0.0/16', serviceSubnet: '10.96.0.0/16', kubeProxyMode: 'iptables', disableDefaultCNI: false });
    expect(kindNodes(c).map((n) => n.name)).toEqual(['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2']);
  });

  it('applies kind defaults: name kind, one control-plane node', () => {
    const c = parseKindConfig('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n');
    expect(c.name).toBe('kind');
    expect(kindNodes(c).map((n) => `${n.name}/${n.role}`)).toEqual(['kind-control-plane/control-plane']);
  });

  it('keeps kubeadmConfigPatches and labels, and names nodes as kind does', () => {
    const c = parseKindConfig(`kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
name: lab
kubeadmConfigPatches:
- |
  kind: ClusterConfiguration
  apiServer:
    extraArgs:
      v: "4"
nodes:
- role: worker
  labels:
    tier: gpu
- role: control-plane
  kubeadmConfigPatches:
  - |
    kind: InitConfiguration
- role: worker
- role: worker
`);
    expect(c.kubeadmConfigPatches[0]).toContain('ClusterConfiguration');
    expect(c.nodes[1].kubeadmConfigPatches[0]).toContain('InitConfiguration');
    expect(c.nodes[0].labels).toEqual({ tier: 'gpu' });
    expect(kindNodes(c).map((n) => n.name)).toEqual(['lab-control-plane', 'lab-worker', 'lab-worker2', 'lab-worker3']);
  });

  it('refuses what kind refuses', () => {
    const bad = (y: string) => () => parseKindConfig(y);
    expect(bad('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha3\n')).toThrow('unknown apiVersion: kind.x-k8s.io/v1alpha3');
    expect(bad('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: worker\n')).toThrow('must have at least one control-plane node');
    expect(bad('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: master\n')).toThrow('invalid role: "master"');
    expect(bad('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnode:\n- role: worker\n')).toThrow('unknown field "node"');
    expect(bad('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnetworking:\n  podSubnet: 10.244.0.0\n')).toThrow('invalid podSubnet');
    expect(bad('kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes: [\n')).toThrow(KindConfigError);
  });
});
