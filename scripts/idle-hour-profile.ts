/**
 * Profile one virtual hour of the idle booted bookshop cluster, as `engine.idle_hour_ms` measures
 * it (bench/engine.bench.ts: `bootedCluster({ seed: 1 })`, 60 s to settle, then one hour).
 *
 *   node --expose-gc --import tsx scripts/idle-hour-profile.ts [OUT.cpuprofile] [--count]
 *
 * Writes a V8 CPU profile of the hour (default /tmp/idle-hour.cpuprofile; summarise it with
 * `node scripts/cpuprofile-summary.mjs FILE`) and prints the hour's wall and CPU time. With
 * `--count` it profiles nothing and instead counts the hour's clock events by label (node names,
 * pod names and ids folded), wrapping `Clock.scheduleAt` and `Clock.every` before the cluster boots.
 *
 * A developer tool (not part of the engine, no test asserts on it): wall and CPU times depend on
 * the machine and its load; compare runs of two trees interleaved, not one run against a number.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { Clock } from '../src/engine/clock';
import { bootedCluster } from '../src/engine/cluster';

const args = process.argv.slice(2);
const count = args.includes('--count');
const out = args.find((a) => !a.startsWith('--')) ?? '/tmp/idle-hour.cpuprofile';

/** Clock events run during the hour, by folded label (with `--count`). */
const counts = new Map<string, number>();
let counting = false;
const fold = (label: string): string =>
  label
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/ (sync|requeue) [a-z0-9-]+\/\S+/, ' $1 NS/POD')
    .replace(/ probe \S+$/, ' probe CONTAINER');
if (count) {
  const scheduleAt = Clock.prototype.scheduleAt;
  const every = Clock.prototype.every;
  const tally = (label: string) => {
    if (counting) counts.set(label, (counts.get(label) ?? 0) + 1);
  };
  Clock.prototype.scheduleAt = function (at, fn, opts) {
    const label = fold(opts?.label ?? '');
    return scheduleAt.call(this, at, () => {
      tally(label);
      fn();
    }, opts);
  };
  Clock.prototype.every = function (periodMs, fn, opts) {
    const label = fold(opts?.label ?? '');
    return every.call(this, periodMs, () => {
      tally(label);
      fn();
    }, opts);
  };
}

const c = bootedCluster({ seed: 1 });
c.run(60_000);
(globalThis as { gc?: () => void }).gc?.();
const session = new Session();
if (!count) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
counting = true;
const events0 = c.clock.executed;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
c.run(60 * 60_000);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
counting = false;
console.log(`idle hour: wall ${wall.toFixed(0)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${c.clock.executed - events0} clock events`);
if (count) {
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  for (const [label, n] of rows) console.log(`${String(n).padStart(7)}  ${label}`);
} else {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
  console.log(`profile: ${out}`);
}
