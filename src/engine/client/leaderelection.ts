/**
 * Leader election on a coordination.k8s.io/v1 Lease, as kube-controller-manager and
 * kube-scheduler run it (client-go tools/leaderelection, resourcelock LeaseLock).
 *
 * Timings are the component-base defaults (`--leader-elect-lease-duration` 15 s,
 * `--leader-elect-renew-deadline` 10 s, `--leader-elect-retry-period` 2 s). The candidate tries
 * every retry period to create or take over the Lease (when it is free or expired), then renews
 * it every retry period. If it cannot renew for the renew deadline it loses leadership; the
 * real components then exit (`leaderelection lost`) and are restarted by the kubelet.
 *
 * Units: virtual milliseconds; Lease fields are seconds and RFC 3339 micro timestamps.
 */
import type { Clock, Timer } from '../clock';
import { parseRfc3339 } from '../clock';
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';

/** `--leader-elect-lease-duration` default, ms. Source: component-base/config/v1alpha1/defaults.go. */
export const LEASE_DURATION_MS = 15_000;
/** `--leader-elect-renew-deadline` default, ms. */
export const RENEW_DEADLINE_MS = 10_000;
/** `--leader-elect-retry-period` default, ms. */
export const RETRY_PERIOD_MS = 2_000;

/** Options of `LeaderElector`. */
export interface LeaderElectorOptions {
  api: ApiServer;
  clock: Clock;
  /** Lease namespace and name, e.g. kube-system / kube-controller-manager. */
  namespace: string;
  name: string;
  /** `<hostname>_<uuid>`, as the components build it. */
  identity: string;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

/** One candidate. `start()` begins trying; `stop()` (the process dies) cancels everything without releasing the Lease. */
export class LeaderElector {
  private timer: Timer | undefined;
  private leading = false;
  private lastRenewMs = 0;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;

  constructor(private readonly o: LeaderElectorOptions) {
    this.leaseMs = o.leaseDurationMs ?? LEASE_DURATION_MS;
    this.renewDeadlineMs = o.renewDeadlineMs ?? RENEW_DEADLINE_MS;
    this.retryMs = o.retryPeriodMs ?? RETRY_PERIOD_MS;
  }

  /** True while this candidate holds the Lease. */
  isLeader(): boolean {
    return this.leading;
  }

  /** Begin: the first attempt runs at once (a 0-ms clock event). */
  start(): void {
    this.schedule(0, false);
  }

  /** The process died: stop trying and renewing (the Lease simply expires). */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.leading = false;
  }

  /**
   * Retries and renewals are periodic housekeeping (background); the first attempt is not. After
   * the first attempt the ticks are one recurring clock event (`Clock.every`): the same times and
   * order as re-scheduling at the end of each tick (performance only).
   */
  private schedule(ms: number, background = true): void {
    if (this.stopped) return;
    if (!background) {
      this.timer = this.o.clock.schedule(ms, () => this.tick(), { label: `leaderelection ${this.o.name}`, background });
      return;
    }
    if (this.recurring) return; // already ticking every retry period
    const t = this.o.clock.every(ms, () => this.tick(), { label: `leaderelection ${this.o.name}` });
    this.recurring = true;
    this.timer = t;
  }

  /** True once the ticks run as one recurring event (see `schedule`). */
  private recurring = false;

  private tick(): void {
    if (!this.recurring) this.timer = undefined;
    if (this.stopped) return;
    const now = this.o.clock.now();
    let ok: boolean;
    try {
      ok = this.tryAcquireOrRenew(now);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      ok = false;
    }
    if (ok) {
      this.lastRenewMs = now;
      if (!this.leading) {
        this.leading = true;
        this.o.onStartedLeading();
      }
    } else if (this.leading && now - this.lastRenewMs >= this.renewDeadlineMs) {
      this.leading = false;
      this.o.onStoppedLeading();
      if (this.stopped) return;
    }
    this.schedule(this.retryMs);
  }

  private tryAcquireOrRenew(now: number): boolean {
    const { api, clock } = this.o;
    const renewTime = clock.rfc3339Micro(now);
    const spec = {
      holderIdentity: this.o.identity,
      leaseDurationSeconds: Math.round(this.leaseMs / 1000),
      renewTime,
    };
    // Read only: the update below sends a new object built from it.
    const cur = api.tryGetShared('leases', this.o.namespace, this.o.name);
    if (!cur) {
      api.create(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.o.name, namespace: this.o.namespace },
          spec: { ...spec, acquireTime: renewTime, leaseTransitions: 0 },
        },
        { fieldManager: this.o.name },
      );
      return true;
    }
    const holder = cur.spec?.holderIdentity;
    // The expiry matters only for a Lease held by another candidate: parsed only then
    // (performance only: the holder renewing its own Lease skips a timestamp parse).
    if (holder && holder !== this.o.identity) {
      const expires = cur.spec?.renewTime ? parseRfc3339(cur.spec.renewTime) - clock.epochMs + (cur.spec.leaseDurationSeconds ?? 15) * 1000 : 0;
      if (expires > now) return false;
    }
    const next: KubeObject = { ...cur, spec: { ...cur.spec, ...spec } };
    if (holder !== this.o.identity) {
      next.spec.acquireTime = renewTime;
      next.spec.leaseTransitions = (cur.spec?.leaseTransitions ?? 0) + 1;
    }
    // The answer is not read: no copy of it (performance only).
    api.update(next, { fieldManager: this.o.name, sharedResult: true });
    return true;
  }
}
