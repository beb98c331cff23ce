/**
 * Shared informers: a simulated process's local, watch-fed cache of API objects.
 *
 * Mirrors client-go `tools/cache`:
 *   - shared_informer.go: one informer per resource type (and list options) per process, shared
 *     by every controller of that process, with an indexer cache and event handlers;
 *   - reflector.go: list, then watch from the list's resourceVersion; when the list fails or the
 *     watch breaks, wait on an exponential backoff (800 ms doubling to 30 s, jitter 1.0, reset
 *     after 2 min without failures) and list again;
 *   - delta_fifo.go `Replace`: a relist is diffed against the cache, so handlers see an add for
 *     every object created, an update for every object changed and a delete for every object
 *     removed while the process was not watching. This catch-up is the lesson of the product:
 *     a controller that was down (or cut off from kube-apiserver) relists and reconciles
 *     everything that happened in the meantime;
 *   - index.go / thread_safe_store.go: the cache keyed `namespace/name` (`name` for
 *     cluster-scoped objects), a `namespace` index and custom indexers. (Stored here as
 *     namespace -> name -> object, which is also the namespace index: lookups then use the
 *     object's own name strings instead of building a key per event.)
 *
 * A `SharedInformerFactory` is one process's memory: `stop()` (the process dies) throws away
 * every cache, handler, timer and watch; a restarted process builds a new factory and relists.
 *
 * Event handlers run synchronously when the watch event (or relist) is delivered and must only
 * compute keys and enqueue them (`queue.add(key)`): all work happens in `reconcile(key)`, which
 * reads the cache. That is what makes controllers level-triggered.
 *
 * Cached objects are shared with the API server's watch fan-out and with every controller of the
 * process: treat them as read-only and `deepCopy` before changing one (client-go's rule too).
 *
 * Simulation note: kube-apiserver's watch ends silently when it stops (`WatchHandle.stopped`
 * turns true, no event is delivered). A real client sees its TCP connection close at once; here
 * the factory probes its watches on a grid of `watchProbeMs` (default 1 s) from its start: the
 * first grid tick after a watch ended (any watch of the API server) is a background clock event
 * that checks every informer's watch. With no watch ended, no tick runs (a tick could only find
 * every watch open).
 * After a broken watch the informer relists (through the backoff while the API stays down),
 * which is what client-go ends up doing after a kube-apiserver restart: its re-watch from the
 * old resourceVersion gets 410 Gone from the restarted server's fresh watch cache.
 *
 * Units: virtual milliseconds throughout.
 */
import type { Clock, Rng, Timer } from '../clock';
import { ApiError, type StatusObject } from '../api/errors';
import type { ApiServer, WatchHandle } from '../api/server';
import { parseLabelSelector } from '../api/labels';
import type { KubeObject, WatchEvent } from '../api/types';

// ------------------------------------------------------------------------------ keys and indexers

/**
 * `cache.MetaNamespaceKeyFunc`: `namespace/name`, or `name` for a cluster-scoped object.
 * This is the key controllers put in their work queues.
 */
export function metaNamespaceKey(obj: { metadata: { namespace?: string; name?: string } }): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? '');
}

