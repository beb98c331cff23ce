/**
 * deployment-controller: rolls a Deployment's pod template out through ReplicaSets.
 *
 * Mirrors pkg/controller/deployment/ (deployment_controller.go, sync.go, rolling.go,
 * recreate.go, progress.go) and util/deployment_util.go:
 *
 *   informers (deployments, replicasets, pods)
 *     -> handlers that only enqueue the Deployment a ReplicaSet (or pod) belongs to
 *     -> work queue (5 workers)
 *     -> syncDeployment(key):
 *          claim ReplicaSets (adopt orphans matching the selector, release the ones that no
 *          longer match); then, in this order of precedence:
 *            being deleted   -> status only
 *            paused          -> scale only (proportionally), no rollout progress
 *            scaling event   -> scale only (spec.replicas changed: the desired-replicas
 *                               annotation of an active ReplicaSet differs)
 *            Recreate        -> old ReplicaSets to 0, wait for their pods to go, new one to N
 *            RollingUpdate   -> new ReplicaSet up within replicas + maxSurge, old ones down
 *                               keeping replicas - maxUnavailable available
 *          and finally the status: counts summed from the ReplicaSets' statuses, the Available
 *          and Progressing conditions, the progress deadline (requeued with AddAfter to check it).
 *
 * The "new" ReplicaSet is the one whose template equals the Deployment's (ignoring the
 * `pod-template-hash` label), so putting an old template back (a rollback) reuses the old
 * ReplicaSet and gives it the next revision.
 *
 * Simulation notes: the controller writes each changed object once per step and keeps using the
 * object the API returned (the real one sometimes writes with a stale resourceVersion and retries
 * after a Conflict); the deprecated `rollbackTo` annotation (apps/v1beta1 rollbacks) is not
 * implemented: `kubectl rollout undo` rolls back client-side by copying the old template.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepCopy, deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import { selectorFromLabelSelector, type Selector } from '../api/labels';
import { parseRfc3339 } from '../clock';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';
import { metaNamespaceKey, type Informer } from '../client/informer';
import {
  CONTROLLER_UID_INDEX,
  POD_CONTROLLER_UID_INDEX,
  computeHash,
  getControllerOf,
  indexObjectByControllerUid,
  indexPodByControllerUid,
  isControlledBy,
  isNamespaceTerminatingError,
  newControllerRef,
} from './util';

/** Component name: Event `source.component` and trace prefix. */
export const DEPLOYMENT_CONTROLLER = 'deployment-controller';

/**
 * Workers: kube-controller-manager `--concurrent-deployment-syncs` (default 5).
 * Source: pkg/controller/deployment/config/v1alpha1/defaults.go. Setting `concurrentDeploymentSyncs`.
 */
export const CONCURRENT_DEPLOYMENT_SYNCS = 5;

/** `revision-history` is kept under 2000 characters. Source: sync.go (`maxRevHistoryLengthInChars`). */
export const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** A ReplicaSet's rollout sequence number, mirrored on the Deployment. Source: util/deployment_util.go (`RevisionAnnotation`). */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
/** Earlier revisions of a reused (rolled-back-to) ReplicaSet, comma-separated. Source: deployment_util.go (`RevisionHistoryAnnotation`). */
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
/** The Deployment's spec.replicas when the ReplicaSet was last sized. Source: deployment_util.go (`DesiredReplicasAnnotation`). */
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
/** replicas + maxSurge when the ReplicaSet was last sized (proportional scaling). Source: deployment_util.go (`MaxReplicasAnnotation`). */
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';

/** Label added to a ReplicaSet's selector, labels and template. Source: apps/v1 `DefaultDeploymentUniqueLabelKey`. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** Deployment annotations never copied to its ReplicaSets. Source: deployment_util.go (`annotationsToSkip`). */
const ANNOTATIONS_TO_SKIP = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
]);

/** Condition reasons. Source: util/deployment_util.go. */
export const DEPLOYMENT_REASONS = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** math.MaxInt32: "no limit" for progressDeadlineSeconds and revisionHistoryLimit. */
const MAX_INT32 = 2147483647;

const FIELD_MANAGER = { fieldManager: 'kube-controller-manager' };

/** apps/v1 DeploymentCondition (JSON field order of the Go struct). */
export interface DeploymentCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** The status this controller writes (apps/v1 DeploymentStatus; zero counts omitted as `omitempty`). */
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

type RS = KubeObject;

/**
 * Start the deployment-controller in `ctx`'s process. `stop()` drops its queue and timers.
 * Source: pkg/controller/deployment/deployment_controller.go (`NewDeploymentController`, `Run`).
 */
