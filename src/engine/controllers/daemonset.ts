/**
 * daemonset-controller: one pod on every node the pod template fits.
 *
 * Mirrors pkg/controller/daemon (daemon_controller.go, update.go, util/daemonset_util.go) of
 * Kubernetes 1.32-1.36:
 *
 *   informers (DaemonSets, Pods, Nodes, ControllerRevisions) -> handlers enqueue the DaemonSet's
 *   key (a node change enqueues the DaemonSets whose verdict for that node changed)
 *   -> reconcile(key):
 *     1. history: the spec's pod template is stored as a ControllerRevision `<ds>-<hash>`
 *        (`hash` = the pod-template hash); its hash is the pods' `controller-revision-hash`;
 *     2. for every node, `nodeShouldRunDaemonPod`: the template's nodeSelector and required node
 *        affinity match the node, and every NoSchedule/NoExecute taint is tolerated (counting the
 *        tolerations the controller adds itself, below). A node failing only on a NoExecute
 *        taint it does not tolerate also loses a running pod; one failing on NoSchedule keeps it;
 *     3. manage: create a pod for each node that should run one and has none, delete pods on
 *        nodes that should not, delete failed pods (with a backoff) and extra pods (the oldest
 *        stays). Pods are created with `generateName: <ds>-`, unbound, with required node
 *        affinity `matchFields metadata.name In [<node>]`: the default scheduler binds them
 *        (ScheduleDaemonSetPods, the only way since 1.12);
 *     4. RollingUpdate: delete old-revision pods so that at most `maxUnavailable` are
 *        unavailable (step 3 of a later sync creates the new ones), or with `maxSurge` create
 *        the new pod first and delete the old one once the new one is available. OnDelete:
 *        nothing;
 *     5. status: desiredNumberScheduled, currentNumberScheduled, numberReady, numberAvailable,
 *        numberUnavailable, updatedNumberScheduled, numberMisscheduled, observedGeneration.
 *
 * Tolerations every DaemonSet pod gets (`AddOrUpdateDaemonPodTolerations`): `not-ready` and
 * `unreachable` NoExecute with no `tolerationSeconds` (so taint-based eviction never removes a
 * DaemonSet pod from a dead node, cases.md C12), `disk-pressure`, `memory-pressure`,
 * `pid-pressure`, `unschedulable` NoSchedule, and `network-unavailable` NoSchedule for
 * hostNetwork pods. The control-plane taint is not among them (cases.md C05).
 *
 * Expectations (pkg/controller/controller_utils.go): after creating or deleting pods the
 * controller waits to see them in its cache before managing that DaemonSet again, so a stale
 * cache never makes it create a second pod for a node. They live in memory and die with the
 * process.
 */
import { ApiError } from '../api/errors';
import { selectorFromLabelSelector, type Selector } from '../api/labels';
import { deepCopy, deepEqual, type KubeObject, type OwnerReference } from '../api/types';
import { parseRfc3339 } from '../clock';
import { metaNamespaceKey, type Informer } from '../client/informer';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';
import {
  computeHash,
  findUntoleratedTaint,
  getControllerOf,
  isControlledBy,
  isPodAvailable,
  isPodReady,
  newControllerRef,
  podMatchesNodeAffinity,
  podsPrefix,
  scaledValueFromIntOrPercent,
  templateRevisionData,
  type TolerationLike,
} from './util';

/** The component name on Events and traces. */
export const DAEMONSET_CONTROLLER = 'daemonset-controller';

/** Workers (`--concurrent-daemonset-syncs`, default 2). Source: cmd/kube-controller-manager/app/options/daemonsetcontroller.go. */
export const DEFAULT_CONCURRENT_DAEMONSET_SYNCS = 2;
/** Most pods created or deleted per sync (`BurstReplicas`). Source: pkg/controller/daemon/daemon_controller.go. */
export const DAEMONSET_BURST_REPLICAS = 250;
/** First delay before a failed daemon pod is deleted again on the same node (`failedPodsBackoff` 1 s). Source: cmd/kube-controller-manager/app/apps.go. */
export const FAILED_POD_BACKOFF_INITIAL_MS = 1000;
/** Longest such delay (15 min). Source: cmd/kube-controller-manager/app/apps.go. */
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60_000;
/** Expectations expire after 5 min (`ExpectationsTimeout`). Source: pkg/controller/controller_utils.go. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;
/** `SlowStartInitialBatchSize`. Source: pkg/controller/controller_utils.go. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** Pod/revision label with the template hash (`apps.DefaultDaemonSetUniqueLabelKey`). */
export const DAEMONSET_UNIQUE_LABEL = 'controller-revision-hash';
/** Pod label with the DaemonSet's template generation (`extensions.DaemonSetTemplateGenerationKey`). */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** DaemonSet annotation the API server keeps the template generation in (`apps.DeprecatedTemplateGeneration`). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

