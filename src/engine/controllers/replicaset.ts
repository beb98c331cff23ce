/**
 * replicaset-controller: keeps `spec.replicas` pods running for every ReplicaSet.
 *
 * Mirrors pkg/controller/replicaset/replica_set.go (and the helpers it uses from
 * pkg/controller/controller_utils.go, controller_ref_manager.go and replica_set_utils.go):
 *
 *   informers (replicasets, pods)
 *     -> event handlers that only work out *which* ReplicaSet key to enqueue
 *        (and count the pod creations/deletions the controller was waiting for)
 *     -> work queue (5 workers, rate-limited retries)
 *     -> syncReplicaSet(key):
 *          1. read the ReplicaSet from the cache; gone -> forget its expectations, return
 *          2. were the creates/deletes of the last sync all observed ("expectations")?
 *          3. pods owned by it or orphaned in its namespace, minus inactive ones, then claim:
 *             adopt matching orphans, release owned pods that no longer match the selector
 *          4. manageReplicas (only if expectations are met and the RS is not being deleted):
 *             too few -> create in slow-start batches; too many -> delete the "cheapest" pods
 *          5. calculateStatus and write it; requeue after minReadySeconds if pods are ready but
 *             not yet available
 *
 * Level-triggered: the sync never looks at the event that woke it, only at the caches. Whatever
 * happened while the controller was down (stopped controller-manager), the next sync after the
 * relist sees the difference between spec and pods and repairs it.
 *
 * Simulation notes: the engine is single-threaded, so a slow-start "batch" issues its creates one
 * after another within the same clock event; and the pods a sync starts from come from the pod
 * cache's controller-uid index (owned pods plus the namespace's orphans), as
 * `controller.FilterPodsByOwner` does in recent releases.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import { selectorFromLabelSelector, selectorFromSet, type Selector } from '../api/labels';
import { formatRfc3339, parseRfc3339 } from '../clock';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import { metaNamespaceKey, type Informer } from '../client/informer';
import {
  CONTROLLER_UID_INDEX,
  POD_CONTROLLER_UID_INDEX,
  getControllerOf,
  indexObjectByControllerUid,
  indexPodByControllerUid,
  isNamespaceTerminatingError,
  isPodActive,
  isPodAvailable,
  isPodReady,
  newControllerRef,
  orphanPodIndexKey,
  podsPrefix,
} from './util';

/** Component name: Event `source.component` and trace prefix. */
export const REPLICASET_CONTROLLER = 'replicaset-controller';

/**
 * Creates or deletes per sync, at most. "A ReplicaSet is temporarily suspended after
 * creating/deleting these many replicas." Source: pkg/controller/replicaset/replica_set.go
 * (`BurstReplicas = 500`). Setting `replicaSetBurstReplicas`.
 */
export const BURST_REPLICAS = 500;

/**
 * First batch of the slow start (1, then 2, 4, 8, ...). Source: pkg/controller/controller_utils.go
 * (`SlowStartInitialBatchSize = 1`). Setting `replicaSetSlowStartInitialBatchSize`.
 */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/**
 * How long a sync waits for the watch events of its own creates/deletes before it acts again
 * anyway: 5 minutes. Source: pkg/controller/controller_utils.go (`ExpectationsTimeout`).
 * Setting `expectationsTimeoutMs`.
 */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Workers: kube-controller-manager `--concurrent-replicaset-syncs` (default 5).
 * Source: pkg/controller/replicaset/config/v1alpha1/defaults.go. Setting `concurrentReplicaSetSyncs`.
 */
export const CONCURRENT_REPLICASET_SYNCS = 5;

/**
 * Workers of the replication manager: `--concurrent-replicationcontroller-syncs` (default 5).
 * Source: pkg/controller/replication/config/v1alpha1/defaults.go (`ConcurrentRCSyncs`).
 * Setting `concurrentRCSyncs`.
 */
export const CONCURRENT_RC_SYNCS = 5;

/** Component name of the replication manager's Events. Source: pkg/controller/replication/replication_controller.go. */
export const REPLICATION_CONTROLLER = 'replication-controller';

/**
 * Which kind one run of this controller manages. pkg/controller/replication runs the ReplicaSet
 * controller (`replicaset.NewBaseController`) on ReplicationControllers through conversion
 * adapters; here the adapter is this description: the kind, its resource, the component name,
 * and how its `spec.selector` compiles (a LabelSelector for ReplicaSets, a plain label map for
 * ReplicationControllers).
 */
