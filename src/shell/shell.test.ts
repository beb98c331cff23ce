import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../engine/clock';
import { ApiServer } from '../engine/api/server';
import { MemoryFiles } from './files';
import { HOST_PROMPT, Shell, runToCompletion, sessionOf, toPending } from './shell';
import type { Command, Pending } from './types';

/** A shell with in-memory files and a few fake commands. */
function setup(extra: Record<string, Command> = {}, files: Record<string, string> = {}) {
  const clock = new Clock();
  const rng = new Rng(1);
  const api = new ApiServer(clock, rng);
  const fs = new MemoryFiles({ 'manifests/bookshop/catalog.yaml': 'kind: Deployment\nname: catalog\n', 'manifests/bookshop/web.yaml': 'kind: Deployment\nname: web\n', 'cluster/kind.yaml': 'name: k8s-lab\n', ...files });
  /** `printargs A B` prints `[A][B]`; `printenv NAME` prints a variable; `stdin` echoes standard input; `fail N` exits N. */
  const commands: Record<string, Command> = {
    printargs: (argv, io) => (io.stdout(argv.slice(1).map((a) => `[${a}]`).join('') + '\n'), 0),
    printenv: (argv, io, ctx) => (io.stdout((ctx.env[argv[1]] ?? '') + '\n'), 0),
    stdin: (_argv, io) => (io.stdout(io.stdin), 0),
    fail: (argv, io) => (io.stderr('failing\n'), Number(argv[1] ?? 1)),
    /** Prints `tick N` every second for argv[1] seconds (a watch), then exits 0. */
    ticker: (argv, io, ctx) => {
      const n = Number(argv[1] ?? 5);
      const start = ctx.clock.now();
      let printed = 0;
      let cancelled = false;
      const p: Pending & { cancelled: () => boolean } = {
        poll() {
          const due = Math.floor((ctx.clock.now() - start) / 1000);
          while (printed < Math.min(due, n)) io.stdout(`tick ${++printed}\n`);
          return printed >= n ? 0 : undefined;
        },
        cancel() {
          cancelled = true;
        },
        wakeAt: () => start + (printed + 1) * 1000,
        cancelled: () => cancelled,
      };
      tickers.push(p);
      return p;
    },
    ...extra,
  };
  const tickers: (Pending & { cancelled: () => boolean })[] = [];
  const shell = new Shell({ ctx: { clock, rng, api, files: fs, env: {} }, commands });
  const run = (line: string, maxVirtualMs?: number) => runToCompletion(shell, line, { maxVirtualMs });
  return { clock, shell, fs, run, tickers };
}

describe('words and quoting', () => {
  it('expands variables, keeps quotes, and splits unquoted expansions', () => {
    const { run } = setup();
    expect(run(`X='a  b'; printargs $X "$X" '$X' \${X} "\${Y:-dflt}" ""`).text).toBe('[a][b][a  b][$X][a][b][dflt][]\n');
  });

  it('reports $? and supports export and VAR=x cmd', () => {
    const { run } = setup();
    expect(run('fail 3; echo $?').text).toBe('failing\n3\n');
    expect(run('FOO=bar printenv FOO; printenv FOO').text).toBe('bar\n\n');
    expect(run('export FOO=baz').exitCode).toBe(0);
    expect(run('printenv FOO').text).toBe('baz\n');
  });

  it('substitutes command output, trimming trailing newlines', () => {
    const { run } = setup();
    expect(run('printargs $(echo one two) "$(echo three four)" `echo five`').text).toBe('[one][two][three four][five]\n');
    expect(run('x=$(fail 7); echo $?').text).toBe('failing\n7\n');
  });

  it('echo handles -n and -e', () => {
    const { run } = setup();
    expect(run('echo -n a; echo b').text).toBe('ab\n');
    expect(run("echo -e 'x\\ty'").text).toBe('x\ty\n');
    expect(run("echo 'x\\ty'").text).toBe('x\\ty\n');
  });

  it('globs over the working directory', () => {
    const { run } = setup();
    expect(run('echo manifests/bookshop/*.yaml').text).toBe('manifests/bookshop/catalog.yaml manifests/bookshop/web.yaml\n');
    expect(run('echo nothing/*.yaml').text).toBe('nothing/*.yaml\n');
    expect(run("echo 'manifests/*'").text).toBe('manifests/*\n');
  });
});

