/**
 * The default profile's PreFilter, Filter and Score plugins, in the order kube-scheduler runs
 * them, over the scheduler cache (`cache.ts`).
 *
 * Filters (first failure wins per node, pkg/scheduler/framework/runtime `RunFilterPlugins`):
 *   NodeUnschedulable, NodeName, TaintToleration (NoSchedule/NoExecute), NodeAffinity
 *   (nodeSelector + required affinity), NodePorts, NodeResourcesFit, VolumeBinding,
 *   PodTopologySpread (DoNotSchedule constraints), InterPodAffinity (required terms).
 * Scores (each normalised to 0..100, times its weight, summed):
 *   TaintToleration (PreferNoSchedule), NodeAffinity (preferred terms), NodeResourcesFit
 *   (LeastAllocated), PodTopologySpread (ScheduleAnyway constraints, or the system default
 *   spreading by hostname and zone), InterPodAffinity (preferred terms),
 *   NodeResourcesBalancedAllocation.
 * Not simulated: VolumeRestrictions, NodeVolumeLimits, VolumeZone, ImageLocality,
 * DynamicResources (nodes here have no CSI drivers, images or devices to report).
 *
 * Each plugin mirrors its package under pkg/scheduler/framework/plugins/ (file named at the
 * plugin). The reason strings are the real ones; they are what users read in FailedScheduling.
 */
import { deepEqual, type KubeObject } from '../api/types';
import type { Lister } from '../client/informer';
import { toleratesTaint } from '../controllers/util';
import { everything, nothing, selectorFromLabelSelector, selectorFromSet, type Selector } from '../api/labels';
import { MAX_NODE_SCORE, PLUGIN, SCORE_WEIGHTS, status, type Status } from './framework';
import {
  intValue,
  labelOf,
  termMatches,
  type AffinityTerm,
  type HostPort,
  type NodeInfo,
  type PodCounter,
  type PodInfo,
  type SchedulerCache,
  type TaintLike,
} from './cache';

// Module-local copies of the framework constants the scoring loops read per node (imported
// bindings can cost a getter call per access in CommonJS builds).
const MAX_SCORE = MAX_NODE_SCORE;
const W_TAINT = SCORE_WEIGHTS[PLUGIN.TaintToleration];
const W_NODE_AFFINITY = SCORE_WEIGHTS[PLUGIN.NodeAffinity];
const W_FIT = SCORE_WEIGHTS[PLUGIN.NodeResourcesFit];
const W_SPREAD = SCORE_WEIGHTS[PLUGIN.PodTopologySpread];
const W_INTERPOD = SCORE_WEIGHTS[PLUGIN.InterPodAffinity];
const W_BALANCED = SCORE_WEIGHTS[PLUGIN.NodeResourcesBalancedAllocation];

// ------------------------------------------------------------------------------ handle

/** What the plugins read: the cache, the informers' listers and the volume assume cache. */
export interface PluginHandle {
  cache: SchedulerCache;
  pvcs: Lister;
  pvs: Lister;
  storageClasses: Lister;
  namespaces: Lister;
  services: Lister;
  replicaSets: Lister;
  statefulSets: Lister;
  /** PV name -> `namespace/name` of the claim this scheduler bound it to, until the informer shows it. */
  assumedPVs: Map<string, string>;
  /**
   * True (default): TaintToleration names the taint, `node(s) had untolerated taint {key: value}`,
   * as Kubernetes up to 1.34.1 does. False: `node(s) had untolerated taint(s)`, the wording since
   * kubernetes/kubernetes#134740 (1.35, back-ported to 1.34.2), which hides taint keys and values.
   */
  taintDetailInMessage: boolean;
  /**
   * Memo of `defaultSelector`: by controlling owner uid ('' for none), the namespaces and label
   * sets seen with their selector. The scheduler clears it whenever a Service, ReplicaSet or
   * StatefulSet changes (their selectors are what it is made of).
   */
  defaultSelectors: Map<string, DefaultSelectorEntry[]>;
}

/** One memoised `defaultSelector` result: the pod's namespace and labels, and the selector. */
export interface DefaultSelectorEntry {
  namespace: string;
  labels: Record<string, string>;
  selector: Selector;
}

// ------------------------------------------------------------------------------ reasons

/** Source: plugins/nodeunschedulable/node_unschedulable.go (`ErrReasonUnschedulable`). */
export const ERR_NODE_UNSCHEDULABLE = 'node(s) were unschedulable';
/** Source: plugins/nodename/node_name.go (`ErrReason`). */
export const ERR_NODE_NAME = "node(s) didn't match the requested node name";
/** Source: plugins/nodeaffinity/node_affinity.go (`ErrReasonPod`). */
export const ERR_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
/** Source: plugins/nodeaffinity/node_affinity.go (`errReasonConflict`). */
export const ERR_AFFINITY_CONFLICT = 'pod affinity terms conflict';
/** Source: plugins/nodeports/node_ports.go (`ErrReason`). */
export const ERR_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";
/** Source: plugins/podtopologyspread/filtering.go (`ErrReasonConstraintsNotMatch`). */
export const ERR_SPREAD = "node(s) didn't match pod topology spread constraints";
/** Source: plugins/podtopologyspread/filtering.go (`ErrReasonNodeLabelNotMatch`). */
export const ERR_SPREAD_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
/** Required pod affinity not met (UnschedulableAndUnresolvable). Source: plugins/interpodaffinity/filtering.go. */
export const ERR_AFFINITY_RULES = "node(s) didn't match pod affinity rules";
/** The pod's required anti-affinity matches pods there (Unschedulable). Source: same file. */
export const ERR_ANTI_AFFINITY_RULES = "node(s) didn't match pod anti-affinity rules";
/** Pods there have required anti-affinity against this pod (Unschedulable). Source: same file. */
export const ERR_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
/** A bound claim's PV does not allow the node. Source: plugins/volumebinding/binder.go (`ErrReasonNodeConflict`). */
export const ERR_VOLUME_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
/** No static PV and no provisioning for an unbound WaitForFirstConsumer claim. Source: binder.go (`ErrReasonBindConflict`). */
export const ERR_VOLUME_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
/** A bound claim names a PV that does not exist. Source: binder.go (`ErrReasonPVNotExist`). */
export const ERR_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
/** PreFilter: an unbound claim of an Immediate class. Source: plugins/volumebinding/volume_binding.go. */
export const ERR_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';

/** Annotation the scheduler sets on a WaitForFirstConsumer claim to ask for provisioning there. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** Annotation the PV controller sets once a claim's binding is complete. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** Provisioner name of classes that cannot provision (local volumes). Source: component-helpers/storage/volume. */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

// ------------------------------------------------------------------------------ tolerations

/** `v1.Toleration`. */
export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export { toleratesTaint };

function tolerated(tolerations: Toleration[], taint: TaintLike): boolean {
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** `FindMatchingUntoleratedTaint` over NoSchedule and NoExecute taints: the first not tolerated. */
export function untoleratedTaint(taints: TaintLike[], tolerations: Toleration[]): TaintLike | undefined {
  for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerated(tolerations, taint)) return taint;
  }
  return undefined;
}

// ------------------------------------------------------------------------------ node selectors

interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

/** A compiled node predicate over (labels, node name). */
export type NodeMatcher = (labels: Record<string, string>, name: string) => boolean;

const GO_INT = /^[-+]?\d+$/;

function compileRequirement(r: NodeSelectorRequirement, field: boolean): NodeMatcher {
  const values = r.values ?? [];
  const get = field ? (_l: Record<string, string>, name: string) => (r.key === 'metadata.name' ? name : undefined) : (l: Record<string, string>) => (Object.prototype.hasOwnProperty.call(l, r.key) ? l[r.key] : undefined);
  if (field && (r.key !== 'metadata.name' || (r.operator !== 'In' && r.operator !== 'NotIn'))) return () => false;
  switch (r.operator) {
    case 'In':
      return (l, n) => {
        const v = get(l, n);
        return v !== undefined && values.includes(v);
      };
    case 'NotIn':
      return (l, n) => {
        const v = get(l, n);
        return v === undefined || !values.includes(v);
      };
    case 'Exists':
      return (l, n) => get(l, n) !== undefined;
    case 'DoesNotExist':
      return (l, n) => get(l, n) === undefined;
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1 || !GO_INT.test(values[0])) return () => false;
      const bound = Number(values[0]);
      return (l, n) => {
        const v = get(l, n);
        if (v === undefined || !GO_INT.test(v)) return false;
        return r.operator === 'Gt' ? Number(v) > bound : Number(v) < bound;
      };
    }
    default:
      return () => false;
  }
}

