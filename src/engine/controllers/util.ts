/**
 * Helpers shared by the controllers, mirroring pkg/controller/controller_utils.go and
 * pkg/api/v1/pod/util.go: controller references, pod state predicates and the
 * pod-template-hash.
 */
import { deepEqual, type KubeObject, type OwnerReference } from '../api/types';
import { NAME_ALPHABET } from '../clock';

/** The ownerReference with `controller: true`, if any (`metav1.GetControllerOf`). */
export function getControllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
}

/** True when `obj` is controlled by the object with this uid. */
export function isControlledBy(obj: KubeObject, ownerUid: string | undefined): boolean {
  return !!ownerUid && getControllerOf(obj)?.uid === ownerUid;
}

/**
 * A controller reference to `owner` (`metav1.NewControllerRef`): controller and
 * blockOwnerDeletion true, as every workload controller sets on what it creates.
 */
export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** `PodReady` condition status is True (`podutil.IsPodReady`). */
export function isPodReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Ready for at least `minReadySeconds` at virtual time `nowMs` (`podutil.IsPodAvailable`).
 * `parseTime` turns the condition's RFC 3339 lastTransitionTime into virtual ms.
 */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, nowMs: number, parseTime: (t: string) => number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const c = (pod.status?.conditions ?? []).find((x: { type: string }) => x.type === 'Ready');
  const since = c?.lastTransitionTime ? parseTime(c.lastTransitionTime) : nowMs;
  return since + minReadySeconds * 1000 <= nowMs;
}

/**
 * Counts toward a controller's replicas: not terminal and not being deleted
 * (`controller.IsPodActive`).
 */
export function isPodActive(pod: KubeObject): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** Succeeded or Failed. */
export function isPodTerminal(pod: KubeObject): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * FNV-1a 32-bit over a string's UTF-16 code units folded to bytes (UTF-8 for ASCII, which
 * canonical JSON of a template is in practice).
 */
export function fnv1a32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      h ^= c;
      h = Math.imul(h, 0x01000193) >>> 0;
      continue;
    }
    // UTF-8 encode non-ASCII code units.
    const bytes = c < 0x800 ? [0xc0 | (c >> 6), 0x80 | (c & 63)] : [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
    for (c of bytes) {
      h ^= c;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return h >>> 0;
}

/** JSON with object keys sorted at every level: the canonical dump the hash is taken over. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

/**
 * Whether two versions of a pod differ in what matters for its endpoints (`podEndpointsChanged`,
 * pkg/controller/util/endpoint): deletion, pod IPs, readiness, terminal phase, node, hostname and
 * subdomain. Compared field by field instead of serialising both pods on every pod update
 * (performance only: the same answer as comparing their canonical JSON).
 */
export function podEndpointFactsEqual(a: KubeObject, b: KubeObject): boolean {
  return (
    (a.metadata.deletionTimestamp ?? '') === (b.metadata.deletionTimestamp ?? '') &&
    (a.status?.podIP ?? '') === (b.status?.podIP ?? '') &&
    deepEqual(a.status?.podIPs ?? [], b.status?.podIPs ?? []) &&
    isPodReady(a) === isPodReady(b) &&
    isPodTerminal(a) === isPodTerminal(b) &&
    (a.spec?.nodeName ?? '') === (b.spec?.nodeName ?? '') &&
    (a.spec?.hostname ?? '') === (b.spec?.hostname ?? '') &&
    (a.spec?.subdomain ?? '') === (b.spec?.subdomain ?? '')
  );
}

/**
 * `rand.SafeEncodeString`: every character c -> alphanums[c % 27]. Applied to a decimal string
 * it yields only `4 5 6 7 8 9 b c d f`. Source: apimachinery/pkg/util/rand/rand.go.
 */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += NAME_ALPHABET[s.charCodeAt(i) % NAME_ALPHABET.length];
  return out;
}

