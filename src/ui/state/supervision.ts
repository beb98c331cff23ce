/**
 * The supervision tree as the UI last received it (`supervision` messages, sent by the worker
 * only while the Supervision view subscribes; see src/protocol/messages.ts). A store of its own:
 * the tree changes rarely and only the Supervision view reads it.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { SupervisionTree } from '../../protocol/messages';

/** The last tree (`undefined`: none yet; `null`: this cluster has no node layer). */
export interface SupervisionState {
  tree: SupervisionTree | null | undefined;
}

/** The store the bridge writes (`setSupervisionTree`) and the view reads (`useSupervision`). */
export const supervisionStore = createStore<SupervisionState>()(() => ({ tree: undefined }));

/** A `supervision` message arrived. */
export function setSupervisionTree(tree: SupervisionTree | null): void {
  supervisionStore.setState({ tree });
}

/** React hook over the supervision store. */
export function useSupervision<T>(selector: (s: SupervisionState) => T): T {
  return useStore(supervisionStore, selector);
}
