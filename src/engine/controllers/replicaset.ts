/**
 * replicaset-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the replicaset-controller. */
export function newReplicaSetController(_ctx: ControllerContext): Controller {
  return { name: 'replicaset-controller', stop() {} };
}
