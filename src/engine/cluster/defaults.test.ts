import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KIND_CONFIG } from './defaults';
import { BOOKSHOP_FILES } from './bookshop';

const fixture = (p: string) => readFileSync(new URL(`../../../fixtures/k8s-bookshop/${p}`, import.meta.url), 'utf8');

describe('fixture copies in the engine', () => {
  it('DEFAULT_KIND_CONFIG is fixtures/k8s-bookshop/cluster/kind.yaml, byte for byte', () => {
    expect(DEFAULT_KIND_CONFIG).toBe(fixture('cluster/kind.yaml'));
  });

  it('BOOKSHOP_FILES are the fixture manifests, byte for byte', () => {
    expect(Object.keys(BOOKSHOP_FILES).length).toBeGreaterThanOrEqual(12);
    for (const [path, text] of Object.entries(BOOKSHOP_FILES)) expect(text, path).toBe(fixture(path));
  });
});
