/**
 * The controller work queue and the worker loop that drains it on the virtual clock.
 *
 * Mirrors client-go `util/workqueue`:
 *   - queue.go: a FIFO of de-duplicated keys with `dirty` and `processing` sets: a key added
 *     while it waits is not queued twice; a key added while a worker holds it is queued again
 *     only when that worker calls `done`;
 *   - delaying_queue.go: `addAfter` (the earliest pending time wins for a key already waiting);
 *   - rate_limiting_queue.go: `addRateLimited`, `forget`, `numRequeues`;
 *   - default_rate_limiters.go: `DefaultControllerRateLimiter` = the max of a per-item
 *     exponential backoff (5 ms doubling to 1000 s) and an overall token bucket (10 qps, burst 100).
 *
 * and the worker loop of a controller (`processNextWorkItem` in pkg/controller/replicaset,
 * controller-runtime's `reconcileHandler`): get a key, reconcile it, `forget` on success,
 * `addRateLimited` on error, `done` always.
 *
 * The engine is single-threaded: "workers" are slots that take one key per clock event, so other
 * components' events interleave with a controller's reconciles exactly as the clock orders them.
 * Units: every duration here is virtual milliseconds.
 */
import type { Clock, Timer } from '../clock';
import { ApiError } from '../api/errors';

// ------------------------------------------------------------------------------ rate limiters

/**
 * `workqueue.RateLimiter`: how long an item should wait before it is retried.
 * Source: staging/src/k8s.io/client-go/util/workqueue/default_rate_limiters.go.
 */
export interface RateLimiter {
  /** Delay in virtual ms before `item` may be processed again; counts one more failure. */
  when(item: string): number;
  /** Stop tracking `item` (it succeeded): its next failure starts from the base delay again. */
  forget(item: string): void;
  /** Failures counted for `item` since it was last forgotten. */
  numRequeues(item: string): number;
}

/** Per-item base delay of `DefaultControllerRateLimiter`: 5 ms. Source: default_rate_limiters.go. */
export const DEFAULT_ITEM_BASE_DELAY_MS = 5;
/** Per-item maximum delay of `DefaultControllerRateLimiter`: 1000 s. Source: default_rate_limiters.go. */
export const DEFAULT_ITEM_MAX_DELAY_MS = 1000 * 1000;
/** Overall rate of `DefaultControllerRateLimiter`'s bucket: 10 qps. Source: default_rate_limiters.go. */
export const DEFAULT_BUCKET_QPS = 10;
/** Overall burst of `DefaultControllerRateLimiter`'s bucket: 100. Source: default_rate_limiters.go. */
export const DEFAULT_BUCKET_BURST = 100;

/**
 * `ItemExponentialFailureRateLimiter`: `baseMs * 2^failures`, capped at `maxMs`.
 * The first failure waits `baseMs`, the second `2 * baseMs`, ...
 */
export class ItemExponentialFailureRateLimiter implements RateLimiter {
  private failures = new Map<string, number>();

  constructor(
    readonly baseMs: number = DEFAULT_ITEM_BASE_DELAY_MS,
    readonly maxMs: number = DEFAULT_ITEM_MAX_DELAY_MS,
  ) {}

  when(item: string): number {
    const exp = this.failures.get(item) ?? 0;
    this.failures.set(item, exp + 1);
    const backoff = this.baseMs * Math.pow(2, exp);
    return backoff > this.maxMs ? this.maxMs : backoff;
  }

  forget(item: string): void {
    this.failures.delete(item);
  }

  numRequeues(item: string): number {
    return this.failures.get(item) ?? 0;
  }
}

/**
 * A token bucket on the virtual clock, as golang.org/x/time/rate's `Limiter`: it starts full
 * (`burst` tokens) and refills `qps` tokens per virtual second up to `burst`.
 * `reserve()` always takes a token and returns how long the caller must wait for it
 * (`Limiter.Reserve().Delay()`); `tryAccept()` takes one only if available (`Limiter.Allow()`,
 * client-go's `flowcontrol.RateLimiter.TryAccept`).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly clock: Clock,
    readonly qps: number,
    readonly burst: number,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  private advance(): void {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
      this.last = now;
    }
  }

  /** Take a token; returns the wait in virtual ms until it is really available (0 if now). */
  reserve(): number {
    this.advance();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** Take a token if one is available now; false (nothing taken) otherwise. */
  tryAccept(): boolean {
    this.advance();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
}

/** `BucketRateLimiter`: one shared token bucket for all items (it has no per-item memory). */
export class BucketRateLimiter implements RateLimiter {
  private readonly bucket: TokenBucket;

  constructor(clock: Clock, qps: number = DEFAULT_BUCKET_QPS, burst: number = DEFAULT_BUCKET_BURST) {
    this.bucket = new TokenBucket(clock, qps, burst);
  }

  when(_item: string): number {
    return this.bucket.reserve();
  }

  forget(_item: string): void {}

  numRequeues(_item: string): number {
    return 0;
  }
}

/** `MaxOfRateLimiter`: asks every limiter (each counts the failure) and waits the longest. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(item: string): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: string): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: string): number {
    let max = 0;
    for (const l of this.limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/**
 * `DefaultControllerRateLimiter()`: max of ItemExponentialFailureRateLimiter(5 ms, 1000 s) and
 * BucketRateLimiter(10 qps, burst 100). What kube-controller-manager's controllers use.
 */
export function defaultControllerRateLimiter(clock: Clock): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(), new BucketRateLimiter(clock));
}

