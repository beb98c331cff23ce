/**
 * The kubelet's pod workers: one per pod UID, each syncing its pod towards the spec through the
 * CRI (sandbox, image pulls, init containers in order, app containers, restarts with crash-loop
 * backoff, liveness kills) and terminating it gracefully (preStop, the image's stop signal,
 * SIGKILL after the grace period) when it is deleted, removed or finished.
 *
 * Mirrors:
 * - pkg/kubelet/pod_workers.go (per-UID workers that are either syncing, terminating or
 *   terminated; an update arriving while a worker is busy is run right after it; `completeWork`
 *   requeues on error and at the resync interval; a static pod waits for an older static pod of
 *   the same full name to finish terminating);
 * - pkg/kubelet/kubelet.go (`SyncPod`: status first, then mirror pod, volumes, probes, then the
 *   runtime's SyncPod; `SyncTerminatingPod`, `SyncTerminatedPod`; `HandlePodCleanups`: orphaned
 *   containers are killed with a 1 s grace override, orphaned mirror pods deleted);
 * - pkg/kubelet/kuberuntime/kuberuntime_manager.go (`computePodActions`: new sandbox when there
 *   is none ready - `SandboxChanged` `Pod sandbox changed, it will be killed and re-created.`; the
 *   next init container; containers to start per restart policy; containers to kill for a failed
 *   liveness or startup probe or a changed definition);
 * - pkg/kubelet/kuberuntime/kuberuntime_container.go (`startContainer`: crash-loop backoff
 *   `doBackOff`, image, `Container created`, `Container started` (the 1.35+ wording);
 *   `killContainer`: `Stopping container <c>`, the preStop hook eats into the grace period, at
 *   least 2 s are left for the stop signal);
 * - pkg/kubelet/lifecycle/predicate.go (admission: `OutOfcpu`, `OutOfmemory`, `OutOfpods`,
 *   `NodeAffinity`);
 * - pkg/kubelet/active_deadline.go (`DeadlineExceeded`).
 *
 * Requeue timing (simulation choice, documented): after a sync that hit a crash-loop or
 * image-pull backoff the pod is synced again after at most 10 s (`backOffPeriod`) and exactly
 * when the backoff ends (as kubelet >= 1.35 does, PR #133066), without jitter, aligned to the
 * 1 s sync tick - so restarts follow the documented 10/20/40/80/160/300 s curve.
 *
 * Units: virtual ms; API fields in seconds where the API says so.
 */
import type { Clock, Rng, Timer } from '../../clock';
import { parseRfc3339 } from '../../clock';
import { flattenString } from '../../strings';
import type { ApiServer } from '../../api/server';
import { ApiError } from '../../api/errors';
import { deepEqual, type KubeObject } from '../../api/types';
import { parseQuantity, isValidQuantity } from '../../api/quantity';
import type { EventRecorder, InvolvedObject } from '../../client/events';
import { referenceTo } from '../../client/events';
import { fnv1a32, podMatchesNodeAffinity } from '../../controllers/util';
import type { FileSystem } from '../fs';
import { FsError } from '../fs';
import type { ContainerBrief, ContainerConfig, ContainerStatus, Containerd, PodSandboxStatus } from '../runtime';
import { CriError } from '../runtime';
import type { KubeletConfig } from './config';
import { ImageManager } from './images';
import { kubeletUserAgent, ProbeManager } from './probes';
import { StatusManager } from './statusmanager';
import type { ProbeView, ReasonEntry, RuntimeContainer, RuntimePodStatus } from './status';
import { KUBELET_CONDITIONS, generateAPIPodStatus, shouldContainerBeRestarted } from './status';
import { isMirrorPodOf, isStaticPod, mirrorPodFor } from './staticpods';
import { Backoff, formatPod, goDuration, podFullName, type KlogSeverity } from './util';
import { ObjectSource, PrepareError, base64Decode, cleanUpPodDir, containerEnv, containerMounts, expandArgs, memoryBytes, setUpVolumes, type VolumeMemo } from './volumes';

/**
 * The kubelet's `Created` / `Started` event messages (pkg/kubelet/kuberuntime/kuberuntime_container.go
 * `startContainer`). Kubelet 1.35+ (PR #134043, follow-up of #130471): `Container created` /
 * `Container started`, the container named only by the event's fieldPath; 1.33-1.34 said
 * `Created container: <c>` / `Started container <c>`.
 */
export const KUBELET_EVENT_CONTAINER_CREATED = 'Container created';
/** See KUBELET_EVENT_CONTAINER_CREATED. */
export const KUBELET_EVENT_CONTAINER_STARTED = 'Container started';

type Obj = Record<string, unknown>;

/** Crash-loop backoff start. Source: pkg/kubelet/kubelet.go (`backOffPeriod = 10s`). */
export const CRASHLOOP_BACKOFF_INITIAL_MS = 10_000;
/** Pod worker retry after a failed sync. Source: pkg/kubelet/kubelet.go (`backOffPeriod`). */
export const WORKER_BACKOFF_MS = 10_000;
/** The sync loop's tick. Source: pkg/kubelet/kubelet.go (`syncTicker := time.NewTicker(time.Second)`). */
export const SYNC_TICK_MS = 1000;
/** Minimum grace for the stop signal. Source: kuberuntime_container.go (`minimumGracePeriodInSeconds = 2`). */
export const MIN_GRACE_SECONDS = 2;
/** Container GC period. Source: pkg/kubelet/kubelet.go (`ContainerGCPeriod = time.Minute`). */
export const CONTAINER_GC_PERIOD_MS = 60_000;

/** Container events that also go to the trace (the timeline's "who did what and why"). */
const TRACED_REASONS = new Set(['Started', 'Killing', 'Failed', 'FailedPreStopHook', 'FailedPostStartHook']);

/** Container label and annotation keys the kubelet stamps (pkg/kubelet/kuberuntime/labels.go). */
export const LABELS = {
  podName: 'io.kubernetes.pod.name',
  podNamespace: 'io.kubernetes.pod.namespace',
  podUid: 'io.kubernetes.pod.uid',
  containerName: 'io.kubernetes.container.name',
  containerHash: 'io.kubernetes.container.hash',
  restartCount: 'io.kubernetes.container.restartCount',
  terminationGrace: 'io.kubernetes.pod.terminationGracePeriod',
} as const;

/** What the pod workers need from the kubelet process around them. */
export interface PodWorkersHost {
  clock: Clock;
  rng: Rng;
  nodeName: string;
  nodeIP: string;
  fs: FileSystem;
  /** The network-gated API client. */
  api: ApiServer;
  config: KubeletConfig;
  /** The kubelet's version (`v1.35.0`): its HTTP probes and lifecycle hooks send `kube-probe/1.35`, `kube-lifecycle/1.35`. */
  version: string;
  recorder: EventRecorder;
  /** The node's containerd (throws CriError while there is none / it is down). */
  cri(): Containerd;
  log(sev: KlogSeverity, file: string, msg: string, kv?: Record<string, unknown>): void;
  trace(message: string, pod?: KubeObject, kind?: 'info' | 'Normal' | 'Warning'): void;
  /** Services visible to pods (for service links), from the kubelet's informer. */
  services(namespace: string): KubeObject[];
  /** The API pod with this namespace/name from the kubelet's informer (mirror pods, statuses). */
  cachedPod(namespace: string, name: string): KubeObject | undefined;
  /** This node as the API has it (informer), for the mirror pods' owner and admission. */
  node(): KubeObject | undefined;
  /** The API pod source has synced at least once (orphans may be cleaned up). */
  sourcesReady(): boolean;
  /** Time the kubelet process started (virtual ms): the sync ticker's phase. */
  startedAt: number;
}

type WorkerState = 'sync' | 'terminating' | 'terminated';

interface Worker {
  uid: string;
  pod: KubeObject;
  fullName: string;
  isStatic: boolean;
  state: WorkerState;
  /** Gone from the kubelet's config (API DELETED, static file removed). */
  removed: boolean;
  working: boolean;
  pending: boolean;
  timer?: Timer;
  timerAt?: number;
  admitted: boolean;
  /** Grace period (s) decided when termination started. */
  graceSec?: number;
  /** Kill in progress: container IDs (created with the first kill: most pods never have one). */
  killing?: Set<string>;
  /** Why the pod is being terminated without deletion (rejected, deadline). */
  terminalReason?: { reason: string; message: string; rejected?: boolean };
  /** The exited container whose crash-loop backoff was last traced. */
  tracedExit?: string;
  /** The worker's run callback and sync label (built on its first dispatch; see `dispatch`). */
  fire?: () => void;
  syncLabel?: string;
  /** `activeDeadlineSeconds` expiry (virtual ms), when set. */
  deadlineAt?: number;
  /** What the pod's projected volumes were last written from (`setUpVolumes`; performance only). */
  volumeMemo?: VolumeMemo;
  /** Bumped whenever `pod` changes semantically (`podsDifferSemantically`: spec, labels, annotations, deletion). */
  specGen: number;
  /** Bumped whenever the pod's reason cache entries change. */
  reasonsGen: number;
  /** The inputs and result of the last full `computeStatus` (see there; performance only). */
  statusMemo?: StatusMemo;
}

/**
 * Everything `generateAPIPodStatus` read for a pod's last computed status, and the status the
 * status manager kept for it (see `PodWorkers.computeStatus`).
 */
interface StatusMemo {
  rps: RuntimePodStatus;
  specGen: number;
  /** The pod's metadata.generation (the status' observedGeneration). */
  generation: unknown;
  reasonsGen: number;
  probesVersion: number;
  conditions: unknown;
  qosClass: unknown;
  nodeIP: string;
  /** The status object the status manager holds for the pod after that computation. */
  stored: Record<string, unknown>;
}

/** The runtime and its record generations a pod's last runtime view was read at (`readRuntimePod`). */
interface RuntimeMemo {
  cri: Containerd;
  /** The pod's `podGeneration`. */
  generation: number | undefined;
  imageGeneration: number;
}

/**
 * True when the status conditions `a` and `b` (a pod's `status.conditions` at two times) agree
 * on everything `generateAPIPodStatus` reads from them for `pod`'s spec: the conditions the
 * kubelet does not own, in order, by value (copied into the status), and the status of the
 * condition each readiness gate names (the first of its type). The kubelet-owned conditions
 * come from the old status instead, so they may differ (performance only: the kubelet's own
 * status write echoes back with new kubelet conditions, which dropped the status memo).
 */
