/**
 * Program models: what a container's main process does, chosen by image and command. Models are
 * data (`ProgramModel` records: ports, start-up time, log lines, HTTP routes, memory, signal
 * handling, exit behaviour) read by one small interpreter (`ModelBehaviour`); shells and
 * utilities run in the sh interpreter of shell.ts. The control-plane images are left to
 * `ProgramRegistry.registerProgramFactory` (another part wires them to the simulated
 * components); everything unknown becomes a generic long-running server.
 *
 * Mirrors what the real images do, as far as a person at a terminal can tell:
 * - nginx (docker-library/nginx: `/docker-entrypoint.sh` lines, `[notice]` lines on stderr, access
 *   log on stdout, `STOPSIGNAL SIGQUIT` graceful stop, exit 0), httpd, postgres (initdb on an empty
 *   PGDATA, `database system is ready to accept connections`, `STOPSIGNAL SIGINT`), redis;
 * - the bookshop's catalog/orders/web (engineers-musings/k8s-bookshop `cmd/*`,
 *   `internal/bookshop/bookshop.go`): Go `log` lines on stderr, `/healthz`, `/readyz`,
 *   `/version`, `/debug/{unready,ready,break,eat,slow,fail,poison}`, catalog's 3 s database ping
 *   that drives readiness, no SIGTERM handling (a Go binary as PID 1 then exits with status 2);
 * - agnhost (`test/images/agnhost`: `liveness` answers /healthz 200 for 10 s then 500,
 *   `netexec`, `serve-hostname`, `pause`), coredns, kube-proxy, kindnetd, local-path-provisioner,
 *   perl's `bpi(N)`, stress, the corpus's other images;
 * - PID 1 semantics: a signal whose default action is "terminate" is ignored by the init process
 *   of a PID namespace unless the program installed a handler (so `sleep 3600` or `sh -c` as PID 1
 *   ignore SIGTERM and die by SIGKILL after the grace period: 137).
 *
 * Units: virtual ms for times, bytes for memory (models state MiB).
 */
import type { Clock, Rng, Timer } from '../clock';
import type { Program, ProcessContext, Signal } from './process';
import { SIGNAL_NUMBERS } from './process';
import type { ImageConfig, ImageRecord } from './registry';
import { ContainerStdin, type ContainerAttach } from './stdin';
import { EXTRA_FAMILY_SERVER_PORTS, EXTRA_MODELS } from './programs-extra';
import {
  BUSYBOX_APPLETS,
  ContainerFs,
  DEBIAN_COMMANDS,
  civil,
  formatDate,
  httpReason,
  parseUrl,
  resolvePath,
  isShellUtility,
  startShell,
  type FsMount,
  type HttpOutcome,
  type HttpRequest,
  type ShellChild,
  type ShellFlavor,
  type ShellHost,
  type ShellRun,
} from './shell';

/** The HTTP shapes programs answer with, defined next to the shell's curl (re-exported for callers). */
export type { HttpOutcome, HttpRequest } from './shell';

const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// What a container program is given
// ---------------------------------------------------------------------------------------------

/** Facts about the pod and node a container program sees. */
export interface PodInfo {
  name: string;
  namespace: string;
  uid: string;
  nodeName: string;
  /** The pod IP (the node IP for hostNetwork pods). */
  podIP: string;
  /** The node's IP (`status.hostIP`). */
  hostIP: string;
  /** The pod's hostname (`/etc/hostname`): the pod name, or spec.hostname. */
  hostname: string;
  hostNetwork?: boolean;
  /** `spec.shareProcessNamespace`: the pause process is PID 1 and containers are not. */
  shareProcessNamespace?: boolean;
  /** CPUs of the node (nginx starts one worker per CPU). Default 2. */
  nodeCpus?: number;
  /** The cluster DNS server the pod's resolv.conf names. Default `10.96.0.10`. */
  dnsServer?: string;
  /** resolv.conf search path. Default `<ns>.svc.cluster.local svc.cluster.local cluster.local`. */
  searches?: readonly string[];
}

/** Everything that decides what a container runs (from the CRI ContainerConfig and the image). */
export interface ContainerRunSpec {
  /** Container ID (64 hex). */
  id: string;
  /** Container name (`spec.containers[].name`). */
  name: string;
  /** The image as the node's store has it. */
  image: ImageRecord;
  /** The image string of the pod spec (`nginx:1.27`). */
  imageRef: string;
  /** `command` and `args` as in the pod spec (undefined when not set). */
  command?: readonly string[];
  args?: readonly string[];
  /** What is exec'd: see `resolveArgv`. */
  argv: readonly string[];
  /** Final environment (image ENV, then the container's env with `$(VAR)` already expanded). */
  env: Readonly<Record<string, string>>;
  /** Declared container ports (informational in Kubernetes; the generic server listens on them). */
  ports: readonly { containerPort: number; name?: string; protocol?: string }[];
  /** `resources.limits.memory` in bytes; undefined = unlimited (the node's memory). */
  memoryLimitBytes?: number;
  workingDir?: string;
  /** `stdin: true` (kubectl run -i): a shell waits for input instead of exiting at EOF. */
  stdin?: boolean;
  tty?: boolean;
  /** Volume mounts (kubelet-prepared sources). */
  mounts: readonly FsMount[];
  pod: PodInfo;
  /** Restart attempt (`metadata.attempt`). */
  attempt: number;
}

/**
 * The value of a container's `--name=value` or `--name value` flag (the last one wins, as with
 * pflag), with `$(VAR)` references to the container's env expanded; undefined when absent.
 * For program models that read their command line (control-plane components, app controllers).
 */
export function flagValue(spec: Pick<ContainerRunSpec, 'argv' | 'env'>, name: string): string | undefined {
  let v: string | undefined;
  const argv = spec.argv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith(`--${name}=`)) v = a.slice(name.length + 3);
    else if (a === `--${name}` && i + 1 < argv.length) v = argv[++i];
  }
  return v?.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, k: string) => spec.env[k] ?? m);
}

/**
 * Kubernetes' rule for what a container runs (pkg/kubelet/kuberuntime, `ContainerConfig`):
 * `command` replaces the image ENTRYPOINT and drops its CMD; `args` replaces CMD.
 */
export function resolveArgv(config: ImageConfig, command?: readonly string[], args?: readonly string[]): string[] {
  if (command && command.length > 0) return [...command, ...(args ?? [])];
  return [...(config.entrypoint ?? []), ...(args && args.length > 0 ? args : (config.cmd ?? []))];
}

/** The outcome of a TCP connect from inside a pod. */
export type DialOutcome = { ok: true; address: string } | { ok: false; error: 'refused' | 'timeout' | 'nxdomain' | 'unreachable'; address?: string };

/** The network as seen from inside one pod (the runtime provides it; see runtime.ts). */
export interface PodNetwork {
  /** An HTTP request to `url` (`http://catalog/books/978...`, `localhost:8080/debug/unready`). */
  http(url: string, req: HttpRequest): HttpOutcome;
  /** A TCP connect to `host:port`. */
  dial(host: string, port: number): DialOutcome;
  /** DNS resolution as the pod's resolver does it (search path applied). */
  lookup(name: string): { name: string; address: string; server: string } | undefined;
}

/** Services the runtime gives a container program. */
export interface ContainerServices {
  readonly clock: Clock;
  readonly rng: Rng;
  /** Append a line to the container log (the CRI log file), stamped with the current virtual time. */
  log(stream: 'stdout' | 'stderr', line: string): void;
  /** Claim `port` in the pod's network namespace; false when something already listens there. */
  bind(port: number): boolean;
  /** Release a port claimed with `bind`. */
  release(port: number): void;
  readonly network: PodNetwork;
  /** Send a signal to the container's main process (`kill 1` inside the container). */
  signalMain(sig: Signal): boolean;
}

/** What `exec` in a container produced (CRI ExecSync). */
export interface ExecOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * Set when the command could not be started; runc's reason, e.g.
   * `exec: "bash": executable file not found in $PATH`. The runtime wraps it as
   * `OCI runtime exec failed: exec failed: unable to start container process: <this>: unknown`.
   */
  startError?: string;
}

/**
 * The program of a container's main process: a process-table `Program` that also answers the
 * network (TCP, HTTP) and `exec`.
 */
/** Hears an exec's output as it is written: the stream and the text (not line-buffered). */
export type ExecOutputListener = (stream: 'stdout' | 'stderr', text: string) => void;

export interface ContainerProgram extends Program {
  /** Which model runs (for traces and the UI), e.g. `nginx`, `bookshop-catalog`, `busybox-sh`. */
  readonly model: string;
  /** Is `port` accepting TCP connections in the pod's network namespace? */
  listening(port: number): boolean;
  /** Answer an HTTP request on `port` (`refused` when nothing listens, `reset` when the port is not HTTP). */
  http(port: number, req: HttpRequest): HttpOutcome;
  /**
   * Run `argv` in the container; `done` is called once (possibly synchronously). Returns a
   * canceller. `onOutput`, when given, hears the output as it is written (what a stream shows
   * before the process ends, e.g. when it is killed).
   */
  exec(argv: string[], done: (r: ExecOutcome) => void, onOutput?: ExecOutputListener): { cancel(): void };
  /** The program's own idea of being ready (postgres accepting connections, a server listening). */
  ready(): boolean;
  /** CRI Attach: the main process's output, and its stdin when the container has `stdin: true`; undefined once exited. */
  attach?(): ContainerAttach | undefined;
}

/** Decide whether a registered factory runs this container. `image` is `repository:tag` (normalised). */
export type ProgramMatcher = (image: string, command: readonly string[] | undefined, args: readonly string[] | undefined, spec: ContainerRunSpec) => boolean;

/**
 * Build the program of a container claimed by a matcher. The returned Program may implement
 * `listening`, `http`, `exec` and `ready` (as `ContainerProgram` does); missing ones default to:
 * the declared ports listen while the process runs, HTTP answers 200 `ok`, `exec` runs in the
 * image's userland (distroless images have no shell), ready = running.
 */
export type ProgramFactory = (spec: ContainerRunSpec, services: ContainerServices) => Program & Partial<Omit<ContainerProgram, 'model'>>;

// ---------------------------------------------------------------------------------------------
// Models as data
// ---------------------------------------------------------------------------------------------

/** A port: a number, an environment variable with a default, or a `--flag=N` of argv with a default. */
export type PortSpec = number | { env: string; default: number } | { flag: string; default: number };

/**
 * One log line: a template with `{name}` placeholders (`{t:go}` and other `t:` time stamps,
 * pod/env/model variables), written at `at` ms after the program starts (or `'end'` for the moment
 * it exits, `'listen'` for the moment it binds its ports).
 */
export interface LogLine {
  at?: number | 'end' | 'listen';
  line: string;
  stream?: 'stdout' | 'stderr';
}

/** What a catchable signal does to a program. */
export interface SignalAction {
  /** Exit with this code after `afterMs` (after writing `logs`). */
  exit?: number;
  afterMs?: number;
  logs?: readonly LogLine[];
  /** Keep running (a reload, or a handler that does nothing). */
  ignore?: boolean;
}

/** Named HTTP handlers the interpreter knows (the "verbs" route data can use). */
export type HandlerName =
  | 'static'
  | 'files'
  | 'health'
  | 'set-flag'
  | 'eat'
  | 'slow'
  | 'fail-pct'
  | 'bookshop-version'
  | 'catalog-books'
  | 'catalog-book'
  | 'orders'
  | 'storefront'
  | 'agnhost-healthz'
  | 'agnhost-started'
  | 'echo-request'
  | 'hostname'
  | 'exit';

/** An HTTP route: `path` is exact, or a subtree when it ends with `/` (Go ServeMux) or `*`. */
export interface RouteModel {
  path: string;
  handler: HandlerName;
  params?: Readonly<Record<string, string | number | boolean>>;
}

/** Named exec helpers (`pg_isready`, `redis-cli`, probe scripts). */
export type HelperName = 'pg_isready' | 'redis-cli' | 'ready-check' | 'nodetool' | 'ok';

/** A model's recurring action. */
export interface WatcherModel {
  /** `db-ping`: ping the database of env `DATABASE_URL` and set readiness (catalog). `log`: write lines. */
  kind: 'db-ping' | 'log';
  everyMs: number;
  /** First run after this many ms (default: at once). */
  firstMs?: number;
  lines?: readonly LogLine[];
}

/**
 * A program model. All fields are optional behaviours of one interpreter:
 * a process that (maybe) listens on ports after `startupMs`, answers HTTP by `routes`, uses
 * memory, logs, handles signals, and (maybe) exits by itself after `exitAfterMs`.
 */
export interface ProgramModel {
  /** Model name (`nginx`, `bookshop-catalog` ...). */
  name: string;
  /** Ports it listens on; `'declared'` = the container's ports, else the image's EXPOSE. */
  listen?: readonly PortSpec[] | 'declared';
  /** Which of those speak HTTP (default: all). */
  httpPorts?: readonly PortSpec[] | 'all' | 'none';
  /** ms from start until it listens. Default 0. */
  startupMs?: number;
  /** ms after listening until it reports ready (helpers such as pg_isready). Default 0. */
  readyDelayMs?: number;
  /** Resident memory in MiB (or the name of a variable holding it). */
  memoryMiB: number | string;
  /** Memory that grows: `stepMiB` every `everyMs` up to `maxMiB` (variables allowed). */
  memoryGrowth?: { everyMs: number | string; stepMiB: number | string; maxMiB: number | string; firstMs?: number };
  logs?: {
    start?: readonly LogLine[];
    /**
     * One line per HTTP request (access log). Variables: remote, method, path, pathOnly, status,
     * bytes, ua, `requests` (how many requests this process has answered, this one included) and
     * `uptime` (seconds since the process started, as JavaScript prints `ms / 1000`: `195.488`).
     */
    access?: string;
    accessStream?: 'stdout' | 'stderr';
    /** Written when a port is already taken, then the program exits 1. Variable: port. */
    bindError?: readonly LogLine[];
  };
  routes?: readonly RouteModel[];
  /** Serve files from this directory when no route matches (nginx, httpd). */
  docroot?: string;
  notFound?: { status: number; body: string };
  signals?: Partial<Record<Signal, SignalAction>>;
  /**
   * A Go binary without signal handling: the Go runtime catches TERM/INT/HUP/QUIT and re-raises;
   * as PID 1 the re-raise is ignored and the runtime exits with status 2 (`dieFromSignal`).
   */
  goRuntime?: boolean;
  /** Exec helpers by command basename. */
  helpers?: Readonly<Record<string, HelperName>>;
  watchers?: readonly WatcherModel[];
  /** A scripted start-up that the data cannot express (postgres's initdb). */
  lifecycle?: 'postgres';
  /** Exit on its own after this many ms (or a variable), with `exitCode`. Default: never. */
  exitAfterMs?: number | string;
  exitCode?: number;
  /** Environment variables the program needs; missing -> these lines on stderr and exit 1. */
  requires?: readonly { env: string; unlessEnv?: string; logs: readonly LogLine[] }[];
}

/** Template variables of a running model. */
export type Vars = Record<string, string | number>;

/** A model and the rule that picks it. */
export interface ModelEntry {
  name: string;
  /** Returns template variables when this model runs `argv` in `image`, else undefined. */
  match(argv: readonly string[], image: ImageRecord): Vars | undefined;
  model: ProgramModel;
}

const GO = (line: string): LogLine => ({ line: `{t:go} ${line}`, stream: 'stderr' });
const KLOG = (file: string, msg: string, at = 0, level = 'I'): LogLine => ({ at, line: `${level}{t:klog}       1 ${file}] ${msg}`, stream: 'stderr' });

