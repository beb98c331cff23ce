/**
 * replicaset-controller, from documented behaviour: reference k8s-semantics.md section 2
 * (pkg/controller/replicaset/replica_set.go, controller_utils.go) and cases.md C27.
 *
 * The test cluster runs kube-scheduler (which binds the pods to worker-1/worker-2) and the fake
 * kubelet (bound pods Running and Ready 1 s later; graceful deletions confirmed 1 s later).
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';

function cluster(settings?: Record<string, number>): TestCluster {
  return newTestCluster({ controllers: ['replicaset'], settings });
}

const rsYaml = (replicas: number, extra = '', podSpecExtra = '') => `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
${extra}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
${podSpecExtra}
      containers: [{name: nginx, image: "nginx:1.27"}]
`;

const rs = (c: TestCluster, name = 'web') => c.api.get('replicasets', 'default', name);
const active = (pods: KubeObject[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const events = (c: TestCluster, reason: string) => c.events.filter((e) => e.reason === reason);

describe('replicaset-controller', () => {
  it('creates spec.replicas pods from the template, owned by the ReplicaSet, and reports status (section 2)', () => {
    const c = cluster();
    c.apply(rsYaml(3));
    c.run(10_000);
    const pods = c.pods();
    expect(pods).toHaveLength(3);
    const owner = rs(c);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.generateName).toBe('web-');
      expect(p.metadata.labels).toEqual({ app: 'web', tier: 'front' });
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      expect(p.status.phase).toBe('Running');
    }
    expect(owner.status).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    // Events: one SuccessfulCreate "Created pod: <name>" per pod, from replicaset-controller.
    expect(events(c, 'SuccessfulCreate').map((e) => e.message).sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
    expect(events(c, 'SuccessfulCreate').every((e) => e.component === 'replicaset-controller' && e.involvedObject.name === 'web')).toBe(true);
    expect(c.trace.list({ component: 'replicaset-controller' }).map((t) => t.message)).toContain('default/web has 0 of 3 -> create 3');
  });

  it('replaces a pod as soon as it starts terminating: terminating pods do not count (section 2, C01)', () => {
    const c = cluster();
    c.apply(rsYaml(2));
    c.run(10_000);
    const victim = c.pods()[0].metadata.name!;
    c.api.delete('pods', 'default', victim);
    c.run(10); // the deletionTimestamp is seen; the old pod is still there (kubelet confirms after 1 s)
    const during = c.pods();
    expect(during.find((p) => p.metadata.name === victim)?.metadata.deletionTimestamp).toBeTruthy();
    expect(active(during)).toHaveLength(2);
    c.run(10_000);
    const after = c.pods();
    expect(after).toHaveLength(2);
    expect(after.map((p) => p.metadata.name)).not.toContain(victim);
    expect(after.every((p) => p.status.phase === 'Running')).toBe(true);
    expect(rs(c).status.replicas).toBe(2);
  });

  it('scales down the cheapest pods first: unassigned before assigned, then lower pod-deletion-cost, then newest (ActivePodsWithRanks)', () => {
    const c = cluster();
    c.apply(rsYaml(3));
    c.run(10_000);
    const running = c.pods().map((p) => p.metadata.name!);
    // Two more pods while kube-scheduler is down: they stay Pending without a node.
    c.stopScheduler();
    c.api.updateScale('replicasets', 'default', 'web', 5);
    c.run(5_000);
    const pending = c.pods().filter((p) => !p.spec.nodeName).map((p) => p.metadata.name);
    expect(pending).toHaveLength(2);
    c.api.updateScale('replicasets', 'default', 'web', 3);
    c.run(5_000);
    expect(c.pods().map((p) => p.metadata.name).sort()).toEqual([...running].sort());
    expect(events(c, 'SuccessfulDelete').map((e) => e.message).sort()).toEqual(pending.map((n) => `Deleted pod: ${n}`).sort());

    // A negative controller.kubernetes.io/pod-deletion-cost makes that pod go first.
    c.startScheduler();
    const cheap = running[1];
    c.api.patch('pods', 'default', cheap, 'merge', { metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-100' } } });
    c.api.updateScale('replicasets', 'default', 'web', 2);
    c.run(5_000);
    expect(c.pods().map((p) => p.metadata.name)).not.toContain(cheap);

    // Otherwise the most recently started pod goes first (log-scale age buckets).
    c.run(600_000);
    c.api.updateScale('replicasets', 'default', 'web', 3);
    c.run(10_000);
    const newest = c.pods().find((p) => !running.includes(p.metadata.name!))!.metadata.name;
    c.api.updateScale('replicasets', 'default', 'web', 2);
    c.run(5_000);
    expect(c.pods().map((p) => p.metadata.name)).not.toContain(newest);
    expect(c.trace.list({ component: 'replicaset-controller' }).map((t) => t.message)).toContain('default/web has 3 of 2 -> delete 1');
  });

  it('adopts a matching orphan pod and releases a pod whose labels stop matching (ClaimPods)', () => {
    const c = cluster();
    c.apply(`
apiVersion: v1
kind: Pod
metadata: {name: stray, labels: {app: web, tier: front}}
spec:
  containers: [{name: nginx, image: "nginx:1.27"}]
`);
    c.run(5_000);
    c.apply(rsYaml(2));
    c.run(10_000);
    const owner = rs(c);
    const pods = c.pods();
    expect(pods).toHaveLength(2);
    const stray = c.api.get('pods', 'default', 'stray');
    expect(stray.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    // Only one pod was created: the adopted one counts.
    expect(events(c, 'SuccessfulCreate')).toHaveLength(1);

    // Relabel the adopted pod out of the selector: released (ownerReference removed) and replaced.
    c.api.patch('pods', 'default', 'stray', 'merge', { metadata: { labels: { app: 'debug' } } });
    c.run(10_000);
    const released = c.api.get('pods', 'default', 'stray');
    expect(released.metadata.ownerReferences ?? []).toEqual([]);
    expect(released.status.phase).toBe('Running');
    expect(c.pods('default', 'app=web')).toHaveLength(2);
    expect(events(c, 'SuccessfulCreate')).toHaveLength(2);
  });

  it('never touches pods controlled by another owner even when the labels match', () => {
    const c = cluster();
    c.apply(rsYaml(2));
    c.run(10_000);
    c.apply(`
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: other}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      containers: [{name: nginx, image: "nginx:1.27"}]
`);
    c.run(10_000);
    expect(c.pods()).toHaveLength(3);
    const byOwner = (n: string) => c.pods().filter((p) => p.metadata.ownerReferences?.[0].name === n);
    expect(byOwner('web')).toHaveLength(2);
    expect(byOwner('other')).toHaveLength(1);
  });

  it('FailedCreate for a missing ServiceAccount: ReplicaFailure condition and event, one create per failing sync (slow start), recovery once it exists (C27)', () => {
    const c = cluster();
    c.apply(rsYaml(5, '', '      serviceAccountName: missing'));
    c.run(60_000);
    // Slow start: each failing sync tried one create (the batch of 1 failed, the other 4 creates
    // were never attempted), so no two FailedCreate events share a sync's virtual time.
    const failures = events(c, 'FailedCreate');
    expect(failures.length).toBeGreaterThan(5);
    expect(new Set(failures.map((e) => e.time)).size).toBe(failures.length);
    const message = 'pods "web-" is forbidden: error looking up service account default/missing: serviceaccount "missing" not found';
    expect(failures[0]).toMatchObject({ component: 'replicaset-controller', type: 'Warning', reason: 'FailedCreate', message: `Error creating: ${message}` });
    expect(c.pods()).toHaveLength(0);
    const failing = rs(c);
    expect(failing.status.replicas).toBe(0);
    expect(failing.status.conditions).toEqual([{ type: 'ReplicaFailure', status: 'True', lastTransitionTime: expect.any(String), reason: 'FailedCreate', message }]);
    // Every retry is a failed create; the API server counts them on one Event.
    const apiEvents = c.api.list('events', { namespace: 'default' }).items.filter((e) => e.reason === 'FailedCreate');
    expect(apiEvents).toHaveLength(1);
    expect(apiEvents[0]).toMatchObject({ type: 'Warning', message: `Error creating: ${message}`, source: { component: 'replicaset-controller' } });
    expect(apiEvents[0].count).toBeGreaterThan(5);

    c.apply(`
apiVersion: v1
kind: ServiceAccount
metadata: {name: missing}
`);
    // Retries back off exponentially (5 ms doubling): the next one comes within a few minutes.
    c.run(180_000);
    expect(c.pods()).toHaveLength(5);
    expect(c.pods().every((p) => p.status.phase === 'Running')).toBe(true);
    const recovered = rs(c);
    expect(recovered.status.conditions).toBeUndefined();
    expect(recovered.status.availableReplicas).toBe(5);
  });

  it('creates at most burstReplicas pods per sync, in slow-start batches', () => {
    const c = cluster({ replicaSetBurstReplicas: 4 });
    c.apply(rsYaml(10));
    c.run(30_000);
    expect(c.pods()).toHaveLength(10);
    const decisions = c.trace.list({ component: 'replicaset-controller' }).map((t) => t.message);
    expect(decisions).toEqual(['default/web has 0 of 10 -> create 4', 'default/web has 4 of 10 -> create 4', 'default/web has 8 of 10 -> create 2']);
  });

  it('counts a ready pod as available only after minReadySeconds, and syncs again to notice (calculateStatus)', () => {
    const c = cluster();
    c.apply(rsYaml(2, '  minReadySeconds: 10'));
    c.run(3_000);
    expect(rs(c).status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    expect(rs(c).status.availableReplicas).toBeUndefined();
    c.run(12_000);
    expect(rs(c).status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
  });

  it('never has more active pods than spec.replicas while creating (expectations)', () => {
    const c = cluster();
    c.apply(rsYaml(20));
    let max = 0;
    const end = c.clock.now() + 20_000;
    while ((c.clock.peekTime() ?? Infinity) <= end) {
      c.clock.step();
      max = Math.max(max, active(c.pods()).length);
    }
    expect(max).toBe(20);
    expect(events(c, 'SuccessfulCreate')).toHaveLength(20);
  });

  it('catches up after a restart: with the controller-manager stopped a deleted pod stays gone; a new one replaces it after the restart', () => {
    const c = cluster();
    c.apply(rsYaml(2));
    c.run(10_000);
    c.stopControllerManager();
    const victim = c.pods()[0].metadata.name!;
    c.api.delete('pods', 'default', victim);
    c.run(180_000);
    expect(c.pods()).toHaveLength(1);
    c.startControllerManager();
    c.run(30_000);
    expect(c.pods()).toHaveLength(2);
    expect(c.pods().map((p) => p.metadata.name)).not.toContain(victim);
  });
});
