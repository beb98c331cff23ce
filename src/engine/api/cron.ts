/**
 * The CronJob schedule check kube-apiserver runs: robfig/cron v3 `ParseStandard` (the parser
 * Kubernetes vendors), reduced to its answer "valid, or this error". The error strings are
 * robfig's own, because kube-apiserver puts them verbatim into
 * `spec.schedule: Invalid value: "<schedule>": <error>` (pkg/apis/batch/validation/validation.go
 * `validateScheduleFormat`), and the cronjob controller quotes them in its events.
 *
 * Mirrors github.com/robfig/cron/v3 parser.go: `Parse` (TZ=/CRON_TZ= prefix, descriptors,
 * `normalizeFields`), `getField` (comma lists), `getRange` (`*`/`?`, `a-b`, `/step`, names),
 * `mustParseInt` (Go `strconv.Atoi`). Bounds: minute 0-59, hour 0-23, day of month 1-31,
 * month 1-12 (`jan`-`dec`), day of week 0-6 (`sun`-`sat`; robfig has no 7).
 */

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DOW_NAMES: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** The five fields of a standard spec, in order (robfig `minutes`, `hours`, `dom`, `months`, `dow`). */
const FIELD_BOUNDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 0, max: 6, names: DOW_NAMES },
];

/** The descriptors `parseDescriptor` knows, besides `@every <duration>`. */
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/**
 * True when `tz` names a time zone this runtime knows (Go `time.LoadLocation`: `""` and `UTC`
 * are UTC, `Local` the process zone, anything else an IANA name).
 */
export function isKnownTimeZone(tz: string): boolean {
  if (tz === '' || tz === 'UTC' || tz === 'Local') return true;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    // Intl ignores case; Go's tzdata lookup is a file name and does not (`AMERICA/new_york` is unknown).
    return !(resolved.toLowerCase() === tz.toLowerCase() && resolved !== tz);
  } catch {
    return false;
  }
}

/** A thrown robfig error (internal). */
class CronSpecError extends Error {}

/** Go `strconv.Quote` for the ASCII text a schedule holds. */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go `strconv.Atoi`: optional sign, decimal digits, 64-bit range; robfig's wrapping of its error. */
function mustParseInt(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new CronSpecError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`);
  const n = Number(expr);
  if (!Number.isSafeInteger(n)) throw new CronSpecError(`failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: value out of range`);
  if (n < 0) throw new CronSpecError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

/** `parseIntOrName`: a name (case-insensitive) of the field, else an integer. */
function parseIntOrName(expr: string, names: Record<string, number> | undefined): number {
  const named = names?.[expr.toLowerCase()];
  if (named !== undefined) return named;
  return mustParseInt(expr);
}

/** `getRange`: `number | number "-" number [ "/" number ]`, or `*` / `?`. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new CronSpecError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    if (singleDigit) end = r.max; // "N/step" means "N-max/step"
  } else if (rangeAndStep.length > 2) {
    throw new CronSpecError(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new CronSpecError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronSpecError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronSpecError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronSpecError(`step of range should be a positive number: ${expr}`);
}

/** Go `time.ParseDuration` acceptance (`300ms`, `1h30m`, `-1.5h`, `0`). */
function isGoDuration(s: string): boolean {
  return s === '0' || /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.test(s);
}

/**
 * robfig/cron v3 `ParseStandard(spec)`: undefined when the schedule parses, else robfig's error
 * text (e.g. `end of range (61) above maximum (59): 61`, `expected exactly 5 fields, found 3:
 * [* * *]`, `unrecognized descriptor: @fortnightly`). `knownZone` answers Go's
 * `time.LoadLocation` for a `TZ=`/`CRON_TZ=` prefix.
 */
export function cronParseStandardError(spec: string, knownZone: (tz: string) => boolean = isKnownTimeZone): string | undefined {
  try {
    checkStandard(spec, knownZone);
    return undefined;
  } catch (e) {
    if (e instanceof CronSpecError) return e.message;
    throw e;
  }
}

function checkStandard(spec: string, knownZone: (tz: string) => boolean): void {
  if (spec.length === 0) throw new CronSpecError('empty spec string');
  let s = spec;
  if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
    const i = s.indexOf(' ');
    const eq = s.indexOf('=');
    const zone = i < 0 ? s.slice(eq + 1) : s.slice(eq + 1, i);
    if (!knownZone(zone)) throw new CronSpecError(`provided bad location ${zone}: unknown time zone ${zone}`);
    s = i < 0 ? '' : s.slice(i).trim();
  }
  if (s.startsWith('@')) {
    if (DESCRIPTORS.has(s)) return;
    if (s.startsWith('@every ')) {
      const d = s.slice('@every '.length);
      if (!isGoDuration(d)) throw new CronSpecError(`failed to parse duration ${s}: time: invalid duration ${goQuote(d)}`);
      return;
    }
    throw new CronSpecError(`unrecognized descriptor: ${s}`);
  }
  const fields = s.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new CronSpecError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  fields.forEach((f, i) => {
    for (const expr of f.split(',')) if (expr !== '') checkRange(expr, FIELD_BOUNDS[i]);
  });
}
