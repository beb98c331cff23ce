/**
 * The systemd journal of one node, and the time formats systemd's tools print.
 *
 * A kind node runs systemd-journald; every unit's stdout/stderr and PID 1's own messages about
 * units land there, and `journalctl -u kubelet` shows them in journalctl's default `short`
 * format (journalctl(1), OUTPUT MODES):
 *
 *     Jan 05 06:00:10 k8s-lab-worker systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent.
 *     Jan 05 06:00:10 k8s-lab-worker kubelet[235]: I0105 06:00:10.123456     235 server.go:...] ...
 *
 * Timestamps are the virtual clock (`Clock.epochMs + now`), printed in UTC (kind nodes run
 * with TZ unset, i.e. UTC). Nothing here uses `Date`: calendar fields come from
 * `formatRfc3339` in clock.ts.
 *
 * Storage: kind node containers mount a tmpfs on /run and Debian's journald keeps its files in
 * /run/log/journal when /var/log/journal does not exist (journald.conf(5) `Storage=auto`), so
 * the journal is volatile: the machine clears it on every boot (`Journal.clear`).
 */
import { civil } from '../clock';
import { flattenString } from '../strings';

export type { CivilTime } from '../clock';

/** English month abbreviations as strftime `%b` prints them in the C locale. */
export const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** English weekday abbreviations as strftime `%a` prints them in the C locale. */
export const WEEKDAY_ABBR = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** Split a Unix time (ms) into UTC calendar fields, without `Date` (clock.ts `civil`). */
export const civilTime = civil;

const p2 = (n: number): string => String(n).padStart(2, '0');

/** `Jan 05 06:00:10`: the timestamp of journalctl's `short` output format (UTC). */
export function formatJournalTime(unixMs: number): string {
  const c = civilTime(unixMs);
  return `${MONTH_ABBR[c.month - 1]} ${p2(c.day)} ${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)}`;
}

/**
 * `Mon 2026-01-05 06:00:10 UTC`: systemd's default timestamp style (`FORMAT_TIMESTAMP`,
 * src/basic/time-util.c, "%a %Y-%m-%d %H:%M:%S %Z"), as `systemctl status` prints after `since`.
 */
export function formatSystemdTimestamp(unixMs: number): string {
  const c = civilTime(unixMs);
  return `${WEEKDAY_ABBR[c.weekday]} ${c.year}-${p2(c.month)}-${p2(c.day)} ${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)} UTC`;
}

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** systemd's USEC_PER_MONTH / USEC_PER_YEAR (src/basic/time-util.h): 30.44 and 365.25 days. */
const MONTH = 2629800 * SEC;
const YEAR = 31557600 * SEC;

/**
 * `5min ago`, `1min 30s ago`, `3s ago`, `now`: systemd's `format_timestamp_relative`
 * (src/basic/time-util.c) for a time `deltaMs` in the past (negative: `left`).
 */
export function formatRelative(deltaMs: number): string {
  const suffix = deltaMs >= 0 ? 'ago' : 'left';
  const d = Math.abs(deltaMs);
  const pl = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  if (d >= YEAR) return `${pl(Math.floor(d / YEAR), 'year', 'years')} ${pl(Math.floor((d % YEAR) / MONTH), 'month', 'months')} ${suffix}`;
  if (d >= MONTH) return `${pl(Math.floor(d / MONTH), 'month', 'months')} ${pl(Math.floor((d % MONTH) / DAY), 'day', 'days')} ${suffix}`;
  if (d >= WEEK) return `${pl(Math.floor(d / WEEK), 'week', 'weeks')} ${pl(Math.floor((d % WEEK) / DAY), 'day', 'days')} ${suffix}`;
  if (d >= 2 * DAY) return `${Math.floor(d / DAY)} days ${suffix}`;
  if (d >= 25 * HOUR) return `1 day ${Math.floor((d - DAY) / HOUR)}h ${suffix}`;
  if (d >= 6 * HOUR) return `${Math.floor(d / HOUR)}h ${suffix}`;
  if (d >= HOUR) return `${Math.floor(d / HOUR)}h ${Math.floor((d % HOUR) / MIN)}min ${suffix}`;
  if (d >= 5 * MIN) return `${Math.floor(d / MIN)}min ${suffix}`;
  if (d >= MIN) return `${Math.floor(d / MIN)}min ${Math.floor((d % MIN) / SEC)}s ${suffix}`;
  if (d >= SEC) return `${Math.floor(d / SEC)}s ${suffix}`;
  if (d >= 1) return `${Math.floor(d)}ms ${suffix}`;
  return 'now';
}

