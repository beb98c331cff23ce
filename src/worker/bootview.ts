/**
 * The boot view: the snapshot message the worker posts when the default cluster has booted (the
 * seed's starting point, `kind create cluster` then `make up`: issue #4's "A booted cluster may be
 * snapshotted so later starts are instant, but the snapshot is what the boot produced").
 *
 * `npm run gen:boot-view` runs this at build time and writes src/ui/state/boot-view.json; the page
 * draws it at once (src/ui/state/bootView.ts) while the simulation worker boots the very same
 * cluster with a `quiet` reset and then takes over with its own snapshot. A test
 * (bootview.test.ts) boots again and fails when the file is stale, so the view a learner sees
 * first is always what this build's engine produces.
 *
 * Runs `SimHost` exactly as the worker does (same cluster factory, boot steps and stop condition),
 * on a wall clock that is read, never waited on: the boot chunks end by count of reads, and the
 * boot's result does not depend on where they end (the host checks `booted()` every 250 virtual ms
 * whatever the wall time).
 */
import { PROTOCOL_VERSION, type FromWorker } from '../protocol/messages';
import { SimHost } from './host';
import { newHostBootedCluster } from './cluster';

/** The worker's snapshot message. */
export type SnapshotMessage = Extract<FromWorker, { type: 'snapshot' }>;

/** What src/ui/state/boot-view.json holds. */
export interface BootView {
  /** PROTOCOL_VERSION of the build that wrote it (the page ignores a view of another version). */
  protocol: number;
  /** The seed booted (the page's default, 1). */
  seed: number;
  /** The worker's snapshot at the end of the boot, `run` as a `reset` with `paused: false` leaves it. */
  snapshot: SnapshotMessage;
}

/** Wall timers of the headless host: run in (due, creation) order, no waiting. */
interface Timer {
  at: number;
  id: number;
  fn: () => void;
}

/**
 * Boot the default kind cluster of `seed` in a `SimHost` (the worker's host) and return the
 * snapshot it posts once the boot is over. Throws when the boot does not end (the host's own
 * 10-minute virtual limit reports an error message instead of ending the boot).
 */
export function buildBootView(seed = 1): BootView {
  let wall = 0;
  let nextId = 0;
  const timers: Timer[] = [];
  const posted: FromWorker[] = [];
  const host = new SimHost({
    env: {
      // Each read moves wall time by 1 ms: a boot chunk (100 wall ms) is 100 reads.
      now: () => ++wall,
      setTimeout: (fn, ms) => {
        const t = { at: wall + ms, id: ++nextId, fn };
        timers.push(t);
        return t.id;
      },
      clearTimeout: (id) => {
        const i = timers.findIndex((t) => t.id === id);
        if (i >= 0) timers.splice(i, 1);
      },
    },
    post: (m) => posted.push(m),
    makeCluster: (s) => newHostBootedCluster(s),
  });
  host.handle({ type: 'reset', seed, paused: false, quiet: true });
  for (let i = 0; i < 1_000_000; i++) {
    const error = posted.find((m) => m.type === 'error');
    if (error) throw new Error(`buildBootView: ${error.message}`);
    const snapshot = posted.find((m): m is SnapshotMessage => m.type === 'snapshot');
    if (snapshot) return { protocol: PROTOCOL_VERSION, seed, snapshot };
    timers.sort((a, b) => a.at - b.at || a.id - b.id);
    const t = timers.shift();
    if (!t) break;
    wall = Math.max(wall, t.at);
    t.fn();
  }
  throw new Error('buildBootView: the host stopped before the boot was over');
}