type Obj = KubeObject;

/**
 * `AddOrUpdateDaemonPodTolerations`: the tolerations every DaemonSet pod gets, replacing any
 * toleration with the same key and effect. Source: pkg/controller/daemon/util/daemonset_util.go.
 */
export function addDaemonPodTolerations(spec: { tolerations?: TolerationLike[]; hostNetwork?: boolean }): void {
  const add = (key: string, effect: string) => {
    const t: TolerationLike = { key, operator: 'Exists', effect };
    const list = spec.tolerations ?? [];
    const i = list.findIndex((x) => x.key === key && x.effect === effect);
    // v1helper.AddOrUpdateTolerationInPodSpec: an identical toleration is left as is.
    if (i >= 0) {
      if (!deepEqual(list[i], t)) list[i] = t;
    } else list.push(t);
    spec.tolerations = list;
  };
  add('node.kubernetes.io/not-ready', 'NoExecute');
  add('node.kubernetes.io/unreachable', 'NoExecute');
  add('node.kubernetes.io/disk-pressure', 'NoSchedule');
  add('node.kubernetes.io/memory-pressure', 'NoSchedule');
  add('node.kubernetes.io/pid-pressure', 'NoSchedule');
  add('node.kubernetes.io/unschedulable', 'NoSchedule');
  if (spec.hostNetwork) add('node.kubernetes.io/network-unavailable', 'NoSchedule');
}

/**
 * `NodeShouldRunDaemonPod`: [shouldRun, shouldContinueRunning] for `ds` on `node`.
 * Source: pkg/controller/daemon/daemon_controller.go.
 */
export function nodeShouldRunDaemonPod(node: Obj, ds: Obj): [boolean, boolean] {
  const spec = daemonPodSpec(ds);
  if (spec.nodeName && spec.nodeName !== node.metadata.name) return [false, false];
  if (!podMatchesNodeAffinity(spec, node)) return [false, false];
  const taints = node.spec?.taints ?? [];
  if (findUntoleratedTaint(taints, spec.tolerations, (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')) {
    const noExecute = findUntoleratedTaint(taints, spec.tolerations, (t) => t.effect === 'NoExecute');
    return [false, !noExecute];
  }
  return [true, true];
}

/**
 * The DaemonSet's pod template spec with the daemon tolerations added (`NewPod` before the node
 * checks), computed once per DaemonSet object: cached objects are never mutated, and a sync asks
 * for every node (performance only). Read-only for callers.
 */
const daemonPodSpecs = new WeakMap<object, Obj['spec']>();
function daemonPodSpec(ds: Obj): Obj['spec'] {
  let spec = daemonPodSpecs.get(ds);
  if (spec === undefined) {
    spec = deepCopy(ds.spec?.template?.spec ?? {});
    addDaemonPodTolerations(spec);
    daemonPodSpecs.set(ds, spec);
  }
  return spec;
}

/** `util.GetTargetNodeName`: the pod's node, or the node its `matchFields metadata.name` affinity names. */
function targetNodeName(pod: Obj): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const term of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && (f.values ?? []).length === 1) return f.values[0];
    }
  }
  return undefined;
}

/** `ReplaceDaemonSetPodNodeNameNodeAffinity`: required node affinity pinned to one node, other affinity kept. */
function pinToNode(spec: Obj['spec'], node: string): void {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] };
  spec.affinity = spec.affinity ?? {};
  spec.affinity.nodeAffinity = spec.affinity.nodeAffinity ?? {};
  const na = spec.affinity.nodeAffinity;
  if (!na.requiredDuringSchedulingIgnoredDuringExecution) na.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [term] };
  else na.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms = [term];
}

/** Ready=True since `lastTransitionTime` (virtual ms). */
const readyAndAvailable = (pod: Obj, mrs: number, now: number, epoch: number) => isPodAvailable(pod, mrs, now, (t) => parseRfc3339(t) - epoch);

