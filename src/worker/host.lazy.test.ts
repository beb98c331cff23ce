/**
 * What the page's first draw does not wait for (issue #6): the kind cluster boots and its
 * bookshop pods reach the UI without the shell's code (src/worker/shells.ts, kubectl, docker,
 * kind) and without the engine's on-demand libraries (src/engine/libs.ts: cron-parser, ajv).
 * The shell loads a second (of wall time) after the boot is over, or at the first line typed
 * before that; a line typed while the cluster boots waits for it and then runs, as typed.
 *
 * Each test imports the worker's modules afresh (`vi.resetModules`), so the shell chunk and the
 * libraries start unloaded, as in a new worker (the Vitest setup loads the libraries for every
 * other test).
 */
import { describe, expect, it, vi } from 'vitest';
import type { FromWorker, ObjRecord } from '../protocol/messages';
import { fakeWall } from './testkit';

/** A fresh worker's modules: the host, the booted cluster, the shell loader, the libraries. */
async function freshWorker() {
  vi.resetModules();
  const { SimHost } = await import('./host');
  const { newHostBootedCluster } = await import('./cluster');
  const lines = await import('./lines');
  const libs = await import('../engine/libs');
  return { SimHost, newHostBootedCluster, lines, libs };
}

/**
 * A host on a fake wall clock that moves 1 ms at each reading (so the boot runs in chunks of
 * `bootBudgetMs` and the UI gets diffs between them) and on timers the test runs.
 */
function harness(w: Awaited<ReturnType<typeof freshWorker>>) {
  const wall = fakeWall(1);
  const msgs: FromWorker[] = [];
  const host = new w.SimHost({
    env: wall.env,
    post: (m) => msgs.push(m),
    makeCluster: (seed) => w.newHostBootedCluster(seed),
    bootBudgetMs: 20,
  });
  const mirror = new Map<string, ObjRecord>();
  const output: string[] = [];
  let booting = true;
  const apply = () => {
    for (const m of msgs.splice(0)) {
      if (m.type === 'snapshot') {
        mirror.clear();
        for (const [k, v] of Object.entries(m.objects)) mirror.set(k, v);
        booting = m.run.booting === true;
      } else if (m.type === 'diff') {
        for (const r of m.upserts) mirror.set(r.uid, r);
        for (const u of m.removals) mirror.delete(u);
        if (m.run) booting = m.run.booting === true;
      } else if (m.type === 'shellOutput') {
        output.push(m.text);
      }
    }
  };
  /** Run the timers due within `ms` of wall time (the clock also moves 1 ms per reading). */
  const advanceWall = (ms: number) => {
    wall.advance(ms);
    apply();
  };
  /** Run the next due timer (one boot chunk, a tick or a flush), then apply what was posted. */
  const next = () => {
    const ran = wall.next();
    apply();
    return ran;
  };
  const bookshopPods = () => [...mirror.values()].filter((r) => r.kind === 'Pod' && r.namespace === 'bookshop').map((r) => r.name.replace(/-[a-z0-9]+(-[a-z0-9]+)?$/, ''));
  return { host, next, apply, advanceWall, bookshopPods, output, booting: () => booting };
}

/** True when `p` has not settled within `ms` of real time. */
async function pending(p: Promise<unknown>, ms = 300): Promise<boolean> {
  return Promise.race([p.then(() => false, () => false), new Promise<boolean>((r) => setTimeout(() => r(true), ms))]);
}

describe('SimHost: the first draw does not wait for the shell or the on-demand libraries', () => {
  it('boots the kind cluster to the bookshop pods drawn with neither loaded, then loads the shell once booted', async () => {
    const w = await freshWorker();
    const h = harness(w);
    h.host.handle({ type: 'reset', seed: 1, paused: true });
    h.apply();
    expect(h.booting()).toBe(true);
    const want = ['catalog', 'orders', 'postgres', 'web'];
    while (!want.every((p) => h.bookshopPods().includes(p))) expect(h.next()).toBe(true);
    // The bookshop is on the map while the cluster still boots: nothing of the shell was asked for.
    expect(h.booting()).toBe(true);
    expect(w.libs.engineLibrariesLoaded()).toBe(false);
    expect(await pending(w.lines.shellModuleLoaded())).toBe(true);
    while (h.booting()) expect(h.next()).toBe(true);
    // Booted (bookshop Available, the Deployments' pods Running): a moment later (a second of wall
    // time, while the page draws the booted cluster) the shell and the libraries load.
    expect(await pending(w.lines.shellModuleLoaded())).toBe(true);
    h.advanceWall(1000);
    await w.lines.shellModuleLoaded();
    expect(w.libs.engineLibrariesLoaded()).toBe(true);
  }, 60_000);

  it('a line typed while the cluster boots waits for the shell, then runs as typed', async () => {
    const w = await freshWorker();
    const h = harness(w);
    h.host.handle({ type: 'reset', seed: 1, paused: true });
    h.apply();
    for (let i = 0; i < 5; i++) h.next();
    expect(h.booting()).toBe(true);
    h.host.handle({ type: 'shell', line: 'kubectl get namespaces', id: 1 });
    await w.lines.shellModuleLoaded();
    await new Promise((r) => setTimeout(r, 0));
    while (h.booting()) expect(h.next()).toBe(true);
    h.apply();
    const out = h.output.join('');
    expect(out).toMatch(/^NAME\s+STATUS\s+AGE$/m);
    expect(out).toMatch(/^kube-system\s+Active\s+/m);
    expect(w.libs.engineLibrariesLoaded()).toBe(true);
  }, 60_000);
});
