/**
 * `journalctl --since/--until` (systemd 252, the kindest/node's): timestamps as systemd.time(7)
 * spells them, parsed as src/basic/time-util.c `parse_timestamp` does, in UTC (kind nodes have
 * no /etc/localtime), and the entries of the node's journal between them.
 */
import { civil, parseRfc3339 } from '../engine/clock';
import type { CommandResult, Journal, JournalEntry } from '../engine/node/journal';
import { normalizeUnitName, parsePriorityRange } from '../engine/node/journal';

/** Unix ms per unit of a systemd time span (time-util.c `parse_sec`'s table, months and years as systemd counts them). */
const SPAN_UNITS: Record<string, number> = {
  usec: 0.001, us: 0.001, 'µs': 0.001,
  msec: 1, ms: 1,
  seconds: 1000, second: 1000, sec: 1000, s: 1000,
  minutes: 60_000, minute: 60_000, min: 60_000, m: 60_000,
  hours: 3_600_000, hour: 3_600_000, hr: 3_600_000, h: 3_600_000,
  days: 86_400_000, day: 86_400_000, d: 86_400_000,
  weeks: 604_800_000, week: 604_800_000, w: 604_800_000,
  months: 2_629_800_000, month: 2_629_800_000, M: 2_629_800_000,
  years: 31_557_600_000, year: 31_557_600_000, y: 31_557_600_000,
};

/** A time span such as `5min`, `1h 30min`, `90` (seconds): ms, or undefined when it is not one. */
function parseSpan(s: string): number | undefined {
  const t = s.trim();
  if (t === '') return undefined;
  let total = 0;
  const re = /\s*(\d+(?:\.\d+)?)\s*([a-zA-Zµ]*)/y;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m || m[0] === '') return undefined;
    const unit = m[2] === '' ? 's' : m[2];
    const mult = SPAN_UNITS[unit];
    if (mult === undefined) return undefined;
    total += Number(m[1]) * mult;
    pos = re.lastIndex;
  }
  return total;
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/** Unix ms of a UTC civil date and time, or NaN. */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, sec = 0): number {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return Number.NaN;
  return parseRfc3339(`${String(y).padStart(4, '0')}-${p2(mo)}-${p2(d)}T${p2(h)}:${p2(mi)}:${p2(sec)}Z`);
}

/**
 * A systemd timestamp (`2026-01-05 06:00:10`, `06:00`, `today`, `yesterday`, `now`,
 * `5 min ago`, `-1h`, `+30s`, `@1767592800`) relative to `nowMs` (Unix ms): Unix ms, or
 * undefined when systemd would fail to parse it.
 */
