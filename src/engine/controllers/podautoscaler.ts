/**
 * horizontal-pod-autoscaler: keeps every HorizontalPodAutoscaler's target between its
 * `minReplicas` and `maxReplicas`, and (where metrics are served) at the replica count its metrics
 * ask for.
 *
 * Mirrors pkg/controller/podautoscaler/horizontal.go (`HorizontalController`):
 *
 *   informers (horizontalpodautoscalers, pods)
 *     -> handlers: every add/update `AddRateLimited(key)` with the HPA rate limiter, a fixed
 *        `--horizontal-pod-autoscaler-sync-period` (15 s) delay, so an HPA is first looked at
 *        15 s after it is created and then every 15 s (`processNextWorkItem` re-adds the key
 *        after each sync unless the HPA is gone)
 *     -> reconcileAutoscaler(key):
 *          1. GET the target's `/scale` (scaleTargetRef apiVersion + kind -> resource); failure
 *             -> Warning FailedGetScale, AbleToScale=False FailedGetScale, status written
 *          2. AbleToScale=True SucceededGetScale; currentReplicas = scale.spec.replicas
 *          3. currentReplicas 0 (and minReplicas not 0) -> ScalingActive=False ScalingDisabled;
 *             above maxReplicas -> maxReplicas ("Current number of replicas above
 *             Spec.MaxReplicas"); below minReplicas -> minReplicas ("... below
 *             Spec.MinReplicas"); otherwise computeReplicasForMetrics, then
 *             normalizeDesiredReplicas(WithBehaviors)
 *          4. a new size -> PUT `/scale`, Normal SuccessfulRescale `New size: N; reason: ...`
 *          5. status (currentReplicas, desiredReplicas, currentMetrics, conditions,
 *             lastScaleTime) written when it changed (`updateStatusIfNeeded`)
 *
 * Metrics: the engine serves no metrics API (kind ships no metrics-server, and nothing in the
 * engine measures CPU). `MetricsSource` is the extension point: the default,
 * `UNSERVED_METRICS`, answers every query as kube-controller-manager's clients answer when
 * `metrics.k8s.io` / `custom.metrics.k8s.io` / `external.metrics.k8s.io` are not registered, so
 * an HPA on a kind cluster reads `cpu: <unknown>/50%` with FailedGetResourceMetric and
 * FailedComputeMetricsReplicas, as a real one does. A source that returns pod usages (a future
 * metrics-server model) makes `GetResourceReplicas`' arithmetic (`replicaCountForUsage`) run.
 *
 * Memory (recommendations and scale events of the stabilization windows, the HPA selector store)
 * dies with the process, as in kube-controller-manager.
 *
 * Simulation notes: the scale subresource is read and written through the API server directly
 * (the real controller's scale client does live GETs too); errors a sync meets are reported on
 * the HPA (events, conditions) and the key simply comes back 15 s later, as
 * `processNextWorkItem` does (`utilruntime.HandleError`, no back-off).
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepCopy, deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import type { ResourceType } from '../api/registry';
import { nothing, parseLabelSelector, type Selector } from '../api/labels';
import { formatRfc3339 } from '../clock';
import { RateLimitingQueue, startWorkers, type RateLimiter, type ReconcileResult } from '../client/workqueue';
import { metaNamespaceKey, type Informer } from '../client/informer';
import { isPodActive } from './util';

/** Event `source.component` and trace prefix. Source: horizontal.go (`v1.EventSource{Component: "horizontal-pod-autoscaler"}`). */
export const HPA_CONTROLLER = 'horizontal-pod-autoscaler';

/**
 * `--horizontal-pod-autoscaler-sync-period`: how often each HPA is reconciled (15 s), in virtual
 * ms. Source: pkg/controller/podautoscaler/config/v1alpha1/defaults.go. Setting
 * `horizontalPodAutoscalerSyncPeriodMs`.
 */
export const HPA_SYNC_PERIOD_MS = 15_000;

/**
 * `--concurrent-horizontal-pod-autoscaler-syncs` (default 5). Source:
 * pkg/controller/podautoscaler/config/v1alpha1/defaults.go. Setting
 * `concurrentHorizontalPodAutoscalerSyncs`.
 */
export const CONCURRENT_HPA_SYNCS = 5;

/**
 * `--horizontal-pod-autoscaler-downscale-stabilization` (5 min), in virtual ms: a scale-down
 * takes the highest recommendation of this window. Source: config/v1alpha1/defaults.go.
 * Setting `horizontalPodAutoscalerDownscaleStabilizationMs`.
 */
export const HPA_DOWNSCALE_STABILIZATION_MS = 5 * 60 * 1000;

/**
 * `--horizontal-pod-autoscaler-tolerance` (0.1): usage ratios within 10 % of 1.0 keep the
 * current size. Source: config/v1alpha1/defaults.go. Setting `horizontalPodAutoscalerTolerance`.
 */
export const HPA_TOLERANCE = 0.1;

/** Without behaviors, one sync scales up to at most max(2 x current, 4). Source: horizontal.go (`scaleUpLimitFactor`, `scaleUpLimitMinimum`). */
export const SCALE_UP_LIMIT_FACTOR = 2;
/** See `SCALE_UP_LIMIT_FACTOR`. */
export const SCALE_UP_LIMIT_MINIMUM = 4;

/** The writes' field manager (kube-controller-manager's user agent). */
const FIELD_MANAGER = { fieldManager: 'kube-controller-manager' };

// ------------------------------------------------------------------------------ metrics

