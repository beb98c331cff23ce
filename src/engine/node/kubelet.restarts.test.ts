import { describe, expect, it } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';

/** Start times (virtual s) of each container attempt, from the containers containerd knows and knew. */
function startsOf(fx: ReturnType<typeof newKubeletFixture>, pod: string): number[] {
  return fx.events.filter((e) => e.involvedObject.name === pod && e.reason === 'Started').map((e) => e.time / 1000);
}

describe('kubelet: restarts', () => {
  it('C06: CrashLoopBackOff gaps 10/20/40/80/160/300 s with the real waiting message and events', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'crasher' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo boom; exit 1'] }] } }, 'k8s-lab-worker');
    const seen = new Set<string>();
    for (let t = 0; t < 15 * 60; t += 5) {
      fx.run(5000);
      const st = fx.pod('crasher')!.status.containerStatuses[0].state;
      seen.add(st.waiting?.reason ?? (st.terminated ? st.terminated.reason : 'Running'));
    }
    expect(seen.has('CrashLoopBackOff')).toBe(true);
    expect(seen.has('Error')).toBe(true);
    const starts = startsOf(fx, 'crasher');
    const gaps = starts.slice(1).map((s, i) => Math.round((s - starts[i]) * 1000) / 1000);
    // The first restart is immediate; then 10, 20, 40, 80, 160, 300, 300 s (+ up to 1 s of sync tick).
    const expected = [0, 10, 20, 40, 80, 160, 300];
    expected.forEach((g, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(g);
      expect(gaps[i]).toBeLessThanOrEqual(g + 10);
    });
    const pod = fx.pod('crasher')!;
    const cs = pod.status.containerStatuses[0];
    expect(cs.restartCount).toBeGreaterThanOrEqual(7);
    expect(cs.lastState.terminated.reason).toBe('Error');
    expect(cs.lastState.terminated.exitCode).toBe(1);
    expect(pod.status.phase).toBe('Running');
    if (cs.state.waiting) expect(cs.state.waiting.message).toBe(`back-off 5m0s restarting failed container=app pod=crasher_default(${pod.metadata.uid})`);
    expect(fx.eventsFor('crasher')).toContain(`BackOff: Back-off restarting failed container app in pod crasher_default(${pod.metadata.uid})`);
  });

  it('C08: OOMKilled (exit 137) and restarted with backoff, same node', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mem-example' } });
    fx.api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'mem-example' } });
    fx.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace: 'mem-example' }, data: { 'ca.crt': 'x' } } as never);
    fx.createPod(
      {
        metadata: { name: 'memory-demo-2', namespace: 'mem-example' },
        spec: {
          containers: [
            {
              name: 'memory-demo-2-ctr',
              image: 'polinux/stress',
              resources: { requests: { memory: '50Mi' }, limits: { memory: '100Mi' } },
              command: ['stress'],
              args: ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'],
            },
          ],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(180_000);
    const pod = fx.pod('memory-demo-2', 'mem-example')!;
    const cs = pod.status.containerStatuses[0];
    expect(cs.lastState.terminated.reason).toBe('OOMKilled');
    expect(cs.lastState.terminated.exitCode).toBe(137);
    expect(cs.restartCount).toBeGreaterThanOrEqual(3);
    expect(pod.spec.nodeName).toBe('k8s-lab-worker');
    expect(pod.status.qosClass).toBe('Burstable');
  });

  it('C09-style readiness flip: Ready=False with the Unhealthy event, no restart; back after one success', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(
      {
        metadata: { name: 'api' },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'busybox:1.36',
              command: ['sh', '-c', 'touch /tmp/ready; sleep 1d'],
              readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 5, failureThreshold: 3 },
            },
          ],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(20_000);
    let pod = fx.pod('api')!;
    expect(pod.status.containerStatuses[0].ready).toBe(true);
    expect(pod.status.conditions.find((c: { type: string }) => c.type === 'Ready').status).toBe('True');
    const id = pod.status.containerStatuses[0].containerID.replace('containerd://', '');
    fx.node('k8s-lab-worker').runtime().exec(id, ['rm', '/tmp/ready']);
    fx.run(20_000);
    pod = fx.pod('api')!;
    expect(pod.status.phase).toBe('Running');
    expect(pod.status.containerStatuses[0].ready).toBe(false);
    expect(pod.status.containerStatuses[0].restartCount).toBe(0);
    const ready = pod.status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready.status).toBe('False');
    expect(ready.reason).toBe('ContainersNotReady');
    expect(ready.message).toBe('containers with unready status: [app]');
    expect(fx.eventsFor('api')).toContain("Unhealthy: Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory");
    fx.node('k8s-lab-worker').runtime().exec(id, ['touch', '/tmp/ready']);
    fx.run(10_000);
    expect(fx.pod('api')!.status.containerStatuses[0].ready).toBe(true);
  });

  it('liveness failure: Killing event, restart, restartCount 1', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(
      {
        metadata: { name: 'liveness-http' },
        spec: {
          containers: [
            {
              name: 'liveness',
              image: 'registry.k8s.io/e2e-test-images/agnhost:2.40',
              args: ['liveness'],
              livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 3, periodSeconds: 3 },
            },
          ],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(40_000);
    const pod = fx.pod('liveness-http')!;
    const ev = fx.eventsFor('liveness-http');
    expect(ev).toContain('Unhealthy: Liveness probe failed: HTTP probe failed with statuscode: 500');
    expect(ev).toContain('Killing: Container liveness failed liveness probe, will be restarted');
    expect(pod.status.containerStatuses[0].restartCount).toBeGreaterThanOrEqual(1);
  });
});
