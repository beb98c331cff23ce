import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { newKubeletFixture } from './kubelet.testkit';

describe('kubelet: logs, admission, restart counts', () => {
  it('containerLogs: current and --previous, and the waiting/previous errors', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'crasher' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo boom; exit 1'] }] } }, 'k8s-lab-worker');
    fx.createPod({ metadata: { name: 'bad' }, spec: { containers: [{ name: 'app', image: 'nginx:does-not-exist' }] } }, 'k8s-lab-worker');
    fx.run(40_000);
    const k = fx.node('k8s-lab-worker').kubelet;
    expect(k.containerLogs('default', 'crasher', 'app')).toEqual(['boom']);
    expect(k.containerLogs('default', 'crasher', 'app', true)).toEqual(['boom']);
    const err = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return (e as ApiError).kubectlMessage();
      }
      return '';
    };
    expect(err(() => k.containerLogs('default', 'bad', 'app'))).toMatch(/^Error from server \(BadRequest\): container "app" in pod "bad" is waiting to start: (image can't be pulled|trying and failing to pull image)$/);
    expect(err(() => k.containerLogs('default', 'bad', 'app', true))).toBe('Error from server (BadRequest): previous terminated container "app" in pod "bad" not found');
    expect(err(() => k.containerLogs('default', 'crasher', 'nope'))).toBe('Error from server (BadRequest): container nope is not valid for pod crasher');
    fx.node('k8s-lab-worker').machine.systemctl(['stop', 'kubelet']);
    fx.run(1000);
    expect(err(() => k.containerLogs('default', 'crasher', 'app'))).toBe('Error from server: Get "https://172.18.0.2:10250/containerLogs/default/crasher/app": dial tcp 172.18.0.2:10250: connect: connection refused');
  });

  it('restart counts continue across a kubelet restart', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'crasher' }, spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }] } }, 'k8s-lab-worker');
    fx.run(40_000);
    const before = fx.pod('crasher')!.status.containerStatuses[0].restartCount;
    expect(before).toBeGreaterThanOrEqual(3);
    fx.node('k8s-lab-worker').machine.systemctl(['restart', 'kubelet']);
    fx.run(30_000);
    expect(fx.pod('crasher')!.status.containerStatuses[0].restartCount).toBeGreaterThan(before);
  });

  it('admission: a pod bound past the node allocatable is rejected OutOfcpu', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'big' }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '3' } } }] } }, 'k8s-lab-worker');
    fx.run(5000);
    const pod = fx.pod('big')!;
    expect(pod.status.phase).toBe('Failed');
    expect(pod.status.reason).toBe('OutOfcpu');
    expect(pod.status.message).toBe("Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000");
    expect(fx.eventsFor('big')).toEqual(["OutOfcpu: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000"]);
  });

  it('env from the downward API and ConfigMaps; CreateContainerConfigError for a missing ConfigMap', () => {
    const fx = newKubeletFixture({ load: ['bookshop:v1'] });
    fx.run(1000);
    fx.createPod(
      {
        metadata: { name: 'catalog' },
        spec: {
          containers: [
            {
              name: 'catalog',
              image: 'bookshop:v1',
              command: ['/usr/local/bin/catalog'],
              env: [
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                { name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'web-config', key: 'greeting' } } },
              ],
            },
          ],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(3000);
    const w = fx.pod('catalog')!.status.containerStatuses[0].state.waiting;
    expect(w.reason).toBe('CreateContainerConfigError');
    expect(w.message).toBe('configmap "web-config" not found');
    expect(fx.eventsFor('catalog')).toContain('Failed: Error: configmap "web-config" not found');
    fx.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-config', namespace: 'default' }, data: { greeting: 'hello' } } as never);
    fx.run(12_000);
    expect(fx.pod('catalog')!.status.phase).toBe('Running');
  });
});

describe('kubelet: deadlines and startup probes', () => {
  it('activeDeadlineSeconds: DeadlineExceeded, Failed, containers stopped', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'dl' }, spec: { activeDeadlineSeconds: 20, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] } }, 'k8s-lab-worker');
    fx.run(15_000);
    expect(fx.pod('dl')!.status.phase).toBe('Running');
    fx.run(40_000);
    const pod = fx.pod('dl')!;
    expect(pod.status.phase).toBe('Failed');
    expect(pod.status.reason).toBe('DeadlineExceeded');
    expect(pod.status.message).toBe('Pod was active on the node longer than the specified deadline');
    expect(fx.eventsFor('dl')).toContain('DeadlineExceeded: Pod was active on the node longer than the specified deadline');
  });

  it('a failing startup probe restarts the container and keeps liveness/readiness off', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(
      {
        metadata: { name: 'slow' },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'busybox:1.36',
              command: ['sleep', '3600'],
              startupProbe: { exec: { command: ['cat', '/tmp/started'] }, periodSeconds: 2, failureThreshold: 3 },
              readinessProbe: { exec: { command: ['true'] } },
            },
          ],
        },
      },
      'k8s-lab-worker',
    );
    fx.run(15_000);
    const ev = fx.eventsFor('slow');
    expect(ev.some((e) => e.startsWith('Unhealthy: Startup probe failed: cat:'))).toBe(true);
    expect(ev).toContain('Killing: Container app failed startup probe, will be restarted');
    const cs = fx.pod('slow')!.status.containerStatuses[0];
    expect(cs.ready).toBe(false);
    expect(cs.started).toBe(false);
  });

  it('a pod deleted while its image is being pulled never starts', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'postgres:17-alpine' }] } }, 'k8s-lab-worker');
    fx.run(1000);
    fx.api.delete('pods', 'default', 'p');
    fx.run(30_000);
    expect(fx.pod('p')).toBeUndefined();
    expect(fx.eventsFor('p').some((e) => e.startsWith('Started:'))).toBe(false);
  });
});