/**
 * `controller.ComputeHash`: FNV-1a-32 over the pod template (here: its canonical JSON, see
 * reference 1.2), plus the collision count as 4 little-endian bytes when set; printed in
 * decimal and safe-encoded. Identical templates give identical hashes, so a rollback finds the
 * old ReplicaSet again. Source: pkg/controller/controller_utils.go.
 */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = fnv1a32(canonicalJson(template ?? {}));
  if (collisionCount !== undefined && collisionCount !== null) {
    const n = collisionCount >>> 0;
    for (let i = 0; i < 4; i++) {
      h ^= (n >>> (8 * i)) & 0xff;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return safeEncodeString(String(h >>> 0));
}

/** `getPodsPrefix`: `<owner>-`, the generateName of pods a controller creates. */
export function podsPrefix(ownerName: string): string {
  return `${ownerName}-`;
}

/** A condition list helper: set (or replace) a condition of `type`, keeping lastTransitionTime when the status did not change. */
export function setCondition<C extends { type: string; status: string; lastTransitionTime?: string; lastUpdateTime?: string }>(
  conditions: C[] | undefined,
  next: C,
): C[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  if (i < 0) return [...list, next];
  const prev = list[i];
  list[i] = prev.status === next.status && prev.lastTransitionTime ? { ...next, lastTransitionTime: prev.lastTransitionTime } : next;
  return list;
}

/** Remove a condition by type. */
export function removeCondition<C extends { type: string }>(conditions: C[] | undefined, type: string): C[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** A node taint as the API carries it (`v1.Taint`); `timeAdded` is RFC 3339, set for NoExecute taints. */
export interface TaintLike {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

/** A pod toleration (`v1.Toleration`); `tolerationSeconds` only matters for NoExecute. */
export interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

/**
 * `Toleration.ToleratesTaint`: an empty effect matches every effect, an empty key (with
 * `Exists`) every key; operator `Exists` ignores the value, `Equal` (or empty) compares it.
 * Source: staging/src/k8s.io/api/core/v1/toleration.go.
 */
export function toleratesTaint(t: TolerationLike, taint: TaintLike): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Same key and effect (`Taint.MatchTaint`): how taints are found, added and removed. */
export function matchTaint(a: TaintLike, b: TaintLike): boolean {
  return a.key === b.key && a.effect === b.effect;
}

// ------------------------------------------------------------------------------ workload helpers
// (appended for the StatefulSet, DaemonSet, Job and CronJob controllers)

/**
 * `v1helper.FindMatchingUntoleratedTaint`: the first taint accepted by `filter` that no
 * toleration tolerates, or undefined. Source: pkg/apis/core/v1/helper/helpers.go.
 */
export function findUntoleratedTaint(
  taints: readonly TaintLike[] | undefined,
  tolerations: readonly TolerationLike[] | undefined,
  filter: (t: TaintLike) => boolean,
): TaintLike | undefined {
  for (const taint of taints ?? []) {
    if (!filter(taint)) continue;
    if (!(tolerations ?? []).some((tol) => toleratesTaint(tol, taint))) return taint;
  }
  return undefined;
}

/** A `NodeSelectorRequirement` (`key`, `operator` In/NotIn/Exists/DoesNotExist/Gt/Lt, `values`). */
export interface NodeSelectorRequirementLike {
  key: string;
  operator: string;
  values?: string[];
}

/** A `NodeSelectorTerm`: requirements on node labels and on fields (only `metadata.name`). */
export interface NodeSelectorTermLike {
  matchExpressions?: NodeSelectorRequirementLike[];
  matchFields?: NodeSelectorRequirementLike[];
}

function nodeRequirementMatches(r: NodeSelectorRequirementLike, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1) return false;
      const a = Number.parseInt(value, 10);
      const b = Number.parseInt(values[0], 10);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/**
 * `nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)`: the pod's `nodeSelector` (every
 * label equal) and its required node affinity (terms ORed, requirements within a term ANDed; an
 * empty term matches nothing; `matchFields` knows only `metadata.name`).
 * Source: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
 */
export function podMatchesNodeAffinity(
  podSpec: { nodeSelector?: Record<string, string>; affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTermLike[] } } } } | undefined,
  node: KubeObject,
): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(podSpec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = podSpec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  const terms = required.nodeSelectorTerms ?? [];
  return terms.some((term) => {
    const exprs = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    if (exprs.length === 0 && fields.length === 0) return false;
    for (const r of exprs) if (!nodeRequirementMatches(r, Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined)) return false;
    for (const r of fields) {
      if (r.key !== 'metadata.name') return false;
      if (!nodeRequirementMatches(r, node.metadata.name)) return false;
    }
    return true;
  });
}

/** FNV-1 (not 1a) 32-bit over a string's UTF-8 bytes (Go's `hash/fnv.New32`). */
export function fnv1_32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  const step = (b: number) => {
    h = Math.imul(h, 0x01000193) >>> 0;
    h = (h ^ b) >>> 0;
  };
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) step(c);
    else if (c < 0x800) [0xc0 | (c >> 6), 0x80 | (c & 63)].forEach(step);
    else if (c < 0x10000) [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)].forEach(step);
    else [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)].forEach(step);
  }
  return h >>> 0;
}

