/**
 * `kubectl set env (TYPE NAME | TYPE/NAME) KEY=VAL ... KEY- [--list] [-c C] [--from=configmap/x|secret/x]
 * [--prefix=P] [--keys=k]` and `kubectl set resources (TYPE NAME | TYPE/NAME) [--limits=cpu=1,memory=1Gi]
 * [--requests=...] [-c C]`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_env.go (`Validate`; `RunEnv`: `--from` keys
 * become `valueFrom` references named by `keyToEnvName`; containers, then init containers, chosen
 * by the `-c` glob; `updateEnv` replaces variables in place, drops `KEY-`, appends the new ones;
 * `--list` prints `# Kind name, container c` and `NAME=value` / `# NAME from configmap x, key k`;
 * `Warning: Deployment/web does not have any containers matching "x"`; no output when nothing
 * changes; `deployment.apps/web env updated`), pkg/cmd/util/env/env_parse.go (`ParseEnv`,
 * `SplitEnvironmentFromResources`) and set_resources.go (`unable to find container named x`,
 * `you must specify an update to requests or limits (in the form of --requests/--limits)`,
 * `deployment.apps/web resource requirements updated`). The change is sent as a strategic merge
 * patch of the pod template (field manager `kubectl-set`).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { canonicalQuantity } from '../../engine/api/quantity';
import { ApiError } from '../../engine/api/errors';
import { discover, fail, formatErrors, kindGroup, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { dryRunMode, dryRunSuffix } from './apply';
import { podSpecPath } from './setimage';
import { toYaml } from '../../engine/api/yaml';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** validation.IsEnvVarName. */
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** path.Match for the `-c` glob (`*`, `?`, `[...]`). */
function globMatch(pattern: string, name: string): boolean {
  const re = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${re}$`).test(name);
}

/** The objects named by args / -f / -l / --all, fetched from the server (or the files with --local). */
function targets(env: Env, resources: string[]): { type: ResourceType; obj: KubeObject; local: boolean }[] {
  const manifests = readManifestFlags(env);
  const local = env.flags.bool('local');
  const out: { type: ResourceType; obj: KubeObject; local: boolean }[] = [];
  if (manifests) {
    if (manifests.errors.length > 0) throw fail(manifests.errors[0].replace(/^error: /, ''));
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      out.push({ type, obj: local ? object : env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? ''), local });
    }
    return out;
  }
  if (local) throw fail('--local requires -f or -k');
  const selector = env.flags.str('selector');
  const sel = parseResourceArgs(env, resources, { allowEmptySelector: env.flags.bool('all'), hasSelector: selector !== '' });
  if (sel.mode === 'names') for (const r of sel.refs) out.push({ type: r.type, obj: env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name), local });
  else for (const t of sel.types) for (const o of env.api.list(t, { namespace: env.namespace, labelSelector: selector || undefined }).items) out.push({ type: t, obj: o, local });
  return out;
}

function at(obj: Any, path: string[]): Any {
  let cur = obj;
  for (const p of path) cur = cur?.[p];
  return cur;
}

function wrap(path: string[], value: Any): Any {
  let out = value;
  for (let i = path.length - 1; i >= 0; i--) out = { [path[i]]: out };
  return out;
}

/** set_env.go `updateEnv`. */
function updateEnv(existing: Any[], add: Any[], remove: string[]): Any[] {
  const out: Any[] = [];
  const covered = new Set(remove);
  for (const e of existing) {
    if (covered.has(e.name)) continue;
    const newer = add.find((x) => x.name === e.name);
    if (newer) {
      covered.add(e.name);
      out.push(newer);
      continue;
    }
    out.push(e);
  }
  for (const e of add) {
    if (covered.has(e.name)) continue;
    covered.add(e.name);
    out.push(e);
  }
  return out;
}

/** envutil `GetEnvVarRefString`. */
function refString(from: Any): string {
  if (from.configMapKeyRef) return `configmap ${from.configMapKeyRef.name}, key ${from.configMapKeyRef.key}`;
  if (from.secretKeyRef) return `secret ${from.secretKeyRef.name}, key ${from.secretKeyRef.key}`;
  if (from.fieldRef) return `field path ${from.fieldRef.fieldPath}`;
  if (from.resourceFieldRef) return `resource ${from.resourceFieldRef.resource}`;
  return 'invalid valueFrom';
}

/** Send (or, dry-run client / --local, only compute) the patched pod spec and print the result. */
function finishPatch(env: Env, t: { type: ResourceType; obj: KubeObject; local: boolean }, path: string[], patchSpec: Any, modified: KubeObject, operation: string, printer: ResultPrinter, output: string): void {
  const dryRun = dryRunMode(env);
  let result = modified;
  if (!t.local && dryRun !== 'client') {
    result = env.api.patch(t.type, t.obj.metadata.namespace, t.obj.metadata.name ?? '', 'strategic', wrap(path, patchSpec), {
      fieldManager: env.flags.str('field-manager') || 'kubectl-set',
      dryRun: dryRun === 'server',
    });
  }
  if (output) env.out(output === 'yaml' ? toYaml(result) : printer.print(result));
  else env.out(`${kindGroup(t.type)}/${t.obj.metadata.name} ${operation}${t.local ? '' : dryRunSuffix(dryRun)}\n`);
}

/** `kubectl set env`. */
export function setEnv(env: Env): number {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const args = env.flags.args;
  // SplitEnvironmentFromResources: resources first, then KEY=VAL / KEY- arguments.
  let split = args.findIndex((a) => a.includes('=') || (a.endsWith('-') && a !== '-'));
  if (split < 0) split = args.length;
  const resources = args.slice(0, split);
  const envArgs = args.slice(split);
  if (envArgs.some((a) => !(a.includes('=') || (a.endsWith('-') && a !== '-')))) throw fail(`all resources must be specified before environment changes: ${envArgs.join(' ')}`);
  if (env.flags.bool('local') && env.flags.str('dry-run') === 'server') throw fail('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
  if (env.flags.list('filename').length === 0 && !env.flags.str('kustomize') && resources.length < 1) throw fail('one or more resources must be specified as <resource> <name> or <resource>/<name>');
  const list = env.flags.bool('list');
  if (list && output) throw fail('--list and --output may not be specified together');
  const keys = env.flags.list('keys');
  const from = env.flags.str('from');
  if (keys.length > 0 && !from) throw fail('when specifying --keys, a configmap or secret must be provided with --from');
  // envutil.ParseEnv
  const add: Any[] = [];
  const remove: string[] = [];
  for (const spec of [...env.flags.list('env'), ...envArgs]) {
    const eq = spec.indexOf('=');
    if (eq >= 0) {
      const name = spec.slice(0, eq);
      if (!ENV_NAME.test(name)) {
        throw fail(
          `"${name}" is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`,
        );
      }
      add.push({ name, value: spec.slice(eq + 1) });
    } else if (spec.endsWith('-')) remove.push(spec.slice(0, -1));
    else throw fail(`unknown environment variable: ${spec}`);
  }
  if (!env.flags.bool('local')) discover(env, 4);
  if (from) {
    const [typed, name] = from.split('/', 2);
    const t = env.api.registry.resolve(typed);
    if (!t || !name || (t.kind !== 'ConfigMap' && t.kind !== 'Secret')) throw fail('unsupported resource specified in --from');
    const src = env.api.get(t, env.namespace, name);
    const isSecret = t.kind === 'Secret';
    for (const key of Object.keys(src.data ?? {})) {
      if (keys.length > 0 && !keys.includes(key)) continue;
      const ref = { name, key };
      add.push({ name: key.replace(/[^a-zA-Z0-9_]/g, '_').toUpperCase(), valueFrom: isSecret ? { secretKeyRef: ref } : { configMapKeyRef: ref } });
    }
  }
  const prefix = env.flags.str('prefix');
  if (prefix) for (const e of add) e.name = prefix + e.name;
  const selector = env.flags.str('containers') || '*';
  const printer = new ResultPrinter(output);
  const errs: unknown[] = [];
  for (const t of targets(env, resources)) {
    const path = podSpecPath(t.type.kind);
    if (!path) {
      errs.push(fail(`${t.type.resource}/${t.obj.metadata.name} the object is not a pod or does not have a pod template: *v1.${t.type.kind}`));
      continue;
    }
    const modified = JSON.parse(JSON.stringify(t.obj)) as KubeObject;
    const spec = at(modified, path) ?? {};
    const main: Any[] = (spec.containers ?? []).filter((c: Any) => globMatch(selector, c.name));
    const init: Any[] = (spec.initContainers ?? []).filter((c: Any) => globMatch(selector, c.name));
    const chosen = [...main, ...init];
    if (chosen.length === 0) {
      env.err(`Warning: ${t.type.kind}/${t.obj.metadata.name} does not have any containers matching "${selector}"\n`);
      continue;
    }
    const patchMain: Any[] = [];
    const patchInit: Any[] = [];
    for (const c of chosen) {
      if (!env.flags.bool('overwrite')) {
        for (const e of add) {
          const old = (c.env ?? []).find((x: Any) => x.name === e.name);
          if (old && JSON.stringify(old) !== JSON.stringify(e)) throw fail(`'${e.name}' already has a value (${old.value ?? ''}), and --overwrite is false`);
        }
      }
      const before = JSON.stringify(c.env ?? []);
      const next = updateEnv(c.env ?? [], add, remove);
      if (next.length > 0) c.env = next;
      else delete c.env;
      if (list) {
        env.out(`# ${t.type.kind} ${t.obj.metadata.name}, container ${c.name}\n`);
        for (const e of next) env.out(e.valueFrom ? `# ${e.name} from ${refString(e.valueFrom)}\n` : `${e.name}=${e.value ?? ''}\n`);
        continue;
      }
      if (JSON.stringify(next) === before) continue;
      const entry = { name: c.name, env: next.length > 0 ? [...next, { $patch: 'replace' }] : null };
      if (main.includes(c)) patchMain.push(entry);
      else patchInit.push(entry);
    }
    if (list) continue;
    if (patchMain.length === 0 && patchInit.length === 0) continue;
    const patchSpec: Any = {};
    if (patchMain.length) patchSpec.containers = patchMain;
    if (patchInit.length) patchSpec.initContainers = patchInit;
    try {
      finishPatch(env, t, path, patchSpec, modified, 'env updated', printer, output);
    } catch (e) {
      errs.push(e instanceof ApiError && !e.connectionRefused ? fail(`failed to patch env update to pod template: ${e.status.message}`) : e);
    }
  }
  if (errs.length) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}

