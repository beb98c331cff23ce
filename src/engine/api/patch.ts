/**
 * The three patch formats kube-apiserver accepts, plus the strategic three-way patch that
 * client-side `kubectl apply` computes.
 *
 * - `applyMergePatch`: JSON merge patch (RFC 7386), `application/merge-patch+json`.
 * - `applyJsonPatch`: JSON patch (RFC 6902), `application/json-patch+json`, applied with the
 *   `fast-json-patch` library (the server uses evanphx/json-patch).
 * - `applyStrategicMergePatch`: strategic merge patch, `application/strategic-merge-patch+json`,
 *   a port of staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go (`mergeMap`,
 *   `mergeSlice`, the `$patch`, `$retainKeys`, `$deleteFromPrimitiveList/`, `$setElementOrder/`
 *   directives) driven by a table of the `patchStrategy` / `patchMergeKey` struct tags of the
 *   built-in types (staging/src/k8s.io/api/core/v1/types.go, apps/v1, batch/v1, meta/v1).
 * - `createThreeWayMergePatch`: `strategicpatch.CreateThreeWayMergePatch` (`diffMaps`,
 *   `diffLists`, then `mergeMap` of the deletions and the delta).
 * - `createThreeWayJsonMergePatch`: `jsonmergepatch.CreateThreeWayJSONMergePatch`, what kubectl
 *   sends for kinds its scheme does not know (custom resources).
 *
 * All functions are pure: inputs are never mutated, results are fresh JSON values.
 */
import fastJsonPatch, { type Operation } from 'fast-json-patch';

// fast-json-patch is CommonJS: Node's ESM loader exposes only its default export.
const { applyPatch } = fastJsonPatch;
import { ApiError, type StatusObject, type StatusReason } from './errors';
import { deepCopy, deepEqual } from './types';

// ------------------------------------------------------------------------------------------
// JSON values
// ------------------------------------------------------------------------------------------

/** A JSON object. */
type JMap = Record<string, unknown>;

