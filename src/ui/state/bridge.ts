/**
 * The main-thread end of the protocol: starts the simulation worker, applies its snapshot and
 * diffs to the store (checking `seq`, asking for a resync on a gap), and routes the store's
 * `send` to the worker.
 *
 * Crash recovery: the bridge keeps the run's journal (src/worker/journal.ts). When the worker
 * fails (an `error` event: an exception nothing caught) or stops answering pings, it is
 * terminated and a new one is started with a `restore` message: the same cluster, the same
 * inputs at the same clock positions, back to where the old one was, without reloading the
 * page. The store's `recovery` tells the person what happened. If the replay crashes the new
 * worker too, the last input is dropped (and named) and the replay runs again without it; after
 * MAX_RESTARTS crashes within a minute the bridge gives up and says so.
 */
import { formatClock, isFromWorker, type FromWorker, type JournalEntry, type ToWorker } from '../../protocol/messages';
import { describeInput, isJournaled, Journal } from '../../worker/journal';
import type { SimStore } from './store';
import { deliverEditReply } from '../editor/client';
import { openInEditor } from '../editor/editorState';
import { setSupervisionTree } from './supervision';
import { bootViewFor } from './bootView';

/** Wall ms between liveness pings. */
const PING_EVERY_MS = 2_000;
/** A worker silent this long (wall ms, page visible) has hung: it is replaced. */
const HANG_MS = 10_000;
/** The same while it replays a journal (a long session takes a while to replay). */
const HANG_RESTORING_MS = 60_000;
/** Crashes within a minute after which the bridge stops restarting. */
const MAX_RESTARTS = 3;

/** Window event the cluster map sends once the first pods are on screen (src/ui/views/ClusterMap.tsx). */
export const FIRST_PODS_DRAWN_EVENT = 'playground:first-pods-drawn';
/**
 * With the boot view drawn, the worker starts after the first pods are on screen, or after this
 * many wall ms if they never are (another view open): its download and compile then do not
 * compete with the page's first paint for the network and the CPU.
 */
const DEFERRED_START_MAX_MS = 3000;

/** Options read from the page URL (`?seed=1&paused=1&speed=10`). */
export interface StartOptions {
  seed: number;
  paused: boolean;
  speed?: number;
  /** `?cluster=test`: the small test cluster instead of the kind cluster. */
  cluster?: 'booted' | 'test';
  /** `?debug=1`: `window.__playground` exposes the store and `crash()` (tests and benches). */
  debug?: boolean;
}

/** Read the start options from a query string (dependency-injected for tests). */
export function startOptionsFrom(search: string): StartOptions {
  const q = new URLSearchParams(search);
  const seed = Number.parseInt(q.get('seed') ?? '', 10);
  const speed = Number(q.get('speed'));
  const paused = q.get('paused');
  return {
    seed: Number.isInteger(seed) && seed >= 0 ? seed : 1,
    paused: paused === '1' || paused === 'true' || paused === '',
    ...(Number.isFinite(speed) && speed > 0 ? { speed } : {}),
    ...(q.get('cluster') === 'test' ? { cluster: 'test' as const } : {}),
    ...(q.get('debug') === '1' ? { debug: true } : {}),
  };
}

/**
 * The worker the built page started before this bundle ran (an inline script injected by
 * vite.config.ts `startWorkerEarly`, so the worker loads while the page's own code loads), taken
 * once; undefined in `vite dev`, on a second start, or when it failed to load (the caller then
 * starts a fresh one, which reports the failure the usual way).
 */
function adoptEarlyWorker(): Worker | undefined {
  const w = window as unknown as { __simWorker?: Worker; __simWorkerError?: string };
  const early = w.__simWorker;
  delete w.__simWorker;
  if (!early) return undefined;
  if (w.__simWorkerError !== undefined) {
    early.terminate();
    return undefined;
  }
  return early;
}

