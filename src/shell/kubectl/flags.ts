/**
 * kubectl's command-line parsing: cobra commands over spf13/pflag flag sets, with kubectl's own
 * error wrapping.
 *
 * Mirrors:
 * - github.com/spf13/pflag flag.go (`parseArgs`, `parseLongArg`, `parseSingleShortArg`, `Set`):
 *   `--flag=value`, `--flag value`, `-f value`, `-fvalue`, `-f=value`, combined boolean
 *   shorthands (`-Aw`), `--` ending the flags, flags and arguments interspersed; its errors
 *   (`unknown flag: --foo`, `unknown shorthand flag: 'z' in -z`, `flag needs an argument: --x`,
 *   `invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`);
 *   bool.go, int.go, duration.go, string_slice.go (CSV), string_array.go value parsing;
 * - staging/src/k8s.io/kubectl/pkg/cmd/cmd.go: the flag error function kubectl installs
 *   (`<err>\nSee '<command path> --help' for usage.`, printed by cobra after `Error: `);
 * - github.com/spf13/cobra command.go / args.go: required flags (`required flag(s) "image" not
 *   set`, which kubectl 1.32 logs through klog from `run.go:72`), suggestions for mistyped
 *   commands (Levenshtein distance <= 2 or a prefix).
 */
import { GLOBAL_FLAGS, type FlagDef, type FlagType } from './helpdata';

/** A parsed flag value. */
export type FlagValue = boolean | string | number | string[];

/** A usage error: what cobra prints after `Error: ` (exit 1), plus kubectl's "See ..." line. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

/** The result of parsing one command line (after the command path). */
export interface ParsedFlags {
  /** Positional arguments, in order (flags removed); everything after `--` included. */
  args: string[];
  /** Number of positional arguments before `--` (`ArgsLenAtDash`), -1 when there was no `--`. */
  argsLenAtDash: number;
  /** Flag values by long name (defaults filled in). */
  values: Map<string, FlagValue>;
  /** Long names of the flags given on the command line (`Changed`). */
  changed: Set<string>;
  /** `-h` / `--help` was given. */
  help: boolean;
  /** Every flag as parsed, in order: long name and the raw value (pflag `ParseAll`'s callback). */
  visits: [string, string][];
}

/** `flag.NoOptDefVal` of kubectl flags that accept a bare `--flag` although they take a value. */
const NO_OPT_DEFAULTS: Record<string, string> = {
  'dry-run': 'unchanged',
  cascade: 'background',
};

/** A flag definition compiled for parsing. */
interface Flag {
  name: string;
  shorthand: string;
  type: FlagType;
  def: string;
  noOptDefVal?: string;
}

/** Go's `strconv.ParseBool`. */
function parseBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** Go's `strconv.ParseInt(s, 0, 64)` as pflag's int flags use it. */
function parseGoInt(s: string): number | 'syntax' | 'range' {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO]?[0-7_]*|[1-9][0-9_]*|0)$/.exec(s);
  if (!m) return 'syntax';
  const body = m[2].replace(/_/g, '');
  let n: number;
  if (/^0[xX]/.test(body)) n = parseInt(body.slice(2), 16);
  else if (/^0[bB]/.test(body)) n = parseInt(body.slice(2), 2);
  else if (/^0[oO]/.test(body)) n = parseInt(body.slice(2), 8);
  else if (body.length > 1 && body.startsWith('0')) n = parseInt(body.slice(1), 8);
  else n = parseInt(body, 10);
  if (!Number.isFinite(n)) return 'syntax';
  if (m[1] === '-') n = -n;
  if (Math.abs(n) > 2 ** 63) return 'range';
  return n;
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Go's `time.ParseDuration`, in milliseconds (`30s`, `1m30s`, `1.5h`, `0`). Returns undefined
 * for a malformed value (pflag then reports `time: invalid duration "x"`).
 */
export function parseGoDuration(s: string): number | undefined {
  const r = parseGoDurationOrError(s);
  return typeof r === 'number' ? r : undefined;
}

/**
 * Go's `time.ParseDuration` (src/time/format.go), in milliseconds, or its error text:
 * `time: invalid duration "x"`, `time: missing unit in duration "5"`,
 * `time: unknown unit "x" in duration "5x"`.
 */
