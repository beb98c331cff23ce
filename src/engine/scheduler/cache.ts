/**
 * The scheduler's cache: what it believes each node holds, kept incrementally from its
 * informers (bound pods, nodes) plus the pods it has *assumed* onto a node and not yet seen
 * bound. Every scheduling attempt filters and scores against this cache, never against a fresh
 * list, so an attempt costs O(nodes examined), not O(pods x nodes).
 *
 * Mirrors pkg/scheduler/backend/cache (cache.go: AssumePod / ForgetPod / AddPod confirming an
 * assumed pod, node_tree.go: nodes interleaved across zones) and pkg/scheduler/framework/types.go
 * (`PodInfo`, `NodeInfo`: requested and non-zero-requested resources, used host ports, pods with
 * (anti-)affinity), and component-helpers/resource (`PodRequests`: init containers' max,
 * sidecars, overhead, pod-level requests).
 *
 * Cached objects come from the informers and are shared: nothing here mutates them.
 * Units: CPU in millicores, memory and ephemeral storage in bytes, scalars as integers.
 */
import type { KubeObject } from '../api/types';
import { parseQuantity } from '../api/quantity';
import { nothing, selectorFromLabelSelector, type Selector } from '../api/labels';
import { parseRfc3339 } from '../clock';

// ------------------------------------------------------------------------------ resources

/**
 * CPU request the scoring plugins assume for a container that sets none (100m).
 * Source: pkg/scheduler/util/pod_resources.go (`DefaultMilliCPURequest`).
 */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** Memory request assumed for scoring when a container sets none (200 MiB). Source: same file (`DefaultMemoryRequest`). */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** A set of resource amounts (`framework.Resource`). */
export interface Resources {
  /** Millicores. */
  milliCPU: number;
  /** Bytes. */
  memory: number;
  /** Bytes. */
  ephemeralStorage: number;
  /** Extended resources (`nvidia.com/gpu`), hugepages, by name; undefined when none. */
  scalar: Map<string, number> | undefined;
}

/** Resources with every amount zero. */
export function emptyResources(): Resources {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, scalar: undefined };
}

const quantityCache = new Map<string, number>();

/** A quantity in base units (`500m` -> 0.5); invalid quantities count as 0 (the API validated them). */
function quantity(q: unknown): number {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return 0;
  let v = quantityCache.get(q);
  if (v === undefined) {
    try {
      v = parseQuantity(q);
    } catch {
      v = 0;
    }
    if (quantityCache.size > 10_000) quantityCache.clear();
    quantityCache.set(q, v);
  }
  return v;
}

/** `Quantity.MilliValue()` (rounded up). */
export function milliValue(q: unknown): number {
  return Math.ceil(quantity(q) * 1000 - 1e-9);
}

/** `Quantity.Value()` (rounded up). */
export function intValue(q: unknown): number {
  return Math.ceil(quantity(q) - 1e-9);
}

/**
 * True for resources the scheduler tracks as scalars: extended resources (a `domain/name` not in
 * the `kubernetes.io/` namespace), `hugepages-*` and `attachable-volumes-*`.
 * Source: pkg/scheduler/util (`IsScalarResourceName`), pkg/apis/core/v1/helper.
 */
