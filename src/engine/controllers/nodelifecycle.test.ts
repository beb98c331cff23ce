/**
 * node-lifecycle-controller, checked against documented behaviour:
 * reference section 7 (k8s-semantics.md), pkg/controller/nodelifecycle/node_lifecycle_controller.go,
 * and cases.md C10 (the node half).
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, CASES_NODES, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';
import { computeZoneState, getZoneKey } from './nodelifecycle';
import { parseRfc3339 } from '../clock';

const G = 50_000; // node-monitor-grace-period from 1.32

function node(c: TestCluster, name: string): KubeObject {
  return c.api.get('nodes', undefined, name);
}
function cond(n: KubeObject, type: string) {
  return (n.status.conditions as { type: string; status: string; reason?: string; message?: string; lastHeartbeatTime?: string; lastTransitionTime?: string }[]).find(
    (x) => x.type === type,
  )!;
}
function taints(n: KubeObject): string[] {
  return ((n.spec.taints ?? []) as { key: string; effect: string }[]).map((t) => `${t.key}:${t.effect}`);
}
function barePod(name: string, nodeName: string): string {
  return `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {app: web}}
spec:
  nodeName: ${nodeName}
  containers: [{name: nginx, image: nginx:1.14.2}]
`;
}
/** The time of the last lease renewal of a node (virtual ms). */
function lastRenew(c: TestCluster, name: string): number {
  return parseRfc3339(c.api.get('leases', 'kube-node-lease', name).spec.renewTime) - c.clock.epochMs;
}

