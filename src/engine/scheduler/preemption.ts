/**
 * DefaultPreemption, the PostFilter plugin: when no node fits a pod, find nodes where evicting
 * lower-priority pods would make room, and either nominate one (its victims are then evicted) or
 * explain why preemption cannot help, which is the `preemption: ...` half of FailedScheduling.
 *
 * Mirrors pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
 * (`PostFilter`, `SelectVictimsOnNode`, `PodEligibleToPreemptOthers`, `calculateNumCandidates`)
 * and pkg/scheduler/framework/preemption/preemption.go (`Preempt`, `findCandidates`,
 * `DryRunPreemption`, `SelectCandidate` / `pickOneNodeForPreemption`). PodDisruptionBudgets are
 * not served by this simulated API server, so no victim ever violates one.
 */
import type { KubeObject } from '../api/types';
import type { Rng } from '../clock';
import { fitErrorMessage, PLUGIN, status, type Diagnosis, type Status } from './framework';
import { podStartTime, type NodeInfo, type PodInfo } from './cache';
import { cloneState, updateStateWithPod, type CycleState } from './plugins';

/** `MinCandidateNodesPercentage` default (10). Source: pkg/scheduler/apis/config/v1/defaults.go. */
export const MIN_CANDIDATE_NODES_PERCENTAGE = 10;
/** `MinCandidateNodesAbsolute` default (100). Source: same file. */
export const MIN_CANDIDATE_NODES_ABSOLUTE = 100;

/** Reason for nodes where preemption cannot help (their filters said UnschedulableAndUnresolvable). */
export const PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
/** Reason for nodes with no lower-priority pod to evict. */
export const NO_VICTIMS = 'No preemption victims found for incoming pod';

/** The victims chosen on one node. */
export interface Candidate {
  node: string;
  victims: PodInfo[];
}

/** What DefaultPreemption decided. */
export interface PreemptionOutcome {
  /** The PostFilter message (`preemption: ...`), empty when a node was nominated. */
  message: string;
  /** The node the pod is nominated to, with the pods to evict there. */
  candidate?: Candidate;
  /** Clear the pod's nominatedNodeName (no candidate found). */
  clearNominated: boolean;
}

/** Runs the filters with the nominated pods of a node (`RunFilterPluginsWithNominatedPods`). */
export type FilterFn = (s: CycleState, ni: NodeInfo) => Status | undefined;

/** What preemption reads besides the diagnosis. */
export interface PreemptionDeps {
  rng: Rng;
  filter: FilterFn;
  allNodes: NodeInfo[];
  nodeInfo: (name: string) => NodeInfo | undefined;
  /** The pod's current nominated node ('' if none). */
  nominatedNode: string;
}

/** `MoreImportantPod`: higher priority first, then the one running longer. */
export function moreImportant(a: PodInfo, b: PodInfo): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  const ta = podStartTime(a);
  const tb = podStartTime(b);
  return ta === tb ? 0 : ta < tb ? -1 : 1;
}

/** True for a victim already being evicted by the scheduler (`podTerminatingByPreemption`). */
function terminatingByPreemption(p: KubeObject): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  const c = ((p.status?.conditions ?? []) as { type: string; status: string; reason?: string }[]).find((x) => x.type === 'DisruptionTarget');
  return !!c && c.status === 'True' && c.reason === 'PreemptionByScheduler';
}

/**
 * `SelectVictimsOnNode`: take every lower-priority pod off a copy of the node; if the pod then
 * fits, put them back from the most important down, keeping off only those it cannot fit with.
 */
export function selectVictimsOnNode(filter: FilterFn, state: CycleState, pi: PodInfo, node: NodeInfo): { victims?: PodInfo[]; status?: Status } {
  const ni = node.clone();
  const s = cloneState(state);
  const potential = ni.pods.filter((p) => p.priority < pi.priority);
  if (potential.length === 0) return { status: status('UnschedulableAndUnresolvable', PLUGIN.DefaultPreemption, NO_VICTIMS) };
  for (const p of potential) {
    ni.removePod(p.uid);
    updateStateWithPod(s, p, ni, -1);
  }
  const st = filter(s, ni);
  if (st) return { status: st };
  potential.sort(moreImportant);
  const victims: PodInfo[] = [];
  for (const p of potential) {
    ni.addPod(p);
    updateStateWithPod(s, p, ni, 1);
    if (filter(s, ni)) {
      ni.removePod(p.uid);
      updateStateWithPod(s, p, ni, -1);
      victims.push(p);
    }
  }
  return { victims };
}