/** One node selector term: its expressions and fields ANDed; an empty term matches nothing. */
function compileNodeSelectorTerm(t: NodeSelectorTerm): NodeMatcher {
  const reqs = [...(t.matchExpressions ?? []).map((r) => compileRequirement(r, false)), ...(t.matchFields ?? []).map((r) => compileRequirement(r, true))];
  if (reqs.length === 0) return () => false;
  return (l, n) => {
    for (const r of reqs) if (!r(l, n)) return false;
    return true;
  };
}

/** Terms ORed (`nodeaffinity.NodeSelector.Match`). */
export function compileNodeSelectorTerms(terms: NodeSelectorTerm[]): NodeMatcher {
  const ms = terms.map(compileNodeSelectorTerm);
  return (l, n) => {
    for (const m of ms) if (m(l, n)) return true;
    return false;
  };
}

/**
 * `nodeaffinity.GetRequiredNodeAffinity(pod)`: the pod's nodeSelector AND its required node
 * affinity; undefined when the pod has neither (every node matches).
 */
export function requiredNodeAffinity(pod: KubeObject): NodeMatcher | undefined {
  const sel = pod.spec?.nodeSelector as Record<string, string> | undefined;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as NodeSelectorTerm[] | undefined;
  const hasSel = sel && Object.keys(sel).length > 0;
  if (!hasSel && !terms) return undefined;
  const required = terms ? compileNodeSelectorTerms(terms) : undefined;
  const entries = hasSel ? Object.entries(sel!) : [];
  return (l, n) => {
    for (const [k, v] of entries) if (l[k] !== v) return false;
    return required ? required(l, n) : true;
  };
}

/** `volume.CheckNodeAffinity`: a PV's required node affinity against a node. */
function pvNodeAffinityMatches(pv: KubeObject, ni: NodeInfo): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms as NodeSelectorTerm[] | undefined;
  if (!terms) return true;
  return compileNodeSelectorTerms(terms)(ni.labels, ni.name);
}

// ------------------------------------------------------------------------------ cycle state

/** One DoNotSchedule (filter) or ScheduleAnyway (score) topology spread constraint, compiled. */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
  honorNodeAffinity: boolean;
  honorNodeTaints: boolean;
}

/** PodTopologySpread's PreFilter state: matching pods per topology pair and the minimum per key. */
export interface SpreadState {
  constraints: SpreadConstraint[];
  /** `key\0value` -> matching pods in that domain. */
  pairCount: Map<string, number>;
  /** key -> [global minimum over its domains, number of domains]. */
  minByKey: Map<string, { min: number; domains: number }>;
  /** Which nodes' domains are counted (they pass the inclusion policies and have every key). */
  eligible: (ni: NodeInfo, c: SpreadConstraint) => boolean;
}

/** InterPodAffinity's PreFilter state (`preFilterState`). */
export interface InterPodState {
  /** Pairs where existing pods' required anti-affinity matches the incoming pod. */
  existingAnti: Map<string, number>;
  /** Pairs where existing pods match all the incoming pod's required affinity terms. */
  affinity: Map<string, number>;
  /** Pairs where existing pods match one of the incoming pod's required anti-affinity terms. */
  anti: Map<string, number>;
  affinityTerms: AffinityTerm[];
  antiTerms: AffinityTerm[];
  nsLabels: Record<string, string>;
}

/** A static PV chosen for a claim, or a claim to provision, per node (`PodVolumes`). */
export interface PodVolumes {
  staticBindings: { pvc: KubeObject; pv: KubeObject }[];
  dynamicProvisions: KubeObject[];
}

/** VolumeBinding's PreFilter state. */
export interface VolumeState {
  boundClaims: KubeObject[];
  /** Unbound WaitForFirstConsumer claims the scheduler must bind or get provisioned. */
  claimsToBind: KubeObject[];
  /** Filter's decision per node name. */
  byNode: Map<string, PodVolumes>;
}

/** Everything PreFilter computed for one scheduling attempt (`framework.CycleState`). */
export interface CycleState {
  pod: KubeObject;
  pi: PodInfo;
  tolerations: Toleration[];
  /** The pod tolerates `node.kubernetes.io/unschedulable:NoSchedule` (NodeUnschedulable). */
  toleratesUnschedulable: boolean;
  affinity: NodeMatcher | undefined;
  /**
   * The pod's filter signature: equal for two pods whose node name, tolerations, nodeSelector,
   * required node affinity, host ports and requests are equal, i.e. everything the pod-only
   * filters read (see `runFilters` and `SchedulerCache.filterSig`). Always >= 1.
   */
  filterSig: number;
  /** NodeAffinity's PreFilterResult: only these nodes are examined (DaemonSet pods). */
  nodeNames: Set<string> | undefined;
  volume: VolumeState | undefined;
  spread: SpreadState | undefined;
  interPod: InterPodState | undefined;
}

/** What PreFilter returns: the state, or the status that rejects the pod on every node. */
export interface PreFilterResult {
  state: CycleState;
  /** A rejection (Unschedulable*) or an Error; undefined when every plugin passed. */
  status?: Status;
  /** Plugins that narrowed the node set (for the absent nodes' reason). */
  narrowedBy: string[];
}

const pair = (k: string, v: string) => `${k}\x00${v}`;

/** The pod inputs of the pod-only filters, with the signature id they were given. */
interface FilterInputs {
  id: number;
  nodeName: string;
  tolerations: unknown;
  nodeSelector: unknown;
  required: unknown;
  ports: HostPort[];
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalar: Map<string, number> | undefined;
}

/** The most recently seen filter inputs, newest first (a small bound: pods of a few shapes alternate). */
const recentFilterInputs: FilterInputs[] = [];
const RECENT_FILTER_INPUTS = 8;
let nextFilterSig = 1;

function scalarsEqual(a: Map<string, number> | undefined, b: Map<string, number> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

function portsEqual(a: HostPort[], b: HostPort[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].ip !== b[i].ip || a[i].protocol !== b[i].protocol || a[i].port !== b[i].port) return false;
  return true;
}

/**
 * The pod's filter signature (`CycleState.filterSig`): the id of equal inputs among the recently
 * seen ones, else a new id (ids are never reused). Two pods with the same id have equal node
 * name, tolerations, nodeSelector, required node affinity (`deepEqual`: fields set to undefined
 * count as absent, as they do for the filters), host ports and requests: everything the pod-only
 * filters read. So a node that passed those filters for one passes them for the other (same
 * node generation). Equal inputs given two ids only cost memo misses.
 */
function filterSignature(pod: KubeObject, pi: PodInfo): number {
  const spec = pod.spec ?? {};
  const r = pi.requests;
  const tolerations = spec.tolerations;
  const nodeSelector = spec.nodeSelector;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  for (let i = 0; i < recentFilterInputs.length; i++) {
    const f = recentFilterInputs[i];
    if (
      f.nodeName === pi.nodeName &&
      f.milliCPU === r.milliCPU &&
      f.memory === r.memory &&
      f.ephemeralStorage === r.ephemeralStorage &&
      scalarsEqual(f.scalar, r.scalar) &&
      portsEqual(f.ports, pi.ports) &&
      deepEqual(f.tolerations, tolerations) &&
      deepEqual(f.nodeSelector, nodeSelector) &&
      deepEqual(f.required, required)
    ) {
      if (i > 0) {
        recentFilterInputs.splice(i, 1);
        recentFilterInputs.unshift(f);
      }
      return f.id;
    }
  }
  // The inputs are kept by reference: informer objects (and their parts) are never mutated.
  const f: FilterInputs = {
    id: nextFilterSig++,
    nodeName: pi.nodeName,
    tolerations,
    nodeSelector,
    required,
    ports: pi.ports,
    milliCPU: r.milliCPU,
    memory: r.memory,
    ephemeralStorage: r.ephemeralStorage,
    scalar: r.scalar,
  };
  recentFilterInputs.unshift(f);
  if (recentFilterInputs.length > RECENT_FILTER_INPUTS) recentFilterInputs.pop();
  return f.id;
}

