/**
 * `df -h`, `free -m`, `uptime`, `hostname`, `ip addr`, `ip route` inside a kind node
 * (kindest/node: coreutils 9, procps-ng 4, iproute2): formats as those tools print them,
 * values from the simulated machine (its IP on the kind network, the pod CIDRs kindnet routes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../engine/cluster';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';

let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  cluster = bootedCluster({ seed: 3, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('system commands inside a node', () => {
  it('df -h: the overlay root on the ~98G laptop disk, tmpfs mounts, coreutils column widths', () => {
    const r = run('docker exec k8s-lab-worker df -h');
    expect(r.exitCode).toBe(0);
    const lines = r.text.trimEnd().split('\n');
    expect(lines[0]).toBe('Filesystem      Size  Used Avail Use% Mounted on');
    expect(lines[1]).toMatch(/^overlay +98G +\d+G +\d+G +\d+% \/$/);
    expect(lines.some((l) => /^shm +64M +0 +64M +0% \/dev\/shm$/.test(l))).toBe(true);
  });

  it('free -m: total is the machine memory; the header as procps-ng prints it', () => {
    const lines = run('docker exec k8s-lab-worker free -m').text.split('\n');
    expect(lines[0]).toBe('               total        used        free      shared  buff/cache   available');
    const mem = lines[1].split(/\s+/);
    expect(mem[0]).toBe('Mem:');
    expect(Number(mem[1])).toBe(cluster.machines.get('k8s-lab-worker')!.memoryBytes / 1024 / 1024);
    expect(Number(mem[2])).toBeGreaterThan(0);
    expect(lines[2]).toMatch(/^Swap: +\d+ +0 +\d+$/);
  });

  it('uptime and hostname', () => {
    expect(run('docker exec k8s-lab-worker uptime').text).toMatch(/^ \d\d:\d\d:\d\d up +\d+:\d\d, {2}0 users, {2}load average: \d\.\d\d, \d\.\d\d, \d\.\d\d\n$/);
    expect(run('docker exec k8s-lab-worker hostname').text).toBe('k8s-lab-worker\n');
  });

  it('ip addr shows eth0 with the node IP; ip route the gateway, the kind network and the other nodes\' pod CIDRs', () => {
    const nodes = cluster.api.list('nodes').items;
    const worker = nodes.find((n) => n.metadata.name === 'k8s-lab-worker')!;
    const ip = worker.status!.addresses.find((a: { type: string }) => a.type === 'InternalIP').address as string;
    const addr = run('docker exec k8s-lab-worker ip addr').text;
    expect(addr).toMatch(/^1: lo: <LOOPBACK,UP,LOWER_UP>/);
    expect(addr).toContain(`    inet ${ip}/16 brd 172.18.255.255 scope global eth0\n`);
    const eth0 = run('docker exec k8s-lab-worker ip -4 addr show eth0').text;
    expect(eth0.split('\n')[0]).toMatch(/^\d+: eth0@if\d+: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500/);
    expect(eth0).not.toContain('inet6');
    const routes = run('docker exec k8s-lab-worker ip route').text.split('\n').filter((l) => l !== '');
    expect(routes[0]).toBe('default via 172.18.0.1 dev eth0 ');
    expect(routes).toContain(`172.18.0.0/16 dev eth0 proto kernel scope link src ${ip} `);
    for (const n of nodes) {
      if (n.metadata.name === 'k8s-lab-worker' || !n.spec?.podCIDR) continue;
      const other = n.status!.addresses.find((a: { type: string }) => a.type === 'InternalIP').address;
      expect(routes).toContain(`${n.spec.podCIDR} via ${other} dev eth0 `);
    }
  });

  it('uname: the host kernel the Node reports (coreutils field order, -a without the unknown -p/-i)', () => {
    const kernel = cluster.api.get('nodes', undefined, 'k8s-lab-worker').status!.nodeInfo.kernelVersion;
    expect(kernel).toBe('6.8.0-60-generic');
    expect(run('docker exec k8s-lab-worker uname -a')).toMatchObject({
      text: 'Linux k8s-lab-worker 6.8.0-60-generic #63-Ubuntu SMP PREEMPT_DYNAMIC Tue Apr 15 19:04:15 UTC 2025 x86_64 GNU/Linux\n',
      exitCode: 0,
    });
    expect(run('docker exec k8s-lab-worker uname').text).toBe('Linux\n');
    expect(run(`docker exec k8s-lab-worker uname -r`).text).toBe(`${kernel}\n`);
    // the order is uname's, not the options'
    expect(run('docker exec k8s-lab-control-plane uname -m -n -s').text).toBe('Linux k8s-lab-control-plane x86_64\n');
    expect(run('docker exec k8s-lab-worker uname -p').text).toBe('unknown\n');
    expect(run('docker exec k8s-lab-worker uname -x')).toMatchObject({ text: "uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n", exitCode: 1 });
  });
});
