import { describe, expect, it } from 'vitest';
import type { ClockPos, FromWorker, JournalEntry, ObjRecord, ToWorker } from '../protocol/messages';
import { SimHost } from './host';
import { loadShellModule } from './lines';
import { newHostBootedCluster, newHostTestCluster } from './cluster';
import { Journal } from './journal';
import { BOOKSHOP_FILES, fakeWall } from './testkit';

const FILES = BOOKSHOP_FILES;

/**
 * A host on a fake wall clock with the page's side of the protocol: the mirror the store keeps
 * and the Journal the bridge keeps (fed every message both ways, as bridge.ts does).
 */
function harness(wallPerRead = 0) {
  const wall = fakeWall(wallPerRead);
  const msgs: FromWorker[] = [];
  const host = new SimHost({
    // `wallPerRead`: each read of the wall clock costs that much (so a boot chunk ends after a few steps).
    env: wall.env,
    post: (m) => msgs.push(m),
    makeCluster: (seed, kind) => (kind === 'test' ? newHostTestCluster(seed, FILES) : newHostBootedCluster(seed)),
  });
  const journal = new Journal();
  const mirror = new Map<string, ObjRecord>();
  const all: FromWorker[] = [];
  const apply = () => {
    for (const m of msgs.splice(0)) {
      all.push(m);
      if (m.type === 'snapshot') {
        journal.received(m);
        mirror.clear();
        for (const [k, v] of Object.entries(m.objects)) mirror.set(k, v);
      } else if (m.type === 'diff') {
        journal.received(m);
        for (const r of m.upserts) mirror.set(r.uid, r);
        for (const u of m.removals) mirror.delete(u);
      } else if (m.type === 'journal') {
        journal.received(m);
      }
    }
  };
  const send = (m: ToWorker) => {
    journal.sent(m);
    host.handle(m);
    apply();
  };
  const advanceWall = (ms: number) => {
    wall.advance(ms);
    apply();
  };
  /** Wait (microtasks and fake wall time) until a message of `type` arrived. */
  const until = async (type: FromWorker['type']) => {
    for (let i = 0; i < 200 && !all.some((m) => m.type === type); i++) {
      await new Promise((r) => setTimeout(r, 0));
      advanceWall(16);
    }
    return all.find((m) => m.type === type);
  };
  /** The objects as the page draws them, by kind/namespace/name (uids are random per run of the rng, but equal for equal runs). */
  const view = () =>
    [...mirror.values()]
      .map((r) => `${r.kind} ${r.namespace ?? ''}/${r.name} ${r.uid} ${r.status ?? r.nodeReady ?? ''} ${r.nodeName ?? ''} ${r.deleting ? 'deleting' : ''}`)
      .sort();
  return { host, msgs, all, mirror, journal, apply, send, advanceWall, until, view };
}

async function shellLoaded() {
  await loadShellModule();
  await new Promise((r) => setTimeout(r, 0));
}

// Each test boots two clusters (the original and the restored one): seconds, not milliseconds.
describe('crash recovery by journal replay', { timeout: 60_000 }, () => {
  it('a new host restored from the journal draws the same objects as the run it replaces', async () => {
    const a = harness();
    a.send({ type: 'reset', seed: 3, paused: true, cluster: 'test' });
    await shellLoaded();
    a.advanceWall(16);
    const victim = [...a.mirror.values()].find((r) => r.kind === 'Pod' && r.name.startsWith('catalog-'))!;
    a.send({ type: 'shell', line: `kubectl delete pod ${victim.name} -n bookshop`, id: 1 });
    a.send({ type: 'fastForward', ms: 20_000 });
    for (let i = 0; i < 50 && a.host.state.fastForward; i++) a.advanceWall(50);
    // A few single steps: the next input lands between two events of one millisecond.
    for (let i = 0; i < 5; i++) a.send({ type: 'step' });
    a.send({ type: 'shell', line: 'kubectl scale deployment web --replicas=4 -n bookshop', id: 2 });
    a.send({ type: 'speed', factor: 10 });
    a.send({ type: 'play' });
    a.advanceWall(800);
    a.send({ type: 'pause' });
    a.advanceWall(16);

    expect(a.journal.entries.map((e) => (e.msg.type === 'shell' ? e.msg.line : e.msg.type))).toEqual([`kubectl delete pod ${victim.name} -n bookshop`, 'kubectl scale deployment web --replicas=4 -n bookshop']);
    expect(a.journal.pending).toEqual([]);
    const before = a.view();
    expect(before.filter((l) => l.startsWith('Pod bookshop/web-'))).toHaveLength(4);
    expect(before.some((l) => l.includes(victim.uid))).toBe(false);

    // The worker "dies": a new host gets the restore message the bridge would send.
    const b = harness();
    const restore = a.journal.restoreMessage(a.host.state)!;
    expect(restore).toMatchObject({ type: 'restore', seed: 3, cluster: 'test', run: { playing: false, speed: 10 } });
    b.host.handle(restore);
    const done = await b.until('restored');
    expect(done).toEqual({ type: 'restored', replayed: 2, total: 2 });
    expect(b.view()).toEqual(before);
    expect(b.host.current!.api.resourceVersion()).toBe(a.host.current!.api.resourceVersion());
    expect(b.host.current!.clock.now()).toBe(a.host.current!.clock.now());
    expect(b.host.state).toMatchObject({ playing: false, speed: 10, cluster: 'test' });
    // Nothing of the replay reached the page but the result: no shell output, no journal echo.
    expect(b.all.filter((m) => m.type === 'shellOutput' || m.type === 'journal')).toEqual([]);
    // And it goes on from there like the original.
    a.send({ type: 'fastForward', ms: 5_000 });
    b.send({ type: 'fastForward', ms: 5_000 });
    for (let i = 0; i < 50 && (a.host.state.fastForward || b.host.state.fastForward); i++) {
      a.advanceWall(50);
      b.advanceWall(50);
    }
    expect(b.view()).toEqual(a.view());
  });

  it('says so when the replay does not reach the recorded state', async () => {
    const a = harness();
    a.send({ type: 'reset', seed: 1, paused: true, cluster: 'test' });
    await shellLoaded();
    a.send({ type: 'shell', line: 'kubectl scale deployment catalog --replicas=3 -n bookshop', id: 1 });
    a.send({ type: 'fastForward', ms: 5_000 });
    for (let i = 0; i < 50 && a.host.state.fastForward; i++) a.advanceWall(50);
    const restore = a.journal.restoreMessage(a.host.state)!;
    const tampered: ClockPos = { ...restore.until, rv: String(Number(restore.until.rv) + 1) };
    const b = harness();
    b.host.handle({ ...restore, until: tampered });
    const done = await b.until('restored');
    expect(done).toMatchObject({ type: 'restored', replayed: 1, total: 1, diverged: `the API server is at resourceVersion ${restore.until.rv}, not ${tampered.rv} as before` });
  });

  it('restores a kind cluster caught mid-boot: the boot goes on to the same end', async () => {
    const a = harness(5);
    a.send({ type: 'reset', seed: 1, paused: false });
    await shellLoaded();
    for (let i = 0; i < 3; i++) a.advanceWall(16);
    expect(a.host.state.booting).toBe(true);
    const mid = a.journal.position!;
    expect(mid.now).toBeGreaterThan(0);
    const restore = a.journal.restoreMessage(a.host.state)!;
    expect(restore.run).toEqual({ playing: true, speed: 1, booting: true });

    const b = harness(5);
    b.host.handle(restore);
    await b.until('restored');
    expect(b.host.state.booting).toBe(true);
    for (let i = 0; i < 400 && b.host.state.booting; i++) b.advanceWall(50);
    for (let i = 0; i < 400 && a.host.state.booting; i++) a.advanceWall(50);
    expect(b.host.state).toMatchObject({ playing: true, cluster: 'booted' });
    // Both stopped booting at the same virtual moment, with the same objects.
    const pa = a.view().filter((l) => l.startsWith('Pod bookshop/'));
    const pb = b.view().filter((l) => l.startsWith('Pod bookshop/'));
    expect(pb).toEqual(pa);
    expect(pb.length).toBeGreaterThanOrEqual(6);
  });
});

