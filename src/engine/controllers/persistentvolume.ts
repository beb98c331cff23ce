/**
 * persistentvolume-binder-controller: binds PersistentVolumeClaims to PersistentVolumes and asks
 * for dynamic provisioning. Mirrors pkg/controller/volume/persistentvolume/pv_controller.go
 * (syncClaim, syncUnboundClaim, syncBoundClaim, syncVolume, bind, provisionClaim), its
 * pv_controller_base.go (queues, resync) and index.go (findBestMatchForClaim), with the helpers
 * of staging/src/k8s.io/component-helpers/storage/volume/pv_helpers.go. Events come from
 * `persistentvolume-controller`.
 *
 * The binding is two pointers, written volume first: `pv.spec.claimRef` -> the claim (with its
 * uid), then `pvc.spec.volumeName` -> the volume; both phases become `Bound`, the claim gets the
 * annotations `pv.kubernetes.io/bind-completed` and `pv.kubernetes.io/bound-by-controller`, and
 * its status the volume's capacity and access modes.
 *
 * What an unbound claim waits for (what `kubectl describe pvc` shows, cases.md C26):
 *   - an Available volume of its class (the claim's `storageClassName`, "" for none) with at
 *     least the requested size and all the requested access modes (the smallest such wins);
 *   - none, and no class: Normal `FailedBinding` `no persistent volumes available for this claim
 *     and no storage class is set`, again on every resync (15 s);
 *   - a class with `volumeBindingMode: WaitForFirstConsumer` and no node chosen yet: Normal
 *     `WaitForFirstConsumer` `waiting for first consumer to be created before binding`
 *     (`WaitForPodScheduled` `waiting for pod X to be scheduled` once a pod uses it); the
 *     scheduler picks a node and writes `volume.kubernetes.io/selected-node`;
 *   - a class (and a chosen node, or Immediate binding): dynamic provisioning. An external
 *     provisioner (every provisioner in a kind cluster: `rancher.io/local-path`) is asked through
 *     the claim annotations `volume.kubernetes.io/storage-provisioner` (and the beta one), with
 *     Normal `ExternalProvisioning` `Waiting for a volume to be created either by the external
 *     provisioner '<name>' or manually by the system administrator. If volume creation is
 *     delayed, please verify that the provisioner is running and correctly registered.`; the
 *     provisioner creates a volume `pvc-<claim uid>` already pointing at the claim, and this
 *     controller completes the binding;
 *   - a class that does not exist: Warning `ProvisioningFailed`
 *     `storageclass.storage.k8s.io "<name>" not found`.
 * A claim without a class is given the default StorageClass if one appears later
 * (RetroactiveDefaultStorageClass, GA in 1.28).
 *
 * Volumes: a new volume becomes `Available`; when its bound claim is deleted it becomes
 * `Released` and its reclaim policy runs: Retain keeps it; Delete waits for the external
 * provisioner that made it, or (hostPath) deletes it only under /tmp, else `Failed` with Warning
 * `VolumeFailedDelete`.
 *
 * Memory: like the real controller, it keeps its own copy of every claim and volume, fed by the
 * informers and by its own writes (newest resourceVersion wins), so it does not act on an
 * object older than one it just wrote. A newly created volume is considered by a waiting claim at
 * that claim's next sync (the 15 s resync), as in the real controller.
 *
 * The pvc-protection/pv-protection finalizers are other controllers' (pvcprotection.ts,
 * pvprotection.ts). Left out: the
 * `kubernetes.io/pv-controller` deletion finalizer, in-tree provisioning plugins and volume
 * recycling (Recycle gets `VolumeFailedRecycle`), CSI migration annotations, VolumeAttributesClass.
 */
import type { Controller, ControllerContext } from './manager';
import type { Timer } from '../clock';
import { ApiError } from '../api/errors';
import { deepCopy, type KubeObject } from '../api/types';
import { parseQuantity } from '../api/quantity';
import { selectorFromLabelSelector } from '../api/labels';
import type { IndexFunc } from '../client/informer';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';

// ------------------------------------------------------------------------------ names and defaults

/** `--pvclaimbinder-sync-period`: every claim and volume is synced again this often. Source: cmd/kube-controller-manager/app/options (PersistentVolumeBinderController defaults). */
export const PV_CLAIM_BINDER_SYNC_PERIOD_MS = 15_000;
/** The controller's name in kube-controller-manager (traces). Source: cmd/kube-controller-manager/names. */
export const PERSISTENTVOLUME_BINDER_CONTROLLER = 'persistentvolume-binder-controller';
/** `source.component` of its Events. Source: pv_controller_base.go (`NewController`). */
export const PERSISTENTVOLUME_CONTROLLER_COMPONENT = 'persistentvolume-controller';

