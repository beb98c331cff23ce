/**
 * Helpers shared by the controllers, mirroring pkg/controller/controller_utils.go and
 * pkg/api/v1/pod/util.go: controller references, pod state predicates and the
 * pod-template-hash.
 */
import type { KubeObject, OwnerReference } from '../api/types';
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
