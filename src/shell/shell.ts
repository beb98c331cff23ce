/**
 * The playground shell: a small shell (not bash) that runs the lines people type next to a kind
 * cluster - `kubectl ...`, `docker exec NODE systemctl stop kubelet`, `sleep 30`,
 * `kubectl get pods -w | grep catalog`, `kubectl apply -f - <<EOF ... EOF`.
 *
 * Language (see parse.ts for the grammar): words and quoting, `$VAR`/`${VAR}`/`$?`, `$(...)`,
 * pipes, `&&`, `||`, `;`, redirections (`>`, `>>`, `<`, `2>`, `2>&1`, `&>`), here-documents,
 * `VAR=x cmd`, comments, aliases, and `*`/`?` globs over the working directory.
 *
 * Builtins: `echo`, `printf`, `cd` (inside a node only: the laptop's working directory is fixed,
 * the bookshop repository), `pwd`, `export`, `unset`, `alias`, `unalias`, `env`, `exit`, `true`,
 * `false`, `sleep N` (virtual time), `timeout N CMD` (exit 124), `xargs`, `sh -c`/`bash -c`,
 * `which`, `type`, `clear`, `help`; the text filters of filters.ts (`grep`, `head`, ...). Other
 * commands come from the environment (`kubectl`, `docker`, `kind` on the laptop; `systemctl`,
 * `journalctl`, `ps`, `crictl`, ... inside a node).
 *
 * Time: commands that wait return a `Pending`; the shell suspends the line (a generator) and the
 * host advances the virtual clock and calls `ShellRun.poll()`. Nothing here reads the wall clock,
 * so the same script on the same seed prints the same bytes.
 *
 * Environments: the shell starts on the laptop (`host`); `docker exec -it NODE bash` enters a
 * node (the prompt becomes `root@NODE:/# `) until `exit`.
 */
import type { Command, CommandIO, Pending, ShellContext, ShellFiles } from './types';
import { IncompleteInput, ShellSyntaxError, parseScript } from './parse';
import { HOST_PROMPT } from './session-constants';
export { inputStatus } from './parse';
import type { AndOr, Pipeline, Redirect, Script, SimpleCommand, Word, WordPart } from './parse';
import { BufferSink, FILTERS, NULL_SINK } from './filters';
import type { FilterInstance, Sink } from './filters';
import { formatDate } from '../engine/node/shell';

/** One piece of output as a command printed it. */
export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** A line being run. Output arrives as chunks; the line completes, possibly after virtual time. */
export interface ShellRun {
  /** The input that was run. */
  readonly line: string;
  /** Every chunk printed so far, in order. */
  readonly output: readonly OutputChunk[];
  /** Hear each new chunk (the terminal streams `kubectl get pods -w`). Returns unsubscribe. */
  onOutput(listener: (chunk: OutputChunk) => void): () => void;
  /** True once the line has finished. */
  readonly done: boolean;
  /** The line's exit status (`$?`) once done. */
  readonly exitCode: number | undefined;
  /**
   * Continue after virtual time advanced: the host calls this after moving the clock. Returns
   * true when the line is done.
   */
  poll(): boolean;
  /** Virtual ms at which the line next wants a poll (undefined: whenever time moves). */
  wakeAt(): number | undefined;
  /** Ctrl-C: end whatever runs; the line finishes with status 130. */
  interrupt(): void;
}

/** bash (the laptop, `docker exec -it NODE bash`) or dash (`sh -c` inside a kind node). */
export type Flavor = 'bash' | 'dash';

/** Where lines run: the laptop, or inside a node container. */
export interface ShellEnvironment {
  /** `host`, or the node name. */
  readonly name: string;
  /** Commands available here by name (the shell's builtins and filters come on top). */
  readonly commands: Record<string, Command>;
  /** The context commands get here; `ctx.env` holds this environment's variables. */
  readonly ctx: ShellContext;
  /** PS1 as it looks now (`$ `, `root@k8s-lab-worker:/# `). */
  prompt(): string;
  /** False once the environment is gone (its node container stopped). */
  alive?(): boolean;
  /** Whether `cd` may change `PWD` (inside a node). On the laptop the directory is fixed. */
  readonly canChdir?: boolean;
  /** One-line descriptions of `commands` for `help`. */
  readonly help?: Record<string, string>;
  /** `$$` here. */
  readonly pid?: number;
  /** Where `which` finds a command (`/usr/bin/systemctl`); undefined: `/usr/bin/NAME`. */
  readonly paths?: Record<string, string>;
  /**
   * Lines typed here go whole to this environment, not through the playground's parser: a
   * container's own shell attached by `kubectl exec -it POD -- sh`
   * (src/shell/kubectl/container-session.ts). `exit [N]` leaves it (N, else the last status).
   */
  runLine?(line: string, io: CommandIO): number | Pending;
  /** What is printed (stderr) when `exit N` leaves a `runLine` environment. */
  sessionExit?(code: number): string;
  /**
   * `exit` goes to `runLine` like any line (a container's main shell attached by `kubectl run
   * -i -t` / `kubectl attach`, src/shell/kubectl/attach.ts): the environment ends when `alive()`
   * turns false after a line, and that line's status becomes the outer shell's `$?`.
   */
  readonly ownExit?: boolean;
}

/** What commands may ask of the shell they run in (via `sessionOf(ctx)`). */
export interface ShellSession {
  /** The environment the command runs in. */
  readonly env: ShellEnvironment;
  /** Who runs the command: a bash, a dash (`sh -c`), or `docker exec` directly (no shell): messages differ. */
  readonly caller: Flavor | 'exec';
  /** Run argv as a command (no parsing) in `env` (default: the caller's): `docker exec NODE CMD...`. */
  exec(argv: string[], io: CommandIO, env?: ShellEnvironment): number | Pending;
  /** Parse and run `script` (`sh -c`) in `env`, as `argv0` with positional `args`. */
  eval(script: string, io: CommandIO, opts?: { env?: ShellEnvironment; flavor?: Flavor; argv0?: string; args?: string[] }): number | Pending;
  /** Whether `name` is something `exec` can run in `env`. */
  has(name: string, env?: ShellEnvironment): boolean;
  /** Make `env` the interactive environment from the next line on (`docker exec -it NODE bash`). */
  enter(env: ShellEnvironment): void;
}

/** A ShellContext as the shell passes it to commands, with the session attached. */
export interface SessionContext extends ShellContext {
  session: ShellSession;
}

/** The session of the shell running a command, when it was run by a `Shell`. */
export function sessionOf(ctx: ShellContext): ShellSession | undefined {
  return (ctx as Partial<SessionContext>).session;
}

/** The laptop's prompt. */
export { HOST_PROMPT };
/** bash's PS2, shown before continuation lines (here-document bodies). */
export const CONTINUATION_PROMPT = '> ';
/** A root bash prompt inside a kind node: `root@k8s-lab-worker:/# `. */
export function nodePrompt(hostname: string, cwd = '/'): string {
  const shown = cwd === '/root' ? '~' : cwd.startsWith('/root/') ? `~${cwd.slice(5)}` : cwd;
  return `root@${hostname}:${shown}# `;
}

/** The laptop user's home (`$HOME`, `~`). */
export const HOST_HOME = '/home/learner';
/** The repository checkout the laptop's shell works in (`$PWD`; the working-directory files). */
export const HOST_WORKDIR = `${HOST_HOME}/k8s-bookshop`;

/** `$$` of the laptop's shell (any fixed number: determinism). */
const HOST_PID = 4242;

interface Wait {
  wakeAt?: number;
}
type Gen<T = number> = Generator<Wait, T, void>;

interface Io {
  stdin: string;
  out: Sink;
  err: Sink;
}

interface Frame {
  env: ShellEnvironment;
  vars: Record<string, string>;
  positional: string[];
  argv0: string;
  flavor: Flavor;
  status: number;
  /** Status of the last command substitution of the current command (`x=$(false)` -> 1). */
  subStatus?: number;
  /** Set by `exit`. */
  exitRequested?: number;
  /** Commands run straight from `docker exec` (no shell around them). */
  direct?: boolean;
}

/** Options of `Shell`. */
export interface ShellOptions {
  /** The laptop's context (clock, API server, working-directory files, environment). */
  ctx: ShellContext;
  /** The laptop's commands (`kubectl`, `docker`, `kind`, ...). */
  commands: Record<string, Command>;
  /** One-line descriptions of `commands` for `help`. */
  help?: Record<string, string>;
}

/** The shell. One line runs at a time. */
export class Shell {
  private stack: { env: ShellEnvironment; frame: Frame }[];
  private current: Run | undefined;
  private aliases = new Map<string, string>();
  private _exited = false;

