/**
 * garbage-collector-controller: deletes objects whose owners are gone, and carries out the
 * Foreground and Orphan deletion policies. Mirrors pkg/controller/garbagecollector
 * (garbagecollector.go, graph_builder.go, graph.go) of Kubernetes 1.32+.
 *
 * How it works, top to bottom:
 *
 * 1. Monitors. One informer per resource type that can be deleted, listed and watched
 *    (`GetDeletableResources`), except Events (`DefaultIgnoredResources`). Custom kinds appear
 *    at run time: every 30 s (`garbageCollector.Sync(..., 30*time.Second)`) the registry is read
 *    again and monitors are added for new types and dropped for removed ones.
 * 2. Graph builder. Informer handlers only put the change (add/update/delete + the object) on the
 *    `graphChanges` queue; one worker applies each change to the owner graph (`uidToNode`:
 *    uid -> node {identity, owners, dependents}) and decides who must be looked at again:
 *    - an owner that is not in the graph yet becomes a *virtual* node, queued for verification;
 *    - an object that goes away queues all its dependents (their owner is gone now);
 *    - an object that starts being deleted with the `orphan` finalizer goes to attemptToOrphan;
 *      with `foregroundDeletion` it is marked "deleting dependents" and it and its dependents
 *      go to attemptToDelete.
 * 3. attemptToDelete workers (`attemptToDeleteItem`). For one node: GET it through the API (never
 *    trust the cache for a delete), then GET each owner through the API (`isDangling`: not found,
 *    or found with another uid = dangling; found with deletionTimestamp + foregroundDeletion =
 *    waiting for dependents; else solid) and:
 *    - some solid owner: keep it (only drop the dangling/waiting references);
 *    - an owner waits for dependents and this node has dependents itself: delete it Foreground;
 *    - otherwise: delete it (Background, or whatever finalizer it already carries).
 *    A node marked "deleting dependents" removes its `foregroundDeletion` finalizer once no
 *    dependent with `blockOwnerDeletion: true` is left (then the API server removes it).
 *    A virtual node that the API does not know is turned into a *virtual delete event*, which
 *    removes it from the graph and queues its dependents.
 * 4. attemptToOrphan workers: remove the ownerReferences pointing at the owner from every
 *    dependent, then remove the `orphan` finalizer.
 *
 * A namespaced owner must live in the dependent's namespace: an ownerReference to an object
 * observed in another namespace gets the Warning Event `OwnerRefInvalidNamespace`, and since the
 * owner is looked up in the dependent's namespace it counts as absent (the dependent is deleted).
 *
 * Simulation notes: queues hold node uids (client-go holds node pointers); nodes are updated in
 * place instead of cloned (the engine is single-threaded). A monitor of a removed custom kind is
 * unhooked from the graph; its informer stays in the process's factory (the factory cannot stop a
 * single informer).
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject, OwnerReference, PropagationPolicy } from '../api/types';
import { deepEqual } from '../api/types';
import { apiVersionOf, type ResourceType } from '../api/registry';
import { ApiError } from '../api/errors';
import { RateLimitingQueue, startWorkers, type ReconcileResult, type Workers } from '../client/workqueue';
import type { HandlerRegistration, Informer } from '../client/informer';
import type { Timer } from '../clock';
import type { TraceObjectRef } from '../trace';

/** Component name (Event source and trace prefix). Source: pkg/controller/garbagecollector/garbagecollector.go. */
export const GC_COMPONENT = 'garbage-collector-controller';

/**
 * How often the set of monitored resource types is refreshed from discovery, virtual ms.
 * Source: cmd/kube-controller-manager/app/core.go (`garbageCollector.Sync(ctx, ..., 30*time.Second)`).
 * Setting key `gcDiscoveryResyncMs`.
 */
export const GC_DISCOVERY_RESYNC_MS = 30_000;

/**
 * Workers of each of the attemptToDelete and attemptToOrphan queues.
 * Source: `--concurrent-gc-syncs` default 20 (pkg/controller/garbagecollector/config/v1alpha1/defaults.go).
 * Setting key `concurrentGcSyncs`.
 */
export const DEFAULT_CONCURRENT_GC_SYNCS = 20;

/** Entries of the absent-owner cache. Source: garbagecollector.go (`NewReferenceCache(500)`). */
export const ABSENT_OWNER_CACHE_SIZE = 500;

/**
 * Resources the GC never monitors, as `group/resource`.
 * Source: pkg/controller/garbagecollector/garbagecollector.go (`DefaultIgnoredResources`).
 */
export const GC_IGNORED_RESOURCES: readonly string[] = ['/events', 'events.k8s.io/events'];

