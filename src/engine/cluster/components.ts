/**
 * The programs that run inside the cluster's own containers, registered with the node layer's
 * `ProgramRegistry.registerProgramFactory`: what a container of each control-plane or addon image
 * *is* while it runs.
 *
 * - `etcd` (static pod): while its container runs (after a short start-up), the store is
 *   reachable. The data is the `ApiServer`'s store and outlives the process (it is on disk, in
 *   /var/lib/etcd).
 * - `kube-apiserver` (static pod): while its container runs (after start-up), the API answers:
 *   availability `up`, or `etcd-unreachable` while no etcd serves; `down` when no kube-apiserver
 *   runs. Its /healthz, /livez and /readyz (apiserver-health.ts) fail while etcd is unreachable
 *   (the `etcd` check is on all three), so the kubelet's liveness probe restarts it, as on a real
 *   node. On start it writes the `kubernetes` EndpointSlice (the
 *   apiserver's endpoint reconciler).
 * - `kube-controller-manager` and `kube-scheduler` (static pods): the container runs a
 *   `ControllerProcess` (the controllers of newKubeControllerManager plus node-ipam-controller,
 *   cluster/nodeipam.ts) or a `KubeScheduler`; the container dying
 *   stops it (caches, queues, timers gone); the process exiting on its own (leader election
 *   lost when kube-apiserver has been away for longer than the renew deadline) ends the
 *   container with status 1, and the kubelet restarts it with crash-loop backoff.
 * - `local-path-provisioner` (Deployment in local-path-storage): runs the local-path provisioner
 *   controller (controllers/localpathprovisioner.ts) while the pod runs.
 * - `coredns` (Deployment): the data model's process plus a DNS server answering from its own
 *   informer cache (Services, EndpointSlices), registered on the data plane at its pod IP.
 * - `kube-proxy` (DaemonSet): the data model's process plus the proxier: informers on Services and
 *   EndpointSlices, and a full sync of its node's Service rules at most once per
 *   `iptables.minSyncPeriod` (1 s); at start its `Starting` Event on its Node (`birthCry`).
 * - `kindnetd` (DaemonSet): the data model's process plus the one thing kubelets wait for: it
 *   writes /etc/cni/net.d/10-kindnet.conflist on its node once it has read its Node from the API.
 *
 * Every component reaches kube-apiserver through its node's network (`apiFor(node)`): from a node
 * cut off the `kind` network, or when the control-plane node is, requests fail and watches break.
 *
 * Units: virtual ms.
 */
import type { Clock, Rng, Timer } from '../clock';
import { formatRfc3339 } from '../clock';
import { ApiError, errors } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import type { InvolvedObject, LocalEventRecord } from '../client/events';
import { EventsV1Recorder } from '../client/eventsv1';
import { SharedInformerFactory, type Informer } from '../client/informer';
import { KUBE_CONTROLLERS } from '../controllers';
import { ControllerProcess, type ControllerFactory } from '../controllers/manager';
import { newLocalPathProvisioner } from '../controllers/localpathprovisioner';
import { KubeScheduler } from '../scheduler/scheduler';
import type { FileSystem } from '../node/fs';
import type { Machine } from '../node/machine';
import type { ProcessContext, Program, Signal } from '../node/process';
import type { ContainerProgram, ContainerRunSpec, ContainerServices, ProgramFactory } from '../node/programs';
import { flagValue, ProgramRegistry } from '../node/programs';
import type { HttpOutcome, HttpRequest } from '../node/shell';
import { klogLine } from '../node/kubelet/util';
import type { TraceFn } from '../trace';
import type { ClusterDataPlane, DnsServer, RuleEndpoint } from './network';
import { CLUSTER_DOMAIN, emptyRules } from './network';
import { flattenString } from '../strings';
import { kindnetConflist } from './manifests';
import { nodeIpamController } from './nodeipam';
import { registerAppControllerPrograms } from './appcontrollers';
import { withSidecar } from './sidecar';
import { apiserverHealthAnswer } from './apiserver-health';

const MiB = 1024 * 1024;

/** etcd from process start to `serving client traffic` with an existing data dir. Source: observed kind boots (etcd is ready well within a second). Setting `etcdStartupMs`. */
export const ETCD_STARTUP_MS = 600;
/** kube-apiserver from process start to serving (storage, post-start hooks). Source: observed kind boots, 3-6 s. Setting `apiserverStartupMs`. */
export const APISERVER_STARTUP_MS = 4_000;
/** kube-controller-manager from process start to leader election (flags, secure serving). Source: observed, ~1 s. Setting `controllerManagerStartupMs`. */
export const CONTROLLER_MANAGER_STARTUP_MS = 800;
/** kube-scheduler from process start to informers and leader election. Source: observed, ~0.5 s. Setting `schedulerStartupMs`. */
export const SCHEDULER_STARTUP_MS = 500;
/** kube-proxy `iptables.minSyncPeriod` (kubeadm's KubeProxyConfiguration: 1s). Source: pkg/proxy/apis/config/v1alpha1/defaults.go. */
export const KUBE_PROXY_MIN_SYNC_MS = 1_000;
/** kindnetd's reconcile loop: the first pass at start, then every 10 s. Source: kindnet cmd/kindnetd/main.go (`time.Sleep(10 * time.Second)`). */
export const KINDNET_LOOP_MS = 10_000;
/** Port etcd serves metrics and health on (`--listen-metrics-urls=http://127.0.0.1:2381`). */
export const ETCD_METRICS_PORT = 2381;

