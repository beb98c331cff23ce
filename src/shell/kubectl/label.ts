/**
 * `kubectl label` and `kubectl annotate`: `key=value` sets, `key-` removes, `--overwrite` to
 * change an existing value, on names, `-l`, `--all` or `-f`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/label/label.go (`parseLabels`,
 * `validateNoOverwrites`: `'app' already has a value (web), and --overwrite is false`,
 * `updateDataChangeMsg`: `labeled` / `unlabeled` / `not labeled`, `label "x" not found.`),
 * staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go (`annotated`) and
 * cmd/util/helpers.go (`GetResourcesAndPairs`: resources first, then the changes).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { isValidLabelValue } from '../../engine/api/labels';
import { discover, fail, formatErrors, kindGroup, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { dryRunMode, dryRunSuffix } from './apply';

/** helpers.go `GetResourcesAndPairs`. */
export function resourcesAndPairs(args: string[], pairType: string): { resources: string[]; pairs: string[] } {
  const resources: string[] = [];
  const pairs: string[] = [];
  let found = false;
  for (const s of args) {
    const nonResource = (s.includes('=') && s[0] !== '=') || (s.endsWith('-') && s !== '-');
    if (nonResource) {
      found = true;
      pairs.push(s);
    } else if (!found) resources.push(s);
    else throw fail(`all resources must be specified before ${pairType} changes: ${s}`);
  }
  return { resources, pairs };
}

function parsePairs(pairs: string[], what: 'label' | 'annotation'): { set: Map<string, string>; remove: string[] } {
  const set = new Map<string, string>();
  const remove: string[] = [];
  for (const spec of pairs) {
    if (spec.includes('=')) {
      if (what === 'label') {
        const parts = spec.split('=');
        if (parts.length !== 2) throw fail(`invalid label spec: ${spec}`);
        const errs = isValidLabelValue(parts[1]);
        if (errs.length) throw fail(`invalid label value: ${JSON.stringify(spec)}: ${errs.join(';')}`);
        set.set(parts[0], parts[1]);
      } else {
        const eq = spec.indexOf('=');
        if (eq === 0) throw fail(`invalid annotation format: ${spec}`);
        set.set(spec.slice(0, eq), spec.slice(eq + 1));
      }
    } else if (spec.endsWith('-')) remove.push(spec.slice(0, -1));
    else throw fail(`unknown ${what} spec: ${spec}`);
  }
  for (const r of remove) if (set.has(r)) throw fail(`can not both modify and remove ${what === 'label' ? 'a label' : 'an annotation'} in the same command`);
  return { set, remove };
}

function run(env: Env, what: 'label' | 'annotation'): number {
  const field = what === 'label' ? 'labels' : 'annotations';
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const { resources, pairs } = resourcesAndPairs(env.flags.args, what);
  const manifests = readManifestFlags(env);
  if (resources.length < 1 && !manifests) throw fail('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  const { set, remove } = parsePairs(pairs, what);
  const list = env.flags.bool('list');
  if (set.size < 1 && remove.length < 1 && !list) throw fail(`at least one ${what} update is required`);
  discover(env, 4);
  const selector = env.flags.str('selector');
  const all = env.flags.bool('all');
  const objs: { type: ResourceType; obj: KubeObject }[] = [];
  if (manifests) {
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      objs.push({ type, obj: env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? '') });
    }
  } else {
    const sel = parseResourceArgs(env, resources, { allowEmptySelector: all, hasSelector: selector !== '' || all });
    const allNs = env.flags.bool('all-namespaces');
    if (sel.mode === 'names') for (const r of sel.refs) objs.push({ type: r.type, obj: env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name) });
    else {
      for (const t of sel.types) {
        for (const o of env.api.list(t, { namespace: t.namespaced && !allNs ? env.namespace : undefined, labelSelector: selector || undefined, fieldSelector: env.flags.str('field-selector') || undefined }).items) {
          objs.push({ type: t, obj: o });
        }
      }
    }
  }
  const printer = new ResultPrinter(output);
  const errs: unknown[] = [];
  const overwrite = env.flags.bool('overwrite');
  for (const { type, obj } of objs) {
    try {
      const current = ((obj.metadata as Record<string, unknown>)[field] ?? {}) as Record<string, string>;
      if (list) {
        for (const k of Object.keys(current).sort()) env.out(`${k}=${current[k]}\n`);
        continue;
      }
      if (!overwrite) {
        const clashes = [...set.keys()].sort().filter((k) => current[k] !== undefined && current[k] !== set.get(k));
        if (what === 'annotation') {
          // annotate.go validateNoAnnotationOverwrites (the change-cause annotation may always change).
          const msgs = clashes.filter((k) => k !== 'kubernetes.io/change-cause').map((k) => `'${k}' already has a value (${current[k]})`);
          if (msgs.length) throw fail(`--overwrite is false but found the following declared annotation(s): ${msgs.join('; ')}`);
        } else {
          const msgs = clashes.map((k) => `'${k}' already has a value (${current[k]}), and --overwrite is false`);
          if (msgs.length === 1) throw fail(msgs[0]);
          if (msgs.length > 1) throw fail(`[${msgs.join(', ')}]`);
        }
      }
      if (what === 'label') for (const r of remove) if (current[r] === undefined) env.out(`label "${r}" not found.\n`);
      const next: Record<string, string> = { ...current };
      for (const [k, v] of set) next[k] = v;
      for (const r of remove) delete next[r];
      const patch: Record<string, string | null> = {};
      for (const [k, v] of set) if (current[k] !== v) patch[k] = v;
      for (const r of remove) if (current[r] !== undefined) patch[r] = null;
      let msg = 'annotated';
      if (what === 'label') {
        const changed = Object.keys(patch).length > 0;
        msg = changed ? (!overwrite && Object.keys(next).length < Object.keys(current).length ? 'unlabeled' : 'labeled') : 'not labeled';
      }
      let result = obj;
      if (dryRun !== 'client' && Object.keys(patch).length > 0) {
        const body: Record<string, unknown> = { metadata: { [field]: patch } };
        if (env.flags.str('resource-version')) (body.metadata as Record<string, unknown>).resourceVersion = env.flags.str('resource-version');
        result = env.api.patch(type, obj.metadata.namespace, obj.metadata.name ?? '', 'merge', body, { fieldManager: `kubectl-${what === 'label' ? 'label' : 'annotate'}`, dryRun: dryRun === 'server' });
      }
      if (output) env.out(printer.print(result));
      else env.out(`${kindGroup(type)}/${obj.metadata.name} ${msg}${dryRunSuffix(dryRun)}\n`);
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

/** `kubectl label`. */
export function label(env: Env): number {
  return run(env, 'label');
}

/** `kubectl annotate`. */
export function annotate(env: Env): number {
  return run(env, 'annotation');
}