/** Run every PreFilter plugin (`RunPreFilterPlugins`). */
export function preFilter(h: PluginHandle, pod: KubeObject, pi: PodInfo): PreFilterResult {
  const tolerations = (pod.spec?.tolerations ?? []) as Toleration[];
  const state: CycleState = {
    pod,
    pi,
    tolerations,
    toleratesUnschedulable: tolerated(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }),
    affinity: requiredNodeAffinity(pod),
    filterSig: filterSignature(pod, pi),
    nodeNames: undefined,
    volume: undefined,
    spread: undefined,
    interPod: undefined,
  };
  const narrowedBy: string[] = [];
  // NodeAffinity (plugins/nodeaffinity/node_affinity.go PreFilter): metadata.name matchFields narrow the nodes.
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as NodeSelectorTerm[] | undefined;
  if (terms) {
    let names: Set<string> | undefined;
    let allNodes = false;
    for (const t of terms) {
      let termNames: Set<string> | undefined;
      for (const r of t.matchFields ?? []) {
        if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
        const s = new Set(r.values ?? []);
        termNames = termNames ? new Set([...termNames].filter((x) => s.has(x))) : s;
      }
      if (!termNames) {
        allNodes = true;
        break;
      }
      names = new Set([...(names ?? []), ...termNames]);
    }
    if (!allNodes && names) {
      if (names.size === 0) return { state, status: status('UnschedulableAndUnresolvable', PLUGIN.NodeAffinity, ERR_AFFINITY_CONFLICT), narrowedBy };
      state.nodeNames = names;
      narrowedBy.push(PLUGIN.NodeAffinity);
    }
  }
  // VolumeBinding.
  const vol = volumePreFilter(h, pod, pi);
  if (vol.status) return { state, status: vol.status, narrowedBy };
  state.volume = vol.state;
  // PodTopologySpread (DoNotSchedule constraints).
  state.spread = spreadPreFilter(h, pod, pi, state.affinity, 'DoNotSchedule');
  // InterPodAffinity.
  state.interPod = interPodPreFilter(h, pi);
  return { state, narrowedBy };
}

// ------------------------------------------------------------------------------ filters

/**
 * Run the filters on one node (`RunFilterPlugins`): the first failing plugin's status, or
 * undefined when the pod fits. `ni` may be a clone with pods added or removed (preemption,
 * nominated pods) and `s` a matching clone of the state.
 */
export function runFilters(h: PluginHandle, s: CycleState, ni: NodeInfo, id: number = ni.id): Status | undefined {
  // The pod-only filters are a pure function of the node (every change to what they read bumps
  // `generation`: setNode, addPod/removePod, removeNode; the cache keeps a copy in `nodeGen`) and
  // of the pod inputs in the signature: a pass is remembered in the cache's per-node arrays and
  // reused for the next pod with the same signature, without loading the NodeInfo. A failure is
  // not remembered (its status is built afresh, as before). `id` is `ni.id` (callers that have
  // it pass it); -1 (a clone, not the cache's) remembers nothing.
  const c = h.cache;
  if (id < 0 || c.filterGen[id] !== c.nodeGen[id] || c.filterSig[id] !== s.filterSig) {
    const st = podFilters(h, s, ni);
    if (st) return st;
    if (id >= 0) {
      c.filterGen[id] = c.nodeGen[id];
      c.filterSig[id] = s.filterSig;
    }
  }
  // VolumeBinding (plugins/volumebinding).
  if (s.volume) {
    const v = volumeFilter(h, s, s.volume, ni);
    if (v) return v;
  }
  // PodTopologySpread (plugins/podtopologyspread/filtering.go).
  if (s.spread) {
    const v = spreadFilter(s.spread, s.pi, ni);
    if (v) return v;
  }
  // InterPodAffinity (plugins/interpodaffinity/filtering.go).
  if (s.interPod) {
    const v = interPodFilter(s.interPod, s.pi, ni);
    if (v) return v;
  }
  return undefined;
}

/**
 * The filters that read only the node and the pod (in `RunFilterPlugins` order, before the
 * ones with PreFilter state): the first failing status, or undefined.
 */
function podFilters(h: PluginHandle, s: CycleState, ni: NodeInfo): Status | undefined {
  // NodeUnschedulable (plugins/nodeunschedulable).
  if (ni.unschedulable && !s.toleratesUnschedulable) return status('UnschedulableAndUnresolvable', PLUGIN.NodeUnschedulable, ERR_NODE_UNSCHEDULABLE);
  // NodeName (plugins/nodename).
  if (s.pi.nodeName && s.pi.nodeName !== ni.name) return status('UnschedulableAndUnresolvable', PLUGIN.NodeName, ERR_NODE_NAME);
  // TaintToleration (plugins/tainttoleration): NoSchedule and NoExecute only.
  if (ni.taints.length > 0) {
    const t = untoleratedTaint(ni.taints, s.tolerations);
    if (t) {
      const reason = h.taintDetailInMessage ? `node(s) had untolerated taint {${t.key}: ${t.value ?? ''}}` : 'node(s) had untolerated taint(s)';
      return status('UnschedulableAndUnresolvable', PLUGIN.TaintToleration, reason);
    }
  }
  // NodeAffinity (plugins/nodeaffinity): nodeSelector and required terms.
  if (s.affinity && !s.affinity(ni.labels, ni.name)) return status('UnschedulableAndUnresolvable', PLUGIN.NodeAffinity, ERR_NODE_AFFINITY);
  // NodePorts (plugins/nodeports).
  const ports = s.pi.ports;
  for (let i = 0; i < ports.length; i++) if (ni.portConflict(ports[i])) return status('Unschedulable', PLUGIN.NodePorts, ERR_NODE_PORTS);
  // NodeResourcesFit (plugins/noderesources/fit.go fitsRequest); the common case inline.
  const r = s.pi.requests;
  if (
    ni.pods.length + 1 > ni.allowedPodNumber ||
    r.milliCPU > ni.allocatable.milliCPU - ni.requested.milliCPU ||
    r.memory > ni.allocatable.memory - ni.requested.memory ||
    r.ephemeralStorage > ni.allocatable.ephemeralStorage - ni.requested.ephemeralStorage ||
    r.scalar
  ) {
    const fit = fitsRequest(s.pi, ni);
    if (fit) return fit;
  }
  return undefined;
}

/**
 * `fitsRequest`: `Too many pods` when the node is at its `pods` allocatable, then for each of cpu,
 * memory, ephemeral-storage and scalar resources the pod requests, `Insufficient <name>` when
 * request > allocatable - requested (assumed pods included). All reasons are kept.
 */
export function fitsRequest(pi: PodInfo, ni: NodeInfo): Status | undefined {
  let reasons: string[] | undefined;
  if (ni.pods.length + 1 > ni.allowedPodNumber) (reasons ??= []).push('Too many pods');
  const r = pi.requests;
  if (r.milliCPU > 0 && r.milliCPU > ni.allocatable.milliCPU - ni.requested.milliCPU) (reasons ??= []).push('Insufficient cpu');
  if (r.memory > 0 && r.memory > ni.allocatable.memory - ni.requested.memory) (reasons ??= []).push('Insufficient memory');
  if (r.ephemeralStorage > 0 && r.ephemeralStorage > ni.allocatable.ephemeralStorage - ni.requested.ephemeralStorage) (reasons ??= []).push('Insufficient ephemeral-storage');
  if (r.scalar) {
    for (const [name, q] of r.scalar) {
      if (q === 0) continue;
      if (q > (ni.allocatable.scalar?.get(name) ?? 0) - (ni.requested.scalar?.get(name) ?? 0)) (reasons ??= []).push(`Insufficient ${name}`);
    }
  }
  return reasons ? { code: 'Unschedulable', plugin: PLUGIN.NodeResourcesFit, reasons } : undefined;
}

// ------------------------------------------------------------------------------ VolumeBinding

function isEphemeralOwner(pvc: KubeObject, pod: KubeObject): boolean {
  return (pvc.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === pod.metadata.uid);
}

/** `GetPersistentVolumeClaimClass`: the beta annotation, else `spec.storageClassName`. */
export function claimClass(pvc: KubeObject): string {
  return pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
}

/** `GetPersistentVolumeClass`. */
function volumeClass(pv: KubeObject): string {
  return pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pv.spec?.storageClassName ?? '';
}

/**
 * A claim bound for good: `spec.volumeName` set and the PV controller's `bind-completed`
 * annotation (`isPVCFullyBound`). Simulation leniency: `status.phase: Bound` also counts, for a
 * PV controller that marks the phase without the annotation.
 */
export function isClaimFullyBound(pvc: KubeObject): boolean {
  if (!pvc.spec?.volumeName) return false;
  return pvc.metadata.annotations?.[ANN_BIND_COMPLETED] !== undefined || pvc.status?.phase === 'Bound';
}

