/**
 * kube-scheduler as one simulated process: its own informers, an event recorder for
 * `default-scheduler`, leader election on the `kube-scheduler` Lease in kube-system, a
 * scheduling queue, a cache of what each node holds, and the loop that places one pending pod
 * per cycle: PreFilter -> Filter (sampled nodes) -> Score -> pick -> assume -> bind.
 *
 * Mirrors cmd/kube-scheduler/app/server.go (informers start at once; the scheduling loop runs
 * only while this process holds the Lease), pkg/scheduler/eventhandlers.go (bound pods and nodes
 * feed the cache, pending pods with `schedulerName: default-scheduler` and no `nodeName` feed the
 * queue, cluster events move parked pods back), and pkg/scheduler/schedule_one.go
 * (`scheduleOne`, `schedulePod`, `findNodesThatFitPod`, `numFeasibleNodesToFind`,
 * `prioritizeNodes`, `selectHost`, `handleSchedulingFailure`, the binding cycle).
 *
 * What a user sees: a pod that fits gets bound (`spec.nodeName`, PodScheduled=True) and the
 * Event `Scheduled` `Successfully assigned <ns>/<pod> to <node>`; a pod that does not fit keeps
 * PodScheduled=False with reason `Unschedulable` and the Warning Event `FailedScheduling`
 * `0/3 nodes are available: ...`. `stop()` is the process dying: queue, cache, assumed pods and
 * timers are gone, and nothing is scheduled (no events either) until a new process relists.
 *
 * Units: virtual milliseconds.
 */
import type { Clock, Timer } from '../clock';
import type { Rng } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import { deepCopy, deepEqual, type KubeObject } from '../api/types';
import { SharedInformerFactory, type Informer, type Lister } from '../client/informer';
import { EventsV1Recorder } from '../client/eventsv1';
import { LeaderElector } from '../client/leaderelection';
import type { ProcessOptions } from '../controllers/manager';
import { noTrace, type TraceFn, type TraceObjectRef } from '../trace';
import { ERR_NO_NODES_AVAILABLE, fitErrorMessage, isRejected, statusMessage, truncateMessage, type Diagnosis, type Status } from './framework';
import { assumedPodInfo, podInfoOf, sameLabels, SchedulerCache, type NodeInfo, type PodInfo } from './cache';
import { ANN_SELECTED_NODE, cloneState, isClaimFullyBound, preFilter, runFilters, scoreNodes, updateStateWithPod, type CycleState, type PluginHandle, type PodVolumes } from './plugins';
import { nodeChanges, POD_INITIAL_BACKOFF_MS, POD_MAX_BACKOFF_MS, POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS, SchedulingQueue, type ClusterEvent, type QueuedPodInfo } from './queue';
import { preempt } from './preemption';

// ------------------------------------------------------------------------------ defaults

/** The scheduler name pods get by default and this profile serves. Source: pkg/apis/core/v1/defaults.go. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** Event source component (the profile name). */
export const EVENT_COMPONENT = 'default-scheduler';
/** Trace component. */
export const TRACE_COMPONENT = 'kube-scheduler';
/** The Lease kube-scheduler elects on (`--leader-elect-resource-name`), in kube-system. */
export const LEASE_NAME = 'kube-scheduler';

/**
 * Below this many nodes every node is examined; above, the adaptive percentage applies but never
 * fewer than 100 nodes. Source: pkg/scheduler/schedule_one.go (`minFeasibleNodesToFind`).
 */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** Floor of the adaptive percentage (5%). Source: schedule_one.go (`minFeasibleNodesPercentageToFind`). */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;
/** `percentageOfNodesToScore` default: 0 = adaptive (50% - nodes/125, at least 5%). Source: apis/config/v1/defaults.go. */
export const DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE = 0;
/** How often backoffQ is flushed into activeQ (1 s). Source: backend/queue/scheduling_queue.go (`Run`). */
export const BACKOFF_FLUSH_PERIOD_MS = 1000;
/** How often long-parked unschedulable pods are retried (30 s). Source: scheduling_queue.go (`Run`). */
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;
/** `bindTimeoutSeconds` of VolumeBindingArgs (600 s). Source: apis/config/v1/defaults.go. */
export const VOLUME_BIND_TIMEOUT_MS = 600_000;
/** VolumeBinding PreBind polls the claims every second. Source: plugins/volumebinding/binder.go (`BindPodVolumes`). */
export const VOLUME_BIND_POLL_MS = 1000;

/**
 * Setting keys (ProcessOptions.settings) with their defaults, all cited above:
 * podInitialBackoffMs, podMaxBackoffMs, podMaxInUnschedulablePodsDurationMs,
 * percentageOfNodesToScore, volumeBindTimeoutMs, schedulerPopFromBackoffQ (1 = on, the 1.33+
 * default), schedulerTaintDetailInMessage (1 = `{key: value}` as up to 1.34.1, 0 = the 1.35+
 * `untolerated taint(s)`), schedulingCycleMs (virtual time one scheduling cycle takes, default 0).
 */
