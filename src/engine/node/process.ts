/**
 * The process table of one simulated node (a kind node is a container whose PID 1 is systemd).
 * Every running thing on a node is a process here: systemd, containerd, the kubelet,
 * containerd-shim-runc-v2 for each pod sandbox, and each container's main process.
 *
 * A process runs a `Program`: the behaviour model (a server that answers, a controller loop,
 * `sleep 3600`, the kubelet). Signals follow POSIX: SIGKILL cannot be caught and ends the
 * process with status 137 (128 + 9); SIGTERM (15) ends it with 143 unless the program handles
 * it (a graceful server may take a while, then exit 0). Whoever started a process (its parent:
 * systemd for units, the shim for containers) hears about its exit through `onExit`.
 *
 * Units: virtual ms for times; memory in bytes.
 */
import type { Clock } from '../clock';

/** Signals the playground can send (`kill -9`, `kill -15`, `systemctl kill`). */
export type Signal = 'SIGTERM' | 'SIGKILL' | 'SIGINT' | 'SIGHUP' | 'SIGQUIT';

/** Signal numbers as on Linux x86_64. */
export const SIGNAL_NUMBERS: Record<Signal, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/** Parse `-9`, `-KILL`, `-SIGKILL`, `9`, `KILL` into a Signal (undefined when unknown). */
export function parseSignal(s: string): Signal | undefined {
  const t = s.replace(/^-/, '').toUpperCase();
  const n = Number(t);
  if (Number.isInteger(n)) return (Object.keys(SIGNAL_NUMBERS) as Signal[]).find((k) => SIGNAL_NUMBERS[k] === n);
  const name = (t.startsWith('SIG') ? t : `SIG${t}`) as Signal;
  return name in SIGNAL_NUMBERS ? name : undefined;
}

/** How a process ended. */
export interface ExitStatus {
  /** Exit code 0-255; for a signal death 128 + signal number (as a shell reports it). */
  code: number;
  /** Set when a signal ended the process. */
  signal?: Signal;
  /** A short reason for logs and container statuses (`Completed`, `Error`, `OOMKilled`). */
  reason?: string;
}

/** What a program can do to the process it runs in. */
export interface ProcessContext {
  readonly pid: number;
  readonly clock: Clock;
  /** End the process with an exit code (and an optional reason such as `OOMKilled`). */
  exit(code: number, reason?: string): void;
  /** Write a line to the process's stdout/stderr (journal for units, container log for containers). */
  log(line: string): void;
  /** Change the resident memory (bytes); the owner may enforce a limit (the OOM killer). */
  setMemory(bytes: number): void;
  /**
   * sd_notify(3): tell the supervisor about the service's state, e.g. `READY=1` when a
   * `Type=notify` unit (containerd) has finished starting, `STATUS=...`. A no-op for processes
   * nobody listens to (containers).
   */
  notify?(state: string): void;
  /** True until the process has exited. */
  readonly alive: boolean;
}

/** The behaviour of a process. */
export interface Program {
  /** Called once when the process starts. */
  start(ctx: ProcessContext): void;
  /**
   * A catchable signal arrived (never SIGKILL). Return true if the program handles it itself
   * (and will call `ctx.exit` when done); false (or no handler) means the default action: exit
   * with 128 + signal number at once.
   */
  onSignal?(signal: Signal, ctx: ProcessContext): boolean;
  /** Called when the process ends for any reason (to cancel timers, drop memory). */
  stop?(): void;
}

/** One process. */
export interface Process {
  readonly pid: number;
  readonly ppid: number;
  /** argv[0] as `ps` shows it, e.g. `/usr/bin/kubelet`. */
  readonly command: string;
  readonly args: readonly string[];
  readonly user: string;
  /** Virtual ms it started at. */
  readonly startedAt: number;
  /** systemd unit that owns it (`kubelet.service`), or the container id for container processes. */
  readonly unit?: string;
  readonly containerId?: string;
  memoryBytes: number;
  /** undefined while running. */
  exitStatus?: ExitStatus;
  readonly program: Program;
}

/** Options of `ProcessTable.spawn`. */
export interface SpawnOptions {
  command: string;
  args?: string[];
  ppid: number;
  user?: string;
  unit?: string;
  containerId?: string;
  program: Program;
  /** Initial memory (bytes). */
  memoryBytes?: number;
  /** Told about output lines (with the process, which exists already while `start` runs). */
  onLog?: (line: string, p: Process) => void;
  /** Told when the process ends (the parent reaping it). */
  onExit?: (status: ExitStatus, p: Process) => void;
  /** Told when memory changes (for limits). */
  onMemory?: (bytes: number, p: Process) => void;
  /** Told about sd_notify messages (`READY=1`); systemd listens for its units. */
  onNotify?: (state: string, p: Process) => void;
}