const NGINX_WELCOME = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`;

const NGINX_ERROR_PAGE = (code: number, version: string) =>
  `<html>\r\n<head><title>${code} ${httpReason(code)}</title></head>\r\n<body>\r\n<center><h1>${code} ${httpReason(code)}</h1></center>\r\n<hr><center>nginx/${version}</center>\r\n</body>\r\n</html>\r\n`;

/** `NGINX_ERROR_PAGE(404, version)`, one string per nginx version (performance only: every container's model keeps it). */
const nginx404Pages = new Map<string, string>();
function nginx404Page(version: string): string {
  let page = nginx404Pages.get(version);
  if (page === undefined) nginx404Pages.set(version, (page = NGINX_ERROR_PAGE(404, version)));
  return page;
}

const NGINX_NOTICE = (msg: string, at: number | 'end' | 'listen' = 'listen', pid = '1#1'): LogLine => ({ at, line: `{t:nginx} [notice] ${pid}: ${msg}`, stream: 'stderr' });

const NGINX_MODEL: ProgramModel = {
  name: 'nginx',
  listen: [80],
  startupMs: 120,
  memoryMiB: 9,
  docroot: '/usr/share/nginx/html',
  logs: {
    start: [
      { at: 0, line: '{entrypoint}' },
    ],
    access: '{remote} - - [{t:access}] "{method} {path} HTTP/1.1" {status} {bytes} "-" "{ua}" "-"',
    accessStream: 'stdout',
    bindError: [
      { line: '{t:nginx} [emerg] 1#1: bind() to 0.0.0.0:{port} failed (98: Address in use)', stream: 'stderr' },
      { line: 'nginx: [emerg] bind() to 0.0.0.0:{port} failed (98: Address in use)', stream: 'stderr' },
    ],
  },
  notFound: { status: 404, body: '{nginx404}' },
  signals: {
    SIGQUIT: {
      exit: 0,
      afterMs: 30,
      logs: [NGINX_NOTICE('signal 3 (SIGQUIT) received, shutting down', 'end'), NGINX_NOTICE('gracefully shutting down', 'end', '29#29'), NGINX_NOTICE('exiting', 'end', '29#29'), NGINX_NOTICE('exit', 'end', '29#29'), NGINX_NOTICE('signal 17 (SIGCHLD) received from 29', 'end'), NGINX_NOTICE('worker process 29 exited with code 0', 'end'), NGINX_NOTICE('exit', 'end')],
    },
    SIGTERM: {
      exit: 0,
      afterMs: 10,
      logs: [NGINX_NOTICE('signal 15 (SIGTERM) received from 1, exiting', 'end'), NGINX_NOTICE('exiting', 'end', '29#29'), NGINX_NOTICE('exit', 'end', '29#29'), NGINX_NOTICE('signal 17 (SIGCHLD) received from 29', 'end'), NGINX_NOTICE('worker process 29 exited with code 0', 'end'), NGINX_NOTICE('exit', 'end')],
    },
    SIGINT: { exit: 0, afterMs: 10, logs: [NGINX_NOTICE('signal 2 (SIGINT) received, exiting', 'end'), NGINX_NOTICE('exit', 'end')] },
    SIGHUP: { ignore: true, logs: [NGINX_NOTICE('signal 1 (SIGHUP) received from 1, reconfiguring', 'end'), NGINX_NOTICE('reconfiguring', 'end')] },
  },
};

const HTTPD_LOG = (msg: string, at: number | 'end' | 'listen' = 'listen'): LogLine => ({ at, line: `[{t:httpd}] ${msg}`, stream: 'stderr' });

const HTTPD_MODEL: ProgramModel = {
  name: 'httpd',
  listen: [80],
  startupMs: 150,
  memoryMiB: 6,
  docroot: '/usr/local/apache2/htdocs',
  logs: {
    start: [
      { at: 100, line: "AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using {podIP}. Set the 'ServerName' directive globally to suppress this message", stream: 'stderr' },
      { at: 120, line: "AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using {podIP}. Set the 'ServerName' directive globally to suppress this message", stream: 'stderr' },
      HTTPD_LOG('[mpm_event:notice] [pid 1:tid 1] AH00489: Apache/{version} (Unix) configured -- resuming normal operations'),
      HTTPD_LOG("[core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'"),
    ],
    access: '{remote} - - [{t:access}] "{method} {path} HTTP/1.1" {status} {bytes}',
    accessStream: 'stdout',
  },
  notFound: { status: 404, body: '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n' },
  signals: {
    SIGTERM: { exit: 0, afterMs: 50, logs: [HTTPD_LOG('[mpm_event:notice] [pid 1:tid 1] AH00491: caught SIGTERM, shutting down', 'end')] },
    SIGINT: { exit: 0, afterMs: 50, logs: [HTTPD_LOG('[mpm_event:notice] [pid 1:tid 1] AH00491: caught SIGTERM, shutting down', 'end')] },
    SIGHUP: { ignore: true, logs: [HTTPD_LOG('[mpm_event:notice] [pid 1:tid 1] AH00493: SIGHUP received.  Attempting to restart', 'end')] },
  },
};

const REDIS = (role: 'C' | 'M', sym: '*' | '#', msg: string, at: number | 'end' | 'listen' = 0): LogLine => ({ at, line: `1:${role} {t:redis} ${sym} ${msg}` });

const REDIS_MODEL: ProgramModel = {
  name: 'redis',
  listen: [6379],
  httpPorts: 'none',
  startupMs: 20,
  memoryMiB: 4,
  logs: {
    start: [
      REDIS('C', '#', 'WARNING Memory overcommit must be enabled! Without it, a background save or replication may fail under low memory condition. Being disabled, it can also cause failures without low memory condition, see https://github.com/jemalloc/jemalloc/issues/1328. To fix this issue add \'vm.overcommit_memory = 1\' to /etc/sysctl.conf and then reboot or run the command \'sysctl vm.overcommit_memory=1\' for this to take effect.'),
      REDIS('C', '*', 'oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo'),
      REDIS('C', '*', 'Redis version={version}, bits=64, commit=00000000, modified=0, pid=1, just started'),
      REDIS('C', '#', 'Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf'),
      REDIS('M', '*', 'monotonic clock: POSIX clock_gettime', 1),
      REDIS('M', '*', 'Running mode=standalone, port=6379.', 2),
      REDIS('M', '*', 'Server initialized', 3),
      REDIS('M', '*', 'Ready to accept connections tcp', 'listen'),
    ],
  },
  helpers: { 'redis-cli': 'redis-cli' },
  signals: {
    SIGTERM: {
      exit: 0,
      afterMs: 20,
      logs: [
        { at: 'end', line: '1:signal-handler ({unix}) Received SIGTERM scheduling shutdown...' },
        REDIS('M', '*', 'User requested shutdown...', 'end'),
        REDIS('M', '*', 'Saving the final RDB snapshot before exiting.', 'end'),
        REDIS('M', '*', 'DB saved on disk', 'end'),
        REDIS('M', '#', 'Redis is now ready to exit, bye bye...', 'end'),
      ],
    },
    SIGINT: { exit: 0, afterMs: 20, logs: [{ at: 'end', line: '1:signal-handler ({unix}) Received SIGINT scheduling shutdown...' }, REDIS('M', '#', 'Redis is now ready to exit, bye bye...', 'end')] },
  },
};

/** The bookshop's `Health.Handle` routes and the per-service ones (internal/bookshop/bookshop.go). */
const BOOKSHOP_COMMON_ROUTES: readonly RouteModel[] = [
  { path: '/healthz', handler: 'health', params: { flag: 'live', ok: 'ok\n', failStatus: 500, fail: 'unhealthy\n' } },
  { path: '/readyz', handler: 'health', params: { flag: 'ready', ok: 'ready\n', failStatus: 503, fail: 'not ready\n' } },
  { path: '/debug/slow', handler: 'slow', params: { param: 'ms', default: 2000 } },
  { path: '/debug/fail', handler: 'fail-pct' },
  { path: '/debug/poison', handler: 'set-flag', params: { flag: 'poisoned', value: true, body: 'poisoned\n', log: '{svc}: POISONED — this pod now fails every request but stays Ready' } },
  { path: '/debug/unready', handler: 'set-flag', params: { flag: 'ready', value: false, body: 'readiness is now failing\n', log: '{svc}: readiness flipped to NOT READY' } },
  { path: '/debug/ready', handler: 'set-flag', params: { flag: 'ready', value: true, body: 'readiness is now passing\n', log: '{svc}: readiness flipped to READY' } },
  { path: '/debug/break', handler: 'set-flag', params: { flag: 'live', value: false, body: 'liveness is now failing\n', log: '{svc}: liveness flipped to BROKEN — the kubelet should restart this container' } },
  { path: '/debug/eat', handler: 'eat', params: { param: 'mb', default: 64 } },
  { path: '/version', handler: 'bookshop-version' },
];

const bookshopModel = (svc: 'catalog' | 'orders' | 'web', routes: readonly RouteModel[], extra: Partial<ProgramModel> = {}): ProgramModel => ({
  name: `bookshop-${svc}`,
  listen: [{ env: 'PORT', default: 8080 }],
  startupMs: 15,
  memoryMiB: 7,
  goRuntime: true,
  logs: {
    start: [{ at: 0, line: `{t:go} ${svc} {version} starting on :{port} (pod={env.POD_NAME} node={env.NODE_NAME})`, stream: 'stderr' }],
    bindError: [GO('listen tcp :{port}: bind: address already in use')],
  },
  routes: [...BOOKSHOP_COMMON_ROUTES, ...routes],
  notFound: { status: 404, body: '404 page not found\n' },
  ...extra,
});

const AGNHOST_LIVENESS: ProgramModel = {
  name: 'agnhost-liveness',
  listen: [8080],
  startupMs: 10,
  memoryMiB: 5,
  goRuntime: true,
  routes: [
    { path: '/healthz', handler: 'agnhost-healthz', params: { afterMs: 10_000 } },
    { path: '/started', handler: 'agnhost-started' },
    { path: '/redirect', handler: 'static', params: { status: 302, body: '' } },
  ],
  notFound: { status: 404, body: '404 page not found\n' },
};

const AGNHOST_NETEXEC: ProgramModel = {
  name: 'agnhost-netexec',
  listen: [{ flag: 'http-port', default: 8080 }],
  startupMs: 10,
  memoryMiB: 6,
  goRuntime: true,
  logs: { start: [{ at: 'listen', line: '{t:go} Started HTTP server on port {port}', stream: 'stderr' }, { at: 'listen', line: '{t:go} Started UDP server on port  8081', stream: 'stderr' }] },
  routes: [
    { path: '/hostname', handler: 'hostname' },
    { path: '/healthz', handler: 'static', params: { status: 200, body: '' } },
    { path: '/echo', handler: 'echo-request', params: { query: 'msg' } },
    { path: '/clientip', handler: 'echo-request', params: { clientip: true } },
    { path: '/exit', handler: 'exit' },
    { path: '/', handler: 'static', params: { status: 200, body: 'NOW: {t:gonow}' } },
  ],
};

const COREDNS_MODEL: ProgramModel = {
  name: 'coredns',
  listen: [53, 8080, 8181, 9153],
  httpPorts: [8080, 8181, 9153],
  startupMs: 300,
  readyDelayMs: 500,
  memoryMiB: 14,
  logs: {
    start: [
      { at: 'listen', line: '.:53' },
      { at: 'listen', line: '[INFO] plugin/reload: Running configuration SHA512 = 591cf328cccc12bc490481273e738df59329c62c0b729d94e8b61db9961c2fa5f046dd37f1cf888b953814040d180f52594972691cd6ff41be96639138a43908' },
      { at: 'listen', line: 'CoreDNS-{version}' },
      { at: 'listen', line: 'linux/amd64, go1.23.3, 51e11f1' },
    ],
  },
  routes: [
    { path: '/health', handler: 'static', params: { status: 200, body: 'OK' } },
    { path: '/ready', handler: 'static', params: { status: 200, body: 'OK' } },
    { path: '/metrics', handler: 'static', params: { status: 200, body: '# HELP coredns_build_info A metric with a constant \'1\' value labeled by version, revision, and goversion from which CoreDNS was built.\n# TYPE coredns_build_info gauge\ncoredns_build_info{goversion="go1.23.3",revision="51e11f1",version="{version}"} 1\n' } },
  ],
  signals: {
    SIGTERM: { exit: 0, afterMs: 5000, logs: [{ at: 'end', line: '[INFO] SIGTERM: Shutting down servers then terminating' }, { at: 'end', line: '[INFO] plugin/health: Going into lameduck mode for 5s' }] },
    SIGINT: { exit: 0, afterMs: 5000, logs: [{ at: 'end', line: '[INFO] SIGINT: Shutting down servers then terminating' }] },
  },
};

const GRACEFUL_TERM: Partial<Record<Signal, SignalAction>> = {
  SIGTERM: { exit: 0, afterMs: 100 },
  SIGINT: { exit: 0, afterMs: 100 },
};

const GENERIC_MODEL: ProgramModel = {
  name: 'generic-server',
  listen: 'declared',
  startupMs: 500,
  memoryMiB: 16,
  routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'ok\n' } }],
  signals: GRACEFUL_TERM,
};

/** `perl`'s pi Job: `bpi(N)` prints N significant digits of pi after a few seconds. */
const PERL_BPI_MODEL: ProgramModel = {
  name: 'perl-bpi',
  memoryMiB: 24,
  logs: { start: [{ at: 'end', line: '{pi}' }] },
  exitAfterMs: 'runMs',
  exitCode: 0,
};

const KIND_NODE_LOGS = (file: string) => KLOG(file, 'Handling node with IPs: map[{hostIP}:{}]');

/**
 * The variables of an nginx image's `nginx` / `nginx-debug` command (directly, or as the argument
 * of docker-library's `/docker-entrypoint.sh`, which runs its /docker-entrypoint.d scripts for
 * any `nginx ...` command): `entrypoint` (those scripts' lines, 1.19+), `gcc` (the `built by`
 * compiler). Undefined for another image or command.
 */
function nginxVars(argv: readonly string[], image: ImageRecord): { entrypoint: string; gcc: string } | undefined {
  const b = base(argv[0]);
  if (image.family !== 'nginx' && image.family !== 'echoserver') return undefined;
  if (image.family === 'echoserver') return undefined;
  const viaEntrypoint = b === 'docker-entrypoint.sh' && (argv[1] === 'nginx' || argv[1] === 'nginx-debug');
  if (!viaEntrypoint && b !== 'nginx' && b !== 'nginx-debug') return undefined;
  const v = image.version;
  const modern = versionAtLeast(v, 1, 19);
  const entry = viaEntrypoint && modern
    ? [
        '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
        '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
        '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
        '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
        ...(versionAtLeast(v, 1, 25) ? ['/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh'] : []),
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
        '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
        '/docker-entrypoint.sh: Configuration complete; ready for start up',
      ].join('\n')
    : '';
  return { entrypoint: entry, gcc: modern ? 'gcc 12.2.0 (Debian 12.2.0-14+deb12u1) ' : 'gcc 6.3.0 20170516 (Debian 6.3.0-18+deb9u1) ' };
}

/**
 * What `nginx -v`, `-V` and `-t` print (all on stderr; src/core/nginx.c `ngx_show_version_info`
 * and the `-t` lines of `ngx_main`): `nginx version: nginx/<ver>`; with `-V` also the compiler,
 * the OpenSSL it was built with, `TLS SNI support enabled` and the configure arguments of
 * nginx.org's Debian packages (docker-library/nginx); with `-t` the two `the configuration file
 * /etc/nginx/nginx.conf ...` lines. `flags`: the single-letter options given.
 */
function nginxCliOutput(image: ImageRecord, gcc: string, flags: ReadonlySet<string>): string[] {
  const v = image.version;
  const out: string[] = [];
  if (flags.has('v') || flags.has('V')) out.push(`nginx version: nginx/${v}`);
  if (flags.has('V')) {
    const modern = versionAtLeast(v, 1, 19);
    out.push(
      `built by ${gcc}`,
      modern ? 'built with OpenSSL 3.0.15 3 Sep 2024' : 'built with OpenSSL 1.1.0f  25 May 2017',
      'TLS SNI support enabled',
      'configure arguments: --prefix=/etc/nginx --sbin-path=/usr/sbin/nginx --modules-path=/usr/lib/nginx/modules --conf-path=/etc/nginx/nginx.conf --error-log-path=/var/log/nginx/error.log --http-log-path=/var/log/nginx/access.log --pid-path=/var/run/nginx.pid --lock-path=/var/run/nginx.lock --http-client-body-temp-path=/var/cache/nginx/client_temp --http-proxy-temp-path=/var/cache/nginx/proxy_temp --http-fastcgi-temp-path=/var/cache/nginx/fastcgi_temp --http-uwsgi-temp-path=/var/cache/nginx/uwsgi_temp --http-scgi-temp-path=/var/cache/nginx/scgi_temp --user=nginx --group=nginx --with-compat --with-file-aio --with-threads --with-http_addition_module --with-http_auth_request_module --with-http_dav_module --with-http_flv_module --with-http_gunzip_module --with-http_gzip_static_module --with-http_mp4_module --with-http_random_index_module --with-http_realip_module --with-http_secure_link_module --with-http_slice_module --with-http_ssl_module --with-http_stub_status_module --with-http_sub_module --with-http_v2_module' +
        (versionAtLeast(v, 1, 25) ? ' --with-http_v3_module' : '') +
        ` --with-mail --with-mail_ssl_module --with-stream --with-stream_realip_module --with-stream_ssl_module --with-stream_ssl_preread_module --with-cc-opt='-g -O2 -ffile-prefix-map=/data/builder/debuild/nginx-${v}/debian/debuild-base/nginx-${v}=. -fstack-protector-strong -Wformat -Werror=format-security -Wp,-D_FORTIFY_SOURCE=2 -fPIC' --with-ld-opt='-Wl,-z,relro -Wl,-z,now -Wl,--as-needed -pie'`,
    );
  }
  if (flags.has('t')) out.push('nginx: the configuration file /etc/nginx/nginx.conf syntax is ok', 'nginx: the configuration file /etc/nginx/nginx.conf test is successful');
  return out;
}

/** The built-in models, in match order (first match wins). */
export const BUILTIN_MODELS: readonly ModelEntry[] = [
  {
    // `nginx -v` / `-V` / `-t` (src/core/nginx.c `ngx_main`: `ngx_show_version_info`, then
    // `ngx_test_config`): print on stderr and exit 0 without starting the server; with both, the
    // version first, then the configuration test.
    name: 'nginx-cli',
    match: (argv, image) => {
      const vars = nginxVars(argv, image);
      if (!vars) return undefined;
      const i = base(argv[0]) === 'docker-entrypoint.sh' ? 2 : 1;
      const flags = new Set<string>();
      for (const a of argv.slice(i)) if (/^-[a-zA-Z]+$/.test(a)) for (const ch of a.slice(1)) flags.add(ch);
      if (!flags.has('v') && !flags.has('V') && !flags.has('t')) return undefined;
      return { ...vars, out: nginxCliOutput(image, vars.gcc, flags).join('\n') };
    },
    model: { name: 'nginx-cli', memoryMiB: 2, logs: { start: [{ at: 0, line: '{entrypoint}' }, { at: 'end', line: '{out}', stream: 'stderr' }] }, exitAfterMs: 10, exitCode: 0 },
  },
  {
    name: 'nginx',
    match: nginxVars,
    model: NGINX_MODEL,
  },
  { name: 'httpd', match: (argv, image) => (image.family === 'httpd' && ['httpd-foreground', 'httpd'].includes(base(argv[0])) ? {} : undefined), model: HTTPD_MODEL },
  {
    name: 'postgres',
    match: (argv, image) => {
      if (image.family !== 'postgres') return undefined;
      const b = base(argv[0]);
      if (b === 'postgres' || (b === 'docker-entrypoint.sh' && argv[1] === 'postgres')) return { libc: image.tag?.includes('alpine') ? 'musl' : 'gnu' };
      return undefined;
    },
    model: {
      name: 'postgres',
      listen: [5432],
      httpPorts: 'none',
      lifecycle: 'postgres',
      memoryMiB: 32,
      helpers: { pg_isready: 'pg_isready', psql: 'ok' },
      requires: [
        {
          env: 'POSTGRES_PASSWORD',
          unlessEnv: 'POSTGRES_HOST_AUTH_METHOD',
          logs: [
            'Error: Database is uninitialized and superuser password is not specified.',
            '       You must specify POSTGRES_PASSWORD to a non-empty value for the',
            '       superuser. For example, "-e POSTGRES_PASSWORD=password" on "docker run".',
            '',
            '       You may also use "POSTGRES_HOST_AUTH_METHOD=trust" to allow all',
            '       connections without a password. This is *not* recommended.',
            '',
            '       See PostgreSQL documentation about "trust":',
            '       https://www.postgresql.org/docs/current/auth-trust.html',
          ].map((line) => ({ line, stream: 'stderr' as const })),
        },
      ],
      signals: {
        SIGINT: { exit: 0, afterMs: 150 },
        SIGTERM: { exit: 0, afterMs: 250 },
      },
    },
  },
  {
    name: 'redis',
    match: (argv, image) => {
      if (image.family !== 'redis') return undefined;
      const b = base(argv[0]);
      return b === 'redis-server' || b === 'run.sh' || (b === 'docker-entrypoint.sh' && argv[1] === 'redis-server') ? {} : undefined;
    },
    model: REDIS_MODEL,
  },
  {
    name: 'bookshop-catalog',
    match: (argv, image) => (image.family === 'bookshop' && base(argv[0]) === 'catalog' ? { svc: 'catalog' } : undefined),
    model: bookshopModel(
      'catalog',
      [
        { path: '/books', handler: 'catalog-books' },
        { path: '/books/', handler: 'catalog-book' },
      ],
      { watchers: [{ kind: 'db-ping', everyMs: 3000 }] },
    ),
  },
  {
    name: 'bookshop-orders',
    match: (argv, image) => (image.family === 'bookshop' && base(argv[0]) === 'orders' ? { svc: 'orders' } : undefined),
    model: bookshopModel('orders', [{ path: '/orders', handler: 'orders' }]),
  },
  {
    name: 'bookshop-web',
    match: (argv, image) => (image.family === 'bookshop' && base(argv[0]) === 'web' ? { svc: 'web' } : undefined),
    model: bookshopModel('web', [{ path: '/', handler: 'storefront' }]),
  },
  {
    name: 'agnhost-liveness',
    match: (argv) => (base(argv[0]) === 'agnhost' && argv[1] === 'liveness' ? {} : undefined),
    model: AGNHOST_LIVENESS,
  },
  {
    name: 'agnhost-netexec',
    match: (argv) => (base(argv[0]) === 'agnhost' && argv[1] === 'netexec' ? {} : undefined),
    model: AGNHOST_NETEXEC,
  },
  {
    name: 'agnhost-serve-hostname',
    match: (argv) => (base(argv[0]) === 'agnhost' && argv[1] === 'serve-hostname' ? {} : undefined),
    model: {
      name: 'agnhost-serve-hostname',
      listen: [{ flag: 'port', default: 9376 }],
      startupMs: 10,
      memoryMiB: 5,
      goRuntime: true,
      logs: { start: [{ at: 'listen', line: '{t:go} Serving on port {port}.', stream: 'stderr' }] },
      routes: [{ path: '*', handler: 'hostname' }],
    },
  },
  {
    name: 'agnhost-pause',
    match: (argv) => (base(argv[0]) === 'agnhost' ? {} : undefined),
    model: {
      name: 'agnhost-pause',
      memoryMiB: 3,
      logs: { start: [{ at: 0, line: 'Paused' }] },
      signals: {
        SIGTERM: { exit: 0, logs: [{ at: 'end', line: 'Shutting down after receiving signal: terminated.' }] },
        SIGINT: { exit: 0, logs: [{ at: 'end', line: 'Shutting down after receiving signal: interrupt.' }] },
      },
    },
  },
  {
    name: 'pause',
    match: (argv) => (base(argv[0]) === 'pause' ? {} : undefined),
    model: {
      name: 'pause',
      memoryMiB: 0.3,
      signals: {
        SIGTERM: { exit: 0, logs: [{ at: 'end', line: 'Shutting down, got signal: Terminated', stream: 'stderr' }] },
        SIGINT: { exit: 0, logs: [{ at: 'end', line: 'Shutting down, got signal: Interrupt', stream: 'stderr' }] },
      },
    },
  },
  {
    name: 'goproxy',
    match: (_argv, image) => (image.family === 'goproxy' ? {} : undefined),
    model: {
      name: 'goproxy',
      listen: [8080],
      startupMs: 10,
      memoryMiB: 3,
      goRuntime: true,
      routes: [{ path: '*', handler: 'static', params: { status: 500, body: 'This is a proxy server. Does not respond to non-proxy requests.\n' } }],
    },
  },
  { name: 'coredns', match: (_argv, image) => (image.family === 'coredns' ? {} : undefined), model: COREDNS_MODEL },
  {
    name: 'kube-proxy',
    match: (argv, image) => (image.family === 'kube-proxy' && base(argv[0]) === 'kube-proxy' ? {} : undefined),
    model: {
      name: 'kube-proxy',
      listen: [10249, 10256],
      startupMs: 300,
      memoryMiB: 18,
      logs: {
        start: [
          KLOG('server_linux.go:66', '"Using iptables proxy"', 50),
          KLOG('server.go:698', '"Successfully retrieved node IP(s)" IPs=["{hostIP}"]', 80),
          KLOG('conntrack.go:121', '"Set sysctl" entry="net/netfilter/nf_conntrack_tcp_timeout_established" value=86400', 90),
          KLOG('server.go:243', '"Kube-proxy configuration may be incomplete or incorrect" err="nodePortAddresses is unset; NodePort connections will be accepted on all local IPs. Consider using `--nodeport-addresses primary`"', 95, 'E'),
          KLOG('server_linux.go:170', '"Using iptables Proxier"', 120),
          KLOG('server.go:497', '"Version info" version="{version}"', 150),
          KLOG('config.go:199', '"Starting service config controller"', 160),
          KLOG('shared_informer.go:350', '"Waiting for caches to sync" controller="service config"', 160),
          KLOG('config.go:105', '"Starting endpoint slice config controller"', 161),
          KLOG('shared_informer.go:350', '"Waiting for caches to sync" controller="endpoint slice config"', 161),
          KLOG('shared_informer.go:357', '"Caches are synced" controller="service config"', 260),
          KLOG('shared_informer.go:357', '"Caches are synced" controller="endpoint slice config"', 262),
        ],
      },
      routes: [
        { path: '/healthz', handler: 'static', params: { status: 200, body: '{"lastUpdated": "{t:rfc3339nano}","currentTime": "{t:rfc3339nano}", "nodeEligible": true}' } },
        { path: '/livez', handler: 'static', params: { status: 200, body: '{"lastUpdated": "{t:rfc3339nano}","currentTime": "{t:rfc3339nano}"}' } },
        { path: '*', handler: 'static', params: { status: 404, body: '404 page not found\n' } },
      ],
      signals: GRACEFUL_TERM,
    },
  },
  {
    name: 'kindnetd',
    match: (_argv, image) => (image.family === 'kindnetd' ? {} : undefined),
    model: {
      name: 'kindnetd',
      memoryMiB: 12,
      logs: {
        start: [
          KLOG('main.go:109', 'connected to apiserver: https://10.96.0.1:443', 20),
          KLOG('main.go:139', 'hostIP = {hostIP}\npodIP = {hostIP}', 21),
          KLOG('main.go:148', 'setting mtu 1500 for CNI ', 22),
          KLOG('main.go:178', 'kindnetd IP family: "ipv4"', 23),
          KLOG('main.go:182', 'noMask IPv4 subnets: [10.244.0.0/16]', 24),
        ],
      },
      watchers: [{ kind: 'log', everyMs: 10_000, firstMs: 30, lines: [KIND_NODE_LOGS('main.go:297'), KLOG('main.go:301', 'handling current node')] }],
      signals: GRACEFUL_TERM,
    },
  },
  {
    name: 'local-path-provisioner',
    match: (_argv, image) => (image.family === 'local-path-provisioner' ? {} : undefined),
    model: {
      name: 'local-path-provisioner',
      memoryMiB: 9,
      logs: {
        start: [
          { at: 10, line: 'time="{t:rfc3339}" level=debug msg="Applied config: {\\"nodePathMap\\":[{\\"node\\":\\"DEFAULT_PATH_FOR_NON_LISTED_NODES\\",\\"paths\\":[\\"/var/local-path-provisioner\\"]}]}"', stream: 'stderr' },
          { at: 11, line: 'time="{t:rfc3339}" level=debug msg="Provisioner started"', stream: 'stderr' },
          KLOG('controller.go:824', 'Starting provisioner controller rancher.io/local-path_{hostname}_{uuid}!', 12),
          KLOG('controller.go:873', 'Started provisioner controller rancher.io/local-path_{hostname}_{uuid}!', 113),
        ],
      },
      signals: GRACEFUL_TERM,
    },
  },
  {
    name: 'echoserver',
    match: (_argv, image) => (image.family === 'echoserver' ? {} : undefined),
    model: {
      name: 'echoserver',
      listen: [8080, 8443],
      startupMs: 200,
      memoryMiB: 6,
      logs: {
        start: [
          { at: 0, line: 'Generating self-signed cert' },
          { at: 40, line: 'Generating a 2048 bit RSA private key' },
          { at: 80, line: "writing new private key to '/certs/privateKey.key'" },
          { at: 100, line: '-----' },
          { at: 150, line: 'Starting nginx' },
        ],
        access: '{remote} - - [{t:access}] "{method} {path} HTTP/1.1" {status} {bytes} "-" "{ua}"',
        accessStream: 'stdout',
      },
      routes: [{ path: '*', handler: 'echo-request' }],
      signals: { SIGTERM: { exit: 0, afterMs: 10 }, SIGQUIT: { exit: 0, afterMs: 30 } },
    },
  },
  {
    name: 'kuard',
    match: (_argv, image) => (image.family === 'kuard' ? {} : undefined),
    model: {
      name: 'kuard',
      listen: [8080],
      startupMs: 20,
      memoryMiB: 8,
      goRuntime: true,
      logs: {
        start: [GO('Starting kuard version: {version}'), GO('**********************************************************************'), GO('* WARNING: This server may expose sensitive'), GO('* and secret information. Be careful.'), GO('**********************************************************************'), GO('Config: '), GO('{'), GO('  "address": ":8080",'), GO('  "debug": false,'), GO('  "debug-sitedata-dir": "./sitedata",'), GO('  "keygen": {'), GO('    "enable": false,'), GO('    "exit-code": 0,'), GO('    "exit-on-complete": false,'), GO('    "memq-queue": "",'), GO('    "memq-server": "",'), GO('    "num-to-gen": 0,'), GO('    "time-to-run": 0'), GO('  },'), GO('  "liveness": {'), GO('    "fail-next": 0'), GO('  },'), GO('  "readiness": {'), GO('    "fail-next": 0'), GO('  },'), GO('  "tls-address": ":8443",'), GO('  "tls-dir": "/tls"'), GO('}'), { at: 'listen', line: '{t:go} Could not find certificates to serve TLS', stream: 'stderr' }, { at: 'listen', line: '{t:go} Serving on HTTP on :8080', stream: 'stderr' }],
        access: '{t:go} {remote}:41234 {method} {path}',
        accessStream: 'stderr',
      },
      routes: [
        { path: '/healthy', handler: 'static', params: { status: 200, body: 'ok' } },
        { path: '/ready', handler: 'static', params: { status: 200, body: 'ok' } },
        { path: '*', handler: 'static', params: { status: 200, body: '<!doctype html>\n<html lang="en">\n<head>\n  <meta charset="utf-8">\n  <title>KUAR Demo</title>\n</head>\n<body>\n  <div id="root"></div>\n</body>\n</html>\n' } },
      ],
    },
  },
  {
    name: 'hello-app',
    match: (_argv, image) => (image.family === 'hello-app' ? {} : undefined),
    model: {
      name: 'hello-app',
      listen: [{ env: 'PORT', default: 8080 }],
      startupMs: 10,
      memoryMiB: 4,
      goRuntime: true,
      logs: { start: [GO('Server listening on port {port}')], access: '{t:go} Serving request: {pathOnly}', accessStream: 'stderr' },
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: 'Hello, world!\nVersion: {version}.0\nHostname: {hostname}\n' } }],
    },
  },
  {
    name: 'prometheus-example-app',
    match: (_argv, image) => (image.family === 'prometheus-example-app' ? {} : undefined),
    model: {
      name: 'prometheus-example-app',
      listen: [8080],
      startupMs: 10,
      memoryMiB: 6,
      goRuntime: true,
      routes: [
        { path: '/metrics', handler: 'static', params: { status: 200, body: '# HELP version Version information about this binary\n# TYPE version gauge\nversion{version="{version}"} 1\n' } },
        { path: '*', handler: 'static', params: { status: 200, body: 'Hello from example application.' } },
      ],
    },
  },
  {
    name: 'cassandra',
    match: (_argv, image) => (image.family === 'cassandra' ? {} : undefined),
    model: {
      name: 'cassandra',
      listen: [7000, 7001, 7199, 9042],
      httpPorts: 'none',
      startupMs: 25_000,
      readyDelayMs: 5_000,
      memoryMiB: 700,
      logs: {
        start: [
          { at: 0, line: 'Starting Cassandra on {podIP}' },
          { at: 10, line: 'CASSANDRA_CONF_DIR /etc/cassandra' },
          { at: 20, line: 'CASSANDRA_CFG /etc/cassandra/cassandra.yaml' },
          { at: 2000, line: 'INFO  [main] {t:cassandra} YamlConfigurationLoader.java:89 - Configuration location: file:/etc/cassandra/cassandra.yaml' },
          { at: 'listen', line: 'INFO  [main] {t:cassandra} Server.java:159 - Starting listening for CQL clients on /{podIP}:9042 (unencrypted)...' },
          { at: 'listen', line: 'INFO  [main] {t:cassandra} CassandraDaemon.java:564 - Not starting RPC server as requested. Use JMX (StorageService->startRPCServer()) or nodetool (enablethrift) to start it' },
        ],
      },
      helpers: { 'ready-probe.sh': 'ready-check', nodetool: 'nodetool' },
      signals: { SIGTERM: { exit: 143, afterMs: 2000 } },
    },
  },
  {
    name: 'zookeeper',
    match: (argv, image) => (image.family === 'zookeeper' && (base(argv[0]) === 'start-zookeeper' || argv.join(' ').includes('start-zookeeper')) ? {} : undefined),
    model: {
      name: 'zookeeper',
      listen: [2181, 2888, 3888],
      httpPorts: 'none',
      startupMs: 4000,
      memoryMiB: 220,
      logs: { start: [{ at: 3000, line: '{t:zk} [myid:1] - INFO  [main:QuorumPeerMain@127] - Starting quorum peer' }] },
      helpers: { 'zookeeper-ready': 'ready-check' },
      signals: GRACEFUL_TERM,
    },
  },
  {
    name: 'fluentd',
    match: (_argv, image) => (image.family === 'fluentd' ? {} : undefined),
    model: {
      name: 'fluentd',
      memoryMiB: 90,
      logs: {
        start: [
          { at: 500, line: '{t:fluentd} [info]: parsing config file is succeeded path="/etc/fluent/fluent.conf"' },
          { at: 900, line: '{t:fluentd} [info]: gem \'fluentd\' version \'1.16.2\'' },
          { at: 1500, line: '{t:fluentd} [info]: starting fluentd-1.16.2 pid=7 ruby="3.1.4"' },
          { at: 1600, line: '{t:fluentd} [info]: fluentd worker is now running worker=0' },
        ],
      },
      signals: GRACEFUL_TERM,
    },
  },
  {
    name: 'guestbook-frontend',
    match: (_argv, image) => (image.family === 'guestbook-frontend' ? {} : undefined),
    model: {
      ...HTTPD_MODEL,
      name: 'guestbook-frontend',
      docroot: undefined,
      routes: [{ path: '*', handler: 'static', params: { status: 200, body: '<html ng-app="redis">\n  <head>\n    <title>Guestbook</title>\n  </head>\n  <body ng-controller="RedisCtrl">\n    <div style="margin-left:20px;">\n      <h2>Guestbook</h2>\n    </div>\n  </body>\n</html>\n' } }],
    },
  },
  {
    name: 'ingress-nginx-controller',
    match: (argv, image) => (image.family === 'ingress-nginx' && argv.some((a) => base(a) === 'nginx-ingress-controller') ? {} : undefined),
    model: {
      name: 'ingress-nginx-controller',
      listen: [80, 443, 8443, 10254],
      httpPorts: [80, 10254],
      startupMs: 1500,
      readyDelayMs: 500,
      memoryMiB: 90,
      logs: {
        start: [
          { at: 0, line: '-------------------------------------------------------------------------------' },
          { at: 0, line: 'NGINX Ingress controller' },
          { at: 0, line: '  Release:       {version}' },
          { at: 0, line: '  Build:         a2eb6ab4b8ac2c3ea2bb4c69a3a2ff2a8bb3e2f5' },
          { at: 0, line: '  Repository:    https://github.com/kubernetes/ingress-nginx' },
          { at: 0, line: '  nginx version: nginx/1.27.1' },
          { at: 0, line: '' },
          { at: 0, line: '-------------------------------------------------------------------------------' },
          { at: 0, line: '' },
          KLOG('main.go:205', '"Creating API client" host="https://10.96.0.1:443"', 10),
          KLOG('main.go:248', '"Running in Kubernetes cluster" major="1" minor="36" git="v1.36.1" state="clean" commit="" platform="linux/amd64"', 40),
          KLOG('main.go:101', '"SSL fake certificate created" file="/etc/ingress-controller/ssl/default-fake-certificate.pem"', 300),
          KLOG('nginx.go:271', '"Starting NGINX Ingress controller"', 500),
          KLOG('controller.go:214', '"Backend successfully reloaded"', 1400),
        ],
      },
      routes: [
        { path: '/healthz', handler: 'static', params: { status: 200, body: 'ok' } },
        { path: '*', handler: 'static', params: { status: 404, body: '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n' } },
      ],
      helpers: { 'wait-shutdown': 'ok' },
      signals: { SIGTERM: { exit: 0, afterMs: 1000, logs: [KLOG('sigterm.go:36', '"Received SIGTERM, shutting down"', 0)] }, SIGQUIT: { exit: 0, afterMs: 1000 } },
    },
  },
  {
    name: 'kube-webhook-certgen',
    match: (argv, image) => (image.family === 'kube-webhook-certgen' ? { mode: argv.includes('patch') ? 'patch' : 'create' } : undefined),
    model: {
      name: 'kube-webhook-certgen',
      memoryMiB: 10,
      logs: { start: [{ at: 'end', line: '{"level":"info","msg":"{certgenMsg}","source":"k8s/k8s.go:64","time":"{t:rfc3339}"}', stream: 'stderr' }] },
      exitAfterMs: 800,
      exitCode: 0,
    },
  },
  {
    name: 'perl-bpi',
    match: (argv) => {
      if (!/^perl/.test(base(argv[0]))) return undefined;
      const code = argv.slice(1).find((a) => /bpi\(\s*\d+\s*\)/.test(a));
      if (!code) return undefined;
      const n = Number(/bpi\(\s*(\d+)\s*\)/.exec(code)![1]);
      return { pi: bpi(n), runMs: 2000 + 3 * n };
    },
    model: PERL_BPI_MODEL,
  },
  {
    name: 'perl',
    match: (argv) => {
      if (!/^perl/.test(base(argv[0]))) return undefined;
      const e = argv.indexOf('-de0');
      if (e !== -1 || argv.length === 1) {
        return { out: 'Loading DB routines from perl5db.pl version 1.77\nEditor support available.\n\nEnter h or \'h h\' for help, or \'man perldebug\' for more help.\n\nmain::(-e:1):\t0\n  DB<1> ' };
      }
      const code = argv.find((a, i) => i > 0 && argv[i - 1].startsWith('-') && argv[i - 1].includes('e'));
      const printed = code ? /print\s*\(?\s*"([^"]*)"/.exec(code)?.[1] : undefined;
      return { out: printed !== undefined ? printed.replace(/\\n/g, '\n') + (argv.some((a) => /^-\w*l/.test(a)) ? '\n' : '') : '' };
    },
    model: { name: 'perl', memoryMiB: 4, logs: { start: [{ at: 'end', line: '{out}' }] }, exitAfterMs: 40, exitCode: 0 },
  },
  {
    name: 'python',
    match: (argv) => {
      if (!/^python/.test(base(argv[0]))) return undefined;
      const m = argv.indexOf('-m');
      if (m !== -1 && argv[m + 1] === 'http.server') return undefined;
      const c = argv.indexOf('-c');
      const printed = c !== -1 ? /print\(\s*["']([^"']*)["']\s*\)/.exec(argv[c + 1] ?? '')?.[1] : undefined;
      return { out: printed !== undefined ? `${printed}\n` : '' };
    },
    model: { name: 'python', memoryMiB: 8, logs: { start: [{ at: 'end', line: '{out}' }] }, exitAfterMs: 60, exitCode: 0 },
  },
  {
    name: 'python-http-server',
    match: (argv) => {
      if (!/^python/.test(base(argv[0]))) return undefined;
      const m = argv.indexOf('-m');
      if (m === -1 || argv[m + 1] !== 'http.server') return undefined;
      return { pyport: Number(argv[m + 2]) || 8000 };
    },
    model: {
      name: 'python-http-server',
      listen: [{ env: '__PYPORT', default: 8000 }],
      startupMs: 80,
      memoryMiB: 14,
      logs: {
        start: [{ at: 'listen', line: 'Serving HTTP on 0.0.0.0 port {port} (http://0.0.0.0:{port}/) ...', stream: 'stderr' }],
        access: '{remote} - - [{t:pyaccess}] "{method} {path} HTTP/1.1" {status} -',
        accessStream: 'stderr',
      },
      docroot: '/',
    },
  },
  {
    name: 'stress',
    match: (argv) => {
      if (base(argv[0]) !== 'stress') return undefined;
      const opt = (n: string) => {
        const i = argv.indexOf(n);
        return i === -1 ? undefined : argv[i + 1];
      };
      if (argv.includes('--help') || argv.length === 1) return { vmMiB: 0.5, runMs: 10, line: STRESS_USAGE.replace(/\n$/, '') };
      const vm = Number(opt('--vm') ?? opt('-m') ?? 0);
      const bytes = parseSize(opt('--vm-bytes') ?? '256M');
      const timeout = opt('--timeout') ?? opt('-t');
      const hogs = `${Number(opt('--cpu') ?? opt('-c') ?? 0)} cpu, ${Number(opt('--io') ?? opt('-i') ?? 0)} io, ${vm} vm, ${Number(opt('--hdd') ?? opt('-d') ?? 0)} hdd`;
      return {
        vmMiB: 1 + (vm * bytes) / MiB,
        runMs: timeout ? (parseSeconds(timeout) ?? 0) * 1000 : Number.POSITIVE_INFINITY,
        line: `stress: info: [1] dispatching hogs: ${hogs}`,
      };
    },
    model: {
      name: 'stress',
      memoryMiB: 1,
      memoryGrowth: { firstMs: 100, everyMs: 100, stepMiB: 'vmMiB', maxMiB: 'vmMiB' },
      logs: { start: [{ at: 0, line: '{line}', stream: 'stdout' }] },
      exitAfterMs: 'runMs',
      exitCode: 0,
    },
  },
  {
    name: 'vish-stress',
    match: (argv, image) => {
      if (image.family !== 'vish-stress') return undefined;
      const flag = (n: string) => {
        const i = argv.findIndex((a) => a === `-${n}` || a.startsWith(`-${n}=`));
        if (i === -1) return undefined;
        return argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
      };
      const total = parseSize(flag('mem-total') ?? '0') / MiB;
      const step = parseSize(flag('mem-alloc-size') ?? '4Ki') / MiB;
      const sleep = (parseSeconds(flag('mem-alloc-sleep') ?? '1ms') ?? 0.001) * 1000;
      return { total: flag('mem-total') ?? '0', chunk: flag('mem-alloc-size') ?? '4Ki', sleepRaw: flag('mem-alloc-sleep') ?? '1ms', maxMiB: 1 + total, stepMiB: step || 0.004, sleepMs: Math.max(1, sleep) };
    },
    model: {
      name: 'vish-stress',
      memoryMiB: 1,
      memoryGrowth: { everyMs: 'sleepMs', stepMiB: 'stepMiB', maxMiB: 'maxMiB' },
      logs: {
        start: [KLOG('main.go:26', 'Allocating "{total}" memory, in "{chunk}" chunks, with a {sleepRaw} sleep between allocations'), KLOG('main.go:39', 'Spawning a thread to consume CPU'), KLOG('main.go:39', 'Spawning a thread to consume CPU')],
      },
    },
  },
  // Tutorial images (http-echo, whoami, mysql, REPLs ...): programs-extra.ts.
  ...EXTRA_MODELS,
];

const STRESS_USAGE = '`stress\' imposes certain types of compute stress on your system\n\nUsage: stress [OPTION [ARG]] ...\n -?, --help         show this help statement\n     --version      show version statement\n -v, --verbose      be verbose\n -q, --quiet        be quiet\n -n, --dry-run      show what would have been done\n -t, --timeout N    timeout after N seconds\n     --backoff N    wait factor of N microseconds before work starts\n -c, --cpu N        spawn N workers spinning on sqrt()\n -i, --io N         spawn N workers spinning on sync()\n -m, --vm N         spawn N workers spinning on malloc()/free()\n     --vm-bytes B   malloc B bytes per vm worker (default is 256MB)\n     --vm-stride B  touch a byte every B bytes (default is 4096)\n     --vm-hang N    sleep N secs before free (default none, 0 is inf)\n     --vm-keep      redirty memory instead of freeing and reallocating\n -d, --hdd N        spawn N workers spinning on write()/unlink()\n     --hdd-bytes B  write B bytes per hdd worker (default is 1GB)\n\nExample: stress --cpu 8 --io 4 --vm 2 --vm-bytes 128M --timeout 10s\n\nNote: Numbers may be suffixed with s,m,h,d,y (time) or B,K,M,G (size).\n';

