/**
 * Reading and printing manifests the way kubectl does.
 *
 * Reading (`parseManifests`) follows `kubectl apply -f`: the stream is JSON if it starts with
 * `{`, otherwise YAML split into documents on `---` lines
 * (staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go `YAMLReader`, `YAMLOrJSONDecoder`),
 * each document converted to JSON with go-yaml v2's YAML 1.1 rules (sigs.k8s.io/yaml
 * `YAMLToJSON`: `yes`/`no`/`on`/`off` are booleans, `0777` is octal, timestamps stay strings),
 * empty documents skipped, `kind: List` flattened, and each object checked for `apiVersion` and
 * `kind` (staging/src/k8s.io/kubectl/pkg/validation/schema.go). Errors carry kubectl's wording.
 * The `yaml` library does the parsing; this module resolves scalars itself.
 *
 * Printing (`toYaml`) follows `kubectl get -o yaml`: `sigs.k8s.io/yaml.Marshal` = JSON, then
 * go-yaml v2 `Marshal` (gopkg.in/yaml.v2 encode.go, emitterc.go, sorter.go): keys sorted with
 * go-yaml's natural order, sequences not indented under their key, strings quoted only when
 * needed (`"80"`, `"true"`, `'*'`), multi-line strings as `|` blocks, long lines folded at 80
 * columns.
 */
import { type Alias, isAlias, isMap as isYamlMap, isScalar, isSeq, parseAllDocuments, type Document, type Node, type Pair } from 'yaml';
import { deepCopy, type KubeObject } from './types';
import { BOOT_PARSES } from './yaml-boot-parses';

// ------------------------------------------------------------------------------------------
// Limits
// ------------------------------------------------------------------------------------------

/** kube-apiserver's maximum request body, 3 MiB (`MaxRequestBodyBytes`, apiserver options). */
export const MAX_MANIFEST_BYTES = 3 * 1024 * 1024;
/** Maximum nesting of maps and lists in one document (ours; go-yaml v3 and encoding/json allow 10000). */
export const MAX_DEPTH = 100;
/** Maximum number of documents in one paste or file (ours; kubectl has no limit). */
export const MAX_DOCUMENTS = 1000;

/**
 * One document (or one `List` item) read from a manifest stream: the object, or the error
 * kubectl prints for it (`StreamVisitor.Visit`, staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go).
 */
export interface ParsedDoc {
  /** The object, when the document parsed and validated. */
  object?: KubeObject;
  /** The error kubectl would print for this document (`error: ...`), when it did not. */
  error?: string;
  /** 1-based line in the text where the document (or List item) starts. */
  line: number;
  /** 1-based line of the error in the whole text (the message counts from the document start, as kubectl does). */
  errorLine?: number;
}

/** What a reader needs to map a ParsedDoc back to the text (kept for `findLineOfPath`). */
interface DocSource {
  node?: Node;
  lines: LineIndex;
  /** Offset of the chunk in the whole text. */
  base: number;
}

// ------------------------------------------------------------------------------------------
// Line index
// ------------------------------------------------------------------------------------------

/** Offsets of line starts; `lineOf(offset)` is 1-based. */
class LineIndex {
  private starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

/** UTF-8 length of a string, without allocating. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// ------------------------------------------------------------------------------------------
// go-yaml v2 scalar resolution
// ------------------------------------------------------------------------------------------

const BOOL_NULL: Record<string, boolean | null> = {};
for (const s of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) BOOL_NULL[s] = true;
for (const s of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) BOOL_NULL[s] = false;
for (const s of ['', '~', 'null', 'Null', 'NULL']) BOOL_NULL[s] = null;
const SPECIAL_FLOATS: Record<string, number> = {
  '.nan': NaN,
  '.NaN': NaN,
  '.NAN': NaN,
  '.inf': Infinity,
  '.Inf': Infinity,
  '.INF': Infinity,
  '+.inf': Infinity,
  '+.Inf': Infinity,
  '+.INF': Infinity,
  '-.inf': -Infinity,
  '-.Inf': -Infinity,
  '-.INF': -Infinity,
};
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** Go's `strconv.ParseInt(s, 0, 64)` / `ParseUint`: sign, `0x`/`0o`/`0b`/leading-`0` prefixes. */
function parseGoInt(s: string): number | undefined {
  let t = s;
  let neg = false;
  if (t.startsWith('+') || t.startsWith('-')) {
    neg = t[0] === '-';
    t = t.slice(1);
  }
  let re = /^[0-9]+$/;
  let base = 10;
  if (/^0[xX]/.test(t)) {
    base = 16;
    t = t.slice(2);
    re = /^[0-9a-fA-F]+$/;
  } else if (/^0[oO]/.test(t)) {
    base = 8;
    t = t.slice(2);
    re = /^[0-7]+$/;
  } else if (/^0[bB]/.test(t)) {
    base = 2;
    t = t.slice(2);
    re = /^[01]+$/;
  } else if (t.length > 1 && t[0] === '0') {
    base = 8;
    t = t.slice(1);
    re = /^[0-7]+$/;
  }
  if (!re.test(t)) return undefined;
  const v = parseInt(t, base);
  if (v >= 2 ** 64 || (neg && v > 2 ** 63)) return undefined;
  return neg ? -v : v;
}

/** A plain (unquoted) scalar as go-yaml v2 `resolve("", s)` reads it: bool, null, int, float or string. */
function resolvePlain(s: string): unknown {
  if (s in BOOL_NULL) return BOOL_NULL[s];
  const c = s[0];
  if (s in SPECIAL_FLOATS) return SPECIAL_FLOATS[s];
  if (c === '.') {
    const f = Number(s);
    return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(f) ? f : s;
  }
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    const plain = s.replace(/_/g, '');
    const i = parseGoInt(plain);
    if (i !== undefined) return i;
    if (YAML_STYLE_FLOAT.test(plain)) return Number(plain);
  }
  return s;
}

/** go-yaml's `parseTimestamp` shape check (layouts `2006-1-2`, `2006-1-2T15:4:5.999999999Z07:00`, `2006-1-2 15:4:5`). */
function isTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?))?$/.exec(s);
  if (!m) return false;
  const month = +m[2];
  const day = +m[3];
  const year = +m[1];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]) return false;
  const h = m[4] ?? m[7];
  if (h !== undefined) {
    const min = m[5] ?? m[8];
    const sec = m[6] ?? m[9];
    if (+h > 23 || +min > 59 || +sec > 59) return false;
  }
  return true;
}

