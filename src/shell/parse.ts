/**
 * The playground shell's parser: a small subset of bash's grammar, enough for the lines people
 * type next to a kind cluster.
 *
 * Supported: words with quoting (`'...'`, `"..."`, `$'...'`, `\` escapes, backslash-newline
 * continuation), parameter expansion (`$VAR`, `${VAR}`, `${VAR:-word}`, `${VAR-word}`,
 * `${VAR:+word}`, `${#VAR}`, `$?`, `$$`, `$#`, `$0`..`$9`, `$@`, `$*`), command substitution
 * (`$(...)` and backquotes), `~` at the start of a word, comments (`#`), pipelines (`|`, `!`),
 * lists (`&&`, `||`, `;`, newlines), redirections (`>`, `>>`, `<`, `2>`, `2>>`, `2>&1`, `>&2`,
 * `&>`, `&>>`, `<<<`), and here-documents (`<<EOF`, `<<'EOF'`, `<<"EOF"`, `<<-EOF`).
 *
 * Not supported (a syntax error names them): subshells and groups (`( )`, `{ }`), background
 * jobs (`&`), arithmetic (`$((...))`), `if`/`for`/`while`/`case`, functions.
 *
 * The parser works on a whole input (one line, or several lines when a here-document or a
 * continuation spans them). Input that could still be completed by more lines (an open quote, a
 * here-document without its delimiter, a trailing `|`, `&&`, `||` or `\`) throws
 * `IncompleteInput`, so a terminal knows to show the `> ` continuation prompt.
 */

/** A piece of a word. `quoted` parts are neither field-split nor globbed. */
export type WordPart =
  | { kind: 'lit'; text: string; quoted: boolean }
  | { kind: 'param'; name: string; quoted: boolean; op?: ParamOp; arg?: Word; length?: boolean }
  | { kind: 'cmdsub'; script: Script; quoted: boolean; source: string }
  | { kind: 'tilde' };

/** `${VAR:-x}` and friends. */
export type ParamOp = ':-' | '-' | ':+' | '+' | ':=' | '=';

/** A word: concatenated parts, expanded into zero or more fields. */
export interface Word {
  parts: WordPart[];
  /** The word as typed (for messages and `help`). */
  raw: string;
}

/** One redirection of a simple command. */
export type Redirect =
  | { op: '>' | '>>'; fd: number; target: Word }
  | { op: '<'; fd: number; target: Word }
  | { op: 'dup'; fd: number; to: number }
  | { op: 'close'; fd: number }
  | { op: '&>' | '&>>'; target: Word }
  | { op: 'heredoc'; fd: number; delimiter: string; body: Word; stripTabs: boolean; quoted: boolean; raw: string }
  | { op: 'herestring'; fd: number; word: Word };

/** `NAME=value` before a command. */
export interface Assignment {
  name: string;
  value: Word;
}

/** A simple command: assignments, words and redirections. */
export interface SimpleCommand {
  assigns: Assignment[];
  words: Word[];
  redirects: Redirect[];
}

/** `a | b | c`, optionally negated with `!`. */
export interface Pipeline {
  negate: boolean;
  commands: SimpleCommand[];
}

