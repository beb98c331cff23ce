/**
 * cronjob-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the cronjob-controller. */
export function newCronJobController(_ctx: ControllerContext): Controller {
  return { name: 'cronjob-controller', stop() {} };
}
