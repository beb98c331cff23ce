/**
 * systemd, PID 1 of a kind node (Debian 12: systemd 252): unit files read from the node's
 * filesystem, services started, supervised and restarted, and `systemctl` as a person sees it.
 *
 * What is modelled (systemd.unit(5), systemd.service(5), systemd.kill(5), systemctl(1)):
 * - Unit files and drop-ins (`<unit>.d/*.conf`) from /etc/systemd/system, /run/systemd/system,
 *   /lib/systemd/system, /usr/lib/systemd/system; `[Unit] Description= Documentation= After=
 *   Wants= ConditionPathExists= StartLimitIntervalSec= StartLimitBurst=`, `[Service] Type=
 *   ExecStartPre= ExecStart= ExecStartPost= Restart= RestartSec= TimeoutStartSec= TimeoutStopSec=
 *   StartLimitInterval= Environment= EnvironmentFile= KillMode= KillSignal= Slice= TasksMax=
 *   RemainAfterExit= SuccessExitStatus=`, `[Install] WantedBy=`; empty assignments reset lists
 *   (`ExecStart=`), line continuations, quoting, `$VAR`/`${VAR}` expansion at exec time.
 * - Definitions are cached: edits on disk take effect at `systemctl daemon-reload` (or a boot),
 *   and until then `status`/`start` warn that the unit file changed on disk.
 * - The service state machine with systemctl's states and sub-states: `inactive (dead)`,
 *   `activating (start-pre)`, `activating (start)`, `active (running)`, `activating (auto-restart)`,
 *   `deactivating (stop-sigterm)`, `failed`, the result (`exit-code`, `signal`, `core-dump`,
 *   `timeout`, `start-limit-hit`, `protocol`), the restart counter, the start rate limit
 *   (ratelimit with a fixed window, `StartLimitIntervalSec=0` disables it), stop with SIGTERM then
 *   SIGKILL after `TimeoutStopSec=`, `KillMode=control-group|process|mixed`.
 * - Journal lines in systemd 252's words: `Started kubelet.service - kubelet: The Kubernetes Node Agent.`,
 *   `kubelet.service: Main process exited, code=killed, status=9/KILL`, `kubelet.service: Failed with result 'signal'.`,
 *   `kubelet.service: Scheduled restart job, restart counter is at 1.`, `Stopped ...`, `kubelet.service: Consumed 1.234s CPU time.`
 *
 * What a unit runs is a `Program` (process.ts) made by a factory registered for the ExecStart
 * binary (`/usr/bin/kubelet` -> the kubelet). An unregistered binary that exists on disk runs a
 * generic daemon (ExecStart) or a helper that exits 0 at once (ExecStartPre/Post); one missing on
 * disk fails with `status=203/EXEC` as systemd reports it.
 *
 * Units: virtual ms for all times. Determinism: no randomness; timers on the clock.
 */
import type { Clock, Timer } from '../clock';
import type { ExitStatus, Process, ProcessTable, Program, Signal } from './process';
import { SIGNAL_NUMBERS, parseSignal } from './process';
import type { FileSystem } from './fs';
import { basename, normalizePath } from './fs';
import type { CommandResult, Journal, JournalEntry } from './journal';
import { formatRelative, formatSystemdTimestamp, normalizeUnitName } from './journal';
import { flattenString } from '../strings';

// =========================================================================================
// Defaults and constants
// =========================================================================================

/**
 * Manager-wide defaults (systemd-system.conf(5) and systemd.service(5), systemd 252):
 * DefaultRestartSec=100ms, DefaultTimeoutStartSec=90s, DefaultTimeoutStopSec=90s,
 * DefaultStartLimitIntervalSec=10s, DefaultStartLimitBurst=5. `tasksMax` is DefaultTasksMax
 * (15% of the kernel's thread limit: 18945 on a 16 GiB host whose threads-max is 126302).
 */
export const SYSTEMD_DEFAULTS = {
  restartSecMs: 100,
  timeoutStartSecMs: 90_000,
  timeoutStopSecMs: 90_000,
  startLimitIntervalMs: 10_000,
  startLimitBurst: 5,
  tasksMax: 18945,
} as const;

/** `systemctl --version` first line on kindest/node (Debian 12 bookworm). */
export const SYSTEMD_VERSION = '252 (252.39-1~deb12u1)';
/** The Debian package version systemd logs in its boot banner. */
export const SYSTEMD_PACKAGE_VERSION = '252.39-1~deb12u1';

/**
 * Boot timeline (virtual ms after power-on) of a kind node container: journald first, then the
 * targets that `After=` lines name. Systemd in a container reaches multi-user.target in well
 * under a second; these offsets keep containerd (After=network.target) ahead of the kubelet
 * (After=network-online.target in the upstream unit).
 */
export const BOOT_TIMELINE_MS: Readonly<Record<string, number>> = {
  'systemd-journald.service': 40,
  'local-fs.target': 70,
  'sysinit.target': 80,
  'basic.target': 100,
  'network.target': 100,
  'network-online.target': 110,
  'multi-user.target': 110,
};

/** How long an ExecStartPre/ExecStartPost helper without a registered program runs (ms). */
export const DEFAULT_HELPER_RUN_MS = 3;

// =========================================================================================
// Formatting helpers (systemd's own formats)
// =========================================================================================

/**
 * `3.456s`, `2min 3.456s`, `95ms`: systemd's `format_timespan` (src/basic/time-util.c) with
 * millisecond accuracy, as `systemctl status` prints `CPU:` and the journal `Consumed ...`.
 */
export function formatTimespan(ms: number, accuracyMs = 1): string {
  const table: Array<[string, number]> = [
    ['y', 31557600000],
    ['month', 2629800000],
    ['w', 604800000],
    ['d', 86400000],
    ['h', 3600000],
    ['min', 60000],
    ['s', 1000],
    ['ms', 1],
  ];
  let t = Math.floor(ms);
  if (t <= 0) return '0';
  const parts: string[] = [];
  for (const [suffix, unit] of table) {
    if (t <= 0) break;
    if (t < accuracyMs && parts.length) break;
    if (t < unit) continue;
    const a = Math.floor(t / unit);
    let b = t % unit;
    if (t < 60000 && b > 0 && unit > 1) {
      // dot notation: as many decimals as the unit has digits above the accuracy
      let j = 0;
      for (let cc = unit; cc > 1; cc = Math.floor(cc / 10)) j++;
      for (let cc = accuracyMs; cc > 1; cc = Math.floor(cc / 10)) {
        b = Math.floor(b / 10);
        j--;
      }
      if (j > 0) {
        parts.push(`${a}.${String(b).padStart(j, '0')}${suffix}`);
        return parts.join(' ');
      }
    }
    parts.push(`${a}${suffix}`);
    t = b;
  }
  return parts.join(' ');
}

/** `37.2M`, `964.0K`, `512B`: systemd's `format_bytes` (IEC factors, one truncated decimal). */
export function formatBytes(bytes: number): string {
  const table: Array<[string, number]> = [
    ['E', 1024 ** 6],
    ['P', 1024 ** 5],
    ['T', 1024 ** 4],
    ['G', 1024 ** 3],
    ['M', 1024 ** 2],
    ['K', 1024],
  ];
  const t = Math.max(0, Math.floor(bytes));
  for (const [s, f] of table) if (t >= f) return `${Math.floor(t / f)}.${Math.floor((t * 10) / f) % 10}${s}`;
  return `${t}B`;
}

/**
 * Names systemd appends to an exit status (`exit_status_to_string` with the libc and systemd
 * classes, src/basic/exit-status.c): `0/SUCCESS`, `1/FAILURE`, `203/EXEC`; LSB codes 2-7 print bare.
 */
export const EXIT_STATUS_NAMES: Readonly<Record<number, string>> = {
  0: 'SUCCESS',
  1: 'FAILURE',
  200: 'CHDIR',
  201: 'NICE',
  202: 'FDS',
  203: 'EXEC',
  204: 'MEMORY',
  205: 'LIMITS',
  206: 'OOM_ADJUST',
  207: 'SIGNAL_MASK',
  208: 'STDIN',
  209: 'STDOUT',
  210: 'CHROOT',
  217: 'USER',
  226: 'NAMESPACE',
  236: 'EXEC_FUNCTION' ,
  255: 'EXCEPTION',
};

/** `KILL` for SIGKILL: a signal's name without the `SIG` prefix (signal_to_string). */
export function signalShortName(sig: Signal): string {
  return sig.slice(3);
}

function signalByNumber(n: number): Signal | undefined {
  return (Object.keys(SIGNAL_NUMBERS) as Signal[]).find((s) => SIGNAL_NUMBERS[s] === n);
}

/** How the kernel reported a process's end (`sigchld_code_to_string`). */
export type ExitCodeKind = 'exited' | 'killed' | 'dumped';

/** A process's end as systemd records it (`code=killed, status=9/KILL`). */
export interface ExecExit {
  code: ExitCodeKind;
  /** Exit status for `exited`, signal number for `killed`/`dumped`. */
  status: number;
}

/** Translate the process table's ExitStatus into systemd's (code, status). SIGQUIT dumps core. */
export function execExitOf(s: ExitStatus): ExecExit {
  if (s.signal) return { code: s.signal === 'SIGQUIT' ? 'dumped' : 'killed', status: SIGNAL_NUMBERS[s.signal] };
  return { code: 'exited', status: s.code };
}

/** `status=9/KILL` / `status=1/FAILURE` / `status=2` (journal form). */
export function formatExitForJournal(e: ExecExit): string {
  if (e.code === 'exited') return `status=${e.status}${EXIT_STATUS_NAMES[e.status] ? '/' + EXIT_STATUS_NAMES[e.status] : ''}`;
  const sig = signalByNumber(e.status);
  return `status=${e.status}/${sig ? signalShortName(sig) : String(e.status)}`;
}

/** `code=killed, signal=KILL` / `code=exited, status=0/SUCCESS` (systemctl status form). */
export function formatExitForStatus(e: ExecExit): string {
  if (e.code === 'exited') return `code=exited, ${formatExitForJournal(e)}`;
  const sig = signalByNumber(e.status);
  return `code=${e.code}, signal=${sig ? signalShortName(sig) : String(e.status)}`;
}

/**
 * `is_clean_exit(..., EXIT_CLEAN_DAEMON)`: exit 0, a death by SIGHUP/SIGINT/SIGTERM/SIGPIPE, or
 * an exit status listed in SuccessExitStatus=.
 */
export function isCleanExit(e: ExecExit, successExitStatus: readonly number[] = []): boolean {
  if (e.code === 'exited') return e.status === 0 || successExitStatus.includes(e.status);
  if (e.code === 'killed') return [1, 2, 13, 15].includes(e.status);
  return false;
}

// =========================================================================================
// Process accounting profiles (for CPU:, Memory:, Tasks:, and ps aux)
// =========================================================================================

/**
 * What `ps`/`systemctl status` report for a process whose program does not say: average CPU
 * use (fraction of one core), CPU burnt while starting, resident memory, virtual size and
 * threads. Values are typical of a kind node (Go daemons have 1-2.5 GB of mostly unused VSZ).
 */
export interface ProcessProfile {
  cpuRate: number;
  startupCpuMs: number;
  rssBytes: number;
  vszKb: number;
  threads: number;
}

const MB = 1024 * 1024;