function isMap(v: unknown): v is JMap {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Go's `reflect.TypeOf` for decoded JSON, coarse enough for the comparisons patch.go makes. */
function kindOf(v: unknown): 'map' | 'slice' | 'null' | 'string' | 'number' | 'bool' {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  return 'bool';
}

/** Go's `fmt.Sprintf("%v", x)` for JSON values (maps print `map[k:v ...]` with sorted keys). */
function goString(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goString).join(' ')}]`;
  const m = v as JMap;
  return `map[${Object.keys(m)
    .sort()
    .map((k) => `${k}:${goString(m[k])}`)
    .join(' ')}]`;
}

function status(code: number, reason: StatusReason, message: string): StatusObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** An error raised while merging; mapped to a Status by `interpretStrategicMergePatchError`. */
class PatchError extends Error {
  constructor(
    message: string,
    readonly badRequest = false,
  ) {
    super(message);
  }
}

// mergepatch/errors.go
const ErrBadPatchFormatForPrimitiveList = 'invalid patch format of primitive list';
const ErrBadPatchFormatForRetainKeys = 'invalid patch format of retainKeys';
const ErrBadPatchFormatForSetElementOrderList = 'invalid patch format of setElementOrder list';
const ErrNoListOfLists = 'lists of lists are not supported';

function errNoMergeKey(m: unknown, k: string): PatchError {
  return new PatchError(`map: ${goString(m)} does not contain declared merge key: ${k}`);
}
function errBadArgType(expected: string, actual: unknown): PatchError {
  const goType = (x: unknown) =>
    ({ map: 'map[string]interface {}', slice: '[]interface {}', null: '<nil>', string: 'string', number: 'float64', bool: 'bool' })[kindOf(x)];
  return new PatchError(`expected a ${expected}, but received a ${goType(actual)}`);
}
function errBadPatchType(t: unknown, m: unknown): PatchError {
  return new PatchError(`unknown patch type: ${goString(t)} in map: ${goString(m)}`);
}

// ------------------------------------------------------------------------------------------
// RFC 7386 JSON merge patch
// ------------------------------------------------------------------------------------------

/**
 * Apply a JSON merge patch (RFC 7386): objects merge key by key, `null` deletes a key, any
 * other value (arrays included) replaces. A non-object patch replaces the whole target.
 * Returns a new value; `target` is not modified.
 * Source: evanphx/json-patch `MergePatch`, used by kube-apiserver for
 * `application/merge-patch+json` (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go).
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return deepCopy(patch);
  const out: JMap = isMap(target) ? deepCopy(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/**
 * RFC 7386 diff: the merge patch that turns `a` into `b` (evanphx/json-patch `CreateMergePatch`,
 * `getDiff`): changed or added keys carry the new value, removed keys carry `null`, arrays are
 * compared whole.
 */
function createMergePatch(a: JMap, b: JMap): JMap {
  const into: JMap = {};
  for (const [key, bv] of Object.entries(b)) {
    if (!(key in a)) {
      into[key] = bv;
      continue;
    }
    const av = a[key];
    if (kindOf(av) !== kindOf(bv)) {
      into[key] = bv;
      continue;
    }
    if (isMap(av)) {
      const dst = createMergePatch(av, bv as JMap);
      if (Object.keys(dst).length > 0) into[key] = dst;
    } else if (!deepEqual(av, bv)) {
      into[key] = bv;
    }
  }
  for (const key of Object.keys(a)) if (!(key in b)) into[key] = null;
  return into;
}

/**
 * `keepOrDeleteNullInObj` (jsonmergepatch/patch.go): keep only the nulls (deletions) when
 * `keepNull`, otherwise drop them. Explicit empty maps are values, not empty patches.
 */
function keepOrDeleteNull(m: JMap, keepNull: boolean): JMap {
  const out: JMap = {};
  for (const [key, val] of Object.entries(m)) {
    if (val === null) {
      if (keepNull) out[key] = null;
      continue;
    }
    if (isMap(val)) {
      if (Object.keys(val).length === 0) {
        if (!keepNull) out[key] = val;
        continue;
      }
      const sub = keepOrDeleteNull(val, keepNull);
      if (Object.keys(sub).length > 0) out[key] = sub;
    } else if (!keepNull) {
      out[key] = val;
    }
  }
  return out;
}

/** Deep merge of two merge patches (evanphx `MergePatch(deletePatch, addAndChangePatch)`). */
function mergeMergePatches(base: JMap, patch: JMap): JMap {
  const out: JMap = deepCopy(base);
  for (const [k, v] of Object.entries(patch)) {
    if (isMap(v) && isMap(out[k]) && Object.keys(v).length > 0) out[k] = mergeMergePatches(out[k] as JMap, v);
    else out[k] = deepCopy(v);
  }
  return out;
}

/**
 * The three-way JSON merge patch kubectl apply sends for kinds without strategic-merge
 * metadata (custom resources): additions and changes from `current` to `modified`, plus
 * deletions from `original` (last-applied) to `modified`. Fields that only the live object has
 * are left alone. Returns `{}` when nothing changes.
 * Errors: throws `Error('At least one of apiVersion, kind and name was changed')` as kubectl
 * does when the preconditions fail.
 * Source: staging/src/k8s.io/apimachinery/pkg/util/jsonmergepatch/patch.go
 * (`CreateThreeWayJSONMergePatch`), staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go.
 */
export function createThreeWayJsonMergePatch(original: unknown, modified: unknown, current: unknown): JMap {
  const o = isMap(original) ? original : {};
  const m = isMap(modified) ? modified : {};
  const c = isMap(current) ? current : {};
  const addAndChange = keepOrDeleteNull(createMergePatch(c, m), false);
  const deletions = keepOrDeleteNull(createMergePatch(o, m), true);
  const patch = mergeMergePatches(deletions, addAndChange);
  // Preconditions RequireKeyUnchanged("apiVersion"), ("kind"), RequireMetadataKeyUnchanged("name").
  const meta = patch.metadata;
  if ('apiVersion' in patch || 'kind' in patch || (isMap(meta) && 'name' in meta)) {
    throw new Error('At least one of apiVersion, kind and name was changed');
  }
  return patch;
}

// ------------------------------------------------------------------------------------------
// RFC 6902 JSON patch
// ------------------------------------------------------------------------------------------

/**
 * Maximum number of operations in one JSON patch (`maxJSONPatchOperations`,
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go).
 */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * Apply a JSON patch (RFC 6902 operations `add`, `remove`, `replace`, `move`, `copy`, `test`).
 * Returns a new value; `target` is not modified.
 * Errors, as kube-apiserver returns them (handlers/patch.go `applyJSPatch`):
 * - the patch is not a list of operations: 400 BadRequest
 *   `json: cannot unmarshal object into Go value of type jsonpatch.Patch`;
 * - more than 10000 operations: 413 `Request entity too large: The allowed maximum operations
 *   in a JSON patch is 10000, got N`;
 * - an operation that does not apply (missing path, failed `test`, unknown op): 422 Invalid with
 *   the generic `the server rejected our request due to an error in our request`
 *   (`NewGenericServerResponse`; the server drops json-patch's own wording).
 */
export function applyJsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) {
    const t = ops === null ? 'null' : typeof ops === 'object' ? 'object' : typeof ops === 'boolean' ? 'bool' : typeof ops;
    if (ops === null) return deepCopy(target); // json.Unmarshal of `null` into a slice leaves it empty
    throw new ApiError(status(400, 'BadRequest', `json: cannot unmarshal ${t} into Go value of type jsonpatch.Patch`));
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new ApiError(
      status(413, 'RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`),
    );
  }
  for (const op of ops) {
    if (!isMap(op)) {
      throw new ApiError(status(400, 'BadRequest', `json: cannot unmarshal ${Array.isArray(op) ? 'array' : typeof op} into Go value of type jsonpatch.Operation`));
    }
  }
  try {
    return applyPatch(deepCopy(target), deepCopy(ops) as Operation[], true, true, true).newDocument;
  } catch (_e) {
    throw new ApiError(status(422, 'Invalid', 'the server rejected our request due to an error in our request'));
  }
}

// ------------------------------------------------------------------------------------------
// Patch metadata: the patchStrategy / patchMergeKey struct tags of the built-in types
// ------------------------------------------------------------------------------------------

