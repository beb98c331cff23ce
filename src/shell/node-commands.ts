/**
 * Inside a kind node: the commands `docker exec NODE ...` runs and the shell `docker exec -it
 * NODE bash` opens. The node is kindest/node (Debian 12: procps-ng 4, GNU coreutils 9,
 * systemd 252, crictl); the commands act on the simulated machine:
 *
 * - `systemctl`, `kill`, `pgrep`, `pkill`, `mv` go through the cluster (so they appear in its
 *   trace); `journalctl [-f] [--since T] [--until T]` reads the node's journal; `ps aux`/`ps -ef` its process table;
 * - `ls`, `cp`, `rm`, `mkdir`, `touch`, `find`, `hostname` work on the node's disk (`cat`, `grep`,
 *   `head`, ... are the shell's filters over the same files; redirections write there too);
 * - `crictl ps|pods|images|logs|exec|stop|rm|version` asks the node's containerd;
 * - `dmesg` reads the host kernel's log (shared by every node); `kubectl` (node-kubectl.ts) and
 *   `curl` (host-curl.ts `makeNodeCurl`) are the node image's own, in the node's network.
 *
 * Relative paths resolve against `$PWD` (`/` when entering, changed by `cd`).
 */
import type { Command, CommandIO, Pending, ShellContext, ShellFiles } from './types';
import type { ClusterAccess, ClusterNodeAccess } from './cluster-access';
import { nodePrompt, sessionOf } from './shell';
import type { ShellEnvironment } from './shell';
import { FsError, normalizePath } from '../engine/node/fs';
import type { FileSystem } from '../engine/node/fs';
import { psAux } from '../engine/node/machine';
import { parseSignal } from '../engine/node/process';
import type { Signal } from '../engine/node/process';
import { processCpuMs } from '../engine/node/systemd';
import { civil } from '../engine/clock';
import { CriError, crictlTable, CONTAINERD_SOCKET } from '../engine/node/runtime';
import { MONTH_ABBR, WEEKDAY_ABBR, normalizeUnitName, parsePriorityRange } from '../engine/node/journal';
import { HOST_UPTIME_AT_START_MS, nodeSystemCommands } from './node-system';
import { extractTimeRange, journalInRange } from './journal-time';
import { nodeKubectl } from './node-kubectl';
import { makeNodeCurl } from './host-curl';
import type { NodeAccess } from './kubectl/node-access';

/** Most a `systemctl stop|start|restart` waits for its job (systemd's default TimeoutStopSec is 90 s). */
const SYSTEMCTL_JOB_WAIT_MS = 90_000;

/** The shell files over a node's disk (absolute paths; the shell resolves relative ones). */
export function nodeFiles(fs: FileSystem): ShellFiles {
  return {
    read: (p) => fs.tryReadFile(p),
    write: (p, content, append) => (append ? fs.appendFile(p, content) : fs.writeFile(p, content)),
    list: (d) => (fs.isDirectory(d) ? fs.readdir(d) : undefined),
    isDir: (p) => fs.isDirectory(p),
  };
}

/** Options of `nodeEnvironment`. */
export interface NodeEnvironmentOptions {
  cluster: ClusterAccess;
  node: ClusterNodeAccess;
  /** The laptop's context (clock, rng, API server) the node's context is derived from. */
  hostCtx: ShellContext;
  /** How the node's kubectl reaches containers (`kubectl logs`/`exec` with admin.conf). */
  nodeAccess?: NodeAccess;
}

/** A fresh shell environment inside a node (as `docker exec` gets one): `$PWD` is `/`. */
export function nodeEnvironment(o: NodeEnvironmentOptions): ShellEnvironment {
  const { node } = o;
  const machine = node.machine;
  const hostname = (): string => machine.fs.tryReadFile('/etc/hostname')?.trim() || node.name;
  const env: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOSTNAME: hostname(),
    HOME: '/root',
    PWD: '/',
    TERM: 'xterm',
    container: 'docker',
  };
  const ctx: ShellContext = { clock: o.hostCtx.clock, rng: o.hostCtx.rng, api: o.hostCtx.api, files: nodeFiles(machine.fs), env, node: node.name };
  return {
    name: node.name,
    commands: {
      ...nodeCommands(o.cluster, node),
      kubectl: nodeKubectl({ cluster: o.cluster, node, ...(o.nodeAccess ? { nodeAccess: o.nodeAccess } : {}) }),
      curl: makeNodeCurl(o.cluster, node),
    },
    ctx,
    prompt: () => nodePrompt(hostname(), env.PWD ?? '/'),
    alive: () => machine.running,
    canChdir: true,
    pid: 1000 + (machine.processes.list().length % 1000),
    help: NODE_HELP,
    paths: NODE_PATHS,
  };
}

const NODE_PATHS: Record<string, string> = {
  systemctl: '/usr/bin/systemctl',
  journalctl: '/usr/bin/journalctl',
  crictl: '/usr/local/bin/crictl',
  ps: '/usr/bin/ps',
  pgrep: '/usr/bin/pgrep',
  pkill: '/usr/bin/pkill',
  kill: '/usr/bin/kill',
  hostname: '/usr/bin/hostname',
  df: '/usr/bin/df',
  free: '/usr/bin/free',
  uptime: '/usr/bin/uptime',
  ip: '/usr/sbin/ip',
  uname: '/usr/bin/uname',
  kubectl: '/usr/bin/kubectl',
  curl: '/usr/bin/curl',
  dmesg: '/usr/bin/dmesg',
};

