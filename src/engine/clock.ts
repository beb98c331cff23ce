/**
 * The virtual clock: a discrete-event queue ordered by (virtual time, sequence number),
 * and the one seeded random generator every random choice in the engine is drawn from.
 *
 * Units: every time in the engine is **virtual milliseconds** since the cluster's epoch
 * (`Clock.epochMs`, a Unix time in ms used only to print timestamps). Nothing here reads the
 * wall clock; the hosts (worker, CLI, tests) decide how fast virtual time passes.
 *
 * Determinism: events at the same virtual time run in the order they were scheduled
 * (the sequence number breaks ties), and all randomness comes from `Rng`, so a run is a pure
 * function of (seed, cluster config, commands and the virtual times they were issued at).
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { flattenString } from './strings';

/** A handle on a scheduled event; `cancel()` removes it (O(1), lazily skipped when popped). */
export interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly label: string;
  cancel(): void;
  readonly cancelled: boolean;
}

class QueuedEvent implements Timer {
  cancelled = false;
  /** False: a one-shot event of the main heap (see `RecurringEvent`). */
  readonly recurring = false;
  constructor(
    readonly clock: Clock,
    readonly at: number,
    readonly seq: number,
    readonly label: string,
    readonly fn: () => void,
    /** Background events (heartbeats, periodic resyncs) never keep `runUntilQuiet` going. */
    readonly background: boolean,
  ) {}

  cancel(): void {
    if (!this.cancelled) {
      this.cancelled = true;
      if (!this.background) this.clock.foregroundCancelled();
    }
  }
}

/**
 * A periodic background event (`Clock.every`). It is the same event as a callback that
 * re-schedules itself with `schedule(periodMs, ...)` when it ends: after each run it takes the
 * next sequence number and moves `periodMs` on, so the order of events is the same. It lives in
 * a small heap of its own and is re-armed in place (performance only: no allocation and no
 * main-heap push per tick).
 */
class RecurringEvent implements Timer {
  cancelled = false;
  readonly recurring = true;
  constructor(
    public at: number,
    public seq: number,
    readonly label: string,
    readonly periodMs: number,
    readonly fn: () => void,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }
}

/** Options for `Clock.schedule`. */
export interface ScheduleOptions {
  /** A short description shown in traces, e.g. `kubelet[k8s-lab-worker]: lease renew`. */
  label?: string;
  /**
   * Mark periodic housekeeping (lease renewals, status heartbeats, resync ticks): such events
   * run normally but do not count as "work pending" for `runUntilQuiet`.
   */
  background?: boolean;
}

/** Result of `Clock.runUntilQuiet`. */
export interface QuietResult {
  /** True when no foreground event is left before the bound. */
  quiet: boolean;
  /** Events executed. */
  events: number;
  /** Virtual time reached (ms). */
  now: number;
}

/** Default epoch: 2026-01-05T06:00:00Z, the kind of date the seeds' transcripts carry. */
export const DEFAULT_EPOCH_MS = 1767592800000;

/**
 * The discrete-event queue. A binary min-heap keyed by (at, seq).
 *
 * Errors: `schedule` with a negative or non-finite delay throws `RangeError` (an engine bug,
 * never user input).
 */
export class Clock {
  private heap: QueuedEvent[] = [];
  /** Recurring background events (`every`), a heap of their own ordered like `heap`. */
  private recurringHeap: RecurringEvent[] = [];
  private seqCounter = 0;
  private nowMs = 0;
  private foregroundPending = 0;
  /** Number of events executed since the start. */
  executed = 0;

  constructor(readonly epochMs: number = DEFAULT_EPOCH_MS) {}

  /** Current virtual time in milliseconds since the cluster epoch. */
  now(): number {
    return this.nowMs;
  }

  /** Current time as RFC 3339 with second resolution, as the API server stamps objects. */
  rfc3339(ms: number = this.nowMs): string {
    // The string of the last second asked for is kept (performance only: every write stamps one).
    const sec = Math.floor((this.epochMs + ms) / 1000);
    if (sec !== this.rfcSecond) {
      this.rfcSecond = sec;
      this.rfcString = formatRfc3339(sec * 1000);
    }
    return this.rfcString;
  }

  private rfcSecond = Number.NaN;
  private rfcString = '';