/** `p1 && p2 || p3`. */
export interface AndOr {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

/** A list of and-or lists separated by `;` or newlines. */
export interface Script {
  items: AndOr[];
}

/** The input ends where more could follow (open quote, here-document, trailing operator). */
export class IncompleteInput extends Error {
  constructor(readonly what: string) {
    super(`incomplete input: ${what}`);
  }
}

/** A syntax error, worded as bash words it (`syntax error near unexpected token `;;'`). */
export class ShellSyntaxError extends Error {}

const META = new Set([' ', '\t', '\n', '|', '&', ';', '<', '>', '(', ')']);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

interface PendingHeredoc {
  redirect: Extract<Redirect, { op: 'heredoc' }>;
}

/** Parse a whole input into a script. Throws `IncompleteInput` or `ShellSyntaxError`. */
export function parseScript(src: string): Script {
  const p = new Parser(src);
  const s = p.script(undefined);
  if (p.pos < src.length) throw new ShellSyntaxError(`syntax error near unexpected token \`${src[p.pos]}'`);
  return s;
}

/**
 * Whether `src` is a complete input: `complete`, `incomplete` (more lines would complete it:
 * a terminal shows the `> ` prompt) or a syntax error message.
 */
export function inputStatus(src: string): { status: 'complete' } | { status: 'incomplete' } | { status: 'error'; message: string } {
  try {
    parseScript(src);
    return { status: 'complete' };
  } catch (e) {
    if (e instanceof IncompleteInput) return { status: 'incomplete' };
    if (e instanceof ShellSyntaxError) return { status: 'error', message: e.message };
    throw e;
  }
}

class Parser {
  pos = 0;
  private heredocs: PendingHeredoc[] = [];

  constructor(private readonly src: string) {}

  private peek(o = 0): string {
    return this.src[this.pos + o] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  /** Skip blanks, comments and backslash-newlines (not newlines). */
  private skipBlanks(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && this.peek(1) === '\n') {
        // A backslash-newline that ends the input: the line continues on the next one.
        if (this.pos + 2 >= this.src.length) throw new IncompleteInput('\\');
        this.pos += 2;
      }
      else if (c === '#') {
        while (this.pos < this.src.length && this.peek() !== '\n') this.pos++;
      } else return;
    }
  }

  /** Consume a newline and read the bodies of the here-documents it ends. */
  private newline(): void {
    this.pos++;
    const pending = this.heredocs;
    this.heredocs = [];
    for (const h of pending) this.readHeredocBody(h);
  }

  /** Skip newlines (and blanks/comments between them). */
  private skipNewlines(): void {
    for (;;) {
      this.skipBlanks();
      if (this.peek() === '\n') this.newline();
      else return;
    }
  }