/** Model for families whose server is the image's default command, matched after BUILTIN_MODELS. */
const FAMILY_SERVER_PORTS: Record<string, readonly number[]> = {
  'cert-manager-controller': [9402, 9403],
  'cert-manager-webhook': [10250, 6080],
  'cert-manager-cainjector': [9402],
  'prometheus-operator': [8080],
  'metrics-server': [10250],
  etcd: [2379, 2380, 2381],
  'kube-apiserver': [6443],
  'kube-controller-manager': [10257],
  'kube-scheduler': [10259],
  ...EXTRA_FAMILY_SERVER_PORTS,
};

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

function base(p: string | undefined): string {
  if (!p) return '';
  const i = p.lastIndexOf('/');
  return i === -1 ? p : p.slice(i + 1);
}

function versionAtLeast(v: string, major: number, minor: number): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(v);
  if (!m) return true;
  return Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor);
}

/** `256M`, `250M`, `100Mi`, `1G`, `4Ki` -> bytes (stress and Kubernetes suffixes). */
function parseSize(s: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT]i?|[kmgt]|B)?$/i.exec(s.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  const u = (m[2] ?? '').toUpperCase().replace('I', '');
  const f = u === 'K' ? 1024 : u === 'M' ? MiB : u === 'G' ? 1024 * MiB : u === 'T' ? 1024 * 1024 * MiB : 1;
  return n * f;
}

