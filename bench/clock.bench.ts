/**
 * Throughput of the virtual clock in the shape the engine uses it: a few thousand timers
 * pending at once (heartbeats, backoffs, watch deliveries), each firing and scheduling the next.
 */
import { Clock } from '../src/engine/clock.ts';
import type { BenchResult } from './run.ts';

const EVENTS = 2_000_000;
const PENDING = 5_000;

export default async function clockBench(): Promise<BenchResult[]> {
  run(EVENTS / 10); // warm up the JIT
  const ms = run(EVENTS);
  return [{ name: 'clock.events_per_s', value: Math.round(EVENTS / (ms / 1000)), unit: 'events/s', goal: 2_000_000 }];
}

/** Keep PENDING timers alive until EVENTS have fired; return wall ms. */
function run(n: number): number {
  const clock = new Clock();
  let fired = 0;
  const fn = () => {
    fired++;
    if (fired + PENDING <= n) clock.schedule(1 + ((fired * 7919) % 10_000), fn);
  };
  const t0 = performance.now();
  for (let i = 0; i < PENDING; i++) clock.schedule((i * 7919) % 10_000, fn);
  clock.runUntilQuiet(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const ms = performance.now() - t0;
  if (fired !== n) throw new Error(`clock bench: fired ${fired} of ${n}`);
  return ms;
}
