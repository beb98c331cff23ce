/**
 * pod-garbage-collector-controller (PodGC): every 20 s it looks at all pods and force-deletes
 * the ones nobody else will ever clean up. Mirrors pkg/controller/podgc/gc_controller.go.
 *
 * Each pass (`gc`), reading the pod and node informer caches:
 *   1. `gcTerminated`: when more terminated pods (phase not Pending/Running/Unknown) exist than
 *      `--terminated-pod-gc-threshold` (12500), delete the excess, evicted pods first, then the
 *      oldest (creationTimestamp, then name);
 *   2. `gcTerminating`: terminating pods on a node that is not Ready and carries the
 *      `node.kubernetes.io/out-of-service` taint;
 *   3. `gcOrphaned`: pods bound to a node that does not exist. A missing node name first waits
 *      40 s in quarantine (a delaying queue), then is confirmed with a GET through the API; its
 *      pods get the condition DisruptionTarget=True (reason DeletionByPodGC, message
 *      `PodGC: node no longer exists`) and are deleted;
 *   4. `gcUnscheduledTerminating`: pods with a deletionTimestamp that were never bound.
 * Every deletion (`markFailedAndDeletePod`) first patches a non-terminal pod's status to phase
 * Failed (plus the condition, if any), then deletes it with grace period 0 (a force delete: the
 * pod is gone at once, no kubelet confirmation). PodGC records no Events; it traces.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { ApiError } from '../api/errors';
import type { Timer } from '../clock';
import { RateLimitingQueue } from '../client/workqueue';

/** Component name. Source: cmd/kube-controller-manager (`pod-garbage-collector-controller`). */
export const PODGC_COMPONENT = 'pod-garbage-collector-controller';

/** Period of the main loop, virtual ms. Source: gc_controller.go (`gcCheckPeriod`). Setting `podGcCheckPeriodMs`. */
export const GC_CHECK_PERIOD_MS = 20_000;

/**
 * How long a missing node waits before it is confirmed gone through the API, virtual ms.
 * Source: gc_controller.go (`quarantineTime`). Setting `podGcQuarantineMs`.
 */
export const QUARANTINE_TIME_MS = 40_000;

/**
 * Terminated pods kept before PodGC deletes the oldest; 0 disables. Source: kube-controller-manager
 * `--terminated-pod-gc-threshold` default 12500. Setting `terminatedPodGcThreshold`.
 */
export const DEFAULT_TERMINATED_POD_GC_THRESHOLD = 12_500;

/** The taint that lets PodGC remove terminating pods of a shut-down node (`v1.TaintNodeOutOfService`). */
export const TAINT_NODE_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service';

/** A pod condition (`v1.PodCondition`). */
interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `isPodTerminated`: phase is neither Pending, Running nor Unknown. */
function isPodTerminated(pod: KubeObject): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Pending' && phase !== 'Running' && phase !== 'Unknown';
}

/** `eviction.PodIsEvicted`. */
function isEvicted(pod: KubeObject): boolean {
  return pod.status?.phase === 'Failed' && pod.status?.reason === 'Evicted';
}

