/**
 * `kubectl apply -f FILE|DIR|- / -k DIR`: client-side apply, one object after another, each
 * reported on its own line (`deployment.apps/web created|configured|unchanged`), continuing
 * after a failing object and printing the errors at the end.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (`Run`, `applyOneObject`: GET the
 * live object, create with the last-applied-configuration annotation when absent, otherwise the
 * three-way patch of patcher.go; the missing-annotation warning; `no objects passed to apply`;
 * `--dry-run`, `-o`) with the patch computed by src/engine/api/apply.ts (`planApply`), and the
 * error wording of cmdutil.AddSourceToErr (`error when creating "web.yaml": ...`).
 */
import { fieldValidationOf, withWarnings } from './field-validation';
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { goJsonMarshal, missingAnnotationWarning, planApply } from '../../engine/api/apply';
import { CmdError, addSourceToErr, discover, fail, formatErrors, kindGroup, type Env } from './env';
import { objectNamespace, readManifestFlags, type SourcedObject } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { serverWait, type Wait } from './server-wait';
import { toPending } from '../shell';
import type { Pending } from '../types';

/** `resource.Info.String()`: the mapping and the name, for patch errors. */
function infoString(type: ResourceType, name: string, ns: string | undefined): string {
  const gv = type.group ? `${type.group}/${type.version}` : `/${type.version}`;
  return `Resource: "${gv}, Resource=${type.resource}", GroupVersionKind: "${gv}, Kind=${type.kind}"\nName: "${name}", Namespace: "${ns ?? ''}"`;
}

/** The error of a manifest whose kind the server does not serve (mapper.go / apply). */
export function noMappingError(obj: KubeObject, source: string, e: ApiError): CmdError {
  return new CmdError(
    `error: resource mapping not found for name: "${obj.metadata?.name ?? ''}" namespace: "${obj.metadata?.namespace ?? ''}" from "${source}": ${e.status.message}\nensure CRDs are installed first`,
  );
}

/**
 * The builder's mapping step (resource/builder.go `mappingFor`, per object): each file object with
 * its served type; an object whose kind the server does not serve is reported into `errs`
 * (`noMappingError`) and skipped, and the rest go on. Other errors are thrown.
 */
export function mapObjectTypes<O extends { object: KubeObject; source: string }>(env: Env, objects: readonly O[], errs: unknown[]): (O & { type: ResourceType })[] {
  const out: (O & { type: ResourceType })[] = [];
  for (const o of objects) {
    try {
      out.push({ ...o, type: env.api.typeOfObject(o.object) });
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) {
        errs.push(noMappingError(o.object, o.source, e));
        continue;
      }
      throw e;
    }
  }
  return out;
}

/** `--validate` on while kube-apiserver is down: kubectl fails fetching the OpenAPI schema first. */
export function openApiDownError(env: Env, source: string): CmdError {
  const { serverUrl, dialAddress } = env.options;
  return fail(
    `error validating "${source}": error validating data: failed to download openapi: Get "${serverUrl}/openapi/v2?timeout=32s": dial tcp ${dialAddress}: connect: connection refused; if you choose to ignore these errors, turn validation off with --validate=false`,
  );
}

/** True unless `--validate=false|ignore`. */
export function validating(env: Env): boolean {
  const v = env.flags.str('validate');
  return !['false', 'ignore'].includes(v);
}

/** `kubectl apply` (waits in virtual time where the server would hold a request: server-wait.ts). */
export function apply(env: Env): number | Pending {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  fieldValidationOf(env); // a bad --validate value fails before any request
  if (env.flags.args.length > 0) throw fail(`Unexpected args: [${env.flags.args.join(' ')}]\nSee 'kubectl apply -h' for help and examples`);
  if (env.flags.bool('prune')) throw fail('--prune is not supported in this playground');
  const manifests = readManifestFlags(env);
  if (!manifests) throw fail('must specify one of -f and -k');
  if (env.api.getAvailability() === 'down' && validating(env) && manifests.objects.length > 0) throw openApiDownError(env, manifests.objects[0].source);
  discover(env, 5);
  const errs: unknown[] = manifests.errors.map((t) => new CmdError(t));
  if (manifests.objects.length === 0 && errs.length === 0) throw fail('no objects passed to apply');
  const dryRun = dryRunMode(env);
  const printer = new ResultPrinter(output);
  // GetObjects: the builder maps every object first; kinds the server does not serve are
  // reported before any apply error.
  const mapped: { item: SourcedObject; type: ResourceType }[] = [];
  for (const item of manifests.objects) {
    try {
      mapped.push({ item, type: env.api.typeOfObject(item.object) });
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) errs.push(noMappingError(item.object, item.source, e));
      else throw e;
    }
  }
  return toPending(applyAll(env, mapped, errs, dryRun, output, printer));
}

