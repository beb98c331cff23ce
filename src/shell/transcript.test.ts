import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../engine/clock';
import { ApiServer } from '../engine/api/server';
import { MemoryFiles } from './files';
import { Shell } from './shell';
import { runTranscript, splitInputs } from './transcript';

function shell(): Shell {
  const clock = new Clock();
  const rng = new Rng(1);
  return new Shell({ ctx: { clock, rng, api: new ApiServer(clock, rng), files: new MemoryFiles(), env: {} }, commands: {} });
}

describe('splitInputs', () => {
  it('groups here-documents, continuations and open quotes with their command line', () => {
    const inputs = splitInputs("echo a\n\ncat <<EOF\nx\nEOF\nkubectl get pod x \\\n  -o name\necho 'two\nlines'\n");
    expect(inputs.map((i) => i.lines)).toEqual([['echo a'], ['cat <<EOF', 'x', 'EOF'], ['kubectl get pod x \\', '  -o name'], ["echo 'two", "lines'"]]);
    expect(inputs.map((i) => i.lineNo)).toEqual([1, 3, 6, 8]);
  });
});

describe('runTranscript', () => {
  it('prints each line behind its prompt, continuation lines behind > , then the output', () => {
    const t = runTranscript(shell(), 'echo hello\ncat <<EOF\nbody $((\nEOF\ncat <<\'EOF\'\nbody\nEOF\nprintf no-newline\nfoo\n');
    expect(t).toBe(
      [
        '$ echo hello',
        'hello',
        '$ cat <<EOF',
        '> body $((',
        '> EOF',
        'bash: arithmetic expansion `$((...))` is not supported in the playground shell',
        "$ cat <<'EOF'",
        '> body',
        '> EOF',
        'body',
        '$ printf no-newline',
        'no-newline',
        '$ foo',
        'bash: foo: command not found',
        '',
      ].join('\n'),
    );
  });

  it('shows ^C for a line interrupted by the line timeout, and stops after exit', () => {
    const t = runTranscript(shell(), 'sleep 100\necho $?\nexit 3\necho never\n', { lineTimeoutMs: 5000 });
    expect(t).toBe('$ sleep 100\n^C\n$ echo $?\n130\n$ exit 3\nexit\n');
  });
});