export interface ReplicatedKind {
  kind: 'ReplicaSet' | 'ReplicationController';
  /** Plural resource (`replicasets`, `replicationcontrollers`). */
  resource: string;
  /** Event source component and trace prefix. */
  component: string;
  /** Work queue name. */
  queueName: string;
  /** Settings key and default of the worker count. */
  workers: [string, number];
  /** How `spec.selector` compiles. */
  selectorFrom: (sel: unknown) => Selector;
}

/** The ReplicaSet controller's kind. */
export const REPLICASET_KIND: ReplicatedKind = {
  kind: 'ReplicaSet',
  resource: 'replicasets',
  component: REPLICASET_CONTROLLER,
  queueName: 'replicaset',
  workers: ['concurrentReplicaSetSyncs', CONCURRENT_REPLICASET_SYNCS],
  selectorFrom: (sel) => selectorFromLabelSelector(sel as Parameters<typeof selectorFromLabelSelector>[0]),
};

/** The replication manager's kind (ReplicationController: `spec.selector` is a label map). */
export const REPLICATIONCONTROLLER_KIND: ReplicatedKind = {
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  component: REPLICATION_CONTROLLER,
  queueName: 'replicationmanager',
  workers: ['concurrentRCSyncs', CONCURRENT_RC_SYNCS],
  selectorFrom: (sel) => selectorFromSet(sel as Record<string, string> | undefined),
};

/** Status writes retried once with a fresh GET. Source: replica_set_utils.go (`statusUpdateRetries = 1`). */
export const STATUS_UPDATE_RETRIES = 1;

/** `controller.kubernetes.io/pod-deletion-cost`: lower cost, deleted first. Source: k8s.io/api/core/v1 annotation_key_constants.go. */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/** Event reasons. Source: pkg/controller/controller_utils.go (`FailedCreatePodReason`, ...). */
const REASON = {
  successfulCreate: 'SuccessfulCreate',
  failedCreate: 'FailedCreate',
  successfulDelete: 'SuccessfulDelete',
  failedDelete: 'FailedDelete',
} as const;

/** Writes are attributed to this field manager, as the real binary's user agent. */
const FIELD_MANAGER = { fieldManager: 'kube-controller-manager' };
/** Options of the pod creates: only the created name is read (performance only: no copy of the answer). */
const CREATE_OPTIONS = { ...FIELD_MANAGER, sharedResult: true };

/** The RS condition type for failed creates/deletes (apps.ReplicaSetReplicaFailure). */
const REPLICA_FAILURE = 'ReplicaFailure';

// ------------------------------------------------------------------------------ expectations

interface Expectation {
  /** Creates still to be observed. */
  add: number;
  /** Deletes still to be observed. */
  del: number;
  /** Virtual ms when the expectation was set (for the TTL). */
  timestamp: number;
  /** `namespace/name` of the pods whose deletion is expected (UIDTrackingControllerExpectations). */
  deleteKeys: Set<string>;
}

/**
 * `UIDTrackingControllerExpectations` (pkg/controller/controller_utils.go): per ReplicaSet key,
 * how many pod creations and which pod deletions the controller has issued but not yet seen
 * through its pod informer. While any are outstanding (and younger than the TTL) the ReplicaSet
 * is not managed again, so one sync does not double-create before its watch events arrive.
 * This memory dies with the process, as in kube-controller-manager.
 */
class Expectations {
  private byKey = new Map<string, Expectation>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
  ) {}

  /** `SatisfiedExpectations`: nothing recorded, everything observed, or the record expired. */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.timestamp > this.ttlMs;
  }

  /** `ExpectCreations`: replace the record with `n` expected creates. */
  expectCreations(key: string, n: number): void {
    const prev = this.byKey.get(key);
    this.byKey.set(key, { add: n, del: 0, timestamp: this.now(), deleteKeys: prev?.deleteKeys ?? new Set() });
  }

  /** `ExpectDeletions`: replace the record with the exact pods expected to go. */
  expectDeletions(key: string, podKeys: string[]): void {
    this.byKey.set(key, { add: 0, del: podKeys.length, timestamp: this.now(), deleteKeys: new Set(podKeys) });
  }

  /** `CreationObserved`: one expected pod showed up (or a create failed and will never show up). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /** `DeletionObserved`: count a pod going only if this controller deleted it. */
  deletionObserved(key: string, podKey: string): void {
    const e = this.byKey.get(key);
    if (e && e.deleteKeys.delete(podKey)) e.del--;
  }

  /** `DeleteExpectations`: the ReplicaSet is gone. */
  delete(key: string): void {
    this.byKey.delete(key);
  }
}

// ------------------------------------------------------------------------------ the controller

