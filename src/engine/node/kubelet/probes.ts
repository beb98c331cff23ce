/**
 * The kubelet's prober: one worker per container and probe type (startup, liveness,
 * readiness), probing every `periodSeconds` on the virtual clock and keeping results per
 * container ID.
 *
 * Mirrors:
 * - pkg/kubelet/prober/worker.go (`doProbe`: a new container ID resets the result to the initial
 *   value - readiness Failure, liveness Success, startup Unknown; probes wait for the container to
 *   run, for `initialDelaySeconds`, and (liveness/readiness) for the startup probe to succeed;
 *   results change only after `failureThreshold` / `successThreshold` equal results in a row; a
 *   liveness or startup failure puts the worker on hold until the container is replaced; a pod
 *   being deleted reports liveness/startup success; a prober error throws the result away);
 * - pkg/kubelet/prober/prober.go (events: Warning `Unhealthy` `Readiness probe failed: <output>`,
 *   `Liveness probe errored and resulted in failure state: <err>`);
 * - pkg/kubelet/prober/prober_manager.go (`UpdatePodStatus`: `started` and `ready` of running
 *   containers; a readiness probe without a result yet is triggered at once).
 *
 * Units: virtual ms; probe fields in seconds as in the API.
 */
import type { Clock, Timer } from '../../clock';
import type { KubeObject } from '../../api/types';
import type { Containerd, ProbeResult, ProbeSpec } from '../runtime';
import { CriError } from '../runtime';

/** Probe kinds. */
export type ProbeType = 'startup' | 'liveness' | 'readiness';

/** A probe result. */
export type ProbeOutcome = 'success' | 'failure' | 'unknown';

/** What the prober needs to know about a container right now (from the runtime). */
export interface ContainerView {
  /** Container ID (64 hex), undefined when there is no container yet. */
  id?: string;
  running: boolean;
  /** Virtual ms the current container started. */
  startedAt?: number;
  /** The container ended and will not be restarted. */
  finished?: boolean;
}

/**
 * The User-Agent of the kubelet's HTTP requests for `purpose` (`probe`, `lifecycle`), from the
 * kubelet's own version: pkg/probe/http/request.go `userAgent` formats `kube-<purpose>/<major>.<minor>`
 * of `version.Get()` (the semantic version's numbers when it parses). `version` is the kubelet's
 * `v1.35.0`-style git version; an unparsable one is used whole after `kube-<purpose>/`.
 */
export function kubeletUserAgent(purpose: string, version: string): string {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  return `kube-${purpose}/${m ? `${m[1]}.${m[2]}` : version}`;
}

/** Callbacks the prober uses (implemented by the kubelet's pod workers). */
export interface ProberHost {
  clock: Clock;
  /** The `User-Agent` of HTTP probes: `kube-probe/<major>.<minor>` of the kubelet (`kubeletUserAgent`). */
  userAgent: string;
  cri(): Containerd;
  /** The container as the runtime shows it now. */
  view(podUid: string, containerName: string): ContainerView | undefined;
  /** The pod as the kubelet knows it (undefined once it is gone). */
  pod(podUid: string): KubeObject | undefined;
  /** Record an event about a container. */
  event(pod: KubeObject, containerName: string, type: 'Normal' | 'Warning', reason: string, message: string): void;
  /** A liveness or startup probe failed past its threshold: sync the pod (it will kill the container). */
  onKillNeeded(podUid: string): void;
  /** A readiness (or startup) result changed: refresh the pod's status. */
  onStatusChange(podUid: string): void;
}

const PROBE_NAME: Record<ProbeType, string> = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' };

interface Worker {
  podUid: string;
  container: string;
  type: ProbeType;
  spec: Record<string, unknown>;
  timer?: Timer;
  containerId?: string;
  lastResult?: ProbeOutcome;
  resultRun: number;
  onHold: boolean;
  inFlight: boolean;
  stopped: boolean;
  /** Clock label, period (virtual ms) and the CRI probe spec: fixed for the worker's life (performance only). */
  label: string;
  periodMs: number;
  /** `failureThreshold` and `successThreshold` of `spec` (fixed with it; performance only). */
  failureThreshold: number;
  successThreshold: number;
  /** `key(podUid, container, 'startup')`: the startup worker gating this one. */
  startupKey: string;
  probe?: ProbeSpec;
}