/** `cache.SplitMetaNamespaceKey`: `ns/name` -> {namespace: ns, name}; `name` -> {name}. */
export function splitMetaNamespaceKey(key: string): { namespace?: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** An index function: the index values of an object (an object may have several or none). */
export type IndexFunc<T extends KubeObject = KubeObject> = (obj: T) => string[];

/** Name of the built-in namespace index (`cache.NamespaceIndex`). */
export const NAMESPACE_INDEX = 'namespace';

/** `cache.MetaNamespaceIndexFunc`: the object's namespace ('' for cluster-scoped). */
export const indexByNamespace: IndexFunc = (obj) => [obj.metadata.namespace ?? ''];

/** Pods by `spec.nodeName` (what the kubelet and the scheduler's cache look up by). */
export const indexByNodeName: IndexFunc = (obj) => (obj.spec?.nodeName ? [obj.spec.nodeName as string] : []);

/** Objects by the uid of their controller owner reference (`controller: true`). */
export const indexByControllerUid: IndexFunc = (obj) => {
  const ref = obj.metadata.ownerReferences?.find((r) => r.controller);
  return ref ? [ref.uid] : [];
};

/** Objects by the uid of every owner reference (the garbage collector's view). */
export const indexByOwnerUid: IndexFunc = (obj) => (obj.metadata.ownerReferences ?? []).map((r) => r.uid);

/** Anything with `matches(labels)`: a compiled selector from `api/labels`. */
export interface LabelMatcher {
  matches(labels: Record<string, string> | undefined): boolean;
}

// ------------------------------------------------------------------------------ handlers, lister

/**
 * `cache.ResourceEventHandler`. Handlers must only enqueue keys; they run inside the watch
 * delivery and must not write to the API or do work.
 */
export interface EventHandler<T extends KubeObject = KubeObject> {
  /** A new object; `isInInitialList` is true for objects of the first list (client-go >= 1.27). */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /**
   * An object changed (`oldObj` is the cached state before). Periodic resyncs call it with
   * `oldObj === newObj`; a relist calls it only for objects whose resourceVersion changed.
   */
  onUpdate?(oldObj: T, newObj: T): void;
  /**
   * An object is gone. `finalStateUnknown` is true when the deletion was noticed by a relist,
   * not a watch event: `obj` is then the last state the cache saw (client-go wraps it in
   * `DeletedFinalStateUnknown`).
   */
  onDelete?(obj: T, finalStateUnknown: boolean): void;
}

/** What `addEventHandler` returns (`cache.ResourceEventHandlerRegistration`). */
export interface HandlerRegistration {
  /** Stop calling this handler. */
  remove(): void;
  /** True once the handler has received the informer's initial list. */
  hasSynced(): boolean;
}

/**
 * Read access to an informer's cache (client-go's generated listers). Results are the cached
 * objects themselves: read-only. Order: cache insertion order (deterministic, not sorted).
 */
export interface Lister<T extends KubeObject = KubeObject> {
  /** One object by namespace (undefined or '' for cluster-scoped) and name. */
  get(namespace: string | undefined, name: string): T | undefined;
  /** One object by its `metaNamespaceKey`. */
  getByKey(key: string): T | undefined;
  /** Objects in `namespace` (undefined or '' = all), optionally filtered by a label selector. */
  list(namespace?: string, selector?: string | LabelMatcher): T[];
  /** Objects whose index `indexName` has `value`. Throws if the index does not exist. */
  byIndex(indexName: string, value: string): T[];
}

// ------------------------------------------------------------------------------ options

/** The reflector's backoff (apimachinery `wait.NewExponentialBackoffManager` arguments). */
export interface ReflectorBackoff {
  /** First delay, virtual ms. */
  initialMs: number;
  /** Largest base delay, virtual ms (jitter can add up to `jitter` x this). */
  maxMs: number;
  factor: number;
  /** Jitter factor: each delay d becomes d + rand[0,1) * jitter * d. 0 disables jitter. */
  jitter: number;
  /** After this long without a backoff, start again from `initialMs`. */
  resetMs: number;
}

/**
 * client-go's reflector backoff: 800 ms, doubling, capped at 30 s, jitter 1.0 (so [30, 60) s at
 * the cap), reset after 2 minutes without failures.
 * Source: staging/src/k8s.io/client-go/tools/cache/reflector.go (`NewReflectorWithOptions`:
 * `wait.NewExponentialBackoffManager(800*time.Millisecond, 30*time.Second, 2*time.Minute, 2.0, 1.0, ...)`).
 */
export const REFLECTOR_BACKOFF: Readonly<ReflectorBackoff> = Object.freeze({
  initialMs: 800,
  maxMs: 30_000,
  factor: 2,
  jitter: 1,
  resetMs: 2 * 60_000,
});

/** Default period of the factory's watch-liveness probe (simulation artefact, see file doc). */
export const DEFAULT_WATCH_PROBE_MS = 1000;

/** A log line from the client machinery (klog-like), for process logs in the UI. */
export interface ClientLogLine {
  level: 'info' | 'warning' | 'error';
  /** e.g. `reflector: failed to list *v1.Pod: The connection to the server ... was refused ...`. */
  message: string;
}

/** Options of `SharedInformerFactory`. */
export interface SharedInformerFactoryOptions {
  api: ApiServer;
  clock: Clock;
  /** The seeded generator; backoff jitter is drawn from it. */
  rng: Rng;
  /** The process the factory belongs to, for clock labels, e.g. `kube-controller-manager`. */
  name: string;
  /** Resync period for informers that set none; 0 or undefined = no resync. Virtual ms. */
  defaultResyncMs?: number;
  /** Override parts of `REFLECTOR_BACKOFF` (tests, lessons). */
  backoff?: Partial<ReflectorBackoff>;
  /** Period of the broken-watch probe, virtual ms. Default `DEFAULT_WATCH_PROBE_MS`. */
  watchProbeMs?: number;
  /** Receives reflector log lines (list failures, broken watches). */
  log?: (line: ClientLogLine) => void;
}

/** Options of one informer (`informers.WithNamespace`, `WithTweakListOptions`, indexers). */
export interface InformerOptions<T extends KubeObject = KubeObject> {
  /** Watch one namespace only; undefined = all namespaces. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Extra indexers by name (added to an existing shared informer too). */
  indexers?: Record<string, IndexFunc<T>>;
  /** Resync period in virtual ms (onUpdate(obj, obj) for every cached object); 0 = none. */
  resyncMs?: number;
}

// ------------------------------------------------------------------------------ informer

interface Registration<T extends KubeObject> {
  handler: EventHandler<T>;
  removed: boolean;
}

interface InformerDeps {
  api: ApiServer;
  clock: Clock;
  rng: Rng;
  process: string;
  backoff: ReflectorBackoff;
  log?: (line: ClientLogLine) => void;
}

/**
 * An informer's `Lister`: reads of its cache maps (never replaced, only changed), as methods on
 * one prototype instead of four closures per informer (performance only).
 */
class CacheLister<T extends KubeObject> implements Lister<T> {
  constructor(
    private readonly resource: string,
    private readonly byNamespace: Map<string, Map<string, T>>,
    private readonly indices: Map<string, Map<string, Set<string>>>,
  ) {}

  get(namespace: string | undefined, name: string): T | undefined {
    return this.byNamespace.get(namespace ?? '')?.get(name);
  }

  getByKey(key: string): T | undefined {
    // `splitMetaNamespaceKey` inline (performance only: no {namespace, name} object per read;
    // a key without '/' is a cluster-scoped name, stored under namespace '').
    const i = key.indexOf('/');
    if (i < 0) return this.byNamespace.get('')?.get(key);
    return this.byNamespace.get(key.slice(0, i))?.get(key.slice(i + 1));
  }

  list(namespace?: string, selector?: string | LabelMatcher): T[] {
    const matcher: LabelMatcher | undefined = typeof selector === 'string' ? (selector ? parseLabelSelector(selector) : undefined) : selector;
    const out: T[] = [];
    if (namespace) {
      const m = this.byNamespace.get(namespace);
      if (m) for (const o of m.values()) if (!matcher || matcher.matches(o.metadata.labels)) out.push(o);
      return out;
    }
    for (const m of this.byNamespace.values()) for (const o of m.values()) if (!matcher || matcher.matches(o.metadata.labels)) out.push(o);
    return out;
  }

  byIndex(indexName: string, value: string): T[] {
    if (indexName === NAMESPACE_INDEX) return [...(this.byNamespace.get(value)?.values() ?? [])];
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`informer ${this.resource}: index with name ${indexName} does not exist`);
    const keys = index.get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const k of keys) out.push(this.getByKey(k)!);
    return out;
  }
}