/**
 * `history.HashControllerRevision`: FNV-1-32 over the revision's raw data (here: its canonical
 * JSON, which is what Go's `json.Marshal` of the patch map produces: sorted keys), then the
 * collision count written as a decimal string when set; printed in decimal and safe-encoded.
 * Source: pkg/controller/history/controller_history.go.
 */
export function hashControllerRevision(data: unknown, collisionCount?: number): string {
  let s = canonicalJson(data ?? {});
  if (collisionCount !== undefined && collisionCount !== null) s += String(collisionCount);
  return safeEncodeString(String(fnv1_32(s)));
}

/**
 * The data a StatefulSet or DaemonSet stores in its ControllerRevisions (`getPatch`): a strategic
 * merge patch that puts back the pod template, `{spec: {template: {..., $patch: replace}}}`.
 * Source: pkg/controller/statefulset/stateful_set_utils.go, pkg/controller/daemon/update.go.
 */
export function templateRevisionData(template: unknown): { spec: { template: Record<string, unknown> } } {
  return { spec: { template: { ...(JSON.parse(JSON.stringify(template ?? {})) as Record<string, unknown>), $patch: 'replace' } } };
}

/** The pod template stored in a `templateRevisionData` ControllerRevision (`ApplyRevision`). */
export function templateFromRevision(revision: KubeObject): Record<string, unknown> {
  const t = { ...((revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template ?? {}) };
  delete t.$patch;
  return JSON.parse(JSON.stringify(t)) as Record<string, unknown>;
}

/**
 * `intstr.GetScaledValueFromIntOrPercent`: an int as is, `"25%"` of `total` rounded up or down.
 * Source: staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go.
 */
export function scaledValueFromIntOrPercent(v: number | string | undefined | null, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number.parseInt(v, 10) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/**
 * Name of the index of objects by their controller's uid (ReplicaSets by Deployment, ...).
 * Source: pkg/controller/replicaset/replica_set.go (`controllerUIDIndex = "controllerUID"`).
 */
export const CONTROLLER_UID_INDEX = 'controllerUID';

/** Index function for `CONTROLLER_UID_INDEX`: the uid of the `controller: true` ownerReference. */
export function indexObjectByControllerUid(obj: KubeObject): string[] {
  const ref = getControllerOf(obj);
  return ref ? [ref.uid] : [];
}

/**
 * Name of the pod index by controller uid, with orphans under `orphanPodIndexKey(namespace)`.
 * Source: pkg/controller/controller_utils.go (`PodControllerUIDIndex`, `AddPodControllerUIDIndexer`).
 */
export const POD_CONTROLLER_UID_INDEX = 'podControllerUID';

/** `OrphanPodIndexKeyForNamespace`: the index value shared by a namespace's pods without a controller. */
export function orphanPodIndexKey(namespace: string): string {
  return `_ORPHAN_POD/${namespace}`;
}

/** Index function for `POD_CONTROLLER_UID_INDEX`: the controller's uid, or the namespace's orphan key. */
export function indexPodByControllerUid(pod: KubeObject): string[] {
  const ref = getControllerOf(pod);
  return [ref ? ref.uid : orphanPodIndexKey(pod.metadata.namespace ?? '')];
}

/**
 * True for the Forbidden a create gets in a namespace that is being deleted
 * (`apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause)`): controllers drop the item
 * instead of retrying. Message source: plugin/pkg/admission/namespace/lifecycle/admission.go.
 */
export function isNamespaceTerminatingError(e: unknown): boolean {
  const err = e as { code?: number; message?: string } | undefined;
  return !!err && err.code === 403 && typeof err.message === 'string' && err.message.includes('because it is being terminated');
}

/** A Service port as stored (`v1.ServicePort`). */
export interface ServicePortSpec {
  name?: string;
  protocol?: string;
  port: number;
  targetPort?: number | string;
  appProtocol?: string;
}

/**
 * `podutil.FindPort` (pkg/api/v1/pod/util.go): the container port a Service port's targetPort
 * means on this pod (a number as is, a name looked up in the containers' and sidecar init
 * containers' ports with the same protocol), or undefined when the pod has no such port.
 */
export function findServicePort(pod: KubeObject, sp: ServicePortSpec): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = sp.protocol ?? 'TCP';
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c: { restartPolicy?: string }) => c.restartPolicy === 'Always')];
  for (const c of containers) for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  return undefined;
}
