/**
 * namespace-controller, checked against documented behaviour:
 * https://kubernetes.io/docs/tasks/administer-cluster/namespaces/#deleting-a-namespace and
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/ (a deleted
 * namespace is Terminating until its content is gone), reference section 4 (spec finalizer
 * `kubernetes`), and the condition reasons/messages of
 * pkg/controller/namespace/deletion/status_condition_utils.go.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';

function cluster(): TestCluster {
  return newTestCluster({ controllers: ['serviceaccount', 'namespace', 'garbage-collector'], scheduler: false });
}

function condition(c: TestCluster, ns: string, type: string) {
  return (c.api.get('namespaces', undefined, ns).status.conditions ?? []).find((x: { type: string }) => x.type === type);
}

function runningPod(c: TestCluster, ns: string, name: string, node: string) {
  c.api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } });
  c.api.bind(ns, name, node);
}

describe('namespace-controller', () => {
  it('deletes the content, shows Terminating with the real conditions meanwhile, then removes the namespace', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    c.run(1000); // the serviceaccount controller creates shop/default, needed by pods
    runningPod(c, 'shop', 'web-1', 'worker-1');
    runningPod(c, 'shop', 'web-2', 'worker-2');
    c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: 'b' } });
    c.api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    c.run(3000);
    expect(c.api.get('pods', 'shop', 'web-1').status.phase).toBe('Running');

    c.api.delete('namespaces', undefined, 'shop');
    const ns = c.api.get('namespaces', undefined, 'shop');
    expect(ns.status.phase).toBe('Terminating'); // what `kubectl get ns` prints in STATUS
    expect(ns.spec.finalizers).toEqual(['kubernetes']);

    // The controller waits namespaceDeletionGracePeriod (5 s), then deletes everything.
    c.run(5100);
    expect(c.api.tryGet('configmaps', 'shop', 'settings')).toBeUndefined();
    expect(c.api.tryGet('services', 'shop', 'web')).toBeUndefined();
    expect(c.api.tryGet('serviceaccounts', 'shop', 'default')).toBeUndefined();
    // Pods terminate gracefully: still listed right after the delete collection.
    expect(condition(c, 'shop', 'NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: pods. has 2 resource instances',
    });
    expect(condition(c, 'shop', 'NamespaceDeletionDiscoveryFailure')).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' });
    expect(condition(c, 'shop', 'NamespaceDeletionGroupVersionParsingFailure')).toMatchObject({ status: 'False', reason: 'ParsedGroupVersions' });
    expect(condition(c, 'shop', 'NamespaceDeletionContentFailure')).toMatchObject({
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
    });
    expect(condition(c, 'shop', 'NamespaceFinalizersRemaining')).toMatchObject({ status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' });
    expect(c.api.get('namespaces', undefined, 'shop').status.phase).toBe('Terminating');

    // Pods are gone a second later; the controller re-checks after estimate/2 + 1 = 16 s.
    c.run(2000);
    expect(c.api.list('pods', { namespace: 'shop' }).items).toHaveLength(0);
    expect(c.api.tryGet('namespaces', undefined, 'shop')).toBeDefined();
    c.run(15_000);
    expect(c.api.tryGet('namespaces', undefined, 'shop')).toBeUndefined();
    expect(c.trace.list({ component: 'namespace-controller' }).map((e) => e.message)).toContain('shop is empty -> remove finalizer kubernetes');
  });

  it('new content is refused while the namespace terminates', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old' } });
    c.run(1000);
    c.api.delete('namespaces', undefined, 'old');
    expect(() => c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'old' } })).toThrow(
      'unable to create new content in namespace old because it is being terminated',
    );
    c.run(10_000);
    expect(c.api.tryGet('namespaces', undefined, 'old')).toBeUndefined();
  });

  it('objects held by a finalizer keep the namespace Terminating with NamespaceFinalizersRemaining', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'held' } });
    c.run(1000);
    c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stuck', namespace: 'held', finalizers: ['example.com/hold'] } });
    c.api.delete('namespaces', undefined, 'held');
    c.run(6000);
    expect(condition(c, 'held', 'NamespaceContentRemaining')).toMatchObject({ status: 'True', message: 'Some resources are remaining: configmaps. has 1 resource instances' });
    expect(condition(c, 'held', 'NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    c.run(60_000);
    expect(c.api.get('namespaces', undefined, 'held').status.phase).toBe('Terminating');
    // Remove the finalizer: the next check (15 s estimate -> 8.5 s) releases the namespace.
    c.api.patch('configmaps', 'held', 'stuck', 'merge', { metadata: { finalizers: null } });
    c.run(20_000);
    expect(c.api.tryGet('namespaces', undefined, 'held')).toBeUndefined();
  });

  it('other spec finalizers are kept: the namespace stays until they are removed too', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ext' }, spec: { finalizers: ['kubernetes', 'example.com/cleanup'] } });
    c.run(1000);
    c.api.delete('namespaces', undefined, 'ext');
    c.run(10_000);
    const ns = c.api.get('namespaces', undefined, 'ext');
    expect(ns.spec.finalizers).toEqual(['example.com/cleanup']);
    c.api.finalizeNamespace('ext', []);
    expect(c.api.tryGet('namespaces', undefined, 'ext')).toBeUndefined();
  });
});
