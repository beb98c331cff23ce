/**
 * The messages between the simulation worker (src/worker/sim.worker.ts) and the UI
 * (src/ui/state/bridge.ts). This module is the single source of truth for both sides: types,
 * plus the small run-time guards each side uses on what it receives (so the two ends cannot
 * drift apart the way an untyped `event.data as {...}` would let them).
 *
 * The stream from the worker is `snapshot{seq}` once (on start, on reset, on request), then
 * `diff{seq}` batches at most one per animation frame (~16 ms), each carrying object upserts and
 * removals keyed by uid, new trace entries and the clock. The UI applies a diff only when its
 * `seq` is the last applied one plus one; on a gap it drops the diff and sends `resync`.
 *
 * Records are a slim view of each object (what the views draw), not the object: a Node's status
 * heartbeat or a Lease renewal produces no message at all unless something drawn changed.
 *
 * No runtime dependencies: imported by the main bundle and the worker bundle alike.
 */
import type { SupervisionTree } from '../engine/supervision';

/** The supervision tree's shapes (defined next to the engine read model that builds them). */
export type { SupervisionTree, SupervisedMachine, SupervisedUnit, SupervisedPod, SupervisedContainer, SupervisedController, SupervisionState, ExitInfo } from '../engine/supervision';

/** Bump when a message shape changes incompatibly. */
export const PROTOCOL_VERSION = 1;

/** Speeds the UI offers (virtual seconds per wall second). */
export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const;
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 100;
/** Least wall time (ms) between two `supervision` messages (the tree is rebuilt at most this often). */
export const SUPERVISION_MIN_INTERVAL_MS = 100;

/**
 * The kinds the worker mirrors to the UI as records (src/worker/records.ts). Everything else
 * (Endpoints, EndpointSlices, HPAs, PVCs, Leases, Events, ConfigMaps ...) stays in the worker: the
 * UI has no record of such an object whether it exists or not.
 */
