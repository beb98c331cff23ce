/**
 * The supervision tree as data (issue #4): a read model of who keeps what running on a booted
 * kind cluster, for the UI's Supervision view. DESIGN.md section 2, "the four layers":
 *
 *     machine (the kind node container: powered on/off, on the kind network or cut off)
 *       -> systemd, PID 1                         (brought back by: a node restart)
 *         -> containerd.service, kubelet.service  (Restart=always, RestartSec=10: systemd)
 *           -> kubelet -> pods on the node        (static pods from /etc/kubernetes/manifests,
 *                                                  mirror pods in the API; crash-loop back-off)
 *             -> containers -> for the control plane, the component each one is
 *                (etcd, kube-apiserver, kube-controller-manager, kube-scheduler), and through the
 *                controller-manager the controllers and the workloads they reconcile.
 *
 * Pure: it reads the machines, systemd, containerd's records and the kubelet's pod workers (and
 * the API's stored objects for the workloads) and returns plain JSON data; nothing changes. Times
 * are virtual ms (`restartAt`, `backoffUntil`, `since`) so a view can count down ("restarting in
 * 7 s") against the clock without a new tree every tick: the tree only changes when a state does.
 *
 * Sources mirrored: systemd's ActiveState/SubState (`activating (auto-restart)`), `ExecMainCode`
 * and `ExecMainStatus` as the journal prints them (`status=9/KILL`); the kubelet's container
 * states and reason cache (`CrashLoopBackOff`, `back-off 20s restarting failed container=...`,
 * pkg/kubelet/kuberuntime/kuberuntime_manager.go), CRI container records (`OOMKilled`, `Error`,
 * `Completed`, exit codes), the static pod annotations (`kubernetes.io/config.source`,
 * `kubernetes.io/config.mirror`, pkg/kubelet/types/pod_update.go).
 */
import type { KubeObject } from './api/types';
import type { ApiServer } from './api/server';
import type { ClusterNode } from './cluster/node';
import type { ContainerStatus, PodSandboxStatus } from './node/runtime';
import type { MachineState } from './node/machine';
import type { ActiveState, ServiceSubState } from './node/systemd';
import { formatExitForJournal } from './node/systemd';
import { CONFIG_MIRROR_ANNOTATION, CONFIG_SOURCE_ANNOTATION } from './node/kubelet/staticpods';

/** The units of layer 2 on every kind node, in the order `systemctl` lists them. */
export const SUPERVISED_UNITS = ['containerd.service', 'kubelet.service'] as const;

/** The control-plane components kubeadm runs as static pods (their container names). */
export const CONTROL_PLANE_COMPONENTS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

/**
 * The controllers of kube-controller-manager that own workloads, with the kind each reconciles
 * and the store key of that kind. Names as `kube-controller-manager --controllers` knows them
 * (cmd/kube-controller-manager/names/controller_names.go: `deployment-controller`, ...).
 */
export const WORKLOAD_CONTROLLERS = [
  { name: 'deployment-controller', kind: 'Deployment', typeKey: 'apps/deployments' },
  { name: 'statefulset-controller', kind: 'StatefulSet', typeKey: 'apps/statefulsets' },
  { name: 'daemonset-controller', kind: 'DaemonSet', typeKey: 'apps/daemonsets' },
  { name: 'job-controller', kind: 'Job', typeKey: 'batch/jobs' },
  { name: 'cronjob-controller', kind: 'CronJob', typeKey: 'batch/cronjobs' },
] as const;

/**
 * A state in words a person reads (the view adds an icon; never colour alone):
 * `running`; `starting`; `restarting` (systemd's `activating (auto-restart)`, see `restartAt`);
 * `stopping`; `stopped`; `failed`; `crash-looping` (kubelet back-off, see `backoffUntil`);
 * `waiting` (another kubelet reason: ErrImagePull, ContainerCreating ...); `terminating`;
 * `exited` (ended, nobody restarting it yet); `completed` (ended by design).
 */
export type SupervisionState = 'running' | 'starting' | 'restarting' | 'stopping' | 'stopped' | 'failed' | 'crash-looping' | 'waiting' | 'terminating' | 'exited' | 'completed';

/** How a process last ended. */
export interface ExitInfo {
  /** The PID that ended (units) - absent for containers. */
  pid?: number;
  /** systemd's form for units (`status=9/KILL`, `status=1/FAILURE`); the CRI reason for containers (`OOMKilled`, `Error`, `Completed`, `Unknown`). */
  reason: string;
  /** Exit code as a shell reports it (128 + signal for a signal death). */
  exitCode?: number;
  /** Virtual ms it ended at. */
  at?: number;
}