export function isScalarResourceName(name: string): boolean {
  if (name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')) return true;
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');
}

/** Resource name -> amount (cpu in millicores, the rest in base units). */
export type ResourceList = Map<string, number>;

/** Parse a `ResourceList` (cpu in millicores, everything else in base units). */
function parseList(rl: Record<string, unknown> | undefined): ResourceList {
  const out: ResourceList = new Map();
  if (!rl) return out;
  for (const k of Object.keys(rl)) out.set(k, k === 'cpu' ? milliValue(rl[k]) : intValue(rl[k]));
  return out;
}

function addList(into: ResourceList, rl: ResourceList): void {
  for (const [k, v] of rl) into.set(k, (into.get(k) ?? 0) + v);
}

function maxList(into: ResourceList, rl: ResourceList): void {
  for (const [k, v] of rl) {
    const cur = into.get(k);
    if (cur === undefined || v > cur) into.set(k, v);
  }
}

/** `applyNonMissing`: the container's requests with the scoring defaults for a missing cpu or memory. */
function withNonMissing(rl: ResourceList): ResourceList {
  if (rl.has('cpu') && rl.has('memory')) return rl;
  const out = new Map(rl);
  if (!out.has('cpu')) out.set('cpu', DEFAULT_MILLI_CPU_REQUEST);
  if (!out.has('memory')) out.set('memory', DEFAULT_MEMORY_REQUEST);
  return out;
}

interface ContainerLike {
  name?: string;
  restartPolicy?: string;
  resources?: { requests?: Record<string, unknown> };
}

/** One container's requests, with the scoring defaults when `nonMissing`. */
function containerRequests(c: ContainerLike, nonMissing: boolean): ResourceList {
  const rl = parseList(c.resources?.requests);
  return nonMissing ? withNonMissing(rl) : rl;
}

/**
 * `resourcehelper.PodRequests`: the sum of the app containers' requests and the restartable
 * init (sidecar) containers', at least the largest regular init container's request plus the
 * sidecars started before it, plus `spec.overhead`; pod-level `spec.resources.requests` replace
 * the aggregate for cpu and memory. With `nonMissing`, containers without a cpu/memory request
 * count 100m / 200Mi (the scoring view, `NonZeroRequested`). CPU in millicores.
 */
export function podRequests(pod: KubeObject, nonMissing: boolean): ResourceList {
  const spec = pod.spec ?? {};
  const reqs: ResourceList = new Map();
  for (const c of (spec.containers ?? []) as ContainerLike[]) addList(reqs, containerRequests(c, nonMissing));
  const restartable: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of (spec.initContainers ?? []) as ContainerLike[]) {
    const rl = containerRequests(c, nonMissing);
    if (c.restartPolicy === 'Always') {
      addList(reqs, rl);
      addList(restartable, rl);
      maxList(initMax, restartable);
    } else {
      const tmp = new Map(rl);
      addList(tmp, restartable);
      maxList(initMax, tmp);
    }
  }
  maxList(reqs, initMax);
  const podLevel = spec.resources?.requests as Record<string, unknown> | undefined;
  if (podLevel) {
    for (const k of ['cpu', 'memory'] as const) if (podLevel[k] !== undefined) reqs.set(k, k === 'cpu' ? milliValue(podLevel[k]) : intValue(podLevel[k]));
  }
  if (spec.overhead) addList(reqs, parseList(spec.overhead));
  return reqs;
}

/** A ResourceList as `Resources` (only the kinds the scheduler tracks). */
export function toResources(rl: ResourceList): Resources {
  const r = emptyResources();
  for (const [k, v] of rl) {
    if (k === 'cpu') r.milliCPU = v;
    else if (k === 'memory') r.memory = v;
    else if (k === 'ephemeral-storage') r.ephemeralStorage = v;
    else if (isScalarResourceName(k)) (r.scalar ??= new Map()).set(k, v);
  }
  return r;
}

// ------------------------------------------------------------------------------ pod info

/** A host port a container asks for (`HostPortInfo` entry); hostIP defaults to 0.0.0.0, protocol to TCP. */
export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

/** A compiled pod (anti-)affinity term (`framework.AffinityTerm`). */
export interface AffinityTerm {
  /** Namespaces named by the term; the pod's own when it names none and has no namespaceSelector. */
  namespaces: Set<string>;
  /** `namespaceSelector`: nil is Nothing, `{}` is Everything. */
  nsSelector: Selector;
  selector: Selector;
  topologyKey: string;
}

/** A preferred term with its weight. */
export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/**
 * What the scheduler precomputes about a pod (`framework.PodInfo` plus the resource sums a
 * `NodeInfo` adds up). Computed once per pod object and cached.
 */
export interface PodInfo {
  pod: KubeObject;
  uid: string;
  namespace: string;
  name: string;
  /** `namespace/name`. */
  key: string;
  labels: Record<string, string>;
  /** `spec.priority` (0 when unset). */
  priority: number;
  /** `spec.nodeName` ('' when unassigned). */
  nodeName: string;
  /** Requests as the filter sees them. */
  requests: Resources;
  /** CPU/memory with the 100m/200Mi defaults, as the scorers see them. */
  nonZeroCPU: number;
  nonZeroMemory: number;
  ports: HostPort[];
  requiredAffinityTerms: AffinityTerm[];
  requiredAntiAffinityTerms: AffinityTerm[];
  preferredAffinityTerms: WeightedAffinityTerm[];
  preferredAntiAffinityTerms: WeightedAffinityTerm[];
  /** Being deleted (`deletionTimestamp` set): not counted by spreading. */
  terminating: boolean;
}

/** `GetPodStartTime`: `status.startTime` in Unix ms, +Infinity when not started (preemption spares older pods). */
export function podStartTime(pi: PodInfo): number {
  const s = pi.pod.status?.startTime;
  const t = typeof s === 'string' ? parseRfc3339(s) : Number.NaN;
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

function shallowEqual(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === b) return true;
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (a![k] !== b?.[k]) return false;
  return true;
}

