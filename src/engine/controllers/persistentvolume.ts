/**
 * persistentvolume-binder-controller: not written yet (a stub so the controller-manager's list is complete).
 * The real controller replaces this file.
 */
import type { Controller, ControllerContext } from './manager';

/** Start the persistentvolume-binder-controller. */
export function newPersistentVolumeBinderController(_ctx: ControllerContext): Controller {
  return { name: 'persistentvolume-binder-controller', stop() {} };
}
