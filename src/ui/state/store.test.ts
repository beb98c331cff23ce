import { describe, expect, it } from 'vitest';
import type { FromWorker, ObjRecord } from '../../protocol/messages';
import { createSimStore } from './store';
import { descendants, ownerChain, podsOnNode } from './selectors';

const run = { playing: false, speed: 1, seed: 1, cluster: 'test' as const };
const time = { now: 0, epochMs: 0 };

const deploy: ObjRecord = { uid: 'd', kind: 'Deployment', namespace: 'bookshop', name: 'catalog', replicas: { desired: 2, current: 2, ready: 2 } };
const rs: ObjRecord = { uid: 'r', kind: 'ReplicaSet', namespace: 'bookshop', name: 'catalog-1', owners: [{ kind: 'Deployment', name: 'catalog', uid: 'd', controller: true }] };
const pod = (uid: string, name: string, node = 'w1', status = 'Running'): ObjRecord => ({
  uid,
  kind: 'Pod',
  namespace: 'bookshop',
  name,
  nodeName: node,
  status,
  ready: '1/1',
  owners: [{ kind: 'ReplicaSet', name: 'catalog-1', uid: 'r', controller: true }],
});

function snapshot(objects: ObjRecord[]): Extract<FromWorker, { type: 'snapshot' }> {
  return { type: 'snapshot', protocol: 1, seq: 0, objects: Object.fromEntries(objects.map((o) => [o.uid, o])), time, trace: [], run };
}

describe('the store', () => {
  it('applies diffs in sequence and refuses a gap', () => {
    const store = createSimStore();
    store.getState().applySnapshot(snapshot([deploy, rs, pod('p1', 'catalog-1-a'), pod('p2', 'catalog-1-b', 'w2')]));
    const before = store.getState().objects;
    expect(store.getState().applyDiff({ type: 'diff', seq: 1, upserts: [pod('p1', 'catalog-1-a', 'w1', 'Terminating')], removals: [], trace: [], time })).toBe(true);
    const after = store.getState().objects;
    expect(after.p1.status).toBe('Terminating');
    // Untouched records keep their identity: their chips do not re-render.
    expect(after.p2).toBe(before.p2);
    expect(after.d).toBe(before.d);
    expect(store.getState().applyDiff({ type: 'diff', seq: 3, upserts: [], removals: ['p1'], trace: [], time })).toBe(false);
    expect(store.getState().objects.p1).toBeDefined();
    expect(store.getState().applyDiff({ type: 'diff', seq: 2, upserts: [], removals: ['p1'], trace: [], time })).toBe(true);
    expect(store.getState().objects.p1).toBeUndefined();
  });

  it('derives the owner chain up and down, and pods per node in namespace/name order', () => {
    const store = createSimStore();
    store.getState().applySnapshot(snapshot([deploy, rs, pod('p2', 'catalog-1-b'), pod('p1', 'catalog-1-a')]));
    const s = store.getState();
    expect(ownerChain(s.objects, s.objects.p1).map((o) => o.name)).toEqual(['catalog', 'catalog-1']);
    expect(descendants(s.objects, 'd').map((o) => o.name)).toEqual(['catalog-1', 'catalog-1-a', 'catalog-1-b']);
    expect(podsOnNode(s, 'w1').map((o) => o.name)).toEqual(['catalog-1-a', 'catalog-1-b']);
    s.setNamespaceShown('bookshop', false);
    expect(podsOnNode(store.getState(), 'w1')).toEqual([]);
  });

  it('records a shell line and its streamed output', () => {
    const sent: unknown[] = [];
    const store = createSimStore((m) => sent.push(m));
    store.getState().runLine('kubectl delete pod x -n bookshop');
    const id = store.getState().shell[0].id;
    expect(sent).toEqual([{ type: 'shell', line: 'kubectl delete pod x -n bookshop', id }]);
    store.getState().shellOutput({ type: 'shellOutput', id, text: 'pod "x" deleted\n' });
    store.getState().shellOutput({ type: 'shellOutput', id, text: '', done: true, exitCode: 0 });
    expect(store.getState().shell[0]).toMatchObject({ output: 'pod "x" deleted\n', done: true, exitCode: 0 });
  });
});