const NODE_HELP: Record<string, string> = {
  systemctl: 'systemctl status|stop|start|restart|kill|cat|show UNIT   systemd on this node (kubelet, containerd)',
  journalctl: 'journalctl -u UNIT [-n N] [-p PRIORITY] [-f] [--since T] [--until T] [--no-pager]   the node journal',
  ps: 'ps aux | ps -ef                 processes on this node',
  pgrep: 'pgrep [-f] [-x] [-l] [-a] NAME  PIDs of matching processes',
  pkill: 'pkill [-9|-SIG] [-f] NAME       signal matching processes (default TERM)',
  kill: 'kill [-9|-15|-s SIG] PID...     signal a process',
  crictl: 'crictl ps [-a] [-s STATE] | pods | images | logs [-f] ID | exec ID CMD | stop ID | rm ID | version   containers as containerd sees them',
  ls: 'ls [-l] [-a] [PATH]...          list files',
  cp: 'cp [-r] SRC DST                 copy files',
  mv: 'mv SRC DST                      move or rename (e.g. a static pod manifest)',
  rm: 'rm [-r] [-f] PATH...            remove files',
  mkdir: 'mkdir [-p] DIR...               make directories',
  touch: 'touch FILE...                   create files / update times',
  find: 'find [PATH] [-name PATTERN] [-type f|d]   list files below PATH',
  hostname: 'hostname                        the node name',
  whoami: 'whoami                          root',
  date: 'date [+FORMAT]                  the time on the cluster clock',
  df: 'df [-h]                         disk space (the laptop disk every node shares)',
  free: 'free [-m|-h]                    memory of the machine',
  uptime: 'uptime                          how long the host kernel has been up',
  ip: 'ip addr | ip route              eth0 on the kind network, pod veths, kindnet routes',
  uname: 'uname [-a|-r|-n|-m]             the host kernel (every kind node shares it)',
  kubectl: 'kubectl --kubeconfig /etc/kubernetes/admin.conf ...   the node\'s kubectl (no kubeconfig by default)',
  curl: 'curl [-sSkif] URL                the node network: localhost:10248/healthz, :6443, ClusterIPs, pod IPs',
  dmesg: 'dmesg [-T]                      the host kernel log every node shares (OOM kills)',
};

/** What a command says about a failure depends on who runs it: a bash, dash, or docker exec directly. */
function callerOf(ctx: ShellContext): 'bash' | 'dash' | 'exec' {
  return sessionOf(ctx)?.caller ?? 'exec';
}

function abs(ctx: ShellContext, p: string): string {
  return p.startsWith('/') ? normalizePath(p) : normalizePath(`${ctx.env.PWD ?? '/'}/${p}`);
}

const done = (io: CommandIO, r: { stdout: string; stderr: string; exitCode: number }): number => {
  if (r.stdout) io.stdout(r.stdout);
  if (r.stderr) io.stderr(r.stderr);
  return r.exitCode;
};

const fsMessage = (e: unknown): string => (e instanceof FsError ? e.message : (e as Error).message);

