/**
 * What runs inside a container when its command is a shell or a small utility: a per-container
 * filesystem, a parser and interpreter for the subset of POSIX sh that container commands and
 * `kubectl exec` use, and the busybox / GNU coreutils commands those scripts call.
 *
 * Supported sh: simple commands with quoting (`'..'`, `".."`, `\`), `$VAR`, `${VAR}`,
 * `${VAR:-x}`, `$1..$9`, `$#`, `$?`, `$@`, `$(...)`, backquotes, `$((arith))`, assignments,
 * `export`, `;` `&&` `||` `|` `&` and newlines, `!`, `while`/`until`/`for`/`if`/`{ }`/`( )`,
 * functions, `break`/`continue`/`return`/`exit`, `set -e`, `trap`, `wait`, `exec`, `read`,
 * redirections `>` `>>` `<` `2>` `2>&1` `>&2` `&>` (`/dev/null` discards). Not supported:
 * `case`, here-documents, globbing, job control beyond `&` + `wait`.
 *
 * Time: `sleep N` suspends on the virtual clock. Loops that never sleep are throttled to one
 * iteration per 10 virtual ms after 100 iterations at one instant, so a busy loop cannot freeze
 * the simulation (a real one would burn a CPU).
 *
 * Messages follow the real tools: busybox ash (`sh: foo: not found`, `cat: can't open 'x': No
 * such file or directory`), dash as Debian's `/bin/sh` (`sh: 1: foo: not found`), bash
 * (`bash: line 1: foo: command not found`) and GNU coreutils (`cat: x: No such file or directory`).
 */
import { civil } from '../clock';
import type { Clock, Timer } from '../clock';
import type { Signal } from './process';
import type { Userland } from './registry';
import type { ContainerStdin } from './stdin';

// ---------------------------------------------------------------------------------------------
// Filesystem
// ---------------------------------------------------------------------------------------------

/**
 * A directory tree mounted into a container (a volume as the kubelet prepares it: emptyDir,
 * configMap, secret, hostPath, a PVC's directory). Paths are relative to the mount point, without
 * a leading slash (`''` is the mount root). Read-only sources omit the write methods.
 */
export interface MountSource {
  /** File content, or undefined when `rel` is not a file. */
  read(rel: string): string | undefined;
  /** Entry names of directory `rel`, or undefined when it is not a directory. */
  list(rel: string): string[] | undefined;
  write?(rel: string, data: string): void;
  remove?(rel: string): boolean;
  mkdir?(rel: string): void;
}

/** A mount of a `MountSource` at an absolute path of the container. */
export interface FsMount {
  path: string;
  readOnly?: boolean;
  source: MountSource;
}

/** An in-memory `MountSource` (emptyDir; tests). `files` maps relative paths to contents. */
export function memoryMount(files: Record<string, string> = {}): MountSource & { files: Map<string, string>; dirs: Set<string> } {
  const m = new Map(Object.entries(files));
  const dirs = new Set<string>(['']);
  for (const p of m.keys()) for (let d = dirnameRel(p); d !== ''; d = dirnameRel(d)) dirs.add(d);
  return {
    files: m,
    dirs,
    read: (rel) => m.get(rel),
    list: (rel) => {
      if (!dirs.has(rel)) return undefined;
      const prefix = rel === '' ? '' : `${rel}/`;
      const names = new Set<string>();
      for (const k of [...m.keys(), ...dirs]) {
        if (k !== rel && k.startsWith(prefix)) names.add(k.slice(prefix.length).split('/')[0]);
      }
      return [...names].sort();
    },
    write: (rel, data) => {
      m.set(rel, data);
      for (let d = dirnameRel(rel); d !== ''; d = dirnameRel(d)) dirs.add(d);
    },
    remove: (rel) => {
      if (m.delete(rel)) return true;
      if (dirs.has(rel) && rel !== '') {
        for (const k of [...m.keys()]) if (k.startsWith(`${rel}/`)) m.delete(k);
        for (const d of [...dirs]) if (d === rel || d.startsWith(`${rel}/`)) dirs.delete(d);
        return true;
      }
      return false;
    },
    mkdir: (rel) => {
      for (let d = rel; d !== ''; d = dirnameRel(d)) dirs.add(d);
    },
  };
}

function dirnameRel(p: string): string {
  const i = p.lastIndexOf('/');
  return i === -1 ? '' : p.slice(0, i);
}

/** Normalise an absolute or relative path against `cwd` (`.`, `..`, duplicate slashes). */
export function resolvePath(cwd: string, p: string): string {
  const parts = (p.startsWith('/') ? p : `${cwd}/${p}`).split('/');
  const out: string[] = [];
  for (const s of parts) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return `/${out.join('/')}`;
}

/** Why a filesystem write failed (errno names). */
export type FsError = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EROFS' | 'EACCES' | 'EEXIST' | 'ENOTEMPTY';

/** The strerror text of an `FsError`. */
export const FS_ERROR_TEXT: Record<FsError, string> = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EROFS: 'Read-only file system',
  EACCES: 'Permission denied',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
};

/**
 * A container's root filesystem: the image's files plus the container's writable layer (both
 * in memory, gone with the container, as an overlay upper dir is), with volumes mounted over it.
 * A new container (a restart) starts from the image again; volumes keep their content.
 */
export class ContainerFs {
  private readonly files = new Map<string, string>();
  private readonly dirs = new Set<string>(['/']);
  private readonly mounts: FsMount[];
  /** Non-root users may only write below these paths (plus writable mounts). */
  private readonly userWritable: readonly string[] | undefined;

  /**
   * @param files image files by absolute path
   * @param dirs extra (empty) directories
   * @param mounts volume mounts (longest path wins)
   * @param userWritable when set (non-root user), the only writable trees outside mounts
   */
  constructor(opts: { files?: Record<string, string>; dirs?: readonly string[]; mounts?: readonly FsMount[]; userWritable?: readonly string[] } = {}) {
    for (const [p, c] of Object.entries(opts.files ?? {})) this.putImageFile(p, c);
    for (const d of opts.dirs ?? []) this.addDir(d);
    this.mounts = [...(opts.mounts ?? [])].map((m) => ({ ...m, path: resolvePath('/', m.path) })).sort((a, b) => b.path.length - a.path.length);
    for (const m of this.mounts) this.addDir(m.path);
    this.userWritable = opts.userWritable;
  }

  private putImageFile(p: string, c: string): void {
    const abs = resolvePath('/', p);
    this.files.set(abs, c);
    this.addDir(parentOf(abs));
  }

  private addDir(d: string): void {
    for (let x = resolvePath('/', d); ; x = parentOf(x)) {
      this.dirs.add(x);
      if (x === '/') break;
    }
  }

  private mountOf(abs: string): { m: FsMount; rel: string } | undefined {
    for (const m of this.mounts) {
      if (abs === m.path) return { m, rel: '' };
      if (abs.startsWith(`${m.path}/`) || m.path === '/') return { m, rel: abs.slice(m.path.length + 1) };
    }
    return undefined;
  }

  /** `'file'`, `'dir'` or undefined. */
  stat(path: string): 'file' | 'dir' | undefined {
    const abs = resolvePath('/', path);
    const mt = this.mountOf(abs);
    if (mt) {
      if (mt.m.source.read(mt.rel) !== undefined) return 'file';
      if (mt.m.source.list(mt.rel) !== undefined) return 'dir';
      return undefined;
    }
    if (this.files.has(abs)) return 'file';
    if (this.dirs.has(abs)) return 'dir';
    return undefined;
  }

  /** File content or undefined. */
  read(path: string): string | undefined {
    const abs = resolvePath('/', path);
    const mt = this.mountOf(abs);
    if (mt) return mt.m.source.read(mt.rel);
    return this.files.get(abs);
  }

  /** Sorted entry names of a directory, or undefined. */
  list(path: string): string[] | undefined {
    const abs = resolvePath('/', path);
    const mt = this.mountOf(abs);
    if (mt) return mt.m.source.list(mt.rel);
    if (!this.dirs.has(abs)) return undefined;
    const prefix = abs === '/' ? '/' : `${abs}/`;
    const names = new Set<string>();
    for (const k of [...this.files.keys(), ...this.dirs]) {
      if (k !== abs && k.startsWith(prefix)) names.add(k.slice(prefix.length).split('/')[0]);
    }
    for (const m of this.mounts) if (m.path !== abs && m.path.startsWith(prefix)) names.add(m.path.slice(prefix.length).split('/')[0]);
    return [...names].sort();
  }

  private writable(abs: string): FsError | undefined {
    const mt = this.mountOf(abs);
    if (mt) return mt.m.readOnly || !mt.m.source.write ? 'EROFS' : undefined;
    if (this.userWritable && !this.userWritable.some((w) => abs === w || abs.startsWith(`${w}/`))) return 'EACCES';
    return undefined;
  }

  /** Write (or append to) a file. Returns an errno name on failure. */
  write(path: string, data: string, append = false): FsError | undefined {
    const abs = resolvePath('/', path);
    if (this.stat(abs) === 'dir') return 'EISDIR';
    const parent = parentOf(abs);
    const ps = this.stat(parent);
    if (ps === undefined) return 'ENOENT';
    if (ps === 'file') return 'ENOTDIR';
    const err = this.writable(abs);
    if (err) return err;
    const mt = this.mountOf(abs);
    const prev = append ? (this.read(abs) ?? '') : '';
    if (mt) mt.m.source.write!(mt.rel, prev + data);
    else this.files.set(abs, prev + data);
    return undefined;
  }

  /** Remove a file (or a directory tree when `recursive`). */
  remove(path: string, recursive = false): FsError | undefined {
    const abs = resolvePath('/', path);
    const st = this.stat(abs);
    if (st === undefined) return 'ENOENT';
    if (st === 'dir' && !recursive) return 'EISDIR';
    if (this.mounts.some((m) => m.path === abs)) return 'EACCES';
    const err = this.writable(abs);
    if (err) return err;
    const mt = this.mountOf(abs);
    if (mt) {
      if (!mt.m.source.remove) return 'EROFS';
      mt.m.source.remove(mt.rel);
      return undefined;
    }
    this.files.delete(abs);
    if (st === 'dir') {
      for (const k of [...this.files.keys()]) if (k.startsWith(`${abs}/`)) this.files.delete(k);
      for (const d of [...this.dirs]) if (d === abs || d.startsWith(`${abs}/`)) this.dirs.delete(d);
    }
    return undefined;
  }

  /** Create a directory (and parents when `parents`). */
  mkdir(path: string, parents = false): FsError | undefined {
    const abs = resolvePath('/', path);
    const st = this.stat(abs);
    if (st !== undefined) return parents && st === 'dir' ? undefined : 'EEXIST';
    const parent = parentOf(abs);
    if (this.stat(parent) === undefined) {
      if (!parents) return 'ENOENT';
      const e = this.mkdir(parent, true);
      if (e) return e;
    }
    const err = this.writable(abs);
    if (err) return err;
    const mt = this.mountOf(abs);
    if (mt) {
      if (!mt.m.source.mkdir) return 'EROFS';
      mt.m.source.mkdir(mt.rel);
    } else this.dirs.add(abs);
    return undefined;
  }
}

function parentOf(abs: string): string {
  const i = abs.lastIndexOf('/');
  return i <= 0 ? '/' : abs.slice(0, i);
}

// ---------------------------------------------------------------------------------------------
// The host a shell runs in
// ---------------------------------------------------------------------------------------------

/** Which shell's wording errors use: busybox `ash`, Debian's `dash`, or `bash`. */
export type ShellFlavor = 'ash' | 'dash' | 'bash';

/** The result of an HTTP request made from inside a container (curl, wget). */
export type HttpOutcome =
  | { status: number; body: string; headers?: Record<string, string>; delayMs?: number }
  | {
      /** refused: nothing listens; timeout: no answer in time; nxdomain: name does not resolve; reset: connection closed without a response. */
      error: 'refused' | 'timeout' | 'nxdomain' | 'reset' | 'unreachable';
      /** `ip:port` that was dialled (for messages). */
      address?: string;
      delayMs?: number;
    };

/** An HTTP request as a server model sees it. */
export interface HttpRequest {
  method: string;
  /** Path with query, e.g. `/debug/eat?mb=200`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Client IP (for access logs). */
  remoteAddr?: string;
}

/** A program model started by the shell as a child process (nginx, perl, catalog ...). */
export interface ShellChild {
  /** Deliver a catchable signal to the child. */
  signal(sig: Signal): void;
  /** Cancel everything (the container died). */
  stop(): void;
}

/** What the shell needs from the container it runs in. */
export interface ShellHost {
  readonly clock: Clock;
  readonly fs: ContainerFs;
  readonly userland: Userland;
  /**
   * The image's busybox version when its applets are busybox's (`1.28.4`, `1.36.1`), else
   * undefined: busybox before 1.29 has the classic `nslookup` (its own output format).
   */
  readonly busyboxVersion?: string;
  /**
   * `bind` when the image's `nslookup` is BIND's (an image that installs bind-tools or dnsutils
   * over its userland, as agnhost does); undefined: the userland's own.
   */
  readonly nslookup?: 'bind';
  readonly flavor: ShellFlavor;
  readonly hostname: string;
  readonly uid: number;
  readonly userName: string;
  /** Epoch of the virtual clock (Unix ms), for `date`. */
  readonly epochMs: number;
  /**
   * Does the image have command `name` (a basename)? `true`: present; `false`: definitely not
   * (`sh: x: not found`); `undefined`: the image is not fully known (the command is assumed to be
   * an application binary).
   */
  hasCommand(name: string): boolean | undefined;
  /**
   * Start a program model for `argv` (nginx, catalog, perl ...) writing to `out`/`err`;
   * `onExit(code)` when it ends. Undefined when no model claims argv.
   */
  spawn(argv: string[], io: { out: (text: string) => void; err: (text: string) => void }, onExit: (code: number) => void, execd: boolean): ShellChild | undefined;
  /** Answer an image helper command (`pg_isready`, `redis-cli ping`, `nodetool status`); undefined if not one. */
  helper(argv: string[]): { stdout: string; stderr?: string; exitCode: number } | undefined;
  /** HTTP request from this container to `url`. */
  http(url: string, req: HttpRequest): HttpOutcome;
  /** Resolve a name as the pod's resolver would; undefined when it does not resolve. */
  lookup(name: string): { name: string; address: string; server: string } | undefined;
  /** TCP connect test (`nc -z`). */
  dial(host: string, port: number): boolean;
  /** Send a signal to a PID of the container's PID namespace (1 = the main process). */
  kill(pid: number, sig: Signal): boolean;
  /** Processes of the container, for `ps`. */
  ps(): { pid: number; user: string; command: string }[];
}

