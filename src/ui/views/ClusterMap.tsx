/**
 * The cluster map: one panel per node (control plane first, then by name), its pods as chips in
 * namespace/name order, and a panel for pods no node has taken yet. Panels and chips keep their
 * order as pods come and go, so nothing jumps on a projector.
 */
import { memo, useDeferredValue, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ObjRecord } from '../../protocol/messages';
import { isNamespaceShown, simStore, useSim } from '../state/store';
import { podsOnNode, selectionOf, useHiddenPodCount, useNamespaceCounts, useNodeUids, useObject, useUnplacedPodUids } from '../state/selectors';
import { nodeTone, podTone, ToneIcon, TONE_WORDS } from './status';
import { ActionMenu } from './ActionMenu';
import { nodeActions } from './actions';

/** Strip the well-known prefixes from a taint key for the short summary. */
function shortTaintKey(key: string): string {
  return key.replace(/^node-role\.kubernetes\.io\//, '').replace(/^node\.kubernetes\.io\//, '');
}

export function taintText(t: { key: string; value?: string; effect: string }): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

const PodChip = memo(function PodChip({ uid, showNode = false }: { uid: string; showNode?: boolean }) {
  const rec = useObject(uid);
  const selected = useSim((s) => s.selected?.uid === uid);
  if (!rec) return null;
  const tone = podTone(rec);
  const status = rec.status ?? 'Pending';
  return (
    <li className="chip-item">
      <button
        type="button"
        className={`pod-chip tone-${tone}${selected ? ' is-selected' : ''}${rec.mirror ? ' is-mirror' : ''}`}
        aria-pressed={selected}
        aria-label={`Pod ${rec.name}, ${status}, ${rec.ready ?? '0/0'} ready${rec.restarts ? `, ${rec.restarts} restarts` : ''} (${TONE_WORDS[tone]})`}
        data-pod={rec.name}
        data-status={status}
        onClick={() => simStore.getState().select(selected ? undefined : selectionOf(rec))}
      >
        <ToneIcon tone={tone} />
        <span className="pod-chip-text">
          <span className="pod-name">{rec.name}</span>
          <span className="pod-status">
            <span className="pod-status-text">{status}</span>
            <span className="pod-ready" title="READY: containers ready / total">
              {rec.ready}
            </span>
            {rec.restarts ? (
              <span className="pod-restarts" title="RESTARTS">
                ↻ {rec.restarts}
              </span>
            ) : null}
            {showNode && rec.nodeName ? <span className="pod-node">on {rec.nodeName}</span> : null}
          </span>
          {rec.unschedulableReason ? <span className="pod-reason">{rec.unschedulableReason}</span> : null}
        </span>
      </button>
    </li>
  );
});

/** Pods of a node grouped by namespace: `ns/uid` keys, sorted. */
function usePodKeysOnNode(nodeName: string): string[] {
  return useSim(useShallow((s) => podsOnNode(s, nodeName).map((o) => `${o.namespace ?? ''}/${o.uid}`)));
}

function groupByNamespace(keys: string[]): [string, string[]][] {
  const groups: [string, string[]][] = [];
  for (const k of keys) {
    const i = k.indexOf('/');
    const ns = k.slice(0, i);
    const uid = k.slice(i + 1);
    const last = groups[groups.length - 1];
    if (last && last[0] === ns) last[1].push(uid);
    else groups.push([ns, [uid]]);
  }
  return groups;
}

function NodeStatus({ rec }: { rec: ObjRecord }) {
  const tone = nodeTone(rec);
  const text = rec.nodeReady === 'True' ? 'Ready' : rec.nodeReady === 'False' ? 'NotReady' : 'NotReady (Unknown)';
  return (
    <span className={`node-status tone-${tone}`}>
      <ToneIcon tone={tone} />
      <span>{text}</span>
      {rec.unschedulable ? <span className="node-flag">SchedulingDisabled</span> : null}
    </span>
  );
}

const NodePanel = memo(function NodePanel({ uid }: { uid: string }) {
  const rec = useObject(uid);
  const name = rec?.name ?? '';
  // Deferred: a burst of new pods (a ReplicaSet creates up to 500 at once) mounts in an
  // interruptible render instead of one long frame.
  const keys = useDeferredValue(usePodKeysOnNode(name));
  const hidden = useHiddenPodCount(name);
  const selected = useSim((s) => s.selected?.uid === uid);
  if (!rec) return null;
  const groups = groupByNamespace(keys);
  const taints = rec.taints ?? [];
  return (
    <section className={`node-panel tone-border-${nodeTone(rec)}${selected ? ' is-selected' : ''}`} aria-label={`Node ${name}`} data-node={name}>
      <header className="node-head">
        <button type="button" className="node-name" onClick={() => simStore.getState().select(selected ? undefined : selectionOf(rec))} aria-pressed={selected} title="Select this node">
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" className="node-glyph">
            <rect x="1.5" y="2.5" width="13" height="4.5" rx="1" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <rect x="1.5" y="9" width="13" height="4.5" rx="1" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <circle cx="4.5" cy="4.75" r="1" fill="currentColor" />
            <circle cx="4.5" cy="11.25" r="1" fill="currentColor" />
          </svg>
          {name}
        </button>
        <div className="node-head-row">
          <NodeStatus rec={rec} />
          <ActionMenu target={`node ${name}`} actions={nodeActions({ name, unschedulable: rec.unschedulable ?? false, ready: rec.nodeReady === 'True' })} />
        </div>
      </header>
      <dl className="node-meta">
        <div>
          <dt>role</dt>
          <dd>{rec.roles?.join(', ') ?? '<none>'}</dd>
        </div>
        <div>
          <dt>taints</dt>
          <dd title={taints.map(taintText).join('\n') || 'no taints'}>{taints.length ? taints.map((t) => `${shortTaintKey(t.key)}:${t.effect}`).join(', ') : 'none'}</dd>
        </div>
        {rec.badConditions?.map((c) => (
          <div key={c.type} className="node-warn">
            <dt>
              <ToneIcon tone="error" size={12} /> {c.type}
            </dt>
            <dd>{c.status}</dd>
          </div>
        ))}
      </dl>
      <div className="node-pods">
        {groups.length === 0 ? <p className="empty">No pods{hidden ? ' in the namespaces shown' : ''}</p> : null}
        {groups.map(([ns, uids]) => (
          <div key={ns} className="ns-group">
            <h4 className="ns-name">
              {ns} <span className="count">{uids.length}</span>
            </h4>
            <ul className="chips">
              {uids.map((u) => (
                <PodChip key={u} uid={u} />
              ))}
            </ul>
          </div>
        ))}
        {hidden ? (
          <p className="hidden-note">
            + {hidden} pod{hidden === 1 ? '' : 's'} in hidden namespaces
          </p>
        ) : null}
      </div>
    </section>
  );
});

/**
 * Pods no node has taken yet, in a strip above the nodes: always there (so the map does not move
 * when a pod waits for a moment), and in view when a replacement pod appears.
 */
function PendingStrip() {
  const uids = useDeferredValue(useUnplacedPodUids());
  return (
    <section className={`pending-strip${uids.length ? ' has-pods' : ''}`} aria-label="Pending (unscheduled) pods">
      <h3 className="pending-title">
        Pending (unscheduled) <span className="count">{uids.length}</span>
      </h3>
      {uids.length === 0 ? (
        <p className="empty">None: every pod has a node.</p>
      ) : (
        <ul className="chips chips-row">
          {uids.map((u) => (
            <PodChip key={u} uid={u} showNode />
          ))}
        </ul>
      )}
    </section>
  );
}

function NamespaceFilter() {
  const counts = useNamespaceCounts();
  const shown = useSim(useShallow((s) => counts.map(([ns]) => isNamespaceShown(s, ns))));
  if (counts.length === 0) return null;
  return (
    <div className="ns-filter" role="group" aria-label="Namespaces shown">
      <span className="control-label">Namespaces</span>
      {counts.map(([ns, n], i) => (
        <button
          key={ns}
          type="button"
          className={`ns-toggle${shown[i] ? ' is-on' : ''}`}
          aria-pressed={shown[i]}
          onClick={() => simStore.getState().setNamespaceShown(ns, !shown[i])}
          title={shown[i] ? `Hide pods of ${ns}` : `Show pods of ${ns}`}
        >
          <span aria-hidden="true" className="ns-check">
            {shown[i] ? '✓' : '+'}
          </span>
          {ns} <span className="count">{n}</span>
        </button>
      ))}
    </div>
  );
}

/** Window event sent once the first pods are on screen (what waits for the first paint listens to it). */
export const FIRST_PODS_DRAWN_EVENT = 'playground:first-pods-drawn';

/** Marks the moment the first pods are on screen (`performance.getEntriesByName('first-pods-drawn')`). */
function useFirstPodsMark(): void {
  const any = useSim((s) => {
    // for...in stops at the first pod without copying every record (this runs on every diff).
    for (const uid in s.objects) if (s.objects[uid].kind === 'Pod') return true;
    return false;
  });
  const marked = useRef(false);
  useEffect(() => {
    if (any && !marked.current) {
      marked.current = true;
      performance.mark('first-pods-drawn');
      window.dispatchEvent(new Event(FIRST_PODS_DRAWN_EVENT));
    }
  }, [any]);
}

export function ClusterMap() {
  const nodeUids = useNodeUids();
  const connected = useSim((s) => s.connected);
  useFirstPodsMark();
  return (
    <div className="map">
      <NamespaceFilter />
      {!connected ? (
        <p className="starting" role="status">
          Starting the cluster…
        </p>
      ) : (
        <>
          <PendingStrip />
          {nodeUids.length === 0 ? (
            <p className="starting" role="status">
              No node has registered yet: each kubelet creates its Node object once kube-apiserver answers.
            </p>
          ) : null}
          <div className="map-grid">
            {nodeUids.map((uid) => (
              <NodePanel key={uid} uid={uid} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
