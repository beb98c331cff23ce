/**
 * job-controller: run pods until enough of them succeed, or give up.
 *
 * Mirrors pkg/controller/job (job_controller.go, backoff_utils.go, indexed_job_utils.go) of
 * Kubernetes 1.32-1.36:
 *
 *   informers (Jobs, Pods) -> handlers enqueue the Job's key (pod events batched 1 s,
 *   `syncJobBatchPeriod`) -> reconcile(key):
 *     1. the Job's pods (adopting orphans that match its selector); active = not finished and
 *        not being deleted; pods finished since the last count are the "new" successes/failures;
 *     2. failed: `status.failed` + new + uncounted. More than `backoffLimit` (or, for
 *        `restartPolicy: OnFailure`, restarts summing to it), or older than
 *        `activeDeadlineSeconds`: the Job fails. It first gets the interim condition
 *        `FailureTarget` (reason `BackoffLimitExceeded` / `DeadlineExceeded`), its active pods are
 *        deleted, and once none is left terminating it gets `Failed` and a Warning Event with the
 *        same reason and message;
 *     3. otherwise create pods up to min(parallelism, completions - succeeded) (Indexed: one per
 *        pending index, named `<job>-<index>-<5>`), but not before the pod-failure backoff has
 *        passed: 10 s after the last failure, doubling per consecutive failure, capped at 10 min
 *        (`MaxJobPodFailureBackOff`; the docs still say six minutes);
 *     4. enough successes: `SuccessCriteriaMet` (reason `CompletionsReached`), then `Complete`
 *        with `completionTime` and the Event `Completed` `Job completed`;
 *     5. counting uses the `batch.kubernetes.io/job-tracking` finalizer: a finished pod is first
 *        written to `status.uncountedTerminatedPods`, then its finalizer is removed, then it is
 *        moved to `succeeded`/`failed`. So a pod is never counted twice, or lost, even if the
 *        controller restarts midway. Terminal conditions wait until nothing is uncounted.
 *
 * In memory (lost with the process, rebuilt from the API on restart as far as it can be): the
 * create/delete expectations, the finalizer-removal expectations and the per-Job backoff record
 * (a restarted controller forgets the backoff and may recreate a failed pod at once, as the
 * real one does).
 *
 * `podFailurePolicy` (podfailurepolicy.ts): a failed pod matching a `FailJob` rule fails the Job
 * (`FailureTarget` then `Failed`, reason `PodFailurePolicy`); one matching `Ignore` is not
 * counted in `status.failed`. With a policy (or `podReplacementPolicy: Failed`) a pod only counts
 * as failed once it is in phase Failed, and terminating pods are not replaced until they are.
 *
 * Not simulated: `successPolicy`, `backoffLimitPerIndex` (`FailIndex` counts as `Count`), `managedBy`.
 * `ttlSecondsAfterFinished` belongs to the ttl-after-finished controller (ttlafterfinished.ts).
 */
import { ApiError } from '../api/errors';
import { selectorFromLabelSelector, type Selector } from '../api/labels';
import { deepCopy, deepEqual, type KubeObject, type OwnerReference } from '../api/types';
import { parseRfc3339 } from '../clock';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { ItemExponentialFailureRateLimiter, RateLimitingQueue, startWorkers } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';
import { matchPodFailurePolicy } from './podfailurepolicy';
import { getControllerOf, isPodReady, newControllerRef, podsPrefix } from './util';

/** The component name on Events and traces. */
export const JOB_CONTROLLER = 'job-controller';

/** Workers (`--concurrent-job-syncs`, default 5). Source: cmd/kube-controller-manager/app/options/jobcontroller.go. */
export const DEFAULT_CONCURRENT_JOB_SYNCS = 5;
/** Pod events are batched per Job for 1 s (`syncJobBatchPeriod`). Source: pkg/controller/job/job_controller.go. */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;
/** The Job queue's per-item retry backoff: 1 s doubling (`DefaultJobApiBackOff`) ... */
export const DEFAULT_JOB_API_BACKOFF_MS = 1000;
/** ... capped at 1 min (`MaxJobApiBackOff`). Source: pkg/controller/job/job_controller.go. */
export const MAX_JOB_API_BACKOFF_MS = 60_000;
/** Delay before recreating a failed pod: 10 s, doubling (`DefaultJobPodFailureBackOff`). */
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
/** Cap of that delay: 10 min in the code (`MaxJobPodFailureBackOff`; docs say 6 min). Source: pkg/controller/job/job_controller.go. */
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;
/** Most UIDs in `status.uncountedTerminatedPods` (`MaxUncountedPods`). */
export const MAX_UNCOUNTED_PODS = 500;
/** Most pods created or deleted in one sync (`MaxPodCreateDeletePerSync`). */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** `SlowStartInitialBatchSize`. Source: pkg/controller/controller_utils.go. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;
/** Expectations expire after 5 min (`ExpectationsTimeout`). Source: pkg/controller/controller_utils.go. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

/** Job condition reason when a `FailJob` rule matched (`batch.JobReasonPodFailurePolicy`). Source: staging/src/k8s.io/api/batch/v1/types.go. */
export const JOB_REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';

/** Finalizer on every Job pod until it is counted (`batch.JobTrackingFinalizer`). */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** Annotation and label with an Indexed Job pod's index (`batch.JobCompletionIndexAnnotation`). */
export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
/** The env var Indexed Job containers get (`completionIndexEnvName`). */
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** Longest generateName prefix (`names.MaxGeneratedNameLength`). */
const MAX_GENERATED_NAME_LENGTH = 58;

type Obj = KubeObject;

interface JobCondition {
  type: string;
  status: string;
  lastProbeTime: string;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
}

/** The working copy of `status` during a sync (numbers unpacked, written with omitempty). */
interface WorkStatus {
  conditions: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active: number;
  succeeded: number;
  failed: number;
  terminating: number;
  completedIndexes: string;
  uncounted: { succeeded: string[]; failed: string[] };
  ready: number;
}