  constructor(readonly opts: ShellOptions) {
    const env = opts.ctx.env;
    const defaults: Record<string, string> = {
      HOME: HOST_HOME,
      USER: 'learner',
      LOGNAME: 'learner',
      PWD: HOST_WORKDIR,
      SHELL: '/bin/bash',
      PATH: '/usr/local/bin:/usr/bin:/bin',
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
    };
    for (const [k, v] of Object.entries(defaults)) if (env[k] === undefined) env[k] = v;
    const host: ShellEnvironment = {
      name: 'host',
      commands: { ...hostCommands(), ...opts.commands },
      ctx: opts.ctx,
      prompt: () => HOST_PROMPT,
      help: opts.help,
      pid: HOST_PID,
      paths: { kubectl: '/usr/local/bin/kubectl', kind: '/usr/local/bin/kind', docker: '/usr/bin/docker', curl: '/usr/bin/curl' },
    };
    this.stack = [{ env: host, frame: newFrame(host, env, 'bash', 'bash') }];
  }

  /** The environment lines run in now (the laptop, or a node after `docker exec -it`). */
  get env(): ShellEnvironment {
    this.dropDeadEnvironments();
    return this.stack[this.stack.length - 1].env;
  }

  /** The prompt to show before the next line. */
  get prompt(): string {
    return this.env.prompt();
  }

  /** True while a line runs. */
  get busy(): boolean {
    return this.current !== undefined && !this.current.done;
  }

  /** True after `exit` on the laptop. */
  get exited(): boolean {
    return this._exited;
  }

  /** `$?` of the current environment. */
  get lastStatus(): number {
    return this.stack[this.stack.length - 1].frame.status;
  }

  /** Leave the innermost node environment (as `exit` there does). */
  leave(): void {
    if (this.stack.length > 1) this.stack.pop();
  }

  private dropDeadEnvironments(): void {
    while (this.stack.length > 1 && this.stack[this.stack.length - 1].env.alive?.() === false) this.stack.pop();
  }

  /**
   * Run one input (a line, or several lines when a here-document spans them). Runs as far as it
   * can at the current virtual time before returning; the host then advances the clock and
   * calls `poll()` until `done`. Throws if a line is still running.
   */
  run(line: string, opts: { onOutput?: (chunk: OutputChunk) => void } = {}): ShellRun {
    if (this.busy) throw new Error('Shell.run: a line is still running');
    this.dropDeadEnvironments();
    const top = this.stack[this.stack.length - 1];
    const run = new Run(line, opts.onOutput);
    this.current = run;
    run.start(this.runTop(line, top, run));
    return run;
  }

  private *runTop(line: string, top: { env: ShellEnvironment; frame: Frame }, run: Run): Gen {
    const frame = top.frame;
    const io: Io = { stdin: '', out: run.sink('stdout'), err: run.sink('stderr') };
    if (top.env.runLine && this.stack.length > 1) return yield* this.runAttached(line, top, run, io);
    let script: Script;
    try {
      script = parseScript(line);
    } catch (e) {
      const msg = syntaxMessage(e, frame);
      if (msg === undefined) throw e;
      io.err.write(msg);
      frame.status = 2;
      return 2;
    }
    let status: number;
    try {
      status = yield* this.runScript(script, frame, io);
    } finally {
      // Ctrl-C lands here too (generator return): `$?` becomes 130.
      frame.status = run.interrupted ? 130 : frame.status;
    }
    if (frame.exitRequested !== undefined) {
      const code = frame.exitRequested;
      frame.exitRequested = undefined;
      io.err.write('exit\n');
      if (this.stack.length > 1 && this.stack[this.stack.length - 1] === top) {
        this.stack.pop();
        this.stack[this.stack.length - 1].frame.status = code;
      } else this._exited = true;
      return code;
    }
    return status;
  }

  /** A line typed in an environment that reads its own lines (`runLine`: an attached container shell). */
  private *runAttached(line: string, top: { env: ShellEnvironment; frame: Frame }, run: Run, io: Io): Gen {
    const frame = top.frame;
    const exit = top.env.ownExit ? null : /^\s*exit(?:\s+(\d+))?\s*;?\s*$/.exec(line);
    if (exit) {
      const code = exit[1] !== undefined ? Number(exit[1]) % 256 : frame.status;
      io.err.write(top.env.sessionExit?.(code) ?? '');
      if (this.stack[this.stack.length - 1] === top) this.stack.pop();
      this.stack[this.stack.length - 1].frame.status = code;
      return code;
    }
    const cio: CommandIO = { stdout: (t) => io.out.write(t), stderr: (t) => io.err.write(t), stdin: '' };
    let r: number | Pending;
    try {
      r = top.env.runLine!(line, cio);
    } catch (e) {
      io.err.write(`${(e as Error).message}\n`);
      frame.status = 1;
      return 1;
    }
    try {
      frame.status = typeof r === 'number' ? r : yield* awaitPending(r, io, top.env.name);
    } finally {
      frame.status = run.interrupted ? 130 : frame.status;
    }
    if (top.env.alive?.() === false && this.stack[this.stack.length - 1] === top) {
      // The environment ended during the line: an attached container shell killed with its
      // container says so as kubectl does (`command terminated with exit code 137`).
      if (!top.env.ownExit) io.err.write(top.env.sessionExit?.(frame.status) ?? '');
      this.stack.pop();
      this.stack[this.stack.length - 1].frame.status = frame.status;
    }
    return frame.status;
  }

  // -------------------------------------------------------------------------------------------
  // Lists and pipelines

  private *runScript(script: Script, frame: Frame, io: Io): Gen {
    for (const item of script.items) {
      frame.status = yield* this.runAndOr(item, frame, io);
      if (frame.exitRequested !== undefined) return frame.exitRequested;
    }
    return frame.status;
  }

  private *runAndOr(ao: AndOr, frame: Frame, io: Io): Gen {
    let s = yield* this.runPipeline(ao.first, frame, io);
    frame.status = s;
    for (const r of ao.rest) {
      if (frame.exitRequested !== undefined) break;
      if ((r.op === '&&') !== (s === 0)) continue;
      s = yield* this.runPipeline(r.pipeline, frame, io);
      frame.status = s;
    }
    return s;
  }

