/**
 * The pod status the kubelet computes from what the runtime reports: container states, the
 * pod phase, the kubelet-owned conditions, IPs and times.
 *
 * Mirrors:
 * - pkg/kubelet/kubelet_pods.go (`generateAPIPodStatus`, `convertToAPIContainerStatuses` with
 *   the reason cache turning a container that will be restarted into `waiting` with the last
 *   termination in `lastState`, `getPhase`);
 * - pkg/kubelet/status/generate.go (`GenerateContainersReadyCondition`, `GeneratePodReadyCondition`,
 *   `GeneratePodInitializedCondition`, `GeneratePodReadyToStartContainersCondition`: reasons
 *   `ContainersNotReady`, `ContainersNotInitialized`, `PodCompleted`, messages
 *   `containers with unready status: [a b]`, `containers with incomplete status: [init]`);
 * - pkg/kubelet/status/status_manager.go (`updateLastTransitionTime`, `mergePodStatus`: conditions
 *   the kubelet does not own, such as PodScheduled and DisruptionTarget, are kept; a terminal phase
 *   is never replaced by a non-terminal one; startTime is kept).
 *
 * Units: virtual ms for times; statuses carry RFC 3339 strings.
 */
import type { KubeObject } from '../../api/types';
import { qosClass } from '../../api/defaults';

/** A container as the runtime reports it (`kubecontainer.Status`). */
export interface RuntimeContainer {
  /** Container ID (64 hex). */
  id: string;
  name: string;
  state: 'created' | 'running' | 'exited' | 'unknown';
  /** Virtual ms. */
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  exitCode?: number;
  /** `Completed`, `Error`, `OOMKilled`, `ContainerCannotRun`, `StartError`. */
  reason?: string;
  message?: string;
  /** The image as the runtime names it (`docker.io/library/nginx:1.27`). */
  image: string;
  /** The image digest reference (`docker.io/library/nginx@sha256:...`). */
  imageRef: string;
  /** The restart count the kubelet stamped on the container (its attempt number). */
  restartCount: number;
  /** The pod's sandbox it belongs to. */
  sandboxId?: string;
  /** The container spec hash the kubelet stamped (`io.kubernetes.container.hash`). */
  hash?: string;
}

/** A pod sandbox as the runtime reports it. */
export interface RuntimeSandbox {
  id: string;
  ready: boolean;
  ip?: string;
  createdAt: number;
  attempt: number;
}

/** Everything the runtime knows about one pod (`kubecontainer.PodStatus`). */
export interface RuntimePodStatus {
  uid: string;
  name: string;
  namespace: string;
  /** Newest first. */
  sandboxes: RuntimeSandbox[];
  /** Newest first (by creation). */
  containers: RuntimeContainer[];
}

/** A cached start failure of a container (`reasonCache`): `ErrImagePull`, `CrashLoopBackOff`, ... */
export interface ReasonEntry {
  reason: string;
  message: string;
}

/** Probe-derived readiness and started flags of a running container. */
export interface ProbeView {
  /** `started`: startup probe succeeded, or the container has none. */
  started(containerName: string, containerId: string): boolean;
  /** `ready`: readiness probe succeeded, or the container has none. */
  ready(containerName: string, containerId: string): boolean;
}

/** Inputs of `generateAPIPodStatus`. */
export interface StatusInputs {
  pod: KubeObject;
  runtime: RuntimePodStatus;
  reasons: ReadonlyMap<string, ReasonEntry>;
  probes: ProbeView;
  /** The node's InternalIP (`status.hostIP`; also the pod IP of hostNetwork pods). */
  nodeIP: string;
  /** The pod will not run again (terminated, or being deleted and all containers stopped). */
  podIsTerminal: boolean;
  /** The status the kubelet (or the API) had before, for lastState, startTime and transitions. */
  oldStatus: Record<string, unknown> | undefined;
  /** RFC 3339 converter for virtual ms. */
  iso: (ms: number) => string;
  /** RFC 3339 now. */
  nowIso: string;
}

type Obj = Record<string, unknown>;

/** Marks a value `plainJsonCopy` cannot copy with JSON's rules by itself. */
const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

/**
 * `JSON.parse(JSON.stringify(v))` of an object or array, without the text in between
 * (performance only: every running container's status copies its spec's resources on every pod
 * sync). A tree of plain objects,
 * arrays, strings, finite numbers, booleans and null is copied field by field with JSON's rules
 * (an undefined, function or symbol field is left out, such an array element becomes null, a
 * non-finite number becomes null, -0 becomes 0, keys keep their order); a tree with anything
 * else (a `toJSON`, a class instance, a bigint) goes through JSON itself, whole. So the result
 * is JSON's for every acyclic input (an API object is never cyclic: a cycle would overflow the
 * stack here instead of JSON's TypeError).
 */
