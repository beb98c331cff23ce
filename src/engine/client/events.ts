/**
 * Recording core/v1 Events, as client-go's `record` package does for every component
 * (kubelet, kube-controller-manager's controllers, kube-scheduler, app controllers).
 *
 * Sources:
 *   - staging/src/k8s.io/client-go/tools/record/event.go: `recorderImpl.makeEvent` (name
 *     `<involvedObject.name>.<hex unix nanoseconds>`, namespace or `default`), the broadcaster
 *     that writes asynchronously, `recordToSink` (12 tries, 10 s apart, the first sleep
 *     randomised) and `recordEvent` (PATCH an existing event, CREATE otherwise; only transport
 *     errors are retried: a Status from the server drops the event);
 *   - staging/src/k8s.io/client-go/tools/record/events_cache.go: the `EventCorrelator`:
 *     aggregation of similar events (10 distinct messages within 10 min -> one event with
 *     `(combined from similar events): `), counting of identical events (count + lastTimestamp,
 *     written as a patch), and the per source+object spam filter (burst 25, 1 per 5 min);
 *   - staging/src/k8s.io/client-go/kubernetes/typed/core/v1/event_expansion.go (the sink).
 *
 * Everything runs on the virtual clock: `event()` returns at once; the write happens in a
 * 0-ms clock event, and retries wait on the clock. Writes are sequential per recorder (one
 * broadcaster goroutine in client-go): while one event waits for a retry, later ones queue
 * behind it (up to 1000, then dropped, as the broadcaster's channel).
 */
import type { Clock, Rng, Timer } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import { TokenBucket } from './workqueue';
import { flattenString } from '../strings';

/** Event types (`v1.EventTypeNormal`, `v1.EventTypeWarning`). */
export type EventType = 'Normal' | 'Warning';

/** `v1.ObjectReference` as `involvedObject` carries it (JSON field order of the Go struct). */
export interface InvolvedObject {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  apiVersion: string;
  resourceVersion?: string;
  /** e.g. `spec.containers{nginx}` for container-level kubelet events. */
  fieldPath?: string;
}

/** `v1.EventSource`. */
export interface EventSource {
  component: string;
  host?: string;
}

/** A core/v1 Event as the recorder writes it. */
export interface CoreEvent extends KubeObject {
  apiVersion: 'v1';
  kind: 'Event';
  involvedObject: InvolvedObject;
  reason: string;
  message: string;
  source: EventSource;
  /** RFC 3339, second resolution. */
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: EventType;
  /** Always null for events from this (core/v1) recorder. */
  eventTime: null;
  reportingComponent: string;
  reportingInstance: string;
}

/** What the local sink (the UI timeline) receives for every `event()` call. */
export interface LocalEventRecord {
  /** Virtual ms of the call. */
  time: number;
  component: string;
  host?: string;
  type: EventType;
  reason: string;
  message: string;
  involvedObject: InvolvedObject;
}

/** Events tried at most this many times. Source: tools/record/event.go (`maxTriesPerEvent`). */
export const MAX_TRIES_PER_EVENT = 12;
/** Sleep between tries, virtual ms (the first one is randomised in [0, 10 s)). Source: event.go (`defaultSleepDuration`). */
export const EVENT_RETRY_SLEEP_MS = 10_000;
/** Events queued in the broadcaster before new ones are dropped. Source: event.go (`maxQueuedEvents`). */
export const MAX_QUEUED_EVENTS = 1000;
/** LRU size of each correlator cache. Source: events_cache.go (`maxLruCacheEntries`). */
export const EVENT_LRU_ENTRIES = 4096;
/** Distinct messages that trigger aggregation. Source: events_cache.go (`defaultAggregateMaxEvents`). */
export const AGGREGATE_MAX_EVENTS = 10;
/** Aggregation window, virtual ms (600 s since the last similar event). Source: events_cache.go (`defaultAggregateIntervalInSeconds`). */
export const AGGREGATE_INTERVAL_MS = 600_000;
/** Spam filter burst per source+object. Source: events_cache.go (`defaultSpamBurst`). */
export const SPAM_BURST = 25;
/** Spam filter refill: 1 event per 300 s. Source: events_cache.go (`defaultSpamQPS`). */
export const SPAM_QPS = 1 / 300;
/** Prefix of aggregated messages. Source: events_cache.go (`EventAggregatorByReasonMessageFunc`). */
export const COMBINED_PREFIX = '(combined from similar events): ';

