/**
 * A test-only stand-in for the kubelet, in the spirit of KWOK (kubernetes-sigs/kwok): it makes
 * Nodes look alive (Ready condition, Lease heartbeats) and moves pods bound to them through a
 * plausible lifecycle: Pending -> Running and Ready, graceful deletion confirmed with a grace-0
 * delete, and, for pods whose command says so, completion or failure. It lets the controller
 * and scheduler tests run before (and independently of) the real node layer.
 *
 * Behaviour by container (test conventions, documented here and nowhere else):
 * - an image whose name contains `nonexistent` or `does-not-exist` never pulls: the container
 *   waits with `ErrImagePull`, then `ImagePullBackOff`, and the pod never becomes Ready;
 * - a command/args containing `exit N` ends after `runMs` with exit code N (0 -> Succeeded,
 *   else Failed for restartPolicy Never; OnFailure/Always restart it and count restartCount);
 * - image `perl...` (the Job example) exits 0 after `runMs`;
 * - anything else runs forever.
 * It is not the kubelet: no probes, no crash-loop backoff, no resources. The node layer's real
 * kubelet replaces it wherever those matter.
 */
import type { Clock, Timer } from '../clock';
import type { ApiServer } from '../api/server';
import { ApiError } from '../api/errors';
import type { KubeObject } from '../api/types';

/** Options of `FakeKubelet`. */
export interface FakeKubeletOptions {
  api: ApiServer;
  clock: Clock;
  /** Virtual ms from binding to Running/Ready. Default 1000. */
  startMs?: number;
  /** Virtual ms a `exit N` container runs. Default 2000. */
  runMs?: number;
  /** Virtual ms from a graceful delete to the kubelet's grace-0 confirmation. Default 1000. */
  terminateMs?: number;
  /** Lease renew / status heartbeat period. Default 10 s (kubelet defaults). */
  heartbeatMs?: number;
}

/** Quantities of a fake node. */
export interface FakeNodeSpec {
  name: string;
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
}

/** A Node object as a kind node registers itself (labels, capacity, Ready condition). */
export function makeNode(spec: FakeNodeSpec, nowIso: string): KubeObject {
  const capacity = { cpu: spec.cpu ?? '2', memory: spec.memory ?? '4Gi', pods: spec.pods ?? '110', 'ephemeral-storage': '100Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        ...(spec.labels ?? {}),
      },
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR: '10.244.0.0/24', ...(spec.taints ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
    status: {
      capacity,
      allocatable: capacity,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', nowIso),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', nowIso),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', nowIso),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', nowIso),
      ],
      addresses: [
        { type: 'InternalIP', address: '172.18.0.2' },
        { type: 'Hostname', address: spec.name },
      ],
      nodeInfo: {
        architecture: 'amd64',
        containerRuntimeVersion: 'containerd://2.1.1',
        kernelVersion: '6.8.0',
        kubeProxyVersion: '',
        kubeletVersion: 'v1.33.1',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
      },
    },
  };
}

function cond(type: string, status: string, reason: string, message: string, now: string) {
  return { type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now };
}

/** The conditions a healthy kubelet posts, by type (as `makeNode` registers them). */
function HEALTHY_CONDITIONS(now: string): Record<string, ReturnType<typeof cond>> {
  return {
    MemoryPressure: cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', now),
    DiskPressure: cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', now),
    PIDPressure: cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', now),
    Ready: cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', now),
  };
}

/** A private copy of a pod (watch objects are shared). */
function deepCopyPod(pod: KubeObject): KubeObject {
  return JSON.parse(JSON.stringify(pod)) as KubeObject;
}

/** The fake kubelets of every node (one object, polling the API on the clock like a kubelet's sync loop). */
export class FakeKubelet {
  private timers = new Map<string, Timer>();
  private heartbeat: Timer | undefined;
  private stoppedNodes = new Set<string>();
  private ipCounter = 2;
  private readonly startMs: number;
  private readonly runMs: number;
  private readonly terminateMs: number;
  private readonly heartbeatMs: number;
  private unwatch: (() => void) | undefined;

  constructor(private readonly o: FakeKubeletOptions) {
    this.startMs = o.startMs ?? 1000;
    this.runMs = o.runMs ?? 2000;
    this.terminateMs = o.terminateMs ?? 1000;
    this.heartbeatMs = o.heartbeatMs ?? 10_000;
  }

