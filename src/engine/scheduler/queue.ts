/**
 * The scheduling queue: which pending pod the scheduler tries next, and when a pod that did not
 * fit is tried again.
 *
 * Mirrors pkg/scheduler/backend/queue/scheduling_queue.go (`PriorityQueue`):
 *   - activeQ: pods ready to be tried, highest `spec.priority` first, then the earliest added
 *     (the PrioritySort plugin);
 *   - backoffQ: pods waiting out a per-pod backoff of 1 s doubling to 10 s with each attempt
 *     (`podInitialBackoffSeconds`, `podMaxBackoffSeconds`);
 *   - unschedulablePods: pods that did not fit, parked until a cluster event that may help them
 *     (a node added or changed, a pod deleted, a PVC bound, ...: the plugins' queueing hints), or
 *     until they have waited `podMaxInUnschedulablePodsDuration` (5 min);
 *   - gated pods (non-empty `spec.schedulingGates`, the SchedulingGates PreEnqueue plugin) wait
 *     in unschedulablePods without ever being tried, and move to activeQ once their gates are gone.
 * With SchedulerPopFromBackoffQ (beta, on by default since 1.33) a pod is taken from backoffQ
 * before its backoff ends when activeQ is empty, unless its last attempt ended in an error.
 *
 * Single-threaded: there is no in-flight bookkeeping because a scheduling cycle runs within one
 * clock event, so no cluster event can arrive during it.
 * Units: virtual milliseconds.
 */
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { PLUGIN } from './framework';
import { podInfoOf, termMatches, type PodInfo } from './cache';
import { requiredNodeAffinity, untoleratedTaint, type Toleration } from './plugins';
import { intValue, milliValue } from './cache';

/** `podInitialBackoffSeconds` default, ms. Source: pkg/scheduler/apis/config/v1/defaults.go. */
export const POD_INITIAL_BACKOFF_MS = 1000;
/** `podMaxBackoffSeconds` default, ms. Source: pkg/scheduler/apis/config/v1/defaults.go. */
export const POD_MAX_BACKOFF_MS = 10_000;
/** `DefaultPodMaxInUnschedulablePodsDuration`: 5 min. Source: pkg/scheduler/backend/queue/scheduling_queue.go. */
export const POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;

/** A pod in the queue (`framework.QueuedPodInfo`). */
export interface QueuedPodInfo {
  pod: KubeObject;
  uid: string;
  key: string;
  priority: number;
  /** When it was last (re)queued, virtual ms: activeQ order and the backoff's start. */
  timestamp: number;
  /** Scheduling attempts so far (each pop counts one). */
  attempts: number;
  /** Plugins that rejected it in its last attempt (what the queueing hints look at). */
  unschedulablePlugins: Set<string>;
  /** Its last attempt failed with an error (not a rejection). */
  lastError: boolean;
  /** Blocked by scheduling gates. */
  gated: boolean;
  /** Insertion order, the final tie-breaker (deterministic). */
  seq: number;
  where: 'active' | 'backoff' | 'unschedulable' | 'none';
}