describe('lists', () => {
  it('runs && and || by status', () => {
    const { run } = setup();
    expect(run('true && echo a || echo b').text).toBe('a\n');
    expect(run('false && echo a || echo b').text).toBe('b\n');
    expect(run('fail 2 || echo recovered; echo after').text).toBe('failing\nrecovered\nafter\n');
    expect(run('! true').exitCode).toBe(1);
  });
});

describe('pipes and filters', () => {
  it('pipes through grep, head, tail, wc, sort, uniq, cut and awk', () => {
    const { run } = setup();
    const data = "printf 'NAME STATUS\\nweb-1 Running\\ncat-2 Pending\\nweb-3 Running\\n'";
    expect(run(`${data} | grep Running`).text).toBe('web-1 Running\nweb-3 Running\n');
    expect(run(`${data} | grep -v -i running | tail -n 1`).text).toBe('cat-2 Pending\n');
    expect(run(`${data} | head -n 2`).text).toBe('NAME STATUS\nweb-1 Running\n');
    expect(run(`${data} | wc -l`).text).toBe('4\n');
    expect(run(`${data} | awk '{print $2}' | sort | uniq -c`).text).toBe('      1 Pending\n      2 Running\n      1 STATUS\n');
    expect(run(`${data} | awk 'NR>1 {print $1}' | cut -d- -f2 | sort -rn`).text).toBe('3\n2\n1\n');
    expect(run(`${data} | grep -E 'web-[13]' | wc -l`).text).toBe('2\n');
    expect(run(`${data} | grep nothing`).exitCode).toBe(1);
  });

  it('streams a waiting command through a filter as it prints', () => {
    const { shell, clock } = setup();
    const r = shell.run('ticker 3 | grep tick');
    expect(r.done).toBe(false);
    clock.advance(1000);
    r.poll();
    expect(r.output.map((c) => c.text).join('')).toBe('tick 1\n');
    clock.advance(2000);
    expect(r.poll()).toBe(true);
    expect(r.output.map((c) => c.text).join('')).toBe('tick 1\ntick 2\ntick 3\n');
  });

  it('ends the writer when head has enough (SIGPIPE)', () => {
    const { run, tickers, clock } = setup();
    const r = run('ticker 100 | head -n 2');
    expect(r.text).toBe('tick 1\ntick 2\n');
    expect(r.exitCode).toBe(0);
    expect(tickers[0].cancelled()).toBe(true);
    expect(clock.now()).toBe(2000);
  });

  it('feeds a buffered command with the whole upstream output', () => {
    const { run } = setup();
    expect(run('echo a b c | stdin').text).toBe('a b c\n');
    expect(run("printf 'x\\ny\\n' | xargs printargs").text).toBe('[x][y]\n');
    expect(run("printf 'x\\ny\\n' | xargs -n 1 printargs").text).toBe('[x]\n[y]\n');
    expect(run("printf 'x\\n' | xargs -I {} printargs pre-{}").text).toBe('[pre-x]\n');
  });
});

