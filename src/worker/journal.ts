/**
 * Crash recovery by replay. The engine is deterministic: a cluster is fully defined by its seed,
 * its kind, and the inputs a person gave it, each at the clock position where it took effect.
 * The worker (src/worker/host.ts) posts a `journal` message for every such input; the page
 * (src/ui/state/bridge.ts) keeps them in a `Journal`, together with the latest position the
 * worker reported. When the worker dies, the page starts a new one with a `restore` message
 * built from the journal; the new worker boots the same cluster, replays each entry at its
 * position (`runTo`), runs to the last position, and checks the API server's resourceVersion is
 * the one recorded there.
 *
 * Play, pause, speed, step and fast-forward are not journaled: they only decide how far the clock
 * runs, and the position says that. Pure: no DOM, no timers, no wall time.
 */
import type { ClockInfo, ClockPos, JournalEntry, RunState, ToWorker } from '../protocol/messages';

/** The slice of the virtual clock a replay drives (src/engine/clock.ts `Clock`). */
export interface ReplayClock {
  now(): number;
  /** Events run since the start. */
  readonly executed: number;
  peekTime(): number | undefined;
  step(): boolean;
  runUntil(t: number): number;
}

/** Whether `msg` changes the cluster (so a replay must repeat it): shell lines, Ctrl-C, editor applies. */
export function isJournaled(msg: ToWorker): boolean {
  if (msg.type === 'shell' || msg.type === 'interrupt') return true;
  if (msg.type === 'edit') return msg.request.op === 'apply' && !msg.request.dryRun;
  return false;
}

/** Where the engine is now. */
export function positionOf(clock: Pick<ReplayClock, 'now' | 'executed'>, api: { resourceVersion(): string }): ClockPos {
  return { now: clock.now(), events: clock.executed, rv: api.resourceVersion() };
}

/**
 * Run `clock` forward to `pos`: exactly `pos.events` events, then virtual time to `pos.now`
 * without running more events (an input given after a `step` sits between two events of the
 * same millisecond). Returns false when the queue ran dry first or the clock is already past
 * `pos` (the replay diverged).
 */
export function runTo(clock: ReplayClock, pos: Pick<ClockPos, 'now' | 'events'>): boolean {
  while (clock.executed < pos.events) {
    if (!clock.step()) return false;
  }
  if (clock.executed !== pos.events) return false;
  if (clock.now() < pos.now) {
    const next = clock.peekTime();
    if (next !== undefined && next <= pos.now) return false;
    clock.runUntil(pos.now);
  }
  return clock.now() === pos.now;
}

/**
 * The page's record of one worker run: what to send a new worker so it gets where the old one
 * was. Feed it every message sent (`sent`) and received (`received`).
 */
export class Journal {
  /** Inputs that took effect, in order. */
  entries: JournalEntry[] = [];
  /** The latest position the worker reported (undefined before its first snapshot). */
  position: ClockPos | undefined;
  /** Journaled inputs sent but not acknowledged by a `journal` message (they never ran). */
  pending: ToWorker[] = [];
  /** Inputs dropped from the journal (they crashed the worker when replayed). */
  dropped: JournalEntry[] = [];
  private resets = 0;

  /** Note a message the page sends. */
  sent(msg: ToWorker): void {
    if (msg.type === 'reset') {
      // A new cluster: what came before is gone on purpose. Messages still in flight from the old
      // cluster are ignored until the reset's snapshot arrives.
      this.resets++;
      this.entries = [];
      this.pending = [];
      this.dropped = [];
      this.position = undefined;
    } else if (isJournaled(msg)) {
      this.pending.push(msg);
    }
  }

  /** Note what the worker reported: a snapshot or diff's clock, a journal entry. */
  received(msg: { type: 'snapshot'; time: ClockInfo } | { type: 'diff'; time: ClockInfo } | { type: 'journal'; entry: JournalEntry }): void {
    if (msg.type === 'snapshot' && this.resets > 0) this.resets--;
    if (this.resets > 0) return;
    if (msg.type === 'journal') {
      this.entries.push(msg.entry);
      const i = this.pending.findIndex((p) => p.type === msg.entry.msg.type && idOf(p) === idOf(msg.entry.msg));
      if (i >= 0) this.pending.splice(i, 1);
      this.position = msg.entry.at;
      return;
    }
    const t = msg.time;
    if (t.events !== undefined && t.rv !== undefined) this.position = { now: t.now, events: t.events, rv: t.rv };
  }

  /**
   * The `restore` message for a new worker, or undefined when there is nothing to restore (no
   * snapshot came yet: the new worker just starts over with a reset).
   */
  restoreMessage(run: RunState, debug = false): Extract<ToWorker, { type: 'restore' }> | undefined {
    if (!this.position) return undefined;
    return {
      type: 'restore',
      seed: run.seed,
      cluster: run.cluster,
      entries: [...this.entries],
      until: this.position,
      run: { playing: run.playing, speed: run.speed, ...(run.booting ? { booting: true } : {}) },
      ...(debug ? { debug: true } : {}),
    };
  }

  /**
   * Drop the last entry (the replay of it crashed the new worker too): the position goes back to
   * where that entry took effect. Returns the entry, or undefined when the journal is empty.
   */
  dropLast(): JournalEntry | undefined {
    const e = this.entries.pop();
    if (!e) return undefined;
    this.dropped.push(e);
    this.position = e.at;
    return e;
  }

  /** Take the inputs that never ran (to send again once the new worker is up). */
  takePending(): ToWorker[] {
    return this.pending.splice(0);
  }
}

function idOf(msg: ToWorker): number | undefined {
  return 'id' in msg && typeof msg.id === 'number' ? msg.id : undefined;
}

/** A short human description of an input (`kubectl delete pod web-1 -n bookshop`, `Ctrl-C`, `an editor apply`). */
export function describeInput(msg: ToWorker): string {
  if (msg.type === 'shell') return msg.line;
  if (msg.type === 'interrupt') return 'Ctrl-C';
  if (msg.type === 'edit') return 'an apply from the YAML editor';
  return msg.type;
}