/** Connect `store` to a new worker. Returns a function that stops it. */
export function connectWorker(store: SimStore, opts: StartOptions): () => void {
  let worker: Worker | undefined;
  /** Messages sent before the worker was started (the boot view defers its start by a frame). */
  let beforeStart: ToWorker[] | undefined = [];
  let awaitingSnapshot = false;
  const journal = new Journal();
  /** A restore is running (until `restored`): why, and the input dropped before it. */
  let restoring: { cause: string; dropped?: JournalEntry } | undefined;
  const crashes: number[] = [];
  let lastHeard = performance.now();
  let pingId = 0;

  const post = (msg: ToWorker) => (worker ? worker.postMessage(msg) : beforeStart?.push(msg));
  const send = (msg: ToWorker) => {
    if (msg.type === 'reset' && opts.debug) msg = { ...msg, debug: true };
    journal.sent(msg);
    // While a restore runs, inputs wait in the journal's pending list; they go after `restored`.
    if (restoring && isJournaled(msg)) return;
    post(msg);
  };

  const receive = (msg: FromWorker) => {
    const s = store.getState();
    lastHeard = performance.now();
    // For `npm run bench` (ui.live_ms): when the worker's cluster first runs (booted, in the store).
    if ((msg.type === 'snapshot' || msg.type === 'diff') && msg.run && !msg.run.booting && !performance.getEntriesByName('sim-live').length) performance.mark('sim-live');
    switch (msg.type) {
      case 'journal':
        journal.received(msg);
        break;
      case 'restored':
        restored(msg);
        break;
      case 'snapshot':
        // For `npm run bench` (ui.cold_start_ms): when the worker's first state arrived.
        if (!performance.getEntriesByName('sim-first-snapshot').length) performance.mark('sim-first-snapshot');
        journal.received(msg);
        awaitingSnapshot = false;
        s.applySnapshot(msg);
        break;
      case 'diff':
        if (awaitingSnapshot) return; // a resync is on its way; this diff is already in it
        journal.received(msg);
        if (!s.applyDiff(msg)) {
          awaitingSnapshot = true;
          send({ type: 'resync' });
        }
        break;
      case 'shellOutput':
        s.shellOutput(msg);
        break;
      case 'completions':
        s.completions(msg);
        break;
      case 'supervision':
        setSupervisionTree(msg.tree);
        break;
      case 'editReply':
        deliverEditReply(msg);
        break;
      case 'openEditor':
        // `kubectl edit` typed in the terminal: the YAML editor tab, in edit mode on the object.
        openInEditor(msg.target);
        break;
      case 'error':
        console.error(`simulation: ${msg.message}`);
        s.setError(msg.message);
        break;
    }
  };

  const start = () => {
    const w = adoptEarlyWorker() ?? new Worker(new URL('../../worker/sim.worker.ts', import.meta.url), { type: 'module', name: 'simulation' });
    worker = w;
    lastHeard = performance.now();
    w.onmessage = (ev: MessageEvent<unknown>) => {
      if (isFromWorker(ev.data)) receive(ev.data);
      else store.getState().setError('the simulation sent a message this page does not understand');
    };
    w.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      crashed(ev.message || 'it could not start');
    };
    const queued = beforeStart ?? [];
    beforeStart = undefined;
    for (const m of queued) w.postMessage(m);
  };

  /** The worker died or hung: replace it and replay the journal into the new one. */
  const crashed = (cause: string) => {
    worker?.terminate();
    const now = performance.now();
    crashes.push(now);
    while (crashes.length && crashes[0] < now - 60_000) crashes.shift();
    const s = store.getState();
    if (crashes.length > MAX_RESTARTS) {
      restoring = undefined;
      s.setRecovery({
        state: 'failed',
        cause,
        message: `The simulation worker stopped again (${cause}): ${crashes.length} times within a minute, so it is not restarted any more. Reload the page to start a fresh cluster${journal.entries.length ? ` (your ${journal.entries.length} command${journal.entries.length === 1 ? '' : 's'} would have to be run again)` : ''}.`,
      });
      return;
    }
    // A crash while replaying: the last input is the likely culprit; replay without it.
    const dropped = restoring ? journal.dropLast() : undefined;
    start();
    const restore = journal.restoreMessage(s.run, opts.debug);
    restoring = { cause, ...(dropped ? { dropped } : restoring?.dropped ? { dropped: restoring.dropped } : {}) };
    awaitingSnapshot = true;
    if (restore) post(restore);
    else post({ type: 'reset', seed: opts.seed, paused: opts.paused, ...(opts.cluster ? { cluster: opts.cluster } : {}), ...(opts.debug ? { debug: true } : {}) });
    const n = restore?.entries.length ?? 0;
    const where = restore ? ` back to ${formatClock(s.time, restore.until.now)}` : '';
    s.setRecovery({
      state: 'restarting',
      cause,
      message: `The simulation worker stopped (${cause}). Restarting it: a new worker rebuilds the cluster from seed ${s.run.seed} and replays ${n === 1 ? 'your 1 command' : `your ${n} commands`}${where}. The page is not reloaded.`,
    });
  };

  const restored = (msg: Extract<FromWorker, { type: 'restored' }>) => {
    const r = restoring;
    restoring = undefined;
    const parts = [`The simulation worker stopped (${r?.cause ?? 'unknown cause'}) and was restarted without reloading the page: the cluster was rebuilt and ${msg.replayed === 1 ? '1 command was' : `${msg.replayed} commands were`} replayed, so it is back where it was.`];
    if (r?.dropped) parts.push(`Dropped: "${describeInput(r.dropped.msg)}" (replaying it crashed the worker again).`);
    if (msg.failed) parts.push(`The replay stopped at "${describeInput(msg.failed.entry.msg)}": ${msg.failed.message}.`);
    if (msg.diverged) parts.push(`Warning: ${msg.diverged}; the cluster may differ from before.`);
    const again = journal.takePending();
    if (again.length) parts.push(`${again.length === 1 ? '1 command that had not run yet was' : `${again.length} commands that had not run yet were`} sent again.`);
    store.getState().setRecovery({ state: 'restored', cause: r?.cause ?? '', message: parts.join(' ') });
    for (const m of again) send(m);
  };

  // The default cluster is drawn at once from the build's boot view while the worker boots it
  // quietly (src/ui/state/bootView.ts); any other start shows the boot as it happens.
  const view = bootViewFor(opts);
  let cancelDeferredStart = () => {};
  if (view && (window as { __simWorker?: Worker }).__simWorker === undefined) {
    const go = () => {
      cancelDeferredStart();
      // In the frame that paints the pods (an animation-frame callback runs as the frame starts):
      // `new Worker` costs the main thread nothing; the download and compile run beside it.
      if (!worker) requestAnimationFrame(() => worker ?? start());
    };
    const timer = setTimeout(go, DEFERRED_START_MAX_MS);
    window.addEventListener(FIRST_PODS_DRAWN_EVENT, go);
    cancelDeferredStart = () => {
      clearTimeout(timer);
      window.removeEventListener(FIRST_PODS_DRAWN_EVENT, go);
    };
  } else {
    start();
  }
  // Liveness: a worker stuck in a loop never fails, it just stops answering.
  const watchdog = setInterval(() => {
    if (document.hidden || store.getState().recovery?.state === 'failed') {
      lastHeard = performance.now();
      return;
    }
    if (performance.now() - lastHeard > (restoring ? HANG_RESTORING_MS : HANG_MS)) {
      crashed(`it stopped answering for ${Math.round((restoring ? HANG_RESTORING_MS : HANG_MS) / 1000)} s`);
      return;
    }
    post({ type: 'ping', id: ++pingId });
  }, PING_EVERY_MS);
  if (opts.debug) {
    (window as unknown as { __playground?: unknown }).__playground = { store, crash: (hang = false) => post({ type: 'debugCrash', ...(hang ? { hang: true } : {}) }) };
  }

  store.setState({ send });
  // Until the worker's first snapshot says which seed runs, the Seed field shows the one asked
  // for (`?seed=2`), not the store's default 1 (a fresh user saw "1" flash while booting seed 2).
  if (!store.getState().connected) store.setState((s) => ({ run: { ...s.run, seed: opts.seed } }));
  // Keep `?seed=` and `?paused=1` in the address bar equal to the running seed and whether time
  // runs (Play/Pause, and a Reset, which keeps the current one), so a reload or a shared link
  // reproduces the run the way `startOptionsFrom` reads it.
  const unsubscribeSeed = store.subscribe(
    (s) => (s.connected ? `${s.run.seed} ${s.run.playing ? 'playing' : 'paused'}` : undefined),
    (key) => {
      if (key === undefined) return;
      const [seed = '', state] = key.split(' ');
      const url = new URL(window.location.href);
      const pausedNow = state === 'paused';
      if (url.searchParams.get('seed') === seed && startOptionsFrom(url.search).paused === pausedNow) return;
      url.searchParams.set('seed', seed);
      if (pausedNow) url.searchParams.set('paused', '1');
      else url.searchParams.delete('paused');
      window.history.replaceState(window.history.state, '', url);
    },
  );
  if (view && !store.getState().connected) store.getState().applySnapshot(view);
  send({ type: 'reset', seed: opts.seed, paused: opts.paused, ...(opts.cluster ? { cluster: opts.cluster } : {}), ...(opts.debug ? { debug: true } : {}), ...(view ? { quiet: true } : {}) });
  if (opts.speed !== undefined) send({ type: 'speed', factor: opts.speed });

  return () => {
    unsubscribeSeed();
    clearInterval(watchdog);
    cancelDeferredStart();
    worker?.terminate();
    store.setState({ send: () => {} });
  };
}
