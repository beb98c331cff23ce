/**
 * `kubectl logs POD|TYPE/NAME [-c CONTAINER] [-p] [--tail=N] [-f] [--timestamps]`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go (argument checks; `Defaulted container
 * "a" out of: a, b`; `container foo is not valid for pod x`), polymorphichelpers/logsforobject.go
 * and attachablepodforobject.go (`deploy/x` picks one pod, `Found 2 pods, using pod/x`, by
 * podutils `ByLogging`), and the checks the API server and the kubelet make before streaming
 * (pkg/registry/core/pod/strategy.go `LogLocation`; pkg/kubelet/kubelet_pods.go
 * `validateContainerLogStatus`: `container "c" in pod "p" is waiting to start: ContainerCreating`,
 * `previous terminated container "c" in pod "p" not found`). The log text itself comes from the
 * node layer through `NodeAccess`.
 */
import type { Pending } from '../types';
import type { KubeObject } from '../../engine/api/types';
import { ApiError } from '../../engine/api/errors';
import { selectorFromLabelSelector } from '../../engine/api/labels';
import { timestampMs } from '../printers';
import { CmdError, discover, fail, usageError, type Env } from './env';
import { isNodeAccessError, type LogOptions, type LogStream } from './node-access';
import { parseRfc3339 } from '../../engine/clock';
import { resolveType } from './builder';
import { authorizeRequest } from './impersonate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** A BadRequest from the API server / kubelet, printed as kubectl prints it. */
export function badRequest(message: string): ApiError {
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });
}