/** Patch metadata of one struct field (`LookupPatchMeta` result). */
interface FieldMeta {
  /** `patchStrategy` tag split on ',' (`merge`, `replace`, `retainKeys`). */
  s?: string[];
  /** `patchMergeKey` tag. */
  k?: string;
  /** Struct type of the field (for lists: of the elements), a key of `STRUCTS`. */
  t?: string;
}
type Struct = Record<string, FieldMeta>;

const MERGE = ['merge'];
const MERGE_RETAIN = ['merge', 'retainKeys'];
const CONDITIONS: FieldMeta = { s: MERGE, k: 'type' };

/**
 * Struct types with patch tags, by Go type name. A field not listed has no tags: maps merge
 * key by key, lists are replaced whole (atomic), e.g. `tolerations`, `command`, `args`,
 * `envFrom`, node `spec.taints`, `volumeClaimTemplates`, EndpointSlice `endpoints`.
 * Sources: staging/src/k8s.io/api/core/v1/types.go, apps/v1/types.go, batch/v1/types.go,
 * apimachinery/pkg/apis/meta/v1/types.go (`patchStrategy:"..." patchMergeKey:"..."` tags).
 */
const STRUCTS: Record<string, Struct> = {
  ObjectMeta: { finalizers: { s: MERGE }, ownerReferences: { s: MERGE, k: 'uid' } },
  PodTemplateSpec: { metadata: { t: 'ObjectMeta' }, spec: { t: 'PodSpec' } },
  PodSpec: {
    volumes: { s: MERGE_RETAIN, k: 'name' },
    initContainers: { s: MERGE, k: 'name', t: 'Container' },
    containers: { s: MERGE, k: 'name', t: 'Container' },
    ephemeralContainers: { s: MERGE, k: 'name', t: 'Container' },
    imagePullSecrets: { s: MERGE, k: 'name' },
    hostAliases: { s: MERGE, k: 'ip' },
    topologySpreadConstraints: { s: MERGE, k: 'topologyKey' },
    resourceClaims: { s: MERGE_RETAIN, k: 'name' },
    schedulingGates: { s: MERGE, k: 'name' },
  },
  Container: {
    ports: { s: MERGE, k: 'containerPort' },
    env: { s: MERGE, k: 'name' },
    volumeMounts: { s: MERGE, k: 'mountPath' },
    volumeDevices: { s: MERGE, k: 'devicePath' },
  },
  PodStatus: {
    conditions: CONDITIONS,
    podIPs: { s: MERGE, k: 'ip' },
    hostIPs: { s: MERGE, k: 'ip' },
    resourceClaimStatuses: { s: MERGE_RETAIN, k: 'name' },
  },
  WithConditions: { conditions: CONDITIONS },
  DeploymentSpec: { template: { t: 'PodTemplateSpec' }, strategy: { s: ['retainKeys'] } },
  TemplateSpec: { template: { t: 'PodTemplateSpec' } },
  CronJobSpec: { jobTemplate: { t: 'JobTemplateSpec' } },
  JobTemplateSpec: { metadata: { t: 'ObjectMeta' }, spec: { t: 'TemplateSpec' } },
  ServiceSpec: { ports: { s: MERGE, k: 'port' } },
  NodeSpec: { podCIDRs: { s: MERGE } },
  NodeStatus: { conditions: CONDITIONS, addresses: { s: MERGE, k: 'type' } },
  ServiceAccount: { metadata: { t: 'ObjectMeta' }, secrets: { s: MERGE, k: 'name' } },
  Object: { metadata: { t: 'ObjectMeta' } },
};

function root(spec?: string, statusType?: string): Struct {
  const s: Struct = { metadata: { t: 'ObjectMeta' } };
  if (spec) s.spec = { t: spec };
  if (statusType) s.status = { t: statusType };
  return s;
}

/** Root struct per kind (top-level fields); kinds not listed only have `metadata` tags. */
const KIND_ROOTS: Record<string, Struct> = {
  Pod: root('PodSpec', 'PodStatus'),
  PodTemplate: { metadata: { t: 'ObjectMeta' }, template: { t: 'PodTemplateSpec' } },
  Deployment: root('DeploymentSpec', 'WithConditions'),
  ReplicaSet: root('TemplateSpec', 'WithConditions'),
  StatefulSet: root('TemplateSpec', 'WithConditions'),
  DaemonSet: root('TemplateSpec', 'WithConditions'),
  ReplicationController: root('TemplateSpec', 'WithConditions'),
  Job: root('TemplateSpec', 'WithConditions'),
  CronJob: root('CronJobSpec'),
  Service: root('ServiceSpec', 'WithConditions'),
  Node: root('NodeSpec', 'NodeStatus'),
  Namespace: root(undefined, 'WithConditions'),
  PersistentVolumeClaim: root(undefined, 'WithConditions'),
  ServiceAccount: STRUCTS.ServiceAccount,
};

/** A position in the type tree: the struct whose fields are being merged, or none (no tags). */
type Schema = Struct | undefined;

function lookup(schema: Schema, key: string): { meta: FieldMeta; sub: Schema } {
  const meta = schema?.[key] ?? {};
  return { meta, sub: meta.t ? STRUCTS[meta.t] : undefined };
}

/** `extractRetainKeysPatchStrategy`: (has retainKeys, the other strategy). */
function strategyOf(meta: FieldMeta): { retainKeys: boolean; strategy: string } {
  const s = meta.s ?? [];
  const retainKeys = s.includes('retainKeys');
  return { retainKeys, strategy: s.find((x) => x !== 'retainKeys') ?? '' };
}

