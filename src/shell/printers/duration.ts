/**
 * Durations and ages as kubectl prints them (AGE, `3 (41s ago)`, LAST SEEN, Job DURATION).
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go (`HumanDuration`,
 * `ShortHumanDuration`) and the `translateTimestampSince` helpers of
 * pkg/printers/internalversion/printers.go. Pure: "now" is always passed in.
 *
 * Units: durations are milliseconds (Go's `time.Duration` truncated the same way: whole
 * seconds/minutes/hours are taken toward zero). Timestamps are RFC 3339 strings as the API
 * stores them; "now" is given as virtual ms since the cluster epoch plus `epochMs` (the Unix
 * time of virtual 0, `Clock.epochMs`).
 */
import { parseRfc3339 } from '../../engine/clock';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's integer division of durations (`d / time.Minute`): truncates toward zero. */
function div(ms: number, unit: number): number {
  return Math.trunc(ms / unit);
}

/**
 * `duration.HumanDuration`: ~2-3 significant figures. `ms` may be negative (clock skew):
 * below -1 s prints `<invalid>`, -1 s .. 0 prints `0s`.
 * Rules: < 120 s `Ns`; < 10 min `MmSs` (`Mm` when S = 0); < 3 h `Mm`; < 8 h `HhMm` (`Hh`);
 * < 48 h `Hh`; < 8 d `DdHh` (`Dd`); < 2 y (730 d) `Dd`; < 8 y `YyDd` (`Yy`); else `Yy`
 * (a year is 365 days).
 */
export function humanDuration(ms: number): string {
  const seconds = div(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = div(ms, MINUTE);
  if (minutes < 10) {
    const s = div(ms, SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = div(ms, HOUR);
  if (hours < 8) {
    const m = div(ms, MINUTE) % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${div(hours, 24)}d` : `${div(hours, 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${div(hours, 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = div(hours, 24) % 365;
    return dy === 0 ? `${div(hours, 24 * 365)}y` : `${div(hours, 24 * 365)}y${dy}d`;
  }
  return `${div(hours, 24 * 365)}y`;
}

/**
 * `duration.ShortHumanDuration`: one unit only (`59s`, `59m`, `23h`, `364d`, `2y`); below
 * -1 s `<invalid>`, -1 s .. 0 `0s`. Used by older printers and a few describe lines.
 */
export function shortHumanDuration(ms: number): string {
  const seconds = div(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = div(ms, MINUTE);
  if (minutes < 60) return `${minutes}m`;
  const hours = div(ms, HOUR);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${div(hours, 24)}d`;
  return `${div(hours, 24 * 365)}y`;
}

/** Unix ms of an RFC 3339 timestamp, or undefined when absent/unparsable (Go's zero time). */
export function timestampMs(ts: unknown): number | undefined {
  if (typeof ts !== 'string' || ts === '') return undefined;
  const ms = parseRfc3339(ts);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * printers.go `translateTimestampSince`: `<unknown>` for a missing (zero) timestamp, else
 * `humanDuration(now - ts)`. `nowMs` is virtual ms since the epoch, `epochMs` the Unix ms of
 * virtual 0 (`Clock.epochMs`). Also serves `translateMicroTimestampSince` (eventTime,
 * `2026-01-05T06:00:00.123456Z`).
 */
export function translateTimestampSince(ts: unknown, nowMs: number, epochMs: number): string {
  const t = timestampMs(ts);
  if (t === undefined) return '<unknown>';
  return humanDuration(epochMs + nowMs - t);
}