/**
 * True when `next` is the same pod as far as scheduling is concerned: same node, same
 * `metadata.generation` (every spec change bumps it), same labels and deletion state. Status
 * updates (the kubelet's) then reuse the computed PodInfo instead of re-parsing the pod.
 */
export function sameSchedulingView(prev: KubeObject, next: KubeObject): boolean {
  const a = prev.metadata;
  const b = next.metadata;
  return (
    a.generation !== undefined &&
    a.generation === b.generation &&
    a.uid === b.uid &&
    (prev.spec?.nodeName ?? '') === (next.spec?.nodeName ?? '') &&
    (a.deletionTimestamp ?? '') === (b.deletionTimestamp ?? '') &&
    shallowEqual(a.labels, b.labels)
  );
}

/** `labels` of two objects are equal (a cheap check for label-change events). */
export function sameLabels(a: KubeObject, b: KubeObject): boolean {
  return shallowEqual(a.metadata.labels, b.metadata.labels);
}

const podInfos = new WeakMap<object, PodInfo>();

function safeSelector(ls: unknown): Selector {
  try {
    return selectorFromLabelSelector(ls as Parameters<typeof selectorFromLabelSelector>[0]);
  } catch {
    return nothing();
  }
}

interface RawTerm {
  labelSelector?: unknown;
  namespaces?: string[];
  namespaceSelector?: unknown;
  topologyKey?: string;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

/** `newAffinityTerm`: namespaces default to the pod's own when neither namespaces nor a namespaceSelector is set. */
function compileTerm(pod: KubeObject, t: RawTerm): AffinityTerm {
  const ns = pod.metadata.namespace ?? 'default';
  const names = t.namespaces ?? [];
  const namespaces = new Set(names.length === 0 && (t.namespaceSelector === undefined || t.namespaceSelector === null) ? [ns] : names);
  let selector = safeSelector(t.labelSelector);
  // matchLabelKeys / mismatchLabelKeys (beta 1.31): key In/NotIn (the pod's value), merged into the selector.
  const labels = pod.metadata.labels ?? {};
  const extra: { key: string; operator: 'In' | 'NotIn'; values: string[] }[] = [];
  for (const k of t.matchLabelKeys ?? []) if (k in labels) extra.push({ key: k, operator: 'In', values: [labels[k]] });
  for (const k of t.mismatchLabelKeys ?? []) if (k in labels) extra.push({ key: k, operator: 'NotIn', values: [labels[k]] });
  if (extra.length > 0 && t.labelSelector) {
    const ls = t.labelSelector as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
    selector = safeSelector({ ...ls, matchExpressions: [...(ls.matchExpressions ?? []), ...extra] });
  }
  return {
    namespaces,
    nsSelector: t.namespaceSelector === undefined || t.namespaceSelector === null ? nothing() : safeSelector(t.namespaceSelector),
    selector,
    topologyKey: t.topologyKey ?? '',
  };
}

const NO_TERMS: AffinityTerm[] = [];
const NO_WEIGHTED: WeightedAffinityTerm[] = [];

function compileTerms(pod: KubeObject, terms: RawTerm[] | undefined): AffinityTerm[] {
  if (!terms || terms.length === 0) return NO_TERMS;
  return terms.map((t) => compileTerm(pod, t));
}

function compileWeighted(pod: KubeObject, terms: { weight?: number; podAffinityTerm?: RawTerm }[] | undefined): WeightedAffinityTerm[] {
  if (!terms || terms.length === 0) return NO_WEIGHTED;
  return terms.map((w) => ({ ...compileTerm(pod, w.podAffinityTerm ?? {}), weight: w.weight ?? 0 }));
}

/** `AffinityTerm.Matches`: the pod is in one of the term's namespaces and its labels match. */
export function termMatches(t: AffinityTerm, p: PodInfo, nsLabels: Record<string, string> | undefined): boolean {
  if (t.namespaces.has(p.namespace) || t.nsSelector.matches(nsLabels ?? {})) return t.selector.matches(p.labels);
  return false;
}

type PortedContainer = ContainerLike & { ports?: { hostPort?: number; hostIP?: string; protocol?: string }[] };

function hostPorts(pod: KubeObject): HostPort[] {
  const out: HostPort[] = [];
  const spec = pod.spec ?? {};
  const add = (c: PortedContainer) => {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  };
  for (const c of (spec.containers ?? []) as PortedContainer[]) if (c.ports) add(c);
  for (const c of (spec.initContainers ?? []) as PortedContainer[]) if (c.ports && c.restartPolicy === 'Always') add(c);
  return out;
}

/** The `PodInfo` of a pod object (cached per object; informer objects are immutable). */
export function podInfoOf(pod: KubeObject): PodInfo {
  let pi = podInfos.get(pod);
  if (pi) return pi;
  const spec = pod.spec ?? {};
  const req = podRequests(pod, false);
  const nz = podRequests(pod, true);
  const aff = spec.affinity ?? {};
  const podAff = aff.podAffinity ?? {};
  const podAnti = aff.podAntiAffinity ?? {};
  const ns = pod.metadata.namespace ?? 'default';
  pi = {
    pod,
    uid: pod.metadata.uid ?? `${ns}/${pod.metadata.name}`,
    namespace: ns,
    name: pod.metadata.name ?? '',
    key: `${ns}/${pod.metadata.name}`,
    labels: pod.metadata.labels ?? {},
    priority: typeof spec.priority === 'number' ? spec.priority : 0,
    nodeName: spec.nodeName ?? '',
    requests: toResources(req),
    nonZeroCPU: nz.get('cpu') ?? 0,
    nonZeroMemory: nz.get('memory') ?? 0,
    ports: hostPorts(pod),
    requiredAffinityTerms: compileTerms(pod, podAff.requiredDuringSchedulingIgnoredDuringExecution),
    requiredAntiAffinityTerms: compileTerms(pod, podAnti.requiredDuringSchedulingIgnoredDuringExecution),
    preferredAffinityTerms: compileWeighted(pod, podAff.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinityTerms: compileWeighted(pod, podAnti.preferredDuringSchedulingIgnoredDuringExecution),
    terminating: !!pod.metadata.deletionTimestamp,
  };
  podInfos.set(pod, pi);
  return pi;
}

/** The same pod placed on `nodeName` (what `AssumePod` stores): a shallow copy with `spec.nodeName` set. */
export function assumedPodInfo(pi: PodInfo, nodeName: string): PodInfo {
  const pod = { ...pi.pod, spec: { ...pi.pod.spec, nodeName } };
  return { ...pi, pod, nodeName };
}

function hasAffinity(p: PodInfo): boolean {
  return p.requiredAffinityTerms.length + p.requiredAntiAffinityTerms.length + p.preferredAffinityTerms.length + p.preferredAntiAffinityTerms.length > 0;
}

// ------------------------------------------------------------------------------ node info

/** One taint (`v1.Taint`). */
export interface TaintLike {
  key: string;
  value?: string;
  effect: string;
}

/** Default `maxPods` when a node reports no `pods` allocatable (kubelet default 110). */
export const DEFAULT_MAX_PODS = 110;

/**
 * A node and what is on it (`framework.NodeInfo`): allocatable, the sum of its pods' requests
 * (assumed pods included), host ports in use, and the pods themselves. A NodeInfo may exist
 * without a Node object while bound pods still point at a node that is gone (a "ghost").
 */
export class NodeInfo {
  /** Bumped on every change (the snapshot's `Generation`). */
  generation = 0;
  /**
   * A small integer unique to this NodeInfo within its cache (indexes the pod counters' arrays),
   * given by `SchedulerCache` from 0 up, so the counters' arrays stay dense whatever number of
   * caches (scheduler processes) came before. -1 for a NodeInfo outside a cache (a `clone()`,
   * which counters never see: they count only the cache's own NodeInfos).
   */
  readonly id: number;
  /** `kubernetes.io/hostname` and `topology.kubernetes.io/zone`, read often by spreading. */
  hostname: string | undefined;
  zone: string | undefined;
  /** How many of `taints` have effect PreferNoSchedule (TaintToleration scoring reads no taint when 0). */
  preferNoScheduleTaints = 0;
  node: KubeObject | undefined;
  labels: Record<string, string> = {};
  taints: TaintLike[] = [];
  unschedulable = false;
  allocatable: Resources = emptyResources();
  allowedPodNumber = 0;
  requested: Resources = emptyResources();
  nonZeroCPU = 0;
  nonZeroMemory = 0;
  pods: PodInfo[] = [];
  podsWithAffinity = 0;
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  /** `ip|protocol|port` -> count, and `protocol|port` -> count over every IP. */
  private portsByIp = new Map<string, number>();
  private portsAnyIp = new Map<string, number>();

  constructor(
    readonly name: string,
    id = -1,
  ) {
    this.id = id;
  }

  /** Set (or replace) the Node object. */
  setNode(node: KubeObject): void {
    this.node = node;
    this.labels = node.metadata.labels ?? {};
    this.hostname = this.labels['kubernetes.io/hostname'];
    this.zone = this.labels['topology.kubernetes.io/zone'];
    this.taints = (node.spec?.taints ?? []) as TaintLike[];
    let prefer = 0;
    for (const t of this.taints) if (t.effect === 'PreferNoSchedule') prefer++;
    this.preferNoScheduleTaints = prefer;
    this.unschedulable = !!node.spec?.unschedulable;
    const alloc = (node.status?.allocatable ?? {}) as Record<string, unknown>;
    this.allocatable = toResources(parseList(alloc));
    this.allowedPodNumber = alloc.pods !== undefined ? intValue(alloc.pods) : DEFAULT_MAX_PODS;
    this.generation++;
  }

  /** `NodeInfo.AddPodInfo`. */
  addPod(p: PodInfo): void {
    this.pods.push(p);
    this.adjust(p, 1);
  }

  /** Swap in a newer object of the same pod whose scheduling view did not change (no sums change). */
  replacePod(p: PodInfo): boolean {
    const i = this.pods.findIndex((x) => x.uid === p.uid);
    if (i < 0) return false;
    this.pods[i] = p;
    const j = this.podsWithRequiredAntiAffinity.findIndex((x) => x.uid === p.uid);
    if (j >= 0) this.podsWithRequiredAntiAffinity[j] = p;
    return true;
  }

  /** `NodeInfo.RemovePod` by uid; false when the pod is not here. */
  removePod(uid: string): boolean {
    const i = this.pods.findIndex((x) => x.uid === uid);
    if (i < 0) return false;
    const p = this.pods[i];
    this.pods.splice(i, 1);
    this.adjust(p, -1);
    return true;
  }

  private adjust(p: PodInfo, sign: 1 | -1): void {
    const r = p.requests;
    this.requested.milliCPU += sign * r.milliCPU;
    this.requested.memory += sign * r.memory;
    this.requested.ephemeralStorage += sign * r.ephemeralStorage;
    if (r.scalar) {
      const s = (this.requested.scalar ??= new Map());
      for (const [k, v] of r.scalar) s.set(k, (s.get(k) ?? 0) + sign * v);
    }
    this.nonZeroCPU += sign * p.nonZeroCPU;
    this.nonZeroMemory += sign * p.nonZeroMemory;
    for (const hp of p.ports) {
      const k1 = `${hp.ip}|${hp.protocol}|${hp.port}`;
      const k2 = `${hp.protocol}|${hp.port}`;
      bump(this.portsByIp, k1, sign);
      bump(this.portsAnyIp, k2, sign);
    }
    if (hasAffinity(p)) this.podsWithAffinity += sign;
    if (p.requiredAntiAffinityTerms.length > 0) {
      if (sign > 0) this.podsWithRequiredAntiAffinity.push(p);
      else this.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.filter((x) => x.uid !== p.uid);
    }
    this.generation++;
  }

  /** `HostPortInfo.CheckConflict`: 0.0.0.0 conflicts with every IP on the same protocol/port. */
  portConflict(hp: HostPort): boolean {
    if (hp.ip === '0.0.0.0') return (this.portsAnyIp.get(`${hp.protocol}|${hp.port}`) ?? 0) > 0;
    return (this.portsByIp.get(`0.0.0.0|${hp.protocol}|${hp.port}`) ?? 0) > 0 || (this.portsByIp.get(`${hp.ip}|${hp.protocol}|${hp.port}`) ?? 0) > 0;
  }

  /** A copy whose pod list and sums can be changed (preemption's dry runs). */
  clone(): NodeInfo {
    const c = new NodeInfo(this.name);
    c.node = this.node;
    c.labels = this.labels;
    c.hostname = this.hostname;
    c.zone = this.zone;
    c.taints = this.taints;
    c.preferNoScheduleTaints = this.preferNoScheduleTaints;
    c.unschedulable = this.unschedulable;
    c.allocatable = this.allocatable;
    c.allowedPodNumber = this.allowedPodNumber;
    c.requested = { ...this.requested, scalar: this.requested.scalar ? new Map(this.requested.scalar) : undefined };
    c.nonZeroCPU = this.nonZeroCPU;
    c.nonZeroMemory = this.nonZeroMemory;
    c.pods = [...this.pods];
    c.podsWithAffinity = this.podsWithAffinity;
    c.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity];
    c.portsByIp = new Map(this.portsByIp);
    c.portsAnyIp = new Map(this.portsAnyIp);
    c.generation = this.generation;
    return c;
  }
}

function bump(m: Map<string, number>, k: string, by: number): void {
  const v = (m.get(k) ?? 0) + by;
  if (v <= 0) m.delete(k);
  else m.set(k, v);
}

// ------------------------------------------------------------------------------ pod counters

/**
 * Per-node counts of the pods matching one (namespace, selector), kept up to date as pods come and
 * go: what `countPodsMatchSelector` computes for PodTopologySpread (and its default spreading),
 * without rescanning every node's pods on every attempt. Terminating pods are not counted.
 */
export class PodCounter {
  /** Count by `NodeInfo.id`. */
  readonly perNode: number[] = [];
  lastUse = 0;
  /** Dropped from the cache (least recently used): no longer maintained. */
  evicted = false;
  constructor(
    readonly namespace: string,
    readonly selector: Selector,
  ) {}

