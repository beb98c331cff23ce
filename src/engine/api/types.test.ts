import { describe, it, expect } from 'vitest';
import { deepEqual, objectsEqualMetadataLast, type KubeObject } from './types';

describe('objectsEqualMetadataLast', () => {
  it('answers as deepEqual does', () => {
    const base = (): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', labels: { app: 'x' } }, data: { k: 'v' } });
    const variants: ((o: KubeObject) => void)[] = [
      () => {},
      (o) => (o.data = { k: 'w' }),
      (o) => (o.metadata.labels = { app: 'y' }),
      (o) => (o.metadata = undefined as unknown as KubeObject['metadata']),
      (o) => (o.metadata = null as unknown as KubeObject['metadata']),
      (o) => (o.extra = undefined),
      (o) => (o.extra = 1),
      (o) => delete o.data,
      (o) => (o.data = null),
      (o) => (o.data = ['k', 'v']),
      (o) => {
        o.metadata.labels = { app: 'y' };
        o.data = { k: 'w' };
      },
    ];
    for (const [i, f] of variants.entries()) {
      for (const [j, g] of variants.entries()) {
        const a = base();
        const b = base();
        f(a);
        g(b);
        expect(objectsEqualMetadataLast(a, b), `${i} ${j}`).toBe(deepEqual(a, b));
      }
    }
  });
});