/** One systemd unit of layer 2. */
export interface SupervisedUnit {
  /** `kubelet.service`. */
  name: string;
  state: SupervisionState;
  /** systemctl's ActiveState and SubState (`activating`, `auto-restart`); absent while the machine is off. */
  activeState?: ActiveState;
  subState?: ServiceSubState;
  /** Live main PID (absent when none). */
  mainPid?: number;
  /** `NRestarts`: automatic restarts this boot. */
  restarts: number;
  /** While `restarting`: virtual ms systemd starts it again (RestartSec= after the exit). */
  restartAt?: number;
  /** Virtual ms the current state began. */
  since?: number;
  /** systemd's Result= (`success`, `signal`, `exit-code`, ...). */
  result?: string;
  /** How the last main process ended this boot (kept across automatic restarts). */
  lastExit?: ExitInfo;
}

/** One container of a pod. */
export interface SupervisedContainer {
  name: string;
  state: SupervisionState;
  /** The container's main process PID in the node's PID namespace, while running. */
  pid?: number;
  /** Short container ID (13 hex digits, as `crictl ps`). */
  id?: string;
  /** The waiting reason (`CrashLoopBackOff`, `ErrImagePull`, `ContainerCreating`) or exit reason while stopped. */
  reason?: string;
  /** The kubelet's message for the reason (`back-off 20s restarting failed container=...`). */
  message?: string;
  /** While crash-looping: the back-off as the kubelet words it (`20s`, `1m20s`). */
  backoff?: string;
  /** While crash-looping: virtual ms the back-off ends and the kubelet starts it again. */
  backoffUntil?: number;
  /** Restarts (`restartCount`: the attempt number of the latest container). */
  restarts: number;
  /** The last termination (`lastState.terminated`): reason and exit code. */
  lastTermination?: ExitInfo;
  /** For control-plane containers: the component it runs. */
  component?: string;
}

/** A controller of kube-controller-manager and the workloads it reconciles. */
export interface SupervisedController {
  /** `deployment-controller`. */
  name: string;
  kind: string;
  /** `namespace/name` of each workload, sorted. */
  workloads: string[];
}

/** One pod on a node, as its kubelet (or, without one, containerd) has it. */
export interface SupervisedPod {
  namespace: string;
  name: string;
  /** The UID the kubelet runs it under (the static pod's own UID for static pods). */
  uid?: string;
  /** Run from a manifest file in /etc/kubernetes/manifests, not from the API. */
  static: boolean;
  /** For a static pod: `namespace/name` of its mirror pod in the API, when one exists. */
  mirror?: string;
  state: SupervisionState;
  /** Who restarts its containers: the node's kubelet, or nobody while no kubelet runs. */
  supervisedBy: 'kubelet' | 'none';
  containers: SupervisedContainer[];
  /** For a control-plane static pod: the component (`kube-controller-manager`). */
  component?: string;
  /** For kube-controller-manager: the controllers and the workloads they reconcile. */
  controllers?: SupervisedController[];
}

/** One kind node and everything below it. */
export interface SupervisedMachine {
  name: string;
  role: 'control-plane' | 'worker';
  /** Docker's view of the node container. */
  power: MachineState;
  /** On the kind network (false after `docker network disconnect kind NODE`). */
  connected: boolean;
  /** Boots so far (a node restart is a new boot: new PIDs, systemd's counters reset). */
  boots: number;
  /** PID 1 (`running`, `stopping` while halting, `stopped` when the container is off). */
  systemd: { pid: number; state: SupervisionState };
  units: SupervisedUnit[];
  /** The kubelet process as the pods' supervisor: PID and whether it is up and serving. */
  kubelet: { pid?: number; state: SupervisionState; serving: boolean };
  pods: SupervisedPod[];
}

/** The whole tree: one entry per node, in kind's order (control plane first). */
export interface SupervisionTree {
  nodes: SupervisedMachine[];
}

/** What `buildSupervisionTree` reads: a booted cluster's nodes and API (src/engine/cluster.ts `Cluster`). */
export interface SupervisionSource {
  readonly nodes: readonly ClusterNode[];
  readonly api: ApiServer;
}

/** Options of `buildSupervisionTree`. */
export interface SupervisionOptions {
  /** Only these nodes (default: all). */
  nodes?: readonly string[];
}

/**
 * Build the supervision tree of a cluster now. Pure read: no state changes, no API requests
 * (workloads are read from the API server's store, which is etcd's data and there even while
 * kube-apiserver is down). Deterministic for a given cluster state.
 */
export function buildSupervisionTree(c: SupervisionSource, opts: SupervisionOptions = {}): SupervisionTree {
  const want = opts.nodes ? new Set(opts.nodes) : undefined;
  return { nodes: c.nodes.filter((n) => !want || want.has(n.name)).map((n) => machineOf(n, c.api)) };
}

