/**
 * Runs every `bench/*.bench.ts` and prints one JSON object per line:
 * {"name": ..., "value": ..., "unit": ..., "goal": ...}
 *
 * Each bench file default-exports `async () => BenchResult[]`. Usage: `npm run bench`
 * (node --expose-gc --import tsx bench/run.ts), optionally with name filters:
 * `npm run bench -- clock`.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchResult {
  /** Dotted metric name, e.g. `clock.events_per_s`. */
  name: string;
  value: number;
  unit: string;
  /** The value we aim for (a floor for rates, a ceiling for times; see the unit). */
  goal: number;
}

export type Bench = () => Promise<BenchResult[]>;

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error(`bench: no bench/*.bench.ts files match ${filters.join(' ') || '(any)'}`);
  process.exit(1);
}

let failed = false;
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default?: Bench };
  if (typeof mod.default !== 'function') {
    console.error(`bench: ${file} has no default-exported function`);
    failed = true;
    continue;
  }
  globalThis.gc?.();
  try {
    for (const r of await mod.default()) {
      console.log(JSON.stringify({ name: r.name, value: r.value, unit: r.unit, goal: r.goal }));
    }
  } catch (err) {
    console.error(`bench: ${file} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    failed = true;
  }
}
if (failed) process.exitCode = 1;
