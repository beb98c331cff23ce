/**
 * endpointslice-controller, checked against
 * https://kubernetes.io/docs/concepts/services-networking/endpoint-slices/ (labels, managed-by,
 * ownership, conditions ready/serving/terminating, at most 100 endpoints per slice),
 * https://kubernetes.io/docs/concepts/services-networking/service/#services-without-selectors,
 * reference 8.5, and cases.md C09 (a failing readiness probe takes the pod out of the Service
 * without restarting it). The fake kubelet makes bound pods Running and Ready with an IP; the
 * readiness flip is done with api.updateStatus as the kubelet's prober would.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';

interface Ep {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  targetRef: { kind: string; namespace: string; name: string; uid: string };
}

function cluster(settings?: Record<string, number>): TestCluster {
  return newTestCluster({ controllers: ['endpointslice'], scheduler: false, settings });
}

function service(c: TestCluster, name: string, spec: Record<string, unknown>): KubeObject {
  return c.api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec });
}

function pod(c: TestCluster, name: string, labels: Record<string, string>, node: string, ports?: { name: string; containerPort: number }[]): void {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'touch /tmp/ready; sleep 1d'], ...(ports ? { ports } : {}) }] },
  });
  c.api.bind('default', name, node);
}

function slicesOf(c: TestCluster, svc: string): KubeObject[] {
  return c.api.list('endpointslices', { namespace: 'default', labelSelector: `kubernetes.io/service-name=${svc}` }).items;
}

function endpoints(c: TestCluster, svc: string): Ep[] {
  return slicesOf(c, svc).flatMap((s) => (s.endpoints ?? []) as Ep[]);
}

/** What the kubelet's prober writes when readiness fails or recovers (conditions + container ready). */
function setReady(c: TestCluster, name: string, ready: boolean): void {
  const p = c.api.get('pods', 'default', name);
  const now = c.clock.rfc3339();
  p.status.conditions = p.status.conditions.map((x: { type: string; status: string }) =>
    x.type === 'Ready' || x.type === 'ContainersReady'
      ? { ...x, status: ready ? 'True' : 'False', lastTransitionTime: now, ...(ready ? { reason: undefined, message: undefined } : { reason: 'ContainersNotReady', message: 'containers with unready status: [app]' }) }
      : x,
  );
  for (const cs of p.status.containerStatuses) cs.ready = ready;
  c.api.updateStatus(p);
}