/** How a run of the shell ends up being observed. */
export interface ShellIo {
  /** Standard output text (may hold several lines, or part of one). */
  out(text: string): void;
  err(text: string): void;
  stdin?: string;
  /** stdin is a terminal that stays open (`stdin: true`): reading it waits forever. */
  stdinOpen?: boolean;
  /** stdin attachable by CRI Attach (`kubectl run -i -t`): a shell without a script reads its lines from it. */
  stdinStream?: ContainerStdin;
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

type WordPart =
  | { k: 'lit'; v: string; q: boolean }
  | { k: 'var'; name: string; op?: string; arg?: Word; q: boolean }
  | { k: 'cmd'; src: string; q: boolean }
  | { k: 'arith'; src: string; q: boolean };
interface Word {
  parts: WordPart[];
  raw: string;
}
interface Redir {
  fd: number;
  op: '>' | '>>' | '<' | '>&' | '&>';
  target: Word;
}
type Node =
  | { t: 'simple'; assigns: { name: string; value: Word }[]; words: Word[]; redirs: Redir[]; line: number }
  | { t: 'list'; items: { node: Node; bg: boolean }[] }
  | { t: 'andor'; first: Node; rest: { op: '&&' | '||'; node: Node }[] }
  | { t: 'pipe'; cmds: Node[]; bang: boolean }
  | { t: 'while'; until: boolean; cond: Node; body: Node; redirs: Redir[] }
  | { t: 'for'; name: string; words: Word[] | undefined; body: Node; redirs: Redir[] }
  | { t: 'if'; branches: { cond: Node; body: Node }[]; else?: Node; redirs: Redir[] }
  | { t: 'group'; body: Node; sub: boolean; redirs: Redir[] }
  | { t: 'func'; name: string; body: Node };

type Tok = { k: 'word'; w: Word; line: number } | { k: 'op'; v: string; line: number } | { k: 'redir'; r: Redir; line: number } | { k: 'eof'; line: number };

/** A script the parser does not understand (reported as `syntax error`). */
export class ShellSyntaxError extends Error {}

const RESERVED = new Set(['while', 'until', 'for', 'do', 'done', 'if', 'then', 'elif', 'else', 'fi', 'in', '{', '}', '!', 'case', 'esac']);

class Lexer {
  private i = 0;
  private line = 1;
  private peeked: Tok | undefined;
  constructor(private readonly s: string) {}

  peek(): Tok {
    if (!this.peeked) this.peeked = this.lex();
    return this.peeked;
  }

  next(): Tok {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  private lex(): Tok {
    const s = this.s;
    // Skip blanks, line continuations and comments.
    for (;;) {
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        this.line++;
      } else if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else break;
    }
    const line = this.line;
    if (this.i >= s.length) return { k: 'eof', line };
    const c = s[this.i];
    const two = s.slice(this.i, this.i + 2);
    if (c === '\n') {
      this.i++;
      this.line++;
      return { k: 'op', v: '\n', line };
    }
    if (two === '&&' || two === '||' || two === ';;') {
      this.i += 2;
      return { k: 'op', v: two, line };
    }
    // Redirections, with an optional single-digit fd in front.
    const rm = /^(\d)?(>>|>&|<&|&>|>\||>|<)/.exec(s.slice(this.i, this.i + 4));
    if (rm) {
      {
        this.i += rm[0].length;
        let op = rm[2] as string;
        const fd = rm[1] !== undefined ? Number(rm[1]) : op.startsWith('<') ? 0 : 1;
        while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
        const target = this.word();
        if (!target) throw new ShellSyntaxError('syntax error: unexpected redirection');
        if (op === '>|') op = '>';
        if (op === '<&') op = '>&';
        return { k: 'redir', r: { fd, op: op as Redir['op'], target }, line };
      }
    }
    if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
      this.i++;
      return { k: 'op', v: c, line };
    }
    const w = this.word();
    if (!w) throw new ShellSyntaxError(`syntax error: unexpected "${c}"`);
    return { k: 'word', w, line };
  }

  /** Read one word at the cursor (undefined if none). */
  private word(): Word | undefined {
    const s = this.s;
    const start = this.i;
    const parts: WordPart[] = [];
    const lit = (v: string, q: boolean) => {
      const last = parts[parts.length - 1];
      if (last && last.k === 'lit' && last.q === q) last.v += v;
      else parts.push({ k: 'lit', v, q });
    };
    while (this.i < s.length) {
      const c = s[this.i];
      if (' \t\r\n;&|()<>'.includes(c)) break;
      if (c === '\\') {
        if (s[this.i + 1] === '\n') {
          this.i += 2;
          this.line++;
          continue;
        }
        lit(s[this.i + 1] ?? '', true);
        this.i += 2;
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        if (end === -1) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        lit(s.slice(this.i + 1, end), true);
        this.countLines(this.i, end);
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        if (parts.length === 0) parts.push({ k: 'lit', v: '', q: true });
        while (this.i < s.length && s[this.i] !== '"') {
          const d = s[this.i];
          if (d === '\\' && '"\\$`\n'.includes(s[this.i + 1] ?? '')) {
            if (s[this.i + 1] !== '\n') lit(s[this.i + 1], true);
            this.i += 2;
          } else if (d === '$' || d === '`') {
            const p = this.dollar(true);
            if (p) parts.push(p);
            else {
              lit(d, true);
              this.i++;
            }
          } else {
            if (d === '\n') this.line++;
            lit(d, true);
            this.i++;
          }
        }
        if (s[this.i] !== '"') throw new ShellSyntaxError('syntax error: unterminated quoted string');
        this.i++;
      } else if (c === '$' || c === '`') {
        const p = this.dollar(false);
        if (p) parts.push(p);
        else {
          lit(c, false);
          this.i++;
        }
      } else {
        lit(c, false);
        this.i++;
      }
    }
    if (this.i === start) return undefined;
    return { parts, raw: s.slice(start, this.i) };
  }

  private countLines(a: number, b: number): void {
    for (let k = a; k < b; k++) if (this.s[k] === '\n') this.line++;
  }

  /** Parse `$...` or a backquote at the cursor; undefined when `$` is literal. */
  private dollar(q: boolean): WordPart | undefined {
    const s = this.s;
    if (s[this.i] === '`') {
      const end = s.indexOf('`', this.i + 1);
      if (end === -1) throw new ShellSyntaxError('syntax error: unterminated `');
      const src = s.slice(this.i + 1, end);
      this.i = end + 1;
      return { k: 'cmd', src, q };
    }
    const n = s[this.i + 1];
    if (n === '(' && s[this.i + 2] === '(') {
      const end = this.matchParen(this.i + 2);
      // $(( ... )) ends with '))'
      const src = s.slice(this.i + 3, end);
      this.i = end + 2;
      return { k: 'arith', src, q };
    }
    if (n === '(') {
      const end = this.matchParen(this.i + 1);
      const src = s.slice(this.i + 2, end);
      this.countLines(this.i, end);
      this.i = end + 1;
      return { k: 'cmd', src, q };
    }
    if (n === '{') {
      const end = s.indexOf('}', this.i + 2);
      if (end === -1) throw new ShellSyntaxError('syntax error: bad substitution');
      const inner = s.slice(this.i + 2, end);
      this.i = end + 1;
      const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!])(?:(:?[-=+?])(.*))?$/.exec(inner);
      if (!m) throw new ShellSyntaxError('syntax error: bad substitution');
      if (m[1] === '#') return { k: 'var', name: m[2], op: 'len', q };
      const arg = m[3] !== undefined ? new Lexer(m[4]).wordOrEmpty() : undefined;
      return { k: 'var', name: m[2], ...(m[3] ? { op: m[3] } : {}), ...(arg ? { arg } : {}), q };
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(s.slice(this.i + 1));
    if (!m) return undefined;
    this.i += 1 + m[1].length;
    return { k: 'var', name: m[1], q };
  }

  /** Index of the ')' matching the '(' at `open`, skipping quotes and nested parens. */
  private matchParen(open: number): number {
    const s = this.s;
    let depth = 0;
    for (let k = open; k < s.length; k++) {
      const c = s[k];
      if (c === '\\') {
        k++;
      } else if (c === "'") {
        k = s.indexOf("'", k + 1);
        if (k === -1) break;
      } else if (c === '"') {
        k++;
        while (k < s.length && s[k] !== '"') {
          if (s[k] === '\\') k++;
          k++;
        }
      } else if (c === '(') depth++;
      else if (c === ')') {
        depth--;
        if (depth === 0) return k;
      }
    }
    throw new ShellSyntaxError("syntax error: unexpected end of file (expecting \")\")");
  }

  /** The whole input as one word (for `${x:-word}`), possibly empty. */
  wordOrEmpty(): Word {
    const parts: WordPart[] = [];
    while (this.i < this.s.length) {
      const w = this.word();
      if (w) parts.push(...w.parts);
      else {
        parts.push({ k: 'lit', v: this.s[this.i], q: true });
        this.i++;
      }
    }
    return { parts, raw: this.s };
  }
}

function isLiteral(w: Word, v: string): boolean {
  return w.parts.length === 1 && w.parts[0].k === 'lit' && !w.parts[0].q && w.parts[0].v === v;
}

/** Parse a script into the AST. Throws `ShellSyntaxError`. */
export function parseScript(src: string): Node {
  const lx = new Lexer(src);
  const node = parseList(lx, new Set());
  const t = lx.peek();
  if (t.k !== 'eof') throw new ShellSyntaxError(`syntax error: unexpected "${t.k === 'word' ? t.w.raw : t.k === 'op' ? t.v : 'redirection'}"`);
  return node;
}

function skipNewlines(lx: Lexer): void {
  for (let t = lx.peek(); t.k === 'op' && t.v === '\n'; t = lx.peek()) lx.next();
}

function atStop(lx: Lexer, stops: Set<string>): boolean {
  const t = lx.peek();
  if (t.k === 'eof') return true;
  if (t.k === 'op' && (t.v === ')' || t.v === ';;')) return stops.has(t.v);
  if (t.k === 'word') return stops.has(t.w.raw) && isLiteral(t.w, t.w.raw);
  return false;
}

function parseList(lx: Lexer, stops: Set<string>): Node {
  const items: { node: Node; bg: boolean }[] = [];
  skipNewlines(lx);
  while (!atStop(lx, stops)) {
    const node = parseAndOr(lx);
    let bg = false;
    const t = lx.peek();
    if (t.k === 'op' && (t.v === ';' || t.v === '&' || t.v === '\n')) {
      lx.next();
      bg = t.v === '&';
    } else if (!atStop(lx, stops) && t.k !== 'eof') {
      throw new ShellSyntaxError(`syntax error: unexpected "${t.k === 'op' ? t.v : t.k === 'word' ? t.w.raw : 'redirection'}"`);
    }
    items.push({ node, bg });
    skipNewlines(lx);
  }
  return { t: 'list', items };
}

function parseAndOr(lx: Lexer): Node {
  const first = parsePipe(lx);
  const rest: { op: '&&' | '||'; node: Node }[] = [];
  for (let t = lx.peek(); t.k === 'op' && (t.v === '&&' || t.v === '||'); t = lx.peek()) {
    lx.next();
    skipNewlines(lx);
    rest.push({ op: t.v as '&&' | '||', node: parsePipe(lx) });
  }
  return rest.length ? { t: 'andor', first, rest } : first;
}

function parsePipe(lx: Lexer): Node {
  let bang = false;
  const t0 = lx.peek();
  if (t0.k === 'word' && isLiteral(t0.w, '!')) {
    lx.next();
    bang = true;
  }
  const cmds = [parseCommand(lx)];
  for (let t = lx.peek(); t.k === 'op' && t.v === '|'; t = lx.peek()) {
    lx.next();
    skipNewlines(lx);
    cmds.push(parseCommand(lx));
  }
  return cmds.length === 1 && !bang ? cmds[0] : { t: 'pipe', cmds, bang };
}

function expectWord(lx: Lexer, v: string): void {
  skipNewlines(lx);
  const t = lx.next();
  if (t.k !== 'word' || !isLiteral(t.w, v)) throw new ShellSyntaxError(`syntax error: expected "${v}"`);
}

function parseRedirs(lx: Lexer): Redir[] {
  const out: Redir[] = [];
  for (let t = lx.peek(); t.k === 'redir'; t = lx.peek()) out.push((lx.next() as { r: Redir }).r);
  return out;
}

