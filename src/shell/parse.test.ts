import { describe, expect, it } from 'vitest';
import { IncompleteInput, ShellSyntaxError, inputStatus, parseScript, type Word } from './parse';

/** The literal text of a word whose parts are all literals (for structure checks). */
const lit = (w: Word): string => w.parts.map((p) => (p.kind === 'lit' ? p.text : `<${p.kind}>`)).join('');

describe('parseScript', () => {
  it('splits words on blanks and keeps quoted blanks', () => {
    const s = parseScript(`kubectl get pods -n 'book shop' "a b" c\\ d`);
    expect(s.items[0].first.commands[0].words.map(lit)).toEqual(['kubectl', 'get', 'pods', '-n', 'book shop', 'a b', 'c d']);
  });

  it('parses parameters, command substitution and backquotes', () => {
    const w = parseScript(`echo $HOME "\${X:-def}" $(pgrep kubelet) \`date\``).items[0].first.commands[0].words;
    expect(w[1].parts[0]).toMatchObject({ kind: 'param', name: 'HOME', quoted: false });
    expect(w[2].parts[0]).toMatchObject({ kind: 'param', name: 'X', op: ':-', quoted: true });
    expect(w[3].parts[0]).toMatchObject({ kind: 'cmdsub', source: 'pgrep kubelet', quoted: false });
    expect(w[4].parts[0]).toMatchObject({ kind: 'cmdsub', source: 'date' });
  });

  it('parses the seed line with a substitution inside single quotes as one literal word', () => {
    const c = parseScript(`docker exec k8s-lab-worker sh -c 'kill $(pgrep kubelet)'`).items[0].first.commands[0];
    expect(c.words.map(lit)).toEqual(['docker', 'exec', 'k8s-lab-worker', 'sh', '-c', 'kill $(pgrep kubelet)']);
  });

  it('parses pipelines, and-or lists and sequences', () => {
    const s = parseScript('a | b | c && d || e; f\ng');
    expect(s.items).toHaveLength(3);
    expect(s.items[0].first.commands).toHaveLength(3);
    expect(s.items[0].rest.map((r) => r.op)).toEqual(['&&', '||']);
  });

  it('parses redirections with file descriptors', () => {
    const c = parseScript('cmd > out.txt 2>&1 < in.txt 2>>err.log &> all').items[0].first.commands[0];
    expect(c.redirects.map((r) => r.op)).toEqual(['>', 'dup', '<', '>>', '&>']);
    expect(c.redirects[1]).toEqual({ op: 'dup', fd: 2, to: 1 });
    expect(c.redirects[3]).toMatchObject({ op: '>>', fd: 2 });
  });

  it('reads here-document bodies after the line, with and without expansion', () => {
    const s = parseScript("kubectl apply -f - <<EOF\nname: $X\nEOF\ncat <<'END'\n$X\nEND\n");
    const h1 = s.items[0].first.commands[0].redirects[0];
    const h2 = s.items[1].first.commands[0].redirects[0];
    expect(h1).toMatchObject({ op: 'heredoc', delimiter: 'EOF', quoted: false });
    expect(h2).toMatchObject({ op: 'heredoc', delimiter: 'END', quoted: true });
    if (h1.op === 'heredoc' && h2.op === 'heredoc') {
      expect(h1.body.parts.map((p) => p.kind)).toEqual(['lit', 'param', 'lit']);
      expect(h2.body.parts).toEqual([{ kind: 'lit', text: '$X\n', quoted: true }]);
    }
  });

  it('strips leading tabs with <<-', () => {
    const h = parseScript('cat <<-EOF\n\tindented\n\tEOF\n').items[0].first.commands[0].redirects[0];
    expect(h.op === 'heredoc' && h.body.raw).toBe('indented\n');
  });

  it('treats assignments before the command as assignments', () => {
    const c = parseScript('KUBECONFIG=/tmp/x FOO= kubectl get pods').items[0].first.commands[0];
    expect(c.assigns.map((a) => a.name)).toEqual(['KUBECONFIG', 'FOO']);
    expect(c.words.map(lit)).toEqual(['kubectl', 'get', 'pods']);
  });

  it('skips comments', () => {
    expect(parseScript('# nothing').items).toHaveLength(0);
    expect(parseScript('echo a # b').items[0].first.commands[0].words.map(lit)).toEqual(['echo', 'a']);
    expect(parseScript('echo a#b').items[0].first.commands[0].words.map(lit)).toEqual(['echo', 'a#b']);
  });

  it('joins backslash-newline continuations', () => {
    const c = parseScript("kubectl get pod x \\\n    -o jsonpath='{.a}'").items[0].first.commands[0];
    expect(c.words.map(lit)).toEqual(['kubectl', 'get', 'pod', 'x', '-o', 'jsonpath={.a}']);
  });
});

describe('inputStatus', () => {
  it('asks for more lines when the input could continue', () => {
    for (const src of ["echo 'open", 'echo "open', 'cat <<EOF\nbody', 'a |', 'a &&', 'a ||', 'echo $(date', 'kubectl get pods \\\n', 'cat <<EOF'])
      expect(inputStatus(src).status, src).toBe('incomplete');
  });

  it('accepts complete inputs', () => {
    for (const src of ['echo hi', 'cat <<EOF\nbody\nEOF', 'a | b', '', '# only a comment', 'a;']) expect(inputStatus(src).status, src).toBe('complete');
  });

  it('reports syntax errors in bash words', () => {
    expect(inputStatus('a ;; b')).toEqual({ status: 'error', message: "syntax error near unexpected token `;;'" });
    expect(inputStatus('| a')).toEqual({ status: 'error', message: "syntax error near unexpected token `|'" });
    expect(inputStatus('echo >')).toMatchObject({ status: 'incomplete' });
    expect(inputStatus('echo > ;')).toEqual({ status: 'error', message: "syntax error near unexpected token `;'" });
  });

  it('names what the playground does not support', () => {
    expect(() => parseScript('sleep 5 &')).toThrow(ShellSyntaxError);
    expect(() => parseScript('( cd x )')).toThrow(/subshells/);
    expect(() => parseScript('for i in 1 2; do echo $i; done')).toThrow(/not supported/);
    expect(() => parseScript('echo $((1+2))')).toThrow(/arithmetic/);
    expect(() => parseScript("echo 'x")).toThrow(IncompleteInput);
  });
});
