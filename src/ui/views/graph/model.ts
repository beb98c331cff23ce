/**
 * What the owner graph draws, as plain data (no React, no React Flow): the objects of the shown
 * namespaces and their ownerReferences, with the pods of a big controller folded into one group
 * box.
 *
 * Why fold: a Deployment scaled to 1,000 replicas would otherwise be 1,000 boxes in one column
 * (nobody reads that, and laying it out with dagre took most of the main thread on every new
 * pod). Beyond `POD_GROUP_THRESHOLD` pods under one owner, those pods become one box ("1000 pods
 * of ReplicaSet web-5d9c...: 210 Running, 790 Pending"); the owner chain stays Deployment ->
 * ReplicaSet -> Pods. A selected pod is kept out of its group (drawn as its own box beside it) so
 * its chain can still be shown.
 *
 * The structure (`GraphModel.items`) is what the layout depends on; it changes when an object of
 * the graph appears or goes, not when a pod joins a group that already exists, so a scale-up does
 * not re-run the layout for every pod.
 */
import type { ObjRecord } from '../../../protocol/messages';
import { podTone, type Tone } from '../tone';

/** Kinds drawn in the graph (plus the Nodes that own mirror pods). */
export const GRAPH_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod']);

/**
 * More pods than this under one owner are drawn as one group box. The bookshop's workloads (2-3
 * replicas), a DaemonSet on a kind cluster's 3 nodes and the control plane's 4 mirror pods stay
 * pod by pod; `kubectl scale --replicas=20` folds.
 */
export const POD_GROUP_THRESHOLD = 12;

/** Prefix of a group box's id: `pods:<owner uid>`. */
export const GROUP_PREFIX = 'pods:';

/** The id of the group box holding the pods of `ownerUid`. */
export function groupId(ownerUid: string): string {
  return GROUP_PREFIX + ownerUid;
}

/** The owner uid of a group id, or undefined when `id` is an object's uid. */
export function groupOwner(id: string): string | undefined {
  return id.startsWith(GROUP_PREFIX) ? id.slice(GROUP_PREFIX.length) : undefined;
}

/** One box of the graph: an object, or a group of pods. */
export interface GraphItem {
  /** The object's uid, or `pods:<owner uid>` for a group. */
  id: string;
  /** Ids of the boxes it hangs from (edges owner -> this). */
  owners: string[];
  /** `namespace/Kind/name`: the order boxes are fed to the layout in (a stable drawing). */
  sortKey: string;
}

/** The graph's structure (what the layout needs) and how pods map onto group boxes. */
export interface GraphModel {
  /** Sorted by `sortKey`. */
  items: GraphItem[];
  /** One string per box (`id|owners|sortKey`), joined: equal keys mean the same layout. */
  key: string;
  /** Owner uids whose pods are folded into a group box. */
  grouped: ReadonlySet<string>;
}

/** The owner a pod is drawn under: its controller reference, else its first owner. */
function primaryOwner(o: ObjRecord): string | undefined {
  const refs = o.owners;
  if (!refs || refs.length === 0) return undefined;
  return (refs.find((r) => r.controller) ?? refs[0]).uid;
}

/**
 * Build the graph of `objects` for the namespaces `shown` accepts. `pinned`: a pod uid kept out
 * of its group (the selection).
 */
export function buildGraphModel(objects: Record<string, ObjRecord>, shown: (ns: string | undefined) => boolean, pinned?: string): GraphModel {
  const members: ObjRecord[] = [];
  const podsPerOwner = new Map<string, number>();
  for (const uid in objects) {
    const o = objects[uid];
    if (!GRAPH_KINDS.has(o.kind) || !shown(o.namespace)) continue;
    members.push(o);
    if (o.kind === 'Pod') {
      const owner = primaryOwner(o);
      if (owner && objects[owner]) podsPerOwner.set(owner, (podsPerOwner.get(owner) ?? 0) + 1);
    }
  }
  const grouped = new Set<string>();
  for (const [owner, n] of podsPerOwner) if (n > POD_GROUP_THRESHOLD) grouped.add(owner);

  const items: GraphItem[] = [];
  const nodeOwners = new Set<string>();
  for (const o of members) {
    if (o.kind === 'Pod' && o.uid !== pinned) {
      const owner = primaryOwner(o);
      if (owner && grouped.has(owner)) continue; // drawn by its group box
    }
    const owners = (o.owners ?? []).filter((r) => objects[r.uid]).map((r) => r.uid);
    for (const u of owners) if (objects[u].kind === 'Node') nodeOwners.add(u);
    items.push({ id: o.uid, owners, sortKey: `${o.namespace ?? ''}/${o.kind}/${o.name}` });
  }
  for (const owner of grouped) {
    const rec = objects[owner];
    if (rec.kind === 'Node') nodeOwners.add(owner);
    items.push({ id: groupId(owner), owners: [owner], sortKey: `${rec.namespace ?? ''}/Pod/${rec.name}` });
  }
  for (const uid of nodeOwners) items.push({ id: uid, owners: [], sortKey: `/Node/${objects[uid].name}` });
  items.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const key = items.map((it) => `${it.id}|${it.owners.join(',')}|${it.sortKey}`).join('\n');
  return { items, key, grouped };
}