function parseSeconds(s: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(s);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n / 1000 : m[2] === 'm' ? n * 60 : m[2] === 'h' ? n * 3600 : n;
}

let piCache: string | undefined;
/** Digits of pi ("31415926...") to at least `n` places, by Machin's formula in BigInt (cached). */
export function piDigits(n: number): string {
  if (piCache && piCache.length >= n + 10) return piCache;
  const digits = Math.max(n + 20, 2100);
  const unity = 10n ** BigInt(digits + 10);
  const arctanInv = (x: bigint): bigint => {
    let sum = unity / x;
    let power = sum;
    const x2 = x * x;
    let k = 1n;
    let sign = -1n;
    while (power !== 0n) {
      power /= x2;
      k += 2n;
      sum += (sign * power) / k;
      sign = -sign;
    }
    return sum;
  };
  const pi = 4n * (4n * arctanInv(5n) - arctanInv(239n));
  piCache = (pi / 10n ** 10n).toString();
  return piCache;
}

/**
 * What `perl -Mbignum=bpi -wle 'print bpi(N)'` prints: pi to N significant digits, rounded
 * (Math::BigFloat::bpi), e.g. `bpi(5)` = `3.1416`.
 */
export function bpi(n: number): string {
  if (n <= 1) return '3';
  const d = piDigits(n);
  const kept = d.slice(0, n);
  const next = Number(d[n]);
  let rounded = kept;
  if (next >= 5) {
    const arr = kept.split('').map(Number);
    let i = arr.length - 1;
    while (i >= 0) {
      arr[i]++;
      if (arr[i] < 10) break;
      arr[i] = 0;
      i--;
    }
    rounded = arr.join('');
  }
  return `${rounded[0]}.${rounded.slice(1)}`;
}

/** Go's net error text for a failed dial (`dial tcp 10.96.0.5:5432: connect: connection refused`). */
export function goDialError(host: string, d: Extract<DialOutcome, { ok: false }>, dnsServer = '10.96.0.10'): string {
  switch (d.error) {
    case 'nxdomain':
      return `dial tcp: lookup ${host} on ${dnsServer}:53: no such host`;
    case 'refused':
      return `dial tcp ${d.address ?? host}: connect: connection refused`;
    case 'unreachable':
      return `dial tcp ${d.address ?? host}: connect: no route to host`;
    default:
      return `dial tcp ${d.address ?? host}: i/o timeout`;
  }
}

