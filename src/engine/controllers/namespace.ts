/**
 * namespace-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the namespace-controller. */
export function newNamespaceController(_ctx: ControllerContext): Controller {
  return { name: 'namespace-controller', stop() {} };
}
