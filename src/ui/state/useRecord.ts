/**
 * React hooks over the per-record channel of ./selectors.ts (`subscribeUid`): a component that
 * draws one record re-renders when that record, or whether it is selected, changes, and for
 * nothing else. With 1,000 pod chips this is what keeps a diff from running 2,000 selectors.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { ObjRecord } from '../../protocol/messages';
import { simStore } from './store';
import { subscribeUid } from './selectors';

const noSubscribe = () => () => {};

/** The record `uid` of the app's store (same object while it does not change); re-renders only when it changes. */
export function useRecord(uid: string | undefined): ObjRecord | undefined {
  const subscribe = useCallback((l: () => void) => (uid ? subscribeUid(uid, l) : noSubscribe()), [uid]);
  // The server snapshot (prerender and hydration, src/ui/state/hydration.ts) is the store's initial state, as zustand's own hooks use.
  return useSyncExternalStore(
    subscribe,
    () => (uid ? simStore.getState().objects[uid] : undefined),
    () => (uid ? simStore.getInitialState().objects[uid] : undefined),
  );
}

/** Whether the object `uid` is the selection (by uid); re-renders only when that flips. */
export function useIsSelected(uid: string): boolean {
  const subscribe = useCallback((l: () => void) => subscribeUid(uid, l), [uid]);
  return useSyncExternalStore(
    subscribe,
    () => simStore.getState().selected?.uid === uid,
    () => simStore.getInitialState().selected?.uid === uid,
  );
}
