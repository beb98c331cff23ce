/**
 * deployment-controller (with replicaset-controller), from documented behaviour: reference
 * k8s-semantics.md sections 1.2 and 3 (pkg/controller/deployment/{sync,rolling,recreate,
 * progress}.go, util/deployment_util.go), the Deployment concept page, and cases.md C01, C20, C27.
 *
 * The test cluster runs kube-scheduler (pods go to worker-1/worker-2) and the fake kubelet:
 * bound pods are Running/Ready 1 s later (or stuck in ErrImagePull for an image named
 * `nonexistent` / `does-not-exist`) and graceful deletions are confirmed 1 s after they start.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';
import { isPodReady } from './util';

function cluster(): TestCluster {
  return newTestCluster({ controllers: ['replicaset', 'deployment'] });
}

interface DeployOpts {
  name?: string;
  replicas?: number;
  image?: string;
  strategy?: string;
  extraSpec?: string;
  podSpec?: string;
}

function deployYaml(o: DeployOpts = {}): string {
  const name = o.name ?? 'web';
  return `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${o.replicas ?? 2}
  selector: {matchLabels: {app: ${name}}}
${o.strategy ?? ''}
${o.extraSpec ?? ''}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
${o.podSpec ?? ''}
      containers: [{name: nginx, image: "${o.image ?? 'nginx:1.27'}"}]
`;
}

const deployment = (c: TestCluster, name = 'web') => c.api.get('deployments', 'default', name);
const replicaSets = (c: TestCluster) => c.api.list('replicasets', { namespace: 'default' }).items;
const rsOf = (c: TestCluster, image: string) => replicaSets(c).find((r) => r.spec.template.spec.containers[0].image === image)!;
const active = (pods: KubeObject[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const condition = (obj: KubeObject, type: string) => (obj.status?.conditions ?? []).find((x: { type: string }) => x.type === type);
const scalingEvents = (c: TestCluster) => c.events.filter((e) => e.reason === 'ScalingReplicaSet').map((e) => e.message);

function setImage(c: TestCluster, image: string, name = 'web'): void {
  const d = deployment(c, name);
  d.spec.template.spec.containers[0].image = image;
  c.api.update(d);
}

/** Advance `ms`, calling `check` after every clock event. */
function runChecked(c: TestCluster, ms: number, check: () => void): void {
  const end = c.clock.now() + ms;
  while ((c.clock.peekTime() ?? Infinity) <= end) {
    c.clock.step();
    check();
  }
  c.clock.runUntil(end);
}

