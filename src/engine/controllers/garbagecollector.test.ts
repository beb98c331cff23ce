/**
 * garbage-collector-controller, checked against documented behaviour:
 * https://kubernetes.io/docs/concepts/architecture/garbage-collection/ (owners and dependents,
 * cascading deletion, cross-namespace owner references, OwnerRefInvalidNamespace),
 * https://kubernetes.io/docs/tasks/administer-cluster/use-cascading-deletion/ (Background,
 * Foreground, Orphan), reference section 4. Owners and dependents are built directly
 * (ConfigMaps owning ConfigMaps, pods with ownerReferences bound with api.bind) so the tests do
 * not depend on the workload controllers.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject, OwnerReference } from '../api/types';

function cluster(): TestCluster {
  return newTestCluster({ controllers: ['garbage-collector'], scheduler: false });
}

function ownerRef(o: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference {
  return { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name!, uid: o.metadata.uid!, ...extra };
}

function configMap(c: TestCluster, name: string, owners: OwnerReference[] = [], namespace = 'default'): KubeObject {
  return c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...(owners.length ? { ownerReferences: owners } : {}) }, data: { k: 'v' } });
}

function boundPod(c: TestCluster, name: string, owners: OwnerReference[], node = 'worker-1'): KubeObject {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'gc' }, ownerReferences: owners },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
  });
  c.api.bind('default', name, node);
  return c.api.get('pods', 'default', name);
}

const exists = (c: TestCluster, resource: string, name: string, ns = 'default') => c.api.tryGet(resource, ns, name) !== undefined;

describe('garbage-collector-controller', () => {
  it('Background: owner -> dependent -> grand-dependent all go, in waves', () => {
    const c = cluster();
    c.run(1000);
    const owner = configMap(c, 'owner');
    const dep = configMap(c, 'dep', [ownerRef(owner)]);
    configMap(c, 'grand', [ownerRef(dep)]);
    const pod = boundPod(c, 'web-1', [ownerRef(dep, { controller: true, blockOwnerDeletion: true })]);
    c.run(2000);
    expect(c.api.get('pods', 'default', pod.metadata.name!).status.phase).toBe('Running');

    c.api.delete('configmaps', 'default', 'owner'); // kubectl's default: background
    expect(exists(c, 'configmaps', 'owner')).toBe(false); // the owner goes at once
    c.run(100);
    expect(exists(c, 'configmaps', 'dep')).toBe(false);
    expect(exists(c, 'configmaps', 'grand')).toBe(false);
    // The pod terminates gracefully (deletionTimestamp first), then the kubelet confirms.
    const terminating = c.api.tryGet('pods', 'default', 'web-1');
    expect(terminating?.metadata.deletionTimestamp).toBeDefined();
    c.run(2000);
    expect(exists(c, 'pods', 'web-1')).toBe(false);

    const lines = c.trace.list({ component: 'garbage-collector-controller' }).map((e) => e.message);
    expect(lines).toContain('default/dep owner ConfigMap/owner is gone -> delete');
    expect(lines).toContain('default/grand owner ConfigMap/dep is gone -> delete');
    expect(lines).toContain('default/web-1 owner ConfigMap/dep is gone -> delete');
  });

  it('Foreground: the owner stays visible with deletionTimestamp and foregroundDeletion until blocking dependents are gone', () => {
    const c = cluster();
    c.run(1000);
    const owner = configMap(c, 'owner');
    boundPod(c, 'a', [ownerRef(owner, { controller: true, blockOwnerDeletion: true })]);
    boundPod(c, 'b', [ownerRef(owner, { controller: true, blockOwnerDeletion: true })]);
    c.run(2000);

    c.api.delete('configmaps', 'default', 'owner', { propagationPolicy: 'Foreground' });
    c.run(100);
    const pending = c.api.get('configmaps', 'default', 'owner');
    expect(pending.metadata.deletionTimestamp).toBeDefined();
    expect(pending.metadata.finalizers).toEqual(['foregroundDeletion']);
    // Dependents are being deleted (gracefully: they are still there, terminating).
    expect(c.api.get('pods', 'default', 'a').metadata.deletionTimestamp).toBeDefined();
    expect(c.api.get('pods', 'default', 'b').metadata.deletionTimestamp).toBeDefined();

    c.run(3000);
    expect(exists(c, 'pods', 'a')).toBe(false);
    expect(exists(c, 'pods', 'b')).toBe(false);
    expect(exists(c, 'configmaps', 'owner')).toBe(false);
    expect(c.trace.list({ component: 'garbage-collector-controller' }).map((e) => e.message)).toContain(
      'default/owner has no dependents with blockOwnerDeletion left -> remove finalizer foregroundDeletion',
    );
  });

  it('Foreground does not wait for dependents without blockOwnerDeletion, but deletes them too', () => {
    const c = cluster();
    c.run(1000);
    const owner = configMap(c, 'owner');
    boundPod(c, 'loose', [ownerRef(owner)]);
    c.run(2000);
    c.api.delete('configmaps', 'default', 'owner', { propagationPolicy: 'Foreground' });
    c.run(100);
    expect(exists(c, 'configmaps', 'owner')).toBe(false);
    c.run(2000);
    expect(exists(c, 'pods', 'loose')).toBe(false);
  });

  it('Foreground cascades: a dependent with its own blocking dependents is deleted in the foreground too', () => {
    const c = cluster();
    c.run(1000);
    const owner = configMap(c, 'deploy');
    const rs = configMap(c, 'rs', [ownerRef(owner, { controller: true, blockOwnerDeletion: true })]);
    boundPod(c, 'rs-pod', [ownerRef(rs, { controller: true, blockOwnerDeletion: true })]);
    c.run(2000);
    c.api.delete('configmaps', 'default', 'deploy', { propagationPolicy: 'Foreground' });
    c.run(100);
    expect(c.api.get('configmaps', 'default', 'rs').metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(c.api.get('configmaps', 'default', 'deploy').metadata.finalizers).toEqual(['foregroundDeletion']);
    c.run(3000);
    expect(exists(c, 'pods', 'rs-pod')).toBe(false);
    expect(exists(c, 'configmaps', 'rs')).toBe(false);
    expect(exists(c, 'configmaps', 'deploy')).toBe(false);
  });

  it('Orphan: the owner goes, dependents stay without the ownerReference', () => {
    const c = cluster();
    c.run(1000);
    const owner = configMap(c, 'owner');
    const other = configMap(c, 'other-owner');
    configMap(c, 'dep', [ownerRef(owner), ownerRef(other)]);
    boundPod(c, 'p', [ownerRef(owner, { controller: true, blockOwnerDeletion: true })]);
    c.run(2000);
    c.api.delete('configmaps', 'default', 'owner', { propagationPolicy: 'Orphan' });
    expect(c.api.get('configmaps', 'default', 'owner').metadata.finalizers).toEqual(['orphan']);
    c.run(1000);
    expect(exists(c, 'configmaps', 'owner')).toBe(false);
    const pod = c.api.get('pods', 'default', 'p');
    expect(pod.metadata.ownerReferences).toBeUndefined();
    expect(pod.metadata.deletionTimestamp).toBeUndefined();
    expect(pod.status.phase).toBe('Running');
    // Only the reference to the deleted owner is removed.
    expect(c.api.get('configmaps', 'default', 'dep').metadata.ownerReferences?.map((r) => r.name)).toEqual(['other-owner']);
  });

  it('a dangling ownerReference (uid of no live object) gets the dependent deleted, also when the name exists with another uid', () => {
    const c = cluster();
    c.run(1000);
    configMap(c, 'owner');
    configMap(c, 'wrong-uid', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '00000000-0000-4000-8000-000000000001' }]);
    configMap(c, 'no-owner', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'never-existed', uid: '00000000-0000-4000-8000-000000000002' }]);
    c.run(1000);
    expect(exists(c, 'configmaps', 'wrong-uid')).toBe(false);
    expect(exists(c, 'configmaps', 'no-owner')).toBe(false);
    expect(exists(c, 'configmaps', 'owner')).toBe(true);
    const lines = c.trace.list({ component: 'garbage-collector-controller' }).map((e) => e.message);
    expect(lines.some((l) => l.startsWith('default/wrong-uid owner ConfigMap/owner is gone (the live ConfigMap of that name has uid '))).toBe(true);
    expect(lines).toContain('default/no-owner owner ConfigMap/never-existed is gone -> delete');
  });

  it('a dependent with one live owner keeps living; only the dangling reference is removed', () => {
    const c = cluster();
    c.run(1000);
    const live = configMap(c, 'live');
    configMap(c, 'dep', [ownerRef(live), { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: '00000000-0000-4000-8000-000000000003' }]);
    c.run(1000);
    const dep = c.api.get('configmaps', 'default', 'dep');
    expect(dep.metadata.ownerReferences?.map((r) => r.name)).toEqual(['live']);
  });

  it('a cluster-scoped owner of a namespaced dependent is valid: the ConfigMap lives with its Node and goes with it', () => {
    const c = cluster();
    c.run(1000);
    const node = c.api.get('nodes', undefined, 'worker-2');
    configMap(c, 'node-info', [ownerRef(node)]);
    c.run(1000);
    expect(exists(c, 'configmaps', 'node-info')).toBe(true);
    c.api.delete('nodes', undefined, 'worker-2');
    c.run(1000);
    expect(exists(c, 'configmaps', 'node-info')).toBe(false);
  });

  it('an ownerReference across namespaces is invalid: Warning OwnerRefInvalidNamespace, and the dependent is deleted', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } });
    c.run(1000);
    const owner = configMap(c, 'owner');
    c.run(1000);
    const dep = configMap(c, 'dep', [ownerRef(owner)], 'b');
    c.run(1000);
    const ev = c.events.find((e) => e.reason === 'OwnerRefInvalidNamespace');
    expect(ev).toMatchObject({
      component: 'garbage-collector-controller',
      type: 'Warning',
      message: `ownerRef [v1/ConfigMap, namespace: b, name: owner, uid: ${owner.metadata.uid}] does not exist in namespace "b"`,
      involvedObject: { kind: 'ConfigMap', namespace: 'b', name: 'dep', uid: dep.metadata.uid },
    });
    expect(exists(c, 'configmaps', 'dep', 'b')).toBe(false);
    expect(exists(c, 'configmaps', 'owner')).toBe(true);
  });

  it('catches up after a restart: dependents of an owner deleted while kube-controller-manager was down are deleted when it relists', () => {
    const c = cluster();
    c.run(1000);
    const owner = configMap(c, 'owner');
    configMap(c, 'dep', [ownerRef(owner)]);
    c.run(1000);
    c.stopControllerManager();
    c.api.delete('configmaps', 'default', 'owner');
    c.run(60_000);
    expect(exists(c, 'configmaps', 'dep')).toBe(true); // nobody collects while the GC is down
    c.startControllerManager();
    c.run(20_000); // leader election + relist
    expect(exists(c, 'configmaps', 'dep')).toBe(false);
  });

  it('monitors custom kinds registered after start (discovery resync every 30 s)', () => {
    const c = cluster();
    c.run(1000);
    c.api.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'shelves.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'shelves', singular: 'shelf', kind: 'Shelf' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    const owner = configMap(c, 'owner');
    const shelf = c.api.create({ apiVersion: 'example.com/v1', kind: 'Shelf', metadata: { name: 'fiction', namespace: 'default', ownerReferences: [ownerRef(owner)] } });
    // A dependent owned by a custom resource.
    configMap(c, 'shelf-index', [ownerRef(shelf)]);
    c.run(31_000);
    expect(c.trace.list({ component: 'garbage-collector-controller' }).some((e) => e.message.includes('shelves.example.com'))).toBe(true);
    c.api.delete('configmaps', 'default', 'owner');
    c.run(1000);
    expect(c.api.tryGet('shelves.example.com', 'default', 'fiction')).toBeUndefined();
    expect(exists(c, 'configmaps', 'shelf-index')).toBe(false);
  });
});