describe('node-lifecycle-controller', () => {
  it('registers every node it sees (Event RegisteredNode from node-controller)', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(1000);
    const reg = c.events.filter((e) => e.reason === 'RegisteredNode');
    expect(reg.map((e) => e.message)).toEqual([
      'Node cp-1 event: Registered Node cp-1 in Controller',
      'Node worker-1 event: Registered Node worker-1 in Controller',
      'Node worker-2 event: Registered Node worker-2 in Controller',
    ]);
    expect(reg.every((e) => e.component === 'node-controller' && e.type === 'Normal' && e.involvedObject.kind === 'Node')).toBe(true);
  });

  it('forgets a deleted node on its next pass (Event RemovingNode), once', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(1000);
    c.kubelet.stopNode('worker-2');
    c.api.delete('nodes', undefined, 'worker-2');
    c.run(20_000);
    const removing = c.events.filter((e) => e.reason === 'RemovingNode');
    expect(removing.map((e) => e.message)).toEqual(['Node worker-2 event: Removing Node worker-2 from Controller']);
    expect(c.events.filter((e) => e.reason === 'RegisteredNode')).toHaveLength(3);
  });

  it('C10: a silent kubelet makes its node NotReady (Unknown) only after node-monitor-grace-period', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.apply(barePod('web-a', 'worker-2'));
    c.apply(barePod('web-b', 'worker-2'));
    // The kubelet renews its Lease every 10 s (at 10 s, 20 s, 30 s ...); it dies between two renewals.
    c.run(35_000);
    expect(c.pods().every((p) => p.status.phase === 'Running')).toBe(true);
    c.kubelet.stopNode('worker-2');
    const stoppedAt = c.clock.now();
    expect(lastRenew(c, 'worker-2')).toBe(30_000);

    // t < G: nothing changes (the kubelet may simply be slow).
    c.run(G - 10_000);
    expect(cond(node(c, 'worker-2'), 'Ready').status).toBe('True');
    expect(taints(node(c, 'worker-2'))).toEqual([]);

    // t = G + 10 s: NotReady, with the real reason and message on all four kubelet conditions.
    c.run(stoppedAt + G + 10_000 - c.clock.now());
    const n = node(c, 'worker-2');
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      expect(cond(n, type)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    }
    // lastHeartbeatTime keeps the kubelet's last post; lastTransitionTime is when it went Unknown.
    expect(cond(n, 'Ready').lastHeartbeatTime).toBe(c.clock.rfc3339(0));
    expect(cond(n, 'Ready').lastTransitionTime! >= c.clock.rfc3339(stoppedAt + G)).toBe(true);
    expect(taints(n)).toContain('node.kubernetes.io/unreachable:NoSchedule');
    // The other nodes are untouched.
    expect(cond(node(c, 'worker-1'), 'Ready').status).toBe('True');

    const nodeEvents = c.events.filter((e) => e.involvedObject.name === 'worker-2' && e.reason === 'NodeNotReady');
    expect(nodeEvents).toHaveLength(1);
    expect(nodeEvents[0]).toMatchObject({ component: 'node-controller', type: 'Normal', message: 'Node worker-2 status is now: NodeNotReady' });

    // Pods there: Ready=False (out of Service endpoints) but phase still Running.
    for (const p of c.pods()) {
      expect(p.status.phase).toBe('Running');
      expect(p.status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe('False');
      expect(p.metadata.deletionTimestamp).toBeUndefined();
    }
    const podEvents = c.events.filter((e) => e.involvedObject.kind === 'Pod' && e.reason === 'NodeNotReady');
    expect(podEvents.map((e) => [e.involvedObject.name, e.type, e.message, e.component])).toEqual([
      ['web-a', 'Warning', 'Node is not ready', 'node-controller'],
      ['web-b', 'Warning', 'Node is not ready', 'node-controller'],
    ]);

    // One monitor pass later the NoExecute taint (the one that evicts) is there too, with timeAdded.
    c.run(10_000);
    const later = node(c, 'worker-2');
    expect(taints(later)).toEqual(['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
    for (const t of later.spec.taints) expect(t.timeAdded).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('adds the NoExecute taint one monitor pass after the NoSchedule one, then removes both when the kubelet is back', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(20_000);
    c.kubelet.stopNode('worker-1');
    c.run(G + 20_000);
    const n = node(c, 'worker-1');
    const byEffect = Object.fromEntries((n.spec.taints as { effect: string; timeAdded: string }[]).map((t) => [t.effect, t.timeAdded]));
    const gapS = (Date.parse(byEffect.NoExecute) - Date.parse(byEffect.NoSchedule)) / 1000;
    expect(gapS).toBeGreaterThanOrEqual(4);
    expect(gapS).toBeLessThanOrEqual(6);

    c.kubelet.startNode('worker-1');
    c.run(6_000);
    const back = node(c, 'worker-1');
    expect(cond(back, 'Ready')).toMatchObject({ status: 'True', reason: 'KubeletReady' });
    expect(cond(back, 'MemoryPressure').status).toBe('False');
    expect(taints(back)).toEqual([]);
  });

  it('node-monitor-grace-period is a setting (40 s, the pre-1.32 default)', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'], settings: { nodeMonitorGracePeriodMs: 40_000 } });
    c.run(20_000);
    c.kubelet.stopNode('worker-1');
    c.run(40_000 + 10_000);
    expect(cond(node(c, 'worker-1'), 'Ready').status).toBe('Unknown');
  });

  it('a node that never posted status gets NodeStatusNeverUpdated after node-startup-grace-period (60 s)', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.api.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'ghost', labels: { 'kubernetes.io/os': 'linux' } }, spec: {} });
    c.kubelet.stopNode('ghost'); // no kubelet ever renews its Lease
    c.run(55_000);
    expect(node(c, 'ghost').status?.conditions ?? []).toEqual([]);
    c.run(10_000);
    const n = node(c, 'ghost');
    expect(cond(n, 'Ready')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: n.metadata.creationTimestamp });
    expect(n.status.conditions.map((x: { type: string }) => x.type)).toEqual(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']);
    // The controller also fills in the beta OS label from the stable one (reconcileNodeLabels).
    expect(n.metadata.labels?.['beta.kubernetes.io/os']).toBe('linux');
  });

  it('a Ready=False node (kubelet reporting NotReady) gets the not-ready taints; the NodeNotReady events are then the kubelet\'s, not node-controller\'s', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(10_000);
    const n = node(c, 'worker-1');
    n.status.conditions = n.status.conditions.map((x: { type: string }) =>
      x.type === 'Ready' ? { ...x, status: 'False', reason: 'KubeletNotReady', message: 'container runtime network not ready', lastTransitionTime: c.clock.rfc3339() } : x,
    );
    c.api.updateStatus(n);
    c.run(11_000);
    expect(taints(node(c, 'worker-1'))).toEqual(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
    // node-controller only reports transitions it made itself (observed Ready=True -> now not True).
    expect(c.events.filter((e) => e.reason === 'NodeNotReady')).toEqual([]);
  });

  it('a cordoned node gets node.kubernetes.io/unschedulable:NoSchedule', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(1000);
    c.api.patch('nodes', undefined, 'worker-2', 'merge', { spec: { unschedulable: true } });
    c.run(1000);
    expect(taints(node(c, 'worker-2'))).toEqual(['node.kubernetes.io/unschedulable:NoSchedule']);
    c.api.patch('nodes', undefined, 'worker-2', 'merge', { spec: { unschedulable: null } });
    c.run(1000);
    expect(taints(node(c, 'worker-2'))).toEqual([]);
  });

  it('the kind cluster: both workers dead is still a Normal zone (2 not-Ready is not > 2): NoExecute taints 10 s apart (--node-eviction-rate 0.1)', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(20_000);
    c.kubelet.stopNode('worker-1');
    c.kubelet.stopNode('worker-2');
    c.run(G + 30_000);
    const t = (name: string) =>
      Date.parse((node(c, name).spec.taints as { effect: string; timeAdded: string }[]).find((x) => x.effect === 'NoExecute')!.timeAdded);
    expect(Math.abs(t('worker-2') - t('worker-1'))).toBe(10_000);
  });

  it('small cluster in PartialDisruption (3 of 5 not Ready >= 55 %): the secondary rate is 0, no NoExecute taints', () => {
    const nodes = [...CASES_NODES, { name: 'worker-3' }, { name: 'worker-4' }];
    const c = newTestCluster({ controllers: ['node-lifecycle'], nodes });
    c.run(20_000);
    for (const n of ['worker-2', 'worker-3', 'worker-4']) c.kubelet.stopNode(n);
    c.run(G + 60_000);
    for (const n of ['worker-2', 'worker-3', 'worker-4']) {
      expect(cond(node(c, n), 'Ready').status).toBe('Unknown');
      // NoSchedule follows the condition at once; NoExecute (evictions) is held back.
      expect(taints(node(c, n))).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    }
    expect(c.trace.list({ component: 'node-lifecycle-controller' }).some((e) => e.message.includes('is now PartialDisruption'))).toBe(true);

    // One comes back: 2 of 5 not Ready is Normal again, and the two left get their NoExecute taints.
    c.kubelet.startNode('worker-4');
    c.run(40_000);
    expect(taints(node(c, 'worker-2'))).toContain('node.kubernetes.io/unreachable:NoExecute');
    expect(taints(node(c, 'worker-3'))).toContain('node.kubernetes.io/unreachable:NoExecute');
    expect(taints(node(c, 'worker-4'))).toEqual([]);
  });

  it('FullDisruption: every node dead (probably the controller is cut off) -> no NoExecute taints at all', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(20_000);
    for (const n of ['cp-1', 'worker-1', 'worker-2']) c.kubelet.stopNode(n);
    c.run(G + 60_000);
    for (const n of ['worker-1', 'worker-2']) {
      expect(cond(node(c, n), 'Ready').status).toBe('Unknown');
      expect(taints(node(c, n))).toEqual(['node.kubernetes.io/unreachable:NoSchedule']);
    }
    expect(c.trace.list().some((e) => e.message === 'Controller detected that all Nodes are not-Ready. Entering master disruption mode')).toBe(true);

    // A node Ready again ends the disruption mode; the still-dead ones then get tainted (after a fresh grace period).
    c.kubelet.startNode('cp-1');
    c.run(10_000);
    expect(c.trace.list().some((e) => e.message === 'Controller detected that some Nodes are Ready. Exiting master disruption mode')).toBe(true);
    c.run(30_000);
    expect(taints(node(c, 'worker-1'))).toContain('node.kubernetes.io/unreachable:NoExecute');
  });

  it('a restarted controller-manager forgets its probe times: RegisteredNode again, and a dead node is still NotReady', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle'] });
    c.run(20_000);
    c.kubelet.stopNode('worker-1');
    c.run(G + 20_000);
    expect(taints(node(c, 'worker-1'))).toContain('node.kubernetes.io/unreachable:NoExecute');
    c.stopControllerManager();
    c.startControllerManager();
    c.run(30_000);
    expect(c.events.filter((e) => e.reason === 'RegisteredNode')).toHaveLength(6);
    expect(cond(node(c, 'worker-1'), 'Ready').status).toBe('Unknown');
    expect(taints(node(c, 'worker-1'))).toContain('node.kubernetes.io/unreachable:NoExecute');
  });

  it('computeZoneState and getZoneKey follow the real rules', () => {
    const r = (s: string) => ({ type: 'Ready', status: s });
    expect(computeZoneState([r('True'), r('Unknown'), r('Unknown')], 0.55)).toEqual([2, 'Normal']);
    expect(computeZoneState([r('True'), r('Unknown'), r('Unknown'), r('False')], 0.55)).toEqual([3, 'PartialDisruption']);
    expect(computeZoneState([r('True'), r('True'), r('Unknown'), r('Unknown'), r('Unknown'), r('True')], 0.55)).toEqual([3, 'Normal']);
    expect(computeZoneState([r('Unknown'), undefined], 0.55)).toEqual([2, 'FullDisruption']);
    expect(getZoneKey({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels: {} } })).toBe('');
    expect(getZoneKey({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels: { 'topology.kubernetes.io/zone': 'a', 'topology.kubernetes.io/region': 'r' } } })).toBe('r:\x00:a');
  });
});