/** One journal record (the fields of journal-fields(7) this simulation needs). */
export interface JournalEntry {
  /** Position in the journal (the cursor): strictly increasing. */
  readonly seq: number;
  /** Virtual ms (clock time) the record was written. */
  readonly at: number;
  /** `_HOSTNAME` at the time of writing (the node name). */
  readonly hostname: string;
  /** `SYSLOG_IDENTIFIER`: `systemd` for PID 1, the process name (`kubelet`) for unit output. */
  readonly identifier: string;
  /** `_PID` of the writer. */
  readonly pid: number;
  /** `_SYSTEMD_UNIT`: the unit whose process wrote this line (service output). */
  readonly unit?: string;
  /** `UNIT=`: the unit PID 1 is talking about (`Started kubelet.service ...`). */
  readonly objectUnit?: string;
  /** `MESSAGE`. */
  readonly message: string;
  /** syslog priority 0-7 (6 = info); journalctl's short format does not print it. */
  readonly priority: number;
}

/** Fields a writer supplies; the journal adds `seq`, `at` and `hostname`. */
export type JournalRecord = Omit<JournalEntry, 'seq' | 'at' | 'hostname' | 'priority'> & { priority?: number };

/** Filter of `Journal.entries`. */
export interface JournalQuery {
  /** `-u UNIT`: entries written by the unit's processes or by PID 1 about the unit. */
  unit?: string;
  /** Only entries with `seq >= sinceSeq` (a cursor, e.g. the unit's last start). */
  sinceSeq?: number;
  /** `-n N`: the last N entries (after the other filters). */
  lines?: number;
}

/**
 * The journal. Entries are kept in memory in write order; listeners (`journalctl -f`, the UI's
 * log pane) hear each new entry synchronously.
 *
 * Storage is by column (performance only: a 10,000-pod cluster writes ~130,000 lines, and an
 * object per line with its fields cost about twice the columns): entry `i` of the current boot
 * has cursor `firstSeq + i` (cursors are consecutive), its time, pid, identifier, unit and
 * message in arrays, and the rarer fields sparse: `objectUnit` (PID 1's lines) and a priority
 * other than 6 by index, the hostname as runs (it changes only when the machine renames itself).
 * `append` and `entries` hand out `JournalEntry` objects with the same fields as stored.
 */
export class Journal {
  private firstSeq = 1;
  private ats: number[] = [];
  private pids: number[] = [];
  private identifiers: string[] = [];
  private units: (string | undefined)[] = [];
  private messages: string[] = [];
  private objectUnits = new Map<number, string>();
  private priorities = new Map<number, number>();
  /** Hostname runs: entries from `hostStarts[k]` on were written as `hostNames[k]`. */
  private hostStarts: number[] = [];
  private hostNames: string[] = [];
  private nextSeq = 1;
  private listeners = new Set<(e: JournalEntry) => void>();

  /**
   * @param now virtual ms (the clock's `now`)
   * @param epochMs Unix ms of virtual time 0 (`Clock.epochMs`), for printing
   * @param hostname the node's hostname (kind: the node/container name)
   */
  constructor(
    private readonly now: () => number,
    readonly epochMs: number,
    public hostname: string,
  ) {}

  /** Append a record; returns the stored entry. */
  append(r: JournalRecord): JournalEntry {
    const e: JournalEntry = { priority: 6, ...r, seq: this.nextSeq++, at: this.now(), hostname: this.hostname };
    flattenString(e.message);
    const i = this.ats.length;
    this.ats.push(e.at);
    this.pids.push(e.pid);
    this.identifiers.push(e.identifier);
    this.units.push(e.unit);
    this.messages.push(e.message);
    if (e.objectUnit !== undefined) this.objectUnits.set(i, e.objectUnit);
    if (e.priority !== 6) this.priorities.set(i, e.priority);
    const runs = this.hostNames.length;
    if (runs === 0 || this.hostNames[runs - 1] !== e.hostname) {
      this.hostStarts.push(i);
      this.hostNames.push(e.hostname);
    }
    for (const l of this.listeners) l(e);
    return e;
  }