  /** Register nodes (creating Node objects) and start watching pods. */
  start(nodes: FakeNodeSpec[]): void {
    const { api, clock } = this.o;
    for (const n of nodes) {
      api.create(makeNode(n, clock.rfc3339()), { fieldManager: 'kubelet' });
      this.renewLease(n.name);
    }
    const h = api.watch('pods', {}, (ev) => {
      if (ev.type === 'ERROR') return;
      this.onPod(ev.type, ev.object);
    });
    this.unwatch = () => h.stop();
    const beat = () => {
      for (const n of api.list('nodes').items) {
        if (this.stoppedNodes.has(n.metadata.name!)) continue;
        this.safe(() => this.renewLease(n.metadata.name!));
      }
      this.heartbeat = clock.schedule(this.heartbeatMs, beat, { background: true, label: 'fake-kubelet heartbeat' });
    };
    this.heartbeat = clock.schedule(this.heartbeatMs, beat, { background: true, label: 'fake-kubelet heartbeat' });
  }

  /** Stop the kubelet of one node: no more heartbeats or pod work there (a dead kubelet). */
  stopNode(name: string): void {
    this.stoppedNodes.add(name);
  }

  /** Bring a node's kubelet back: heartbeats resume and Ready is posted again. */
  startNode(name: string): void {
    this.stoppedNodes.delete(name);
    this.safe(() => {
      this.renewLease(name);
      const n = this.o.api.get('nodes', undefined, name);
      const now = this.o.clock.rfc3339();
      // The kubelet posts its own view of every condition again, replacing the Unknown ones the
      // node-lifecycle-controller wrote while it was away (lastTransitionTime moves only when the
      // status changes).
      const healthy = HEALTHY_CONDITIONS(now);
      n.status.conditions = (n.status.conditions ?? []).map((c: { type: string; status: string; lastTransitionTime?: string }) => {
        const h = healthy[c.type];
        if (!h) return { ...c, lastHeartbeatTime: now };
        return h.status === c.status ? { ...h, lastTransitionTime: c.lastTransitionTime } : h;
      });
      this.o.api.updateStatus(n);
      for (const p of this.o.api.list('pods', { fieldSelector: `spec.nodeName=${name}` }).items) {
        this.onPod('MODIFIED', p);
        this.resyncReady(p);
      }
    });
  }

  /**
   * The kubelet's status manager after a restart: a running pod whose Ready condition someone
   * else set to False (the node-lifecycle-controller's MarkPodsNotReady while the node was
   * unreachable) gets the kubelet's own view, Ready=True, posted again.
   */
  private resyncReady(pod: KubeObject): void {
    if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Running') return;
    const running = (pod.status.containerStatuses ?? []).every((cs: { ready?: boolean }) => cs.ready);
    const conds: { type: string; status: string }[] = pod.status.conditions ?? [];
    if (!running || !conds.some((c) => c.type === 'Ready' && c.status === 'False')) return;
    const now = this.o.clock.rfc3339();
    const p = deepCopyPod(pod);
    p.status.conditions = conds.map((c) => (c.type === 'Ready' && c.status === 'False' ? { ...c, status: 'True', lastTransitionTime: now } : c));
    this.o.api.updateStatus(p);
  }

  /** Stop everything (test teardown). */
  stop(): void {
    this.unwatch?.();
    this.heartbeat?.cancel();
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  private renewLease(node: string): void {
    const { api, clock } = this.o;
    const renewTime = clock.rfc3339Micro();
    const cur = api.tryGet('leases', 'kube-node-lease', node);
    if (!cur) {
      api.create({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: node, namespace: 'kube-node-lease' },
        spec: { holderIdentity: node, leaseDurationSeconds: 40, renewTime },
      });
    } else {
      api.update({ ...cur, spec: { ...cur.spec, renewTime } });
    }
  }

  private safe(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
  }

  private later(key: string, ms: number, fn: () => void): void {
    this.timers.get(key)?.cancel();
    this.timers.set(
      key,
      this.o.clock.schedule(ms, () => {
        this.timers.delete(key);
        this.safe(fn);
      }, { label: `fake-kubelet ${key}` }),
    );
  }