/**
 * One shared informer: a reflector (list + watch with backoff) feeding an indexed cache, plus
 * event handlers. Created by `SharedInformerFactory.informer()`; started by `factory.start()`.
 */
export class Informer<T extends KubeObject = KubeObject> {
  /** The resource as given (`pods`, `deployments.apps`, a CRD plural). */
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly labelSelector: string | undefined;
  readonly fieldSelector: string | undefined;
  /** Read access to the cache. */
  readonly lister: Lister<T>;
  /** resourceVersion of the last list or watch event applied. */
  lastSyncResourceVersion = '';
  /** The last list/watch failure, cleared by a successful list. */
  lastError: ApiError | undefined;
  /** Number of successful lists (1 after the initial sync; +1 per relist). */
  listCount = 0;

  private readonly deps: InformerDeps;
  private readonly resyncMs: number;
  /** The cache: namespace ('' for cluster-scoped) -> name -> object. Also the namespace index. */
  private byNamespace = new Map<string, Map<string, T>>();
  private count = 0;
  /** Custom indexers (the namespace index is `byNamespace`). */
  private indexers: { name: string; fn: IndexFunc<T>; index: Map<string, Set<string>> }[] = [];
  private indices = new Map<string, Map<string, Set<string>>>();
  private handlers: Registration<T>[] = [];
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private started = false;
  private stopped = false;
  private watchHandle: WatchHandle | undefined;
  private watchGen = 0;
  private retryTimer: Timer | undefined;
  private resyncTimer: Timer | undefined;
  private backoffDuration: number;
  private backoffCapped = false;
  private lastBackoffStart: number;