function schemaForKind(kind: string): Schema {
  return KIND_ROOTS[kind] ?? STRUCTS.Object;
}

/**
 * Whether the server accepts a strategic merge patch for a kind: every built-in kind does,
 * custom resources do not (they only take JSON patch, merge patch and apply patch; a strategic
 * patch gets 415 UnsupportedMediaType, and kubectl apply falls back to a JSON merge patch).
 * Source: staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
 * (supported patch types), staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go.
 */
export function strategicMergeSupported(_kind: string, isCustom: boolean): boolean {
  return !isCustom;
}

/**
 * The 415 a strategic merge patch to a custom resource gets
 * (`negotiation.NewUnsupportedMediaTypeError` with the CR handler's patch types).
 */
export function strategicMergeUnsupportedError(): ApiError {
  return new ApiError(
    status(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    ),
  );
}

// ------------------------------------------------------------------------------------------
// Strategic merge patch: apply (strategicpatch/patch.go mergeMap and friends)
// ------------------------------------------------------------------------------------------

const DIRECTIVE = '$patch';
const DELETE = 'delete';
const REPLACE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

interface MergeOptions {
  /** True server-side: merge the parallel `$deleteFromPrimitiveList` / `$setElementOrder` lists. */
  mergeParallelList: boolean;
  /** True server-side: a null for a key that is absent is dropped rather than kept. */
  ignoreUnmatchedNulls: boolean;
}

/**
 * Apply a strategic merge patch to an object of a built-in kind and return the result.
 * Maps merge recursively; `null` deletes; lists with a merge key (`containers` by `name`,
 * container `ports` by `containerPort`, Service `ports` by `port`, `env` by `name`,
 * `volumeMounts` by `mountPath`, `ownerReferences` by `uid`, `conditions` by `type`, ...) merge
 * element-wise; `finalizers` and node `podCIDRs` merge as sets; every other list (e.g.
 * `tolerations`, node `taints`, `command`) is replaced. Directives: `$patch: delete|replace`
 * (on maps and list elements), `$retainKeys`, `$deleteFromPrimitiveList/<field>`,
 * `$setElementOrder/<field>`. `target` and `patch` are not modified.
 * Errors: malformed directive lists give 400 BadRequest (`invalid patch format of
 * setElementOrder list`, ...), lists of lists 422, anything else (e.g. `map: map[image:x] does
 * not contain declared merge key: name`) a 500 with reason Unknown, as the server's
 * `interpretStrategicMergePatchError` leaves it.
 * Custom resources: callers check `strategicMergeSupported` first; for kinds without a table
 * entry only `metadata` has tags, so lists are replaced.
 * Source: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
 * (`StrategicMergeMapPatchUsingLookupPatchMeta`), staging/src/k8s.io/apiserver/pkg/endpoints/
 * handlers/patch.go (`strategicPatchObject`, `interpretStrategicMergePatchError`).
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown, kind: string): unknown {
  if (!isMap(patch)) {
    throw new ApiError(status(400, 'BadRequest', `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`));
  }
  const original = isMap(target) ? deepCopy(target) : {};
  try {
    return mergeMap(original, deepCopy(patch), schemaForKind(kind), { mergeParallelList: true, ignoreUnmatchedNulls: true });
  } catch (e) {
    if (!(e instanceof PatchError)) throw e;
    if (e.badRequest) throw new ApiError(status(400, 'BadRequest', e.message));
    if (e.message === ErrNoListOfLists) throw new ApiError(status(422, 'Invalid', 'the server rejected our request due to an error in our request'));
    throw new ApiError(status(500, 'Unknown', e.message));
  }
}

function mergeMap(original: JMap | undefined, patch: JMap, schema: Schema, opts: MergeOptions): JMap {
  if (DIRECTIVE in patch) return handleDirectiveInMergeMap(patch[DIRECTIVE], patch);
  const orig: JMap = original ?? {};
  applyRetainKeysDirective(orig, patch, opts);
  mergePatchIntoOriginal(orig, patch, schema, opts);

  for (const key of Object.keys(patch)) {
    const patchV = patch[key];
    let k = key;
    let isDeleteList = false;
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      if (!opts.mergeParallelList) {
        orig[k] = patchV;
        continue;
      }
      k = extractKey(k, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[k];
      if (opts.ignoreUnmatchedNulls) continue;
    }
    if (!(k in orig)) {
      if (!isDeleteList) {
        if (opts.ignoreUnmatchedNulls) discardNullValues(patchV);
        const [v, keep] = removeDirectives(patchV, opts.mergeParallelList);
        if (keep) orig[k] = v;
        else delete orig[k];
      }
      continue;
    }
    const ov = orig[k];
    if (kindOf(ov) !== kindOf(patchV)) {
      if (!isDeleteList) {
        if (opts.ignoreUnmatchedNulls) discardNullValues(patchV);
        const [v, keep] = removeDirectives(patchV, opts.mergeParallelList);
        if (keep) orig[k] = v;
        else delete orig[k];
      }
      continue;
    }
    const { meta, sub } = lookup(schema, k);
    const { strategy } = strategyOf(meta);
    if (isMap(ov)) {
      orig[k] = strategy !== REPLACE ? mergeMap(ov, patchV as JMap, sub, opts) : patchV;
    } else if (Array.isArray(ov)) {
      orig[k] = mergeSliceHandler(ov, patchV as unknown[], sub, strategy, meta.k ?? '', isDeleteList, opts);
    } else {
      const [v, keep] = removeDirectives(patchV, opts.mergeParallelList);
      if (keep) orig[k] = v;
      else delete orig[k];
    }
  }
  return orig;
}

function handleDirectiveInMergeMap(directive: unknown, patch: JMap): JMap {
  if (directive === REPLACE) {
    delete patch[DIRECTIVE];
    return patch;
  }
  if (directive === DELETE) return {};
  throw errBadPatchType(directive, patch);
}

/** `discardNullValuesFromPatch`: nulls mean nothing in a value that is being added. */
function discardNullValues(v: unknown): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValues(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) discardNullValues(x);
  }
}

