/**
 * Client-side `kubectl apply`, as a pure planning step: given the manifest and the live object,
 * decide whether to create, patch (and with which patch) or do nothing. The server module
 * executes the plan; nothing here talks to a server.
 *
 * Sources: staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (`applyOneObject`),
 * staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go (`patchSimple`),
 * staging/src/k8s.io/kubectl/pkg/util/apply.go (`GetModifiedConfiguration`,
 * `GetOriginalConfiguration`, `CreateApplyAnnotation`).
 */
import { createThreeWayJsonMergePatch, createThreeWayMergePatch } from './patch';
import { deepCopy, type KubeObject } from './types';

/** `v1.LastAppliedConfigAnnotation`. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * What `kubectl apply` will do for one object: POST it, PATCH it (strategic or JSON merge
 * patch), or nothing. Source: staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (`applyOneObject`).
 */
export type ApplyPlan =
  | {
      action: 'create';
      /** The manifest with the last-applied-configuration annotation set, ready to POST. */
      object: KubeObject;
    }
  | {
      action: 'patch';
      /** The patch body to PATCH (`{}` never appears here: that is `unchanged`). */
      patch: Record<string, unknown>;
      /** `strategic` (`application/strategic-merge-patch+json`) for built-in kinds, `merge` for custom resources. */
      patchType: 'strategic' | 'merge';
      /**
       * True when the live object has no last-applied-configuration annotation: kubectl prints
       * `missingAnnotationWarning(...)` to stderr and patches anyway.
       */
      missingAnnotation?: boolean;
    }
  | { action: 'unchanged' };

/** The verb kubectl prints after `<resource>/<name>` for a plan: `created`, `configured`, `unchanged` (apply.go printers). */
export type ApplyVerb = 'created' | 'configured' | 'unchanged';

/** The printed verb for a plan (apply.go: `created`, `configured`, or `unchanged` when the patch is `{}`). */
export function applyVerb(plan: ApplyPlan): ApplyVerb {
  return plan.action === 'create' ? 'created' : plan.action === 'patch' ? 'configured' : 'unchanged';
}

/**
 * Go's `encoding/json` encoding of a decoded JSON value, as one compact string: object keys
 * sorted (Go sorts map keys), no spaces, and `<`, `>`, `&`, U+2028, U+2029 escaped as
 * `\u003c` ... (HTML-safe escaping is on by default in `json.Encoder`, used by
 * `unstructured.UnstructuredJSONScheme`). Non-finite numbers (not valid JSON) print `null`.
 */
export function goJsonMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJsonMarshal).join(',')}]`;
  const m = v as Record<string, unknown>;
  const keys = Object.keys(m)
    .filter((k) => m[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${goJsonString(k)}:${goJsonMarshal(m[k])}`).join(',')}}`;
}

function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The value kubectl stores in the last-applied-configuration annotation for a manifest:
 * the object without that annotation, encoded as compact JSON with sorted keys and a trailing
 * newline (`runtime.Encode` with `unstructured.UnstructuredJSONScheme`). An object without
 * annotations gets `"annotations":{}` (kubectl sets the emptied map back before encoding).
 * Source: staging/src/k8s.io/kubectl/pkg/util/apply.go (`GetModifiedConfiguration`).
 */
export function lastAppliedConfiguration(manifest: KubeObject): string {
  const obj = deepCopy(manifest);
  obj.metadata = obj.metadata ?? {};
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  delete annotations[LAST_APPLIED_ANNOTATION];
  obj.metadata.annotations = annotations;
  return goJsonMarshal(obj) + '\n';
}

/**
 * The manifest as kubectl sends it (`GetModifiedConfiguration(obj, annotate=true)`): with the
 * last-applied-configuration annotation set to `lastAppliedConfiguration(manifest)`.
 */
export function withLastApplied(manifest: KubeObject): KubeObject {
  const annotation = lastAppliedConfiguration(manifest);
  const obj = deepCopy(manifest);
  obj.metadata = obj.metadata ?? {};
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: annotation };
  return obj;
}

/**
 * The warning kubectl prints (to stderr, one line) when applying to an object that was created
 * without apply. `resource` is the plural resource without group, as `info.ObjectName()`
 * prints it: `deployments` gives `resource deployments/web`.
 * Source: staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go (`warningNoLastAppliedConfigAnnotation`),
 * staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go (`Info.ObjectName`).
 */
export function missingAnnotationWarning(resource: string, name: string): string {
  return (
    `Warning: resource ${resource}/${name} is missing the ${LAST_APPLIED_ANNOTATION} annotation which is required by kubectl apply. ` +
    `kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. ` +
    `The missing annotation will be patched automatically.`
  );
}

/**
 * Plan one `kubectl apply` of `manifest` (already defaulted by the caller the way kubectl's
 * builder does it: `metadata.namespace` filled in for namespaced kinds).
 * - No live object: `create` with the annotation added (`CreateApplyAnnotation`).
 * - Live object: the patch kubectl computes from the last-applied configuration in the live
 *   annotation (`original`), the manifest with its new annotation (`modified`) and the live
 *   object (`current`): a strategic three-way merge patch for built-in kinds, a three-way JSON
 *   merge patch for custom resources (`isCustom`, not in kubectl's scheme).
 * - `unchanged` when that patch is `{}`.
 * A field the manifest sets is forced back to the manifest's value even if it was changed live
 * (a `kubectl scale` is undone by the next apply of a file that has `replicas`); a field
 * removed from the manifest since the last apply is deleted; fields that only the live object
 * has (status, defaults, controller annotations) are kept.
 * Errors: throws `Error('At least one of apiVersion, kind and name was changed')` for custom
 * resources whose identity differs, and `Error` with strategicpatch's message for malformed lists.
 */
export function planApply(manifest: KubeObject, live: KubeObject | undefined, kind: string, isCustom: boolean): ApplyPlan {
  if (!live) return { action: 'create', object: withLastApplied(manifest) };
  const modified = withLastApplied(manifest);
  const annotation = live.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  let original: unknown = {};
  if (annotation) {
    try {
      original = JSON.parse(annotation);
    } catch (_e) {
      original = {};
    }
  }
  const patch = isCustom ? createThreeWayJsonMergePatch(original, modified, live) : createThreeWayMergePatch(original, modified, live, kind);
  if (Object.keys(patch).length === 0) return { action: 'unchanged' };
  const plan: ApplyPlan = { action: 'patch', patch, patchType: isCustom ? 'merge' : 'strategic' };
  if (annotation === undefined) plan.missingAnnotation = true;
  return plan;
}
