/**
 * taint-eviction-controller (with the node-lifecycle-controller that places the taints), checked
 * against documented behaviour: reference section 7 (k8s-semantics.md),
 * pkg/controller/tainteviction/taint_eviction.go, cases.md C10 and C12.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';
import { parseRfc3339 } from '../clock';
import { getMatchingTolerations, getMinTolerationMs } from './tainteviction';

const G = 50_000; // node-monitor-grace-period (1.32+)
const TOLERATION = 300_000; // DefaultTolerationSeconds

function barePod(name: string, nodeName: string, extra = ''): string {
  return `
apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: {app: nginx}}
spec:
  nodeName: ${nodeName}
  containers: [{name: nginx, image: nginx:1.14.2}]
${extra}`;
}
/** A pod as the DaemonSet controller makes them: NoExecute tolerations without tolerationSeconds. */
function daemonPod(name: string, nodeName: string): string {
  return barePod(
    name,
    nodeName,
    `  tolerations:
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}
  - {key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}
  - {key: node.kubernetes.io/disk-pressure, operator: Exists, effect: NoSchedule}
  - {key: node.kubernetes.io/memory-pressure, operator: Exists, effect: NoSchedule}
  - {key: node.kubernetes.io/pid-pressure, operator: Exists, effect: NoSchedule}
  - {key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}`,
  );
}
function ready(p: KubeObject): string | undefined {
  return p.status?.conditions?.find((x: { type: string }) => x.type === 'Ready')?.status;
}
function onNode(c: TestCluster, nodeName: string, ns = 'default'): KubeObject[] {
  return c.pods(ns).filter((p) => p.spec.nodeName === nodeName);
}
function terminating(pods: KubeObject[]): KubeObject[] {
  return pods.filter((p) => p.metadata.deletionTimestamp);
}
function taint(c: TestCluster, node: string, key: string, effect: string) {
  return (c.api.get('nodes', undefined, node).spec.taints ?? []).find((t: { key: string; effect: string }) => t.key === key && t.effect === effect);
}
describe('taint-eviction-controller', () => {
  it('C10 (bare pods): Running but unready for 5 minutes, then Terminating forever on the dead node; gone once it is back', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle', 'taint-eviction-controller'] });
    c.apply(barePod('web-1', 'worker-1'));
    c.apply(barePod('web-2', 'worker-1'));
    c.apply(barePod('web-3', 'worker-2'));
    c.apply(barePod('web-4', 'worker-2'));
    // The kubelet renews its Lease at 10 s, 20 s, 30 s; it dies at 39 s, just before the next
    // renewal. (Where in the 10 s renewal cycle it dies moves everything below by up to 10 s: the
    // real controller sees heartbeats only every node-monitor-period, 5 s.)
    c.run(39_000);
    c.kubelet.stopNode('worker-2');
    const t0 = c.clock.now();
    const at = (ms: number) => c.run(t0 + ms - c.clock.now());

    at(G - 5_000);
    expect(c.api.get('nodes', undefined, 'worker-2').status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe('True');

    at(G + 10_000);
    expect(c.api.get('nodes', undefined, 'worker-2').status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe('Unknown');
    expect(onNode(c, 'worker-2').map((p) => [p.status.phase, ready(p)])).toEqual([
      ['Running', 'False'],
      ['Running', 'False'],
    ]);

    // The pods tolerate node.kubernetes.io/unreachable for 300 s (DefaultTolerationSeconds).
    at(G + 290_000);
    expect(terminating(c.pods())).toEqual([]);
    expect(onNode(c, 'worker-2').every((p) => p.status.phase === 'Running')).toBe(true);

    at(G + 310_000);
    const gone = terminating(onNode(c, 'worker-2'));
    expect(gone.map((p) => p.metadata.name)).toEqual(['web-3', 'web-4']);
    // Exactly 300 s after the NoExecute taint was placed.
    const timeAdded = parseRfc3339(taint(c, 'worker-2', 'node.kubernetes.io/unreachable', 'NoExecute').timeAdded);
    for (const p of gone) {
      // deletionTimestamp = delete time + terminationGracePeriodSeconds (30 s).
      expect(parseRfc3339(p.metadata.deletionTimestamp!) - 30_000 - timeAdded).toBeGreaterThanOrEqual(TOLERATION);
      expect(parseRfc3339(p.metadata.deletionTimestamp!) - 30_000 - timeAdded).toBeLessThan(TOLERATION + 1000);
      expect(p.status.conditions.find((x: { type: string }) => x.type === 'DisruptionTarget')).toMatchObject({
        status: 'True',
        reason: 'DeletionByTaintManager',
        message: 'Taint manager: deleting due to NoExecute taint',
      });
    }
    const ev = c.events.filter((e) => e.reason === 'TaintManagerEviction');
    expect(ev.map((e) => [e.component, e.type, e.involvedObject.kind, e.message])).toEqual([
      ['taint-eviction-controller', 'Normal', 'Pod', 'Marking for deletion Pod default/web-3'],
      ['taint-eviction-controller', 'Normal', 'Pod', 'Marking for deletion Pod default/web-4'],
    ]);
    expect(onNode(c, 'worker-1').map((p) => [p.status.phase, ready(p), !!p.metadata.deletionTimestamp])).toEqual([
      ['Running', 'True', false],
      ['Running', 'True', false],
    ]);

    // Nobody confirms the deletion on a dead node: still Terminating 10 minutes later.
    at(G + 910_000);
    expect(terminating(onNode(c, 'worker-2'))).toHaveLength(2);

    // The kubelet comes back: it finishes the deletions, the node is Ready and untainted.
    c.kubelet.startNode('worker-2');
    c.run(10_000);
    expect(onNode(c, 'worker-2')).toEqual([]);
    const n = c.api.get('nodes', undefined, 'worker-2');
    expect(n.status.conditions.find((x: { type: string }) => x.type === 'Ready').status).toBe('True');
    expect(n.spec.taints ?? []).toEqual([]);
    expect(c.pods().map((p) => p.metadata.name)).toEqual(['web-1', 'web-2']);
  });

  it('C10 (Deployment, replicas 4): 2 Terminating on the dead node and 2 replacements Running on worker-1', (t) => {
    const c = newTestCluster();
    c.apply(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx-deployment, labels: {app: nginx}}
spec:
  replicas: 4
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: nginx:1.14.2, ports: [{containerPort: 80}]}]
`);
    c.run(39_000);
    // Needs the deployment and replicaset controllers and kube-scheduler (written by other helpers).
    if (c.pods().filter((p) => p.status.phase === 'Running').length < 4) t.skip();
    const victim = 'worker-2';
    const survivor = 'worker-1';
    const onVictim = onNode(c, victim).length;
    expect(onVictim).toBeGreaterThan(0);
    c.kubelet.stopNode(victim);
    const t0 = c.clock.now();
    c.run(G + 290_000);
    expect(terminating(c.pods())).toEqual([]);
    expect(onNode(c, victim).every((p) => p.status.phase === 'Running' && ready(p) === 'False')).toBe(true);
    c.run(t0 + G + 310_000 - c.clock.now());
    // The dead node's pods are Terminating; the ReplicaSet did not wait for them.
    expect(terminating(onNode(c, victim))).toHaveLength(onVictim);
    const live = onNode(c, survivor).filter((p) => !p.metadata.deletionTimestamp && p.status.phase === 'Running');
    expect(live).toHaveLength(4);
    c.kubelet.startNode(victim);
    c.run(30_000);
    expect(terminating(c.pods())).toEqual([]);
    // Nothing moves back to the recovered node.
    expect(onNode(c, victim)).toEqual([]);
  });

  it('C12: pods tolerating unreachable without tolerationSeconds (DaemonSet pods) are never evicted', () => {
    const c = newTestCluster({ controllers: ['node-lifecycle', 'taint-eviction-controller'] });
    c.apply(daemonPod('fluentd-a', 'worker-1'));
    c.apply(daemonPod('fluentd-b', 'worker-2'));
    c.run(30_000);
    c.kubelet.stopNode('worker-2');
    c.run(600_000);
    expect(taint(c, 'worker-2', 'node.kubernetes.io/unreachable', 'NoExecute')).toBeDefined();
    const p = c.api.get('pods', 'default', 'fluentd-b');
    expect(p.metadata.deletionTimestamp).toBeUndefined();
    expect([p.status.phase, ready(p)]).toEqual(['Running', 'False']);
    // DefaultTolerationSeconds left these tolerations alone: no "for 300s".
    expect(p.spec.tolerations.filter((x: { effect: string }) => x.effect === 'NoExecute').map((x: { tolerationSeconds?: number }) => x.tolerationSeconds)).toEqual([
      undefined,
      undefined,
    ]);
    expect(c.events.filter((e) => e.reason === 'TaintManagerEviction')).toEqual([]);
  });

  it('C12 (DaemonSet): the DaemonSet pod on the dead node is not evicted and not replaced', (t) => {
    const c = newTestCluster();
    c.apply(`
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: fluentd-elasticsearch, namespace: kube-system, labels: {k8s-app: fluentd-logging}}
spec:
  selector: {matchLabels: {name: fluentd-elasticsearch}}
  template:
    metadata: {labels: {name: fluentd-elasticsearch}}
    spec:
      tolerations:
      - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}
      containers: [{name: fluentd-elasticsearch, image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2}]
`);
    c.run(30_000);
    // Needs the daemonset controller and kube-scheduler (written by other helpers).
    if (c.pods('kube-system').filter((p) => p.status.phase === 'Running').length < 3) t.skip();
    const before = c.pods('kube-system').map((p) => p.metadata.name);
    c.kubelet.stopNode('worker-2');
    c.run(600_000);
    expect(terminating(c.pods('kube-system'))).toEqual([]);
    expect(c.pods('kube-system').map((p) => p.metadata.name)).toEqual(before);
    const there = onNode(c, 'worker-2', 'kube-system');
    expect(there.map((p) => [p.status.phase, ready(p)])).toEqual([['Running', 'False']]);
    // The DaemonSet's status (DESIRED/READY) is the daemonset controller's and is checked in its tests.
  });

  it('a NoExecute taint: untolerating pods go at once, tolerationSeconds ones later, and removing the taint cancels with an Event', () => {
    const c = newTestCluster({ controllers: ['taint-eviction-controller'] });
    c.apply(barePod('plain', 'worker-1'));
    c.apply(barePod('patient', 'worker-1', '  tolerations: [{key: dedicated, operator: Equal, value: db, effect: NoExecute, tolerationSeconds: 60}]'));
    c.apply(barePod('forever', 'worker-1', '  tolerations: [{key: dedicated, operator: Exists, effect: NoExecute}]'));
    c.apply(barePod('elsewhere', 'worker-2'));
    c.run(5_000);
    // kubectl taint nodes worker-1 dedicated=db:NoExecute
    c.api.patch('nodes', undefined, 'worker-1', 'merge', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } });
    c.run(500);
    expect(c.api.tryGet('pods', 'default', 'plain')?.metadata.deletionTimestamp).toBeDefined();
    c.run(2_000); // the (live) kubelet confirms the graceful deletion
    expect(c.api.tryGet('pods', 'default', 'plain')).toBeUndefined();
    c.run(30_000);
    expect(c.api.get('pods', 'default', 'patient').metadata.deletionTimestamp).toBeUndefined();
    // The taint goes away before the 60 s are up: the eviction is cancelled.
    c.api.patch('nodes', undefined, 'worker-1', 'merge', { spec: { taints: null } });
    c.run(60_000);
    expect(c.pods().map((p) => p.metadata.name)).toEqual(['elsewhere', 'forever', 'patient']);
    expect(c.events.filter((e) => e.reason === 'TaintManagerEviction').map((e) => e.message)).toEqual([
      'Marking for deletion Pod default/plain',
      'Cancelling deletion of Pod default/patient',
    ]);

    // Again, and this time the 60 s run out.
    c.api.patch('nodes', undefined, 'worker-1', 'merge', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } });
    c.run(59_000);
    expect(c.api.get('pods', 'default', 'patient').metadata.deletionTimestamp).toBeUndefined();
    c.run(2_000);
    expect(c.api.tryGet('pods', 'default', 'patient')?.metadata.deletionTimestamp ?? 'gone').toBeTruthy();
    c.run(5_000);
    expect(c.pods().map((p) => p.metadata.name)).toEqual(['elsewhere', 'forever']);
  });

  it('a pod bound to an already tainted node is checked too (PodUpdated)', () => {
    const c = newTestCluster({ controllers: ['taint-eviction-controller'] });
    c.api.patch('nodes', undefined, 'worker-2', 'merge', { spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } });
    c.run(1_000);
    c.apply(barePod('late', 'worker-2'));
    c.run(500);
    expect(c.api.get('pods', 'default', 'late').metadata.deletionTimestamp).toBeDefined();
  });

  it('matching tolerations and the minimum toleration time follow the real helpers', () => {
    const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
    const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
    const defaults = [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ];
    expect(getMatchingTolerations([unreachable], defaults)).toEqual([true, [defaults[1]]]);
    expect(getMatchingTolerations([unreachable, { key: 'x', effect: 'NoExecute' }], defaults)).toEqual([false, []]);
    // An empty key with Exists tolerates everything.
    expect(getMatchingTolerations([unreachable, notReady], [{ operator: 'Exists' }])[0]).toBe(true);
    expect(getMinTolerationMs([defaults[0], { key: 'a', operator: 'Exists', tolerationSeconds: 30 }])).toBe(30_000);
    expect(getMinTolerationMs([{ key: 'a', operator: 'Exists' }])).toBe(-1);
    expect(getMinTolerationMs([{ key: 'a', operator: 'Exists', tolerationSeconds: -5 }])).toBe(0);
  });
});
