/**
 * kube-scheduler, observed as a user sees it: where pods land (`spec.nodeName`), their
 * PodScheduled condition, and the `Scheduled` / `FailedScheduling` Events from
 * `default-scheduler`. Cases from /work/shared/cases/cases.md (C03, C04, C24) and the manifests of
 * /work/shared/corpus/manifests (INDEX.md gives the expected outcomes); messages follow
 * pkg/scheduler/framework/types.go (`FitError.Error`) and reference section 5.
 *
 * The cluster is `newTestCluster` (cp-1 tainted control plane, worker-1, worker-2, 2 CPU / 4Gi
 * each) with no controllers, so pods are created directly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';
import { numFeasibleNodesToFind } from './scheduler';
import { fitErrorMessage } from './framework';

const MANIFESTS = new URL('../../../fixtures/corpus/manifests/', import.meta.url);
const TAINT = '1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }';

interface PodOpts {
  labels?: Record<string, string>;
  cpu?: string;
  memory?: string;
  nodeName?: string;
  hostPort?: number;
  priorityClassName?: string;
  preemptionPolicy?: string;
  schedulerName?: string;
  namespace?: string;
  spec?: Record<string, unknown>;
  ownerReferences?: KubeObject['metadata']['ownerReferences'];
}

function makePod(name: string, o: PodOpts = {}): KubeObject {
  const requests: Record<string, string> = {};
  if (o.cpu) requests.cpu = o.cpu;
  if (o.memory) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'default', labels: o.labels ?? { app: name }, ...(o.ownerReferences ? { ownerReferences: o.ownerReferences } : {}) },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          ...(Object.keys(requests).length ? { resources: { requests } } : {}),
          ...(o.hostPort ? { ports: [{ containerPort: 80, hostPort: o.hostPort }] } : {}),
        },
      ],
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...(o.priorityClassName ? { priorityClassName: o.priorityClassName } : {}),
      ...(o.preemptionPolicy ? { preemptionPolicy: o.preemptionPolicy } : {}),
      ...(o.schedulerName ? { schedulerName: o.schedulerName } : {}),
      ...(o.spec ?? {}),
    },
  };
}

function create(c: TestCluster, name: string, o: PodOpts = {}): KubeObject {
  return c.api.create(makePod(name, o));
}

function pod(c: TestCluster, name: string, ns = 'default'): KubeObject {
  return c.api.get('pods', ns, name);
}

/** Events about a pod from default-scheduler, oldest first. */
function schedEvents(c: TestCluster, name: string) {
  return c.events.filter((e) => e.component === 'default-scheduler' && e.involvedObject.name === name);
}

function lastFailure(c: TestCluster, name: string): string | undefined {
  return schedEvents(c, name)
    .filter((e) => e.reason === 'FailedScheduling')
    .at(-1)?.message;
}

function scheduledCondition(p: KubeObject) {
  return (p.status?.conditions ?? []).find((x: { type: string }) => x.type === 'PodScheduled');
}

function manifest(file: string): string {
  return readFileSync(new URL(file, MANIFESTS), 'utf8');
}

