/**
 * garbage-collector-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the garbage-collector-controller. */
export function newGarbageCollector(_ctx: ControllerContext): Controller {
  return { name: 'garbage-collector-controller', stop() {} };
}