export function jsonClone(v: unknown): unknown {
  const out = plainJsonCopy(v);
  return out === NOT_PLAIN ? (JSON.parse(JSON.stringify(v)) as unknown) : out;
}

/** `jsonClone` of a plain tree, or NOT_PLAIN (undefined: what JSON.stringify leaves out). */
function plainJsonCopy(v: unknown): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype || 'toJSON' in v) return NOT_PLAIN;
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = plainJsonCopy(v[i]);
      if (x === NOT_PLAIN) return NOT_PLAIN;
      out[i] = x === undefined ? null : x;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in (v as object)) return NOT_PLAIN;
  const out: Obj = {};
  for (const k of Object.keys(v as object)) {
    const x = plainJsonCopy((v as Obj)[k]);
    if (x === NOT_PLAIN) return NOT_PLAIN;
    if (x !== undefined) out[k] = x;
  }
  return out;
}

function terminatedOf(c: RuntimeContainer, iso: (ms: number) => string): Obj {
  return {
    containerID: `containerd://${c.id}`,
    exitCode: c.exitCode ?? 0,
    finishedAt: iso(c.finishedAt ?? c.startedAt ?? c.createdAt),
    ...(c.message ? { message: c.message } : {}),
    reason: c.reason ?? ((c.exitCode ?? 0) === 0 ? 'Completed' : 'Error'),
    // A container whose start failed (StartError) never started: containerd's StartedAt is 0,
    // which the kubelet turns into time.Unix(0, 0) (kuberuntime_container.go
    // toKubeContainerStatus), so the status says 1970-01-01T00:00:00Z, as kubectl describe shows.
    startedAt: c.startedAt !== undefined ? iso(c.startedAt) : UNIX_EPOCH,
  };
}

/** `metav1.NewTime(time.Unix(0, 0))` as JSON. */
const UNIX_EPOCH = '1970-01-01T00:00:00Z';

/**
 * `ShouldContainerBeRestarted`: a container that is not running will be (re)started by the
 * next sync, given the restart policy and how it last ended.
 */
export function shouldContainerBeRestarted(pod: KubeObject, name: string, latest: RuntimeContainer | undefined, podDeleting: boolean): boolean {
  if (podDeleting) return false;
  if (!latest) return true;
  if (latest.state === 'running') return false;
  if (latest.state === 'created' || latest.state === 'unknown') return true;
  const policy = pod.spec?.restartPolicy ?? 'Always';
  if (policy === 'Never') return false;
  if (policy === 'OnFailure') return (latest.exitCode ?? 0) !== 0;
  void name;
  return true;
}

/**
 * `convertToAPIContainerStatuses` for one list (init or app containers): state from the newest
 * runtime container, lastState from the one before (or the cached reason's overwrite), restart
 * count, image, imageID, containerID, ready, started.
 */