/**
 * VolumeBinding PreFilter (`podHasPVCs` + `GetPodVolumeClaims`): a missing, lost or terminating
 * claim rejects the pod (UnschedulableAndUnresolvable, with the lister's message); an unbound
 * claim whose class binds Immediately does too (`pod has unbound immediate PersistentVolumeClaims`);
 * an unknown StorageClass is an Error. Unbound WaitForFirstConsumer claims are left for Filter.
 */
function volumePreFilter(h: PluginHandle, pod: KubeObject, pi: PodInfo): { state?: VolumeState; status?: Status } {
  const claims: KubeObject[] = [];
  for (const vol of (pod.spec?.volumes ?? []) as { name: string; persistentVolumeClaim?: { claimName: string }; ephemeral?: unknown }[]) {
    let name: string;
    let ephemeral = false;
    if (vol.persistentVolumeClaim) name = vol.persistentVolumeClaim.claimName;
    else if (vol.ephemeral) {
      name = `${pi.name}-${vol.name}`;
      ephemeral = true;
    } else continue;
    const pvc = h.pvcs.get(pi.namespace, name);
    const reject = (msg: string) => ({ status: status('UnschedulableAndUnresolvable', PLUGIN.VolumeBinding, msg) });
    if (!pvc) return reject(ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` : `persistentvolumeclaim "${name}" not found`);
    if (pvc.status?.phase === 'Lost') return reject(`persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${pvc.spec?.volumeName ?? ''}"`);
    if (pvc.metadata.deletionTimestamp) return reject(`persistentvolumeclaim "${name}" is being deleted`);
    if (ephemeral && !isEphemeralOwner(pvc, pod)) return reject(`PVC ${pi.namespace}/${name} was not created for pod ${pi.namespace}/${pi.name} (pod is not owner)`);
    claims.push(pvc);
  }
  if (claims.length === 0) return {};
  const boundClaims: KubeObject[] = [];
  const claimsToBind: KubeObject[] = [];
  let immediate = 0;
  for (const pvc of claims) {
    if (isClaimFullyBound(pvc)) {
      boundClaims.push(pvc);
      continue;
    }
    const className = claimClass(pvc);
    let delay = false;
    if (className) {
      const sc = h.storageClasses.get(undefined, className);
      const err = (msg: string) => ({ status: status('Error', PLUGIN.VolumeBinding, `running PreFilter plugin "VolumeBinding": ${msg}`) });
      if (!sc) return err(`storageclass.storage.k8s.io "${className}" not found`);
      const mode = (sc as { volumeBindingMode?: string }).volumeBindingMode;
      if (!mode) return err(`VolumeBindingMode not set for StorageClass "${className}"`);
      delay = mode === 'WaitForFirstConsumer';
    }
    if (delay && !pvc.spec?.volumeName) claimsToBind.push(pvc);
    else immediate++;
  }
  if (immediate > 0) return { status: status('UnschedulableAndUnresolvable', PLUGIN.VolumeBinding, ERR_UNBOUND_IMMEDIATE) };
  return { state: { boundClaims, claimsToBind, byNode: new Map() } };
}

function storageOf(o: KubeObject, path: 'request' | 'capacity'): number {
  const q = path === 'request' ? o.spec?.resources?.requests?.storage : o.spec?.capacity?.storage;
  return q === undefined ? 0 : intValue(q);
}

/** `FindMatchingVolume` (scheduler path): the smallest Available PV of the class that fits the claim on this node. */
function findMatchingVolume(h: PluginHandle, pvc: KubeObject, ni: NodeInfo, chosen: Set<string>): KubeObject | undefined {
  const want = storageOf(pvc, 'request');
  const cls = claimClass(pvc);
  const claimKey = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
  let selector: Selector | undefined;
  try {
    selector = pvc.spec?.selector ? selectorFromLabelSelector(pvc.spec.selector) : undefined;
  } catch {
    selector = nothing();
  }
  const modes: string[] = pvc.spec?.accessModes ?? [];
  const claimMode = pvc.spec?.volumeMode ?? 'Filesystem';
  let best: KubeObject | undefined;
  let bestQty = 0;
  for (const pv of h.pvs.list()) {
    const name = pv.metadata.name!;
    if (chosen.has(name)) continue;
    const assumedFor = h.assumedPVs.get(name);
    if (assumedFor && assumedFor !== claimKey) continue;
    const ref = pv.spec?.claimRef;
    const boundToClaim = !!ref && ref.name === pvc.metadata.name && ref.namespace === pvc.metadata.namespace && (!ref.uid || ref.uid === pvc.metadata.uid);
    if (ref && !boundToClaim) continue;
    const qty = storageOf(pv, 'capacity');
    if (qty < want) continue;
    if ((pv.spec?.volumeMode ?? 'Filesystem') !== claimMode) continue;
    if (pv.metadata.deletionTimestamp) continue;
    const affinityOk = pvNodeAffinityMatches(pv, ni);
    if (boundToClaim) return affinityOk ? pv : undefined;
    if (pv.status?.phase !== 'Available') continue;
    if (selector && !selector.matches(pv.metadata.labels)) continue;
    if (volumeClass(pv) !== cls) continue;
    if (!affinityOk) continue;
    const pvModes: string[] = pv.spec?.accessModes ?? [];
    if (!modes.every((m) => pvModes.includes(m))) continue;
    if (!best || qty < bestQty) [best, bestQty] = [pv, qty];
  }
  return best;
}

/** `TopologySelectorTerm`s of a StorageClass's allowedTopologies (ORed; expressions ANDed). */
function matchesAllowedTopologies(sc: KubeObject, labels: Record<string, string>): boolean {
  const terms = (sc as { allowedTopologies?: { matchLabelExpressions?: { key: string; values: string[] }[] }[] }).allowedTopologies;
  if (!terms || terms.length === 0) return true;
  return terms.some((t) => (t.matchLabelExpressions ?? []).every((e) => e.values.includes(labels[e.key])));
}

/**
 * VolumeBinding Filter (`FindPodVolumes`): bound claims need their PV to exist and allow the node;
 * unbound WaitForFirstConsumer claims need a matching static PV or a class that can provision
 * there (a claim already given a selected node only fits that node).
 */
function volumeFilter(h: PluginHandle, s: CycleState, vs: VolumeState, ni: NodeInfo): Status | undefined {
  let boundOk = true;
  let pvsFound = true;
  let unboundOk = true;
  for (const pvc of vs.boundClaims) {
    const pv = h.pvs.get(undefined, pvc.spec.volumeName);
    if (!pv) {
      pvsFound = false;
      break;
    }
    if (!pvNodeAffinityMatches(pv, ni)) {
      boundOk = false;
      break;
    }
  }
  const decision: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
  if (boundOk && pvsFound && vs.claimsToBind.length > 0) {
    const toProvision: KubeObject[] = [];
    const toMatch: KubeObject[] = [];
    for (const pvc of vs.claimsToBind) {
      const sel = pvc.metadata.annotations?.[ANN_SELECTED_NODE];
      if (sel !== undefined) {
        if (sel !== ni.name) {
          unboundOk = false;
          break;
        }
        toProvision.push(pvc);
      } else toMatch.push(pvc);
    }
    if (unboundOk) {
      const chosen = new Set<string>();
      for (const pvc of toMatch) {
        const pv = findMatchingVolume(h, pvc, ni, chosen);
        if (pv) {
          chosen.add(pv.metadata.name!);
          decision.staticBindings.push({ pvc, pv });
        } else toProvision.push(pvc);
      }
      for (const pvc of toProvision) {
        const cls = claimClass(pvc);
        const sc = cls ? h.storageClasses.get(undefined, cls) : undefined;
        const provisioner = (sc as { provisioner?: string } | undefined)?.provisioner ?? '';
        if (!sc || !provisioner || provisioner === NOT_SUPPORTED_PROVISIONER || !matchesAllowedTopologies(sc, ni.labels)) {
          unboundOk = false;
          break;
        }
        decision.dynamicProvisions.push(pvc);
      }
    }
  }
  const reasons: string[] = [];
  if (!boundOk) reasons.push(ERR_VOLUME_NODE_CONFLICT);
  if (!unboundOk) reasons.push(ERR_VOLUME_BIND_CONFLICT);
  if (!pvsFound) reasons.push(ERR_PV_NOT_EXIST);
  if (reasons.length > 0) return { code: 'UnschedulableAndUnresolvable', plugin: PLUGIN.VolumeBinding, reasons };
  if (s.volume === vs) vs.byNode.set(ni.name, decision);
  return undefined;
}

// ------------------------------------------------------------------------------ PodTopologySpread

interface RawSpreadConstraint {
  maxSkew?: number;
  topologyKey?: string;
  whenUnsatisfiable?: string;
  labelSelector?: unknown;
  minDomains?: number;
  nodeAffinityPolicy?: string;
  nodeTaintsPolicy?: string;
  matchLabelKeys?: string[];
}

/**
 * The pod's constraints with the given `whenUnsatisfiable`, compiled
 * (`filterTopologySpreadConstraints`): matchLabelKeys add `key in (pod's value)` to the selector;
 * nodeAffinityPolicy defaults to Honor, nodeTaintsPolicy to Ignore.
 */
function podSpreadConstraints(pod: KubeObject, which: 'DoNotSchedule' | 'ScheduleAnyway'): SpreadConstraint[] {
  const out: SpreadConstraint[] = [];
  const labels = (pod.metadata.labels ?? {}) as Record<string, string>;
  for (const c of (pod.spec?.topologySpreadConstraints ?? []) as RawSpreadConstraint[]) {
    if (c.whenUnsatisfiable !== which) continue;
    let ls = c.labelSelector as { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined;
    const keys = (c.matchLabelKeys ?? []).filter((k) => k in labels);
    if (keys.length > 0 && ls) ls = { ...ls, matchExpressions: [...(ls.matchExpressions ?? []), ...keys.map((k) => ({ key: k, operator: 'In', values: [labels[k]] }))] };
    let selector: Selector;
    try {
      selector = selectorFromLabelSelector(ls as Parameters<typeof selectorFromLabelSelector>[0]);
    } catch {
      selector = nothing();
    }
    out.push({
      maxSkew: c.maxSkew ?? 1,
      topologyKey: c.topologyKey ?? '',
      selector,
      minDomains: c.minDomains ?? 1,
      honorNodeAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorNodeTaints: c.nodeTaintsPolicy === 'Honor',
    });
  }
  return out;
}

/** Hostname label (`v1.LabelHostname`). */
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
/** Zone label (`v1.LabelTopologyZone`). */
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

/**
 * The system default spreading constraints (`systemDefaultConstraints`): by hostname with
 * maxSkew 3 and by zone with maxSkew 5, both ScheduleAnyway.
 * Source: pkg/scheduler/framework/plugins/podtopologyspread/plugin.go.
 */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly { topologyKey: string; maxSkew: number }[] = Object.freeze([
  { topologyKey: LABEL_HOSTNAME, maxSkew: 3 },
  { topologyKey: LABEL_ZONE, maxSkew: 5 },
]);

/**
 * `helper.DefaultSelector`: the selectors of the Services selecting the pod, plus the selector of
 * its controlling ReplicaSet or StatefulSet. Empty (Everything) when nothing selects the pod.
 */
export function defaultSelector(h: PluginHandle, pi: PodInfo): Selector {
  let owner: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean } | undefined;
  for (const r of pi.pod.metadata.ownerReferences ?? []) {
    if (r.controller) {
      owner = r;
      break;
    }
  }
  // The result depends on the namespace, the owner and the label set (and the listers, whose
  // changes clear the memo): found by owner uid, then by equal namespace and labels (compared as
  // sets, without building a key string per cycle).
  const ownerUid = owner?.uid ?? '';
  let entries = h.defaultSelectors.get(ownerUid);
  if (entries) {
    for (const e of entries) if (e.namespace === pi.namespace && sameLabelSet(e.labels, pi.labels)) return e.selector;
  }
  let sel: Selector;
  const set: Record<string, string> = {};
  for (const svc of h.services.list(pi.namespace)) {
    const ss = svc.spec?.selector as Record<string, string> | undefined;
    if (!ss) continue;
    if (selectorFromSet(ss).matches(pi.labels)) Object.assign(set, ss);
  }
  let ownerSel: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | undefined;
  if (owner && owner.apiVersion === 'apps/v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const o = (owner.kind === 'ReplicaSet' ? h.replicaSets : h.statefulSets).get(pi.namespace, owner.name);
    if (o?.spec?.selector) ownerSel = o.spec.selector;
  }
  if (Object.keys(set).length === 0 && !ownerSel) sel = everything();
  else {
    try {
      sel = selectorFromLabelSelector({ matchLabels: { ...set, ...(ownerSel?.matchLabels ?? {}) }, matchExpressions: (ownerSel?.matchExpressions ?? []) as never });
    } catch {
      sel = everything();
    }
  }
  if (!entries || entries.length >= 16) {
    if (h.defaultSelectors.size > 1024) h.defaultSelectors.clear();
    entries = [];
    h.defaultSelectors.set(ownerUid, entries);
  }
  entries.push({ namespace: pi.namespace, labels: pi.labels, selector: sel });
  return sel;
}

/** Two label maps hold the same pairs (in any order). */
function sameLabelSet(a: Record<string, string>, b: Record<string, string>): boolean {
  if (a === b) return true;
  let na = 0;
  for (const k in a) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || b[k] !== a[k]) return false;
    na++;
  }
  let nb = 0;
  for (const _k in b) nb++;
  return na === nb;
}

