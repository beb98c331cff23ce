/**
 * job-controller and ttl-after-finished-controller, checked against documented Kubernetes
 * behaviour: https://kubernetes.io/docs/concepts/workloads/controllers/job/ ("Pod backoff failure
 * policy", "Job termination and cleanup", "Completion mode", "Job tracking with finalizers",
 * "Termination of Job pods", "Suspending a Job"), https://kubernetes.io/docs/concepts/workloads/controllers/ttlafterfinished/,
 * pkg/controller/job/job_controller.go (messages, MaxJobPodFailureBackOff), reference 1.3 / 8.3,
 * cases.md C19.
 *
 * The fake kubelet runs a container whose command contains `exit N` for `runMs` (2 s) and the
 * `perl` image to success. The scheduler is written separately: `scheduler: false` plus the
 * test-local `TestBinder`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { parseRfc3339 } from '../clock';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { TestBinder } from '../testing/testbinder';
import { ControllerProcess } from './manager';
import { newTTLAfterFinishedController } from './ttlafterfinished';

const PI = readFileSync(new URL('../../../fixtures/corpus/manifests/website__controllers-job-pi.yaml', import.meta.url), 'utf8');

const JOB = (spec: string, command = 'exit 1', restartPolicy = 'Never', name = 'fail-job') => `
apiVersion: batch/v1
kind: Job
metadata: {name: ${name}}
spec:
${spec}
  template:
    spec:
      restartPolicy: ${restartPolicy}
      containers: [{name: c, image: "busybox:1.36", command: ["sh", "-c", "${command}"]}]
`;

function setup(): TestCluster {
  const c = newTestCluster({ controllers: ['job'], scheduler: false });
  new TestBinder({ api: c.api, clock: c.clock }).start();
  return c;
}

const job = (c: TestCluster, name: string) => c.api.get('jobs', 'default', name);
const jobPods = (c: TestCluster, name: string) => c.pods('default', `batch.kubernetes.io/job-name=${name}`);
const jobEvents = (c: TestCluster) => c.events.filter((e) => e.component === 'job-controller');
const condTypes = (j: KubeObject) => (j.status?.conditions ?? []).map((x: { type: string; status: string }) => `${x.type}=${x.status}`);

describe('job-controller: completion', () => {
  it('the perl pi Job completes: SuccessCriteriaMet then Complete (CompletionsReached), completionTime, Event "Job completed"', () => {
    const c = setup();
    c.apply(PI);
    c.run(30_000);
    const j = job(c, 'pi');
    expect(condTypes(j)).toEqual(['SuccessCriteriaMet=True', 'Complete=True']);
    for (const cond of j.status.conditions) {
      expect(cond).toMatchObject({ reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
    }
    expect(j.status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect(j.status.active).toBeUndefined();
    expect(j.status.failed).toBeUndefined();
    expect(parseRfc3339(j.status.completionTime)).toBeGreaterThan(parseRfc3339(j.status.startTime));
    const pods = jobPods(c, 'pi');
    expect(pods).toHaveLength(1);
    expect(pods[0].metadata.name).toMatch(/^pi-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pods[0].status.phase).toBe('Succeeded');
    expect(pods[0].metadata.finalizers ?? []).toEqual([]);
    expect(pods[0].metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: j.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(jobEvents(c).map((e) => `${e.type} ${e.reason} ${e.message}`)).toEqual([
      `Normal SuccessfulCreate Created pod: ${pods[0].metadata.name}`,
      'Normal Completed Job completed',
    ]);
  });

  it('while running: the pod carries the job-tracking finalizer; status active 1, ready 1', () => {
    const c = setup();
    c.apply(JOB('', 'sleep 3600', 'Never', 'long'));
    c.run(5000);
    const [p] = jobPods(c, 'long');
    expect(p.metadata.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(job(c, 'long').status).toMatchObject({ active: 1, ready: 1, terminating: 0, uncountedTerminatedPods: {} });
  });

  it('completions 5, parallelism 2: never more than 2 active, 5 succeeded', () => {
    const c = setup();
    c.apply(JOB('  completions: 5\n  parallelism: 2', 'exit 0', 'Never', 'five'));
    let maxActive = 0;
    for (let t = 0; t < 60_000; t += 250) {
      c.run(250);
      maxActive = Math.max(maxActive, jobPods(c, 'five').filter((p) => p.status.phase === 'Pending' || p.status.phase === 'Running').length);
    }
    expect(maxActive).toBe(2);
    expect(jobPods(c, 'five')).toHaveLength(5);
    expect(job(c, 'five').status).toMatchObject({ succeeded: 5 });
    expect(condTypes(job(c, 'five'))).toEqual(['SuccessCriteriaMet=True', 'Complete=True']);
  });

  it('Indexed: pods <job>-<index>-<5>, index annotation, label, hostname and env; completedIndexes "0-2"', () => {
    const c = setup();
    c.apply(JOB('  completions: 3\n  parallelism: 3\n  completionMode: Indexed', 'exit 0', 'Never', 'idx'));
    c.run(30_000);
    const pods = jobPods(c, 'idx').sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
    expect(pods.map((p) => p.metadata.name!.replace(/[bcdfghjklmnpqrstvwxz2456789]{5}$/, '*'))).toEqual(['idx-0-*', 'idx-1-*', 'idx-2-*']);
    for (const [i, p] of pods.entries()) {
      expect(p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']).toBe(String(i));
      expect(p.metadata.labels?.['batch.kubernetes.io/job-completion-index']).toBe(String(i));
      expect(p.spec.hostname).toBe(`idx-${i}`);
      expect(p.spec.containers[0].env).toEqual([
        { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } },
      ]);
    }
    expect(job(c, 'idx').status).toMatchObject({ succeeded: 3, completedIndexes: '0-2' });
  });
});

describe('job-controller: failure', () => {
  it('cases.md C19: backoffLimit 2, restartPolicy Never: 3 pods ~10 s then ~20 s apart, FailureTarget then Failed (BackoffLimitExceeded)', () => {
    const c = setup();
    c.apply(JOB('  backoffLimit: 2'));
    c.run(120_000);
    const j = job(c, 'fail-job');
    // expected: job.status.failed == 3, Failed condition with reason "BackoffLimitExceeded"; 3 Failed pods remain.
    expect(j.status.failed).toBe(3);
    expect(j.status.succeeded).toBeUndefined();
    expect(condTypes(j)).toEqual(['FailureTarget=True', 'Failed=True']);
    for (const cond of j.status.conditions) expect(cond).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    const pods = jobPods(c, 'fail-job').sort((a, b) => parseRfc3339(a.metadata.creationTimestamp!) - parseRfc3339(b.metadata.creationTimestamp!));
    expect(pods.map((p) => p.status.phase)).toEqual(['Failed', 'Failed', 'Failed']);
    expect(pods.every((p) => (p.metadata.finalizers ?? []).length === 0)).toBe(true);
    // Gaps between creations: the failure (2 s run + 1 s start) plus the backoff, 10 s then 20 s.
    const created = pods.map((p) => parseRfc3339(p.metadata.creationTimestamp!) / 1000);
    const finished = pods.map((p) => parseRfc3339(p.status.containerStatuses[0].state.terminated.finishedAt) / 1000);
    expect(created[1] - finished[0]).toBeGreaterThanOrEqual(10);
    expect(created[1] - finished[0]).toBeLessThanOrEqual(12);
    expect(created[2] - finished[1]).toBeGreaterThanOrEqual(20);
    expect(created[2] - finished[1]).toBeLessThanOrEqual(22);
    const warnings = jobEvents(c).filter((e) => e.type === 'Warning');
    expect(warnings.map((e) => `${e.reason} ${e.message}`)).toEqual(['BackoffLimitExceeded Job has reached the specified backoff limit']);
  });

  it('cases.md C19 variant: restartPolicy OnFailure: the restarts count, the pod is deleted when the limit is hit, 0 pods remain', () => {
    const c = setup();
    c.apply(JOB('  backoffLimit: 2', 'exit 1', 'OnFailure'));
    c.run(120_000);
    const j = job(c, 'fail-job');
    expect(condTypes(j)).toEqual(['FailureTarget=True', 'Failed=True']);
    expect(j.status.conditions[1].reason).toBe('BackoffLimitExceeded');
    expect(jobPods(c, 'fail-job')).toHaveLength(0);
    expect(jobEvents(c).map((e) => e.reason)).toEqual(['SuccessfulCreate', 'SuccessfulDelete', 'BackoffLimitExceeded']);
  });

  it('default backoffLimit 6: 7 pods in all, the backoff doubling 10, 20, 40, 80, 160, 320 s', () => {
    const c = setup();
    c.apply(JOB(''));
    c.run(20 * 60_000);
    const j = job(c, 'fail-job');
    expect(j.status.failed).toBe(7);
    expect(jobPods(c, 'fail-job')).toHaveLength(7);
    const pods = jobPods(c, 'fail-job').sort((a, b) => parseRfc3339(a.metadata.creationTimestamp!) - parseRfc3339(b.metadata.creationTimestamp!));
    const gaps = pods.slice(1).map((p, i) => (parseRfc3339(p.metadata.creationTimestamp!) - parseRfc3339(pods[i].status.containerStatuses[0].state.terminated.finishedAt)) / 1000);
    expect(gaps.map((g, i) => g >= [10, 20, 40, 80, 160, 320][i] && g <= [10, 20, 40, 80, 160, 320][i] + 2)).toEqual([true, true, true, true, true, true]);
  });

  it('activeDeadlineSeconds: the running pod is deleted and the Job fails with DeadlineExceeded', () => {
    const c = setup();
    c.apply(JOB('  activeDeadlineSeconds: 10', 'sleep 3600', 'Never', 'slow'));
    c.run(30_000);
    const j = job(c, 'slow');
    expect(condTypes(j)).toEqual(['FailureTarget=True', 'Failed=True']);
    expect(j.status.conditions[1]).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(parseRfc3339(j.status.conditions[0].lastTransitionTime) - parseRfc3339(j.status.startTime)).toBe(10_000);
    expect(jobPods(c, 'slow')).toHaveLength(0);
    expect(j.status.failed).toBe(1);
    expect(jobEvents(c).filter((e) => e.type === 'Warning').map((e) => `${e.reason} ${e.message}`)).toEqual(['DeadlineExceeded Job was active longer than specified deadline']);
  });

  it('a controller-manager restart mid-run neither loses nor double-counts a pod (finalizer tracking)', () => {
    const c = setup();
    c.apply(JOB('  completions: 4\n  parallelism: 2', 'exit 0', 'Never', 'steady'));
    c.run(3500);
    c.stopControllerManager();
    c.run(10_000);
    c.startControllerManager();
    c.run(60_000);
    expect(job(c, 'steady').status).toMatchObject({ succeeded: 4 });
    expect(jobPods(c, 'steady')).toHaveLength(4);
    expect(condTypes(job(c, 'steady'))).toEqual(['SuccessCriteriaMet=True', 'Complete=True']);
  });
});

describe('job-controller: suspend and TTL', () => {
  it('suspend: no pods and a Suspended condition; resuming creates them and resets startTime', () => {
    const c = setup();
    c.apply(JOB('  suspend: true', 'exit 0', 'Never', 'later'));
    c.run(10_000);
    expect(jobPods(c, 'later')).toHaveLength(0);
    expect(job(c, 'later').status.startTime).toBeUndefined();
    expect(job(c, 'later').status.conditions).toEqual([expect.objectContaining({ type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' })]);
    c.api.patch('jobs', 'default', 'later', 'merge', { spec: { suspend: false } });
    c.run(20_000);
    const j = job(c, 'later');
    expect(condTypes(j)).toEqual(['Suspended=False', 'SuccessCriteriaMet=True', 'Complete=True']);
    expect(j.status.conditions[0]).toMatchObject({ reason: 'JobResumed', message: 'Job resumed' });
    // syncJob runs manageJob (creating the pod) before it records the resume.
    expect(jobEvents(c).map((e) => e.reason)).toEqual(['Suspended', 'SuccessfulCreate', 'Resumed', 'Completed']);
  });

  it('ttlSecondsAfterFinished: the ttl-after-finished controller deletes the Job (Foreground) that many seconds after it finished', () => {
    const c = setup();
    const ttl = new ControllerProcess('ttl-test', [newTTLAfterFinishedController], { api: c.api, clock: c.clock, rng: c.rng, leaderElect: false, trace: c.trace.add });
    ttl.start();
    c.apply(JOB('  ttlSecondsAfterFinished: 30', 'exit 0', 'Never', 'short'));
    c.run(10_000);
    const finishedAt = parseRfc3339(job(c, 'short').status.completionTime);
    const deadline = finishedAt - c.clock.epochMs + 30_000;
    c.run(deadline - c.clock.now() - 500);
    expect(job(c, 'short').metadata.deletionTimestamp).toBeUndefined();
    c.run(1000);
    // Without the garbage collector the Job waits on its foregroundDeletion finalizer.
    const j = c.api.tryGet('jobs', 'default', 'short');
    expect(j === undefined || (j.metadata.deletionTimestamp !== undefined && j.metadata.finalizers?.includes('foregroundDeletion'))).toBe(true);
    ttl.stop();
  });
});
