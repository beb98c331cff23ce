import { SchedulerCache, podInfoOf, assumedPodInfo } from '/work/main/src/engine/scheduler/cache';
import { preFilter, runFilters, scoreNodes, type PluginHandle } from '/work/main/src/engine/scheduler/plugins';
import { numFeasibleNodesToFind } from '/work/main/src/engine/scheduler/scheduler';
import { makeNode } from '/work/main/src/engine/testing/fakekubelet';
const N = Number(process.argv[2] ?? 500), P = Number(process.argv[3] ?? 10000);
const empty = { get: () => undefined, getByKey: () => undefined, list: () => [], byIndex: () => [] };
function once() {
const cache = new SchedulerCache();
for (let i = 0; i < N; i++) cache.addNode(makeNode({ name: `node-${i}`, cpu: '64', memory: '256Gi' }, '2026-01-01T00:00:00Z'));
const h: PluginHandle = { cache, pvcs: empty, pvs: empty, storageClasses: empty, namespaces: empty, services: empty, replicaSets: empty, statefulSets: empty, assumedPVs: new Map(), taintDetailInMessage: true } as unknown as PluginHandle;
const pods = Array.from({ length: P }, (_, i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, namespace: 'default', uid: `u-${i}`, generation: 1, labels: { app: 'many' } }, spec: { priority: 0, containers: [{ name: 'a', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] } }));
let next = 0;
const t0 = process.cpuUsage();
let sumFeasible = 0;
for (const pod of pods) {
  const pi = podInfoOf(pod);
  const pre = preFilter(h, pod, pi);
  const nodes = cache.nodeList();
  const k = numFeasibleNodesToFind(0, nodes.length);
  const feasible = [];
  let processed = 0;
  for (let i = 0; i < nodes.length && feasible.length < k; i++) {
    const ni = nodes[(next + i) % nodes.length];
    processed++;
    if (!runFilters(h, pre.state, ni)) feasible.push(ni);
  }
  next = (next + processed) % nodes.length;
  sumFeasible += feasible.length;
  const sc = scoreNodes(h, pre.state, feasible);
  let best = -1, bi = 0;
  for (let i = 0; i < feasible.length; i++) if (sc[i] > best) { best = sc[i]; bi = i; }
  cache.assumePod(assumedPodInfo(pi, feasible[bi].name));
}
const u = process.cpuUsage(t0); return [(u.user + u.system) / 1000, sumFeasible / P];
}
for (let r = 0; r < 3; r++) console.log(once());
