/**
 * CPU profile of the 10k-pod scale rollout (bench/engine.bench.ts createPods) on a booted
 * 500-worker cluster. Usage: node --expose-gc --import tsx scripts/scale-profile-kubelet.ts [OUT]
 * (OUT defaults to /tmp/scale.cpuprofile; summarise with scripts/cpuprofile-summary.mjs).
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { bootedCluster } from '../src/engine/cluster.ts';
import { scaleKindConfig, createPods } from '../bench/engine.bench.ts';

const c = bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
c.run(10_000);
const s = new Session();
s.connect();
await s.post('Profiler.enable');
await s.post('Profiler.setSamplingInterval', { interval: 200 });
await s.post('Profiler.start');
const cpu0 = process.cpuUsage();
const r = createPods(c, 20, 500);
const cpu = process.cpuUsage(cpu0);
console.log(`rollout wall ${r.ms.toFixed(0)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} running ${r.running}`);
const { profile } = await s.post('Profiler.stop');
writeFileSync(process.argv[2] ?? '/tmp/scale.cpuprofile', JSON.stringify(profile));