/** `--limits` / `--requests` (`cpu=100m,memory=256Mi`) as canonical quantities. */
function resourceList(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!s) return out;
  for (const kv of s.split(',')) {
    const eq = kv.indexOf('=');
    if (eq < 0) throw fail(`Invalid argument syntax ${kv}, expected <resource>=<value>`);
    try {
      out[kv.slice(0, eq)] = canonicalQuantity(kv.slice(eq + 1));
    } catch {
      throw fail("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }
  }
  return out;
}

/** `kubectl set resources`. */
export function setResources(env: Env): number {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const resources = env.flags.args;
  if (env.flags.list('filename').length === 0 && !env.flags.str('kustomize') && resources.length < 1) {
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  if (env.flags.bool('local') && env.flags.str('dry-run') === 'server') throw fail('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
  if (!env.flags.str('limits') && !env.flags.str('requests')) throw fail('you must specify an update to requests or limits (in the form of --requests/--limits)');
  const limits = resourceList(env.flags.str('limits'));
  const requests = resourceList(env.flags.str('requests'));
  if (!env.flags.bool('local')) discover(env, 4);
  const selector = env.flags.str('containers') || '*';
  const printer = new ResultPrinter(output);
  const errs: unknown[] = [];
  for (const t of targets(env, resources)) {
    const path = podSpecPath(t.type.kind);
    if (!path) {
      errs.push(fail(`${t.type.resource}/${t.obj.metadata.name} the object is not a pod or does not have a pod template: *v1.${t.type.kind}`));
      continue;
    }
    const modified = JSON.parse(JSON.stringify(t.obj)) as KubeObject;
    const spec = at(modified, path) ?? {};
    const main: Any[] = (spec.containers ?? []).filter((c: Any) => globMatch(selector, c.name));
    const init: Any[] = (spec.initContainers ?? []).filter((c: Any) => globMatch(selector, c.name));
    if (main.length + init.length === 0) {
      errs.push(fail(`unable to find container named ${selector}`));
      continue;
    }
    const patchMain: Any[] = [];
    const patchInit: Any[] = [];
    for (const c of [...main, ...init]) {
      const before = JSON.stringify(c.resources ?? {});
      const r = (c.resources ??= {});
      if (Object.keys(limits).length) r.limits = { ...(r.limits ?? {}), ...limits };
      if (Object.keys(requests).length) r.requests = { ...(r.requests ?? {}), ...requests };
      if (JSON.stringify(r) === before) continue;
      const entry = { name: c.name, resources: { ...(Object.keys(limits).length ? { limits } : {}), ...(Object.keys(requests).length ? { requests } : {}) } };
      if (main.includes(c)) patchMain.push(entry);
      else patchInit.push(entry);
    }
    if (patchMain.length === 0 && patchInit.length === 0) continue;
    const patchSpec: Any = {};
    if (patchMain.length) patchSpec.containers = patchMain;
    if (patchInit.length) patchSpec.initContainers = patchInit;
    try {
      finishPatch(env, t, path, patchSpec, modified, 'resource requirements updated', printer, output);
    } catch (e) {
      errs.push(e instanceof ApiError && !e.connectionRefused ? fail(`failed to patch resources update to pod template ${e.status.message}`) : e);
    }
  }
  if (errs.length) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}
