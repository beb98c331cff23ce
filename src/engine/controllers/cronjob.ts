/**
 * cronjob-controller: create a Job for each time a CronJob's schedule fires.
 *
 * Mirrors pkg/controller/cronjob (cronjob_controllerv2.go, utils.go) of Kubernetes 1.32-1.36:
 *
 *   informers (CronJobs, Jobs) -> handlers enqueue the CronJob's key (a schedule change
 *   re-queues it at the new next time) -> reconcile(key):
 *     1. history: finished Jobs beyond `successfulJobsHistoryLimit` (3) / `failedJobsHistoryLimit`
 *        (1) are deleted, oldest start time first (`SuccessfulDelete` `Deleted job x`);
 *     2. `status.active`: Jobs that finished leave it (`SawCompletedJob`), Jobs that vanished
 *        leave it (`MissingJob`), `lastSuccessfulTime` follows the newest completion;
 *     3. suspended, an unknown time zone or an unparseable schedule: stop here (no requeue);
 *     4. the most recent schedule time not yet run, counting from `lastScheduleTime` (or the
 *        creation time), but not further back than `startingDeadlineSeconds`. More than 100
 *        missed times: a `TooManyMissedTimes` warning. Later than the starting deadline:
 *        `MissSchedule`, nothing runs;
 *     5. `concurrencyPolicy`: Forbid skips the run while a Job is active (`JobAlreadyActive`),
 *        Replace deletes the active Jobs first, Allow runs alongside;
 *     6. create the Job `<cronjob>-<scheduled time in minutes since the Unix epoch>` (the name is
 *        the lock: one Job per scheduled time, even across restarts), add it to `status.active`,
 *        set `lastScheduleTime`, and requeue 100 ms after the next schedule time.
 *
 * Schedules are the standard 5-field cron syntax (robfig/cron `ParseStandard`): `*`, lists,
 * ranges, steps, month and weekday names, the descriptors `@yearly`/`@annually`, `@monthly`,
 * `@weekly`, `@daily`/`@midnight`, `@hourly`, `@every <duration>`, and a `TZ=`/`CRON_TZ=` prefix
 * (officially unsupported: an `UnsupportedSchedule` warning). `spec.timeZone` names an IANA zone.
 * The cron arithmetic is the `cron-parser` library behind `nextScheduleTime`, loaded on demand
 * (src/engine/libs.ts: `loadEngineLibraries()` must have settled).
 *
 * Times: the controller works in Unix ms (`clock.epochMs + clock.now()`), so virtual time 0 is
 * 2026-01-05T06:00:00Z and Job names carry real-looking minute numbers (e.g. `hello-29461560`).
 */
import { cronParser } from '../libs';
import { cronParseStandardError, isKnownTimeZone } from '../api/cron';
import { ApiError } from '../api/errors';
import { deepCopy, deepEqual, type KubeObject, type OwnerReference } from '../api/types';
import { formatRfc3339, parseRfc3339 } from '../clock';
import { metaNamespaceKey } from '../client/informer';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';
import { getControllerOf, newControllerRef } from './util';

/** The component name on Events and traces. */
export const CRONJOB_CONTROLLER = 'cronjob-controller';

/** Workers (`--concurrent-cron-job-syncs`, default 5). Source: cmd/kube-controller-manager/app/options/cronjobcontroller.go. */
export const DEFAULT_CONCURRENT_CRONJOB_SYNCS = 5;
/** Requeue this long after the next schedule time, for clock skew (`nextScheduleDelta`). Source: cronjob_controllerv2.go. */
export const NEXT_SCHEDULE_DELTA_MS = 100;
/** More missed start times than this is "too many" (utils.go `mostRecentScheduleTime`). */
export const TOO_MANY_MISSED_SCHEDULES = 100;
/** Annotation with the scheduled time on each Job (`batch.CronJobScheduledTimestampAnnotation`, CronJobsScheduledAnnotation beta 1.32). */
export const CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

type Obj = KubeObject;

// ------------------------------------------------------------------------------ schedules

