/**
 * Resource quantities (`500m`, `128Mi`, `1Gi`, `1e3`, `2`), parsed and printed as apimachinery
 * does. Source: staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go (`ParseQuantity`,
 * `parseQuantityString`, `CanonicalizeBytes`) and suffix.go (the suffixer).
 *
 * Units: a parsed quantity is a plain number in **base units**: cores for cpu (`500m` -> 0.5),
 * bytes for memory and storage (`128Mi` -> 134217728), a count for anything else.
 * Precision: JavaScript doubles. Quantities a cluster uses (milli-cores, bytes up to petabytes)
 * are exact or within one part in 10^15; the real type is arbitrary precision.
 */
import { ApiError, errors } from './errors';

/** How a quantity was written, which decides how it prints back (`Quantity.Format`). */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/**
 * The message of `resource.ErrFormatWrong` (quantity.go). The regex is `splitREString`.
 * The API server wraps it on decode: `Pod in version "v1" cannot be handled as a Pod: <this>`.
 */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** The message of `resource.ErrSuffix` (quantity.go), e.g. for `1K` or `5mi`. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** A parsed quantity: its value in base units and the format it was written in. */
export interface ParsedQuantity {
  value: number;
  format: QuantityFormat;
}

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const SUFFIX_CHARS = 'eEinumkKMGTP';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** `10^e` computed so that negative exponents divide (0.1 stays 0.1, not 0.1000000001). */
function scale10(mantissa: number, e: number): number {
  return e >= 0 ? mantissa * 10 ** e : mantissa / 10 ** -e;
}

/**
 * Parse a quantity, keeping its format. Mirrors `ParseQuantity`: optional sign, digits with at
 * most one `.`, then a suffix that is a decimal SI prefix (`n u m k M G T P E`), a binary one
 * (`Ki Mi Gi Ti Pi Ei`) or an exponent (`e3`, `E-2`). A JSON number is taken as is (DecimalSI).
 *
 * Errors: throws `ApiError` (400 BadRequest) whose message is the Go error text:
 * `QUANTITY_FORMAT_ERROR` for a malformed string (empty, `abc`, `1.2.3`, `1Gb`) and
 * `QUANTITY_SUFFIX_ERROR` for a well-formed but unknown suffix (`1K`, `5mi`).
 */
export function parseQuantityFull(s: string | number): ParsedQuantity {
  if (typeof s !== 'string') return parseQuantityUncached(s);
  // Memoised by string (performance only: a pure function; every kubelet admission and pod
  // validation parses the same few quantities). Invalid strings are not kept: they throw anew.
  let q = parsedQuantities.get(s);
  if (q === undefined) {
    q = parseQuantityUncached(s);
    if (parsedQuantities.size >= PARSED_QUANTITIES_MAX) parsedQuantities.clear();
    parsedQuantities.set(s, q);
  }
  return { value: q.value, format: q.format };
}

/** Valid quantity strings parsed so far (see `parseQuantityFull`). */
const parsedQuantities = new Map<string, ParsedQuantity>();
/** Most entries kept in `parsedQuantities` (cleared when full). */
const PARSED_QUANTITIES_MAX = 4096;