/** Annotations. Source: staging/src/k8s.io/component-helpers/storage/volume/helpers.go and pv_helpers.go. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** Default StorageClass markers. Source: pkg/volume/util/storageclass.go. */
export const ANN_IS_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_IS_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';

/**
 * In-tree provisioner names migrated to CSI drivers (CSIMigration, all GA by 1.31): the claim
 * is handed to the external driver under its CSI name. Source: staging/src/k8s.io/csi-translation-lib/plugins.
 */
const CSI_MIGRATED: Record<string, string> = {
  'kubernetes.io/aws-ebs': 'ebs.csi.aws.com',
  'kubernetes.io/gce-pd': 'pd.csi.storage.gke.io',
  'kubernetes.io/azure-disk': 'disk.csi.azure.com',
  'kubernetes.io/azure-file': 'file.csi.azure.com',
  'kubernetes.io/cinder': 'cinder.csi.openstack.org',
  'kubernetes.io/vsphere-volume': 'csi.vsphere.vmware.com',
  'kubernetes.io/portworx-volume': 'pxd.portworx.com',
};

/**
 * The StorageClass a kind cluster installs (kind's default-storage manifest): `standard`, the
 * default class, served by rancher.io/local-path, binding when the first pod is scheduled.
 */
export function kindDefaultStorageClass(): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { [ANN_IS_DEFAULT_CLASS]: 'true' } },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
}

// ------------------------------------------------------------------------------ helpers (pv_helpers.go)

/** `GetPersistentVolumeClaimClass`: the beta annotation, else `spec.storageClassName`, else "". */
export function getClaimClass(claim: KubeObject): string {
  const ann = claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (ann !== undefined) return ann;
  return claim.spec?.storageClassName ?? '';
}

/** `PersistentVolumeClaimHasClass`: a class was asked for, even "" (which means "no class"). */
export function claimHasClass(claim: KubeObject): boolean {
  if (claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined) return true;
  return claim.spec?.storageClassName !== undefined && claim.spec?.storageClassName !== null;
}

/** `GetPersistentVolumeClass`. */
export function getVolumeClass(volume: KubeObject): string {
  const ann = volume.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (ann !== undefined) return ann;
  return volume.spec?.storageClassName ?? '';
}

/** `IsVolumeBoundToClaim`: claimRef names the claim (and its uid, when set). */
export function isVolumeBoundToClaim(volume: KubeObject, claim: KubeObject): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** `CheckVolumeModeMismatches` (a missing volumeMode is Filesystem). */
function volumeModeMismatch(claim: KubeObject, volume: KubeObject): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (volume.spec?.volumeMode ?? 'Filesystem');
}

/** `CheckAccessModes`: the volume offers every mode the claim asks for. */
export function checkAccessModes(claim: KubeObject, volume: KubeObject): boolean {
  const offered: string[] = volume.spec?.accessModes ?? [];
  return ((claim.spec?.accessModes ?? []) as string[]).every((m) => offered.includes(m));
}

function storageOf(q: unknown): number {
  if (q === undefined || q === null) return 0;
  const v = parseQuantity(q as string);
  return Number.isFinite(v) ? v : 0;
}

/**
 * `FindMatchingVolume` on the controller's path (no node): a volume pre-bound to the claim wins;
 * otherwise the smallest Available volume of the claim's class, big enough, matching the label
 * selector and volume mode. With `delayBinding` only pre-bound volumes count (the scheduler binds
 * the others).
 */
export function findMatchingVolume(claim: KubeObject, volumes: KubeObject[], delayBinding: boolean): KubeObject | undefined {
  const requested = storageOf(claim.spec?.resources?.requests?.storage);
  const requestedClass = getClaimClass(claim);
  const selector = claim.spec?.selector ? selectorFromLabelSelector(claim.spec.selector) : undefined;
  let smallest: KubeObject | undefined;
  let smallestQty = 0;
  for (const v of volumes) {
    if (v.spec?.claimRef && !isVolumeBoundToClaim(v, claim)) continue;
    const qty = storageOf(v.spec?.capacity?.storage);
    if (qty < requested) continue;
    if (volumeModeMismatch(claim, v)) continue;
    if (v.metadata.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(v, claim)) return v;
    if (delayBinding) continue;
    if (v.status?.phase !== 'Available') continue;
    if (selector && !selector.matches(v.metadata.labels)) continue;
    if (getVolumeClass(v) !== requestedClass) continue;
    if (!smallest || smallestQty > qty) {
      smallest = v;
      smallestQty = qty;
    }
  }
  return smallest;
}

