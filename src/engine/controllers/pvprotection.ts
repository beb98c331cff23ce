/**
 * persistentvolume-protection-controller (`--controllers` name `pv-protection`): removes the
 * `kubernetes.io/pv-protection` finalizer from a volume being deleted once it is not Bound, and
 * adds it to a live volume that lacks it. Mirrors
 * pkg/controller/volume/pvprotection/pv_protection_controller.go (`processPV`, `isVolumeUsed`:
 * `status.phase == Bound`). No Events (the real controller only logs).
 *
 * So `kubectl delete pv` of a Bound volume leaves it `Terminating` until its claim is deleted
 * (the binder then marks it Released).
 */
import { ApiError } from '../api/errors';
import { deepCopy, type KubeObject } from '../api/types';
import { PV_PROTECTION_FINALIZER } from '../api/storageprotection';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';

/** Name on traces. Source: cmd/kube-controller-manager/names (`PersistentVolumeProtectionController`). */
export const PV_PROTECTION_CONTROLLER = 'persistentvolume-protection-controller';
/** Workers: `Run(ctx, 1)`. Source: cmd/kube-controller-manager/app/core.go (`startPersistentVolumeProtectionController`). */
export const PV_PROTECTION_WORKERS = 1;

const hasFinalizer = (o: KubeObject) => (o.metadata.finalizers ?? []).includes(PV_PROTECTION_FINALIZER);

/** Start the pv-protection controller (see the file comment). Watches volumes. */
export function newPVProtectionController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const informer = ctx.informers.informer('persistentvolumes');
  const queue = new RateLimitingQueue(clock, { name: 'pvprotection' });
  const needToAdd = (pv: KubeObject) => !pv.metadata.deletionTimestamp && !hasFinalizer(pv);
  const isDeletionCandidate = (pv: KubeObject) => !!pv.metadata.deletionTimestamp && hasFinalizer(pv);
  const enqueue = (pv: KubeObject) => {
    if (needToAdd(pv) || isDeletionCandidate(pv)) queue.add(pv.metadata.name!);
  };
  informer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });

  const trace = (pv: KubeObject, msg: string) =>
    ctx.trace(PV_PROTECTION_CONTROLLER, `${pv.metadata.name}: ${msg}`, { kind: 'PersistentVolume', name: pv.metadata.name!, uid: pv.metadata.uid });
  const writeFinalizers = (pv: KubeObject, finalizers: string[]) => {
    const copy = deepCopy(pv);
    copy.metadata.finalizers = finalizers.length ? finalizers : undefined;
    api.update(copy, { fieldManager: 'kube-controller-manager' });
  };

  /** `processPV`. */
  const reconcile = (key: string): ReconcileResult | void => {
    const pv = informer.lister.get(undefined, key);
    if (!pv) return;
    try {
      if (isDeletionCandidate(pv)) {
        if (pv.status?.phase === 'Bound') {
          trace(pv, `is being deleted but still Bound -> keep finalizer ${PV_PROTECTION_FINALIZER}`);
          return;
        }
        writeFinalizers(pv, (pv.metadata.finalizers ?? []).filter((f) => f !== PV_PROTECTION_FINALIZER));
        trace(pv, `is not Bound -> removed finalizer ${PV_PROTECTION_FINALIZER}`);
        return;
      }
      if (needToAdd(pv)) {
        writeFinalizers(pv, [...(pv.metadata.finalizers ?? []), PV_PROTECTION_FINALIZER]);
        trace(pv, `added finalizer ${PV_PROTECTION_FINALIZER}`);
      }
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return;
      if (e instanceof ApiError && e.code === 409) return { requeue: true };
      throw e;
    }
  };

  const workers = startWorkers(queue, reconcile, { clock, name: PV_PROTECTION_CONTROLLER, workers: PV_PROTECTION_WORKERS, waitForSync: [informer] });
  return {
    name: PV_PROTECTION_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}
