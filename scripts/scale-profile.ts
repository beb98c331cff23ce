/**
 * Profile the 10k-pod scale rollout as `engine.scale_10k_pods_ms` runs it (bench/engine.bench.ts:
 * a bare 500-node cluster, 10 s to settle, then 20 Deployments of 500 pods until all run).
 *
 *   node --expose-gc --import tsx scripts/scale-profile.ts [OUT.cpuprofile]
 *
 * Writes a V8 CPU profile of the rollout (default /tmp/scale.cpuprofile; summarise it with
 * `node scripts/cpuprofile-summary.mjs FILE`) and prints its wall and CPU time (ms).
 *
 * A developer tool (not part of the engine, no test asserts on it): times depend on the machine
 * and its load; compare runs of two trees interleaved, not one run against a number.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { bootedCluster } from '../src/engine/cluster.ts';
import { scaleKindConfig, createPods } from '../bench/engine.bench.ts';

const c = bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
c.run(10_000);
const profile = !process.argv.includes('--no-profile');
const s = new Session();
if (profile) {
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 200 });
  await s.post('Profiler.start');
}
const cpu0 = process.cpuUsage();
const r = createPods(c, 20, 500);
const cpu = process.cpuUsage(cpu0);
console.log(`rollout wall ${r.ms.toFixed(0)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} running ${r.running}`);
if (profile) {
  const { profile: p } = await s.post('Profiler.stop');
  writeFileSync(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '/tmp/scale.cpuprofile', JSON.stringify(p));
}
