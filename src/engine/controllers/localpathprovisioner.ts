/**
 * local-path-provisioner (`rancher.io/local-path`): the dynamic provisioner of a kind cluster,
 * serving its default StorageClass `standard`. Mirrors rancher/local-path-provisioner
 * (provisioner.go) running on sigs.k8s.io/sig-storage-lib-external-provisioner (controller.go:
 * shouldProvision, provisionClaimOperation, shouldDelete). In a real cluster it is the
 * Deployment `local-path-provisioner` in namespace `local-path-storage`; the node layer runs this
 * controller inside that pod (while the pod runs, it provisions; when it is gone, claims wait).
 *
 * It acts on a claim when the persistentvolume-controller has handed it over
 * (`volume.kubernetes.io/storage-provisioner: rancher.io/local-path`), its class names this
 * provisioner, and (class `WaitForFirstConsumer`) the scheduler has chosen a node
 * (`volume.kubernetes.io/selected-node`). Then:
 *   - Event Normal `Provisioning` `External provisioner is provisioning volume for claim "ns/name"`;
 *   - a directory `/var/local-path-provisioner/pvc-<uid>_<ns>_<name>` on the node (in reality a
 *     short-lived helper pod makes it: about 3 s, `localPathProvisionMs`);
 *   - the PersistentVolume `pvc-<claim uid>`: hostPath (DirectoryOrCreate) on that path, node
 *     affinity to that node, the claim's size and access modes, the class's reclaim policy,
 *     already pointing at the claim (`claimRef`), annotated `pv.kubernetes.io/provisioned-by`;
 *   - Event Normal `ProvisioningSucceeded` `Successfully provisioned volume pvc-<uid>`.
 * The persistentvolume-controller then completes the binding. Refusals are Warning
 * `ProvisioningFailed` Events with the real messages (only ReadWriteOnce/ReadWriteOncePod, no
 * block volumes, no selector, a node is needed), retried with backoff (15 s doubling).
 *
 * A Released volume it made with reclaim policy Delete is deleted (directory, then the PV object).
 *
 * Events come from `rancher.io/local-path_<pod name>_<uuid>`, the library's identity.
 */
