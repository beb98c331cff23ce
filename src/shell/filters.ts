/**
 * The text utilities of the playground shell, as streaming filters: `cat`, `head`, `tail`,
 * `grep`, `wc`, `sort`, `uniq`, `cut`, `awk` (the `{print $N}` form), `sed` (addresses, ranges, `s///`, `p`, `d`, `q`),
 * `tee`, `base64`, `tr` (sets and `-d`).
 *
 * A filter is fed its input as it arrives (so `kubectl get pods -w | grep catalog` prints each
 * matching line when the watch sees it) and told when the input ends. `head` closes its input
 * once it has printed enough lines: the shell then ends the writer upstream, as SIGPIPE does.
 *
 * Messages follow GNU coreutils 9 / GNU grep 3 (what a Debian or Ubuntu laptop has), with the
 * C locale's byte order for `sort`.
 */
import type { ShellFiles } from './types';

/** Where text goes (a pipe, the terminal, a file). */
export interface Sink {
  write(text: string): void;
  /** No more input. */
  end(): void;
  /** True once the reader stopped reading (`head` is satisfied): writers should stop. */
  readonly closed: boolean;
}

/** A running filter. */
export interface FilterInstance {
  /** Where its input is written. */
  input: Sink;
  /** Exit status, valid after `input.end()`. */
  status(): number;
}

/** What a filter may touch: files of the working directory (or of the node). */
export type FilterFiles = Pick<ShellFiles, 'read' | 'isDir' | 'write'>;

/** Creates a filter for argv (argv[0] is the name). */
export type FilterFactory = (argv: string[], out: Sink, err: Sink, files: FilterFiles) => FilterInstance;

/** A sink that discards everything. */
export const NULL_SINK: Sink = { write() {}, end() {}, closed: false };

/** A sink that keeps what was written. */
export class BufferSink implements Sink {
  text = '';
  ended = false;
  write(t: string): void {
    this.text += t;
  }
  end(): void {
    this.ended = true;
  }
  get closed(): boolean {
    return false;
  }
}

/** Splits a stream into lines; `flush` returns a last line without '\n' (or undefined). */
class LineSplitter {
  private rest = '';
  push(text: string, onLine: (line: string) => boolean | void): void {
    this.rest += text;
    let i: number;
    while ((i = this.rest.indexOf('\n')) !== -1) {
      const line = this.rest.slice(0, i);
      this.rest = this.rest.slice(i + 1);
      if (onLine(line) === false) {
        this.rest = '';
        return;
      }
    }
  }
  flush(): string | undefined {
    const r = this.rest;
    this.rest = '';
    return r === '' ? undefined : r;
  }
}

/** A filter that processes whole lines as they come. */
function lineFilter(
  out: Sink,
  onLine: (line: string, hasNewline: boolean) => boolean | void,
  onEnd: () => number = () => 0,
  opts: { closedWhen?: () => boolean } = {},
): FilterInstance {
  const split = new LineSplitter();
  let stopped = false;
  let status = 0;
  return {
    input: {
      write(t) {
        if (stopped) return;
        split.push(t, (l) => {
          if (onLine(l, true) === false) stopped = true;
          return !stopped;
        });
      },
      end() {
        if (!stopped) {
          const last = split.flush();
          if (last !== undefined) onLine(last, false);
        }
        status = onEnd();
      },
      get closed() {
        return stopped || out.closed || (opts.closedWhen?.() ?? false);
      },
    },
    status: () => status,
  };
}

/** A filter that needs its whole input (sort, wc, base64). */
function wholeFilter(onEnd: (text: string) => number): FilterInstance {
  let text = '';
  let status = 0;
  return {
    input: {
      write(t) {
        text += t;
      },
      end() {
        status = onEnd(text);
      },
      closed: false,
    },
    status: () => status,
  };
}

/** A filter that failed to start (bad usage): it reads nothing and exits with `code`. */
function failed(code: number): FilterInstance {
  return { input: { write() {}, end() {}, closed: true }, status: () => code };
}

/**
 * Reads the file operands (`-` is standard input) in order, then calls `each` per content.
 * Missing files are reported with `missing(name)` and make the status 1 (2 for grep).
 */
function withOperands(
  files: FilterFiles,
  operands: string[],
  err: Sink,
  msg: { missing: (f: string) => string; isDir?: (f: string) => string },
  each: (text: string, name: string) => void,
): { run(stdin: string): number; usesStdin: boolean } {
  const usesStdin = operands.length === 0 || operands.includes('-');
  return {
    usesStdin,
    run(stdin) {
      let status = 0;
      for (const f of operands.length ? operands : ['-']) {
        if (f === '-') {
          each(stdin, '(standard input)');
          continue;
        }
        if (files.isDir(f)) {
          if (msg.isDir) {
            err.write(msg.isDir(f) + '\n');
            status = 1;
          }
          continue;
        }
        const t = files.read(f);
        if (t === undefined) {
          err.write(msg.missing(f) + '\n');
          status = 1;
          continue;
        }
        each(t, f);
      }
      return status;
    },
  };
}

const quoteName = (s: string): string => (/^[A-Za-z0-9_./+:@%=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Parse `-n N`, `-nN`, `-N`, `--lines=N`. Returns [count string | undefined, operands] or an error. */
function countOption(argv: string[], name: string, err: Sink): { count?: string; operands: string[]; extra: Set<string> } | undefined {
  let count: string | undefined;
  const operands: string[] = [];
  const extra = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-n' || a === '--lines') {
      count = argv[++i];
      if (count === undefined) {
        err.write(`${name}: option requires an argument -- 'n'\nTry '${name} --help' for more information.\n`);
        return undefined;
      }
    } else if (a.startsWith('--lines=')) count = a.slice(8);
    else if (/^-n.+/.test(a)) count = a.slice(2);
    else if (/^-\d+$/.test(a)) count = a.slice(1);
    else if (a === '-f' || a === '-F' || a === '--follow') extra.add('f');
    else if (a === '-q' || a === '-v' || a === '-c') extra.add(a);
    else if (a.startsWith('-') && a !== '-') {
      err.write(`${name}: invalid option -- '${a.slice(1, 2)}'\nTry '${name} --help' for more information.\n`);
      return undefined;
    } else operands.push(a);
  }
  return { count, operands, extra };
}

// ---------------------------------------------------------------------------------------------

