/**
 * A Job's `spec.podFailurePolicy`: which rule a failed pod matches, and what that means.
 *
 * Mirrors pkg/controller/job/pod_failure_policy.go (`matchPodFailurePolicy`,
 * `matchOnExitCodes`, `matchOnPodConditions`, `getMatchingContainerFromList`,
 * `isOnExitCodesOperatorMatching`) and `getFailJobMessage` of job_controller.go, Kubernetes
 * 1.32-1.36. Rules are tried in order; the first that matches decides:
 *
 *   - `FailJob`: the whole Job fails (reason `PodFailurePolicy`) with a message naming the
 *     container and exit code, or the pod condition, and the rule's index;
 *   - `Ignore`: the failure is not counted toward `backoffLimit` (the pod is still replaced);
 *   - `Count`: counted as usual (also what happens when no rule matches);
 *   - `FailIndex`: counted; failing the index needs `backoffLimitPerIndex` (not simulated).
 *
 * `onExitCodes` looks at terminated containers (regular ones first, then init containers) with a
 * non-zero exit code, optionally only the named one; `onPodConditions` at the pod's conditions
 * (e.g. `DisruptionTarget=True` set by taint eviction, preemption or the pod GC).
 */
import type { KubeObject } from '../api/types';

/** The outcome of matching one failed pod (`matchPodFailurePolicy`'s three results). */
export interface PodFailurePolicyMatch {
  /** The Job failure message when a `FailJob` rule matched. */
  failJobMessage?: string;
  /** Whether the failure counts toward `backoffLimit` (false only for `Ignore`). */
  countFailed: boolean;
  /** The matched rule's action, when a rule matched. */
  action?: 'FailJob' | 'Ignore' | 'Count' | 'FailIndex';
}

interface ExitCodesRequirement {
  containerName?: string;
  operator?: string;
  values?: number[];
}

interface ContainerStatusLike {
  name: string;
  state?: { terminated?: { exitCode?: number } };
}

/** `isOnExitCodesOperatorMatching`: `In` / `NotIn` over the listed values; other operators never match. */
function operatorMatches(exitCode: number, req: ExitCodesRequirement): boolean {
  const values = req.values ?? [];
  if (req.operator === 'In') return values.includes(exitCode);
  if (req.operator === 'NotIn') return !values.includes(exitCode);
  return false;
}

/** `getMatchingContainerFromList`: the first terminated, non-zero, matching container status. */
function matchingContainer(list: ContainerStatusLike[] | undefined, req: ExitCodesRequirement): ContainerStatusLike | undefined {
  for (const cs of list ?? []) {
    const t = cs.state?.terminated;
    if (!t) continue;
    if (req.containerName !== undefined && req.containerName !== null && req.containerName !== cs.name) continue;
    const code = t.exitCode ?? 0;
    if (code !== 0 && operatorMatches(code, req)) return cs;
  }
  return undefined;
}

/**
 * `matchPodFailurePolicy`: match a failed pod against a Job's `spec.podFailurePolicy`
 * (undefined policy: counted, no action). Source: pkg/controller/job/pod_failure_policy.go.
 */
export function matchPodFailurePolicy(policy: { rules?: unknown[] } | undefined | null, pod: KubeObject): PodFailurePolicyMatch {
  if (!policy) return { countFailed: true };
  const rules = (policy.rules ?? []) as { action?: string; onExitCodes?: ExitCodesRequirement; onPodConditions?: { type: string; status?: string }[] }[];
  const ns = pod.metadata.namespace;
  const name = pod.metadata.name;
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    let failMessage: string | undefined;
    if (rule.onExitCodes) {
      const cs = matchingContainer(pod.status?.containerStatuses, rule.onExitCodes) ?? matchingContainer(pod.status?.initContainerStatuses, rule.onExitCodes);
      if (!cs) continue;
      failMessage = `Container ${cs.name} for pod ${ns}/${name} failed with exit code ${cs.state!.terminated!.exitCode} matching FailJob rule at index ${index}`;
    } else if (rule.onPodConditions) {
      let cond: { type: string } | undefined;
      for (const pc of (pod.status?.conditions ?? []) as { type: string; status: string }[]) {
        if (rule.onPodConditions.some((p) => p.type === pc.type && (p.status ?? 'True') === pc.status)) {
          cond = pc;
          break;
        }
      }
      if (!cond) continue;
      failMessage = `Pod ${ns}/${name} has condition ${cond.type} matching FailJob rule at index ${index}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore':
        return { countFailed: false, action: 'Ignore' };
      case 'Count':
        return { countFailed: true, action: 'Count' };
      case 'FailIndex':
        return { countFailed: true, action: 'FailIndex' };
      case 'FailJob':
        return { failJobMessage: failMessage, countFailed: true, action: 'FailJob' };
      default:
        // An unknown action: the Go switch falls through to the next rule.
        continue;
    }
  }
  return { countFailed: true };
}