  /** Current time as RFC 3339 with microseconds (Event `eventTime`, Lease `renewTime`). */
  rfc3339Micro(ms: number = this.nowMs): string {
    // The second's string without its `Z` (cached with the second, see `rfc3339`) and the
    // fraction `formatRfc3339` prints for the millisecond (`.ddd000Z`, one string per
    // millisecond, made once): the same text without a calendar computation, a slice or a pad
    // per call (performance only: every lease renewal and Event stamps one).
    const unix = this.epochMs + ms;
    const sec = Math.floor(unix / 1000);
    if (sec !== this.microSecond) {
      this.microSecond = sec;
      this.microPrefix = this.rfc3339(sec * 1000 - this.epochMs).slice(0, -1);
    }
    return this.microPrefix + microFraction(unix - sec * 1000);
  }

  private microSecond = Number.NaN;
  private microPrefix = '';

  /** Schedule `fn` to run `delayMs` virtual milliseconds from now (0 = after current events). */
  schedule(delayMs: number, fn: () => void, opts?: ScheduleOptions): Timer {
    if (!(delayMs >= 0) || !Number.isFinite(delayMs)) throw new RangeError(`bad delay ${delayMs}`);
    return this.scheduleAt(this.nowMs + delayMs, fn, opts);
  }

  /** Schedule `fn` at absolute virtual time `at` (ms); a time in the past runs at `now`. */
  scheduleAt(at: number, fn: () => void, opts?: ScheduleOptions): Timer {
    const ev = new QueuedEvent(this, Math.max(at, this.nowMs), this.seqCounter++, opts?.label ?? '', fn, opts?.background ?? false);
    if (!ev.background) this.foregroundPending++;
    this.push(ev);
    return ev;
  }

  /**
   * Run `fn` every `periodMs` virtual ms, first at `now + periodMs`, as a background event, until
   * the returned timer is cancelled (also from inside `fn`) or `fn` throws. Exactly the events of
   * `const tick = () => { fn(); timer = schedule(periodMs, tick, {background: true}) }` started
   * with `schedule(periodMs, tick, ...)`: the same times, sequence numbers and event count.
   * The returned timer's `at` and `seq` are those of its next run.
   * Errors: RangeError for a period that is not a positive finite number (an engine bug).
   */
  every(periodMs: number, fn: () => void, opts?: { label?: string }): Timer {
    if (!(periodMs > 0) || !Number.isFinite(periodMs)) throw new RangeError(`bad period ${periodMs}`);
    const ev = new RecurringEvent(this.nowMs + periodMs, this.seqCounter++, opts?.label ?? '', periodMs, fn);
    heapPush(this.recurringHeap, ev);
    return ev;
  }

  /**
   * A FIFO of background events that each run `delayMs` virtual ms after they are added
   * (`DelayLine.add(payload)` then calls `run(payload)`), labelled `label`. Exactly the events of
   * `schedule(delayMs, () => run(payload), {label, background: true})` per `add`: each takes its
   * sequence number when added and runs at the same (time, sequence) with the same event count;
   * only the line's head sits in the queue (performance only: no timer object and closure per
   * pending entry; the API server's Event TTLs are tens of thousands of them in a large cluster).
   * Entries cannot be cancelled. Errors: RangeError for a negative or non-finite delay.
   */
  delayLine<T>(delayMs: number, run: (payload: T) => void, opts: { label: string }): DelayLine<T> {
    if (!(delayMs >= 0) || !Number.isFinite(delayMs)) throw new RangeError(`bad delay ${delayMs}`);
    const line = new DelayLine<T>(this, delayMs, run, opts.label);
    this.lines.push(line as DelayLine<unknown>);
    return line;
  }

  private lines: DelayLine<unknown>[] = [];

  /** Take the next sequence number (internal: `DelayLine.add`). */
  takeSeq(): number {
    return this.seqCounter++;
  }

  /**
   * Queue a background event at (`at`, `seq`), a sequence number taken earlier with `takeSeq`
   * (internal: a `DelayLine` arming its head). The heap orders by (at, seq) only, so the event
   * runs exactly where one scheduled when the number was taken would.
   */
  queueReserved(at: number, seq: number, label: string, fn: () => void): void {
    this.push(new QueuedEvent(this, at, seq, label, fn, true));
  }

  /** Bookkeeping for `Timer.cancel` (internal). */
  foregroundCancelled(): void {
    this.foregroundPending--;
  }

  /** Time of the next live event, or undefined when the queue is empty. */
  peekTime(): number | undefined {
    return this.next()?.at;
  }

