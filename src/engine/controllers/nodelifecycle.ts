/**
 * node-lifecycle-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the node-lifecycle-controller. */
export function newNodeLifecycleController(_ctx: ControllerContext): Controller {
  return { name: 'node-lifecycle-controller', stop() {} };
}
