/**
 * Served API versions other than the storage version: the same objects seen through another
 * version, converted on the way in and out (kube-apiserver decodes a request in its version,
 * converts it to the internal type and stores the storage version; a response is converted back
 * to the request's version).
 *
 * Served here: autoscaling/v1 HorizontalPodAutoscaler over the autoscaling/v2 store, as
 * pkg/apis/autoscaling/v1/conversion.go converts them:
 * - v1 -> v2: `targetCPUUtilizationPercentage` becomes a `Resource` cpu metric with a
 *   `Utilization` target (none: no metrics, which v2 defaulting turns into the 80 % CPU target);
 *   what v1 cannot say (other metrics, `behavior`) is kept from the stored object on an update,
 *   as the real conversion keeps it through its `autoscaling.alpha.kubernetes.io/*` annotations;
 * - v2 -> v1: the first cpu `Utilization` metric's target becomes
 *   `targetCPUUtilizationPercentage`, the cpu utilization read becomes
 *   `currentCPUUtilizationPercentage`, and the conditions are carried in the
 *   `autoscaling.alpha.kubernetes.io/conditions` annotation (JSON, Go field order).
 * Left out: the `autoscaling.alpha.kubernetes.io/metrics`, `current-metrics` and `behavior`
 * annotations of other metric types.
 *
 * Also served: events.k8s.io/v1 Events over the core/v1 Event store (one resource, two views, as
 * kube-apiserver keeps them: pkg/registry/events serves the core event storage), converted as
 * pkg/apis/events/v1/conversion.go does (`regarding` <-> `involvedObject`, `note` <-> `message`,
 * `deprecatedSource`/`deprecatedFirstTimestamp`/`deprecatedLastTimestamp`/`deprecatedCount` <->
 * `source`/`firstTimestamp`/`lastTimestamp`/`count`, `reportingController` <->
 * `reportingComponent`; the rest by name).
 */
import type { KubeObject } from './types';
import type { FieldError } from './errors';
import { validateEventsV1Create } from './validation';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** A served version's conversion to and from the storage version. */
export interface Conversion {
  /** The storage version (`v2`). */
  storageVersion: string;
  /**
   * The storage version's group when it is another group's resource of the same name and kind
   * (events.k8s.io/v1 Events are stored as core/v1 Events: `''`); absent: the served group.
   */
  storageGroup?: string;
  /** The request's object in the storage version; `stored`, when given, is the object it replaces. */
  toStorage(obj: KubeObject, stored?: KubeObject): KubeObject;
  /** The stored object in the served version. */
  fromStorage(obj: KubeObject): KubeObject;
  /**
   * Checks a create through this version adds to the stored kind's validation (events.k8s.io/v1's
   * strict Event validation), on the converted, defaulted object; field errors in order.
   */
  validateCreate?(obj: KubeObject): FieldError[];
}

const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';

const isCpuUtilization = (m: Any): boolean =>
  m?.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.type === 'Utilization' && typeof m.resource.target.averageUtilization === 'number';

/** autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler (pkg/apis/autoscaling/v1/conversion.go). */
export const HPA_V1: Conversion = {
  storageVersion: 'v2',
  toStorage(obj: KubeObject, stored?: KubeObject): KubeObject {
    const v1: Any = obj;
    const spec: Any = v1.spec ?? {};
    const old: Any = stored?.spec ?? {};
    const out: Any = {
      ...v1,
      apiVersion: 'autoscaling/v2',
      metadata: { ...(v1.metadata ?? {}) },
      spec: { scaleTargetRef: spec.scaleTargetRef },
    };
    if (out.metadata.annotations) {
      const a = { ...out.metadata.annotations };
      delete a[CONDITIONS_ANNOTATION];
      out.metadata.annotations = Object.keys(a).length ? a : undefined;
      if (!out.metadata.annotations) delete out.metadata.annotations;
    }
    if (spec.minReplicas !== undefined) out.spec.minReplicas = spec.minReplicas;
    out.spec.maxReplicas = spec.maxReplicas;
    const others = ((old.metrics ?? []) as Any[]).filter((m) => !(m?.type === 'Resource' && m.resource?.name === 'cpu'));
    const metrics: Any[] = [];
    if (typeof spec.targetCPUUtilizationPercentage === 'number') {
      metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } });
    }
    metrics.push(...others);
    if (metrics.length) out.spec.metrics = metrics;
    if (old.behavior) out.spec.behavior = old.behavior;
    const st: Any = v1.status;
    if (st) {
      const status: Any = {};
      if (st.observedGeneration !== undefined) status.observedGeneration = st.observedGeneration;
      if (st.lastScaleTime) status.lastScaleTime = st.lastScaleTime;
      status.currentReplicas = st.currentReplicas ?? 0;
      status.desiredReplicas = st.desiredReplicas ?? 0;
      if (typeof st.currentCPUUtilizationPercentage === 'number') {
        status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: st.currentCPUUtilizationPercentage } } }];
      } else status.currentMetrics = stored ? ((stored as Any).status?.currentMetrics ?? null) : null;
      const conds = stored ? (stored as Any).status?.conditions : undefined;
      if (conds) status.conditions = conds;
      out.status = status;
    }
    return out as KubeObject;
  },
  fromStorage(obj: KubeObject): KubeObject {
    const v2: Any = obj;
    const spec: Any = v2.spec ?? {};
    const st: Any = v2.status ?? {};
    const v1Spec: Any = { scaleTargetRef: { ...(spec.scaleTargetRef ?? {}) } };
    if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
    v1Spec.maxReplicas = spec.maxReplicas;
    const cpu = ((spec.metrics ?? []) as Any[]).find(isCpuUtilization);
    if (cpu) v1Spec.targetCPUUtilizationPercentage = cpu.resource.target.averageUtilization;
    const status: Any = {};
    if (st.observedGeneration !== undefined) status.observedGeneration = st.observedGeneration;
    if (st.lastScaleTime) status.lastScaleTime = st.lastScaleTime;
    status.currentReplicas = st.currentReplicas ?? 0;
    status.desiredReplicas = st.desiredReplicas ?? 0;
    const curCpu = ((st.currentMetrics ?? []) as Any[]).find(
      (m) => m?.type === 'Resource' && m.resource?.name === 'cpu' && typeof m.resource?.current?.averageUtilization === 'number',
    );
    if (curCpu) status.currentCPUUtilizationPercentage = curCpu.resource.current.averageUtilization;
    const metadata: Any = { ...v2.metadata };
    if (Array.isArray(st.conditions) && st.conditions.length) {
      const conds = st.conditions.map((c: Any) => {
        const o: Any = { type: c.type, status: c.status };
        if (c.lastTransitionTime) o.lastTransitionTime = c.lastTransitionTime;
        if (c.reason) o.reason = c.reason;
        if (c.message) o.message = c.message;
        return o;
      });
      metadata.annotations = { ...(metadata.annotations ?? {}), [CONDITIONS_ANNOTATION]: JSON.stringify(conds) };
    }
    return { apiVersion: 'autoscaling/v1', kind: v2.kind, metadata, spec: v1Spec, status } as KubeObject;
  },
};

/**
 * events.k8s.io/v1 Event <-> core/v1 Event (pkg/apis/events/v1/conversion.go with the generated
 * field-by-name conversions). The fields come out in the Go structs' JSON order with their
 * `omitempty` rules: core/v1 always has `source`, `firstTimestamp`/`lastTimestamp`/`eventTime`
 * (null when unset), `reportingComponent` and `reportingInstance`; events.k8s.io/v1 always has
 * `eventTime` (null when unset) and `deprecatedFirstTimestamp`/`deprecatedLastTimestamp` (Times
 * marshal as null), omits empty strings and `deprecatedCount: 0` (`deprecatedSource`, a struct, is always there).
 */
export const EVENTS_V1: Conversion = {
  storageVersion: 'v1',
  storageGroup: '',
  validateCreate: validateEventsV1Create,
  toStorage(obj: KubeObject): KubeObject {
    const e: Any = obj;
    const out: Any = { apiVersion: 'v1', kind: 'Event', metadata: { ...(e.metadata ?? {}) } };
    out.involvedObject = { ...(e.regarding ?? {}) };
    // omitempty: an empty reason, message, type or action is not in the JSON.
    if (e.reason) out.reason = e.reason;
    if (e.note) out.message = e.note;
    out.source = { ...(e.deprecatedSource ?? {}) };
    out.firstTimestamp = e.deprecatedFirstTimestamp ?? null;
    out.lastTimestamp = e.deprecatedLastTimestamp ?? null;
    if (e.deprecatedCount) out.count = e.deprecatedCount;
    if (e.type) out.type = e.type;
    out.eventTime = e.eventTime ?? null;
    if (e.series) out.series = { ...e.series };
    if (e.action) out.action = e.action;
    if (e.related) out.related = { ...e.related };
    out.reportingComponent = e.reportingController ?? '';
    out.reportingInstance = e.reportingInstance ?? '';
    return out as KubeObject;
  },
  fromStorage(obj: KubeObject): KubeObject {
    const e: Any = obj;
    const out: Any = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: e.metadata };
    out.eventTime = e.eventTime ?? null;
    if (e.series) out.series = e.series;
    if (e.reportingComponent) out.reportingController = e.reportingComponent;
    if (e.reportingInstance) out.reportingInstance = e.reportingInstance;
    if (e.action) out.action = e.action;
    if (e.reason) out.reason = e.reason;
    out.regarding = e.involvedObject ?? {};
    if (e.related) out.related = e.related;
    if (e.message) out.note = e.message;
    if (e.type) out.type = e.type;
    out.deprecatedSource = e.source ?? {};
    out.deprecatedFirstTimestamp = e.firstTimestamp ?? null;
    out.deprecatedLastTimestamp = e.lastTimestamp ?? null;
    if (e.count) out.deprecatedCount = e.count;
    return out as KubeObject;
  },
};
