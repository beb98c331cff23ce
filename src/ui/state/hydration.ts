/**
 * Prerendering (vite.config.ts `prerenderBootView`): the built index.html holds the App as it
 * renders the boot view (src/ui/state/bootView.ts), and src/main.tsx hydrates it when the page
 * starts on that view. Components whose first render depends on the browser (window size,
 * localStorage) render their server-safe form until hydration is over.
 */
import { useSyncExternalStore } from 'react';
import type { SimStore } from './store';

const subscribe = () => () => {};

/**
 * False while React renders on the server or hydrates the prerendered page, true in every render
 * after that (and at once in a page rendered without prerendering).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * Make the store's present state its "initial" state: what zustand's hooks (and useRecord) read as
 * the server snapshot while React renders on the server or hydrates. The build's render and the
 * page's hydration both call it right after the boot view is in the store, so both draw the same.
 */
export function pinServerSnapshot(store: SimStore): void {
  const state = store.getState();
  store.getInitialState = () => state;
}