/**
 * `removeDirectives`: a value being added keeps no `$patch` maps. When applying (`all`), the
 * parallel-list and retainKeys keys go too: the typed decode that follows on the real server
 * drops them as unknown fields. When merging two patches (three-way diff) they are kept.
 */
function removeDirectives(v: unknown, all = true): [unknown, boolean] {
  if (isMap(v)) {
    if (DIRECTIVE in v) return [undefined, false];
    for (const k of Object.keys(v)) {
      if (all && (k === RETAIN_KEYS || k.startsWith(SET_ELEMENT_ORDER) || k.startsWith(DELETE_FROM_PRIMITIVE_LIST))) {
        delete v[k];
        continue;
      }
      const [nv, keep] = removeDirectives(v[k], all);
      if (keep) v[k] = nv;
      else delete v[k];
    }
    return [v, true];
  }
  if (Array.isArray(v)) {
    const res: unknown[] = [];
    for (const x of v) {
      const [nv, keep] = removeDirectives(x, all);
      if (keep) res.push(nv);
    }
    return [res, true];
  }
  return [v, true];
}

function extractKey(s: string, prefix: string): string {
  const i = s.indexOf('/');
  if (i < 0 || s.slice(0, i) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST) throw new PatchError(ErrBadPatchFormatForPrimitiveList, true);
    if (prefix === SET_ELEMENT_ORDER) throw new PatchError(ErrBadPatchFormatForSetElementOrderList, true);
    throw new PatchError(`fail to find unknown prefix "${prefix}" in ${s}\n`);
  }
  return s.slice(i + 1);
}

function applyRetainKeysDirective(original: JMap, patch: JMap, opts: MergeOptions): void {
  if (!(RETAIN_KEYS in patch)) return;
  const retain = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!opts.mergeParallelList) {
    if (RETAIN_KEYS in original) {
      if (!deepEqual(original[RETAIN_KEYS], retain)) {
        throw new PatchError(`${goString(original[RETAIN_KEYS])} and ${goString(retain)} are not deep equal: this may happen when calculating the 3-way diff patch`);
      }
    } else {
      original[RETAIN_KEYS] = retain;
    }
    return;
  }
  if (!Array.isArray(retain)) throw new PatchError(ErrBadPatchFormatForRetainKeys, true);
  const keep = new Set(retain.map((x) => x as string));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw new PatchError(ErrBadPatchFormatForRetainKeys, true);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** `mergePatchIntoOriginal`: process `$setElementOrder/<list>` with its list. */
function mergePatchIntoOriginal(original: JMap, patch: JMap, schema: Schema, opts: MergeOptions): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    if (!opts.mergeParallelList) {
      if (key in original) {
        if (!deepEqual(original[key], order)) throw new PatchError(ErrBadPatchFormatForSetElementOrderList, true);
      } else {
        original[key] = order;
      }
    }
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('[]interface {}', order);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = originalKey in original;
    const foundPatch = originalKey in patch;
    let originalList: unknown[] = [];
    let patchList: unknown[] = [];
    if (foundOriginal) {
      if (!Array.isArray(original[originalKey])) throw errBadArgType('[]interface {}', original[originalKey]);
      originalList = original[originalKey] as unknown[];
    }
    if (foundPatch) {
      if (!Array.isArray(patch[originalKey])) throw errBadArgType('[]interface {}', patch[originalKey]);
      patchList = patch[originalKey] as unknown[];
    }
    const { meta, sub } = lookup(schema, originalKey);
    const { strategy } = strategyOf(meta);
    const mergeKey = meta.k ?? '';
    validatePatchWithSetOrderList(patchList, order, mergeKey);
    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList, opts.mergeParallelList)[0] as unknown[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, sub, strategy, mergeKey, false, opts);
    else continue;
    const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, order, mergeKey) : partitionPrimitives(merged, order);
    const kind = sliceElementKind(originalList, patchList);
    original[originalKey] = normalizeElementOrder(patchItems, serverOnly, order, originalList, mergeKey, kind);
    delete patch[originalKey];
  }
}

