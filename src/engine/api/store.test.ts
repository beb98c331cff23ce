/**
 * The object store's lookups and iteration order: `values()` iterates in the order of a Map
 * keyed by `ns/name` (a replaced object keeps its place; a removed and re-added one goes last),
 * whatever the store's internal layout.
 */
import { describe, expect, it } from 'vitest';
import { ObjectStore, type Change } from './store';
import type { KubeObject } from './types';

function cm(ns: string | undefined, name: string, v = '1'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(ns ? { namespace: ns } : {}) }, data: { v } };
}

function change(s: ObjectStore, object: KubeObject, type: Change['type'] = 'ADDED'): Change {
  return { revision: s.nextRevision(), typeKey: '/configmaps', type, object };
}

describe('ObjectStore', () => {
  it('iterates in insertion order: a replaced object keeps its place, a re-added one goes last', () => {
    const s = new ObjectStore();
    const put = (ns: string, name: string, v = '1') => {
      const o = cm(ns, name, v);
      s.put('/configmaps', ns, name, o, change(s, o));
    };
    put('b', 'x');
    put('a', 'y');
    put('b', 'z');
    put('a', 'y', '2');
    s.remove('/configmaps', 'b', 'x', change(s, cm('b', 'x'), 'DELETED'));
    put('b', 'x', '3');
    expect([...s.values('/configmaps')].map((o) => `${o.metadata.namespace}/${o.metadata.name}=${(o.data as { v: string }).v}`)).toEqual(['a/y=2', 'b/z=1', 'b/x=3']);
    expect(s.count('/configmaps')).toBe(3);
    expect(s.get('/configmaps', 'a/y')?.data).toEqual({ v: '2' });
    expect(s.getByName('/configmaps', 'a', 'y')).toBe(s.get('/configmaps', 'a/y'));
    expect(s.get('/configmaps', 'a/x')).toBeUndefined();
    expect(s.get('/configmaps', 'ay')).toBeUndefined();
    expect([...s.values('/secrets')]).toEqual([]);
  });

  it('keys cluster-scoped objects by "/name"', () => {
    const s = new ObjectStore();
    const o = cm(undefined, 'n');
    s.put('/namespaces', undefined, 'n', o, change(s, o));
    expect(s.get('/namespaces', '/n')).toBe(o);
    expect(s.getByName('/namespaces', undefined, 'n')).toBe(o);
    expect(s.getByName('/namespaces', '', 'n')).toBe(o);
    s.remove('/namespaces', undefined, 'n', change(s, o, 'DELETED'));
    expect(s.count('/namespaces')).toBe(0);
    expect(s.get('/namespaces', '/n')).toBeUndefined();
  });
});
