/**
 * cronjob-controller, checked against documented Kubernetes behaviour:
 * https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ ("Schedule syntax",
 * "Time zones", "Concurrency policy", "Jobs history limits", "Job creation" (100 missed
 * schedules, startingDeadlineSeconds)), pkg/controller/cronjob (Job names, event wording),
 * reference 1.3 / 8.4.
 *
 * Virtual time 0 is 2026-01-05T06:00:00Z (a Monday). Jobs run with the real job-controller; the
 * scheduler is replaced by the test-local `TestBinder` (`scheduler: false`).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { DEFAULT_EPOCH_MS, formatRfc3339 } from '../clock';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { TestBinder } from '../testing/testbinder';
import { CronParseError, nextScheduleTime } from './cronjob';

const T0 = DEFAULT_EPOCH_MS; // 2026-01-05T06:00:00Z
const MIN = 60_000;
const iso = (ms: number) => formatRfc3339(ms);

const CJ = (spec: string, command = 'exit 0', name = 'hello') => `
apiVersion: batch/v1
kind: CronJob
metadata: {name: ${name}}
spec:
${spec}
  jobTemplate:
    spec:
      backoffLimit: 0
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: "busybox:1.36", command: ["sh", "-c", "${command}"]}]
`;

function setup(): TestCluster {
  const c = newTestCluster({ controllers: ['job', 'cronjob'], scheduler: false });
  new TestBinder({ api: c.api, clock: c.clock }).start();
  return c;
}

const cronjob = (c: TestCluster, name = 'hello') => c.api.get('cronjobs', 'default', name);
const jobNames = (c: TestCluster) => c.api.list('jobs', { namespace: 'default' }).items.map((j) => j.metadata.name).sort();
const liveJobNames = (c: TestCluster) =>
  c.api
    .list('jobs', { namespace: 'default' })
    .items.filter((j) => !j.metadata.deletionTimestamp)
    .map((j) => j.metadata.name)
    .sort();
const cjEvents = (c: TestCluster) => c.events.filter((e) => e.component === 'cronjob-controller');
const minutes = (ms: number) => Math.floor(ms / MIN);

describe('cronjob schedules (robfig/cron ParseStandard semantics, via cron-parser)', () => {
  it('next time strictly after, at minute granularity', () => {
    expect(iso(nextScheduleTime('* * * * *', T0))).toBe('2026-01-05T06:01:00Z');
    expect(iso(nextScheduleTime('* * * * *', T0 - 1))).toBe('2026-01-05T06:00:00Z');
    expect(iso(nextScheduleTime('*/5 * * * *', T0 + 30_000))).toBe('2026-01-05T06:05:00Z');
    expect(iso(nextScheduleTime('30 6-16/4 * * 1-5', T0))).toBe('2026-01-05T06:30:00Z');
    expect(iso(nextScheduleTime('0 0 * * SUN', T0))).toBe('2026-01-11T00:00:00Z');
  });

  it('descriptors, @every, time zones and the CRON_TZ prefix', () => {
    expect(iso(nextScheduleTime('@hourly', T0))).toBe('2026-01-05T07:00:00Z');
    expect(iso(nextScheduleTime('@midnight', T0))).toBe('2026-01-06T00:00:00Z');
    expect(iso(nextScheduleTime('@annually', T0))).toBe('2027-01-01T00:00:00Z');
    expect(iso(nextScheduleTime('@every 90s', T0))).toBe('2026-01-05T06:01:30Z');
    // 09:00 in Paris (UTC+1 in January) is 08:00Z.
    expect(iso(nextScheduleTime('0 9 * * *', T0, 'Europe/Paris'))).toBe('2026-01-05T08:00:00Z');
    expect(iso(nextScheduleTime('CRON_TZ=America/New_York 0 9 * * *', T0))).toBe('2026-01-05T14:00:00Z');
  });

  it('rejects what ParseStandard rejects, with its wording', () => {
    expect(() => nextScheduleTime('* * * * * *', T0)).toThrow(CronParseError);
    // robfig formats the fields slice with %s: `[* * * * * *]`.
    expect(() => nextScheduleTime('* * * * * *', T0)).toThrow('expected exactly 5 fields, found 6: [* * * * * *]');
    expect(() => nextScheduleTime('@fortnightly', T0)).toThrow('unrecognized descriptor: @fortnightly');
    expect(() => nextScheduleTime('0 0 L * *', T0)).toThrow(CronParseError);
    expect(() => nextScheduleTime('TZ=Mars/Olympus 0 9 * * *', T0)).toThrow('provided bad location Mars/Olympus');
  });
});

