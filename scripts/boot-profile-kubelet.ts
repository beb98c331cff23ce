/**
 * CPU profile of booting the 500-worker scale cluster (bench/engine.bench.ts
 * `engine.boot_500_nodes_ms`). Usage: node --expose-gc --import tsx scripts/boot-profile-kubelet.ts [OUT]
 * (OUT defaults to /tmp/boot500.cpuprofile; summarise with scripts/cpuprofile-summary.mjs).
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { bootedCluster } from '../src/engine/cluster.ts';
import { scaleKindConfig } from '../bench/engine.bench.ts';

const s = new Session();
s.connect();
await s.post('Profiler.enable');
await s.post('Profiler.setSamplingInterval', { interval: 200 });
await s.post('Profiler.start');
const cpu0 = process.cpuUsage();
const t0 = performance.now();
bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
console.log(`boot wall ${ms.toFixed(0)} cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)}`);
const { profile } = await s.post('Profiler.stop');
writeFileSync(process.argv[2] ?? '/tmp/boot500.cpuprofile', JSON.stringify(profile));