function spreadEligibility(affinity: NodeMatcher | undefined, tolerations: Toleration[], constraints: SpreadConstraint[]): SpreadState['eligible'] {
  return (ni, c) => {
    for (const k of constraints) if (!(k.topologyKey in ni.labels)) return false;
    if (c.honorNodeAffinity && affinity && !affinity(ni.labels, ni.name)) return false;
    if (c.honorNodeTaints && untoleratedTaint(ni.taints, tolerations)) return false;
    return true;
  };
}

function recomputeMin(st: SpreadState, key: string): void {
  let min = Number.MAX_SAFE_INTEGER;
  let domains = 0;
  const prefix = `${key}\x00`;
  for (const [p, n] of st.pairCount) {
    if (!p.startsWith(prefix)) continue;
    domains++;
    if (n < min) min = n;
  }
  st.minByKey.set(key, { min, domains });
}

/**
 * PodTopologySpread PreFilter (`calPreFilterState`): for each DoNotSchedule constraint, the pods
 * matching its selector in every domain of the nodes that pass the inclusion policies and carry
 * all the constraints' keys. Undefined (Skip) when the pod has no such constraint.
 */
function spreadPreFilter(h: PluginHandle, pod: KubeObject, pi: PodInfo, affinity: NodeMatcher | undefined, which: 'DoNotSchedule'): SpreadState | undefined {
  const constraints = podSpreadConstraints(pod, which);
  if (constraints.length === 0) return undefined;
  const st: SpreadState = {
    constraints,
    pairCount: new Map(),
    minByKey: new Map(),
    eligible: spreadEligibility(affinity, (pod.spec?.tolerations ?? []) as Toleration[], constraints),
  };
  const counters = constraints.map((c) => h.cache.counter(pi.namespace, c.selector));
  for (const ni of h.cache.nodeList()) {
    constraints.forEach((c, i) => {
      if (!st.eligible(ni, c)) return;
      const k = pair(c.topologyKey, ni.labels[c.topologyKey]);
      st.pairCount.set(k, (st.pairCount.get(k) ?? 0) + counters[i].count(ni));
    });
  }
  for (const c of constraints) recomputeMin(st, c.topologyKey);
  return st;
}

function spreadFilter(st: SpreadState, pi: PodInfo, ni: NodeInfo): Status | undefined {
  for (const c of st.constraints) {
    const v = ni.labels[c.topologyKey];
    if (v === undefined) return status('UnschedulableAndUnresolvable', PLUGIN.PodTopologySpread, ERR_SPREAD_LABEL);
    const m = st.minByKey.get(c.topologyKey) ?? { min: 0, domains: 0 };
    const min = m.domains < c.minDomains ? 0 : m.min;
    const self = c.selector.matches(pi.labels) ? 1 : 0;
    const skew = (st.pairCount.get(pair(c.topologyKey, v)) ?? 0) + self - min;
    if (skew > c.maxSkew) return status('Unschedulable', PLUGIN.PodTopologySpread, ERR_SPREAD);
  }
  return undefined;
}

// ------------------------------------------------------------------------------ InterPodAffinity

/** `mergeAffinityTermNamespacesIfNotEmpty`: a non-empty namespaceSelector becomes the namespaces it selects. */
function mergeNamespaces(h: PluginHandle, t: AffinityTerm): AffinityTerm {
  if (t.nsSelector.empty() || t.nsSelector.nothing) return t;
  const namespaces = new Set(t.namespaces);
  for (const ns of h.namespaces.list()) if (t.nsSelector.matches(ns.metadata.labels)) namespaces.add(ns.metadata.name!);
  return { ...t, namespaces, nsSelector: nothing() };
}