/** Per pod: the summed usage of a resource, in milli-units (CPU millicores, memory milli-bytes), and the sample time (virtual ms). */
export type PodMetricsInfo = Map<string, { valueMilli: number; timestamp: number }>;

/**
 * Where the controller reads metrics (pkg/controller/podautoscaler/metrics `MetricsClient`).
 * Every method throws `Error` with the client's message when the metric cannot be read.
 */
export interface MetricsSource {
  /**
   * `GetResourceMetric`: usage of `resource` (`cpu`, `memory`) of the pods `selector` matches in
   * `namespace` (one container's only when `container` is set). Throws e.g. `unable to fetch
   * metrics from resource metrics API: the server could not find the requested resource (get
   * pods.metrics.k8s.io)`.
   */
  getResourceMetric(resource: string, namespace: string, selector: Selector, container: string): PodMetricsInfo;
  /** `GetRawMetric`: a custom metric of the matching pods (custom.metrics.k8s.io). */
  getRawMetric(metricName: string, namespace: string, selector: Selector): PodMetricsInfo;
  /** `GetObjectMetric` / `GetExternalMetric`: not served by any source the engine has. */
  getObjectOrExternalMetric(kind: 'object' | 'external', metricName: string, namespace: string): number;
}

/**
 * The metrics a kind cluster serves: none. The messages are the clients' when the aggregated
 * APIs are not registered: the resource metrics client's 404 (metrics_client.go
 * `resourceMetricsClient.GetResourceMetric`: `unable to fetch metrics from resource metrics API:
 * %v`, the 404 read as client-go words it: `the server could not find the requested resource
 * (get pods.metrics.k8s.io)`), and the custom metrics client's discovery error
 * (k8s.io/metrics custom_metrics/discovery.go: `no custom metrics API (custom.metrics.k8s.io)
 * registered`).
 */
export const UNSERVED_METRICS: MetricsSource = {
  getResourceMetric() {
    throw new Error('unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)');
  },
  getRawMetric() {
    throw new Error('unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered');
  },
  getObjectOrExternalMetric(kind) {
    if (kind === 'object') throw new Error('unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered');
    throw new Error('unable to fetch metrics from external metrics API: the server could not find the requested resource (get external.metrics.k8s.io)');
  },
};

// ------------------------------------------------------------------------------ types