describe('FailedScheduling message (reference 5.4, types.go FitError.Error)', () => {
  it('sorts the histogram as strings and appends the preemption part', () => {
    const msg = fitErrorMessage(3, {
      nodeToStatus: new Map([
        ['cp-1', { code: 'UnschedulableAndUnresolvable', plugin: 'TaintToleration', reasons: ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'] }],
        ['worker-1', { code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons: ['Insufficient memory'] }],
        ['worker-2', { code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons: ['Insufficient memory'] }],
      ]),
      unschedulablePlugins: new Set(),
      postFilterMsg: 'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    });
    expect(msg).toBe(
      `0/3 nodes are available: ${TAINT}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
  });

  it('puts "10 ..." before "2 ..." (byte order, as sort.Strings)', () => {
    const statuses = new Map<string, { code: 'Unschedulable'; plugin: string; reasons: string[] }>();
    for (let i = 0; i < 10; i++) statuses.set(`a${i}`, { code: 'Unschedulable', plugin: 'NodePorts', reasons: ["node(s) didn't have free ports for the requested pod ports"] });
    for (let i = 0; i < 2; i++) statuses.set(`b${i}`, { code: 'Unschedulable', plugin: 'NodeResourcesFit', reasons: ['Insufficient cpu'] });
    expect(fitErrorMessage(12, { nodeToStatus: statuses, unschedulablePlugins: new Set() })).toBe(
      "0/12 nodes are available: 10 node(s) didn't have free ports for the requested pod ports, 2 Insufficient cpu.",
    );
  });
});

describe('numFeasibleNodesToFind (schedule_one.go)', () => {
  it('examines every node below 100 and an adaptive share above, never fewer than 100', () => {
    expect(numFeasibleNodesToFind(0, 3)).toBe(3);
    expect(numFeasibleNodesToFind(0, 99)).toBe(99);
    expect(numFeasibleNodesToFind(0, 100)).toBe(100); // 50% of 100 = 50, raised to 100
    expect(numFeasibleNodesToFind(0, 500)).toBe(230); // 50 - 500/125 = 46%
    expect(numFeasibleNodesToFind(0, 1000)).toBe(420); // 42%
    expect(numFeasibleNodesToFind(0, 10_000)).toBe(500); // floor of 5%
    expect(numFeasibleNodesToFind(10, 5000)).toBe(500);
  });
});

describe('C03: Pending with "Insufficient cpu", counting the tainted control plane', () => {
  it('places 2 of 3 pods requesting 1500m, one per worker; the third gets the exact FailedScheduling message', () => {
    const c = newTestCluster({ controllers: [] });
    for (const n of ['hungry-1', 'hungry-2', 'hungry-3']) create(c, n, { labels: { app: 'hungry' }, cpu: '1500m' });
    c.run(30_000);
    const pods = c.pods('default', 'app=hungry');
    const running = pods.filter((p) => p.status.phase === 'Running');
    const pending = pods.filter((p) => p.status.phase === 'Pending');
    expect(running).toHaveLength(2);
    expect(running.map((p) => p.spec.nodeName).sort()).toEqual(['worker-1', 'worker-2']);
    expect(pending).toHaveLength(1);
    const p = pending[0];
    const expected = `0/3 nodes are available: ${TAINT}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`;
    expect(lastFailure(c, p.metadata.name!)).toBe(expected);
    const cond = scheduledCondition(p);
    expect(cond).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: expected });
    const ev = c.events.find((e) => e.reason === 'FailedScheduling')!;
    expect(ev.type).toBe('Warning');
    // The running pods got `Scheduled` events.
    for (const r of running) expect(schedEvents(c, r.metadata.name!).map((e) => `${e.reason} ${e.message}`)).toEqual([`Scheduled Successfully assigned default/${r.metadata.name} to ${r.spec.nodeName}`]);
  });

  it('names memory the same way (the reference example: 2 Insufficient memory)', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'big', { memory: '5Gi' });
    c.run(5_000);
    expect(lastFailure(c, 'big')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
  });

  it('counts pods bound directly by nodeName and does not overcommit within one burst', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'direct', { nodeName: 'worker-1', cpu: '1500m' });
    c.run(2_000);
    for (let i = 0; i < 4; i++) create(c, `one-${i}`, { cpu: '1' });
    c.run(10_000);
    const placed = [0, 1, 2, 3].map((i) => pod(c, `one-${i}`).spec.nodeName).filter(Boolean);
    // worker-1 has 500m left: only worker-2 takes 1-CPU pods, two of them.
    expect(placed).toEqual(['worker-2', 'worker-2']);
    expect(lastFailure(c, 'one-2')).toContain('2 Insufficient cpu');
  });
});

describe('NodeResourcesFit details (reference 5.2)', () => {
  it('counts the largest init container, ephemeral-storage and the pods allocatable', () => {
    const c = newTestCluster({
      controllers: [],
      nodes: [
        { name: 'cp-1', labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
        { name: 'worker-1' },
        { name: 'worker-2', pods: '1' },
      ],
    });
    create(c, 'direct', { nodeName: 'worker-1', cpu: '500m' });
    c.run(2_000);
    // Effective request = max(app 100m, init 1600m) = 1600m: worker-1 has 1500m left, worker-2 has room.
    create(c, 'init-heavy', {
      cpu: '100m',
      spec: { initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['true'], resources: { requests: { cpu: '1600m' } } }] },
    });
    c.run(5_000);
    expect(pod(c, 'init-heavy').spec.nodeName).toBe('worker-2');
    // worker-2 allows 1 pod; worker-1 lacks cpu.
    create(c, 'another', { cpu: '1600m' });
    create(c, 'disk', { spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { 'ephemeral-storage': '200Gi' } } }] } });
    c.run(5_000);
    // Every insufficient resource is a reason of its own; "T" sorts before "n" (byte order).
    expect(lastFailure(c, 'another')).toBe(
      `0/3 nodes are available: 1 Too many pods, ${TAINT}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
    expect(lastFailure(c, 'disk')).toBe(
      `0/3 nodes are available: 1 Too many pods, ${TAINT}, 2 Insufficient ephemeral-storage. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
  });

  it('a DaemonSet-style pod (matchFields metadata.name) is examined on its node only', () => {
    const c = newTestCluster({ controllers: [] });
    const onNode = (node: string) => ({
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } },
      tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
    });
    create(c, 'ds-cp', { spec: onNode('cp-1') });
    create(c, 'ds-big', { cpu: '3', spec: onNode('worker-1') });
    c.run(5_000);
    expect(pod(c, 'ds-cp').spec.nodeName).toBe('cp-1');
    expect(lastFailure(c, 'ds-big')).toBe(
      "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
  });
});

describe('C04: a nodeSelector aimed at the control plane, without a toleration', () => {
  it('stays Pending with both reasons; adding the toleration lands it on cp-1', () => {
    const c = newTestCluster({ controllers: [] });
    const base = `apiVersion: v1
kind: Pod
metadata: {name: on-cp}
spec:
  nodeSelector: {node-role.kubernetes.io/control-plane: ""}
  containers: [{name: c, image: "busybox:1.36", command: ["sleep", "3600"]}]
`;
    c.apply(base);
    c.run(20_000);
    expect(pod(c, 'on-cp').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'on-cp')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
    expect(c.apply(base.replace('  containers:', '  tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]\n  containers:'))).toEqual(['pod/on-cp configured']);
    c.run(20_000);
    const p = pod(c, 'on-cp');
    expect(p.spec.nodeName).toBe('cp-1');
    expect(p.status.phase).toBe('Running');
    expect(schedEvents(c, 'on-cp').at(-1)).toMatchObject({ reason: 'Scheduled', message: 'Successfully assigned default/on-cp to cp-1' });
  });
});

describe('C24: kube-scheduler is down', () => {
  it('leaves new pods Pending with no events at all; a new scheduler process relists and places them', () => {
    const c = newTestCluster({ controllers: [] });
    c.run(1_000);
    c.stopScheduler();
    create(c, 'web-1', { labels: { app: 'web' } });
    create(c, 'web-2', { labels: { app: 'web' } });
    create(c, 'pinned', { nodeName: 'worker-1' });
    c.run(60_000);
    for (const n of ['web-1', 'web-2']) {
      const p = pod(c, n);
      expect(p.status.phase).toBe('Pending');
      expect(p.spec.nodeName).toBeUndefined();
      expect(c.events.filter((e) => e.involvedObject.name === n)).toEqual([]);
    }
    expect(pod(c, 'pinned').status.phase).toBe('Running');
    const holderBefore = c.api.get('leases', 'kube-system', 'kube-scheduler').spec.holderIdentity;

    c.startScheduler();
    c.run(20_000);
    for (const n of ['web-1', 'web-2']) {
      const p = pod(c, n);
      expect(p.status.phase).toBe('Running');
      expect(schedEvents(c, n).map((e) => e.message)).toEqual([`Successfully assigned default/${n} to ${p.spec.nodeName}`]);
      expect(p.spec.nodeName).toMatch(/^worker-/);
    }
    expect(schedEvents(c, 'pinned')).toEqual([]);
    expect(c.api.get('leases', 'kube-system', 'kube-scheduler').spec.holderIdentity).not.toBe(holderBefore);
  });

  it('a restarted scheduler accounts for pods already bound (their requests count on their nodes)', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'a', { cpu: '1500m' });
    create(c, 'b', { cpu: '1500m' });
    c.run(5_000);
    c.stopScheduler();
    c.run(30_000);
    c.startScheduler();
    create(c, 'c', { cpu: '1500m' });
    c.run(10_000);
    expect(pod(c, 'c').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'c')).toContain('2 Insufficient cpu');
  });
});

describe('spreading (default profile scores)', () => {
  it('puts 6 replicas of a ReplicaSet 3/3 on the two workers', () => {
    const c = newTestCluster({ controllers: [] });
    const rs = c.api.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-5d8f7', namespace: 'default' },
      spec: { replicas: 6, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
    });
    const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name!, uid: rs.metadata.uid!, controller: true, blockOwnerDeletion: true }];
    for (let i = 0; i < 6; i++) create(c, `web-5d8f7-${i}`, { labels: { app: 'web' }, ownerReferences: owner });
    c.run(10_000);
    const nodes = c.pods('default', 'app=web').map((p) => p.spec.nodeName);
    expect(nodes.filter((n) => n === 'worker-1')).toHaveLength(3);
    expect(nodes.filter((n) => n === 'worker-2')).toHaveLength(3);
  });

  it('spreads bare pods with requests too (LeastAllocated, BalancedAllocation)', () => {
    const c = newTestCluster({ controllers: [] });
    for (let i = 0; i < 6; i++) create(c, `bare-${i}`, { cpu: '100m', memory: '128Mi' });
    c.run(10_000);
    const nodes = [0, 1, 2, 3, 4, 5].map((i) => pod(c, `bare-${i}`).spec.nodeName);
    expect(nodes.filter((n) => n === 'worker-1')).toHaveLength(3);
    expect(nodes.filter((n) => n === 'worker-2')).toHaveLength(3);
  });

  it('honours a DoNotSchedule topology spread constraint; the tainted control plane counts as an empty domain', () => {
    const c = newTestCluster({ controllers: [] });
    const tsc = (key: string, taints?: string) => ({
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: key, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'spread' } }, ...(taints ? { nodeTaintsPolicy: taints } : {}) }],
    });
    // nodeTaintsPolicy defaults to Ignore: cp-1 is a domain with 0 pods, so maxSkew 1 allows one pod per worker.
    for (let i = 0; i < 3; i++) create(c, `spread-${i}`, { labels: { app: 'spread' }, spec: tsc('kubernetes.io/hostname') });
    c.run(10_000);
    expect([0, 1].map((i) => pod(c, `spread-${i}`).spec.nodeName).sort()).toEqual(['worker-1', 'worker-2']);
    expect(pod(c, 'spread-2').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'spread-2')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
    // nodeTaintsPolicy: Honor leaves cp-1 out: 4 pods spread 2/2.
    for (let i = 0; i < 4; i++) create(c, `honor-${i}`, { labels: { app: 'honor' }, spec: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'honor' } }, nodeTaintsPolicy: 'Honor' }] } });
    c.run(10_000);
    expect([0, 1, 2, 3].map((i) => pod(c, `honor-${i}`).spec.nodeName).sort()).toEqual(['worker-1', 'worker-1', 'worker-2', 'worker-2']);
    create(c, 'zoned', { labels: { app: 'zoned' }, spec: tsc('topology.kubernetes.io/zone') });
    c.run(5_000);
    expect(lastFailure(c, 'zoned')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't match pod topology spread constraints (missing required label). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
  });
});

describe('NodePorts', () => {
  it('does not put two pods with the same hostPort on one node', () => {
    const c = newTestCluster({ controllers: [] });
    for (const n of ['port-1', 'port-2', 'port-3']) create(c, n, { hostPort: 8080 });
    c.run(10_000);
    expect([pod(c, 'port-1').spec.nodeName, pod(c, 'port-2').spec.nodeName].sort()).toEqual(['worker-1', 'worker-2']);
    expect(pod(c, 'port-3').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'port-3')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
    // Freeing the port (deleting a pod on it) moves the parked pod back, and it lands there.
    const freed = pod(c, 'port-1').spec.nodeName;
    c.api.delete('pods', 'default', 'port-1');
    c.run(10_000);
    expect(pod(c, 'port-3').spec.nodeName).toBe(freed);
  });
});

describe('nodeName set directly', () => {
  it('bypasses the scheduler, even onto the tainted control plane', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'pinned', { nodeName: 'worker-1' });
    create(c, 'on-cp', { nodeName: 'cp-1' });
    c.run(5_000);
    expect(pod(c, 'pinned').status.phase).toBe('Running');
    expect(pod(c, 'on-cp').spec.nodeName).toBe('cp-1');
    expect(pod(c, 'on-cp').status.phase).toBe('Running');
    expect(c.events.filter((e) => e.component === 'default-scheduler')).toEqual([]);
  });

  it('ignores pods of another scheduler', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'other', { schedulerName: 'my-scheduler' });
    c.run(10_000);
    expect(pod(c, 'other').spec.nodeName).toBeUndefined();
    expect(c.events.filter((e) => e.involvedObject.name === 'other')).toEqual([]);
  });
});

describe('scheduling gates (manifest #21 website__pods-pod-with-scheduling-gates.yaml)', () => {
  it('waits SchedulingGated without events, and is scheduled once both gates are removed', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(manifest('website__pods-pod-with-scheduling-gates.yaml'));
    c.run(30_000);
    let p = pod(c, 'test-pod');
    expect(p.spec.nodeName).toBeUndefined();
    expect(scheduledCondition(p)).toMatchObject({ status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
    expect(c.events.filter((e) => e.involvedObject.name === 'test-pod')).toEqual([]);
    // Remove one gate: still gated.
    p.spec.schedulingGates = [{ name: 'example.com/bar' }];
    c.api.update(p);
    c.run(10_000);
    expect(pod(c, 'test-pod').spec.nodeName).toBeUndefined();
    expect(c.events.filter((e) => e.involvedObject.name === 'test-pod')).toEqual([]);
    p = pod(c, 'test-pod');
    p.spec.schedulingGates = [];
    c.api.update(p);
    c.run(10_000);
    p = pod(c, 'test-pod');
    expect(p.spec.nodeName).toMatch(/^worker-/);
    expect(p.status.phase).toBe('Running');
    expect(schedEvents(c, 'test-pod').map((e) => e.reason)).toEqual(['Scheduled']);
  });
});

describe('taints: NoSchedule filters, PreferNoSchedule only scores', () => {
  const nodes = (effect1: string) => [
    { name: 'cp-1', labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
    { name: 'worker-1', taints: [{ key: 'dedicated', value: 'batch', effect: effect1 }] },
    { name: 'worker-2' },
  ];

  it('PreferNoSchedule: pods prefer the untainted worker but may use the tainted one', () => {
    const c = newTestCluster({ controllers: [], nodes: nodes('PreferNoSchedule') });
    create(c, 'p-1', { cpu: '500m' });
    create(c, 'p-2', { cpu: '500m' });
    c.run(5_000);
    expect(pod(c, 'p-1').spec.nodeName).toBe('worker-2');
    expect(pod(c, 'p-2').spec.nodeName).toBe('worker-2');
    // worker-2 full: the next one goes to the PreferNoSchedule worker rather than stay Pending.
    create(c, 'p-3', { cpu: '1500m' });
    c.run(5_000);
    expect(pod(c, 'p-3').spec.nodeName).toBe('worker-1');
  });

  it('NoSchedule: the tainted worker is filtered out and named in the message', () => {
    const c = newTestCluster({ controllers: [], nodes: nodes('NoSchedule') });
    create(c, 'n-1', { cpu: '1500m' });
    create(c, 'n-2', { cpu: '1500m' });
    c.run(5_000);
    expect(pod(c, 'n-1').spec.nodeName).toBe('worker-2');
    expect(pod(c, 'n-2').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'n-2')).toBe(
      `0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: batch}, ${TAINT}. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.`,
    );
  });

  it('with schedulerTaintDetailInMessage 0, uses the 1.35 wording without keys or values', () => {
    const c = newTestCluster({ controllers: [], settings: { schedulerTaintDetailInMessage: 0 } });
    create(c, 'big', { cpu: '3' });
    c.run(5_000);
    expect(lastFailure(c, 'big')).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
  });
});

describe('cordoned nodes (NodeUnschedulable)', () => {
  it('skips a cordoned node, and reports it before any other reason', () => {
    const c = newTestCluster({
      controllers: [],
      nodes: [
        { name: 'cp-1', labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
        { name: 'worker-1', unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
        { name: 'worker-2' },
      ],
    });
    create(c, 'a', { cpu: '1500m' });
    create(c, 'b', { cpu: '1500m' });
    c.run(5_000);
    expect(pod(c, 'a').spec.nodeName).toBe('worker-2');
    expect(lastFailure(c, 'b')).toBe(
      `0/3 nodes are available: 1 Insufficient cpu, ${TAINT}, 1 node(s) were unschedulable. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.`,
    );
    // Uncordon: the parked pod is retried and lands on worker-1.
    const n = c.api.get('nodes', undefined, 'worker-1');
    n.spec = { ...n.spec, unschedulable: false, taints: [] };
    c.api.update(n);
    c.run(3_000);
    expect(pod(c, 'b').spec.nodeName).toBe('worker-1');
  });
});

describe('a node that changes after pods passed its filters', () => {
  it('a worker tainted NoSchedule after pods of one shape landed there takes no more of that shape', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 's-1', { cpu: '100m' });
    create(c, 's-2', { cpu: '100m' });
    c.run(5_000);
    expect(new Set([pod(c, 's-1').spec.nodeName, pod(c, 's-2').spec.nodeName])).toEqual(new Set(['worker-1', 'worker-2']));
    const n = c.api.get('nodes', undefined, 'worker-1');
    n.spec = { ...n.spec, taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] };
    c.api.update(n);
    c.run(1_000);
    for (const name of ['s-3', 's-4', 's-5']) create(c, name, { cpu: '100m' });
    create(c, 's-big', { cpu: '1900m' });
    c.run(5_000);
    for (const name of ['s-3', 's-4', 's-5']) expect(pod(c, name).spec.nodeName).toBe('worker-2');
    expect(pod(c, 's-big').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 's-big')).toBe(
      `0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: batch}, ${TAINT}. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.`,
    );
  });
});

describe('node affinity manifests (corpus INDEX.md)', () => {
  it('#18 pod-nginx-nodeselector: Pending until worker-1 gets disktype=ssd, then scheduled there', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(manifest('website__pods-pod-nginx-nodeselector.yaml'));
    c.run(10_000);
    expect(pod(c, 'nginx').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'nginx')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
    const n = c.api.get('nodes', undefined, 'worker-1');
    n.metadata.labels = { ...n.metadata.labels, disktype: 'ssd' };
    c.api.update(n);
    c.run(5_000);
    expect(pod(c, 'nginx').spec.nodeName).toBe('worker-1');
    expect(schedEvents(c, 'nginx').at(-1)?.message).toBe('Successfully assigned default/nginx to worker-1');
  });

  it('#12 pod-with-toleration: a toleration permits but does not attract; it lands on a worker', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(manifest('website__pods-pod-with-toleration.yaml'));
    c.run(5_000);
    expect(pod(c, 'nginx').spec.nodeName).toMatch(/^worker-/);
  });

  it('#20 pod-with-pod-affinity: no node has a zone label, so it can never be placed', () => {
    const c = newTestCluster({ controllers: [] });
    c.apply(manifest('website__pods-pod-with-pod-affinity.yaml'));
    c.run(10_000);
    expect(pod(c, 'with-pod-affinity').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'with-pod-affinity')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.`,
    );
  });

  it('required node affinity and preferred terms choose among the workers', () => {
    const c = newTestCluster({
      controllers: [],
      nodes: [
        { name: 'cp-1', labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
        { name: 'worker-1', labels: { 'topology.kubernetes.io/zone': 'antarctica-east1' } },
        { name: 'worker-2', labels: { 'topology.kubernetes.io/zone': 'antarctica-west1', 'another-node-label-key': 'another-node-label-value' } },
      ],
    });
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['antarctica-east1', 'antarctica-west1'] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'another-node-label-key', operator: 'In', values: ['another-node-label-value'] }] } }],
      },
    };
    for (let i = 0; i < 3; i++) create(c, `aff-${i}`, { spec: { affinity } });
    create(c, 'nowhere', { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['mars'] }] }] } } } } });
    c.run(5_000);
    for (let i = 0; i < 3; i++) expect(pod(c, `aff-${i}`).spec.nodeName).toBe('worker-2');
    expect(lastFailure(c, 'nowhere')).toContain("2 node(s) didn't match Pod's node affinity/selector");
  });

  it.todo('#11 pod-with-node-affinity (broken revision) is rejected by the API server: decoding is the API server\'s job');
});

