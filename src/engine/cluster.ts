/**
 * A whole playground cluster, booted from a kind configuration the way `kind create cluster`
 * and the bookshop's `make up` build one - simulated, not faked:
 *
 * - one kind node container per config node (`Machine`, kind's disk, containerd, the kubelet
 *   under systemd); all of them are powered on at virtual time 0;
 * - the control-plane node's kubelet runs the four static pods kubeadm wrote to
 *   /etc/kubernetes/manifests; their containers *are* the control plane (cluster/components.ts):
 *   etcd running = the store reachable, kube-apiserver running = the API up, kube-controller-manager
 *   and kube-scheduler running = those processes running;
 * - kubeadm init, kind's CNI and storage actions, kubeadm join on each worker, and `make up`
 *   happen as processes and steps talking to kube-apiserver (cluster/bootstrap.ts); CoreDNS,
 *   kube-proxy, kindnet, local-path-provisioner and the bookshop are ordinary objects whose pods
 *   the controllers create, the scheduler places and the kubelets run.
 *
 * The `ApiServer` is the etcd data and persists for the cluster's life; its availability follows
 * the etcd and kube-apiserver processes. The seed's `kubectl get pods -n kube-system` listing
 * comes out of this simulation.
 *
 * Faults are methods named after the commands they stand for (`docker stop NODE`, `docker network
 * disconnect kind NODE`, `systemctl ...` and `kill` inside a node, `kind load docker-image`): the
 * shell maps its lines onto them.
 *
 * Units: virtual ms throughout. Determinism: one seed, one clock; the same seed and the same
 * calls at the same virtual times give byte-identical API writes.
 */
import { Clock, Rng, type QuietResult } from './clock';
import { ApiError } from './api/errors';
import { ApiServer } from './api/server';
import { SERVICE_CIDR } from './api/admission';
import type { KubeObject } from './api/types';
import type { LocalEventRecord } from './client/events';
import { flattenString } from './strings';
import { Trace } from './trace';
import type { Machine } from './node/machine';
import { parseSignal, type Signal } from './node/process';
import { ImageRegistry } from './node/registry';
import { ProgramRegistry } from './node/programs';
import type { CommandResult } from './node/journal';
import type { ExecResult, Pending } from './node/runtime';
import type { ContainerAttach } from './node/stdin';
import { nodeApiClient, type NodeApiClient } from './node/kubelet/client';
import { parseKindConfig, kindNodes, type KindClusterConfig } from './cluster/kindconfig';
import { DEFAULT_KIND_CONFIG, DEFAULT_KUBERNETES_VERSION } from './cluster/defaults';
import { ClusterDataPlane } from './cluster/network';
import { ControlPlaneState, registerComponentPrograms, type ComponentEnv } from './cluster/components';
import { buildNode, KUBEADM_JOIN_FILES, type ClusterNode } from './cluster/node';
import { dnsServiceIP, kindCniManifest, kindStorageManifest, staticPodManifests, type ManifestParams } from './cluster/manifests';
import { deployBookshop, kindLoad, startBoot, type BootMilestones } from './cluster/bootstrap';
import { BOOKSHOP_NAMESPACE } from './cluster/bookshop';

/** Re-exports: the kind configuration parser, the defaults, and the node and milestone types. */
export { parseKindConfig, kindNodes, KindConfigError, type KindClusterConfig, type KindNodeConfig } from './cluster/kindconfig';
export { DEFAULT_KIND_CONFIG, DEFAULT_KUBERNETES_VERSION } from './cluster/defaults';
export type { ClusterNode } from './cluster/node';
export type { BootMilestones } from './cluster/bootstrap';

/** Capacity a node's kubelet reports. */
export interface NodeResources {
  /** `cpu` quantity, e.g. `'4'`. Default: the kubelet's (2). */
  cpu?: string;
  /** `memory` quantity, e.g. `'8Gi'`. Default: the machine's memory (16 GiB). */
  memory?: string;
}

