import { describe, expect, it } from 'vitest';
import { BufferSink, FILTERS } from './filters';
import { MemoryFiles } from './files';

/** Run grep over `input` (written in small chunks, as a pipe delivers it). */
function grep(args: string[], input = '', files: Record<string, string> = {}): { out: string; err: string; status: number } {
  const out = new BufferSink();
  const err = new BufferSink();
  const f = FILTERS.grep.factory(['grep', ...args], out, err, new MemoryFiles(files));
  for (let i = 0; i < input.length; i += 3) f.input.write(input.slice(i, i + 3));
  f.input.end();
  return { out: out.text, err: err.text, status: f.status() };
}

const TEXT = 'a\nb\nTaints: x\nc\nd\ne\nf\nTaints: y\ng\n';

describe('grep context lines (GNU grep 3: -A, -B, -C, --context)', () => {
  it('prints lines after and before each match, with -- between groups that do not touch', () => {
    expect(grep(['-A1', 'Taints'], TEXT).out).toBe('Taints: x\nc\n--\nTaints: y\ng\n');
    expect(grep(['-A', '3', 'Taints'], TEXT).out).toBe('Taints: x\nc\nd\ne\n--\nTaints: y\ng\n');
    expect(grep(['-A', '4', 'Taints'], TEXT).out).toBe('Taints: x\nc\nd\ne\nf\nTaints: y\ng\n');
    expect(grep(['-B1', 'Taints'], TEXT).out).toBe('b\nTaints: x\n--\nf\nTaints: y\n');
    expect(grep(['-C1', 'Taints'], TEXT).out).toBe('b\nTaints: x\nc\n--\nf\nTaints: y\ng\n');
    expect(grep(['--context=2', 'Taints'], TEXT).out).toBe('a\nb\nTaints: x\nc\nd\ne\nf\nTaints: y\ng\n');
    expect(grep(['--after-context=1', '-e', 'x'], TEXT).out).toBe('Taints: x\nc\n');
  });

  it('marks context lines with - after the line number and file name, matches with :', () => {
    expect(grep(['-n', '-B1', 'Taints: y'], TEXT).out).toBe('7-f\n8:Taints: y\n');
    expect(grep(['-H', '-A1', 'x', 'n.txt'], '', { 'n.txt': TEXT }).out).toBe('n.txt:Taints: x\nn.txt-c\n');
  });

  it('rejects a bad length as grep does, and ignores context for -c and -q', () => {
    expect(grep(['-A', 'x', 'y'], TEXT)).toEqual({ out: '', err: 'grep: x: invalid context length argument\n', status: 2 });
    expect(grep(['-A'], TEXT).status).toBe(2);
    expect(grep(['-c', '-A2', 'Taints'], TEXT).out).toBe('2\n');
  });
});