const cat: FilterFactory = (argv, out, err, files) => {
  let number = false;
  const operands: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '-n') number = true;
    else if (a.startsWith('-') && a !== '-' && a.length > 1) {
      if (!/^-[AeEsStTuv]+$/.test(a)) {
        err.write(`cat: invalid option -- '${a[1]}'\nTry 'cat --help' for more information.\n`);
        return failed(1);
      }
    } else operands.push(a);
  }
  let n = 0;
  const emit = (text: string): void => {
    if (!number) {
      out.write(text);
      return;
    }
    const lines = text.split('\n');
    const last = lines.pop();
    for (const l of lines) out.write(`${String(++n).padStart(6)}\t${l}\n`);
    if (last) out.write(`${String(++n).padStart(6)}\t${last}`);
  };
  if (operands.length === 0 && !number) {
    // Plain pass-through: stream.
    return { input: { write: (t) => out.write(t), end() {}, get closed() { return out.closed; } }, status: () => 0 };
  }
  const ops = withOperands(files, operands, err, { missing: (f) => `cat: ${quoteName(f)}: No such file or directory`, isDir: (f) => `cat: ${quoteName(f)}: Is a directory` }, emit);
  return wholeFilter((stdin) => ops.run(stdin));
};

const head: FilterFactory = (argv, out, err, files) => {
  const o = countOption(argv, 'head', err);
  if (!o) return failed(1);
  const n = o.count === undefined ? 10 : Number(o.count);
  if (!Number.isInteger(n)) {
    err.write(`head: invalid number of lines: ‘${o.count}’\n`);
    return failed(1);
  }
  if (o.operands.length === 0 || (o.operands.length === 1 && o.operands[0] === '-')) {
    if (n < 0) {
      // All but the last |n| lines.
      return wholeFilter((text) => {
        const lines = splitLines(text);
        out.write(lines.slice(0, Math.max(0, lines.length + n)).join(''));
        return 0;
      });
    }
    let seen = 0;
    if (n === 0) return { input: { write() {}, end() {}, closed: true }, status: () => 0 };
    return lineFilter(out, (line, nl) => {
      out.write(line + (nl ? '\n' : ''));
      seen++;
      return seen < n;
    });
  }
  const many = o.operands.length > 1;
  let first = true;
  const ops = withOperands(files, o.operands, err, { missing: (f) => `head: cannot open ${quoteName(f)} for reading: No such file or directory`, isDir: (f) => `head: error reading ${quoteName(f)}: Is a directory` }, (text, name) => {
    if (many) out.write(`${first ? '' : '\n'}==> ${name} <==\n`);
    first = false;
    const lines = splitLines(text);
    out.write((n < 0 ? lines.slice(0, Math.max(0, lines.length + n)) : lines.slice(0, n)).join(''));
  });
  return wholeFilter((stdin) => ops.run(stdin));
};

const tail: FilterFactory = (argv, out, err, files) => {
  const o = countOption(argv, 'tail', err);
  if (!o) return failed(1);
  const spec = o.count ?? '10';
  const fromStart = spec.startsWith('+');
  const n = Number(spec.replace(/^[+-]/, ''));
  if (!Number.isInteger(n)) {
    err.write(`tail: invalid number of lines: ‘${spec}’\n`);
    return failed(1);
  }
  const pick = (lines: string[]): string[] => (fromStart ? lines.slice(Math.max(0, n - 1)) : n === 0 ? [] : lines.slice(-n));
  const many = o.operands.length > 1;
  let first = true;
  const ops = withOperands(files, o.operands, err, { missing: (f) => `tail: cannot open ${quoteName(f)} for reading: No such file or directory`, isDir: (f) => `tail: error reading ${quoteName(f)}: Is a directory` }, (text, name) => {
    if (many) out.write(`${first ? '' : '\n'}==> ${name} <==\n`);
    first = false;
    out.write(pick(splitLines(text)).join(''));
  });
  return wholeFilter((stdin) => ops.run(stdin));
};

/** Lines with their '\n' kept (a last line without one stays without). */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop()!;
  const out = parts.map((l) => l + '\n');
  if (last !== '') out.push(last);
  return out;
}

/** Translate a POSIX basic regular expression to a JavaScript one. */
export function breToJs(re: string): string {
  let out = '';
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === '\\' && i + 1 < re.length) {
      const n = re[++i];
      if ('+?(){}|'.includes(n)) out += n;
      else out += '\\' + n;
    } else if ('+?(){}|'.includes(c)) out += '\\' + c;
    else if (c === '[') {
      // Copy a bracket expression verbatim (POSIX classes work in JS with a small rewrite).
      let j = i + 1;
      if (re[j] === '^') j++;
      if (re[j] === ']') j++;
      while (j < re.length && re[j] !== ']') j = re[j] === '[' && re[j + 1] === ':' ? re.indexOf(':]', j + 2) + 2 : j + 1;
      out += posixClasses(re.slice(i, j + 1));
      i = j;
    } else out += c;
  }
  return out;
}

function posixClasses(bracket: string): string {
  const map: Record<string, string> = {
    alpha: 'A-Za-z',
    digit: '0-9',
    alnum: 'A-Za-z0-9',
    upper: 'A-Z',
    lower: 'a-z',
    space: ' \\t\\n\\r\\f\\v',
    blank: ' \\t',
    punct: '!-\\/:-@\\[-`{-~',
    xdigit: '0-9A-Fa-f',
  };
  return bracket.replace(/\[:([a-z]+):\]/g, (m, k: string) => map[k] ?? m);
}

