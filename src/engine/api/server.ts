/**
 * The simulated kube-apiserver: the one door every component (controllers, scheduler, kubelets,
 * kubectl) uses to read and write cluster state.
 *
 * Request flow, as in staging/src/k8s.io/apiserver/pkg/endpoints/handlers and
 * pkg/registry/generic/registry/store.go:
 *   resolve type -> namespace/name checks -> defaulting -> mutating admission ->
 *   validation -> validating admission -> stamp metadata -> write to the store (etcd role) ->
 *   fan out watch events (delivered through the virtual clock after a small latency).
 *
 * All calls are synchronous in virtual time and throw `ApiError` on failure. Nothing is written
 * for a rejected request. Returned objects are copies the caller may mutate; objects delivered
 * to watchers are shared and must be treated as read-only.
 *
 * Availability is a switch the node layer drives (`setAvailability`): while kube-apiserver is
 * not running every call throws the client's connection-refused error and open watches end.
 */
import { evictPod } from './eviction';
import { admitQuota } from './quota';
import { limitRangerMutate, limitRangerValidate } from './limitrange';
import { Clock, Rng, type DelayLine } from '../clock';
import { ApiError, errors, field, type FieldError } from './errors';
import { ObjectStore, type ChangeType, DEFAULT_HISTORY_WINDOW } from './store';
import { ResourceRegistry, apiVersionOf, type ResourceType } from './registry';
import { compactCondition, deepCopy, deepEqual, objectsEqualMetadataLast, splitApiVersion, type KubeList, type KubeObject, type ObjectMeta, type PropagationPolicy, type WatchEvent } from './types';
import { parseFieldSelector, parseLabelSelector, selectorFromLabelSelector, selectorFromSet, type Selector } from './labels';
import { applyDefaults } from './defaults';
import { BOOTSTRAP_POLICY_RNG_SALT, bootstrapPolicyObjects } from './bootstrappolicy';
import { checkDecodable, validateCreate, validateUpdate } from './validation';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, strategicMergeSupported } from './patch';
import { goJsonMarshal, planApply } from './apply';
import { crdToResourceType, pruneUnknownFields, schemaForVersion, validateCrd, validateCustomResource } from './crd';
import { Admission, SYSTEM_PRIORITY_CLASSES } from './admission';
import { decodeCustomResource, decodePatchedObject, decodeRequestBody, goPlusV, type Decoded, type FieldValidation } from './decode';

/** Who is calling, for traces and `managedFields` (the client's user agent / field manager). */
export interface RequestOptions {
  /** e.g. `kubectl-client-side-apply`, `kube-controller-manager`, `kubelet`. */
  fieldManager?: string;
  /** `--dry-run=server`: run every check, write nothing. */
  dryRun?: boolean;
  /**
   * `?fieldValidation=` (kubectl >= 1.27 sends Strict unless `--validate=warn|false`): decode the
   * body strictly against the kind's field table (./decode.ts). Unset: not checked (controllers
   * write typed objects).
   */
  fieldValidation?: FieldValidation;
  /** Sink for the response's `Warning` headers (`unknown field "spec.foo"` with Warn). */
  warnings?: string[];
  /**
   * Performance only: the caller only reads the returned object (or ignores it), so create,
   * update, updateStatus and patch return the stored object itself instead of a copy. Stored
   * objects are never mutated; the caller must not mutate the result either.
   */
  sharedResult?: boolean;
}

/** The object a write answers with: a copy, or the stored object itself for `sharedResult` callers. */
function answer(opts: RequestOptions, o: KubeObject): KubeObject {
  return opts.sharedResult ? o : deepCopy(o);
}

/** Hands a decoded request's warnings to its caller's sink (when it gave one); returns the decoded object. */
function warn<T>(opts: RequestOptions, decoded: Decoded<T>): T {
  if (decoded.warnings.length) opts.warnings?.push(...decoded.warnings);
  return decoded.object;
}

/** Options of list and watch (metav1.ListOptions). */
export interface ListOptions {
  /** Namespace to list in; undefined lists across all namespaces. */
  namespace?: string;
  /** `kubectl -l` syntax, or a compiled Selector. */
  labelSelector?: string | Selector;
  /** `--field-selector` syntax. */
  fieldSelector?: string;
}

/** Options of watch: list options plus the revision to start after. */
export interface WatchOptions extends ListOptions {
  /** Start after this resourceVersion; undefined or '0' starts from now. */
  resourceVersion?: string;
}

/** Options of delete (metav1.DeleteOptions). */
export interface DeleteOptions extends RequestOptions {
  /** Seconds; undefined uses the object's default (pods: terminationGracePeriodSeconds). */
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** Patch types (the Content-Type of a PATCH request). */
export type PatchType = 'merge' | 'json' | 'strategic';

/** A live watch; `stop()` ends it (no more events are delivered). */
export interface WatchHandle {
  stop(): void;
  readonly stopped: boolean;
}

/**
 * The handle `watch` returns: a method and a getter on one prototype instead of two closures
 * per watch (performance only: every informer of every process holds one).
 */
class ServerWatchHandle implements WatchHandle {
  constructor(
    private readonly w: Watcher,
    private readonly end: (w: Watcher) => void,
  ) {}

  stop(): void {
    this.end(this.w);
  }

  get stopped(): boolean {
    return this.w.stopped;
  }
}

/** One write, as the trace and the determinism digest see it. */
export interface WriteRecord {
  type: ChangeType;
  resource: ResourceType;
  object: KubeObject;
  revision: number;
  fieldManager?: string;
}

/** The `Status` a successful subresource call (binding) answers with. */
export interface StatusSuccess {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success';
  code: number;
}

/** What the API can be: running, down (connection refused), or running without etcd. */
export type Availability = 'up' | 'down' | 'etcd-unreachable';

/** Result of `apply` (client-side apply), with the verb kubectl prints. */
export interface ApplyResult {
  verb: 'created' | 'configured' | 'unchanged';
  object: KubeObject;
}

/** Tunables of the API server. */
export interface ApiServerOptions {
  /** Virtual ms between a write and its delivery to watchers. Default 1 ms. */
  watchLatencyMs?: number;
  /** Changes kept for watch replay before compaction. */
  historyWindow?: number;
  /** Event TTL in virtual ms (`--event-ttl`, default 1 h). */
  eventTtlMs?: number;
  /**
   * Create what kube-apiserver creates on its first start (default true): the namespaces
   * default, kube-system, kube-public, kube-node-lease, the `kubernetes` Service (10.96.0.1)
   * and the two system PriorityClasses.
   */
  bootstrap?: boolean;
}

/** `--event-ttl` default: 1 h. Source: cmd/kube-apiserver/app/options/options.go. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

/** Kinds whose objects carry `metadata.generation` (their strategies set and bump it). */
const GENERATION_KINDS = new Set(['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Ingress', 'CustomResourceDefinition', 'ReplicationController', 'PodDisruptionBudget', 'NetworkPolicy']);

/** Largest accepted request body (kube-apiserver's 3 MiB limit, `maxRequestBodyBytes`). */
export const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

interface Watcher {
  type: ResourceType;
  typeKey: string;
  namespace?: string;
  label?: Selector;
  fieldSel?: ReturnType<typeof parseFieldSelector>;
  handler: (ev: WatchEvent) => void;
  pending: WatchEvent[];
  flushScheduled: boolean;
  stopped: boolean;
  /** Order of the watch among all watches (offers go out in this order). */
  seq: number;
  /**
   * The value of the indexed field's equality requirement, for the index: `spec.nodeName=` for
   * pods (the kubelet's pod watch), `metadata.name=` for other types (the kubelet's Node watch).
   */
  nodeName?: string;
  /** The delivery callback and its clock options, made on the first delivery (performance only). */
  flushFn?: () => void;
  flushOpts?: { label: string };
}

/**
 * The open watches of one resource type (performance only). Watches with a `spec.nodeName=X`
 * field selector (pods) or a `metadata.name=X` one (other types) are indexed by X: a write is
 * offered only to the watches that can match the object or its previous version, in the same
 * order as offering to all of them would.
 */
interface TypeWatchers {
  /** Watches without a node index, in open order. */
  open: Set<Watcher>;
  /** Watches with an indexed-field requirement (`indexedField`), by its value, in open order. */
  byNode: Map<string, Set<Watcher>>;
}

/** The equality value of a selector's requirement on `field` (`spec.nodeName`, `metadata.name`), if it has one. */
function nodeNameRequirement(sel: ReturnType<typeof parseFieldSelector> | undefined, field = 'spec.nodeName'): string | undefined {
  for (const r of sel?.requirements ?? []) if (r.field === field && r.operator !== '!=') return r.value;
  return undefined;
}

/** The field a type's watches are indexed by: pods by `spec.nodeName`, everything else by `metadata.name`. */
function indexedField(t: ResourceType): string {
  return t.kind === 'Pod' ? 'spec.nodeName' : 'metadata.name';
}

/** The indexed field's value of an object as the field selector reads it (see `indexedField`; missing = ''). */
function indexedValue(t: ResourceType, o: KubeObject): string {
  return t.kind === 'Pod' ? nodeNameValue(o) : (o.metadata.name ?? '');
}

/** `spec.nodeName` as the field selector reads it (missing = ''). */
function nodeNameValue(o: KubeObject): string {
  const v: unknown = o.spec?.nodeName;
  return v === undefined || v === null ? '' : String(v);
}

function bySeq(a: Watcher, b: Watcher): number {
  return a.seq - b.seq;
}

/** Type keys by type object (performance only: one string per type, its hash computed once). */
const typeKeys = new WeakMap<ResourceType, string>();

/**
 * The store key of a type: `group/resource` of the stored version (a served version converted to
 * another group's resource, events.k8s.io/v1 Events, shares that resource's objects).
 */
function typeKeyOf(t: ResourceType): string {
  let k = typeKeys.get(t);
  if (k === undefined) {
    k = `${t.conversion?.storageGroup ?? t.group}/${t.resource}`;
    typeKeys.set(t, k);
  }
  return k;
}

/**
 * The API server. One per simulated cluster; its store outlives the kube-apiserver process
 * (the store is etcd's data), while watches die with the process.
 */
export class ApiServer {
  readonly registry = new ResourceRegistry();
  readonly store: ObjectStore;
  readonly admission: Admission;
  private availability: Availability = 'up';
  private watchers = new Set<Watcher>();
  private watchersByType = new Map<string, TypeWatchers>();
  private watchSeq = 0;
  private writeListeners: ((w: WriteRecord) => void)[] = [];
  private readonly watchLatencyMs: number;
  private readonly eventTtlMs: number;
  /** Cached CRD objects by `<group>/<plural>` for custom resource validation. */
  private crds = new Map<string, KubeObject>();

