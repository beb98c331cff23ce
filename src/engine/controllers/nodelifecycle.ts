/**
 * node-lifecycle-controller: notices dead nodes, marks them `NotReady`, taints them and marks
 * their pods unready. Mirrors pkg/controller/nodelifecycle/node_lifecycle_controller.go (with
 * pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go and
 * pkg/controller/util/node/controller_utils.go). Events are recorded as `node-controller`, the
 * component name the real controller uses.
 *
 * How a dead node is noticed (the heart of cases.md C10):
 *   - the kubelet proves it is alive in two ways: it renews its Lease in `kube-node-lease` every
 *     10 s and it posts node status (the Ready condition's `lastHeartbeatTime`);
 *   - every `node-monitor-period` (5 s) `monitorNodeHealth` walks the node cache. When either
 *     signal moved since the last pass, the node's *probe timestamp* becomes "now" (the
 *     controller's own clock, so clock skew between machines does not matter);
 *   - when neither moved for `node-monitor-grace-period` (50 s since 1.32; 60 s
 *     `node-startup-grace-period` for a node that never posted status), the Ready,
 *     MemoryPressure, DiskPressure and PIDPressure conditions become `Unknown`
 *     (`NodeStatusUnknown`, `Kubelet stopped posting node status.`), the node gets the Event
 *     `NodeNotReady`, and every pod on it gets its Ready condition set to False (and a Warning
 *     `NodeNotReady` Event): Services stop sending traffic there, but the pods' phase still reads
 *     `Running`, because only the kubelet writes the phase.
 *
 * Taints:
 *   - `NoSchedule` taints mirror the conditions at once, on every node update
 *     (`doNoScheduleTaintingPass`): Ready=False -> `node.kubernetes.io/not-ready`, Ready=Unknown ->
 *     `node.kubernetes.io/unreachable`, MemoryPressure/DiskPressure/PIDPressure/NetworkUnavailable
 *     True -> their pressure taints, `spec.unschedulable` -> `node.kubernetes.io/unschedulable`;
 *   - `NoExecute` taints (`not-ready` / `unreachable`, with `timeAdded`) are what evicts pods
 *     (through the taint-eviction-controller). They are added on the monitor pass *after* the one
 *     that saw the node go bad (it acts on the condition as the cache last saw it), through a
 *     per-zone rate-limited queue (`--node-eviction-rate` 0.1 node/s, burst 1), and removed as soon
 *     as a pass sees the node Ready again.
 *
 * Zones and disruption (the safety valve): nodes are grouped by zone (topology labels; a kind
 * cluster has none, so every node is in zone ""). After each pass a zone is
 *   - `FullDisruption` when none of its nodes is Ready,
 *   - `PartialDisruption` when more than 2 nodes and at least `--unhealthy-zone-threshold` (55 %)
 *     of them are not Ready,
 *   - `Normal` otherwise.
 * A partially disrupted zone evicts at `--secondary-node-eviction-rate` (0.01/s) if it has more
 * than `--large-cluster-size-threshold` (50) nodes, and not at all otherwise. When *every* zone
 * is fully disrupted the controller assumes the problem is its own network, removes the
 * NoExecute taints it placed and stops evicting ("master disruption mode") until some node is
 * Ready again.
 *
 * Memory: the probe timestamps, the zone queues and states live in this process only. A
 * restarted controller-manager starts every node's grace period again from "now", records
 * `RegisteredNode` for every node, and first removes the NoExecute taints (re-adding them
 * through the queue on the next passes), exactly as the real controller does.
 *
 * Simplifications: the real taint helpers re-read the node from kube-apiserver on a conflict;
 * here writes use the informer cache and a conflict is retried on a later pass (NoExecute) or
 * through the work queue (NoSchedule, which the real controller does not requeue). The
 * DaemonSet informer the real controller waits for is not used (it serves nothing any more).
 */
