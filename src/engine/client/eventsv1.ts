/**
 * Recording events.k8s.io/v1 Events, as client-go's `tools/events` package does for the
 * components that moved to the new Event API (kube-scheduler; kube-proxy's `Starting`).
 *
 * Sources:
 *   - staging/src/k8s.io/client-go/tools/events/event_recorder.go: `Eventf` and `makeEvent` (name
 *     `<regarding.name>.<hex unix nanoseconds>`, namespace or `default`, `eventTime` in
 *     microseconds, `reportingController`/`reportingInstance`, `action`, `related`; no
 *     `deprecated*` fields, so the core/v1 view has `firstTimestamp`/`lastTimestamp: null`, no
 *     `count` and an empty `source`);
 *   - staging/src/k8s.io/client-go/tools/events/event_broadcaster.go: `recordToSink` (isomorphic
 *     events, same type/action/reason/reporting controller and instance/regarding/related but any
 *     note, are one Event: the second becomes `series: {count: 2, lastObservedTime}` written as a
 *     strategic merge patch, later ones only count in the client's cache), `finishSeries` (every
 *     6 min: a series last seen more than 6 min ago is written with its final count and forgotten,
 *     a singleton older than 6 min is forgotten), `refreshExistingEventSeries` (every 30 min:
 *     every open series is written with its count), `recordEvent` (a series patch that finds no
 *     Event creates it; connection errors are retried, 12 tries, 10 s jittered by 25 %; a Status
 *     from the server drops the event, except AlreadyExists for a series, which retries).
 *
 * So a pod that stays unschedulable shows `FailedScheduling ... (x2 over 10m)` in `kubectl
 * describe` for up to 30 minutes while the scheduler keeps failing it: the count in the API
 * moves only when a series ends or is refreshed, as on a real cluster.
 *
 * Everything runs on the virtual clock: `eventf()` returns at once; each event is recorded in its
 * own 0-ms clock event (client-go records each in its own goroutine), retries wait on the clock.
 */
import type { Clock, Rng, Timer } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import { flattenString } from '../strings';
import { MAX_TRIES_PER_EVENT, EVENT_RETRY_SLEEP_MS, nextUnixNanos, referenceTo, unixNanosHex, type EventType, type InvolvedObject, type LocalEventRecord, type UnixNanos } from './events';

/** A series not seen for this long is finished (virtual ms). Source: event_broadcaster.go (`finishTime`). */
export const SERIES_FINISH_MS = 6 * 60_000;
/** Open series are written again this often (virtual ms). Source: event_broadcaster.go (`refreshTime`). */
export const SERIES_REFRESH_MS = 30 * 60_000;

/** `eventsv1.EventSeries`. */
export interface EventSeries {
  count: number;
  /** RFC 3339 with microseconds. */
  lastObservedTime: string;
}

/** An events.k8s.io/v1 Event as this recorder writes it (JSON field order of the Go struct). */
export interface EventsV1Event extends KubeObject {
  apiVersion: 'events.k8s.io/v1';
  kind: 'Event';
  /** RFC 3339 with microseconds. */
  eventTime: string;
  series?: EventSeries;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  regarding: InvolvedObject;
  related?: InvolvedObject;
  note: string;
  type: EventType;
}

/** Options of `EventsV1Recorder`. */
export interface EventsV1RecorderOptions {
  api: ApiServer;
  clock: Clock;
  /** Draws the retry jitter. */
  rng: Rng;
  /** `reportingController`, e.g. `default-scheduler`. */
  reportingController: string;
  /** `reportingInstance`: `<reportingController>-<hostname>` in client-go's `NewRecorder`. */
  reportingInstance: string;
  /** Told about every `eventf()` call (the UI timeline). */
  sink?: (e: LocalEventRecord) => void;
}

/**
 * An event as the recorder's cache keeps it (the client's copy of what it recorded, never what
 * the server returned): the fields it was made with, its name, and its series count (0: none).
 * Memory: a class of fixed fields instead of the Event object (a 10k-pod rollout keeps 10,000
 * `Scheduled` events for 6 minutes); `eventOf` makes the Event from it for each write.
 */
class CachedEvent {
  /** 0 while it is a singleton; the series' count once an isomorphic event came. */
  seriesCount = 0;
  /** Virtual ms of `series.lastObservedTime` (the event's own time until then). */
  lastObservedMs: number;
  constructor(
    /** `<regarding.name>.<hex Unix ns>`; the next nanosecond after a name collision. */
    public name: string,
    readonly namespace: string,
    readonly regarding: InvolvedObject,
    readonly related: InvolvedObject | undefined,
    readonly type: EventType,
    readonly action: string,
    readonly reason: string,
    readonly note: string,
    /** Virtual ms of `eventTime`. */
    readonly eventMs: number,
  ) {
    this.lastObservedMs = eventMs;
  }
}

/**
 * `events.EventRecorder` with its broadcaster and sink, for one component. `stop()` is the
 * process dying: pending writes are lost, the cache forgotten.
 */