// ------------------------------------------------------------------------------ LRU

/** An entry of `Lru`, linked oldest to newest. */
interface LruEntry<V> {
  key: string;
  value: V;
  older: LruEntry<V> | undefined;
  newer: LruEntry<V> | undefined;
}

/**
 * A tiny LRU map (groupcache/lru semantics: `get` refreshes, `add` evicts the oldest). The
 * recency order is a linked list beside the Map (performance only: a refresh relinks an entry
 * instead of deleting and re-inserting its key, one hash lookup per call instead of three).
 */
class Lru<V> {
  private map = new Map<string, LruEntry<V>>();
  /** Least recently used entry (evicted first), and the most recent. */
  private oldest: LruEntry<V> | undefined;
  private newest: LruEntry<V> | undefined;
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    const e = this.map.get(k);
    if (e === undefined) return undefined;
    this.touch(e);
    return e.value;
  }
  /**
   * `get` that returns the entry itself (refreshed, so the newest), for a caller that then stores
   * a value under the same key: setting `entry.value` is what `add(k, v)` does to an entry that
   * is already the newest (performance only: one hash lookup of the long key instead of two).
   */
  entry(k: string): LruEntry<V> | undefined {
    const e = this.map.get(k);
    if (e === undefined) return undefined;
    this.touch(e);
    return e;
  }
  add(k: string, v: V): void {
    const e = this.map.get(k);
    if (e !== undefined) {
      e.value = v;
      this.touch(e);
      return;
    }
    this.insert(k, v);
  }
  /**
   * `add` of a key that is not in the cache (the caller's `entry(k)` just returned undefined, and
   * nothing changed the cache since): the new entry, without looking the key up again
   * (performance only: what `add` does after its lookup misses). Returns the entry.
   */
  insert(k: string, v: V): LruEntry<V> {
    const n: LruEntry<V> = { key: k, value: v, older: this.newest, newer: undefined };
    if (this.newest) this.newest.newer = n;
    else this.oldest = n;
    this.newest = n;
    this.map.set(k, n);
    if (this.map.size > this.max) {
      const o = this.oldest!;
      this.oldest = o.newer;
      if (this.oldest) this.oldest.older = undefined;
      else this.newest = undefined;
      this.map.delete(o.key);
    }
    return n;
  }
  /**
   * True when `e` is the most recently used entry, so in the cache (an entry is in the recency
   * list exactly while it is in the map): `add(e.key, v)` is then `e.value = v`.
   */
  isNewest(e: LruEntry<V>): boolean {
    return this.newest === e;
  }
  /** Make `e` the most recently used. */
  private touch(e: LruEntry<V>): void {
    if (e === this.newest) return;
    // Unlink (e is not the newest, so it has a newer neighbour).
    const newer = e.newer!;
    newer.older = e.older;
    if (e.older) e.older.newer = newer;
    else this.oldest = newer;
    // Append as newest.
    e.older = this.newest;
    e.newer = undefined;
    this.newest!.newer = e;
    this.newest = e;
  }
}

// ------------------------------------------------------------------------------ correlator

/** Outcome of `EventCorrelator.correlate`. */
export interface CorrelateResult {
  /** The event to write (a new one, an aggregate, or an observed one with count > 1). */
  event: CoreEvent;
  /** When set, PATCH the existing event with this (strategic merge) patch. */
  patch?: { count: number; lastTimestamp: string; message: string };
  /** True when the spam filter drops the event. */
  skip: boolean;
  /**
   * `getEventKey(event)` when correlation already computed it (the event was not combined), for
   * `updateState` (performance only).
   */
  eventKey?: string;
}

interface AggregateRecord {
  /**
   * Distinct messages seen, in insertion order: a set of at most AGGREGATE_MAX_EVENTS, kept as
   * an array (performance only: most records only ever hold one message; an array of one is
   * far smaller than a Set).
   */
  localKeys: string[];
  lastMs: number;
}

interface EventLog {
  count: number;
  firstTimestamp: string;
  name: string;
  resourceVersion?: string;
}

// The keys join their parts with nothing between them (as events_cache.go's strings.Join(..., "")),
// a missing part counting as ''. `join` makes one flat string (memory: a key built with `+` is
// a tree of its pieces, which the LRU caches would keep; no per-part callback either).

