/**
 * statefulset-controller: pods with a stable identity (`web-0`, `web-1`, ...), stable storage
 * (one PersistentVolumeClaim per pod and template, `www-web-0`) and an order.
 *
 * Mirrors pkg/controller/statefulset (stateful_set.go, stateful_set_control.go,
 * stateful_pod_control.go, stateful_set_utils.go) of Kubernetes 1.32-1.36:
 *
 *   informers (StatefulSets, Pods, ControllerRevisions, PVCs) -> handlers enqueue the set's key
 *   -> reconcile(key):
 *     1. claim the pods (adopt orphans whose labels match and whose name is `<set>-<n>`);
 *     2. revisions: the pod template of the spec is stored as a ControllerRevision
 *        `<set>-<hash>`; `status.updateRevision` is the one matching the spec now,
 *        `status.currentRevision` the one the set had converged to (a revert finds the old
 *        revision again and bumps its `revision` number);
 *     3. ordinals `start .. start+replicas-1` (`spec.ordinals.start`) are "replicas", any other
 *        ordinal is "condemned". Each missing replica is created (its PVCs first), a Failed or
 *        Succeeded one is deleted to be recreated. With `OrderedReady` (monotonic) the loop stops
 *        at the first pod that is not created yet, terminating, or not Running and Ready: one pod
 *        at a time, in order; with `Parallel` everything goes at once;
 *     4. condemned pods are deleted from the highest ordinal down (OrderedReady: one at a time,
 *        each fully gone before the next, and only while every replica is healthy);
 *     5. RollingUpdate: the highest ordinal >= `partition` whose revision is not the update
 *        revision is deleted (and recreated at the update revision by step 3 of a later sync);
 *        the loop waits while any such pod is not yet Running and Ready. OnDelete: nothing, a pod
 *        gets the new template when someone deletes it;
 *     6. status (replicas, readyReplicas, currentReplicas, updatedReplicas, availableReplicas,
 *        currentRevision, updateRevision, collisionCount, observedGeneration); a finished
 *        rolling update makes the update revision current. Old revisions beyond
 *        `revisionHistoryLimit` are deleted.
 *
 * Two consequences users meet (cases.md C18, C26): a pod that never becomes Ready blocks the
 * set for good, even after the template is reverted, until someone deletes that pod (step 3
 * stops before step 5 is reached); and a pod whose PVC never binds stays Pending, so the next
 * ordinal is never created. A pod stuck Terminating (on a dead node) is never replaced: its name
 * is taken until the object is really gone, so there are never two pods with one identity.
 *
 * PVCs are never deleted by this controller. `persistentVolumeClaimRetentionPolicy`
 * (StatefulSetAutoDeletePVC, GA 1.32) only sets ownerReferences on them: `whenDeleted: Delete`
 * points them at the set, `whenScaled: Delete` points the claims of a scaled-down ordinal at its
 * pod; the garbage collector does the deleting.
 */
import { ApiError } from '../api/errors';
import { selectorFromLabelSelector, type Selector } from '../api/labels';
import { deepCopy, deepEqual, type KubeObject, type OwnerReference } from '../api/types';
import { parseRfc3339 } from '../clock';
import { metaNamespaceKey, type Informer } from '../client/informer';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';
import {
  getControllerOf,
  hashControllerRevision,
  isControlledBy,
  isPodAvailable,
  isPodReady,
  newControllerRef,
  podsPrefix,
  templateFromRevision,
  templateRevisionData,
} from './util';

/** The component name on Events and traces. */
export const STATEFULSET_CONTROLLER = 'statefulset-controller';

/** Workers (`--concurrent-statefulset-syncs`, default 5). Source: cmd/kube-controller-manager/app/options/statefulsetcontroller.go. */
export const DEFAULT_CONCURRENT_STATEFULSET_SYNCS = 5;

/** Pod label naming the revision it was made from (`apps.StatefulSetRevisionLabel`). Source: staging/src/k8s.io/api/apps/v1/types.go. */
export const STATEFULSET_REVISION_LABEL = 'controller-revision-hash';
/** Pod label with the pod's own name (`apps.StatefulSetPodNameLabel`). */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** Pod label with the ordinal (`apps.PodIndexLabel`, PodIndexLabel GA 1.32). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** ControllerRevision label with the data hash (`history.ControllerRevisionHashLabel`). Source: pkg/controller/history/controller_history.go. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** `statefulPodRegex`: parent name and ordinal from a pod name. Source: stateful_set_utils.go. */
const STATEFUL_POD_REGEX = /^(.*)-([0-9]+)$/;

type Obj = KubeObject;

// ------------------------------------------------------------------------------ identity helpers

/** `getParentNameAndOrdinal`: `web-2` -> [`web`, 2]; [``, -1] when the name has no ordinal. */
function parentAndOrdinal(pod: Obj): [string, number] {
  const m = STATEFUL_POD_REGEX.exec(pod.metadata.name ?? '');
  if (!m) return ['', -1];
  const n = Number(m[2]);
  return Number.isSafeInteger(n) && n <= 2147483647 ? [m[1], n] : [m[1], -1];
}