function parseCommand(lx: Lexer): Node {
  const t = lx.peek();
  if (t.k === 'op' && t.v === '(') {
    lx.next();
    const body = parseList(lx, new Set([')']));
    const close = lx.next();
    if (close.k !== 'op' || close.v !== ')') throw new ShellSyntaxError('syntax error: expected ")"');
    return { t: 'group', body, sub: true, redirs: parseRedirs(lx) };
  }
  if (t.k === 'word' && t.w.parts.length === 1 && t.w.parts[0].k === 'lit' && !t.w.parts[0].q) {
    const kw = t.w.raw;
    if (kw === 'while' || kw === 'until') {
      lx.next();
      const cond = parseList(lx, new Set(['do']));
      expectWord(lx, 'do');
      const body = parseList(lx, new Set(['done']));
      expectWord(lx, 'done');
      return { t: 'while', until: kw === 'until', cond, body, redirs: parseRedirs(lx) };
    }
    if (kw === 'for') {
      lx.next();
      const nameTok = lx.next();
      if (nameTok.k !== 'word') throw new ShellSyntaxError('syntax error: bad for loop variable');
      let words: Word[] | undefined;
      skipNewlines(lx);
      const n = lx.peek();
      if (n.k === 'word' && isLiteral(n.w, 'in')) {
        lx.next();
        words = [];
        for (let w = lx.peek(); w.k === 'word'; w = lx.peek()) words.push((lx.next() as { w: Word }).w);
      }
      const sep = lx.peek();
      if (sep.k === 'op' && (sep.v === ';' || sep.v === '\n')) lx.next();
      expectWord(lx, 'do');
      const body = parseList(lx, new Set(['done']));
      expectWord(lx, 'done');
      return { t: 'for', name: nameTok.w.raw, words, body, redirs: parseRedirs(lx) };
    }
    if (kw === 'if') {
      lx.next();
      const branches: { cond: Node; body: Node }[] = [];
      let elseNode: Node | undefined;
      const cond = parseList(lx, new Set(['then']));
      expectWord(lx, 'then');
      branches.push({ cond, body: parseList(lx, new Set(['elif', 'else', 'fi'])) });
      for (;;) {
        const k = lx.next();
        if (k.k !== 'word') throw new ShellSyntaxError('syntax error: expected "fi"');
        if (k.w.raw === 'fi') break;
        if (k.w.raw === 'elif') {
          const c = parseList(lx, new Set(['then']));
          expectWord(lx, 'then');
          branches.push({ cond: c, body: parseList(lx, new Set(['elif', 'else', 'fi'])) });
        } else if (k.w.raw === 'else') {
          elseNode = parseList(lx, new Set(['fi']));
        } else throw new ShellSyntaxError('syntax error: expected "fi"');
      }
      return { t: 'if', branches, ...(elseNode ? { else: elseNode } : {}), redirs: parseRedirs(lx) };
    }
    if (kw === '{') {
      lx.next();
      const body = parseList(lx, new Set(['}']));
      expectWord(lx, '}');
      return { t: 'group', body, sub: false, redirs: parseRedirs(lx) };
    }
    if (kw === 'case') throw new ShellSyntaxError('syntax error: case is not supported by the simulator');
    if (RESERVED.has(kw) && kw !== '!' && kw !== '{' && kw !== '}') throw new ShellSyntaxError(`syntax error: unexpected "${kw}"`);
  }
  // Simple command (or a function definition `name() { ...; }`).
  const assigns: { name: string; value: Word }[] = [];
  const words: Word[] = [];
  const redirs: Redir[] = [];
  const line = t.line;
  for (;;) {
    const n = lx.peek();
    if (n.k === 'redir') {
      redirs.push((lx.next() as { r: Redir }).r);
    } else if (n.k === 'word') {
      if (words.length > 0 && isLiteral(n.w, '}')) break;
      lx.next();
      const am = words.length === 0 && n.w.parts[0]?.k === 'lit' && !n.w.parts[0].q ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(n.w.parts[0].v) : null;
      if (am) {
        const first = n.w.parts[0] as { k: 'lit'; v: string; q: boolean };
        const rest: WordPart[] = [{ k: 'lit', v: first.v.slice(am[0].length), q: false }, ...n.w.parts.slice(1)];
        assigns.push({ name: am[1], value: { parts: rest, raw: n.w.raw.slice(am[0].length) } });
      } else words.push(n.w);
    } else if (n.k === 'op' && n.v === '(' && words.length === 1 && assigns.length === 0) {
      lx.next();
      const close = lx.next();
      if (close.k !== 'op' || close.v !== ')') throw new ShellSyntaxError('syntax error: expected ")"');
      skipNewlines(lx);
      const body = parseCommand(lx);
      return { t: 'func', name: words[0].raw, body };
    } else break;
  }
  if (words.length === 0 && assigns.length === 0 && redirs.length === 0) {
    const bad = lx.peek();
    throw new ShellSyntaxError(`syntax error: unexpected "${bad.k === 'op' ? (bad.v === '\n' ? 'newline' : bad.v) : 'end of file'}"`);
  }
  return { t: 'simple', assigns, words, redirs, line };
}

// ---------------------------------------------------------------------------------------------
// Interpreter
// ---------------------------------------------------------------------------------------------

/** What an interpreter step can wait for. */
type Effect =
  | { e: 'sleep'; ms: number }
  | { e: 'forever' }
  | { e: 'child'; argv: string[]; io: ShellIo; execd: boolean }
  | { e: 'tick' }
  | { e: 'wait' }
  | { e: 'read'; src: ContainerStdin; cwd: string };

type Gen = Generator<Effect, number, number | undefined>;

class ExitSignal {
  constructor(readonly code: number) {}
}
class LoopSignal {
  constructor(
    readonly kind: 'break' | 'continue',
    readonly n: number,
  ) {}
}
/** Ctrl-C at the terminal of a shell reading its stdin: the foreground command ends. */
class InterruptSignal {}
class ReturnSignal {
  constructor(readonly code: number) {}
}

interface Ctx {
  vars: Map<string, string>;
  exported: Set<string>;
  positional: string[];
  arg0: string;
  cwd: string;
  io: ShellIo;
  status: number;
  funcs: Map<string, Node>;
  errexit: boolean;
  /** Inside an if/while condition or left of && / || (set -e does not apply). */
  cond: number;
  loopDepth: number;
  lastBg: number;
}

/** Signal names `trap` accepts, mapped to our Signal type. */
const TRAP_SIGNALS: Record<string, Signal> = {
  TERM: 'SIGTERM', SIGTERM: 'SIGTERM', '15': 'SIGTERM',
  INT: 'SIGINT', SIGINT: 'SIGINT', '2': 'SIGINT',
  HUP: 'SIGHUP', SIGHUP: 'SIGHUP', '1': 'SIGHUP',
  QUIT: 'SIGQUIT', SIGQUIT: 'SIGQUIT', '3': 'SIGQUIT',
};

/** Options of `startShell`. */
export interface ShellOptions {
  /** Script source (for `sh -c`), or argv to run as one command without a shell. */
  script?: string;
  argv?: string[];
  /** `$0` and the positional parameters. */
  arg0?: string;
  args?: string[];
  /** Environment (exported variables). */
  env: Record<string, string>;
  cwd?: string;
  io: ShellIo;
  /** Called once with the exit status. */
  onExit(code: number): void;
  /**
   * What an unknown command does: `'not-found'` prints `sh: x: not found` and returns 127;
   * `'forever'` assumes an application binary and never returns (the brief's "runs forever").
   * Default: decided per command by `host.hasCommand` (false -> not-found, undefined -> forever).
   */
  unknown?: 'not-found' | 'forever';
  /** `set -e` from the start (`sh -ec`). */
  errexit?: boolean;
}

/** A running shell (or a command started without one). */
export interface ShellRun {
  /**
   * A catchable signal arrived. Returns `'trapped'` when a `trap` handles it (it runs once the
   * current foreground command finishes, or at once during `wait`), `'forwarded'` when the shell
   * had `exec`'d a program model (which got it), else `'untrapped'` (caller applies the default:
   * ignored as PID 1, fatal otherwise).
   */
  signal(sig: Signal): 'trapped' | 'forwarded' | 'untrapped';
  /** Cancel all timers and children (the process died). */
  stop(): void;
  readonly done: boolean;
}

/** The value a `child` effect resumes with when no program model claimed the command. */
const NO_MODEL = -1;

/** Busy-loop throttle: iterations allowed at one virtual instant before each costs 10 ms. */
const LOOP_ITERATIONS_PER_INSTANT = 100;
const LOOP_THROTTLE_MS = 10;

/**
 * Start a shell running `opts.script` (or `opts.argv` as a single command) in `host`.
 * Effects on the virtual clock only; `onExit` is called exactly once unless the run is stopped
 * or never ends. A syntax error prints `<sh>: syntax error: ...` and exits 2.
 */
export function startShell(host: ShellHost, opts: ShellOptions): ShellRun {
  return new ShellRunner(host, opts);
}

class ShellRunner implements ShellRun {
  private gen: Gen | undefined;
  private timer: Timer | undefined;
  private child: ShellChild | undefined;
  private childExecd = false;
  private traps = new Map<Signal, string>();
  private pendingTraps: Signal[] = [];
  private waiting = false;
  private stopped = false;
  done = false;
  private ticksAt = -1;
  private ticks = 0;
  private jobs = new Set<ShellRunner>();
  private readonly ctx: Ctx;
  private running = false;
  /** An interrupt to throw into the generator at its next step (see `interrupt`). */
  private interrupted = false;

  constructor(
    private readonly host: ShellHost,
    private readonly opts: ShellOptions,
    parentCtx?: Ctx,
    node?: Node,
  ) {
    const env = opts.env;
    this.ctx = parentCtx
      ? { ...parentCtx, vars: new Map(parentCtx.vars), exported: new Set(parentCtx.exported), funcs: new Map(parentCtx.funcs), io: opts.io }
      : {
          vars: new Map(Object.entries(env)),
          exported: new Set(Object.keys(env)),
          positional: opts.args ?? [],
          arg0: opts.arg0 ?? (host.flavor === 'bash' ? 'bash' : 'sh'),
          cwd: opts.cwd ?? '/',
          io: opts.io,
          status: 0,
          funcs: new Map(),
          errexit: opts.errexit ?? false,
          cond: 0,
          loopDepth: 0,
          lastBg: 0,
        };
    let tree: Node | undefined = node;
    if (!tree && opts.script !== undefined) {
      try {
        tree = parseScript(opts.script);
      } catch (e) {
        if (!(e instanceof ShellSyntaxError)) throw e;
        this.ctx.io.err(`${this.shellPrefix(1)}${e.message}\n`);
        this.finish(2);
        return;
      }
    }
    this.gen = tree ? this.top(tree) : this.topArgv(opts.argv ?? []);
    this.resume(undefined);
  }

  private shellPrefix(line: number): string {
    if (this.host.flavor === 'bash') return `${this.ctx.arg0}: line ${line}: `;
    if (this.host.flavor === 'dash') return `${this.ctx.arg0}: ${line}: `;
    return `${this.ctx.arg0}: `;
  }

  private *top(tree: Node): Gen {
    try {
      return yield* this.exec(tree);
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      if (e instanceof ReturnSignal) return e.code;
      if (e instanceof LoopSignal) return this.ctx.status;
      throw e;
    }
  }

  private *topArgv(argv: string[]): Gen {
    try {
      return yield* this.runArgv(argv, this.ctx.io, 1, true);
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      throw e;
    }
  }

  private finish(code: number): void {
    if (this.done) return;
    this.done = true;
    this.timer?.cancel();
    for (const j of this.jobs) j.stop();
    this.jobs.clear();
    this.opts.onExit(code);
  }

  /** Drive the generator until it waits on time, a child, or ends. */
  private resume(value: number | undefined): void {
    if (this.stopped || this.done || !this.gen || this.running) return;
    this.running = true;
    try {
      let v = value;
      for (;;) {
        if (this.pendingTraps.length && !this.child) {
          // A trap runs between commands: feed it in as a nested run at this point.
          const sig = this.pendingTraps.shift()!;
          const action = this.traps.get(sig);
          if (action !== undefined && action !== '') {
            const code = this.runTrapNow(action);
            if (this.done || this.stopped) return;
            if (code !== undefined) {
              this.finish(code);
              return;
            }
          }
        }
        const r = this.interrupted ? ((this.interrupted = false), this.gen.throw(new InterruptSignal())) : this.gen.next(v);
        if (r.done) {
          this.finish(r.value);
          return;
        }
        const eff = r.value;
        v = undefined;
        if (eff.e === 'tick') {
          const now = this.host.clock.now();
          if (now !== this.ticksAt) {
            this.ticksAt = now;
            this.ticks = 0;
          }
          if (++this.ticks <= LOOP_ITERATIONS_PER_INSTANT) continue;
          this.timer = this.host.clock.schedule(LOOP_THROTTLE_MS, () => this.resume(undefined), { label: 'sh: busy loop' });
          return;
        }
        if (eff.e === 'sleep') {
          this.timer = this.host.clock.schedule(eff.ms, () => this.resume(undefined), { label: 'sh: sleep' });
          return;
        }
        if (eff.e === 'forever') return;
        if (eff.e === 'read') {
          // Resumed synchronously by the attached client's write (never from inside this run).
          eff.src.wait(() => this.resume(undefined), eff.cwd);
          return;
        }
        if (eff.e === 'wait') {
          if (this.jobs.size === 0) continue;
          this.waiting = true;
          return;
        }
        // child
        let sync: number | undefined;
        let started = false;
        const child = this.host.spawn(
          eff.argv,
          { out: (t) => eff.io.out(t), err: (t) => eff.io.err(t) },
          (code) => {
            if (!started) {
              sync = code;
              return;
            }
            this.child = undefined;
            this.childExecd = false;
            // Re-enter on a fresh stack (the child's exit may come from inside a signal delivery).
            this.timer = this.host.clock.schedule(0, () => this.resume(code), { label: 'sh: child exited' });
          },
          eff.execd,
        );
        started = true;
        if (sync !== undefined) {
          v = sync;
          continue;
        }
        if (!child) {
          v = NO_MODEL;
          continue;
        }
        this.child = child;
        this.childExecd = eff.execd;
        return;
      }
    } finally {
      this.running = false;
    }
  }

