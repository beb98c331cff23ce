import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildBootView, type BootView } from './bootview';
import { SimHost } from './host';
import { newHostBootedCluster } from './cluster';
import { fakeWall } from './testkit';
import type { FromWorker, ObjRecord } from '../protocol/messages';

const committed = JSON.parse(readFileSync(new URL('../ui/state/boot-view.json', import.meta.url), 'utf8')) as BootView;

describe('the boot view (src/ui/state/boot-view.json)', () => {
  const fresh = buildBootView(1);

  it('is what this build boots: run `npm run gen:boot-view` when this fails', () => {
    expect(committed).toEqual(fresh);
  });

  it('shows the seed starting point: three Ready nodes, kube-system and every bookshop pod Running', () => {
    const recs = Object.values(committed.snapshot.objects) as ObjRecord[];
    const nodes = recs.filter((r) => r.kind === 'Node');
    expect(nodes.map((n) => n.name).sort()).toEqual(['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2']);
    for (const n of nodes) expect(n.nodeReady).toBe('True');
    const bookshop = recs.filter((r) => r.kind === 'Pod' && r.namespace === 'bookshop');
    for (const app of ['catalog-', 'orders-', 'web-', 'postgres-']) expect(bookshop.some((p) => p.name.startsWith(app))).toBe(true);
    for (const p of bookshop) expect(p.status).toBe('Running');
    expect(recs.some((r) => r.kind === 'Pod' && r.name === 'kube-apiserver-k8s-lab-control-plane')).toBe(true);
    expect(committed.snapshot.run).toMatchObject({ playing: true, seed: 1, cluster: 'booted' });
    expect(committed.snapshot.run.booting).toBeUndefined();
  });

  it('equals the snapshot a worker sends after a normal (not quiet) boot of the same seed', () => {
    const wall = fakeWall(1);
    const msgs: FromWorker[] = [];
    const h = new SimHost({ env: wall.env, post: (m) => msgs.push(m), makeCluster: (seed) => newHostBootedCluster(seed) });
    h.handle({ type: 'reset', seed: 1, paused: false });
    while (h.state.booting && wall.next()) {
      /* boot chunks */
    }
    msgs.length = 0;
    h.handle({ type: 'resync' });
    const snap = msgs.find((m) => m.type === 'snapshot');
    expect(snap).toBeDefined();
    // Trace ids and everything else match: the quiet boot is the same boot, only unposted.
    expect(snap).toEqual(fresh.snapshot);
  });

  it('a quiet boot posts nothing until the snapshot; a line typed meanwhile runs on the booted cluster', async () => {
    const wall = fakeWall(1);
    const msgs: FromWorker[] = [];
    const h = new SimHost({ env: wall.env, post: (m) => msgs.push(m), makeCluster: (seed) => newHostBootedCluster(seed) });
    h.handle({ type: 'reset', seed: 1, paused: true, quiet: true });
    h.handle({ type: 'shell', line: 'kubectl get pods -n bookshop --no-headers', id: 7 });
    h.handle({ type: 'complete', id: 3, line: 'kubectl get pods -n books', cursor: 25 });
    h.handle({ type: 'supervision', on: true });
    expect(msgs.filter((m) => m.type !== 'journal' && m.type !== 'pong')).toEqual([]);
    for (let i = 0; i < 200 && !msgs.some((m) => m.type === 'snapshot'); i++) wall.next();
    const kinds = msgs.map((m) => m.type);
    const first = kinds.findIndex((k) => k === 'snapshot' || k === 'diff' || k === 'supervision' || k === 'shellOutput');
    expect(kinds[first]).toBe('snapshot');
    const snap = msgs[first] as Extract<FromWorker, { type: 'snapshot' }>;
    expect(snap.run.booting).toBeUndefined();
    expect(snap.run.playing).toBe(false);
    // The line waits for the shell's code (a dynamic import: wall time, up to seconds on a
    // loaded machine), then runs on the booted cluster.
    for (let i = 0; i < 3000 && !msgs.some((m) => m.type === 'shellOutput' && m.done); i++) {
      await new Promise((r) => setTimeout(r, 20));
      wall.advance(100);
    }
    const completion = msgs.find((m) => m.type === 'completions');
    expect(completion).toMatchObject({ id: 3, candidates: ['bookshop'] });
    expect(msgs.indexOf(completion!)).toBeGreaterThan(first);
    const out = msgs.filter((m): m is Extract<FromWorker, { type: 'shellOutput' }> => m.type === 'shellOutput' && m.id === 7).map((m) => m.text).join('');
    expect(out).toMatch(/^catalog-\S+\s+1\/1\s+Running\s+0/m);
    expect(out).toMatch(/^postgres-\S+\s+1\/1\s+Running/m);
  }, 90_000);
});
