/**
 * serviceaccount-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the serviceaccount-controller. */
export function newServiceAccountController(_ctx: ControllerContext): Controller {
  return { name: 'serviceaccount-controller', stop() {} };
}
