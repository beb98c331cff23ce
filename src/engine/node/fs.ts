/**
 * A small in-memory filesystem for one node: directories, text files and symbolic links, each
 * with a mode and an mtime (virtual ms). Operations are named after the coreutils commands a
 * person types (`ls`, `cat`, `mv`, `cp`, `rm`, `mkdir -p`, `stat`, `touch`, `ln -s`) and fail
 * with the messages GNU coreutils 9.1 (Debian 12, kind's node image) prints, e.g.
 * `ls: cannot access '/x': No such file or directory`, `cat: /x: No such file or directory`,
 * `rm: cannot remove '/x': No such file or directory`, `mv: cannot stat '/x': No such file or directory`.
 *
 * Paths: absolute, or relative to `/` (the working directory of `docker exec`). `.`/`..` and
 * repeated slashes are normalised; symbolic links are followed (at most 40, as Linux does).
 * Owners are always root: everything a kind node's configuration holds is root's.
 *
 * Change notification: `watch(dir, listener)` reports changes to a directory's direct entries,
 * like inotify(7) without IN_ISDIR subtleties: `create`, `modify`, `delete`, `moved_from`,
 * `moved_to`, `attrib`. Listeners are called synchronously, right after the change; a listener
 * that wants inotify's latency schedules its reaction on the clock. A watch is on a path, so it
 * survives the directory being removed and created again (unlike a real inotify watch).
 */
import { MONTH_ABBR, civilTime } from './journal';
import type { CommandResult } from './journal';

/** errno values the filesystem reports, with their strerror(3) text. */
export const ERRNO_TEXT = {
  ENOENT: 'No such file or directory',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
  EINVAL: 'Invalid argument',
  ELOOP: 'Too many levels of symbolic links',
  EBUSY: 'Device or resource busy',
} as const;

/** An errno name. */
export type Errno = keyof typeof ERRNO_TEXT;

/**
 * A failed filesystem operation. `message` is the whole line coreutils prints to stderr (no
 * trailing newline), e.g. `cat: /x: No such file or directory`; `code` is the errno and `path`
 * the path it is about.
 */
export class FsError extends Error {
  constructor(
    readonly code: Errno,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'FsError';
  }
}

/** Node kinds. */
export type FsNodeType = 'file' | 'dir' | 'symlink';

interface NodeBase {
  mode: number;
  mtime: number;
}
interface FileNode extends NodeBase {
  type: 'file';
  content: string;
  /** Size to report instead of the content's (binaries such as /usr/bin/kubelet). */
  sizeOverride?: number;
}
interface DirNode extends NodeBase {
  type: 'dir';
  children: Map<string, FsNode>;
}
interface LinkNode extends NodeBase {
  type: 'symlink';
  target: string;
}
type FsNode = FileNode | DirNode | LinkNode;

/**
 * Objects of the nodes' shapes (property order as every node is made below) whose `mode` and
 * `mtime` hold a non-number once, made when the module loads and kept. Performance only, no
 * behaviour: V8 tracks a representation per field of a shape; a field that has only ever held
 * numbers, one of them not a small integer, becomes a "double" field, and then every object of
 * that shape boxes its value in a 16-byte heap number (the heap snapshots of a 10k-pod cluster
 * showed every node's mtime boxed, ~2 MB). A field that has also held a non-number keeps small
 * integers, as all mode bits and virtual-ms mtimes are, inline. The values read are the same.
 */
export const NODE_SHAPE_TEMPLATES: readonly unknown[] = [
  { type: 'dir', mode: undefined, mtime: undefined, children: undefined },
  { type: 'file', content: undefined, mode: undefined, mtime: undefined },
  { type: 'symlink', target: undefined, mode: undefined, mtime: undefined },
];

/** What `stat`/`ls -l` know about an entry. Times are virtual ms; `mode` is permission bits. */
export interface FileStat {
  /** The normalised path asked for. */
  path: string;
  /** Last path component (`/` for the root). */
  name: string;
  type: FsNodeType;
  /** Permission bits, e.g. 0o644. */
  mode: number;
  /** Bytes: the UTF-8 length of a file's content, 4096 for a directory, the target's length for a link. */
  size: number;
  /** Virtual ms of the last content change. */
  mtime: number;
  nlink: number;
  user: 'root';
  group: 'root';
  /** Link target (symlinks only). */
  target?: string;
}

/** What changed in a watched directory (inotify(7) event names, lower-case). */
export type FsEventType = 'create' | 'modify' | 'delete' | 'moved_from' | 'moved_to' | 'attrib';

/** A change to one entry of a watched directory. */
export interface FsEvent {
  type: FsEventType;
  /** The watched directory. */
  dir: string;
  /** The entry's name in it. */
  name: string;
  /** Full path of the entry. */
  path: string;
  isDir: boolean;
}

/** Listener of `FileSystem.watch`. */
export type FsListener = (e: FsEvent) => void;

