import { describe, expect, it } from 'vitest';
import { BufferSink, FILTERS, base64Decode, base64Encode, breToJs } from './filters';
import { MemoryFiles } from './files';

/** Run a filter over `input` (written in chunks of `chunk` characters). */
function run(argv: string[], input = '', files: Record<string, string> = {}, chunk = 3): { out: string; err: string; status: number } {
  const out = new BufferSink();
  const err = new BufferSink();
  const f = FILTERS[argv[0]].factory(argv, out, err, new MemoryFiles(files));
  for (let i = 0; i < input.length; i += chunk) f.input.write(input.slice(i, i + chunk));
  f.input.end();
  return { out: out.text, err: err.text, status: f.status() };
}

const PODS = 'NAME READY STATUS\ncatalog-1 1/1 Running\nweb-2 0/1 Pending\norders-3 1/1 Running\n';

describe('grep', () => {
  it('matches basic and extended expressions, case, inversion, words and counts', () => {
    expect(run(['grep', 'Run'], PODS).out).toBe('catalog-1 1/1 Running\norders-3 1/1 Running\n');
    expect(run(['grep', '-v', 'Run'], PODS).out).toBe('NAME READY STATUS\nweb-2 0/1 Pending\n');
    expect(run(['grep', '-i', 'pending'], PODS).out).toBe('web-2 0/1 Pending\n');
    expect(run(['grep', '-E', 'web|orders'], PODS).out).toBe('web-2 0/1 Pending\norders-3 1/1 Running\n');
    expect(run(['grep', 'web|orders'], PODS).status).toBe(1);
    expect(run(['grep', 'web\\|orders'], PODS).out).toBe('web-2 0/1 Pending\norders-3 1/1 Running\n');
    expect(run(['grep', '-c', 'Running'], PODS).out).toBe('2\n');
    expect(run(['grep', '-n', 'web'], PODS).out).toBe('3:web-2 0/1 Pending\n');
    expect(run(['grep', '-o', '[0-9]/1'], PODS).out).toBe('1/1\n0/1\n1/1\n');
    expect(run(['grep', '-w', 'web'], 'web\nwebby\n').out).toBe('web\n');
    expect(run(['grep', '-F', 'a.b'], 'a.b\naxb\n').out).toBe('a.b\n');
    expect(run(['grep'], '')).toMatchObject({ status: 2 });
  });

  it('reads files and reports missing ones with status 2', () => {
    expect(run(['grep', 'name', 'a.yaml'], '', { 'a.yaml': 'name: x\nkind: y\n' }).out).toBe('name: x\n');
    expect(run(['grep', 'x', 'nope'])).toMatchObject({ err: 'grep: nope: No such file or directory\n', status: 2 });
  });

  it('translates POSIX classes and BRE operators', () => {
    expect(breToJs('a\\+[[:digit:]]\\{2\\}(x)')).toBe('a+[0-9]{2}\\(x\\)');
  });
});

describe('head and tail', () => {
  it('take the first and last lines', () => {
    expect(run(['head', '-n', '2'], PODS).out).toBe('NAME READY STATUS\ncatalog-1 1/1 Running\n');
    expect(run(['head', '-2'], PODS).out).toBe('NAME READY STATUS\ncatalog-1 1/1 Running\n');
    expect(run(['head', '-n', '-3'], PODS).out).toBe('NAME READY STATUS\n');
    expect(run(['tail', '-n', '1'], PODS).out).toBe('orders-3 1/1 Running\n');
    expect(run(['tail', '-n', '+2'], PODS).out).toBe('catalog-1 1/1 Running\nweb-2 0/1 Pending\norders-3 1/1 Running\n');
    expect(run(['head', '-n', 'x'], PODS)).toMatchObject({ status: 1, err: 'head: invalid number of lines: ‘x’\n' });
  });

  it('head closes its input once satisfied', () => {
    const out = new BufferSink();
    const f = FILTERS.head.factory(['head', '-n', '1'], out, new BufferSink(), new MemoryFiles());
    f.input.write('a\nb\n');
    expect(f.input.closed).toBe(true);
    expect(out.text).toBe('a\n');
  });
});

