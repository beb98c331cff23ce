/**
 * Writes src/ui/state/boot-view.json: the worker's snapshot of the default cluster (seed 1) at
 * the end of its boot (src/worker/bootview.ts), which the page draws while the worker boots.
 * Run after any change to what the boot produces; src/worker/bootview.test.ts fails when stale.
 */
import { writeFileSync } from 'node:fs';
import { buildBootView } from '../src/worker/bootview';

const out = new URL('../src/ui/state/boot-view.json', import.meta.url);
const view = buildBootView(1);
writeFileSync(out, `${JSON.stringify(view)}\n`);
console.log(`wrote ${out.pathname}: ${Object.keys(view.snapshot.objects).length} objects, ${view.snapshot.trace.length} trace entries, virtual ${view.snapshot.time.now} ms`);
