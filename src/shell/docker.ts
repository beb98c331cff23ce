/**
 * `docker` on the laptop, as far as kind's node containers go: `docker ps [-a] [-q]
 * [--format ...] [--filter name=...]`, `docker exec [-i] [-t] [-e K=V] [-w DIR] NODE CMD...`,
 * `docker stop|start|restart|kill NODE...`, `docker network disconnect|connect kind NODE`,
 * `docker cp FILE NODE:PATH` / `docker cp NODE:PATH FILE`.
 *
 * Output follows Docker CLI 28: `docker ps`'s table (tabwriter, padding 3, min width 10), the
 * daemon's errors (`Error response from daemon: No such container: x`), `docker stop` printing
 * the name once the container has stopped (it waits, as the real one does, for systemd to halt
 * the node), exit status 1 for daemon errors and 125/126/127 for `docker exec` failures.
 *
 * Only the cluster's node containers exist on this laptop's Docker (no `docker run`, no images
 * other than the node image, bookshop:v1 and bookshop:v2).
 */
import type { Command, CommandIO, Pending, ShellContext } from './types';
import type { ClusterAccess, ClusterNodeAccess } from './cluster-access';
import { apiServerHostPort, containerId, findNode, nodeImage } from './cluster-access';
import { nodeEnvironment, nodeFiles } from './node-commands';
import type { NodeAccess } from './kubectl/node-access';
import { HOST_WORKDIR, sessionOf } from './shell';
import { humanSize } from '../engine/node/runtime';
import { normalizePath } from '../engine/node/fs';

/** Exit code of a kind node container after `docker stop` (systemd halts on SIGRTMIN+3) and after SIGKILL. */
const EXIT_STOPPED = 130;
const EXIT_KILLED = 137;

interface Lifecycle {
  createdAt: number;
  startedAt: number;
  finishedAt?: number;
  exitCode?: number;
}