function containerStatuses(inp: StatusInputs, specs: Obj[], isInit: boolean, hasInit: boolean): Obj[] {
  const oldList = (inp.oldStatus?.[isInit ? 'initContainerStatuses' : 'containerStatuses'] as Obj[] | undefined) ?? [];
  const deleting = !!inp.pod.metadata.deletionTimestamp;
  const out: Obj[] = [];
  for (const spec of specs) {
    const name = String(spec.name);
    // The newest and the second newest runtime container of this name (`runtime.containers`
    // is newest first): elements 0 and 1 of the kubelet's per-name list, found by a scan
    // instead of a map of lists per status (performance only).
    let latest: RuntimeContainer | undefined;
    let previous: RuntimeContainer | undefined;
    for (const c of inp.runtime.containers) {
      if (c.name !== name) continue;
      if (latest === undefined) latest = c;
      else {
        previous = c;
        break;
      }
    }
    const old = oldList.find((o) => o.name === name);
    // `state` holds its place in the key order; every branch below sets it (no placeholder
    // object per status; performance only).
    const st: Obj = { name, state: undefined, lastState: {}, ready: false, restartCount: 0, image: spec.image, imageID: '' };
    if (latest) {
      st.image = latest.image || spec.image;
      st.imageID = latest.imageRef;
      st.containerID = `containerd://${latest.id}`;
      st.restartCount = latest.restartCount;
      if (latest.state === 'running') st.state = { running: { startedAt: inp.iso(latest.startedAt ?? latest.createdAt) } };
      else if (latest.state === 'exited') st.state = { terminated: terminatedOf(latest, inp.iso) };
      else st.state = { waiting: { reason: 'ContainerCreating' } };
      if (previous && previous.state === 'exited') st.lastState = { terminated: terminatedOf(previous, inp.iso) };
      else if (old && (old.lastState as Obj | undefined)?.terminated && latest.restartCount > 0) st.lastState = old.lastState;
    } else {
      st.state = { waiting: { reason: hasInit ? 'PodInitializing' : 'ContainerCreating' } };
      // A container the runtime forgot (garbage-collected) keeps what the API knew.
      if (old && typeof old.restartCount === 'number') {
        st.restartCount = old.restartCount;
        if ((old.lastState as Obj | undefined)?.terminated) st.lastState = old.lastState;
        if ((old.state as Obj | undefined)?.terminated) st.state = old.state;
        if (old.containerID) st.containerID = old.containerID;
        if (old.imageID) st.imageID = old.imageID;
      }
    }
    // A container the next sync will (re)start shows the cached reason as `waiting`.
    const reason = inp.reasons.get(name);
    if (reason && shouldContainerBeRestarted(inp.pod, name, latest, deleting)) {
      const cur = st.state as Obj;
      if (cur.terminated) st.lastState = { terminated: cur.terminated };
      st.state = { waiting: { reason: reason.reason, ...(reason.message ? { message: reason.message } : {}) } };
    }
    const running = latest?.state === 'running';
    // (`running` implies `latest`.)
    st.started = running ? inp.probes.started(name, latest!.id) : false;
    st.ready = running && st.started === true ? inp.probes.ready(name, latest!.id) : false;
    // prober_manager.go UpdatePodStatus: a regular (non-restartable) init container is ready
    // only once it has terminated with exit code 0, never while it runs.
    if (isInit && spec.restartPolicy !== 'Always') {
      const t = (st.state as Obj).terminated as Obj | undefined;
      st.ready = t !== undefined && t.exitCode === 0;
    }
    const mounts = Array.isArray(spec.volumeMounts) ? (spec.volumeMounts as Obj[]) : [];
    if (mounts.length) {
      st.volumeMounts = mounts.map((m) => ({
        mountPath: m.mountPath,
        name: m.name,
        ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}),
      }));
    }
    const res = spec.resources as Obj | undefined;
    if (res && (res.requests || res.limits) && running) st.resources = jsonClone(res);
    // Field order as the API prints it (alphabetical in -o yaml anyway).
    out.push(st);
  }
  return out;
}

/**
 * `getPhase`: Pending / Running / Succeeded / Failed from the init and app container statuses.
 * Source: pkg/kubelet/kubelet_pods.go.
 */