/** `calculateNumCandidates`: 10% of the potential nodes, at least 100, at most all. */
function numCandidates(n: number): number {
  let k = Math.trunc((n * MIN_CANDIDATE_NODES_PERCENTAGE) / 100);
  if (k < MIN_CANDIDATE_NODES_ABSOLUTE) k = MIN_CANDIDATE_NODES_ABSOLUTE;
  return Math.min(k, n);
}

/**
 * `pickOneNodeForPreemption`: fewest PDB violations (always 0 here), then the lowest
 * highest-priority victim, the lowest sum of priorities, the fewest victims, the latest start
 * among the highest-priority victims, then the first.
 */
export function pickCandidate(cands: Candidate[]): Candidate {
  const key = (c: Candidate) => {
    const top = c.victims.length ? Math.max(...c.victims.map((v) => v.priority)) : Number.MIN_SAFE_INTEGER;
    const sum = c.victims.reduce((s, v) => s + v.priority + 2147483648, 0);
    const earliestTop = Math.min(...c.victims.filter((v) => v.priority === top).map(podStartTime));
    return [top, sum, c.victims.length, -earliestTop];
  };
  let best = cands[0];
  let bestKey = key(best);
  for (const c of cands.slice(1)) {
    const k = key(c);
    for (let i = 0; i < k.length; i++) {
      if (k[i] < bestKey[i]) {
        [best, bestKey] = [c, k];
        break;
      }
      if (k[i] > bestKey[i]) break;
    }
  }
  return best;
}

/**
 * DefaultPreemption `PostFilter` + `Evaluator.Preempt`: eligibility, then the nodes whose filter
 * status was Unschedulable (not ...AndUnresolvable) are dry-run from a random offset. With no
 * candidate the message is `preemption: 0/N nodes are available: <histogram>.`, where nodes not
 * tried count as `Preemption is not helpful for scheduling`.
 */
export function preempt(d: PreemptionDeps, state: CycleState, diagnosis: Diagnosis): PreemptionOutcome {
  const pi = state.pi;
  const pod = pi.pod;
  // PodEligibleToPreemptOthers.
  if (pod.spec?.preemptionPolicy === 'Never') return { message: 'preemption: not eligible due to preemptionPolicy=Never.', clearNominated: false };
  if (d.nominatedNode) {
    const nomStatus = diagnosis.nodeToStatus.get(d.nominatedNode) ?? diagnosis.absentStatus;
    const ni = d.nodeInfo(d.nominatedNode);
    if (ni && nomStatus?.code !== 'UnschedulableAndUnresolvable') {
      for (const p of ni.pods) {
        if (p.priority < pi.priority && terminatingByPreemption(p.pod)) {
          return { message: 'preemption: not eligible due to a terminating pod on the nominated node.', clearNominated: false };
        }
      }
    }
  }
  // findCandidates: nodes whose status is Unschedulable (absent nodes take the absent status).
  const potential = d.allNodes.filter((ni) => (diagnosis.nodeToStatus.get(ni.name) ?? diagnosis.absentStatus)?.code === 'Unschedulable');
  const statuses = new Map<string, Status>();
  const candidates: Candidate[] = [];
  if (potential.length > 0) {
    const offset = d.rng.int(0, potential.length - 1);
    const want = numCandidates(potential.length);
    for (let i = 0; i < potential.length; i++) {
      const ni = potential[(offset + i) % potential.length];
      const r = selectVictimsOnNode(d.filter, state, pi, ni);
      if (r.victims && r.victims.length > 0) {
        candidates.push({ node: ni.name, victims: r.victims });
        if (candidates.length >= want) break;
      } else {
        statuses.set(ni.name, r.status ?? status('Error', PLUGIN.DefaultPreemption, `expected at least one victim pod on node "${ni.name}"`));
      }
    }
  }
  if (candidates.length === 0) {
    const msg = fitErrorMessage(d.allNodes.length, {
      nodeToStatus: statuses,
      absentStatus: status('UnschedulableAndUnresolvable', PLUGIN.DefaultPreemption, PREEMPTION_NOT_HELPFUL),
      unschedulablePlugins: new Set(),
    });
    return { message: `preemption: ${msg}`, clearNominated: true };
  }
  return { message: '', candidate: pickCandidate(candidates), clearNominated: false };
}