/** go-units HumanDuration (docker ps CREATED and STATUS). */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.round(ms / 3_600_000);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(ms / 3_600_000 / 24 / 365)} years`;
}

/** Lay out rows as the Docker CLI's tabwriter does (min width 10, padding 3, last column bare). */
export function dockerTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, Math.max(10, [...c].length + 3))));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c + ' '.repeat(widths[i] - [...c].length) : c)).join('')).join('\n') + '\n';
}

/** Options of `makeDocker`. */
export interface DockerOptions {
  cluster: ClusterAccess;
  /** How a node's kubectl reaches containers (the laptop kubectl's node access). */
  nodeAccess?: NodeAccess;
}

/** The `docker` command for a cluster. */
export function makeDocker(o: DockerOptions): Command {
  const cluster = o.cluster;
  const clock = cluster.clock;
  const life = new Map<string, Lifecycle>();
  for (const n of cluster.nodes) {
    const pid1 = n.machine.processes.get(1);
    const l: Lifecycle = { createdAt: 0, startedAt: pid1?.startedAt ?? 0 };
    if (!n.machine.running) {
      l.finishedAt = clock.now();
      l.exitCode = EXIT_STOPPED;
    }
    life.set(n.name, l);
    n.machine.onEvent((e) => {
      if (e.type === 'power-on') {
        l.startedAt = clock.now();
        l.finishedAt = undefined;
        l.exitCode = undefined;
      } else if (e.type === 'power-off') {
        l.finishedAt = clock.now();
        l.exitCode = e.how === 'kill' ? EXIT_KILLED : EXIT_STOPPED;
      }
    });
  }

  const lookup = (name: string, io: CommandIO): ClusterNodeAccess | undefined => {
    const n = findNode(cluster, name) ?? cluster.nodes.find((x) => name.length >= 3 && containerId(cluster.name, x.name).startsWith(name));
    if (!n) io.stderr(`Error response from daemon: No such container: ${name}\n`);
    return n;
  };

  const ports = (n: ClusterNodeAccess): string => {
    const cfgNodes = cluster.config?.nodes ?? [];
    const idx = cluster.nodes.indexOf(n);
    const cfg = cfgNodes[idx];
    const list: { priv: number; text: string }[] = [];
    if (n.role === 'control-plane') list.push({ priv: 6443, text: `${cluster.config?.networking?.apiServerAddress ?? '127.0.0.1'}:${apiServerHostPort(cluster)}->6443/tcp` });
    for (const pm of cfg?.extraPortMappings ?? []) list.push({ priv: pm.containerPort, text: `${pm.listenAddress || '0.0.0.0'}:${pm.hostPort}->${pm.containerPort}/${(pm.protocol || 'TCP').toLowerCase()}` });
    return list
      .sort((a, b) => a.priv - b.priv)
      .map((p) => p.text)
      .join(', ');
  };

  const status = (n: ClusterNodeAccess): { text: string; state: string } => {
    const l = life.get(n.name)!;
    const now = clock.now();
    if (n.machine.running) return { text: `Up ${humanDuration(now - l.startedAt)}`, state: 'running' };
    return { text: `Exited (${l.exitCode ?? 0}) ${humanDuration(now - (l.finishedAt ?? now))} ago`, state: 'exited' };
  };

  const ps = (args: string[], io: CommandIO): number => {
    let all = false;
    let quiet = false;
    let format: string | undefined;
    let noTrunc = false;
    const filters: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-a' || a === '--all') all = true;
      else if (a === '-q' || a === '--quiet') quiet = true;
      else if (a === '-aq' || a === '-qa') all = quiet = true;
      else if (a === '--no-trunc') noTrunc = true;
      else if (a === '--format') format = args[++i];
      else if (a.startsWith('--format=')) format = a.slice(9);
      else if (a === '-f' || a === '--filter') filters.push(args[++i] ?? '');
      else if (a.startsWith('--filter=')) filters.push(a.slice(9));
      else {
        io.stderr(`unknown flag: ${a}\nSee 'docker ps --help'.\n`);
        return 125;
      }
    }
    // Newest first: kind creates the workers after the control plane; show the reverse of kind's order.
    let nodes = [...cluster.nodes].reverse().filter((n) => all || n.machine.running);
    for (const f of filters) {
      const [k, v = ''] = f.split('=');
      if (k === 'name') nodes = nodes.filter((n) => n.name.includes(v));
      else if (k === 'status') nodes = nodes.filter((n) => status(n).state === v);
      else if (k === 'label') nodes = nodes.filter((n) => v === 'io.x-k8s.kind.cluster' || v === `io.x-k8s.kind.cluster=${cluster.name}` || v === `io.x-k8s.kind.role=${n.role}`);
      else {
        io.stderr(`Error response from daemon: invalid filter '${k}'\n`);
        return 1;
      }
    }
    const fields = (n: ClusterNodeAccess): Record<string, string> => {
      const id = containerId(cluster.name, n.name);
      const l = life.get(n.name)!;
      const st = status(n);
      return {
        ID: noTrunc ? id : id.slice(0, 12),
        Image: nodeImage(cluster),
        Command: noTrunc ? '"/usr/local/bin/entrypoint /sbin/init"' : '"/usr/local/bin/entr…"',
        CreatedAt: '',
        RunningFor: `${humanDuration(clock.now() - l.createdAt)} ago`,
        Status: st.text,
        State: st.state,
        Ports: n.machine.running ? ports(n) : '',
        Names: n.name,
        Networks: 'kind',
        Labels: `io.x-k8s.kind.cluster=${cluster.name},io.x-k8s.kind.role=${n.role}`,
      };
    };
    if (quiet) {
      for (const n of nodes) io.stdout(fields(n).ID + '\n');
      return 0;
    }
    if (format !== undefined && format !== 'table') {
      const table = format.startsWith('table ');
      const tpl = table ? format.slice(6) : format;
      const render = (f: Record<string, string>): string => tpl.replace(/\\t/g, '\t').replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k: string) => f[k] ?? `<no value>`);
      if (table) {
        const header: Record<string, string> = { ID: 'CONTAINER ID', Image: 'IMAGE', Command: 'COMMAND', RunningFor: 'CREATED', Status: 'STATUS', State: 'STATE', Ports: 'PORTS', Names: 'NAMES', Networks: 'NETWORKS', Labels: 'LABELS', CreatedAt: 'CREATED AT' };
        const rows = [render(header), ...nodes.map((n) => render(fields(n)))].map((l) => l.split('\t'));
        io.stdout(dockerTable(rows));
      } else for (const n of nodes) io.stdout(render(fields(n)) + '\n');
      return 0;
    }
    const rows = [['CONTAINER ID', 'IMAGE', 'COMMAND', 'CREATED', 'STATUS', 'PORTS', 'NAMES']];
    for (const n of nodes) {
      const f = fields(n);
      rows.push([f.ID, f.Image, f.Command, f.RunningFor, f.Status, f.Ports, f.Names]);
    }
    io.stdout(dockerTable(rows));
    return 0;
  };

  /** `docker stop|restart` wait for the container to stop (and start again); `start` and `kill` answer at once. */
  const power = (verb: 'stop' | 'start' | 'restart' | 'kill', args: string[], io: CommandIO): number | Pending => {
    const names: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (a === '-t' || a === '--time' || a === '-s' || a === '--signal' || a === '--timeout') i++;
      else if (/^(-t|--time=|--timeout=|-s|--signal=)/.test(a)) continue;
      else if (a === '-a' || a === '-i' || a === '--attach' || a === '--interactive') continue;
      else if (a.startsWith('-')) {
        io.stderr(`unknown flag: ${a}\nSee 'docker ${verb} --help'.\n`);
        return 125;
      } else names.push(a);
    }
    if (names.length === 0) {
      io.stderr(`docker: 'docker ${verb}' requires at least 1 argument\n\nUsage:  docker ${verb} [OPTIONS] CONTAINER [CONTAINER...]\n\nSee 'docker ${verb} --help' for more information\n`);
      return 1;
    }
    let statusCode = 0;
    const waits: { node: ClusterNodeAccess; boots: number; name: string }[] = [];
    for (const name of names) {
      const n = lookup(name, io);
      if (!n) {
        statusCode = 1;
        continue;
      }
      const wasRunning = n.machine.running;
      const boots = n.machine.boots;
      if (verb === 'kill' && !wasRunning) {
        io.stderr(`Error response from daemon: cannot kill container: ${name}: container ${containerId(cluster.name, n.name)} is not running\n`);
        statusCode = 1;
        continue;
      }
      const r = cluster.docker(verb, n.name);
      if (r.exitCode !== 0) {
        io.stderr(r.stderr);
        statusCode = 1;
        continue;
      }
      if ((verb === 'stop' || verb === 'restart') && wasRunning) waits.push({ node: n, boots, name });
      else io.stdout(`${name}\n`);
    }
    if (waits.length === 0) return statusCode;
    const pending: Pending = {
      poll() {
        while (waits.length) {
          const w = waits[0];
          const ready = verb === 'stop' ? w.node.machine.state === 'stopped' : w.node.machine.running && w.node.machine.state === 'running' && w.node.machine.boots > w.boots;
          if (!ready) return undefined;
          io.stdout(`${w.name}\n`);
          waits.shift();
        }
        return statusCode;
      },
      cancel() {
        waits.length = 0;
      },
    };
    return pending.poll() ?? pending;
  };

  const network = (args: string[], io: CommandIO): number => {
    const verb = args[0];
    if (verb === 'ls') {
      io.stdout(dockerTable([['NETWORK ID', 'NAME', 'DRIVER', 'SCOPE'], ['3c8f1b2e9a04', 'bridge', 'bridge', 'local'], ['a1d6e0f4c2b7', 'host', 'host', 'local'], ['5e2f9c7d1a83', 'kind', 'bridge', 'local'], ['9b4a2e6f0c15', 'none', 'null', 'local']]));
      return 0;
    }
    if (verb !== 'disconnect' && verb !== 'connect') {
      io.stderr(verb === undefined ? "\nUsage:  docker network COMMAND\n\nManage networks\n\nCommands:\n  connect     Connect a container to a network\n  disconnect  Disconnect a container from a network\n  ls          List networks\n\nRun 'docker network COMMAND --help' for more information on a command.\n" : `docker: unknown command: docker network ${verb}\n\nRun 'docker network --help' for more information\n`);
      return verb === undefined ? 0 : 1;
    }
    const rest = args.slice(1).filter((a) => a !== '-f' && a !== '--force');
    if (rest.length !== 2) {
      io.stderr(`docker: 'docker network ${verb}' requires 2 arguments\n\nUsage:  docker network ${verb} [OPTIONS] NETWORK CONTAINER\n\nSee 'docker network ${verb} --help' for more information\n`);
      return 1;
    }
    const [net, name] = rest;
    if (!['kind', 'bridge', 'host', 'none'].includes(net)) {
      io.stderr(`Error response from daemon: network ${net} not found\n`);
      return 1;
    }
    const n = lookup(name, io);
    if (!n) return 1;
    if (net !== 'kind') {
      io.stderr(verb === 'disconnect' ? `Error response from daemon: container ${containerId(cluster.name, n.name)} is not connected to network ${net}\n` : `Error response from daemon: the playground's nodes only use the kind network\n`);
      return 1;
    }
    const r = cluster.dockerNetwork(verb, n.name);
    if (r.stdout) io.stdout(r.stdout);
    if (r.stderr) io.stderr(r.stderr.replace(`container ${n.name} is not`, `container ${containerId(cluster.name, n.name)} is not`));
    return r.exitCode;
  };

  const exec = (args: string[], io: CommandIO, ctx: ShellContext): number | Pending => {
    let interactive = false;
    let tty = false;
    const env: Record<string, string> = {};
    let workdir: string | undefined;
    let i = 0;
    for (; i < args.length && args[i].startsWith('-'); i++) {
      const a = args[i];
      if (a === '-e' || a === '--env') {
        const kv = args[++i] ?? '';
        env[kv.split('=')[0]] = kv.includes('=') ? kv.slice(kv.indexOf('=') + 1) : (ctx.env[kv] ?? '');
      } else if (a === '-w' || a === '--workdir') workdir = args[++i];
      else if (a === '-u' || a === '--user') i++;
      else if (a === '--privileged' || a === '-d' || a === '--detach') continue;
      else if (/^-[it]+$/.test(a)) {
        if (a.includes('i')) interactive = true;
        if (a.includes('t')) tty = true;
      } else if (a === '--interactive') interactive = true;
      else if (a === '--tty') tty = true;
      else {
        io.stderr(`unknown flag: ${a}\nSee 'docker exec --help'.\n`);
        return 125;
      }
    }
    const name = args[i];
    const argv = args.slice(i + 1);
    if (name === undefined || argv.length === 0) {
      io.stderr("docker: 'docker exec' requires at least 2 arguments\n\nUsage:  docker exec [OPTIONS] CONTAINER COMMAND [ARG...]\n\nSee 'docker exec --help' for more information\n");
      return 1;
    }
    const n = lookup(name, io);
    if (!n) return 1;
    if (!n.machine.running) {
      io.stderr(`Error response from daemon: container ${containerId(cluster.name, n.name)} is not running\n`);
      return 1;
    }
    const session = sessionOf(ctx);
    if (!session) {
      io.stderr('docker exec: needs the playground shell\n');
      return 126;
    }
    const nodeEnv = nodeEnvironment({ cluster, node: n, hostCtx: ctx, ...(o.nodeAccess ? { nodeAccess: o.nodeAccess } : {}) });
    Object.assign(nodeEnv.ctx.env, env);
    if (workdir !== undefined) nodeEnv.ctx.env.PWD = workdir.startsWith('/') ? normalizePath(workdir) : normalizePath(`/${workdir}`);
    const cmd = argv[0];
    const base = cmd.slice(cmd.lastIndexOf('/') + 1);
    if (!session.has(base, nodeEnv)) {
      io.stderr(`OCI runtime exec failed: exec failed: unable to start container process: exec: "${cmd}": executable file not found in $PATH: unknown\n`);
      return 127;
    }
    // `docker exec -it NODE bash`: an interactive shell in the node from the next line on.
    // Without a terminal, a shell reads its script from standard input (none: it exits at once).
    if (argv.length === 1 && (base === 'bash' || base === 'sh')) {
      if (tty) {
        session.enter(base === 'sh' ? { ...nodeEnv, prompt: () => '# ' } : nodeEnv);
        return 0;
      }
      if (!interactive || !io.stdin) return 0;
    }
    return session.exec(argv, { stdout: io.stdout, stderr: io.stderr, stdin: interactive ? io.stdin : '' }, nodeEnv);
  };

  const cp = (args: string[], io: CommandIO, ctx: ShellContext): number => {
    const ops = args.filter((a) => !/^-[aLq]+$/.test(a));
    if (ops.length !== 2) {
      io.stderr("docker: 'docker cp' requires 2 arguments\n\nUsage:  docker cp [OPTIONS] CONTAINER:SRC_PATH DEST_PATH|-\n\tdocker cp [OPTIONS] SRC_PATH|- CONTAINER:DEST_PATH\n\nSee 'docker cp --help' for more information\n");
      return 1;
    }
    const [src, dst] = ops;
    const remote = (s: string): { node: string; path: string } | undefined => {
      const m = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(.*)$/.exec(s);
      return m && !s.startsWith('/') && !s.startsWith('.') ? { node: m[1], path: m[2] } : undefined;
    };
    const rs = remote(src);
    const rd = remote(dst);
    if ((rs && rd) || (!rs && !rd)) {
      io.stderr(rs ? 'copying between containers is not supported\n' : 'must specify at least one container source\n');
      return 1;
    }
    const host = ctx.files;
    const hostPath = (p: string): string => (p === HOST_WORKDIR ? '.' : p.startsWith(`${HOST_WORKDIR}/`) ? p.slice(HOST_WORKDIR.length + 1) : p);
    const tarSize = (bytes: number[]): number => 1024 + bytes.reduce((a, b) => a + 512 + Math.ceil(b / 512) * 512, 0);
    if (rd) {
      const n = lookup(rd.node, io);
      if (!n) return 1;
      const text = host.read(hostPath(src));
      if (text === undefined) {
        io.stderr(host.isDir(hostPath(src)) ? `docker cp: copying a directory from the laptop is not supported in the playground\n` : `lstat ${src.startsWith('/') ? src : `${HOST_WORKDIR}/${src}`}: no such file or directory\n`);
        return 1;
      }
      const fs = n.machine.fs;
      let target = rd.path.startsWith('/') ? normalizePath(rd.path) : normalizePath(`/${rd.path}`);
      if (fs.isDirectory(target)) target = normalizePath(`${target}/${src.slice(src.lastIndexOf('/') + 1)}`);
      else if (!fs.isDirectory(target.slice(0, target.lastIndexOf('/')) || '/')) {
        io.stderr(`Error response from daemon: Could not find the file ${rd.path} in container ${rd.node}\n`);
        return 1;
      }
      try {
        nodeFiles(fs).write(target, text);
      } catch (e) {
        io.stderr(`Error response from daemon: ${(e as Error).message}\n`);
        return 1;
      }
      io.stderr(`Successfully copied ${humanSize(tarSize([utf8Len(text)]))} to ${rd.node}:${rd.path}\n`);
      return 0;
    }
    const n = lookup(rs!.node, io);
    if (!n) return 1;
    const fs = n.machine.fs;
    const from = rs!.path.startsWith('/') ? normalizePath(rs!.path) : normalizePath(`/${rs!.path}`);
    const text = fs.tryReadFile(from);
    if (text === undefined) {
      io.stderr(fs.isDirectory(from) ? 'docker cp: copying a directory out of a node is not supported in the playground\n' : `Error response from daemon: Could not find the file ${rs!.path} in container ${rs!.node}\n`);
      return 1;
    }
    if (dst === '-') {
      io.stdout(text);
      return 0;
    }
    let target = hostPath(dst);
    if (host.isDir(target)) target = `${target === '.' ? '' : `${target.replace(/\/$/, '')}/`}${from.slice(from.lastIndexOf('/') + 1)}`;
    try {
      host.write(target, text);
    } catch (e) {
      io.stderr(`${(e as Error).message}\n`);
      return 1;
    }
    const shown = dst.startsWith('/') ? dst : dst === '.' ? HOST_WORKDIR + '/.' : `${HOST_WORKDIR}/${dst}`;
    io.stderr(`Successfully copied ${humanSize(tarSize([utf8Len(text)]))} to ${shown}\n`);
    return 0;
  };

  return (argv, io, ctx) => {
    const sub = argv[1];
    const args = argv.slice(2);
    switch (sub) {
      case 'ps':
        return ps(args, io);
      case 'container':
        if (args[0] === 'ls' || args[0] === 'list') return ps(args.slice(1), io);
        break;
      case 'exec':
        return exec(args, io, ctx);
      case 'stop':
      case 'start':
      case 'restart':
      case 'kill':
        return power(sub, args, io);
      case 'network':
        return network(args, io);
      case 'cp':
        return cp(args, io, ctx);
      case 'version':
      case '--version':
      case '-v':
        io.stdout('Docker version 28.5.2, build ecc6942\n');
        return 0;
      case undefined:
      case '--help':
      case 'help':
        io.stdout(DOCKER_HELP);
        return 0;
    }
    io.stderr(`docker: '${sub}' is not a docker command in the playground.\nSee 'docker --help'\n`);
    return 1;
  };
}

const DOCKER_HELP = `
Usage:  docker [OPTIONS] COMMAND

The playground's Docker runs the kind node containers.

Commands:
  ps          List containers (the kind nodes)
  exec        Execute a command in a running container (docker exec -it NODE bash)
  stop        Stop one or more running containers
  start       Start one or more stopped containers
  restart     Restart one or more containers
  kill        Kill one or more running containers
  network     Manage networks (docker network disconnect kind NODE)
  cp          Copy files between a container and the working directory
  version     Show the Docker version information
`;

function utf8Len(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}