/**
 * Start the replicaset-controller in `ctx`'s process: registers informer handlers (the process
 * starts the informers) and the workers. `stop()` drops queue, expectations and timers.
 * Source: pkg/controller/replicaset/replica_set.go (`NewReplicaSetController`, `Run`).
 */
export function newReplicaSetController(ctx: ControllerContext, rk: ReplicatedKind = REPLICASET_KIND): Controller {
  const { api, clock } = ctx;
  const COMPONENT = rk.component;
  const selectorOf = (obj: KubeObject) => compiledSelector(obj, rk);
  const burstReplicas = ctx.setting('replicaSetBurstReplicas', BURST_REPLICAS);
  const initialBatch = ctx.setting('replicaSetSlowStartInitialBatchSize', SLOW_START_INITIAL_BATCH_SIZE);
  const recorder = ctx.recorder(COMPONENT);
  const expectations = new Expectations(() => clock.now(), ctx.setting('expectationsTimeoutMs', EXPECTATIONS_TIMEOUT_MS));
  const queue = new RateLimitingQueue(clock, { name: rk.queueName });

  const rsInformer: Informer = ctx.informers.informer(rk.resource, { indexers: { [CONTROLLER_UID_INDEX]: indexObjectByControllerUid } });
  const podInformer: Informer = ctx.informers.informer('pods', { indexers: { [POD_CONTROLLER_UID_INDEX]: indexPodByControllerUid } });
  const rsLister = rsInformer.lister;
  const podLister = podInformer.lister;

  const trace = (rs: KubeObject, message: string, kind?: 'Warning') =>
    ctx.trace(COMPONENT, message, { kind: rk.kind, namespace: rs.metadata.namespace, name: rs.metadata.name!, uid: rs.metadata.uid }, kind);

  // ---------------------------------------------------------------- event handlers (enqueue only)

  /** The ReplicaSet a controllerRef points to, if it is still the same object (same uid). */
  function resolveControllerRef(namespace: string | undefined, ref: { kind: string; name: string; uid: string }): KubeObject | undefined {
    if (ref.kind !== rk.kind) return undefined;
    const rs = rsLister.get(namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? rs : undefined;
  }

  /** `GetPodReplicaSets`: ReplicaSets whose (non-empty) selector matches the pod's labels. */
  function getPodReplicaSets(pod: KubeObject): KubeObject[] {
    if (!pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) return [];
    const out: KubeObject[] = [];
    for (const rs of rsLister.list(pod.metadata.namespace)) {
      const sel = selectorOf(rs);
      if (!sel || sel.empty() || !sel.matches(pod.metadata.labels)) continue;
      out.push(rs);
    }
    if (out.length > 1) {
      // ControllerRef decides ownership, but more than one match is still a user error.
      trace(out[0], `user error! more than one ReplicaSet is selecting pods with labels: ${JSON.stringify(pod.metadata.labels)}`, 'Warning');
    }
    return out;
  }

  const enqueue = (rs: KubeObject) => queue.add(metaNamespaceKey(rs));

  /** `addPod`: a pod with a controllerRef counts as one observed creation of its ReplicaSet. */
  function addPod(pod: KubeObject): void {
    if (pod.metadata.deletionTimestamp) {
      // After a restart a pod may first be seen already terminating: not a creation.
      deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref) {
      const rs = resolveControllerRef(pod.metadata.namespace, ref);
      if (!rs) return;
      const key = metaNamespaceKey(rs);
      expectations.creationObserved(key);
      queue.add(key);
      return;
    }
    // An orphan: wake every ReplicaSet that might adopt it (no creation is observed).
    for (const rs of getPodReplicaSets(pod)) enqueue(rs);
  }

  /** `updatePod`: wake the owner (old and new, if the controllerRef changed) or possible adopters. */
  function updatePod(oldPod: KubeObject, curPod: KubeObject): void {
    if (oldPod.metadata.resourceVersion === curPod.metadata.resourceVersion) return; // periodic resync
    const labelChanged = !deepEqual(oldPod.metadata.labels, curPod.metadata.labels);
    if (curPod.metadata.deletionTimestamp) {
      // A graceful delete first sets deletionTimestamp: replace the pod now, not when it is gone.
      deletePod(curPod);
      if (labelChanged) deletePod(oldPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = !deepEqual(curRef, oldRef);
    if (refChanged && oldRef) {
      const old = resolveControllerRef(oldPod.metadata.namespace, oldRef);
      if (old) enqueue(old);
    }
    if (curRef) {
      const rs = resolveControllerRef(curPod.metadata.namespace, curRef);
      if (!rs) return;
      enqueue(rs);
      // A pod that just became Ready becomes available minReadySeconds later: look again then
      // (plus a second against millisecond skew, as the real controller does).
      const minReady = rs.spec?.minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReady > 0) queue.addAfter(metaNamespaceKey(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelChanged || refChanged) for (const rs of getPodReplicaSets(curPod)) enqueue(rs);
  }

  /** `deletePod`: one observed deletion (if this controller asked for it); wake the owner. */
  function deletePod(pod: KubeObject): void {
    const ref = getControllerOf(pod);
    if (!ref) return; // nobody waits for orphans to go
    const rs = resolveControllerRef(pod.metadata.namespace, ref);
    if (!rs) return;
    const key = metaNamespaceKey(rs);
    expectations.deletionObserved(key, metaNamespaceKey(pod));
    queue.add(key);
  }

  rsInformer.addEventHandler({
    onAdd: (rs) => enqueue(rs),
    // Enqueue on every update, even status-only ones: "it is safer to sync any time this
    // function is triggered" (a resync then retries ReplicaSets whose creates failed).
    onUpdate: (oldRs, curRs) => {
      if (oldRs.metadata.uid !== curRs.metadata.uid) expectations.delete(metaNamespaceKey(oldRs));
      enqueue(curRs);
    },
    onDelete: (rs) => {
      const key = metaNamespaceKey(rs);
      expectations.delete(key); // a new RS with the same name starts clean
      queue.add(key);
    },
  });
  podInformer.addEventHandler({ onAdd: addPod, onUpdate: updatePod, onDelete: deletePod });

  // ---------------------------------------------------------------- sync

  /**
   * `syncReplicaSet`: make the ReplicaSet's pods match its spec, then write its status.
   * Throws the ApiError of a failed write (the key is retried with backoff).
   */
  function syncReplicaSet(key: string): ReconcileResult | void {
    const rs = rsLister.getByKey(key);
    if (!rs) {
      expectations.delete(key);
      return;
    }
    const needsSync = expectations.satisfied(key);
    const selector = selectorOf(rs);
    if (!selector) return; // an invalid selector matches nothing; validation prevents it

    // Every pod it owns or could adopt, then only the active ones (terminating and finished pods
    // do not count: a replacement is created as soon as a pod starts terminating).
    const candidates = filterPodsByOwner(rs).filter(isPodActive);
    const pods = claimPods(rs, selector, candidates);

    let manageErr: ApiError | undefined;
    if (needsSync && !rs.metadata.deletionTimestamp) manageErr = manageReplicas(pods, rs, key);

    const status = calculateStatus(rs, pods, manageErr, clock.now(), clock.epochMs);
    const updated = updateStatus(rs, status);

    // A last line of defence against clock skew: look again once the ready pods are available.
    const replicas = rs.spec?.replicas ?? 1;
    const minReady = rs.spec?.minReadySeconds ?? 0;
    if (manageErr) throw manageErr;
    if (minReady > 0 && (updated.status?.readyReplicas ?? 0) === replicas && (updated.status?.availableReplicas ?? 0) !== replicas) {
      return { requeueAfterMs: minReady * 1000 };
    }
  }

  /** Owned pods plus the namespace's orphans (`controller.FilterPodsByOwner`, orphans included). */
  function filterPodsByOwner(rs: KubeObject): KubeObject[] {
    const ns = rs.metadata.namespace;
    const out: KubeObject[] = [];
    for (const k of [rs.metadata.uid!, orphanPodIndexKey(ns ?? '')]) {
      for (const pod of podLister.byIndex(POD_CONTROLLER_UID_INDEX, k)) if (pod.metadata.namespace === ns) out.push(pod);
    }
    return out;
  }

  /**
   * `PodControllerRefManager.ClaimPods`: keep owned pods that match, release owned pods that no
   * longer match (patch removing our ownerReference), adopt matching orphans (patch adding our
   * controllerRef) after re-checking with a live GET that the ReplicaSet is not being deleted.
   * Pods owned by someone else never reach here. Throws the first failed patch.
   */
  function claimPods(rs: KubeObject, selector: Selector, pods: KubeObject[]): KubeObject[] {
    const claimed: KubeObject[] = [];
    let firstErr: ApiError | undefined;
    let canAdopt: ApiError | true | undefined;
    const rsUid = rs.metadata.uid!;
    for (const pod of pods) {
      const ref = getControllerOf(pod);
      const matches = selector.matches(pod.metadata.labels);
      try {
        if (ref) {
          if (ref.uid !== rsUid) continue; // someone else's
          if (matches) {
            claimed.push(pod);
            continue;
          }
          if (rs.metadata.deletionTimestamp) continue;
          releasePod(rs, pod);
          continue;
        }
        if (rs.metadata.deletionTimestamp || !matches || pod.metadata.deletionTimestamp) continue;
        if (canAdopt === undefined) canAdopt = recheckDeletion(rs);
        if (canAdopt !== true) throw canAdopt;
        adoptPod(rs, pod);
        claimed.push(pod);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code === 404) continue; // the pod is gone
        firstErr ??= e;
      }
    }
    if (firstErr) throw firstErr;
    return claimed;
  }

  /** `RecheckDeletionTimestamp`: an uncached GET; adoption is refused for a deleted/replaced RS. */
  function recheckDeletion(rs: KubeObject): ApiError | true {
    const { namespace, name, uid } = rs.metadata;
    try {
      const fresh = api.get(rk.resource, namespace, name!);
      if (fresh.metadata.uid !== uid) {
        return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message: `original ${rk.kind} ${namespace}/${name} is gone: got uid ${fresh.metadata.uid}, wanted ${uid}` });
      }
      if (fresh.metadata.deletionTimestamp) {
        return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message: `${rk.kind} ${namespace}/${name} has just been deleted at ${fresh.metadata.deletionTimestamp}` });
      }
      return true;
    } catch (e) {
      if (e instanceof ApiError) return e;
      throw e;
    }
  }

  /** `AdoptPod`: strategic-merge patch adding our controllerRef (the pod's uid as a precondition). */
  function adoptPod(rs: KubeObject, pod: KubeObject): void {
    const patch = { metadata: { ownerReferences: [newControllerRef(rs)], uid: pod.metadata.uid } };
    api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'strategic', patch, FIELD_MANAGER);
    trace(rs, `${rs.metadata.namespace}/${rs.metadata.name} adopted pod ${pod.metadata.name}`);
  }

  /** `ReleasePod`: strategic-merge patch deleting our ownerReference; 404 and 422 are ignored. */
  function releasePod(rs: KubeObject, pod: KubeObject): void {
    const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: rs.metadata.uid }], uid: pod.metadata.uid } };
    try {
      api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'strategic', patch, FIELD_MANAGER);
      trace(rs, `${rs.metadata.namespace}/${rs.metadata.name} released pod ${pod.metadata.name} (labels no longer match)`);
    } catch (e) {
      if (e instanceof ApiError && (e.code === 404 || e.code === 422)) return;
      throw e;
    }
  }

  /**
   * `manageReplicas`: create or delete pods to close the gap between `pods` (active, claimed)
   * and `spec.replicas`, at most `burstReplicas` per sync. Returns the first error (which the
   * status reports as the ReplicaFailure condition); does not modify `pods`.
   */
  function manageReplicas(pods: KubeObject[], rs: KubeObject, key: string): ApiError | undefined {
    const want = rs.spec?.replicas ?? 1;
    let diff = pods.length - want;
    const name = `${rs.metadata.namespace}/${rs.metadata.name}`;
    if (diff < 0) {
      diff = Math.min(-diff, burstReplicas);
      trace(rs, `${name} has ${pods.length} of ${want} -> create ${diff}`);
      // Expect every create before issuing any: the informer may see a pod before we return.
      expectations.expectCreations(key, diff);
      const { successes, error } = slowStartBatch(diff, initialBatch, () => createPod(rs));
      // Creates never attempted (or failed) will never be observed.
      for (let i = successes; i < diff; i++) expectations.creationObserved(key);
      return error;
    }
    if (diff > 0) {
      diff = Math.min(diff, burstReplicas);
      trace(rs, `${name} has ${pods.length} of ${want} -> delete ${diff}`);
      const victims = getPodsToDelete(pods, getIndirectlyRelatedPods(rs), diff, clock.now(), clock.epochMs);
      expectations.expectDeletions(key, victims.map((p) => metaNamespaceKey(p)));
      let firstErr: ApiError | undefined;
      for (const pod of victims) {
        const err = deletePodOf(rs, pod);
        if (err) {
          // This deletion will never be observed.
          expectations.deletionObserved(key, metaNamespaceKey(pod));
          if (err.code !== 404) firstErr ??= err;
        }
      }
      return firstErr;
    }
    return undefined;
  }

  /**
   * `RealPodControl.CreatePods`: a pod from the template (labels, annotations, finalizers, spec),
   * `generateName: <rs>-`, our controllerRef. Records SuccessfulCreate, or FailedCreate with the
   * API error (not when the namespace is terminating). Returns the error, if any.
   */
  function createPod(rs: KubeObject): ApiError | undefined {
    const template = rs.spec?.template ?? {};
    const tmeta = template.metadata ?? {};
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: podsPrefix(rs.metadata.name!),
        namespace: rs.metadata.namespace,
        labels: { ...(tmeta.labels ?? {}) },
        ...(tmeta.annotations ? { annotations: { ...tmeta.annotations } } : {}),
        ...(tmeta.finalizers ? { finalizers: [...tmeta.finalizers] } : {}),
        ownerReferences: [newControllerRef(rs)],
      },
      spec: template.spec,
    };
    try {
      const created = api.create(pod, CREATE_OPTIONS);
      recorder.event(rs, 'Normal', REASON.successfulCreate, `Created pod: ${created.metadata.name}`);
      return undefined;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      // Any create in a terminating namespace fails: nothing to report, nothing to retry.
      if (isNamespaceTerminatingError(e)) return undefined;
      recorder.event(rs, 'Warning', REASON.failedCreate, `Error creating: ${e.message}`);
      return e;
    }
  }

  /** `RealPodControl.DeletePod`: a graceful delete; SuccessfulDelete or FailedDelete (not for 404). */
  function deletePodOf(rs: KubeObject, pod: KubeObject): ApiError | undefined {
    try {
      api.delete('pods', pod.metadata.namespace, pod.metadata.name!, FIELD_MANAGER);
      recorder.event(rs, 'Normal', REASON.successfulDelete, `Deleted pod: ${pod.metadata.name}`);
      return undefined;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code !== 404) recorder.event(rs, 'Warning', REASON.failedDelete, `Error deleting: ${e.message}`);
      return e;
    }
  }

  /**
   * `getIndirectlyRelatedPods`: pods of every ReplicaSet with the same controller (the
   * Deployment's other revisions), for the "doubled up on a node" rank of scale-down. An RS
   * without a controller has none.
   */
  function getIndirectlyRelatedPods(rs: KubeObject): KubeObject[] {
    const ref = getControllerOf(rs);
    if (!ref) return [];
    const seen = new Set<string>();
    const out: KubeObject[] = [];
    for (const related of rsLister.byIndex(CONTROLLER_UID_INDEX, ref.uid)) {
      for (const pod of podLister.byIndex(POD_CONTROLLER_UID_INDEX, related.metadata.uid!)) {
        if (seen.has(pod.metadata.uid!)) continue;
        seen.add(pod.metadata.uid!);
        out.push(pod);
      }
    }
    return out;
  }

  /**
   * `updateReplicaSetStatus`: write the status unless nothing changed; on failure GET the latest
   * and retry once. Returns the ReplicaSet as stored. Throws the ApiError if it still fails.
   */
  function updateStatus(rs: KubeObject, status: ReplicaSetStatus): KubeObject {
    const cur = rs.status ?? {};
    if (
      (cur.replicas ?? 0) === status.replicas &&
      (cur.fullyLabeledReplicas ?? 0) === (status.fullyLabeledReplicas ?? 0) &&
      (cur.readyReplicas ?? 0) === (status.readyReplicas ?? 0) &&
      (cur.availableReplicas ?? 0) === (status.availableReplicas ?? 0) &&
      (rs.metadata.generation ?? 0) === (cur.observedGeneration ?? 0) &&
      deepEqual(cur.conditions ?? [], status.conditions ?? [])
    ) {
      return rs;
    }
    // Save the generation acted on (JSON field order of the Go struct: counts, observedGeneration, conditions).
    const { conditions, ...counts } = status;
    const next: ReplicaSetStatus = {
      ...counts,
      ...(rs.metadata.generation ? { observedGeneration: rs.metadata.generation } : {}),
      ...(conditions ? { conditions } : {}),
    };
    let target = rs;
    for (let i = 0; ; i++) {
      try {
        return api.updateStatus({ ...target, status: next }, FIELD_MANAGER);
      } catch (e) {
        if (!(e instanceof ApiError) || i >= STATUS_UPDATE_RETRIES) throw e;
        target = api.get(rk.resource, rs.metadata.namespace, rs.metadata.name!);
      }
    }
  }

  // ---------------------------------------------------------------- workers

  const workers = startWorkers(queue, syncReplicaSet, {
    clock,
    name: COMPONENT,
    workers: ctx.setting(rk.workers[0], rk.workers[1]),
    waitForSync: [rsInformer, podInformer],
  });

  return {
    name: COMPONENT,
    stop() {
      workers.stop();
    },
  };
}