const podIndexes = new WeakMap<Record<string, ObjRecord>, Map<string, ObjRecord[]>>();

/** Pods by the owner they are drawn under, built once per version of `objects` (the store replaces it on every change). */
function podsByOwner(objects: Record<string, ObjRecord>): Map<string, ObjRecord[]> {
  let ix = podIndexes.get(objects);
  if (ix) return ix;
  ix = new Map();
  for (const uid in objects) {
    const o = objects[uid];
    if (o.kind !== 'Pod') continue;
    const owner = primaryOwner(o);
    if (!owner) continue;
    let l = ix.get(owner);
    if (!l) ix.set(owner, (l = []));
    l.push(o);
  }
  podIndexes.set(objects, ix);
  return ix;
}

/** The pods a group box stands for: the pods of `ownerUid` in shown namespaces, the pinned one excepted. */
export function groupMembers(objects: Record<string, ObjRecord>, ownerUid: string, shown: (ns: string | undefined) => boolean, pinned?: string): ObjRecord[] {
  return (podsByOwner(objects).get(ownerUid) ?? []).filter((o) => o.uid !== pinned && shown(o.namespace));
}

/** One line of a group box: pods with the same STATUS (and readiness), how many, and its tone. */
export interface TallyEntry {
  /** The STATUS column text; `Running (not ready)` for running pods not all ready. */
  label: string;
  count: number;
  tone: Tone;
}

/** Tally pods by STATUS (`Pending` when there is none yet), most first (ties by label). */
export function tallyStatuses(pods: readonly ObjRecord[]): TallyEntry[] {
  const byLabel = new Map<string, TallyEntry>();
  for (const p of pods) {
    const tone = podTone(p);
    const status = p.status ?? 'Pending';
    const label = status === 'Running' && tone === 'notready' ? 'Running (not ready)' : status;
    const e = byLabel.get(label);
    if (e) e.count++;
    else byLabel.set(label, { label, count: 1, tone });
  }
  return [...byLabel.values()].sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

/**
 * The boxes to highlight for a chain of object uids (owners, the selection, what it owns): a pod
 * folded into a group lights its group box. Deduplicated, in chain order.
 */
export function chainBoxes(objects: Record<string, ObjRecord>, chain: readonly string[], grouped: ReadonlySet<string>, pinned?: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const uid of chain) {
    const o = objects[uid];
    let id = uid;
    if (o && o.kind === 'Pod' && uid !== pinned) {
      const owner = primaryOwner(o);
      if (owner && grouped.has(owner)) id = groupId(owner);
    }
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

/** Characters of a box's name drawn at the full size (14.5 px monospace in the 240 px box). */
export const NAME_FULL_CHARS = 24;
/** Characters drawn at the smaller size (13 px) for a longer name; longer still: cut in the middle. */
export const NAME_SMALL_CHARS = 27;

/**
 * How a box shows `name`: whole at the full size up to NAME_FULL_CHARS characters, whole at the
 * smaller size up to NAME_SMALL_CHARS, else its start and end joined by `…` in NAME_SMALL_CHARS
 * characters. Cut in the middle, not at the end: a pod's generated name ends with what tells
 * it from its siblings (`postgres-5969798f5c-8twgb`), a mirror pod's with its node's name.
 */
export function boxName(name: string): { text: string; small: boolean } {
  if (name.length <= NAME_FULL_CHARS) return { text: name, small: false };
  if (name.length <= NAME_SMALL_CHARS) return { text: name, small: true };
  const tail = Math.floor((NAME_SMALL_CHARS - 1) / 2);
  const head = NAME_SMALL_CHARS - 1 - tail;
  return { text: `${name.slice(0, head)}…${name.slice(name.length - tail)}`, small: true };
}