  /**
   * The seeded stream uids, generated names, NodePorts and token names are drawn from (this
   * server's, shared with admission through `rng`); swapped only by `withOwnStream`.
   */
  private draws: Rng;

  /** The stream the server (and its admission) draws from now. */
  get rng(): Rng {
    return this.draws;
  }

  constructor(
    readonly clock: Clock,
    rng: Rng,
    opts: ApiServerOptions = {},
  ) {
    this.draws = rng;
    this.store = new ObjectStore(opts.historyWindow ?? DEFAULT_HISTORY_WINDOW);
    this.watchLatencyMs = opts.watchLatencyMs ?? 1;
    this.eventTtlMs = opts.eventTtlMs ?? DEFAULT_EVENT_TTL_MS;
    this.admission = new Admission(this);
    if (opts.bootstrap ?? true) this.bootstrap();
  }

  /**
   * Objects kube-apiserver's post-start hooks create: system namespaces
   * (pkg/controlplane/controller/systemnamespaces), the `kubernetes` Service in `default` with
   * the first IP of the service range (pkg/controlplane/controller/kubernetesservice), and the
   * system PriorityClasses (pkg/registry/scheduling/rest/storage_scheduling.go), and the default
   * RBAC policy (bootstrappolicy.ts).
   */
  private bootstrap(): void {
    const fm = { fieldManager: 'kube-apiserver' };
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      this.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } }, fm);
    }
    for (const [name, value] of Object.entries(SYSTEM_PRIORITY_CLASSES)) {
      this.create(
        {
          apiVersion: 'scheduling.k8s.io/v1',
          kind: 'PriorityClass',
          metadata: { name },
          value,
          preemptionPolicy: 'PreemptLowerPriority',
          description: 'Used for system critical pods that must not be moved from their current node.',
        } as KubeObject,
        fm,
      );
    }
    this.create(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], sessionAffinity: 'None', type: 'ClusterIP' },
      },
      fm,
    );
    // rbac/bootstrap-roles (pkg/registry/rbac/rest/storage_rbac.go): the default RBAC policy. Its
    // uids come from a stream of their own, so adding it does not shift the seeded run's draws.
    this.withOwnStream(BOOTSTRAP_POLICY_RNG_SALT, () => {
      for (const o of bootstrapPolicyObjects()) this.create(o, fm);
    });
  }

  /**
   * Run `fn` drawing from a stream of its own (seeded with this server's seed XOR `salt`), then
   * go back to the server's stream where it was: objects created in `fn` do not shift the draws
   * of everything after them (a simulation choice for determinism across versions, not Kubernetes').
   */
  private withOwnStream(salt: number, fn: () => void): void {
    const shared = this.draws;
    this.draws = new Rng(shared.seed ^ salt);
    try {
      fn();
    } finally {
      this.draws = shared;
    }
  }

  // ---------------------------------------------------------------- availability

  /** Current availability. */
  getAvailability(): Availability {
    return this.availability;
  }

  /**
   * Set availability (driven by the kube-apiserver and etcd processes). Going `down` ends every
   * open watch, as a dropped HTTP connection does; clients must relist and rewatch.
   */
  setAvailability(a: Availability): void {
    this.availability = a;
    if (a === 'down') {
      for (const w of [...this.watchers]) this.endWatch(w);
    }
  }

  private checkAvailable(): void {
    if (this.availability === 'down') throw errors.connectionRefused();
    if (this.availability === 'etcd-unreachable') throw errors.etcdUnavailable();
  }

  /** Subscribe to every successful write (for traces and digests). Returns an unsubscribe function. */
  onWrite(fn: (w: WriteRecord) => void): () => void {
    this.writeListeners.push(fn);
    return () => {
      this.writeListeners = this.writeListeners.filter((f) => f !== fn);
    };
  }

  /** The current resourceVersion of the whole store (string, as the API returns it). */
  resourceVersion(): string {
    return String(this.store.revision());
  }

  // ---------------------------------------------------------------- type resolution

  /**
   * Resolve a type reference: a plural (`pods`), singular, short name (`deploy`), kind, or
   * `plural.group`. Throws the server's NotFound for unknown resources.
   */
  resolveType(ref: string | ResourceType): ResourceType {
    if (typeof ref !== 'string') return ref;
    const t = this.registry.resolve(ref);
    if (!t) throw errors.notFound(ref, '', '').withMessage(`the server doesn't have a resource type "${ref}"`);
    return t;
  }

  /**
   * The type of a manifest, from its apiVersion and kind. Unknown kinds get the RESTMapper's
   * `no matches for kind "X" in version "Y"` (what kubectl prints for a missing CRD).
   */
  typeOfObject(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): ResourceType {
    const t = this.registry.byKind(obj.apiVersion, obj.kind);
    if (!t) {
      throw new ApiError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `no matches for kind "${obj.kind}" in version "${obj.apiVersion}"`,
        reason: 'NotFound',
        code: 404,
      });
    }
    return t;
  }

  /** The stored type behind a served version (itself for the storage version). */
  storageTypeOf(t: ResourceType): ResourceType {
    if (!t.conversion) return t;
    const group = t.conversion.storageGroup ?? t.group;
    return this.registry.byKind(group ? `${group}/${t.conversion.storageVersion}` : t.conversion.storageVersion, t.kind) ?? t;
  }

  // ---------------------------------------------------------------- reads

  /** GET one object. Throws NotFound. */
  get(type: string | ResourceType, namespace: string | undefined, name: string): KubeObject {
    this.checkAvailable();
    const t = this.resolveType(type);
    const o = this.store.getByName(typeKeyOf(t), t.namespaced ? namespace : undefined, name);
    if (!o) throw errors.notFound(t.resource, t.group, name);
    return t.conversion ? t.conversion.fromStorage(deepCopy(o)) : deepCopy(o);
  }

  /** GET one object, or undefined when absent (other errors still throw). */
  tryGet(type: string | ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    // `get` without building the NotFound error (performance only: an Error captures a stack).
    const o = this.tryGetShared(type, namespace, name);
    if (o && typeof type !== 'string' && type.conversion) return type.conversion.fromStorage(deepCopy(o));
    return o ? deepCopy(o) : undefined;
  }

  /**
   * `tryGet` for a caller that only reads: the stored object itself, not a copy (undefined when
   * absent; other errors throw as `get` does). Stored objects are never mutated (every write
   * stores a fresh object), so the result stays the state at the time of the read; the caller
   * must not change it. Performance only: periodic readers (leader election, kindnetd's node
   * loop) skip a deep copy per request.
   */
  tryGetShared(type: string | ResourceType, namespace: string | undefined, name: string): Readonly<KubeObject> | undefined {
    this.checkAvailable();
    let t: ResourceType;
    try {
      t = this.resolveType(type);
    } catch (e) {
      if (e instanceof ApiError && e.code === 404) return undefined;
      throw e;
    }
    return this.store.getByName(typeKeyOf(t), t.namespaced ? namespace : undefined, name);
  }

  /** LIST objects of a type, filtered; items sorted by namespace then name (as etcd's key order). */
  list(type: string | ResourceType, opts: ListOptions = {}): KubeList {
    this.checkAvailable();
    const t = this.resolveType(type);
    const label = typeof opts.labelSelector === 'string' ? parseLabelSelector(opts.labelSelector) : opts.labelSelector;
    const fieldSel = opts.fieldSelector ? parseFieldSelector(opts.fieldSelector, t.kind) : undefined;
    const items: KubeObject[] = [];
    for (const o of this.store.values(typeKeyOf(t))) {
      if (t.namespaced && opts.namespace !== undefined && o.metadata.namespace !== opts.namespace) continue;
      if (label && !label.matches(o.metadata.labels)) continue;
      if (fieldSel && !fieldSel.matches(o)) continue;
      items.push(t.conversion ? t.conversion.fromStorage(deepCopy(o)) : deepCopy(o));
    }
    items.sort((a, b) => cmp(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || cmp(a.metadata.name!, b.metadata.name!));
    return { apiVersion: apiVersionOf(t), kind: `${t.kind}List`, metadata: { resourceVersion: this.resourceVersion() }, items };
  }

  // ---------------------------------------------------------------- watch

  /**
   * WATCH a type from a resourceVersion. Events arrive through the clock `watchLatencyMs` after
   * the write, in revision order. A resourceVersion older than the compaction window delivers one
   * `ERROR` event with a 410 Gone Status and ends the watch (the client relists).
   * Label/field selectors turn transitions into ADDED/DELETED as the watch cache does.
   */
  watch(type: string | ResourceType, opts: WatchOptions, handler: (ev: WatchEvent) => void): WatchHandle {
    this.checkAvailable();
    const t = this.resolveType(type);
    const w: Watcher = {
      type: t,
      typeKey: typeKeyOf(t),
      namespace: t.namespaced ? opts.namespace : undefined,
      label: typeof opts.labelSelector === 'string' ? parseLabelSelector(opts.labelSelector) : opts.labelSelector,
      fieldSel: opts.fieldSelector ? parseFieldSelector(opts.fieldSelector, t.kind) : undefined,
      handler,
      pending: [],
      flushScheduled: false,
      stopped: false,
      seq: this.watchSeq++,
    };
    w.nodeName = nodeNameRequirement(w.fieldSel, indexedField(t));
    const handle: WatchHandle = new ServerWatchHandle(w, (this.endWatchFn ??= (x) => this.endWatch(x)));
    const from = opts.resourceVersion && opts.resourceVersion !== '0' ? Number(opts.resourceVersion) : undefined;
    if (from !== undefined) {
      if (!Number.isFinite(from)) throw errors.badRequest(`invalid resource version: ${opts.resourceVersion}`);
      if (from < this.store.compactedRevision) {
        // etcd3 watcher: "too old resource version: %d (%d)"
        const st = errors.gone(`too old resource version: ${from} (${this.store.compactedRevision})`).status;
        w.pending.push({ type: 'ERROR', object: st as unknown as KubeObject });
        this.scheduleFlush(w, true);
        return handle;
      }
      for (const c of this.store.since(w.typeKey, from)) this.offer(w, c.type, c.object, c.previous);
    }
    this.watchers.add(w);
    let tw = this.watchersByType.get(w.typeKey);
    if (!tw) this.watchersByType.set(w.typeKey, (tw = { open: new Set(), byNode: new Map() }));
    if (w.nodeName === undefined) tw.open.add(w);
    else {
      let set = tw.byNode.get(w.nodeName);
      if (!set) tw.byNode.set(w.nodeName, (set = new Set()));
      set.add(w);
    }
    return handle;
  }

  /**
   * Number of watches ended so far (by the client or the server). Clients that poll their
   * watches for a silent end (the informer factories' probe) skip the poll while it is unchanged
   * (performance only).
   */
  watchesEnded = 0;

  /** Told (synchronously, with no arguments) each time a watch ends; see `onWatchEnded`. */
  private watchEndListeners: (() => void)[] = [];

  /**
   * Subscribe to watch ends (by the client or the server): `fn` runs synchronously inside the
   * call that ended the watch, so it must only schedule work (the informer factories schedule
   * their watch probe). Returns the unsubscribe function.
   */
  onWatchEnded(fn: () => void): () => void {
    this.watchEndListeners.push(fn);
    return () => {
      const i = this.watchEndListeners.indexOf(fn);
      if (i >= 0) this.watchEndListeners.splice(i, 1);
    };
  }

  /** `endWatch` as a function, shared by this server's watch handles. */
  private endWatchFn: ((w: Watcher) => void) | undefined;

  private endWatch(w: Watcher): void {
    this.watchesEnded++;
    if (this.watchEndListeners.length > 0) for (const fn of this.watchEndListeners.slice()) fn();
    w.stopped = true;
    w.pending = [];
    this.watchers.delete(w);
    const tw = this.watchersByType.get(w.typeKey);
    if (!tw) return;
    if (w.nodeName === undefined) tw.open.delete(w);
    else {
      const set = tw.byNode.get(w.nodeName);
      set?.delete(w);
      if (set?.size === 0) tw.byNode.delete(w.nodeName);
    }
  }

  private matches(w: Watcher, o: KubeObject | undefined): boolean {
    if (!o) return false;
    if (w.namespace !== undefined && o.metadata.namespace !== w.namespace) return false;
    if (w.label && !w.label.matches(o.metadata.labels)) return false;
    if (w.fieldSel && !w.fieldSel.matches(o)) return false;
    return true;
  }

  private offer(w: Watcher, type: ChangeType, obj: KubeObject, prev: KubeObject | undefined): void {
    const filtered = w.namespace !== undefined || w.label || w.fieldSel;
    let evType: ChangeType | undefined = type;
    if (filtered) {
      const now = type !== 'DELETED' && this.matches(w, obj);
      const before = type === 'ADDED' ? false : this.matches(w, prev ?? obj);
      if (type === 'DELETED') evType = before ? 'DELETED' : undefined;
      else if (now && before) evType = 'MODIFIED';
      else if (now) evType = 'ADDED';
      else if (before) evType = 'DELETED';
      else evType = undefined;
    }
    if (!evType) return;
    // A watch in a served version that is not the storage version sees the object in its
    // version (the watch cache converts each event for the watcher's version).
    if (w.type.conversion) w.pending.push({ type: evType, object: w.type.conversion.fromStorage(obj) });
    else w.pending.push(this.watchEvent(evType, obj));
    this.scheduleFlush(w, false);
  }

  /** The object the last watch events were made for, and those events by type (one field per type: no record per write). */
  private eventsObj: KubeObject | undefined;
  private eventAdded: WatchEvent | undefined;
  private eventModified: WatchEvent | undefined;
  private eventDeleted: WatchEvent | undefined;

  /**
   * The watch event `{type, object}` for a write, one object shared by every watch that gets
   * the same event (watch events, like the objects in them, are read-only; performance only:
   * a write reaches every informer of every process).
   */
  private watchEvent(type: ChangeType, obj: KubeObject): WatchEvent {
    if (this.eventsObj !== obj) {
      this.eventsObj = obj;
      this.eventAdded = this.eventModified = this.eventDeleted = undefined;
    }
    switch (type) {
      case 'ADDED':
        return (this.eventAdded ??= { type, object: obj });
      case 'MODIFIED':
        return (this.eventModified ??= { type, object: obj });
      default:
        return (this.eventDeleted ??= { type, object: obj });
    }
  }

  private scheduleFlush(w: Watcher, endAfter: boolean): void {
    if (w.flushScheduled) return;
    w.flushScheduled = true;
    if (endAfter) {
      this.clock.schedule(this.watchLatencyMs, () => this.flush(w, true), { label: `watch ${w.typeKey}` });
      return;
    }
    // One delivery closure and label per watch (performance only: every write schedules one per watch).
    w.flushOpts ??= { label: `watch ${w.typeKey}` };
    w.flushFn ??= () => this.flush(w, false);
    this.clock.schedule(this.watchLatencyMs, w.flushFn, w.flushOpts);
  }

  /** Deliver a watch's pending events (one clock event per batch), then end it if asked. */
  private flush(w: Watcher, endAfter: boolean): void {
    w.flushScheduled = false;
    const batch = w.pending;
    w.pending = [];
    for (const ev of batch) {
      if (w.stopped) return;
      w.handler(ev);
    }
    if (endAfter) this.endWatch(w);
  }

  private emit(t: ResourceType, type: ChangeType, obj: KubeObject, prev: KubeObject | undefined, revision: number, fieldManager?: string): void {
    const tw = this.watchersByType.get(typeKeyOf(t));
    if (tw) {
      if (tw.byNode.size === 0) {
        for (const w of tw.open) this.offer(w, type, obj, prev);
      } else {
        // Only the node watches that can match the object (or its previous version) get it;
        // every watch still sees offers in open order.
        // The field getter's value (labels.ts fieldGetter: a missing field reads as '').
        const a = indexedValue(t, obj);
        const b = prev ? indexedValue(t, prev) : a;
        const na = tw.byNode.get(a);
        const nb = b !== a ? tw.byNode.get(b) : undefined;
        if (!na && !nb) {
          for (const w of tw.open) this.offer(w, type, obj, prev);
        } else if (na && !nb && na.size === 1) {
          // One indexed watch (a kubelet's): offered in its place among the open watches, which
          // are in open order too (performance only: no list built and sorted per write).
          const x = na.values().next().value as Watcher;
          let offered = false;
          for (const w of tw.open) {
            if (!offered && w.seq > x.seq) {
              this.offer(x, type, obj, prev);
              offered = true;
            }
            this.offer(w, type, obj, prev);
          }
          if (!offered) this.offer(x, type, obj, prev);
        } else {
          const list = [...tw.open];
          if (na) list.push(...na);
          if (nb) list.push(...nb);
          list.sort(bySeq);
          for (const w of list) this.offer(w, type, obj, prev);
        }
      }
    }
    if (this.writeListeners.length) {
      const rec: WriteRecord = { type, resource: t, object: obj, revision, fieldManager };
      for (const f of this.writeListeners) f(rec);
    }
  }

  // ---------------------------------------------------------------- writes

  /**
   * CREATE. `namespace` (the request's) defaults to the object's, then `default`.
   * Throws AlreadyExists, Invalid (with field causes), Forbidden/NotFound from admission,
   * BadRequest for a namespace mismatch, or the connection-refused error. `servedVersion` is
   * internal: the converted version (events.k8s.io/v1 Event) a create came in through.
   */
  create(input: KubeObject, opts: RequestOptions & { namespace?: string; servedVersion?: ResourceType } = {}): KubeObject {
    this.checkAvailable();
    const t = this.typeOfObject(input);
    // A served version that is not the storage version: converted in, stored, converted out.
    if (t.conversion) return t.conversion.fromStorage(this.create(t.conversion.toStorage(input), { ...opts, servedVersion: t }));
    // The size check and the server's copy of the body in one walk (see checkSizeAndCopy).
    let copy = this.checkSizeAndCopy(input);
    if (opts.fieldValidation) {
      input = warn(opts, this.decode(t, input, opts.fieldValidation));
      copy = undefined;
    }
    checkDecodable(input);
    const obj = copy ?? deepCopy(input);
    obj.metadata = obj.metadata ?? {};
    const meta = obj.metadata;
    if (t.namespaced) {
      if (opts.namespace && meta.namespace && opts.namespace !== meta.namespace) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = meta.namespace || opts.namespace || 'default';
    } else {
      delete meta.namespace;
    }
    // The server owns these fields on create. (Each deleted only when present, performance only:
    // the copy has no undefined-valued fields (copyWithinBound and deepCopy drop them), so a
    // field that reads undefined is absent and deleting it would change nothing.)
    if (meta.uid !== undefined) delete meta.uid;
    if (meta.resourceVersion !== undefined) delete meta.resourceVersion;
    if (meta.deletionTimestamp !== undefined) delete meta.deletionTimestamp;
    if (meta.deletionGracePeriodSeconds !== undefined) delete meta.deletionGracePeriodSeconds;
    if (meta.creationTimestamp !== undefined) delete meta.creationTimestamp;
    if (meta.generation !== undefined) delete meta.generation;
    if (meta.managedFields !== undefined) delete meta.managedFields;

    // Admission errors name the object as the request did (its generateName when it has no name).
    const requestName = meta.name || meta.generateName;
    if (!meta.name && meta.generateName) {
      meta.name = this.generateName(t, meta.namespace, meta.generateName);
    }
    // The uid is drawn before validation: a Job's generated selector names it.
    const uid = this.rng.uuid();
    this.prepareForCreate(t, obj, uid);
    applyDefaults(obj, { rng: this.rng });
    labelNamespace(t, obj);
    this.admission.mutate('CREATE', t, obj, undefined);
    limitRangerMutate(this, t, obj);
    const errs = this.validate(t, obj, undefined);
    // A create through a converted version (`servedVersion`, internal) gets that version's checks too.
    const extra = opts.servedVersion?.conversion?.validateCreate;
    if (extra) errs.push(...extra(obj));
    if (errs.length) throw errors.invalid(t.kind, t.group, meta.name ?? meta.generateName ?? '', errs);
    if (this.store.getByName(typeKeyOf(t), meta.namespace, meta.name!)) throw errors.alreadyExists(t.resource, t.group, meta.name!);
    this.admission.validate('CREATE', t, obj, undefined, requestName);
    limitRangerValidate(this, t, obj);
    admitQuota(this, t, obj, !!opts.dryRun);
    // A dry run goes through BeforeCreate (uid, creationTimestamp) and PrepareForCreate
    // (generation) like a real create; only the storage write, and so the resourceVersion, is
    // skipped (registry/generic/registry/store.go Create, dryrun.go).
    meta.uid = uid;
    meta.creationTimestamp = this.clock.rfc3339();
    if (GENERATION_KINDS.has(t.kind) || t.custom) meta.generation = 1;
    if (opts.dryRun) return obj;
    // Validation passed and nothing since changed what validateObjectMeta reads (uid,
    // creationTimestamp, generation and resourceVersion are not among it): stored as validated
    // metadata (custom resources are validated otherwise: never).
    const stored = this.write(t, 'ADDED', obj, undefined, opts.fieldManager, !t.custom);
    this.afterWrite(t, stored, undefined);
    return answer(opts, stored);
  }

  /**
   * UPDATE (PUT) of the main resource. A `metadata.resourceVersion` that is not the current one
   * fails with 409 Conflict; an empty one is an unconditional update. For types with a status
   * subresource the status in the request is ignored. A no-op update writes nothing.
   */
  update(input: KubeObject, opts: RequestOptions & { subresource?: 'status' } = {}): KubeObject {
    this.checkAvailable();
    const t = this.typeOfObject(input);
    if (t.conversion) {
      // A served version that is not the storage version: converted against the stored object.
      const ns = t.namespaced ? input.metadata?.namespace || 'default' : undefined;
      const stored = this.store.getByName(typeKeyOf(t), ns, input.metadata?.name ?? '');
      return t.conversion.fromStorage(this.update(t.conversion.toStorage(input, stored), opts));
    }
    // A main-resource write checks the size and copies the body in one walk (see
    // checkSizeAndCopy); a /status write copies only the status, and its size check reuses the
    // bounds of the parts it shares with the stored object (see checkSize).
    let copy: KubeObject | undefined;
    /** A /status write's copy of the body's status, made by the size check (see writeStatus). */
    let status: StatusCopy | undefined;
    if (opts.subresource === 'status') status = this.checkStatusSize(input);
    else copy = this.checkSizeAndCopy(input);
    if (opts.fieldValidation) {
      input = warn(opts, this.decode(t, input, opts.fieldValidation));
      copy = undefined;
      status = undefined;
    }
    checkDecodable(input);
    const name = input.metadata?.name;
    if (!name) throw errors.invalid(t.kind, t.group, '', [field.required('metadata.name', 'name or generateName is required')]);
    const ns = t.namespaced ? input.metadata.namespace || 'default' : undefined;
    const slot = this.store.slotByName(typeKeyOf(t), ns, name);
    if (!slot) throw errors.notFound(t.resource, t.group, name);
    const old = slot.obj;
    /** The stored object's metadata was validated when it was written (see ObjectStore.put). */
    const oldMetadataValidated = slot.metadataValidated;
    const rv = input.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw errors.conflict(t.resource, t.group, name);
    if (input.metadata.uid && input.metadata.uid !== old.metadata.uid) {
      throw errors.conflict(t.resource, t.group, name, `Precondition failed: UID in precondition: ${input.metadata.uid}, UID in object meta: ${old.metadata.uid}`);
    }
    if (opts.subresource === 'status') return this.writeStatus(t, old, input, opts, status?.twin === old ? status : undefined);
    const obj = copy ?? deepCopy(input);
    if (t.status) obj.status = deepCopy(old.status);
    const meta = obj.metadata;
    // Server-owned metadata is carried over from the stored object: set when the stored object
    // has it, absent otherwise. (Performance only: a field is deleted only when the request has
    // it, instead of being added and deleted again: deleting a property other than the last one
    // added turns a V8 object into a slow dictionary, and this metadata is stored and read by
    // every informer. The fields present and their order are the same as assign-then-delete.)
    const om = old.metadata;
    if (t.namespaced) meta.namespace = ns;
    else if (meta.namespace !== undefined) delete meta.namespace;
    meta.uid = om.uid;
    meta.creationTimestamp = om.creationTimestamp;
    if (om.deletionTimestamp !== undefined) meta.deletionTimestamp = om.deletionTimestamp;
    else if (meta.deletionTimestamp !== undefined) delete meta.deletionTimestamp;
    if (om.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
    else if (meta.deletionGracePeriodSeconds !== undefined) delete meta.deletionGracePeriodSeconds;
    if (om.generation !== undefined) meta.generation = om.generation;
    else if (meta.generation !== undefined) delete meta.generation;
    meta.resourceVersion = om.resourceVersion;
    if (old.metadata.deletionTimestamp) {
      // A terminating object may not gain new finalizers (registry: "no new finalizers can be added if the object is being deleted").
      const added = (meta.finalizers ?? []).filter((f) => !(old.metadata.finalizers ?? []).includes(f));
      if (added.length) {
        throw errors.forbidden(t.resource, t.group, name, `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`);
      }
    }

    applyDefaults(obj, { rng: this.rng });
    labelNamespace(t, obj);
    this.admission.mutate('UPDATE', t, obj, old);
    const errs = this.validate(t, obj, old, oldMetadataValidated);
    if (errs.length) throw errors.invalid(t.kind, t.group, name, errs);
    this.admission.validate('UPDATE', t, obj, old);

    if (meta.generation !== undefined && !deepEqual(obj.spec, old.spec)) meta.generation = (old.metadata.generation ?? 0) + 1;
    if (t.kind === 'DaemonSet') keepDaemonSetTemplateGeneration(obj, old);
    if (objectsEqualMetadataLast(obj, old)) return answer(opts, old);
    if (opts.dryRun) return obj;

    // An object whose deletion was requested goes once its finalizers are gone and no grace remains.
    // A Namespace also waits for its spec.finalizers (ShouldDeleteNamespaceDuringUpdate).
    const specFinalizersLeft = t.kind === 'Namespace' && (obj.spec?.finalizers ?? []).length > 0;
    if (meta.deletionTimestamp && !(meta.finalizers?.length) && !(meta.deletionGracePeriodSeconds ?? 0) && !specFinalizersLeft) {
      const gone = this.write(t, 'DELETED', obj, old, opts.fieldManager);
      this.afterWrite(t, undefined, gone);
      return answer(opts, gone);
    }
    // Validation passed and nothing since changed what validateObjectMeta reads (generation
    // and resourceVersion are not among it), except a DaemonSet's annotations
    // (keepDaemonSetTemplateGeneration runs after validation): stored as validated metadata
    // unless a custom resource or a DaemonSet.
    const stored = this.write(t, 'MODIFIED', obj, old, opts.fieldManager, !t.custom && t.kind !== 'DaemonSet');
    this.afterWrite(t, stored, undefined);
    return answer(opts, stored);
  }

  /**
   * The `/status` write: only status changes (plus annotations for Deployments), as the status
   * strategies' PrepareForUpdate does. The new object shares its spec and the rest with the
   * stored one (stored objects are immutable), which keeps the most frequent write in a cluster
   * (kubelets and controllers reporting status) cheap. Spec validation is skipped: the spec is the
   * stored one. Custom resources are still checked against their schema.
   */
  private writeStatus(t: ResourceType, old: KubeObject, input: KubeObject, opts: RequestOptions, made?: StatusCopy): KubeObject {
    // `made`: the status copied by the size check against this very stored object (`old`), with
    // the subtrees equal to the stored status's shared (see copyStatusSharing); custom resources
    // are pruned in place below, so theirs is always a fresh copy.
    const status = made && made.copy !== CANNOT_BOUND && !t.custom ? made.copy : deepCopy(input.status);
    const obj: KubeObject = { ...old, metadata: { ...old.metadata }, status };
    if (obj.status === undefined) delete obj.status;
    // Deployment's status strategy resets only spec and labels: annotations written with the
    // status are kept (how the controller sets `deployment.kubernetes.io/revision`).
    // Source: pkg/registry/apps/deployment/strategy.go (deploymentStatusStrategy.PrepareForUpdate).
    if (t.kind === 'Deployment' && input.metadata.annotations !== undefined) obj.metadata.annotations = deepCopy(input.metadata.annotations);
    if (t.custom) {
      const errs = this.validate(t, obj, old);
      if (errs.length) throw errors.invalid(t.kind, t.group, old.metadata.name ?? '', errs);
    }
    if (deepEqual(obj.status, old.status) && deepEqual(obj.metadata.annotations, old.metadata.annotations)) return answer(opts, old);
    if (opts.dryRun) return deepCopy(obj);
    const stored = this.write(t, 'MODIFIED', obj, old, opts.fieldManager);
    this.afterWrite(t, stored, undefined);
    return answer(opts, stored);
  }

  /** UPDATE of the `/status` subresource: only `status` changes. */
  updateStatus(input: KubeObject, opts: RequestOptions = {}): KubeObject {
    return this.update(input, { ...opts, subresource: 'status' });
  }

  /**
   * PATCH: JSON merge (RFC 7386), JSON patch (RFC 6902) or strategic merge (built-in kinds only;
   * custom resources answer 415 as the real server does). A patch that sets
   * `metadata.resourceVersion` is a precondition.
   */
  patch(
    type: string | ResourceType,
    namespace: string | undefined,
    name: string,
    patchType: PatchType,
    patch: unknown,
    opts: RequestOptions & { subresource?: 'status' } = {},
  ): KubeObject {
    this.checkAvailable();
    const t = this.resolveType(type);
    const stored = this.store.getByName(typeKeyOf(t), t.namespaced ? namespace || 'default' : undefined, name);
    if (!stored) throw errors.notFound(t.resource, t.group, name);
    // In a served version that is not the storage version, the patch applies to the object as
    // that version shows it; the result is converted back (see conversion.ts).
    const current = t.conversion ? t.conversion.fromStorage(deepCopy(stored)) : stored;
    let next: KubeObject;
    if (patchType === 'merge') next = applyMergePatch(current, patch) as KubeObject;
    else if (patchType === 'json') next = applyJsonPatch(current, patch) as KubeObject;
    else {
      if (!strategicMergeSupported(t.kind, !!t.custom)) {
        throw new ApiError({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
          reason: 'UnsupportedMediaType',
          code: 415,
        });
      }
      next = applyStrategicMergePatch(current, patch, t.kind) as KubeObject;
    }
    const patchedRv = (patch as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion;
    next.metadata = next.metadata ?? {};
    next.metadata.resourceVersion = patchedRv ?? current.metadata.resourceVersion;
    next.apiVersion = current.apiVersion;
    next.kind = current.kind;
    if (t.conversion) return t.conversion.fromStorage(this.update(t.conversion.toStorage(next, stored), { ...opts, fieldValidation: undefined }));
    if (opts.fieldValidation) {
      const patched = next;
      const patchValue = () => (patchType === 'strategic' ? goPlusV(patch) : goJsonMarshal(patched));
      next = warn(opts, this.decode(t, next, opts.fieldValidation, patchValue, patchType === 'strategic'));
    }
    return this.update(next, { ...opts, fieldValidation: undefined });
  }

  /**
   * Client-side apply, as `kubectl apply` does it: create when absent (recording the
   * last-applied-configuration annotation), otherwise a three-way patch against the live object.
   */
  apply(manifest: KubeObject, opts: RequestOptions & { namespace?: string } = {}): ApplyResult {
    this.checkAvailable();
    this.checkSize(manifest);
    const t = this.typeOfObject(manifest);
    const m = deepCopy(manifest);
    m.metadata = m.metadata ?? {};
    if (t.namespaced) m.metadata.namespace = m.metadata.namespace || opts.namespace || 'default';
    if (!m.metadata.name) {
      throw errors.invalid(t.kind, t.group, '', [field.required('metadata.name', 'name or generateName is required')]);
    }
    const live = this.store.getByName(typeKeyOf(t), t.namespaced ? m.metadata.namespace : undefined, m.metadata.name);
    // The live object as the manifest's version shows it (a served version that is not the storage one is converted).
    const liveView = live ? (t.conversion ? t.conversion.fromStorage(deepCopy(live)) : deepCopy(live)) : undefined;
    const plan = planApply(m, liveView, t.kind, !!t.custom);
    const fieldManager = opts.fieldManager ?? 'kubectl-client-side-apply';
    if (plan.action === 'create') return { verb: 'created', object: this.create(plan.object, { ...opts, fieldManager }) };
    if (plan.action === 'unchanged') return { verb: 'unchanged', object: liveView! };
    const obj = this.patch(t, m.metadata.namespace, m.metadata.name, plan.patchType, plan.patch, { ...opts, fieldManager });
    return { verb: 'configured', object: obj };
  }

  /**
   * DELETE. Pods bound to a node are deleted gracefully: `deletionTimestamp` = now + grace and
   * the object stays until the kubelet confirms with grace 0. Objects with finalizers stay
   * (deletionTimestamp set) until the finalizers are removed. Foreground and Orphan add their
   * finalizers for the garbage collector. Returns the object as it is after the call.
   * Source: staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (Delete,
   * updateForGracefulDeletionAndFinalizers), pkg/registry/core/pod/strategy.go (CheckGracefulDelete).
   */
  delete(type: string | ResourceType, namespace: string | undefined, name: string, opts: DeleteOptions = {}): KubeObject {
    this.checkAvailable();
    const t = this.resolveType(type);
    if (t.conversion) return t.conversion.fromStorage(this.delete(this.storageTypeOf(t), namespace, name, opts));
    const ns = t.namespaced ? namespace || 'default' : undefined;
    const old = this.store.getByName(typeKeyOf(t), ns, name);
    if (!old) throw errors.notFound(t.resource, t.group, name);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== old.metadata.uid) {
      throw errors.conflict(t.resource, t.group, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw errors.conflict(
        t.resource,
        t.group,
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
      );
    }
    if (t.kind === 'Namespace' && ['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(name)) {
      throw errors.forbidden(t.resource, t.group, name, `this namespace may not be deleted`);
    }
    const obj = deepCopy(old);
    const meta = obj.metadata;
    const grace = this.gracePeriod(t, obj, opts.gracePeriodSeconds);
    const finalizers = new Set(meta.finalizers ?? []);
    if (!meta.deletionTimestamp) {
      if (opts.propagationPolicy === 'Foreground') finalizers.add('foregroundDeletion');
      if (opts.propagationPolicy === 'Orphan') finalizers.add('orphan');
    } else if (opts.propagationPolicy === 'Orphan' && !finalizers.has('foregroundDeletion')) {
      finalizers.add('orphan');
    }
    if (t.kind === 'Namespace') {
      // Namespaces always go through the namespace controller (spec.finalizers: kubernetes).
      if (!meta.deletionTimestamp) {
        meta.deletionTimestamp = this.clock.rfc3339();
        meta.deletionGracePeriodSeconds = 0;
        obj.status = { ...(obj.status ?? {}), phase: 'Terminating' };
      }
      if (finalizers.size) meta.finalizers = [...finalizers];
      const hasSpecFinalizers = (obj.spec?.finalizers ?? []).length > 0;
      if (hasSpecFinalizers || finalizers.size) {
        if (deepEqual(obj, old)) return deepCopy(old);
        const stored = this.write(t, 'MODIFIED', obj, old, opts.fieldManager);
        return deepCopy(stored);
      }
    }
    if (finalizers.size) meta.finalizers = [...finalizers];
    const keep = finalizers.size > 0 || grace > 0;
    if (keep) {
      if (opts.dryRun) return obj;
      const prevGrace = meta.deletionGracePeriodSeconds;
      if (!meta.deletionTimestamp || (prevGrace !== undefined && grace < prevGrace)) {
        meta.deletionTimestamp = this.clock.rfc3339(this.clock.now() + grace * 1000);
        meta.deletionGracePeriodSeconds = grace;
        if (meta.generation !== undefined) meta.generation += 1;
      }
      if (deepEqual(obj, old)) return deepCopy(old);
      const stored = this.write(t, 'MODIFIED', obj, old, opts.fieldManager);
      return deepCopy(stored);
    }
    if (opts.dryRun) return obj;
    if (!meta.deletionTimestamp) {
      meta.deletionTimestamp = this.clock.rfc3339();
      meta.deletionGracePeriodSeconds = 0;
    }
    const gone = this.write(t, 'DELETED', obj, old, opts.fieldManager);
    this.afterWrite(t, undefined, gone);
    return deepCopy(gone);
  }

  /** POST pods/{name}/eviction: a delete that honours PodDisruptionBudgets (see eviction.ts). */
  evict(namespace: string, name: string, opts: DeleteOptions = {}): KubeObject {
    this.checkAvailable();
    return evictPod(this, namespace, name, opts);
  }

  /** DELETECOLLECTION: delete every object the options select. Returns the objects as left. */
  deleteCollection(type: string | ResourceType, opts: ListOptions & DeleteOptions = {}): KubeObject[] {
    const t = this.resolveType(type);
    const out: KubeObject[] = [];
    for (const o of this.list(t, opts).items) {
      try {
        out.push(this.delete(t, o.metadata.namespace, o.metadata.name!, opts));
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    return out;
  }

  /**
   * POST `pods/<name>/binding`: what the scheduler does to place a pod. Sets spec.nodeName and
   * the PodScheduled=True condition. A pod already bound, or being deleted, is refused.
   * Source: pkg/registry/core/pod/storage/storage.go (BindingREST, assignPod, setPodNodeAndMetadata).
   */
  bind(namespace: string, podName: string, nodeName: string, opts: RequestOptions = {}): StatusSuccess {
    this.checkAvailable();
    const t = this.resolveType('pods');
    const old = this.store.getByName(typeKeyOf(t), namespace, podName);
    if (!old) throw errors.notFound('pods', '', podName);
    if (old.metadata.deletionTimestamp) {
      throw errors.conflict('pods', '', podName).withMessage(`Operation cannot be fulfilled on pods/binding "${podName}": pod ${podName} is being deleted, cannot be assigned to a host`);
    }
    if (old.spec?.nodeName) {
      throw errors.conflict('pods', '', podName).withMessage(`Operation cannot be fulfilled on pods/binding "${podName}": pod ${podName} is already assigned to node "${old.spec.nodeName}"`);
    }
    // Structural sharing with the stored (immutable) pod: only the changed paths are new.
    const conds: { type: string; status: string; lastProbeTime: null; lastTransitionTime: string }[] = (old.status?.conditions ?? []).filter(
      (c: { type: string }) => c.type !== 'PodScheduled',
    );
    conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: this.clock.rfc3339() });
    const obj: KubeObject = { ...old, metadata: { ...old.metadata }, spec: { ...old.spec, nodeName }, status: { ...(old.status ?? {}), conditions: conds } };
    if (!opts.dryRun) this.write(t, 'MODIFIED', obj, old, opts.fieldManager ?? 'kube-scheduler');
    // The binding subresource answers with a Status, not the pod.
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  }

  /**
   * PUT `namespaces/<name>/finalize`: replace a Namespace's `spec.finalizers` (the only way to
   * change them; what the namespace controller does once the namespace is empty). When
   * `spec.finalizers` and `metadata.finalizers` are both empty and the namespace is being
   * deleted, it is removed (DELETED). `resourceVersion`, when given, is a precondition (409).
   * Throws NotFound, Conflict, Invalid (a finalizer name that is neither `kubernetes` nor
   * qualified), or the connection-refused error.
   * Source: pkg/registry/core/namespace/storage/storage.go (FinalizeREST,
   * ShouldDeleteNamespaceDuringUpdate), pkg/registry/core/namespace/strategy.go (namespaceFinalizeStrategy).
   */
  finalizeNamespace(name: string, finalizers: string[], opts: RequestOptions & { resourceVersion?: string } = {}): KubeObject {
    this.checkAvailable();
    const t = this.resolveType('namespaces');
    const old = this.store.getByName(typeKeyOf(t), undefined, name);
    if (!old) throw errors.notFound('namespaces', '', name);
    if (opts.resourceVersion && opts.resourceVersion !== old.metadata.resourceVersion) throw errors.conflict('namespaces', '', name);
    const obj = deepCopy(old);
    obj.spec = { ...(obj.spec ?? {}) };
    if (finalizers.length) obj.spec.finalizers = [...finalizers];
    else delete obj.spec.finalizers;
    const errs = this.validate(t, obj, old);
    if (errs.length) throw errors.invalid(t.kind, t.group, name, errs);
    if (deepEqual(obj, old)) return deepCopy(old);
    if (opts.dryRun) return obj;
    const fm = opts.fieldManager ?? 'kube-controller-manager';
    if (obj.metadata.deletionTimestamp && !finalizers.length && !(obj.metadata.finalizers?.length)) {
      const gone = this.write(t, 'DELETED', obj, old, fm);
      this.afterWrite(t, undefined, gone);
      return deepCopy(gone);
    }
    const stored = this.write(t, 'MODIFIED', obj, old, fm);
    return deepCopy(stored);
  }

  /** GET `/scale`: an autoscaling/v1 Scale for types with a scale subresource. */
  getScale(type: string | ResourceType, namespace: string | undefined, name: string): KubeObject {
    const t = this.resolveType(type);
    if (!t.scale) throw errors.notFound(`${t.resource}/scale`, t.group, name);
    const o = this.get(t, namespace, name);
    return {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name, namespace: o.metadata.namespace, uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
      spec: { replicas: o.spec?.replicas ?? 0 },
      status: { replicas: o.status?.replicas ?? 0, selector: scaleSelector(t, o) },
    };
  }

  /** PUT `/scale`: set spec.replicas (what `kubectl scale` does). */
  updateScale(type: string | ResourceType, namespace: string | undefined, name: string, replicas: number, opts: RequestOptions & { resourceVersion?: string } = {}): KubeObject {
    const t = this.resolveType(type);
    if (!t.scale) throw errors.notFound(`${t.resource}/scale`, t.group, name);
    const o = this.get(t, namespace, name);
    if (opts.resourceVersion && opts.resourceVersion !== o.metadata.resourceVersion) throw errors.conflict(t.resource, t.group, name);
    if (!Number.isInteger(replicas) || replicas < 0) {
      throw errors.invalid('Scale', 'autoscaling', name, [field.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
    }
    o.spec = { ...(o.spec ?? {}), replicas };
    this.update(o, opts);
    return this.getScale(t, namespace, name);
  }

  // ---------------------------------------------------------------- internals

  /**
   * `checkSize` and `deepCopy` of a request body in one walk (performance only): the copy is
   * what `deepCopy(obj)` makes, and the size bound the one `checkSize` computes. When the bound
   * cannot clear the body (past the limit, too deep, not plain JSON) it runs `checkSize` as
   * before (which throws, or passes) and returns undefined: the caller copies as before. The
   * body is not changed between this call and the caller's use of the copy (only read: type
   * resolution, quantity parsing), so the copy is the one the caller would have made.
   */
  private checkSizeAndCopy(obj: KubeObject): KubeObject | undefined {
    copyBudget = MAX_REQUEST_BYTES;
    const copy = copyWithinBound(obj, 0);
    if (copy !== CANNOT_BOUND) return copy as KubeObject;
    this.checkSize(obj);
    return undefined;
  }

  /**
   * The stored object a write's body names (same type, namespace and name), or undefined; no
   * error is thrown (the request's own checks come later, in their usual order).
   */
  private storedTwin(input: KubeObject): KubeObject | undefined {
    const name = input?.metadata?.name;
    if (typeof input?.apiVersion !== 'string' || typeof input.kind !== 'string' || typeof name !== 'string' || !name) return undefined;
    const t = this.registry.byKind(input.apiVersion, input.kind);
    if (!t) return undefined;
    return this.store.getByName(typeKeyOf(t), t.namespaced ? input.metadata.namespace || 'default' : undefined, name);
  }

  /**
   * `checkSize` of a /status body, which also copies its status (performance only): the fields
   * the body shares with the stored object it names count with their cached bounds, and the
   * status is copied while its bound is taken, sharing the subtrees equal to the stored status
   * (see copyStatusSharing). Returns the copy and the stored object it was compared with
   * (undefined when there is none: the body is checked as before and nothing is copied).
   */
  private checkStatusSize(input: KubeObject): StatusCopy | undefined {
    const twin = this.storedTwin(input);
    if (!twin) {
      this.checkSize(input);
      return undefined;
    }
    const made: StatusCopy = { twin, copy: CANNOT_BOUND };
    if (boundSharing(input, twin, MAX_REQUEST_BYTES, made) > MAX_REQUEST_BYTES) {
      this.checkSize(input);
      made.copy = CANNOT_BOUND;
    }
    return made;
  }

  /**
   * 413 when the body's JSON is longer than the limit. `stored` (optional): the stored object
   * the body was built from; top-level fields the body shares with it (the same object, as a
   * status write `{...pod, status}` shares spec and metadata) count with their cached bounds.
   */
  private checkSize(obj: unknown, stored?: KubeObject): void {
    // Fast path (performance only): almost every request is far below the limit, and an upper
    // bound of its JSON length is several times cheaper than serialising it.
    const bound = stored ? boundSharing(obj, stored, MAX_REQUEST_BYTES) : jsonLengthBound(obj, MAX_REQUEST_BYTES, 0);
    if (bound <= MAX_REQUEST_BYTES) return;
    // Otherwise measure exactly: the JSON length of the request body.
    let n: number;
    try {
      n = JSON.stringify(obj)?.length ?? 0;
    } catch {
      throw errors.badRequest('the request body could not be encoded');
    }
    if (n > MAX_REQUEST_BYTES) throw errors.tooLarge(`Request entity too large: limit is ${MAX_REQUEST_BYTES}`);
  }

  /** Name from generateName: prefix cut to 58 chars + 5 random chars, retried on collision (RetryGenerateName). */
  private generateName(t: ResourceType, namespace: string | undefined, prefix: string): string {
    const base = prefix.length > 58 ? prefix.slice(0, 58) : prefix;
    for (let i = 0; i < 8; i++) {
      const name = base + this.rng.nameSuffix(5);
      if (!this.store.getByName(typeKeyOf(t), namespace, name)) return name;
    }
    return base + this.rng.nameSuffix(5);
  }

  /** What each strategy's PrepareForCreate does to status. */
  private prepareForCreate(t: ResourceType, obj: KubeObject, uid: string): void {
    if (t.kind === 'DaemonSet') keepDaemonSetTemplateGeneration(obj, undefined);
    switch (t.kind) {
      case 'Job':
        delete obj.status;
        generateJobSelector(obj, uid);
        return;
      case 'Node':
      case 'Event':
        return; // kubelet registers its Node with status; Events have no status
      case 'Namespace':
        obj.status = { phase: 'Active' };
        return;
      case 'Pod':
        obj.status = { phase: 'Pending' };
        // applySchedulingGatedCondition (pkg/registry/core/pod/strategy.go): a gated pod is created
        // with PodScheduled=False, reason SchedulingGated (kubectl shows STATUS SchedulingGated).
        if (Array.isArray(obj.spec?.schedulingGates) && obj.spec.schedulingGates.length > 0) {
          obj.status.conditions = [
            { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
          ];
        }
        return;
      case 'PersistentVolumeClaim':
      case 'PersistentVolume':
        obj.status = { phase: t.kind === 'PersistentVolume' ? 'Pending' : 'Pending' };
        return;
      case 'Service':
        obj.status = { loadBalancer: {} };
        return;
      case 'HorizontalPodAutoscaler':
        // pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go: "create cannot set
        // status": the zero status, as autoscaling/v2 serializes it (`desiredReplicas` and
        // `currentMetrics` are not omitempty).
        obj.status = { desiredReplicas: 0, currentMetrics: null };
        return;
      default:
        if (t.status) delete obj.status;
    }
  }

  private gracePeriod(t: ResourceType, obj: KubeObject, requested: number | undefined): number {
    if (t.kind !== 'Pod') return 0;
    // pod strategy CheckGracefulDelete: unscheduled or terminal pods go at once.
    if (!obj.spec?.nodeName) return 0;
    const phase = obj.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return 0;
    if (requested !== undefined) return Math.max(0, requested);
    return obj.spec?.terminationGracePeriodSeconds ?? 30;
  }

  /**
   * The handlers' decode step with `?fieldValidation=` (./decode.ts): built-in kinds against the
   * field table, custom resources against their version's structural schema. `patchValue`: the
   * object is the result of a PATCH, whose strict errors are a 422 naming the patch (rendered by
   * patchValue; `strategic`: a strategic merge patch, whose type errors are the unstructured
   * converter's). Returns the object as decoded plus warnings.
   */
  private decode(t: ResourceType, obj: KubeObject, fieldValidation: FieldValidation, patchValue?: () => string, strategic = false): Decoded<KubeObject> {
    if (t.custom) {
      const crd = this.crds.get(`${t.group}/${t.resource}`);
      const schema = crd ? schemaForVersion(crd, splitApiVersion(obj.apiVersion).version) : undefined;
      return decodeCustomResource(obj, schema, fieldValidation, patchValue);
    }
    return patchValue ? decodePatchedObject(obj, fieldValidation, patchValue, strategic) : decodeRequestBody(obj, fieldValidation);
  }

  /** `oldMetadataValidated`: see validateUpdate (the stored object's flag, ObjectStore.put). */
  private validate(t: ResourceType, obj: KubeObject, old: KubeObject | undefined, oldMetadataValidated = false): FieldError[] {
    const errs: FieldError[] = [];
    const meta = obj.metadata;
    if (t.namespaced && old === undefined && !meta.namespace) errs.push(field.required('metadata.namespace'));
    if (old) {
      if (meta.name !== old.metadata.name) errs.push(field.invalid('metadata.name', meta.name, 'field is immutable'));
    }
    if (t.custom) {
      const crd = this.crds.get(`${t.group}/${t.resource}`);
      if (crd) {
        const version = splitApiVersion(obj.apiVersion).version;
        const v = (crd.spec?.versions ?? []).find((x: { name: string }) => x.name === version);
        const schema = v?.schema?.openAPIV3Schema;
        if (schema) pruneUnknownFields(obj, schema);
        errs.push(...validateCustomResource(obj, crd));
      }
      return errs;
    }
    errs.push(...(old ? validateUpdate(obj, old, oldMetadataValidated) : validateCreate(obj)));
    if (t.kind === 'CustomResourceDefinition') errs.push(...validateCrd(obj));
    return errs;
  }

  /**
   * Stamp the revision, store, record and fan out. Returns the stored object.
   * `metadataValidated`: see ObjectStore.put (only create and update pass true).
   */
  private write(t: ResourceType, type: ChangeType, obj: KubeObject, prev: KubeObject | undefined, fieldManager?: string, metadataValidated = false): KubeObject {
    const revision = this.store.nextRevision();
    obj.metadata.resourceVersion = String(revision);
    const ns = t.namespaced ? obj.metadata.namespace : undefined;
    const name = obj.metadata.name!;
    const tk = typeKeyOf(t);
    if (type === 'DELETED') this.store.remove(tk, ns, name, { revision, typeKey: tk, type, object: obj, previous: prev });
    else this.store.put(tk, ns, name, obj, { revision, typeKey: tk, type, object: obj, previous: prev }, metadataValidated);
    this.emit(t, type, obj, prev, revision, fieldManager);
    return obj;
  }

  /** The Event TTL expiries by Event type (core/v1, events.k8s.io), created with its first Event. */
  private readonly eventTtl = new Map<string, DelayLine<ObjectMeta>>();

  /** Side effects of a committed write: CRD registration and instance clean-up, Event TTL. */
  private afterWrite(t: ResourceType, stored: KubeObject | undefined, deleted: KubeObject | undefined): void {
    if (t.kind === 'CustomResourceDefinition') {
      if (stored) {
        const ct = crdToResourceType(stored);
        this.crds.set(`${ct.group}/${ct.resource}`, stored);
        this.registry.addCustom(ct);
      } else if (deleted) {
        const ct = crdToResourceType(deleted);
        // The apiextensions finalizer removes every instance before the CRD goes.
        if (this.registry.byResource(ct.resource, ct.group)) {
          for (const o of [...this.store.values(typeKeyOf(ct))]) {
            this.write(ct, 'DELETED', deepCopy(o), o);
          }
        }
        this.crds.delete(`${ct.group}/${ct.resource}`);
        this.registry.removeCustom(ct.group, ct.resource);
      }
    }
    if (stored && t.kind === 'Event') {
      // --event-ttl: etcd leases expire the Event an hour after its last write. One clock event
      // per write, as `schedule` would queue it, through a delay line per type (performance
      // only: no timer and closure per Event, ~15 MB with 60k Events). The entry is the written
      // object's metadata, read-only like the stored object: namespace, name, uid and
      // resourceVersion as they were at this write.
      const tk = typeKeyOf(t);
      let line = this.eventTtl.get(tk);
      if (!line) {
        line = this.clock.delayLine<ObjectMeta>(this.eventTtlMs, (m) => {
          const cur = this.store.getByName(tk, m.namespace, m.name!);
          if (cur && cur.metadata.uid === m.uid && cur.metadata.resourceVersion === m.resourceVersion) this.write(t, 'DELETED', deepCopy(cur), cur);
        }, { label: 'event ttl' });
        this.eventTtl.set(tk, line);
      }
      line.add(stored.metadata);
    }
  }
}

/**
 * A Job without `manualSelector: true` gets a selector on its own uid and the matching labels
 * on its template. Source: pkg/registry/batch/job/strategy.go (generateSelector).
 */
function generateJobSelector(job: KubeObject, uid: string): void {
  const spec = job.spec;
  if (!spec || spec.manualSelector === true) return;
  const name = job.metadata.name ?? '';
  spec.template = spec.template ?? {};
  spec.template.metadata = spec.template.metadata ?? {};
  spec.template.metadata.labels = {
    ...(spec.template.metadata.labels ?? {}),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
  spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
}

/**
 * The DaemonSet strategy's `spec.templateGeneration` (1 on create, +1 when the pod template
 * changes), which apps/v1 carries as the annotation `deprecated.daemonset.template.generation`;
 * the server owns it. The DaemonSet controller labels pods `pod-template-generation` with it.
 * Source: pkg/registry/apps/daemonset/strategy.go (PrepareForCreate/PrepareForUpdate),
 * pkg/apis/apps/v1/conversion.go.
 */
function keepDaemonSetTemplateGeneration(ds: KubeObject, old: KubeObject | undefined): void {
  const key = 'deprecated.daemonset.template.generation';
  let gen = 1;
  if (old) {
    gen = Number(old.metadata.annotations?.[key] ?? '1') || 1;
    if (!deepEqual(ds.spec?.template, old.spec?.template)) gen++;
  }
  ds.metadata.annotations = { ...(ds.metadata.annotations ?? {}), [key]: String(gen) };
}

/** Namespaces always carry `kubernetes.io/metadata.name` (pkg/apis/core/v1/defaults.go, 1.21+). */
function labelNamespace(t: ResourceType, obj: KubeObject): void {
  if (t.kind !== 'Namespace' || !obj.metadata.name) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Bounds of stored objects' top-level fields (spec, data, ... objects), computed once
 * (performance only). Exact because stored objects are never mutated (see ObjectStore): the
 * same object always has the same bound; a WeakMap lets the bound go with the object.
 */
const storedBounds = new WeakMap<object, number>();

/** A /status body's status as `checkStatusSize` copied it, and the stored object it was compared with. */
interface StatusCopy {
  twin: KubeObject;
  /** CANNOT_BOUND: not copied (the size check took the exact path). */
  copy: unknown;
}

/**
 * `jsonLengthBound` of a request body whose top-level fields may be shared with `stored` (the
 * stored object, immutable): a shared object field counts with its cached bound. With `status`,
 * the body's `status` field is copied while it is bounded (copyStatusSharing against the stored
 * status) into `status.copy`.
 */
function boundSharing(v: unknown, stored: KubeObject, limit: number, status?: StatusCopy): number {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return jsonLengthBound(v, limit, 0);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return Infinity;
  const o = v as Record<string, unknown>;
  let n = 2;
  for (const k in o) {
    if (k === 'toJSON') return Infinity;
    const x = o[k];
    let b: number | undefined;
    if (status && k === 'status') {
      copyBudget = limit - n;
      const c = copyStatusSharing(x, stored.status, 1);
      if (c === CANNOT_BOUND || copyBudget < 0) return Infinity;
      status.copy = c;
      b = limit - n - copyBudget;
    } else if (k === 'metadata') {
      // Every write stores a fresh metadata object (its new resourceVersion), so a cached bound
      // of one would never be read again; its labels, annotations and owner references are
      // shared from version to version (status writes and bindings copy metadata shallowly).
      b = boundFieldsSharing(x, stored.metadata, limit);
    } else if (x !== null && typeof x === 'object' && x === stored[k]) {
      b = storedBounds.get(x);
      if (b === undefined) storedBounds.set(x, (b = jsonLengthBound(x, limit, 1)));
    } else b = jsonLengthBound(x, limit, 1);
    n += 6 * k.length + 4 + b;
    if (n > limit) return Infinity;
  }
  return n;
}

/**
 * Bounds of stored objects' second-level fields (metadata's labels, annotations, ...), computed
 * once, as `storedBounds` (exact for the same reason; kept apart so that every cached value is
 * the bound at the depth it is read at).
 */
const storedFieldBounds = new WeakMap<object, number>();

/**
 * `jsonLengthBound(v, limit, 1)` of a top-level field of a request body, where `v`'s object
 * fields that are the stored value's own (`stored`, the stored object's same field, immutable)
 * count with their cached bounds: the same number, the sum of the same parts in the same order.
 */
function boundFieldsSharing(v: unknown, stored: unknown, limit: number): number {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || stored === null || typeof stored !== 'object') return jsonLengthBound(v, limit, 1);
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return Infinity;
  const o = v as Record<string, unknown>;
  const so = stored as Record<string, unknown>;
  let n = 2;
  for (const k in o) {
    if (k === 'toJSON') return Infinity;
    const x = o[k];
    let b: number | undefined;
    if (x !== null && typeof x === 'object' && x === so[k]) {
      b = storedFieldBounds.get(x);
      if (b === undefined) storedFieldBounds.set(x, (b = jsonLengthBound(x, limit, 2)));
    } else b = jsonLengthBound(x, limit, 2);
    n += 6 * k.length + 4 + b;
    if (n > limit) return Infinity;
  }
  return n;
}

/** `copyWithinBound` could not bound the value (see `checkSizeAndCopy`). */
const CANNOT_BOUND: unique symbol = Symbol('cannot bound');
/** What is left of the limit while `copyWithinBound` walks (module state: no tuple per call). */
let copyBudget = 0;

/**
 * `deepCopy(v)` (types.ts structuredCloneJson: undefined object fields dropped, array items kept)
 * while taking `jsonLengthBound(v)` off `copyBudget`; CANNOT_BOUND where `jsonLengthBound` would
 * be Infinity (past the budget, deeper than 64, bigint, non-plain objects, `toJSON`).
 */
function copyWithinBound(v: unknown, depth: number): unknown {
  switch (typeof v) {
    case 'string':
      copyBudget -= 6 * v.length + 2;
      return v;
    case 'number':
      copyBudget -= 24;
      return v;
    case 'boolean':
      copyBudget -= 5;
      return v;
    case 'bigint':
      return CANNOT_BOUND;
    case 'undefined':
    case 'function':
    case 'symbol':
      copyBudget -= 4;
      return v;
  }
  if (v === null) {
    copyBudget -= 4;
    return v;
  }
  if (depth > 64) return CANNOT_BOUND;
  copyBudget -= 2;
  // Strings (most of an object's leaves) are counted in the loops, without a call each.
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const x: unknown = v[i];
      let c: unknown;
      if (typeof x === 'string') {
        copyBudget -= 6 * x.length + 2;
        c = x;
      } else c = copyWithinBound(x, depth + 1);
      copyBudget -= 1;
      if (c === CANNOT_BOUND || copyBudget < 0) return CANNOT_BOUND;
      out[i] = c;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return CANNOT_BOUND;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k in o) {
    if (k === 'toJSON') return CANNOT_BOUND;
    const x = o[k];
    copyBudget -= 6 * k.length + 4;
    if (typeof x === 'string') {
      copyBudget -= 6 * x.length + 2;
      if (copyBudget < 0) return CANNOT_BOUND;
      out[k] = x;
      continue;
    }
    const c = copyWithinBound(x, depth + 1);
    if (c === CANNOT_BOUND || copyBudget < 0) return CANNOT_BOUND;
    if (x !== undefined) out[k] = c;
  }
  return compactCondition(out);
}

/**
 * `copyWithinBound(v)` against `old`, the stored value at the same place (immutable): where the
 * copy would be deep-equal to `old` with the same fields in the same order, `old` itself is
 * returned instead (so an unchanged status shares its subtrees with the previous version, and
 * the no-op check `deepEqual(status, old.status)` stops at `===`). A value handed out this way
 * equals what the copy would be (deepEqual and JSON), and no one mutates stored objects.
 */
function copyStatusSharing(v: unknown, old: unknown, depth: number): unknown {
  if (v === null || typeof v !== 'object') return copyWithinBound(v, depth);
  if (old === null || typeof old !== 'object') return copyWithinBound(v, depth);
  if (depth > 64) return CANNOT_BOUND;
  copyBudget -= 2;
  if (Array.isArray(v)) {
    const n = v.length;
    const o = Array.isArray(old) && old.length === n ? old : undefined;
    const out = new Array<unknown>(n);
    let same = o !== undefined;
    for (let i = 0; i < n; i++) {
      const c = o ? copyStatusSharing(v[i], o[i], depth + 1) : copyWithinBound(v[i], depth + 1);
      copyBudget -= 1;
      if (c === CANNOT_BOUND || copyBudget < 0) return CANNOT_BOUND;
      out[i] = c;
      if (same && c !== o![i]) same = false;
    }
    return same ? o : out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return CANNOT_BOUND;
  const src = v as Record<string, unknown>;
  const o = Array.isArray(old) ? undefined : (old as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  let same = o !== undefined;
  let defined = 0;
  for (const k in src) {
    if (k === 'toJSON') return CANNOT_BOUND;
    const x = src[k];
    copyBudget -= 6 * k.length + 4;
    const ox = o?.[k];
    const c = ox !== undefined ? copyStatusSharing(x, ox, depth + 1) : copyWithinBound(x, depth + 1);
    if (c === CANNOT_BOUND || copyBudget < 0) return CANNOT_BOUND;
    if (x === undefined) continue;
    out[k] = c;
    defined++;
    if (same && c !== ox) same = false;
  }
  if (!same) return compactCondition(out);
  // Every field is the stored one: share it when the stored value has exactly these fields, in
  // this order (JSON and key order unchanged), and is a plain object.
  const op = Object.getPrototypeOf(o);
  if (op !== Object.prototype && op !== null) return compactCondition(out);
  const keys = Object.keys(o!);
  if (keys.length !== defined) return compactCondition(out);
  let i = 0;
  for (const k in src) {
    if (src[k] === undefined) continue;
    if (keys[i++] !== k) return compactCondition(out);
  }
  return o;
}

/**
 * An upper bound of `JSON.stringify(v).length` (for `checkSize`), or Infinity when it cannot tell
 * cheaply: past `limit`, nesting deeper than 64 (cycles), bigint, non-plain objects or `toJSON`;
 * the caller then measures exactly. Strings count 6 per UTF-16 unit (the longest JSON escape,
 * `\u001f`) plus quotes; numbers 24 (`-2.2250738585072014e-308`); undefined/functions 4 (`null`).
 */
function jsonLengthBound(v: unknown, limit: number, depth: number): number {
  switch (typeof v) {
    case 'string':
      return 6 * v.length + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'bigint':
      return Infinity;
    case 'undefined':
    case 'function':
    case 'symbol':
      return 4;
  }
  if (v === null) return 4;
  if (depth > 64) return Infinity;
  let n = 2;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      n += jsonLengthBound(v[i], limit, depth + 1) + 1;
      if (n > limit) return Infinity;
    }
    return n;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return Infinity;
  for (const k in v as Record<string, unknown>) {
    if (k === 'toJSON') return Infinity;
    n += 6 * k.length + 4 + jsonLengthBound((v as Record<string, unknown>)[k], limit, depth + 1);
    if (n > limit) return Infinity;
  }
  return n;
}

/**
 * The `status.selector` of a type's Scale: for the built-in workloads the string form of
 * `spec.selector` (pkg/registry/apps/deployment/storage/storage.go `scaleFromDeployment`:
 * `metav1.LabelSelectorAsSelector(deployment.Spec.Selector).String()`; the same for ReplicaSets
 * and StatefulSets; `labels.SelectorFromSet(rc.Spec.Selector).String()` for a
 * ReplicationController), for other types (custom resources) the string at `.status.selector`.
 * '' when the selector does not convert.
 */
function scaleSelector(t: ResourceType, o: KubeObject): string {
  try {
    if (t.group === 'apps' && (t.kind === 'Deployment' || t.kind === 'ReplicaSet' || t.kind === 'StatefulSet')) return selectorFromLabelSelector(o.spec?.selector).toString();
    if (t.group === '' && t.kind === 'ReplicationController') return selectorFromSet(o.spec?.selector).toString();
  } catch {
    return '';
  }
  return typeof o.status?.selector === 'string' ? o.status.selector : '';
}