  matches(p: PodInfo): boolean {
    return p.namespace === this.namespace && !p.terminating && this.selector.matches(p.labels);
  }

  /** Pods on the node that match. */
  count(ni: NodeInfo): number {
    return this.perNode[ni.id] ?? 0;
  }

  /** Add `by` to a node's count. */
  add(ni: NodeInfo, by: number): void {
    this.perNode[ni.id] = (this.perNode[ni.id] ?? 0) + by;
  }
}

/** Most counters kept; the least recently used is dropped beyond this (a simulation bound). */
export const MAX_POD_COUNTERS = 256;

// ------------------------------------------------------------------------------ the cache

interface PodState {
  info: PodInfo;
  /** Assumed by this scheduler and not yet seen bound through the informer. */
  assumed: boolean;
}

/** `utilnode.GetZoneKey`: region and zone labels (GA or beta), '' when neither is set. */
export function zoneKey(labels: Record<string, string>): string {
  const region = labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (!region && !zone) return '';
  return `${region}:\x00:${zone}`;
}

/**
 * The scheduler cache (`backend/cache.cacheImpl`) with its node tree and pod counters.
 * Handlers call `addNode/updateNode/removeNode` and `addPod/updatePod/removePod` for bound pods;
 * the scheduling loop calls `assumePod` / `forgetPod`. `stop()` of the process drops it whole.
 */
export class SchedulerCache {
  private nodes = new Map<string, NodeInfo>();
  private podStates = new Map<string, PodState>();
  /** zone key -> node names, zones in first-seen order (`nodeTree`). */
  private tree = new Map<string, string[]>();
  private listCache: NodeInfo[] | undefined;
  private counters = new Map<string, PodCounter>();
  /** The counter last returned for a selector object (see `counter`). */
  private counterBySelector = new WeakMap<Selector, PodCounter>();
  private counterClock = 0;
  /** The next `NodeInfo.id`. */
  private nextNodeId = 0;
  /** The list's NodeInfo ids, index-aligned with `nodeList()`. */
  private listIds: Int32Array | undefined;
  /**
   * Per-node arrays indexed by `NodeInfo.id` (this cache's NodeInfos only). A scheduling cycle
   * reads them for every examined node instead of loading each NodeInfo object (500 objects
   * scattered in the heap cost a cache miss each per cycle; these are a few contiguous KB).
   * Performance only: they hold copies and memos, never the truth:
   * - `nodeGen`: a copy of `NodeInfo.generation`, written by every method of this cache that
   *   changes a NodeInfo (addNode, removeNode, place, unplace: all the writers of its sums, pods,
   *   labels, taints and allocatable; `replacePod` changes none of them);
   * - `preferTaints`, `hasHostname`: copies of `preferNoScheduleTaints` and `hostname !== undefined`,
   *   written by addNode (the only writer of the Node object);
   * - `filterGen`/`filterSig`: the pod-only filters passed for pods of that signature at that
   *   generation (plugins.ts `runFilters`);
   * - `fitGen`/`fitSig`/`fitScore`: the fit + balanced score for pods of that request signature
   *   at that generation (plugins.ts `scoreNodes`).
   * Generations are -1 ("nothing remembered") until written.
   */
  nodeGen = new Float64Array(0);
  preferTaints = new Int32Array(0);
  hasHostname = new Uint8Array(0);
  filterGen = new Float64Array(0);
  filterSig = new Int32Array(0);
  fitGen = new Float64Array(0);
  fitSig = new Int32Array(0);
  fitScore = new Float64Array(0);
  /** Pods with required anti-affinity anywhere in the cache (fast path for InterPodAffinity). */
  requiredAntiAffinityPods = 0;
  /** Pods with any (anti-)affinity term anywhere in the cache (fast path for its scoring). */
  podsWithAffinity = 0;
  /** Nodes carrying `topology.kubernetes.io/zone` (none: zone spreading has nothing to do). */
  zonedNodes = 0;