export function getPhase(pod: KubeObject, init: Obj[], app: Obj[], podIsTerminal: boolean, podHasInitialized: boolean, isStatic: boolean): string {
  const spec = pod.spec ?? {};
  const policy = spec.restartPolicy ?? 'Always';
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') continue;
    const s = init.find((x) => x.name === c.name);
    const state = (s?.state ?? {}) as Obj;
    const last = (s?.lastState ?? {}) as Obj;
    if (!s) pendingInit++;
    else if (state.running) pendingInit++;
    else if (state.terminated) {
      if ((state.terminated as Obj).exitCode !== 0) failedInit++;
    } else if (state.waiting) {
      if (last.terminated) {
        if ((last.terminated as Obj).exitCode !== 0) failedInit++;
      } else pendingInit++;
    } else pendingInit++;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of spec.containers ?? []) {
    const s = app.find((x) => x.name === c.name);
    if (!s) {
      unknown++;
      continue;
    }
    const state = (s.state ?? {}) as Obj;
    const last = (s.lastState ?? {}) as Obj;
    if (state.running) running++;
    else if (state.terminated) {
      stopped++;
      if ((state.terminated as Obj).exitCode === 0) succeeded++;
    } else if (state.waiting) {
      if (last.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if ((pendingInit > 0 && !podHasInitialized) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal && !isStatic) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** A kubelet-owned pod condition. */
interface PodCondition {
  type: string;
  /** The pod's metadata.generation the condition was computed for (PodObservedGenerationTracking, GA in 1.35). */
  observedGeneration?: number;
  status: string;
  lastProbeTime: null;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
}

/** Condition types the kubelet owns (the rest come from the API object and are kept). */
export const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady'];

/**
 * A kubelet-owned condition; its lastTransitionTime is kept from `oldConds` while its status is
 * unchanged; `gen` is the pod's metadata.generation (its observedGeneration when > 0).
 */
function podCondition(oldConds: PodCondition[], nowIso: string, gen: number, type: string, status: boolean, reason?: string, message?: string): PodCondition {
  const prev = oldConds.find((c) => c.type === type);
  const s = status ? 'True' : 'False';
  const ltt = prev && prev.status === s && prev.lastTransitionTime ? prev.lastTransitionTime : nowIso;
  // `podutil.CalculatePodConditionObservedGeneration`: the pod's generation (0, omitted, for a
  // static pod, which has none). One literal per shape (memory: an object grown property by
  // property spills into an out-of-object store; 50,000 conditions in a 10k-pod cluster).
  const c: PodCondition = gen > 0 ? { type, observedGeneration: gen, status: s, lastProbeTime: null, lastTransitionTime: ltt } : { type, status: s, lastProbeTime: null, lastTransitionTime: ltt };
  // Added after the others, as the spreads of optional parts placed them (the same keys in the
  // same order, without a temporary object per part; performance only).
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/**
 * `generateAPIPodStatus`: the full status the kubelet wants the API to show. Conditions not
 * owned by the kubelet (PodScheduled, DisruptionTarget, readiness gates) are copied from the pod.
 */
export function generateAPIPodStatus(inp: StatusInputs, isStatic: boolean): Record<string, unknown> {
  const pod = inp.pod;
  const spec = pod.spec ?? {};
  const initSpecs: Obj[] = spec.initContainers ?? [];
  const appSpecs: Obj[] = spec.containers ?? [];
  const hasInit = initSpecs.length > 0;
  const init = containerStatuses(inp, initSpecs, true, hasInit);
  const app = containerStatuses(inp, appSpecs, false, hasInit);
  const old = inp.oldStatus ?? {};
  const oldConds: PodCondition[] = Array.isArray(old.conditions) ? (old.conditions as PodCondition[]) : [];
  // PodObservedGenerationTracking (GA in 1.35): the status and the kubelet's conditions say which
  // generation of the pod they were computed for (`CalculatePodStatusObservedGeneration`).
  const gen = Number(pod.metadata?.generation ?? 0) || 0;
  // Initialized: every regular init container terminated with 0.
  // (Loops instead of filter/map chains: the same lists with fewer temporaries; performance only.)
  const notInit: string[] = [];
  for (const c of initSpecs) {
    if (c.restartPolicy === 'Always') continue;
    const s = init.find((x) => x.name === c.name);
    const t = (s?.state as Obj | undefined)?.terminated as Obj | undefined;
    if (!(t && t.exitCode === 0)) notInit.push(String(c.name));
  }
  const oldInitialized = oldConds.find((c) => c.type === 'Initialized')?.status === 'True';
  const initialized = notInit.length === 0 || oldInitialized;
  const phase = getPhase(pod, init, app, inp.podIsTerminal, initialized, isStatic);
  const sandboxReady = inp.runtime.sandboxes[0]?.ready === true;
  const unready: string[] = [];
  for (const s of app) if (!s.ready) unready.push(String(s.name));
  const completed = phase === 'Succeeded';
  const containersReady = completed
    ? podCondition(oldConds, inp.nowIso, gen, 'ContainersReady', false, 'PodCompleted')
    : unready.length === 0
      ? podCondition(oldConds, inp.nowIso, gen, 'ContainersReady', true)
      : podCondition(oldConds, inp.nowIso, gen, 'ContainersReady', false, 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`);
  // Readiness gates: conditions named in spec.readinessGates must be True too.
  const gates: string[] = (spec.readinessGates ?? []).map((g: Obj) => String(g.conditionType));
  const missingGates = gates.filter((g) => (pod.status?.conditions ?? []).find((c: Obj) => c.type === g)?.status !== 'True');
  let ready: PodCondition;
  if (completed) ready = podCondition(oldConds, inp.nowIso, gen, 'Ready', false, 'PodCompleted');
  else if (unready.length) ready = podCondition(oldConds, inp.nowIso, gen, 'Ready', false, 'ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`);
  else if (missingGates.length) ready = podCondition(oldConds, inp.nowIso, gen, 'Ready', false, 'ReadinessGatesNotReady', `corresponding condition of pod readiness gate "${missingGates[0]}" does not exist.`);
  else ready = podCondition(oldConds, inp.nowIso, gen, 'Ready', true);
  const initCond =
    completed && notInit.length === 0
      ? podCondition(oldConds, inp.nowIso, gen, 'Initialized', true, hasInit ? 'PodCompleted' : undefined)
      : initialized
        ? podCondition(oldConds, inp.nowIso, gen, 'Initialized', true)
        : podCondition(oldConds, inp.nowIso, gen, 'Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: [${notInit.join(' ')}]`);
  const kubeletConds = [podCondition(oldConds, inp.nowIso, gen, 'PodReadyToStartContainers', sandboxReady), initCond, ready, containersReady];
  const apiConds: PodCondition[] = [];
  for (const c of (pod.status?.conditions ?? []) as PodCondition[]) {
    if (KUBELET_CONDITIONS.includes(c.type)) continue;
    // PodScheduled is the kubelet's too (kubetypes.PodConditionsByKubelet): it writes it True for
    // the pod it runs, with the pod's generation, keeping the transition time.
    apiConds.push(c.type === 'PodScheduled' && gen > 0 && c.observedGeneration !== gen ? withObservedGeneration(c, gen) : c);
  }
  const sandboxIP = inp.runtime.sandboxes.find((s) => s.ready && s.ip)?.ip ?? inp.runtime.sandboxes[0]?.ip;
  const podIP = spec.hostNetwork ? inp.nodeIP : (sandboxIP ?? (old.podIP as string | undefined));
  // Fields in the order of the object literal with spread optional parts it was (the same keys
  // in the same order, without a temporary object per part; performance only).
  const st: Record<string, unknown> = {};
  if (gen > 0) st.observedGeneration = gen;
  Object.assign(st, {
    phase,
    conditions: [...kubeletConds, ...apiConds],
    hostIP: inp.nodeIP,
    hostIPs: [{ ip: inp.nodeIP }],
  });
  if (podIP) {
    st.podIP = podIP;
    st.podIPs = [{ ip: podIP }];
  }
  st.startTime = (old.startTime as string | undefined) ?? inp.nowIso;
  if (hasInit) st.initContainerStatuses = init;
  st.containerStatuses = app;
  st.qosClass = (pod.status?.qosClass as string | undefined) ?? qosClass(pod);
  // A pod rejected or evicted keeps its reason/message (set by whoever set them).
  if (old.reason) st.reason = old.reason;
  if (old.message) st.message = old.message;
  return st;
}

/**
 * `mergePodStatus` + the status manager's guards: keep the conditions the kubelet does not own
 * from the API's current status, never move a terminal phase back, keep startTime.
 */
export function mergeWithApiStatus(apiStatus: Record<string, unknown> | undefined, next: Record<string, unknown>): Record<string, unknown> {
  const cur = apiStatus ?? {};
  const out: Record<string, unknown> = { ...next };
  const apiConds: PodCondition[] = Array.isArray(cur.conditions) ? (cur.conditions as PodCondition[]) : [];
  // The kubelet's own conditions (with an older equal transition kept), then the API's others:
  // one list built by loops (the same list as the filter/map/spread chain; performance only).
  const conds: PodCondition[] = [];
  for (const c of (next.conditions as PodCondition[]) ?? []) {
    if (!KUBELET_CONDITIONS.includes(c.type)) continue;
    const prev = apiConds.find((p) => p.type === c.type);
    conds.push(prev && prev.status === c.status && prev.lastTransitionTime && prev.lastTransitionTime < c.lastTransitionTime ? { ...c, lastTransitionTime: prev.lastTransitionTime } : c);
  }
  // PodScheduled as the kubelet wrote it (with its observedGeneration) replaces the API's.
  const scheduled = ((next.conditions as PodCondition[]) ?? []).find((c) => c.type === 'PodScheduled' && c.observedGeneration !== undefined);
  for (const c of apiConds) if (!KUBELET_CONDITIONS.includes(c.type)) conds.push(scheduled && c.type === 'PodScheduled' ? scheduled : c);
  out.conditions = conds;
  // `conditions` is omitempty: a rejected pod without any condition has none in its JSON.
  if (conds.length === 0) delete out.conditions;
  if (cur.startTime) out.startTime = cur.startTime;
  if (cur.qosClass) out.qosClass = cur.qosClass;
  if (isTerminalPhase(cur.phase) && !isTerminalPhase(next.phase)) out.phase = cur.phase;
  if (cur.nominatedNodeName) out.nominatedNodeName = cur.nominatedNodeName;
  if (cur.reason && !out.reason) out.reason = cur.reason;
  if (cur.message && !out.message) out.message = cur.message;
  return out;
}

/** `c` with `observedGeneration: gen`, in the Go struct's field order (after `type`). */
function withObservedGeneration(c: PodCondition, gen: number): PodCondition {
  const { type, observedGeneration: _ignored, ...rest } = c;
  void _ignored;
  return { type, observedGeneration: gen, ...rest };
}

/** Succeeded or Failed. */
function isTerminalPhase(p: unknown): boolean {
  return p === 'Succeeded' || p === 'Failed';
}