/** True when go-yaml would print `s` without quotes' help, i.e. it reads back as a string. */
function resolvesToString(s: string): boolean {
  if (s in BOOL_NULL || s in SPECIAL_FLOATS) return false;
  const c = s[0];
  if (c === '+' || c === '-' || c === '.' || (c >= '0' && c <= '9')) {
    if (typeof resolvePlain(s) !== 'string') return false;
    if (isTimestamp(s)) return false;
    if (BASE60_FLOAT.test(s)) return false;
  }
  return true;
}

// ------------------------------------------------------------------------------------------
// YAML AST -> JSON
// ------------------------------------------------------------------------------------------

/** A conversion failure: kubectl's message tail and the offset it refers to. */
class ConvertError extends Error {
  constructor(
    message: string,
    readonly offset?: number,
    /** A parser error: go-yaml prints the line before the problem. */
    readonly parserError = false,
  ) {
    super(message);
  }
}

interface Converted {
  value: unknown;
  /** Nodes decoded to build the value (go-yaml `decodeCount` units). */
  size: number;
  /** Nesting height of the value. */
  height: number;
}

/** go-yaml v2 `allowedAliasRatio` (decode.go), its defence against "billion laughs" documents. */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400000;
  const high = 4000000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - low) / (high - low));
}

class Converter {
  decodeCount = 0;
  aliasCount = 0;
  private memo = new Map<Node, Converted>();
  private active = new Set<Node>();
  constructor(private doc: Document) {}

  convert(node: Node | null | undefined, depth: number): Converted {
    if (depth > MAX_DEPTH) throw new ConvertError(`exceeded max depth of ${MAX_DEPTH}`, node?.range?.[0]);
    this.decodeCount++;
    if (node === null || node === undefined) return { value: null, size: 1, height: 0 };
    if (isAlias(node)) return this.alias(node, depth);
    const anchored = (node as { anchor?: string }).anchor;
    if (anchored) this.active.add(node);
    const before = this.decodeCount;
    let r: Converted;
    if (isScalar(node)) r = { value: scalarValue(node as ScalarLike), size: 1, height: 0 };
    else if (isYamlMap(node)) r = this.map(node.items as Pair[], depth);
    else if (isSeq(node)) {
      const out: unknown[] = [];
      let height = 0;
      for (const item of node.items) {
        const c = this.convert(item as Node, depth + 1);
        out.push(c.value);
        height = Math.max(height, c.height + 1);
      }
      r = { value: out, size: 1, height: Math.max(height, 1) };
    } else r = { value: null, size: 1, height: 0 };
    r.size = this.decodeCount - before + 1;
    if (anchored) {
      this.active.delete(node);
      this.memo.set(node, r);
    }
    return r;
  }

  private alias(node: Alias, depth: number): Converted {
    const target = node.resolve(this.doc) as Node | undefined;
    if (!target) throw new ConvertError(`unknown anchor '${node.source}' referenced`);
    if (this.active.has(target)) throw new ConvertError(`anchor '${node.source}' value contains itself`);
    let c = this.memo.get(target);
    if (!c) c = this.convert(target, depth);
    else {
      if (depth + c.height > MAX_DEPTH) throw new ConvertError(`exceeded max depth of ${MAX_DEPTH}`, node.range?.[0]);
      this.decodeCount += c.size;
    }
    this.aliasCount += c.size;
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      throw new ConvertError('document contains excessive aliasing');
    }
    return { value: structuredJsonCopy(c.value), size: c.size, height: c.height };
  }

  private map(pairs: Pair[], depth: number): Converted {
    const out: Record<string, unknown> = {};
    let height = 1;
    for (const pair of pairs) {
      const keyNode = pair.key as Node | null;
      if (keyNode && isScalar(keyNode) && keyNode.type === 'PLAIN' && keyNode.value === '<<' && !keyNode.tag) {
        const c = this.convert(pair.value as Node, depth + 1);
        this.merge(out, c.value, pair.value as Node);
        height = Math.max(height, c.height);
        continue;
      }
      if (keyNode === null || (isScalar(keyNode) && keyNode.type === 'PLAIN' && keyNode.value === '' && !keyNode.tag)) {
        // `: value` with no key: a libyaml parser error.
        throw new ConvertError('did not find expected key', (pair.value as Node | null)?.range?.[0] ?? keyNode?.range?.[0], true);
      }
      const k = this.convert(keyNode, depth + 1);
      const key = mapKey(k.value, keyNode);
      const v = this.convert(pair.value as Node | null, depth + 1);
      out[key] = v.value;
      height = Math.max(height, v.height + 1);
    }
    return { value: out, size: 1, height };
  }

  /** `<<` merge keys (go-yaml v2 `d.merge`): a map, or a list of maps with earlier ones winning. */
  private merge(out: Record<string, unknown>, v: unknown, node: Node): void {
    void node;
    const bad = () => new ConvertError('map merge requires map or sequence of maps as the value');
    if (isPlainObject(v)) {
      Object.assign(out, v);
      return;
    }
    if (!Array.isArray(v)) throw bad();
    for (let i = v.length - 1; i >= 0; i--) {
      if (!isPlainObject(v[i])) throw bad();
      Object.assign(out, v[i]);
    }
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function structuredJsonCopy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(structuredJsonCopy);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = structuredJsonCopy(x);
  return out;
}

/** The JSON value of a scalar node: quoted and block scalars are strings, plain ones resolved, `!!tags` honoured. */
interface ScalarLike {
  value: unknown;
  type?: string | null;
  tag?: string;
  range?: [number, number, number] | null;
}