/**
 * The correlator's keys are client-go's (`getEventKey`, `getSpamKey`, the aggregate key), less
 * what every event of one recorder shares: its source (`component` + `host`) at the front and,
 * in the aggregate key, its reporting component and instance at the end when they equal that
 * source. All shortened keys of an LRU lack the same prefix (and suffix), so exactly the same
 * keys are equal (performance only: a 10k-pod cluster keeps ~170,000 keys). Any other key (an
 * event from another source: none in the engine, a recorder stamps its own) is the whole key
 * behind a NUL, which no shortened key starts with (they start with the involved object's kind).
 */
interface OwnSource {
  /** `component + (host ?? '')`, as the keys join them. */
  source: string;
  component: string;
  host: string;
}

/** Marks a key kept whole (an event not from the recorder's own source). */
const FOREIGN = '\u0000';

function isOwnSource(e: CoreEvent, own: OwnSource): boolean {
  return (e.source.component ?? '') === own.component && (e.source.host ?? '') === own.host;
}

/** The full key's source prefix, behind `FOREIGN` (an event from another source). */
function foreignPrefix(e: CoreEvent): string {
  return FOREIGN + (e.source.component ?? '') + (e.source.host ?? '');
}

/** `getEventKey`: source, object (with fieldPath), type, reason, message (source left out: see `OwnSource`). */
function eventKey(e: CoreEvent, own: OwnSource): string {
  const o = e.involvedObject;
  const rest = [o.kind ?? '', o.namespace ?? '', o.name ?? '', o.fieldPath ?? '', o.uid ?? '', o.apiVersion ?? '', e.type ?? '', e.reason ?? '', e.message ?? ''].join('');
  return isOwnSource(e, own) ? rest : foreignPrefix(e) + rest;
}

/** True when `eventKey(a) === eventKey(b)` because every part is the same string. */
function sameKeyFields(a: CoreEvent, b: CoreEvent): boolean {
  const x = a.involvedObject;
  const y = b.involvedObject;
  return (
    a.source.component === b.source.component &&
    a.source.host === b.source.host &&
    x.kind === y.kind &&
    x.namespace === y.namespace &&
    x.name === y.name &&
    x.fieldPath === y.fieldPath &&
    x.uid === y.uid &&
    x.apiVersion === y.apiVersion &&
    a.type === b.type &&
    a.reason === b.reason &&
    a.message === b.message
  );
}

/** `getSpamKey`: source and object only (source left out: see `OwnSource`). */
function spamKey(e: CoreEvent, own: OwnSource): string {
  const o = e.involvedObject;
  const rest = [o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? '', o.apiVersion ?? ''].join('');
  return isOwnSource(e, own) ? rest : foreignPrefix(e) + rest;
}

/**
 * `EventAggregatorByReasonFunc`'s aggregate key (its local key is the message), for the
 * aggregate LRU: source and, when it is the recorder's own source, the reporting suffix left out
 * (see `OwnSource`). `aggregateLogKey` is the same key with the suffix kept, for the event
 * logger's LRU, which holds it next to event keys (those end differently).
 */
function aggregateKey(e: CoreEvent, own: OwnSource): string {
  const mid = aggregateMid(e);
  const suffix = (e.reportingComponent ?? '') + (e.reportingInstance ?? '');
  if (!isOwnSource(e, own)) return foreignPrefix(e) + mid + suffix;
  return suffix === own.source ? mid : FOREIGN + own.source + mid + suffix;
}

/** The aggregate key with its reporting suffix, source left out as in `eventKey`. */
function aggregateLogKey(e: CoreEvent, own: OwnSource): string {
  const rest = aggregateMid(e) + (e.reportingComponent ?? '') + (e.reportingInstance ?? '');
  return isOwnSource(e, own) ? rest : foreignPrefix(e) + rest;
}

function aggregateMid(e: CoreEvent): string {
  const o = e.involvedObject;
  return [o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? '', o.apiVersion ?? '', e.type ?? '', e.reason ?? ''].join('');
}

/**
 * client-go's `EventCorrelator`: aggregate, then observe (count), then spam-filter. Mirrors
 * events_cache.go including its quirks: identical events are counted with no time limit while
 * they stay in the LRU (so an event re-created after the API server's 1 h TTL keeps its count
 * and firstTimestamp); a spam-filtered event still bumps the count of its key.
 *
 * `newName(objectName)` makes the name of an aggregate event (`<name>.<hex ns>`).
 */