export class EventsV1Recorder {
  private readonly api: ApiServer;
  private readonly clock: Clock;
  private readonly rng: Rng;
  private readonly controller: string;
  private readonly instance: string;
  private readonly sink?: (e: LocalEventRecord) => void;
  /** The isomorphic-event cache (`eventCache`), in insertion order. */
  private readonly cache = new Map<string, CachedEvent>();
  private readonly timers = new Set<Timer>();
  private readonly periodic: Timer[];
  private lastNs: UnixNanos = { ms: 0, extra: 0 };
  private stopped = false;
  /** Events dropped (retries exhausted, rejected by the server). */
  dropped = 0;

  constructor(opts: EventsV1RecorderOptions) {
    this.api = opts.api;
    this.clock = opts.clock;
    this.rng = opts.rng;
    this.controller = opts.reportingController;
    this.instance = opts.reportingInstance;
    this.sink = opts.sink;
    // StartRecordingToSinkWithContext: wait.UntilWithContext(refresh, 30 min) and (finish, 6 min);
    // their first runs, at start, find the cache empty.
    this.periodic = [
      this.clock.every(SERIES_REFRESH_MS, () => this.refreshExistingEventSeries(), { label: `${this.controller}: refresh event series` }),
      this.clock.every(SERIES_FINISH_MS, () => this.finishSeries(), { label: `${this.controller}: finish event series` }),
    ];
  }

  /**
   * `Eventf(regarding, related, eventtype, reason, action, note)`: record an event about
   * `regarding` (an API object or a reference), optionally `related` to another. Returns at once.
   */
  eventf(regarding: KubeObject | InvolvedObject, related: KubeObject | InvolvedObject | undefined, type: EventType, reason: string, action: string, note: string): void {
    if (this.stopped) return;
    const ref = toReference(regarding);
    const rel = related ? toReference(related) : undefined;
    const now = this.clock.now();
    this.sink?.({ time: now, component: this.controller, type, reason, message: note, involvedObject: ref });
    this.lastNs = nextUnixNanos(this.clock, this.lastNs);
    const rec = new CachedEvent(flattenString(`${ref.name}.${unixNanosHex(this.lastNs)}`), ref.namespace || 'default', ref, rel, type, action, reason, note, now);
    this.later(0, 'record event', () => this.recordToSink(rec));
  }

  /** The process died: cancel pending writes and the periodic work, forget the cache. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    for (const t of this.periodic) t.cancel();
    this.cache.clear();
  }

  /** `recordToSink`: a new event is cached and created; an isomorphic one starts or counts a series. */
  private recordToSink(rec: CachedEvent): void {
    const key = isomorphicKey(rec);
    const cached = this.cache.get(key);
    if (cached) {
      cached.lastObservedMs = this.clock.now();
      if (cached.seriesCount > 0) {
        cached.seriesCount++;
        return;
      }
      cached.seriesCount = 2;
      this.attemptRecording(this.eventOf(cached), 0, cached);
      return;
    }
    this.cache.set(key, rec);
    this.attemptRecording(this.eventOf(rec), 0, rec);
  }