function scalarValue(node: ScalarLike): unknown {
  const s = String(node.value ?? '');
  const tag = node.tag;
  if (tag) {
    const short = tag.replace(/^tag:yaml\.org,2002:/, '!!');
    if (short === '!!str' || short === '!!binary') return s;
    if (short === '!!null') return null;
    if (short === '!!bool' || short === '!!int' || short === '!!float') {
      const v = resolvePlain(s);
      const ok = short === '!!bool' ? typeof v === 'boolean' : typeof v === 'number' && (short === '!!float' || Number.isInteger(v));
      if (!ok) throw new ConvertError(`cannot decode ${typeof v === 'string' ? `!!str \`${s}\`` : `"${s}"`} as a ${short}`, node.range?.[0]);
      return v;
    }
  }
  if (node.type !== 'PLAIN' || tag) return s;
  return resolvePlain(s);
}

/** sigs.k8s.io/yaml `convertToJSONableObject`: map keys become strings. */
function mapKey(k: unknown, node: Node | null): string {
  if (typeof k === 'string') return k;
  if (typeof k === 'number') {
    if (Number.isInteger(k)) return String(k);
    if (Number.isNaN(k)) return '.nan';
    if (!Number.isFinite(k)) return k > 0 ? '.inf' : '-.inf';
    return formatGoFloat(k);
  }
  if (typeof k === 'boolean') return k ? 'true' : 'false';
  const t = k === null ? '<nil>' : Array.isArray(k) ? '[]interface {}' : 'map[interface {}]interface {}';
  throw new ConvertError(`unsupported map key of type: ${t}`, node?.range?.[0]);
}

/** Check that every number is finite (`json: unsupported value: +Inf`). */
function checkFinite(v: unknown): void {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new ConvertError(`json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`);
  } else if (Array.isArray(v)) v.forEach(checkFinite);
  else if (v !== null && typeof v === 'object') Object.values(v).forEach(checkFinite);
}

// ------------------------------------------------------------------------------------------
// YAML errors in go-yaml's words
// ------------------------------------------------------------------------------------------

/** go-yaml's message for an error, and how its line is counted. */
interface GoYamlError {
  message: string;
  /** True 1-based line (within the document) of the problem. */
  line: number;
  /**
   * The line go-yaml prints: parser errors print the 0-based line of the problem (one less than
   * the true line; 0 means no `line N: ` prefix), scanner errors the 1-based line.
   */
  printed: number;
}

function indentOf(l: string): number {
  return l.length - l.trimStart().length;
}
function isContent(l: string): boolean {
  const t = l.trim();
  return t.length > 0 && !t.startsWith('#');
}
function isSeqEntry(l: string): boolean {
  return /^-( |$)/.test(l.trimStart());
}

/**
 * What libyaml's parser expected when a line at the wrong indentation arrived: the innermost
 * open block collection decides. A block sequence wants `-` (`did not find expected '-'
 * indicator`); a mapping, or a sequence written at its key's column (indentless), a key.
 */
function expectedAt(lines: string[], errIdx: number): string {
  const c = indentOf(lines[errIdx] ?? '');
  for (let i = errIdx - 1; i >= 0; i--) {
    if (!isContent(lines[i])) continue;
    const ind = indentOf(lines[i]);
    if (ind > c) continue;
    if (!isSeqEntry(lines[i])) return 'did not find expected key';
    for (let j = i - 1; j >= 0; j--) {
      if (!isContent(lines[j])) continue;
      const jnd = indentOf(lines[j]);
      if (jnd > ind || (jnd === ind && isSeqEntry(lines[j]))) continue;
      return jnd === ind ? 'did not find expected key' : "did not find expected '-' indicator";
    }
    return "did not find expected '-' indicator";
  }
  return 'did not find expected key';
}

/**
 * Translate a `yaml` library error into go-yaml v2's wording and line (scannerc.go /
 * parserc.go messages, and `parser.fail()`'s line arithmetic).
 */
function goYamlError(code: string, message: string, offset: number, text: string, index: LineIndex): GoYamlError {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const lines = text.split('\n');
  let line = index.lineOf(offset);
  const scanner = (msg: string, l = line): GoYamlError => ({ message: msg, line: l, printed: l });
  const parser = (msg: string): GoYamlError => ({ message: msg, line, printed: line - 1 });
  const atContent = () => {
    while (line <= lines.length && !isContent(lines[line - 1] ?? '')) line++;
  };
  switch (code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      if (/Nested mappings/.test(first)) return scanner('mapping values are not allowed in this context');
      atContent();
      return parser(expectedAt(lines, line - 1));
    case 'TAB_AS_INDENT':
    case 'BAD_SCALAR_START':
      return scanner('found character that cannot start any token');
    case 'MULTILINE_IMPLICIT_KEY':
      return scanner("could not find expected ':'", line + 1);
    case 'BAD_ALIAS':
      return scanner('did not find expected alphabetic or numeric character');
    case 'BAD_DQ_ESCAPE':
      return scanner('found unknown escape character');
    case 'MISSING_CHAR':
      if (/quote/.test(first)) return scanner('found unexpected end of stream');
      if (/followed by map values/.test(first)) return scanner("could not find expected ':'", line + 1);
      atContent();
      return parser(expectedAt(lines, line - 1));
    case 'BAD_INDENT':
      if (/Flow sequence/.test(first)) return parser("did not find expected ',' or ']'");
      if (/Flow map/.test(first)) return parser("did not find expected ',' or '}'");
      atContent();
      return parser(expectedAt(lines, line - 1));
    case 'UNEXPECTED_TOKEN':
      if (/block-seq-ind on same line/.test(first)) return scanner('block sequence entries are not allowed in this context');
      atContent();
      return parser(expectedAt(lines, line - 1));
    default:
      if (/call stack/i.test(first)) return scanner(`exceeded max depth of ${MAX_DEPTH}`);
      return scanner(first.charAt(0).toLowerCase() + first.slice(1));
  }
}

// ------------------------------------------------------------------------------------------
// JSON streams (Go encoding/json wording)
// ------------------------------------------------------------------------------------------

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Go's `quoteChar` for scanner messages. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

/**
 * A small JSON reader for a stream of values with encoding/json's syntax error messages
 * (`invalid character 'x' looking for beginning of object key string`, ...).
 */
class JsonReader {
  pos = 0;
  constructor(private s: string) {}

  private ws(): void {
    while (this.pos < this.s.length && ' \t\r\n'.includes(this.s[this.pos])) this.pos++;
  }
  private fail(context: string): never {
    if (this.pos >= this.s.length) throw new JsonSyntaxError('unexpected EOF', this.pos);
    throw new JsonSyntaxError(`invalid character ${quoteChar(this.s[this.pos])} ${context}`, this.pos);
  }
  atEnd(): boolean {
    this.ws();
    return this.pos >= this.s.length;
  }
  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError(`exceeded max depth of ${MAX_DEPTH}`, this.pos);
    this.ws();
    const c = this.s[this.pos];
    if (c === '{') {
      this.pos++;
      const out: Record<string, unknown> = {};
      this.ws();
      if (this.s[this.pos] === '}') {
        this.pos++;
        return out;
      }
      for (;;) {
        this.ws();
        if (this.s[this.pos] !== '"') this.fail('looking for beginning of object key string');
        const k = this.string();
        this.ws();
        if (this.s[this.pos] !== ':') this.fail('after object key');
        this.pos++;
        out[k] = this.value(depth + 1);
        this.ws();
        if (this.s[this.pos] === ',') {
          this.pos++;
          continue;
        }
        if (this.s[this.pos] === '}') {
          this.pos++;
          return out;
        }
        this.fail('after object key:value pair');
      }
    }
    if (c === '[') {
      this.pos++;
      const out: unknown[] = [];
      this.ws();
      if (this.s[this.pos] === ']') {
        this.pos++;
        return out;
      }
      for (;;) {
        out.push(this.value(depth + 1));
        this.ws();
        if (this.s[this.pos] === ',') {
          this.pos++;
          continue;
        }
        if (this.s[this.pos] === ']') {
          this.pos++;
          return out;
        }
        this.fail('after array element');
      }
    }
    if (c === '"') return this.string();
    for (const [lit, val] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (c === lit[0]) {
        for (let i = 1; i < lit.length; i++) {
          this.pos++;
          if (this.s[this.pos] !== lit[i]) this.fail(`in literal ${lit} (expecting ${quoteChar(lit[i])})`);
        }
        this.pos++;
        return val;
      }
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(this.s.slice(this.pos, this.pos + 400));
      if (!m || m[0] === '-') {
        this.pos++;
        this.fail('in numeric literal');
      }
      this.pos += m[0].length;
      return Number(m[0]);
    }
    this.fail('looking for beginning of value');
  }
  private string(): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      if (this.pos >= this.s.length) throw new JsonSyntaxError('unexpected EOF', this.pos);
      const c = this.s[this.pos];
      if (c === '"') break;
      if (c < ' ') this.fail('in string literal');
      if (c === '\\') {
        this.pos++;
        const e = this.s[this.pos];
        if (e === 'u') {
          for (let i = 0; i < 4; i++) {
            this.pos++;
            if (!/[0-9a-fA-F]/.test(this.s[this.pos] ?? '')) this.fail('in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(e ?? 'x')) this.fail('in string escape code');
      }
      this.pos++;
    }
    this.pos++;
    return JSON.parse(this.s.slice(start, this.pos)) as string;
  }
}

// ------------------------------------------------------------------------------------------
// parseManifests
// ------------------------------------------------------------------------------------------

const VALIDATE_HINT = 'if you choose to ignore these errors, turn validation off with --validate=false';

/** A parse result plus where each object came from, for `findLineOfPath`. */
interface ParseState {
  docs: ParsedDoc[];
  sources: DocSource[];
  /** Taken from `BOOT_PARSES` (no source positions: `findLineOfPath` parses the text itself). */
  precomputed?: true;
}

/**
 * The last parses, newest last (performance only: the same manifests are read again and again,
 * e.g. each kubelet's config and kubeadm's objects while a cluster boots, or `kubectl apply -f` of
 * one file). Callers get copies of the objects, so a caller that changes what it got cannot
 * change what a later parse returns.
 */
const recentParses: { text: string; source: string; state: ParseState }[] = [];
/** How many parses `recentParses` keeps. */
const RECENT_PARSES_MAX = 16;

/**
 * Read what a user pastes or `kubectl apply -f` reads: several YAML documents separated by
 * `---` lines, or a JSON object (or a stream of them). Empty documents (only comments, a
 * trailing `---`, `null`) are skipped; `kind: List` documents are replaced by their items.
 * Each result is `{ object, line }` or `{ error, line, errorLine }`; reading stops at the first
 * error, as kubectl does (documents before it are still returned, and kubectl applies them).
 * Error texts (kubectl's, with `error: ` prefix; `source` is the file name, default `STDIN`):
 * - YAML syntax: `error: error parsing <source>: error converting YAML to JSON: yaml: line N: <msg>`
 *   (N counted from the start of the document, go-yaml's wording for the common mistakes);
 * - JSON syntax: `error: error parsing <source>: json: line N: invalid character ...`;
 * - `error: error validating "<source>": error validating data: kind not set; if you choose to
 *   ignore these errors, turn validation off with --validate=false` (also `apiVersion not set`,
 *   both as `[apiVersion not set, kind not set]`);
 * - over 3 MiB: `Error from server (RequestEntityTooLarge): Request entity too large: limit is 3145728`;
 * - more than 1000 documents, nesting deeper than 100, alias bombs (`yaml: document contains
 *   excessive aliasing`): refused before any object is returned.
 */
export function parseManifests(text: string, source = 'STDIN'): ParsedDoc[] {
  return parseState(text, source).docs.map((d) => (d.object ? { ...d, object: deepCopy(d.object) } : { ...d }));
}

/** The parse of `text` read as `source` (the cached one when recent; shared: do not change it). */
function parseState(text: string, source: string): ParseState {
  for (let i = recentParses.length - 1; i >= 0; i--) {
    const e = recentParses[i];
    if (e.text === text && e.source === source) return e.state;
  }
  const state = precomputedParse(text, source) ?? parseUncached(text, source);
  if (recentParses.length >= RECENT_PARSES_MAX) recentParses.shift();
  recentParses.push({ text, source, state });
  return state;
}

/** `BOOT_PARSES` by text, built on first use. */
let precomputedByText: Map<string, (typeof BOOT_PARSES)[number][]> | undefined;

/**
 * The parse of `text` read as `source` from `BOOT_PARSES` (the texts every default boot reads,
 * parsed at build time by scripts/gen-boot-parses.ts), or undefined when the text is not one of
 * them. Performance only: the objects equal a fresh parse (src/engine/api/yaml-boot-parses.test.ts).
 */
function precomputedParse(text: string, source: string): ParseState | undefined {
  if (!precomputedByText) {
    precomputedByText = new Map();
    for (const e of BOOT_PARSES) {
      const list = precomputedByText.get(e.text);
      if (list) list.push(e);
      else precomputedByText.set(e.text, [e]);
    }
  }
  const hit = precomputedByText.get(text)?.find((e) => e.source === source);
  // Shared, as every ParseState is: parseManifests hands out copies.
  return hit ? { docs: hit.docs, sources: [], precomputed: true } : undefined;
}

/**
 * The texts (with their source names) of the parses still kept, oldest first. For
 * scripts/gen-boot-parses.ts and its test, which record what a boot reads.
 */
export function recentParseInputs(): { text: string; source: string }[] {
  return recentParses.map((e) => ({ text: e.text, source: e.source }));
}

/**
 * `parseManifests` without any cache or precomputed table: always runs the parser. For
 * scripts/gen-boot-parses.ts and the test that checks `BOOT_PARSES` against the parser.
 */
export function parseManifestsFresh(text: string, source = 'STDIN'): ParsedDoc[] {
  return parseUncached(text, source).docs;
}

/** The most recent parse of `text` under any source name, if still kept. */
function recentParseOf(text: string): ParseState | undefined {
  for (let i = recentParses.length - 1; i >= 0; i--) if (recentParses[i].text === text) return recentParses[i].state;
  return undefined;
}

function tooLarge(text: string): boolean {
  if (text.length > MAX_MANIFEST_BYTES) return true;
  if (text.length * 3 <= MAX_MANIFEST_BYTES) return false;
  return utf8Length(text) > MAX_MANIFEST_BYTES;
}

function parseUncached(text: string, source: string): ParseState {
  const lines = new LineIndex(text);
  const state: ParseState = { docs: [], sources: [] };
  const fatal = (error: string, line = 1): ParseState => ({ docs: [{ error, line, errorLine: line }], sources: [{ lines, base: 0 }] });
  if (tooLarge(text)) return fatal(`Error from server (RequestEntityTooLarge): Request entity too large: limit is ${MAX_MANIFEST_BYTES}`);
  const parseErr = (msg: string) => `error: error parsing ${source}: ${msg}`;

  if (/^\s*\{/.test(text)) return parseJsonStream(text, source, lines, parseErr);

  const chunks = splitDocuments(text);
  if ('error' in chunks) return fatal(parseErr(chunks.error), chunks.line);
  const nonEmpty = chunks.filter((c) => /^[ \t]*[^#\s]/m.test(c.text));
  if (nonEmpty.length > MAX_DOCUMENTS) return fatal(`error: error parsing ${source}: too many documents: ${nonEmpty.length} (the limit is ${MAX_DOCUMENTS})`);

  for (const chunk of chunks) {
    const chunkLines = new LineIndex(chunk.text);
    const absLine = (offset: number) => chunk.line + chunkLines.lineOf(offset) - 1;
    const report = (message: string, trueLine: number | undefined, printed: number | undefined) => {
      const where = printed ? `line ${printed}: ` : '';
      return { error: parseErr(`error converting YAML to JSON: yaml: ${where}${message}`), errorLine: trueLine === undefined ? chunk.line : chunk.line + trueLine - 1 };
    };
    const yamlErr = (msg: string, offset: number | undefined) => {
      const rel = offset === undefined ? undefined : chunkLines.lineOf(offset);
      return report(msg, rel, rel);
    };
    const deep = flowDepthExceeded(chunk.text);
    if (deep !== undefined) {
      const rel = chunkLines.lineOf(deep);
      const r = report(`exceeded max depth of ${MAX_DEPTH}`, rel, rel);
      state.docs.push({ error: r.error, line: chunk.line, errorLine: r.errorLine });
      state.sources.push({ lines: chunkLines, base: chunk.offset });
      return state;
    }
    let docs: Document[];
    try {
      docs = parseAllDocuments(chunk.text, { schema: 'failsafe', uniqueKeys: false, prettyErrors: false }) as Document[];
    } catch (e) {
      if (e instanceof RangeError) {
        const r = yamlErr(`exceeded max depth of ${MAX_DEPTH}`, undefined);
        state.docs.push({ error: r.error, line: chunk.line, errorLine: r.errorLine });
        state.sources.push({ lines: chunkLines, base: chunk.offset });
        return state;
      }
      throw e;
    }
    if (!Array.isArray(docs) || docs.length === 0) {
      if (/^%/m.test(chunk.text)) {
        // Directives with no document after them (go-yaml: parser error at the end of the chunk).
        const last = chunk.text.endsWith('\n') ? chunk.text.split('\n').length - 1 : chunk.text.split('\n').length;
        const r = report('did not find expected <document start>', last, last);
        state.docs.push({ error: r.error, line: chunk.line, errorLine: r.errorLine });
        state.sources.push({ lines: chunkLines, base: chunk.offset });
        return state;
      }
      continue;
    }
    const doc = docs[0];
    const startLine = doc.contents?.range ? absLine(doc.contents.range[0]) : chunk.line;
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const g = goYamlError(e.code, e.message, e.pos[0], chunk.text, chunkLines);
      const r = report(g.message, g.line, g.printed);
      state.docs.push({ error: r.error, line: startLine, errorLine: r.errorLine });
      state.sources.push({ lines: chunkLines, base: chunk.offset });
      return state;
    }
    let value: unknown;
    try {
      value = new Converter(doc).convert(doc.contents as Node | null, 0).value;
      checkFinite(value);
    } catch (e) {
      if (e instanceof ConvertError || e instanceof RangeError) {
        const isConvert = e instanceof ConvertError;
        const msg = isConvert ? (e as ConvertError).message : `exceeded max depth of ${MAX_DEPTH}`;
        const offset = isConvert ? (e as ConvertError).offset : undefined;
        const rel = offset === undefined ? undefined : chunkLines.lineOf(offset);
        const printed = rel !== undefined && isConvert && (e as ConvertError).parserError ? rel - 1 : rel;
        const r = msg.startsWith('json: ') ? { error: parseErr(`error converting YAML to JSON: ${msg}`), errorLine: startLine } : report(msg, rel, printed);
        state.docs.push({ error: r.error, line: startLine, errorLine: r.errorLine });
        state.sources.push({ lines: chunkLines, base: chunk.offset });
        return state;
      }
      throw e;
    }
    if (value === null) continue;
    const ok = addObject(state, value, startLine, { node: doc.contents as Node, lines: chunkLines, base: chunk.offset }, source, (node) =>
      node?.range ? absLine(node.range[0]) : startLine,
    );
    if (!ok) return state;
  }
  return state;
}

function parseJsonStream(text: string, source: string, lines: LineIndex, parseErr: (m: string) => string): ParseState {
  const state: ParseState = { docs: [], sources: [] };
  const r = new JsonReader(text);
  let count = 0;
  while (!r.atEnd()) {
    const start = r.pos;
    let value: unknown;
    try {
      value = r.value(0);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError) && !(e instanceof RangeError)) throw e;
      const offset = e instanceof JsonSyntaxError ? e.offset : r.pos;
      const line = lines.lineOf(Math.min(offset, Math.max(text.length - 1, 0)));
      const msg = e instanceof JsonSyntaxError ? e.message : `exceeded max depth of ${MAX_DEPTH}`;
      // Go's json.SyntaxError.Offset counts the bytes read, the bad one included; io.ErrUnexpectedEOF has none.
      const detail = msg === 'unexpected EOF' ? msg : `json: offset ${utf8Length(text.slice(0, offset)) + 1}: ${msg}`;
      state.docs.push({ error: parseErr(detail), line: lines.lineOf(start), errorLine: line });
      state.sources.push({ lines, base: 0 });
      return state;
    }
    if (++count > MAX_DOCUMENTS) {
      return { docs: [{ error: `error: error parsing ${source}: too many documents: more than ${MAX_DOCUMENTS}`, line: 1, errorLine: 1 }], sources: [{ lines, base: 0 }] };
    }
    if (value === null) continue;
    if (!addObject(state, value, lines.lineOf(start), { lines, base: 0 }, source, () => lines.lineOf(start))) return state;
  }
  return state;
}

/**
 * Validate and record one decoded document (flattening `kind: List`). Returns false when an
 * error was recorded (reading stops).
 */
function addObject(state: ParseState, value: unknown, line: number, src: DocSource, source: string, lineOfNode: (n: Node | undefined) => number): boolean {
  const err = validateObject(value);
  if (err) {
    state.docs.push({ error: `error: error validating "${source}": error validating data: ${err}; ${VALIDATE_HINT}`, line, errorLine: line });
    state.sources.push(src);
    return false;
  }
  const obj = value as KubeObject;
  if (obj.kind === 'List' || (obj.kind.endsWith('List') && Array.isArray(obj.items))) {
    const items = Array.isArray(obj.items) ? obj.items : [];
    const itemsNode = src.node && isYamlMap(src.node) ? (src.node.get('items', true) as Node | undefined) : undefined;
    for (let i = 0; i < items.length; i++) {
      const itemNode = itemsNode && isSeq(itemsNode) ? (itemsNode.items[i] as Node | undefined) : undefined;
      const itemLine = lineOfNode(itemNode);
      const e = validateObject(items[i]);
      if (e) {
        state.docs.push({ error: `error: error validating "${source}": error validating data: ${e}; ${VALIDATE_HINT}`, line: itemLine, errorLine: itemLine });
        state.sources.push({ ...src, node: itemNode });
        return false;
      }
      state.docs.push({ object: items[i] as KubeObject, line: itemLine });
      state.sources.push({ ...src, node: itemNode });
    }
    return true;
  }
  state.docs.push({ object: obj, line });
  state.sources.push(src);
  return true;
}

/** kubectl's `getObjectKind` checks (staging/src/k8s.io/kubectl/pkg/validation/schema.go). */
function validateObject(v: unknown): string | undefined {
  const errs: string[] = [];
  const fields = isPlainObject(v) ? v : undefined;
  if (!fields) return 'invalid object to validate';
  const apiVersion = fields?.apiVersion;
  if (apiVersion === undefined || apiVersion === null) errs.push('apiVersion not set');
  else if (typeof apiVersion !== 'string') errs.push("apiVersion isn't string type");
  else if (apiVersion.split('/').length > 2) errs.push(`unexpected GroupVersion string: ${apiVersion}`);
  const kind = fields?.kind;
  if (kind === undefined || kind === null) errs.push('kind not set');
  else if (typeof kind !== 'string') errs.push("kind isn't string type");
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/**
 * The offset where flow collections (`[`, `{`) nest deeper than `MAX_DEPTH`, if they do: a
 * cheap scan so that `[[[[...` (which would exhaust the parser's stack) is refused at once.
 * Brackets inside quoted scalars and comments are skipped; plain-scalar brackets only count at
 * the start of a value, so ordinary text cannot trigger it.
 */
function flowDepthExceeded(text: string): number | undefined {
  let depth = 0;
  let prev = '\n';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const atTokenStart = prev === '\n' || prev === ' ' || prev === '\t' || prev === '[' || prev === '{' || prev === ',' || prev === ':' || prev === '-';
    if (c === '#' && (prev === ' ' || prev === '\t' || prev === '\n')) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
      prev = ' ';
      continue;
    }
    if ((c === '"' || c === "'") && atTokenStart) {
      for (i++; i < text.length; i++) {
        if (c === '"' && text[i] === '\\') i++;
        else if (text[i] === c) {
          if (c === "'" && text[i + 1] === "'") i++;
          else break;
        }
      }
      prev = c;
      continue;
    }
    if ((c === '[' || c === '{') && (atTokenStart || depth > 0)) {
      if (++depth > MAX_DEPTH) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
    prev = c;
  }
  return undefined;
}

interface Chunk {
  text: string;
  /** 1-based line of the chunk's first line in the whole text. */
  line: number;
  offset: number;
}

/**
 * `YAMLReader.Read`: split on lines that start with `---` followed only by spaces or a comment;
 * anything else after `---` is `invalid Yaml document separator: <rest>`.
 */
function splitDocuments(text: string): Chunk[] | { error: string; line: number } {
  const chunks: Chunk[] = [];
  let start = 0;
  let startLine = 1;
  let pos = 0;
  let line = 1;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    const l = text.slice(pos, end);
    if (l.startsWith('---')) {
      const rest = l.slice(3).trim();
      if (rest.length > 0 && rest[0] !== '#') return { error: `invalid Yaml document separator: ${rest}`, line };
      if (pos > start) chunks.push({ text: text.slice(start, pos), line: startLine, offset: start });
      start = nl < 0 ? text.length : nl + 1;
      startLine = line + 1;
    }
    if (nl < 0) break;
    pos = nl + 1;
    line++;
  }
  if (start < text.length) chunks.push({ text: text.slice(start), line: startLine, offset: start });
  return chunks;
}

// ------------------------------------------------------------------------------------------
// findLineOfPath
// ------------------------------------------------------------------------------------------

/**
 * Map an API field path (`spec.template.spec.containers[0].image`, `metadata.labels[app]`) of
 * the `docIndex`-th result of `parseManifests(text)` to its 1-based line in `text`. When the
 * field is absent (e.g. a `Required value` error), returns the line of the deepest ancestor
 * that exists; `undefined` when the document has no source position (JSON input, bad index).
 */
export function findLineOfPath(text: string, docIndex: number, fieldPath: string): number | undefined {
  let state = recentParseOf(text) ?? parseState(text, 'STDIN');
  if (state.precomputed) state = parseUncached(text, 'STDIN');
  const src = state.sources[docIndex];
  const doc = state.docs[docIndex];
  if (!src || !doc) return undefined;
  if (!src.node) return doc.line;
  const absLine = (n: Node | Pair['key']) => {
    const r = (n as Node | null)?.range;
    return r ? src.lines.lineOf(r[0]) + lineOffset(text, src.base) : doc.line;
  };
  let node: Node | undefined = src.node;
  let best = absLine(node);
  for (const seg of splitFieldPath(fieldPath)) {
    if (!node) break;
    if (isAlias(node)) break;
    if (typeof seg === 'number') {
      if (!isSeq(node) || seg >= node.items.length) break;
      node = node.items[seg] as Node;
      best = absLine(node);
    } else {
      if (!isYamlMap(node)) break;
      const pair: Pair | undefined = (node.items as Pair[]).find((p) => isScalar(p.key) && String((p.key as { value: unknown }).value) === seg);
      if (!pair) break;
      best = absLine(pair.key as Node);
      node = (pair.value as Node | null) ?? undefined;
    }
  }
  return best;
}

const offsetLineCache = new Map<string, LineIndex>();
function lineOffset(text: string, base: number): number {
  if (base === 0) return 0;
  let li = offsetLineCache.get(text);
  if (!li) {
    offsetLineCache.clear();
    li = new LineIndex(text);
    offsetLineCache.set(text, li);
  }
  return li.lineOf(base) - 1;
}

/**
 * `a.b[0].c[key.with.dots]` -> ['a', 'b', 0, 'c', 'key.with.dots']: the segments of a field path
 * as apimachinery's `field.Path.String()` renders it (indexes as numbers, map keys as strings).
 */
export function splitFieldPath(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  let i = 0;
  let cur = '';
  while (i < p.length) {
    const c = p[i];
    if (c === '.') {
      if (cur) out.push(cur);
      cur = '';
      i++;
    } else if (c === '[') {
      if (cur) out.push(cur);
      cur = '';
      const close = p.indexOf(']', i);
      const inner = close < 0 ? p.slice(i + 1) : p.slice(i + 1, close);
      out.push(/^[0-9]+$/.test(inner) ? Number(inner) : inner);
      i = close < 0 ? p.length : close + 1;
    } else {
      cur += c;
      i++;
    }
  }
  if (cur) out.push(cur);
  return out;
}

// ------------------------------------------------------------------------------------------
// toYaml: go-yaml v2 emitter
// ------------------------------------------------------------------------------------------

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)` as go-yaml prints floats. */
function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  const [mant, expStr] = f.toExponential().split('e');
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) {
    const a = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`;
  }
  return String(f);
}

/** A JSON number as kubectl prints it: integers plainly, other numbers in Go's `%g` form. */
function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return Object.is(n, -0) ? '0' : String(n);
  return formatGoFloat(n);
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** go-yaml v2 `keyList.Less` (sorter.go): letters by code point, digit runs numerically, non-letters first. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = LETTER.test(ar[i]);
    const bl = LETTER.test(br[i]);
    if (al && bl) return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && DIGIT.test(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && DIGIT.test(ar[ai]); ai++) an = an * 10 + (ar[ai].codePointAt(0)! - 48);
    let bi = i;
    for (; bi < br.length && DIGIT.test(br[bi]); bi++) bn = bn * 10 + (br[bi].codePointAt(0)! - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
  }
  return ar.length < br.length;
}

function sortKeys(keys: string[]): string[] {
  return [...keys].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));
}

type Style = 'plain' | 'single' | 'double' | 'literal';

interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreakCp = (cp: number) => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
/** libyaml `is_printable` (4-byte UTF-8, i.e. astral code points, are not printable). */
const isPrintableCp = (cp: number) => cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);

/** `yaml_emitter_analyze_scalar` (emitterc.go), block context only. */
function analyzeScalar(value: string): ScalarAnalysis {
  if (value.length === 0) return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const cps = Array.from(value).map((c) => c.codePointAt(0)!);
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  const isBlankZ = (i: number) => i >= cps.length || cps[i] === 0x20 || cps[i] === 0x09 || isBreakCp(cps[i]) || cps[i] === 0;
  for (let i = 0; i < cps.length; i++) {
    const c = String.fromCodePoint(cps[i]);
    const followedByWhitespace = i + 1 >= cps.length || cps[i + 1] === 0x20 || cps[i + 1] === 0x09 || isBreakCp(cps[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      else if ((c === '?' || c === ':') && followedByWhitespace) blockIndicators = true;
      else if (c === '-' && followedByWhitespace) blockIndicators = true;
    } else if (c === ':' && followedByWhitespace) blockIndicators = true;
    else if (c === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintableCp(cps[i])) special = true;
    if (cps[i] === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakCp(cps[i])) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankZ(i);
  }
  const r: ScalarAnalysis = { multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) r.blockPlainAllowed = false;
  if (trailingSpace) r.blockAllowed = false;
  if (breakSpace) {
    r.blockPlainAllowed = false;
    r.singleQuotedAllowed = false;
  }
  if (spaceBreak || special) {
    r.blockPlainAllowed = false;
    r.singleQuotedAllowed = false;
    r.blockAllowed = false;
  }
  if (lineBreaks) r.blockPlainAllowed = false;
  if (blockIndicators) r.blockPlainAllowed = false;
  return r;
}

/** The libyaml emitter state this port needs, and the writers of emitterc.go. */
class Emitter {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;
  indent = -1;

  private put(s: string): void {
    this.out += s;
    this.column += s.length;
  }
  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }
  /** `yaml_emitter_write_indent`. */
  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }
  /** `yaml_emitter_write_indicator`. */
  writeIndicator(ind: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(ind);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
  private writeChar(ch: string): void {
    this.out += ch;
    this.column += 1;
  }

  /** Emit one string scalar (`yaml_emitter_emit_scalar` with style selection). */
  scalar(value: string, requested: Style, simpleKey: boolean): void {
    const a = analyzeScalar(value);
    let style = requested;
    if (simpleKey && a.multiline) style = 'double';
    if (style === 'plain') {
      if (!a.blockPlainAllowed) style = 'single';
      if (value.length === 0 && simpleKey) style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
    const saved = this.indent;
    this.indent = this.indent < 0 ? BEST_INDENT : this.indent + BEST_INDENT;
    const allowBreaks = !simpleKey;
    if (style === 'plain') this.writePlain(value, allowBreaks);
    else if (style === 'single') this.writeSingle(value, allowBreaks);
    else if (style === 'double') this.writeDouble(value, allowBreaks);
    else this.writeLiteral(value);
    this.indent = saved;
  }

  private writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const cs = Array.from(value);
    let spaces = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && cs[i + 1] !== ' ') this.writeIndent();
        else this.writeChar(c);
        spaces = true;
      } else {
        this.writeChar(c);
        this.indention = false;
        spaces = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingle(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    const cs = Array.from(value);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cs.length - 1 && cs[i + 1] !== ' ') this.writeIndent();
        else this.writeChar(c);
        spaces = true;
      } else if (isBreakCp(c.codePointAt(0)!)) {
        if (!breaks && c === '\n') this.putBreak();
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === "'") this.writeChar("'");
        this.writeChar(c);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDouble(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const cs = Array.from(value);
    let spaces = false;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      const cp = c.codePointAt(0)!;
      if (!isPrintableCp(cp) || cp === 0xfeff || isBreakCp(cp) || c === '"' || c === '\\') {
        this.writeChar('\\');
        const esc: Record<number, string> = {
          0x00: '0',
          0x07: 'a',
          0x08: 'b',
          0x09: 't',
          0x0a: 'n',
          0x0b: 'v',
          0x0c: 'f',
          0x0d: 'r',
          0x1b: 'e',
          0x22: '"',
          0x5c: '\\',
          0x85: 'N',
          0xa0: '_',
          0x2028: 'L',
          0x2029: 'P',
        };
        if (cp in esc) this.put(esc[cp]);
        else if (cp <= 0xff) this.put('x' + cp.toString(16).toUpperCase().padStart(2, '0'));
        else if (cp <= 0xffff) this.put('u' + cp.toString(16).toUpperCase().padStart(4, '0'));
        else this.put('U' + cp.toString(16).toUpperCase().padStart(8, '0'));
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cs.length - 1) {
          this.writeIndent();
          if (cs[i + 1] === ' ') this.put('\\');
        } else this.writeChar(c);
        spaces = true;
      } else {
        this.writeChar(c);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(value: string): void {
    this.writeIndicator('|', true, false, false);
    // yaml_emitter_write_block_scalar_hints
    let hints = '';
    if (value[0] === ' ' || isBreakCp(value.codePointAt(0)!)) hints += String(BEST_INDENT);
    const last = value[value.length - 1];
    if (!isBreakCp(last.codePointAt(0)!)) hints += '-';
    else if (value.length === 1) hints += '+';
    else if (isBreakCp(value[value.length - 2].codePointAt(0)!)) hints += '+';
    if (hints) this.put(hints);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of Array.from(value)) {
      if (isBreakCp(c.codePointAt(0)!)) {
        this.putBreak();
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.writeChar(c);
        this.indention = false;
        breaks = false;
      }
    }
  }

  /** Emit any JSON value in block context. */
  node(v: unknown, ctx: { mapping: boolean; simpleKey: boolean }): void {
    if (v === null || v === undefined) return this.scalar('null', 'plain', ctx.simpleKey);
    if (typeof v === 'boolean') return this.scalar(v ? 'true' : 'false', 'plain', ctx.simpleKey);
    if (typeof v === 'number') return this.scalar(formatNumber(v), 'plain', ctx.simpleKey);
    if (typeof v === 'string') {
      const style: Style = v.includes('\n') ? 'literal' : resolvesToString(v) ? 'plain' : 'double';
      return this.scalar(v, style, ctx.simpleKey);
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return this.emptyFlow('[]');
      const saved = this.indent;
      const indentless = ctx.mapping && !this.indention;
      this.indent = this.indent < 0 ? 0 : indentless ? this.indent : this.indent + BEST_INDENT;
      for (const item of v) {
        this.writeIndent();
        this.writeIndicator('-', true, false, true);
        this.node(item, { mapping: false, simpleKey: false });
      }
      this.indent = saved;
      return;
    }
    const m = v as Record<string, unknown>;
    const keys = sortKeys(Object.keys(m).filter((k) => m[k] !== undefined));
    if (keys.length === 0) return this.emptyFlow('{}');
    const saved = this.indent;
    this.indent = this.indent < 0 ? 0 : this.indent + BEST_INDENT;
    for (const k of keys) {
      this.writeIndent();
      const simple = utf8Length(k) <= 128 && !/[\n\r\u0085\u2028\u2029]/.test(k);
      if (simple) {
        this.node(k, { mapping: false, simpleKey: true });
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(k, { mapping: false, simpleKey: false });
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(m[k], { mapping: true, simpleKey: false });
    }
    this.indent = saved;
  }

  private emptyFlow(s: string): void {
    this.writeIndicator(s[0], true, true, false);
    this.writeIndicator(s[1], false, false, false);
  }
}

/**
 * Print a JSON value as `kubectl get -o yaml` does (sigs.k8s.io/yaml `Marshal` = go-yaml v2):
 * map keys sorted in go-yaml's order at every level, list items at their key's indentation
 * (`containers:\n- image: nginx`), empty maps and lists as `{}` / `[]`, strings quoted only
 * when they would read back as something else (`"80"`, `"true"`, `"2024-01-05"`, `"y"`) or
 * start with an indicator (`'*'`, `'#x'`), multi-line strings as `|`/`|-`/`|+` blocks,
 * non-printable characters escaped in double quotes, lines folded past 80 columns.
 * Returns the text with a trailing newline.
 * Source: gopkg.in/yaml.v2 encode.go (`stringv`), emitterc.go, sorter.go; sigs.k8s.io/yaml.
 */
export function toYaml(obj: unknown): string {
  const e = new Emitter();
  e.node(obj, { mapping: false, simpleKey: false });
  if (!e.out.endsWith('\n')) e.out += '\n';
  return e.out;
}