export class EventCorrelator {
  private aggregates = new Lru<AggregateRecord>(EVENT_LRU_ENTRIES);
  private logs = new Lru<EventLog>(EVENT_LRU_ENTRIES);
  private spam = new Lru<TokenBucket>(EVENT_LRU_ENTRIES);

  private readonly own: OwnSource;

  /**
   * `source`: the recorder's `source.component` and `source.host`, left out of its keys (see
   * `OwnSource`; default none: component and host '').
   */
  constructor(
    private readonly clock: Clock,
    private readonly newName: (objectName: string) => string,
    source: { component: string; host?: string } = { component: '' },
  ) {
    this.own = { source: source.component + (source.host ?? ''), component: source.component, host: source.host ?? '' };
  }

  /**
   * `EventCorrelate`: what to write for `ev` (a fresh event from `makeEvent`). `ev` is not
   * changed, unless `owned` is true: the caller gives `ev` up (never reads or writes it again),
   * so the result may be `ev` itself, changed, instead of a copy (performance only: the copy
   * would be an object nobody else holds, with the same fields in the same order).
   */
  correlate(ev: CoreEvent, owned = false): CorrelateResult {
    const [aggregated, key] = this.aggregate(ev);
    // The combined event is made by `aggregate` for this call alone: also the caller's to change.
    const { event, patch } = this.observe(aggregated, key, owned || aggregated !== ev);
    return { event, patch, skip: this.filter(event), eventKey: aggregated === ev ? key : undefined };
  }

  /**
   * `eventLogger.updateState`: remember what the server returned (name, count, resourceVersion).
   * `written` (optional): the correlation result the write was made from; its `eventKey` is used
   * when `stored` has the same key fields as its event (performance only: no key rebuilt).
   */
  updateState(stored: CoreEvent, written?: CorrelateResult): void {
    const key = written?.eventKey !== undefined && sameKeyFields(stored, written.event) ? written.eventKey : eventKey(stored, this.own);
    const log: EventLog = {
      count: stored.count,
      firstTimestamp: stored.firstTimestamp,
      name: stored.metadata.name!,
      resourceVersion: stored.metadata.resourceVersion,
    };
    // The entry the last observe stored is still the newest under this key (nothing used the
    // cache since, the usual case: the write follows its correlation): `add` would find it and
    // only set its value (performance only: no lookup of the long key).
    const last = this.lastLogEntry;
    if (last !== undefined && last.key === key && this.logs.isNewest(last)) last.value = log;
    else this.logs.add(key, log);
  }

  /** The event-log entry the last `observe` stored or updated (see `updateState`). */
  private lastLogEntry: LruEntry<EventLog> | undefined;

  /** `EventAggregator.EventAggregate`. */
  private aggregate(ev: CoreEvent): [CoreEvent, string] {
    const now = this.clock.now();
    const aggKey = aggregateKey(ev, this.own);
    const localKey = ev.message;
    // get, then add under the same key: with the entry in hand the add is setting its value
    // (the get made it the newest; see Lru.entry).
    const entry = this.aggregates.entry(aggKey);
    let record = entry?.value;
    if (!record || now - record.lastMs > AGGREGATE_INTERVAL_MS) record = { localKeys: [localKey], lastMs: now };
    else if (!record.localKeys.includes(localKey)) record.localKeys.push(localKey);
    record.lastMs = now;
    if (entry) entry.value = record;
    else this.aggregates.insert(aggKey, record);
    if (record.localKeys.length < AGGREGATE_MAX_EVENTS) return [ev, eventKey(ev, this.own)];
    // Go's PopAny removes an arbitrary member (map order); we remove the oldest, deterministically.
    record.localKeys.shift();
    const ts = this.clock.rfc3339(now);
    const combined: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: this.newName(ev.involvedObject.name), namespace: ev.metadata.namespace },
      involvedObject: ev.involvedObject,
      reason: ev.reason,
      message: COMBINED_PREFIX + ev.message,
      source: ev.source,
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type: ev.type,
      eventTime: null,
      // The aggregate copy sets no reporting fields (events_cache.go builds it field by field).
      reportingComponent: '',
      reportingInstance: '',
    };
    return [combined, aggregateLogKey(ev, this.own)];
  }

  /**
   * `eventLogger.eventObserve`: a key seen before becomes a patch of count/lastTimestamp/message.
   * `owned`: `ev` is the caller's to change (see `correlate`), so it is used instead of a copy.
   */
  private observe(ev: CoreEvent, key: string, owned: boolean): { event: CoreEvent; patch?: CorrelateResult['patch'] } {
    const event: CoreEvent = owned ? ev : { ...ev, metadata: { ...ev.metadata } };
    // get, then add under the same key (see Lru.entry).
    const entry = this.logs.entry(key);
    const last = entry?.value;
    let patch: CorrelateResult['patch'];
    if (last && last.count > 0) {
      event.metadata.name = last.name;
      event.metadata.resourceVersion = last.resourceVersion;
      event.firstTimestamp = last.firstTimestamp;
      event.count = last.count + 1;
      patch = { count: event.count, lastTimestamp: event.lastTimestamp, message: event.message };
    }
    const log: EventLog = { count: event.count, firstTimestamp: event.firstTimestamp, name: event.metadata.name!, resourceVersion: event.metadata.resourceVersion };
    this.lastLogEntry = entry ?? this.logs.insert(key, log);
    if (entry) entry.value = log;
    return { event, patch };
  }

  /** `EventSourceObjectSpamFilter.Filter`: true = drop. */
  private filter(ev: CoreEvent): boolean {
    const k = spamKey(ev, this.own);
    // get, then add under the same key (see Lru.entry): a known bucket is already stored.
    const entry = this.spam.entry(k);
    const bucket = entry?.value ?? new TokenBucket(this.clock, SPAM_QPS, SPAM_BURST);
    const drop = !bucket.tryAccept();
    if (!entry) this.spam.insert(k, bucket);
    return drop;
  }
}

