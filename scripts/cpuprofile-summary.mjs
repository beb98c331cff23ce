/**
 * Summarise a V8 .cpuprofile (from `node --cpu-prof` or scripts/idle-hour-profile.ts):
 *
 *   node scripts/cpuprofile-summary.mjs FILE [--top N] [--focus FUNCTION]
 *
 * Prints the functions with the most self time and the most inclusive time (ms and % of the
 * sampled total), then the time per clock event kind: the frames just under the engine clock's
 * `fire` (which event handler, and what it called). With `--focus F` it prints, for the samples
 * under the first frame named F, the inclusive and self time of everything F called.
 *
 * Frames are named `function file` (files by their base name: tsx compiles a module onto a few
 * lines, so line numbers say little). A developer tool, no test depends on it.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !['--top', '--focus'].includes(args[i - 1]));
if (!file) {
  console.error('usage: node scripts/cpuprofile-summary.mjs FILE [--top N] [--focus FUNCTION]');
  process.exit(2);
}
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const top = Number(opt('--top') ?? 30);
const focus = opt('--focus');

const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url ? basename(n.callFrame.url) : ''}`.trim();
/** The stack of a sample, leaf first. */
const stackOf = (id) => {
  const out = [];
  for (let at = id; at !== undefined; at = parent.get(at)) out.push(byId.get(at));
  return out;
};

const self = new Map();
const inclusive = new Map();
const perEvent = new Map();
const focusIncl = new Map();
const focusSelf = new Map();
let total = 0;
let focusTotal = 0;
const add = (m, k, d) => m.set(k, (m.get(k) ?? 0) + d);
for (let i = 0; i < profile.samples.length; i++) {
  const d = profile.timeDeltas[i + 1] ?? 0;
  total += d;
  const stack = stackOf(profile.samples[i]);
  add(self, name(stack[0]), d);
  const seen = new Set();
  for (const n of stack) {
    const k = name(n);
    if (!seen.has(k)) {
      seen.add(k);
      add(inclusive, k, d);
    }
  }
  // The clock frame that calls an event's handler: `fire` (or `step` in older trees).
  const fire = stack.findIndex((n) => n.callFrame.functionName === 'fire' || (n.callFrame.functionName === 'step' && n.callFrame.url.endsWith('clock.ts')));
  const kind = fire > 0 ? stack.slice(Math.max(0, fire - 3), fire).reverse().map(name).join(' > ') : fire === 0 ? '(clock itself)' : '(outside clock events)';
  add(perEvent, kind, d);
  if (focus) {
    const f = stack.findIndex((n) => n.callFrame.functionName === focus);
    if (f >= 0) {
      focusTotal += d;
      const seenF = new Set();
      for (let j = 0; j <= f; j++) {
        const k = name(stack[j]);
        if (!seenF.has(k)) {
          seenF.add(k);
          add(focusIncl, k, d);
        }
      }
      add(focusSelf, name(stack[0]), d);
    }
  }
}

const print = (title, m, n = top, of = total) => {
  console.log(`--- ${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${(v / 1000).toFixed(1).padStart(9)} ms ${((100 * v) / of).toFixed(1).padStart(5)}%  ${k}`);
  }
};
console.log(`sampled total: ${(total / 1000).toFixed(0)} ms (${profile.samples.length} samples)`);
print('self time', self);
print('inclusive time', inclusive);
print('per clock event (handler > what it called)', perEvent);
if (focus) {
  console.log(`\nfocus ${focus}: ${(focusTotal / 1000).toFixed(1)} ms`);
  print(`inclusive under ${focus}`, focusIncl, top, focusTotal || 1);
  print(`self under ${focus}`, focusSelf, top, focusTotal || 1);
}