  private *runPipeline(pl: Pipeline, frame: Frame, io: Io): Gen {
    const n = pl.commands.length;
    // 1. Expand every stage (left to right, as the words appear).
    const prepared: Prepared[] = [];
    for (const cmd of pl.commands) prepared.push(yield* this.prepare(cmd, frame, io));
    // 2. Wire the stages right to left: each stage writes into the next one's input.
    const stages: Stage[] = new Array(n);
    let downstream: Sink = io.out;
    for (let i = n - 1; i >= 0; i--) {
      const p = prepared[i];
      const fds = p.error ? undefined : this.openRedirects(p.redirects, downstream, io.err, frame);
      let stage: Stage;
      if (p.error || !fds || 'error' in fds) {
        if (fds && 'error' in fds) io.err.write(fds.error);
        stage = { kind: 'failed', status: 1, input: NULL_SINK };
      } else if (p.argv.length === 0) {
        stage = { kind: 'empty', input: NULL_SINK, fds, assigns: p.assigns };
      } else {
        const name = this.resolveAlias(p.argv)[0];
        const filter = this.isFilter(name, frame) ? FILTERS[name] : undefined;
        if (filter && i > 0 && fds.stdin === undefined) {
          const inst = filter.factory(this.resolveAlias(p.argv), fds.out, fds.err, this.filesOf(frame));
          stage = { kind: 'filter', input: inst.input, inst, fds };
        } else {
          const buffer = new BufferSink();
          stage = { kind: 'command', argv: p.argv, assigns: p.assigns, input: fds.stdin === undefined ? buffer : NULL_SINK, buffer, fds };
        }
      }
      stages[i] = stage;
      downstream = stage.input;
    }
    // 3. Run left to right; a stage starts when everything upstream has finished (its input is
    // complete), while filters downstream see output as it is written.
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const st = stages[i];
      const stdinOf = (fds: OpenFds, buffer?: BufferSink): string => fds.stdin ?? (i === 0 ? io.stdin : (buffer?.text ?? ''));
      let s: number;
      switch (st.kind) {
        case 'failed':
          s = st.status;
          break;
        case 'empty':
          if (n === 1) for (const [k, v] of Object.entries(st.assigns)) frame.vars[k] = v;
          s = frame.subStatus ?? 0;
          break;
        case 'filter':
          st.inst.input.end();
          s = st.inst.status();
          break;
        case 'command':
          s = yield* this.runCommand(prepared[i].argv, { stdin: stdinOf(st.fds, st.buffer), out: st.fds.out, err: st.fds.err }, frame, st.assigns);
          break;
      }
      frame.subStatus = undefined;
      statuses.push(s);
      if (frame.exitRequested !== undefined && n === 1) break;
    }
    const last = statuses[statuses.length - 1] ?? 0;
    return pl.negate ? (last === 0 ? 1 : 0) : last;
  }

  /** Expand a command's words, assignments and redirection targets. */
  private *prepare(cmd: SimpleCommand, frame: Frame, io: Io): Gen<Prepared> {
    frame.subStatus = undefined;
    const assigns: Record<string, string> = {};
    for (const a of cmd.assigns) assigns[a.name] = (yield* this.expandWord(a.value, frame, io, false))[0] ?? '';
    const argv: string[] = [];
    for (const w of cmd.words) argv.push(...(yield* this.expandWord(w, frame, io, true)));
    const redirects: ResolvedRedirect[] = [];
    for (const r of cmd.redirects) {
      const rr = yield* this.resolveRedirect(r, frame, io);
      if (typeof rr === 'string') {
        io.err.write(rr);
        return { argv, assigns, redirects, error: true };
      }
      redirects.push(rr);
    }
    return { argv, assigns, redirects, error: false };
  }

  private *resolveRedirect(r: Redirect, frame: Frame, io: Io): Gen<ResolvedRedirect | string> {
    const target = function* (this: Shell, w: Word): Gen<string | undefined> {
      const f = yield* this.expandWord(w, frame, io, true);
      return f.length === 1 ? f[0] : undefined;
    }.bind(this);
    const ambiguous = (w: Word): string => `${this.errPrefix(frame)}${w.raw}: ambiguous redirect\n`;
    switch (r.op) {
      case '>':
      case '>>': {
        const path = yield* target(r.target);
        if (path === undefined) return ambiguous(r.target);
        return { kind: 'out', fd: r.fd, path, append: r.op === '>>' };
      }
      case '&>':
      case '&>>': {
        const path = yield* target(r.target);
        if (path === undefined) return ambiguous(r.target);
        return { kind: 'both', path, append: r.op === '&>>' };
      }
      case '<': {
        const path = yield* target(r.target);
        if (path === undefined) return ambiguous(r.target);
        return { kind: 'in', fd: r.fd, path };
      }
      case 'dup':
        return { kind: 'dup', fd: r.fd, to: r.to };
      case 'close':
        return { kind: 'close', fd: r.fd };
      case 'heredoc': {
        const text = (yield* this.expandWord(r.body, frame, io, false))[0] ?? '';
        return { kind: 'text', fd: r.fd, text };
      }
      case 'herestring': {
        const text = (yield* this.expandWord(r.word, frame, io, false))[0] ?? '';
        return { kind: 'text', fd: r.fd, text: text + '\n' };
      }
    }
  }

  /** Apply redirections over the defaults (stdout `out`, stderr `err`). */
  private openRedirects(redirects: ResolvedRedirect[], out: Sink, err: Sink, frame: Frame): OpenFds | { error: string } {
    const fds: { 0?: string; 1: Sink; 2: Sink } = { 1: out, 2: err };
    const files = this.filesOf(frame);
    const prefix = this.errPrefix(frame);
    const openOut = (path: string, append: boolean): Sink | string => {
      if (path === '/dev/null') return NULL_SINK;
      if (path === '/dev/stdout') return fds[1];
      if (path === '/dev/stderr') return fds[2];
      if (files.isDir(path)) return `${prefix}${frame.flavor === 'dash' ? `cannot create ${path}: ` : `${path}: `}Is a directory\n`;
      try {
        if (!append || files.read(path) === undefined) files.write(path, '');
      } catch (e) {
        const code = (e as { code?: string }).code;
        const what = code === 'ENOENT' ? (frame.flavor === 'dash' ? 'Directory nonexistent' : 'No such file or directory') : code === 'EROFS' ? 'Read-only file system' : code === 'EACCES' ? 'Permission denied' : code === 'ENOTDIR' ? 'Not a directory' : 'No such file or directory';
        return `${prefix}${frame.flavor === 'dash' ? `cannot create ${path}: ` : `${path}: `}${what}\n`;
      }
      return fileSink(files, path);
    };
    for (const r of redirects) {
      if (r.kind === 'out' || r.kind === 'both') {
        const s = openOut(r.path, r.append);
        if (typeof s === 'string') return { error: s };
        if (r.kind === 'both') {
          fds[1] = s;
          fds[2] = s;
        } else if (r.fd === 1 || r.fd === 2) fds[r.fd] = s;
      } else if (r.kind === 'in') {
        if (r.path === '/dev/null') {
          fds[0] = '';
          continue;
        }
        const t = files.read(r.path);
        if (t === undefined || files.isDir(r.path))
          return { error: frame.flavor === 'dash' ? `${prefix}cannot open ${r.path}: No such file\n` : `${prefix}${r.path}: ${files.isDir(r.path) ? 'Is a directory' : 'No such file or directory'}\n` };
        if (r.fd === 0) fds[0] = t;
      } else if (r.kind === 'text') {
        if (r.fd === 0) fds[0] = r.text;
      } else if (r.kind === 'dup') {
        if (r.to !== 1 && r.to !== 2) {
          if (r.to === 0 && r.fd === 0) continue;
          return { error: `${prefix}${r.to}: Bad file descriptor\n` };
        }
        if (r.fd === 1 || r.fd === 2) fds[r.fd] = fds[r.to];
      } else if (r.kind === 'close') {
        if (r.fd === 1 || r.fd === 2) fds[r.fd] = NULL_SINK;
        else if (r.fd === 0) fds[0] = '';
      }
    }
    return { stdin: fds[0], out: fds[1], err: fds[2] };
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  private resolveAlias(argv: string[]): string[] {
    const a = this.aliases.get(argv[0]);
    if (a === undefined) return argv;
    return [...a.split(/\s+/).filter(Boolean), ...argv.slice(1)];
  }

  private isFilter(name: string, frame: Frame): boolean {
    return Object.hasOwn(FILTERS, name) && !Object.hasOwn(frame.env.commands, name);
  }

  /**
   * The files as `frame` sees them: inside a node, relative paths resolve against `$PWD`; on the
   * laptop, paths are relative to the repository and absolute paths inside it are mapped back.
   */
  private filesOf(frame: Frame): ShellFiles {
    const base = frame.env.ctx.files;
    const pwd = frame.vars.PWD;
    if (frame.env.canChdir) return resolvingFiles(base, (p) => (p.startsWith('/') ? normalize(p) : normalize(`${pwd ?? '/'}/${p}`)));
    const w = pwd ?? HOST_WORKDIR;
    return resolvingFiles(base, (p) => (p === w ? '.' : p.startsWith(`${w}/`) ? p.slice(w.length + 1) || '.' : p));
  }

  /** What `$0: ` looks like in this shell's messages (`bash: `, `sh: 1: `). */
  private errPrefix(frame: Frame): string {
    return frame.flavor === 'dash' ? `${frame.argv0}: 1: ` : `${frame.argv0 === 'sh' ? 'sh' : 'bash'}: `;
  }

  /** Run argv (expanded) with `extraVars` (`VAR=x cmd`). */
  private *runCommand(argvIn: string[], io: Io, frame: Frame, extraVars: Record<string, string>): Gen {
    const argv = this.resolveAlias(argvIn);
    let name = argv[0];
    const builtin = Object.hasOwn(BUILTINS, name) ? BUILTINS[name] : undefined;
    if (builtin) {
      const r = builtin.call(this, argv, io, frame, extraVars);
      return typeof r === 'number' ? r : yield* r;
    }
    if (name.includes('/') && !this.has(name, frame.env)) {
      const base = name.slice(name.lastIndexOf('/') + 1);
      if (this.has(base, frame.env) && !Object.hasOwn(BUILTINS, base)) name = base;
      else {
        io.err.write(frame.flavor === 'dash' ? `${this.errPrefix(frame)}${name}: not found\n` : `${this.errPrefix(frame)}${name}: No such file or directory\n`);
        return 127;
      }
    }
    const cmd = Object.hasOwn(frame.env.commands, name) ? frame.env.commands[name] : undefined;
    if (!cmd) {
      if (Object.hasOwn(FILTERS, name)) return this.runFilter(FILTERS[name].factory, [name, ...argv.slice(1)], io, frame);
      io.err.write(frame.flavor === 'dash' ? `${this.errPrefix(frame)}${name}: not found\n` : `${this.errPrefix(frame)}${name}: command not found\n`);
      return 127;
    }
    const ctx: SessionContext = { ...frame.env.ctx, env: { ...frame.vars, ...extraVars }, files: this.filesOf(frame), session: this.session(frame) };
    const cio: CommandIO = { stdout: (t) => io.out.write(t), stderr: (t) => io.err.write(t), stdin: io.stdin };
    let r: number | Pending;
    try {
      r = cmd([name, ...argv.slice(1)], cio, ctx);
    } catch (e) {
      io.err.write(`${name}: internal error: ${(e as Error).message}\n`);
      return 1;
    }
    if (typeof r === 'number') return r;
    return yield* awaitPending(r, io, name);
  }

  private runFilter(factory: (typeof FILTERS)[string]['factory'], argv: string[], io: Io, frame: Frame): number {
    const inst: FilterInstance = factory(argv, io.out, io.err, this.filesOf(frame));
    inst.input.write(io.stdin);
    inst.input.end();
    return inst.status();
  }

  /** Whether `name` runs in `env` (builtin, filter, alias or command). */
  has(name: string, env: ShellEnvironment): boolean {
    return Object.hasOwn(BUILTINS, name) || Object.hasOwn(FILTERS, name) || Object.hasOwn(env.commands, name) || this.aliases.has(name);
  }

  /** The session handed to commands run from `frame`. */
  private session(frame: Frame): ShellSession {
    const shell = this;
    return {
      env: frame.env,
      caller: frame.direct ? 'exec' : frame.flavor,
      exec(argv, cio, env = frame.env) {
        const f = newFrame(env, { ...env.ctx.env }, 'bash', 'bash');
        f.direct = true;
        return toPending(shell.runCommand(argv, ioOf(cio), f, {}));
      },
      eval(script, cio, opts = {}) {
        const env = opts.env ?? frame.env;
        const flavor = opts.flavor ?? 'dash';
        const f = newFrame(env, { ...env.ctx.env }, flavor, opts.argv0 ?? (flavor === 'dash' ? 'sh' : 'bash'));
        f.positional = opts.args ?? [];
        return toPending(shell.evalScript(script, ioOf(cio), f));
      },
      has(name, env = frame.env) {
        return shell.has(name, env);
      },
      enter(env) {
        shell.stack.push({ env, frame: newFrame(env, env.ctx.env, 'bash', 'bash') });
      },
    };
  }

  /** `sh -c SCRIPT`: parse and run in `frame` (internal: the `sh` builtin and sessions). */
  *evalScript(src: string, io: Io, frame: Frame): Gen {
    let script: Script;
    try {
      script = parseScript(src);
    } catch (e) {
      const msg = syntaxMessage(e, frame, true);
      if (msg === undefined) throw e;
      io.err.write(msg);
      return 2;
    }
    const s = yield* this.runScript(script, frame, io);
    return frame.exitRequested ?? s;
  }

  // -------------------------------------------------------------------------------------------
  // Expansion

  /** Expand a word into fields (`split`: field splitting and globbing; else one field). */
  private *expandWord(w: Word, frame: Frame, io: Io, split: boolean): Gen<string[]> {
    const pieces: { text: string; quoted: boolean; splittable: boolean }[] = [];
    for (const part of w.parts) pieces.push(...(yield* this.expandPart(part, frame, io)));
    if (!split) return [pieces.map((p) => p.text).join('')];
    interface Field {
      segs: { text: string; glob: boolean }[];
      keep: boolean;
    }
    const fields: Field[] = [];
    let cur: Field | undefined;
    const finish = (): void => {
      if (cur && (cur.keep || cur.segs.some((s) => s.text !== ''))) fields.push(cur);
      cur = undefined;
    };
    for (const p of pieces) {
      if (p.splittable) {
        const parts = p.text.split(/[ \t\n]+/);
        parts.forEach((t, j) => {
          if (j > 0) finish();
          if (t !== '') (cur ??= { segs: [], keep: false }).segs.push({ text: t, glob: true });
        });
      } else {
        cur ??= { segs: [], keep: false };
        cur.segs.push({ text: p.text, glob: !p.quoted });
        if (p.quoted) cur.keep = true;
      }
    }
    finish();
    const out: string[] = [];
    for (const f of fields) {
      const text = f.segs.map((s) => s.text).join('');
      const globbed = f.segs.some((s) => s.glob && /[*?[]/.test(s.text)) ? glob(f.segs, this.filesOf(frame)) : undefined;
      if (globbed && globbed.length) out.push(...globbed);
      else out.push(text);
    }
    return out;
  }

  private *expandPart(part: WordPart, frame: Frame, io: Io): Gen<{ text: string; quoted: boolean; splittable: boolean }[]> {
    switch (part.kind) {
      case 'lit':
        return [{ text: part.text, quoted: part.quoted, splittable: false }];
      case 'tilde':
        return [{ text: frame.vars.HOME ?? '/', quoted: true, splittable: false }];
      case 'param': {
        let v = this.paramValue(part.name, frame);
        if (part.length) return [{ text: String((v ?? '').length), quoted: part.quoted, splittable: !part.quoted }];
        if (part.op) {
          const unsetOrEmpty = part.op.startsWith(':') ? v === undefined || v === '' : v === undefined;
          const arg = (): Gen<string> =>
            function* (this: Shell): Gen<string> {
              return (yield* this.expandWord(part.arg ?? { parts: [], raw: '' }, frame, io, false))[0] ?? '';
            }.call(this);
          if (part.op === ':-' || part.op === '-') {
            if (unsetOrEmpty) v = yield* arg();
          } else if (part.op === ':+' || part.op === '+') {
            v = unsetOrEmpty ? '' : yield* arg();
          } else if (unsetOrEmpty) {
            v = yield* arg();
            frame.vars[part.name] = v;
          }
        }
        return [{ text: v ?? '', quoted: part.quoted, splittable: !part.quoted }];
      }
      case 'cmdsub': {
        const sub = newFrame(frame.env, { ...frame.vars }, frame.flavor, frame.argv0);
        sub.positional = frame.positional;
        sub.status = frame.status;
        const buf = new BufferSink();
        const s = yield* this.runScript(part.script, sub, { stdin: '', out: buf, err: io.err });
        frame.subStatus = sub.exitRequested ?? s;
        return [{ text: buf.text.replace(/\n+$/, ''), quoted: part.quoted, splittable: !part.quoted }];
      }
    }
  }

  private paramValue(name: string, frame: Frame): string | undefined {
    switch (name) {
      case '?':
        return String(frame.status);
      case '$':
        return String(frame.env.pid ?? HOST_PID);
      case '#':
        return String(frame.positional.length);
      case '0':
        return frame.argv0;
      case '@':
      case '*':
        return frame.positional.join(' ');
      case '!':
        return '';
      case '-':
        return frame.flavor === 'dash' ? '' : 'hB';
    }
    if (/^\d+$/.test(name)) return frame.positional[Number(name) - 1];
    return Object.hasOwn(frame.vars, name) ? frame.vars[name] : undefined;
  }

  // -------------------------------------------------------------------------------------------
  // Builtins' access to the shell

  /** Aliases (`alias k=kubectl`). */
  aliasTable(): Map<string, string> {
    return this.aliases;
  }

  /** Everything the shell knows in `env`, one line each (`help`). */
  helpLines(env: ShellEnvironment = this.env): string[] {
    const lines: [string, string][] = [];
    const seen = new Set<string>();
    const add = (name: string, text: string): void => {
      if (seen.has(name)) return;
      seen.add(name);
      lines.push([name, text]);
    };
    for (const name of Object.keys(env.commands).sort()) add(name, env.help?.[name] ?? DEFAULT_HELP[name] ?? name);
    for (const [name, f] of Object.entries(FILTERS)) add(name, f.help);
    for (const [name, text] of Object.entries(BUILTIN_HELP)) if (env.canChdir || name !== 'cd') add(name, text);
    if (!env.canChdir) add('cd', 'cd                              (not here: the working directory is the bookshop repository, fixed)');
    return lines.map(([, t]) => t);
  }

  /** Run a builtin-level command from a builtin (`timeout`, `xargs`, `env`). */
  runArgv(argv: string[], io: Io, frame: Frame, extraVars: Record<string, string> = {}): Gen {
    return this.runCommand(argv, io, frame, extraVars);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

interface Prepared {
  argv: string[];
  assigns: Record<string, string>;
  redirects: ResolvedRedirect[];
  error: boolean;
}

type ResolvedRedirect =
  | { kind: 'out'; fd: number; path: string; append: boolean }
  | { kind: 'both'; path: string; append: boolean }
  | { kind: 'in'; fd: number; path: string }
  | { kind: 'dup'; fd: number; to: number }
  | { kind: 'close'; fd: number }
  | { kind: 'text'; fd: number; text: string };

interface OpenFds {
  /** Text for standard input when redirected (`<`, here-document), else undefined (the pipe). */
  stdin: string | undefined;
  out: Sink;
  err: Sink;
}

type Stage =
  | { kind: 'failed'; status: number; input: Sink }
  | { kind: 'empty'; input: Sink; fds: OpenFds; assigns: Record<string, string> }
  | { kind: 'filter'; input: Sink; inst: FilterInstance; fds: OpenFds }
  | { kind: 'command'; argv: string[]; assigns: Record<string, string>; input: Sink; buffer: BufferSink; fds: OpenFds };

function newFrame(env: ShellEnvironment, vars: Record<string, string>, flavor: Flavor, argv0: string): Frame {
  return { env, vars, positional: [], argv0, flavor, status: 0 };
}

function ioOf(cio: CommandIO): Io {
  return {
    stdin: cio.stdin,
    out: { write: (t) => cio.stdout(t), end() {}, closed: false },
    err: { write: (t) => cio.stderr(t), end() {}, closed: false },
  };
}

/** `files` with every path passed through `resolve` first. */
function resolvingFiles(files: ShellFiles, resolve: (p: string) => string): ShellFiles {
  const out: ShellFiles & Partial<MutableFiles> = {
    read: (p) => files.read(resolve(p)),
    write: (p, c, append) => files.write(resolve(p), c, append),
    list: (d) => files.list(resolve(d)),
    isDir: (p) => files.isDir(resolve(p)),
  };
  // The in-memory files' directory operations (mkdir, rm), resolved the same way.
  const m = mutable(files);
  if (m) {
    out.mkdirs = (p) => m.mkdirs(resolve(p));
    out.remove = (p) => m.remove(resolve(p));
  }
  return out;
}

function fileSink(files: ShellFiles, path: string): Sink {
  return {
    write(t) {
      if (t) files.write(path, t, true);
    },
    end() {},
    closed: false,
  };
}

function syntaxMessage(e: unknown, frame: Frame, dashC = false): string | undefined {
  if (e instanceof IncompleteInput) {
    const quote = e.what === "'" || e.what === '"' || e.what === '`' ? e.what : undefined;
    if (frame.flavor === 'dash') return `${frame.argv0}: 1: Syntax error: ${quote ? 'Unterminated quoted string' : 'end of file unexpected'}\n`;
    const where = dashC ? `${frame.argv0}: -c: line 1: ` : 'bash: ';
    if (quote) return `${where}unexpected EOF while looking for matching \`${quote}'\n`;
    return `${where}syntax error: unexpected end of file\n`;
  }
  if (e instanceof ShellSyntaxError) {
    if (frame.flavor === 'dash') return `${frame.argv0}: 1: Syntax error: ${e.message.replace(/^syntax error near unexpected token /, '').replace(/^`(.*)'$/, '"$1" unexpected')}\n`;
    return `${dashC ? `${frame.argv0}: -c: line 1: ` : 'bash: '}${e.message}\n`;
  }
  return undefined;
}

/** Drive a Pending from a generator: poll after every wake-up; end it on SIGPIPE or Ctrl-C. */
function* awaitPending(p: Pending, io: Io, name: string): Gen {
  let finished = false;
  try {
    for (;;) {
      let c: number | undefined;
      try {
        c = p.poll();
      } catch (e) {
        finished = true;
        io.err.write(`${name}: internal error: ${(e as Error).message}\n`);
        return 1;
      }
      if (c !== undefined) {
        finished = true;
        return c;
      }
      if (io.out.closed) {
        finished = true;
        p.cancel();
        return 141; // SIGPIPE
      }
      yield { wakeAt: p.wakeAt?.() };
    }
  } finally {
    if (!finished) p.cancel();
  }
}

/** A generator as a command result: a number when it finishes at once, else a Pending. */
export function toPending(gen: Generator<{ wakeAt?: number }, number, void>): number | Pending {
  const first = gen.next();
  if (first.done) return first.value;
  let wait = first.value;
  let result: number | undefined;
  return {
    poll() {
      if (result !== undefined) return result;
      const r = gen.next();
      if (r.done) result = r.value;
      else wait = r.value;
      return result;
    },
    cancel() {
      if (result === undefined) {
        gen.return(130);
        result = 130;
      }
    },
    wakeAt: () => (result === undefined ? wait.wakeAt : undefined),
  };
}

/** Expand a glob over the files; undefined/empty when nothing matches (the word stays). */
function glob(segs: { text: string; glob: boolean }[], files: ShellFiles): string[] | undefined {
  // Mark active glob characters with private-use code points, then split on '/'.
  const ACTIVE: Record<string, string> = { '*': '\ue000', '?': '\ue001', '[': '\ue002' };
  const marked = segs.map((s) => (s.glob ? s.text.replace(/[*?[]/g, (c) => ACTIVE[c]) : s.text)).join('');
  const absolute = marked.startsWith('/');
  const comps = marked.split('/').filter((c, i) => c !== '' || i === 0);
  let candidates: string[] = [absolute ? '/' : ''];
  for (let ci = absolute ? 1 : 0; ci < comps.length; ci++) {
    const comp = comps[ci];
    const next: string[] = [];
    const isLast = ci === comps.length - 1;
    if (!/[\ue000-\ue002]/.test(comp)) {
      for (const c of candidates) next.push(c + comp + (isLast ? '' : '/'));
    } else {
      let src = '^';
      for (let i = 0; i < comp.length; i++) {
        const ch = comp[i];
        if (ch === '\ue000') src += '[^/]*';
        else if (ch === '\ue001') src += '[^/]';
        else if (ch === '\ue002') {
          const end = comp.indexOf(']', i + 2);
          if (end === -1) src += '\\[';
          else {
            src += '[' + comp.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
            i = end;
          }
        } else src += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      const re = new RegExp(src + '$');
      for (const c of candidates) {
        const dir = c === '' ? '.' : c.replace(/\/$/, '') || '/';
        const names = files.list(dir) ?? [];
        for (const nm of [...names].sort()) {
          if (nm.startsWith('.') && !comp.startsWith('.')) continue;
          if (re.test(nm)) next.push(c + nm + (isLast ? '' : '/'));
        }
      }
    }
    candidates = next;
  }
  const exists = (p: string): boolean => files.isDir(p.replace(/\/$/, '') || '/') || files.read(p) !== undefined;
  return candidates.filter((c) => exists(c)).map((c) => c.replace(/(.)\/$/, '$1'));
}

// ---------------------------------------------------------------------------------------------
// The run

class Run implements ShellRun {
  readonly output: OutputChunk[] = [];
  private listeners = new Set<(c: OutputChunk) => void>();
  private gen: Gen | undefined;
  private wait: Wait = {};
  done = false;
  exitCode: number | undefined;
  interrupted = false;

  constructor(
    readonly line: string,
    onOutput?: (c: OutputChunk) => void,
  ) {
    if (onOutput) this.listeners.add(onOutput);
  }

  sink(stream: 'stdout' | 'stderr'): Sink {
    return {
      write: (text) => {
        if (!text) return;
        const c = { stream, text };
        this.output.push(c);
        for (const l of [...this.listeners]) l(c);
      },
      end() {},
      closed: false,
    };
  }

  start(gen: Gen): void {
    this.gen = gen;
    this.step();
  }

  private step(): void {
    if (this.done || !this.gen) return;
    try {
      const r = this.gen.next();
      if (r.done) this.finish(r.value);
      else this.wait = r.value;
    } catch (e) {
      this.sink('stderr').write(`bash: internal error: ${(e as Error).message}\n`);
      this.finish(1);
    }
  }

  private finish(code: number): void {
    this.done = true;
    this.exitCode = code;
  }

  onOutput(listener: (c: OutputChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  poll(): boolean {
    this.step();
    return this.done;
  }

  wakeAt(): number | undefined {
    return this.done ? undefined : this.wait.wakeAt;
  }

  interrupt(): void {
    if (this.done || !this.gen) return;
    this.interrupted = true;
    try {
      this.gen.return(130);
    } catch {
      // A command's cancel failed: the line still ends.
    }
    this.finish(130);
  }
}

/** Result of `runToCompletion`. */
export interface CompletedRun {
  output: OutputChunk[];
  /** stdout and stderr interleaved as printed. */
  text: string;
  exitCode: number;
  /** True when `maxVirtualMs` passed first and the line was interrupted (exit 130). */
  timedOut: boolean;
}

/**
 * Run a line and advance the shell's virtual clock until it completes (tests, the CLI). A line
 * still running after `maxVirtualMs` (default 10 minutes) is interrupted as Ctrl-C would.
 */
export function runToCompletion(shell: Shell, line: string, opts: { maxVirtualMs?: number; onOutput?: (c: OutputChunk) => void } = {}): CompletedRun {
  const clock = shell.opts.ctx.clock;
  const limit = clock.now() + (opts.maxVirtualMs ?? 10 * 60 * 1000);
  const run = shell.run(line, { onOutput: opts.onOutput });
  let timedOut = false;
  while (!run.done) {
    const now = clock.now();
    if (now >= limit) {
      run.interrupt();
      timedOut = true;
      break;
    }
    let w = run.wakeAt();
    if (w !== undefined && w <= now) w = undefined;
    const next = clock.peekTime();
    let target = Math.min(w ?? limit, next ?? limit, limit);
    if (target <= now) {
      // Events are due now: run them; if none, move time forward a little.
      if (clock.runUntil(now) === 0) target = now + 1;
      else target = now;
    }
    if (target > now) clock.runUntil(target);
    run.poll();
  }
  return { output: [...run.output], text: run.output.map((c) => c.text).join(''), exitCode: run.exitCode ?? 0, timedOut };
}

// ---------------------------------------------------------------------------------------------
// Builtins

/** Parse `sleep`/`timeout` durations: `5`, `2.5`, `10s`, `1m`, `1h`, `1d`. */
export function parseDuration(s: string): number | undefined {
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(s);
  if (!m) return undefined;
  const mult = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]]!;
  return Math.round(Number(m[1]) * mult);
}

function* sleepFor(ctx: ShellContext, ms: number): Gen {
  const end = ctx.clock.now() + ms;
  while (ctx.clock.now() < end) yield { wakeAt: end };
  return 0;
}

/** Interpret `echo -e` / dash escapes. Returns [text, stop] (`\c` stops output). */
function echoEscapes(s: string): [string, boolean] {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i];
    const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' };
    if (n in map) out += map[n];
    else if (n === 'c') return [out, true];
    else if (n === '0') {
      const m = /^[0-7]{0,3}/.exec(s.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m || '0', 8));
      i += m.length;
    } else out += '\\' + n;
  }
  return [out, false];
}

/** `printf FORMAT [ARG]...` with %s %d %i %b %% and the usual escapes. */
function printfFormat(fmt: string, args: string[]): string {
  let out = '';
  let ai = 0;
  const once = (): void => {
    for (let i = 0; i < fmt.length; i++) {
      const c = fmt[i];
      if (c === '\\') {
        const [t] = echoEscapes(fmt.slice(i, i + 2));
        out += t;
        i++;
        continue;
      }
      if (c !== '%') {
        out += c;
        continue;
      }
      const m = /^%([-0 +#]*)(\d*)(?:\.(\d+))?([sdibxXfc%])/.exec(fmt.slice(i));
      if (!m) {
        out += c;
        continue;
      }
      i += m[0].length - 1;
      if (m[4] === '%') {
        out += '%';
        continue;
      }
      const a = args[ai++] ?? '';
      let v: string;
      if (m[4] === 'd' || m[4] === 'i') v = String(Math.trunc(Number(a) || 0));
      else if (m[4] === 'f') v = (Number(a) || 0).toFixed(m[3] ? Number(m[3]) : 6);
      else if (m[4] === 'x' || m[4] === 'X') v = (Math.trunc(Number(a) || 0)).toString(16)[m[4] === 'X' ? 'toUpperCase' : 'toLowerCase']();
      else if (m[4] === 'b') v = echoEscapes(a)[0];
      else if (m[4] === 'c') v = a.slice(0, 1);
      else v = m[3] ? a.slice(0, Number(m[3])) : a;
      const width = Number(m[2] || 0);
      v = m[1].includes('-') ? v.padEnd(width) : v.padStart(width, m[1].includes('0') && m[4] !== 's' ? '0' : ' ');
      out += v;
    }
  };
  once();
  while (ai > 0 && ai < args.length) once();
  return out;
}

const SPECIAL = new Set(['cd', 'export', 'unset', 'exit', 'alias', 'unalias']);

const BUILTINS: Record<string, (this: Shell, argv: string[], io: Io, frame: Frame, extra: Record<string, string>) => number | Gen> = {
  true() {
    return 0;
  },
  ':'() {
    return 0;
  },
  false() {
    return 1;
  },
  echo(argv, io, frame) {
    let args = argv.slice(1);
    let newline = true;
    let escapes = frame.flavor === 'dash';
    if (frame.flavor === 'bash') {
      while (args.length && /^-[neE]+$/.test(args[0])) {
        for (const c of args[0].slice(1)) {
          if (c === 'n') newline = false;
          else if (c === 'e') escapes = true;
          else escapes = false;
        }
        args = args.slice(1);
      }
    } else if (args[0] === '-n') {
      newline = false;
      args = args.slice(1);
    }
    let text = args.join(' ');
    if (escapes) {
      const [t, stop] = echoEscapes(text);
      text = t;
      if (stop) newline = false;
    }
    io.out.write(text + (newline ? '\n' : ''));
    return 0;
  },
  printf(argv, io, frame) {
    if (argv.length < 2) {
      io.err.write(frame.flavor === 'dash' ? 'printf: usage: printf format [arg ...]\n' : 'printf: usage: printf [-v var] format [arguments]\n');
      return 2;
    }
    io.out.write(printfFormat(argv[1], argv.slice(2)));
    return 0;
  },
  pwd(_argv, io, frame) {
    io.out.write((frame.vars.PWD ?? '/') + '\n');
    return 0;
  },
  cd(argv, io, frame) {
    const env = frame.env;
    const arg = argv[1];
    if (!env.canChdir) {
      const here = frame.vars.PWD ?? HOST_WORKDIR;
      if (arg === undefined || arg === '.' || arg === here || arg === '~/k8s-bookshop' || arg === 'k8s-bookshop') return 0;
      io.err.write(`bash: cd: ${arg}: the playground's working directory is fixed (the bookshop repository); use paths relative to it, e.g. manifests/bookshop\n`);
      return 1;
    }
    const home = frame.vars.HOME ?? '/';
    let target = arg === undefined || arg === '~' ? home : arg === '-' ? (frame.vars.OLDPWD ?? frame.vars.PWD ?? '/') : arg;
    if (target.startsWith('~/')) target = home + target.slice(1);
    const cwd = frame.vars.PWD ?? '/';
    const abs = normalize(target.startsWith('/') ? target : `${cwd}/${target}`);
    const files = env.ctx.files;
    if (!files.isDir(abs)) {
      const exists = files.read(abs) !== undefined;
      io.err.write(frame.flavor === 'dash' ? `${frame.argv0}: 1: cd: can't cd to ${arg}\n` : `bash: cd: ${arg}: ${exists ? 'Not a directory' : 'No such file or directory'}\n`);
      return frame.flavor === 'dash' ? 2 : 1;
    }
    frame.vars.OLDPWD = cwd;
    frame.vars.PWD = abs;
    if (arg === '-') io.out.write(abs + '\n');
    return 0;
  },
  export(argv, io, frame) {
    const args = argv.slice(1).filter((a) => a !== '-p' && a !== '-n' && a !== '--');
    if (args.length === 0) {
      for (const k of Object.keys(frame.vars).sort()) io.out.write(frame.flavor === 'dash' ? `export ${k}='${frame.vars[k]}'\n` : `declare -x ${k}="${frame.vars[k].replace(/(["\\$`])/g, '\\$1')}"\n`);
      return 0;
    }
    let status = 0;
    for (const a of args) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=([\s\S]*))?$/.exec(a);
      if (!m) {
        io.err.write(frame.flavor === 'dash' ? `${frame.argv0}: 1: export: ${a}: bad variable name\n` : `bash: export: \`${a}': not a valid identifier\n`);
        status = 1;
        continue;
      }
      if (m[2] !== undefined) frame.vars[m[1]] = m[2];
      else frame.vars[m[1]] ??= '';
    }
    return status;
  },
  unset(argv, _io, frame) {
    for (const a of argv.slice(1)) if (!a.startsWith('-')) delete frame.vars[a];
    return 0;
  },
  alias(argv, io) {
    const table = this.aliasTable();
    if (argv.length === 1) {
      for (const [k, v] of [...table].sort()) io.out.write(`alias ${k}='${v}'\n`);
      return 0;
    }
    let status = 0;
    for (const a of argv.slice(1)) {
      const i = a.indexOf('=');
      if (i === -1) {
        const v = table.get(a);
        if (v === undefined) {
          io.err.write(`bash: alias: ${a}: not found\n`);
          status = 1;
        } else io.out.write(`alias ${a}='${v}'\n`);
      } else table.set(a.slice(0, i), a.slice(i + 1));
    }
    return status;
  },
  unalias(argv, io) {
    let status = 0;
    for (const a of argv.slice(1)) {
      if (a === '-a') this.aliasTable().clear();
      else if (!this.aliasTable().delete(a)) {
        io.err.write(`bash: unalias: ${a}: not found\n`);
        status = 1;
      }
    }
    return status;
  },
  exit(argv, io, frame) {
    const a = argv[1];
    let code = frame.status;
    if (a !== undefined) {
      if (!/^-?\d+$/.test(a)) {
        io.err.write(frame.flavor === 'dash' ? `${frame.argv0}: 1: exit: Illegal number: ${a}\n` : `bash: exit: ${a}: numeric argument required\n`);
        code = 2;
      } else code = ((Number(a) % 256) + 256) % 256;
    }
    frame.exitRequested = code;
    return code;
  },
  *sleep(argv, io, frame) {
    const args = argv.slice(1);
    if (args.length === 0) {
      io.err.write("sleep: missing operand\nTry 'sleep --help' for more information.\n");
      return 1;
    }
    let ms = 0;
    for (const a of args) {
      const d = a === 'infinity' ? Number.MAX_SAFE_INTEGER / 4 : parseDuration(a);
      if (d === undefined) {
        io.err.write(`sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.\n`);
        return 1;
      }
      ms += d;
    }
    return yield* sleepFor(frame.env.ctx, ms);
  },
  *timeout(argv, io, frame, extra) {
    let i = 1;
    let killAfter: number | undefined;
    let preserve = false;
    for (; i < argv.length && argv[i].startsWith('-') && argv[i] !== '-'; i++) {
      const a = argv[i];
      if (a === '-s' || a === '--signal') i++;
      else if (a.startsWith('--signal=') || /^-s./.test(a)) continue;
      else if (a === '-k' || a === '--kill-after') killAfter = parseDuration(argv[++i] ?? '');
      else if (a === '--preserve-status') preserve = true;
      else if (a === '--foreground' || a === '-v' || a === '--verbose') continue;
      else {
        io.err.write(`timeout: invalid option -- '${a.slice(1, 2)}'\nTry 'timeout --help' for more information.\n`);
        return 125;
      }
    }
    void killAfter;
    const dur = argv[i];
    const ms = dur === undefined ? undefined : parseDuration(dur);
    if (dur === undefined || argv.length <= i + 1) {
      io.err.write("timeout: missing operand\nTry 'timeout --help' for more information.\n");
      return 125;
    }
    if (ms === undefined) {
      io.err.write(`timeout: invalid time interval ‘${dur}’\nTry 'timeout --help' for more information.\n`);
      return 125;
    }
    const cmd = argv.slice(i + 1);
    if (SPECIAL.has(cmd[0]) || (!this.has(cmd[0], frame.env) && !cmd[0].includes('/'))) {
      io.err.write(`timeout: failed to run command ‘${cmd[0]}’: No such file or directory\n`);
      return 127;
    }
    const clock = frame.env.ctx.clock;
    const deadline = clock.now() + ms;
    const inner = this.runArgv(cmd, io, frame, extra);
    if (ms === 0) return yield* inner;
    for (;;) {
      const r = inner.next();
      if (r.done) return r.value;
      if (clock.now() >= deadline) {
        inner.return(143);
        return preserve ? 143 : 124;
      }
      const w = r.value.wakeAt;
      yield { wakeAt: w === undefined ? deadline : Math.min(w, deadline) };
    }
  },
  *xargs(argv, io, frame, extra) {
    let i = 1;
    let maxArgs: number | undefined;
    let replace: string | undefined;
    let noRunIfEmpty = false;
    let trace = false;
    let delimiter: string | undefined;
    for (; i < argv.length && argv[i].startsWith('-'); i++) {
      const a = argv[i];
      if (a === '-n') maxArgs = Number(argv[++i]);
      else if (/^-n\d+$/.test(a)) maxArgs = Number(a.slice(2));
      else if (a === '-I') replace = argv[++i];
      else if (a.startsWith('-I')) replace = a.slice(2);
      else if (a === '-r' || a === '--no-run-if-empty') noRunIfEmpty = true;
      else if (a === '-t' || a === '--verbose') trace = true;
      else if (a === '-0' || a === '--null') delimiter = '\0';
      else if (a === '-d') delimiter = argv[++i];
      else if (a === '-L' || a === '-l') maxArgs = Number(argv[++i]);
      else {
        io.err.write(`xargs: invalid option -- '${a.slice(1, 2)}'\nUsage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...\nTry 'xargs --help' for more information.\n`);
        return 1;
      }
    }
    const base = argv.slice(i).length ? argv.slice(i) : ['echo'];
    const items = replace !== undefined ? io.stdin.split('\n').filter((l) => l.trim() !== '') : delimiter !== undefined ? io.stdin.split(delimiter).filter(Boolean) : xargsTokens(io.stdin);
    if (items.length === 0 && (noRunIfEmpty || replace !== undefined)) return 0;
    const batches: string[][] = [];
    if (replace !== undefined) for (const it of items) batches.push(base.map((b) => b.split(replace).join(it)));
    else if (maxArgs && maxArgs > 0) for (let k = 0; k < Math.max(1, items.length); k += maxArgs) batches.push([...base, ...items.slice(k, k + maxArgs)]);
    else batches.push([...base, ...items]);
    let status = 0;
    for (const b of batches) {
      if (trace) io.err.write(b.join(' ') + '\n');
      if (!this.has(b[0], frame.env) && !b[0].includes('/')) {
        io.err.write(`xargs: ${b[0]}: No such file or directory\n`);
        return 127;
      }
      const s = yield* this.runArgv(b, { ...io, stdin: '' }, frame, extra);
      if (s === 255) {
        io.err.write(`xargs: ${b[0]}: exited with status 255; aborting\n`);
        return 124;
      }
      if (s !== 0) status = 123;
    }
    return status;
  },
  *sh(argv, io, frame) {
    return yield* runSubShell.call(this, argv, io, frame, 'dash');
  },
  *dash(argv, io, frame) {
    return yield* runSubShell.call(this, argv, io, frame, 'dash');
  },
  *bash(argv, io, frame) {
    return yield* runSubShell.call(this, argv, io, frame, 'bash');
  },
  *env(argv, io, frame, extra) {
    let i = 1;
    const vars: Record<string, string> = { ...extra };
    let clear = false;
    for (; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-i' || a === '-') clear = true;
      else if (a === '-u') delete vars[argv[++i]];
      else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) vars[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
      else break;
    }
    if (i >= argv.length) {
      const all = clear ? vars : { ...frame.vars, ...vars };
      for (const k of Object.keys(all).sort()) io.out.write(`${k}=${all[k]}\n`);
      return 0;
    }
    const cmd = argv.slice(i);
    if (SPECIAL.has(cmd[0]) || !this.has(cmd[0], frame.env)) {
      io.err.write(`env: ‘${cmd[0]}’: No such file or directory\n`);
      return 127;
    }
    return yield* this.runArgv(cmd, io, frame, vars);
  },
  which(argv, io, frame) {
    let status = 0;
    for (const a of argv.slice(1)) {
      if (a.startsWith('-')) continue;
      if (SPECIAL.has(a) || !this.has(a, frame.env) || ['help', 'type', 'alias', 'unalias', 'exit', 'cd', 'export', 'unset', ':'].includes(a)) {
        status = 1;
        continue;
      }
      io.out.write((frame.env.paths?.[a] ?? `/usr/bin/${a}`) + '\n');
    }
    return status;
  },
  type(argv, io, frame) {
    let status = 0;
    for (const a of argv.slice(1)) {
      const alias = this.aliasTable().get(a);
      if (alias !== undefined) io.out.write(`${a} is aliased to \`${alias}'\n`);
      else if (Object.hasOwn(BUILTINS, a) && !['sleep', 'timeout', 'xargs', 'sh', 'bash', 'dash', 'env', 'which', 'clear'].includes(a)) io.out.write(`${a} is a shell builtin\n`);
      else if (this.has(a, frame.env)) io.out.write(`${a} is ${frame.env.paths?.[a] ?? `/usr/bin/${a}`}\n`);
      else {
        io.err.write(`bash: type: ${a}: not found\n`);
        status = 1;
      }
    }
    return status;
  },
  date(argv, io, frame) {
    const fmt = argv.slice(1).find((a) => a.startsWith('+'));
    const bad = argv.slice(1).find((a) => !a.startsWith('+') && a !== '-u' && a !== '--utc');
    if (bad !== undefined) {
      io.err.write(`date: invalid date ‘${bad}’\n`);
      return 1;
    }
    const clock = frame.env.ctx.clock;
    io.out.write(formatDate(clock.epochMs + clock.now(), fmt?.slice(1)) + '\n');
    return 0;
  },
  clear(_argv, io) {
    io.out.write('\x1b[H\x1b[2J\x1b[3J');
    return 0;
  },
  help(argv, io, frame) {
    const lines = this.helpLines(frame.env);
    const want = argv[1];
    const shown = want ? lines.filter((l) => l.split(/\s/)[0] === want) : lines;
    if (want && shown.length === 0) {
      io.err.write(`bash: help: no help topics match \`${want}'.\n`);
      return 1;
    }
    if (!want) io.out.write(frame.env.name === 'host' ? 'Commands of the playground shell (on your laptop, next to the kind cluster):\n' : `Commands inside the node ${frame.env.name}:\n`);
    for (const l of shown) io.out.write(l + '\n');
    return 0;
  },
};