import type { Controller, ControllerContext } from './manager';
import type { Timer } from '../clock';
import { parseRfc3339 } from '../clock';
import { ApiError, errors } from '../api/errors';
import { deepCopy, deepEqual, type KubeObject } from '../api/types';
import type { InvolvedObject } from '../client/events';
import { indexByNodeName, metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';
import { matchTaint, type TaintLike } from './util';

// ------------------------------------------------------------------------------ defaults

/** `--node-monitor-period`: how often node health is checked. Source: reference section 7 (kube-controller-manager flags). */
export const NODE_MONITOR_PERIOD_MS = 5_000;
/**
 * `--node-monitor-grace-period`: no heartbeat for this long -> Ready=Unknown. 40 s up to 1.31,
 * 50 s from 1.32 (kubernetes/kubernetes#126287; reference section 7).
 */
export const NODE_MONITOR_GRACE_PERIOD_MS = 50_000;
/** `--node-startup-grace-period`: the same for a node that never posted status. Source: reference section 7. */
export const NODE_STARTUP_GRACE_PERIOD_MS = 60_000;
/** `--node-eviction-rate`: nodes per second that get NoExecute taints in a healthy zone. Source: reference section 7. */
export const NODE_EVICTION_RATE = 0.1;
/** `--secondary-node-eviction-rate`: the same in a partially disrupted large zone. Source: reference section 7. */
export const SECONDARY_NODE_EVICTION_RATE = 0.01;
/** `--large-cluster-size-threshold`: zones with more nodes keep evicting (slowly) when partially disrupted. Source: reference section 7. */
export const LARGE_CLUSTER_SIZE_THRESHOLD = 50;
/** `--unhealthy-zone-threshold`: fraction of not-Ready nodes (and > 2 of them) making a zone partially disrupted. Source: reference section 7. */
export const UNHEALTHY_ZONE_THRESHOLD = 0.55;
/** `scheduler.NodeEvictionPeriod`: period of the NoExecute tainting pass. Source: pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go. */
export const NODE_EVICTION_PERIOD_MS = 100;
/** `scheduler.EvictionRateLimiterBurst`: burst of every zone's rate limiter. Source: rate_limited_queue.go. */
export const EVICTION_RATE_LIMITER_BURST = 1;

/** The component name on the controller's Events (`v1.EventSource{Component: "node-controller"}`). */
export const NODE_CONTROLLER_COMPONENT = 'node-controller';
const NAME = 'node-lifecycle-controller';

/** Well-known taint keys. Source: staging/src/k8s.io/api/core/v1/well_known_taints.go. */
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const TAINT_NODE_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_NODE_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';
export const TAINT_NODE_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable';
export const TAINT_NODE_PID_PRESSURE = 'node.kubernetes.io/pid-pressure';

/** `UnreachableTaintTemplate`. */
const UNREACHABLE_NO_EXECUTE: TaintLike = { key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' };
/** `NotReadyTaintTemplate`. */
const NOT_READY_NO_EXECUTE: TaintLike = { key: TAINT_NODE_NOT_READY, effect: 'NoExecute' };

/** `nodeConditionToTaintKeyStatusMap`: which condition status gets which NoSchedule taint. */
const CONDITION_TO_TAINT: Record<string, Record<string, string>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: TAINT_NODE_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_NODE_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NODE_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_NODE_PID_PRESSURE },
};
/** `taintKeyToNodeConditionMap` keys: the taints this controller owns. */
const CONDITION_TAINT_KEYS = new Set([
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_PID_PRESSURE,
]);

/** Conditions set to Unknown when the kubelet goes silent (NetworkUnavailable is left alone). */
const CONDITIONS_SET_UNKNOWN = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** Nodes with this label are left out of the zone disruption computation. */
export const LABEL_NODE_DISRUPTION_EXCLUSION = 'node.kubernetes.io/exclude-disruption';

/** `labelReconcileInfo`: the beta OS/arch labels follow the stable ones. */
const LABEL_RECONCILE: { primary: string; secondary: string }[] = [
  { primary: 'kubernetes.io/os', secondary: 'beta.kubernetes.io/os' },
  { primary: 'kubernetes.io/arch', secondary: 'beta.kubernetes.io/arch' },
];

/** Zone states (`ZoneState`). */
export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

/** A node condition as the API carries it. */
interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

/** What the controller remembers about a node between passes (`nodeHealthData`). Times are virtual ms. */
interface NodeHealth {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: { conditions?: NodeCondition[] } | undefined;
  lease?: KubeObject;
}

// ------------------------------------------------------------------------------ helpers

/**
 * `nodetopology.GetZoneKey`: `region:\0:zone` from the (beta, then GA) topology labels, or ""
 * when the node has neither (every node of a kind cluster).
 * Source: staging/src/k8s.io/component-helpers/node/topology/helpers.go.
 */
export function getZoneKey(node: KubeObject): string {
  const l = node.metadata.labels ?? {};
  const zone = l['failure-domain.beta.kubernetes.io/zone'] ?? l['topology.kubernetes.io/zone'] ?? '';
  const region = l['failure-domain.beta.kubernetes.io/region'] ?? l['topology.kubernetes.io/region'] ?? '';
  if (!region && !zone) return '';
  return `${region}:\x00:${zone}`;
}

/**
 * `ComputeZoneState`: FullDisruption when no node is Ready, PartialDisruption when more than 2
 * are not Ready and they are at least `threshold` of the zone, Normal otherwise. A missing Ready
 * condition counts as not Ready. Returns [not-Ready count, state].
 */
