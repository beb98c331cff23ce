/**
 * The boot view on the page: the default cluster as its boot ends, drawn at once while the
 * simulation worker boots the same cluster (a `quiet` reset) and takes over with its own snapshot.
 *
 * The view is src/ui/state/boot-view.json, written at build time by `npm run gen:boot-view` from
 * the worker's own host (src/worker/bootview.ts) and checked against a fresh boot by
 * src/worker/bootview.test.ts: what the page draws first is what the worker will send. Its run
 * state says `booting` and `starting` until then: controls wait, lines typed meanwhile run when
 * the worker has the cluster.
 */
import type { FromWorker } from '../../protocol/messages';
import { PROTOCOL_VERSION } from '../../protocol/messages';
import type { BootView } from '../../worker/bootview';
import bootView from './boot-view.json';

/** The start options the boot view depends on (src/ui/state/bridge.ts `StartOptions` has them). */
export interface BootViewOptions {
  seed: number;
  paused: boolean;
  speed?: number;
  cluster?: 'booted' | 'test';
}

type Snapshot = Extract<FromWorker, { type: 'snapshot' }>;

/** The start the build prerenders (vite.config.ts): the default URL. src/main.tsx hydrates only a page started this way. */
export const PRERENDERED_START: BootViewOptions = { seed: 1, paused: false };

/** Whether a page started with `opts` draws exactly what the build prerendered (so it may hydrate it). */
export function matchesPrerender(opts: BootViewOptions): boolean {
  const a = bootViewFor(opts);
  const b = bootViewFor(PRERENDERED_START);
  return !!a && !!b && JSON.stringify(a.run) === JSON.stringify(b.run);
}

/**
 * The snapshot to draw before the worker's first one, for these start options: the boot view when
 * they ask for its cluster (the kind cluster of its seed; not `?cluster=test`), else undefined.
 * `run` is the view's with `playing`/`speed` as asked and `booting` + `starting` set.
 */
export function bootViewFor(opts: BootViewOptions): Snapshot | undefined {
  const view = bootView as unknown as BootView;
  if (view.protocol !== PROTOCOL_VERSION || opts.seed !== view.seed || (opts.cluster ?? 'booted') !== 'booted') return undefined;
  const snap = view.snapshot;
  return { ...snap, run: { ...snap.run, playing: !opts.paused, speed: opts.speed ?? snap.run.speed, booting: true, starting: true } };
}