/** What the component programs need from the cluster. */
export interface ComponentEnv {
  /** The raw API server (the etcd data; used by kube-apiserver itself and for availability). */
  api: ApiServer;
  clock: Clock;
  rng: Rng;
  trace: TraceFn;
  /** Per-cluster overrides (controller settings and the `*StartupMs` keys above). */
  settings: Record<string, number>;
  eventSink?: (e: LocalEventRecord) => void;
  network: ClusterDataPlane;
  /** kube-apiserver as seen from a node (gated on the node's and the control plane's network). */
  apiFor(nodeName: string): ApiServer;
  /** The machine of a node. */
  machine(nodeName: string): Machine | undefined;
  /** The control plane's address on the kind network (`172.18.0.2`). */
  controlPlaneIP: string;
  /** The pod CIDR the cluster planned for a node (its containerd's). */
  podCIDR(nodeName: string): string | undefined;
  /** The cluster's pod subnet (`--cluster-cidr`, kind `networking.podSubnet`). */
  podSubnet: string;
}

/**
 * kube-controller-manager's controllers: every one of `KUBE_CONTROLLERS` (newKubeControllerManager's
 * set) plus node-ipam-controller (`--allocate-node-cidrs=true`), started before node-lifecycle
 * as in cmd/kube-controller-manager/app/controllermanager.go.
 */
export function controllerManagerControllers(env: Pick<ComponentEnv, 'podSubnet' | 'podCIDR'>): ControllerFactory[] {
  const out: ControllerFactory[] = [];
  for (const [name, f] of Object.entries(KUBE_CONTROLLERS)) {
    if (name === 'node-lifecycle') out.push(nodeIpamController({ clusterCIDR: env.podSubnet, preferred: (n) => env.podCIDR(n) }));
    out.push(f);
  }
  return out;
}

/**
 * Which processes of the control plane serve, and the API availability that follows:
 * no kube-apiserver -> `down`; kube-apiserver without etcd -> `etcd-unreachable`; both -> `up`.
 */
export class ControlPlaneState {
  private etcd = 0;
  private apiservers = 0;

  constructor(
    private readonly api: ApiServer,
    private readonly trace: TraceFn,
  ) {}

  /** Number of etcd members serving. */
  get etcdServing(): number {
    return this.etcd;
  }

  /** Number of kube-apiservers serving. */
  get apiserversServing(): number {
    return this.apiservers;
  }

  /** An etcd member started (+1) or stopped (-1) serving. */
  etcdChanged(delta: number): void {
    this.etcd += delta;
    this.update();
  }

  /** A kube-apiserver started (+1) or stopped (-1) serving. */
  apiserverChanged(delta: number): void {
    this.apiservers += delta;
    this.update();
  }

  private update(): void {
    const a = this.apiservers <= 0 ? 'down' : this.etcd > 0 ? 'up' : 'etcd-unreachable';
    if (a === this.api.getAvailability()) return;
    this.api.setAvailability(a);
    const why = a === 'up' ? 'kube-apiserver serving' : a === 'down' ? 'no kube-apiserver running: connection refused' : 'kube-apiserver cannot reach etcd';
    this.trace('control-plane', `API ${a}: ${why}`, undefined, a === 'up' ? 'info' : 'Warning');
  }
}