const ordinalOf = (pod: Obj) => parentAndOrdinal(pod)[1];
const startOrdinal = (set: Obj): number => set.spec?.ordinals?.start ?? 0;
const replicasOf = (set: Obj): number => set.spec?.replicas ?? 1;
const endOrdinal = (set: Obj): number => startOrdinal(set) + replicasOf(set) - 1;
const inOrdinalRange = (pod: Obj, set: Obj) => ordinalOf(pod) >= startOrdinal(set) && ordinalOf(pod) <= endOrdinal(set);
const podName = (set: Obj, ordinal: number) => `${set.metadata.name}-${ordinal}`;
const claimName = (set: Obj, template: Obj, ordinal: number) => `${template.metadata?.name}-${set.metadata.name}-${ordinal}`;
const isMemberOf = (set: Obj, pod: Obj) => parentAndOrdinal(pod)[0] === set.metadata.name;
const revisionOf = (pod: Obj): string => pod.metadata.labels?.[STATEFULSET_REVISION_LABEL] ?? '';
const isCreated = (pod: Obj) => !!pod.status?.phase;
const isTerminating = (pod: Obj) => !!pod.metadata.deletionTimestamp;
const isRunningAndReady = (pod: Obj) => pod.status?.phase === 'Running' && isPodReady(pod);

/** `identityMatches`: right name, namespace and pod-name label. */
function identityMatches(set: Obj, pod: Obj): boolean {
  const [parent, ordinal] = parentAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    parent === set.metadata.name &&
    pod.metadata.name === podName(set, ordinal) &&
    pod.metadata.namespace === set.metadata.namespace &&
    pod.metadata.labels?.[STATEFULSET_POD_NAME_LABEL] === pod.metadata.name
  );
}

/** `storageMatches`: every claim template is mounted from this ordinal's PVC. */
function storageMatches(set: Obj, pod: Obj): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map<string, Obj>((pod.spec?.volumes ?? []).map((v: Obj) => [v.name as string, v]));
  for (const t of set.spec?.volumeClaimTemplates ?? []) {
    const v = volumes.get(t.metadata?.name);
    if (!v || (v as { persistentVolumeClaim?: { claimName?: string } }).persistentVolumeClaim?.claimName !== claimName(set, t, ordinal)) return false;
  }
  return true;
}

/** `getPersistentVolumeClaims`: the claims an ordinal needs, named `<template>-<set>-<ordinal>`, labelled with the selector. */
function claimsFor(set: Obj, ordinal: number): Obj[] {
  return (set.spec?.volumeClaimTemplates ?? []).map((t: Obj) => {
    const labels = { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
    const claim: Obj = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        ...deepCopy(t.metadata ?? {}),
        name: claimName(set, t, ordinal),
        namespace: set.metadata.namespace,
        ...(Object.keys(labels).length ? { labels } : {}),
      },
      spec: deepCopy(t.spec ?? {}),
    };
    return claim;
  });
}

/** `updateStorage`: the claim volumes first (template order), then the pod's other volumes. */
function updateStorage(set: Obj, pod: Obj): void {
  const ordinal = ordinalOf(pod);
  const templates: Obj[] = set.spec?.volumeClaimTemplates ?? [];
  const names = new Set(templates.map((t) => t.metadata?.name as string));
  const claimVolumes = templates.map((t) => ({ name: t.metadata?.name, persistentVolumeClaim: { claimName: claimName(set, t, ordinal) } }));
  const others = (pod.spec.volumes ?? []).filter((v: { name: string }) => !names.has(v.name));
  const volumes = [...claimVolumes, ...others];
  if (volumes.length) pod.spec.volumes = volumes;
}

/** `updateIdentity`: name, namespace, pod-name and pod-index labels. */
function updateIdentity(set: Obj, pod: Obj): void {
  const ordinal = ordinalOf(pod);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [STATEFULSET_POD_NAME_LABEL]: pod.metadata.name!, [POD_INDEX_LABEL]: String(ordinal) };
}

/**
 * `newVersionedStatefulSetPod`: the pod for `ordinal` from the current revision's template when
 * the ordinal is below the partition, from the update revision's otherwise. Hostname = pod
 * name, subdomain = `spec.serviceName` (set only at creation).
 */
function newVersionedPod(set: Obj, current: Obj, update: Obj, ordinal: number): Obj {
  const ru = set.spec?.updateStrategy?.rollingUpdate;
  const rolling = (set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  // Go's operator precedence in the original: (RollingUpdate && nil rollingUpdate && below
  // currentReplicas) || (rollingUpdate set && below partition).
  const useCurrent =
    (rolling && !ru && ordinal < startOrdinal(set) + (set.status?.currentReplicas ?? 0)) || (!!ru && ordinal < startOrdinal(set) + (ru.partition ?? 0));
  const rev = useCurrent ? current : update;
  const template = templateFromRevision(rev) as Obj;
  const meta = (template.metadata ?? {}) as Obj['metadata'];
  const pod: Obj = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: podsPrefix(set.metadata.name!),
      name: podName(set, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...(meta.labels ?? {}) },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [newControllerRef(set)],
    },
    spec: deepCopy(template.spec ?? {}),
  };
  updateIdentity(set, pod);
  pod.spec.hostname = pod.metadata.name;
  if (set.spec?.serviceName) pod.spec.subdomain = set.spec.serviceName;
  updateStorage(set, pod);
  pod.metadata.labels![STATEFULSET_REVISION_LABEL] = rev.metadata.name!;
  return pod;
}