const grep: FilterFactory = (argv, out, err, files) => {
  let invert = false;
  let icase = false;
  let ere = false;
  let fixed = false;
  let word = false;
  let count = false;
  let quiet = false;
  let lineNo = false;
  let onlyMatching = false;
  let withName: boolean | undefined;
  // Context lines (-A/-B/-C NUM): GNU grep prints them with `-` after the name / line number
  // and `--` between groups that are not adjacent.
  let afterN = 0;
  let beforeN = 0;
  const contextLength = (v: string | undefined, opt: string): number | undefined => {
    if (v === undefined) {
      err.write(`grep: option requires an argument -- '${opt}'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n`);
      return undefined;
    }
    if (!/^\d+$/.test(v)) {
      err.write(`grep: ${v}: invalid context length argument\n`);
      return undefined;
    }
    return Number(v);
  };
  const patterns: string[] = [];
  const operands: string[] = [];
  let noMore = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const ctxLong = /^--(after|before)?-?context=(.*)$/.exec(a);
    if (!noMore && ctxLong) {
      const v = contextLength(ctxLong[2], 'C');
      if (v === undefined) return failed(2);
      if (ctxLong[1] !== 'before') afterN = v;
      if (ctxLong[1] !== 'after') beforeN = v;
      continue;
    }
    if (noMore || !a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (a === '--') {
      noMore = true;
      continue;
    }
    if (a === '-e' || a === '--regexp') {
      const p = argv[++i];
      if (p === undefined) {
        err.write("grep: option requires an argument -- 'e'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n");
        return failed(2);
      }
      patterns.push(p);
      continue;
    }
    if (a.startsWith('--')) {
      const long: Record<string, () => void> = {
        '--invert-match': () => (invert = true),
        '--ignore-case': () => (icase = true),
        '--extended-regexp': () => (ere = true),
        '--fixed-strings': () => (fixed = true),
        '--word-regexp': () => (word = true),
        '--count': () => (count = true),
        '--quiet': () => (quiet = true),
        '--silent': () => (quiet = true),
        '--line-number': () => (lineNo = true),
        '--only-matching': () => (onlyMatching = true),
        '--color=auto': () => {},
        '--color=never': () => {},
        '--colour=auto': () => {},
      };
      if (a.startsWith('--regexp=')) patterns.push(a.slice(9));
      else if (long[a]) long[a]();
      else {
        err.write(`grep: unrecognized option '${a}'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n`);
        return failed(2);
      }
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const c = a[k];
      if (c === 'v') invert = true;
      else if (c === 'i') icase = true;
      else if (c === 'E') ere = true;
      else if (c === 'F') fixed = true;
      else if (c === 'w') word = true;
      else if (c === 'c') count = true;
      else if (c === 'q') quiet = true;
      else if (c === 'n') lineNo = true;
      else if (c === 'o') onlyMatching = true;
      else if (c === 'h') withName = false;
      else if (c === 'H') withName = true;
      else if (c === 'A' || c === 'B' || c === 'C') {
        const v = contextLength(k + 1 < a.length ? a.slice(k + 1) : argv[++i], c);
        if (v === undefined) return failed(2);
        if (c !== 'B') afterN = v;
        if (c !== 'A') beforeN = v;
        break;
      } else if (c === 'e') {
        const p = k + 1 < a.length ? a.slice(k + 1) : argv[++i];
        if (p === undefined) {
          err.write("grep: option requires an argument -- 'e'\n");
          return failed(2);
        }
        patterns.push(p);
        break;
      } else {
        err.write(`grep: invalid option -- '${c}'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n`);
        return failed(2);
      }
    }
  }
  if (patterns.length === 0) {
    if (operands.length === 0) {
      err.write("Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n");
      return failed(2);
    }
    patterns.push(operands.shift()!);
  }
  const sources = patterns.flatMap((p) => p.split('\n'));
  let re: RegExp;
  try {
    const alts = sources.map((p) => (fixed ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : ere ? posixClasses(p) : breToJs(p)));
    let body = alts.map((s) => `(?:${s})`).join('|');
    if (word) body = `(?<![A-Za-z0-9_])(?:${body})(?![A-Za-z0-9_])`;
    re = new RegExp(body, icase ? 'gi' : 'g');
  } catch {
    err.write(`grep: Unmatched ( or \\(\n`);
    return failed(2);
  }
  const showName = withName ?? operands.length > 1;
  let matched = 0;
  const state = { matches: 0 };
  const useContext = (afterN > 0 || beforeN > 0) && !quiet && !count && !onlyMatching;
  const ctx = { file: '', last: -1, after: 0, before: [] as { line: string; n: number }[], printed: false };
  const print = (line: string, name: string, n: number, sep: ':' | '-'): void => {
    if (useContext) {
      if (ctx.printed && n !== ctx.last + 1) out.write('--\n');
      ctx.last = n;
      ctx.printed = true;
    }
    out.write(`${showName ? `${name}${sep}` : ''}${lineNo ? `${n}${sep}` : ''}${line}\n`);
  };
  const lineOf = (line: string, name: string, n: number): void => {
    re.lastIndex = 0;
    const hit = re.test(line);
    if (useContext && ctx.file !== name) {
      // A new file: its line numbers start again, and nothing carries over.
      ctx.file = name;
      ctx.last = -1;
      ctx.after = 0;
      ctx.before = [];
    }
    if (hit === invert) {
      if (!useContext) return;
      if (ctx.after > 0) {
        ctx.after--;
        print(line, name, n, '-');
      } else if (beforeN > 0) {
        ctx.before.push({ line, n });
        if (ctx.before.length > beforeN) ctx.before.shift();
      }
      return;
    }
    state.matches++;
    matched++;
    if (quiet || count) return;
    if (useContext) {
      for (const b of ctx.before) print(b.line, name, b.n, '-');
      ctx.before = [];
    }
    if (onlyMatching && !invert) {
      const prefix = (showName ? `${name}:` : '') + (lineNo ? `${n}:` : '');
      re.lastIndex = 0;
      for (const m of line.matchAll(re)) if (m[0]) out.write(`${prefix}${m[0]}\n`);
    } else print(line, name, n, ':');
    if (useContext) ctx.after = afterN;
  };
  if (operands.length === 0 || (operands.length === 1 && operands[0] === '-')) {
    let n = 0;
    return lineFilter(
      out,
      (line) => {
        lineOf(line, '(standard input)', ++n);
        if (quiet && matched > 0) return false;
      },
      () => {
        if (count) out.write(`${matched}\n`);
        return matched > 0 ? 0 : 1;
      },
    );
  }
  const ops = withOperands(files, operands, err, { missing: (f) => `grep: ${f}: No such file or directory`, isDir: (f) => `grep: ${f}: Is a directory` }, (text, name) => {
    matched = 0;
    let n = 0;
    for (const l of splitLines(text)) lineOf(l.replace(/\n$/, ''), name, ++n);
    if (count) out.write(`${showName ? `${name}:` : ''}${matched}\n`);
  });
  return wholeFilter((stdin) => {
    const s = ops.run(stdin);
    if (quiet && state.matches > 0) return 0;
    return s !== 0 ? 2 : state.matches > 0 ? 0 : 1;
  });
};

