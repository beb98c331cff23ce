import { describe, expect, it } from 'vitest';
import { parseManifests } from '../api/yaml';
import type { KubeObject } from '../api/types';
import { kindDefaultStorageClass } from '../controllers/persistentvolume';
import { corednsAddon, dnsServiceIP, kindCniManifest, kindImages, kindStorageManifest, kubeadmInitObjects, kubeProxyAddon, staticPodManifests, type ManifestParams } from './manifests';

const P: ManifestParams = { clusterName: 'k8s-lab', nodeName: 'k8s-lab-control-plane', nodeIP: '172.18.0.2', version: 'v1.35.0', podSubnet: '10.244.0.0/16', serviceSubnet: '10.96.0.0/16' };
const objs = (y: string): KubeObject[] =>
  parseManifests(y).map((d) => {
    if (d.error) throw new Error(d.error);
    return d.object!;
  });

describe('what kubeadm and kind write', () => {
  it('the four static pods: kubeadm labels, hostNetwork, system-node-critical, probes on the real ports', () => {
    const files = staticPodManifests(P);
    expect(Object.keys(files)).toEqual(['etcd.yaml', 'kube-apiserver.yaml', 'kube-controller-manager.yaml', 'kube-scheduler.yaml']);
    const ports: Record<string, number | string> = { etcd: 2381, 'kube-apiserver': 'probe-port', 'kube-controller-manager': 10257, 'kube-scheduler': 10259 };
    for (const [file, text] of Object.entries(files)) {
      const [pod] = objs(text);
      const name = file.replace('.yaml', '');
      expect(pod.metadata).toMatchObject({ name, namespace: 'kube-system', labels: { component: name, tier: 'control-plane' } });
      expect(pod.spec).toMatchObject({ hostNetwork: true, priorityClassName: 'system-node-critical', priority: 2000001000 });
      const c = pod.spec.containers[0];
      expect(c.command[0]).toBe(name);
      expect(c.livenessProbe.httpGet.port).toBe(ports[name]);
      expect(c.startupProbe.failureThreshold).toBe(24);
    }
    expect(objs(files['kube-apiserver.yaml'])[0].spec.containers[0].command).toContain('--service-cluster-ip-range=10.96.0.0/16');
    expect(objs(files['etcd.yaml'])[0].spec.containers[0].image).toBe(kindImages('v1.35.0').etcd);
  });

  it('the addons and kubeadm objects parse; kube-dns is the 10th service address', () => {
    expect(dnsServiceIP('10.96.0.0/16')).toBe('10.96.0.10');
    expect(objs(corednsAddon(P)).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ServiceAccount/coredns',
      'ClusterRole/system:coredns',
      'ClusterRoleBinding/system:coredns',
      'ConfigMap/coredns',
      'Deployment/coredns',
      'Service/kube-dns',
    ]);
    expect(objs(kubeProxyAddon(P)).find((o) => o.kind === 'DaemonSet')!.spec.template.spec.containers[0].image).toBe('registry.k8s.io/kube-proxy:v1.35.0');
    expect(objs(kubeadmInitObjects(P)).map((o) => o.metadata.name)).toContain('bootstrap-token-abcdef');
  });

  it('kind\'s manifests: kindnet still a template, the standard StorageClass is kindDefaultStorageClass()', () => {
    const cni = kindCniManifest('v1.35.0');
    expect(cni).toContain('# would you kindly template this file');
    expect(cni).toContain('value: {{ .PodSubnet }}');
    const sc = objs(kindStorageManifest('v1.35.0')).find((o) => o.kind === 'StorageClass')!;
    expect(sc).toEqual(kindDefaultStorageClass());
  });
});
