import { it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { parseManifests } from './yaml';
it('harness', () => {
  const dir = '/tmp/h';
  let bad = 0;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yaml')).sort()) {
    const want = readFileSync(`${dir}/${f.replace('.yaml', '.kubectl')}`, 'utf8').trim();
    const docs = parseManifests(readFileSync(`${dir}/${f}`, 'utf8'), f);
    const got = docs.find((d) => d.error)?.error ?? '';
    if (got !== want) { bad++; console.log(`${f}\n  want: ${want}\n  got:  ${got}`); }
  }
  console.log('mismatches', bad);
});