  /** Number of live events in the queue (foreground and background). */
  pending(): number {
    let n = 0;
    for (const e of this.heap) if (!e.cancelled) n++;
    for (const e of this.recurringHeap) if (!e.cancelled) n++;
    // Delay-line entries behind their line's head (the head is in `heap`).
    for (const l of this.lines) n += l.waiting();
    return n;
  }

  /** Run exactly one event (advancing `now` to its time). Returns false when nothing is queued. */
  step(): boolean {
    const ev = this.next();
    if (!ev) return false;
    this.fire(ev);
    return true;
  }

  /** The next live event of either heap (cancelled heads dropped), or undefined. */
  private next(): QueuedEvent | RecurringEvent | undefined {
    const h = this.heap;
    const r = this.recurringHeap;
    while (h.length > 0 && h[0].cancelled) heapPop(h);
    while (r.length > 0 && r[0].cancelled) heapPop(r);
    const a = h[0];
    const b = r[0];
    if (b === undefined) return a;
    if (a === undefined) return b;
    return before(b, a) ? b : a;
  }

  /** Run `ev`, the event `next()` returned (it is the head of its heap). */
  private fire(ev: QueuedEvent | RecurringEvent): void {
    this.nowMs = ev.at;
    this.executed++;
    if (!ev.recurring) {
      heapPop(this.heap);
      if (!ev.background) this.foregroundPending--;
      ev.cancelled = true; // a fired timer cannot be cancelled again
      ev.fn();
      return;
    }
    // Events scheduled by `fn` come later than `ev` (same time, later sequence numbers), so
    // `ev` is still the head of its heap when `fn` returns.
    let ok = false;
    try {
      ev.fn();
      ok = true;
    } finally {
      if (!ok) ev.cancelled = true; // as a callback that threw before re-scheduling itself
    }
    if (ev.cancelled) return;
    ev.at += ev.periodMs;
    ev.seq = this.seqCounter++;
    siftDownHead(this.recurringHeap);
  }

  /**
   * Run every event with time <= `t`, then set `now` to `t`. Returns the number of events run.
   * `maxEvents` bounds a runaway loop (a bug); when hit, `now` stays at the last event's time.
   */
  runUntil(t: number, maxEvents = Number.POSITIVE_INFINITY): number {
    let n = 0;
    // `peekTime` + `step` in one loop (performance only: the idle cluster runs ~30 events per
    // virtual second through here).
    while (n < maxEvents) {
      const ev = this.next();
      if (ev === undefined || ev.at > t) break;
      this.fire(ev);
      n++;
    }
    if (n < maxEvents && t > this.nowMs) this.nowMs = t;
    return n;
  }

  /** Advance by `ms` virtual milliseconds, running everything due. */
  advance(ms: number): number {
    return this.runUntil(this.nowMs + ms);
  }

  /**
   * Run until no foreground event is pending, or until virtual time would pass `now + maxMs`,
   * or `maxEvents` events ran. Background events due before the stop run too.
   */
  runUntilQuiet(maxMs = 10 * 60 * 1000, maxEvents = 1_000_000): QuietResult {
    const limit = this.nowMs + maxMs;
    let n = 0;
    while (this.foregroundPending > 0 && n < maxEvents) {
      const next = this.peekTime();
      if (next === undefined || next > limit) break;
      this.step();
      n++;
    }
    return { quiet: this.foregroundPending === 0, events: n, now: this.nowMs };
  }

  private push(ev: QueuedEvent): void {
    heapPush(this.heap, ev);
  }
}

/**
 * Background events with one fixed delay, queued in the order they were added (see
 * `Clock.delayLine`). Entries are (time, sequence, payload) in parallel arrays; the head is
 * armed as an ordinary queued event with its reserved (time, sequence), and firing it arms the
 * next. Times never decrease along the line (now + a fixed delay), so the head is always due first.
 */
export class DelayLine<T> {
  private ats: number[] = [];
  private seqs: number[] = [];
  private payloads: (T | undefined)[] = [];
  private head = 0;
  private armed = false;

  constructor(
    private readonly clock: Clock,
    readonly delayMs: number,
    private readonly run: (payload: T) => void,
    readonly label: string,
  ) {}

  /** Run `run(payload)` `delayMs` from now (a background event). */
  add(payload: T): void {
    this.ats.push(this.clock.now() + this.delayMs);
    this.seqs.push(this.clock.takeSeq());
    this.payloads.push(payload);
    if (!this.armed) this.arm();
  }

  /** Entries queued behind the armed head (`Clock.pending`). */
  waiting(): number {
    const n = this.ats.length - this.head;
    return this.armed ? n - 1 : n;
  }

