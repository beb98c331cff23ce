/**
 * API objects -> the slim records the UI draws (protocol `ObjRecord`).
 *
 * A pod's STATUS and READY are computed by the `kubectl get pods` printer itself
 * (src/shell/printers/podrow.ts `podRow`, the row `buildTable` prints for a pod), so the map
 * shows exactly the text a person would read in a terminal next to a kind cluster. Only that row
 * is imported, so the other kinds' printers stay out of the worker's first chunk.
 */
import type { KubeObject } from '../engine/api/types';
import { podRow, type PrintContext } from '../shell/printers/podrow';
import { MIRRORED_KINDS, type ConditionRec, type ObjRecord, type OwnerRef, type ReplicasRec, type TaintRec } from '../protocol/messages';

/** The kinds the UI mirrors (defined with the protocol, which the UI reads too). Everything else (Leases, Events, ConfigMaps ...) stays in the worker. */
export { MIRRORED_KINDS };

/** Annotation the kubelet puts on a static pod's mirror pod. Source: pkg/kubelet/types/pod_update.go (ConfigMirrorAnnotationKey). */
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
/** Prefix of node role labels (`kubectl get nodes` ROLES column). Source: pkg/printers/internalversion/printers.go (labelNodeRolePrefix). */
const ROLE_PREFIX = 'node-role.kubernetes.io/';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function owners(obj: KubeObject): OwnerRef[] | undefined {
  const refs = obj.metadata.ownerReferences;
  if (!refs || refs.length === 0) return undefined;
  return refs.map((r) => ({ kind: r.kind, name: r.name, uid: r.uid, ...(r.controller ? { controller: true } : {}) }));
}

function base(obj: KubeObject): ObjRecord {
  const m = obj.metadata;
  const rec: ObjRecord = { uid: m.uid ?? `${obj.kind}/${m.namespace ?? ''}/${m.name}`, kind: obj.kind, name: m.name ?? '' };
  if (m.namespace) rec.namespace = m.namespace;
  const o = owners(obj);
  if (o) rec.owners = o;
  if (m.labels && Object.keys(m.labels).length > 0) rec.labels = { ...m.labels };
  if (m.deletionTimestamp) rec.deleting = true;
  return rec;
}

function podRecord(pod: KubeObject, ctx: PrintContext): ObjRecord {
  const rec = base(pod);
  const cells = podRow(pod, ctx);
  rec.ready = String(cells[1]);
  rec.status = String(cells[2]);
  rec.restarts = parseInt(String(cells[3]), 10) || 0;
  rec.nodeName = pod.spec?.nodeName ?? '';
  rec.phase = pod.status?.phase ?? 'Pending';
  const ann = pod.metadata.annotations ?? {};
  if (ann[MIRROR_ANNOTATION] !== undefined || pod.metadata.ownerReferences?.some((r) => r.kind === 'Node')) rec.mirror = true;
  if (!rec.nodeName) {
    const sched = (pod.status?.conditions ?? []).find((c: Any) => c?.type === 'PodScheduled');
    if (sched?.status === 'False' && sched.message) rec.unschedulableReason = String(sched.message);
  }
  return rec;
}

function replicas(obj: KubeObject): ReplicasRec | undefined {
  const s: Any = obj.status ?? {};
  const spec: Any = obj.spec ?? {};
  switch (obj.kind) {
    case 'Deployment':
      return { desired: spec.replicas ?? 1, current: num(s.replicas), ready: num(s.readyReplicas), available: num(s.availableReplicas), updated: num(s.updatedReplicas) };
    case 'ReplicaSet':
      return { desired: spec.replicas ?? 1, current: num(s.replicas), ready: num(s.readyReplicas), available: num(s.availableReplicas) };
    case 'StatefulSet':
      return { desired: spec.replicas ?? 1, current: num(s.replicas), ready: num(s.readyReplicas), available: num(s.availableReplicas), updated: num(s.updatedReplicas) };
    case 'DaemonSet':
      return { desired: num(s.desiredNumberScheduled), current: num(s.currentNumberScheduled), ready: num(s.numberReady), available: num(s.numberAvailable), updated: num(s.updatedNumberScheduled) };
    case 'Job':
      // COMPLETIONS: succeeded of spec.completions; `current` counts active pods.
      return { desired: spec.completions ?? 1, current: num(s.active), ready: num(s.succeeded) };
    default:
      return undefined;
  }
}

/** Healthy state of each node condition other than Ready (anything else is drawn as a warning). */
const HEALTHY: Record<string, string> = { MemoryPressure: 'False', DiskPressure: 'False', PIDPressure: 'False', NetworkUnavailable: 'False' };

function nodeRecord(node: KubeObject): ObjRecord {
  const rec = base(node);
  const conds: Any[] = node.status?.conditions ?? [];
  const ready = conds.find((c) => c?.type === 'Ready');
  rec.nodeReady = ready?.status ?? 'Unknown';
  const roles = Object.keys(node.metadata.labels ?? {})
    .filter((k) => k.startsWith(ROLE_PREFIX))
    .map((k) => k.slice(ROLE_PREFIX.length))
    .filter((r) => r !== '')
    .sort();
  if (roles.length) rec.roles = roles;
  const taints: TaintRec[] = (node.spec?.taints ?? []).map((t: Any) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
  if (taints.length) rec.taints = taints;
  if (node.spec?.unschedulable) rec.unschedulable = true;
  const bad: ConditionRec[] = conds
    .filter((c) => c?.type !== 'Ready' && HEALTHY[c?.type] !== undefined && c.status !== HEALTHY[c.type])
    .map((c) => ({ type: c.type, status: c.status, ...(c.reason ? { reason: c.reason } : {}) }));
  if (bad.length) rec.badConditions = bad;
  // A node's labels are long and change nothing the map draws; keep only the role-relevant few.
  delete rec.labels;
  return rec;
}

/** The record of `obj`, or undefined when its kind is not mirrored. */
export function toRecord(obj: KubeObject, ctx: PrintContext): ObjRecord | undefined {
  if (!MIRRORED_KINDS.has(obj.kind)) return undefined;
  switch (obj.kind) {
    case 'Pod':
      return podRecord(obj, ctx);
    case 'Node':
      return nodeRecord(obj);
    default: {
      const rec = base(obj);
      const r = replicas(obj);
      if (r) rec.replicas = r;
      return rec;
    }
  }
}
