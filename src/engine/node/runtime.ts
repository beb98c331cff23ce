/**
 * containerd as a kind node runs it: the node's image store, pod sandboxes (a
 * `containerd-shim-runc-v2` per pod holding `/pause`), containers (processes under the shim),
 * their logs, exec and probes, and the CRI API the kubelet calls.
 *
 * The state lives in `Containerd` and survives the containerd *process*: containers keep running
 * through their shims while containerd (or the kubelet) is down, exactly the property the seed's
 * "running containers keep running" relies on. While the process is not running every CRI call
 * throws `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while
 * dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"` (the unit
 * program calls `setProcessRunning`). Network traffic to pods (HTTP/TCP probes, Service traffic)
 * does not go through containerd and keeps working.
 *
 * Mirrors containerd 2.x's CRI plugin (`internal/cri/server`): ids are 64 hex digits (crictl
 * prints 13), container states CONTAINER_CREATED/RUNNING/EXITED, exit reasons Completed / Error /
 * OOMKilled (`OOMKilled` when the cgroup's OOM killer fired, exit 137), StopContainer sends the
 * image's STOPSIGNAL (default SIGTERM) and SIGKILL after the timeout, StopPodSandbox kills the
 * containers at once, container names are reserved (`<ctr>_<pod>_<ns>_<uid>_<attempt>`) until
 * RemoveContainer. Pod IPs come from the node's pod CIDR as the CNI `host-local` IPAM allocates
 * them (gateway `.1`, then `.2` upwards, continuing after the last one handed out). crictl's
 * table formats are from cri-tools `cmd/crictl` (container.go, sandbox.go, image.go).
 *
 * Units: virtual ms since the clock's epoch; sizes and memory in bytes.
 */
import type { Clock } from '../clock';
import { Rng, formatRfc3339 } from '../clock';
import type { TraceFn } from '../trace';
import { noTrace } from '../trace';
import type { ExitStatus, Process, ProcessContext, ProcessTable, Program, Signal, SpawnOptions } from './process';
import { parseSignal } from './process';
import type { ContainerProgram, ContainerRunSpec, ContainerServices, DialOutcome, ExecOutcome, PodNetwork } from './programs';
import { ProgramRegistry, goHttpError, imageHasCommand, pauseProgram, resolveArgv } from './programs';
import type { ImageRecord, PullFailure } from './registry';
import type { ContainerAttach } from './stdin';
import { ImageReferenceError, ImageRegistry, knownImage, localBuildImage, parseImageRef, syntheticDigestHex } from './registry';
import type { FsMount, HttpOutcome, HttpRequest } from './shell';
import { parseUrl } from './shell';
import { flattenString } from '../strings';

// ---------------------------------------------------------------------------------------------
// Errors and pending results
// ---------------------------------------------------------------------------------------------

/** gRPC status codes the CRI uses. */
export type GrpcCode = 'Unavailable' | 'NotFound' | 'Unknown' | 'FailedPrecondition' | 'InvalidArgument' | 'DeadlineExceeded' | 'AlreadyExists';

/**
 * A CRI call failed. `message` is what the kubelet logs and puts in events:
 * `rpc error: code = <code> desc = <desc>`.
 */
export class CriError extends Error {
  constructor(
    readonly code: GrpcCode,
    readonly desc: string,
  ) {
    super(`rpc error: code = ${code} desc = ${desc}`);
    this.name = 'CriError';
  }
}

/** containerd's socket as the kubelet dials it. */
export const CONTAINERD_SOCKET = '/run/containerd/containerd.sock';

/**
 * A result that arrives on the virtual clock (a pull, a stop, an exec, a probe). `then` runs the
 * callback at once if the value is already there, otherwise when it arrives. Never rejects:
 * failures are values.
 */
export class Pending<T> {
  /** Callbacks waiting for the value (made on the first wait: most probes settle at once). */
  private cbs: ((v: T) => void)[] | undefined;
  /**
   * Whether the value is known, and the value: two fields instead of a `{ value }` box made per
   * settle (performance only: every probe settles one; a value may itself be undefined, so the
   * flag, not the value, says settled).
   */
  private done = false;
  private v: T | undefined;

  /** True once the value is known. */
  get settled(): boolean {
    return this.done;
  }

  /** The value, once settled. */
  get value(): T | undefined {
    return this.done ? this.v : undefined;
  }

  /** Call `cb` with the value (now if settled). Returns this for chaining. */
  then(cb: (v: T) => void): this {
    if (this.done) cb(this.v as T);
    else (this.cbs ??= []).push(cb);
    return this;
  }

  /** Settle (first call wins). */
  resolve(v: T): void {
    if (this.done) return;
    this.done = true;
    this.v = v;
    const cbs = this.cbs;
    this.cbs = undefined;
    if (cbs) for (const cb of cbs) cb(v);
  }

  /** An already settled Pending. */
  static of<T>(v: T): Pending<T> {
    const p = new Pending<T>();
    p.resolve(v);
    return p;
  }
}

// ---------------------------------------------------------------------------------------------
// CRI shapes
// ---------------------------------------------------------------------------------------------

/** What the kubelet gives `RunPodSandbox` (the parts the simulation uses). */
export interface PodSandboxConfig {
  name: string;
  namespace: string;
  uid: string;
  attempt?: number;
  /** `spec.hostname` (default: the pod name). */
  hostname?: string;
  hostNetwork?: boolean;
  shareProcessNamespace?: boolean;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** DNS as the kubelet computes it for the pod (ClusterFirst: the cluster DNS Service IP). */
  dnsServer?: string;
  searches?: string[];
}

/** What the kubelet gives `CreateContainer`. */
export interface ContainerConfig {
  name: string;
  attempt?: number;
  /** The image: a reference (`nginx:1.27`), a normalised one, or an image ID (`sha256:...`). */
  image: string;
  command?: string[];
  args?: string[];
  /** Final environment (the kubelet expands `$(VAR)` and resolves valueFrom). */
  env?: Record<string, string> | { name: string; value: string }[];
  workingDir?: string;
  /** Declared ports (not part of CRI; the generic program model listens on them). */
  ports?: { containerPort: number; name?: string; protocol?: string }[];
  /** `resources.limits.memory` in bytes (the cgroup's memory.max). */
  memoryLimitBytes?: number;
  mounts?: FsMount[];
  stdin?: boolean;
  tty?: boolean;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** CRI container states. */
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
/** CRI sandbox states. */
export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

/** CRI `ContainerStatus` (times in virtual ms; 0 = unset, as CRI's 0 nanoseconds). */
export interface ContainerStatus {
  id: string;
  podSandboxId: string;
  metadata: { name: string; attempt: number };
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  /** The image as requested (normalised ref, e.g. `docker.io/library/nginx:1.27`). */
  image: { image: string };
  /** `docker.io/library/nginx@sha256:...` (the pod status' `imageID`), or `sha256:<id>` without a repo digest. */
  imageRef: string;
  /** Image ID `sha256:...`. */
  imageId: string;
  /** `Completed`, `Error`, `OOMKilled`, `StartError`, `Unknown` (exited only). */
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** `/var/log/pods/<ns>_<pod>_<uid>/<container>/<attempt>.log`. */
  logPath: string;
  /** The main process (host PID namespace) while running. */
  pid?: number;
  /** Resident memory of the main process, bytes. */
  memoryBytes: number;
  /** The program model running it (simulation detail, for traces and the UI). */
  model?: string;
}

/**
 * The fields of a `ContainerStatus` the kubelet's runtime view reads (`PodRuntimeRecords`); a
 * `ContainerStatus` is one. `annotations` is the container's own record there: read only.
 */
export type ContainerBrief = Pick<ContainerStatus, 'id' | 'podSandboxId' | 'metadata' | 'state' | 'createdAt' | 'startedAt' | 'finishedAt' | 'exitCode' | 'image' | 'imageRef' | 'reason' | 'message'> & {
  readonly annotations: Readonly<Record<string, string>>;
};

/** The fields of a `PodSandboxStatus` the kubelet's runtime view reads, flat: `network.ip` as `ip`, `metadata.attempt` as `attempt`. */
export interface PodSandboxBrief {
  id: string;
  state: SandboxState;
  ip: string;
  createdAt: number;
  attempt: number;
}

/** One pod's sandboxes and containers as `Containerd.podRuntimeRecords` reports them (newest first). */
export interface PodRuntimeRecords {
  sandboxes: PodSandboxBrief[];
  containers: ContainerBrief[];
}

/** CRI `PodSandboxStatus`. */
export interface PodSandboxStatus {
  id: string;
  metadata: { name: string; uid: string; namespace: string; attempt: number };
  state: SandboxState;
  createdAt: number;
  network: { ip: string };
  hostNetwork: boolean;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Empty: the default runc handler (crictl prints `(default)`). */
  runtimeHandler: string;
}

/** An image in the node's store (CRI `Image`). */
export interface ImageInfo {
  /** `sha256:<64 hex>`. */
  id: string;
  /** `docker.io/library/nginx:1.27` ... */
  repoTags: string[];
  /** `docker.io/library/nginx@sha256:...` ... (none for imported images). */
  repoDigests: string[];
  size: number;
  record: ImageRecord;
  /** Pinned images are never garbage-collected (the sandbox image). */
  pinned: boolean;
}

/** A successful or failed pull. */
export type PullResult =
  | { ok: true; imageRef: string; image: ImageInfo; durationMs: number }
  | { ok: false; error: CriError; durationMs: number };

/** One line of a container's log with its virtual time. */
export interface LogEntry {
  /** Virtual ms. */
  time: number;
  /** Sub-millisecond nanoseconds (0-999999), so timestamps look like real ones. */
  nanos: number;
  stream: 'stdout' | 'stderr';
  line: string;
}

/** A probe as in the pod spec (with a port name resolved or not). */
export interface ProbeSpec {
  exec?: { command: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string; httpHeaders?: { name: string; value: string }[] };
  tcpSocket?: { port: number | string; host?: string };
  grpc?: { port: number; service?: string };
  /** Default 1 (the API default). */
  timeoutSeconds?: number;
}

/** An HTTP probe's request and the inputs it was made from (see `Containerd.probeRequest`). */
interface ProbeRequest {
  readonly path: string;
  readonly ip: string;
  readonly port: number;
  readonly userAgent: string;
  readonly remoteAddr: string | undefined;
  /** `ip:port`. */
  readonly addr: string;
  readonly req: HttpRequest;
}

/** A probe's outcome as the kubelet's prober reports it. */
export interface ProbeResult {
  result: 'success' | 'failure';
  /** The output the kubelet puts in `Liveness probe failed: <output>` events. */
  output: string;
  /** The probe could not run (CRI error): the kubelet says `probe errored` instead of `failed`. */
  errored?: boolean;
}

/** The result of `exec`. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The command did not finish within the timeout. */
  timedOut?: boolean;
  /** The exec could not start (binary missing, container not running, containerd down). */
  error?: CriError;
  /**
   * The exec'd process was killed with its container (the container's init died, or the
   * cgroup's OOM killer took the whole group): exit 137. An attached shell session ends here.
   */
  killedWithContainer?: boolean;
}

/** CRI container events (GetContainerEvents, used by the Evented PLEG). */
export interface ContainerEvent {
  type: 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';
  containerId: string;
  podSandboxId: string;
  /** Virtual ms. */
  time: number;
}

/** Where a pod's traffic comes from (for cluster routing). */
export interface NetSource {
  nodeName: string;
  podIP: string;
  podName: string;
  namespace: string;
  hostNetwork: boolean;
}

/**
 * Routing beyond this node, provided by the cluster wiring (Services, other nodes' pods, DNS).
 * Every method may return undefined for "not mine" (the runtime then routes on the node).
 */
export interface ClusterNetwork {
  /** DNS: a name as seen from a pod (`catalog`, `catalog.bookshop.svc`, `kubernetes.default`) -> IP; null = NXDOMAIN. */
  resolve?(from: NetSource, name: string): string | null | undefined;
  /** An HTTP request to `ip:port` (a ClusterIP, a pod on another node, the internet). */
  http?(from: NetSource, ip: string, port: number, req: HttpRequest): HttpOutcome | undefined;
  /** A TCP connect to `ip:port`. */
  dial?(from: NetSource, ip: string, port: number): DialOutcome | undefined;
}