function base(p: string | undefined): string {
  if (!p) return '';
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/** A component's klog line to its container log (stderr), PID 1 in its container. */
function klog(env: ComponentEnv, services: ContainerServices, sev: 'I' | 'W' | 'E', file: string, msg: string, kv: Record<string, unknown> = {}): void {
  services.log('stderr', klogLine(sev, env.clock.epochMs + env.clock.now(), 1, file, msg, kv));
}

/** Timers owned by one container program, cancelled when it stops. */
class Timers {
  private set = new Set<Timer>();
  constructor(
    private readonly clock: Clock,
    private readonly label: string,
  ) {}
  after(ms: number, fn: () => void, background = false): Timer {
    const t = this.clock.schedule(
      ms,
      () => {
        this.set.delete(t);
        fn();
      },
      { label: this.label, background },
    );
    this.set.add(t);
    return t;
  }
  cancelAll(): void {
    for (const t of this.set) t.cancel();
    this.set.clear();
  }
}

/** Go's component-base signal handler: SIGTERM/SIGINT end the process cleanly after `ms`. */
function gracefulExit(ms: number, onTerm?: (ctx: ProcessContext) => void): (sig: Signal, ctx: ProcessContext) => boolean {
  let exiting = false;
  return (sig, ctx) => {
    if (sig !== 'SIGTERM' && sig !== 'SIGINT') return false;
    if (!exiting) {
      exiting = true;
      onTerm?.(ctx);
      ctx.clock.schedule(ms, () => ctx.exit(0), { label: 'graceful exit' });
    }
    return true;
  };
}

const ok = (body = 'ok'): HttpOutcome => ({ status: 200, body });
const notFound: HttpOutcome = { status: 404, body: '404 page not found\n' };

// ------------------------------------------------------------------------------ etcd

function etcdProgram(env: ComponentEnv, cp: ControlPlaneState, spec: ContainerRunSpec, services: ContainerServices): Program & Partial<Omit<ContainerProgram, 'model'>> {
  const timers = new Timers(env.clock, `etcd[${spec.pod.nodeName}]`);
  let serving = false;
  const ts = () => formatRfc3339(env.clock.epochMs + env.clock.now(), true);
  const jlog = (level: string, caller: string, msg: string, extra: Record<string, unknown> = {}) =>
    services.log('stderr', JSON.stringify({ level, ts: ts(), caller, msg, ...extra }));
  return {
    start(ctx) {
      ctx.setMemory(42 * MiB);
      jlog('info', 'etcdmain/etcd.go:64', 'Running: ', { args: spec.argv });
      jlog('info', 'etcdmain/etcd.go:107', 'server has already been initialized', { 'data-dir': '/var/lib/etcd', dir: 'member' });
      timers.after(env.settings.etcdStartupMs ?? ETCD_STARTUP_MS, () => {
        serving = true;
        jlog('info', 'embed/serve.go:210', 'serving client traffic securely', { 'traffic-type': 'grpc+http', address: '127.0.0.1:2379' });
        env.trace('etcd', `etcd on ${spec.pod.nodeName} serving client traffic`, { kind: 'Pod', namespace: spec.pod.namespace, name: spec.pod.name });
        cp.etcdChanged(+1);
      });
    },
    onSignal: gracefulExit(50, () => jlog('info', 'osutil/interrupt_unix.go:64', 'received signal; shutting down', { signal: 'terminated' })),
    stop() {
      timers.cancelAll();
      if (serving) {
        serving = false;
        env.trace('etcd', `etcd on ${spec.pod.nodeName} stopped`, { kind: 'Pod', namespace: spec.pod.namespace, name: spec.pod.name }, 'Warning');
        cp.etcdChanged(-1);
      }
    },
    listening: (port) => serving && (port === 2379 || port === 2380 || port === ETCD_METRICS_PORT),
    http(port, req) {
      if (!serving || (port !== 2379 && port !== 2380 && port !== ETCD_METRICS_PORT)) return { error: 'refused' };
      const path = pathOnly(req.path);
      if (path === '/health') return ok('{"health":"true","reason":""}');
      if (path === '/livez' || path === '/readyz') return ok('ok');
      if (path === '/metrics') return ok('# HELP etcd_server_has_leader Whether or not a leader exists. 1 is existence, 0 is not.\n# TYPE etcd_server_has_leader gauge\netcd_server_has_leader 1\n');
      return notFound;
    },
    ready: () => serving,
  };
}

// ------------------------------------------------------------------------------ kube-apiserver

/** A request path without its query: `req.path.split('?')[0]` without the array (performance only: every probe asks). */
function pathOnly(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

/** The apiserver's endpoint reconciler: EndpointSlice default/kubernetes -> <advertise address>:6443. */
function ensureKubernetesEndpoints(env: ComponentEnv): void {
  if (env.api.getAvailability() !== 'up') return;
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [env.controlPlaneIP], conditions: { ready: true } }],
    ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
  } as KubeObject;
  try {
    const cur = env.api.tryGet('endpointslices', 'default', 'kubernetes');
    if (!cur) env.api.create(slice, { fieldManager: 'kube-apiserver' });
    else if (JSON.stringify((cur as KubeObject & { endpoints?: unknown }).endpoints) !== JSON.stringify((slice as KubeObject & { endpoints?: unknown }).endpoints)) {
      env.api.update({ ...cur, endpoints: (slice as KubeObject & { endpoints?: unknown }).endpoints } as KubeObject, { fieldManager: 'kube-apiserver' });
    }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  // The legacy Endpoints of the same service (pkg/controlplane/reconcilers/lease.go writes both;
  // `skip-mirror` keeps the EndpointSlice mirroring controller away from it).
  const endpoints: KubeObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: env.controlPlaneIP }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
  } as KubeObject;
  try {
    const cur = env.api.tryGet('endpoints', 'default', 'kubernetes');
    if (!cur) env.api.create(endpoints, { fieldManager: 'kube-apiserver' });
    else if (JSON.stringify(cur.subsets) !== JSON.stringify(endpoints.subsets)) env.api.update({ ...cur, subsets: endpoints.subsets } as KubeObject, { fieldManager: 'kube-apiserver' });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
}

