/**
 * Kubernetes' JSONPath dialect, as `kubectl -o jsonpath=...`, `-o custom-columns=...` and
 * CRD `additionalPrinterColumns` use it: a template of literal text and `{...}` actions
 * (`{.metadata.name}`, `{.items[*].spec.containers[0].image}`, `{range .items[*]}...{end}`,
 * filters `[?(@.type=="Ready")]`, unions `[0,1]`, slices `[-1:]` / `[0:4:2]`, wildcards `.*`,
 * recursive descent `..`, quoted text `{"\n"}` / `{'\t'}`, `$` / `@`).
 *
 * A port of staging/src/k8s.io/client-go/util/jsonpath (parser.go, node.go, jsonpath.go) as
 * shipped with kubectl 1.32, checked against the real binary. Error messages are the Go
 * ones (`unclosed action`, `array index out of bounds: index 5, length 2`, ...).
 *
 * Known 1.32 quirks kept on purpose: a string is "iterable" (`{.metadata.name.*}` prints its
 * bytes), `['a.b']` means `.a.b`, a `{range}` without `{end}` runs its body once per item and
 * then once more on the enclosing object, filters only work on arrays, and comparing an int
 * with a float (`@.x>1.5` on an integer field) is an error. Map iteration (`.*`, `..`) is in
 * sorted key order (Go 1.32 iterates in random order; newer client-go sorts).
 */
import { goFormatNumber, goJson, goSprint, goTypeName, goRuneU, isGoInt } from './gofmt';

// ------------------------------------------------------------------------------------------
// Nodes (node.go)
// ------------------------------------------------------------------------------------------

/** One slice parameter of an array node (`ParamsEntry`). */
interface Param {
  value: number;
  known: boolean;
  derived: boolean;
}

/** A parsed template node. */
export type JpNode =
  | { t: 'list'; nodes: JpNode[] }
  | { t: 'text'; text: string }
  | { t: 'field'; value: string }
  | { t: 'array'; params: [Param, Param, Param] }
  | { t: 'filter'; left: JpNode & { t: 'list' }; right: JpNode & { t: 'list' }; op: string }
  | { t: 'int'; value: number }
  | { t: 'float'; value: number }
  | { t: 'bool'; value: boolean }
  | { t: 'wildcard' }
  | { t: 'recursive' }
  | { t: 'union'; nodes: (JpNode & { t: 'list' })[] }
  | { t: 'identifier'; name: string };

type ListNode = JpNode & { t: 'list' };

/** A JSONPath parse or execution error; `message` is client-go's text. */
export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

// ------------------------------------------------------------------------------------------
// Parser (parser.go)
// ------------------------------------------------------------------------------------------

const EOF = -1;
const DICT_KEY = /^'([^']*)'$/;
const SLICE_OP = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER_OP = /^([^!<>=]+)([!<>=]+)(.+?)$/;

function isSpace(r: number): boolean {
  return r === 0x20 || r === 0x09;
}
function isEndOfLine(r: number): boolean {
  return r === 0x0d || r === 0x0a;
}
function isTerminator(r: number): boolean {
  if (isSpace(r) || isEndOfLine(r)) return true;
  return r === EOF || '.,[]$@{}'.includes(String.fromCodePoint(r));
}
function isDigit(r: number): boolean {
  return r >= 0 && /\p{Nd}/u.test(String.fromCodePoint(r));
}
function isAlphaNumeric(r: number): boolean {
  return r === 0x5f || (r >= 0 && /[\p{L}\p{Nd}]/u.test(String.fromCodePoint(r)));
}

/** Go's `strconv.Atoi` (base 10, optional sign, int64 range). */
function atoi(s: string): number | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Math.abs(n) < 2 ** 63 ? n : undefined;
}

/** Go's `strconv.ParseFloat(s, 64)` for the strings `parseNumber` can produce (digits, dots, sign). */
function parseGoFloat(s: string): number | undefined {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s)) return undefined;
  return Number(s);
}

/**
 * client-go `UnquoteExtend` (= `strconv.Unquote` that also accepts single quotes): Go escape
 * sequences `\n \t \\ \' \" \xHH \uHHHH \UHHHHHHHH \ooo \a \b \f \r \v`.
 */