/**
 * The `ProcessContext` a spawned program gets: methods on one prototype instead of a closure
 * per method per process (performance only: a 10,000-pod cluster runs 20,000 processes).
 */
class Context implements ProcessContext {
  readonly pid: number;
  readonly clock: Clock;

  constructor(
    private readonly table: ProcessTable,
    /** @internal The process (the table's entry is its context). */
    readonly proc: Process,
    /** @internal Its spawn options (callbacks). */
    readonly opts: SpawnOptions,
  ) {
    this.pid = proc.pid;
    this.clock = table.clock;
  }

  exit(code: number, reason?: string): void {
    this.table.finish(this.pid, { code, ...(reason ? { reason } : {}) });
  }

  log(line: string): void {
    this.opts.onLog?.(line, this.proc);
  }

  setMemory(bytes: number): void {
    if (this.proc.exitStatus) return;
    this.proc.memoryBytes = bytes;
    this.opts.onMemory?.(bytes, this.proc);
  }

  notify(state: string): void {
    if (!this.proc.exitStatus) this.opts.onNotify?.(state, this.proc);
  }

  get alive(): boolean {
    return !this.proc.exitStatus;
  }
}

/**
 * The processes of one node. PIDs are allocated increasingly from 1 (PID 1 is systemd), as
 * Linux does until it wraps, so `ps` output is stable for a given run.
 */
export class ProcessTable {
  /** Live processes by pid: each one's context, which holds the process and its spawn options (one object per process). */
  private entries = new Map<number, Context>();
  private nextPid = 1;

  constructor(readonly clock: Clock) {}

  /** Start a process running `opts.program`. The program's `start` runs synchronously. */
  spawn(opts: SpawnOptions): Process {
    const pid = this.nextPid++;
    // PIDs in real kind nodes jump as short-lived helpers come and go; keep them plausible.
    const proc: Process = {
      pid,
      ppid: opts.ppid,
      command: opts.command,
      args: opts.args ?? [],
      user: opts.user ?? 'root',
      startedAt: this.clock.now(),
      unit: opts.unit,
      containerId: opts.containerId,
      memoryBytes: opts.memoryBytes ?? 0,
      program: opts.program,
    };
    const ctx = new Context(this, proc, opts);
    this.entries.set(pid, ctx);
    opts.program.start(ctx);
    return proc;
  }

  /** A live process by PID. */
  get(pid: number): Process | undefined {
    const e = this.entries.get(pid);
    return e && !e.proc.exitStatus ? e.proc : undefined;
  }

  /** Live processes, by PID. */
  list(): Process[] {
    return [...this.entries.values()].filter((e) => !e.proc.exitStatus).map((e) => e.proc);
  }

  /** Live children of a PID. */
  children(pid: number): Process[] {
    return this.list().filter((p) => p.ppid === pid);
  }

  /**
   * Send a signal (`kill`). Returns false when no such live process exists (`kill: (N) - No such process`).
   * SIGKILL ends it at once with 137; other signals go to the program, whose default is to exit.
   */
  kill(pid: number, signal: Signal): boolean {
    const e = this.entries.get(pid);
    if (!e || e.proc.exitStatus) return false;
    if (signal !== 'SIGKILL' && e.proc.program.onSignal?.(signal, e)) return true;
    this.finish(pid, { code: 128 + SIGNAL_NUMBERS[signal], signal });
    return true;
  }

  /** Every process dies at once (the machine powers off). No exit callbacks run: nobody is left to hear them. */
  killAll(): void {
    for (const e of this.entries.values()) {
      if (e.proc.exitStatus) continue;
      e.proc.exitStatus = { code: 137, signal: 'SIGKILL' };
      e.proc.program.stop?.();
    }
    this.entries.clear();
  }

  /** @internal `ProcessContext.exit`. */
  finish(pid: number, status: ExitStatus): void {
    const e = this.entries.get(pid);
    if (!e || e.proc.exitStatus) return;
    e.proc.exitStatus = status;
    e.proc.memoryBytes = 0;
    e.proc.program.stop?.();
    this.entries.delete(pid);
    e.opts.onExit?.(status, e.proc);
  }
}
