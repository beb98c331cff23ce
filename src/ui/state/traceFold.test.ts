import { describe, expect, it } from 'vitest';
import type { TraceItem } from '../../protocol/messages';
import { addOlder, appendFolded, entriesAbout, isRepeat, type TimelineEntry } from './traceFold';
import { createSimStore } from './store';

const hpa = { kind: 'HorizontalPodAutoscaler', namespace: 'bookshop', name: 'web', uid: 'h1' };
const HPA_MSG =
  'failed to compute desired number of replicas based on listed metrics for Deployment/bookshop/web: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value';
let id = 0;
const warn = (time: number, object = hpa, message = HPA_MSG): TraceItem => ({ id: ++id, time, component: 'horizontal-pod-autoscaler', message, object, kind: 'Warning' });
const other = (time: number, message: string): TraceItem => ({ id: ++id, time, component: 'endpoint-controller', message, object: { kind: 'Endpoints', namespace: 'bookshop', name: 'web', uid: 'e1' } });
const ran = (time: number, line: string): TraceItem => ({ id: ++id, time, component: 'shell', message: line, kind: 'action' });

describe('timeline folding', () => {
  it("a node action typed as a line is one row: the engine's docker echo at the same moment joins it", () => {
    const node = { kind: 'Node', name: 'k8s-lab-worker' };
    const echo = (time: number, message: string): TraceItem => ({ id: ++id, time, component: 'docker', message, object: node, kind: 'action' });
    const out = appendFolded([], [ran(5000, 'docker exec k8s-lab-worker pkill -9 -x kubelet'), echo(5000, 'docker exec k8s-lab-worker pkill -KILL -x kubelet'), warn(6000)], 2000);
    expect(out.map((t) => [t.component, t.message, t.object?.name])).toEqual([
      ['shell', 'docker exec k8s-lab-worker pkill -9 -x kubelet', undefined],
      ['horizontal-pod-autoscaler', HPA_MSG, 'web'],
    ]);
    // An echo at another moment (not the line's own) stays a row.
    expect(appendFolded([], [ran(5000, 'sleep 1'), echo(6000, 'docker stop k8s-lab-worker')], 2000)).toHaveLength(2);
  });

  it('an HPA warning every 15 s for two minutes is one entry: x8, the latest time, the first kept', () => {
    const items = Array.from({ length: 8 }, (_, i) => warn(51_751 + i * 15_000));
    const out = appendFolded([], items, 2000);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: items[0].id, count: 8, time: 156_751, firstTime: 51_751, message: HPA_MSG, kind: 'Warning' });
  });

  it('folds across batches (the store gets one batch per frame)', () => {
    let trace: TimelineEntry[] = appendFolded([], [other(1000, 'update Endpoints (2 ready)'), warn(2000)], 2000);
    trace = appendFolded(trace, [warn(17_000)], 2000);
    trace = appendFolded(trace, [warn(32_000), warn(47_000)], 2000);
    expect(trace.map((t) => [t.count ?? 1, t.time])).toEqual([
      [1, 1000],
      [4, 47_000],
    ]);
  });

  it('keeps distinct happenings: something in between, another object, another message or type, a person`s commands', () => {
    const a = other(1000, 'bookshop/web -> update Endpoints (2 ready, 0 not ready)');
    const b = other(2000, 'bookshop/web -> update Endpoints (1 ready, 0 not ready)');
    const c = other(3000, 'bookshop/web -> update Endpoints (2 ready, 0 not ready)');
    expect(appendFolded([], [a, b, c], 2000)).toHaveLength(3);
    // The same name, a new object (another uid).
    expect(appendFolded([], [warn(1000), warn(16_000, { ...hpa, uid: 'h2' })], 2000)).toHaveLength(2);
    expect(appendFolded([], [warn(1000), warn(16_000, hpa, 'failed to get scale')], 2000)).toHaveLength(2);
    expect(isRepeat(warn(1000), { ...warn(16_000), kind: 'Normal' })).toBe(false);
    expect(isRepeat(warn(1000), { ...warn(16_000), component: 'other' })).toBe(false);
    expect(appendFolded([], [ran(1000, 'kubectl get pods'), ran(2000, 'kubectl get pods')], 2000)).toHaveLength(2);
    // Entries without an object fold when the rest is the same.
    const pulled: TraceItem = { id: 1, time: 1, component: 'containerd[w1]', message: 'pulled nginx' };
    expect(isRepeat(pulled, { ...pulled, id: 2, time: 2 })).toBe(true);
    expect(isRepeat(pulled, { ...pulled, id: 2, time: 2, object: hpa })).toBe(false);
  });

  it('folds a cycle of repeats (two HPAs warning at the same moments) into one row each; a broken cycle stays', () => {
    const catalog = { ...hpa, name: 'catalog', uid: 'h2' };
    const msgOf = (name: string) => HPA_MSG.replace('bookshop/web', `bookshop/${name}`);
    const items: TraceItem[] = [];
    for (let i = 0; i < 20; i++) items.push(warn(51_751 + i * 15_000), warn(51_751 + i * 15_000, catalog, msgOf('catalog')));
    const out = appendFolded([], items, 2000);
    expect(out.map((t) => [t.object?.name, t.count, t.firstTime, t.time])).toEqual([
      ['web', 20, 51_751, 336_751],
      ['catalog', 20, 51_751, 336_751],
    ]);
    // Three of them, and across batches.
    const third = { ...hpa, name: 'orders', uid: 'h3' };
    let trace: TimelineEntry[] = [];
    for (let i = 0; i < 5; i++) trace = appendFolded(trace, [warn(i, hpa), warn(i, catalog, msgOf('catalog')), warn(i, third, msgOf('orders'))], 2000);
    expect(trace.map((t) => [t.object?.name, t.count])).toEqual([
      ['web', 5],
      ['catalog', 5],
      ['orders', 5],
    ]);
    // A B A C: no cycle; A B A: not yet one.
    const a = other(1, 'update Endpoints (2 ready)');
    const b = other(2, 'update Endpoints (1 ready)');
    const c = other(4, 'update Endpoints (0 ready)');
    expect(appendFolded([], [a, b, { ...a, id: ++id, time: 3 }, c], 2000)).toHaveLength(4);
    expect(appendFolded([], [a, b, { ...a, id: ++id, time: 3 }], 2000)).toHaveLength(3);
    // A person's command in the block: never folded.
    expect(appendFolded([], [warn(1), ran(2, 'kubectl get hpa'), warn(3), ran(4, 'kubectl get hpa')], 2000)).toHaveLength(4);
  });

  it('keeps at most `kept` entries (folded ones count once) and does not modify its input', () => {
    const first = appendFolded([], [other(1, 'a'), other(2, 'b')], 2);
    const frozen = Object.freeze(first.slice());
    const next = appendFolded(frozen, [other(3, 'c'), other(4, 'c'), other(5, 'c')], 2);
    expect(next.map((t) => [t.message, t.count ?? 1])).toEqual([
      ['b', 1],
      ['c', 3],
    ]);
    expect(frozen.map((t) => t.count)).toEqual([undefined, undefined]);
  });

  it('addOlder folds repeats a filter made consecutive (newest first), counts summed', () => {
    const folded = appendFolded([], [warn(1000), warn(16_000)], 2000)[0];
    const rows: TimelineEntry[] = [];
    expect(addOlder(rows, warn(46_000))).toBe(true);
    expect(addOlder(rows, warn(31_000))).toBe(false);
    expect(addOlder(rows, folded)).toBe(false);
    expect(addOlder(rows, other(500, 'x'))).toBe(true);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ count: 4, time: 46_000, firstTime: 1000, id: folded.id });
  });

  it('the store folds what snapshots and diffs bring', () => {
    const store = createSimStore();
    const run = { playing: false, speed: 1, seed: 1, cluster: 'test' as const };
    const time = { now: 0, epochMs: 0 };
    store.getState().applySnapshot({ type: 'snapshot', protocol: 1, seq: 0, objects: {}, time, trace: [warn(1000), warn(16_000)], run });
    expect(store.getState().trace).toHaveLength(1);
    store.getState().applyDiff({ type: 'diff', seq: 1, upserts: [], removals: [], trace: [warn(31_000)], time });
    expect(store.getState().trace).toHaveLength(1);
    expect(store.getState().trace[0]).toMatchObject({ count: 3, time: 31_000, firstTime: 1000 });
    store.getState().applyDiff({ type: 'diff', seq: 2, upserts: [], removals: [], trace: [ran(40_000, 'kubectl get hpa -n bookshop'), warn(46_000)], time });
    expect(store.getState().trace.map((t) => t.count ?? 1)).toEqual([3, 1, 1]);
  });
});