  /**
   * `append({ identifier, pid, unit, message })` (priority 6, no `objectUnit`) without building
   * the record and the entry unless a listener hears it (performance only: a unit's output
   * lines, every log line of the kubelet and containerd, come this way, and nothing reads the
   * returned entry there). The same columns, cursor and listener entry (same fields, same order)
   * as `append`.
   */
  appendLine(identifier: string, pid: number, unit: string | undefined, message: string): void {
    if (this.listeners.size) {
      this.append({ identifier, pid, unit, message });
      return;
    }
    this.nextSeq++;
    flattenString(message);
    const i = this.ats.length;
    this.ats.push(this.now());
    this.pids.push(pid);
    this.identifiers.push(identifier);
    this.units.push(unit);
    this.messages.push(message);
    const runs = this.hostNames.length;
    if (runs === 0 || this.hostNames[runs - 1] !== this.hostname) {
      this.hostStarts.push(i);
      this.hostNames.push(this.hostname);
    }
  }

  /** The cursor the next entry will get (for "entries since now" queries). */
  cursor(): number {
    return this.nextSeq;
  }

  /** Entries matching `q`, oldest first. */
  entries(q: JournalQuery = {}): JournalEntry[] {
    const unit = q.unit ? normalizeUnitName(q.unit) : undefined;
    const n = this.ats.length;
    const from = q.sinceSeq === undefined ? 0 : Math.max(0, Math.min(n, q.sinceSeq - this.firstSeq));
    const picked: number[] = [];
    for (let i = from; i < n; i++) if (!unit || this.units[i] === unit || this.objectUnits.get(i) === unit) picked.push(i);
    let sel = picked;
    if (q.lines !== undefined) sel = q.lines <= 0 ? [] : picked.slice(-q.lines);
    return sel.map((i) => this.entryAt(i));
  }

  /** Entry `i` of the current boot as an object (the fields `append` stored). */
  private entryAt(i: number): JournalEntry {
    const e: { -readonly [K in keyof JournalEntry]: JournalEntry[K] } = {
      priority: this.priorities.get(i) ?? 6,
      identifier: this.identifiers[i],
      pid: this.pids[i],
      message: this.messages[i],
      seq: this.firstSeq + i,
      at: this.ats[i],
      hostname: this.hostAt(i),
    };
    const unit = this.units[i];
    if (unit !== undefined) e.unit = unit;
    const objectUnit = this.objectUnits.get(i);
    if (objectUnit !== undefined) e.objectUnit = objectUnit;
    return e;
  }

  /** The hostname entry `i` was written with (the last run starting at or before it). */
  private hostAt(i: number): string {
    let k = this.hostStarts.length - 1;
    while (k > 0 && this.hostStarts[k] > i) k--;
    return this.hostNames[k];
  }

  /** One entry in journalctl's `short` format: `Jan 05 06:00:10 host ident[pid]: message`. */
  format(e: JournalEntry): string {
    return `${formatJournalTime(this.epochMs + e.at)} ${e.hostname} ${e.identifier}[${e.pid}]: ${e.message}`;
  }

  /** Drop everything (the volatile journal after a reboot). Cursors keep increasing. */
  clear(): void {
    this.firstSeq = this.nextSeq;
    this.ats = [];
    this.pids = [];
    this.identifiers = [];
    this.units = [];
    this.messages = [];
    this.objectUnits = new Map();
    this.priorities = new Map();
    this.hostStarts = [];
    this.hostNames = [];
  }

