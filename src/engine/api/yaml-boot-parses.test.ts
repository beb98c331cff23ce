import { describe, expect, it } from 'vitest';
import { bootedCluster } from '../cluster';
import { parseDocument } from 'yaml';
import { DEFAULT_KIND_CONFIG } from '../cluster/defaults';
import { parseKindConfig } from '../cluster/kindconfig';
import { BOOT_PARSES, KIND_CONFIG_PARSES } from './yaml-boot-parses';
import { findLineOfPath, parseManifests, parseManifestsFresh, recentParseInputs } from './yaml';

/**
 * The precomputed parses of the default boot (scripts/gen-boot-parses.ts) must be exactly what
 * the parser returns, and must still be the texts a boot reads (else regenerate the table:
 * `npm run gen:boot-parses`).
 */
describe('BOOT_PARSES', () => {
  // First: the parse cache then holds exactly what the boot read.
  it('holds every text the default cluster parses while it boots (the table is not stale)', () => {
    const c = bootedCluster({ seed: 1 });
    expect(c.bookshopAvailable()).toBe(true);
    const read = recentParseInputs();
    const missing = read.filter((r) => !BOOT_PARSES.some((e) => e.text === r.text && e.source === r.source)).map((r) => r.source);
    // Not empty: a boot text changed; regenerate the table with `npm run gen:boot-parses`.
    expect(missing, 'stale table: run npx tsx scripts/gen-boot-parses.ts').toEqual([]);
    expect(read.map((r) => r.source).sort()).toEqual(BOOT_PARSES.map((e) => e.source).sort());
    expect(read.map((r) => r.source)).toContain('/etc/kubernetes/manifests/kube-apiserver.yaml');
    expect(read.map((r) => r.source)).toContain('manifests/bookshop/catalog.yaml');
  });

  it('every precomputed parse equals a fresh parse of its text', () => {
    expect(BOOT_PARSES.length).toBeGreaterThan(10);
    for (const e of BOOT_PARSES) {
      const fresh = parseManifestsFresh(e.text, e.source);
      expect(fresh.every((d) => d.object && !d.error)).toBe(true);
      expect(e.docs, e.source).toStrictEqual(fresh);
      expect(parseManifests(e.text, e.source), e.source).toStrictEqual(fresh);
    }
  });

  it('hands out copies: changing a parsed object does not change the next parse', () => {
    const e = BOOT_PARSES.find((x) => x.source === '/etc/kubernetes/manifests/kube-apiserver.yaml')!;
    const first = parseManifests(e.text, e.source);
    first[0].object!.metadata.name = 'changed';
    (first[0].object!.spec as { containers: { image: string }[] }).containers[0].image = 'changed';
    const again = parseManifests(e.text, e.source);
    expect(again[0].object!.metadata.name).toBe('kube-apiserver');
    expect(again).toStrictEqual(parseManifestsFresh(e.text, e.source));
    expect(e.docs[0].object!.metadata.name).toBe('kube-apiserver');
  });

  it('findLineOfPath still finds lines in a precomputed text', () => {
    const e = BOOT_PARSES.find((x) => x.source === 'manifests/bookshop/catalog.yaml')!;
    parseManifests(e.text, e.source);
    const lines = e.text.split('\n');
    const imageLine = lines.findIndex((l) => /^\s*image:/.test(l)) + 1;
    expect(imageLine).toBeGreaterThan(0);
    const doc = e.docs.findIndex((d) => d.object?.kind === 'Deployment');
    expect(findLineOfPath(e.text, doc, 'spec.template.spec.containers[0].image')).toBe(imageLine);
  });

  it('the default kind config: the precomputed value equals a fresh parse, and parseKindConfig reads the same nodes', () => {
    expect(KIND_CONFIG_PARSES.map((e) => e.text)).toEqual([DEFAULT_KIND_CONFIG]);
    for (const e of KIND_CONFIG_PARSES) expect(e.value).toStrictEqual(parseDocument(e.text, { version: '1.1' }).toJS());
    const a = parseKindConfig(DEFAULT_KIND_CONFIG);
    // The same text with a trailing comment misses the table and goes through the parser.
    const b = parseKindConfig(DEFAULT_KIND_CONFIG + '# end\n');
    expect(a).toStrictEqual(b);
    expect(a.name).toBe('k8s-lab');
    expect(a.nodes.map((n) => n.role)).toEqual(['control-plane', 'worker', 'worker']);
    // Handing out a copy: changing one config does not change the next.
    a.nodes.pop();
    expect(parseKindConfig(DEFAULT_KIND_CONFIG).nodes).toHaveLength(3);
  });
});
