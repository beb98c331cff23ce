/**
 * Go's text/template, the subset kubectl users write for `-o go-template=...` / `-o template`
 * (`--template=...`), run over an object decoded from JSON as kubectl decodes it
 * (map[string]interface{}, integers as int64).
 *
 * Mirrors:
 * - staging/src/k8s.io/cli-runtime/pkg/printers/template.go (`GoTemplatePrinter`: template name
 *   `output`, the `base64decode` function, `missingkey=default` / `missingkey=error` from
 *   `--allow-missing-template-keys`, the execution-error report written to stdout);
 * - Go's text/template (parse/lex.go, parse/parse.go, exec.go, funcs.go): actions `{{pipeline}}`,
 *   `{{/* comment *\/}}`, trim markers `{{- ` and ` -}}`, `if` / `else if` / `else` / `end`,
 *   `range` (with `$i, $e :=`), `with`, variables (`$x := ...`, `$`), pipelines with `|`,
 *   parenthesised commands and their fields (`(index .spec.ports 0).nodePort`), string, raw
 *   string, number, bool and nil constants, and the builtins `and or not len index print printf
 *   println eq ne lt le gt ge`. Missing map keys print `<no value>`, JSON nulls `<nil>`.
 *
 * Not implemented (parse error `function "x" not defined`): sprig's functions, `define` /
 * `template` / `block`, `break` / `continue`, `html` / `js` / `urlquery` / `slice` / `call`.
 */
import { goFormatNumber, goQuote, goSprint, goTypeName, isGoInt } from './gofmt';

/** A template parse or execution failure: `message` is Go's `template: output:...` text. */
export class GoTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoTemplateError';
  }
}

/** A missing map key under `missingkey=default` (Go's invalid reflect.Value). */
const MISSING = Symbol('no value');
type Val = unknown;

// ------------------------------------------------------------------------------------------
// Parse tree
// ------------------------------------------------------------------------------------------

type Operand =
  | { t: 'dot'; pos: number }
  // `epos`: where Go's parser puts the node (parse.go operand: a chain of fields is positioned
  // at its second field, `$x.a` and `(...).a` at their first field), which execution errors report.
  | { t: 'field'; names: string[]; pos: number; epos: number; text: string } // .a.b on dot
  | { t: 'var'; name: string; names: string[]; pos: number; epos: number; text: string } // $x.a.b
  | { t: 'lit'; v: Val; pos: number; text: string }
  | { t: 'ident'; name: string; pos: number }
  | { t: 'paren'; pipe: Pipe; names: string[]; pos: number; epos: number; text: string };

interface Cmd {
  args: Operand[];
  pos: number;
  /** The command as written (CommandNode.String()), for `at <index .a 3>`. */
  text: string;
}

interface Pipe {
  decls: string[];
  cmds: Cmd[];
  pos: number;
  text: string;
}

type Node =
  | { t: 'text'; s: string }
  | { t: 'action'; pipe: Pipe }
  | { t: 'if' | 'with' | 'range'; pipe: Pipe; list: Node[]; elseList: Node[] | undefined };

/** A parsed template. */
export interface GoTemplate {
  nodes: Node[];
  source: string;
}

// ------------------------------------------------------------------------------------------
// Lexing: the template is split into text and actions; actions into tokens
// ------------------------------------------------------------------------------------------

type Tok = (
  | { k: 'field'; names: string[]; pos: number; text: string }
  | { k: 'var'; name: string; names: string[]; pos: number; text: string }
  | { k: 'dot'; pos: number }
  | { k: 'ident'; name: string; pos: number }
  | { k: 'lit'; v: Val; pos: number; text: string }
  | { k: '(' | ')' | '|' | ':=' | '=' | ','; pos: number }
) & { end?: number };

function lineOf(src: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src[i] === '\n') n++;
  return n;
}

function parseErr(src: string, pos: number, msg: string): GoTemplateError {
  return new GoTemplateError(`template: output:${lineOf(src, pos)}: ${msg}`);
}