function bumpPair(m: Map<string, number>, ni: NodeInfo, key: string, by: number): void {
  const v = ni.labels[key];
  if (v === undefined) return;
  const k = pair(key, v);
  const n = (m.get(k) ?? 0) + by;
  if (n === 0) m.delete(k);
  else m.set(k, n);
}

function matchesAll(terms: AffinityTerm[], p: PodInfo): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatches(t, p, undefined)) return false;
  return true;
}

/** `preFilterState.updateWithPod`: count (or uncount) one existing pod on `ni`. */
function interPodUpdate(st: InterPodState, incoming: PodInfo, p: PodInfo, ni: NodeInfo, by: number): void {
  for (const t of p.requiredAntiAffinityTerms) if (termMatches(t, incoming, st.nsLabels)) bumpPair(st.existingAnti, ni, t.topologyKey, by);
  if (matchesAll(st.affinityTerms, p)) for (const t of st.affinityTerms) bumpPair(st.affinity, ni, t.topologyKey, by);
  for (const t of st.antiTerms) if (termMatches(t, p, undefined)) bumpPair(st.anti, ni, t.topologyKey, by);
}

/**
 * InterPodAffinity PreFilter: counts, per topology pair, the existing pods whose required
 * anti-affinity rejects the incoming pod, and the existing pods matching the incoming pod's
 * required (anti-)affinity terms. Undefined (Skip) when there is nothing to check.
 */
function interPodPreFilter(h: PluginHandle, pi: PodInfo): InterPodState | undefined {
  const hasOwn = pi.requiredAffinityTerms.length > 0 || pi.requiredAntiAffinityTerms.length > 0;
  if (!hasOwn && h.cache.requiredAntiAffinityPods === 0) return undefined;
  const st: InterPodState = {
    existingAnti: new Map(),
    affinity: new Map(),
    anti: new Map(),
    affinityTerms: pi.requiredAffinityTerms.map((t) => mergeNamespaces(h, t)),
    antiTerms: pi.requiredAntiAffinityTerms.map((t) => mergeNamespaces(h, t)),
    nsLabels: (h.namespaces.get(undefined, pi.namespace)?.metadata.labels ?? {}) as Record<string, string>,
  };
  for (const ni of h.cache.nodeList()) {
    if (h.cache.requiredAntiAffinityPods > 0) {
      for (const p of ni.podsWithRequiredAntiAffinity) for (const t of p.requiredAntiAffinityTerms) if (termMatches(t, pi, st.nsLabels)) bumpPair(st.existingAnti, ni, t.topologyKey, 1);
    }
    if (!hasOwn) continue;
    for (const p of ni.pods) {
      if (matchesAll(st.affinityTerms, p)) for (const t of st.affinityTerms) bumpPair(st.affinity, ni, t.topologyKey, 1);
      for (const t of st.antiTerms) if (termMatches(t, p, undefined)) bumpPair(st.anti, ni, t.topologyKey, 1);
    }
  }
  if (st.existingAnti.size === 0 && !hasOwn) return undefined;
  return st;
}