function sameConditionInputs(a: unknown, b: unknown, pod: KubeObject): boolean {
  if (a === b) return true;
  const la = a ?? [];
  const lb = b ?? [];
  if (!Array.isArray(la) || !Array.isArray(lb)) return deepEqual(a, b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < la.length && KUBELET_CONDITIONS.includes((la[i] as Obj | undefined)?.type as string)) i++;
    while (j < lb.length && KUBELET_CONDITIONS.includes((lb[j] as Obj | undefined)?.type as string)) j++;
    if (i === la.length || j === lb.length) break;
    if (!deepEqual(la[i], lb[j])) return false;
    i++;
    j++;
  }
  if (i !== la.length || j !== lb.length) return false;
  for (const g of (pod.spec?.readinessGates ?? []) as Obj[]) {
    const type = String(g.conditionType);
    const sa = (la as Obj[]).find((c) => c.type === type)?.status;
    const sb = (lb as Obj[]).find((c) => c.type === type)?.status;
    if (sa !== sb) return false;
  }
  return true;
}

/** The reasons of a pod that has none (never written to: `reason` creates a pod's own map). */
const NO_REASONS: ReadonlyMap<string, ReasonEntry> = new Map();

/** Outcome of one worker run. */
interface RunResult {
  /** The worker changed state: run again at once. */
  transition?: boolean;
  /** The sync failed: retry after this many ms (default WORKER_BACKOFF_MS). */
  retryMs?: number;
  error?: boolean;
}

/** Container spec plus whether it is an init container. */
interface SpecRef {
  spec: Obj;
  init: boolean;
}

/** The hash the kubelet stamps on a container (`HashContainer`, resources excluded). */
export function containerHash(spec: Obj): string {
  // Container specs come from the informer's cache and are never mutated (performance only:
  // every periodic sync hashes every container).
  let h = containerHashes.get(spec);
  if (h === undefined) {
    // `fnv1a32(canonicalJson({ ...spec } without resources))`, the hash fed piece by piece
    // (see `canonicalHash`) instead of building the text (performance only: every new pod
    // hashes its containers once, each spec its own object).
    let acc = fnv1a32('{');
    let first = true;
    for (const k of Object.keys(spec).sort()) {
      if (k === 'resources' || spec[k] === undefined) continue;
      acc = fnv1a32(`${first ? '' : ','}${JSON.stringify(k)}:`, acc);
      first = false;
      acc = canonicalHash(spec[k], acc);
    }
    h = fnv1a32('}', acc).toString(16);
    containerHashes.set(spec, h);
  }
  return h;
}

/**
 * `fnv1a32(canonicalJson(v), seed)` without the text: FNV-1a runs over a string's code units
 * one after another, so hashing the pieces in order from the running state (`fnv1a32(b,
 * fnv1a32(a))`) is hashing their concatenation. The pieces are `canonicalJson`'s: a leaf's
 * `JSON.stringify` (or `null`), `[` elements `,` `]` (an array hole, which `map` keeps and
 * `join` prints as nothing, adds nothing), `{` `"key":value` `,` `}` with the defined keys sorted.
 */
function canonicalHash(v: unknown, h: number): number {
  if (v === null || typeof v !== 'object') return fnv1a32(JSON.stringify(v) ?? 'null', h);
  if (Array.isArray(v)) {
    h = fnv1a32('[', h);
    for (let i = 0; i < v.length; i++) {
      if (i > 0) h = fnv1a32(',', h);
      if (i in v) h = canonicalHash(v[i], h);
    }
    return fnv1a32(']', h);
  }
  const o = v as Record<string, unknown>;
  h = fnv1a32('{', h);
  let first = true;
  for (const k of Object.keys(o).sort()) {
    if (o[k] === undefined) continue;
    h = fnv1a32(`${first ? '' : ','}${JSON.stringify(k)}:`, h);
    first = false;
    h = canonicalHash(o[k], h);
  }
  return fnv1a32('}', h);
}

/** `containerHash` by container spec object (specs are read-only once cached). */
const containerHashes = new WeakMap<Obj, string>();

/**
 * Carry the memoised container hashes of `old` over to `next` when their specs are structurally
 * equal (performance only: the kubelet's own status writes echo back as new pod objects with an
 * equal spec). `deepEqual` specs have the same canonical JSON (both ignore undefined fields and
 * key order), so the same hash.
 */
function inheritContainerHashes(old: KubeObject, next: KubeObject): void {
  for (const key of ['initContainers', 'containers'] as const) {
    const a = (old.spec?.[key] ?? []) as Obj[];
    const b = (next.spec?.[key] ?? []) as Obj[];
    for (let i = 0; i < a.length && i < b.length; i++) {
      const h = containerHashes.get(a[i]);
      if (h !== undefined && b[i] && typeof b[i] === 'object' && !containerHashes.has(b[i])) containerHashes.set(b[i], h);
    }
  }
}

/** Interned `spec.containers{NAME}` field paths (a few container names, millions of events). */
const fieldPaths = new Map<string, string>();
/** Most field paths kept in `fieldPaths` (cleared when full). */
const FIELD_PATHS_MAX = 4096;

/**
 * `spec.containers{NAME}` or `spec.initContainers{NAME}`, the fieldPath of a container's events
 * (pkg/kubelet/container/ref.go `GenerateContainerRef`): one string per name instead of one per
 * event (performance only: every kept Event holds its involvedObject).
 */
function containerFieldPath(init: boolean, name: string): string {
  const key = init ? `i${name}` : `c${name}`;
  let path = fieldPaths.get(key);
  if (path === undefined) {
    if (fieldPaths.size >= FIELD_PATHS_MAX) fieldPaths.clear();
    fieldPaths.set(key, (path = `spec.${init ? 'initContainers' : 'containers'}{${name}}`));
  }
  return path;
}

/** `podsDifferSemantically` (pkg/kubelet/config/config.go): spec, labels, annotations, deletion. */
export function podsDifferSemantically(a: KubeObject, b: KubeObject): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  return (
    !deepEqual(a.spec ?? null, b.spec ?? null) ||
    !deepEqual(ma.labels ?? {}, mb.labels ?? {}) ||
    !deepEqual(ma.annotations ?? {}, mb.annotations ?? {}) ||
    ma.deletionTimestamp !== mb.deletionTimestamp ||
    ma.deletionGracePeriodSeconds !== mb.deletionGracePeriodSeconds
  );
}

/** Pod-level grace period (s) for a kill: deletion grace, else the spec's, else 30. */
export function podGraceSeconds(pod: KubeObject): number {
  if (pod.metadata.deletionTimestamp && typeof pod.metadata.deletionGracePeriodSeconds === 'number') return pod.metadata.deletionGracePeriodSeconds;
  const g = pod.spec?.terminationGracePeriodSeconds;
  return typeof g === 'number' ? g : 30;
}

function millicores(q: unknown): number {
  if (q === undefined || q === null || !isValidQuantity(q)) return 0;
  return Math.ceil(parseQuantity(q as string | number) * 1000);
}

/** A pod's effective requests (cpu in millicores, memory in bytes): max(sum of containers, largest init). */
export function podRequests(pod: KubeObject): { cpu: number; memory: number } {
  const sum = { cpu: 0, memory: 0 };
  for (const c of (pod.spec?.containers ?? []) as Obj[]) {
    const r = ((c.resources as Obj | undefined)?.requests ?? {}) as Obj;
    sum.cpu += millicores(r.cpu);
    sum.memory += memoryBytes(r.memory) ?? 0;
  }
  for (const c of (pod.spec?.initContainers ?? []) as Obj[]) {
    const r = ((c.resources as Obj | undefined)?.requests ?? {}) as Obj;
    sum.cpu = Math.max(sum.cpu, millicores(r.cpu));
    sum.memory = Math.max(sum.memory, memoryBytes(r.memory) ?? 0);
  }
  return sum;
}

/** `podRequests` by pod spec object (see `requestsOf`). */
const specRequests = new WeakMap<object, { readonly cpu: number; readonly memory: number }>();

/**
 * `podRequests` of a pod the kubelet holds, memoised by its spec object (performance only:
 * admission sums the requests of every admitted pod of the node for each new pod). A pure
 * function of the spec, and the pod objects the kubelet holds (informer cache, parsed static
 * pod manifests) are never mutated, so the same spec object has the same requests. Read only.
 */
function requestsOf(pod: KubeObject): { readonly cpu: number; readonly memory: number } {
  const spec = pod.spec as object | undefined;
  if (!spec || typeof spec !== 'object') return podRequests(pod);
  let r = specRequests.get(spec);
  if (r === undefined) specRequests.set(spec, (r = podRequests(pod)));
  return r;
}