const wc: FilterFactory = (argv, out, err, files) => {
  const flags = new Set<string>();
  const operands: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '--lines') flags.add('l');
    else if (a === '--words') flags.add('w');
    else if (a === '--bytes') flags.add('c');
    else if (a === '--chars') flags.add('m');
    else if (/^-[lwcm]+$/.test(a)) for (const c of a.slice(1)) flags.add(c);
    else if (a.startsWith('-') && a !== '-') {
      err.write(`wc: invalid option -- '${a[1]}'\nTry 'wc --help' for more information.\n`);
      return failed(1);
    } else operands.push(a);
  }
  if (flags.size === 0) ['l', 'w', 'c'].forEach((f) => flags.add(f));
  const order = ['l', 'w', 'm', 'c'].filter((f) => flags.has(f));
  const counts = (t: string): Record<string, number> => ({
    l: (t.match(/\n/g) ?? []).length,
    w: t.split(/\s+/).filter(Boolean).length,
    c: utf8Bytes(t),
    m: [...t].length,
  });
  const rows: { c: Record<string, number>; name?: string }[] = [];
  const ops = withOperands(files, operands, err, { missing: (f) => `wc: ${f}: No such file or directory`, isDir: (f) => `wc: ${f}: Is a directory` }, (text, name) =>
    rows.push({ c: counts(text), name: operands.length ? name : undefined }),
  );
  return wholeFilter((stdin) => {
    const s = ops.run(stdin);
    if (rows.length > 1) {
      const total: Record<string, number> = { l: 0, w: 0, c: 0, m: 0 };
      for (const r of rows) for (const k of order) total[k] += r.c[k];
      rows.push({ c: total, name: 'total' });
    }
    // GNU wc: a single count from stdin is unpadded; otherwise every column has one width.
    const single = order.length === 1 && rows.length === 1 && rows[0].name === undefined;
    const width = single ? 0 : Math.max(operands.length ? 1 : 7, ...rows.flatMap((r) => order.map((k) => String(r.c[k]).length)));
    for (const r of rows) out.write(order.map((k) => String(r.c[k]).padStart(width)).join(' ') + (r.name !== undefined ? ` ${r.name}` : '') + '\n');
    return s;
  });
};

function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

const sort: FilterFactory = (argv, out, err, files) => {
  let reverse = false;
  let numeric = false;
  let unique = false;
  let key: number | undefined;
  let sep: string | undefined;
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-k' || a === '-t') {
      const v = argv[++i];
      if (v === undefined) {
        err.write(`sort: option requires an argument -- '${a[1]}'\nTry 'sort --help' for more information.\n`);
        return failed(2);
      }
      if (a === '-k') key = parseInt(v, 10);
      else sep = v;
      continue;
    }
    if (/^-k\d/.test(a)) {
      key = parseInt(a.slice(2), 10);
      continue;
    }
    if (/^-t./.test(a)) {
      sep = a.slice(2);
      continue;
    }
    if (/^-[rnuhV]+$/.test(a)) {
      for (const c of a.slice(1)) {
        if (c === 'r') reverse = true;
        else if (c === 'n' || c === 'h' || c === 'V') numeric = true;
        else if (c === 'u') unique = true;
      }
      continue;
    }
    if (a.startsWith('-') && a !== '-') {
      err.write(`sort: invalid option -- '${a[1]}'\nTry 'sort --help' for more information.\n`);
      return failed(2);
    }
    operands.push(a);
  }
  let all = '';
  const ops = withOperands(files, operands, err, { missing: (f) => `sort: cannot read: ${f}: No such file or directory`, isDir: (f) => `sort: read failed: ${f}: Is a directory` }, (t) => {
    all += t.endsWith('\n') || t === '' ? t : t + '\n';
  });
  const keyOf = (line: string): string => {
    if (key === undefined) return line;
    const fields = sep !== undefined ? line.split(sep) : line.trim().split(/\s+/);
    return fields.slice(key - 1).join(sep ?? ' ');
  };
  const num = (s: string): number => {
    const m = /^\s*(-?\d+(?:\.\d+)?)/.exec(s);
    return m ? Number(m[1]) : 0;
  };
  const cmpBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return wholeFilter((stdin) => {
    const s = ops.run(stdin);
    if (s !== 0) return 2;
    const lines = splitLines(all).map((l) => l.replace(/\n$/, ''));
    lines.sort((a, b) => {
      const ka = keyOf(a);
      const kb = keyOf(b);
      const c = numeric ? num(ka) - num(kb) || cmpBytes(a, b) : cmpBytes(ka, kb) || cmpBytes(a, b);
      return reverse ? -c : c;
    });
    const result = unique ? lines.filter((l, i) => i === 0 || (numeric ? num(keyOf(l)) !== num(keyOf(lines[i - 1])) : keyOf(l) !== keyOf(lines[i - 1]))) : lines;
    out.write(result.map((l) => l + '\n').join(''));
    return 0;
  });
};

const uniq: FilterFactory = (argv, out, err) => {
  let countMode = false;
  let onlyDup = false;
  let onlyUnique = false;
  for (const a of argv.slice(1)) {
    if (/^-[cdu]+$/.test(a)) {
      if (a.includes('c')) countMode = true;
      if (a.includes('d')) onlyDup = true;
      if (a.includes('u')) onlyUnique = true;
    } else {
      err.write(a.startsWith('-') ? `uniq: invalid option -- '${a[1]}'\nTry 'uniq --help' for more information.\n` : `uniq: files are not supported in the playground shell; pipe into uniq\n`);
      return failed(1);
    }
  }
  let prev: string | undefined;
  let n = 0;
  const emit = (): void => {
    if (prev === undefined) return;
    if ((onlyDup && n < 2) || (onlyUnique && n > 1)) return;
    out.write(countMode ? `${String(n).padStart(7)} ${prev}\n` : `${prev}\n`);
  };
  return lineFilter(
    out,
    (line) => {
      if (line === prev) {
        n++;
        return;
      }
      emit();
      prev = line;
      n = 1;
    },
    () => {
      emit();
      return 0;
    },
  );
};

/** Parse a cut LIST (`1,3`, `2-`, `-3`, `1-2,5`). */
function parseList(list: string): ((i: number) => boolean) | undefined {
  const ranges: [number, number][] = [];
  for (const part of list.split(',')) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || (m[1] === '' && m[3] === '') || (!m[2] && m[3])) return undefined;
    const lo = m[1] === '' ? 1 : Number(m[1]);
    const hi = m[2] ? (m[3] === '' ? Infinity : Number(m[3])) : lo;
    if (lo < 1) return undefined;
    ranges.push([lo, hi]);
  }
  return (i) => ranges.some(([lo, hi]) => i >= lo && i <= hi);
}

