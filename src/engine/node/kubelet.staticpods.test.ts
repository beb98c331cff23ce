import { describe, expect, it } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';

const MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: static-web
  namespace: kube-system
  labels:
    role: myrole
spec:
  containers:
  - name: web
    image: nginx:1.27
    ports:
    - name: web
      containerPort: 80
      protocol: TCP
`;

const CP = 'k8s-lab-control-plane';

function fixture() {
  const fx = newKubeletFixture({ nodes: [{ name: CP, role: 'control-plane' }] });
  return fx;
}

const running = (fx: ReturnType<typeof fixture>) =>
  fx.node(CP).runtime().listContainers({ state: 'CONTAINER_RUNNING' }).filter((c) => c.labels['io.kubernetes.pod.name'] === `static-web-${CP}`);

describe('kubelet: static pods', () => {
  it('runs a manifest, creates the mirror pod owned by the Node, recreates a deleted mirror, follows edits and removal', () => {
    const fx = fixture();
    const fs = fx.node(CP).machine.fs;
    fs.writeFile('/etc/kubernetes/manifests/static-web.yaml', MANIFEST);
    fs.writeFile('/etc/kubernetes/manifests/.hidden.yaml', MANIFEST.replace('static-web', 'hidden'));
    fx.run(15_000);
    const mirror = fx.api.get('pods', 'kube-system', `static-web-${CP}`);
    const node = fx.api.get('nodes', undefined, CP);
    expect(mirror.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: CP, uid: node.metadata.uid, controller: true }]);
    const hash = mirror.metadata.annotations!['kubernetes.io/config.hash'];
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(mirror.metadata.annotations!['kubernetes.io/config.mirror']).toBe(hash);
    expect(mirror.metadata.annotations!['kubernetes.io/config.source']).toBe('file');
    expect(mirror.metadata.annotations!['kubernetes.io/config.seen']).toMatch(/^2026-01-05T06:00:00\.\d+Z$/);
    expect(mirror.metadata.labels!.role).toBe('myrole');
    expect(mirror.spec.nodeName).toBe(CP);
    expect(mirror.status.phase).toBe('Running');
    expect(fx.api.tryGet('pods', 'kube-system', `hidden-${CP}`)).toBeUndefined();
    const c0 = running(fx);
    expect(c0.length).toBe(1);

    // Delete the mirror pod: the kubelet puts it straight back; the container keeps running.
    fx.api.delete('pods', 'kube-system', `static-web-${CP}`);
    fx.run(5000);
    const mirror2 = fx.api.get('pods', 'kube-system', `static-web-${CP}`);
    expect(mirror2.metadata.uid).not.toBe(mirror.metadata.uid);
    expect(running(fx).map((c) => c.id)).toEqual(c0.map((c) => c.id));

    // Edit the manifest: a new hash, the pod restarts with new containers.
    fs.writeFile('/etc/kubernetes/manifests/static-web.yaml', MANIFEST.replace('nginx:1.27', 'nginx:1.27.5'));
    fx.run(40_000);
    const mirror3 = fx.api.get('pods', 'kube-system', `static-web-${CP}`);
    expect(mirror3.metadata.annotations!['kubernetes.io/config.hash']).not.toBe(hash);
    expect(mirror3.spec.containers[0].image).toBe('nginx:1.27.5');
    const c1 = running(fx);
    expect(c1.length).toBe(1);
    expect(c1[0].id).not.toBe(c0[0].id);

    // Remove the manifest: the pod stops and the mirror pod goes within 20 s.
    fs.rm('/etc/kubernetes/manifests/static-web.yaml');
    fx.run(20_000);
    expect(fx.api.tryGet('pods', 'kube-system', `static-web-${CP}`)).toBeUndefined();
    expect(running(fx).length).toBe(0);
  });

  it('runs static pods without any API server; the mirror pod appears once the API answers', () => {
    const fx = fixture();
    fx.api.setAvailability('down');
    fx.node(CP).machine.fs.writeFile('/etc/kubernetes/manifests/static-web.yaml', MANIFEST);
    fx.run(30_000);
    expect(running(fx).length).toBe(1);
    fx.api.setAvailability('up');
    fx.run(20_000);
    const mirror = fx.api.get('pods', 'kube-system', `static-web-${CP}`);
    expect(mirror.status.phase).toBe('Running');
    expect(fx.api.get('nodes', undefined, CP).metadata.name).toBe(CP);
  });

  it('a restarted kubelet adopts the static pod (same container, no restart)', () => {
    const fx = fixture();
    fx.node(CP).machine.fs.writeFile('/etc/kubernetes/manifests/static-web.yaml', MANIFEST);
    fx.run(15_000);
    const before = running(fx).map((c) => c.id);
    const m = fx.node(CP).machine;
    m.systemctl(['restart', 'kubelet']);
    fx.run(20_000);
    expect(running(fx).map((c) => c.id)).toEqual(before);
    expect(fx.api.get('pods', 'kube-system', `static-web-${CP}`).status.containerStatuses[0].restartCount).toBe(0);
  });
});
