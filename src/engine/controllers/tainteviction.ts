/**
 * taint-eviction-controller: deletes pods from nodes with `NoExecute` taints they do not
 * tolerate. Mirrors pkg/controller/tainteviction/taint_eviction.go and timed_workers.go (split
 * out of the node-lifecycle-controller in 1.29; its Events come from `taint-eviction-controller`).
 *
 * For every pod on a node with NoExecute taints (checked when the node's NoExecute taints
 * change, and when a pod's tolerations or node change):
 *   - a taint the pod does not tolerate: the pod is deleted at once;
 *   - all tolerated, the smallest `tolerationSeconds` among the matching tolerations is N: the
 *     pod is deleted N seconds after the controller noticed the taint (the DefaultTolerationSeconds
 *     admission plugin gives every pod 300 s for `not-ready` and `unreachable`: cases.md C10);
 *   - all tolerated without `tolerationSeconds` (DaemonSet pods): never (cases.md C12).
 * When the taints go away (the node is back) the pending deletions are cancelled, each with the
 * Event `TaintManagerEviction` `Cancelling deletion of Pod <ns>/<name>`.
 *
 * Deleting: Event `TaintManagerEviction` `Marking for deletion Pod <ns>/<name>`, then the pod
 * condition `DisruptionTarget=True` (reason `DeletionByTaintManager`, message `Taint manager:
 * deleting due to NoExecute taint`), then a graceful DELETE. On a dead node no kubelet confirms
 * the deletion, so the pod stays `Terminating` (with its deletionTimestamp) until the node
 * comes back or the pod is force-deleted; its ReplicaSet already counts it as gone.
 *
 * The countdown starts when this controller sees the taint (not at the taint's `timeAdded`):
 * the timers live in this process only, so a restarted controller-manager starts them again,
 * as the real one does.
 */
