/** The action menus offer only what does something now; no-ops are greyed out with the reason. */
import { describe, expect, it } from 'vitest';
import { nodeActions, unitActions } from './actions';

const byId = (list: { id: string; disabled?: string }[]) => Object.fromEntries(list.map((a) => [a.id, a.disabled ?? 'enabled']));

describe('nodeActions', () => {
  it('on the map (power and network unknown) a Ready node greys out Power on and Restore its network, keeping their lines', () => {
    const list = nodeActions({ name: 'k8s-lab-worker2', unschedulable: false, ready: true });
    expect(byId(list)).toMatchObject({ 'power-off': 'enabled', 'power-on': 'the node reports Ready', 'net-cut': 'enabled', 'net-restore': 'the node reports Ready', cordon: 'enabled', drain: 'enabled' });
    expect(list.find((a) => a.id === 'power-on')?.line).toBe('docker start k8s-lab-worker2');
    expect(list.some((a) => a.id === 'uncordon')).toBe(false);
  });

  it('a NotReady node on the map offers both power and both network actions', () => {
    expect(byId(nodeActions({ name: 'w', unschedulable: false, ready: false }))).toMatchObject({ 'power-off': 'enabled', 'power-on': 'enabled', 'net-cut': 'enabled', 'net-restore': 'enabled' });
  });

  it('with the machine known (supervision tree) only the opposite of its state is offered', () => {
    expect(nodeActions({ name: 'w', power: 'running', connected: true, ready: true }).map((a) => a.id)).not.toContain('power-on');
    expect(nodeActions({ name: 'w', power: 'running', connected: true }).map((a) => a.id)).not.toContain('net-restore');
    const off = byId(nodeActions({ name: 'w', power: 'stopped', connected: true, ready: true }));
    expect(off['power-on']).toBe('enabled');
    expect(off['power-off']).toBeUndefined();
  });
});

describe('unitActions', () => {
  it('greys out Start while the unit runs', () => {
    expect(byId(unitActions('w', 'kubelet.service', { running: true, nodeOn: true }))).toEqual({ 'kill-kubelet': 'enabled', 'stop-kubelet': 'enabled', 'start-kubelet': 'it is already running', 'restart-kubelet': 'enabled' });
  });

  it('offers Start once its process is gone, and greys out the kill', () => {
    expect(byId(unitActions('w', 'kubelet.service', { running: false, nodeOn: true }))).toEqual({ 'kill-kubelet': 'no process runs', 'stop-kubelet': 'enabled', 'start-kubelet': 'enabled', 'restart-kubelet': 'enabled' });
  });
});
