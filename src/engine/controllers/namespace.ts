/**
 * namespace-controller: empties a Namespace that is being deleted, then releases it.
 * Mirrors pkg/controller/namespace/namespace_controller.go and
 * pkg/controller/namespace/deletion/namespaced_resources_deleter.go + status_condition_utils.go.
 *
 * `kubectl delete namespace shop` only sets `deletionTimestamp` and `status.phase: Terminating`:
 * the namespace keeps `spec.finalizers: [kubernetes]`. This controller, 5 s after it sees that
 * (`namespaceDeletionGracePeriod`), and again on every retry:
 *   1. deletes every namespaced resource type in the namespace (a DELETECOLLECTION per type,
 *      propagationPolicy Background; list + delete each when deletecollection is not served);
 *   2. lists what is left (through the API, as the real deleter does with its metadata client:
 *      it must see the truth, not a cache). Pods terminate gracefully, so while a pod's grace period has not
 *      elapsed since the namespace's deletion it waits (`estimate`, requeued after
 *      estimate/2 + 1 s); objects held by finalizers give a 15 s estimate; anything else left
 *      is an error (`unexpected items still remain ...`, retried with backoff);
 *   3. writes the five deletion conditions on the namespace status (NamespaceDeletionDiscoveryFailure,
 *      NamespaceDeletionGroupVersionParsingFailure, NamespaceDeletionContentFailure,
 *      NamespaceContentRemaining, NamespaceFinalizersRemaining) with the real reasons/messages,
 *      e.g. `Some resources are remaining: pods. has 2 resource instances`;
 *   4. once nothing is left, removes `kubernetes` from `spec.finalizers` through the `finalize`
 *      subresource; with no finalizer left the API server removes the namespace.
 * The real controller records no Events; it traces what it decided.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import type { ResourceType } from '../api/registry';
import { ApiError } from '../api/errors';
import { parseRfc3339 } from '../clock';
import type { Timer } from '../clock';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  RateLimitingQueue,
  startWorkers,
  type ReconcileResult,
} from '../client/workqueue';

/** Component name. Source: cmd/kube-controller-manager (`namespace-controller`). */
export const NAMESPACE_COMPONENT = 'namespace-controller';

/**
 * Delay before a terminating namespace is processed (HA api servers / etcd catch up), virtual ms.
 * Source: namespace_controller.go (`namespaceDeletionGracePeriod = 5 * time.Second`).
 * Setting key `namespaceDeletionGracePeriodMs`.
 */
export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;

/** `--concurrent-namespace-syncs` default 10. Setting key `concurrentNamespaceSyncs`. */
export const DEFAULT_CONCURRENT_NAMESPACE_SYNCS = 10;

/**
 * `--namespace-sync-period` default 5 min: terminating namespaces are re-queued this often even
 * without changes, virtual ms. Setting key `namespaceSyncPeriodMs`.
 */
export const NAMESPACE_SYNC_PERIOD_MS = 5 * 60_000;

/** Per-item retry backoff: 5 ms doubling to 60 s. Source: namespace_controller.go (`nsControllerRateLimiter`). */
export const NAMESPACE_RETRY_BASE_MS = 5;
/** Cap of the per-item retry backoff ("retry namespace deletion at least every minute"). */
export const NAMESPACE_RETRY_MAX_MS = 60_000;

/** The finalizer this controller owns (`v1.FinalizerKubernetes`). */
export const FINALIZER_KUBERNETES = 'kubernetes';

/** Estimate (s) when remaining objects carry finalizers. Source: namespaced_resources_deleter.go (`finalizerEstimateSeconds`). */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** The condition types the deleter maintains, in order. Source: status_condition_utils.go (`conditionTypes`). */
export const NAMESPACE_CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

type ConditionType = (typeof NAMESPACE_CONDITION_TYPES)[number];

