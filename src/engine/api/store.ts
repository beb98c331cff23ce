/**
 * The etcd role: a versioned key-value store of objects with one cluster-wide revision counter
 * and a bounded history of changes that watches replay from.
 *
 * Semantics mirrored from etcd3 as kube-apiserver uses it
 * (staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go): every write bumps the revision and
 * the object's `metadata.resourceVersion` is that revision; history older than the compaction
 * window is gone, and a watch from a compacted revision fails with 410 Gone
 * (`too old resource version: %d (%d)`).
 */
import type { KubeObject } from './types';

/** What happened to an object in one write. */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One entry in the change history. `object` is the stored (post-write, or last) state. */
export interface Change {
  revision: number;
  /** Type key: `<group>/<resource>`, e.g. `/pods`, `apps/deployments`. */
  typeKey: string;
  type: ChangeType;
  object: KubeObject;
  /** The previous state for MODIFIED/DELETED (used to compute selector transitions). */
  previous?: KubeObject;
}

/** Default number of changes kept for watch replay (etcd compacts every 5 min in kind). */
export const DEFAULT_HISTORY_WINDOW = 10_000;
/** Compacted history entries dropped at a time (performance only: amortises the array copy). */
const HISTORY_SLICE_CHUNK = 1024;

/** Where one stored object lives: the index and the insertion order share it (see ObjectStore). */
interface Slot {
  obj: KubeObject;
  /**
   * The writer's word that `obj`'s metadata passed validation (see `put`); false for writes
   * that do not validate it (status, binding, deletion).
   */
  metadataValidated: boolean;
}

/** A stored object and its `metadataValidated` flag, as `slotByName` reads them (read-only). */
export type StoredSlot = Readonly<Slot>;

/**
 * Objects keyed by type key then `namespace/name`. Stored objects are treated as immutable:
 * every write stores a fresh object, so a reference handed to a watcher never changes under it.
 *
 * Layout (performance only): per type, an index namespace -> name -> slot, and the slots in
 * insertion order (a Set) for `values()`. This is the order of a Map keyed by `ns/name` (a
 * replaced object keeps its place, a removed and re-added one goes last) without building and
 * hashing an `ns/name` string per read and write.
 */
export class ObjectStore {
  /** Slots by type key, namespace ('' for cluster-scoped) and name. */
  private readonly byName = new Map<string, Map<string, Map<string, Slot>>>();
  /** Slots by type key, in insertion order. */
  private readonly order = new Map<string, Set<Slot>>();
  private history: Change[] = [];
  private historyStart = 0;
  private rev = 1;
  /** Oldest revision still replayable; a watch from before it gets 410 Gone. */
  compactedRevision = 1;

  constructor(readonly historyWindow = DEFAULT_HISTORY_WINDOW) {}

  /** The current revision (the last written resourceVersion). */
  revision(): number {
    return this.rev;
  }

  /** Take the next revision for a write. */
  nextRevision(): number {
    return ++this.rev;
  }

  /**
   * Object at `key` (`ns/name`, or `/name` for cluster-scoped), or undefined. The namespace is
   * the part before the first '/' (namespaces are DNS labels: they have none).
   */
  get(typeKey: string, key: string): KubeObject | undefined {
    const i = key.indexOf('/');
    if (i < 0) return undefined;
    return this.byName.get(typeKey)?.get(key.slice(0, i))?.get(key.slice(i + 1))?.obj;
  }

  /** `get(typeKey, "<namespace>/<name>")` without building the key (namespace undefined = cluster-scoped). */
  getByName(typeKey: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.byName.get(typeKey)?.get(nsPart(namespace))?.get(namePart(name))?.obj;
  }

  /**
   * `getByName`'s slot: the object and its `metadataValidated` flag (undefined when absent). The
   * slot is live (a later write replaces its fields): read it at once.
   */
  slotByName(typeKey: string, namespace: string | undefined, name: string): StoredSlot | undefined {
    return this.byName.get(typeKey)?.get(nsPart(namespace))?.get(namePart(name));
  }

  /** Every object of a type, in insertion order (live view, as a Map's; callers must not mutate). */
  *values(typeKey: string): IterableIterator<KubeObject> {
    const slots = this.order.get(typeKey);
    if (slots) for (const slot of slots) yield slot.obj;
  }

  /** Number of stored objects of a type. */
  count(typeKey: string): number {
    return this.order.get(typeKey)?.size ?? 0;
  }

  /**
   * Put an object (already stamped with its resourceVersion) at `<namespace>/<name>`
   * (namespace undefined or '' for cluster-scoped) and record the change. `metadataValidated`:
   * the writer validated the object's metadata and left it unchanged since (performance only:
   * a later update with the same metadata may skip checking it again; see validateUpdate).
   */
  put(typeKey: string, namespace: string | undefined, name: string, obj: KubeObject, change: Change, metadataValidated = false): void {
    let byNs = this.byName.get(typeKey);
    if (!byNs) this.byName.set(typeKey, (byNs = new Map()));
    const ns = nsPart(namespace);
    let names = byNs.get(ns);
    if (!names) byNs.set(ns, (names = new Map()));
    const n = namePart(name);
    const slot = names.get(n);
    if (slot) {
      slot.obj = obj;
      slot.metadataValidated = metadataValidated;
    } else {
      const fresh: Slot = { obj, metadataValidated };
      names.set(n, fresh);
      let slots = this.order.get(typeKey);
      if (!slots) this.order.set(typeKey, (slots = new Set()));
      slots.add(fresh);
    }
    this.record(change);
  }

  /** Remove the object at `<namespace>/<name>` and record the DELETED change. */
  remove(typeKey: string, namespace: string | undefined, name: string, change: Change): void {
    const byNs = this.byName.get(typeKey);
    const ns = nsPart(namespace);
    const names = byNs?.get(ns);
    const n = namePart(name);
    const slot = names?.get(n);
    if (slot) {
      names!.delete(n);
      if (names!.size === 0) byNs!.delete(ns);
      this.order.get(typeKey)!.delete(slot);
    }
    this.record(change);
  }

  /** Changes of one type with revision > `fromRevision`, oldest first. Throws nothing; check `compactedRevision` first. */
  since(typeKey: string, fromRevision: number): Change[] {
    const out: Change[] = [];
    // History is in revision order: start at the first change after `fromRevision` (binary search;
    // performance only: a watch from a fresh list replays almost nothing of a long history).
    let lo = this.historyStart;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.history[mid].revision > fromRevision) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < this.history.length; i++) {
      const c = this.history[i];
      if (c.typeKey === typeKey) out.push(c);
    }
    return out;
  }

  private record(change: Change): void {
    this.history.push(change);
    const live = this.history.length - this.historyStart;
    if (live > this.historyWindow) {
      this.historyStart++;
      this.compactedRevision = this.history[this.historyStart].revision - 1;
      // Drop the dead prefix in chunks so the array does not grow without bound (and compacted
      // objects do not stay reachable: a 10k-pod rollout's history is most of the heap).
      if (this.historyStart >= HISTORY_SLICE_CHUNK) {
        this.history = this.history.slice(this.historyStart);
        this.historyStart = 0;
      }
    }
  }
}

/** The namespace part of an `ns/name` key, as a template literal reads `namespace ?? ''`. */
function nsPart(namespace: string | undefined): string {
  return namespace == null ? '' : typeof namespace === 'string' ? namespace : String(namespace);
}

/** The name part of an `ns/name` key (a template literal stringifies a non-string). */
function namePart(name: string): string {
  return typeof name === 'string' ? name : String(name);
}
