/**
 * The booted playground cluster (src/engine/cluster.ts) as the browser runs it.
 *
 * - `engine.boot_ms`: wall time to boot the default kind cluster from power-on until every
 *   bookshop Deployment is Available (the product's start state).
 * - `engine.idle_hour_ms`: wall time to simulate one virtual hour of that idle cluster (leases,
 *   heartbeats, probes, controller resyncs). At x100 speed the worker must simulate 100 virtual
 *   seconds per real second, so this bounds the worker's load. Goal 100 ms (issue: node layer).
 *
 * Wall time comes from `performance.now()`, allowed in bench/ (never in src/engine).
 */
import { bootedCluster } from '../src/engine/cluster.ts';
import type { BenchResult } from './run.ts';

export default async function engineBench(): Promise<BenchResult[]> {
  const t0 = performance.now();
  const c = bootedCluster({ seed: 1 });
  const boot = performance.now() - t0;
  c.run(60_000); // settle
  const t1 = performance.now();
  c.run(60 * 60_000);
  const hour = performance.now() - t1;
  return [
    { name: 'engine.boot_ms', value: Math.round(boot), unit: 'ms', goal: 1000 },
    { name: 'engine.idle_hour_ms', value: Math.round(hour), unit: 'ms', goal: 100 },
  ];
}
