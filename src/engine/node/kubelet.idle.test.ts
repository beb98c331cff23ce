import { describe, expect, it } from 'vitest';
import { Clock } from '../clock';
import type { KubeObject } from '../api/types';
import { ProbeManager } from './kubelet/probes';
import { newKubeletFixture } from './kubelet.testkit';

describe('kubelet: periodic work that finds nothing to do', () => {
  it('container GC keeps removing old exited containers of a crash-looping pod between idle passes', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'crasher' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo boom; exit 1'] }] } }, 'k8s-lab-worker');
    const uid = fx.pod('crasher')!.metadata.uid;
    const counts: number[] = [];
    // 15 minutes: restarts every 10..300 s, the GC every minute (several passes in the long
    // back-offs find nothing to remove and let the next ones skip until the next crash).
    for (let t = 0; t < 15 * 60; t += 5) {
      fx.run(5000);
      counts.push(fx.node('k8s-lab-worker').runtime().listContainers({ podUid: uid, state: 'CONTAINER_EXITED' }).length);
    }
    expect(fx.pod('crasher')!.status.containerStatuses[0].restartCount).toBeGreaterThanOrEqual(7);
    // The newest exited container is kept; an older one lasts until the next pass (a minute at
    // most: 13 samples 5 s apart), also when it comes after passes that found nothing.
    let run = 0;
    let longest = 0;
    for (const n of counts) {
      run = n > 1 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    expect(longest).toBeLessThanOrEqual(13);
    expect(counts.slice(-12).every((n) => n === 1)).toBe(true);
    expect(counts.filter((n) => n === 1).length).toBeGreaterThan(100);
  });

  it('housekeeping still stops a pod sandbox nobody wants after many passes that found no orphan', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(60_000);
    const rt = fx.node('k8s-lab-worker').runtime();
    // A sandbox of a pod the kubelet never heard of (crictl runp): an orphan for the next pass.
    const sb = rt.runPodSandbox({ name: 'ghost', namespace: 'default', uid: 'ghost-uid' });
    expect(rt.listPodSandboxes({ podUid: 'ghost-uid' }).map((s) => s.state)).toEqual(['SANDBOX_READY']);
    fx.run(10_000);
    expect(rt.listPodSandboxes({ podUid: 'ghost-uid' }).map((s) => [s.id, s.state])).toEqual([[sb, 'SANDBOX_NOTREADY']]);
    // The pod the kubelet knows keeps running.
    expect(fx.pod('web')!.status.phase).toBe('Running');
  });

  it('the node follows its CNI configuration directory: NotReady while empty, Ready with a config, NotReady again when it goes', () => {
    const fx = newKubeletFixture();
    const fs = fx.node('k8s-lab-worker').machine.fs;
    const ready = () => {
      const n = fx.api.get('nodes', undefined, 'k8s-lab-worker');
      return ((n.status?.conditions ?? []) as { type: string; status: string; message: string }[]).find((x) => x.type === 'Ready')!;
    };
    fx.run(30_000);
    expect(ready().status).toBe('True');
    fs.mkdir('/etc/cni/net.d', { parents: true });
    fx.run(30_000);
    expect(ready().status).toBe('False');
    expect(ready().message).toContain('cni plugin not initialized');
    // Several status updates with the directory unchanged, then a config appears.
    fx.run(30_000);
    fs.writeFile('/etc/cni/net.d/10-kindnet.conflist', '{}\n');
    fx.run(30_000);
    expect(ready().status).toBe('True');
    fs.writeFile('/etc/cni/net.d/README', 'not a config\n');
    fx.run(30_000);
    expect(ready().status).toBe('True');
    fs.rm('/etc/cni/net.d/10-kindnet.conflist');
    fx.run(30_000);
    expect(ready().status).toBe('False');
    expect(ready().message).toContain('cni plugin not initialized');
  });

  it('a worker that had no mirror pods for a while still deletes the mirror pod of a removed manifest', () => {
    const fx = newKubeletFixture();
    const fs = fx.node('k8s-lab-worker').machine.fs;
    fx.run(60_000);
    fs.mkdir('/etc/kubernetes/manifests', { parents: true });
    fs.writeFile('/etc/kubernetes/manifests/web.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: default\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n');
    fx.run(30_000);
    expect(fx.pod('web-k8s-lab-worker')?.metadata.annotations?.['kubernetes.io/config.mirror']).toBeDefined();
    fs.rm('/etc/kubernetes/manifests/web.yaml');
    fx.run(30_000);
    expect(fx.pod('web-k8s-lab-worker')).toBeUndefined();
  });

  it('a worker that had no mirror pods for a while deletes an orphaned mirror pod bound to it', () => {
    const fx = newKubeletFixture();
    fx.run(60_000);
    fx.createPod({ metadata: { name: 'stray', annotations: { 'kubernetes.io/config.mirror': '0123456789abcdef0123456789abcdef' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(5000);
    expect(fx.pod('stray')).toBeUndefined();
  });

  it('the probe manager forgets a removed pod once it is forgotten', () => {
    const clock = new Clock();
    const pm = new ProbeManager({
      clock,
      userAgent: 'kube-probe/1.35',
      cri: () => {
        throw new Error('not used');
      },
      view: () => undefined,
      pod: () => undefined,
      event: () => {},
      onKillNeeded: () => {},
      onStatusChange: () => {},
    });
    const pod = { metadata: { name: 'p', namespace: 'default', uid: 'u1' }, spec: { containers: [{ name: 'c', readinessProbe: { exec: { command: ['true'] } } }] } } as unknown as KubeObject;
    pm.addPod(pod);
    const v1 = pm.answersVersion('u1');
    expect(v1).toBeGreaterThan(0);
    pm.removePod('u1');
    // Still known while the pod worker lives (a terminating worker compares against it).
    expect(pm.answersVersion('u1')).toBeGreaterThan(v1);
    pm.forgetPod('u1');
    expect(pm.answersVersion('u1')).toBe(0);
    expect((pm as unknown as { versions: Map<string, number> }).versions.size).toBe(0);
  });
});