/** Options of `createCluster`. */
export interface CreateClusterOptions {
  /** The seed of the one random generator. */
  seed: number;
  /** kind configuration YAML; default: the bookshop's cluster/kind.yaml (`k8s-lab`, 1 control plane + 2 workers). */
  kindConfig?: string;
  /** Stop after `kind create cluster` (kube-system only): no images loaded, no bookshop. */
  bare?: boolean;
  /**
   * Per-cluster overrides of tunables (virtual ms unless the key says otherwise): controller and
   * scheduler settings (see ControllerContext.setting, SCHEDULER_SETTINGS), the component start-up
   * times (`etcdStartupMs`, `apiserverStartupMs`, `controllerManagerStartupMs`,
   * `schedulerStartupMs`, `kubeProxyMinSyncMs`, `kindnetLoopMs`) and `kubeletRestartSec`
   * (kubelet.service RestartSec, seconds, default 10).
   */
  settings?: Record<string, number>;
  /** Node capacity: for every node, and per node name in `perNode`. */
  nodeResources?: NodeResources & { perNode?: Record<string, NodeResources> };
  /** Kubernetes version of the node image (default `DEFAULT_KUBERNETES_VERSION`, v1.35.0). */
  kubernetesVersion?: string;
  /** Clock epoch (Unix ms of virtual time 0). */
  epochMs?: number;
  /** Keep a running digest of every API write (for determinism checks). Default false. */
  recordWriteDigest?: boolean;
  /** Most events kept in `Cluster.events` (oldest dropped). Default 20 000. */
  maxEvents?: number;
}

/** One node as `cluster.state()` reports it. */
export interface NodeState {
  name: string;
  role: 'control-plane' | 'worker';
  /** `running`, `stopping` or `stopped` (the container). */
  power: string;
  connected: boolean;
  nodeIP: string;
  podCIDR: string;
  /** systemd units of interest with their ActiveState (`active`, `activating`, `failed`, ...). */
  units: Record<string, string>;
  /** Running containers (crictl ps): name, pod, state. */
  containers: { name: string; pod: string; namespace: string; state: string; attempt: number }[];
}

/** The cluster's state at a glance (snapshot-friendly: plain data). */
export interface ClusterState {
  /** Virtual ms. */
  time: number;
  availability: string;
  nodes: NodeState[];
  milestones: BootMilestones;
}

/** A playground cluster. */
export interface Cluster {
  readonly clock: Clock;
  readonly rng: Rng;
  /** The API server (the etcd data); its availability follows the control-plane processes. */
  readonly api: ApiServer;
  readonly trace: Trace;
  readonly config: KindClusterConfig;
  /** Cluster name (`k8s-lab`). */
  readonly name: string;
  readonly version: string;
  /** Nodes in kind's order: control planes, then workers. */
  readonly nodes: readonly ClusterNode[];
  /** Machines by node name. */
  readonly machines: ReadonlyMap<string, Machine>;
  /** Events recorded by every component (before API aggregation), oldest first. */
  readonly events: LocalEventRecord[];
  /** When the boot steps happened. */
  readonly milestones: BootMilestones;
  /** The data plane (Service rules per node, DNS). */
  readonly network: ClusterDataPlane;
  /** Which control-plane processes serve. */
  readonly controlPlane: ControlPlaneState;

  /** A node by name (throws for an unknown name). */
  node(name: string): ClusterNode;
  /** kube-apiserver as a process on `node` reaches it (fails while the node or the control plane is off the network). */
  apiFor(node: string): ApiServer;
  /** kube-apiserver as kubectl on the host reaches it (through kind's port mapping). */
  readonly hostApi: ApiServer;

  /** Advance virtual time by `ms`, running everything due. Returns events run. */
  run(ms: number): number;
  /** Run until no foreground work is pending (bounded by `maxMs`, default 10 min). */
  runUntilQuiet(maxMs?: number): QuietResult;
  /** Run until `pred()` holds, checking every `stepMs` (default 500 ms), at most `timeoutMs` (default 10 min). Returns whether it held. */
  runUntil(pred: () => boolean, opts?: { timeoutMs?: number; stepMs?: number }): boolean;

