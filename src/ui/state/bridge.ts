/**
 * The main-thread end of the protocol: starts the simulation worker, applies its snapshot and
 * diffs to the store (checking `seq`, asking for a resync on a gap), and routes the store's
 * `send` to the worker.
 */
import { isFromWorker, type FromWorker, type ToWorker } from '../../protocol/messages';
import type { SimStore } from './store';

/** Options read from the page URL (`?seed=1&paused=1&speed=10`). */
export interface StartOptions {
  seed: number;
  paused: boolean;
  speed?: number;
  /** `?cluster=test`: the small test cluster instead of the kind cluster. */
  cluster?: 'booted' | 'test';
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
  };
}

/** Connect `store` to a new worker. Returns a function that stops it. */
export function connectWorker(store: SimStore, opts: StartOptions): () => void {
  const worker = new Worker(new URL('../../worker/sim.worker.ts', import.meta.url), { type: 'module', name: 'simulation' });
  let awaitingSnapshot = false;

  const send = (msg: ToWorker) => worker.postMessage(msg);

  const receive = (msg: FromWorker) => {
    const s = store.getState();
    switch (msg.type) {
      case 'snapshot':
        awaitingSnapshot = false;
        s.applySnapshot(msg);
        break;
      case 'diff':
        if (awaitingSnapshot) return; // a resync is on its way; this diff is already in it
        if (!s.applyDiff(msg)) {
          awaitingSnapshot = true;
          send({ type: 'resync' });
        }
        break;
      case 'shellOutput':
        s.shellOutput(msg);
        break;
      case 'error':
        console.error(`simulation: ${msg.message}`);
        s.setError(msg.message);
        break;
    }
  };

  worker.onmessage = (ev: MessageEvent<unknown>) => {
    if (isFromWorker(ev.data)) receive(ev.data);
    else store.getState().setError('the simulation sent a message this page does not understand');
  };
  worker.onerror = (ev: ErrorEvent) => {
    ev.preventDefault();
    store.getState().setError(`the simulation worker failed: ${ev.message || 'could not start'}`);
  };

  store.setState({ send });
  // Keep `?seed=` in the address bar equal to the running seed, so a reload or a shared link
  // reproduces the run.
  const unsubscribeSeed = store.subscribe(
    (s) => (s.connected ? s.run.seed : undefined),
    (seed) => {
      if (seed === undefined) return;
      const url = new URL(window.location.href);
      if (url.searchParams.get('seed') === String(seed)) return;
      url.searchParams.set('seed', String(seed));
      window.history.replaceState(window.history.state, '', url);
    },
  );
  send({ type: 'reset', seed: opts.seed, paused: opts.paused, ...(opts.cluster ? { cluster: opts.cluster } : {}) });
  if (opts.speed !== undefined) send({ type: 'speed', factor: opts.speed });

  return () => {
    unsubscribeSeed();
    worker.terminate();
    store.setState({ send: () => {} });
  };
}