/** The commands of one node. */
export function nodeCommands(cluster: ClusterAccess, node: ClusterNodeAccess): Record<string, Command> {
  const m = node.machine;
  const name = node.name;
  const fs = m.fs;
  const clock = m.clock;

  /**
   * systemctl's job verbs wait for the job, as the real client does (unless `--no-block`):
   * `stop` until the unit has stopped, `start`/`restart` until it has started (not through a
   * crash-loop's auto-restart waits).
   */
  const systemctl: Command = (argv, io) => {
    const args = argv.slice(1);
    const r = cluster.systemctl(name, args);
    const code = done(io, r);
    const verb = args.find((a) => !a.startsWith('-'));
    if (code !== 0 || !verb || args.includes('--no-block') || !['stop', 'start', 'restart', 'try-restart', 'reload-or-restart'].includes(verb)) return code;
    const units = args.filter((a) => !a.startsWith('-') && a !== verb).map(normalizeUnitName);
    const busy = verb === 'stop' ? ['stop-sigterm', 'stop-sigkill'] : ['start-pre', 'start', 'start-post', 'stop-sigterm', 'stop-sigkill'];
    const deadline = clock.now() + SYSTEMCTL_JOB_WAIT_MS;
    const waiting = (): boolean => m.running && units.some((u) => busy.includes(m.systemd?.snapshot(u)?.subState ?? 'dead'));
    if (!waiting()) return code;
    return { poll: () => (waiting() && clock.now() < deadline ? undefined : code), cancel() {} };
  };

  const journalctl: Command = (argv, io) => {
    const range = extractTimeRange(argv.slice(1), clock.epochMs + clock.now());
    if (range.error) {
      io.stderr(range.error + '\n');
      return 1;
    }
    const args = range.rest;
    const timed = range.since !== undefined || range.until !== undefined;
    let follow = false;
    let hasLines = false;
    const units: string[] = [];
    let priority: [number, number] | undefined;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '--follow') follow = true;
      else if (a === '--lines' || a.startsWith('--lines=')) hasLines = true;
      else if (a === '--unit') units.push(args[i + 1] ?? '');
      else if (a.startsWith('--unit=')) units.push(a.slice(7));
      else if (a === '--priority' || a.startsWith('--priority=')) priority = parsePriorityRange(a.includes('=') ? a.slice(11) : (args[i + 1] ?? '')) ?? priority;
      else if (/^-[a-zA-Z]/.test(a) && !a.startsWith('--')) {
        for (let k = 1; k < a.length; k++) {
          const c = a[k];
          if (c === 'f') follow = true;
          if (c === 'n') hasLines = true;
          if (c === 'u') units.push(k + 1 < a.length ? a.slice(k + 1) : (args[i + 1] ?? ''));
          if (c === 'p') priority = parsePriorityRange(k + 1 < a.length ? a.slice(k + 1) : (args[i + 1] ?? '')) ?? priority;
          if (c === 'u' || c === 'n' || c === 'o' || c === 'p') break;
        }
      }
    }
    // journalctl -f shows the last 10 lines, then follows (all since --since when given).
    let r = m.journalctl(follow && !hasLines && !timed ? ['-n', '10', ...args] : args);
    if (timed && r.exitCode === 0) r = journalInRange(m.journal, args, range);
    if (!follow || r.exitCode !== 0) return done(io, r);
    if (r.stdout !== '-- No entries --\n') io.stdout(r.stdout);
    const wanted = new Set(units.map(normalizeUnitName));
    const unsubscribe = m.journal.subscribe((e) => {
      if (wanted.size && !((e.unit && wanted.has(e.unit)) || (e.objectUnit && wanted.has(e.objectUnit)))) return;
      if (priority && (e.priority < priority[0] || e.priority > priority[1])) return;
      io.stdout(m.journal.format(e) + '\n');
    });
    let ended = false;
    const p: Pending = {
      poll: () => {
        if (ended) return 130;
        if (!m.running) {
          unsubscribe();
          ended = true;
          return 137;
        }
        return undefined;
      },
      cancel: () => {
        ended = true;
        unsubscribe();
      },
    };
    return p;
  };

  const ps: Command = (argv, io) => {
    const args = argv.slice(1).join(' ');
    if (/^-?a?uxw*$|^-?auxw*$|^aux|^-aux/.test(args.replace(/\s/g, '')) && args !== '') {
      io.stdout(psAux(m as Parameters<typeof psAux>[0]));
      return 0;
    }
    if (/^(-ef|-e -f|-f -e|-eF|-efw*|-A -f|-Af)$/.test(args) || args.replace(/\s/g, '') === '-ef') {
      io.stdout(psEf(node));
      return 0;
    }
    if (args === '' || args === '-e' || args === '-A' || args === 'ax' || args === '-ax') {
      io.stdout(psShort(node, args !== ''));
      return 0;
    }
    io.stderr(`error: unsupported option (the playground's ps knows aux, -ef, -e)\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n`);
    return 1;
  };

  const pgrep: Command = (argv, io) => {
    const o = parseProcOptions(argv, 'pgrep', io);
    if (typeof o === 'number') return o;
    let pids = cluster.pgrep(name, o.pattern, { full: o.full, exact: o.exact });
    if (o.newest && pids.length) pids = [pids[pids.length - 1]];
    if (o.oldest && pids.length) pids = [pids[0]];
    if (o.count) io.stdout(`${pids.length}\n`);
    else
      for (const pid of pids) {
        const p = m.processes.get(pid);
        const suffix = o.list && p ? ` ${m.comm(p)}` : o.all && p ? ` ${[p.command, ...p.args].join(' ')}` : '';
        io.stdout(`${pid}${suffix}\n`);
      }
    return pids.length ? 0 : 1;
  };

  const pkill: Command = (argv, io) => {
    const o = parseProcOptions(argv, 'pkill', io);
    if (typeof o === 'number') return o;
    const victims = o.echo ? cluster.pgrep(name, o.pattern, { full: o.full, exact: o.exact }).map((pid) => ({ pid, comm: m.processes.get(pid) ? m.comm(m.processes.get(pid)!) : '' })) : [];
    const n = cluster.pkill(name, o.pattern, o.signal, { full: o.full, exact: o.exact });
    for (const v of victims) io.stdout(`${v.comm} killed (pid ${v.pid})\n`);
    return n ? 0 : 1;
  };

  const kill: Command = (argv, io, ctx) => {
    const caller = callerOf(ctx);
    const prefix = caller === 'bash' ? 'bash: kill: ' : caller === 'dash' ? 'sh: 1: kill: ' : 'kill: ';
    let sig: Signal = 'SIGTERM';
    const pids: string[] = [];
    const args = argv.slice(1);
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-l' || a === '-L' || a === '--list') {
        io.stdout(caller === 'bash' ? ' 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1\n11) SIGSEGV\t12) SIGUSR2\t13) SIGPIPE\t14) SIGALRM\t15) SIGTERM\n' : 'HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH POLL PWR SYS\n');
        return 0;
      }
      if (a === '-s' || a === '-n' || a === '--signal') {
        const v = args[++i];
        const s = v === undefined ? undefined : parseSignal(v);
        if (!s) {
          io.stderr(`${prefix}${v ?? ''}: invalid signal specification\n`);
          return 1;
        }
        sig = s;
        continue;
      }
      if (a === '--') {
        pids.push(...args.slice(i + 1));
        break;
      }
      if (/^-./.test(a) && pids.length === 0) {
        const s = parseSignal(a);
        if (!s) {
          io.stderr(caller === 'bash' ? `${prefix}${a.slice(1)}: invalid signal specification\n` : caller === 'dash' ? `${prefix}invalid signal number or name: ${a.slice(1)}\n` : `kill: unknown signal: ${a}\n`);
          return 1;
        }
        sig = s;
        continue;
      }
      pids.push(a);
    }
    if (pids.length === 0) {
      io.stderr(
        caller === 'bash'
          ? 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n'
          : caller === 'dash'
            ? 'sh: 1: kill: Usage: kill [-s sigspec | -signum | -sigspec] [pid | job]... or\nkill -l [exitstatus]\n'
            : '\nUsage:\n kill [options] <pid> [...]\n\nOptions:\n <pid> [...]            send signal to every <pid> listed\n -<signal>, -s, --signal <signal>\n                        specify the <signal> to be sent\n -l, --list=[<signal>]  list all signal names, or convert one to a name\n -L, --table            list all signal names in a nice table\n\n -h, --help     display this help and exit\n -V, --version  output version information and exit\n\nFor more details see kill(1).\n',
      );
      return caller === 'exec' ? 1 : 2;
    }
    let status = 0;
    for (const p of pids) {
      if (!/^-?\d+$/.test(p)) {
        io.stderr(caller === 'bash' ? `${prefix}${p}: arguments must be process or job IDs\n` : caller === 'dash' ? `${prefix}Illegal number: ${p}\n` : `kill: failed to parse argument: '${p}'\n`);
        status = 1;
        continue;
      }
      const r = cluster.kill(name, Number(p), sig);
      if (r.exitCode !== 0) {
        const noSuch = /No such process/.test(r.stderr);
        io.stderr(noSuch ? (caller === 'bash' ? `${prefix}(${p}) - No such process\n` : caller === 'dash' ? `${prefix}No such process\n` : `kill: (${p}): No such process\n`) : r.stderr);
        status = 1;
      }
    }
    return status;
  };

  const ls: Command = (argv, io, ctx) => {
    let long = false;
    let all = false;
    const paths: string[] = [];
    for (const a of argv.slice(1)) {
      if (/^-[laA1hFtrSd]+$/.test(a)) {
        if (a.includes('l')) long = true;
        if (a.includes('a') || a.includes('A')) all = true;
      } else if (a === '--all') all = true;
      else if (a.startsWith('-') && a !== '-') {
        io.stderr(`ls: invalid option -- '${a.replace(/^-+/, '')[0]}'\nTry 'ls --help' for more information.\n`);
        return 2;
      } else paths.push(a);
    }
    const targets = (paths.length ? paths : [ctx.env.PWD ?? '/']).map((p) => (p.startsWith('/') ? p : abs(ctx, p)));
    // GNU ls stats every operand before it lists anything (ls.c: gobble_file per argument, then
    // print_current_files, then the directories): a missing operand's error comes first.
    const r = fs.lsCommand(targets, { long, all }, clock.epochMs + clock.now(), clock.epochMs);
    if (r.stderr) io.stderr(r.stderr);
    if (r.stdout) io.stdout(r.stdout);
    return r.exitCode;
  };

  const mv: Command = (argv, io, ctx) => {
    const args = argv.slice(1).filter((a) => !/^-[fivnT]+$/.test(a));
    if (args.length < 2) {
      io.stderr(args.length === 0 ? "mv: missing file operand\nTry 'mv --help' for more information.\n" : `mv: missing destination file operand after '${args[0]}'\nTry 'mv --help' for more information.\n`);
      return 1;
    }
    const dst = abs(ctx, args[args.length - 1]);
    const srcs = args.slice(0, -1);
    if (srcs.length > 1 && !fs.isDirectory(dst)) {
      io.stderr(`mv: target '${args[args.length - 1]}': Not a directory\n`);
      return 1;
    }
    let status = 0;
    for (const s of srcs) {
      const r = cluster.mv(name, abs(ctx, s), dst + (args[args.length - 1].endsWith('/') && !dst.endsWith('/') ? '/' : ''));
      if (r.exitCode !== 0) {
        io.stderr(r.stderr);
        status = 1;
      }
    }
    return status;
  };

  const rm: Command = (argv, io, ctx) => {
    let recursive = false;
    let force = false;
    const paths: string[] = [];
    for (const a of argv.slice(1)) {
      if (/^-[rRfdiv]+$/.test(a)) {
        if (/[rR]/.test(a)) recursive = true;
        if (a.includes('f')) force = true;
      } else if (a === '--recursive') recursive = true;
      else if (a === '--force') force = true;
      else paths.push(a);
    }
    if (paths.length === 0) {
      if (force) return 0;
      io.stderr("rm: missing operand\nTry 'rm --help' for more information.\n");
      return 1;
    }
    let status = 0;
    for (const p of paths) {
      try {
        fs.rm(abs(ctx, p), { recursive, force });
      } catch (e) {
        io.stderr(fsMessage(e).replace(abs(ctx, p), p) + '\n');
        status = 1;
      }
    }
    return status;
  };

  const cp: Command = (argv, io, ctx) => {
    let recursive = false;
    // -i (kubeadm's `cp -i /etc/kubernetes/admin.conf $HOME/.kube/config`) asks before
    // overwriting; with no answer to read (docker exec without -i, a script) the answer is no,
    // and coreutils 9.1 exits 0. -n skips existing files without asking.
    let interactive = false;
    let noClobber = false;
    const args: string[] = [];
    for (const a of argv.slice(1)) {
      if (/^-[rRapfvin]+$/.test(a)) {
        if (/[rRa]/.test(a)) recursive = true;
        // the last of -i and -n wins (cp.c: both set x.interactive; -f does not touch it)
        for (const c of a.slice(1)) {
          if (c === 'i' || c === 'n') {
            interactive = c === 'i';
            noClobber = c === 'n';
          }
        }
      } else if (a === '--interactive') interactive = true;
      else if (a === '--no-clobber') noClobber = true;
      else if (a === '--recursive') recursive = true;
      else if (a === '--force' || a === '--verbose' || a === '--archive' || a === '--preserve') recursive ||= a === '--archive';
      else args.push(a);
    }
    if (args.length < 2) {
      io.stderr(args.length === 0 ? "cp: missing file operand\nTry 'cp --help' for more information.\n" : `cp: missing destination file operand after '${args[0]}'\nTry 'cp --help' for more information.\n`);
      return 1;
    }
    const dst = abs(ctx, args[args.length - 1]);
    let status = 0;
    for (const s of args.slice(0, -1)) {
      const target = fs.isDirectory(dst) ? normalizePath(`${dst}/${abs(ctx, s).split('/').pop() ?? ''}`) : dst;
      if ((interactive || noClobber) && fs.exists(target) && !fs.isDirectory(target) && fs.exists(abs(ctx, s))) {
        const shown = target === dst ? args[args.length - 1] : `${args[args.length - 1].replace(/\/+$/, '')}${target.slice(dst.length)}`;
        if (interactive) io.stderr(`cp: overwrite '${shown}'? `);
        continue;
      }
      try {
        fs.cp(abs(ctx, s), dst, { recursive });
      } catch (e) {
        io.stderr(fsMessage(e) + '\n');
        status = 1;
      }
    }
    return status;
  };

  const mkdir: Command = (argv, io, ctx) => {
    let parents = false;
    const paths: string[] = [];
    for (const a of argv.slice(1)) {
      if (a === '-p' || a === '--parents') parents = true;
      else if (/^-[pv]+$/.test(a)) parents = parents || a.includes('p');
      else paths.push(a);
    }
    if (paths.length === 0) {
      io.stderr("mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
      return 1;
    }
    let status = 0;
    for (const p of paths) {
      try {
        fs.mkdir(abs(ctx, p), { parents });
      } catch (e) {
        io.stderr(fsMessage(e).replace(`'${abs(ctx, p)}'`, `'${p}'`) + '\n');
        status = 1;
      }
    }
    return status;
  };

  const touch: Command = (argv, io, ctx) => {
    const paths = argv.slice(1).filter((a) => !a.startsWith('-'));
    if (paths.length === 0) {
      io.stderr("touch: missing file operand\nTry 'touch --help' for more information.\n");
      return 1;
    }
    let status = 0;
    for (const p of paths) {
      try {
        fs.touch(abs(ctx, p));
      } catch (e) {
        io.stderr(fsMessage(e) + '\n');
        status = 1;
      }
    }
    return status;
  };

  const find: Command = (argv, io, ctx) => {
    const args = argv.slice(1);
    const roots: string[] = [];
    let i = 0;
    for (; i < args.length && !args[i].startsWith('-'); i++) roots.push(args[i]);
    let nameRe: RegExp | undefined;
    let type: string | undefined;
    for (; i < args.length; i++) {
      const a = args[i];
      if (a === '-name' || a === '-iname') {
        const pat = args[++i] ?? '';
        nameRe = new RegExp('^' + pat.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', a === '-iname' ? 'i' : '');
      } else if (a === '-type') type = args[++i];
      else if (a === '-maxdepth' || a === '-mindepth') i++;
      else {
        io.stderr(`find: unknown predicate \`${a}'\n`);
        return 1;
      }
    }
    let status = 0;
    for (const r of roots.length ? roots : ['.']) {
      const base = abs(ctx, r);
      let list: string[];
      try {
        list = fs.find(base);
      } catch (e) {
        io.stderr(fsMessage(e).replace(`'${base}'`, `'${r}'`) + '\n');
        status = 1;
        continue;
      }
      for (const p of list) {
        const shown = r.startsWith('/') ? p : r + p.slice(base === '/' ? 0 : base.length);
        const leaf = p.slice(p.lastIndexOf('/') + 1);
        if (nameRe && !nameRe.test(leaf)) continue;
        if (type === 'f' && !fs.isFile(p)) continue;
        if (type === 'd' && !fs.isDirectory(p)) continue;
        io.stdout(shown + '\n');
      }
    }
    return status;
  };

  const hostname: Command = (_argv, io) => {
    io.stdout((fs.tryReadFile('/etc/hostname')?.trim() || name) + '\n');
    return 0;
  };

  const whoami: Command = (_argv, io) => {
    io.stdout('root\n');
    return 0;
  };

  const crictl: Command = (argv, io) => crictlCommand(node, argv, io);

  /**
   * util-linux `dmesg [-T]`: the host kernel's ring buffer, which every kind node shares (a node
   * is a privileged container on one kernel): the kernel lines every node's runtime reported
   * (OOM kills), oldest first, stamped with the seconds since the host booted (`[%5lu.%06lu]`)
   * or, with `-T`, ctime-style. The host's own boot and network messages are not modelled.
   */
  const dmesg: Command = (argv, io) => {
    const human = argv.slice(1).some((a) => a === '-T' || a === '--ctime' || (/^-[a-zA-Z]+$/.test(a) && a.includes('T')));
    const bad = argv.slice(1).find((a) => a.startsWith('-') && !/^-[TLHx]+$/.test(a) && !['--ctime', '--color=never', '--nopager'].includes(a));
    if (bad) {
      io.stderr(`dmesg: unrecognized option '${bad}'\nTry 'dmesg --help' for more information.\n`);
      return 1;
    }
    const lines = cluster.nodes
      .flatMap((n) => n.machine.journal.entries().filter((e) => e.identifier === 'kernel'))
      .sort((a, b) => a.at - b.at);
    for (const e of lines) {
      if (human) {
        const c = civil(clock.epochMs + e.at);
        const day = String(c.day).padStart(2, ' ');
        io.stdout(`[${WEEKDAY_ABBR[c.weekday]} ${MONTH_ABBR[c.month - 1]} ${day} ${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)} ${c.year}] ${e.message}\n`);
      } else {
        const us = (HOST_UPTIME_AT_START_MS + e.at) * 1000;
        io.stdout(`[${String(Math.floor(us / 1e6)).padStart(5, ' ')}.${String(us % 1e6).padStart(6, '0')}] ${e.message}\n`);
      }
    }
    return 0;
  };

  return { systemctl, journalctl, ps, pgrep, pkill, kill, ls, mv, rm, cp, mkdir, touch, find, hostname, whoami, crictl, dmesg, ...nodeSystemCommands(node) };
}

interface ProcOptions {
  pattern: string;
  full: boolean;
  exact: boolean;
  list: boolean;
  all: boolean;
  count: boolean;
  newest: boolean;
  oldest: boolean;
  echo: boolean;
  signal: Signal;
}

/** pgrep/pkill options (procps-ng 4). Returns the exit status on a usage error. */
function parseProcOptions(argv: string[], cmd: 'pgrep' | 'pkill', io: CommandIO): ProcOptions | number {
  const o: ProcOptions = { pattern: '', full: false, exact: false, list: false, all: false, count: false, newest: false, oldest: false, echo: false, signal: 'SIGTERM' };
  const patterns: string[] = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--signal') {
      const s = parseSignal(args[++i] ?? '');
      if (!s) {
        io.stderr(`${cmd}: Unknown signal "${args[i] ?? ''}".\n`);
        return 2;
      }
      o.signal = s;
      continue;
    }
    if (a === '--full') o.full = true;
    else if (a === '--exact') o.exact = true;
    else if (a === '--count') o.count = true;
    else if (a === '--list-name') o.list = true;
    else if (a === '--list-full') o.all = true;
    else if (a === '--newest') o.newest = true;
    else if (a === '--oldest') o.oldest = true;
    else if (a === '--echo') o.echo = true;
    else if (/^-/.test(a) && a.length > 1) {
      // A signal first (pkill -9, pkill -KILL), else short options.
      if (cmd === 'pkill' && parseSignal(a) && !/^-[fxlacnoe]+$/.test(a)) {
        o.signal = parseSignal(a)!;
        continue;
      }
      for (const c of a.slice(1)) {
        if (c === 'f') o.full = true;
        else if (c === 'x') o.exact = true;
        else if (c === 'l' && cmd === 'pgrep') o.list = true;
        else if (c === 'a' && cmd === 'pgrep') o.all = true;
        else if (c === 'c') o.count = true;
        else if (c === 'n') o.newest = true;
        else if (c === 'o') o.oldest = true;
        else if (c === 'e' && cmd === 'pkill') o.echo = true;
        else {
          io.stderr(`${cmd}: invalid option -- '${c}'\n\nUsage:\n ${cmd} [options] <pattern>\n\nFor more details see ${cmd}(1).\n`);
          return 2;
        }
      }
    } else patterns.push(a);
  }
  if (patterns.length === 0) {
    io.stderr(`${cmd}: no matching criteria specified\nTry \`${cmd} --help' for more information.\n`);
    return 2;
  }
  if (patterns.length > 1) {
    io.stderr(`${cmd}: only one pattern can be provided\nTry \`${cmd} --help' for more information.\n`);
    return 2;
  }
  o.pattern = patterns[0];
  return o;
}

