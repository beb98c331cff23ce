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
import type { ClockInfo, FromWorker, ObjRecord, RunState, ToWorker } from '../../protocol/messages';
import { appendFolded, type TimelineEntry } from './traceFold';

/** Timeline entries kept in the UI (after folding: a run of repeats is one entry). */
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
  /** The output as it came, stream by stream (the terminal draws stderr in its own colour). */
  chunks: { text: string; stream: 'stdout' | 'stderr' }[];
}

/** Candidates for the word `line.slice(start, end)` (the worker's `completions` answer). */
export interface ShellCompletion {
  start: number;
  end: number;
  candidates: string[];
}

/** A worker crash and its recovery: `restarting` (replay running), `restored`, or `failed` (no more restarts). */
export interface Recovery {
  state: 'restarting' | 'restored' | 'failed';
  /** What happened and what was done, in words. */
  message: string;
  /** Why the worker stopped (the error it threw, or that it stopped answering). */
  cause: string;
}

type Snapshot = Extract<FromWorker, { type: 'snapshot' }>;
type Diff = Extract<FromWorker, { type: 'diff' }>;

export interface SimState {
  /** A snapshot has arrived (until then the views show "starting"). */
  connected: boolean;
  /** seq of the last applied snapshot or diff. */
  seq: number;
  objects: Record<string, ObjRecord>;
  /** Oldest first, consecutive repeats folded into one entry with a count (./traceFold.ts). */
  trace: TimelineEntry[];
  time: ClockInfo;
  run: RunState;
  shell: ShellEntry[];
  /** The shell's prompt for the next line (`$ `, or `root@NODE:/# ` inside `docker exec -it NODE bash`). */
  prompt: string;
  error?: string;
  /**
   * The simulation worker died and is being (or was) restarted by replaying the journal
   * (src/ui/state/bridge.ts): what the banner tells the person.
   */
  recovery?: Recovery;

  // Session (UI) state
  selected?: Selection;
  /** Namespaces the user chose to show or hide (absent: the default, see `isNamespaceShown`). */
  namespaces: Record<string, boolean>;
  view: 'map' | 'graph' | 'supervision' | 'editor';
  traceFilter: { text: string; component: string };

  // Actions
  applySnapshot(msg: Snapshot): void;
  /** Returns false (and applies nothing) when `msg.seq` is not the next one. */
  applyDiff(msg: Diff): boolean;
  shellOutput(msg: Extract<FromWorker, { type: 'shellOutput' }>): void;
  setError(message: string | undefined): void;
  setRecovery(recovery: Recovery | undefined): void;
  select(sel: Selection | undefined): void;
  setNamespaceShown(ns: string, shown: boolean): void;
  setView(view: SimState['view']): void;
  setTraceFilter(f: Partial<SimState['traceFilter']>): void;
  /** Send a message to the worker (set by the bridge). */
  send(msg: ToWorker): void;
  /** Run a shell line in the worker (recorded in `shell`). */
  runLine(line: string): void;
  /** Ctrl-C the line still running in the worker. */
  interrupt(): void;
  /** Ask the worker to complete `line` at `cursor` (Tab). */
  complete(line: string, cursor: number): Promise<ShellCompletion>;
  /** The worker's answer to `complete`. */
  completions(msg: Extract<FromWorker, { type: 'completions' }>): void;
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
let nextCompletionId = 0;
/** Completions asked for and not answered yet, by request id (outside the immer state: they hold functions). */
const pendingCompletions = new Map<number, (c: ShellCompletion) => void>();

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
        prompt: '$ ',
        namespaces: {},
        view: 'map',
        traceFilter: { text: '', component: '' },

        applySnapshot(msg) {
          set((s) => {
            s.connected = true;
            s.seq = msg.seq;
            s.objects = msg.objects;
            s.trace = appendFolded([], msg.trace, TRACE_KEPT);
            s.time = msg.time;
            s.run = msg.run;
            s.error = undefined;
          });
        },

        applyDiff(msg) {
          const st = get();
          if (!st.connected || msg.seq !== st.seq + 1) return false;
          // A plain replacement, not an immer draft: with 1,000 pods, immer's finalize walked every
          // record on every diff (most of the main thread in `npm run bench`). Records and the map
          // are frozen as immer would, so later drafts skip them.
          const patch: Partial<SimState> = { seq: msg.seq };
          if (msg.upserts.length || msg.removals.length) {
            const objects = { ...st.objects };
            for (const r of msg.upserts) objects[r.uid] = Object.freeze(r);
            for (const uid of msg.removals) delete objects[uid];
            patch.objects = Object.freeze(objects);
          }
          if (msg.trace.length) {
            patch.trace = Object.freeze(appendFolded(st.trace, msg.trace, TRACE_KEPT)) as TimelineEntry[];
          }
          if (msg.time.now !== st.time.now || msg.time.epochMs !== st.time.epochMs || msg.time.events !== st.time.events) patch.time = msg.time;
          if (msg.run) patch.run = msg.run;
          set(patch);
          return true;
        },

        shellOutput(msg) {
          set((s) => {
            const e = s.shell.find((x) => x.id === msg.id);
            if (!e) return;
            e.output += msg.text;
            if (msg.text) e.chunks.push({ text: msg.text, stream: msg.stream ?? 'stdout' });
            if (msg.done && msg.prompt !== undefined) s.prompt = msg.prompt;
            if (msg.done) {
              e.done = true;
              e.exitCode = msg.exitCode;
            }
          });
        },

        setRecovery(recovery) {
          set((s) => {
            s.recovery = recovery;
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
            s.shell.push({ id, line, output: '', done: false, time: s.time.now, chunks: [] });
            if (s.shell.length > SHELL_KEPT) s.shell.splice(0, s.shell.length - SHELL_KEPT);
          });
          get().send({ type: 'shell', line, id });
        },

        interrupt() {
          get().send({ type: 'interrupt' });
        },

        complete(line, cursor) {
          const id = ++nextCompletionId;
          return new Promise<ShellCompletion>((resolve) => {
            pendingCompletions.set(id, resolve);
            get().send({ type: 'complete', id, line, cursor });
          });
        },

        completions(msg) {
          const resolve = pendingCompletions.get(msg.id);
          pendingCompletions.delete(msg.id);
          resolve?.({ start: msg.start, end: msg.end, candidates: msg.candidates });
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