function validatePatchWithSetOrderList(patchList: unknown[], setOrderList: unknown[], mergeKey: string): void {
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(patchList)[0] : patchList;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrderList.length) {
    if (isMap(nonDelete[pi]) && DIRECTIVE in (nonDelete[pi] as JMap)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[pi], setOrderList[si], mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrderList.length) {
    throw new PatchError(`The order in patch list:\n${goString(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goString(setOrderList)}\n`);
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  if (!isMap(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isMap(right)) throw errBadArgType('map[string]interface {}', right);
  if (!(mergeKey in left)) throw errNoMergeKey(left, mergeKey);
  if (!(mergeKey in right)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

function mergeSliceHandler(
  original: unknown[],
  patch: unknown[],
  sub: Schema,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
  opts: MergeOptions,
): unknown[] {
  if (strategy === MERGE_DIRECTIVE || isDeleteList) return mergeSlice(original, patch, sub, mergeKey, opts, isDeleteList);
  return patch;
}

type ElemKind = ReturnType<typeof kindOf>;

/** `sliceElementType`: every element of every slice has one type, and it is not a list. */
function sliceElementKind(...slices: unknown[][]): ElemKind {
  let prev: ElemKind | undefined;
  for (const s of slices) {
    for (const v of s) {
      const k = kindOf(v);
      if (prev === undefined) {
        if (k === 'slice') throw new PatchError(ErrNoListOfLists);
        prev = k;
      } else if (prev !== k) {
        throw new PatchError(`list element types are not identical: ${goString(slices)}`);
      }
    }
  }
  if (prev === undefined) throw new PatchError('no elements in any of the given slices');
  return prev;
}

function mergeSlice(original: unknown[], patch: unknown[], sub: Schema, mergeKey: string, opts: MergeOptions, isDeleteList: boolean): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementKind(original, patch);
  let merged: unknown[];
  let orig = original;
  let pat = patch;
  if (kind !== 'map') {
    if (opts.mergeParallelList && isDeleteList) return deleteFromSlice(original, patch);
    merged = dedupeScalars([...original, ...patch]);
  } else {
    if (!mergeKey) throw new PatchError('cannot merge lists without merge key for type struct');
    [orig, pat] = mergeSliceWithSpecialElements(original, patch, mergeKey);
    merged = mergeSliceWithoutSpecialElements(orig, pat, mergeKey, sub, opts);
  }
  const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, pat, mergeKey) : partitionPrimitives(merged, pat);
  return normalizeElementOrder(patchItems, serverOnly, pat, orig, mergeKey, kind);
}

function dedupeScalars(s: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of s) if (!out.some((x) => x === v)) out.push(v);
  return out;
}

function deleteFromSlice(current: unknown[], toDelete: unknown[]): unknown[] {
  return current.filter((v) => !toDelete.some((d) => d === v));
}

function mergeSliceWithSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const without: unknown[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const m = v as JMap;
    if (!(DIRECTIVE in m)) {
      without.push(v);
      continue;
    }
    const d = m[DIRECTIVE];
    if (d === DELETE) {
      if (!(mergeKey in m)) throw errNoMergeKey(m, mergeKey);
      orig = orig.filter((x) => !(isMap(x) && mergeKey in x && x[mergeKey] === m[mergeKey]));
    } else if (d === REPLACE) {
      replace = true;
    } else if (d === MERGE_DIRECTIVE) {
      throw new PatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(d, m);
    }
  }
  if (replace) return [without, []];
  return [orig, without];
}

function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isMap(v)) throw new PatchError(`value for key ${i} is not a map.`);
    if (key in v && v[key] === value) return i;
  }
  return -1;
}

function mergeSliceWithoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string, sub: Schema, opts: MergeOptions): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const m = v as JMap;
    if (!(mergeKey in m)) throw errNoMergeKey(m, mergeKey);
    const i = findByKey(out, mergeKey, m[mergeKey]);
    if (i >= 0) out[i] = mergeMap(out[i] as JMap, m, sub, opts);
    else out.push(v);
  }
  return out;
}

function partitionPrimitives(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) (by.some((x) => x === v) ? inPatch : serverOnly).push(v);
  return [inPatch, serverOnly];
}

function partitionMaps(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
    (findByKey(by, mergeKey, v[mergeKey]) >= 0 ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** `index`: position of `val` in `l`, by merge-key value for maps, by value otherwise. */
function indexOf(l: unknown[], val: unknown, mergeKey: string, kind: ElemKind): number {
  const get = (x: unknown) => (kind === 'map' ? (isMap(x) ? x[mergeKey] : undefined) : x);
  const want = get(val);
  for (let i = 0; i < l.length; i++) if (get(l[i]) === want) return i;
  return -1;
}

/** Go's `sort.SliceStable` (insertion sort, identical for a consistent comparator). */
function stableSort<T>(a: T[], less: (x: T, y: T) => boolean): T[] {
  const s = [...a];
  for (let i = 1; i < s.length; i++) {
    for (let j = i; j > 0 && less(s[j], s[j - 1]); j--) [s[j], s[j - 1]] = [s[j - 1], s[j]];
  }
  return s;
}

function extractToDeleteItems(l: unknown[]): [unknown[], unknown[]] {
  const nonDelete: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of l) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    (v[DIRECTIVE] === DELETE ? toDelete : nonDelete).push(v);
  }
  return [nonDelete, toDelete];
}