/** Access modes in the index's canonical order (`GetAccessModesAsString`). */
const MODE_ORDER = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];

/**
 * `persistentVolumeOrderedIndex.findBestMatchForClaim`: volumes are grouped by their access-mode
 * set; groups offering all the claim's modes are tried from the fewest modes up.
 */
export function findBestMatchForClaim(claim: KubeObject, volumes: KubeObject[], delayBinding: boolean): KubeObject | undefined {
  const groups = new Map<string, KubeObject[]>();
  for (const v of volumes) {
    const modes = MODE_ORDER.filter((m) => ((v.spec?.accessModes ?? []) as string[]).includes(m));
    const key = modes.join(',');
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  const wanted: string[] = claim.spec?.accessModes ?? [];
  const keys = [...groups.keys()]
    .filter((k) => wanted.every((m) => k.split(',').includes(m)))
    .sort((a, b) => a.split(',').length - b.split(',').length || (a < b ? -1 : a > b ? 1 : 0));
  for (const k of keys) {
    const v = findMatchingVolume(claim, groups.get(k)!, delayBinding);
    if (v) return v;
  }
  return undefined;
}

/**
 * `GetDefaultClass`: among classes annotated as default, the newest (then by name). Undefined
 * when there is none. Source: pkg/volume/util/storageclass.go.
 */
export function getDefaultStorageClass(classes: KubeObject[]): KubeObject | undefined {
  const defaults = classes.filter((c) => c.metadata.annotations?.[ANN_IS_DEFAULT_CLASS] === 'true' || c.metadata.annotations?.[ANN_BETA_IS_DEFAULT_CLASS] === 'true');
  defaults.sort((a, b) => {
    const ta = a.metadata.creationTimestamp ?? '';
    const tb = b.metadata.creationTimestamp ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
    return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
  });
  return defaults[0];
}

/** `claimrefToClaimKey`. */
function claimRefKey(ref: { namespace?: string; name?: string }): string {
  return `${ref.namespace}/${ref.name}`;
}

/** Pods by the claims they use (`common.PodPVCIndexFunc`): `ns/claim`, generic ephemeral volumes included. */
export const indexPodByPvc: IndexFunc = (pod) => {
  const out: string[] = [];
  for (const v of (pod.spec?.volumes ?? []) as { name: string; persistentVolumeClaim?: { claimName: string }; ephemeral?: unknown }[]) {
    if (v.persistentVolumeClaim?.claimName) out.push(`${pod.metadata.namespace}/${v.persistentVolumeClaim.claimName}`);
    else if (v.ephemeral) out.push(`${pod.metadata.namespace}/${pod.metadata.name}-${v.name}`);
  }
  return out;
};
/** Name of the pod-by-claim index (`common.PodPVCIndex`). */
export const POD_PVC_INDEX = 'pod-pvc-index';

/** The resourceVersion as a number, for "which copy is newer". */
function rv(o: KubeObject): number {
  return Number(o.metadata.resourceVersion ?? 0);
}

// ------------------------------------------------------------------------------ controller

/**
 * Start the persistentvolume-binder-controller. Watches PersistentVolumes, PersistentVolumeClaims,
 * StorageClasses and Pods; writes PV and PVC spec and status; records Events as
 * `persistentvolume-controller`. Setting: `pvClaimBinderSyncPeriodMs`.
 */
export function newPersistentVolumeBinderController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const resyncMs = ctx.setting('pvClaimBinderSyncPeriodMs', PV_CLAIM_BINDER_SYNC_PERIOD_MS);
  const recorder = ctx.recorder(PERSISTENTVOLUME_CONTROLLER_COMPONENT);
  const fm = { fieldManager: 'kube-controller-manager' };
  const traceClaim = (claim: KubeObject, msg: string) =>
    ctx.trace(PERSISTENTVOLUME_BINDER_CONTROLLER, `${metaNamespaceKey(claim)}: ${msg}`, { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name!, uid: claim.metadata.uid });
  const traceVolume = (volume: KubeObject, msg: string) =>
    ctx.trace(PERSISTENTVOLUME_BINDER_CONTROLLER, `${volume.metadata.name}: ${msg}`, { kind: 'PersistentVolume', name: volume.metadata.name!, uid: volume.metadata.uid });

  const pvInformer = ctx.informers.informer('persistentvolumes');
  const pvcInformer = ctx.informers.informer('persistentvolumeclaims');
  const classInformer = ctx.informers.informer('storageclasses');
  const podInformer = ctx.informers.informer('pods', { indexers: { [POD_PVC_INDEX]: indexPodByPvc } });
  const volumeLister = pvInformer.lister;
  const claimLister = pvcInformer.lister;
  const classLister = classInformer.lister;
  const podLister = podInformer.lister;

  const volumeQueue = new RateLimitingQueue(clock, { name: 'volumes' });
  const claimQueue = new RateLimitingQueue(clock, { name: 'claims' });
  pvInformer.addEventHandler({
    onAdd: (v) => volumeQueue.add(v.metadata.name!),
    onUpdate: (_o, v) => volumeQueue.add(v.metadata.name!),
    onDelete: (v) => volumeQueue.add(v.metadata.name!),
  });
  pvcInformer.addEventHandler({
    onAdd: (c) => claimQueue.add(metaNamespaceKey(c)),
    onUpdate: (_o, c) => claimQueue.add(metaNamespaceKey(c)),
    onDelete: (c) => claimQueue.add(metaNamespaceKey(c)),
  });

  // ---- the controller's own copies (`ctrl.volumes`, `ctrl.claims`)
  const volumes = new Map<string, KubeObject>();
  const claims = new Map<string, KubeObject>();
  /** `storeObjectUpdate`: keep `obj` unless the stored copy is newer. False = obj is stale. */
  const store = (cache: Map<string, KubeObject>, key: string, obj: KubeObject): boolean => {
    const old = cache.get(key);
    if (old && rv(old) > rv(obj)) return false;
    cache.set(key, obj);
    return true;
  };
  const storeVolume = (v: KubeObject) => store(volumes, v.metadata.name!, v);
  const storeClaim = (c: KubeObject) => store(claims, metaNamespaceKey(c), c);

  // ---- writes

  /** `updateClaimStatus`: phase, and access modes / capacity from the volume. */
  function updateClaimStatus(claim: KubeObject, phase: string, volume: KubeObject | undefined): KubeObject {
    // What changes is decided on the cached claim; the copy is made only for a write (the real
    // controller clones first; performance only: the claims resync every 15 s).
    const cur = claim.status ?? {};
    const phaseChanged = claim.status?.phase !== phase;
    const dropAccessModes = !volume && cur.accessModes !== undefined;
    const dropCapacity = !volume && cur.capacity !== undefined;
    const setAccessModes = !!volume && JSON.stringify(cur.accessModes ?? null) !== JSON.stringify(volume.spec?.accessModes ?? null);
    // Capacity is copied when the claim becomes Bound, not afterwards (a resize may differ on purpose).
    const setCapacity =
      !!volume && phaseChanged && (cur.capacity?.storage === undefined || storageOf(volume.spec?.capacity?.storage) !== storageOf(cur.capacity.storage));
    if (!phaseChanged && !dropAccessModes && !dropCapacity && !setAccessModes && !setCapacity) return claim;
    const clone = deepCopy(claim);
    const st = (clone.status ??= {});
    if (phaseChanged) st.phase = phase;
    if (dropAccessModes) delete st.accessModes;
    if (dropCapacity) delete st.capacity;
    if (setAccessModes) st.accessModes = volume!.spec?.accessModes;
    if (setCapacity) st.capacity = { ...(volume!.spec?.capacity ?? {}) };
    const updated = api.updateStatus(clone, fm);
    storeClaim(updated);
    if (claim.status?.phase !== phase) traceClaim(updated, `phase ${claim.status?.phase ?? '""'} -> ${phase}`);
    return updated;
  }

  /** `updateClaimStatusWithEvent`: only when the phase changes, with the Event. */
  function updateClaimStatusWithEvent(claim: KubeObject, phase: string, type: 'Normal' | 'Warning', reason: string, message: string): void {
    if (claim.status?.phase === phase) return;
    const updated = updateClaimStatus(claim, phase, undefined);
    recorder.event(updated, type, reason, message);
  }

  /** `updateVolumePhase`. */
  function updateVolumePhase(volume: KubeObject, phase: string, message: string): KubeObject {
    if (volume.status?.phase === phase) return volume;
    const clone = deepCopy(volume);
    clone.status = { ...(clone.status ?? {}), phase };
    if (message) clone.status.message = message;
    else delete clone.status.message;
    const updated = api.updateStatus(clone, fm);
    storeVolume(updated);
    traceVolume(updated, `phase ${volume.status?.phase ?? '""'} -> ${phase}`);
    return updated;
  }

  /** `updateVolumePhaseWithEvent`. */
  function updateVolumePhaseWithEvent(volume: KubeObject, phase: string, type: 'Normal' | 'Warning', reason: string, message: string): KubeObject {
    if (volume.status?.phase === phase) return volume;
    const updated = updateVolumePhase(volume, phase, message);
    recorder.event(updated, type, reason, message);
    return updated;
  }

  /** `GetBindVolumeToClaim` + `updateBindVolumeToClaim`: point the volume at the claim. */
  function bindVolumeToClaim(volume: KubeObject, claim: KubeObject): KubeObject {
    const setBoundByController = !isVolumeBoundToClaim(volume, claim);
    const ref = volume.spec?.claimRef;
    const setRef = !ref || ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace || ref.uid !== claim.metadata.uid;
    const setAnnotation = setBoundByController && volume.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === undefined;
    // The copy is made only for a write (performance only, as in updateClaimStatus).
    if (!setRef && !setAnnotation) return volume;
    const clone = deepCopy(volume);
    if (setRef) {
      clone.spec.claimRef = {
        kind: 'PersistentVolumeClaim',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        uid: claim.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: claim.metadata.resourceVersion,
      };
    }
    if (setAnnotation) clone.metadata.annotations = { ...(clone.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    const updated = api.update(clone, fm);
    storeVolume(updated);
    return updated;
  }

  /** `bindClaimToVolume`: point the claim at the volume and mark the binding complete. */
  function bindClaimToVolume(claim: KubeObject, volume: KubeObject): KubeObject {
    const setName = claim.spec?.volumeName !== volume.metadata.name;
    const setCompleted = claim.metadata.annotations?.[ANN_BIND_COMPLETED] === undefined;
    // The copy is made only for a write (performance only, as in updateClaimStatus).
    if (!setName && !setCompleted) return claim;
    const clone = deepCopy(claim);
    const ann = (clone.metadata.annotations ??= {});
    if (setName) {
      clone.spec.volumeName = volume.metadata.name;
      if (ann[ANN_BOUND_BY_CONTROLLER] === undefined) ann[ANN_BOUND_BY_CONTROLLER] = 'yes';
    }
    if (setCompleted) ann[ANN_BIND_COMPLETED] = 'yes';
    const updated = api.update(clone, fm);
    storeClaim(updated);
    return updated;
  }

  /** `bind`: volume spec, volume status, claim spec, claim status, in that order. */
  function bind(volume: KubeObject, claim: KubeObject): void {
    const wasBound = claim.status?.phase === 'Bound' && volume.status?.phase === 'Bound';
    let v = bindVolumeToClaim(volume, claim);
    v = updateVolumePhase(v, 'Bound', '');
    let c = bindClaimToVolume(claim, v);
    c = updateClaimStatus(c, 'Bound', v);
    if (!wasBound) traceClaim(c, `bound to volume ${v.metadata.name} (${v.spec?.capacity?.storage}, ${(v.spec?.accessModes ?? []).join(',')})`);
  }

  /** `unbindVolume`: undo a binding the controller made (or clear the uid of a user's pre-binding). */
  function unbindVolume(volume: KubeObject): void {
    const clone = deepCopy(volume);
    if (clone.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] !== undefined) {
      delete clone.spec.claimRef;
      delete clone.metadata.annotations[ANN_BOUND_BY_CONTROLLER];
      if (Object.keys(clone.metadata.annotations).length === 0) delete clone.metadata.annotations;
    } else {
      clone.spec.claimRef = { ...clone.spec.claimRef, uid: '' };
    }
    const updated = api.update(clone, fm);
    storeVolume(updated);
    updateVolumePhase(updated, 'Available', '');
  }

  // ---- provisioning

  /** `assignDefaultStorageClass` (RetroactiveDefaultStorageClass). True when the claim was updated. */
  function assignDefaultStorageClass(claim: KubeObject): boolean {
    if (claimHasClass(claim)) return false;
    const def = getDefaultStorageClass(classLister.list());
    if (!def) return false;
    const clone = deepCopy(claim);
    clone.spec.storageClassName = def.metadata.name;
    const updated = api.update(clone, fm);
    storeClaim(updated);
    traceClaim(updated, `assigned the default StorageClass ${def.metadata.name}`);
    return true;
  }

  /** `setClaimProvisioner`: tell external provisioners the claim is theirs. */
  function setClaimProvisioner(claim: KubeObject, provisioner: string): KubeObject {
    if (claim.metadata.annotations?.[ANN_STORAGE_PROVISIONER] === provisioner) return claim;
    const clone = deepCopy(claim);
    clone.metadata.annotations = { ...(clone.metadata.annotations ?? {}), [ANN_BETA_STORAGE_PROVISIONER]: provisioner, [ANN_STORAGE_PROVISIONER]: provisioner };
    const updated = api.update(clone, fm);
    storeClaim(updated);
    return updated;
  }

  /**
   * Claims whose provisioning operation just wrote them, by the resourceVersion written. In the
   * real controller the operation runs in a goroutine (`scheduleOperation`) and is usually still
   * running when the watch event of its own write re-syncs the claim, so that sync skips it
   * ("operation is already running"): one `ExternalProvisioning` Event, not two.
   */
  const provisionEcho = new Map<string, string>();

  /** `provisionClaim` (+ `findProvisionablePlugin`, `provisionClaimOperationExternal`). */
  function provisionClaim(claim: KubeObject): void {
    const key = metaNamespaceKey(claim);
    const echo = provisionEcho.get(key);
    provisionEcho.delete(key);
    if (echo !== undefined && echo === claim.metadata.resourceVersion) return;
    const className = getClaimClass(claim);
    const cls = classLister.get(undefined, className);
    if (!cls) {
      recorder.event(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    let provisioner = String(cls.provisioner ?? '');
    if (CSI_MIGRATED[provisioner]) provisioner = CSI_MIGRATED[provisioner];
    else if (provisioner === 'kubernetes.io/host-path') {
      // The hostPath plugin exists in kube-controller-manager but provisions only with --enable-hostpath-provisioner.
      recorder.event(claim, 'Warning', 'ProvisioningFailed', `Failed to create provisioner: Provisioning in volume plugin "kubernetes.io/host-path" is disabled`);
      return;
    } else if (provisioner.startsWith('kubernetes.io/')) {
      // No in-tree plugin of that name (kubernetes.io/no-provisioner is the famous one).
      recorder.event(claim, 'Warning', 'ProvisioningFailed', `no volume plugin matched name: ${provisioner}`);
      return;
    }
    let updated: KubeObject;
    try {
      updated = setClaimProvisioner(claim, provisioner);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      recorder.event(claim, 'Warning', 'ProvisioningFailed', `Error saving claim: ${e.message}`);
      throw e;
    }
    const msg =
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' ` +
      'or manually by the system administrator. If volume creation is delayed, please verify that ' +
      'the provisioner is running and correctly registered.';
    recorder.event(updated, 'Normal', 'ExternalProvisioning', msg);
    if (updated !== claim) {
      provisionEcho.set(key, updated.metadata.resourceVersion ?? '');
      traceClaim(updated, `waiting for external provisioner ${provisioner}`);
    }
  }

  /** `IsDelayBindingMode`: the claim's class binds when a pod is scheduled. */
  function isDelayBindingMode(claim: KubeObject): boolean {
    const name = getClaimClass(claim);
    if (!name) return false;
    const cls = classLister.get(undefined, name);
    return cls?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** `emitEventForUnboundDelayBindingClaim`. */
  function emitEventForUnboundDelayBindingClaim(claim: KubeObject): void {
    const waiting = podLister
      .byIndex(POD_PVC_INDEX, metaNamespaceKey(claim))
      .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.spec?.nodeName)
      .map((p) => p.metadata.name!);
    if (waiting.length === 0) recorder.event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
    else if (waiting.length === 1) recorder.event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pod ${waiting[0]} to be scheduled`);
    else recorder.event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pods ${waiting.join(',')} to be scheduled`);
  }

  // ---- claims

  /** `syncClaim`. */
  function syncClaim(claim: KubeObject): void {
    if (claim.metadata.annotations?.[ANN_BIND_COMPLETED] === undefined) syncUnboundClaim(claim);
    else syncBoundClaim(claim);
  }

  /** `checkVolumeSatisfyClaim`: why a requested volume does not fit, or undefined. */
  function volumeDoesNotSatisfy(volume: KubeObject, claim: KubeObject): string | undefined {
    if (volume.metadata.deletionTimestamp) return `the volume is marked for deletion "${volume.metadata.name}"`;
    if (storageOf(volume.spec?.capacity?.storage) < storageOf(claim.spec?.resources?.requests?.storage)) return 'requested PV is too small';
    if (getVolumeClass(volume) !== getClaimClass(claim)) return 'storageClassName does not match';
    if (volumeModeMismatch(claim, volume)) return 'incompatible volumeMode';
    if (!checkAccessModes(claim, volume)) return 'incompatible accessMode';
    return undefined;
  }

  function syncUnboundClaim(claim: KubeObject): void {
    if (!claim.spec?.volumeName) {
      const delayBinding = isDelayBindingMode(claim);
      const volume = findBestMatchForClaim(claim, [...volumes.values()], delayBinding);
      if (volume) {
        bind(volume, claim);
        return;
      }
      if (assignDefaultStorageClass(claim)) return; // the update brings the claim back
      if (delayBinding && claim.metadata.annotations?.[ANN_SELECTED_NODE] === undefined) {
        emitEventForUnboundDelayBindingClaim(claim);
      } else if (getClaimClass(claim) !== '') {
        provisionClaim(claim);
        return;
      } else {
        recorder.event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      }
      updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    // The user asked for a specific volume.
    const volume = volumes.get(claim.spec.volumeName);
    if (!volume) {
      updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    if (!volume.spec?.claimRef) {
      const why = volumeDoesNotSatisfy(volume, claim);
      if (why) {
        recorder.event(claim, 'Warning', 'VolumeMismatch', `Cannot bind to requested volume "${volume.metadata.name}": ${why}`);
        updateClaimStatus(claim, 'Pending', undefined);
      } else {
        bind(volume, claim);
      }
      return;
    }
    if (isVolumeBoundToClaim(volume, claim)) {
      bind(volume, claim);
      return;
    }
    recorder.event(claim, 'Warning', 'FailedBinding', `volume "${volume.metadata.name}" already bound to a different claim.`);
    if (claim.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === undefined) updateClaimStatus(claim, 'Pending', undefined);
  }

  function syncBoundClaim(claim: KubeObject): void {
    if (!claim.spec?.volumeName) {
      updateClaimStatusWithEvent(claim, 'Lost', 'Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
      return;
    }
    const volume = volumes.get(claim.spec.volumeName);
    if (!volume) {
      updateClaimStatusWithEvent(claim, 'Lost', 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      return;
    }
    if (!volume.spec?.claimRef || volume.spec.claimRef.uid === claim.metadata.uid) {
      bind(volume, claim); // fixes a volume that came unbound; a no-op when all is well
      return;
    }
    updateClaimStatusWithEvent(claim, 'Lost', 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
  }

  // ---- volumes

  /** `syncVolume`. */
  function syncVolume(volume: KubeObject): void {
    const ref = volume.spec?.claimRef;
    if (!ref) {
      updateVolumePhase(volume, 'Available', '');
      return;
    }
    if (!ref.uid) {
      // Pre-bound by the user to a claim that has not been bound yet: the claim's sync does it.
      updateVolumePhase(volume, 'Available', '');
      return;
    }
    const key = claimRefKey(ref);
    let claim = claims.get(key);
    if (!claim && volume.status?.phase !== 'Released' && volume.status?.phase !== 'Failed') {
      const { namespace, name } = splitMetaNamespaceKey(key);
      claim = claimLister.get(namespace, name);
    }
    if (claim && claim.metadata.uid !== ref.uid) claim = undefined; // a new claim with the old name
    if (!claim) {
      let v = volume;
      if (v.status?.phase !== 'Released' && v.status?.phase !== 'Failed') {
        v = updateVolumePhase(v, 'Released', '');
      }
      reclaimVolume(v);
      return;
    }
    if (!claim.spec?.volumeName) {
      if (volumeModeMismatch(claim, volume)) {
        recorder.event(volume, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claim.metadata.name}" due to incompatible volumeMode.`);
        recorder.event(claim, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume "${volume.metadata.name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`);
        return;
      }
      // Bound on the volume side only (e.g. just provisioned): the claim's sync completes it.
      claimQueue.add(key);
      return;
    }
    if (claim.spec.volumeName === volume.metadata.name) {
      updateVolumePhase(volume, 'Bound', '');
      return;
    }
    // The claim is bound to another volume.
    if (volume.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] !== undefined && volume.spec?.persistentVolumeReclaimPolicy === 'Delete') {
      let v = volume;
      if (v.status?.phase !== 'Released' && v.status?.phase !== 'Failed') v = updateVolumePhase(v, 'Released', '');
      reclaimVolume(v);
      return;
    }
    unbindVolume(volume);
  }

  /** `reclaimVolume`: Retain, Delete (external deleter or hostPath under /tmp), Recycle. */
  function reclaimVolume(volume: KubeObject): void {
    const policy = volume.spec?.persistentVolumeReclaimPolicy;
    if (policy === 'Retain') return;
    if (policy === 'Recycle') {
      updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
      return;
    }
    if (policy !== 'Delete') {
      updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', 'VolumeUnknownReclaimPolicy', 'Volume has unrecognized PersistentVolumeReclaimPolicy');
      return;
    }
    const by = volume.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED];
    if ((by && !by.startsWith('kubernetes.io/')) || volume.spec?.csi) return; // the external provisioner deletes it
    const hostPath: string | undefined = volume.spec?.hostPath?.path;
    let err: string;
    if (hostPath !== undefined) {
      if (/\/tmp\/.+/.test(hostPath)) {
        api.delete('persistentvolumes', undefined, volume.metadata.name!, fm);
        traceVolume(volume, 'released hostPath volume deleted');
        return;
      }
      err = `host_path deleter only supports /tmp/.+ but received provided ${hostPath}`;
    } else {
      err = `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`;
    }
    updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', 'VolumeFailedDelete', err);
  }

  // ---- workers (`volumeWorker`, `claimWorker`)

  function volumeWorker(name: string): void {
    const v = volumeLister.get(undefined, name);
    if (v) {
      if (!storeVolume(v)) return;
      syncVolume(v);
      return;
    }
    // Deleted: sync its claim (it may be Bound to a volume that is gone).
    const old = volumes.get(name);
    if (!old) return;
    volumes.delete(name);
    if (old.spec?.claimRef) claimQueue.add(claimRefKey(old.spec.claimRef));
  }

  function claimWorker(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const c = claimLister.get(namespace, name);
    if (c) {
      if (!storeClaim(c)) return;
      syncClaim(c);
      return;
    }
    // Deleted: sync its volume (it becomes Released and is reclaimed).
    const old = claims.get(key);
    if (!old) return;
    claims.delete(key);
    if (old.spec?.volumeName) volumeQueue.add(old.spec.volumeName);
  }

  const synced = [pvInformer, pvcInformer, classInformer, podInformer];
  const volumeWorkers = startWorkers(volumeQueue, volumeWorker, { clock, name: `${PERSISTENTVOLUME_BINDER_CONTROLLER} volumes`, waitForSync: synced });
  const claimWorkers = startWorkers(claimQueue, claimWorker, { clock, name: `${PERSISTENTVOLUME_BINDER_CONTROLLER} claims`, waitForSync: synced });

  // ---- Run: initializeCaches, then resync every --pvclaimbinder-sync-period
  let resyncTimer: Timer | undefined;
  let stopped = false;
  let pending = synced.length;
  const onSynced = () => {
    if (--pending > 0 || stopped) return;
    for (const v of volumeLister.list()) storeVolume(v);
    for (const c of claimLister.list()) storeClaim(c);
    const resync = () => {
      resyncTimer = undefined;
      if (stopped) return;
      for (const c of claimLister.list()) claimQueue.add(metaNamespaceKey(c));
      for (const v of volumeLister.list()) volumeQueue.add(v.metadata.name!);
      resyncTimer = clock.schedule(resyncMs, resync, { label: `${PERSISTENTVOLUME_BINDER_CONTROLLER}: resync`, background: true });
    };
    resyncTimer = clock.schedule(resyncMs, resync, { label: `${PERSISTENTVOLUME_BINDER_CONTROLLER}: resync`, background: true });
  };
  for (const inf of synced) inf.whenSynced(onSynced);

  return {
    name: PERSISTENTVOLUME_BINDER_CONTROLLER,
    stop() {
      stopped = true;
      resyncTimer?.cancel();
      volumeWorkers.stop();
      claimWorkers.stop();
    },
  };
}
