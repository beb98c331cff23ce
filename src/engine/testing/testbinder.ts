/**
 * A test-only stand-in for kube-scheduler's last step, binding: it places every pending pod of
 * the `default-scheduler` on a feasible node with `pods/binding`, the way the scheduler would for
 * the simple cases the workload-controller tests need. It exists so that those tests do not
 * depend on the real scheduler (written separately); tests that use it build their cluster with
 * `scheduler: false`.
 *
 * Feasible (a small subset of the scheduler's filters, same semantics): the node is not
 * `unschedulable` unless tolerated; every NoSchedule/NoExecute taint is tolerated; `nodeSelector`
 * and required node affinity match (a DaemonSet pod's `matchFields metadata.name`); every
 * PersistentVolumeClaim the pod mounts exists and is `Bound` ("pod has unbound immediate
 * PersistentVolumeClaims"). Among feasible nodes it picks the one with the fewest bound, not
 * finished pods (ties by name). No resources, no ports, no spreading, no events.
 */
import type { Clock, Timer } from '../clock';
import type { ApiServer, WatchHandle } from '../api/server';
import { ApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { findUntoleratedTaint, podMatchesNodeAffinity, toleratesTaint } from '../controllers/util';

/** Options of `TestBinder`. */
export interface TestBinderOptions {
  api: ApiServer;
  clock: Clock;
  /** Virtual ms from a pod appearing to its binding. Default 0 (next clock event). */
  delayMs?: number;
  /** Period of the retry sweep for pods that fit nowhere yet, virtual ms. Default 1000. */
  retryMs?: number;
}

/** Binds pending pods (see file comment). `stop()` ends it. */
export class TestBinder {
  private watch: WatchHandle | undefined;
  private sweep: Timer | undefined;
  private pending = new Map<string, Timer>();
  /** Pods bound so far, as `namespace/name -> node`. */
  readonly bindings = new Map<string, string>();

  constructor(private readonly o: TestBinderOptions) {}

  /** Start watching pods and sweeping. */
  start(): this {
    const { api, clock } = this.o;
    this.watch = api.watch('pods', {}, (ev) => {
      if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') return;
      const p = ev.object;
      if (p.spec?.nodeName || p.metadata.deletionTimestamp) return;
      this.schedule(p.metadata.namespace!, p.metadata.name!);
    });
    const tick = () => {
      this.tryAll();
      this.sweep = clock.schedule(this.o.retryMs ?? 1000, tick, { background: true, label: 'test-binder sweep' });
    };
    this.sweep = clock.schedule(this.o.retryMs ?? 1000, tick, { background: true, label: 'test-binder sweep' });
    return this;
  }

  /** Stop binding. */
  stop(): void {
    this.watch?.stop();
    this.sweep?.cancel();
    for (const t of this.pending.values()) t.cancel();
    this.pending.clear();
  }

  private schedule(ns: string, name: string): void {
    const key = `${ns}/${name}`;
    if (this.pending.has(key)) return;
    this.pending.set(
      key,
      this.o.clock.schedule(this.o.delayMs ?? 0, () => {
        this.pending.delete(key);
        this.tryBind(ns, name);
      }, { label: `test-binder bind ${key}` }),
    );
  }

  private tryAll(): void {
    for (const p of this.o.api.list('pods').items) {
      if (!p.spec?.nodeName && !p.metadata.deletionTimestamp) this.tryBind(p.metadata.namespace!, p.metadata.name!);
    }
  }

  private tryBind(ns: string, name: string): void {
    const { api } = this.o;
    const pod = api.tryGet('pods', ns, name);
    if (!pod || pod.spec?.nodeName || pod.metadata.deletionTimestamp) return;
    if ((pod.spec?.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return;
    for (const v of pod.spec?.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (!claim) continue;
      const pvc = api.tryGet('persistentvolumeclaims', ns, claim);
      if (!pvc || pvc.status?.phase !== 'Bound') return;
    }
    const node = this.pickNode(pod);
    if (!node) return;
    try {
      api.bind(ns, name, node);
      this.bindings.set(`${ns}/${name}`, node);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
  }

  private pickNode(pod: KubeObject): string | undefined {
    const { api } = this.o;
    const tolerations = pod.spec?.tolerations ?? [];
    const load = new Map<string, number>();
    for (const p of api.list('pods').items) {
      const n = p.spec?.nodeName;
      if (!n || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      load.set(n, (load.get(n) ?? 0) + 1);
    }
    const feasible = api
      .list('nodes')
      .items.filter((n) => {
        if (n.spec?.unschedulable && !tolerations.some((t: never) => toleratesTaint(t, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }))) return false;
        if (findUntoleratedTaint(n.spec?.taints, tolerations, (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')) return false;
        return podMatchesNodeAffinity(pod.spec, n);
      })
      .map((n) => n.metadata.name!)
      .sort((a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
    return feasible[0];
  }
}
