/**
 * How the host runs shell lines: one line at a time, output streamed, lines that wait in virtual
 * time (`kubectl delete` waiting for the pod to go, `sleep 5`) polled after the clock moves.
 */
import type { HostCluster, ShellModule } from './cluster';
import { runFallbackLine } from './fallbackShell';
import type { Shell, ShellRun } from '../shell/shell';
import type { Completion } from '../shell/complete';
import type { CompletionInputs } from './completion';
import { HOST_PROMPT, LINE_LATENCY_MS } from '../shell/session-constants';
import { loadEngineLibraries } from '../engine/libs';
import type { EditorTarget } from '../protocol/messages';


/** A chunk of a line's output. */
export interface LineOutput {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** Runs lines. */
export interface LineRunner {
  /** `shell` (src/shell/shell.ts) or `fallback` (src/worker/fallbackShell.ts). */
  readonly kind: 'shell' | 'fallback';
  /** True while a line still runs (waiting in virtual time). */
  readonly busy: boolean;
  /**
   * Start a line; `onOutput` hears every chunk, `onDone` the exit status, `onOpenEditor` (the
   * browser's YAML editor; absent: the line has no editor) the object `kubectl edit` opens.
   */
  run(line: string, onOutput: (c: LineOutput) => void, onDone: (exitCode: number) => void, onOpenEditor?: (target: EditorTarget) => void): void;
  /** Continue the running line after virtual time advanced. */
  poll(): void;
  /** Ctrl-C the running line. */
  interrupt(): void;
  /** The prompt for the next line (`$ `, `root@k8s-lab-control-plane:/# ` inside a node). */
  readonly prompt: string;
  /** Tab completion of `line` at `cursor` (src/shell/complete.ts). */
  complete(line: string, cursor: number): Completion;
}

/**
 * Makes the runner for a cluster. `wake` is called when the runner did something outside a call
 * from the host (a line queued while the shell loaded has run), so the host sends the changes.
 */
export type LineRunnerFactory = (cluster: HostCluster, wake: () => void) => LineRunner;

/** The fallback: `kubectl delete pod` and `kubectl scale deployment` straight against the API; each line completes at once. */
export const fallbackRunner: LineRunnerFactory = (cluster) => ({
  kind: 'fallback',
  busy: false,
  run(line, onOutput, onDone) {
    const r = runFallbackLine(cluster.api, line);
    if (r.stdout) onOutput({ stream: 'stdout', text: r.stdout });
    if (r.stderr) onOutput({ stream: 'stderr', text: r.stderr });
    onDone(r.exitCode);
  },
  poll() {},
  interrupt() {},
  prompt: HOST_PROMPT,
  // Completion's code comes with the shell chunk; until it is there, nothing completes.
  complete: (_line, cursor) => ({ start: cursor, end: cursor, candidates: [] }),
});

/** Lines the fallback knows (the ones the UI's buttons issue). */
const FALLBACK_LINE = /^\s*kubectl\s+(delete\s+(pods?|po)(\/|\s)|scale\s+(deployments?|deploy)(\.apps)?(\/|\s))/;

/**
 * The playground shell (src/shell/shell.ts) of the cluster. A line the UI's buttons issue that
 * the shell's kubectl does not implement yet (it ends at once, failing, without a word - no real
 * kubectl failure is silent) runs through the fallback instead, so the buttons always work.
 */
export function shellRunner(shell: Shell, fallback?: LineRunner, completer?: (inputs: CompletionInputs, line: string, cursor: number) => Completion): LineRunner {
  let current: { run: ShellRun; onDone: (code: number) => void; onOpenEditor?: (target: EditorTarget) => void } | undefined;
  // The line's $EDITOR (`kubectl edit`): on the shell's context only while a line that has one runs.
  const withEditor = <T>(onOpenEditor: ((target: EditorTarget) => void) | undefined, f: () => T): T => {
    const ctx = shell.opts.ctx;
    if (onOpenEditor) ctx.openEditor = onOpenEditor;
    try {
      return f();
    } finally {
      delete ctx.openEditor;
    }
  };
  const finish = () => {
    if (current && current.run.done) {
      const { run, onDone } = current;
      current = undefined;
      const clock = shell.opts.ctx.clock;
      clock.runUntil(clock.now() + LINE_LATENCY_MS);
      onDone(run.exitCode ?? 0);
    }
  };
  return {
    kind: 'shell',
    get busy() {
      return current !== undefined && !current.run.done;
    },
    run(line, onOutput, onDone, onOpenEditor) {
      const run = withEditor(onOpenEditor, () => shell.run(line, { onOutput: (c) => onOutput({ stream: c.stream, text: c.text }) }));
      if (fallback && run.done && run.exitCode !== 0 && run.output.length === 0 && FALLBACK_LINE.test(line)) {
        fallback.run(line, onOutput, onDone);
        return;
      }
      current = { run, onDone, onOpenEditor };
      finish();
    },
    poll() {
      if (!current) return;
      const { run, onOpenEditor } = current;
      withEditor(onOpenEditor, () => run.poll());
      finish();
    },
    interrupt() {
      if (!current) return;
      current.run.interrupt();
      finish();
    },
    get prompt() {
      return shell.prompt;
    },
    complete(line, cursor) {
      if (!completer) return { start: cursor, end: cursor, candidates: [] };
      const env = shell.env;
      const commands = new Set([...Object.keys(env.commands), ...shell.aliasTable().keys()]);
      for (const l of shell.helpLines()) commands.add(l.split(/\s+/)[0]);
      return completer({ api: shell.opts.ctx.api, commands: [...commands], files: env.ctx.files }, line, cursor);
    },
  };
}

/** Starts the shell chunk's load (set by the promise below, called by `loadShellModule`). */
let startShellLoad: () => void = () => {};
/**
 * The shell chunk, once `loadShellModule` asked for it (once per worker), together with the
 * engine's on-demand libraries (src/engine/libs.ts): a line may create a CronJob or a custom
 * resource, or ask for field validation, so they are there before the first line runs.
 */
const shellModule: Promise<ShellModule> = new Promise<void>((resolve) => (startShellLoad = resolve))
  .then(() => Promise.all([import('./shells'), loadEngineLibraries()]))
  .then(([m]) => m);

/**
 * Load the shell chunk (once per worker): the host asks for it a moment after the boot is over,
 * or at the first line or completion typed before that, so the cluster's first draw does not wait
 * for the shell and kubectl code (src/worker/shells.ts and what it imports).
 */
export function loadShellModule(): Promise<ShellModule> {
  startShellLoad();
  return shellModule;
}

/** Settles when the shell chunk has loaded (or failed to), without starting its load. */
export function shellModuleLoaded(): Promise<ShellModule> {
  return shellModule;
}

/**
 * The cluster's shell when it has one, else the fallback. The shell's code loads on demand (the
 * host starts loading it when the boot is over or a line comes; a line run here starts it too);
 * lines that arrive before it is there wait for it, in order.
 */
export const defaultRunner: LineRunnerFactory = (cluster, wake) => {
  const fallback = fallbackRunner(cluster, wake);
  const make = cluster.shell;
  if (!make) return fallback;
  let inner: LineRunner | undefined;
  const queue: [string, (c: LineOutput) => void, (code: number) => void, ((t: EditorTarget) => void) | undefined][] = [];
  const drain = () => {
    for (const [line, onOutput, onDone, onOpenEditor] of queue.splice(0)) {
      if (inner!.busy) inner!.interrupt(); // as the host does when a line is still waiting
      inner!.run(line, onOutput, onDone, onOpenEditor);
    }
    wake();
  };
  shellModuleLoaded().then(
    (m) => {
      try {
        inner = shellRunner(make(m), fallback, m.completeAgainst);
      } catch {
        // A shell that cannot start must not take the cluster down: the fallback still deletes and scales.
        inner = fallback;
      }
      drain();
    },
    () => {
      inner = fallback;
      drain();
    },
  );
  return {
    get kind() {
      return inner?.kind ?? 'shell';
    },
    get busy() {
      return inner ? inner.busy : queue.length > 0;
    },
    run(line, onOutput, onDone, onOpenEditor) {
      if (inner && queue.length === 0) inner.run(line, onOutput, onDone, onOpenEditor);
      else {
        queue.push([line, onOutput, onDone, onOpenEditor]);
        void loadShellModule().catch(() => undefined);
      }
    },
    poll() {
      inner?.poll();
    },
    interrupt() {
      inner?.interrupt();
    },
    get prompt() {
      return inner?.prompt ?? HOST_PROMPT;
    },
    complete(line, cursor) {
      return (inner ?? fallback).complete(line, cursor);
    },
  };
};
