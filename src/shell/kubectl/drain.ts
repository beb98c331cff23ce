/**
 * `kubectl cordon`, `uncordon` and `drain`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go (`RunCordonOrUncordon`,
 * `RunDrain`, `deleteOrEvictPodsSimple`: `node/x cordoned`, `already cordoned`, the refusal
 * `error: unable to drain node "x" due to error: ..., continuing command...` followed by
 * `There are pending nodes to be drained:`, `Warning: ignoring DaemonSet-managed Pods: ...`,
 * `evicting pod ns/x`, `pod/x evicted`, `node/x drained`) and staging/src/k8s.io/kubectl/pkg/drain
 * (filters.go: the DaemonSet, mirror-pod, local-storage and unreplicated filters with their
 * messages, as fixed after kubectl#1467; cordon.go: the `spec.unschedulable` patch). Evictions
 * are plain deletions here (no PodDisruptionBudgets); drain then waits, as a Pending, until every
 * evicted pod is gone.
 */
import { parseLabelSelector } from '../../engine/api/labels';
import type { Pending } from '../types';
import type { KubeObject } from '../../engine/api/types';
import { ApiError } from '../../engine/api/errors';
import { discover, fail, usageError, type Env } from './env';
import { dryRunMode, dryRunSuffix } from './apply';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const DAEMONSET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const DAEMONSET_WARNING = 'ignoring DaemonSet-managed Pods';
const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
/** kubectl drain's pause before retrying an eviction refused with 429. Source: staging/src/k8s.io/kubectl/pkg/drain/drain.go (`time.Sleep(5 * time.Second)`). */
export const EVICTION_RETRY_MS = 5000;
const UNMANAGED_FATAL = 'cannot delete Pods that declare no controller (use --force to override)';
const UNMANAGED_WARNING = 'deleting Pods that declare no controller';

/** The nodes a cordon/uncordon/drain acts on: one name, or `--selector`. */
function nodesFor(env: Env, verb: string): KubeObject[] {
  const selector = env.flags.str('selector');
  if (env.flags.args.length === 0 && !selector) throw usageError(env, `USAGE: ${verb} NODE [flags]`);
  discover(env, 4);
  if (selector) return env.api.list('nodes', { labelSelector: selector }).items;
  return env.flags.args.map((n) => env.api.get('nodes', undefined, n));
}

/** Cordon or uncordon one node; returns the line kubectl prints. */
function setUnschedulable(env: Env, node: KubeObject, desired: boolean, dryRun: 'none' | 'client' | 'server'): string {
  const name = node.metadata.name;
  const already = (node.spec?.unschedulable === true) === desired;
  const verb = desired ? 'cordoned' : 'uncordoned';
  if (already) return `node/${name} already ${verb}\n`;
  if (dryRun !== 'client') {
    env.api.patch('nodes', undefined, name ?? '', 'strategic', { spec: { unschedulable: desired ? true : null } }, { fieldManager: 'kubectl-cordon', dryRun: dryRun === 'server' });
  }
  return `node/${name} ${verb}${dryRunSuffix(dryRun)}\n`;
}

function cordonCmd(env: Env, desired: boolean): number {
  const dryRun = dryRunMode(env);
  for (const n of nodesFor(env, desired ? 'cordon' : 'uncordon')) env.out(setUnschedulable(env, n, desired, dryRun));
  return 0;
}

/** `kubectl cordon NODE`. */
export function cordon(env: Env): number {
  return cordonCmd(env, true);
}

/** `kubectl uncordon NODE`. */
export function uncordon(env: Env): number {
  return cordonCmd(env, false);
}

/** One pod's verdict (drain/filters.go `PodDeleteStatus`). */
interface Verdict {
  pod: Any;
  del: boolean;
  reason: 'Okay' | 'Skip' | 'Warning' | 'Error';
  message?: string;
}