// ------------------------------------------------------------------------------ recorder

/** Options of `EventRecorder`. */
export interface EventRecorderOptions {
  api: ApiServer;
  clock: Clock;
  /** Draws the randomised first retry sleep. */
  rng: Rng;
  /** `source.component` and `reportingComponent`, e.g. `kubelet`, `replicaset-controller`. */
  component: string;
  /** `source.host` and `reportingInstance` (kubelets set their node name). */
  host?: string;
  /** Told about every `event()` call, before correlation (the UI timeline). */
  sink?: (e: LocalEventRecord) => void;
}

interface Pending {
  event: CoreEvent;
  /** Unix ns used in the name, kept to bump it on a name collision. */
  nameNs: UnixNanos;
  result?: CorrelateResult;
  tries: number;
}

/**
 * `record.EventRecorder` with its broadcaster, correlator and API sink, for one component.
 * `stop()` is the process dying: queued events are lost, caches forgotten.
 */
export class EventRecorder {
  readonly component: string;
  readonly host: string | undefined;
  private readonly api: ApiServer;
  private readonly clock: Clock;
  private readonly rng: Rng;
  private readonly sink?: (e: LocalEventRecord) => void;
  private readonly correlator: EventCorrelator;
  /**
   * Every event's `source` (one object per recorder, performance only: nothing changes an
   * event's source, and the API server stores a copy of it).
   */
  private readonly source: EventSource;
  private queue: Pending[] = [];
  private timer: Timer | undefined;
  /** The last name's Unix ns (starts at 0). */
  private lastNs: UnixNanos = { ms: 0, extra: 0 };
  private stopped = false;
  /** Events dropped (queue full, retries exhausted, rejected by the server, spam filter). */
  dropped = 0;

  constructor(opts: EventRecorderOptions) {
    this.api = opts.api;
    this.clock = opts.clock;
    this.rng = opts.rng;
    this.component = opts.component;
    this.host = opts.host;
    this.sink = opts.sink;
    this.source = opts.host ? { component: opts.component, host: opts.host } : { component: opts.component };
    this.correlator = new EventCorrelator(opts.clock, (name) => `${name}.${unixNanosHex(this.nextNs())}`, { component: opts.component, host: opts.host });
  }

