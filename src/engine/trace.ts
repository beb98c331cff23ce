/**
 * The trace: who did what and why, in virtual time. Every component writes a line here when it
 * acts (`replicaset-controller: bookshop/catalog-58544d89f4 has 1 of 2 -> create 1`,
 * `systemd[k8s-lab-worker]: kubelet.service scheduled restart in 10 s`); the UI's timeline, the
 * CLI's `--record` and scenario tests read it.
 *
 * The trace is an observer's record, not a channel between components: no component reads it.
 */

import { flattenString } from './strings';

/** The object a trace entry is about (enough to select it in the UI). */
export interface TraceObjectRef {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

/** One trace entry. `time` is virtual ms since the cluster epoch. */
export interface TraceEntry {
  time: number;
  /** The component that acted, e.g. `replicaset-controller`, `kubelet[k8s-lab-worker]`. */
  component: string;
  message: string;
  object?: TraceObjectRef;
  /** `Normal`/`Warning` for entries that mirror a core/v1 Event; `action` for user commands. */
  kind?: 'info' | 'Normal' | 'Warning' | 'action';
}

/** A function components call to add a trace entry (time is filled in by the trace). */
export type TraceFn = (component: string, message: string, object?: TraceObjectRef, kind?: TraceEntry['kind']) => void;

/** Most distinct component names `Trace` keeps interned (a 500-node cluster has ~1,500). */
const COMPONENT_INTERN_MAX = 8192;

/**
 * An append-only trace with a bounded memory (oldest entries dropped beyond `limit`) and
 * subscribers (the worker streams new entries to the UI).
 */
export class Trace {
  /**
   * A ring of at most `limit` entries: once full, `head` is the oldest entry's index and a new
   * entry overwrites it (O(1) per entry instead of shifting the array; performance only).
   */
  private entries: TraceEntry[] = [];
  private head = 0;
  private listeners: ((e: TraceEntry) => void)[] = [];
  /** Entries dropped because of `limit`. */
  dropped = 0;

  constructor(
    private readonly now: () => number,
    readonly limit = 50_000,
  ) {}

  /** Add an entry stamped with the current virtual time. */
  readonly add: TraceFn = (component, message, object, kind = 'info') => {
    const e: TraceEntry = { time: this.now(), component: this.intern(component), message: flattenString(message), ...(object ? { object } : {}), ...(kind !== 'info' ? { kind } : {}) };
    if (this.entries.length < this.limit) this.entries.push(e);
    else if (this.limit > 0) {
      this.entries[this.head] = e;
      this.head = (this.head + 1) % this.limit;
      this.dropped++;
    } else this.dropped++;
    for (const l of this.listeners) l(e);
  };

  /**
   * Component names are few (`kubelet[k8s-lab-worker7]`) but callers build one per entry; the
   * ring keeps one string per distinct name instead (performance only: the same text; bounded).
   */
  private readonly components = new Map<string, string>();

  private intern(component: string): string {
    let c = this.components.get(component);
    if (c === undefined) {
      if (this.components.size >= COMPONENT_INTERN_MAX) this.components.clear();
      c = flattenString(component);
      this.components.set(c, c);
    }
    return c;
  }

  /** Entries, optionally only those of a component (prefix match) or about an object name. */
  list(filter: { component?: string; name?: string } = {}): TraceEntry[] {
    const kept = this.head === 0 ? this.entries : this.entries.slice(this.head).concat(this.entries.slice(0, this.head));
    return kept.filter(
      (e) => (!filter.component || e.component.startsWith(filter.component)) && (!filter.name || e.object?.name === filter.name),
    );
  }

  /** Subscribe to new entries; returns an unsubscribe function. */
  subscribe(fn: (e: TraceEntry) => void): () => void {
    this.listeners.push(fn);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== fn);
    };
  }
}

/** A trace function that drops everything (components used without an observer). */
export const noTrace: TraceFn = () => {};