  /**
   * script := (andor (sep andor)*)? ; ends at EOF or at `term` (`)` of a command substitution,
   * `` ` `` of a backquote substitution).
   */
  script(term: string | undefined): Script {
    const items: AndOr[] = [];
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '') {
        if (term !== undefined) throw new IncompleteInput(term === ')' ? '$(' : '`');
        if (this.heredocs.length) throw new IncompleteInput('here-document');
        return { items };
      }
      if (term !== undefined && c === term) return { items };
      if (c === '\n') {
        this.newline();
        continue;
      }
      if (c === ';') {
        if (this.peek(1) === ';') throw new ShellSyntaxError("syntax error near unexpected token `;;'");
        if (items.length === 0) throw new ShellSyntaxError("syntax error near unexpected token `;'");
        this.pos++;
        // `a ; ;` is an error; `a ;` then EOF/newline is fine.
        this.skipBlanks();
        if (this.peek() === ';') throw new ShellSyntaxError("syntax error near unexpected token `;'");
        continue;
      }
      if (items.length > 0 && !this.afterSeparator()) throw new ShellSyntaxError(`syntax error near unexpected token \`${this.tokenText()}'`);
      items.push(this.andOr(term));
    }
  }

  /** True when the last non-blank character before `pos` is a separator (or nothing). */
  private afterSeparator(): boolean {
    for (let i = this.pos - 1; i >= 0; i--) {
      const c = this.src[i];
      if (c === ' ' || c === '\t') continue;
      return c === ';' || c === '\n';
    }
    return true;
  }

  private tokenText(): string {
    for (const op of ['&&', '||', ';;', '>>', '<<', '&', '|', ';', '(', ')', '<', '>']) if (this.startsWith(op)) return op;
    return this.peek() || 'newline';
  }

  private andOr(term: string | undefined): AndOr {
    const first = this.pipeline(term);
    const rest: AndOr['rest'] = [];
    for (;;) {
      this.skipBlanks();
      if (this.startsWith('&&') || this.startsWith('||')) {
        const op = this.src.slice(this.pos, this.pos + 2) as '&&' | '||';
        this.pos += 2;
        this.skipNewlines();
        if (this.pos >= this.src.length) throw new IncompleteInput(op);
        rest.push({ op, pipeline: this.pipeline(term) });
        continue;
      }
      if (this.peek() === '&') throw new ShellSyntaxError('background jobs (`&`) are not supported in the playground shell');
      return { first, rest };
    }
  }

  private pipeline(term: string | undefined): Pipeline {
    this.skipBlanks();
    let negate = false;
    if (this.peek() === '!' && (META.has(this.peek(1)) || this.peek(1) === '')) {
      negate = true;
      this.pos++;
    }
    const commands = [this.simpleCommand(term)];
    for (;;) {
      this.skipBlanks();
      if (this.peek() === '|' && this.peek(1) !== '|') {
        this.pos++;
        if (this.peek() === '&') throw new ShellSyntaxError('`|&` is not supported in the playground shell; use `2>&1 |`');
        this.skipNewlines();
        if (this.pos >= this.src.length) throw new IncompleteInput('|');
        commands.push(this.simpleCommand(term));
        continue;
      }
      return { negate, commands };
    }
  }

  private simpleCommand(term: string | undefined): SimpleCommand {
    const cmd: SimpleCommand = { assigns: [], words: [], redirects: [] };
    for (;;) {
      this.skipBlanks();
      const c = this.peek();
      if (c === '' || c === '\n' || c === ';' || c === '|' || (c === '&' && this.peek(1) !== '>') || (term !== undefined && c === term)) break;
      if (c === '(' || c === ')') {
        if (c === ')' && term === ')') break;
        throw new ShellSyntaxError(
          cmd.words.length === 0 && c === '('
            ? 'subshells `( ... )` are not supported in the playground shell'
            : `syntax error near unexpected token \`${c}'`,
        );
      }
      if (c === '{' && cmd.words.length === 0 && (this.peek(1) === ' ' || this.peek(1) === '\n'))
        throw new ShellSyntaxError('command groups `{ ...; }` are not supported in the playground shell');
      const r = this.redirect();
      if (r) {
        cmd.redirects.push(r);
        continue;
      }
      const start = this.pos;
      const w = this.word(false);
      if (cmd.words.length === 0) {
        const a = asAssignment(w);
        if (a) {
          cmd.assigns.push(a);
          continue;
        }
        if (RESERVED.has(w.raw)) throw new ShellSyntaxError(`\`${w.raw}' is not supported in the playground shell (no if/for/while/case/functions)`);
      }
      if (this.pos === start) throw new ShellSyntaxError(`syntax error near unexpected token \`${c}'`);
      cmd.words.push(w);
    }
    if (cmd.words.length === 0 && cmd.assigns.length === 0 && cmd.redirects.length === 0) {
      const t = this.peek();
      if (t === '') throw new IncompleteInput('command');
      throw new ShellSyntaxError(`syntax error near unexpected token \`${t === '\n' ? 'newline' : this.tokenText()}'`);
    }
    return cmd;
  }

  /** A redirection at `pos`, or undefined. */
  private redirect(): Redirect | undefined {
    const save = this.pos;
    let fd: number | undefined;
    const m = /^\d+(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 4));
    if (m) {
      fd = Number(m[0]);
      this.pos += m[0].length;
    }
    const target = (): Word => {
      this.skipBlanks();
      const c = this.peek();
      if (c === '' ) throw new IncompleteInput('redirection');
      if (c === '\n' || META.has(c)) throw new ShellSyntaxError(`syntax error near unexpected token \`${c === '\n' ? 'newline' : this.tokenText()}'`);
      return this.word(false);
    };
    if (fd === undefined && (this.startsWith('&>>') || this.startsWith('&>'))) {
      const op = this.startsWith('&>>') ? '&>>' : '&>';
      this.pos += op.length;
      return { op, target: target() };
    }
    if (this.startsWith('<<<')) {
      this.pos += 3;
      return { op: 'herestring', fd: fd ?? 0, word: target() };
    }
    if (this.startsWith('<<')) {
      this.pos += 2;
      let stripTabs = false;
      if (this.peek() === '-') {
        stripTabs = true;
        this.pos++;
      }
      this.skipBlanks();
      if (this.peek() === '' ) throw new IncompleteInput('here-document delimiter');
      if (this.peek() === '\n' || META.has(this.peek())) throw new ShellSyntaxError(`syntax error near unexpected token \`${this.peek() === '\n' ? 'newline' : this.tokenText()}'`);
      const start = this.pos;
      const w = this.word(false);
      const raw = this.src.slice(start, this.pos);
      const quoted = /['"\\]/.test(raw);
      const delimiter = w.parts.map((p) => (p.kind === 'lit' ? p.text : p.kind === 'tilde' ? '~' : p.kind === 'param' ? `$${p.name}` : `$(${p.source})`)).join('');
      const r: Extract<Redirect, { op: 'heredoc' }> = { op: 'heredoc', fd: fd ?? 0, delimiter, body: { parts: [], raw: '' }, stripTabs, quoted, raw: `<<${stripTabs ? '-' : ''}${raw}` };
      this.heredocs.push({ redirect: r });
      return r;
    }
    if (this.startsWith('>&') || this.startsWith('<&')) {
      const out = this.peek() === '>';
      this.pos += 2;
      this.skipBlanks();
      const d = /^(\d+|-)/.exec(this.src.slice(this.pos));
      if (!d) {
        if (out && fd === undefined) return { op: '&>', target: target() };
        throw new ShellSyntaxError('ambiguous redirect');
      }
      this.pos += d[0].length;
      const from = fd ?? (out ? 1 : 0);
      return d[0] === '-' ? { op: 'close', fd: from } : { op: 'dup', fd: from, to: Number(d[0]) };
    }
    if (this.startsWith('>>')) {
      this.pos += 2;
      return { op: '>>', fd: fd ?? 1, target: target() };
    }
    if (this.peek() === '>') {
      this.pos++;
      if (this.peek() === '|') this.pos++; // >| (noclobber override) is plain >
      return { op: '>', fd: fd ?? 1, target: target() };
    }
    if (this.peek() === '<') {
      this.pos++;
      if (this.peek() === '>') throw new ShellSyntaxError('`<>` is not supported in the playground shell');
      return { op: '<', fd: fd ?? 0, target: target() };
    }
    this.pos = save;
    return undefined;
  }

  /** Read a here-document body (after the newline that ends its command line). */
  private readHeredocBody(h: PendingHeredoc): void {
    const r = h.redirect;
    const lines: string[] = [];
    for (;;) {
      if (this.pos >= this.src.length) throw new IncompleteInput('here-document');
      const nl = this.src.indexOf('\n', this.pos);
      const end = nl === -1 ? this.src.length : nl;
      let line = this.src.slice(this.pos, end);
      if (r.stripTabs) line = line.replace(/^\t+/, '');
      if (line === r.delimiter) {
        this.pos = nl === -1 ? this.src.length : nl + 1;
        break;
      }
      if (nl === -1) throw new IncompleteInput('here-document');
      lines.push(line);
      this.pos = nl + 1;
    }
    const text = lines.map((l) => l + '\n').join('');
    r.body = r.quoted ? { parts: [{ kind: 'lit', text, quoted: true }], raw: text } : parseHeredocText(text);
  }

  /**
   * A word (until an unquoted metacharacter, or to the end of the input with `untilEnd`: the
   * argument of `${VAR:-word}`).
   */
  word(untilEnd: boolean): Word {
    const start = this.pos;
    const parts: WordPart[] = [];
    const lit = (text: string, quoted: boolean): void => {
      const last = parts[parts.length - 1];
      if (last && last.kind === 'lit' && last.quoted === quoted) last.text += text;
      else parts.push({ kind: 'lit', text, quoted });
    };
    if (this.peek() === '~' && (this.pos + 1 >= this.src.length || META.has(this.peek(1)) || this.peek(1) === '/')) {
      parts.push({ kind: 'tilde' });
      this.pos++;
    }
    for (;;) {
      const c = this.peek();
      if (c === '' || (!untilEnd && META.has(c))) break;
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '' || (n === '\n' && this.pos + 2 >= this.src.length)) throw new IncompleteInput('\\');
        this.pos += 2;
        if (n !== '\n') lit(n, true);
        continue;
      }
      if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end === -1) throw new IncompleteInput("'");
        lit(this.src.slice(this.pos + 1, end), true);
        this.pos = end + 1;
        continue;
      }
      if (c === '$' && this.peek(1) === "'") {
        this.pos += 2;
        lit(this.ansiC(), true);
        continue;
      }
      if (c === '"') {
        this.pos++;
        this.doubleQuoted(parts);
        continue;
      }
      if (c === '$') {
        const p = this.dollar(false);
        if (p) parts.push(p);
        else lit('$', false);
        continue;
      }
      if (c === '`') {
        parts.push(this.backquote(false));
        continue;
      }
      lit(c, false);
      this.pos++;
    }
    return { parts, raw: this.src.slice(start, this.pos) };
  }

  /** Inside `"..."` (opening quote consumed). An empty `""` still makes a (quoted, empty) part. */
  private doubleQuoted(parts: WordPart[]): void {
    let text = '';
    let pushed = false;
    const flush = (): void => {
      if (text) {
        parts.push({ kind: 'lit', text, quoted: true });
        pushed = true;
      }
      text = '';
    };
    for (;;) {
      const c = this.peek();
      if (c === '') throw new IncompleteInput('"');
      if (c === '"') {
        this.pos++;
        flush();
        if (!pushed) parts.push({ kind: 'lit', text: '', quoted: true });
        return;
      }
      if (c === '\\') {
        const n = this.peek(1);
        if (n === '') throw new IncompleteInput('"');
        if (n === '$' || n === '`' || n === '"' || n === '\\') text += n;
        else if (n !== '\n') text += '\\' + n;
        this.pos += 2;
        continue;
      }
      if (c === '$') {
        const p = this.dollar(true);
        if (p) {
          flush();
          parts.push(p);
          pushed = true;
        } else {
          text += '$';
        }
        continue;
      }
      if (c === '`') {
        flush();
        parts.push(this.backquote(true));
        pushed = true;
        continue;
      }
      text += c;
      this.pos++;
    }
  }

  /** `$'...'` body (opening consumed): ANSI-C escapes. */
  private ansiC(): string {
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '') throw new IncompleteInput("$'");
      this.pos++;
      if (c === "'") return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const n = this.peek();
      this.pos++;
      const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '0': '\0' };
      if (n in map) out += map[n];
      else out += '\\' + n;
    }
  }

  /** `$...` at `pos`: a parameter or a command substitution; undefined for a lone `$`. */
  dollar(quoted: boolean): WordPart | undefined {
    const n = this.peek(1);
    if (n === '(') {
      if (this.peek(2) === '(') throw new ShellSyntaxError('arithmetic expansion `$((...))` is not supported in the playground shell');
      const start = this.pos + 2;
      this.pos += 2;
      const saved = this.heredocs;
      this.heredocs = [];
      const script = this.script(')');
      if (this.heredocs.length) throw new IncompleteInput('here-document');
      this.heredocs = saved;
      const source = this.src.slice(start, this.pos);
      this.pos++; // ')'
      return { kind: 'cmdsub', script, quoted, source };
    }
    if (n === '{') {
      const close = this.findBrace(this.pos + 2);
      const inner = this.src.slice(this.pos + 2, close);
      this.pos = close + 1;
      return parseBraced(inner, quoted);
    }
    if (n !== '' && '?$#@*!-0123456789'.includes(n)) {
      this.pos += 2;
      return { kind: 'param', name: n, quoted };
    }
    if (NAME_START.test(n)) {
      let i = this.pos + 1;
      while (i < this.src.length && NAME_CHAR.test(this.src[i])) i++;
      const name = this.src.slice(this.pos + 1, i);
      this.pos = i;
      return { kind: 'param', name, quoted };
    }
    this.pos++;
    return undefined;
  }

  private findBrace(from: number): number {
    let depth = 1;
    for (let i = from; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '\\') i++;
      else if (c === "'") {
        const e = this.src.indexOf("'", i + 1);
        if (e === -1) throw new IncompleteInput("'");
        i = e;
      } else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return i;
    }
    throw new IncompleteInput('${');
  }

  /** `` `...` `` at `pos`. */
  backquote(quoted: boolean): WordPart {
    let i = this.pos + 1;
    let inner = '';
    for (;;) {
      if (i >= this.src.length) throw new IncompleteInput('`');
      const c = this.src[i];
      if (c === '\\' && (this.src[i + 1] === '`' || this.src[i + 1] === '\\' || this.src[i + 1] === '$')) {
        inner += this.src[i + 1];
        i += 2;
        continue;
      }
      if (c === '`') break;
      inner += c;
      i++;
    }
    this.pos = i + 1;
    const script = parseScript(inner);
    return { kind: 'cmdsub', script, quoted, source: inner };
  }
}