/** Go net/http's client error: `Get "http://catalog/books": dial tcp ...`. */
export function goHttpError(method: string, url: string, out: Extract<HttpOutcome, { error: string }>, dnsServer = '10.96.0.10'): string {
  const verb = method.charAt(0).toUpperCase() + method.slice(1).toLowerCase();
  const u = parseUrl(url);
  const host = u?.host ?? url;
  if (out.error === 'timeout') return `${verb} "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
  if (out.error === 'reset') return `${verb} "${url}": EOF`;
  return `${verb} "${url}": ${goDialError(host, { ok: false, error: out.error, ...(out.address ? { address: out.address } : {}) }, dnsServer)}`;
}

/** A set of clock timers cancelled together. */
class Timers {
  private set = new Set<Timer>();
  constructor(private readonly clock: Clock) {}
  after(ms: number, label: string, fn: () => void): void {
    const t: Timer = this.clock.schedule(Math.max(0, ms), () => {
      this.set.delete(t);
      fn();
    }, { label });
    this.set.add(t);
  }
  cancelAll(): void {
    for (const t of this.set) t.cancel();
    this.set.clear();
  }
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `logTime`'s date and time strings of the last second it formatted (Unix seconds). */
let logTimeSecond: { sec: number; date: string; time: string } = { sec: Number.NaN, date: '', time: '' };

/**
 * A log timestamp in one of the formats real programs use. `unixMs` is wall time (epoch +
 * virtual now); `micro` adds sub-millisecond digits (0-999).
 */
export function logTime(kind: string, unixMs: number, micro = 0): string {
  const c = civil(unixMs);
  const us = c.ms * 1000 + micro;
  // The calendar date and clock time of the second, kept with the second (a pure function of
  // it; performance only: log lines of one second share them).
  const sec = Math.floor(unixMs / 1000);
  let day = logTimeSecond;
  if (day.sec !== sec) {
    day = logTimeSecond = { sec, date: `${c.year}-${pad(c.month)}-${pad(c.day)}`, time: `${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}` };
  }
  const date = day.date;
  const time = day.time;
  switch (kind) {
    case 'go':
    case 'nginx':
      return `${c.year}/${pad(c.month)}/${pad(c.day)} ${time}`;
    case 'access':
      return `${pad(c.day)}/${MONTHS[c.month - 1]}/${c.year}:${time} +0000`;
    case 'pyaccess':
      return `${pad(c.day)}/${MONTHS[c.month - 1]}/${c.year} ${time}`;
    case 'pg':
      return `${date} ${time}.${pad(c.ms, 3)} UTC`;
    case 'pgsec':
      return `${date} ${time} UTC`;
    case 'redis':
      return `${pad(c.day)} ${MONTHS[c.month - 1]} ${c.year} ${time}.${pad(c.ms, 3)}`;
    case 'httpd':
      return `${WEEKDAYS[c.weekday]} ${MONTHS[c.month - 1]} ${pad(c.day)} ${time}.${pad(us, 6)} ${c.year}`;
    case 'klog':
      return `${pad(c.month)}${pad(c.day)} ${time}.${pad(us, 6)}`;
    case 'rfc3339':
      return `${date}T${time}Z`;
    case 'js':
      // JavaScript's Date#toISOString (what Node's console.log prints for a Date): milliseconds, Z.
      return `${date}T${time}.${pad(c.ms, 3)}Z`;
    case 'rfc3339nano':
      return `${date}T${time}.${pad(us, 6)}${pad(micro % 1000, 3)}Z`.replace(/\.?0+Z$/, 'Z');
    case 'cassandra':
      return `${date} ${time},${pad(c.ms, 3)}`;
    case 'zk':
      return `${date} ${time},${pad(c.ms, 3)}`;
    case 'fluentd':
      return `${date} ${time} +0000`;
    case 'gonow':
      return `${date} ${time}.${pad(us, 6)}000 +0000 UTC`;
    case 'date':
      return formatDate(unixMs);
    default:
      return `${date}T${time}Z`;
  }
}

// ---------------------------------------------------------------------------------------------
// Behaviours: running models inside a container
// ---------------------------------------------------------------------------------------------

/** A running program inside a container (the main process or a child of a shell). */
interface Behaviour {
  readonly name: string;
  start(): void;
  /** A catchable signal arrived. */
  signal(sig: Signal): void;
  listening(port: number): boolean;
  /** HTTP on `port`; undefined when nothing of this behaviour listens there or it is not HTTP. */
  http(port: number, req: HttpRequest): HttpOutcome | undefined;
  helper(argv: string[]): ExecOutcome | undefined;
  ready(): boolean;
  stop(): void;
}

/** What a behaviour can do to its process and container. */
interface BehaviourHost {
  readonly spec: ContainerRunSpec;
  readonly services: ContainerServices;
  readonly fs: ContainerFs;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** PID inside the container. */
  readonly pid: number;
  /** The init process of its PID namespace (signals without a handler are ignored). */
  readonly isPid1: boolean;
  out(line: string): void;
  err(line: string): void;
  exit(code: number): void;
  setMemory(bytes: number): void;
  readonly alive: boolean;
  /** Start a child program (a shell starting nginx). */
  spawnChild(argv: string[], io: { out: (t: string) => void; err: (t: string) => void }, onExit: (code: number) => void, execd: boolean): ShellChild | undefined;
  /** Register/unregister a child behaviour for network routing. */
  children: Set<Behaviour>;
}

/** `env.NAME` variable keys by variable name (bounded: cleared when full). */
const envVarKeys = new Map<string, string>();

/**
 * `env.${name}`, one string per name (performance only: every container start copies its
 * environment into its model's variables, and the names repeat across containers).
 */
function envVarKey(name: string): string {
  let key = envVarKeys.get(name);
  if (key === undefined) {
    if (envVarKeys.size >= 4096) envVarKeys.clear();
    envVarKeys.set(name, (key = `env.${name}`));
  }
  return key;
}

/** The interpreter of `ProgramModel`s. */
class ModelBehaviour implements Behaviour {
  readonly name: string;
  private readonly timers: Timers;
  private listeningNow = false;
  private readyAt = Number.POSITIVE_INFINITY;
  private stopping = false;
  private dead = false;
  private readonly flags: Record<string, boolean> = { live: true, ready: true, poisoned: false };
  private reqN = 0;
  /** Requests answered so far (the access log's `{requests}`). */
  private served = 0;
  private extraMiB = 0;
  private baseMiB = 0;
  private startedAt = 0;
  private readonly bound: number[] = [];
  private readonly ports: number[];
  private readonly httpPorts: number[];
  private orders: unknown[] | null = null;
  private readonly vars: Vars;

  constructor(
    private readonly model: ProgramModel,
    private readonly host: BehaviourHost,
    vars: Vars,
  ) {
    this.name = model.name;
    this.timers = new Timers(host.services.clock);
    const spec = host.spec;
    const env = host.env;
    // The same object as spreading the env entries and `vars`, built by assignment (performance only).
    const all: Vars = {
      version: spec.image.version,
      hostname: spec.pod.hostname,
      podName: spec.pod.name,
      namespace: spec.pod.namespace,
      nodeName: spec.pod.nodeName,
      podIP: spec.pod.podIP,
      hostIP: spec.pod.hostIP,
      uuid: spec.pod.uid,
    };
    for (const k in env) all[envVarKey(k)] = env[k];
    for (const k in vars) all[k] = vars[k];
    this.vars = all;
    for (const k of ['POD_NAME', 'NODE_NAME']) if (this.vars[`env.${k}`] === undefined || this.vars[`env.${k}`] === '') this.vars[`env.${k}`] = '?';
    if (vars.pyport !== undefined) this.vars['env.__PYPORT'] = vars.pyport;
    this.ports = this.resolvePorts(model.listen);
    this.httpPorts = model.httpPorts === 'none' ? [] : model.httpPorts === undefined || model.httpPorts === 'all' ? this.ports : this.resolvePorts(model.httpPorts);
    this.vars.port = this.ports[0] ?? '';
    this.vars.nginx404 = nginx404Page(spec.image.version);
    this.vars.certgenMsg = vars.mode === 'patch' ? "patching webhook configurations 'ingress-nginx-admission' mutating=false, validating=true, failurePolicy=Fail" : 'creating new secret';
  }

  private resolvePorts(specs: readonly PortSpec[] | 'declared' | undefined): number[] {
    if (!specs) return [];
    if (specs === 'declared') {
      const declared = this.host.spec.ports.filter((p) => (p.protocol ?? 'TCP') === 'TCP').map((p) => p.containerPort);
      return declared.length ? declared : [...(this.host.spec.image.config.exposedPorts ?? [])];
    }
    return specs.map((p) => {
      if (typeof p === 'number') return p;
      if ('env' in p) return Number(this.host.env[p.env] ?? this.vars?.[`env.${p.env}`]) || p.default;
      const a = this.host.argv.find((x) => x.startsWith(`--${p.flag}=`));
      return a ? Number(a.split('=')[1]) || p.default : p.default;
    });
  }

  private num(v: number | string | undefined, dflt = 0): number {
    if (v === undefined) return dflt;
    if (typeof v === 'number') return v;
    const x = this.vars[v];
    return typeof x === 'number' ? x : Number(x ?? dflt);
  }

  /** Render a template at the current time. */
  private lastStamp = { ms: -1, micro: 0 };

  /** Sub-millisecond digits for a time stamp: random, but never going back within one ms. */
  private micro(unixMs: number): number {
    const svc = this.host.services;
    const micro = unixMs === this.lastStamp.ms ? Math.min(999, this.lastStamp.micro + svc.rng.int(1, 60)) : svc.rng.int(0, 700);
    this.lastStamp = { ms: unixMs, micro };
    return micro;
  }

  render(tpl: string, extra: Vars = {}): string {
    // No `{` in the template: the pattern below cannot match, so the answer is the template
    // itself and no replacement (no time read, no random draw) would run (performance only:
    // static bodies such as probe answers).
    if (tpl.indexOf('{') === -1) return tpl;
    const svc = this.host.services;
    const unixMs = svc.clock.epochMs + svc.clock.now();
    // `tpl.replace(TEMPLATE_VAR, fn)` with the template's matches found once (`templateParts`):
    // the same matches, replaced left to right by the same function of the key, so the same
    // text and the same random draws in the same order (performance only).
    const parts = templateParts(tpl);
    let out = parts[0];
    for (let i = 1; i < parts.length; i += 2) {
      const k = parts[i];
      let r: string;
      if (k.startsWith('t:')) r = logTime(k.slice(2), unixMs, this.micro(unixMs));
      else if (k === 'unix') r = String(Math.floor(unixMs / 1000));
      else {
        const v = extra[k] ?? this.vars[k];
        r = v === undefined ? `{${k}}` : String(v);
      }
      out += r + parts[i + 1];
    }
    return out;
  }

  private emit(l: LogLine, extra: Vars = {}): void {
    const text = this.render(l.line, extra);
    if (text === '' && l.line.startsWith('{') && l.line.endsWith('}')) return; // an empty variable line (no entrypoint output)
    const err = l.stream === 'stderr';
    // One line without a newline (the common case): written as the split below would (performance only).
    if (text.indexOf('\n') === -1) {
      if (err) this.host.err(text);
      else this.host.out(text);
      return;
    }
    const ls = text.split('\n');
    if (ls.length > 1 && ls[ls.length - 1] === '') ls.pop();
    for (const x of ls) {
      if (err) this.host.err(x);
      else this.host.out(x);
    }
  }

  private emitAll(lines: readonly LogLine[] | undefined, when: number | 'end' | 'listen', extra: Vars = {}): void {
    for (const l of lines ?? []) if ((l.at ?? 0) === when) this.emit(l, extra);
  }

  private setMem(): void {
    this.host.setMemory(Math.round((this.baseMiB + this.extraMiB) * MiB));
  }

  start(): void {
    const m = this.model;
    const host = this.host;
    this.startedAt = host.services.clock.now();
    this.baseMiB = this.num(m.memoryMiB);
    this.setMem();
    if (!host.alive) return;
    for (const r of m.requires ?? []) {
      const have = (host.env[r.env] ?? '') !== '' || (r.unlessEnv !== undefined && (host.env[r.unlessEnv] ?? '') !== '');
      if (!have && !(m.lifecycle === 'postgres' && this.pgInitialized())) {
        for (const l of r.logs) this.emit(l);
        this.die(1);
        return;
      }
    }
    if (m.lifecycle === 'postgres') {
      this.postgresStart();
      return;
    }
    // Timed start-up lines.
    const timed = (m.logs?.start ?? []).filter((l) => typeof (l.at ?? 0) === 'number');
    for (const l of timed) {
      const at = (l.at ?? 0) as number;
      if (at === 0) this.emit(l);
      else this.timers.after(at, `${m.name}: log`, () => this.emit(l));
    }
    const startup = m.startupMs ?? 0;
    if (this.ports.length > 0 || (m.logs?.start ?? []).some((l) => l.at === 'listen')) {
      if (startup === 0) this.listen();
      else this.timers.after(startup, `${m.name}: listen`, () => this.listen());
    } else this.readyAt = this.startedAt;
    this.startWatchers();
    this.startGrowth();
    if (m.exitAfterMs !== undefined) {
      const ms = this.num(m.exitAfterMs, Number.POSITIVE_INFINITY);
      if (Number.isFinite(ms)) {
        this.timers.after(ms, `${m.name}: done`, () => {
          this.emitAll(m.logs?.start, 'end');
          this.die(m.exitCode ?? 0);
        });
      }
    }
  }

  private startWatchers(): void {
    for (const w of this.model.watchers ?? []) {
      const run = () => {
        if (this.dead) return;
        if (w.kind === 'db-ping') this.dbPing();
        else for (const l of w.lines ?? []) this.emit(l);
        this.timers.after(w.everyMs, `${this.model.name}: ${w.kind}`, run);
      };
      if (!w.firstMs) run();
      else this.timers.after(w.firstMs, `${this.model.name}: ${w.kind}`, run);
    }
  }

  private startGrowth(): void {
    const g = this.model.memoryGrowth;
    if (!g) return;
    const every = Math.max(1, this.num(g.everyMs, 1000));
    const step = this.num(g.stepMiB);
    const max = this.num(g.maxMiB);
    if (!(step > 0) || !(max > this.baseMiB)) return;
    const grow = () => {
      if (this.dead) return;
      this.baseMiB = Math.min(max, this.baseMiB + step);
      this.setMem();
      if (this.dead || !this.host.alive) return;
      if (this.baseMiB < max) this.timers.after(every, `${this.model.name}: allocate`, grow);
    };
    this.timers.after(g.firstMs ?? every, `${this.model.name}: allocate`, grow);
  }

  private listen(): void {
    if (this.dead) return;
    const svc = this.host.services;
    for (const p of this.ports) {
      if (!svc.bind(p)) {
        for (const q of this.bound) svc.release(q);
        this.bound.length = 0;
        for (const l of this.model.logs?.bindError ?? [{ line: `listen tcp :${p}: bind: address already in use`, stream: 'stderr' as const }]) this.emit(l, { port: p });
        this.die(1);
        return;
      }
      this.bound.push(p);
    }
    this.listeningNow = true;
    if (this.model.name === 'nginx') this.nginxStartNotices();
    this.emitAll(this.model.logs?.start, 'listen');
    const readyDelay = this.model.readyDelayMs ?? 0;
    this.readyAt = svc.clock.now() + readyDelay;
  }

  private nginxStartNotices(): void {
    const workers = this.host.spec.pod.nodeCpus ?? 2;
    const lines = [
      'using the "epoll" event method',
      `nginx/${this.host.spec.image.version}`,
      `built by {gcc}`,
      'OS: Linux 6.8.0-60-generic',
      'getrlimit(RLIMIT_NOFILE): 1048576:1048576',
      'start worker processes',
      ...Array.from({ length: workers }, (_, i) => `start worker process ${29 + i}`),
    ];
    for (const l of lines) this.emit(NGINX_NOTICE(l));
  }

  ready(): boolean {
    return !this.dead && this.host.services.clock.now() >= this.readyAt;
  }

  listening(port: number): boolean {
    return !this.dead && this.listeningNow && this.ports.includes(port);
  }

  private die(code: number): void {
    if (this.dead) return;
    this.dead = true;
    this.timers.cancelAll();
    for (const p of this.bound) this.host.services.release(p);
    this.bound.length = 0;
    this.listeningNow = false;
    this.host.exit(code);
  }

  stop(): void {
    this.dead = true;
    this.timers.cancelAll();
    for (const p of this.bound) this.host.services.release(p);
    this.bound.length = 0;
    this.listeningNow = false;
  }

  signal(sig: Signal): void {
    if (this.dead) return;
    const act = this.model.signals?.[sig];
    if (act) {
      if (this.model.lifecycle === 'postgres' && act.exit !== undefined) {
        this.postgresStop(sig);
        return;
      }
      if (act.ignore) {
        for (const l of act.logs ?? []) this.emit(l);
        return;
      }
      if (this.stopping) return;
      this.stopping = true;
      for (const l of act.logs ?? []) this.emit(l);
      // A stopping server closes its listeners at once.
      this.listeningNow = false;
      const code = act.exit ?? 0;
      if (!act.afterMs) this.die(code);
      else this.timers.after(act.afterMs, `${this.model.name}: shutdown`, () => this.die(code));
      return;
    }
    const n = SIGNAL_NUMBERS[sig];
    if (this.model.goRuntime && ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'].includes(sig)) {
      // Go's runtime handles the signal, finds no Notify, and re-raises it with the default
      // action; as PID 1 that re-raise is ignored, so the runtime exits with status 2.
      if (sig === 'SIGQUIT') this.emit({ line: `SIGQUIT: quit\nPC=0x47ad41 m=0 sigcode=0\n\ngoroutine 0 gp=0x0 m=0 mp=0x0 [idle]:`, stream: 'stderr' });
      this.die(this.host.isPid1 ? 2 : 128 + n);
      return;
    }
    // No handler: the kernel's default action, which an init process does not get.
    if (this.host.isPid1) return;
    this.die(128 + n);
  }

  helper(argv: string[]): ExecOutcome | undefined {
    const b = base(argv[0]);
    const h = this.model.helpers?.[b];
    if (!h) return undefined;
    const ready = this.ready() && this.listeningNow;
    switch (h) {
      case 'pg_isready':
        if (ready) return { stdout: '/var/run/postgresql:5432 - accepting connections\n', stderr: '', exitCode: 0 };
        return this.dead || !this.listeningNow ? { stdout: '/var/run/postgresql:5432 - no response\n', stderr: '', exitCode: 2 } : { stdout: '/var/run/postgresql:5432 - rejecting connections\n', stderr: '', exitCode: 1 };
      case 'redis-cli': {
        if (!ready) return { stdout: '', stderr: 'Could not connect to Redis at 127.0.0.1:6379: Connection refused\n', exitCode: 1 };
        const cmd = (argv.slice(1).filter((a) => !a.startsWith('-'))[0] ?? '').toLowerCase();
        return { stdout: cmd === 'ping' ? 'PONG\n' : cmd === 'info' ? `# Server\r\nredis_version:${this.host.spec.image.version}\r\n` : 'OK\n', stderr: '', exitCode: 0 };
      }
      case 'ready-check':
        return ready ? { stdout: '', stderr: '', exitCode: 0 } : { stdout: '', stderr: '', exitCode: 1 };
      case 'nodetool':
        if (!ready) return { stdout: '', stderr: "nodetool: Failed to connect to '127.0.0.1:7199' - ConnectException: 'Connection refused (Connection refused)'.\n", exitCode: 1 };
        return {
          stdout: `Datacenter: DC1-K8Demo\n=======================\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n--  Address      Load       Tokens       Owns (effective)  Host ID                               Rack\nUN  ${this.host.spec.pod.podIP}  104.55 KiB  32           100.0%            ${this.host.spec.pod.uid}  Rack1-K8Demo\n\n`,
          stderr: '',
          exitCode: 0,
        };
      case 'ok':
        return { stdout: '', stderr: '', exitCode: 0 };
    }
    return undefined;
  }

  // --- HTTP ---------------------------------------------------------------------------------

  http(port: number, req: HttpRequest): HttpOutcome | undefined {
    if (!this.listening(port) || !this.httpPorts.includes(port)) return undefined;
    const q = req.path.indexOf('?');
    const pathOnly = q === -1 ? req.path : req.path.slice(0, q);
    let query: ReadonlyMap<string, string> = NO_QUERY;
    if (q !== -1) {
      const m = new Map<string, string>();
      for (const kv of req.path.slice(q + 1).split('&')) {
        const [k, v = ''] = kv.split('=');
        if (k) m.set(decodeURIComponent(k), decodeURIComponent(v));
      }
      query = m;
    }
    let route: RouteModel | undefined;
    for (const r of this.model.routes ?? []) {
      if (
        r.path === '*' ||
        (r.path.endsWith('/') && r.path !== '/' ? pathOnly.startsWith(r.path) : r.path === '/' && this.model.name.startsWith('bookshop')) || // Go ServeMux "/" is a catch-all
        pathOnly === r.path
      ) {
        route = r;
        break;
      }
    }
    let res: HttpOutcome;
    if (route) res = this.handle(route, req, pathOnly, query);
    else if (this.model.docroot) res = this.serveFile(pathOnly);
    else res = { status: this.model.notFound?.status ?? 404, body: this.render(this.model.notFound?.body ?? '404 page not found\n') };
    if ('status' in res && this.model.logs?.access) {
      this.served++;
      const line = this.render(this.model.logs.access, {
        requests: this.served,
        uptime: String((this.host.services.clock.now() - this.startedAt) / 1000),
        remote: req.remoteAddr ?? '127.0.0.1',
        method: req.method,
        path: req.path,
        pathOnly,
        status: res.status,
        bytes: res.body.length,
        ua: req.headers?.['User-Agent'] ?? req.headers?.['user-agent'] ?? '-',
      });
      if (this.model.logs.accessStream === 'stderr') this.host.err(line);
      else this.host.out(line);
    }
    return res;
  }

  private serveFile(pathOnly: string): HttpOutcome {
    const fs = this.host.fs;
    const root = this.model.docroot!;
    let p = resolvePath(root, `.${pathOnly}`);
    if (fs.stat(p) === 'dir') {
      const idx = resolvePath(p, 'index.html');
      if (fs.stat(idx) === 'file') p = idx;
      else return { status: 403, body: this.model.name === 'nginx' ? NGINX_ERROR_PAGE(403, this.host.spec.image.version) : '403 Forbidden\n' };
    }
    const body = fs.read(p);
    if (body === undefined) return { status: this.model.notFound?.status ?? 404, body: this.render(this.model.notFound?.body ?? '404 Not Found\n') };
    return { status: 200, body, headers: { 'Content-Type': p.endsWith('.html') ? 'text/html' : 'text/plain' } };
  }

  private text(status: number, body: string): HttpOutcome {
    return { status, body, headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  }

  private json(status: number, v: unknown): HttpOutcome {
    return { status, body: `${goJson(v)}\n`, headers: { 'Content-Type': 'application/json' } };
  }

  private handle(route: RouteModel, req: HttpRequest, pathOnly: string, query: ReadonlyMap<string, string>): HttpOutcome {
    const p = route.params ?? {};
    const host = this.host;
    const svc = host.services;
    switch (route.handler) {
      case 'static':
        return { status: Number(p.status ?? 200), body: this.render(String(p.body ?? '')) };
      case 'files':
        return this.serveFile(pathOnly);
      case 'health':
        return this.flags[String(p.flag)] ? this.text(200, String(p.ok)) : this.text(Number(p.failStatus ?? 500), String(p.fail));
      case 'set-flag':
        this.flags[String(p.flag)] = Boolean(p.value);
        if (p.log) this.emit({ line: `{t:go} ${String(p.log)}`, stream: 'stderr' });
        return this.text(200, String(p.body ?? ''));
      case 'eat': {
        let mb = Number(query.get(String(p.param ?? 'mb')) ?? 0);
        if (!(mb > 0)) mb = Number(p.default ?? 64);
        this.extraMiB += Math.floor(mb);
        this.setMem();
        // Touching the pages may have brought the OOM killer: the connection just drops.
        if (this.dead || !host.alive) return { error: 'reset' };
        return this.text(200, 'allocated\n');
      }
      case 'slow': {
        let ms = Number(query.get(String(p.param ?? 'ms')) ?? 0);
        if (!(ms > 0)) ms = Number(p.default ?? 2000);
        return { ...this.text(200, `slept ${ms}ms (pod=${this.vars['env.POD_NAME']})\n`), delayMs: ms };
      }
      case 'fail-pct': {
        let pct = Number(query.get('pct') ?? 0);
        if (!(pct > 0)) pct = 100;
        this.reqN++;
        if ((this.reqN * 61) % 100 < pct) return this.text(500, 'induced failure\n');
        return this.text(200, `ok (pod=${this.vars['env.POD_NAME']})\n`);
      }
      case 'bookshop-version':
        return this.json(200, { version: String(this.vars.version), pod: String(this.vars['env.POD_NAME']) });
      case 'catalog-books': {
        if (this.flags.poisoned) return this.text(500, 'this pod is poisoned\n');
        const loaded = this.catalogLoad();
        if ('error' in loaded) {
          this.emit({ line: `{t:go} catalog: query failed: ${loaded.error}`, stream: 'stderr' });
          return this.text(500, `${loaded.error}\n`);
        }
        return this.json(200, { servedBy: String(this.vars['env.POD_NAME']), version: String(this.vars.version), source: loaded.source, books: loaded.books });
      }
      case 'catalog-book': {
        const isbn = pathOnly.slice('/books/'.length);
        const loaded = this.catalogLoad();
        if ('error' in loaded) return this.text(500, `${loaded.error}\n`);
        const b = loaded.books.find((x) => x.isbn === isbn);
        return b ? this.json(200, b) : this.text(404, 'no such book\n');
      }
      case 'orders':
        return this.ordersHandler(req);
      case 'storefront':
        if (pathOnly !== '/') return this.text(404, '404 page not found\n');
        return this.storefront();
      case 'agnhost-healthz': {
        const secs = (svc.clock.now() - this.startedAt) / 1000;
        if (secs * 1000 > Number(p.afterMs ?? 10_000)) return { status: 500, body: `error: ${goFloat(secs)}` };
        return { status: 200, body: 'ok' };
      }
      case 'agnhost-started':
        return { status: 200, body: goDuration(svc.clock.now() - this.startedAt) };
      case 'hostname':
        return { status: 200, body: host.spec.pod.hostname };
      case 'echo-request': {
        if (p.query) return { status: 200, body: query.get(String(p.query)) ?? '' };
        if (p.clientip) return { status: 200, body: `${req.remoteAddr ?? '127.0.0.1'}:41234` };
        const hdrs = Object.entries({ accept: '*/*', host: `${host.spec.pod.podIP}:${this.ports[0]}`, 'user-agent': req.headers?.['User-Agent'] ?? 'curl/8.12.1', ...lowerKeys(req.headers ?? {}) })
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `\t${k}=${v}`)
          .join('\n');
        const e = host.env;
        return {
          status: 200,
          body: `\n\nHostname: ${host.spec.pod.hostname}\n\nPod Information:\n\tnode name:\t${e.NODE_NAME ?? host.spec.pod.nodeName}\n\tpod name:\t${e.POD_NAME ?? host.spec.pod.name}\n\tpod namespace:\t${e.POD_NAMESPACE ?? host.spec.pod.namespace}\n\tpod IP:\t${e.POD_IP ?? host.spec.pod.podIP}\n\nServer values:\n\tserver_version=nginx: 1.12.2 - lua: 10010\n\nRequest Information:\n\tclient_address=${req.remoteAddr ?? '127.0.0.1'}\n\tmethod=${req.method}\n\treal path=${pathOnly}\n\tquery=${req.path.includes('?') ? req.path.slice(req.path.indexOf('?') + 1) : ''}\n\trequest_version=1.1\n\trequest_scheme=http\n\trequest_uri=http://${host.spec.pod.podIP}:${this.ports[0]}${req.path}\n\nRequest Headers:\n${hdrs}\n\nRequest Body:\n${req.body ? req.body : '\t-no body in request-'}\n\n`,
        };
      }
      case 'exit': {
        const code = Number(query.get('code') ?? 0);
        this.timers.after(0, `${this.model.name}: exit`, () => this.die(code));
        return { status: 200, body: '' };
      }
    }
    return { status: 500, body: '' };
  }

  // --- bookshop -----------------------------------------------------------------------------

  /** The last `dbTarget` answer and the DSN it parsed (performance only: a pure function of it; the answer is never changed). */
  private dbTargetMemo: { dsn: string; target: { host: string; port: number } } | undefined;

  private dbTarget(): { host: string; port: number } | undefined {
    const dsn = this.host.env.DATABASE_URL;
    if (!dsn) return undefined;
    if (this.dbTargetMemo?.dsn === dsn) return this.dbTargetMemo.target;
    const m = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^:/?]+)(?::(\d+))?/.exec(dsn);
    const target = m ? { host: m[1], port: Number(m[2] ?? 5432) } : { host: 'localhost', port: 5432 };
    this.dbTargetMemo = { dsn, target };
    return target;
  }

  /** catalog's background goroutine: `db.Ping()` every 3 s drives readiness. */
  private dbPing(): void {
    const t = this.dbTarget();
    if (!t) return;
    const d = this.host.services.network.dial(t.host, t.port);
    if (d.ok) this.flags.ready = true;
    else {
      this.emit({ line: `{t:go} catalog: database not reachable: ${goDialError(t.host, d, this.host.spec.pod.dnsServer)}`, stream: 'stderr' });
      this.flags.ready = false;
    }
  }

  private catalogLoad(): { source: string; books: typeof BOOKSHOP_SEED } | { error: string } {
    const t = this.dbTarget();
    if (!t) return { source: 'seed', books: BOOKSHOP_SEED };
    const d = this.host.services.network.dial(t.host, t.port);
    if (!d.ok) return { error: goDialError(t.host, d, this.host.spec.pod.dnsServer) };
    // The schema ConfigMap seeds the same four books; `ORDER BY title`.
    return { source: 'postgres', books: [...BOOKSHOP_SEED].sort((a, b) => (a.title < b.title ? -1 : 1)) };
  }

  private ordersHandler(req: HttpRequest): HttpOutcome {
    const method = req.method.toUpperCase();
    if (method === 'GET') return this.json(200, { orders: this.orders, servedBy: String(this.vars['env.POD_NAME']) });
    if (method !== 'POST') return this.text(405, 'method not allowed\n');
    let body: { isbn?: unknown; qty?: unknown };
    try {
      body = JSON.parse(req.body ?? '') as { isbn?: unknown; qty?: unknown };
      if (typeof body !== 'object' || body === null) throw new Error('bad');
    } catch {
      return this.text(400, 'bad json\n');
    }
    const catalogURL = this.host.env.CATALOG_URL || 'http://catalog';
    const url = `${catalogURL}/books/${typeof body.isbn === 'string' ? body.isbn : ''}`;
    const u = parseUrl(url);
    const res = this.host.services.network.http(url, { method: 'GET', path: u?.path ?? '/', headers: { 'User-Agent': 'Go-http-client/1.1' } });
    if ('error' in res || (res.delayMs ?? 0) > 2000) {
      const err = goHttpError('GET', url, 'error' in res ? res : { error: 'timeout' }, this.host.spec.pod.dnsServer);
      this.emit({ line: `{t:go} orders: catalog unreachable: ${err}`, stream: 'stderr' });
      return this.text(502, `catalog unreachable: ${err}\n`);
    }
    if (res.status !== 200) return this.text(400, 'unknown isbn\n');
    let book: { isbn?: string; title?: string } = {};
    try {
      book = JSON.parse(res.body) as { isbn?: string; title?: string };
    } catch {
      /* json.Decode into a zero Book */
    }
    const qty = typeof body.qty === 'number' && body.qty > 0 ? Math.floor(body.qty) : 1;
    this.orders ??= [];
    const svc = this.host.services;
    const o = { id: this.orders.length + 1, isbn: book.isbn ?? '', title: book.title ?? '', qty, createdAt: logTime('rfc3339nano', svc.clock.epochMs + svc.clock.now(), svc.rng.int(0, 999)) };
    this.orders.push(o);
    this.emit({ line: `{t:go} orders: accepted order for ${JSON.stringify(o.title)} x${qty}`, stream: 'stderr' });
    return this.json(201, o);
  }

  private storefront(): HttpOutcome {
    const env = this.host.env;
    const net = this.host.services.network;
    const catalogURL = env.CATALOG_URL || 'http://catalog';
    const ordersURL = env.ORDERS_URL || 'http://orders';
    const get = (url: string): { ok: true; v: Record<string, unknown> } | { ok: false; err: string } => {
      const u = parseUrl(url);
      const r = net.http(url, { method: 'GET', path: u?.path ?? '/', headers: { 'User-Agent': 'Go-http-client/1.1' } });
      if ('error' in r) return { ok: false, err: goHttpError('GET', url, r, this.host.spec.pod.dnsServer) };
      if ((r.delayMs ?? 0) > 2000) return { ok: false, err: goHttpError('GET', url, { error: 'timeout' }) };
      if (r.status !== 200) return { ok: false, err: `${url} returned ${r.status} ${httpReason(r.status)}` };
      try {
        return { ok: true, v: JSON.parse(r.body) as Record<string, unknown> };
      } catch {
        return { ok: false, err: 'invalid character \'<\' looking for beginning of value' };
      }
    };
    const bannerFile = env.BANNER_FILE || '/etc/bookshop/banner.txt';
    const bannerRaw = this.host.fs.read(bannerFile);
    const banner = bannerRaw === undefined ? '(no banner mounted)' : bannerRaw.trim();
    const key = env.API_KEY ?? '';
    const masked = key === '' ? '(unset)' : key.length <= 4 ? '****' : '*'.repeat(key.length - 4) + key.slice(-4);
    const cat = get(`${catalogURL}/books`);
    const ord = get(`${ordersURL}/orders`);
    const greeting = html(env.GREETING || 'The Bookshop');
    const currency = html(env.CURRENCY || '$');
    let body = `<!doctype html>\n<title>${greeting}</title>\n<style>\n body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem}\n h1{margin-bottom:.2rem} .meta{color:#666;font-size:.85rem}\n li{margin:.4rem 0} .err{color:#b00}\n</style>\n<h1>${greeting}</h1>\n<p class="meta">web ${html(String(this.vars.version))} · pod ${html(String(this.vars['env.POD_NAME']))} · node ${html(String(this.vars['env.NODE_NAME']))} · banner: ${html(banner)}</p>\n`;
    if (!cat.ok) body += `<p class="err">catalog is unreachable: ${html(cat.err)}</p>\n`;
    else {
      const books = (cat.v.books as { title: string; author: string; price: number }[] | null) ?? [];
      body += `<ul>${books.map((b) => `<li><strong>${html(b.title)}</strong> — ${html(b.author)} · ${currency}${b.price.toFixed(2)}</li>`).join('')}</ul>\n<p class="meta">catalog ${html(String(cat.v.version ?? ''))} served by ${html(String(cat.v.servedBy ?? ''))} (source: ${html(String(cat.v.source ?? ''))})</p>\n`;
    }
    const count = ord.ok ? String(((ord.v.orders as unknown[] | null) ?? []).length) : '?';
    body += `<p class="meta">${count} order(s) placed · api key: ${html(masked)}</p>\n`;
    return { status: 200, body, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
  }

  // --- postgres -----------------------------------------------------------------------------

  private pgData(): string {
    return this.host.env.PGDATA || '/var/lib/postgresql/data';
  }

  private pgInitialized(): boolean {
    return this.host.fs.stat(`${this.pgData()}/PG_VERSION`) === 'file';
  }

  /** docker-entrypoint.sh + postgres: initdb on an empty PGDATA, init scripts, then the server. */
  private postgresStart(): void {
    const fs = this.host.fs;
    const data = this.pgData();
    const v = this.host.spec.image.version;
    const major = v.split('.')[0];
    const musl = this.vars.libc === 'musl';
    const build = musl ? `PostgreSQL ${v} on x86_64-pc-linux-musl, compiled by gcc (Alpine 14.2.0) 14.2.0, 64-bit` : `PostgreSQL ${v} (Debian ${v}-1.pgdg120+1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14+deb12u1) 12.2.0, 64-bit`;
    const PG = (pid: number, msg: string) => `{t:pg} [${pid}] ${msg}`;
    const script: { at: number; line: string; stream?: 'stdout' | 'stderr' }[] = [];
    let t = 0;
    const say = (line: string, dt = 0, stream: 'stdout' | 'stderr' = 'stdout') => {
      t += dt;
      script.push({ at: t, line, stream });
    };
    const initialized = this.pgInitialized();
    const wasRunning = fs.stat(`${data}/postmaster.pid`) === 'file';
    if (!initialized) {
      const lines = [
        'The files belonging to this database system will be owned by user "postgres".',
        'This user must also own the server process.',
        '',
        `The database cluster will be initialized with locale "en_US.utf8".`,
        'The default database encoding has accordingly been set to "UTF8".',
        'The default text search configuration will be set to "english".',
        '',
        'Data page checksums are disabled.',
        '',
        `fixing permissions on existing directory ${data} ... ok`,
        'creating subdirectories ... ok',
        'selecting dynamic shared memory implementation ... posix',
        'selecting default "max_connections" ... 100',
        'selecting default "shared_buffers" ... 128MB',
        'selecting default time zone ... UTC',
        'creating configuration files ... ok',
      ];
      for (const l of lines) say(l, 5);
      say('running bootstrap script ... ok', 400);
      if (musl) {
        say('sh: locale: not found', 10);
        say(PG(35, 'WARNING:  no usable system locales were found'), 5);
      }
      say('performing post-bootstrap initialization ... ok', 600);
      say('syncing data to disk ... ok', 300);
      for (const l of ['', '', 'Success. You can now start the database server using:', '', `    pg_ctl -D ${data} -l logfile start`, '']) say(l, 1);
      say('initdb: warning: enabling "trust" authentication for local connections', 1, 'stderr');
      say('initdb: hint: You can change this by editing pg_hba.conf or using the option -A, or --auth-local and --auth-host, the next time you run initdb.', 0, 'stderr');
      say(`waiting for server to start....${PG(41, `LOG:  starting ${build}`)}`, 50);
      say(PG(41, 'LOG:  listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"'), 20);
      say(PG(44, `LOG:  database system was shut down at {t:pgsec}`), 10);
      say(PG(41, 'LOG:  database system is ready to accept connections'), 20);
      say(' done', 5);
      say('server started', 0);
      const db = this.host.env.POSTGRES_DB;
      if (db && db !== 'postgres') say('CREATE DATABASE', 150);
      say('', 0);
      // /docker-entrypoint-initdb.d: run each *.sql / *.sh in order.
      for (const f of fs.list('/docker-entrypoint-initdb.d') ?? []) {
        const path = `/docker-entrypoint-initdb.d/${f}`;
        const content = fs.read(path);
        if (content === undefined) continue;
        say('', 0);
        if (f.endsWith('.sql')) {
          say(`/usr/local/bin/docker-entrypoint.sh: running ${path}`, 20);
          for (const res of sqlResults(content)) say(res, 10);
        } else if (f.endsWith('.sh')) say(`/usr/local/bin/docker-entrypoint.sh: sourcing ${path}`, 10);
        else say(`/usr/local/bin/docker-entrypoint.sh: ignoring ${path}`, 1);
        say('', 0);
      }
      say('', 0);
      say(`waiting for server to shut down...${PG(41, 'LOG:  received fast shutdown request')}`, 100);
      say(`.${PG(41, 'LOG:  aborting any active transactions')}`, 5);
      say(PG(41, 'LOG:  background worker "logical replication launcher" (PID 47) exited with exit code 1'), 5);
      say(PG(42, 'LOG:  shutting down'), 5);
      say(PG(42, 'LOG:  checkpoint starting: shutdown immediate'), 5);
      say(PG(42, 'LOG:  checkpoint complete: wrote 926 buffers (5.7%); 0 WAL file(s) added, 0 removed, 0 recycled; write=0.034 s, sync=0.455 s, total=0.526 s; sync files=301, longest=0.004 s, average=0.002 s; distance=4263 kB, estimate=4263 kB; lsn=0/1908BD8, redo lsn=0/1908BD8'), 520);
      say(PG(41, 'LOG:  database system is shut down'), 10);
      say(' done', 5);
      say('server stopped', 0);
      say('', 0);
      say('PostgreSQL init process complete; ready for start up.', 0);
      say('', 0);
    } else {
      say('', 0);
      say('PostgreSQL Database directory appears to contain a database; Skipping initialization', 0);
      say('', 0);
    }
    say(PG(1, `LOG:  starting ${build}`), 60);
    say(PG(1, 'LOG:  listening on IPv4 address "0.0.0.0", port 5432'), 5);
    say(PG(1, 'LOG:  listening on IPv6 address "::", port 5432'), 1);
    say(PG(1, 'LOG:  listening on Unix socket "/var/run/postgresql/.s.PGSQL.5432"'), 3);
    if (initialized && wasRunning) {
      say(PG(29, `LOG:  database system was interrupted; last known up at {t:pgsec}`), 10);
      say(PG(29, 'LOG:  database system was not properly shut down; automatic recovery in progress'), 200);
      say(PG(29, 'LOG:  redo starts at 0/1908C50'), 5);
      say(PG(29, 'LOG:  invalid record length at 0/1908D88: expected at least 24, got 0'), 5);
      say(PG(29, 'LOG:  redo done at 0/1908D50 system usage: CPU: user: 0.00 s, system: 0.00 s, elapsed: 0.00 s'), 1);
      say(PG(27, 'LOG:  checkpoint starting: end-of-recovery immediate wait'), 5);
      say(PG(27, 'LOG:  checkpoint complete: wrote 3 buffers (0.0%); 0 WAL file(s) added, 0 removed, 0 recycled; write=0.005 s, sync=0.002 s, total=0.013 s; sync files=2, longest=0.001 s, average=0.001 s; distance=0 kB, estimate=0 kB; lsn=0/1908D88, redo lsn=0/1908D88'), 15);
    } else {
      say(PG(57, `LOG:  database system was shut down at {t:pgsec}`), 10);
    }
    say(PG(1, 'LOG:  database system is ready to accept connections'), 15);
    const readyAt = t;
    for (const s of script) {
      const l: LogLine = { line: s.line, stream: s.stream ?? 'stdout' };
      if (s.at === 0) this.emit(l);
      else this.timers.after(s.at, 'postgres: log', () => this.emit(l));
    }
    // The data directory: PG_VERSION once initialised, postmaster.pid while the server runs.
    this.timers.after(Math.min(readyAt, 2000), 'postgres: initdb', () => {
      if (!this.pgInitialized()) {
        fs.mkdir(data, true);
        fs.write(`${data}/PG_VERSION`, `${major}\n`);
      }
    });
    this.timers.after(readyAt, 'postgres: ready', () => {
      fs.write(`${data}/postmaster.pid`, `1\n${data}\n${Math.floor((this.host.services.clock.epochMs + this.host.services.clock.now()) / 1000)}\n5432\n/var/run/postgresql\n*\n`);
      this.listen();
    });
  }

  /** Fast (SIGINT) or smart (SIGTERM) shutdown: log, remove postmaster.pid, exit 0. */
  private postgresStop(sig: Signal): void {
    if (this.stopping) return;
    this.stopping = true;
    const PG = (pid: number, msg: string): LogLine => ({ line: `{t:pg} [${pid}] ${msg}` });
    const kind = sig === 'SIGINT' ? 'fast' : sig === 'SIGTERM' ? 'smart' : 'immediate';
    this.emit(PG(1, `LOG:  received ${kind} shutdown request`));
    if (kind === 'fast') this.emit(PG(1, 'LOG:  aborting any active transactions'));
    this.emit(PG(1, 'LOG:  background worker "logical replication launcher" (PID 30) exited with exit code 1'));
    this.emit(PG(27, 'LOG:  shutting down'));
    this.listeningNow = false;
    const act = this.model.signals?.[sig];
    this.timers.after(act?.afterMs ?? 200, 'postgres: shutdown', () => {
      this.emit(PG(27, 'LOG:  checkpoint starting: shutdown immediate'));
      this.emit(PG(27, 'LOG:  checkpoint complete: wrote 0 buffers (0.0%); 0 WAL file(s) added, 0 removed, 0 recycled; write=0.001 s, sync=0.001 s, total=0.004 s; sync files=0, longest=0.000 s, average=0.000 s; distance=0 kB, estimate=0 kB; lsn=0/1908E00, redo lsn=0/1908E00'));
      this.emit(PG(1, 'LOG:  database system is shut down'));
      this.host.fs.remove(`${this.pgData()}/postmaster.pid`);
      this.die(act?.exit ?? 0);
    });
  }
}