/** Registry hosts a pod has pull credentials for (its imagePullSecrets' `.dockerconfigjson` auths). */
function pullCredentials(api: ApiServer, pod: KubeObject, decode: (s: string) => string): string[] {
  const out: string[] = [];
  for (const ref of (pod.spec?.imagePullSecrets ?? []) as Obj[]) {
    let s: KubeObject | undefined;
    try {
      s = api.tryGet('secrets', pod.metadata.namespace, String(ref.name));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
    const raw = (s as Obj | undefined)?.data as Record<string, string> | undefined;
    const cfg = raw?.['.dockerconfigjson'] ?? raw?.['.dockercfg'];
    if (!cfg) continue;
    try {
      const j = JSON.parse(decode(cfg)) as { auths?: Record<string, unknown> };
      for (const host of Object.keys(j.auths ?? j)) {
        const h = host.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
        out.push(h === 'index.docker.io' ? 'docker.io' : h);
      }
    } catch {
      // A malformed pull secret gives no credentials (the kubelet logs and pulls anonymously).
    }
  }
  return out;
}

/** The first (latest) runtime container of that name (`rps.containers` order), if any. */
function latestContainer(rps: RuntimePodStatus, name: string): RuntimeContainer | undefined {
  return rps.containers.find((c) => c.name === name);
}

/** One pod's `ProbeView` over the probe manager (a class, not closures per status: performance only). */
class PodProbeView implements ProbeView {
  constructor(
    private readonly probes: ProbeManager,
    private readonly uid: string,
  ) {}

  started(name: string, id: string): boolean {
    return this.probes.started(this.uid, name, id);
  }

  ready(name: string, id: string): boolean {
    return this.probes.ready(this.uid, name, id);
  }
}

/**
 * All pod workers of one kubelet process, with the managers they share (image, probe,
 * status) and the in-memory caches a real kubelet loses on restart (reason cache, backoffs).
 */
export class PodWorkers {
  private workers = new Map<string, Worker>();
  /** Bumped whenever a UID joins or leaves `workers` (performance only: see `garbageCollect`). */
  private workerSetGen = 0;
  /**
   * Bumped whenever `known()` or `workerState` could answer differently: a worker added or
   * removed, its pod object replaced, its state changed (performance only: see `podsGeneration`).
   */
  private podsGen = 0;
  /**
   * The runtime, its record generation and `workerSetGen` when `garbageCollect` last removed
   * nothing (performance only: see there).
   */
  private gcIdle: { cri: Containerd; generation: number; workerSetGen: number } | undefined;
  private reasons = new Map<string, Map<string, ReasonEntry & { until?: number }>>();
  private readonly crashBackoff: Backoff;
  readonly images: ImageManager;
  readonly probes: ProbeManager;
  readonly status: StatusManager;
  private readonly objects: ObjectSource;
  /** Runtime view per pod UID from the last read (probes, logs). */
  private runtimeCache = new Map<string, RuntimePodStatus>();
  /**
   * Per pod UID, the runtime and generations its view in `runtimeCache` was read at
   * (`readRuntimePod`); one shared object per (runtime, generations) to keep the memory small.
   */
  private runtimeMemo = new Map<string, RuntimeMemo>();
  /** The `RuntimeMemo` of the latest read (shared by every pod read at it). */
  private lastRuntimeMemo: RuntimeMemo | undefined;
  /** Orphaned runtime pods being killed. */
  private orphansKilling = new Set<string>();
  private stopped = false;
  /** RFC 3339 of a virtual time (one function for every status computed; performance only). */
  private readonly iso = (ms: number): string => this.h.clock.rfc3339(ms);

  constructor(private readonly h: PodWorkersHost) {
    this.crashBackoff = new Backoff(CRASHLOOP_BACKOFF_INITIAL_MS, h.config.maxContainerRestartPeriodMs, () => h.clock.now());
    this.images = new ImageManager(h.clock, () => h.cri(), h.config.serializeImagePulls);
    this.objects = new ObjectSource(h.api);
    this.status = new StatusManager(h.clock, h.api, {
      log: (msg, kv) => h.log('I', 'status_manager.go:890', msg, kv),
      cached: (ns, name) => h.cachedPod(ns, name),
      onDeleted: (pod) => h.trace(`pod ${pod.metadata.namespace}/${pod.metadata.name} terminated: deleted from the API (grace 0)`, pod),
      // The status memo follows the status manager to the API's equal copy of its status (read
      // by value only), so it keeps no second copy alive.
      onShared: (uid, from, to) => {
        const m = this.workers.get(uid)?.statusMemo;
        if (m && m.stored === from) m.stored = to;
      },
    });
    this.probes = new ProbeManager({
      clock: h.clock,
      userAgent: kubeletUserAgent('probe', h.version),
      cri: () => h.cri(),
      view: (uid, name) => this.containerView(uid, name),
      pod: (uid) => this.workers.get(uid)?.pod,
      event: (pod, container, type, reason, message) => this.containerEvent(pod, container, type, reason, message),
      onKillNeeded: (uid) => this.dispatchUid(uid, 0),
      onStatusChange: (uid) => this.refreshStatus(uid),
    });
  }

  /** Start the status manager's loop. */
  start(): void {
    this.status.start();
  }

  /** The kubelet process died: forget everything, cancel every timer. */
  stop(): void {
    this.stopped = true;
    for (const w of this.workers.values()) w.timer?.cancel();
    this.workers.clear();
    this.podsGen++;
    this.images.stop();
    this.probes.stop();
    this.status.stop();
  }

  // ------------------------------------------------------------------ config in

  /** A pod (from the API or a static manifest) is desired on this node, or changed. */
  updatePod(pod: KubeObject): void {
    if (this.stopped) return;
    const uid = pod.metadata.uid!;
    let w = this.workers.get(uid);
    if (!w) {
      w = {
        uid,
        pod,
        fullName: podFullName(pod),
        isStatic: isStaticPod(pod),
        state: 'sync',
        removed: false,
        working: false,
        pending: false,
        admitted: false,
        specGen: 0,
        reasonsGen: 0,
      };
      this.workers.set(uid, w);
      this.workerSetGen++;
      this.podsGen++;
      const phase = pod.status?.phase;
      // A pod the API already shows as finished is not started again (e.g. after a kubelet restart).
      if (!w.isStatic && (phase === 'Succeeded' || phase === 'Failed')) {
        w.state = 'terminating';
        w.graceSec = podGraceSeconds(pod);
        w.admitted = true;
      }
      this.h.log('I', 'kubelet.go:2480', 'SyncLoop ADD', { source: w.isStatic ? 'file' : 'api', pods: [`${pod.metadata.namespace}/${pod.metadata.name}`] });
    } else {
      const old = w.pod;
      w.pod = pod;
      this.podsGen++;
      // Status-only changes (the kubelet's own writes echoing back) do not sync the pod
      // (config.go `checkAndUpdatePod`: only spec, labels, annotations and deletion matter).
      if (!podsDifferSemantically(old, pod)) {
        // The specs are deepEqual (podsDifferSemantically compares the whole spec).
        inheritContainerHashes(old, pod);
        this.refreshMemoConditions(w);
        return;
      }
      w.specGen++;
      if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) this.h.log('I', 'kubelet.go:2496', 'SyncLoop DELETE', { source: 'api', pods: [`${pod.metadata.namespace}/${pod.metadata.name}`] });
    }
    if (pod.metadata.deletionTimestamp && w.state === 'sync') this.beginTermination(w, podGraceSeconds(pod));
    else if (pod.metadata.deletionTimestamp && w.state === 'terminating' && w.graceSec !== undefined) {
      const g = podGraceSeconds(pod);
      if (g < w.graceSec) this.shortenGrace(w, g);
    }
    this.dispatch(w, 0, false);
  }

  /** A pod is gone from the kubelet's config (deleted from the API, manifest removed). */
  removePod(uid: string, forceGraceSec?: number): void {
    const w = this.workers.get(uid);
    if (!w) return;
    w.removed = true;
    this.h.log('I', 'kubelet.go:2502', 'SyncLoop REMOVE', { source: w.isStatic ? 'file' : 'api', pods: [`${w.pod.metadata.namespace}/${w.pod.metadata.name}`] });
    if (w.state === 'sync') this.beginTermination(w, forceGraceSec ?? podGraceSeconds(w.pod));
    else if (w.state === 'terminating' && forceGraceSec !== undefined && w.graceSec !== undefined && forceGraceSec < w.graceSec) this.shortenGrace(w, forceGraceSec);
    this.dispatch(w, 0, false);
  }

  /** The PLEG saw a container or sandbox of `uid` change. */
  onPlegEvent(uid: string): void {
    this.dispatchUid(uid, 0);
  }

  /** The mirror pod of a static pod changed or went away: sync the static pod (it recreates it). */
  onMirrorPodChange(fullName: string): void {
    for (const w of this.workers.values()) if (w.isStatic && w.fullName === fullName && w.state === 'sync') this.dispatch(w, 0, false);
  }

  /**
   * Static pods (running) whose mirror pod is missing in the API: sync them (housekeeping).
   * Returns true when the pass dispatched nothing and skipped no static pod for being at work:
   * every running static pod had its mirror pod (performance only: see the kubelet's housekeeping).
   */
  ensureMirrorPods(): boolean {
    let clean = true;
    for (const w of this.workers.values()) {
      if (!w.isStatic || w.state !== 'sync') continue;
      if (w.working) {
        clean = false;
        continue;
      }
      const m = this.h.cachedPod(w.pod.metadata.namespace!, w.pod.metadata.name!);
      if (!m || !isMirrorPodOf(m, w.pod) || m.metadata.deletionTimestamp) {
        clean = false;
        this.dispatch(w, 0, false);
      }
    }
    return clean;
  }

  /**
   * A number that changes whenever `known()` or `workerState(uid)` could answer differently than
   * before (a worker added or removed, its pod replaced, its state changed): equal numbers mean
   * the same pods in the same states. Performance only (the kubelet's mirror pod housekeeping).
   */
  podsGeneration(): number {
    return this.podsGen;
  }

  /** Pods the kubelet knows (for logs and the UI). */
  known(): KubeObject[] {
    return [...this.workers.values()].map((w) => w.pod);
  }

  /** The worker state of a pod UID (for tests and the UI). */
  workerState(uid: string): WorkerState | undefined {
    return this.workers.get(uid)?.state;
  }

  /** Find a known pod by namespace/name (static pods by their name). */
  podByName(ns: string, name: string): KubeObject | undefined {
    let found: KubeObject | undefined;
    for (const w of this.workers.values()) if (w.pod.metadata.namespace === ns && w.pod.metadata.name === name && (!found || w.state !== 'terminated')) found = w.pod;
    return found;
  }

  /**
   * Why a container of pod `uid` is waiting, from the kubelet's reason cache (`CrashLoopBackOff`
   * with `until` = virtual ms the back-off ends, `ErrImagePull`, `CreateContainerConfigError`, ...);
   * undefined when it is not waiting for a cached reason. Read-only, for the UI's supervision tree.
   */
  waitingReason(uid: string, container: string): { reason: string; message: string; until?: number } | undefined {
    const e = this.reasons.get(uid)?.get(container);
    return e ? { ...e } : undefined;
  }

  /** The last runtime view of a pod (containers newest first). */
  runtimeOf(uid: string): RuntimePodStatus | undefined {
    return this.runtimeCache.get(uid);
  }

  // ------------------------------------------------------------------ scheduling

  private dispatchUid(uid: string, delay: number): void {
    const w = this.workers.get(uid);
    if (w) this.dispatch(w, delay, false);
  }

  /** Run the worker after `delay` ms (0 = now, or right after its current run). */
  private dispatch(w: Worker, delay: number, background: boolean): void {
    if (this.stopped) return;
    if (w.working) {
      if (delay === 0) w.pending = true;
      return;
    }
    const now = this.h.clock.now();
    let at = now + delay;
    if (delay > 0) {
      // The sync ticker fires every second from the kubelet's start.
      const phase = this.h.startedAt;
      at = phase + Math.ceil((at - phase) / SYNC_TICK_MS) * SYNC_TICK_MS;
    }
    if (w.timer && w.timerAt !== undefined && w.timerAt <= at) return;
    w.timer?.cancel();
    w.timerAt = at;
    // One run callback and one (flat) label per worker, reused by every dispatch (performance
    // only: a pod's namespace/name never change, and each dispatch built both anew).
    w.fire ??= () => {
      w.timer = undefined;
      w.timerAt = undefined;
      this.run(w);
    };
    w.syncLabel ??= flattenString(`kubelet[${this.h.nodeName}]: sync ${w.pod.metadata.namespace}/${w.pod.metadata.name}`);
    w.timer = this.h.clock.scheduleAt(at, w.fire, { label: w.syncLabel, background });
  }

  private run(w: Worker): void {
    if (this.stopped || this.workers.get(w.uid) !== w) return;
    if (w.state === 'sync' && w.isStatic) {
      // A static pod waits until an older static pod of the same full name has terminated.
      for (const o of this.workers.values()) {
        if (o !== w && o.isStatic && o.fullName === w.fullName && o.state !== 'terminated') return;
      }
    }
    w.working = true;
    w.pending = false;
    const finish = (r: RunResult): void => this.completeWork(w, r);
    try {
      if (w.state === 'sync') this.syncPod(w, finish);
      else if (w.state === 'terminating') this.syncTerminatingPod(w, finish);
      else this.syncTerminatedPod(w, finish);
    } catch (e) {
      if (e instanceof CriError || e instanceof ApiError) {
        this.h.log('E', 'pod_workers.go:1301', 'Error syncing pod, skipping', { err: e.message, pod: `${w.pod.metadata.namespace}/${w.pod.metadata.name}`, podUID: w.uid });
        finish({ error: true });
        return;
      }
      throw e;
    }
  }

  private completeWork(w: Worker, r: RunResult): void {
    w.working = false;
    if (this.stopped || this.workers.get(w.uid) !== w) return;
    if (w.state === 'terminated' && w.removed) {
      this.finalize(w);
      return;
    }
    if (r.transition || w.pending) {
      this.dispatch(w, 0, false);
      return;
    }
    if (w.state === 'terminated') {
      // Wake a static pod of the same full name that waited for this one.
      if (w.isStatic) for (const o of this.workers.values()) if (o !== w && o.isStatic && o.fullName === w.fullName && o.state === 'sync') this.dispatch(o, 0, false);
      return;
    }
    let delay = r.error ? Math.max(0, r.retryMs ?? WORKER_BACKOFF_MS) : this.h.config.syncFrequencyMs;
    // activeDeadlineSeconds: be back exactly when the deadline passes.
    if (w.deadlineAt !== undefined && w.deadlineAt - this.h.clock.now() < delay) delay = Math.max(0, w.deadlineAt - this.h.clock.now());
    this.dispatch(w, delay, true);
  }

  /** The pod is gone and its containers stopped: forget it. */
  private finalize(w: Worker): void {
    w.timer?.cancel();
    this.workers.delete(w.uid);
    this.workerSetGen++;
    this.podsGen++;
    this.probes.removePod(w.uid);
    // The worker's status memo goes with the probe counter it recorded (see `forgetPod`).
    w.statusMemo = undefined;
    this.probes.forgetPod(w.uid);
    this.status.remove(w.uid);
    this.reasons.delete(w.uid);
    this.runtimeCache.delete(w.uid);
    this.runtimeMemo.delete(w.uid);
    cleanUpPodDir(this.h.fs, w.uid);
    if (w.isStatic) for (const o of this.workers.values()) if (o.isStatic && o.fullName === w.fullName && o.state === 'sync') this.dispatch(o, 0, false);
  }

  private beginTermination(w: Worker, graceSec: number): void {
    w.state = 'terminating';
    this.podsGen++;
    w.graceSec = graceSec;
  }

  private shortenGrace(w: Worker, graceSec: number): void {
    w.graceSec = graceSec;
    // Containers already stopping get their SIGKILL after the (minimum) shorter grace.
    const ids = [...(w.killing ?? [])];
    if (!ids.length) return;
    const after = Math.max(graceSec, MIN_GRACE_SECONDS) * 1000;
    this.h.clock.schedule(after, () => {
      if (this.stopped) return;
      for (const id of ids) {
        try {
          this.h.cri().stopContainer(id, 0);
        } catch (e) {
          if (!(e instanceof CriError)) throw e;
        }
      }
    }, { label: 'kubelet: shortened grace period' });
  }

  // ------------------------------------------------------------------ runtime view

  /** `GetPodStatus`: the pod's sandboxes and containers from containerd (throws CriError). */
  readRuntimePod(uid: string, pod: KubeObject): RuntimePodStatus {
    const cri = this.h.cri();
    // Reuse the last view while this pod's records are unchanged (performance only): every
    // field read below changes only together with a change of the pod's `podGeneration`
    // (creation, removal and state changes of its sandboxes and containers; exit codes, times,
    // reasons and the sandbox IP's release are set in the same steps) or of `imageGeneration`
    // (an image's digests, which give `imageRef`); other pods' changes leave it. The name and
    // namespace come from the pod's metadata, fixed for its UID. Nothing changes a returned view.
    const generation = cri.podGeneration(uid);
    const imageGeneration = cri.imageGeneration();
    const memo = this.runtimeMemo.get(uid);
    const cached = this.runtimeCache.get(uid);
    if (memo && cached && memo.cri === cri && memo.generation === generation && memo.imageGeneration === imageGeneration && cached.name === pod.metadata.name && cached.namespace === pod.metadata.namespace) return cached;
    // ListPodSandbox and ListContainers with the pod UID label selector (kuberuntime_container.go
    // getPodContainerStatuses), only the fields read here (`podRuntimeRecords`).
    const { sandboxes, containers } = cri.podRuntimeRecords(uid);
    const rps: RuntimePodStatus = {
      uid,
      name: pod.metadata.name!,
      namespace: pod.metadata.namespace!,
      sandboxes: sandboxes.map((s) => ({ id: s.id, ready: s.state === 'SANDBOX_READY', ip: s.ip || undefined, createdAt: s.createdAt, attempt: s.attempt })),
      containers: containers.map(toRuntimeContainer),
    };
    this.runtimeCache.set(uid, rps);
    let m = this.lastRuntimeMemo;
    if (!m || m.cri !== cri || m.generation !== generation || m.imageGeneration !== imageGeneration) this.lastRuntimeMemo = m = { cri, generation, imageGeneration };
    this.runtimeMemo.set(uid, m);
    return rps;
  }

  private containerView(uid: string, name: string): { id?: string; running: boolean; startedAt?: number; finished?: boolean } | undefined {
    const w = this.workers.get(uid);
    const rps = this.runtimeCache.get(uid);
    if (!w || !rps) return undefined;
    // The first container of that name, as `rps.containers.find` finds it, by a loop (no
    // predicate closure per probe; performance only).
    let latest: RuntimeContainer | undefined;
    for (const c of rps.containers) {
      if (c.name === name) {
        latest = c;
        break;
      }
    }
    if (!latest) return { running: false };
    const running = latest.state === 'running';
    return {
      id: latest.id,
      running,
      startedAt: latest.startedAt,
      finished: !running && !shouldContainerBeRestarted(w.pod, name, latest, !!w.pod.metadata.deletionTimestamp),
    };
  }

  private reasonsOf(uid: string): Map<string, ReasonEntry & { until?: number }> {
    let m = this.reasons.get(uid);
    if (!m) {
      m = new Map();
      this.reasons.set(uid, m);
    }
    return m;
  }

  /**
   * A status-only pod update arrived: the status memo's `conditions` (only ever compared with
   * the pod's by value, see `computeStatus`) move to the new pod's equal conditions, or, when
   * they differ, the memo is dropped. Performance only: a dropped memo means a full
   * computation, which gives the status the memo would have (see `computeStatus`), and with
   * different conditions the next `computeStatus` would not use this memo anyway unless the
   * conditions changed back. Either way the memo stops holding an older pod's conditions (the
   * kubelet's own status writes echo back as new pod objects; ~3 MB at 10k pods).
   */
  private refreshMemoConditions(w: Worker): void {
    const m = w.statusMemo;
    const now = w.pod.status?.conditions;
    if (!m || m.conditions === now) return;
    if (sameConditionInputs(m.conditions, now, w.pod)) m.conditions = now;
    else w.statusMemo = undefined;
  }

  /** Compute and record the pod's status from a runtime view. */
  private computeStatus(w: Worker, rps: RuntimePodStatus, podIsTerminal: boolean): Record<string, unknown> {
    const pod = w.pod;
    const kept = this.status.get(w.uid);
    const probesVersion = this.probes.answersVersion(w.uid);
    // The reuse, and why it changes nothing. `generateAPIPodStatus` reads: the runtime view
    // (the same object: `readRuntimePod` returns a new one whenever the runtime changed), the
    // pod's spec and deletion (unchanged while `specGen` is) and generation, of its status conditions the ones
    // the kubelet does not own and the readiness gates' (compared: `sameConditionInputs`) and
    // its QoS class (compared), the reason cache (`reasonsGen`), the probe answers (`answersVersion`:
    // same answers, and no probe run by asking), the node IP, `podIsTerminal` (false both times)
    // and the old status, which is (by value: the status manager may since hold the API's
    // stored copy instead) the status the last computation left in the status manager.
    // With those inputs the computation is a fixed point: a status computed from its own output
    // keeps every condition's lastTransitionTime, startTime, podIP, lastState and reason (they
    // come from the old status only when the inputs give the same value), so it would
    // deepEqual `stored`, and `StatusManager.set` would keep `stored`. The clock's time only
    // enters a condition that changes or a missing startTime, neither possible here.
    const m = w.statusMemo;
    if (
      m &&
      !podIsTerminal &&
      !w.terminalReason &&
      kept !== undefined &&
      (kept === m.stored || deepEqual(kept, m.stored)) &&
      m.rps === rps &&
      m.specGen === w.specGen &&
      m.generation === pod.metadata.generation &&
      m.reasonsGen === w.reasonsGen &&
      m.probesVersion === probesVersion &&
      m.nodeIP === this.h.nodeIP &&
      m.qosClass === pod.status?.qosClass &&
      sameConditionInputs(m.conditions, pod.status?.conditions, pod)
    ) {
      m.conditions = pod.status?.conditions;
      // (The status manager may hold the API's stored copy of the status instead of ours:
      // equal by value, which is all the computation reads of it.)
      m.stored = kept;
      this.status.set(pod, kept, w.isStatic);
      return kept;
    }
    w.statusMemo = undefined;
    const old = kept ?? (w.isStatic ? this.h.cachedPod(pod.metadata.namespace!, pod.metadata.name!)?.status : pod.status);
    const st = generateAPIPodStatus(
      {
        pod,
        runtime: rps,
        // Read-only here: a pod without reasons shares one empty map (performance only).
        reasons: this.reasons.get(w.uid) ?? NO_REASONS,
        probes: new PodProbeView(this.probes, w.uid),
        nodeIP: this.h.nodeIP,
        podIsTerminal,
        oldStatus: old,
        iso: this.iso,
        nowIso: this.h.clock.rfc3339(),
      },
      w.isStatic,
    );
    if (w.terminalReason?.rejected) {
      // `rejectPod` (kubelet.go): the status is only phase, reason, message and QoS class; a
      // rejected pod never reaches the pod workers, so it has no container statuses or kubelet
      // conditions (kubectl shows STATUS = the reason, READY 0/N).
      for (const k of Object.keys(st)) if (k !== 'qosClass') delete st[k];
    }
    if (w.terminalReason) {
      st.phase = 'Failed';
      st.reason = w.terminalReason.reason;
      st.message = w.terminalReason.message;
    }
    // The status manager keeps the last status (`status.get`); the worker keeps no copy of its
    // own (it was never read, and a periodic sync's fresh, equal status object per pod was a
    // tenth of a 10k-pod cluster's heap).
    this.status.set(pod, st, w.isStatic);
    const stored = this.status.get(w.uid);
    if (!podIsTerminal && !w.terminalReason && stored !== undefined) {
      w.statusMemo = { rps, specGen: w.specGen, generation: pod.metadata.generation, reasonsGen: w.reasonsGen, probesVersion, conditions: pod.status?.conditions, qosClass: pod.status?.qosClass, nodeIP: this.h.nodeIP, stored };
    }
    return st;
  }

  /** A probe result changed: recompute the status from the runtime (no container actions). */
  private refreshStatus(uid: string): void {
    const w = this.workers.get(uid);
    if (!w || w.state !== 'sync' || this.stopped) return;
    try {
      const rps = this.readRuntimePod(uid, w.pod);
      this.computeStatus(w, rps, false);
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
    }
  }

  // ------------------------------------------------------------------ events

  private ref(pod: KubeObject, container?: string, init?: boolean): InvolvedObject {
    if (!container) return referenceTo(pod);
    const isInit = init ?? ((pod.spec?.initContainers ?? []) as Obj[]).some((c) => c.name === container);
    return referenceTo(pod, containerFieldPath(isInit, container));
  }

  private containerEvent(pod: KubeObject, container: string, type: 'Normal' | 'Warning', reason: string, message: string, init?: boolean): void {
    const ref = this.ref(pod, container, init);
    this.h.recorder.event(ref, type, reason, message);
    // The timeline gets the decisions, not every repeated event (events have their own view).
    // `Container created` / `Container started` name no container (1.35+): the timeline line
    // carries the fieldPath before them, as kubectl 1.35+ describe prints them.
    const named = message === KUBELET_EVENT_CONTAINER_CREATED || message === KUBELET_EVENT_CONTAINER_STARTED ? `${ref.fieldPath ?? container}: ${message}` : message;
    if (TRACED_REASONS.has(reason) && !message.startsWith('Error: ')) this.h.trace(`${pod.metadata.namespace}/${pod.metadata.name}: ${named}`, pod, type);
  }

  private podEvent(pod: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.h.recorder.event(this.ref(pod), type, reason, message);
    this.h.trace(`${pod.metadata.namespace}/${pod.metadata.name}: ${reason}: ${message}`, pod, type);
  }

  // ------------------------------------------------------------------ SyncPod

  private syncPod(w: Worker, done: (r: RunResult) => void): void {
    const pod = w.pod;
    const uid = w.uid;
    const rps = this.readRuntimePod(uid, pod);
    // Admission, once per worker (static pods are always admitted).
    if (!w.admitted) {
      const rejection = w.isStatic ? undefined : this.admit(w);
      w.admitted = true;
      if (rejection) {
        w.terminalReason = { reason: rejection.reason, message: `Pod was rejected: ${rejection.message}`, rejected: true };
        this.podEvent(pod, 'Warning', rejection.reason, rejection.message);
        this.h.log('I', 'kubelet.go:2348', 'Pod admission denied', { podUID: uid, pod: `${pod.metadata.namespace}/${pod.metadata.name}`, reason: rejection.reason, message: rejection.message });
        this.beginTermination(w, podGraceSeconds(pod));
        done({ transition: true });
        return;
      }
    }
    const status = this.computeStatus(w, rps, false);
    const phase = status.phase;
    if (!w.isStatic && (phase === 'Succeeded' || phase === 'Failed')) {
      this.h.trace(`pod ${pod.metadata.namespace}/${pod.metadata.name} finished: ${String(phase)}`, pod);
      this.beginTermination(w, podGraceSeconds(pod));
      done({ transition: true });
      return;
    }
    // activeDeadlineSeconds (pkg/kubelet/active_deadline.go).
    const ads = pod.spec?.activeDeadlineSeconds;
    if (typeof ads === 'number' && typeof status.startTime === 'string') {
      const start = this.parseIso(status.startTime);
      const deadline = start + ads * 1000;
      if (this.h.clock.now() >= deadline) {
        const message = 'Pod was active on the node longer than the specified deadline';
        w.terminalReason = { reason: 'DeadlineExceeded', message };
        this.podEvent(pod, 'Warning', 'DeadlineExceeded', message);
        this.beginTermination(w, podGraceSeconds(pod));
        done({ transition: true });
        return;
      }
    }
    if (w.isStatic) this.syncMirrorPod(w);
    // Volumes (pkg/kubelet/volumemanager): content on the node's disk.
    const sandbox0 = rps.sandboxes[0];
    const facts = { pod, nodeName: this.h.nodeName, nodeIP: this.h.nodeIP, podIP: sandbox0?.ip };
    let volumes;
    try {
      volumes = setUpVolumes(this.h.fs, facts, this.objects, this.h.api, (w.volumeMemo ??= { list: [] }), w.specGen);
    } catch (e) {
      if (e instanceof PrepareError) {
        this.podEvent(pod, 'Warning', 'FailedMount', e.message);
        done({ error: true });
        return;
      }
      if (e instanceof ApiError) {
        done({ error: true });
        return;
      }
      if (e instanceof FsError) {
        this.podEvent(pod, 'Warning', 'FailedMount', `MountVolume.SetUp failed: ${e.message}`);
        done({ error: true });
        return;
      }
      throw e;
    }
    this.probes.addPod(pod);
    w.deadlineAt = typeof ads === 'number' && typeof status.startTime === 'string' ? this.parseIso(status.startTime) + ads * 1000 : undefined;
    this.runtimeSync(w, rps, volumes, done);
  }

  private parseIso(s: string): number {
    const t = parseRfc3339(s);
    return Number.isNaN(t) ? this.h.clock.now() : t - this.h.clock.epochMs;
  }

  /** `canAdmitPod`: node affinity, NoExecute taints, resources, pod count. */
  private admit(w: Worker): { reason: string; message: string } | undefined {
    const pod = w.pod;
    const node = this.h.node();
    if (node && !podMatchesNodeAffinity(pod.spec, node)) return { reason: 'NodeAffinity', message: 'Predicate NodeAffinity failed' };
    const taints: Obj[] = node?.spec?.taints ?? [];
    const tols: Obj[] = pod.spec?.tolerations ?? [];
    for (const t of taints) {
      if (t.effect !== 'NoExecute') continue;
      const ok = tols.some((tol) => (!tol.effect || tol.effect === t.effect) && (!tol.key ? tol.operator === 'Exists' : tol.key === t.key) && (tol.operator === 'Exists' || (tol.value ?? '') === (t.value ?? '')));
      if (!ok) return { reason: 'TaintToleration', message: 'Predicate TaintToleration failed' };
    }
    const alloc = (node?.status?.allocatable ?? {}) as Obj;
    const active = [...this.workers.values()].filter((o) => o !== w && o.admitted && o.state !== 'terminated' && !o.terminalReason);
    if (alloc.pods !== undefined && active.length + 1 > Number(alloc.pods)) {
      return { reason: 'OutOfpods', message: `Node didn't have enough resource: pods, requested: 1, used: ${active.length}, capacity: ${String(alloc.pods)}` };
    }
    const want = requestsOf(pod);
    const used = active.reduce((a, o) => {
      const r = requestsOf(o.pod);
      return { cpu: a.cpu + r.cpu, memory: a.memory + r.memory };
    }, { cpu: 0, memory: 0 });
    const capCpu = alloc.cpu !== undefined ? millicores(alloc.cpu) : Infinity;
    const capMem = alloc.memory !== undefined ? (memoryBytes(alloc.memory) ?? Infinity) : Infinity;
    if (want.cpu > 0 && used.cpu + want.cpu > capCpu) return { reason: 'OutOfcpu', message: `Node didn't have enough resource: cpu, requested: ${want.cpu}, used: ${used.cpu}, capacity: ${capCpu}` };
    if (want.memory > 0 && used.memory + want.memory > capMem) return { reason: 'OutOfmemory', message: `Node didn't have enough resource: memory, requested: ${want.memory}, used: ${used.memory}, capacity: ${capMem}` };
    return undefined;
  }

  /** Keep the static pod's mirror pod in the API (`SyncPod`, kubelet.go). API errors are logged. */
  private syncMirrorPod(w: Worker): void {
    const pod = w.pod;
    const ns = pod.metadata.namespace!;
    const name = pod.metadata.name!;
    try {
      const mirror = this.h.cachedPod(ns, name) ?? this.h.api.tryGet('pods', ns, name);
      let deleted = false;
      if (mirror && (mirror.metadata.deletionTimestamp || !isMirrorPodOf(mirror, pod))) {
        this.h.log('I', 'kubelet.go:1960', 'Trying to delete pod', { pod: `${ns}/${name}`, podUID: mirror.metadata.uid });
        try {
          this.h.api.delete('pods', ns, name, { gracePeriodSeconds: 0, preconditions: { uid: mirror.metadata.uid }, fieldManager: 'kubelet' });
          deleted = true;
          this.h.log('I', 'kubelet.go:1966', 'Deleted mirror pod because it is outdated', { pod: `${ns}/${name}` });
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          if (e.code === 404) deleted = true;
          else throw e;
        }
      }
      if (!mirror || deleted) {
        const node = this.h.node() ?? this.h.api.tryGet('nodes', undefined, this.h.nodeName);
        if (!node) {
          this.h.log('I', 'kubelet.go:1975', 'No need to create a mirror pod, since failed to get node info from the cluster', { node: this.h.nodeName });
          return;
        }
        if (node.metadata.deletionTimestamp) return;
        try {
          this.h.api.create(mirrorPodFor(pod, this.h.nodeName, node.metadata.uid!), { fieldManager: 'kubelet' });
          this.status.resync(w.uid);
          this.h.trace(`created mirror pod ${ns}/${name} for static pod (config hash ${pod.metadata.uid})`, pod);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          if (e.code !== 409) this.h.log('E', 'kubelet.go:1984', 'Failed creating a mirror pod', { err: e.message, pod: `${ns}/${name}` });
        }
      }
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.h.log('E', 'kubelet.go:1984', 'Failed creating a mirror pod', { err: e.message, pod: `${ns}/${name}` });
    }
  }

  /** The runtime half of SyncPod (`kubeGenericRuntimeManager.SyncPod`). */
  private runtimeSync(w: Worker, rps: RuntimePodStatus, volumes: ReturnType<typeof setUpVolumes>, done: (r: RunResult) => void): void {
    const pod = w.pod;
    const policy: string = pod.spec?.restartPolicy ?? 'Always';
    const sandbox = rps.sandboxes[0];
    const createSandbox = !sandbox || !sandbox.ready;
    const toKill: { c: RuntimeContainer; spec: Obj; message: string; grace: number }[] = [];
    const toStart: SpecRef[] = [];
    const initSpecs: Obj[] = pod.spec?.initContainers ?? [];
    const appSpecs: Obj[] = pod.spec?.containers ?? [];
    if (createSandbox) {
      if (sandbox && policy === 'Never' && rps.containers.length > 0) {
        // The pod ran and must not restart: nothing to do.
        done({});
        return;
      }
      if (sandbox) this.podEvent(pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
      for (const c of rps.containers) if (c.state === 'running') toKill.push({ c, spec: {}, message: '', grace: podGraceSeconds(pod) });
      const firstInit = initSpecs[0];
      if (firstInit) toStart.push({ spec: firstInit, init: true });
      else {
        for (const s of appSpecs) {
          const latest = latestContainer(rps, String(s.name));
          if (policy === 'OnFailure' && latest?.state === 'exited' && latest.exitCode === 0) continue;
          toStart.push({ spec: s, init: false });
        }
      }
    } else {
      // Init containers, in order.
      let initDone = true;
      for (const s of initSpecs) {
        const latest = latestContainer(rps, String(s.name));
        if (s.restartPolicy === 'Always') {
          // A sidecar: started in order, then kept running.
          if (!latest || latest.state !== 'running') {
            toStart.push({ spec: s, init: true });
            initDone = false;
            break;
          }
          continue;
        }
        if (!latest) {
          toStart.push({ spec: s, init: true });
          initDone = false;
          break;
        }
        if (latest.state === 'running' || latest.state === 'created') {
          initDone = false;
          break;
        }
        if (latest.state === 'exited' && latest.exitCode === 0) continue;
        initDone = false;
        if (policy !== 'Never') toStart.push({ spec: s, init: true });
        break;
      }
      if (initDone) {
        for (const s of appSpecs) {
          const name = String(s.name);
          const latest = latestContainer(rps, name);
          if (!latest || latest.state !== 'running') {
            if (shouldContainerBeRestarted(pod, name, latest, false)) toStart.push({ spec: s, init: false });
            continue;
          }
          let message = '';
          let grace = podGraceSeconds(pod);
          const hash = latest.hash;
          if (this.probes.result('liveness', latest.id) === 'failure') {
            message = `Container ${name} failed liveness probe`;
            const pg = (s.livenessProbe as Obj | undefined)?.terminationGracePeriodSeconds;
            if (typeof pg === 'number') grace = pg;
          } else if (this.probes.result('startup', latest.id) === 'failure') {
            message = `Container ${name} failed startup probe`;
            const pg = (s.startupProbe as Obj | undefined)?.terminationGracePeriodSeconds;
            if (typeof pg === 'number') grace = pg;
          } else if (hash && hash !== containerHash(s)) {
            message = `Container ${name} definition changed`;
          }
          if (!message) continue;
          if (policy !== 'Never') {
            message += ', will be restarted';
            toStart.push({ spec: s, init: false });
          }
          toKill.push({ c: latest, spec: s, message, grace });
        }
      }
    }
    // 1. kill, 2. sandbox, 3. start.
    this.killAll(w, toKill, () => {
      if (this.stopped) return;
      let sandboxId = sandbox?.id;
      let podIP = sandbox?.ip;
      if (createSandbox) {
        try {
          const cri = this.h.cri();
          for (const s of rps.sandboxes) if (s.ready) cri.stopPodSandbox(s.id);
          sandboxId = cri.runPodSandbox(this.sandboxConfig(pod, sandbox ? sandbox.attempt + 1 : 0));
          podIP = cri.podSandboxStatus(sandboxId).network.ip;
          this.h.log('I', 'kuberuntime_manager.go:1180', 'Created PodSandbox for pod', { podSandboxID: sandboxId, pod: `${pod.metadata.namespace}/${pod.metadata.name}` });
        } catch (e) {
          if (!(e instanceof CriError)) throw e;
          this.podEvent(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${e.message}`);
          done({ error: true });
          return;
        }
      }
      const results: RunResult[] = [];
      const next = (i: number): void => {
        if (this.stopped) return;
        if (i >= toStart.length) {
          const errs = results.filter((r) => r.error);
          if (!errs.length) {
            done({});
            return;
          }
          const retry = Math.min(...errs.map((r) => r.retryMs ?? WORKER_BACKOFF_MS));
          done({ error: true, retryMs: retry });
          return;
        }
        const ref = toStart[i];
        if (w.state !== 'sync') {
          done({});
          return;
        }
        this.startContainer(w, rps, sandboxId!, podIP, ref, volumes, (r) => {
          results.push(r);
          // An init container runs alone; app containers all get their turn.
          next(ref.init ? toStart.length : i + 1);
        });
      };
      next(0);
    });
  }

  private sandboxConfig(pod: KubeObject, attempt: number): Parameters<Containerd['runPodSandbox']>[0] {
    const spec = pod.spec ?? {};
    const ns = pod.metadata.namespace!;
    const clusterFirst = (spec.dnsPolicy ?? 'ClusterFirst') === 'ClusterFirst' && !spec.hostNetwork;
    const withHostNet = spec.dnsPolicy === 'ClusterFirstWithHostNet';
    const domain = this.h.config.clusterDomain || 'cluster.local';
    const dns = (clusterFirst || withHostNet) && this.h.config.clusterDNS.length ? this.h.config.clusterDNS[0] : undefined;
    return {
      name: pod.metadata.name!,
      namespace: ns,
      uid: pod.metadata.uid!,
      attempt,
      hostname: spec.hostname ?? pod.metadata.name!.slice(0, 63),
      ...(spec.hostNetwork ? { hostNetwork: true } : {}),
      ...(spec.shareProcessNamespace ? { shareProcessNamespace: true } : {}),
      labels: { ...(pod.metadata.labels ?? {}) },
      annotations: { ...(pod.metadata.annotations ?? {}) },
      ...(dns ? { dnsServer: dns, searches: [`${ns}.svc.${domain}`, `svc.${domain}`, domain] } : {}),
    };
  }

  private reason(w: Worker, name: string, e: (ReasonEntry & { until?: number }) | undefined): void {
    w.reasonsGen++;
    if (e) this.reasonsOf(w.uid).set(name, e);
    else this.reasons.get(w.uid)?.delete(name);
  }

  /** `startContainer`: backoff, image, config, create, start. Calls `cb` once. */
  private startContainer(w: Worker, rps: RuntimePodStatus, sandboxId: string, podIP: string | undefined, ref: SpecRef, volumes: ReturnType<typeof setUpVolumes>, cb: (r: RunResult) => void): void {
    const pod = w.pod;
    const spec = ref.spec;
    const name = String(spec.name);
    const mine = rps.containers.filter((c) => c.name === name);
    const latest = mine[0];
    const exited = mine.find((c) => c.state === 'exited');
    const event = (type: 'Normal' | 'Warning', reason: string, message: string) => this.containerEvent(pod, name, type, reason, message, ref.init);
    // doBackOff: the last exit of this container decides.
    const key = `${pod.metadata.name}_${pod.metadata.namespace}_${pod.metadata.uid}_${name}_${containerHash(spec)}`;
    if (exited && exited.finishedAt !== undefined) {
      if (this.crashBackoff.isInBackOffSince(key, exited.finishedAt)) {
        const b = this.crashBackoff.get(key);
        event('Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${formatPod(pod)}`);
        const until = exited.finishedAt + b;
        if (w.tracedExit !== exited.id) {
          w.tracedExit = exited.id;
          this.h.trace(`${pod.metadata.namespace}/${pod.metadata.name}: container ${name} exited with ${exited.exitCode ?? 0} (${exited.reason ?? 'Error'}): CrashLoopBackOff, next start in ${goDuration(Math.max(0, until - this.h.clock.now()))}`, pod, 'Warning');
        }
        this.reason(w, name, { reason: 'CrashLoopBackOff', message: `back-off ${goDuration(b)} restarting failed container=${name} pod=${formatPod(pod)}`, until });
        this.h.log('E', 'pod_workers.go:1301', 'Error syncing pod, skipping', { err: `failed to "StartContainer" for "${name}" with CrashLoopBackOff: "back-off ${goDuration(b)} restarting failed container=${name} pod=${formatPod(pod)}"`, pod: `${pod.metadata.namespace}/${pod.metadata.name}`, podUID: pod.metadata.uid });
        cb({ error: true, retryMs: Math.min(WORKER_BACKOFF_MS, until - this.h.clock.now()) });
        return;
      }
      this.crashBackoff.next(key, exited.finishedAt);
    }
    const creds = pullCredentials(this.h.api, pod, base64Decode);
    const policy = String(spec.imagePullPolicy ?? 'IfNotPresent');
    this.ensureImage(w, name, String(spec.image), policy, creds, event, cb, (imageRef) => {
      try {
        this.createAndStart(w, sandboxId, podIP, ref, latest, volumes, imageRef, event);
        this.reason(w, name, undefined);
        cb({});
      } catch (e) {
        if (e instanceof PrepareError) {
          event('Warning', 'Failed', `Error: ${e.message}`);
          this.reason(w, name, { reason: e.reason, message: e.message });
          cb({ error: true });
          return;
        }
        if (e instanceof CriError) {
          const phase = (e as CriError & { phase?: string }).phase ?? 'create';
          event('Warning', 'Failed', `Error: ${e.desc}`);
          this.reason(w, name, { reason: phase === 'start' ? 'RunContainerError' : 'CreateContainerError', message: e.desc });
          cb({ error: true });
          return;
        }
        if (e instanceof ApiError) {
          this.reason(w, name, { reason: 'CreateContainerConfigError', message: e.message });
          cb({ error: true });
          return;
        }
        throw e;
      }
    });
  }

  /** `EnsureImageExists` with the waiting reason recorded on failure; `ok` gets the image reference. */
  private ensureImage(
    w: Worker,
    name: string,
    image: string,
    policy: string,
    creds: string[],
    event: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
    cb: (r: RunResult) => void,
    ok: (imageRef: string) => void,
  ): void {
    try {
      this.images.ensureImageExists(w.uid, image, policy, creds, event, (img) => {
        if (this.stopped) return;
        // The pod started terminating while its image was being pulled: do not start anything.
        if (w.state !== 'sync') {
          cb({});
          return;
        }
        if (!img.ok) {
          event('Warning', 'Failed', `Error: ${img.reason}`);
          this.reason(w, name, { reason: img.reason, message: img.message, until: img.backoffUntil });
          const retry = img.backoffUntil !== undefined ? Math.min(WORKER_BACKOFF_MS, img.backoffUntil - this.h.clock.now()) : WORKER_BACKOFF_MS;
          cb({ error: true, retryMs: retry });
          return;
        }
        ok(img.imageRef);
      });
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      cb({ error: true });
    }
  }

  private createAndStart(
    w: Worker,
    sandboxId: string,
    podIP: string | undefined,
    ref: SpecRef,
    latest: RuntimeContainer | undefined,
    volumes: ReturnType<typeof setUpVolumes>,
    imageRef: string,
    event: (type: 'Normal' | 'Warning', reason: string, message: string) => void,
  ): void {
    const pod = w.pod;
    const spec = ref.spec;
    const name = String(spec.name);
    const restartCount = latest ? latest.restartCount + 1 : 0;
    const env = containerEnv(spec, { pod, nodeName: this.h.nodeName, nodeIP: this.h.nodeIP, podIP }, this.objects, this.serviceList(pod));
    const mounts = containerMounts(this.h.fs, spec, volumes);
    const limits = ((spec.resources as Obj | undefined)?.limits ?? {}) as Obj;
    const mem = memoryBytes(limits.memory);
    const cfg: ContainerConfig = {
      name,
      attempt: restartCount,
      // The image as the spec names it: containerd reports it normalised in the status.
      image: String(spec.image),
      ...(expandArgs(spec.command, env) ? { command: expandArgs(spec.command, env) } : {}),
      ...(expandArgs(spec.args, env) ? { args: expandArgs(spec.args, env) } : {}),
      env,
      ...(spec.workingDir ? { workingDir: String(spec.workingDir) } : {}),
      ports: ((spec.ports ?? []) as Obj[]).map((p) => ({ containerPort: Number(p.containerPort), ...(p.name ? { name: String(p.name) } : {}), ...(p.protocol ? { protocol: String(p.protocol) } : {}) })),
      ...(mem !== undefined ? { memoryLimitBytes: mem } : {}),
      mounts,
      ...(spec.stdin ? { stdin: true } : {}),
      ...(spec.tty ? { tty: true } : {}),
      labels: {
        [LABELS.containerName]: name,
        [LABELS.podName]: pod.metadata.name!,
        [LABELS.podNamespace]: pod.metadata.namespace!,
        [LABELS.podUid]: pod.metadata.uid!,
      },
      annotations: {
        [LABELS.containerHash]: containerHash(spec),
        [LABELS.restartCount]: String(restartCount),
        [LABELS.terminationGrace]: String(pod.spec?.terminationGracePeriodSeconds ?? 30),
        'io.kubernetes.container.terminationMessagePath': String(spec.terminationMessagePath ?? '/dev/termination-log'),
        'io.kubernetes.container.terminationMessagePolicy': String(spec.terminationMessagePolicy ?? 'File'),
      },
    };
    void imageRef;
    const cri = this.h.cri();
    const id = cri.createContainer(sandboxId, cfg);
    // kuberuntime_container.go startContainer, kubelet 1.35+ (PR #134043): the message no longer
    // names the container (the event's fieldPath spec.containers{c} does; kubectl 1.35+ prints it).
    event('Normal', 'Created', KUBELET_EVENT_CONTAINER_CREATED);
    try {
      cri.startContainer(id);
    } catch (e) {
      if (e instanceof CriError) Object.assign(e, { phase: 'start' });
      throw e;
    }
    event('Normal', 'Started', KUBELET_EVENT_CONTAINER_STARTED);
    this.runPostStart(w, id, spec, name, event);
  }

  /** `lifecycle.postStart` (exec or httpGet): a failure kills the container (FailedPostStartHook). */
  private runPostStart(w: Worker, id: string, spec: Obj, name: string, event: (type: 'Normal' | 'Warning', reason: string, message: string) => void): void {
    const hook = ((spec.lifecycle as Obj | undefined)?.postStart ?? undefined) as Obj | undefined;
    if (!hook) return;
    const failed = (why: string) => {
      event('Warning', 'FailedPostStartHook', why);
      try {
        this.h.cri().stopContainer(id, podGraceSeconds(w.pod) * 1000);
      } catch (e) {
        if (!(e instanceof CriError)) throw e;
      }
    };
    if (hook.exec) {
      const cmd = (((hook.exec as Obj).command ?? []) as unknown[]).map(String);
      this.h.cri().exec(id, cmd).then((r) => {
        if (r.error || r.exitCode !== 0) failed(`PostStartHook failed`);
      });
    }
  }

  private serviceList(pod: KubeObject): KubeObject[] {
    const out: KubeObject[] = [];
    if (pod.spec?.enableServiceLinks !== false) out.push(...this.h.services(pod.metadata.namespace!));
    const master = this.h.services('default').find((s) => s.metadata.name === 'kubernetes');
    if (master && !out.includes(master)) out.push(master);
    return out;
  }

  // ------------------------------------------------------------------ killing

  /** Kill containers in parallel; `cb` once all have stopped (or failed to). */
  private killAll(w: Worker | undefined, list: { c: RuntimeContainer; spec: Obj; message: string; grace: number }[], cb: () => void): void {
    if (!list.length) {
      cb();
      return;
    }
    let left = list.length;
    const one = () => {
      left--;
      if (left === 0) cb();
    };
    for (const k of list) this.killContainer(w, k.c, k.spec, k.grace, k.message, one);
  }

  /**
   * `killContainer`: Killing event, preStop hook within the grace period, then the stop signal
   * with the rest of the grace (at least 2 s) and SIGKILL after it.
   */
  private killContainer(w: Worker | undefined, c: RuntimeContainer, spec: Obj, graceSec: number, message: string, cb: () => void): void {
    const pod = w?.pod;
    if (pod) this.containerEvent(pod, c.name, 'Normal', 'Killing', message || `Stopping container ${c.name}`);
    if (w) (w.killing ??= new Set()).add(c.id);
    const finish = () => {
      w?.killing?.delete(c.id);
      cb();
    };
    const stop = (seconds: number) => {
      const g = Math.max(seconds, MIN_GRACE_SECONDS);
      let p;
      try {
        p = this.h.cri().stopContainer(c.id, g * 1000);
      } catch (e) {
        if (!(e instanceof CriError)) throw e;
        this.h.log('E', 'kuberuntime_container.go:820', 'Container termination failed with gracePeriod', { err: e.message, containerName: c.name, gracePeriod: g });
        finish();
        return;
      }
      p.then(() => finish());
    };
    const preStop = ((spec.lifecycle as Obj | undefined)?.preStop ?? undefined) as Obj | undefined;
    if (!preStop || graceSec <= 0) {
      stop(graceSec);
      return;
    }
    const started = this.h.clock.now();
    let settled = false;
    const timers: Timer[] = [];
    const hookDone = (ok: boolean) => {
      if (settled) return;
      settled = true;
      for (const t of timers) t.cancel();
      if (!ok && pod) this.containerEvent(pod, c.name, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
      const elapsed = Math.floor((this.h.clock.now() - started) / 1000);
      stop(graceSec - elapsed);
    };
    // The hook may run at most the grace period; then the stop signal goes out (2 s left).
    timers.push(this.h.clock.schedule(graceSec * 1000, () => {
      if (settled) return;
      settled = true;
      stop(0);
    }, { label: `kubelet: preStop grace ${c.name}` }));
    try {
      if (preStop.exec) {
        const cmd = (((preStop.exec as Obj).command ?? []) as unknown[]).map(String);
        this.h.cri().exec(c.id, cmd).then((r) => hookDone(!r.error && r.exitCode === 0));
      } else if (preStop.sleep) {
        const secs = Number((preStop.sleep as Obj).seconds ?? 0);
        this.h.clock.schedule(secs * 1000, () => hookDone(true), { label: `kubelet: preStop sleep ${c.name}` });
      } else if (preStop.httpGet) {
        const hg = preStop.httpGet as Obj;
        const port = typeof hg.port === 'number' ? hg.port : Number(((spec.ports ?? []) as Obj[]).find((p) => p.name === hg.port)?.containerPort ?? hg.port);
        const sandbox = this.runtimeCache.get(w?.uid ?? '')?.sandboxes.find((s) => s.ready);
        const ip = String(hg.host ?? sandbox?.ip ?? this.h.nodeIP);
        const res = this.h.cri().http(ip, port, { method: 'GET', path: String(hg.path ?? '/'), headers: { 'User-Agent': kubeletUserAgent('lifecycle', this.h.version) } });
        const delay = 'delayMs' in res && typeof res.delayMs === 'number' ? res.delayMs : 0;
        const ok = 'status' in res && res.status >= 200 && res.status < 400;
        if (delay > 0) this.h.clock.schedule(delay, () => hookDone(ok), { label: `kubelet: preStop http ${c.name}` });
        else hookDone(ok);
      } else hookDone(true);
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      hookDone(false);
    }
  }

  // ------------------------------------------------------------------ termination

  private syncTerminatingPod(w: Worker, done: (r: RunResult) => void): void {
    const pod = w.pod;
    this.probes.removePod(w.uid);
    const rps = this.readRuntimePod(w.uid, pod);
    const grace = w.graceSec ?? podGraceSeconds(pod);
    const byName = new Map<string, Obj>();
    for (const s of [...((pod.spec?.initContainers ?? []) as Obj[]), ...((pod.spec?.containers ?? []) as Obj[])]) byName.set(String(s.name), s);
    const running = rps.containers.filter((c) => c.state === 'running' && !w.killing?.has(c.id));
    if (running.length) this.h.trace(`terminating pod ${pod.metadata.namespace}/${pod.metadata.name}: stopping ${running.length} container(s), grace ${grace}s`, pod);
    this.killAll(w, running.map((c) => ({ c, spec: byName.get(c.name) ?? {}, message: '', grace })), () => {
      if (this.stopped) return;
      let rps2: RuntimePodStatus;
      try {
        const cri = this.h.cri();
        rps2 = this.readRuntimePod(w.uid, pod);
        if (rps2.containers.some((c) => c.state === 'running')) {
          // Something is still running (a kill failed): try again.
          done({ error: true, retryMs: 1000 });
          return;
        }
        for (const s of rps2.sandboxes) if (s.ready) cri.stopPodSandbox(s.id);
        rps2 = this.readRuntimePod(w.uid, pod);
      } catch (e) {
        if (!(e instanceof CriError)) throw e;
        done({ error: true });
        return;
      }
      this.computeStatus(w, rps2, true);
      w.state = 'terminated';
      this.podsGen++;
      this.h.log('I', 'kubelet.go:2150', 'Pod termination completed', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, podUID: w.uid });
      done({ transition: true });
    });
  }

  private syncTerminatedPod(w: Worker, done: (r: RunResult) => void): void {
    // SyncTerminatedPod: volumes are torn down, the status manager may now delete the API pod.
    this.status.markTerminated(w.uid);
    if (w.removed) cleanUpPodDir(this.h.fs, w.uid);
    done({});
  }

  // ------------------------------------------------------------------ housekeeping

  /** The last orphan scan's pod UIDs and the runtime generation they were read at (see cleanupOrphans). */
  private orphanScan: { cri: Containerd; generation: number; uids: readonly string[] } | undefined;

  /**
   * `HandlePodCleanups`: kill containers of pods nobody wants (deleted while the kubelet was down,
   * or unknown), with a 1 s grace override (2 s minimum), once the API source has synced.
   */
  cleanupOrphans(): void {
    if (this.stopped || !this.h.sourcesReady()) return;
    let cri: Containerd;
    let sandboxes: PodSandboxStatus[] | undefined;
    let containers: ContainerStatus[] | undefined;
    let uids: readonly string[];
    let generation: number;
    try {
      cri = this.h.cri();
      // The pod UIDs with a ready sandbox or a running container depend only on the runtime's
      // records: reuse the last answer while its generation is unchanged (performance only).
      generation = cri.plegGeneration();
      // The skip, and why it changes nothing: the last pass found every such UID with a worker
      // (no orphan, none being killed), and since then the runtime's records (same runtime and
      // generation: the same UIDs) and the set of UIDs with a worker (`workerSetGen`) are the
      // same, and no orphan is being killed: every UID still has its worker, the loop would
      // find nothing.
      const clean = this.orphansClean;
      if (clean && clean.cri === cri && clean.generation === generation && clean.workerSetGen === this.workerSetGen && this.orphansKilling.size === 0) return;
      this.orphansClean = undefined;
      const last = this.orphanScan;
      if (last && last.cri === cri && last.generation === generation) uids = last.uids;
      else {
        // Only ids, states and pod UIDs are needed here (the same lists without building every
        // CRI status; performance only). The full lists are read below when an orphan is found.
        const states = cri.listPlegStates();
        const set = new Set<string>();
        for (const s of states.sandboxes) if (s.state === 'SANDBOX_READY') set.add(s.podUid);
        for (const c of states.containers) if (c.state === 'CONTAINER_RUNNING') set.add(c.podUid);
        uids = [...set];
        this.orphanScan = { cri, generation, uids };
      }
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      return;
    }
    let found = false;
    for (const uid of uids) {
      if (!uid || this.workers.has(uid) || this.orphansKilling.has(uid)) continue;
      found = true;
      // Unchanged since the generation was read: the same lists the scan would have used.
      sandboxes ??= cri.listPodSandboxes();
      containers ??= cri.listContainers({ state: 'CONTAINER_RUNNING' });
      const sbs = sandboxes;
      const mine = containers.filter((c) => c.labels[LABELS.podUid] === uid);
      const name = mine[0]?.labels[LABELS.podName] ?? sbs.find((s) => s.metadata.uid === uid)?.metadata.name ?? uid;
      const ns = mine[0]?.labels[LABELS.podNamespace] ?? sbs.find((s) => s.metadata.uid === uid)?.metadata.namespace ?? '';
      this.h.log('I', 'kubelet_pods.go:1210', 'Clean up orphaned pod containers', { podUID: uid });
      this.h.trace(`orphaned pod ${ns}/${name} (uid ${uid}) is not in the API any more: killing its containers`);
      this.orphansKilling.add(uid);
      const ghost: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns, uid }, spec: {} };
      const list = mine.map((c) => ({ c: toRuntimeContainer(c), spec: {}, message: '', grace: 1 }));
      this.killAllOrphan(ghost, list, () => {
        try {
          for (const s of this.h.cri().listPodSandboxes({ podUid: uid })) if (s.state === 'SANDBOX_READY') this.h.cri().stopPodSandbox(s.id);
        } catch (e) {
          if (!(e instanceof CriError)) throw e;
        }
        this.orphansKilling.delete(uid);
      });
    }
    if (!found && this.orphansKilling.size === 0) this.orphansClean = { cri, generation, workerSetGen: this.workerSetGen };
  }

  /** The runtime, its generation and `workerSetGen` when `cleanupOrphans` last found no orphan (performance only). */
  private orphansClean: { cri: Containerd; generation: number; workerSetGen: number } | undefined;

  private killAllOrphan(ghost: KubeObject, list: { c: RuntimeContainer; spec: Obj; message: string; grace: number }[], cb: () => void): void {
    const w: Worker = { uid: ghost.metadata.uid!, pod: ghost, fullName: podFullName(ghost), isStatic: false, state: 'terminating', removed: true, working: true, pending: false, admitted: true, specGen: 0, reasonsGen: 0 };
    this.killAll(w, list, cb);
  }

  /**
   * Container garbage collection (`kubeGenericRuntimeManager.GarbageCollect`, policy
   * MinAge 0, MaxPerPodContainer 1): keep the newest exited container per pod and name (what
   * `kubectl logs --previous` reads), remove older ones; remove everything of pods the kubelet no
   * longer knows; remove old stopped sandboxes.
   */
  garbageCollect(): void {
    if (this.stopped) return;
    let cri: Containerd;
    try {
      cri = this.h.cri();
      // The skip, and why it changes nothing. What this pass removes is a function of the
      // runtime's records (ids, states, pod UID labels, names, creation order: every one of
      // them created, removed or changed in state bumps `plegGeneration`, and the rest are
      // fixed per record) and of which pod UIDs have a worker (`workerSetGen`). When both are
      // as they were after a pass that removed nothing, this pass would remove nothing too, and
      // the listings have no side effects. `plegGeneration` throws as `listContainers` does
      // while containerd is down (caught below, as before).
      const generation = cri.plegGeneration();
      const idle = this.gcIdle;
      if (idle && idle.cri === cri && idle.generation === generation && idle.workerSetGen === this.workerSetGen) {
        this.crashBackoff.gc();
        return;
      }
      this.gcIdle = undefined;
      const containers = cri.listContainers();
      const sandboxes = cri.listPodSandboxes();
      const seen = new Map<string, number>();
      for (const c of containers) {
        if (c.state === 'CONTAINER_RUNNING' || c.state === 'CONTAINER_CREATED') continue;
        const uid = c.labels[LABELS.podUid];
        const known = this.workers.has(uid);
        const k = `${uid}/${c.metadata.name}`;
        const n = (seen.get(k) ?? 0) + 1;
        seen.set(k, n);
        // listContainers is newest first: the first exited one per name is kept.
        if (!known || n > 1) cri.removeContainer(c.id);
      }
      const perPod = new Map<string, number>();
      for (const s of sandboxes) {
        if (s.state === 'SANDBOX_READY') continue;
        const known = this.workers.has(s.metadata.uid);
        const n = (perPod.get(s.metadata.uid) ?? 0) + 1;
        perPod.set(s.metadata.uid, n);
        const hasContainers = cri.listContainers({ podSandboxId: s.id }).length > 0;
        if ((!known && !hasContainers) || (known && n > 1 && !hasContainers)) cri.removePodSandbox(s.id);
      }
      // Removed nothing (the generation did not move): the next pass may skip while it stays.
      if (cri.plegGeneration() === generation) this.gcIdle = { cri, generation, workerSetGen: this.workerSetGen };
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
    }
    this.crashBackoff.gc();
  }
}

/** CRI ContainerStatus (or the part of it `podRuntimeRecords` reports) -> the kubelet's container view. */
function toRuntimeContainer(c: ContainerBrief): RuntimeContainer {
  const state = c.state === 'CONTAINER_RUNNING' ? 'running' : c.state === 'CONTAINER_EXITED' ? 'exited' : c.state === 'CONTAINER_CREATED' ? 'created' : 'unknown';
  const rc = Number(c.annotations[LABELS.restartCount]);
  return {
    id: c.id,
    name: c.metadata.name,
    state,
    createdAt: c.createdAt,
    ...(c.startedAt ? { startedAt: c.startedAt } : {}),
    ...(c.finishedAt ? { finishedAt: c.finishedAt } : {}),
    ...(state === 'exited' ? { exitCode: c.exitCode, reason: c.reason || undefined, message: c.message || undefined } : {}),
    image: c.image.image,
    imageRef: c.imageRef,
    restartCount: Number.isFinite(rc) ? rc : c.metadata.attempt,
    sandboxId: c.podSandboxId,
    hash: c.annotations[LABELS.containerHash],
  } as RuntimeContainer;
}