const BUILTIN_HELP: Record<string, string> = {
  echo: 'echo [-n] [-e] [ARG]...          print arguments',
  printf: 'printf FORMAT [ARG]...          formatted output (%s %d %b)',
  pwd: 'pwd                             print the working directory',
  cd: 'cd [DIR]                        change directory',
  export: 'export NAME=VALUE...            set environment variables (VAR=x CMD sets one for CMD)',
  unset: 'unset NAME...                   remove variables',
  alias: 'alias NAME=VALUE                define an alias (alias k=kubectl)',
  unalias: 'unalias NAME                    remove an alias',
  env: 'env [NAME=VALUE]... [CMD]       print the environment, or run CMD with more variables',
  sleep: 'sleep N                         wait N seconds of cluster time (s, m, h suffixes)',
  timeout: 'timeout N CMD...                run CMD, stop it after N seconds (exit 124)',
  xargs: 'xargs [-n N] [-I {}] [-r] CMD   run CMD with arguments read from standard input',
  sh: "sh -c 'SCRIPT'                  run a script (dash, as kind's /bin/sh)",
  bash: "bash -c 'SCRIPT'                run a script",
  true: 'true                            exit 0',
  false: 'false                           exit 1',
  which: 'which CMD                       where a command lives',
  type: 'type NAME                       what a name is (alias, builtin, command)',
  date: 'date [+FORMAT]                  the time on the cluster clock',
  clear: 'clear                           clear the terminal',
  exit: 'exit [N]                        leave the node (after docker exec -it NODE bash)',
  help: 'help [NAME]                     this list',
};

