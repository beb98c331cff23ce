/**
 * Derived views of the store. Each hook returns either one record (stable identity while it does
 * not change) or a list of uids compared shallowly, so a pod changing status re-renders that
 * pod's chip and nothing else, and a pod appearing re-renders only its node panel.
 */
import { useShallow } from 'zustand/react/shallow';
import type { ObjRecord } from '../../protocol/messages';
import { isNamespaceShown, simStore, useSim, type Selection, type SimState } from './store';

/** Sort key of a pod: namespace, then name (a deterministic layout). */
function byNamespaceName(a: ObjRecord, b: ObjRecord): number {
  const na = a.namespace ?? '';
  const nb = b.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Nodes: the control plane first, then by name. */
function byNodeOrder(a: ObjRecord, b: ObjRecord): number {
  const ca = a.roles?.includes('control-plane') ? 0 : 1;
  const cb = b.roles?.includes('control-plane') ? 0 : 1;
  if (ca !== cb) return ca - cb;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Nodes and pods grouped once per version of `objects` (the store replaces that object on every
 * diff that changes a record, and keeps it otherwise). Every map selector reads this index
 * instead of scanning and sorting all records: with 1,000 pods, a dozen selectors each sorting
 * every pod on every diff (twice: React checks a snapshot before and during render) took most of
 * the main thread.
 */
interface ObjectIndex {
  /** Node records in map order. */
  nodes: ObjRecord[];
  nodeNames: Set<string>;
  /** Pods by `spec.nodeName` ('' = unscheduled), sorted by namespace/name. */
  podsByNode: Map<string, ObjRecord[]>;
  /** Pods per namespace. */
  namespaceCounts: Map<string, number>;
}

const indexes = new WeakMap<Record<string, ObjRecord>, ObjectIndex>();

function indexOf(objects: Record<string, ObjRecord>): ObjectIndex {
  let ix = indexes.get(objects);
  if (ix) return ix;
  const nodes: ObjRecord[] = [];
  const podsByNode = new Map<string, ObjRecord[]>();
  const namespaceCounts = new Map<string, number>();
  for (const o of Object.values(objects)) {
    if (o.kind === 'Node') nodes.push(o);
    else if (o.kind === 'Pod') {
      const key = o.nodeName ?? '';
      let l = podsByNode.get(key);
      if (!l) podsByNode.set(key, (l = []));
      l.push(o);
      if (o.namespace) namespaceCounts.set(o.namespace, (namespaceCounts.get(o.namespace) ?? 0) + 1);
    }
  }
  nodes.sort(byNodeOrder);
  for (const l of podsByNode.values()) l.sort(byNamespaceName);
  ix = { nodes, nodeNames: new Set(nodes.map((n) => n.name)), podsByNode, namespaceCounts };
  indexes.set(objects, ix);
  return ix;
}

// ----------------------------------------------------------------------------- per-record channel

/**
 * Listeners per uid: a component that draws one record (a pod chip, a graph box) hears about that
 * record only. With 1,000 pods on the map, every chip subscribing to the whole store meant 2,000
 * selector calls (record and selection) on every diff, most of the main thread's script time; here
 * one store listener compares the records by identity once per change and wakes only the chips
 * whose record (or selection state) changed. The hooks are in ./useRecord.ts (this file stays
 * free of React imports: the Node tests import it).
 */
const uidListeners = new Map<string, Set<() => void>>();
let watching: { objects: Record<string, ObjRecord>; selected: string | undefined } | undefined;

function notify(uid: string | undefined): void {
  if (uid === undefined) return;
  const set = uidListeners.get(uid);
  if (set) for (const l of [...set]) l();
}

function onStoreChange(s: SimState): void {
  const prev = watching;
  if (!prev) return;
  const selected = s.selected?.uid;
  if (s.objects !== prev.objects) {
    const before = prev.objects;
    watching = { objects: s.objects, selected };
    for (const uid of [...uidListeners.keys()]) if (s.objects[uid] !== before[uid]) notify(uid);
  }
  if (selected !== prev.selected) {
    watching = { objects: s.objects, selected };
    notify(prev.selected);
    notify(selected);
  }
}

/**
 * Subscribe `listener` to changes of the record `uid` and of whether it is selected (the app's
 * store, `simStore`); returns the unsubscribe function. What `useRecord` and `useIsSelected` (./useRecord.ts) use.
 */
export function subscribeUid(uid: string, listener: () => void): () => void {
  if (!watching) {
    const s = simStore.getState();
    watching = { objects: s.objects, selected: s.selected?.uid };
    simStore.subscribe(onStoreChange);
  }
  let set = uidListeners.get(uid);
  if (!set) uidListeners.set(uid, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) uidListeners.delete(uid);
  };
}

/**
 * The record `uid`, re-rendering on any store change whose selector result differs. A chip or a
 * graph box should use `useRecord` (./useRecord.ts), which hears about its own record only.
 */
export function useObject(uid: string | undefined): ObjRecord | undefined {
  return useSim((s) => (uid ? s.objects[uid] : undefined));
}

/** uids of the Node records, in map order. */
export function useNodeUids(): string[] {
  return useSim(useShallow((s) => indexOf(s.objects).nodes.map((o) => o.uid)));
}

/** Pods on a node (by name) in shown namespaces, sorted by namespace/name. */
export function podsOnNode(s: SimState, nodeName: string): ObjRecord[] {
  return (indexOf(s.objects).podsByNode.get(nodeName) ?? []).filter((o) => isNamespaceShown(s, o.namespace));
}

export function usePodUidsOnNode(nodeName: string): string[] {
  return useSim(useShallow((s) => podsOnNode(s, nodeName).map((o) => o.uid)));
}

/**
 * A selector computed once per version of the records and the namespace filter, returning the
 * previous value itself while it is `same` as the new one: the component compares by identity
 * (no shallow compare of 1,000 entries on every check) and re-renders only when it changed.
 */
function cachedSelector<T>(compute: (s: SimState) => T, same: (a: T, b: T) => boolean): (s: SimState) => T {
  let last: { objects: SimState['objects']; namespaces: SimState['namespaces']; value: T } | undefined;
  return (s) => {
    if (last && last.objects === s.objects && last.namespaces === s.namespaces) return last.value;
    const v = compute(s);
    const value = last && same(last.value, v) ? last.value : v;
    last = { objects: s.objects, namespaces: s.namespaces, value };
    return value;
  };
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** One cached selector per key (a node name), made on first use. */
function perKey<T>(make: (key: string) => (s: SimState) => T): (key: string) => (s: SimState) => T {
  const byKey = new Map<string, (s: SimState) => T>();
  return (key) => {
    let f = byKey.get(key);
    if (!f) byKey.set(key, (f = make(key)));
    return f;
  };
}

const podKeysSelector = perKey((nodeName) => cachedSelector((s) => podsOnNode(s, nodeName).map((o) => `${o.namespace ?? ''}/${o.uid}`), sameItems));

/** Pods of a node in shown namespaces as `namespace/uid` keys, sorted by namespace/name (same array while unchanged). */
export function usePodKeysOnNode(nodeName: string): string[] {
  return useSim(podKeysSelector(nodeName));
}

const hiddenSelector = perKey((nodeName) =>
  cachedSelector(
    (s) => {
      let n = 0;
      for (const o of indexOf(s.objects).podsByNode.get(nodeName) ?? []) if (!isNamespaceShown(s, o.namespace)) n++;
      return n;
    },
    (a, b) => a === b,
  ),
);

/** Count of pods on a node in hidden namespaces. */
export function useHiddenPodCount(nodeName: string): number {
  return useSim(hiddenSelector(nodeName));
}

/** Pods with no node (unscheduled) or on a node that does not exist, in shown namespaces, sorted by namespace/name. */
function unplacedPods(s: SimState): ObjRecord[] {
  const ix = indexOf(s.objects);
  const out: ObjRecord[] = [];
  let groups = 0;
  for (const [node, pods] of ix.podsByNode) {
    if (node && ix.nodeNames.has(node)) continue;
    groups++;
    for (const o of pods) if (isNamespaceShown(s, o.namespace)) out.push(o);
  }
  if (groups > 1) out.sort(byNamespaceName); // unscheduled pods and pods of missing nodes: one order
  return out;
}

const unplacedSelector = cachedSelector((s) => unplacedPods(s).map((o) => o.uid), sameItems);

/** Pods with no node (unscheduled) or on a node that does not exist, in shown namespaces. */
export function useUnplacedPodUids(): string[] {
  return useSim(unplacedSelector);
}

/** Unplaced pods that share one scheduling message (`reason` '' when the pod's node is gone). */
export interface UnplacedGroup {
  reason: string;
  uids: string[];
}

/**
 * The `reason` of unscheduled pods no scheduler has reported on: no node and no PodScheduled
 * condition (kube-scheduler sets it, False with the FailedScheduling message, when it cannot place
 * a pod: pkg/scheduler/schedule_one.go, handleSchedulingFailure -> updatePod; and the binding sets
 * it True). With the scheduler stopped (its manifest moved out of /etc/kubernetes/manifests) new
 * pods stay like this, with no event at all, which a learner would otherwise have to guess.
 */
export const NOT_SEEN_BY_SCHEDULER = 'not seen by a scheduler yet (no PodScheduled condition)';

/** Unplaced pods (shown namespaces) grouped by scheduling message, groups in order of first appearance (namespace/name order). */
export function unplacedGroupsOf(s: SimState): UnplacedGroup[] {
  const groups = new Map<string, string[]>();
  for (const o of unplacedPods(s)) {
    const reason = o.unschedulableReason ?? (o.nodeName ? '' : NOT_SEEN_BY_SCHEDULER);
    let l = groups.get(reason);
    if (!l) groups.set(reason, (l = []));
    l.push(o.uid);
  }
  return [...groups].map(([reason, uids]) => ({ reason, uids }));
}

const unplacedGroupsSelector = cachedSelector(
  unplacedGroupsOf,
  (a, b) => a.length === b.length && a.every((g, i) => g.reason === b[i].reason && sameItems(g.uids, b[i].uids)),
);

/**
 * The unplaced pods grouped by their FailedScheduling message, in the order the message first
 * appears in namespace/name order: 790 pods that wait for the same reason show it once.
 */
export function useUnplacedGroups(): UnplacedGroup[] {
  return useSim(unplacedGroupsSelector);
}

/** Namespaces that have pods, with counts, sorted (`["bookshop:6", ...]` pairs as tuples). */
export function useNamespaceCounts(): [string, number][] {
  const flat = useSim(
    useShallow((s) => {
      return [...indexOf(s.objects).namespaceCounts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).flatMap(([k, v]) => [k, String(v)]);
    }),
  );
  const out: [string, number][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], Number(flat[i + 1])]);
  return out;
}