/** A parsed schedule: the first time strictly after `afterUnixMs` (whole seconds, as robfig's `Next`). */
export interface CronSchedule {
  next(afterUnixMs: number): number;
}

/** Why a schedule does not parse (the text robfig/cron would give). */
export class CronParseError extends Error {}

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Go `time.ParseDuration` for the `@every` form (h, m, s, ms units). */
function parseGoDuration(s: string): number {
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    consumed += m[0].length;
    const unit = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 }[m[2]]!;
    total += Number(m[1]) * unit;
  }
  if (!s || consumed !== s.length) throw new CronParseError(`failed to parse duration @every ${s}: time: invalid duration "${s}"`);
  return total;
}

export { isKnownTimeZone };

/**
 * `cron.ParseStandard`: parse a schedule (optionally `TZ=zone ` / `CRON_TZ=zone ` prefixed), its
 * times in `tz` (IANA, default UTC). Throws `CronParseError` with robfig's wording.
 */
export function parseCronSchedule(spec: string, tz?: string): CronSchedule {
  // robfig's own acceptance and wording first; cron-parser below only does the arithmetic.
  const robfigError = cronParseStandardError(spec);
  if (robfigError !== undefined) throw new CronParseError(robfigError);
  let s = spec.trim();
  let zone = tz;
  if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
    const sp = s.indexOf(' ');
    const eq = s.indexOf('=');
    zone = sp < 0 ? s.slice(eq + 1) : s.slice(eq + 1, sp);
    if (!isKnownTimeZone(zone)) throw new CronParseError(`provided bad location ${zone}: unknown time zone ${zone}`);
    s = sp < 0 ? '' : s.slice(sp).trim();
  }
  if (!s) throw new CronParseError('empty spec string');
  if (zone === 'Local' || zone === '') zone = undefined;
  if (s.startsWith('@every ')) {
    const d = parseGoDuration(s.slice('@every '.length).trim());
    const step = Math.max(1000, Math.floor(d / 1000) * 1000);
    // robfig ConstantDelaySchedule: t + delay, truncated to the second.
    return { next: (after) => Math.floor(after / 1000) * 1000 + step };
  }
  if (s.startsWith('@')) {
    const d = DESCRIPTORS[s];
    if (!d) throw new CronParseError(`unrecognized descriptor: ${s}`);
    s = d;
  }
  const fields = s.split(/\s+/);
  if (fields.length !== 5) throw new CronParseError(`expected exactly 5 fields, found ${fields.length}: ${s}`);
  for (const f of fields) {
    // cron-parser extensions robfig does not have.
    const bad = /[LWH#]/i.exec(f.replace(/\b(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC|SUN|MON|TUE|WED|THU|FRI|SAT)\b/gi, ''));
    if (bad) throw new CronParseError(`failed to parse int from ${f}: strconv.Atoi: parsing "${f}": invalid syntax`);
  }
  const expr = s;
  // cron-parser loads on demand (src/engine/libs.ts).
  const { CronExpressionParser } = cronParser();
  const check = (after: number) => CronExpressionParser.parse(expr, { currentDate: after, tz: zone });
  try {
    check(0);
  } catch (e) {
    throw new CronParseError((e as Error).message);
  }
  return { next: (after) => check(after).next().getTime() };
}

/**
 * The brief's small interface: the first time of `schedule` strictly after `afterMs` (Unix ms)
 * in time zone `tz` (IANA; undefined = UTC). Throws `CronParseError`.
 */
export function nextScheduleTime(schedule: string, afterMs: number, tz?: string): number {
  return parseCronSchedule(schedule, tz).next(afterMs);
}