describe('entries about one object', () => {
  it('newest first, folded, at most max; by uid, or by kind/namespace/name when the entry has no uid', () => {
    const pod = { kind: 'Pod', namespace: 'bookshop', name: 'crash', uid: 'p1' };
    const kubelet = (time: number, message: string, object: TraceItem['object'] = pod): TraceItem => ({ id: ++id, time, component: 'kubelet[k8s-lab-worker]', message, object, kind: 'Warning' });
    const trace = appendFolded(
      [],
      [
        kubelet(1000, 'started'),
        other(1500, 'unrelated'),
        kubelet(2000, 'BackOff'),
        kubelet(3000, 'BackOff'),
        kubelet(3500, 'same name, another pod', { ...pod, uid: 'p0' }),
        { id: ++id, time: 4000, component: 'editor', message: 'kubectl edit pod/crash (YAML editor): edited', object: { kind: 'Pod', namespace: 'bookshop', name: 'crash' }, kind: 'action' },
        ran(4500, 'kubectl get pods'),
      ],
      2000,
    );
    const rows = entriesAbout(trace, pod, 10);
    expect(rows.map((r) => [r.message, r.count ?? 1])).toEqual([
      ['kubectl edit pod/crash (YAML editor): edited', 1],
      ['BackOff', 2],
      ['started', 1],
    ]);
    expect(entriesAbout(trace, pod, 2).map((r) => r.message)).toEqual(['kubectl edit pod/crash (YAML editor): edited', 'BackOff']);
  });
});