/** Options of `Containerd`. */
export interface ContainerdOptions {
  nodeName: string;
  clock: Clock;
  rng: Rng;
  processes: ProcessTable;
  /** The node's pod CIDR, e.g. `10.244.1.0/24` (kindnet hands out host-local ranges). */
  podCIDR: string;
  /** The node's IP on the kind network, e.g. `172.18.0.3` (hostNetwork pods get it). */
  nodeIP: string;
  registry?: ImageRegistry;
  programs?: ProgramRegistry;
  network?: ClusterNetwork;
  /** CPUs of the node. Default 2. */
  nodeCpus?: number;
  /** The cluster DNS Service IP for pods' resolv.conf. Default 10.96.0.10. */
  dnsServer?: string;
  trace?: TraceFn;
  /** containerd's own log lines (logrus text) while it runs, for `journalctl -u containerd`. */
  log?: (line: string) => void;
  /** Kernel messages (the OOM killer), for the node's `dmesg`/journal. */
  kernelLog?: (line: string) => void;
  /** Lines kept per container log (older ones drop, like log rotation). Default 10 000. */
  maxLogLines?: number;
  /** The sandbox image (`sandbox_image`); default `registry.k8s.io/pause:3.10`. */
  sandboxImage?: string;
  /** Whether the containerd process runs at construction. Default true. */
  running?: boolean;
}

/** containerd's version as `crictl version` / the node status show it (kind v0.32 ships containerd 2.x). [unverified patch] */
export const CONTAINERD_VERSION = 'v2.1.3';

// ---------------------------------------------------------------------------------------------
// Internal records
// ---------------------------------------------------------------------------------------------

interface SandboxRec {
  id: string;
  config: PodSandboxConfig;
  state: SandboxState;
  createdAt: number;
  ip: string;
  shim?: Process;
  pause?: Process;
  containers: Set<string>;
  /** Ports bound in the pod's network namespace -> container id. */
  ports: Map<number, string>;
  ipReleased: boolean;
}

interface ContainerRec {
  id: string;
  sandboxId: string;
  config: ContainerConfig;
  attempt: number;
  image: ImageInfo;
  requestedImage: string;
  state: ContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  process?: Process;
  program?: ContainerProgram;
  oomKilled: boolean;
  logs: LogEntry[];
  nameKey: string;
  stop?: { pending: Pending<void>; killTimer?: { cancel(): void } };
  lastMemory: number;
  /** Set while StartContainer runs: an exit during start is handled after it returns. */
  starting?: { exit?: number };
  /** Exec sessions still running in the container: each ends its session as killed (137). */
  execs?: Set<() => void>;
}

/** The annotations of a container created without any (`podRuntimeRecords`; never written). */
const NO_ANNOTATIONS: Readonly<Record<string, string>> = Object.freeze({});

const HEX = '0123456789abcdef';
/** `HEX`'s character codes. */
const HEX_CODES: readonly number[] = Array.from(HEX, (c) => c.charCodeAt(0));
/** `newId`'s code buffer (64 hex digits; filled and read within one call). */
const ID_CODES: number[] = new Array<number>(64).fill(0);
/** Names that look like internet hosts (a public top-level domain). */
const INTERNET_TLD = /\.(com|org|net|io|dev|ch|de|uk|fr|nl|eu|co|app|edu|gov|info|ai|cloud|sh|me|us|ca|jp|cn|in|br|au|ru|it|es|se|no|fi|pl|be|at|cz|ie|nz|tv|xyz|site|tech)$/i;
const SHIM_BINARY = '/usr/local/bin/containerd-shim-runc-v2';

/** `a.b.c.d` -> 32-bit number. */
function ipToNum(ip: string): number {
  return ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
}
/** `/^\d+$/.test(s)` without a regular expression (named probe ports are resolved every probe). */
function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The URL an HTTP probe prints in its failure messages (built only when one is). */
function probeUrl(scheme: string, addr: string, path: string): string {
  return `${scheme}://${addr}${path.startsWith('/') ? path : `/${path}`}`;
}

/** 32-bit number -> `a.b.c.d` (no intermediate arrays: probes ask for the gateway often). */
function numToIp(n: number): string {
  return `${Math.floor(n / 16777216) % 256}.${Math.floor(n / 65536) % 256}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/** go-units `HumanDuration` + " ago", as crictl prints CREATED. */
export function humanDurationAgo(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  let s: string;
  if (seconds < 1) s = 'Less than a second';
  else if (seconds === 1) s = '1 second';
  else if (seconds < 60) s = `${seconds} seconds`;
  else {
    const minutes = Math.floor(ms / 60_000);
    const hours = Math.round(ms / 3_600_000);
    if (minutes === 1) s = 'About a minute';
    else if (minutes < 60) s = `${minutes} minutes`;
    else if (hours === 1) s = 'About an hour';
    else if (hours < 48) s = `${hours} hours`;
    else if (hours < 24 * 7 * 2) s = `${Math.floor(hours / 24)} days`;
    else if (hours < 24 * 30 * 2) s = `${Math.floor(hours / 24 / 7)} weeks`;
    else if (hours < 24 * 365 * 2) s = `${Math.floor(hours / 24 / 30)} months`;
    else s = `${Math.floor(ms / 3_600_000 / 24 / 365)} years`;
  }
  return `${s} ago`;
}

/** go-units `HumanSizeWithPrecision(size, 3)` (decimal units), as crictl prints SIZE: `72.3MB`, `320kB`. */
export function humanSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${Number(v.toPrecision(3))}${units[i]}`;
}

/**
 * Lay out rows as crictl's table display does (Go tabwriter, minwidth 20, tabwidth 1, padding 3,
 * the last column unpadded).
 */
export function crictlTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => {
    if (i < r.length - 1) widths[i] = Math.max(widths[i] ?? 0, Math.max(20, c.length + 3));
  });
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]) : c)).join('')).join('\n') + (rows.length ? '\n' : '');
}

/** Go's RFC3339Nano (trailing zeros of the fraction trimmed) for a Unix ms + sub-ms nanos. */
export function rfc3339Nano(unixMs: number, nanos = 0): string {
  // The whole second's text is kept for the next call (performance only: containerd writes
  // several log lines per container start, nearly all in one second; `formatRfc3339` is a pure
  // function of the second). `base` ends with its only `Z`, so the fraction goes before it.
  const sec = Math.floor(unixMs / 1000) * 1000;
  if (sec !== nanoBaseSecond) {
    nanoBaseSecond = sec;
    nanoBase = formatRfc3339(sec);
  }
  const base = nanoBase;
  const v = (unixMs % 1000) * 1_000_000 + nanos;
  if (v === 0) return base;
  // `String(v).padStart(9, '0')` without its trailing zeros (what `.replace(/0+$/, '')` left).
  const digits = String(v).padStart(9, '0');
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return end === 0 ? base : `${base.slice(0, -1)}.${digits.slice(0, end)}Z`;
}

/**
 * Containers newest first, as containerd's nanosecond `CreatedAt` orders them (the kubelet's
 * `containerStatusByCreated`). Two containers created in one virtual millisecond tie on time:
 * of one container name the higher attempt was created later (the kubelet makes attempt N+1
 * after N: a container whose start failed is restarted at once, in the same millisecond); the id
 * decides the rest.
 */
function newestContainerFirst(a: { createdAt: number; attempt: number; id: string }, b: { createdAt: number; attempt: number; id: string }): number {
  return b.createdAt - a.createdAt || b.attempt - a.attempt || (a.id < b.id ? -1 : 1);
}

/** `rfc3339Nano`'s last whole second (Unix ms) and its `formatRfc3339` text. */
let nanoBaseSecond = Number.NaN;
let nanoBase = '';

/** An external page for `curl http://<internet host>` (the corpus's init container fetches info.cern.ch). */
function internetPage(host: string): string {
  if (host === 'info.cern.ch') {
    return '<html><head></head><body><header>\n<title>http://info.cern.ch</title>\n</header>\n\n<h1>http://info.cern.ch - home of the first website</h1>\n<p>From here you can:</p>\n<ul>\n<li><a href="http://info.cern.ch/hypertext/WWW/TheProject.html">Browse the first website</a></li>\n<li><a href="http://line-mode.cern.ch/www/hypertext/WWW/TheProject.html">Browse the first website using the line-mode browser simulator</a></li>\n<li><a href="http://home.web.cern.ch/topics/birth-web">Learn about the birth of the web</a></li>\n<li><a href="http://home.web.cern.ch/about">Learn about CERN, the physics laboratory where the web was born</a></li>\n</ul>\n</body></html>\n';
  }
  return `<!doctype html>\n<html>\n<head>\n    <title>${host}</title>\n</head>\n<body>\n<div>\n    <h1>${host}</h1>\n</div>\n</body>\n</html>\n`;
}

// ---------------------------------------------------------------------------------------------
// Containerd
// ---------------------------------------------------------------------------------------------

/**
 * The spawn options of a container's main process. The process table calls the callbacks as
 * methods of its options (`opts.onLog(...)`), so they live on one prototype here instead of
 * three closures per container (performance only: the same calls in the same order).
 */
class ContainerSpawn implements SpawnOptions {
  constructor(
    private readonly rt: Containerd,
    private readonly c: ContainerRec,
    private readonly limit: number | undefined,
    readonly command: string,
    readonly args: string[],
    readonly ppid: number,
    readonly user: string,
    readonly program: Program,
  ) {}

  get containerId(): string {
    return this.c.id;
  }

  onLog(line: string): void {
    this.rt.containerLog(this.c, line);
  }

  onMemory(bytes: number, p: Process): void {
    this.rt.containerMemory(this.c, this.limit, bytes, p);
  }

  onExit(status: ExitStatus): void {
    this.rt.containerExit(this.c, status.code);
  }
}

/** One node's containerd: image store, sandboxes, containers, CRI. */
export class Containerd {
  readonly nodeName: string;
  readonly registry: ImageRegistry;
  readonly programs: ProgramRegistry;
  private readonly clock: Clock;
  private readonly rng: Rng;
  private readonly processes: ProcessTable;
  private readonly trace: TraceFn;
  private readonly opts: ContainerdOptions;
  private runningFlag: boolean;
  private socketGone = false;
  /** Containers that were running when the machine stopped: their exit time is set at recovery. */
  private lostTasks: ContainerRec[] | undefined;
  private readonly images = new Map<string, ImageInfo>();
  private readonly sandboxes = new Map<string, SandboxRec>();
  /**
   * The sandboxes of each pod UID, in creation order (the order of `sandboxes`). An index kept
   * with `sandboxes` (performance only: the kubelet lists one pod's sandboxes and containers on
   * every pod sync, which scanned every record of the node).
   */
  private readonly sandboxesByUid = new Map<string, SandboxRec[]>();
  private readonly containers = new Map<string, ContainerRec>();
  /** Bumped on every creation, removal and state change of a sandbox or container (see `plegGeneration`). */
  private stateGeneration = 0;
  /**
   * Per pod UID with sandboxes, the `stateGeneration` of the last change to one of its
   * sandboxes or their containers (see `podGeneration`); dropped with the UID's last sandbox.
   */
  private readonly podGens = new Map<string, number>();
  /** Bumped whenever an image is added or removed or its tags or digests change (see `imageGeneration`). */
  private imageGen = 0;
  private readonly names = new Map<string, string>();
  private readonly pulls = new Map<string, { pending: Pending<PullResult>; timer: { cancel(): void }; started: number }>();
  private readonly listeners = new Set<(e: ContainerEvent) => void>();
  private readonly ipBase: number;
  private readonly ipSize: number;
  private lastIp: number;
  private readonly usedIps = new Set<number>();
  /** Ports bound by hostNetwork containers on this node -> container id. */
  private readonly hostPorts = new Map<number, string>();

  constructor(opts: ContainerdOptions) {
    this.opts = opts;
    this.nodeName = opts.nodeName;
    this.clock = opts.clock;
    // One draw from the engine's generator seeds this node's own stream: container IDs, log
    // timestamps' sub-ms digits and program chance then never shift other components' draws.
    this.rng = new Rng(opts.rng.int(0, 0x7fffffff));
    this.processes = opts.processes;
    this.trace = opts.trace ?? noTrace;
    this.registry = opts.registry ?? new ImageRegistry();
    this.programs = opts.programs ?? new ProgramRegistry();
    this.runningFlag = opts.running ?? true;
    const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(opts.podCIDR);
    if (!m) throw new RangeError(`bad pod CIDR ${opts.podCIDR}`);
    const bits = Number(m[2]);
    this.ipSize = 2 ** (32 - bits);
    this.ipBase = ipToNum(m[1]) - (ipToNum(m[1]) % this.ipSize);
    this.lastIp = this.ipBase + 1; // the gateway; host-local starts after it
  }

  // --- the containerd process ----------------------------------------------------------------

  /** Whether the containerd process is running (CRI calls work). */
  get running(): boolean {
    return this.runningFlag;
  }