import type { Controller, ControllerContext } from './manager';
import type { Timer } from '../clock';
import { ApiError } from '../api/errors';
import { deepEqual, type KubeObject } from '../api/types';
import { indexByNodeName, metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';
import { toleratesTaint, type TaintLike, type TolerationLike } from './util';

/** The controller's name, also the `source.component` of its Events. Source: cmd/kube-controller-manager/names. */
export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';
/** Attempts of one deletion (`retries`). Source: pkg/controller/tainteviction/taint_eviction.go. */
export const DELETE_RETRIES = 5;
/** The pod condition set before deleting. Source: taint_eviction.go (`addConditionAndDeletePod`). */
export const DISRUPTION_TARGET_REASON = 'DeletionByTaintManager';
export const DISRUPTION_TARGET_MESSAGE = 'Taint manager: deleting due to NoExecute taint';

/** `getNoExecuteTaints`. */
function noExecuteTaints(node: KubeObject | undefined): TaintLike[] {
  return ((node?.spec?.taints ?? []) as TaintLike[]).filter((t) => t.effect === 'NoExecute');
}

/**
 * `v1helper.GetMatchingTolerations`: whether every taint is tolerated, and for each taint the
 * first toleration that tolerates it.
 */
export function getMatchingTolerations(taints: TaintLike[], tolerations: TolerationLike[]): [boolean, TolerationLike[]] {
  if (taints.length === 0) return [true, []];
  const used: TolerationLike[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (!t) return [false, []];
    used.push(t);
  }
  return [true, used];
}

/**
 * `getMinTolerationTime`: the smallest `tolerationSeconds` (ms), 0 when one is <= 0 or there
 * are no tolerations, -1 when none sets it (tolerated forever).
 */
export function getMinTolerationMs(tolerations: TolerationLike[]): number {
  if (tolerations.length === 0) return 0;
  let min = Infinity;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return Number.isFinite(min) ? min * 1000 : -1;
}

/** A scheduled deletion (`TimedWorker`); `timer` is undefined while an immediate deletion runs. */
interface TimedWorker {
  createdAt: number;
  fireAt: number;
  timer: Timer | undefined;
}

/**
 * Start the taint-eviction-controller. Watches Nodes and Pods; writes pod status (the
 * DisruptionTarget condition) and deletes pods; records Events as `taint-eviction-controller`.
 */
export function newTaintEvictionController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(TAINT_EVICTION_CONTROLLER);
  /** Trace a decision about the pod `key` (`ns/name`). */
  const trace = (key: string, msg: string) => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    ctx.trace(TAINT_EVICTION_CONTROLLER, `${key}: ${msg}`, { kind: 'Pod', namespace, name });
  };

  const nodeInformer = ctx.informers.informer('nodes');
  const podInformer = ctx.informers.informer('pods', { indexers: { 'spec.nodeName': indexByNodeName } });
  const nodes = nodeInformer.lister;
  const pods = podInformer.lister;

  const nodeUpdateQueue = new RateLimitingQueue(clock, { name: 'noexec_taint_node' });
  const podUpdateQueue = new RateLimitingQueue(clock, { name: 'noexec_taint_pod' });

  // `NodeUpdated`: only a change of the NoExecute taints matters.
  nodeInformer.addEventHandler({
    onAdd: (n) => nodeUpdateQueue.add(n.metadata.name!),
    onUpdate: (o, n) => {
      if (!deepEqual(noExecuteTaints(o), noExecuteTaints(n))) nodeUpdateQueue.add(n.metadata.name!);
    },
    onDelete: (n) => nodeUpdateQueue.add(n.metadata.name!),
  });
  // `PodUpdated`: only a change of tolerations or node matters.
  podInformer.addEventHandler({
    onAdd: (p) => podUpdateQueue.add(metaNamespaceKey(p)),
    onUpdate: (o, p) => {
      if (deepEqual(o.spec?.tolerations ?? [], p.spec?.tolerations ?? []) && o.spec?.nodeName === p.spec?.nodeName) return;
      podUpdateQueue.add(metaNamespaceKey(p));
    },
    onDelete: (p) => podUpdateQueue.add(metaNamespaceKey(p)),
  });

  // ---- the process's memory
  /** Node name -> its NoExecute taints, as last handled. */
  const taintedNodes = new Map<string, TaintLike[]>();
  /** `ns/name` -> scheduled deletion (`TimedWorkerQueue`). */
  const workers = new Map<string, TimedWorker>();
  let stopped = false;

  // ---- the timed deletions

  /** `AddWork`: schedule the deletion of `key` at `fireAt` (at once if due), unless one is scheduled. */
  function addWork(key: string, createdAt: number, fireAt: number): void {
    if (workers.has(key)) return;
    const w: TimedWorker = { createdAt, fireAt, timer: undefined };
    const run = () => {
      if (stopped || workers.get(key) !== w) return;
      w.timer = undefined;
      deletePod(key);
      if (workers.get(key) === w) workers.delete(key);
    };
    // Due work runs in its own goroutine in the real controller: here, its own clock event.
    w.timer = clock.schedule(Math.max(0, fireAt - clock.now()), run, { label: `${TAINT_EVICTION_CONTROLLER}: evict ${key}` });
    workers.set(key, w);
  }

  /** `CancelWork` + `emitCancelPodDeletionEvent`. */
  function cancelWorkWithEvent(key: string): void {
    const w = workers.get(key);
    if (!w) return;
    w.timer?.cancel();
    workers.delete(key);
    const { namespace, name } = splitMetaNamespaceKey(key);
    recorder.event({ kind: 'Pod', namespace, name, apiVersion: 'v1' }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${key}`);
    trace(key, 'NoExecute taints gone, eviction cancelled');
  }

  /**
   * `deletePodHandler` + `addConditionAndDeletePod`: Event, DisruptionTarget condition, graceful
   * delete. A failure after the retries drops the work, as the real timed worker does.
   */
  function deletePod(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    recorder.event({ kind: 'Pod', namespace, name, apiVersion: 'v1' }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key}`);
    let lastError: ApiError | undefined;
    for (let i = 0; i < DELETE_RETRIES; i++) {
      const pod = pods.get(namespace, name);
      if (!pod) return;
      try {
        const conds: { type: string; status: string; reason?: string; message?: string }[] = pod.status?.conditions ?? [];
        const cur = conds.find((c) => c.type === 'DisruptionTarget');
        if (!(cur && cur.status === 'True' && cur.reason === DISRUPTION_TARGET_REASON && cur.message === DISRUPTION_TARGET_MESSAGE)) {
          const cond = {
            type: 'DisruptionTarget',
            status: 'True',
            lastProbeTime: null,
            lastTransitionTime: cur?.status === 'True' ? (cur as { lastTransitionTime?: string }).lastTransitionTime : clock.rfc3339(),
            reason: DISRUPTION_TARGET_REASON,
            message: DISRUPTION_TARGET_MESSAGE,
          };
          api.patch('pods', namespace, name, 'strategic', { status: { conditions: [cond] } }, { subresource: 'status', fieldManager: 'kube-controller-manager' });
        }
        api.delete('pods', namespace, name, { fieldManager: 'kube-controller-manager' });
        trace(key, `deleted (NoExecute taint on node ${pod.spec?.nodeName})`);
        return;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code === 404) return;
        lastError = e;
      }
    }
    trace(key, `TaintEvictionController: timed worker failed: ${lastError?.message}`);
  }

  // ---- deciding

  /** `processPodOnNode`: delete now, later, or never. */
  function processPodOnNode(key: string, nodeName: string, tolerations: TolerationLike[], taints: TaintLike[], now: number): void {
    if (taints.length === 0) cancelWorkWithEvent(key);
    const [allTolerated, used] = getMatchingTolerations(taints, tolerations);
    if (!allTolerated) {
      // Not all taints tolerated: cancel what was scheduled and delete right away.
      const untolerated = taints.find((t) => !tolerations.some((x) => toleratesTaint(x, t)))!;
      cancelWorkWithEvent(key);
      trace(key, `does not tolerate ${untolerated.key}:NoExecute on node ${nodeName} -> evict now`);
      addWork(key, now, now);
      return;
    }
    const minMs = getMinTolerationMs(used);
    if (minMs < 0) {
      // Tolerated forever (no tolerationSeconds): e.g. DaemonSet pods.
      cancelWorkWithEvent(key);
      return;
    }
    let startTime = now;
    const trigger = now + minMs;
    const scheduled = workers.get(key);
    if (scheduled) {
      startTime = scheduled.createdAt;
      // The earlier countdown wins (Go compares with nanosecond clocks: equal only if the same instant).
      if (startTime + minMs <= trigger) return;
      cancelWorkWithEvent(key);
    }
    trace(key, `tolerates ${taints.map((t) => `${t.key}:NoExecute`).join(', ')} on node ${nodeName} for ${minMs / 1000}s -> evict at ${clock.rfc3339(trigger)}`);
    addWork(key, startTime, trigger);
  }

  /** `handleNodeUpdate`: remember the node's NoExecute taints and re-check all its pods. */
  function handleNodeUpdate(nodeName: string): void {
    const node = nodes.get(undefined, nodeName);
    if (!node) {
      taintedNodes.delete(nodeName);
      return;
    }
    const taints = noExecuteTaints(node);
    if (taints.length === 0) taintedNodes.delete(nodeName);
    else taintedNodes.set(nodeName, taints);
    const podList = pods.byIndex('spec.nodeName', nodeName);
    if (podList.length === 0) return;
    if (taints.length === 0) {
      for (const p of podList) cancelWorkWithEvent(metaNamespaceKey(p));
      return;
    }
    const now = clock.now();
    for (const p of podList) processPodOnNode(metaNamespaceKey(p), nodeName, p.spec?.tolerations ?? [], taints, now);
  }

  /** `handlePodUpdate`: a pod appeared, moved, changed tolerations or went away. */
  function handlePodUpdate(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = pods.get(namespace, name);
    if (!pod) {
      cancelWorkWithEvent(key);
      return;
    }
    const nodeName: string | undefined = pod.spec?.nodeName;
    if (!nodeName) return;
    const taints = taintedNodes.get(nodeName);
    if (!taints) return;
    processPodOnNode(key, nodeName, pod.spec?.tolerations ?? [], taints, clock.now());
  }

  const synced = [nodeInformer, podInformer];
  const nodeWorkers = startWorkers(nodeUpdateQueue, handleNodeUpdate, { clock, name: `${TAINT_EVICTION_CONTROLLER} nodes`, waitForSync: synced });
  const podWorkers = startWorkers(podUpdateQueue, handlePodUpdate, { clock, name: `${TAINT_EVICTION_CONTROLLER} pods`, waitForSync: synced });

  return {
    name: TAINT_EVICTION_CONTROLLER,
    stop() {
      stopped = true;
      for (const w of workers.values()) w.timer?.cancel();
      workers.clear();
      nodeWorkers.stop();
      podWorkers.stop();
    },
  };
}