/** A cluster event that may make parked pods schedulable (`framework.ClusterEvent` with its objects). */
export type ClusterEvent =
  | { type: 'NodeAdd'; node: KubeObject }
  | { type: 'NodeUpdate'; old: KubeObject; node: KubeObject; changes: NodeChanges }
  | { type: 'AssignedPodAdd'; pod: KubeObject }
  | { type: 'AssignedPodUpdate'; old: KubeObject; pod: KubeObject }
  | { type: 'AssignedPodDelete'; pod: KubeObject }
  | { type: 'StorageChange'; what: 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' }
  | { type: 'NamespaceChange' }
  | { type: 'UnschedulableTimeout' };

/** What changed on a node, as the scheduler's node update handler classifies it (`nodeSchedulingPropertiesChange`). */
export interface NodeChanges {
  unschedulable: boolean;
  allocatable: boolean;
  labels: boolean;
  taints: boolean;
  conditions: boolean;
  annotations: boolean;
}

/** Options of the queue (the profile's tunables, in ms). */
export interface QueueOptions {
  now: () => number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  maxInUnschedulableMs: number;
  popFromBackoffQ: boolean;
}

/** A binary heap with a strict "before" order. */
class Heap<T> {
  readonly items: T[] = [];
  constructor(private readonly before: (a: T, b: T) => boolean) {}
  get size(): number {
    return this.items.length;
  }
  peek(): T | undefined {
    return this.items[0];
  }
  push(x: T): void {
    const h = this.items;
    h.push(x);
    this.up(h.length - 1);
  }
  pop(): T | undefined {
    const h = this.items;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      this.down(0);
    }
    return top;
  }
  remove(x: T): boolean {
    const h = this.items;
    const i = h.indexOf(x);
    if (i < 0) return false;
    const last = h.pop()!;
    if (i < h.length) {
      h[i] = last;
      this.down(i);
      this.up(i);
    }
    return true;
  }
  private up(i: number): void {
    const h = this.items;
    const x = h[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(x, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = x;
  }
  private down(i: number): void {
    const h = this.items;
    const n = h.length;
    const x = h[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && this.before(h[r], h[l]) ? r : l;
      if (!this.before(h[c], x)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = x;
  }
}

/** True when the pod has scheduling gates (SchedulingGates PreEnqueue). */
export function isGated(pod: KubeObject): boolean {
  return (pod.spec?.schedulingGates ?? []).length > 0;
}

/**
 * `isPodUpdated`: the pod changed in a way scheduling may care about (anything but status,
 * resourceVersion, generation, managedFields and finalizers).
 */
export function isPodUpdated(oldPod: KubeObject, newPod: KubeObject): boolean {
  const strip = (p: KubeObject) => {
    const { resourceVersion: _rv, generation: _g, managedFields: _m, finalizers: _f, ...meta } = p.metadata;
    return { ...p, metadata: meta, status: undefined };
  };
  return !deepEqual(strip(oldPod), strip(newPod));
}

/** The scheduling queue (`PriorityQueue`). */
export class SchedulingQueue {
  private active = new Heap<QueuedPodInfo>((a, b) => a.priority > b.priority || (a.priority === b.priority && (a.timestamp < b.timestamp || (a.timestamp === b.timestamp && a.seq < b.seq))));
  private backoff = new Heap<QueuedPodInfo>((a, b) => {
    const ea = this.backoffExpiry(a);
    const eb = this.backoffExpiry(b);
    return ea < eb || (ea === eb && (a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq)));
  });
  private unschedulable = new Map<string, QueuedPodInfo>();
  /** Parked (non-gated) pods by the plugins that rejected them ('*' = none): which an event may help. */
  private byPlugin = new Map<string, Set<QueuedPodInfo>>();
  /** Every queued pod by uid. */
  private byUid = new Map<string, QueuedPodInfo>();
  private seq = 0;

  constructor(private readonly o: QueueOptions) {}

  /** Pods in each sub-queue (for traces and tests). */
  counts(): { active: number; backoff: number; unschedulable: number } {
    return { active: this.active.size, backoff: this.backoff.size, unschedulable: this.unschedulable.size };
  }

  /** True when `pop()` would return a pod now. */
  hasWork(): boolean {
    if (this.active.size > 0) return true;
    if (!this.o.popFromBackoffQ || this.backoff.size === 0) return false;
    return !this.backoff.peek()!.lastError || this.backoff.items.some((q) => !q.lastError);
  }

  /** The queued entry of a pod, if any. */
  get(uid: string): QueuedPodInfo | undefined {
    return this.byUid.get(uid);
  }

  /** `Add`: a new pending pod (gated pods are parked without events). */
  add(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    if (this.byUid.has(uid)) {
      this.update(this.byUid.get(uid)!.pod, pod);
      return;
    }
    const pi = podInfoOf(pod);
    const q: QueuedPodInfo = {
      pod,
      uid,
      key: pi.key,
      priority: pi.priority,
      timestamp: this.o.now(),
      attempts: 0,
      unschedulablePlugins: new Set(),
      lastError: false,
      gated: isGated(pod),
      seq: this.seq++,
      where: 'none',
    };
    this.byUid.set(uid, q);
    if (q.gated) this.toUnschedulable(q);
    else this.toActive(q);
  }

  /**
   * `Update`: keep the newest object. A parked pod whose spec or labels changed (a toleration
   * added, gates removed) goes back to activeQ, or backoffQ while its backoff lasts.
   */
  update(oldPod: KubeObject, newPod: KubeObject): void {
    const q = this.byUid.get(newPod.metadata.uid ?? '');
    if (!q) {
      this.add(newPod);
      return;
    }
    q.pod = newPod;
    q.priority = podInfoOf(newPod).priority;
    if (q.where === 'active' || q.where === 'backoff') return;
    if (q.where !== 'unschedulable') return;
    if (q.gated) {
      q.gated = isGated(newPod);
      if (!q.gated) {
        this.unpark(q);
        this.toActive(q);
      }
      return;
    }
    if (isPodUpdated(oldPod, newPod)) this.requeue(q);
  }

  /** `Delete`. */
  delete(pod: KubeObject): void {
    const q = this.byUid.get(pod.metadata.uid ?? '');
    if (!q) return;
    this.detach(q);
    this.byUid.delete(q.uid);
  }

  /**
   * `Pop`: the next pod to try (activeQ first; with PopFromBackoffQ, else the backoffQ pod closest
   * to the end of its backoff). Counts the attempt.
   */
  pop(): QueuedPodInfo | undefined {
    let q = this.active.pop();
    if (!q && this.o.popFromBackoffQ && this.backoff.size > 0) {
      const top = this.backoff.peek()!;
      if (!top.lastError) q = this.backoff.pop();
      else {
        const candidates = this.backoff.items.filter((x) => !x.lastError);
        if (candidates.length > 0) {
          candidates.sort((a, b) => this.backoffExpiry(a) - this.backoffExpiry(b) || b.priority - a.priority || a.seq - b.seq);
          q = candidates[0];
          this.backoff.remove(q);
        }
      }
    }
    if (!q) return undefined;
    q.where = 'none';
    this.byUid.delete(q.uid);
    q.attempts++;
    return q;
  }

  /**
   * `AddUnschedulableIfNotPresent` after a failed attempt: a rejected pod is parked in
   * unschedulablePods; a pod that failed with an error waits out its backoff in backoffQ.
   */
  addUnschedulable(q: QueuedPodInfo, pod: KubeObject, rejectedBy: Set<string>, isError: boolean): void {
    if (this.byUid.has(q.uid)) return;
    q.pod = pod;
    q.priority = podInfoOf(pod).priority;
    q.unschedulablePlugins = rejectedBy;
    q.lastError = isError;
    q.timestamp = this.o.now();
    q.gated = isGated(pod);
    this.byUid.set(q.uid, q);
    if (isError || (rejectedBy.size === 0 && !q.gated)) this.toBackoff(q);
    else this.toUnschedulable(q);
  }

  /** Backoff for the attempts so far: initial doubled per attempt after the first, capped. */
  backoffDuration(q: QueuedPodInfo): number {
    if (q.attempts === 0) return 0;
    let d = this.o.initialBackoffMs;
    for (let i = 1; i < q.attempts; i++) {
      if (d > this.o.maxBackoffMs - d) return this.o.maxBackoffMs;
      d += d;
    }
    return d;
  }

  /** When the pod's backoff ends (virtual ms). */
  backoffExpiry(q: QueuedPodInfo): number {
    return q.timestamp + this.backoffDuration(q);
  }

  /** Earliest backoff expiry in backoffQ, if any. */
  nextBackoffExpiry(): number | undefined {
    const top = this.backoff.peek();
    return top ? this.backoffExpiry(top) : undefined;
  }

  /** `flushBackoffQCompleted`: move pods whose backoff ended to activeQ. Returns how many moved. */
  flushBackoffCompleted(): number {
    const now = this.o.now();
    let n = 0;
    for (;;) {
      const top = this.backoff.peek();
      if (!top || this.backoffExpiry(top) > now) break;
      this.backoff.pop();
      this.toActive(top);
      n++;
    }
    return n;
  }

  /** `flushUnschedulablePodsLeftover`: pods parked longer than the maximum are retried. */
  flushUnschedulableLeftover(): number {
    const now = this.o.now();
    const stale = [...this.unschedulable.values()].filter((q) => !q.gated && now - q.timestamp > this.o.maxInUnschedulableMs);
    for (const q of stale) this.requeue(q);
    return stale.length;
  }

  /**
   * `MoveAllToActiveOrBackoffQueue`: every parked pod the event may help (its rejecting plugins'
   * queueing hints) goes to activeQ, or backoffQ while its backoff lasts. Returns how many moved.
   */
  moveOnEvent(ev: ClusterEvent): number {
    if (this.unschedulable.size === 0) return 0;
    // Only pods rejected by a plugin that registers this kind of event are looked at.
    const seen = new Set<QueuedPodInfo>();
    for (const plugin of [...EVENT_PLUGINS[ev.type], '*']) {
      const set = this.byPlugin.get(plugin);
      if (set) for (const q of set) seen.add(q);
    }
    let n = 0;
    for (const q of seen) {
      if (q.gated || q.where !== 'unschedulable') continue;
      if (!worthRequeuing(q, ev)) continue;
      this.requeue(q);
      n++;
    }
    return n;
  }

  /** Pods waiting in the queue (any sub-queue), in no particular order. */
  all(): QueuedPodInfo[] {
    return [...this.byUid.values()];
  }

  private requeue(q: QueuedPodInfo): void {
    this.unpark(q);
    if (this.backoffExpiry(q) > this.o.now()) this.toBackoff(q);
    else this.toActive(q);
  }

  private toActive(q: QueuedPodInfo): void {
    q.where = 'active';
    this.active.push(q);
  }

  private toBackoff(q: QueuedPodInfo): void {
    q.where = 'backoff';
    this.backoff.push(q);
  }

  private toUnschedulable(q: QueuedPodInfo): void {
    q.where = 'unschedulable';
    this.unschedulable.set(q.uid, q);
    if (q.gated) return;
    const keys = q.unschedulablePlugins.size > 0 ? q.unschedulablePlugins : ['*'];
    for (const k of keys) {
      let set = this.byPlugin.get(k);
      if (!set) {
        set = new Set();
        this.byPlugin.set(k, set);
      }
      set.add(q);
    }
  }

  private unpark(q: QueuedPodInfo): void {
    this.unschedulable.delete(q.uid);
    for (const set of this.byPlugin.values()) set.delete(q);
  }

  private detach(q: QueuedPodInfo): void {
    if (q.where === 'active') this.active.remove(q);
    else if (q.where === 'backoff') this.backoff.remove(q);
    else if (q.where === 'unschedulable') this.unpark(q);
    q.where = 'none';
  }
}

// ------------------------------------------------------------------------------ queueing hints

const NODE_EVENT_PLUGINS = [
  PLUGIN.NodeUnschedulable,
  PLUGIN.NodeName,
  PLUGIN.TaintToleration,
  PLUGIN.NodeAffinity,
  PLUGIN.NodePorts,
  PLUGIN.NodeResourcesFit,
  PLUGIN.VolumeBinding,
  PLUGIN.PodTopologySpread,
  PLUGIN.InterPodAffinity,
];

/** Which plugins register each kind of event (their `EventsToRegister`), so only their rejects are looked at. */
const EVENT_PLUGINS: Readonly<Record<ClusterEvent['type'], readonly string[]>> = {
  NodeAdd: NODE_EVENT_PLUGINS,
  NodeUpdate: NODE_EVENT_PLUGINS,
  AssignedPodAdd: [PLUGIN.PodTopologySpread, PLUGIN.InterPodAffinity],
  AssignedPodUpdate: [PLUGIN.PodTopologySpread, PLUGIN.InterPodAffinity],
  AssignedPodDelete: [PLUGIN.NodePorts, PLUGIN.NodeResourcesFit, PLUGIN.PodTopologySpread, PLUGIN.InterPodAffinity],
  StorageChange: [PLUGIN.VolumeBinding],
  NamespaceChange: [PLUGIN.InterPodAffinity],
  UnschedulableTimeout: [...NODE_EVENT_PLUGINS],
};

function fitsEmptyNode(pod: KubeObject, node: KubeObject): boolean {
  const pi = podInfoOf(pod);
  const alloc = (node.status?.allocatable ?? {}) as Record<string, unknown>;
  if (pi.requests.milliCPU > 0 && pi.requests.milliCPU > milliValue(alloc.cpu ?? 0)) return false;
  if (pi.requests.memory > 0 && pi.requests.memory > intValue(alloc.memory ?? 0)) return false;
  if (pi.requests.ephemeralStorage > 0 && pi.requests.ephemeralStorage > intValue(alloc['ephemeral-storage'] ?? 0)) return false;
  return true;
}

function nodeMatches(pod: KubeObject, node: KubeObject): boolean {
  const m = requiredNodeAffinity(pod);
  return !m || m(node.metadata.labels ?? {}, node.metadata.name ?? '');
}

function taintsTolerated(pod: KubeObject, node: KubeObject): boolean {
  return !untoleratedTaint(node.spec?.taints ?? [], (pod.spec?.tolerations ?? []) as Toleration[]);
}

function matchesAffinityOf(pending: PodInfo, other: KubeObject): boolean {
  const p = podInfoOf(other);
  for (const t of [...pending.requiredAffinityTerms, ...pending.requiredAntiAffinityTerms]) if (termMatches(t, p, undefined)) return true;
  for (const t of p.requiredAntiAffinityTerms) if (termMatches(t, pending, undefined)) return true;
  return false;
}

/**
 * `isPodWorthRequeuing`: the hints of the plugins that rejected the pod, simplified from each
 * plugin's `EventsToRegister` / `QueueingHintFn`. A pod with no rejecting plugin is requeued on
 * any event; the 5-minute timeout requeues everything.
 */
export function worthRequeuing(q: QueuedPodInfo, ev: ClusterEvent): boolean {
  if (ev.type === 'UnschedulableTimeout' || q.unschedulablePlugins.size === 0) return true;
  for (const plugin of q.unschedulablePlugins) if (pluginHint(plugin, q.pod, ev)) return true;
  return false;
}

function pluginHint(plugin: string, pod: KubeObject, ev: ClusterEvent): boolean {
  const node = ev.type === 'NodeAdd' || ev.type === 'NodeUpdate' ? ev.node : undefined;
  switch (plugin) {
    case PLUGIN.NodeUnschedulable:
      if (ev.type === 'NodeAdd' || (ev.type === 'NodeUpdate' && (ev.changes.unschedulable || ev.changes.taints))) return !node!.spec?.unschedulable;
      return false;
    case PLUGIN.NodeName:
      return ev.type === 'NodeAdd' && node!.metadata.name === pod.spec?.nodeName;
    case PLUGIN.TaintToleration:
      if (ev.type === 'NodeAdd' || (ev.type === 'NodeUpdate' && ev.changes.taints)) return taintsTolerated(pod, node!);
      return false;
    case PLUGIN.NodeAffinity:
      if (ev.type === 'NodeAdd') return nodeMatches(pod, node!);
      if (ev.type === 'NodeUpdate' && ev.changes.labels) return nodeMatches(pod, node!) && !nodeMatches(pod, ev.old);
      return false;
    case PLUGIN.NodePorts:
      if (ev.type === 'AssignedPodDelete') {
        const mine = podInfoOf(pod).ports;
        return podInfoOf(ev.pod).ports.some((hp) => mine.some((m) => m.port === hp.port && m.protocol === hp.protocol));
      }
      return ev.type === 'NodeAdd';
    case PLUGIN.NodeResourcesFit:
      if (ev.type === 'AssignedPodDelete') return true;
      if (ev.type === 'NodeAdd' || (ev.type === 'NodeUpdate' && ev.changes.allocatable)) return fitsEmptyNode(pod, node!);
      return false;
    case PLUGIN.VolumeBinding:
      return ev.type === 'StorageChange' || ev.type === 'NodeAdd' || (ev.type === 'NodeUpdate' && (ev.changes.labels || ev.changes.taints));
    case PLUGIN.PodTopologySpread:
      if (ev.type === 'AssignedPodAdd' || ev.type === 'AssignedPodDelete' || ev.type === 'AssignedPodUpdate') return ev.pod.metadata.namespace === pod.metadata.namespace;
      return ev.type === 'NodeAdd' || (ev.type === 'NodeUpdate' && (ev.changes.labels || ev.changes.taints));
    case PLUGIN.InterPodAffinity:
      if (ev.type === 'AssignedPodAdd' || ev.type === 'AssignedPodUpdate') return matchesAffinityOf(podInfoOf(pod), ev.pod);
      if (ev.type === 'AssignedPodDelete') return true;
      return ev.type === 'NamespaceChange' || ev.type === 'NodeAdd' || (ev.type === 'NodeUpdate' && ev.changes.labels);
    default:
      return true;
  }
}

/** `nodeSchedulingPropertiesChange`: compare what scheduling reads (conditions without heartbeat times). */
export function nodeChanges(oldNode: KubeObject, newNode: KubeObject): NodeChanges {
  const conds = (n: KubeObject) => ((n.status?.conditions ?? []) as { type: string; status: string }[]).map((c) => `${c.type}=${c.status}`).join(',');
  return {
    unschedulable: !!oldNode.spec?.unschedulable !== !!newNode.spec?.unschedulable,
    allocatable: !deepEqual(oldNode.status?.allocatable, newNode.status?.allocatable),
    labels: !deepEqual(oldNode.metadata.labels, newNode.metadata.labels),
    taints: !deepEqual(oldNode.spec?.taints, newNode.spec?.taints),
    conditions: conds(oldNode) !== conds(newNode),
    annotations: !deepEqual(oldNode.metadata.annotations, newNode.metadata.annotations),
  };
}
