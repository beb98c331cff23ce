/**
 * The shell's working directory on the laptop: an in-memory tree of files (by default the
 * bookshop repository: `cluster/`, `manifests/`). Paths are relative to the repository root
 * (`manifests/bookshop/catalog.yaml`); `.`, `./x` and `a/../b` are normalised. Absolute paths
 * name the rest of the laptop's filesystem: a root with the usual top-level directories, `/tmp`
 * (writable, empty at start) and the home directory holding the repository (an absolute path
 * inside `/home/learner/k8s-bookshop` is the same file as its relative path).
 * Directories exist when a file lives below them or `mkdirs` made them.
 */
import type { ShellFiles } from './types';

/** An error from `MemoryFiles.write` with an errno-style `code` (the shell words the message). */
export class FilesError extends Error {
  constructor(
    readonly code: 'ENOENT' | 'EISDIR' | 'ENOTDIR',
    readonly path: string,
  ) {
    super(`${path}: ${code === 'ENOENT' ? 'No such file or directory' : code === 'EISDIR' ? 'Is a directory' : 'Not a directory'}`);
  }
}

/** Normalise a working-directory path: `./a//b/../c` -> `a/c`; the root is `''`. */
export function normalizeRel(p: string): string {
  const out: string[] = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out.join('/');
}

/** The repository checkout as an absolute path (the shell's `HOST_WORKDIR`). */
export const FILES_WORKDIR = '/home/learner/k8s-bookshop';
/** Directories of the laptop outside the repository that exist from the start (a Debian-like root). */
const LAPTOP_DIRS = ['/bin', '/boot', '/dev', '/etc', '/home/learner', '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr/bin', '/usr/lib', '/usr/local/bin', '/usr/sbin', '/var/log', '/var/tmp'];

/**
 * The key of a path: relative keys for the repository (`manifests/x.yaml`, `''` for its root),
 * absolute keys (`/tmp/x.yaml`, `/` for the root) for everything else.
 */
function keyOf(path: string): string {
  if (!path.startsWith('/')) return normalizeRel(path);
  const abs = `/${normalizeRel(path)}`;
  if (abs === FILES_WORKDIR) return '';
  if (abs.startsWith(`${FILES_WORKDIR}/`)) return abs.slice(FILES_WORKDIR.length + 1);
  return abs;
}

/** In-memory `ShellFiles`. */
export class MemoryFiles implements ShellFiles {
  private files = new Map<string, string>();
  private dirs = new Set<string>(['', '/']);

  /** @param initial file contents by relative path */
  constructor(initial: Record<string, string> = {}) {
    for (const d of LAPTOP_DIRS) this.mkdirs(d);
    for (const [p, c] of Object.entries(initial)) {
      const n = keyOf(p);
      this.mkdirs(parent(n));
      this.files.set(n, c);
    }
  }

  read(path: string): string | undefined {
    return this.files.get(keyOf(path));
  }

  /**
   * Create, replace or append to a file. The parent directory must exist (`FilesError` ENOENT,
   * as bash reports `x/y: No such file or directory`); a directory cannot be written (EISDIR).
   */
  write(path: string, content: string, append = false): void {
    const n = keyOf(path);
    if (this.dirs.has(n)) throw new FilesError('EISDIR', path);
    const dir = parent(n);
    if (!this.dirs.has(dir)) throw new FilesError(this.files.has(dir) ? 'ENOTDIR' : 'ENOENT', path);
    this.files.set(n, append ? (this.files.get(n) ?? '') + content : content);
  }

  /** Entry names of a directory (sorted), or undefined when it is not one. */
  list(dir: string): string[] | undefined {
    const n = keyOf(dir);
    if (!this.dirs.has(n)) return undefined;
    const prefix = n === '' ? '' : n === '/' ? '/' : `${n}/`;
    const names = new Set<string>();
    for (const k of [...this.files.keys(), ...this.dirs]) {
      if (n === '' && k.startsWith('/')) continue;
      if (k !== n && k.startsWith(prefix) && k.length > prefix.length) names.add(k.slice(prefix.length).split('/')[0]);
    }
    // The repository's own directory lives in its parent.
    const wd = FILES_WORKDIR.lastIndexOf('/');
    if (n === FILES_WORKDIR.slice(0, wd)) names.add(FILES_WORKDIR.slice(wd + 1));
    return [...names].sort();
  }

  isDir(path: string): boolean {
    return this.dirs.has(keyOf(path));
  }

  /** `mkdir -p`. */
  mkdirs(path: string): void {
    const n = keyOf(path);
    for (let d = n; d !== '' && d !== '/'; d = parent(d)) this.dirs.add(d);
  }

  /** Remove a file or a directory tree. Returns false when nothing was there. */
  remove(path: string): boolean {
    const n = keyOf(path);
    if (this.files.delete(n)) return true;
    if (n === '' || n === '/' || !this.dirs.has(n)) return false;
    for (const k of [...this.files.keys()]) if (k.startsWith(`${n}/`)) this.files.delete(k);
    for (const d of [...this.dirs]) if (d === n || d.startsWith(`${n}/`)) this.dirs.delete(d);
    return true;
  }

  /** Every file path, sorted (for snapshots and tests). */
  paths(): string[] {
    return [...this.files.keys()].sort();
  }
}

function parent(p: string): string {
  const i = p.lastIndexOf('/');
  if (i === 0) return '/';
  return i === -1 ? '' : p.slice(0, i);
}