function apiserverProgram(env: ComponentEnv, cp: ControlPlaneState, spec: ContainerRunSpec, services: ContainerServices): Program & Partial<Omit<ContainerProgram, 'model'>> {
  const timers = new Timers(env.clock, `kube-apiserver[${spec.pod.nodeName}]`);
  let serving = false;
  let shuttingDown = false;
  return {
    start(ctx) {
      ctx.setMemory(220 * MiB);
      klog(env, services, 'I', 'options.go:249', 'external host was not specified, using ' + env.controlPlaneIP);
      klog(env, services, 'I', 'server.go:166', 'Version: ' + (spec.image.version ?? ''));
      klog(env, services, 'I', 'server.go:168', 'Golang settings', { GOGC: '', GOMAXPROCS: '', GOTRACEBACK: '' });
      timers.after(env.settings.apiserverStartupMs ?? APISERVER_STARTUP_MS, () => {
        serving = true;
        klog(env, services, 'I', 'secure_serving.go:211', 'Serving securely on [::]:6443');
        env.trace('kube-apiserver', `kube-apiserver on ${spec.pod.nodeName} serving on :6443`, { kind: 'Pod', namespace: spec.pod.namespace, name: spec.pod.name });
        cp.apiserverChanged(+1);
        ensureKubernetesEndpoints(env);
        if (cp.etcdServing === 0) klog(env, services, 'W', 'logging.go:55', '[core] [Channel #1 SubChannel #2]grpc: addrConn.createTransport failed to connect to {Addr: "127.0.0.1:2379", ServerName: "127.0.0.1:2379", }. Err: connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:2379: connect: connection refused"');
      });
    },
    onSignal: gracefulExit(100, () => {
      shuttingDown = true;
      klog(env, services, 'I', 'controller.go:128', 'Shutting down kubernetes service endpoint reconciler');
    }),
    stop() {
      timers.cancelAll();
      if (serving) {
        serving = false;
        env.trace('kube-apiserver', `kube-apiserver on ${spec.pod.nodeName} stopped`, { kind: 'Pod', namespace: spec.pod.namespace, name: spec.pod.name }, 'Warning');
        cp.apiserverChanged(-1);
      }
    },
    listening: (port) => serving && port === 6443,
    http(port, req) {
      if (!serving || port !== 6443) return { error: 'refused' };
      const path = pathOnly(req.path);
      const health = apiserverHealthAnswer(req.path, { etcdOk: cp.etcdServing > 0, shuttingDown });
      if (health) return health;
      if (path === '/version') return ok(JSON.stringify({ major: '1', minor: String(spec.image.version ?? '').replace(/^v\d+\.(\d+).*/, '$1'), gitVersion: spec.image.version }, null, 2));
      return { status: 403, body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"' + path + '\\"","reason":"Forbidden","details":{},"code":403}' };
    },
    ready: () => serving && cp.etcdServing > 0,
  };
}

// ------------------------------------------------------------------------------ controller processes

/** How long a control-plane binary whose options fail takes to exit (virtual ms). */
const COMMAND_FAILED_MS = 60;

/** Whether `path` is a file in the container: under one of its mounts (the image's own files hold no kubeconfig). */
function containerHasFile(spec: ContainerRunSpec, path: string): boolean {
  for (const m of spec.mounts) {
    // A hostPath file is mounted as its directory's source, read by the file's name.
    if (path === m.path) return (m.source.read('') ?? m.source.read(path.slice(path.lastIndexOf('/') + 1))) !== undefined;
    if (path.startsWith(`${m.path}/`)) return m.source.read(path.slice(m.path.length + 1)) !== undefined;
  }
  return false;
}

/**
 * The error a kubeadm control-plane binary exits with when one of its kubeconfig flags names a
 * file the container does not have (the classic typo in /etc/kubernetes/manifests), checked in
 * the order the binary loads them, or undefined. Texts: client-go clientcmd's loading rules stat
 * an explicit path (`stat PATH: no such file or directory`); the delegated authentication
 * options wrap it twice (apiserver/pkg/server/options/authentication.go getClient and ApplyTo),
 * the delegated authorization options once (authorization.go getClient).
 */
function kubeconfigError(spec: ContainerRunSpec, order: readonly ('authentication-kubeconfig' | 'authorization-kubeconfig' | 'kubeconfig')[]): string | undefined {
  for (const flag of order) {
    const path = flagValue(spec, flag);
    if (path === undefined || path === '' || containerHasFile(spec, path)) continue;
    const stat = `stat ${path}: no such file or directory`;
    if (flag === 'authentication-kubeconfig') return `failed to get delegated authentication kubeconfig: failed to get delegated authentication kubeconfig: ${stat}`;
    if (flag === 'authorization-kubeconfig') return `failed to get delegated authorization kubeconfig: ${stat}`;
    return stat;
  }
  return undefined;
}

/** A container running a controller process (kube-controller-manager, kube-scheduler, a provisioner). */
function controllerContainer(
  env: ComponentEnv,
  spec: ContainerRunSpec,
  services: ContainerServices,
  o: {
    name: string;
    startupMs: number;
    ports: number[];
    memoryMiB: number;
    make: (onExit: (reason: string) => void) => { start(): void; stop(): void };
    inner?: Program & Partial<Omit<ContainerProgram, 'model'>>;
    /**
     * Checked at start: the error that makes the binary exit 1 before it runs (`cli.Run`:
     * `"command failed" err=...`, e.g. a kubeconfig flag naming a file the container lacks).
     */
    fatal?: () => string | undefined;
  },
): Program & Partial<Omit<ContainerProgram, 'model'>> {
  const timers = new Timers(env.clock, `${o.name}[${spec.pod.nodeName}]`);
  let proc: { start(): void; stop(): void } | undefined;
  let serving = false;
  let stopped = false;
  return {
    start(ctx) {
      if (o.inner) o.inner.start(ctx);
      else ctx.setMemory(o.memoryMiB * MiB);
      const fatal = o.fatal?.();
      if (fatal !== undefined) {
        // component-base cli.Run: the options fail before anything serves; klog.ErrorS, exit 1.
        timers.after(COMMAND_FAILED_MS, () => {
          klog(env, services, 'E', 'run.go:72', 'command failed', { err: fatal });
          env.trace(o.name, `${o.name} on ${spec.pod.nodeName} exits: ${fatal}`, { kind: 'Pod', namespace: spec.pod.namespace, name: spec.pod.name }, 'Warning');
          ctx.exit(1);
        });
        return;
      }
      timers.after(o.startupMs, () => {
        serving = true;
        proc = o.make((reason) => {
          klog(env, services, 'E', 'leaderelection.go:298', `"${reason}"`);
          if (reason === 'leaderelection lost') klog(env, services, 'E', 'server.go:294', '"leaderelection lost"');
          env.trace(o.name, `${o.name} on ${spec.pod.nodeName} exits: ${reason}`, { kind: 'Pod', namespace: spec.pod.namespace, name: spec.pod.name }, 'Warning');
          ctx.exit(1);
        });
        proc.start();
      });
    },
    onSignal(sig, ctx) {
      if (o.inner?.onSignal) return o.inner.onSignal(sig, ctx);
      return gracefulExit(50)(sig, ctx);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      serving = false;
      timers.cancelAll();
      proc?.stop();
      proc = undefined;
      o.inner?.stop?.();
    },
    listening: (port) => (o.inner?.listening ? o.inner.listening(port) : false) || (serving && o.ports.includes(port)),
    http(port: number, req: HttpRequest): HttpOutcome {
      if (serving && o.ports.includes(port)) {
        const path = pathOnly(req.path);
        if (path === '/healthz' || path === '/livez' || path === '/readyz') return ok('ok');
        return notFound;
      }
      if (o.inner?.http) return o.inner.http(port, req);
      return { error: 'refused' };
    },
    ...(o.inner?.exec ? { exec: o.inner.exec.bind(o.inner) } : {}),
    ready: () => (o.inner?.ready ? o.inner.ready() : serving),
  };
}

// ------------------------------------------------------------------------------ coredns

/** CoreDNS's `kubernetes` plugin over one process's informer cache. */
/** `.cluster.local`: the suffix of every name CoreDNS's kubernetes plugin answers. */
const DNS_SUFFIX = `.${CLUSTER_DOMAIN}`;

/** `dnsLabels` answers by name (a pure function; bounded, cleared when full). */
const dnsLabelsMemo = new Map<string, readonly string[]>();

/**
 * The labels of `fqdn` before `.cluster.local` (`catalog.bookshop.svc` -> `catalog`, `bookshop`,
 * `svc`): `fqdn.slice(0, -DNS_SUFFIX.length).split('.')`, kept per name (performance only: the
 * bookshop's db-ping resolves the same name every 3 s). The caller only reads the array.
 */
function dnsLabels(fqdn: string): readonly string[] {
  let labels = dnsLabelsMemo.get(fqdn);
  if (labels === undefined) {
    labels = fqdn.slice(0, -DNS_SUFFIX.length).split('.');
    if (dnsLabelsMemo.size >= 4096) dnsLabelsMemo.clear();
    dnsLabelsMemo.set(fqdn, labels);
  }
  return labels;
}

class CoreDnsCache implements DnsServer {
  constructor(
    private readonly services: Informer,
    private readonly slices: Informer,
  ) {}

  answer(fqdn: string): string | null | undefined {
    const suffix = DNS_SUFFIX;
    if (!fqdn.endsWith(suffix) && fqdn !== CLUSTER_DOMAIN) return undefined;
    if (!this.services.hasSynced() || !this.slices.hasSynced()) return null; // SERVFAIL until synced
    const labels = dnsLabels(fqdn);
    // <a-b-c-d>.<ns>.pod.cluster.local ("pods insecure")
    if (labels.length === 3 && labels[2] === 'pod') {
      const ip = labels[0].replace(/-/g, '.');
      return /^\d+\.\d+\.\d+\.\d+$/.test(ip) ? ip : null;
    }
    if (labels[labels.length - 1] !== 'svc') return null;
    if (labels.length === 3) {
      const [svcName, ns] = labels;
      const svc = this.services.lister.get(ns, svcName) as KubeObject | undefined;
      if (!svc) return null;
      const ip: string | undefined = svc.spec?.clusterIP;
      if (svc.spec?.type === 'ExternalName') return null;
      if (ip && ip !== 'None') return ip;
      return this.endpointAddresses(ns, svcName)[0]?.ip ?? null;
    }
    if (labels.length === 4) {
      const [host, svcName, ns] = labels;
      return this.endpointAddresses(ns, svcName).find((e) => e.hostname === host)?.ip ?? null;
    }
    return null;
  }

  private endpointAddresses(ns: string, svc: string): { ip: string; hostname?: string }[] {
    const out: { ip: string; hostname?: string }[] = [];
    for (const s of this.slices.lister.list(ns) as KubeObject[]) {
      if (s.metadata.labels?.['kubernetes.io/service-name'] !== svc) continue;
      for (const e of ((s as KubeObject & { endpoints?: { addresses: string[]; hostname?: string; conditions?: { ready?: boolean } }[] }).endpoints ?? [])) {
        if (e.conditions?.ready === false) continue;
        for (const a of e.addresses) out.push({ ip: a, ...(e.hostname ? { hostname: e.hostname } : {}) });
      }
    }
    return out.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
  }
}


// ------------------------------------------------------------------------------ kube-proxy

/** kube-proxy's proxier: Services x EndpointSlices -> this node's rules (full sync, as iptables-restore). */
function syncProxyRules(env: ComponentEnv, nodeName: string, services: Informer, slices: Informer): void {
  const rules = emptyRules();
  rules.syncedAt = env.clock.now();
  for (const svc of services.lister.list() as KubeObject[]) {
    const spec = svc.spec ?? {};
    if (spec.type === 'ExternalName') continue;
    const ns = svc.metadata.namespace!;
    const name = svc.metadata.name!;
    const owner = flattenString(`${ns}/${name}`);
    const ips: string[] = (spec.clusterIPs as string[] | undefined) ?? (spec.clusterIP ? [spec.clusterIP] : []);
    const mySlices = (slices.lister.list(ns) as KubeObject[]).filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name);
    for (const sp of (spec.ports ?? []) as { name?: string; port: number; protocol?: string; nodePort?: number }[]) {
      const proto = sp.protocol ?? 'TCP';
      const ready: RuleEndpoint[] = [];
      const serving: RuleEndpoint[] = [];
      for (const s of mySlices) {
        const sx = s as KubeObject & { ports?: { name?: string; port?: number; protocol?: string }[]; endpoints?: { addresses: string[]; conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean } }[] };
        const port = (sx.ports ?? []).find((p) => (p.name ?? '') === (sp.name ?? '') && (p.protocol ?? 'TCP') === proto);
        if (!port || port.port === undefined) continue;
        for (const e of sx.endpoints ?? []) {
          const c = e.conditions ?? {};
          for (const a of e.addresses) {
            if (c.ready !== false) ready.push({ ip: a, port: port.port });
            else if (c.serving && c.terminating) serving.push({ ip: a, port: port.port });
          }
        }
      }
      // Terminating-but-serving endpoints are used only when no endpoint is ready (KEP-1669).
      const eps = ready.length ? ready : serving;
      for (const ip of ips) {
        if (!ip || ip === 'None') continue;
        // Keys and owner names flat (performance only: every node's rules keep them, rebuilt on
        // each EndpointSlice change; a template's pieces cost several times the text).
        const key = flattenString(`${ip}:${sp.port}/${proto}`);
        rules.services.set(key, eps);
        rules.owners.set(key, owner);
      }
      if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && sp.nodePort) {
        const key = flattenString(`${sp.nodePort}/${proto}`);
        rules.nodePorts.set(key, eps);
        rules.owners.set(key, owner);
      }
    }
  }
  const live = env.network.rules(nodeName);
  live.services = rules.services;
  live.nodePorts = rules.nodePorts;
  live.owners = rules.owners;
  live.syncedAt = rules.syncedAt;
}