  /**
   * The containerd unit program tells the runtime when its process starts and ends. `how`:
   * `'crash'` (killed: the socket file stays, dialing it is refused) or `'stopped'` (a clean stop
   * unlinks the socket: `no such file or directory`). Pulls in flight fail (`error reading from
   * server: EOF`); containers and shims are untouched.
   */
  setProcessRunning(running: boolean, how: 'crash' | 'stopped' = 'crash'): void {
    if (running === this.runningFlag) return;
    this.runningFlag = running;
    this.socketGone = !running && how === 'stopped';
    if (!running) {
      for (const [key, p] of [...this.pulls]) {
        p.timer.cancel();
        this.pulls.delete(key);
        p.pending.resolve({ ok: false, error: new CriError('Unavailable', 'error reading from server: EOF'), durationMs: this.clock.now() - p.started });
      }
      this.trace(`containerd[${this.nodeName}]`, 'containerd stopped: CRI unavailable; containers keep running under their shims');
    } else {
      // Containers whose tasks vanished with the machine: containerd's recovery finds the
      // checkpoint RUNNING and no task, and only now settles them as exited, at this moment
      // (internal/cri/server/restart.go: `status.FinishedAt = time.Now().UnixNano()`,
      // `unknownExitCode` 255, `unknownExitReason` "Unknown").
      if (this.lostTasks) {
        const now = this.clock.now();
        for (const c of this.lostTasks) if (c.state === 'CONTAINER_EXITED' && this.containers.get(c.id) === c) c.finishedAt = now;
        this.lostTasks = undefined;
      }
      this.trace(`containerd[${this.nodeName}]`, `containerd started: ${this.sandboxes.size} sandboxes, ${[...this.containers.values()].filter((c) => c.state === 'CONTAINER_RUNNING').length} running containers recovered`);
    }
  }

  /** Throw the CRI connection error while containerd is down. */
  private ensureUp(): void {
    if (this.runningFlag) return;
    throw new CriError('Unavailable', `connection error: desc = "transport: Error while dialing: dial unix ${CONTAINERD_SOCKET}: connect: ${this.socketGone ? 'no such file or directory' : 'connection refused'}"`);
  }

  /** CRI `Version`. */
  version(): { version: string; runtimeName: string; runtimeVersion: string; runtimeApiVersion: string } {
    this.ensureUp();
    return { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: CONTAINERD_VERSION, runtimeApiVersion: 'v1' };
  }

  private lastClog = { time: -1, nanos: 0 };