/** Profiles by process name (argv[0]'s basename). Unknown names use `default`. */
export const PROCESS_PROFILES: Readonly<Record<string, ProcessProfile>> = {
  init: { cpuRate: 0.0004, startupCpuMs: 180, rssBytes: 11.2 * MB, vszKb: 19924, threads: 1 },
  systemd: { cpuRate: 0.0004, startupCpuMs: 180, rssBytes: 11.2 * MB, vszKb: 19924, threads: 1 },
  'systemd-journald': { cpuRate: 0.0002, startupCpuMs: 40, rssBytes: 9.8 * MB, vszKb: 30104, threads: 1 },
  containerd: { cpuRate: 0.006, startupCpuMs: 180, rssBytes: 48.6 * MB, vszKb: 2540064, threads: 14 },
  'containerd-shim-runc-v2': { cpuRate: 0.0005, startupCpuMs: 20, rssBytes: 12.1 * MB, vszKb: 1233424, threads: 12 },
  kubelet: { cpuRate: 0.018, startupCpuMs: 650, rssBytes: 72.4 * MB, vszKb: 2416844, threads: 15 },
  'kube-apiserver': { cpuRate: 0.045, startupCpuMs: 2900, rssBytes: 246 * MB, vszKb: 1624532, threads: 11 },
  etcd: { cpuRate: 0.02, startupCpuMs: 400, rssBytes: 44.8 * MB, vszKb: 11741324, threads: 11 },
  'kube-controller': { cpuRate: 0.012, startupCpuMs: 900, rssBytes: 56 * MB, vszKb: 1337548, threads: 9 },
  'kube-controller-manager': { cpuRate: 0.012, startupCpuMs: 900, rssBytes: 56 * MB, vszKb: 1337548, threads: 9 },
  'kube-scheduler': { cpuRate: 0.004, startupCpuMs: 400, rssBytes: 26 * MB, vszKb: 1290200, threads: 9 },
  'kube-proxy': { cpuRate: 0.002, startupCpuMs: 200, rssBytes: 21 * MB, vszKb: 1291732, threads: 8 },
  coredns: { cpuRate: 0.003, startupCpuMs: 150, rssBytes: 17 * MB, vszKb: 1275088, threads: 10 },
  kindnetd: { cpuRate: 0.001, startupCpuMs: 100, rssBytes: 12 * MB, vszKb: 1278920, threads: 9 },
  pause: { cpuRate: 0, startupCpuMs: 1, rssBytes: 0.5 * MB, vszKb: 1020, threads: 1 },
  sh: { cpuRate: 0, startupCpuMs: 1, rssBytes: 1.6 * MB, vszKb: 2576, threads: 1 },
  dash: { cpuRate: 0, startupCpuMs: 1, rssBytes: 1.6 * MB, vszKb: 2576, threads: 1 },
  modprobe: { cpuRate: 0, startupCpuMs: 2, rssBytes: 2.4 * MB, vszKb: 6404, threads: 1 },
  default: { cpuRate: 0.001, startupCpuMs: 10, rssBytes: 4 * MB, vszKb: 712000, threads: 4 },
};

/** The process name as the kernel's `comm` holds it (argv[0]'s basename, at most 15 bytes). */
export function processComm(p: Pick<Process, 'command'>): string {
  return basename(p.command).slice(0, 15);
}

/** The profile used for a process. */
export function processProfile(p: Pick<Process, 'command'>): ProcessProfile {
  return PROCESS_PROFILES[basename(p.command)] ?? PROCESS_PROFILES[processComm(p)] ?? PROCESS_PROFILES.default;
}

/** CPU time (ms) a process has used by virtual time `now`: a start-up burst, then its average rate. */
export function processCpuMs(p: Pick<Process, 'command' | 'startedAt'>, now: number): number {
  const prof = processProfile(p);
  const elapsed = Math.max(0, now - p.startedAt);
  return Math.floor(prof.startupCpuMs * Math.min(1, elapsed / 2000) + prof.cpuRate * elapsed);
}

/** Resident memory of a process: what its program set, or its profile's. */
export function processRssBytes(p: Pick<Process, 'command' | 'memoryBytes'>): number {
  return p.memoryBytes > 0 ? p.memoryBytes : processProfile(p).rssBytes;
}

// =========================================================================================
// Unit files
// =========================================================================================

/** One `Key=Value` assignment from a unit file, with its section. */
export interface UnitAssignment {
  section: string;
  key: string;
  value: string;
}

/**
 * Parse unit-file syntax (systemd.syntax(7)): `[Section]` headers, `Key=Value` lines, `#`/`;`
 * comments, a trailing backslash joining the next line (comment lines inside a continuation are
 * skipped). Values are trimmed; quoting is left to the consumer.
 */
export function parseUnitFile(text: string): UnitAssignment[] {
  const out: UnitAssignment[] = [];
  let section = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i].replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) {
      line = line.slice(0, -1) + ' ';
      let next = lines[++i].replace(/\r$/, '');
      while ((next.trim().startsWith('#') || next.trim().startsWith(';')) && i + 1 < lines.length) next = lines[++i].replace(/\r$/, '');
      line += next.trim();
    }
    if (line.startsWith('[') && line.endsWith(']')) {
      section = line.slice(1, -1);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    out.push({ section, key: line.slice(0, eq).trim(), value: line.slice(eq + 1).trim() });
  }
  return out;
}

/**
 * Split a command line or assignment list into words the way systemd does
 * (`extract_first_word` with quotes and C escapes): `"a b" c\ d` -> [`a b`, `c d`].
 */
export function splitWords(s: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && i + 1 < s.length) cur += s[++i];
    else cur += c;
  }
  if (inWord) words.push(cur);
  return words;
}

/**
 * Parse a systemd time span (systemd.time(7)): `10` (seconds), `10s`, `1s`, `100ms`, `1min 30s`,
 * `90s`, `2h`, `infinity`. Returns ms (Infinity for `infinity`), or undefined when invalid.
 */
export function parseTimespan(s: string): number | undefined {
  const t = s.trim();
  if (t === 'infinity') return Number.POSITIVE_INFINITY;
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const units: Record<string, number> = {
    us: 0.001, usec: 0.001, ms: 1, msec: 1, s: 1000, sec: 1000, second: 1000, seconds: 1000,
    m: 60000, min: 60000, minute: 60000, minutes: 60000, h: 3600000, hr: 3600000, hour: 3600000, hours: 3600000,
    d: 86400000, day: 86400000, days: 86400000, w: 604800000, week: 604800000, weeks: 604800000,
  };
  let total = 0;
  const re = /(\d+(?:\.\d+)?)\s*([a-z]*)/g;
  let rest = t;
  let m: RegExpExecArray | null;
  while ((m = re.exec(t))) {
    if (m[0] === '') break;
    const unit = m[2] === '' ? 's' : m[2];
    if (!(unit in units)) return undefined;
    total += Number(m[1]) * units[unit];
    rest = rest.replace(m[0], '');
  }
  if (rest.trim() !== '') return undefined;
  return Math.round(total);
}

/** An `Exec*=` command: its argv as written (unexpanded: `$KUBELET_KUBECONFIG_ARGS`) and prefix flags. */
export interface ExecCommand {
  /** argv before variable expansion (what `systemctl status` shows in `Process:` lines). */
  argv: string[];
  /** `-` prefix: a failure is ignored. */
  ignoreFailure: boolean;
}

/** Restart= values (systemd.service(5)). */
export type RestartPolicy = 'no' | 'always' | 'on-success' | 'on-failure' | 'on-abnormal' | 'on-abort' | 'on-watchdog';
/** Type= values handled (dbus/forking behave as simple here). */
export type ServiceType = 'simple' | 'exec' | 'notify' | 'oneshot' | 'forking' | 'idle' | 'dbus';
/** KillMode= values (systemd.kill(5)). */
export type KillMode = 'control-group' | 'process' | 'mixed' | 'none';

/** A `Condition*=` check. Only ConditionPathExists/ConditionPathIsDirectory/ConditionFileNotEmpty are evaluated. */
export interface UnitCondition {
  name: string;
  param: string;
  negate: boolean;
  trigger: boolean;
}

/** The effective settings of a unit after its fragment and drop-ins (systemd's defaults filled in). */
export interface UnitSettings {
  description: string;
  documentation: string[];
  after: string[];
  before: string[];
  wants: string[];
  requires: string[];
  conditions: UnitCondition[];
  wantedBy: string[];
  requiredBy: string[];
  type: ServiceType;
  execStartPre: ExecCommand[];
  execStart: ExecCommand[];
  execStartPost: ExecCommand[];
  restart: RestartPolicy;
  restartSecMs: number;
  timeoutStartSecMs: number;
  timeoutStopSecMs: number;
  /** 0 disables the start rate limit. */
  startLimitIntervalMs: number;
  startLimitBurst: number;
  /** `Environment=` assignments in order. */
  environment: Array<[string, string]>;
  environmentFiles: Array<{ path: string; optional: boolean }>;
  killMode: KillMode;
  killSignal: Signal;
  /** `system.slice` unless Slice= says otherwise. */
  slice: string;
  tasksMax: number;
  remainAfterExit: boolean;
  successExitStatus: number[];
}

/** A loaded unit: its name, where it came from, and its settings. What program factories receive. */
export interface UnitInfo {
  /** `kubelet.service` */
  name: string;
  /** The main unit file (`FragmentPath`). */
  fragmentPath: string;
  /** Drop-in files applied, in order (`DropInPaths`). */
  dropInPaths: string[];
  settings: UnitSettings;
  /** Concatenated sources, to notice edits on disk (NeedDaemonReload). */
  readonly sourceFingerprint: string;
}

/** syslog levels of PID 1's messages (sys/syslog.h): err, warning, notice, info. */
const LOG_ERR = 3;
const LOG_WARNING = 4;
const LOG_NOTICE = 5;
const LOG_INFO = 6;

/** Search path for unit files, highest priority first (Debian 12's systemd 252). */
export const UNIT_SEARCH_PATH = ['/etc/systemd/system', '/run/systemd/system', '/lib/systemd/system', '/usr/lib/systemd/system'] as const;

function defaultSettings(name: string): UnitSettings {
  return {
    description: name,
    documentation: [],
    after: [],
    before: [],
    wants: [],
    requires: [],
    conditions: [],
    wantedBy: [],
    requiredBy: [],
    type: 'simple',
    execStartPre: [],
    execStart: [],
    execStartPost: [],
    restart: 'no',
    restartSecMs: SYSTEMD_DEFAULTS.restartSecMs,
    timeoutStartSecMs: SYSTEMD_DEFAULTS.timeoutStartSecMs,
    timeoutStopSecMs: SYSTEMD_DEFAULTS.timeoutStopSecMs,
    startLimitIntervalMs: SYSTEMD_DEFAULTS.startLimitIntervalMs,
    startLimitBurst: SYSTEMD_DEFAULTS.startLimitBurst,
    environment: [],
    environmentFiles: [],
    killMode: 'control-group',
    killSignal: 'SIGTERM',
    slice: 'system.slice',
    tasksMax: SYSTEMD_DEFAULTS.tasksMax,
    remainAfterExit: false,
    successExitStatus: [],
  };
}

function parseExec(value: string): ExecCommand | undefined {
  let v = value;
  let ignoreFailure = false;
  while (/^[-@:+!]/.test(v)) {
    if (v[0] === '-') ignoreFailure = true;
    v = v.slice(1);
  }
  const argv = splitWords(v);
  return argv.length ? { argv, ignoreFailure } : undefined;
}