export function parseSystemdTimestamp(text: string, nowMs: number): number | undefined {
  const s = text.trim().replace(/\s+UTC$/, '');
  const today = civil(nowMs);
  const midnight = utc(today.year, today.month, today.day);
  switch (s) {
    case 'now':
      return nowMs;
    case 'today':
      return midnight;
    case 'yesterday':
      return midnight - 86_400_000;
    case 'tomorrow':
      return midnight + 86_400_000;
  }
  if (s.startsWith('@')) {
    const v = Number(s.slice(1));
    return Number.isFinite(v) ? v * 1000 : undefined;
  }
  if (s.startsWith('+') || s.startsWith('-')) {
    const span = parseSpan(s.slice(1));
    return span === undefined ? undefined : s[0] === '+' ? nowMs + span : nowMs - span;
  }
  if (s.endsWith(' ago')) {
    const span = parseSpan(s.slice(0, -4));
    return span === undefined ? undefined : nowMs - span;
  }
  if (s.endsWith(' left')) {
    const span = parseSpan(s.slice(0, -5));
    return span === undefined ? undefined : nowMs + span;
  }
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(s);
  if (m) {
    const v = utc(+m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
    return Number.isNaN(v) ? undefined : v;
  }
  m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(s);
  if (m) {
    const v = utc(today.year, today.month, today.day, +m[1], +m[2], +(m[3] ?? 0));
    return Number.isNaN(v) ? undefined : v;
  }
  return undefined;
}

/** What `extractTimeRange` found: the other arguments, and the bounds (Unix ms) when given. */
export interface TimeRangeArgs {
  rest: string[];
  since?: number;
  until?: number;
  /** journalctl's complaint about a timestamp it cannot parse. */
  error?: string;
}

/**
 * Take `--since`/`-S` and `--until`/`-U` (with a separate or `=`/attached value) out of a
 * journalctl command line, parsing their timestamps against `nowMs`.
 */
export function extractTimeRange(args: readonly string[], nowMs: number): TimeRangeArgs {
  const out: TimeRangeArgs = { rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    let which: 'since' | 'until' | undefined;
    let value: string | undefined;
    const long = /^--(since|until)(?:=(.*))?$/s.exec(a);
    const short = /^-([SU])(.*)$/s.exec(a);
    if (long) {
      which = long[1] as 'since' | 'until';
      value = long[2] ?? args[++i];
    } else if (short) {
      which = short[1] === 'S' ? 'since' : 'until';
      value = short[2] !== '' ? short[2] : args[++i];
    }
    if (!which) {
      out.rest.push(a);
      continue;
    }
    if (value === undefined) {
      out.error = long ? `journalctl: option '--${which}' requires an argument` : `journalctl: option requires an argument -- '${which === 'since' ? 'S' : 'U'}'`;
      return out;
    }
    const t = parseSystemdTimestamp(value, nowMs);
    if (t === undefined) {
      out.error = `Failed to parse timestamp: ${value}`;
      return out;
    }
    out[which] = t;
  }
  return out;
}

/** The units (`-u`), the line limit (`-n`) and `-q` of a journalctl command line. */
function selection(args: readonly string[]): { units: string[]; lines?: number; quiet: boolean; priority?: [number, number] } {
  const units: string[] = [];
  let lines: number | undefined;
  let quiet = false;
  let priority: [number, number] | undefined;
  const setLines = (v: string | undefined): void => {
    lines = v === undefined || v === 'all' ? undefined : Number(v);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
      if (name === '--unit') units.push(inline ?? args[++i] ?? '');
      else if (name === '--lines') setLines(inline ?? args[++i]);
      else if (name === '--output') i += inline === undefined ? 1 : 0;
      else if (name === '--quiet') quiet = true;
      else if (name === '--pager-end') lines = lines ?? 1000;
      else if (name === '--priority') priority = parsePriorityRange(inline ?? args[++i] ?? '') ?? priority;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      if (c === 'u' || c === 'n' || c === 'o' || c === 'p') {
        const v = k + 1 < a.length ? a.slice(k + 1) : args[++i];
        if (c === 'u') units.push(v ?? '');
        else if (c === 'n') setLines(v);
        else if (c === 'p') priority = parsePriorityRange(v ?? '') ?? priority;
        break;
      } else if (c === 'e') lines = lines ?? 1000;
      else if (c === 'q') quiet = true;
    }
  }
  return { units, lines, quiet, priority };
}

/**
 * journalctl with `--since`/`--until`: the entries of the selected units from `since`
 * (inclusive) to `until` (inclusive), then `-n` (the last N of those), as the engine's
 * journalctl prints entries. `args` are already checked by it (the same options without the
 * time range). With `follow` and no `-n`, every entry in range (`-f` implies `-n 10` only
 * without `--since`, journalctl.c).
 */
export function journalInRange(journal: Journal, args: readonly string[], range: { since?: number; until?: number }): CommandResult {
  const sel = selection(args);
  const wanted = new Set(sel.units.map(normalizeUnitName));
  let entries: JournalEntry[] = journal.entries().filter((e) => {
    if (wanted.size > 0 && !((e.unit && wanted.has(e.unit)) || (e.objectUnit && wanted.has(e.objectUnit)))) return false;
    if (sel.priority && (e.priority < sel.priority[0] || e.priority > sel.priority[1])) return false;
    const t = journal.epochMs + e.at;
    return (range.since === undefined || t >= range.since) && (range.until === undefined || t <= range.until);
  });
  if (sel.lines !== undefined) entries = sel.lines <= 0 ? [] : entries.slice(-sel.lines);
  if (entries.length === 0) return { stdout: sel.quiet ? '' : '-- No entries --\n', stderr: '', exitCode: 0 };
  return { stdout: entries.map((e) => journal.format(e) + '\n').join(''), stderr: '', exitCode: 0 };
}