  /** @internal Use `SharedInformerFactory.informer()`. */
  constructor(deps: InformerDeps, resource: string, opts: InformerOptions<T>, defaultResyncMs: number) {
    this.deps = deps;
    this.resource = resource;
    this.namespace = opts.namespace;
    this.labelSelector = opts.labelSelector;
    this.fieldSelector = opts.fieldSelector;
    this.resyncMs = opts.resyncMs ?? defaultResyncMs;
    this.backoffDuration = deps.backoff.initialMs;
    this.lastBackoffStart = deps.clock.now();
    if (opts.indexers) this.addIndexers(opts.indexers);
    this.lister = new CacheLister(resource, this.byNamespace, this.indices);
  }

  /** True once the first list has been applied (stays true across relists, false after stop). */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Call `cb` once the cache has synced (right away if it has). Dropped if the factory stops first. */
  whenSynced(cb: () => void): void {
    if (this.synced) cb();
    else if (!this.stopped) this.syncWaiters.push(cb);
  }

  /** True between `factory.start()` and `factory.stop()`. */
  isRunning(): boolean {
    return this.started && !this.stopped;
  }

  /** True while a watch is open (false while listing, backing off, or after stop). */
  isWatching(): boolean {
    return this.watchHandle !== undefined && !this.watchHandle.stopped;
  }

  /**
   * Register handlers. If the cache is already populated, `onAdd(obj, true)` is called at once
   * for every cached object (client-go replays the cache to late handlers).
   */
  addEventHandler(handler: EventHandler<T>): HandlerRegistration {
    const reg: Registration<T> = { handler, removed: false };
    this.handlers.push(reg);
    if (this.synced && handler.onAdd) for (const o of this.all()) handler.onAdd(o, true);
    return {
      remove: () => {
        reg.removed = true;
        this.handlers = this.handlers.filter((r) => r !== reg);
      },
      hasSynced: () => this.synced && !reg.removed,
    };
  }