/** podutils `ByLogging`: assigned, running, ready, more restarts, older first. */
function byLogging(a: Any, b: Any): number {
  const assigned = (p: Any) => (p.spec?.nodeName ? 0 : 1);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Any) => ({ Running: 0, Unknown: 1, Pending: 2 } as Record<string, number>)[p.status?.phase] ?? 3;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Any) => ((p.status?.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True') ? 0 : 1);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  const restarts = (p: Any) => (p.status?.containerStatuses ?? []).reduce((n: number, c: Any) => n + (c.restartCount ?? 0), 0);
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  const t = (p: Any) => timestampMs(p.metadata?.creationTimestamp) ?? Number.MAX_SAFE_INTEGER;
  return t(a) - t(b);
}

/**
 * The pod a `logs`/`exec` target names: a pod name, `pod/x`, or a workload (`deploy/x`, `rs/x`,
 * `sts/x`, `ds/x`, `job/x`, `svc/x`) whose pods are selected by its selector.
 */
export function podFor(env: Env, target: string): KubeObject {
  if (!target.includes('/')) return env.api.get('pods', env.namespace, target);
  const [typed, name] = target.split('/', 2);
  const type = resolveType(env, typed);
  if (type.kind === 'Pod') return env.api.get('pods', env.namespace, name);
  const obj = env.api.get(type, env.namespace, name);
  const sel = type.kind === 'Service' ? obj.spec?.selector ? { matchLabels: obj.spec.selector } : undefined : obj.spec?.selector;
  if (!sel) throw fail(`cannot attach to ${type.kind} ${name}: selector is empty`);
  const pods = env.api.list('pods', { namespace: env.namespace, labelSelector: selectorFromLabelSelector(sel) }).items;
  if (pods.length === 0) throw fail(`no pods found for ${type.kind.toLowerCase()} "${name}"`);
  const sorted = [...pods].sort(byLogging);
  if (pods.length > 1) env.err(`Found ${pods.length} pods, using pod/${sorted[0].metadata.name}\n`);
  return sorted[0];
}

/**
 * The container kubectl picks: `-c`, else the `kubectl.kubernetes.io/default-container`
 * annotation (any container of the pod, init and ephemeral ones too: podcmd
 * `FindContainerByName`), else the first, announcing the choice when the pod has more than one
 * container (podcmd `AllContainerNames`: containers, then `NAME (ephem)`, then `NAME (init)`).
 * An annotation naming no container is skipped; `kubectl logs` says so first
 * (polymorphichelpers/logsforobject.go: `Default container name "x" not found in pod P`),
 * `exec` and `attach` only log it at -v=4 (`podcmd.FindOrDefaultContainerByName`): `forLogs`.
 */
export function containerFor(env: Env, pod: Any, requested: string, forLogs = false): string {
  const init: Any[] = pod.spec?.initContainers ?? [];
  const main: Any[] = pod.spec?.containers ?? [];
  const eph: Any[] = pod.spec?.ephemeralContainers ?? [];
  if (requested) {
    if (![...init, ...main, ...eph].some((c) => c.name === requested)) throw fail(`container ${requested} is not valid for pod ${pod.metadata.name}`);
    return requested;
  }
  const annotated: string | undefined = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'] || undefined;
  if (annotated) {
    if ([...main, ...init, ...eph].some((c) => c.name === annotated)) return annotated;
    if (forLogs) env.err(`Default container name "${annotated}" not found in pod ${pod.metadata.name}\n`);
  }
  const chosen = main[0]?.name;
  if (!chosen) throw badRequest(`a container name must be specified for pod ${pod.metadata.name}`);
  if (main.length > 1 || init.length > 0 || eph.length > 0) {
    const names = [...main.map((c) => c.name), ...eph.map((c) => `${c.name} (ephem)`), ...init.map((c) => `${c.name} (init)`)];
    env.err(`Defaulted container "${chosen}" out of: ${names.join(', ')}\n`);
  }
  return chosen;
}

/** kubelet `validateContainerLogStatus`: why there are no logs to read, if there are none. */
export function logStatusError(pod: Any, container: string, previous: boolean): ApiError | undefined {
  const podName = pod.metadata.name;
  const statuses: Any[] = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  const cs = statuses.find((s) => s.name === container);
  if (!cs) return badRequest(`container "${container}" in pod "${podName}" is waiting to start: ContainerCreating`);
  const last = cs.lastState?.terminated;
  if (previous) {
    if (!last) return badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    return undefined;
  }
  if (cs.state?.running || cs.state?.terminated || last) return undefined;
  const reason = cs.state?.waiting?.reason;
  if (reason === 'ErrImagePull') return badRequest(`container "${container}" in pod "${podName}" is waiting to start: image can't be pulled`);
  if (reason === 'ImagePullBackOff') return badRequest(`container "${container}" in pod "${podName}" is waiting to start: trying and failing to pull image`);
  if (reason) return badRequest(`container "${container}" in pod "${podName}" is waiting to start: ${reason}`);
  return badRequest(`container "${container}" in pod "${podName}" is waiting to start - no logs yet`);
}

/** Said when there is no node layer to read container output from. */
export const NO_NODE_ACCESS = 'container logs are not available: this playground has no node layer connected to kubectl yet';

/**
 * `--since` / `--since-time` as the seconds the kubelet looks back: `--since` rounded to whole
 * seconds (logs.go `ToLogOptions`: `o.SinceSeconds.Round(time.Second)`), `--since-time` parsed as
 * RFC 3339 (sent as a metav1.Time, whole seconds) and turned into the seconds since then.
 */
function sinceSeconds(env: Env): number | undefined {
  const st = env.flags.str('since-time');
  if (st) {
    const t = parseRfc3339(st);
    if (!Number.isFinite(t)) throw fail(`parsing time ${JSON.stringify(st)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(st)} as "2006"`);
    const nowUnix = env.ctx.clock.epochMs + env.ctx.clock.now();
    return Math.max(0, (nowUnix - Math.floor(t / 1000) * 1000) / 1000);
  }
  const ms = env.flags.duration('since');
  if (ms === 0) return undefined;
  return Math.round(ms / 1000);
}

/** logs.go `Complete`: the builder's NotFound is wrapped as `error from server (NotFound): ... in namespace "ns"`. */
function logsTarget(env: Env, target: string): KubeObject {
  try {
    return podFor(env, target);
  } catch (e) {
    if (e instanceof ApiError && e.code === 404 && !e.connectionRefused) throw fail(`error from server (NotFound): ${e.status.message} in namespace "${env.namespace}"`);
    throw e;
  }
}

/** `--all-pods` (polymorphichelpers `AllPodLogsForObject`): every pod of a workload's selector, by name. */
function allPodsFor(env: Env, target: string): KubeObject[] {
  if (!target.includes('/')) return [logsTarget(env, target)];
  const [typed, name] = target.split('/', 2);
  const type = resolveType(env, typed);
  if (type.kind === 'Pod') return [logsTarget(env, target)];
  let obj: KubeObject;
  try {
    obj = env.api.get(type, env.namespace, name);
  } catch (e) {
    if (e instanceof ApiError && e.code === 404 && !e.connectionRefused) throw fail(`error from server (NotFound): ${e.status.message} in namespace "${env.namespace}"`);
    throw e;
  }
  const sel = type.kind === 'Service' ? (obj.spec?.selector ? { matchLabels: obj.spec.selector } : undefined) : obj.spec?.selector;
  if (!sel) throw fail(`cannot attach to ${type.kind} ${name}: selector is empty`);
  const pods = env.api.list('pods', { namespace: env.namespace, labelSelector: selectorFromLabelSelector(sel) }).items;
  if (pods.length === 0) throw fail(`no pods found for ${type.kind.toLowerCase()} "${name}"`);
  return [...pods].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
}

/** `kubectl logs`. */
export function logs(env: Env): number | Pending {
  const args = env.flags.args;
  const selector = env.flags.str('selector');
  if (args.length === 0 && !selector) {
    throw new CmdError(
      "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples",
    );
  }
  if (args.length > 2) throw usageError(env, "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command");
  discover(env, 4);
  if (env.flags.str('since-time') && env.flags.duration('since') !== 0) throw fail('at most one of `sinceTime` or `sinceSeconds` may be specified');
  if (env.flags.duration('since') < 0) throw fail('--since must be greater than 0');
  if (env.flags.int('tail') < -1) throw fail('--tail must be greater than or equal to -1');
  let requested = env.flags.str('container');
  if (args.length === 2) {
    if (requested) throw usageError(env, "only one of -c or an inline [CONTAINER] arg is allowed");
    requested = args[1];
  }
  const pods: KubeObject[] = selector
    ? env.api.list('pods', { namespace: env.namespace, labelSelector: selector }).items
    : env.flags.bool('all-pods')
      ? allPodsFor(env, args[0])
      : [logsTarget(env, args[0])];
  if (pods.length === 0) {
    env.err(`No resources found in ${env.namespace} namespace.\n`);
    return 0;
  }
  const previous = env.flags.bool('previous');
  const opts: LogOptions = { previous, tail: selector && !env.flags.changed('tail') ? 10 : env.flags.int('tail'), timestamps: env.flags.bool('timestamps') };
  const since = sinceSeconds(env);
  if (since !== undefined) opts.sinceSeconds = since;
  const all = env.flags.bool('all-containers');
  // logs.go: only --prefix (or --all-pods, which sets it) prefixes lines, even for several pods.
  const prefix = env.flags.bool('prefix') || env.flags.bool('all-pods');
  const follow = env.flags.bool('follow');
  if (follow) {
    // logs.go RunLogs: following several streams is capped by --max-log-requests.
    const n = pods.reduce((k, p: Any) => k + (all ? (p.spec?.initContainers ?? []).length + (p.spec?.containers ?? []).length : 1), 0);
    const max = env.flags.int('max-log-requests');
    if (n > 1 && n > max) throw fail(`you are attempting to follow ${n} log streams, but maximum allowed concurrency is ${max}, use --max-log-requests to increase the limit`);
  }
  const streams: LogStream[] = [];
  for (const pod of pods) {
    const containers = all ? [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c: Any) => c.name as string) : [containerFor(env, pod, requested, true)];
    for (const c of containers) {
      // The pods/log GET is authorized before the registry looks at the pod.
      authorizeRequest(env.api, { verb: 'get', group: '', resource: 'pods', subresource: 'log', namespace: pod.metadata.namespace ?? env.namespace, name: pod.metadata.name });
      // strategy.go LogLocation: a pod not yet bound to a node has no kubelet to ask; the API
      // server answers with an empty stream (no error, no lines), even with -f or -p.
      if (!pod.spec?.nodeName) continue;
      const st = logStatusError(pod, c, previous);
      if (st) throw st;
      const na = env.options.nodeAccess;
      if (!na) throw fail(NO_NODE_ACCESS);
      const pre = prefix ? `[pod/${pod.metadata.name}/${c}] ` : '';
      if (follow && na.follow) {
        const s = na.follow(pod.metadata.namespace ?? env.namespace, pod.metadata.name ?? '', c, opts, (line) => env.out(pre + line + '\n'));
        if (isNodeAccessError(s)) throw fail(s.error);
        streams.push(s);
        continue;
      }
      const lines = na.logs(pod.metadata.namespace ?? env.namespace, pod.metadata.name ?? '', c, opts);
      if (isNodeAccessError(lines)) throw fail(lines.error);
      for (const l of lines) env.out(pre + l + '\n');
    }
  }
  if (streams.length === 0) return 0;
  return {
    poll: () => {
      for (const s of streams) if (!s.ended) s.poll?.();
      return streams.every((s) => s.ended) ? 0 : undefined;
    },
    cancel: () => streams.forEach((s) => s.stop()),
    wakeAt: () => {
      const at = streams.filter((s) => !s.ended).map((s) => s.wakeAt?.());
      return at.length === 0 || at.some((t) => t === undefined) ? undefined : Math.min(...(at as number[]));
    },
  };
}