/** The record a selection points at: by uid, else by kind/namespace/name (newest match). */
export function resolveSelection(objects: Record<string, ObjRecord>, sel: Selection | undefined): ObjRecord | undefined {
  if (!sel) return undefined;
  if (sel.uid && objects[sel.uid]) return objects[sel.uid];
  if (sel.uid) return undefined; // that very object is gone
  for (const o of Object.values(objects)) if (o.kind === sel.kind && o.name === sel.name && (o.namespace ?? '') === (sel.namespace ?? '')) return o;
  return undefined;
}

export function useSelectedRecord(): ObjRecord | undefined {
  return useSim((s) => resolveSelection(s.objects, s.selected));
}

/** The controller chain above `rec`: [Deployment, ReplicaSet] for a Deployment's pod (top first). */
export function ownerChain(objects: Record<string, ObjRecord>, rec: ObjRecord): ObjRecord[] {
  const chain: ObjRecord[] = [];
  const seen = new Set<string>([rec.uid]);
  let cur: ObjRecord | undefined = rec;
  while (cur) {
    const ref: NonNullable<ObjRecord['owners']>[number] | undefined = cur.owners?.find((o) => o.controller) ?? cur.owners?.[0];
    if (!ref || seen.has(ref.uid)) break;
    seen.add(ref.uid);
    const owner: ObjRecord | undefined = objects[ref.uid];
    if (!owner) {
      // The owner is not mirrored or is gone: show the reference as it stands.
      chain.unshift({ uid: ref.uid, kind: ref.kind, name: ref.name, namespace: rec.namespace });
      break;
    }
    chain.unshift(owner);
    cur = owner;
  }
  return chain;
}

/** Everything below `uid` in the ownership tree (children, grandchildren ...). */
export function descendants(objects: Record<string, ObjRecord>, uid: string): ObjRecord[] {
  const children = new Map<string, ObjRecord[]>();
  for (const o of Object.values(objects)) {
    for (const ref of o.owners ?? []) {
      let l = children.get(ref.uid);
      if (!l) children.set(ref.uid, (l = []));
      l.push(o);
    }
  }
  const out: ObjRecord[] = [];
  const seen = new Set<string>([uid]);
  const walk = (u: string) => {
    for (const c of (children.get(u) ?? []).sort(byNamespaceName)) {
      if (seen.has(c.uid)) continue;
      seen.add(c.uid);
      out.push(c);
      walk(c.uid);
    }
  };
  walk(uid);
  return out;
}

/** Direct children of `uid`, sorted. */
export function childrenOf(objects: Record<string, ObjRecord>, uid: string): ObjRecord[] {
  return Object.values(objects)
    .filter((o) => o.owners?.some((r) => r.uid === uid))
    .sort(byNamespaceName);
}

/** A selection for a record. */
export function selectionOf(rec: ObjRecord): Selection {
  return { uid: rec.uid, kind: rec.kind, namespace: rec.namespace, name: rec.name };
}