// ------------------------------------------------------------------------------ retention policy

const RETAIN = 'Retain';
const DELETE = 'Delete';

function retentionPolicy(set: Obj): { whenDeleted: string; whenScaled: string } {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy ?? {};
  return { whenDeleted: p.whenDeleted ?? RETAIN, whenScaled: p.whenScaled ?? RETAIN };
}

const refMatches = (ref: OwnerReference, obj: Obj, kind: string) => ref.kind === kind && ref.name === obj.metadata.name;
const hasOwnerRef = (target: Obj, owner: Obj) => !!owner.metadata.uid && (target.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);
/** `hasStaleOwnerRef`: a reference by name and kind whose uid is not the object's (an earlier incarnation). */
function hasStaleOwnerRef(target: Obj, obj: Obj, kind: string): boolean {
  for (const r of target.metadata.ownerReferences ?? []) if (refMatches(r, obj, kind)) return r.uid !== obj.metadata.uid;
  return false;
}

/** `hasUnexpectedController`: with a Delete policy, another controller owns the claim. */
function hasUnexpectedController(claim: Obj, set: Obj, pod: Obj): boolean {
  const p = retentionPolicy(set);
  if (p.whenScaled === RETAIN && p.whenDeleted === RETAIN) return false;
  for (const r of claim.metadata.ownerReferences ?? []) {
    if (refMatches(r, set, 'StatefulSet')) {
      if (r.uid !== set.metadata.uid) return true;
      continue;
    }
    if (refMatches(r, pod, 'Pod')) {
      if (r.uid !== pod.metadata.uid) return true;
      continue;
    }
    if (r.controller) return true;
  }
  return false;
}

/** `isClaimOwnerUpToDate`: the claim's ownerReferences agree with the retention policy. */
function isClaimOwnerUpToDate(claim: Obj, set: Obj, pod: Obj): boolean {
  if (hasStaleOwnerRef(claim, set, 'StatefulSet') || hasStaleOwnerRef(claim, pod, 'Pod')) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  const nonController = (claim.metadata.ownerReferences ?? []).some((r) => (r.uid === set.metadata.uid || r.uid === pod.metadata.uid) && !r.controller);
  if (nonController) return false;
  const p = retentionPolicy(set);
  const scaledDown = !inOrdinalRange(pod, set);
  if (p.whenScaled === DELETE && p.whenDeleted === DELETE) return scaledDown !== hasOwnerRef(claim, set) && scaledDown === hasOwnerRef(claim, pod);
  if (p.whenScaled === DELETE) return !hasOwnerRef(claim, set) && scaledDown === hasOwnerRef(claim, pod);
  if (p.whenDeleted === DELETE) return hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
  return !hasOwnerRef(claim, set) && !hasOwnerRef(claim, pod);
}

/** `updateClaimOwnerRefForSetAndPod`: the ownerReferences the policy wants. */
function claimOwnerRefsFor(claim: Obj, set: Obj, pod: Obj): OwnerReference[] {
  const unexpected = hasUnexpectedController(claim, set, pod);
  let refs = (claim.metadata.ownerReferences ?? []).filter((r) => !refMatches(r, set, 'StatefulSet') && !refMatches(r, pod, 'Pod'));
  if (unexpected) return refs;
  const p = retentionPolicy(set);
  const scaledDown = !inOrdinalRange(pod, set);
  const add = (owner: Obj) => {
    if (!refs.some((r) => r.uid === owner.metadata.uid)) refs = [...refs, newControllerRef(owner)];
  };
  if (p.whenScaled === DELETE && scaledDown) add(pod);
  if (p.whenDeleted === DELETE && !(p.whenScaled === DELETE && scaledDown)) add(set);
  return refs;
}

// ------------------------------------------------------------------------------ the controller