/** RFC 3339 in a time zone (`time.Time.In(loc).Format(time.RFC3339)`): `2026-01-05T07:00:00+01:00`. */
function rfc3339In(unixMs: number, tz: string | undefined): string {
  if (!tz || tz === 'UTC') return formatRfc3339(unixMs);
  const offsetMin = new (cronParser().CronDate)(unixMs, tz).getUTCOffset();
  if (!offsetMin) return formatRfc3339(unixMs);
  const local = formatRfc3339(unixMs + offsetMin * 60_000).slice(0, -1);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Go's `time.RFC1123Z` in UTC: `Mon, 05 Jan 2026 06:00:00 +0000` (the MissSchedule message). */
function rfc1123z(unixMs: number): string {
  const iso = formatRfc3339(unixMs);
  const days = Math.floor(unixMs / 86_400_000);
  const dow = ['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed'][((days % 7) + 7) % 7];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(iso.slice(5, 7)) - 1];
  return `${dow}, ${iso.slice(8, 10)} ${mon} ${iso.slice(0, 4)} ${iso.slice(11, 19)} +0000`;
}

type Missed = 'none' | 'few' | 'many';

/**
 * `mostRecentScheduleTime`: [earliest time considered, the most recent unmet schedule time <= now
 * (or undefined), how many were missed]. Throws for a schedule whose two consecutive times are
 * less than a second apart (e.g. `0 0 31 2 *`).
 */
function mostRecentScheduleTime(cj: Obj, now: number, sched: CronSchedule, includeStartingDeadline: boolean): [number, number | undefined, Missed] {
  let earliest = cj.status?.lastScheduleTime ? parseRfc3339(cj.status.lastScheduleTime) : parseRfc3339(cj.metadata.creationTimestamp ?? '');
  const sds = cj.spec?.startingDeadlineSeconds;
  if (includeStartingDeadline && sds !== undefined && sds !== null) {
    const deadline = now - sds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = sched.next(earliest);
  const t2 = sched.next(t1);
  if (now < t1) return [earliest, undefined, 'none'];
  if (now < t2) return [earliest, t1, 'none'];
  const between = Math.round((t2 - t1) / 1000);
  if (between < 1) throw new CronParseError('time difference between two schedules is less than 1 second');
  const elapsed = Math.trunc((now - t1) / 1000);
  const missedCount = Math.floor(elapsed / between) + 1;
  let mostRecent: number | undefined;
  const potentialEarliest = t1 + (missedCount - 2) * between * 1000;
  for (let t = sched.next(potentialEarliest); t <= now; t = sched.next(t)) mostRecent = t;
  const missed: Missed = missedCount > TOO_MANY_MISSED_SCHEDULES ? 'many' : missedCount > 0 ? 'few' : 'none';
  return [earliest, mostRecent, missed];
}

/** `nextScheduleTimeDuration`: ms from now until 100 ms after the next schedule time. */
function nextScheduleDuration(cj: Obj, now: number, sched: CronSchedule): number {
  let mostRecent: number;
  try {
    const [earliest, recent, missed] = mostRecentScheduleTime(cj, now, sched, false);
    mostRecent = recent ?? (missed === 'none' ? earliest : now);
  } catch {
    mostRecent = now;
  }
  return sched.next(mostRecent) + NEXT_SCHEDULE_DELTA_MS - now;
}

/** `getFinishedStatus`: [finished, Complete|Failed]. */
function finishedStatus(job: Obj): [boolean, string] {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return [true, c.type];
  }
  return [false, ''];
}

/** `byJobStartTime`: started before not started, then by start time, then by name. */
function byJobStartTime(a: Obj, b: Obj): number {
  const sa = a.status?.startTime;
  const sb = b.status?.startTime;
  if (!sa && sb) return 1;
  if (sa && !sb) return -1;
  if (sa && sb && sa !== sb) return parseRfc3339(sa) - parseRfc3339(sb);
  return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
}

// ------------------------------------------------------------------------------ the controller

