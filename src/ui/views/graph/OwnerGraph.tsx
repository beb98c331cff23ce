/**
 * The owner graph (loaded on demand: React Flow and dagre stay out of the first download).
 * Deployment -> ReplicaSet -> Pod, StatefulSet / DaemonSet / Job -> Pod, Node -> mirror pod, drawn
 * from the live ownerReferences of the namespaces shown. Selecting an object highlights its chain
 * up (its owners) and down (what it owns) and brings it into view.
 *
 * React Flow's node objects are derived here, never kept in the immer store (immer freezes
 * objects React Flow writes into). Layout is recomputed only when the graph's structure changes;
 * status changes re-render only the node whose object changed. More than POD_GROUP_THRESHOLD
 * pods under one owner are one group box with their STATUS counts (./model.ts), so a Deployment
 * scaled to 1,000 pods is Deployment -> ReplicaSet -> "1000 pods" and not 1,000 boxes.
 */
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useRef } from 'react';
import { Background, Controls, Handle, MarkerType, Position, ReactFlow, ReactFlowProvider, useReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import { useShallow } from 'zustand/react/shallow';
import type { ObjRecord } from '../../../protocol/messages';
import { isNamespaceShown, simStore, useSim, type SimState } from '../../state/store';
import { descendants, ownerChain, resolveSelection, selectionOf } from '../../state/selectors';
import { useRecord } from '../../state/useRecord';
import { podTone, ToneIcon, TONE_WORDS, type Tone } from '../status';
import { boxName, buildGraphModel, chainBoxes, groupMembers, groupOwner, POD_GROUP_THRESHOLD, tallyStatuses, type GraphModel } from './model';
import { computeLayout } from './layout';
import './graph.css';

const NODE_W = 240;
const NODE_H = 66;
/** A group box is taller: one line per STATUS count under its name. */
const GROUP_H = 104;
/** STATUS lines a group box has room for (with more statuses, the last line says "+N other"). */
const GROUP_TALLY_LINES = 3;

type ObjNodeData = { uid: string; hl: 'on' | 'off' | 'none'; selected: boolean };
type ObjNode = Node<ObjNodeData, 'obj'>;
type GroupNodeData = { owner: string; pinned?: string; hl: 'on' | 'off' | 'none' };
type GroupNode = Node<GroupNodeData, 'pods'>;

const ObjNodeView = memo(function ObjNodeView({ data }: NodeProps<ObjNode>) {
  const rec = useRecord(data.uid);
  if (!rec) return null;
  const shown = boxName(rec.name);
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
      <span className={`g-name${shown.small ? ' is-long' : ''}`} title={rec.name}>
        {shown.text}
      </span>
      {detail}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

/** Tallies computed per owner once per version of the records (not on every selector check), same array while unchanged. */
const tallies = new Map<string, { objects: SimState['objects']; namespaces: SimState['namespaces']; pinned?: string; flat: string[] }>();

/** `[label, count, tone, ...]` flattened: a group re-renders when a count changes. */
function useTally(owner: string, pinned: string | undefined): string[] {
  return useSim((s) => {
    const c = tallies.get(owner);
    if (c && c.objects === s.objects && c.namespaces === s.namespaces && c.pinned === pinned) return c.flat;
    const flat = tallyStatuses(groupMembers(s.objects, owner, (ns) => isNamespaceShown(s, ns), pinned)).flatMap((e) => [e.label, String(e.count), e.tone]);
    const same = c && c.flat.length === flat.length && c.flat.every((x, i) => x === flat[i]);
    tallies.set(owner, { objects: s.objects, namespaces: s.namespaces, pinned, flat: same ? c.flat : flat });
    return same ? c.flat : flat;
  });
}

/** The pods of one owner folded into one box: how many, and how many of each STATUS (icon, count, text). */
const GroupNodeView = memo(function GroupNodeView({ data }: NodeProps<GroupNode>) {
  const owner = useRecord(data.owner);
  const flat = useTally(data.owner, data.pinned);
  if (!owner) return null;
  const tally: { label: string; count: number; tone: Tone }[] = [];
  for (let i = 0; i < flat.length; i += 3) tally.push({ label: flat[i], count: Number(flat[i + 1]), tone: flat[i + 2] as Tone });
  const total = tally.reduce((n, e) => n + e.count, 0);
  const shown = tally.length > GROUP_TALLY_LINES ? tally.slice(0, GROUP_TALLY_LINES - 1) : tally;
  const rest = tally.slice(shown.length).reduce((n, e) => n + e.count, 0);
  const words = tally.map((e) => `${e.count} ${e.label}`).join(', ');
  return (
    <div
      className={`g-node g-group hl-${data.hl}`}
      data-graph-node={`Pods/${owner.name}`}
      data-pod-count={total}
      role="group"
      aria-label={`${total} pods of ${owner.kind} ${owner.name}: ${words}`}
      title={`${total} pods of ${owner.kind} ${owner.name}, drawn as one box (more than ${POD_GROUP_THRESHOLD} under one owner). Select one on the cluster map to see it here on its own.\n${words}`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <span className="g-kind">
        {total} pod{total === 1 ? '' : 's'}
      </span>
      <span className="g-name">{owner.name}-*</span>
      <span className="g-tally">
        {shown.map((e) => (
          <span key={e.label} className={`g-tally-item tone-${e.tone}`} title={`${e.count} ${e.label} (${TONE_WORDS[e.tone]})`}>
            <ToneIcon tone={e.tone} size={12} /> {e.count} {e.label}
          </span>
        ))}
        {rest ? <span className="g-tally-item muted">+{rest} other</span> : null}
      </span>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

// Not `group`: React Flow has a built-in node type of that name (with its own frame).
const nodeTypes = { obj: ObjNodeView, pods: GroupNodeView };

/**
 * The graph model of the store's state, rebuilt when the objects, the namespace filter or the
 * pinned pod change, and kept (same object) while its structure is the same, so the layout below
 * runs only when a box appears or goes. One graph is on screen at a time: a module-level cache.
 */
let lastModel: { objects: SimState['objects']; namespaces: SimState['namespaces']; pinned?: string; model: GraphModel } | undefined;
function selectModel(s: SimState, pinned: string | undefined): GraphModel {
  const c = lastModel;
  if (c && c.objects === s.objects && c.namespaces === s.namespaces && c.pinned === pinned) return c.model;
  const m = buildGraphModel(s.objects, (ns) => isNamespaceShown(s, ns), pinned);
  const model = c && c.model.key === m.key ? c.model : m;
  lastModel = { objects: s.objects, namespaces: s.namespaces, pinned, model };
  return model;
}

function boxHeight(id: string): number {
  return groupOwner(id) ? GROUP_H : NODE_H;
}

/** The selection's chain: owners up, itself, everything it owns down. */
function useChain(selectedUid: string | undefined): string[] {
  return useSim((s) => {
    // Once per version of the records (a ReplicaSet of 1,000 pods: not a sort of its pods on every check).
    const c = lastChain;
    if (c && c.objects === s.objects && c.uid === selectedUid) return c.chain;
    let chain: string[] = NO_CHAIN;
    const rec = selectedUid ? s.objects[selectedUid] : undefined;
    if (selectedUid && rec) chain = [...ownerChain(s.objects, rec).map((o) => o.uid), selectedUid, ...descendants(s.objects, selectedUid).map((o) => o.uid)];
    const same = c && c.chain.length === chain.length && c.chain.every((u, i) => u === chain[i]);
    lastChain = { objects: s.objects, uid: selectedUid, chain: same ? c.chain : chain };
    return lastChain.chain;
  });
}

const NO_CHAIN: string[] = [];
let lastChain: { objects: SimState['objects']; uid: string | undefined; chain: string[] } | undefined;

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
/** Screen pixels left above the topmost box when the fitted boxes are taller than the canvas. */
const FIT_TOP_GAP_PX = 16;

function Flow() {
  const selected = useSim((s) => {
    const rec = resolveSelection(s.objects, s.selected);
    return rec ? `${rec.kind}/${rec.uid}` : undefined;
  });
  const selectedUid = selected?.slice(selected.indexOf('/') + 1);
  // A selected pod is drawn on its own even when its siblings are one group box.
  const pinned = selected?.startsWith('Pod/') ? selectedUid : undefined;
  const model = useSim((s) => selectModel(s, pinned));
  const chain = useChain(selectedUid);
  // The boxes the chain lights: a pod inside a group lights the group.
  const boxes = useSim(useShallow((s) => chainBoxes(s.objects, chain, model.grouped, pinned)));
  const lay = useMemo(() => computeLayout(model.items, NODE_W, boxHeight), [model]);
  const chainSet = useMemo(() => new Set(boxes), [boxes]);
  const rf = useReactFlow();

  const nodes: (ObjNode | GroupNode)[] = useMemo(
    () =>
      [...lay.positions].map(([id, position]): ObjNode | GroupNode => {
        const hl = chainSet.size === 0 ? 'none' : chainSet.has(id) ? 'on' : 'off';
        const owner = groupOwner(id);
        if (owner) return { id, type: 'pods', position, width: NODE_W, height: GROUP_H, data: { owner, ...(pinned ? { pinned } : {}), hl }, draggable: false, connectable: false };
        return { id, type: 'obj', position, width: NODE_W, height: NODE_H, data: { uid: id, hl, selected: id === selectedUid }, draggable: false, connectable: false };
      }),
    [lay, chainSet, selectedUid, pinned],
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
  const chainRef = useRef(boxes);
  // With nothing selected: the bookshop's objects (the story's), else everything; never so small
  // that the boxes cannot be read (FIT_MIN_ZOOM; pan or zoom out for the rest).
  const overview = useMemo(() => model.items.filter((it) => it.sortKey.startsWith('bookshop/')).map((it) => it.id), [model]);
  const overviewRef = useRef(overview);
  useEffect(() => {
    chainRef.current = boxes;
    overviewRef.current = overview;
  });
  useEffect(() => {
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const c = chainRef.current;
        const o = overviewRef.current;
        const ids = c.length ? c : o;
        void rf
          .fitView(
            c.length
              ? { nodes: c.map((id) => ({ id })), padding: 0.06, maxZoom: 1.25, minZoom: FIT_MIN_ZOOM, duration: 0 }
              : { ...(o.length ? { nodes: o.map((id) => ({ id })) } : {}), padding: 0.08, maxZoom: 1.3, minZoom: FIT_MIN_ZOOM, duration: 0 },
          )
          .then(() => {
            // Too tall to fit at a readable zoom: fitView centres it, cutting off the top, where
            // the story starts (the catalog Deployment; a chain's owner). Show the top instead.
            const h = canvas.current?.clientHeight ?? 0;
            if (!h) return;
            const bounds = ids.length ? rf.getNodesBounds(ids) : rf.getNodesBounds(rf.getNodes());
            const vp = rf.getViewport();
            if (bounds.height * vp.zoom + 2 * FIT_TOP_GAP_PX <= h) return;
            void rf.setViewport({ x: vp.x, y: FIT_TOP_GAP_PX - bounds.y * vp.zoom, zoom: vp.zoom }, { duration: 0 });
          });
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
            // A group box selects the owner of its pods.
            const rec = simStore.getState().objects[groupOwner(n.id) ?? n.id];
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