  /** Run a trap action synchronously to its first wait (rare: traps are short). Returns an exit code if it exited. */
  private runTrapNow(action: string): number | undefined {
    let tree: Node;
    try {
      tree = parseScript(action);
    } catch {
      return undefined;
    }
    const g = this.exec(tree);
    try {
      for (let r = g.next(undefined); !r.done; r = g.next(undefined)) {
        /* effects inside a trap are not waited for (exit/echo are what traps do) */
      }
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      throw e;
    }
    return undefined;
  }

  signal(sig: Signal): 'trapped' | 'forwarded' | 'untrapped' {
    if (this.done) return 'untrapped';
    if (this.child && this.childExecd) {
      this.child.signal(sig);
      return 'forwarded';
    }
    const action = this.traps.get(sig);
    if (action === undefined) return 'untrapped';
    if (action === '') return 'trapped'; // trap '' TERM: ignore
    this.pendingTraps.push(sig);
    if (this.waiting) {
      this.waiting = false;
      this.resume(128 + (sig === 'SIGTERM' ? 15 : sig === 'SIGINT' ? 2 : sig === 'SIGHUP' ? 1 : 3));
    }
    return 'trapped';
  }

  /**
   * Ctrl-C on the terminal of a shell reading its stdin (`readStdin`): SIGINT to the foreground
   * job, which ends (its timers and child cancelled); the shell itself survives, sets `$?` to 130
   * and reads its next line. Nothing happens while it waits for input.
   */
  interrupt(): void {
    if (this.done || this.stopped || !this.gen || this.running) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.child?.stop();
    this.child = undefined;
    this.childExecd = false;
    this.waiting = false;
    this.interrupted = true;
    this.resume(undefined);
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.child?.stop();
    for (const j of this.jobs) j.stop();
  }

  private jobDone(job: ShellRunner): void {
    this.jobs.delete(job);
    if (this.waiting && this.jobs.size === 0) {
      this.waiting = false;
      this.resume(0);
    }
  }

  // --- execution ----------------------------------------------------------------------------

  private *exec(node: Node): Gen {
    const ctx = this.ctx;
    switch (node.t) {
      case 'list': {
        let st = 0;
        for (const it of node.items) {
          if (it.bg) {
            this.startJob(it.node);
            st = 0;
          } else st = yield* this.exec(it.node);
          ctx.status = st;
        }
        return st;
      }
      case 'andor': {
        ctx.cond++;
        let st: number;
        try {
          st = yield* this.exec(node.first);
          for (const r of node.rest) {
            ctx.status = st;
            if ((r.op === '&&' && st === 0) || (r.op === '||' && st !== 0)) {
              if (r === node.rest[node.rest.length - 1]) {
                ctx.cond--;
                try {
                  st = yield* this.exec(r.node);
                } finally {
                  ctx.cond++;
                }
              } else st = yield* this.exec(r.node);
            }
          }
        } finally {
          ctx.cond--;
        }
        ctx.status = st;
        return st;
      }
      case 'pipe': {
        let input: string | undefined = ctx.io.stdin;
        let st = 0;
        const saved = ctx.io;
        try {
          for (let i = 0; i < node.cmds.length; i++) {
            const last = i === node.cmds.length - 1;
            let buf = '';
            ctx.io = last ? { ...saved, stdin: input } : { out: (t) => (buf += t), err: saved.err, stdin: input };
            if (node.bang) ctx.cond++;
            try {
              st = yield* this.exec(node.cmds[i]);
            } finally {
              if (node.bang) ctx.cond--;
            }
            input = buf;
          }
        } finally {
          ctx.io = saved;
        }
        st = node.bang ? (st === 0 ? 1 : 0) : st;
        ctx.status = st;
        return st;
      }
      case 'while': {
        return yield* this.withRedirs(node.redirs, node.t, function* (this: ShellRunner): Gen {
          let st = 0;
          ctx.loopDepth++;
          try {
            for (;;) {
              ctx.cond++;
              let c: number;
              try {
                c = yield* this.exec(node.cond);
              } finally {
                ctx.cond--;
              }
              if ((c === 0) === node.until) break;
              try {
                st = yield* this.exec(node.body);
              } catch (e) {
                if (e instanceof LoopSignal) {
                  if (e.n > 1) throw new LoopSignal(e.kind, e.n - 1);
                  if (e.kind === 'break') break;
                } else throw e;
              }
              yield { e: 'tick' };
            }
          } finally {
            ctx.loopDepth--;
          }
          return st;
        });
      }
      case 'for': {
        return yield* this.withRedirs(node.redirs, node.t, function* (this: ShellRunner): Gen {
          const items: string[] = [];
          if (node.words) for (const w of node.words) items.push(...(yield* this.expand(w)));
          else items.push(...ctx.positional);
          let st = 0;
          ctx.loopDepth++;
          try {
            for (const item of items) {
              ctx.vars.set(node.name, item);
              try {
                st = yield* this.exec(node.body);
              } catch (e) {
                if (e instanceof LoopSignal) {
                  if (e.n > 1) throw new LoopSignal(e.kind, e.n - 1);
                  if (e.kind === 'break') break;
                } else throw e;
              }
              yield { e: 'tick' };
            }
          } finally {
            ctx.loopDepth--;
          }
          return st;
        });
      }
      case 'if': {
        return yield* this.withRedirs(node.redirs, node.t, function* (this: ShellRunner): Gen {
          for (const b of node.branches) {
            ctx.cond++;
            let c: number;
            try {
              c = yield* this.exec(b.cond);
            } finally {
              ctx.cond--;
            }
            if (c === 0) return yield* this.exec(b.body);
          }
          return node.else ? yield* this.exec(node.else) : 0;
        });
      }
      case 'group': {
        if (!node.sub) return yield* this.withRedirs(node.redirs, node.t, function* (this: ShellRunner): Gen {
          return yield* this.exec(node.body);
        });
        // Subshell: a copy of the variables; exit leaves only the subshell.
        const saved = { vars: ctx.vars, exported: ctx.exported, cwd: ctx.cwd, funcs: ctx.funcs };
        ctx.vars = new Map(ctx.vars);
        ctx.exported = new Set(ctx.exported);
        ctx.funcs = new Map(ctx.funcs);
        try {
          return yield* this.withRedirs(node.redirs, node.t, function* (this: ShellRunner): Gen {
            return yield* this.exec(node.body);
          });
        } catch (e) {
          if (e instanceof ExitSignal) return e.code;
          throw e;
        } finally {
          Object.assign(ctx, saved);
        }
      }
      case 'func':
        ctx.funcs.set(node.name, node.body);
        return 0;
      case 'simple':
        return yield* this.simple(node);
    }
  }

  private startJob(node: Node): void {
    const job: ShellRunner = new ShellRunner(
      this.host,
      { ...this.opts, io: this.ctx.io, onExit: () => this.jobDone(job) },
      this.ctx,
      node,
    );
    if (!job.done) this.jobs.add(job);
    this.ctx.lastBg = this.ctx.lastBg + 1;
  }

  /** Run `body` with the redirections of a compound command applied. */
  private *withRedirs(redirs: Redir[], _kind: string, body: (this: ShellRunner) => Gen): Gen {
    if (redirs.length === 0) return yield* body.call(this);
    const saved = this.ctx.io;
    const applied = yield* this.applyRedirs(redirs, saved, 0);
    if (typeof applied === 'number') return applied;
    this.ctx.io = applied;
    try {
      return yield* body.call(this);
    } finally {
      this.ctx.io = saved;
    }
  }

  /** Build the io of a command from its redirections, or an error status. */
  private *applyRedirs(redirs: Redir[], io: ShellIo, line: number): Generator<Effect, ShellIo | number, number | undefined> {
    let out = io.out;
    let err = io.err;
    let stdin = io.stdin;
    for (const r of redirs) {
      const target = (yield* this.expand(r.target)).join(' ');
      if (r.op === '>&') {
        if (target === '1') err = r.fd === 2 ? out : err;
        else if (target === '2') out = r.fd === 1 ? err : out;
        continue;
      }
      if (r.op === '<') {
        const content = this.host.fs.read(resolvePath(this.ctx.cwd, target));
        if (content === undefined) {
          io.err(`${this.shellPrefix(line)}can't open ${target}: no such file\n`);
          return 1;
        }
        stdin = content;
        continue;
      }
      const path = resolvePath(this.ctx.cwd, target);
      let writer: (t: string) => void;
      if (path === '/dev/null') writer = () => {};
      else if (path === '/dev/stdout') writer = io.out;
      else if (path === '/dev/stderr') writer = io.err;
      else {
        const e = this.host.fs.write(path, '', r.op === '>>');
        if (e) {
          io.err(`${this.shellPrefix(line)}can't create ${target}: ${FS_ERROR_TEXT[e]}\n`);
          return 1;
        }
        const fs = this.host.fs;
        writer = (t) => void fs.write(path, t, true);
      }
      if (r.op === '&>') {
        out = writer;
        err = writer;
      } else if (r.fd === 2) err = writer;
      else out = writer;
    }
    return { out, err, ...(stdin !== undefined ? { stdin } : {}) };
  }

  // --- expansion ----------------------------------------------------------------------------

  private varValue(name: string): string | undefined {
    const ctx = this.ctx;
    if (name === '?') return String(ctx.status);
    if (name === '#') return String(ctx.positional.length);
    if (name === '@' || name === '*') return ctx.positional.join(' ');
    if (name === '$') return '1';
    if (name === '!') return String(ctx.lastBg);
    if (name === '-') return ctx.errexit ? 'e' : '';
    if (/^\d+$/.test(name)) {
      const n = Number(name);
      return n === 0 ? ctx.arg0 : ctx.positional[n - 1];
    }
    return ctx.vars.get(name);
  }

  /** Expand a word into fields (unquoted expansions are split on blanks). */
  private *expand(w: Word): Generator<Effect, string[], number | undefined> {
    const fields: string[] = [];
    let cur = '';
    let have = false;
    const pushSplit = (text: string) => {
      const pieces = text.split(/[ \t\n]+/);
      for (let i = 0; i < pieces.length; i++) {
        if (i > 0) {
          if (have || cur !== '') fields.push(cur);
          cur = '';
          have = false;
        }
        if (pieces[i] !== '') {
          cur += pieces[i];
          have = true;
        }
      }
    };
    for (const p of w.parts) {
      if (p.k === 'lit') {
        let v = p.v;
        if (!p.q && v.startsWith('~') && cur === '' && !have) v = (this.ctx.vars.get('HOME') ?? '/root') + v.slice(1);
        cur += v;
        if (p.q || v !== '') have = true;
        continue;
      }
      let text: string;
      if (p.k === 'var') {
        if (p.q && p.name === '@' && !p.op) {
          // "$@": one field per positional parameter.
          const ps = this.ctx.positional;
          for (let i = 0; i < ps.length; i++) {
            if (i > 0) {
              fields.push(cur);
              cur = '';
            }
            cur += ps[i];
            have = true;
          }
          continue;
        }
        const val = this.varValue(p.name);
        if (p.op === 'len') text = String((val ?? '').length);
        else if (p.op === ':-' || p.op === '-') {
          const use = p.op === ':-' ? val === undefined || val === '' : val === undefined;
          text = use ? (p.arg ? (yield* this.expand(p.arg)).join(' ') : '') : (val ?? '');
        } else if (p.op === ':=' || p.op === '=') {
          const use = p.op === ':=' ? val === undefined || val === '' : val === undefined;
          if (use) {
            text = p.arg ? (yield* this.expand(p.arg)).join(' ') : '';
            this.ctx.vars.set(p.name, text);
          } else text = val ?? '';
        } else if (p.op === ':+' || p.op === '+') {
          const set = p.op === ':+' ? val !== undefined && val !== '' : val !== undefined;
          text = set && p.arg ? (yield* this.expand(p.arg)).join(' ') : '';
        } else text = val ?? '';
      } else if (p.k === 'cmd') {
        text = (yield* this.capture(p.src)).replace(/\n+$/, '');
      } else {
        text = String(this.arith(p.src));
      }
      if (p.q) {
        cur += text;
        have = true;
      } else pushSplit(text);
    }
    if (have || cur !== '') fields.push(cur);
    return fields;
  }

  /** Run `src` in a subshell and return its standard output (`$(...)`). */
  private *capture(src: string): Generator<Effect, string, number | undefined> {
    let tree: Node;
    try {
      tree = parseScript(src);
    } catch (e) {
      if (e instanceof ShellSyntaxError) {
        this.ctx.io.err(`${this.shellPrefix(1)}${e.message}\n`);
        return '';
      }
      throw e;
    }
    let buf = '';
    const ctx = this.ctx;
    const saved = { io: ctx.io, vars: ctx.vars, exported: ctx.exported, cwd: ctx.cwd };
    ctx.io = { out: (t) => (buf += t), err: saved.io.err, ...(saved.io.stdin !== undefined ? { stdin: saved.io.stdin } : {}) };
    ctx.vars = new Map(ctx.vars);
    ctx.exported = new Set(ctx.exported);
    try {
      ctx.status = yield* this.exec(tree);
    } catch (e) {
      if (e instanceof ExitSignal) ctx.status = e.code;
      else throw e;
    } finally {
      ctx.io = saved.io;
      ctx.vars = saved.vars;
      ctx.exported = saved.exported;
      ctx.cwd = saved.cwd;
    }
    return buf;
  }