// ------------------------------------------------------------------------------ the queue

/** Options of `RateLimitingQueue`. */
export interface QueueOptions {
  /** Name for clock labels and traces, e.g. `replicaset`. */
  name: string;
  /** Defaults to `defaultControllerRateLimiter(clock)`. */
  rateLimiter?: RateLimiter;
}

/**
 * A rate-limited, delaying, de-duplicating queue of string keys (`namespace/name`).
 *
 * Contract (client-go queue.go): `get()` hands a key to one worker and marks it processing; the
 * worker must call `done(key)` when finished. While processing, `add(key)` only marks it dirty;
 * `done` puts it back. A key is never held by two workers at once.
 *
 * Delayed adds (`addAfter`, `addRateLimited`) are clock timers (foreground: pending work keeps
 * `Clock.runUntilQuiet` running). `shutDown()` cancels them and drops every key: the process died.
 * Unlike client-go, `get()` does not block: it returns undefined when nothing is ready.
 */
export class RateLimitingQueue {
  readonly name: string;
  private readonly rateLimiter: RateLimiter;
  private queue: string[] = [];
  private head = 0;
  private dirty = new Set<string>();
  private processing = new Set<string>();
  private waiting = new Map<string, Timer>();
  private shuttingDown = false;
  private listener: (() => void) | undefined;

  constructor(
    private readonly clock: Clock,
    opts: QueueOptions,
  ) {
    this.name = opts.name;
    this.rateLimiter = opts.rateLimiter ?? defaultControllerRateLimiter(clock);
  }

  /** Queue `key` now (no-op if already queued, deferred to `done` if being processed, or after shutdown). */
  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.listener?.();
  }

  /**
   * Queue `key` after `delayMs` virtual ms. A key already waiting keeps the earlier of the two
   * times (delaying_queue.go). `delayMs <= 0` is `add`.
   */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (!(delayMs > 0)) {
      this.add(key);
      return;
    }
    const at = this.clock.now() + delayMs;
    const existing = this.waiting.get(key);
    if (existing) {
      if (existing.at <= at) return;
      existing.cancel();
    }
    const timer = this.clock.scheduleAt(
      at,
      () => {
        this.waiting.delete(key);
        this.add(key);
      },
      { label: `${this.name}: requeue ${key}` },
    );
    this.waiting.set(key, timer);
  }

  /** Queue `key` after the rate limiter's delay (one more failure counted for it). */
  addRateLimited(key: string): void {
    if (this.shuttingDown) return;
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Reset `key`'s failure count (call after a successful reconcile). Does not dequeue it. */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** Failures counted for `key` since it was last forgotten. */
  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  /** Take the next ready key and mark it processing; undefined when none is ready or shut down. */
  get(): string | undefined {
    if (this.shuttingDown || this.head >= this.queue.length) return undefined;
    const key = this.queue[this.head++];
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.processing.add(key);
    this.dirty.delete(key);
    return key;
  }

  /** Finish processing `key`; if it was added meanwhile, queue it again. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.shuttingDown) return;
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.listener?.();
    }
  }

  /** Number of keys ready to be taken (excludes keys being processed and delayed keys). */
  len(): number {
    return this.queue.length - this.head;
  }

  /** Number of keys waiting on a delay timer. */
  delayed(): number {
    return this.waiting.size;
  }

  /** True once `shutDown` was called. */
  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Stop the queue: cancel delay timers, drop every key; later adds are ignored. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const t of this.waiting.values()) t.cancel();
    this.waiting.clear();
    this.queue = [];
    this.head = 0;
    this.dirty.clear();
    this.listener = undefined;
  }

  /**
   * Register the one callback told when a key becomes ready (used by `startWorkers`).
   * @internal
   */
  setReadyListener(fn: (() => void) | undefined): void {
    this.listener = fn;
  }
}

// ------------------------------------------------------------------------------ reconcile contract

/**
 * What a reconcile asks of the queue, as controller-runtime's `reconcile.Result`
 * (sigs.k8s.io/controller-runtime/pkg/reconcile/reconcile.go):
 *   - nothing (or `{}`): success; the key's failure count is forgotten;
 *   - `requeueAfterMs`: forget failures, then queue again after that many virtual ms
 *     (e.g. ReplicaSet's `AddAfter(key, MinReadySeconds)`);
 *   - `requeue: true`: queue again through the rate limiter (backoff), without an error.
 */
export interface ReconcileResult {
  requeue?: boolean;
  requeueAfterMs?: number;
}