  /** All nodes Ready and kube-system's workloads (static pods, CoreDNS, kube-proxy, kindnet, local-path-provisioner) running and ready. */
  kubeSystemReady(): boolean;
  /** Every Deployment of the bookshop namespace Available with all replicas updated and ready. */
  bookshopAvailable(): boolean;
  /** Plain-data summary (for snapshots and the UI). */
  state(): ClusterState;
  /** Running FNV-1a digest of API writes (needs `recordWriteDigest`), and the number of writes. */
  writeDigest(): { digest: string; writes: number };

  // ---- faults and commands, as the shell will map them
  /** `docker stop|start|kill|restart NODE`. */
  docker(verb: 'stop' | 'start' | 'kill' | 'restart', node: string): CommandResult;
  /** `docker network disconnect|connect kind NODE`. */
  dockerNetwork(verb: 'disconnect' | 'connect', node: string): CommandResult;
  /** `docker exec NODE systemctl ARGS...`. */
  systemctl(node: string, argv: readonly string[]): CommandResult;
  /** `docker exec NODE kill [-SIG] PID...`. */
  kill(node: string, pid: number, signal?: Signal | string): CommandResult;
  /** `docker exec NODE pgrep [-f] PATTERN`: PIDs. */
  pgrep(node: string, pattern: string, opts?: { full?: boolean; exact?: boolean }): number[];
  /** `docker exec NODE pkill [-SIG] [-f] PATTERN`. Returns how many matched. */
  pkill(node: string, pattern: string, signal?: Signal | string, opts?: { full?: boolean; exact?: boolean }): number;
  /** `docker exec NODE mv SRC DST` (e.g. a static pod manifest out of /etc/kubernetes/manifests). */
  mv(node: string, src: string, dst: string): CommandResult;
  /** `kind load docker-image IMAGE... [--nodes a,b]`. */
  kindLoad(images: string[], opts?: { nodes?: string[] }): CommandResult;
  /**
   * `kubectl logs` through kube-apiserver to the pod's kubelet: the log lines. Errors (ApiError):
   * the pod's NotFound, the kubelet's BadRequest texts, a dial error when the pod's node cannot be
   * reached from the control plane (stopped, or off the kind network).
   */
  containerLogs(namespace: string, pod: string, container?: string, previous?: boolean, opts?: { timestamps?: boolean; tailLines?: number; sinceSeconds?: number }): string[];
  /** `kubectl exec` (no TTY) through kube-apiserver to the pod's kubelet. */
  execInPod(namespace: string, pod: string, container: string, argv: string[]): Pending<ExecResult>;
  /** `kubectl attach` / `run -i -t`: the container's stdin and output through the pod's kubelet (errors as `execInPod`). */
  attachPod(namespace: string, pod: string, container: string): ContainerAttach;
  /** `make deploy` again (namespace, Secret, `kubectl apply -k manifests/bookshop`): kubectl's output lines. */
  deployBookshop(): string[];
  /**
   * `GET /api/v1/componentstatuses` as kube-apiserver answers it: it probes the scheduler
   * (127.0.0.1:10259/healthz), the controller-manager (:10257/healthz) and etcd from the
   * control-plane node. Errors: the API's own error while it is not up.
   */
  componentStatuses(): KubeObject[];
}

const result = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });

/** Dropped `Cluster.events` records cut off at once (a simulation bookkeeping batch, not a Kubernetes value). */
const EVENTS_COMPACT_BATCH = 1024;

/** The nth /24 of a /16 pod subnet (`10.244.0.0/16`, 2 -> `10.244.2.0/24`): what node IPAM hands out in registration order. */
function nodePodCIDR(podSubnet: string, index: number): string {
  const [ip] = podSubnet.split('/');
  // Address arithmetic (a /12 pod subnet has 4096 /24s: index 256 of 10.240.0.0/12 is 10.241.0.0/24).
  const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0) + index * 256;
  return `${[24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.')}/24`;
}

/**
 * Build a cluster and start its boot (virtual time 0: the node containers start, kubeadm init
 * waits for the control plane). Nothing runs until the clock advances (`run`, `runUntil`).
 * Errors: `KindConfigError` for a bad kind configuration; Error for more than one control-plane
 * node (the simulation has one etcd and one API server).
 */
