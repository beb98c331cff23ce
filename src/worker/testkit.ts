/**
 * Test support for `SimHost` (src/worker/host.ts): a fake wall clock and timer queue standing in
 * for the worker's `performance.now()` / `setTimeout`, so host tests run the frame loop, boot
 * chunks and fast-forwards deterministically by advancing wall time by hand.
 *
 * Units: wall milliseconds (the host's, not the engine's virtual milliseconds).
 */
import type { HostEnv } from './host';

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
