/**
 * The laptop's `mkdir`, `touch` and `rm` over the working-directory files (coreutils' messages:
 * mkdir.c, touch.c, remove.c), so `mkdir conf; echo x > conf/a; kubectl create configmap c
 * --from-file=conf/` works as on a laptop.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../engine/clock';
import { ApiServer } from '../engine/api/server';
import { MemoryFiles } from './files';
import { Shell, runToCompletion } from './shell';

function setup() {
  const clock = new Clock();
  const api = new ApiServer(clock, new Rng(1));
  const fs = new MemoryFiles({ 'cluster/kind.yaml': 'name: k8s-lab\n' });
  const shell = new Shell({ ctx: { clock, rng: new Rng(1), api, files: fs, env: {} }, commands: {} });
  return { fs, run: (line: string) => runToCompletion(shell, line, {}) };
}

describe('laptop mkdir / touch / rm', () => {
  it('mkdir makes a directory files can be written into; -p makes parents; errors as coreutils words them', () => {
    const { fs, run } = setup();
    expect(run('mkdir conf && echo x > conf/one.txt && ls conf')).toMatchObject({ text: 'one.txt\n', exitCode: 0 });
    expect(run('mkdir conf')).toMatchObject({ text: "mkdir: cannot create directory 'conf': File exists\n", exitCode: 1 });
    expect(run('mkdir a/b')).toMatchObject({ text: "mkdir: cannot create directory 'a/b': No such file or directory\n", exitCode: 1 });
    expect(run('mkdir -p a/b && mkdir -p a/b').exitCode).toBe(0);
    expect(fs.isDir('a/b')).toBe(true);
    expect(run('mkdir /tmp/work && ls /tmp')).toMatchObject({ text: 'work\n', exitCode: 0 });
    expect(run('mkdir')).toMatchObject({ text: "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", exitCode: 1 });
  });

  it('touch creates an empty file and leaves an existing one alone', () => {
    const { fs, run } = setup();
    expect(run('touch empty.yaml').exitCode).toBe(0);
    expect(fs.read('empty.yaml')).toBe('');
    expect(run('touch cluster/kind.yaml').exitCode).toBe(0);
    expect(fs.read('cluster/kind.yaml')).toBe('name: k8s-lab\n');
    expect(run('touch nope/x')).toMatchObject({ text: "touch: cannot touch 'nope/x': No such file or directory\n", exitCode: 1 });
  });

  it('rm removes files, needs -r for a directory, and -f silences a missing operand', () => {
    const { fs, run } = setup();
    expect(run('echo a > x.yaml && rm x.yaml').exitCode).toBe(0);
    expect(fs.read('x.yaml')).toBeUndefined();
    expect(run('rm x.yaml')).toMatchObject({ text: "rm: cannot remove 'x.yaml': No such file or directory\n", exitCode: 1 });
    expect(run('rm -f x.yaml')).toMatchObject({ text: '', exitCode: 0 });
    expect(run('rm cluster')).toMatchObject({ text: "rm: cannot remove 'cluster': Is a directory\n", exitCode: 1 });
    expect(run('rm -r cluster').exitCode).toBe(0);
    expect(fs.read('cluster/kind.yaml')).toBeUndefined();
    expect(run('rm')).toMatchObject({ text: "rm: missing operand\nTry 'rm --help' for more information.\n", exitCode: 1 });
  });
});