/** `okReasons` / `okMessages` of status_condition_utils.go. */
const OK: Record<ConditionType, [reason: string, message: string]> = {
  NamespaceDeletionDiscoveryFailure: ['ResourcesDiscovered', 'All resources successfully discovered'],
  NamespaceDeletionGroupVersionParsingFailure: ['ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  NamespaceDeletionContentFailure: ['ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
  NamespaceContentRemaining: ['ContentRemoved', 'All content successfully removed'],
  NamespaceFinalizersRemaining: ['ContentRemoved', 'All content successfully removed'],
};

/** `v1.NamespaceCondition`. */
interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What deleting one resource type left behind (`gvrDeletionMetadata`). */
interface TypeResult {
  estimateSeconds: number;
  remaining: number;
  finalizers: Map<string, number>;
  error?: string;
}

/** Start the namespace controller. */
export function newNamespaceController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const graceMs = ctx.setting('namespaceDeletionGracePeriodMs', NAMESPACE_DELETION_GRACE_PERIOD_MS);
  const syncPeriodMs = ctx.setting('namespaceSyncPeriodMs', NAMESPACE_SYNC_PERIOD_MS);
  const trace = (ns: string, message: string) => ctx.trace(NAMESPACE_COMPONENT, `${ns} ${message}`, { kind: 'Namespace', name: ns });

  const namespaces = ctx.informers.informer('namespaces');
  const queue = new RateLimitingQueue(clock, {
    name: NAMESPACE_COMPONENT,
    rateLimiter: new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(NAMESPACE_RETRY_BASE_MS, NAMESPACE_RETRY_MAX_MS), new BucketRateLimiter(clock)),
  });

  /** `enqueueNamespace`: only namespaces being deleted, after the grace delay. */
  const enqueue = (ns: KubeObject) => {
    if (!ns.metadata.deletionTimestamp) return;
    queue.addAfter(ns.metadata.name!, graceMs);
  };
  const registration = namespaces.addEventHandler({
    onAdd: (ns) => enqueue(ns),
    onUpdate: (_old, ns) => enqueue(ns),
  });

  // The informer's periodic resync (--namespace-sync-period), as our own background tick.
  let resync: Timer | undefined;
  const scheduleResync = () => {
    resync = clock.schedule(
      syncPeriodMs,
      () => {
        for (const ns of namespaces.lister.list()) enqueue(ns);
        scheduleResync();
      },
      { label: `${NAMESPACE_COMPONENT}: resync`, background: true },
    );
  };
  scheduleResync();

  /** Namespaced types that can be deleted (discovery `FilteredBy(SupportsAllVerbs{delete})`). */
  const deletableNamespacedTypes = (): ResourceType[] => api.registry.all().filter((t) => t.namespaced && t.verbs.includes('delete'));

  /** `estimateGracefulTermination`: pods' longest grace period, 0 once it has elapsed. */
  const estimateSeconds = (t: ResourceType, ns: string, deletedAtMs: number): number => {
    if (!(t.group === '' && t.resource === 'pods')) return 0;
    let estimate = 0;
    for (const pod of api.list(t, { namespace: ns }).items) {
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const grace = pod.spec?.terminationGracePeriodSeconds;
      if (typeof grace === 'number' && grace > estimate) estimate = grace;
    }
    return clock.now() - deletedAtMs >= estimate * 1000 ? 0 : estimate;
  };

  /** `deleteAllContentForGroupVersionResource`. */
  const deleteContentOfType = (t: ResourceType, ns: string, deletedAtMs: number): TypeResult => {
    const estimate = estimateSeconds(t, ns, deletedAtMs);
    if (t.verbs.includes('deletecollection')) {
      api.deleteCollection(t, { namespace: ns, propagationPolicy: 'Background', fieldManager: 'kube-controller-manager' });
    } else if (t.verbs.includes('list')) {
      for (const o of api.list(t, { namespace: ns }).items) {
        try {
          api.delete(t, ns, o.metadata.name!, { propagationPolicy: 'Background', fieldManager: 'kube-controller-manager' });
        } catch (e) {
          if (!(e instanceof ApiError && (e.code === 404 || e.code === 405))) throw e;
        }
      }
    }
    if (!t.verbs.includes('list')) return { estimateSeconds: estimate, remaining: 0, finalizers: new Map() };
    const left = api.list(t, { namespace: ns }).items;
    if (left.length === 0) return { estimateSeconds: 0, remaining: 0, finalizers: new Map() };
    const finalizers = new Map<string, number>();
    for (const o of left) for (const f of o.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    if (estimate !== 0) return { estimateSeconds: estimate, remaining: left.length, finalizers };
    if (finalizers.size > 0) return { estimateSeconds: FINALIZER_ESTIMATE_SECONDS, remaining: left.length, finalizers };
    // GroupVersionResource.String(): `apps/v1, Resource=deployments`, `/v1, Resource=pods`.
    return {
      estimateSeconds: 0,
      remaining: left.length,
      finalizers,
      error: `unexpected items still remain in namespace: ${ns} for gvr: ${t.group}/${t.version}, Resource=${t.resource}`,
    };
  };

  /** `deleteAllContent` + `namespaceConditionUpdater`: returns the estimate (s) and errors. */
  const deleteAllContent = (nsObj: KubeObject): { estimate: number; errors: string[]; remaining: string[] } => {
    const ns = nsObj.metadata.name!;
    const deletedAtMs = parseRfc3339(nsObj.metadata.deletionTimestamp!) - clock.epochMs;
    const errors: string[] = [];
    let estimate = 0;
    const remaining: string[] = [];
    const finalizerTotals = new Map<string, number>();
    for (const t of deletableNamespacedTypes()) {
      let r: TypeResult;
      try {
        r = deleteContentOfType(t, ns, deletedAtMs);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.connectionRefused) throw e;
        errors.push(e.message);
        continue;
      }
      if (r.error) errors.push(r.error);
      estimate = Math.max(estimate, r.estimateSeconds);
      if (r.remaining > 0) {
        remaining.push(`${t.resource}.${t.group} has ${r.remaining} resource instances`);
        for (const [f, n] of r.finalizers) finalizerTotals.set(f, (finalizerTotals.get(f) ?? 0) + n);
      }
    }
    // Conditions: the failing variants we found, the "ok" variant for every other type.
    const now = clock.rfc3339();
    const failing = new Map<ConditionType, [string, string]>();
    if (remaining.length) failing.set('NamespaceContentRemaining', ['SomeResourcesRemain', `Some resources are remaining: ${[...remaining].sort().join(', ')}`]);
    if (finalizerTotals.size) {
      const parts = [...finalizerTotals].map(([f, n]) => `${f} in ${n} resource instances`).sort();
      failing.set('NamespaceFinalizersRemaining', ['SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`]);
    }
    if (errors.length) {
      failing.set('NamespaceDeletionContentFailure', [
        'ContentDeletionFailed',
        `Failed to delete all resource types, ${errors.length} remaining: ${[...errors].sort().join(', ')}`,
      ]);
    }
    const conditions: NamespaceCondition[] = (nsObj.status?.conditions ?? []).map((c: NamespaceCondition) => ({ ...c }));
    let changed = false;
    for (const type of NAMESPACE_CONDITION_TYPES) {
      const bad = failing.get(type);
      const next = { status: (bad ? 'True' : 'False') as 'True' | 'False', reason: bad ? bad[0] : OK[type][0], message: bad ? bad[1] : OK[type][1] };
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push({ type, status: next.status, lastTransitionTime: now, reason: next.reason, message: next.message });
        changed = true;
      } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
        if (old.status !== next.status) old.lastTransitionTime = now;
        old.status = next.status;
        old.reason = next.reason;
        old.message = next.message;
        changed = true;
      }
    }
    if (changed) {
      try {
        api.updateStatus({ ...nsObj, status: { ...(nsObj.status ?? {}), conditions } }, { fieldManager: 'kube-controller-manager' });
      } catch (e) {
        // "couldn't update status condition for namespace": logged, not retried.
        if (!(e instanceof ApiError) || e.connectionRefused) throw e;
      }
    }
    return { estimate, errors, remaining };
  };

  /** `namespacedResourcesDeleter.Delete`. */
  const reconcile = (name: string): ReconcileResult | void => {
    if (!namespaces.lister.get(undefined, name)) return; // "Namespace has been deleted"
    let ns = api.tryGet('namespaces', undefined, name);
    if (!ns || !ns.metadata.deletionTimestamp) return;
    if (ns.status?.phase !== 'Terminating') {
      ns = api.updateStatus({ ...ns, status: { ...(ns.status ?? {}), phase: 'Terminating' } }, { fieldManager: 'kube-controller-manager' });
    }
    if ((ns.spec?.finalizers ?? []).length === 0) return; // already finalized
    const { estimate, errors, remaining } = deleteAllContent(ns);
    if (errors.length) {
      trace(name, `could not delete all content (${errors.join('; ')}) -> retry`);
      return { requeue: true };
    }
    if (estimate > 0) {
      const wait = Math.floor(estimate / 2) + 1;
      trace(name, `is terminating: ${remaining.length ? remaining.join(', ') : 'content'} still terminating -> check again in ${wait}s`);
      return { requeueAfterMs: wait * 1000 };
    }
    // Everything is gone: remove our finalizer (retryOnConflictError).
    for (let attempt = 0; ; attempt++) {
      const cur = api.tryGet('namespaces', undefined, name);
      if (!cur) return;
      const rest = [...new Set((cur.spec?.finalizers ?? []).filter((f: string) => f !== FINALIZER_KUBERNETES))].sort() as string[];
      try {
        api.finalizeNamespace(name, rest, { resourceVersion: cur.metadata.resourceVersion, fieldManager: 'kube-controller-manager' });
        trace(name, `is empty -> remove finalizer ${FINALIZER_KUBERNETES}${rest.length ? ` (waiting for ${rest.join(', ')})` : ''}`);
        return;
      } catch (e) {
        if (e instanceof ApiError && e.code === 404) return;
        if (!(e instanceof ApiError && e.code === 409) || attempt >= 4) throw e;
      }
    }
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: NAMESPACE_COMPONENT,
    workers: ctx.setting('concurrentNamespaceSyncs', DEFAULT_CONCURRENT_NAMESPACE_SYNCS),
    waitForSync: [namespaces],
  });

  return {
    name: NAMESPACE_COMPONENT,
    stop() {
      resync?.cancel();
      registration.remove();
      workers.stop();
    },
  };
}