  /** `$(( ))` arithmetic: integers, + - * / %, comparisons, parentheses, variables. */
  private arith(src: string): number {
    const toks = src.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|==|!=|<=|>=|&&|\|\||[-+*/%()<>!]/g) ?? [];
    let i = 0;
    const val = (name: string) => Number(this.varValue(name) ?? 0) || 0;
    const primary = (): number => {
      const t = toks[i++];
      if (t === '(') {
        const v = or();
        i++;
        return v;
      }
      if (t === '-') return -primary();
      if (t === '+') return primary();
      if (t === '!') return primary() ? 0 : 1;
      if (t === undefined) return 0;
      if (/^\d+$/.test(t)) return Number(t);
      return val(t);
    };
    const mul = (): number => {
      let v = primary();
      while (toks[i] === '*' || toks[i] === '/' || toks[i] === '%') {
        const op = toks[i++];
        const r = primary();
        v = op === '*' ? v * r : r === 0 ? 0 : op === '/' ? Math.trunc(v / r) : v % r;
      }
      return v;
    };
    const add = (): number => {
      let v = mul();
      while (toks[i] === '+' || toks[i] === '-') v = toks[i++] === '+' ? v + mul() : v - mul();
      return v;
    };
    const cmp = (): number => {
      let v = add();
      while (['<', '>', '<=', '>=', '==', '!='].includes(toks[i])) {
        const op = toks[i++];
        const r = add();
        v = Number(op === '<' ? v < r : op === '>' ? v > r : op === '<=' ? v <= r : op === '>=' ? v >= r : op === '==' ? v === r : v !== r);
      }
      return v;
    };
    const or = (): number => {
      let v = cmp();
      while (toks[i] === '&&' || toks[i] === '||') {
        const op = toks[i++];
        const r = cmp();
        v = Number(op === '&&' ? v && r : v || r);
      }
      return v;
    };
    return or();
  }

  // --- simple commands ----------------------------------------------------------------------

  private *simple(node: Extract<Node, { t: 'simple' }>): Gen {
    const ctx = this.ctx;
    const argv: string[] = [];
    for (const w of node.words) argv.push(...(yield* this.expand(w)));
    const assigns: [string, string][] = [];
    for (const a of node.assigns) assigns.push([a.name, (yield* this.expand(a.value)).join(' ')]);
    if (argv.length === 0) {
      for (const [k, v] of assigns) ctx.vars.set(k, v);
      if (node.redirs.length) {
        const io = yield* this.applyRedirs(node.redirs, ctx.io, node.line);
        if (typeof io === 'number') return (ctx.status = io);
      }
      return (ctx.status = 0);
    }
    const io = yield* this.applyRedirs(node.redirs, ctx.io, node.line);
    if (typeof io === 'number') return (ctx.status = io);
    // Command-scoped assignments go to the command's environment only.
    const saved = assigns.map(([k]) => [k, ctx.vars.get(k), ctx.exported.has(k)] as const);
    for (const [k, v] of assigns) {
      ctx.vars.set(k, v);
      ctx.exported.add(k);
    }
    let st: number;
    try {
      st = yield* this.runArgv(argv, io, node.line, false);
    } finally {
      if (argv[0] !== 'export' && argv[0] !== 'exec') {
        for (const [k, v, ex] of saved) {
          if (v === undefined) ctx.vars.delete(k);
          else ctx.vars.set(k, v);
          if (!ex) ctx.exported.delete(k);
        }
      }
    }
    ctx.status = st;
    if (st !== 0 && ctx.errexit && ctx.cond === 0) throw new ExitSignal(st);
    return st;
  }

  /** The environment exported to commands. */
  private envOf(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of [...this.ctx.exported].sort()) {
      const v = this.ctx.vars.get(k);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }

  private notFound(name: string, io: ShellIo, line: number): number {
    if (this.host.flavor === 'bash') io.err(`${this.ctx.arg0}: line ${line}: ${name}: command not found\n`);
    else if (this.host.flavor === 'dash') io.err(`${this.ctx.arg0}: ${line}: ${name}: not found\n`);
    else io.err(`${this.ctx.arg0}: ${name}: not found\n`);
    return 127;
  }

  /** Run one command line (already expanded). `direct`: started without a shell (exec / CRI). */
  private *runArgv(argv: string[], io: ShellIo, line: number, direct: boolean): Gen {
    const ctx = this.ctx;
    const name = argv[0];
    if (name === undefined) return 0;
    const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    // Shell builtins (not when started directly: `exit` is not a binary).
    if (!direct) {
      const fn = ctx.funcs.get(name);
      if (fn) {
        const savedPos = ctx.positional;
        ctx.positional = argv.slice(1);
        try {
          return yield* this.exec(fn);
        } catch (e) {
          if (e instanceof ReturnSignal) return e.code;
          throw e;
        } finally {
          ctx.positional = savedPos;
        }
      }
      const b = yield* this.builtin(name, argv, io, line);
      if (b !== undefined) return b;
    }
    // Shells started as commands: sh -c '...', sh script.sh, bash -c ...
    if (['sh', 'ash', 'bash', 'dash'].includes(base) && this.host.hasCommand(base) !== false) {
      return yield* this.subShell(base, argv.slice(1), io);
    }
    const util = UTILITIES[base];
    const has = this.host.hasCommand(base);
    if (util && (util.always || has !== false)) {
      const r = util.run.call(this, argv, io, ctx);
      return typeof r === 'number' ? r : yield* r;
    }
    const helped = this.host.helper(argv);
    if (helped) {
      if (helped.stdout) io.out(helped.stdout);
      if (helped.stderr) io.err(helped.stderr);
      return helped.exitCode;
    }
    if (has === false) return this.notFound(name, io, line);
    // A program model (nginx, catalog, perl ...) or an unknown application binary.
    const code = yield { e: 'child', argv, io, execd: direct };
    if (code === NO_MODEL) {
      // No model: in an exec a present-but-unmodelled binary (psql, java ...) just succeeds
      // quietly; in a container's main command it is an application that runs until stopped.
      if (this.opts.unknown === 'not-found') return has === true ? 0 : this.notFound(name, io, line);
      yield { e: 'forever' };
      return 0;
    }
    return code ?? 0;
  }

  private *subShell(base: string, args: string[], io: ShellIo): Gen {
    let errexit = false;
    let i = 0;
    let script: string | undefined;
    for (; i < args.length; i++) {
      const a = args[i];
      if (a === '-c' || (a.startsWith('-') && a.includes('c') && !a.startsWith('--'))) {
        if (a.includes('e')) errexit = true;
        script = args[i + 1] ?? '';
        i += 2;
        break;
      }
      if (a === '-e') errexit = true;
      else if (a === '-x' || a === '-l' || a === '-i' || a === '-eu' || a === '-u' || a === '-ex' || a === '--login') {
        if (a.includes('e')) errexit = true;
      } else break;
    }
    let arg0 = base;
    let posArgs: string[];
    if (script !== undefined) {
      arg0 = args[i] ?? base;
      posArgs = args.slice(i + 1);
    } else if (i < args.length) {
      const file = args[i];
      const content = this.host.fs.read(resolvePath(this.ctx.cwd, file));
      if (content === undefined) {
        io.err(this.host.flavor === 'bash' ? `${base}: ${file}: No such file or directory\n` : `${base}: can't open '${file}': No such file or directory\n`);
        return this.host.flavor === 'bash' ? 127 : 2;
      }
      script = content;
      arg0 = file;
      posArgs = args.slice(i + 1);
    } else {
      // No script: reads commands from stdin. An attached stdin (CRI Attach) gives it lines; an
      // open terminal (stdin: true) otherwise waits forever; without one stdin is empty and the
      // shell exits 0 at once.
      if (io.stdin === undefined && io.stdinStream) return yield* this.readStdin(base, io.stdinStream, io);
      if (io.stdinOpen) {
        yield { e: 'forever' };
        return 0;
      }
      if (io.stdin === undefined) return 0;
      script = io.stdin;
      posArgs = [];
    }
    let tree: Node;
    try {
      tree = parseScript(script);
    } catch (e) {
      if (!(e instanceof ShellSyntaxError)) throw e;
      io.err(`${arg0}: ${e.message}\n`);
      return 2;
    }
    const ctx = this.ctx;
    const saved = { ...ctx };
    ctx.vars = new Map(Object.entries(this.envOf()));
    ctx.exported = new Set(ctx.vars.keys());
    ctx.funcs = new Map();
    ctx.positional = posArgs;
    ctx.arg0 = arg0;
    ctx.io = io;
    ctx.errexit = errexit;
    ctx.cond = 0;
    try {
      return yield* this.exec(tree);
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      if (e instanceof ReturnSignal) return e.code;
      throw e;
    } finally {
      Object.assign(ctx, saved);
    }
  }

  /**
   * A shell reading its commands from an attached stdin, one line at a time in its own context
   * (`cd`, `export`, functions persist between lines); EOF ends it with the last status, `exit N`
   * with N.
   */
  private *readStdin(arg0: string, src: ContainerStdin, io: ShellIo): Gen {
    const ctx = this.ctx;
    const saved = { ...ctx };
    ctx.vars = new Map(Object.entries(this.envOf()));
    ctx.exported = new Set(ctx.vars.keys());
    ctx.funcs = new Map();
    ctx.positional = [];
    ctx.arg0 = arg0;
    ctx.io = io;
    ctx.errexit = false;
    ctx.cond = 0;
    try {
      for (;;) {
        let line = src.read();
        while (line === undefined) {
          src.onInterrupt = undefined;
          yield { e: 'read', src, cwd: ctx.cwd };
          line = src.read();
        }
        src.onInterrupt = () => this.interrupt();
        if (line === null) return this.leaveInteractive(src, io, ctx.status);
        // A tty shows the prompt and echoes the line: the container log records both.
        src.echo?.(`${this.ttyPrompt()}${line}\n`);
        let tree: Node;
        try {
          tree = parseScript(line);
        } catch (e) {
          if (!(e instanceof ShellSyntaxError)) throw e;
          io.err(`${arg0}: ${e.message}\n`);
          ctx.status = 2;
          continue;
        }
        try {
          ctx.status = yield* this.exec(tree);
        } catch (e) {
          if (e instanceof ExitSignal) return this.leaveInteractive(src, io, e.code);
          if (e instanceof ReturnSignal) ctx.status = e.code;
          else if (e instanceof InterruptSignal) {
            // The terminal echoes ^C; the interrupted command's status is 128 + SIGINT.
            io.out('^C\n');
            ctx.status = 130;
          } else if (!(e instanceof LoopSignal)) throw e;
        }
      }
    } finally {
      Object.assign(ctx, saved);
    }
  }

  /** An interactive bash (on a tty) says `exit` as it leaves, by `exit` or at EOF; ash and dash say nothing. */
  private leaveInteractive(src: ContainerStdin, io: ShellIo, code: number): number {
    if (this.host.flavor === 'bash' && src.echo) io.err('exit\n');
    return code;
  }

  /**
   * The prompt an interactive shell prints without a profile: busybox ash `\w \$ ` (`/ # `),
   * dash `# `, bash in Debian `root@HOST:DIR# ` (/etc/bash.bashrc), else `bash-5.2# `.
   */
  private ttyPrompt(): string {
    const h = this.host;
    const mark = h.uid === 0 ? '#' : '$';
    if (h.flavor === 'bash') return h.userland === 'debian' ? `${h.userName}@${h.hostname}:${this.ctx.cwd}${mark} ` : `bash-5.2${mark} `;
    if (h.flavor === 'dash') return `${mark} `;
    return `${this.ctx.cwd} ${mark} `;
  }

  /** Shell builtins; undefined when `name` is not one. */
  private *builtin(name: string, argv: string[], io: ShellIo, line: number): Generator<Effect, number | undefined, number | undefined> {
    const ctx = this.ctx;
    switch (name) {
      case ':':
        return 0;
      case 'exit': {
        const n = argv[1] === undefined ? ctx.status : Number(argv[1]);
        throw new ExitSignal(Number.isFinite(n) ? n & 255 : 2);
      }
      case 'return':
        throw new ReturnSignal(argv[1] === undefined ? ctx.status : Number(argv[1]) & 255);
      case 'break':
      case 'continue':
        if (ctx.loopDepth === 0) return 0;
        throw new LoopSignal(name, Math.max(1, Number(argv[1] ?? 1) || 1));
      case 'export':
        for (const a of argv.slice(1)) {
          const eq = a.indexOf('=');
          if (eq > 0) {
            ctx.vars.set(a.slice(0, eq), a.slice(eq + 1));
            ctx.exported.add(a.slice(0, eq));
          } else if (a !== '-p') ctx.exported.add(a);
        }
        if (argv.length === 1 || argv[1] === '-p') for (const [k, v] of Object.entries(this.envOf())) io.out(`export ${k}='${v}'\n`);
        return 0;
      case 'unset':
        for (const a of argv.slice(1)) if (!a.startsWith('-')) {
          ctx.vars.delete(a);
          ctx.exported.delete(a);
        }
        return 0;
      case 'set':
        for (const a of argv.slice(1)) {
          if (/^-[a-z]*e/.test(a)) ctx.errexit = true;
          if (/^\+[a-z]*e/.test(a)) ctx.errexit = false;
        }
        if (argv[1] === '--') ctx.positional = argv.slice(2);
        return 0;
      case 'shift': {
        const n = Number(argv[1] ?? 1) || 1;
        ctx.positional = ctx.positional.slice(n);
        return 0;
      }
      case 'cd': {
        const target = resolvePath(ctx.cwd, argv[1] ?? ctx.vars.get('HOME') ?? '/');
        if (this.host.fs.stat(target) !== 'dir') {
          io.err(this.host.flavor === 'bash' ? `${ctx.arg0}: line ${line}: cd: ${argv[1]}: No such file or directory\n` : `${ctx.arg0}: cd: can't cd to ${argv[1]}: No such file or directory\n`);
          return this.host.flavor === 'bash' ? 1 : 2;
        }
        ctx.cwd = target;
        ctx.vars.set('PWD', target);
        return 0;
      }
      case 'trap': {
        if (argv.length === 1) return 0;
        const action = argv[1] === '-' ? undefined : argv[1];
        for (const s of argv.slice(2)) {
          const sig = TRAP_SIGNALS[s.toUpperCase()];
          if (!sig) continue;
          if (action === undefined) this.traps.delete(sig);
          else this.traps.set(sig, action);
        }
        return 0;
      }
      case 'wait': {
        const code = yield { e: 'wait' };
        return code ?? 0;
      }
      case 'exec': {
        if (argv.length === 1) return 0;
        // Replace the shell: run the command; when it ends the shell is gone too.
        this.traps.clear();
        const code = yield* this.runArgv(argv.slice(1), io, line, true);
        throw new ExitSignal(code);
      }
      case '.':
      case 'source': {
        const file = argv[1];
        const content = file === undefined ? undefined : this.host.fs.read(resolvePath(ctx.cwd, file));
        if (content === undefined) {
          io.err(`${ctx.arg0}: .: can't open '${file ?? ''}'\n`);
          return 2;
        }
        try {
          return yield* this.exec(parseScript(content));
        } catch (e) {
          if (e instanceof ShellSyntaxError) {
            io.err(`${ctx.arg0}: ${e.message}\n`);
            return 2;
          }
          throw e;
        }
      }
      case 'read': {
        const names = argv.slice(1).filter((a) => !a.startsWith('-'));
        const stdin = io.stdin ?? '';
        if (stdin === '') return 1;
        const nl = stdin.indexOf('\n');
        const lineText = nl === -1 ? stdin : stdin.slice(0, nl);
        // Consume the line for the next read in this pipeline stage.
        ctx.io = { ...ctx.io, stdin: nl === -1 ? '' : stdin.slice(nl + 1) };
        io.stdin = ctx.io.stdin;
        const fields = lineText.trim().split(/[ \t]+/);
        names.forEach((n, k) => ctx.vars.set(n, k === names.length - 1 ? fields.slice(k).join(' ') : (fields[k] ?? '')));
        if (names.length === 0) ctx.vars.set('REPLY', lineText);
        return 0;
      }
      case 'local':
        for (const a of argv.slice(1)) {
          const eq = a.indexOf('=');
          if (eq > 0) ctx.vars.set(a.slice(0, eq), a.slice(eq + 1));
        }
        return 0;
      case 'eval':
        try {
          return yield* this.exec(parseScript(argv.slice(1).join(' ')));
        } catch (e) {
          if (e instanceof ShellSyntaxError) {
            io.err(`${ctx.arg0}: ${e.message}\n`);
            return 2;
          }
          throw e;
        }
      default:
        return undefined;
    }
  }

  // --- helpers for utilities ----------------------------------------------------------------

  /** Host access for utilities. */
  get h(): ShellHost {
    return this.host;
  }

  /** The error prefix a utility's message starts with, by userland. */
  gnu(): boolean {
    return this.host.userland === 'debian';
  }

  /** `now` in Unix ms. */
  nowUnixMs(): number {
    return this.host.epochMs + this.host.clock.now();
  }

  env(): Record<string, string> {
    return this.envOf();
  }

  /** The current directory (for utilities resolving relative paths). */
  ctxCwd(): string {
    return this.ctx.cwd;
  }
}

