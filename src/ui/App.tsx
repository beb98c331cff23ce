/**
 * The application: the header with the simulation controls, the cluster map (or the owner graph,
 * loaded on demand) with the command line under it, and the inspector and timeline beside it.
 */
import { lazy, Suspense, useEffect, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { simStore, useSim } from './state/store';
import { Controls } from './views/Controls';
import { ClusterMap } from './views/ClusterMap';
import { Inspector, deleteSelectedPod } from './views/Inspector';
import { Timeline } from './views/Timeline';
import { RecoveryBanner } from './views/RecoveryBanner';
import { TerminalPanel } from './views/TerminalPanel';

const OwnerGraph = lazy(() => import('./views/graph/OwnerGraph'));
const Supervision = lazy(() => import('./views/Supervision'));
/** The YAML editor: Monaco loads only when this tab opens. */
const YamlEditor = lazy(() => import('./editor/YamlEditor'));

/** Whether a key event comes from a place that types text (the shortcut must not fire there). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (e.key === 'Delete') {
        if (deleteSelectedPod()) e.preventDefault();
      } else if (e.key === 'Escape') {
        simStore.getState().select(undefined);
      } else if (e.key === ' ' && (e.target === document.body || e.target === document.documentElement)) {
        const s = simStore.getState();
        if (!s.connected) return;
        e.preventDefault();
        s.send(s.run.playing || s.run.fastForward ? { type: 'pause' } : { type: 'play' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The workspace tabs in their order (the arrow keys walk it). */
const TAB_ORDER = ['map', 'graph', 'supervision', 'editor'] as const;

function Tabs() {
  const view = useSim((s) => s.view);
  // WAI-ARIA tabs pattern: only the selected tab is in the Tab order; Left/Right/Home/End move
  // to (and open) another tab, so Tab goes on to the panel instead of through four tabs.
  const onKeyDown = (e: ReactKeyboardEvent<HTMLButtonElement>) => {
    const i = TAB_ORDER.indexOf(view);
    const n = TAB_ORDER.length;
    const next = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    simStore.getState().setView(TAB_ORDER[next]);
    document.getElementById(`tab-${TAB_ORDER[next]}`)?.focus();
  };
  const tab = (id: (typeof TAB_ORDER)[number], label: string) => (
    <button
      type="button"
      role="tab"
      id={`tab-${id}`}
      aria-selected={view === id}
      aria-controls="workspace-panel"
      tabIndex={view === id ? 0 : -1}
      className={`tab${view === id ? ' is-active' : ''}`}
      onClick={() => simStore.getState().setView(id)}
      onKeyDown={onKeyDown}
    >
      {label}
    </button>
  );
  return (
    <div className="tabs" role="tablist" aria-label="Views">
      {tab('map', 'Cluster map')}
      {tab('graph', 'Owner graph')}
      {tab('supervision', 'Supervision')}
      {tab('editor', 'YAML editor')}
    </div>
  );
}

function ErrorBanner() {
  const error = useSim((s) => s.error);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert">
      <strong>Problem:</strong> {error}
      <button type="button" className="btn btn-small" onClick={() => simStore.getState().setError(undefined)}>
        Dismiss
      </button>
    </div>
  );
}

function BootBanner() {
  const booting = useSim((s) => s.run.booting === true);
  const kind = useSim((s) => s.run.cluster);
  const playAfter = useSim((s) => s.run.playing);
  const starting = useSim((s) => s.run.starting === true);
  if (!booting) return null;
  // The boot view is on screen (src/ui/state/bootView.ts): nothing to announce for the moment
  // the worker takes to catch up (the clock says `starting`); a banner would only make the map jump.
  if (starting) return null;
  return (
    <p className="boot-banner" role="status">
      <span className="boot-spinner" aria-hidden="true" />
      {kind === 'booted' ? (
        <span>
          Booting the kind cluster <code>k8s-lab</code>: <code>kind create cluster</code>, then <code>make up</code> applies the bookshop. Fast-forwarded; it
          {playAfter ? ' plays' : ' pauses'} when the bookshop is available.
        </span>
      ) : (
        <span>Starting the test cluster…</span>
      )}
    </p>
  );
}

function ClusterBadge() {
  const kind = useSim((s) => s.run.cluster);
  const connected = useSim((s) => s.connected);
  if (!connected) return null;
  return (
    <span className="cluster-badge" title={kind === 'test' ? 'A small test cluster: API server, controllers and scheduler are real; kubelets are simulated stand-ins.' : 'A kind cluster booted node by node.'}>
      {kind === 'test' ? 'test cluster' : 'kind cluster k8s-lab'}
    </span>
  );
}

export function App() {
  useShortcuts();
  const view = useSim((s) => s.view);
  return (
    <div className="app">
      <nav className="skip-links" aria-label="Skip links">
        <a href="#terminal">Skip to the terminal</a>
        <a href="#sidebar">Skip to the inspector and timeline</a>
      </nav>
      <header className="app-header">
        <div className="brand">
          <svg className="app-logo" viewBox="0 0 32 32" aria-hidden="true">
            <polygon points="16,2 28.1,9 28.1,23 16,30 3.9,23 3.9,9" />
            <circle cx="16" cy="16" r="5" />
          </svg>
          <div>
            <h1>Cluster Playground</h1>
            <p className="app-subtitle">A Kubernetes cluster you can break, in a browser tab</p>
          </div>
        </div>
        <Controls />
      </header>
      <ErrorBanner />
      <RecoveryBanner />
      <main className="app-main">
        <section className="workspace" aria-label="Cluster">
          <div className="workspace-head">
            <Tabs />
            <ClusterBadge />
          </div>
          <BootBanner />
          <div className="workspace-panel" id="workspace-panel" role="tabpanel" aria-labelledby={`tab-${view}`}>
            {view === 'map' ? (
              <ClusterMap />
            ) : view === 'editor' ? (
              <Suspense fallback={<p className="starting">Loading the YAML editor…</p>}>
                <YamlEditor />
              </Suspense>
            ) : view === 'supervision' ? (
              <Suspense fallback={<p className="starting">Loading the supervision tree…</p>}>
                <Supervision />
              </Suspense>
            ) : (
              <Suspense fallback={<p className="starting">Loading the owner graph…</p>}>
                <OwnerGraph />
              </Suspense>
            )}
          </div>
          <TerminalPanel />
        </section>
        <aside className="sidebar" id="sidebar" tabIndex={-1}>
          <Inspector />
          <Timeline />
        </aside>
      </main>
    </div>
  );
}