export function createCluster(opts: CreateClusterOptions): Cluster {
  const config = parseKindConfig(opts.kindConfig ?? DEFAULT_KIND_CONFIG);
  const named = kindNodes(config);
  const cps = named.filter((n) => n.role === 'control-plane');
  if (cps.length !== 1) throw new Error(`the playground simulates one control-plane node; the configuration has ${cps.length}`);
  const version = opts.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION;
  const settings = { ...(opts.settings ?? {}) };
  const clock = new Clock(opts.epochMs);
  const rng = new Rng(opts.seed);
  const api = new ApiServer(clock, rng);
  // The store exists (etcd's data dir); kube-apiserver is not running yet.
  api.setAvailability('down');
  const trace = new Trace(() => clock.now());
  const events: LocalEventRecord[] = [];
  const maxEvents = opts.maxEvents ?? 20_000;
  // Records before index `eventsHead` are dropped; they are cut off in batches (and whenever
  // `cluster.events` is read) instead of shifting 20,000 records per event (performance only).
  let eventsHead = 0;
  const compactEvents = (): LocalEventRecord[] => {
    if (eventsHead > 0) events.splice(0, eventsHead);
    eventsHead = 0;
    return events;
  };
  const eventSink = (e: LocalEventRecord) => {
    flattenString(e.message); // the Event object written to the API shares this string
    events.push(e);
    if (events.length - eventsHead > maxEvents) eventsHead = events.length - maxEvents;
    if (eventsHead >= EVENTS_COMPACT_BATCH) compactEvents();
  };

  // Addresses: the kind network 172.18.0.0/16 (gateway .1), nodes from .2 in kind's order;
  // pod CIDRs by the same order.
  const nodeIPs = new Map(named.map((n, i) => [n.name, `172.18.0.${i + 2}`]));
  const podCIDRs = new Map(named.map((n, i) => [n.name, nodePodCIDR(config.networking.podSubnet, i)]));
  const cpName = cps[0].name;
  const cpIP = nodeIPs.get(cpName)!;
  // The data plane routes the range the API server actually allocates ClusterIPs from
  // (admission's SERVICE_CIDR, 10.96.0.0/12); kind's 10.96.0.0/16 lies inside it.
  const network = new ClusterDataPlane(rng, SERVICE_CIDR, dnsServiceIP(config.networking.serviceSubnet));
  const controlPlane = new ControlPlaneState(api, trace.add);
  const programs = new ProgramRegistry();
  const registry = new ImageRegistry();

  const nodes: ClusterNode[] = [];
  const machines = new Map<string, Machine>();
  const gates = new Map<string, NodeApiClient>();
  const apiFor = (node: string): ApiServer => {
    let g = gates.get(node);
    if (!g) {
      g = nodeApiClient(api, () => (machines.get(node)?.connected ?? false) && (machines.get(cpName)?.connected ?? false), `${cpIP}:6443`);
      gates.set(node, g);
    }
    return g.api;
  };
  const env: ComponentEnv = {
    api,
    clock,
    rng,
    trace: trace.add,
    settings,
    eventSink,
    network,
    apiFor,
    machine: (n) => machines.get(n),
    controlPlaneIP: cpIP,
    podCIDR: (n) => podCIDRs.get(n),
    podSubnet: config.networking.podSubnet,
  };
  registerComponentPrograms(programs, env, controlPlane);

  const params: ManifestParams = {
    clusterName: config.name,
    nodeName: cpName,
    nodeIP: cpIP,
    version,
    podSubnet: config.networking.podSubnet,
    serviceSubnet: config.networking.serviceSubnet,
  };
  const joinFiles = new Map<string, Map<string, string>>();
  for (const n of named) {
    const res = { ...(opts.nodeResources ?? {}), ...(opts.nodeResources?.perNode?.[n.name] ?? {}) };
    const capacity = res.cpu || res.memory ? { ...(res.cpu ? { cpu: res.cpu } : {}), ...(res.memory ? { memory: res.memory } : {}) } : undefined;
    const node = buildNode({
      name: n.name,
      role: n.role,
      clusterName: config.name,
      nodeIP: nodeIPs.get(n.name)!,
      controlPlaneIP: cpIP,
      podCIDR: podCIDRs.get(n.name)!,
      version,
      nodeLabels: Object.entries(n.labels)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
      clock,
      rng,
      api: apiFor(n.name),
      registry,
      programs,
      network,
      trace: trace.add,
      eventSink,
      ...(capacity ? { capacity } : {}),
      kubeletRestartSec: settings.kubeletRestartSec ?? 10,
    });
    // The node image's kind manifests (every node has them; kind reads the control plane's).
    node.fs.mkdir('/kind/manifests', { parents: true });
    node.fs.writeFile('/kind/manifests/default-cni.yaml', kindCniManifest(version));
    node.fs.writeFile('/kind/manifests/default-storage.yaml', kindStorageManifest(version));
    if (n.role === 'control-plane') {
      for (const [file, text] of Object.entries(staticPodManifests(params))) node.fs.writeFile(`/etc/kubernetes/manifests/${file}`, text, { mode: 0o600 });
    } else {
      // Before `kubeadm join` a worker has no kubelet configuration (kubelet.service is skipped).
      const saved = new Map<string, string>();
      for (const f of KUBEADM_JOIN_FILES) {
        const t = node.fs.tryReadFile(f);
        if (t !== undefined) saved.set(f, t);
        node.fs.rm(f, { force: true });
      }
      joinFiles.set(n.name, saved);
    }
    nodes.push(node);
    machines.set(n.name, node.machine);
  }
  // Losing the network breaks every watch opened through it.
  for (const n of nodes) {
    n.machine.onEvent((e) => {
      if (e.type !== 'network' || e.connected) return;
      for (const [name, g] of gates) {
        if (!(machines.get(name)?.connected && machines.get(cpName)?.connected)) g.breakWatches();
      }
    });
  }

  let digest = 0x811c9dc5;
  let writes = 0;
  if (opts.recordWriteDigest) {
    api.onWrite((w) => {
      const line = `${clock.now()} ${w.type} ${w.resource.resource} ${JSON.stringify(w.object)}`;
      for (let i = 0; i < line.length; i++) digest = Math.imul(digest ^ line.charCodeAt(i), 0x01000193) >>> 0;
      writes++;
    });
  }

  const milestones: BootMilestones = {};
  const cpNode = nodes.find((n) => n.name === cpName)!;
  const workers = nodes.filter((n) => n.role === 'worker');
  const byName = (name: string): ClusterNode => {
    const n = nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no such node: ${name}`);
    return n;
  };

  const cluster: Cluster = {
    clock,
    rng,
    api,
    trace,
    config,
    name: config.name,
    version,
    nodes,
    machines,
    get events() {
      return compactEvents();
    },
    milestones,
    network,
    controlPlane,
    hostApi: api,
    node: byName,
    apiFor,

    run: (ms) => clock.advance(ms),
    runUntilQuiet: (maxMs) => clock.runUntilQuiet(maxMs),
    runUntil(pred, o = {}) {
      const step = o.stepMs ?? 500;
      const end = clock.now() + (o.timeoutMs ?? 10 * 60_000);
      while (!pred()) {
        if (clock.now() >= end) return false;
        clock.advance(Math.min(step, end - clock.now()));
      }
      return true;
    },

    kubeSystemReady: () => kubeSystemReady(cluster),
    bookshopAvailable: () => deploymentsAvailable(api, BOOKSHOP_NAMESPACE, 4),
    state: () => ({
      time: clock.now(),
      availability: api.getAvailability(),
      milestones: { ...milestones },
      nodes: nodes.map((n) => {
        const sd = n.machine.systemd;
        const units: Record<string, string> = {};
        if (sd && n.machine.running) for (const u of ['containerd.service', 'kubelet.service']) units[u] = sd.isActive(u);
        let containers: NodeState['containers'] = [];
        if (n.containerd.running) {
          const pods = new Map(n.containerd.listPodSandboxes().map((s) => [s.id, s.metadata]));
          containers = n.containerd
            .listContainers()
            .filter((c) => c.state === 'CONTAINER_RUNNING')
            .map((c) => ({ name: c.metadata.name, pod: pods.get(c.podSandboxId)?.name ?? '', namespace: pods.get(c.podSandboxId)?.namespace ?? '', state: c.state, attempt: c.metadata.attempt }));
        }
        return { name: n.name, role: n.role, power: n.machine.state, connected: n.machine.connected, nodeIP: n.nodeIP, podCIDR: n.podCIDR, units, containers };
      }),
    }),
    writeDigest: () => ({ digest: digest.toString(16).padStart(8, '0'), writes }),

    docker(verb, name) {
      const n = nodes.find((x) => x.name === name);
      if (!n) return result('', `Error response from daemon: No such container: ${name}\n`, 1);
      trace.add('docker', `docker ${verb} ${name}`, { kind: 'Node', name }, 'action');
      const m = n.machine;
      if (verb === 'start') m.powerOn();
      else if (verb === 'stop') m.powerOff();
      else if (verb === 'restart') m.restart();
      else if (!m.kill()) return result('', `Error response from daemon: cannot kill container: ${name}: container is not running\n`, 1);
      return result(`${name}\n`);
    },
    dockerNetwork(verb, name) {
      const n = nodes.find((x) => x.name === name);
      if (!n) return result('', `Error response from daemon: No such container: ${name}\n`, 1);
      const m = n.machine;
      if (verb === 'disconnect') {
        if (!m.connected) return result('', `Error response from daemon: container ${name} is not connected to network kind\n`, 1);
        m.disconnect();
      } else {
        if (m.connected) return result('', `Error response from daemon: endpoint with name ${name} already exists in network kind\n`, 1);
        m.connect();
      }
      trace.add('docker', `docker network ${verb} kind ${name}`, { kind: 'Node', name }, 'action');
      return result('');
    },
    systemctl(name, argv) {
      const m = byName(name).machine;
      trace.add('docker', `docker exec ${name} systemctl ${argv.join(' ')}`, { kind: 'Node', name }, 'action');
      return m.systemctl(argv);
    },
    kill(name, pid, signal = 'SIGTERM') {
      const m = byName(name).machine;
      const sig = parseSignal(String(signal));
      if (!sig) return result('', `kill: invalid signal specification: ${signal}\n`, 1);
      trace.add('docker', `docker exec ${name} kill -${sig.replace(/^SIG/, '')} ${pid}`, { kind: 'Node', name }, 'action');
      if (!m.signal(pid, sig)) return result('', `kill: (${pid}) - No such process\n`, 1);
      return result('');
    },
    pgrep: (name, pattern, o) => byName(name).machine.pgrep(pattern, o),
    pkill(name, pattern, signal = 'SIGTERM', o) {
      const sig = parseSignal(String(signal)) ?? 'SIGTERM';
      trace.add('docker', `docker exec ${name} pkill -${sig.replace(/^SIG/, '')}${o?.full ? ' -f' : ''}${o?.exact ? ' -x' : ''} ${pattern}`, { kind: 'Node', name }, 'action');
      return byName(name).machine.pkill(pattern, sig, o);
    },
    mv(name, src, dst) {
      const n = byName(name);
      if (!n.machine.running) return result('', `Error response from daemon: container ${name} is not running\n`, 1);
      try {
        n.fs.mv(src, dst);
      } catch (e) {
        return result('', `${(e as Error).message}\n`, 1);
      }
      trace.add('docker', `docker exec ${name} mv ${src} ${dst}`, { kind: 'Node', name }, 'action');
      return result('');
    },
    kindLoad(images, o = {}) {
      const targets = o.nodes ? o.nodes.map((x) => nodes.find((n) => n.name === x)) : nodes;
      const missing = o.nodes?.find((x) => !nodes.some((n) => n.name === x));
      if (missing) return result('', `ERROR: unknown node: ${missing}\n`, 1);
      try {
        const lines = kindLoad(targets as ClusterNode[], images);
        trace.add('kind', `kind load docker-image ${images.join(' ')} --name ${config.name}`, undefined, 'action');
        return result(lines.join('\n') + (lines.length ? '\n' : ''));
      } catch (e) {
        return result('', `${(e as Error).message}\n`, 1);
      }
    },
    containerLogs(ns, pod, container, previous = false, o = {}) {
      const n = podNode(api, ns, pod, nodes);
      reachKubelet(cluster, n, `/containerLogs/${ns}/${pod}/${container ?? ''}`);
      return n.kubelet.containerLogs(ns, pod, container, previous, o);
    },
    execInPod(ns, pod, container, argv) {
      const n = podNode(api, ns, pod, nodes);
      reachKubelet(cluster, n, undefined);
      return n.kubelet.exec(ns, pod, container, argv);
    },
    attachPod(ns, pod, container) {
      const n = podNode(api, ns, pod, nodes);
      reachKubelet(cluster, n, undefined);
      return n.kubelet.attach(ns, pod, container);
    },
    deployBookshop: () => deployBookshop(api),
    componentStatuses() {
      api.get('namespaces', undefined, 'default'); // the API's own error while it is down
      // componentstatus/rest.go + validator.go `DoServerCheck` over pkg/probe/http `DoHTTPProbe`:
      // a 2xx answer is Healthy with its body as the message (`ok`); a failed GET is a Failure
      // whose data is the error text (`Get "URL": dial tcp ...: connect: connection refused`),
      // other statuses `HTTP probe failed with statuscode: N`; both land in the message, the
      // condition's `error` stays empty (the prober returns no error).
      const probe = (name: string, port: number, path: string): KubeObject => {
        const r = cpNode.containerd.http(cpIP, port, { method: 'GET', path, headers: { Host: `127.0.0.1:${port}` } });
        const healthy = 'status' in r && r.status >= 200 && r.status < 400;
        const url = `https://127.0.0.1:${port}${path}`;
        const message = 'status' in r ? (healthy ? r.body : `HTTP probe failed with statuscode: ${r.status}`) : `Get "${url}": dial tcp 127.0.0.1:${port}: connect: connection refused`;
        return {
          apiVersion: 'v1',
          kind: 'ComponentStatus',
          metadata: { name },
          conditions: [{ type: 'Healthy', status: healthy ? 'True' : 'False', message }],
        } as KubeObject;
      };
      return [probe('scheduler', 10259, '/healthz'), probe('controller-manager', 10257, '/healthz'), probe('etcd-0', 2381, '/livez')];
    },
  };

  // kind create cluster: the node containers start (all at once), then kubeadm init runs on the
  // control plane.
  for (const n of nodes) n.machine.powerOn();
  startBoot({
    clock,
    trace: trace.add,
    params,
    controlPlane: cpNode,
    workers,
    apiFor,
    hostApi: api,
    bare: opts.bare ?? false,
    disableDefaultCNI: config.networking.disableDefaultCNI,
    skipKubeProxy: config.networking.kubeProxyMode === 'none',
    milestones,
    joinFiles,
  });
  return cluster;
}

