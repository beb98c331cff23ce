/**
 * The `supervision` subscription of the simulation host: the tree goes out only while the UI
 * subscribes, at once on subscribing, then only when it changed (never more often than
 * SUPERVISION_MIN_INTERVAL_MS of wall time), and `null` for a cluster without a node layer.
 */
import { describe, expect, it } from 'vitest';
import { SUPERVISION_MIN_INTERVAL_MS, type FromWorker, type SupervisionTree } from '../protocol/messages';
import { createCluster, type Cluster } from '../engine/cluster';
import { buildSupervisionTree } from '../engine/supervision';
import { SimHost } from './host';
import type { HostCluster } from './cluster';
import { fakeWall } from './testkit';

function harness(withTree = true) {
  const wall = fakeWall();
  const msgs: FromWorker[] = [];
  let engine: Cluster | undefined;
  const host = new SimHost({
    env: wall.env,
    post: (m) => msgs.push(m),
    makeCluster: (seed): HostCluster => {
      const c = createCluster({ seed });
      engine = c;
      return {
        kind: 'booted',
        clock: c.clock,
        api: c.api,
        trace: c.trace,
        warmupMs: 0,
        booted: () => c.kubeSystemReady() && c.bookshopAvailable(),
        bootStepMs: 250,
        ...(withTree ? { supervision: () => buildSupervisionTree(c) } : {}),
      };
    },
  });
  const advanceWall = (ms: number) => wall.advance(ms);
  const trees = (): (SupervisionTree | null)[] => msgs.splice(0).flatMap((m) => (m.type === 'supervision' ? [m.tree] : []));
  return { host, advanceWall, trees, engine: () => engine!, msgs };
}

describe('SimHost supervision subscription', () => {
  it('sends the tree on subscribe, again only when it changed, and nothing once unsubscribed', () => {
    const h = harness();
    h.host.handle({ type: 'reset', seed: 1, paused: true });
    h.advanceWall(60_000);
    expect(h.host.state.booting).toBeUndefined();
    expect(h.trees()).toEqual([]); // nobody subscribed

    h.host.handle({ type: 'supervision', on: true });
    const [first] = h.trees();
    expect(first?.nodes.map((n) => n.name)).toEqual(['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2']);
    expect(first?.nodes[1].units.find((u) => u.name === 'kubelet.service')?.state).toBe('running');

    // Nothing changed: nothing sent, however often the host flushes.
    h.advanceWall(1_000);
    h.host.handle({ type: 'resync' });
    h.advanceWall(1_000);
    expect(h.trees()).toEqual([]);

    // kill -9 the kubelet: the next flush (after the throttle interval) carries the new tree.
    const c = h.engine();
    const now = c.clock.now();
    c.pkill('k8s-lab-worker', 'kubelet', 'SIGKILL', { exact: true });
    h.host.handle({ type: 'resync' });
    h.advanceWall(SUPERVISION_MIN_INTERVAL_MS);
    const changed = h.trees();
    expect(changed).toHaveLength(1);
    expect(changed[0]?.nodes[1].units.find((u) => u.name === 'kubelet.service')).toMatchObject({ state: 'restarting', restartAt: now + 10_000 });

    h.host.handle({ type: 'supervision', on: false });
    c.systemctl('k8s-lab-worker', ['stop', 'kubelet']);
    h.host.handle({ type: 'resync' });
    h.advanceWall(1_000);
    expect(h.trees()).toEqual([]);
  });

  it('answers null for a cluster without a node layer', () => {
    const h = harness(false);
    h.host.handle({ type: 'reset', seed: 1, paused: true });
    h.advanceWall(60_000);
    h.trees();
    h.host.handle({ type: 'supervision', on: true });
    expect(h.trees()).toEqual([null]);
  });
});
