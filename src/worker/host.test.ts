import { describe, expect, it } from 'vitest';
import type { FromWorker, ObjRecord } from '../protocol/messages';
import { SimHost } from './host';
import { loadShellModule } from './lines';
import { newHostBootedCluster, newHostTestCluster } from './cluster';
import { BOOKSHOP_FILES, fakeWall } from './testkit';

const FILES = BOOKSHOP_FILES;

/** A host on a fake wall clock: timers run when the test advances wall time. */
function harness() {
  const wall = fakeWall();
  const msgs: FromWorker[] = [];
  const host = new SimHost({
    env: wall.env,
    post: (m) => msgs.push(m),
    makeCluster: (seed, kind) => (kind === 'test' ? newHostTestCluster(seed, FILES) : newHostBootedCluster(seed)),
  });
  /** The UI's mirror, applying messages as the store does. */
  const mirror = new Map<string, ObjRecord>();
  let seq = -1;
  const apply = () => {
    for (const m of msgs.splice(0)) {
      if (m.type === 'snapshot') {
        mirror.clear();
        for (const [k, v] of Object.entries(m.objects)) mirror.set(k, v);
        seq = m.seq;
      } else if (m.type === 'diff') {
        expect(m.seq).toBe(seq + 1);
        seq = m.seq;
        for (const r of m.upserts) mirror.set(r.uid, r);
        for (const u of m.removals) mirror.delete(u);
      }
    }
  };
  const advanceWall = (ms: number) => {
    wall.advance(ms);
    apply();
  };
  const pods = () => [...mirror.values()].filter((r) => r.kind === 'Pod' && r.namespace === 'bookshop').sort((a, b) => a.name.localeCompare(b.name));
  return { host, msgs, mirror, apply, advanceWall, pods };
}