/** The node a pod is bound to (for kubelet API calls). Throws the API's NotFound / BadRequest. */
function podNode(api: ApiServer, ns: string, pod: string, nodes: readonly ClusterNode[]): ClusterNode {
  const p = api.get('pods', ns, pod);
  const n = nodes.find((x) => x.name === p.spec?.nodeName);
  if (!n) throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `pod ${pod} does not have a host assigned`, reason: 'BadRequest', code: 400 });
  return n;
}

/**
 * kube-apiserver dials the pod's kubelet on :10250 from the control-plane node, across the kind
 * network. Throws the error kubectl then prints (`Get "https://<ip>:10250/containerLogs/...":
 * dial tcp <ip>:10250: i/o timeout`, or `error dialing backend: ...` for exec) when the node is
 * stopped or either end is off the network.
 */
function reachKubelet(c: Cluster, n: ClusterNode, path: string | undefined): void {
  const cp = c.nodes.find((x) => x.role === 'control-plane')!;
  const ok = n.machine.running && (n === cp || (n.machine.connected && cp.machine.connected));
  if (ok) return;
  const dial = `dial tcp ${n.nodeIP}:10250: ${n.machine.running ? 'i/o timeout' : 'connect: no route to host'}`;
  throw new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: path === undefined ? `error dialing backend: ${dial}` : `Get "https://${n.nodeIP}:10250${path}": ${dial}`,
    reason: 'Unknown',
    code: 500,
  });
}