describe('here-documents and redirections', () => {
  it('feeds here-documents, expanding unless the delimiter is quoted', () => {
    const { run } = setup();
    expect(run('N=7; stdin <<EOF\nvalue: $N\n$(echo sub)\nEOF\n').text).toBe('value: 7\nsub\n');
    expect(run("stdin <<'EOF'\nvalue: $N\nEOF\n").text).toBe('value: $N\n');
    expect(run('stdin <<-EOF\n\t\tindented\n\tEOF\n').text).toBe('indented\n');
    expect(run('stdin <<< "here string"').text).toBe('here string\n');
  });

  it('writes, appends and reads files of the working directory', () => {
    const { run, fs } = setup();
    expect(run('echo one > out.txt; echo two >> out.txt; cat out.txt').text).toBe('one\ntwo\n');
    expect(fs.read('out.txt')).toBe('one\ntwo\n');
    expect(run('stdin < cluster/kind.yaml').text).toBe('name: k8s-lab\n');
    expect(run('fail 1 2>/dev/null; echo $?').text).toBe('1\n');
    expect(run('fail 1 2>&1 | grep -c failing').text).toBe('1\n');
    expect(run('fail 1 > err.txt 2>&1; cat err.txt').text).toBe('failing\n');
    expect(run('cat < missing.txt').text).toBe('bash: missing.txt: No such file or directory\n');
    expect(run('echo x > nodir/file').text).toBe('bash: nodir/file: No such file or directory\n');
    expect(run('cat manifests/bookshop/catalog.yaml | grep name').text).toBe('name: catalog\n');
  });
});

describe('builtins', () => {
  it('answers unknown commands as bash does', () => {
    const { run } = setup();
    expect(run('foo --bar')).toMatchObject({ text: 'bash: foo: command not found\n', exitCode: 127 });
  });

  it('lists every command in help, one line each', () => {
    const { run } = setup();
    const lines = run('help').text.trim().split('\n');
    for (const name of ['printargs', 'grep', 'head', 'sleep', 'timeout', 'xargs', 'export', 'help', 'cd', 'ls', 'cat']) expect(lines.some((l) => l.startsWith(name)), name).toBe(true);
  });

  it('keeps the working directory fixed on the laptop', () => {
    const { run } = setup();
    expect(run('cd manifests')).toMatchObject({ exitCode: 1 });
    expect(run('cd .; pwd').text).toBe('/home/learner/k8s-bookshop\n');
  });

  it('lists files with ls', () => {
    const { run } = setup();
    expect(run('ls').text).toBe('cluster\nmanifests\n');
    expect(run('ls manifests/bookshop').text).toBe('catalog.yaml\nweb.yaml\n');
    expect(run('ls nope')).toMatchObject({ text: "ls: cannot access 'nope': No such file or directory\n", exitCode: 2 });
  });

  it('runs scripts with sh -c, positional parameters and dash wording', () => {
    const { run } = setup();
    expect(run(`sh -c 'echo $0 $1' me arg`).text).toBe('me arg\n');
    expect(run(`sh -c 'nope'`)).toMatchObject({ text: 'sh: 1: nope: not found\n', exitCode: 127 });
    expect(run(`bash -c 'exit 3'; echo $?`).text).toBe('3\n');
  });

  it('supports aliases', () => {
    const { run } = setup();
    run('alias p=printargs');
    expect(run('p a').text).toBe('[a]\n');
    expect(run('type p').text).toBe("p is aliased to `printargs'\n");
  });

  it('prints the cluster clock with date', () => {
    const { run } = setup();
    expect(run('date').text).toBe('Mon Jan  5 06:00:00 UTC 2026\n');
    expect(run('sleep 90; date +%T').text).toBe('06:01:30\n');
  });
});

