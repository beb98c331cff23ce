/**
 * persistentvolumeclaim-protection-controller (`--controllers` name `pvc-protection`): removes the
 * `kubernetes.io/pvc-protection` finalizer from a claim being deleted once no pod uses it, and
 * adds it to a live claim that lacks it. Mirrors
 * pkg/controller/volume/pvcprotection/pvc_protection_controller.go:
 *
 * - claims are enqueued when they need the finalizer (`needToAddFinalizer`: no deletionTimestamp,
 *   no finalizer) or are deletion candidates (`isDeletionCandidate`: deletionTimestamp and the
 *   finalizer);
 * - a pod enqueues the claims it references when it is deleted, terminated (Succeeded/Failed) or
 *   not scheduled (`podAddedDeletedUpdated`: other pods cannot help remove a finalizer);
 * - `processPVC`: a deletion candidate that is not in use loses the finalizer (an Update);
 *   "in use" is `podUsesPVC`: a pod with `spec.nodeName` set whose `persistentVolumeClaim`
 *   volume names the claim, whatever its phase (a Completed pod keeps the claim until the pod
 *   object is deleted), or a not-shut-down pod whose generic ephemeral volume made the claim.
 *   The informer cache is asked first, then a live pod list (`askAPIServer`), as the real
 *   controller does. No Events (the real controller only logs).
 *
 * So `kubectl delete pvc data` while a running pod mounts it returns at once, and the claim
 * shows `Terminating` in `kubectl get pvc` until that pod is gone.
 */
import { ApiError } from '../api/errors';
import { deepCopy, type KubeObject } from '../api/types';
import { PVC_PROTECTION_FINALIZER } from '../api/storageprotection';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';
import { indexPodByPvc, POD_PVC_INDEX } from './persistentvolume';

/** Name on traces. Source: cmd/kube-controller-manager/names (`PersistentVolumeClaimProtectionController`). */
export const PVC_PROTECTION_CONTROLLER = 'persistentvolumeclaim-protection-controller';
/** Workers: `Run(ctx, 1)`. Source: cmd/kube-controller-manager/app/core.go (`startPersistentVolumeClaimProtectionController`). */
export const PVC_PROTECTION_WORKERS = 1;

const hasFinalizer = (o: KubeObject, f: string) => (o.metadata.finalizers ?? []).includes(f);

/** `needToAddFinalizer`: a live claim without the finalizer. */
function needToAddFinalizer(pvc: KubeObject): boolean {
  return !pvc.metadata.deletionTimestamp && !hasFinalizer(pvc, PVC_PROTECTION_FINALIZER);
}

/** `isDeletionCandidate`: being deleted and still holding the finalizer. */
function isDeletionCandidate(pvc: KubeObject): boolean {
  return !!pvc.metadata.deletionTimestamp && hasFinalizer(pvc, PVC_PROTECTION_FINALIZER);
}

/**
 * `podIsShutDown`: the kubelet is done with the pod (deletionTimestamp with grace 0) or it is
 * terminated (`IsPodTerminated`: Succeeded or Failed).
 */
function podIsShutDown(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp && (pod.metadata.deletionGracePeriodSeconds ?? 0) === 0) return true;
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/**
 * `podUsesPVC`: only scheduled pods count (the kubelet will not start a pod whose claim is being
 * deleted); a `persistentVolumeClaim` volume naming the claim, or a generic ephemeral volume
 * `<pod>-<volume>` whose claim the pod controls, while the pod is not shut down.
 */
export function podUsesPVC(pod: KubeObject, pvc: KubeObject): boolean {
  if (!pod.spec?.nodeName || pod.metadata.namespace !== pvc.metadata.namespace) return false;
  for (const v of (pod.spec.volumes ?? []) as { name: string; persistentVolumeClaim?: { claimName: string }; ephemeral?: unknown }[]) {
    if (v.persistentVolumeClaim && v.persistentVolumeClaim.claimName === pvc.metadata.name) return true;
    if (v.ephemeral && !podIsShutDown(pod) && `${pod.metadata.name}-${v.name}` === pvc.metadata.name) {
      const owner = (pvc.metadata.ownerReferences ?? []).find((r) => r.controller);
      if (owner?.uid === pod.metadata.uid) return true;
    }
  }
  return false;
}