function unquoteGo(s: string, src: string, pos: number): string {
  let out = '';
  for (let i = 1; i < s.length - 1; i++) {
    const c = s[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = s[++i];
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };
    if (n in simple) out += simple[n];
    else if (n === 'x') {
      out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (n === 'u') {
      out += String.fromCodePoint(parseInt(s.slice(i + 1, i + 5), 16));
      i += 4;
    } else throw parseErr(src, pos, 'invalid syntax');
  }
  return out;
}

const FIELD_CHAIN = /^(?:\.[A-Za-z_][A-Za-z0-9_]*)+/;

function lexAction(src: string, start: number, end: number): Tok[] {
  const toks: Tok[] = [];
  let i = start;
  while (i < end) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === '|' || c === ',') {
      toks.push({ k: c, pos: i });
      i++;
      continue;
    }
    if (c === ':' && src[i + 1] === '=') {
      toks.push({ k: ':=', pos: i });
      i += 2;
      continue;
    }
    if (c === '=') {
      toks.push({ k: '=', pos: i });
      i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < end && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      if (j >= end) throw parseErr(src, i, 'unterminated quoted string');
      const text = src.slice(i, j + 1);
      toks.push({ k: 'lit', v: unquoteGo(text, src, i), pos: i, text });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const j = src.indexOf('`', i + 1);
      if (j < 0 || j >= end) throw parseErr(src, i, 'unterminated raw quoted string');
      const text = src.slice(i, j + 1);
      toks.push({ k: 'lit', v: text.slice(1, -1), pos: i, text });
      i = j + 1;
      continue;
    }
    if (c === '.') {
      const m = FIELD_CHAIN.exec(src.slice(i, end));
      if (m) {
        toks.push({ k: 'field', names: m[0].slice(1).split('.'), pos: i, text: m[0] });
        i += m[0].length;
      } else {
        toks.push({ k: 'dot', pos: i });
        i++;
      }
      continue;
    }
    if (c === '$') {
      const m = /^\$[A-Za-z0-9_]*/.exec(src.slice(i, end))!;
      const rest = FIELD_CHAIN.exec(src.slice(i + m[0].length, end));
      const names = rest ? rest[0].slice(1).split('.') : [];
      const text = m[0] + (rest ? rest[0] : '');
      toks.push({ k: 'var', name: m[0], names, pos: i, text });
      i += text.length;
      continue;
    }
    const num = /^[-+]?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)/.exec(src.slice(i, end));
    if (num && (/\d/.test(c) || ((c === '-' || c === '+') && /[\d.]/.test(src[i + 1] ?? '')))) {
      toks.push({ k: 'lit', v: Number(num[0]), pos: i, text: num[0] });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, end));
    if (id) {
      const w = id[0];
      if (w === 'true' || w === 'false') toks.push({ k: 'lit', v: w === 'true', pos: i, text: w });
      else if (w === 'nil') toks.push({ k: 'lit', v: null, pos: i, text: w });
      else toks.push({ k: 'ident', name: w, pos: i });
      i += w.length;
      continue;
    }
    throw parseErr(src, i, `unexpected ${goQuote(c)} in command`);
  }
  // Where each token ends: the next token's start, less the blanks between them.
  for (let t = 0; t < toks.length; t++) {
    let e = t + 1 < toks.length ? toks[t + 1].pos : end;
    while (e > toks[t].pos + 1 && /\s/.test(src[e - 1])) e--;
    toks[t].end = e;
  }
  return toks;
}

// ------------------------------------------------------------------------------------------
// Parsing
// ------------------------------------------------------------------------------------------

const BUILTINS = new Set(['and', 'or', 'not', 'len', 'index', 'print', 'printf', 'println', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'base64decode']);
const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with']);

/** One action: its tokens and where it sits in the source. */
interface RawAction {
  toks: Tok[];
  pos: number;
  text: string;
}

type Piece = { t: 'text'; s: string } | { t: 'action'; a: RawAction };