describe('cronjob-controller', () => {
  it('creates <cronjob>-<minutes since epoch> at each scheduled minute, tracks it in status.active, then records it done', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"'));
    c.run(MIN + 1000);
    const name = `hello-${minutes(T0 + MIN)}`;
    expect(jobNames(c)).toEqual([name]);
    const j = c.api.get('jobs', 'default', name);
    expect(j.metadata.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2026-01-05T06:01:00Z' });
    expect(j.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cronjob(c).metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(cronjob(c).status).toEqual({
      active: [{ kind: 'Job', namespace: 'default', name, uid: j.metadata.uid, apiVersion: 'batch/v1', resourceVersion: expect.any(String) }],
      lastScheduleTime: '2026-01-05T06:01:00Z',
    });
    c.run(30_000);
    expect(cronjob(c).status).toEqual({ lastScheduleTime: '2026-01-05T06:01:00Z', lastSuccessfulTime: c.api.get('jobs', 'default', name).status.completionTime });
    expect(cjEvents(c).map((e) => `${e.reason} ${e.message}`)).toEqual([`SuccessfulCreate Created job ${name}`, `SawCompletedJob Saw completed job: ${name}, status: Complete`]);
  });

  it('history limits: keeps 3 successful and 1 failed Job, deleting the oldest (SuccessfulDelete "Deleted job x")', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"'));
    c.apply(CJ('  schedule: "* * * * *"', 'exit 1', 'broken'));
    c.run(6 * MIN + 30_000);
    const ok = liveJobNames(c).filter((n) => n!.startsWith('hello-'));
    const bad = liveJobNames(c).filter((n) => n!.startsWith('broken-'));
    expect(ok).toEqual([4, 5, 6].map((m) => `hello-${minutes(T0) + m}`));
    expect(bad).toEqual([`broken-${minutes(T0) + 6}`]);
    expect(cjEvents(c).filter((e) => e.reason === 'SuccessfulDelete' && e.involvedObject.name === 'hello').map((e) => e.message)).toEqual(
      [1, 2, 3].map((m) => `Deleted job hello-${minutes(T0) + m}`),
    );
  });

  it('concurrencyPolicy Forbid: no new Job while one is active (JobAlreadyActive)', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"\n  concurrencyPolicy: Forbid', 'sleep 3600'));
    c.run(3 * MIN + 1000);
    expect(jobNames(c)).toEqual([`hello-${minutes(T0) + 1}`]);
    expect(cjEvents(c).filter((e) => e.reason === 'JobAlreadyActive').map((e) => e.message)).toEqual([
      'Not starting job because prior execution is running and concurrency policy is Forbid',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    ]);
    expect(cronjob(c).status.active).toHaveLength(1);
  });

  it('concurrencyPolicy Replace: the running Job is deleted and a new one created', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"\n  concurrencyPolicy: Replace', 'sleep 3600'));
    c.run(3 * MIN + 1000);
    expect(liveJobNames(c)).toEqual([`hello-${minutes(T0) + 3}`]);
    expect(cronjob(c).status.active.map((a: KubeObject) => a.name)).toEqual([`hello-${minutes(T0) + 3}`]);
    expect(cjEvents(c).map((e) => e.reason)).toEqual(['SuccessfulCreate', 'SuccessfulDelete', 'SuccessfulCreate', 'SuccessfulDelete', 'SuccessfulCreate']);
  });

  it('concurrencyPolicy Allow (default): Jobs overlap', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"', 'sleep 3600'));
    c.run(3 * MIN + 1000);
    expect(jobNames(c)).toEqual([1, 2, 3].map((m) => `hello-${minutes(T0) + m}`));
    expect(cronjob(c).status.active).toHaveLength(3);
  });

  it('suspend: nothing is scheduled; resuming runs only the most recent missed time', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"\n  suspend: true'));
    c.run(5 * MIN);
    expect(jobNames(c)).toEqual([]);
    c.api.patch('cronjobs', 'default', 'hello', 'merge', { spec: { suspend: false } });
    c.run(1000);
    expect(jobNames(c)).toEqual([`hello-${minutes(T0) + 5}`]);
  });

  it('a controller outage: one Job for the most recent missed time; over 100 missed: TooManyMissedTimes', () => {
    const c = setup();
    c.apply(CJ('  schedule: "* * * * *"'));
    c.run(1000);
    c.stopControllerManager();
    c.run(120 * MIN);
    c.startControllerManager();
    c.run(10_000);
    expect(jobNames(c)).toEqual([`hello-${minutes(T0) + 120}`]);
    expect(cjEvents(c).find((e) => e.reason === 'TooManyMissedTimes')?.message).toBe(
      'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
    );
  });

  it('startingDeadlineSeconds: missed times older than the deadline are not run after an outage', () => {
    const c = setup();
    c.apply(CJ('  schedule: "*/10 * * * *"\n  startingDeadlineSeconds: 60'));
    c.run(1000);
    c.stopControllerManager();
    c.run(12 * MIN);
    c.startControllerManager();
    c.run(30_000);
    // 06:10 was missed by more than 60 s: skipped, no TooManyMissedTimes (the deadline bounds the count).
    expect(jobNames(c)).toEqual([]);
    c.run(8 * MIN);
    expect(jobNames(c)).toEqual([`hello-${minutes(T0) + 20}`]);
    expect(cjEvents(c).some((e) => e.reason === 'TooManyMissedTimes')).toBe(false);
  });

  it('timeZone: the schedule is read in that zone; the annotation carries the local time', () => {
    const c = setup();
    c.apply(CJ('  schedule: "0 9 * * *"\n  timeZone: Europe/Paris'));
    c.run(2 * 60 * MIN + 1000);
    const name = `hello-${minutes(T0 + 2 * 60 * MIN)}`;
    expect(jobNames(c)).toEqual([name]);
    expect(c.api.get('jobs', 'default', name).metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2026-01-05T09:00:00+01:00');
  });

  it('an unknown timeZone is refused by kube-apiserver (validateTimeZone), so no Job ever runs', () => {
    // The controller's UnknownTimeZone warning is only reachable when the API server's tzdata
    // knows a zone the controller-manager's does not; the API itself refuses an unknown zone.
    const c = setup();
    expect(() => c.apply(CJ('  schedule: "* * * * *"\n  timeZone: Mars/Olympus'))).toThrow(
      'CronJob.batch "hello" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
    );
    c.run(2 * MIN);
    expect(jobNames(c)).toEqual([]);
    expect(cjEvents(c)).toEqual([]);
  });

  it('a schedule change re-queues at the new next time', () => {
    const c = setup();
    c.apply(CJ('  schedule: "0 * * * *"'));
    c.run(5 * MIN);
    c.apply(CJ('  schedule: "*/10 * * * *"'));
    c.run(5 * MIN + 1000);
    expect(jobNames(c)).toEqual([`hello-${minutes(T0) + 10}`]);
  });
});