function unquoteExtend(s: string): string {
  const n = s.length;
  if (n < 2) throw new JsonPathError('invalid syntax');
  const quote = s[0];
  if (quote !== s[n - 1] || (quote !== '"' && quote !== "'")) throw new JsonPathError('invalid syntax');
  s = s.slice(1, n - 1);
  if (!s.includes('\\') && !s.includes(quote)) return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  let i = 0;
  const bad = (): never => {
    throw new JsonPathError('invalid syntax');
  };
  while (i < s.length) {
    const c = s[i];
    if (c === quote) bad();
    if (c !== '\\') {
      const cp = s.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      bytes.push(...enc.encode(ch));
      i += ch.length;
      continue;
    }
    i++;
    if (i >= s.length) bad();
    const e = s[i++];
    const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };
    if (e in simple) {
      bytes.push(simple[e]);
    } else if (e === "'" || e === '"') {
      if (e !== quote) bad();
      bytes.push(e.charCodeAt(0));
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = s.slice(i, i + len);
      if (hex.length < len || !/^[0-9a-fA-F]+$/.test(hex)) bad();
      i += len;
      const v = parseInt(hex, 16);
      if (e === 'x') bytes.push(v);
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) bad();
        bytes.push(...enc.encode(String.fromCodePoint(v)));
      }
    } else if (e >= '0' && e <= '7') {
      const oct = s.slice(i - 1, i + 2);
      if (!/^[0-7]{3}$/.test(oct)) bad();
      const v = parseInt(oct, 8);
      if (v > 255) bad();
      i += 2;
      bytes.push(v);
    } else bad();
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

class Parser {
  root: ListNode = { t: 'list', nodes: [] };
  private input = '';
  private pos = 0;
  private start = 0;
  private width = 0;

