/**
 * One node of a playground cluster, assembled: the kind node container (`Machine`, with kind's
 * disk from `kindNodeFilesystem`), its containerd (state that outlives the containerd process and
 * the container's reboots: images, sandboxes, container records - as /var/lib/containerd does),
 * the `containerd` program behind containerd.service, and the kubelet registered for
 * /usr/bin/kubelet (kubelet.service).
 *
 * Power: `Machine.powerOn` boots systemd, which starts containerd.service and kubelet.service.
 * When the container stops, its processes are gone without a word (`Containerd.machineStopped`:
 * running containers become exited, 255 Unknown) and its network namespace with them (the
 * node's Service rules are dropped).
 *
 * Units: virtual ms.
 */
import type { Clock, Rng } from '../clock';
import { formatRfc3339 } from '../clock';
import type { ApiServer } from '../api/server';
import type { LocalEventRecord } from '../client/events';
import type { TraceFn } from '../trace';
import { Machine } from '../node/machine';
import type { Program, Process, SpawnOptions, Signal } from '../node/process';
import { ProcessTable } from '../node/process';
import { CONTAINERD_VERSION, Containerd } from '../node/runtime';
import type { ProgramRegistry } from '../node/programs';
import type { ImageRegistry } from '../node/registry';
import { kindNodeImages } from '../node/registry';
import { kindNodeFilesystem, type FileSystem } from '../node/fs';
import { KubeletHandle, registerKubelet } from '../node/kubelet';
import type { ClusterDataPlane } from './network';

/** Where containerd's binary is (containerd.service `ExecStart=/usr/local/bin/containerd`). */
export const CONTAINERD_BINARY = '/usr/local/bin/containerd';
/** containerd from exec to `containerd successfully booted` (sd_notify READY=1). Source: observed kind nodes, ~50-100 ms. */
export const CONTAINERD_STARTUP_MS = 60;
/** containerd's shutdown after SIGTERM (it leaves the shims running). Source: observed, tens of ms. */
export const CONTAINERD_STOP_MS = 20;
/** The files `kubeadm join` writes on a worker (absent until it runs). */
export const KUBEADM_JOIN_FILES = ['/var/lib/kubelet/config.yaml', '/var/lib/kubelet/kubeadm-flags.env', '/etc/kubernetes/kubelet.conf'] as const;

/**
 * The current boot's process table of a machine, as one stable object: containerd outlives the
 * machine's reboots and spawns its shims into whichever PID namespace is current.
 */
export class MachineProcesses extends ProcessTable {
  constructor(private readonly machine: Machine) {
    super(machine.clock);
  }
  override spawn(opts: SpawnOptions): Process {
    return this.machine.processes.spawn(opts);
  }
  override get(pid: number): Process | undefined {
    return this.machine.processes.get(pid);
  }
  override list(): Process[] {
    return this.machine.processes.list();
  }
  override children(pid: number): Process[] {
    return this.machine.processes.children(pid);
  }
  override kill(pid: number, signal: Signal): boolean {
    return this.machine.processes.kill(pid, signal);
  }
  override killAll(): void {
    this.machine.processes.killAll();
  }
}

/** logrus' text format as containerd writes it: `time="..." level=info msg="..."`. */
function logrus(clock: Clock, level: string, msg: string, kv: Record<string, string> = {}): string {
  const t = formatRfc3339(clock.epochMs + clock.now(), true).replace('Z', '000Z');
  let s = `time="${t}" level=${level} msg="${msg.replace(/"/g, '\\"')}"`;
  for (const [k, v] of Object.entries(kv)) s += ` ${k}=${/[\s"]/.test(v) ? JSON.stringify(v) : v}`;
  return s;
}

/**
 * The program of containerd.service: while it runs, the node's CRI answers. SIGTERM (systemctl
 * stop) closes the socket cleanly; a kill leaves a stale socket (`connection refused`). Either
 * way the containers keep running under their shims. `Type=notify`: READY=1 once booted.
 */
export function containerdProgram(rt: Containerd, setLog: (fn: ((line: string) => void) | undefined) => void): Program {
  let how: 'crash' | 'stopped' = 'crash';
  let stopped = false;
  return {
    start(ctx) {
      ctx.setMemory(38 * 1024 * 1024);
      const log = (line: string) => ctx.log(line);
      log(logrus(ctx.clock, 'info', 'starting containerd', { revision: '05044ec0a9a75232cad458027ca83437aae3f4da', version: CONTAINERD_VERSION }));
      log(logrus(ctx.clock, 'info', 'loading plugin', { id: 'io.containerd.grpc.v1.cri', type: 'io.containerd.grpc.v1' }));
      ctx.clock.schedule(
        CONTAINERD_STARTUP_MS,
        () => {
          if (!ctx.alive) return;
          setLog(log);
          rt.setProcessRunning(true);
          log(logrus(ctx.clock, 'info', 'serving...', { address: '/run/containerd/containerd.sock' }));
          log(logrus(ctx.clock, 'info', 'containerd successfully booted in 0.0' + String(CONTAINERD_STARTUP_MS).padStart(2, '0') + 's'));
          ctx.notify?.('READY=1');
        },
        { label: `containerd[${rt.nodeName}]: boot` },
      );
    },
    onSignal(sig, ctx) {
      if (sig !== 'SIGTERM' && sig !== 'SIGINT') return false;
      how = 'stopped';
      ctx.log(logrus(ctx.clock, 'info', 'Stop CRI service'));
      ctx.clock.schedule(CONTAINERD_STOP_MS, () => ctx.exit(0), { label: `containerd[${rt.nodeName}]: stop` });
      return true;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      setLog(undefined);
      rt.setProcessRunning(false, how);
    },
  };
}

