/**
 * statefulset-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the statefulset-controller. */
export function newStatefulSetController(_ctx: ControllerContext): Controller {
  return { name: 'statefulset-controller', stop() {} };
}