  /** Hear every new entry; returns the unsubscribe function. */
  subscribe(listener: (e: JournalEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** `kubelet` -> `kubelet.service` (systemctl/journalctl accept unit names without a suffix). */
export function normalizeUnitName(name: string): string {
  return /\.(service|socket|target|slice|mount|timer|path|scope|device|swap|automount)$/.test(name) ? name : `${name}.service`;
}

/** What a node command prints and returns (a line of the playground shell run on a node). */
export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** syslog level names as journalctl accepts them (`log_level_from_string`), by level. */
const LOG_LEVEL_NAMES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

/**
 * journalctl's `-p` value: a level (`err`, `3`: that level and more important ones, 0..N) or a
 * range `FROM..TO` (journalctl.c `parse_argv` / `arg_priorities`), as [most, least] important
 * level kept (0 = emerg ... 7 = debug). Undefined if unparsable.
 */
export function parsePriorityRange(v: string): [number, number] | undefined {
  const level = (s: string): number | undefined => {
    if (/^[0-7]$/.test(s)) return Number(s);
    const i = LOG_LEVEL_NAMES.indexOf(s);
    return i >= 0 ? i : undefined;
  };
  const dots = v.indexOf('..');
  if (dots >= 0) {
    const a = level(v.slice(0, dots));
    const b = level(v.slice(dots + 2));
    if (a === undefined || b === undefined) return undefined;
    return [Math.min(a, b), Math.max(a, b)];
  }
  const l = level(v);
  return l === undefined ? undefined : [0, l];
}

/**
 * `journalctl [-u UNIT]... [-p PRIORITY] [-n N|--lines=N] [--no-pager] [-q] [-o short]`, as journalctl 252
 * prints it without a terminal (no pager, no colour, long lines not truncated).
 * No matching entries: `-- No entries --`. `-x`, `-e`, `-b`, `--no-pager` are accepted; `-f` is answered with the current lines only
 * (following is the host's business: subscribe to the journal). Unknown options give
 * journalctl's `journalctl: unrecognized option '--x'` and exit 1.
 */
export function journalctl(journal: Journal, argv: readonly string[]): CommandResult {
  const units: string[] = [];
  let lines: number | undefined;
  let quiet = false;
  /** `-p`: the priority range kept (inclusive; 0 = emerg ... 7 = debug). */
  let prio: [number, number] | undefined;
  const bad = (msg: string): CommandResult => ({ stdout: '', stderr: `journalctl: ${msg}\n`, exitCode: 1 });
  /** journalctl.c parse_argv: `Failed to parse log level range %s` / `Unknown log level %s`. */
  const setPriority = (v: string): CommandResult | undefined => {
    const r = parsePriorityRange(v);
    if (r) {
      prio = r;
      return undefined;
    }
    return { stdout: '', stderr: `${v.includes('..') ? 'Failed to parse log level range' : 'Unknown log level'} ${v}\n`, exitCode: 1 };
  };
  const setLines = (v: string | undefined): void => {
    lines = v === undefined || v === 'all' ? undefined : Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--unit') {
        const v = inline ?? argv[++i];
        if (v === undefined) return bad("option '--unit' requires an argument");
        units.push(v);
      } else if (name === '--lines') setLines(inline ?? argv[++i]);
      else if (name === '--priority') {
        const v = inline ?? argv[++i];
        if (v === undefined) return bad("option '--priority' requires an argument");
        const err = setPriority(v);
        if (err) return err;
      }
      else if (name === '--output') {
        const v = inline ?? argv[++i];
        if (v !== 'short') return bad(`output mode ${v ?? ''} is not supported here`);
      } else if (name === '--quiet') quiet = true;
      else if (name === '--pager-end') lines = lines ?? 1000;
      else if (!['--no-pager', '--follow', '--catalog', '--boot', '--no-hostname', '--full', '--all'].includes(name)) return bad(`unrecognized option '${a}'`);
      continue;
    }
    if (!a.startsWith('-') || a === '-') return bad(`unexpected argument '${a}'`);
    // Short options, possibly combined (`-xeu kubelet`, `-n20`).
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      if (c === 'u' || c === 'n' || c === 'o' || c === 'p') {
        const v = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
        if (v === undefined) return bad(`option requires an argument -- '${c}'`);
        if (c === 'u') units.push(v);
        else if (c === 'n') setLines(v);
        else if (c === 'p') {
          const err = setPriority(v);
          if (err) return err;
        }
        else if (v !== 'short') return bad(`output mode ${v} is not supported here`);
        break;
      } else if (c === 'e') lines = lines ?? 1000;
      else if (c === 'q') quiet = true;
      else if (!'xfbla'.includes(c)) return bad(`invalid option -- '${c}'`);
    }
  }
  if (lines !== undefined && !Number.isFinite(lines)) return { stdout: '', stderr: 'Failed to parse lines\n', exitCode: 1 };
  const wanted = new Set(units.map(normalizeUnitName));
  let entries = journal.entries().filter((e) => (wanted.size === 0 || (e.unit && wanted.has(e.unit)) || (e.objectUnit && wanted.has(e.objectUnit))) && (!prio || (e.priority >= prio[0] && e.priority <= prio[1])));
  if (lines !== undefined) entries = lines <= 0 ? [] : entries.slice(-lines);
  if (entries.length === 0) return { stdout: quiet ? '' : '-- No entries --\n', stderr: '', exitCode: 0 };
  return { stdout: entries.map((e) => journal.format(e) + '\n').join(''), stderr: '', exitCode: 0 };
}