  /**
   * Record an event about `obj` (an API object, or an explicit reference, e.g. with a
   * `fieldPath` for a container). Returns at once; the write happens on the clock.
   */
  event(obj: KubeObject | InvolvedObject, type: EventType, reason: string, message: string): void {
    if (this.stopped) return;
    const ref = isInvolvedObject(obj) ? obj : referenceTo(obj);
    const now = this.clock.now();
    this.sink?.({ time: now, component: this.component, host: this.host, type, reason, message, involvedObject: ref });
    const ns = this.nextNs();
    const ts = this.clock.rfc3339(now);
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      // The name flat (performance only: the stored Event, its TTL entry and the LRU keep it).
      metadata: { name: flattenString(`${ref.name}.${unixNanosHex(ns)}`), namespace: ref.namespace || 'default' },
      involvedObject: ref,
      reason,
      message,
      source: this.source,
      firstTimestamp: ts,
      lastTimestamp: ts,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: this.host ?? '',
    };
    if (this.queue.length >= MAX_QUEUED_EVENTS) {
      this.dropped++;
      return;
    }
    this.queue.push({ event, nameNs: ns, tries: 0 });
    if (!this.timer) this.timer = this.clock.schedule(0, () => this.pump(), { label: `${this.component}: record events` });
  }

  /** `Eventf`: `messageFmt` with Go verbs `%s %d %v %q %%` filled from `args`. */
  eventf(obj: KubeObject | InvolvedObject, type: EventType, reason: string, messageFmt: string, ...args: unknown[]): void {
    this.event(obj, type, reason, sprintf(messageFmt, ...args));
  }

  /** Events waiting to be written. */
  pending(): number {
    return this.queue.length;
  }

  /** The process died: cancel the pending write, drop the queue and the correlator's memory. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.queue = [];
  }

  /** Unix time in ns for a new name: strictly increasing per recorder (names stay unique). */
  private nextNs(): UnixNanos {
    return (this.lastNs = nextUnixNanos(this.clock, this.lastNs));
  }

  /** Write queued events in order until one needs a retry (`recordToSink`). */
  private pump(): void {
    this.timer = undefined;
    while (!this.stopped && this.queue.length > 0) {
      const p = this.queue[0];
      if (!p.result) {
        // The recorder gives its event up: only `p.result` is read from here on.
        p.result = this.correlator.correlate(p.event, true);
        if (p.result.skip) {
          this.dropped++;
          this.queue.shift();
          continue;
        }
      }
      if (this.recordEvent(p)) {
        this.queue.shift();
        continue;
      }
      p.tries++;
      if (p.tries >= MAX_TRIES_PER_EVENT) {
        this.dropped++;
        this.queue.shift();
        continue;
      }
      // Randomise the first sleep so that clients do not all retry together.
      const delay = p.tries === 1 ? Math.floor(EVENT_RETRY_SLEEP_MS * this.rng.float()) : EVENT_RETRY_SLEEP_MS;
      this.timer = this.clock.schedule(delay, () => this.pump(), { label: `${this.component}: retry event` });
      return;
    }
  }

  /**
   * `recordEvent`: true when done (written, or dropped for good), false to retry.
   * Only a request that never reached the server (connection refused) is retried; a Status
   * from the server (AlreadyExists, Forbidden, a 500 from etcd) drops the event.
   * Simulation: a name collision with another recorder's event (AlreadyExists on create) bumps
   * the nanoseconds in the name and creates again; real clocks make that collision negligible.
   */
  private recordEvent(p: Pending): boolean {
    const { event, patch } = p.result!;
    const ns = event.metadata.namespace;
    try {
      let stored: KubeObject | undefined;
      if (event.count > 1 && patch) {
        try {
          // client-go sends a strategic merge patch; for these three scalar fields a JSON merge
          // patch is the same document.
          stored = this.api.patch('events', ns, event.metadata.name!, 'merge', patch, { fieldManager: this.component, sharedResult: true });
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
      }
      if (!stored) {
        // The body is `event` less its resourceVersion. Without that field the body is `event`
        // itself (performance only: the API server copies what it stores and changes nothing
        // of its input, so a copy equal to `event` would be read the same; a name bump below
        // sets the name of both anyway).
        let body = event;
        if ('resourceVersion' in event.metadata) {
          body = { ...event, metadata: { ...event.metadata } };
          delete body.metadata.resourceVersion;
        }
        for (let i = 0; ; i++) {
          try {
            stored = this.api.create(body, { fieldManager: this.component, sharedResult: true });
            break;
          } catch (e) {
            if (!(e instanceof ApiError && e.code === 409 && e.reason === 'AlreadyExists' && i < 64 && event.count === 1)) throw e;
            p.nameNs = { ms: p.nameNs.ms, extra: p.nameNs.extra + 1 };
            body.metadata.name = `${event.involvedObject.name}.${unixNanosHex(p.nameNs)}`;
            event.metadata.name = body.metadata.name;
          }
        }
      }
      this.correlator.updateState(stored as CoreEvent, p.result);
      return true;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.connectionRefused) return false;
      this.dropped++;
      return true;
    }
  }
}