/** Start the cronjob-controller (see the file comment). */
export function newCronJobController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(CRONJOB_CONTROLLER);
  const cjInformer = ctx.informers.informer('cronjobs');
  const jobInformer = ctx.informers.informer('jobs');
  const cronJobs = cjInformer.lister;
  const jobs = jobInformer.lister;
  const queue = new RateLimitingQueue(clock, { name: 'cronjob' });
  const nowUnix = () => clock.epochMs + clock.now();
  const ref = (o: Obj) => ({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name!, uid: o.metadata.uid });
  const trace = (cj: Obj, message: string) => ctx.trace(CRONJOB_CONTROLLER, `${metaNamespaceKey(cj)} ${message}`, ref(cj));

  /** `formatSchedule`: the schedule with the time zone, warning about TZ inside the schedule. */
  const scheduleOf = (cj: Obj, warn: boolean): CronSchedule => {
    const schedule: string = cj.spec?.schedule ?? '';
    if (schedule.includes('TZ')) {
      if (warn) {
        recorder.event(
          cj,
          'Warning',
          'UnsupportedSchedule',
          `CRON_TZ or TZ used in schedule ${JSON.stringify(schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
        );
      }
      return parseCronSchedule(schedule);
    }
    const tz: string | undefined = cj.spec?.timeZone ?? undefined;
    return parseCronSchedule(schedule, tz && isKnownTimeZone(tz) ? tz : undefined);
  };

  // ---------------------------------------------------------------- event handlers (enqueue only)

  const enqueue = (cj: Obj) => queue.add(metaNamespaceKey(cj));
  const resolveControllerRef = (namespace: string | undefined, r: OwnerReference): Obj | undefined => {
    if (r.kind !== 'CronJob') return undefined;
    const cj = cronJobs.get(namespace, r.name);
    return cj && cj.metadata.uid === r.uid ? cj : undefined;
  };
  const enqueueOwner = (job: Obj) => {
    const r = getControllerOf(job);
    const cj = r && resolveControllerRef(job.metadata.namespace, r);
    if (cj) enqueue(cj);
  };

  cjInformer.addEventHandler({
    onAdd: (cj) => enqueue(cj),
    onUpdate: (old, cur) => {
      if (old.spec?.schedule !== cur.spec?.schedule || old.spec?.timeZone !== cur.spec?.timeZone) {
        let sched: CronSchedule;
        try {
          sched = scheduleOf(cur, false);
        } catch {
          recorder.event(cur, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${cur.spec?.schedule}`);
          return;
        }
        queue.addAfter(metaNamespaceKey(cur), nextScheduleDuration(cur, nowUnix(), sched));
        return;
      }
      enqueue(cur);
    },
    onDelete: (cj) => enqueue(cj),
  });
  jobInformer.addEventHandler({
    onAdd: (job) => enqueueOwner(job),
    onUpdate: (old, cur) => {
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      if (!deepEqual(getControllerOf(old), getControllerOf(cur))) enqueueOwner(old);
      enqueueOwner(cur);
    },
    onDelete: (job) => enqueueOwner(job),
  });

  // ---------------------------------------------------------------- the sync

  /** `deleteJob`: Background deletion, then out of the active list. */
  const deleteJob = (cj: Obj, job: Obj, status: { active: Obj[] }): boolean => {
    try {
      api.delete('jobs', job.metadata.namespace, job.metadata.name!, { propagationPolicy: 'Background', fieldManager: 'kube-controller-manager' });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      recorder.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${e.message}`);
      return false;
    }
    status.active = status.active.filter((a) => a.uid !== job.metadata.uid);
    recorder.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
    trace(cj, `delete Job ${job.metadata.name}`);
    return true;
  };

  /** `cleanupFinishedJobs`: keep the newest N finished Jobs of each kind. */
  const cleanupFinishedJobs = (cj: Obj, owned: Obj[], status: { active: Obj[] }): boolean => {
    const succeededLimit = cj.spec?.successfulJobsHistoryLimit;
    const failedLimit = cj.spec?.failedJobsHistoryLimit;
    if ((succeededLimit === undefined || succeededLimit === null) && (failedLimit === undefined || failedLimit === null)) return false;
    const done = owned.map((j) => [j, finishedStatus(j)] as const);
    const succeeded = done.filter(([, [f, t]]) => f && t === 'Complete').map(([j]) => j);
    const failed = done.filter(([, [f, t]]) => f && t === 'Failed').map(([j]) => j);
    let changed = false;
    const removeOldest = (list: Obj[], max: number | undefined | null) => {
      if (max === undefined || max === null) return;
      const n = list.length - max;
      if (n <= 0) return;
      for (const j of [...list].sort(byJobStartTime).slice(0, n)) if (deleteJob(cj, j, status)) changed = true;
    };
    removeOldest(succeeded, succeededLimit);
    removeOldest(failed, failedLimit);
    return changed;
  };

  const reconcile = (key: string): ReconcileResult | void => {
    const cj = cronJobs.getByKey(key);
    if (!cj) return;
    const owned = jobs.list(cj.metadata.namespace).filter((j) => {
      const r = getControllerOf(j);
      return !!r && r.name === cj.metadata.name;
    });
    const status = {
      active: deepCopy((cj.status?.active ?? []) as Obj[]),
      lastScheduleTime: cj.status?.lastScheduleTime as string | undefined,
      lastSuccessfulTime: cj.status?.lastSuccessfulTime as string | undefined,
    };
    let updateStatus = cleanupFinishedJobs(cj, owned, status);
    let requeue: number | undefined;
    let syncError: ApiError | undefined;
    try {
      const r = syncCronJob(cj, owned, status);
      requeue = r.requeue;
      updateStatus = updateStatus || r.updateStatus;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      syncError = e;
      updateStatus = true;
    }
    if (updateStatus) {
      const next: Record<string, unknown> = {};
      if (status.active.length) next.active = status.active;
      if (status.lastScheduleTime) next.lastScheduleTime = status.lastScheduleTime;
      if (status.lastSuccessfulTime) next.lastSuccessfulTime = status.lastSuccessfulTime;
      if (!deepEqual(next, cj.status ?? {})) api.updateStatus({ ...cj, status: next }, { fieldManager: 'kube-controller-manager' });
    }
    if (syncError) throw syncError;
    if (requeue !== undefined) return { requeueAfterMs: Math.max(1, requeue) };
  };

  /** `syncCronJob`: steps 2-6 of the file comment. */
  const syncCronJob = (
    cj: Obj,
    owned: Obj[],
    status: { active: Obj[]; lastScheduleTime?: string; lastSuccessfulTime?: string },
  ): { requeue?: number; updateStatus: boolean } => {
    const now = nowUnix();
    let updateStatus = false;
    const children = new Set<string>();
    for (const j of owned) {
      children.add(j.metadata.uid!);
      const found = status.active.some((a) => a.uid === j.metadata.uid);
      const [finished, type] = finishedStatus(j);
      if (!found && !finished) {
        recorder.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${j.metadata.name}`);
      } else if (found && finished) {
        status.active = status.active.filter((a) => a.uid !== j.metadata.uid);
        recorder.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, status: ${type}`);
        trace(cj, `saw Job ${j.metadata.name} finish (${type})`);
        updateStatus = true;
      }
      if (finished && type === 'Complete' && j.status?.completionTime) {
        if (!status.lastSuccessfulTime || parseRfc3339(j.status.completionTime) > parseRfc3339(status.lastSuccessfulTime)) {
          status.lastSuccessfulTime = j.status.completionTime;
          updateStatus = true;
        }
      }
    }
    for (const a of [...status.active]) {
      if (children.has(a.uid as string)) continue;
      if (jobs.get(a.namespace as string, a.name as string)) continue;
      recorder.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${a.name}`);
      status.active = status.active.filter((x) => x.uid !== a.uid);
      updateStatus = true;
    }
    if (cj.metadata.deletionTimestamp) return { updateStatus };

    const tz: string | undefined = cj.spec?.timeZone ?? undefined;
    if (tz !== undefined && !isKnownTimeZone(tz)) {
      recorder.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(tz)}: unknown time zone ${tz}`);
      return { updateStatus };
    }
    if (cj.spec?.suspend) return { updateStatus };
    let sched: CronSchedule;
    try {
      sched = scheduleOf(cj, true);
    } catch (e) {
      recorder.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(cj.spec?.schedule)} : ${(e as Error).message}`);
      return { updateStatus };
    }

    // `nextScheduleTime`
    let scheduled: number | undefined;
    try {
      const [, mostRecent, missed] = mostRecentScheduleTime({ ...cj, status: { ...cj.status, lastScheduleTime: status.lastScheduleTime } }, now, sched, true);
      if (mostRecent !== undefined && mostRecent <= now) {
        if (missed === 'many') {
          recorder.event(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
        }
        scheduled = mostRecent;
      }
    } catch (e) {
      recorder.event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${cj.spec?.schedule} : ${(e as Error).message}`);
      return { updateStatus };
    }
    const view = { ...cj, status: { ...cj.status, lastScheduleTime: status.lastScheduleTime } };
    if (scheduled === undefined) return { requeue: nextScheduleDuration(view, now, sched), updateStatus };

    const sds = cj.spec?.startingDeadlineSeconds;
    if (sds !== undefined && sds !== null && scheduled + sds * 1000 < now) {
      recorder.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      trace(cj, `missed ${formatRfc3339(scheduled)} (startingDeadlineSeconds ${sds})`);
      return { requeue: nextScheduleDuration(view, now, sched), updateStatus };
    }
    const jobName = `${cj.metadata.name}-${Math.floor(scheduled / 60_000)}`;
    const scheduledIso = formatRfc3339(scheduled);
    if (status.active.some((a) => a.name === jobName && a.namespace === cj.metadata.namespace) || status.lastScheduleTime === scheduledIso) {
      return { requeue: nextScheduleDuration(view, now, sched), updateStatus };
    }
    if (cj.spec?.concurrencyPolicy === 'Forbid' && status.active.length > 0) {
      recorder.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      trace(cj, `skips ${scheduledIso}: ${status.active.length} job(s) still active (Forbid)`);
      return { requeue: nextScheduleDuration(view, now, sched), updateStatus };
    }
    if (cj.spec?.concurrencyPolicy === 'Replace') {
      for (const a of [...status.active]) {
        const job = jobs.get(a.namespace as string, a.name as string);
        if (!job) continue;
        if (!deleteJob(cj, job, status)) throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `could not replace job ${job.metadata.namespace}/${job.metadata.name}`, reason: 'InternalError', code: 500 });
        updateStatus = true;
      }
    }

    // `getJobFromTemplate2`
    const jt = cj.spec?.jobTemplate ?? {};
    const annotations: Record<string, string> = { ...(jt.metadata?.annotations ?? {}), [CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION]: rfc3339In(scheduled, tz) };
    const jobReq: Obj = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: jobName,
        namespace: cj.metadata.namespace,
        ...(jt.metadata?.labels ? { labels: { ...jt.metadata.labels } } : {}),
        annotations,
        ownerReferences: [newControllerRef(cj)],
      },
      spec: deepCopy(jt.spec ?? {}),
    };
    let created: Obj;
    try {
      created = api.create(jobReq, { fieldManager: 'kube-controller-manager' });
      recorder.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
      trace(cj, `schedule ${scheduledIso} -> create Job ${created.metadata.name}`);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.reason !== 'AlreadyExists') {
        recorder.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${e.message}`);
        throw e;
      }
      // Created earlier but the status was not updated: take it into the active list.
      const existing = jobs.get(cj.metadata.namespace, jobName);
      if (!existing) throw e; // not in the cache yet: retry
      if (getControllerOf(existing)?.uid !== cj.metadata.uid) return { updateStatus };
      if (status.active.some((a) => a.uid === existing.metadata.uid)) return { updateStatus };
      created = existing;
    }
    status.active = [
      ...status.active,
      {
        kind: 'Job',
        namespace: created.metadata.namespace,
        name: created.metadata.name,
        uid: created.metadata.uid,
        apiVersion: 'batch/v1',
        resourceVersion: created.metadata.resourceVersion,
      } as unknown as Obj,
    ];
    status.lastScheduleTime = scheduledIso;
    const after = { ...cj, status: { ...cj.status, lastScheduleTime: scheduledIso } };
    return { requeue: nextScheduleDuration(after, now, sched), updateStatus: true };
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: CRONJOB_CONTROLLER,
    workers: ctx.setting('concurrentCronJobSyncs', DEFAULT_CONCURRENT_CRONJOB_SYNCS),
    waitForSync: [cjInformer, jobInformer],
  });
  return {
    name: CRONJOB_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}