function applyAssignment(s: UnitSettings, a: UnitAssignment): void {
  const list = (arr: string[], v: string): void => {
    if (v === '') arr.length = 0;
    else arr.push(...splitWords(v));
  };
  const k = a.key;
  const v = a.value;
  if (a.section === 'Unit') {
    if (k === 'Description') s.description = v;
    else if (k === 'Documentation') list(s.documentation, v);
    else if (k === 'After') list(s.after, v);
    else if (k === 'Before') list(s.before, v);
    else if (k === 'Wants') list(s.wants, v);
    else if (k === 'Requires') list(s.requires, v);
    else if (k === 'StartLimitIntervalSec') s.startLimitIntervalMs = parseTimespan(v) ?? s.startLimitIntervalMs;
    else if (k === 'StartLimitBurst') s.startLimitBurst = Number(v) || 0;
    else if (k.startsWith('Condition')) {
      if (v === '') s.conditions = s.conditions.filter((c) => c.name !== k);
      else {
        let p = v;
        const trigger = p.startsWith('|');
        if (trigger) p = p.slice(1);
        const negate = p.startsWith('!');
        if (negate) p = p.slice(1);
        s.conditions.push({ name: k, param: p, negate, trigger });
      }
    }
  } else if (a.section === 'Service') {
    if (k === 'Type') s.type = (v || 'simple') as ServiceType;
    else if (k === 'ExecStart' || k === 'ExecStartPre' || k === 'ExecStartPost') {
      const arr = k === 'ExecStart' ? s.execStart : k === 'ExecStartPre' ? s.execStartPre : s.execStartPost;
      if (v === '') arr.length = 0;
      else {
        const c = parseExec(v);
        if (c) arr.push(c);
      }
    } else if (k === 'Restart') s.restart = (v || 'no') as RestartPolicy;
    else if (k === 'RestartSec') s.restartSecMs = parseTimespan(v) ?? s.restartSecMs;
    else if (k === 'TimeoutStopSec') s.timeoutStopSecMs = parseTimespan(v) ?? s.timeoutStopSecMs;
    else if (k === 'TimeoutStartSec') s.timeoutStartSecMs = parseTimespan(v) ?? s.timeoutStartSecMs;
    else if (k === 'TimeoutSec') s.timeoutStartSecMs = s.timeoutStopSecMs = parseTimespan(v) ?? s.timeoutStopSecMs;
    else if (k === 'StartLimitInterval' || k === 'StartLimitIntervalSec') s.startLimitIntervalMs = parseTimespan(v) ?? s.startLimitIntervalMs;
    else if (k === 'StartLimitBurst') s.startLimitBurst = Number(v) || 0;
    else if (k === 'Environment') {
      if (v === '') s.environment.length = 0;
      else
        for (const w of splitWords(v)) {
          const eq = w.indexOf('=');
          if (eq > 0) s.environment.push([w.slice(0, eq), w.slice(eq + 1)]);
        }
    } else if (k === 'EnvironmentFile') {
      if (v === '') s.environmentFiles.length = 0;
      else s.environmentFiles.push(v.startsWith('-') ? { path: v.slice(1), optional: true } : { path: v, optional: false });
    } else if (k === 'KillMode') s.killMode = (v || 'control-group') as KillMode;
    else if (k === 'KillSignal') s.killSignal = parseSignal(v) ?? s.killSignal;
    else if (k === 'Slice') s.slice = v || 'system.slice';
    else if (k === 'TasksMax') s.tasksMax = v === 'infinity' ? Number.POSITIVE_INFINITY : Number(v) || s.tasksMax;
    else if (k === 'RemainAfterExit') s.remainAfterExit = /^(1|yes|true|on)$/.test(v);
    else if (k === 'SuccessExitStatus') {
      if (v === '') s.successExitStatus = [];
      else for (const w of splitWords(v)) if (/^\d+$/.test(w)) s.successExitStatus.push(Number(w));
    }
  } else if (a.section === 'Install') {
    if (k === 'WantedBy') list(s.wantedBy, v);
    else if (k === 'RequiredBy') list(s.requiredBy, v);
  }
}

/**
 * Find and load a unit from the filesystem: the first fragment on the search path, then every
 * `<name>.d/*.conf` drop-in (a name in a higher-priority directory masks the same name lower),
 * applied in file-name order. Returns undefined when no fragment exists.
 */
export function loadUnit(fs: FileSystem, name: string): UnitInfo | undefined {
  const unitName = normalizeUnitName(name);
  let fragmentPath: string | undefined;
  for (const dir of UNIT_SEARCH_PATH) {
    const p = `${dir}/${unitName}`;
    if (fs.isFile(p)) {
      fragmentPath = p;
      break;
    }
  }
  if (!fragmentPath) return undefined;
  const dropins = new Map<string, string>();
  for (const dir of UNIT_SEARCH_PATH) {
    const d = `${dir}/${unitName}.d`;
    for (const f of fs.readdir(d)) if (f.endsWith('.conf') && !dropins.has(f) && fs.isFile(`${d}/${f}`)) dropins.set(f, `${d}/${f}`);
  }
  const dropInPaths = [...dropins.keys()].sort().map((k) => dropins.get(k)!);
  const texts: string[] = [];
  let fingerprint = '';
  for (const path of [fragmentPath, ...dropInPaths]) {
    const text = fs.tryReadFile(path) ?? '';
    texts.push(text);
    fingerprint += `\u0000${path}\u0000${text}`;
  }
  const known = loadedUnits.get(fingerprint);
  if (known) return known;
  const settings = defaultSettings(unitName);
  for (const text of texts) for (const a of parseUnitFile(text)) applyAssignment(settings, a);
  const info: UnitInfo = { name: unitName, fragmentPath, dropInPaths, settings, sourceFingerprint: flattenString(fingerprint) };
  if (loadedUnits.size >= LOADED_UNITS_MAX) loadedUnits.clear();
  loadedUnits.set(info.sourceFingerprint, info);
  return info;
}

/**
 * `loadUnit`'s results by source fingerprint. Performance only: the fingerprint holds every
 * source path (the fragment's names the unit) and text in order, everything the result is
 * computed from, so equal fingerprints give equal results; a UnitInfo is never changed after
 * loading, so one object serves every node with the same unit files (500 nodes loaded seven
 * units each, ~6 MB of identical settings). Bounded: cleared when full.
 */
const loadedUnits = new Map<string, UnitInfo>();
const LOADED_UNITS_MAX = 1024;

/** Fingerprint of a unit's sources as they are on disk now (to compare with a loaded UnitInfo). */
function diskFingerprint(fs: FileSystem, name: string): string | undefined {
  return loadUnit(fs, name)?.sourceFingerprint;
}

/** Parse an EnvironmentFile (`KEY=VALUE` lines, `#` comments, optional quotes, `export ` prefix). */
export function parseEnvironmentFile(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/^export\s+/, '');
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    let v = line.slice(eq + 1).trim();
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) v = v.slice(1, -1);
    out.push([line.slice(0, eq).trim(), v]);
  }
  return out;
}

/**
 * Expand `$VAR` and `${VAR}` in an Exec argv (systemd.service(5) "Command lines"): a word that is
 * exactly `$VAR` is split at whitespace into several words (none when empty); `${VAR}` and
 * embedded references are substituted in place.
 */
export function expandArgv(argv: readonly string[], env: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const w of argv) {
    const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)$/.exec(w);
    if (whole) {
      out.push(...(env[whole[1]] ?? '').split(/\s+/).filter((x) => x !== ''));
      continue;
    }
    out.push(w.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a: string | undefined, b: string | undefined) => env[(a ?? b)!] ?? ''));
  }
  return out;
}

// =========================================================================================
// Programs
// =========================================================================================

/** How an Exec command is being run, passed to program factories. */
export interface ExecInvocation {
  /** Expanded argv (argv[0] is the binary). */
  argv: string[];
  /** The environment the unit gives its process. */
  env: Readonly<Record<string, string>>;
  /** Which command this is. */
  kind: 'ExecStartPre' | 'ExecStart' | 'ExecStartPost';
}

/** Makes the Program a unit's command runs (registered per binary path). */
export type UnitProgramFactory = (unit: UnitInfo, exec: ExecInvocation) => Program;

/** Options of `registerExecutable`. */
export interface ExecutableOptions {
  /**
   * The program calls `ctx.notify('READY=1')` when it has started. Only then does a
   * `Type=notify` unit wait for readiness (activating (start) until READY=1, TimeoutStartSec=);
   * without it the unit counts as started as soon as the process runs.
   */
  sdNotify?: boolean;
}

/** Program factories by absolute binary path. Shared by the boots of one machine. */
export class ExecutableRegistry {
  private map = new Map<string, { factory: UnitProgramFactory; opts: ExecutableOptions }>();

  /** Register (or replace) the program a binary runs. */
  register(path: string, factory: UnitProgramFactory, opts: ExecutableOptions = {}): void {
    this.map.set(normalizePath(path), { factory, opts });
  }

  /** The registration for a path (after following no links: register the path units name). */
  get(path: string): { factory: UnitProgramFactory; opts: ExecutableOptions } | undefined {
    return this.map.get(normalizePath(path));
  }
}

/**
 * A long-running daemon that does nothing (the default for unknown ExecStart binaries and a
 * handy test program). SIGTERM's default action ends it (code=killed, signal=TERM), unless
 * `gracefulMs` is given: then it exits 0 that long after SIGTERM.
 */
export function daemonProgram(opts: { gracefulMs?: number; onStart?: (log: (line: string) => void) => void } = {}): Program {
  let timer: Timer | undefined;
  return {
    start(ctx) {
      opts.onStart?.((l) => ctx.log(l));
    },
    onSignal(sig, ctx) {
      if (opts.gracefulMs === undefined || sig !== 'SIGTERM') return false;
      if (!timer) timer = ctx.clock.schedule(opts.gracefulMs, () => ctx.exit(0));
      return true;
    },
    stop() {
      timer?.cancel();
    },
  };
}

/** A process that exits with `code` after `ms` (ExecStartPre helpers, crash-looping test programs). */
export function exitingProgram(code = 0, ms = DEFAULT_HELPER_RUN_MS, lines: string[] = []): Program {
  let timer: Timer | undefined;
  return {
    start(ctx) {
      for (const l of lines) ctx.log(l);
      timer = ctx.clock.schedule(ms, () => ctx.exit(code));
    },
    stop() {
      timer?.cancel();
    },
  };
}

// =========================================================================================
// Service runtime state
// =========================================================================================

/** systemctl's high-level states. */
export type ActiveState = 'active' | 'reloading' | 'inactive' | 'failed' | 'activating' | 'deactivating';
/** Service sub-states (systemd's SERVICE_* states as systemctl prints them). */
export type ServiceSubState =
  | 'dead'
  | 'start-pre'
  | 'start'
  | 'start-post'
  | 'running'
  | 'exited'
  | 'stop-sigterm'
  | 'stop-sigkill'
  | 'failed'
  | 'auto-restart';
/** Result= values. */
export type ServiceResult = 'success' | 'exit-code' | 'signal' | 'core-dump' | 'timeout' | 'start-limit-hit' | 'protocol' | 'resources';

const ACTIVE_OF: Record<ServiceSubState, ActiveState> = {
  dead: 'inactive',
  'start-pre': 'activating',
  start: 'activating',
  'start-post': 'activating',
  running: 'active',
  exited: 'active',
  'stop-sigterm': 'deactivating',
  'stop-sigkill': 'deactivating',
  failed: 'failed',
  'auto-restart': 'activating',
};

/** The status of one run of an Exec command (`Process: 220 ExecStartPre=... (code=exited, status=0/SUCCESS)`). */
export interface ExecRun {
  kind: 'ExecStartPre' | 'ExecStart' | 'ExecStartPost';
  /** Unexpanded argv (as displayed). */
  argv: string[];
  pid: number;
  startedAt: number;
  exitedAt?: number;
  exit?: ExecExit;
}

/** A read-only snapshot of a service for UIs and other components. Times in virtual ms. */
export interface UnitSnapshot {
  name: string;
  description: string;
  loaded: boolean;
  activeState: ActiveState;
  subState: ServiceSubState;
  result: ServiceResult;
  /** Live main PID, 0 when none. */
  mainPid: number;
  /** `NRestarts`: automatic restarts since the last manual start. */
  nRestarts: number;
  /** Virtual ms the state shown after "since" began, if any. */
  since?: number;
  /** While `activating (auto-restart)`: virtual ms the restart is due. */
  restartAt?: number;
  enabled: 'enabled' | 'disabled' | 'static';
}

interface ServiceRuntime {
  info: UnitInfo;
  sub: ServiceSubState;
  result: ServiceResult;
  mainPid: number;
  controlPid: number;
  /** Last main process (ExecMainPID/ExecMainCode/ExecMainStatus). */
  lastMain?: ExecRun;
  /** How the last main process that ended ended (kept across restarts, unlike `lastMain`). */
  previousMain?: { pid: number; exitedAt: number; exit: ExecExit };
  runs: ExecRun[];
  nRestarts: number;
  inactiveExitAt?: number;
  inactiveExitCursor?: number;
  activeEnterAt?: number;
  activeExitAt?: number;
  inactiveEnterAt?: number;
  condition?: { at: number; ok: boolean; failed: UnitCondition[] };
  limit: { begin: number | undefined; num: number };
  timer?: Timer;
  restartAt?: number;
  startAfterStop: boolean;
  forbidRestart: boolean;
  /** CPU (ms) of processes of this invocation that have exited. */
  cpuDoneMs: number;
  invocations: number;
  env: Record<string, string>;
  ready: boolean;
  startLogged: boolean;
}

