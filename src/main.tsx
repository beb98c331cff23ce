import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { connectWorker, startOptionsFrom } from './ui/state/bridge';
import { simStore } from './ui/state/store';
import { matchesPrerender } from './ui/state/bootView';
import { pinServerSnapshot } from './ui/state/hydration';
import './ui/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const opts = startOptionsFrom(window.location.search);
// The simulation starts before React renders (with the boot view in the store when there is one).
connectWorker(simStore, opts);

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The built page holds the App prerendered on the boot view (vite.config.ts prerenderBootView):
// hydrate it when this start draws the same; otherwise (another seed, ?paused=1, vite dev) render afresh.
if (root.firstElementChild && matchesPrerender(opts)) {
  pinServerSnapshot(simStore);
  hydrateRoot(root, app);
} else {
  root.textContent = '';
  createRoot(root).render(app);
}