// ---------------------------------------------------------------------------------------------
// Utilities
// ---------------------------------------------------------------------------------------------

type UtilFn = (this: ShellRunner, argv: string[], io: ShellIo, ctx: Ctx) => number | Gen;

interface Utility {
  run: UtilFn;
  /** A shell builtin in ash/dash/bash: present even when the image lacks the binary. */
  always?: boolean;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export { civil, type CivilTime } from '../clock';

const p2 = (n: number) => String(n).padStart(2, '0');

/** `date` output: `Mon Jan  5 06:00:00 UTC 2026`, or a `+FORMAT` (%Y %m %d %H %M %S %s %a %b %e %F %T %Z %%). */
export function formatDate(unixMs: number, fmt?: string): string {
  const c = civil(unixMs);
  if (fmt === undefined) return `${WEEKDAYS[c.weekday]} ${MONTHS[c.month - 1]} ${String(c.day).padStart(2, ' ')} ${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)} UTC ${c.year}`;
  return fmt.replace(/%([a-zA-Z%])/g, (_, k: string) => {
    switch (k) {
      case 'Y': return String(c.year);
      case 'm': return p2(c.month);
      case 'd': return p2(c.day);
      case 'e': return String(c.day).padStart(2, ' ');
      case 'H': return p2(c.hour);
      case 'M': return p2(c.minute);
      case 'S': return p2(c.second);
      case 's': return String(Math.floor(unixMs / 1000));
      case 'a': return WEEKDAYS[c.weekday];
      case 'b': return MONTHS[c.month - 1];
      case 'F': return `${c.year}-${p2(c.month)}-${p2(c.day)}`;
      case 'T': return `${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)}`;
      case 'Z': return 'UTC';
      case 'z': return '+0000';
      case 'N': return String(c.ms * 1_000_000).padStart(9, '0');
      case '%': return '%';
      default: return `%${k}`;
    }
  });
}

function parseDuration(s: string): number | undefined {
  if (s === 'infinity' || s === 'inf') return Number.POSITIVE_INFINITY;
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(s);
  if (!m) return undefined;
  const mult = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]] ?? 1000;
  return Math.round(Number(m[1]) * mult);
}

function splitFlags(argv: string[]): { flags: Set<string>; rest: string[] } {
  const flags = new Set<string>();
  const rest: string[] = [];
  let end = false;
  for (const a of argv) {
    if (!end && a === '--') end = true;
    else if (!end && a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) for (const ch of a.slice(1)) flags.add(ch);
    else rest.push(a);
  }
  return { flags, rest };
}

function echoEscapes(s: string): string {
  return s.replace(/\\(n|t|\\|c|r)/g, (_, c: string) => ({ n: '\n', t: '\t', '\\': '\\', c: '', r: '\r' })[c] ?? c);
}

function printfFormat(fmt: string, args: string[]): string {
  let out = '';
  let ai = 0;
  do {
    const before = ai;
    out += echoEscapes(fmt).replace(/%([-0-9.]*)([sdifx%])/g, (_, w: string, k: string) => {
      if (k === '%') return '%';
      const a = args[ai++] ?? '';
      const width = Number(w.replace('-', '')) || 0;
      let v: string;
      if (k === 'd' || k === 'i') v = String(Math.trunc(Number(a) || 0));
      else if (k === 'f') v = (Number(a) || 0).toFixed(w.includes('.') ? Number(w.split('.')[1]) : 6);
      else if (k === 'x') v = (Math.trunc(Number(a) || 0)).toString(16);
      else v = a;
      return w.startsWith('-') ? v.padEnd(width) : v.padStart(width);
    });
    if (ai === before) break;
  } while (ai < args.length);
  return out;
}

/** `test` / `[` evaluation. */
function evalTest(run: ShellRunner, cwd: string, args: string[]): boolean {
  if (args.length === 0) return false;
  if (args[0] === '!') return !evalTest(run, cwd, args.slice(1));
  const ai = args.indexOf('-a');
  if (ai > 0) return evalTest(run, cwd, args.slice(0, ai)) && evalTest(run, cwd, args.slice(ai + 1));
  const oi = args.indexOf('-o');
  if (oi > 0) return evalTest(run, cwd, args.slice(0, oi)) || evalTest(run, cwd, args.slice(oi + 1));
  if (args.length === 1) return args[0] !== '';
  const fs = run.h.fs;
  if (args.length === 2) {
    const [op, a] = args;
    const p = resolvePath(cwd, a);
    switch (op) {
      case '-z': return a === '';
      case '-n': return a !== '';
      case '-e': return fs.stat(p) !== undefined;
      case '-f': return fs.stat(p) === 'file';
      case '-d': return fs.stat(p) === 'dir';
      case '-s': return (fs.read(p) ?? '') !== '';
      case '-r':
      case '-w':
      case '-x': return fs.stat(p) !== undefined;
      default: return false;
    }
  }
  const [a, op, b] = args;
  switch (op) {
    case '=':
    case '==': return a === b;
    case '!=': return a !== b;
    case '-eq': return Number(a) === Number(b);
    case '-ne': return Number(a) !== Number(b);
    case '-lt': return Number(a) < Number(b);
    case '-le': return Number(a) <= Number(b);
    case '-gt': return Number(a) > Number(b);
    case '-ge': return Number(a) >= Number(b);
    default: return false;
  }
}

function lines(text: string): string[] {
  if (text === '') return [];
  const ls = text.split('\n');
  if (ls[ls.length - 1] === '') ls.pop();
  return ls;
}

/** curl 8's options as the playground's curl commands read them (`parseCurlArgs`). */
export interface CurlArgs {
  /** `-X`/`--request`. */
  method?: string;
  /** `-d`/`--data`/`--data-raw` (makes the default method POST). */
  data?: string;
  /** `-s`/`--silent`: no progress, no error message unless `showErr`. */
  silent: boolean;
  /** `-S`/`--show-error`. */
  showErr: boolean;
  /** `-f`/`--fail`: HTTP errors >= 400 exit 22 without the body. */
  fail: boolean;
  /** `-i`/`--include`: print the response head. */
  include: boolean;
  /** `-I`/`--head`: a HEAD request, the head printed. */
  head: boolean;
  /** `-k`/`--insecure`: no certificate check. */
  insecure: boolean;
  /** `-o`/`--output` FILE. */
  output?: string;
  /** `-w`/`--write-out` format. */
  writeOut?: string;
  /** `-m`/`--max-time`/`--connect-timeout`, in virtual ms. */
  maxTimeMs?: number;
  /** `-H`/`--header` lines, by name. */
  headers: Record<string, string>;
  /** The last operand that is not an option. */
  url?: string;
}

/**
 * Read curl's command line (argv[0] is `curl`): the long options above and bundled short flags
 * (`-sSfiIk`); unknown options are ignored. Shared by the container/node curl and the laptop's.
 */
export function parseCurlArgs(argv: readonly string[]): CurlArgs {
  const r: CurlArgs = { silent: false, showErr: false, fail: false, include: false, head: false, insecure: false, headers: {} };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-X' || a === '--request') r.method = argv[++i];
    else if (a === '-d' || a === '--data' || a === '--data-raw') r.data = argv[++i];
    else if (a === '-H' || a === '--header') {
      const [k, ...v] = (argv[++i] ?? '').split(':');
      r.headers[k.trim()] = v.join(':').trim();
    } else if (a === '-o' || a === '--output') r.output = argv[++i];
    else if (a === '-w' || a === '--write-out') r.writeOut = argv[++i];
    else if (a === '-m' || a === '--max-time' || a === '--connect-timeout') r.maxTimeMs = Number(argv[++i]) * 1000;
    else if (a === '--silent') r.silent = true;
    else if (a === '--show-error') r.showErr = true;
    else if (a === '--fail') r.fail = true;
    else if (a === '--include') r.include = true;
    else if (a === '--head') r.head = true;
    else if (a === '--insecure') r.insecure = true;
    else if (a.startsWith('-') && !a.startsWith('--') && a.length > 1) {
      for (const ch of a.slice(1)) {
        if (ch === 's') r.silent = true;
        else if (ch === 'S') r.showErr = true;
        else if (ch === 'f') r.fail = true;
        else if (ch === 'i') r.include = true;
        else if (ch === 'I') r.head = true;
        else if (ch === 'k') r.insecure = true;
      }
    } else if (!a.startsWith('-')) r.url = a;
  }
  return r;
}

