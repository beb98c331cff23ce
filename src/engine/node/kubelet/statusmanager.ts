/**
 * The kubelet's status manager: the pod statuses the kubelet computed, written to the API
 * server when they differ from what the API shows, and the final delete of a pod whose
 * containers have all stopped.
 *
 * Mirrors pkg/kubelet/status/status_manager.go: `SetPodStatus` queues an update that is written
 * at once (here: in a 0 ms clock event, batching the changes of one instant), and a periodic sync
 * (every 10 s, `syncPeriod`) writes whatever is still different - so a write that failed while the
 * API server or the network was down is retried; `syncPod` reads the pod, merges the conditions
 * the kubelet does not own, skips the write when nothing changed, and for a terminated pod with a
 * deletionTimestamp deletes it with grace 0 and a UID precondition (`canBeDeleted`). Static pods'
 * statuses go to their mirror pods.
 *
 * Units: virtual ms.
 */
import type { Clock, Timer } from '../../clock';
import { ApiError } from '../../api/errors';
import type { ApiServer } from '../../api/server';
import type { KubeObject } from '../../api/types';
import { deepEqual } from '../../api/types';
import { mergeWithApiStatus } from './status';
import { CONFIG_HASH_ANNOTATION, CONFIG_MIRROR_ANNOTATION } from './staticpods';

/** Period of the status manager's reconcile loop. Source: status_manager.go (`syncPeriod = 10 * time.Second`). */
export const STATUS_SYNC_PERIOD_MS = 10_000;

interface Entry {
  pod: KubeObject;
  status: Record<string, unknown>;
  isStatic: boolean;
  /** Containers stopped and volumes cleaned: the API pod may be deleted (if it is being deleted). */
  terminated: boolean;
  /**
   * The informer's pod and the status last found already written (performance only: both are
   * immutable, so the periodic sync skips the merge and comparison while neither changed).
   */
  inSync?: { cached: KubeObject; status: Record<string, unknown> };
}

/** Hooks for logging and tracing status writes. */
export interface StatusManagerHooks {
  log?(msg: string, kv: Record<string, unknown>): void;
  /** A pod was deleted from the API after termination. */
  onDeleted?(pod: KubeObject): void;
  /** The API pod as cached by the kubelet's informer (to avoid reads when nothing changed). */
  cached?(ns: string, name: string): KubeObject | undefined;
  /**
   * The status kept for pod `uid` was replaced by the API's stored status, deepEqual to it
   * (`from` the kubelet's object, `to` the stored one; both read only).
   */
  onShared?(uid: string, from: Record<string, unknown>, to: Record<string, unknown>): void;
}

