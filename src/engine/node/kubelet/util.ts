/**
 * Small helpers the kubelet's parts share: klog's line format, Go's duration printing, the
 * flowcontrol exponential backoff (crash-loop and image-pull backoff), and the pod naming the
 * kubelet's messages use.
 *
 * Sources: k8s.io/klog/v2 (klog.go `formatHeader`, structured `InfoS`/`ErrorS` values),
 * Go time.Duration.String, staging/src/k8s.io/client-go/util/flowcontrol/backoff.go,
 * pkg/kubelet/util/format/pod.go.
 *
 * Units: virtual ms.
 */
import type { KubeObject } from '../../api/types';
import { civilTime } from '../journal';

/** klog severities. */
export type KlogSeverity = 'I' | 'W' | 'E';

/** Two digits, zero-padded (klog's month, day and clock fields). */
function p2(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * One klog line as the kubelet writes it to stderr (and so to the journal):
 * `I0105 06:00:10.123456     731 kubelet.go:2431] "SyncLoop ADD" source="api" pods=["default/web"]`.
 * `kv` values: strings are quoted (`%q`), arrays print as `["a","b"]`, numbers and booleans bare.
 * Source: k8s.io/klog/v2 klog.go (`formatHeader`: `Lmmdd hh:mm:ss.uuuuuu threadid file:line]`).
 */
export function klogLine(sev: KlogSeverity, unixMs: number, pid: number, file: string, msg: string, kv: Record<string, unknown> = {}): string {
  // The time field of the last instant asked for is kept (performance only: a pure function of
  // `unixMs`, and a kubelet writes its lines in bursts at one instant).
  if (unixMs !== klogTimeMs) {
    const c = civilTime(unixMs);
    const usec = String(c.ms * 1000).padStart(6, '0');
    klogTime = `${p2(c.month)}${p2(c.day)} ${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)}.${usec}`;
    klogTimeMs = unixMs;
  }
  const head = `${sev}${klogTime} ${String(pid).padStart(7)} ${file}] `;
  let s = head + JSON.stringify(msg);
  // Its own keys in Object.entries' order, without building the pairs.
  for (const k of Object.keys(kv)) {
    const v = kv[k];
    if (v === undefined) continue;
    s += ` ${k}=${JSON.stringify(v)}`;
  }
  return s;
}

/** `klogLine`'s last Unix ms and its `mmdd hh:mm:ss.uuuuuu` text. */
let klogTimeMs = Number.NaN;
let klogTime = '';

/**
 * Go's `time.Duration.String()` for a duration in ms: `10s`, `5m0s`, `1.2s`, `300ms`, `1h0m0s`.
 * Sub-second parts print with up to three decimals of the second, trailing zeros dropped.
 */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(Math.round(ms));
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const frac = rest - s * 1000;
  const sec = frac ? `${s}.${String(frac).padStart(3, '0').replace(/0+$/, '')}s` : `${s}s`;
  if (h) return `${neg ? '-' : ''}${h}h${m}m${sec}`;
  if (m) return `${neg ? '-' : ''}${m}m${sec}`;
  return `${neg ? '-' : ''}${sec}`;
}

/** `format.Pod`: `<name>_<namespace>(<uid>)`, as the kubelet's messages name a pod. */
export function formatPod(pod: KubeObject): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}

/** `kubecontainer.GetPodFullName`: `<name>_<namespace>`. */
export function podFullName(pod: { metadata: { name?: string; namespace?: string } }): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}`;
}

interface BackoffEntry {
  backoffMs: number;
  lastUpdate: number;
}

/**
 * `flowcontrol.Backoff` (client-go util/flowcontrol/backoff.go): per-key exponential backoff,
 * doubling from `initialMs` to `maxMs`. An entry not updated for `2 * maxMs` has expired and
 * starts again from `initialMs` - the "reset after 10 minutes of running" of crash-loop backoff.
 * The kubelet keeps one for container restarts and one for image pulls (10 s -> 300 s).
 */
export class Backoff {
  private entries = new Map<string, BackoffEntry>();

  constructor(
    readonly initialMs: number,
    readonly maxMs: number,
    private readonly now: () => number,
  ) {}

  /** The current backoff of `key` (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoffMs ?? 0;
  }

  /** `Next(id, eventTime)`: start or double the backoff of `key`, as of `eventTime`. */
  next(key: string, eventTime: number): void {
    const e = this.entries.get(key);
    if (!e || this.hasExpired(eventTime, e.lastUpdate)) {
      this.entries.set(key, { backoffMs: this.initialMs, lastUpdate: eventTime });
      return;
    }
    e.backoffMs = Math.min(e.backoffMs * 2, this.maxMs);
    e.lastUpdate = eventTime;
  }

  /** `IsInBackOffSince(id, eventTime)`: less than the backoff has passed since `eventTime`. */
  isInBackOffSince(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    if (this.hasExpired(eventTime, e.lastUpdate)) return false;
    return this.now() - eventTime < e.backoffMs;
  }

  /** When the backoff of `key` that started at `eventTime` ends (virtual ms), or undefined. */
  expiresAt(key: string, eventTime: number): number | undefined {
    const e = this.entries.get(key);
    return e ? eventTime + e.backoffMs : undefined;
  }

  /** The end of the backoff counted from the last update (`IsInBackOffSinceUpdate`'s window), or undefined. */
  sinceUpdateExpiry(key: string): number | undefined {
    const e = this.entries.get(key);
    return e ? e.lastUpdate + e.backoffMs : undefined;
  }

  /** `IsInBackOffSinceUpdate(id, eventTime)`: less than the backoff has passed since the last update. */
  isInBackOffSinceUpdate(key: string, eventTime: number): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    if (this.hasExpired(eventTime, e.lastUpdate)) return false;
    return eventTime - e.lastUpdate < e.backoffMs;
  }

  /** `Reset(id)`. */
  reset(key: string): void {
    this.entries.delete(key);
  }

  /** `GC()`: drop entries expired as of now. */
  gc(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (this.hasExpired(now, e.lastUpdate)) this.entries.delete(k);
  }

  private hasExpired(eventTime: number, lastUpdate: number): boolean {
    return eventTime - lastUpdate > this.maxMs * 2;
  }
}
