/**
 * ResourceQuota: the resourcequota controller's status and the ResourceQuota admission plugin.
 * Checked against https://kubernetes.io/docs/concepts/policy/resource-quotas/ and
 * https://kubernetes.io/docs/tasks/administer-cluster/manage-resources/quota-memory-cpu-namespace/
 * (the `exceeded quota` and `must specify` refusals), plugin/pkg/admission/resourcequota/controller.go.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { ApiError } from './errors';

const QUOTA = (hard: string, name = 'q') => `
apiVersion: v1
kind: ResourceQuota
metadata: {name: ${name}}
spec:
  hard: {${hard}}
`;

const pod = (name: string, resources?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }] },
});

function setup(): TestCluster {
  return newTestCluster({ controllers: ['resourcequota'] });
}

function createError(c: TestCluster, obj: ReturnType<typeof pod>): string {
  try {
    c.api.create(obj);
  } catch (e) {
    if (e instanceof ApiError) return `${e.status.code} ${e.message}`;
    throw e;
  }
  return 'created';
}

describe('resourcequota controller', () => {
  it('writes status.hard and status.used (pods, requests, limits, count/*) for what already exists', () => {
    const c = setup();
    c.api.create(pod('a', { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } }));
    c.api.create(pod('b', { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } }));
    c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' } });
    c.apply(QUOTA('pods: "10", requests.cpu: "1", requests.memory: 1Gi, limits.cpu: "2", limits.memory: 2Gi, configmaps: "5", count/deployments.apps: "3"'));
    c.run(1000);
    const q = c.api.get('resourcequotas', 'default', 'q');
    expect(q.status.hard).toEqual(q.spec.hard);
    expect(q.status.used).toEqual({
      pods: '2',
      'requests.cpu': '500m',
      'requests.memory': '128Mi',
      'limits.cpu': '1',
      'limits.memory': '256Mi',
      // kube-root-ca.crt is not there: no root-ca publisher in this test cluster.
      configmaps: '1',
      'count/deployments.apps': '0',
    });
  });

  it('a deleted pod is given back (replenishment); a Succeeded pod stops counting', () => {
    const c = setup();
    c.apply(QUOTA('pods: "5"'));
    c.run(1000);
    c.api.create(pod('a'));
    c.api.create(pod('b'));
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ pods: '2' });
    c.api.delete('pods', 'default', 'a', { gracePeriodSeconds: 0 });
    c.run(1000);
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ pods: '1' });
    const b = c.api.get('pods', 'default', 'b');
    c.api.updateStatus({ ...b, status: { ...b.status, phase: 'Succeeded' } });
    c.run(1000);
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ pods: '0' });
  });
});

describe('ResourceQuota admission', () => {
  it('refuses the pod over `pods` with the real message and counts admitted ones at once', () => {
    const c = setup();
    c.apply(QUOTA('pods: "2"'));
    c.run(1000);
    expect(createError(c, pod('a'))).toBe('created');
    expect(createError(c, pod('b'))).toBe('created');
    expect(createError(c, pod('x'))).toBe('403 pods "x" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ pods: '2' });
  });

  it('names every exceeded resource, sorted; cpu/memory quotas require each container to state them', () => {
    const c = setup();
    c.apply(QUOTA('requests.cpu: "1", limits.memory: 1Gi'));
    c.run(1000);
    expect(createError(c, pod('big', { requests: { cpu: '2' }, limits: { memory: '2Gi' } }))).toBe(
      '403 pods "big" is forbidden: exceeded quota: q, requested: limits.memory=2Gi,requests.cpu=2, used: limits.memory=0,requests.cpu=0, limited: limits.memory=1Gi,requests.cpu=1',
    );
    expect(createError(c, pod('bare'))).toBe('403 pods "bare" is forbidden: failed quota: q: must specify limits.memory for: c; requests.cpu for: c');
    expect(createError(c, pod('ok', { requests: { cpu: '500m' }, limits: { memory: '512Mi' } }))).toBe('created');
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ 'requests.cpu': '500m', 'limits.memory': '512Mi' });
  });

  it('a dry run is checked but not counted; other namespaces are not affected', () => {
    const c = setup();
    c.apply(QUOTA('pods: "1"'));
    c.run(1000);
    c.api.create(pod('dry'), { dryRun: true });
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ pods: '0' });
    c.api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'kube-system' } });
    c.api.create({ ...pod('elsewhere'), metadata: { name: 'elsewhere', namespace: 'kube-system' } });
    expect(c.api.get('resourcequotas', 'default', 'q').status.used).toEqual({ pods: '0' });
  });
});
