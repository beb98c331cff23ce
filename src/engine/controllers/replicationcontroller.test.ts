/**
 * The replication manager (kube-controller-manager `replicationcontroller`): the ReplicaSet
 * controller run on ReplicationControllers (pkg/controller/replication). Checked against
 * https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/ and the
 * corpus manifest website__controllers-replication.yaml (INDEX.md #7: 3 pods labelled app=nginx).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newTestCluster } from '../testing/cluster';

const RC = readFileSync(new URL('../../../fixtures/corpus/manifests/website__controllers-replication.yaml', import.meta.url), 'utf8');

function setup() {
  const c = newTestCluster({ controllers: ['replicationcontroller', 'garbage-collector'] });
  return c;
}

describe('replication manager', () => {
  it('corpus #7: the nginx RC creates 3 pods labelled app=nginx on the workers, owned by the RC, with SuccessfulCreate events', () => {
    const c = setup();
    expect(c.apply(RC)).toEqual(['replicationcontroller/nginx created']);
    c.run(20_000);
    const rc = c.api.get('replicationcontrollers', 'default', 'nginx');
    expect(rc.spec.selector).toEqual({ app: 'nginx' });
    expect(rc.status).toMatchObject({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
    const pods = c.pods('default', 'app=nginx');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^nginx-[a-z0-9]{5}$/);
      expect(p.metadata.ownerReferences).toEqual([
        { apiVersion: 'v1', kind: 'ReplicationController', name: 'nginx', uid: rc.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
      expect(['worker-1', 'worker-2']).toContain(p.spec.nodeName);
      expect(p.status.phase).toBe('Running');
    }
    const created = c.events.filter((e) => e.reason === 'SuccessfulCreate');
    expect(created).toHaveLength(3);
    for (const e of created) {
      expect(e.component).toBe('replication-controller');
      expect(e.involvedObject).toMatchObject({ kind: 'ReplicationController', name: 'nginx', namespace: 'default' });
      expect(e.message).toMatch(/^Created pod: nginx-[a-z0-9]{5}$/);
    }
  });

  it('scales down with SuccessfulDelete, replaces a deleted pod, adopts a matching orphan', () => {
    const c = setup();
    c.apply(RC);
    c.run(20_000);
    c.api.patch('replicationcontrollers', 'default', 'nginx', 'merge', { spec: { replicas: 1 } });
    c.run(20_000);
    expect(c.pods('default', 'app=nginx').filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1);
    expect(c.events.filter((e) => e.reason === 'SuccessfulDelete' && e.involvedObject.kind === 'ReplicationController')).toHaveLength(2);
    const [survivor] = c.pods('default', 'app=nginx');
    c.api.delete('pods', 'default', survivor.metadata.name!);
    c.run(20_000);
    const now = c.pods('default', 'app=nginx');
    expect(now).toHaveLength(1);
    expect(now[0].metadata.name).not.toBe(survivor.metadata.name);
    // An orphan with the selector's labels is adopted (and then one pod too many is deleted).
    c.api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', namespace: 'default', labels: { app: 'nginx' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    c.run(20_000);
    const after = c.pods('default', 'app=nginx').filter((p) => !p.metadata.deletionTimestamp);
    expect(after).toHaveLength(1);
    expect(after[0].metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicationController', name: 'nginx' });
  });

  it('deleting the RC garbage-collects its pods (ownerReferences kind ReplicationController)', () => {
    const c = setup();
    c.apply(RC);
    c.run(20_000);
    c.api.delete('replicationcontrollers', 'default', 'nginx');
    c.run(60_000);
    expect(c.pods('default', 'app=nginx')).toHaveLength(0);
  });

  it('a ReplicaSet with the same labels is left alone: each controller only claims its own kind', () => {
    const c = newTestCluster({ controllers: ['replicationcontroller', 'replicaset'] });
    c.apply(RC);
    c.run(20_000);
    const rcPods = new Set(c.pods('default', 'app=nginx').map((p) => p.metadata.name));
    expect(rcPods.size).toBe(3);
    expect(c.api.get('replicationcontrollers', 'default', 'nginx').status.replicas).toBe(3);
  });
});
