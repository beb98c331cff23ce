import { describe, expect, it } from 'vitest';
import type { ObjRecord } from '../../../protocol/messages';
import { buildGraphModel } from './model';
import { computeLayout } from './layout';

const W = 240;
const H = 66;

/** The bookshop's web Deployment with 2 pods, kindnet on 3 nodes, and the control plane's mirror pods: the trees that got mixed up. */
function cluster(): Record<string, ObjRecord> {
  const o: Record<string, ObjRecord> = {};
  const add = (r: ObjRecord) => (o[r.uid] = r);
  const own = (kind: string, name: string, uid: string) => [{ kind, name, uid, controller: true }];
  for (const app of ['catalog', 'orders', 'postgres', 'web']) {
    add({ uid: `d-${app}`, kind: 'Deployment', namespace: 'bookshop', name: app });
    add({ uid: `rs-${app}`, kind: 'ReplicaSet', namespace: 'bookshop', name: `${app}-5c9`, owners: own('Deployment', app, `d-${app}`) });
    const n = app === 'catalog' || app === 'web' ? 2 : 1;
    for (let i = 0; i < n; i++) add({ uid: `p-${app}-${i}`, kind: 'Pod', namespace: 'bookshop', name: `${app}-5c9-${i}`, status: 'Running', owners: own('ReplicaSet', `${app}-5c9`, `rs-${app}`) });
  }
  add({ uid: 'ds-kindnet', kind: 'DaemonSet', namespace: 'kube-system', name: 'kindnet' });
  add({ uid: 'ds-proxy', kind: 'DaemonSet', namespace: 'kube-system', name: 'kube-proxy' });
  add({ uid: 'n-cp', kind: 'Node', name: 'k8s-lab-control-plane' });
  for (const node of ['cp', 'w1', 'w2']) {
    add({ uid: `kindnet-${node}`, kind: 'Pod', namespace: 'kube-system', name: `kindnet-${node}`, owners: own('DaemonSet', 'kindnet', 'ds-kindnet') });
    add({ uid: `proxy-${node}`, kind: 'Pod', namespace: 'kube-system', name: `kube-proxy-${node}`, owners: own('DaemonSet', 'kube-proxy', 'ds-proxy') });
  }
  for (const c of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
    add({ uid: `m-${c}`, kind: 'Pod', namespace: 'kube-system', name: `${c}-k8s-lab-control-plane`, owners: [{ kind: 'Node', name: 'k8s-lab-control-plane', uid: 'n-cp', controller: true }] });
  }
  add({ uid: 'bare', kind: 'Pod', namespace: 'bookshop', name: 'tmp' });
  return o;
}

describe('owner graph layout', () => {
  const model = buildGraphModel(cluster(), () => true);
  const { positions, edges } = computeLayout(model.items, W, () => H);
  const pos = (id: string) => positions.get(id)!;
  /** The vertical extent of a tree: its root and everything under it. */
  const extent = (ids: string[]) => [Math.min(...ids.map((i) => pos(i).y)), Math.max(...ids.map((i) => pos(i).y + H))];

  it('places every box and every owner edge', () => {
    expect(positions.size).toBe(model.items.length);
    expect(edges).toContainEqual(['rs-web', 'p-web-1']);
    expect(edges).toContainEqual(['n-cp', 'm-etcd']);
  });

  it('keeps a ReplicaSet`s pods beside it: each tree in its own band, none overlapping another', () => {
    const trees = [
      ['d-catalog', 'rs-catalog', 'p-catalog-0', 'p-catalog-1'],
      ['d-web', 'rs-web', 'p-web-0', 'p-web-1'],
      ['ds-kindnet', 'kindnet-cp', 'kindnet-w1', 'kindnet-w2'],
      ['n-cp', 'm-etcd', 'm-kube-apiserver', 'm-kube-controller-manager', 'm-kube-scheduler'],
    ];
    const bands = trees.map(extent);
    for (let i = 0; i < bands.length; i++)
      for (let j = i + 1; j < bands.length; j++) expect(bands[i][1] <= bands[j][0] || bands[j][1] <= bands[i][0], `${trees[i][0]} and ${trees[j][0]} overlap`).toBe(true);
    // The web pods are at most one box apart from each other (not a screen lower).
    expect(Math.abs(pos('p-web-0').y - pos('p-web-1').y)).toBeLessThanOrEqual(H + 20);
  });

  it('stacks the trees in sortKey order (the bookshop first, catalog on top) with the columns aligned', () => {
    const tops = ['d-catalog', 'd-orders', 'd-postgres', 'd-web', 'ds-kindnet', 'ds-proxy'].map((id) => pos(id).y);
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    const catalogTop = extent(['d-catalog', 'rs-catalog', 'p-catalog-0', 'p-catalog-1'])[0];
    expect(catalogTop).toBe(Math.min(...[...positions.values()].map((p) => p.y)));
    // The control plane's Node and mirror pods below kube-system's DaemonSets, not on top (a Node's sortKey is `/Node/...`).
    expect(pos('n-cp').y).toBeGreaterThan(pos('ds-proxy').y);
    // Columns: Deployment | ReplicaSet | Pod at the same x in every tree; a DaemonSet's pods in the ReplicaSet column.
    expect(new Set(['d-catalog', 'd-web', 'ds-kindnet', 'n-cp', 'bare'].map((id) => pos(id).x)).size).toBe(1);
    expect(new Set(['rs-catalog', 'rs-web', 'kindnet-w1', 'm-etcd'].map((id) => pos(id).x)).size).toBe(1);
    expect(new Set(['p-catalog-0', 'p-web-1', 'p-orders-0'].map((id) => pos(id).x)).size).toBe(1);
    expect(pos('rs-web').x).toBeGreaterThan(pos('d-web').x + W);
  });
});
