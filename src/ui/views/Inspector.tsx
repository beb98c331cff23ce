/**
 * The inspector: the selected object's kind and name, status, owner chain (breadcrumbs), what it
 * owns, labels, what the timeline last said about it, and actions. Actions are shell lines (`kubectl delete pod ...`), run through the
 * same shell a person types into, so they show in the timeline as actions.
 */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatClock, MIRRORED_KINDS, type ObjRecord } from '../../protocol/messages';
import { simStore, useSim, type Selection } from '../state/store';
import { childrenOf, ownerChain, resolveSelection, useSelectedRecord } from '../state/selectors';
import { nodeTone, podTone, ToneIcon } from './status';
import { taintText } from './ClusterMap';
import { ActionMenu } from './ActionMenu';
import { nodeActions, podActions } from './actions';
import { openInEditor } from '../editor/editorState';
import { entriesAbout } from '../state/traceFold';

/** The shell line that deletes a pod. */
export function deletePodLine(rec: Pick<ObjRecord, 'name' | 'namespace'>): string {
  return `kubectl delete pod ${rec.name} -n ${rec.namespace ?? 'default'}`;
}

/** The shell line that scales a Deployment. */
export function scaleLine(rec: Pick<ObjRecord, 'name' | 'namespace'>, replicas: number): string {
  return `kubectl scale deployment ${rec.name} --replicas=${replicas} -n ${rec.namespace ?? 'default'}`;
}

function select(sel: Selection) {
  simStore.getState().select(sel);
}

/** `uid|kind|namespace|name` (strings keep `useShallow` stable). */
function encode(o: ObjRecord): string {
  return `${o.uid}|${o.kind}|${o.namespace ?? ''}|${o.name}`;
}
function decode(s: string): Selection & { uid: string } {
  const [uid, kind, namespace, name] = s.split('|');
  return { uid, kind, namespace: namespace || undefined, name };
}

function Breadcrumbs({ rec }: { rec: ObjRecord }) {
  const chain = useSim(useShallow((s) => ownerChain(s.objects, rec).map(encode)));
  const items = [...chain.map(decode), { uid: rec.uid, kind: rec.kind, namespace: rec.namespace, name: rec.name }];
  return (
    <nav aria-label="Owner chain" className="breadcrumbs">
      <ol>
        {items.map((it, i) => (
          <li key={it.uid}>
            {i < items.length - 1 ? (
              <button type="button" className="crumb" onClick={() => select(it)} title={`Select ${it.kind} ${it.name}`}>
                <span className="kind">{it.kind}</span> {it.name}
              </button>
            ) : (
              <span className="crumb is-current" aria-current="true">
                <span className="kind">{it.kind}</span> {it.name}
              </span>
            )}
            {i < items.length - 1 ? (
              <span className="crumb-sep" aria-hidden="true">
                ›
              </span>
            ) : null}
          </li>
        ))}
      </ol>
      {chain.length === 0 && rec.kind === 'Pod' ? <p className="muted small">No owner: nothing will recreate this pod if it is deleted.</p> : null}
    </nav>
  );
}

function Owned({ rec }: { rec: ObjRecord }) {
  const kids = useSim(useShallow((s) => childrenOf(s.objects, rec.uid).map(encode)));
  if (kids.length === 0) return null;
  return (
    <div className="insp-section">
      <h3 className="insp-h">Owns</h3>
      <ul className="owned">
        {kids.slice(0, 12).map((k) => {
          const it = decode(k);
          return (
            <li key={it.uid}>
              <button type="button" className="link" onClick={() => select(it)}>
                <span className="kind">{it.kind}</span> {it.name}
              </button>
            </li>
          );
        })}
        {kids.length > 12 ? <li className="muted">and {kids.length - 12} more</li> : null}
      </ul>
    </div>
  );
}

/** Rows of the inspector's "Recent in the timeline". */
const RECENT_ROWS = 5;

/**
 * What the timeline last said about the object (newest first, repeats folded): a CrashLoopBackOff
 * pod shows its kubelet's `exited with 1 (Error): CrashLoopBackOff, next start in 40s` here, without
 * a search through the whole timeline; the button filters the timeline to the object's name.
 */
function Recent({ rec }: { rec: Pick<ObjRecord, 'kind' | 'name' | 'namespace'> & { uid?: string } }) {
  const trace = useSim((s) => s.trace);
  const epochMs = useSim((s) => s.time.epochMs);
  const rows = useMemo(() => entriesAbout(trace, rec, RECENT_ROWS), [trace, rec]);
  if (rows.length === 0) return null;
  return (
    <div className="insp-section">
      <h3 className="insp-h">Recent in the timeline</h3>
      <ol className="insp-recent" aria-label={`Timeline entries about ${rec.kind} ${rec.name}, newest first`}>
        {rows.map((r) => (
          <li key={r.id} className={r.kind === 'Warning' ? 'is-warning' : undefined}>
            <span className="tl-time">{formatClock({ now: r.time, epochMs }, r.time)}</span>
            <span className="tl-comp">
              {r.component}
              {(r.count ?? 1) > 1 ? <span className="tl-count">×{r.count}</span> : null}
            </span>
            <span className="insp-recent-msg">
              {r.kind === 'Warning' ? <ToneIcon tone="error" size={13} /> : null}
              {r.message}
            </span>
          </li>
        ))}
      </ol>
      <button type="button" className="btn btn-small" onClick={() => simStore.getState().setTraceFilter({ text: rec.name, component: '' })}>
        Show all in the timeline
      </button>
    </div>
  );
}