/** What a start request did (for systemctl's messages and exit codes). */
export type StartOutcome = 'started' | 'noop' | 'queued' | 'skipped' | 'start-limit-hit' | 'not-found';

/** Options of `Systemd`. */
export interface SystemdOptions {
  clock: Clock;
  fs: FileSystem;
  processes: ProcessTable;
  journal: Journal;
  /** Program factories (kept by the machine across boots). */
  executables: ExecutableRegistry;
  /** PIDs used by short-lived early-boot processes (generators, mount helpers) before journald. Default 0. */
  earlyBootPids?: number;
  /** PIDs used between journald and the multi-user units (tmpfiles, oneshots). Default 0. */
  unitBootPids?: number;
}

/** Units started at boot besides the enabled ones (static units pulled in by sysinit.target). */
export const BOOT_STATIC_UNITS = ['systemd-journald.service'] as const;

/**
 * PID 1 of a node. One instance per boot: a reboot creates a new one (systemd's memory of
 * restart counters, rate limits and results is gone; enablement lives on disk).
 */
export class Systemd {
  private units = new Map<string, ServiceRuntime>();
  private listeners = new Set<(name: string, snap: UnitSnapshot) => void>();
  private bootStartedAt = 0;
  private bootPending: string[] = [];
  private bootDone = false;
  private shuttingDown: (() => void) | undefined;
  private pid1: Process | undefined;
  private bootTimers: Timer[] = [];

  constructor(private readonly o: SystemdOptions) {}

  /** The clock this manager runs on. */
  get clock(): Clock {
    return this.o.clock;
  }

  /** Register the program a binary runs (all boots of the machine see it). */
  registerExecutable(path: string, factory: UnitProgramFactory, opts: ExecutableOptions = {}): void {
    this.o.executables.register(path, factory, opts);
  }

  // ---------------------------------------------------------------------------------------
  // Boot and shutdown

  /**
   * Boot: PID 1 (`/sbin/init`) starts, logs systemd's banner, loads unit files, starts
   * systemd-journald, then every unit enabled in `multi-user.target.wants` once the targets
   * and units its After= names are reached (BOOT_TIMELINE_MS), in name order at equal times.
   */
  boot(): void {
    this.bootStartedAt = this.o.clock.now();
    this.pid1 = this.o.processes.spawn({
      command: '/sbin/init',
      ppid: 0,
      program: {
        start() {},
        // PID 1 ignores signals it has no handler for; SIGTERM makes systemd re-execute itself.
        onSignal: () => true,
      },
    });
    const log = (m: string): void => this.logPid1(m);
    log(`systemd ${SYSTEMD_PACKAGE_VERSION} running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY +P11KIT +QRENCODE +TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)`);
    log('Detected virtualization docker.');
    log('Detected architecture x86-64.');
    log('Welcome to Debian GNU/Linux 12 (bookworm)!');
    log(`Set hostname to <${this.o.journal.hostname}>.`);
    this.burnPids(this.o.earlyBootPids ?? 0);
    const enabled = this.enabledUnits();
    this.bootPending = [...BOOT_STATIC_UNITS.filter((u) => loadUnit(this.o.fs, u)), ...enabled.filter((u) => !BOOT_STATIC_UNITS.includes(u as never))];
    for (const name of this.bootPending) this.ensureLoaded(name);
    const times = [...new Set(Object.values(BOOT_TIMELINE_MS))].sort((a, b) => a - b);
    for (const t of times) this.bootTimers.push(this.o.clock.schedule(t, () => this.pumpBoot(), { label: `systemd[${this.o.journal.hostname}]: boot` }));
  }

  /** Units with a `*.wants/<unit>` link in /etc/systemd/system, sorted. */
  private enabledUnits(): string[] {
    const out = new Set<string>();
    for (const d of this.o.fs.readdir('/etc/systemd/system'))
      if (d.endsWith('.wants') && d !== 'sysinit.target.wants') for (const u of this.o.fs.readdir(`/etc/systemd/system/${d}`)) if (u.endsWith('.service')) out.add(u);
    return [...out].sort();
  }

  private burnPids(n: number): void {
    for (let i = 0; i < n; i++)
      this.o.processes.spawn({ command: '(sd-exec)', ppid: 1, program: { start: (ctx) => ctx.exit(0) } });
  }

  private pumpBoot(): void {
    if (this.shuttingDown) return;
    const elapsed = this.o.clock.now() - this.bootStartedAt;
    // An After= dependency is reached when it is a target whose time has come, a unit outside
    // the boot transaction, or a boot unit whose start job has finished.
    const reached = (dep: string): boolean => {
      if (dep in BOOT_TIMELINE_MS) return elapsed >= BOOT_TIMELINE_MS[dep];
      if (!this.bootPending.includes(dep)) return true;
      if (!this.bootStartedUnits.has(dep)) return false;
      const u = this.units.get(dep);
      return !u || ACTIVE_OF[u.sub] !== 'activating' || u.sub === 'auto-restart';
    };
    let progressed = true;
    while (progressed) {
      progressed = false;
      for (const name of this.bootPending) {
        if (this.bootStartedUnits.has(name)) continue;
        const u = this.units.get(name);
        if (!u) continue;
        if (!u.info.settings.after.every(reached)) continue;
        if (name === 'systemd-journald.service' && elapsed < BOOT_TIMELINE_MS['systemd-journald.service']) continue;
        if (name !== 'systemd-journald.service' && elapsed < BOOT_TIMELINE_MS['basic.target']) continue;
        if (name !== 'systemd-journald.service' && !this.unitBootPidsBurnt) {
          this.unitBootPidsBurnt = true;
          this.burnPids(this.o.unitBootPids ?? 0);
        }
        this.bootStartedUnits.add(name);
        this.startUnit(u, true);
        progressed = true;
      }
    }
    if (!this.bootDone && this.bootPending.every((n) => this.bootStartedUnits.has(n))) {
      const busy = this.bootPending.some((n) => {
        const u = this.units.get(n);
        return u && ACTIVE_OF[u.sub] === 'activating' && u.sub !== 'auto-restart';
      });
      if (!busy && elapsed >= BOOT_TIMELINE_MS['multi-user.target']) {
        this.bootDone = true;
        this.logPid1('Reached target multi-user.target - Multi-User System.');
        this.logPid1(`Startup finished in ${formatTimespan(Math.max(1, elapsed))}.`);
      }
    }
  }
  private bootStartedUnits = new Set<string>();
  private halted = false;
  private unitBootPidsBurnt = false;

  /** True once multi-user.target was reached. */
  get booted(): boolean {
    return this.bootDone;
  }

  /**
   * Stop every unit (the halt that `docker stop` triggers; kind's node image sets
   * STOPSIGNAL SIGRTMIN+3). Calls `onDone` once no unit is active any more; processes not in a
   * unit (containers, shims of KillMode=process units) are left for the caller to kill.
   */
  shutdown(onDone: () => void): void {
    for (const t of this.bootTimers) t.cancel();
    this.shuttingDown = onDone;
    for (const u of [...this.units.values()].reverse()) {
      u.startAfterStop = false;
      if (u.sub === 'auto-restart' || ACTIVE_OF[u.sub] === 'active' || ACTIVE_OF[u.sub] === 'activating') this.stopUnit(u);
    }
    this.checkShutdownDone();
  }

  private checkShutdownDone(): void {
    if (!this.shuttingDown || this.halted) return;
    const busy = [...this.units.values()].some((u) => ACTIVE_OF[u.sub] !== 'inactive' && ACTIVE_OF[u.sub] !== 'failed');
    if (busy) return;
    this.halted = true;
    const done = this.shuttingDown;
    this.logPid1('Reached target halt.target - System Halt.');
    this.logPid1('Shutting down.');
    done();
  }

  /** Drop all timers (the machine died under us: `docker kill`). */
  abandon(): void {
    for (const t of this.bootTimers) t.cancel();
    for (const u of this.units.values()) u.timer?.cancel();
    this.shuttingDown = () => {};
  }

  // ---------------------------------------------------------------------------------------
  // Units

  private ensureLoaded(name: string): ServiceRuntime | undefined {
    const unitName = normalizeUnitName(name);
    const existing = this.units.get(unitName);
    if (existing) return existing;
    if (!unitName.endsWith('.service')) return undefined;
    const info = loadUnit(this.o.fs, unitName);
    if (!info) return undefined;
    const u: ServiceRuntime = {
      info,
      sub: 'dead',
      result: 'success',
      mainPid: 0,
      controlPid: 0,
      runs: [],
      nRestarts: 0,
      limit: { begin: undefined, num: 0 },
      startAfterStop: false,
      forbidRestart: false,
      cpuDoneMs: 0,
      invocations: 0,
      env: {},
      ready: false,
      startLogged: false,
    };
    this.units.set(unitName, u);
    return u;
  }

  /** `systemctl daemon-reload`: re-read every loaded unit's files (runtime state is kept). */
  daemonReload(): void {
    this.logPid1('Reloading.');
    for (const [name, u] of this.units) {
      const info = loadUnit(this.o.fs, name);
      if (info) u.info = info;
    }
  }

  /** True when a unit's files on disk differ from the loaded definition (`NeedDaemonReload=yes`). */
  needsDaemonReload(name: string): boolean {
    const u = this.units.get(normalizeUnitName(name));
    if (!u) return false;
    return diskFingerprint(this.o.fs, u.info.name) !== u.info.sourceFingerprint;
  }

  /** The loaded definition of a unit (loading it on demand), or undefined when no unit file exists. */
  unitInfo(name: string): UnitInfo | undefined {
    return this.ensureLoaded(name)?.info;
  }

  /** Snapshot of a unit for UIs (undefined when the unit does not exist). */
  snapshot(name: string): UnitSnapshot | undefined {
    const u = this.ensureLoaded(name);
    if (!u) return undefined;
    const active = ACTIVE_OF[u.sub];
    return {
      name: u.info.name,
      description: u.info.settings.description,
      loaded: true,
      activeState: active,
      subState: u.sub,
      result: u.result,
      mainPid: u.mainPid,
      nRestarts: u.nRestarts,
      since: this.sinceOf(u),
      ...(u.sub === 'auto-restart' && u.restartAt !== undefined ? { restartAt: u.restartAt } : {}),
      enabled: this.enabledState(u.info),
    };
  }

  /**
   * How the unit's last main process to end ended (its PID, virtual ms of the exit, and
   * `ExecMainCode`/`ExecMainStatus` as `code=killed, status=9/KILL`), kept across automatic
   * restarts (unlike `systemctl status`, which forgets it at the next start; the journal keeps
   * the line); undefined when none has ended this boot. A copy, for the UI's supervision tree.
   */
  lastMainExit(name: string): { pid: number; exitedAt: number; exit: ExecExit } | undefined {
    const m = this.ensureLoaded(name)?.previousMain;
    return m ? { pid: m.pid, exitedAt: m.exitedAt, exit: { ...m.exit } } : undefined;
  }

  /** Snapshots of every loaded service, by name. */
  list(): UnitSnapshot[] {
    return [...this.units.keys()].sort().map((n) => this.snapshot(n)!);
  }