/** The bookshop's in-memory seed (internal/bookshop `Seed`). */
const BOOKSHOP_SEED: readonly { isbn: string; title: string; author: string; price: number }[] = [
  { isbn: '978-0134494166', title: 'Clean Architecture', author: 'Robert C. Martin', price: 34.99 },
  { isbn: '978-1492034025', title: 'Designing Data-Intensive Applications', author: 'Martin Kleppmann', price: 49.99 },
  { isbn: '978-0132350884', title: 'Clean Code', author: 'Robert C. Martin', price: 39.99 },
  { isbn: '978-1449373320', title: 'Kubernetes: Up and Running', author: 'Kelsey Hightower', price: 44.99 },
];

/** psql's command tags for a SQL script: `CREATE TABLE`, `INSERT 0 4` ... */
function sqlResults(sql: string): string[] {
  const out: string[] = [];
  for (const stmt of sql.replace(/--[^\n]*/g, '').split(';')) {
    const s = stmt.trim();
    if (!s) continue;
    const m = /^(\w+)(?:\s+(\w+))?/.exec(s);
    if (!m) continue;
    const verb = m[1].toUpperCase();
    if (verb === 'INSERT') out.push(`INSERT 0 ${Math.max(1, (s.match(/\)\s*(,|$)/g) ?? []).length)}`);
    else if (verb === 'CREATE' || verb === 'DROP' || verb === 'ALTER') out.push(`${verb} ${(m[2] ?? '').toUpperCase()}`);
    else if (verb === 'UPDATE' || verb === 'DELETE') out.push(`${verb} 0`);
    else out.push(verb);
  }
  return out;
}