/** filters.go `GetPodsForDeletion`: every pod on the node through the filters, in order. */
function podsForDeletion(env: Env, node: string): Verdict[] {
  const force = env.flags.bool('force');
  const ignoreDs = env.flags.bool('ignore-daemonsets');
  const emptyDir = env.flags.bool('delete-emptydir-data');
  const podSelector = env.flags.str('pod-selector');
  const pods = env.api.list('pods', { fieldSelector: `spec.nodeName=${node}`, labelSelector: podSelector || undefined }).items as Any[];
  const out: Verdict[] = [];
  for (const pod of pods) {
    const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    const ctl = (pod.metadata.ownerReferences ?? []).find((r: Any) => r.controller === true);
    const filters: (() => Verdict)[] = [
      () => {
        if (!ctl || ctl.kind !== 'DaemonSet' || finished) return { pod, del: true, reason: 'Okay' };
        if (!env.api.tryGet('daemonsets', pod.metadata.namespace, ctl.name)) {
          const msg = `daemonsets.apps "${ctl.name}" not found`;
          return force ? { pod, del: true, reason: 'Warning', message: msg } : { pod, del: false, reason: 'Error', message: msg };
        }
        return ignoreDs ? { pod, del: false, reason: 'Warning', message: DAEMONSET_WARNING } : { pod, del: false, reason: 'Error', message: DAEMONSET_FATAL };
      },
      () => (pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined ? { pod, del: false, reason: 'Skip' } : { pod, del: true, reason: 'Okay' }),
      () => {
        const local = (pod.spec?.volumes ?? []).some((v: Any) => v.emptyDir);
        if (!local || finished) return { pod, del: true, reason: 'Okay' };
        return emptyDir ? { pod, del: true, reason: 'Warning', message: LOCAL_STORAGE_WARNING } : { pod, del: false, reason: 'Error', message: LOCAL_STORAGE_FATAL };
      },
      () => {
        if (finished || ctl) return { pod, del: true, reason: 'Okay' };
        return force ? { pod, del: true, reason: 'Warning', message: UNMANAGED_WARNING } : { pod, del: false, reason: 'Error', message: UNMANAGED_FATAL };
      },
    ];
    let v: Verdict = { pod, del: true, reason: 'Okay' };
    for (const f of filters) {
      v = f();
      if (!v.del) break;
    }
    out.push(v);
  }
  return out;
}

/** The filters' messages in filter order (Go iterates its map randomly; this order is stable). */
const MESSAGE_ORDER = [DAEMONSET_FATAL, DAEMONSET_WARNING, LOCAL_STORAGE_FATAL, LOCAL_STORAGE_WARNING, UNMANAGED_FATAL, UNMANAGED_WARNING];

/** Messages grouped as filters.go `errors()` / `Warnings()` do, in filter order. */
function grouped(verdicts: Verdict[], reason: 'Error' | 'Warning'): [string, string[]][] {
  const m = new Map<string, string[]>();
  for (const v of verdicts) {
    if (v.reason !== reason) continue;
    const msg = v.message || 'unexpected error';
    m.set(msg, [...(m.get(msg) ?? []), `${v.pod.metadata.namespace}/${v.pod.metadata.name}`]);
  }
  const rank = (msg: string) => {
    const i = MESSAGE_ORDER.indexOf(msg);
    return i < 0 ? -1 : i;
  };
  return [...m.entries()].sort((a, b) => rank(a[0]) - rank(b[0]));
}