describe('inter-pod anti-affinity', () => {
  it('one replica per worker; the third is Unschedulable (preemption could help, but no victims)', () => {
    const c = newTestCluster({ controllers: [] });
    const affinity = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } };
    for (let i = 0; i < 3; i++) create(c, `db-${i}`, { labels: { app: 'db' }, spec: { affinity } });
    c.run(10_000);
    expect([pod(c, 'db-0').spec.nodeName, pod(c, 'db-1').spec.nodeName].sort()).toEqual(['worker-1', 'worker-2']);
    expect(lastFailure(c, 'db-2')).toBe(
      `0/3 nodes are available: ${TAINT}, 2 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
    // An unrelated pod is kept off by nobody; a pod matching db-0's own anti-affinity is.
    create(c, 'intruder', { labels: { app: 'db' } });
    c.run(5_000);
    expect(lastFailure(c, 'intruder')).toContain("2 node(s) didn't satisfy existing pods anti-affinity rules");
  });
});

describe('queue: parked pods come back on cluster events', () => {
  it('a pod deleted frees room: the Pending pod is retried at once and placed', () => {
    const c = newTestCluster({ controllers: [] });
    for (const n of ['a', 'b', 'c']) create(c, n, { cpu: '1500m' });
    c.run(10_000);
    const pending = ['a', 'b', 'c'].find((n) => !pod(c, n).spec.nodeName)!;
    const victim = ['a', 'b', 'c'].find((n) => n !== pending)!;
    const node = pod(c, victim).spec.nodeName;
    c.api.delete('pods', 'default', victim);
    c.run(3_000);
    expect(pod(c, pending).spec.nodeName).toBe(node);
  });

  it('a node added: the Pending pod is placed on it', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'big', { cpu: '3' });
    c.run(10_000);
    expect(pod(c, 'big').spec.nodeName).toBeUndefined();
    c.kubelet.start([{ name: 'worker-3', cpu: '4' }]);
    c.run(3_000);
    expect(pod(c, 'big').spec.nodeName).toBe('worker-3');
  });

  it('node heartbeats do not retry parked pods; the 5-minute flush does', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'big', { cpu: '3' });
    c.run(4 * 60_000);
    expect(schedEvents(c, 'big').filter((e) => e.reason === 'FailedScheduling')).toHaveLength(1);
    c.run(2 * 60_000);
    const times = schedEvents(c, 'big')
      .filter((e) => e.reason === 'FailedScheduling')
      .map((e) => e.time);
    expect(times).toHaveLength(2);
    // Parked at ~0; retried by the 30 s flush after 5 min had passed.
    expect(times[1]).toBeGreaterThan(5 * 60_000);
    expect(times[1]).toBeLessThanOrEqual(5 * 60_000 + 30_000 + 10);
  });

  it('an unbound pod deleted while Pending is simply forgotten', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'big', { cpu: '3' });
    c.run(2_000);
    c.api.delete('pods', 'default', 'big');
    c.run(10 * 60_000);
    expect(schedEvents(c, 'big').filter((e) => e.reason === 'FailedScheduling')).toHaveLength(1);
  });
});

describe('VolumeBinding', () => {
  const withClaim = (claim: string) => ({ spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] } });
  const pvc = (name: string, storageClassName?: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...(storageClassName !== undefined ? { storageClassName } : {}) },
  });

  it('a missing claim: persistentvolumeclaim "x" not found', () => {
    const c = newTestCluster({ controllers: [] });
    create(c, 'needs-claim', withClaim('data-0'));
    c.run(5_000);
    expect(lastFailure(c, 'needs-claim')).toBe(
      '0/3 nodes are available: persistentvolumeclaim "data-0" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    // Creating the claim (unbound, no class: Immediate) moves the pod on to the next reason.
    c.api.create(pvc('data-0', ''));
    c.run(5_000);
    expect(lastFailure(c, 'needs-claim')).toBe(
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    expect(pod(c, 'needs-claim').spec.nodeName).toBeUndefined();
  });

  it('WaitForFirstConsumer: the scheduler picks a node, annotates the claim, and binds once it is bound', () => {
    const c = newTestCluster({ controllers: [] });
    c.api.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard' }, provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' } as KubeObject);
    c.api.create(pvc('data-1', 'standard'));
    create(c, 'wffc', withClaim('data-1'));
    c.run(3_000);
    const claim = c.api.get('persistentvolumeclaims', 'default', 'data-1');
    const selected = claim.metadata.annotations?.['volume.kubernetes.io/selected-node'];
    expect(selected).toMatch(/^worker-/);
    expect(pod(c, 'wffc').spec.nodeName).toBeUndefined(); // PreBind waits for the binding
    // The provisioner creates a PV on that node and the PV controller binds the claim.
    c.api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pvc-1' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'standard',
        hostPath: { path: '/tmp/pvc-1' },
        claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data-1', uid: claim.metadata.uid },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [selected] }] }] } },
      },
    });
    const bound = c.api.get('persistentvolumeclaims', 'default', 'data-1');
    bound.spec.volumeName = 'pvc-1';
    bound.metadata.annotations = { ...bound.metadata.annotations, 'pv.kubernetes.io/bind-completed': 'yes' };
    c.api.update(bound);
    c.run(3_000);
    expect(pod(c, 'wffc').spec.nodeName).toBe(selected);
    expect(schedEvents(c, 'wffc').map((e) => e.reason)).toEqual(['Scheduled']);
  });

  it('a bound claim whose PV lives on worker-2 pins the pod there', () => {
    const c = newTestCluster({ controllers: [] });
    c.api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'local-pv' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        local: { path: '/mnt/disk' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['worker-2'] }] }] } },
      },
    });
    const claim = c.api.create(pvc('data-2', ''));
    claim.spec.volumeName = 'local-pv';
    claim.metadata.annotations = { 'pv.kubernetes.io/bind-completed': 'yes' };
    c.api.update(claim);
    for (let i = 0; i < 3; i++) create(c, `local-${i}`, withClaim('data-2'));
    c.run(5_000);
    for (let i = 0; i < 3; i++) expect(pod(c, `local-${i}`).spec.nodeName).toBe('worker-2');
  });
});

describe('priorities and preemption (reference 12: spec.priority from priorityClassName)', () => {
  function withHigh(c: TestCluster) {
    c.api.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 } as KubeObject);
  }

  it('activeQ pops the higher-priority pod first', () => {
    const c = newTestCluster({ controllers: [] });
    withHigh(c);
    // Only one of them fits; both are created in the same instant.
    c.kubelet.start([]);
    create(c, 'low', { cpu: '1500m', spec: { nodeSelector: { 'kubernetes.io/hostname': 'worker-1' } } });
    create(c, 'high', { cpu: '1500m', priorityClassName: 'high', spec: { nodeSelector: { 'kubernetes.io/hostname': 'worker-1' } } });
    c.run(5_000);
    expect(pod(c, 'high').spec.nodeName).toBe('worker-1');
    expect(pod(c, 'low').spec.nodeName).toBeUndefined();
  });

  it('a higher-priority pod preempts a lower one: DisruptionTarget, Preempted, nominatedNodeName, then bound', () => {
    const c = newTestCluster({ controllers: [] });
    withHigh(c);
    create(c, 'low-1', { cpu: '1500m' });
    create(c, 'low-2', { cpu: '1500m' });
    c.run(5_000);
    create(c, 'vip', { cpu: '1500m', priorityClassName: 'high' });
    c.run(500);
    const vip = pod(c, 'vip');
    expect(vip.spec.priority).toBe(1000);
    expect(lastFailure(c, 'vip')).toBe(`0/3 nodes are available: ${TAINT}, 2 Insufficient cpu.`);
    const nominated = vip.status.nominatedNodeName;
    expect(nominated).toMatch(/^worker-/);
    const victim = ['low-1', 'low-2'].find((n) => c.api.tryGet('pods', 'default', n)?.spec.nodeName === nominated)!;
    const preempted = c.events.find((e) => e.reason === 'Preempted')!;
    expect(preempted).toMatchObject({ component: 'default-scheduler', type: 'Normal', message: `Preempted by pod ${vip.metadata.uid} on node ${nominated}` });
    expect(preempted.involvedObject.name).toBe(victim);
    c.run(10_000);
    expect(c.api.tryGet('pods', 'default', victim)).toBeUndefined();
    expect(pod(c, 'vip').spec.nodeName).toBe(nominated);
    expect(schedEvents(c, 'vip').at(-1)?.message).toBe(`Successfully assigned default/vip to ${nominated}`);
  });

  it('preemptionPolicy: Never (from a non-preempting PriorityClass) says so in the message', () => {
    const c = newTestCluster({ controllers: [] });
    c.api.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high-nonpreempting' }, value: 1000, preemptionPolicy: 'Never' } as KubeObject);
    create(c, 'low-1', { cpu: '1500m' });
    create(c, 'low-2', { cpu: '1500m' });
    c.run(5_000);
    create(c, 'polite', { cpu: '1500m', priorityClassName: 'high-nonpreempting' });
    c.run(5_000);
    expect(lastFailure(c, 'polite')).toBe(`0/3 nodes are available: ${TAINT}, 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.`);
    expect(c.api.tryGet('pods', 'default', 'low-1')).toBeDefined();
    expect(c.api.tryGet('pods', 'default', 'low-2')).toBeDefined();
  });
});

describe('scale', () => {
  it('places 1,000 pods on 100 nodes evenly and deterministically', { timeout: 60_000 }, () => {
    const nodes = Array.from({ length: 100 }, (_, i) => ({ name: `node-${String(i).padStart(3, '0')}`, cpu: '8', memory: '32Gi' }));
    const run = () => {
      const c = newTestCluster({ controllers: [], nodes, seed: 7 });
      for (let i = 0; i < 1000; i++) create(c, `p-${i}`, { cpu: '100m', memory: '64Mi', labels: { app: 'many' } });
      c.run(5_000);
      return c.pods('default', 'app=many').map((p) => `${p.metadata.name}@${p.spec.nodeName}`);
    };
    const a = run();
    expect(a.every((s) => !s.endsWith('@undefined'))).toBe(true);
    const perNode = new Map<string, number>();
    for (const s of a) perNode.set(s.split('@')[1], (perNode.get(s.split('@')[1]) ?? 0) + 1);
    expect(perNode.size).toBe(100);
    expect(Math.max(...perNode.values()) - Math.min(...perNode.values())).toBeLessThanOrEqual(1);
    expect(run()).toEqual(a);
  });
});

describe('with the controllers (kube-controller-manager running)', () => {
  const deployment = (name: string, replicas: number, extra = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
      - name: app
        image: "nginx:1.27"
${extra}`;

  it('C03 as written: a Deployment of 3 x 1500m gives 2 Running, 1 Pending with the exact message', () => {
    const c = newTestCluster({ controllers: ['deployment', 'replicaset'] });
    c.apply(deployment('hungry', 3, '        resources: {requests: {cpu: "1500m"}}'));
    c.run(30_000);
    const pods = c.pods('default', 'app=hungry');
    expect(pods.filter((p) => p.status.phase === 'Running').map((p) => p.spec.nodeName).sort()).toEqual(['worker-1', 'worker-2']);
    const pending = pods.filter((p) => p.status.phase === 'Pending');
    expect(pending).toHaveLength(1);
    const expected = `0/3 nodes are available: ${TAINT}, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`;
    expect(lastFailure(c, pending[0].metadata.name!)).toBe(expected);
    expect(scheduledCondition(pending[0])).toMatchObject({ status: 'False', reason: 'Unschedulable', message: expected });
  });

  it('6 replicas of a Deployment land 3/3 on the two workers (default spreading)', () => {
    const c = newTestCluster({ controllers: ['deployment', 'replicaset'] });
    c.apply(deployment('web', 6));
    c.run(30_000);
    const nodes = c.pods('default', 'app=web').map((p) => p.spec.nodeName);
    expect(nodes).toHaveLength(6);
    expect(nodes.filter((n) => n === 'worker-1')).toHaveLength(3);
    expect(nodes.filter((n) => n === 'worker-2')).toHaveLength(3);
  });

  it('C24 with a Deployment and the control-plane-tolerating DaemonSet: all Pending and silent, then all placed', () => {
    const c = newTestCluster({ controllers: ['serviceaccount', 'deployment', 'replicaset', 'daemonset'] });
    c.run(1_000);
    c.stopScheduler();
    c.apply(deployment('web', 2));
    c.apply(manifest('website__controllers-fluentd-daemonset-cp-tolerated.yaml'));
    create(c, 'pinned', { nodeName: 'worker-1' });
    c.run(60_000);
    const waiting = [...c.pods('default', 'app=web'), ...c.pods('kube-system')];
    expect(waiting.length).toBe(5); // 2 web + 3 fluentd
    for (const p of waiting) {
      expect(p.spec.nodeName).toBeUndefined();
      expect(c.events.filter((e) => e.involvedObject.name === p.metadata.name)).toEqual([]);
    }
    expect(pod(c, 'pinned').status.phase).toBe('Running');
    c.startScheduler();
    c.run(20_000);
    const placed = [...c.pods('default', 'app=web'), ...c.pods('kube-system')];
    for (const p of placed) {
      expect(p.status.phase).toBe('Running');
      expect(schedEvents(c, p.metadata.name!).at(-1)?.message).toBe(`Successfully assigned ${p.metadata.namespace}/${p.metadata.name} to ${p.spec.nodeName}`);
    }
    expect(c.pods('kube-system').map((p) => p.spec.nodeName).sort()).toEqual(['cp-1', 'worker-1', 'worker-2']);
  });

  it('C26: a StatefulSet pod waits on an unbound immediate claim', () => {
    const c = newTestCluster({ controllers: ['statefulset', 'persistentvolume-binder'] });
    c.apply(manifest('website__application-web-statefulset.yaml'));
    c.run(60_000);
    expect(pod(c, 'web-0').spec.nodeName).toBeUndefined();
    expect(lastFailure(c, 'web-0')).toBe(
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it('WaitForFirstConsumer with the kind StorageClass: the local-path provisioner provisions on the chosen node and the pod runs there', async () => {
    const { ControllerProcess } = await import('../controllers/manager');
    const { newLocalPathProvisioner } = await import('../controllers/localpathprovisioner');
    const { kindDefaultStorageClass } = await import('../controllers/persistentvolume');
    const c = newTestCluster({ controllers: ['persistentvolume-binder'] });
    const p = new ControllerProcess('local-path-provisioner', [(ctx) => newLocalPathProvisioner(ctx, { podName: 'local-path-provisioner-7dc846544d-lcbt6' })], {
      api: c.api,
      clock: c.clock,
      rng: c.rng,
      trace: c.trace.add,
      eventSink: (e) => c.events.push(e),
      leaderElect: false,
    });
    p.start();
    c.api.create(kindDefaultStorageClass());
    c.apply(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`);
    create(c, 'db', { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } });
    c.run(20_000);
    const claim = c.api.get('persistentvolumeclaims', 'default', 'data');
    const node = claim.metadata.annotations?.['volume.kubernetes.io/selected-node'];
    expect(node).toMatch(/^worker-/);
    expect(claim.status.phase).toBe('Bound');
    const db = pod(c, 'db');
    expect(db.spec.nodeName).toBe(node);
    expect(db.status.phase).toBe('Running');
    // Bound now; a second pod using the claim follows the volume's node affinity.
    create(c, 'db-reader', { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] } });
    c.run(5_000);
    expect(pod(c, 'db-reader').spec.nodeName).toBe(node);
  });
});