export function computeZoneState(readyConditions: (NodeCondition | undefined)[], threshold: number): [number, ZoneState] {
  let ready = 0;
  let notReady = 0;
  for (const c of readyConditions) {
    if (c?.status === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
  if (notReady > 2 && notReady / (notReady + ready) >= threshold) return [notReady, 'PartialDisruption'];
  return [notReady, 'Normal'];
}

// `getCondition` and `taintExists` are the `find` / `some` they mirror written as loops (the
// same first match in the same order; no predicate closure or empty array per call; performance
// only: the health pass asks several times per node every 5 s).
function getCondition(status: { conditions?: NodeCondition[] } | undefined, type: string): NodeCondition | undefined {
  const conditions = status?.conditions;
  if (!conditions) return undefined;
  for (const c of conditions) if (c.type === type) return c;
  return undefined;
}

function taintExists(taints: TaintLike[] | undefined, t: TaintLike): boolean {
  if (!taints) return false;
  for (const x of taints) if (matchTaint(x, t)) return true;
  return false;
}

function nodeRef(node: KubeObject): InvolvedObject {
  return { kind: 'Node', name: node.metadata.name!, ...(node.metadata.uid ? { uid: node.metadata.uid } : {}), apiVersion: 'v1' };
}

function traceRef(node: KubeObject) {
  return { kind: 'Node', name: node.metadata.name!, uid: node.metadata.uid };
}

function zoneLabel(zone: string): string {
  return zone === '' ? '""' : JSON.stringify(zone.replace(':\x00:', ':'));
}

/**
 * `flowcontrol.NewTokenBucketRateLimiter` (burst 1 here) on the virtual clock, plus the time the
 * next token is due, so the tainting pass sleeps instead of polling. qps <= 0 is
 * `NewFakeNeverRateLimiter`: never accepts.
 */
class EvictionLimiter {
  private tokens: number;
  private last: number;
  constructor(
    private readonly now: () => number,
    readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
    this.last = now();
  }
  private refill(): void {
    const t = this.now();
    if (t > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
      this.last = t;
    }
  }
  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
  /** Virtual ms at which a token is available (Infinity when never). */
  readyAt(): number {
    if (this.qps <= 0) return Infinity;
    this.refill();
    return this.tokens >= 1 ? this.now() : this.now() + Math.ceil(((1 - this.tokens) / this.qps) * 1000);
  }
}

interface TimedValue {
  value: string;
  uid: string;
  addedAt: number;
  processAt: number;
}

/**
 * `RateLimitedTimedQueue`: a unique queue of node names ordered by `processAt`, drained by
 * `try()` through a rate limiter. A value stays in the "seen" set after it was processed, so it
 * is not queued again until `remove()` (node healthy again, or its taint vanished).
 */
class RateLimitedTimedQueue {
  private queue: TimedValue[] = [];
  private set = new Set<string>();
  limiter: EvictionLimiter;

  constructor(
    private readonly now: () => number,
    qps: number,
  ) {
    this.limiter = new EvictionLimiter(now, qps, EVICTION_RATE_LIMITER_BURST);
  }

  /** Queue a value unless it is queued or was processed and not removed since. */
  add(value: string, uid: string): boolean {
    if (this.set.has(value)) return false;
    const t = this.now();
    this.insert({ value, uid, addedAt: t, processAt: t });
    this.set.add(value);
    return true;
  }

  /** Forget a value (so it can be added again). True if it was known. */
  remove(value: string): boolean {
    if (!this.set.has(value)) return false;
    this.set.delete(value);
    this.queue = this.queue.filter((v) => v.value !== value);
    return true;
  }

  isEmpty(): boolean {
    return this.queue.length === 0;
  }

  /** When the next `try()` can make progress (Infinity when never). */
  nextAt(): number {
    if (this.queue.length === 0) return Infinity;
    return Math.max(this.limiter.readyAt(), this.queue[0].processAt);
  }

  /** `Try`: process due values while the limiter allows; `fn` returns [done, retry-after ms]. */
  try(fn: (v: TimedValue) => [boolean, number]): void {
    let val = this.queue[0];
    while (val) {
      if (!this.limiter.tryAccept()) break;
      const now = this.now();
      if (now < val.processAt) break;
      const [ok, wait] = fn(val);
      this.queue = this.queue.filter((v) => v !== val);
      if (!ok) this.insert({ ...val, processAt: now + wait });
      // On success the value leaves the queue but stays in the set (RemoveFromQueue).
      val = this.queue[0];
    }
  }

  /** `SwapLimiter`: a new limiter at `qps`, drained if the old one had no token left. */
  swapLimiter(qps: number): void {
    if (this.limiter.qps === qps) return;
    const next = new EvictionLimiter(this.now, qps, EVICTION_RATE_LIMITER_BURST);
    if (qps > 0 && !this.limiter.tryAccept()) next.tryAccept();
    this.limiter = next;
  }

  private insert(v: TimedValue): void {
    let i = this.queue.length;
    while (i > 0 && this.queue[i - 1].processAt > v.processAt) i--;
    this.queue.splice(i, 0, v);
  }
}

// ------------------------------------------------------------------------------ controller

/**
 * Start the node-lifecycle-controller. Watches Nodes, node Leases (`kube-node-lease`) and Pods;
 * writes node status (conditions to Unknown), node taints and labels, pod Ready conditions, and
 * Events as `node-controller`.
 *
 * Settings (ctx.setting): `nodeMonitorPeriodMs`, `nodeMonitorGracePeriodMs`,
 * `nodeStartupGracePeriodMs`, `nodeEvictionRate` (nodes/s), `secondaryNodeEvictionRate`
 * (nodes/s), `largeClusterSizeThreshold` (nodes), `unhealthyZoneThreshold` (fraction),
 * `nodeEvictionPeriodMs`.
 */
export function newNodeLifecycleController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const monitorPeriodMs = ctx.setting('nodeMonitorPeriodMs', NODE_MONITOR_PERIOD_MS);
  const monitorGraceMs = ctx.setting('nodeMonitorGracePeriodMs', NODE_MONITOR_GRACE_PERIOD_MS);
  const startupGraceMs = ctx.setting('nodeStartupGracePeriodMs', NODE_STARTUP_GRACE_PERIOD_MS);
  const evictionQps = ctx.setting('nodeEvictionRate', NODE_EVICTION_RATE);
  const secondaryEvictionQps = ctx.setting('secondaryNodeEvictionRate', SECONDARY_NODE_EVICTION_RATE);
  const largeClusterThreshold = ctx.setting('largeClusterSizeThreshold', LARGE_CLUSTER_SIZE_THRESHOLD);
  const unhealthyZoneThreshold = ctx.setting('unhealthyZoneThreshold', UNHEALTHY_ZONE_THRESHOLD);
  const evictionPeriodMs = ctx.setting('nodeEvictionPeriodMs', NODE_EVICTION_PERIOD_MS);

  const recorder = ctx.recorder(NODE_CONTROLLER_COMPONENT);
  const trace = (msg: string, node?: KubeObject) => ctx.trace(NAME, msg, node ? traceRef(node) : undefined);
  const now = () => clock.now();
  const nowIso = () => clock.rfc3339();
  /** RFC 3339 -> virtual ms. */
  const toVirtual = (iso: string | undefined) => (iso ? parseRfc3339(iso) - clock.epochMs : Number.NaN);

  // ---- informers: handlers only enqueue
  const nodeInformer = ctx.informers.informer('nodes');
  const leaseInformer = ctx.informers.informer('leases', { namespace: 'kube-node-lease' });
  const podInformer = ctx.informers.informer('pods', { indexers: { 'spec.nodeName': indexByNodeName } });
  const nodes = nodeInformer.lister;
  const leases = leaseInformer.lister;
  const pods = podInformer.lister;

  const nodeUpdateQueue = new RateLimitingQueue(clock, { name: 'node_lifecycle_controller' });
  const podUpdateQueue = new RateLimitingQueue(clock, { name: 'node_lifecycle_controller_pods' });
  nodeInformer.addEventHandler({
    onAdd: (n) => nodeUpdateQueue.add(n.metadata.name!),
    onUpdate: (_o, n) => nodeUpdateQueue.add(n.metadata.name!),
  });
  podInformer.addEventHandler({
    // `podUpdated`: a pod newly assigned to a node is checked against that node's health.
    onAdd: (p) => {
      if (p.spec?.nodeName) podUpdateQueue.add(metaNamespaceKey(p));
    },
    onUpdate: (o, p) => {
      if (p.spec?.nodeName && p.spec.nodeName !== o.spec?.nodeName) podUpdateQueue.add(metaNamespaceKey(p));
    },
  });

  // ---- the process's memory
  const knownNodes = new Map<string, KubeObject>();
  const healths = new Map<string, NodeHealth>();
  const zoneQueues = new Map<string, RateLimitedTimedQueue>();
  const zoneStates = new Map<string, ZoneState>();
  const nodesToRetry = new Set<string>();
  let monitorTimer: Timer | undefined;
  let taintTimer: Timer | undefined;
  let runStartedAt = 0;
  let stopped = false;

  // ---- writes

  /**
   * Add `add` (stamped with timeAdded now) and remove `remove` taints in one patch, with the
   * cached resourceVersion as precondition (`SwapNodeControllerTaint`, `PatchNodeTaints`).
   * Returns false (and traces) when the write failed.
   */
  function swapTaints(node: KubeObject, add: TaintLike[], remove: TaintLike[]): boolean {
    const current: TaintLike[] = node.spec?.taints ?? [];
    let next = current.filter((t) => !remove.some((r) => matchTaint(t, r)));
    for (const a of add) {
      const stamped = { ...a, timeAdded: nowIso() };
      const i = next.findIndex((t) => matchTaint(t, a));
      if (i < 0) next = [...next, stamped];
      else if ((next[i].value ?? '') !== (a.value ?? '')) next = next.map((t, j) => (j === i ? stamped : t));
    }
    if (deepEqual(next, current)) return true;
    try {
      api.patch('nodes', undefined, node.metadata.name!, 'merge', { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints: next.length ? next : null } }, { fieldManager: 'kube-controller-manager' });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      trace(`${node.metadata.name}: could not update taints: ${e.message}`, node);
      return false;
    }
    const fmt = (ts: TaintLike[]) => ts.map((t) => `${t.key}:${t.effect}`).join(', ');
    const added = add.filter((a) => !taintExists(current, a));
    const removed = remove.filter((r) => taintExists(current, r));
    if (added.length) trace(`${node.metadata.name}: taint ${fmt(added)}`, node);
    if (removed.length) trace(`${node.metadata.name}: untaint ${fmt(removed)}`, node);
    return true;
  }

  /** `markNodeAsReachable`: remove the NoExecute taints and forget the node in its zone queue. */
  function markNodeAsReachable(node: KubeObject): boolean {
    const taints: TaintLike[] = node.spec?.taints ?? [];
    if (taintExists(taints, UNREACHABLE_NO_EXECUTE) || taintExists(taints, NOT_READY_NO_EXECUTE)) {
      if (!swapTaints(node, [], [UNREACHABLE_NO_EXECUTE, NOT_READY_NO_EXECUTE])) return false;
    }
    return zoneQueues.get(getZoneKey(node))?.remove(node.metadata.name!) ?? false;
  }

  /** `markNodeForTainting`: queue the node for a NoExecute taint in its zone. */
  function markNodeForTainting(node: KubeObject, status: 'False' | 'Unknown'): boolean {
    const q = zoneQueues.get(getZoneKey(node));
    if (!q) return false;
    const taints: TaintLike[] = node.spec?.taints ?? [];
    if (status === 'False' && !taintExists(taints, NOT_READY_NO_EXECUTE)) q.remove(node.metadata.name!);
    if (status === 'Unknown' && !taintExists(taints, UNREACHABLE_NO_EXECUTE)) q.remove(node.metadata.name!);
    const added = q.add(node.metadata.name!, node.metadata.uid ?? '');
    if (added) scheduleTaintingPass();
    return added;
  }

  /** `addPodEvictorForNewZone`. */
  function addZone(node: KubeObject): void {
    const zone = getZoneKey(node);
    if (zoneStates.has(zone)) return;
    zoneStates.set(zone, 'Initial');
    zoneQueues.set(zone, new RateLimitedTimedQueue(now, evictionQps));
    trace(`initializing eviction for zone ${zoneLabel(zone)}`);
  }

  /**
   * `MarkPodsNotReady`: set the Ready condition of the node's pods to False (the kubelet cannot)
   * and record Warning `NodeNotReady` on each. Returns false if some write failed.
   */
  function markPodsNotReady(podList: KubeObject[], nodeName: string): boolean {
    let ok = true;
    let marked = 0;
    for (const cached of podList) {
      if (cached.spec?.nodeName !== nodeName) continue;
      const pod = deepCopy(cached);
      const conds: { type: string; status: string; lastTransitionTime?: string }[] = pod.status?.conditions ?? [];
      const i = conds.findIndex((c) => c.type === 'Ready');
      if (i < 0 || conds[i].status === 'False') continue; // UpdatePodCondition: nothing changed
      conds[i] = { ...conds[i], status: 'False', lastTransitionTime: nowIso() };
      try {
        api.updateStatus(pod, { fieldManager: 'kube-controller-manager' });
        marked++;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code === 404) continue;
        ok = false;
      }
      // Recorded after the status write, as the real helper does.
      recorder.event(cached, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    if (marked) trace(`${nodeName}: marked ${marked} pod(s) not ready`);
    return ok;
  }

  // ---- the health check

  interface HealthResult {
    observed: NodeCondition;
    current: NodeCondition | undefined;
    /** The node as this pass left it: the cached object, or the copy written when the grace period passed. */
    node: KubeObject;
  }

  /**
   * `tryUpdateNodeHealth`: refresh the probe timestamp from the Ready heartbeat and the Lease;
   * past the grace period, set the conditions to Unknown and write the status (on a private copy
   * of `cached`, returned as `node`). Throws ApiError when the status write fails.
   */
  function tryUpdateNodeHealth(cached: KubeObject): HealthResult {
    // The real controller works on `node.DeepCopy()`; here the copy is made only when this pass
    // changes the node (the grace period passed), and until then the cached object is read
    // (performance only: the pass runs every 5 s over every node).
    let node = cached.status ? cached : deepCopy(cached);
    const name = node.metadata.name!;
    let status = (node.status ??= {}) as { conditions?: NodeCondition[] };
    /** True when `health.status` was set to `status` in this pass (it then follows the copy). */
    let statusHeld = false;
    let health = healths.get(name);
    let observed: NodeCondition;
    let grace: number;
    let currentReady = getCondition(status, 'Ready');
    if (!currentReady) {
      // Never posted: a fake Unknown condition dated at creation, and the startup grace period.
      // (The creation time is parsed only here, where it is read: performance only.)
      const created = toVirtual(node.metadata.creationTimestamp);
      observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: node.metadata.creationTimestamp };
      grace = startupGraceMs;
      if (health) health.status = status;
      else health = { status, probeTimestamp: created, readyTransitionTimestamp: created };
      statusHeld = true;
    } else {
      observed = { ...currentReady };
      grace = monitorGraceMs;
    }
    const saved = health ? getCondition(health.status, 'Ready') : undefined;
    const savedLease = health?.lease;
    if (!health) {
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: now() };
      statusHeld = true;
    } else if (!saved && currentReady) {
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: now() };
      statusHeld = true;
    } else if (saved && !currentReady) {
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: now() };
      statusHeld = true;
    } else if (saved && currentReady && saved.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
      const transition = saved.lastTransitionTime !== currentReady.lastTransitionTime ? now() : health.readyTransitionTimestamp;
      health = { status, probeTimestamp: now(), readyTransitionTimestamp: transition };
      statusHeld = true;
    }
    // A renewed Lease counts as a heartbeat too. The very Lease object seen last time cannot be
    // newer than itself: its times are parsed only when the cache holds another one (cached
    // objects are never changed; performance only).
    const lease = leases.get('kube-node-lease', name);
    if (lease && (!savedLease || (lease !== savedLease && toVirtual(savedLease.spec?.renewTime) < toVirtual(lease.spec?.renewTime)))) {
      health.lease = lease;
      health.probeTimestamp = now();
    }
    healths.set(name, health);

    if (now() > health.probeTimestamp + grace) {
      if (node === cached) {
        node = deepCopy(cached);
        const copied = node.status as { conditions?: NodeCondition[] };
        if (statusHeld && health.status === status) health.status = copied;
        status = copied;
      }
      const t = nowIso();
      for (const type of CONDITIONS_SET_UNKNOWN) {
        const c = getCondition(status, type);
        if (!c) {
          (status.conditions ??= []).push({
            type,
            status: 'Unknown',
            reason: 'NodeStatusNeverUpdated',
            message: 'Kubelet never posted node status.',
            lastHeartbeatTime: node.metadata.creationTimestamp,
            lastTransitionTime: t,
          });
        } else if (c.status !== 'Unknown') {
          c.status = 'Unknown';
          c.reason = 'NodeStatusUnknown';
          c.message = 'Kubelet stopped posting node status.';
          c.lastTransitionTime = t;
        }
      }
      currentReady = getCondition(status, 'Ready');
      if (!deepEqual(currentReady, observed)) {
        const silentS = Math.round((now() - health.probeTimestamp) / 1000);
        const written = api.updateStatus(node, { fieldManager: 'kube-controller-manager' });
        // Later writes of this pass (taints) start from what was just written.
        node.metadata.resourceVersion = written.metadata.resourceVersion;
        trace(`${name}: no heartbeat for ${silentS}s (grace ${grace / 1000}s) -> Ready=Unknown: ${currentReady?.message}`, node);
        healths.set(name, { status, probeTimestamp: health.probeTimestamp, readyTransitionTimestamp: now(), lease });
      }
    }
    return { observed, current: currentReady, node };
  }

  /** `processTaintBaseEviction`: act on the Ready condition as it was before this pass. */
  function processTaintBasedEviction(node: KubeObject, observed: NodeCondition): void {
    const taints: TaintLike[] = node.spec?.taints ?? [];
    switch (observed.status) {
      case 'False':
        if (taintExists(taints, UNREACHABLE_NO_EXECUTE)) swapTaints(node, [NOT_READY_NO_EXECUTE], [UNREACHABLE_NO_EXECUTE]);
        else if (markNodeForTainting(node, 'False')) trace(`${node.metadata.name} is NotReady: queued for taint ${TAINT_NODE_NOT_READY}:NoExecute`, node);
        break;
      case 'Unknown':
        if (taintExists(taints, NOT_READY_NO_EXECUTE)) swapTaints(node, [UNREACHABLE_NO_EXECUTE], [NOT_READY_NO_EXECUTE]);
        else if (markNodeForTainting(node, 'Unknown')) trace(`${node.metadata.name} is unresponsive: queued for taint ${TAINT_NODE_UNREACHABLE}:NoExecute`, node);
        break;
      case 'True':
        markNodeAsReachable(node);
        break;
    }
  }

  /** `monitorNodeHealth`: one pass over every node. */
  function monitorNodeHealth(): void {
    const all = nodes.list();
    for (const n of all) {
      const name = n.metadata.name!;
      if (!knownNodes.has(name)) {
        recorder.event(nodeRef(n), 'Normal', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
        knownNodes.set(name, n);
        addZone(n);
        markNodeAsReachable(n);
      } else {
        addZone(n); // a known node that moved to a new zone
      }
    }
    // Every listed node is known now (the loop above added the new ones; names are unique in the
    // cache): when there are as many known nodes as listed ones, none is gone and the pass below
    // would remove nothing (performance only: no set and copy every 5 s).
    if (knownNodes.size !== all.length) {
      const seen = new Set(all.map((n) => n.metadata.name!));
      for (const [name, n] of [...knownNodes]) {
        if (seen.has(name)) continue;
        recorder.event(nodeRef(n), 'Normal', 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
        knownNodes.delete(name);
      }
    }

    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    for (const cached of all) {
      const name = cached.metadata.name!;
      let r: HealthResult;
      try {
        r = tryUpdateNodeHealth(cached);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        trace(`${name}: could not update node health, skipping (no pods will be evicted): ${e.message}`, cached);
        continue;
      }
      const node = r.node;
      if (!(LABEL_NODE_DISRUPTION_EXCLUSION in (node.metadata.labels ?? {}))) {
        const zone = getZoneKey(node);
        const list = zoneConditions.get(zone) ?? [];
        list.push(r.current);
        zoneConditions.set(zone, list);
      }
      if (r.current) {
        processTaintBasedEviction(node, r.observed);
        const needsRetry = nodesToRetry.has(name);
        const becameNotReady = r.current.status !== 'True' && r.observed.status === 'True';
        if (becameNotReady) {
          recorder.event(nodeRef(node), 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
        }
        if (becameNotReady || (needsRetry && r.observed.status !== 'True')) {
          // The node's pods, read only when they are marked (performance only).
          if (!markPodsNotReady(pods.byIndex('spec.nodeName', name), name)) {
            nodesToRetry.add(name);
            continue;
          }
        }
      }
      nodesToRetry.delete(name);
    }
    handleDisruption(zoneConditions, all);
  }

  /** `setLimiterInZone`. */
  function setLimiterInZone(zone: string, zoneSize: number, state: ZoneState): void {
    const q = zoneQueues.get(zone);
    if (!q) return;
    if (state === 'Normal') q.swapLimiter(evictionQps);
    // ReducedQPSFunc: large zones evict slowly, small ones not at all.
    else if (state === 'PartialDisruption') q.swapLimiter(zoneSize > largeClusterThreshold ? secondaryEvictionQps : 0);
    // HealthyQPSFunc: one zone down (but not all) is a zone outage: evict normally.
    else if (state === 'FullDisruption') q.swapLimiter(evictionQps);
  }

  /** `handleDisruption`: zone states, eviction rates, and master disruption mode. */
  function handleDisruption(zoneConditions: Map<string, (NodeCondition | undefined)[]>, all: KubeObject[]): void {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conds] of zoneConditions) {
      const [, state] = computeZoneState(conds, unhealthyZoneThreshold);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates.set(zone, state);
      if (!zoneStates.has(zone)) zoneStates.set(zone, 'Initial');
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...zoneStates]) {
      if (!zoneConditions.has(zone)) {
        zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      trace('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const n of all) markNodeAsReachable(n);
      for (const zone of zoneStates.keys()) zoneQueues.get(zone)?.swapLimiter(0);
      for (const zone of zoneStates.keys()) zoneStates.set(zone, 'FullDisruption');
      return;
    }
    if (allWasFullyDisrupted) {
      trace('Controller detected that some Nodes are Ready. Exiting master disruption mode');
      for (const n of all) {
        const h = healths.get(n.metadata.name!);
        if (h) healths.set(n.metadata.name!, { ...h, probeTimestamp: now(), readyTransitionTimestamp: now() });
      }
      for (const zone of [...zoneStates.keys()]) {
        const state = newStates.get(zone) ?? 'Normal';
        setLimiterInZone(zone, zoneConditions.get(zone)?.length ?? 0, state);
        zoneStates.set(zone, state);
      }
      scheduleTaintingPass();
      return;
    }
    for (const [zone, state] of [...zoneStates]) {
      const next = newStates.get(zone);
      if (!next || next === state) continue;
      const size = zoneConditions.get(zone)?.length ?? 0;
      setLimiterInZone(zone, size, next);
      zoneStates.set(zone, next);
      if (state !== 'Initial' || next !== 'Normal') {
        const rate = zoneQueues.get(zone)?.limiter.qps ?? 0;
        trace(`zone ${zoneLabel(zone)} is now ${next} (${size} node(s)): NoExecute taints at ${rate} node(s)/s`);
      }
    }
    scheduleTaintingPass();
  }

  // ---- the NoExecute tainting pass (`doNoExecuteTaintingPass`), run on a 100 ms grid while work is due

  function scheduleTaintingPass(): void {
    if (stopped || taintTimer) return;
    let due = Infinity;
    for (const q of zoneQueues.values()) due = Math.min(due, q.nextAt());
    if (!Number.isFinite(due)) return;
    const at = Math.max(due, now() + 1);
    // Align on the pass's period, counted from the controller's start (wait.Until).
    const tick = runStartedAt + Math.ceil((at - runStartedAt) / evictionPeriodMs) * evictionPeriodMs;
    taintTimer = clock.scheduleAt(
      tick,
      () => {
        taintTimer = undefined;
        if (stopped) return;
        doNoExecuteTaintingPass();
        scheduleTaintingPass();
      },
      { label: `${NAME}: NoExecute tainting pass` },
    );
  }

  function doNoExecuteTaintingPass(): void {
    for (const q of [...zoneQueues.values()]) {
      q.try((v) => {
        const node = nodes.get(undefined, v.value);
        if (!node) return [true, 0];
        const ready = getCondition(node.status, 'Ready');
        if (!ready) return [false, 50];
        // "unreachable" and "not-ready" are mutually exclusive, as Ready's status is.
        if (ready.status === 'False') return [swapTaints(node, [NOT_READY_NO_EXECUTE], [UNREACHABLE_NO_EXECUTE]), 0];
        if (ready.status === 'Unknown') return [swapTaints(node, [UNREACHABLE_NO_EXECUTE], [NOT_READY_NO_EXECUTE]), 0];
        return [true, 0]; // Ready again: nothing to taint
      });
    }
  }

  // ---- the node update worker: NoSchedule taints and labels

  /** `doNoScheduleTaintingPass` + `reconcileNodeLabels` for one node. Throws ApiError to retry. */
  function syncNode(name: string): void {
    const node = nodes.get(undefined, name);
    if (!node) return;
    const wanted: TaintLike[] = [];
    for (const c of (node.status?.conditions ?? []) as NodeCondition[]) {
      const key = CONDITION_TO_TAINT[c.type]?.[c.status];
      if (key) wanted.push({ key, effect: 'NoSchedule' });
    }
    if (node.spec?.unschedulable) wanted.push({ key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
    const existing = ((node.spec?.taints ?? []) as TaintLike[]).filter(
      (t) => t.effect === 'NoSchedule' && (t.key === TAINT_NODE_UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key)),
    );
    const toAdd = wanted.filter((w) => !taintExists(existing, w));
    const toDel = existing.filter((e) => !taintExists(wanted, e));
    if (toAdd.length || toDel.length) {
      // The real controller does not requeue a failed swap; here the queue retries it.
      if (!swapTaints(node, toAdd, toDel)) throw errors.conflict('nodes', '', name);
      return; // the next update event brings the labels pass
    }
    const labels = node.metadata.labels ?? {};
    const update: Record<string, string> = {};
    for (const r of LABEL_RECONCILE) {
      const primary = labels[r.primary];
      if (primary === undefined) continue;
      if (labels[r.secondary] !== primary) update[r.secondary] = primary;
    }
    if (Object.keys(update).length) {
      api.patch('nodes', undefined, name, 'merge', { metadata: { labels: update } }, { fieldManager: 'kube-controller-manager' });
      trace(`${name}: reconciled labels ${Object.keys(update).join(', ')}`, node);
    }
  }

  /** `processPod`: a pod newly placed on a node that is not Ready is marked not ready at once. */
  function syncPod(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = pods.get(namespace, name);
    if (!pod?.spec?.nodeName) return;
    const health = healths.get(pod.spec.nodeName);
    if (!health || !nodes.get(undefined, pod.spec.nodeName)) return;
    const ready = getCondition(health.status, 'Ready');
    if (!ready || ready.status === 'True') return;
    if (!markPodsNotReady([pod], pod.spec.nodeName)) {
      throw errors.internal(`unable to mark pod ${key} NotReady on node ${pod.spec.nodeName}`);
    }
  }

  const synced = [nodeInformer, leaseInformer, podInformer];
  const nodeWorkers = startWorkers(nodeUpdateQueue, syncNode, { clock, name: NAME, waitForSync: synced });
  const podWorkers = startWorkers(podUpdateQueue, syncPod, { clock, name: `${NAME} pods`, waitForSync: synced });

  // ---- Run: after the caches synced, the monitor loop every node-monitor-period
  let pendingSync = synced.length;
  const onSynced = () => {
    if (--pendingSync > 0 || stopped) return;
    runStartedAt = now();
    const loop = () => {
      monitorTimer = undefined;
      if (stopped) return;
      monitorNodeHealth();
      monitorTimer = clock.schedule(monitorPeriodMs, loop, { label: `${NAME}: monitor node health`, background: true });
    };
    // wait.Until runs the first pass at once (in its own event, not inside the informer's callback).
    monitorTimer = clock.schedule(0, loop, { label: `${NAME}: monitor node health`, background: true });
  };
  for (const inf of synced) inf.whenSynced(onSynced);

  return {
    name: NAME,
    stop() {
      stopped = true;
      monitorTimer?.cancel();
      taintTimer?.cancel();
      nodeWorkers.stop();
      podWorkers.stop();
    },
  };
}
