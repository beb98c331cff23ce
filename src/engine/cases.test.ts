/**
 * Real user problems from ../shared/cases/cases.md that need no node layer, replayed on the
 * test cluster (kube-apiserver, kube-controller-manager, kube-scheduler, fake kubelet) with the
 * manifests and the expected values the cases state.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newTestCluster, type TestCluster } from './testing/cluster';
import { ApiError } from './api/errors';
import type { KubeObject } from './api/types';

const corpus = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/corpus/manifests/${name}`, import.meta.url)), 'utf8');

function running(c: TestCluster, selector: string, ns = 'default'): KubeObject[] {
  return c.pods(ns, selector).filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
}

function events(c: TestCluster, reason: string): string[] {
  return c.api
    .list('events')
    .items.filter((e) => e.reason === reason)
    .map((e) => String(e.message));
}

function applyError(c: TestCluster, yaml: string): ApiError {
  try {
    c.apply(yaml);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('apply succeeded');
}

describe('C01: a Deployment pod comes back after delete; a bare pod does not', () => {
  it('replaces the ReplicaSet pod with the same pod-template-hash and leaves solo NotFound', () => {
    const c = newTestCluster();
    c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "nginx:1.27"}]
---
apiVersion: v1
kind: Pod
metadata: {name: solo, labels: {app: solo}}
spec:
  containers: [{name: nginx, image: "nginx:1.27"}]
`);
    c.run(20_000);
    const before = running(c, 'app=web');
    expect(before).toHaveLength(2);
    const victim = before[0].metadata.name!;
    const hash = before[0].metadata.labels!['pod-template-hash'];
    c.api.delete('pods', 'default', victim);
    c.api.delete('pods', 'default', 'solo');
    c.run(35_000);
    const after = running(c, 'app=web');
    expect(after).toHaveLength(2);
    expect(after.map((p) => p.metadata.name)).not.toContain(victim);
    expect(after.every((p) => p.metadata.labels!['pod-template-hash'] === hash)).toBe(true);
    expect(events(c, 'SuccessfulCreate').some((m) => /^Created pod: web-[a-z0-9]+-[a-z0-9]{5}$/.test(m))).toBe(true);
    expect(c.api.tryGet('pods', 'default', 'solo')).toBeUndefined();
  });
});

describe('C03: Pending with Insufficient cpu, counting the tainted control plane', () => {
  it('runs 2 pods, leaves 1 Pending with the exact FailedScheduling message', () => {
    const c = newTestCluster();
    c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: hungry}
spec:
  replicas: 3
  selector: {matchLabels: {app: hungry}}
  template:
    metadata: {labels: {app: hungry}}
    spec:
      containers:
      - name: app
        image: "nginx:1.27"
        resources: {requests: {cpu: "1500m"}}
`);
    c.run(30_000);
    const pods = c.pods('default', 'app=hungry');
    expect(pods.filter((p) => p.status.phase === 'Running')).toHaveLength(2);
    const pending = pods.filter((p) => p.status.phase === 'Pending');
    expect(pending).toHaveLength(1);
    const cond = pending[0].status.conditions.find((x: { type: string }) => x.type === 'PodScheduled');
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(events(c, 'FailedScheduling')).toContain(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });
});

describe('C04: a nodeSelector aimed at the control plane needs a toleration too', () => {
  it('is Pending for both reasons, then the toleration update lands it on cp-1', () => {
    const c = newTestCluster();
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: on-cp}
spec:
  nodeSelector: {node-role.kubernetes.io/control-plane: ""}
  containers: [{name: c, image: "busybox:1.36", command: ["sleep", "3600"]}]
`;
    c.apply(pod);
    c.run(20_000);
    expect(events(c, 'FailedScheduling')).toContain(
      "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    expect(c.apply(pod.replace('  containers:', '  tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]\n  containers:'))).toEqual([
      'pod/on-cp configured',
    ]);
    c.run(20_000);
    const p = c.api.get('pods', 'default', 'on-cp');
    expect(p.spec.nodeName).toBe('cp-1');
    // DefaultTolerationSeconds put the two defaults back next to the new toleration.
    expect(p.spec.tolerations.map((t: { key: string }) => t.key)).toEqual([
      'node-role.kubernetes.io/control-plane',
      'node.kubernetes.io/not-ready',
      'node.kubernetes.io/unreachable',
    ]);
  });
});

describe('C14: a Deployment whose selector does not match its template labels is rejected', () => {
  const bad = `apiVersion: apps/v1
kind: Deployment
metadata: {name: bad-labels}
spec:
  replicas: 1
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "nginx:1.27"}]
`;
  it('refuses it with the API server message and creates nothing', () => {
    const c = newTestCluster();
    const e = applyError(c, bad);
    expect(e.kubectlMessage()).toContain('`selector` does not match template `labels`');
    expect(e.kubectlMessage()).toBe(
      'The Deployment "bad-labels" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    );
    expect(c.api.tryGet('deployments', 'default', 'bad-labels')).toBeUndefined();
  });

  it('without a selector: spec.selector: Required value', () => {
    const c = newTestCluster();
    const e = applyError(c, bad.replace('  selector: {matchLabels: {app: nginx}}\n', ''));
    expect(e.kubectlMessage()).toContain('spec.selector: Required value');
  });
});

describe('C16: kubectl apply undoes a manual kubectl scale', () => {
  it('puts replicas back to the file value and rolls out the new image', () => {
    const c = newTestCluster();
    const file = corpus('website__controllers-nginx-deployment.yaml');
    c.apply(file);
    c.run(20_000);
    c.api.updateScale('deployments', 'default', 'nginx-deployment', 5);
    c.run(20_000);
    expect(running(c, 'app.kubernetes.io/name=nginx')).toHaveLength(5);
    c.apply(file.replace('nginx:1.14.2', 'nginx:1.16.1'));
    c.run(60_000);
    const d = c.api.get('deployments', 'default', 'nginx-deployment');
    expect(d.spec.replicas).toBe(3);
    const pods = running(c, 'app.kubernetes.io/name=nginx');
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.spec.containers[0].image === 'nginx:1.16.1')).toBe(true);
    expect(events(c, 'ScalingReplicaSet').length).toBeGreaterThan(0);
    // Variant: removing `replicas:` from the file drops the Deployment to the default of 1.
    c.apply(file.replace('nginx:1.14.2', 'nginx:1.16.1').replace('  replicas: 3\n', ''));
    expect(c.api.get('deployments', 'default', 'nginx-deployment').spec.replicas).toBe(1);
  });
});

describe('C19: a Job hits its backoffLimit', () => {
  const job = (policy: string) => `apiVersion: batch/v1
kind: Job
metadata: {name: fail-job}
spec:
  backoffLimit: 2
  template:
    spec:
      restartPolicy: ${policy}
      containers: [{name: c, image: "busybox:1.36", command: ["sh", "-c", "exit 1"]}]
`;
  it('Never: 3 failed pods remain and the Job is Failed with BackoffLimitExceeded', () => {
    const c = newTestCluster();
    c.apply(job('Never'));
    c.run(120_000);
    const j = c.api.get('jobs', 'default', 'fail-job');
    expect(j.status.failed).toBe(3);
    expect(j.status.conditions.find((x: { type: string }) => x.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(c.pods('default', 'job-name=fail-job').filter((p) => p.status.phase === 'Failed')).toHaveLength(3);
    expect(events(c, 'BackoffLimitExceeded')).toHaveLength(1);
  });

  it('OnFailure: the pod is deleted when the limit is hit', () => {
    const c = newTestCluster();
    c.apply(job('OnFailure'));
    c.run(120_000);
    const j = c.api.get('jobs', 'default', 'fail-job');
    expect(j.status.conditions.find((x: { type: string }) => x.type === 'Failed')?.reason).toBe('BackoffLimitExceeded');
    c.run(60_000);
    expect(c.pods('default', 'job-name=fail-job')).toHaveLength(0);
  });
});

describe('C20: a rollout stuck on a bad image reaches ProgressDeadlineExceeded', () => {
  it('keeps the 3 old pods, 1 new pod not Ready, and reports the deadline', () => {
    const c = newTestCluster();
    c.apply(corpus('website__controllers-nginx-deployment.yaml').replace('spec:\n  replicas: 3', 'spec:\n  progressDeadlineSeconds: 60\n  replicas: 3'));
    c.run(30_000);
    c.api.patch('deployments', 'default', 'nginx-deployment', 'strategic', {
      spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:does-not-exist' }] } } },
    });
    c.run(90_000);
    const d = c.api.get('deployments', 'default', 'nginx-deployment');
    const progressing = d.status.conditions.find((x: { type: string }) => x.type === 'Progressing');
    expect(progressing.status).toBe('False');
    expect(progressing.reason).toBe('ProgressDeadlineExceeded');
    expect(progressing.message).toMatch(/^ReplicaSet "nginx-deployment-[a-z0-9]+" has timed out progressing\.$/);
    const pods = c.pods('default', 'app.kubernetes.io/name=nginx').filter((p) => !p.metadata.deletionTimestamp);
    expect(pods.filter((p) => p.spec.containers[0].image === 'nginx:1.14.2' && p.status.phase === 'Running')).toHaveLength(3);
    const fresh = pods.filter((p) => p.spec.containers[0].image === 'nginx:does-not-exist');
    expect(fresh).toHaveLength(1);
    expect(fresh[0].status.conditions.find((x: { type: string }) => x.type === 'Ready')?.status).not.toBe('True');
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:does-not-exist');
  });
});

describe('C24: kube-scheduler is down: new pods stay Pending with no events at all', () => {
  it('schedules them once a new scheduler process starts', () => {
    const c = newTestCluster();
    c.run(5_000);
    c.stopScheduler();
    c.apply(`apiVersion: v1
kind: Pod
metadata: {name: waiting}
spec:
  containers: [{name: c, image: "nginx:1.27"}]
`);
    c.run(120_000);
    const p = c.api.get('pods', 'default', 'waiting');
    expect(p.status.phase).toBe('Pending');
    expect(p.spec.nodeName).toBeUndefined();
    expect(c.api.list('events', { fieldSelector: 'involvedObject.name=waiting' }).items).toHaveLength(0);
    c.startScheduler();
    c.run(30_000);
    expect(c.api.get('pods', 'default', 'waiting').spec.nodeName).toMatch(/^worker-[12]$/);
  });
});

describe('C27: a missing ServiceAccount: the ReplicaSet cannot create pods (FailedCreate)', () => {
  it('records FailedCreate, then creates the pod after the ServiceAccount appears', () => {
    const c = newTestCluster();
    c.apply(corpus('prometheus-operator__rbac-prometheus-operator-deployment.yaml'));
    c.run(60_000);
    expect(c.pods('default', 'app.kubernetes.io/name=prometheus-operator')).toHaveLength(0);
    expect(events(c, 'FailedCreate').some((m) => m.includes('serviceaccount "prometheus-operator" not found'))).toBe(true);
    const rs = c.api.list('replicasets', { labelSelector: 'app.kubernetes.io/name=prometheus-operator' }).items[0];
    expect(rs.status.conditions?.find((x: { type: string }) => x.type === 'ReplicaFailure')?.reason).toBe('FailedCreate');
    c.apply(corpus('prometheus-operator__rbac-prometheus-operator-service-account.yaml'));
    c.run(180_000);
    const pods = running(c, 'app.kubernetes.io/name=prometheus-operator');
    expect(pods).toHaveLength(1);
    expect(pods[0].spec.nodeName).toMatch(/^worker-[12]$/);
  });
});

describe('the catch-up lesson (DESIGN.md principle 1)', () => {
  it('a pod deleted while kube-controller-manager is down stays gone until it returns', () => {
    const c = newTestCluster();
    c.apply(`apiVersion: apps/v1
kind: Deployment
metadata: {name: catalog}
spec:
  replicas: 2
  selector: {matchLabels: {app: catalog}}
  template:
    metadata: {labels: {app: catalog}}
    spec:
      containers: [{name: catalog, image: "nginx:1.27"}]
`);
    c.run(20_000);
    c.stopControllerManager();
    const victim = running(c, 'app=catalog')[0].metadata.name!;
    c.api.delete('pods', 'default', victim);
    c.run(5 * 60_000);
    expect(c.pods('default', 'app=catalog').filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1);
    c.startControllerManager();
    c.run(30_000);
    expect(running(c, 'app=catalog')).toHaveLength(2);
  });
});
