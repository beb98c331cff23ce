/**
 * The kubelet: the `Program` that `kubelet.service` runs as `/usr/bin/kubelet` on every node.
 *
 * What one kubelet process does (cmd/kubelet/app/server.go, pkg/kubelet/kubelet.go `Run` and
 * `syncLoop`):
 * - reads its flags and `--config` (/var/lib/kubelet/config.yaml); a missing or broken file ends
 *   the process with status 1 and `"command failed" err="failed to load kubelet config file, path:
 *   ..."` (systemd restarts it every RestartSec);
 * - connects to containerd (CRI); if containerd does not answer the process exits 1 with
 *   `failed to run Kubelet: validate service connection: ...`;
 * - registers its Node (kubelet_node_status.go), renews `kube-node-lease/<node>` every 10 s
 *   (lease controller), posts node status every 10 s when it changed and every 5 min anyway, with
 *   Ready=False `KubeletNotReady` `container runtime is down` / `PLEG is not healthy: ...` when
 *   containerd stops answering;
 * - watches the pods bound to it (`spec.nodeName=<node>`) and the static pod directory (every
 *   20 s and on file changes), and runs them through its pod workers (podworkers.ts);
 * - relists containerd every second (the generic PLEG) and syncs pods whose containers changed;
 * - housekeeping every 2 s: orphaned containers of pods deleted while it was away are killed,
 *   orphaned mirror pods deleted, missing mirror pods created; container GC every minute.
 *
 * Everything it knows is in this process: killing it loses caches, backoffs, probe results; the
 * containers keep running in containerd, and the next kubelet finds them (by their pod UID
 * labels), adopts them without restarting them and continues their restart counts.
 *
 * Everything talks to kube-apiserver through the node's network (`kubelet/client.ts`): while the
 * node is disconnected or kube-apiserver is down, requests fail and the loops retry; static pods
 * and running containers carry on.
 *
 * Units: virtual ms.
 */
import type { Rng, Timer } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import { deepCopy } from '../api/types';
import type { InvolvedObject, LocalEventRecord } from '../client/events';
import { EventRecorder } from '../client/events';
import type { Informer } from '../client/informer';
import { SharedInformerFactory } from '../client/informer';
import type { TraceFn } from '../trace';
import { noTrace } from '../trace';
import type { Machine } from './machine';
import type { DirSnapshot } from './fs';
import type { ProcessContext, Program, Signal } from './process';
import type { Containerd, ExecResult, Pending } from './runtime';
import type { ContainerAttach } from './stdin';
import { CONTAINERD_VERSION, CriError } from './runtime';
import type { KubeletConfig, KubeletFlags } from './kubelet/config';
import { KubeletConfigError, defaultKubeletConfig, loadKubeletConfig, parseKubeletFlags } from './kubelet/config';
import { nodeApiClient, type NodeApiClient } from './kubelet/client';
import { initialNode, memoryQuantity, newNodeLease, nodeStatusHasChanged, reconcileExistingNode, sameNodeFacts, setNodeStatus } from './kubelet/nodestatus';
import { PodWorkers, CONTAINER_GC_PERIOD_MS, podGraceSeconds } from './kubelet/podworkers';
import { decodeStaticPod, isMirrorPod, isMirrorPodOf, listManifestFiles, CONFIG_HASH_ANNOTATION } from './kubelet/staticpods';
import { aggregateMessage } from './kubelet/nodestatus';
import { goDuration, klogLine, podFullName, type KlogSeverity } from './kubelet/util';
import { syntheticDigestHex } from './registry';

export { KubeletConfigError } from './kubelet/config';

/** Where the kubelet binary is (what kubelet.service's ExecStart runs). */
export const KUBELET_BINARY = '/usr/bin/kubelet';

/** Time from process start to the CRI connection (flag parsing, cadvisor, container manager). */
export const KUBELET_INIT_MS = 300;
/** PLEG relist period. Source: pkg/kubelet/kubelet.go (`genericPlegRelistPeriod = time.Second * 1`). */
export const PLEG_RELIST_MS = 1000;
/** PLEG health threshold. Source: pkg/kubelet/pleg/generic.go (`genericPlegRelistThreshold = time.Minute * 3`). */
export const PLEG_RELIST_THRESHOLD_MS = 3 * 60_000;
/** Runtime status check period. Source: pkg/kubelet/kubelet.go (`go wait.Until(kl.updateRuntimeUp, 5*time.Second, ...)`). */
export const RUNTIME_CHECK_MS = 5000;
/** Runtime considered down after this long without a successful check. Source: kubelet.go (`maxWaitForContainerRuntime = 30 * time.Second`). */
export const RUNTIME_DOWN_THRESHOLD_MS = 30_000;
/** Housekeeping period. Source: pkg/kubelet/kubelet.go (`housekeepingPeriod = time.Second * 2`). */
export const HOUSEKEEPING_MS = 2000;
/** Tries per node status update (`nodeStatusUpdateRetry`, pkg/kubelet/kubelet.go). */
const NODE_STATUS_UPDATE_RETRY = 5;

/** Node registration retry: 100 ms doubling to 7 s. Source: kubelet_node_status.go (`registerWithAPIServer`). */
export const REGISTER_BACKOFF = { initialMs: 100, maxMs: 7000 } as const;
/** Lease ensure retry: 200 ms doubling to 7 s. Source: component-helpers lease controller (`backoffEnsureLease`). */
export const LEASE_BACKOFF = { initialMs: 200, maxMs: 7000 } as const;
/** Images reported in node status. Source: pkg/kubelet/kubelet.go (`nodeStatusMaxImages = 50`). */
export const NODE_STATUS_MAX_IMAGES = 50;

/** Labels a kubelet may set on its own Node with `--node-labels` in the kubernetes.io/k8s.io namespaces. Source: pkg/kubelet/apis/well_known_labels.go. */
const ALLOWED_KUBELET_LABELS = [
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'kubernetes.io/arch',
  'kubernetes.io/hostname',
  'kubernetes.io/os',
  'node.kubernetes.io/instance-type',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
];
const ALLOWED_KUBELET_LABEL_PREFIXES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** What a kubelet needs from the world around its process. */
export interface KubeletDeps {
  api: ApiServer;
  rng: Rng;
  machine: Machine;
  /** The node's containerd (its state outlives the containerd process); undefined = none yet. */
  runtime: () => Containerd | undefined;
  trace?: TraceFn;
  /** Told about every event the kubelet records (the UI timeline). */
  eventSink?: (e: LocalEventRecord) => void;
  /** Node capacity; memory defaults to the machine's, cpu to 2, ephemeral-storage to ~100Gi. */
  capacity?: { cpu?: string; memory?: string; ephemeralStorage?: string };
  /** `v1.35.0`; default: /kind/version on the node's disk. */
  kubeletVersion?: string;
}

/** Per-machine handle on the kubelet: the running instance (if any) and the kubelet's API (logs). */
/**
 * A UUID-shaped string (`8-4-4-4-12` hex) from the synthetic digest of `seed` (the node's boot ID
 * and system UUID). A module function rather than a closure made on every `nodeInfo()` call
 * (performance only: the node status loop asks every 10 s; same text).
 */