  // ---------------------------------------------------------------- nodes

  /** Nodes with a Node object, interleaved across zones (`nodeTree.list`). Do not mutate. */
  nodeList(): NodeInfo[] {
    if (!this.listCache) {
      const zones = [...this.tree.values()];
      const out: NodeInfo[] = [];
      const total = zones.reduce((n, z) => n + z.length, 0);
      for (let i = 0; out.length < total; i++) {
        for (const z of zones) if (i < z.length) out.push(this.nodes.get(z[i])!);
      }
      this.listCache = out;
    }
    return this.listCache;
  }

  /** The ids of `nodeList()`, index-aligned (rebuilt with it). Do not mutate. */
  nodeListIds(): Int32Array {
    const list = this.nodeList();
    if (!this.listIds || this.listIds.length !== list.length) {
      const ids = new Int32Array(list.length);
      for (let i = 0; i < list.length; i++) ids[i] = list[i].id;
      this.listIds = ids;
    }
    return this.listIds;
  }

  /** A new NodeInfo of this cache, with room in the per-node arrays for its id. */
  private newNodeInfo(name: string): NodeInfo {
    const ni = new NodeInfo(name, this.nextNodeId++);
    if (ni.id >= this.nodeGen.length) {
      const size = Math.max(64, this.nodeGen.length * 2);
      const grow = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T, fill?: number): T => {
        const b = make(size);
        if (fill !== undefined) b.fill(fill);
        b.set(a);
        return b;
      };
      this.nodeGen = grow(this.nodeGen, (n) => new Float64Array(n), -1);
      this.preferTaints = grow(this.preferTaints, (n) => new Int32Array(n));
      this.hasHostname = grow(this.hasHostname, (n) => new Uint8Array(n));
      this.filterGen = grow(this.filterGen, (n) => new Float64Array(n), -1);
      this.filterSig = grow(this.filterSig, (n) => new Int32Array(n));
      this.fitGen = grow(this.fitGen, (n) => new Float64Array(n), -1);
      this.fitSig = grow(this.fitSig, (n) => new Int32Array(n));
      this.fitScore = grow(this.fitScore, (n) => new Float64Array(n));
    }
    this.nodeGen[ni.id] = ni.generation;
    return ni;
  }

