/**
 * `kubectl rollout status|history|undo|restart|pause|resume` for Deployments (and DaemonSets /
 * StatefulSets where kubectl supports them).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/*.go and
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers: rollout_status.go (the status lines, printed
 * on every watch event as `watchtools.UntilWithSync` delivers them, so a line can repeat;
 * `deployment "x" exceeded its progress deadline`), history.go (`REVISION  CHANGE-CAUSE` from the
 * ReplicaSets' `deployment.kubernetes.io/revision` and `kubernetes.io/change-cause`
 * annotations; `--revision=N` prints the pod template), rollback.go (`DeploymentRollbacker`: the
 * target ReplicaSet's template and annotations JSON-patched into the Deployment; `skipped
 * rollback (current template already matches revision N)`; `unable to find specified revision
 * N in history`), objectrestarter.go (`kubectl.kubernetes.io/restartedAt`), objectpauser.go and
 * objectresumer.go (`is already paused`, `is not paused`).
 */
import type { Pending } from '../types';
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { CmdError, discover, fail, formatErrors, kindGroup, type Env } from './env';
import { parseResourceArgs, readManifestFlags, objectNamespace } from './builder';
import { PrefixWriter, describePodTemplate, replicaSetsOf, tabbed } from './describe';
import { formatRfc3339 } from '../../engine/clock';
import { dryRunMode, dryRunSuffix } from './apply';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const REVISION = 'deployment.kubernetes.io/revision';
const CHANGE_CAUSE = 'kubernetes.io/change-cause';

/** The objects a rollout subcommand acts on (`TYPE NAME`, `TYPE/NAME`, `-f`, `-l`). */
function targets(env: Env): { type: ResourceType; obj: KubeObject }[] {
  const manifests = readManifestFlags(env);
  if (!manifests && env.flags.args.length === 0) throw fail('required resource not specified');
  discover(env, 4);
  const out: { type: ResourceType; obj: KubeObject }[] = [];
  if (manifests) {
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      out.push({ type, obj: env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? '') });
    }
    return out;
  }
  const selector = env.flags.str('selector');
  const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: false, hasSelector: selector !== '' });
  if (sel.mode === 'names') {
    for (const r of sel.refs) out.push({ type: r.type, obj: env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name) });
  } else {
    for (const t of sel.types) for (const o of env.api.list(t, { namespace: env.namespace, labelSelector: selector }).items) out.push({ type: t, obj: o });
  }
  return out;
}