// ------------------------------------------------------------------------------ pure helpers

const hasFinalizer = (pod: Obj) => (pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
const isIndexed = (job: Obj) => job.spec?.completionMode === 'Indexed';
const isSuspended = (job: Obj) => job.spec?.suspend === true;
const phaseOf = (pod: Obj): string | undefined => pod.status?.phase;
const isActive = (pod: Obj) => phaseOf(pod) !== 'Succeeded' && phaseOf(pod) !== 'Failed' && !pod.metadata.deletionTimestamp;
const isTerminatingPod = (pod: Obj) => phaseOf(pod) !== 'Succeeded' && phaseOf(pod) !== 'Failed' && !!pod.metadata.deletionTimestamp;
/** `onlyReplaceFailedPods`: `podReplacementPolicy: Failed`, or any `podFailurePolicy`. */
const onlyReplaceFailedPods = (job: Obj) => job.spec?.podReplacementPolicy === 'Failed' || !!job.spec?.podFailurePolicy;
/** `isPodFailed`: Failed, or (unless only failed pods are replaced) deleted before it could finish. */
const isPodFailed = (pod: Obj, job: Obj) =>
  phaseOf(pod) === 'Failed' || (!onlyReplaceFailedPods(job) && !!pod.metadata.deletionTimestamp && phaseOf(pod) !== 'Succeeded');

/** `IsJobFinished`: a Complete or Failed condition that is True. */
export function isJobFinished(job: Obj): boolean {
  return (job.status?.conditions ?? []).some((c: JobCondition) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** `getCompletionIndex`: the index annotation as a number, or -1. */
function completionIndex(pod: Obj): number {
  const v = pod.metadata.annotations?.[JOB_COMPLETION_INDEX];
  if (v === undefined || !/^\d+$/.test(v)) return -1;
  return Number(v);
}

/** `orderedIntervals.String()`: `0-2,4,6-7`. */
function intervalsString(indexes: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < indexes.length; ) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j++;
    out.push(i === j ? String(indexes[i]) : `${indexes[i]}-${indexes[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** `parseIndexesFromString`: `0-2,4` -> [0,1,2,4], keeping indexes < completions. */
function parseIntervals(s: string | undefined, completions: number): number[] {
  const out = new Set<number>();
  for (const part of (s ?? '').split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-').map(Number);
    const end = b === undefined ? a : b;
    for (let i = a; i <= end && i < completions; i++) out.add(i);
  }
  return [...out].sort((x, y) => x - y);
}

/** `getFinishedTime`: latest container finishedAt, else the Ready=False transition, else deletionTimestamp, else creation (Unix ms). */
function finishedTime(pod: Obj): number {
  let latest: number | undefined;
  let all = true;
  for (const cs of pod.status?.containerStatuses ?? []) {
    const t = cs.state?.terminated?.finishedAt;
    if (!t) {
      all = false;
      break;
    }
    latest = Math.max(latest ?? -Infinity, parseRfc3339(t));
  }
  if (all && latest !== undefined) return latest;
  const ready = (pod.status?.conditions ?? []).find((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'False');
  if (ready?.lastTransitionTime) return parseRfc3339(ready.lastTransitionTime);
  if (pod.metadata.deletionTimestamp) return parseRfc3339(pod.metadata.deletionTimestamp);
  return parseRfc3339(pod.metadata.creationTimestamp ?? '');
}

/** `controller.ActivePods` order: unassigned, then pending before running, not-ready before ready, more restarts, newer first. */
function activePodsOrder(a: Obj, b: Obj): number {
  const na = a.spec?.nodeName ? 1 : 0;
  const nb = b.spec?.nodeName ? 1 : 0;
  if (na !== nb) return na - nb;
  const rank = (p: Obj) => ({ Pending: 0, Unknown: 1, Running: 2 })[phaseOf(p) as 'Pending'] ?? 0;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const ra = isPodReady(a) ? 1 : 0;
  const rb = isPodReady(b) ? 1 : 0;
  if (ra !== rb) return ra - rb;
  const restarts = (p: Obj) => Math.max(0, ...(p.status?.containerStatuses ?? []).map((c: { restartCount?: number }) => c.restartCount ?? 0));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return parseRfc3339(b.metadata.creationTimestamp ?? '') - parseRfc3339(a.metadata.creationTimestamp ?? '');
}

/** `podGenerateNameWithIndex`: `<job>-<index>-`, the job name shortened to fit 58 characters. */
function generateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > MAX_GENERATED_NAME_LENGTH ? jobName.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix : prefix;
}

/** `addCompletionIndexEnvVariable` (PodIndexLabel on: read from the label). */
function addCompletionIndexEnv(spec: Obj['spec']): void {
  for (const list of [spec.initContainers ?? [], spec.containers ?? []]) {
    for (const c of list) {
      c.env = c.env ?? [];
      if (c.env.some((e: { name: string }) => e.name === COMPLETION_INDEX_ENV)) continue;
      c.env.push({ name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.labels['${JOB_COMPLETION_INDEX}']` } } });
    }
  }
}

/**
 * The pod-failure backoff record (`backoffRecord`): consecutive failures since the last success
 * and the time of the last one (Unix ms). Source: pkg/controller/job/backoff_utils.go.
 */
interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime?: number;
}