  private arm(): void {
    this.armed = true;
    this.clock.queueReserved(this.ats[this.head], this.seqs[this.head], this.label, this.fire);
  }

  private readonly fire = (): void => {
    this.armed = false;
    const p = this.payloads[this.head] as T;
    this.payloads[this.head] = undefined;
    this.head++;
    if (this.head === this.ats.length) {
      this.ats = [];
      this.seqs = [];
      this.payloads = [];
      this.head = 0;
    } else {
      // Drop the fired prefix now and then (amortised; keeps fired payloads unreachable).
      if (this.head >= 1024 && this.head * 2 >= this.ats.length) {
        this.ats = this.ats.slice(this.head);
        this.seqs = this.seqs.slice(this.head);
        this.payloads = this.payloads.slice(this.head);
        this.head = 0;
      }
      this.arm();
    }
    this.run(p);
  };
}

/** What the two event heaps order: (virtual time, sequence number). */
interface HeapSlot {
  at: number;
  seq: number;
}

function before(a: HeapSlot, b: HeapSlot): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** Binary min-heap push (sift up by moving parents down: no temporary arrays on this hot path). */
function heapPush<T extends HeapSlot>(h: T[], ev: T): void {
  let i = h.length;
  h.push(ev);
  while (i > 0) {
    const p = (i - 1) >> 1;
    const parent = h[p];
    if (!before(ev, parent)) break;
    h[i] = parent;
    i = p;
  }
  h[i] = ev;
}

/** Binary min-heap pop. */
function heapPop<T extends HeapSlot>(h: T[]): T | undefined {
  if (h.length === 0) return undefined;
  const top = h[0];
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    siftDownHead(h);
  }
  return top;
}

/** Move the head down to its place (after a pop, or after a recurring head moved on in time). */
function siftDownHead<T extends HeapSlot>(h: T[]): void {
  const n = h.length;
  const ev = h[0];
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    const c = r < n && before(h[r], h[l]) ? r : l;
    if (!before(h[c], ev)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = ev;
}

/**
 * The alphabet of generated name suffixes: consonants without vowels, digits without 0, 1, 3.
 * Source: staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go (`alphanums`).
 */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Lowercase hex digits, and every byte as two of them (for `Rng.uuid`). */
const HEX_DIGITS = '0123456789abcdef';
const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, i) => HEX_DIGITS[i >> 4] + HEX_DIGITS[i & 15]);

/**
 * The engine's only source of chance, seeded. Wraps pure-rand's xoroshiro128+ (mutating API).
 * Every draw advances one shared stream, so the order of draws is part of the run.
 */
export class Rng {
  private gen: ReturnType<typeof xoroshiro128plus>;

  constructor(readonly seed: number) {
    this.gen = xoroshiro128plus(seed | 0);
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return uniformInt(this.gen, min, max);
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.int(0, 0x3fffffff) / 0x40000000;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  /**
   * `n` characters from the generated-name alphabet, as `utilrand.String(n)` does.
   * Source: staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go.
   */
  nameSuffix(n = 5): string {
    let s = '';
    for (let i = 0; i < n; i++) s += NAME_ALPHABET[this.int(0, NAME_ALPHABET.length - 1)];
    return s;
  }

  /** A random RFC 4122 version-4 UUID, lowercase 8-4-4-4-12 hex (metadata.uid). */
  uuid(): string {
    // Four 32-bit draws a, b, c, d printed as 8 hex digits each (a, b[0:4], '4', b[5:8], the
    // variant digit 8 | (c[0] & 3), c[1:4], c[4:8], d), through digit tables (performance only).
    const a = this.gen.next() >>> 0;
    const b = this.gen.next() >>> 0;
    const c = this.gen.next() >>> 0;
    const d = this.gen.next() >>> 0;
    const H = HEX_DIGITS;
    const B = HEX_BYTES;
    const id = (
      B[a >>> 24] + B[(a >>> 16) & 255] + B[(a >>> 8) & 255] + B[a & 255] +
      '-' + B[b >>> 24] + B[(b >>> 16) & 255] +
      '-4' + H[(b >>> 8) & 15] + B[b & 255] +
      '-' + H[((c >>> 28) & 3) | 8] + H[(c >>> 24) & 15] + B[(c >>> 16) & 255] +
      '-' + B[(c >>> 8) & 255] + B[c & 255] +
      B[d >>> 24] + B[(d >>> 16) & 255] + B[(d >>> 8) & 255] + B[d & 255]
    );
    // One flat string instead of 20 pieces: every object keeps its uid for life (memory only).
    return flattenString(id);
  }

  /** `base` ms plus up to `factor * base` ms of uniform jitter (wait.Jitter). */
  jitter(base: number, factor: number): number {
    return base + Math.floor(this.float() * factor * base);
  }
}

/** Broken-down UTC time of a Unix time (ms). `month` 1-12, `weekday` 0 = Sunday. */
export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  weekday: number;
}