describe('endpointslice-controller', () => {
  it('writes one EndpointSlice per Service with the real labels, owner, ports and endpoints', () => {
    const c = cluster();
    c.run(1000);
    const svc = service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80, targetPort: 8080 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    pod(c, 'api-b', { app: 'api' }, 'worker-2');
    pod(c, 'other', { app: 'other' }, 'worker-1');
    c.run(3000);
    const slices = slicesOf(c, 'api');
    expect(slices).toHaveLength(1);
    const s = slices[0];
    expect(s.metadata.name).toMatch(/^api-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(s.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'api', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(s.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'api', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(s.addressType).toBe('IPv4');
    expect(s.ports).toEqual([{ name: '', protocol: 'TCP', port: 8080 }]);
    const eps = (s.endpoints as Ep[]).slice().sort((a, b) => a.targetRef.name.localeCompare(b.targetRef.name));
    const podA = c.api.get('pods', 'default', 'api-a');
    expect(eps).toHaveLength(2);
    expect(eps[0]).toEqual({
      addresses: [podA.status.podIP],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: 'worker-1',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'api-a', uid: podA.metadata.uid },
    });
    expect(s.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('C09: failing readiness takes the pod out of the Service (ready=false) without restarting it; it comes back when ready again', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80, targetPort: 8080 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    pod(c, 'api-b', { app: 'api' }, 'worker-2');
    c.run(20_000);
    expect(endpoints(c, 'api').filter((e) => e.conditions.ready)).toHaveLength(2);
    const ipA = c.api.get('pods', 'default', 'api-a').status.podIP;

    setReady(c, 'api-a', false); // readiness probe failing
    c.run(20_000);
    const eps = endpoints(c, 'api');
    expect(eps.filter((e) => e.conditions.ready)).toHaveLength(1); // "addresses has length 1"
    expect(eps.find((e) => !e.conditions.ready)).toMatchObject({ addresses: [ipA], conditions: { ready: false, serving: false, terminating: false } }); // notReadyAddresses
    const a = c.api.get('pods', 'default', 'api-a');
    expect(a.status.phase).toBe('Running');
    expect(a.status.containerStatuses[0].restartCount).toBe(0);

    setReady(c, 'api-a', true); // touch /tmp/ready
    c.run(10_000);
    expect(endpoints(c, 'api').filter((e) => e.conditions.ready)).toHaveLength(2);
    expect(slicesOf(c, 'api')).toHaveLength(1); // updated in place
  });

  it('a terminating pod stays listed: ready=false, serving=true, terminating=true; then it goes', () => {
    const c = newTestCluster({ controllers: ['endpointslice'], scheduler: false, kubelet: { terminateMs: 5000 } });
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    c.run(3000);
    c.api.delete('pods', 'default', 'api-a');
    c.run(100);
    expect(endpoints(c, 'api')).toMatchObject([{ conditions: { ready: false, serving: true, terminating: true } }]);
    c.run(6000);
    // No endpoints left: one empty placeholder slice remains.
    const slices = slicesOf(c, 'api');
    expect(slices).toHaveLength(1);
    expect(slices[0].endpoints ?? []).toEqual([]);
  });

  it('resolves named targetPorts against the pods container ports', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] });
    pod(c, 'web-a', { app: 'web' }, 'worker-1', [{ name: 'http', containerPort: 8080 }]);
    c.run(3000);
    const [s] = slicesOf(c, 'web');
    expect(s.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8080 }]);
    expect(s.endpoints).toHaveLength(1);
  });

  it('a Service with a selector and no pods gets one empty placeholder slice; one without selector gets none', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'empty', { selector: { app: 'nothing' }, ports: [{ port: 80 }] });
    service(c, 'manual', { ports: [{ port: 80 }] });
    c.run(3000);
    const slices = slicesOf(c, 'empty');
    expect(slices).toHaveLength(1);
    expect(slices[0].endpoints).toBeNull();
    expect(slices[0].ports).toBeNull();
    expect(slicesOf(c, 'manual')).toHaveLength(0);
    expect(slicesOf(c, 'kubernetes')).toHaveLength(0);
  });

  it('puts at most --max-endpoints-per-slice endpoints in a slice', () => {
    const c = cluster({ maxEndpointsPerSlice: 2 });
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    for (const n of ['a', 'b', 'c']) pod(c, `api-${n}`, { app: 'api' }, 'worker-1');
    c.run(5000);
    const sizes = slicesOf(c, 'api').map((s) => (s.endpoints as Ep[]).length).sort();
    expect(sizes).toEqual([1, 2]);
    expect(endpoints(c, 'api')).toHaveLength(3);
  });

  it('labels changes move pods in and out of the Service', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    pod(c, 'api-b', { app: 'api' }, 'worker-1');
    c.run(3000);
    expect(endpoints(c, 'api')).toHaveLength(2);
    c.api.patch('pods', 'default', 'api-b', 'merge', { metadata: { labels: { app: 'debug' } } });
    c.run(2000);
    expect(endpoints(c, 'api').map((e) => e.targetRef.name)).toEqual(['api-a']);
  });

  it('a Service deleted and created again under the same name gets fresh slices (old ones are not reused)', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    c.run(3000);
    const [old] = slicesOf(c, 'api');
    // No garbage collector in this cluster: the old slice stays until this controller deletes it.
    c.api.delete('services', 'default', 'api');
    const svc2 = service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    c.run(3000);
    const slices = slicesOf(c, 'api');
    expect(slices).toHaveLength(1);
    expect(slices[0].metadata.name).not.toBe(old.metadata.name);
    expect(slices[0].metadata.ownerReferences?.[0].uid).toBe(svc2.metadata.uid);
    expect((slices[0].endpoints as Ep[]).map((e) => e.targetRef.name)).toEqual(['api-a']);
    expect(c.api.tryGet('endpointslices', 'default', old.metadata.name!)).toBeUndefined();
  });

  it('puts back a slice someone edited', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    c.run(3000);
    const [s] = slicesOf(c, 'api');
    c.api.patch('endpointslices', 'default', s.metadata.name!, 'merge', { endpoints: [] });
    c.run(3000);
    expect(endpoints(c, 'api').map((e) => e.targetRef.name)).toEqual(['api-a']);
  });
});