/** polymorphichelpers `StatusViewer.Status`: the line to print, whether the rollout is done, or an error. */
export function rolloutStatusLine(obj: Any, revision = 0): { text: string; done: boolean } {
  const name = obj.metadata.name;
  const st = obj.status ?? {};
  const gen = obj.metadata.generation ?? 0;
  switch (obj.kind) {
    case 'Deployment': {
      if (revision > 0) {
        const rev = Number(obj.metadata.annotations?.[REVISION] ?? 0);
        if (revision !== rev) throw fail(`desired revision (${revision}) is different from the running revision (${rev})`);
      }
      if (gen <= (st.observedGeneration ?? 0)) {
        const cond = (st.conditions ?? []).find((c: Any) => c.type === 'Progressing');
        if (cond && cond.reason === 'ProgressDeadlineExceeded') throw fail(`deployment "${name}" exceeded its progress deadline`);
        const want = obj.spec?.replicas ?? 1;
        const updated = st.updatedReplicas ?? 0;
        if (updated < want) return { text: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`, done: false };
        if ((st.replicas ?? 0) > updated) return { text: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`, done: false };
        if ((st.availableReplicas ?? 0) < updated) return { text: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`, done: false };
        return { text: `deployment "${name}" successfully rolled out\n`, done: true };
      }
      return { text: 'Waiting for deployment spec update to be observed...\n', done: false };
    }
    case 'DaemonSet': {
      if ((obj.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') throw fail('rollout status is only available for RollingUpdate strategy type');
      if (gen <= (st.observedGeneration ?? 0)) {
        const desired = st.desiredNumberScheduled ?? 0;
        if ((st.updatedNumberScheduled ?? 0) < desired) return { text: `Waiting for daemon set "${name}" rollout to finish: ${st.updatedNumberScheduled ?? 0} out of ${desired} new pods have been updated...\n`, done: false };
        if ((st.numberAvailable ?? 0) < desired) return { text: `Waiting for daemon set "${name}" rollout to finish: ${st.numberAvailable ?? 0} of ${desired} updated pods are available...\n`, done: false };
        return { text: `daemon set "${name}" successfully rolled out\n`, done: true };
      }
      return { text: 'Waiting for daemon set spec update to be observed...\n', done: false };
    }
    case 'StatefulSet': {
      const strategy = obj.spec?.updateStrategy ?? {};
      if ((strategy.type ?? 'RollingUpdate') !== 'RollingUpdate') throw fail('rollout status is only available for RollingUpdate strategy type');
      if (!st.observedGeneration || gen > st.observedGeneration) return { text: 'Waiting for statefulset spec update to be observed...\n', done: false };
      const want = obj.spec?.replicas ?? 1;
      if ((st.readyReplicas ?? 0) < want) return { text: `Waiting for ${want - (st.readyReplicas ?? 0)} pods to be ready...\n`, done: false };
      if (strategy.rollingUpdate) {
        const partition = strategy.rollingUpdate.partition;
        if (partition !== undefined && (st.updatedReplicas ?? 0) < want - partition) {
          return { text: `Waiting for partitioned roll out to finish: ${st.updatedReplicas ?? 0} out of ${want - partition} new pods have been updated...\n`, done: false };
        }
        return { text: `partitioned roll out complete: ${st.updatedReplicas ?? 0} new pods have been updated...\n`, done: true };
      }
      if (st.updateRevision !== st.currentRevision) {
        return { text: `waiting for statefulset rolling update to complete ${st.updatedReplicas ?? 0} pods at revision ${st.updateRevision}...\n`, done: false };
      }
      return { text: `statefulset rolling update complete ${st.currentReplicas ?? 0} pods at revision ${st.currentRevision}...\n`, done: true };
    }
  }
  throw fail(`no status viewer has been implemented for ${obj.kind}`);
}

/** `kubectl rollout status`: a Pending that prints a line per change until the rollout finishes. */
export function rolloutStatus(env: Env): number | Pending {
  // status.go Validate.
  if (env.flags.int('revision') < 0) throw fail(`revision must be a positive integer: ${env.flags.int('revision')}`);
  const ts = targets(env);
  if (ts.length !== 1) throw fail(`rollout status is only supported on individual resources and resource collections, but ${ts.length} resources were found`);
  const { type, obj } = ts[0];
  const revision = env.flags.int('revision');
  const first = rolloutStatusLine(obj, revision);
  env.out(first.text);
  if (first.done || !env.flags.bool('watch')) return 0;
  const timeout = env.flags.duration('timeout');
  const deadline = timeout > 0 ? env.ctx.clock.now() + timeout : undefined;
  const ns = obj.metadata.namespace;
  const name = obj.metadata.name ?? '';
  let rv = obj.metadata.resourceVersion ?? '';
  let done: number | undefined;
  let handle: ReturnType<Env['api']['watch']> | undefined;
  const onEvent = (ev: { type: string; object: KubeObject }) => {
    if (done !== undefined) return;
    if (ev.type === 'ERROR') return;
    rv = ev.object.metadata?.resourceVersion ?? rv;
    if (ev.type === 'DELETED') {
      env.err('error: object has been deleted\n');
      done = 1;
      return;
    }
    try {
      const s = rolloutStatusLine(ev.object, revision);
      env.out(s.text);
      if (s.done) done = 0;
    } catch (e) {
      if (!(e instanceof CmdError)) throw e;
      env.err(e.text + '\n');
      done = 1;
    }
  };
  const startWatch = () => {
    try {
      handle = env.api.watch(type, { namespace: ns, fieldSelector: `metadata.name=${name}`, resourceVersion: rv }, onEvent);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      handle = undefined;
    }
  };
  startWatch();
  return {
    poll: () => {
      if (done !== undefined) return done;
      // The informer behind UntilWithSync relists and rewatches after a dropped connection.
      if ((!handle || handle.stopped) && env.api.getAvailability() === 'up') startWatch();
      if (deadline !== undefined && env.ctx.clock.now() >= deadline) {
        handle?.stop();
        env.err('error: timed out waiting for the condition\n');
        done = 1;
      }
      return done;
    },
    cancel: () => handle?.stop(),
    wakeAt: () => (done === undefined ? deadline : undefined),
  };
}

/** Revisions of a Deployment: its ReplicaSets by `deployment.kubernetes.io/revision`. */
function deploymentHistory(env: Env, d: Any): Map<number, Any> {
  const { all } = replicaSetsOf(env, d);
  const m = new Map<number, Any>();
  for (const rs of all) {
    const v = Number(rs.metadata.annotations?.[REVISION]);
    if (!Number.isFinite(v) || rs.metadata.annotations?.[REVISION] === undefined) continue;
    const template = JSON.parse(JSON.stringify(rs.spec?.template ?? {}));
    template.metadata = template.metadata ?? {};
    const cause = rs.metadata.annotations?.[CHANGE_CAUSE];
    if (cause) template.metadata.annotations = { ...(template.metadata.annotations ?? {}), [CHANGE_CAUSE]: cause };
    m.set(v, { template, rs });
  }
  return m;
}

/** Revisions of a DaemonSet / StatefulSet: its ControllerRevisions. */
function controllerRevisionHistory(env: Env, o: Any): Map<number, Any> {
  const m = new Map<number, Any>();
  for (const cr of env.api.list('controllerrevisions', { namespace: o.metadata.namespace }).items as Any[]) {
    if (!(cr.metadata.ownerReferences ?? []).some((r: Any) => r.controller === true && r.uid === o.metadata.uid)) continue;
    const template = JSON.parse(JSON.stringify(cr.data?.spec?.template ?? {}));
    template.metadata = template.metadata ?? {};
    const cause = cr.metadata.annotations?.[CHANGE_CAUSE];
    if (cause) template.metadata.annotations = { ...(template.metadata.annotations ?? {}), [CHANGE_CAUSE]: cause };
    m.set(Number(cr.revision ?? 0), { template, cr });
  }
  return m;
}

function historyOf(env: Env, type: ResourceType, obj: Any): Map<number, Any> {
  if (type.kind === 'Deployment') return deploymentHistory(env, obj);
  if (type.kind === 'DaemonSet' || type.kind === 'StatefulSet') return controllerRevisionHistory(env, obj);
  throw fail(`no history viewer has been implemented for ${type.kind}`);
}

/** The raw (untabbed) DescribePodTemplate kubectl prints for `rollout history --revision=N` (history.go writes through a plain PrefixWriter: the tabs stay). */
function rawPodTemplate(template: Any): string {
  const w = new PrefixWriter();
  describePodTemplate(w, template);
  return w.buf;
}

/** `kubectl rollout history`. */
export function rolloutHistory(env: Env): number {
  const revision = env.flags.int('revision');
  for (const { type, obj } of targets(env)) {
    const h = historyOf(env, type, obj);
    if (revision > 0) {
      const entry = h.get(revision);
      if (!entry) throw fail('unable to find the specified revision');
      env.out(`${kindGroup(type)}/${obj.metadata.name} with revision #${revision}\n`);
      env.out(rawPodTemplate(entry.template) + '\n');
      continue;
    }
    env.out(`${kindGroup(type)}/${obj.metadata.name} \n`);
    if (h.size === 0) {
      env.out('No rollout history found.\n');
      continue;
    }
    const revs = [...h.keys()].sort((a, b) => a - b);
    env.out(
      tabbed((w) => {
        w.write(0, 'REVISION\tCHANGE-CAUSE\n');
        for (const r of revs) w.write(0, `${r}\t${h.get(r).template.metadata?.annotations?.[CHANGE_CAUSE] || '<none>'}\n`);
      }) + '\n',
    );
  }
  return 0;
}

/** rollback.go `equalIgnoreHash`. */
function equalIgnoreHash(a: Any, b: Any): boolean {
  const strip = (t: Any) => {
    const c = JSON.parse(JSON.stringify(t ?? {}));
    if (c.metadata?.labels) delete c.metadata.labels['pod-template-hash'];
    return canonical(c);
  };
  return strip(a) === strip(b);
}

function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/** Annotations rollback keeps from the Deployment and never copies from the ReplicaSet (rollback.go `annotationsToSkip`). */
const ANNOTATIONS_TO_SKIP = [
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
];

/** `kubectl rollout undo [--to-revision=N]`. */
export function rolloutUndo(env: Env): number {
  const toRevision = env.flags.int('to-revision');
  const dryRun = dryRunMode(env);
  const errs: unknown[] = [];
  for (const { type, obj } of targets(env)) {
    try {
      const result = undoOne(env, type, obj, toRevision, dryRun);
      env.out(`${kindGroup(type)}/${obj.metadata.name} ${result}${dryRunSuffix(dryRun)}\n`);
    } catch (e) {
      errs.push(e);
    }
  }
  if (errs.length) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}

function undoOne(env: Env, type: ResourceType, d: Any, toRevision: number, dryRun: string): string {
  if (type.kind === 'DaemonSet' || type.kind === 'StatefulSet') {
    const h = controllerRevisionHistory(env, d);
    const revs = [...h.keys()].sort((a, b) => a - b);
    let target = toRevision;
    if (target === 0) {
      if (revs.length < 2) throw fail(`no rollout history found for ${type.kind.toLowerCase() === 'daemonset' ? 'daemonset' : 'statefulset'} "${d.metadata.name}"`);
      target = revs[revs.length - 2];
    }
    const entry = h.get(target);
    if (!entry) throw fail(`unable to find specified revision ${toRevision} in history`);
    if (equalIgnoreHash(entry.cr.data?.spec?.template, d.spec?.template)) return `skipped rollback (current template already matches revision ${target})`;
    if (dryRun === 'none') env.api.patch(type, d.metadata.namespace, d.metadata.name, 'strategic', entry.cr.data ?? {}, { fieldManager: 'kubectl-rollout' });
    return 'rolled back';
  }
  if (type.kind !== 'Deployment') throw fail(`no rollbacker has been implemented for "${type.kind}"`);
  if (d.spec?.paused) throw fail("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
  const { all } = replicaSetsOf(env, d);
  let latest: Any;
  let latestRev = -1;
  let previous: Any;
  let previousRev = -1;
  for (const rs of all) {
    const raw = rs.metadata.annotations?.[REVISION];
    if (raw === undefined) continue;
    const v = Number(raw);
    if (toRevision === 0) {
      if (latestRev < v) {
        previousRev = latestRev;
        previous = latest;
        latestRev = v;
        latest = rs;
      } else if (previousRev < v) {
        previousRev = v;
        previous = rs;
      }
    } else if (toRevision === v) {
      previous = rs;
      previousRev = v;
      break;
    }
  }
  if (toRevision > 0 && previousRev !== toRevision) throw fail(`unable to find specified revision ${toRevision} in history`);
  if (!previous) throw fail(`no rollout history found for deployment "${d.metadata.name}"`);
  const target = toRevision > 0 ? toRevision : previousRev;
  if (equalIgnoreHash(previous.spec?.template, d.spec?.template)) return `skipped rollback (current template already matches revision ${target})`;
  const template = JSON.parse(JSON.stringify(previous.spec?.template ?? {}));
  if (template.metadata?.labels) delete template.metadata.labels['pod-template-hash'];
  const annotations: Record<string, string> = {};
  for (const k of ANNOTATIONS_TO_SKIP) if (d.metadata.annotations?.[k] !== undefined) annotations[k] = d.metadata.annotations[k];
  for (const [k, v] of Object.entries((previous.metadata.annotations ?? {}) as Record<string, string>)) if (!ANNOTATIONS_TO_SKIP.includes(k)) annotations[k] = v;
  const patch = [
    { op: 'replace', path: '/spec/template', value: template },
    { op: 'replace', path: '/metadata/annotations', value: annotations },
  ];
  if (dryRun === 'none') {
    try {
      env.api.patch(type, d.metadata.namespace, d.metadata.name, 'json', patch, { fieldManager: 'kubectl-rollout' });
    } catch (e) {
      if (e instanceof ApiError && !e.connectionRefused) throw fail(`failed restoring revision ${target}: ${e.status.message}`);
      throw e;
    }
  }
  return 'rolled back';
}

/** `kubectl rollout restart`: stamp `kubectl.kubernetes.io/restartedAt` on the pod template. */
export function rolloutRestart(env: Env): number {
  const dryRun = dryRunMode(env);
  const errs: unknown[] = [];
  const now = formatRfc3339(env.ctx.clock.epochMs + env.ctx.clock.now());
  for (const { type, obj } of targets(env)) {
    try {
      if (!['Deployment', 'DaemonSet', 'StatefulSet'].includes(type.kind)) throw fail('restarting is not supported');
      if (type.kind === 'Deployment' && obj.spec?.paused) throw fail(`${type.resource}.${type.group} "${obj.metadata.name}" can't restart paused deployment (run rollout resume first)`);
      if (obj.spec?.template?.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'] === now) {
        throw fail(`failed to create patch for ${obj.metadata.name}: if restart has already been triggered within the past second, please wait before attempting to trigger another`);
      }
      const patch = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': now } } } } };
      if (dryRun === 'none') env.api.patch(type, obj.metadata.namespace, obj.metadata.name ?? '', 'strategic', patch, { fieldManager: 'kubectl-rollout' });
      env.out(`${kindGroup(type)}/${obj.metadata.name} restarted${dryRunSuffix(dryRun)}\n`);
    } catch (e) {
      errs.push(e);
    }
  }
  if (errs.length) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}

function pauseResume(env: Env, pause: boolean): number {
  const dryRun = dryRunMode(env);
  const errs: unknown[] = [];
  for (const { type, obj } of targets(env)) {
    try {
      // rollout_pause.go / rollout_resume.go: a pauser error reads `error: <resource>.<group> "<name>" <err>`.
      const qualified = type.group ? `${type.resource}.${type.group}` : type.resource;
      if (type.kind !== 'Deployment') throw fail(`${qualified} "${obj.metadata.name}" ${pause ? 'pausing is not supported' : 'resuming is not supported'}`);
      if (pause && obj.spec?.paused) throw fail(`${qualified} "${obj.metadata.name}" is already paused`);
      if (!pause && !obj.spec?.paused) throw fail(`${qualified} "${obj.metadata.name}" is not paused`);
      if (dryRun === 'none') env.api.patch(type, obj.metadata.namespace, obj.metadata.name ?? '', 'strategic', { spec: { paused: pause ? true : null } }, { fieldManager: 'kubectl-rollout' });
      env.out(`${kindGroup(type)}/${obj.metadata.name} ${pause ? 'paused' : 'resumed'}${dryRunSuffix(dryRun)}\n`);
    } catch (e) {
      errs.push(e);
    }
  }
  if (errs.length) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}

/** `kubectl rollout pause`. */
export function rolloutPause(env: Env): number {
  return pauseResume(env, true);
}

/** `kubectl rollout resume`. */
export function rolloutResume(env: Env): number {
  return pauseResume(env, false);
}