function interPodFilter(st: InterPodState, pi: PodInfo, ni: NodeInfo): Status | undefined {
  // satisfyPodAffinity
  if (st.affinityTerms.length > 0) {
    let podsExist = true;
    for (const t of st.affinityTerms) {
      const v = ni.labels[t.topologyKey];
      if (v === undefined) return status('UnschedulableAndUnresolvable', PLUGIN.InterPodAffinity, ERR_AFFINITY_RULES);
      if ((st.affinity.get(pair(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
    }
    // The first pod of a group with affinity to itself may go anywhere the topology exists.
    if (!podsExist && !(st.affinity.size === 0 && matchesAll(st.affinityTerms, pi))) {
      return status('UnschedulableAndUnresolvable', PLUGIN.InterPodAffinity, ERR_AFFINITY_RULES);
    }
  }
  // satisfyPodAntiAffinity
  if (st.anti.size > 0) {
    for (const t of st.antiTerms) {
      const v = ni.labels[t.topologyKey];
      if (v !== undefined && (st.anti.get(pair(t.topologyKey, v)) ?? 0) > 0) return status('Unschedulable', PLUGIN.InterPodAffinity, ERR_ANTI_AFFINITY_RULES);
    }
  }
  // satisfyExistingPodsAntiAffinity
  if (st.existingAnti.size > 0) {
    for (const k of Object.keys(ni.labels)) {
      if ((st.existingAnti.get(pair(k, ni.labels[k])) ?? 0) > 0) return status('Unschedulable', PLUGIN.InterPodAffinity, ERR_EXISTING_ANTI_AFFINITY);
    }
  }
  return undefined;
}

// ------------------------------------------------------------------------------ PreFilter extensions

/** A copy of the state whose counts `addPod`/`removePod` may change (preemption dry runs). */
export function cloneState(s: CycleState): CycleState {
  return {
    ...s,
    spread: s.spread ? { ...s.spread, pairCount: new Map(s.spread.pairCount), minByKey: new Map(s.spread.minByKey) } : undefined,
    interPod: s.interPod ? { ...s.interPod, existingAnti: new Map(s.interPod.existingAnti), affinity: new Map(s.interPod.affinity), anti: new Map(s.interPod.anti) } : undefined,
  };
}

/**
 * `RunPreFilterExtensionAddPod` / `RemovePod` (+1 / -1): keep PodTopologySpread's and
 * InterPodAffinity's counts right when a pod is added to or removed from `ni` in a dry run.
 */
export function updateStateWithPod(s: CycleState, p: PodInfo, ni: NodeInfo, by: 1 | -1): void {
  if (s.spread) {
    for (const c of s.spread.constraints) {
      if (p.namespace !== s.pi.namespace || p.terminating || !c.selector.matches(p.labels) || !s.spread.eligible(ni, c)) continue;
      const k = pair(c.topologyKey, ni.labels[c.topologyKey]);
      s.spread.pairCount.set(k, (s.spread.pairCount.get(k) ?? 0) + by);
      recomputeMin(s.spread, c.topologyKey);
    }
  }
  if (s.interPod) interPodUpdate(s.interPod, s.pi, p, ni, by);
}

// ------------------------------------------------------------------------------ scoring

/** `helper.DefaultNormalizeScore`: scale to 0..100 by the maximum; `reverse` flips it. */
function defaultNormalize(scores: Float64Array, n: number, reverse: boolean): void {
  let max = 0;
  for (let i = 0; i < n; i++) if (scores[i] > max) max = scores[i];
  if (max === 0) {
    if (reverse) scores.fill(MAX_SCORE, 0, n);
    return;
  }
  for (let i = 0; i < n; i++) {
    const s = Math.trunc((MAX_SCORE * scores[i]) / max);
    scores[i] = reverse ? MAX_SCORE - s : s;
  }
}

/** `leastRequestedScore`: ((capacity - requested) * 100) / capacity, 0 when over capacity. */
function leastRequested(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_SCORE) / capacity);
}

/** total += raw * weight. */
function addWeighted(total: Float64Array, raw: Float64Array, n: number, w: number): void {
  for (let i = 0; i < n; i++) total[i] += raw[i] * w;
}

/** Recently seen request numbers (nonZeroCPU, nonZeroMemory, milliCPU, memory, id), newest first. */
const recentFitInputs: number[][] = [];
let nextFitSig = 1;

/**
 * The signature of a pod's four request numbers that the fit and balanced scores read
 * (`SchedulerCache.fitSig`): the id of equal numbers among the recently seen ones, else a new id
 * (ids are never reused, so equal ids mean equal numbers). Always >= 1.
 */
function fitSignature(nzCPU: number, nzMem: number, cpu: number, mem: number): number {
  for (let i = 0; i < recentFitInputs.length; i++) {
    const f = recentFitInputs[i];
    if (f[0] === nzCPU && f[1] === nzMem && f[2] === cpu && f[3] === mem) {
      if (i > 0) {
        recentFitInputs.splice(i, 1);
        recentFitInputs.unshift(f);
      }
      return f[4];
    }
  }
  const f = [nzCPU, nzMem, cpu, mem, nextFitSig++];
  recentFitInputs.unshift(f);
  if (recentFitInputs.length > RECENT_FILTER_INPUTS) recentFitInputs.pop();
  return f[4];
}

/** Scratch buffers reused across cycles (scoring runs once per cycle, never re-entered). */
let scratchTotal = new Float64Array(256);
let scratchRaw = new Float64Array(256);

/**
 * Score the feasible nodes (`RunScorePlugins`): each plugin's normalised score times its weight,
 * summed per node. Returns the totals, index-aligned with `nodes` (a buffer reused by the next
 * call: read it before scoring again).
 */
export function scoreNodes(h: PluginHandle, s: CycleState, nodes: NodeInfo[], nodeIds?: Int32Array): Float64Array {
  const n = nodes.length;
  let ids = nodeIds;
  if (!ids) {
    ids = new Int32Array(n);
    for (let i = 0; i < n; i++) ids[i] = nodes[i].id;
  }
  const c = h.cache;
  if (scratchTotal.length < n) {
    scratchTotal = new Float64Array(n * 2);
    scratchRaw = new Float64Array(n * 2);
  }
  const total = scratchTotal;
  const raw = scratchRaw;
  const pi = s.pi;
  // Every weighted plugin score is an integer (normalised with Math.trunc, times an integer
  // weight) and a node's total stays far below 2^53, so the sums are exact in any order: the
  // passes below add the plugins in fewer loops (a score equal on every node is carried in
  // `everyNode` and added with the next pass), giving the same totals.
  let everyNode = 0;

  // One pass: TaintToleration's raw counts (intolerable PreferNoSchedule taints, fewer is better)
  // into `raw`, and NodeResourcesFit LeastAllocated (cpu and memory, weight 1 each, non-zero
  // requests) + NodeResourcesBalancedAllocation (1 - std of the cpu/memory fractions of the real
  // requests; skipped for BestEffort pods) as each node's first total.
  // The fit score per node is memoised in the cache (see `SchedulerCache.fitGen`): between two
  // cycles only the nodes that changed recompute it (five float divisions per node otherwise).
  let preferTolerations: Toleration[] | undefined;
  let anyPrefer = false;
  const pNzCPU = pi.nonZeroCPU;
  const pNzMem = pi.nonZeroMemory;
  const pCPU = pi.requests.milliCPU;
  const pMem = pi.requests.memory;
  const fitSig = fitSignature(pNzCPU, pNzMem, pCPU, pMem);
  const balanced = pCPU > 0 || pMem > 0;
  const wFit = W_FIT;
  const wBal = W_BALANCED;
  // Per node, the cache's per-node arrays are read first (see `SchedulerCache.nodeGen`): while
  // the memo holds, the NodeInfo object itself is not loaded.
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    // TaintToleration; no PreferNoSchedule taint (the count is kept by setNode): nothing to count.
    if ((id >= 0 ? c.preferTaints[id] : nodes[i].preferNoScheduleTaints) === 0) raw[i] = 0;
    else {
      const taints = nodes[i].taints;
      let count = 0;
      for (let j = 0; j < taints.length; j++) {
        const t = taints[j];
        if (t.effect !== 'PreferNoSchedule') continue;
        preferTolerations ??= s.tolerations.filter((x) => !x.effect || x.effect === 'PreferNoSchedule');
        if (!tolerated(preferTolerations, t)) count++;
      }
      raw[i] = count;
      if (count > 0) anyPrefer = true;
    }
    // NodeResourcesFit + NodeResourcesBalancedAllocation.
    if (id >= 0 && c.fitGen[id] === c.nodeGen[id] && c.fitSig[id] === fitSig) {
      total[i] = c.fitScore[id];
      continue;
    }
    const ni = nodes[i];
    const aCPU = ni.allocatable.milliCPU;
    const aMem = ni.allocatable.memory;
    let sum = 0;
    let weights = 0;
    if (aCPU > 0) {
      sum += leastRequested(ni.nonZeroCPU + pNzCPU, aCPU);
      weights++;
    }
    if (aMem > 0) {
      sum += leastRequested(ni.nonZeroMemory + pNzMem, aMem);
      weights++;
    }
    let t = (weights === 0 ? 0 : Math.trunc(sum / weights)) * wFit;
    if (balanced) {
      let std = 0;
      if (aCPU > 0 && aMem > 0) {
        const fc = Math.min(1, (ni.requested.milliCPU + pCPU) / aCPU);
        const fm = Math.min(1, (ni.requested.memory + pMem) / aMem);
        std = Math.abs((fc - fm) / 2);
      }
      t += Math.trunc((1 - std) * MAX_SCORE) * wBal;
    }
    if (id >= 0) {
      c.fitGen[id] = c.nodeGen[id];
      c.fitSig[id] = fitSig;
      c.fitScore[id] = t;
    }
    total[i] = t;
  }
  if (anyPrefer) {
    defaultNormalize(raw, n, true);
    addWeighted(total, raw, n, W_TAINT);
  } else {
    // Every node scores the maximum (DefaultNormalizeScore with reverse and no taint anywhere).
    everyNode += MAX_SCORE * W_TAINT;
  }

  // NodeAffinity (plugins/nodeaffinity): the weights of the preferred terms a node matches.
  const preferred = pi.pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution as { weight?: number; preference?: NodeSelectorTerm }[] | undefined;
  if (preferred && preferred.length > 0) {
    const terms = preferred.map((p) => ({ weight: p.weight ?? 0, match: compileNodeSelectorTerm(p.preference ?? {}) }));
    for (let i = 0; i < n; i++) {
      let sc = 0;
      for (const t of terms) if (t.match(nodes[i].labels, nodes[i].name)) sc += t.weight;
      raw[i] = sc;
    }
    defaultNormalize(raw, n, false);
    addWeighted(total, raw, n, W_NODE_AFFINITY);
  }

  // PodTopologySpread (plugins/podtopologyspread/scoring.go).
  if (spreadScore(h, s, nodes, ids, raw)) {
    const w = W_SPREAD;
    const add = everyNode;
    for (let i = 0; i < n; i++) total[i] += raw[i] * w + add;
    everyNode = 0;
  }

  // InterPodAffinity (plugins/interpodaffinity/scoring.go).
  if (interPodScore(h, s, nodes, raw)) addWeighted(total, raw, n, W_INTERPOD);
  if (everyNode !== 0) for (let i = 0; i < n; i++) total[i] += everyNode;
  return total;
}

/**
 * PodTopologySpread scoring: for each soft constraint (or the system defaults with the pod's
 * DefaultSelector), a node scores `count * log(domains + 2) + maxSkew - 1`, where count is the
 * matching pods on the node (hostname) or in its domain; normalised so fewer is better.
 * Returns false (Skip) when there is no constraint.
 */
function spreadScore(h: PluginHandle, s: CycleState, nodes: NodeInfo[], ids: Int32Array, raw: Float64Array): boolean {
  const pod = s.pod;
  const pi = s.pi;
  let constraints: SpreadConstraint[];
  let requireAll: boolean;
  if ((pod.spec?.topologySpreadConstraints ?? []).length > 0) {
    constraints = podSpreadConstraints(pod, 'ScheduleAnyway');
    requireAll = true;
  } else {
    const sel = defaultSelector(h, pi);
    if (sel.empty()) return false;
    // With no zone label on any node the zone constraint adds the same to every node: leave it out.
    constraints = defaultConstraints(sel, h.cache.zonedNodes > 0);
    requireAll = false;
  }
  const m = constraints.length;
  if (m === 0) return false;
  const n = nodes.length;
  // Per constraint: its key, whether it is the hostname one, its pod counter, its domain size.
  const keys: string[] = [];
  const isHost: boolean[] = [];
  const counters: PodCounter[] = [];
  const topoSize: number[] = [];
  for (let j = 0; j < m; j++) {
    keys.push(constraints[j].topologyKey);
    isHost.push(constraints[j].topologyKey === LABEL_HOSTNAME);
    counters.push(h.cache.counter(pi.namespace, constraints[j].selector));
    topoSize.push(0);
  }
  let ignoredCount = 0;
  let pairCounts: Map<string, number> | undefined;
  const onlyHost = !requireAll && isHost.every(Boolean);
  for (let i = 0; i < n && !onlyHost; i++) {
    const ni = nodes[i];
    if (requireAll) {
      let all = true;
      for (let j = 0; j < m; j++) if (labelOf(ni, keys[j]) === undefined) all = false;
      if (!all) {
        ignoredCount++;
        continue;
      }
    }
    for (let j = 0; j < m; j++) {
      if (isHost[j]) continue;
      const v = labelOf(ni, keys[j]);
      if (v === undefined) continue;
      const k = pair(keys[j], v);
      pairCounts ??= new Map();
      if (!pairCounts.has(k)) {
        pairCounts.set(k, 0);
        topoSize[j]++;
      }
    }
  }
  const weights: number[] = [];
  for (let j = 0; j < m; j++) weights.push(Math.log((isHost[j] ? n - ignoredCount : topoSize[j]) + 2));
  // Domain counts over every node that passes the inclusion policies and has all keys.
  if (pairCounts) {
    const eligible = spreadEligibility(s.affinity, s.tolerations, constraints);
    for (const ni of h.cache.nodeList()) {
      for (let j = 0; j < m; j++) {
        if (isHost[j] || !eligible(ni, constraints[j])) continue;
        const k = pair(keys[j], ni.labels[keys[j]]);
        const cur = pairCounts.get(k);
        if (cur !== undefined) pairCounts.set(k, cur + counters[j].count(ni));
      }
    }
  }
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  if (m === 1 && isHost[0]) {
    // One constraint, by hostname (the system default spreading without zones, or a pod's own
    // hostname constraint): the loop below with its one iteration written out. `labelOf` of the
    // hostname key is `ni.hostname` (the cache keeps whether it is set in `hasHostname`), `count`
    // is the counter's per-node entry, and 0 + x === x.
    const perNode = counters[0].perNode;
    const w = weights[0];
    const skew1 = constraints[0].maxSkew - 1;
    const hasHostname = h.cache.hasHostname;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      let r = 0;
      if (id >= 0 ? hasHostname[id] === 1 : nodes[i].hostname !== undefined) r = Math.round((perNode[id] ?? 0) * w + skew1);
      else if (requireAll) {
        raw[i] = -1;
        continue;
      }
      raw[i] = r;
      if (r < min) min = r;
      if (r > max) max = r;
    }
    normalizeSpread(raw, n, min, max);
    return true;
  }
  for (let i = 0; i < n; i++) {
    const ni = nodes[i];
    if (requireAll) {
      let all = true;
      for (let j = 0; j < m; j++) if (labelOf(ni, keys[j]) === undefined) all = false;
      if (!all) {
        raw[i] = -1;
        continue;
      }
    }
    let score = 0;
    for (let j = 0; j < m; j++) {
      const v = labelOf(ni, keys[j]);
      if (v === undefined) continue;
      const cnt = isHost[j] ? counters[j].count(ni) : (pairCounts?.get(pair(keys[j], v)) ?? 0);
      score += cnt * weights[j] + (constraints[j].maxSkew - 1);
    }
    const r = Math.round(score);
    raw[i] = r;
    if (r < min) min = r;
    if (r > max) max = r;
  }
  normalizeSpread(raw, n, min, max);
  return true;
}