const cut: FilterFactory = (argv, out, err, files) => {
  let delim = '\t';
  let fields: string | undefined;
  let chars: string | undefined;
  let onlyDelimited = false;
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const val = (flag: string): string | undefined => (a.length > 2 ? a.slice(2) : argv[++i]) ?? (err.write(`cut: option requires an argument -- '${flag}'\nTry 'cut --help' for more information.\n`), undefined);
    if (a.startsWith('-d')) {
      const v = val('d');
      if (v === undefined) return failed(1);
      if (v.length !== 1) {
        err.write('cut: the delimiter must be a single character\nTry \'cut --help\' for more information.\n');
        return failed(1);
      }
      delim = v;
    } else if (a.startsWith('-f')) {
      const v = val('f');
      if (v === undefined) return failed(1);
      fields = v;
    } else if (a.startsWith('-c') || a.startsWith('-b')) {
      const v = val(a[1]);
      if (v === undefined) return failed(1);
      chars = v;
    } else if (a === '-s') onlyDelimited = true;
    else if (a.startsWith('-') && a !== '-') {
      err.write(`cut: invalid option -- '${a[1]}'\nTry 'cut --help' for more information.\n`);
      return failed(1);
    } else operands.push(a);
  }
  if (fields === undefined && chars === undefined) {
    err.write("cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n");
    return failed(1);
  }
  const sel = parseList(fields ?? chars!);
  if (!sel) {
    err.write(`cut: invalid field value ‘${fields ?? chars}’\nTry 'cut --help' for more information.\n`);
    return failed(1);
  }
  const cutLine = (line: string): string | undefined => {
    if (chars !== undefined) return [...line].filter((_, i) => sel(i + 1)).join('');
    if (!line.includes(delim)) return onlyDelimited ? undefined : line;
    return line
      .split(delim)
      .filter((_, i) => sel(i + 1))
      .join(delim);
  };
  const onLine = (line: string): void => {
    const r = cutLine(line);
    if (r !== undefined) out.write(r + '\n');
  };
  if (operands.length === 0) return lineFilter(out, (l) => onLine(l));
  const ops = withOperands(files, operands, err, { missing: (f) => `cut: ${f}: No such file or directory`, isDir: (f) => `cut: ${f}: Is a directory` }, (t) => {
    for (const l of splitLines(t)) onLine(l.replace(/\n$/, ''));
  });
  return wholeFilter((stdin) => ops.run(stdin));
};

/** One item of an awk print list. */
type AwkItem = { kind: 'field'; n: number | 'NF' | 'NF-1' } | { kind: 'str'; s: string } | { kind: 'var'; name: 'NR' | 'NF' };

/**
 * The awk subset: `[PATTERN] {print ITEM[, ITEM]...}` where PATTERN is `/re/`, `!/re/`,
 * `NR>N`, `NR==N`, `NR!=N`, `$N=="x"`, `$N~/re/`, and ITEM is `$N`, `$NF`, `$(NF-1)`, `$0`,
 * `NR`, `NF` or a string literal. `-F SEP` sets the field separator.
 */
const awk: FilterFactory = (argv, out, err, files) => {
  let fs: string | undefined;
  const rest: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-F') fs = argv[++i];
    else if (a.startsWith('-F')) fs = a.slice(2);
    else rest.push(a);
  }
  const program = rest.shift();
  if (program === undefined) {
    err.write('usage: awk [-F fs] \'[pattern] {print $N}\' [file ...]\n');
    return failed(2);
  }
  const parsed = parseAwk(program);
  if (typeof parsed === 'string') {
    err.write(`awk: ${parsed}\nawk: the playground's awk understands '[pattern] {print $N, ...}' only\n`);
    return failed(2);
  }
  let nr = 0;
  const onLine = (line: string): void => {
    nr++;
    const fields = fs === undefined || fs === ' ' ? line.trim().split(/[ \t]+/).filter(Boolean) : line.split(fs.length === 1 ? fs : new RegExp(fs));
    const nf = fields.length;
    const field = (n: number): string => (n === 0 ? line : (fields[n - 1] ?? ''));
    if (!parsed.test(line, nr, field)) return;
    const vals = parsed.items.map((it) => {
      if (it.kind === 'str') return it.s;
      if (it.kind === 'var') return String(it.name === 'NR' ? nr : nf);
      const n = it.n === 'NF' ? nf : it.n === 'NF-1' ? nf - 1 : it.n;
      return field(n);
    });
    out.write((parsed.items.length ? vals.join(' ') : line) + '\n');
  };
  if (rest.length === 0) return lineFilter(out, (l) => onLine(l));
  const ops = withOperands(files, rest, err, { missing: (f) => `awk: cannot open "${f}" (No such file or directory)` }, (t) => {
    for (const l of splitLines(t)) onLine(l.replace(/\n$/, ''));
  });
  return wholeFilter((stdin) => (ops.run(stdin) === 0 ? 0 : 2));
};

function parseAwk(src: string): { test(line: string, nr: number, field: (n: number) => string): boolean; items: AwkItem[] } | string {
  const m = /^\s*(.*?)\s*\{\s*print\s*(.*?)\s*;?\s*\}\s*$/s.exec(src);
  let patternSrc: string;
  let listSrc: string;
  if (m) {
    patternSrc = m[1];
    listSrc = m[2];
  } else if (/^\s*(\/.*\/|NR\s*[<>=!]=?\s*\d+)\s*$/.test(src)) {
    patternSrc = src.trim();
    listSrc = '';
  } else return `syntax error in program '${src}'`;
  // Pattern.
  let test: (line: string, nr: number, field: (n: number) => string) => boolean = () => true;
  const p = patternSrc.trim();
  if (p) {
    let pm: RegExpExecArray | null;
    if ((pm = /^(!?)\/(.*)\/$/.exec(p))) {
      const re = new RegExp(pm[2]);
      const neg = pm[1] === '!';
      test = (line) => re.test(line) !== neg;
    } else if ((pm = /^NR\s*(==|!=|>=|<=|>|<)\s*(\d+)$/.exec(p))) {
      const op = pm[1];
      const v = Number(pm[2]);
      test = (_l, nr) => compare(nr, op, v);
    } else if ((pm = /^\$(\d+)\s*(==|!=)\s*"(.*)"$/.exec(p))) {
      const n = Number(pm[1]);
      const op = pm[2];
      const v = pm[3];
      test = (_l, _nr, f) => (f(n) === v) === (op === '==');
    } else if ((pm = /^\$(\d+)\s*(!?~)\s*\/(.*)\/$/.exec(p))) {
      const n = Number(pm[1]);
      const neg = pm[2] === '!~';
      const re = new RegExp(pm[3]);
      test = (_l, _nr, f) => re.test(f(n)) !== neg;
    } else return `syntax error in pattern '${p}'`;
  }
  // Print list.
  const items: AwkItem[] = [];
  if (listSrc) {
    const tokens = listSrc.match(/"(?:[^"\\]|\\.)*"|\$\(NF-1\)|\$NF|\$\d+|NR|NF|,|\S+/g) ?? [];
    let expectItem = true;
    for (const t of tokens) {
      if (t === ',') {
        if (expectItem) return `syntax error at ','`;
        expectItem = true;
        continue;
      }
      if (t.startsWith('"')) items.push({ kind: 'str', s: JSON.parse(t) as string });
      else if (t === '$NF') items.push({ kind: 'field', n: 'NF' });
      else if (t === '$(NF-1)') items.push({ kind: 'field', n: 'NF-1' });
      else if (/^\$\d+$/.test(t)) items.push({ kind: 'field', n: Number(t.slice(1)) });
      else if (t === 'NR' || t === 'NF') items.push({ kind: 'var', name: t });
      else return `syntax error at '${t}'`;
      expectItem = false;
    }
  }
  return { test, items };
}