export const SCHEDULER_SETTINGS: Readonly<Record<string, number>> = Object.freeze({
  podInitialBackoffMs: POD_INITIAL_BACKOFF_MS,
  podMaxBackoffMs: POD_MAX_BACKOFF_MS,
  podMaxInUnschedulablePodsDurationMs: POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS,
  percentageOfNodesToScore: DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE,
  volumeBindTimeoutMs: VOLUME_BIND_TIMEOUT_MS,
  schedulerPopFromBackoffQ: 1,
  schedulerTaintDetailInMessage: 1,
  schedulingCycleMs: 0,
});

/**
 * `numFeasibleNodesToFind`: how many feasible nodes to find before scoring. All of them below
 * 100 nodes; else `percentage` of the nodes (adaptive when 0: 50% minus 1% per 125 nodes, at
 * least 5%), but at least 100.
 */
export function numFeasibleNodesToFind(percentage: number, numAllNodes: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentage >= 100) return numAllNodes;
  let p = percentage;
  if (p <= 0) {
    p = 50 - Math.trunc(numAllNodes / 125);
    if (p < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) p = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const n = Math.trunc((numAllNodes * p) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

// ------------------------------------------------------------------------------ the process

/**
 * The kube-scheduler process. A stopped process cannot start again: make a new one (as the
 * kubelet starts a new container), which relists and schedules whatever is still pending.
 */
export class KubeScheduler {
  private informers: SharedInformerFactory | undefined;
  private recorder: EventsV1Recorder | undefined;
  private scheduler: Scheduler | undefined;
  private elector: LeaderElector | undefined;
  private leading = false;
  private stopped = false;

  constructor(readonly o: ProcessOptions) {}

  /** Start: informers list and watch at once; scheduling begins when the Lease is acquired. */
  start(): void {
    if (this.stopped) throw new Error('kube-scheduler: a stopped process cannot start again');
    if (this.informers) return;
    const o = this.o;
    const trace = o.trace ?? noTrace;
    const settings = o.settings ?? {};
    this.informers = new SharedInformerFactory({ api: o.api, clock: o.clock, rng: o.rng, name: TRACE_COMPONENT, log: o.log });
    // kube-scheduler records through events.k8s.io/v1 (NewEventBroadcasterAdapter; NewRecorder's
    // instance is `<controller>-<hostname>`, the node's name: the pod uses the host network).
    this.recorder = new EventsV1Recorder({
      api: o.api,
      clock: o.clock,
      rng: o.rng,
      reportingController: EVENT_COMPONENT,
      reportingInstance: `${EVENT_COMPONENT}-${o.nodeName ?? 'k8s-lab-control-plane'}`,
      sink: o.eventSink,
    });
    this.scheduler = new Scheduler({
      api: o.api,
      clock: o.clock,
      rng: o.rng,
      informers: this.informers,
      recorder: this.recorder,
      trace,
      setting: (k) => settings[k] ?? SCHEDULER_SETTINGS[k],
    });
    this.informers.start();
    const lead = () => {
      this.leading = true;
      this.scheduler?.run();
    };
    if (o.leaderElect === false) {
      lead();
      return;
    }
    const node = o.nodeName ?? 'k8s-lab-control-plane';
    this.elector = new LeaderElector({
      api: o.api,
      clock: o.clock,
      namespace: 'kube-system',
      name: LEASE_NAME,
      identity: `${node}_${o.rng.uuid()}`,
      onStartedLeading: () => {
        trace(TRACE_COMPONENT, `successfully acquired lease kube-system/${LEASE_NAME}`);
        lead();
      },
      onStoppedLeading: () => {
        trace(TRACE_COMPONENT, 'leaderelection lost', undefined, 'Warning');
        this.stop();
        o.onExit?.('leaderelection lost');
      },
    });
    this.elector.start();
  }

  /** The process dies: queue, cache, assumed pods, informers, pending events and timers are dropped. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.leading = false;
    this.elector?.stop();
    this.scheduler?.stop();
    this.informers?.stop();
    this.recorder?.stop();
    this.scheduler = undefined;
  }

  /** True while this process leads and schedules. */
  isRunning(): boolean {
    return this.leading && !this.stopped;
  }
}

// ------------------------------------------------------------------------------ the scheduler

interface SchedulerDeps {
  api: ApiServer;
  clock: Clock;
  rng: Rng;
  informers: SharedInformerFactory;
  recorder: EventsV1Recorder;
  trace: TraceFn;
  setting: (key: string) => number;
}

/** A pod the scheduler has nominated to a node (preemption), until it is bound or gone. */
interface Nomination {
  node: string;
  pi: PodInfo;
}

const podRef = (pod: KubeObject): TraceObjectRef => ({ kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name ?? '', uid: pod.metadata.uid });

/** A bound pod (`assignedPod`). */
function assigned(pod: KubeObject): boolean {
  return !!pod.spec?.nodeName;
}

/** This profile's pod (`responsibleForPod`). */
function responsible(pod: KubeObject): boolean {
  return (pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME;
}

/** The outcome of `schedulePod`. */
type ScheduleResult =
  | { ok: true; node: string; evaluated: number; feasible: number }
  | { ok: false; fit: true; diagnosis: Diagnosis; numAllNodes: number; state: CycleState | undefined; allNodes: NodeInfo[] }
  | { ok: false; fit: false; message: string };

/** The scheduler proper (`scheduler.Scheduler`): handlers, queue, cache and the scheduling loop. */
class Scheduler {
  private readonly cache = new SchedulerCache();
  private readonly queue: SchedulingQueue;
  private readonly handle: PluginHandle;
  private readonly pods: Informer;
  private readonly podLister: Lister;
  private leading = false;
  private stopped = false;
  private synced = false;
  private loopTimer: Timer | undefined;
  private backoffTimer: Timer | undefined;
  private flushTimer: Timer | undefined;
  private leadingSince = 0;
  private nextStartNodeIndex = 0;
  private nominations = new Map<string, Nomination>();
  private bindingTimers = new Set<Timer>();
  /** Scratch: the ids of the feasible nodes of the cycle being scored. */
  private feasibleIds = new Int32Array(0);

  constructor(private readonly d: SchedulerDeps) {
    const f = d.informers;
    this.queue = new SchedulingQueue({
      now: () => d.clock.now(),
      initialBackoffMs: d.setting('podInitialBackoffMs'),
      maxBackoffMs: d.setting('podMaxBackoffMs'),
      maxInUnschedulableMs: d.setting('podMaxInUnschedulablePodsDurationMs'),
      popFromBackoffQ: d.setting('schedulerPopFromBackoffQ') !== 0,
    });
    // The scheduler's pod informer leaves out terminal pods (they hold no resources).
    this.pods = f.informer('pods', { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' });
    this.podLister = this.pods.lister;
    const nodes = f.informer('nodes');
    const pvcs = f.informer('persistentvolumeclaims');
    const pvs = f.informer('persistentvolumes');
    const scs = f.informer('storageclasses');
    const namespaces = f.informer('namespaces');
    const services = f.informer('services');
    const rss = f.informer('replicasets');
    const stss = f.informer('statefulsets');
    this.handle = {
      cache: this.cache,
      pvcs: pvcs.lister,
      pvs: pvs.lister,
      storageClasses: scs.lister,
      namespaces: namespaces.lister,
      services: services.lister,
      replicaSets: rss.lister,
      statefulSets: stss.lister,
      assumedPVs: new Map(),
      taintDetailInMessage: d.setting('schedulerTaintDetailInMessage') !== 0,
      defaultSelectors: new Map(),
    };

    this.pods.addEventHandler({
      onAdd: (pod) => this.onPodAdd(pod),
      onUpdate: (old, pod) => this.onPodUpdate(old, pod),
      onDelete: (pod) => this.onPodDelete(pod),
    });
    nodes.addEventHandler({
      onAdd: (node) => {
        this.cache.addNode(node);
        this.move({ type: 'NodeAdd', node });
      },
      onUpdate: (old, node) => {
        this.cache.updateNode(node);
        const c = nodeChanges(old, node);
        if (c.unschedulable || c.allocatable || c.labels || c.taints || c.conditions || c.annotations) this.move({ type: 'NodeUpdate', old, node, changes: c });
      },
      onDelete: (node) => this.cache.removeNode(node),
    });
    const storage = (what: 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass') => ({
      onAdd: () => this.move({ type: 'StorageChange', what }),
      onUpdate: (_old: KubeObject, obj: KubeObject) => {
        if (what === 'PersistentVolume' && this.handle.assumedPVs.has(obj.metadata.name!) && obj.spec?.claimRef) this.handle.assumedPVs.delete(obj.metadata.name!);
        this.move({ type: 'StorageChange', what });
      },
    });
    pvcs.addEventHandler(storage('PersistentVolumeClaim'));
    pvs.addEventHandler(storage('PersistentVolume'));
    scs.addEventHandler(storage('StorageClass'));
    namespaces.addEventHandler({ onAdd: () => this.move({ type: 'NamespaceChange' }), onUpdate: () => this.move({ type: 'NamespaceChange' }) });
    // The default spreading selector is made of Services' and ReplicaSets'/StatefulSets' selectors.
    const forget = {
      onAdd: () => this.handle.defaultSelectors.clear(),
      onUpdate: (old: KubeObject, obj: KubeObject) => {
        if (!deepEqual(old.spec?.selector, obj.spec?.selector)) this.handle.defaultSelectors.clear();
      },
      onDelete: () => this.handle.defaultSelectors.clear(),
    };
    services.addEventHandler(forget);
    rss.addEventHandler(forget);
    stss.addEventHandler(forget);

    // Scheduling waits for every cache to sync (`WaitForCacheSync`).
    const all = [this.pods, nodes, pvcs, pvs, scs, namespaces, services, rss, stss];
    let pending = all.length;
    for (const inf of all) {
      inf.whenSynced(() => {
        if (--pending === 0) {
          this.synced = true;
          this.kick();
        }
      });
    }
  }

  /** Start scheduling (leadership acquired). */
  run(): void {
    if (this.stopped || this.leading) return;
    this.leading = true;
    this.leadingSince = this.d.clock.now();
    this.scheduleUnschedulableFlush();
    this.kick();
  }

  /** Drop everything (the process died). */
  stop(): void {
    this.stopped = true;
    this.leading = false;
    this.loopTimer?.cancel();
    this.backoffTimer?.cancel();
    this.flushTimer?.cancel();
    for (const t of this.bindingTimers) t.cancel();
    this.bindingTimers.clear();
  }

  // ---------------------------------------------------------------- event handlers

  private onPodAdd(pod: KubeObject): void {
    if (assigned(pod)) {
      this.cache.addPod(pod);
      this.nominations.delete(pod.metadata.uid ?? '');
      this.move({ type: 'AssignedPodAdd', pod });
    } else if (responsible(pod)) {
      this.queue.add(pod);
      this.updateNomination(undefined, pod);
      this.kick();
    }
  }

  private onPodUpdate(old: KubeObject, pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    if (assigned(pod)) {
      if (!assigned(old)) {
        // Bound (by this scheduler or anyone): it leaves the queue and joins the cache.
        this.queue.delete(pod);
        this.nominations.delete(uid);
        this.cache.addPod(pod);
        this.move({ type: 'AssignedPodAdd', pod });
        return;
      }
      this.cache.updatePod(pod);
      if (!sameLabels(old, pod)) this.move({ type: 'AssignedPodUpdate', old, pod });
      return;
    }
    if (!responsible(pod)) return;
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    if (this.cache.isAssumed(uid)) return;
    this.queue.update(old, pod);
    this.updateNomination(old, pod);
    this.kick();
  }

  private onPodDelete(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    if (assigned(pod)) {
      this.cache.removePod(pod);
      this.move({ type: 'AssignedPodDelete', pod });
    } else {
      this.queue.delete(pod);
      this.nominations.delete(uid);
      // An assumed pod deleted before its binding was seen.
      this.cache.forgetPod(uid);
    }
  }

  /** `nominator.updateNominatedPod`: keep an in-memory nomination while updates carry none. */
  private updateNomination(old: KubeObject | undefined, pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    const nnn = (pod.status?.nominatedNodeName as string | undefined) ?? '';
    const oldNnn = (old?.status?.nominatedNodeName as string | undefined) ?? '';
    if (!nnn && !oldNnn) {
      const cur = this.nominations.get(uid);
      if (cur) cur.pi = podInfoOf(pod);
      return;
    }
    if (nnn) this.nominations.set(uid, { node: nnn, pi: podInfoOf(pod) });
    else this.nominations.delete(uid);
  }

  /** `MoveAllToActiveOrBackoffQueue` for a cluster event. */
  private move(ev: ClusterEvent): void {
    if (this.queue.moveOnEvent(ev) > 0) this.kick();
  }

  // ---------------------------------------------------------------- timers

  /** Make sure the loop runs while there is work, and the backoff flush is armed. */
  private kick(): void {
    if (!this.leading || this.stopped || !this.synced) return;
    if (!this.loopTimer && this.queue.hasWork()) {
      this.loopTimer = this.d.clock.schedule(
        this.d.setting('schedulingCycleMs'),
        () => {
          this.loopTimer = undefined;
          if (!this.leading || this.stopped) return;
          this.scheduleOne();
          this.kick();
        },
        { label: `${TRACE_COMPONENT}: scheduleOne` },
      );
    }
    this.armBackoffFlush();
  }

  /** backoffQ is flushed every second (on a 1 s grid from when scheduling started). */
  private armBackoffFlush(): void {
    const next = this.queue.nextBackoffExpiry();
    if (next === undefined) {
      this.backoffTimer?.cancel();
      this.backoffTimer = undefined;
      return;
    }
    const t0 = this.leadingSince;
    const at = t0 + Math.max(1, Math.ceil((next - t0) / BACKOFF_FLUSH_PERIOD_MS)) * BACKOFF_FLUSH_PERIOD_MS;
    if (this.backoffTimer && !this.backoffTimer.cancelled && this.backoffTimer.at === at) return;
    this.backoffTimer?.cancel();
    this.backoffTimer = this.d.clock.scheduleAt(
      at,
      () => {
        this.backoffTimer = undefined;
        if (this.stopped) return;
        this.queue.flushBackoffCompleted();
        this.kick();
      },
      { label: `${TRACE_COMPONENT}: flush backoffQ` },
    );
  }

  /** Every 30 s, pods parked longer than 5 min are retried (housekeeping: a background event). */
  private scheduleUnschedulableFlush(): void {
    this.flushTimer = this.d.clock.schedule(
      UNSCHEDULABLE_FLUSH_PERIOD_MS,
      () => {
        this.flushTimer = undefined;
        if (this.stopped) return;
        if (this.queue.flushUnschedulableLeftover() > 0) this.kick();
        this.scheduleUnschedulableFlush();
      },
      { label: `${TRACE_COMPONENT}: flush unschedulable pods`, background: true },
    );
  }

  // ---------------------------------------------------------------- scheduling cycle

  /** `scheduleOne`: take the next pod and try to place it. */
  private scheduleOne(): void {
    const q = this.queue.pop();
    if (!q) return;
    const ns = q.pod.metadata.namespace;
    const pod = this.podLister.get(ns, q.pod.metadata.name ?? '');
    if (!pod || pod.metadata.uid !== q.uid || assigned(pod)) return;
    // skipPodSchedule
    if (pod.metadata.deletionTimestamp) {
      this.d.recorder.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', `skip schedule deleting pod: ${ns}/${pod.metadata.name}`);
      return;
    }
    if (this.cache.isAssumed(q.uid)) return;
    const pi = podInfoOf(pod);
    let state: CycleState | undefined;
    const result = this.schedulePod(pod, pi, (s) => (state = s));
    if (result.ok) {
      this.assumeAndBind(q, pod, pi, result.node, state, result);
      return;
    }
    if (!result.fit) {
      this.handleFailure(q, pod, { rejected: false, message: result.message, plugins: new Set() });
      return;
    }
    // PostFilter: DefaultPreemption.
    let nominate: string | undefined;
    if (result.state) {
      const outcome = preempt(
        {
          rng: this.d.rng,
          filter: (s, ni) => this.filterWithNominated(s, ni),
          allNodes: result.allNodes,
          nodeInfo: (n) => this.cache.nodeInfo(n),
          nominatedNode: this.nominations.get(q.uid)?.node ?? pod.status?.nominatedNodeName ?? '',
        },
        result.state,
        result.diagnosis,
      );
      result.diagnosis.postFilterMsg = outcome.message;
      if (outcome.candidate) {
        nominate = outcome.candidate.node;
        this.executePreemption(pod, pi, outcome.candidate.node, outcome.candidate.victims);
      } else if (outcome.clearNominated && (pod.status?.nominatedNodeName || this.nominations.has(q.uid))) {
        nominate = '';
      }
    }
    const message = fitErrorMessage(result.numAllNodes, result.diagnosis);
    this.handleFailure(q, pod, { rejected: true, message, plugins: result.diagnosis.unschedulablePlugins, nominate });
  }

  /** `RunFilterPluginsWithNominatedPods`: with higher-or-equal-priority pods nominated to the node counted, and without. */
  private filterWithNominated(s: CycleState, ni: NodeInfo): Status | undefined {
    if (this.nominations.size > 0) {
      let withNominated: NodeInfo | undefined;
      let st2: CycleState | undefined;
      for (const [uid, n] of this.nominations) {
        if (n.node !== ni.name || uid === s.pi.uid || n.pi.priority < s.pi.priority) continue;
        withNominated ??= ni.clone();
        st2 ??= cloneState(s);
        const placed = assumedPodInfo(n.pi, ni.name);
        withNominated.addPod(placed);
        updateStateWithPod(st2, placed, withNominated, 1);
      }
      if (withNominated && st2) {
        const st = runFilters(this.handle, st2, withNominated);
        if (st) return st;
      }
    }
    return runFilters(this.handle, s, ni);
  }

  /**
   * `schedulePod`: PreFilter, the nominated node first, then the filters over the sampled nodes
   * from where the last cycle stopped, then scores; `selectHost` breaks ties with the Rng.
   */
  private schedulePod(pod: KubeObject, pi: PodInfo, keepState: (s: CycleState) => void): ScheduleResult {
    const allNodes = this.cache.nodeList();
    if (allNodes.length === 0) return { ok: false, fit: false, message: ERR_NO_NODES_AVAILABLE };
    const diagnosis: Diagnosis = { nodeToStatus: new Map(), unschedulablePlugins: new Set() };
    const pre = preFilter(this.handle, pod, pi);
    if (pre.status) {
      if (!isRejected(pre.status)) return { ok: false, fit: false, message: statusMessage(pre.status) };
      diagnosis.absentStatus = pre.status;
      diagnosis.preFilterMsg = statusMessage(pre.status);
      diagnosis.unschedulablePlugins.add(pre.status.plugin);
      return { ok: false, fit: true, diagnosis, numAllNodes: allNodes.length, state: pre.state, allNodes };
    }
    const state = pre.state;
    keepState(state);
    let nodes = allNodes;
    if (state.nodeNames) {
      nodes = [...state.nodeNames].sort().map((n) => this.cache.nodeInfo(n)).filter((ni): ni is NodeInfo => !!ni?.node);
      diagnosis.absentStatus = { code: 'UnschedulableAndUnresolvable', plugin: pre.narrowedBy[0], reasons: [`node(s) didn't satisfy plugin(s) [${[...pre.narrowedBy].sort().join(' ')}]`] };
      for (const p of pre.narrowedBy) diagnosis.unschedulablePlugins.add(p);
    }
    // The nominated node (set by an earlier preemption) is tried first.
    const nnn = this.nominations.get(pi.uid)?.node ?? pod.status?.nominatedNodeName;
    if (nnn) {
      const ni = this.cache.nodeInfo(nnn);
      if (ni?.node) {
        const st = this.filterWithNominated(state, ni);
        if (!st) return { ok: true, node: ni.name, evaluated: 1, feasible: 1 };
        diagnosis.nodeToStatus.set(ni.name, st);
      }
    }
    const numToFind = numFeasibleNodesToFind(this.d.setting('percentageOfNodesToScore'), nodes.length);
    const feasible: NodeInfo[] = [];
    // The NodeInfo ids of the list and of the feasible nodes (performance only: the filter and
    // score memos are read by id from the cache's arrays, see `SchedulerCache.nodeGen`).
    const listIds = nodes === allNodes ? this.cache.nodeListIds() : undefined;
    if (this.feasibleIds.length < numToFind) this.feasibleIds = new Int32Array(numToFind * 2);
    const feasibleIds = this.feasibleIds;
    let processed = 0;
    const n = nodes.length;
    const start = this.nextStartNodeIndex % n;
    // Without nominated pods and PreFilter state, `runFilters` on a node whose pod-only filter
    // memo holds for this signature returns undefined: the loop checks that memo inline.
    const memoOnly = listIds !== undefined && this.nominations.size === 0 && !state.volume && !state.spread && !state.interPod;
    const { filterGen, nodeGen, filterSig } = this.cache;
    const sig = state.filterSig;
    for (let i = 0; i < n && feasible.length < numToFind; i++) {
      const j = start + i;
      const k = j < n ? j : j - n;
      const ni = nodes[k];
      const id = listIds ? listIds[k] : ni.id;
      processed++;
      const st =
        memoOnly && filterGen[id] === nodeGen[id] && filterSig[id] === sig
          ? undefined
          : this.nominations.size > 0
            ? this.filterWithNominated(state, ni)
            : runFilters(this.handle, state, ni, id);
      if (!st) {
        feasibleIds[feasible.length] = id;
        feasible.push(ni);
        // (Node names are never empty: without a nominated node, no name is read.)
        if (nnn && ni.name === nnn) diagnosis.nodeToStatus.delete(ni.name);
      } else {
        diagnosis.nodeToStatus.set(ni.name, st);
        if (isRejected(st)) diagnosis.unschedulablePlugins.add(st.plugin);
        else return { ok: false, fit: false, message: `running "${st.plugin}" filter plugin: ${statusMessage(st)}` };
      }
    }
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % allNodes.length;
    if (feasible.length === 0) return { ok: false, fit: true, diagnosis, numAllNodes: allNodes.length, state, allNodes };
    if (feasible.length === 1) return { ok: true, node: feasible[0].name, evaluated: processed, feasible: 1 };
    const scores = scoreNodes(this.handle, state, feasible, feasibleIds.subarray(0, feasible.length));
    let best = Number.NEGATIVE_INFINITY;
    let ties = 0;
    for (let i = 0; i < feasible.length; i++) {
      if (scores[i] > best) {
        best = scores[i];
        ties = 1;
      } else if (scores[i] === best) ties++;
    }
    // selectHost: uniformly among the best (the real one samples a reservoir with math/rand).
    let pick = ties === 1 ? 0 : this.d.rng.int(0, ties - 1);
    for (let i = 0; i < feasible.length; i++) {
      if (scores[i] !== best) continue;
      if (pick-- === 0) return { ok: true, node: feasible[i].name, evaluated: processed, feasible: feasible.length };
    }
    return { ok: true, node: feasible[0].name, evaluated: processed, feasible: feasible.length };
  }

  // ---------------------------------------------------------------- binding cycle

  /** Assume the pod on its node, then PreBind (volumes) and bind through `pods/binding`. */
  private assumeAndBind(q: QueuedPodInfo, pod: KubeObject, pi: PodInfo, node: string, state: CycleState | undefined, r: { evaluated: number; feasible: number }): void {
    this.cache.assumePod(assumedPodInfo(pi, node));
    this.nominations.delete(pi.uid);
    this.d.trace(TRACE_COMPONENT, `${pi.key} -> ${node} (${r.feasible} feasible of ${r.evaluated} nodes checked)`, podRef(pod));
    const volumes = state?.volume?.byNode.get(node);
    if (volumes && (volumes.staticBindings.length > 0 || volumes.dynamicProvisions.length > 0)) {
      this.bindVolumesThenPod(q, pod, pi, node, volumes);
      return;
    }
    this.bind(q, pod, pi, node);
  }

  private bind(q: QueuedPodInfo, pod: KubeObject, pi: PodInfo, node: string): void {
    try {
      this.d.api.bind(pi.namespace, pi.name, node, { fieldManager: TRACE_COMPONENT });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.cache.forgetPod(pi.uid);
      this.handleFailure(q, pod, { rejected: false, message: `running Bind plugin "DefaultBinder": ${e.message}`, plugins: new Set() });
      return;
    }
    this.d.recorder.eventf(pod, undefined, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${pi.namespace}/${pi.name} to ${node}`);
  }

  /**
   * VolumeBinding PreBind (`BindPodVolumes`): write the chosen PVs' claimRef and the
   * `volume.kubernetes.io/selected-node` annotation on claims to provision, then poll every second
   * until the PV controller (or provisioner) has bound them all, for at most 600 s.
   */
  private bindVolumesThenPod(q: QueuedPodInfo, pod: KubeObject, pi: PodInfo, node: string, v: PodVolumes): void {
    const { api, clock } = this.d;
    const fail = (msg: string) => {
      this.cache.forgetPod(pi.uid);
      for (const sb of v.staticBindings) this.handle.assumedPVs.delete(sb.pv.metadata.name!);
      this.handleFailure(q, pod, { rejected: false, message: `running PreBind plugin "VolumeBinding": binding volumes: ${msg}`, plugins: new Set() });
    };
    try {
      for (const sb of v.staticBindings) {
        const pv = deepCopy(sb.pv);
        pv.spec.claimRef = {
          kind: 'PersistentVolumeClaim',
          namespace: sb.pvc.metadata.namespace,
          name: sb.pvc.metadata.name,
          uid: sb.pvc.metadata.uid,
          apiVersion: 'v1',
          resourceVersion: sb.pvc.metadata.resourceVersion,
        };
        api.update(pv, { fieldManager: TRACE_COMPONENT });
        this.handle.assumedPVs.set(pv.metadata.name!, `${sb.pvc.metadata.namespace}/${sb.pvc.metadata.name}`);
      }
      for (const claim of v.dynamicProvisions) {
        if (claim.metadata.annotations?.[ANN_SELECTED_NODE] === node) continue;
        const pvc = deepCopy(claim);
        pvc.metadata.annotations = { ...(pvc.metadata.annotations ?? {}), [ANN_SELECTED_NODE]: node };
        api.update(pvc, { fieldManager: TRACE_COMPONENT });
      }
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      fail(e.message);
      return;
    }
    this.d.trace(TRACE_COMPONENT, `${pi.key}: waiting for ${v.staticBindings.length + v.dynamicProvisions.length} volume(s) to bind on ${node}`, podRef(pod));
    const deadline = clock.now() + this.d.setting('volumeBindTimeoutMs');
    const poll = () => {
      const check = this.checkBindings(pi, node, v);
      if (check === true) {
        this.bind(q, pod, pi, node);
        return;
      }
      if (typeof check === 'string') {
        fail(check);
        return;
      }
      if (clock.now() >= deadline) {
        fail('context deadline exceeded');
        return;
      }
      arm();
    };
    const arm = () => {
      const t = clock.schedule(VOLUME_BIND_POLL_MS, () => {
        this.bindingTimers.delete(t);
        if (!this.stopped) poll();
      }, { label: `${TRACE_COMPONENT}: wait for volumes of ${pi.key}` });
      this.bindingTimers.add(t);
    };
    arm();
  }

  /** `checkBindings`: true when all bound, false to keep waiting, or the error that ends the wait. */
  private checkBindings(pi: PodInfo, node: string, v: PodVolumes): boolean | string {
    if (!this.podLister.get(pi.namespace, pi.name)) return `pod does not exist any more: pods "${pi.name}" not found`;
    for (const sb of v.staticBindings) {
      const pv = this.handle.pvs.get(undefined, sb.pv.metadata.name!);
      const pvc = this.handle.pvcs.get(sb.pvc.metadata.namespace, sb.pvc.metadata.name!);
      if (!pv || !pvc) return false;
      if (!pv.spec?.claimRef?.uid) return `ClaimRef got reset for pv "${pv.metadata.name}"`;
      if (!isClaimFullyBound(pvc)) return false;
    }
    for (const claim of v.dynamicProvisions) {
      const pvc = this.handle.pvcs.get(claim.metadata.namespace, claim.metadata.name!);
      if (!pvc) return false;
      const sel = pvc.metadata.annotations?.[ANN_SELECTED_NODE];
      if (sel === undefined) return `selectedNode annotation reset for PVC "${pvc.metadata.name}"`;
      if (sel !== node) return `provisioning failed for PVC "${pvc.metadata.name}"`;
      if (!isClaimFullyBound(pvc)) return false;
    }
    return true;
  }

  // ---------------------------------------------------------------- preemption

  /**
   * `prepareCandidate`: mark each victim with the DisruptionTarget condition, delete it (with its
   * grace period) and record `Preempted`; lower-priority pods nominated to the node lose it.
   */
  private executePreemption(preemptor: KubeObject, pi: PodInfo, node: string, victims: PodInfo[]): void {
    const { api, clock, recorder } = this.d;
    for (const v of victims) {
      try {
        api.patch(
          'pods',
          v.namespace,
          v.name,
          'strategic',
          {
            status: {
              conditions: [
                {
                  type: 'DisruptionTarget',
                  status: 'True',
                  reason: 'PreemptionByScheduler',
                  message: `${DEFAULT_SCHEDULER_NAME}: preempting to accommodate a higher priority pod`,
                  lastTransitionTime: clock.rfc3339(),
                },
              ],
            },
          },
          { subresource: 'status', fieldManager: TRACE_COMPONENT },
        );
        api.delete('pods', v.namespace, v.name, { fieldManager: TRACE_COMPONENT });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code !== 404) continue;
      }
      // preemption.go prepareCandidate: regarding the victim, related to the preemptor.
      recorder.eventf(v.pod, preemptor, 'Normal', 'Preempted', 'Preempting', `Preempted by pod ${pi.uid} on node ${node}`);
      this.d.trace(TRACE_COMPONENT, `${v.key} preempted on ${node} to make room for ${pi.key}`, podRef(v.pod));
    }
    for (const [uid, n] of [...this.nominations]) {
      if (n.node !== node || uid === pi.uid || n.pi.priority >= pi.priority) continue;
      this.nominations.delete(uid);
      try {
        api.patch('pods', n.pi.namespace, n.pi.name, 'merge', { status: { nominatedNodeName: null } }, { subresource: 'status', fieldManager: TRACE_COMPONENT });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      }
    }
    this.nominations.set(pi.uid, { node, pi });
  }

  // ---------------------------------------------------------------- failures

  /**
   * `handleSchedulingFailure`: requeue the pod (parked when rejected, backoff on error), record
   * the Warning `FailedScheduling` and write PodScheduled=False with reason `Unschedulable`
   * (or `SchedulerError`) and the same message, unless the condition already says so.
   */
  private handleFailure(q: QueuedPodInfo, pod: KubeObject, f: { rejected: boolean; message: string; plugins: Set<string>; nominate?: string }): void {
    const reason = f.rejected ? 'Unschedulable' : 'SchedulerError';
    const ns = pod.metadata.namespace;
    const name = pod.metadata.name ?? '';
    const cached = this.podLister.get(ns, name);
    const live = cached && cached.metadata.uid === q.uid && !assigned(cached) ? cached : undefined;
    if (live) this.queue.addUnschedulable(q, live, f.plugins, !f.rejected);
    if (f.nominate === '') this.nominations.delete(q.uid);
    const message = truncateMessage(f.message);
    this.d.recorder.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', message);
    this.d.trace(TRACE_COMPONENT, `${ns}/${name}: ${f.message}`, podRef(pod), 'Warning');
    if (live) this.writeCondition(live, reason, f.message, f.nominate);
    this.kick();
  }

  /** `updatePod` + `UpdatePodCondition`: only when status, reason or message change (or the nomination). */
  private writeCondition(pod: KubeObject, reason: string, message: string, nominate: string | undefined): void {
    const conds = (pod.status?.conditions ?? []) as { type: string; observedGeneration?: number; status: string; reason?: string; message?: string; lastProbeTime?: string | null; lastTransitionTime?: string | null }[];
    const old = conds.find((c) => c.type === 'PodScheduled');
    const ltt = old && old.status === 'False' ? (old.lastTransitionTime ?? null) : this.d.clock.rfc3339();
    // PodObservedGenerationTracking (GA in 1.35): the condition carries the pod's generation
    // (schedule_one.go handleSchedulingFailure, CalculatePodConditionObservedGeneration).
    const gen = Number(pod.metadata.generation ?? 0) || undefined;
    const changed =
      !old || old.status !== 'False' || old.reason !== reason || old.message !== message || (old.lastProbeTime ?? null) !== null || (old.lastTransitionTime ?? null) !== ltt || old.observedGeneration !== gen;
    const nnnChange = nominate !== undefined && ((pod.status?.nominatedNodeName as string | undefined) ?? '') !== nominate;
    if (!changed && !nnnChange) return;
    const next = deepCopy(pod);
    const cond = { type: 'PodScheduled', ...(gen ? { observedGeneration: gen } : {}), status: 'False', lastProbeTime: null, lastTransitionTime: ltt, reason, message };
    next.status = { ...(next.status ?? {}), conditions: old ? conds.map((c) => (c.type === 'PodScheduled' ? cond : c)) : [...conds, cond] };
    if (nnnChange) {
      if (nominate) next.status.nominatedNodeName = nominate;
      else delete next.status.nominatedNodeName;
    }
    // The real scheduler sends a status patch: no resourceVersion precondition.
    delete next.metadata.resourceVersion;
    try {
      this.d.api.updateStatus(next, { fieldManager: TRACE_COMPONENT });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
  }
}
