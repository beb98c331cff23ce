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

describe('processes inside a node', () => {
  it('ps aux and ps -ef list systemd, containerd and the kubelet', () => {
    const aux = run('docker exec k8s-lab-worker ps aux').text.split('\n');
    expect(aux[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
    expect(aux[1]).toMatch(/^root +1 .* \/sbin\/init$/);
    expect(aux.some((l) => l.endsWith('ps aux'))).toBe(true);
    const ef = run('docker exec k8s-lab-worker ps -ef').text.split('\n');
    expect(ef[0]).toBe('UID          PID    PPID  C STIME TTY          TIME CMD');
    expect(ef.some((l) => / \/usr\/bin\/kubelet /.test(l))).toBe(true);
  });

  it('pgrep finds the kubelet; -l adds its name; no match exits 1', () => {
    const pid = cluster.machines.get('k8s-lab-worker')!.pgrep('kubelet')[0];
    expect(run('docker exec k8s-lab-worker pgrep kubelet').text).toBe(`${pid}\n`);
    expect(run('docker exec k8s-lab-worker pgrep -l kubelet').text).toBe(`${pid} kubelet\n`);
    expect(run('docker exec k8s-lab-worker pgrep nothing-like-this')).toMatchObject({ text: '', exitCode: 1 });
    expect(run('docker exec k8s-lab-worker pgrep')).toMatchObject({ exitCode: 2 });
  });

  it('kill words its errors by who runs it', () => {
    expect(run('docker exec k8s-lab-worker kill 99999')).toMatchObject({ text: 'kill: (99999): No such process\n', exitCode: 1 });
    expect(run("docker exec k8s-lab-worker sh -c 'kill 99999'")).toMatchObject({ text: 'sh: 1: kill: No such process\n', exitCode: 1 });
    expect(run("docker exec k8s-lab-worker bash -c 'kill 99999'")).toMatchObject({ text: 'bash: kill: (99999) - No such process\n', exitCode: 1 });
    expect(run("docker exec k8s-lab-worker sh -c 'kill'").exitCode).toBe(2);
  });
});

describe('the journal', () => {
  it('journalctl -u kubelet -n N shows the unit lines', () => {
    const lines = run('docker exec k8s-lab-worker journalctl -u kubelet -n 3 --no-pager').text.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const l of lines) expect(l).toMatch(/^Jan 05 \d\d:\d\d:\d\d k8s-lab-worker (kubelet|systemd)\[\d+\]: /);
  });

  it('journalctl -f follows until stopped', () => {
    const r = run('timeout 15 docker exec k8s-lab-worker2 journalctl -fu kubelet');
    expect(r.exitCode).toBe(124);
    expect(r.text.split('\n').length).toBeGreaterThan(10);
  });
});

describe('files on a node', () => {
  it('ls, cat, mv, cp, rm, mkdir and find act on the node disk', () => {
    expect(run('docker exec k8s-lab-control-plane cat /etc/hostname').text).toBe('k8s-lab-control-plane\n');
    expect(run('docker exec k8s-lab-control-plane ls -l /etc/kubernetes/manifests').text).toMatch(/^total \d+\n-rw------- 1 root root +\d+ \w{3} [ \d]\d \d\d:\d\d etcd\.yaml\n/);
    expect(run("docker exec k8s-lab-worker sh -c 'mkdir -p /tmp/a/b && echo x > /tmp/a/b/f && cp /tmp/a/b/f /tmp/g && cat /tmp/g'").text).toBe('x\n');
    expect(run('docker exec k8s-lab-worker find /tmp/a').text).toBe('/tmp/a\n/tmp/a/b\n/tmp/a/b/f\n');
    expect(run('docker exec k8s-lab-worker rm /tmp/a')).toMatchObject({ text: "rm: cannot remove '/tmp/a': Is a directory\n", exitCode: 1 });
    expect(run('docker exec k8s-lab-worker rm -rf /tmp/a').exitCode).toBe(0);
    expect(run('docker exec k8s-lab-worker ls /tmp/a')).toMatchObject({ text: "ls: cannot access '/tmp/a': No such file or directory\n", exitCode: 2 });
    expect(run("docker exec k8s-lab-worker sh -c 'echo x > /nodir/f'")).toMatchObject({ text: 'sh: 1: cannot create /nodir/f: Directory nonexistent\n', exitCode: 1 });
    // a missing operand among several: its error first (ls stats every operand before listing)
    expect(run('docker exec k8s-lab-worker ls /etc/kubernetes /nope')).toMatchObject({
      text: "ls: cannot access '/nope': No such file or directory\n/etc/kubernetes:\nkubelet.conf\nmanifests\npki\n",
      exitCode: 2,
    });
  });

  it('moving a static pod manifest out of the directory makes the kubelet stop that pod', () => {
    expect(run('docker exec k8s-lab-control-plane mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/').exitCode).toBe(0);
    expect(run('docker exec k8s-lab-control-plane ls /etc/kubernetes/manifests/').text).not.toContain('kube-scheduler');
    expect(run('docker exec k8s-lab-control-plane mv /tmp/kube-scheduler.yaml /etc/kubernetes/manifests/').exitCode).toBe(0);
    expect(run('docker exec k8s-lab-control-plane mv /nope /tmp/')).toMatchObject({ text: "mv: cannot stat '/nope': No such file or directory\n", exitCode: 1 });
  });
});

describe('crictl', () => {
  it('lists containers, pods and images as crictl does', () => {
    const ps = run('docker exec k8s-lab-worker crictl ps').text.split('\n');
    expect(ps[0]).toMatch(/^CONTAINER {11}IMAGE {15}CREATED {13}STATE {15}NAME {16}ATTEMPT {13}POD ID {14}POD +NAMESPACE$/);
    expect(ps.some((l) => /kube-proxy/.test(l))).toBe(true);
    expect(run('docker exec k8s-lab-worker crictl pods').text).toMatch(/^POD ID {14}CREATED {13}STATE {15}NAME/);
    expect(run('docker exec k8s-lab-worker crictl images').text).toMatch(/registry\.k8s\.io\/pause/);
  });

  it('fails as crictl does when containerd is down', () => {
    run('docker exec k8s-lab-worker2 systemctl stop containerd');
    const r = run('docker exec k8s-lab-worker2 crictl ps');
    expect(r.exitCode).toBe(1);
    expect(r.text).toMatch(/^time="2026-01-05T\d\d:\d\d:\d\dZ" level=fatal msg="validate service connection: validate CRI v1 runtime API for endpoint \\"unix:\/\/\/run\/containerd\/containerd.sock\\": rpc error: code = Unavailable/);
    run('docker exec k8s-lab-worker2 systemctl start containerd');
  });
});
