/**
 * job-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the job-controller. */
export function newJobController(_ctx: ControllerContext): Controller {
  return { name: 'job-controller', stop() {} };
}
