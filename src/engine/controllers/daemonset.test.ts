/**
 * daemonset-controller, checked against documented Kubernetes behaviour:
 * https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/ ("How Daemon Pods are
 * scheduled", "Taints and tolerations"), https://kubernetes.io/docs/tasks/manage-daemon/update-daemon-set/,
 * pkg/controller/daemon/util/daemonset_util.go (AddOrUpdateDaemonPodTolerations), reference 8.2,
 * cases.md C05 and C12.
 *
 * The scheduler is written separately: these tests run with `scheduler: false` and the
 * test-local `TestBinder`, which binds each DaemonSet pod to the node of its
 * `matchFields metadata.name` affinity as the default scheduler would.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { TestBinder } from '../testing/testbinder';

const FLUENTD_OLD = readFileSync(new URL('../../../fixtures/corpus/manifests/website__controllers-daemonset-fluentd.yaml', import.meta.url), 'utf8');
const FLUENTD_CP = readFileSync(new URL('../../../fixtures/corpus/manifests/website__controllers-fluentd-daemonset-cp-tolerated.yaml', import.meta.url), 'utf8');

const DS = (image = 'nginx:1.27', extra = '', podExtra = '') => `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
${extra}
  template:
    metadata: {labels: {app: agent}}
    spec:
${podExtra}
      containers: [{name: agent, image: "${image}"}]
`;

function setup(): TestCluster {
  const c = newTestCluster({ controllers: ['daemonset'], scheduler: false });
  // The serviceaccount controller would make this; pods in kube-system need it.
  c.api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'kube-system' } });
  new TestBinder({ api: c.api, clock: c.clock }).start();
  return c;
}

const ds = (c: TestCluster, name = 'agent', ns = 'default') => c.api.get('daemonsets', ns, name);
const nodeOf = (p: KubeObject) => p.spec.nodeName ?? p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0];
const byNode = (pods: KubeObject[]) => pods.map((p) => nodeOf(p)).sort();
const ready = (p: KubeObject) => (p.status?.conditions ?? []).some((x: { type: string; status: string }) => x.type === 'Ready' && x.status === 'True');
const dsEvents = (c: TestCluster) => c.events.filter((e) => e.component === 'daemonset-controller');

describe('daemonset-controller: placement', () => {
  it('cases.md C05: DESIRED 2 (control plane taint not tolerated), the overlaid apply is rejected as immutable, then DESIRED 3', () => {
    const c = setup();
    c.apply(FLUENTD_OLD);
    c.run(30_000);
    let s = ds(c, 'fluentd-elasticsearch', 'kube-system').status;
    // expected: desiredNumberScheduled is 2 ...
    expect(s).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 2, numberMisscheduled: 0 });
    expect(byNode(c.pods('kube-system'))).toEqual(['worker-1', 'worker-2']);
    // ... the overlaid apply is rejected with "field is immutable" (the API's validation; kubectl
    // prints this Status message as `The DaemonSet "fluentd-elasticsearch" is invalid: ...`) ...
    expect(() => c.apply(FLUENTD_CP)).toThrow(/^DaemonSet\.apps "fluentd-elasticsearch" is invalid: spec\.selector: Invalid value: .*: field is immutable$/);
    // ... and after delete and re-apply, 3.
    c.api.delete('daemonsets', 'kube-system', 'fluentd-elasticsearch');
    c.apply(FLUENTD_CP);
    c.run(30_000);
    s = ds(c, 'fluentd-elasticsearch', 'kube-system').status;
    expect(s).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, numberAvailable: 3, updatedNumberScheduled: 3 });
    const mine = c.pods('kube-system', 'app.kubernetes.io/name=fluentd-elasticsearch');
    expect(byNode(mine)).toEqual(['cp-1', 'worker-1', 'worker-2']);
  });

  it('pods: generateName <ds>-, node affinity matchFields metadata.name In [node], labels controller-revision-hash and pod-template-generation, Event "Created pod: x"', () => {
    const c = setup();
    c.apply(DS());
    c.run(10_000);
    const d = ds(c);
    expect(d.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('1');
    const revs = c.api.list('controllerrevisions', { namespace: 'default' }).items;
    expect(revs).toHaveLength(1);
    const hash = revs[0].metadata.labels!['controller-revision-hash'];
    expect(revs[0].metadata.name).toBe(`agent-${hash}`);
    expect(revs[0].revision).toBe(1);
    const pods = c.pods();
    expect(pods).toHaveLength(2);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^agent-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.labels).toEqual({ app: 'agent', 'controller-revision-hash': hash, 'pod-template-generation': '1' });
      expect(p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] },
      ]);
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'agent', controller: true });
    }
    const created = dsEvents(c).filter((e) => e.reason === 'SuccessfulCreate').map((e) => e.message);
    expect(created.sort()).toEqual(pods.map((p) => `Created pod: ${p.metadata.name}`).sort());
  });

  it('cases.md C12 (controller part): every pod gets the daemon tolerations, not-ready/unreachable NoExecute without tolerationSeconds', () => {
    const c = setup();
    c.apply(DS('nginx:1.27', '', '      hostNetwork: true'));
    c.run(10_000);
    const tol = c.pods()[0].spec.tolerations;
    expect(tol).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('cases.md C12: a DaemonSet pod on a dead node is never evicted and never duplicated; DESIRED 3, READY 2', () => {
    const c = setup();
    c.apply(FLUENTD_CP);
    c.run(30_000);
    const victim = c.pods('kube-system').find((p) => p.spec.nodeName === 'worker-2')!;
    // kill node worker-2. The node-lifecycle controller (written separately) would taint the node
    // unreachable:NoExecute and mark its pods not Ready; this test does both by hand.
    c.kubelet.stopNode('worker-2');
    const node = c.api.get('nodes', undefined, 'worker-2');
    c.api.update({ ...node, spec: { ...node.spec, taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: c.clock.rfc3339() }] } });
    const p = c.api.get('pods', 'kube-system', victim.metadata.name!);
    c.api.updateStatus({ ...p, status: { ...p.status, conditions: p.status.conditions.map((x: { type: string }) => (x.type === 'Ready' ? { ...x, status: 'False' } : x)) } });
    c.run(600_000);
    // expected: at t=600 s the worker-2 pod is not Terminating; desiredNumberScheduled == 3, numberReady == 2; no extra pod.
    const still = c.api.get('pods', 'kube-system', victim.metadata.name!);
    expect(still.metadata.deletionTimestamp).toBeUndefined();
    expect(still.status.phase).toBe('Running');
    expect(ds(c, 'fluentd-elasticsearch', 'kube-system').status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, numberUnavailable: 1 });
    expect(c.pods('kube-system')).toHaveLength(3);
  });

  it('nodeSelector: only matching nodes; labelling a node adds a pod there, unlabelling removes it', () => {
    const c = setup();
    c.apply(DS('nginx:1.27', '', '      nodeSelector: {disk: ssd}'));
    c.run(5000);
    expect(c.pods()).toHaveLength(0);
    expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 0, currentNumberScheduled: 0 });
    c.api.patch('nodes', undefined, 'worker-2', 'merge', { metadata: { labels: { disk: 'ssd' } } });
    c.run(5000);
    expect(byNode(c.pods())).toEqual(['worker-2']);
    c.api.patch('nodes', undefined, 'worker-2', 'merge', { metadata: { labels: { disk: null } } });
    c.run(5000);
    expect(c.pods()).toHaveLength(0);
    expect(dsEvents(c).map((e) => e.reason)).toEqual(['SuccessfulCreate', 'SuccessfulDelete']);
  });

  it('taints: a new NoSchedule taint keeps the running pod (misscheduled), a NoExecute taint removes it', () => {
    const c = setup();
    c.apply(DS());
    c.run(5000);
    const node = c.api.get('nodes', undefined, 'worker-1');
    c.api.update({ ...node, spec: { ...node.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } });
    c.run(5000);
    expect(byNode(c.pods())).toEqual(['worker-1', 'worker-2']);
    expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 1, numberMisscheduled: 1 });
    const n2 = c.api.get('nodes', undefined, 'worker-1');
    c.api.update({ ...n2, spec: { ...n2.spec, taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } });
    c.run(5000);
    expect(byNode(c.pods())).toEqual(['worker-2']);
    expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 1, numberMisscheduled: 0, currentNumberScheduled: 1 });
  });

  it('a failed daemon pod is deleted (Warning FailedDaemonPod) and replaced on the same node', () => {
    const c = setup();
    c.apply(DS());
    c.run(5000);
    const victim = c.pods().find((p) => p.spec.nodeName === 'worker-1')!;
    c.api.updateStatus({ ...victim, status: { ...victim.status, phase: 'Failed' } });
    c.run(5000);
    const now = c.pods().filter((p) => p.spec.nodeName === 'worker-1');
    expect(now).toHaveLength(1);
    expect(now[0].metadata.uid).not.toBe(victim.metadata.uid);
    expect(dsEvents(c).find((e) => e.reason === 'FailedDaemonPod')?.message).toBe(`Found failed daemon pod default/${victim.metadata.name} on node worker-1, will try to kill it`);
  });

  it('a controller-manager restart adopts nothing new and creates no second pod per node', () => {
    const c = setup();
    c.apply(DS());
    c.run(5000);
    const uids = c.pods().map((p) => p.metadata.uid).sort();
    c.stopControllerManager();
    c.run(10_000);
    c.startControllerManager();
    c.run(30_000);
    expect(c.pods().map((p) => p.metadata.uid).sort()).toEqual(uids);
  });
});

describe('daemonset-controller: updates', () => {
  it('RollingUpdate maxUnavailable 1: one node at a time, never two nodes without an available pod', () => {
    const c = setup();
    c.apply(DS('nginx:1.27', '  minReadySeconds: 0', '      tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]'));
    c.run(10_000);
    expect(c.pods()).toHaveLength(3);
    c.apply(DS('nginx:1.28', '  minReadySeconds: 0', '      tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]'));
    let worst = 0;
    for (let t = 0; t < 30_000; t += 100) {
      c.run(100);
      const nodesWithAvailable = new Set(c.pods().filter((p) => ready(p) && !p.metadata.deletionTimestamp).map((p) => p.spec.nodeName));
      worst = Math.max(worst, 3 - nodesWithAvailable.size);
    }
    expect(worst).toBe(1);
    const d = ds(c);
    expect(d.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(d.status).toMatchObject({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 2 });
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.28', 'nginx:1.28', 'nginx:1.28']);
    expect(c.pods().every((p) => p.metadata.labels!['pod-template-generation'] === '2')).toBe(true);
    expect(c.api.list('controllerrevisions', { namespace: 'default' }).items.map((r) => r.revision).sort()).toEqual([1, 2]);
  });

  it('RollingUpdate maxSurge 1 / maxUnavailable 0: the new pod starts before the old one goes', () => {
    const c = setup();
    const strategy = '  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}';
    c.apply(DS('nginx:1.27', strategy));
    c.run(10_000);
    c.apply(DS('nginx:1.28', strategy));
    let minAvailableNodes = 2;
    let maxPodsOnANode = 1;
    for (let t = 0; t < 30_000; t += 100) {
      c.run(100);
      const live = c.pods().filter((p) => !p.metadata.deletionTimestamp);
      minAvailableNodes = Math.min(minAvailableNodes, new Set(live.filter(ready).map((p) => p.spec.nodeName)).size);
      for (const n of ['worker-1', 'worker-2']) maxPodsOnANode = Math.max(maxPodsOnANode, live.filter((p) => nodeOf(p) === n).length);
    }
    expect(minAvailableNodes).toBe(2);
    expect(maxPodsOnANode).toBe(2);
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.28', 'nginx:1.28']);
    expect(ds(c).status).toMatchObject({ updatedNumberScheduled: 2, numberAvailable: 2 });
  });

  it('OnDelete: pods keep the old template until deleted', () => {
    const c = setup();
    c.apply(DS('nginx:1.27', '  updateStrategy: {type: OnDelete}'));
    c.run(10_000);
    c.apply(DS('nginx:1.28', '  updateStrategy: {type: OnDelete}'));
    c.run(20_000);
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.27', 'nginx:1.27']);
    expect(ds(c).status.updatedNumberScheduled ?? 0).toBe(0);
    const victim = c.pods()[0];
    c.api.delete('pods', 'default', victim.metadata.name!);
    c.run(10_000);
    const images = c.pods().map((p) => `${p.spec.nodeName} ${p.spec.containers[0].image}`).sort();
    expect(images).toEqual([`${victim.spec.nodeName} nginx:1.28`, `${victim.spec.nodeName === 'worker-1' ? 'worker-2' : 'worker-1'} nginx:1.27`].sort());
    expect(ds(c).status.updatedNumberScheduled).toBe(1);
  });
});
