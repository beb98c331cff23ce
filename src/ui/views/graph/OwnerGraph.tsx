/**
 * The owner graph (loaded on demand: React Flow and dagre stay out of the first download).
 * Deployment -> ReplicaSet -> Pod, StatefulSet / DaemonSet / Job -> Pod, Node -> mirror pod, drawn
 * from the live ownerReferences of the namespaces shown. Selecting an object highlights its chain
 * up (its owners) and down (what it owns) and brings it into view.
 *
 * React Flow's node objects are derived here, never kept in the immer store (immer freezes
 * objects React Flow writes into). Layout is recomputed only when the graph's structure changes;
 * status changes re-render only the node whose object changed.
 */
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useRef } from 'react';
import { Background, Controls, Handle, MarkerType, Position, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import { Graph, layout } from '@dagrejs/dagre';
import { useShallow } from 'zustand/react/shallow';
import type { ObjRecord } from '../../../protocol/messages';
import { isNamespaceShown, simStore, useSim, type SimState } from '../../state/store';
import { descendants, ownerChain, resolveSelection, selectionOf, useObject } from '../../state/selectors';
import { podTone, ToneIcon } from '../status';

const NODE_W = 240;
const NODE_H = 66;
const GRAPH_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod']);

type ObjNodeData = { uid: string; hl: 'on' | 'off' | 'none'; selected: boolean };
type ObjNode = Node<ObjNodeData, 'obj'>;

const ObjNodeView = memo(function ObjNodeView({ data }: NodeProps<ObjNode>) {
  const rec = useObject(data.uid);
  if (!rec) return null;
  let detail: React.ReactNode = null;
  if (rec.kind === 'Pod') {
    const tone = podTone(rec);
    detail = (
      <span className={`g-status tone-${tone}`}>
        <ToneIcon tone={tone} size={13} /> {rec.status} · {rec.ready}
      </span>
    );
  } else if (rec.replicas) {
    detail = (
      <span className="g-status">
        {rec.kind === 'Job' ? 'completions' : 'ready'} {rec.replicas.ready}/{rec.replicas.desired}
      </span>
    );
  } else if (rec.kind === 'Node') {
    detail = <span className="g-status">{rec.nodeReady === 'True' ? 'Ready' : 'NotReady'}</span>;
  }
  return (
    <div className={`g-node kind-${rec.kind.toLowerCase()} hl-${data.hl}${data.selected ? ' is-selected' : ''}`} data-graph-node={`${rec.kind}/${rec.name}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <span className="g-kind">{rec.kind}</span>
      <span className="g-name" title={rec.name}>
        {rec.name}
      </span>
      {detail}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const nodeTypes = { obj: ObjNodeView };

/** `uid|ownerUid,ownerUid|sortKey` for each object in the graph: the structure that layout depends on. */
function structure(s: SimState): string[] {
  const out: string[] = [];
  const nodeOwners = new Set<string>();
  for (const o of Object.values(s.objects)) {
    if (!GRAPH_KINDS.has(o.kind) || !isNamespaceShown(s, o.namespace)) continue;
    const owners = (o.owners ?? []).filter((r) => s.objects[r.uid]);
    for (const r of owners) if (s.objects[r.uid].kind === 'Node') nodeOwners.add(r.uid);
    out.push(`${o.uid}|${owners.map((r) => r.uid).join(',')}|${o.namespace ?? ''}/${o.kind}/${o.name}`);
  }
  for (const uid of nodeOwners) out.push(`${uid}||/Node/${s.objects[uid].name}`);
  return out.sort((a, b) => {
    const ka = a.slice(a.lastIndexOf('|') + 1);
    const kb = b.slice(b.lastIndexOf('|') + 1);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

interface Layout {
  positions: Map<string, { x: number; y: number }>;
  edges: [string, string][];
}

function computeLayout(items: string[]): Layout {
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 46, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set<string>();
  const edges: [string, string][] = [];
  for (const it of items) {
    const [uid] = it.split('|');
    ids.add(uid);
    g.setNode(uid, { width: NODE_W, height: NODE_H });
  }
  for (const it of items) {
    const [uid, owners] = it.split('|');
    for (const o of owners ? owners.split(',') : []) {
      if (!ids.has(o)) continue;
      g.setEdge(o, uid);
      edges.push([o, uid]);
    }
  }
  layout(g);
  const positions = new Map<string, { x: number; y: number }>();
  for (const uid of ids) {
    const n = g.node(uid) as { x: number; y: number };
    positions.set(uid, { x: n.x - NODE_W / 2, y: n.y - NODE_H / 2 });
  }
  return { positions, edges };
}

/** The selection's chain: owners up, itself, everything it owns down. */
function useChain(): { selectedUid?: string; chain: string[] } {
  const selectedUid = useSim((s) => resolveSelection(s.objects, s.selected)?.uid);
  const chain = useSim(
    useShallow((s) => {
      if (!selectedUid || !s.objects[selectedUid]) return [] as string[];
      const rec = s.objects[selectedUid];
      return [...ownerChain(s.objects, rec).map((o) => o.uid), selectedUid, ...descendants(s.objects, selectedUid).map((o) => o.uid)];
    }),
  );
  return { selectedUid, chain };
}

function ChainCaption({ chain }: { chain: string[] }) {
  const recs = useSim(useShallow((s) => chain.map((u) => s.objects[u]).filter((o): o is ObjRecord => !!o)));
  if (recs.length === 0) return <p className="g-caption muted">Select an object to highlight its owners and what it owns.</p>;
  return (
    <p className="g-caption" data-testid="graph-chain">
      {recs.slice(0, 6).map((r, i) => (
        <span key={r.uid}>
          {i > 0 ? <span aria-hidden="true"> → </span> : null}
          <span className="kind">{r.kind}</span> {r.name}
        </span>
      ))}
      {recs.length > 6 ? <span className="muted"> and {recs.length - 6} more</span> : null}
    </p>
  );
}

/** Smallest zoom a fit goes to: below it the 13 px labels of the boxes are no longer readable. */
const FIT_MIN_ZOOM = 0.55;

function Flow() {
  const items = useSim(useShallow(structure));
  const { selectedUid, chain } = useChain();
  const lay = useMemo(() => computeLayout(items), [items]);
  const chainSet = useMemo(() => new Set(chain), [chain]);
  const rf = useReactFlow();

  const nodes: ObjNode[] = useMemo(
    () =>
      [...lay.positions].map(([uid, position]) => ({
        id: uid,
        type: 'obj' as const,
        position,
        width: NODE_W,
        height: NODE_H,
        data: { uid, hl: chainSet.size === 0 ? 'none' : chainSet.has(uid) ? 'on' : 'off', selected: uid === selectedUid },
        draggable: false,
        connectable: false,
      })),
    [lay, chainSet, selectedUid],
  );
  const edges: Edge[] = useMemo(
    () =>
      lay.edges.map(([from, to]) => {
        const on = chainSet.has(from) && chainSet.has(to);
        return {
          id: `${from}->${to}`,
          source: from,
          target: to,
          markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 },
          className: chainSet.size === 0 ? '' : on ? 'g-edge-on' : 'g-edge-off',
          focusable: false,
        };
      }),
    [lay, chainSet],
  );

  // Bring the selected chain (or, with nothing selected, everything) into view when the
  // selection changes and when the canvas changes size (a laptop window, a projector).
  const canvas = useRef<HTMLDivElement>(null);
  const chainRef = useRef(chain);
  // With nothing selected: the bookshop's objects (the story's), else everything; never so small
  // that the boxes cannot be read (FIT_MIN_ZOOM; pan or zoom out for the rest).
  const overview = useMemo(() => {
    const shop = items.filter((it) => it.split('|')[2]?.startsWith('bookshop/')).map((it) => it.split('|')[0]);
    return shop;
  }, [items]);
  const overviewRef = useRef(overview);
  useEffect(() => {
    chainRef.current = chain;
    overviewRef.current = overview;
  });
  useEffect(() => {
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const c = chainRef.current;
        const o = overviewRef.current;
        void rf.fitView(
          c.length
            ? { nodes: c.map((id) => ({ id })), padding: 0.06, maxZoom: 1.25, minZoom: FIT_MIN_ZOOM, duration: 0 }
            : { ...(o.length ? { nodes: o.map((id) => ({ id })) } : {}), padding: 0.08, maxZoom: 1.3, minZoom: FIT_MIN_ZOOM, duration: 0 },
        );
      });
    };
    fit();
    const ro = new ResizeObserver(fit);
    if (canvas.current) ro.observe(canvas.current);
    return () => {
      cancelAnimationFrame(frame);
      ro.disconnect();
    };
  }, [selectedUid, rf]);

  return (
    <div className="graph-wrap">
      <ChainCaption chain={chain} />
      <div className="graph-canvas" aria-label="Owner graph" ref={canvas}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          fitView
          fitViewOptions={{ padding: 0.08, maxZoom: 1.3, minZoom: FIT_MIN_ZOOM }}
          minZoom={0.2}
          maxZoom={2}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          onNodeClick={(_, n) => {
            const rec = simStore.getState().objects[n.id];
            if (rec) simStore.getState().select(selectionOf(rec));
          }}
          onPaneClick={() => simStore.getState().select(undefined)}
        >
          <Background gap={24} size={1} />
          <Controls showInteractive={false} position="top-right" />
        </ReactFlow>
      </div>
    </div>
  );
}

export default function OwnerGraph() {
  return (
    <ReactFlowProvider>
      <Flow />
    </ReactFlowProvider>
  );
}
