/**
 * What one virtual hour of the idle bookshop cluster cannot avoid, against `engine.idle_hour_ms`'
 * goal of 100 ms (bench/engine.bench.ts):
 *
 *   node --expose-gc --import tsx scripts/idle-hour-floor.ts
 *
 * 1. Runs the hour as the bench does (seed 1, 60 s to settle) and counts its clock events and
 *    its API writes by kind and type (Lease renewals, Node status, Event deletions).
 * 2. The clock's own floor: as many clock events as the hour ran, each with an empty handler, on
 *    a fresh clock (periodic timers spread over the hour, as leases and probes are).
 * 3. The writes' floor: the same number of Lease renewals (GET + UPDATE, the watch events
 *    delivered) on a second booted, settled cluster, so every informer that watches Leases
 *    receives them. Best of five rounds.
 * 4. What is left of the goal for each of the hour's other events (probes, PLEG relists,
 *    housekeeping, resyncs, program timers).
 *
 * A developer tool (not part of the engine, no test asserts on it): wall times depend on the
 * machine and its load; run it on a quiet machine and read the floors against each other.
 */
import { bootedCluster } from '../src/engine/cluster';
import { Clock } from '../src/engine/clock';

const GOAL_MS = 100;
const HOUR_MS = 3_600_000;

// 1. The hour.
const c = bootedCluster({ seed: 1 });
c.run(60_000);
const writes = new Map<string, number>();
const off = c.api.onWrite((w) => {
  const k = `${w.object.kind} ${w.type}`;
  writes.set(k, (writes.get(k) ?? 0) + 1);
});
const e0 = c.clock.executed;
const t0 = performance.now();
c.run(HOUR_MS);
const hourMs = performance.now() - t0;
off();
const events = c.clock.executed - e0;
const writeCount = [...writes.values()].reduce((a, b) => a + b, 0);
console.log(`idle hour: ${hourMs.toFixed(0)} ms wall, ${events} clock events, ${writeCount} API writes`);
for (const [k, v] of [...writes].sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(6)}  ${k}`);

// 2. The clock's floor: `events` empty handlers on periodic timers.
let clockMs = Infinity;
for (let round = 0; round < 5; round++) {
  const clock = new Clock();
  const timers = 240;
  const period = Math.floor((timers * HOUR_MS) / events);
  for (let i = 0; i < timers; i++) clock.every(period + i, () => {}, { label: 'empty' });
  const t = performance.now();
  clock.runUntil(HOUR_MS);
  clockMs = Math.min(clockMs, performance.now() - t);
}
console.log(`clock floor: ${clockMs.toFixed(1)} ms for about ${events} empty clock events`);

// 3. The writes' floor: `writeCount` Lease renewals with their watch events delivered.
const d = bootedCluster({ seed: 1 });
d.run(60_000);
const leases = d.hostApi.list('leases', { namespace: 'kube-node-lease' }).items;
let writeMs = Infinity;
for (let round = 0; round < 5; round++) {
  const t = performance.now();
  for (let i = 0; i < writeCount; i++) {
    const name = leases[i % leases.length].metadata.name!;
    const l = d.hostApi.get('leases', 'kube-node-lease', name);
    (l.spec as { renewTime: string }).renewTime = d.clock.rfc3339Micro();
    d.hostApi.update(l);
    if (i % 10 === 9) d.clock.advance(1);
  }
  writeMs = Math.min(writeMs, performance.now() - t);
}
console.log(`write floor: ${writeMs.toFixed(1)} ms for ${writeCount} Lease renewals (GET + UPDATE, watches delivered), ${((writeMs * 1000) / writeCount).toFixed(1)} us each`);

// 4. What is left for everything else.
const rest = GOAL_MS - clockMs - writeMs;
const others = events - writeCount;
console.log(`left of the ${GOAL_MS} ms goal: ${rest.toFixed(1)} ms for ${others} other events = ${((rest * 1000) / others).toFixed(2)} us each (the hour now: ${((hourMs * 1000) / events).toFixed(1)} us per event)`);