/** `newBackoffRecord`: fold the newly finished pods into the stored record. */
function nextBackoffRecord(prev: BackoffRecord | undefined, newSucceeded: Obj[], newFailed: Obj[]): BackoffRecord {
  const rec: BackoffRecord = { failuresAfterLastSuccess: prev?.failuresAfterLastSuccess ?? 0, lastFailureTime: prev?.lastFailureTime };
  const failedTimes = newFailed.map(finishedTime).sort((a, b) => a - b);
  if (newSucceeded.length === 0) {
    if (failedTimes.length === 0) return rec;
    return { failuresAfterLastSuccess: rec.failuresAfterLastSuccess + failedTimes.length, lastFailureTime: failedTimes[failedTimes.length - 1] };
  }
  const lastSuccess = Math.max(...newSucceeded.map(finishedTime));
  const out: BackoffRecord = { failuresAfterLastSuccess: 0 };
  for (let i = failedTimes.length - 1; i >= 0; i--) {
    if (failedTimes[i] <= lastSuccess) break;
    if (out.lastFailureTime === undefined) out.lastFailureTime = failedTimes[i];
    out.failuresAfterLastSuccess++;
  }
  return out;
}

/** `getRemainingTimeForFailuresCount`: how long pod creation must still wait (ms). */
function remainingBackoff(rec: BackoffRecord, nowUnixMs: number, base: number, max: number): number {
  if (rec.failuresAfterLastSuccess === 0 || rec.lastFailureTime === undefined) return 0;
  let d = base;
  for (let i = 1; i < rec.failuresAfterLastSuccess; i++) {
    d *= 2;
    if (d >= max) {
      d = max;
      break;
    }
  }
  const elapsed = nowUnixMs - rec.lastFailureTime;
  return d < elapsed ? 0 : d - elapsed;
}

// ------------------------------------------------------------------------------ the controller