/** The Foreground finalizer (`metav1.FinalizerDeleteDependents`). */
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
/** The Orphan finalizer (`metav1.FinalizerOrphanDependents`). */
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';

const FIELD_MANAGER = 'kube-controller-manager';

// ------------------------------------------------------------------------------ the graph

/** `objectReference`: the owner-reference coordinates of a node plus its namespace ('' = none). */
interface Identity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  namespace: string;
}

/** `node` of graph.go. */
interface GraphNode {
  identity: Identity;
  /** The object's ownerReferences as last observed. */
  owners: OwnerReference[];
  dependents: Set<GraphNode>;
  /** Not (yet) observed through an informer: known only as someone's owner. */
  virtual: boolean;
  beingDeleted: boolean;
  /** Being deleted with the foregroundDeletion finalizer. */
  deletingDependents: boolean;
}

/** One entry of `graphChanges` (graph_builder.go `event`). */
interface GraphEvent {
  type: 'add' | 'update' | 'delete';
  obj: KubeObject;
  oldObj?: KubeObject;
  apiVersion: string;
  kind: string;
  /** A delete produced by the GC itself after the API said the object does not exist. */
  virtual: boolean;
  /** For virtual deletes: how the absence was verified (kept in the absent-owner cache for traces). */
  why?: string;
}

/** `objectReference.String()`: `[v1/ConfigMap, namespace: shop, name: owner, uid: ...]`. */
function identityString(i: Identity): string {
  return `[${i.apiVersion}/${i.kind}, namespace: ${i.namespace}, name: ${i.name}, uid: ${i.uid}]`;
}

function identityKey(i: Identity): string {
  return `${i.apiVersion}|${i.kind}|${i.namespace}|${i.name}|${i.uid}`;
}

function sameIdentity(a: Identity, b: Identity): boolean {
  return identityKey(a) === identityKey(b);
}

/** `ownerReferenceMatchesCoordinates`. */
function refMatches(a: OwnerReference, b: { uid: string; name: string; kind: string; apiVersion: string }): boolean {
  return a.uid === b.uid && a.name === b.name && a.kind === b.kind && a.apiVersion === b.apiVersion;
}

function hasFinalizer(obj: KubeObject, f: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(f);
}

/** `namespace/name`, or `name` for cluster-scoped objects (how traces name objects). */
function displayName(i: Identity): string {
  return i.namespace ? `${i.namespace}/${i.name}` : i.name;
}

function traceRef(i: Identity): TraceObjectRef {
  return { kind: i.kind, ...(i.namespace ? { namespace: i.namespace } : {}), name: i.name, uid: i.uid };
}

/** A reference to a kind the API server does not serve (`restMappingError`): retried with backoff. */
class RestMappingError extends Error {}

/**
 * A tiny LRU (`ReferenceCache`) of owners verified absent. The value is why (for traces):
 * `is gone`, or `is gone (the live ConfigMap of that name has uid ...)`.
 */
class AbsentOwnerCache {
  private items = new Map<string, string>();
  constructor(private readonly max: number) {}
  get(k: string): string | undefined {
    const v = this.items.get(k);
    if (v === undefined) return undefined;
    this.items.delete(k);
    this.items.set(k, v);
    return v;
  }
  add(k: string, why = IS_GONE): void {
    this.items.delete(k);
    this.items.set(k, why);
    if (this.items.size > this.max) this.items.delete(this.items.keys().next().value as string);
  }
}

const IS_GONE = 'is gone';

/**
 * The dependents of a node that has had none: one shared empty set, replaced by the node's own
 * set with its first dependent (`addDependentToOwners`; the only other change, a `delete`, finds
 * nothing in it). Performance only: most objects (pods) never own anything, and an empty Set
 * per graph node was ~2 MB at 10k pods.
 */
const NO_DEPENDENTS: Set<GraphNode> = new Set();
const uidMismatch = (kind: string, liveUid: string | undefined) => `is gone (the live ${kind} of that name has uid ${liveUid})`;

// ------------------------------------------------------------------------------ the controller

interface Monitor {
  type: ResourceType;
  informer: Informer;
  registration: HandlerRegistration;
}

/**
 * Start the garbage collector. Returns a Controller whose `stop()` drops the graph, the three
 * queues, the monitors' handlers and the discovery resync timer.
 */
