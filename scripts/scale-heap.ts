/**
 * Heap of the scale cluster: boot 500 workers, roll out 10,000 pause pods (as
 * bench/engine.bench.ts does for engine.scale_10k_pods_heap_mb), full GC, print the heap used.
 * With a path argument, also write a V8 heap snapshot there (large: ~500 MB heap).
 * Run: node --expose-gc --import tsx scripts/scale-heap.ts [/tmp/heap.heapsnapshot]
 */
import { writeHeapSnapshot } from 'node:v8';
import { bootedCluster } from '../src/engine/cluster.ts';
import { scaleKindConfig, createPods } from '../bench/engine.bench.ts';

const c = bootedCluster({ seed: 1, bare: true, kindConfig: scaleKindConfig(500) });
c.run(10_000);
const cpu0 = process.cpuUsage();
const r = createPods(c, 20, 500);
const cpu = process.cpuUsage(cpu0);
globalThis.gc?.();
console.log(`running ${r.running} heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MB rollout cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms virtual ${(r.virtualMs / 1000).toFixed(1)} s`);
if (process.argv[2]) writeHeapSnapshot(process.argv[2]);