  /** The NodeInfo of a node (ghosts included), if any. */
  nodeInfo(name: string): NodeInfo | undefined {
    return this.nodes.get(name);
  }

  /** `AddNode`. */
  addNode(node: KubeObject): void {
    const name = node.metadata.name!;
    let ni = this.nodes.get(name);
    if (!ni) {
      ni = this.newNodeInfo(name);
      this.nodes.set(name, ni);
    }
    if (ni.node) {
      this.treeRemove(name, zoneKey(ni.labels));
      if (ni.zone !== undefined) this.zonedNodes--;
    }
    ni.setNode(node);
    this.nodeGen[ni.id] = ni.generation;
    this.preferTaints[ni.id] = ni.preferNoScheduleTaints;
    this.hasHostname[ni.id] = ni.hostname !== undefined ? 1 : 0;
    if (ni.zone !== undefined) this.zonedNodes++;
    this.treeAdd(name, zoneKey(ni.labels));
  }

  /** `UpdateNode`. */
  updateNode(node: KubeObject): void {
    this.addNode(node);
  }

  /** `RemoveNode`: the NodeInfo stays while pods still point at the node. */
  removeNode(node: KubeObject): void {
    const name = node.metadata.name!;
    const ni = this.nodes.get(name);
    if (!ni) return;
    if (ni.node) {
      this.treeRemove(name, zoneKey(ni.labels));
      if (ni.zone !== undefined) this.zonedNodes--;
    }
    ni.node = undefined;
    ni.generation++;
    this.nodeGen[ni.id] = ni.generation;
    if (ni.pods.length === 0) this.nodes.delete(name);
  }

