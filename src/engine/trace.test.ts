/**
 * The trace's bounded memory: once `limit` entries are kept, each new entry drops the oldest,
 * and `list()` still returns the kept window oldest first (what the timeline and `--record` read).
 */
import { describe, expect, it } from 'vitest';
import { Trace } from './trace';

describe('Trace', () => {
  it('keeps the last `limit` entries in order, counting the dropped ones', () => {
    let now = 0;
    const t = new Trace(() => now, 3);
    for (let i = 1; i <= 7; i++) {
      now = i * 1000;
      t.add('kubelet[k8s-lab-worker]', `line ${i}`);
    }
    expect(t.list().map((e) => `${e.time} ${e.message}`)).toEqual(['5000 line 5', '6000 line 6', '7000 line 7']);
    expect(t.dropped).toBe(4);
    now = 8000;
    t.add('replicaset-controller', 'line 8', { kind: 'Pod', namespace: 'default', name: 'web-1' }, 'Normal');
    expect(t.list().map((e) => e.message)).toEqual(['line 6', 'line 7', 'line 8']);
    expect(t.list({ component: 'replicaset' })).toEqual([{ time: 8000, component: 'replicaset-controller', message: 'line 8', object: { kind: 'Pod', namespace: 'default', name: 'web-1' }, kind: 'Normal' }]);
    expect(t.list({ name: 'web-1' }).map((e) => e.message)).toEqual(['line 8']);
  });

  it('tells subscribers about every entry, dropped later or not', () => {
    const t = new Trace(() => 0, 2);
    const heard: string[] = [];
    t.subscribe((e) => heard.push(e.message));
    for (const m of ['a', 'b', 'c']) t.add('kind', m);
    expect(heard).toEqual(['a', 'b', 'c']);
    expect(t.list().map((e) => e.message)).toEqual(['b', 'c']);
  });
});