// ------------------------------------------------------------------------------ pure helpers

/** The `status` this controller writes (apps/v1 ReplicaSetStatus; zero counts omitted as `omitempty`). */
export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

/** apps/v1 ReplicaSetCondition (JSON field order of the Go struct). */
export interface ReplicaSetCondition {
  type: string;
  status: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

const selectorCache = new WeakMap<object, Selector | null>();

/** The compiled `spec.selector` of a (cached, immutable) object; null when it does not compile. */
function compiledSelector(obj: KubeObject, rk: ReplicatedKind): Selector | null {
  const ls = obj.spec?.selector;
  if (!ls) return null;
  let sel = selectorCache.get(ls);
  if (sel === undefined) {
    try {
      sel = rk.selectorFrom(ls);
    } catch {
      sel = null;
    }
    selectorCache.set(ls, sel);
  }
  return sel;
}

/**
 * `slowStartBatch`: call `fn` `count` times in batches of `initial`, 2x, 4x, ... A batch with
 * any failure ends the run (the rest are skipped and retried by a later sync), so a template
 * that can never be created costs one API call, not `count`.
 * Returns the number of successes and the first error. Source: replica_set.go.
 */
export function slowStartBatch(count: number, initial: number, fn: () => ApiError | undefined): { successes: number; error?: ApiError } {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    let error: ApiError | undefined;
    let ok = 0;
    for (let i = 0; i < batch; i++) {
      const err = fn();
      if (err) error ??= err;
      else ok++;
    }
    successes += ok;
    if (error) return { successes, error };
    remaining -= batch;
  }
  return { successes };
}

