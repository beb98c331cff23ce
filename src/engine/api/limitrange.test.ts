/**
 * The LimitRanger admission plugin, checked against
 * https://kubernetes.io/docs/tasks/administer-cluster/manage-resources/cpu-default-namespace/
 * (a container without requests/limits gets the LimitRange's defaultRequest 500m and default 1;
 * only a limit given -> the request equals the limit) and
 * https://kubernetes.io/docs/tasks/administer-cluster/manage-resources/cpu-constraint-namespace/
 * (the `maximum cpu usage per Container is 800m, but limit is 1500m` refusal).
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster } from '../testing/cluster';
import { ApiError } from './errors';
import { LIMIT_RANGER_ANNOTATION } from './limitrange';

const LR = `
apiVersion: v1
kind: LimitRange
metadata: {name: cpu-limit-range}
spec:
  limits:
  - default: {cpu: "1"}
    defaultRequest: {cpu: 0.5}
    type: Container
`;

const pod = (name: string, resources?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'default-cpu-demo-ctr', image: 'nginx', ...(resources ? { resources } : {}) }] },
});

describe('LimitRanger admission', () => {
  it('defaults a container without resources to the LimitRange defaults and annotates the pod', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(LR);
    const p = c.api.create(pod('default-cpu-demo'));
    expect(p.spec.containers[0].resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '500m' } });
    expect(p.metadata.annotations?.[LIMIT_RANGER_ANNOTATION]).toBe('LimitRanger plugin set: cpu request for container default-cpu-demo-ctr; cpu limit for container default-cpu-demo-ctr');
  });

  it('only a limit given: the request equals the limit (API defaulting first), nothing else set', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(LR);
    const p = c.api.create(pod('default-cpu-demo-2', { limits: { cpu: '1' } }));
    expect(p.spec.containers[0].resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } });
    expect(p.metadata.annotations?.[LIMIT_RANGER_ANNOTATION]).toBeUndefined();
  });

  it('refuses a container over max with 403, and one without a limit when max is set', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(`
apiVersion: v1
kind: LimitRange
metadata: {name: cpu-min-max-demo-lr}
spec:
  limits:
  - max: {cpu: 800m}
    min: {cpu: 200m}
    type: Container
`);
    const err = (obj: ReturnType<typeof pod>) => {
      try {
        c.api.create(obj);
        return 'created';
      } catch (e) {
        if (e instanceof ApiError) return `${e.status.code} ${e.message}`;
        throw e;
      }
    };
    expect(err(pod('constraints-cpu-demo-2', { limits: { cpu: '1.5' }, requests: { cpu: '500m' } }))).toBe(
      '403 pods "constraints-cpu-demo-2" is forbidden: maximum cpu usage per Container is 800m, but limit is 1500m',
    );
    expect(err(pod('constraints-cpu-demo-3', { limits: { cpu: '800m' }, requests: { cpu: '100m' } }))).toBe(
      '403 pods "constraints-cpu-demo-3" is forbidden: minimum cpu usage per Container is 200m, but request is 100m',
    );
    // Defaults from max (default) and defaultRequest (-> default): a bare container gets 800m/800m and passes.
    const p = c.api.create(pod('constraints-cpu-demo-4'));
    expect(p.spec.containers[0].resources).toEqual({ limits: { cpu: '800m' }, requests: { cpu: '800m' } });
  });
});
