/**
 * disruption-controller: keeps every PodDisruptionBudget's status current, which is what the
 * eviction subresource (api/eviction.ts) reads to allow or refuse an eviction.
 *
 * Mirrors pkg/controller/disruption/disruption.go:
 *
 *   informers (poddisruptionbudgets, pods, replicationcontrollers, replicasets, deployments,
 *   statefulsets) -> pdb add/update/delete and pod add/update/delete enqueue the budget(s)
 *   selecting the pod -> one worker -> `trySync(pdb)`:
 *     1. pods = the budget's namespace's pods its selector matches (a nil selector: none)
 *     2. no pods: Event NoPods "No matching pods found"
 *     3. `getExpectedPodCount`: with `minAvailable` as a number, expected = number of pods and
 *        desiredHealthy = minAvailable; with `maxUnavailable`, or `minAvailable` as a percentage,
 *        expected = the sum of the pods' controllers' `spec.replicas` (Deployment through its
 *        ReplicaSets, ReplicaSet, ReplicationController, StatefulSet, or any kind with a scale
 *        subresource), rounded up, and desiredHealthy = expected - maxUnavailable (or the
 *        percentage of expected). A pod with a controller of another kind: `found no
 *        controllers for pod "x"`, the failsafe status (no disruption allowed, SyncFailed).
 *     4. currentHealthy = Ready pods that are not terminating and were not evicted in the last
 *        2 minutes (`status.disruptedPods`)
 *     5. status: disruptionsAllowed = currentHealthy - desiredHealthy (never below 0, 0 when no
 *        pods are expected), condition DisruptionAllowed True SufficientPods / False
 *        InsufficientPods, observedGeneration.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import { selectorFromLabelSelector, type Selector } from '../api/labels';
import { parseRfc3339 } from '../clock';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import { metaNamespaceKey } from '../client/informer';
import { getControllerOf, isPodReady } from './util';

/** Component name (Event source). Source: disruption.go (`"controllermanager"` recorder is `disruption-controller`). */
export const DISRUPTION_CONTROLLER = 'disruption-controller';

/**
 * How long an eviction's entry in `status.disruptedPods` keeps the pod out of currentHealthy if
 * the pod is not deleted: 2 minutes. Source: disruption.go (`DeletionTimeout`). Setting
 * `pdbDeletionTimeoutMs`.
 */
export const PDB_DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** The condition type and reasons. Source: staging/src/k8s.io/api/policy/v1/types.go. */
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';
/** Reasons of the DisruptionAllowed condition (policy/v1 `SufficientPodsReason`, ...). */
export const PDB_REASONS = { sufficientPods: 'SufficientPods', insufficientPods: 'InsufficientPods', syncFailed: 'SyncFailed' } as const;

const FIELD_MANAGER = { fieldManager: 'kube-controller-manager' };

/** `metav1.Condition` as the PDB status stores it. */
interface Condition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/**
 * `intstr.GetScaledValueFromIntOrPercent`: a number as is, `"N%"` of `total` (rounded up when
 * `roundUp`). Throws on a malformed value.
 */