const p2 = (n: number): string => String(n).padStart(2, '0');

function startCol(epochMs: number, startedAt: number, now: number): string {
  const c = civil(epochMs + startedAt);
  if (now - startedAt < 24 * 3600 * 1000) return `${p2(c.hour)}:${p2(c.minute)}`;
  return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][c.month - 1]}${p2(c.day)}`;
}

function cpuTime(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${p2(Math.floor(s / 3600))}:${p2(Math.floor((s % 3600) / 60))}:${p2(s % 60)}`;
}

/** `ps -ef` (procps-ng 4): UID PID PPID C STIME TTY TIME CMD, then ps itself. */
function psEf(node: ClusterNodeAccess): string {
  const m = node.machine;
  if (!m.running) return '';
  const now = m.clock.now();
  const procs = m.processes.list();
  let psPid = 0;
  m.processes.spawn({ command: 'ps', args: ['-ef'], ppid: 0, program: { start: (ctx) => ((psPid = ctx.pid), ctx.exit(0)) } });
  const row = (c: string[]): string => `${c[0].padEnd(8)} ${c[1].padStart(7)} ${c[2].padStart(7)} ${c[3].padStart(2)} ${c[4].padEnd(5)} ${c[5].padEnd(8)} ${c[6].padStart(8)} ${c[7]}`;
  const lines = [row(['UID', 'PID', 'PPID', 'C', 'STIME', 'TTY', 'TIME', 'CMD'])];
  for (const p of procs) {
    const cpu = processCpuMs(p, now);
    const elapsed = now - p.startedAt;
    const c = elapsed > 0 ? Math.floor((cpu * 100) / elapsed) : 0;
    lines.push(row([p.user.length > 8 ? p.user.slice(0, 7) + '+' : p.user, String(p.pid), String(p.ppid), String(c), startCol(m.clock.epochMs, p.startedAt, now), '?', cpuTime(cpu), [p.command, ...p.args].join(' ')]));
  }
  lines.push(row(['root', String(psPid), '0', '0', startCol(m.clock.epochMs, now, now), '?', '00:00:00', 'ps -ef']));
  return lines.join('\n') + '\n';
}