/**
 * Split a Unix time (ms) into UTC calendar fields without `Date` (the engine is clock-free).
 * Civil-from-days algorithm by Howard Hinnant (public domain).
 */
export function civil(unixMs: number): CivilTime {
  const totalSec = Math.floor(unixMs / 1000);
  const days = Math.floor(totalSec / 86400);
  const sod = totalSec - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day,
    hour: Math.floor(sod / 3600),
    minute: Math.floor((sod % 3600) / 60),
    second: sod % 60,
    ms: unixMs - totalSec * 1000,
    weekday: (((days % 7) + 11) % 7),
  };
}

/** Format a Unix time in ms as RFC 3339 UTC (`2026-01-05T06:00:00Z`, or with microseconds). */
export function formatRfc3339(unixMs: number, micro = false): string {
  const c = civil(unixMs);
  const frac = micro ? '.' + String(c.ms * 1000).padStart(6, '0') : '';
  return `${c.year}-${p2(c.month)}-${p2(c.day)}T${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)}${frac}Z`;
}

/** `microFraction`'s strings by millisecond (filled on first use). */
const MICRO_FRACTIONS: string[] = [];

/**
 * The fractional part and `Z` that `formatRfc3339(t, true)` prints for a time whose millisecond
 * is `ms` (0-999; an integer as virtual times are): `.` + the microseconds padded to 6 digits +
 * `Z`. Anything else (never passed by the engine) is formatted the same way without the table.
 */
function microFraction(ms: number): string {
  if (!(ms >= 0 && ms < 1000 && Number.isInteger(ms))) return `.${String(ms * 1000).padStart(6, '0')}Z`;
  return (MICRO_FRACTIONS[ms] ??= `.${String(ms * 1000).padStart(6, '0')}Z`);
}

/** Two-digit zero-padded decimal (for `formatRfc3339`; top-level, not a closure per call). */
function p2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The decimal value of `s[from, to)` when every character there is a digit, else -1. */
function digitsAt(s: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * `parseRfc3339` without a regular expression for the shapes this engine writes
 * (`2026-01-05T06:00:00Z`, with 1-9 fraction digits); undefined for anything else, which the
 * regular expression then decides. Same arithmetic (performance only: leases are parsed every
 * renewal).
 */
function parseRfc3339Fast(s: string): number | undefined {
  const n = s.length;
  if (n < 20 || s.charCodeAt(n - 1) !== 90 /* Z */) return undefined;
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':') return undefined;
  const year = digitsAt(s, 0, 4);
  const mo = digitsAt(s, 5, 7);
  const d = digitsAt(s, 8, 10);
  const h = digitsAt(s, 11, 13);
  const mi = digitsAt(s, 14, 16);
  const sec = digitsAt(s, 17, 19);
  if (year < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return undefined;
  let ms = 0;
  if (n > 20) {
    // `.` and 1-9 digits before the `Z`; the first three digits are the milliseconds.
    const digits = n - 21;
    if (s[19] !== '.' || digits < 1 || digits > 9 || digitsAt(s, 20, n - 1) < 0) return undefined;
    ms = digitsAt(s, 20, 20 + Math.min(3, digits)) * (digits === 1 ? 100 : digits === 2 ? 10 : 1);
  }
  const y = year - (mo <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  return ((days * 24 + h) * 60 + mi) * 60000 + sec * 1000 + ms;
}

/** Parse an RFC 3339 UTC timestamp (as this engine writes them) back to Unix ms. */
export function parseRfc3339(s: string): number {
  const fast = parseRfc3339Fast(s);
  if (fast !== undefined) return fast;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(s);
  if (!m) return Number.NaN;
  const y = +m[1] - (+m[2] <= 2 ? 1 : 0);
  const mo = +m[2];
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + +m[3] - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  const days = era * 146097 + doe - 719468;
  const ms = m[7] ? Math.floor(+(m[7] + '000').slice(0, 3)) : 0;
  return ((days * 24 + +m[4]) * 60 + +m[5]) * 60000 + +m[6] * 1000 + ms;
}
