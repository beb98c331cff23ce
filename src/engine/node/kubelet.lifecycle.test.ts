import { describe, expect, it } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';

/** Run in 100 ms steps until `cond` holds; returns the virtual ms it took (or -1). */
function until(fx: ReturnType<typeof newKubeletFixture>, cond: () => boolean, maxMs: number): number {
  const start = fx.clock.now();
  for (let t = 0; t <= maxMs; t += 100) {
    if (cond()) return fx.clock.now() - start;
    fx.run(100);
  }
  return -1;
}

describe('kubelet: graceful termination', () => {
  it('a SIGTERM-ignoring container takes the 30 s grace period then SIGKILL; nginx goes at once', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'sleeper' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] } }, 'k8s-lab-worker');
    fx.createPod({ metadata: { name: 'web' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(20_000);
    expect(fx.pod('sleeper')!.status.phase).toBe('Running');
    expect(fx.pod('web')!.status.phase).toBe('Running');
    const rt = fx.node('k8s-lab-worker').runtime();
    const sleeperId = fx.pod('sleeper')!.status.containerStatuses[0].containerID.replace('containerd://', '');
    fx.api.delete('pods', 'default', 'sleeper');
    fx.api.delete('pods', 'default', 'web');
    const webGone = until(fx, () => !fx.pod('web'), 40_000);
    expect(webGone).toBeGreaterThanOrEqual(0);
    expect(webGone).toBeLessThan(2000);
    expect(fx.pod('sleeper')).toBeDefined();
    const sleeperGone = until(fx, () => !fx.pod('sleeper'), 40_000) + webGone;
    expect(sleeperGone).toBeGreaterThanOrEqual(30_000);
    expect(sleeperGone).toBeLessThan(32_000);
    expect(rt.containerStatus(sleeperId).exitCode).toBe(137);
    expect(fx.eventsFor('sleeper')).toContain('Killing: Stopping container app');
    expect(fx.eventsFor('web')).toContain('Killing: Stopping container nginx');
  });

  it('a preStop hook still running at the end of the grace period gets 2 s more', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(
      {
        metadata: { name: 'hooked' },
        spec: {
          terminationGracePeriodSeconds: 10,
          containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'], lifecycle: { preStop: { exec: { command: ['sleep', '60'] } } } }],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(10_000);
    fx.api.delete('pods', 'default', 'hooked');
    const gone = until(fx, () => !fx.pod('hooked'), 30_000);
    expect(gone).toBeGreaterThanOrEqual(12_000);
    expect(gone).toBeLessThan(13_500);
  });
});

describe('kubelet: process restarts and runtime outages', () => {
  it('kubelet killed: containers keep running; the next kubelet adopts them (same IDs, no restart)', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'web' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 } } }] } }, 'k8s-lab-worker');
    fx.run(20_000);
    const before = fx.pod('web')!.status.containerStatuses[0];
    expect(before.ready).toBe(true);
    const m = fx.node('k8s-lab-worker').machine;
    const [pid] = m.pgrep('kubelet', { exact: true });
    expect(pid).toBeGreaterThan(0);
    m.signal(pid, 'SIGKILL');
    fx.run(5000);
    expect(m.pgrep('kubelet', { exact: true })).toEqual([]);
    expect(fx.node('k8s-lab-worker').runtime().containerStatus(before.containerID.replace('containerd://', '')).state).toBe('CONTAINER_RUNNING');
    // systemd restarts it (RestartSec=10); it relists and adopts.
    fx.run(30_000);
    expect(m.pgrep('kubelet', { exact: true }).length).toBe(1);
    const after = fx.pod('web')!.status.containerStatuses[0];
    expect(after.containerID).toBe(before.containerID);
    expect(after.restartCount).toBe(0);
    expect(after.ready).toBe(true);
    expect(fx.eventsFor('web').filter((e) => e.startsWith('Started:')).length).toBe(1);
  });

  it('a pod deleted while the kubelet was down is cleaned up when it comes back', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'web' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(20_000);
    const id = fx.pod('web')!.status.containerStatuses[0].containerID.replace('containerd://', '');
    const m = fx.node('k8s-lab-worker').machine;
    m.systemctl(['stop', 'kubelet']);
    fx.run(2000);
    // Force delete: the API object is gone at once, the container still runs.
    fx.api.delete('pods', 'default', 'web', { gracePeriodSeconds: 0 });
    fx.run(5000);
    const rt = fx.node('k8s-lab-worker').runtime();
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    m.systemctl(['start', 'kubelet']);
    fx.run(10_000);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_EXITED');
  });

  it('containerd stopped: the node goes NotReady (container runtime is down), containers keep running', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'web' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(20_000);
    const id = fx.pod('web')!.status.containerStatuses[0].containerID.replace('containerd://', '');
    fx.node('k8s-lab-worker').machine.systemctl(['stop', 'containerd']);
    fx.run(20_000);
    const ready = () => fx.api.get('nodes', undefined, 'k8s-lab-worker').status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready().status).toBe('True');
    fx.run(30_000);
    expect(ready().status).toBe('False');
    expect(ready().reason).toBe('KubeletNotReady');
    expect(ready().message).toBe('container runtime is down');
    fx.run(180_000);
    expect(ready().message).toMatch(/^\[container runtime is down, PLEG is not healthy: pleg was last seen active 3m[\d.]+s ago; threshold is 3m0s\]$/);
    const rt = fx.node('k8s-lab-worker').runtime();
    // The container process is still alive (containerd is not needed for that).
    expect(fx.node('k8s-lab-worker').machine.processes.list().some((p) => p.containerId === id)).toBe(true);
    fx.node('k8s-lab-worker').machine.systemctl(['start', 'containerd']);
    fx.run(15_000);
    expect(ready().status).toBe('True');
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    expect(fx.eventsFor('k8s-lab-worker')).toContain('NodeNotReady: Node k8s-lab-worker status is now: NodeNotReady');
  });

  it('API server down and node disconnected: the kubelet retries, containers keep running, status catches up', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'web' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(20_000);
    const m = fx.node('k8s-lab-worker').machine;
    fx.api.setAvailability('down');
    fx.run(60_000);
    fx.api.setAvailability('up');
    fx.run(30_000);
    expect(fx.pod('web')!.status.containerStatuses[0].restartCount).toBe(0);
    m.disconnect();
    const lease0 = fx.api.get('leases', 'kube-node-lease', 'k8s-lab-worker').spec.renewTime;
    fx.run(60_000);
    expect(fx.api.get('leases', 'kube-node-lease', 'k8s-lab-worker').spec.renewTime).toBe(lease0);
    m.connect();
    fx.run(20_000);
    expect(fx.api.get('leases', 'kube-node-lease', 'k8s-lab-worker').spec.renewTime).not.toBe(lease0);
    expect(m.pgrep('kubelet', { exact: true }).length).toBe(1);
    expect(fx.pod('web')!.status.phase).toBe('Running');
  });
});
