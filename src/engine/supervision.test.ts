/**
 * The supervision tree (issue #4) on a booted kind cluster: the four layers as data, and how
 * they move under the seed's faults - kill -9 the kubelet (systemd brings it back 10 s later
 * with a new PID), stop it (inactive (dead), nobody restarts it), crash a control-plane container
 * (the kubelet restarts it, then backs off), power a node off (everything below is stopped).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from './cluster';
import { buildSupervisionTree, type SupervisedMachine } from './supervision';

const CP = 'k8s-lab-control-plane';
const W = 'k8s-lab-worker';
const W2 = 'k8s-lab-worker2';

const machine = (c: Cluster, name: string): SupervisedMachine => buildSupervisionTree(c, { nodes: [name] }).nodes[0];
const unit = (c: Cluster, node: string, name: string) => machine(c, node).units.find((u) => u.name === name)!;
const pod = (c: Cluster, node: string, prefix: string) => machine(c, node).pods.find((p) => p.name.startsWith(prefix))!;
const nodeReady = (c: Cluster, name: string) => ((c.api.get('nodes', undefined, name).status?.conditions ?? []) as { type: string; status: string }[]).find((x) => x.type === 'Ready')?.status;

describe('supervision tree of the booted bookshop cluster', () => {
  let c: Cluster;
  beforeAll(() => {
    c = bootedCluster({ seed: 1 });
  });

  it('shows the four layers: machine, systemd, units, kubelet, static pods with their components and the controllers', () => {
    const tree = buildSupervisionTree(c);
    expect(tree.nodes.map((n) => `${n.name} ${n.role} ${n.power} ${n.connected ? 'connected' : 'cut'}`)).toEqual([
      `${CP} control-plane running connected`,
      `${W} worker running connected`,
      `${W2} worker running connected`,
    ]);
    const cp = tree.nodes[0];
    expect(cp.systemd).toEqual({ pid: 1, state: 'running' });
    expect(cp.units.map((u) => `${u.name} ${u.state} ${u.activeState} (${u.subState})`)).toEqual(['containerd.service running active (running)', 'kubelet.service running active (running)']);
    expect(cp.kubelet).toMatchObject({ state: 'running', serving: true, pid: cp.units[1].mainPid });
    const statics = cp.pods.filter((p) => p.static);
    expect(statics.map((p) => `${p.component} ${p.state} mirror=${p.mirror}`)).toEqual([
      `etcd running mirror=kube-system/etcd-${CP}`,
      `kube-apiserver running mirror=kube-system/kube-apiserver-${CP}`,
      `kube-controller-manager running mirror=kube-system/kube-controller-manager-${CP}`,
      `kube-scheduler running mirror=kube-system/kube-scheduler-${CP}`,
    ]);
    for (const p of statics) expect(p.containers[0]).toMatchObject({ state: 'running', restarts: 0, component: p.component, pid: expect.any(Number) });
    const kcm = statics.find((p) => p.component === 'kube-controller-manager')!;
    expect(kcm.controllers?.find((x) => x.name === 'deployment-controller')?.workloads).toEqual(expect.arrayContaining(['bookshop/catalog', 'bookshop/web', 'kube-system/coredns']));
    expect(kcm.controllers?.find((x) => x.name === 'daemonset-controller')?.workloads).toEqual(['kube-system/kindnet', 'kube-system/kube-proxy']);
    // Ordinary pods run under their node's kubelet.
    const w = tree.nodes[1];
    expect(w.pods.every((p) => !p.static && p.supervisedBy === 'kubelet' && p.state === 'running')).toBe(true);
    expect(w.pods.map((p) => p.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^catalog-/), expect.stringMatching(/^kube-proxy-/)]));
  });

  it('kill -9 the kubelet: activating (auto-restart) with the restart 10 s later, then active with a new PID; the node stays Ready', () => {
    const before = unit(c, W, 'kubelet.service');
    expect(before.state).toBe('running');
    const t0 = c.clock.now();
    expect(c.pkill(W, 'kubelet', 'SIGKILL')).toBe(1);
    const dead = unit(c, W, 'kubelet.service');
    expect(dead).toMatchObject({ state: 'restarting', activeState: 'activating', subState: 'auto-restart', restartAt: t0 + 10_000, restarts: 0 });
    expect(dead.mainPid).toBeUndefined();
    expect(dead.lastExit).toMatchObject({ pid: before.mainPid, reason: 'status=9/KILL', exitCode: 137, at: t0 });
    // Containers keep running, but nobody supervises them meanwhile.
    expect(pod(c, W, 'catalog-')).toMatchObject({ state: 'running', supervisedBy: 'none' });
    expect(machine(c, W).kubelet).toMatchObject({ state: 'restarting', serving: false });

    c.run(9_000);
    expect(unit(c, W, 'kubelet.service').state).toBe('restarting');
    c.run(1_500);
    const back = unit(c, W, 'kubelet.service');
    expect(back).toMatchObject({ state: 'running', activeState: 'active', restarts: 1 });
    expect(back.mainPid).toBeGreaterThan(before.mainPid!);
    expect(back.lastExit?.reason).toBe('status=9/KILL');
    c.run(5_000);
    expect(pod(c, W, 'catalog-').supervisedBy).toBe('kubelet');
    expect(nodeReady(c, W)).toBe('True');
  });

  it('systemctl stop kubelet: inactive (dead), no restart scheduled; the node goes NotReady after 50 s', () => {
    expect(c.systemctl(W, ['stop', 'kubelet']).exitCode).toBe(0);
    c.run(100);
    const u = unit(c, W, 'kubelet.service');
    expect(u).toMatchObject({ state: 'stopped', activeState: 'inactive', subState: 'dead' });
    expect(u.restartAt).toBeUndefined();
    c.run(60_000);
    expect(unit(c, W, 'kubelet.service').state).toBe('stopped');
    expect(nodeReady(c, W)).toBe('Unknown');
    c.systemctl(W, ['start', 'kubelet']);
    c.run(1_000);
    expect(unit(c, W, 'kubelet.service').state).toBe('running');
  });

  it('a crashing control-plane container: restarted by the kubelet, then crash-looping with back-off', () => {
    const kill = () => c.pkill(CP, 'kube-scheduler', 'SIGKILL', { exact: true });
    expect(kill()).toBe(1);
    c.run(3_000);
    let s = pod(c, CP, 'kube-scheduler-');
    expect(s.containers[0]).toMatchObject({ state: 'running', restarts: 1, lastTermination: { reason: 'Error', exitCode: 137 } });
    // The second crash within the back-off window: the kubelet waits 10 s, then 20 s ...
    expect(kill()).toBe(1);
    let looping = false;
    for (let i = 0; i < 40 && !looping; i++) {
      c.run(500);
      s = pod(c, CP, 'kube-scheduler-');
      if (s.containers[0].state === 'crash-looping') looping = true;
      else if (s.containers[0].state === 'running') expect(kill()).toBe(1);
    }
    expect(looping).toBe(true);
    const ct = s.containers[0];
    expect(s.state).toBe('crash-looping');
    expect(ct.reason).toBe('CrashLoopBackOff');
    expect(ct.backoff).toMatch(/^\d+s$/);
    expect(ct.message).toContain(`back-off ${ct.backoff} restarting failed container=kube-scheduler pod=kube-scheduler-${CP}_kube-system`);
    expect(ct.backoffUntil).toBeGreaterThan(c.clock.now());
    expect(ct.lastTermination).toMatchObject({ reason: 'Error', exitCode: 137 });
    c.run(ct.backoffUntil! - c.clock.now() + 2_000);
    expect(pod(c, CP, 'kube-scheduler-').containers[0]).toMatchObject({ state: 'running', restarts: ct.restarts + 1 });
  });

  it('docker stop NODE: the machine is off and everything below it is stopped', () => {
    c.docker('stop', W2);
    c.run(15_000);
    const m = machine(c, W2);
    expect(m.power).toBe('stopped');
    expect(m.systemd.state).toBe('stopped');
    expect(m.units.map((u) => `${u.name} ${u.state}`)).toEqual(['containerd.service stopped', 'kubelet.service stopped']);
    expect(m.kubelet).toMatchObject({ state: 'stopped', serving: false });
    expect(m.pods.length).toBeGreaterThan(0);
    for (const p of m.pods) {
      expect(p).toMatchObject({ state: 'stopped', supervisedBy: 'none' });
      for (const ct of p.containers) expect(ct.state).toBe('stopped');
    }
    c.docker('start', W2);
    c.run(30_000);
    const on = machine(c, W2);
    expect(on.power).toBe('running');
    expect(on.boots).toBe(2);
    expect(on.units.every((u) => u.state === 'running')).toBe(true);
  });

  it('docker network disconnect: the machine shows the cut; its processes keep running', () => {
    c.dockerNetwork('disconnect', W);
    const m = machine(c, W);
    expect(m.connected).toBe(false);
    expect(m.units.every((u) => u.state === 'running')).toBe(true);
    c.dockerNetwork('connect', W);
    expect(machine(c, W).connected).toBe(true);
  });
});
