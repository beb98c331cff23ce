/**
 * endpointslice-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the endpointslice-controller. */
export function newEndpointSliceController(_ctx: ControllerContext): Controller {
  return { name: 'endpointslice-controller', stop() {} };
}