/** Parse `http://host:port/path` (scheme optional, as curl accepts). */
export function parseUrl(raw: string): { scheme: string; host: string; port: number; path: string } | undefined {
  const m = /^(?:(https?):\/\/)?([^/:?#]+|\[[^\]]+\])(?::(\d+))?([/?][^#]*)?$/.exec(raw);
  if (!m) return undefined;
  const scheme = m[1] ?? 'http';
  return { scheme, host: m[2], port: m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80, path: m[4] ? (m[4].startsWith('?') ? `/${m[4]}` : m[4]) : '/' };
}

const HTTP_REASONS: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** The reason phrase of an HTTP status (`404` -> `Not Found`). */
export function httpReason(status: number): string {
  return HTTP_REASONS[status] ?? '';
}

/** True when `name` is one of the shell's own utilities (echo, cat, sleep ...), which it runs before image helpers. */
export function isShellUtility(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(UTILITIES, name);
}

const UTILITIES: Record<string, Utility> = {
  true: { always: true, run() { return 0; } },
  false: { always: true, run() { return 1; } },
  echo: {
    always: true,
    run(argv, io) {
      let args = argv.slice(1);
      let nl = true;
      let esc = this.h.flavor === 'dash';
      while (args.length && /^-[neE]+$/.test(args[0])) {
        if (args[0].includes('n')) nl = false;
        if (args[0].includes('e')) esc = true;
        if (args[0].includes('E')) esc = false;
        args = args.slice(1);
      }
      const text = args.join(' ');
      io.out((esc ? echoEscapes(text) : text) + (nl ? '\n' : ''));
      return 0;
    },
  },
  printf: {
    always: true,
    run(argv, io) {
      if (argv.length < 2) {
        io.err('printf: usage: printf format [arguments]\n');
        return 2;
      }
      io.out(printfFormat(argv[1], argv.slice(2)));
      return 0;
    },
  },
  pwd: { always: true, run(_a, io, ctx) { io.out(`${ctx.cwd}\n`); return 0; } },
  test: { always: true, run(argv, _io, ctx) { return evalTest(this, ctx.cwd, argv.slice(1)) ? 0 : 1; } },
  '[': {
    always: true,
    run(argv, io, ctx) {
      if (argv[argv.length - 1] !== ']') {
        io.err(`${ctx.arg0}: missing ]\n`);
        return 2;
      }
      return evalTest(this, ctx.cwd, argv.slice(1, -1)) ? 0 : 1;
    },
  },
  kill: {
    always: true,
    run(argv, io) {
      let sig: Signal = 'SIGTERM';
      const pids: number[] = [];
      for (let i = 1; i < argv.length; i++) {
        const a = argv[i];
        if (a === '-s') sig = (`SIG${(argv[++i] ?? 'TERM').replace(/^SIG/, '')}` as Signal);
        else if (a.startsWith('-')) {
          const t = a.slice(1).toUpperCase();
          const byNum: Record<string, Signal> = { '9': 'SIGKILL', '15': 'SIGTERM', '2': 'SIGINT', '1': 'SIGHUP', '3': 'SIGQUIT' };
          sig = byNum[t] ?? (`SIG${t.replace(/^SIG/, '')}` as Signal);
        } else pids.push(Number(a));
      }
      let st = 0;
      for (const pid of pids) {
        if (!this.h.kill(pid, sig)) {
          io.err(this.h.flavor === 'bash' ? `bash: kill: (${pid}) - No such process\n` : `sh: can't kill pid ${pid}: No such process\n`);
          st = 1;
        }
      }
      return st;
    },
  },
  sleep: {
    *run(argv, io) {
      if (argv.length < 2) {
        io.err(this.gnu() ? 'sleep: missing operand\n' : 'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: sleep [N]...\n');
        return 1;
      }
      let total = 0;
      for (const a of argv.slice(1)) {
        const d = parseDuration(a);
        if (d === undefined) {
          io.err(this.gnu() ? `sleep: invalid time interval '${a}'\n` : `sleep: invalid number '${a}'\n`);
          return 1;
        }
        total += d;
      }
      if (total === Number.POSITIVE_INFINITY) {
        yield { e: 'forever' };
        return 0;
      }
      if (total > 0) yield { e: 'sleep', ms: total };
      return 0;
    },
  },
  cat: {
    run(argv, io, ctx) {
      const { rest } = splitFlags(argv.slice(1));
      if (rest.length === 0) {
        if (io.stdin !== undefined) io.out(io.stdin);
        return 0;
      }
      let st = 0;
      for (const f of rest) {
        if (f === '-') {
          io.out(io.stdin ?? '');
          continue;
        }
        const p = resolvePath(ctx.cwd, f);
        const c = this.h.fs.read(p);
        if (c === undefined) {
          const isDir = this.h.fs.stat(p) === 'dir';
          const why = isDir ? 'Is a directory' : 'No such file or directory';
          io.err(this.gnu() ? `cat: ${f}: ${why}\n` : isDir ? `cat: read error: Is a directory\n` : `cat: can't open '${f}': ${why}\n`);
          st = 1;
        } else io.out(c);
      }
      return st;
    },
  },
  ls: {
    run(argv, io, ctx) {
      const { flags, rest } = splitFlags(argv.slice(1));
      const targets = rest.length ? rest : ['.'];
      let st = 0;
      const fs = this.h.fs;
      const c = civil(this.nowUnixMs());
      const stamp = `${MONTHS[c.month - 1]} ${String(c.day).padStart(2, ' ')} ${p2(c.hour)}:${p2(c.minute)}`;
      const long = (name: string, path: string) => {
        const st2 = fs.stat(path);
        const size = st2 === 'file' ? (fs.read(path) ?? '').length : 4096;
        const mode = st2 === 'dir' ? 'drwxr-xr-x' : '-rw-r--r--';
        return this.gnu()
          ? `${mode} 1 root root ${String(size).padStart(5)} ${stamp} ${name}`
          : `${mode}    ${st2 === 'dir' ? 2 : 1} root     root      ${String(size).padStart(9)} ${stamp} ${name}`;
      };
      for (const t of targets) {
        const p = resolvePath(ctx.cwd, t);
        const s = fs.stat(p);
        if (s === undefined) {
          io.err(this.gnu() ? `ls: cannot access '${t}': No such file or directory\n` : `ls: ${t}: No such file or directory\n`);
          st = this.gnu() ? 2 : 1;
          continue;
        }
        if (targets.length > 1 && s === 'dir') io.out(`${t}:\n`);
        if (s === 'file') {
          io.out(`${flags.has('l') ? long(t, p) : t}\n`);
          continue;
        }
        let names = fs.list(p) ?? [];
        if (!flags.has('a') && !flags.has('A')) names = names.filter((n) => !n.startsWith('.'));
        if (flags.has('l')) io.out(`total ${names.length * 4}\n`);
        for (const n of names) io.out(`${flags.has('l') ? long(n, resolvePath(p, n)) : n}\n`);
      }
      return st;
    },
  },
  touch: {
    run(argv, io, ctx) {
      const { rest } = splitFlags(argv.slice(1));
      let st = 0;
      for (const f of rest) {
        const p = resolvePath(ctx.cwd, f);
        if (this.h.fs.stat(p) !== undefined) continue;
        const e = this.h.fs.write(p, '');
        if (e) {
          io.err(this.gnu() ? `touch: cannot touch '${f}': ${FS_ERROR_TEXT[e]}\n` : `touch: ${f}: ${FS_ERROR_TEXT[e]}\n`);
          st = 1;
        }
      }
      return st;
    },
  },
  rm: {
    run(argv, io, ctx) {
      const { flags, rest } = splitFlags(argv.slice(1));
      let st = 0;
      for (const f of rest) {
        const e = this.h.fs.remove(resolvePath(ctx.cwd, f), flags.has('r') || flags.has('R'));
        if (e === 'ENOENT' && flags.has('f')) continue;
        if (e) {
          const why = e === 'EISDIR' ? 'Is a directory' : FS_ERROR_TEXT[e];
          io.err(this.gnu() ? `rm: cannot remove '${f}': ${why}\n` : `rm: can't remove '${f}': ${why}\n`);
          st = 1;
        }
      }
      return st;
    },
  },
  mkdir: {
    run(argv, io, ctx) {
      const { flags, rest } = splitFlags(argv.slice(1));
      let st = 0;
      for (const f of rest) {
        const e = this.h.fs.mkdir(resolvePath(ctx.cwd, f), flags.has('p'));
        if (e) {
          io.err(this.gnu() ? `mkdir: cannot create directory '${f}': ${FS_ERROR_TEXT[e]}\n` : `mkdir: can't create directory '${f}': ${FS_ERROR_TEXT[e]}\n`);
          st = 1;
        }
      }
      return st;
    },
  },
  cp: {
    run(argv, io, ctx) {
      const { rest } = splitFlags(argv.slice(1));
      if (rest.length !== 2) return 1;
      const src = this.h.fs.read(resolvePath(ctx.cwd, rest[0]));
      if (src === undefined) {
        io.err(this.gnu() ? `cp: cannot stat '${rest[0]}': No such file or directory\n` : `cp: can't stat '${rest[0]}': No such file or directory\n`);
        return 1;
      }
      let dst = resolvePath(ctx.cwd, rest[1]);
      if (this.h.fs.stat(dst) === 'dir') dst = resolvePath(dst, rest[0].split('/').pop() ?? rest[0]);
      const e = this.h.fs.write(dst, src);
      if (e) {
        io.err(`cp: can't create '${rest[1]}': ${FS_ERROR_TEXT[e]}\n`);
        return 1;
      }
      return 0;
    },
  },
  env: {
    run(argv, io) {
      if (argv.length > 1) return 0;
      for (const [k, v] of Object.entries(this.env())) io.out(`${k}=${v}\n`);
      return 0;
    },
  },
  printenv: {
    run(argv, io) {
      const env = this.env();
      if (argv.length === 1) {
        for (const [k, v] of Object.entries(env)) io.out(`${k}=${v}\n`);
        return 0;
      }
      let st = 0;
      for (const k of argv.slice(1)) {
        if (env[k] === undefined) st = 1;
        else io.out(`${env[k]}\n`);
      }
      return st;
    },
  },
  hostname: { run(_a, io) { io.out(`${this.h.hostname}\n`); return 0; } },
  whoami: { run(_a, io) { io.out(`${this.h.userName}\n`); return 0; } },
  id: {
    run(_a, io) {
      const u = this.h.uid;
      const n = this.h.userName;
      io.out(u === 0 ? 'uid=0(root) gid=0(root) groups=0(root),1(bin),2(daemon),3(sys),4(adm),6(disk),10(wheel),11(floppy),20(dialout),26(tape),27(video)\n' : `uid=${u}(${n}) gid=${u}(${n}) groups=${u}(${n})\n`);
      return 0;
    },
  },
  uname: {
    run(argv, io) {
      const all = argv.includes('-a');
      io.out(all ? `Linux ${this.h.hostname} 6.8.0-60-generic #63-Ubuntu SMP PREEMPT_DYNAMIC Tue Apr 15 19:04:15 UTC 2025 x86_64${this.gnu() ? ' GNU/Linux' : ' Linux'}\n` : argv.includes('-r') ? '6.8.0-60-generic\n' : 'Linux\n');
      return 0;
    },
  },
  date: {
    run(argv, io) {
      const fmt = argv.slice(1).find((a) => a.startsWith('+'));
      io.out(`${formatDate(this.nowUnixMs(), fmt?.slice(1))}\n`);
      return 0;
    },
  },
  wc: {
    run(argv, io, ctx) {
      const { flags, rest } = splitFlags(argv.slice(1));
      const text = rest.length ? (this.h.fs.read(resolvePath(ctx.cwd, rest[0])) ?? '') : (io.stdin ?? '');
      const l = (text.match(/\n/g) ?? []).length;
      const w = text.split(/\s+/).filter(Boolean).length;
      const c = text.length;
      const suffix = rest.length ? ` ${rest[0]}` : '';
      if (flags.has('l')) io.out(`${l}${suffix}\n`);
      else if (flags.has('w')) io.out(`${w}${suffix}\n`);
      else if (flags.has('c')) io.out(`${c}${suffix}\n`);
      else io.out(`${String(l).padStart(7)} ${String(w).padStart(7)} ${String(c).padStart(7)}${suffix}\n`);
      return 0;
    },
  },
  grep: {
    run(argv, io, ctx) {
      const { flags, rest } = splitFlags(argv.slice(1));
      const pat = rest[0];
      if (pat === undefined) return 2;
      const text = rest[1] ? this.h.fs.read(resolvePath(ctx.cwd, rest[1])) : io.stdin;
      if (text === undefined) {
        io.err(`grep: ${rest[1]}: No such file or directory\n`);
        return 2;
      }
      let re: RegExp;
      try {
        re = new RegExp(pat, flags.has('i') ? 'i' : '');
      } catch {
        re = new RegExp(pat.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      }
      const hits = lines(text).filter((l) => re.test(l) !== flags.has('v'));
      if (flags.has('c')) io.out(`${hits.length}\n`);
      else if (!flags.has('q')) for (const l of hits) io.out(`${l}\n`);
      return hits.length ? 0 : 1;
    },
  },
  head: {
    run(argv, io, ctx) {
      let n = 10;
      const files: string[] = [];
      for (let i = 1; i < argv.length; i++) {
        if (argv[i] === '-n') n = Number(argv[++i]);
        else if (/^-\d+$/.test(argv[i])) n = Number(argv[i].slice(1));
        else files.push(argv[i]);
      }
      const text = files.length ? (this.h.fs.read(resolvePath(ctx.cwd, files[0])) ?? '') : (io.stdin ?? '');
      for (const l of lines(text).slice(0, n)) io.out(`${l}\n`);
      return 0;
    },
  },
  tail: {
    *run(argv, io, ctx) {
      let n = 10;
      let follow = false;
      const files: string[] = [];
      for (let i = 1; i < argv.length; i++) {
        if (argv[i] === '-n') n = Number(argv[++i]);
        else if (argv[i] === '-f' || argv[i] === '-F') follow = true;
        else if (/^-\d+$/.test(argv[i])) n = Number(argv[i].slice(1));
        else files.push(argv[i]);
      }
      const text = files.length ? this.h.fs.read(resolvePath(ctx.cwd, files[0])) : (io.stdin ?? '');
      if (text === undefined) {
        io.err(this.gnu() ? `tail: cannot open '${files[0]}' for reading: No such file or directory\n` : `tail: can't open '${files[0]}': No such file or directory\n`);
        if (!follow) return 1;
      } else for (const l of lines(text).slice(-n)) io.out(`${l}\n`);
      if (follow) {
        yield { e: 'forever' };
      }
      return 0;
    },
  },
  tr: {
    run(argv, io) {
      const { flags, rest } = splitFlags(argv.slice(1));
      let text = io.stdin ?? '';
      const set = (s: string) => s.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
      if (flags.has('d') && rest[0] !== undefined) {
        const chars = set(rest[0]);
        text = [...text].filter((ch) => !chars.includes(ch)).join('');
      } else if (rest.length === 2) {
        const a = set(rest[0]);
        const b = set(rest[1]);
        text = [...text].map((ch) => (a.includes(ch) ? (b[a.indexOf(ch)] ?? b[b.length - 1]) : ch)).join('');
      }
      io.out(text);
      return 0;
    },
  },
  ps: {
    run(_a, io) {
      const procs = this.h.ps();
      if (this.gnu()) {
        io.out('    PID TTY          TIME CMD\n');
        for (const p of procs) io.out(`${String(p.pid).padStart(7)} ?        00:00:00 ${p.command.split(' ')[0].split('/').pop()}\n`);
      } else {
        // busybox (CONFIG_DESKTOP) ps: `-o pid,user,time,args`, each column padded to its width
        // plus one space; the PID right-aligned (`func_pid`: "%*u", width 5), the user cut at 8
        // (procps/ps.c out_spec, format_process).
        io.out('PID   USER     TIME  COMMAND\n');
        for (const p of procs) io.out(`${String(p.pid).padStart(5)} ${p.user.slice(0, 8).padEnd(8)} ${'0:00'.padStart(5)} ${p.command}\n`);
      }
      return 0;
    },
  },
  curl: {
    *run(argv, io) {
      const { method, data, silent, showErr, fail, include, output, writeOut, maxTimeMs, headers, url } = parseCurlArgs(argv);
      if (!url) {
        io.err("curl: try 'curl --help' or 'curl --manual' for more information\n");
        return 2;
      }
      const u = parseUrl(url);
      if (!u) {
        io.err(`curl: (3) URL rejected: Malformed input to a URL function\n`);
        return 3;
      }
      const res = this.h.http(url, { method: method ?? (data !== undefined ? 'POST' : 'GET'), path: u.path, headers, ...(data !== undefined ? { body: data } : {}) });
      const errOut = (code: number, msg: string) => {
        if (!silent || showErr) io.err(`curl: (${code}) ${msg}\n`);
        return code;
      };
      if ('error' in res) {
        if (res.delayMs) yield { e: 'sleep', ms: Math.min(res.delayMs, maxTimeMs ?? res.delayMs) };
        if (res.error === 'nxdomain') return errOut(6, `Could not resolve host: ${u.host}`);
        if (res.error === 'refused') return errOut(7, `Failed to connect to ${u.host} port ${u.port} after 0 ms: Couldn't connect to server`);
        if (res.error === 'reset') return errOut(52, 'Empty reply from server');
        if (res.error === 'unreachable') return errOut(7, `Failed to connect to ${u.host} port ${u.port} after 3071 ms: Couldn't connect to server`);
        return errOut(28, `Connection timed out after ${maxTimeMs ?? 10000} milliseconds`);
      }
      const delay = res.delayMs ?? 0;
      if (maxTimeMs !== undefined && delay > maxTimeMs) {
        yield { e: 'sleep', ms: maxTimeMs };
        return errOut(28, `Operation timed out after ${maxTimeMs} milliseconds with 0 bytes received`);
      }
      if (delay > 0) yield { e: 'sleep', ms: delay };
      if (fail && res.status >= 400) return errOut(22, `The requested URL returned error: ${res.status}`);
      let text = '';
      if (include) text += `HTTP/1.1 ${res.status} ${httpReason(res.status)}\r\n${Object.entries(res.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
      text += res.body;
      if (output && output !== '/dev/null') {
        this.h.fs.write(resolvePath(this.ctxCwd(), output), text);
      } else if (!output) io.out(text);
      if (writeOut) io.out(writeOut.replace(/%\{http_code\}/g, String(res.status)).replace(/\\n/g, '\n'));
      return 0;
    },
  },
  wget: {
    *run(argv, io, ctx) {
      let quiet = false;
      let out: string | undefined;
      let url: string | undefined;
      for (let i = 1; i < argv.length; i++) {
        const a = argv[i];
        if (a === '-O') out = argv[++i];
        else if (a.startsWith('-O')) out = a.slice(2);
        else if (a === '-q' || a === '--quiet') quiet = true;
        else if (a === '-qO-' || a === '-qO') {
          quiet = true;
          out = a === '-qO-' ? '-' : argv[++i];
        } else if (a === '-T' || a === '--timeout') i++;
        else if (a.startsWith('-')) {
          if (a.includes('q')) quiet = true;
        } else url = a;
      }
      if (!url) return 1;
      const u = parseUrl(url);
      if (!u) return 1;
      const res = this.h.http(url, { method: 'GET', path: u.path });
      const file = out ?? (u.path.split('/').pop() || 'index.html');
      const name = file === '-' ? '-' : file.split('/').pop();
      if ('error' in res) {
        if (res.error === 'nxdomain') io.err(`wget: bad address '${u.host}${u.port !== 80 ? `:${u.port}` : ''}'\n`);
        else if (res.error === 'refused') io.err(`${quiet ? '' : `Connecting to ${u.host}${u.port !== 80 ? `:${u.port}` : ''} (${res.address ?? u.host})\n`}wget: can't connect to remote host (${(res.address ?? '').split(':')[0] || u.host}): Connection refused\n`);
        else io.err('wget: download timed out\n');
        return 1;
      }
      if (res.delayMs) yield { e: 'sleep', ms: res.delayMs };
      if (!quiet) io.err(`Connecting to ${u.host}${u.port !== 80 ? `:${u.port}` : ''} (${this.h.lookup(u.host)?.address ?? u.host}:${u.port})\n`);
      if (res.status >= 400) {
        io.err(`wget: server returned error: HTTP/1.1 ${res.status} ${httpReason(res.status)}\n`);
        return 1;
      }
      if (file === '-') io.out(res.body);
      else {
        const e = this.h.fs.write(resolvePath(ctx.cwd, file), res.body);
        if (e) {
          io.err(`wget: can't open '${file}': ${FS_ERROR_TEXT[e]}\n`);
          return 1;
        }
        if (!quiet) {
          io.err(`saving to '${file}'\n`);
          io.err(`${(name ?? '').padEnd(20).slice(0, 20)} 100% |********************************| ${String(res.body.length).padStart(5)}  0:00:00 ETA\n`);
          io.err(`'${file}' saved\n`);
        }
      }
      return 0;
    },
  },
  nslookup: {
    run(argv, io) {
      const name = argv.filter((a) => !a.startsWith('-'))[1];
      if (!name) return 1;
      const r = this.h.lookup(name);
      const server = r?.server ?? '10.96.0.10';
      if (this.h.nslookup === 'bind') return bindNslookup(name, r, server, io);
      if (isClassicBusybox(this.h.busyboxVersion)) return classicNslookup(name, r, server, io);
      io.out(`Server:\t\t${server}\nAddress:\t${server}:53\n\n`);
      if (!r) {
        io.out(`** server can't find ${name}: NXDOMAIN\n\n`);
        return 1;
      }
      io.out(`Name:\t${r.name}\nAddress: ${r.address}\n\n`);
      return 0;
    },
  },
  nc: {
    *run(argv, io) {
      const rest = argv.slice(1).filter((a) => !a.startsWith('-'));
      const [host, port] = rest;
      if (!host || !port) return 1;
      const ok = this.h.dial(host, Number(port));
      if (!ok) {
        if (!argv.includes('-z')) io.err(`nc: can't connect to remote host (${host}): Connection refused\n`);
        return 1;
      }
      if (!argv.includes('-z')) yield { e: 'forever' };
      return 0;
    },
  },
};

/** Busybox before 1.29 (the kubernetes.io pages' `busybox:1.28`) has the classic nslookup applet. */
function isClassicBusybox(version: string | undefined): boolean {
  const m = /^1\.(\d+)/.exec(version ?? '');
  return m !== null && Number(m[1]) < 29;
}

/**
 * The reverse name cluster DNS gives an address, as the classic applet prints it after the
 * address: a Service's ClusterIP (kind's service range 10.96.0.0/12) has the Service's FQDN
 * (kube-dns for the resolver itself); a pod IP of a headless Service has none (the
 * basic-stateful-set tutorial's `Address 1: 10.244.1.6`).
 */
function reverseName(address: string, fqdn: string, server: string): string | undefined {
  if (address === server) return 'kube-dns.kube-system.svc.cluster.local';
  const m = /^10\.(\d+)\./.exec(address);
  if (!m || Number(m[1]) < 96 || Number(m[1]) > 111) return undefined;
  return fqdn.endsWith('.svc.cluster.local') ? fqdn : undefined;
}

/** `name` completed as the pod's search path completes it (`kubernetes.default` -> `kubernetes.default.svc.cluster.local`). */
function clusterFqdn(name: string, resolved: string): string {
  if (resolved.endsWith('.svc.cluster.local')) return resolved;
  if (name.endsWith('.svc.cluster.local')) return name;
  if (name.endsWith('.svc')) return `${name}.cluster.local`;
  if (name.split('.').length === 2) return `${name}.svc.cluster.local`;
  return resolved;
}

/**
 * busybox 1.28's networking/nslookup.c: `print_host(server, "Server:")`, a blank line, then
 * `print_host(name, "Name:")` - `%-10s %s` then `Address N: <ip>[ <reverse name>]` - or, when
 * the name does not resolve, `nslookup: can't resolve '<name>'` on stderr and exit 1 (the
 * init-containers page's `until nslookup myservice...` loop logs exactly this).
 */
function classicNslookup(name: string, r: { name: string; address: string } | undefined, server: string, io: ShellIo): number {
  io.out(`Server:    ${server}\nAddress 1: ${server} kube-dns.kube-system.svc.cluster.local\n\n`);
  if (!r) {
    io.err(`nslookup: can't resolve '${name}'\n`);
    return 1;
  }
  const ptr = reverseName(r.address, clusterFqdn(name, r.name), server);
  io.out(`Name:      ${name}\nAddress 1: ${r.address}${ptr ? ` ${ptr}` : ''}\n`);
  return 0;
}

/**
 * BIND 9's nslookup (bin/dig/nslookup.c): `Server:\t\t<ip>` and `Address:\t<ip>#53`, a blank
 * line, then `Name:\t<fqdn>` / `Address: <ip>` of the answer the search list found (the FQDN, not
 * the name as typed) and a blank line; an answer from outside cluster DNS's own zone is preceded
 * by `Non-authoritative answer:` (CoreDNS is authoritative for cluster.local only). A name that
 * does not resolve: `** server can't find <name>: NXDOMAIN` on stdout, exit 1.
 */
function bindNslookup(name: string, r: { name: string; address: string } | undefined, server: string, io: ShellIo): number {
  io.out(`Server:\t\t${server}\nAddress:\t${server}#53\n\n`);
  if (!r) {
    io.out(`** server can't find ${name}: NXDOMAIN\n\n`);
    return 1;
  }
  const fqdn = clusterFqdn(name, r.name);
  if (!fqdn.endsWith('.cluster.local')) io.out('Non-authoritative answer:\n');
  io.out(`Name:\t${fqdn}\nAddress: ${r.address}\n\n`);
  return 0;
}

// Applets/binaries that exist in the userlands but do nothing visible in the simulation.
const QUIET = ['sed', 'awk', 'find', 'xargs', 'sort', 'uniq', 'cut', 'chmod', 'chown', 'ln', 'mv', 'df', 'du', 'free', 'top', 'uptime', 'mount', 'vi', 'less', 'more', 'stat', 'sync', 'apk', 'apt-get', 'apt', 'dpkg', 'tee', 'basename', 'dirname', 'seq', 'yes', 'which', 'stty', 'clear', 'reset', 'base64', 'md5sum', 'sha256sum', 'gzip', 'tar', 'nohup', 'timeout', 'watch', 'ip', 'ifconfig', 'netstat', 'route', 'ping', 'traceroute', 'telnet', 'dig', 'host'];
for (const q of QUIET) {
  if (!UTILITIES[q]) UTILITIES[q] = { run: () => 0 };
}

/** Busybox applets present in busybox and alpine images (the commands `kubectl exec` finds). */
export const BUSYBOX_APPLETS: readonly string[] = [
  'sh', 'ash', 'cat', 'ls', 'echo', 'printf', 'sleep', 'touch', 'rm', 'mkdir', 'cp', 'mv', 'env', 'printenv', 'hostname', 'whoami', 'id',
  'uname', 'date', 'wc', 'grep', 'head', 'tail', 'tr', 'ps', 'kill', 'wget', 'nslookup', 'nc', 'true', 'false', 'test', '[', 'pwd',
  'sed', 'awk', 'find', 'xargs', 'sort', 'uniq', 'cut', 'chmod', 'chown', 'ln', 'df', 'du', 'free', 'top', 'uptime', 'mount', 'vi',
  'less', 'more', 'stat', 'sync', 'tee', 'basename', 'dirname', 'seq', 'yes', 'which', 'stty', 'clear', 'reset', 'base64', 'md5sum',
  'sha256sum', 'gzip', 'tar', 'nohup', 'timeout', 'watch', 'ip', 'ifconfig', 'netstat', 'route', 'ping', 'traceroute', 'telnet',
];

/** Commands of a Debian-based image (bash, dash as sh, coreutils, procps-less). */
export const DEBIAN_COMMANDS: readonly string[] = [
  'sh', 'bash', 'dash', 'cat', 'ls', 'echo', 'printf', 'sleep', 'touch', 'rm', 'mkdir', 'cp', 'mv', 'env', 'printenv', 'hostname',
  'whoami', 'id', 'uname', 'date', 'wc', 'grep', 'head', 'tail', 'tr', 'kill', 'true', 'false', 'test', '[', 'pwd', 'sed', 'awk',
  'find', 'xargs', 'sort', 'uniq', 'cut', 'chmod', 'chown', 'ln', 'df', 'du', 'mount', 'stat', 'sync', 'tee', 'basename', 'dirname',
  'seq', 'yes', 'which', 'stty', 'clear', 'reset', 'base64', 'md5sum', 'sha256sum', 'gzip', 'tar', 'nohup', 'timeout', 'apt-get',
  'apt', 'dpkg',
];
