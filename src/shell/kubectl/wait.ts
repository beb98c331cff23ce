/**
 * `kubectl wait --for=condition=C[=value] | --for=delete | --for=jsonpath='{...}'[=value] |
 * --for=create` on names, `-l`, `--all` or `-f`, as a Pending in virtual time.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go (`conditionFuncFor`: `unrecognized
 * condition: "x"`; default `--timeout=30s`, a negative timeout meaning a week; `<kind>/<name>
 * condition met` for each object as its condition holds; `timed out waiting for the condition on
 * deployments/web`; `no matching resources found`), condition.go (`.status.conditions[]` matched
 * by type and status case-insensitively, ignoring conditions observed for an older generation),
 * delete.go (`IsDeleted`: absent, or replaced by an object with another uid) and json.go.
 */
import type { Pending } from '../types';
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { findResults, parseJsonPath, printResultGroup, relaxedJsonPath } from '../printers';
import { discover, fail, kindGroup, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';

/** A week: kubectl's "forever" for a negative `--timeout`. */
const WEEK_MS = 168 * 3600 * 1000;

type Condition =
  | { kind: 'delete' }
  | { kind: 'create' }
  | { kind: 'condition'; name: string; value: string }
  | { kind: 'jsonpath'; path: string; value: string | undefined };

/** wait.go `conditionFuncFor`. */
export function parseFor(spec: string): Condition {
  const lower = spec.toLowerCase();
  if (lower === 'delete') return { kind: 'delete' };
  if (lower === 'create') return { kind: 'create' };
  if (lower.startsWith('condition=')) {
    const rest = spec.slice('condition='.length);
    const eq = rest.indexOf('=');
    return eq < 0 ? { kind: 'condition', name: rest, value: 'true' } : { kind: 'condition', name: rest.slice(0, eq), value: rest.slice(eq + 1) };
  }
  if (lower.startsWith('jsonpath=')) {
    const rest = spec.slice('jsonpath='.length);
    const m = /^(\{.*\}|[^=]*)(?:=(.*))?$/.exec(rest);
    if (!m || m[1] === '') throw fail('jsonpath wait format must be --for=jsonpath=\'{.status.readyReplicas}\'=3 or --for=jsonpath=\'{.status.readyReplicas}\'');
    return { kind: 'jsonpath', path: relaxedJsonPath(m[1]), value: m[2] };
  }
  throw fail(`unrecognized condition: ${JSON.stringify(spec)}`);
}

/** condition.go: the condition of `type` holds with `status` (case-insensitive), for the current generation. */
function conditionMet(obj: KubeObject, name: string, value: string): boolean {
  const conds = ((obj.status?.conditions ?? []) as { type?: string; status?: string; observedGeneration?: number }[]).filter(
    (c) => (c.type ?? '').toLowerCase() === name.toLowerCase(),
  );
  for (const c of conds) {
    if (c.observedGeneration !== undefined && obj.metadata.generation !== undefined && c.observedGeneration !== obj.metadata.generation) continue;
    if ((c.status ?? '').toLowerCase() === value.toLowerCase()) return true;
  }
  return false;
}

function jsonpathMet(obj: KubeObject, path: string, value: string | undefined): boolean {
  let groups: unknown[][];
  try {
    groups = findResults(parseJsonPath(path), obj, { allowMissingKeys: true });
  } catch {
    return false;
  }
  const vals = groups.flat();
  if (value === undefined) return vals.length > 0 && vals.some((v) => v !== null && v !== undefined);
  return vals.length === 1 && printResultGroup([vals[0]]) === value;
}

interface Target {
  type: ResourceType;
  namespace: string | undefined;
  name: string;
  uid?: string;
  met: boolean;
}

/** `kubectl wait`. */
export function wait(env: Env): number | Pending {
  const cond = parseFor(env.flags.str('for'));
  const manifests = readManifestFlags(env);
  const selector = env.flags.str('selector');
  const all = env.flags.bool('all');
  if (!manifests && env.flags.args.length === 0) {
    // The resource builder's error for an empty argument list.
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  discover(env, 4);
  const allNs = env.flags.bool('all-namespaces');
  const targets: Target[] = [];
  if (manifests) {
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      targets.push({ type, namespace: objectNamespace(env, type, object), name: object.metadata.name ?? '', met: false });
    }
  } else {
    const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: all, hasSelector: selector !== '' || env.flags.str('field-selector') !== '' });
    if (sel.mode === 'names') {
      for (const r of sel.refs) targets.push({ type: r.type, namespace: r.type.namespaced ? env.namespace : undefined, name: r.name, met: false });
    } else {
      for (const t of sel.types) {
        for (const o of env.api.list(t, { namespace: t.namespaced && !allNs ? env.namespace : undefined, labelSelector: selector || undefined, fieldSelector: env.flags.str('field-selector') || undefined }).items) {
          targets.push({ type: t, namespace: o.metadata.namespace, name: o.metadata.name ?? '', uid: o.metadata.uid, met: false });
        }
      }
      if (targets.length === 0) throw fail('no matching resources found');
    }
  }
  // Objects that must exist (everything but --for=delete/create) are fetched first: NotFound is an error.
  for (const t of targets) {
    if (cond.kind === 'delete') {
      const o = env.api.tryGet(t.type, t.namespace, t.name);
      if (!o) t.met = true;
      else t.uid = t.uid ?? o.metadata.uid;
      continue;
    }
    if (cond.kind === 'create') continue;
    const o = env.api.get(t.type, t.namespace, t.name);
    t.uid = o.metadata.uid;
  }
  const timeout = env.flags.duration('timeout');
  const deadline = env.ctx.clock.now() + (timeout < 0 ? WEEK_MS : timeout);
  const check = (): number | undefined => {
    for (const t of targets) {
      if (t.met) continue;
      let o: KubeObject | undefined;
      try {
        o = env.api.tryGet(t.type, t.namespace, t.name);
      } catch (e) {
        if (e instanceof ApiError) continue;
        throw e;
      }
      let ok = false;
      if (cond.kind === 'delete') ok = !o || (t.uid !== undefined && o.metadata.uid !== t.uid);
      else if (cond.kind === 'create') ok = o !== undefined;
      else if (o && cond.kind === 'condition') ok = conditionMet(o, cond.name, cond.value);
      else if (o && cond.kind === 'jsonpath') ok = jsonpathMet(o, cond.path, cond.value);
      if (ok) {
        t.met = true;
        env.out(`${kindGroup(t.type)}/${t.name} condition met\n`);
      }
    }
    if (targets.every((t) => t.met)) return 0;
    if (env.ctx.clock.now() >= deadline) {
      for (const t of targets) if (!t.met) env.err(`error: timed out waiting for the condition on ${t.type.resource}/${t.name}\n`);
      return 1;
    }
    return undefined;
  };
  const first = check();
  if (first !== undefined) return first;
  let done: number | undefined;
  return {
    poll: () => (done !== undefined ? done : (done = check())),
    cancel: () => undefined,
    wakeAt: () => (done === undefined ? deadline : undefined),
  };
}
