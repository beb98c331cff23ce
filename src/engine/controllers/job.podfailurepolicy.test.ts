/**
 * job-controller with `spec.podFailurePolicy`, checked against
 * https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-failure-policy ("Handling Pod
 * and container failures"), https://kubernetes.io/docs/tasks/job/pod-failure-policy/, the corpus
 * row 6 (fixtures/corpus/manifests/INDEX.md) and pkg/controller/job/pod_failure_policy.go +
 * job_controller.go (`getFailJobMessage`, `nonIgnoredFailedPodsCount`, messages).
 *
 * The fake kubelet runs a container whose command contains `exit N` for 2 s (testing/fakekubelet.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { TestBinder } from '../testing/testbinder';
import { matchPodFailurePolicy } from './podfailurepolicy';

const EXAMPLE = readFileSync(new URL('../../../fixtures/corpus/manifests/website__controllers-job-pod-failure-policy-example.yaml', import.meta.url), 'utf8');

function setup(): TestCluster {
  const c = newTestCluster({ controllers: ['job'], scheduler: false });
  new TestBinder({ api: c.api, clock: c.clock }).start();
  return c;
}
const job = (c: TestCluster, name: string) => c.api.get('jobs', 'default', name);
const jobPods = (c: TestCluster, name: string) => c.pods('default', `batch.kubernetes.io/job-name=${name}`);
const condTypes = (j: KubeObject): string[] => (j.status?.conditions ?? []).map((x: { type: string; status: string }) => `${x.type}=${x.status}`);

const POLICY_JOB = (rules: string, command: string, extra = '') => `
apiVersion: batch/v1
kind: Job
metadata: {name: pfp}
spec:
  backoffLimit: 0
${extra}
  podFailurePolicy:
    rules:
${rules}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: "busybox:1.36", command: ["sh", "-c", "${command}"]}]
`;

describe('podFailurePolicy: the corpus example (row 6)', () => {
  it('exit 42 matches the FailJob rule: FailureTarget then Failed, reason PodFailurePolicy, the container/pod message, no retries', () => {
    const c = setup();
    c.apply(EXAMPLE);
    c.run(60_000);
    const j = job(c, 'job-pod-failure-policy-example');
    expect(condTypes(j)).toEqual(['FailureTarget=True', 'Failed=True']);
    const names = jobPods(c, 'job-pod-failure-policy-example').map((p) => p.metadata.name!);
    // parallelism 3: three pods, never a fourth (backoffLimit 6 is never used).
    expect(names).toHaveLength(3);
    for (const cond of j.status.conditions) {
      expect(cond.reason).toBe('PodFailurePolicy');
      expect(cond.message).toMatch(/^Container main for pod default\/(job-pod-failure-policy-example-[a-z0-9]{5}) failed with exit code 42 matching FailJob rule at index 0$/);
      expect(names).toContain(/default\/(\S+) failed/.exec(cond.message)![1]);
    }
    expect(j.status.succeeded).toBeUndefined();
    expect(j.status.active).toBeUndefined();
    const warnings = c.events.filter((e) => e.component === 'job-controller' && e.type === 'Warning');
    expect(warnings).toHaveLength(1);
    expect(`${warnings[0].reason} ${warnings[0].message}`).toMatch(/^PodFailurePolicy Container main for pod default\/\S+ failed with exit code 42 matching FailJob rule at index 0$/);
  });
});

describe('podFailurePolicy: actions', () => {
  it('FailJob with NotIn: parallelism 2, both pods exit 3 -> the Job fails at once, both counted failed, no replacement', () => {
    const c = setup();
    c.apply(POLICY_JOB('    - {action: FailJob, onExitCodes: {operator: NotIn, values: [0, 1]}}', 'exit 3', '  parallelism: 2\n  completions: 4'));
    c.run(60_000);
    const j = job(c, 'pfp');
    expect(condTypes(j)).toEqual(['FailureTarget=True', 'Failed=True']);
    expect(j.status.conditions[1].message).toMatch(/^Container main for pod default\/pfp-\S+ failed with exit code 3 matching FailJob rule at index 0$/);
    expect(jobPods(c, 'pfp')).toHaveLength(2);
    expect(j.status.failed).toBe(2);
  });

  it('Ignore: an ignored failure does not count toward backoffLimit 0, the pod is replaced and failed stays unset', () => {
    const c = setup();
    c.apply(POLICY_JOB('    - {action: Ignore, onExitCodes: {operator: In, values: [7]}}', 'exit 7'));
    c.run(60_000);
    const j = job(c, 'pfp');
    expect(condTypes(j).filter((t) => t.startsWith('Failed') || t.startsWith('FailureTarget'))).toEqual([]);
    expect(j.status.failed).toBeUndefined();
    // Replaced again and again (with the pod-failure backoff 10 s, 20 s, ...).
    expect(jobPods(c, 'pfp').length).toBeGreaterThanOrEqual(3);
    expect(jobPods(c, 'pfp').filter((p) => p.status?.phase === 'Failed').every((p) => (p.metadata.finalizers ?? []).length === 0)).toBe(true);
  });

  it('Count (and no matching rule): counted as usual, backoffLimit 0 fails the Job with BackoffLimitExceeded', () => {
    const c = setup();
    c.apply(POLICY_JOB('    - {action: Ignore, onExitCodes: {operator: In, values: [7]}}\n    - {action: Count, onExitCodes: {operator: In, values: [1]}}', 'exit 1'));
    c.run(60_000);
    const j = job(c, 'pfp');
    expect(condTypes(j)).toEqual(['FailureTarget=True', 'Failed=True']);
    expect(j.status.conditions[1]).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(j.status.failed).toBe(1);
    expect(jobPods(c, 'pfp')).toHaveLength(1);
  });

  it('restartPolicy OnFailure with a podFailurePolicy is rejected by the API server', () => {
    const c = setup();
    const manifest = POLICY_JOB('    - {action: Ignore, onExitCodes: {operator: In, values: [7]}}', 'exit 7').replace('restartPolicy: Never', 'restartPolicy: OnFailure');
    expect(() => c.apply(manifest)).toThrow(/spec\.template\.spec\.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified/);
  });

  it('rule validation: unknown action, containerName not in the template, 0 with In, both or neither matcher', () => {
    const c = setup();
    const err = (rules: string) => {
      try {
        c.apply(POLICY_JOB(rules, 'exit 1'));
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    };
    expect(err('    - {action: Retry, onExitCodes: {operator: In, values: [1]}}')).toContain(
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
    );
    expect(err('    - {action: FailJob, onExitCodes: {containerName: app, operator: In, values: [1]}}')).toContain(
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "app": must be one of the container or initContainer names in the pod template',
    );
    expect(err('    - {action: FailJob, onExitCodes: {operator: In, values: [0, 1]}}')).toContain('spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator');
    expect(err('    - {action: FailJob, onExitCodes: {operator: NotIn, values: [3, 1]}}')).toContain('spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,1]: must be ordered');
    expect(err('    - {action: Ignore}')).toContain('spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required');
    expect(err('    - {action: FailIndex, onExitCodes: {operator: In, values: [1]}}')).toContain('spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set');
  });

  it('podReplacementPolicy defaults to Failed with a podFailurePolicy', () => {
    const c = setup();
    c.apply(POLICY_JOB('    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}', 'exit 7'));
    const j = job(c, 'pfp');
    expect(j.spec.podReplacementPolicy).toBe('Failed');
    expect(j.spec.podFailurePolicy.rules[0].onPodConditions).toEqual([{ type: 'DisruptionTarget', status: 'True' }]);
  });
});

describe('matchPodFailurePolicy (pod_failure_policy.go)', () => {
  const pod = (status: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p-1', namespace: 'ns' }, status });
  const term = (name: string, exitCode: number) => ({ name, state: { terminated: { exitCode } } });

  it('onPodConditions: DisruptionTarget=True with FailJob gives the condition message; with Ignore it is not counted', () => {
    const p = pod({ phase: 'Failed', conditions: [{ type: 'Ready', status: 'False' }, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }] });
    expect(matchPodFailurePolicy({ rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] }, p)).toEqual({
      failJobMessage: 'Pod ns/p-1 has condition DisruptionTarget matching FailJob rule at index 0',
      countFailed: true,
      action: 'FailJob',
    });
    expect(matchPodFailurePolicy({ rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] }, p)).toEqual({ countFailed: false, action: 'Ignore' });
  });

  it('onExitCodes: containerName restricts the match, exit code 0 never matches, init containers are checked after containers', () => {
    const p = pod({ phase: 'Failed', initContainerStatuses: [term('init', 5)], containerStatuses: [term('main', 0), term('side', 5)] });
    const rule = (containerName?: string) => ({ rules: [{ action: 'FailJob', onExitCodes: { containerName, operator: 'In', values: [0, 5] } }] });
    expect(matchPodFailurePolicy(rule('main'), p)).toEqual({ countFailed: true });
    expect(matchPodFailurePolicy(rule(), p).failJobMessage).toBe('Container side for pod ns/p-1 failed with exit code 5 matching FailJob rule at index 0');
    expect(matchPodFailurePolicy(rule('init'), p).failJobMessage).toBe('Container init for pod ns/p-1 failed with exit code 5 matching FailJob rule at index 0');
  });

  it('the first matching rule wins; its index is in the message', () => {
    const p = pod({ phase: 'Failed', containerStatuses: [term('main', 42)] });
    const policy = { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }, { action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [1] } }] };
    expect(matchPodFailurePolicy(policy, p).failJobMessage).toBe('Container main for pod ns/p-1 failed with exit code 42 matching FailJob rule at index 1');
  });
});
