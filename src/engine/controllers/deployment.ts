/**
 * deployment-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the deployment-controller. */
export function newDeploymentController(_ctx: ControllerContext): Controller {
  return { name: 'deployment-controller', stop() {} };
}
