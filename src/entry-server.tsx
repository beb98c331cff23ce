/**
 * Build-time render of the page as it starts on the boot view (vite.config.ts
 * `prerenderBootView` loads this through Vite's SSR module loader and puts the HTML in
 * index.html's #root; src/main.tsx hydrates it). Not part of the browser bundle.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { App } from './ui/App';
import { simStore } from './ui/state/store';
import { bootViewFor, PRERENDERED_START } from './ui/state/bootView';
import { pinServerSnapshot } from './ui/state/hydration';

/** The App's HTML for the default start (seed 1, playing, speed 1), or '' when there is no boot view. */
export function render(): string {
  const view = bootViewFor(PRERENDERED_START);
  if (!view) return '';
  simStore.getState().applySnapshot(view);
  pinServerSnapshot(simStore);
  return renderToString(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
