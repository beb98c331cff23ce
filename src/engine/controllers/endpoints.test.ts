/**
 * endpoints-controller (legacy v1 Endpoints), checked against
 * pkg/controller/endpoint/endpoints_controller.go, reference 8.5 ("Legacy Endpoints: ready pods in
 * `addresses`, not-ready in `notReadyAddresses`") and cases.md C09, whose expected values are
 * stated on Endpoints: while readiness fails, `addresses` has length 1 and `notReadyAddresses`
 * holds pod A's IP, with 0 restarts; after the restore, 2 addresses. The fake kubelet makes bound
 * pods Running and Ready with an IP; the readiness flip is written as the kubelet's prober would.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';
import { repackSubsets, type EndpointSubset } from './endpoints';

function cluster(): TestCluster {
  return newTestCluster({ controllers: ['endpoint'], scheduler: false });
}

function service(c: TestCluster, name: string, spec: Record<string, unknown>, labels?: Record<string, string>): KubeObject {
  return c.api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) }, spec });
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

function setReady(c: TestCluster, name: string, ready: boolean): void {
  const p = c.api.get('pods', 'default', name);
  const now = c.clock.rfc3339();
  p.status.conditions = p.status.conditions.map((x: { type: string; status: string }) =>
    x.type === 'Ready' || x.type === 'ContainersReady' ? { ...x, status: ready ? 'True' : 'False', lastTransitionTime: now } : x,
  );
  for (const cs of p.status.containerStatuses) cs.ready = ready;
  c.api.updateStatus(p);
}

type Subset = Required<Pick<EndpointSubset, 'addresses' | 'notReadyAddresses' | 'ports'>>;
const ep = (c: TestCluster, name: string) => c.api.tryGet('endpoints', 'default', name) as (KubeObject & { subsets: Subset[] }) | undefined;

describe('endpoints-controller', () => {
  it('writes Endpoints named after the Service: labels copied, ready pods in addresses with nodeName and targetRef, the resolved port', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] }, { tier: 'backend' });
    pod(c, 'api-a', { app: 'api' }, 'worker-1', [{ name: 'http', containerPort: 8080 }]);
    pod(c, 'api-b', { app: 'api' }, 'worker-2', [{ name: 'http', containerPort: 8080 }]);
    c.run(3000);
    const e = ep(c, 'api')!;
    expect(e.metadata.labels).toEqual({ tier: 'backend' });
    expect(e.metadata.ownerReferences).toBeUndefined();
    expect(e.subsets).toHaveLength(1);
    const [s] = e.subsets;
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(s.notReadyAddresses).toBeUndefined();
    const a = c.api.get('pods', 'default', 'api-a');
    const b = c.api.get('pods', 'default', 'api-b');
    const byIp = [a, b].sort((x, y) => (x.status.podIP < y.status.podIP ? -1 : 1));
    expect(s.addresses.map((x: { ip: string }) => x.ip)).toEqual(byIp.map((p) => p.status.podIP)); // sorted by IP
    expect(s.addresses.find((x: { ip: string }) => x.ip === a.status.podIP)).toEqual({
      ip: a.status.podIP,
      nodeName: 'worker-1',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'api-a', uid: a.metadata.uid },
    });
  });

  it('C09: a pod failing readiness moves to notReadyAddresses, keeps 0 restarts, and comes back after it is ready again', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80, targetPort: 8080 }] });
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    pod(c, 'api-b', { app: 'api' }, 'worker-2');
    c.run(20_000);
    expect(ep(c, 'api')!.subsets[0].addresses).toHaveLength(2);
    const ipA = c.api.get('pods', 'default', 'api-a').status.podIP;

    setReady(c, 'api-a', false);
    c.run(20_000);
    const [s] = ep(c, 'api')!.subsets;
    expect(s.addresses).toHaveLength(1);
    expect(s.notReadyAddresses.map((x: { ip: string }) => x.ip)).toEqual([ipA]);
    expect(c.api.get('pods', 'default', 'api-a').status.containerStatuses[0].restartCount).toBe(0);

    setReady(c, 'api-a', true);
    c.run(10_000);
    const after = ep(c, 'api')!.subsets;
    expect(after).toHaveLength(1);
    expect(after[0].addresses).toHaveLength(2);
    expect(after[0].notReadyAddresses).toBeUndefined();
  });

  it('no selected pods: Endpoints without subsets; a terminating pod leaves at once; the Service deleted takes its Endpoints', () => {
    const c = newTestCluster({ controllers: ['endpoint'], scheduler: false, kubelet: { terminateMs: 5000 } });
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    c.run(1000);
    expect(ep(c, 'api')!.subsets).toBeUndefined();
    pod(c, 'api-a', { app: 'api' }, 'worker-1');
    c.run(3000);
    expect(ep(c, 'api')!.subsets[0].addresses).toHaveLength(1);
    c.api.delete('pods', 'default', 'api-a');
    c.run(100);
    expect(c.api.tryGet('pods', 'default', 'api-a')?.metadata.deletionTimestamp).toBeTruthy(); // still terminating
    expect(ep(c, 'api')!.subsets).toBeUndefined(); // ShouldPodBeInEndpoints(includeTerminating=false)
    c.api.delete('services', 'default', 'api');
    c.run(1000);
    expect(ep(c, 'api')).toBeUndefined();
  });

  it('a deleted Endpoints is written again; a selector-less Service gets none; a headless one is labelled', () => {
    const c = cluster();
    c.run(1000);
    service(c, 'api', { selector: { app: 'api' }, ports: [{ port: 80 }] });
    service(c, 'manual', { ports: [{ port: 80 }] });
    service(c, 'db', { selector: { app: 'db' }, clusterIP: 'None', ports: [{ port: 5432 }] });
    c.run(1000);
    expect(ep(c, 'manual')).toBeUndefined();
    expect(ep(c, 'db')!.metadata.labels).toEqual({ 'service.kubernetes.io/headless': '' });
    const uid = ep(c, 'api')!.metadata.uid;
    c.api.delete('endpoints', 'default', 'api');
    c.run(1000);
    expect(ep(c, 'api')!.metadata.uid).not.toBe(uid);
  });

  it('RepackSubsets groups addresses offering the same ports and keeps ready before not-ready per address', () => {
    const a = { ip: '10.0.0.2' };
    const b = { ip: '10.0.0.1' };
    const http = { name: 'http', port: 80, protocol: 'TCP' };
    const metrics = { name: 'metrics', port: 9090, protocol: 'TCP' };
    const out = repackSubsets([
      { addr: a, port: http, ready: true },
      { addr: a, port: metrics, ready: true },
      { addr: b, port: http, ready: false },
      { addr: b, port: metrics, ready: false },
    ]);
    expect(out).toEqual([{ addresses: [a], notReadyAddresses: [b], ports: [http, metrics] }]);
  });
});