/** `parseQuantityFull` without the memo. */
function parseQuantityUncached(s: string | number): ParsedQuantity {
  if (typeof s === 'number') {
    if (!Number.isFinite(s)) throw errors.badRequest(QUANTITY_FORMAT_ERROR);
    return { value: s, format: 'DecimalSI' };
  }
  if (typeof s !== 'string' || s.length === 0) throw errors.badRequest(QUANTITY_FORMAT_ERROR);
  if (s === '0') return { value: 0, format: 'DecimalSI' };
  // parseQuantityString: sign, numerator, optional denominator, suffix letters, signed digits.
  let pos = 0;
  const end = s.length;
  let negative = false;
  if (s[0] === '-') {
    negative = true;
    pos++;
  } else if (s[0] === '+') pos++;
  const numStart = pos;
  while (pos < end && isDigit(s[pos])) pos++;
  if (pos < end && s[pos] === '.') {
    pos++;
    while (pos < end && isDigit(s[pos])) pos++;
  }
  const numberPart = s.slice(numStart, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(s[pos])) pos++;
  if (pos < end && (s[pos] === '-' || s[pos] === '+')) pos++;
  while (pos < end && isDigit(s[pos])) pos++;
  if (pos < end) throw errors.badRequest(QUANTITY_FORMAT_ERROR);
  const suffix = s.slice(suffixStart);
  // An all-empty numerator ("." or "Mi") parses as 0 in Go.
  const mantissa = numberPart === '' || numberPart === '.' ? 0 : Number(numberPart);
  if (!Number.isFinite(mantissa)) throw errors.badRequest(QUANTITY_FORMAT_ERROR);
  let value: number;
  let format: QuantityFormat;
  if (suffix in DECIMAL_SUFFIXES) {
    value = scale10(mantissa, DECIMAL_SUFFIXES[suffix]);
    format = 'DecimalSI';
  } else if (suffix in BINARY_SUFFIXES) {
    value = mantissa * 2 ** BINARY_SUFFIXES[suffix];
    format = 'BinarySI';
  } else if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[eE][-+]?[0-9]+$/.test(suffix)) {
    value = scale10(mantissa, Number(suffix.slice(1)));
    format = 'DecimalExponent';
  } else {
    throw errors.badRequest(QUANTITY_SUFFIX_ERROR);
  }
  return { value: negative ? -value : value, format };
}

/**
 * Parse a quantity to a number in base units (`500m` -> 0.5, `128Mi` -> 134217728, `1e3` -> 1000,
 * `1k` -> 1000). Throws `ApiError` 400 with the quantity.go message when invalid.
 */
export function parseQuantity(s: string | number): number {
  return parseQuantityFull(s).value;
}

/** True when `s` parses as a quantity. */
export function isValidQuantity(s: unknown): boolean {
  if (typeof s !== 'string' && typeof s !== 'number') return false;
  try {
    parseQuantityFull(s);
    return true;
  } catch (e) {
    if (e instanceof ApiError) return false;
    throw e;
  }
}

function nearInteger(x: number): boolean {
  return Math.abs(x - Math.round(x)) <= 1e-9 * Math.max(1, Math.abs(x));
}

/**
 * Print a value (base units) in canonical form, as `Quantity.String()` does
 * (`CanonicalizeBytes`): DecimalSI picks the largest SI prefix (multiple of 3) that leaves an
 * integer mantissa (0.5 -> `500m`, 1.5 -> `1500m`, 2000 -> `2k`, 1500 -> `1500`); BinarySI picks
 * the largest power of 1024 (134217728 -> `128Mi`, 1610612736 -> `1536Mi`) and falls back to
 * DecimalSI below 1024 or for fractions; DecimalExponent prints `e<exp>` (1000 -> `1e3`).
 * Values finer than a nano-unit round up, as Go's rounding to scale -9 does. Zero is `0`.
 */
export function formatQuantity(value: number, format: QuantityFormat = 'DecimalSI'): string {
  if (value === 0 || !Number.isFinite(value)) return '0';
  const sign = value < 0 ? '-' : '';
  const v = Math.abs(value);
  if (format === 'BinarySI' && v >= 1024 && Number.isInteger(v)) {
    let m = v;
    let i = 0;
    const suffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
    while (i < 6 && m % 1024 === 0) {
      m /= 1024;
      i++;
    }
    return `${sign}${m}${suffixes[i]}`;
  }
  for (let e = 18; e >= -9; e -= 3) {
    const m = scale10(v, -e);
    if (m >= 1 && nearInteger(m)) return `${sign}${Math.round(m)}${suffixFor(e, format)}`;
  }
  return `${sign}${Math.ceil(v * 1e9 - 1e-6)}${suffixFor(-9, format)}`;
}

function suffixFor(e: number, format: QuantityFormat): string {
  if (format === 'DecimalExponent') return e === 0 ? '' : `e${e}`;
  for (const [k, x] of Object.entries(DECIMAL_SUFFIXES)) if (x === e) return k;
  return '';
}

/**
 * The canonical string of a quantity as written (`0.5` -> `500m`, `1024Mi` -> `1Gi`,
 * `2000m` -> `2`). What the API server prints in messages such as
 * `must be less than or equal to cpu limit of 500m`. Throws like `parseQuantity`.
 */
export function canonicalQuantity(s: string | number): string {
  const q = parseQuantityFull(s);
  return formatQuantity(q.value, q.format);
}
