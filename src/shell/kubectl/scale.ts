/**
 * `kubectl scale --replicas=N deploy/x` (also `deploy x`, `-l`, `--all`, `-f`), through the
 * `/scale` subresource.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go (`Validate`: `The --replicas=COUNT
 * flag is required, and COUNT must be greater than or equal to 0`; objects fetched first, then
 * scaled; `deployment.apps/x scaled`, printed even when the count does not change) and
 * staging/src/k8s.io/kubectl/pkg/scale/scale.go (`ScalePrecondition`: `Expected replicas to be
 * 2, was 3`; kinds without a scale subresource answer the API server's 404).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { discover, fail, formatErrors, kindGroup, requiredFlagError, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { dryRunMode, dryRunSuffix } from './apply';

/** The API server's answer for a subresource a kind does not have. */
function noSubresource(): ApiError {
  return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
}

/** `kubectl scale`. */
export function scale(env: Env): number {
  if (!env.flags.changed('replicas')) throw requiredFlagError(env, 'replicas');
  const replicas = env.flags.int('replicas');
  if (replicas < 0) throw fail('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
  const current = env.flags.int('current-replicas');
  if (current < -1) throw fail('The --current-replicas must specify an integer of -1 or greater');
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const manifests = readManifestFlags(env);
  if (!manifests && env.flags.args.length === 0) {
    // scale.go hands the empty argument list to the resource builder, whose error this is.
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  discover(env, 5);
  const all = env.flags.bool('all');
  const selector = env.flags.str('selector');
  const objs: { type: ResourceType; obj: KubeObject }[] = [];
  if (manifests) {
    if (manifests.errors.length) throw fail(manifests.errors[0].replace(/^error: /, ''));
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      objs.push({ type, obj: env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? '') });
    }
  } else {
    const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: all, hasSelector: selector !== '' });
    if (sel.mode === 'names') {
      for (const r of sel.refs) objs.push({ type: r.type, obj: env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name) });
    } else {
      for (const t of sel.types) {
        for (const o of env.api.list(t, { namespace: t.namespaced ? env.namespace : undefined, labelSelector: selector || undefined }).items) objs.push({ type: t, obj: o });
      }
    }
  }
  if (objs.length === 0) throw fail('no objects passed to scale');
  const printer = new ResultPrinter(output);
  const errs: unknown[] = [];
  for (const { type, obj } of objs) {
    try {
      if (!type.scale) throw noSubresource();
      const ns = obj.metadata.namespace;
      const name = obj.metadata.name ?? '';
      if (current !== -1 || env.flags.str('resource-version')) {
        const sc = env.api.getScale(type, ns, name);
        if (current !== -1 && sc.spec.replicas !== current) throw fail(`Expected replicas to be ${current}, was ${sc.spec.replicas}`);
        const rv = env.flags.str('resource-version');
        if (rv && sc.metadata.resourceVersion !== rv) throw fail(`Expected resource version to be ${rv}, was ${sc.metadata.resourceVersion}`);
      }
      let result = obj;
      if (dryRun === 'none') {
        env.api.updateScale(type, ns, name, replicas, { fieldManager: 'kubectl-scale' });
        result = env.api.get(type, ns, name);
      }
      if (output) env.out(printer.print(result));
      else env.out(`${kindGroup(type)}/${name} scaled${dryRunSuffix(dryRun)}\n`);
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