  /** Hear every unit state change. Returns the unsubscribe function. */
  onChange(listener: (name: string, snap: UnitSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Live processes in a unit's cgroup (by `Process.unit`), by PID. */
  unitProcesses(name: string): Process[] {
    const n = normalizeUnitName(name);
    return this.o.processes.list().filter((p) => p.unit === n && p.pid !== 1);
  }

  /** `ActiveState` of a unit (`inactive` for unknown units, as `systemctl is-active` prints). */
  isActive(name: string): ActiveState {
    const u = this.ensureLoaded(name);
    return u ? ACTIVE_OF[u.sub] : 'inactive';
  }

  /** `systemctl is-enabled`: `enabled`, `disabled` or `static`; undefined for unknown units. */
  isEnabled(name: string): 'enabled' | 'disabled' | 'static' | undefined {
    const info = loadUnit(this.o.fs, name);
    return info ? this.enabledState(info) : undefined;
  }

  private enabledState(info: UnitInfo): 'enabled' | 'disabled' | 'static' {
    const targets = [...info.settings.wantedBy, ...info.settings.requiredBy];
    if (targets.length === 0) return 'static';
    for (const t of info.settings.wantedBy) if (this.o.fs.readlink(`/etc/systemd/system/${t}.wants/${info.name}`) !== undefined) return 'enabled';
    for (const t of info.settings.requiredBy) if (this.o.fs.readlink(`/etc/systemd/system/${t}.requires/${info.name}`) !== undefined) return 'enabled';
    return 'disabled';
  }

  /**
   * `systemctl enable`: link the unit into each WantedBy= target's `.wants` directory. Returns
   * the lines systemctl prints (`Created symlink A → B.`), or an error message.
   */
  enable(name: string): { lines: string[]; error?: string } {
    const info = loadUnit(this.o.fs, name);
    if (!info) return { lines: [], error: `Failed to enable unit: Unit file ${normalizeUnitName(name)} does not exist.` };
    const lines: string[] = [];
    for (const t of info.settings.wantedBy) {
      const link = `/etc/systemd/system/${t}.wants/${info.name}`;
      if (this.o.fs.readlink(link) !== undefined) continue;
      this.o.fs.mkdir(`/etc/systemd/system/${t}.wants`, { parents: true });
      this.o.fs.symlink(info.fragmentPath, link);
      lines.push(`Created symlink ${link} \u2192 ${info.fragmentPath}.`);
    }
    return { lines };
  }

  /** `systemctl disable`: remove the `.wants` links. Returns `Removed "A".` lines or an error. */
  disable(name: string): { lines: string[]; error?: string } {
    const info = loadUnit(this.o.fs, name);
    if (!info) return { lines: [], error: `Failed to disable unit: Unit file ${normalizeUnitName(name)} does not exist.` };
    const lines: string[] = [];
    for (const t of info.settings.wantedBy) {
      const link = `/etc/systemd/system/${t}.wants/${info.name}`;
      if (this.o.fs.readlink(link) === undefined) continue;
      this.o.fs.rm(link);
      lines.push(`Removed "${link}".`);
    }
    return { lines };
  }

  // ---------------------------------------------------------------------------------------
  // Jobs

  /** `systemctl start` (a manual start: the restart counter is flushed). */
  start(name: string): StartOutcome {
    const u = this.ensureLoaded(name);
    if (!u) return 'not-found';
    return this.startUnit(u, true);
  }

  /** `systemctl stop`. Returns false for unknown units. A stopped unit is not restarted. */
  stop(name: string): boolean {
    const u = this.ensureLoaded(name);
    if (!u) return false;
    u.startAfterStop = false;
    this.stopUnit(u);
    return true;
  }

  /** `systemctl restart`: stop (if running) then start; the restart counter is flushed. */
  restart(name: string): StartOutcome {
    const u = this.ensureLoaded(name);
    if (!u) return 'not-found';
    if (u.sub === 'auto-restart') {
      u.timer?.cancel();
      u.timer = undefined;
      this.setState(u, 'dead');
      this.logUnitObject(u, `Stopped ${this.label(u)}.`);
      return this.startUnit(u, true);
    }
    if (u.sub === 'dead' || u.sub === 'failed') return this.startUnit(u, true);
    this.stopUnit(u);
    if (isDown(u)) return this.startUnit(u, true);
    u.startAfterStop = true;
    return 'queued';
  }

  /**
   * `systemctl kill [--kill-whom=all|main] [-s SIGNAL] UNIT`: signal the unit's processes
   * (default SIGTERM to all of them). The service reacts as to any death: Restart= applies.
   * Returns the number of processes signalled, or an error message.
   */
  kill(name: string, signal: Signal = 'SIGTERM', whom: 'all' | 'main' = 'all'): { count: number; error?: string } {
    const unitName = normalizeUnitName(name);
    const u = this.ensureLoaded(unitName);
    if (!u) return { count: 0, error: `Failed to kill unit ${unitName}: Unit ${unitName} not loaded.` };
    const targets = whom === 'main' ? (u.mainPid ? [u.mainPid] : []) : this.unitProcesses(unitName).map((p) => p.pid);
    if (targets.length === 0)
      return { count: 0, error: whom === 'main' ? `Failed to kill unit ${unitName}: No main process to kill` : `Failed to kill unit ${unitName}: No such process` };
    for (const pid of targets) this.o.processes.kill(pid, signal);
    return { count: targets.length };
  }

  /** `systemctl reset-failed [UNIT]`: failed -> inactive, rate limit and restart counter cleared. */
  resetFailed(name?: string): void {
    const list = name ? [this.ensureLoaded(name)].filter((x): x is ServiceRuntime => !!x) : [...this.units.values()];
    for (const u of list) {
      u.limit = { begin: undefined, num: 0 };
      u.nRestarts = 0;
      if (u.sub === 'failed') {
        u.result = 'success';
        this.setState(u, 'dead');
      } else u.result = 'success';
    }
  }

  // ---------------------------------------------------------------------------------------
  // The state machine

  private label(u: ServiceRuntime): string {
    const d = u.info.settings.description;
    return d && d !== u.info.name ? `${u.info.name} - ${d}` : u.info.name;
  }

  /** PID 1's line (`priority`: syslog level, info unless systemd logs it higher). */
  private logPid1(message: string, objectUnit?: string, priority?: number): void {
    this.o.journal.append({ identifier: 'systemd', pid: 1, message, ...(objectUnit ? { objectUnit } : {}), ...(priority !== undefined && priority !== LOG_INFO ? { priority } : {}) });
  }

  /**
   * A systemd line about a unit (`UNIT=` set, so `journalctl -u` finds it). A job's `Failed to
   * start ...` is LOG_ERR (src/core/job.c `job_done_messages[JOB_FAILED]`), the others info.
   */
  private logUnitObject(u: ServiceRuntime, message: string, priority = message.startsWith('Failed to start ') ? LOG_ERR : LOG_INFO): void {
    this.logPid1(message, u.info.name, priority);
  }

  /** `kubelet.service: <message>` */
  private logUnit(u: ServiceRuntime, message: string, priority = LOG_INFO): void {
    this.logUnitObject(u, `${u.info.name}: ${message}`, priority);
  }

  private setState(u: ServiceRuntime, sub: ServiceSubState): void {
    const os = ACTIVE_OF[u.sub];
    const ns = ACTIVE_OF[sub];
    const now = this.o.clock.now();
    const inactive = (s: ActiveState): boolean => s === 'inactive' || s === 'failed';
    const active = (s: ActiveState): boolean => s === 'active' || s === 'reloading';
    // unit_notify(): timestamps of state transitions.
    if (inactive(os) && !inactive(ns)) {
      u.inactiveExitAt = now;
      u.inactiveExitCursor = this.o.journal.cursor();
    } else if (!inactive(os) && inactive(ns)) u.inactiveEnterAt = now;
    if (!active(os) && active(ns)) u.activeEnterAt = now;
    else if (active(os) && !active(ns)) u.activeExitAt = now;
    u.sub = sub;
    if (sub !== 'auto-restart') u.restartAt = undefined;
    const snap = this.snapshot(u.info.name);
    if (snap) for (const l of this.listeners) l(u.info.name, snap);
    // Heard once the current transition (and its journal lines) is complete.
    if (inactive(ns) && this.shuttingDown) this.o.clock.schedule(0, () => this.checkShutdownDone());
    if (!this.bootDone && ns !== 'activating') {
      // a boot unit finished starting: others may be ordered after it
      if (this.bootPending.includes(u.info.name)) this.o.clock.schedule(0, () => this.pumpBoot());
    }
  }

  private sinceOf(u: ServiceRuntime): number | undefined {
    const s = ACTIVE_OF[u.sub];
    if (s === 'active' || s === 'reloading') return u.activeEnterAt;
    if (s === 'inactive' || s === 'failed') return u.inactiveEnterAt;
    if (s === 'activating') return u.inactiveExitAt;
    return u.activeExitAt;
  }

  /** ratelimit_below(): a fixed window from the first start; disabled when interval or burst is 0. */
  private startAllowed(u: ServiceRuntime): boolean {
    const { startLimitIntervalMs: interval, startLimitBurst: burst } = u.info.settings;
    if (interval <= 0 || burst <= 0) return true;
    const now = this.o.clock.now();
    if (u.limit.begin === undefined || now > u.limit.begin + interval) {
      u.limit.begin = now;
      u.limit.num = 0;
    }
    if (u.limit.num < burst) {
      u.limit.num++;
      return true;
    }
    u.limit.num++;
    return false;
  }

  private checkConditions(u: ServiceRuntime): { ok: boolean; failed: UnitCondition[] } {
    const failed: UnitCondition[] = [];
    const triggers: Array<{ c: UnitCondition; ok: boolean }> = [];
    for (const c of u.info.settings.conditions) {
      let ok: boolean;
      if (c.name === 'ConditionPathExists') ok = this.o.fs.exists(c.param);
      else if (c.name === 'ConditionPathIsDirectory') ok = this.o.fs.isDirectory(c.param);
      else if (c.name === 'ConditionFileNotEmpty') ok = this.o.fs.isFile(c.param) && (this.o.fs.tryReadFile(c.param) ?? '') !== '';
      else if (c.name === 'ConditionPathExistsGlob' || c.name === 'ConditionVirtualization') ok = true;
      else ok = true;
      if (c.negate) ok = !ok;
      if (c.trigger) triggers.push({ c, ok });
      else if (!ok) failed.push(c);
    }
    if (triggers.length && !triggers.some((t) => t.ok)) failed.push(...triggers.map((t) => t.c));
    return { ok: failed.length === 0, failed };
  }

  private startUnit(u: ServiceRuntime, manual: boolean): StartOutcome {
    if (['start-pre', 'start', 'start-post', 'running', 'exited'].includes(u.sub)) return 'noop';
    if (u.sub === 'stop-sigterm' || u.sub === 'stop-sigkill') {
      u.startAfterStop = true;
      return 'queued';
    }
    if (u.sub === 'auto-restart') return 'queued';
    const now = this.o.clock.now();
    const cond = this.checkConditions(u);
    u.condition = { at: now, ...cond };
    if (!cond.ok) {
      const c = cond.failed[0];
      this.logUnitObject(u, `${this.label(u)} was skipped because of an unmet condition check (${c.name}=${c.trigger ? '|' : ''}${c.negate ? '!' : ''}${c.param}).`);
      return 'skipped';
    }
    if (!this.startAllowed(u)) {
      this.logUnit(u, 'Start request repeated too quickly.');
      this.enterDead(u, 'start-limit-hit', false, `Failed to start ${this.label(u)}.`);
      return 'start-limit-hit';
    }
    for (const p of this.unitProcesses(u.info.name)) {
      this.logUnit(u, `Found left-over process ${p.pid} (${processComm(p)}) in control group while starting unit. Ignoring.`);
      this.logUnit(u, 'This usually indicates unclean termination of a previous run, or service implementation deficiencies.');
    }
    // service_start(): a fresh invocation.
    u.result = 'success';
    u.runs = [];
    u.lastMain = undefined;
    u.cpuDoneMs = 0;
    u.forbidRestart = false;
    u.ready = false;
    u.startLogged = false;
    u.invocations++;
    if (manual) u.nRestarts = 0;
    // Environment: Environment= then EnvironmentFile= (later assignments win).
    const env: Record<string, string> = {};
    for (const [k, v] of u.info.settings.environment) env[k] = v;
    for (const ef of u.info.settings.environmentFiles) {
      const text = this.o.fs.tryReadFile(ef.path);
      if (text === undefined) {
        if (ef.optional) continue;
        this.logUnit(u, `Failed to load environment files: No such file or directory`);
        this.logUnit(u, `Failed to run 'start' task: No such file or directory`);
        this.enterDead(u, 'resources', true, `Failed to start ${this.label(u)}.`);
        return 'started';
      }
      for (const [k, v] of parseEnvironmentFile(text)) env[k] = v;
    }
    u.env = env;
    if (u.info.settings.execStartPre.length) {
      this.setState(u, 'start-pre');
      this.logStarting(u);
      this.runControl(u, 'ExecStartPre', 0);
    } else this.spawnMain(u);
    return 'started';
  }

  private logStarting(u: ServiceRuntime): void {
    if (u.startLogged) return;
    u.startLogged = true;
    this.logUnitObject(u, `Starting ${this.label(u)}...`);
  }

  /** Run control command `i` of a list (ExecStartPre/ExecStartPost) and continue when it exits. */
  private runControl(u: ServiceRuntime, kind: 'ExecStartPre' | 'ExecStartPost', i: number): void {
    const list = kind === 'ExecStartPre' ? u.info.settings.execStartPre : u.info.settings.execStartPost;
    if (i >= list.length) {
      if (kind === 'ExecStartPre') this.spawnMain(u);
      else this.enterRunning(u);
      return;
    }
    const cmd = list[i];
    const invocation = u.invocations;
    const run: ExecRun = { kind, argv: cmd.argv, pid: 0, startedAt: this.o.clock.now() };
    u.runs.push(run);
    this.spawnExec(u, cmd, kind, run, (exit) => {
      if (u.invocations !== invocation || u.controlPid !== run.pid) return;
      u.controlPid = 0;
      if (isCleanExit(exit) || cmd.ignoreFailure) {
        this.runControl(u, kind, i + 1);
        return;
      }
      this.logUnit(u, `Control process exited, code=${exit.code}, ${formatExitForJournal(exit)}`);
      const f: ServiceResult = exit.code === 'exited' ? 'exit-code' : exit.code === 'dumped' ? 'core-dump' : 'signal';
      this.killUnitProcesses(u, 'SIGKILL');
      this.enterDead(u, f, true, `Failed to start ${this.label(u)}.`);
    });
    u.controlPid = run.pid;
  }

  /** Spawn an Exec command (or the 203/EXEC failure when its binary is missing); `onExit` gets its end. */
  private spawnExec(u: ServiceRuntime, cmd: ExecCommand, kind: ExecRun['kind'], run: ExecRun, onExit: (e: ExecExit) => void): void {
    const argv = expandArgv(cmd.argv, u.env);
    const bin = argv[0] ?? '';
    const exists = this.o.fs.isFile(bin);
    const reg = this.o.executables.get(bin);
    let program: Program;
    if (!exists) {
      const journal = this.o.journal;
      const name = u.info.name;
      program = {
        start(ctx) {
          ctx.clock.schedule(1, () => {
            journal.append({ identifier: 'systemd', pid: ctx.pid, unit: name, message: `${name}: Failed to locate executable ${bin}: No such file or directory` });
            journal.append({ identifier: 'systemd', pid: ctx.pid, unit: name, message: `${name}: Failed at step EXEC spawning ${bin}: No such file or directory` });
            ctx.exit(203);
          });
        },
      };
    } else if (reg) program = reg.factory(u.info, { argv, env: u.env, kind });
    else program = kind === 'ExecStart' ? daemonProgram() : exitingProgram(0, DEFAULT_HELPER_RUN_MS);
    let spawning = true;
    let early: ExitStatus | undefined;
    const ident = basename(bin);
    // What the process writes while it is being spawned reaches journald after PID 1's own
    // lines about the spawn (`Started ...` of a Type=simple unit is logged right after fork(),
    // src/core/service.c service_enter_start; the child's first output comes after its exec()):
    // held, then written in a 0-ms event, after the spawn's bookkeeping and messages.
    let held: string[] | undefined;
    const p = this.o.processes.spawn({
      command: bin,
      args: argv.slice(1),
      ppid: 1,
      unit: u.info.name,
      program,
      onLog: (line, proc) => {
        if (held) held.push(line);
        else if (spawning) {
          held = [line];
          const pid = proc.pid;
          this.o.clock.schedule(0, () => {
            const lines = held ?? [];
            held = undefined;
            for (const l of lines) this.o.journal.appendLine(ident, pid, u.info.name, l);
          }, { label: `systemd[${this.o.journal.hostname}]: ${u.info.name} output` });
        } else this.o.journal.appendLine(ident, proc.pid, u.info.name, line);
      },
      onExit: (status, proc) => {
        const exit = execExitOf(status);
        run.exit = exit;
        run.exitedAt = this.o.clock.now();
        u.cpuDoneMs += processCpuMs(proc, this.o.clock.now());
        if (spawning) early = status;
        else onExit(exit);
      },
      onNotify: (state) => {
        if (kind === 'ExecStart' && /(^|\n)READY=1(\n|$)/.test(state) && reg?.opts.sdNotify) this.onReady(u, run.pid);
      },
    });
    run.pid = p.pid;
    spawning = false;
    if (early) {
      // The program ended inside its start(): hear it once the spawn bookkeeping is done.
      const exit = execExitOf(early);
      this.o.clock.schedule(0, () => onExit(exit));
    }
  }

  private spawnMain(u: ServiceRuntime): void {
    const cmd = u.info.settings.execStart[0];
    if (!cmd) {
      this.logUnit(u, 'Service has no ExecStart=, ExecStop=, or SuccessAction=. Refusing.');
      this.enterDead(u, 'resources', false, `Failed to start ${this.label(u)}.`);
      return;
    }
    const invocation = u.invocations;
    const run: ExecRun = { kind: 'ExecStart', argv: cmd.argv, pid: 0, startedAt: this.o.clock.now() };
    u.runs.push(run);
    const bin = expandArgv(cmd.argv, u.env)[0] ?? '';
    const reg = this.o.executables.get(bin);
    const waitsForReady = u.info.settings.type === 'notify' && !!reg?.opts.sdNotify && this.o.fs.isFile(bin);
    this.spawnExec(u, cmd, 'ExecStart', run, (exit) => {
      if (u.invocations !== invocation || u.mainPid !== run.pid) return;
      this.onMainExit(u, exit);
    });
    u.mainPid = run.pid;
    u.lastMain = run;
    if (u.info.settings.type === 'oneshot') {
      this.setState(u, 'start');
      this.logStarting(u);
      return;
    }
    if (waitsForReady && !u.ready) {
      this.setState(u, 'start');
      this.logStarting(u);
      u.timer?.cancel();
      const t = u.info.settings.timeoutStartSecMs;
      if (Number.isFinite(t))
        u.timer = this.o.clock.schedule(t, () => {
          u.timer = undefined;
          if (u.sub !== 'start') return;
          this.logUnit(u, 'start operation timed out. Terminating.');
          if (u.result === 'success') u.result = 'timeout';
          this.enterStop(u, 'stop-sigterm');
        });
      return;
    }
    this.setState(u, 'start');
    this.afterMainStarted(u);
  }

  private onReady(u: ServiceRuntime, pid: number): void {
    if (u.mainPid !== pid || u.ready) return;
    u.ready = true;
    if (u.sub === 'start') {
      u.timer?.cancel();
      u.timer = undefined;
      this.afterMainStarted(u);
    }
  }

  private afterMainStarted(u: ServiceRuntime): void {
    if (u.info.settings.execStartPost.length) {
      this.setState(u, 'start-post');
      this.logStarting(u);
      this.runControl(u, 'ExecStartPost', 0);
    } else this.enterRunning(u);
  }

  private enterRunning(u: ServiceRuntime): void {
    this.setState(u, 'running');
    this.logUnitObject(u, `Started ${this.label(u)}.`);
  }

  private onMainExit(u: ServiceRuntime, exit: ExecExit): void {
    u.previousMain = { pid: u.mainPid, exitedAt: this.o.clock.now(), exit };
    u.mainPid = 0;
    const clean = isCleanExit(exit, u.info.settings.successExitStatus);
    const f: ServiceResult = clean ? 'success' : exit.code === 'exited' ? 'exit-code' : exit.code === 'dumped' ? 'core-dump' : 'signal';
    // LOG_NOTICE for a failure (src/core/service.c service_sigchld_event: `f == SERVICE_SUCCESS ? LOG_DEBUG : LOG_NOTICE`).
    if (!clean) this.logUnit(u, `Main process exited, code=${exit.code}, ${formatExitForJournal(exit)}`, LOG_NOTICE);
    switch (u.sub) {
      case 'start':
        if (u.info.settings.type === 'oneshot') {
          if (clean) {
            if (u.info.settings.remainAfterExit) {
              this.setState(u, 'exited');
              this.logUnitObject(u, `Finished ${this.label(u)}.`);
            } else {
              this.logUnit(u, 'Deactivated successfully.');
              this.setState(u, 'dead');
              this.logUnitObject(u, `Finished ${this.label(u)}.`);
              this.logConsumed(u);
            }
            return;
          }
          this.enterDead(u, f, true, `Failed to start ${this.label(u)}.`);
          return;
        }
        // Type=notify died before READY=1.
        u.timer?.cancel();
        u.timer = undefined;
        this.killRest(u);
        this.enterDead(u, clean ? 'protocol' : f, true, `Failed to start ${this.label(u)}.`);
        return;
      case 'start-post':
      case 'running':
        this.killRest(u);
        this.enterDead(u, f, true);
        return;
      case 'stop-sigterm':
      case 'stop-sigkill':
        u.timer?.cancel();
        u.timer = undefined;
        this.killRest(u);
        this.enterDead(u, f, false, `Stopped ${this.label(u)}.`);
        return;
      default:
        return;
    }
  }

  /** After the main process is gone: the rest of the cgroup gets SIGKILL unless KillMode=process/none. */
  private killRest(u: ServiceRuntime): void {
    const mode = u.info.settings.killMode;
    if (mode === 'process' || mode === 'none') return;
    for (const p of this.unitProcesses(u.info.name)) this.o.processes.kill(p.pid, 'SIGKILL');
  }

  private killUnitProcesses(u: ServiceRuntime, sig: Signal): void {
    for (const p of this.unitProcesses(u.info.name)) this.o.processes.kill(p.pid, sig);
  }

  /**
   * service_enter_dead(): record the result (the first failure sticks), log it, then either
   * schedule an automatic restart (`activating (auto-restart)`) or settle in dead/failed.
   * `jobMessage` (`Stopped ...`, `Failed to start ...`) goes between the result and the
   * `Consumed` line, as the job completes there.
   */
  private enterDead(u: ServiceRuntime, f: ServiceResult, allowRestart: boolean, jobMessage?: string): void {
    if (u.forbidRestart) allowRestart = false;
    if (u.result === 'success') u.result = f;
    const end: ServiceSubState = u.result === 'success' ? 'dead' : 'failed';
    if (u.result === 'success') this.logUnit(u, 'Deactivated successfully.');
    else this.logUnit(u, `Failed with result '${u.result}'.`, LOG_WARNING); // service_enter_dead: log_unit_warning
    u.controlPid = 0;
    u.mainPid = 0;
    if (allowRestart && this.shallRestart(u) && !this.shuttingDown) {
      if (jobMessage) this.logUnitObject(u, jobMessage);
      const delay = u.info.settings.restartSecMs;
      u.timer?.cancel();
      u.timer = this.o.clock.schedule(delay, () => this.autoRestart(u), { label: `systemd[${this.o.journal.hostname}]: ${u.info.name} auto-restart` });
      u.restartAt = this.o.clock.now() + delay;
      // service_enter_dead() passes through dead/failed before auto-restart, so the unit's
      // inactive enter/exit timestamps (status' "since") are the time of death.
      u.inactiveEnterAt = u.inactiveExitAt = this.o.clock.now();
      this.setState(u, 'auto-restart');
      return;
    }
    u.forbidRestart = false;
    const startAfter = u.startAfterStop;
    u.startAfterStop = false;
    this.setState(u, end);
    for (const p of this.unitProcesses(u.info.name)) this.logUnit(u, `Unit process ${p.pid} (${processComm(p)}) remains running after unit stopped.`);
    if (jobMessage) this.logUnitObject(u, jobMessage);
    this.logConsumed(u);
    if (startAfter && !this.shuttingDown) this.startUnit(u, true);
  }

  private shallRestart(u: ServiceRuntime): boolean {
    if (u.forbidRestart) return false;
    const r = u.result;
    switch (u.info.settings.restart) {
      case 'always':
        return true;
      case 'on-success':
        return r === 'success';
      case 'on-failure':
        return r !== 'success';
      case 'on-abnormal':
        return r !== 'success' && r !== 'exit-code';
      case 'on-abort':
        return r === 'signal' || r === 'core-dump';
      default:
        return false;
    }
  }

  private logConsumed(u: ServiceRuntime): void {
    if (u.cpuDoneMs > 0) this.logUnit(u, `Consumed ${formatTimespan(u.cpuDoneMs)} CPU time.`);
  }

  /** The RestartSec= timer fired: service_enter_restart() then the restart job (stop, start). */
  private autoRestart(u: ServiceRuntime): void {
    u.timer = undefined;
    if (u.sub !== 'auto-restart') return;
    u.nRestarts++;
    this.logUnit(u, `Scheduled restart job, restart counter is at ${u.nRestarts}.`);
    this.setState(u, 'dead');
    this.logUnitObject(u, `Stopped ${this.label(u)}.`);
    this.logConsumed(u);
    this.startUnit(u, false);
  }

  private stopUnit(u: ServiceRuntime): void {
    u.forbidRestart = true;
    switch (u.sub) {
      case 'dead':
      case 'failed':
      case 'stop-sigterm':
      case 'stop-sigkill':
        return;
      case 'auto-restart':
        u.timer?.cancel();
        u.timer = undefined;
        u.forbidRestart = false;
        this.setState(u, 'dead');
        this.logUnitObject(u, `Stopped ${this.label(u)}.`);
        return;
      case 'exited':
        this.setState(u, 'dead');
        this.logUnitObject(u, `Stopped ${this.label(u)}.`);
        return;
      case 'start-pre':
      case 'start-post':
        this.logUnitObject(u, `Stopping ${this.label(u)}...`);
        if (u.controlPid) {
          const pid = u.controlPid;
          u.controlPid = 0;
          this.o.processes.kill(pid, 'SIGKILL');
        }
        if (u.mainPid) {
          this.enterStop(u, 'stop-sigterm');
          return;
        }
        this.enterDead(u, 'success', false, `Stopped ${this.label(u)}.`);
        return;
      default:
        this.logUnitObject(u, `Stopping ${this.label(u)}...`);
        this.enterStop(u, 'stop-sigterm');
    }
  }

  /** service_enter_signal(): signal the unit's processes and arm TimeoutStopSec=. */
  private enterStop(u: ServiceRuntime, state: 'stop-sigterm' | 'stop-sigkill'): void {
    this.setState(u, state);
    u.timer?.cancel();
    const mode = u.info.settings.killMode;
    const sig: Signal = state === 'stop-sigterm' ? u.info.settings.killSignal : 'SIGKILL';
    const main = u.mainPid;
    const others = this.unitProcesses(u.info.name)
      .map((p) => p.pid)
      .filter((p) => p !== main);
    const t = u.info.settings.timeoutStopSecMs;
    if (Number.isFinite(t))
      u.timer = this.o.clock.schedule(t, () => this.stopTimedOut(u), { label: `systemd[${this.o.journal.hostname}]: ${u.info.name} stop timeout` });
    if (mode !== 'none') {
      if (mode === 'control-group') for (const pid of others) this.o.processes.kill(pid, sig);
      if (main) this.o.processes.kill(main, sig);
    }
    // A unit with nothing left to signal is down at once.
    if (!u.mainPid && (u.sub === 'stop-sigterm' || u.sub === 'stop-sigkill')) {
      u.timer?.cancel();
      u.timer = undefined;
      this.enterDead(u, 'success', false, `Stopped ${this.label(u)}.`);
    }
  }

  private stopTimedOut(u: ServiceRuntime): void {
    u.timer = undefined;
    if (u.sub === 'stop-sigterm') {
      this.logUnit(u, `State 'stop-sigterm' timed out. Killing.`);
      const main = u.mainPid ? this.o.processes.get(u.mainPid) : undefined;
      if (main) this.logUnit(u, `Killing process ${main.pid} (${processComm(main)}) with signal SIGKILL.`);
      if (u.result === 'success') u.result = 'timeout';
      this.enterStop(u, 'stop-sigkill');
    } else if (u.sub === 'stop-sigkill') {
      this.logUnit(u, 'Processes still around after SIGKILL. Ignoring.');
      this.enterDead(u, 'timeout', false, `Stopped ${this.label(u)}.`);
    }
  }

  // ---------------------------------------------------------------------------------------
  // systemctl status

  /** CPU (ms) of a unit's current (or last) invocation. */
  private unitCpuMs(u: ServiceRuntime): number {
    const now = this.o.clock.now();
    return u.cpuDoneMs + this.unitProcesses(u.info.name).reduce((n, p) => n + processCpuMs(p, now), 0);
  }

  /**
   * `systemctl status UNIT` as systemd 252 prints it without a terminal (no colour, full
   * lines, the last `lines` journal entries of the current invocation). Exit code 0 when
   * active, 3 when not, 4 when the unit does not exist (`Unit foo.service could not be found.`).
   */
  status(name: string, opts: { lines?: number } = {}): CommandResult {
    const unitName = normalizeUnitName(name);
    const u = this.ensureLoaded(unitName);
    if (!u) return { stdout: '', stderr: `Unit ${unitName} could not be found.\n`, exitCode: 4 };
    const s = u.info.settings;
    const now = this.o.clock.now();
    const epoch = this.o.journal.epochMs;
    const active = ACTIVE_OF[u.sub];
    const out: string[] = [];
    const glyph = active === 'failed' ? '\u00d7' : active === 'inactive' ? '\u25cb' : '\u25cf';
    out.push(`${glyph} ${this.label(u)}`);
    const state = this.enabledState(u.info);
    out.push(`     Loaded: loaded (${u.info.fragmentPath}; ${state}${state === 'static' ? '' : '; preset: enabled'})`);
    if (u.info.dropInPaths.length) {
      let dir: string | undefined;
      let line = '';
      const dirOf = (p: string): string => p.slice(0, p.lastIndexOf('/'));
      u.info.dropInPaths.forEach((p, i) => {
        if (dirOf(p) !== dir) {
          if (line) out.push(line);
          out.push(`${dir === undefined ? '    Drop-In: ' : '             '}${dirOf(p)}`);
          dir = dirOf(p);
          line = `             \u2514\u2500${basename(p)}`;
        } else line += `, ${basename(p)}`;
        if (i === u.info.dropInPaths.length - 1) out.push(line);
      });
    }
    let activeLine = `     Active: ${active}${u.sub !== active ? ` (${u.sub})` : ''}${u.result !== 'success' ? ` (Result: ${u.result})` : ''}`;
    const since = this.sinceOf(u);
    if (since !== undefined) activeLine += ` since ${formatSystemdTimestamp(epoch + since)}; ${formatRelative(now - since)}`;
    out.push(activeLine);
    if (u.condition && !u.condition.ok) {
      out.push(`  Condition: start condition failed at ${formatSystemdTimestamp(epoch + u.condition.at)}; ${formatRelative(now - u.condition.at)}`);
      u.condition.failed.forEach((c, i) => {
        const g = i === u.condition!.failed.length - 1 ? '\u2514\u2500' : '\u251c\u2500';
        out.push(`             ${g} ${c.name}=${c.trigger ? '|' : ''}${c.negate ? '!' : ''}${c.param} was not met`);
      });
    }
    s.documentation.forEach((d, i) => out.push(`${i === 0 ? '       Docs:' : '            '} ${d}`));
    for (const r of u.runs) {
      if (!r.exit) continue;
      out.push(`    Process: ${r.pid} ${r.kind}=${r.argv.join(' ')} (${formatExitForStatus(r.exit)})`);
    }
    const main = u.mainPid ? this.o.processes.get(u.mainPid) : undefined;
    if (main) {
      const ctl = u.controlPid ? this.o.processes.get(u.controlPid) : undefined;
      out.push(`   Main PID: ${main.pid} (${processComm(main)})${ctl ? `; Control PID: ${ctl.pid} (${processComm(ctl)})` : ''}`);
    } else if (u.lastMain?.exit) out.push(`   Main PID: ${u.lastMain.pid} (${formatExitForStatus(u.lastMain.exit)})`);
    else if (u.controlPid) {
      const ctl = this.o.processes.get(u.controlPid);
      if (ctl) out.push(`  Cntrl PID: ${ctl.pid} (${processComm(ctl)})`);
    }
    const procs = this.unitProcesses(unitName);
    if (procs.length) {
      const tasks = procs.reduce((n, p) => n + processProfile(p).threads, 0);
      out.push(`      Tasks: ${tasks}${Number.isFinite(s.tasksMax) ? ` (limit: ${s.tasksMax})` : ''}`);
      out.push(`     Memory: ${formatBytes(procs.reduce((n, p) => n + processRssBytes(p), 0))}`);
    }
    if (u.invocations > 0) out.push(`        CPU: ${formatTimespan(this.unitCpuMs(u))}`);
    if (procs.length) {
      out.push(`     CGroup: /${s.slice}/${unitName}`);
      procs.forEach((p, i) => out.push(`             ${i === procs.length - 1 ? '\u2514\u2500' : '\u251c\u2500'}${p.pid} ${[p.command, ...p.args].join(' ')}`));
    }
    const entries: JournalEntry[] = this.o.journal.entries({ unit: unitName, sinceSeq: u.inactiveExitCursor ?? 0, lines: opts.lines ?? 10 });
    let text = out.join('\n') + '\n';
    if (entries.length) text += '\n' + entries.map((e) => this.o.journal.format(e)).join('\n') + '\n';
    const stderr = this.needsDaemonReload(unitName) ? daemonReloadWarning(unitName) : '';
    return { stdout: text, stderr, exitCode: active === 'active' || active === 'reloading' ? 0 : 3 };
  }

  // ---------------------------------------------------------------------------------------
  // systemctl

  /**
   * The `systemctl` command line (systemctl(1), systemd 252), for the playground shell:
   * `status [UNIT...] [-n N]`, `start|stop|restart|try-restart UNIT...`,
   * `kill [-s SIG|--signal=SIG] [--kill-whom=all|main] UNIT...`, `enable|disable [--now] UNIT...`,
   * `is-active|is-enabled|is-failed [-q] UNIT...`, `reset-failed [UNIT...]`, `daemon-reload`,
   * `cat UNIT...`, `show UNIT [-p PROP...] [--value]`, `list-units [--all]`, `--version`.
   * Output, error messages and exit codes follow systemctl's.
   */
  systemctl(argv: readonly string[]): CommandResult {
    const args: string[] = [];
    let signal: Signal = 'SIGTERM';
    let whom: 'all' | 'main' = 'all';
    let lines = 10;
    let quiet = false;
    let now = false;
    let value = false;
    let all = false;
    const props: string[] = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-s' || a === '--signal') {
        const v = argv[++i] ?? '';
        const s = parseSignal(v);
        if (!s) return { stdout: '', stderr: `Failed to parse signal string ${v}.\n`, exitCode: 1 };
        signal = s;
      } else if (a.startsWith('--signal=')) {
        const s = parseSignal(a.slice(9));
        if (!s) return { stdout: '', stderr: `Failed to parse signal string ${a.slice(9)}.\n`, exitCode: 1 };
        signal = s;
      } else if (/^-s.+/.test(a)) {
        const s = parseSignal(a.slice(2));
        if (!s) return { stdout: '', stderr: `Failed to parse signal string ${a.slice(2)}.\n`, exitCode: 1 };
        signal = s;
      } else if (a.startsWith('--kill-whom=') || a.startsWith('--kill-who=')) whom = a.endsWith('=main') ? 'main' : 'all';
      else if (a === '-n' || a === '--lines') lines = Number(argv[++i]);
      else if (a.startsWith('--lines=')) lines = Number(a.slice(8));
      else if (/^-n\d+$/.test(a)) lines = Number(a.slice(2));
      else if (a === '-q' || a === '--quiet') quiet = true;
      else if (a === '--now') now = true;
      else if (a === '--value') value = true;
      else if (a === '-a' || a === '--all') all = true;
      else if (a === '-p' || a === '--property') props.push(...(argv[++i] ?? '').split(','));
      else if (a.startsWith('--property=')) props.push(...a.slice(11).split(','));
      else if (/^-p.+/.test(a)) props.push(...a.slice(2).split(','));
      else if (['--no-pager', '-l', '--full', '--no-block', '--no-legend', '--type=service', '-t'].includes(a)) {
        if (a === '-t') i++;
      } else if (a === '--version') return { stdout: `systemd ${SYSTEMD_VERSION}\n+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY +P11KIT +QRENCODE +TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified\n`, stderr: '', exitCode: 0 };
      else if (a.startsWith('-')) return { stdout: '', stderr: `systemctl: unrecognized option '${a}'\n`, exitCode: 1 };
      else args.push(a);
    }
    const verb = args.shift() ?? 'list-units';
    const units = args.map(normalizeUnitName);
    const needUnits = (): CommandResult | undefined => (units.length ? undefined : { stdout: '', stderr: 'Too few arguments.\n', exitCode: 1 });
    let stdout = '';
    let stderr = '';
    let exitCode = 0;
    const warn = (n: string): void => {
      if (this.needsDaemonReload(n)) stderr += daemonReloadWarning(n);
    };
    const jobFailed = (n: string, outcome: StartOutcome): void => {
      if (outcome === 'start-limit-hit') {
        stderr +=
          `Job for ${n} failed because start of the service was attempted too often.\n` +
          `See "systemctl status ${n}" and "journalctl -xeu ${n}" for details.\n` +
          `To force a start use "systemctl reset-failed ${n}"\nfollowed by "systemctl start ${n}" again.\n`;
        exitCode = 1;
      }
    };
    switch (verb) {
      case 'status': {
        const list = units.length ? units : [];
        if (!list.length) return { stdout: `\u25cf ${this.o.journal.hostname}\n    State: ${this.bootDone ? 'running' : 'starting'}\n    Units: ${this.units.size} loaded (incl. loaded aliases)\n     Jobs: 0 queued\n   Failed: ${[...this.units.values()].filter((x) => x.sub === 'failed').length} units\n    Since: ${formatSystemdTimestamp(this.o.journal.epochMs + this.bootStartedAt)}; ${formatRelative(this.o.clock.now() - this.bootStartedAt)}\n  systemd: ${SYSTEMD_VERSION.split(' ')[0]}\n   CGroup: /\n`, stderr: '', exitCode: 0 };
        const parts: string[] = [];
        for (const n of list) {
          const r = this.status(n, { lines });
          if (r.stdout) parts.push(r.stdout);
          stderr += r.stderr;
          if (r.exitCode !== 0 && (exitCode === 0 || r.exitCode === 4)) exitCode = r.exitCode;
        }
        stdout = parts.join('\n');
        return { stdout, stderr, exitCode };
      }
      case 'start':
      case 'restart':
      case 'try-restart':
      case 'reload-or-restart': {
        const missing = needUnits();
        if (missing) return missing;
        for (const n of units) {
          const u = this.ensureLoaded(n);
          const word = verb === 'start' ? 'start' : 'restart';
          if (!u) {
            stderr += `Failed to ${word} ${n}: Unit ${n} not found.\n`;
            exitCode = 5;
            continue;
          }
          if (verb === 'try-restart' && ACTIVE_OF[u.sub] !== 'active' && ACTIVE_OF[u.sub] !== 'activating') continue;
          const outcome = verb === 'start' ? this.start(n) : this.restart(n);
          jobFailed(n, outcome);
          warn(n);
        }
        return { stdout, stderr, exitCode };
      }
      case 'stop': {
        const missing = needUnits();
        if (missing) return missing;
        for (const n of units) {
          if (!this.ensureLoaded(n)) {
            stderr += `Failed to stop ${n}: Unit ${n} not loaded.\n`;
            exitCode = 5;
            continue;
          }
          this.stop(n);
          warn(n);
        }
        return { stdout, stderr, exitCode };
      }
      case 'kill': {
        const missing = needUnits();
        if (missing) return missing;
        for (const n of units) {
          const r = this.kill(n, signal, whom);
          if (r.error) {
            stderr += r.error + '\n';
            exitCode = 1;
          }
        }
        return { stdout, stderr, exitCode };
      }
      case 'enable':
      case 'disable': {
        const missing = needUnits();
        if (missing) return missing;
        for (const n of units) {
          const info = loadUnit(this.o.fs, n);
          if (info && info.settings.wantedBy.length === 0 && info.settings.requiredBy.length === 0) {
            stderr +=
              'The unit files have no installation config (WantedBy=, RequiredBy=, Also=,\nAlias= settings in the [Install] section, and DefaultInstance= for template\nunits). This means they are not meant to be enabled or disabled using systemctl.\n';
            continue;
          }
          const r = verb === 'enable' ? this.enable(n) : this.disable(n);
          if (r.error) {
            stderr += r.error + '\n';
            exitCode = 1;
            continue;
          }
          for (const l of r.lines) stderr += l + '\n';
          if (now) {
            if (verb === 'enable') jobFailed(n, this.start(n));
            else this.stop(n);
          }
        }
        return { stdout, stderr, exitCode };
      }
      case 'is-active':
      case 'is-failed': {
        const missing = needUnits();
        if (missing) return missing;
        let any = false;
        for (const n of units) {
          const st = this.isActive(n);
          if (!quiet) stdout += st + '\n';
          if (verb === 'is-active' ? st === 'active' || st === 'reloading' : st === 'failed') any = true;
        }
        return { stdout, stderr, exitCode: any ? 0 : verb === 'is-active' ? 3 : 1 };
      }
      case 'is-enabled': {
        const missing = needUnits();
        if (missing) return missing;
        let ok = false;
        for (const n of units) {
          const st = this.isEnabled(n);
          if (!st) {
            stderr += `Failed to get unit file state for ${n}: No such file or directory\n`;
            exitCode = 1;
            continue;
          }
          if (!quiet) stdout += st + '\n';
          if (st === 'enabled' || st === 'static') ok = true;
        }
        return { stdout, stderr, exitCode: exitCode || (ok ? 0 : 1) };
      }
      case 'reset-failed':
        if (units.length) for (const n of units) this.resetFailed(n);
        else this.resetFailed();
        return { stdout, stderr, exitCode };
      case 'daemon-reload':
        this.daemonReload();
        return { stdout, stderr, exitCode };
      case 'cat': {
        const missing = needUnits();
        if (missing) return missing;
        const blocks: string[] = [];
        for (const n of units) {
          const info = loadUnit(this.o.fs, n);
          if (!info) {
            stderr += `No files found for ${n}.\n`;
            exitCode = 1;
            continue;
          }
          for (const p of [info.fragmentPath, ...info.dropInPaths]) {
            const t = this.o.fs.tryReadFile(p) ?? '';
            blocks.push(`# ${p}\n${t.endsWith('\n') ? t : t + '\n'}`);
          }
        }
        return { stdout: blocks.join('\n'), stderr, exitCode };
      }
      case 'show': {
        const n = units[0];
        if (!n) return { stdout: '', stderr: 'Too few arguments.\n', exitCode: 1 };
        const all = this.showProperties(n);
        const keys = props.length ? props : Object.keys(all);
        for (const k of keys) {
          if (!(k in all)) continue;
          stdout += value ? `${all[k]}\n` : `${k}=${all[k]}\n`;
        }
        return { stdout, stderr, exitCode };
      }
      case 'list-units': {
        const rows = [...this.units.values()]
          .filter((u) => all || ACTIVE_OF[u.sub] !== 'inactive')
          .sort((a, b) => (a.info.name < b.info.name ? -1 : 1))
          .map((u) => [u.sub === 'failed' ? '\u25cf' : ' ', u.info.name, 'loaded', ACTIVE_OF[u.sub], u.sub, u.info.settings.description]);
        const w = [0, 4, 4, 6, 3].map((min, i) => Math.max(min, ...rows.map((r) => r[i + 1].length)));
        const fmt = (r: string[]): string => `${r[0]} ${r[1].padEnd(w[0])} ${r[2].padEnd(w[1])} ${r[3].padEnd(w[2])} ${r[4].padEnd(w[3])} ${r[5]}`.trimEnd() + '\n';
        stdout = fmt([' ', 'UNIT', 'LOAD', 'ACTIVE', 'SUB', 'DESCRIPTION']);
        for (const r of rows) stdout += fmt(r);
        stdout +=
          '\nLOAD   = Reflects whether the unit definition was properly loaded.\n' +
          'ACTIVE = The high-level unit activation state, i.e. generalization of SUB.\n' +
          'SUB    = The low-level unit activation state, values depend on unit type.\n' +
          `${rows.length} loaded units listed.${all ? '' : ' Pass --all to see loaded but inactive units, too.'}\n` +
          "To show all installed unit files use 'systemctl list-unit-files'.\n";
        return { stdout, stderr, exitCode };
      }
      default:
        return { stdout: '', stderr: `Unknown command verb ${verb}.\n`, exitCode: 1 };
    }
  }