/** The unit state in words from systemd's ActiveState/SubState. */
function unitState(active: ActiveState, sub: ServiceSubState): SupervisionState {
  if (active === 'active' || active === 'reloading') return 'running';
  if (active === 'activating') return sub === 'auto-restart' ? 'restarting' : 'starting';
  if (active === 'deactivating') return 'stopping';
  if (active === 'failed') return 'failed';
  return 'stopped';
}

function machineOf(n: ClusterNode, api: ApiServer): SupervisedMachine {
  const m = n.machine;
  const sd = m.running ? m.systemd : undefined;
  const units: SupervisedUnit[] = SUPERVISED_UNITS.map((name) => {
    if (!sd) return { name, state: 'stopped', restarts: 0 };
    const s = sd.snapshot(name);
    if (!s) return { name, state: 'stopped', restarts: 0 };
    const last = sd.lastMainExit(name);
    const u: SupervisedUnit = { name, state: unitState(s.activeState, s.subState), activeState: s.activeState, subState: s.subState, restarts: s.nRestarts, result: s.result };
    if (s.mainPid) u.mainPid = s.mainPid;
    if (s.restartAt !== undefined) u.restartAt = s.restartAt;
    if (s.since !== undefined) u.since = s.since;
    if (last) u.lastExit = { pid: last.pid, reason: formatExitForJournal(last.exit), exitCode: last.exit.code === 'exited' ? last.exit.status : 128 + last.exit.status, at: last.exitedAt };
    return u;
  });
  const kubeletUnit = units.find((u) => u.name === 'kubelet.service')!;
  const k = m.running ? n.kubelet.current : undefined;
  const kubelet = {
    ...(kubeletUnit.mainPid ? { pid: kubeletUnit.mainPid } : {}),
    state: kubeletUnit.state,
    serving: !!k && k.isServing(),
  };
  return {
    name: n.name,
    role: n.role,
    power: m.state,
    connected: m.connected,
    boots: m.boots,
    systemd: { pid: 1, state: m.state === 'running' ? 'running' : m.state === 'stopping' ? 'stopping' : 'stopped' },
    units,
    kubelet,
    pods: podsOf(n, api, kubelet.serving || !!k),
  };
}

const podKey = (ns: string | undefined, name: string | undefined): string => `${ns ?? ''}/${name ?? ''}`;
const isStaticAnn = (ann: Record<string, string> | undefined): boolean => {
  const src = ann?.[CONFIG_SOURCE_ANNOTATION];
  return src !== undefined && src !== 'api';
};

/** Go's time.Duration text of `back-off 20s restarting ...` (the kubelet's own words). */
const BACKOFF_WORD = /^back-off (\S+) /;

