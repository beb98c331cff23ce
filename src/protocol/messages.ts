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

/** Bump when a message shape changes incompatibly. */
export const PROTOCOL_VERSION = 1;

/** Speeds the UI offers (virtual seconds per wall second). */
export const SPEEDS = [0.25, 0.5, 1, 2, 5, 10, 25, 50, 100] as const;
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 100;

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
   * `cluster` picks the kind cluster (default) or the small test cluster.
   */
  | { type: 'reset'; seed: number; paused?: boolean; cluster?: 'booted' | 'test' }
  /** The UI lost track (seq gap): send a fresh snapshot. */
  | { type: 'resync' };

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
  | { type: 'shellOutput'; text: string; stream?: 'stdout' | 'stderr'; id?: number; line?: string; done?: boolean; exitCode?: number }
  | { type: 'error'; message: string };

// ---------------------------------------------------------------------------------------------
// Run-time guards (messages cross a thread boundary: check the discriminant and the essentials)

const TO_WORKER_TYPES = new Set(['shell', 'play', 'pause', 'speed', 'step', 'fastForward', 'reset', 'resync']);
const FROM_WORKER_TYPES = new Set(['snapshot', 'diff', 'shellOutput', 'error']);

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
    case 'reset':
      return typeof v.seed === 'number' && Number.isInteger(v.seed) && (v.cluster === undefined || v.cluster === 'booted' || v.cluster === 'test');
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