function compare(a: number, op: string, b: number): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    default:
      return a <= b;
  }
}

/** A sed address: a line number, `$` (the last line) or a /REGEX/. */
type SedAddr = { kind: 'line'; n: number } | { kind: 'last' } | { kind: 're'; re: RegExp };

/** One parsed sed command: [addr1[,addr2]][!] then s///, p, d or q. */
interface SedCmd {
  a1?: SedAddr;
  a2?: SedAddr;
  negate: boolean;
  op: 'p' | 'd' | 'q' | 's';
  sub?: { re: RegExp; to: string; print: boolean };
  /** Range state: inside addr1..addr2, and the line the range started on. */
  active: boolean;
}

/**
 * Parse a sed script as GNU sed 4.9 reads the common forms: commands split by `;` or newlines,
 * each with an optional address or range (`N`, `$`, `/RE/`, `A,B`) and `!`, then `s/RE/TO/[gip]`
 * (any delimiter), `p`, `d` or `q`. Returns the error text (GNU's wording) for anything else.
 */
function parseSedScript(script: string): SedCmd[] | string {
  const cmds: SedCmd[] = [];
  let i = 0;
  const readDelimited = (d: string): string | undefined => {
    let r = '';
    while (i < script.length && script[i] !== d) {
      if (script[i] === '\\' && i + 1 < script.length) {
        r += script[i + 1] === d && d !== '/' ? script[i + 1] : script[i] + script[i + 1];
        i += 2;
        continue;
      }
      r += script[i++];
    }
    if (i >= script.length) return undefined;
    i++;
    return r;
  };
  const readAddr = (): SedAddr | undefined | string => {
    const m = /^\d+/.exec(script.slice(i));
    if (m) {
      i += m[0].length;
      return { kind: 'line', n: Number(m[0]) };
    }
    if (script[i] === '$') {
      i++;
      return { kind: 'last' };
    }
    if (script[i] === '/') {
      i++;
      const re = readDelimited('/');
      if (re === undefined) return `unterminated address regex`;
      return { kind: 're', re: new RegExp(breToJs(re)) };
    }
    return undefined;
  };
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i])) i++;
    if (i >= script.length) break;
    const a1 = readAddr();
    if (typeof a1 === 'string') return `char ${i}: ${a1}`;
    let a2: SedAddr | undefined;
    if (a1 && script[i] === ',') {
      i++;
      const r = readAddr();
      if (typeof r === 'string') return `char ${i}: ${r}`;
      if (!r) return `char ${i}: unexpected \`,'`;
      a2 = r;
    }
    while (script[i] === ' ') i++;
    let negate = false;
    if (script[i] === '!') {
      negate = true;
      i++;
      while (script[i] === ' ') i++;
    }
    const c = script[i++];
    if (c === undefined) return `char ${i}: missing command`;
    if (c === 'p' || c === 'd' || c === 'q') cmds.push({ a1, a2, negate, op: c, active: false });
    else if (c === 's') {
      const d = script[i++];
      if (d === undefined || d === '\n' || d === '\\') return `char ${i}: unterminated \`s' command`;
      const from = readDelimited(d);
      const to0 = from === undefined ? undefined : readDelimited(d);
      if (from === undefined || to0 === undefined) return `char ${script.length}: unterminated \`s' command`;
      const fm = /^[gipI]*/.exec(script.slice(i))![0];
      i += fm.length;
      const to = to0.replace(/\\(\d)/g, '$$$1').replace(/(^|[^\\])&/g, '$1$$&').replace(/\\&/g, '&').replace(/\\n/g, '\n');
      const flags = (fm.includes('g') ? 'g' : '') + (/[iI]/.test(fm) ? 'i' : '');
      cmds.push({ a1, a2, negate, op: 's', sub: { re: new RegExp(breToJs(from), flags), to, print: fm.includes('p') }, active: false });
    } else return `char ${i}: unknown command: \`${c}'`;
    while (script[i] === ' ') i++;
    if (i < script.length && !/[;\n}]/.test(script[i])) return `char ${i + 1}: extra characters after command`;
  }
  return cmds;
}

/**
 * `sed [-n] [-E|-r] [-s] [-i[SUFFIX]] [-e] SCRIPT [FILE]...`: GNU sed 4.9's common forms
 * (parseSedScript): print a range (`sed -n '/State:/,/Ready/p'`, `sed -n 2,5p`), delete lines
 * (`sed '1d'`, `/^#/d`), stop (`5q`), substitute (`s/a/b/g`). The last line (`$`) is known by
 * reading one line ahead. Input is standard input or the FILE operands as one continuous stream
 * (`-` is standard input); `-s` and `-i` take each file on its own (line numbers and `$` per file),
 * and `-i` writes each file's output back to it (after copying it to FILE+SUFFIX when a suffix is
 * given), as the learner edits a manifest before `kubectl diff`. GNU's messages and statuses:
 * `sed: can't read F: No such file or directory` (2), `sed: couldn't edit D: not a regular file`
 * (-i) or `sed: read error on D: Is a directory` (4), `sed: no input files` (-i without files, 4).
 */