function podsOf(n: ClusterNode, api: ApiServer, kubeletUp: boolean): SupervisedPod[] {
  const m = n.machine;
  const k = m.running ? n.kubelet.current : undefined;
  const workers = k?.podWorkers;
  const rec = n.containerd.inspect();
  // Pods to show, by namespace/name: what the API binds to this node, what the kubelet knows
  // (static pods), and what still runs in containerd (orphans while no kubelet runs).
  const apiPods = new Map<string, KubeObject>();
  for (const p of api.store.values('/pods')) if (p.spec?.nodeName === n.name) apiPods.set(podKey(p.metadata.namespace, p.metadata.name), p);
  const known = new Map<string, KubeObject>();
  for (const p of workers?.known() ?? []) {
    const key = podKey(p.metadata.namespace, p.metadata.name);
    const prev = known.get(key);
    if (!prev || workers!.workerState(p.metadata.uid!) !== 'terminated') known.set(key, p);
  }
  const sandboxesByName = new Map<string, PodSandboxStatus[]>();
  for (const s of rec.sandboxes) {
    const key = podKey(s.metadata.namespace, s.metadata.name);
    const list = sandboxesByName.get(key) ?? [];
    list.push(s);
    sandboxesByName.set(key, list);
  }
  const containersByUid = new Map<string, ContainerStatus[]>();
  for (const c of rec.containers) {
    const uid = c.labels['io.kubernetes.pod.uid'] ?? '';
    const list = containersByUid.get(uid) ?? [];
    list.push(c);
    containersByUid.set(uid, list);
  }
  const running = (uid: string): boolean => (containersByUid.get(uid) ?? []).some((c) => c.state === 'CONTAINER_RUNNING');
  const keys = new Set<string>([...apiPods.keys(), ...known.keys()]);
  for (const [key, list] of sandboxesByName) if (list.some((s) => s.state === 'SANDBOX_READY' || running(s.metadata.uid))) keys.add(key);

  const out: SupervisedPod[] = [];
  for (const key of [...keys].sort()) {
    const apiPod = apiPods.get(key);
    const kPod = known.get(key);
    const sandboxes = sandboxesByName.get(key) ?? [];
    const apiIsMirror = apiPod?.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] !== undefined;
    const isStatic = kPod ? isStaticAnn(kPod.metadata.annotations) : apiIsMirror || isStaticAnn(sandboxes[0]?.annotations);
    const uid = kPod?.metadata.uid ?? (apiPod && !apiIsMirror ? apiPod.metadata.uid : sandboxes[0]?.metadata.uid);
    // A pod whose only trace is an old sandbox of another UID is gone (its name was reused).
    const mine = sandboxes.filter((s) => s.metadata.uid === uid);
    const spec = kPod ?? (apiPod && !apiIsMirror ? apiPod : undefined) ?? apiPod;
    const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const records = uid ? (containersByUid.get(uid) ?? []) : [];
    const specNames = ((spec?.spec?.containers ?? []) as { name: string }[]).map((c) => c.name);
    const names = specNames.length ? specNames : [...new Set(records.map((c) => c.metadata.name))].reverse();
    const deleting = !!apiPod?.metadata.deletionTimestamp || (uid !== undefined && workers?.workerState(uid) === 'terminating');
    const containers = names.map((cname) => containerOf(cname, records.filter((c) => c.metadata.name === cname), m.running, uid && workers ? workers.waitingReason(uid, cname) : undefined, isStatic && n.role === 'control-plane' && ns === 'kube-system'));
    const phase = apiPod && !apiIsMirror ? apiPod.status?.phase : undefined;
    let state: SupervisionState;
    if (!m.running) state = 'stopped';
    else if (deleting) state = 'terminating';
    else if (phase === 'Succeeded' || (uid !== undefined && workers?.workerState(uid) === 'terminated')) state = 'completed';
    else if (phase === 'Failed') state = 'failed';
    else if (containers.some((c) => c.state === 'crash-looping')) state = 'crash-looping';
    else if (containers.length && containers.every((c) => c.state === 'running')) state = 'running';
    else if (!mine.length) state = 'waiting';
    else if (containers.some((c) => c.state === 'running' || c.state === 'starting' || c.state === 'waiting')) state = containers.some((c) => c.state === 'running') ? 'running' : 'starting';
    else state = 'exited';
    const pod: SupervisedPod = { namespace: ns, name, static: isStatic, state, supervisedBy: kubeletUp ? 'kubelet' : 'none', containers };
    if (uid) pod.uid = uid;
    if (isStatic && apiIsMirror) pod.mirror = key;
    const component = containers.find((c) => c.component)?.component;
    if (component) {
      pod.component = component;
      if (component === 'kube-controller-manager') pod.controllers = controllersOf(api);
    }
    out.push(pod);
  }
  return out;
}

function containerOf(name: string, records: ContainerStatus[], machineOn: boolean, waiting: { reason: string; message: string; until?: number } | undefined, controlPlane: boolean): SupervisedContainer {
  // records: newest first.
  const latest = records[0];
  const lastExited = records.find((c) => c.state === 'CONTAINER_EXITED' && c !== latest) ?? (latest?.state === 'CONTAINER_EXITED' ? latest : undefined);
  const c: SupervisedContainer = { name, state: 'waiting', restarts: latest?.metadata.attempt ?? 0 };
  if (latest) c.id = latest.id.slice(0, 13);
  if (lastExited) c.lastTermination = { reason: lastExited.reason || 'Error', exitCode: lastExited.exitCode, at: lastExited.finishedAt };
  if (controlPlane && (CONTROL_PLANE_COMPONENTS as readonly string[]).includes(name)) c.component = name;
  if (latest?.state === 'CONTAINER_RUNNING') {
    c.state = 'running';
    if (latest.pid !== undefined) c.pid = latest.pid;
    return c;
  }
  if (!machineOn) {
    c.state = 'stopped';
    if (latest) c.reason = latest.reason || 'Unknown';
    return c;
  }
  if (waiting) {
    c.reason = waiting.reason;
    c.message = waiting.message;
    if (waiting.reason === 'CrashLoopBackOff') {
      c.state = 'crash-looping';
      const b = BACKOFF_WORD.exec(waiting.message);
      if (b) c.backoff = b[1];
      if (waiting.until !== undefined) c.backoffUntil = waiting.until;
    }
    return c;
  }
  if (!latest) {
    c.reason = 'ContainerCreating';
    return c;
  }
  if (latest.state === 'CONTAINER_CREATED') {
    c.state = 'starting';
    return c;
  }
  c.state = latest.reason === 'Completed' ? 'completed' : 'exited';
  c.reason = latest.reason || 'Error';
  return c;
}

function controllersOf(api: ApiServer): SupervisedController[] {
  return WORKLOAD_CONTROLLERS.map((w) => ({
    name: w.name,
    kind: w.kind,
    workloads: [...api.store.values(w.typeKey)].map((o) => podKey(o.metadata.namespace, o.metadata.name)).sort(),
  }));
}
