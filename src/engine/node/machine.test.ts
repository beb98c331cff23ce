/**
 * A kind node container: boot (systemd as PID 1 starting containerd.service and kubelet.service),
 * `ps aux` as procps prints it inside the node (seed 000: "root 1 /sbin/init (systemd)",
 * "root ... /usr/bin/kubelet"), pgrep/pkill, and what Docker does to the container:
 * `docker stop`, `docker kill`, `docker restart`, `docker network disconnect`.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../clock';
import { Machine, psAux, type MachineEvent } from './machine';
import type { Program } from './process';
import { daemonProgram } from './systemd';

function worker(clock = new Clock(), rng?: Rng): Machine {
  const m = new Machine({ name: 'k8s-lab-worker', role: 'worker', clock, ...(rng ? { rng } : {}) });
  m.registerExecutable('/usr/bin/kubelet', () => daemonProgram());
  return m;
}

describe('boot', () => {
  it('PID 1 is /sbin/init (systemd); journald, then containerd.service, then kubelet.service', () => {
    const clock = new Clock();
    const m = worker(clock);
    expect(m.powerOn()).toBe(true);
    expect(m.powerOn()).toBe(false);
    clock.advance(1000);
    const procs = m.processes.list().map((p) => `${p.pid} ${p.command}${p.unit ? ' ' + p.unit : ''}`);
    expect(procs).toEqual([
      '1 /sbin/init',
      '90 /lib/systemd/systemd-journald systemd-journald.service',
      '101 /usr/local/bin/containerd containerd.service',
      '103 /usr/bin/kubelet kubelet.service',
    ]);
    expect(m.comm(m.processes.get(1)!)).toBe('systemd');
    const log = m.journalctl([]).stdout.split('\n').map((l) => l.replace(/^.*?\]: /, ''));
    const i = (s: string) => log.indexOf(s);
    expect(i('Started systemd-journald.service - Journal Service.')).toBeGreaterThan(-1);
    expect(i('Starting containerd.service - containerd container runtime...')).toBeLessThan(i('Starting kubelet.service - kubelet: The Kubernetes Node Agent...'));
    expect(i('Started containerd.service - containerd container runtime.')).toBeLessThan(i('Started kubelet.service - kubelet: The Kubernetes Node Agent.'));
    expect(i('Started kubelet.service - kubelet: The Kubernetes Node Agent.')).toBeLessThan(i('Reached target multi-user.target - Multi-User System.'));
    expect(m.systemd!.booted).toBe(true);
  });

  it('is deterministic: same seed, same inputs, same journal and PIDs', () => {
    const run = (): string => {
      const clock = new Clock();
      const m = worker(clock, new Rng(42));
      m.powerOn();
      clock.advance(30_000);
      m.pkill('kubelet', 'SIGKILL');
      clock.advance(30_000);
      return m.journalctl([]).stdout + psAux(m);
    };
    expect(run()).toBe(run());
  });
});

describe('ps aux, pgrep, pkill, kill', () => {
  it('ps aux: procps columns, PID 1 first, then every process, then ps itself', () => {
    const clock = new Clock();
    const m = worker(clock);
    m.powerOn();
    clock.advance(5 * 60_000);
    const lines = psAux(m).trimEnd().split('\n');
    expect(lines[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
    expect(lines[1]).toBe('root           1  0.1  0.1  19924 11468 ?        Ss   06:00   0:00 /sbin/init');
    expect(lines[2]).toBe('root          90  0.0  0.1  30104 10035 ?        Ss   06:00   0:00 /lib/systemd/systemd-journald');
    expect(lines[3]).toBe('root         101  0.7  0.3 2540064 49766 ?        Ssl  06:00   0:01 /usr/local/bin/containerd');
    expect(lines[4]).toMatch(/^root {9}103 {2}2\.0 {2}0\.4 2416844 74137 \? {8}Ssl {2}06:00 {3}0:06 \/usr\/bin\/kubelet --bootstrap-kubeconfig=\/etc\/kubernetes\/bootstrap-kubelet\.conf .* --runtime-cgroups=\/system\.slice\/containerd\.service$/);
    expect(lines[5]).toBe('root         104  0.0  0.0   8096  4224 ?        Rs   06:05   0:00 ps aux');
    // the next command gets the next PID, as on a real node
    expect(psAux(m).trimEnd().split('\n').at(-1)).toMatch(/^root {9}105 /);
  });

  it("the seed's `kill $(pgrep kubelet)`: pgrep finds the kubelet by name; systemd restarts it", () => {
    const clock = new Clock();
    const m = worker(clock);
    m.powerOn();
    clock.advance(1000);
    expect(m.pgrep('kubelet')).toEqual([103]);
    expect(m.pgrep('kube')).toEqual([103]);
    expect(m.pgrep('kube', { exact: true })).toEqual([]);
    expect(m.pgrep('containerd.sock', { full: true })).toEqual([103]);
    expect(m.pgrep('systemd')).toEqual([1, 90]);
    for (const pid of m.pgrep('kubelet')) m.signal(pid, 'SIGTERM');
    expect(m.pgrep('kubelet')).toEqual([]);
    clock.advance(10_010);
    expect(m.pgrep('kubelet')).toHaveLength(1);
    expect(m.pkill('nothing-like-this')).toBe(0);
  });

  it('kill -9 1 does nothing (a PID namespace protects its init); kill of a missing PID fails', () => {
    const clock = new Clock();
    const m = worker(clock);
    m.powerOn();
    clock.advance(1000);
    expect(m.signal(1, 'SIGKILL')).toBe(true);
    expect(m.processes.get(1)).toBeDefined();
    expect(m.signal(4242, 'SIGTERM')).toBe(false);
  });
});

describe('docker stop / kill / restart / network', () => {
  it('docker stop: systemd stops every unit, then the container is stopped and every process gone', () => {
    const clock = new Clock();
    const m = worker(clock);
    const events: MachineEvent[] = [];
    m.onEvent((e) => events.push(e));
    m.powerOn();
    clock.advance(60_000);
    let done = false;
    expect(m.powerOff(() => (done = true))).toBe(true);
    expect(m.state).toBe('stopping');
    clock.advance(10);
    expect(done).toBe(true);
    expect(m.state).toBe('stopped');
    expect(m.processes.list()).toEqual([]);
    expect(psAux(m)).toBe('');
    expect(m.systemctl(['status', 'kubelet']).exitCode).toBe(1);
    const tail = m.journalctl(['-n', '3']).stdout.split('\n').map((l) => l.replace(/^.*?\]: /, ''));
    expect(tail.slice(0, 2)).toEqual(['systemd-journald.service: Consumed 51ms CPU time.', 'Reached target halt.target - System Halt.']);
    expect(m.journalctl(['-u', 'kubelet']).stdout).toContain('Stopped kubelet.service - kubelet: The Kubernetes Node Agent.');
    expect(events).toEqual([
      { type: 'power-on', boot: 1 },
      { type: 'power-off', how: 'stop' },
    ]);
  });

  it('docker stop gives up after 10 s on a unit that ignores SIGTERM and kills everything', () => {
    const clock = new Clock();
    const m = worker(clock);
    const stubborn: Program = { start() {}, onSignal: () => true };
    m.registerExecutable('/usr/bin/kubelet', () => stubborn);
    m.powerOn();
    clock.advance(5_000);
    m.powerOff();
    clock.advance(9_999);
    expect(m.state).toBe('stopping');
    expect(m.systemctl(['is-active', 'kubelet']).stdout).toBe('deactivating\n');
    clock.advance(1);
    expect(m.state).toBe('stopped');
    expect(m.processes.list()).toEqual([]);
  });

  it('power on again: a fresh PID namespace, an empty journal and /tmp, the restart counter forgotten', () => {
    const clock = new Clock();
    const m = worker(clock);
    m.powerOn();
    clock.advance(1000);
    m.pkill('kubelet', 'SIGKILL');
    clock.advance(10_010);
    expect(m.systemctl(['show', 'kubelet', '-p', 'NRestarts', '--value']).stdout).toBe('1\n');
    m.fs.writeFile('/tmp/scratch', 'x');
    m.fs.writeFile('/root/keep', 'y');
    m.restart();
    clock.advance(1000);
    expect(m.state).toBe('running');
    expect(m.boots).toBe(2);
    expect(m.pgrep('kubelet')).toEqual([103]);
    expect(m.systemctl(['show', 'kubelet', '-p', 'NRestarts', '--value']).stdout).toBe('0\n');
    expect(m.fs.exists('/tmp/scratch')).toBe(false);
    expect(m.fs.cat('/root/keep')).toBe('y');
    expect(m.journalctl(['-u', 'kubelet']).stdout).not.toContain('Main process exited');
    expect(m.journalctl([]).stdout.split('\n')[0]).toMatch(/^Jan 05 06:00:11 k8s-lab-worker systemd\[1\]: systemd 252\.39-1~deb12u1 running in system mode/);
  });

  it('docker kill: everything dies at once, no unit is stopped, no journal line is written', () => {
    const clock = new Clock();
    const m = worker(clock);
    m.powerOn();
    clock.advance(1000);
    const before = m.journal.entries().length;
    expect(m.kill()).toBe(true);
    expect(m.state).toBe('stopped');
    expect(m.processes.list()).toEqual([]);
    expect(m.journal.entries().length).toBe(before);
    clock.advance(60_000); // no systemd timer fires on a dead machine
    expect(m.journal.entries().length).toBe(before);
    expect(m.kill()).toBe(false);
  });

  it('docker network disconnect/connect: processes keep running, `connected` flips, listeners hear it', () => {
    const clock = new Clock();
    const m = worker(clock);
    const events: MachineEvent[] = [];
    m.onEvent((e) => events.push(e));
    m.powerOn();
    clock.advance(1000);
    m.disconnect();
    expect(m.connected).toBe(false);
    expect(m.pgrep('kubelet')).toEqual([103]);
    m.connect();
    expect(m.connected).toBe(true);
    expect(events.slice(1)).toEqual([
      { type: 'network', connected: false },
      { type: 'network', connected: true },
    ]);
  });
});
