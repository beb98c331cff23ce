/**
 * Where the owner graph's boxes go: each owner tree (a Deployment with its ReplicaSets and pods, a
 * DaemonSet with its pods, a Node with its mirror pods: a connected part of the graph) is laid out
 * on its own with dagre, left to right, and the trees are stacked top to bottom in the order of
 * their first box (`GraphItem.sortKey`: the bookshop's Deployments first, by name) that is not a
 * Node (a Node's sortKey, `/Node/NAME`, sorts before every namespace; its tree goes where its
 * mirror pods' namespace, kube-system, puts it).
 *
 * Why not one dagre run over the whole graph: its crossing minimisation orders each rank over all
 * the trees at once, and with the bookshop and kube-system drawn together it put one of the web
 * ReplicaSet's two pods beside its ReplicaSet and the other a screen lower, among the control
 * plane's mirror pods, joined by a long edge across other trees. Tree by tree, a ReplicaSet's
 * pods are always next to it, and each tree's columns line up with the others' (every box is
 * `width` wide, so rank N is at the same x in every tree).
 */
import { Graph, layout } from '@dagrejs/dagre';
import type { GraphItem } from './model';

/** Where each box goes (its top-left corner, in graph units) and the edges (owner id, owned id). */
export interface Layout {
  positions: Map<string, { x: number; y: number }>;
  edges: [string, string][];
}

/** How a Node's sortKey starts (buildGraphModel). */
const NODE_SORT_PREFIX = '/Node/';
/** Vertical space between boxes of one tree (graph units). */
const NODE_SEP = 14;
/** Horizontal space between the columns (Deployment | ReplicaSet | Pod). */
const RANK_SEP = 46;
/** Space around the drawing. */
const MARGIN = 10;
/** Vertical space between two trees: more than between boxes of one tree, so the trees read apart. */
const TREE_SEP = 26;

/**
 * Lay out `items` (sorted by sortKey, as buildGraphModel gives them): boxes `width` wide and
 * `height(id)` tall. Edges run from each owner present in `items` to what it owns; owners that are
 * not there are ignored.
 */
export function computeLayout(items: readonly GraphItem[], width: number, height: (id: string) => number): Layout {
  const ids = new Set(items.map((it) => it.id));
  const edges: [string, string][] = [];
  // Connected parts by union-find over the owner edges.
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    let r = id;
    while (parent.get(r) !== r) r = parent.get(r)!;
    let c = id;
    while (c !== r) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  for (const id of ids) parent.set(id, id);
  for (const it of items) {
    for (const o of it.owners) {
      if (!ids.has(o)) continue;
      edges.push([o, it.id]);
      const a = find(o);
      const b = find(it.id);
      if (a !== b) parent.set(b, a);
    }
  }
  // The trees, each with the sortKey it is stacked by: its first item's, Nodes aside (a tree of
  // Nodes only, which buildGraphModel does not make, keeps its first item's).
  const byRoot = new Map<string, { items: GraphItem[]; order: string }>();
  for (const it of items) {
    const r = find(it.id);
    let t = byRoot.get(r);
    if (!t) byRoot.set(r, (t = { items: [], order: '' }));
    t.items.push(it);
    if (!t.order && !it.sortKey.startsWith(NODE_SORT_PREFIX)) t.order = it.sortKey;
  }
  for (const t of byRoot.values()) if (!t.order) t.order = t.items[0].sortKey;
  const trees = [...byRoot.values()].sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0)).map((t) => t.items);

  const positions = new Map<string, { x: number; y: number }>();
  let top = MARGIN;
  for (const tree of trees) {
    if (tree.length === 1) {
      // A box alone (a pod nobody owns): no layout to run.
      positions.set(tree[0].id, { x: MARGIN, y: top });
      top += height(tree[0].id) + TREE_SEP;
      continue;
    }
    const g = new Graph();
    g.setGraph({ rankdir: 'LR', nodesep: NODE_SEP, ranksep: RANK_SEP, marginx: 0, marginy: 0 });
    g.setDefaultEdgeLabel(() => ({}));
    for (const it of tree) g.setNode(it.id, { width, height: height(it.id) });
    for (const it of tree) for (const o of it.owners) if (ids.has(o)) g.setEdge(o, it.id);
    layout(g);
    let minY = Infinity;
    let maxY = -Infinity;
    let minX = Infinity;
    for (const it of tree) {
      const n = g.node(it.id) as { x: number; y: number };
      const h = height(it.id);
      minY = Math.min(minY, n.y - h / 2);
      maxY = Math.max(maxY, n.y + h / 2);
      minX = Math.min(minX, n.x - width / 2);
    }
    for (const it of tree) {
      const n = g.node(it.id) as { x: number; y: number };
      // Column by rank: dagre's x of a rank is the same in every tree when it starts at 0.
      positions.set(it.id, { x: MARGIN + (n.x - width / 2 - minX), y: top + (n.y - height(it.id) / 2 - minY) });
    }
    top += maxY - minY + TREE_SEP;
  }
  return { positions, edges };
}