const sed: FilterFactory = (argv, out, err, files) => {
  const exprs: string[] = [];
  const operands: string[] = [];
  let quietMode = false;
  let separate = false;
  let inPlace: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-e' || a === '--expression') exprs.push(argv[++i] ?? '');
    else if (a.startsWith('--expression=')) exprs.push(a.slice('--expression='.length));
    else if (a === '-n' || a === '--quiet' || a === '--silent') quietMode = true;
    else if (a === '-E' || a === '-r' || a === '--regexp-extended') continue;
    else if (a === '-s' || a === '--separate') separate = true;
    else if (a === '--in-place') inPlace = '';
    else if (a.startsWith('--in-place=')) inPlace = a.slice('--in-place='.length);
    else if (/^-[nErs]*i/.test(a)) {
      // -i[SUFFIX]: the option letters before the i, then everything after it is the suffix.
      const k = a.indexOf('i');
      quietMode ||= a.slice(0, k).includes('n');
      separate ||= a.slice(0, k).includes('s');
      inPlace = a.slice(k + 1);
    } else if (/^-[nErs]+$/.test(a)) {
      quietMode ||= a.includes('n');
      separate ||= a.includes('s');
    } else if (a.startsWith('-') && a !== '-') {
      err.write(`sed: invalid option -- '${a[1]}'\n`);
      return failed(1);
    } else if (exprs.length === 0) exprs.push(a);
    else operands.push(a);
  }
  if (exprs.length === 0) {
    err.write('Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n');
    return failed(1);
  }
  const script = exprs.join('\n');
  const first = parseSedScript(script);
  if (typeof first === 'string') {
    err.write(`sed: -e expression #1, ${first}\n`);
    return failed(1);
  }
  if (inPlace !== undefined && operands.length === 0) {
    err.write('sed: no input files\n');
    return failed(4);
  }
  if (operands.length === 0) return sedStream(first, quietMode, out);
  return wholeFilter((stdin) => {
    let status = 0;
    /** The text of one operand, or undefined after reporting why it cannot be read. */
    const read = (f: string): string | undefined => {
      if (f === '-') return stdin;
      if (files.isDir(f)) {
        err.write(inPlace !== undefined ? `sed: couldn't edit ${f}: not a regular file\n` : `sed: read error on ${f}: Is a directory\n`);
        status = 4;
        return undefined;
      }
      const t = files.read(f);
      if (t === undefined) {
        err.write(`sed: can't read ${f}: No such file or directory\n`);
        status = Math.max(status, 2);
      }
      return t;
    };
    if (inPlace === undefined && !separate) {
      // One continuous stream: line numbers and `$` run across the files.
      const texts = operands.map(read).filter((t): t is string => t !== undefined);
      const run = sedStream(first, quietMode, out);
      run.input.write(texts.map((t, i) => (i < texts.length - 1 && t !== '' && !t.endsWith('\n') ? `${t}\n` : t)).join(''));
      run.input.end();
      return status;
    }
    for (const f of operands) {
      const text = read(f);
      if (text === undefined) continue;
      const cmds = parseSedScript(script) as SedCmd[];
      if (inPlace === undefined || f === '-') {
        const run = sedStream(cmds, quietMode, out);
        run.input.write(text);
        run.input.end();
        continue;
      }
      const buf = new BufferSink();
      const run = sedStream(cmds, quietMode, buf);
      run.input.write(text);
      run.input.end();
      if (inPlace !== '') files.write(inPlace.includes('*') ? inPlace.replace(/\*/g, f) : f + inPlace, text);
      files.write(f, buf.text);
    }
    return status;
  });
};

/** The sed machine over one stream: `cmds` (fresh range state) run on every line written to its input. */
function sedStream(cmds: SedCmd[], quietMode: boolean, out: Sink): FilterInstance {
  const matches = (a: SedAddr, line: string, nr: number, last: boolean): boolean => (a.kind === 'line' ? a.n === nr : a.kind === 'last' ? last : a.re.test(line));
  const selected = (c: SedCmd, line: string, nr: number, last: boolean): boolean => {
    let hit: boolean;
    if (!c.a1) hit = true;
    else if (!c.a2) hit = matches(c.a1, line, nr, last);
    else if (c.active) {
      // GNU: the range ends on the line matching addr2 (a line number at or before this line ends it here).
      hit = true;
      if (c.a2.kind === 'line' ? nr >= c.a2.n : matches(c.a2, line, nr, last)) c.active = false;
    } else if (matches(c.a1, line, nr, last)) {
      hit = true;
      c.active = !(c.a2.kind === 'line' ? c.a2.n <= nr : c.a2.kind === 'last' ? last : false);
    } else hit = false;
    return hit !== c.negate;
  };
  let nr = 0;
  let pending: { line: string; nl: boolean } | undefined;
  let quit = false;
  const process = (line: string, nl: boolean, last: boolean): boolean => {
    nr++;
    let l = line;
    for (const c of cmds) {
      if (!selected(c, l, nr, last)) continue;
      if (c.op === 'p') out.write(l + '\n');
      else if (c.op === 'd') return true;
      else if (c.op === 'q') {
        if (!quietMode) out.write(l + (nl ? '\n' : ''));
        quit = true;
        return false;
      } else if (c.sub) {
        const before = l;
        l = l.replace(c.sub.re, c.sub.to);
        if (c.sub.print && l !== before) out.write(l + '\n');
      }
    }
    if (!quietMode) out.write(l + (nl ? '\n' : ''));
    return true;
  };
  return lineFilter(
    out,
    (line, nl) => {
      if (quit) return false;
      const prev = pending;
      pending = { line, nl };
      if (prev && !process(prev.line, prev.nl, false)) return false;
      return !quit;
    },
    () => {
      if (pending && !quit) process(pending.line, pending.nl, true);
      pending = undefined;
      return 0;
    },
  );
}

const tee: FilterFactory = (argv, out, err, files) => {
  let append = false;
  const targets: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '-a' || a === '--append') append = true;
    else targets.push(a);
  }
  for (const t of targets) {
    if (files.isDir(t)) {
      err.write(`tee: ${t}: Is a directory\n`);
      continue;
    }
    if (!append) files.write(t, '');
  }
  return {
    input: {
      write(text) {
        for (const t of targets) if (!files.isDir(t)) files.write(t, text, true);
        out.write(text);
      },
      end() {},
      get closed() {
        return false;
      },
    },
    status: () => 0,
  };
};

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** UTF-8 bytes of a string. */
function toBytes(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else {
      c -= 0;
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
  }
  return out;
}

/** Decode UTF-8 bytes (invalid sequences become U+FFFD). */
function fromBytes(b: number[]): string {
  let s = '';
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    let cp: number;
    let n: number;
    if (c < 0x80) [cp, n] = [c, 1];
    else if (c >> 5 === 6) [cp, n] = [c & 31, 2];
    else if (c >> 4 === 14) [cp, n] = [c & 15, 3];
    else if (c >> 3 === 30) [cp, n] = [c & 7, 4];
    else {
      s += '\ufffd';
      i++;
      continue;
    }
    for (let k = 1; k < n; k++) cp = (cp << 6) | ((b[i + k] ?? 0) & 63);
    s += String.fromCodePoint(cp);
    i += n;
  }
  return s;
}