/**
 * `calculateStatus` (replica_set_utils.go): counts over the claimed active pods, plus the
 * ReplicaFailure condition: added (reason FailedCreate when short of pods, FailedDelete when
 * over) on the first failed sync, removed by the first clean one. `nowMs` is virtual time and
 * `epochMs` the clock's epoch (for parsing timestamps).
 */
export function calculateStatus(rs: KubeObject, pods: KubeObject[], manageErr: ApiError | undefined, nowMs: number, epochMs: number): ReplicaSetStatus {
  const templateSel = selectorFromSet(rs.spec?.template?.metadata?.labels);
  const minReady = rs.spec?.minReadySeconds ?? 0;
  const toVirtual = (t: string) => parseRfc3339(t) - epochMs;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    if (templateSel.matches(pod.metadata.labels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, nowMs, toVirtual)) available++;
    }
  }
  let conditions: ReplicaSetCondition[] = [...(rs.status?.conditions ?? [])];
  const failure = conditions.find((c) => c.type === REPLICA_FAILURE);
  if (manageErr && !failure) {
    const diff = pods.length - (rs.spec?.replicas ?? 1);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    conditions.push({ type: REPLICA_FAILURE, status: 'True', lastTransitionTime: formatNow(nowMs, epochMs), reason, message: manageErr.message });
  } else if (!manageErr && failure) {
    conditions = conditions.filter((c) => c.type !== REPLICA_FAILURE);
  }
  return {
    replicas: pods.length,
    ...(fullyLabeled ? { fullyLabeledReplicas: fullyLabeled } : {}),
    ...(ready ? { readyReplicas: ready } : {}),
    ...(available ? { availableReplicas: available } : {}),
    ...(conditions.length ? { conditions } : {}),
  };
}