function split(src: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  let trimNext = false;
  while (i <= src.length) {
    const open = src.indexOf('{{', i);
    let text = open < 0 ? src.slice(i) : src.slice(i, open);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, '');
    trimNext = false;
    if (open < 0) {
      if (text) pieces.push({ t: 'text', s: text });
      break;
    }
    let inner = open + 2;
    if (src[inner] === '-' && /[ \t\r\n]/.test(src[inner + 1] ?? '')) {
      text = text.replace(/[ \t\r\n]+$/, '');
      inner += 2;
    }
    if (text) pieces.push({ t: 'text', s: text });
    // The action ends at the first `}}` outside quotes.
    let j = inner;
    let close = -1;
    while (j < src.length) {
      const ch = src[j];
      if (ch === '"') {
        const q = j;
        j++;
        while (j < src.length && src[j] !== '"' && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
        if (j >= src.length || src[j] === '\n') throw parseErr(src, q, 'unterminated quoted string');
        j++;
        continue;
      }
      if (ch === '`') {
        const k = src.indexOf('`', j + 1);
        j = k < 0 ? src.length : k + 1;
        continue;
      }
      if (ch === '}' && src[j + 1] === '}') {
        close = j;
        break;
      }
      j++;
    }
    if (close < 0) throw parseErr(src, open, 'unclosed action');
    let end = close;
    if (src[close - 1] === '-' && /[ \t\r\n]/.test(src[close - 2] ?? '')) {
      end = close - 2;
      trimNext = true;
    }
    const body = src.slice(inner, end).trim();
    if (!(body.startsWith('/*') && body.endsWith('*/'))) {
      pieces.push({ t: 'action', a: { toks: lexAction(src, inner, end), pos: inner, text: src.slice(inner, end).trim() } });
    } else if (body.startsWith('/*') && !body.endsWith('*/')) throw parseErr(src, inner, 'unclosed comment');
    i = close + 2;
  }
  return pieces;
}

class Parser {
  private p = 0;
  /** Variables in scope (parse.go `t.vars`): `$` and the declarations seen, popped at each `end`. */
  private vars: string[] = ['$'];
  constructor(
    private readonly src: string,
    private readonly pieces: Piece[],
  ) {}

  parse(): Node[] {
    const { list, stop } = this.list();
    if (stop) throw parseErr(this.src, stop.pos, `unexpected {{${stop.text}}}`);
    return list;
  }

  /** Nodes up to an `{{else ...}}` or `{{end}}` (returned as `stop`) or the end of the template. */
  private list(): { list: Node[]; stop?: RawAction } {
    const list: Node[] = [];
    while (this.p < this.pieces.length) {
      const piece = this.pieces[this.p++];
      if (piece.t === 'text') {
        list.push({ t: 'text', s: piece.s });
        continue;
      }
      const a = piece.a;
      const first = a.toks[0];
      if (!first) throw parseErr(this.src, a.pos, 'missing value for command');
      if (first.k === 'ident' && (first.name === 'end' || first.name === 'else')) return { list, stop: a };
      if (first.k === 'ident' && (first.name === 'if' || first.name === 'range' || first.name === 'with')) {
        list.push(this.control(first.name, a, a.toks.slice(1)));
        continue;
      }
      list.push({ t: 'action', pipe: this.pipe(a.toks, a) });
    }
    return { list };
  }

  private control(kind: 'if' | 'range' | 'with', a: RawAction, toks: Tok[]): Node {
    const scope = this.vars.length;
    const pipe = this.pipe(toks, a, kind);
    const body = this.list();
    if (!body.stop) throw parseErr(this.src, this.src.length, 'unexpected EOF');
    const stopToks = body.stop.toks;
    if ((stopToks[0] as { name: string }).name === 'end') {
      if (stopToks.length > 1) throw parseErr(this.src, body.stop.pos, `unexpected ${tokText(stopToks[1])} in end`);
      this.vars.length = scope;
      return { t: kind, pipe, list: body.list, elseList: undefined };
    }
    // else, or `else if` / `else with` (the rest of the chain is one nested node ending at the same end).
    if (stopToks.length > 1) {
      const second = stopToks[1];
      if (second.k === 'ident' && (second.name === 'if' || second.name === 'with') && kind !== 'range') {
        const nested = this.control(second.name, body.stop, stopToks.slice(2));
        this.vars.length = scope;
        return { t: kind, pipe, list: body.list, elseList: [nested] };
      }
      throw parseErr(this.src, body.stop.pos, `unexpected ${tokText(second)} in else`);
    }
    const elseBody = this.list();
    if (!elseBody.stop) throw parseErr(this.src, this.src.length, 'unexpected EOF');
    if ((elseBody.stop.toks[0] as { name: string }).name !== 'end') throw parseErr(this.src, elseBody.stop.pos, 'expected end; found {{else}}');
    this.vars.length = scope;
    return { t: kind, pipe, list: body.list, elseList: elseBody.list };
  }