function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isMap(item)) throw errBadArgType('map[string]interface {}', item);
        if (!(mergeKey in item)) throw errNoMergeKey(item, mergeKey);
      }
    }
    [items, toDelete] = extractToDeleteItems(toSort);
  }
  const sorted = stableSort(items, (a, b) => {
    const ia = indexOf(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexOf(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  });
  return [...sorted, ...toDelete];
}

function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** `mergeSortedSlice`: interleave server-only items into the patch items by live order. */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexOf(serverOrder, left[i], mergeKey, kind);
      const ri = indexOf(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// Strategic merge patch: three-way diff (client side, kubectl apply)
// ------------------------------------------------------------------------------------------

interface DiffOptions {
  setElementOrder: boolean;
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  buildRetainKeysDirective: boolean;
}

/**
 * The strategic merge patch `kubectl apply` sends for a built-in kind: changes and additions
 * from `current` (the live object) to `modified` (the manifest plus its new last-applied
 * annotation), plus deletions from `original` (the previous last-applied configuration) to
 * `modified`. So: a field in the manifest is set (even if someone changed it live, e.g. a
 * `kubectl scale`), a field removed from the manifest since the last apply is deleted, and a
 * field never in any manifest (defaults, status, controller annotations) is left alone.
 * Lists with a merge key get element patches, `$patch: delete` entries and a
 * `$setElementOrder/<field>` list; merge-strategy scalar lists a `$deleteFromPrimitiveList/`;
 * `retainKeys` fields (Deployment `strategy`, `volumes` entries) a `$retainKeys` list.
 * Returns `{}` when there is nothing to change (kubectl then prints `unchanged`). Inputs are
 * not modified. `overwrite` is kubectl's default (true), so no conflict check is made.
 * Source: staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
 * (`CreateThreeWayMergePatch`, `diffMaps`, `diffLists`, `diffListsOfMaps`, `diffListsOfScalars`).
 */
export function createThreeWayMergePatch(original: unknown, modified: unknown, current: unknown, kind: string): JMap {
  const o = isMap(original) ? deepCopy(original) : {};
  const m = isMap(modified) ? deepCopy(modified) : {};
  const c = isMap(current) ? deepCopy(current) : {};
  const schema = schemaForKind(kind);
  try {
    const delta = diffMaps(c, m, schema, { setElementOrder: true, ignoreDeletions: true, ignoreChangesAndAdditions: false, buildRetainKeysDirective: false });
    const deletions = diffMaps(o, m, schema, { setElementOrder: true, ignoreChangesAndAdditions: true, ignoreDeletions: false, buildRetainKeysDirective: false });
    return mergeMap(deletions, delta, schema, { mergeParallelList: false, ignoreUnmatchedNulls: false });
  } catch (e) {
    if (e instanceof PatchError) throw new Error(e.message, { cause: e });
    throw e;
  }
}

function diffMaps(original: JMap, modified: JMap, schema: Schema, opts: DiffOptions): JMap {
  const patch: JMap = {};
  const retainKeysList: string[] = [];
  for (const key of Object.keys(modified)) {
    const modifiedValue = modified[key];
    if (opts.buildRetainKeysDirective && modifiedValue !== null) retainKeysList.push(key);
    if (!(key in original)) {
      if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    const originalValue = original[key];
    if (key === DIRECTIVE) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') throw new PatchError(`invalid value for special key: ${DIRECTIVE}`);
      if (modifiedValue !== originalValue) patch[DIRECTIVE] = modifiedValue;
      continue;
    }
    if (kindOf(originalValue) !== kindOf(modifiedValue)) {
      if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    if (isMap(originalValue)) {
      handleMapDiff(key, originalValue, modifiedValue as JMap, patch, schema, opts);
    } else if (Array.isArray(originalValue)) {
      handleSliceDiff(key, originalValue, modifiedValue as unknown[], patch, schema, opts);
    } else if (!opts.ignoreChangesAndAdditions && !deepEqual(originalValue, modifiedValue)) {
      patch[key] = modifiedValue;
    }
  }
  if (!opts.ignoreDeletions) {
    for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null;
  }
  if (retainKeysList.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalNewField(original, modified))) {
    patch[RETAIN_KEYS] = sortScalars(retainKeysList);
  }
  return patch;
}

function hasAdditionalNewField(original: JMap, modified: JMap): boolean {
  for (const [k, v] of Object.entries(original)) {
    if (v === null) continue;
    if (!(k in modified)) return true;
  }
  return false;
}

function handleMapDiff(key: string, original: JMap, modified: JMap, patch: JMap, schema: Schema, opts: DiffOptions): void {
  const { meta, sub } = lookup(schema, key);
  const { retainKeys, strategy } = strategyOf(meta);
  if (strategy === REPLACE) {
    if (!opts.ignoreChangesAndAdditions) patch[key] = modified;
    return;
  }
  const pv = diffMaps(original, modified, sub, { ...opts, buildRetainKeysDirective: retainKeys });
  if (Object.keys(pv).length > 0) patch[key] = pv;
}

function handleSliceDiff(key: string, original: unknown[], modified: unknown[], patch: JMap, schema: Schema, opts: DiffOptions): void {
  const { meta, sub } = lookup(schema, key);
  const { retainKeys, strategy } = strategyOf(meta);
  if (strategy === MERGE_DIRECTIVE) {
    const [addList, deletionList, setOrderList] = diffLists(original, modified, sub, meta.k ?? '', { ...opts, buildRetainKeysDirective: retainKeys });
    if (addList.length > 0) patch[key] = addList;
    if (deletionList.length > 0) patch[`${DELETE_FROM_PRIMITIVE_LIST}/${key}`] = deletionList;
    if (setOrderList.length > 0) patch[`${SET_ELEMENT_ORDER}/${key}`] = setOrderList;
    return;
  }
  if (!opts.ignoreChangesAndAdditions && !deepEqual(original, modified)) patch[key] = modified;
}

function diffLists(original: unknown[], modified: unknown[], sub: Schema, mergeKey: string, opts: DiffOptions): [unknown[], unknown[], unknown[]] {
  if (original.length === 0) {
    if (modified.length === 0 || opts.ignoreChangesAndAdditions) return [[], [], []];
    return [modified, [], []];
  }
  const kind = sliceElementKind(original, modified);
  if (kind === 'map') {
    const [patchList0, deleteList] = diffListsOfMaps(original, modified, sub, mergeKey, opts);
    let patchList = normalizeSliceOrder(patchList0, modified, mergeKey, kind);
    const orderSame = isOrderSame(original, modified, mergeKey);
    patchList = [...patchList, ...deleteList];
    let setOrderList: unknown[] = [];
    if (opts.setElementOrder && ((!opts.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) || (!opts.ignoreDeletions && patchList.length > 0))) {
      setOrderList = modified.map((v) => ({ [mergeKey]: (v as JMap)[mergeKey] }));
    }
    return [patchList, [], setOrderList];
  }
  if (kind === 'slice') throw new PatchError(ErrNoListOfLists);
  const [add, del] = diffListsOfScalars(original, modified, opts);
  const patchList = normalizeSliceOrder(add, modified, mergeKey, kind);
  let setOrderList: unknown[] = [];
  if (opts.setElementOrder && ((!opts.ignoreDeletions && del.length > 0) || (!opts.ignoreChangesAndAdditions && !deepEqual(original, modified)))) {
    setOrderList = modified;
  }
  return [patchList, del, setOrderList];
}

function isOrderSame(original: unknown[], modified: unknown[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  for (let i = 0; i < modified.length; i++) if (!mergeKeyValueEqual(original[i], modified[i], mergeKey)) return false;
  return true;
}

/** Go's `sortScalars` / `SortableSliceOfMaps`: sort by the `%v` string (not stable, ties keep input order here). */
function sortScalars<T>(s: T[]): T[] {
  return [...s].sort((a, b) => cmpStr(goString(a), goString(b)));
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function diffListsOfScalars(original: unknown[], modified: unknown[], opts: DiffOptions): [unknown[], unknown[]] {
  const os = sortScalars(original);
  const ms = sortScalars(modified);
  let oi = 0;
  let mi = 0;
  const add: unknown[] = [];
  const del: unknown[] = [];
  while (oi < os.length || mi < ms.length) {
    const oIn = oi < os.length;
    const mIn = mi < ms.length;
    const oStr = oIn ? goString(os[oi]) : '';
    const mStr = mIn ? goString(ms[mi]) : '';
    if (oIn && mIn && oStr === mStr) {
      oi++;
      mi++;
    } else if (!oIn || (oIn && mIn && oStr > mStr)) {
      if (!opts.ignoreChangesAndAdditions) add.push(ms[mi]);
      mi++;
    } else {
      if (!opts.ignoreDeletions) del.push(os[oi]);
      oi++;
    }
  }
  return [add, dedupeScalars(del)];
}

function diffListsOfMaps(original: unknown[], modified: unknown[], sub: Schema, mergeKey: string, opts: DiffOptions): [unknown[], unknown[]] {
  const patch: unknown[] = [];
  const deletions: unknown[] = [];
  const byKey = (l: unknown[]) => {
    for (const x of l) {
      if (!isMap(x)) throw errBadArgType('map[string]interface {}', x);
      if (!(mergeKey in x)) throw errNoMergeKey(x, mergeKey);
    }
    return [...(l as JMap[])].sort((a, b) => cmpStr(goString(a[mergeKey]), goString(b[mergeKey])));
  };
  const os = byKey(original);
  const ms = byKey(modified);
  let oi = 0;
  let mi = 0;
  while (oi < os.length || mi < ms.length) {
    const oIn = oi < os.length;
    const mIn = mi < ms.length;
    const oStr = oIn ? goString(os[oi][mergeKey]) : '';
    const mStr = mIn ? goString(ms[mi][mergeKey]) : '';
    if (oIn && mIn && oStr === mStr) {
      const pv = diffMaps(os[oi], ms[mi], sub, opts);
      if (Object.keys(pv).length > 0) {
        pv[mergeKey] = ms[mi][mergeKey];
        patch.push(pv);
      }
      oi++;
      mi++;
    } else if (!oIn || (oIn && mIn && oStr > mStr)) {
      if (!opts.ignoreChangesAndAdditions) patch.push(ms[mi]);
      mi++;
    } else {
      if (!opts.ignoreDeletions) deletions.push({ [mergeKey]: os[oi][mergeKey], [DIRECTIVE]: DELETE });
      oi++;
    }
  }
  return [patch, deletions];
}