/** `ps` / `ps -e`: PID TTY TIME CMD. Without -e: only the exec session (ps itself). */
function psShort(node: ClusterNodeAccess, every: boolean): string {
  const m = node.machine;
  if (!m.running) return '';
  const now = m.clock.now();
  const procs = every ? m.processes.list() : [];
  let psPid = 0;
  m.processes.spawn({ command: 'ps', args: every ? ['-e'] : [], ppid: 0, program: { start: (ctx) => ((psPid = ctx.pid), ctx.exit(0)) } });
  const row = (c: string[]): string => `${c[0].padStart(7)} ${c[1].padEnd(8)} ${c[2].padStart(8)} ${c[3]}`;
  const lines = [row(['PID', 'TTY', 'TIME', 'CMD'])];
  for (const p of procs) lines.push(row([String(p.pid), '?', cpuTime(processCpuMs(p, now)), m.comm(p).slice(0, 15)]));
  lines.push(row([String(psPid), '?', '00:00:00', 'ps']));
  return lines.join('\n') + '\n';
}

/** How often `crictl logs -f` reads the container's log file again (virtual ms). */
const CRICTL_FOLLOW_POLL_MS = 1000;

/**
 * `crictl logs -f`: the lines the container writes after `lastLine` (a CRI log line, with its
 * timestamp), read every `CRICTL_FOLLOW_POLL_MS`, until the container stops running
 * (cri-tools' ReadLogs with Follow, which the kubelet shares: it watches the file and stops when
 * the container is no longer running). Exit 0 then; Ctrl-C ends it earlier.
 */