/** UTF-8 byte length of a string (no TextEncoder: the engine's lib has no DOM/Node types). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Normalise a path: make it absolute (relative to `/`), resolve `.`/`..`, drop repeated and trailing slashes. */
export function normalizePath(p: string): string {
  if (isNormalPath(p)) return p;
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

/** True when `p` is already normal: absolute, no empty, `.` or `..` segment, no trailing slash (performance only). */
function isNormalPath(p: string): boolean {
  const n = p.length;
  if (n === 0 || p.charCodeAt(0) !== 47) return false;
  if (n === 1) return true;
  if (p.charCodeAt(n - 1) === 47) return false;
  for (let i = 0; i < n; i++) {
    if (p.charCodeAt(i) !== 47) continue;
    const a = p.charCodeAt(i + 1); // NaN past the end
    if (a === 47) return false;
    if (a === 46) {
      const b = p.charCodeAt(i + 2);
      if (i + 2 === n || b === 47) return false;
      if (b === 46 && (i + 3 === n || p.charCodeAt(i + 3) === 47)) return false;
    }
  }
  return true;
}

/** Directory part of a normalised path (`/etc/hostname` -> `/etc`, `/etc` -> `/`). */
export function dirname(p: string): string {
  const n = normalizePath(p);
  const i = n.lastIndexOf('/');
  return i <= 0 ? '/' : n.slice(0, i);
}

/** Last component of a path (`/usr/bin/kubelet` -> `kubelet`; `/` -> `/`). */
export function basename(p: string): string {
  const n = normalizePath(p);
  return n === '/' ? '/' : n.slice(n.lastIndexOf('/') + 1);
}

/**
 * Quote a file name the way coreutils' `quoteaf` does in the C locale for the messages that
 * quote (`ls`, `rm`, `mv`, `cp`, `mkdir`, `stat`, `touch`): always in single quotes, with an
 * embedded `'` written as `'\''`.
 */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `quotef` style (cat, head, tail): bare unless the name needs quoting. */
function quoteIfNeeded(s: string): string {
  return /^[A-Za-z0-9_./+:@%=,-]+$/.test(s) ? s : shellQuote(s);
}

const MAX_SYMLINKS = 40;

/** Options for creating files. */
export interface WriteOptions {
  /** Permission bits for a new file (default 0o644). Existing files keep their mode. */
  mode?: number;
}

/**
 * The filesystem. Construct with a time source (virtual ms) used for mtimes.
 */
export class FileSystem {
  private root: DirNode;
  private watchers = new Map<string, Set<FsListener>>();
  /**
   * Bumped right before every change of the tree: an entry added, replaced or removed, a file's
   * content, size or mode (mtimes alone are not counted: no query below reads them). Equal
   * numbers mean an unchanged tree (performance only: see `unchangedSince`).
   */
  private gen = 0;
  /**
   * Per snapshot (`snapshotDir`), the path it was taken or last proven at and `gen` then: while
   * `gen` is the same, nothing changed since, so that path still shows exactly that tree.
   */
  private provenAt = new WeakMap<DirSnapshot, { path: string; gen: number }>();

  /** @param now virtual ms, stamped as mtime on every change (default: always 0) */
  constructor(private readonly now: () => number = () => 0) {
    this.root = { type: 'dir', mode: 0o755, mtime: now(), children: new Map() };
  }

  /**
   * A number that changes whenever the tree changes (an entry added, replaced or removed, a
   * file's content, size or mode; not an mtime alone): equal numbers from the same FileSystem
   * mean every path resolves to the same nodes with the same contents. Performance only.
   */
  generation(): number {
    return this.gen;
  }

  // ---------------------------------------------------------------------------------------
  // Lookup

  /**
   * Resolve a path to its node. `followLast` follows a final symlink. Throws a bare FsError
   * (message = strerror text) that callers re-word per command.
   */
  private resolve(path: string, followLast = true): { node: FsNode; path: string } {
    const r = this.lookup(path, followLast);
    if ('errno' in r) throw new FsError(r.errno, r.path, ERRNO_TEXT[r.errno]);
    return r;
  }

  /**
   * Path resolution without exceptions (the kubelet probes many paths that do not exist on every
   * sync; building an Error with its stack for each was the idle cluster's top cost).
   */
  private lookup(path: string, followLast: boolean): { node: FsNode; path: string } | { errno: Errno; path: string } {
    this.hops.n = 0;
    return this.walk(path, followLast, this.hops);
  }

  /** The symlink count of the lookup in progress (one object reused: performance only; lookups do not nest). */
  private readonly hops = { n: 0 };

  /** One step of `lookup` (a method, not a closure per lookup: performance only); `hops` counts symlinks followed. */
  private walk(p: string, follow: boolean, hops: { n: number }): { node: FsNode; path: string } | { errno: Errno; path: string } {
    const norm = normalizePath(p);
    const n = norm.length;
    let cur: FsNode = this.root;
    // The resolved path so far: `norm`'s first `prefixEnd` characters until a symlink is followed
    // (no string built per component), then `curPath`. Components are cut from `norm` one by one
    // (no array of parts per lookup).
    let prefixEnd = 0;
    let curPath: string | undefined;
    for (let start = n === 1 ? n : 1; start < n; ) {
      let end = norm.indexOf('/', start);
      if (end === -1) end = n;
      const part = norm.slice(start, end);
      start = end + 1;
      if (cur.type !== 'dir') return { errno: 'ENOTDIR', path: norm };
      const next: FsNode | undefined = cur.children.get(part);
      if (!next) return { errno: 'ENOENT', path: norm };
      const last = end === n;
      if (next.type === 'symlink' && (!last || follow)) {
        if (++hops.n > MAX_SYMLINKS) return { errno: 'ELOOP', path: norm };
        const sofar = curPath ?? norm.slice(0, prefixEnd);
        const base = sofar === '' ? '/' : sofar;
        const target = next.target.startsWith('/') ? next.target : `${base}/${next.target}`;
        const r = this.walk(target, true, hops);
        if ('errno' in r) return r;
        cur = r.node;
        curPath = r.path === '/' ? '' : r.path;
      } else {
        cur = next;
        if (curPath === undefined) prefixEnd = end;
        else curPath = `${curPath}/${part}`;
      }
    }
    const path = curPath ?? norm.slice(0, prefixEnd);
    return { node: cur, path: path === '' ? '/' : path };
  }

  /** The parent directory node of `path` and the entry name (parent must exist and be a directory). */
  private parentOf(path: string): { dir: DirNode; dirPath: string; name: string } {
    const norm = normalizePath(path);
    const dirPath = dirname(norm);
    const r = this.resolve(dirPath);
    if (r.node.type !== 'dir') throw new FsError('ENOTDIR', norm, ERRNO_TEXT.ENOTDIR);
    return { dir: r.node, dirPath: r.path, name: basename(norm) };
  }

  private tryResolve(path: string, followLast = true): { node: FsNode; path: string } | undefined {
    const r = this.lookup(path, followLast);
    return 'errno' in r ? undefined : r;
  }

  private statOf(node: FsNode, path: string): FileStat {
    const norm = normalizePath(path);
    let size: number;
    let nlink = 1;
    if (node.type === 'file') size = node.sizeOverride ?? utf8Length(node.content);
    else if (node.type === 'dir') {
      size = 4096;
      nlink = 2;
      for (const c of node.children.values()) if (c.type === 'dir') nlink++;
    } else size = utf8Length(node.target);
    return {
      path: norm,
      name: basename(norm),
      type: node.type,
      mode: node.mode,
      size,
      mtime: node.mtime,
      nlink,
      user: 'root',
      group: 'root',
      ...(node.type === 'symlink' ? { target: node.target } : {}),
    };
  }

  // ---------------------------------------------------------------------------------------
  // Queries

  /** True if the path exists (following symlinks; a dangling link is false). */
  exists(path: string): boolean {
    return this.tryResolve(path) !== undefined;
  }

  /** True if the path is (or links to) a directory. */
  isDirectory(path: string): boolean {
    return this.tryResolve(path)?.node.type === 'dir';
  }

  /** True if the path is (or links to) a regular file. */
  isFile(path: string): boolean {
    return this.tryResolve(path)?.node.type === 'file';
  }

  /** `stat PATH` (following links). Throws `stat: cannot statx '/x': No such file or directory`. */
  stat(path: string): FileStat {
    try {
      const r = this.resolve(path);
      return this.statOf(r.node, path);
    } catch (e) {
      throw this.reword(e, (x) => `stat: cannot statx ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
  }

  /** `stat` without following a final symlink (`ls -l` of a link). */
  lstat(path: string): FileStat {
    try {
      const r = this.resolve(path, false);
      return this.statOf(r.node, path);
    } catch (e) {
      throw this.reword(e, (x) => `stat: cannot statx ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
  }

  /** Target of a symlink (`readlink`); undefined when the path is not a link. */
  readlink(path: string): string | undefined {
    const r = this.tryResolve(path, false);
    return r?.node.type === 'symlink' ? r.node.target : undefined;
  }

  /**
   * `ls PATH`: the entries of a directory sorted by name (byte order, as in the C locale), hidden
   * (dot) entries only with `all`; a file (or a link to one) lists itself. Entries are lstat'ed.
   * Throws `ls: cannot access '/x': No such file or directory`.
   */
  ls(path: string, opts: { all?: boolean } = {}): FileStat[] {
    let r: { node: FsNode; path: string };
    try {
      r = this.resolve(path);
    } catch (e) {
      throw this.reword(e, (x) => `ls: cannot access ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
    if (r.node.type !== 'dir') return [this.statOf(this.resolve(path, false).node, path)];
    const norm = normalizePath(path);
    const names = [...r.node.children.keys()].filter((n) => opts.all || !n.startsWith('.')).sort(byteCompare);
    return names.map((n) => this.statOf(r.node.type === 'dir' ? r.node.children.get(n)! : r.node, norm === '/' ? `/${n}` : `${norm}/${n}`));
  }

  /** Names in a directory (sorted), or [] when it does not exist. For programs (the kubelet's manifest scan). */
  readdir(path: string): string[] {
    const r = this.tryResolve(path);
    return r?.node.type === 'dir' ? [...r.node.children.keys()].sort(byteCompare) : [];
  }

  /**
   * `cat PATH`: a file's content. Throws `cat: /x: No such file or directory` or
   * `cat: /etc: Is a directory`.
   */
  cat(path: string): string {
    let r: { node: FsNode; path: string };
    try {
      r = this.resolve(path);
    } catch (e) {
      throw this.reword(e, (x) => `cat: ${quoteIfNeeded(path)}: ${ERRNO_TEXT[x.code]}`);
    }
    if (r.node.type === 'dir') throw new FsError('EISDIR', normalizePath(path), `cat: ${quoteIfNeeded(path)}: ${ERRNO_TEXT.EISDIR}`);
    return (r.node as FileNode).content;
  }

  /** Same as `cat` (the name programs use). */
  readFile(path: string): string {
    return this.cat(path);
  }

  /** A file's content, or undefined when it cannot be read. */
  tryReadFile(path: string): string | undefined {
    const r = this.tryResolve(path);
    return r?.node.type === 'file' ? r.node.content : undefined;
  }

  /** Every path under `path` (itself first), depth-first in name order, as `find PATH` lists them. */
  find(path: string): string[] {
    let r: { node: FsNode; path: string };
    try {
      r = this.resolve(path);
    } catch (e) {
      throw this.reword(e, (x) => `find: ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
    const out: string[] = [];
    const visit = (node: FsNode, p: string): void => {
      out.push(p);
      if (node.type !== 'dir') return;
      for (const n of [...node.children.keys()].sort(byteCompare)) visit(node.children.get(n)!, p === '/' ? `/${n}` : `${p}/${n}`);
    };
    visit(r.node, normalizePath(path));
    return out;
  }

  /**
   * Every regular file under the directory `path` (recursively) by its path as `find` prints it,
   * with its content; undefined when `path` is not a directory or the tree holds a symlink (the
   * caller then walks it with `find` and reads through the links). One walk instead of a lookup
   * per file (performance only: the kubelet compares volume payloads on every pod sync).
   */
  filesUnder(path: string): Map<string, string> | undefined {
    const r = this.tryResolve(path);
    if (r?.node.type !== 'dir') return undefined;
    const out = new Map<string, string>();
    return collectFiles(r.node, normalizePath(path), out) ? out : undefined;
  }

  /**
   * A record of the directory tree at `path` (its directory and file nodes and every file's
   * content) for `unchangedSince`; undefined when `path` is not a directory or the tree holds a
   * symlink. Performance only: the kubelet proves with it that a volume's files are as it left
   * them without reading the tree back on every pod sync.
   */
  snapshotDir(path: string): DirSnapshot | undefined {
    const r = this.tryResolve(path);
    if (r?.node.type !== 'dir') return undefined;
    const snap = snapshotOf(r.node);
    if (snap) this.provenAt.set(snap, { path, gen: this.gen });
    return snap;
  }

  /**
   * True when `path` still resolves to the very directory node `snap` recorded and that tree
   * still has exactly the recorded entries, each the same node, every file with the same content
   * (nodes are only ever changed in place by this class: a replaced, removed or added entry is a
   * different or missing node, and a rewritten file has new content). A true answer implies
   * `filesUnder(path)` would return the same paths and contents as when `snap` was taken.
   */
  unchangedSince(path: string, snap: DirSnapshot): boolean {
    // The skip, and why it gives the same answer: `snap` was taken at, or last proven to match,
    // this very path when `gen` had its current value, and `gen` changes before any change of the
    // tree. The tree is the same as then, so `path` resolves to the same node (resolution reads
    // only the tree) and that node's tree is the recorded one: the full check below is true.
    const proof = this.provenAt.get(snap);
    if (proof !== undefined && proof.gen === this.gen && proof.path === path) return true;
    const r = this.tryResolve(path);
    const same = r !== undefined && r.node === snap[0] && sameTree(snap);
    // Proven now: remember it (at this path) until the next change.
    if (same && proof !== undefined) {
      proof.path = path;
      proof.gen = this.gen;
    } else if (same) this.provenAt.set(snap, { path, gen: this.gen });
    return same;
  }

  // ---------------------------------------------------------------------------------------
  // Changes

  /**
   * Create or replace a file's content (`echo ... > PATH`). The parent must exist. Throws as
   * dash (kind's /bin/sh) reports a failed redirection: `sh: 1: cannot create /x/y: Directory nonexistent`,
   * `sh: 1: cannot create /etc: Is a directory`.
   */
  writeFile(path: string, content: string, opts: WriteOptions = {}): void {
    this.putFile(path, content, false, opts);
  }

  /** Append to a file, creating it (`echo ... >> PATH`). Errors as `writeFile`. */
  appendFile(path: string, content: string, opts: WriteOptions = {}): void {
    this.putFile(path, content, true, opts);
  }

  private putFile(path: string, content: string, append: boolean, opts: WriteOptions): void {
    // Fast path (performance only): the parent resolves to a directory whose entry is absent or a
    // regular file; one walk instead of three, with the same result and events as below.
    const norm = normalizePath(path);
    const slash = norm.lastIndexOf('/');
    if (slash >= 0 && norm.length > 1) {
      const pr = this.lookup(slash === 0 ? '/' : norm.slice(0, slash), true);
      if (!('errno' in pr) && pr.node.type === 'dir') {
        const name = norm.slice(slash + 1);
        const child = pr.node.children.get(name);
        // `name` is one plain component of a normal path and `pr.path` the resolved, normal
        // parent: the event of `pr.path/name` (see `emitChild`).
        if (child === undefined) {
          this.gen++;
          pr.node.children.set(name, { type: 'file', content, mode: opts.mode ?? 0o644, mtime: this.now() });
          pr.node.mtime = this.now();
          this.emitChild(pr.path, name, 'create', false);
          return;
        }
        if (child.type === 'file') {
          this.gen++;
          child.content = append ? child.content + content : content;
          delete child.sizeOverride;
          child.mtime = this.now();
          this.emitChild(pr.path, name, 'modify', false);
          return;
        }
      }
    }
    const fail = (code: Errno): FsError =>
      new FsError(code, normalizePath(path), `sh: 1: cannot create ${path}: ${code === 'ENOENT' ? 'Directory nonexistent' : ERRNO_TEXT[code]}`);
    // Follow a final symlink to its target, as open(2) does.
    const target = this.tryResolve(path);
    if (target) {
      if (target.node.type === 'dir') throw fail('EISDIR');
      const f = target.node as FileNode;
      this.gen++;
      f.content = append ? f.content + content : content;
      delete f.sizeOverride;
      f.mtime = this.now();
      this.emit(target.path, 'modify', false);
      return;
    }
    let parent: { dir: DirNode; dirPath: string; name: string };
    try {
      parent = this.parentOf(this.danglingTarget(path));
    } catch (e) {
      if (e instanceof FsError) throw fail(e.code);
      throw e;
    }
    this.gen++;
    parent.dir.children.set(parent.name, { type: 'file', content, mode: opts.mode ?? 0o644, mtime: this.now() });
    parent.dir.mtime = this.now();
    this.emit(joinPath(parent.dirPath, parent.name), 'create', false);
  }

  /** The path a write through a dangling symlink creates (the link's target), else the path itself. */
  private danglingTarget(path: string): string {
    const l = this.tryResolve(path, false);
    if (l?.node.type === 'symlink') return l.node.target.startsWith('/') ? l.node.target : joinPath(dirname(path), l.node.target);
    return path;
  }

  /**
   * Create a binary placeholder (an executable): content is a marker, `size` is what `ls -l`
   * reports. Used to lay out /usr/bin/kubelet and friends; systemd refuses to exec a missing one.
   */
  installBinary(path: string, size: number, mode = 0o755): void {
    this.mkdir(dirname(path), { parents: true });
    this.writeFile(path, '\u007fELF', { mode });
    const r = this.resolve(path);
    this.gen++;
    (r.node as FileNode).sizeOverride = size;
  }

  /**
   * `touch PATH`: create an empty file or update the mtime. Throws
   * `touch: cannot touch '/x/y': No such file or directory`.
   */
  touch(path: string): void {
    const r = this.tryResolve(path);
    if (r) {
      r.node.mtime = this.now();
      this.emit(r.path, 'attrib', r.node.type === 'dir');
      return;
    }
    try {
      this.writeFile(path, '');
    } catch (e) {
      throw this.reword(e, (x) => `touch: cannot touch ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
  }

  /** `chmod MODE PATH` (octal bits). Throws `chmod: cannot access '/x': No such file or directory`. */
  chmod(path: string, mode: number): void {
    let r: { node: FsNode; path: string };
    try {
      r = this.resolve(path);
    } catch (e) {
      throw this.reword(e, (x) => `chmod: cannot access ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
    this.gen++;
    r.node.mode = mode;
    this.emit(r.path, 'attrib', r.node.type === 'dir');
  }

  /**
   * `mkdir [-p] PATH`. Without `parents` the parent must exist and the path must not; with it
   * missing parents are made and an existing directory is fine. Throws
   * `mkdir: cannot create directory '/x/y': No such file or directory` /
   * `mkdir: cannot create directory '/tmp': File exists`.
   */
  mkdir(path: string, opts: { parents?: boolean; mode?: number } = {}): void {
    const norm = normalizePath(path);
    if (opts.parents) {
      const parts = norm === '/' ? [] : norm.slice(1).split('/');
      let cur = '';
      // Performance only: while every component so far is a plain directory, step down from
      // the last one instead of resolving each prefix from the root (same nodes and events).
      let at: DirNode | undefined = this.root;
      for (const part of parts) {
        const parent = cur;
        cur = `${cur}/${part}`;
        if (at) {
          const child: FsNode | undefined = at.children.get(part);
          if (child?.type === 'dir') {
            at = child;
            continue;
          }
          if (child === undefined) {
            const made: DirNode = { type: 'dir', mode: opts.mode ?? 0o755, mtime: this.now(), children: new Map() };
            this.gen++;
            at.children.set(part, made);
            at.mtime = this.now();
            // `cur` is normal and resolved (plain directories from the root): its parent is
            // `parent` (`/` for the first component).
            this.emitChild(parent === '' ? '/' : parent, part, 'create', true);
            at = made;
            continue;
          }
          at = undefined; // a symlink or a file: resolve as below from here on
        }
        const r = this.tryResolve(cur);
        if (r) {
          if (r.node.type !== 'dir') throw new FsError('EEXIST', cur, mkdirMessage(path, r.node.type === 'file' ? 'EEXIST' : 'ENOTDIR'));
          continue;
        }
        const p = this.parentOf(cur);
        this.gen++;
        p.dir.children.set(p.name, { type: 'dir', mode: opts.mode ?? 0o755, mtime: this.now(), children: new Map() });
        p.dir.mtime = this.now();
        this.emit(joinPath(p.dirPath, p.name), 'create', true);
      }
      return;
    }
    if (this.tryResolve(norm, false)) throw new FsError('EEXIST', norm, mkdirMessage(path, 'EEXIST'));
    let p: { dir: DirNode; dirPath: string; name: string };
    try {
      p = this.parentOf(norm);
    } catch (e) {
      throw this.reword(e, (x) => mkdirMessage(path, x.code));
    }
    this.gen++;
    p.dir.children.set(p.name, { type: 'dir', mode: opts.mode ?? 0o755, mtime: this.now(), children: new Map() });
    p.dir.mtime = this.now();
    this.emit(joinPath(p.dirPath, p.name), 'create', true);
  }

  /**
   * `ln -s TARGET PATH`: create a symbolic link. Throws
   * `ln: failed to create symbolic link '/x': File exists`.
   */
  symlink(target: string, path: string): void {
    const norm = normalizePath(path);
    const msg = (code: Errno): string => `ln: failed to create symbolic link ${shellQuote(path)}: ${ERRNO_TEXT[code]}`;
    if (this.tryResolve(norm, false)) throw new FsError('EEXIST', norm, msg('EEXIST'));
    let p: { dir: DirNode; dirPath: string; name: string };
    try {
      p = this.parentOf(norm);
    } catch (e) {
      throw this.reword(e, (x) => msg(x.code));
    }
    this.gen++;
    p.dir.children.set(p.name, { type: 'symlink', target, mode: 0o777, mtime: this.now() });
    p.dir.mtime = this.now();
    this.emit(joinPath(p.dirPath, p.name), 'create', false);
  }

  /**
   * `rm [-r] [-f] PATH`. A directory needs `recursive`; `force` ignores a missing path. A link
   * is removed, not its target. Throws `rm: cannot remove '/x': No such file or directory`,
   * `rm: cannot remove '/etc': Is a directory`, and refuses `/` as coreutils does.
   */
  rm(path: string, opts: { recursive?: boolean; force?: boolean } = {}): void {
    const norm = normalizePath(path);
    if (norm === '/' && opts.recursive)
      throw new FsError('EBUSY', '/', `rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe`);
    let p: { dir: DirNode; dirPath: string; name: string };
    let node: FsNode | undefined;
    try {
      p = this.parentOf(norm);
      node = p.dir.children.get(p.name);
      if (!node) throw new FsError('ENOENT', norm, ERRNO_TEXT.ENOENT);
    } catch (e) {
      if (opts.force && e instanceof FsError && e.code === 'ENOENT') return;
      throw this.reword(e, (x) => `rm: cannot remove ${shellQuote(path)}: ${ERRNO_TEXT[x.code]}`);
    }
    if (node.type === 'dir' && !opts.recursive) throw new FsError('EISDIR', norm, `rm: cannot remove ${shellQuote(path)}: ${ERRNO_TEXT.EISDIR}`);
    this.gen++;
    p.dir.children.delete(p.name);
    p.dir.mtime = this.now();
    this.emit(joinPath(p.dirPath, p.name), 'delete', node.type === 'dir');
  }

  /** `rmdir PATH`: remove an empty directory. Throws `rmdir: failed to remove '/x': Directory not empty`. */
  rmdir(path: string): void {
    const norm = normalizePath(path);
    const msg = (code: Errno): string => `rmdir: failed to remove ${shellQuote(path)}: ${ERRNO_TEXT[code]}`;
    let p: { dir: DirNode; dirPath: string; name: string };
    try {
      p = this.parentOf(norm);
    } catch (e) {
      throw this.reword(e, (x) => msg(x.code));
    }
    const node = p.dir.children.get(p.name);
    if (!node) throw new FsError('ENOENT', norm, msg('ENOENT'));
    if (node.type !== 'dir') throw new FsError('ENOTDIR', norm, msg('ENOTDIR'));
    if (node.children.size > 0) throw new FsError('ENOTEMPTY', norm, msg('ENOTEMPTY'));
    this.gen++;
    p.dir.children.delete(p.name);
    p.dir.mtime = this.now();
    this.emit(joinPath(p.dirPath, p.name), 'delete', true);
  }

  /**
   * `mv SRC DST`: rename, or move into DST when it is a directory. Keeps the mtime (rename(2)).
   * Throws `mv: cannot stat '/x': No such file or directory`,
   * `mv: cannot move '/a' to '/nope/b': No such file or directory`,
   * `mv: cannot move '/a' to a subdirectory of itself, '/a/b'`,
   * `mv: cannot overwrite directory '/d' with non-directory`.
   */
  mv(src: string, dst: string): void {
    const srcNorm = normalizePath(src);
    let sp: { dir: DirNode; dirPath: string; name: string };
    let node: FsNode | undefined;
    try {
      sp = this.parentOf(srcNorm);
      node = sp.dir.children.get(sp.name);
      if (!node) throw new FsError('ENOENT', srcNorm, ERRNO_TEXT.ENOENT);
    } catch (e) {
      throw this.reword(e, (x) => `mv: cannot stat ${shellQuote(src)}: ${ERRNO_TEXT[x.code]}`);
    }
    let dstPath = normalizePath(dst);
    let shownDst = dst;
    const dstNode = this.tryResolve(dstPath);
    if (dstNode?.node.type === 'dir') {
      dstPath = joinPath(dstNode.path, sp.name);
      shownDst = joinPath(dst, sp.name);
    } else if (dst.endsWith('/') && node.type !== 'dir')
      throw new FsError('ENOTDIR', dstPath, `mv: cannot move ${shellQuote(src)} to ${shellQuote(dst)}: ${ERRNO_TEXT.ENOTDIR}`);
    if (node.type === 'dir' && (dstPath === srcNorm || dstPath.startsWith(srcNorm + '/'))) {
      if (dstPath === srcNorm) return;
      throw new FsError('EINVAL', dstPath, `mv: cannot move ${shellQuote(src)} to a subdirectory of itself, ${shellQuote(shownDst)}`);
    }
    let dp: { dir: DirNode; dirPath: string; name: string };
    try {
      dp = this.parentOf(dstPath);
    } catch (e) {
      throw this.reword(e, (x) => `mv: cannot move ${shellQuote(src)} to ${shellQuote(shownDst)}: ${ERRNO_TEXT[x.code]}`);
    }
    const existing = dp.dir.children.get(dp.name);
    if (existing === node) return;
    if (existing?.type === 'dir' && node.type !== 'dir')
      throw new FsError('EISDIR', dstPath, `mv: cannot overwrite directory ${shellQuote(shownDst)} with non-directory`);
    this.gen++;
    sp.dir.children.delete(sp.name);
    sp.dir.mtime = this.now();
    this.gen++;
    dp.dir.children.set(dp.name, node);
    dp.dir.mtime = this.now();
    this.emit(joinPath(sp.dirPath, sp.name), 'moved_from', node.type === 'dir');
    this.emit(joinPath(dp.dirPath, dp.name), 'moved_to', node.type === 'dir');
  }

  /**
   * `cp [-r] SRC DST`: copy a file (or a tree with `recursive`); into DST when it is a
   * directory. The copy gets a new mtime (no `-p`). Throws `cp: cannot stat '/x': No such file or directory`,
   * `cp: -r not specified; omitting directory '/etc'`,
   * `cp: cannot create regular file '/nope/x': No such file or directory`.
   */
  cp(src: string, dst: string, opts: { recursive?: boolean } = {}): void {
    let r: { node: FsNode; path: string };
    try {
      r = this.resolve(src);
    } catch (e) {
      throw this.reword(e, (x) => `cp: cannot stat ${shellQuote(src)}: ${ERRNO_TEXT[x.code]}`);
    }
    if (r.node.type === 'dir' && !opts.recursive) throw new FsError('EISDIR', r.path, `cp: -r not specified; omitting directory ${shellQuote(src)}`);
    let dstPath = normalizePath(dst);
    let shownDst = dst;
    const d = this.tryResolve(dstPath);
    if (d?.node.type === 'dir') {
      dstPath = joinPath(d.path, basename(src));
      shownDst = joinPath(dst, basename(src));
    } else if (dst.endsWith('/') && r.node.type !== 'dir')
      throw new FsError('ENOTDIR', dstPath, `cp: cannot create regular file ${shellQuote(dst)}: ${ERRNO_TEXT.ENOTDIR}`);
    if (r.node.type === 'dir' && (dstPath === r.path || dstPath.startsWith(r.path + '/')))
      throw new FsError('EINVAL', dstPath, `cp: cannot copy a directory, ${shellQuote(src)}, into itself, ${shellQuote(shownDst)}`);
    const clone = (n: FsNode): FsNode => {
      if (n.type === 'file') return { type: 'file', content: n.content, mode: n.mode, mtime: this.now(), ...(n.sizeOverride !== undefined ? { sizeOverride: n.sizeOverride } : {}) };
      if (n.type === 'symlink') return { type: 'symlink', target: n.target, mode: n.mode, mtime: this.now() };
      return { type: 'dir', mode: n.mode, mtime: this.now(), children: new Map([...n.children].map(([k, v]) => [k, clone(v)])) };
    };
    let dp: { dir: DirNode; dirPath: string; name: string };
    try {
      dp = this.parentOf(dstPath);
    } catch (e) {
      throw this.reword(e, (x) =>
        r.node.type === 'dir'
          ? `cp: cannot create directory ${shellQuote(shownDst)}: ${ERRNO_TEXT[x.code]}`
          : `cp: cannot create regular file ${shellQuote(shownDst)}: ${ERRNO_TEXT[x.code]}`,
      );
    }
    const existing = dp.dir.children.get(dp.name);
    if (existing?.type === 'dir' && r.node.type !== 'dir')
      throw new FsError('EISDIR', dstPath, `cp: cannot overwrite directory ${shellQuote(shownDst)} with non-directory`);
    if (existing?.type === 'file' && r.node.type === 'file') {
      this.gen++;
      existing.content = r.node.content;
      existing.sizeOverride = r.node.sizeOverride;
      existing.mtime = this.now();
      this.emit(joinPath(dp.dirPath, dp.name), 'modify', false);
      return;
    }
    this.gen++;
    dp.dir.children.set(dp.name, clone(r.node));
    dp.dir.mtime = this.now();
    this.emit(joinPath(dp.dirPath, dp.name), 'create', r.node.type === 'dir');
  }

  /** Remove everything inside a directory, keeping it (a tmpfs such as /tmp or /run after a reboot). */
  emptyDirectory(path: string): void {
    const r = this.tryResolve(path);
    if (r?.node.type !== 'dir') return;
    for (const name of [...r.node.children.keys()]) this.rm(joinPath(r.path, name), { recursive: true, force: true });
  }

  // ---------------------------------------------------------------------------------------
  // Watching

  /** Watch a directory's direct entries (inotify-like). Returns the function that removes the watch. */
  watch(dir: string, listener: FsListener): () => void {
    const key = normalizePath(dir);
    let set = this.watchers.get(key);
    if (!set) this.watchers.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(key);
    };
  }

  private emit(path: string, type: FsEventType, isDir: boolean): void {
    const dir = dirname(path);
    const set = this.watchers.get(dir);
    if (!set) return;
    const e: FsEvent = { type, dir, name: basename(path), path, isDir };
    for (const l of [...set]) l(e);
  }

  /**
   * `emit(dir/name)` for a normal directory path `dir` and one plain component `name` (no `/`,
   * not empty, `.` or `..`): `dirname` of that path is `dir` and its `basename` is `name`, so
   * the same event, without normalising the path twice (performance only: most changes are
   * in a directory nobody watches, and the kubelet writes every pod's volume files).
   */
  private emitChild(dir: string, name: string, type: FsEventType, isDir: boolean): void {
    const set = this.watchers.get(dir);
    if (!set) return;
    const e: FsEvent = { type, dir, name, path: dir === '/' ? `/${name}` : `${dir}/${name}`, isDir };
    for (const l of [...set]) l(e);
  }

  private reword(e: unknown, message: (e: FsError) => string): unknown {
    if (!(e instanceof FsError)) return e;
    return new FsError(e.code, e.path, message(e));
  }

  // ---------------------------------------------------------------------------------------
  // Command front-ends

  /**
   * `ls [-l] [-a] [-1] PATH...` as coreutils prints it without a terminal (one name per line;
   * `-l` long format with a `total` line for directories). Several paths: directories get a
   * `PATH:` header and a blank line between them, files first, as ls does. Missing paths print
   * `ls: cannot access ...` to stderr and make the exit code 2.
   *
   * @param nowUnixMs Unix ms of "now" (ls -l prints `Jan  5 06:00` for times within six months, else `Jan  5  2025`)
   * @param epochMs Unix ms of virtual time 0
   */
  lsCommand(paths: readonly string[], opts: { long?: boolean; all?: boolean }, nowUnixMs: number, epochMs: number): CommandResult {
    const targets = paths.length ? paths : ['/'];
    let stderr = '';
    let exitCode = 0;
    const files: FileStat[] = [];
    const dirs: string[] = [];
    for (const p of targets) {
      try {
        const st = this.stat(p);
        if (st.type === 'dir') dirs.push(p);
        else files.push(this.lstat(p));
      } catch (e) {
        if (!(e instanceof FsError)) throw e;
        stderr += `ls: cannot access ${shellQuote(p)}: ${ERRNO_TEXT[e.code]}\n`;
        exitCode = 2;
      }
    }
    const fmt = (entries: FileStat[], withTotal: boolean, pathOf: (s: FileStat) => string): string =>
      opts.long ? formatLsLong(entries, nowUnixMs, epochMs, withTotal, pathOf) : entries.map((s) => pathOf(s) + '\n').join('');
    const blocks: string[] = [];
    if (files.length) blocks.push(fmt(files, false, (s) => targets.find((t) => normalizePath(t) === s.path) ?? s.path));
    for (const d of dirs) {
      const body = fmt(this.ls(d, { all: opts.all }), true, (s) => s.name);
      blocks.push(targets.length > 1 ? `${d}:\n${body}` : body);
    }
    return { stdout: blocks.join('\n'), stderr, exitCode };
  }
}

/** The files under `node` (at path `p`) into `out` by path; false when the tree holds a symlink (see `filesUnder`). */
function collectFiles(node: DirNode, p: string, out: Map<string, string>): boolean {
  for (const [n, c] of node.children) {
    const cp = p === '/' ? `/${n}` : `${p}/${n}`;
    if (c.type === 'symlink') return false;
    if (c.type === 'file') out.set(cp, c.content);
    else if (!collectFiles(c, cp, out)) return false;
  }
  return true;
}

/**
 * A record of a directory tree (`FileSystem.snapshotDir`): the directory node, then per entry
 * three slots: its name, its node, and the file's content (a string) or the subdirectory's
 * record. Flat to stay small (the kubelet keeps one per projected volume of every pod).
 * Read its files with `snapshotFiles`; otherwise opaque.
 */
export type DirSnapshot = readonly unknown[];

/** The files directly in a snapshot's directory (name -> content), or undefined when it holds a subdirectory. */
export function snapshotFiles(snap: DirSnapshot): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (let i = 1; i < snap.length; i += 3) {
    const content = snap[i + 2];
    if (typeof content !== 'string') return undefined;
    out.set(snap[i] as string, content);
  }
  return out;
}

/** The record of `dir`'s tree, or undefined when it holds a symlink. */
function snapshotOf(dir: DirNode): DirSnapshot | undefined {
  // Exactly sized (kept per volume of every pod).
  const out = new Array<unknown>(1 + dir.children.size * 3);
  out[0] = dir;
  let i = 1;
  for (const [name, c] of dir.children) {
    if (c.type === 'symlink') return undefined;
    out[i++] = name;
    out[i++] = c;
    if (c.type === 'file') out[i++] = c.content;
    else {
      const sub = snapshotOf(c);
      if (!sub) return undefined;
      out[i++] = sub;
    }
  }
  return out;
}

/** True when the tree `snap` recorded has the same entries, nodes and file contents now. */
function sameTree(snap: DirSnapshot): boolean {
  const dir = snap[0] as DirNode;
  if (dir.children.size * 3 + 1 !== snap.length) return false;
  for (let i = 1; i < snap.length; i += 3) {
    const c = dir.children.get(snap[i] as string);
    if (c === undefined || c !== snap[i + 1]) return false;
    const rest = snap[i + 2];
    if (c.type === 'file') {
      if (c.content !== rest) return false;
    } else if (typeof rest === 'string' || !sameTree(rest as DirSnapshot)) return false;
  }
  return true;
}

/** `mkdir`'s error text for `path`. */
function mkdirMessage(path: string, code: Errno): string {
  return `mkdir: cannot create directory ${shellQuote(path)}: ${ERRNO_TEXT[code]}`;
}

/** Join a directory and a name. */
export function joinPath(dir: string, name: string): string {
  return normalizePath(`${dir}/${name}`);
}

function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `drwxr-xr-x` / `-rw-------` / `lrwxrwxrwx`: the type-and-permissions column of `ls -l`. */
export function modeString(type: FsNodeType, mode: number): string {
  const t = type === 'dir' ? 'd' : type === 'symlink' ? 'l' : '-';
  let s = t;
  for (let shift = 6; shift >= 0; shift -= 3) {
    const bits = (mode >> shift) & 7;
    s += (bits & 4 ? 'r' : '-') + (bits & 2 ? 'w' : '-') + (bits & 1 ? 'x' : '-');
  }
  // The sticky bit shows in the last column (`drwxrwxrwt` for /tmp).
  if (mode & 0o1000) s = s.slice(0, 9) + (mode & 1 ? 't' : 'T');
  return s;
}

/** Half a Gregorian year in ms: coreutils' "recent" threshold for the ls -l time column. */
const SIX_MONTHS_MS = 15778476 * 1000;

/**
 * `ls -l` lines for stat entries: `-rw-r--r-- 1 root root 1234 Jan  5 06:00 name`, columns
 * padded to the widest entry as ls does, `total N` (1 KiB blocks, 4 KiB filesystem blocks)
 * first when `withTotal`, `name -> target` for links.
 */
export function formatLsLong(
  entries: readonly FileStat[],
  nowUnixMs: number,
  epochMs: number,
  withTotal = true,
  nameOf: (s: FileStat) => string = (s) => s.name,
): string {
  const blocks = entries.reduce((n, s) => n + (s.type === 'symlink' ? 0 : Math.ceil(s.size / 4096) * 4), 0);
  const linkW = Math.max(1, ...entries.map((s) => String(s.nlink).length));
  const sizeW = Math.max(1, ...entries.map((s) => String(s.size).length));
  const lines = entries.map((s) => {
    const unix = epochMs + s.mtime;
    const c = civilTime(unix);
    const recent = unix <= nowUnixMs + 60_000 && nowUnixMs - unix < SIX_MONTHS_MS;
    const when = recent
      ? `${MONTH_ABBR[c.month - 1]} ${String(c.day).padStart(2)} ${String(c.hour).padStart(2, '0')}:${String(c.minute).padStart(2, '0')}`
      : `${MONTH_ABBR[c.month - 1]} ${String(c.day).padStart(2)}  ${c.year}`;
    const name = nameOf(s) + (s.type === 'symlink' ? ` -> ${s.target}` : '');
    return `${modeString(s.type, s.mode)} ${String(s.nlink).padStart(linkW)} root root ${String(s.size).padStart(sizeW)} ${when} ${name}\n`;
  });
  return (withTotal ? `total ${blocks}\n` : '') + lines.join('');
}

// =========================================================================================
// A kind node's filesystem
// =========================================================================================

/** Options of `kindNodeFilesystem`. */
export interface KindNodeOptions {
  /** Node (and container, and hostname) name, e.g. `k8s-lab-worker`. */
  nodeName: string;
  role: 'control-plane' | 'worker';
  /** kind cluster name; default: the node name without `-control-plane`/`-worker[N]`. */
  clusterName?: string;
  /** The node's address on the `kind` docker network; default 172.18.0.2 (control plane) / 172.18.0.3. */
  nodeIP?: string;
  /** Control plane node address (for the kube-controller-manager/scheduler kubeconfigs); default 172.18.0.2. */
  controlPlaneIP?: string;
  /** kindest/node version; default v1.35.0. */
  kubernetesVersion?: string;
  /** Sandbox image kubeadm passes to the kubelet; default registry.k8s.io/pause:3.10.1 (kubeadm 1.35). */
  pauseImage?: string;
  /** `--node-labels=` value kind passes through kubeadm (labels from the kind config); default empty. */
  nodeLabels?: string;
  /**
   * Which kubelet.service to install. `kind` (default): kind's node-image unit
   * (images/base/files/etc/systemd/system/kubelet.service: ConditionPathExists, Slice=kubelet.slice,
   * KillMode=process) with its two drop-ins 10-kubeadm.conf and 11-kind.conf. `upstream`: the
   * kubernetes/release deb unit verbatim (corpus/systemd/kubernetes-release__kubelet.service, the
   * file the seed shows) with kind's 10-kubeadm.conf.
   */
  kubeletUnit?: 'kind' | 'upstream';
  /**
   * `RestartSec=` of the kind unit. kind ships `1s`; the playground's default is upstream's
   * `10` (kubernetes/release kubelet.service, DESIGN.md layer 2, seed 000: "systemd restarts it
   * within 10 seconds"), and the file then says so in a comment. Ignored for `upstream`.
   */
  kubeletRestartSec?: number;
  /** Virtual-ms time source for mtimes of later changes (the machine's clock). Default: always 0. */
  now?: () => number;
  /** Unix ms of virtual time 0 (the clock's epoch), to date the image's files. Default DEFAULT_EPOCH_MS. */
  epochMs?: number;
}

/** Unix ms the kindest/node image's files carry (a build date shortly before the default epoch). */
export const KIND_IMAGE_BUILD_UNIX_MS = 1766052287000; // 2025-12-18T10:04:47Z
/** Virtual ms (before boot) at which kubeadm wrote the node's configuration. */
export const KUBEADM_WRITE_VIRTUAL_MS = -60_000;
const DEFAULT_EPOCH = 1767592800000; // clock.ts DEFAULT_EPOCH_MS (2026-01-05T06:00:00Z)

/** kind's kubelet.service (kubernetes-sigs/kind images/base/files/etc/systemd/system/kubelet.service). */
export function kindKubeletUnit(restartSec = 1): string {
  const restart =
    restartSec === 1
      ? '# NOTE: kind deviates from upstream here with a lower RestartSec\nRestartSec=1s\n'
      : `# NOTE: kind ships RestartSec=1s here; Cluster Playground keeps upstream's\n# RestartSec=${restartSec} (kubernetes/release kubelet.service) so a restart can be watched.\nRestartSec=${restartSec}\n`;
  return (
    '# slightly modified from:\n' +
    '# https://github.com/kubernetes/kubernetes/blob/ba8fcafaf8c502a454acd86b728c857932555315/build/debs/kubelet.service\n' +
    '[Unit]\n' +
    'Description=kubelet: The Kubernetes Node Agent\n' +
    'Documentation=http://kubernetes.io/docs/\n' +
    '# NOTE: kind deviates from upstream here to avoid crashlooping\n' +
    '# This does *not* support altering the kubelet config path though.\n' +
    '# We intend to upstream this change but first need to solve the upstream\n' +
    '# Packaging problem (all kubernetes versions use the same files out of tree).\n' +
    'ConditionPathExists=/var/lib/kubelet/config.yaml\n' +
    '\n' +
    '[Service]\n' +
    'ExecStart=/usr/bin/kubelet\n' +
    'Restart=always\n' +
    'StartLimitInterval=0\n' +
    restart +
    '# And by adding the [Service] lines below\n' +
    'CPUAccounting=true\n' +
    'MemoryAccounting=true\n' +
    'Slice=kubelet.slice\n' +
    'KillMode=process\n' +
    '\n' +
    '[Install]\n' +
    'WantedBy=multi-user.target\n'
  );
}

/** The deb package's kubelet.service (kubernetes/release cmd/krel/templates/latest/kubelet/kubelet.service; the corpus copy). */
export const UPSTREAM_KUBELET_UNIT =
  '[Unit]\n' +
  'Description=kubelet: The Kubernetes Node Agent\n' +
  'Documentation=https://kubernetes.io/docs/\n' +
  'Wants=network-online.target\n' +
  'After=network-online.target\n' +
  '\n' +
  '[Service]\n' +
  'ExecStart=/usr/bin/kubelet\n' +
  'Restart=always\n' +
  'StartLimitInterval=0\n' +
  'RestartSec=10\n' +
  '\n' +
  '[Install]\n' +
  'WantedBy=multi-user.target\n';

/** kind's 10-kubeadm.conf drop-in (kubernetes-sigs/kind images/base/files/etc/systemd/system/kubelet.service.d/10-kubeadm.conf). */
export const KIND_KUBEADM_DROPIN =
  '# https://github.com/kubernetes/kubernetes/blob/ba8fcafaf8c502a454acd86b728c857932555315/build/debs/10-kubeadm.conf\n' +
  '# Note: This dropin only works with kubeadm and kubelet v1.11+\n' +
  '[Service]\n' +
  'Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"\n' +
  'Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\n' +
  '# This is a file that "kubeadm init" and "kubeadm join" generates at runtime, populating the KUBELET_KUBEADM_ARGS variable dynamically\n' +
  'EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n' +
  '# This is a file that the user can use for overrides of the kubelet args as a last resort. Preferably, the user should use\n' +
  '# the .NodeRegistration.KubeletExtraArgs object in the configuration files instead. KUBELET_EXTRA_ARGS should be sourced from this file.\n' +
  'EnvironmentFile=-/etc/default/kubelet\n' +
  'ExecStart=\n' +
  'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS\n';

/** kind's 11-kind.conf drop-in (kubernetes-sigs/kind images/base/files/etc/systemd/system/kubelet.service.d/11-kind.conf). */
export const KIND_KIND_DROPIN =
  '# kind specific additions go in this file\n' +
  '[Service]\n' +
  '# On cgroup v1, the /kubelet cgroup is created in the entrypoint script before running systemd.\n' +
  '# On cgroup v2, the /kubelet cgroup is created here. (See the comments in the entrypoint script for the reason.)\n' +
  'ExecStartPre=/bin/sh -euc "if [ -f /sys/fs/cgroup/cgroup.controllers ]; then /kind/bin/create-kubelet-cgroup-v2.sh; fi"\n' +
  '# on WSL2 (and potentially other distros without systemd) /sys/fs/cgroup/systemd is created after the entrypoint, during /sbin/init.\n' +
  '# This eventually leads to kubelet failing to start, see: https://github.com/kubernetes-sigs/kind/issues/2323\n' +
  'ExecStartPre=/bin/sh -euc "if [ ! -f /sys/fs/cgroup/cgroup.controllers ] && [ ! -d /sys/fs/cgroup/systemd/kubelet ]; then mkdir -p /sys/fs/cgroup/systemd/kubelet; fi"\n';

/** kind's containerd.service (kubernetes-sigs/kind images/base/files/etc/systemd/system/containerd.service). */
export const KIND_CONTAINERD_UNIT =
  '# derived containerd systemd service file from the official:\n' +
  '# https://github.com/containerd/containerd/blob/master/containerd.service\n' +
  '[Unit]\n' +
  'Description=containerd container runtime\n' +
  'Documentation=https://containerd.io\n' +
  'After=network.target local-fs.target\n' +
  '# disable rate limiting\n' +
  'StartLimitIntervalSec=0\n' +
  '\n' +
  '[Service]\n' +
  'ExecStartPre=-/sbin/modprobe overlay\n' +
  'ExecStart=/usr/local/bin/containerd\n' +
  '\n' +
  'Type=notify\n' +
  'Delegate=yes\n' +
  'KillMode=process\n' +
  'Restart=always\n' +
  'RestartSec=1\n' +
  '# Having non-zero Limit*s causes performance problems due to accounting overhead\n' +
  '# in the kernel. We recommend using cgroups to do container-local accounting.\n' +
  'LimitNPROC=infinity\n' +
  'LimitCORE=infinity\n' +
  'LimitNOFILE=infinity\n' +
  'TasksMax=infinity\n' +
  'OOMScoreAdjust=-999\n' +
  '\n' +
  '[Install]\n' +
  'WantedBy=multi-user.target\n';

/** kind's kubelet.slice (kubernetes-sigs/kind images/base/files/etc/systemd/system/kubelet.slice). */
export const KIND_KUBELET_SLICE = '[Unit]\nDescription=slice used to run Kubernetes / Kubelet\nBefore=slices.target\n\n[Slice]\nMemoryAccounting=true\nCPUAccounting=true\n';

/** Debian 12's systemd-journald.service, abridged to the settings the simulation reads (systemd 252). */
export const JOURNALD_UNIT =
  '#  SPDX-License-Identifier: LGPL-2.1-or-later\n' +
  '[Unit]\n' +
  'Description=Journal Service\n' +
  'Documentation=man:systemd-journald.service(8) man:journald.conf(5)\n' +
  'DefaultDependencies=no\n' +
  'Before=sysinit.target\n' +
  '\n' +
  '[Service]\n' +
  'ExecStart=/lib/systemd/systemd-journald\n' +
  'Restart=always\n' +
  'RestartSec=0\n' +
  'Type=notify\n' +
  'TimeoutStopSec=60\n' +
  '# (sandboxing and file descriptor store settings omitted)\n';

/** Debian 12 bookworm's os-release (kindest/node's base image is debian:bookworm-slim). */
export const DEBIAN_OS_RELEASE =
  'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n' +
  'NAME="Debian GNU/Linux"\n' +
  'VERSION_ID="12"\n' +
  'VERSION="12 (bookworm)"\n' +
  'VERSION_CODENAME=bookworm\n' +
  'ID=debian\n' +
  'HOME_URL="https://www.debian.org/"\n' +
  'SUPPORT_URL="https://www.debian.org/support"\n' +
  'BUG_REPORT_URL="https://bugs.debian.org/"\n';

/** A short containerd 2.x config in the shape of kind's /etc/containerd/config.toml (CRI plugin, runc, systemd cgroups). */
export function kindContainerdConfig(pauseImage: string): string {
  return (
    '# explicitly use v3 config format\n' +
    'version = 3\n' +
    '\n' +
    '[plugins."io.containerd.cri.v1.images"]\n' +
    '  # save disk space when using a single snapshotter\n' +
    '  discard_unpacked_layers = true\n' +
    '  # explicitly use default snapshotter so we can sed it in entrypoint\n' +
    '  snapshotter = "overlayfs"\n' +
    '\n' +
    '[plugins."io.containerd.cri.v1.images".pinned_images]\n' +
    '  # use fixed sandbox image\n' +
    `  sandbox = "${pauseImage}"\n` +
    '\n' +
    '[plugins."io.containerd.cri.v1.runtime".containerd]\n' +
    '  # explicit default here, as we\'re configuring it below\n' +
    '  default_runtime_name = "runc"\n' +
    '[plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc]\n' +
    '  # set default runtime handler to v2, which has a per-pod shim\n' +
    '  runtime_type = "io.containerd.runc.v2"\n' +
    '  [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options]\n' +
    '    SystemdCgroup = true\n'
  );
}

/**
 * The KubeletConfiguration kubeadm writes to /var/lib/kubelet/config.yaml on a kind node:
 * kubeadm's defaults (zero durations printed as `0s`, sorted keys, as sigs.k8s.io/yaml marshals
 * them) plus kind's patch (kind pkg/cluster/internal/kubeadm/config.go: cgroupDriver systemd,
 * cgroupRoot /kubelet, failSwapOn false, imageGCHighThresholdPercent 100, evictionHard 0%).
 */
export function kindKubeletConfig(): string {
  return `apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
  webhook:
    cacheAuthorizedTTL: 0s
    cacheUnauthorizedTTL: 0s
cgroupDriver: systemd
cgroupRoot: /kubelet
clusterDNS:
- 10.96.0.10
clusterDomain: cluster.local
containerRuntimeEndpoint: ""
cpuManagerReconcilePeriod: 0s
crashLoopBackOff: {}
evictionHard:
  imagefs.available: 0%
  nodefs.available: 0%
  nodefs.inodesFree: 0%
evictionPressureTransitionPeriod: 0s
failSwapOn: false
fileCheckFrequency: 0s
healthzBindAddress: 127.0.0.1
healthzPort: 10248
httpCheckFrequency: 0s
imageGCHighThresholdPercent: 100
imageMaximumGCAge: 0s
imageMinimumGCAge: 0s
kind: KubeletConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
    text:
      infoBufferSize: "0"
  verbosity: 0
memorySwap: {}
nodeStatusReportFrequency: 0s
nodeStatusUpdateFrequency: 0s
rotateCertificates: true
runtimeRequestTimeout: 0s
shutdownGracePeriod: 0s
shutdownGracePeriodCriticalPods: 0s
staticPodPath: /etc/kubernetes/manifests
streamingConnectionIdleTimeout: 0s
syncFrequency: 0s
volumeStatsAggPeriod: 0s
`;
}

/**
 * /var/lib/kubelet/kubeadm-flags.env as kubeadm init/join writes it for kind: the flags sorted by
 * name, kind's kubeletExtraArgs (node-ip, node-labels, provider-id) merged in.
 */
export function kindKubeadmFlags(o: { nodeIP: string; nodeLabels: string; pauseImage: string; clusterName: string; nodeName: string }): string {
  return (
    `KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --node-ip=${o.nodeIP} ` +
    `--node-labels=${o.nodeLabels} --pod-infra-container-image=${o.pauseImage} --provider-id=kind://docker/${o.clusterName}/${o.nodeName}"\n`
  );
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of a string's UTF-8 bytes (RFC 4648, padded). */
export function base64(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
  }
  return out;
}

/** A deterministic stand-in PEM block (not a real certificate or key), seeded by its name. */
export function fakePem(kind: 'CERTIFICATE' | 'RSA PRIVATE KEY' | 'PUBLIC KEY', seed: string): string {
  // Memoised (performance only: a pure function; every node of a cluster holds the same CA).
  const key = `${kind}\n${seed}`;
  let pem = pemMemo.get(key);
  if (pem === undefined) {
    if (pemMemo.size >= PEM_MEMO_MAX) pemMemo.clear();
    pem = computeFakePem(kind, seed);
    pemMemo.set(key, pem);
  }
  return pem;
}

/** `fakePem` results by kind and seed (see `fakePem`). */
const pemMemo = new Map<string, string>();
/** Most entries kept in `pemMemo` (cleared when full). */
const PEM_MEMO_MAX = 256;

/** `fakePem` without the memo. */
function computeFakePem(kind: 'CERTIFICATE' | 'RSA PRIVATE KEY' | 'PUBLIC KEY', seed: string): string {
  // FNV-1a seed, then a xorshift stream of base64 characters.
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  const next = (): number => {
    h ^= h << 13;
    h >>>= 0;
    h ^= h >>> 17;
    h ^= h << 5;
    h >>>= 0;
    return h;
  };
  const prefix = kind === 'CERTIFICATE' ? 'MIIDBTCCAe2gAwIBAgII' : kind === 'RSA PRIVATE KEY' ? 'MIIEpAIBAAKCAQEA' : 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA';
  const len = kind === 'CERTIFICATE' ? 1044 : kind === 'RSA PRIVATE KEY' ? 1588 : 392;
  let body = prefix;
  while (body.length < len) body += B64[next() & 63];
  body = body.slice(0, len - 2) + (kind === 'CERTIFICATE' ? '==' : 'AB');
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${kind}-----\n${lines.join('\n')}\n-----END ${kind}-----\n`;
}

/** A kubeconfig as kubeadm writes it (embedded CA, a client certificate inline or by path). */
/** The last CA and its base64 (performance only: every node's kubeconfigs embed the same CA). */
let lastCa: { ca: string; b64: string } | undefined;

/** `base64(ca)`, remembered for the last CA seen. */
function caBase64(ca: string): string {
  if (lastCa?.ca !== ca) lastCa = { ca, b64: base64(ca) };
  return lastCa.b64;
}

function kubeconfig(o: { cluster: string; server: string; user: string; ca: string; clientCertPath?: string; certSeed?: string }): string {
  const ctx = `${o.user}@${o.cluster}`;
  const userBlock = o.clientCertPath
    ? `    client-certificate: ${o.clientCertPath}\n    client-key: ${o.clientCertPath}\n`
    : `    client-certificate-data: ${base64(fakePem('CERTIFICATE', `${o.certSeed}-crt`))}\n    client-key-data: ${base64(fakePem('RSA PRIVATE KEY', `${o.certSeed}-key`))}\n`;
  return (
    'apiVersion: v1\n' +
    'clusters:\n' +
    '- cluster:\n' +
    `    certificate-authority-data: ${caBase64(o.ca)}\n` +
    `    server: ${o.server}\n` +
    `  name: ${o.cluster}\n` +
    'contexts:\n' +
    '- context:\n' +
    `    cluster: ${o.cluster}\n` +
    `    user: ${o.user}\n` +
    `  name: ${ctx}\n` +
    `current-context: ${ctx}\n` +
    'kind: Config\n' +
    'users:\n' +
    `- name: ${o.user}\n` +
    '  user:\n' +
    userBlock
  );
}

/**
 * What a kind node's disk holds once `kind create cluster` has run kubeadm on it (see
 * kubernetes-sigs/kind images/base/files and kubeadm's phases):
 *
 * - merged /usr (Debian 12): `/bin`, `/sbin`, `/lib` are links into /usr; `/sbin/init` is systemd.
 * - /etc/systemd/system: kubelet.service (+ kubelet.service.d/10-kubeadm.conf, 11-kind.conf),
 *   containerd.service, kubelet.slice, both services enabled (multi-user.target.wants links);
 *   /lib/systemd/system/systemd-journald.service.
 * - /etc/kubernetes: kubelet.conf everywhere; on the control plane also admin.conf,
 *   super-admin.conf (kubeadm >= 1.29), controller-manager.conf, scheduler.conf and the full
 *   pki/ (cluster CA, apiserver, front-proxy, sa, etcd/); a worker has only pki/ca.crt
 *   (bootstrap-kubelet.conf is deleted by `kubeadm join` after the TLS bootstrap).
 *   manifests/ is empty: the cluster wiring writes the static pod manifests.
 * - /var/lib/kubelet: config.yaml, kubeadm-flags.env, pki/ (kubelet-client-current.pem link).
 * - /etc/containerd/config.toml, /etc/crictl.yaml, /etc/default/kubelet
 *   (`KUBELET_EXTRA_ARGS=--runtime-cgroups=/system.slice/containerd.service`), /etc/hostname,
 *   /etc/hosts, /etc/os-release (-> ../usr/lib/os-release), /kind/version.
 * - /root, /tmp (1777), /run (tmpfs), /var/log/pods, /var/log/containers, /var/lib/containerd,
 *   /var/lib/etcd (control plane).
 *
 * Binaries exist as placeholders with realistic sizes (systemd checks that an ExecStart= binary
 * exists). Certificates and keys are stand-in PEM blocks, deterministic per node.
 */
export function kindNodeFilesystem(opts: KindNodeOptions): FileSystem {
  const epoch = opts.epochMs ?? DEFAULT_EPOCH;
  const now = opts.now ?? (() => 0);
  let stamp: number | undefined = KIND_IMAGE_BUILD_UNIX_MS - epoch;
  const fs = new FileSystem(() => stamp ?? now());
  const cp = opts.role === 'control-plane';
  const cluster = opts.clusterName ?? opts.nodeName.replace(/-(control-plane|worker)\d*$/, '');
  const nodeIP = opts.nodeIP ?? (cp ? '172.18.0.2' : '172.18.0.3');
  const cpIP = opts.controlPlaneIP ?? '172.18.0.2';
  const version = opts.kubernetesVersion ?? 'v1.35.0';
  const pause = opts.pauseImage ?? 'registry.k8s.io/pause:3.10.1';
  const endpoint = `https://${cluster}-control-plane:6443`;

  // --- the image (kindest/node) ---
  for (const d of ['/usr/bin', '/usr/sbin', '/usr/lib/systemd/system', '/usr/local/bin', '/etc', '/var/lib', '/var/log', '/kind/bin', '/opt', '/home', '/srv', '/mnt', '/media'])
    fs.mkdir(d, { parents: true });
  fs.symlink('usr/bin', '/bin');
  fs.symlink('usr/sbin', '/sbin');
  fs.symlink('usr/lib', '/lib');
  fs.mkdir('/root', { mode: 0o700 });
  fs.mkdir('/tmp', { mode: 0o1777 });
  fs.mkdir('/run');
  fs.mkdir('/proc', { mode: 0o555 });
  fs.mkdir('/sys', { mode: 0o555 });
  fs.mkdir('/dev');
  fs.installBinary('/usr/lib/systemd/systemd', 96224);
  fs.installBinary('/usr/lib/systemd/systemd-journald', 166424);
  fs.symlink('/lib/systemd/systemd', '/usr/sbin/init');
  fs.installBinary('/usr/bin/dash', 125560);
  fs.symlink('dash', '/usr/bin/sh');
  fs.installBinary('/usr/bin/bash', 1265648);
  fs.installBinary('/usr/sbin/modprobe', 178512);
  fs.installBinary('/usr/bin/ps', 154304);
  fs.installBinary('/usr/bin/kubelet', 78549176);
  fs.installBinary('/usr/bin/kubeadm', 72556728);
  fs.installBinary('/usr/bin/kubectl', 57323672);
  fs.installBinary('/usr/local/bin/containerd', 51326113);
  fs.installBinary('/usr/local/bin/containerd-shim-runc-v2', 9048216);
  fs.installBinary('/usr/local/bin/ctr', 24965296);
  fs.installBinary('/usr/local/bin/crictl', 42590352);
  fs.installBinary('/usr/local/sbin/runc', 11476320);
  fs.installBinary('/kind/bin/create-kubelet-cgroup-v2.sh', 1291);
  fs.writeFile('/usr/lib/os-release', DEBIAN_OS_RELEASE);
  fs.symlink('../usr/lib/os-release', '/etc/os-release');
  fs.writeFile('/usr/lib/systemd/system/systemd-journald.service', JOURNALD_UNIT);
  fs.mkdir('/etc/systemd/system/multi-user.target.wants', { parents: true });
  const unitVariant = opts.kubeletUnit ?? 'kind';
  fs.writeFile('/etc/systemd/system/kubelet.service', unitVariant === 'kind' ? kindKubeletUnit(opts.kubeletRestartSec ?? 10) : UPSTREAM_KUBELET_UNIT);
  fs.mkdir('/etc/systemd/system/kubelet.service.d');
  fs.writeFile('/etc/systemd/system/kubelet.service.d/10-kubeadm.conf', KIND_KUBEADM_DROPIN);
  if (unitVariant === 'kind') {
    fs.writeFile('/etc/systemd/system/kubelet.service.d/11-kind.conf', KIND_KIND_DROPIN);
    fs.writeFile('/etc/systemd/system/kubelet.slice', KIND_KUBELET_SLICE);
  }
  fs.writeFile('/etc/systemd/system/containerd.service', KIND_CONTAINERD_UNIT);
  fs.symlink('/etc/systemd/system/kubelet.service', '/etc/systemd/system/multi-user.target.wants/kubelet.service');
  fs.symlink('/etc/systemd/system/containerd.service', '/etc/systemd/system/multi-user.target.wants/containerd.service');
  fs.mkdir('/etc/containerd');
  fs.writeFile('/etc/containerd/config.toml', kindContainerdConfig(pause));
  fs.writeFile('/etc/crictl.yaml', 'runtime-endpoint: unix:///run/containerd/containerd.sock\n');
  fs.mkdir('/etc/default');
  fs.writeFile('/etc/default/kubelet', 'KUBELET_EXTRA_ARGS=--runtime-cgroups=/system.slice/containerd.service\n');
  fs.writeFile('/kind/version', `${version}\n`);
  fs.mkdir('/var/lib/containerd', { mode: 0o711 });
  fs.mkdir('/var/lib/kubelet', { mode: 0o700 });
  fs.mkdir('/var/log/pods', { mode: 0o755 });
  fs.mkdir('/var/log/containers');
  fs.mkdir('/etc/kubernetes/manifests', { parents: true });

  // --- what docker and kind's entrypoint set at container start ---
  fs.writeFile('/etc/hostname', `${opts.nodeName}\n`);
  fs.writeFile(
    '/etc/hosts',
    '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nff00::0\tip6-mcastprefix\nff02::1\tip6-allnodes\nff02::2\tip6-allrouters\n' +
      `${nodeIP}\t${opts.nodeName}\n`,
  );

  // --- what kubeadm init/join wrote ---
  stamp = KUBEADM_WRITE_VIRTUAL_MS;
  const ca = fakePem('CERTIFICATE', `${cluster}-ca`);
  fs.mkdir('/etc/kubernetes/pki');
  fs.writeFile('/etc/kubernetes/pki/ca.crt', ca);
  if (cp) {
    fs.writeFile('/etc/kubernetes/pki/ca.key', fakePem('RSA PRIVATE KEY', `${cluster}-ca-key`), { mode: 0o600 });
    const pair = (name: string): void => {
      fs.writeFile(`/etc/kubernetes/pki/${name}.crt`, fakePem('CERTIFICATE', `${cluster}-${name}`));
      fs.writeFile(`/etc/kubernetes/pki/${name}.key`, fakePem('RSA PRIVATE KEY', `${cluster}-${name}-key`), { mode: 0o600 });
    };
    for (const n of ['apiserver', 'apiserver-etcd-client', 'apiserver-kubelet-client', 'front-proxy-ca', 'front-proxy-client']) pair(n);
    fs.writeFile('/etc/kubernetes/pki/sa.key', fakePem('RSA PRIVATE KEY', `${cluster}-sa`), { mode: 0o600 });
    fs.writeFile('/etc/kubernetes/pki/sa.pub', fakePem('PUBLIC KEY', `${cluster}-sa-pub`));
    fs.mkdir('/etc/kubernetes/pki/etcd');
    for (const n of ['ca', 'healthcheck-client', 'peer', 'server']) {
      fs.writeFile(`/etc/kubernetes/pki/etcd/${n}.crt`, fakePem('CERTIFICATE', `${cluster}-etcd-${n}`));
      fs.writeFile(`/etc/kubernetes/pki/etcd/${n}.key`, fakePem('RSA PRIVATE KEY', `${cluster}-etcd-${n}-key`), { mode: 0o600 });
    }
    const conf = (file: string, user: string, server: string): void =>
      fs.writeFile(`/etc/kubernetes/${file}`, kubeconfig({ cluster, server, user, ca, certSeed: `${cluster}-${file}` }), { mode: 0o600 });
    conf('admin.conf', 'kubernetes-admin', endpoint);
    conf('super-admin.conf', 'kubernetes-super-admin', endpoint);
    conf('controller-manager.conf', 'system:kube-controller-manager', `https://${cpIP}:6443`);
    conf('scheduler.conf', 'system:kube-scheduler', `https://${cpIP}:6443`);
    fs.mkdir('/var/lib/etcd', { mode: 0o700 });
  }
  fs.writeFile(
    '/etc/kubernetes/kubelet.conf',
    kubeconfig({ cluster, server: endpoint, user: `system:node:${opts.nodeName}`, ca, clientCertPath: '/var/lib/kubelet/pki/kubelet-client-current.pem' }),
    { mode: 0o600 },
  );
  fs.writeFile('/var/lib/kubelet/config.yaml', kindKubeletConfig());
  fs.writeFile('/var/lib/kubelet/kubeadm-flags.env', kindKubeadmFlags({ nodeIP, nodeLabels: opts.nodeLabels ?? '', pauseImage: pause, clusterName: cluster, nodeName: opts.nodeName }));
  for (const d of ['pki', 'pods', 'plugins', 'plugins_registry', 'pod-resources', 'device-plugins', 'checkpoints']) fs.mkdir(`/var/lib/kubelet/${d}`, { mode: d === 'pod-resources' ? 0o750 : 0o755 });
  const c = civilTime(epoch + KUBEADM_WRITE_VIRTUAL_MS);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const clientPem = `kubelet-client-${c.year}-${p2(c.month)}-${p2(c.day)}-${p2(c.hour)}-${p2(c.minute)}-${p2(c.second)}.pem`;
  fs.writeFile(`/var/lib/kubelet/pki/${clientPem}`, fakePem('CERTIFICATE', `${opts.nodeName}-client`) + fakePem('RSA PRIVATE KEY', `${opts.nodeName}-client-key`), { mode: 0o600 });
  fs.symlink(`/var/lib/kubelet/pki/${clientPem}`, '/var/lib/kubelet/pki/kubelet-client-current.pem');
  fs.writeFile('/var/lib/kubelet/pki/kubelet.crt', fakePem('CERTIFICATE', `${opts.nodeName}-serving`));
  fs.writeFile('/var/lib/kubelet/pki/kubelet.key', fakePem('RSA PRIVATE KEY', `${opts.nodeName}-serving-key`), { mode: 0o600 });

  stamp = undefined;
  return fs;
}