function* applyAll(env: Env, mapped: { item: SourcedObject; type: ResourceType }[], errs: unknown[], dryRun: 'none' | 'client' | 'server', output: string, printer: ResultPrinter): Generator<Wait, number, void> {
  for (const { item, type } of mapped) {
    try {
      yield* serverWait(env, () => applyOne(env, item, type, dryRun, output, printer));
    } catch (e) {
      if (e instanceof ApiError || e instanceof CmdError) errs.push(e);
      else throw e;
    }
  }
  if (errs.length > 0) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}

/** `--dry-run` as kubectl reads it (`none`, `client`, `server`; a bare `--dry-run` is an error). */
export function dryRunMode(env: Env): 'none' | 'client' | 'server' {
  const v = env.flags.str('dry-run');
  if (v === '' || v === 'none') return 'none';
  if (v === 'client' || v === 'server') return v;
  if (v === 'unchanged') throw fail('--dry-run flag without a value was specified. A value must be set: "none", "server", or "client".');
  throw fail(`Invalid dry-run value (${v}). Must be "none", "server", or "client".`);
}

/** The suffix kubectl adds to operations under `--dry-run`. */
export function dryRunSuffix(mode: 'none' | 'client' | 'server'): string {
  return mode === 'client' ? ' (dry run)' : mode === 'server' ? ' (server dry run)' : '';
}

/**
 * A manifest's object as apply (and diff) send it: a copy with the namespace the builder gives it
 * (`-n`, the kubeconfig's, `default`) set for a namespaced kind and removed for a cluster-scoped
 * one. Returns the copy, its namespace (undefined for a cluster-scoped kind) and its name (empty when it has none).
 */
export function requestObject(env: Env, item: SourcedObject, type: ResourceType): { obj: KubeObject; ns: string | undefined; name: string } {
  const obj = JSON.parse(JSON.stringify(item.object)) as KubeObject;
  const ns = objectNamespace(env, type, obj);
  obj.metadata = obj.metadata ?? {};
  if (type.namespaced) obj.metadata.namespace = ns;
  else delete obj.metadata.namespace;
  return { obj, ns, name: obj.metadata.name ?? '' };
}

function applyOne(env: Env, item: SourcedObject, type: ResourceType, dryRun: 'none' | 'client' | 'server', output: string, printer: ResultPrinter): void {
  const { obj, ns, name } = requestObject(env, item, type);
  if (!name && obj.metadata.generateName) throw fail(`from ${obj.metadata.generateName}: cannot use generate name with apply`);
  const fieldManager = env.flags.str('field-manager') || (env.flags.bool('server-side') ? 'kubectl' : 'kubectl-client-side-apply');
  let live: KubeObject | undefined;
  try {
    live = env.api.tryGet(type, ns, name);
  } catch (e) {
    throw addSourceToErr(`retrieving current configuration of:\n${infoString(type, name, ns)}\nfrom server for:`, item.source, e);
  }
  const serverSide = env.flags.bool('server-side');
  const plan = planApply(obj, live, type.kind, !!type.custom);
  const suffix = dryRunSuffix(dryRun);
  const print = (verb: string, result: KubeObject) => {
    if (output) env.out(printer.print(result));
    else env.out(`${kindGroup(type)}/${name} ${verb}${suffix}\n`);
  };
  if (plan.action === 'create') {
    const toCreate = serverSide ? obj : plan.object;
    if (dryRun === 'client') return print(serverSide ? 'serverside-applied' : 'created', toCreate);
    try {
      const warnings: string[] = [];
      const created = withWarnings(env, warnings, () =>
        env.api.create(toCreate, { fieldManager, namespace: ns, dryRun: dryRun === 'server', fieldValidation: fieldValidationOf(env), warnings }),
      );
      print(serverSide ? 'serverside-applied' : 'created', created);
    } catch (e) {
      throw addSourceToErr('creating', item.source, e);
    }
    return;
  }
  if (plan.action === 'unchanged') {
    print(serverSide ? 'serverside-applied' : 'unchanged', live as KubeObject);
    return;
  }
  if (plan.missingAnnotation && !serverSide) env.err(missingAnnotationWarning(type.resource, name) + '\n');
  if (dryRun === 'client') return print(serverSide ? 'serverside-applied' : 'configured', live as KubeObject);
  try {
    const warnings: string[] = [];
    const patched = withWarnings(env, warnings, () =>
      env.api.patch(type, ns, name, plan.patchType, plan.patch, { fieldManager, dryRun: dryRun === 'server', fieldValidation: fieldValidationOf(env), warnings }),
    );
    print(serverSide ? 'serverside-applied' : 'configured', patched);
  } catch (e) {
    throw addSourceToErr(`applying patch:\n${goJsonMarshal(plan.patch)}\nto:\n${infoString(type, name, ns)}\nfor:`, item.source, e);
  }
}