  /** A pipeline; `context` names it in `missing value for <context>` (parse.go checkPipeline). */
  private pipe(toks: Tok[], a: RawAction, context: 'command' | 'if' | 'range' | 'with' | 'parenthesized pipeline' = 'command'): Pipe {
    const isRange = context === 'range';
    let i = 0;
    const decls: string[] = [];
    // `$x :=`, `$x =`, and in range `$i, $e :=`.
    if (toks[0]?.k === 'var' && toks[0].names.length === 0) {
      if (toks[1]?.k === ':=' || toks[1]?.k === '=') {
        decls.push(toks[0].name);
        i = 2;
      } else if (isRange && toks[1]?.k === ',' && toks[2]?.k === 'var' && (toks[3]?.k === ':=' || toks[3]?.k === '=')) {
        decls.push(toks[0].name, (toks[2] as { name: string }).name);
        i = 4;
      }
    }
    this.vars.push(...decls);
    const cmds: Cmd[] = [];
    let cur: Operand[] = [];
    let curPos = toks[i]?.pos ?? a.pos;
    let curEnd = curPos;
    const cmdText = () => this.src.slice(curPos, curEnd).replace(/\s+/g, ' ');
    for (; i < toks.length; i++) {
      const t = toks[i];
      if (t.k === '|') {
        // A trailing `|` before the closing delimiter is accepted (parse.go pipeline ends at it).
        if (cur.length === 0) throw parseErr(this.src, t.pos, 'missing command');
        if (i === toks.length - 1) break;
        cmds.push({ args: cur, pos: curPos, text: cmdText() });
        cur = [];
        curPos = toks[i + 1]?.pos ?? t.pos;
        continue;
      }
      curEnd = Math.max(curEnd, t.end ?? t.pos);
      if (t.k === '(') {
        let depth = 1;
        let j = i + 1;
        for (; j < toks.length && depth > 0; j++) {
          if (toks[j].k === '(') depth++;
          else if (toks[j].k === ')') depth--;
        }
        if (depth > 0) throw parseErr(this.src, t.pos, 'unclosed left paren');
        const inner = this.pipe(toks.slice(i + 1, j - 1), a, 'parenthesized pipeline');
        let names: string[] = [];
        let text = this.src.slice(t.pos, toks[j - 1].pos + 1);
        let epos = t.pos;
        const next = toks[j];
        // A field chain directly after `)`: `(index .x 0).name`.
        if (next && next.k === 'field' && next.pos === toks[j - 1].pos + 1) {
          names = next.names;
          // Go reports a failing field of `(...).a` at the last node the parenthesised pipeline
          // evaluated (`at <0>` for `(index .x 0).a`): the state's node is not moved to the chain.
          const lastCmd = inner.cmds[inner.cmds.length - 1];
          const last = lastCmd.args[lastCmd.args.length - 1];
          epos = last.pos;
          text = 'text' in last ? last.text : last.t === 'ident' ? last.name : '.';
          curEnd = Math.max(curEnd, next.end ?? next.pos);
          j++;
        } else curEnd = Math.max(curEnd, toks[j - 1].pos + 1);
        cur.push({ t: 'paren', pipe: inner, names, pos: t.pos, epos, text });
        i = j - 1;
        continue;
      }
      if (t.k === ')') throw parseErr(this.src, t.pos, 'unexpected right paren');
      if (t.k === ':=' || t.k === '=' || t.k === ',') throw parseErr(this.src, t.pos, `unexpected ${goQuote(t.k)} in command`);
      if (t.k === 'ident') {
        if (KEYWORDS.has(t.name)) throw parseErr(this.src, t.pos, `unexpected <${t.name}> in command`);
        if (!BUILTINS.has(t.name)) throw parseErr(this.src, t.pos, `function ${goQuote(t.name)} not defined`);
        cur.push({ t: 'ident', name: t.name, pos: t.pos });
        continue;
      }
      if (t.k === 'dot') cur.push({ t: 'dot', pos: t.pos });
      else if (t.k === 'field') cur.push({ t: 'field', names: t.names, pos: t.pos, epos: t.names.length > 1 ? t.pos + 1 + t.names[0].length : t.pos, text: t.text });
      else if (t.k === 'var') {
        if (!this.vars.includes(t.name)) throw parseErr(this.src, t.pos, `undefined variable ${goQuote(t.name)}`);
        cur.push({ t: 'var', name: t.name, names: t.names, pos: t.pos, epos: t.names.length ? t.pos + t.name.length : t.pos, text: t.text });
      } else if (t.k === 'lit') cur.push({ t: 'lit', v: t.v, pos: t.pos, text: t.text });
      else throw parseErr(this.src, t.pos, `unexpected ${goQuote(t.k)} in command`);
    }
    if (cur.length) cmds.push({ args: cur, pos: curPos, text: cmdText() });
    if (cmds.length === 0) throw parseErr(this.src, a.pos, `missing value for ${context}`);
    return { decls, cmds, pos: a.pos, text: a.text };
  }
}

