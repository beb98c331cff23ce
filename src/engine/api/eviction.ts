/**
 * The pod eviction subresource (`POST /api/v1/namespaces/{ns}/pods/{name}/eviction`): a delete
 * that honours PodDisruptionBudgets. Mirrors pkg/registry/core/pod/storage/eviction.go
 * (`EvictionREST.Create`, `checkAndDecrement`, `canIgnorePDB`, `getPodDisruptionBudgets`).
 *
 * - A pod already being deleted, or one that is Succeeded, Failed or Pending, is deleted without
 *   looking at budgets.
 * - No budget selects the pod: plain delete. More than one: 500.
 * - One budget: if its status is stale (observedGeneration < generation) or it allows no
 *   disruption: 429 TooManyRequests `Cannot evict pod as it would violate the pod's disruption
 *   budget.` with a `DisruptionBudget` cause. Otherwise `status.disruptionsAllowed` is
 *   decremented and the pod recorded in `status.disruptedPods` (the disruption controller
 *   drops it again once the pod is gone or after 2 minutes), then the pod is deleted.
 * - A running pod that is not Ready may be evicted without using a disruption while the budget
 *   is healthy (`unhealthyPodEvictionPolicy` IfHealthyBudget, the default) or always
 *   (AlwaysAllow).
 */
import type { ApiServer, DeleteOptions } from './server';
import type { KubeObject } from './types';
import { ApiError, errors } from './errors';
import { selectorFromLabelSelector } from './labels';

/** The 429 message. Source: pkg/registry/core/pod/storage/eviction.go (`errors.NewTooManyRequests`). */
export const EVICTION_PDB_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

/** `MaxDisruptedPodSize`: a budget tracking this many disrupted pods refuses more. Source: eviction.go. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

/** Reason of the DisruptionAllowed condition with no disruption left. Source: pkg/apis/policy/types.go. */
const INSUFFICIENT_PODS = 'InsufficientPods';

function tooManyRequests(cause: string): ApiError {
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: EVICTION_PDB_MESSAGE,
    reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: cause }] },
    code: 429,
  });
}

function isReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
}

/** Budgets in the pod's namespace whose selector matches its labels (a nil selector matches nothing). */
export function podDisruptionBudgetsFor(api: ApiServer, pod: KubeObject): KubeObject[] {
  const out: KubeObject[] = [];
  for (const pdb of api.list('poddisruptionbudgets', { namespace: pod.metadata.namespace }).items) {
    const ls = pdb.spec?.selector;
    if (!ls) continue;
    try {
      if (selectorFromLabelSelector(ls).matches(pod.metadata.labels ?? {})) out.push(pdb);
    } catch {
      // an invalid selector selects nothing
    }
  }
  return out;
}

/**
 * Evict `namespace/name`: delete it unless a PodDisruptionBudget forbids it. Returns the
 * `Status` Success object. Throws 404 for a missing pod, 429 (see above), or 500 for a pod
 * covered by several budgets. `opts` are the eviction's DeleteOptions (grace period, dry run).
 */
export function evictPod(api: ApiServer, namespace: string, name: string, opts: DeleteOptions = {}): KubeObject {
  const pod = api.get('pods', namespace, name);
  const success = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } as unknown as KubeObject;
  const phase = pod.status?.phase;
  const canIgnorePDB = !!pod.metadata.deletionTimestamp || phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending';
  if (canIgnorePDB) {
    api.delete('pods', namespace, name, opts);
    return success;
  }
  const pdbs = podDisruptionBudgetsFor(api, pod);
  if (pdbs.length > 1) throw errors.internal('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  if (pdbs.length === 1) {
    const pdb = pdbs[0];
    const st = pdb.status ?? {};
    const policy = pdb.spec?.unhealthyPodEvictionPolicy ?? 'IfHealthyBudget';
    const unhealthyMayGo =
      !isReady(pod) && (policy === 'AlwaysAllow' || ((st.currentHealthy ?? 0) >= (st.desiredHealthy ?? 0) && (st.desiredHealthy ?? 0) > 0));
    if (!unhealthyMayGo) {
      if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
        throw tooManyRequests(`The disruption budget ${pdb.metadata.name} is still being processed by the server.`);
      }
      const allowed = st.disruptionsAllowed ?? 0;
      if (allowed < 0) throw errors.forbidden('pods', '', name, 'pdb disruptions allowed is negative');
      if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
        throw errors.forbidden('pods', '', name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
      }
      if (allowed === 0) {
        throw tooManyRequests(`The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`);
      }
      if (!opts.dryRun) {
        const next = { ...st, disruptionsAllowed: allowed - 1, disruptedPods: { ...(st.disruptedPods ?? {}), [name]: api.clock.rfc3339() } };
        if (next.disruptionsAllowed === 0) {
          next.conditions = (st.conditions ?? []).map((c: { type: string; status: string }) =>
            c.type === 'DisruptionAllowed' && c.status !== 'False'
              ? { ...c, status: 'False', reason: INSUFFICIENT_PODS, message: '', lastTransitionTime: api.clock.rfc3339() }
              : c,
          );
        }
        // A conflicting status write is what the real server retries; here the write is synchronous.
        api.updateStatus({ ...pdb, status: next }, { fieldManager: 'kube-apiserver' });
      }
    }
  }
  api.delete('pods', namespace, name, opts);
  return success;
}
