/**
 * daemonset-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the daemonset-controller. */
export function newDaemonSetController(_ctx: ControllerContext): Controller {
  return { name: 'daemonset-controller', stop() {} };
}
