/**
 * `--record` (deprecated, still honoured): the `kubernetes.io/change-cause` annotation that
 * `kubectl rollout history` prints in its CHANGE-CAUSE column.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/util/record_flags.go: `parseCommandArguments` (the
 * command line as `kubectl` + the positional arguments + every flag given, in order, as
 * ` --<long name>=<value>`: `kubectl set image deploy/web web=bookshop:v2 --namespace=bookshop
 * --record=true`) and `ChangeCauseRecorder` (the annotation written with the object: set image,
 * set env, create, apply, label, annotate, patch and edit put it in the same request; scale and
 * JSON patches send it as a second merge patch, as scale.go and patch.go do).
 */
import type { ApiServer } from '../../engine/api/server';
import type { KubeObject } from '../../engine/api/types';
import type { ParsedFlags } from './flags';

/** record_flags.go `ChangeCauseAnnotation`. */
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/**
 * record_flags.go `parseCommandArguments`: `kubectl`, the positional arguments (the command
 * path included, as cobra sees them), then each flag as parsed: ` --name=value`.
 */
export function changeCause(parsed: Pick<ParsedFlags, 'args' | 'visits'>): string {
  const args = parsed.args.length ? ' ' + parsed.args.join(' ') : '';
  return 'kubectl' + args + parsed.visits.map(([n, v]) => ` --${n}=${v}`).join('');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** A copy of `obj` with the change-cause annotation set. */
function annotated<T extends Any>(obj: T, cause: string): T {
  const o: Any = { ...(obj as object) };
  o.metadata = { ...(o.metadata ?? {}), annotations: { ...(o.metadata?.annotations ?? {}), [CHANGE_CAUSE_ANNOTATION]: cause } };
  return o;
}

/**
 * The API as a recording command sees it: writes to an object's main resource carry the
 * change-cause (`ChangeCauseRecorder.Record` / `MakeRecordMergePatch`); status writes do not.
 * Returns a Proxy over `api`; every other method is the server's own.
 */
export function recordingApi(api: ApiServer, cause: string): ApiServer {
  const followUp = (type: Any, ns: string | undefined, name: string, opts: Any) =>
    api.patch(type, ns, name, 'merge', { metadata: { annotations: { [CHANGE_CAUSE_ANNOTATION]: cause } } }, { ...(opts?.fieldManager ? { fieldManager: opts.fieldManager } : {}), ...(opts?.dryRun ? { dryRun: opts.dryRun } : {}) });
  const wrapped: Partial<Record<keyof ApiServer, unknown>> = {
    create: (obj: KubeObject, opts?: Any) => api.create(annotated(obj, cause), opts),
    update: (obj: KubeObject, opts?: Any) => api.update(opts?.subresource ? obj : annotated(obj, cause), opts),
    patch: (type: Any, ns: string | undefined, name: string, patchType: Any, patch: Any, opts?: Any) => {
      if (opts?.subresource) return api.patch(type, ns, name, patchType, patch, opts);
      if ((patchType === 'merge' || patchType === 'strategic') && patch && typeof patch === 'object' && !Array.isArray(patch)) return api.patch(type, ns, name, patchType, annotated(patch, cause), opts);
      const r = api.patch(type, ns, name, patchType, patch, opts);
      return followUp(type, ns, name, opts) ?? r;
    },
    updateScale: (type: Any, ns: string | undefined, name: string, replicas: number, opts?: Any) => {
      const r = api.updateScale(type, ns, name, replicas, opts);
      followUp(type, ns, name, opts);
      return r;
    },
  };
  return new Proxy(api, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && Object.hasOwn(wrapped, prop)) return wrapped[prop as keyof ApiServer];
      const v = Reflect.get(target, prop, receiver === target ? target : target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
