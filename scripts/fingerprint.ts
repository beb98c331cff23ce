/**
 * Fingerprint what a user can observe of the simulation, to check that a performance change
 * changed nothing a user sees (a developer tool; no test runs it).
 *
 *   node --import tsx scripts/fingerprint.ts [idle|faults|scale|all]   (default all)
 *
 * Prints one line per checkpoint: virtual time, then a short SHA-1 of
 *  - w: every API write (virtual time, type, resource, the object's JSON; resourceVersions included),
 *  - t: the trace (component, message, object, kind, time),
 *  - j: every node's journal (seq, time, unit, message),
 *  - l: every pod container's logs (kubectl logs --timestamps of each container),
 *  - p: every node's process table (pid, ppid, command line, start, memory, exit status),
 *  - e: the cluster's local event records (`Cluster.events`),
 * and the write count. Two trees are equal for a user when every line matches. Clock event counts
 * are left out on purpose: a change may run fewer events for the same behaviour.
 *
 * Scenarios: `idle` (seed 1 boot, then an idle hour in steps), `faults` (seed 3: control-plane
 * manifest moved out and back, kubelet stopped and started, a node cut off the network and back,
 * a pod deleted, a node restarted, a long idle), `scale` (a bare cluster of 30 workers, 4
 * Deployments x 150 pause pods, then 10 virtual minutes).
 */
import { createHash } from 'node:crypto';
import { bootedCluster, createCluster, type Cluster } from '../src/engine/cluster.ts';
import { scaleKindConfig } from '../bench/engine.bench.ts';

const h = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 10);

/** A checkpoint printer bound to one cluster (its write digest accumulates over the run). */
function recorder(c: Cluster, name: string) {
  const writes = createHash('sha1');
  let nw = 0;
  c.api.onWrite((w) => {
    nw++;
    writes.update(`${c.clock.now()} ${w.type} ${w.resource.resource} ${JSON.stringify(w.object)}\n`);
  });
  return () => {
    const trace = c.trace.list().map((e) => JSON.stringify(e)).join('\n');
    const journals: string[] = [];
    const procs: string[] = [];
    for (const [n, m] of c.machines) {
      journals.push(n, ...m.journal.entries().map((e) => `${e.seq} ${e.at} ${e.unit ?? ''} ${e.message}`));
      procs.push(n, ...m.processes.list().map((p) => `${p.pid} ${p.ppid} ${p.command} ${p.args.join(' ')} ${p.startedAt} ${p.memoryBytes} ${JSON.stringify(p.exitStatus ?? null)}`));
    }
    const logs: string[] = [];
    let pods: ReturnType<typeof c.api.list>['items'] = [];
    try {
      pods = c.api.list('pods').items;
    } catch {
      logs.push('api down');
    }
    for (const p of pods) {
      if (!p.spec?.nodeName) continue;
      for (const ct of p.spec.containers ?? []) {
        let lines: string[];
        try {
          lines = c.containerLogs(p.metadata.namespace!, p.metadata.name!, ct.name, false, { timestamps: true });
        } catch (e) {
          lines = [`ERR ${(e as Error).message}`];
        }
        logs.push(`${p.metadata.namespace}/${p.metadata.name}/${ct.name}`, ...lines);
      }
    }
    console.log(
      `${name} t=${c.clock.now()} w=${writes.copy().digest('hex').slice(0, 10)} n=${nw} t=${h(trace)} j=${h(journals.join('\n'))} l=${h(logs.join('\n'))} p=${h(procs.join('\n'))} e=${h(JSON.stringify(c.events))}`,
    );
  };
}

function idle() {
  const c = bootedCluster({ seed: 1 });
  const d = recorder(c, 'idle');
  d();
  c.run(60_000);
  d();
  for (let i = 0; i < 4; i++) {
    c.run(15 * 60_000);
    d();
  }
}

function faults() {
  const c = createCluster({ seed: 3 });
  const d = recorder(c, 'faults');
  c.runUntil(() => c.kubeSystemReady() && c.bookshopAvailable(), { timeoutMs: 600000, stepMs: 250 });
  d();
  c.run(5 * 60_000);
  d();
  c.mv('k8s-lab-control-plane', '/etc/kubernetes/manifests/kube-apiserver.yaml', '/tmp/kube-apiserver.yaml');
  c.run(60_000);
  d();
  c.mv('k8s-lab-control-plane', '/tmp/kube-apiserver.yaml', '/etc/kubernetes/manifests/kube-apiserver.yaml');
  c.run(3 * 60_000);
  d();
  c.systemctl('k8s-lab-worker', ['stop', 'kubelet']);
  c.run(70_000);
  d();
  c.systemctl('k8s-lab-worker', ['start', 'kubelet']);
  c.run(60_000);
  d();
  c.systemctl('k8s-lab-control-plane', ['stop', 'containerd']);
  c.run(30_000);
  d();
  c.systemctl('k8s-lab-control-plane', ['start', 'containerd']);
  c.run(90_000);
  d();
  c.dockerNetwork('disconnect', 'k8s-lab-worker2');
  c.run(90_000);
  d();
  c.dockerNetwork('connect', 'k8s-lab-worker2');
  c.run(60_000);
  d();
  const p = c.api.list('pods', { namespace: 'bookshop' }).items[0];
  c.hostApi.delete('pods', 'bookshop', p.metadata.name!);
  c.run(2 * 60_000);
  d();
  c.docker('restart', 'k8s-lab-worker');
  c.run(3 * 60_000);
  d();
  c.docker('stop', 'k8s-lab-worker2');
  c.run(7 * 60_000);
  d();
  c.docker('start', 'k8s-lab-worker2');
  c.run(30 * 60_000);
  d();
}

function scale() {
  const c = bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(30) });
  const d = recorder(c, 'scale');
  d();
  c.run(10_000);
  for (let i = 0; i < 4; i++) {
    c.hostApi.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `app-${i}`, namespace: 'default' },
      spec: {
        replicas: 150,
        selector: { matchLabels: { app: `app-${i}` } },
        template: {
          metadata: { labels: { app: `app-${i}` } },
          spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
        },
      },
    });
  }
  c.run(30_000);
  d();
  c.hostApi.patch('deployments', 'default', 'app-0', 'merge', { spec: { replicas: 20 } });
  c.run(10 * 60_000);
  d();
}

const which = process.argv[2] ?? 'all';
if (which === 'idle' || which === 'all') idle();
if (which === 'faults' || which === 'all') faults();
if (which === 'scale' || which === 'all') scale();
