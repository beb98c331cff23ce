/**
 * `kubectl delete`: by name (`pod x`, `pod/x`), `-f`, `-l`, `--all`, with `--grace-period`,
 * `--now`, `--force`, `--cascade`, `--wait` and `--timeout`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go (`Complete`, `Validate`,
 * `DeleteResult`, `PrintObj`) and delete_flags.go (`parseCascadingFlag`): each object is deleted
 * and reported when the DELETE returns (`pod "x" deleted from default namespace`, the namespace
 * suffix of kubectl 1.34+, PR #126619; `force deleted`; `(dry run)`), errors are printed at the
 * end, and by default kubectl then waits until every deleted object is gone (cmd/wait `IsDeleted`,
 * matched by uid), which is a Pending here: a pod whose program ignores SIGTERM keeps it waiting
 * for its whole grace period.
 */
import type { Pending } from '../types';
import type { KubeObject, PropagationPolicy } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { CmdError, addSourceToErr, discover, fail, formatErrors, kindGroup, pollUntil, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';
import { dryRunMode, mapObjectTypes } from './apply';

/** kubectl >= 1.34 names the namespace of a deleted namespaced object (PR #126619). */
export const DELETE_PRINTS_NAMESPACE = true;

/** The usage text of `kubectl delete` without arguments (delete.go / builder `Do`). */
const NO_RESOURCES =
  "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'";

/** A week: `--timeout=0` means wait "forever" (delete.go `effectiveTimeout`). */
const WEEK_MS = 168 * 3600 * 1000;

/** delete_flags.go `parseCascadingFlag` (warnings printed as kubectl does). */
export function parseCascade(env: Env): PropagationPolicy {
  const v = env.flags.str('cascade');
  const b = ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v) ? true : ['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v) ? false : undefined;
  if (b === true) {
    env.err('warning: --cascade=true is deprecated (boolean value) and can be replaced with --cascade=background.\n');
    return 'Background';
  }
  if (b === false) {
    env.err('warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n');
    return 'Orphan';
  }
  switch (v) {
    case 'orphan':
      return 'Orphan';
    case 'foreground':
      return 'Foreground';
    case 'background':
      return 'Background';
  }
  throw fail(`invalid cascade value (${v}). Must be "background", "foreground", or "orphan"`);
}

/** One object to delete. */
interface Target {
  type: ResourceType;
  namespace: string | undefined;
  name: string;
  source?: string;
}

/** `kubectl delete`. */
export function deleteCmd(env: Env): number | Pending {
  const output = env.flags.str('output');
  if (output !== '' && output !== 'name') throw fail(`unexpected -o output mode: ${output}. We only support '-o name'`);
  if (env.flags.bool('interactive')) throw fail('--interactive is not supported in this playground');
  const cascade = parseCascade(env);
  let grace = env.flags.int('grace-period');
  const force = env.flags.bool('force');
  if (env.flags.bool('now')) {
    if (grace !== -1) throw fail('--now and --grace-period cannot be specified together');
    grace = 1;
  }
  if (grace === 0 && !force) grace = 1;
  if (force && grace < 0) grace = 0;
  const all = env.flags.bool('all');
  const selector = env.flags.str('selector');
  const fieldSelector = env.flags.str('field-selector');
  if (all && selector) throw fail("setting 'all' parameter but found a non empty selector. ");
  if (all && fieldSelector) throw fail("setting 'all' parameter but found a non empty field selector. ");
  const dryRun = dryRunMode(env);
  if (grace === 0 && force) env.err('Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n');
  else if (grace > 0 && force) throw fail('--force and --grace-period greater than 0 cannot be specified together');

  const manifests = readManifestFlags(env);
  if (!manifests && env.flags.args.length === 0) {
    // The resource builder: a selector (or --all) needs a resource type to select from.
    if (all || selector || fieldSelector) throw fail('at least one resource must be specified to use a selector');
    throw new CmdError(NO_RESOURCES);
  }
  discover(env, 5);
  const allNs = env.flags.bool('all-namespaces');
  const hasSelector = all || selector !== '' || fieldSelector !== '';
  const ignoreNotFound = env.flags.changed('ignore-not-found') ? env.flags.bool('ignore-not-found') : hasSelector;
  const errs: unknown[] = [];
  const targets: Target[] = [];
  if (manifests) {
    errs.push(...manifests.errors.map((t) => new CmdError(t)));
    for (const { object, source, type } of mapObjectTypes(env, manifests.objects, errs)) {
      targets.push({ type, namespace: objectNamespace(env, type, object), name: object.metadata?.name ?? '', source });
    }
  } else {
    const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: false, hasSelector });
    if (sel.mode === 'names') {
      for (const r of sel.refs) targets.push({ type: r.type, namespace: r.type.namespaced ? env.namespace : undefined, name: r.name });
    } else {
      for (const t of sel.types) {
        const items = env.api.list(t, { namespace: t.namespaced && !allNs ? env.namespace : undefined, labelSelector: selector || undefined, fieldSelector: fieldSelector || undefined }).items;
        for (const o of items) targets.push({ type: t, namespace: o.metadata.namespace, name: o.metadata.name ?? '' });
      }
    }
  }

  let warnClusterScope = env.explicitNamespace && !allNs;
  const deleted: { t: Target; uid?: string }[] = [];
  for (const t of targets) {
    if (warnClusterScope && !t.type.namespaced) {
      env.err('Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n');
      warnClusterScope = false;
    }
    let after: KubeObject | undefined;
    if (dryRun === 'client') {
      printDeleted(env, t, output, grace, dryRun);
      deleted.push({ t });
      continue;
    }
    try {
      after = env.api.delete(t.type, t.namespace, t.name, {
        gracePeriodSeconds: grace >= 0 ? grace : undefined,
        propagationPolicy: cascade,
        dryRun: dryRun === 'server',
        fieldManager: 'kubectl',
      });
    } catch (e) {
      if (ignoreNotFound && e instanceof ApiError && e.code === 404) continue;
      errs.push(addSourceToErr('deleting', t.source ?? '', e));
      continue;
    }
    printDeleted(env, t, output, grace, dryRun);
    deleted.push({ t, uid: after?.metadata?.uid });
  }
  if (errs.length > 0) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  if (targets.length === 0) {
    env.out('No resources found\n');
    return 0;
  }
  if (!env.flags.bool('wait') || dryRun !== 'none') return 0;
  const timeout = env.flags.duration('timeout');
  const deadline = env.ctx.clock.now() + (timeout > 0 ? timeout : WEEK_MS);
  return pollUntil(env, () => (deleted.every((d) => isGone(env, d.t, d.uid)) ? 0 : undefined), {
    deadlineMs: deadline,
    onTimeout: () => {
      const left = deleted.find((d) => !isGone(env, d.t, d.uid));
      const gr = left ? (left.t.type.group ? `${left.t.type.resource}.${left.t.type.group}` : left.t.type.resource) : '';
      env.err(`error: timed out waiting for the condition on ${gr}/${left?.t.name ?? ''}\n`);
      return 1;
    },
  });
}

/** cmd/wait `IsDeleted`: the object is absent, or a new one with another uid took its name. */
function isGone(env: Env, t: Target, uid: string | undefined): boolean {
  try {
    const o = env.api.tryGet(t.type, t.namespace, t.name);
    return o === undefined || (uid !== undefined && o.metadata.uid !== uid);
  } catch (e) {
    if (e instanceof ApiError) return false;
    throw e;
  }
}

/** delete.go `PrintObj`. */
function printDeleted(env: Env, t: Target, output: string, grace: number, dryRun: 'none' | 'client' | 'server'): void {
  const kg = kindGroup(t.type);
  if (output === 'name') {
    env.out(`${kg}/${t.name}\n`);
    return;
  }
  let op = grace === 0 ? 'force deleted' : 'deleted';
  if (DELETE_PRINTS_NAMESPACE && t.type.namespaced && t.namespace) op += ` from ${t.namespace} namespace`;
  if (dryRun === 'client') op += ' (dry run)';
  if (dryRun === 'server') op += ' (server dry run)';
  env.out(`${kg} "${t.name}" ${op}\n`);
}
