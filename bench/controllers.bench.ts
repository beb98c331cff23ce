/**
 * The workload controllers and kube-scheduler at scale.
 *
 * - `controllers.schedule_10k_pods_ms`: 20 Deployments x 500 replicas created at once on a
 *   cluster of 500 nodes (fake kubelet, KWOK-style); wall time from creating the Deployments until
 *   all 10,000 pods are bound and Running. Runs deployment-controller, replicaset-controller and
 *   kube-scheduler as the real cluster does. Goal < 1000 ms.
 * - `controllers.create_10k_pods_ms`: the same with a bench-local binder instead of
 *   kube-scheduler (binds every new pod round-robin at once): the cost of the Deployment and
 *   ReplicaSet controllers, the API server and the fake kubelet alone, for profiling.
 *
 * Wall time comes from `performance.now()`, allowed in bench/ (never in src/engine).
 * Profile with: node --cpu-prof --import tsx bench/run.ts controllers
 */
import { newTestCluster, type TestCluster } from '../src/engine/testing/cluster.ts';
import type { FakeNodeSpec } from '../src/engine/testing/fakekubelet.ts';
import type { BenchResult } from './run.ts';

const DEPLOYMENTS = 20;
const REPLICAS = 500;
const NODES = 500;
/** Virtual time allowed for the whole rollout before the bench gives up. */
const VIRTUAL_LIMIT_MS = 10 * 60 * 1000;
/** Virtual time within which the first pod must be bound, else the scheduler is not working. */
const FIRST_BIND_LIMIT_MS = 60 * 1000;

export default async function controllersBench(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  run(false, 2, 50); // warm up the JIT
  const created = Math.min(run(false), run(false));
  const scheduled = run(true);
  if (Number.isFinite(scheduled)) out.push({ name: 'controllers.schedule_10k_pods_ms', value: Math.round(scheduled), unit: 'ms', goal: 1000 });
  else console.error('bench: controllers.schedule_10k_pods_ms: kube-scheduler did not bind the pods (is src/engine/scheduler/scheduler.ts still a stub?)');
  out.push({ name: 'controllers.create_10k_pods_ms', value: Math.round(created), unit: 'ms', goal: 1000 });
  return out;
}

function nodes(n: number): FakeNodeSpec[] {
  const list: FakeNodeSpec[] = [];
  for (let i = 0; i < n; i++) list.push({ name: `node-${String(i).padStart(3, '0')}`, cpu: '64', memory: '256Gi', pods: '110' });
  return list;
}

/**
 * One run: wall ms from creating the Deployments until every pod is bound and Running;
 * Infinity if that does not happen within VIRTUAL_LIMIT_MS of virtual time.
 */
function run(withScheduler: boolean, deployments = DEPLOYMENTS, replicas = REPLICAS): number {
  const c = newTestCluster({ nodes: nodes(NODES), controllers: ['replicaset', 'deployment'], scheduler: withScheduler });
  if (!withScheduler) startBinder(c);
  c.run(2_000); // leader election, informers synced
  const want = deployments * replicas;
  let running = 0;
  let bound = false;
  const seen = new Set<string>();
  const unsubscribe = c.api.onWrite((w) => {
    const o = w.object;
    if (o.kind !== 'Pod' || w.type === 'DELETED' || !o.spec?.nodeName) return;
    bound = true;
    if (o.status?.phase !== 'Running' || seen.has(o.metadata.uid!)) return;
    seen.add(o.metadata.uid!);
    running++;
  });
  const t0 = performance.now();
  for (let i = 0; i < deployments; i++) {
    c.api.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `app-${i}`, namespace: 'default' },
      spec: {
        replicas,
        selector: { matchLabels: { app: `app-${i}` } },
        template: {
          metadata: { labels: { app: `app-${i}` } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
        },
      },
    });
  }
  const limit = c.clock.now() + VIRTUAL_LIMIT_MS;
  const firstBindBy = c.clock.now() + FIRST_BIND_LIMIT_MS;
  while (running < want && (c.clock.peekTime() ?? Infinity) <= limit) {
    c.clock.step();
    if (!bound && c.clock.now() > firstBindBy) break; // nothing schedules (a stub scheduler)
  }
  const ms = performance.now() - t0;
  unsubscribe();
  c.kubelet.stop();
  c.stopControllerManager();
  c.stopScheduler();
  return running >= want ? ms : Infinity;
}

/** Binds every new unbound pod at once, round-robin over the nodes (no scheduling logic). */
function startBinder(c: TestCluster): void {
  const names = nodes(NODES).map((n) => n.name);
  let i = 0;
  c.api.watch('pods', {}, (ev) => {
    const p = ev.object;
    if (ev.type !== 'ADDED' || p.spec?.nodeName || p.metadata.deletionTimestamp) return;
    try {
      c.api.bind(p.metadata.namespace!, p.metadata.name!, names[i++ % names.length]);
    } catch {
      // already bound or gone
    }
  });
}