/** Start the job-controller (see the file comment). */
export function newJobController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(JOB_CONTROLLER);
  const jobInformer = ctx.informers.informer('jobs');
  const podInformer = ctx.informers.informer('pods');
  const jobs = jobInformer.lister;
  const pods = podInformer.lister;
  const rateLimiter = () => new ItemExponentialFailureRateLimiter(DEFAULT_JOB_API_BACKOFF_MS, MAX_JOB_API_BACKOFF_MS);
  const queue = new RateLimitingQueue(clock, { name: 'job', rateLimiter: rateLimiter() });
  const orphanQueue = new RateLimitingQueue(clock, { name: 'job_orphan_pod', rateLimiter: rateLimiter() });
  const batchPeriod = ctx.setting('jobSyncBatchPeriodMs', SYNC_JOB_BATCH_PERIOD_MS);
  const backoffBase = ctx.setting('jobPodFailureBackoffMs', DEFAULT_JOB_POD_FAILURE_BACKOFF_MS);
  const backoffMax = ctx.setting('jobPodFailureBackoffMaxMs', MAX_JOB_POD_FAILURE_BACKOFF_MS);

  const nowIso = () => clock.rfc3339();
  const nowUnix = () => clock.epochMs + clock.now();
  const ref = (o: Obj) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name!, uid: o.metadata.uid });
  const trace = (job: Obj, message: string) => ctx.trace(JOB_CONTROLLER, `${metaNamespaceKey(job)} ${message}`, ref(job));

  // ---------------------------------------------------------------- memory (dies with the process)

  const expectations = new Map<string, { add: number; del: number; at: number }>();
  const expect = (key: string, what: 'add' | 'del', n: number) => {
    const e = expectations.get(key) ?? { add: 0, del: 0, at: clock.now() };
    e[what] = n;
    e.at = clock.now();
    expectations.set(key, e);
  };
  const observe = (key: string, what: 'add' | 'del') => {
    const e = expectations.get(key);
    if (e) e[what]--;
  };
  const satisfied = (key: string) => {
    const e = expectations.get(key);
    return !e || (e.add <= 0 && e.del <= 0) || clock.now() - e.at > EXPECTATIONS_TIMEOUT_MS;
  };
  /** `uidTrackingExpectations`: pods whose finalizer removal was sent but not yet seen. */
  const finalizerExpectations = new Map<string, Set<string>>();
  const finalizerRemovalObserved = (key: string, uid: string | undefined) => {
    if (uid) finalizerExpectations.get(key)?.delete(uid);
  };
  /** `backoffStore`. */
  const backoffs = new Map<string, BackoffRecord>();

  // ---------------------------------------------------------------- event handlers (enqueue only)

  const enqueueNow = (job: Obj) => queue.add(metaNamespaceKey(job));
  const enqueueBatched = (job: Obj) => queue.addAfter(metaNamespaceKey(job), batchPeriod);
  const resolveControllerRef = (namespace: string | undefined, r: OwnerReference): Obj | undefined => {
    if (r.kind !== 'Job') return undefined;
    const job = jobs.get(namespace, r.name);
    return job && job.metadata.uid === r.uid ? job : undefined;
  };
  const jobsSelecting = (pod: Obj): Obj[] =>
    jobs.list(pod.metadata.namespace).filter((j) => {
      try {
        const sel = selectorFromLabelSelector(j.spec?.selector);
        return !sel.empty() && sel.matches(pod.metadata.labels);
      } catch {
        return false;
      }
    });
  /** `cleanupPodFinalizers`: a finished or deleted Job's pods still carrying the finalizer go to the orphan queue. */
  const cleanupPodFinalizers = (job: Obj) => {
    for (const pod of pods.list(job.metadata.namespace)) {
      if (getControllerOf(pod)?.uid === job.metadata.uid && hasFinalizer(pod)) orphanQueue.add(metaNamespaceKey(pod));
    }
  };
  /** `deletePod` handler; `final` = the object is gone (not just marked for deletion). */
  const onPodDeleted = (pod: Obj, final: boolean) => {
    const r = getControllerOf(pod);
    if (!r) {
      if (hasFinalizer(pod)) orphanQueue.add(metaNamespaceKey(pod));
      return;
    }
    const job = resolveControllerRef(pod.metadata.namespace, r);
    if (!job || isJobFinished(job)) {
      if (hasFinalizer(pod)) orphanQueue.add(metaNamespaceKey(pod));
      return;
    }
    const key = metaNamespaceKey(job);
    observe(key, 'del');
    if (final || !hasFinalizer(pod)) finalizerRemovalObserved(key, pod.metadata.uid);
    enqueueBatched(job);
  };

  jobInformer.addEventHandler({
    onAdd: (job) => enqueueNow(job),
    onUpdate: (old, cur) => {
      if (cur.metadata.generation === old.metadata.generation) enqueueBatched(cur);
      else enqueueNow(cur);
      if (isJobFinished(cur)) cleanupPodFinalizers(cur);
      const ads = cur.spec?.activeDeadlineSeconds;
      if (cur.status?.startTime && ads !== undefined && ads !== null && old.spec?.activeDeadlineSeconds !== ads) {
        const passed = nowUnix() - parseRfc3339(cur.status.startTime);
        queue.addAfter(metaNamespaceKey(cur), ads * 1000 - passed);
      }
    },
    onDelete: (job) => {
      enqueueNow(job);
      cleanupPodFinalizers(job);
    },
  });
  podInformer.addEventHandler({
    onAdd: (pod) => {
      if (pod.metadata.deletionTimestamp) {
        onPodDeleted(pod, false);
        return;
      }
      const r = getControllerOf(pod);
      if (r) {
        const job = resolveControllerRef(pod.metadata.namespace, r);
        if (!job) return;
        observe(metaNamespaceKey(job), 'add');
        enqueueBatched(job);
        return;
      }
      if (hasFinalizer(pod)) orphanQueue.add(metaNamespaceKey(pod));
      for (const j of jobsSelecting(pod)) enqueueBatched(j);
    },
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      if (cur.metadata.deletionTimestamp) {
        onPodDeleted(cur, false);
        return;
      }
      const finalizerRemoved = !hasFinalizer(cur);
      const curRef = getControllerOf(cur);
      const oldRef = getControllerOf(old);
      const refChanged = !deepEqual(curRef, oldRef);
      if (refChanged && oldRef) {
        const job = resolveControllerRef(old.metadata.namespace, oldRef);
        if (job) {
          if (finalizerRemoved) finalizerRemovalObserved(metaNamespaceKey(job), cur.metadata.uid);
          enqueueBatched(job);
        }
      }
      if (curRef) {
        const job = resolveControllerRef(cur.metadata.namespace, curRef);
        if (!job) return;
        if (finalizerRemoved) finalizerRemovalObserved(metaNamespaceKey(job), cur.metadata.uid);
        enqueueBatched(job);
        return;
      }
      if (hasFinalizer(cur)) orphanQueue.add(metaNamespaceKey(cur));
      if (refChanged || !deepEqual(old.metadata.labels, cur.metadata.labels)) for (const j of jobsSelecting(cur)) enqueueBatched(j);
    },
    onDelete: (pod) => onPodDeleted(pod, true),
  });

  // ---------------------------------------------------------------- pod operations

  const errorText = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

  /** `removeTrackingFinalizerPatch` as a strategic merge patch. */
  const removeFinalizer = (pod: Obj): void => {
    api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'strategic', { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } }, { fieldManager: 'kube-controller-manager' });
  };

  /** `RealPodControl.DeletePod` with its Events. 404 counts as done. */
  const deletePod = (job: Obj, pod: Obj): boolean => {
    try {
      api.delete('pods', pod.metadata.namespace, pod.metadata.name!, { fieldManager: 'kube-controller-manager' });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.code === 404) return true;
      recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${errorText(e)}`);
      return false;
    }
    recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    trace(job, `delete Pod ${pod.metadata.name}`);
    return true;
  };

  /** `ClaimPods` with the tracking finalizer: adoption adds the controller reference and the finalizer. */
  const podsForJob = (job: Obj, selector: Selector): Obj[] => {
    const out: Obj[] = [];
    const deleting = !!job.metadata.deletionTimestamp;
    for (const pod of pods.list(job.metadata.namespace)) {
      const match = selector.matches(pod.metadata.labels);
      const owner = getControllerOf(pod);
      if (owner) {
        if (owner.uid !== job.metadata.uid) continue;
        if (match || deleting) {
          out.push(pod);
          continue;
        }
        const refs = (pod.metadata.ownerReferences ?? []).filter((r) => r.uid !== job.metadata.uid);
        const finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JOB_TRACKING_FINALIZER);
        try {
          api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'merge', {
            metadata: { ownerReferences: refs.length ? refs : null, finalizers: finalizers.length ? finalizers : null },
          });
          trace(job, `release Pod ${pod.metadata.name} (no longer matches)`);
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
        }
        continue;
      }
      if (!match || deleting || pod.metadata.deletionTimestamp) continue;
      const finalizers = [...(pod.metadata.finalizers ?? [])];
      if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
      out.push(
        api.patch('pods', pod.metadata.namespace, pod.metadata.name!, 'merge', {
          metadata: { ownerReferences: [...(pod.metadata.ownerReferences ?? []), newControllerRef(job)], finalizers },
        }),
      );
      trace(job, `adopt Pod ${pod.metadata.name}`);
    }
    return out;
  };

  // ---------------------------------------------------------------- the sync

  interface SyncCtx {
    job: Obj;
    key: string;
    st: WorkStatus;
    pods: Obj[];
    activePods: Obj[];
    succeeded: number;
    failed: number;
    finished?: JobCondition;
    prevSucceededIndexes: number[];
    succeededIndexes: number[];
    backoff: BackoffRecord;
    expectedRm: Set<string>;
    uncounted: { succeeded: Set<string>; failed: Set<string> };
    /** The first pod create/delete error of `manageJob` (returned after the status is written). */
    manageError?: ApiError;
  }

  const newCondition = (type: string, status: string, reason: string, message: string): JobCondition => {
    const now = nowIso();
    return { type, status, lastProbeTime: now, lastTransitionTime: now, reason, message };
  };

  /** `ensureJobConditionStatus`: set a condition (a new False one is not added). Returns whether it changed. */
  const ensureCondition = (st: WorkStatus, type: string, status: string, reason: string, message: string): boolean => {
    const i = st.conditions.findIndex((c) => c.type === type);
    if (i >= 0) {
      const c = st.conditions[i];
      if (c.status !== status || c.reason !== reason || c.message !== message) {
        st.conditions[i] = newCondition(type, status, reason, message);
        return true;
      }
      return false;
    }
    if (status !== 'False') {
      st.conditions.push(newCondition(type, status, reason, message));
      return true;
    }
    return false;
  };

  /** Write the working status (`UpdateStatus`), batch/v1 field order and omitempty rules. */
  const writeStatus = (c: SyncCtx): void => {
    const st = c.st;
    const uncounted: Record<string, string[]> = {};
    if (st.uncounted.succeeded.length) uncounted.succeeded = st.uncounted.succeeded;
    if (st.uncounted.failed.length) uncounted.failed = st.uncounted.failed;
    const status: Record<string, unknown> = {};
    if (st.conditions.length) status.conditions = st.conditions;
    if (st.startTime) status.startTime = st.startTime;
    if (st.completionTime) status.completionTime = st.completionTime;
    if (st.active) status.active = st.active;
    if (st.succeeded) status.succeeded = st.succeeded;
    if (st.failed) status.failed = st.failed;
    status.terminating = st.terminating;
    if (st.completedIndexes) status.completedIndexes = st.completedIndexes;
    status.uncountedTerminatedPods = uncounted;
    status.ready = st.ready;
    c.job = api.updateStatus({ ...c.job, status: deepCopy(status) }, { fieldManager: 'kube-controller-manager' });
  };

  /** `cleanUncountedPodsWithoutFinalizers`: uncounted pods whose finalizer is gone move to the counters. */
  const cleanUncounted = (st: WorkStatus, withFinalizer: Set<string>): boolean => {
    let changed = false;
    const s = st.uncounted.succeeded.filter((u) => withFinalizer.has(u));
    if (s.length !== st.uncounted.succeeded.length) {
      st.succeeded += st.uncounted.succeeded.length - s.length;
      st.uncounted.succeeded = s;
      changed = true;
    }
    const f = st.uncounted.failed.filter((u) => withFinalizer.has(u));
    if (f.length !== st.uncounted.failed.length) {
      st.failed += st.uncounted.failed.length - f.length;
      st.uncounted.failed = f;
      changed = true;
    }
    return changed;
  };

  /** `manageJob`: create or delete pods toward the wanted number of active ones. Returns the new active count. */
  const manageJob = (c: SyncCtx): number => {
    const { job, key } = c;
    let active = c.activePods.length;
    const parallelism: number = job.spec?.parallelism ?? 1;
    if (isSuspended(job)) {
      const toDelete = [...c.activePods];
      expect(key, 'del', toDelete.length);
      if (toDelete.length) trace(job, `suspended -> delete ${toDelete.length} active pod(s)`);
      const removed = deleteJobPods(c, toDelete);
      return active - removed;
    }
    const completions: number | undefined = job.spec?.completions ?? undefined;
    let wantActive: number;
    if (completions === undefined) wantActive = c.succeeded > 0 ? active : parallelism;
    else wantActive = Math.max(0, Math.min(completions - c.succeeded, parallelism));

    const rmAtLeast = Math.max(0, active - wantActive);
    const toDelete = activePodsForRemoval(c, rmAtLeast).slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
    if (toDelete.length) {
      expect(key, 'del', toDelete.length);
      trace(job, `has ${active} active, wants ${wantActive} -> delete ${toDelete.length}`);
      return active - deleteJobPods(c, toDelete);
    }

    let diff = wantActive - active;
    // Only failed pods are replaced: terminating ones still hold their place.
    if (onlyReplaceFailedPods(job)) diff -= c.st.terminating;
    if (diff <= 0) return active;
    const remaining = remainingBackoff(c.backoff, nowUnix(), backoffBase, backoffMax);
    if (remaining > 0) {
      trace(job, `${c.backoff.failuresAfterLastSuccess} failure(s) -> next pod in ${Math.ceil(remaining / 1000)}s (backoff)`);
      queue.addAfter(key, Math.max(remaining, batchPeriod));
      return active;
    }
    diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
    let indexes: number[] = [];
    if (isIndexed(job)) {
      indexes = firstPendingIndexes(c, diff, completions ?? 0);
      diff = indexes.length;
    }
    if (diff <= 0) return active;
    expect(key, 'add', diff);
    trace(job, `has ${active} active, ${c.succeeded} succeeded, wants ${wantActive} active -> create ${diff}`);
    const template = deepCopy(job.spec?.template ?? {});
    template.metadata = template.metadata ?? {};
    template.spec = template.spec ?? {};
    if (isIndexed(job)) addCompletionIndexEnv(template.spec);
    const finalizers: string[] = [...(template.metadata.finalizers ?? [])];
    if (!finalizers.includes(JOB_TRACKING_FINALIZER)) finalizers.push(JOB_TRACKING_FINALIZER);
    template.metadata.finalizers = finalizers;

    let firstError: ApiError | undefined;
    let done = 0;
    for (let batch = Math.min(diff, SLOW_START_INITIAL_BATCH_SIZE); done < diff; batch = Math.min(2 * batch, diff - done)) {
      let failed = false;
      for (let i = 0; i < batch; i++) {
        const index = indexes.length ? indexes[done + i] : -1;
        const meta = deepCopy(template.metadata);
        const spec = deepCopy(template.spec);
        let generateName = podsPrefix(job.metadata.name!);
        if (index >= 0) {
          meta.annotations = { ...(meta.annotations ?? {}), [JOB_COMPLETION_INDEX]: String(index) };
          meta.labels = { ...(meta.labels ?? {}), [JOB_COMPLETION_INDEX]: String(index) };
          spec.hostname = `${job.metadata.name}-${index}`;
          generateName = generateNameWithIndex(job.metadata.name!, index);
        }
        const pod: Obj = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { ...meta, name: undefined, generateName, namespace: job.metadata.namespace, ownerReferences: [newControllerRef(job)] },
          spec,
        };
        delete pod.metadata.name;
        try {
          const created = api.create(pod, { fieldManager: 'kube-controller-manager' });
          recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
          active++;
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          observe(key, 'add');
          recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${errorText(e)}`);
          firstError = firstError ?? e;
          failed = true;
        }
      }
      done += batch;
      if (failed) {
        for (; done < diff; done++) observe(key, 'add');
        break;
      }
    }
    if (firstError) c.manageError = firstError;
    return active;
  };

  /** `deleteJobPods`: remove the finalizer, then delete. Returns how many went. */
  const deleteJobPods = (c: SyncCtx, list: Obj[]): number => {
    let removed = 0;
    for (const pod of list) {
      try {
        if (hasFinalizer(pod)) removeFinalizer(pod);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        observe(c.key, 'del');
        if (e.code !== 404) {
          c.manageError = c.manageError ?? e;
          continue;
        }
      }
      if (deletePod(c.job, pod)) {
        removed++;
        if (isPodReady(pod)) c.st.ready--;
        c.st.terminating++;
      } else observe(c.key, 'del');
    }
    return removed;
  };

  /** `activePodsForRemoval`: for Indexed Jobs duplicates and out-of-range indexes first, then the least advanced pods. */
  const activePodsForRemoval = (c: SyncCtx, rmAtLeast: number): Obj[] => {
    const rm: Obj[] = [];
    let left = [...c.activePods];
    if (isIndexed(c.job)) {
      const completions: number = c.job.spec?.completions ?? 0;
      const byIndex = new Map<number, Obj[]>();
      left = [];
      for (const p of c.activePods) {
        const ix = completionIndex(p);
        if (ix < 0 || ix >= completions) rm.push(p);
        else byIndex.set(ix, [...(byIndex.get(ix) ?? []), p]);
      }
      for (const list of byIndex.values()) {
        const sorted = [...list].sort(activePodsOrder);
        rm.push(...sorted.slice(0, -1));
        left.push(sorted[sorted.length - 1]);
      }
    }
    if (rm.length < rmAtLeast) rm.push(...left.sort(activePodsOrder).slice(0, rmAtLeast - rm.length));
    return rm;
  };

  /** `firstPendingIndexes`: the lowest indexes neither succeeded nor running. */
  const firstPendingIndexes = (c: SyncCtx, count: number, completions: number): number[] => {
    const taken = new Set<number>([...c.succeededIndexes, ...c.activePods.map(completionIndex)]);
    const out: number[] = [];
    for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
    return out;
  };

  /** `pastBackoffLimitOnFailure`: restarts of running/pending pods reach the limit (OnFailure only). */
  const pastBackoffLimitOnFailure = (job: Obj, list: Obj[]): boolean => {
    if (job.spec?.template?.spec?.restartPolicy !== 'OnFailure') return false;
    let restarts = 0;
    for (const p of list) {
      if (phaseOf(p) !== 'Running' && phaseOf(p) !== 'Pending') continue;
      for (const cs of [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])]) restarts += cs.restartCount ?? 0;
    }
    const limit: number = job.spec?.backoffLimit ?? 6;
    return limit === 0 ? restarts > 0 : restarts >= limit;
  };

  /** `trackJobStatusAndRemoveFinalizers` + `flushUncountedAndRemoveFinalizers` + `enactJobFinished`. */
  const trackStatus = (c: SyncCtx, needsFlushIn: boolean): void => {
    let needsFlush = needsFlushIn;
    const { job, st } = c;
    const indexed = isIndexed(job);
    const completions: number = job.spec?.completions ?? 0;
    const list = indexed ? [...c.pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : c.pods;
    const withFinalizer = new Set<string>();
    for (const p of list) if (hasFinalizer(p) && !c.expectedRm.has(p.metadata.uid!)) withFinalizer.add(p.metadata.uid!);
    if (cleanUncounted(st, withFinalizer)) needsFlush = true;

    const toRemove: Obj[] = [];
    const newSucceededIndexes: number[] = [];
    let reachedMax = false;
    for (const pod of list) {
      const uid = pod.metadata.uid!;
      if (!hasFinalizer(pod) || c.expectedRm.has(uid)) continue;
      const failed = isPodFailed(pod, job);
      // `canRemoveFinalizer`
      if (!(job.metadata.deletionTimestamp || c.finished || phaseOf(pod) === 'Succeeded' || failed)) continue;
      toRemove.push(pod);
      if (phaseOf(pod) === 'Succeeded' && !c.uncounted.failed.has(uid)) {
        if (indexed) {
          const ix = completionIndex(pod);
          if (ix >= 0 && ix < completions && !c.prevSucceededIndexes.includes(ix)) {
            newSucceededIndexes.push(ix);
            needsFlush = true;
          }
        } else if (!c.uncounted.succeeded.has(uid)) {
          needsFlush = true;
          st.uncounted.succeeded.push(uid);
        }
      } else if (failed || (c.finished && c.finished.type !== 'SuccessCriteriaMet')) {
        const ix = completionIndex(pod);
        // With a podFailurePolicy, a pod matching an `Ignore` rule is not counted.
        if (!c.uncounted.failed.has(uid) && (!indexed || (ix >= 0 && ix < completions)) && matchPodFailurePolicy(job.spec?.podFailurePolicy, pod).countFailed) {
          needsFlush = true;
          st.uncounted.failed.push(uid);
        }
      }
      if (newSucceededIndexes.length + st.uncounted.succeeded.length + st.uncounted.failed.length >= MAX_UNCOUNTED_PODS) {
        reachedMax = true;
        break;
      }
    }
    if (indexed) {
      c.succeededIndexes = [...new Set([...c.succeededIndexes, ...newSucceededIndexes])].sort((a, b) => a - b);
      const s = intervalsString(c.succeededIndexes);
      if (s !== st.completedIndexes) needsFlush = true;
      st.succeeded = c.succeededIndexes.length;
      st.completedIndexes = s;
    }
    if (c.finished?.type === 'FailureTarget') {
      // The interim condition is written before any finalizer goes; Failed follows when all is counted.
      st.conditions.push(c.finished);
      needsFlush = true;
      c.finished = newCondition('Failed', 'True', c.finished.reason ?? '', c.finished.message ?? '');
    }
    if (c.finished?.type === 'SuccessCriteriaMet') {
      if (!st.conditions.some((x) => x.type === 'SuccessCriteriaMet' && x.status === 'True')) {
        st.conditions.push(c.finished);
        needsFlush = true;
      }
      c.finished = newCondition('Complete', 'True', c.finished.reason ?? '', c.finished.message ?? '');
    }

    // Flush: uncounted pods are recorded before their finalizers go.
    if (needsFlush) {
      writeStatus(c);
      backoffs.set(c.key, c.backoff);
      needsFlush = false;
    }
    let rmError: ApiError | undefined;
    if (toRemove.length) {
      const expected = finalizerExpectations.get(c.key) ?? new Set<string>();
      for (const p of toRemove) expected.add(p.metadata.uid!);
      finalizerExpectations.set(c.key, expected);
      for (const p of toRemove) {
        try {
          removeFinalizer(p);
          withFinalizer.delete(p.metadata.uid!);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          finalizerRemovalObserved(c.key, p.metadata.uid);
          if (e.code === 404) withFinalizer.delete(p.metadata.uid!);
          else rmError = rmError ?? e;
        }
      }
    }
    if (cleanUncounted(st, withFinalizer)) needsFlush = true;
    if (rmError) {
      if (needsFlush) writeStatus(c);
      throw rmError;
    }

    // `enactJobFinished`: only once everything is counted and no pod is still terminating.
    let finishedNow = false;
    if (!reachedMax && c.finished && st.uncounted.succeeded.length + st.uncounted.failed.length === 0 && st.terminating === 0) {
      const f = c.finished;
      ensureCondition(st, f.type, f.status, f.reason ?? '', f.message ?? '');
      if (f.type === 'Complete') st.completionTime = st.conditions.find((x) => x.type === 'Complete')?.lastTransitionTime;
      finishedNow = true;
      needsFlush = true;
    }
    if (needsFlush) writeStatus(c);
    if (finishedNow) {
      const f = c.finished!;
      if (f.type === 'Complete') {
        const comps = job.spec?.completions;
        if (comps !== undefined && comps !== null && st.succeeded > comps) recorder.event(c.job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
        recorder.event(c.job, 'Normal', 'Completed', 'Job completed');
        trace(job, `completed: ${st.succeeded} succeeded`);
      } else {
        recorder.event(c.job, 'Warning', f.reason ?? 'Failed', f.message ?? '');
        trace(job, `failed: ${f.reason} (${st.failed} failed)`);
      }
    }
  };

  const reconcile = (key: string): void => {
    const shared = jobs.getByKey(key);
    if (!shared) {
      expectations.delete(key);
      finalizerExpectations.delete(key);
      backoffs.delete(key);
      return;
    }
    if (isJobFinished(shared)) {
      backoffs.delete(key);
      return;
    }
    const job = deepCopy(shared);
    const mode = job.spec?.completionMode;
    if (mode && mode !== 'NonIndexed' && mode !== 'Indexed') {
      recorder.event(job, 'Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
      return;
    }
    let selector: Selector;
    try {
      selector = selectorFromLabelSelector(job.spec?.selector);
    } catch {
      return;
    }
    const s = job.status ?? {};
    const st: WorkStatus = {
      conditions: deepCopy(s.conditions ?? []),
      startTime: s.startTime,
      completionTime: s.completionTime,
      active: s.active ?? 0,
      succeeded: s.succeeded ?? 0,
      failed: s.failed ?? 0,
      terminating: s.terminating ?? 0,
      completedIndexes: s.completedIndexes ?? '',
      uncounted: { succeeded: [...(s.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(s.uncountedTerminatedPods?.failed ?? [])] },
      ready: s.ready ?? 0,
    };
    const prevStatus = { active: st.active, ready: s.ready, terminating: s.terminating };
    const satisfiedExpectations = satisfied(key);
    const all = podsForJob(job, selector);
    const activePods = all.filter(isActive);
    const expectedRm = finalizerExpectations.get(key) ?? new Set<string>();
    const uncounted = { succeeded: new Set(st.uncounted.succeeded), failed: new Set(st.uncounted.failed) };
    const c: SyncCtx = {
      job,
      key,
      st,
      pods: all,
      activePods,
      succeeded: 0,
      failed: 0,
      prevSucceededIndexes: [],
      succeededIndexes: [],
      backoff: { failuresAfterLastSuccess: 0 },
      expectedRm,
      uncounted,
    };
    st.ready = activePods.filter(isPodReady).length;
    st.terminating = all.filter(isTerminatingPod).length;
    let active = activePods.length;

    // `getNewFinishedPods`: finished, still carrying the finalizer, not yet in the uncounted lists.
    const completions: number = job.spec?.completions ?? 0;
    const fresh = (p: Obj, u: Set<string>) =>
      hasFinalizer(p) && !u.has(p.metadata.uid!) && !expectedRm.has(p.metadata.uid!) && (!isIndexed(job) || (completionIndex(p) >= 0 && completionIndex(p) < completions));
    const newSucceeded = all.filter((p) => fresh(p, uncounted.succeeded) && phaseOf(p) === 'Succeeded');
    const newFailed = all.filter((p) => fresh(p, uncounted.failed) && isPodFailed(p, job));
    c.succeeded = st.succeeded + newSucceeded.length + uncounted.succeeded.size;
    // `nonIgnoredFailedPodsCount`: failures matching an `Ignore` rule do not count.
    const nonIgnored = newFailed.filter((p) => matchPodFailurePolicy(job.spec?.podFailurePolicy, p).countFailed).length;
    c.failed = st.failed + nonIgnored + uncounted.failed.size;

    if (!st.startTime && !isSuspended(job)) st.startTime = nowIso();
    c.backoff = nextBackoffRecord(backoffs.get(key), newSucceeded, newFailed);

    const backoffLimit: number = job.spec?.backoffLimit ?? 6;
    const successMet = st.conditions.find((x) => x.type === 'SuccessCriteriaMet' && x.status === 'True');
    if (successMet) c.finished = successMet;
    if (!c.finished) {
      const ft = st.conditions.find((x) => x.type === 'FailureTarget' && x.status === 'True');
      if (ft) c.finished = newCondition('Failed', 'True', ft.reason ?? '', ft.message ?? '');
      else {
        // `getFailJobMessage`: the first failed pod matching a `FailJob` rule.
        const policy = job.spec?.podFailurePolicy;
        const msg = policy ? all.filter((p) => isPodFailed(p, job)).map((p) => matchPodFailurePolicy(policy, p).failJobMessage).find((m) => m !== undefined) : undefined;
        if (msg !== undefined) {
          c.finished = newCondition('FailureTarget', 'True', JOB_REASON_POD_FAILURE_POLICY, msg);
          trace(job, `pod failure policy: ${msg}`);
        }
      }
    }
    if (!c.finished) {
      const ads: number | undefined = job.spec?.activeDeadlineSeconds ?? undefined;
      const startedMs = st.startTime ? parseRfc3339(st.startTime) : undefined;
      if (c.failed > backoffLimit || pastBackoffLimitOnFailure(job, all)) {
        c.finished = newCondition('FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
      } else if (ads !== undefined && startedMs !== undefined && !isSuspended(job) && nowUnix() - startedMs >= ads * 1000) {
        c.finished = newCondition('FailureTarget', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline');
      } else if (ads !== undefined && startedMs !== undefined && !isSuspended(job)) {
        queue.addAfter(key, ads * 1000 - (nowUnix() - startedMs));
      }
    }
    if (isIndexed(job)) {
      c.prevSucceededIndexes = parseIntervals(st.completedIndexes, completions);
      const fromPods = all
        .filter((p) => phaseOf(p) === 'Succeeded' && hasFinalizer(p) && completionIndex(p) >= 0 && completionIndex(p) < completions)
        .map(completionIndex);
      c.succeededIndexes = [...new Set([...c.prevSucceededIndexes, ...fromPods])].sort((a, b) => a - b);
      c.succeeded = c.succeededIndexes.length;
    }

    let suspendChanged = false;
    if (c.finished) {
      // Failing: every active pod goes (finalizers stay until they are counted).
      let deleted = 0;
      for (const pod of activePods) {
        if (deletePod(job, pod)) {
          deleted++;
          if (isPodReady(pod)) st.ready--;
        }
      }
      if (deleted !== active || !satisfiedExpectations) c.finished = undefined;
      active -= deleted;
      st.terminating += deleted;
    } else {
      let manageCalled = false;
      if (satisfiedExpectations && !job.metadata.deletionTimestamp) {
        active = manageJob(c);
        manageCalled = true;
      }
      const comps = job.spec?.completions;
      const complete = comps === undefined || comps === null ? c.succeeded > 0 && active === 0 : c.succeeded >= comps && active === 0;
      if (complete) {
        c.finished = newCondition('SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods');
      } else if (manageCalled) {
        if (isSuspended(job)) {
          if (ensureCondition(st, 'Suspended', 'True', 'JobSuspended', 'Job suspended')) {
            suspendChanged = true;
            recorder.event(job, 'Normal', 'Suspended', 'Job suspended');
          }
        } else if (ensureCondition(st, 'Suspended', 'False', 'JobResumed', 'Job resumed')) {
          suspendChanged = true;
          recorder.event(job, 'Normal', 'Resumed', 'Job resumed');
          st.startTime = nowIso();
        }
      }
    }
    st.active = active;
    const needsStatusUpdate =
      suspendChanged || st.active !== prevStatus.active || st.ready !== prevStatus.ready || st.terminating !== prevStatus.terminating || st.startTime !== s.startTime;
    trackStatus(c, needsStatusUpdate);
    if (c.manageError) throw c.manageError;
  };

  /** `syncOrphanPod`: drop the finalizer of a pod whose Job is gone or finished. */
  const reconcileOrphan = (key: string): void => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const pod = pods.get(namespace, name);
    if (!pod) return;
    const r = getControllerOf(pod);
    if (r) {
      if (r.kind !== 'Job' || r.apiVersion !== 'batch/v1') return;
      const job = resolveControllerRef(pod.metadata.namespace, r);
      if (job && !isJobFinished(job)) return;
    }
    if (!hasFinalizer(pod)) return;
    try {
      removeFinalizer(pod);
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 404)) throw e;
    }
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: JOB_CONTROLLER,
    workers: ctx.setting('concurrentJobSyncs', DEFAULT_CONCURRENT_JOB_SYNCS),
    waitForSync: [jobInformer, podInformer],
  });
  const orphanWorkers = startWorkers(orphanQueue, reconcileOrphan, { clock, name: `${JOB_CONTROLLER} orphan pods`, waitForSync: [jobInformer, podInformer] });

  return {
    name: JOB_CONTROLLER,
    stop() {
      workers.stop();
      orphanWorkers.stop();
    },
  };
}