/** Start the pvc-protection controller (see the file comment). Watches claims and pods. */
export function newPVCProtectionController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const pvcInformer = ctx.informers.informer('persistentvolumeclaims');
  const podInformer = ctx.informers.informer('pods', { indexers: { [POD_PVC_INDEX]: indexPodByPvc } });
  const queue = new RateLimitingQueue(clock, { name: 'pvcprotection' });

  const pvcAddedUpdated = (pvc: KubeObject) => {
    if (needToAddFinalizer(pvc) || isDeletionCandidate(pvc)) queue.add(metaNamespaceKey(pvc));
  };
  pvcInformer.addEventHandler({ onAdd: pvcAddedUpdated, onUpdate: (_o, n) => pvcAddedUpdated(n) });

  /** `podAddedDeletedUpdated`: enqueue the claims of a pod that can no longer hold them. */
  const podChanged = (pod: KubeObject, deleted: boolean) => {
    const terminated = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    if (!deleted && !terminated && pod.spec?.nodeName) return;
    for (const key of indexPodByPvc(pod)) queue.add(key);
  };
  podInformer.addEventHandler({
    onAdd: (p) => podChanged(p, false),
    onUpdate: (_o, p) => podChanged(p, false),
    onDelete: (p) => podChanged(p, true),
  });

  const trace = (pvc: KubeObject, msg: string) =>
    ctx.trace(PVC_PROTECTION_CONTROLLER, `${metaNamespaceKey(pvc)}: ${msg}`, { kind: 'PersistentVolumeClaim', namespace: pvc.metadata.namespace, name: pvc.metadata.name!, uid: pvc.metadata.uid });

  /** `isBeingUsed`: the informer cache first, then a live list of the namespace's pods. */
  const usedBy = (pvc: KubeObject): KubeObject | undefined => {
    const cached = podInformer.lister.byIndex(POD_PVC_INDEX, metaNamespaceKey(pvc)).find((p) => podUsesPVC(p, pvc));
    if (cached) return cached;
    return api.list('pods', { namespace: pvc.metadata.namespace }).items.find((p) => podUsesPVC(p, pvc));
  };

  const writeFinalizers = (pvc: KubeObject, finalizers: string[]) => {
    const copy = deepCopy(pvc);
    copy.metadata.finalizers = finalizers.length ? finalizers : undefined;
    api.update(copy, { fieldManager: 'kube-controller-manager' });
  };

  /** `processPVC`. */
  const reconcile = (key: string): ReconcileResult | void => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pvc = pvcInformer.lister.get(namespace, name);
    if (!pvc) return;
    try {
      if (isDeletionCandidate(pvc)) {
        const pod = usedBy(pvc);
        if (pod) {
          trace(pvc, `is being deleted but used by pod ${pod.metadata.name} -> keep finalizer ${PVC_PROTECTION_FINALIZER}`);
          return;
        }
        writeFinalizers(pvc, (pvc.metadata.finalizers ?? []).filter((f) => f !== PVC_PROTECTION_FINALIZER));
        trace(pvc, `is unused -> removed finalizer ${PVC_PROTECTION_FINALIZER}`);
        return;
      }
      if (needToAddFinalizer(pvc)) {
        writeFinalizers(pvc, [...(pvc.metadata.finalizers ?? []), PVC_PROTECTION_FINALIZER]);
        trace(pvc, `added finalizer ${PVC_PROTECTION_FINALIZER}`);
      }
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return;
      if (e instanceof ApiError && e.code === 409) return { requeue: true };
      throw e;
    }
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: PVC_PROTECTION_CONTROLLER,
    workers: PVC_PROTECTION_WORKERS,
    waitForSync: [pvcInformer, podInformer],
  });
  return {
    name: PVC_PROTECTION_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}