  private treeAdd(name: string, zone: string): void {
    let z = this.tree.get(zone);
    if (!z) {
      z = [];
      this.tree.set(zone, z);
    }
    z.push(name);
    this.listCache = undefined;
    this.listIds = undefined;
  }

  private treeRemove(name: string, zone: string): void {
    const z = this.tree.get(zone);
    if (!z) return;
    const i = z.indexOf(name);
    if (i >= 0) z.splice(i, 1);
    if (z.length === 0) this.tree.delete(zone);
    this.listCache = undefined;
    this.listIds = undefined;
  }

  // ---------------------------------------------------------------- pods

  /** True when the pod (by uid) is assumed and not yet confirmed by the informer. */
  isAssumed(uid: string): boolean {
    return this.podStates.get(uid)?.assumed ?? false;
  }

  /** Every pod the cache holds (bound and assumed). */
  podCount(): number {
    return this.podStates.size;
  }

  /** `AssumePod`: count the pod on its node now, before the binding is seen. */
  assumePod(p: PodInfo): void {
    this.place(p);
    this.podStates.set(p.uid, { info: p, assumed: true });
  }

  /** `ForgetPod`: the binding failed; take the assumed pod off its node. */
  forgetPod(uid: string): void {
    const st = this.podStates.get(uid);
    if (!st || !st.assumed) return;
    this.unplace(st.info);
    this.podStates.delete(uid);
  }