  parse(text: string): ListNode {
    this.input = text;
    this.root = { t: 'list', nodes: [] };
    this.pos = 0;
    this.start = 0;
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const v = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return v;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos) as number;
    this.width = r > 0xffff ? 2 : 1;
    this.pos += this.width;
    return r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ t: 'text', text: this.consumeText() });
        return this.parseLeftDelim(cur);
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ t: 'text', text: this.consumeText() });
  }

  private parseLeftDelim(cur: ListNode): void {
    this.pos += 1;
    this.consumeText();
    const node: ListNode = { t: 'list', nodes: [] };
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) return this.parseRightDelim();
      if (rest.startsWith('[?(')) return this.parseFilter(cur);
      if (rest.startsWith('..')) return this.parseRecursive(cur);
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new JsonPathError('unclosed action');
      if (r === 0x20) {
        this.consumeText();
      } else if (r === 0x40 || r === 0x24) {
        this.consumeText();
      } else if (r === 0x5b) {
        return this.parseArray(cur);
      } else if (r === 0x22 || r === 0x27) {
        return this.parseQuote(cur, r);
      } else if (r === 0x2e) {
        return this.parseField(cur);
      } else if (r === 0x2b || r === 0x2d || isDigit(r)) {
        this.backup();
        return this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        return this.parseIdentifier(cur);
      } else {
        throw new JsonPathError(`unrecognized character in action: ${goRuneU(r)}`);
      }
    }
  }

  private parseRightDelim(): void {
    this.pos += 1;
    this.consumeText();
    this.parseText(this.root);
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ t: 'bool', value: value === 'true' });
    else cur.nodes.push({ t: 'identifier', name: value });
    this.parseInsideAction(cur);
  }

  private parseRecursive(cur: ListNode): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last && last.t === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ t: 'recursive' });
    if (isAlphaNumeric(this.peek())) return this.parseField(cur);
    this.parseInsideAction(cur);
  }

  private parseNumber(cur: ListNode): void {
    let r = this.peek();
    if (r === 0x2b || r === 0x2d) this.next();
    for (;;) {
      r = this.next();
      if (r !== 0x2e && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const i = atoi(value);
    if (i !== undefined) {
      cur.nodes.push({ t: 'int', value: i });
      return this.parseInsideAction(cur);
    }
    const f = parseGoFloat(value);
    if (f !== undefined) {
      cur.nodes.push({ t: 'float', value: f });
      return this.parseInsideAction(cur);
    }
    throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated array');
      if (r === 0x5d) break;
    }
    let text = this.consumeText();
    text = text.slice(1, text.length - 1);
    if (text === '*') text = ':';

    const strs = text.split(',');
    if (strs.length > 1) {
      const union: ListNode[] = strs.map((s) => parseAction(`[${s.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ t: 'union', nodes: union });
      return this.parseInsideAction(cur);
    }

    const dict = DICT_KEY.exec(text);
    if (dict) {
      const sub = parseAction(`.${dict[1]}`);
      cur.nodes.push(...sub.nodes);
      return this.parseInsideAction(cur);
    }

    const m = SLICE_OP.exec(text);
    if (!m) throw new JsonPathError(`invalid array index ${text}`);
    const value = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: [Param, Param, Param] = [
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      if (value[i] !== '') {
        if (i > 0) value[i] = value[i].slice(1);
        if (i > 0 && value[i] === '') {
          params[i].known = false;
        } else {
          const n = atoi(value[i]);
          if (n === undefined) throw new JsonPathError(`array index ${value[i]} is not a number`);
          params[i].known = true;
          params[i].value = n;
        }
      } else if (i === 1) {
        params[i].known = true;
        params[i].value = params[0].value + 1;
        params[i].derived = true;
      } else {
        params[i].known = false;
        params[i].value = 0;
      }
    }
    cur.nodes.push({ t: 'array', params });
    this.parseInsideAction(cur);
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === 0x29) {
        if (begin === end) break;
      }
    }
    if (this.next() !== 0x5d) throw new JsonPathError('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, text.length - 2);
    const m = FILTER_OP.exec(text);
    if (!m) {
      cur.nodes.push({ t: 'filter', left: parseAction(text), right: { t: 'list', nodes: [] }, op: 'exists' });
    } else {
      cur.nodes.push({ t: 'filter', left: parseAction(m[1]), right: parseAction(m[3]), op: m[2] });
    }
    this.parseInsideAction(cur);
  }

  private parseQuote(cur: ListNode, end: number): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    let s: string;
    try {
      s = unquoteExtend(value);
    } catch (e) {
      throw new JsonPathError(`unquote string ${value} error ${(e as Error).message}`);
    }
    cur.nodes.push({ t: 'text', text: s });
    this.parseInsideAction(cur);
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance()) {
      /* scan */
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ t: 'wildcard' });
    else cur.nodes.push({ t: 'field', value: value.replace(/\\/g, '') });
    this.parseInsideAction(cur);
  }

  private advance(): boolean {
    const r = this.next();
    if (r === 0x5c) {
      this.next();
    } else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** parser.go `parseAction`: parse `{text}` and return the action's list node. */
function parseAction(text: string): ListNode {
  const root = new Parser().parse(`{${text}}`);
  return root.nodes[0] as ListNode;
}

/**
 * Parse a template (`jsonpath.Parse`). Throws `JsonPathError` with client-go's message
 * (kubectl prints `error parsing jsonpath <template>, <message>`).
 */
export function parseJsonPath(template: string): ListNode {
  return new Parser().parse(template);
}

// ------------------------------------------------------------------------------------------
// Evaluation (jsonpath.go)
// ------------------------------------------------------------------------------------------

/**
 * A value flowing through the evaluator. Literal numbers keep their Go kind (an `{1}` is an
 * int, `{1.0}` a float); values read from the object are int64 when integral, else float64.
 * `byte` marks the uint8 values a string yields when iterated.
 */
type Val = { v: unknown; kind?: 'int' | 'float' | 'byte' };

const val = (v: unknown): Val => ({ v });

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Children of an iterable value (map values in key order, array items, string bytes), or undefined. */
function children(v: unknown): Val[] | undefined {
  if (Array.isArray(v)) return v.map(val);
  if (isMap(v)) return sortedKeys(v).map((k) => val(v[k]));
  if (typeof v === 'string') return [...new TextEncoder().encode(v)].map((b) => ({ v: b, kind: 'byte' as const }));
  return undefined;
}

type BasicKind = 'bool' | 'int' | 'uint' | 'float' | 'string';

/** template `basicKind`: the comparison class of a value, or an error for maps/arrays/nil. */
function basicKind(x: Val): BasicKind {
  const v = x.v;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') {
    if (x.kind === 'byte') return 'uint';
    if (x.kind) return x.kind === 'int' ? 'int' : 'float';
    return isGoInt(v) ? 'int' : 'float';
  }
  throw new JsonPathError('invalid type for comparison');
}

/** client-go third_party/forked/golang/template funcs.go `eq`, `lt` and friends. */
function compare(op: string, l: Val, r: Val): boolean {
  if (!['==', '!=', '<', '<=', '>', '>='].includes(op)) throw new JsonPathError(`unrecognized filter operator ${op}`);
  const k1 = basicKind(l);
  const k2 = basicKind(r);
  const intLike = (k: BasicKind) => k === 'int' || k === 'uint';
  if (k1 !== k2 && !(intLike(k1) && intLike(k2))) throw new JsonPathError('incompatible types for comparison');
  const a = l.v as number | string | boolean;
  const b = r.v as number | string | boolean;
  const eq = () => a === b;
  const lt = () => {
    if (k1 === 'bool') throw new JsonPathError('invalid type for comparison');
    return a < b;
  };
  switch (op) {
    case '==':
      return eq();
    case '!=':
      return !eq();
    case '<':
      return lt();
    case '<=':
      return lt() || eq();
    case '>':
      return !lt() && !eq();
    case '>=':
      return !lt();
    default:
      throw new JsonPathError(`unrecognized filter operator ${op}`);
  }
}

/** Options of an evaluation. */
export interface JsonPathOptions {
  /**
   * Missing fields yield nothing instead of `<field> is not found` (kubectl's
   * `--allow-missing-template-keys`, default true; CRD columns and custom-columns always).
   */
  allowMissingKeys?: boolean;
}

class Evaluator {
  constructor(private readonly allowMissing: boolean) {}

  walk(input: Val[], node: JpNode): Val[] {
    switch (node.t) {
      case 'list':
        return this.evalList(input, node);
      case 'text':
        return [val(node.text)];
      case 'field':
        return this.evalField(input, node.value);
      case 'array':
        return this.evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
        return input.map(() => ({ v: node.value, kind: 'int' as const }));
      case 'float':
        return input.map(() => ({ v: node.value, kind: 'float' as const }));
      case 'bool':
        return input.map(() => val(node.value));
      case 'wildcard':
        return input.flatMap((x) => (x.v === null || x.v === undefined ? [] : (children(x.v) ?? [])));
      case 'recursive':
        return this.evalRecursive(input);
      case 'union':
        return node.nodes.flatMap((l) => this.evalList(input, l));
      case 'identifier':
        if (node.name === 'range') return input;
        if (node.name === 'end') throw new JsonPathError('not in range, nothing to end');
        throw new JsonPathError(`unrecognized identifier ${node.name}`);
    }
  }

  evalList(input: Val[], node: ListNode): Val[] {
    let cur = input;
    for (const n of node.nodes) cur = this.walk(cur, n);
    return cur;
  }

  private evalField(input: Val[], name: string): Val[] {
    const results: Val[] = [];
    if (input.length === 0) return results;
    for (const x of input) {
      if (x.v === null || x.v === undefined) continue;
      if (isMap(x.v) && Object.prototype.hasOwnProperty.call(x.v, name) && x.v[name] !== undefined) results.push(val(x.v[name]));
    }
    if (results.length === 0 && !this.allowMissing) throw new JsonPathError(`${name} is not found`);
    return results;
  }

  private evalArray(input: Val[], nodeParams: [Param, Param, Param]): Val[] {
    const result: Val[] = [];
    for (const x of input) {
      if (x.v === null || x.v === undefined) continue;
      if (!Array.isArray(x.v)) throw new JsonPathError(`${goTypeName(x.v)} is not array or slice`);
      const arr = x.v;
      const len = arr.length;
      const p = nodeParams.map((q) => ({ ...q }));
      if (!p[0].known) p[0].value = 0;
      if (p[0].value < 0) p[0].value += len;
      if (!p[1].known) p[1].value = len;
      if (p[1].value < 0 || (p[1].value === 0 && p[1].derived)) p[1].value += len;
      if (p[1].value !== p[0].value) {
        if (p[0].value >= len || p[0].value < 0) throw new JsonPathError(`array index out of bounds: index ${p[0].value}, length ${len}`);
        if (p[1].value > len || p[1].value < 0) throw new JsonPathError(`array index out of bounds: index ${p[1].value - 1}, length ${len}`);
        if (p[0].value > p[1].value) throw new JsonPathError(`starting index ${p[0].value} is greater than ending index ${p[1].value}`);
      } else {
        return result;
      }
      let step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) throw new JsonPathError('step must be > 0');
        step = p[2].value;
      }
      for (let i = p[0].value; i < p[1].value; i += step) result.push(val(arr[i]));
    }
    return result;
  }

  private evalRecursive(input: Val[]): Val[] {
    const result: Val[] = [];
    for (const x of input) {
      if (x.v === null || x.v === undefined) continue;
      const kids = children(x.v);
      if (kids && kids.length > 0) {
        result.push(x);
        result.push(...this.evalRecursive(kids));
      }
    }
    return result;
  }

  private evalFilter(input: Val[], node: JpNode & { t: 'filter' }): Val[] {
    const results: Val[] = [];
    for (const x of input) {
      if (!Array.isArray(x.v)) throw new JsonPathError(`${goSprint(x.v)} is not array or slice and cannot be filtered`);
      for (const item of x.v) {
        const temp = [val(item)];
        let lefts: Val[];
        let leftErr: unknown;
        try {
          lefts = this.evalList(temp, node.left);
        } catch (e) {
          lefts = [];
          leftErr = e;
        }
        if (node.op === 'exists') {
          if (lefts.length > 0) results.push(val(item));
          continue;
        }
        if (leftErr) throw leftErr;
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
        const rights = this.evalList(temp, node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
        if (compare(node.op, lefts[0], rights[0])) results.push(val(item));
      }
    }
    return results;
  }
}

/** True when an action list is `{range ...}`. */
function isRange(n: JpNode): boolean {
  return n.t === 'list' && n.nodes.some((x) => x.t === 'identifier' && x.name === 'range');
}
/** True when an action list is `{end}`. */
function isEnd(n: JpNode): boolean {
  return n.t === 'list' && n.nodes.some((x) => x.t === 'identifier' && x.name === 'end');
}

/**
 * `JSONPath.FindResults`: run a parsed template over `data` and return the result groups,
 * one per action or text node, in output order (a `{range}` contributes its body's groups
 * once per item). Each group is the list of values one action produced.
 * Throws `JsonPathError` with client-go's message on execution errors.
 */
export function findResults(template: ListNode, data: unknown, opts: JsonPathOptions = {}): unknown[][] {
  const ev = new Evaluator(opts.allowMissingKeys ?? true);
  const nodes = template.nodes;
  // Index of the last `{end}` that closed a range body (client-go's `lastEndNode`).
  let lastEnd = -1;
  // Runs nodes[from..] on `cur`; inside a range body, stops at the `{end}` closing it.
  const run = (from: number, cur: unknown, out: unknown[][], inRange: boolean): void => {
    for (let i = from; i < nodes.length; i++) {
      const node = nodes[i];
      if (isEnd(node)) {
        if (!inRange) throw new JsonPathError('not in range, nothing to end');
        lastEnd = i;
        return;
      }
      if (isRange(node)) {
        const items = ev.walk([val(cur)], node);
        // An empty range still walks its body (output dropped) to find its `{end}`.
        if (items.length === 0) run(i + 1, null, [], true);
        for (const item of items) run(i + 1, item.v, out, true);
        // Resume after the last `{end}` seen if it lies ahead; without one, client-go resumes
        // right after `{range}`, so the body runs once more on `cur`.
        if (lastEnd > i) i = lastEnd;
        continue;
      }
      out.push(ev.walk([val(cur)], node).map((x) => x.v));
    }
  };
  const out: unknown[][] = [];
  run(0, data, out, false);
  return out;
}

/**
 * `JSONPath.PrintResults` for one group: values joined by a space; maps and arrays as compact
 * JSON (`{"app":"web"}`), strings as they are, null as `null`, numbers as Go prints them.
 */
export function printResultGroup(values: unknown[]): string {
  return values
    .map((v) => {
      if (v === null || v === undefined) return 'null';
      if (typeof v === 'object') return goJson(v);
      if (typeof v === 'number') return goFormatNumber(v);
      return String(v);
    })
    .join(' ');
}

/**
 * Run a template over `data` and return the printed text (`JSONPath.Execute`), or with
 * `asJson` what `-o jsonpath-as-json` prints: each group as an indented JSON array + newline.
 * Throws `JsonPathError` (parse or execution).
 */
export function executeJsonPath(template: string | ListNode, data: unknown, opts: JsonPathOptions & { asJson?: boolean } = {}): string {
  const parsed = typeof template === 'string' ? parseJsonPath(template) : template;
  const groups = findResults(parsed, data, opts);
  if (opts.asJson) return groups.map((g) => goJson(g, '    ') + '\n').join('');
  return groups.map(printResultGroup).join('');
}