/** Descriptions of the usual environment commands (an environment may override them). */
const DEFAULT_HELP: Record<string, string> = {
  kubectl: 'kubectl ...                     talk to the cluster (get, describe, apply, delete, logs, ...)',
  docker: 'docker ps|exec|stop|start|restart|kill|network|cp   the kind nodes are Docker containers',
  kind: 'kind get clusters|nodes, kind load docker-image IMG..., kind version',
  ls: 'ls [-l] [-a] [PATH]...          list files',
  mkdir: 'mkdir [-p] DIR...               make directories',
  touch: 'touch FILE...                   create empty files',
  rm: 'rm [-r] [-f] FILE...            remove files (-r: directories)',
};

function* runSubShell(this: Shell, argv: string[], io: Io, frame: Frame, flavor: Flavor): Gen {
  const name = argv[0];
  const args = argv.slice(1);
  // Options before -c (`sh -ec '...'`, `bash -lc`).
  let i = 0;
  let script: string | undefined;
  for (; i < args.length && args[i].startsWith('-') && args[i] !== '-'; i++) {
    const a = args[i];
    if (a.includes('c')) {
      script = args[++i];
      if (script === undefined) {
        io.err.write(flavor === 'dash' ? `${name}: 0: -c requires an argument\n` : `${name}: -c: option requires an argument\n`);
        return 2;
      }
      i++;
      break;
    }
  }
  const sub = newFrame(frame.env, { ...frame.vars }, flavor, name);
  if (script !== undefined) {
    sub.argv0 = args[i] ?? name;
    sub.positional = args.slice(i + 1);
    if (flavor === 'dash') sub.argv0 = args[i] ?? name;
    return yield* this.evalScript(script, io, sub);
  }
  const file = args[i];
  if (file !== undefined) {
    const text = frame.env.ctx.files.read(file);
    if (text === undefined) {
      io.err.write(flavor === 'dash' ? `${name}: 0: cannot open ${file}: No such file\n` : `${name}: ${file}: No such file or directory\n`);
      return 127;
    }
    sub.argv0 = file;
    sub.positional = args.slice(i + 1);
    return yield* this.evalScript(text, io, sub);
  }
  // Without -c or a file: a script on standard input (`... | sh`), else an interactive shell.
  if (io.stdin) return yield* this.evalScript(io.stdin, io, sub);
  io.err.write(`${name}: an interactive shell inside the playground's shell is not supported (use docker exec -it NODE bash to enter a node)\n`);
  return 1;
}

