import { describe, expect, it } from 'vitest';
import type { FromWorker, ObjRecord } from '../../protocol/messages';
import { createSimStore, simStore } from './store';
import { NOT_SEEN_BY_SCHEDULER, subscribeUid, unplacedGroupsOf } from './selectors';

const run = { playing: false, speed: 1, seed: 1, cluster: 'test' as const };
const time = { now: 0, epochMs: 0 };
const TOO_MANY = '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Too many pods. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';

const pod = (uid: string, name: string, extra: Partial<ObjRecord> = {}): ObjRecord => ({ uid, kind: 'Pod', namespace: 'bookshop', name, nodeName: '', status: 'Pending', ready: '0/1', ...extra });

function snapshot(objects: ObjRecord[]): Extract<FromWorker, { type: 'snapshot' }> {
  return { type: 'snapshot', protocol: 1, seq: 0, objects: Object.fromEntries(objects.map((o) => [o.uid, o])), time, trace: [], run };
}

describe('map selectors', () => {
  it('groups unscheduled pods by their FailedScheduling message, in name order', () => {
    const store = createSimStore();
    store.getState().applySnapshot(
      snapshot([
        { uid: 'n1', kind: 'Node', name: 'k8s-lab-worker' },
        pod('a', 'bench-a', { unschedulableReason: TOO_MANY }),
        pod('b', 'bench-b'),
        pod('c', 'bench-c', { unschedulableReason: TOO_MANY }),
        pod('d', 'bench-d', { nodeName: 'k8s-lab-worker', status: 'Running', ready: '1/1' }),
        pod('e', 'bench-e', { nodeName: 'gone-node', status: 'Running', ready: '1/1' }),
      ]),
    );
    // b has no PodScheduled condition (no scheduler has reported on it); e's node is gone.
    expect(unplacedGroupsOf(store.getState())).toEqual([
      { reason: TOO_MANY, uids: ['a', 'c'] },
      { reason: NOT_SEEN_BY_SCHEDULER, uids: ['b'] },
      { reason: '', uids: ['e'] },
    ]);
  });

  it('wakes only the chip whose record changed, and the two chips a selection moves between', () => {
    simStore.getState().applySnapshot(snapshot([pod('p1', 'bench-1'), pod('p2', 'bench-2'), pod('p3', 'bench-3')]));
    const heard: string[] = [];
    const offs = ['p1', 'p2', 'p3'].map((uid) => subscribeUid(uid, () => heard.push(uid)));
    simStore.getState().applyDiff({ type: 'diff', seq: 1, upserts: [pod('p2', 'bench-2', { status: 'ContainerCreating', nodeName: 'w1' })], removals: [], trace: [], time });
    expect(heard).toEqual(['p2']);
    heard.length = 0;
    simStore.getState().select({ uid: 'p1', kind: 'Pod', namespace: 'bookshop', name: 'bench-1' });
    simStore.getState().select({ uid: 'p3', kind: 'Pod', namespace: 'bookshop', name: 'bench-3' });
    expect(heard).toEqual(['p1', 'p1', 'p3']);
    heard.length = 0;
    simStore.getState().applyDiff({ type: 'diff', seq: 2, upserts: [], removals: ['p3'], trace: [], time });
    expect(heard).toEqual(['p3']);
    for (const off of offs) off();
    heard.length = 0;
    simStore.getState().applyDiff({ type: 'diff', seq: 3, upserts: [pod('p1', 'bench-1', { status: 'Running' })], removals: [], trace: [], time });
    expect(heard).toEqual([]);
  });
});
