/**
 * Profile the 10k-pod scale rollout as `engine.scale_10k_pods_ms` runs it (bench/engine.bench.ts:
 * a bare 500-node cluster, 10 s to settle, then 20 Deployments of 500 pods until all run), or
 * with `--boot` the boot of that cluster (`engine.boot_500_nodes_ms`).
 *
 *   node --expose-gc --import tsx scripts/scale-profile.ts [OUT.cpuprofile] [--boot] [--no-profile]
 *
 * Writes a V8 CPU profile (default /tmp/scale.cpuprofile, or /tmp/boot500.cpuprofile with
 * `--boot`; summarise it with `node scripts/cpuprofile-summary.mjs FILE`) and prints the wall and
 * CPU time (ms) of what it profiled. `--no-profile` only times it.
 *
 * A developer tool (not part of the engine, no test asserts on it): times depend on the machine
 * and its load; compare runs of two trees interleaved, not one run against a number.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { bootedCluster } from '../src/engine/cluster.ts';
import { scaleKindConfig, createPods } from '../bench/engine.bench.ts';

const args = process.argv.slice(2);
const boot = args.includes('--boot');
const profile = !args.includes('--no-profile');
const out = args.find((a) => !a.startsWith('--')) ?? (boot ? '/tmp/boot500.cpuprofile' : '/tmp/scale.cpuprofile');
const s = new Session();
const startProfile = async () => {
  if (!profile) return;
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 200 });
  await s.post('Profiler.start');
};

let line: string;
if (boot) {
  await startProfile();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  line = `boot wall ${ms.toFixed(0)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)}`;
} else {
  const c = bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
  c.run(10_000);
  await startProfile();
  const cpu0 = process.cpuUsage();
  const r = createPods(c, 20, 500);
  const cpu = process.cpuUsage(cpu0);
  line = `rollout wall ${r.ms.toFixed(0)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} running ${r.running}`;
}
console.log(line);
if (profile) {
  const { profile: p } = await s.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(p));
}
