/**
 * One kind node: a Docker container (`kindest/node`) whose PID 1 is systemd (`/sbin/init`).
 * It owns the node's disk (`FileSystem`, kept across restarts), its journal (volatile: cleared
 * at each boot), its process table (a new PID namespace per boot, so PIDs start again at 1) and
 * its systemd (a new PID 1 per boot: systemd's memory of restart counters and results is gone).
 *
 * Power, as Docker does it to a kind node:
 * - `powerOn()` = `docker start`: systemd boots and starts the enabled units (containerd.service,
 *   kubelet.service) - see `Systemd.boot`.
 * - `powerOff()` = `docker stop`: the stop signal (kind's image sets STOPSIGNAL SIGRTMIN+3, the
 *   halt request) makes systemd stop every unit; when they are down, or after Docker's
 *   10 s timeout, everything left (containers, shims) is killed.
 * - `kill()` = `docker kill`: SIGKILL to everything at once; nobody hears anything.
 * - `restart()` = `docker restart`: stop, then start.
 * - `disconnect()`/`connect()` = `docker network disconnect/connect kind NODE`: processes keep
 *   running but nothing on the node reaches the API server and the API server cannot reach the
 *   node; the kubelet and the cluster wiring check `connected`.
 *
 * Units: virtual ms; memory in bytes.
 */
import type { Clock, Rng, Timer } from '../clock';
import type { Process, Signal } from './process';
import { ProcessTable } from './process';
import type { FileSystem } from './fs';
import { kindNodeFilesystem } from './fs';
import type { CommandResult } from './journal';
import { Journal, civilTime, journalctl } from './journal';
import type { ExecutableOptions, UnitProgramFactory } from './systemd';
import { ExecutableRegistry, Systemd, processComm, processCpuMs, processProfile, processRssBytes } from './systemd';

/** Power state of the container. */
export type MachineState = 'stopped' | 'running' | 'stopping';

/** Something that happened to the machine as a whole (for the UI and the cluster wiring). */
export type MachineEvent =
  | { type: 'power-on'; boot: number }
  | { type: 'power-off'; how: 'stop' | 'kill' }
  | { type: 'network'; connected: boolean };

/** Options of `Machine`. */
export interface MachineOptions {
  /** Node/container name, e.g. `k8s-lab-worker`. */
  name: string;
  role: 'control-plane' | 'worker';
  clock: Clock;
  /** The node's disk; default `kindNodeFilesystem({ nodeName: name, role })` on this clock. */
  fs?: FileSystem;
  /** Jitter for the PIDs early boot uses (a real node's PIDs vary a little); default none. */
  rng?: Rng;
  /** Memory the node sees (the host's, as in any container): `ps` %MEM. Default 16 GiB. */
  memoryBytes?: number;
  /** Docker's stop timeout (`docker stop -t`), ms. Default 10 s. */
  stopTimeoutMs?: number;
  /** Program registry to share (default: a new one). */
  executables?: ExecutableRegistry;
}

/** `docker stop`'s default grace before SIGKILL (docker stop --time default 10). */
export const DOCKER_STOP_TIMEOUT_MS = 10_000;
/** Default memory visible in a node: a 16 GiB host. */
export const DEFAULT_NODE_MEMORY_BYTES = 16 * 1024 * 1024 * 1024;
/** PIDs early boot uses before journald starts (kind's entrypoint, generators, mounts): journald lands near 90. */
export const EARLY_BOOT_PIDS = 88;
/** PIDs used between journald and the multi-user units (tmpfiles, oneshot setup units). */
export const UNIT_BOOT_PIDS = 8;

/** Options of pgrep/pkill (procps). */
export interface PgrepOptions {
  /** `-f`: match the whole command line instead of the process name. */
  full?: boolean;
  /** `-x`: the pattern must match exactly. */
  exact?: boolean;
}

/** One kind node container. */
export class Machine {
  readonly name: string;
  readonly role: 'control-plane' | 'worker';
  readonly clock: Clock;
  readonly fs: FileSystem;
  readonly journal: Journal;
  readonly executables: ExecutableRegistry;
  /** Host memory visible in the node (bytes). */
  readonly memoryBytes: number;
  private _state: MachineState = 'stopped';
  private _connected = true;
  private _processes: ProcessTable;
  private _systemd: Systemd | undefined;
  private _boots = 0;
  private stopTimer: Timer | undefined;
  private listeners = new Set<(e: MachineEvent) => void>();

  constructor(private readonly o: MachineOptions) {
    this.name = o.name;
    this.role = o.role;
    this.clock = o.clock;
    this.fs = o.fs ?? kindNodeFilesystem({ nodeName: o.name, role: o.role, now: () => o.clock.now(), epochMs: o.clock.epochMs });
    this.journal = new Journal(() => o.clock.now(), o.clock.epochMs, o.name);
    this.executables = o.executables ?? new ExecutableRegistry();
    this.memoryBytes = o.memoryBytes ?? DEFAULT_NODE_MEMORY_BYTES;
    this._processes = new ProcessTable(o.clock);
  }

