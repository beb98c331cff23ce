import { describe, expect, it } from 'vitest';
import type { ObjRecord } from '../../../protocol/messages';
import { boxName, buildGraphModel, chainBoxes, groupId, groupMembers, NAME_SMALL_CHARS, POD_GROUP_THRESHOLD, tallyStatuses } from './model';

const shownAll = () => true;

function deployment(n: number, statuses: (i: number) => [string, string] = () => ['Running', '1/1']): Record<string, ObjRecord> {
  const objects: Record<string, ObjRecord> = {
    d1: { uid: 'd1', kind: 'Deployment', namespace: 'bookshop', name: 'bench', replicas: { desired: n, current: n, ready: 0, available: 0 } },
    rs1: { uid: 'rs1', kind: 'ReplicaSet', namespace: 'bookshop', name: 'bench-9bc9bfcf8', owners: [{ kind: 'Deployment', name: 'bench', uid: 'd1', controller: true }] },
  };
  for (let i = 0; i < n; i++) {
    const [status, ready] = statuses(i);
    const uid = `p${i}`;
    objects[uid] = { uid, kind: 'Pod', namespace: 'bookshop', name: `bench-9bc9bfcf8-${String(i).padStart(5, '0')}`, status, ready, owners: [{ kind: 'ReplicaSet', name: 'bench-9bc9bfcf8', uid: 'rs1', controller: true }] };
  }
  return objects;
}

describe('owner graph model', () => {
  it('draws a small workload pod by pod: Deployment -> ReplicaSet -> each Pod', () => {
    const m = buildGraphModel(deployment(3), shownAll);
    expect(m.items.map((it) => it.id)).toEqual(['d1', 'p0', 'p1', 'p2', 'rs1']);
    expect(m.items.find((it) => it.id === 'p1')?.owners).toEqual(['rs1']);
    expect(m.items.find((it) => it.id === 'rs1')?.owners).toEqual(['d1']);
    expect(m.grouped.size).toBe(0);
  });

  it(`folds more than ${POD_GROUP_THRESHOLD} pods of one ReplicaSet into one group box under it`, () => {
    const m = buildGraphModel(deployment(1000), shownAll);
    expect(m.items.map((it) => it.id)).toEqual(['d1', groupId('rs1'), 'rs1']);
    expect(m.items.find((it) => it.id === groupId('rs1'))?.owners).toEqual(['rs1']);
    expect([...m.grouped]).toEqual(['rs1']);
    // Exactly at the threshold it still draws every pod.
    expect(buildGraphModel(deployment(POD_GROUP_THRESHOLD), shownAll).grouped.size).toBe(0);
  });

  it('keeps the same structure (so the same layout) while pods join an existing group', () => {
    const a = buildGraphModel(deployment(20), shownAll);
    const b = buildGraphModel(deployment(1000), shownAll);
    expect(b.key).toBe(a.key);
  });

  it('draws a pinned (selected) pod on its own beside its group, under the same ReplicaSet', () => {
    const objects = deployment(100);
    const m = buildGraphModel(objects, shownAll, 'p42');
    expect(m.items.map((it) => it.id)).toEqual(['d1', groupId('rs1'), 'p42', 'rs1']);
    expect(m.items.find((it) => it.id === 'p42')?.owners).toEqual(['rs1']);
    expect(groupMembers(objects, 'rs1', shownAll, 'p42')).toHaveLength(99);
  });

  it('lights the group box for the pods of a selected ReplicaSet, and the pinned pod as itself', () => {
    const objects = deployment(100);
    const grouped = new Set(['rs1']);
    expect(chainBoxes(objects, ['d1', 'rs1', 'p0', 'p1', 'p2'], grouped)).toEqual(['d1', 'rs1', groupId('rs1')]);
    expect(chainBoxes(objects, ['d1', 'rs1', 'p7'], grouped, 'p7')).toEqual(['d1', 'rs1', 'p7']);
  });

  it('counts a group by kubectl STATUS, running pods that are not ready apart, most first', () => {
    const objects = deployment(30, (i) => (i < 20 ? ['Pending', '0/1'] : i < 27 ? ['Running', '1/1'] : i < 29 ? ['Running', '0/1'] : ['ContainerCreating', '0/1']));
    expect(tallyStatuses(groupMembers(objects, 'rs1', shownAll))).toEqual([
      { label: 'Pending', count: 20, tone: 'progress' },
      { label: 'Running', count: 7, tone: 'ok' },
      { label: 'Running (not ready)', count: 2, tone: 'notready' },
      { label: 'ContainerCreating', count: 1, tone: 'progress' },
    ]);
  });

  it('leaves out hidden namespaces, and draws the Node that owns mirror pods', () => {
    const objects: Record<string, ObjRecord> = {
      n1: { uid: 'n1', kind: 'Node', name: 'k8s-lab-control-plane' },
      m1: { uid: 'm1', kind: 'Pod', namespace: 'kube-system', name: 'etcd-k8s-lab-control-plane', mirror: true, owners: [{ kind: 'Node', name: 'k8s-lab-control-plane', uid: 'n1', controller: true }] },
      ...deployment(2),
    };
    expect(buildGraphModel(objects, (ns) => ns === 'kube-system').items.map((it) => it.id)).toEqual(['n1', 'm1']);
  });
});

describe('box names', () => {
  it('keeps a name whole when it fits, smaller up to 27 characters, else cut in the middle (the pod suffix and node name stay)', () => {
    expect(boxName('catalog-d66d88fb4-49tqw')).toEqual({ text: 'catalog-d66d88fb4-49tqw', small: false });
    expect(boxName('postgres-5969798f5c-8twgb')).toEqual({ text: 'postgres-5969798f5c-8twgb', small: true });
    const cp = boxName('kube-controller-manager-k8s-lab-control-plane');
    expect(cp.small).toBe(true);
    expect(cp.text).toHaveLength(NAME_SMALL_CHARS);
    expect(cp.text).toBe('kube-controll…control-plane');
    expect(boxName('shelf-controller-7d9f8c6b5d-x2k9p').text).toBe('shelf-control…f8c6b5d-x2k9p');
  });
});