  private clog(msg: string, level: 'info' | 'error' | 'warning' = 'info', extra = ''): void {
    if (!this.runningFlag || !this.opts.log) return;
    const t = this.clock.now();
    // Lines of one instant keep their order: sub-ms parts only grow.
    const nanos = t === this.lastClog.time ? Math.min(999_999, this.lastClog.nanos + this.rng.int(20_000, 90_000)) : this.rng.int(0, 400_000);
    // Updated in place (performance only: nothing else holds it).
    this.lastClog.time = t;
    this.lastClog.nanos = nanos;
    // A message without a quote is its own escape (performance only: no regular expression run).
    const escaped = msg.indexOf('"') < 0 ? msg : msg.replace(/"/g, '\\"');
    this.opts.log(`time="${rfc3339Nano(this.clock.epochMs + t, nanos)}" level=${level} msg="${escaped}"${extra}`);
  }

  private newId(): string {
    // The same sixteen draws and hex digits as appending four digits per draw, written into
    // one reused code buffer and made into one flat string (performance only: no chain of
    // partial strings per id; ids are kept by every container record, status and log line).
    const codes = ID_CODES;
    for (let i = 0; i < 16; i++) {
      const n = this.rng.int(0, 0xffff);
      codes[i * 4] = HEX_CODES[(n >> 12) & 15];
      codes[i * 4 + 1] = HEX_CODES[(n >> 8) & 15];
      codes[i * 4 + 2] = HEX_CODES[(n >> 4) & 15];
      codes[i * 4 + 3] = HEX_CODES[n & 15];
    }
    return String.fromCharCode.apply(null, codes);
  }

  /** Subscribe to container events (delivered while containerd runs). Returns an unsubscribe function. */
  subscribe(listener: (e: ContainerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(type: ContainerEvent['type'], c: ContainerRec): void {
    if (!this.runningFlag) return;
    const e: ContainerEvent = { type, containerId: c.id, podSandboxId: c.sandboxId, time: this.clock.now() };
    for (const l of [...this.listeners]) l(e);
  }

  // --- images --------------------------------------------------------------------------------

  private addImage(rec: ImageRecord, opts: { withDigest: boolean; pinned?: boolean }): ImageInfo {
    // Whether the store changed: a new image, a pin, a tag moved or added, a digest added.
    let changed = false;
    let info = this.images.get(rec.id);
    if (!info) {
      info = { id: rec.id, repoTags: [], repoDigests: [], size: rec.size, record: rec, pinned: opts.pinned ?? false };
      this.images.set(rec.id, info);
      changed = true;
    }
    if (opts.pinned && !info.pinned) {
      info.pinned = true;
      changed = true;
    }
    // A tag moves to the newest image carrying it.
    if (rec.tag) {
      const tagRef = `${rec.repository}:${rec.tag}`;
      for (const other of this.images.values()) {
        // (An image without the tag keeps its list: filtering it would copy it unchanged.
        // Performance only: every pull walks the node's images; tag lists are read live.)
        if (other !== info && other.repoTags.includes(tagRef)) {
          other.repoTags = other.repoTags.filter((t) => t !== tagRef);
          changed = true;
        }
      }
      if (!info.repoTags.includes(tagRef)) {
        info.repoTags.push(tagRef);
        changed = true;
      }
    }
    if (opts.withDigest) {
      const d = `${rec.repository}@${rec.digest}`;
      if (!info.repoDigests.includes(d)) {
        info.repoDigests.push(d);
        changed = true;
      }
    }
    // See `imageGeneration`: only a change moves it (performance only: a pull of an image the
    // node already has, as every pod of a rollout queues, leaves every image record as it was,
    // so the kubelet keeps its pods' runtime views).
    if (changed) this.imageGen++;
    return info;
  }

  /** Find an image in the store by reference, normalised reference, image ID (or a 12+ hex prefix). */
  private findImage(ref: string): ImageInfo | undefined {
    const byId = ref.startsWith('sha256:') ? ref : /^[0-9a-f]{12,64}$/.test(ref) ? `sha256:${ref}` : undefined;
    if (byId) {
      for (const i of this.images.values()) if (i.id.startsWith(byId)) return i;
    }
    let norm: string;
    try {
      norm = parseImageRef(ref).ref;
    } catch {
      return undefined;
    }
    for (const i of this.images.values()) if (i.repoTags.includes(norm) || i.repoDigests.includes(norm)) return i;
    return undefined;
  }

  /**
   * CRI `PullImage`: resolves on the clock after the pull time (`ImageRegistry.pullTimeMs`), or
   * after the resolve latency with containerd's error. Concurrent pulls of one reference share
   * one download. `credentials` lists registry hosts the pod has pull secrets for.
   *
   * Errors: throws `CriError` Unavailable while containerd is down; an unparsable reference
   * throws `CriError` (Unknown) with `failed to pull and unpack image "x": ... invalid reference
   * format` - the kubelet catches that case first as InvalidImageName.
   */
  pullImage(ref: string, onDone?: (r: PullResult) => void, credentials: readonly string[] = []): Pending<PullResult> {
    this.ensureUp();
    let parsed;
    try {
      parsed = parseImageRef(ref);
    } catch (e) {
      if (e instanceof ImageReferenceError) throw new CriError('Unknown', `failed to pull and unpack image "${ref}": ${e.message}`);
      throw e;
    }
    const key = parsed.ref;
    const existing = this.pulls.get(key);
    if (existing) {
      if (onDone) existing.pending.then(onDone);
      return existing.pending;
    }
    const pending = new Pending<PullResult>();
    if (onDone) pending.then(onDone);
    const res = this.registry.resolve(parsed, credentials);
    const started = this.clock.now();
    this.clog(`PullImage "${ref}"`);
    const delay = res.ok ? res.durationMs : (res as PullFailure).latencyMs;
    const timer = this.clock.schedule(delay, () => {
      this.pulls.delete(key);
      if (res.ok) {
        const info = this.addImage(res.image, { withDigest: true });
        this.clog(`ImageCreate event name:"${key}" attributes:{key:"io.cri-containerd.image" value:"managed"}`);
        this.clog(`PullImage "${ref}" returns image reference "${info.id}"`);
        this.trace(`containerd[${this.nodeName}]`, `pulled ${key} (${res.image.size} bytes) in ${(delay / 1000).toFixed(3)}s`);
        pending.resolve({ ok: true, imageRef: info.id, image: info, durationMs: delay });
      } else {
        const err = new CriError(res.code, res.message);
        this.clog(`PullImage "${ref}" failed`, 'error', ` error="${err.message.replace(/"/g, '\\"')}"`);
        this.trace(`containerd[${this.nodeName}]`, `pull of ${key} failed: ${res.message}`);
        pending.resolve({ ok: false, error: err, durationMs: delay });
      }
    }, { label: `containerd[${this.nodeName}]: pull ${key}` });
    this.pulls.set(key, { pending, timer, started });
    return pending;
  }

  /** CRI `ImageStatus`: the image if present (undefined = not present, as CRI's nil image). */
  imageStatus(ref: string): ImageInfo | undefined {
    this.ensureUp();
    return this.findImage(ref);
  }

  /** CRI `ListImages`, sorted by first tag (or ID). */
  listImages(): ImageInfo[] {
    this.ensureUp();
    return [...this.images.values()].sort((a, b) => ((a.repoTags[0] ?? a.id) < (b.repoTags[0] ?? b.id) ? -1 : 1));
  }

  /** `crictl images` rows: IMAGE, TAG, IMAGE ID (13 hex), SIZE - one row per tag. */
  crictlImages(): { image: string; tag: string; imageId: string; size: string }[] {
    const rows: { image: string; tag: string; imageId: string; size: string }[] = [];
    for (const i of this.listImages()) {
      const id = i.id.slice(7, 20);
      const size = humanSize(i.size);
      if (i.repoTags.length === 0) {
        const repo = i.repoDigests[0]?.split('@')[0] ?? '<none>';
        rows.push({ image: repo, tag: '<none>', imageId: id, size });
      }
      for (const t of i.repoTags) {
        const c = t.lastIndexOf(':');
        rows.push({ image: t.slice(0, c), tag: t.slice(c + 1), imageId: id, size });
      }
    }
    return rows;
  }

  /**
   * CRI `RemoveImage` (`crictl rmi`). Removing an image used by a container is allowed (the
   * kubelet's GC checks usage); removing an unknown one is a no-op as in containerd.
   */
  removeImage(ref: string): void {
    this.ensureUp();
    const i = this.findImage(ref);
    if (!i || i.pinned) return;
    this.images.delete(i.id);
    this.imageGen++;
    this.clog(`ImageDelete event name:"${i.repoTags[0] ?? i.id}"`);
  }

  /**
   * `kind load docker-image REF`: import a locally built image (`ctr -n k8s.io images import`)
   * or any known image record. Imported images carry their tag but no repo digest.
   * Errors: `CriError` Unavailable while containerd is down; `Error` when the host has no such image
   * (`ERROR: image: "x" not present locally`).
   */
  loadImage(ref: string | ImageRecord): ImageInfo {
    this.ensureUp();
    const rec = typeof ref === 'string' ? (localBuildImage(ref) ?? knownImage(ref)) : ref;
    if (!rec) throw new Error(`ERROR: image: "${ref as string}" not present locally`);
    const info = this.addImage(rec, { withDigest: false });
    this.clog(`ImageCreate event name:"${rec.repository}:${rec.tag ?? ''}" attributes:{key:"io.cri-containerd.image" value:"managed"}`);
    this.trace(`containerd[${this.nodeName}]`, `imported ${rec.repository}:${rec.tag ?? ''} (kind load)`);
    return info;
  }

  /** Put images into the store without a pull (the kind node image's preloaded images). Works while containerd is down. */
  preloadImages(refs: readonly string[]): void {
    const sandbox = this.opts.sandboxImage ?? 'registry.k8s.io/pause:3.10';
    for (const r of refs) {
      const rec = knownImage(r);
      if (rec) this.addImage(rec, { withDigest: true, pinned: parseImageRef(r).ref === parseImageRef(sandbox).ref });
    }
  }

  // --- sandboxes -----------------------------------------------------------------------------

  private allocateIp(): string {
    for (let k = 0; k < this.ipSize; k++) {
      let n = this.lastIp + 1 + k;
      if (n >= this.ipBase + this.ipSize - 1) n = this.ipBase + 2 + ((n - this.ipBase - 2) % (this.ipSize - 3));
      if (n < this.ipBase + 2) continue;
      if (!this.usedIps.has(n)) {
        this.usedIps.add(n);
        this.lastIp = n;
        return numToIp(n);
      }
    }
    throw new CriError('Unknown', `failed to setup network for sandbox: plugin type="host-local" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${numToIp(this.ipBase + 1)}-${numToIp(this.ipBase + this.ipSize - 2)}`);
  }

  private releaseIp(s: SandboxRec): void {
    if (s.ipReleased || s.config.hostNetwork) return;
    s.ipReleased = true;
    this.usedIps.delete(ipToNum(s.ip));
  }

  /** The pod network's gateway on this node (the source address of kubelet probes). */
  get gatewayIp(): string {
    // ipBase never changes: the string is computed once (performance only).
    return (this.gatewayIpString ??= numToIp(this.ipBase + 1));
  }

  private gatewayIpString: string | undefined;

  /**
   * CRI `RunPodSandbox`: a shim (`containerd-shim-runc-v2 -namespace k8s.io -id <id> -address
   * /run/containerd/containerd.sock`, PPID 1, in containerd.service's cgroup) holding `/pause`,
   * and a pod IP from the pod CIDR (the node IP for hostNetwork). Returns the sandbox ID.
   * Errors: `CriError` Unavailable while containerd is down; host-local exhaustion.
   */
  runPodSandbox(config: PodSandboxConfig): string {
    this.ensureUp();
    const id = this.newId();
    this.clog(`RunPodSandbox for &PodSandboxMetadata{Name:${config.name},Uid:${config.uid},Namespace:${config.namespace},Attempt:${config.attempt ?? 0},}`);
    const ip = config.hostNetwork ? this.opts.nodeIP : this.allocateIp();
    const rec: SandboxRec = { id, config, state: 'SANDBOX_READY', createdAt: this.clock.now(), ip, containers: new Set(), ports: new Map(), ipReleased: false };
    this.sandboxes.set(id, rec);
    const same = this.sandboxesByUid.get(config.uid);
    if (same) same.push(rec);
    else this.sandboxesByUid.set(config.uid, [rec]);
    this.podChanged(config.uid);
    const shimProgram: Program = new ShimProgram(this, rec);
    rec.shim = this.processes.spawn({
      command: SHIM_BINARY,
      args: ['-namespace', 'k8s.io', '-id', id, '-address', CONTAINERD_SOCKET],
      ppid: 1,
      unit: 'containerd.service',
      program: shimProgram,
    });
    rec.pause = this.processes.spawn({
      command: '/pause',
      ppid: rec.shim.pid,
      user: '65535',
      containerId: id,
      program: pauseProgram(),
    });
    this.clog(`RunPodSandbox for &PodSandboxMetadata{Name:${config.name},Uid:${config.uid},Namespace:${config.namespace},Attempt:${config.attempt ?? 0},} returns sandbox id "${id}"`);
    this.trace(`containerd[${this.nodeName}]`, `sandbox ${id.slice(0, 13)} for ${config.namespace}/${config.name} (IP ${ip})`, { kind: 'Pod', namespace: config.namespace, name: config.name, uid: config.uid });
    return id;
  }

  /** @internal The shim of sandbox `rec` died (`ShimProgram.stop`). */
  shimExited(rec: SandboxRec): void {
    // A shim that dies takes its tasks with it (containerd later sees "shim disconnected").
    if (rec.state === 'SANDBOX_READY') this.clock.schedule(0, () => this.shimLost(rec), { label: `containerd-shim ${rec.id.slice(0, 13)} exited` });
  }

  private shimLost(s: SandboxRec): void {
    if (s.state !== 'SANDBOX_READY') return;
    for (const cid of s.containers) {
      const c = this.containers.get(cid);
      if (!c?.process || c.state !== 'CONTAINER_RUNNING') continue;
      if (!this.processes.kill(c.process.pid, 'SIGKILL')) {
        // Gone without an exit report (the whole machine died): containerd reports 255.
        c.program?.stop?.();
        c.state = 'CONTAINER_EXITED';
        this.podChanged(s.config.uid);
        c.finishedAt = this.clock.now();
        c.exitCode = 255;
        c.reason = 'Unknown';
        c.lastMemory = 0;
      }
    }
    if (s.pause) this.processes.kill(s.pause.pid, 'SIGKILL');
    s.state = 'SANDBOX_NOTREADY';
    this.podChanged(s.config.uid);
    this.clog(`shim disconnected`, 'info', ` id=${s.id} namespace=k8s.io`);
  }

  private sandbox(id: string): SandboxRec {
    const s = this.sandboxes.get(id) ?? [...this.sandboxes.values()].find((x) => x.id.startsWith(id) && id.length >= 6);
    if (!s) throw new CriError('NotFound', `an error occurred when try to find sandbox "${id}": not found`);
    return s;
  }

  /**
   * CRI `StopPodSandbox`: kill every container at once (no grace: the kubelet stopped them
   * first), stop `/pause`, tear down the network (release the IP); the shim exits. Idempotent.
   */
  stopPodSandbox(id: string): void {
    this.ensureUp();
    const s = this.sandboxes.get(id);
    if (!s) return; // containerd treats a missing sandbox as stopped
    this.clog(`StopPodSandbox for "${id}"`);
    for (const cid of s.containers) {
      const c = this.containers.get(cid);
      if (c?.process && c.state === 'CONTAINER_RUNNING') this.processes.kill(c.process.pid, 'SIGKILL');
    }
    const wasReady = s.state === 'SANDBOX_READY';
    s.state = 'SANDBOX_NOTREADY';
    this.podChanged(s.config.uid);
    if (s.pause && !s.pause.exitStatus) this.processes.kill(s.pause.pid, 'SIGKILL');
    if (s.shim && !s.shim.exitStatus) this.processes.kill(s.shim.pid, 'SIGTERM');
    this.releaseIp(s);
    this.clog(`TearDown network for sandbox "${id}" successfully`);
    this.clog(`StopPodSandbox for "${id}" returns successfully`);
    if (wasReady) this.trace(`containerd[${this.nodeName}]`, `sandbox ${id.slice(0, 13)} of ${s.config.namespace}/${s.config.name} stopped`);
  }

  /** CRI `RemovePodSandbox`: stop it if needed, remove its containers and the record. */
  removePodSandbox(id: string): void {
    this.ensureUp();
    const s = this.sandboxes.get(id);
    if (!s) return;
    if (s.state === 'SANDBOX_READY') this.stopPodSandbox(id);
    for (const cid of [...s.containers]) this.dropContainer(cid);
    this.releaseIp(s);
    this.sandboxes.delete(id);
    const same = this.sandboxesByUid.get(s.config.uid);
    const at = same ? same.indexOf(s) : -1;
    if (at >= 0) same!.splice(at, 1);
    this.podChanged(s.config.uid);
    // No sandbox left: no records to report (see `podGeneration`).
    if (same?.length === 0) {
      this.sandboxesByUid.delete(s.config.uid);
      this.podGens.delete(s.config.uid);
    }
    this.clog(`RemovePodSandbox "${id}" returns successfully`);
  }

  private sandboxStatus(s: SandboxRec): PodSandboxStatus {
    return {
      id: s.id,
      metadata: { name: s.config.name, uid: s.config.uid, namespace: s.config.namespace, attempt: s.config.attempt ?? 0 },
      state: s.state,
      createdAt: s.createdAt,
      network: { ip: s.config.hostNetwork ? this.opts.nodeIP : s.ipReleased ? '' : s.ip },
      hostNetwork: s.config.hostNetwork ?? false,
      labels: { ...(s.config.labels ?? {}), 'io.kubernetes.pod.name': s.config.name, 'io.kubernetes.pod.namespace': s.config.namespace, 'io.kubernetes.pod.uid': s.config.uid },
      annotations: { ...(s.config.annotations ?? {}) },
      runtimeHandler: '',
    };
  }

  /** CRI `PodSandboxStatus`. */
  podSandboxStatus(id: string): PodSandboxStatus {
    this.ensureUp();
    return this.sandboxStatus(this.sandbox(id));
  }

  /** CRI `ListPodSandbox` (newest first), optionally by state or pod UID. */
  listPodSandboxes(filter: { state?: SandboxState; podUid?: string } = {}): PodSandboxStatus[] {
    this.ensureUp();
    // With a pod UID, only that pod's sandboxes can match: the same records in the same relative
    // order (the index keeps creation order), so the same stable sort result.
    return [...(filter.podUid ? (this.sandboxesByUid.get(filter.podUid) ?? []) : this.sandboxes.values())]
      .filter((s) => (!filter.state || s.state === filter.state) && (!filter.podUid || s.config.uid === filter.podUid))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((s) => this.sandboxStatus(s));
  }

  /**
   * `listPodSandboxes({ podUid })` and `listContainers({ podUid })` in one call, with only the
   * fields the kubelet's `GetPodStatus` reads (`PodSandboxBrief`, `ContainerBrief`): the same
   * records, filtered and sorted the same way, the same values. Performance only: no label and
   * annotation copies, log paths or sub-objects the kubelet drops at once (every pod sync reads
   * its pod's records). Errors: as `listContainers` (Unavailable while containerd is down).
   */
  podRuntimeRecords(podUid: string): PodRuntimeRecords {
    this.ensureUp();
    const sandboxes = [...(this.sandboxesByUid.get(podUid) ?? [])]
      .filter((s) => s.config.uid === podUid)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((s): PodSandboxBrief => ({
        id: s.id,
        state: s.state,
        // `sandboxStatus`'s `network.ip` and `metadata.attempt`.
        ip: s.config.hostNetwork ? this.opts.nodeIP : s.ipReleased ? '' : s.ip,
        createdAt: s.createdAt,
        attempt: s.config.attempt ?? 0,
      }));
    const containers = this.containerCandidates(podUid)
      .filter((c) => (this.sandboxes.get(c.sandboxId)?.config.uid ?? '') === podUid)
      .sort(newestContainerFirst)
      .map((c): ContainerBrief => ({
        // `status`'s values of these fields.
        id: c.id,
        podSandboxId: c.sandboxId,
        metadata: { name: c.config.name, attempt: c.attempt },
        state: c.state,
        createdAt: c.createdAt,
        startedAt: c.startedAt,
        finishedAt: c.finishedAt,
        exitCode: c.exitCode,
        image: { image: c.requestedImage },
        imageRef: c.image.repoDigests[0] ?? c.image.id,
        reason: c.state === 'CONTAINER_EXITED' ? c.reason : '',
        message: c.message,
        annotations: c.config.annotations ?? NO_ANNOTATIONS,
      }));
    return { sandboxes, containers };
  }

  /** `crictl pods` rows: POD ID, CREATED, STATE, NAME, NAMESPACE, ATTEMPT, RUNTIME. */
  crictlPods(): { podId: string; created: string; state: string; name: string; namespace: string; attempt: string; runtime: string }[] {
    const now = this.clock.now();
    return this.listPodSandboxes().map((s) => ({
      podId: s.id.slice(0, 13),
      created: humanDurationAgo(now - s.createdAt),
      state: s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady',
      name: s.metadata.name,
      namespace: s.metadata.namespace,
      attempt: String(s.metadata.attempt),
      runtime: '(default)',
    }));
  }

  // --- containers ----------------------------------------------------------------------------

  private container(id: string): ContainerRec {
    const c = this.containers.get(id) ?? [...this.containers.values()].find((x) => x.id.startsWith(id) && id.length >= 6);
    if (!c) throw new CriError('NotFound', `an error occurred when try to find container "${id}": not found`);
    return c;
  }

  /**
   * CRI `CreateContainer` in a ready sandbox. The image must be in the store. Returns the
   * container ID. Errors (CriError): sandbox not found / not ready, image not present
   * (`failed to resolve image "x": not found`), name still reserved by another container.
   */
  createContainer(sandboxId: string, config: ContainerConfig): string {
    this.ensureUp();
    const s = this.sandbox(sandboxId);
    const attempt = config.attempt ?? 0;
    this.clog(`CreateContainer within sandbox "${s.id}" for container &ContainerMetadata{Name:${config.name},Attempt:${attempt},}`);
    if (s.state !== 'SANDBOX_READY') throw new CriError('Unknown', `failed to create containerd container: sandbox "${s.id}" is not running`);
    const image = this.findImage(config.image);
    if (!image) throw new CriError('NotFound', `failed to resolve image "${config.image}": not found`);
    const nameKey = `${config.name}_${s.config.name}_${s.config.namespace}_${s.config.uid}_${attempt}`;
    const holder = this.names.get(nameKey);
    if (holder) throw new CriError('Unknown', `failed to reserve container name "${nameKey}": name "${nameKey}" is reserved for "${holder}"`);
    const id = this.newId();
    let requested: string;
    try {
      requested = config.image.startsWith('sha256:') ? (image.repoTags[0] ?? image.id) : parseImageRef(config.image).ref;
    } catch {
      requested = image.repoTags[0] ?? image.id;
    }
    const rec: ContainerRec = {
      id,
      sandboxId: s.id,
      config,
      attempt,
      image,
      // Flat (performance only: `parseImageRef` builds the reference from slices of the input).
      requestedImage: flattenString(requested),
      state: 'CONTAINER_CREATED',
      createdAt: this.clock.now(),
      startedAt: 0,
      finishedAt: 0,
      exitCode: 0,
      reason: '',
      message: '',
      oomKilled: false,
      logs: [],
      nameKey,
      lastMemory: 0,
    };
    this.containers.set(id, rec);
    this.podChanged(s.config.uid);
    this.names.set(nameKey, id);
    s.containers.add(id);
    this.clog(`CreateContainer within sandbox "${s.id}" for &ContainerMetadata{Name:${config.name},Attempt:${attempt},} returns container id "${id}"`);
    this.emit('CONTAINER_CREATED_EVENT', rec);
    return id;
  }

  private envOf(c: ContainerRec): Record<string, string> {
    const out: Record<string, string> = {};
    for (const kv of c.image.record.config.env ?? []) {
      const i = kv.indexOf('=');
      if (i > 0) out[kv.slice(0, i)] = kv.slice(i + 1);
    }
    out.PATH ??= '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
    const s = this.sandboxes.get(c.sandboxId)!;
    out.HOSTNAME = s.config.hostname ?? s.config.name;
    const env = c.config.env;
    if (Array.isArray(env)) for (const e of env) out[e.name] = e.value;
    else if (env) Object.assign(out, env);
    out.HOME ??= Number(c.image.record.config.user ?? 0) ? '/' : '/root';
    return out;
  }

  private runSpec(c: ContainerRec, s: SandboxRec): ContainerRunSpec {
    const cfg = c.config;
    return {
      id: c.id,
      name: cfg.name,
      image: c.image.record,
      imageRef: cfg.image,
      ...(cfg.command ? { command: cfg.command } : {}),
      ...(cfg.args ? { args: cfg.args } : {}),
      argv: resolveArgv(c.image.record.config, cfg.command, cfg.args),
      env: this.envOf(c),
      ports: cfg.ports ?? [],
      ...(cfg.memoryLimitBytes !== undefined ? { memoryLimitBytes: cfg.memoryLimitBytes } : {}),
      ...((cfg.workingDir ?? c.image.record.config.workingDir) ? { workingDir: cfg.workingDir ?? c.image.record.config.workingDir } : {}),
      ...(cfg.stdin ? { stdin: true } : {}),
      ...(cfg.tty ? { tty: true } : {}),
      mounts: cfg.mounts ?? [],
      pod: {
        name: s.config.name,
        namespace: s.config.namespace,
        uid: s.config.uid,
        nodeName: this.nodeName,
        podIP: s.ip,
        hostIP: this.opts.nodeIP,
        hostname: s.config.hostNetwork ? this.nodeName : (s.config.hostname ?? s.config.name),
        ...(s.config.hostNetwork ? { hostNetwork: true } : {}),
        ...(s.config.shareProcessNamespace ? { shareProcessNamespace: true } : {}),
        nodeCpus: this.opts.nodeCpus ?? 2,
        dnsServer: s.config.dnsServer ?? this.opts.dnsServer ?? '10.96.0.10',
        ...(s.config.searches ? { searches: s.config.searches } : {}),
      },
      attempt: c.attempt,
    };
  }

  /**
   * CRI `StartContainer`: spawn the main process under the sandbox's shim, running the program
   * model for its image and command. If the command does not exist in the image the container
   * goes straight to EXITED with exit code 128, reason `StartError`, and the call throws runc's
   * error (`... exec: "foo": executable file not found in $PATH: unknown`).
   */
  startContainer(id: string): void {
    this.ensureUp();
    const c = this.container(id);
    const s = this.sandbox(c.sandboxId);
    this.clog(`StartContainer for "${c.id}"`);
    if (c.state !== 'CONTAINER_CREATED') throw new CriError('Unknown', `failed to set starting state for container "${c.id}": container is in ${c.state} state`);
    if (s.state !== 'SANDBOX_READY') throw new CriError('Unknown', `failed to start containerd task "${c.id}": sandbox container "${s.id}" is not running`);
    const spec = this.runSpec(c, s);
    const argv0 = spec.argv[0];
    let startError: string | undefined;
    if (argv0 === undefined) startError = 'failed to generate spec: no command specified';
    else if (imageHasCommand(spec.image, argv0) === false) {
      const why = argv0.includes('/') ? `exec: "${argv0}": stat ${argv0}: no such file or directory` : `exec: "${argv0}": executable file not found in $PATH`;
      startError = `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: ${why}: unknown`;
    }
    if (startError) {
      c.state = 'CONTAINER_EXITED';
      this.podChanged(s.config.uid);
      c.startedAt = 0;
      c.finishedAt = this.clock.now();
      c.exitCode = 128;
      c.reason = 'StartError';
      c.message = startError;
      this.trace(`containerd[${this.nodeName}]`, `container ${c.config.name} of ${s.config.namespace}/${s.config.name} failed to start: ${startError}`, { kind: 'Pod', namespace: s.config.namespace, name: s.config.name, uid: s.config.uid }, 'Warning');
      this.emit('CONTAINER_STOPPED_EVENT', c);
      throw new CriError('Unknown', startError);
    }
    const services = this.servicesFor(c, s);
    const program = this.programs.create(spec, services);
    c.program = program;
    c.state = 'CONTAINER_RUNNING';
    this.podChanged(s.config.uid);
    c.startedAt = this.clock.now();
    const limit = c.config.memoryLimitBytes;
    c.starting = {};
    c.process = this.processes.spawn(new ContainerSpawn(this, c, limit, argv0!, spec.argv.slice(1), s.shim?.pid ?? 1, c.image.record.config.user ?? 'root', program));
    // A process that ends during start-up (`true`, `exit 1`) is reported after StartContainer
    // returned, as containerd's TaskExit event arrives after the start reply.
    const early = c.starting.exit;
    c.starting = undefined;
    this.clog(`StartContainer for "${c.id}" returns successfully`);
    this.emit('CONTAINER_STARTED_EVENT', c);
    this.trace(`containerd[${this.nodeName}]`, `started ${c.config.name} (${program.model}) in ${s.config.namespace}/${s.config.name}, pid ${c.process.pid}`, { kind: 'Pod', namespace: s.config.namespace, name: s.config.name, uid: s.config.uid });
    if (early !== undefined) this.onContainerExit(c, early);
  }

  /** A container's main process set its memory (`ContainerSpawn.onMemory`). @internal */
  containerMemory(c: ContainerRec, limit: number | undefined, bytes: number, p: Process): void {
    c.lastMemory = bytes;
    if (limit !== undefined && bytes > limit && !c.oomKilled && c.state === 'CONTAINER_RUNNING') {
      // The OOM killer acts at the next allocation, never inside the exec of the process.
      if (c.starting) this.clock.schedule(0, () => !p.exitStatus && this.oomKill(c, p, bytes), { label: 'oom' });
      else this.oomKill(c, p, bytes);
    }
  }

  /** A container's main process ended (`ContainerSpawn.onExit`). @internal */
  containerExit(c: ContainerRec, code: number): void {
    if (c.starting) c.starting.exit = code;
    else this.onContainerExit(c, code);
  }

  /** A container's main process wrote a line (`ContainerSpawn.onLog`). @internal */
  containerLog(c: ContainerRec, line: string): void {
    this.appendLog(c, 'stdout', line);
  }

  private oomKill(c: ContainerRec, p: Process, bytes: number): void {
    c.oomKilled = true;
    // The kubelet asks for `memory.oom.group=1` on every container cgroup on a cgroup v2 node
    // (pkg/kubelet/kuberuntime/kuberuntime_container_linux.go `generateLinuxContainerResources`:
    // `isCgroup2UnifiedMode() && !singleProcessOOMKill` -> Unified["memory.oom.group"] = "1";
    // singleProcessOOMKill defaults to false on cgroup v2, and kind nodes are cgroup v2), so the
    // kernel's OOM killer kills every process of the container's cgroup, not only the one that
    // allocated (mm/oom_kill.c `oom_kill_memcg_member`): processes started by `kubectl exec` /
    // `crictl exec` end with it, SIGKILL, exit 137.
    this.killExecs(c);
    const comm = (p.command.split('/').pop() ?? p.command).slice(0, 15);
    const kb = Math.floor(bytes / 1024);
    this.opts.kernelLog?.(`Memory cgroup out of memory: Killed process ${p.pid} (${comm}) total-vm:${kb + 1_200_000}kB, anon-rss:${kb}kB, file-rss:0kB, shmem-rss:0kB, UID:${Number(p.user) || 0} pgtables:${Math.max(64, Math.floor(kb / 256))}kB oom_score_adj:${c.config.memoryLimitBytes !== undefined ? 999 : 1000}`);
    this.clog(`TaskOOM event container_id:"${c.id}"`);
    const s = this.sandboxes.get(c.sandboxId);
    this.trace(`kernel[${this.nodeName}]`, `OOM killer: ${c.config.name} in ${s?.config.namespace}/${s?.config.name} used ${Math.round(bytes / 1048576)}Mi > limit ${Math.round((c.config.memoryLimitBytes ?? 0) / 1048576)}Mi, killed pid ${p.pid}`, s ? { kind: 'Pod', namespace: s.config.namespace, name: s.config.name, uid: s.config.uid } : undefined, 'Warning');
    this.processes.kill(p.pid, 'SIGKILL');
  }

  private onContainerExit(c: ContainerRec, code: number): void {
    const s = this.sandboxes.get(c.sandboxId);
    c.state = 'CONTAINER_EXITED';
    this.sandboxChanged(c.sandboxId);
    c.finishedAt = this.clock.now();
    c.exitCode = code;
    c.reason = c.oomKilled ? 'OOMKilled' : code === 0 ? 'Completed' : 'Error';
    c.message = '';
    c.lastMemory = 0;
    this.killExecs(c);
    if (s) {
      for (const [port, owner] of [...s.ports]) if (owner === c.id) s.ports.delete(port);
    }
    for (const [port, owner] of [...this.hostPorts]) if (owner === c.id) this.hostPorts.delete(port);
    const stop = c.stop;
    c.stop = undefined;
    stop?.killTimer?.cancel();
    const unix = this.clock.epochMs + c.finishedAt;
    this.clog(`TaskExit event in podsandbox handler container_id:"${c.id}" id:"${c.id}" pid:${c.process?.pid ?? 0} exit_status:${code} exited_at:{seconds:${Math.floor(unix / 1000)} nanos:${(unix % 1000) * 1_000_000}}`);
    if (s) this.trace(`containerd[${this.nodeName}]`, `container ${c.config.name} of ${s.config.namespace}/${s.config.name} exited ${code} (${c.reason})`, { kind: 'Pod', namespace: s.config.namespace, name: s.config.name, uid: s.config.uid });
    this.emit('CONTAINER_STOPPED_EVENT', c);
    stop?.pending.resolve();
  }

  /**
   * CRI `StopContainer`: the image's STOPSIGNAL (SIGTERM unless the image says otherwise: nginx
   * SIGQUIT, postgres SIGINT), then SIGKILL after `timeoutMs` (0 = SIGKILL at once). The result
   * settles when the process has exited: a program that ignores SIGTERM dies by SIGKILL (137)
   * after the timeout; nginx exits 0 at once. Stopping an exited container is a no-op.
   */
  stopContainer(id: string, timeoutMs: number): Pending<void> {
    this.ensureUp();
    const c = this.container(id);
    this.clog(`StopContainer for "${c.id}" with timeout ${Math.round(timeoutMs / 1000)} (s)`);
    if (c.state !== 'CONTAINER_RUNNING' || !c.process) {
      if (c.state === 'CONTAINER_CREATED') {
        c.state = 'CONTAINER_EXITED';
        this.sandboxChanged(c.sandboxId);
        c.finishedAt = this.clock.now();
        c.exitCode = 0;
        c.reason = 'Completed';
      }
      return Pending.of<void>(undefined);
    }
    const pid = c.process.pid;
    if (c.stop) {
      // Already stopping: a shorter timeout escalates.
      if (timeoutMs <= 0) this.processes.kill(pid, 'SIGKILL');
      return c.stop.pending;
    }
    const pending = new Pending<void>();
    c.stop = { pending };
    if (timeoutMs <= 0) {
      this.processes.kill(pid, 'SIGKILL');
      return pending;
    }
    const configured = c.image.record.config.stopSignal;
    // Signals outside the process model (SIGWINCH for httpd) fall back to SIGTERM.
    const sig: Signal = (configured && parseSignal(configured)) || 'SIGTERM';
    this.clog(`Stop container "${c.id}" with signal ${sig === 'SIGTERM' ? 'terminated' : sig === 'SIGQUIT' ? 'quit' : sig === 'SIGINT' ? 'interrupt' : sig.toLowerCase()}`);
    const killTimer = this.clock.schedule(timeoutMs, () => {
      if (c.state === 'CONTAINER_RUNNING' && c.process) {
        this.clog(`Kill container "${c.id}"`);
        this.processes.kill(c.process.pid, 'SIGKILL');
      }
    }, { label: `containerd[${this.nodeName}]: stop timeout ${c.id.slice(0, 13)}` });
    c.stop.killTimer = killTimer;
    this.processes.kill(pid, sig);
    return pending;
  }

  private dropContainer(id: string): void {
    const c = this.containers.get(id);
    if (!c) return;
    if (c.state === 'CONTAINER_RUNNING' && c.process) this.processes.kill(c.process.pid, 'SIGKILL');
    this.containers.delete(id);
    this.sandboxChanged(c.sandboxId);
    if (this.names.get(c.nameKey) === id) this.names.delete(c.nameKey);
    this.sandboxes.get(c.sandboxId)?.containers.delete(id);
    this.emit('CONTAINER_DELETED_EVENT', c);
  }

  /**
   * CRI `RemoveContainer`: forget an exited (or created) container, its logs and its name
   * reservation. Errors: a running container (`container is still running, to stop first`).
   */
  removeContainer(id: string): void {
    this.ensureUp();
    const c = this.containers.get(id);
    if (!c) return;
    if (c.state === 'CONTAINER_RUNNING') throw new CriError('Unknown', `failed to set removing state for container "${id}": container is still running, to stop first`);
    this.dropContainer(id);
    this.clog(`RemoveContainer for "${id}" returns successfully`);
  }

  private status(c: ContainerRec): ContainerStatus {
    const s = this.sandboxes.get(c.sandboxId);
    const ns = s?.config.namespace ?? '';
    const pod = s?.config.name ?? '';
    const uid = s?.config.uid ?? '';
    return {
      id: c.id,
      podSandboxId: c.sandboxId,
      metadata: { name: c.config.name, attempt: c.attempt },
      state: c.state,
      createdAt: c.createdAt,
      startedAt: c.startedAt,
      finishedAt: c.finishedAt,
      exitCode: c.exitCode,
      image: { image: c.requestedImage },
      imageRef: c.image.repoDigests[0] ?? c.image.id,
      imageId: c.image.id,
      reason: c.state === 'CONTAINER_EXITED' ? c.reason : '',
      message: c.message,
      labels: { ...(c.config.labels ?? {}), 'io.kubernetes.container.name': c.config.name, 'io.kubernetes.pod.name': pod, 'io.kubernetes.pod.namespace': ns, 'io.kubernetes.pod.uid': uid },
      annotations: { ...(c.config.annotations ?? {}) },
      logPath: `/var/log/pods/${ns}_${pod}_${uid}/${c.config.name}/${c.attempt}.log`,
      ...(c.state === 'CONTAINER_RUNNING' && c.process ? { pid: c.process.pid } : {}),
      memoryBytes: c.state === 'CONTAINER_RUNNING' ? c.lastMemory : 0,
      ...(c.program ? { model: c.program.model } : {}),
    };
  }

  /** CRI `ContainerStatus`. */
  containerStatus(id: string): ContainerStatus {
    this.ensureUp();
    return this.status(this.container(id));
  }

  /**
   * The runtime's records as /var/lib/containerd keeps them (sandboxes and containers, newest
   * first), readable while the containerd process is down or the node is stopped: not a CRI call
   * (no `Unavailable`). For read models such as the UI's supervision tree (engine/supervision.ts).
   */
  inspect(): { sandboxes: PodSandboxStatus[]; containers: ContainerStatus[] } {
    return {
      sandboxes: [...this.sandboxes.values()].sort((a, b) => b.createdAt - a.createdAt).map((s) => this.sandboxStatus(s)),
      containers: [...this.containers.values()].sort(newestContainerFirst).map((c) => this.status(c)),
    };
  }

  /**
   * A counter that changes whenever a sandbox or container is created, removed or changes state:
   * every field the kubelet's PLEG relist compares (`listContainers`/`listPodSandboxes` id, state
   * and pod UID). Performance only: an unchanged generation means a relist would find no change.
   * Errors: as `listContainers`.
   */
  plegGeneration(): number {
    this.ensureUp();
    return this.stateGeneration;
  }

  /**
   * A value that changes whenever one of pod `podUid`'s sandboxes or containers (those
   * `podRuntimeRecords(podUid)` reports) is created, removed or changes state: the
   * `plegGeneration` of its last such change, or undefined while the UID has no sandbox (and
   * so no records: `podRuntimeRecords` reports nothing). Every field `podRuntimeRecords` reports
   * changes only in such a step (as for `plegGeneration`) or with `imageGeneration` (a
   * container's `imageRef`), and `plegGeneration` only grows, so with both values unchanged
   * `podRuntimeRecords(podUid)` reports the same records with the same values. Performance only:
   * the kubelet keeps one pod's view while other pods of the node change. Errors: as
   * `listContainers`.
   */
  podGeneration(podUid: string): number | undefined {
    this.ensureUp();
    return this.podGens.get(podUid);
  }

  /** A sandbox or container record of pod `podUid` was created or changed state: bump the generations. */
  private podChanged(podUid: string): void {
    this.podGens.set(podUid, ++this.stateGeneration);
  }

  /** `podChanged` for the pod of sandbox `sandboxId` (just the node's generation when it is gone). */
  private sandboxChanged(sandboxId: string): void {
    const s = this.sandboxes.get(sandboxId);
    if (s) this.podChanged(s.config.uid);
    else this.stateGeneration++;
  }

  /**
   * A counter that changes whenever an image is added or removed or an image's tags or repo
   * digests change: everything `listImages` reports, and what a container status's `imageRef`
   * is made of. Performance only: with it unchanged, `listImages` lists the same images; with
   * `plegGeneration` unchanged too, every container and sandbox status reads as before.
   * Errors: as `listContainers`.
   */
  imageGeneration(): number {
    this.ensureUp();
    return this.imageGen;
  }

  /**
   * CRI `ListContainers` (newest first), optionally by sandbox, state or pod UID (the
   * `io.kubernetes.pod.uid` label selector the kubelet's `getPodContainerStatuses` passes).
   */
  listContainers(filter: { podSandboxId?: string; state?: ContainerState; podUid?: string } = {}): ContainerStatus[] {
    this.ensureUp();
    return this.containerCandidates(filter.podUid)
      .filter(
        (c) =>
          (!filter.podSandboxId || c.sandboxId === filter.podSandboxId) &&
          (!filter.state || c.state === filter.state) &&
          (filter.podUid === undefined || (this.sandboxes.get(c.sandboxId)?.config.uid ?? '') === filter.podUid),
      )
      .sort(newestContainerFirst)
      .map((c) => this.status(c));
  }

  /**
   * The containers `listContainers` filters: with a non-empty pod UID only the containers of that
   * pod's sandboxes (every container is in its sandbox's `containers` from creation to removal,
   * and a removed sandbox's containers are removed with it, so no other container can carry the
   * UID); otherwise all. The order does not matter: the sort by creation time and id is total.
   */
  private containerCandidates(podUid: string | undefined): ContainerRec[] {
    if (!podUid) return [...this.containers.values()];
    const out: ContainerRec[] = [];
    for (const s of this.sandboxesByUid.get(podUid) ?? []) {
      for (const cid of s.containers) {
        const c = this.containers.get(cid);
        if (c) out.push(c);
      }
    }
    return out;
  }

  /**
   * What the kubelet's PLEG relist compares, per container and sandbox (newest first, as
   * `listContainers`/`listPodSandboxes` order them): id, state and pod UID, without building the
   * full CRI statuses (performance only: the relist runs every second on every node).
   * Errors: as `listContainers`.
   */
  listPlegStates(): { containers: { id: string; state: ContainerState; podUid: string }[]; sandboxes: { id: string; state: SandboxState; podUid: string }[] } {
    this.ensureUp();
    const containers = [...this.containers.values()]
      .sort(newestContainerFirst)
      .map((c) => ({ id: c.id, state: c.state, podUid: this.sandboxes.get(c.sandboxId)?.config.uid ?? '' }));
    const sandboxes = [...this.sandboxes.values()].sort((a, b) => b.createdAt - a.createdAt).map((s) => ({ id: s.id, state: s.state, podUid: s.config.uid }));
    return { containers, sandboxes };
  }

  /**
   * `crictl ps` rows (`all`: `crictl ps -a`): CONTAINER, IMAGE (13 hex of the image ID), CREATED,
   * STATE (Created/Running/Exited), NAME, ATTEMPT, POD ID, POD, NAMESPACE.
   */
  crictlPs(opts: { all?: boolean } = {}): { container: string; image: string; created: string; state: string; name: string; attempt: string; podId: string; pod: string; namespace: string }[] {
    const now = this.clock.now();
    const label = { CONTAINER_CREATED: 'Created', CONTAINER_RUNNING: 'Running', CONTAINER_EXITED: 'Exited', CONTAINER_UNKNOWN: 'Unknown' } as const;
    return this.listContainers(opts.all ? {} : { state: 'CONTAINER_RUNNING' }).map((c) => ({
      container: c.id.slice(0, 13),
      image: c.imageId.slice(7, 20),
      created: humanDurationAgo(now - c.createdAt),
      state: label[c.state],
      name: c.metadata.name,
      attempt: String(c.metadata.attempt),
      podId: c.podSandboxId.slice(0, 13),
      pod: c.labels['io.kubernetes.pod.name'] ?? 'unknown',
      namespace: c.labels['io.kubernetes.pod.namespace'] ?? 'unknown',
    }));
  }

  /** Resident memory of a container (CRI `ContainerStats`), bytes. */
  containerStats(id: string): { memoryBytes: number } {
    this.ensureUp();
    const c = this.container(id);
    return { memoryBytes: c.state === 'CONTAINER_RUNNING' ? c.lastMemory : 0 };
  }

  // --- logs ----------------------------------------------------------------------------------

  private appendLog(c: ContainerRec, stream: 'stdout' | 'stderr', line: string): void {
    const now = this.clock.now();
    const last = c.logs[c.logs.length - 1];
    const nanos = last && last.time === now ? Math.min(999_999, last.nanos + this.rng.int(50, 4_000)) : this.rng.int(0, 600_000);
    c.logs.push({ time: now, nanos, stream, line });
    const max = this.opts.maxLogLines ?? 10_000;
    if (c.logs.length > max) c.logs.splice(0, c.logs.length - max);
  }

  /**
   * A container's log (what `kubectl logs` / `crictl logs` read from the CRI log file; kept after
   * the container exits until it is removed, which is what `--previous` reads). Works while
   * containerd is down (the kubelet reads the files directly).
   *
   * `format`: `'plain'` lines; `'timestamps'` prefixed by RFC3339Nano (`kubectl logs
   * --timestamps`); `'cri'` as the file stores them (`<ts> stdout F <line>`).
   * Errors: `CriError` NotFound for an unknown container.
   */
  containerLogs(id: string, opts: { format?: 'plain' | 'timestamps' | 'cri'; tailLines?: number; sinceMs?: number } = {}): string[] {
    const c = this.container(id);
    let entries = c.logs;
    if (opts.sinceMs !== undefined) entries = entries.filter((e) => e.time >= opts.sinceMs!);
    if (opts.tailLines !== undefined && opts.tailLines >= 0) entries = entries.slice(Math.max(0, entries.length - opts.tailLines));
    const epoch = this.clock.epochMs;
    return entries.map((e) => {
      if (opts.format === 'timestamps') return `${rfc3339Nano(epoch + e.time, e.nanos)} ${e.line}`;
      if (opts.format === 'cri') return `${rfc3339Nano(epoch + e.time, e.nanos)} ${e.stream} F ${e.line}`;
      return e.line;
    });
  }

  /** The raw log entries of a container (virtual times), for the UI. */
  containerLogEntries(id: string): readonly LogEntry[] {
    return this.container(id).logs;
  }

  // --- exec and probes -----------------------------------------------------------------------

  /**
   * CRI `ExecSync`: run argv in a running container; settles with stdout, stderr and the exit code
   * when the command ends (virtual time passes for `sleep`), or with `timedOut` after
   * `timeoutMs`. A command missing from the image settles with `error` (runc's `OCI runtime exec
   * failed: ... executable file not found in $PATH: unknown`).
   * Errors (thrown): `CriError` Unavailable while containerd is down, NotFound for an unknown container.
   */
  exec(id: string, argv: string[], opts: { timeoutMs?: number } = {}): Pending<ExecResult> {
    this.ensureUp();
    const c = this.container(id);
    const pending = new Pending<ExecResult>();
    if (c.state !== 'CONTAINER_RUNNING' || !c.program) {
      pending.resolve({ stdout: '', stderr: '', exitCode: -1, error: new CriError('Unknown', `failed to exec in container: container is in ${c.state} state`) });
      return pending;
    }
    const execId = this.newId();
    let timer: { cancel(): void } | undefined;
    // The program's handle, once `exec` returned (a holder: the killer may run before that).
    const run: { handle?: { cancel(): void } } = {};
    // The exec'd process lives in the container's cgroup and PID namespace: when the container's
    // init dies, the kernel kills every process of the namespace with SIGKILL
    // (zap_pid_ns_processes), and the OOM killer kills the whole cgroup (see `oomKill`); so the
    // session ends with 128+9 (runc's exit status of a killed process); kubectl prints `command
    // terminated with exit code 137`. Registered before the program runs: a command that runs
    // at once (`wget localhost/debug/eat`) can bring the OOM killer while it runs.
    // What the process wrote so far: a stream delivers it before the process dies.
    let partial: { stdout: string; stderr: string } | undefined = { stdout: '', stderr: '' };
    const killer = (): void => {
      timer?.cancel();
      run.handle?.cancel();
      const out = partial ?? { stdout: '', stderr: '' };
      partial = undefined;
      pending.resolve({ stdout: out.stdout, stderr: out.stderr, exitCode: 137, killedWithContainer: true });
    };
    const execs = (c.execs ??= new Set());
    execs.add(killer);
    const onOutput = (stream: 'stdout' | 'stderr', text: string): void => {
      if (partial) partial[stream] += text;
    };
    const handle = (run.handle = c.program.exec(argv, (r: ExecOutcome) => {
      timer?.cancel();
      c.execs?.delete(killer);
      partial = undefined;
      if (pending.settled) return;
      if (r.startError) {
        pending.resolve({ stdout: '', stderr: '', exitCode: 126, error: new CriError('Unknown', `failed to exec in container: failed to start exec "${execId}": OCI runtime exec failed: exec failed: unable to start container process: ${r.startError}: unknown`) });
      } else pending.resolve({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode });
    }, onOutput));
    if (pending.settled) {
      // Done at once, or killed while it ran (then what is left of it stops too).
      c.execs?.delete(killer);
      handle.cancel();
      return pending;
    }
    if (opts.timeoutMs !== undefined && opts.timeoutMs > 0) {
      timer = this.clock.schedule(opts.timeoutMs, () => {
        c.execs?.delete(killer);
        handle.cancel();
        pending.resolve({ stdout: '', stderr: '', exitCode: -1, timedOut: true });
      }, { label: `containerd[${this.nodeName}]: exec timeout` });
    }
    return pending;
  }

  /** The container's init is gone: every exec session still running in it is killed (see `exec`). */
  private killExecs(c: ContainerRec): void {
    const execs = c.execs;
    if (!execs || execs.size === 0) return;
    c.execs = undefined;
    for (const kill of execs) kill();
  }

  /**
   * CRI `Attach`: the running container's main-process stdin and output (kubectl attach / run -i -t
   * through the kubelet). Errors (thrown `CriError`): Unavailable while containerd is down,
   * NotFound for an unknown container, FailedPrecondition when it does not run or its program
   * has no streams to attach (the control plane's programs) (cri/server/container_attach.go:
   * `container is in ... state`). Without `stdin: true` only the output is attached.
   */
  attach(id: string): ContainerAttach {
    this.ensureUp();
    const c = this.container(id);
    if (c.state !== 'CONTAINER_RUNNING' || !c.program) throw new CriError('FailedPrecondition', `container is in ${c.state} state`);
    const a = c.program.attach?.();
    if (!a) throw new CriError('FailedPrecondition', 'stdin/stdout/stderr not set');
    return a;
  }

  /** Send a signal to a container's main process (`crictl stop`-less kills, `kill 1` from inside). */
  signalContainer(id: string, sig: Signal): boolean {
    const c = this.container(id);
    if (c.state !== 'CONTAINER_RUNNING' || !c.process) return false;
    return this.processes.kill(c.process.pid, sig);
  }

  private resolvePort(c: ContainerRec, port: number | string): number | undefined {
    if (typeof port === 'number') return port;
    if (isDigits(port)) return Number(port);
    // The first port of that name, as `find` would answer, by a loop (no predicate closure per
    // probe of a named port; performance only).
    const ports = c.config.ports;
    if (!ports) return undefined;
    for (const p of ports) if (p.name === port) return p.containerPort;
    return undefined;
  }

  /**
   * Run a probe against a container as the kubelet's prober does (pkg/kubelet/prober,
   * pkg/probe/{http,tcp,exec}): httpGet succeeds for 200-399 (`HTTP probe failed with statuscode:
   * N` otherwise), tcpSocket when the port accepts, exec when the command exits 0 (output =
   * stdout+stderr). `timeoutSeconds` (default 1) bounds the wait: a slow server fails with
   * `context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, a slow command
   * with `command "..." timed out`. HTTP and TCP probes do not use containerd (they work while it is
   * down); exec probes go through CRI and report errors as `errored`.
   * `userAgent` defaults to `kube-probe/1.36` (the kubelet passes its own, `kubeletUserAgent`); requests come from the node's pod-network
   * gateway (`.1`), as an access log shows them. Named ports resolve via the container's ports.
   * Errors: throws `CriError` NotFound for an unknown container.
   */
  probe(id: string, probe: ProbeSpec, opts: { userAgent?: string } = {}): Pending<ProbeResult> {
    const c = this.container(id);
    const pending = new Pending<ProbeResult>();
    const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
    const s = this.sandboxes.get(c.sandboxId);
    if (!s) {
      pending.resolve({ result: 'failure', output: `container ${c.config.name} is not running` });
      return pending;
    }
    // A container that has just exited is still probed until the kubelet's PLEG notices (the
    // prober reads the status manager's cached status, pkg/kubelet/prober/worker.go): the
    // request then meets what is there now, a port nobody listens on (`connect: connection
    // refused`), or for exec the CRI's `container is in CONTAINER_EXITED state` (errored).
    if (probe.exec) {
      let r: Pending<ExecResult>;
      try {
        r = this.exec(id, probe.exec.command, { timeoutMs });
      } catch (e) {
        pending.resolve({ result: 'failure', output: (e as Error).message, errored: true });
        return pending;
      }
      r.then((x) => {
        if (x.error) pending.resolve({ result: 'failure', output: x.error.message, errored: true });
        else if (x.timedOut) pending.resolve({ result: 'failure', output: `command "${probe.exec!.command.join(' ')}" timed out` });
        else pending.resolve({ result: x.exitCode === 0 ? 'success' : 'failure', output: x.stdout + x.stderr });
      });
      return pending;
    }
    const target = probe.httpGet ?? probe.tcpSocket ?? probe.grpc;
    if (!target) {
      pending.resolve({ result: 'failure', output: 'missing probe handler' });
      return pending;
    }
    const port = this.resolvePort(c, target.port);
    const ip = ('host' in target && target.host) || s.ip;
    if (port === undefined) {
      pending.resolve({ result: 'failure', output: `unable to find port "${String(target.port)}" in container ${c.config.name}`, errored: true });
      return pending;
    }
    if (probe.tcpSocket || probe.grpc) {
      const addr = `${ip}:${port}`;
      const ok = this.acceptsOn(s, port);
      if (ok) pending.resolve({ result: 'success', output: '' });
      else if (probe.grpc) pending.resolve({ result: 'failure', output: `timeout: failed to connect service "${addr}" within ${timeoutMs / 1000}s` });
      else pending.resolve({ result: 'failure', output: `dial tcp ${addr}: connect: connection refused` });
      return pending;
    }
    const hg = probe.httpGet!;
    const path = hg.path ?? '/';
    const scheme = (hg.scheme ?? 'HTTP').toLowerCase();
    const { addr, req } = this.probeRequest(hg, path, ip, port, opts.userAgent ?? 'kube-probe/1.36', s.config.hostNetwork ? this.opts.nodeIP : this.gatewayIp);
    const res = this.serveLocal(s, port, req);
    const delay = res.delayMs ?? 0;
    let r: ProbeResult;
    if (delay > timeoutMs) {
      r = { result: 'failure', output: `Get "${probeUrl(scheme, addr, path)}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` };
    } else if ('error' in res) {
      r = { result: 'failure', output: goHttpError('GET', probeUrl(scheme, addr, path), res.error === 'refused' ? { error: 'refused', address: addr } : res) };
    } else if (res.status >= 200 && res.status < 400) {
      r = { result: 'success', output: res.body.slice(0, 10 * 1024) };
    } else {
      r = { result: 'failure', output: `HTTP probe failed with statuscode: ${res.status}` };
    }
    // The answer arrives after the server's delay (bounded by the timeout).
    const ms = Math.min(delay, timeoutMs);
    if (ms <= 0) pending.resolve(r);
    else this.clock.schedule(ms, () => pending.resolve(r), { label: `kubelet probe ${c.config.name}` });
    return pending;
  }

  /**
   * An HTTP probe's request to `ip:port` (and `ip:port` itself): GET of `path` (a leading `/`
   * added), the kubelet's headers (`Host`, `User-Agent`, `Accept`, `Connection`, then the
   * probe's own), from `remoteAddr`. A probe without headers of its own gets the request made
   * for the same `httpGet` object at its last probe when every other input is equal (compared
   * by value here), so equal by value to a new one; nothing that serves a request changes it,
   * keeps it or compares it by identity (programs read its fields). Performance only: no
   * headers and request objects per probe.
   */
  private probeRequest(hg: NonNullable<ProbeSpec['httpGet']>, path: string, ip: string, port: number, userAgent: string, remoteAddr: string | undefined): ProbeRequest {
    const kept = hg.httpHeaders === undefined ? this.probeRequests.get(hg) : undefined;
    if (kept !== undefined && kept.path === path && kept.ip === ip && kept.port === port && kept.userAgent === userAgent && kept.remoteAddr === remoteAddr) return kept;
    const addr = `${ip}:${port}`;
    const headers: Record<string, string> = { Host: addr, 'User-Agent': userAgent, Accept: '*/*', Connection: 'close' };
    for (const h of hg.httpHeaders ?? []) headers[h.name] = h.value;
    const made: ProbeRequest = { path, ip, port, userAgent, remoteAddr, addr, req: { method: 'GET', path: path.startsWith('/') ? path : `/${path}`, headers, remoteAddr } };
    if (hg.httpHeaders === undefined) this.probeRequests.set(hg, made);
    return made;
  }

  /** `probeRequest`'s last request per probe `httpGet` object (dropped with the object). */
  private readonly probeRequests = new WeakMap<object, ProbeRequest>();

  // --- the pod network -----------------------------------------------------------------------

  private acceptsOn(s: SandboxRec, port: number): boolean {
    return this.listenerOn(s, port) !== undefined;
  }

  /**
   * The first running container sharing `s`'s network namespace (all hostNetwork containers for a
   * hostNetwork pod) that listens on `port`, in container order.
   */
  private listenerOn(s: SandboxRec, port: number): ContainerRec | undefined {
    if (!s.config.hostNetwork) {
      // Only `s`'s own containers can match (`cs === s`): its `containers` holds exactly them, in
      // creation order, the order of `containers` (performance only: every probe asks).
      if (s.state !== 'SANDBOX_READY' || this.sandboxes.get(s.id) !== s) return undefined;
      for (const id of s.containers) {
        const c = this.containers.get(id);
        if (c && c.state === 'CONTAINER_RUNNING' && c.program && c.program.listening(port)) return c;
      }
      return undefined;
    }
    // `s` is a hostNetwork sandbox here: the loop over every container (in `containers` order)
    // can match only containers whose sandbox is a hostNetwork one (`cs === s` is one of them).
    // It runs over `hostNetworkContainers()`, exactly those containers in that order, with the
    // same checks in the same order (performance only: no pass over every record of the node,
    // and no iterator step per record, on each probe of a control-plane pod).
    for (const c of this.hostNetworkContainers()) {
      if (c.state !== 'CONTAINER_RUNNING' || !c.program) continue;
      const cs = this.sandboxes.get(c.sandboxId);
      if (!cs || cs.state !== 'SANDBOX_READY') continue;
      if ((cs === s || (s.config.hostNetwork && cs.config.hostNetwork)) && c.program.listening(port)) return c;
    }
    return undefined;
  }

  /**
   * The containers whose sandbox is a hostNetwork one, in `containers` order. Kept with the
   * `stateGeneration` it was listed at: every insertion into or removal from `containers` and
   * `sandboxes` bumps it (`podChanged`/`sandboxChanged`), and a container's `sandboxId` and a
   * sandbox's `config` are fixed per record, so with the same generation the same containers
   * have the same sandboxes and the list is the one a new pass would make.
   */
  private hostNetworkContainers(): readonly ContainerRec[] {
    const memo = this.hostNetworkMemo;
    if (memo !== undefined && memo.gen === this.stateGeneration) return memo.list;
    const list: ContainerRec[] = [];
    for (const c of this.containers.values()) if (this.sandboxes.get(c.sandboxId)?.config.hostNetwork) list.push(c);
    this.hostNetworkMemo = { gen: this.stateGeneration, list };
    return list;
  }

  /** `hostNetworkContainers`' last list and the `stateGeneration` it was made at. */
  private hostNetworkMemo: { gen: number; list: ContainerRec[] } | undefined;

  private serveLocal(s: SandboxRec, port: number, req: HttpRequest): HttpOutcome {
    const c = this.listenerOn(s, port);
    if (c) return c.program!.http(port, req);
    return { error: 'refused', address: `${s.ip}:${port}` };
  }

  /** The ready sandbox holding `ip` on this node (pod IPs; the node IP for hostNetwork pods). */
  sandboxByIp(ip: string): PodSandboxStatus | undefined {
    const s = this.findSandboxByIp(ip);
    return s ? this.sandboxStatus(s) : undefined;
  }

  private findSandboxByIp(ip: string): SandboxRec | undefined {
    for (const s of this.sandboxes.values()) {
      if (s.state !== 'SANDBOX_READY') continue;
      if (!s.config.hostNetwork && s.ip === ip) return s;
    }
    if (ip === this.opts.nodeIP) return [...this.sandboxes.values()].find((s) => s.state === 'SANDBOX_READY' && s.config.hostNetwork);
    return undefined;
  }

  /**
   * Deliver an HTTP request to `ip:port` on this node (Service traffic routed here by the cluster,
   * `curl <podIP>` from another pod). Does not involve containerd. `refused` when no ready pod
   * has the IP or nothing listens.
   */
  http(ip: string, port: number, req: HttpRequest): HttpOutcome {
    const s = this.findSandboxByIp(ip);
    if (!s) return { error: 'unreachable', address: `${ip}:${port}` };
    const r = this.serveLocal(s, port, req);
    return 'error' in r && r.error === 'refused' ? { error: 'refused', address: `${ip}:${port}` } : r;
  }

  /** TCP connect to `ip:port` on this node. */
  dial(ip: string, port: number): DialOutcome {
    const s = this.findSandboxByIp(ip);
    if (!s) return { ok: false, error: 'unreachable', address: `${ip}:${port}` };
    return this.acceptsOn(s, port) ? { ok: true, address: `${ip}:${port}` } : { ok: false, error: 'refused', address: `${ip}:${port}` };
  }

  private netSource(s: SandboxRec): NetSource {
    return { nodeName: this.nodeName, podIP: s.ip, podName: s.config.name, namespace: s.config.namespace, hostNetwork: s.config.hostNetwork ?? false };
  }

  /** DNS as a pod sees it: cluster resolver first, then localhost, IP literals, internet names. */
  private resolveName(s: SandboxRec, name: string): string | null {
    const host = name.replace(/^\[|\]$/g, '');
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host;
    if (host === 'localhost' || host === 'ip6-localhost') return '127.0.0.1';
    if (host === (s.config.hostname ?? s.config.name)) return s.ip;
    const r = this.opts.network?.resolve?.(this.netSource(s), host);
    if (r !== undefined) return r;
    // Without cluster DNS wiring: internet names (a public top-level domain) resolve to a
    // deterministic address; cluster names (`catalog`, `kubernetes.default`) do not.
    if (INTERNET_TLD.test(host)) {
      const h = syntheticDigestHex(host);
      return `${93 + (parseInt(h.slice(0, 2), 16) % 60)}.${parseInt(h.slice(2, 4), 16)}.${parseInt(h.slice(4, 6), 16)}.${1 + (parseInt(h.slice(6, 8), 16) % 250)}`;
    }
    return null;
  }

  private isInternet(ip: string): boolean {
    const n = ipToNum(ip);
    const inRange = (cidr: string) => {
      const [a, b] = cidr.split('/');
      const size = 2 ** (32 - Number(b));
      const base = ipToNum(a);
      return n >= base && n < base + size;
    };
    return !['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '127.0.0.0/8', '169.254.0.0/16'].some(inRange);
  }

  /** The network of one container's pod (what its program's curl/wget/Go clients use). */
  private podNetwork(s: SandboxRec): PodNetwork {
    const from = () => this.netSource(s);
    const dnsServer = s.config.dnsServer ?? this.opts.dnsServer ?? '10.96.0.10';
    const route = (ip: string, port: number, req: HttpRequest): HttpOutcome => {
      if (ip === '127.0.0.1' || ip === s.ip) {
        const r = this.serveLocal(s, port, req);
        return 'error' in r ? { ...r, address: `${ip}:${port}` } : r;
      }
      const viaCluster = this.opts.network?.http?.(from(), ip, port, req);
      if (viaCluster) return viaCluster;
      if (this.findSandboxByIp(ip)) return this.http(ip, port, req);
      if (this.isInternet(ip)) return { status: 200, body: internetPage(req.headers?.Host ?? ip), delayMs: 120 };
      return { error: 'refused', address: `${ip}:${port}` };
    };
    return {
      http: (url, req) => {
        const u = parseUrl(url);
        if (!u) return { error: 'nxdomain' };
        const ip = this.resolveName(s, u.host);
        if (ip === null) return { error: 'nxdomain' };
        const headers = { Host: u.port === 80 || u.port === 443 ? u.host : `${u.host}:${u.port}`, ...(req.headers ?? {}) };
        const r = route(ip, u.port, { ...req, path: u.path, headers, remoteAddr: s.ip });
        if ('status' in r && this.isInternet(ip) && !this.opts.network?.http) return { ...r, body: internetPage(u.host) };
        return r;
      },
      dial: (host, port) => {
        const ip = this.resolveName(s, host);
        if (ip === null) return { ok: false, error: 'nxdomain' };
        if (ip === '127.0.0.1' || ip === s.ip) return this.acceptsOn(s, port) ? { ok: true, address: `${ip}:${port}` } : { ok: false, error: 'refused', address: `${ip}:${port}` };
        const viaCluster = this.opts.network?.dial?.(from(), ip, port);
        if (viaCluster) return viaCluster;
        if (this.findSandboxByIp(ip)) return this.dial(ip, port);
        if (this.isInternet(ip)) return { ok: true, address: `${ip}:${port}` };
        return { ok: false, error: 'refused', address: `${ip}:${port}` };
      },
      lookup: (name) => {
        const ip = this.resolveName(s, name);
        if (ip === null) return undefined;
        const fqdn = name.includes('.') || ip === '127.0.0.1' ? name : `${name}.${s.config.namespace}.svc.cluster.local`;
        return { name: fqdn, address: ip, server: dnsServer };
      },
    };
  }

  private servicesFor(c: ContainerRec, s: SandboxRec): ContainerServices {
    return new RuntimeServices(this, c, s, this.clock, this.rng);
  }

  /** @internal `ContainerServices.log` of container `c`. */
  serviceLog(c: ContainerRec, stream: 'stdout' | 'stderr', line: string): void {
    this.appendLog(c, stream, line);
  }

  /** @internal `ContainerServices.bind` of container `c` in sandbox `s`. */
  serviceBind(c: ContainerRec, s: SandboxRec, port: number): boolean {
    const table = s.config.hostNetwork ? this.hostPorts : s.ports;
    const owner = table.get(port);
    if (owner !== undefined && owner !== c.id && this.containers.get(owner)?.state === 'CONTAINER_RUNNING') return false;
    table.set(port, c.id);
    return true;
  }

  /** @internal `ContainerServices.release` of container `c` in sandbox `s`. */
  serviceRelease(c: ContainerRec, s: SandboxRec, port: number): void {
    const table = s.config.hostNetwork ? this.hostPorts : s.ports;
    if (table.get(port) === c.id) table.delete(port);
  }

  /** @internal `ContainerServices.signalMain` of container `c`. */
  serviceSignalMain(c: ContainerRec, sig: Signal): boolean {
    return c.process && c.state === 'CONTAINER_RUNNING' ? this.processes.kill(c.process.pid, sig) : false;
  }

  /** @internal `ContainerServices.network` of sandbox `s`. */
  serviceNetwork(s: SandboxRec): PodNetwork {
    return this.podNetwork(s);
  }

  // --- the machine ---------------------------------------------------------------------------

  /**
   * The node lost power (`docker kill`/`docker stop` of the kind node: every process is gone
   * without exit callbacks). Running containers become EXITED with exit code 255 and reason
   * `Unknown` (containerd finds their tasks missing when it restarts, and their `finishedAt` is
   * that moment: see `setProcessRunning`), sandboxes NOTREADY; the image store (on disk) is
   * kept. IP reservations stay until the kubelet stops the sandboxes (host-local keeps them on
   * disk).
   */
  machineStopped(): void {
    for (const p of this.pulls.values()) p.timer.cancel();
    this.pulls.clear();
    const now = this.clock.now();
    for (const c of this.containers.values()) {
      if (c.state === 'CONTAINER_RUNNING') {
        c.program?.stop?.();
        c.state = 'CONTAINER_EXITED';
        this.sandboxChanged(c.sandboxId);
        c.finishedAt = now;
        (this.lostTasks ??= []).push(c);
        c.exitCode = 255;
        c.reason = 'Unknown';
        c.lastMemory = 0;
        c.stop?.killTimer?.cancel();
        c.stop?.pending.resolve();
        c.stop = undefined;
      }
    }
    for (const s of this.sandboxes.values()) {
      s.state = 'SANDBOX_NOTREADY';
      this.podChanged(s.config.uid);
      s.ports.clear();
    }
    this.hostPorts.clear();
    this.runningFlag = false;
    this.socketGone = true;
  }
}

/** Parse a signal name from an image's STOPSIGNAL, for callers. */
export function stopSignalOf(image: ImageRecord): Signal {
  const s = image.config.stopSignal;
  return (s && parseSignal(s)) || 'SIGTERM';
}

/**
 * The `ContainerServices` of one container: methods on one prototype instead of closures per
 * container, and the pod network built on first use (performance only: most containers of a
 * large cluster never open a connection).
 */
class RuntimeServices implements ContainerServices {
  private net: PodNetwork | undefined;

  constructor(
    private readonly rt: Containerd,
    private readonly c: ContainerRec,
    private readonly s: SandboxRec,
    readonly clock: Clock,
    readonly rng: Rng,
  ) {}

  log(stream: 'stdout' | 'stderr', line: string): void {
    this.rt.serviceLog(this.c, stream, line);
  }

  bind(port: number): boolean {
    return this.rt.serviceBind(this.c, this.s, port);
  }

  release(port: number): void {
    this.rt.serviceRelease(this.c, this.s, port);
  }

  get network(): PodNetwork {
    return (this.net ??= this.rt.serviceNetwork(this.s));
  }

  signalMain(sig: Signal): boolean {
    return this.rt.serviceSignalMain(this.c, sig);
  }
}

/** The `containerd-shim-runc-v2` process of one sandbox (a class, not closures per sandbox: performance only). */
class ShimProgram implements Program {
  constructor(
    private readonly rt: Containerd,
    private readonly rec: SandboxRec,
  ) {}

  start(ctx: ProcessContext): void {
    ctx.setMemory(Math.round(12.1 * 1024 * 1024));
  }

  onSignal(_sig: Signal, ctx: ProcessContext): boolean {
    ctx.exit(0);
    return true;
  }

  stop(): void {
    this.rt.shimExited(this.rec);
  }
}