describe('deployment-controller', () => {
  it('creates ReplicaSet <name>-<pod-template-hash> with the hash in selector, labels and template, and reaches the complete status (1.2, 3.5-3.7)', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 2 }));
    c.run(20_000);
    const [rs] = replicaSets(c);
    const hash = rs.metadata.labels![`pod-template-hash`];
    expect(hash).toMatch(/^[456789bcdf]{6,10}$/);
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.spec.selector).toEqual({ matchLabels: { app: 'web', 'pod-template-hash': hash } });
    expect(rs.spec.template.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata.annotations).toEqual({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '2',
      'deployment.kubernetes.io/max-replicas': '3',
    });
    const d = deployment(c);
    expect(rs.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(d.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 });
    expect(d.status.unavailableReplicas).toBeUndefined();
    expect(d.status.conditions.map((x: { type: string }) => x.type)).toEqual(['Available', 'Progressing']);
    expect(condition(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' });
    expect(condition(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "web-${hash}" has successfully progressed.` });
    expect(scalingEvents(c)).toEqual([`Scaled up replica set web-${hash} from 0 to 2`]);
    for (const p of c.pods()) expect(p.metadata.labels!['pod-template-hash']).toBe(hash);
  });

  it("C01: a Deployment's deleted pod comes back with the same pod-template-hash; a bare pod does not", () => {
    const c = cluster();
    c.apply(
      deployYaml({ replicas: 2 }) +
        `---
apiVersion: v1
kind: Pod
metadata: {name: solo, labels: {app: solo}}
spec:
  containers: [{name: nginx, image: "nginx:1.27"}]
`,
    );
    c.run(20_000);
    const before = c.pods('default', 'app=web');
    const hash = before[0].metadata.labels!['pod-template-hash'];
    const victim = before[0].metadata.name!;
    c.api.delete('pods', 'default', victim);
    c.api.delete('pods', 'default', 'solo');
    c.run(500);
    // The replacement exists while the old pod is still Terminating.
    const during = c.pods('default', 'app=web');
    expect(during).toHaveLength(3);
    expect(during.find((p) => p.metadata.name === victim)?.metadata.deletionTimestamp).toBeTruthy();
    c.run(35_000);
    const after = c.pods('default', 'app=web');
    expect(after).toHaveLength(2);
    expect(after.every((p) => p.status.phase === 'Running' && p.metadata.labels!['pod-template-hash'] === hash)).toBe(true);
    const replacement = after.find((p) => !before.some((b) => b.metadata.name === p.metadata.name))!;
    expect(replacement.metadata.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    expect(c.events.filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message)).toContain(`Created pod: ${replacement.metadata.name}`);
    expect(c.api.tryGet('pods', 'default', 'solo')).toBeUndefined();
  });

  it('scales the ReplicaSet with spec.replicas: "Scaled up/down replica set X from A to B"', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 2 }));
    c.run(20_000);
    const name = replicaSets(c)[0].metadata.name;
    c.api.updateScale('deployments', 'default', 'web', 4);
    c.run(10_000);
    expect(active(c.pods())).toHaveLength(4);
    c.api.updateScale('deployments', 'default', 'web', 1);
    c.run(10_000);
    expect(c.pods()).toHaveLength(1);
    expect(scalingEvents(c)).toEqual([`Scaled up replica set ${name} from 0 to 2`, `Scaled up replica set ${name} from 2 to 4`, `Scaled down replica set ${name} from 4 to 1`]);
    const rs = replicaSets(c)[0];
    expect(rs.metadata.annotations!['deployment.kubernetes.io/desired-replicas']).toBe('1');
    expect(rs.metadata.annotations!['deployment.kubernetes.io/max-replicas']).toBe('2');
    expect(deployment(c).status).toMatchObject({ replicas: 1, updatedReplicas: 1, availableReplicas: 1 });
  });

  for (const [label, replicas, strategy, maxSurge, maxUnavailable] of [
    ['maxSurge 1 / maxUnavailable 1 of 4', 4, '  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}', 1, 1],
    ['the 25%/25% defaults of 3 (surge rounds up to 1, unavailable down to 0)', 3, '', 1, 0],
    ['maxSurge 0% / maxUnavailable 10% of 2 (both round to 0: unavailable becomes 1)', 2, '  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: "0%", maxUnavailable: "10%"}}', 0, 1],
  ] as const) {
    it(`rolling update nginx:1.27 -> nginx:1.28 with ${label} stays within the fenceposts at every step (3.2, 3.3)`, () => {
      const c = cluster();
      c.apply(deployYaml({ replicas, strategy }));
      c.run(20_000);
      const oldRs = replicaSets(c)[0];
      setImage(c, 'nginx:1.28');
      let maxActive = 0;
      let minAvailable = Infinity;
      runChecked(c, 60_000, () => {
        const pods = active(c.pods());
        maxActive = Math.max(maxActive, pods.length);
        minAvailable = Math.min(minAvailable, pods.filter((p) => p.status.phase === 'Running' && isPodReady(p)).length);
        const specSum = replicaSets(c).reduce((n, r) => n + r.spec.replicas, 0);
        expect(specSum).toBeLessThanOrEqual(replicas + maxSurge);
      });
      expect(maxActive).toBe(replicas + maxSurge);
      expect(minAvailable).toBe(replicas - maxUnavailable);
      const oldAfter = c.api.get('replicasets', 'default', oldRs.metadata.name!);
      const newRs = rsOf(c, 'nginx:1.28');
      expect(oldAfter.spec.replicas).toBe(0);
      expect(oldAfter.status.replicas).toBe(0);
      expect(newRs.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('2');
      expect(newRs.status).toMatchObject({ replicas, availableReplicas: replicas });
      const d = deployment(c);
      expect(d.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('2');
      expect(d.status).toMatchObject({ observedGeneration: 2, replicas, updatedReplicas: replicas, availableReplicas: replicas });
      expect(condition(d, 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${newRs.metadata.name}" has successfully progressed.` });
      expect(c.pods().every((p) => p.spec.containers[0].image === 'nginx:1.28')).toBe(true);
      expect(scalingEvents(c)).toContain(`Scaled down replica set ${oldRs.metadata.name} from 1 to 0`);
    });
  }

  it('rolls back by reusing the old ReplicaSet: revision 3, revision-history 1 (3.8)', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 2 }));
    c.run(20_000);
    setImage(c, 'nginx:1.28');
    c.run(30_000);
    const first = rsOf(c, 'nginx:1.27');
    // `kubectl rollout undo`: the old template back in the Deployment.
    setImage(c, 'nginx:1.27');
    c.run(30_000);
    expect(replicaSets(c)).toHaveLength(2);
    const reused = c.api.get('replicasets', 'default', first.metadata.name!);
    expect(reused.metadata.uid).toBe(first.metadata.uid);
    expect(reused.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('3');
    expect(reused.metadata.annotations!['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(reused.spec.replicas).toBe(2);
    expect(rsOf(c, 'nginx:1.28').spec.replicas).toBe(0);
    const d = deployment(c);
    expect(d.metadata.annotations!['deployment.kubernetes.io/revision']).toBe('3');
    expect(condition(d, 'Progressing')).toMatchObject({ reason: 'NewReplicaSetAvailable', message: `ReplicaSet "${first.metadata.name}" has successfully progressed.` });
    expect(scalingEvents(c)).toContain(`Scaled up replica set ${first.metadata.name} from 0 to 1`);
    expect(c.pods().every((p) => p.spec.containers[0].image === 'nginx:1.27')).toBe(true);
  });

  it('Recreate scales the old ReplicaSet to 0 and waits for its pods to be gone before creating the new one (3.4)', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 3, strategy: '  strategy: {type: Recreate}' }));
    c.run(20_000);
    const oldName = replicaSets(c)[0].metadata.name;
    setImage(c, 'nginx:1.28');
    runChecked(c, 30_000, () => {
      const pods = c.pods();
      const oldPods = pods.filter((p) => p.metadata.name!.startsWith(`${oldName}-`));
      const newPods = pods.filter((p) => !p.metadata.name!.startsWith(`${oldName}-`));
      if (newPods.length) expect(oldPods).toHaveLength(0);
    });
    const newName = rsOf(c, 'nginx:1.28').metadata.name;
    expect(scalingEvents(c).slice(1)).toEqual([`Scaled down replica set ${oldName} from 3 to 0`, `Scaled up replica set ${newName} from 0 to 3`]);
    expect(c.pods().filter((p) => p.status.phase === 'Running')).toHaveLength(3);
    expect(condition(deployment(c), 'Progressing')).toMatchObject({ reason: 'NewReplicaSetAvailable' });
  });

  it('C20: a rollout stuck on a bad image reaches ProgressDeadlineExceeded; old pods keep serving; no automatic rollback', () => {
    const c = cluster();
    c.apply(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app.kubernetes.io/name: nginx
spec:
  replicas: 3
  progressDeadlineSeconds: 60
  selector:
    matchLabels:
      app.kubernetes.io/name: nginx
  template:
    metadata:
      labels:
        app.kubernetes.io/name: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`);
    c.run(30_000);
    setImage(c, 'nginx:does-not-exist', 'nginx-deployment');
    c.run(50_000);
    expect(condition(deployment(c, 'nginx-deployment'), 'Progressing')).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' });
    c.run(40_000);
    const d = deployment(c, 'nginx-deployment');
    const bad = rsOf(c, 'nginx:does-not-exist');
    expect(condition(d, 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: `ReplicaSet "${bad.metadata.name}" has timed out progressing.` });
    expect(condition(d, 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    const pods = c.pods();
    const oldPods = pods.filter((p) => p.spec.containers[0].image === 'nginx:1.14.2');
    const newPods = pods.filter((p) => p.spec.containers[0].image === 'nginx:does-not-exist');
    expect(oldPods).toHaveLength(3);
    expect(oldPods.every((p) => p.status.phase === 'Running' && isPodReady(p))).toBe(true);
    expect(newPods).toHaveLength(1);
    expect(isPodReady(newPods[0])).toBe(false);
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:does-not-exist');
    expect(d.status).toMatchObject({ replicas: 4, updatedReplicas: 1, availableReplicas: 3, unavailableReplicas: 1 });
  });

  it('C27: a missing ServiceAccount leaves the Deployment 0/1 with ReplicaFailure FailedCreate; creating it lets a retry succeed', () => {
    const c = cluster();
    c.apply(deployYaml({ name: 'prometheus-operator', replicas: 1, podSpec: '      serviceAccountName: prometheus-operator' }));
    c.run(60_000);
    expect(c.pods()).toHaveLength(0);
    const rs = replicaSets(c)[0];
    const message = `pods "${rs.metadata.name}-" is forbidden: error looking up service account default/prometheus-operator: serviceaccount "prometheus-operator" not found`;
    const d = deployment(c, 'prometheus-operator');
    expect(d.status.readyReplicas).toBeUndefined();
    expect(condition(d, 'ReplicaFailure')).toMatchObject({ status: 'True', reason: 'FailedCreate', message });
    expect(condition(d, 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' });
    const ev = c.api.list('events', { namespace: 'default' }).items.find((e) => e.reason === 'FailedCreate')!;
    expect(ev).toMatchObject({ type: 'Warning', message: `Error creating: ${message}`, source: { component: 'replicaset-controller' }, involvedObject: { kind: 'ReplicaSet', name: rs.metadata.name } });

    c.apply(`
apiVersion: v1
automountServiceAccountToken: false
kind: ServiceAccount
metadata: {name: prometheus-operator, namespace: default}
`);
    c.run(180_000);
    const pods = c.pods();
    expect(pods).toHaveLength(1);
    expect(pods[0].status.phase).toBe('Running');
    const fixed = deployment(c, 'prometheus-operator');
    expect(condition(fixed, 'ReplicaFailure')).toBeUndefined();
    expect(fixed.status).toMatchObject({ replicas: 1, availableReplicas: 1 });
  });

  it('keeps revisionHistoryLimit old ReplicaSets and deletes older empty ones (3.3 step 4)', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 1, extraSpec: '  revisionHistoryLimit: 1' }));
    c.run(20_000);
    for (const image of ['nginx:1.28', 'nginx:1.29', 'nginx:1.30']) {
      setImage(c, image);
      c.run(30_000);
    }
    const left = replicaSets(c);
    expect(left.map((r) => r.spec.template.spec.containers[0].image).sort()).toEqual(['nginx:1.29', 'nginx:1.30']);
    expect(left.map((r) => r.metadata.annotations!['deployment.kubernetes.io/revision']).sort()).toEqual(['3', '4']);
    expect(c.trace.list({ component: 'deployment-controller' }).some((t) => /deleted old ReplicaSet web-\w+ \(revisionHistoryLimit 1\)/.test(t.message))).toBe(true);
  });

  it('does not roll out while paused, but still scales; resuming continues the rollout (3.6)', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 2 }));
    c.run(20_000);
    c.api.patch('deployments', 'default', 'web', 'merge', { spec: { paused: true } });
    setImage(c, 'nginx:1.28');
    c.run(20_000);
    expect(replicaSets(c)).toHaveLength(1);
    expect(condition(deployment(c), 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
    c.api.updateScale('deployments', 'default', 'web', 3);
    c.run(10_000);
    expect(c.pods()).toHaveLength(3);
    expect(c.pods().every((p) => p.spec.containers[0].image === 'nginx:1.27')).toBe(true);
    // Every version of the Deployment written from now on (what `kubectl get -w` would show).
    const seen: string[] = [];
    c.api.onWrite((w) => {
      if (w.object.kind !== 'Deployment') return;
      const p = condition(w.object, 'Progressing');
      const s = `${p.status} ${p.reason}: ${p.message}`;
      if (seen.at(-1) !== s) seen.push(s);
    });
    c.api.patch('deployments', 'default', 'web', 'merge', { spec: { paused: false } });
    c.run(30_000);
    // Resuming first records Unknown/DeploymentResumed, so the time spent paused does not count
    // against the progress deadline; the rollout then proceeds.
    const newName = rsOf(c, 'nginx:1.28').metadata.name;
    expect(seen).toEqual([
      'Unknown DeploymentPaused: Deployment is paused',
      'Unknown DeploymentResumed: Deployment is resumed',
      `True NewReplicaSetCreated: Created new replica set "${newName}"`,
      `True ReplicaSetUpdated: ReplicaSet "${newName}" is progressing.`,
      `True NewReplicaSetAvailable: ReplicaSet "${newName}" has successfully progressed.`,
    ]);
    expect(c.pods()).toHaveLength(3);
    expect(c.pods().every((p) => p.spec.containers[0].image === 'nginx:1.28')).toBe(true);
    expect(condition(deployment(c), 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' });
  });

  it('scales proportionally in mid-rollout: 10 -> 15 during a stuck rollout adds 3 to the old and 2 to the new ReplicaSet (Deployment docs, 3.3)', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 10, strategy: '  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 3, maxUnavailable: 2}}' }));
    c.run(20_000);
    setImage(c, 'nginx:nonexistent');
    c.run(20_000);
    expect(rsOf(c, 'nginx:1.27').spec.replicas).toBe(8);
    expect(rsOf(c, 'nginx:nonexistent').spec.replicas).toBe(5);
    c.api.updateScale('deployments', 'default', 'web', 15);
    c.run(10_000);
    expect(rsOf(c, 'nginx:1.27').spec.replicas).toBe(11);
    expect(rsOf(c, 'nginx:nonexistent').spec.replicas).toBe(7);
    for (const rs of replicaSets(c)) {
      expect(rs.metadata.annotations!['deployment.kubernetes.io/desired-replicas']).toBe('15');
      expect(rs.metadata.annotations!['deployment.kubernetes.io/max-replicas']).toBe('18');
    }
  });

  it('catches up after a restart: with kube-controller-manager stopped nothing replaces a deleted pod for minutes; after the restart it does', () => {
    const c = cluster();
    c.apply(deployYaml({ replicas: 2 }));
    c.run(20_000);
    c.stopControllerManager();
    const victim = c.pods()[0].metadata.name!;
    c.api.delete('pods', 'default', victim);
    c.run(180_000);
    expect(c.pods()).toHaveLength(1);
    expect(deployment(c).status.availableReplicas).toBe(2); // nobody updates the status either
    c.startControllerManager();
    c.run(30_000);
    const pods = c.pods();
    expect(pods).toHaveLength(2);
    expect(pods.every((p) => p.status.phase === 'Running')).toBe(true);
    expect(deployment(c).status).toMatchObject({ replicas: 2, availableReplicas: 2 });
  });
});