describe('virtual time', () => {
  it('sleep N advances the clock by N seconds', () => {
    const { run, clock } = setup();
    const t0 = clock.now();
    expect(run('sleep 2').exitCode).toBe(0);
    expect(clock.now() - t0).toBe(2000);
    expect(run('sleep 1.5; sleep 1m').exitCode).toBe(0);
    expect(clock.now() - t0).toBe(63_500);
    expect(run('sleep x')).toMatchObject({ exitCode: 1, text: "sleep: invalid time interval ‘x’\nTry 'sleep --help' for more information.\n" });
  });

  it('sleep is a pending line the host drives', () => {
    const { shell, clock } = setup();
    const r = shell.run('sleep 5; echo woke');
    expect(r.done).toBe(false);
    expect(r.wakeAt()).toBe(5000);
    clock.advance(4999);
    expect(r.poll()).toBe(false);
    clock.advance(1);
    expect(r.poll()).toBe(true);
    expect(r.output).toEqual([{ stream: 'stdout', text: 'woke\n' }]);
  });

  it('timeout N bounds a waiting command with exit 124', () => {
    const { run, clock, tickers } = setup();
    const r = run('timeout 3 ticker 100; echo $?');
    expect(r.text).toBe('tick 1\ntick 2\ntick 3\n124\n');
    expect(clock.now()).toBe(3000);
    expect(tickers[0].cancelled()).toBe(true);
    expect(run('timeout 10 ticker 2').exitCode).toBe(0);
    expect(run('timeout 1 sleep 5').exitCode).toBe(124);
  });

  it('interrupt ends the line with 130 and cancels what runs', () => {
    const { shell, clock, tickers } = setup();
    const r = shell.run('ticker 100; echo not reached');
    clock.advance(1500);
    r.poll();
    r.interrupt();
    expect(r.done).toBe(true);
    expect(r.exitCode).toBe(130);
    expect(tickers[0].cancelled()).toBe(true);
    expect(runToCompletion(shell, 'echo $?').text).toBe('130\n');
  });

  it('runToCompletion interrupts a line that runs too long', () => {
    const { run } = setup();
    const r = run('ticker 1000', 2500);
    expect(r).toMatchObject({ timedOut: true, exitCode: 130, text: 'tick 1\ntick 2\n' });
  });
});

describe('sessions', () => {
  it('lets a command enter another environment and exit leaves it', () => {
    const inner: Command = (argv, io) => (io.stdout(`inner ${argv.slice(1).join(' ')}\n`), 0);
    const enter: Command = (_argv, _io, ctx) => {
      const s = sessionOf(ctx)!;
      s.enter({ name: 'node-1', commands: { inner }, ctx: { ...ctx, env: { PWD: '/' } }, prompt: () => 'root@node-1:/# ', canChdir: false });
      return 0;
    };
    const { shell, run } = setup({ enter });
    expect(shell.prompt).toBe(HOST_PROMPT);
    run('enter');
    expect(shell.prompt).toBe('root@node-1:/# ');
    expect(run('inner x').text).toBe('inner x\n');
    expect(run('printargs').text).toBe('bash: printargs: command not found\n');
    expect(run('exit 4').text).toBe('exit\n');
    expect(shell.prompt).toBe(HOST_PROMPT);
    expect(run('echo $?').text).toBe('4\n');
  });

  it('runs argv and scripts for commands (docker exec)', () => {
    const viaExec: Command = (argv, io, ctx) => sessionOf(ctx)!.exec(argv.slice(1), io);
    const viaEval: Command = (argv, io, ctx) => sessionOf(ctx)!.eval(argv[1], io);
    const { run } = setup({ viaExec, viaEval });
    expect(run('viaExec printargs "a b"').text).toBe('[a b]\n');
    expect(run('viaExec sleep 1').exitCode).toBe(0);
    expect(run(`viaEval 'echo $((1'`).text).toContain('Syntax error');
    expect(run(`viaEval 'printargs $(echo q); exit 5'`)).toMatchObject({ text: '[q]\n', exitCode: 5 });
  });

  it('toPending gives a number when the generator finishes at once, else a Pending', () => {
    function* gen(waits: number) {
      for (let i = 0; i < waits; i++) yield { wakeAt: i };
      return 3;
    }
    expect(toPending(gen(0))).toBe(3);
    const p = toPending(gen(2));
    if (typeof p === 'number') throw new Error('expected a Pending');
    expect(p.wakeAt?.()).toBe(0);
    expect(p.poll()).toBeUndefined();
    expect(p.poll()).toBe(3);
  });
});

describe('syntax errors', () => {
  it('prints them as bash does with status 2', () => {
    const { run } = setup();
    expect(run('echo a ;; echo b')).toMatchObject({ text: "bash: syntax error near unexpected token `;;'\n", exitCode: 2 });
    expect(run("echo 'open")).toMatchObject({ text: "bash: unexpected EOF while looking for matching `''\n", exitCode: 2 });
  });
});
