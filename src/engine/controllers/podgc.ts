/**
 * pod-garbage-collector-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the pod-garbage-collector-controller. */
export function newPodGCController(_ctx: ControllerContext): Controller {
  return { name: 'pod-garbage-collector-controller', stop() {} };
}