function html(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

/** encoding/json with `SetIndent("", "  ")`: map keys sorted, struct fields in declaration order (kept as given). */
function goJson(v: unknown): string {
  const sortMaps = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sortMaps);
    if (x && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      // Struct-like objects (books, orders) keep their field order; plain maps are sorted.
      const isStruct = 'isbn' in o || 'id' in o;
      const keys = isStruct ? Object.keys(o) : Object.keys(o).sort();
      return Object.fromEntries(keys.map((k) => [k, sortMaps(o[k])]));
    }
    return x;
  };
  return JSON.stringify(sortMaps(v), null, 2);
}

/** Go's `%v` of a float64 seconds value (strconv 'g' shortest), as agnhost prints it. */
function goFloat(x: number): string {
  return String(x);
}

/** Go's `time.Duration.String()` for ms (e.g. `12.5s`, `800ms`). */
function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return `${m}m${s - m * 60}s`;
}

// ---------------------------------------------------------------------------------------------
// The container's main program
// ---------------------------------------------------------------------------------------------

const SHELLS = new Set(['sh', 'ash', 'bash', 'dash']);

/**
 * Does the image have command `name` (path or basename)? `true`/`false` when the image's userland
 * is known, `undefined` when it may or may not (an application image).
 */
export function imageHasCommand(image: ImageRecord, name: string): boolean | undefined {
  const b = base(name);
  if (image.binaries.includes(b)) return true;
  if (image.config.entrypoint?.some((e) => base(e) === b) || image.config.cmd?.some((e, i) => i === 0 && base(e) === b)) return true;
  if (image.userland === 'busybox') {
    if (BUSYBOX_APPLETS.includes(b)) return true;
    if (b === 'bash' || b === 'curl') return image.binaries.includes(b);
  } else if (image.userland === 'debian') {
    if (DEBIAN_COMMANDS.includes(b)) return true;
    if (['wget', 'curl', 'ps', 'nslookup', 'nc', 'ping'].includes(b)) return image.binaries.includes(b) ? true : image.binariesComplete ? false : undefined;
  } else {
    // distroless / scratch: only what the image ships.
    return false;
  }
  return image.binariesComplete ? false : undefined;
}

/** The shell flavour of an image's `/bin/sh`. */
function flavorOf(image: ImageRecord, shell: string): ShellFlavor {
  if (shell === 'bash') return 'bash';
  return image.userland === 'debian' ? 'dash' : 'ash';
}

/** The user name for a uid as the image's /etc/passwd has it. */
function userName(image: ImageRecord, uid: number): string {
  if (uid === 0) return 'root';
  if (image.family === 'bookshop' && uid === 10001) return 'shop';
  if (uid === 101) return image.family === 'ingress-nginx' ? 'www-data' : 'nginx';
  if (uid === 65534) return 'nobody';
  if (uid === 65532) return 'nonroot';
  if (uid === 999) return image.family === 'postgres' ? 'postgres' : 'redis';
  return String(uid);
}

/** Files every container sees: kubelet-managed hosts/resolv.conf/hostname and the image's own. */
function imageFiles(spec: ContainerRunSpec): { files: Record<string, string>; dirs: string[] } {
  const pod = spec.pod;
  const searches = pod.searches ?? [`${pod.namespace}.svc.cluster.local`, 'svc.cluster.local', 'cluster.local'];
  const files: Record<string, string> = {
    '/etc/hostname': `${pod.hostname}\n`,
    '/etc/hosts': pod.hostNetwork
      ? `127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nff00::0\tip6-mcastprefix\nff02::1\tip6-allnodes\nff02::2\tip6-allrouters\n${pod.hostIP}\t${pod.nodeName}\n`
      : `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::\tip6-localnet\nfe00::\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${pod.podIP}\t${pod.hostname}\n`,
    '/etc/resolv.conf': pod.hostNetwork ? 'nameserver 172.18.0.1\noptions ndots:0\n' : `search ${searches.join(' ')}\nnameserver ${pod.dnsServer ?? '10.96.0.10'}\noptions ndots:5\n`,
  };
  const dirs = ['/dev', '/proc', '/sys', '/etc', '/tmp', '/var', '/usr', '/root', '/run'];
  const im = spec.image;
  if (im.userland === 'busybox') {
    dirs.push('/bin', '/home', '/lib', '/media', '/mnt', '/opt', '/sbin', '/srv', '/usr/bin', '/usr/local/bin', '/var/run');
    files['/etc/os-release'] = im.family === 'busybox'
      ? ''
      : `NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.21.4\nPRETTY_NAME="Alpine Linux v3.21"\nHOME_URL="https://alpinelinux.org/"\nBUG_REPORT_URL="https://gitlab.alpinelinux.org/alpine/aports/-/issues"\n`;
    if (im.family === 'busybox') delete files['/etc/os-release'];
    files['/etc/passwd'] = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n';
  } else if (im.userland === 'debian') {
    dirs.push('/bin', '/boot', '/home', '/lib', '/lib64', '/media', '/mnt', '/opt', '/sbin', '/srv', '/usr/bin', '/usr/local/bin', '/var/run');
    files['/etc/os-release'] = im.family === 'ubuntu'
      ? 'PRETTY_NAME="Ubuntu 24.04.2 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nVERSION="24.04.2 LTS (Noble Numbat)"\nID=ubuntu\nID_LIKE=debian\n'
      : 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n';
    files['/etc/passwd'] = 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n';
  }
  if (im.family === 'nginx') {
    files['/usr/share/nginx/html/index.html'] = NGINX_WELCOME;
    files['/usr/share/nginx/html/50x.html'] = '<!DOCTYPE html>\n<html>\n<head>\n<title>Error</title>\n</head>\n<body>\n<h1>An error occurred.</h1>\n</body>\n</html>\n';
    files['/etc/nginx/nginx.conf'] = '\nuser  nginx;\nworker_processes  auto;\n\nerror_log  /var/log/nginx/error.log notice;\npid        /run/nginx.pid;\n\n\nevents {\n    worker_connections  1024;\n}\n\n\nhttp {\n    include       /etc/nginx/mime.types;\n    default_type  application/octet-stream;\n\n    sendfile        on;\n    keepalive_timeout  65;\n\n    include /etc/nginx/conf.d/*.conf;\n}\n';
    files['/etc/nginx/conf.d/default.conf'] = 'server {\n    listen       80;\n    listen  [::]:80;\n    server_name  localhost;\n\n    location / {\n        root   /usr/share/nginx/html;\n        index  index.html index.htm;\n    }\n\n    error_page   500 502 503 504  /50x.html;\n    location = /50x.html {\n        root   /usr/share/nginx/html;\n    }\n}\n';
    dirs.push('/docker-entrypoint.d', '/var/log/nginx', '/var/cache/nginx');
  }
  if (im.family === 'httpd') files['/usr/local/apache2/htdocs/index.html'] = '<html><body><h1>It works!</h1></body></html>\n';
  if (im.family === 'postgres') dirs.push('/docker-entrypoint-initdb.d', '/var/run/postgresql', '/var/lib/postgresql');
  if (im.family === 'bookshop') dirs.push('/home/shop');
  if (im.family === 'kubernetes-bootcamp') files['/server.js'] = bootcampServerJs(im.version);
  if (spec.workingDir) dirs.push(spec.workingDir);
  return { files, dirs };
}

/**
 * The kubernetes-bootcamp image's `/server.js` (the Kubernetes Basics tutorial's app, shown by its
 * `kubectl exec $POD_NAME -- cat server.js` step): a Node http server on 8080 answering
 * `Hello Kubernetes bootcamp! | Running on: <hostname> | v=<N>` and logging each request.
 * `version` is the image tag (`v1`, `v2`).
 */
function bootcampServerJs(version: string): string {
  const v = version.replace(/^v/, '');
  return [
    "var http = require('http');",
    'var requests=0;',
    'var podname= process.env.HOSTNAME;',
    'var startTime;',
    'var host;',
    'var handleRequest = function(request, response) {',
    "  response.setHeader('Content-Type', 'text/plain');",
    '  response.writeHead(200);',
    '  response.write("Hello Kubernetes bootcamp! | Running on: ");',
    '  response.write(host);',
    `  response.end(" | v=${v}\\n");`,
    '  console.log("Running On:" ,host, "| Total Requests:", ++requests,"| App Uptime:", (new Date() - startTime)/1000 , "seconds", "| Log Time:",new Date());',
    '}',
    'var www = http.createServer(handleRequest);',
    'www.listen(8080,function () {',
    '    startTime = new Date();;',
    '    host = process.env.HOSTNAME;',
    '    console.log ("Kubernetes Bootcamp App Started At:",startTime, "| Running On: " ,host, "\\n" );',
    '});',
    '',
  ].join('\n');
}

/** Where a `LineBuffer` sends its complete lines: `log(stream, line)` (a container's log, say). */
interface LineSink {
  log(stream: 'stdout' | 'stderr', line: string): void;
}

/**
 * Lines from text chunks: complete lines go out (to `sink.log(stream, line)`), the rest waits.
 * A sink and a stream name rather than a closure per buffer (performance only: four buffers
 * per container).
 */
class LineBuffer {
  private buf = '';
  constructor(
    private readonly sink: LineSink,
    private readonly stream: 'stdout' | 'stderr',
  ) {}
  write(text: string): void {
    this.buf += text;
    let i: number;
    while ((i = this.buf.indexOf('\n')) !== -1) {
      this.sink.log(this.stream, this.buf.slice(0, i));
      this.buf = this.buf.slice(i + 1);
    }
  }
  flush(): void {
    if (this.buf !== '') this.sink.log(this.stream, this.buf);
    this.buf = '';
  }
}

/** A `LineSink` writing each line, newline-terminated, to `io.out` or `io.err`. */
class IoLineSink implements LineSink {
  constructor(private readonly io: { out: (t: string) => void; err: (t: string) => void }) {}
  log(stream: 'stdout' | 'stderr', line: string): void {
    if (stream === 'stdout') this.io.out(`${line}\n`);
    else this.io.err(`${line}\n`);
  }
}

/**
 * A container's output as its main process writes it: stdout to the log, stderr to the log's
 * stderr (or stdout with a tty), both echoed to attached terminals. Methods on one prototype
 * instead of two closures per container start (performance only: the same writes in the same
 * order). `stdin` is set when the container reads its stdin (`stdin: true`).
 */
class ContainerIo {
  constructor(
    private readonly outLog: LineBuffer,
    private readonly errLog: LineBuffer,
    private readonly attach: ContainerStdin,
    readonly stdin: ContainerStdin | undefined,
  ) {}

  out(t: string): void {
    this.outLog.write(t);
    this.attach.emit(t, 'stdout');
  }

  err(t: string): void {
    this.errLog.write(t);
    this.attach.emit(t, 'stderr');
  }
}

/**
 * What one launched behaviour (a container's main program or a shell's child) sees of its
 * container: a class rather than an object of closures per launch (performance only).
 */
class LaunchHost implements BehaviourHost {
  readonly spec: ContainerRunSpec;
  readonly services: ContainerServices;
  readonly env: Readonly<Record<string, string>>;
  private readonly outBuf: LineBuffer;
  private readonly errBuf: LineBuffer;
  private ended = false;

  constructor(
    private readonly program: ModelContainerProgram,
    readonly argv: string[],
    readonly pid: number,
    readonly isPid1: boolean,
    io: { out: (t: string) => void; err: (t: string) => void },
    private readonly onExit: (code: number) => void,
  ) {
    this.spec = program.spec;
    this.services = program.services;
    this.env = program.spec.env;
    const sink = new IoLineSink(io);
    this.outBuf = new LineBuffer(sink, 'stdout');
    this.errBuf = new LineBuffer(sink, 'stderr');
  }

  /** The container's child behaviours (the program's set: it is replaced on its first child). */
  get children(): Set<Behaviour> {
    return this.program.children;
  }

  get fs(): ContainerFs {
    return this.program.fs;
  }

  out(l: string): void {
    this.outBuf.write(`${l}\n`);
  }

  err(l: string): void {
    this.errBuf.write(`${l}\n`);
  }

  exit(code: number): void {
    if (this.ended) return;
    this.ended = true;
    this.program.setMem(this, 0);
    this.onExit(code);
  }

  setMemory(b: number): void {
    if (!this.ended) this.program.setMem(this, b);
  }

  get alive(): boolean {
    return !this.ended && !this.program.exited && (this.program.ctx?.alive ?? false);
  }

  spawnChild(argv: string[], io: { out: (t: string) => void; err: (t: string) => void }, onExit: (code: number) => void, execd: boolean): ShellChild | undefined {
    return this.program.spawnChild(argv, io, onExit, execd, this.isPid1 && execd);
  }
}

/**
 * The main program of a container built from the models: bridges the process table
 * (`ProcessContext`) to behaviours, owns the container filesystem, routes network and exec.
 */
/** `ModelContainerProgram.children` before its first child (never added to). */
const NO_CHILDREN: Set<Behaviour> = new Set();
/** `ModelContainerProgram.execs` before its first exec (never set). */
const NO_EXECS: Map<number, { argv: string[] }> = new Map();

class ModelContainerProgram implements ContainerProgram {
  model = 'unknown';
  /** @internal (read by `LaunchHost`) */
  ctx: ProcessContext | undefined;
  /** The container filesystem once built (see `fs`). */
  private builtFs: ContainerFs | undefined;
  private top: Behaviour | undefined;
  private readonly mem = new Map<object, number>();
  /**
   * @internal (read by `LaunchHost`). Most containers never spawn a child or run an exec: until
   * the first one, these are one shared empty set and map (performance only: replaced before
   * the first `add`/`set`; `delete` and `clear` on them change nothing; ~3 MB at 10k pods).
   */
  children: Set<Behaviour> = NO_CHILDREN;
  private nextPid = 7;
  private execs: Map<number, { argv: string[] }> = NO_EXECS;
  private readonly out: LineBuffer;
  private readonly err: LineBuffer;
  /** @internal (read by `LaunchHost`) */
  exited = false;
  /** The attach stream of this start (read from only with `stdin: true`). */
  private stdinStream: ContainerStdin | undefined;

  constructor(
    /** @internal (read by `LaunchHost`) */
    readonly spec: ContainerRunSpec,
    /** @internal (read by `LaunchHost`) */
    readonly services: ContainerServices,
    private readonly registry: ProgramRegistry,
  ) {
    this.out = new LineBuffer(services, 'stdout');
    this.err = new LineBuffer(services, 'stderr');
    this.model = registry.describe(spec);
  }

  private get uid(): number {
    return Number(this.spec.image.config.user ?? 0) || 0;
  }

  /** Build the container filesystem without starting anything (programs from factories use it for exec). */
  initFs(): void {
    this.builtFs = this.buildFs();
  }

  /**
   * The container filesystem, built from the spec on first use (performance only: a pause
   * container never reads its /etc/hosts; the spec does not change, so the result is the same
   * as building it at start). @internal (read by `LaunchHost`)
   */
  get fs(): ContainerFs {
    return (this.builtFs ??= this.buildFs());
  }

  private buildFs(): ContainerFs {
    const { files, dirs } = imageFiles(this.spec);
    const uid = this.uid;
    const name = userName(this.spec.image, uid);
    return new ContainerFs({
      files,
      dirs,
      mounts: this.spec.mounts,
      ...(uid !== 0 ? { userWritable: ['/tmp', '/var/tmp', '/dev/shm', `/home/${name}`] } : {}),
    });
  }

  start(ctx: ProcessContext): void {
    this.ctx = ctx;
    this.builtFs = undefined; // a fresh filesystem for this start, built on first use
    const isPid1 = !this.spec.pod.shareProcessNamespace;
    // Every container can be attached (its output); only one with `stdin: true` is read from.
    const stdin = (this.stdinStream = new ContainerStdin());
    const tty = !!this.spec.tty;
    // A tty is one stream: the log has no stderr of its own.
    const io = new ContainerIo(this.out, tty ? this.out : this.err, stdin, this.spec.stdin ? stdin : undefined);
    if (this.spec.stdin && tty) stdin.echo = (t) => this.out.write(t);
    this.top = this.launch([...this.spec.argv], 1, isPid1, io, (code) => this.finish(code));
    this.top.start();
  }