const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', '[[', ']]']);

/** `${...}` contents. */
function parseBraced(inner: string, quoted: boolean): WordPart {
  if (inner.startsWith('#') && inner.length > 1) {
    const name = inner.slice(1);
    if (!/^([A-Za-z_][A-Za-z0-9_]*|[0-9?#$@*!-])$/.test(name)) throw new ShellSyntaxError(`\${${inner}}: bad substitution`);
    return { kind: 'param', name, quoted, length: true };
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#$@*!-])(?:(:-|-|:\+|\+|:=|=)([\s\S]*))?$/.exec(inner);
  if (!m) throw new ShellSyntaxError(`\${${inner}}: bad substitution`);
  const part: WordPart = { kind: 'param', name: m[1], quoted };
  if (m[2]) {
    part.op = m[2] as ParamOp;
    part.arg = new Parser(m[3]).word(true);
    if (quoted) part.arg = { parts: part.arg.parts.map((p) => (p.kind === 'lit' ? { ...p, quoted: true } : p.kind === 'tilde' ? p : { ...p, quoted: true })), raw: part.arg.raw };
  }
  return part;
}

/** An unquoted here-document body: `$` expansions and `\` before `$`, `` ` ``, `\`, newline. */
function parseHeredocText(text: string): Word {
  const parts: WordPart[] = [];
  let buf = '';
  let i = 0;
  const flush = (): void => {
    if (buf) parts.push({ kind: 'lit', text: buf, quoted: true });
    buf = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && '$`\\\n'.includes(text[i + 1])) {
      if (text[i + 1] !== '\n') buf += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '$' || c === '`') {
      const p = new Parser(text);
      p.pos = i;
      const part = c === '$' ? p.dollar(true) : p.backquote(true);
      if (part) {
        flush();
        parts.push(part);
      } else buf += '$';
      i = p.pos;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return { parts, raw: text };
}

function asAssignment(w: Word): Assignment | undefined {
  const first = w.parts[0];
  if (!first || first.kind !== 'lit' || first.quoted) return undefined;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.text);
  if (!m) return undefined;
  const rest: WordPart[] = [];
  const remainder = first.text.slice(m[0].length);
  if (remainder) rest.push({ kind: 'lit', text: remainder, quoted: false });
  rest.push(...w.parts.slice(1));
  return { name: m[1], value: { parts: rest, raw: w.raw.slice(m[0].length) } };
}

/** Quote a string for display as a shell word (only when needed). */
export function quoteWord(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_./:=@%+,-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