/** `probe.timeoutSeconds` etc. with the API defaults (already defaulted by the API; kept for static pods). */
function num(spec: Record<string, unknown>, key: string, def: number): number {
  const v = spec[key];
  return typeof v === 'number' && v > 0 ? v : def;
}

/**
 * The probe manager of one kubelet process. Results are in memory only: a restarted kubelet
 * starts over (readiness unknown until the first probe, which it runs at once).
 */
export class ProbeManager {
  private workers = new Map<string, Worker>();
  private results: Record<ProbeType, Map<string, ProbeOutcome>> = { startup: new Map(), liveness: new Map(), readiness: new Map() };
  private stopped = false;
  private quiet = false;
  /**
   * Pods whose every probe has a worker since their last `addPod` (a pod's probes cannot change:
   * the next `addPod` would find nothing to add). Performance only: every pod sync calls it.
   */
  private complete = new Set<string>();
  /**
   * Per pod UID, a counter bumped whenever an answer of `started`/`ready` for the pod could
   * change: a result set to a new value or deleted, a worker added or removed, or a `ready` call
   * that found no readiness result (it may probe at once). Performance only: the kubelet reuses
   * a pod's computed status while it is unchanged (see `answersVersion`).
   */
  private versions = new Map<string, number>();

  constructor(private readonly host: ProberHost) {}

  /**
   * The CRI probe options (the kubelet's User-Agent), one object for every probe: the runtime
   * only reads it (performance only: no options record per probe).
   */
  private probeOpts: { userAgent: string } | undefined;

  /**
   * A number that changes whenever `started`/`ready` for pod `uid` could answer differently than
   * before, or could have side effects (a manual probe): equal numbers mean equal answers to
   * equal questions, with no probe run by asking.
   */
  answersVersion(uid: string): number {
    return this.versions.get(uid) ?? 0;
  }

  private bump(uid: string): void {
    this.versions.set(uid, (this.versions.get(uid) ?? 0) + 1);
  }

  private key(uid: string, name: string, type: ProbeType): string {
    return `${uid}/${name}/${type}`;
  }

  /** `AddPod`: start workers for every probe of the pod's containers (and sidecars) not yet probed. */
  addPod(pod: KubeObject): void {
    if (this.stopped) return;
    const uid = pod.metadata.uid!;
    if (this.complete.has(uid)) return;
    const containers: Record<string, unknown>[] = [
      ...((pod.spec?.initContainers ?? []) as Record<string, unknown>[]).filter((c) => c.restartPolicy === 'Always'),
      ...((pod.spec?.containers ?? []) as Record<string, unknown>[]),
    ];
    for (const c of containers) {
      for (const type of ['startup', 'liveness', 'readiness'] as ProbeType[]) {
        const spec = c[`${type}Probe`] as Record<string, unknown> | undefined;
        if (!spec) continue;
        const k = this.key(uid, String(c.name), type);
        if (this.workers.has(k)) continue;
        const w: Worker = {
          podUid: uid,
          container: String(c.name),
          type,
          spec,
          resultRun: 0,
          onHold: false,
          inFlight: false,
          stopped: false,
          label: `kubelet: ${type} probe ${String(c.name)}`,
          periodMs: num(spec, 'periodSeconds', 10) * 1000,
          failureThreshold: num(spec, 'failureThreshold', 3),
          successThreshold: num(spec, 'successThreshold', 1),
          startupKey: this.key(uid, String(c.name), 'startup'),
        };
        this.workers.set(k, w);
        this.bump(uid);
        this.schedule(w);
      }
    }
    this.complete.add(uid);
  }