  /** `AddPod` for a bound pod: confirms an assumed pod (moving it if it landed elsewhere). */
  addPod(pod: KubeObject): void {
    const st = this.podStates.get(pod.metadata.uid ?? '');
    if (st && sameSchedulingView(st.info.pod, pod)) {
      // A status update (or the binding of an assumed pod): same requests, labels and node.
      const p = { ...st.info, pod };
      if (this.nodes.get(p.nodeName)?.replacePod(p)) {
        st.info = p;
        st.assumed = false;
        return;
      }
    }
    const p = podInfoOf(pod);
    if (st) this.unplace(st.info);
    this.place(p);
    this.podStates.set(p.uid, { info: p, assumed: false });
  }

  /** `UpdatePod` for a bound pod. */
  updatePod(pod: KubeObject): void {
    this.addPod(pod);
  }

  /** `RemovePod`. */
  removePod(pod: KubeObject): void {
    const uid = pod.metadata.uid ?? '';
    const st = this.podStates.get(uid);
    if (!st) return;
    this.unplace(st.info);
    this.podStates.delete(uid);
  }

  private place(p: PodInfo): void {
    let ni = this.nodes.get(p.nodeName);
    if (!ni) {
      ni = this.newNodeInfo(p.nodeName);
      this.nodes.set(p.nodeName, ni);
    }
    ni.addPod(p);
    this.nodeGen[ni.id] = ni.generation;
    if (p.requiredAntiAffinityTerms.length > 0) this.requiredAntiAffinityPods++;
    if (hasAffinity(p)) this.podsWithAffinity++;
    for (const c of this.counters.values()) if (c.matches(p)) c.add(ni, 1);
  }

  private unplace(p: PodInfo): void {
    const ni = this.nodes.get(p.nodeName);
    if (!ni || !ni.removePod(p.uid)) return;
    this.nodeGen[ni.id] = ni.generation;
    if (p.requiredAntiAffinityTerms.length > 0) this.requiredAntiAffinityPods--;
    if (hasAffinity(p)) this.podsWithAffinity--;
    for (const c of this.counters.values()) if (c.matches(p)) c.add(ni, -1);
    if (!ni.node && ni.pods.length === 0) this.nodes.delete(p.nodeName);
  }

  // ---------------------------------------------------------------- counters

  /**
   * The counter of pods in `namespace` matching `selector`, built on first use by one pass over
   * the cached pods and then maintained incrementally.
   */
  counter(namespace: string, selector: Selector): PodCounter {
    // The counter last returned for this very selector object, if of this namespace and still
    // kept: the one the key below finds (same selector string; a kept counter is the map's entry
    // for its key), without building the key (performance only).
    const memo = this.counterBySelector.get(selector);
    if (memo && memo.namespace === namespace && !memo.evicted) {
      memo.lastUse = ++this.counterClock;
      return memo;
    }
    const key = selector.nothing ? `${namespace}\n<nothing>` : `${namespace}\n${selector.toString()}`;
    let c = this.counters.get(key);
    if (!c) {
      c = new PodCounter(namespace, selector);
      if (!selector.nothing) {
        for (const ni of this.nodes.values()) {
          let n = 0;
          for (const p of ni.pods) if (c.matches(p)) n++;
          if (n > 0) c.add(ni, n);
        }
      }
      this.counters.set(key, c);
      if (this.counters.size > MAX_POD_COUNTERS) {
        let oldest: string | undefined;
        let min = Number.POSITIVE_INFINITY;
        for (const [k, v] of this.counters) if (v.lastUse < min) [min, oldest] = [v.lastUse, k];
        if (oldest !== undefined && oldest !== key) {
          this.counters.get(oldest)!.evicted = true;
          this.counters.delete(oldest);
        }
      }
    }
    this.counterBySelector.set(selector, c);
    c.lastUse = ++this.counterClock;
    return c;
  }
}

/** A node's label value; the hostname and zone labels come from fields (the hot path of spreading). */
export function labelOf(ni: NodeInfo, key: string): string | undefined {
  if (key === 'kubernetes.io/hostname') return ni.hostname;
  if (key === 'topology.kubernetes.io/zone') return ni.zone;
  return ni.labels[key];
}
