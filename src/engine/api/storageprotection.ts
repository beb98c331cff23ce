/**
 * The StorageObjectInUseProtection admission plugin
 * (plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go): on CREATE only, every
 * PersistentVolumeClaim gets the finalizer `kubernetes.io/pvc-protection` and every
 * PersistentVolume `kubernetes.io/pv-protection` (unless already listed). The finalizers are
 * removed by kube-controller-manager's pvc-protection and pv-protection controllers
 * (src/engine/controllers/pvcprotection.ts, pvprotection.ts), so a claim a pod still uses, or a
 * volume still Bound, stays `Terminating` after `kubectl delete`.
 */
import type { ResourceType } from './registry';
import type { KubeObject } from './types';

/** Finalizer on claims. Source: pkg/volume/util/finalizer.go (`PVCProtectionFinalizer`). */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** Finalizer on volumes. Source: pkg/volume/util/finalizer.go (`PVProtectionFinalizer`). */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/**
 * The plugin's `Admit` for a CREATE: appends the protection finalizer to a new claim or volume
 * (`admitPVC` / `admitPV`: "if the finalizer is already there, do nothing"); other kinds are
 * left alone. Mutates `obj`.
 */
export function addStorageProtectionFinalizer(t: ResourceType, obj: KubeObject): void {
  const f = t.kind === 'PersistentVolumeClaim' ? PVC_PROTECTION_FINALIZER : t.kind === 'PersistentVolume' ? PV_PROTECTION_FINALIZER : undefined;
  if (!f || t.group !== '') return;
  const list = obj.metadata.finalizers ?? [];
  if (list.includes(f)) return;
  obj.metadata.finalizers = [...list, f];
}