export function scaledValue(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** Start the disruption controller. Source: disruption.go (`NewDisruptionController`, `Run`: one worker). */
export function newDisruptionController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(DISRUPTION_CONTROLLER);
  const deletionTimeoutMs = ctx.setting('pdbDeletionTimeoutMs', PDB_DELETION_TIMEOUT_MS);
  const queue = new RateLimitingQueue(clock, { name: 'disruption' });
  const pdbInformer = ctx.informers.informer('poddisruptionbudgets');
  const podInformer = ctx.informers.informer('pods');
  const rcInformer = ctx.informers.informer('replicationcontrollers');
  const rsInformer = ctx.informers.informer('replicasets');
  const dInformer = ctx.informers.informer('deployments');
  const ssInformer = ctx.informers.informer('statefulsets');

  const selectorCache = new WeakMap<object, Selector | null>();
  const selectorOf = (pdb: KubeObject): Selector | null => {
    const ls = pdb.spec?.selector;
    if (!ls) return null;
    let sel = selectorCache.get(ls);
    if (sel === undefined) {
      try {
        sel = selectorFromLabelSelector(ls);
      } catch {
        sel = null;
      }
      selectorCache.set(ls, sel);
    }
    return sel;
  };

  /** `getPdbForPod`: the budgets selecting a pod (the real controller enqueues the first). */
  const pdbsForPod = (pod: KubeObject): KubeObject[] =>
    pdbInformer.lister.list(pod.metadata.namespace).filter((pdb) => selectorOf(pdb)?.matches(pod.metadata.labels ?? {}) ?? false);

  const enqueuePod = (pod: KubeObject) => {
    const first = pdbsForPod(pod)[0];
    if (first) queue.add(metaNamespaceKey(first));
  };

  const regs = [
    pdbInformer.addEventHandler({
      onAdd: (pdb) => queue.add(metaNamespaceKey(pdb)),
      onUpdate: (_o, pdb) => queue.add(metaNamespaceKey(pdb)),
      onDelete: (pdb) => queue.add(metaNamespaceKey(pdb)),
    }),
    podInformer.addEventHandler({
      onAdd: enqueuePod,
      onUpdate: (old, cur) => {
        enqueuePod(cur);
        if (!deepEqual(old.metadata.labels, cur.metadata.labels)) enqueuePod(old);
      },
      onDelete: enqueuePod,
    }),
  ];

  const trace = (pdb: KubeObject, message: string, kind?: 'Warning') =>
    ctx.trace(DISRUPTION_CONTROLLER, message, { kind: 'PodDisruptionBudget', namespace: pdb.metadata.namespace, name: pdb.metadata.name!, uid: pdb.metadata.uid }, kind);

  /** The controller a pod counts for, with its scale (`finders`). Undefined: no finder knows it. */
  function controllerScale(pod: KubeObject): { uid: string; scale: number } | undefined {
    const ref = getControllerOf(pod)!;
    const ns = pod.metadata.namespace;
    const same = (o: KubeObject | undefined, uid: string) => (o && o.metadata.uid === uid ? o : undefined);
    switch (ref.kind) {
      case 'ReplicaSet': {
        const rs = same(rsInformer.lister.get(ns, ref.name), ref.uid);
        if (!rs) return undefined;
        const dref = getControllerOf(rs);
        if (dref?.kind === 'Deployment') {
          const d = same(dInformer.lister.get(ns, dref.name), dref.uid);
          return d ? { uid: d.metadata.uid!, scale: d.spec?.replicas ?? 1 } : undefined;
        }
        return { uid: rs.metadata.uid!, scale: rs.spec?.replicas ?? 1 };
      }
      case 'ReplicationController': {
        const rc = same(rcInformer.lister.get(ns, ref.name), ref.uid);
        return rc ? { uid: rc.metadata.uid!, scale: rc.spec?.replicas ?? 1 } : undefined;
      }
      case 'StatefulSet': {
        const ss = same(ssInformer.lister.get(ns, ref.name), ref.uid);
        return ss ? { uid: ss.metadata.uid!, scale: ss.spec?.replicas ?? 1 } : undefined;
      }
      default: {
        // `getScaleController`: any kind with a scale subresource (custom resources).
        const t = api.registry.all().find((x) => x.kind === ref.kind && x.scale && `${x.group ? `${x.group}/` : ''}${x.version}` === ref.apiVersion);
        if (!t) return undefined;
        try {
          const s = api.getScale(t, ns, ref.name);
          return s.metadata.uid === ref.uid ? { uid: ref.uid, scale: s.spec?.replicas ?? 0 } : undefined;
        } catch (e) {
          if (e instanceof ApiError && e.code === 404) return undefined;
          throw e;
        }
      }
    }
  }

  /** `getExpectedScale`: the sum of the pods' controllers' scales; pods without a controller are unmanaged. */
  function expectedScale(pods: KubeObject[]): { expected: number; unmanaged: string[] } {
    const seen = new Set<string>();
    const unmanaged: string[] = [];
    let expected = 0;
    for (const pod of pods) {
      if (!getControllerOf(pod)) {
        unmanaged.push(pod.metadata.name!);
        continue;
      }
      const found = controllerScale(pod);
      if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name}"`);
      if (seen.has(found.uid)) continue;
      seen.add(found.uid);
      expected += found.scale;
    }
    return { expected, unmanaged };
  }

  /** `getExpectedPodCount`. */
  function expectedPodCount(pdb: KubeObject, pods: KubeObject[]): { expected: number; desired: number; unmanaged: string[] } {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    if (maxUnavailable !== undefined && maxUnavailable !== null) {
      const { expected, unmanaged } = expectedScale(pods);
      const max = scaledValue(maxUnavailable, expected, true);
      return { expected, desired: Math.max(0, expected - max), unmanaged };
    }
    if (typeof minAvailable === 'number') return { expected: pods.length, desired: minAvailable, unmanaged: [] };
    if (typeof minAvailable === 'string') {
      const { expected, unmanaged } = expectedScale(pods);
      return { expected, desired: scaledValue(minAvailable, expected, true), unmanaged };
    }
    return { expected: pods.length, desired: 0, unmanaged: [] };
  }

  /** `setCondition` as `meta.SetStatusCondition`: lastTransitionTime moves only when the status flips. */
  function withCondition(conditions: Condition[], status: 'True' | 'False', reason: string, message: string, generation: number): Condition[] {
    const out = conditions.map((c) => ({ ...c }));
    const cur = out.find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
    if (!cur) {
      out.push({ type: DISRUPTION_ALLOWED_CONDITION, status, observedGeneration: generation, lastTransitionTime: clock.rfc3339(), reason, message });
      return out;
    }
    if (cur.status !== status) {
      cur.status = status;
      cur.lastTransitionTime = clock.rfc3339();
    }
    cur.reason = reason;
    cur.message = message;
    cur.observedGeneration = generation;
    return out;
  }

  function writeStatus(pdb: KubeObject, status: Record<string, unknown>): void {
    if (deepEqual(pdb.status ?? {}, status)) return;
    api.updateStatus({ ...pdb, status }, FIELD_MANAGER);
  }

  /** `failSafe`: no disruption allowed, condition SyncFailed with the error. */
  function failSafe(pdb: KubeObject, err: Error): void {
    const gen = pdb.metadata.generation ?? 0;
    const st = { ...(pdb.status ?? {}) };
    st.disruptionsAllowed = 0;
    st.conditions = withCondition(st.conditions ?? [], 'False', PDB_REASONS.syncFailed, err.message, gen);
    writeStatus(pdb, st);
  }

  function sync(key: string): ReconcileResult | void {
    const pdb = pdbInformer.lister.getByKey(key);
    if (!pdb) return;
    const sel = selectorOf(pdb);
    const pods = sel ? podInformer.lister.list(pdb.metadata.namespace).filter((p) => sel.matches(p.metadata.labels ?? {})) : [];
    if (pods.length === 0) recorder.event(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let counts: { expected: number; desired: number; unmanaged: string[] };
    try {
      counts = expectedPodCount(pdb, pods);
    } catch (e) {
      if (!(e instanceof Error) || e instanceof ApiError) throw e;
      recorder.event(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${e.message}`);
      failSafe(pdb, e);
      return;
    }
    if (counts.unmanaged.length) trace(pdb, `found unmanaged pods associated with this PDB: ${counts.unmanaged.join(',')}`, 'Warning');

    // `buildDisruptedPodMap`: keep recent evictions of pods that still exist and are not terminating.
    const now = clock.now();
    const epoch = clock.epochMs;
    const prev: Record<string, string> = pdb.status?.disruptedPods ?? {};
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      const at = prev[pod.metadata.name!];
      if (!at) continue;
      const expires = parseRfc3339(at) - epoch + deletionTimeoutMs;
      if (expires < now) continue;
      disrupted[pod.metadata.name!] = at;
      recheckAt = recheckAt === undefined ? expires : Math.min(recheckAt, expires);
    }
    // `countHealthyPods`.
    let healthy = 0;
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp) continue;
      if (disrupted[pod.metadata.name!]) continue;
      if (isPodReady(pod)) healthy++;
    }
    let allowed = healthy - counts.desired;
    if (counts.expected <= 0 || allowed <= 0) allowed = 0;
    const gen = pdb.metadata.generation ?? 0;
    const conditions = withCondition(
      pdb.status?.conditions ?? [],
      allowed > 0 ? 'True' : 'False',
      allowed > 0 ? PDB_REASONS.sufficientPods : PDB_REASONS.insufficientPods,
      '',
      gen,
    );
    writeStatus(pdb, {
      observedGeneration: gen,
      ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
      disruptionsAllowed: allowed,
      currentHealthy: healthy,
      desiredHealthy: counts.desired,
      expectedPods: counts.expected,
      conditions,
    });
    if (recheckAt !== undefined) return { requeueAfterMs: Math.max(1, recheckAt - now) };
  }

  const workers = startWorkers(queue, sync, {
    clock,
    name: DISRUPTION_CONTROLLER,
    workers: 1,
    waitForSync: [pdbInformer, podInformer, rcInformer, rsInformer, dInformer, ssInformer],
  });

  return {
    name: DISRUPTION_CONTROLLER,
    stop() {
      for (const r of regs) r.remove();
      workers.stop();
    },
  };
}