/**
 * A controller's reconcile loop body. `reconcile(key)` gets only a key (`namespace/name`, or
 * `name` for cluster-scoped objects), never the event that caused it: it reads the current
 * state from its informers' caches, compares it with what should be, and writes through the API
 * server. Reconciliation is level-based: five replicas wanted and one pod seen means create four,
 * whatever sequence of events led there.
 *
 * Errors: throw the `ApiError` a write raised (connection refused, Conflict, ...) and the key is
 * retried with `addRateLimited`. Any other exception is an engine bug and propagates.
 */
export interface Reconciler {
  /** The controller's name, e.g. `replicaset-controller`. */
  readonly name: string;
  reconcile(key: string): ReconcileResult | void;
}

/** Something whose caches must be synced before workers run (an Informer). */
export interface CacheSyncWaiter {
  hasSynced(): boolean;
  /** Call `cb` once, when synced (immediately if already synced). */
  whenSynced(cb: () => void): void;
}

/** Options of `startWorkers`. */
export interface WorkerOptions {
  clock: Clock;
  /** Controller name, for clock labels (`replicaset-controller: sync bookshop/catalog-58544d89f4`). */
  name: string;
  /** Concurrent workers (kube-controller-manager's `--concurrent-*-syncs`, mostly 5). Default 1. */
  workers?: number;
  /**
   * Virtual ms each reconcile occupies its worker (the key stays "processing" for that long).
   * Default 0: a reconcile is instantaneous, one key per clock event.
   */
  costMs?: number;
  /**
   * Informers whose caches must be synced before any key is processed
   * (`cache.WaitForNamedCacheSync`). Keys queued before that wait.
   */
  waitForSync?: CacheSyncWaiter[];
  /** Told about every ApiError a reconcile threw (the key is retried with backoff). */
  onError?: (key: string, err: ApiError) => void;
}

/** Handle on running workers. */
export interface Workers {
  /** Shut the queue down and cancel every pending drain, delay and cost timer. */
  stop(): void;
  /** Keys reconciled so far. */
  readonly processed: number;
}

/**
 * Run `reconcile` over `queue` on the clock: whenever a key is ready and a worker is free, a
 * 0-ms event takes one key and reconciles it. Result handling follows controller-runtime:
 * success -> `forget`; `requeueAfterMs` -> `forget` + `addAfter`; `requeue` -> `addRateLimited`;
 * thrown `ApiError` -> `addRateLimited` (and `onError`); other throw -> rethrown after `done`.
 *
 * Source: pkg/controller/replicaset/replica_set.go (`processNextWorkItem`),
 * sigs.k8s.io/controller-runtime/pkg/internal/controller/controller.go (`reconcileHandler`).
 */
export function startWorkers(
  queue: RateLimitingQueue,
  reconcile: ((key: string) => ReconcileResult | void) | Reconciler,
  opts: WorkerOptions,
): Workers {
  const { clock, name } = opts;
  const workers = Math.max(1, opts.workers ?? 1);
  const costMs = opts.costMs ?? 0;
  const fn = typeof reconcile === 'function' ? reconcile : (key: string) => reconcile.reconcile(key);
  const waitFor = opts.waitForSync ?? [];
  let busy = 0;
  let processed = 0;
  let stopped = false;
  let drain: Timer | undefined;
  let syncWaitRegistered = false;
  const costTimers = new Set<Timer>();
  /** The drain event's options, built once (performance only: one event per queued key). */
  const workerOpts = { label: `${name}: worker` };

  const synced = (): boolean => {
    for (const w of waitFor) if (!w.hasSynced()) return false;
    return true;
  };

  const kick = (): void => {
    if (stopped || drain || busy >= workers || queue.len() === 0) return;
    if (!synced()) {
      if (!syncWaitRegistered) {
        syncWaitRegistered = true;
        for (const w of waitFor) w.whenSynced(() => kick());
      }
      return;
    }
    drain = clock.schedule(0, runOne, workerOpts);
  };

  const finish = (key: string): void => {
    queue.done(key);
    busy--;
    kick();
  };

  function runOne(): void {
    drain = undefined;
    if (stopped) return;
    const key = queue.get();
    if (key === undefined) return;
    busy++;
    processed++;
    let result: ReconcileResult | void;
    try {
      result = fn(key);
    } catch (e) {
      if (!(e instanceof ApiError)) {
        finish(key);
        throw e;
      }
      opts.onError?.(key, e);
      queue.addRateLimited(key);
      settle(key);
      return;
    }
    if (result?.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
      queue.forget(key);
      queue.addAfter(key, result.requeueAfterMs);
    } else if (result?.requeue) {
      queue.addRateLimited(key);
    } else {
      queue.forget(key);
    }
    settle(key);
  }

  function settle(key: string): void {
    if (costMs > 0) {
      const t = clock.schedule(
        costMs,
        () => {
          costTimers.delete(t);
          finish(key);
        },
        { label: `${name}: done ${key}` },
      );
      costTimers.add(t);
      kick();
    } else {
      finish(key);
    }
  }

  queue.setReadyListener(kick);
  kick();

  return {
    stop(): void {
      stopped = true;
      drain?.cancel();
      drain = undefined;
      for (const t of costTimers) t.cancel();
      costTimers.clear();
      queue.shutDown();
    },
    get processed() {
      return processed;
    },
  };
}
