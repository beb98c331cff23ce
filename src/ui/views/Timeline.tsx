/**
 * The timeline: who did what and why, newest first, in cluster time. Filter by text or by
 * component; click an entry to select the object it names. Consecutive repeats (the same
 * component saying the same about the same object, e.g. an HPA's warning every 15 s), and cycles
 * of them (two HPAs warning together), are one row each with a count and the latest time
 * (src/ui/state/traceFold.ts), as `kubectl get events` counts them.
 */
import { memo, useEffect, useMemo, useState } from 'react';
import { formatClock } from '../../protocol/messages';
import { simStore, useSim } from '../state/store';
import { addOlder, type TimelineEntry } from '../state/traceFold';
import { ToneIcon } from './status';

/** Rows drawn at most (the rest stay in the store, reachable by filtering). */
const MAX_ROWS = 300;
/**
 * Rows of the first render: none. The rows (up to MAX_ROWS) join in the frame after the first
 * paint, so a page opening on a long timeline (the boot view's ~260 entries) draws the cluster
 * first; the panel stays empty for that one frame (no "nothing happened" text).
 */
const FIRST_ROWS = 0;

const Row = memo(function Row({ item, epochMs, related }: { item: TimelineEntry; epochMs: number; related: boolean }) {
  const obj = item.object;
  const count = item.count ?? 1;
  const action = item.kind === 'action';
  /** A line the person ran (the host traces those as component `shell`). */
  const mine = action && item.component === 'shell';
  /** The node it ran in (`docker exec -it NODE bash`; the host links such a line to the Node), else the laptop. */
  const inNode = mine && obj?.kind === 'Node' ? obj.name : undefined;
  const warning = item.kind === 'Warning';
  const content = (
    <>
      <span className="tl-time">{formatClock({ now: item.time, epochMs }, item.time)}</span>
      <span className={`tl-comp${action ? ' is-action' : ''}`}>
        {inNode ? `you ran in ${inNode}` : mine ? 'you ran' : item.component}
        {count > 1 ? (
          <span className="tl-count" title={`${count} times, the first at ${formatClock({ now: item.time, epochMs }, item.firstTime ?? item.time)}, the latest at ${formatClock({ now: item.time, epochMs }, item.time)}`}>
            ×{count}
          </span>
        ) : null}
      </span>
      <span className="tl-msg">
        {warning ? <ToneIcon tone="error" size={13} /> : null}
        {mine ? <code>{inNode ? '#' : '$'} {item.message}</code> : item.message}
      </span>
    </>
  );
  const cls = `tl-row${mine ? ' tl-action' : action ? ' tl-cmd' : ''}${warning ? ' tl-warning' : ''}${related ? ' is-related' : ''}`;
  return (
    <li className={cls}>
      {obj ? (
        <button
          type="button"
          className="tl-btn"
          onClick={() => simStore.getState().select({ uid: obj.uid, kind: obj.kind, namespace: obj.namespace, name: obj.name })}
          title={`Select ${obj.kind} ${obj.namespace ? `${obj.namespace}/` : ''}${obj.name}`}
        >
          {content}
        </button>
      ) : (
        <div className="tl-btn is-static">{content}</div>
      )}
    </li>
  );
});

export function Timeline() {
  const trace = useSim((s) => s.trace);
  const filter = useSim((s) => s.traceFilter);
  const epochMs = useSim((s) => s.time.epochMs);
  const selectedName = useSim((s) => s.selected?.name);
  const [rowLimit, setRowLimit] = useState(FIRST_ROWS);
  useEffect(() => {
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setRowLimit(MAX_ROWS), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, []);

  const components = useMemo(() => [...new Set(trace.map((t) => t.component))].sort(), [trace]);
  const rows = useMemo(() => {
    const text = filter.text.trim().toLowerCase();
    const out: TimelineEntry[] = [];
    for (let i = trace.length - 1; i >= 0 && out.length <= rowLimit; i--) {
      const t = trace[i];
      if (filter.component && t.component !== filter.component) continue;
      if (text && !`${t.component} ${t.message}`.toLowerCase().includes(text)) continue;
      // Repeats the filter made consecutive fold too; one row past the limit is read (and dropped)
      // so that the last row shown has all its repeats.
      addOlder(out, t);
    }
    if (out.length > rowLimit) out.length = rowLimit;
    return out;
  }, [trace, filter, rowLimit]);

  return (
    <section className="panel timeline" aria-labelledby="timeline-title">
      <div className="panel-head">
        <h2 id="timeline-title" className="panel-title">
          Timeline
        </h2>
        <span className="muted small">newest first</span>
      </div>
      <div className="tl-filters">
        <input
          type="search"
          placeholder="Filter: catalog, create, Warning…"
          value={filter.text}
          onChange={(e) => simStore.getState().setTraceFilter({ text: e.target.value })}
          aria-label="Filter the timeline by text"
        />
        <select value={filter.component} onChange={(e) => simStore.getState().setTraceFilter({ component: e.target.value })} aria-label="Filter the timeline by component">
          <option value="">all components</option>
          {components.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <ol className="tl-list" aria-label="Timeline entries, newest first">
        {rows.length === 0 && rowLimit > 0 ? <li className="muted tl-empty">{trace.length ? 'Nothing matches the filter.' : 'Nothing has happened yet.'}</li> : null}
        {rows.map((t) => (
          <Row key={t.id} item={t} epochMs={epochMs} related={!!selectedName && t.object?.name === selectedName} />
        ))}
      </ol>
    </section>
  );
}