  private finish(code: number): void {
    if (this.exited) return;
    this.exited = true;
    this.out.flush();
    this.err.flush();
    this.stdinStream?.end();
    this.ctx?.exit(code);
  }

  /** Memory accounting: each behaviour reports its own; the process shows the sum. @internal (called by `LaunchHost`) */
  setMem(key: object, bytes: number): void {
    if (bytes <= 0) this.mem.delete(key);
    else this.mem.set(key, bytes);
    let total = 0;
    for (const v of this.mem.values()) total += v;
    this.ctx?.setMemory(total);
  }

  /** Start a behaviour for argv: a model when one claims it, else the shell interpreter. */
  private launch(argv: string[], pid: number, isPid1: boolean, io: { out: (t: string) => void; err: (t: string) => void; stdin?: ContainerStdin }, onExit: (code: number) => void): Behaviour {
    const host = new LaunchHost(this, argv, pid, isPid1, io, onExit);
    const found = this.registry.findModel(argv, this.spec.image);
    if ('entry' in found) return new ModelBehaviour(found.entry.model, host, found.vars);
    return new ShellBehaviour(host, found.shellArgv, this, isPid1, io);
  }

  /** A shell starting a program: a model child, or undefined (no model claims it). */
  spawnChild(argv: string[], io: { out: (t: string) => void; err: (t: string) => void }, onExit: (code: number) => void, execd: boolean, isPid1: boolean): ShellChild | undefined {
    const found = this.registry.findModel(argv, this.spec.image);
    if (!('entry' in found)) return undefined;
    const pid = execd ? 1 : this.nextPid++;
    const holder: { child?: Behaviour } = {};
    const child = this.launch(argv, pid, isPid1, io, (code) => {
      if (holder.child) this.children.delete(holder.child);
      onExit(code);
    });
    holder.child = child;
    if (this.children === NO_CHILDREN) this.children = new Set();
    this.children.add(child);
    child.start();
    return { signal: (s) => child.signal(s), stop: () => child.stop() };
  }

  onSignal(sig: Signal): boolean {
    this.top?.signal(sig);
    return true;
  }

  stop(): void {
    this.top?.stop();
    for (const c of this.children) c.stop();
    this.children.clear();
    this.out.flush();
    this.err.flush();
    this.stdinStream?.end();
  }

  attach(): ContainerAttach | undefined {
    return this.exited ? undefined : this.stdinStream;
  }

  listening(port: number): boolean {
    if (this.exited || !this.top) return false;
    if (this.top.listening(port)) return true;
    for (const c of this.children) if (c.listening(port)) return true;
    return false;
  }

  http(port: number, req: HttpRequest): HttpOutcome {
    if (!this.listening(port)) return { error: 'refused' };
    // The top behaviour first, then the children (no array per request; performance only).
    const top = this.top!;
    if (top.listening(port)) return top.http(port, req) ?? { error: 'reset' };
    for (const c of this.children) {
      if (!c.listening(port)) continue;
      return c.http(port, req) ?? { error: 'reset' };
    }
    return { error: 'refused' };
  }

  ready(): boolean {
    if (this.exited || !this.top) return false;
    return this.top.ready();
  }

  /** Image helpers first, then the models of running behaviours. */
  helper(argv: string[]): ExecOutcome | undefined {
    // The top behaviour, then the children, in that order (no array per call; performance only).
    const top = this.top?.helper(argv);
    if (top) return top;
    for (const b of this.children) {
      const r = b?.helper(argv);
      if (r) return r;
    }
    return undefined;
  }

  ps(): { pid: number; user: string; command: string }[] {
    const user = userName(this.spec.image, this.uid);
    const out = [{ pid: 1, user, command: this.spec.argv.join(' ') }];
    for (const [pid, e] of this.execs) out.push({ pid, user, command: e.argv.join(' ') });
    return out;
  }

  shellHost(flavor: ShellFlavor, isPid1: boolean): ShellHost {
    const program = this;
    const image = this.spec.image;
    return {
      clock: this.services.clock,
      fs: this.fs,
      userland: image.userland,
      ...(image.family === 'busybox' ? { busyboxVersion: image.version } : {}),
      // agnhost's Dockerfile: `apk --update add bind-tools ...` over its Alpine base.
      ...(image.family === 'agnhost' ? { nslookup: 'bind' as const } : {}),
      flavor,
      hostname: this.spec.pod.hostname,
      uid: this.uid,
      userName: userName(image, this.uid),
      epochMs: this.services.clock.epochMs,
      hasCommand: (name) => imageHasCommand(image, name),
      spawn: (argv, io, onExit, execd) => this.spawnChild(argv, io, onExit, execd, execd && isPid1),
      helper: (argv) => program.imageHelper(argv),
      http: (url, req) => this.services.network.http(url, req),
      lookup: (name) => this.services.network.lookup(name),
      dial: (host, port) => this.services.network.dial(host, port).ok,
      kill: (pid, sig) => (pid === 1 ? this.services.signalMain(sig) : false),
      ps: () => program.ps(),
    };
  }

  /** The shell's `helper` for this container: image helpers, then an unknown application's own probe binaries. */
  imageHelper(argv: string[]): ExecOutcome | undefined {
    const r = this.helper(argv);
    if (r) return r;
    // An application image we do not know fully: its own probe binaries succeed when the app is up.
    const image = this.spec.image;
    const b = base(argv[0]);
    if (!image.binariesComplete && imageHasCommand(image, b) === undefined && !UTILITY_NAMES.has(b)) {
      return this.ready() ? { stdout: '', stderr: '', exitCode: 0 } : { stdout: '', stderr: '', exitCode: 1 };
    }
    return undefined;
  }

  exec(argv: string[], done: (r: ExecOutcome) => void, onOutput?: ExecOutputListener): { cancel(): void } {
    const noop = NOOP_EXEC_HANDLE;
    if (argv.length === 0) {
      done({ stdout: '', stderr: '', exitCode: 126, startError: 'exec: "": executable file not found in $PATH' });
      return noop;
    }
    if (imageHasCommand(this.spec.image, argv[0]) === false && !this.helper(argv)) {
      const why = argv[0].startsWith('/') ? `exec: "${argv[0]}": stat ${argv[0]}: no such file or directory` : `exec: "${argv[0]}": executable file not found in $PATH`;
      done({ stdout: '', stderr: '', exitCode: 126, startError: why });
      return noop;
    }
    const b0 = base(argv[0]);
    if (!SHELLS.has(b0) && !isShellUtility(b0)) {
      // A helper command run directly (`pg_isready ...` as an exec probe): the shell would only
      // call the helper and copy its output (runArgv), synchronously; answer without building a
      // shell (performance only: same pid numbering, same output).
      const helped = this.imageHelper(argv);
      if (helped) {
        this.nextPid++;
        done({ stdout: helped.stdout || '', stderr: helped.stderr || '', exitCode: helped.exitCode });
        return noop;
      }
    }
    let stdout = '';
    let stderr = '';
    const pid = this.nextPid++;
    if (this.execs === NO_EXECS) this.execs = new Map();
    this.execs.set(pid, { argv });
    let finished = false;
    const run: ShellRun = startShell(this.shellHost(flavorOf(this.spec.image, base(argv[0])), false), {
      argv,
      env: { ...this.spec.env },
      cwd: this.spec.workingDir ?? '/',
      io: {
        out: (t) => {
          stdout += t;
          onOutput?.('stdout', t);
        },
        err: (t) => {
          stderr += t;
          onOutput?.('stderr', t);
        },
      },
      unknown: 'not-found',
      onExit: (code) => {
        if (finished) return;
        finished = true;
        this.execs.delete(pid);
        done({ stdout, stderr, exitCode: code });
      },
    });
    return {
      cancel: () => {
        if (finished) return;
        finished = true;
        this.execs.delete(pid);
        run.stop();
      },
    };
  }
}

/** A template variable: `{name}` (`{t:go}` a time stamp, `{unix}` seconds, else a variable). */
const TEMPLATE_VAR = /\{([A-Za-z0-9_.:]+)\}/g;

/** `templateParts` answers by template (a pure function; bounded, cleared when full). */
const templatePartsMemo = new Map<string, readonly string[]>();

/**
 * A template cut at its variables as `String.prototype.replace` with `TEMPLATE_VAR` finds them
 * (left to right, not overlapping): literal text, then per variable its key and the literal
 * text after it. `['a{x}b']` -> `['a', 'x', 'b']`.
 */
function templateParts(tpl: string): readonly string[] {
  let parts = templatePartsMemo.get(tpl);
  if (parts) return parts;
  const out: string[] = [];
  let last = 0;
  TEMPLATE_VAR.lastIndex = 0;
  for (let m = TEMPLATE_VAR.exec(tpl); m; m = TEMPLATE_VAR.exec(tpl)) {
    out.push(tpl.slice(last, m.index), m[1]);
    last = m.index + m[0].length;
  }
  TEMPLATE_VAR.lastIndex = 0;
  out.push(tpl.slice(last));
  parts = out;
  if (templatePartsMemo.size >= 1024) templatePartsMemo.clear();
  templatePartsMemo.set(tpl, parts);
  return parts;
}

/** The handle of an exec that finished at once: cancelling it does nothing (shared, never written). */
const NOOP_EXEC_HANDLE: { cancel(): void } = Object.freeze({ cancel: () => {} });

/** The query of a request without one (shared, never written). */
const NO_QUERY: ReadonlyMap<string, string> = new Map();

const UTILITY_NAMES = new Set([...BUSYBOX_APPLETS, ...DEBIAN_COMMANDS, 'curl', 'wget']);

/** A shell (or a utility run directly) as a behaviour. */
class ShellBehaviour implements Behaviour {
  readonly name: string;
  private run: ShellRun | undefined;

  constructor(
    private readonly host: BehaviourHost,
    private readonly argv: string[],
    private readonly program: ModelContainerProgram,
    private readonly isPid1: boolean,
    private readonly io: { out: (t: string) => void; err: (t: string) => void; stdin?: ContainerStdin },
  ) {
    this.name = SHELLS.has(base(argv[0])) ? `${base(argv[0])}` : base(argv[0]);
  }

  start(): void {
    const spec = this.host.spec;
    const shellHost = this.program.shellHost(flavorOf(spec.image, base(this.argv[0])), this.isPid1);
    this.host.setMemory(SHELLS.has(base(this.argv[0])) ? 0.6 * MiB : 0.3 * MiB);
    this.run = startShell(shellHost, {
      argv: this.argv,
      env: { ...this.host.env },
      cwd: spec.workingDir ?? '/',
      // With `stdin: true` a shell reads a terminal that never ends; without, stdin is empty.
      io: { out: (t: string) => this.io.out(t), err: (t: string) => this.io.err(t), ...(spec.stdin ? { stdinOpen: true } : {}), ...(this.io.stdin ? { stdinStream: this.io.stdin } : {}) },
      unknown: spec.image.binariesComplete ? 'not-found' : 'forever',
      onExit: (code) => this.host.exit(code),
    });
  }

  signal(sig: Signal): void {
    if (!this.run || this.run.done) return;
    const r = this.run.signal(sig);
    if (r !== 'untrapped') return;
    if (this.host.isPid1) return; // sh/sleep as PID 1 install no handler: ignored
    this.run.stop();
    this.host.exit(128 + SIGNAL_NUMBERS[sig]);
  }

  listening(port: number): boolean {
    for (const c of this.host.children) if (c.listening(port)) return true;
    return false;
  }

  http(port: number, req: HttpRequest): HttpOutcome | undefined {
    for (const c of this.host.children) if (c.listening(port)) return c.http(port, req);
    return undefined;
  }

  helper(): ExecOutcome | undefined {
    return undefined;
  }

  ready(): boolean {
    for (const c of this.host.children) if (!c.ready()) return false;
    return true;
  }

  stop(): void {
    this.run?.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Programs from factories (control plane, app controllers)
// ---------------------------------------------------------------------------------------------

/** Wrap a factory's Program so that it answers the network and exec with sensible defaults. */
class ExternalContainerProgram implements ContainerProgram {
  private alive = false;
  private helperShell: ModelContainerProgram;

  constructor(
    readonly model: string,
    private readonly inner: Program & Partial<Omit<ContainerProgram, 'model'>>,
    private readonly spec: ContainerRunSpec,
    services: ContainerServices,
    registry: ProgramRegistry,
  ) {
    // A model program that never starts its main behaviour: used for exec's userland only.
    this.helperShell = new ModelContainerProgram(spec, services, registry);
  }

  start(ctx: ProcessContext): void {
    this.alive = true;
    this.helperShell.initFs();
    this.inner.start(ctx);
  }

  onSignal(sig: Signal, ctx: ProcessContext): boolean {
    if (this.inner.onSignal) return this.inner.onSignal(sig, ctx);
    // Components without their own handler: Go's component-base handler exits cleanly.
    ctx.exit(0);
    return true;
  }

  stop(): void {
    this.alive = false;
    this.inner.stop?.();
  }

  listening(port: number): boolean {
    if (this.inner.listening) return this.inner.listening(port);
    const declared = this.spec.ports.map((p) => p.containerPort);
    const known = FAMILY_SERVER_PORTS[this.spec.image.family] ?? [];
    return this.alive && (declared.includes(port) || known.includes(port));
  }

  http(port: number, req: HttpRequest): HttpOutcome {
    if (this.inner.http) return this.inner.http(port, req);
    if (!this.listening(port)) return { error: 'refused' };
    return { status: 200, body: 'ok' };
  }

  exec(argv: string[], done: (r: ExecOutcome) => void, onOutput?: ExecOutputListener): { cancel(): void } {
    if (this.inner.exec) return this.inner.exec(argv, done, onOutput);
    return this.helperShell.exec(argv, done, onOutput);
  }

  ready(): boolean {
    return this.inner.ready ? this.inner.ready() : this.alive;
  }
}

// ---------------------------------------------------------------------------------------------
// The registry
// ---------------------------------------------------------------------------------------------

/**
 * Chooses the program of each container. Registered factories are consulted first (in
 * registration order), then the built-in models, then the generic server.
 */
export class ProgramRegistry {
  private readonly factories: { matcher: ProgramMatcher; factory: ProgramFactory; name: string }[] = [];
  private readonly models: ModelEntry[];

  constructor(models: readonly ModelEntry[] = BUILTIN_MODELS) {
    this.models = [...models];
  }

  /**
   * Run containers matching `matcher` with programs from `factory` (e.g. kube-apiserver wired to
   * the simulated API server). Checked before the built-in models, in registration order.
   * `name` labels the model in traces (default `factory`).
   */
  registerProgramFactory(matcher: ProgramMatcher, factory: ProgramFactory, name = 'factory'): void {
    this.factories.push({ matcher, factory, name });
  }

  /** Add a data model (checked before the built-in ones). */
  registerModel(entry: ModelEntry): void {
    this.models.unshift(entry);
  }

  private factoryFor(spec: ContainerRunSpec): { factory: ProgramFactory; name: string } | undefined {
    const image = `${spec.image.repository}:${spec.image.tag ?? ''}`;
    return this.factories.find((f) => f.matcher(image, spec.command, spec.args, spec));
  }

  /**
   * What runs argv in image: a model with its variables, or `{ shellArgv }` when the command is
   * a shell or utility for the sh interpreter. A `docker-entrypoint.sh` or init wrapper
   * (`dumb-init --`, `tini --`) that only execs its arguments is looked through. An application
   * binary no model knows becomes the generic server (listening on the declared ports, or the
   * known ports of the image family).
   */
  findModel(argv: readonly string[], image: ImageRecord): { entry: ModelEntry; vars: Vars } | { shellArgv: string[] } {
    let a = argv;
    for (let i = 0; a.length > 0 && i < 4; i++) {
      for (const entry of this.models) {
        const vars = entry.match(a, image);
        if (vars) return { entry, vars };
      }
      const b = base(a[0]);
      if ((b === 'docker-entrypoint.sh' || b === 'entrypoint.sh') && a.length > 1) {
        a = a.slice(1);
        // curlimages/curl's entrypoint.sh: arguments starting with `-` are curl's (`set -- curl "$@"`).
        if (image.family === 'curl' && a[0].startsWith('-')) a = ['curl', ...a];
      }
      else if ((b === 'dumb-init' || b === 'tini') && a[1] === '--') a = a.slice(2);
      else if (b === 'dumb-init' || b === 'tini') a = a.slice(1);
      else break;
    }
    const first = base(a[0]);
    if (a.length === 0 || SHELLS.has(first) || UTILITY_NAMES.has(first) || imageHasCommand(image, first) === false) return { shellArgv: [...a] };
    const known = FAMILY_SERVER_PORTS[image.family];
    const model: ProgramModel = known ? { ...GENERIC_MODEL, name: `${image.family}-server`, listen: known } : GENERIC_MODEL;
    return { entry: { name: model.name, match: () => ({}), model }, vars: {} };
  }

  /** The name of the model that would run this container. */
  describe(spec: ContainerRunSpec): string {
    const f = this.factoryFor(spec);
    if (f) return f.name;
    const m = this.findModel(spec.argv, spec.image);
    if ('entry' in m) return m.entry.model.name;
    const b = base(m.shellArgv[0]);
    return `${spec.image.family}-${b || 'sh'}`;
  }

  /** Build the program of a container. */
  create(spec: ContainerRunSpec, services: ContainerServices): ContainerProgram {
    const f = this.factoryFor(spec);
    if (f) return new ExternalContainerProgram(f.name, f.factory(spec, services), spec, services, this);
    return new ModelContainerProgram(spec, services, this);
  }
}

/** The Program of a pod sandbox's `/pause` process (SIGTERM/SIGINT: exit 0). */
export function pauseProgram(): Program {
  return new PauseProgram();
}

/** `/pause` (a class, not an object of closures per sandbox: performance only). */
class PauseProgram implements Program {
  start(ctx: ProcessContext): void {
    ctx.setMemory(Math.round(0.3 * MiB));
  }

  onSignal(sig: Signal, ctx: ProcessContext): boolean {
    if (sig === 'SIGTERM' || sig === 'SIGINT') {
      ctx.exit(0);
      return true;
    }
    return true; // pause as PID 1 ignores the rest
  }
}