/** Split xargs input: blanks and newlines separate; quotes and backslashes group. */
function xargsTokens(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "'" || c === '"') {
      const end = s.indexOf(c, i + 1);
      cur += s.slice(i + 1, end === -1 ? s.length : end);
      has = true;
      i = end === -1 ? s.length : end;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

function normalize(p: string): string {
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return '/' + out.join('/');
}

/** The laptop's own commands: `ls`, `mkdir`, `touch` and `rm` over the working-directory files. */
function hostCommands(): Record<string, Command> {
  return { ls: hostLs, mkdir: hostMkdir, touch: hostTouch, rm: hostRm };
}

/** The directory operations of the in-memory files (src/shell/files.ts `MemoryFiles`). */
interface MutableFiles {
  mkdirs(path: string): void;
  remove(path: string): boolean;
}

function mutable(files: ShellContext['files']): (ShellContext['files'] & MutableFiles) | undefined {
  const f = files as ShellContext['files'] & Partial<MutableFiles>;
  return typeof f.mkdirs === 'function' && typeof f.remove === 'function' ? (f as ShellContext['files'] & MutableFiles) : undefined;
}

/** The directory a relative or absolute path lives in (`''` for a bare name). */
function parentOf(path: string): string {
  const p = path.replace(/\/+$/, '');
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : i === 0 ? '/' : p.slice(0, i);
}

/** GNU coreutils' error operand quoting (`quoteaf`): 'name'. */
const q = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;

/** `mkdir [-p] DIR...` (coreutils mkdir.c: `cannot create directory 'x': File exists`). */
const hostMkdir: Command = (argv, io, ctx) => {
  let parents = false;
  const paths: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '-p' || a === '--parents') parents = true;
    else if (/^-[pv]+$/.test(a)) parents = parents || a.includes('p');
    else paths.push(a);
  }
  if (paths.length === 0) {
    io.stderr("mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
    return 1;
  }
  const files = mutable(ctx.files);
  if (!files) {
    io.stderr('bash: mkdir: command not found\n');
    return 127;
  }
  let status = 0;
  for (const p of paths) {
    const exists = files.isDir(p) || files.read(p) !== undefined;
    const dir = parentOf(p);
    if (exists && !(parents && files.isDir(p))) {
      io.stderr(`mkdir: cannot create directory ${q(p)}: File exists\n`);
      status = 1;
    } else if (!parents && dir !== '' && !files.isDir(dir)) {
      io.stderr(`mkdir: cannot create directory ${q(p)}: ${files.read(dir) !== undefined ? 'Not a directory' : 'No such file or directory'}\n`);
      status = 1;
    } else if (!exists) files.mkdirs(p);
  }
  return status;
};