import type { Controller, ControllerContext } from './manager';
import type { Timer } from '../clock';
import { ApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { ItemExponentialFailureRateLimiter, RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import { ANN_BETA_STORAGE_PROVISIONER, ANN_DYNAMICALLY_PROVISIONED, ANN_SELECTED_NODE, ANN_STORAGE_PROVISIONER, getClaimClass } from './persistentvolume';

/** The provisioner name StorageClasses refer to. Source: kind's local-path-storage manifest. */
export const LOCAL_PATH_PROVISIONER = 'rancher.io/local-path';
/** Where volumes live on a kind node (`nodePathMap` DEFAULT_PATH_FOR_NON_LISTED_NODES). Source: kind's local-path-config ConfigMap. */
export const LOCAL_PATH_DIR = '/var/local-path-provisioner';
/** Time from `Provisioning` to `ProvisioningSucceeded` (the helper pod's run), virtual ms. Source: observed kind events (2-3 s). */
export const LOCAL_PATH_PROVISION_MS = 3_000;
/** Time to delete a released volume's directory (the helper pod again), virtual ms. Source: same observation. */
export const LOCAL_PATH_DELETE_MS = 3_000;
/** Retry backoff after a failed provisioning: 15 s doubling to 1000 s. Source: sig-storage-lib-external-provisioner controller.go (createProvisionerRateLimiter). */
export const PROVISION_RETRY_BASE_MS = 15_000;
export const PROVISION_RETRY_MAX_MS = 1_000_000;
/** Attempts before giving up on a claim (`DefaultFailedProvisionThreshold`). Source: controller.go. */
export const FAILED_PROVISION_THRESHOLD = 15;
/** The node label the volume's node affinity uses (`KeyNode`). Source: local-path-provisioner provisioner.go. */
const KEY_NODE = 'kubernetes.io/hostname';
/** The annotation recording the node on the PV. Source: provisioner.go. */
export const ANN_LOCAL_PATH_SELECTED_NODE = 'local.path.provisioner/selected-node';

const NAME = 'local-path-provisioner';

/** Options of `newLocalPathProvisioner`. */
export interface LocalPathProvisionerOptions {
  /** The provisioner pod's name (its hostname, part of the Event source). Default: a generated `local-path-provisioner-<hash>-<suffix>`. */
  podName?: string;
}

/**
 * Start the local-path provisioner. Watches PersistentVolumeClaims, PersistentVolumes,
 * StorageClasses and Nodes; creates and deletes PersistentVolumes; records Events as
 * `rancher.io/local-path_<pod>_<uuid>`. Settings: `localPathProvisionMs`, `localPathDeleteMs`.
 */
export function newLocalPathProvisioner(ctx: ControllerContext, opts: LocalPathProvisionerOptions = {}): Controller {
  const { api, clock } = ctx;
  const provisionMs = ctx.setting('localPathProvisionMs', LOCAL_PATH_PROVISION_MS);
  const deleteMs = ctx.setting('localPathDeleteMs', LOCAL_PATH_DELETE_MS);
  const podName = opts.podName ?? `${NAME}-${ctx.rng.nameSuffix(10)}-${ctx.rng.nameSuffix(5)}`;
  const identity = `${LOCAL_PATH_PROVISIONER}_${podName}_${ctx.rng.uuid()}`;
  const recorder = ctx.recorder(identity);
  const fm = { fieldManager: 'local-path-provisioner' };
  const trace = (msg: string, o?: KubeObject) =>
    ctx.trace(NAME, msg, o ? { kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name!, uid: o.metadata.uid } : undefined);

  const pvcInformer = ctx.informers.informer('persistentvolumeclaims');
  const pvInformer = ctx.informers.informer('persistentvolumes');
  const classInformer = ctx.informers.informer('storageclasses');
  const nodeInformer = ctx.informers.informer('nodes');
  const claims = pvcInformer.lister;
  const volumes = pvInformer.lister;
  const classes = classInformer.lister;
  const nodes = nodeInformer.lister;

  const claimQueue = new RateLimitingQueue(clock, {
    name: 'claims',
    rateLimiter: new ItemExponentialFailureRateLimiter(PROVISION_RETRY_BASE_MS, PROVISION_RETRY_MAX_MS),
  });
  const volumeQueue = new RateLimitingQueue(clock, { name: 'volumes' });
  pvcInformer.addEventHandler({
    onAdd: (c) => claimQueue.add(metaNamespaceKey(c)),
    onUpdate: (_o, c) => claimQueue.add(metaNamespaceKey(c)),
  });
  pvInformer.addEventHandler({
    onAdd: (v) => volumeQueue.add(v.metadata.name!),
    onUpdate: (_o, v) => volumeQueue.add(v.metadata.name!),
  });

  /** Claims and volumes with a helper pod at work (`claimsInProgress`), and their timers. */
  const inProgress = new Map<string, Timer>();
  let stopped = false;

  /** `shouldProvision`: the claim is ours and ready. Returns its class, or undefined. */
  function shouldProvision(claim: KubeObject): KubeObject | undefined {
    if (claim.spec?.volumeName || claim.metadata.deletionTimestamp) return undefined;
    const ann = claim.metadata.annotations ?? {};
    const asked = ann[ANN_STORAGE_PROVISIONER] ?? ann[ANN_BETA_STORAGE_PROVISIONER];
    if (asked !== LOCAL_PATH_PROVISIONER) return undefined;
    const cls = classes.get(undefined, getClaimClass(claim));
    if (!cls || cls.provisioner !== LOCAL_PATH_PROVISIONER) return undefined;
    // WaitForFirstConsumer: only once the scheduler chose a node.
    if (cls.volumeBindingMode === 'WaitForFirstConsumer' && ann[ANN_SELECTED_NODE] === undefined) return undefined;
    return cls;
  }

  /** `Provision`'s refusals (provisioner.go), or undefined. */
  function refusal(claim: KubeObject, node: KubeObject | undefined): string | undefined {
    for (const m of (claim.spec?.accessModes ?? []) as string[]) {
      if (m !== 'ReadWriteOnce' && m !== 'ReadWriteOncePod') return 'NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes';
    }
    if (claim.spec?.selector) return 'claim.Spec.Selector is not supported';
    if (!node) return 'configuration error, no node was specified';
    return undefined;
  }

  /** `provisionClaimOperation` for one claim. */
  function syncClaim(key: string): ReconcileResult | void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const claim = claims.get(namespace, name);
    if (!claim || inProgress.has(key)) return;
    const cls = shouldProvision(claim);
    if (!cls) return;
    const pvName = `pvc-${claim.metadata.uid}`;
    if (volumes.get(undefined, pvName)) return; // already provisioned
    const className = getClaimClass(claim);
    const retry = (): ReconcileResult | void => (claimQueue.numRequeues(key) < FAILED_PROVISION_THRESHOLD ? { requeue: true } : undefined);

    // canProvision
    if (claim.spec?.volumeMode === 'Block') {
      recorder.event(claim, 'Warning', 'ProvisioningFailed', `${LOCAL_PATH_PROVISIONER} does not support block volume provisioning`);
      return;
    }
    const nodeName: string | undefined = claim.metadata.annotations?.[ANN_SELECTED_NODE];
    let node: KubeObject | undefined;
    if (nodeName !== undefined) {
      node = nodes.get(undefined, nodeName);
      if (!node) {
        recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to get target node: node "${nodeName}" not found`);
        return retry();
      }
    }
    recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`);
    const why = refusal(claim, node);
    if (why) {
      recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${className}": ${why}`);
      trace(`${key}: cannot provision: ${why}`, claim);
      return retry();
    }
    const nodeValue = node!.metadata.labels?.[KEY_NODE] ?? node!.metadata.name!;
    const path = `${LOCAL_PATH_DIR}/${pvName}_${namespace}_${name}`;
    trace(`${key}: creating ${path} on node ${node!.metadata.name}`, claim);
    // The helper pod creates the directory; then the PV is saved.
    inProgress.set(
      key,
      clock.schedule(
        provisionMs,
        () => {
          inProgress.delete(key);
          if (stopped) return;
          const pv: KubeObject = {
            apiVersion: 'v1',
            kind: 'PersistentVolume',
            metadata: {
              name: pvName,
              annotations: { [ANN_LOCAL_PATH_SELECTED_NODE]: node!.metadata.name!, [ANN_DYNAMICALLY_PROVISIONED]: LOCAL_PATH_PROVISIONER },
            },
            spec: {
              accessModes: claim.spec.accessModes,
              capacity: { storage: claim.spec?.resources?.requests?.storage },
              claimRef: {
                kind: 'PersistentVolumeClaim',
                namespace,
                name,
                uid: claim.metadata.uid,
                apiVersion: 'v1',
                resourceVersion: claim.metadata.resourceVersion,
              },
              hostPath: { path, type: 'DirectoryOrCreate' },
              nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: KEY_NODE, operator: 'In', values: [nodeValue] }] }] } },
              persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
              storageClassName: className,
              volumeMode: 'Filesystem',
              ...(Array.isArray(cls.mountOptions) && cls.mountOptions.length ? { mountOptions: cls.mountOptions } : {}),
            },
          };
          try {
            api.create(pv, fm);
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            if (e.code !== 409) {
              recorder.event(claim, 'Warning', 'ProvisioningFailed', `Error creating provisioned PV object for claim ${key}: ${e.message}. Deleting the volume.`);
              claimQueue.addRateLimited(key);
              return;
            }
          }
          recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pvName}`);
          trace(`${key}: provisioned volume ${pvName}`, claim);
        },
        { label: `${NAME}: provision ${key}` },
      ),
    );
  }

  /** `shouldDelete` + `deleteVolumeOperation`: a Released volume of ours with policy Delete. */
  function syncVolume(name: string): void {
    const v = volumes.get(undefined, name);
    if (!v || inProgress.has(`pv/${name}`)) return;
    if (v.status?.phase !== 'Released' || v.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    if (v.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED] !== LOCAL_PATH_PROVISIONER) return;
    trace(`${name}: deleting ${v.spec?.hostPath?.path ?? ''}`, v);
    inProgress.set(
      `pv/${name}`,
      clock.schedule(
        deleteMs,
        () => {
          inProgress.delete(`pv/${name}`);
          if (stopped) return;
          try {
            api.delete('persistentvolumes', undefined, name, fm);
            trace(`${name}: volume deleted`, v);
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            if (e.code !== 404) volumeQueue.addRateLimited(name);
          }
        },
        { label: `${NAME}: delete ${name}` },
      ),
    );
  }

  const synced = [pvcInformer, pvInformer, classInformer, nodeInformer];
  const claimWorkers = startWorkers(claimQueue, syncClaim, { clock, name: `${NAME} claims`, waitForSync: synced });
  const volumeWorkers = startWorkers(volumeQueue, syncVolume, { clock, name: `${NAME} volumes`, waitForSync: synced });

  return {
    name: NAME,
    stop() {
      stopped = true;
      for (const t of inProgress.values()) t.cancel();
      inProgress.clear();
      claimWorkers.stop();
      volumeWorkers.stop();
    },
  };
}
