#!/usr/bin/env node
/**
 * Bundles the kubernetes.io examples kept in fixtures/kubernetes-website-examples/ (copies of
 * kubernetes/website's content/en/examples/, CC BY 4.0; see that directory's README.md and
 * SOURCES.tsv) into src/shell/kubectl/web-examples.json, the files `kubectl apply -f
 * https://k8s.io/examples/...` reads in the playground (src/shell/kubectl/web-examples.ts).
 *
 * The files are copied byte for byte; keys are the paths under content/en/examples/, sorted.
 * Run: node scripts/gen-web-examples.mjs
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'fixtures/kubernetes-website-examples');
const out = join(root, 'src/shell/kubectl/web-examples.json');

function walk(d) {
  const files = [];
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) files.push(...walk(p));
    else if (/\.(ya?ml|json)$/.test(name)) files.push(p);
  }
  return files;
}

const sources = new Map(
  readFileSync(join(dir, 'SOURCES.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t')),
);
const files = {};
for (const p of walk(dir).map((f) => relative(dir, f)).sort()) {
  if (!sources.has(p)) throw new Error(`${p}: not listed in SOURCES.tsv`);
  files[p] = readFileSync(join(dir, p), 'utf8');
}
for (const p of sources.keys()) if (!(p in files)) throw new Error(`SOURCES.tsv lists ${p}, which is missing`);
writeFileSync(out, JSON.stringify(files, null, 0) + '\n');
console.log(`${Object.keys(files).length} files -> ${relative(root, out)}`);