/** Options of `buildNode`. */
export interface NodeOptions {
  name: string;
  role: 'control-plane' | 'worker';
  clusterName: string;
  nodeIP: string;
  controlPlaneIP: string;
  podCIDR: string;
  version: string;
  /** `--node-labels` value (kind config `labels`, `k=v,k2=v2`). */
  nodeLabels: string;
  clock: Clock;
  rng: Rng;
  /** kube-apiserver as seen from this node (network-gated). */
  api: ApiServer;
  registry: ImageRegistry;
  programs: ProgramRegistry;
  network: ClusterDataPlane;
  trace: TraceFn;
  eventSink?: (e: LocalEventRecord) => void;
  /** Node capacity the kubelet reports (default: the kubelet's, 2 CPUs and the machine's memory). */
  capacity?: { cpu?: string; memory?: string; ephemeralStorage?: string };
  /** kubelet.service `RestartSec` (default 10 s, DESIGN.md layer 2). */
  kubeletRestartSec?: number;
  /** Memory the node sees (bytes). */
  memoryBytes?: number;
}

/** An assembled node. */
export interface ClusterNode {
  readonly name: string;
  readonly role: 'control-plane' | 'worker';
  readonly nodeIP: string;
  readonly podCIDR: string;
  readonly machine: Machine;
  readonly containerd: Containerd;
  readonly kubelet: KubeletHandle;
  readonly fs: FileSystem;
}

/**
 * Build a node: its disk (as `kind create cluster` leaves it once kubeadm has run), machine,
 * containerd (the node image's preloaded images), the containerd and kubelet programs. The
 * machine is not powered on.
 */
export function buildNode(o: NodeOptions): ClusterNode {
  const fs = kindNodeFilesystem({
    nodeName: o.name,
    role: o.role,
    clusterName: o.clusterName,
    nodeIP: o.nodeIP,
    controlPlaneIP: o.controlPlaneIP,
    kubernetesVersion: o.version,
    pauseImage: kindNodeImages(o.version).find((i) => i.startsWith('registry.k8s.io/pause:')),
    nodeLabels: o.nodeLabels,
    kubeletRestartSec: o.kubeletRestartSec,
    now: () => o.clock.now(),
    epochMs: o.clock.epochMs,
  });
  // The node image ships an empty CNI configuration directory: the runtime network is not ready
  // until the CNI plugin (kindnet) writes its configuration there.
  fs.mkdir('/etc/cni/net.d', { parents: true });
  const machine = new Machine({ name: o.name, role: o.role, clock: o.clock, fs, ...(o.memoryBytes ? { memoryBytes: o.memoryBytes } : {}) });
  const pause = kindNodeImages(o.version).find((i) => i.startsWith('registry.k8s.io/pause:'))!;
  let containerdLog: ((line: string) => void) | undefined;
  const containerd = new Containerd({
    nodeName: o.name,
    clock: o.clock,
    rng: o.rng,
    processes: new MachineProcesses(machine),
    podCIDR: o.podCIDR,
    nodeIP: o.nodeIP,
    registry: o.registry,
    programs: o.programs,
    network: o.network,
    trace: o.trace,
    log: (line) => containerdLog?.(line),
    kernelLog: (line) => machine.journal.append({ identifier: 'kernel', pid: 0, message: line, priority: 3 }),
    sandboxImage: pause,
    running: false,
  });
  containerd.preloadImages(kindNodeImages(o.version));
  machine.registerExecutable(CONTAINERD_BINARY, () => containerdProgram(containerd, (fn) => (containerdLog = fn)), { sdNotify: true });
  const kubelet = registerKubelet({
    api: o.api,
    rng: o.rng,
    machine,
    runtime: () => containerd,
    trace: o.trace,
    eventSink: o.eventSink,
    ...(o.capacity ? { capacity: o.capacity } : {}),
    kubeletVersion: o.version,
  });
  machine.onEvent((e) => {
    if (e.type === 'power-off') {
      containerd.machineStopped();
      o.network.nodeStopped(o.name);
    }
  });
  o.network.addNode({ name: o.name, nodeIP: o.nodeIP, podCIDR: o.podCIDR, machine, containerd });
  return { name: o.name, role: o.role, nodeIP: o.nodeIP, podCIDR: o.podCIDR, machine, containerd, kubelet, fs };
}