/** One kubelet's status manager (memory dies with the process). */
export class StatusManager {
  private entries = new Map<string, Entry>();
  private dirty = new Set<string>();
  private flushTimer: Timer | undefined;
  private periodic: Timer | undefined;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly api: ApiServer,
    private readonly hooks: StatusManagerHooks = {},
  ) {}

  /** Start the periodic reconcile. */
  start(): void {
    const tick = (): void => {
      this.periodic = undefined;
      if (this.stopped) return;
      for (const uid of this.entries.keys()) this.dirty.add(uid);
      this.flush();
      this.periodic = this.clock.schedule(STATUS_SYNC_PERIOD_MS, tick, { label: 'kubelet: status manager sync', background: true });
    };
    this.periodic = this.clock.schedule(STATUS_SYNC_PERIOD_MS, tick, { label: 'kubelet: status manager sync', background: true });
  }

  /** The process died. */
  stop(): void {
    this.stopped = true;
    this.flushTimer?.cancel();
    this.periodic?.cancel();
  }

  /** The last status computed for a pod UID. */
  get(uid: string): Record<string, unknown> | undefined {
    return this.entries.get(uid)?.status;
  }

  /** `SetPodStatus`: remember and (if it changed) write soon. */
  set(pod: KubeObject, status: Record<string, unknown>, isStatic: boolean): void {
    if (this.stopped) return;
    const uid = pod.metadata.uid!;
    const prev = this.entries.get(uid);
    const changed = !prev || !deepEqual(prev.status, status);
    if (prev) {
      // Updated in place (performance only: every pod sync sets its status; nothing else holds
      // an entry across calls). An unchanged status keeps its (equal) object, so the periodic
      // sync recognises it; `terminated` and `inSync` stay.
      prev.pod = pod;
      if (changed) prev.status = status;
      prev.isStatic = isStatic;
    } else this.entries.set(uid, { pod, status, isStatic, terminated: false, inSync: undefined });
    if (changed) this.markDirty(uid);
  }

  /** `TerminatePod` + the worker's completion: containers are gone; delete the API pod if it is being deleted. */
  markTerminated(uid: string): void {
    const e = this.entries.get(uid);
    if (!e) return;
    e.terminated = true;
    this.markDirty(uid);
  }

  /** Write the pod's status again soon even though it did not change (a recreated mirror pod). */
  resync(uid: string): void {
    if (this.entries.has(uid)) this.markDirty(uid);
  }

  /** Forget a pod (it is gone from the kubelet's config and the API). */
  remove(uid: string): void {
    this.entries.delete(uid);
    this.dirty.delete(uid);
  }

  private markDirty(uid: string): void {
    this.dirty.add(uid);
    if (!this.flushTimer) this.flushTimer = this.clock.schedule(0, () => {
      this.flushTimer = undefined;
      this.flush();
    }, { label: 'kubelet: status update' });
  }

  private flush(): void {
    if (this.stopped) return;
    const uids = [...this.dirty];
    this.dirty.clear();
    for (const uid of uids) {
      const e = this.entries.get(uid);
      if (!e) continue;
      try {
        this.syncPod(uid, e);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        // Retried by the periodic sync (or the next change).
        this.hooks.log?.('Failed to update status for pod', { pod: `${e.pod.metadata.namespace}/${e.pod.metadata.name}`, err: err.message });
      }
    }
  }

  private syncPod(uid: string, e: Entry): void {
    const ns = e.pod.metadata.namespace ?? 'default';
    const name = e.pod.metadata.name!;
    // Cheap check through the informer cache: nothing to write and nothing to delete.
    const cached = this.hooks.cached?.(ns, name);
    // The merge with the informer's pod and whether it equals that pod's status.
    let first: { of: KubeObject; merged: Record<string, unknown>; same: boolean } | undefined;
    if (cached && this.matches(e, cached)) {
      const wantDelete = !e.isStatic && e.terminated && !!cached.metadata.deletionTimestamp;
      if (!wantDelete && e.inSync?.cached === cached && e.inSync.status === e.status) return;
      const merged = mergeWithApiStatus(cached.status, e.status);
      const same = deepEqual(merged, cached.status);
      if (same && !wantDelete) {
        e.inSync = { cached, status: e.status };
        return;
      }
      first = { of: cached, merged, same };
    }
    // The stored pod itself (read-only here: the write below builds a new object around it).
    const apiPod = this.api.tryGetShared('pods', ns, name);
    if (!apiPod || !this.matches(e, apiPod)) return;
    // The informer's pod is often the stored object itself: the merge and the comparison above
    // are then this one's (both are pure functions of the same two statuses; performance only).
    const reuse = first !== undefined && first.of === apiPod;
    const merged = reuse ? first!.merged : mergeWithApiStatus(apiPod.status, e.status);
    if (!(reuse ? first!.same : deepEqual(merged, apiPod.status))) {
      const stored = this.api.updateStatus({ ...apiPod, status: merged }, { fieldManager: 'kubelet', sharedResult: true });
      // Keep the stored status instead of our equal copy when they are the same (the usual case:
      // the API adds nothing the kubelet did not compute). Both are read-only (stored objects are
      // immutable; the kubelet only reads its last status, and compares statuses by value), so
      // this changes no decision (performance only: one status copy less per pod, ~17 MB at 10k pods).
      if (stored.status !== e.status && deepEqual(stored.status, e.status)) {
        const from = e.status;
        e.status = stored.status as Record<string, unknown>;
        this.hooks.onShared?.(uid, from, e.status);
      }
    }
    if (!e.isStatic && e.terminated && apiPod.metadata.deletionTimestamp) {
      this.api.delete('pods', ns, name, { gracePeriodSeconds: 0, preconditions: { uid }, fieldManager: 'kubelet' });
      this.hooks.log?.('Pod fully terminated and removed from etcd', { pod: `${ns}/${name}` });
      this.hooks.onDeleted?.(apiPod);
      this.entries.delete(uid);
    }
  }

  /** The API object is the pod this entry is about (same UID; for static pods the mirror with the hash). */
  private matches(e: Entry, apiPod: KubeObject): boolean {
    if (e.isStatic) {
      const hash = e.pod.metadata.annotations?.[CONFIG_HASH_ANNOTATION];
      return apiPod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] === hash && !apiPod.metadata.deletionTimestamp;
    }
    return apiPod.metadata.uid === e.pod.metadata.uid;
  }
}