/** `touch FILE...`: creates empty files; an existing one is left as it is. */
const hostTouch: Command = (argv, io, ctx) => {
  const paths = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (paths.length === 0) {
    io.stderr("touch: missing file operand\nTry 'touch --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const p of paths) {
    if (ctx.files.isDir(p) || ctx.files.read(p) !== undefined) continue;
    const dir = parentOf(p);
    if (dir !== '' && !ctx.files.isDir(dir)) {
      io.stderr(`touch: cannot touch ${q(p)}: ${ctx.files.read(dir) !== undefined ? 'Not a directory' : 'No such file or directory'}\n`);
      status = 1;
      continue;
    }
    ctx.files.write(p, '');
  }
  return status;
};

/** `rm [-r] [-f] FILE...` (coreutils remove.c: `cannot remove 'x': Is a directory`). */
const hostRm: Command = (argv, io, ctx) => {
  let recursive = false;
  let force = false;
  const paths: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '--recursive') recursive = true;
    else if (a === '--force') force = true;
    else if (/^-[rRfiv]+$/.test(a)) {
      if (/[rR]/.test(a)) recursive = true;
      if (a.includes('f')) force = true;
    } else paths.push(a);
  }
  if (paths.length === 0) {
    if (force) return 0;
    io.stderr("rm: missing operand\nTry 'rm --help' for more information.\n");
    return 1;
  }
  const files = mutable(ctx.files);
  if (!files) {
    io.stderr('bash: rm: command not found\n');
    return 127;
  }
  let status = 0;
  for (const p of paths) {
    if (files.isDir(p)) {
      if (!recursive) {
        io.stderr(`rm: cannot remove ${q(p)}: Is a directory\n`);
        status = 1;
      } else files.remove(p);
    } else if (files.read(p) !== undefined) files.remove(p);
    else if (!force) {
      io.stderr(`rm: cannot remove ${q(p)}: No such file or directory\n`);
      status = 1;
    }
  }
  return status;
};