describe('Journal (the page side)', () => {
  const at = (events: number): ClockPos => ({ now: events * 10, events, rv: String(events) });
  const entry = (msg: ToWorker, events: number): { type: 'journal'; entry: JournalEntry } => ({ type: 'journal', entry: { at: at(events), msg } });

  it('keeps inputs that ran, and those sent but never acknowledged as pending', () => {
    const j = new Journal();
    j.sent({ type: 'reset', seed: 1 });
    j.received({ type: 'snapshot', time: { now: 0, epochMs: 0, events: 0, rv: '1' } });
    const a: ToWorker = { type: 'shell', line: 'kubectl get pods', id: 1 };
    const b: ToWorker = { type: 'shell', line: 'kubectl delete pod x', id: 2 };
    j.sent(a);
    j.sent({ type: 'play' });
    j.sent(b);
    j.received(entry(a, 5));
    j.received({ type: 'diff', time: { now: 70, epochMs: 0, events: 7, rv: '9' } });
    expect(j.entries.map((e) => e.msg)).toEqual([a]);
    expect(j.pending).toEqual([b]);
    expect(j.position).toEqual({ now: 70, events: 7, rv: '9' });
    expect(j.restoreMessage({ playing: true, speed: 2, seed: 1, cluster: 'booted' })).toEqual({
      type: 'restore',
      seed: 1,
      cluster: 'booted',
      entries: [{ at: at(5), msg: a }],
      until: { now: 70, events: 7, rv: '9' },
      run: { playing: true, speed: 2 },
    });
    expect(j.takePending()).toEqual([b]);
    expect(j.pending).toEqual([]);
  });

  it('forgets the old cluster on reset, including messages still in flight from it', () => {
    const j = new Journal();
    j.received({ type: 'snapshot', time: { now: 0, epochMs: 0, events: 0, rv: '1' } });
    j.received(entry({ type: 'shell', line: 'a' }, 3));
    j.sent({ type: 'reset', seed: 2 });
    j.received(entry({ type: 'shell', line: 'in flight' }, 4));
    expect(j.entries).toEqual([]);
    expect(j.restoreMessage({ playing: true, speed: 1, seed: 2, cluster: 'booted' })).toBeUndefined();
    j.received({ type: 'snapshot', time: { now: 0, epochMs: 0, events: 0, rv: '1' } });
    j.received(entry({ type: 'shell', line: 'b' }, 2));
    expect(j.entries.map((e) => (e.msg.type === 'shell' ? e.msg.line : ''))).toEqual(['b']);
  });

  it('drops the last input and goes back to where it took effect', () => {
    const j = new Journal();
    j.received({ type: 'snapshot', time: { now: 0, epochMs: 0, events: 0, rv: '1' } });
    j.received(entry({ type: 'shell', line: 'a' }, 3));
    j.received(entry({ type: 'shell', line: 'boom' }, 8));
    j.received({ type: 'diff', time: { now: 200, epochMs: 0, events: 20, rv: '30' } });
    expect(j.dropLast()?.msg).toEqual({ type: 'shell', line: 'boom' });
    expect(j.position).toEqual(at(8));
    expect(j.restoreMessage({ playing: false, speed: 1, seed: 1, cluster: 'test' })?.entries.map((e) => e.at.events)).toEqual([3]);
  });
});