type Cond = { type: string; status: string };
const cond = (o: KubeObject, type: string): string | undefined => ((o.status?.conditions ?? []) as Cond[]).find((c) => c.type === type)?.status;

/**
 * The stored objects of a type (in one namespace), read in place: the readiness predicates below
 * run every 250 virtual ms while a cluster boots and only read (performance only: a LIST copies
 * and sorts every pod). `typeKey` as the store keys types: `<group>/<resource>`.
 */
function storedObjects(api: ApiServer, typeKey: string, ns?: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const o of api.store.values(typeKey)) if (ns === undefined || o.metadata.namespace === ns) out.push(o);
  return out;
}

/** Every Deployment of `ns` Available, updated and ready; at least `min` of them. */
function deploymentsAvailable(api: ApiServer, ns: string, min: number): boolean {
  if (api.getAvailability() !== 'up') return false;
  const deps = storedObjects(api, 'apps/deployments', ns);
  if (deps.length < min) return false;
  return deps.every((d) => {
    const want = d.spec?.replicas ?? 1;
    const s = d.status ?? {};
    return cond(d, 'Available') === 'True' && s.observedGeneration === d.metadata.generation && (s.updatedReplicas ?? 0) === want && (s.readyReplicas ?? 0) === want && (s.replicas ?? 0) === want;
  });
}