/** `ls` on the laptop, over `ctx.files` (one name per line, as ls prints into a pipe). */
const hostLs: Command = (argv, io, ctx) => {
  let all = false;
  let long = false;
  const paths: string[] = [];
  for (const a of argv.slice(1)) {
    if (/^-[laA1hrtF]+$/.test(a)) {
      if (a.includes('a') || a.includes('A')) all = true;
      if (a.includes('l')) long = true;
    } else if (a.startsWith('-')) {
      io.stderr(`ls: invalid option -- '${a[1]}'\nTry 'ls --help' for more information.\n`);
      return 2;
    } else paths.push(a);
  }
  const files = ctx.files;
  const targets = paths.length ? paths : ['.'];
  let status = 0;
  const date = formatLsDate(ctx.clock.epochMs);
  const line = (name: string, path: string): string => {
    if (!long) return name;
    const dir = files.isDir(path);
    const size = dir ? 4096 : utf8Len(files.read(path) ?? '');
    return `${dir ? 'drwxr-xr-x' : '-rw-r--r--'} ${dir ? 2 : 1} learner learner ${String(size).padStart(5)} ${date} ${name}`;
  };
  const fileTargets = targets.filter((t) => !files.isDir(t) && files.read(t) !== undefined);
  const dirTargets = targets.filter((t) => files.isDir(t));
  for (const t of targets) {
    if (!files.isDir(t) && files.read(t) === undefined) {
      io.stderr(`ls: cannot access '${t}': No such file or directory\n`);
      status = 2;
    }
  }
  const blocks: string[] = [];
  if (fileTargets.length) blocks.push(fileTargets.map((t) => line(t, t) + '\n').join(''));
  for (const d of dirTargets) {
    const names = (files.list(d) ?? []).filter((n) => all || !n.startsWith('.')).sort();
    const shown = all ? ['.', '..', ...names] : names;
    const body = (long ? `total ${shown.length * 4}\n` : '') + shown.map((n) => line(n, n === '.' || n === '..' ? d : d === '.' ? n : `${d.replace(/\/$/, '')}/${n}`) + '\n').join('');
    blocks.push(targets.length > 1 ? `${d}:\n${body}` : body);
  }
  io.stdout(blocks.join('\n'));
  return status;
};

function utf8Len(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

function formatLsDate(unixMs: number): string {
  // Civil date (UTC) without Date.
  const days = Math.floor(unixMs / 86_400_000);
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const secs = Math.floor(unixMs / 1000) % 86400;
  const p2 = (x: number): string => String(x).padStart(2, '0');
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1];
  return `${mon} ${String(d).padStart(2)} ${p2(Math.floor(secs / 3600))}:${p2(Math.floor((secs % 3600) / 60))}`;
}