  /** The events.k8s.io/v1 Event a cached event stands for (with its series, if any). */
  private eventOf(c: CachedEvent): EventsV1Event {
    const event: EventsV1Event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: c.name, namespace: c.namespace },
      eventTime: this.clock.rfc3339Micro(c.eventMs),
      reportingController: this.controller,
      reportingInstance: this.instance,
      action: c.action,
      reason: c.reason,
      regarding: c.regarding,
      note: c.note,
      type: c.type,
    };
    if (c.related) event.related = c.related;
    if (c.seriesCount > 0) event.series = { count: c.seriesCount, lastObservedTime: this.clock.rfc3339Micro(c.lastObservedMs) };
    return event;
  }

  /** `attemptRecording`: write, retrying on connection errors (12 tries, 10 s jittered by 25 %). */
  private attemptRecording(event: EventsV1Event, tries: number, cached?: CachedEvent): void {
    if (this.stopped) return;
    if (!this.recordEvent(event, cached).retry) return;
    if (tries + 1 >= MAX_TRIES_PER_EVENT) {
      this.dropped++;
      return;
    }
    // wait.Jitter(d, 0.25): d + rand * 0.25 * d.
    const delay = Math.floor(EVENT_RETRY_SLEEP_MS * (1 + 0.25 * this.rng.float()));
    this.later(delay, 'retry event', () => this.attemptRecording(event, tries + 1, cached));
  }

  /**
   * `recordEvent`: a series is a strategic merge patch adding `series` (a missing Event is created
   * instead); otherwise a create. Returns the stored Event (in this API's view) and whether to retry.
   * Simulation: a create whose name another recorder's Event took in the same virtual
   * millisecond (real clocks give distinct nanoseconds) takes the next nanosecond, in `event` and
   * in its `cached` copy (which later series patches name).
   */
  private recordEvent(event: EventsV1Event, cached?: CachedEvent): { stored?: EventsV1Event; retry: boolean } {
    const ns = event.metadata.namespace;
    try {
      let stored: KubeObject | undefined;
      if (event.series) {
        try {
          // createPatchBytesForSeries: the two-way merge patch from the event without its series.
          stored = this.api.patch('events.events.k8s.io', ns, event.metadata.name!, 'strategic', { series: { ...event.series } }, { fieldManager: this.controller });
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
      }
      for (let bump = 0; !stored; bump++) {
        const body = copyEvent(event);
        delete body.metadata.resourceVersion;
        try {
          stored = this.api.create(body, { fieldManager: this.controller });
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 409 && e.reason === 'AlreadyExists' && !event.series && bump < 64)) throw e;
          const name = event.metadata.name!;
          const dot = name.lastIndexOf('.');
          event.metadata.name = `${name.slice(0, dot)}.${(BigInt(`0x${name.slice(dot + 1)}`) + 1n).toString(16)}`;
          if (cached) cached.name = event.metadata.name;
        }
      }
      return { stored: stored as EventsV1Event, retry: false };
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.connectionRefused) return { retry: true };
      // A series' create that finds the Event made meanwhile: safe to retry (the patch will find it).
      if (event.series && e.code === 409 && e.reason === 'AlreadyExists') return { retry: true };
      this.dropped++;
      return { retry: false };
    }
  }

  /** `finishSeries` (every 6 min): write ended series once more and forget them; forget old singletons. */
  private finishSeries(): void {
    if (this.stopped) return;
    const cutoff = this.clock.now() - SERIES_FINISH_MS;
    for (const [key, c] of this.cache) {
      if (c.seriesCount > 0) {
        if (c.lastObservedMs < cutoff && !this.recordEvent(this.eventOf(c), c).retry) this.cache.delete(key);
      } else if (c.eventMs < cutoff) this.cache.delete(key);
    }
  }

  /**
   * `refreshExistingEventSeries` (every 30 min): write every open series' count. (client-go then
   * caches the server's copy; what it holds of it, the name and the series, is the cache's.)
   */
  private refreshExistingEventSeries(): void {
    if (this.stopped) return;
    for (const c of this.cache.values()) if (c.seriesCount > 0) this.recordEvent(this.eventOf(c), c);
  }

  /** A clock event of this recorder (cancelled by `stop`). */
  private later(delayMs: number, what: string, fn: () => void): void {
    const t = this.clock.schedule(
      delayMs,
      () => {
        this.timers.delete(t);
        if (!this.stopped) fn();
      },
      { label: `${this.controller}: ${what}` },
    );
    this.timers.add(t);
  }
}

/**
 * `reference.GetReference` of an object (or the reference given). A full reference of an API
 * object is made as one literal (memory only, the same fields in the same order: the cache keeps
 * one per event, and an object grown field by field keeps 2 of its 6 fields out of line).
 */
function toReference(o: KubeObject | InvolvedObject): InvolvedObject {
  if ((o as KubeObject).metadata === undefined) return o as InvolvedObject;
  const obj = o as KubeObject;
  const m = obj.metadata;
  if (m.namespace && m.name && m.uid && m.resourceVersion) {
    return { kind: obj.kind, namespace: m.namespace, name: m.name, uid: m.uid, apiVersion: obj.apiVersion, resourceVersion: m.resourceVersion };
  }
  return referenceTo(obj);
}

/**
 * `getKey`: type, action, reason, reporting controller and instance, regarding, related (not the
 * note). Memory only, the same equalities (a 10k-pod rollout caches 10,000 keys): the controller
 * and instance are the recorder's own for every cached event and are left out; a reference with
 * a uid is keyed by its uid, resourceVersion and fieldPath, since its kind, apiVersion,
 * namespace and name are those of the one object the uid names (they never differ between two
 * references carrying the same uid).
 */
function isomorphicKey(e: CachedEvent): string {
  let k = `${e.type}\u0000${e.action}\u0000${e.reason}\u0000`;
  k += refKey(e.regarding);
  if (e.related) k += `\u0001${refKey(e.related)}`;
  // Flat (memory: a key built with `+` is a tree of its pieces, which the Map would keep).
  return flattenString(k);
}

/** A `corev1.ObjectReference` as `isomorphicKey` compares it (see there). */
function refKey(r: InvolvedObject): string {
  if (r.uid) return `\u0002${r.uid}\u0000${r.resourceVersion ?? ''}\u0000${r.fieldPath ?? ''}`;
  return `${r.kind ?? ''}\u0000${r.namespace ?? ''}\u0000${r.name ?? ''}\u0000\u0000${r.apiVersion ?? ''}\u0000${r.resourceVersion ?? ''}\u0000${r.fieldPath ?? ''}`;
}

/** The event with its own metadata and series (what `DeepCopy` gives the writers to change). */
function copyEvent(e: EventsV1Event): EventsV1Event {
  const c: EventsV1Event = { ...e, metadata: { ...e.metadata } };
  if (e.series) c.series = { ...e.series };
  return c;
}