/** What `kind create cluster` + a few seconds give: nodes Ready, kube-system running and ready. */
function kubeSystemReady(c: Cluster): boolean {
  const api = c.api;
  if (api.getAvailability() !== 'up' || c.milestones.clusterCreated === undefined) return false;
  const nodes = storedObjects(api, '/nodes');
  if (nodes.length !== c.nodes.length || !nodes.every((n) => cond(n, 'Ready') === 'True')) return false;
  const ready = (p: KubeObject) => p.status?.phase === 'Running' && cond(p, 'Ready') === 'True' && !p.metadata.deletionTimestamp;
  const cp = c.nodes.find((n) => n.role === 'control-plane')!.name;
  for (const comp of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
    const p = api.store.get('/pods', `kube-system/${comp}-${cp}`);
    if (!p || !ready(p)) return false;
  }
  const daemonSets = [...(c.config.networking.kubeProxyMode === 'none' ? [] : ['kube-proxy']), ...(c.config.networking.disableDefaultCNI ? [] : ['kindnet'])];
  for (const ds of daemonSets) {
    const d = api.store.get('apps/daemonsets', `kube-system/${ds}`);
    if (!d || (d.status?.numberReady ?? 0) !== c.nodes.length || (d.status?.desiredNumberScheduled ?? 0) !== c.nodes.length) return false;
  }
  return deploymentsAvailable(api, 'kube-system', 1) && deploymentsAvailable(api, 'local-path-storage', 1);
}