/**
 * A Unix time in nanoseconds as `ms * 1e6 + extra` (integers; the value needs 61 bits, more
 * than a double holds exactly, and a BigInt per event is slow): what Event names carry in hex.
 */
export interface UnixNanos {
  /** Unix time, integer ms. */
  ms: number;
  /** Nanoseconds on top of `ms * 1e6` (>= 0, integer). */
  extra: number;
}

/**
 * The Unix time in ns of an Event name made now, after `last` (the recorder's previous one):
 * the clock's time, or `last` plus 1 ns when the clock has not passed it (real clocks give
 * distinct nanoseconds; names must stay unique). Errors: RangeError for a non-integer time.
 */
export function nextUnixNanos(clock: Clock, last: UnixNanos): UnixNanos {
  const ms = clock.epochMs + clock.now();
  if (!Number.isInteger(ms)) BigInt(ms); // RangeError, as the BigInt arithmetic this replaces
  // ms * 1e6 <= last (the product is only inexact far above any `extra`: the test holds).
  return (ms - last.ms) * 1e6 <= last.extra ? { ms: last.ms, extra: last.extra + 1 } : { ms, extra: 0 };
}

/**
 * `%x` of `ms * 1e6 + extra`, computed exactly in doubles: `ms = hi * 2^20 + lo`, so the value
 * is `(hi * 1e6 + carry) * 2^20 + rest` with every part below 2^53; 2^20 is five hex digits.
 */
export function unixNanosHex(n: UnixNanos): string {
  const hi = Math.floor(n.ms / 1048576);
  const lo = n.ms - hi * 1048576;
  const b = lo * 1e6 + n.extra;
  const carry = Math.floor(b / 1048576);
  const rest = b - carry * 1048576;
  const a = hi * 1e6 + carry;
  return a > 0 ? hexOfInteger(a) + rest.toString(16).padStart(5, '0') : rest.toString(16);
}

/**
 * `x.toString(16)` for an integer 0 <= x < 2^53, from two parts below 2^28 (performance only:
 * V8 formats such small integers on a fast path, a larger double in radix 16 on a slow one).
 * `x = h * 2^28 + l`: the high part's digits, then the low part's as exactly seven (2^28 is
 * seven hex digits), are the digits of x.
 */
function hexOfInteger(x: number): string {
  if (x < 0x10000000) return x.toString(16);
  const h = Math.floor(x / 0x10000000);
  const l = x - h * 0x10000000;
  return h.toString(16) + l.toString(16).padStart(7, '0');
}

function isInvolvedObject(o: KubeObject | InvolvedObject): o is InvolvedObject {
  return (o as KubeObject).metadata === undefined;
}

/**
 * `reference.GetReference`: {kind, namespace, name, uid, apiVersion, resourceVersion} of an
 * object, optionally with a `fieldPath` (e.g. `spec.containers{nginx}`).
 */
export function referenceTo(obj: KubeObject, fieldPath?: string): InvolvedObject {
  const m = obj.metadata;
  // Go struct field order: kind, namespace, name, uid, apiVersion, resourceVersion, fieldPath.
  // Built field by field in that order (performance only: no throw-away object per optional
  // field, as spreading conditional literals made; the same fields in the same order).
  const ref = { kind: obj.kind } as InvolvedObject;
  if (m.namespace) ref.namespace = m.namespace;
  ref.name = m.name ?? '';
  if (m.uid) ref.uid = m.uid;
  ref.apiVersion = obj.apiVersion;
  if (m.resourceVersion) ref.resourceVersion = m.resourceVersion;
  if (fieldPath) ref.fieldPath = fieldPath;
  return ref;
}

/**
 * A small `fmt.Sprintf`: `%s`, `%v`, `%d`, `%q`, `%%`. Missing arguments print
 * `%!s(MISSING)` as Go does; extra arguments are ignored.
 */
export function sprintf(format: string, ...args: unknown[]): string {
  let i = 0;
  return format.replace(/%([%svdq])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return `%!${verb}(MISSING)`;
    const a = args[i++];
    switch (verb) {
      case 'd':
        return typeof a === 'number' ? String(Math.trunc(a)) : String(a);
      case 'q':
        return JSON.stringify(String(a));
      default:
        return typeof a === 'object' && a !== null ? JSON.stringify(a) : String(a);
    }
  });
}