export function newGarbageCollector(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(GC_COMPONENT);
  const trace = (i: Identity, message: string) => ctx.trace(GC_COMPONENT, `${displayName(i)} ${message}`, traceRef(i));
  const workers = ctx.setting('concurrentGcSyncs', DEFAULT_CONCURRENT_GC_SYNCS);
  const resyncMs = ctx.setting('gcDiscoveryResyncMs', GC_DISCOVERY_RESYNC_MS);

  const uidToNode = new Map<string, GraphNode>();
  const absentOwnerCache = new AbsentOwnerCache(ABSENT_OWNER_CACHE_SIZE);
  const monitors = new Map<string, Monitor>();

  const graphChanges = new RateLimitingQueue(clock, { name: `${GC_COMPONENT}-graph-changes` });
  const pendingChanges = new Map<string, GraphEvent>();
  let changeSeq = 0;
  const attemptToDelete = new RateLimitingQueue(clock, { name: `${GC_COMPONENT}-attempt-to-delete` });
  const attemptToOrphan = new RateLimitingQueue(clock, { name: `${GC_COMPONENT}-attempt-to-orphan` });

  let stopped = false;
  let resyncTimer: Timer | undefined;

  // ---------------------------------------------------------------- monitors (informers)

  const typeKey = (t: ResourceType) => `${t.group}/${t.resource}`;

  /** `GetDeletableResources` minus the ignored ones. */
  const deletableTypes = (): ResourceType[] =>
    api.registry
      .all()
      .filter((t) => ['delete', 'list', 'watch'].every((v) => t.verbs.includes(v)) && !GC_IGNORED_RESOURCES.includes(typeKey(t)));

  /** The informer name: the plain plural when it is unambiguous (so informers are shared). */
  const informerName = (t: ResourceType): string => {
    const plain = api.registry.resolve(t.resource);
    return plain && plain.group === t.group && plain.resource === t.resource ? t.resource : `${t.resource}.${t.group}`;
  };

  const enqueueChange = (ev: GraphEvent) => {
    const key = String(++changeSeq);
    pendingChanges.set(key, ev);
    graphChanges.add(key);
  };

  const addMonitor = (t: ResourceType) => {
    const apiVersion = apiVersionOf(t);
    const kind = t.kind;
    const informer = ctx.informers.informer(informerName(t));
    // Handlers only queue the change; the graph builder's worker applies it.
    const registration = informer.addEventHandler({
      onAdd: (obj) => enqueueChange({ type: 'add', obj, apiVersion, kind, virtual: false }),
      onUpdate: (oldObj, obj) => enqueueChange({ type: 'update', obj, oldObj, apiVersion, kind, virtual: false }),
      onDelete: (obj) => enqueueChange({ type: 'delete', obj, apiVersion, kind, virtual: false }),
    });
    monitors.set(typeKey(t), { type: t, informer, registration });
  };

  /**
   * The registry's type list as of the last `syncMonitors`, after which `monitors` held exactly
   * its deletable types (performance only, see there).
   */
  let syncedTypes: readonly ResourceType[] | undefined;

  /** `resyncMonitors`: start monitors for new deletable types, stop those of removed types. */
  const syncMonitors = (): { added: string[]; removed: string[] } => {
    // The skip, and why it changes nothing: the registry replaces its type list with a new array
    // whenever a type is added or removed (`addCustom`, `removeCustom`; the types themselves are
    // never changed), and only this function changes `monitors` while the collector runs. The
    // same array as last time means the same deletable types, already each with a monitor and
    // no other: the pass would add none and remove none.
    const types = api.registry.all();
    if (types === syncedTypes) return { added: [], removed: [] };
    const wanted = new Map(deletableTypes().map((t) => [typeKey(t), t]));
    const added: string[] = [];
    const removed: string[] = [];
    for (const [k, t] of wanted) {
      if (!monitors.has(k)) {
        addMonitor(t);
        added.push(t.group ? `${t.resource}.${t.group}` : t.resource);
      }
    }
    for (const [k, m] of [...monitors]) {
      if (!wanted.has(k)) {
        m.registration.remove();
        monitors.delete(k);
        removed.push(m.type.group ? `${m.type.resource}.${m.type.group}` : m.type.resource);
      }
    }
    syncedTypes = types;
    return { added, removed };
  };

  syncMonitors();

  const scheduleResync = () => {
    resyncTimer = clock.schedule(
      resyncMs,
      () => {
        if (stopped) return;
        const { added, removed } = syncMonitors();
        if (added.length || removed.length) {
          ctx.trace(GC_COMPONENT, `resynced monitors: added [${added.join(' ')}], removed [${removed.join(' ')}]`);
          if (ctx.informers.isRunning()) ctx.informers.start();
        }
        scheduleResync();
      },
      { label: `${GC_COMPONENT}: discovery resync`, background: true },
    );
  };
  scheduleResync();

  // ---------------------------------------------------------------- graph builder

  /** `reportInvalidNamespaceOwnerRef`: Warning Event on the dependent. */
  const reportInvalidNamespaceOwnerRef = (n: GraphNode, ownerUid: string) => {
    const ref = n.owners.find((o) => o.uid === ownerUid);
    if (!ref) return;
    const invalid: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: n.identity.namespace };
    const message = `ownerRef ${identityString(invalid)} does not exist in namespace ${JSON.stringify(n.identity.namespace)}`;
    recorder.event(
      { kind: n.identity.kind, namespace: n.identity.namespace || undefined, name: n.identity.name, uid: n.identity.uid, apiVersion: n.identity.apiVersion },
      'Warning',
      'OwnerRefInvalidNamespace',
      message,
    );
    trace(n.identity, `ownerReference to ${ref.kind}/${ref.name} points to another namespace -> OwnerRefInvalidNamespace`);
  };

  /** `addDependentToOwners`: link `n` under each owner, creating virtual owner nodes. */
  const addDependentToOwners = (n: GraphNode, owners: OwnerReference[]) => {
    let potentiallyInvalid = false;
    for (const owner of owners) {
      let ownerNode = uidToNode.get(owner.uid);
      if (!ownerNode) {
        // A virtual node: verified (or removed) by attemptToDelete through an API GET.
        ownerNode = {
          identity: { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, namespace: n.identity.namespace },
          owners: [],
          dependents: new Set([n]),
          virtual: true,
          beingDeleted: false,
          deletingDependents: false,
        };
        uidToNode.set(owner.uid, ownerNode);
        attemptToDelete.add(owner.uid);
        continue;
      }
      if (ownerNode.dependents === NO_DEPENDENTS) ownerNode.dependents = new Set([n]);
      else ownerNode.dependents.add(n);
      if (potentiallyInvalid) continue;
      const ownerIsNamespaced = ownerNode.identity.namespace.length > 0;
      if (ownerIsNamespaced && ownerNode.identity.namespace !== n.identity.namespace) {
        if (!ownerNode.virtual) reportInvalidNamespaceOwnerRef(n, owner.uid);
        potentiallyInvalid = true;
      } else if (!refMatches(owner, ownerNode.identity)) {
        potentiallyInvalid = true;
      } else if (!ownerIsNamespaced && ownerNode.identity.namespace !== n.identity.namespace && ownerNode.virtual) {
        potentiallyInvalid = true;
      }
    }
    if (potentiallyInvalid) attemptToDelete.add(n.identity.uid);
  };

  const removeDependentFromOwners = (n: GraphNode, owners: OwnerReference[]) => {
    for (const o of owners) uidToNode.get(o.uid)?.dependents.delete(n);
  };

  /** `partitionDependents`: dependents whose reference matches `owner`'s coordinates, and the others. */
  const partitionDependents = (deps: Iterable<GraphNode>, owner: Identity): [GraphNode[], GraphNode[]] => {
    const matching: GraphNode[] = [];
    const nonmatching: GraphNode[] = [];
    const ownerIsNamespaced = owner.namespace.length > 0;
    for (const dep of deps) {
      let match = false;
      let mismatch = ownerIsNamespaced && owner.namespace !== dep.identity.namespace;
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (refMatches(ref, owner)) match = true;
        else mismatch = true;
      }
      if (mismatch) nonmatching.push(dep);
      else if (match) matching.push(dep);
    }
    return [matching, nonmatching];
  };

  /** `getAlternateOwnerIdentity` (simplified: the first other coordinates a dependent uses). */
  const alternateOwnerIdentity = (deps: GraphNode[], absent: Identity): Identity | undefined => {
    for (const dep of deps) {
      for (const ref of dep.owners) {
        if (ref.uid !== absent.uid) continue;
        if (refMatches(ref, absent) && absent.namespace === dep.identity.namespace) continue;
        const alt: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: dep.identity.namespace };
        if (!absent.namespace && alt.apiVersion === absent.apiVersion && alt.kind === absent.kind) alt.namespace = '';
        if (!sameIdentity(alt, absent)) return alt;
      }
    }
    return undefined;
  };

  /** `processTransitions`: the object starts being deleted with orphan / foregroundDeletion. */
  const processTransitions = (oldObj: KubeObject | undefined, obj: KubeObject, n: GraphNode) => {
    if (startsDeletingWith(oldObj, obj, FINALIZER_ORPHAN_DEPENDENTS)) {
      attemptToOrphan.add(n.identity.uid);
      return;
    }
    if (startsDeletingWith(oldObj, obj, FINALIZER_DELETE_DEPENDENTS)) {
      n.deletingDependents = true;
      for (const dep of n.dependents) attemptToDelete.add(dep.identity.uid);
      attemptToDelete.add(n.identity.uid);
    }
  };

  /** `processGraphChanges`: apply one change to the graph. */
  const processGraphChange = (key: string): void => {
    const ev = pendingChanges.get(key);
    pendingChanges.delete(key);
    if (!ev) return;
    const obj = ev.obj;
    const meta = obj.metadata;
    const uid = meta.uid ?? '';
    const observed: Identity = { apiVersion: ev.apiVersion, kind: ev.kind, name: meta.name ?? '', uid, namespace: meta.namespace ?? '' };
    const existing = uidToNode.get(uid);
    if (existing && !ev.virtual && existing.virtual) {
      // First informer sighting of a node known only as an owner.
      if (!sameIdentity(observed, existing.identity)) {
        const [, potentiallyInvalid] = partitionDependents(existing.dependents, observed);
        for (const dep of potentiallyInvalid) {
          if (observed.namespace && dep.identity.namespace !== observed.namespace) reportInvalidNamespaceOwnerRef(dep, uid);
          attemptToDelete.add(dep.identity.uid);
        }
        existing.identity = observed;
      }
      existing.virtual = false;
    }
    if ((ev.type === 'add' || ev.type === 'update') && !existing) {
      const n: GraphNode = {
        identity: observed,
        owners: [...(meta.ownerReferences ?? [])],
        dependents: NO_DEPENDENTS,
        virtual: false,
        beingDeleted: !!meta.deletionTimestamp,
        deletingDependents: !!meta.deletionTimestamp && hasFinalizer(obj, FINALIZER_DELETE_DEPENDENTS),
      };
      uidToNode.set(uid, n);
      addDependentToOwners(n, n.owners);
      processTransitions(ev.oldObj, obj, n);
      return;
    }
    if ((ev.type === 'add' || ev.type === 'update') && existing) {
      if (!ev.virtual && (existing.identity.apiVersion !== ev.apiVersion || existing.identity.kind !== ev.kind)) {
        existing.identity = { ...existing.identity, apiVersion: ev.apiVersion, kind: ev.kind };
      }
      const { added, removed, changed } = referencesDiffs(existing.owners, meta.ownerReferences ?? []);
      if (added.length || removed.length || changed.length) {
        // `addUnblockedOwnersToDeleteQueue`: a blocking reference went away: its owner may be done.
        for (const ref of removed) if (ref.blockOwnerDeletion && uidToNode.has(ref.uid)) attemptToDelete.add(ref.uid);
        for (const [oldRef, newRef] of changed) {
          if (oldRef.blockOwnerDeletion && !newRef.blockOwnerDeletion && uidToNode.has(newRef.uid)) attemptToDelete.add(newRef.uid);
        }
        existing.owners = [...(meta.ownerReferences ?? [])];
        addDependentToOwners(existing, added);
        removeDependentFromOwners(existing, removed);
      }
      if (meta.deletionTimestamp) existing.beingDeleted = true;
      processTransitions(ev.oldObj, obj, existing);
      return;
    }
    // delete
    if (!existing) return;
    let removeNode = true;
    if (ev.virtual) {
      if (existing.virtual) {
        const [matching, nonmatching] = partitionDependents(existing.dependents, observed);
        if (nonmatching.length > 0) {
          // Some dependents name this owner with other coordinates: keep the node for them.
          removeNode = false;
          if (matching.length > 0) {
            absentOwnerCache.add(identityKey(observed), ev.why);
            for (const dep of matching) attemptToDelete.add(dep.identity.uid);
          }
          if (sameIdentity(existing.identity, observed)) {
            const alt = alternateOwnerIdentity(nonmatching, observed);
            if (alt) {
              existing.identity = alt;
              attemptToDelete.addRateLimited(uid);
            }
          }
        }
      } else if (!sameIdentity(existing.identity, observed)) {
        removeNode = false;
        const [matching] = partitionDependents(existing.dependents, observed);
        if (matching.length > 0) {
          absentOwnerCache.add(identityKey(observed), ev.why);
          for (const dep of matching) attemptToDelete.add(dep.identity.uid);
        }
      }
    }
    if (!removeNode) return;
    uidToNode.delete(uid);
    removeDependentFromOwners(existing, existing.owners);
    if (existing.dependents.size > 0) absentOwnerCache.add(identityKey(observed), ev.why);
    // The owner is gone: every dependent must be looked at (its owner reference now dangles).
    for (const dep of existing.dependents) attemptToDelete.add(dep.identity.uid);
    // An owner deleting its dependents in the foreground may be done now.
    for (const o of existing.owners) {
      const ownerNode = uidToNode.get(o.uid);
      if (ownerNode?.deletingDependents) attemptToDelete.add(o.uid);
    }
  };

  /** `enqueueVirtualDeleteEvent`. */
  const enqueueVirtualDelete = (i: Identity, why?: string) => {
    enqueueChange({
      why,
      type: 'delete',
      obj: { apiVersion: i.apiVersion, kind: i.kind, metadata: { name: i.name, uid: i.uid, ...(i.namespace ? { namespace: i.namespace } : {}) } },
      apiVersion: i.apiVersion,
      kind: i.kind,
      virtual: true,
    });
  };

  // ---------------------------------------------------------------- API helpers

  /** `apiResource`: the served type of an apiVersion/kind, or RestMappingError. */
  const resolveKind = (apiVersion: string, kind: string): ResourceType => {
    const t = api.registry.byKind(apiVersion, kind);
    if (!t) throw new RestMappingError(`unable to get REST mapping for ${apiVersion}/${kind}.`);
    return t;
  };

  const getObject = (i: Identity): KubeObject => {
    const t = resolveKind(i.apiVersion, i.kind);
    return api.get(t, t.namespaced ? i.namespace : undefined, i.name);
  };

  /** `deleteObject`: delete with uid + resourceVersion preconditions, retrying once without the latter. */
  const deleteObject = (i: Identity, resourceVersion: string | undefined, ownersAtRv: OwnerReference[] | undefined, policy: PropagationPolicy) => {
    const t = resolveKind(i.apiVersion, i.kind);
    const ns = t.namespaced ? i.namespace : undefined;
    try {
      api.delete(t, ns, i.name, { propagationPolicy: policy, preconditions: { uid: i.uid, resourceVersion }, fieldManager: FIELD_MANAGER });
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 409 && resourceVersion)) throw e;
      const live = api.tryGet(t, ns, i.name);
      if (!live) return;
      if (live.metadata.uid === i.uid && live.metadata.resourceVersion !== resourceVersion && deepEqual(live.metadata.ownerReferences, ownersAtRv)) {
        // The object changed, but not its owners: delete without the resourceVersion precondition.
        api.delete(t, ns, i.name, { propagationPolicy: policy, preconditions: { uid: i.uid }, fieldManager: FIELD_MANAGER });
        return;
      }
      throw e;
    }
  };

  /** Remove the ownerReferences with these uids from the live object (`deleteOwnerRefJSONMergePatch`). */
  const removeOwnerRefs = (i: Identity, ownerUids: string[]) => {
    const t = resolveKind(i.apiVersion, i.kind);
    const ns = t.namespaced ? i.namespace : undefined;
    const live = api.get(t, ns, i.name);
    if (live.metadata.uid !== i.uid) return;
    const refs = (live.metadata.ownerReferences ?? []).filter((r) => !ownerUids.includes(r.uid));
    if (refs.length === (live.metadata.ownerReferences ?? []).length) return;
    api.patch(t, ns, i.name, 'merge', { metadata: { uid: i.uid, resourceVersion: live.metadata.resourceVersion, ownerReferences: refs.length ? refs : null } }, { fieldManager: FIELD_MANAGER });
  };

  /** `removeFinalizer` (merge patch with a resourceVersion precondition; a Conflict is retried). */
  const removeFinalizer = (i: Identity, finalizer: string): boolean => {
    const t = resolveKind(i.apiVersion, i.kind);
    const ns = t.namespaced ? i.namespace : undefined;
    const live = api.tryGet(t, ns, i.name);
    if (!live || !hasFinalizer(live, finalizer)) return false;
    const rest = (live.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    api.patch(t, ns, i.name, 'merge', { metadata: { resourceVersion: live.metadata.resourceVersion, finalizers: rest.length ? rest : null } }, { fieldManager: FIELD_MANAGER });
    return true;
  };

  // ---------------------------------------------------------------- attemptToDelete

  const blockingDependents = (n: GraphNode): GraphNode[] =>
    [...n.dependents].filter((dep) => dep.owners.some((o) => o.uid === n.identity.uid && o.blockOwnerDeletion === true));

  /** `processDeletingDependentsItem`. */
  const processDeletingDependents = (n: GraphNode) => {
    const blocking = blockingDependents(n);
    if (blocking.length === 0) {
      if (removeFinalizer(n.identity, FINALIZER_DELETE_DEPENDENTS)) {
        trace(n.identity, `has no dependents with blockOwnerDeletion left -> remove finalizer ${FINALIZER_DELETE_DEPENDENTS}`);
      }
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) attemptToDelete.add(dep.identity.uid);
  };

  /** `isDangling` for one reference: [dangling, owner object (when found)]. */
  const isDangling = (ref: OwnerReference, item: GraphNode): [boolean, KubeObject | undefined, string] => {
    const coords: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace: '' };
    const cached = absentOwnerCache.get(identityKey(coords));
    if (cached) return [true, undefined, cached];
    const nsKey: Identity = { ...coords, namespace: item.identity.namespace };
    const cachedNs = absentOwnerCache.get(identityKey(nsKey));
    if (cachedNs) return [true, undefined, cachedNs];
    const t = resolveKind(ref.apiVersion, ref.kind);
    const cacheKey = t.namespaced ? nsKey : coords;
    if (!item.identity.namespace && t.namespaced) throw new NamespacedOwnerOfClusterScopedObject();
    const owner = api.tryGet(t, t.namespaced ? item.identity.namespace : undefined, ref.name);
    if (!owner) {
      absentOwnerCache.add(identityKey(cacheKey));
      return [true, undefined, IS_GONE];
    }
    if (owner.metadata.uid !== ref.uid) {
      const why = uidMismatch(ref.kind, owner.metadata.uid);
      absentOwnerCache.add(identityKey(cacheKey), why);
      return [true, undefined, why];
    }
    return [false, owner, ''];
  };

  /**
   * `attemptToDeleteItem` + the worker's result handling. Key: the node's uid.
   */
  const attemptToDeleteKey = (uid: string): ReconcileResult | void => {
    const n = uidToNode.get(uid);
    if (!n) return; // no longer in the graph
    try {
      attemptToDeleteItem(n);
    } catch (e) {
      if (e instanceof VirtualDeleteEnqueued || e instanceof NamespacedOwnerOfClusterScopedObject) return;
      if (e instanceof RestMappingError) return { requeue: true };
      throw e;
    }
    // A virtual node that exists is polled until an informer observes it.
    if (n.virtual) return { requeue: true };
  };

  const attemptToDeleteItem = (item: GraphNode): void => {
    if (item.beingDeleted && !item.deletingDependents) return;
    let latest: KubeObject;
    try {
      latest = getObject(item.identity);
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) {
        enqueueVirtualDelete(item.identity);
        throw new VirtualDeleteEnqueued();
      }
      throw e;
    }
    if (latest.metadata.uid !== item.identity.uid) {
      enqueueVirtualDelete(item.identity, uidMismatch(item.identity.kind, latest.metadata.uid));
      throw new VirtualDeleteEnqueued();
    }
    if (item.deletingDependents) {
      processDeletingDependents(item);
      return;
    }
    // Already being deleted (our own earlier delete, not yet seen by the graph): nothing to do.
    // (The real GC issues the same delete again here; the outcome is the same.)
    if (latest.metadata.deletionTimestamp) return;
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;

    // classifyReferences
    const solid: OwnerReference[] = [];
    const dangling: [OwnerReference, string][] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const [isGone, owner, why] = isDangling(ref, item);
      if (isGone) dangling.push([ref, why]);
      else if (owner!.metadata.deletionTimestamp && hasFinalizer(owner!, FINALIZER_DELETE_DEPENDENTS)) waiting.push(ref);
      else solid.push(ref);
    }

    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      const drop = [...dangling.map(([r]) => r), ...waiting];
      trace(item.identity, `still has owner ${solid.map((r) => `${r.kind}/${r.name}`).join(', ')} -> remove ownerReferences to ${drop.map((r) => `${r.kind}/${r.name}`).join(', ')}`);
      removeOwnerRefs(item.identity, drop.map((r) => r.uid));
      return;
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      for (const dep of item.dependents) {
        if (dep.deletingDependents) {
          // Cycle guard of the real GC: make this item's references non-blocking first.
          unblockOwnerReferences(item.identity);
          break;
        }
      }
      trace(item.identity, `owner ${waiting.map((r) => `${r.kind}/${r.name}`).join(', ')} is deleting its dependents and this object has dependents -> delete (propagationPolicy Foreground)`);
      deleteOrVirtual(item.identity, latest, 'Foreground');
      return;
    }
    const policy: PropagationPolicy = hasFinalizer(latest, FINALIZER_ORPHAN_DEPENDENTS)
      ? 'Orphan'
      : hasFinalizer(latest, FINALIZER_DELETE_DEPENDENTS)
        ? 'Foreground'
        : 'Background';
    const reasons = [
      ...dangling.map(([r, why]) => `owner ${r.kind}/${r.name} ${why}`),
      ...waiting.map((r) => `owner ${r.kind}/${r.name} is deleting its dependents`),
    ].join(', ');
    trace(item.identity, `${reasons} -> delete${policy === 'Background' ? '' : ` (propagationPolicy ${policy})`}`);
    deleteOrVirtual(item.identity, latest, policy);
  };

  const deleteOrVirtual = (i: Identity, latest: KubeObject, policy: PropagationPolicy) => {
    try {
      deleteObject(i, latest.metadata.resourceVersion, latest.metadata.ownerReferences, policy);
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) {
        enqueueVirtualDelete(i);
        throw new VirtualDeleteEnqueued();
      }
      throw e;
    }
  };

  /** `unblockOwnerReferencesJSONMergePatch`: set blockOwnerDeletion false on every blocking reference. */
  const unblockOwnerReferences = (i: Identity) => {
    const t = resolveKind(i.apiVersion, i.kind);
    const ns = t.namespaced ? i.namespace : undefined;
    const live = api.get(t, ns, i.name);
    const refs = (live.metadata.ownerReferences ?? []).map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r));
    api.patch(t, ns, i.name, 'merge', { metadata: { uid: i.uid, resourceVersion: live.metadata.resourceVersion, ownerReferences: refs } }, { fieldManager: FIELD_MANAGER });
  };

  // ---------------------------------------------------------------- attemptToOrphan

  /** `attemptToOrphanWorker`: drop the owner from its dependents' references, then the finalizer. */
  const attemptToOrphanKey = (uid: string): ReconcileResult | void => {
    const owner = uidToNode.get(uid);
    if (!owner) return;
    const dependents = [...owner.dependents];
    for (const dep of dependents) {
      try {
        removeOwnerRefs(dep.identity, [uid]);
      } catch (e) {
        if (e instanceof RestMappingError) return { requeue: true };
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    try {
      if (removeFinalizer(owner.identity, FINALIZER_ORPHAN_DEPENDENTS)) {
        trace(owner.identity, `orphaned ${dependents.length} dependent(s) (ownerReferences removed) -> remove finalizer ${FINALIZER_ORPHAN_DEPENDENTS}`);
      }
    } catch (e) {
      if (e instanceof RestMappingError) return { requeue: true };
      throw e;
    }
  };

  // ---------------------------------------------------------------- workers

  const graphWorkers: Workers = startWorkers(graphChanges, processGraphChange, { clock, name: `${GC_COMPONENT}: graph builder` });
  const deleteWorkers: Workers = startWorkers(attemptToDelete, attemptToDeleteKey, { clock, name: `${GC_COMPONENT}: attemptToDelete`, workers });
  const orphanWorkers: Workers = startWorkers(attemptToOrphan, attemptToOrphanKey, { clock, name: `${GC_COMPONENT}: attemptToOrphan`, workers });

  return {
    name: GC_COMPONENT,
    stop() {
      stopped = true;
      resyncTimer?.cancel();
      graphWorkers.stop();
      deleteWorkers.stop();
      orphanWorkers.stop();
      for (const m of monitors.values()) m.registration.remove();
      monitors.clear();
      uidToNode.clear();
      pendingChanges.clear();
    },
  };
}

/** Marker: a virtual delete event was queued instead (`enqueuedVirtualDeleteEventErr`). */
class VirtualDeleteEnqueued extends Error {}
/** Marker: `namespacedOwnerOfClusterScopedObjectErr` (never retried). */
class NamespacedOwnerOfClusterScopedObject extends Error {}

/** An empty `referencesDiffs` answer (shared, never written: callers only read it). */
const NO_REFERENCE_DIFFS: { added: OwnerReference[]; removed: OwnerReference[]; changed: [OwnerReference, OwnerReference][] } = { added: [], removed: [], changed: [] };

/** `referencesDiffs`: references added, removed, and changed (same uid, other fields). */
function referencesDiffs(
  old: OwnerReference[],
  next: readonly OwnerReference[],
): { added: OwnerReference[]; removed: OwnerReference[]; changed: [OwnerReference, OwnerReference][] } {
  // No reference, or the same single reference (same uid, deepEqual): the loop below would find
  // nothing added, removed or changed. Returned without a map and three arrays (performance
  // only: every watched update, most of them Lease renewals, asks). Callers only read the lists.
  if (next.length === old.length && (old.length === 0 || (old.length === 1 && old[0].uid === next[0].uid && deepEqual(old[0], next[0])))) return NO_REFERENCE_DIFFS;
  const oldByUid = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: [OwnerReference, OwnerReference][] = [];
  for (const r of next) {
    const o = oldByUid.get(r.uid);
    if (o) {
      if (!deepEqual(o, r)) changed.push([o, r]);
      oldByUid.delete(r.uid);
    } else {
      added.push(r);
    }
  }
  return { added, removed: [...oldByUid.values()], changed };
}

/** `obj` is being deleted with finalizer `f` and `oldObj` was not (a transition `processTransitions` acts on). */
function startsDeletingWith(oldObj: KubeObject | undefined, obj: KubeObject, f: string): boolean {
  return !!obj.metadata.deletionTimestamp && hasFinalizer(obj, f) && (!oldObj || !oldObj.metadata.deletionTimestamp || !hasFinalizer(oldObj, f));
}
