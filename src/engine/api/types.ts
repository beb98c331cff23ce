/**
 * Object shapes served by the simulated kube-apiserver.
 *
 * Objects are plain JSON (what `kubectl get -o json` prints): `apiVersion`, `kind`, `metadata`,
 * and whatever else the kind has. Typed views of well-known kinds come from the
 * `kubernetes-types` package (the Kubernetes OpenAPI definitions as TypeScript), re-exported
 * here so engine code imports one module.
 */
import type { ObjectMeta as ReadonlyObjectMeta, OwnerReference, LabelSelector, LabelSelectorRequirement, Status } from 'kubernetes-types/meta/v1';

/** Strip `readonly` from a type's fields (kubernetes-types marks server-owned fields readonly). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * `metav1.ObjectMeta`, writable: inside the engine the API server is the one that stamps uid,
 * resourceVersion, generation, creationTimestamp and deletionTimestamp.
 */
export type ObjectMeta = Mutable<ReadonlyObjectMeta>;

export type {
  OwnerReference,
  LabelSelector,
  LabelSelectorRequirement,
  Status,
};
export type {
  Pod,
  PodSpec,
  PodTemplateSpec,
  Container,
  Node,
  Namespace,
  Service,
  ConfigMap,
  Secret,
  ServiceAccount,
  Event,
  PersistentVolume,
  PersistentVolumeClaim,
  Toleration,
  Taint,
} from 'kubernetes-types/core/v1';
export type { Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision } from 'kubernetes-types/apps/v1';
export type { Job, CronJob } from 'kubernetes-types/batch/v1';
export type { Lease } from 'kubernetes-types/coordination/v1';
export type { EndpointSlice } from 'kubernetes-types/discovery/v1';

/**
 * Any object the API stores: `apiVersion` + `kind` + `metadata` and kind-specific fields.
 * `spec`/`status` are typed loosely on purpose: each controller narrows them with the
 * `kubernetes-types` type of its kind.
 */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  [field: string]: unknown;
}

/** A list as the API returns it (`PodList`, ...), with the collection's resourceVersion. */
export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string };
  items: T[];
}

/** Identifies a resource type: API group ('' for core), version and plural resource name. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** Identifies an object: its resource type plus namespace ('' for cluster-scoped) and name. */
export interface ObjectRef {
  /** Plural resource name, e.g. `pods`, `deployments`, or a CRD's plural. */
  resource: string;
  /** API group, '' for core. Optional when the plural is unambiguous. */
  group?: string;
  namespace?: string;
  name: string;
}

/** Watch event types, as `watch.EventType` in apimachinery/pkg/watch/watch.go. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event. For `ERROR` the object is a `Status` (e.g. 410 Gone). */
export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Deletion propagation, as `metav1.DeletionPropagation`. */
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** Split `apiVersion` into group and version (`apps/v1` -> `apps`,`v1`; `v1` -> ``,`v1`). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** Deep copy of a JSON value (objects handed out by the API are never shared with the store). */
export function deepCopy<T>(v: T): T {
  return v === undefined ? v : (structuredCloneJson(v) as T);
}

/** The field orders of a pod condition as the kubelet and the scheduler write it (see `compactCondition`). */
const CONDITION_5 = ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime'];
const CONDITION_7 = ['type', 'observedGeneration', 'status', 'lastProbeTime', 'lastTransitionTime', 'reason', 'message'];

/**
 * `o` (a fresh copy made from `{}`) again as an object literal when its fields are exactly a
 * pod condition's with its observedGeneration, in that order; else `o` itself. Memory only, no
 * behaviour (the same keys, order and values): V8 keeps 4 fields of an object made as `{}` in the
 * object and the rest in a separate array, 40 more bytes for a 5-field condition; a literal
 * keeps them all in the object. A 10k-pod cluster stores some 50,000 conditions per version.
 */
export function compactCondition(o: Record<string, unknown>): Record<string, unknown> {
  let i = 0;
  for (const k in o) {
    if (i >= CONDITION_7.length || k !== CONDITION_7[i]) return o;
    i++;
  }
  if (i === CONDITION_5.length) return { type: o.type, observedGeneration: o.observedGeneration, status: o.status, lastProbeTime: o.lastProbeTime, lastTransitionTime: o.lastTransitionTime };
  if (i === CONDITION_7.length) {
    return { type: o.type, observedGeneration: o.observedGeneration, status: o.status, lastProbeTime: o.lastProbeTime, lastTransitionTime: o.lastTransitionTime, reason: o.reason, message: o.message };
  }
  return o;
}

function structuredCloneJson(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const x = v[i];
      out[i] = x === null || typeof x !== 'object' ? x : structuredCloneJson(x);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (x === undefined) continue;
    out[k] = x === null || typeof x !== 'object' ? x : structuredCloneJson(x);
  }
  return compactCondition(out);
}

/** Structural equality of two JSON values (undefined fields are ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return objectsEqual(a, b);
}

/**
 * `deepEqual(a, b)` of two API objects, comparing `metadata` last (performance only: an update
 * that changes something usually changes spec, status or data, while the server has made the
 * metadata equal to the stored one's; the answer is the same conjunction of the same field
 * comparisons and key counts, in another order, and comparing has no side effects).
 */
export function objectsEqualMetadataLast(a: KubeObject, b: KubeObject): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return deepEqual(a, b);
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let na = 0;
  for (const k in ao) {
    const x = ao[k];
    if (x === undefined) continue;
    na++;
    if (k === 'metadata') continue;
    if (!deepEqual(x, bo[k])) return false;
  }
  let nb = 0;
  for (const k in bo) if (bo[k] !== undefined) nb++;
  if (na !== nb) return false;
  return ao.metadata === undefined || deepEqual(ao.metadata, bo.metadata);
}

/**
 * `deepEqual` of two non-null objects. Leaves are compared in the loops without a call per
 * leaf (performance only: most of a JSON tree is strings and numbers): two values are equal when
 * they are `===`, or both non-null objects with equal contents.
 */
function objectsEqual(a: object, b: object): boolean {
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return false;
    const n = a.length;
    if (n !== b.length) return false;
    for (let i = 0; i < n; i++) {
      const x: unknown = a[i];
      const y: unknown = b[i];
      if (x !== y && (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || !objectsEqual(x, y))) return false;
    }
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  // Every defined field of a equals b's, and b has as many defined fields (no key arrays built).
  let na = 0;
  for (const k in ao) {
    const x = ao[k];
    if (x === undefined) continue;
    na++;
    const y = bo[k];
    if (x !== y && (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || !objectsEqual(x, y))) return false;
  }
  let nb = 0;
  for (const k in bo) if (bo[k] !== undefined) nb++;
  return na === nb;
}
