/**
 * Folding of the timeline's repeats: consecutive entries that say the same thing about the same
 * object (the HorizontalPodAutoscaler controller's warning every 15 s on a cluster without a
 * metrics-server, a container's BackOff, ...) become one entry with a count and the latest time,
 * as `kubectl get events` shows one Event with a count for such repeats (client-go's
 * EventCorrelator aggregates them: staging/src/k8s.io/client-go/tools/record/events_cache.go,
 * `eventObserve` increments `count` and moves `lastTimestamp`). Only CONSECUTIVE repeats fold:
 * anything in between (a pod deleted, then the same Endpoints update again) keeps both rows, so
 * no distinct happening is hidden. A person's own commands (kind `action`) never fold; the
 * engine's echo of a node action a line made (`isEchoOfLine`) is shown once, as the line.
 *
 * A CYCLE of repeats folds too: two HPAs warning every 15 s at the same moments make the trace
 * web, catalog, web, catalog, ...; when the newest entries are a block of up to MAX_CYCLE
 * entries just repeated (each the same as its counterpart in the block before), the second
 * block folds into the first (web ×2, catalog ×2). Only the interleaving of the repeats is lost,
 * as kubectl get events also keeps one Event per object and reason, whatever came between.
 */
import type { TraceItem } from '../../protocol/messages';

/**
 * A timeline entry, possibly standing for several consecutive identical ones: `count` of them
 * (absent: 1), the first at `firstTime`, the latest at `time` (both virtual ms since the cluster
 * epoch). `id` stays the first entry's id, so the row keeps its React key as repeats join it.
 */
export interface TimelineEntry extends TraceItem {
  /** How many entries this one stands for (absent: 1). */
  count?: number;
  /** Virtual ms of the first of them (absent: `time`). */
  firstTime?: number;
}

/**
 * Whether `b` repeats `a`: same component, Event type, message and object (kind, namespace, name
 * and uid: a new pod of the same name is another object). A person's commands never count as
 * repeats (typing `kubectl get pods` twice is two things done).
 */
export function isRepeat(a: TraceItem, b: TraceItem): boolean {
  if (a.kind === 'action' || b.kind === 'action') return false;
  if (a.component !== b.component || a.message !== b.message || a.kind !== b.kind) return false;
  const oa = a.object;
  const ob = b.object;
  if (!oa || !ob) return !oa && !ob;
  return oa.kind === ob.kind && oa.namespace === ob.namespace && oa.name === ob.name && oa.uid === ob.uid;
}

/**
 * Whether `item` is the engine's trace of a node action (component `docker`: `docker stop`,
 * `docker exec NODE systemctl|kill|pkill|mv ...`) made by the shell line `line` traced just
 * before it at the same virtual time: the same happening, which the timeline shows once (as
 * the person's line; the echo spelt it in the engine's words, e.g. `pkill -KILL` for `-9`, and
 * as `docker exec NODE mv` for a `mv` typed inside the node).
 */
export function isEchoOfLine(line: TraceItem, item: TraceItem): boolean {
  return item.kind === 'action' && item.component === 'docker' && line.kind === 'action' && line.component === 'shell' && line.time === item.time;
}

/** `later` joined to `earlier` (a repeat of it): the count summed, the first and latest times kept. */
function join(earlier: TimelineEntry, later: TimelineEntry): TimelineEntry {
  return {
    ...earlier,
    time: later.time,
    count: (earlier.count ?? 1) + (later.count ?? 1),
    firstTime: earlier.firstTime ?? earlier.time,
  };
}

/**
 * `trace` (oldest first, already folded) with `items` (oldest first, newer than `trace`) appended,
 * each repeat of the entry before it folded into that entry; at most `kept` entries (the oldest
 * dropped). Returns a new array; `trace` is not modified (the store's arrays are frozen).
 */
export function appendFolded(trace: readonly TimelineEntry[], items: readonly TraceItem[], kept: number): TimelineEntry[] {
  const out = trace.slice();
  for (const item of items) {
    const last = out[out.length - 1];
    // The engine's own record of what the line just typed did (`docker exec NODE pkill ...`):
    // the line's row says it. (Its Node is not moved to the line's row: a line's Node means the
    // line was typed inside that node, Timeline.tsx.)
    if (last && isEchoOfLine(last, item)) continue;
    if (last && isRepeat(last, item)) {
      out[out.length - 1] = join(last, item);
      continue;
    }
    out.push(item);
    foldCycle(out);
  }
  return out.length > kept ? out.slice(out.length - kept) : out;
}

/** The longest block of entries that folds as a cycle (two HPAs, three, four warning together). */
export const MAX_CYCLE = 4;

/**
 * When the last `2L` entries of `out` (2 <= L <= MAX_CYCLE, the shortest first) are a block of L
 * repeated (entry by entry), fold the newer block into the older one. Modifies `out`.
 */
function foldCycle(out: TimelineEntry[]): void {
  const n = out.length;
  for (let len = 2; len <= MAX_CYCLE && 2 * len <= n; len++) {
    let cycle = true;
    for (let i = 0; i < len && cycle; i++) cycle = isRepeat(out[n - 2 * len + i], out[n - len + i]);
    if (!cycle) continue;
    for (let i = 0; i < len; i++) out[n - 2 * len + i] = join(out[n - 2 * len + i], out[n - len + i]);
    out.length = n - len;
    return;
  }
}

/**
 * Add `older` to `rows` (shown newest first: `rows[0]` the newest, `older` older than all of them),
 * folded into the last row when it repeats it. The store folds repeats that were consecutive in the
 * whole trace; this folds those that became consecutive once a filter hid what was between them.
 * Returns whether a new row was added (false: folded). Modifies `rows` (not its entries).
 */
export function addOlder(rows: TimelineEntry[], older: TimelineEntry): boolean {
  const newer = rows[rows.length - 1];
  if (newer && isRepeat(newer, older)) {
    rows[rows.length - 1] = join(older, newer);
    return false;
  }
  rows.push(older);
  return true;
}

/**
 * The newest entries of `trace` (oldest first, as the store keeps it) about one object, newest
 * first, consecutive repeats folded (addOlder), at most `max` rows: those naming its `uid`, and
 * those naming it by kind, namespace and name without a uid (the YAML editor's actions); all
 * those naming it by kind, namespace and name when `obj` has no uid (an object the UI has no
 * record of, selected from the timeline). For the
 * inspector: what the components said about the selected pod (its kubelet's `CrashLoopBackOff,
 * next start in 40s`) without a filter on the whole timeline.
 */
export function entriesAbout(trace: readonly TimelineEntry[], obj: { uid?: string; kind: string; namespace?: string; name: string }, max: number): TimelineEntry[] {
  const rows: TimelineEntry[] = [];
  for (let i = trace.length - 1; i >= 0 && rows.length <= max; i--) {
    const o = trace[i].object;
    if (!o) continue;
    // By uid when both have one (a new pod of the same name is another object), else by name.
    const about = o.uid && obj.uid ? o.uid === obj.uid : o.kind === obj.kind && (o.namespace ?? '') === (obj.namespace ?? '') && o.name === obj.name;
    if (about) addOlder(rows, trace[i]);
  }
  if (rows.length > max) rows.length = max;
  return rows;
}