describe('wc, sort, uniq, cut, awk', () => {
  it('counts', () => {
    expect(run(['wc', '-l'], PODS).out).toBe('4\n');
    expect(run(['wc'], 'a b\nc\n').out).toBe('      2       3       6\n');
  });

  it('sorts in byte order, numerically, reversed, by key, uniquely', () => {
    expect(run(['sort'], 'b\nB\na\n').out).toBe('B\na\nb\n');
    expect(run(['sort', '-n'], '10\n9\n100\n').out).toBe('9\n10\n100\n');
    expect(run(['sort', '-rn'], '10\n9\n100\n').out).toBe('100\n10\n9\n');
    expect(run(['sort', '-k', '3'], PODS).out).toBe('web-2 0/1 Pending\ncatalog-1 1/1 Running\norders-3 1/1 Running\nNAME READY STATUS\n');
    expect(run(['sort', '-u'], 'a\na\nb\n').out).toBe('a\nb\n');
  });

  it('drops adjacent duplicates', () => {
    expect(run(['uniq'], 'a\na\nb\na\n').out).toBe('a\nb\na\n');
    expect(run(['uniq', '-c'], 'a\na\nb\n').out).toBe('      2 a\n      1 b\n');
    expect(run(['uniq', '-d'], 'a\na\nb\n').out).toBe('a\n');
  });

  it('cuts fields and characters', () => {
    expect(run(['cut', '-d', ' ', '-f', '1,3'], PODS).out).toBe('NAME STATUS\ncatalog-1 Running\nweb-2 Pending\norders-3 Running\n');
    expect(run(['cut', '-d-', '-f2-'], 'a-b-c\n').out).toBe('b-c\n');
    expect(run(['cut', '-c', '1-3'], 'abcdef\n').out).toBe('abc\n');
    expect(run(['cut', '-f', '1'], 'no-tab\n').out).toBe('no-tab\n');
    expect(run(['cut'], '')).toMatchObject({ status: 1 });
  });

  it('prints fields with awk', () => {
    expect(run(['awk', '{print $1}'], PODS).out).toBe('NAME\ncatalog-1\nweb-2\norders-3\n');
    expect(run(['awk', '{print $NF, $1}'], PODS).out.split('\n')[1]).toBe('Running catalog-1');
    expect(run(['awk', 'NR>1 {print $3}'], PODS).out).toBe('Running\nPending\nRunning\n');
    expect(run(['awk', '/Pending/ {print $1}'], PODS).out).toBe('web-2\n');
    expect(run(['awk', '$3=="Running" {print $1}'], PODS).out).toBe('catalog-1\norders-3\n');
    expect(run(['awk', '-F', ':', '{print $2}'], 'a:b\n').out).toBe('b\n');
    expect(run(['awk', '{ x = 1 }'], PODS).status).toBe(2);
  });
});

describe('sed, tr, tee, base64, cat', () => {
  it('substitutes with sed s///', () => {
    expect(run(['sed', 's/v1/v2/'], 'image: bookshop:v1 v1\n').out).toBe('image: bookshop:v2 v1\n');
    expect(run(['sed', 's/v1/v2/g'], 'v1 v1\n').out).toBe('v2 v2\n');
    expect(run(['sed', 's|\\(a\\)b|\\1c|'], 'ab\n').out).toBe('ac\n');
  });

  it('translates and deletes with tr', () => {
    expect(run(['tr', 'a-z', 'A-Z'], 'abc\n').out).toBe('ABC\n');
    expect(run(['tr', '-d', '\\n'], 'a\nb\n').out).toBe('ab');
  });

  it('copies with tee', () => {
    const files = new MemoryFiles();
    const out = new BufferSink();
    const f = FILTERS.tee.factory(['tee', 'x.txt'], out, new BufferSink(), files);
    f.input.write('hello\n');
    f.input.end();
    expect(out.text).toBe('hello\n');
    expect(files.read('x.txt')).toBe('hello\n');
  });

  it('encodes and decodes base64 (UTF-8)', () => {
    expect(base64Encode('password')).toBe('cGFzc3dvcmQ=');
    expect(base64Decode('cGFzc3dvcmQ=')).toBe('password');
    expect(base64Decode(base64Encode('grüße ✓'))).toBe('grüße ✓');
    expect(run(['base64', '-d'], 'cGFzc3dvcmQ=').out).toBe('password');
    expect(run(['base64'], 'password').out).toBe('cGFzc3dvcmQ=\n');
  });

  it('cat concatenates files and numbers lines', () => {
    const files = { 'a.txt': 'a\n', 'b.txt': 'b\n' };
    expect(run(['cat', 'a.txt', 'b.txt'], '', files).out).toBe('a\nb\n');
    expect(run(['cat', '-n'], 'x\ny\n').out).toBe('     1\tx\n     2\ty\n');
    expect(run(['cat', 'nope'])).toMatchObject({ err: 'cat: nope: No such file or directory\n', status: 1 });
  });
});