  /** `RemovePod` / `StopLivenessAndStartup`: stop every worker of the pod. */
  removePod(uid: string): void {
    this.complete.delete(uid);
    // The counter stays while the pod worker lives (its status memo may hold a number): a
    // terminating worker keeps comparing against it. `forgetPod` drops it with the worker.
    this.bump(uid);
    for (const [k, w] of [...this.workers]) {
      if (w.podUid !== uid) continue;
      w.stopped = true;
      w.timer?.cancel();
      this.workers.delete(k);
      if (w.containerId) this.results[w.type].delete(w.containerId);
    }
  }

  /**
   * Forget pod `uid`'s answers-version counter: its pod worker is gone (`finalize`, after
   * `removePod`), and with it the only memo that held one of its numbers (the worker's status
   * memo). A worker for the same UID later starts without a memo, so a counter starting over
   * from 0 cannot be mistaken for an old one. Bounds `versions` to the pods the kubelet knows.
   */
  forgetPod(uid: string): void {
    if (!this.complete.has(uid)) this.versions.delete(uid);
  }

  /** The kubelet process died. */
  stop(): void {
    this.stopped = true;
    for (const w of this.workers.values()) {
      w.stopped = true;
      w.timer?.cancel();
    }
    this.workers.clear();
    this.complete.clear();
    for (const uid of this.versions.keys()) this.bump(uid);
  }

  /** The liveness (or startup) result of a container: `failure` means kill it. */
  result(type: ProbeType, containerId: string): ProbeOutcome | undefined {
    return this.results[type].get(containerId);
  }

  /** `started` of a running container: its startup probe succeeded, or it has none. */
  started(uid: string, name: string, containerId: string): boolean {
    const w = this.workers.get(this.key(uid, name, 'startup'));
    if (!w) return true;
    return this.results.startup.get(containerId) === 'success';
  }

  /**
   * `ready` of a running, started container: its readiness probe succeeded, or it has none. A
   * readiness probe that has no result for this container yet runs at once.
   */
  ready(uid: string, name: string, containerId: string): boolean {
    const r = this.results.readiness.get(containerId);
    if (r === 'success') return true;
    const w = this.workers.get(this.key(uid, name, 'readiness'));
    if (!w) return true;
    // No result yet: whether this call probes depends on `inFlight`, which the version does not
    // follow; a status computed after this point is never reused.
    if (r === undefined) this.bump(uid);
    if (r === undefined && !w.inFlight) {
      // Manual trigger: probe now; a result that is known at once is used right away.
      this.quiet = true;
      try {
        this.doProbe(w);
      } finally {
        this.quiet = false;
      }
      return this.results.readiness.get(containerId) === 'success';
    }
    return false;
  }

  private schedule(w: Worker): void {
    if (w.stopped || this.stopped) return;
    // A recurring clock event: the same ticks as re-scheduling after each probe (performance
    // only). A worker stopped meanwhile has cancelled it.
    const tick = (): void => {
      if (w.stopped || this.stopped) {
        timer.cancel();
        return;
      }
      if (!this.doProbe(w)) this.removeWorker(w);
    };
    const timer = this.host.clock.every(w.periodMs, tick, { label: w.label });
    w.timer = timer;
  }

  private removeWorker(w: Worker): void {
    w.stopped = true;
    w.timer?.cancel();
    const k = this.key(w.podUid, w.container, w.type);
    if (this.workers.get(k) === w) this.workers.delete(k);
    this.complete.delete(w.podUid);
    this.bump(w.podUid);
  }

  private initial(type: ProbeType): ProbeOutcome {
    return type === 'readiness' ? 'failure' : type === 'liveness' ? 'success' : 'unknown';
  }

  private setResult(w: Worker, id: string, r: ProbeOutcome): void {
    const results = this.results[w.type];
    const before = results.get(id);
    // The same result again (most probes): setting it would change nothing (same key, same
    // value, same map order) and nothing below runs (performance only).
    if (before === r) return;
    results.set(id, r);
    this.bump(w.podUid);
    if (!this.quiet && (w.type === 'readiness' || w.type === 'startup')) this.host.onStatusChange(w.podUid);
  }

