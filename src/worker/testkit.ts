/**
 * Test support for `SimHost` (src/worker/host.ts): a fake wall clock and timer queue standing in
 * for the worker's `performance.now()` / `setTimeout`, so host tests run the frame loop, boot
 * chunks and fast-forwards deterministically by advancing wall time by hand.
 *
 * Units: wall milliseconds (the host's, not the engine's virtual milliseconds).
 */
import { readFileSync } from 'node:fs';
import type { FromWorker } from '../protocol/messages';
import { SimHost, type HostEnv } from './host';
import { loadShellModule } from './lines';
import { newHostTestCluster, type ManifestFiles } from './cluster';

/** The fake wall clock of a host test. */
export interface FakeWall {
  /** What the host gets as its `env`. */
  env: HostEnv;
  /**
   * Move wall time forward by `ms`, running every timer due by then in (due time, creation)
   * order; a timer a callback sets within the window runs too. Wall time never moves back.
   */
  advance(ms: number): void;
  /** Run the earliest timer whatever its due time (wall time jumps to it); false when none is set. */
  next(): boolean;
  /** The current wall time, ms. */
  now(): number;
}

/**
 * A fake wall clock starting at 0. `perRead`: wall ms each `env.now()` read costs (0: time moves
 * only with `advance`; > 0 makes a boot chunk or a tick end after a few engine steps, as a real
 * clock would).
 */
export function fakeWall(perRead = 0): FakeWall {
  let wall = 0;
  let nextId = 0;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  const env: HostEnv = {
    now: () => (wall += perRead),
    setTimeout: (fn, ms) => {
      const t = { at: wall + ms, fn, id: ++nextId };
      timers.push(t);
      return t.id;
    },
    clearTimeout: (id) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const advance = (ms: number): void => {
    const end = wall + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const t = timers[0];
      if (!t || t.at > end) break;
      timers.shift();
      wall = Math.max(wall, t.at);
      t.fn();
    }
    wall = Math.max(wall, end);
  };
  const next = (): boolean => {
    timers.sort((a, b) => a.at - b.at || a.id - b.id);
    const t = timers.shift();
    if (!t) return false;
    wall = Math.max(wall, t.at);
    t.fn();
    return true;
  };
  return { env, advance, next, now: () => wall };
}

/** The bookshop's manifests from fixtures/ (what the test cluster's `make up` applies), by file name. */
export const BOOKSHOP_FILES: ManifestFiles = (() => {
  const dir = new URL('../../fixtures/k8s-bookshop/manifests/bookshop/', import.meta.url);
  return Object.fromEntries(['config.yaml', 'catalog.yaml', 'orders.yaml', 'web.yaml', 'postgres.yaml'].map((f) => [f, readFileSync(new URL(f, dir), 'utf8')]));
})();

/**
 * A host on the test cluster (seed 1, paused) whose wall clock never moves, with the shell's code
 * loaded: virtual time moves only when a test asks. Returns the host and every message it posted.
 */
export async function pausedTestHost(): Promise<{ h: SimHost; msgs: FromWorker[] }> {
  const msgs: FromWorker[] = [];
  const h = new SimHost({
    env: { now: () => 0, setTimeout: () => 0, clearTimeout: () => {} },
    post: (m) => msgs.push(m),
    makeCluster: (seed) => newHostTestCluster(seed, BOOKSHOP_FILES),
  });
  h.handle({ type: 'reset', seed: 1, paused: true, cluster: 'test' });
  await loadShellModule();
  await Promise.resolve();
  return { h, msgs };
}