/** base64 of a string's UTF-8 bytes. */
export function base64Encode(s: string): string {
  const b = toBytes(s);
  let out = '';
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < b.length ? B64[n & 63] : '=');
  }
  return out;
}

/** Decode base64 to a string (UTF-8); undefined on invalid input. */
export function base64Decode(s: string): string | undefined {
  const clean = s.replace(/[\s]/g, '');
  if (/[^A-Za-z0-9+/=]/.test(clean)) return undefined;
  const bytes: number[] = [];
  let buf = 0;
  let bits = 0;
  for (const ch of clean) {
    if (ch === '=') break;
    buf = (buf << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buf >> bits) & 255);
    }
  }
  return fromBytes(bytes);
}

const base64: FilterFactory = (argv, out, err, files) => {
  let decode = false;
  let wrap = 76;
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-d' || a === '--decode' || a === '-D') decode = true;
    else if (a === '-w') wrap = Number(argv[++i]);
    else if (/^-w\d+$/.test(a)) wrap = Number(a.slice(2));
    else if (a.startsWith('--wrap=')) wrap = Number(a.slice(7));
    else if (a === '-i' || a === '--ignore-garbage') continue;
    else if (a.startsWith('-') && a !== '-') {
      err.write(`base64: invalid option -- '${a[1]}'\nTry 'base64 --help' for more information.\n`);
      return failed(1);
    } else operands.push(a);
  }
  let input = '';
  const ops = withOperands(files, operands, err, { missing: (f) => `base64: ${f}: No such file or directory` }, (t) => (input += t));
  return wholeFilter((stdin) => {
    if (ops.run(stdin) !== 0) return 1;
    if (decode) {
      const d = base64Decode(input);
      if (d === undefined) {
        err.write('base64: invalid input\n');
        return 1;
      }
      out.write(d);
      return 0;
    }
    const e = base64Encode(input);
    if (e === '') return 0;
    if (!wrap) out.write(e + '\n');
    else for (let i = 0; i < e.length; i += wrap) out.write(e.slice(i, i + wrap) + '\n');
    return 0;
  });
};

/** Expand a tr SET (`a-z`, `\n`, `[:upper:]`). */
function trSet(s: string): string[] {
  const classes: Record<string, string> = { '[:upper:]': 'A-Z', '[:lower:]': 'a-z', '[:digit:]': '0-9', '[:space:]': ' \t\n\r\f\v', '[:alpha:]': 'A-Za-z', '[:alnum:]': 'A-Za-z0-9' };
  for (const [k, v] of Object.entries(classes)) s = s.split(k).join(v);
  const chars: string[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const n = s[++i];
      c = ({ n: '\n', t: '\t', r: '\r', '\\': '\\' } as Record<string, string>)[n] ?? n;
    }
    if (s[i + 1] === '-' && i + 2 < s.length) {
      const end = s[i + 2];
      for (let x = c.charCodeAt(0); x <= end.charCodeAt(0); x++) chars.push(String.fromCharCode(x));
      i += 2;
    } else chars.push(c);
  }
  return chars;
}

const tr: FilterFactory = (argv, out, err) => {
  let del = false;
  let squeeze = false;
  const sets: string[] = [];
  for (const a of argv.slice(1)) {
    if (/^-[ds]+$/.test(a)) {
      if (a.includes('d')) del = true;
      if (a.includes('s')) squeeze = true;
    } else sets.push(a);
  }
  if (sets.length === 0 || (!del && !squeeze && sets.length < 2)) {
    err.write(sets.length === 0 ? "tr: missing operand\nTry 'tr --help' for more information.\n" : `tr: missing operand after ‘${sets[0]}’\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n`);
    return failed(1);
  }
  const a = trSet(sets[0]);
  const b = sets[1] !== undefined ? trSet(sets[1]) : [];
  let last = '';
  return {
    input: {
      write(text) {
        let o = '';
        for (const ch of text) {
          if (del && a.includes(ch)) continue;
          let c = ch;
          if (!del && b.length) {
            const i = a.indexOf(ch);
            if (i !== -1) c = b[Math.min(i, b.length - 1)];
          }
          if (squeeze && c === last && (b.length ? b : a).includes(c)) continue;
          o += c;
          last = c;
        }
        out.write(o);
      },
      end() {},
      get closed() {
        return out.closed;
      },
    },
    status: () => 0,
  };
};

/** The filters by name, with one-line descriptions for `help`. */
export const FILTERS: Record<string, { factory: FilterFactory; help: string }> = {
  cat: { factory: cat, help: 'cat [-n] [FILE]...             print files (or standard input)' },
  head: { factory: head, help: 'head [-n N] [FILE]...           first N lines (default 10)' },
  tail: { factory: tail, help: 'tail [-n N|+N] [FILE]...        last N lines (default 10)' },
  grep: { factory: grep, help: 'grep [-v] [-i] [-E] [-F] [-w] [-c] [-n] [-o] [-q] [-A|-B|-C N] PATTERN [FILE]...   lines matching PATTERN' },
  wc: { factory: wc, help: 'wc [-l] [-w] [-c] [FILE]...     count lines, words, bytes' },
  sort: { factory: sort, help: 'sort [-r] [-n] [-u] [-k N] [-t SEP] [FILE]...   sort lines (C locale byte order)' },
  uniq: { factory: uniq, help: 'uniq [-c] [-d] [-u]             drop adjacent repeated lines' },
  cut: { factory: cut, help: 'cut -d DELIM -f LIST | -c LIST  select fields or characters' },
  awk: { factory: awk, help: "awk [-F SEP] '[/re/|NR>1] {print $N, ...}'   print fields (only this form)" },
  sed: { factory: sed, help: "sed [-n] [-s] [-i[SUFFIX]] SCRIPT [FILE]...   edit lines: s///[g], p, d, q with line, $ and /REGEX/ addresses and ranges (-i: in place)" },
  tee: { factory: tee, help: 'tee [-a] FILE...                copy standard input to files' },
  base64: { factory: base64, help: 'base64 [-d] [-w N] [FILE]       encode or decode base64' },
  tr: { factory: tr, help: 'tr [-d] [-s] SET1 [SET2]        translate or delete characters' },
};
