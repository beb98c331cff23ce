/**
 * The sh subset and the busybox/coreutils commands, on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { Clock } from '../clock';
import type { Signal } from './process';
import { ContainerFs, formatDate, memoryMount, parseScript, resolvePath, startShell, type ShellChild, type ShellHost } from './shell';

interface Run {
  out: string;
  err: string;
  code: number | undefined;
  clock: Clock;
  fs: ContainerFs;
  run: ReturnType<typeof startShell>;
  killed: { pid: number; sig: Signal }[];
}

function host(clock: Clock, fs: ContainerFs, over: Partial<ShellHost> = {}, killed: { pid: number; sig: Signal }[] = []): ShellHost {
  return {
    clock,
    fs,
    userland: 'busybox',
    flavor: 'ash',
    hostname: 'pod-1',
    uid: 0,
    userName: 'root',
    epochMs: clock.epochMs,
    hasCommand: () => undefined,
    spawn: () => undefined,
    helper: () => undefined,
    http: () => ({ error: 'refused', address: '127.0.0.1:80' }),
    lookup: () => undefined,
    dial: () => false,
    kill: (pid, sig) => {
      killed.push({ pid, sig });
      return pid === 1;
    },
    ps: () => [{ pid: 1, user: 'root', command: 'sh -c sleep 3600' }],
    ...over,
  };
}

function sh(script: string, over: Partial<ShellHost> = {}, env: Record<string, string> = { HOME: '/root', PATH: '/bin' }): Run {
  const clock = new Clock();
  const fs = new ContainerFs({ dirs: ['/tmp', '/etc', '/bin'], files: { '/etc/hostname': 'pod-1\n' } });
  const killed: { pid: number; sig: Signal }[] = [];
  const r: Run = { out: '', err: '', code: undefined, clock, fs, killed, run: undefined as unknown as ReturnType<typeof startShell> };
  r.run = startShell(host(clock, fs, over, killed), {
    script,
    env,
    io: { out: (t) => (r.out += t), err: (t) => (r.err += t) },
    onExit: (c) => (r.code = c),
    unknown: 'not-found',
  });
  return r;
}

describe('parser', () => {
  it('parses the corpus and bookshop scripts', () => {
    expect(() => parseScript('touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600')).not.toThrow();
    expect(() => parseScript('echo "Hello world!" && sleep 5 && exit 42')).not.toThrow();
    expect(() =>
      parseScript(`while true; do
  kubectl get shelves -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.spec.isbns[*]}{"\\n"}{end}' |
  while read -r name isbns; do
    [ -z "$name" ] && continue
    count=$(echo "$isbns" | wc -w | tr -d ' ')
    echo "reconciled shelf/$name -> bookCount=$count"
  done
  sleep 5
done`),
    ).not.toThrow();
  });

  it('reports syntax errors as sh does (exit 2)', () => {
    const r = sh('if true; then echo x');
    expect(r.code).toBe(2);
    expect(r.err).toContain('syntax error');
  });
});

describe('execution', () => {
  it('runs sequences, && and || with exit codes', () => {
    const r = sh('echo boom; exit 1');
    expect(r.out).toBe('boom\n');
    expect(r.code).toBe(1);
    expect(sh('false && echo no || echo yes').out).toBe('yes\n');
    expect(sh('true && echo a; false; echo $?').out).toBe('a\n1\n');
  });

  it('expands variables, defaults, command substitution and arithmetic', () => {
    const r = sh('A=1; B="two words"; echo "$A-${B}" ${C:-dflt} $((A + 41)) "$(echo nested)"');
    expect(r.out).toBe('1-two words dflt 42 nested\n');
    expect(sh("x='a b  c'; for w in $x; do echo \"[$w]\"; done").out).toBe('[a]\n[b]\n[c]\n');
  });

  it('sleeps on the virtual clock', () => {
    const r = sh('echo start; sleep 5; echo done');
    expect(r.out).toBe('start\n');
    expect(r.code).toBeUndefined();
    r.clock.advance(4999);
    expect(r.out).toBe('start\n');
    r.clock.advance(1);
    expect(r.out).toBe('start\ndone\n');
    expect(r.code).toBe(0);
  });

  it('loops with while true and sleep, every 5 s', () => {
    const r = sh('i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 5; done');
    r.clock.advance(12_000);
    expect(r.out).toBe('tick 1\ntick 2\ntick 3\n');
    expect(r.code).toBeUndefined();
  });

  it('throttles a loop that never sleeps instead of freezing', () => {
    const r = sh('while true; do :; done');
    expect(r.code).toBeUndefined();
    r.clock.advance(100);
    expect(r.clock.pending()).toBe(1);
    r.run.stop();
  });

  it('touches and removes files; cat reports a missing file like busybox', () => {
    const r = sh('touch /tmp/healthy; cat /tmp/healthy && echo present; rm -f /tmp/healthy; cat /tmp/healthy');
    expect(r.out).toBe('present\n');
    expect(r.err).toBe("cat: can't open '/tmp/healthy': No such file or directory\n");
    expect(r.code).toBe(1);
  });

  it('writes redirections into the container filesystem', () => {
    const r = sh('echo one > /tmp/f; echo two >> /tmp/f; cat /tmp/f; echo hidden > /dev/null; echo err >&2 2>/dev/null');
    expect(r.out).toBe('one\ntwo\n');
    expect(r.fs.read('/tmp/f')).toBe('one\ntwo\n');
  });

  it('pipes through wc, grep, head, tr', () => {
    expect(sh('echo "a b c" | wc -w').out).toBe('3\n');
    expect(sh('printf "x\\ny\\nx\\n" | grep -c x').out).toBe('2\n');
    expect(sh('echo "a b" | tr -d " "').out).toBe('ab\n');
  });

  it('reads lines in a while-read loop', () => {
    const r = sh('printf "a 1\\nb 2\\n" | while read -r name n; do echo "$name=$n"; done');
    expect(r.out).toBe('a=1\nb=2\n');
  });

  it('says not found with the right shell wording', () => {
    expect(sh('nope').err).toBe('sh: nope: not found\n');
    expect(sh('nope').code).toBe(127);
    expect(sh('nope', { flavor: 'bash' }).err).toBe('bash: line 1: nope: command not found\n');
    expect(sh('nope', { flavor: 'dash' }).err).toBe('sh: 1: nope: not found\n');
    expect(sh('nope', { hasCommand: (n) => n !== 'nope' }).code).toBe(127);
    // A binary the image has but nothing models: in an exec it succeeds quietly.
    expect(sh('psql -c "select 1"', { hasCommand: () => true }).code).toBe(0);
  });

  it('runs date on the virtual clock', () => {
    const r = sh('date; sleep 61; date +%H:%M:%S');
    r.clock.advance(61_000);
    expect(r.out).toBe(`${formatDate(r.clock.epochMs)}\n06:01:01\n`);
    expect(formatDate(r.clock.epochMs)).toBe('Mon Jan  5 06:00:00 UTC 2026');
  });

  it('honours set -e and if/else', () => {
    expect(sh('set -e; echo a; false; echo b').out).toBe('a\n');
    expect(sh('if [ -f /etc/hostname ]; then echo yes; else echo no; fi').out).toBe('yes\n');
    expect(sh('if [ "$X" = "" ]; then echo empty; fi').out).toBe('empty\n');
  });

  it('runs functions, break and subshells', () => {
    expect(sh('f() { echo "in $1"; return 3; }; f arg; echo $?').out).toBe('in arg\n3\n');
    expect(sh('for i in 1 2 3; do [ $i = 2 ] && break; echo $i; done').out).toBe('1\n');
    expect(sh('(exit 4); echo $?; (A=1); echo "${A:-unset}"').out).toBe('4\nunset\n');
  });
});

describe('signals', () => {
  it('reports an untrapped SIGTERM to the caller (sh as PID 1 then ignores it)', () => {
    const r = sh('sleep 3600');
    expect(r.run.signal('SIGTERM')).toBe('untrapped');
  });

  it('runs a trap after the foreground command, at once during wait', () => {
    const r = sh("trap 'echo bye; exit 0' TERM; sleep 10 & wait");
    expect(r.run.signal('SIGTERM')).toBe('trapped');
    expect(r.out).toBe('bye\n');
    expect(r.code).toBe(0);
    const r2 = sh("trap 'echo bye; exit 3' TERM; sleep 10; echo after");
    r2.run.signal('SIGTERM');
    expect(r2.out).toBe('');
    r2.clock.advance(10_000);
    expect(r2.out).toBe('bye\n');
    expect(r2.code).toBe(3);
  });

  it('hands `kill 1` to the host', () => {
    const r = sh('kill -9 1; kill 99');
    expect(r.killed).toEqual([
      { pid: 1, sig: 'SIGKILL' },
      { pid: 99, sig: 'SIGTERM' },
    ]);
    expect(r.err).toContain("can't kill pid 99");
  });

  it('forwards signals to a program it exec-ed', () => {
    const got: Signal[] = [];
    const child: ShellChild = { signal: (s) => got.push(s), stop: () => {} };
    const r = sh('exec nginx -g "daemon off;"', { spawn: () => child });
    expect(r.run.signal('SIGQUIT')).toBe('forwarded');
    expect(got).toEqual(['SIGQUIT']);
  });
});

describe('network commands', () => {
  it('curl prints the body and maps errors to curl exit codes', () => {
    const ok = sh('curl -s localhost:8080/debug/unready', { http: () => ({ status: 200, body: 'readiness is now failing\n' }) });
    expect(ok.out).toBe('readiness is now failing\n');
    const refused = sh('curl localhost:8080');
    expect(refused.code).toBe(7);
    expect(refused.err).toBe("curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server\n");
    const nx = sh('curl -sS http://nope/', { http: () => ({ error: 'nxdomain' }) });
    expect(nx.err).toBe('curl: (6) Could not resolve host: nope\n');
    const code = sh("curl -s -o /dev/null -w '%{http_code}' x:1/", { http: () => ({ status: 503, body: 'no' }) });
    expect(code.out).toBe('503');
  });

  it('wget -O saves a page as busybox does', () => {
    const r = sh('wget -O /tmp/index.html http://info.cern.ch', {
      http: () => ({ status: 200, body: '<html>first website</html>\n' }),
      lookup: (n) => ({ name: n, address: '188.184.67.127', server: '10.96.0.10' }),
    });
    expect(r.code).toBe(0);
    expect(r.fs.read('/tmp/index.html')).toBe('<html>first website</html>\n');
    expect(r.err).toContain("saving to '/tmp/index.html'");
  });
});

describe('ContainerFs', () => {
  it('mounts volumes over the image and refuses writes to read-only ones', () => {
    const cm = memoryMount({ 'banner.txt': 'Free shipping' });
    const fs = new ContainerFs({ dirs: ['/etc'], mounts: [{ path: '/etc/bookshop', source: cm, readOnly: true }] });
    expect(fs.read('/etc/bookshop/banner.txt')).toBe('Free shipping');
    expect(fs.list('/etc')).toEqual(['bookshop']);
    expect(fs.write('/etc/bookshop/x', 'y')).toBe('EROFS');
    cm.write!('banner.txt', 'Changed');
    expect(fs.read('/etc/bookshop/banner.txt')).toBe('Changed');
  });

  it('limits a non-root user to its writable trees', () => {
    const fs = new ContainerFs({ dirs: ['/tmp', '/etc'], userWritable: ['/tmp'] });
    expect(fs.write('/tmp/ok', '1')).toBeUndefined();
    expect(fs.write('/etc/no', '1')).toBe('EACCES');
  });

  it('normalises paths', () => {
    expect(resolvePath('/var/lib', '../tmp/./x')).toBe('/var/tmp/x');
    expect(resolvePath('/', '/a//b/')).toBe('/a/b');
  });
});

describe('nslookup of busybox before 1.29 (the classic applet, networking/nslookup.c of busybox 1.28)', () => {
  const lookup = (name: string) =>
    ({
      kubernetes: { name: 'kubernetes.default.svc.cluster.local', address: '10.96.0.1', server: '10.96.0.10' },
      'web-0.nginx': { name: 'web-0.nginx', address: '10.244.1.6', server: '10.96.0.10' },
    })[name];
  it("answers as the kubernetes.io pages show: Server/Address 1 with kube-dns's reverse name, the name as typed, a ClusterIP's service FQDN, a pod IP bare", () => {
    const r = sh('nslookup kubernetes; nslookup web-0.nginx', { busyboxVersion: '1.28.4', lookup });
    expect(r.out).toBe(
      'Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      kubernetes\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n' +
        'Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      web-0.nginx\nAddress 1: 10.244.1.6\n',
    );
    expect(r.code).toBe(0);
  });
  it("a name that does not resolve: nslookup: can't resolve '<name>' on stderr, exit 1 (the init-containers page's loop)", () => {
    const r = sh('nslookup myservice.default.svc.cluster.local', { busyboxVersion: '1.28.4', lookup });
    expect(r.out).toBe('Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\n');
    expect(r.err).toBe("nslookup: can't resolve 'myservice.default.svc.cluster.local'\n");
    expect(r.code).toBe(1);
  });
  it("BIND's nslookup (agnhost's bind-tools): Address <ip>#53, the FQDN the search list found, NXDOMAIN on stdout", () => {
    const bindLookup = (name: string) => (name === 'kubernetes.default' ? { name: 'kubernetes.default', address: '10.96.0.1', server: '10.96.0.10' } : undefined);
    const r = sh('nslookup kubernetes.default', { nslookup: 'bind', lookup: bindLookup });
    expect(r.out).toBe('Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n');
    expect(r.code).toBe(0);
    const miss = sh('nslookup nope', { nslookup: 'bind', lookup: bindLookup });
    expect(miss.out).toBe("Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\n** server can't find nope: NXDOMAIN\n\n");
    expect(miss.code).toBe(1);
  });
  it('busybox 1.36 keeps the newer applet', () => {
    expect(sh('nslookup kubernetes', { busyboxVersion: '1.36.1', lookup }).out).toBe('Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n');
  });
});
