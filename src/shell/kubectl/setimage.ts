/**
 * `kubectl set image (TYPE NAME | TYPE/NAME) CONTAINER=IMAGE ...` (`*` for every container).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go (`getResourcesAndImages`: pairs
 * are the arguments with `=`; `unable to find container named "x"`; no output when nothing
 * changes; `deployment.apps/web image updated`) with the change sent as a strategic merge patch
 * of the pod template (polymorphichelpers/updatepodspec.go picks the pod spec of each kind).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { discover, fail, formatErrors, kindGroup, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { dryRunMode, dryRunSuffix } from './apply';
import { ApiError } from '../../engine/api/errors';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The pod spec inside an object of a workload kind, and the path to it for a patch. */
export function podSpecPath(kind: string): string[] | undefined {
  switch (kind) {
    case 'Pod':
      return ['spec'];
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'ReplicationController':
      return ['spec', 'template', 'spec'];
    case 'CronJob':
      return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  }
  return undefined;
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

/** `kubectl set image`. */
export function setImage(env: Env): number {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const pairs = env.flags.args.filter((a) => a.includes('='));
  const resources = env.flags.args.filter((a) => !a.includes('='));
  const manifests = readManifestFlags(env);
  if (!manifests && resources.length === 0 && !env.flags.bool('all') && !env.flags.str('selector')) {
    // set_image.go: the resource builder's error, as `kubectl set image` (v1.32) prints it.
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  if (pairs.length === 0) throw fail('at least one image update is required');
  const images = new Map<string, string>();
  for (const p of pairs) {
    const eq = p.indexOf('=');
    images.set(p.slice(0, eq), p.slice(eq + 1));
  }
  discover(env, 4);
  const objs = setTargets(env, resources, manifests, env.flags.str('selector'));
  const printer = new ResultPrinter(output);
  const errs: unknown[] = [];
  for (const { type, obj } of objs) {
    try {
      const path = podSpecPath(type.kind);
      if (!path) throw fail(`${type.resource}/${obj.metadata.name} the object is not a pod or does not have a pod template: *v1.${type.kind}`);
      const spec = at(obj, path) ?? {};
      const init: Any[] = spec.initContainers ?? [];
      const main: Any[] = spec.containers ?? [];
      const patchInit: Any[] = [];
      const patchMain: Any[] = [];
      for (const [name, image] of images) {
        let found = false;
        for (const c of init) {
          if (c.name === name || name === '*') {
            found = true;
            if (c.image !== image) patchInit.push({ name: c.name, image });
          }
        }
        for (const c of main) {
          if (c.name === name || name === '*') {
            found = true;
            if (c.image !== image) patchMain.push({ name: c.name, image });
          }
        }
        if (!found) throw fail(`unable to find container named "${name}"`);
      }
      if (patchInit.length === 0 && patchMain.length === 0) continue;
      const patchSpec: Any = {};
      if (patchMain.length) patchSpec.containers = patchMain;
      if (patchInit.length) patchSpec.initContainers = patchInit;
      let result = obj;
      if (dryRun !== 'client') {
        result = env.api.patch(type, obj.metadata.namespace, obj.metadata.name ?? '', 'strategic', wrap(path, patchSpec), {
          fieldManager: 'kubectl-set',
          dryRun: dryRun === 'server',
        });
      }
      if (output) env.out(printer.print(result));
      else env.out(`${kindGroup(type)}/${obj.metadata.name} image updated${dryRunSuffix(dryRun)}\n`);
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

/**
 * `kubectl set serviceaccount|sa (-f FILENAME | TYPE NAME) SERVICE_ACCOUNT`: the last argument is
 * the ServiceAccount, the others name the objects.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_serviceaccount.go (`Complete`:
 * `serviceaccount is required`; `Run`: the pod spec's `serviceAccountName` set through
 * polymorphichelpers.UpdatePodSpecForObject (`the object is not a pod or does not have a pod
 * template`), sent as a strategic merge patch whether or not it changes anything, printed as
 * `deployment.apps/web serviceaccount updated`; a refused patch reads `failed to patch
 * ServiceAccountName <error>`). Returns the exit status.
 */
export function setServiceAccount(env: Env): number {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const args = env.flags.args;
  if (args.length === 0) throw fail('serviceaccount is required');
  const sa = args[args.length - 1];
  const resources = args.slice(0, -1);
  const manifests = readManifestFlags(env);
  if (!manifests && resources.length === 0 && !env.flags.bool('all')) {
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  discover(env, 4);
  const objs = setTargets(env, resources, manifests, '');
  const printer = new ResultPrinter(output);
  const errs: unknown[] = [];
  for (const { type, obj } of objs) {
    const path = podSpecPath(type.kind);
    if (!path) {
      // `fmt.Errorf("error: %s %v\n", name, patch.Err)`: the error carries its own newline.
      errs.push(fail(`${type.resource}/${obj.metadata.name} the object is not a pod or does not have a pod template: *v1.${type.kind}\n`));
      continue;
    }
    let result: KubeObject;
    if (dryRun === 'client') {
      result = JSON.parse(JSON.stringify(obj)) as KubeObject;
      const spec = at(result, path);
      if (spec) spec.serviceAccountName = sa;
    } else {
      try {
        result = env.api.patch(type, obj.metadata.namespace, obj.metadata.name ?? '', 'strategic', wrap(path, { serviceAccountName: sa }), { fieldManager: 'kubectl-set', dryRun: dryRun === 'server' });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        // `%v` of a StatusError is the server's message alone.
        errs.push(fail(`failed to patch ServiceAccountName ${e.status.message}`));
        continue;
      }
    }
    if (output) env.out(printer.print(result));
    else env.out(`${kindGroup(type)}/${obj.metadata.name} serviceaccount updated${dryRunSuffix(dryRun)}\n`);
  }
  if (errs.length) {
    const text = formatErrors(errs);
    env.err(text.endsWith('\n') ? text : text + '\n');
    return 1;
  }
  return 0;
}

/**
 * The objects a `kubectl set` subcommand changes (set/helper.go's resource builder): those named
 * in `-f`/`-k` manifests (read from the server), or `resources` as names, or every object of the
 * types in the namespace matching `selector` ('' = all). Errors: the API's NotFound and the
 * resource-argument errors of `parseResourceArgs`.
 */
function setTargets(env: Env, resources: string[], manifests: ReturnType<typeof readManifestFlags>, selector: string): { type: ResourceType; obj: KubeObject }[] {
  const objs: { type: ResourceType; obj: KubeObject }[] = [];
  if (manifests) {
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      objs.push({ type, obj: env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? '') });
    }
    return objs;
  }
  const sel = parseResourceArgs(env, resources, { allowEmptySelector: env.flags.bool('all'), hasSelector: selector !== '' });
  if (sel.mode === 'names') for (const r of sel.refs) objs.push({ type: r.type, obj: env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name) });
  else for (const t of sel.types) for (const o of env.api.list(t, { namespace: env.namespace, labelSelector: selector || undefined }).items) objs.push({ type: t, obj: o });
  return objs;
}