  /** `systemctl show` properties (a useful subset, in systemd's order: Service first, then Unit). */
  showProperties(name: string): Record<string, string> {
    const unitName = normalizeUnitName(name);
    const u = this.ensureLoaded(unitName);
    if (!u) return { Id: unitName, LoadState: 'not-found', ActiveState: 'inactive', SubState: 'dead', UnitFileState: '' };
    const s = u.info.settings;
    const usec = (ms: number): string => (Number.isFinite(ms) ? (ms === 0 ? '0' : formatTimespan(ms)) : 'infinity');
    const ts = (ms: number | undefined): string => (ms === undefined ? '' : formatSystemdTimestamp(this.o.journal.epochMs + ms));
    const execLine = (c: ExecCommand): string => `{ path=${c.argv[0]} ; argv[]=${c.argv.join(' ')} ; ignore_errors=${c.ignoreFailure ? 'yes' : 'no'} ; start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }`;
    return {
      Type: s.type,
      Restart: s.restart,
      NotifyAccess: s.type === 'notify' ? 'main' : 'none',
      RestartUSec: usec(s.restartSecMs),
      TimeoutStartUSec: usec(s.timeoutStartSecMs),
      TimeoutStopUSec: usec(s.timeoutStopSecMs),
      MainPID: String(u.mainPid),
      ControlPID: String(u.controlPid),
      Result: u.result,
      NRestarts: String(u.nRestarts),
      ExecMainStartTimestamp: ts(u.lastMain?.startedAt),
      ExecMainExitTimestamp: ts(u.lastMain?.exitedAt),
      ExecMainPID: String(u.lastMain?.pid ?? 0),
      ExecMainCode: String(u.lastMain?.exit ? (u.lastMain.exit.code === 'exited' ? 1 : u.lastMain.exit.code === 'killed' ? 2 : 3) : 0),
      ExecMainStatus: String(u.lastMain?.exit?.status ?? 0),
      ExecStart: s.execStart.map(execLine).join(' '),
      Slice: s.slice,
      ControlGroup: this.unitProcesses(unitName).length ? `/${s.slice}/${unitName}` : '',
      KillMode: s.killMode,
      KillSignal: String(SIGNAL_NUMBERS[s.killSignal]),
      Id: unitName,
      Description: s.description,
      LoadState: 'loaded',
      ActiveState: ACTIVE_OF[u.sub],
      SubState: u.sub,
      FragmentPath: u.info.fragmentPath,
      DropInPaths: u.info.dropInPaths.join(' '),
      UnitFileState: this.enabledState(u.info),
      UnitFilePreset: 'enabled',
      StateChangeTimestamp: ts(this.sinceOf(u)),
      ActiveEnterTimestamp: ts(u.activeEnterAt),
      ActiveExitTimestamp: ts(u.activeExitAt),
      InactiveEnterTimestamp: ts(u.inactiveEnterAt),
      InactiveExitTimestamp: ts(u.inactiveExitAt),
      ConditionResult: u.condition ? (u.condition.ok ? 'yes' : 'no') : 'no',
      ConditionTimestamp: ts(u.condition?.at),
      StartLimitIntervalUSec: usec(s.startLimitIntervalMs),
      StartLimitBurst: String(s.startLimitBurst),
      NeedDaemonReload: this.needsDaemonReload(unitName) ? 'yes' : 'no',
    };
  }
}

function isDown(u: ServiceRuntime): boolean {
  return u.sub === 'dead' || u.sub === 'failed';
}

/** The warning systemctl prints when a unit's files changed since they were loaded. */
export function daemonReloadWarning(unit: string): string {
  return `Warning: The unit file, source configuration file or drop-ins of ${unit} changed on disk. Run 'systemctl daemon-reload' to reload units.\n`;
}