export const MIRRORED_KINDS: ReadonlySet<string> = new Set(['Node', 'Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

// ---------------------------------------------------------------------------------------------
// UI -> worker

export type ToWorker =
  /** Run one playground shell line (`kubectl delete pod catalog-... -n bookshop`). */
  | { type: 'shell'; line: string; id?: number }
  | { type: 'play' }
  | { type: 'pause' }
  /** Virtual ms per wall ms, clamped to [MIN_SPEED, MAX_SPEED]. */
  | { type: 'speed'; factor: number }
  /** Run exactly one event of the virtual clock (pauses first). */
  | { type: 'step' }
  /** Run `ms` virtual milliseconds as fast as possible, in chunks; `pause` interrupts it. */
  | { type: 'fastForward'; ms: number }
  /**
   * Throw the cluster away and boot a new one from `seed`. `paused` leaves it paused once booted;
   * `cluster` picks the kind cluster (default) or the small test cluster. `quiet`: the page already
   * shows this cluster as its boot ends (the build-time boot view, src/ui/state/bootView.ts), so the
   * worker posts nothing while it boots (no snapshot of the empty cluster, no diffs, shell lines
   * wait) and one snapshot when the boot is over.
   */
  | { type: 'reset'; seed: number; paused?: boolean; cluster?: 'booted' | 'test'; debug?: boolean; quiet?: boolean }
  /**
   * Start where a crashed worker was (src/worker/journal.ts): boot `seed`'s cluster again, replay
   * `entries` each at its clock position, run to `until`, then take `run`'s playing/speed/booting.
   * Answered by `restored`, then a snapshot.
   */
  | { type: 'restore'; seed: number; cluster: 'booted' | 'test'; entries: JournalEntry[]; until: ClockPos; run: Pick<RunState, 'playing' | 'speed' | 'booting'>; debug?: boolean }
  /** Liveness check (the UI's watchdog): answered by `pong` with the same `id`. */
  | { type: 'ping'; id: number }
  /**
   * Crash the worker on purpose (tests of crash recovery): an uncaught exception, or with `hang`
   * a loop that never ends. Honoured only after a reset or restore with `debug: true` (`?debug=1`).
   */
  | { type: 'debugCrash'; hang?: boolean }
  /** The UI lost track (seq gap): send a fresh snapshot. */
  | { type: 'resync' }
  /** A request of the YAML editor (src/worker/editing.ts); answered by `editReply` with the same `id`. */
  | { type: 'edit'; id: number; request: EditRequest }
  /** Ctrl-C: end the line still running (`kubectl get pods -w`, `sleep 30`); it finishes with exit 130. */
  | { type: 'interrupt' }
  /**
   * Tab completion of `line` with the cursor at `cursor` (UTF-16 offset). Answered by one
   * `completions` message with the same `id`.
   */
  | { type: 'complete'; id: number; line: string; cursor: number }
  /**
   * The Supervision view is shown (`on: true`: send the tree now and again whenever it changes,
   * at most every SUPERVISION_MIN_INTERVAL_MS of wall time) or hidden (`on: false`: stop).
   */
  | { type: 'supervision'; on: boolean };

// ---------------------------------------------------------------------------------------------
// Worker -> UI

/** An owner reference, as drawn in the owner graph. */
export interface OwnerRef {
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

/** A node taint. */
export interface TaintRec {
  key: string;
  value?: string;
  effect: string;
}

/** A condition that is not in its healthy state (node pressure, NetworkUnavailable ...). */
export interface ConditionRec {
  type: string;
  status: string;
  reason?: string;
}

/** Desired and observed replica counts of a workload (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job). */
export interface ReplicasRec {
  desired: number;
  current: number;
  ready: number;
  available?: number;
  updated?: number;
}

/**
 * The slim view of one API object. Every field the views draw, nothing else: fields that are
 * absent do not apply to the kind.
 */
export interface ObjRecord {
  uid: string;
  kind: string;
  namespace?: string;
  name: string;
  owners?: OwnerRef[];
  labels?: Record<string, string>;
  /** `metadata.deletionTimestamp` is set (graceful deletion in progress). */
  deleting?: boolean;

  // Pod
  /** `spec.nodeName` ('' = not scheduled yet). */
  nodeName?: string;
  /** `status.phase`. */
  phase?: string;
  /** The STATUS column of `kubectl get pods` (Running, Pending, ContainerCreating, Terminating, CrashLoopBackOff ...). */
  status?: string;
  /** The READY column (`1/1`). */
  ready?: string;
  /** Container restarts (the RESTARTS column's count). */
  restarts?: number;
  /** Pod is a mirror pod of a static pod (owned by its Node). */
  mirror?: boolean;
  /** The latest scheduling failure message (PodScheduled=False), for unscheduled pods. */
  unschedulableReason?: string;

  // Workloads
  replicas?: ReplicasRec;

  // Node
  /** Ready condition status: True, False or Unknown. */
  nodeReady?: string;
  /** `node-role.kubernetes.io/*` labels. */
  roles?: string[];
  taints?: TaintRec[];
  unschedulable?: boolean;
  /** Conditions other than Ready that are not in their healthy state. */
  badConditions?: ConditionRec[];
}

/** One line of the timeline: who did what and why, in virtual time. */
export interface TraceItem {
  /** Increasing id (React key; unique within one worker run). */
  id: number;
  /** Virtual ms since the cluster epoch. */
  time: number;
  component: string;
  message: string;
  object?: { kind: string; namespace?: string; name: string; uid?: string };
  /** `Normal`/`Warning` mirror Events, `action` marks a person's command. */
  kind?: 'info' | 'Normal' | 'Warning' | 'action';
}

/** The virtual clock as the UI shows it. */
export interface ClockInfo {
  /** Virtual ms since the epoch. */
  now: number;
  /** Unix ms of virtual 0 (for the wall-clock-looking display, e.g. `06:03:12`). */
  epochMs: number;
  /** Events the virtual clock has run since the cluster started (with `now`: a replay position). */
  events?: number;
  /** The API server's resourceVersion at this moment (a replay checks it reaches the same). */
  rv?: string;
}

/**
 * A position of the engine: virtual ms, events run, the store's resourceVersion. The engine is
 * deterministic, so a fresh cluster of the same seed run to `events` is where the old one was.
 */
export interface ClockPos {
  now: number;
  events: number;
  rv: string;
}

/** An input that changed the cluster (a shell line, Ctrl-C, an editor apply) and where it took effect. */
export interface JournalEntry {
  at: ClockPos;
  msg: ToWorker;
}

/** Host state: how time moves. */
export interface RunState {
  /** Virtual time follows real time (while `booting`: it will once the boot is over). */
  playing: boolean;
  speed: number;
  seed: number;
  /** Which cluster runs: the real kind boot, or the test cluster (fake kubelets). */
  cluster: 'booted' | 'test';
  /** Set while a fast-forward runs. */
  fastForward?: { doneMs: number; totalMs: number };
  /**
   * Set while the cluster boots (`kind create cluster`, then `make up`), run as fast as the
   * engine goes; when it is booted, time plays or stays paused as the reset asked.
   */
  booting?: boolean;
  /**
   * Set (with `booting`) only by the page, while it shows the build-time boot view
   * (src/ui/state/bootView.ts: the snapshot the default boot produces) and the worker boots the same
   * cluster to take over from it; the worker never sends it.
   */
  starting?: boolean;
  /** Virtual time lags real time at this speed (the engine cannot keep up). */
  lagging?: boolean;
}

export type FromWorker =
  | {
      type: 'snapshot';
      protocol: number;
      seq: number;
      objects: Record<string, ObjRecord>;
      time: ClockInfo;
      trace: TraceItem[];
      run: RunState;
    }
  | {
      type: 'diff';
      seq: number;
      upserts: ObjRecord[];
      removals: string[];
      trace: TraceItem[];
      time: ClockInfo;
      /** Present when the run state changed. */
      run?: RunState;
    }
  /** Output of a shell line (streamed: several per line, `done` on the last). */
  | {
      type: 'shellOutput';
      text: string;
      stream?: 'stdout' | 'stderr';
      id?: number;
      line?: string;
      done?: boolean;
      exitCode?: number;
      /** On `done`: the prompt for the next line (`$ `, or `root@k8s-lab-control-plane:/# ` inside `docker exec -it NODE bash`). */
      prompt?: string;
    }
  /**
   * The answer to `complete`: replace `line.slice(start, end)` with one of `candidates` (full
   * words, sorted; empty when nothing fits).
   */
  | { type: 'completions'; id: number; start: number; end: number; candidates: string[] }
  /** The answer to an `edit` request (the YAML editor). */
  | { type: 'editReply'; id: number; reply: EditReply }
  /**
   * `kubectl edit TYPE NAME` typed in the terminal (shell line `id`): the UI opens the YAML editor
   * in its edit mode on `target` (the browser is the playground's $EDITOR, as kubectl's
   * staging/src/k8s.io/kubectl/pkg/cmd/util/editor opens vi). Sent before the line's `done`.
   */
  | { type: 'openEditor'; id?: number; target: EditorTarget }
  /** An input took effect (the UI keeps these to restore a crashed worker). */
  | { type: 'journal'; entry: JournalEntry }
  /**
   * A `restore` is done: `replayed` of `total` entries replayed; `failed` names the entry the
   * replay stopped at (it threw); `diverged` says the replay did not reach the recorded position.
   */
  | { type: 'restored'; replayed: number; total: number; failed?: { entry: JournalEntry; message: string }; diverged?: string }
  | { type: 'pong'; id: number }
  | { type: 'error'; message: string }
  /**
   * The supervision tree (engine/supervision.ts) while the UI subscribes to it: sent at once, then
   * only when it changed. Times inside are virtual ms (compare with the clock of the last diff).
   * `null`: this cluster has no node layer (the test cluster).
   */
  | { type: 'supervision'; tree: SupervisionTree | null };

// ---------------------------------------------------------------------------------------------
// The YAML editor's requests (src/worker/editing.ts answers them; src/ui/editor/ asks)

/**
 * What the editor asks the worker:
 * - `get`: one live object as `kubectl get KIND NAME -o yaml` prints it (managedFields off);
 * - `apply`: the buffer. `mode: 'apply'` runs `kubectl apply -f -` on every document;
 *   `mode: 'edit'` does what `kubectl edit` does with the one edited document: the changes from
 *   `base` (the YAML the person started from) to the buffer, sent with `resourceVersion` as a
 *   precondition (409 Conflict when the object changed meanwhile). `dryRun` runs it as a
 *   server-side dry run (nothing changes) and returns the live and resulting YAML for a diff;
 * - `crds`: the custom kinds served now, with their openAPIV3Schema (for the editor's schemas).
 */
export type EditRequest =
  | { op: 'get'; kind: string; namespace?: string; name: string }
  | { op: 'apply'; yaml: string; mode: 'apply' | 'edit'; base?: string; resourceVersion?: string; dryRun?: boolean }
  | { op: 'crds' };

/**
 * An object the YAML editor opens in edit mode: its kind as `kubectl get` accepts it
 * (`Deployment`), its namespace (absent for cluster-scoped kinds) and name.
 */
export interface EditorTarget {
  kind: string;
  namespace?: string;
  name: string;
}

/** One `metav1.StatusCause` of a failed request, with the buffer line it points at (1-based) when known. */
export interface EditCause {
  reason: string;
  message: string;
  field?: string;
  line?: number;
}

/** What one document of an apply did: the line kubectl prints, or the API server's error. */
export interface EditDocResult {
  /** 0-based index of the document (List items count one each) in the buffer. */
  index: number;
  /** 1-based line where the document starts in the buffer. */
  line: number;
  kind?: string;
  namespace?: string;
  name?: string;
  ok: boolean;
  /** What kubectl prints for it: `deployment.apps/catalog configured`, or its error text. */
  text: string;
  /** The failed request's Status (code, reason, message, causes mapped to buffer lines). */
  status?: { code: number; reason: string; message: string; causes: EditCause[] };
  /** On a 409 Conflict (edit): the object as it is now, to compare with and re-apply onto. */
  conflict?: { liveYaml: string; resourceVersion: string };
  /** Dry run: the live object (empty when it would be created) and the result, both as YAML. */
  diff?: { live: string; result: string };
}

/** The answers, by request op (`error`: the request itself could not be served). */
export type EditReply =
  | { op: 'get'; ok: true; yaml: string; resourceVersion: string; apiVersion: string; kind: string; namespace?: string; name: string }
  | { op: 'get'; ok: false; error: string }
  | { op: 'apply'; mode: 'apply' | 'edit'; dryRun: boolean; results: EditDocResult[]; syntaxError?: { message: string; line: number } }
  | { op: 'crds'; kinds: { apiVersion: string; kind: string; schema: unknown }[] }
  | { op: 'error'; error: string };

// ---------------------------------------------------------------------------------------------
// Run-time guards (messages cross a thread boundary: check the discriminant and the essentials)

const TO_WORKER_TYPES = new Set(['shell', 'play', 'pause', 'speed', 'step', 'fastForward', 'reset', 'resync', 'interrupt', 'complete', 'edit', 'restore', 'ping', 'debugCrash', 'supervision']);
const FROM_WORKER_TYPES = new Set(['snapshot', 'diff', 'shellOutput', 'error', 'completions', 'editReply', 'openEditor', 'journal', 'restored', 'pong', 'supervision']);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Whether `v` is a well-formed ToWorker message. */
export function isToWorker(v: unknown): v is ToWorker {
  if (!isObj(v) || typeof v.type !== 'string' || !TO_WORKER_TYPES.has(v.type)) return false;
  switch (v.type) {
    case 'shell':
      return typeof v.line === 'string';
    case 'speed':
      return typeof v.factor === 'number' && Number.isFinite(v.factor);
    case 'fastForward':
      return typeof v.ms === 'number' && v.ms > 0 && Number.isFinite(v.ms);
    case 'complete':
      return typeof v.id === 'number' && typeof v.line === 'string' && typeof v.cursor === 'number';
    case 'edit':
      return typeof v.id === 'number' && isObj(v.request) && typeof v.request.op === 'string';
    case 'reset':
      return typeof v.seed === 'number' && Number.isInteger(v.seed) && (v.cluster === undefined || v.cluster === 'booted' || v.cluster === 'test');
    case 'restore':
      return typeof v.seed === 'number' && (v.cluster === 'booted' || v.cluster === 'test') && Array.isArray(v.entries) && isObj(v.until) && isObj(v.run);
    case 'ping':
      return typeof v.id === 'number';
    case 'supervision':
      return typeof v.on === 'boolean';
    default:
      return true;
  }
}

/** Whether `v` is a well-formed FromWorker message. */
export function isFromWorker(v: unknown): v is FromWorker {
  if (!isObj(v) || typeof v.type !== 'string' || !FROM_WORKER_TYPES.has(v.type)) return false;
  switch (v.type) {
    case 'snapshot':
      return typeof v.seq === 'number' && isObj(v.objects) && Array.isArray(v.trace) && isObj(v.time) && isObj(v.run);
    case 'diff':
      return typeof v.seq === 'number' && Array.isArray(v.upserts) && Array.isArray(v.removals) && Array.isArray(v.trace) && isObj(v.time);
    case 'shellOutput':
      return typeof v.text === 'string';
    case 'error':
      return typeof v.message === 'string';
    case 'editReply':
      return typeof v.id === 'number' && isObj(v.reply) && typeof v.reply.op === 'string';
    case 'openEditor':
      return isObj(v.target) && typeof v.target.kind === 'string' && typeof v.target.name === 'string';
    case 'completions':
      return typeof v.id === 'number' && typeof v.start === 'number' && typeof v.end === 'number' && Array.isArray(v.candidates);
    case 'journal':
      return isObj(v.entry) && isObj(v.entry.at) && isObj(v.entry.msg);
    case 'restored':
      return typeof v.replayed === 'number' && typeof v.total === 'number';
    case 'pong':
      return typeof v.id === 'number';
    case 'supervision':
      return v.tree === null || (isObj(v.tree) && Array.isArray(v.tree.nodes));
    default:
      return false;
  }
}

/** Clamp a requested speed into the supported range. */
export function clampSpeed(factor: number): number {
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, factor));
}

/** `06:03:12`: the cluster clock (UTC, the epoch's time of day plus virtual time). */
export function formatClock(time: ClockInfo, ms: number = time.now): string {
  const t = Math.floor((time.epochMs + ms) / 1000);
  const s = ((t % 86400) + 86400) % 86400;
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${p2(Math.floor(s / 3600))}:${p2(Math.floor((s % 3600) / 60))}:${p2(s % 60)}`;
}