function Labels({ labels }: { labels?: Record<string, string> }) {
  const entries = Object.entries(labels ?? {}).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return (
    <div className="insp-section">
      <h3 className="insp-h">Labels</h3>
      {entries.length === 0 ? (
        <p className="muted small">none</p>
      ) : (
        <ul className="labels">
          {entries.map(([k, v]) => (
            <li key={k} className="label-chip">
              {k}={v}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PodDetails({ rec }: { rec: ObjRecord }) {
  const tone = podTone(rec);
  return (
    <dl className="facts">
      <div>
        <dt>Status</dt>
        <dd className={`status-line tone-${tone}`}>
          <ToneIcon tone={tone} /> {rec.status}
        </dd>
      </div>
      <div>
        <dt>Ready</dt>
        <dd>{rec.ready}</dd>
      </div>
      <div>
        <dt>Restarts</dt>
        <dd>{rec.restarts ?? 0}</dd>
      </div>
      <div>
        <dt>Node</dt>
        <dd>{rec.nodeName || <span className="muted">none yet (unscheduled)</span>}</dd>
      </div>
      {rec.unschedulableReason ? (
        <div className="wide">
          <dt>Scheduler</dt>
          <dd className="small">{rec.unschedulableReason}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function WorkloadDetails({ rec }: { rec: ObjRecord }) {
  const r = rec.replicas;
  if (!r) return null;
  if (rec.kind === 'Job') {
    return (
      <dl className="facts">
        <div>
          <dt>Completions</dt>
          <dd>
            {r.ready}/{r.desired}
          </dd>
        </div>
        <div>
          <dt>Active</dt>
          <dd>{r.current}</dd>
        </div>
      </dl>
    );
  }
  return (
    <dl className="facts">
      <div>
        <dt>Ready</dt>
        <dd>
          {r.ready}/{r.desired}
        </dd>
      </div>
      <div>
        <dt>Current</dt>
        <dd>{r.current}</dd>
      </div>
      {r.updated !== undefined ? (
        <div>
          <dt>Up-to-date</dt>
          <dd>{r.updated}</dd>
        </div>
      ) : null}
      {r.available !== undefined ? (
        <div>
          <dt>Available</dt>
          <dd>{r.available}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function NodeDetails({ rec }: { rec: ObjRecord }) {
  const tone = nodeTone(rec);
  return (
    <dl className="facts">
      <div>
        <dt>Status</dt>
        <dd className={`status-line tone-${tone}`}>
          <ToneIcon tone={tone} /> {rec.nodeReady === 'True' ? 'Ready' : 'NotReady'}
          {rec.unschedulable ? ',SchedulingDisabled' : ''}
        </dd>
      </div>
      <div>
        <dt>Roles</dt>
        <dd>{rec.roles?.join(',') ?? '<none>'}</dd>
      </div>
      <div className="wide">
        <dt>Taints</dt>
        <dd className="mono small">{rec.taints?.length ? rec.taints.map(taintText).join('\n') : '<none>'}</dd>
      </div>
      {rec.badConditions?.map((c) => (
        <div key={c.type}>
          <dt>{c.type}</dt>
          <dd>
            {c.status}
            {c.reason ? ` (${c.reason})` : ''}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function DeleteAction({ rec }: { rec: ObjRecord }) {
  const line = deletePodLine(rec);
  if (rec.deleting) {
    return (
      <div className="action">
        <p className="note tone-terminating">
          <ToneIcon tone="terminating" /> Deletion requested: the kubelet is stopping its containers, then the pod is removed.
        </p>
      </div>
    );
  }
  return (
    <div className="action">
      <button type="button" className="btn btn-danger" aria-keyshortcuts="Delete" onClick={() => simStore.getState().runLine(line)} title="Runs the kubectl line below (keyboard: Delete)">
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <path d="M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 9h5.6l.7-9" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        </svg>
        Delete pod
      </button>
      <code className="action-line">{line}</code>
    </div>
  );
}

function ScaleAction({ rec }: { rec: ObjRecord }) {
  const desired = rec.replicas?.desired ?? 1;
  const [draft, setDraft] = useState<number | undefined>(undefined);
  const n = draft ?? desired;
  const line = scaleLine(rec, n);
  return (
    <form
      className="action"
      onSubmit={(e) => {
        e.preventDefault();
        simStore.getState().runLine(line);
        setDraft(undefined);
      }}
    >
      <div className="scale-row">
        <button type="button" className="btn btn-small" aria-label="One replica fewer" onClick={() => setDraft(Math.max(0, n - 1))}>
          −
        </button>
        <input type="number" min={0} max={50} value={n} onChange={(e) => setDraft(Math.max(0, Math.min(50, Number(e.target.value) || 0)))} aria-label="Replicas" />
        <button type="button" className="btn btn-small" aria-label="One replica more" onClick={() => setDraft(Math.min(50, n + 1))}>
          +
        </button>
        <button type="submit" className="btn btn-primary" disabled={n === desired}>
          Scale
        </button>
      </div>
      <code className="action-line">{line}</code>
    </form>
  );
}

/**
 * An object the page keeps no record of (an Endpoints, EndpointSlice, HPA or PVC named by a
 * timeline entry): whether it exists is the worker's to say, so no "deleted" claim; its live YAML
 * is one click away (the YAML editor reads it from the API server, as `kubectl edit` does), with
 * the kubectl line that describes it and what the timeline said about it.
 */
function UnmirroredObject({ sel }: { sel: Selection }) {
  const line = `kubectl describe ${sel.kind.toLowerCase()} ${sel.name}${sel.namespace ? ` -n ${sel.namespace}` : ''}`;
  return (
    <div className="insp-body" data-testid="inspector">
      <ObjectHeader obj={sel} />
      <p className="muted">
        The map and the owner graph draw nodes, pods and their controllers; a {sel.kind} is not drawn. Its YAML is read from the API server when you open it; the terminal describes it with:
      </p>
      <code className="action-line">{line}</code>
      <Recent rec={sel} />
    </div>
  );
}

/** The selected object's kind, namespace and name, and its Edit YAML button (the YAML editor reads it live, as `kubectl edit` does). */
function ObjectHeader({ obj }: { obj: { kind: string; namespace?: string; name: string } }) {
  return (
    <>
      <p className="insp-kind">
        {obj.kind}
        {obj.namespace ? <span className="muted"> in {obj.namespace}</span> : null}
      </p>
      <p className="insp-name">{obj.name}</p>
      <button
        type="button"
        className="btn btn-small insp-edit-yaml"
        onClick={() => openInEditor({ kind: obj.kind, namespace: obj.namespace, name: obj.name })}
        title={`Open ${obj.kind} ${obj.name} in the YAML editor (as kubectl edit does)`}
      >
        Edit YAML
      </button>
    </>
  );
}

function GoneNotice({ sel }: { sel: Selection }) {
  return (
    <div className="insp-gone" role="status">
      <ToneIcon tone="unknown" />
      <p>
        {sel.kind} <strong>{sel.name}</strong> no longer exists: the API server has deleted it.
      </p>
    </div>
  );
}

export function Inspector() {
  const sel = useSim((s) => s.selected);
  const rec = useSelectedRecord();
  return (
    <section className="panel inspector" aria-labelledby="inspector-title">
      <h2 id="inspector-title" className="panel-title">
        Inspector
      </h2>
      {!sel ? (
        <p className="muted">Select a pod, a node or a timeline entry to see it here.</p>
      ) : !rec && !MIRRORED_KINDS.has(sel.kind) ? (
        <UnmirroredObject sel={sel} />
      ) : !rec ? (
        <GoneNotice sel={sel} />
      ) : (
        <div className="insp-body" data-testid="inspector">
          <ObjectHeader obj={rec} />
          {rec.kind === 'Pod' ? <PodDetails rec={rec} /> : rec.kind === 'Node' ? <NodeDetails rec={rec} /> : <WorkloadDetails rec={rec} />}
          {rec.kind !== 'Node' ? <Breadcrumbs rec={rec} /> : null}
          {rec.kind === 'Pod' ? <DeleteAction rec={rec} /> : null}
          {rec.kind === 'Deployment' ? <ScaleAction key={rec.uid} rec={rec} /> : null}
          {rec.kind === 'Node' ? (
            <div className="action">
              <ActionMenu target={`node ${rec.name}`} label="Node actions" actions={nodeActions({ name: rec.name, unschedulable: rec.unschedulable ?? false, ready: rec.nodeReady === 'True' })} />
            </div>
          ) : null}
          {rec.kind === 'Pod' && !rec.deleting && rec.namespace && podActions({ namespace: rec.namespace, name: rec.name }).length > 1 ? (
            <div className="action">
              <ActionMenu target={`pod ${rec.namespace}/${rec.name}`} label="More actions" actions={podActions({ namespace: rec.namespace, name: rec.name, mirror: !!rec.mirror }).filter((a) => a.id !== 'delete')} />
            </div>
          ) : null}
          <Recent rec={rec} />
          <Owned rec={rec} />
          {rec.kind !== 'Node' ? <Labels labels={rec.labels} /> : null}
        </div>
      )}
    </section>
  );
}

/** Delete the selected pod (the Delete key). Returns whether a line was run. */
export function deleteSelectedPod(): boolean {
  const s = simStore.getState();
  const rec = resolveSelection(s.objects, s.selected);
  if (!rec || rec.kind !== 'Pod' || rec.deleting) return false;
  s.runLine(deletePodLine(rec));
  return true;
}
