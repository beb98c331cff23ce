import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { ControllerProcess } from './manager';
import { KUBE_CONTROLLERS } from '.';
import { convertDesiredReplicasWithRules, newHorizontalController, type MetricsSource, type PodMetricsInfo } from './podautoscaler';
import type { Selector } from '../api/labels';

// pkg/controller/podautoscaler/horizontal.go beyond what a kind cluster can show: the metrics
// extension point (a source that serves pod CPU usage, as a metrics-server would) drives the
// replica arithmetic, the scale-up limit and the ScalingActive=True condition; the pure
// normalization rules.

/** A metrics source where every pod the selector picks uses `usageMilli` of `resource`. */
function fixedUsage(c: TestCluster, usageMilli: () => number): MetricsSource {
  return {
    getResourceMetric(_resource: string, namespace: string, selector: Selector): PodMetricsInfo {
      const out: PodMetricsInfo = new Map();
      for (const p of c.api.list('pods', { namespace }).items) {
        if (selector.matches(p.metadata.labels) && !p.metadata.deletionTimestamp) out.set(p.metadata.name!, { valueMilli: usageMilli(), timestamp: c.clock.now() });
      }
      return out;
    },
    getRawMetric() {
      throw new Error('no custom metrics');
    },
    getObjectOrExternalMetric() {
      throw new Error('no object metrics');
    },
  };
}

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources: {requests: {cpu: 100m}}
`;

const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

/** A test cluster whose HPA controller reads `usage` (milli-CPU per pod) from a fake metrics source. */
function clusterWithMetrics(usage: () => number): TestCluster {
  const names = Object.keys(KUBE_CONTROLLERS).filter((n) => n !== 'horizontalpodautoscaling');
  const c = newTestCluster({ controllers: names });
  const hpa = new ControllerProcess('hpa-with-metrics', [(ctx) => newHorizontalController(ctx, { metrics: fixedUsage(c, usage) })], {
    api: c.api,
    clock: c.clock,
    rng: c.rng,
    trace: c.trace.add,
    leaderElect: false,
    eventSink: (e) => c.events.push(e),
  });
  hpa.start();
  return c;
}

describe('horizontal-pod-autoscaler with a metrics source', () => {
  it('200 % of a 50 % CPU target: scale-up limited to max(2 x current, 4) per sync, then by maxReplicas', () => {
    let usage = 200;
    const c = clusterWithMetrics(() => usage);
    c.apply(WEB);
    c.run(5000);
    c.apply(HPA);
    c.run(15_500);
    expect(c.api.get('deployments', 'default', 'web').spec.replicas).toBe(4);
    const hpa = c.api.get('horizontalpodautoscalers', 'default', 'web');
    expect(hpa.status.currentMetrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 200, averageValue: '200m' } } }]);
    expect(hpa.status.conditions.map((x: { type: string; status: string; reason: string }) => `${x.type}/${x.status}/${x.reason}`)).toEqual([
      'AbleToScale/True/SucceededRescale',
      'ScalingActive/True/ValidMetricFound',
      'ScalingLimited/False/DesiredWithinRange',
    ]);
    expect(hpa.status.conditions[1].message).toBe('the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)');
    const rescales = c.events.filter((e) => e.reason === 'SuccessfulRescale').map((e) => e.message);
    expect(rescales).toEqual(['New size: 4; reason: cpu resource utilization (percentage of request) above target']);
    // Next sync: 4 pods at 200 % want 16; the limit is max(8, 4) = 8.
    c.run(15_000);
    expect(c.api.get('deployments', 'default', 'web').spec.replicas).toBe(8);
    // Then 16 wanted, maxReplicas 10 caps it (TooManyReplicas).
    c.run(15_000);
    expect(c.api.get('deployments', 'default', 'web').spec.replicas).toBe(10);
    const limited = c.api.get('horizontalpodautoscalers', 'default', 'web').status.conditions.find((x: { type: string }) => x.type === 'ScalingLimited');
    expect(limited).toMatchObject({ status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
    // Load gone: scale-down waits for the 5-minute stabilization window (highest recent recommendation).
    usage = 10;
    c.run(60_000);
    expect(c.api.get('deployments', 'default', 'web').spec.replicas).toBe(10);
    expect(c.api.get('horizontalpodautoscalers', 'default', 'web').status.conditions[0]).toMatchObject({ reason: 'ScaleDownStabilized' });
    c.run(5 * 60_000);
    expect(c.api.get('deployments', 'default', 'web').spec.replicas).toBe(2);
    expect(c.events.filter((e) => e.reason === 'SuccessfulRescale').at(-1)?.message).toBe('New size: 2; reason: All metrics below target');
  });

  it('within the 10 % tolerance: no rescale', () => {
    const c = clusterWithMetrics(() => 54);
    c.apply(WEB);
    c.run(5000);
    c.apply(HPA);
    c.run(31_000);
    expect(c.api.get('deployments', 'default', 'web').spec.replicas).toBe(1);
    expect(c.events.filter((e) => e.reason === 'SuccessfulRescale')).toEqual([]);
    expect(c.api.get('horizontalpodautoscalers', 'default', 'web').status).toMatchObject({ currentReplicas: 1, desiredReplicas: 1 });
  });
});

describe('convertDesiredReplicasWithRules', () => {
  it('clamps to [min, min(max, scale-up limit)] with the ScalingLimited reasons', () => {
    expect(convertDesiredReplicasWithRules(1, 0, 1, 10)).toEqual({ replicas: 1, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' });
    expect(convertDesiredReplicasWithRules(1, 9, 1, 10)).toEqual({ replicas: 4, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
    expect(convertDesiredReplicasWithRules(3, 9, 1, 5)).toEqual({ replicas: 5, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
    expect(convertDesiredReplicasWithRules(3, 5, 1, 10)).toEqual({ replicas: 5, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' });
  });
});