  /**
   * Add indexers (by name). Existing objects are indexed at once. Re-adding the same function
   * under the same name is a no-op; a different function under a taken name throws
   * (client-go: "indexer conflict").
   */
  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      if (name === NAMESPACE_INDEX) {
        if (fn === indexByNamespace) continue;
        throw new Error(`informer ${this.resource}: indexer conflict: ${name}`);
      }
      const existing = this.indexers.find((x) => x.name === name);
      if (existing?.fn === fn) continue;
      if (existing) throw new Error(`informer ${this.resource}: indexer conflict: ${name}`);
      const index = new Map<string, Set<string>>();
      this.indexers.push({ name, fn, index });
      this.indices.set(name, index);
      for (const obj of this.all()) {
        const key = metaNamespaceKey(obj);
        for (const v of fn(obj)) addToIndex(index, v, key);
      }
    }
  }

  /** Number of cached objects. */
  size(): number {
    return this.count;
  }

  // ---------------------------------------------------------------- lifecycle (factory-driven)

  /** @internal Start the reflector: the first list runs in a 0-ms clock event. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.scheduleListAndWatch(0);
    if (this.resyncMs > 0) this.scheduleResync();
  }

  /** @internal Stop for good: cancel timers, end the watch, drop the cache and the handlers. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.resyncTimer?.cancel();
    this.resyncTimer = undefined;
    this.closeWatch();
    this.byNamespace.clear();
    this.count = 0;
    for (const index of this.indices.values()) index.clear();
    this.handlers = [];
    this.synced = false;
    this.syncWaiters = [];
  }

  /** @internal Called by the factory's probe: notice a watch the API server ended silently. */
  checkWatch(): void {
    if (this.stopped || !this.watchHandle || !this.watchHandle.stopped) return;
    this.closeWatch();
    this.log(
      'warning',
      `watch of ${this.typeDescription()} ended with: an error on the server ("unable to decode an event from the watch stream: http2: client connection lost") has prevented the request from succeeding`,
    );
    // client-go re-watches at once; when that is refused it waits on the backoff.
    this.listAndWatch();
  }

  // ---------------------------------------------------------------- reflector

  private scheduleListAndWatch(delayMs: number): void {
    this.retryTimer = this.deps.clock.schedule(delayMs, () => this.listAndWatch(), {
      label: `${this.deps.process}: list ${this.resource}`,
    });
  }

  private listAndWatch(): void {
    this.retryTimer = undefined;
    if (this.stopped) return;
    const { api } = this.deps;
    const listOpts = { namespace: this.namespace, labelSelector: this.labelSelector, fieldSelector: this.fieldSelector };
    let list;
    try {
      list = api.list(this.resource, listOpts);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.lastError = e;
      this.log('warning', `failed to list ${this.typeDescription()}: ${e.message}`);
      this.backoffThenRelist();
      return;
    }
    this.lastError = undefined;
    this.listCount++;
    this.replace(list.items as T[], list.metadata.resourceVersion);
    if (this.stopped) return; // a handler may have stopped the process
    const gen = ++this.watchGen;
    try {
      this.watchHandle = api.watch(this.resource, { ...listOpts, resourceVersion: this.lastSyncResourceVersion }, (ev) => {
        if (gen === this.watchGen) this.onWatchEvent(ev);
      });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      this.watchHandle = undefined;
      this.lastError = e;
      this.log('warning', `failed to watch ${this.typeDescription()}: ${e.message}`);
      this.backoffThenRelist();
    }
  }

  private backoffThenRelist(): void {
    if (this.stopped || this.retryTimer) return;
    this.scheduleListAndWatch(this.nextBackoffMs());
  }

  /**
   * `exponentialBackoffManagerImpl.getNextBackoff` + `wait.Backoff.Step`: reset to the initial
   * delay when the last backoff started more than `resetMs` ago; each step returns the current
   * delay (jittered) and multiplies it by `factor`, up to `maxMs`.
   */
  private nextBackoffMs(): number {
    const b = this.deps.backoff;
    const now = this.deps.clock.now();
    if (now - this.lastBackoffStart > b.resetMs) {
      this.backoffDuration = b.initialMs;
      this.backoffCapped = false;
    }
    this.lastBackoffStart = now;
    const d = this.backoffDuration;
    if (!this.backoffCapped) {
      let next = d * b.factor;
      if (next > b.maxMs) {
        next = b.maxMs;
        this.backoffCapped = true;
      }
      this.backoffDuration = next;
    }
    return b.jitter > 0 ? this.deps.rng.jitter(d, b.jitter) : d;
  }

  private closeWatch(): void {
    this.watchGen++;
    this.watchHandle?.stop();
    this.watchHandle = undefined;
  }

  private onWatchEvent(ev: WatchEvent): void {
    if (this.stopped) return;
    switch (ev.type) {
      case 'ADDED':
      case 'MODIFIED': {
        const obj = ev.object as T;
        this.lastSyncResourceVersion = obj.metadata.resourceVersion ?? this.lastSyncResourceVersion;
        const old = this.put(obj);
        if (old) this.fireUpdate(old, obj);
        else this.fireAdd(obj, false);
        return;
      }
      case 'DELETED': {
        const obj = ev.object as T;
        this.lastSyncResourceVersion = obj.metadata.resourceVersion ?? this.lastSyncResourceVersion;
        this.remove(obj);
        this.fireDelete(obj, false);
        return;
      }
      case 'BOOKMARK':
        this.lastSyncResourceVersion = ev.object.metadata.resourceVersion ?? this.lastSyncResourceVersion;
        return;
      case 'ERROR': {
        // 410 Gone ("too old resource version"): the watch is over; relist.
        const status = ev.object as unknown as StatusObject;
        this.closeWatch();
        this.lastError = new ApiError(status);
        this.log('info', `watch of ${this.typeDescription()} closed with: ${status.message}`);
        this.backoffThenRelist();
        return;
      }
    }
  }

  /**
   * `DeltaFIFO.Replace` + `processDeltas`: apply a full list. New objects fire onAdd, objects
   * whose resourceVersion changed fire onUpdate (in list order), then objects no longer listed
   * fire onDelete(last state, finalStateUnknown = true). Unchanged objects fire nothing.
   */
  private replace(listed: T[], resourceVersion: string): void {
    const initial = !this.synced;
    const seen = new Set<T>();
    for (const obj of listed) {
      const old = this.byNamespace.get(obj.metadata.namespace ?? '')?.get(obj.metadata.name!);
      if (!old) {
        this.put(obj);
        this.fireAdd(obj, initial);
        seen.add(obj);
      } else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) {
        this.put(obj);
        this.fireUpdate(old, obj);
        seen.add(obj);
      } else {
        seen.add(old);
      }
    }
    const gone = this.all().filter((o) => !seen.has(o));
    for (const old of gone) {
      this.remove(old);
      this.fireDelete(old, true);
    }
    this.lastSyncResourceVersion = resourceVersion;
    if (!this.synced && !this.stopped) {
      this.synced = true;
      const waiters = this.syncWaiters;
      this.syncWaiters = [];
      for (const w of waiters) w();
    }
  }

  private scheduleResync(): void {
    this.resyncTimer = this.deps.clock.schedule(
      this.resyncMs,
      () => {
        this.resyncTimer = undefined;
        if (this.stopped) return;
        if (this.synced) for (const o of this.all()) this.fireUpdate(o, o);
        this.scheduleResync();
      },
      { label: `${this.deps.process}: resync ${this.resource}`, background: true },
    );
  }

  // ---------------------------------------------------------------- cache

  /** Every cached object (a snapshot array, safe to iterate while handlers run). */
  private all(): T[] {
    const out: T[] = [];
    for (const m of this.byNamespace.values()) for (const o of m.values()) out.push(o);
    return out;
  }

  /** Store `obj`; returns the object it replaced, if any. */
  private put(obj: T): T | undefined {
    const ns = obj.metadata.namespace ?? '';
    let m = this.byNamespace.get(ns);
    if (!m) {
      m = new Map();
      this.byNamespace.set(ns, m);
    }
    const name = obj.metadata.name!;
    const old = m.get(name);
    m.set(name, obj);
    if (!old) this.count++;
    const indexers = this.indexers;
    if (indexers.length > 0) {
      // The key is made only when an index changes (performance only: an update rarely moves
      // an object in any index; the key is a pure function of `obj`'s namespace and name, which
      // `old` shares, so making it later gives the same string).
      let key: string | undefined;
      for (let i = 0; i < indexers.length; i++) {
        const { fn, index } = indexers[i];
        const newValues = fn(obj);
        if (old) {
          const oldValues = fn(old);
          if (sameValues(oldValues, newValues)) continue;
          key ??= metaNamespaceKey(obj);
          for (const v of oldValues) removeFromIndex(index, v, key);
        }
        if (newValues.length === 0) continue;
        key ??= metaNamespaceKey(obj);
        for (const v of newValues) addToIndex(index, v, key);
      }
    }
    return old;
  }

  /** Drop the cached object with `obj`'s namespace and name, if any. */
  private remove(obj: T): void {
    const m = this.byNamespace.get(obj.metadata.namespace ?? '');
    const name = obj.metadata.name!;
    const old = m?.get(name);
    if (!m || !old) return;
    m.delete(name);
    this.count--;
    if (this.indexers.length > 0) {
      const key = metaNamespaceKey(old);
      for (const { fn, index } of this.indexers) for (const v of fn(old)) removeFromIndex(index, v, key);
    }
  }

  // ---------------------------------------------------------------- handlers

  private fireAdd(obj: T, initial: boolean): void {
    for (const r of this.handlers) if (!r.removed) r.handler.onAdd?.(obj, initial);
  }

  private fireUpdate(old: T, obj: T): void {
    for (const r of this.handlers) if (!r.removed) r.handler.onUpdate?.(old, obj);
  }

  private fireDelete(obj: T, finalStateUnknown: boolean): void {
    for (const r of this.handlers) if (!r.removed) r.handler.onDelete?.(obj, finalStateUnknown);
  }

  private typeDescription(): string {
    try {
      const t = this.deps.api.resolveType(this.resource);
      return `*${t.version}.${t.kind}`;
    } catch {
      return this.resource;
    }
  }

  private log(level: ClientLogLine['level'], message: string): void {
    this.deps.log?.({ level, message: `reflector: ${message}` });
  }
}