/**
 * When kube-proxy's `birthCry` runs, in virtual ms after its process starts: right after it
 * starts its informers (`Run`: informerFactory.Start, then s.birthCry()), i.e. just after the
 * "Starting endpoint slice config controller" log line of the kube-proxy data model.
 */
export const KUBE_PROXY_BIRTH_CRY_MS = 162;

/**
 * kube-proxy's events.k8s.io/v1 recorder (cmd/kube-proxy/app/server.go: `events.NewBroadcaster`
 * ... `NewRecorder(scheme, "kube-proxy")`, client-go tools/events): reportingController
 * `kube-proxy`, reportingInstance `kube-proxy-<hostname>` (hostNetwork: the node's name).
 */
function kubeProxyRecorder(env: ComponentEnv, node: string): EventsV1Recorder {
  return new EventsV1Recorder({ api: env.apiFor(node), clock: env.clock, rng: env.rng, reportingController: 'kube-proxy', reportingInstance: `kube-proxy-${node}`, sink: env.eventSink });
}

/**
 * kube-proxy's `birthCry` (server.go): `s.Recorder.Eventf(s.NodeRef, nil, Normal, "Starting",
 * "StartKubeProxy", "")`, regarding `{kind: Node, name: <node>, uid: <node>}` (the NodeRef's UID
 * is the node name, as the kubelet's), an empty note. `kubectl describe node` shows it as
 * `Normal  Starting  <age>  kube-proxy` with an empty message.
 */
