/**
 * The laptop's files: the repository (relative paths), and a root with /tmp and the home
 * directory for absolute paths (`printf ... > /tmp/x.yaml; kubectl apply -f /tmp/x.yaml`).
 */
import { describe, expect, it } from 'vitest';
import { FilesError, MemoryFiles } from './files';

describe('MemoryFiles: the laptop root', () => {
  it('ls / lists the usual top-level directories; /tmp exists and is empty', () => {
    const f = new MemoryFiles({ 'cluster/kind.yaml': 'name: k8s-lab\n' });
    expect(f.list('/')).toEqual(['bin', 'boot', 'dev', 'etc', 'home', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'tmp', 'usr', 'var']);
    expect(f.list('/tmp')).toEqual([]);
    expect(f.isDir('/tmp')).toBe(true);
    expect(f.list('')).toEqual(['cluster']);
  });

  it('a file written to /tmp reads back and is listed; the repository root does not see it', () => {
    const f = new MemoryFiles({ 'cluster/kind.yaml': 'name: k8s-lab\n' });
    f.write('/tmp/bad.yaml', 'kind: Pod\n');
    f.write('/tmp/bad.yaml', 'x\n', true);
    expect(f.read('/tmp/bad.yaml')).toBe('kind: Pod\nx\n');
    expect(f.list('/tmp')).toEqual(['bad.yaml']);
    expect(f.list('.')).toEqual(['cluster']);
  });

  it('absolute paths inside /home/learner/k8s-bookshop are the repository files', () => {
    const f = new MemoryFiles({ 'cluster/kind.yaml': 'name: k8s-lab\n' });
    expect(f.read('/home/learner/k8s-bookshop/cluster/kind.yaml')).toBe('name: k8s-lab\n');
    expect(f.list('/home/learner')).toEqual(['k8s-bookshop']);
    expect(f.list('/home/learner/k8s-bookshop')).toEqual(['cluster']);
    f.write('/home/learner/k8s-bookshop/new.yaml', 'a');
    expect(f.read('new.yaml')).toBe('a');
  });

  it('a missing parent directory is ENOENT, a directory EISDIR', () => {
    const f = new MemoryFiles();
    expect(() => f.write('/nope/x', 'a')).toThrow(FilesError);
    expect(() => f.write('/nope/x', 'a')).toThrow('/nope/x: No such file or directory');
    expect(() => f.write('/tmp', 'a')).toThrow('/tmp: Is a directory');
  });
});