export function parseGoDurationOrError(orig: string): number | string {
  let rest = orig;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  const invalid = `time: invalid duration ${goQ(orig)}`;
  if (rest === '') return invalid;
  let total = 0;
  while (rest !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(rest)!;
    const [whole, intPart, frac] = num;
    if (whole === '' || (intPart === '' && (frac === undefined || frac === '.'))) return invalid;
    rest = rest.slice(whole.length);
    const unit = /^[^.0-9]*/.exec(rest)![0];
    if (unit === '') return `time: missing unit in duration ${goQ(orig)}`;
    const ms = DURATION_UNITS[unit === 'μs' ? 'µs' : unit];
    if (ms === undefined) return `time: unknown unit ${goQ(unit)} in duration ${goQ(orig)}`;
    total += Number(`${intPart || '0'}${frac && frac !== '.' ? frac : ''}`) * ms;
    rest = rest.slice(unit.length);
  }
  return sign * total;
}

/** Go's `%q` of a string (for the messages that quote values). */
export function goQ(s: string): string {
  return JSON.stringify(s);
}

function flagDisplayName(f: Flag): string {
  return f.shorthand ? `-${f.shorthand}, --${f.name}` : `--${f.name}`;
}

/** Go's encoding/csv reading of one line, as pflag's string slices split `a,b,"c,d"`. */
function splitCsv(s: string): string[] {
  if (s === '') return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"' && cur === '') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/** The default value of a flag as a parsed value. */
function defaultValue(f: Flag): FlagValue {
  switch (f.type) {
    case 'bool':
      return f.def === 'true';
    case 'int':
      return Number(f.def);
    case 'duration':
      return parseGoDuration(f.def) ?? 0;
    case 'slice':
    case 'array': {
      const inner = f.def.replace(/^\[|\]$/g, '');
      return inner === '' ? [] : inner.split(',');
    }
    default:
      return f.def;
  }
}

/** A set of flags for one command (its own plus the global ones). */
export class FlagSet {
  private byName = new Map<string, Flag>();
  private byShort = new Map<string, Flag>();

  constructor(defs: readonly FlagDef[], extra: readonly FlagDef[] = []) {
    for (const [name, shorthand, type, def] of [...GLOBAL_FLAGS, ...defs, ...extra]) {
      const f: Flag = { name, shorthand, type, def, noOptDefVal: type === 'bool' ? 'true' : NO_OPT_DEFAULTS[name] };
      this.byName.set(name, f);
      if (shorthand) this.byShort.set(shorthand, f);
    }
  }

  /** True when the command has a flag of this long name. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * Parse argv (everything after the command path) as pflag does. Throws `FlagError` with
   * pflag's message. `-h`/`--help` set `help` and stop parsing.
   */
  parse(argv: readonly string[]): ParsedFlags {
    const values = new Map<string, FlagValue>();
    for (const f of this.byName.values()) values.set(f.name, defaultValue(f));
    const changed = new Set<string>();
    const res: ParsedFlags = { args: [], argsLenAtDash: -1, values, changed, help: false, visits: [] };
    const set = (f: Flag, raw: string): void => {
      const fail = (why: string) => new FlagError(`invalid argument ${goQ(raw)} for ${goQ(flagDisplayName(f))} flag: ${why}`);
      let v: FlagValue;
      switch (f.type) {
        case 'bool': {
          const b = parseBool(raw);
          if (b === undefined) throw fail(`strconv.ParseBool: parsing ${goQ(raw)}: invalid syntax`);
          v = b;
          break;
        }
        case 'int': {
          const n = parseGoInt(raw);
          if (n === 'syntax') throw fail(`strconv.ParseInt: parsing ${goQ(raw)}: invalid syntax`);
          if (n === 'range') throw fail(`strconv.ParseInt: parsing ${goQ(raw)}: value out of range`);
          v = n;
          break;
        }
        case 'duration': {
          const d = parseGoDurationOrError(raw);
          if (typeof d === 'string') throw fail(d);
          v = d;
          break;
        }
        case 'slice':
        case 'array': {
          const prev = changed.has(f.name) ? (values.get(f.name) as string[]) : [];
          v = [...prev, ...(f.type === 'slice' ? splitCsv(raw) : [raw])];
          break;
        }
        default:
          v = raw;
      }
      values.set(f.name, v);
      changed.add(f.name);
      res.visits.push([f.name, raw]);
    };

    const args = [...argv];
    while (args.length > 0) {
      const s = args.shift() as string;
      if (s.length === 0 || s[0] !== '-' || s.length === 1) {
        res.args.push(s);
        continue;
      }
      if (s[1] === '-') {
        if (s.length === 2) {
          res.argsLenAtDash = res.args.length;
          res.args.push(...args);
          break;
        }
        let name = s.slice(2);
        if (name[0] === '-' || name[0] === '=') throw new FlagError(`bad flag syntax: ${s}`);
        const eq = name.indexOf('=');
        const inline = eq >= 0 ? name.slice(eq + 1) : undefined;
        if (eq >= 0) name = name.slice(0, eq);
        const f = this.byName.get(name);
        if (!f) {
          if (name === 'help') {
            res.help = true;
            return res;
          }
          throw new FlagError(`unknown flag: --${name}`);
        }
        let value: string;
        if (inline !== undefined) value = inline;
        else if (f.noOptDefVal !== undefined) value = f.noOptDefVal;
        else if (args.length > 0) value = args.shift() as string;
        else throw new FlagError(`flag needs an argument: ${s}`);
        set(f, value);
        continue;
      }
      let shorthands = s.slice(1);
      while (shorthands.length > 0) {
        const c = shorthands[0];
        const f = this.byShort.get(c);
        if (!f) {
          if (c === 'h') {
            res.help = true;
            return res;
          }
          throw new FlagError(`unknown shorthand flag: '${c}' in -${shorthands}`);
        }
        let value: string;
        let next = shorthands.slice(1);
        if (shorthands.length > 2 && shorthands[1] === '=') {
          value = shorthands.slice(2);
          next = '';
        } else if (f.noOptDefVal !== undefined) {
          value = f.noOptDefVal;
        } else if (shorthands.length > 1) {
          value = shorthands.slice(1);
          next = '';
        } else if (args.length > 0) {
          value = args.shift() as string;
        } else {
          throw new FlagError(`flag needs an argument: '${c}' in -${shorthands}`);
        }
        set(f, value);
        shorthands = next;
      }
    }
    return res;
  }
}

/** Typed accessors over parsed flags. */
export class Flags {
  constructor(readonly p: ParsedFlags) {}

  get args(): string[] {
    return this.p.args;
  }

  /** Positional arguments before `--` (-1 when there was no `--`). */
  get argsLenAtDash(): number {
    return this.p.argsLenAtDash;
  }

  str(name: string): string {
    const v = this.p.values.get(name);
    return typeof v === 'string' ? v : v === undefined ? '' : String(v);
  }

  bool(name: string): boolean {
    return this.p.values.get(name) === true;
  }

  int(name: string): number {
    const v = this.p.values.get(name);
    return typeof v === 'number' ? v : 0;
  }

  /** A duration flag, in milliseconds. */
  duration(name: string): number {
    return this.int(name);
  }

  list(name: string): string[] {
    const v = this.p.values.get(name);
    return Array.isArray(v) ? v : [];
  }

  changed(name: string): boolean {
    return this.p.changed.has(name);
  }
}

/** Levenshtein distance, case-insensitive (cobra's `ld(s, t, ignoreCase=true)`). */
function levenshtein(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      d[i][j] = a[i - 1] === b[j - 1] ? d[i - 1][j - 1] : Math.min(d[i - 1][j], d[i][j - 1], d[i - 1][j - 1]) + 1;
    }
  }
  return d[a.length][b.length];
}

/**
 * cobra's `SuggestionsFor`: commands within Levenshtein distance 2, or whose name starts with
 * what was typed, or that list it in `SuggestFor`; in the order the commands were added.
 */
export function suggestionsFor(typed: string, commands: readonly string[], suggestFor: Record<string, string[]> = {}): string[] {
  const out: string[] = [];
  for (const c of commands) {
    const close = levenshtein(typed, c) <= 2 || c.toLowerCase().startsWith(typed.toLowerCase());
    const listed = (suggestFor[c] ?? []).includes(typed);
    if ((close || listed) && !out.includes(c)) out.push(c);
  }
  return out;
}