function followCriLog(rt: ClusterNodeAccess['containerd'], id: string, lastLine: string | undefined, print: (l: string) => void, clock: ClusterNodeAccess['machine']['clock']): Pending {
  let last = clock.now();
  let seen = lastLine;
  let done = false;
  const more = (): void => {
    const all = rt.containerLogs(id, { format: 'cri' });
    const at = seen === undefined ? -1 : all.lastIndexOf(seen);
    all.slice(at + 1).forEach(print);
    if (all.length > 0) seen = all[all.length - 1];
  };
  return {
    poll: () => {
      if (done) return 130;
      if (clock.now() < last + CRICTL_FOLLOW_POLL_MS) return undefined;
      last = clock.now();
      try {
        more();
        return rt.containerStatus(id).state === 'CONTAINER_RUNNING' ? undefined : 0;
      } catch {
        return 0; // containerd went away or the container was removed: the file is closed
      }
    },
    cancel: () => {
      done = true;
    },
    wakeAt: () => last + CRICTL_FOLLOW_POLL_MS,
  };
}

/** The crictl commands the playground answers (with `image`/`img`, the aliases of `images`). */
const CRICTL_COMMANDS = ['ps', 'pods', 'images', 'image', 'img', 'logs', 'exec', 'stop', 'rm', 'version'];

/**
 * `crictl ps [-a] [-q] [--name RE] [-s|--state STATE]`, `crictl pods [-q] [--name RE]`, `crictl images [-q]`,
 * `crictl logs [-t] [-f] [--tail N] CONTAINER-ID` (cri-tools cmd/crictl/logs.go: ContainerStatus, then
 * the log file read as the kubelet reads it, stdout lines to stdout and stderr lines to stderr),
 * `crictl exec` (crictlExec), `crictl stop`, `crictl rm`, `crictl version`.
 */