function sameValues(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function addToIndex(index: Map<string, Set<string>>, value: string, key: string): void {
  let set = index.get(value);
  if (!set) {
    set = new Set();
    index.set(value, set);
  }
  set.add(key);
}

function removeFromIndex(index: Map<string, Set<string>>, value: string, key: string): void {
  const set = index.get(value);
  if (!set) return;
  set.delete(key);
  if (set.size === 0) index.delete(value);
}

// ------------------------------------------------------------------------------ factory

/**
 * `informers.SharedInformerFactory`: the informers of one simulated process
 * (kube-controller-manager, kube-scheduler, a kubelet, an app controller). Ask for informers with
 * `informer()`, register handlers, then `start()`. `stop()` is the process dying.
 */
export class SharedInformerFactory {
  readonly name: string;
  private readonly deps: InformerDeps;
  private readonly defaultResyncMs: number;
  private readonly watchProbeMs: number;
  private informers = new Map<string, Informer<KubeObject>>();
  private probe: Timer | undefined;
  private started = false;
  private stopped = false;

  constructor(opts: SharedInformerFactoryOptions) {
    this.name = opts.name;
    this.probeOpts = { label: `${this.name}: watch probe` };
    this.probeTimerOpts = { label: this.probeOpts.label, background: true };
    this.deps = {
      api: opts.api,
      clock: opts.clock,
      rng: opts.rng,
      process: opts.name,
      backoff: { ...REFLECTOR_BACKOFF, ...(opts.backoff ?? {}) },
      log: opts.log,
    };
    this.defaultResyncMs = opts.defaultResyncMs ?? 0;
    this.watchProbeMs = opts.watchProbeMs ?? DEFAULT_WATCH_PROBE_MS;
  }

  /**
   * The shared informer for `resource` with these list options (one per distinct
   * resource + namespace + selectors). Indexers in `opts` are added to it. Informers created
   * after `start()` run only after the next `start()` call (as in client-go).
   * Throws an Error after `stop()` (a dead process cannot make informers: an engine bug).
   */
  informer<T extends KubeObject = KubeObject>(resource: string, opts: InformerOptions<T> = {}): Informer<T> {
    if (this.stopped) throw new Error(`informer factory ${this.name} is stopped`);
    const key = `${resource}|${opts.namespace ?? ''}|${opts.labelSelector ?? ''}|${opts.fieldSelector ?? ''}`;
    let inf = this.informers.get(key) as Informer<T> | undefined;
    if (!inf) {
      inf = new Informer<T>(this.deps, resource, opts, this.defaultResyncMs);
      this.informers.set(key, inf as unknown as Informer<KubeObject>);
    } else if (opts.indexers) {
      inf.addIndexers(opts.indexers);
    }
    return inf;
  }

  /** Start every informer not yet started (their first lists run in 0-ms clock events). */
  start(): void {
    if (this.stopped) throw new Error(`informer factory ${this.name} is stopped`);
    this.started = true;
    for (const inf of this.informers.values()) inf.start();
    if (!this.probe && !this.unsubscribeWatchEnds) this.scheduleProbe();
  }

  /** True when every informer of the factory has synced (vacuously true with none). */
  hasSynced(): boolean {
    for (const inf of this.informers.values()) if (!inf.hasSynced()) return false;
    return true;
  }

  /** True after `start()` and before `stop()`. */
  isRunning(): boolean {
    return this.started && !this.stopped;
  }

  /** The process died: stop every informer, end every watch, cancel every timer, drop every cache. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.probe?.cancel();
    this.probe = undefined;
    this.probeTimer?.cancel();
    this.probeTimer = undefined;
    this.unsubscribeWatchEnds?.();
    this.unsubscribeWatchEnds = undefined;
    for (const inf of this.informers.values()) inf.stop();
    this.informers.clear();
  }

  /** Every informer of the factory (for inspection and tests). */
  all(): Informer<KubeObject>[] {
    return [...this.informers.values()];
  }

  private scheduleProbe(): void {
    const api = this.deps.api as Partial<Pick<ApiServer, 'onWatchEnded'>>;
    if (typeof api.onWatchEnded !== 'function') {
      // An API without watch-end notices (a test double): probe on every grid tick.
      this.probe = this.deps.clock.every(this.watchProbeMs, this.probeTick, this.probeOpts);
      return;
    }
    // Ticks that could only find every watch open are not run (performance only: the idle
    // cluster would run one per second in every process, ~43,000 an hour). The grid is the one
    // the recurring probe had: `watchProbeMs` apart from the first start.
    this.probeAnchor = this.deps.clock.now();
    this.unsubscribeWatchEnds = api.onWatchEnded(this.wakeProbe);
  }

  /** Start of the probe grid (virtual ms): the factory's first `start()`. */
  private probeAnchor = 0;
  private unsubscribeWatchEnds: (() => void) | undefined;
  /** The next grid tick, scheduled when a watch ended. */
  private probeTimer: Timer | undefined;
  private readonly wakeProbe = (): void => {
    if (this.stopped || this.probeTimer) return;
    const clock = this.deps.clock;
    const p = this.watchProbeMs;
    // The first grid tick not before now (now itself when on the grid: after the current event).
    const k = Math.max(1, Math.ceil((clock.now() - this.probeAnchor) / p));
    this.probeTimer = clock.scheduleAt(this.probeAnchor + k * p, this.fireProbe, this.probeTimerOpts);
  };
  private readonly fireProbe = (): void => {
    this.probeTimer = undefined;
    this.probeTick();
  };
  private readonly probeTimerOpts: { label: string; background: true };

  /** `api.watchesEnded` at the last look: a watch can only have ended silently if it changed since. */
  private seenWatchEnds: number | undefined = -1;
  private readonly probeOpts: { label: string };
  private readonly probeTick = (): void => {
    if (this.stopped) return;
    // A watch's `stopped` turns true only when the API server ends it (performance only: the
    // idle cluster runs this every second in every process).
    const ended = this.deps.api.watchesEnded as number | undefined;
    if (ended === undefined || ended !== this.seenWatchEnds) {
      this.seenWatchEnds = ended;
      for (const inf of [...this.informers.values()]) inf.checkWatch();
    }
  };
}
