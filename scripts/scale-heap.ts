/**
 * Heap of the scale cluster: boot 500 workers, roll out 10,000 pause pods (as
 * bench/engine.bench.ts does for engine.scale_10k_pods_heap_mb), full GC, print the heap used.
 * With a path argument, also write a V8 heap snapshot there (large: ~500 MB heap).
 * Prints the heap with and without V8's code space (JIT output, which varies between runs).
 * Run: node --expose-gc --import tsx scripts/scale-heap.ts [/tmp/heap.heapsnapshot]
 */
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { bootedCluster } from '../src/engine/cluster.ts';
import { scaleKindConfig, createPods } from '../bench/engine.bench.ts';

const c = bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
c.run(10_000);
const cpu0 = process.cpuUsage();
const r = createPods(c, 20, 500);
const cpu = process.cpuUsage(cpu0);
globalThis.gc?.();
// Code space varies by a few MB from run to run (what the JIT compiled when); the rest is the
// simulation's data and repeats exactly.
const code = getHeapSpaceStatistics().find((s) => s.space_name === 'code_space')?.space_used_size ?? 0;
const mb = (b: number) => (b / 1048576).toFixed(1);
console.log(`running ${r.running} heap ${mb(process.memoryUsage().heapUsed)} MB (without code space ${mb(process.memoryUsage().heapUsed - code)} MB) rollout cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms virtual ${(r.virtualMs / 1000).toFixed(1)} s`);
if (process.argv[2]) writeHeapSnapshot(process.argv[2]);