/** Start the statefulset-controller (see the file comment). */
export function newStatefulSetController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(STATEFULSET_CONTROLLER);
  const setInformer = ctx.informers.informer('statefulsets');
  const podInformer = ctx.informers.informer('pods');
  const revisionInformer = ctx.informers.informer('controllerrevisions');
  const claimInformer = ctx.informers.informer('persistentvolumeclaims');
  const sets = setInformer.lister;
  const pods = podInformer.lister;
  const revisions = revisionInformer.lister;
  const claims = claimInformer.lister;
  const queue = new RateLimitingQueue(clock, { name: 'statefulset' });

  const ref = (o: Obj) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name!, uid: o.metadata.uid });
  const trace = (set: Obj, message: string) => ctx.trace(STATEFULSET_CONTROLLER, `${metaNamespaceKey(set)} ${message}`, ref(set));

  // ---------------------------------------------------------------- event handlers (enqueue only)

  const enqueue = (set: Obj) => queue.add(metaNamespaceKey(set));
  const resolveControllerRef = (namespace: string | undefined, r: OwnerReference): Obj | undefined => {
    if (r.kind !== 'StatefulSet') return undefined;
    const set = sets.get(namespace, r.name);
    return set && set.metadata.uid === r.uid ? set : undefined;
  };
  /** `getPodStatefulSets`: sets whose selector matches an orphan pod. */
  const setsSelecting = (pod: Obj): Obj[] =>
    sets.list(pod.metadata.namespace).filter((s) => {
      try {
        const sel = selectorFromLabelSelector(s.spec?.selector);
        return !sel.empty() && sel.matches(pod.metadata.labels);
      } catch {
        return false;
      }
    });

  setInformer.addEventHandler({
    onAdd: (s) => enqueue(s),
    onUpdate: (_o, s) => enqueue(s),
    onDelete: (s) => enqueue(s),
  });
  podInformer.addEventHandler({
    onAdd: (pod) => {
      const r = getControllerOf(pod);
      if (r) {
        const set = resolveControllerRef(pod.metadata.namespace, r);
        if (set) enqueue(set);
        return;
      }
      for (const s of setsSelecting(pod)) enqueue(s);
    },
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      const curRef = getControllerOf(cur);
      const oldRef = getControllerOf(old);
      const refChanged = !deepEqual(curRef, oldRef);
      if (refChanged && oldRef) {
        const set = resolveControllerRef(old.metadata.namespace, oldRef);
        if (set) enqueue(set);
      }
      if (curRef) {
        const set = resolveControllerRef(cur.metadata.namespace, curRef);
        if (!set) return;
        enqueue(set);
        const mrs = set.spec?.minReadySeconds ?? 0;
        if (!isPodReady(old) && isPodReady(cur) && mrs > 0) queue.addAfter(metaNamespaceKey(set), mrs * 1000 + 1000);
        return;
      }
      if (refChanged || !deepEqual(old.metadata.labels, cur.metadata.labels)) for (const s of setsSelecting(cur)) enqueue(s);
    },
    onDelete: (pod) => {
      const r = getControllerOf(pod);
      const set = r && resolveControllerRef(pod.metadata.namespace, r);
      if (set) enqueue(set);
    },
  });

  // ---------------------------------------------------------------- pod and claim operations

  const errorText = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

  /** `recordPodEvent`: `create Pod web-0 in StatefulSet web successful` / `... failed error: ...`. */
  const podEvent = (verb: string, set: Obj, pod: Obj, err?: unknown) => {
    const title = verb[0].toUpperCase() + verb.slice(1);
    if (err === undefined) recorder.event(set, 'Normal', `Successful${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    else recorder.event(set, 'Warning', `Failed${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(err)}`);
  };
  /** `recordClaimEvent`: `create Claim www-web-0 Pod web-0 in StatefulSet web success`. */
  const claimEvent = (verb: string, set: Obj, pod: Obj, claim: Obj, err?: unknown) => {
    const title = verb[0].toUpperCase() + verb.slice(1);
    if (err === undefined) recorder.event(set, 'Normal', `Successful${title}`, `${verb} Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
    else recorder.event(set, 'Warning', `Failed${title}`, `${verb} Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(err)}`);
  };

  /** An aggregate of errors as `utilerrors.NewAggregate` prints it. */
  const aggregate = (errs: string[]): ApiError | undefined => {
    if (!errs.length) return undefined;
    const msg = errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
    return new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: msg, reason: 'InternalError', code: 500 });
  };

  /** `createPersistentVolumeClaims`: create the ordinal's missing claims (from the cache's point of view). */
  const createClaims = (set: Obj, pod: Obj): ApiError | undefined => {
    const errs: string[] = [];
    for (const claim of claimsFor(set, ordinalOf(pod))) {
      const existing = claims.get(claim.metadata.namespace, claim.metadata.name!);
      if (!existing) {
        try {
          api.create(claim, { fieldManager: 'kube-controller-manager' });
          claimEvent('create', set, pod, claim);
          trace(set, `create Claim ${claim.metadata.name} for Pod ${pod.metadata.name}`);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          errs.push(`failed to create PVC ${claim.metadata.name}: ${e.message}`);
          if (e.reason !== 'AlreadyExists') claimEvent('create', set, pod, claim, e);
        }
      } else if (existing.metadata.deletionTimestamp) {
        errs.push(`pvc ${claim.metadata.name} is being deleted`);
      }
    }
    return aggregate(errs);
  };

  /** `ClaimsMatchRetentionPolicy`. */
  const claimsMatchPolicy = (set: Obj, pod: Obj): boolean => {
    for (const c of claimsFor(set, ordinalOf(pod))) {
      const claim = claims.get(c.metadata.namespace, c.metadata.name!);
      if (claim && !isClaimOwnerUpToDate(claim, set, pod)) return false;
    }
    return true;
  };

  /** `UpdatePodClaimForRetentionPolicy`: fix the claims' ownerReferences (claims not in the cache yet are left for a later sync). */
  const updateClaimsForPolicy = (set: Obj, pod: Obj): void => {
    for (const c of claimsFor(set, ordinalOf(pod))) {
      const claim = claims.get(c.metadata.namespace, c.metadata.name!);
      if (!claim) continue;
      if (hasUnexpectedController(claim, set, pod)) {
        recorder.event(
          set,
          'Warning',
          'ConflictingController',
          `PersistentVolumeClaim ${claim.metadata.name} has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim`,
        );
      }
      if (isClaimOwnerUpToDate(claim, set, pod)) continue;
      const next = deepCopy(claim);
      next.metadata.ownerReferences = claimOwnerRefsFor(claim, set, pod);
      if (!next.metadata.ownerReferences.length) delete next.metadata.ownerReferences;
      api.update(next, { fieldManager: 'kube-controller-manager' });
      trace(set, `set ownerReferences of Claim ${claim.metadata.name} for retention policy`);
    }
  };

  /** `PodClaimIsStale`: with `whenScaled: Delete`, a claim still owned by an earlier pod of this name blocks creation. */
  const podClaimIsStale = (set: Obj, pod: Obj): boolean => {
    if (retentionPolicy(set).whenScaled === RETAIN) return false;
    for (const c of claimsFor(set, ordinalOf(pod))) {
      const claim = claims.get(c.metadata.namespace, c.metadata.name!);
      if (claim && hasStaleOwnerRef(claim, pod, 'Pod')) return true;
    }
    return false;
  };

  /** `CreateStatefulPod`: PVCs first, then the pod; AlreadyExists is returned silently. */
  const createPod = (set: Obj, pod: Obj): void => {
    const claimErr = createClaims(set, pod);
    if (claimErr) {
      podEvent('create', set, pod, claimErr);
      throw claimErr;
    }
    let created: Obj;
    try {
      created = api.create(pod, { fieldManager: 'kube-controller-manager' });
    } catch (e) {
      if (e instanceof ApiError && e.reason !== 'AlreadyExists') podEvent('create', set, pod, e);
      throw e;
    }
    try {
      updateClaimsForPolicy(set, created);
    } catch (e) {
      if (e instanceof ApiError) podEvent('update', set, pod, e);
      throw e;
    }
    podEvent('create', set, pod);
    trace(set, `create Pod ${pod.metadata.name} (revision ${revisionOf(pod)})`);
  };

  /** `UpdateStatefulPod`: restore identity labels, claim volumes and claim ownership of an existing pod. */
  const updatePod = (set: Obj, cached: Obj): void => {
    const pod = deepCopy(cached);
    let consistent = true;
    if (!identityMatches(set, pod)) {
      updateIdentity(set, pod);
      consistent = false;
    }
    if (!storageMatches(set, pod)) {
      updateStorage(set, pod);
      consistent = false;
      const err = createClaims(set, pod);
      if (err) {
        podEvent('update', set, pod, err);
        throw err;
      }
    }
    if (!claimsMatchPolicy(set, pod)) {
      updateClaimsForPolicy(set, pod);
      consistent = false;
    }
    if (consistent) return;
    try {
      api.update(pod, { fieldManager: 'kube-controller-manager' });
      podEvent('update', set, pod);
    } catch (e) {
      if (e instanceof ApiError) podEvent('update', set, pod, e);
      throw e;
    }
  };

  /** `DeleteStatefulPod`: a plain (graceful) delete; the PVCs stay. */
  const deletePod = (set: Obj, pod: Obj, why: string): void => {
    try {
      api.delete('pods', pod.metadata.namespace, pod.metadata.name!, { fieldManager: 'kube-controller-manager' });
    } catch (e) {
      if (e instanceof ApiError) podEvent('delete', set, pod, e);
      throw e;
    }
    podEvent('delete', set, pod);
    trace(set, `delete Pod ${pod.metadata.name} (${why})`);
  };

  // ---------------------------------------------------------------- claiming pods and revisions

  /** `PodControllerRefManager.ClaimPods` with the `isMemberOf` filter: adopt matching orphans, release owned pods that stopped matching. */
  const claimPods = (set: Obj, selector: Selector): Obj[] => {
    const out: Obj[] = [];
    const deleting = !!set.metadata.deletionTimestamp;
    for (const pod of pods.list(set.metadata.namespace)) {
      const match = selector.matches(pod.metadata.labels) && isMemberOf(set, pod);
      const owner = getControllerOf(pod);
      if (owner) {
        if (owner.uid !== set.metadata.uid) continue;
        if (match || deleting) {
          out.push(pod);
          continue;
        }
        const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== set.metadata.uid);
        try {
          api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'merge', { metadata: { ownerReferences: refs.length ? refs : null } });
          trace(set, `release Pod ${pod.metadata.name} (no longer matches)`);
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
        continue;
      }
      if (!match || deleting || pod.metadata.deletionTimestamp) continue;
      const adopted = api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'merge', {
        metadata: { ownerReferences: [...(pod.metadata.ownerReferences ?? []), newControllerRef(set)] },
      });
      trace(set, `adopt Pod ${pod.metadata.name}`);
      out.push(adopted);
    }
    return out;
  };

  /** `ListRevisions` (+ `adoptOrphanRevisions`), sorted by `revision`, then creation time, then name. */
  const listRevisions = (set: Obj, selector: Selector): Obj[] => {
    const out: Obj[] = [];
    for (const r of revisions.list(set.metadata.namespace)) {
      if (isControlledBy(r, set.metadata.uid)) out.push(r);
      else if (!getControllerOf(r) && selector.matches(r.metadata.labels) && !set.metadata.deletionTimestamp) {
        out.push(
          api.patch('controllerrevisions', r.metadata.namespace, r.metadata.name!, 'merge', {
            metadata: { ownerReferences: [...(r.metadata.ownerReferences ?? []), newControllerRef(set)] },
          }),
        );
      }
    }
    return out.sort(
      (a, b) =>
        (a.revision as number) - (b.revision as number) ||
        parseRfc3339(a.metadata.creationTimestamp ?? '') - parseRfc3339(b.metadata.creationTimestamp ?? '') ||
        (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0),
    );
  };

  /** `history.EqualRevision`: same hash label (when both have one) and same data. */
  const equalRevision = (a: Obj, b: Obj) => {
    const ha = a.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
    const hb = b.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
    if (ha && hb && ha !== hb) return false;
    return deepEqual(a.data, b.data);
  };

  /** `newRevision`: the revision object for the spec's template (name `<set>-<hash>`). */
  const newRevision = (set: Obj, revision: number, collisionCount: number): Obj => {
    const data = templateRevisionData(set.spec?.template);
    const hash = hashControllerRevision(data, collisionCount);
    const annotations = { ...(set.metadata.annotations ?? {}) };
    return {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: `${set.metadata.name!.slice(0, 223)}-${hash}`,
        namespace: set.metadata.namespace,
        labels: { ...(set.spec?.template?.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
        ...(Object.keys(annotations).length ? { annotations } : {}),
        ownerReferences: [newControllerRef(set)],
      },
      data,
      revision,
    };
  };

  /** `getStatefulSetRevisions`: find or create the update revision; the current one is `status.currentRevision` (or the update one). */
  const getRevisions = (set: Obj, revs: Obj[]): { current: Obj; update: Obj; collisionCount: number } => {
    let collisionCount: number = set.status?.collisionCount ?? 0;
    const next = revs.length ? (revs[revs.length - 1].revision as number) + 1 : 1;
    let update = newRevision(set, next, collisionCount);
    const equal = revs.filter((r) => equalRevision(r, update));
    if (equal.length && revs[revs.length - 1] === equal[equal.length - 1]) {
      update = revs[revs.length - 1];
    } else if (equal.length) {
      // A rollback: the old revision becomes the newest one again.
      const bumped = deepCopy(equal[equal.length - 1]);
      bumped.revision = next;
      update = api.update(bumped, { fieldManager: 'kube-controller-manager' });
      trace(set, `reuse ControllerRevision ${update.metadata.name} as revision ${next}`);
    } else {
      // `CreateControllerRevision`: on a name taken by different data, bump the collision count.
      for (;;) {
        const candidate = newRevision(set, next, collisionCount);
        try {
          update = api.create(candidate, { fieldManager: 'kube-controller-manager' });
          trace(set, `create ControllerRevision ${update.metadata.name} (revision ${next})`);
          break;
        } catch (e) {
          if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
          const existing = revisions.get(candidate.metadata.namespace, candidate.metadata.name!);
          if (!existing) throw e; // not in the cache yet: retry after backoff
          if (equalRevision(existing, candidate)) {
            update = existing;
            break;
          }
          collisionCount++;
        }
      }
    }
    const current = revs.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount };
  };

  // ---------------------------------------------------------------- the sync

  interface SetStatus {
    observedGeneration?: number;
    replicas: number;
    readyReplicas: number;
    currentReplicas: number;
    updatedReplicas: number;
    availableReplicas: number;
    currentRevision: string;
    updateRevision: string;
    collisionCount: number;
  }

  /** `computeReplicaStatus` over every given pod list. */
  const countStatus = (status: SetStatus, set: Obj, current: Obj, update: Obj, ...lists: (Obj | undefined)[][]) => {
    const mrs = set.spec?.minReadySeconds ?? 0;
    status.replicas = status.readyReplicas = status.availableReplicas = status.currentReplicas = status.updatedReplicas = 0;
    for (const list of lists) {
      for (const pod of list) {
        if (!pod || !isCreated(pod)) continue;
        status.replicas++;
        if (isRunningAndReady(pod)) {
          status.readyReplicas++;
          if (isPodAvailable(pod, mrs, clock.now(), (t) => parseRfc3339(t) - clock.epochMs)) status.availableReplicas++;
        }
        if (!isTerminating(pod)) {
          if (revisionOf(pod) === current.metadata.name) status.currentReplicas++;
          if (revisionOf(pod) === update.metadata.name) status.updatedReplicas++;
        }
      }
    }
  };

  const isUnavailable = (pod: Obj, mrs: number) =>
    !isCreated(pod) || isTerminating(pod) || !isPodAvailable(pod, mrs, clock.now(), (t) => parseRfc3339(t) - clock.epochMs);

  /** `updateStatefulSet`: steps 3-5 of the file comment. Returns the status to write. */
  const updateStatefulSet = (set: Obj, current: Obj, update: Obj, collisionCount: number, owned: Obj[]): SetStatus => {
    const status: SetStatus = {
      observedGeneration: set.metadata.generation,
      replicas: 0,
      readyReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      availableReplicas: 0,
      currentRevision: current.metadata.name!,
      updateRevision: update.metadata.name!,
      collisionCount,
    };
    const mrs: number = set.spec?.minReadySeconds ?? 0;
    const start = startOrdinal(set);
    const replicas: Obj[] = new Array(replicasOf(set));
    const condemned: Obj[] = [];
    for (const pod of owned) {
      if (inOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
      else if (ordinalOf(pod) >= 0) condemned.push(pod);
    }
    // Any empty slot gets a new pod object (not created yet).
    for (let i = 0; i < replicas.length; i++) if (!replicas[i]) replicas[i] = newVersionedPod(set, current, update, start + i);
    condemned.sort((a, b) => ordinalOf(b) - ordinalOf(a));
    countStatus(status, set, current, update, owned);

    let firstUnhealthy: Obj | undefined;
    for (const p of replicas) if (!firstUnhealthy && isUnavailable(p, mrs)) firstUnhealthy = p;
    for (let i = condemned.length - 1; i >= 0; i--) if (!firstUnhealthy && isUnavailable(condemned[i], mrs)) firstUnhealthy = condemned[i];

    if (set.metadata.deletionTimestamp) return status;
    const monotonic = set.spec?.podManagementPolicy !== 'Parallel';
    const done = () => {
      countStatus(status, set, current, update, replicas, condemned);
      return status;
    };

    // Replicas: create, replace failed, wait in order.
    const errors: ApiError[] = [];
    for (let i = 0; i < replicas.length; i++) {
      const pod = replicas[i];
      let block = false;
      try {
        block = processReplica(set, pod, monotonic, replicas, i, mrs);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (monotonic) {
          done();
          throw e;
        }
        errors.push(e);
      }
      if (block && monotonic) return done();
    }
    if (errors.length) {
      done();
      throw errors[0];
    }

    // Condemned pods: their claims' ownership, then deletion from the top.
    for (const pod of condemned) {
      if (!claimsMatchPolicy(set, pod)) updateClaimsForPolicy(set, pod);
    }
    for (const pod of condemned) {
      if (isTerminating(pod)) {
        if (monotonic) {
          trace(set, `waits for Pod ${pod.metadata.name} to terminate before scaling down`);
          return done();
        }
        continue;
      }
      if (monotonic && (!isRunningAndReady(pod) || isUnavailable(pod, mrs)) && pod !== firstUnhealthy) {
        trace(set, `waits for Pod ${firstUnhealthy?.metadata.name} to be Running and Ready before scaling down`);
        return done();
      }
      deletePod(set, pod, `scale down to ${replicasOf(set)}`);
      if (monotonic) return done();
    }
    countStatus(status, set, current, update, replicas, condemned);

    if (set.spec?.updateStrategy?.type === 'OnDelete') return status;

    // Rolling update: the highest ordinal not at the update revision goes first.
    const partition: number = set.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let target = replicas.length - 1; target >= partition; target--) {
      const pod = replicas[target];
      if (revisionOf(pod) !== update.metadata.name && !isTerminating(pod)) {
        try {
          deletePod(set, pod, `update to revision ${update.metadata.name}`);
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
        status.currentReplicas--;
        return status;
      }
      if (isUnavailable(pod, mrs)) {
        trace(set, `waits for Pod ${pod.metadata.name} to be Ready during the rolling update`);
        return status;
      }
    }
    return status;
  };

  /** `processReplica`: true when the (monotonic) loop must stop at this pod. */
  const processReplica = (set: Obj, pod: Obj, monotonic: boolean, _replicas: Obj[], _i: number, mrs: number): boolean => {
    const phase = pod.status?.phase;
    if (phase === 'Failed' || phase === 'Succeeded') {
      if (!pod.metadata.deletionTimestamp) deletePod(set, pod, `it is ${phase}; it will be recreated`);
      return true;
    }
    if (!isCreated(pod)) {
      if (podClaimIsStale(set, pod)) {
        trace(set, `waits: a PVC of ${pod.metadata.name} still belongs to an earlier pod`);
        return true;
      }
      createPod(set, pod);
      if (monotonic) return true;
      return false;
    }
    if (phase === 'Pending') {
      const err = createClaims(set, pod);
      if (err) throw err;
      updateClaimsForPolicy(set, pod);
    }
    if (isTerminating(pod) && monotonic) {
      trace(set, `waits for Pod ${pod.metadata.name} to terminate`);
      return true;
    }
    if (!isRunningAndReady(pod) && monotonic) {
      trace(set, `waits for Pod ${pod.metadata.name} to be Running and Ready`);
      return true;
    }
    if (!isPodAvailable(pod, mrs, clock.now(), (t) => parseRfc3339(t) - clock.epochMs) && monotonic) {
      trace(set, `waits for Pod ${pod.metadata.name} to be available (minReadySeconds ${mrs})`);
      return true;
    }
    if (identityMatches(set, pod) && storageMatches(set, pod) && claimsMatchPolicy(set, pod)) return false;
    if (!isTerminating(pod)) updatePod(set, pod);
    return false;
  };

  /** `truncateHistory`: delete non-live revisions beyond `revisionHistoryLimit`, oldest first. */
  const truncateHistory = (set: Obj, owned: Obj[], revs: Obj[], current: Obj, update: Obj) => {
    const live = new Set([current.metadata.name, update.metadata.name, ...owned.map(revisionOf)]);
    const history = revs.filter((r) => !live.has(r.metadata.name));
    const limit: number = set.spec?.revisionHistoryLimit ?? 10;
    if (limit < 0 || history.length <= limit) return;
    for (const r of history.slice(0, history.length - limit)) {
      try {
        api.delete('controllerrevisions', r.metadata.namespace, r.metadata.name!, { fieldManager: 'kube-controller-manager' });
        trace(set, `delete old ControllerRevision ${r.metadata.name}`);
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
  };

  /** `completeRollingUpdate` + `inconsistentStatus` + the status write. */
  const writeStatus = (set: Obj, status: SetStatus) => {
    const replicas = replicasOf(set);
    if ((set.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && status.updatedReplicas === replicas && status.readyReplicas === replicas && status.replicas === replicas) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    const s = set.status ?? {};
    const inconsistent =
      (status.observedGeneration ?? 0) > (s.observedGeneration ?? 0) ||
      status.replicas !== (s.replicas ?? 0) ||
      status.currentReplicas !== (s.currentReplicas ?? 0) ||
      status.readyReplicas !== (s.readyReplicas ?? 0) ||
      status.updatedReplicas !== (s.updatedReplicas ?? 0) ||
      status.currentRevision !== (s.currentRevision ?? '') ||
      status.availableReplicas !== (s.availableReplicas ?? 0) ||
      status.updateRevision !== (s.updateRevision ?? '') ||
      status.collisionCount !== s.collisionCount;
    if (!inconsistent) return;
    // apps/v1 StatefulSetStatus: omitempty on everything but replicas and availableReplicas.
    const next: Record<string, unknown> = { ...(s.conditions ? { conditions: s.conditions } : {}) };
    if (status.observedGeneration) next.observedGeneration = status.observedGeneration;
    next.replicas = status.replicas;
    if (status.readyReplicas) next.readyReplicas = status.readyReplicas;
    if (status.currentReplicas) next.currentReplicas = status.currentReplicas;
    if (status.updatedReplicas) next.updatedReplicas = status.updatedReplicas;
    if (status.currentRevision) next.currentRevision = status.currentRevision;
    if (status.updateRevision) next.updateRevision = status.updateRevision;
    next.collisionCount = status.collisionCount;
    next.availableReplicas = status.availableReplicas;
    api.updateStatus({ ...set, status: next }, { fieldManager: 'kube-controller-manager' });
    trace(set, `status: ${status.readyReplicas}/${replicas} ready, current ${status.currentRevision}, update ${status.updateRevision}`);
  };

  const reconcile = (key: string): ReconcileResult | void => {
    const set = sets.getByKey(key);
    if (!set) return;
    let selector: Selector;
    try {
      selector = selectorFromLabelSelector(set.spec?.selector);
    } catch {
      return; // a non-transient error: not retried
    }
    const revs = listRevisions(set, selector);
    const owned = claimPods(set, selector);
    const { current, update, collisionCount } = getRevisions(set, revs);
    let status: SetStatus;
    try {
      status = updateStatefulSet(set, current, update, collisionCount, owned);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      truncateHistory(set, owned, revs, current, update);
      throw e;
    }
    writeStatus(set, status);
    truncateHistory(set, owned, revs, current, update);
    const mrs = set.spec?.minReadySeconds ?? 0;
    if (mrs > 0 && status.availableReplicas !== replicasOf(set)) return { requeueAfterMs: mrs * 1000 };
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: STATEFULSET_CONTROLLER,
    workers: ctx.setting('concurrentStatefulSetSyncs', DEFAULT_CONCURRENT_STATEFULSET_SYNCS),
    waitForSync: [setInformer, podInformer, revisionInformer, claimInformer] as Informer[],
  });

  return {
    name: STATEFULSET_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}
