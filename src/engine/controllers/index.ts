/**
 * The controllers kube-controller-manager runs, in the order it starts them
 * (cmd/kube-controller-manager/app/controllermanager.go `NewControllerDescriptors`), and the
 * process that hosts them.
 */
import { ControllerProcess, type ControllerFactory, type ProcessOptions } from './manager';
import { newReplicaSetController, newReplicationManager } from './replicaset';
import { newHorizontalController } from './podautoscaler';
import { newDisruptionController } from './disruption';
import { newResourceQuotaController } from './resourcequota';
import { newDeploymentController } from './deployment';
import { newStatefulSetController } from './statefulset';
import { newDaemonSetController } from './daemonset';
import { newJobController } from './job';
import { newCronJobController } from './cronjob';
import { newEndpointSliceController } from './endpointslice';
import { newEndpointsController } from './endpoints';
import { newGarbageCollector } from './garbagecollector';
import { newNamespaceController } from './namespace';
import { newNodeLifecycleController } from './nodelifecycle';
import { newTaintEvictionController } from './tainteviction';
import { newPodGCController } from './podgc';
import { newServiceAccountController } from './serviceaccount';
import { newPersistentVolumeBinderController } from './persistentvolume';
import { newPVCProtectionController } from './pvcprotection';
import { newPVProtectionController } from './pvprotection';
import { newRootCACertPublisher } from './rootcacertpublisher';
import { newTTLAfterFinishedController } from './ttlafterfinished';

/** Every controller of kube-controller-manager, by its `--controllers` name. */
export const KUBE_CONTROLLERS: Readonly<Record<string, ControllerFactory>> = {
  serviceaccount: newServiceAccountController,
  'root-ca-certificate-publisher': newRootCACertPublisher,
  namespace: newNamespaceController,
  'garbage-collector': newGarbageCollector,
  replicaset: newReplicaSetController,
  replicationcontroller: newReplicationManager,
  // `horizontalpodautoscaling` (names.HorizontalPodAutoscalerController, started after the
  // ReplicaSet controller and before disruption in NewControllerDescriptors).
  horizontalpodautoscaling: (ctx) => newHorizontalController(ctx),
  disruption: newDisruptionController,
  resourcequota: newResourceQuotaController,
  deployment: newDeploymentController,
  statefulset: newStatefulSetController,
  daemonset: newDaemonSetController,
  job: newJobController,
  cronjob: newCronJobController,
  'ttl-after-finished': newTTLAfterFinishedController,
  endpoint: newEndpointsController,
  endpointslice: newEndpointSliceController,
  'node-lifecycle': newNodeLifecycleController,
  'taint-eviction-controller': newTaintEvictionController,
  podgc: newPodGCController,
  'persistentvolume-binder': newPersistentVolumeBinderController,
  'pvc-protection': newPVCProtectionController,
  'pv-protection': newPVProtectionController,
};

/**
 * A kube-controller-manager process. `controllers` picks a subset by name (default: all), as
 * `--controllers` does.
 */
export function newKubeControllerManager(opts: ProcessOptions & { controllers?: string[] }): ControllerProcess {
  const names = opts.controllers ?? Object.keys(KUBE_CONTROLLERS);
  const factories = names.map((n) => {
    const f = KUBE_CONTROLLERS[n];
    if (!f) throw new Error(`unknown controller ${n}`);
    return f;
  });
  return new ControllerProcess('kube-controller-manager', factories, opts);
}