function crictlCommand(node: ClusterNodeAccess, argv: string[], io: CommandIO): number | Pending {
  const rt = node.containerd;
  const clock = node.machine.clock;
  const sub = argv[1];
  const args = argv.slice(2);
  const fatal = (msg: string): number => {
    const t = civil(clock.epochMs + clock.now());
    const ts = `${t.year}-${p2(t.month)}-${p2(t.day)}T${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)}Z`;
    io.stderr(`time="${ts}" level=fatal msg=${JSON.stringify(msg)}\n`);
    return 1;
  };
  const unavailable = (e: CriError): number =>
    fatal(`validate service connection: validate CRI v1 ${sub === 'images' ? 'image' : 'runtime'} API for endpoint "unix://${CONTAINERD_SOCKET}": ${e.message}`);
  // urfave/cli finds the command before it parses the command's flags: a command the playground
  // lacks is reported as such, not as a flag error of some other command (`crictl exec -it ...`).
  if (sub !== undefined && !CRICTL_COMMANDS.includes(sub)) {
    return fatal(`command "${sub}" is not available in the playground (crictl ps, pods, images, logs, exec, stop, rm, version)`);
  }
  let quiet = false;
  let all = false;
  let nameRe: RegExp | undefined;
  let timestamps = false;
  let follow = false;
  let tail = -1;
  let state: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (sub === 'logs' && (a === '-t' || a === '--timestamps')) timestamps = true;
    else if (sub === 'logs' && (a === '-f' || a === '--follow')) follow = true;
    else if (sub === 'logs' && /^-(ft|tf)$/.test(a)) follow = timestamps = true;
    else if (sub === 'ps' && (a === '-s' || a === '--state' || a.startsWith('--state='))) {
      state = (a.startsWith('--state=') ? a.slice(8) : args[++i]) ?? '';
      // cmd/crictl/container.go: the state names, case-insensitive, are those of CRI's ContainerState.
      const known: Record<string, string> = { created: 'Created', running: 'Running', exited: 'Exited', unknown: 'Unknown' };
      const label = known[state.toLowerCase()];
      if (!label) return fatal('--state should be one of created, running, exited or unknown');
      state = label;
    }
    else if (sub === 'stop' || sub === 'rm' || sub === 'exec') positional.push(a); // their own flags: crictlStop / crictlRm / crictlExec
    else if (sub === 'logs' && (a === '--tail' || a.startsWith('--tail='))) {
      const v = a === '--tail' ? args[++i] : a.slice('--tail='.length);
      if (v === undefined || !/^-?\d+$/.test(v)) return fatal(`invalid value "${v ?? ''}" for flag -tail: parse error`);
      tail = Number(v);
    } else if (!a.startsWith('-')) positional.push(a);
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-a' || a === '--all') all = true;
    else if (a === '--name') nameRe = new RegExp(args[++i] ?? '');
    else if (a.startsWith('--name=')) nameRe = new RegExp(a.slice(7));
    else if (a === '-aq' || a === '-qa') quiet = all = true;
    else if (a.startsWith('-')) return fatal(`flag provided but not defined: ${a}`);
  }
  try {
    switch (sub) {
      case 'ps': {
        // --state selects among all containers (it overrides the default running-only filter).
        const cri = state ? `CONTAINER_${state.toUpperCase()}` : undefined;
        const rows = rt.crictlPs({ all: all || state !== undefined }).filter((r) => (!nameRe || nameRe.test(r.name)) && (!state || r.state === state));
        if (quiet) {
          for (const r of rt.listContainers(all || state ? {} : { state: 'CONTAINER_RUNNING' }).filter((c) => (!nameRe || nameRe.test(c.metadata.name)) && (!cri || c.state === cri))) io.stdout(r.id + '\n');
          return 0;
        }
        io.stdout(crictlTable([['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'], ...rows.map((r) => [r.container, r.image, r.created, r.state, r.name, r.attempt, r.podId, r.pod, r.namespace])]));
        return 0;
      }
      case 'pods': {
        const rows = rt.crictlPods().filter((r) => !nameRe || nameRe.test(r.name));
        if (quiet) {
          for (const s of rt.listPodSandboxes().filter((x) => !nameRe || nameRe.test(x.metadata.name))) io.stdout(s.id + '\n');
          return 0;
        }
        io.stdout(crictlTable([['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME'], ...rows.map((r) => [r.podId, r.created, r.state, r.name, r.namespace, r.attempt, r.runtime])]));
        return 0;
      }
      case 'images':
      case 'image':
      case 'img': {
        if (quiet) {
          for (const i of rt.listImages()) io.stdout(i.id + '\n');
          return 0;
        }
        io.stdout(crictlTable([['IMAGE', 'TAG', 'IMAGE ID', 'SIZE'], ...rt.crictlImages().map((r) => [r.image, r.tag, r.imageId, r.size])]));
        return 0;
      }
      case 'logs': {
        const id = positional[0];
        if (!id) return fatal('ID cannot be empty');
        // ContainerStatus first (a CRI call: NotFound, Unavailable), then the file.
        const st = rt.containerStatus(id);
        const print = (l: string): void => {
          const m = /^(\S+) (stdout|stderr) [FP] (.*)$/s.exec(l);
          if (!m) return;
          const text = (timestamps ? `${m[1]} ` : '') + m[3] + '\n';
          if (m[2] === 'stderr') io.stderr(text);
          else io.stdout(text);
        };
        const lines = rt.containerLogs(st.id, { format: 'cri', ...(tail >= 0 ? { tailLines: tail } : {}) });
        lines.forEach(print);
        if (!follow || st.state !== 'CONTAINER_RUNNING') return 0;
        return followCriLog(rt, st.id, lines[lines.length - 1], print, clock);
      }
      case 'exec':
        return crictlExec(rt, args, io, fatal);
      case 'stop':
        return crictlStop(rt, args, io, fatal);
      case 'rm':
        return crictlRm(rt, args, io, fatal);
      case 'version': {
        const v = rt.version();
        io.stdout(`Version:  ${v.version}\nRuntimeName:  ${v.runtimeName}\nRuntimeVersion:  ${v.runtimeVersion}\nRuntimeApiVersion:  ${v.runtimeApiVersion}\n`);
        return 0;
      }
      case undefined:
        io.stdout('NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options]\n\nCOMMANDS (in the playground):\n   exec     Run a command in a running container\n   images   List images\n   logs     Fetch the logs of a container\n   pods     List pods\n   ps       List containers\n   rm       Remove one or more containers\n   stop     Stop one or more running containers\n   version  Display runtime version information\n');
        return 0;
      default:
        return fatal(`command "${sub}" is not available in the playground (crictl ps, pods, images, logs, exec, stop, rm, version)`);
    }
  } catch (e) {
    if (e instanceof CriError) return e.code === 'Unavailable' ? unavailable(e) : fatal(e.message);
    throw e;
  }
}


/**
 * `crictl exec [-s] [-i] [-t] [--timeout N] CONTAINER-ID COMMAND [ARG...]` (cri-tools
 * cmd/crictl/exec.go): the command runs in the container (the CRI's Exec and its stream, or
 * ExecSync with `-s`) while virtual time passes; its stdout and stderr are crictl's (with `-t`
 * one stream). A non-zero exit is crictl's error `execing command in container ID: command
 * terminated with exit code N` (client-go remotecommand's exit error), exit status 1; with `-s`
 * the output is printed after the command ends, each stream followed by a newline (fmt.Println),
 * and a non-zero exit reads `execing command in container ID synchronously: command 'CMD' exited
 * with N: STDERR` (cri-api's remote ExecSync error). The container: an ID or unique prefix
 * (containerd's truncindex). An interactive shell (`-it ID sh`) is not simulated here: `kubectl
 * exec -it` is.
 */
