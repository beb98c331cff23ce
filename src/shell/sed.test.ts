import { describe, expect, it } from 'vitest';
import { BufferSink, FILTERS } from './filters';
import { MemoryFiles } from './files';

// GNU sed 4.9 on piped input: the forms people type after kubectl (`sed -n '/State:/,/Ready/p'`,
// `sed -n 2,5p`, `sed 1d`, `sed 3q`, `sed -n '$p'`, `/re/d; s/a/b/`), fed in small chunks as a
// pipe delivers them.
function run(argv: string[], input = '', chunk = 3): { out: string; err: string; status: number } {
  const out = new BufferSink();
  const err = new BufferSink();
  const f = FILTERS[argv[0]].factory(argv, out, err, new MemoryFiles({}));
  for (let i = 0; i < input.length; i += chunk) f.input.write(input.slice(i, i + chunk));
  f.input.end();
  return { out: out.text, err: err.text, status: f.status() };
}

const TEXT = 'a\nState: Running\nb\nReady: True\nc\nState: Waiting\nd\n';

describe('sed addresses and commands', () => {
  it('prints a regex range with -n .../p, every time the range opens', () => {
    expect(run(['sed', '-n', '/State:/,/Ready/p'], TEXT).out).toBe('State: Running\nb\nReady: True\nState: Waiting\nd\n');
  });

  it('line numbers, ranges, $ and negation', () => {
    expect(run(['sed', '-n', '2,4p'], TEXT).out).toBe('State: Running\nb\nReady: True\n');
    expect(run(['sed', '-n', '$p'], TEXT).out).toBe('d\n');
    expect(run(['sed', '-n', '3p'], TEXT).out).toBe('b\n');
    expect(run(['sed', '-n', '/State/!p'], 'x\nState\ny\n').out).toBe('x\ny\n');
    expect(run(['sed', '-n', '5,2p'], TEXT).out).toBe('c\n');
    expect(run(['sed', '-n', '/Ready/,$p'], TEXT).out).toBe('Ready: True\nc\nState: Waiting\nd\n');
  });

  it('d deletes, q quits after printing, p without -n doubles', () => {
    expect(run(['sed', '1d'], 'h\nx\ny\n').out).toBe('x\ny\n');
    expect(run(['sed', '/^#/d'], '#c\nx\n').out).toBe('x\n');
    expect(run(['sed', '2q'], 'a\nb\nc\n').out).toBe('a\nb\n');
    expect(run(['sed', '2p'], 'a\nb\n').out).toBe('a\nb\nb\n');
  });

  it('several commands by ; or -e; s/// keeps its flags and any delimiter; ; inside a regex is not a separator', () => {
    expect(run(['sed', '/x/d; s/Running/RUN/'], 'x 1\nRunning\n').out).toBe('RUN\n');
    expect(run(['sed', '-e', '1d', '-e', 's/b/B/g'], 'a\nbb\n').out).toBe('BB\n');
    expect(run(['sed', 's|a;b|c|'], 'a;b\n').out).toBe('c\n');
    expect(run(['sed', '-n', 's/v1/v2/p'], 'v1\nno\n').out).toBe('v2\n');
    expect(run(['sed', '2s/a/b/'], 'a\na\n').out).toBe('a\nb\n');
  });

  it('keeps a last line without newline as it came', () => {
    expect(run(['sed', 's/a/b/'], 'a\na').out).toBe('b\nb');
  });

  it("unknown commands fail as GNU sed words it", () => {
    expect(run(['sed', 'x'], 'a\n')).toMatchObject({ err: "sed: -e expression #1, char 1: unknown command: `x'\n", status: 1 });
    expect(run(['sed', 's/a/b'], 'a\n')).toMatchObject({ err: "sed: -e expression #1, char 5: unterminated `s' command\n", status: 1 });
  });
});