/** `kubectl drain NODE`: cordon, refuse or evict, then wait until the evicted pods are gone. */
export function drain(env: Env): number | Pending {
  // drain.go Complete: the pod selector is parsed before anything is asked of the server.
  const podSelector = env.flags.str('pod-selector');
  if (podSelector) {
    try {
      parseLabelSelector(podSelector);
    } catch {
      throw fail('--pod-selector=<pod_selector> must be a valid label selector');
    }
  }
  const dryRun = dryRunMode(env);
  const nodes = nodesFor(env, 'drain');
  const node = nodes[0];
  if (!node) throw fail('no nodes found');
  const name = node.metadata.name ?? '';
  env.out(setUnschedulable(env, node, true, dryRun));
  const verdicts = podsForDeletion(env, name);
  const errors = grouped(verdicts, 'Error').map(([msg, pods]) => (msg.toLowerCase().startsWith('cannot delete') ? `${msg}: ${pods.join(', ')}` : `cannot delete ${msg}: ${pods.join(', ')}`));
  if (errors.length > 0) {
    const agg = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    env.err(`error: unable to drain node "${name}" due to error: ${agg}, continuing command...\n`);
    env.err(`There are pending nodes to be drained:\n ${name}\n`);
    env.err(errors.join('\n') + '\n');
    return 1;
  }
  const warnings = grouped(verdicts, 'Warning').map(([msg, pods]) => `${msg}: ${pods.join(', ')}`);
  if (warnings.length > 0) env.err(`Warning: ${warnings.join('; ')}\n`);
  const toEvict = verdicts.filter((v) => v.del).map((v) => v.pod);
  const disableEviction = env.flags.bool('disable-eviction');
  if (dryRun === 'client') {
    for (const p of toEvict) env.out(`evicting pod ${p.metadata.namespace}/${p.metadata.name} (dry run)\n`);
    env.out(`node/${name} drained (dry run)\n`);
    return 0;
  }
  const grace = env.flags.int('grace-period');
  const pending: { pod: Any; uid: string }[] = [];
  // Pods whose eviction a PodDisruptionBudget refused (429): tried again 5 s later
  // (staging/src/k8s.io/kubectl/pkg/drain/drain.go `evictPods`).
  const retry: { pod: Any; at: number }[] = [];
  const failures: string[] = [];
  const deleteOpts = { gracePeriodSeconds: grace >= 0 ? grace : undefined, fieldManager: 'kubectl-drain', dryRun: dryRun === 'server' };
  const tryEvict = (p: Any): void => {
    const ns = p.metadata.namespace;
    const pn = p.metadata.name;
    env.out(`evicting pod ${ns}/${pn}\n`);
    try {
      env.api.evict(ns, pn, deleteOpts);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === 404) return;
      if (e.code === 429) {
        env.err(`error when evicting pods/"${pn}" -n "${ns}" (will retry after ${EVICTION_RETRY_MS / 1000}s): ${e.message}\n`);
        retry.push({ pod: p, at: env.ctx.clock.now() + EVICTION_RETRY_MS });
        return;
      }
      failures.push(`error when evicting pods/"${pn}" -n "${ns}": ${e.message}`);
      return;
    }
    pending.push({ pod: p, uid: p.metadata.uid });
  };
  for (const p of toEvict) {
    if (!disableEviction && dryRun !== 'server') {
      tryEvict(p);
      continue;
    }
    if (!disableEviction) env.out(`evicting pod ${p.metadata.namespace}/${p.metadata.name}\n`);
    try {
      env.api.delete('pods', p.metadata.namespace, p.metadata.name, deleteOpts);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 404)) throw e;
    }
    pending.push({ pod: p, uid: p.metadata.uid });
  }
  if (dryRun === 'server') {
    env.out(`node/${name} drained (server dry run)\n`);
    return 0;
  }
  const verb = disableEviction ? 'deleted' : 'evicted';
  const failed = (): number => {
    const agg = failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`;
    env.err(`error: unable to drain node "${name}" due to error: ${agg}, continuing command...\nThere are pending nodes to be drained:\n ${name}\n${failures.join('\n')}\n`);
    return 1;
  };
  if (pending.length === 0 && retry.length === 0) {
    if (failures.length) return failed();
    env.out(`node/${name} drained\n`);
    return 0;
  }
  const timeout = env.flags.duration('timeout');
  const deadline = timeout > 0 ? env.ctx.clock.now() + timeout : undefined;
  let done: number | undefined;
  const check = (): number | undefined => {
    const now = env.ctx.clock.now();
    const due = retry.filter((x) => x.at <= now);
    if (due.length) {
      retry.splice(0, retry.length, ...retry.filter((x) => x.at > now));
      for (const r of due) tryEvict(r.pod);
    }
    for (let i = 0; i < pending.length; i++) {
      const { pod, uid } = pending[i];
      let gone = false;
      try {
        const cur = env.api.tryGet('pods', pod.metadata.namespace, pod.metadata.name);
        gone = !cur || cur.metadata.uid !== uid;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      }
      if (gone) {
        env.out(`pod/${pod.metadata.name} ${verb}\n`);
        pending.splice(i, 1);
        i--;
      }
    }
    if (pending.length === 0 && retry.length === 0) {
      if (failures.length) return failed();
      env.out(`node/${name} drained\n`);
      return 0;
    }
    if (deadline !== undefined && env.ctx.clock.now() >= deadline && pending.length === 0) {
      const p = retry[0].pod;
      const msg = `error when evicting pods/"${p.metadata.name}" -n "${p.metadata.namespace}": global timeout reached: ${timeout / 1000}s`;
      env.err(`There are pending pods in node "${name}" when an error occurred: ${msg}\n`);
      for (const q of retry) env.err(`pod/${q.pod.metadata.name}\n`);
      env.err(`error: unable to drain node "${name}" due to error: ${msg}, continuing command...\nThere are pending nodes to be drained:\n ${name}\n${msg}\n`);
      return 1;
    }
    if (deadline !== undefined && env.ctx.clock.now() >= deadline) {
      const p = pending[0].pod;
      const msg = `error when waiting for pod "${p.metadata.name}" in namespace "${p.metadata.namespace}" to terminate: global timeout reached: ${timeout / 1000}s`;
      env.err(`There are pending pods in node "${name}" when an error occurred: ${msg}\n`);
      for (const q of pending) env.err(`pod/${q.pod.metadata.name}\n`);
      env.err(`error: unable to drain node "${name}" due to error: ${msg}, continuing command...\nThere are pending nodes to be drained:\n ${name}\n${msg}\n`);
      return 1;
    }
    return undefined;
  };
  return {
    poll: () => (done !== undefined ? done : (done = check())),
    cancel: () => undefined,
    wakeAt: () => {
      if (done !== undefined) return undefined;
      const times = [...retry.map((r) => r.at), ...(deadline !== undefined ? [deadline] : [])];
      return times.length ? Math.min(...times) : undefined;
    },
  };
}