function crictlExec(rt: ClusterNodeAccess['containerd'], args: string[], io: CommandIO, fatal: (msg: string) => number): number | Pending {
  let sync = false;
  let tty = false;
  let stdin = false;
  let timeoutS = 0;
  const rest: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-') break;
    if (a === '--') {
      i++;
      break;
    }
    const t = /^--timeout(?:=(.*))?$/.exec(a);
    if (t) {
      const v = t[1] ?? args[++i];
      if (v === undefined || !/^-?\d+$/.test(v)) return fatal(`invalid value "${v ?? ''}" for flag -timeout: parse error`);
      timeoutS = Number(v);
    } else if (a === '--sync') sync = true;
    else if (a === '--tty') tty = true;
    else if (a === '--interactive') stdin = true;
    else if (/^-[sti]+$/.test(a)) {
      // urfave/cli short-option handling (UseShortOptionHandling): `-it`, `-si`.
      if (a.includes('s')) sync = true;
      if (a.includes('t')) tty = true;
      if (a.includes('i')) stdin = true;
    } else return fatal(`flag provided but not defined: ${a}`);
  }
  rest.push(...args.slice(i));
  if (rest.length < 2) {
    io.stdout('NAME:\n   crictl exec - Run a command in a running container\n\nUSAGE:\n   crictl exec [command options] [CONTAINER-ID] COMMAND [ARG...]\n');
    return 0;
  }
  const [id, ...cmd] = rest;
  if (tty && stdin && SESSION_SHELL_NAMES.has(cmd[0].split('/').pop()!)) {
    return fatal(`execing command in container ${id}: an interactive shell through crictl exec is not available in the playground (use kubectl exec -it POD -- ${cmd[0]})`);
  }
  if (tty && !stdin) return fatal(`execing command in container ${id}: tty=true must be specified with interactive=true`);
  let pending: ReturnType<typeof rt.exec>;
  try {
    pending = rt.exec(id, cmd, timeoutS > 0 ? { timeoutMs: timeoutS * 1000 } : {});
  } catch (e) {
    // containerd down: the outer handler's `validate service connection` (crictl dials first).
    if (e instanceof CriError && e.code !== 'Unavailable') return fatal(`execing command in container ${id}${sync ? ' synchronously' : ''}: ${e.message}`);
    throw e;
  }
  const finish = (r: NonNullable<typeof pending.value>): number => {
    if (r.error) {
      // The stream's error as kube's streaming server reports it (what kubectl exec shows too).
      const desc = r.error.desc;
      if (sync) return fatal(`execing command in container ${id} synchronously: ${r.error.message}`);
      return fatal(`execing command in container ${id}: ${desc.startsWith('failed to exec in container: container is in') ? `rpc error: code = Unknown desc = ${desc.slice('failed to exec in container: '.length)}` : `Internal error occurred: error executing command in container: ${desc}`}`);
    }
    if (r.timedOut) return fatal(`execing command in container ${id}${sync ? ' synchronously' : ''}: command ${cmd.join(' ')} timed out`);
    if (sync) {
      if (r.exitCode !== 0) return fatal(`execing command in container ${id} synchronously: command '${cmd.join(' ')}' exited with ${r.exitCode}: ${r.stderr}`);
      io.stdout(`${r.stdout}\n${r.stderr}\n`);
      return 0;
    }
    io.stdout(r.stdout);
    if (tty) io.stdout(r.stderr);
    else io.stderr(r.stderr);
    return r.exitCode === 0 ? 0 : fatal(`execing command in container ${id}: command terminated with exit code ${r.exitCode}`);
  };
  if (pending.settled && pending.value) return finish(pending.value);
  let status: number | undefined;
  return {
    poll: () => (status ??= pending.settled && pending.value ? finish(pending.value) : undefined),
    cancel: () => {
      status = 130;
    },
  };
}

/** Shells an interactive `crictl exec -it` would attach. */
const SESSION_SHELL_NAMES: ReadonlySet<string> = new Set(['sh', 'bash', 'ash', 'dash']);

/**
 * `crictl stop [-t SECONDS] [-a] CONTAINER-ID...` (cri-tools cmd/crictl/container.go
 * stopContainerCommand): CRI StopContainer for each ID in turn (the image's stop signal, SIGKILL
 * after the timeout; the default timeout 0 kills at once), printing each ID once it has stopped.
 * `-a` stops every running container ("No running containers found." when there is none).
 * Errors: `stopping the container "ID": rpc error: code = NotFound desc = ...`, exit 1. The
 * kubelet notices the exit through its PLEG and restarts the container as its restartPolicy says.
 */
function crictlStop(rt: ClusterNodeAccess['containerd'], args: string[], io: CommandIO, fatal: (msg: string) => number): number | Pending {
  let timeoutS = 0;
  let all = false;
  const ids: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^(?:--timeout|-t)(?:=(.*))?$/.exec(a);
    if (m) {
      const v = m[1] ?? args[++i];
      if (v === undefined || !/^-?\d+$/.test(v)) return fatal(`invalid value "${v ?? ''}" for flag -timeout: parse error`);
      timeoutS = Number(v);
    } else if (a === '-a' || a === '--all') all = true;
    else if (a.startsWith('-')) return fatal(`flag provided but not defined: ${a}`);
    else ids.push(a);
  }
  if (all && ids.length) return fatal('cannot specify CONTAINER-ID(s) when using --all');
  if (all) {
    for (const c of rt.listContainers({ state: 'CONTAINER_RUNNING' })) ids.push(c.id);
    if (!ids.length) {
      io.stdout('No running containers found.\n');
      return 0;
    }
  } else if (!ids.length) return fatal('you must specify at least one CONTAINER-ID or use --all');
  // One at a time, as crictl does: the next StopContainer is sent when the previous returned.
  let next = 0;
  let current: { settled: boolean } | undefined;
  const step = (): number | undefined => {
    for (;;) {
      if (current && !current.settled) return undefined;
      if (current) io.stdout(ids[next - 1] + '\n');
      current = undefined;
      if (next >= ids.length) return 0;
      const id = ids[next++];
      try {
        current = rt.stopContainer(id, timeoutS * 1000);
      } catch (e) {
        if (e instanceof CriError) return fatal(`stopping the container ${JSON.stringify(id)}: ${e.message}`);
        throw e;
      }
    }
  };
  let status = step();
  if (status !== undefined) return status;
  return {
    poll: () => (status ??= step()),
    cancel: () => {
      status = 130;
    },
  };
}

/**
 * `crictl rm [-f] [-a] CONTAINER-ID...` (cri-tools cmd/crictl/container.go removeContainerCommand):
 * ContainerStatus, then RemoveContainer; a running container is refused (`container "ID" is
 * running, please stop it first`) unless `-f` stops it first (timeout 0). Prints each removed ID.
 */
function crictlRm(rt: ClusterNodeAccess['containerd'], args: string[], io: CommandIO, fatal: (msg: string) => number): number {
  let force = false;
  let all = false;
  const ids: string[] = [];
  for (const a of args) {
    if (/^-[fka]+$/.test(a)) {
      if (a.includes('f')) force = true;
      if (a.includes('a')) all = true;
    } else if (a === '--force') force = true;
    else if (a === '--all') all = true;
    else if (a === '--keep-logs') continue;
    else if (a.startsWith('-')) return fatal(`flag provided but not defined: ${a}`);
    else ids.push(a);
  }
  if (all) for (const c of rt.listContainers({})) ids.push(c.id);
  if (!ids.length) return fatal('ID cannot be empty');
  for (const id of ids) {
    let st;
    try {
      st = rt.containerStatus(id);
    } catch (e) {
      if (e instanceof CriError) return fatal(`getting container status ${JSON.stringify(id)}: ${e.message}`);
      throw e;
    }
    try {
      if (st.state === 'CONTAINER_RUNNING') {
        if (!force) return fatal(`container ${JSON.stringify(id)} is running, please stop it first`);
        rt.stopContainer(st.id, 0);
      }
      rt.removeContainer(st.id);
    } catch (e) {
      if (e instanceof CriError) return fatal(`removing container ${JSON.stringify(id)}: ${e.message}`);
      throw e;
    }
    io.stdout(id + '\n');
  }
  return 0;
}
