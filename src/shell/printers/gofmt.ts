/**
 * How Go formats the JSON values kubectl works on, so that our printers say exactly what
 * kubectl says. kubectl handles objects as `map[string]interface{}` decoded from JSON
 * ("unstructured"): integral numbers are `int64`, other numbers `float64`, objects
 * `map[string]interface {}`, arrays `[]interface {}`, null a nil interface.
 *
 * - `goSprint`  = `fmt.Sprint(v)` / `%v`   (custom-columns cells, jsonpath scalars, messages)
 * - `goSharpV`  = `fmt.Sprintf("%#v", v)`  (the object dump in jsonpath errors)
 * - `goQuote`   = `strconv.Quote`          (`%q`, and strings inside `%#v`)
 * - `goJson`    = `encoding/json.Marshal` / `MarshalIndent` (keys sorted, `<>&` escaped)
 * - `goTypeName` = `reflect.Value.Type().String()` (`float64 is not array or slice`)
 *
 * Sources: Go's fmt/print.go, fmt/format.go, strconv/ftoa.go + quote.go, encoding/json/encode.go
 * + indent.go (Go 1.23, the toolchain kubectl 1.32 is built with).
 */

/** A JSON value as kubectl sees it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** Go int64 range check: JSON integers that fit decode as `int64`, the rest as `float64`. */
export function isGoInt(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Keys of a map in Go's sorted order (fmt and encoding/json sort map keys bytewise). */
function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `strconv.FormatFloat(f, 'g', -1, 64)`, which is what `%v` prints for a float64: the
 * shortest digits, in exponent form when the exponent is < -4 or >= 6 (`1e+06`,
 * `1.2345675e+06`, `1e-05`, `123456.5`, `0.0001`), exponents at least two digits.
 */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  const a = Math.abs(f);
  const [mant, e] = a.toExponential().split('e');
  const exp = parseInt(e, 10);
  if (exp < -4 || exp >= 6) {
    const es = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : `${Math.abs(exp)}`;
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${es}`;
  }
  return sign + String(a);
}

/** `fmt.Sprint` of a number decoded by kubectl: int64 in decimal, float64 as `goFormatFloat`. */
export function goFormatNumber(n: number): string {
  return isGoInt(n) ? BigInt(n).toString() : goFormatFloat(n);
}

/** `fmt.Sprint(v)` (`%v`) of a JSON value: `map[a:1 b:[x y]]`, `<nil>`, strings bare. */
export function goSprint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goFormatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goSprint).join(' ')}]`;
  if (isPlainObject(v)) return `map[${sortedKeys(v).map((k) => `${k}:${goSprint(v[k])}`).join(' ')}]`;
  return String(v);
}

/** Go's `unicode.IsPrint` (letters, marks, numbers, punctuation, symbols, ASCII space). */
function isPrint(cp: number): boolean {
  if (cp === 0x20) return true;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(String.fromCodePoint(cp));
}

const HEX = '0123456789abcdef';

/** `strconv.Quote`: Go-syntax double-quoted string (`\t`, `\"`, `\x01`, `\u2028`, printable Unicode kept). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') {
      out += '\\' + ch;
      continue;
    }
    if (isPrint(cp)) {
      out += ch;
      continue;
    }
    switch (ch) {
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + HEX[cp >> 4] + HEX[cp & 15];
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/**
 * `fmt.Sprintf("%#v", v)` of a JSON value: `map[string]interface {}{"a":1, "b":[]interface {}{"x"}}`,
 * strings via `goQuote`, null `interface {}(nil)`.
 */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goFormatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  if (isPlainObject(v)) return `map[string]interface {}{${sortedKeys(v).map((k) => `${goQuote(k)}:${goSharpV(v[k])}`).join(', ')}}`;
  return String(v);
}

/** Go type name of a decoded JSON value, as `reflect.Type.String()` prints it. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return isGoInt(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** encoding/json string encoding with HTML escaping (the default of `json.Marshal`). */
export function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '<':
      case '>':
      case '&':
        out += '\\u00' + HEX[cp >> 4] + HEX[cp & 15];
        continue;
    }
    if (cp < 0x20) out += '\\u00' + HEX[cp >> 4] + HEX[cp & 15];
    else if (cp === 0x2028 || cp === 0x2029) out += '\\u' + cp.toString(16);
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

/** encoding/json number: int64 in decimal, float64 in `'f'` form unless < 1e-6 or >= 1e21 (`1e-7`, `1e+21`). */
export function goJsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${goFormatFloat(n)}`);
  if (isGoInt(n)) return BigInt(n).toString();
  return String(n);
}

/**
 * `json.Marshal(v)` (indent `''`) or `json.MarshalIndent(v, '', indent)`: map keys sorted,
 * `<`, `>`, `&`, U+2028, U+2029 escaped, empty maps/arrays as `{}` / `[]`. No trailing newline.
 */
export function goJson(v: unknown, indent = ''): string {
  const enc = (x: unknown, depth: number): string => {
    if (x === null || x === undefined) return 'null';
    if (typeof x === 'string') return goJsonString(x);
    if (typeof x === 'number') return goJsonNumber(x);
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    const nl = indent ? '\n' + indent.repeat(depth + 1) : '';
    const end = indent ? '\n' + indent.repeat(depth) : '';
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      return '[' + x.map((e) => nl + enc(e, depth + 1)).join(',') + end + ']';
    }
    if (isPlainObject(x)) {
      const keys = sortedKeys(x);
      if (keys.length === 0) return '{}';
      const sep = indent ? ': ' : ':';
      return '{' + keys.map((k) => nl + goJsonString(k) + sep + enc(x[k], depth + 1)).join(',') + end + '}';
    }
    return 'null';
  };
  return enc(v, 0);
}

/** `%#U` of a rune (parser errors): `U+0023 '#'`, or `U+0009` when not printable. */
export function goRuneU(cp: number): string {
  const hex = cp.toString(16).toUpperCase().padStart(4, '0');
  return isPrint(cp) ? `U+${hex} '${String.fromCodePoint(cp)}'` : `U+${hex}`;
}