function tokText(t: Tok): string {
  if (t.k === 'ident') return `<${t.name}>`;
  if ('text' in t) return `<${t.text}>`;
  return goQuote(t.k);
}

/**
 * Parse a template. Throws `GoTemplateError` with Go's message (`template: output:1: unclosed
 * action`, `template: output:1: function "foo" not defined`, `template: output:1: unexpected EOF`).
 */
export function parseGoTemplate(source: string): GoTemplate {
  const nodes = new Parser(source, split(source)).parse();
  return { nodes, source };
}

// ------------------------------------------------------------------------------------------
// Execution
// ------------------------------------------------------------------------------------------

interface State {
  src: string;
  missingKeyError: boolean;
  vars: { name: string; v: Val }[];
  out: string[];
}

function isMap(v: Val): v is Record<string, Val> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typeName(v: Val): string {
  return v === MISSING ? '<no value>' : goTypeName(v);
}

function execErr(s: State, pos: number, context: string, msg: string): GoTemplateError {
  // parse.Tree.ErrorContext: line, then the byte offset within it (the offset itself on line 1).
  const before = s.src.slice(0, pos);
  const nl = before.lastIndexOf('\n');
  const col = nl < 0 ? pos : pos - (nl + 1);
  return new GoTemplateError(`template: output:${lineOf(s.src, pos)}:${col}: executing "output" at <${context}>: ${msg}`);
}

