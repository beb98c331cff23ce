/**
 * `kubectl replace -f FILE [--force]`: mirrors staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go
 * (kubectl v1.32).
 *
 * Without `--force` every object from the files is PUT over the live one (resource.Helper
 * `Replace` with overwrite: the live resourceVersion is taken when the file has none), and each
 * prints `kind.group/name replaced`; a missing object is `Error from server (NotFound): error when
 * replacing "FILE": ...`. With `--force` (`forceReplace`) the objects are deleted first (printed as
 * `kubectl delete` prints them), the command waits, polling every second of virtual time for up to
 * `--timeout` (default 5 minutes), until each is gone, then creates them again and prints
 * `kind.group/name replaced` — the usual way to change a field of a pod that an update may not
 * change. `--grace-period` and `--timeout` need `--force`; `--dry-run` cannot be used with it.
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { withLastApplied } from '../../engine/api/apply';
import { addSourceToErr, CmdError, discover, fail, formatErrors, kindGroup, pollUntil, type Env } from './env';
import { objectNamespace, readManifestFlags, type SourcedObject } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { fieldValidationOf, withWarnings } from './field-validation';
import { dryRunMode, dryRunSuffix, mapObjectTypes } from './apply';
import { DELETE_PRINTS_NAMESPACE, parseCascade } from './delete';
import type { Pending } from '../types';

/** replace.go `forceReplace`: how long to wait for the deleted objects when `--timeout` is 0. */
export const FORCE_REPLACE_DEFAULT_TIMEOUT_MS = 5 * 60_000;
/** replace.go `forceReplace`: `wait.PollImmediate(1*time.Second, ...)`. */
export const FORCE_REPLACE_POLL_MS = 1_000;

/** A mapped object from the files. */
interface Item {
  type: ResourceType;
  obj: KubeObject;
  namespace: string | undefined;
  source: string;
}

/** `kubectl replace`. */
export function replace(env: Env): number | Pending {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  fieldValidationOf(env);
  const force = env.flags.bool('force');
  const dryRun = dryRunMode(env);
  // replace.go Validate.
  if (env.flags.int('grace-period') >= 0 && !force) throw fail('--grace-period must have --force specified');
  if (env.flags.duration('timeout') !== 0 && !force) throw fail('--timeout must have --force specified');
  const manifests = readManifestFlags(env);
  if (!manifests) throw fail('must specify one of -f and -k');
  if (force && dryRun !== 'none') throw fail('--dry-run can not be used when --force is set');
  discover(env, 5);
  const errs: unknown[] = manifests.errors.map((t) => new CmdError(t));
  const items = mapAll(env, manifests.objects, errs);
  const printer = new ResultPrinter(output);
  const print = (type: ResourceType, o: KubeObject, suffix = '') => {
    if (output) env.out(printer.print(o));
    else env.out(`${kindGroup(type)}/${o.metadata.name} replaced${suffix}\n`);
  };
  const finishWith = (code: number) => {
    if (errs.length > 0) {
      env.err(formatErrors(errs) + '\n');
      return 1;
    }
    return code;
  };
  if (!force) {
    for (const it of items) {
      try {
        if (dryRun === 'client') {
          print(it.type, it.obj, dryRunSuffix(dryRun));
          continue;
        }
        const warnings: string[] = [];
        const replaced = withWarnings(env, warnings, () =>
          env.api.update(it.obj, {
            dryRun: dryRun === 'server',
            fieldManager: env.flags.str('field-manager') || 'kubectl-replace',
            fieldValidation: fieldValidationOf(env),
            warnings,
          }),
        );
        print(it.type, replaced, dryRunSuffix(dryRun));
      } catch (e) {
        if (e instanceof ApiError || e instanceof CmdError) errs.push(addSourceToErr('replacing', it.source, e));
        else throw e;
      }
    }
    return finishWith(0);
  }

  // forceReplace: delete every object, wait for each to be gone, create them again.
  const grace = env.flags.int('grace-period');
  const cascade = parseCascade(env);
  const gone: { it: Item; uid?: string }[] = [];
  for (const it of items) {
    try {
      const after = env.api.delete(it.type, it.namespace, it.obj.metadata.name ?? '', {
        gracePeriodSeconds: grace >= 0 ? grace : undefined,
        propagationPolicy: cascade,
        fieldManager: 'kubectl',
      });
      env.out(`${kindGroup(it.type)} "${it.obj.metadata.name}" ${grace === 0 ? 'force deleted' : 'deleted'}${DELETE_PRINTS_NAMESPACE && it.type.namespaced && it.namespace ? ` from ${it.namespace} namespace` : ''}\n`);
      gone.push({ it, uid: after?.metadata?.uid });
    } catch (e) {
      // DeleteResult ignores objects that are already gone.
      if (e instanceof ApiError && e.code === 404) {
        gone.push({ it });
        continue;
      }
      if (e instanceof ApiError || e instanceof CmdError) {
        errs.push(addSourceToErr('deleting', it.source, e));
        return finishWith(1);
      }
      throw e;
    }
  }
  const timeout = env.flags.duration('timeout') || FORCE_REPLACE_DEFAULT_TIMEOUT_MS;
  const deadline = env.ctx.clock.now() + timeout;
  let nextPoll = env.ctx.clock.now();
  return pollUntil(
    env,
    () => {
      if (env.ctx.clock.now() < nextPoll) return undefined;
      nextPoll = env.ctx.clock.now() + FORCE_REPLACE_POLL_MS;
      if (!gone.every(({ it, uid }) => isGone(env, it, uid))) return undefined;
      for (const it of items) {
        try {
          const warnings: string[] = [];
          const created = withWarnings(env, warnings, () =>
            env.api.create(it.obj, {
              namespace: it.namespace,
              fieldManager: env.flags.str('field-manager') || 'kubectl-replace',
              fieldValidation: fieldValidationOf(env),
              warnings,
            }),
          );
          print(it.type, created);
        } catch (e) {
          if (e instanceof ApiError || e instanceof CmdError) {
            errs.push(e);
            return finishWith(1);
          }
          throw e;
        }
      }
      return finishWith(0);
    },
    {
      deadlineMs: deadline,
      onTimeout: () => {
        env.err('error: timed out waiting for the condition\n');
        return 1;
      },
    },
  );
}

/** Map each file object to its type and namespace; unserved kinds are reported and skipped. */
function mapAll(env: Env, objects: SourcedObject[], errs: unknown[]): Item[] {
  const out: Item[] = [];
  for (const { object, source, type } of mapObjectTypes(env, objects, errs)) {
    let obj = JSON.parse(JSON.stringify(object)) as KubeObject;
    const namespace = objectNamespace(env, type, obj);
    if (type.namespaced) obj.metadata.namespace = namespace;
    if (env.flags.bool('save-config')) obj = withLastApplied(obj);
    out.push({ type, obj, namespace, source });
  }
  return out;
}

/** The object is absent, or a new one with another uid took its name. */
function isGone(env: Env, it: Item, uid: string | undefined): boolean {
  try {
    const o = env.api.tryGet(it.type, it.namespace, it.obj.metadata.name ?? '');
    return o === undefined || (uid !== undefined && o.metadata.uid !== uid);
  } catch (e) {
    if (e instanceof ApiError) return false;
    throw e;
  }
}