/** Options of `bootedCluster`. */
export interface BootedClusterOptions extends CreateClusterOptions {
  /** Give up after this much virtual time (default 10 min). */
  timeoutMs?: number;
}

/**
 * Create a cluster and run it until it is booted: kube-system ready (bare), or the bookshop's
 * Deployments Available. Errors: Error naming what is not ready when `timeoutMs` passes first.
 */
export function bootedCluster(opts: BootedClusterOptions): Cluster {
  const c = createCluster(opts);
  const done = opts.bare ? () => c.kubeSystemReady() : () => c.kubeSystemReady() && c.bookshopAvailable();
  if (!c.runUntil(done, { timeoutMs: opts.timeoutMs ?? 10 * 60_000, stepMs: 250 })) {
    const notReady = c.api.getAvailability() === 'up' ? c.api.list('pods').items.filter((p) => p.status?.phase !== 'Running' || cond(p, 'Ready') !== 'True').map((p) => `${p.metadata.namespace}/${p.metadata.name} ${p.status?.phase ?? ''}`) : [`API ${c.api.getAvailability()}`];
    throw new Error(`cluster not booted after ${(c.clock.now() / 1000).toFixed(0)}s: milestones ${JSON.stringify(c.milestones)}; not ready: ${notReady.join(', ')}`);
  }
  return c;
}