/** `metav1.Now()` as the API stores it: RFC 3339, second resolution. */
function formatNow(nowMs: number, epochMs: number): string {
  return formatRfc3339(epochMs + nowMs);
}

// ------------------------------------------------------------------------------ scale-down ranking

/** Pending < Unknown < Running (`podPhaseToOrdinal`); other phases rank with Pending. */
const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * `getPodsToDelete`: the `diff` pods to delete from `pods`, cheapest first by
 * `ActivePodsWithRanks` (see `comparePodsForDeletion`), where a pod's rank is how many active
 * `related` pods (same Deployment, any revision) share its node. No sorting when every pod goes.
 * Does not modify `pods`. Source: replica_set.go, controller_utils.go.
 */
export function getPodsToDelete(pods: KubeObject[], related: KubeObject[], diff: number, nowMs: number, epochMs: number): KubeObject[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  const onNode = new Map<string, number>();
  for (const p of related) {
    if (!isPodActive(p)) continue;
    const node = p.spec?.nodeName ?? '';
    onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const ranked = pods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  const nowNs = (epochMs + nowMs) * 1e6;
  ranked.sort((a, b) => (lessForDeletion(a, b, nowNs) ? -1 : lessForDeletion(b, a, nowNs) ? 1 : 0));
  return ranked.slice(0, diff).map((r) => r.pod);
}

/**
 * `ActivePodsWithRanks.Less`: true when `a` should be deleted before `b`.
 *  1. unassigned < assigned;  2. Pending < Unknown < Running;  3. not ready < ready;
 *  4. lower pod-deletion-cost < higher;  5. higher rank (more doubled up on its node) first;
 *  6. both ready: more recently ready first (log2 buckets of age, then uid: LogarithmicScaleDown);
 *  7. higher max container restarts first;  8. newer first (log2 buckets, then uid).
 */
function lessForDeletion(a: { pod: KubeObject; rank: number }, b: { pod: KubeObject; rank: number }, nowNs: number): boolean {
  const pa = a.pod;
  const pb = b.pod;
  const na = pa.spec?.nodeName ?? '';
  const nb = pb.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '';
  const oa = PHASE_ORDINAL[pa.status?.phase ?? 'Pending'] ?? 0;
  const ob = PHASE_ORDINAL[pb.status?.phase ?? 'Pending'] ?? 0;
  if (oa !== ob) return oa < ob;
  const ra = isPodReady(pa);
  const rb = isPodReady(pb);
  if (ra !== rb) return !ra;
  const ca = deletionCost(pa);
  const cb = deletionCost(pb);
  if (ca !== cb) return ca < cb;
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (ra && rb) {
    const ta = readyTimeNs(pa);
    const tb = readyTimeNs(pb);
    if (ta !== tb) {
      if (ta === 0 || tb === 0) return afterOrZero(ta, tb);
      const d = logRankDiff(ta, tb, nowNs);
      return d === 0 ? (pa.metadata.uid ?? '') < (pb.metadata.uid ?? '') : d < 0;
    }
  }
  const [regA, sideA] = maxRestarts(pa);
  const [regB, sideB] = maxRestarts(pb);
  if (regA !== regB) return regA > regB;
  if (sideA !== sideB) return sideA > sideB;
  const cta = timeNs(pa.metadata.creationTimestamp);
  const ctb = timeNs(pb.metadata.creationTimestamp);
  if (cta !== ctb) {
    if (cta === 0 || ctb === 0) return afterOrZero(cta, ctb);
    const d = logRankDiff(cta, ctb, nowNs);
    return d === 0 ? (pa.metadata.uid ?? '') < (pb.metadata.uid ?? '') : d < 0;
  }
  return false;
}

/** `afterOrZero`: a zero time sorts first, otherwise the later time first. */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

/** `logarithmicRankDiff`: floor(log2(age in ns)) of each, compared; -1 for a non-positive age. */
function logRankDiff(t1: number, t2: number, nowNs: number): number {
  const d1 = nowNs - t1;
  const d2 = nowNs - t2;
  const r1 = d1 > 0 ? Math.floor(Math.log2(d1)) : -1;
  const r2 = d2 > 0 ? Math.floor(Math.log2(d2)) : -1;
  return r1 - r2;
}

/** An RFC 3339 timestamp in Unix nanoseconds; 0 for none. */
function timeNs(t: string | undefined): number {
  if (!t) return 0;
  const ms = parseRfc3339(t);
  return Number.isFinite(ms) ? ms * 1e6 : 0;
}

/** `podReadyTime`: lastTransitionTime of the Ready=True condition. */
function readyTimeNs(pod: KubeObject): number {
  const c = (pod.status?.conditions ?? []).find((x: { type: string; status: string }) => x.type === 'Ready' && x.status === 'True');
  return timeNs(c?.lastTransitionTime);
}

/** `GetDeletionCostFromPodAnnotations`: an int32; missing or invalid counts as 0. */
function deletionCost(pod: KubeObject): number {
  const v = pod.metadata.annotations?.[POD_DELETION_COST_ANNOTATION];
  if (v === undefined || !/^[-+]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

/** `maxContainerRestarts`: [regular containers, restartable init (sidecar) containers]. */
function maxRestarts(pod: KubeObject): [number, number] {
  let regular = 0;
  for (const cs of pod.status?.containerStatuses ?? []) regular = Math.max(regular, cs.restartCount ?? 0);
  let sidecar = 0;
  const sidecars = new Set<string>((pod.spec?.initContainers ?? []).filter((c: { restartPolicy?: string }) => c.restartPolicy === 'Always').map((c: { name: string }) => c.name));
  for (const cs of pod.status?.initContainerStatuses ?? []) if (sidecars.has(cs.name)) sidecar = Math.max(sidecar, cs.restartCount ?? 0);
  return [regular, sidecar];
}

/**
 * Start the replication manager (kube-controller-manager `replicationcontroller`): the
 * ReplicaSet controller run on ReplicationControllers. Pods are created with an RC
 * controllerRef (kind `ReplicationController`), Events come from `replication-controller`.
 * Source: pkg/controller/replication/replication_controller.go (`NewReplicationManager`).
 */
export function newReplicationManager(ctx: ControllerContext): Controller {
  return newReplicaSetController(ctx, REPLICATIONCONTROLLER_KIND);
}