/** `byEvictionAndCreationTimestamp`: evicted first, then oldest, then by name. */
function byEvictionAndCreation(a: KubeObject, b: KubeObject): number {
  const ea = isEvicted(a);
  const eb = isEvicted(b);
  if (ea !== eb) return ea ? -1 : 1;
  const ca = a.metadata.creationTimestamp ?? '';
  const cb = b.metadata.creationTimestamp ?? '';
  if (ca !== cb) return ca < cb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

function isNodeReady(node: KubeObject): boolean {
  return (node.status?.conditions ?? []).some((c: PodCondition) => c.type === 'Ready' && c.status === 'True');
}

/** Start the pod garbage collector. */
export function newPodGCController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const periodMs = ctx.setting('podGcCheckPeriodMs', GC_CHECK_PERIOD_MS);
  const quarantineMs = ctx.setting('podGcQuarantineMs', QUARANTINE_TIME_MS);
  const threshold = ctx.setting('terminatedPodGcThreshold', DEFAULT_TERMINATED_POD_GC_THRESHOLD);
  const pods = ctx.informers.informer('pods');
  const nodes = ctx.informers.informer('nodes');
  /** Node names waiting out their quarantine (`orphaned_pods_nodes`, a delaying queue). */
  const nodeQueue = new RateLimitingQueue(clock, { name: 'orphaned_pods_nodes' });
  let timer: Timer | undefined;
  let stopped = false;

  const podRef = (p: KubeObject) => ({ kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name!, uid: p.metadata.uid });
  const podName = (p: KubeObject) => `${p.metadata.namespace}/${p.metadata.name}`;

  /**
   * `markFailedAndDeletePodWithCondition`: phase Failed (+ condition) through the status
   * subresource, then delete with grace period 0. NotFound is ignored.
   */
  const markFailedAndDelete = (pod: KubeObject, condition?: PodCondition): void => {
    const ns = pod.metadata.namespace!;
    const name = pod.metadata.name!;
    try {
      if (pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed') {
        const status: { phase: string; conditions?: PodCondition[] } = { phase: 'Failed' };
        if (condition) {
          // apipod.UpdatePodCondition: a new transition time unless the status is unchanged.
          const old = (pod.status?.conditions ?? []).find((c: PodCondition) => c.type === condition.type);
          const lastTransitionTime = old && old.status === condition.status && old.lastTransitionTime ? old.lastTransitionTime : clock.rfc3339();
          status.conditions = [{ ...condition, lastProbeTime: null, lastTransitionTime }];
        }
        api.patch('pods', ns, name, 'strategic', { metadata: { uid: pod.metadata.uid }, status }, { subresource: 'status', fieldManager: 'kube-controller-manager' });
      }
      api.delete('pods', ns, name, { gracePeriodSeconds: 0, fieldManager: 'kube-controller-manager' });
    } catch (e) {
      // "ignore not founds"; other errors are logged and the pod is retried on the next pass.
      if (!(e instanceof ApiError)) throw e;
    }
  };

  /** `gcTerminated`. */
  const gcTerminated = (all: KubeObject[]) => {
    const terminated = all.filter(isPodTerminated);
    const deleteCount = terminated.length - threshold;
    if (deleteCount <= 0) return;
    terminated.sort(byEvictionAndCreation);
    ctx.trace(PODGC_COMPONENT, `${terminated.length} terminated pods exceed --terminated-pod-gc-threshold=${threshold} -> delete the ${deleteCount} oldest`);
    for (const pod of terminated.slice(0, deleteCount)) {
      ctx.trace(PODGC_COMPONENT, `${podName(pod)} is terminated (${pod.status?.phase}) and among the oldest -> delete`, podRef(pod));
      markFailedAndDelete(pod);
    }
  };

  /** `gcTerminating`: terminating pods on not-Ready nodes tainted out-of-service. */
  const gcTerminating = (all: KubeObject[]) => {
    const victims: KubeObject[] = [];
    for (const pod of all) {
      if (!pod.metadata.deletionTimestamp) continue;
      const node = pod.spec?.nodeName ? nodes.lister.get(undefined, pod.spec.nodeName) : undefined;
      if (!node) continue;
      const outOfService = (node.spec?.taints ?? []).some((t: { key: string }) => t.key === TAINT_NODE_OUT_OF_SERVICE);
      if (!isNodeReady(node) && outOfService) victims.push(pod);
    }
    victims.sort(byEvictionAndCreation);
    for (const pod of victims) {
      ctx.trace(PODGC_COMPONENT, `${podName(pod)} is terminating on node ${pod.spec.nodeName}, which is not ready and tainted ${TAINT_NODE_OUT_OF_SERVICE} -> force delete`, podRef(pod));
      markFailedAndDelete(pod);
    }
  };

  /** `gcOrphaned` + `discoverDeletedNodes`. */
  const gcOrphaned = (all: KubeObject[]) => {
    const existing = new Set(nodes.lister.list().map((n) => n.metadata.name!));
    for (const pod of all) {
      const node = pod.spec?.nodeName;
      if (node && !existing.has(node)) nodeQueue.addAfter(node, quarantineMs);
    }
    const deleted = new Set<string>();
    while (nodeQueue.len() > 0) {
      const name = nodeQueue.get();
      if (name === undefined) break;
      if (!existing.has(name)) {
        try {
          if (!api.tryGet('nodes', undefined, name)) deleted.add(name);
        } catch (e) {
          // "Error while getting node": the node is queued again on a later pass if still needed.
          if (!(e instanceof ApiError)) throw e;
        }
      }
      nodeQueue.done(name);
    }
    if (deleted.size === 0) return;
    for (const pod of all) {
      if (!deleted.has(pod.spec?.nodeName)) continue;
      ctx.trace(PODGC_COMPONENT, `${podName(pod)} is bound to node ${pod.spec.nodeName}, which no longer exists -> mark Failed (DisruptionTarget: DeletionByPodGC) and force delete`, podRef(pod));
      markFailedAndDelete(pod, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
    }
  };

  /** `gcUnscheduledTerminating`. */
  const gcUnscheduledTerminating = (all: KubeObject[]) => {
    for (const pod of all) {
      if (!pod.metadata.deletionTimestamp || pod.spec?.nodeName) continue;
      ctx.trace(PODGC_COMPONENT, `${podName(pod)} is terminating but was never scheduled -> force delete`, podRef(pod));
      markFailedAndDelete(pod);
    }
  };

  /** One pass of the main loop (`gc`). */
  const gc = () => {
    const all = pods.lister.list();
    if (threshold > 0) gcTerminated(all);
    gcTerminating(all);
    gcOrphaned(all);
    gcUnscheduledTerminating(all);
  };

  // `wait.UntilWithContext(ctx, gcc.gc, gcCheckPeriod)` once both caches have synced.
  const loop = () => {
    timer = undefined;
    if (stopped) return;
    gc();
    timer = clock.schedule(periodMs, loop, { label: `${PODGC_COMPONENT}: gc`, background: true });
  };
  let syncedCount = 0;
  for (const inf of [pods, nodes]) {
    inf.whenSynced(() => {
      if (++syncedCount === 2 && !stopped) timer = clock.schedule(0, loop, { label: `${PODGC_COMPONENT}: gc`, background: true });
    });
  }

  return {
    name: PODGC_COMPONENT,
    stop() {
      stopped = true;
      timer?.cancel();
      nodeQueue.shutDown();
    },
  };
}