function syntheticUuid(seed: string): string {
  const h = syntheticDigestHex(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export class KubeletHandle {
  /** The running kubelet process's program, or undefined while none runs. */
  current: Kubelet | undefined;

  constructor(readonly deps: KubeletDeps) {}

  /**
   * `GET /containerLogs/<ns>/<pod>/<container>` (what `kubectl logs` reaches through
   * kube-apiserver). Errors (ApiError, kubectl wording): NotFound for the pod, BadRequest for
   * `container "c" in pod "p" is waiting to start: ContainerCreating` and
   * `previous terminated container "c" in pod "p" not found`, and the dial error when no kubelet
   * runs on the node.
   */
  containerLogs(ns: string, pod: string, container: string | undefined, previous = false, opts: { timestamps?: boolean; tailLines?: number; sinceSeconds?: number } = {}): string[] {
    const k = this.current;
    if (!k || !k.isServing()) {
      const ip = nodeIPOf(this.deps.machine);
      throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Get "https://${ip}:10250/containerLogs/${ns}/${pod}/${container ?? ''}": dial tcp ${ip}:10250: connect: connection refused`, reason: 'Unknown', code: 500 });
    }
    return k.containerLogs(ns, pod, container, previous, opts);
  }

  /** `kubectl exec` without a TTY (CRI ExecSync through the kubelet). Errors as `containerLogs`. */
  exec(ns: string, pod: string, container: string, argv: string[]): Pending<ExecResult> {
    const k = this.current;
    if (!k || !k.isServing()) {
      const ip = nodeIPOf(this.deps.machine);
      throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `error dialing backend: dial tcp ${ip}:10250: connect: connection refused`, reason: 'Unknown', code: 500 });
    }
    return k.exec(ns, pod, container, argv);
  }

  /** `kubectl attach` / `run -i -t` (CRI Attach through the kubelet's /attach). Errors as `exec`. */
  attach(ns: string, pod: string, container: string): ContainerAttach {
    const k = this.current;
    if (!k || !k.isServing()) {
      const ip = nodeIPOf(this.deps.machine);
      throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `error dialing backend: dial tcp ${ip}:10250: connect: connection refused`, reason: 'Unknown', code: 500 });
    }
    return k.attach(ns, pod, container);
  }
}

/** The node IP from the kubelet's flags file (`--node-ip`), else 172.18.0.2. */
/** What the PLEG compares per container or sandbox (`Containerd.listPlegStates`). */
interface PlegRecord {
  readonly state: string;
  readonly podUid: string;
}

function nodeIPOf(machine: Machine): string {
  const env = machine.fs.tryReadFile('/var/lib/kubelet/kubeadm-flags.env') ?? '';
  return /--node-ip=(\S+)/.exec(env)?.[1] ?? '172.18.0.2';
}

/**
 * Register the kubelet program for `/usr/bin/kubelet` on a machine (kept across its boots).
 * Returns the handle through which the kubelet's API (logs, exec) is reached.
 */
export function registerKubelet(deps: KubeletDeps): KubeletHandle {
  const handle = new KubeletHandle(deps);
  deps.machine.registerExecutable(KUBELET_BINARY, (_unit, exec) => new Kubelet(deps, exec.argv, handle));
  return handle;
}

/** One kubelet process. */
export class Kubelet implements Program {
  private ctx!: ProcessContext;
  private flags!: KubeletFlags;
  private config!: KubeletConfig;
  private nodeName = '';
  private hostname = '';
  private nodeIP = '';
  private apiServer = '';
  private client: NodeApiClient | undefined;
  private factory: SharedInformerFactory | undefined;
  private recorder: EventRecorder | undefined;
  private workers: PodWorkers | undefined;
  private podInformer: Informer | undefined;
  /**
   * Bumped by the pod informer's every add, update and delete: the informer stores, replaces or
   * drops a cached pod only together with one of those calls (synchronously), so an unchanged
   * number means the same cached pods (performance only: see `deleteOrphanedMirrorPods`).
   */
  private podCacheGen = 0;
  /** The pod informer and `podCacheGen` when `deleteOrphanedMirrorPods` last found no mirror pod to look at. */
  private noMirrorPodsAt: { informer: Informer; gen: number } | undefined;
  private nodeInformer: Informer | undefined;
  private serviceInformer: Informer | undefined;
  private timers = new Set<Timer>();
  private unsubscribers: (() => void)[] = [];
  private stopped = false;
  private serving = false;
  private startedAt = 0;
  private readonly trace: TraceFn;
  // Runtime and PLEG health.
  private lastRuntimeSync: number | undefined;
  private lastRelist: number | undefined;
  private plegStarted = false;
  /**
   * The last relist's containers and sandboxes by id (state and pod UID), in listing order:
   * what the next relist compares. Kept as the runtime's own small records (performance only:
   * no key and value strings built per record on every relist).
   */
  private plegSnapshot: { containers: Map<string, PlegRecord>; sandboxes: Map<string, PlegRecord> } = { containers: new Map(), sandboxes: new Map() };
  /** The runtime and its `plegGeneration()` at the last full relist (a relist with both unchanged finds nothing new). */
  private plegRuntime: Containerd | undefined;
  private plegGeneration = -1;
  // Node status.
  private registered = false;
  private registerBackoff: number = REGISTER_BACKOFF.initialMs;
  private lastStatusReport = -Infinity;
  /** The Node and facts the last node status check found nothing to write for (see updateNodeStatus). */
  private nodeStatusMemo: { stored: Readonly<KubeObject>; facts: Parameters<typeof setNodeStatus>[1] } | undefined;
  private nodeUid: string | undefined;
  // Lease.
  private latestLease: KubeObject | undefined;
  private leaseBackoff: number = LEASE_BACKOFF.initialMs;
  // Static pods: path -> { text, pod }.
  private staticFiles = new Map<string, { text: string; pod?: KubeObject; error?: string }>();
  private staticUids = new Set<string>();
  private staticScanned = false;
  /**
   * The static pod directory's tree as the last scan that listed it left it (performance only:
   * see `scanStaticPods`); undefined when the directory was missing or holds a symlink.
   */
  private staticDirSnap: DirSnapshot | undefined;
  private staticScanTimer: Timer | undefined;
  private staticDirMissingLogged = false;
  private housekeepings = 0;

  constructor(
    private readonly deps: KubeletDeps,
    private readonly argv: string[],
    private readonly handle?: KubeletHandle,
  ) {
    this.trace = deps.trace ?? noTrace;
  }

  // ------------------------------------------------------------------ process

  /** Program.start: parse flags and config, then initialise after `KUBELET_INIT_MS`. */
  start(ctx: ProcessContext): void {
    this.ctx = ctx;
    this.startedAt = ctx.clock.now();
    ctx.setMemory(24 * 1024 * 1024);
    const fs = this.deps.machine.fs;
    try {
      this.flags = parseKubeletFlags(this.argv.length ? this.argv : [KUBELET_BINARY]);
      this.validateNodeLabels();
      this.config = this.flags.config ? loadKubeletConfig(fs, this.flags.config) : defaultKubeletConfig({});
    } catch (e) {
      if (e instanceof KubeletConfigError) {
        this.fail(e.message);
        return;
      }
      throw e;
    }
    if (this.flags.registerWithTaints) this.config.registerWithTaints = this.flags.registerWithTaints;
    const version = this.version();
    this.log('I', 'server.go:529', 'Kubelet version', { kubeletVersion: version });
    this.log('I', 'server.go:531', 'Golang settings', { GOGC: '', GOMAXPROCS: '', GOTRACEBACK: '' });
    // Kubeconfig: the bootstrap kubeconfig is needed when the kubeconfig does not exist yet.
    const kubeconfig = this.flags.kubeconfig ?? '/etc/kubernetes/kubelet.conf';
    const kc = fs.tryReadFile(kubeconfig);
    if (kc === undefined && this.flags.kubeconfig) {
      const boot = this.flags.bootstrapKubeconfig;
      if (!boot || !fs.isFile(boot)) {
        this.fail(`failed to run Kubelet: unable to load bootstrap kubeconfig: stat ${boot ?? ''}: no such file or directory`);
        return;
      }
    }
    this.apiServer = (/server:\s*https?:\/\/(\S+)/.exec(kc ?? '')?.[1] ?? '127.0.0.1:6443').replace(/\/$/, '');
    this.hostname = (this.flags.hostnameOverride ?? fs.tryReadFile('/etc/hostname')?.trim() ?? this.deps.machine.name).toLowerCase();
    this.nodeName = this.hostname;
    this.nodeIP = this.flags.nodeIP ?? nodeIPOf(this.deps.machine);
    this.later(KUBELET_INIT_MS, () => this.init(), 'init', false);
  }

  /** Program.onSignal: SIGTERM/SIGINT end the kubelet cleanly (exit 0); pods are left running. */
  onSignal(sig: Signal, ctx: ProcessContext): boolean {
    if (sig !== 'SIGTERM' && sig !== 'SIGINT') return false;
    this.log('I', 'server.go:1270', 'Shutting down the kubelet', { signal: sig === 'SIGTERM' ? 'terminated' : 'interrupt' });
    ctx.clock.schedule(5, () => ctx.exit(0), { label: `kubelet[${this.nodeName}]: shutdown` });
    return true;
  }

  /** Program.stop: the process ended; everything in memory is gone. */
  stop(): void {
    this.stopped = true;
    this.serving = false;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    this.staticScanTimer?.cancel();
    for (const u of this.unsubscribers) u();
    this.unsubscribers = [];
    this.factory?.stop();
    this.recorder?.stop();
    this.workers?.stop();
    this.client?.close();
    if (this.handle?.current === this) this.handle.current = undefined;
    if (this.nodeName) this.trace(`kubelet[${this.nodeName}]`, 'kubelet process exited: caches, backoffs and probe results are gone; containers keep running');
  }

  /** The kubelet serves its API (logs, exec) once initialised. */
  isServing(): boolean {
    return this.serving && !this.stopped;
  }

  /** The node this kubelet runs (empty before start). */
  get node(): string {
    return this.nodeName;
  }

  /** The effective configuration (after defaulting). */
  get configuration(): KubeletConfig {
    return this.config;
  }

  /** The pod workers (for tests and the UI). */
  get podWorkers(): PodWorkers | undefined {
    return this.workers;
  }

  private fail(message: string): void {
    this.log('E', 'run.go:72', 'command failed', { err: message });
    this.ctx.exit(1);
  }

  private version(): string {
    return this.deps.kubeletVersion ?? this.deps.machine.fs.tryReadFile('/kind/version')?.trim() ?? 'v1.35.0';
  }

  private validateNodeLabels(): void {
    const bad = Object.keys(this.flags.nodeLabels)
      .filter((k) => {
        const i = k.indexOf('/');
        const domain = i < 0 ? '' : k.slice(0, i);
        const isK8s = domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io');
        if (!isK8s) return false;
        if (ALLOWED_KUBELET_LABELS.includes(k)) return false;
        return !ALLOWED_KUBELET_LABEL_PREFIXES.some((p) => domain === p || domain.endsWith(`.${p}`));
      })
      .sort();
    if (bad.length) {
      throw new KubeletConfigError(
        `failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${bad.join(' ')}]\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${ALLOWED_KUBELET_LABEL_PREFIXES.join(', ')}) or be in the specifically allowed set (${ALLOWED_KUBELET_LABELS.join(', ')})`,
      );
    }
  }

  /** A klog line to the journal (stderr of the unit). */
  private log(sev: KlogSeverity, file: string, msg: string, kv: Record<string, unknown> = {}): void {
    if (!this.ctx?.alive) return;
    this.ctx.log(klogLine(sev, this.ctx.clock.epochMs + this.ctx.clock.now(), this.ctx.pid, file, msg, kv));
  }

  /** Schedule on the clock, tracked for `stop()`; ApiError/CriError inside are swallowed (logged). */
  private later(delay: number, fn: () => void, what: string, background = true): Timer {
    const t = this.ctx.clock.schedule(delay, () => {
      this.timers.delete(t);
      if (this.stopped) return;
      try {
        fn();
      } catch (e) {
        if (e instanceof ApiError || e instanceof CriError) {
          this.log('E', 'kubelet.go:1700', `${what} failed`, { err: e.message });
          return;
        }
        throw e;
      }
    }, { label: this.timerLabel(what), background });
    this.timers.add(t);
    return t;
  }

  /** Clock labels by `what`, built once per node name (performance only: periodic timers ask every second). */
  private timerLabels = new Map<string, string>();
  private timerLabelHost = '';

  private timerLabel(what: string): string {
    const host = this.nodeName || this.deps.machine.name;
    if (host !== this.timerLabelHost) {
      this.timerLabels.clear();
      this.timerLabelHost = host;
    }
    let label = this.timerLabels.get(what);
    if (label === undefined) {
      label = `kubelet[${host}]: ${what}`;
      this.timerLabels.set(what, label);
    }
    return label;
  }

  /** The node's containerd; throws the CRI dial error when there is none or it is down. */
  private cri(): Containerd {
    const c = this.deps.runtime();
    if (!c) throw new CriError('Unavailable', 'connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory"');
    return c;
  }

  // ------------------------------------------------------------------ init and run

  private init(): void {
    const endpoint = this.flags.containerRuntimeEndpoint ?? this.config.containerRuntimeEndpoint;
    try {
      this.cri().version();
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      this.fail(`failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint "${endpoint}": ${e.message}`);
      return;
    }
    const { clock } = this.ctx;
    const machine = this.deps.machine;
    this.client = nodeApiClient(this.deps.api, () => machine.connected, this.apiServer);
    const api = this.client.api;
    this.unsubscribers.push(
      machine.onEvent((e) => {
        if (e.type === 'network' && !e.connected) this.client?.breakWatches();
      }),
    );
    this.recorder = new EventRecorder({ api, clock, rng: this.deps.rng, component: 'kubelet', host: this.nodeName, sink: this.deps.eventSink });
    this.factory = new SharedInformerFactory({
      api,
      clock,
      rng: this.deps.rng,
      name: `kubelet[${this.nodeName}]`,
      log: (l) => this.log(l.level === 'info' ? 'I' : l.level === 'warning' ? 'W' : 'E', 'reflector.go:561', l.message),
    });
    this.podInformer = this.factory.informer('pods', { fieldSelector: `spec.nodeName=${this.nodeName}` });
    this.nodeInformer = this.factory.informer('nodes', { fieldSelector: `metadata.name=${this.nodeName}` });
    this.serviceInformer = this.factory.informer('services');
    this.workers = new PodWorkers({
      clock,
      rng: this.deps.rng,
      nodeName: this.nodeName,
      nodeIP: this.nodeIP,
      fs: machine.fs,
      api,
      config: this.config,
      version: this.version(),
      recorder: this.recorder,
      cri: () => this.cri(),
      log: (sev, file, msg, kv) => this.log(sev, file, msg, kv),
      trace: (message, pod, kind) =>
        this.trace(`kubelet[${this.nodeName}]`, message, pod ? { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name!, uid: pod.metadata.uid } : undefined, kind),
      services: (ns) => (this.serviceInformer?.lister.list(ns) ?? []) as KubeObject[],
      cachedPod: (ns, name) => this.podInformer?.lister.get(ns, name),
      node: () => this.nodeInformer?.lister.get(undefined, this.nodeName),
      sourcesReady: () => this.staticScanned && !!this.podInformer?.hasSynced(),
      startedAt: this.startedAt,
    });
    const workers = this.workers;
    this.podInformer.addEventHandler({
      onAdd: (pod) => {
        this.podCacheGen++;
        this.onApiPod(pod);
      },
      onUpdate: (_old, pod) => {
        this.podCacheGen++;
        this.onApiPod(pod);
      },
      onDelete: (pod) => {
        this.podCacheGen++;
        if (isMirrorPod(pod)) workers.onMirrorPodChange(podFullName(pod));
        else workers.removePod(pod.metadata.uid!, pod.metadata.deletionGracePeriodSeconds ?? 0);
      },
    });
    this.nodeInformer.addEventHandler({
      onAdd: (n) => {
        this.nodeUid = n.metadata.uid;
      },
      onUpdate: (_o, n) => {
        this.nodeUid = n.metadata.uid;
      },
    });
    this.factory.start();
    workers.start();
    this.serving = true;
    if (this.handle) this.handle.current = this;
    this.log('I', 'kubelet.go:2412', 'Starting kubelet main sync loop');
    this.trace(`kubelet[${this.nodeName}]`, `kubelet started (pid ${this.ctx.pid}): watching pods on ${this.nodeName}${this.config.staticPodPath ? ` and ${this.config.staticPodPath}` : ''}`);
    this.startLoops();
    this.recordNodeEvent('Normal', 'Starting', 'Starting kubelet.');
    this.recordNodeEvent('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    // Static pods: scan now and on every change of the directory.
    if (this.config.staticPodPath) {
      this.unsubscribers.push(
        machine.fs.watch(this.config.staticPodPath, (e) => {
          if (e.name.startsWith('.')) return;
          this.scheduleStaticScan(0);
        }),
      );
      this.scanStaticPods();
    }
    this.staticScanned = true;
    // `Kubelet.Run` calls updateRuntimeUp once before the first syncNodeStatus ("otherwise when
    // restart kubelet, syncNodeStatus will report node notReady in first report period") and
    // PLEG's first relist runs at start: a restarted kubelet keeps its node Ready. A new node
    // still registers NotReady on kind while the CNI config is missing.
    this.updateRuntimeUp();
    this.relist();
    this.syncNodeStatus();
    this.syncLease();
  }

  private startLoops(): void {
    // A recurring clock event per loop: the same ticks as `later` re-scheduled after each run
    // (performance only). An ApiError/CriError ends the loop, as it skipped the re-schedule.
    const every = (ms: number, fn: () => void, what: string): void => {
      const t = this.ctx.clock.every(ms, () => {
        if (this.stopped) {
          t.cancel();
          return;
        }
        try {
          fn();
        } catch (e) {
          if (e instanceof ApiError || e instanceof CriError) {
            this.log('E', 'kubelet.go:1700', `${what} failed`, { err: e.message });
            t.cancel();
            this.timers.delete(t);
            return;
          }
          throw e;
        }
      }, { label: this.timerLabel(what) });
      this.timers.add(t);
    };
    every(PLEG_RELIST_MS, () => this.relist(), 'pleg relist');
    every(RUNTIME_CHECK_MS, () => this.updateRuntimeUp(), 'runtime status');
    every(HOUSEKEEPING_MS, () => this.housekeeping(), 'housekeeping');
    every(CONTAINER_GC_PERIOD_MS, () => this.workers?.garbageCollect(), 'container gc');
    every(this.config.nodeStatusUpdateFrequencyMs, () => this.syncNodeStatus(), 'node status');
    if (this.config.staticPodPath) this.scheduleStaticScan(this.config.fileCheckFrequencyMs);
  }

  // ------------------------------------------------------------------ pods from the API

  private onApiPod(pod: KubeObject): void {
    const w = this.workers;
    if (!w) return;
    if (isMirrorPod(pod)) {
      // Recreate a deleted or outdated mirror pod; ignore its status echoes.
      const fullName = podFullName(pod);
      const staticPod = w.known().find((p) => podFullName(p) === fullName && p.metadata.annotations?.[CONFIG_HASH_ANNOTATION]);
      if (pod.metadata.deletionTimestamp || (staticPod && !isMirrorPodOf(pod, staticPod))) w.onMirrorPodChange(fullName);
      return;
    }
    w.updatePod(pod);
  }

  // ------------------------------------------------------------------ static pods

  private scheduleStaticScan(delay: number): void {
    if (this.stopped) return;
    if (delay === 0) {
      this.later(0, () => this.scanStaticPods(), 'static pod scan (inotify)', false);
      return;
    }
    this.staticScanTimer?.cancel();
    this.staticScanTimer = this.later(delay, () => {
      this.scanStaticPods();
      this.scheduleStaticScan(this.config.fileCheckFrequencyMs);
    }, 'static pod scan');
  }

  /** List the static pod directory and bring the pod workers in line with it. */
  private scanStaticPods(): void {
    const fs = this.deps.machine.fs;
    const dir = this.config.staticPodPath;
    // The skip, and why it changes nothing. A scan reads only the directory's tree (entry names,
    // which are files, their contents), `staticFiles`, `staticUids` and `staticDirMissingLogged`,
    // and those three are written only here. With the tree the same nodes with the same contents
    // as after the last scan (`unchangedSince`; a tree holding a symlink gets no snapshot),
    // that scan left the directory listed (flag false), `staticFiles` holding exactly these
    // files with their texts (reused as they are: no decode, no log, no rng draw) and
    // `staticUids` equal to their pods' UIDs: no pod to add, none to remove, nothing written.
    const snap = this.staticDirSnap;
    if (snap !== undefined && fs.unchangedSince(dir, snap)) return;
    this.staticDirSnap = undefined;
    const files = listManifestFiles(fs, dir);
    if (!files) {
      if (!this.staticDirMissingLogged) this.log('E', 'file_linux.go:61', 'Unable to read config path', { err: 'path does not exist, ignoring', path: dir });
      this.staticDirMissingLogged = true;
    } else this.staticDirMissingLogged = false;
    const next = new Map<string, { text: string; pod?: KubeObject; error?: string }>();
    for (const path of files ?? []) {
      const text = fs.tryReadFile(path) ?? '';
      const prev = this.staticFiles.get(path);
      if (prev && prev.text === text) {
        next.set(path, prev);
        continue;
      }
      const seen = this.ctx.clock.rfc3339Micro().replace('Z', `${String(this.deps.rng.int(0, 999)).padStart(3, '0')}Z`);
      const d = decodeStaticPod(text, path, this.nodeName, seen, this.deps.rng);
      if (d.error) this.log('E', 'file.go:187', 'Could not process manifest file', { err: d.error, path });
      next.set(path, { text, pod: d.pod, error: d.error });
    }
    this.staticFiles = next;
    const uids = new Set<string>();
    const workers = this.workers!;
    for (const f of next.values()) {
      if (!f.pod) continue;
      uids.add(f.pod.metadata.uid!);
      if (!this.staticUids.has(f.pod.metadata.uid!)) {
        this.trace(`kubelet[${this.nodeName}]`, `static pod ${f.pod.metadata.namespace}/${f.pod.metadata.name} from ${dir} (config hash ${f.pod.metadata.uid})`, { kind: 'Pod', namespace: f.pod.metadata.namespace, name: f.pod.metadata.name! });
        workers.updatePod(deepCopy(f.pod));
      }
    }
    for (const uid of this.staticUids) {
      if (uids.has(uid)) continue;
      const pod = workers.known().find((p) => p.metadata.uid === uid);
      if (pod) this.trace(`kubelet[${this.nodeName}]`, `static pod ${pod.metadata.namespace}/${pod.metadata.name} manifest gone: stopping it`, { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name! });
      workers.removePod(uid, pod ? podGraceSeconds(pod) : undefined);
    }
    this.staticUids = uids;
    if (files) this.staticDirSnap = fs.snapshotDir(dir);
  }

  // ------------------------------------------------------------------ PLEG and runtime health

  /** `GenericPLEG.Relist`: list containerd, sync pods whose containers or sandboxes changed. */
  private relist(): void {
    let cri: Containerd;
    let containers;
    let sandboxes;
    try {
      cri = this.cri();
      // Nothing changed since the last relist (the common case): the same result as the full
      // listing below (no PLEG events, the same snapshot), without building every status.
      const generation = cri.plegGeneration();
      if (this.plegStarted && cri === this.plegRuntime && generation === this.plegGeneration) {
        this.lastRelist = this.ctx.clock.now();
        return;
      }
      this.plegRuntime = cri;
      this.plegGeneration = generation;
      ({ containers, sandboxes } = cri.listPlegStates());
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      return;
    }
    this.lastRelist = this.ctx.clock.now();
    this.plegStarted = true;
    // The pods with a new, changed or vanished container or sandbox, in the order: containers as
    // listed, sandboxes as listed, then the vanished ones in the last listing's order.
    const prev = this.plegSnapshot;
    const next = { containers: new Map<string, PlegRecord>(), sandboxes: new Map<string, PlegRecord>() };
    const changed = new Set<string>();
    for (const c of containers) {
      next.containers.set(c.id, c);
      const p = prev.containers.get(c.id);
      if (!p || p.state !== c.state || p.podUid !== c.podUid) changed.add(c.podUid);
    }
    for (const s of sandboxes) {
      next.sandboxes.set(s.id, s);
      const p = prev.sandboxes.get(s.id);
      if (!p || p.state !== s.state || p.podUid !== s.podUid) changed.add(s.podUid);
    }
    for (const [id, p] of prev.containers) if (!next.containers.has(id)) changed.add(p.podUid);
    for (const [id, p] of prev.sandboxes) if (!next.sandboxes.has(id)) changed.add(p.podUid);
    this.plegSnapshot = next;
    for (const uid of changed) if (uid) this.workers?.onPlegEvent(uid);
  }

  /** `updateRuntimeUp`: the CRI answers (Status/Version). */
  private updateRuntimeUp(): void {
    try {
      this.cri().version();
      if (this.lastRuntimeSync === undefined) this.log('I', 'kubelet.go:3010', 'Container runtime initialized', { containerRuntime: 'containerd', version: CONTAINERD_VERSION });
      this.lastRuntimeSync = this.ctx.clock.now();
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      this.log('E', 'kubelet.go:3050', 'Container runtime sanity check failed', { err: e.message });
    }
  }

  /** `runtimeState.runtimeErrors` + `networkErrors`: why the node is not Ready (empty = Ready). */
  notReadyErrors(): string[] {
    const now = this.ctx.clock.now();
    const errs: string[] = [];
    if (this.lastRuntimeSync === undefined) errs.push('container runtime status check may not have completed yet');
    else if (now - this.lastRuntimeSync > RUNTIME_DOWN_THRESHOLD_MS) errs.push('container runtime is down');
    if (!this.plegStarted) errs.push('PLEG is not healthy: pleg has yet to be successful');
    else if (this.lastRelist !== undefined && now - this.lastRelist > PLEG_RELIST_THRESHOLD_MS) {
      errs.push(`PLEG is not healthy: pleg was last seen active ${goDuration(now - this.lastRelist)} ago; threshold is ${goDuration(PLEG_RELIST_THRESHOLD_MS)}`);
    }
    const net = this.networkError();
    if (net) errs.push(net);
    return errs;
  }

  /**
   * The runtime's NetworkReady condition: not ready while /etc/cni/net.d exists and holds no
   * network configuration (the state of a kind node before kindnet writes 10-kindnet.conflist).
   */
  private networkError(): string | undefined {
    const fs = this.deps.machine.fs;
    const dir = '/etc/cni/net.d';
    // The answer depends only on the directory's entry names: while its tree is the same nodes
    // with the same contents as when the answer was computed (`unchangedSince`), it is the same
    // (performance only: every node status update asks).
    const m = this.networkErrorMemo;
    if (m && fs.unchangedSince(dir, m.snap)) return m.err;
    this.networkErrorMemo = undefined;
    if (!fs.isDirectory(dir)) return undefined;
    const err = fs.readdir(dir).some((n) => /\.(conf|conflist|json)$/.test(n))
      ? undefined
      : 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
    const snap = fs.snapshotDir(dir);
    if (snap) this.networkErrorMemo = { snap, err };
    return err;
  }

  /** `networkError`'s last answer and the CNI config directory's tree it was read from (performance only). */
  private networkErrorMemo: { snap: DirSnapshot; err: string | undefined } | undefined;

  // ------------------------------------------------------------------ housekeeping

  private housekeeping(): void {
    const w = this.workers;
    if (!w) return;
    this.housekeepings++;
    w.cleanupOrphans();
    if (this.podInformer?.hasSynced() && this.podInformer.isWatching()) {
      this.ensureMirrorPods(w, this.podInformer);
      this.deleteOrphanedMirrorPods(w);
    } else if (this.housekeepings % 5 === 0) {
      // The pod watch is not up (API down, or the reflector still backing off): static pods
      // sync now and then anyway, and their sync creates the mirror pod as soon as the API answers.
      w.ensureMirrorPods();
    }
  }

  /**
   * `w.ensureMirrorPods()`, skipped when it would do nothing. The skip, and why it changes nothing:
   * the last pass was clean (every running static pod had its mirror pod; none was skipped for
   * being at work, none dispatched), and since then the pod workers hold the same pods in the
   * same states (same `PodWorkers`, `podsGeneration`) and the pod cache the same pods (same
   * informer, `podCacheGen`). A static pod at work now is skipped by the pass; any other finds
   * the same mirror pod as last time, which matched: the pass would dispatch nothing.
   */
  private ensureMirrorPods(w: PodWorkers, informer: Informer): void {
    const m = this.mirrorPodsCleanAt;
    if (m && m.workers === w && m.podsGen === w.podsGeneration() && m.informer === informer && m.gen === this.podCacheGen) return;
    this.mirrorPodsCleanAt = undefined;
    const podsGen = w.podsGeneration();
    const gen = this.podCacheGen;
    // Read after the pass: a dispatch only queues work (a clean pass dispatched nothing).
    if (w.ensureMirrorPods() && w.podsGeneration() === podsGen && this.podCacheGen === gen) this.mirrorPodsCleanAt = { workers: w, podsGen, informer, gen };
  }

  /** What the last clean `ensureMirrorPods` pass read (see there; performance only). */
  private mirrorPodsCleanAt: { workers: PodWorkers; podsGen: number; informer: Informer; gen: number } | undefined;

  /** Mirror pods whose static pod is gone (manifest removed) are deleted (`DeleteMirrorPod`). */
  private deleteOrphanedMirrorPods(workers: PodWorkers): void {
    // The skip, and why it changes nothing: the pass acts only on cached mirror pods without a
    // deletion timestamp; when the last pass found none and the cache holds the same pods (the
    // same informer, `podCacheGen` unchanged), there are still none, and the pass would only
    // list the cache.
    const informer = this.podInformer;
    const none = this.noMirrorPodsAt;
    if (informer && none && none.informer === informer && none.gen === this.podCacheGen) return;
    this.noMirrorPodsAt = undefined;
    // The second skip, and why it changes nothing: the last pass deleted nothing (every mirror
    // pod it looked at was kept), and since then the cache holds the same pods (same informer,
    // `podCacheGen`), the pod workers the same pods in the same states (same `PodWorkers`,
    // `podsGeneration`) and the static pod UIDs are the same set (`staticUids` is replaced, never
    // changed in place). The pass reads nothing else: it would keep every candidate again.
    const kept = this.allMirrorPodsKeptAt;
    if (informer && kept && kept.informer === informer && kept.gen === this.podCacheGen && kept.workers === workers && kept.podsGen === workers.podsGeneration() && kept.staticUids === this.staticUids) return;
    this.allMirrorPodsKeptAt = undefined;
    const gen = this.podCacheGen;
    const podsGen = workers.podsGeneration();
    let deleted = false;
    let candidates = 0;
    // Full names of the static pods that keep their mirror pod (one pass, then O(1) per pod).
    let keep: Set<string> | undefined;
    for (const p of (informer?.lister.list() ?? []) as KubeObject[]) {
      if (!isMirrorPod(p) || p.metadata.deletionTimestamp) continue;
      candidates++;
      if (!keep) {
        keep = new Set();
        for (const s of workers.known()) {
          if (s.metadata.annotations?.[CONFIG_HASH_ANNOTATION] && workers.workerState(s.metadata.uid!) !== 'terminated' && this.staticUids.has(s.metadata.uid!)) keep.add(podFullName(s));
        }
      }
      const fullName = podFullName(p);
      if (keep.has(fullName)) continue;
      deleted = true;
      try {
        this.client!.api.delete('pods', p.metadata.namespace, p.metadata.name!, { gracePeriodSeconds: 0, fieldManager: 'kubelet' });
        this.log('I', 'kubelet_pods.go:1195', 'Deleted mirror pod', { podName: fullName });
        this.trace(`kubelet[${this.nodeName}]`, `deleted orphaned mirror pod ${p.metadata.namespace}/${p.metadata.name} (its manifest is gone)`, { kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name! });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      }
    }
    // No candidate: nothing was called that could change the cache (`gen` still holds).
    if (informer && candidates === 0) this.noMirrorPodsAt = { informer, gen };
    // Every candidate kept: nothing was called at all (no delete, no log), so `gen` and
    // `podsGen` still hold.
    else if (informer && !deleted) this.allMirrorPodsKeptAt = { informer, gen, workers, podsGen, staticUids: this.staticUids };
  }

  /**
   * What `deleteOrphanedMirrorPods` last read when it found mirror pods and kept them all: the
   * pod informer, `podCacheGen`, the pod workers and their `podsGeneration`, and the static pod
   * UID set (performance only: the control-plane node's four mirror pods are kept every 2 s).
   */
  private allMirrorPodsKeptAt: { informer: Informer; gen: number; workers: PodWorkers; podsGen: number; staticUids: Set<string> } | undefined;

  // ------------------------------------------------------------------ node registration and status

  private recordNodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
    // The kubelet's node reference uses the node name as UID and has no apiVersion (kubelet.go
    // `nodeRef := &v1.ObjectReference{Kind: "Node", Name: ..., UID: types.UID(nodeName)}`;
    // record's `ref.GetReference` returns an ObjectReference as it is), so the stored Event's
    // involvedObject has none either.
    this.recorder?.event({ kind: 'Node', name: this.nodeName, uid: this.nodeName } as InvolvedObject, type, reason, message);
    if (['Starting', 'NodeReady', 'NodeNotReady'].includes(reason)) this.trace(`kubelet[${this.nodeName}]`, `${reason}: ${message}`, { kind: 'Node', name: this.nodeName }, type);
  }

  /**
   * The node's capacity. The same object while everything it is computed from is the same
   * (performance only: the node status loop asks every 10 s). Callers only read it
   * (`setNodeStatus` copies it, `sameNodeFacts` compares it).
   */
  private capacity(): Record<string, string> {
    const c = this.deps.capacity ?? {};
    const memoryBytes = this.deps.machine.memoryBytes;
    const maxPods = this.config.maxPods;
    const m = this.capacityMemo;
    if (m && m.cpu === c.cpu && m.ephemeralStorage === c.ephemeralStorage && m.memory === c.memory && m.memoryBytes === memoryBytes && m.maxPods === maxPods) return m.value;
    const value = {
      cpu: c.cpu ?? '2',
      'ephemeral-storage': c.ephemeralStorage ?? '102626232Ki',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: c.memory ?? memoryQuantity(memoryBytes),
      pods: String(maxPods),
    };
    this.capacityMemo = { cpu: c.cpu, ephemeralStorage: c.ephemeralStorage, memory: c.memory, memoryBytes, maxPods, value };
    return value;
  }

  /** `capacity()`'s last answer and its inputs. */
  private capacityMemo: { cpu?: string; ephemeralStorage?: string; memory?: string; memoryBytes: number; maxPods: number; value: Record<string, string> } | undefined;

  /** The last `nodeInfo()` and what it was computed from (performance only: three digests per call). */
  private nodeInfoMemo: { boot: number; runtimeVersion: string; version: string; info: Record<string, string> } | undefined;

  private nodeInfo(): Record<string, string> {
    const n = this.nodeName;
    const boot = this.deps.machine.boots;
    let runtimeVersion = CONTAINERD_VERSION;
    try {
      runtimeVersion = this.cri().version().runtimeVersion;
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
    }
    // The same object while its inputs are the same (callers only read it: `setNodeStatus`
    // copies it, `sameNodeFacts` compares it; performance only).
    const version = this.version();
    const m = this.nodeInfoMemo;
    if (m && m.boot === boot && m.runtimeVersion === runtimeVersion && m.version === version) return m.info;
    const info = this.computeNodeInfo(n, boot, runtimeVersion);
    this.nodeInfoMemo = { boot, runtimeVersion, version, info };
    return info;
  }

  private computeNodeInfo(n: string, boot: number, runtimeVersion: string): Record<string, string> {
    const uuid = syntheticUuid;
    return {
      architecture: 'amd64',
      bootID: uuid(`${n}/boot/${boot}`),
      containerRuntimeVersion: `containerd://${runtimeVersion.replace(/^v/, '')}`,
      kernelVersion: '6.8.0-60-generic',
      kubeProxyVersion: '',
      kubeletVersion: this.version(),
      machineID: syntheticDigestHex(`${n}/machine-id`).slice(0, 32),
      operatingSystem: 'linux',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      systemUUID: uuid(`${n}/system-uuid`),
    };
  }

  /** The last `images()` answer and the runtime and image generation it was read at. */
  private imagesMemo: { cri: Containerd; generation: number; images: { names: string[]; sizeBytes: number }[] } | undefined;

  /**
   * `status.images` from the runtime (largest first, at most 50). The same array while the
   * runtime's image store is unchanged (`imageGeneration`); callers copy what they keep.
   */
  private images(): { names: string[]; sizeBytes: number }[] | undefined {
    try {
      const cri = this.cri();
      const generation = cri.imageGeneration();
      const m = this.imagesMemo;
      if (m && m.cri === cri && m.generation === generation) return m.images;
      const images = cri
        .listImages()
        .map((i) => ({ names: [...i.repoDigests, ...i.repoTags], sizeBytes: i.size }))
        .filter((i) => i.names.length)
        .sort((a, b) => b.sizeBytes - a.sizeBytes)
        .slice(0, NODE_STATUS_MAX_IMAGES);
      this.imagesMemo = { cri, generation, images };
      return images;
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      return undefined;
    }
  }

  private facts(): Parameters<typeof setNodeStatus>[1] {
    return {
      nodeName: this.nodeName,
      hostname: this.hostname,
      nodeIP: this.nodeIP,
      capacity: this.capacity(),
      nodeInfo: this.nodeInfo(),
      images: this.images(),
      notReadyErrors: this.notReadyErrors(),
      nowIso: this.ctx.clock.rfc3339(),
    };
  }

  /** `syncNodeStatus`: register first, then post status (when changed or every report period). */
  private syncNodeStatus(): void {
    if (!this.config.registerNode || !this.client) return;
    if (!this.registered) {
      this.registerWithAPIServer();
      return;
    }
    this.updateNodeStatus();
  }

  private registerWithAPIServer(): void {
    const api = this.client!.api;
    const node = initialNode({ nodeName: this.nodeName, hostname: this.hostname, labels: this.flags.nodeLabels, taints: this.config.registerWithTaints, providerID: this.flags.providerID });
    const events = setNodeStatus(node, this.facts());
    this.log('I', 'kubelet_node_status.go:75', 'Attempting to register node', { node: this.nodeName });
    try {
      try {
        const created = api.create(node, { fieldManager: 'kubelet' });
        this.nodeUid = created.metadata.uid;
        this.trace(`kubelet[${this.nodeName}]`, `registered node ${this.nodeName}`, { kind: 'Node', name: this.nodeName });
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 409)) throw e;
        const existing = api.get('nodes', undefined, this.nodeName);
        this.nodeUid = existing.metadata.uid;
        if (reconcileExistingNode(existing, node)) api.update(existing, { fieldManager: 'kubelet' });
      }
      this.log('I', 'kubelet_node_status.go:78', 'Successfully registered node', { node: this.nodeName });
      this.registered = true;
      this.registerBackoff = REGISTER_BACKOFF.initialMs;
      this.lastStatusReport = -Infinity;
      for (const ev of events) this.recordNodeEvent('Normal', ev, `Node ${this.nodeName} status is now: ${ev}`);
      this.updateNodeStatus();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.log('E', 'kubelet_node_status.go:96', 'Unable to register node with API server', { err: `Post "https://${this.apiServer}/api/v1/nodes": ${e.message}`, node: this.nodeName });
      const delay = this.registerBackoff;
      this.registerBackoff = Math.min(this.registerBackoff * 2, REGISTER_BACKOFF.maxMs);
      this.later(delay, () => {
        if (!this.registered) this.registerWithAPIServer();
      }, 'register node');
    }
  }

  private updateNodeStatus(): void {
    const api = this.client!.api;
    let stored: Readonly<KubeObject> | undefined;
    try {
      stored = api.tryGetShared('nodes', undefined, this.nodeName);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.log('E', 'kubelet_node_status.go:549', 'Error updating node status, will retry', { err: e.message });
      return;
    }
    if (!stored) {
      // The Node object was deleted (`kubectl delete node`): the kubelet does not register again
      // (registerWithAPIServer returns at once once registrationCompleted is set; issue
      // kubernetes/kubernetes#71398, the re-registration PR #123535 was closed unmerged). Every
      // try fails until the kubelet restarts: tryUpdateNodeStatus, nodeStatusUpdateRetry times.
      const err = `error getting node "${this.nodeName}": nodes "${this.nodeName}" not found`;
      for (let i = 0; i < NODE_STATUS_UPDATE_RETRY; i++) this.log('E', 'kubelet_node_status.go:549', 'Error updating node status, will retry', { err });
      this.log('E', 'kubelet.go:3010', 'Unable to update node status', { err: 'update node status exceeds retry count' });
      return;
    }
    this.nodeUid = stored.metadata.uid;
    const facts = this.facts();
    const now = this.ctx.clock.now();
    const due = now >= this.lastStatusReport + this.config.nodeStatusReportFrequencyMs;
    // The skip, and why it changes nothing: the check below last found no change for this very
    // Node object (stored objects are never mutated) and facts equal to these but for `nowIso`.
    // setNodeStatus is a function of the two; `nowIso` only enters lastHeartbeatTime (which
    // nodeStatusHasChanged ignores) and the lastTransitionTime of a condition whose status
    // changes, which would have been a change then too. So the check would again find no change,
    // and with the report not due it would return here, having recorded nothing.
    const memo = this.nodeStatusMemo;
    if (!due && memo && memo.stored === stored && sameNodeFacts(memo.facts, facts)) return;
    this.nodeStatusMemo = undefined;
    // The GET's Node, copied only as deep as setNodeStatus writes (it replaces top-level status
    // fields): no deep copy of the Node (and its 50 images) every 10 s. Performance only.
    const before = stored.status ?? {};
    const node: KubeObject = { ...stored, status: { ...before } };
    const events = setNodeStatus(node, facts);
    if (!nodeStatusHasChanged(before, node.status) && !due) {
      this.nodeStatusMemo = { stored, facts };
      return;
    }
    try {
      api.updateStatus(node, { fieldManager: 'kubelet', sharedResult: true });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.log('E', 'kubelet_node_status.go:549', 'Error updating node status, will retry', { err: e.message });
      return;
    }
    this.lastStatusReport = now;
    for (const ev of events) {
      this.recordNodeEvent('Normal', ev, `Node ${this.nodeName} status is now: ${ev}`);
      if (ev === 'NodeNotReady') this.log('I', 'setters.go:602', 'Node became not ready', { node: this.nodeName, condition: { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: aggregateMessage(this.notReadyErrors()) } });
    }
  }

  // ------------------------------------------------------------------ lease

  private syncLease(): void {
    const renewMs = (this.config.nodeLeaseDurationSeconds * 1000) / 4;
    const api = this.client!.api;
    const renewTime = this.ctx.clock.rfc3339Micro();
    try {
      let done = false;
      if (this.latestLease) {
        try {
          // A new object around the last answer (copied only as deep as it changes: spec, and
          // metadata for the owner reference); the latest lease itself is never changed.
          const prev = this.latestLease;
          const l: KubeObject = { ...prev, metadata: { ...prev.metadata }, spec: { ...prev.spec, renewTime, holderIdentity: this.nodeName, leaseDurationSeconds: this.config.nodeLeaseDurationSeconds } };
          this.setLeaseOwner(l);
          // Kept read-only (see above): the stored object itself (performance only).
          this.latestLease = api.update(l, { fieldManager: 'kubelet', sharedResult: true });
          done = true;
        } catch (e) {
          if (!(e instanceof ApiError) || e.connectionRefused) throw e;
          this.latestLease = undefined;
        }
      }
      if (!done) {
        const cur = api.tryGet('leases', 'kube-node-lease', this.nodeName);
        if (!cur) {
          this.latestLease = api.create(newNodeLease(this.nodeName, this.config.nodeLeaseDurationSeconds, renewTime, this.nodeUid), { fieldManager: 'kubelet' });
        } else {
          cur.spec = { ...cur.spec, renewTime, holderIdentity: this.nodeName, leaseDurationSeconds: this.config.nodeLeaseDurationSeconds };
          this.setLeaseOwner(cur);
          this.latestLease = api.update(cur, { fieldManager: 'kubelet' });
        }
      }
      this.leaseBackoff = LEASE_BACKOFF.initialMs;
      this.later(renewMs, () => this.syncLease(), 'lease renew');
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.log('E', 'controller.go:145', 'Failed to ensure lease exists, will retry', { err: e.message, interval: goDuration(this.leaseBackoff) });
      this.retryLease();
    }
  }

  /**
   * `syncLease`'s retry after a failed ensure: wait the current back-off, double it (capped). A
   * method rather than a closure made on every renewal (performance only: same timer, same order).
   */
  private retryLease(): void {
    const d = this.leaseBackoff;
    this.leaseBackoff = Math.min(this.leaseBackoff * 2, LEASE_BACKOFF.maxMs);
    this.later(d, () => this.syncLease(), 'lease ensure');
  }

  private setLeaseOwner(l: KubeObject): void {
    if (!this.nodeUid || l.metadata.ownerReferences?.length) return;
    l.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.nodeName, uid: this.nodeUid }];
  }

  // ------------------------------------------------------------------ the kubelet's API

  /** See `KubeletHandle.containerLogs`. */
  containerLogs(ns: string, podName: string, container: string | undefined, previous: boolean, opts: { timestamps?: boolean; tailLines?: number; sinceSeconds?: number }): string[] {
    const bad = (message: string) => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
    const apiPod = this.deps.api.get('pods', ns, podName);
    const specs: Record<string, unknown>[] = [...(apiPod.spec?.initContainers ?? []), ...(apiPod.spec?.containers ?? []), ...(apiPod.spec?.ephemeralContainers ?? [])];
    let name = container;
    if (!name) {
      const app = (apiPod.spec?.containers ?? []) as Record<string, unknown>[];
      if (app.length === 1) name = String(app[0].name);
      else throw bad(`a container name must be specified for pod ${podName}, choose one of: [${app.map((c) => c.name).join(' ')}]`);
    }
    if (!specs.some((c) => c.name === name)) throw bad(`container ${name} is not valid for pod ${podName}`);
    // The kubelet's own view of the pod's status (static pods: the static pod's).
    const local = this.workers?.podByName(ns, podName);
    const status = (local && this.workers?.status.get(local.metadata.uid!)) ?? apiPod.status ?? {};
    const all = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])] as Record<string, Record<string, Record<string, unknown>>>[];
    const cs = all.find((s) => (s.name as unknown as string) === name);
    if (!cs) throw bad(`container "${name}" in pod "${podName}" is waiting to start - no logs yet`);
    const state = cs.state ?? {};
    const last = cs.lastState ?? {};
    let id: string | undefined;
    if (previous) {
      id = last.terminated?.containerID as string | undefined;
      if (!id) throw bad(`previous terminated container "${name}" in pod "${podName}" not found`);
    } else if (state.running) id = cs.containerID as unknown as string;
    else if (state.terminated) {
      id = (state.terminated.containerID as string | undefined) ?? (last.terminated?.containerID as string | undefined);
      if (!id) throw bad(`container "${name}" in pod "${podName}" is terminated`);
    } else if (last.terminated) {
      id = last.terminated.containerID as string | undefined;
      if (!id) throw bad(`container "${name}" in pod "${podName}" is terminated`);
    } else if (state.waiting) {
      const reason = String(state.waiting.reason ?? '');
      if (reason === 'ErrImagePull') throw bad(`container "${name}" in pod "${podName}" is waiting to start: image can't be pulled`);
      if (reason === 'ImagePullBackOff') throw bad(`container "${name}" in pod "${podName}" is waiting to start: trying and failing to pull image`);
      throw bad(`container "${name}" in pod "${podName}" is waiting to start: ${reason}`);
    } else throw bad(`container "${name}" in pod "${podName}" is waiting to start - no logs yet`);
    const cid = String(id).replace(/^containerd:\/\//, '');
    try {
      const sinceMs = opts.sinceSeconds !== undefined ? this.ctx.clock.now() - opts.sinceSeconds * 1000 : undefined;
      return this.cri().containerLogs(cid, { format: opts.timestamps ? 'timestamps' : 'plain', ...(opts.tailLines !== undefined ? { tailLines: opts.tailLines } : {}), ...(sinceMs !== undefined ? { sinceMs } : {}) });
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      // The container is gone (garbage-collected): kuberuntime's GetContainerLogs fails on
      // ContainerStatus, and the kubelet server answers 400 with its message.
      throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `unable to retrieve container logs for containerd://${cid}`, reason: 'BadRequest', code: 400 });
    }
  }

  /** See `KubeletHandle.exec`. */
  exec(ns: string, podName: string, container: string, argv: string[]): Pending<ExecResult> {
    const local = this.workers?.podByName(ns, podName);
    const rps = local ? this.workers?.runtimeOf(local.metadata.uid!) : undefined;
    const c = rps?.containers.find((x) => x.name === container && x.state === 'running');
    if (!c) {
      throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `unable to upgrade connection: container not found ("${container}")`, reason: 'Unknown', code: 500 });
    }
    return this.cri().exec(c.id, argv);
  }

  /** See `KubeletHandle.attach`. */
  attach(ns: string, podName: string, container: string): ContainerAttach {
    const local = this.workers?.podByName(ns, podName);
    const rps = local ? this.workers?.runtimeOf(local.metadata.uid!) : undefined;
    const c = rps?.containers.find((x) => x.name === container && x.state === 'running');
    const fail = (message: string) => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Unknown', code: 500 });
    if (!c) throw fail(`unable to upgrade connection: container not found ("${container}")`);
    try {
      return this.cri().attach(c.id);
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      throw fail(e.message);
    }
  }
}