/** Per-value memo of `normalizeSpread` within one call: the call's stamp, and the value. */
const NORM_MEMO_SIZE = 4096;
const normStamp = new Int32Array(NORM_MEMO_SIZE);
const normValue = new Float64Array(NORM_MEMO_SIZE);
let normCall = 0;

/**
 * PodTopologySpread `NormalizeScore`: a node left out (raw -1) scores 0; otherwise
 * `100 * (max + min - raw) / max`, truncated (every node 100 when max is 0). The value depends
 * only on `raw` within one call (min and max are fixed), and raw scores are small integers
 * (`Math.round` of counts), so each distinct raw value below NORM_MEMO_SIZE is divided once
 * per call and the result reused; larger values are computed directly. Same numbers.
 */
function normalizeSpread(raw: Float64Array, n: number, min: number, max: number): void {
  if (max === 0) {
    for (let i = 0; i < n; i++) raw[i] = raw[i] < 0 ? 0 : MAX_SCORE;
    return;
  }
  normCall = (normCall + 1) | 0;
  if (normCall === 0) {
    normStamp.fill(0);
    normCall = 1;
  }
  const call = normCall;
  for (let i = 0; i < n; i++) {
    const r = raw[i];
    if (r < 0) {
      raw[i] = 0;
      continue;
    }
    if (r < NORM_MEMO_SIZE) {
      if (normStamp[r] === call) {
        raw[i] = normValue[r];
        continue;
      }
      const v = Math.trunc((MAX_SCORE * (max + min - r)) / max);
      normStamp[r] = call;
      normValue[r] = v;
      raw[i] = v;
      continue;
    }
    raw[i] = Math.trunc((MAX_SCORE * (max + min - r)) / max);
  }
}

const defaultConstraintCache = new WeakMap<Selector, [SpreadConstraint[], SpreadConstraint[]]>();

/** The system default constraints with a pod's DefaultSelector (memoised per selector), with or without the zone one. */
function defaultConstraints(sel: Selector, withZone: boolean): SpreadConstraint[] {
  let c = defaultConstraintCache.get(sel);
  if (!c) {
    const all = SYSTEM_DEFAULT_CONSTRAINTS.map((d) => ({ ...d, selector: sel, minDomains: 1, honorNodeAffinity: true, honorNodeTaints: false }));
    c = [all, all.filter((x) => x.topologyKey !== LABEL_ZONE)];
    defaultConstraintCache.set(sel, c);
  }
  return withZone ? c[0] : c[1];
}

/** Default `hardPodAffinityWeight` of InterPodAffinityArgs. Source: pkg/scheduler/apis/config/v1/defaults.go. */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/** InterPodAffinity scoring: add `weight` to the node's topology pair when term `t` matches `target`. */
function addTopologyWeight(topo: Map<string, number>, t: AffinityTerm, weight: number, target: PodInfo, ns: Record<string, string> | undefined, ni: NodeInfo): void {
  if (!termMatches(t, target, ns)) return;
  const v = ni.labels[t.topologyKey];
  if (v === undefined) return;
  const k = pair(t.topologyKey, v);
  topo.set(k, (topo.get(k) ?? 0) + weight);
}

/**
 * InterPodAffinity scoring: per topology pair, + the weights of the incoming pod's preferred
 * affinity terms matched by existing pods, - its preferred anti-affinity, and symmetrically the
 * existing pods' preferred terms (and required affinity, weight 1) matched by the incoming pod.
 * Normalised min..max to 0..100. Returns false (Skip) when nothing applies.
 */
function interPodScore(h: PluginHandle, s: CycleState, nodes: NodeInfo[], raw: Float64Array): boolean {
  const pi = s.pi;
  const hasConstraints = pi.preferredAffinityTerms.length + pi.preferredAntiAffinityTerms.length > 0;
  if (!hasConstraints && h.cache.podsWithAffinity === 0) return false;
  const topo = new Map<string, number>();
  const nsLabels = (h.namespaces.get(undefined, pi.namespace)?.metadata.labels ?? {}) as Record<string, string>;
  const prefAff = pi.preferredAffinityTerms.map((t) => ({ ...mergeNamespaces(h, t), weight: t.weight }));
  const prefAnti = pi.preferredAntiAffinityTerms.map((t) => ({ ...mergeNamespaces(h, t), weight: t.weight }));
  // An index loop (performance only: this runs over every node for every pod while any pod in
  // the cluster has affinity terms, and the iterator protocol allocated per node).
  const all = h.cache.nodeList();
  for (let i = 0; i < all.length; i++) {
    const ni = all[i];
    if (!hasConstraints && ni.podsWithAffinity === 0) continue;
    if (Object.keys(ni.labels).length === 0) continue;
    for (const p of ni.pods) {
      for (const t of prefAff) addTopologyWeight(topo, t, t.weight, p, undefined, ni);
      for (const t of prefAnti) addTopologyWeight(topo, t, -t.weight, p, undefined, ni);
      for (const t of p.requiredAffinityTerms) addTopologyWeight(topo, t, HARD_POD_AFFINITY_WEIGHT, pi, nsLabels, ni);
      for (const t of p.preferredAffinityTerms) addTopologyWeight(topo, t, t.weight, pi, nsLabels, ni);
      for (const t of p.preferredAntiAffinityTerms) addTopologyWeight(topo, t, -t.weight, pi, nsLabels, ni);
    }
  }
  if (topo.size === 0) return false;
  let min = Number.MAX_SAFE_INTEGER;
  let max = Number.MIN_SAFE_INTEGER;
  for (let i = 0; i < nodes.length; i++) {
    let sc = 0;
    const labels = nodes[i].labels;
    for (const k of Object.keys(labels)) sc += topo.get(pair(k, labels[k])) ?? 0;
    raw[i] = sc;
    if (sc < min) min = sc;
    if (sc > max) max = sc;
  }
  const diff = max - min;
  for (let i = 0; i < nodes.length; i++) raw[i] = diff > 0 ? Math.trunc(MAX_SCORE * ((raw[i] - min) / diff)) : 0;
  return true;
}
