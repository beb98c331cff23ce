/**
 * `--overrides` / `--override-type` of `kubectl run` and `kubectl expose`: mirrors
 * staging/src/k8s.io/kubectl/pkg/cmd/util/override_options.go (`Overrider.Apply`). The generated
 * object is patched with the inline JSON before it is sent: `merge` (the default) is a JSON merge
 * patch (RFC 7386, evanphx/json-patch `MergePatch`: a list such as `spec.containers` is replaced
 * whole), `strategic` a strategic merge patch (containers merged by name), `json` an RFC 6902
 * JSON patch.
 */
import { ApiError } from '../../engine/api/errors';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../../engine/api/patch';
import { fail, type Env } from './env';

/** The override types kubectl accepts (`OverrideTypeJSON`, `OverrideTypeMerge`, `OverrideTypeStrategic`). */
export const OVERRIDE_TYPES = ['json', 'merge', 'strategic'] as const;

/**
 * The generated object with `--overrides` applied (unchanged when the flag is empty). Errors:
 * `error: invalid override type: X`, `error: Invalid JSON Patch` (merge, json-patch's
 * `errBadJSONPatch`), and the patch's own errors for a JSON patch that does not apply.
 */
export function applyOverrides<T>(env: Env, obj: T & { kind?: string }): T {
  const text = env.flags.str('overrides');
  if (!text) return obj;
  const type = env.flags.str('override-type') || 'merge';
  if (!(OVERRIDE_TYPES as readonly string[]).includes(type)) throw fail(`invalid override type: ${type}`);
  let patch: unknown;
  try {
    patch = JSON.parse(text);
  } catch {
    if (type === 'merge') throw fail('Invalid JSON Patch');
    throw fail(`invalid character '${text.trim()[0] ?? ''}' looking for beginning of value`);
  }
  try {
    if (type === 'merge') return applyMergePatch(obj, patch) as T;
    if (type === 'strategic') return applyStrategicMergePatch(obj, patch, obj.kind ?? '') as T;
    return applyJsonPatch(obj, patch) as T;
  } catch (e) {
    if (e instanceof ApiError) throw fail(e.status.message);
    throw e;
  }
}
