/**
 * The scheduling framework's small vocabulary: plugin statuses, the default profile's plugin
 * names and score weights, and the FailedScheduling message (`FitError.Error`).
 *
 * Mirrors pkg/scheduler/framework/interface.go (`Code`, `Status`), pkg/scheduler/framework/types.go
 * (`Diagnosis`, `FitError`, `NoNodeAvailableMsg`) and pkg/scheduler/apis/config/v1/default_plugins.go
 * (the default profile). Pure data and functions: no clock, no API.
 */

/**
 * A plugin's verdict (`framework.Code`):
 * - `Unschedulable`: the node does not fit now, but preempting pods could help;
 * - `UnschedulableAndUnresolvable`: the node does not fit and preemption cannot help
 *   (taints, affinity, node name, a missing PVC);
 * - `Error`: an internal failure (the pod is retried with backoff, reason `SchedulerError`);
 * - `Skip`: a PreFilter/PreScore plugin has nothing to do for this pod.
 */
export type Code = 'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Skip';

/** A non-success plugin result: its code, the reasons shown to users, and the plugin that said it. */
export interface Status {
  code: Code;
  /** Reasons, each counted separately in the FailedScheduling histogram (e.g. `Insufficient cpu`). */
  reasons: string[];
  /** The plugin that returned it (e.g. `NodeResourcesFit`). */
  plugin: string;
}

/** Build a status. */
export function status(code: Code, plugin: string, ...reasons: string[]): Status {
  return { code, plugin, reasons };
}

/** `Status.Message()`: the reasons joined with `, `. */
export function statusMessage(s: Status): string {
  return s.reasons.join(', ');
}

/** True for Unschedulable and UnschedulableAndUnresolvable (`Status.IsRejected`). */
export function isRejected(s: Status): boolean {
  return s.code === 'Unschedulable' || s.code === 'UnschedulableAndUnresolvable';
}

/** Highest score a Score plugin gives a node (`framework.MaxNodeScore`). */
export const MAX_NODE_SCORE = 100;

/** Plugin names of the default profile (pkg/scheduler/framework/plugins/names/names.go). */
export const PLUGIN = {
  SchedulingGates: 'SchedulingGates',
  PrioritySort: 'PrioritySort',
  NodeUnschedulable: 'NodeUnschedulable',
  NodeName: 'NodeName',
  TaintToleration: 'TaintToleration',
  NodeAffinity: 'NodeAffinity',
  NodePorts: 'NodePorts',
  NodeResourcesFit: 'NodeResourcesFit',
  VolumeBinding: 'VolumeBinding',
  PodTopologySpread: 'PodTopologySpread',
  InterPodAffinity: 'InterPodAffinity',
  DefaultPreemption: 'DefaultPreemption',
  NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
  DefaultBinder: 'DefaultBinder',
} as const;

/**
 * Score weights of the default profile's MultiPoint plugins.
 * Source: pkg/scheduler/apis/config/v1/default_plugins.go (`getDefaultPlugins`): TaintToleration 3,
 * NodeAffinity 2, NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2,
 * NodeResourcesBalancedAllocation 1 (ImageLocality 1 is not simulated: nodes report no images).
 */
export const SCORE_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  TaintToleration: 3,
  NodeAffinity: 2,
  NodeResourcesFit: 1,
  PodTopologySpread: 2,
  InterPodAffinity: 2,
  NodeResourcesBalancedAllocation: 1,
});

/** `NoNodeAvailableMsg`: `0/%v nodes are available`. Source: pkg/scheduler/framework/types.go. */
export function noNodeAvailableMsg(numAllNodes: number): string {
  return `0/${numAllNodes} nodes are available`;
}

/** `ErrNoNodesAvailable`. Source: pkg/scheduler/schedule_one.go. */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/**
 * Why a scheduling attempt found no node (`framework.Diagnosis`): the status of every node a
 * filter rejected, a status for the nodes not in the map (PreFilter rejections apply to all), the
 * PreFilter message, the plugins that rejected the pod and the PostFilter (preemption) message.
 */
export interface Diagnosis {
  /** Node name -> the first failing filter's status. */
  nodeToStatus: Map<string, Status>;
  /** Status of nodes absent from `nodeToStatus` (`NodeToStatus.AbsentNodesStatus`). */
  absentStatus?: Status;
  /** Set when a PreFilter plugin rejected the pod; the histogram is then left out. */
  preFilterMsg?: string;
  /** Plugins that returned Unschedulable(AndUnresolvable), for the queueing hints. */
  unschedulablePlugins: Set<string>;
  /** `preemption: ...`, appended as is. */
  postFilterMsg?: string;
}

/** Go's `sort.Strings` order (byte-wise; the reasons are ASCII). */
function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `FitError.Error()`: `0/N nodes are available: <PreFilterMsg>.` or
 * `0/N nodes are available: <count> <reason>, ....` (entries sorted as strings, so
 * `1 node(s) ...` sorts before `2 Insufficient cpu` and `10 ...` before `2 ...`), then
 * ` <PostFilterMsg>` when preemption ran. Source: pkg/scheduler/framework/types.go.
 */
export function fitErrorMessage(numAllNodes: number, d: Diagnosis): string {
  let msg = `${noNodeAvailableMsg(numAllNodes)}:`;
  if (d.preFilterMsg) {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const reasons = new Map<string, number>();
    for (const s of d.nodeToStatus.values()) for (const r of s.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
    const absent = numAllNodes - d.nodeToStatus.size;
    if (absent > 0 && d.absentStatus) for (const r of d.absentStatus.reasons) reasons.set(r, (reasons.get(r) ?? 0) + absent);
    const entries: string[] = [];
    for (const [r, n] of reasons) entries.push(`${n} ${r}`);
    entries.sort(byteCompare);
    if (entries.length > 0) msg += ` ${entries.join(', ')}.`;
  }
  if (d.postFilterMsg) msg += ` ${d.postFilterMsg}`;
  return msg;
}

/**
 * Longest Event message the scheduler records (`validation.NoteLengthLimit`, 1024 bytes); longer
 * ones are cut and end with ` ...`. Source: pkg/scheduler/schedule_one.go (`truncateMessage`).
 */
export const NOTE_LENGTH_LIMIT = 1024;

/** `truncateMessage`. */
export function truncateMessage(message: string): string {
  if (message.length <= NOTE_LENGTH_LIMIT) return message;
  const suffix = ' ...';
  return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}