describe('SimHost', () => {
  it('boots the bookshop and sends a snapshot with its pods Running on the workers', () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, paused: true, cluster: 'test' });
    h.apply();
    const pods = h.pods();
    // Which worker each pod lands on depends on the seed; that they run on the workers (the
    // control plane is tainted), spread, and that postgres waits for its volume does not.
    expect(pods.map((p) => `${p.name.split('-')[0]} ${p.status}`).sort()).toEqual([
      'catalog Running',
      'catalog Running',
      'orders Running',
      'postgres Pending',
      'web Running',
      'web Running',
    ]);
    for (const p of pods.filter((p) => p.status === 'Running')) expect(['worker-1', 'worker-2']).toContain(p.nodeName);
    expect(new Set(pods.filter((p) => p.name.startsWith('catalog-')).map((p) => p.nodeName)).size).toBe(2);
    const nodes = [...h.mirror.values()].filter((r) => r.kind === 'Node');
    expect(nodes.map((n) => `${n.name} ${n.nodeReady} ${(n.roles ?? []).join(',')}`)).toEqual(['cp-1 True control-plane', 'worker-1 True ', 'worker-2 True ']);
  });

  it('deletes a pod through a shell line: Terminating, then a replacement that runs', async () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, paused: true, cluster: 'test' });
    await loadShellModule();
    await new Promise((r) => setTimeout(r, 0));
    h.apply();
    const victim = h.pods().find((p) => p.name.startsWith('catalog-'))!;
    h.host.handle({ type: 'shell', line: `kubectl delete pod ${victim.name} -n bookshop` });
    h.advanceWall(16);
    expect(h.mirror.get(victim.uid)?.status).toBe('Terminating');
    h.host.handle({ type: 'fastForward', ms: 60_000 });
    h.advanceWall(1000);
    expect(h.mirror.has(victim.uid)).toBe(false);
    const catalogs = h.pods().filter((p) => p.name.startsWith('catalog-'));
    expect(catalogs.map((p) => p.status)).toEqual(['Running', 'Running']);
    expect(h.host.state.fastForward).toBeUndefined();
    expect(h.host.state.playing).toBe(false);
  });

  it('plays at the chosen speed and sends nothing while paused', () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, cluster: 'test' });
    h.apply();
    const t0 = h.host.current!.clock.now();
    h.host.handle({ type: 'speed', factor: 10 });
    h.advanceWall(1000);
    expect(h.host.current!.clock.now() - t0).toBeGreaterThanOrEqual(9_000);
    h.host.handle({ type: 'pause' });
    h.advanceWall(16);
    const t1 = h.host.current!.clock.now();
    h.advanceWall(1000);
    expect(h.host.current!.clock.now()).toBe(t1);
    expect(h.msgs).toEqual([]);
  });

  it('is deterministic: the same seed gives the same pod names', () => {
    const a = harness();
    const b = harness();
    a.host.handle({ type: 'reset', seed: 7, paused: true, cluster: 'test' });
    b.host.handle({ type: 'reset', seed: 7, paused: true, cluster: 'test' });
    a.apply();
    b.apply();
    expect(a.pods().map((p) => p.name)).toEqual(b.pods().map((p) => p.name));
  });

  it('boots the kind cluster while the UI watches, then deletes a pod with the playground shell', async () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, paused: true });
    await loadShellModule();
    await new Promise((r) => setTimeout(r, 0));
    expect(h.msgs[0]).toMatchObject({ type: 'snapshot', run: { booting: true, playing: false, cluster: 'booted' } });
    h.apply();
    for (let i = 0; i < 400 && h.host.state.booting; i++) h.advanceWall(50);
    expect(h.host.state).toMatchObject({ playing: false, cluster: 'booted' });
    expect(h.host.state.booting).toBeUndefined();
    // The same stop condition as bootedCluster(): the same virtual time for the same seed.
    expect(h.host.current!.clock.now()).toBe(36_750);
    const pods = h.pods();
    expect(pods.map((p) => `${p.name.split('-')[0]} ${p.status} ${p.nodeName}`)).toEqual(
      expect.arrayContaining(['catalog Running k8s-lab-worker', 'catalog Running k8s-lab-worker2']),
    );
    expect(pods.find((p) => p.name.startsWith('postgres-'))).toMatchObject({ status: 'Running', nodeName: expect.stringMatching(/^k8s-lab-worker2?$/) });
    const mirrors = [...h.mirror.values()].filter((r) => r.mirror).map((r) => r.name).sort();
    expect(mirrors).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'].map((n) => `${n}-k8s-lab-control-plane`));

    const victim = pods.find((p) => p.name.startsWith('catalog-'))!;
    h.host.handle({ type: 'shell', line: `kubectl delete pod ${victim.name} -n bookshop`, id: 1 });
    const out = h.msgs.filter((m) => m.type === 'shellOutput').map((m) => (m as { text: string }).text).join('');
    expect(out).toContain(`pod "${victim.name}" deleted`);
    h.advanceWall(16);
    expect(h.mirror.get(victim.uid)?.status).toBe('Terminating');
    h.host.handle({ type: 'fastForward', ms: 60_000 });
    for (let i = 0; i < 200 && h.host.state.fastForward; i++) h.advanceWall(50);
    expect(h.mirror.has(victim.uid)).toBe(false);
    expect(h.pods().filter((p) => p.name.startsWith('catalog-')).map((p) => p.status)).toEqual(['Running', 'Running']);
  });

  it('links a line typed in a node (docker exec -it NODE bash) to that Node in the timeline; laptop lines stay unlinked', async () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, paused: true });
    await loadShellModule();
    await new Promise((r) => setTimeout(r, 0));
    h.apply();
    for (let i = 0; i < 400 && h.host.state.booting; i++) h.advanceWall(50);
    h.host.handle({ type: 'shell', line: 'docker exec -it k8s-lab-control-plane bash', id: 1 });
    h.host.handle({ type: 'shell', line: 'mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/', id: 2 });
    h.host.handle({ type: 'shell', line: 'exit', id: 3 });
    h.host.handle({ type: 'shell', line: 'kubectl get pods -A', id: 4 });
    h.advanceWall(16);
    const cluster = h.host.current!;
    const shellLines = cluster.trace.list().filter((e) => e.component === 'shell');
    const node = cluster.api.get('nodes', undefined, 'k8s-lab-control-plane');
    expect(shellLines.map((e) => [e.message, e.object])).toEqual([
      ['docker exec -it k8s-lab-control-plane bash', undefined],
      ['mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/', { kind: 'Node', name: 'k8s-lab-control-plane', uid: node.metadata.uid }],
      ['exit', { kind: 'Node', name: 'k8s-lab-control-plane', uid: node.metadata.uid }],
      ['kubectl get pods -A', undefined],
    ]);
  });

  it('sends at most one diff per frame, in sequence', () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, paused: true, cluster: 'test' });
    h.apply();
    for (let i = 0; i < 20; i++) h.host.handle({ type: 'step' });
    expect(h.msgs.filter((m) => m.type === 'diff').length).toBeLessThanOrEqual(1);
    h.advanceWall(16);
    expect(h.msgs).toEqual([]);
  });

  it('moves virtual time in whole milliseconds whatever the wall clock does', () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, cluster: 'test' });
    h.apply();
    const t0 = h.host.current!.clock.now();
    h.host.handle({ type: 'speed', factor: 0.25 });
    for (let i = 0; i < 60; i++) h.advanceWall(16.7);
    const t1 = h.host.current!.clock.now();
    expect(Number.isInteger(t1)).toBe(true);
    expect(t1 - t0).toBeGreaterThanOrEqual(248);
    expect(t1 - t0).toBeLessThanOrEqual(252);
  });
});