  private onPod(type: string, pod: KubeObject): void {
    const node = pod.spec?.nodeName;
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (type === 'DELETED') {
      this.timers.get(key)?.cancel();
      this.timers.delete(key);
      return;
    }
    if (!node || this.stoppedNodes.has(node)) return;
    if (pod.metadata.deletionTimestamp) {
      if (!this.timers.has(`${key}#del`)) {
        const grace = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
        this.later(`${key}#del`, Math.min(grace, this.terminateMs), () => {
          this.o.api.delete('pods', pod.metadata.namespace, pod.metadata.name!, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
        });
      }
      return;
    }
    const phase = pod.status?.phase;
    if (phase === 'Pending' && !pod.status?.containerStatuses && !this.timers.has(key)) {
      this.later(key, this.startMs, () => this.startPod(pod.metadata.namespace!, pod.metadata.name!));
    }
  }

  private startPod(ns: string, name: string): void {
    const { api, clock } = this.o;
    // The stored pod, shallow-copied: only `status` is replaced below (performance only: no deep
    // copy per start; `get` still answers NotFound as before).
    const pod: KubeObject = { ...(api.tryGetShared('pods', ns, name) ?? api.get('pods', ns, name)) };
    if (pod.metadata.deletionTimestamp || !pod.spec.nodeName || this.stoppedNodes.has(pod.spec.nodeName)) return;
    const now = clock.rfc3339();
    const containers: { name: string; image: string; command?: string[]; args?: string[] }[] = pod.spec.containers ?? [];
    const badImage = containers.find((c) => /nonexistent|does-not-exist/.test(c.image));
    const ip = `10.244.${(this.ipCounter >> 8) & 255}.${this.ipCounter++ & 255}`;
    const scheduled = (pod.status.conditions ?? []).find((c: { type: string }) => c.type === 'PodScheduled');
    const conditions = (ready: boolean) => [
      { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      { type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now, ...(ready ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${containers.map((c) => c.name).join(' ')}]` }) },
      { type: 'ContainersReady', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: now, ...(ready ? {} : { reason: 'ContainersNotReady', message: `containers with unready status: [${containers.map((c) => c.name).join(' ')}]` }) },
      scheduled ?? { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now },
    ];
    if (badImage) {
      pod.status = {
        ...pod.status,
        phase: 'Pending',
        hostIP: '172.18.0.2',
        podIP: ip,
        startTime: now,
        conditions: conditions(false),
        containerStatuses: containers.map((c) => ({
          name: c.name,
          image: c.image,
          imageID: '',
          ready: false,
          restartCount: 0,
          started: false,
          state: { waiting: { reason: 'ErrImagePull', message: `failed to pull and unpack image "docker.io/library/${c.image}": not found` } },
        })),
      };
      api.updateStatus(pod, { sharedResult: true });
      this.later(`${ns}/${name}`, 5000, () => {
        const p = api.get('pods', ns, name);
        for (const cs of p.status.containerStatuses ?? []) cs.state = { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${cs.image}"` } };
        api.updateStatus(p);
      });
      return;
    }
    pod.status = {
      ...pod.status,
      phase: 'Running',
      hostIP: '172.18.0.2',
      hostIPs: [{ ip: '172.18.0.2' }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: now,
      conditions: conditions(true),
      containerStatuses: containers.map((c) => ({
        name: c.name,
        image: c.image,
        imageID: `docker.io/library/${c.image}@sha256:0000`,
        containerID: `containerd://${name}-${c.name}`,
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: now } },
      })),
    };
    api.updateStatus(pod, { sharedResult: true });
    const script = containers.map((c) => [...(c.command ?? []), ...(c.args ?? [])].join(' ')).join(';');
    const m = /exit (\d+)/.exec(script);
    const exitCode = m ? Number(m[1]) : containers.some((c) => c.image.startsWith('perl')) ? 0 : undefined;
    if (exitCode !== undefined) this.later(`${ns}/${name}`, this.runMs, () => this.finishPod(ns, name, exitCode));
  }

  private finishPod(ns: string, name: string, exitCode: number): void {
    const { api, clock } = this.o;
    const pod = api.get('pods', ns, name);
    if (pod.metadata.deletionTimestamp) return;
    const now = clock.rfc3339();
    const policy = pod.spec.restartPolicy ?? 'Always';
    const terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: pod.status.startTime, finishedAt: now };
    if (policy === 'Never' || (policy === 'OnFailure' && exitCode === 0)) {
      pod.status.phase = exitCode === 0 ? 'Succeeded' : 'Failed';
      pod.status.conditions = (pod.status.conditions ?? []).map((c: { type: string }) =>
        c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False', reason: 'PodCompleted', lastTransitionTime: now } : c,
      );
      for (const cs of pod.status.containerStatuses ?? []) {
        cs.ready = false;
        cs.started = false;
        cs.state = { terminated };
      }
      api.updateStatus(pod);
      return;
    }
    for (const cs of pod.status.containerStatuses ?? []) {
      cs.restartCount = (cs.restartCount ?? 0) + 1;
      cs.lastState = { terminated };
      cs.state = { running: { startedAt: now } };
    }
    api.updateStatus(pod);
    this.later(`${ns}/${name}`, this.runMs, () => this.finishPod(ns, name, exitCode));
  }
}