/** autoscaling/v2 HorizontalPodAutoscalerCondition (JSON field order of the Go struct). */
export interface HpaCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** autoscaling/v2 HorizontalPodAutoscalerStatus as this controller writes it (`omitempty` fields left out when zero). */
export interface HpaStatus {
  lastScaleTime?: string;
  currentReplicas?: number;
  desiredReplicas: number;
  currentMetrics: Record<string, unknown>[] | null;
  conditions?: HpaCondition[];
}

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A metric computation that failed: the condition it proposes and the error text. */
class MetricError extends Error {
  constructor(
    message: string,
    readonly condition?: HpaCondition,
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------------------ the controller

/** Options of `newHorizontalController` beyond the process context. */
export interface HorizontalControllerOptions {
  /** Where metrics come from (default `UNSERVED_METRICS`: kind without metrics-server). */
  metrics?: MetricsSource;
}

/**
 * Start the horizontal-pod-autoscaler controller in `ctx`'s process: informer handlers, the queue
 * with the fixed sync-period rate limiter, and the workers. `stop()` drops the queue, the
 * recommendations and the selector store. Source: horizontal.go (`NewHorizontalController`, `Run`).
 */
export function newHorizontalController(ctx: ControllerContext, opts: HorizontalControllerOptions = {}): Controller {
  const { api, clock } = ctx;
  const metrics = opts.metrics ?? UNSERVED_METRICS;
  const syncPeriodMs = ctx.setting('horizontalPodAutoscalerSyncPeriodMs', HPA_SYNC_PERIOD_MS);
  const downscaleWindowMs = ctx.setting('horizontalPodAutoscalerDownscaleStabilizationMs', HPA_DOWNSCALE_STABILIZATION_MS);
  const tolerance = ctx.setting('horizontalPodAutoscalerTolerance', HPA_TOLERANCE);
  const recorder = ctx.recorder(HPA_CONTROLLER);
  // NewDefaultHPARateLimiter: a FixedItemIntervalRateLimiter, every add waits one sync period.
  const fixed: RateLimiter = { when: () => syncPeriodMs, forget: () => {}, numRequeues: () => 0 };
  const queue = new RateLimitingQueue(clock, { name: 'horizontalpodautoscaler', rateLimiter: fixed });

  const hpaInformer: Informer = ctx.informers.informer('horizontalpodautoscalers');
  const podInformer: Informer = ctx.informers.informer('pods');

  /** Latest unstabilized recommendations per HPA key (virtual ms timestamps). */
  const recommendations = new Map<string, { recommendation: number; timestamp: number }[]>();
  /** Latest scale events per HPA key, for the behavior policies. */
  const scaleUpEvents = new Map<string, ScaleEvent[]>();
  const scaleDownEvents = new Map<string, ScaleEvent[]>();
  /** `hpaSelectors`: each HPA's last parsed selector (`nothing()` until its first sync). */
  const hpaSelectors = new Map<string, Selector>();

  const now = () => clock.now();
  const nowRfc3339 = () => formatRfc3339(clock.epochMs + clock.now());
  const ref = (hpa: KubeObject) => ({ kind: 'HorizontalPodAutoscaler', namespace: hpa.metadata.namespace, name: hpa.metadata.name!, uid: hpa.metadata.uid });
  const trace = (hpa: KubeObject, message: string, kind?: 'Warning') => ctx.trace(HPA_CONTROLLER, message, ref(hpa), kind);

  // ---------------------------------------------------------------- event handlers

  /** `enqueueHPA`: always through the rate limiter (one sync period later); register the selector slot. */
  const enqueueHPA = (hpa: KubeObject) => {
    const key = metaNamespaceKey(hpa);
    queue.addRateLimited(key);
    if (!hpaSelectors.has(key)) hpaSelectors.set(key, nothing());
  };
  hpaInformer.addEventHandler({
    onAdd: enqueueHPA,
    onUpdate: (_old, cur) => enqueueHPA(cur),
    onDelete: (hpa) => {
      const key = metaNamespaceKey(hpa);
      queue.forget(key);
      hpaSelectors.delete(key);
    },
  });

  // ---------------------------------------------------------------- sync

  /** `processNextWorkItem` + `reconcileKey`: reconcile, then come back one sync period later unless the HPA is gone. */
  function reconcileKey(key: string): ReconcileResult | void {
    const hpa = hpaInformer.lister.getByKey(key);
    if (!hpa) {
      recommendations.delete(key);
      scaleUpEvents.delete(key);
      scaleDownEvents.delete(key);
      return;
    }
    try {
      reconcileAutoscaler(hpa, key);
    } catch (e) {
      // utilruntime.HandleError: logged, retried at the next sync period like any other key.
      if (!(e instanceof ApiError)) throw e;
    }
    return { requeue: true };
  }

  /**
   * `reconcileAutoscaler`: one HPA against its target's scale (see the file comment). Works on
   * a copy of the cached object; writes the scale and the status through the API server.
   */
  function reconcileAutoscaler(hpaShared: KubeObject, key: string): void {
    const hpa: Any = deepCopy(hpaShared);
    hpa.spec = hpa.spec ?? {};
    const statusOriginal = deepCopy(hpa.status ?? {});
    hpa.status = deepCopy(hpa.status ?? {});
    const target = hpa.spec.scaleTargetRef ?? {};
    const reference = `${target.kind ?? ''}/${hpa.metadata.namespace}/${target.name ?? ''}`;

    const failGetScale = (message: string) => {
      recorder.event(hpa, 'Warning', 'FailedGetScale', message);
      setCondition(hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${message}`);
      trace(hpa, `failed to query scale subresource for ${reference}: ${message}`, 'Warning');
      updateStatusIfNeeded(statusOriginal, hpa);
    };

    const resolved = resolveScaleTarget(target.apiVersion, target.kind);
    if (typeof resolved === 'string') {
      failGetScale(resolved);
      return;
    }
    let scale: KubeObject;
    try {
      scale = getScale(resolved, hpa.metadata.namespace, target.name ?? '');
    } catch (e) {
      if (!(e instanceof ApiError) || e.connectionRefused) throw e;
      failGetScale(e.message);
      return;
    }
    setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
    const currentReplicas: number = scale.spec?.replicas ?? 0;
    recordInitialRecommendation(currentReplicas, key);

    const minReplicas: number = typeof hpa.spec.minReplicas === 'number' ? hpa.spec.minReplicas : 1;
    const maxReplicas: number = hpa.spec.maxReplicas ?? 0;
    let desiredReplicas = 0;
    let rescaleReason = '';
    let rescale = true;
    let metricStatuses: Record<string, unknown>[] | undefined;

    if (currentReplicas === 0 && minReplicas !== 0) {
      // Autoscaling is disabled for this resource.
      desiredReplicas = 0;
      rescale = false;
      setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
    } else if (currentReplicas > maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      const computed = computeReplicasForMetrics(hpa, scale, hpa.spec.metrics ?? []);
      metricStatuses = computed.statuses;
      if (computed.replicas === -1) {
        setStatus(hpa, currentReplicas, hpa.status.desiredReplicas ?? 0, metricStatuses, false);
        updateStatusIfNeeded(statusOriginal, hpa);
        const msg = computed.error ?? '';
        recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', msg);
        trace(hpa, `failed to compute desired number of replicas based on listed metrics for ${reference}: ${msg}`, 'Warning');
        return;
      }
      let rescaleMetric = '';
      if (computed.replicas > desiredReplicas) {
        desiredReplicas = computed.replicas;
        rescaleMetric = computed.metric;
      }
      if (desiredReplicas > currentReplicas) rescaleReason = `${rescaleMetric} above target`;
      if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
      desiredReplicas = hpa.spec.behavior
        ? normalizeDesiredReplicasWithBehaviors(hpa, key, currentReplicas, desiredReplicas, minReplicas)
        : normalizeDesiredReplicas(hpa, key, currentReplicas, desiredReplicas, minReplicas);
      rescale = desiredReplicas !== currentReplicas;
    }

    if (rescale) {
      try {
        api.updateScale(resolved, hpa.metadata.namespace, target.name ?? '', desiredReplicas, { ...FIELD_MANAGER, resourceVersion: scale.metadata.resourceVersion });
      } catch (e) {
        if (!(e instanceof ApiError) || e.connectionRefused) throw e;
        recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${e.message}`);
        setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${e.message}`);
        setStatus(hpa, currentReplicas, hpa.status.desiredReplicas ?? 0, metricStatuses, false);
        updateStatusIfNeeded(statusOriginal, hpa);
        trace(hpa, `failed to rescale ${reference}: ${e.message}`, 'Warning');
        return;
      }
      setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desiredReplicas}`);
      recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
      storeScaleEvent(hpa.spec.behavior, key, currentReplicas, desiredReplicas);
      trace(hpa, `${reference}: ${currentReplicas} -> ${desiredReplicas} (${rescaleReason})`);
    } else {
      desiredReplicas = currentReplicas;
    }
    setStatus(hpa, currentReplicas, desiredReplicas, metricStatuses, rescale);
    updateStatusIfNeeded(statusOriginal, hpa);
  }

  /**
   * `RESTMapper.RESTMappings` for the target's group and kind: the served type, or the error
   * text (`schema.ParseGroupVersion`'s, or `meta.NoKindMatchError`'s).
   */
  function resolveScaleTarget(apiVersion: unknown, kind: unknown): ResourceType | string {
    const gv = typeof apiVersion === 'string' ? apiVersion : '';
    const parts = gv.split('/');
    if (parts.length > 2) return `unexpected GroupVersion string: ${gv}`;
    const group = gv === '' || parts.length === 1 ? '' : parts[0];
    const k = typeof kind === 'string' ? kind : '';
    const t = api.registry.all().find((x) => x.group === group && x.kind === k);
    if (!t) return `no matches for kind "${k}" in group "${group}"`;
    return t;
  }

  /** `scaleNamespacer.Scales(ns).Get`: the autoscaling/v1 Scale; a kind without `/scale` answers the server's 404. */
  function getScale(t: ResourceType, namespace: string, name: string): KubeObject {
    if (!t.scale) {
      throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
    }
    return api.getScale(t, namespace, name);
  }

  /**
   * `computeReplicasForMetrics`: the highest replica count the metrics propose, with each metric's
   * status. `replicas` is -1 when the HPA cannot act (all metrics invalid, or some invalid and the
   * rest would scale down); `error` then holds `invalid metrics (N invalid out of M), first error
   * is: ...`, and ScalingActive is False with the first failure's reason.
   */
  function computeReplicasForMetrics(hpa: Any, scale: KubeObject, specs: Any[]): { replicas: number; metric: string; statuses?: Record<string, unknown>[]; error?: string } {
    const selector = validateAndParseSelector(hpa, scale.status?.selector ?? '');
    if (typeof selector === 'string') return { replicas: -1, metric: '', error: selector };
    const specReplicas: number = scale.spec?.replicas ?? 0;
    const statuses: Record<string, unknown>[] = specs.map(() => ({ type: '' }));
    let replicas = 0;
    let metric = '';
    let invalid = 0;
    let firstError: MetricError | undefined;
    specs.forEach((spec, i) => {
      try {
        const r = computeReplicasForMetric(hpa, spec, specReplicas, selector);
        statuses[i] = r.status;
        if (replicas === 0 || r.replicas > replicas) {
          replicas = r.replicas;
          metric = r.metric;
        }
      } catch (e) {
        if (!(e instanceof MetricError)) throw e;
        if (invalid === 0) firstError = e;
        invalid++;
      }
    });
    const error = firstError ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError.message}` : undefined;
    if (invalid >= specs.length || (invalid > 0 && replicas < specReplicas)) {
      const c = firstError?.condition;
      if (c) setCondition(hpa, c.type, c.status, c.reason ?? '', c.message ?? '');
      return { replicas: -1, metric: '', statuses, error };
    }
    setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
    return { replicas, metric, statuses, error };
  }

  /**
   * `validateAndParseSelector`: the scale's selector must be set, parse, and select pods no other
   * HPA selects. Returns the selector, or the error text (with its event and condition recorded).
   */
  function validateAndParseSelector(hpa: Any, selector: string): Selector | string {
    if (selector === '') {
      recorder.event(hpa, 'Warning', 'SelectorRequired', 'selector is required');
      setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector");
      return 'selector is required';
    }
    let parsed: Selector;
    try {
      parsed = parseLabelSelector(selector);
    } catch (e) {
      const msg = `couldn't convert selector into a corresponding internal selector object: ${(e as Error).message}`;
      recorder.event(hpa, 'Warning', 'InvalidSelector', msg);
      setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', msg);
      return msg;
    }
    const key = metaNamespaceKey(hpa);
    if (hpaSelectors.has(key)) hpaSelectors.set(key, parsed);
    // hpasControllingPodsUnderSelector: every HPA (same namespace) whose selector picks one of these pods.
    const ns = hpa.metadata.namespace;
    const controlling = new Set<string>();
    for (const pod of podInformer.lister.list(ns)) {
      if (!parsed.matches(pod.metadata.labels)) continue;
      for (const [k, sel] of hpaSelectors) {
        if (k.startsWith(`${ns}/`) && sel.matches(pod.metadata.labels)) controlling.add(k);
      }
    }
    if (controlling.size > 1) {
      const names = [...controlling].sort().map((k) => `${k}`);
      const msg = `pods by selector ${selector} are controlled by multiple HPAs: [${names.join(' ')}]`;
      recorder.event(hpa, 'Warning', 'AmbiguousSelector', msg);
      setCondition(hpa, 'ScalingActive', 'False', 'AmbiguousSelector', msg);
      return msg;
    }
    return parsed;
  }

  /** `getUnableComputeReplicaCountCondition`: a Warning event with the error, and the ScalingActive=False condition it proposes. */
  function unableToCompute(hpa: Any, reason: string, err: string): HpaCondition {
    recorder.event(hpa, 'Warning', reason, err);
    return { type: 'ScalingActive', status: 'False', reason, message: `the HPA was unable to compute the replica count: ${err}` };
  }

  /**
   * `computeReplicasForMetric`: one metric's proposal and status. Throws `MetricError` with the
   * wrapped error text (`failed to get cpu resource metric value: ...`) and the proposed condition.
   */
  function computeReplicasForMetric(hpa: Any, spec: Any, specReplicas: number, selector: Selector): { replicas: number; metric: string; status: Record<string, unknown> } {
    switch (spec?.type) {
      case 'Resource':
      case 'ContainerResource': {
        const isContainer = spec.type === 'ContainerResource';
        const src = (isContainer ? spec.containerResource : spec.resource) ?? {};
        const name: string = src.name ?? '';
        const container: string = isContainer ? (src.container ?? '') : '';
        try {
          const r = computeStatusForResourceMetricGeneric(specReplicas, src.target ?? {}, name, hpa.metadata.namespace, container, selector, isContainer);
          const status = isContainer
            ? { type: 'ContainerResource', containerResource: { name, container, current: r.current } }
            : { type: 'Resource', resource: { name, current: r.current } };
          return { replicas: r.replicas, metric: r.metric, status };
        } catch (e) {
          if (!(e instanceof Error)) throw e;
          const condition = unableToCompute(hpa, isContainer ? 'FailedGetContainerResourceMetric' : 'FailedGetResourceMetric', e.message);
          const wrapped = isContainer ? `failed to get ${container} container metric value: ${e.message}` : `failed to get ${name} resource metric value: ${e.message}`;
          throw new MetricError(wrapped, condition);
        }
      }
      case 'Pods': {
        const metricName: string = spec.pods?.metric?.name ?? '';
        try {
          const targetMilli = quantityMilli(spec.pods?.target?.averageValue);
          const info = metrics.getRawMetric(metricName, hpa.metadata.namespace, selector);
          const { replicas, usage } = usageRatioReplicas(info, specReplicas, targetMilli);
          return {
            replicas,
            metric: `pods metric ${metricName}`,
            status: { type: 'Pods', pods: { metric: { name: metricName }, current: { averageValue: milliQuantity(usage) } } },
          };
        } catch (e) {
          if (!(e instanceof Error) || e instanceof MetricError) throw e;
          const err = `unable to get metric ${metricName}: ${e.message}`;
          throw new MetricError(`failed to get pods metric value: ${err}`, unableToCompute(hpa, 'FailedGetPodsMetric', err));
        }
      }
      case 'Object':
      case 'External': {
        const isObject = spec.type === 'Object';
        const metricName: string = (isObject ? spec.object?.metric?.name : spec.external?.metric?.name) ?? '';
        try {
          metrics.getObjectOrExternalMetric(isObject ? 'object' : 'external', metricName, hpa.metadata.namespace);
        } catch (e) {
          if (!(e instanceof Error)) throw e;
          // replica_calculator.go: `unable to get metric %s: %s on %s %s/%v` (GetObjectMetricReplicas);
          // the external wording is this simulation's (no source serves external metrics).
          const obj = spec.object?.describedObject ?? {};
          const err = isObject ? `unable to get metric ${metricName}: ${obj.kind ?? ''} on ${hpa.metadata.namespace} ${obj.name ?? ''}/${e.message}` : `unable to get external metric ${metricName}: ${e.message}`;
          const reason = isObject ? 'FailedGetObjectMetric' : 'FailedGetExternalMetric';
          const wrapped = isObject ? `failed to get object metric value: ${err}` : `failed to get ${metricName} external metric value: ${err}`;
          throw new MetricError(wrapped, unableToCompute(hpa, reason, err));
        }
        // No source answers these yet: a value would need the object/external replica arithmetic.
        throw new MetricError(`failed to get ${metricName} metric value: not supported`, unableToCompute(hpa, isObject ? 'FailedGetObjectMetric' : 'FailedGetExternalMetric', 'not supported'));
      }
      default: {
        const err = `unknown metric source type "${String(spec?.type ?? '')}"`;
        throw new MetricError(err, unableToCompute(hpa, 'InvalidMetricSourceType', err));
      }
    }
  }

  /**
   * `computeStatusForResourceMetricGeneric`: an AverageValue target (`failed to get cpu usage:
   * ...`) or an AverageUtilization target (`failed to get cpu utilization: ...`), through
   * `ReplicaCalculator.GetRawResourceReplicas` / `GetResourceReplicas`. Throws `Error` with that text.
   */
  function computeStatusForResourceMetricGeneric(
    specReplicas: number,
    target: Any,
    resource: string,
    namespace: string,
    container: string,
    selector: Selector,
    isContainer: boolean,
  ): { replicas: number; metric: string; current: Record<string, unknown> } {
    if (target.averageValue !== undefined && target.averageValue !== null) {
      let info: PodMetricsInfo;
      try {
        info = metrics.getResourceMetric(resource, namespace, selector, container);
      } catch (e) {
        throw new Error(`failed to get ${resource} usage: unable to get metrics for resource ${resource}: ${(e as Error).message}`, { cause: e });
      }
      const { replicas, usage } = usageRatioReplicas(info, specReplicas, quantityMilli(target.averageValue));
      return { replicas, metric: `${resource} resource`, current: { averageValue: milliQuantity(usage) } };
    }
    if (typeof target.averageUtilization !== 'number') {
      throw new Error('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
    }
    let info: PodMetricsInfo;
    try {
      info = metrics.getResourceMetric(resource, namespace, selector, container);
    } catch (e) {
      throw new Error(`failed to get ${resource} utilization: unable to get metrics for resource ${resource}: ${(e as Error).message}`, { cause: e });
    }
    const r = utilizationReplicas(info, specReplicas, target.averageUtilization, resource, namespace, selector, container);
    const metric = isContainer ? `${resource} container resource utilization (percentage of request)` : `${resource} resource utilization (percentage of request)`;
    return { replicas: r.replicas, metric, current: { averageUtilization: r.utilization, averageValue: milliQuantity(r.rawAverage) } };
  }

  /**
   * `GetResourceReplicas` (replica_calculator.go), simplified to the ready pods the source
   * measured: utilization = sum(usage) / sum(requests) of the measured pods; a ratio within the
   * tolerance keeps `currentReplicas`. Throws the calculator's errors (`no pods returned by
   * selector while calculating replica count`, `missing request for cpu in container ...`).
   * Only reachable with a `MetricsSource` that serves pod usage.
   */
  function utilizationReplicas(info: PodMetricsInfo, currentReplicas: number, targetUtilization: number, resource: string, namespace: string, selector: Selector, container: string): { replicas: number; utilization: number; rawAverage: number } {
    const pods = podInformer.lister.list(namespace).filter((p) => selector.matches(p.metadata.labels) && isPodActive(p));
    if (pods.length === 0) throw new Error('no pods returned by selector while calculating replica count');
    let usage = 0;
    let requests = 0;
    let n = 0;
    for (const pod of pods) {
      const m = info.get(pod.metadata.name!);
      if (!m) continue;
      let req = 0;
      for (const c of pod.spec?.containers ?? []) {
        if (container && c.name !== container) continue;
        const q = c.resources?.requests?.[resource];
        if (q === undefined) throw new Error(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata.name}`);
        req += quantityMilli(q);
      }
      usage += m.valueMilli;
      requests += req;
      n++;
    }
    if (n === 0 || requests === 0) throw new Error(`failed to get ${resource} utilization: no metrics returned matched known pods`);
    const utilization = Math.trunc((usage * 100) / requests);
    const ratio = utilization / targetUtilization;
    const rawAverage = Math.trunc(usage / n);
    if (Math.abs(1 - ratio) <= tolerance) return { replicas: currentReplicas, utilization, rawAverage };
    return { replicas: Math.ceil(ratio * n), utilization, rawAverage };
  }

  /** `GetRawResourceReplicas` / `GetMetricReplicas`: ceil(sum(usage) / target), tolerance applied. */
  function usageRatioReplicas(info: PodMetricsInfo, currentReplicas: number, targetMilli: number): { replicas: number; usage: number } {
    if (info.size === 0) throw new Error('no metrics returned from resource metrics API');
    let sum = 0;
    for (const v of info.values()) sum += v.valueMilli;
    const usage = Math.trunc(sum / info.size);
    const ratio = usage / targetMilli;
    if (Math.abs(1 - ratio) <= tolerance) return { replicas: currentReplicas, usage };
    return { replicas: Math.ceil(sum / targetMilli), usage };
  }

  // ---------------------------------------------------------------- normalization

  /** `recordInitialRecommendation`: the first sync remembers the current size as a recommendation. */
  function recordInitialRecommendation(currentReplicas: number, key: string): void {
    if (!recommendations.has(key)) recommendations.set(key, [{ recommendation: currentReplicas, timestamp: now() }]);
  }

  /** `stabilizeRecommendation`: replace the oldest stale sample, return the highest recommendation of the downscale window. */
  function stabilizeRecommendation(key: string, prenormalized: number): number {
    let max = prenormalized;
    let oldIndex = -1;
    const cutoff = now() - downscaleWindowMs;
    const recs = recommendations.get(key) ?? [];
    recs.forEach((rec, i) => {
      if (rec.timestamp < cutoff) oldIndex = i;
      else if (rec.recommendation > max) max = rec.recommendation;
    });
    if (oldIndex >= 0) recs[oldIndex] = { recommendation: prenormalized, timestamp: now() };
    else recs.push({ recommendation: prenormalized, timestamp: now() });
    recommendations.set(key, recs);
    return max;
  }

  /** `normalizeDesiredReplicas`: stabilize, then clamp to [min, max] and the scale-up limit, setting AbleToScale and ScalingLimited. */
  function normalizeDesiredReplicas(hpa: Any, key: string, currentReplicas: number, prenormalized: number, minReplicas: number): number {
    const stabilized = stabilizeRecommendation(key, prenormalized);
    if (stabilized !== prenormalized) {
      setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation');
    } else {
      setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    }
    const r = convertDesiredReplicasWithRules(currentReplicas, stabilized, minReplicas, hpa.spec.maxReplicas ?? 0);
    setCondition(hpa, 'ScalingLimited', r.replicas === stabilized ? 'False' : 'True', r.reason, r.message);
    return r.replicas;
  }

  /** `normalizeDesiredReplicasWithBehaviors`: stabilization windows and rate policies of `spec.behavior`. */
  function normalizeDesiredReplicasWithBehaviors(hpa: Any, key: string, currentReplicas: number, prenormalized: number, minReplicas: number): number {
    const behavior = hpa.spec.behavior;
    const up: ScalingRules = behavior.scaleUp ?? {};
    const down: ScalingRules = { ...(behavior.scaleDown ?? {}) };
    // maybeInitScaleDownStabilizationWindow: the flag's window when the HPA sets none.
    if (down.stabilizationWindowSeconds === undefined) down.stabilizationWindowSeconds = Math.trunc(downscaleWindowMs / 1000);
    const st = stabilizeRecommendationWithBehaviors(key, up, down, currentReplicas, prenormalized);
    if (st.recommendation !== prenormalized) setCondition(hpa, 'AbleToScale', 'True', st.reason, st.message);
    else setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size');
    const r = convertDesiredReplicasWithBehaviorRate(key, up, down, minReplicas, hpa.spec.maxReplicas ?? 0, currentReplicas, st.recommendation);
    setCondition(hpa, 'ScalingLimited', r.replicas === st.recommendation ? 'False' : 'True', r.reason, r.message);
    return r.replicas;
  }

  /** `stabilizeRecommendationWithBehaviors`: bring the recommendation within the min/max of each window. */
  function stabilizeRecommendationWithBehaviors(key: string, up: ScalingRules, down: ScalingRules, current: number, desired: number): { recommendation: number; reason: string; message: string } {
    const t = now();
    const upCutoff = t - (up.stabilizationWindowSeconds ?? 0) * 1000;
    const downCutoff = t - (down.stabilizationWindowSeconds ?? 0) * 1000;
    let upRec = desired;
    let downRec = desired;
    let oldIndex = -1;
    const recs = recommendations.get(key) ?? [];
    recs.forEach((rec, i) => {
      if (rec.timestamp > upCutoff) upRec = Math.min(rec.recommendation, upRec);
      if (rec.timestamp > downCutoff) downRec = Math.max(rec.recommendation, downRec);
      if (rec.timestamp < upCutoff && rec.timestamp < downCutoff) oldIndex = i;
    });
    let recommendation = current;
    if (recommendation < upRec) recommendation = upRec;
    if (recommendation > downRec) recommendation = downRec;
    if (oldIndex >= 0) recs[oldIndex] = { recommendation: desired, timestamp: t };
    else recs.push({ recommendation: desired, timestamp: t });
    recommendations.set(key, recs);
    return desired >= current
      ? { recommendation, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
      : { recommendation, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
  }

  /** `convertDesiredReplicasWithBehaviorRate`: the policies' rate limits, then [min, max]. */
  function convertDesiredReplicasWithBehaviorRate(key: string, up: ScalingRules, down: ScalingRules, min: number, max: number, current: number, desired: number): { replicas: number; reason: string; message: string } {
    const ups = scaleUpEvents.get(key) ?? [];
    const downs = scaleDownEvents.get(key) ?? [];
    if (desired > current) {
      let limit = scaleLimit('up', current, ups, downs, up, now());
      if (limit < current) limit = current;
      let allowed = max;
      let reason = 'TooManyReplicas';
      let message = 'the desired replica count is more than the maximum replica count';
      if (allowed > limit) {
        allowed = limit;
        reason = 'ScaleUpLimit';
        message = 'the desired replica count is increasing faster than the maximum scale rate';
      }
      if (desired > allowed) return { replicas: allowed, reason, message };
    } else if (desired < current) {
      let limit = scaleLimit('down', current, ups, downs, down, now());
      if (limit > current) limit = current;
      let allowed = min;
      let reason = 'TooFewReplicas';
      let message = 'the desired replica count is less than the minimum replica count';
      if (allowed < limit) {
        allowed = limit;
        reason = 'ScaleDownLimit';
        message = 'the desired replica count is decreasing faster than the maximum scale rate';
      }
      if (desired < allowed) return { replicas: allowed, reason, message };
    }
    return { replicas: desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
  }

  /** `storeScaleEvent`: remember a rescale for the behavior policies (none kept without `spec.behavior`). */
  function storeScaleEvent(behavior: Any, key: string, prev: number, next: number): void {
    if (!behavior) return;
    const isUp = next > prev;
    const rules: ScalingRules = (isUp ? behavior.scaleUp : behavior.scaleDown) ?? {};
    const longest = Math.max(0, ...(rules.policies ?? []).map((p) => p.periodSeconds ?? 0));
    const map = isUp ? scaleUpEvents : scaleDownEvents;
    const events = map.get(key) ?? [];
    const cutoff = now() - longest * 1000;
    let oldIndex = -1;
    events.forEach((e, i) => {
      if (e.timestamp < cutoff) e.outdated = true;
      if (e.outdated) oldIndex = i;
    });
    const ev: ScaleEvent = { replicaChange: Math.abs(next - prev), timestamp: now(), outdated: false };
    if (oldIndex >= 0) events[oldIndex] = ev;
    else events.push(ev);
    map.set(key, events);
  }

  // ---------------------------------------------------------------- status

  /** `setStatus`: rebuild the status (lastScaleTime now when rescaled). */
  function setStatus(hpa: Any, currentReplicas: number, desiredReplicas: number, metricStatuses: Record<string, unknown>[] | undefined, rescale: boolean): void {
    const prev = hpa.status ?? {};
    const lastScaleTime = rescale ? nowRfc3339() : prev.lastScaleTime;
    const next: HpaStatus = {
      ...(lastScaleTime ? { lastScaleTime } : {}),
      ...(currentReplicas ? { currentReplicas } : {}),
      desiredReplicas,
      // `currentMetrics` is not omitempty in autoscaling/v2: nil is written as null.
      currentMetrics: metricStatuses && metricStatuses.length ? metricStatuses : null,
      ...(prev.conditions?.length ? { conditions: prev.conditions } : {}),
    };
    hpa.status = next;
  }

  /** `setCondition`: add or update a condition; lastTransitionTime moves only when the status changes. */
  function setCondition(hpa: Any, type: string, status: string, reason: string, message: string): void {
    hpa.status = hpa.status ?? {};
    const list: HpaCondition[] = hpa.status.conditions ?? [];
    let c = list.find((x) => x.type === type);
    if (!c) {
      c = { type, status: '' };
      list.push(c);
    }
    if (c.status !== status) c.lastTransitionTime = nowRfc3339();
    c.status = status;
    c.reason = reason;
    c.message = message;
    // JSON field order of the Go struct; unset (omitempty) fields left out.
    hpa.status.conditions = list.map((x) => ({
      type: x.type,
      status: x.status,
      ...(x.lastTransitionTime ? { lastTransitionTime: x.lastTransitionTime } : {}),
      ...(x.reason ? { reason: x.reason } : {}),
      ...(x.message ? { message: x.message } : {}),
    }));
  }

  /**
   * `updateStatusIfNeeded`: write the status when it differs from the one the sync started from.
   * A failed write records FailedUpdateStatus (the recorder cannot send it either while the API
   * is unreachable) and is otherwise only logged (`utilruntime.HandleError`): the sync goes on,
   * and the next one writes again.
   */
  function updateStatusIfNeeded(original: unknown, hpa: Any): void {
    if (deepEqual(original, hpa.status)) return;
    try {
      api.updateStatus(hpa, FIELD_MANAGER);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      recorder.event(hpa, 'Warning', 'FailedUpdateStatus', e.message);
      trace(hpa, `failed to update status for ${hpa.metadata.name}: ${e.message}`, 'Warning');
    }
  }

  // ---------------------------------------------------------------- workers

  const workers = startWorkers(queue, reconcileKey, {
    clock,
    name: HPA_CONTROLLER,
    workers: ctx.setting('concurrentHorizontalPodAutoscalerSyncs', CONCURRENT_HPA_SYNCS),
    waitForSync: [hpaInformer, podInformer],
  });

  return {
    name: HPA_CONTROLLER,
    stop() {
      workers.stop();
      recommendations.clear();
      scaleUpEvents.clear();
      scaleDownEvents.clear();
      hpaSelectors.clear();
    },
  };
}

// ------------------------------------------------------------------------------ pure helpers

/** autoscaling/v2 HPAScalingRules, as read from `spec.behavior.scaleUp|scaleDown`. */
interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: { type: string; value: number; periodSeconds: number }[];
}

/** `timestampedScaleEvent`: a rescale's size (absolute), virtual ms time, and whether a newer one may replace it. */
interface ScaleEvent {
  replicaChange: number;
  timestamp: number;
  outdated: boolean;
}

/**
 * `convertDesiredReplicasWithRules` (horizontal.go): clamp `desired` to [min, min(max,
 * scale-up limit)], with the ScalingLimited reason and message.
 */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number): { replicas: number; reason: string; message: string } {
  const scaleUpLimit = Math.trunc(Math.max(SCALE_UP_LIMIT_FACTOR * current, SCALE_UP_LIMIT_MINIMUM));
  let maximum: number;
  let reason: string;
  let message: string;
  if (max > scaleUpLimit) {
    maximum = scaleUpLimit;
    reason = 'ScaleUpLimit';
    message = 'the desired replica count is increasing faster than the maximum scale rate';
  } else {
    maximum = max;
    reason = 'TooManyReplicas';
    message = 'the desired replica count is more than the maximum replica count';
  }
  if (desired < min) return { replicas: min, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  if (desired > maximum) return { replicas: maximum, reason, message };
  return { replicas: desired, reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
}

/** `getReplicasChangePerPeriod`: replicas changed by events newer than `periodSeconds`. */
function changePerPeriod(periodSeconds: number, events: ScaleEvent[], nowMs: number): number {
  const cutoff = nowMs - periodSeconds * 1000;
  let n = 0;
  for (const e of events) if (e.timestamp > cutoff) n += e.replicaChange;
  return n;
}

/**
 * `calculateScaleUpLimitWithScalingRules` / `calculateScaleDownLimitWithBehaviors`: the size the
 * policies allow from the size at each period's start (`Disabled` keeps the current size).
 */
function scaleLimit(dir: 'up' | 'down', current: number, ups: ScaleEvent[], downs: ScaleEvent[], rules: ScalingRules, nowMs: number): number {
  const select = rules.selectPolicy ?? 'Max';
  if (select === 'Disabled') return current;
  const minChange = select === 'Min';
  let result = dir === 'up' ? (minChange ? Infinity : -Infinity) : minChange ? -Infinity : Infinity;
  for (const p of rules.policies ?? []) {
    const start = current - changePerPeriod(p.periodSeconds, ups, nowMs) + changePerPeriod(p.periodSeconds, downs, nowMs);
    let proposed: number;
    if (dir === 'up') proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    else proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    if (dir === 'up') result = minChange ? Math.min(result, proposed) : Math.max(result, proposed);
    else result = minChange ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return Number.isFinite(result) ? result : current;
}

/** A quantity (`500m`, `1`, `100Mi`, or a number) in milli-units; 0 when it does not parse. */
function quantityMilli(q: unknown): number {
  if (typeof q === 'number') return q * 1000;
  if (typeof q !== 'string') return 0;
  const m = /^([0-9.]+)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(q.trim());
  if (!m) return 0;
  const mult: Record<string, number> = { m: 1, '': 1000, k: 1e6, M: 1e9, G: 1e12, T: 1e15, Ki: 1024e3, Mi: 1024 ** 2 * 1e3, Gi: 1024 ** 3 * 1e3, Ti: 1024 ** 4 * 1e3 };
  return Math.round(Number(m[1]) * mult[m[2] ?? '']);
}

/** `resource.NewMilliQuantity(v, DecimalSI).String()`: `250m`, or whole units when exact. */
function milliQuantity(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
