import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './ui/App.tsx';
import { connectWorker, startOptionsFrom } from './ui/state/bridge';
import { simStore } from './ui/state/store';
import './ui/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The simulation starts before React renders: the worker boots while the page draws.
connectWorker(simStore, startOptionsFrom(window.location.search));

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