  /** `doProbe`: one probe round. Returns false when the worker should stop. */
  private doProbe(w: Worker): boolean {
    const pod = this.host.pod(w.podUid);
    if (!pod) return false;
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return false;
    const v = this.host.view(w.podUid, w.container);
    if (!v || !v.id) return true;
    if (w.containerId !== v.id) {
      if (w.containerId) this.results[w.type].delete(w.containerId);
      this.bump(w.podUid);
      w.containerId = v.id;
      this.setResult(w, v.id, this.initial(w.type));
      w.onHold = false;
      w.resultRun = 0;
      w.lastResult = undefined;
    }
    if (w.onHold) return true;
    if (!v.running) {
      this.setResult(w, v.id, 'failure');
      return !v.finished;
    }
    if (pod.metadata.deletionTimestamp && (w.type === 'liveness' || w.type === 'startup')) {
      this.setResult(w, v.id, 'success');
      return false;
    }
    if (w.type === 'startup' && this.results.startup.get(v.id) === 'success') return true;
    if (w.type !== 'startup' && this.workers.has(w.startupKey) && this.results.startup.get(v.id) !== 'success') return true; // !started()
    const now = this.host.clock.now();
    const initialDelay = typeof w.spec.initialDelaySeconds === 'number' ? w.spec.initialDelaySeconds : 0;
    if (v.startedAt !== undefined && now - v.startedAt < initialDelay * 1000) return true;
    let pending;
    try {
      pending = this.host.cri().probe(v.id, (w.probe ??= this.probeSpec(w.spec)), (this.probeOpts ??= { userAgent: this.host.userAgent }));
    } catch (e) {
      if (!(e instanceof CriError)) throw e;
      this.host.event(pod, w.container, 'Warning', 'Unhealthy', `${PROBE_NAME[w.type]} probe errored and resulted in failure state: ${e.message}`);
      return true;
    }
    const id = v.id;
    w.inFlight = true;
    // A result known at once (most probes) is handled now, as `then` would call it now: no
    // closure per probe (performance only).
    if (pending.settled) this.onProbeResult(w, id, pod, pending.value!);
    else pending.then((res) => this.onProbeResult(w, id, pod, res));
    return true;
  }

  /** A probe of container `id` (run while `pod` was the pod) answered `res`: events, thresholds, the result. */
  private onProbeResult(w: Worker, id: string, pod: KubeObject, res: ProbeResult): void {
    w.inFlight = false;
    if (w.stopped || this.stopped || w.containerId !== id) return;
    const cur = this.host.pod(w.podUid) ?? pod;
    if (res.errored) {
      this.host.event(cur, w.container, 'Warning', 'Unhealthy', `${PROBE_NAME[w.type]} probe errored and resulted in failure state: ${res.output}`);
      return;
    }
    const r: ProbeOutcome = res.result;
    if (r === 'failure') this.host.event(cur, w.container, 'Warning', 'Unhealthy', `${PROBE_NAME[w.type]} probe failed: ${res.output.replace(/\s+$/, '')}`);
    if (w.lastResult === r) w.resultRun++;
    else {
      w.lastResult = r;
      w.resultRun = 1;
    }
    if ((r === 'failure' && w.resultRun < w.failureThreshold) || (r === 'success' && w.resultRun < w.successThreshold)) return;
    this.setResult(w, id, r);
    if ((w.type === 'liveness' || w.type === 'startup') && r === 'failure') {
      w.onHold = true;
      w.resultRun = 0;
      this.host.onKillNeeded(w.podUid);
    }
  }

  private probeSpec(spec: Record<string, unknown>): ProbeSpec {
    const out: ProbeSpec = { timeoutSeconds: num(spec, 'timeoutSeconds', 1) };
    if (spec.exec) out.exec = spec.exec as ProbeSpec['exec'];
    if (spec.httpGet) out.httpGet = spec.httpGet as ProbeSpec['httpGet'];
    if (spec.tcpSocket) out.tcpSocket = spec.tcpSocket as ProbeSpec['tcpSocket'];
    if (spec.grpc) out.grpc = spec.grpc as ProbeSpec['grpc'];
    return out;
  }
}
