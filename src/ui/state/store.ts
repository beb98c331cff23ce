/**
 * The UI's store: a read-only mirror of the cluster records (written only by the worker's
 * snapshot and diffs), the timeline, the clock and run state, plus the session's UI state
 * (selection, namespace filter, open view).
 *
 * zustand vanilla store (usable outside React: the worker bridge, tests) with
 * `subscribeWithSelector` and immer; `useSim(selector)` is the React hook. Records are keyed by
 * uid and replaced one by one, so an unchanged pod keeps its object identity and its chip does
 * not re-render (see selectors.ts).
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { subscribeWithSelector } from 'zustand/middleware';
import { immer } from 'zustand/middleware/immer';
import type { ClockInfo, FromWorker, ObjRecord, RunState, ToWorker, TraceItem } from '../../protocol/messages';

/** Timeline entries kept in the UI. */
export const TRACE_KEPT = 2000;
/** Shell commands kept (with their output). */
const SHELL_KEPT = 20;

/** What is selected: an object by uid, or by reference when it has no uid (gone, or from the timeline). */
export interface Selection {
  uid?: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** One shell command and what it printed. */
export interface ShellEntry {
  id: number;
  line: string;
  output: string;
  done: boolean;
  exitCode?: number;
  /** Virtual time the line was sent at. */
  time: number;
}

type Snapshot = Extract<FromWorker, { type: 'snapshot' }>;
type Diff = Extract<FromWorker, { type: 'diff' }>;

export interface SimState {
  /** A snapshot has arrived (until then the views show "starting"). */
  connected: boolean;
  /** seq of the last applied snapshot or diff. */
  seq: number;
  objects: Record<string, ObjRecord>;
  /** Oldest first. */
  trace: TraceItem[];
  time: ClockInfo;
  run: RunState;
  shell: ShellEntry[];
  error?: string;

  // Session (UI) state
  selected?: Selection;
  /** Namespaces the user chose to show or hide (absent: the default, see `isNamespaceShown`). */
  namespaces: Record<string, boolean>;
  view: 'map' | 'graph';
  traceFilter: { text: string; component: string };

  // Actions
  applySnapshot(msg: Snapshot): void;
  /** Returns false (and applies nothing) when `msg.seq` is not the next one. */
  applyDiff(msg: Diff): boolean;
  shellOutput(msg: Extract<FromWorker, { type: 'shellOutput' }>): void;
  setError(message: string | undefined): void;
  select(sel: Selection | undefined): void;
  setNamespaceShown(ns: string, shown: boolean): void;
  setView(view: SimState['view']): void;
  setTraceFilter(f: Partial<SimState['traceFilter']>): void;
  /** Send a message to the worker (set by the bridge). */
  send(msg: ToWorker): void;
  /** Run a shell line in the worker (recorded in `shell`). */
  runLine(line: string): void;
}

/** Namespaces shown unless the user hides them. */
export const DEFAULT_NAMESPACES: ReadonlySet<string> = new Set(['bookshop', 'kube-system']);

/** Whether pods of `ns` are drawn (user choice, else the default set). */
export function isNamespaceShown(state: Pick<SimState, 'namespaces'>, ns: string | undefined): boolean {
  const key = ns ?? '';
  const choice = state.namespaces[key];
  return choice ?? DEFAULT_NAMESPACES.has(key);
}

let nextShellId = 0;

/** Create a store (one per app; tests make their own). */
export function createSimStore(send: (msg: ToWorker) => void = () => {}) {
  return createStore<SimState>()(
    subscribeWithSelector(
      immer((set, get) => ({
        connected: false,
        seq: -1,
        objects: {},
        trace: [],
        time: { now: 0, epochMs: 0 },
        run: { playing: false, speed: 1, seed: 1, cluster: 'test' },
        shell: [],
        namespaces: {},
        view: 'map',
        traceFilter: { text: '', component: '' },

        applySnapshot(msg) {
          set((s) => {
            s.connected = true;
            s.seq = msg.seq;
            s.objects = msg.objects;
            s.trace = msg.trace.slice(-TRACE_KEPT);
            s.time = msg.time;
            s.run = msg.run;
            s.error = undefined;
          });
        },

        applyDiff(msg) {
          const st = get();
          if (!st.connected || msg.seq !== st.seq + 1) return false;
          set((s) => {
            s.seq = msg.seq;
            for (const r of msg.upserts) s.objects[r.uid] = r;
            for (const uid of msg.removals) delete s.objects[uid];
            if (msg.trace.length) {
              s.trace.push(...msg.trace);
              if (s.trace.length > TRACE_KEPT) s.trace.splice(0, s.trace.length - TRACE_KEPT);
            }
            if (msg.time.now !== s.time.now || msg.time.epochMs !== s.time.epochMs) s.time = msg.time;
            if (msg.run) s.run = msg.run;
          });
          return true;
        },

        shellOutput(msg) {
          set((s) => {
            const e = s.shell.find((x) => x.id === msg.id);
            if (!e) return;
            e.output += msg.text;
            if (msg.done) {
              e.done = true;
              e.exitCode = msg.exitCode;
            }
          });
        },

        setError(message) {
          set((s) => {
            s.error = message;
          });
        },

        select(sel) {
          set((s) => {
            s.selected = sel;
          });
        },

        setNamespaceShown(ns, shown) {
          set((s) => {
            s.namespaces[ns] = shown;
          });
        },

        setView(view) {
          set((s) => {
            s.view = view;
          });
        },

        setTraceFilter(f) {
          set((s) => {
            Object.assign(s.traceFilter, f);
          });
        },

        send,

        runLine(line) {
          const id = ++nextShellId;
          set((s) => {
            s.shell.push({ id, line, output: '', done: false, time: s.time.now });
            if (s.shell.length > SHELL_KEPT) s.shell.splice(0, s.shell.length - SHELL_KEPT);
          });
          get().send({ type: 'shell', line, id });
        },
      })),
    ),
  );
}

export type SimStore = ReturnType<typeof createSimStore>;

/** The app's store. */
export const simStore: SimStore = createSimStore();

/** React hook over the app's store. */
export function useSim<T>(selector: (s: SimState) => T): T {
  return useStore(simStore, selector);
}
