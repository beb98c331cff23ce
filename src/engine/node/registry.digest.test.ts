/**
 * The synthetic digests printed as image IDs and repo digests (`crictl images`, `kubectl get pod
 * -o jsonpath='{..imageID}'`) stay the same strings run after run: golden values.
 */
import { describe, expect, it } from 'vitest';
import { syntheticDigestHex } from './registry';

describe('syntheticDigestHex', () => {
  it('gives the same 64 hex digits for the same seed', () => {
    expect(syntheticDigestHex('')).toBe('8e5e3ba773af32782545bfef72a160dc085eefd91ee7de1e59402b3845719bb8');
    expect(syntheticDigestHex('manifest registry.k8s.io/pause:3.10')).toBe('342f32b8e18f1437537cc3c5aa29a2578707197bc5fdc445e5e71e2c173f058b');
    expect(syntheticDigestHex('config docker.io/library/nginx:1.27')).toBe('7a9c27f449e8a743c51332755b0129a4497ccd63bd13d71b628f3ce5d1af0ae9');
  });
});
