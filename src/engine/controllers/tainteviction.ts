/**
 * taint-eviction-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the taint-eviction-controller. */
export function newTaintEvictionController(_ctx: ControllerContext): Controller {
  return { name: 'taint-eviction-controller', stop() {} };
}