/** `podByCreationTimestampAndPhase`: scheduled before unscheduled, then Running before others, then oldest, then name. */
function byCreationAndPhase(a: Obj, b: Obj): number {
  const an = a.spec?.nodeName ? 0 : 1;
  const bn = b.spec?.nodeName ? 0 : 1;
  if (an !== bn) return an - bn;
  const ar = a.status?.phase === 'Running' ? 0 : 1;
  const br = b.status?.phase === 'Running' ? 0 : 1;
  if (ar !== br) return ar - br;
  const at = parseRfc3339(a.metadata.creationTimestamp ?? '');
  const bt = parseRfc3339(b.metadata.creationTimestamp ?? '');
  if (at !== bt) return at - bt;
  return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
}

/** Start the daemonset-controller (see the file comment). */
export function newDaemonSetController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(DAEMONSET_CONTROLLER);
  const dsInformer = ctx.informers.informer('daemonsets');
  const podInformer = ctx.informers.informer('pods');
  const nodeInformer = ctx.informers.informer('nodes');
  const revisionInformer = ctx.informers.informer('controllerrevisions');
  const daemonSets = dsInformer.lister;
  const pods = podInformer.lister;
  const nodes = nodeInformer.lister;
  const revisions = revisionInformer.lister;
  const queue = new RateLimitingQueue(clock, { name: 'daemonset' });
  const burst = ctx.setting('daemonSetBurstReplicas', DAEMONSET_BURST_REPLICAS);
  const backoffInitial = ctx.setting('daemonSetFailedPodBackoffMs', FAILED_POD_BACKOFF_INITIAL_MS);
  const backoffMax = ctx.setting('daemonSetFailedPodBackoffMaxMs', FAILED_POD_BACKOFF_MAX_MS);

  const ref = (o: Obj) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name!, uid: o.metadata.uid });
  const trace = (ds: Obj, message: string) => ctx.trace(DAEMONSET_CONTROLLER, `${metaNamespaceKey(ds)} ${message}`, ref(ds));

  // ---------------------------------------------------------------- expectations (controller_utils.go)

  const expectations = new Map<string, { add: number; del: number; at: number }>();
  const expect = (key: string, add: number, del: number) => expectations.set(key, { add, del, at: clock.now() });
  const observe = (key: string, what: 'add' | 'del') => {
    const e = expectations.get(key);
    if (e) e[what]--;
  };
  const satisfied = (key: string) => {
    const e = expectations.get(key);
    return !e || (e.add <= 0 && e.del <= 0) || clock.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  };

  /** Failed-pod deletion backoff per (DaemonSet, node): `flowcontrol.Backoff`. */
  const failedBackoff = new Map<string, { delay: number; last: number }>();

  // ---------------------------------------------------------------- event handlers (enqueue only)

  const enqueue = (ds: Obj) => queue.add(metaNamespaceKey(ds));
  const resolveControllerRef = (namespace: string | undefined, r: OwnerReference): Obj | undefined => {
    if (r.kind !== 'DaemonSet') return undefined;
    const ds = daemonSets.get(namespace, r.name);
    return ds && ds.metadata.uid === r.uid ? ds : undefined;
  };
  const selecting = (pod: Obj): Obj[] =>
    daemonSets.list(pod.metadata.namespace).filter((ds) => {
      try {
        const sel = selectorFromLabelSelector(ds.spec?.selector);
        return !sel.empty() && sel.matches(pod.metadata.labels);
      } catch {
        return false;
      }
    });

  dsInformer.addEventHandler({
    onAdd: (ds) => enqueue(ds),
    onUpdate: (_o, ds) => enqueue(ds),
    onDelete: (ds) => {
      expectations.delete(metaNamespaceKey(ds));
      enqueue(ds);
    },
  });
  podInformer.addEventHandler({
    onAdd: (pod) => {
      const r = getControllerOf(pod);
      if (pod.metadata.deletionTimestamp) {
        // After a restart a pod may first show up already terminating: not a creation (`addPod`).
        const ds = r && resolveControllerRef(pod.metadata.namespace, r);
        if (ds) {
          observe(metaNamespaceKey(ds), 'del');
          enqueue(ds);
        }
        return;
      }
      if (r) {
        const ds = resolveControllerRef(pod.metadata.namespace, r);
        if (!ds) return;
        observe(metaNamespaceKey(ds), 'add');
        enqueue(ds);
        return;
      }
      for (const ds of selecting(pod)) enqueue(ds);
    },
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      const curRef = getControllerOf(cur);
      const oldRef = getControllerOf(old);
      const refChanged = !deepEqual(curRef, oldRef);
      if (refChanged && oldRef) {
        const ds = resolveControllerRef(old.metadata.namespace, oldRef);
        if (ds) enqueue(ds);
      }
      if (curRef) {
        const ds = resolveControllerRef(cur.metadata.namespace, curRef);
        if (!ds) return;
        enqueue(ds);
        const mrs = ds.spec?.minReadySeconds ?? 0;
        if (!isPodReady(old) && isPodReady(cur) && mrs > 0) queue.addAfter(metaNamespaceKey(ds), mrs * 1000 + 1000);
        return;
      }
      if (refChanged || !deepEqual(old.metadata.labels, cur.metadata.labels)) for (const ds of selecting(cur)) enqueue(ds);
    },
    onDelete: (pod) => {
      const r = getControllerOf(pod);
      const ds = r && resolveControllerRef(pod.metadata.namespace, r);
      if (!ds) return;
      observe(metaNamespaceKey(ds), 'del');
      enqueue(ds);
    },
  });
  /** `shouldIgnoreNodeUpdate`: only condition statuses and the rest of the object (not heartbeats) matter. */
  const sameConditions = (a: Obj, b: Obj) => {
    const m = (n: Obj) => (n.status?.conditions ?? []).map((c: { type: string; status: string }) => `${c.type}=${c.status}`).sort().join(',');
    return m(a) === m(b);
  };
  nodeInformer.addEventHandler({
    onAdd: (node) => {
      for (const ds of daemonSets.list()) if (nodeShouldRunDaemonPod(node, ds)[0]) enqueue(ds);
    },
    onUpdate: (old, cur) => {
      if (sameConditions(old, cur) && deepEqual({ ...old.metadata, resourceVersion: '' }, { ...cur.metadata, resourceVersion: '' }) && deepEqual(old.spec, cur.spec)) return;
      for (const ds of daemonSets.list()) {
        const [a, b] = nodeShouldRunDaemonPod(old, ds);
        const [c, d] = nodeShouldRunDaemonPod(cur, ds);
        if (a !== c || b !== d) enqueue(ds);
      }
    },
    // No delete handler (as upstream): the pods of a deleted node go through the pod GC.
  });

  // ---------------------------------------------------------------- pods and history

  const errorText = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

  /** `ClaimPods`: adopt matching orphans, release owned pods that stopped matching. */
  const claimPods = (ds: Obj, selector: Selector): Obj[] => {
    const out: Obj[] = [];
    const deleting = !!ds.metadata.deletionTimestamp;
    for (const pod of pods.list(ds.metadata.namespace)) {
      const match = selector.matches(pod.metadata.labels);
      const owner = getControllerOf(pod);
      if (owner) {
        if (owner.uid !== ds.metadata.uid) continue;
        if (match || deleting) {
          out.push(pod);
          continue;
        }
        const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== ds.metadata.uid);
        try {
          api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'merge', { metadata: { ownerReferences: refs.length ? refs : null } });
          trace(ds, `release Pod ${pod.metadata.name} (no longer matches)`);
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
        continue;
      }
      if (!match || deleting || pod.metadata.deletionTimestamp) continue;
      out.push(
        api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'merge', {
          metadata: { ownerReferences: [...(pod.metadata.ownerReferences ?? []), newControllerRef(ds)] },
        }),
      );
      trace(ds, `adopt Pod ${pod.metadata.name}`);
    }
    return out;
  };

  /**
   * `getNodesToDaemonPods`: the DaemonSet's pods by target node (node name, or the node of their
   * `matchFields` affinity), skipping pods that are both terminal and being deleted.
   */
  const nodesToDaemonPods = (owned: Obj[]): Map<string, Obj[]> => {
    const m = new Map<string, Obj[]>();
    for (const pod of owned) {
      const phase = pod.status?.phase;
      if ((phase === 'Succeeded' || phase === 'Failed') && pod.metadata.deletionTimestamp) continue;
      const node = targetNodeName(pod);
      if (!node) continue;
      m.set(node, [...(m.get(node) ?? []), pod]);
    }
    return m;
  };

  /** `constructHistory`: the current revision (created or renumbered) and the old ones. */
  const constructHistory = (ds: Obj, selector: Selector): { cur: Obj; old: Obj[] } => {
    const data = templateRevisionData(ds.spec?.template);
    const history: Obj[] = [];
    for (const r of revisions.list(ds.metadata.namespace)) {
      if (isControlledBy(r, ds.metadata.uid)) history.push(r);
      else if (!getControllerOf(r) && selector.matches(r.metadata.labels) && !ds.metadata.deletionTimestamp) {
        history.push(
          api.patch('controllerrevisions', r.metadata.namespace, r.metadata.name!, 'merge', {
            metadata: { ownerReferences: [...(r.metadata.ownerReferences ?? []), newControllerRef(ds)] },
          }),
        );
      }
    }
    const current = history.filter((h) => deepEqual(h.data, data));
    const old = history.filter((h) => !deepEqual(h.data, data));
    const next = Math.max(0, ...old.map((h) => h.revision as number)) + 1;
    let cur: Obj;
    if (current.length === 0) {
      const hash = computeHash(ds.spec?.template, ds.status?.collisionCount);
      const candidate: Obj = {
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        metadata: {
          name: `${ds.metadata.name}-${hash}`,
          namespace: ds.metadata.namespace,
          labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [DAEMONSET_UNIQUE_LABEL]: hash },
          ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
          ownerReferences: [newControllerRef(ds)],
        },
        data,
        revision: next,
      };
      try {
        cur = api.create(candidate, { fieldManager: 'kube-controller-manager' });
        trace(ds, `create ControllerRevision ${cur.metadata.name} (revision ${next})`);
      } catch (e) {
        if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
        const existing = revisions.get(candidate.metadata.namespace, candidate.metadata.name!);
        if (!existing || !deepEqual(existing.data, data)) throw e; // not cached yet, or a hash collision: retry
        cur = existing;
      }
    } else {
      // `dedupCurHistories`: keep the highest revision (pods are relabelled to it by rollouts).
      cur = current.reduce((a, b) => ((b.revision as number) > (a.revision as number) ? b : a));
      for (const dup of current) {
        if (dup === cur) continue;
        try {
          api.delete('controllerrevisions', dup.metadata.namespace, dup.metadata.name!);
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
      }
      if ((cur.revision as number) < next) {
        const bumped = deepCopy(cur);
        bumped.revision = next;
        cur = api.update(bumped, { fieldManager: 'kube-controller-manager' });
        trace(ds, `reuse ControllerRevision ${cur.metadata.name} as revision ${next}`);
      }
    }
    return { cur, old };
  };

  /** `cleanupHistory`: delete old revisions no pod uses, beyond `revisionHistoryLimit`, oldest first. */
  const cleanupHistory = (ds: Obj, owned: Obj[], old: Obj[]) => {
    const limit: number = ds.spec?.revisionHistoryLimit ?? 10;
    if (old.length <= limit) return;
    const live = new Set(owned.map((p) => p.metadata.labels?.[DAEMONSET_UNIQUE_LABEL]).filter(Boolean));
    const candidates = old.filter((h) => !live.has(h.metadata.labels?.[DAEMONSET_UNIQUE_LABEL])).sort((a, b) => (a.revision as number) - (b.revision as number));
    let toKill = old.length - limit;
    for (const h of candidates) {
      if (toKill <= 0) break;
      try {
        api.delete('controllerrevisions', h.metadata.namespace, h.metadata.name!);
        trace(ds, `delete old ControllerRevision ${h.metadata.name}`);
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
      toKill--;
    }
  };

  /** `CreatePodTemplate`: the template with the daemon tolerations and the generation and hash labels. */
  const podTemplate = (ds: Obj, hash: string): Obj => {
    const t = deepCopy(ds.spec?.template ?? {});
    t.spec = t.spec ?? {};
    addDaemonPodTolerations(t.spec);
    t.metadata = t.metadata ?? {};
    const gen = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
    t.metadata.labels = { ...(t.metadata.labels ?? {}), ...(gen ? { [TEMPLATE_GENERATION_LABEL]: gen } : {}), [DAEMONSET_UNIQUE_LABEL]: hash };
    return t;
  };

  /** `IsPodUpdated`: the pod's hash label, or its template generation label, is the current one. */
  const isPodUpdated = (ds: Obj, pod: Obj, hash: string) => {
    const gen = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
    return (!!hash && pod.metadata.labels?.[DAEMONSET_UNIQUE_LABEL] === hash) || (!!gen && pod.metadata.labels?.[TEMPLATE_GENERATION_LABEL] === gen);
  };

  /**
   * `syncNodes`: delete `toDelete`, create one pod per node of `toCreate` (slow-start batches,
   * at most `burst` each), with Events on the DaemonSet as the ReplicaSet controller words them.
   */
  const syncNodes = (ds: Obj, key: string, toDelete: string[], toCreate: string[], hash: string): void => {
    const creates = toCreate.slice(0, burst);
    const deletes = toDelete.slice(0, burst);
    expect(key, creates.length, deletes.length);
    const template = podTemplate(ds, hash);
    let firstError: ApiError | undefined;
    let i = 0;
    for (let batch = Math.min(creates.length, SLOW_START_INITIAL_BATCH_SIZE); i < creates.length; batch = Math.min(2 * batch, creates.length - i)) {
      let failed = false;
      for (const node of creates.slice(i, i + batch)) {
        const pod: Obj = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            ...deepCopy(template.metadata ?? {}),
            generateName: podsPrefix(ds.metadata.name!),
            namespace: ds.metadata.namespace,
            ownerReferences: [newControllerRef(ds)],
          },
          spec: deepCopy(template.spec),
        };
        delete pod.metadata.name;
        pinToNode(pod.spec, node);
        try {
          const created = api.create(pod, { fieldManager: 'kube-controller-manager' });
          recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
          trace(ds, `create Pod ${created.metadata.name} for node ${node}`);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          observe(key, 'add');
          recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${errorText(e)}`);
          firstError = firstError ?? e;
          failed = true;
        }
      }
      i += batch;
      if (failed) {
        for (; i < creates.length; i++) observe(key, 'add'); // skipped: no longer expected
        break;
      }
    }
    for (const name of deletes) {
      try {
        api.delete('pods', ds.metadata.namespace, name, { fieldManager: 'kube-controller-manager' });
        recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
        trace(ds, `delete Pod ${name}`);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        observe(key, 'del');
        if (e.code === 404) continue;
        recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${errorText(e)}`);
        firstError = firstError ?? e;
      }
    }
    if (firstError) throw firstError;
  };

  /** `manage` (+ `podsShouldBeOnNode`): what each node needs. Returns a requeue delay for failed-pod backoff, if any. */
  const manage = (ds: Obj, key: string, nodeList: Obj[], byNode: Map<string, Obj[]>, hash: string): number | undefined => {
    const toCreate: string[] = [];
    const toDelete: string[] = [];
    let requeue: number | undefined;
    const surge = allowsSurge(ds);
    for (const node of nodeList) {
      const name = node.metadata.name!;
      const [shouldRun, shouldContinue] = nodeShouldRunDaemonPod(node, ds);
      const daemonPods = byNode.get(name) ?? [];
      if (shouldRun && daemonPods.length === 0) {
        toCreate.push(name);
      } else if (shouldContinue) {
        const running: Obj[] = [];
        for (const pod of daemonPods) {
          if (pod.metadata.deletionTimestamp) continue;
          if (pod.status?.phase === 'Failed') {
            const bk = `${ds.metadata.uid}/${name}`;
            const b = failedBackoff.get(bk);
            const now = clock.now();
            if (b && now - b.last < b.delay) {
              requeue = Math.min(requeue ?? Infinity, b.delay - (now - b.last));
              continue;
            }
            failedBackoff.set(bk, { delay: b ? Math.min(b.delay * 2, backoffMax) : backoffInitial, last: now });
            recorder.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${name}, will try to kill it`);
            toDelete.push(pod.metadata.name!);
          } else if (pod.status?.phase === 'Succeeded') {
            // A daemon pod is not supposed to finish: replace it.
            toDelete.push(pod.metadata.name!);
          } else running.push(pod);
        }
        if (running.length <= 1) continue;
        running.sort(byCreationAndPhase);
        if (!surge) {
          for (const p of running.slice(1)) toDelete.push(p.metadata.name!);
          continue;
        }
        // With surge: two pods only while the oldest new one is not available and the oldest old one is still Ready.
        let oldestNew: Obj | undefined;
        let oldestOld: Obj | undefined;
        for (const p of running) {
          if (p.metadata.labels?.[DAEMONSET_UNIQUE_LABEL] === hash) {
            if (!oldestNew) {
              oldestNew = p;
              continue;
            }
          } else if (!oldestOld) {
            oldestOld = p;
            continue;
          }
          toDelete.push(p.metadata.name!);
        }
        if (oldestNew && oldestOld && (!isPodReady(oldestOld) || readyAndAvailable(oldestNew, ds.spec?.minReadySeconds ?? 0, clock.now(), clock.epochMs))) {
          toDelete.push(oldestOld.metadata.name!);
        }
      } else if (!shouldContinue && daemonPods.length > 0) {
        for (const pod of daemonPods) if (!pod.metadata.deletionTimestamp) toDelete.push(pod.metadata.name!);
      }
    }
    // Unscheduled pods aimed at nodes that no longer exist.
    const known = new Set(nodeList.map((n) => n.metadata.name!));
    for (const [node, list] of byNode) {
      if (known.has(node)) continue;
      for (const p of list) if (!p.spec?.nodeName && !p.metadata.deletionTimestamp) toDelete.push(p.metadata.name!);
    }
    if (toCreate.length || toDelete.length) trace(ds, `needs pods on [${toCreate.join(' ')}], deletes [${toDelete.join(' ')}]`);
    syncNodes(ds, key, toDelete, toCreate, hash);
    return requeue;
  };

  const allowsSurge = (ds: Obj) => ds.spec?.updateStrategy?.type === 'RollingUpdate' && scaledValueFromIntOrPercent(ds.spec?.updateStrategy?.rollingUpdate?.maxSurge, 1, true) > 0;

  /** `findUpdatedPodsOnNode`: at most one new and one old (not deleting) pod, else not ok. */
  const updatedPodsOnNode = (ds: Obj, list: Obj[], hash: string): { newPod?: Obj; oldPod?: Obj; ok: boolean } => {
    let newPod: Obj | undefined;
    let oldPod: Obj | undefined;
    for (const p of list) {
      if (p.metadata.deletionTimestamp) continue;
      if (isPodUpdated(ds, p, hash)) {
        if (newPod) return { ok: false };
        newPod = p;
      } else {
        if (oldPod) return { ok: false };
        oldPod = p;
      }
    }
    return { newPod, oldPod, ok: true };
  };

  /** `rollingUpdate` (update.go): choose old pods to delete (maxUnavailable) or nodes to surge onto (maxSurge). */
  const rollingUpdate = (ds: Obj, key: string, nodeList: Obj[], byNode: Map<string, Obj[]>, hash: string): void => {
    const mrs: number = ds.spec?.minReadySeconds ?? 0;
    const now = clock.now();
    const available = (p: Obj) => readyAndAvailable(p, mrs, now, clock.epochMs);
    let desired = 0;
    for (const n of nodeList) if (nodeShouldRunDaemonPod(n, ds)[0]) desired++;
    const ru = ds.spec?.updateStrategy?.rollingUpdate ?? {};
    const maxSurge = scaledValueFromIntOrPercent(ru.maxSurge, desired, true);
    let maxUnavailable = scaledValueFromIntOrPercent(ru.maxUnavailable ?? 1, desired, true);
    if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
    const nodeNames = [...byNode.keys()].sort();

    if (maxSurge === 0) {
      let numUnavailable = 0;
      const allowed: string[] = [];
      const candidates: string[] = [];
      for (const node of nodeNames) {
        const { newPod, oldPod, ok } = updatedPodsOnNode(ds, byNode.get(node)!, hash);
        if (!ok || (!oldPod && !newPod) || (oldPod && newPod)) {
          numUnavailable++;
          continue;
        }
        if (newPod) {
          if (!available(newPod)) numUnavailable++;
          continue;
        }
        if (!available(oldPod!)) {
          allowed.push(oldPod!.metadata.name!);
          numUnavailable++;
        } else if (numUnavailable < maxUnavailable) candidates.push(oldPod!.metadata.name!);
      }
      const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
      const toDelete = [...allowed, ...candidates.slice(0, remaining)];
      if (toDelete.length) trace(ds, `rolling update: ${numUnavailable} unavailable of max ${maxUnavailable} -> replace [${toDelete.join(' ')}]`);
      syncNodes(ds, key, toDelete, [], hash);
      return;
    }

    const toDelete: string[] = [];
    const shouldNotRun: string[] = [];
    const candidateNodes: string[] = [];
    const allowedNodes: string[] = [];
    let numSurge = 0;
    let numAvailable = 0;
    const nodeByName = new Map(nodeList.map((n) => [n.metadata.name!, n]));
    for (const node of nodeNames) {
      const { newPod, oldPod, ok } = updatedPodsOnNode(ds, byNode.get(node)!, hash);
      if (!ok) {
        numSurge++;
        continue;
      }
      if (oldPod ? available(oldPod) : newPod && available(newPod)) numAvailable++;
      if (!oldPod) continue;
      const n = nodeByName.get(node);
      const shouldRun = !!n && nodeShouldRunDaemonPod(n, ds)[0];
      if (!newPod) {
        if (!available(oldPod)) {
          if (!shouldRun) toDelete.push(oldPod.metadata.name!);
          else allowedNodes.push(node);
        } else if (!shouldRun) shouldNotRun.push(oldPod.metadata.name!);
        else if (numSurge < maxSurge) candidateNodes.push(node);
        continue;
      }
      if (!available(newPod)) {
        numSurge++;
        continue;
      }
      toDelete.push(oldPod.metadata.name!);
    }
    const deletable = Math.min(Math.max(0, numAvailable - desired), shouldNotRun.length);
    toDelete.push(...shouldNotRun.slice(0, deletable));
    const remainingSurge = Math.min(Math.max(0, maxSurge - numSurge), candidateNodes.length);
    const toCreate = [...allowedNodes, ...candidateNodes.slice(0, remainingSurge)];
    if (toDelete.length || toCreate.length) trace(ds, `rolling update (surge ${numSurge}/${maxSurge}): create on [${toCreate.join(' ')}], delete [${toDelete.join(' ')}]`);
    syncNodes(ds, key, toDelete, toCreate, hash);
  };

  /** `updateDaemonSetStatus`: count per node, write only what changed. Returns a requeue for minReadySeconds. */
  const updateStatus = (ds: Obj, nodeList: Obj[], byNode: Map<string, Obj[]>, hash: string, updateObservedGen: boolean): number | undefined => {
    const mrs: number = ds.spec?.minReadySeconds ?? 0;
    let desired = 0;
    let current = 0;
    let misscheduled = 0;
    let ready = 0;
    let updated = 0;
    let available = 0;
    for (const node of nodeList) {
      const [shouldRun] = nodeShouldRunDaemonPod(node, ds);
      const list = byNode.get(node.metadata.name!) ?? [];
      if (!shouldRun) {
        if (list.length) misscheduled++;
        continue;
      }
      desired++;
      if (!list.length) continue;
      current++;
      const pod = [...list].sort(byCreationAndPhase)[0];
      if (isPodReady(pod)) {
        ready++;
        if (readyAndAvailable(pod, mrs, clock.now(), clock.epochMs)) available++;
      }
      if (isPodUpdated(ds, pod, hash)) updated++;
    }
    const s = ds.status ?? {};
    const next: Record<string, unknown> = {
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      desiredNumberScheduled: desired,
      numberReady: ready,
    };
    const observedGeneration = updateObservedGen ? ds.metadata.generation : s.observedGeneration;
    if (observedGeneration) next.observedGeneration = observedGeneration;
    if (updated) next.updatedNumberScheduled = updated;
    if (available) next.numberAvailable = available;
    if (desired - available) next.numberUnavailable = desired - available;
    if (s.collisionCount !== undefined) next.collisionCount = s.collisionCount;
    if (s.conditions) next.conditions = s.conditions;
    if (!deepEqual(next, s)) {
      api.updateStatus({ ...ds, status: next }, { fieldManager: 'kube-controller-manager' });
      trace(ds, `status: desired ${desired}, current ${current}, ready ${ready}, up-to-date ${updated}, available ${available}`);
    }
    if (mrs > 0 && ready !== available) return mrs * 1000;
    return undefined;
  };

  // ---------------------------------------------------------------- the sync

  const reconcile = (key: string): ReconcileResult | void => {
    const ds = daemonSets.getByKey(key);
    if (!ds) {
      expectations.delete(key);
      return;
    }
    let selector: Selector;
    try {
      selector = selectorFromLabelSelector(ds.spec?.selector);
    } catch {
      return;
    }
    if (selector.empty()) {
      recorder.event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return;
    }
    if (ds.metadata.deletionTimestamp) return;
    const nodeList = nodes.list();
    const { cur, old } = constructHistory(ds, selector);
    const hash: string = cur.metadata.labels?.[DAEMONSET_UNIQUE_LABEL] ?? '';
    let owned = claimPods(ds, selector);
    let byNode = nodesToDaemonPods(owned);
    if (!satisfied(key)) {
      updateStatus(ds, nodeList, byNode, hash, false);
      return;
    }
    let requeue: number | undefined;
    let err: ApiError | undefined;
    try {
      requeue = manage(ds, key, nodeList, byNode, hash);
      if (satisfied(key) && (ds.spec?.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
        owned = claimPods(ds, selector);
        byNode = nodesToDaemonPods(owned);
        rollingUpdate(ds, key, nodeList, byNode, hash);
      }
      cleanupHistory(ds, owned, old);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      err = e;
    }
    const statusRequeue = updateStatus(ds, nodeList, byNode, hash, true);
    if (err) throw err;
    const delays = [requeue, statusRequeue].filter((d): d is number => d !== undefined);
    if (delays.length) return { requeueAfterMs: Math.max(1, Math.min(...delays)) };
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: DAEMONSET_CONTROLLER,
    workers: ctx.setting('concurrentDaemonSetSyncs', DEFAULT_CONCURRENT_DAEMONSET_SYNCS),
    waitForSync: [dsInformer, podInformer, nodeInformer, revisionInformer] as Informer[],
  });

  return {
    name: DAEMONSET_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}