export function newDeploymentController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(DEPLOYMENT_CONTROLLER);
  const queue = new RateLimitingQueue(clock, { name: 'deployment' });

  const dInformer: Informer = ctx.informers.informer('deployments');
  const rsInformer: Informer = ctx.informers.informer('replicasets', { indexers: { [CONTROLLER_UID_INDEX]: indexObjectByControllerUid } });
  const podInformer: Informer = ctx.informers.informer('pods', { indexers: { [POD_CONTROLLER_UID_INDEX]: indexPodByControllerUid } });
  const dLister = dInformer.lister;
  const rsLister = rsInformer.lister;
  const podLister = podInformer.lister;

  const now = () => clock.rfc3339();
  const toVirtualMs = (t: string) => parseRfc3339(t) - clock.epochMs;
  const trace = (d: KubeObject, message: string, kind?: 'Normal' | 'Warning') =>
    ctx.trace(DEPLOYMENT_CONTROLLER, `${d.metadata.namespace}/${d.metadata.name} ${message}`, { kind: 'Deployment', namespace: d.metadata.namespace, name: d.metadata.name!, uid: d.metadata.uid }, kind);

  // ---------------------------------------------------------------- event handlers (enqueue only)

  const enqueue = (d: KubeObject) => queue.add(metaNamespaceKey(d));

  /** The Deployment a controllerRef points to, if it is still the same object. */
  function resolveControllerRef(namespace: string | undefined, ref: { kind: string; name: string; uid: string }): KubeObject | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = dLister.get(namespace, ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  /** `getDeploymentsForReplicaSet`: Deployments whose non-empty selector matches an orphan RS. */
  function deploymentsForReplicaSet(rs: RS): KubeObject[] {
    if (!rs.metadata.labels || Object.keys(rs.metadata.labels).length === 0) return [];
    return dLister.list(rs.metadata.namespace).filter((d) => {
      const sel = selectorOf(d);
      return !!sel && !sel.empty() && sel.matches(rs.metadata.labels);
    });
  }

  function addReplicaSet(rs: RS): void {
    if (rs.metadata.deletionTimestamp) {
      deleteReplicaSet(rs);
      return;
    }
    const ref = getControllerOf(rs);
    if (ref) {
      const d = resolveControllerRef(rs.metadata.namespace, ref);
      if (d) enqueue(d);
      return;
    }
    for (const d of deploymentsForReplicaSet(rs)) enqueue(d);
  }

  function updateReplicaSet(oldRs: RS, curRs: RS): void {
    if (oldRs.metadata.resourceVersion === curRs.metadata.resourceVersion) return; // periodic resync
    const curRef = getControllerOf(curRs);
    const oldRef = getControllerOf(oldRs);
    const refChanged = !deepEqual(curRef, oldRef);
    if (refChanged && oldRef) {
      const d = resolveControllerRef(oldRs.metadata.namespace, oldRef);
      if (d) enqueue(d);
    }
    if (curRef) {
      const d = resolveControllerRef(curRs.metadata.namespace, curRef);
      if (d) enqueue(d);
      return;
    }
    if (refChanged || !deepEqual(oldRs.metadata.labels, curRs.metadata.labels)) for (const d of deploymentsForReplicaSet(curRs)) enqueue(d);
  }

  function deleteReplicaSet(rs: RS): void {
    const ref = getControllerOf(rs);
    if (!ref) return;
    const d = resolveControllerRef(rs.metadata.namespace, ref);
    if (d) enqueue(d);
  }

  /** `deletePod`: only Recreate waits on pods; sync once a Deployment has none left. */
  function deletePod(pod: KubeObject): void {
    const ref = getControllerOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = rsLister.get(pod.metadata.namespace, ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return;
    const dRef = getControllerOf(rs);
    const d = dRef && resolveControllerRef(rs.metadata.namespace, dRef);
    if (!d || d.spec?.strategy?.type !== 'Recreate') return;
    const left = rsLister.byIndex(CONTROLLER_UID_INDEX, d.metadata.uid!).some((r) => podLister.byIndex(POD_CONTROLLER_UID_INDEX, r.metadata.uid!).length > 0);
    if (!left) enqueue(d);
  }

  dInformer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, cur) => enqueue(cur), onDelete: enqueue });
  rsInformer.addEventHandler({ onAdd: addReplicaSet, onUpdate: updateReplicaSet, onDelete: deleteReplicaSet });
  podInformer.addEventHandler({ onDelete: deletePod });

  // ---------------------------------------------------------------- sync

  /**
   * `syncDeployment`: one pass over a Deployment. Reads the caches; every write goes through
   * the API. Throws the ApiError of a failed write (the key is retried with backoff).
   */
  function syncDeployment(key: string): void {
    const cached = dLister.getByKey(key);
    if (!cached) return;
    const d = deepCopy(cached); // never mutate the cache
    const selector = selectorOf(cached);
    if (!selector) return;
    if (selector.empty()) {
      recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        d.status = { ...(d.status ?? {}), observedGeneration: d.metadata.generation };
        updateDeploymentStatus(d);
      }
      return;
    }
    const rsList = getReplicaSetsForDeployment(d, selector);

    if (d.metadata.deletionTimestamp) return syncStatusOnly(d, rsList);
    // Pausing/resuming sets an Unknown Progressing condition so a resumed Deployment does not
    // time out at once for the time it spent paused.
    checkPausedConditions(d);
    if (d.spec.paused) return sync(d, rsList);
    if (isScalingEvent(d, rsList)) return sync(d, rsList);
    if (d.spec.strategy?.type === 'Recreate') return rolloutRecreate(d, rsList);
    return rolloutRolling(d, rsList);
  }

  /**
   * `getReplicaSetsForDeployment` + `ClaimReplicaSets`: the ReplicaSets this Deployment owns,
   * adopting orphans that match its selector (after an uncached check that the Deployment is not
   * being deleted) and releasing owned ones that no longer match.
   */
  function getReplicaSetsForDeployment(d: KubeObject, selector: Selector): RS[] {
    const owned: RS[] = [];
    let canAdopt: true | ApiError | undefined;
    let firstErr: ApiError | undefined;
    for (const rs of rsLister.list(d.metadata.namespace)) {
      const ref = getControllerOf(rs);
      const matches = selector.matches(rs.metadata.labels);
      try {
        if (ref) {
          if (ref.uid !== d.metadata.uid) continue;
          if (matches) owned.push(rs);
          else if (!d.metadata.deletionTimestamp) {
            const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: d.metadata.uid }], uid: rs.metadata.uid } };
            api.patch('replicasets', rs.metadata.namespace, rs.metadata.name!, 'strategic', patch, FIELD_MANAGER);
            trace(d, `released ReplicaSet ${rs.metadata.name} (labels no longer match)`);
          }
          continue;
        }
        if (d.metadata.deletionTimestamp || !matches || rs.metadata.deletionTimestamp) continue;
        canAdopt ??= recheckDeletion(d);
        if (canAdopt !== true) throw canAdopt;
        const patch = { metadata: { ownerReferences: [newControllerRef(d)], uid: rs.metadata.uid } };
        owned.push(api.patch('replicasets', rs.metadata.namespace, rs.metadata.name!, 'strategic', patch, FIELD_MANAGER));
        trace(d, `adopted ReplicaSet ${rs.metadata.name}`);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code === 404 || e.code === 422) continue;
        firstErr ??= e;
      }
    }
    if (firstErr) throw firstErr;
    return owned;
  }

  /** `RecheckDeletionTimestamp` with a live GET of the Deployment. */
  function recheckDeletion(d: KubeObject): true | ApiError {
    try {
      const fresh = api.get('deployments', d.metadata.namespace, d.metadata.name!);
      if (fresh.metadata.uid !== d.metadata.uid || fresh.metadata.deletionTimestamp) {
        return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message: `original Deployment ${d.metadata.namespace}/${d.metadata.name} is gone or being deleted` });
      }
      return true;
    } catch (e) {
      if (e instanceof ApiError) return e;
      throw e;
    }
  }

  /** The version of `rs` the current sync last wrote (or read), from `list`. */
  function latest(list: RS[], rs: RS): RS {
    return list.find((r) => r.metadata.uid === rs.metadata.uid) ?? rs;
  }

  /** Replace `rs` in `list` by the object the API returned for it (keeps later steps current). */
  function remember(list: RS[], updated: RS): RS {
    const i = list.findIndex((r) => r.metadata.uid === updated.metadata.uid);
    if (i >= 0) list[i] = updated;
    return updated;
  }

  /** UpdateStatus with `d`'s status and annotations; `d` keeps the new resourceVersion. */
  function updateDeploymentStatus(d: KubeObject): void {
    const stored = api.updateStatus(d, FIELD_MANAGER);
    d.metadata.resourceVersion = stored.metadata.resourceVersion;
  }

  // ---------------------------------------------------------------- new and old ReplicaSets

  /**
   * `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when `create` and missing)
   * with its revision synced, and every old one.
   */
  function getAllReplicaSetsAndSyncRevision(d: KubeObject, rsList: RS[], create: boolean): { newRS: RS | undefined; oldRSs: RS[] } {
    const newRS0 = findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== newRS0);
    const newRS = getNewReplicaSet(d, rsList, oldRSs, create);
    return { newRS, oldRSs };
  }

  /**
   * `getNewReplicaSet`: sync an existing new ReplicaSet's annotations (revision = max old + 1,
   * revision-history on a rollback) and copy its revision to the Deployment; or create it:
   * `<deployment>-<pod-template-hash>`, replicas as `NewRSNewReplicas` allows.
   */
  function getNewReplicaSet(d: KubeObject, rsList: RS[], oldRSs: RS[], create: boolean): RS | undefined {
    const existing = findNewReplicaSet(d, rsList);
    const newRevision = String(maxRevision(oldRSs) + 1);
    if (existing) {
      const rsCopy = deepCopy(existing);
      const prevRevision = existing.metadata.annotations?.[REVISION_ANNOTATION];
      const annotationsUpdated = setNewReplicaSetAnnotations(d, rsCopy, newRevision, true);
      const minReady = d.spec.minReadySeconds ?? 0;
      if (annotationsUpdated || (rsCopy.spec.minReadySeconds ?? 0) !== minReady) {
        if (minReady) rsCopy.spec.minReadySeconds = minReady;
        else delete rsCopy.spec.minReadySeconds;
        const updated = remember(rsList, api.update(rsCopy, FIELD_MANAGER));
        const rev = updated.metadata.annotations?.[REVISION_ANNOTATION];
        if (prevRevision && rev !== prevRevision) trace(d, `reuses ReplicaSet ${updated.metadata.name} as revision ${rev} (was ${prevRevision})`);
        return updated;
      }
      let needsUpdate = setDeploymentRevision(d, rsCopy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
      if (hasProgressDeadline(d) && !getCondition(d.status, 'Progressing')) {
        setCondition(d, newCondition('Progressing', 'True', DEPLOYMENT_REASONS.foundNewRS, `Found new replica set "${rsCopy.metadata.name}"`, now()));
        needsUpdate = true;
      }
      if (needsUpdate) updateDeploymentStatus(d);
      return rsCopy;
    }
    if (!create) return undefined;

    // A new ReplicaSet: the template plus the pod-template-hash label, the selector too.
    const template = deepCopy(d.spec.template ?? {});
    const hash = computeHash(template, d.status?.collisionCount);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
    const selector = deepCopy(d.spec.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    const name = `${d.metadata.name}-${hash}`;
    const newRS: RS = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: d.metadata.namespace, labels: template.metadata.labels, ownerReferences: [newControllerRef(d)] },
      spec: { replicas: 0, ...(d.spec.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}), selector, template },
    };
    const replicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    newRS.spec.replicas = replicas;
    setNewReplicaSetAnnotations(d, newRS, newRevision, false);

    let created: RS;
    let alreadyExists = false;
    try {
      created = api.create(newRS, FIELD_MANAGER);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === 409 && e.reason === 'AlreadyExists') {
        // A slow cache, or a hash collision with a ReplicaSet of another template.
        const rs = rsLister.get(d.metadata.namespace, name);
        if (!rs) throw e;
        if (isControlledBy(rs, d.metadata.uid) && equalIgnoreHash(d.spec.template, rs.spec?.template)) {
          created = rs;
          alreadyExists = true;
        } else {
          d.status = { ...(d.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 };
          try {
            updateDeploymentStatus(d);
            trace(d, `hash collision with ReplicaSet ${name}: collisionCount ${d.status.collisionCount}`, 'Warning');
          } catch {
            // the original error is what gets retried
          }
          throw e;
        }
      } else if (isNamespaceTerminatingError(e)) {
        throw e;
      } else {
        const msg = `Failed to create new replica set "${name}": ${e.message}`;
        if (hasProgressDeadline(d)) {
          setCondition(d, newCondition('Progressing', 'False', DEPLOYMENT_REASONS.failedRSCreate, msg, now()));
          try {
            updateDeploymentStatus(d);
          } catch {
            // a bigger issue is being reported
          }
        }
        recorder.event(d, 'Warning', DEPLOYMENT_REASONS.failedRSCreate, msg);
        throw e;
      }
    }
    if (!rsList.some((r) => r.metadata.uid === created.metadata.uid)) rsList.push(created);
    if (!alreadyExists) {
      trace(d, `-> new ReplicaSet ${name} (revision ${newRevision}) with ${replicas} replica(s)`);
      if (replicas > 0) recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${name} from 0 to ${replicas}`);
    }
    let needsUpdate = setDeploymentRevision(d, newRevision);
    if (!alreadyExists && hasProgressDeadline(d)) {
      setCondition(d, newCondition('Progressing', 'True', DEPLOYMENT_REASONS.newReplicaSet, `Created new replica set "${name}"`, now()));
      needsUpdate = true;
    }
    if (needsUpdate) updateDeploymentStatus(d);
    return created;
  }

  /**
   * `scaleReplicaSet`: set `spec.replicas` and the desired/max-replicas annotations; records
   * `ScalingReplicaSet` "Scaled up|down replica set X from A to B" (wording since 1.31,
   * kubernetes/kubernetes#125118) when the size changed.
   */
  function scaleReplicaSet(d: KubeObject, rsList: RS[], rs: RS, newScale: number, op: 'up' | 'down' | ''): { scaled: boolean; rs: RS } {
    const oldScale = rs.spec?.replicas ?? 0;
    const sizeNeedsUpdate = oldScale !== newScale;
    const desired = replicasOf(d);
    const max = desired + maxSurge(d);
    if (!sizeNeedsUpdate && !replicasAnnotationsNeedUpdate(rs, desired, max)) return { scaled: false, rs };
    const rsCopy = deepCopy(rs);
    rsCopy.spec.replicas = newScale;
    setReplicasAnnotations(rsCopy, desired, max);
    const updated = remember(rsList, api.update(rsCopy, FIELD_MANAGER));
    if (sizeNeedsUpdate) {
      recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${op} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`);
      trace(d, `scaled ${op} ReplicaSet ${rs.metadata.name} from ${oldScale} to ${newScale}`);
    }
    return { scaled: sizeNeedsUpdate, rs: updated };
  }

  function scaleReplicaSetAndRecordEvent(d: KubeObject, rsList: RS[], rs: RS, newScale: number): { scaled: boolean; rs: RS } {
    const cur = rs.spec?.replicas ?? 0;
    if (cur === newScale) return { scaled: false, rs };
    return scaleReplicaSet(d, rsList, rs, newScale, cur < newScale ? 'up' : 'down');
  }

  // ---------------------------------------------------------------- rolling update

  /** `rolloutRolling`: scale the new ReplicaSet up if we can; else old ones down; then status. */
  function rolloutRolling(d: KubeObject, rsList: RS[]): void {
    const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(d, rsList, true);
    // Each step works on the ReplicaSets as the previous step left them.
    const current = (rs: RS) => latest(rsList, rs);
    const allRSs = () => (newRS ? [...oldRSs.map(current), current(newRS)] : oldRSs.map(current));
    if (!newRS) return;
    if (reconcileNewReplicaSet(d, rsList, allRSs(), current(newRS))) return syncRolloutStatus(d, allRSs(), current(newRS));
    const activeOld = oldRSs.map(current).filter((rs) => (rs.spec?.replicas ?? 0) > 0);
    if (reconcileOldReplicaSets(d, rsList, allRSs(), activeOld, current(newRS))) return syncRolloutStatus(d, allRSs(), current(newRS));
    if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(d, oldRSs.map(current));
    return syncRolloutStatus(d, allRSs(), current(newRS));
  }

  /** `reconcileNewReplicaSet`: new RS to min(replicas, what maxSurge allows); down if above replicas. */
  function reconcileNewReplicaSet(d: KubeObject, rsList: RS[], allRSs: RS[], newRS: RS): boolean {
    const want = replicasOf(d);
    const cur = newRS.spec?.replicas ?? 0;
    if (cur === want) return false;
    if (cur > want) return scaleReplicaSetAndRecordEvent(d, rsList, newRS, want).scaled;
    return scaleReplicaSetAndRecordEvent(d, rsList, newRS, newRSNewReplicas(d, allRSs, newRS)).scaled;
  }

  /**
   * `reconcileOldReplicaSets`: how far old ReplicaSets may shrink without going below
   * replicas - maxUnavailable available (counting the new RS's unavailable pods against it):
   * first their unhealthy replicas, then available ones, oldest ReplicaSet first.
   */
  function reconcileOldReplicaSets(d: KubeObject, rsList: RS[], allRSs: RS[], oldRSs: RS[], newRS: RS): boolean {
    if (sumSpecReplicas(oldRSs) === 0) return false;
    const allPods = sumSpecReplicas(allRSs);
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const newUnavailable = (newRS.spec?.replicas ?? 0) - (newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let cleaned: number;
    let olds: RS[];
    try {
      ({ olds, cleaned } = cleanupUnhealthyReplicas(d, rsList, oldRSs, maxScaledDown));
    } catch (e) {
      if (e instanceof ApiError) return false;
      throw e;
    }
    // As the real controller, a failed scale-down is not an error of the sync (it is retried
    // by the next one).
    try {
      return cleaned + scaleDownOldReplicaSetsForRollingUpdate(d, rsList, [...olds, newRS], olds) > 0;
    } catch (e) {
      if (e instanceof ApiError) return false;
      throw e;
    }
  }

  /** `cleanupUnhealthyReplicas`: drop old replicas that are not available anyway (oldest RS first). */
  function cleanupUnhealthyReplicas(d: KubeObject, rsList: RS[], oldRSs: RS[], maxCleanup: number): { olds: RS[]; cleaned: number } {
    const olds = [...oldRSs].sort(byCreationTimestamp);
    let total = 0;
    for (let i = 0; i < olds.length; i++) {
      if (total >= maxCleanup) break;
      const rs = olds[i];
      const spec = rs.spec?.replicas ?? 0;
      const available = rs.status?.availableReplicas ?? 0;
      if (spec === 0 || spec === available) continue;
      const count = Math.min(maxCleanup - total, spec - available);
      olds[i] = scaleReplicaSetAndRecordEvent(d, rsList, rs, spec - count).rs;
      total += count;
    }
    return { olds, cleaned: total };
  }

  /** `scaleDownOldReplicaSetsForRollingUpdate`: shrink old RSs by (available - minAvailable), oldest first. */
  function scaleDownOldReplicaSetsForRollingUpdate(d: KubeObject, rsList: RS[], allRSs: RS[], oldRSs: RS[]): number {
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const available = allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
    if (available <= minAvailable) return 0;
    const target = available - minAvailable;
    let total = 0;
    for (const rs of [...oldRSs].sort(byCreationTimestamp)) {
      if (total >= target) break;
      const spec = rs.spec?.replicas ?? 0;
      if (spec === 0) continue;
      const count = Math.min(spec, target - total);
      scaleReplicaSetAndRecordEvent(d, rsList, rs, spec - count);
      total += count;
    }
    return total;
  }

  // ---------------------------------------------------------------- recreate

  /**
   * `rolloutRecreate`: old ReplicaSets to 0; wait until none of their pods is left running
   * (any non-terminal phase counts); only then create or scale up the new one.
   */
  function rolloutRecreate(d: KubeObject, rsList: RS[]): void {
    let { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(d, rsList, false);
    const current = (rs: RS) => latest(rsList, rs);
    const allRSs = () => [...oldRSs.map(current), ...(newRS ? [current(newRS)] : [])];
    let scaledDown = false;
    for (const rs of oldRSs.filter((r) => (r.spec?.replicas ?? 0) > 0)) {
      if (scaleReplicaSetAndRecordEvent(d, rsList, rs, 0).scaled) scaledDown = true;
    }
    if (scaledDown) return syncRolloutStatus(d, allRSs(), newRS && current(newRS));
    if (oldPodsRunning(newRS, oldRSs.map(current))) return syncRolloutStatus(d, allRSs(), newRS && current(newRS));
    if (!newRS) ({ newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(d, rsList, true));
    if (newRS) scaleReplicaSetAndRecordEvent(d, rsList, current(newRS), replicasOf(d));
    if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(d, oldRSs.map(current));
    return syncRolloutStatus(d, allRSs(), newRS && current(newRS));
  }

  /** `oldPodsRunning`: an old RS still reports pods, or a pod of an old RS is not Succeeded/Failed. */
  function oldPodsRunning(newRS: RS | undefined, oldRSs: RS[]): boolean {
    if (oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
    for (const rs of oldRSs) {
      if (newRS && rs.metadata.uid === newRS.metadata.uid) continue;
      for (const pod of podLister.byIndex(POD_CONTROLLER_UID_INDEX, rs.metadata.uid!)) {
        const phase = pod.status?.phase;
        if (phase !== 'Succeeded' && phase !== 'Failed') return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- scaling and paused

  /** `isScalingEvent`: an active ReplicaSet was sized for another `spec.replicas`. */
  function isScalingEvent(d: KubeObject, rsList: RS[]): boolean {
    const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(d, rsList, false);
    for (const rs of [...oldRSs, ...(newRS ? [newRS] : [])]) {
      if ((rs.spec?.replicas ?? 0) <= 0) continue;
      const desired = intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
      if (desired !== undefined && desired !== replicasOf(d)) return true;
    }
    return false;
  }

  /** `sync`: scale (proportionally during a rollout), clean up when paused, write the status. */
  function sync(d: KubeObject, rsList: RS[]): void {
    const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(d, rsList, false);
    scale(d, rsList, newRS, oldRSs);
    const current = (rs: RS) => latest(rsList, rs);
    if (d.spec.paused) cleanupDeployment(d, oldRSs.map(current));
    syncDeploymentStatus(d, [...oldRSs.map(current), ...(newRS ? [current(newRS)] : [])], newRS && current(newRS));
  }

  /**
   * `scale`: one active ReplicaSet takes the whole new size; a saturated new RS means old ones go
   * to 0; otherwise (a scale in mid-rollout) the difference to replicas + maxSurge is shared
   * among the active ReplicaSets in proportion to their size (max-replicas annotation),
   * leftovers to the largest (newest when scaling up, oldest when scaling down).
   */
  function scale(d: KubeObject, rsList: RS[], newRS: RS | undefined, oldRSs: RS[]): void {
    const want = replicasOf(d);
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if ((activeOrLatest.spec?.replicas ?? 0) === want) return;
      scaleReplicaSetAndRecordEvent(d, rsList, activeOrLatest, want);
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of oldRSs.filter((rs) => (rs.spec?.replicas ?? 0) > 0)) scaleReplicaSetAndRecordEvent(d, rsList, old, 0);
      return;
    }
    if (d.spec.strategy?.type === 'Recreate') return;
    const all = [...oldRSs, ...(newRS ? [newRS] : [])].filter((rs) => (rs.spec?.replicas ?? 0) > 0);
    const allowed = want > 0 ? want + maxSurge(d) : 0;
    const toAdd = allowed - sumSpecReplicas(all);
    let op: 'up' | 'down' | '' = '';
    if (toAdd > 0) {
      all.sort((a, b) => (b.spec.replicas - a.spec.replicas) || -byCreationTimestamp(a, b));
      op = 'up';
    } else if (toAdd < 0) {
      all.sort((a, b) => (b.spec.replicas - a.spec.replicas) || byCreationTimestamp(a, b));
      op = 'down';
    }
    let added = 0;
    const sizes = new Map<string, number>();
    for (const rs of all) {
      if (toAdd !== 0) {
        const p = getProportion(rs, d, toAdd, added);
        sizes.set(rs.metadata.uid!, rs.spec.replicas + p);
        added += p;
      } else sizes.set(rs.metadata.uid!, rs.spec.replicas);
    }
    all.forEach((rs, i) => {
      let size = sizes.get(rs.metadata.uid!)!;
      if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
      scaleReplicaSet(d, rsList, rs, size, op);
    });
  }

  /** `getProportion`: this RS's share of `toAdd`, bounded by what is still left to add. */
  function getProportion(rs: RS, d: KubeObject, toAdd: number, added: number): number {
    if ((rs.spec?.replicas ?? 0) === 0 || toAdd === 0 || toAdd === added) return 0;
    const fraction = replicaSetFraction(rs, d);
    const allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** `getReplicaSetFraction`: round(rs.replicas * (replicas + maxSurge) / max-replicas) - rs.replicas. */
  function replicaSetFraction(rs: RS, d: KubeObject): number {
    if (replicasOf(d) === 0) return -(rs.spec?.replicas ?? 0);
    const deploymentReplicas = replicasOf(d) + maxSurge(d);
    const annotated = intAnnotation(rs, MAX_REPLICAS_ANNOTATION) ?? d.status?.replicas ?? 0;
    if (annotated === 0) return 0; // "we should never proportionally scale up from zero"
    const newSize = (rs.spec.replicas * deploymentReplicas) / annotated;
    return roundHalfAway(newSize) - rs.spec.replicas;
  }

  /** `checkPausedConditions`: Progressing=Unknown DeploymentPaused / DeploymentResumed. */
  function checkPausedConditions(d: KubeObject): void {
    if (!hasProgressDeadline(d)) return;
    const cond = getCondition(d.status, 'Progressing');
    if (cond?.reason === DEPLOYMENT_REASONS.timedOut) return; // keep the reported timeout
    const pausedCondExists = cond?.reason === DEPLOYMENT_REASONS.paused;
    if (d.spec.paused && !pausedCondExists) {
      setCondition(d, newCondition('Progressing', 'Unknown', DEPLOYMENT_REASONS.paused, 'Deployment is paused', now()));
      trace(d, 'is paused');
    } else if (!d.spec.paused && pausedCondExists) {
      setCondition(d, newCondition('Progressing', 'Unknown', DEPLOYMENT_REASONS.resumed, 'Deployment is resumed', now()));
      trace(d, 'is resumed');
    } else return;
    updateDeploymentStatus(d);
  }

  /**
   * `cleanupDeployment`: keep at most revisionHistoryLimit old ReplicaSets; delete the oldest
   * revisions beyond that, only those with no replicas (spec and status) and fully observed.
   */
  function cleanupDeployment(d: KubeObject, oldRSs: RS[]): void {
    const limit = d.spec.revisionHistoryLimit;
    if (limit === undefined || limit === null || limit === MAX_INT32) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
    const diff = cleanable.length - limit;
    for (let i = 0; i < diff; i++) {
      const rs = cleanable[i];
      if ((rs.status?.replicas ?? 0) !== 0 || (rs.spec?.replicas ?? 0) !== 0) continue;
      if ((rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        api.delete('replicasets', rs.metadata.namespace, rs.metadata.name!, FIELD_MANAGER);
        trace(d, `deleted old ReplicaSet ${rs.metadata.name} (revisionHistoryLimit ${limit})`);
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== 404) throw e;
      }
    }
  }

  // ---------------------------------------------------------------- status

  function syncStatusOnly(d: KubeObject, rsList: RS[]): void {
    const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(d, rsList, false);
    syncDeploymentStatus(d, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  /** `syncDeploymentStatus`: counts and the Available condition, written when changed. */
  function syncDeploymentStatus(d: KubeObject, allRSs: RS[], newRS: RS | undefined): void {
    const status = calculateStatus(allRSs, newRS, d, now());
    if (deepEqual(normalizeStatus(d.status), status)) return;
    d.status = status;
    updateDeploymentStatus(d);
  }

  /**
   * `syncRolloutStatus`: the status plus progress estimation: Progressing=True
   * NewReplicaSetAvailable once complete, ReplicaSetUpdated on any progress,
   * Progressing=False ProgressDeadlineExceeded when the last progress is older than
   * progressDeadlineSeconds; the ReplicaSets' ReplicaFailure condition copied over. When nothing
   * changed, the Deployment is requeued for the moment its deadline would pass.
   */
  function syncRolloutStatus(d: KubeObject, allRSs: RS[], newRS: RS | undefined): void {
    const status = calculateStatus(allRSs, newRS, d, now());
    if (!hasProgressDeadline(d)) status.conditions = (status.conditions ?? []).filter((c) => c.type !== 'Progressing');
    const currentCond = getCondition(d.status, 'Progressing');
    const isComplete = (status.replicas ?? 0) === (status.updatedReplicas ?? 0) && currentCond?.reason === DEPLOYMENT_REASONS.newRSAvailable;
    const rsName = newRS?.metadata.name;
    if (hasProgressDeadline(d) && !isComplete) {
      if (deploymentComplete(d, status)) {
        const msg = rsName ? `ReplicaSet "${rsName}" has successfully progressed.` : `Deployment "${d.metadata.name}" has successfully progressed.`;
        if (setStatusCondition(status, newCondition('Progressing', 'True', DEPLOYMENT_REASONS.newRSAvailable, msg, now()))) trace(d, `rollout complete: ${msg}`);
      } else if (deploymentProgressing(d, status)) {
        const msg = rsName ? `ReplicaSet "${rsName}" is progressing.` : `Deployment "${d.metadata.name}" is progressing.`;
        const cond = newCondition('Progressing', 'True', DEPLOYMENT_REASONS.replicaSetUpdated, msg, now());
        // Same reason again still moves lastUpdateTime: progress is what the deadline measures.
        if (currentCond) {
          if (currentCond.status === 'True') cond.lastTransitionTime = currentCond.lastTransitionTime;
          status.conditions = (status.conditions ?? []).filter((c) => c.type !== 'Progressing');
        }
        setStatusCondition(status, cond);
      } else if (deploymentTimedOut(d, status)) {
        const msg = rsName ? `ReplicaSet "${rsName}" has timed out progressing.` : `Deployment "${d.metadata.name}" has timed out progressing.`;
        if (setStatusCondition(status, newCondition('Progressing', 'False', DEPLOYMENT_REASONS.timedOut, msg, now()))) trace(d, `has timed out progressing: ${msg}`, 'Warning');
      }
    }
    const failure = getReplicaFailure(allRSs, newRS);
    if (failure) setStatusCondition(status, failure);
    else status.conditions = (status.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
    if (status.conditions && status.conditions.length === 0) delete status.conditions;

    if (deepEqual(normalizeStatus(d.status), status)) {
      requeueStuckDeployment(d, status);
      return;
    }
    d.status = status;
    updateDeploymentStatus(d);
  }

  /** `DeploymentTimedOut`: the last progress (Progressing.lastUpdateTime) is older than the deadline. */
  function deploymentTimedOut(d: KubeObject, status: DeploymentStatus): boolean {
    if (!hasProgressDeadline(d)) return false;
    const cond = getCondition(status, 'Progressing');
    if (!cond) return false;
    if (cond.reason === DEPLOYMENT_REASONS.newRSAvailable) return false;
    if (cond.reason === DEPLOYMENT_REASONS.timedOut) return true;
    return toVirtualMs(cond.lastUpdateTime) + d.spec.progressDeadlineSeconds * 1000 < clock.now();
  }

  /**
   * `requeueStuckDeployment`: no progress this sync, so look again when the deadline passes
   * (lastUpdateTime + progressDeadlineSeconds, plus a second against skew); at once (rate
   * limited) when less than a second is left.
   */
  function requeueStuckDeployment(d: KubeObject, status: DeploymentStatus): void {
    const cond = getCondition(d.status, 'Progressing');
    if (!hasProgressDeadline(d) || !cond) return;
    if (deploymentComplete(d, status) || cond.reason === DEPLOYMENT_REASONS.timedOut) return;
    const after = toVirtualMs(cond.lastUpdateTime) + d.spec.progressDeadlineSeconds * 1000 - clock.now();
    const key = metaNamespaceKey(d);
    if (after < 1000) queue.addRateLimited(key);
    else queue.addAfter(key, after + 1000);
  }

  // ---------------------------------------------------------------- workers

  const workers = startWorkers(queue, syncDeployment, {
    clock,
    name: DEPLOYMENT_CONTROLLER,
    workers: ctx.setting('concurrentDeploymentSyncs', CONCURRENT_DEPLOYMENT_SYNCS),
    waitForSync: [dInformer, rsInformer, podInformer],
  });

  return {
    name: DEPLOYMENT_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}

// ------------------------------------------------------------------------------ pure helpers (deployment_util.go)

const selectorCache = new WeakMap<object, Selector | null>();

/** The compiled `spec.selector` of a cached object; null when it does not compile. */
function selectorOf(obj: KubeObject): Selector | null {
  const ls = obj.spec?.selector;
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
}

function replicasOf(d: KubeObject): number {
  return d.spec?.replicas ?? 1;
}

function sumSpecReplicas(rss: RS[]): number {
  return rss.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
}

/** `HasProgressDeadline`: set and not MaxInt32. */
function hasProgressDeadline(d: KubeObject): boolean {
  const p = d.spec?.progressDeadlineSeconds;
  return p !== undefined && p !== null && p !== MAX_INT32;
}

/**
 * `intstr.GetScaledValueFromIntOrPercent`: an int as is; `N%` of `total`, rounded up or down.
 * Anything else (validation rejects it) counts as 0.
 */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/**
 * `ResolveFenceposts`: maxSurge rounds up, maxUnavailable rounds down (both of spec.replicas);
 * when both come out 0, maxUnavailable is 1. Returns [surge, unavailable].
 */
export function resolveFenceposts(maxSurgeV: number | string | undefined, maxUnavailableV: number | string | undefined, desired: number): [number, number] {
  const surge = scaledValue(maxSurgeV ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailableV ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, unavailable];
}

function isRollingUpdate(d: KubeObject): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** `MaxSurge`: 0 unless RollingUpdate. */
function maxSurge(d: KubeObject): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = d.spec.strategy?.rollingUpdate ?? {};
  return resolveFenceposts(ru.maxSurge, ru.maxUnavailable, replicasOf(d))[0];
}

/** `MaxUnavailable`: 0 unless RollingUpdate (or replicas 0); never above replicas. */
function maxUnavailable(d: KubeObject): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  const ru = d.spec.strategy?.rollingUpdate ?? {};
  return Math.min(resolveFenceposts(ru.maxSurge, ru.maxUnavailable, replicasOf(d))[1], replicasOf(d));
}

/**
 * `NewRSNewReplicas`: RollingUpdate -> up to replicas + maxSurge in total (spec sums), never
 * above replicas; Recreate -> replicas.
 */
function newRSNewReplicas(d: KubeObject, allRSs: RS[], newRS: RS): number {
  const cur = newRS.spec?.replicas ?? 0;
  if (d.spec?.strategy?.type === 'Recreate') return replicasOf(d);
  const ru = d.spec.strategy?.rollingUpdate ?? {};
  const surge = scaledValue(ru.maxSurge ?? 0, replicasOf(d), true);
  const current = sumSpecReplicas(allRSs);
  const maxTotal = replicasOf(d) + surge;
  if (current >= maxTotal) return cur;
  return cur + Math.min(maxTotal - current, replicasOf(d) - cur);
}

/** `IsSaturated`: the new RS has all replicas, believes so (annotation) and all are available. */
function isSaturated(d: KubeObject, rs: RS | undefined): boolean {
  if (!rs) return false;
  const desired = intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
  if (desired === undefined) return false;
  const want = replicasOf(d);
  return (rs.spec?.replicas ?? 0) === want && desired === want && (rs.status?.availableReplicas ?? 0) === want;
}

/** `FindActiveOrLatest`: the only active RS, or the newest when none is active; undefined when several are. */
function findActiveOrLatest(newRS: RS | undefined, oldRSs: RS[]): RS | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const olds = [...oldRSs].sort((a, b) => -byCreationTimestamp(a, b));
  const active = [...olds, ...(newRS ? [newRS] : [])].filter((rs) => (rs.spec?.replicas ?? 0) > 0);
  if (active.length === 0) return newRS ?? olds[0];
  if (active.length === 1) return active[0];
  return undefined;
}

/** `DeploymentComplete`: all replicas updated and available, nothing old left, generation observed. */
function deploymentComplete(d: KubeObject, status: DeploymentStatus): boolean {
  const want = replicasOf(d);
  return (status.updatedReplicas ?? 0) === want && (status.replicas ?? 0) === want && (status.availableReplicas ?? 0) === want && (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** `DeploymentProgressing`: more updated, fewer old, more ready or more available than before. */
function deploymentProgressing(d: KubeObject, status: DeploymentStatus): boolean {
  const old: DeploymentStatus = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * `calculateStatus` (sync.go): sums of the ReplicaSets' status counts (updated = the new RS's),
 * unavailable = spec sum - available (not below 0), observedGeneration, the Deployment's
 * conditions with Available set from replicas - maxUnavailable.
 */
function calculateStatus(allRSs: RS[], newRS: RS | undefined, d: KubeObject, nowTs: string): DeploymentStatus {
  const sum = (f: (rs: RS) => number) => allRSs.reduce((n, rs) => n + f(rs), 0);
  const available = sum((rs) => rs.status?.availableReplicas ?? 0);
  const total = sumSpecReplicas(allRSs);
  const unavailable = Math.max(0, total - available);
  const status: DeploymentStatus = {};
  const set = (k: keyof DeploymentStatus, v: number | undefined) => {
    if (v) (status as Record<string, unknown>)[k] = v;
  };
  set('observedGeneration', d.metadata.generation);
  set('replicas', sum((rs) => rs.status?.replicas ?? 0));
  set('updatedReplicas', newRS?.status?.replicas ?? 0);
  set('readyReplicas', sum((rs) => rs.status?.readyReplicas ?? 0));
  set('availableReplicas', available);
  set('unavailableReplicas', unavailable);
  const conditions = (d.status?.conditions ?? []).map((c: DeploymentCondition) => ({ ...c }));
  if (conditions.length) status.conditions = conditions;
  set('collisionCount', d.status?.collisionCount);
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setStatusCondition(status, newCondition('Available', 'True', DEPLOYMENT_REASONS.minimumReplicasAvailable, 'Deployment has minimum availability.', nowTs));
  } else {
    setStatusCondition(status, newCondition('Available', 'False', DEPLOYMENT_REASONS.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', nowTs));
  }
  return status;
}

/** A stored status with only the fields `calculateStatus` writes, for comparison. */
function normalizeStatus(s: DeploymentStatus | undefined): DeploymentStatus {
  const out: DeploymentStatus = {};
  if (!s) return out;
  for (const k of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'] as const) {
    if (s[k]) out[k] = s[k];
  }
  if (s.conditions?.length) out.conditions = s.conditions;
  return out;
}

/** `getReplicaFailures`: the new RS's ReplicaFailure condition, else any old RS's, as a Deployment condition. */
function getReplicaFailure(allRSs: RS[], newRS: RS | undefined): DeploymentCondition | undefined {
  const toDeployment = (c: { type: string; status: DeploymentCondition['status']; lastTransitionTime: string; reason: string; message: string }): DeploymentCondition => ({
    type: c.type,
    status: c.status,
    lastUpdateTime: c.lastTransitionTime,
    lastTransitionTime: c.lastTransitionTime,
    reason: c.reason,
    message: c.message,
  });
  for (const rs of newRS ? [newRS, ...allRSs] : allRSs) {
    const c = (rs.status?.conditions ?? []).find((x: { type: string }) => x.type === 'ReplicaFailure');
    if (c) return toDeployment(c);
  }
  return undefined;
}

function newCondition(type: string, status: DeploymentCondition['status'], reason: string, message: string, nowTs: string): DeploymentCondition {
  return { type, status, lastUpdateTime: nowTs, lastTransitionTime: nowTs, reason, message };
}

function getCondition(status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined {
  return (status?.conditions ?? []).find((c) => c.type === type);
}

/**
 * `SetDeploymentCondition`: no change when status and reason are the same; keeps
 * lastTransitionTime when only the reason changed; the condition moves to the end of the list.
 * Returns true when something changed.
 */
function setStatusCondition(status: DeploymentStatus, cond: DeploymentCondition): boolean {
  const cur = getCondition(status, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return false;
  if (cur && cur.status === cond.status) cond.lastTransitionTime = cur.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== cond.type), cond];
  return true;
}

function setCondition(d: KubeObject, cond: DeploymentCondition): void {
  d.status = d.status ?? {};
  setStatusCondition(d.status, cond);
}

function intAnnotation(obj: KubeObject, key: string): number | undefined {
  const v = obj.metadata.annotations?.[key];
  if (v === undefined || !/^-?\d+$/.test(v)) return undefined;
  return Number(v);
}

/** `Revision`: the revision annotation as a number (0 when absent or invalid). */
function revisionOf(rs: RS): number {
  return intAnnotation(rs, REVISION_ANNOTATION) ?? 0;
}

function maxRevision(rss: RS[]): number {
  return rss.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);
}

/** `SetDeploymentRevision`: the Deployment mirrors its new ReplicaSet's revision. */
function setDeploymentRevision(d: KubeObject, revision: string): boolean {
  d.metadata.annotations = d.metadata.annotations ?? {};
  if (d.metadata.annotations[REVISION_ANNOTATION] === revision) return false;
  d.metadata.annotations[REVISION_ANNOTATION] = revision;
  return true;
}

/**
 * `SetNewReplicaSetAnnotations`: copy the Deployment's annotations (minus the skipped ones),
 * raise the revision to `newRevision` when lower (recording the old one in revision-history:
 * a rollback), and on creation set desired/max-replicas. Returns true when anything changed.
 */
function setNewReplicaSetAnnotations(d: KubeObject, rs: RS, newRevision: string, exists: boolean): boolean {
  rs.metadata.annotations = rs.metadata.annotations ?? {};
  const ann = rs.metadata.annotations;
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (ANNOTATIONS_TO_SKIP.has(k) || ann[k] === v) continue;
    ann[k] = v;
    changed = true;
  }
  const oldRevision = ann[REVISION_ANNOTATION];
  const hadRevision = oldRevision !== undefined;
  const oldRev = oldRevision === undefined || oldRevision === '' ? 0 : /^\d+$/.test(oldRevision) ? Number(oldRevision) : NaN;
  if (Number.isNaN(oldRev)) return false;
  const newRev = Number(newRevision);
  if (oldRev < newRev) {
    ann[REVISION_ANNOTATION] = newRevision;
    changed = true;
    if (hadRevision) {
      const history = ann[REVISION_HISTORY_ANNOTATION] ?? '';
      if (history === '') ann[REVISION_HISTORY_ANNOTATION] = oldRevision!;
      else {
        const parts = history.split(',');
        let totalLen = history.length + oldRevision!.length + 1;
        let start = 0;
        while (totalLen > MAX_REV_HISTORY_LENGTH_IN_CHARS && start < parts.length) totalLen -= parts[start++].length + 1;
        if (totalLen <= MAX_REV_HISTORY_LENGTH_IN_CHARS) ann[REVISION_HISTORY_ANNOTATION] = [...parts.slice(start), oldRevision!].join(',');
      }
    }
  }
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

/** `SetReplicasAnnotations`: desired-replicas and max-replicas; true when changed. */
function setReplicasAnnotations(rs: RS, desired: number, max: number): boolean {
  rs.metadata.annotations = rs.metadata.annotations ?? {};
  const ann = rs.metadata.annotations;
  let changed = false;
  if (ann[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
    ann[DESIRED_REPLICAS_ANNOTATION] = String(desired);
    changed = true;
  }
  if (ann[MAX_REPLICAS_ANNOTATION] !== String(max)) {
    ann[MAX_REPLICAS_ANNOTATION] = String(max);
    changed = true;
  }
  return changed;
}

function replicasAnnotationsNeedUpdate(rs: RS, desired: number, max: number): boolean {
  const ann = rs.metadata.annotations;
  return !ann || ann[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || ann[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** `ReplicaSetsByCreationTimestamp`: older first, then by name. */
function byCreationTimestamp(a: RS, b: RS): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** `ReplicaSetsByRevision`: lower revision first, ties by creation time. */
function byRevision(a: RS, b: RS): number {
  const ra = revisionOf(a);
  const rb = revisionOf(b);
  return ra === rb ? byCreationTimestamp(a, b) : ra - rb;
}

/** `integer.RoundToInt32`: round half away from zero. */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

const normalizedTemplates = new WeakMap<object, unknown>();

/**
 * `EqualIgnoreHash`: two pod templates equal apart from the pod-template-hash label, with
 * Semantic.DeepEqual's rule that empty and absent maps/lists are the same.
 */
function equalIgnoreHash(t1: unknown, t2: unknown): boolean {
  return deepEqual(normalizedTemplate(t1), normalizedTemplate(t2));
}

function normalizedTemplate(t: unknown): unknown {
  if (t === null || typeof t !== 'object') return t;
  let n = normalizedTemplates.get(t);
  if (n === undefined) {
    const copy = deepCopy(t) as { metadata?: { labels?: Record<string, string> } };
    if (copy.metadata?.labels) delete copy.metadata.labels[POD_TEMPLATE_HASH_LABEL];
    n = dropEmpty(copy) ?? {};
    normalizedTemplates.set(t, n);
  }
  return n;
}

/** Remove empty objects and arrays (recursively); undefined when `v` itself ends up empty. */
function dropEmpty(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const arr = v.map(dropEmpty);
    return arr.length ? arr : undefined;
  }
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const y = dropEmpty(x);
    if (y !== undefined) {
      out[k] = y;
      any = true;
    }
  }
  return any ? out : undefined;
}

/** `FindNewReplicaSet`: the oldest ReplicaSet whose template equals the Deployment's. */
function findNewReplicaSet(d: KubeObject, rsList: RS[]): RS | undefined {
  const sorted = [...rsList].sort(byCreationTimestamp);
  return sorted.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}