/** text/template's `isTrue`: false, 0, "", nil and empty slices and maps are false. */
function truth(v: Val): boolean {
  if (v === MISSING || v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

function fieldChain(s: State, v: Val, names: string[], pos: number, context: string): Val {
  for (const name of names) {
    if (v === MISSING) {
      if (s.missingKeyError) throw execErr(s, pos, context, `nil data; no entry for key ${goQuote(name)}`);
      return MISSING;
    }
    if (v === null || v === undefined) throw execErr(s, pos, context, `nil pointer evaluating interface {}.${name}`);
    // exec.go evalField names the receiver's static type, interface {} for any value read from the object.
    if (!isMap(v)) throw execErr(s, pos, context, `can't evaluate field ${name} in type interface {}`);
    if (!Object.prototype.hasOwnProperty.call(v, name)) {
      if (s.missingKeyError) throw execErr(s, pos, context, `map has no entry for key ${goQuote(name)}`);
      v = MISSING;
      continue;
    }
    v = v[name];
  }
  return v;
}

function lookupVar(s: State, name: string, pos: number, context: string): Val {
  for (let i = s.vars.length - 1; i >= 0; i--) if (s.vars[i].name === name) return s.vars[i].v;
  throw execErr(s, pos, context, `undefined variable: ${name}`);
}

function evalOperand(s: State, dot: Val, o: Operand): Val {
  switch (o.t) {
    case 'dot':
      return dot;
    case 'field':
      return fieldChain(s, dot, o.names, o.epos, o.text);
    case 'var':
      return fieldChain(s, lookupVar(s, o.name, o.pos, o.text), o.names, o.epos, o.text);
    case 'lit':
      return o.v;
    case 'paren':
      return fieldChain(s, evalPipe(s, dot, o.pipe), o.names, o.epos, o.text);
    case 'ident':
      return callFn(s, o.name, [], o.pos, o.name);
  }
}

/**
 * `fmt.Sprint(v)` of a function argument: a missing key arrives as a nil interface{} (`<nil>`,
 * exec.go validateType), maps and lists print as `map[...]` / `[...]` with `<nil>` for nulls.
 */
function show(v: Val): string {
  return goSprint(v === MISSING ? null : v);
}

/** `fmt.Sprint(args...)`: a space between operands when neither is a string. */
function sprint(args: Val[]): string {
  let out = '';
  for (let i = 0; i < args.length; i++) {
    if (i > 0 && typeof args[i] !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += show(args[i]);
  }
  return out;
}

/** `fmt.Sprintf` for the verbs templates use: %s %v %d %q %t %f %x %%, width and `-` flag. */
function sprintf(format: string, args: Val[]): string {
  let ai = 0;
  return format.replace(/%([-+# 0]*)(\d*)(?:\.(\d+))?([a-zA-Z%])/g, (_m, flags: string, width: string, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (ai >= args.length) return `%!${verb}(MISSING)`;
    const a = args[ai++];
    let r: string;
    switch (verb) {
      case 'd':
        r = typeof a === 'number' && isGoInt(a) ? String(a) : `%!d(${typeName(a)}=${show(a)})`;
        break;
      case 'q':
        r = typeof a === 'string' ? goQuote(a) : show(a);
        break;
      case 's':
        // fmt's bad-verb form for a number or bool: `%!s(int64=3)` (numbers read from the object are int64).
        r = typeof a === 'number' || typeof a === 'boolean' ? `%!s(${typeName(a)}=${show(a)})` : show(a);
        break;
      case 'f':
        r = typeof a === 'number' ? a.toFixed(prec === undefined ? 6 : Number(prec)) : `%!f(${typeName(a)}=${show(a)})`;
        break;
      case 'x':
        r = typeof a === 'number' ? Math.trunc(a).toString(16) : typeof a === 'string' ? Array.from(new TextEncoder().encode(a), (b) => b.toString(16).padStart(2, '0')).join('') : show(a);
        break;
      default:
        r = typeof a === 'number' ? goFormatNumber(a) : show(a);
    }
    const w = Number(width || 0);
    if (r.length < w) r = flags.includes('-') ? r.padEnd(w) : r.padStart(w, flags.includes('0') && verb === 'd' ? '0' : ' ');
    return r;
  }) + (ai < args.length ? `%!(EXTRA ${args.slice(ai).map((a) => `${typeName(a)}=${show(a)}`).join(', ')})` : '');
}

function basicKind(v: Val): 'int' | 'float' | 'string' | 'bool' | 'nil' | 'other' {
  if (v === null || v === MISSING || v === undefined) return 'nil';
  if (typeof v === 'number') return isGoInt(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'other';
}

function compare(s: State, name: string, pos: number, a: Val, b: Val): number {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka === 'other' || kb === 'other') throw execErr(s, pos, name, `error calling ${name}: invalid type for comparison`);
  if (ka !== kb && !(ka !== 'string' && kb !== 'string' && ka !== 'bool' && kb !== 'bool' && ka !== 'nil' && kb !== 'nil')) {
    throw execErr(s, pos, name, `error calling ${name}: incompatible types for comparison`);
  }
  if (name !== 'eq' && name !== 'ne' && (ka === 'bool' || ka === 'nil')) throw execErr(s, pos, name, `error calling ${name}: invalid type for comparison`);
  const x = a as number | string;
  const y = b as number | string;
  return x < y ? -1 : x > y ? 1 : 0;
}

function callFn(s: State, name: string, args: Val[], pos: number, cmdText: string): Val {
  const arity = (n: number) => {
    if (args.length !== n) throw execErr(s, pos, cmdText, `wrong number of args for ${name}: want ${n} got ${args.length}`);
  };
  switch (name) {
    case 'and':
      for (const a of args) if (!truth(a)) return a;
      return args[args.length - 1];
    case 'or':
      for (const a of args) if (truth(a)) return a;
      return args[args.length - 1];
    case 'not':
      arity(1);
      return !truth(args[0]);
    case 'len': {
      arity(1);
      const a = args[0];
      if (typeof a === 'string') return new TextEncoder().encode(a).length;
      if (Array.isArray(a)) return a.length;
      if (isMap(a)) return Object.keys(a).length;
      // A missing key is an invalid reflect.Value (the Go runtime's message); a JSON null a nil interface.
      if (a === MISSING) throw execErr(s, pos, cmdText, 'error calling len: reflect: call of reflect.Value.Type on zero Value');
      throw execErr(s, pos, cmdText, `error calling len: len of ${a === null ? 'nil pointer' : `type ${goTypeName(a)}`}`);
    }
    case 'index': {
      if (args.length === 0) throw execErr(s, pos, cmdText, 'wrong number of args for index: want at least 1 got 0');
      let v = args[0];
      for (const k of args.slice(1)) {
        if (Array.isArray(v)) {
          if (typeof k !== 'number' || !isGoInt(k)) throw execErr(s, pos, cmdText, `error calling index: cannot index slice/array with type ${typeName(k)}`);
          if (k < 0 || k >= v.length) throw execErr(s, pos, cmdText, `error calling index: index out of range: ${k}`);
          v = v[k];
        } else if (isMap(v)) {
          if (typeof k !== 'string') throw execErr(s, pos, cmdText, `error calling index: value has type ${typeName(k)}; should be string`);
          // A missing key is the map's zero value, a nil interface{} (printed `<no value>`).
          v = Object.prototype.hasOwnProperty.call(v, k) ? v[k] : null;
        } else if (v === null || v === MISSING) throw execErr(s, pos, cmdText, 'error calling index: index of untyped nil');
        else throw execErr(s, pos, cmdText, `error calling index: can't index item of type ${goTypeName(v)}`);
      }
      return v;
    }
    case 'print':
      return sprint(args);
    case 'println':
      return args.map(show).join(' ') + '\n';
    case 'printf':
      if (args.length === 0 || typeof args[0] !== 'string') throw execErr(s, pos, cmdText, 'wrong number of args for printf: want at least 1 got 0');
      return sprintf(args[0], args.slice(1));
    case 'eq':
      if (args.length < 2) throw execErr(s, pos, cmdText, 'error calling eq: missing argument for comparison');
      return args.slice(1).some((b) => compare(s, name, pos, args[0], b) === 0);
    case 'ne':
      arity(2);
      return compare(s, name, pos, args[0], args[1]) !== 0;
    case 'lt':
      arity(2);
      return compare(s, name, pos, args[0], args[1]) < 0;
    case 'le':
      arity(2);
      return compare(s, name, pos, args[0], args[1]) <= 0;
    case 'gt':
      arity(2);
      return compare(s, name, pos, args[0], args[1]) > 0;
    case 'ge':
      arity(2);
      return compare(s, name, pos, args[0], args[1]) >= 0;
    case 'base64decode': {
      arity(1);
      const a = args[0];
      if (typeof a !== 'string') throw execErr(s, pos, cmdText, `wrong type for value; expected string; got ${typeName(a)}`);
      if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(a)) throw execErr(s, pos, cmdText, 'error calling base64decode: base64 decode failed: illegal base64 data at input byte 0');
      const bin = atob(a);
      return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    }
  }
  throw execErr(s, pos, cmdText, `function ${goQuote(name)} not defined`);
}

function evalCmd(s: State, dot: Val, cmd: Cmd, piped: { v: Val } | undefined): Val {
  const [head, ...rest] = cmd.args;
  if (head.t === 'ident') {
    const args = rest.map((o) => evalOperand(s, dot, o));
    if (piped) args.push(piped.v);
    return callFn(s, head.name, args, cmd.pos, cmd.text);
  }
  if (rest.length > 0 || piped) {
    const ctx = 'text' in head ? head.text : '.';
    throw execErr(s, head.pos, ctx, `can't give argument to non-function ${ctx}`);
  }
  return evalOperand(s, dot, head);
}

function evalPipe(s: State, dot: Val, pipe: Pipe): Val {
  let v: { v: Val } | undefined;
  // exec.go evalPipeline: a command's interface{} result is dug into, so a nil one (a JSON null,
  // `index` of a missing key) becomes the invalid value a missing key is (`<no value>`).
  for (const cmd of pipe.cmds) {
    const r = evalCmd(s, dot, cmd, v);
    v = { v: r === null ? MISSING : r };
  }
  const result = v ? v.v : MISSING;
  if (pipe.decls.length === 1) s.vars.push({ name: pipe.decls[0], v: result });
  return result;
}

function walk(s: State, dot: Val, nodes: Node[]): void {
  for (const n of nodes) {
    if (n.t === 'text') {
      s.out.push(n.s);
      continue;
    }
    if (n.t === 'action') {
      const v = evalPipe(s, dot, n.pipe);
      if (n.pipe.decls.length === 0) s.out.push(v === MISSING ? '<no value>' : show(v));
      continue;
    }
    const mark = s.vars.length;
    if (n.t === 'if' || n.t === 'with') {
      const v = evalPipe(s, dot, n.pipe);
      if (truth(v)) walk(s, n.t === 'with' ? v : dot, n.list);
      else if (n.elseList) walk(s, dot, n.elseList);
      s.vars.length = mark;
      continue;
    }
    // range: the pipeline's value without declaring (the declarations are per element).
    const decls = n.pipe.decls;
    const v = evalPipe(s, dot, { ...n.pipe, decls: [] });
    const each = (k: Val, e: Val) => {
      const m = s.vars.length;
      if (decls.length === 1) s.vars.push({ name: decls[0], v: e });
      if (decls.length === 2) s.vars.push({ name: decls[0], v: k }, { name: decls[1], v: e });
      walk(s, e, n.list);
      s.vars.length = m;
    };
    if (Array.isArray(v) && v.length > 0) v.forEach((e, i) => each(i, e));
    else if (isMap(v) && Object.keys(v).length > 0) for (const k of Object.keys(v).sort()) each(k, v[k]);
    else if (typeof v === 'number' && isGoInt(v) && v > 0) for (let i = 0; i < v; i++) each(i, i);
    else if (v === MISSING || v === null || Array.isArray(v) || isMap(v) || (typeof v === 'number' && isGoInt(v))) {
      if (n.elseList) walk(s, dot, n.elseList);
    } else throw execErr(s, n.pipe.pos, n.pipe.text, `range can't iterate over ${show(v)}`);
    s.vars.length = mark;
  }
}

/**
 * Run a parsed template over `data` (a decoded JSON value). `missingKeyError` is
 * `--allow-missing-template-keys=false`. Returns the text; throws `GoTemplateError` with Go's
 * `template: output:L:C: executing "output" at <...>: ...` message, `partial` holding what was
 * written before the failure.
 */
export function executeGoTemplate(t: GoTemplate, data: unknown, opts: { missingKeyError?: boolean } = {}): string {
  const s: State = { src: t.source, missingKeyError: opts.missingKeyError ?? false, vars: [{ name: '$', v: data }], out: [] };
  try {
    walk(s, data, t.nodes);
  } catch (e) {
    if (e instanceof GoTemplateError) (e as GoTemplateError & { partial?: string }).partial = s.out.join('');
    throw e;
  }
  return s.out.join('');
}