function kubeProxyBirthCry(recorder: EventsV1Recorder, node: string): void {
  recorder.eventf({ kind: 'Node', name: node, uid: node } as InvolvedObject, undefined, 'Normal', 'Starting', 'StartKubeProxy', '');
}

// ------------------------------------------------------------------------------ registration

/**
 * Register the programs of the cluster's own images on `registry`. Control-plane binaries are
 * matched by image family and command (so `kubectl run x --image=registry.k8s.io/etcd:... --
 * sh` is not an etcd); addons by image family.
 */
export function registerComponentPrograms(registry: ProgramRegistry, env: ComponentEnv, cp: ControlPlaneState): void {
  const models = new ProgramRegistry();
  const is = (family: string, binary?: string) => (_image: string, _c: readonly string[] | undefined, _a: readonly string[] | undefined, spec: ContainerRunSpec) =>
    spec.image.family === family && (binary === undefined || base(spec.argv[0]) === binary);
  const reg = (name: string, family: string, binary: string | undefined, f: ProgramFactory) => registry.registerProgramFactory(is(family, binary), f, name);

  reg('etcd', 'etcd', 'etcd', (spec, services) => etcdProgram(env, cp, spec, services));
  reg('kube-apiserver', 'kube-apiserver', 'kube-apiserver', (spec, services) => apiserverProgram(env, cp, spec, services));

  reg('kube-controller-manager', 'kube-controller-manager', 'kube-controller-manager', (spec, services) =>
    controllerContainer(env, spec, services, {
      name: 'kube-controller-manager',
      // options.go Config: the --kubeconfig client is built before ApplyTo (authn, authz).
      fatal: () => kubeconfigError(spec, ['kubeconfig', 'authentication-kubeconfig', 'authorization-kubeconfig']),
      startupMs: env.settings.controllerManagerStartupMs ?? CONTROLLER_MANAGER_STARTUP_MS,
      ports: [10257],
      memoryMiB: 60,
      make: (onExit) =>
        new ControllerProcess('kube-controller-manager', controllerManagerControllers(env), {
          api: env.apiFor(spec.pod.nodeName),
          clock: env.clock,
          rng: env.rng,
          nodeName: spec.pod.nodeName,
          trace: env.trace,
          settings: env.settings,
          eventSink: env.eventSink,
          log: (l) => klog(env, services, l.level === 'info' ? 'I' : l.level === 'warning' ? 'W' : 'E', 'reflector.go:561', l.message),
          onExit,
        }),
    }),
  );

  reg('kube-scheduler', 'kube-scheduler', 'kube-scheduler', (spec, services) =>
    controllerContainer(env, spec, services, {
      name: 'kube-scheduler',
      // cmd/kube-scheduler/app/options Config: ApplyTo (authn, authz) before createKubeConfig.
      fatal: () => kubeconfigError(spec, ['authentication-kubeconfig', 'authorization-kubeconfig', 'kubeconfig']),
      startupMs: env.settings.schedulerStartupMs ?? SCHEDULER_STARTUP_MS,
      ports: [10259],
      memoryMiB: 25,
      make: (onExit) =>
        new KubeScheduler({
          api: env.apiFor(spec.pod.nodeName),
          clock: env.clock,
          rng: env.rng,
          nodeName: spec.pod.nodeName,
          trace: env.trace,
          settings: env.settings,
          eventSink: env.eventSink,
          log: (l) => klog(env, services, l.level === 'info' ? 'I' : l.level === 'warning' ? 'W' : 'E', 'reflector.go:561', l.message),
          onExit,
        }),
    }),
  );

  reg('local-path-provisioner', 'local-path-provisioner', 'local-path-provisioner', (spec, services) =>
    controllerContainer(env, spec, services, {
      name: 'local-path-provisioner',
      startupMs: 100,
      ports: [],
      memoryMiB: 9,
      inner: models.create(spec, services),
      make: (onExit) =>
        new ControllerProcess('local-path-provisioner', [(ctx) => newLocalPathProvisioner(ctx, { podName: spec.pod.name })], {
          api: env.apiFor(spec.pod.nodeName),
          clock: env.clock,
          rng: env.rng,
          nodeName: spec.pod.nodeName,
          trace: env.trace,
          settings: env.settings,
          eventSink: env.eventSink,
          leaderElect: false,
          onExit,
        }),
    }),
  );

  reg('coredns', 'coredns', undefined, (spec, services) => {
    let factory: SharedInformerFactory | undefined;
    let unregister: (() => void) | undefined;
    return withSidecar(models.create(spec, services), {
      start() {
        factory = new SharedInformerFactory({ api: env.apiFor(spec.pod.nodeName), clock: env.clock, rng: env.rng, name: `coredns[${spec.pod.name}]` });
        const cache = new CoreDnsCache(factory.informer('services'), factory.informer('endpointslices'));
        factory.start();
        unregister = env.network.registerDns(spec.pod.podIP, cache);
      },
      stop() {
        unregister?.();
        factory?.stop();
      },
    });
  });

  reg('kube-proxy', 'kube-proxy', 'kube-proxy', (spec, services) => {
    let factory: SharedInformerFactory | undefined;
    let recorder: EventsV1Recorder | undefined;
    const timers = new Timers(env.clock, `kube-proxy[${spec.pod.nodeName}]`);
    let pending = false;
    let last = -Infinity;
    return withSidecar(models.create(spec, services), {
      start() {
        const node = spec.pod.nodeName;
        factory = new SharedInformerFactory({ api: env.apiFor(node), clock: env.clock, rng: env.rng, name: `kube-proxy[${node}]` });
        const svcs = factory.informer('services');
        const slices = factory.informer('endpointslices');
        const request = () => {
          if (pending) return;
          pending = true;
          const minSync = env.settings.kubeProxyMinSyncMs ?? KUBE_PROXY_MIN_SYNC_MS;
          timers.after(Math.max(0, last + minSync - env.clock.now()), () => {
            pending = false;
            if (!svcs.hasSynced() || !slices.hasSynced()) return;
            last = env.clock.now();
            syncProxyRules(env, node, svcs, slices);
          });
        };
        const h = { onAdd: request, onUpdate: request, onDelete: request };
        svcs.addEventHandler(h);
        slices.addEventHandler(h);
        factory.start();
        recorder = kubeProxyRecorder(env, node);
        const r = recorder;
        // Birth Cry after the birth is successful (server.go `Run`).
        timers.after(KUBE_PROXY_BIRTH_CRY_MS, () => kubeProxyBirthCry(r, node));
      },
      stop() {
        timers.cancelAll();
        factory?.stop();
        recorder?.stop();
      },
    });
  });

  reg('kindnetd', 'kindnetd', undefined, (spec, services) => {
    const timers = new Timers(env.clock, `kindnetd[${spec.pod.nodeName}]`);
    // The last pod CIDR and its conflist text: `kindnetConflist` is a pure function of the CIDR
    // (performance only: the loop runs every 10 s; the same text, and once written the file
    // holds this very string, so the comparison below is an identity check, not a character one).
    let conflistFor: { cidr: string; text: string } | undefined;
    // The node's filesystem and its generation when the file was last read and held exactly
    // that text: while both are the same, nothing in the tree changed,
    // so the file still holds it and the read and comparison would find it again (performance
    // only: the loop runs every 10 s).
    let conflistOnDisk: { fs: FileSystem; gen: number; text: string } | undefined;
    return withSidecar(models.create(spec, services), {
      start() {
        const node = spec.pod.nodeName;
        const pass = (): void => {
          const machine = env.machine(node);
          try {
            // Read only (the node's pod CIDR): no copy of the Node per loop.
            const n = env.apiFor(node).tryGetShared('nodes', undefined, node);
            if (!n) throw errors.notFound('nodes', '', node);
            // kindnetd configures the CNI from the Node's pod CIDR (node-ipam-controller's).
            const cidr: string | undefined = n.spec?.podCIDR;
            if (!cidr) klog(env, services, 'I', 'main.go:320', 'Node has no CIDR, ignoring', { node });
            if (machine && cidr) {
              const path = '/etc/cni/net.d/10-kindnet.conflist';
              if (conflistFor?.cidr !== cidr) conflistFor = { cidr, text: kindnetConflist(cidr) };
              const text = conflistFor.text;
              const fs = machine.fs;
              const onDisk = conflistOnDisk;
              if (!(onDisk && onDisk.fs === fs && onDisk.gen === fs.generation() && onDisk.text === text)) {
                if (fs.tryReadFile(path) !== text) {
                  if (!fs.isDirectory('/etc/cni/net.d')) fs.mkdir('/etc/cni/net.d', { parents: true });
                  fs.writeFile(path, text);
                  env.trace('kindnetd', `${node}: wrote /etc/cni/net.d/10-kindnet.conflist (pod CIDR ${cidr})`, { kind: 'Node', name: node });
                } else conflistOnDisk = { fs, gen: fs.generation(), text };
              }
            }
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            klog(env, services, 'E', 'main.go:260', 'error listing nodes', { err: e.message });
          }
          timers.after(env.settings.kindnetLoopMs ?? KINDNET_LOOP_MS, pass, true);
        };
        timers.after(30, pass);
      },
      stop() {
        timers.cancelAll();
      },
    });
  });

  // Layer 4: app controllers (shelf-controller, ingress-nginx and its certgen Jobs).
  registerAppControllerPrograms(registry, env);
}