  /** `stopped`, `running` or `stopping` (systemd halting under `docker stop`). */
  get state(): MachineState {
    return this._state;
  }

  /** True while the container runs (docker exec works). */
  get running(): boolean {
    return this._state !== 'stopped';
  }

  /** Attached to the `kind` network (false after `docker network disconnect kind NODE`). */
  get connected(): boolean {
    return this._connected;
  }

  /** Number of boots so far (1 after the first `powerOn`). */
  get boots(): number {
    return this._boots;
  }

  /** The current boot's process table (replaced at every boot: read it through the machine). */
  get processes(): ProcessTable {
    return this._processes;
  }

  /** The current boot's systemd (undefined before the first boot). */
  get systemd(): Systemd | undefined {
    return this._systemd;
  }

  /** Register the program a binary runs under systemd (kept across boots). */
  registerExecutable(path: string, factory: UnitProgramFactory, opts: ExecutableOptions = {}): void {
    this.executables.register(path, factory, opts);
  }

  /** Hear power and network changes. Returns the unsubscribe function. */
  onEvent(listener: (e: MachineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: MachineEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  /**
   * `docker start`: a new PID namespace, /tmp and /run emptied (tmpfs), the journal cleared,
   * and systemd boots. Returns false if the container is already running.
   */
  powerOn(): boolean {
    if (this._state !== 'stopped') return false;
    this._processes = new ProcessTable(this.clock);
    this.fs.emptyDirectory('/tmp');
    this.fs.emptyDirectory('/run');
    this.journal.clear();
    this.journal.hostname = this.fs.tryReadFile('/etc/hostname')?.trim() || this.name;
    this._boots++;
    this._state = 'running';
    const jitter = (n: number): number => (this.o.rng ? this.o.rng.int(0, n) : 0);
    this._systemd = new Systemd({
      clock: this.clock,
      fs: this.fs,
      processes: this._processes,
      journal: this.journal,
      executables: this.executables,
      earlyBootPids: EARLY_BOOT_PIDS + jitter(8),
      unitBootPids: UNIT_BOOT_PIDS + jitter(4),
    });
    this._systemd.boot();
    this.emit({ type: 'power-on', boot: this._boots });
    return true;
  }

  /**
   * `docker stop`: systemd stops its units; when they are all down (or after
   * `stopTimeoutMs`) every remaining process is killed and the container is stopped.
   * `onDone` runs then. Returns false if the container is not running.
   */
  powerOff(onDone?: () => void): boolean {
    if (this._state !== 'running' || !this._systemd) return false;
    this._state = 'stopping';
    const sd = this._systemd;
    const finish = (): void => {
      if (this._state !== 'stopping') return;
      this.stopTimer?.cancel();
      this.stopTimer = undefined;
      sd.abandon();
      this._processes.killAll();
      this._state = 'stopped';
      this.emit({ type: 'power-off', how: 'stop' });
      onDone?.();
    };
    this.stopTimer = this.clock.schedule(this.o.stopTimeoutMs ?? DOCKER_STOP_TIMEOUT_MS, finish, { label: `docker: stop ${this.name} timeout` });
    sd.shutdown(() => this.clock.schedule(0, finish));
    return true;
  }

  /** `docker kill`: SIGKILL to every process at once. Returns false if not running. */
  kill(): boolean {
    if (this._state === 'stopped') return false;
    this.stopTimer?.cancel();
    this.stopTimer = undefined;
    this._systemd?.abandon();
    this._processes.killAll();
    this._state = 'stopped';
    this.emit({ type: 'power-off', how: 'kill' });
    return true;
  }

  /** `docker restart`: `docker stop` then `docker start`. */
  restart(onDone?: () => void): void {
    if (this._state === 'stopped') {
      this.powerOn();
      onDone?.();
      return;
    }
    if (this._state === 'stopping') return;
    this.powerOff(() => {
      this.powerOn();
      onDone?.();
    });
  }

  /** `docker network disconnect kind NODE`. */
  disconnect(): void {
    if (!this._connected) return;
    this._connected = false;
    this.emit({ type: 'network', connected: false });
  }

  /** `docker network connect kind NODE`. */
  connect(): void {
    if (this._connected) return;
    this._connected = true;
    this.emit({ type: 'network', connected: true });
  }

  // ---------------------------------------------------------------------------------------
  // Processes as a shell inside the node sees them

  /**
   * `kill -SIG PID` from inside the node. Returns false when no such process exists (the shell
   * then prints `kill: (PID) - No such process`). PID 1 ignores signals it has no handler for
   * (the kernel protects a namespace's init), so `kill -9 1` does nothing.
   */
  signal(pid: number, sig: Signal): boolean {
    if (!this.running) return false;
    if (pid === 1) return this._processes.get(1) !== undefined;
    return this._processes.kill(pid, sig);
  }

  /** The process name `pgrep`/`ps -o comm` see: argv[0]'s basename, `systemd` for PID 1 (it renames itself). */
  comm(p: Process): string {
    return p.pid === 1 ? 'systemd' : processComm(p);
  }

  /**
   * `pgrep [-f] [-x] PATTERN`: PIDs whose name (or, with `full`, whole command line) matches
   * the extended regular expression, ascending. pgrep never lists itself.
   */
  pgrep(pattern: string, opts: PgrepOptions = {}): number[] {
    let re: RegExp;
    try {
      re = new RegExp(opts.exact ? `^(?:${pattern})$` : pattern);
    } catch {
      return [];
    }
    return this._processes
      .list()
      .filter((p) => re.test(opts.full ? [p.command, ...p.args].join(' ') : this.comm(p)))
      .map((p) => p.pid)
      .sort((a, b) => a - b);
  }

  /** `pkill [-SIG] [-f] [-x] PATTERN`: signal every match (default SIGTERM). Returns how many matched. */
  pkill(pattern: string, sig: Signal = 'SIGTERM', opts: PgrepOptions = {}): number {
    const pids = this.pgrep(pattern, opts);
    for (const pid of pids) this.signal(pid, sig);
    return pids.length;
  }

  /** `systemctl ...` on this node (see `Systemd.systemctl`). */
  systemctl(argv: readonly string[]): CommandResult {
    if (!this._systemd || !this.running)
      return { stdout: '', stderr: 'System has not been booted with systemd as init system (PID 1). Can\'t operate.\nFailed to connect to bus: Host is down\n', exitCode: 1 };
    return this._systemd.systemctl(argv);
  }

  /** `journalctl ...` on this node. */
  journalctl(argv: readonly string[]): CommandResult {
    return journalctl(this.journal, argv);
  }
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/**
 * `ps aux` inside a node, as procps-ng 4.0 (Debian 12) prints it without a terminal:
 *
 *     USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
 *     root           1  0.0  0.0  19924 11520 ?        Ss   06:00   0:00 /sbin/init
 *
 * Every live process in PID order (pod containers included: the node's PID namespace is their
 * parent), then `ps aux` itself, which takes the next PID as a real one would. %CPU is CPU time
 * over elapsed time, %MEM resident memory over the node's memory; START is `HH:MM` within a day,
 * else `MmmDD`; TIME is `M:SS` of CPU; STAT is `S` plus `s` (session leader) and `l`
 * (multi-threaded). Empty string when the machine is stopped.
 */
export function psAux(machine: Machine): string {
  if (!machine.running) return '';
  const now = machine.clock.now();
  const epoch = machine.clock.epochMs;
  const memKb = machine.memoryBytes / 1024;
  const table = machine.processes;
  const procs = table.list();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  // ps itself: a short-lived process in the exec session.
  let psPid = 0;
  table.spawn({ command: 'ps', args: ['aux'], ppid: 0, program: { start: (ctx) => ((psPid = ctx.pid), ctx.exit(0)) } });
  const startCol = (startedAt: number): string => {
    const c = civilTime(epoch + startedAt);
    if (now - startedAt < 24 * 3600 * 1000) return `${p2(c.hour)}:${p2(c.minute)}`;
    return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][c.month - 1]}${p2(c.day)}`;
  };
  const timeCol = (cpuMs: number): string => {
    const s = Math.floor(cpuMs / 1000);
    return `${Math.floor(s / 60)}:${p2(s % 60)}`;
  };
  const user = (u: string): string => (u.length > 8 ? u.slice(0, 7) + '+' : u);
  const row = (c: string[]): string =>
    `${c[0].padEnd(8)} ${c[1].padStart(7)} ${c[2].padStart(4)} ${c[3].padStart(4)} ${c[4].padStart(6)} ${c[5].padStart(5)} ${c[6].padEnd(8)} ${c[7].padEnd(4)} ${c[8].padStart(5)} ${c[9].padStart(6)} ${c[10]}`;
  const lines = [row(['USER', 'PID', '%CPU', '%MEM', 'VSZ', 'RSS', 'TTY', 'STAT', 'START', 'TIME', 'COMMAND'])];
  for (const p of procs) {
    const prof = processProfile(p);
    const cpuMs = processCpuMs(p, now);
    const elapsed = now - p.startedAt;
    const rssKb = Math.floor(processRssBytes(p) / 1024);
    const parent = byPid.get(p.ppid);
    const leader = p.pid === 1 || (p.ppid === 1 && !/containerd-shim/.test(p.command)) || (p.containerId !== undefined && parent?.containerId === undefined);
    const stat = 'S' + (leader ? 's' : '') + (prof.threads > 1 ? 'l' : '');
    lines.push(
      row([
        user(p.user),
        String(p.pid),
        (elapsed > 0 ? (cpuMs * 100) / elapsed : 0).toFixed(1),
        ((rssKb * 100) / memKb).toFixed(1),
        String(Math.max(prof.vszKb, rssKb)),
        String(rssKb),
        '?',
        stat,
        startCol(p.startedAt),
        timeCol(cpuMs),
        [p.command, ...p.args].join(' '),
      ]),
    );
  }
  lines.push(row(['root', String(psPid), '0.0', '0.0', '8096', '4224', '?', 'Rs', startCol(now), '0:00', 'ps aux']));
  return lines.join('\n') + '\n';
}
