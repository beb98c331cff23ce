import { describe, expect, it } from 'vitest';
import { bootedCluster } from '../engine/cluster';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { HOST_PROMPT, runToCompletion } from './shell';
import { dockerTable, humanDuration } from './docker';
import { containerId } from './cluster-access';

function setup(opts: { bare?: boolean } = {}) {
  const cluster = bootedCluster({ seed: 1, bare: opts.bare ?? true });
  const files = new MemoryFiles({ 'manifests/bookshop/catalog.yaml': 'kind: Deployment\n' });
  const shell = createPlaygroundShell({ cluster, files });
  const run = (line: string) => runToCompletion(shell, line);
  return { cluster, shell, files, run };
}

describe('docker ps', () => {
  it('lists the node containers as kind creates them, newest first, with the API server port', () => {
    const { run, cluster } = setup();
    const lines = run('docker ps').text.split('\n');
    expect(lines[0]).toMatch(/^CONTAINER ID {3}IMAGE {18}COMMAND {18}CREATED {10}STATUS {10}PORTS +NAMES$/);
    expect(lines[1]).toMatch(/^[0-9a-f]{12} {3}kindest\/node:v1\.35\.0 {3}"\/usr\/local\/bin\/entr…" {3}\d+ seconds ago {3}Up \d+ seconds +k8s-lab-worker2$/);
    expect(lines[3]).toMatch(/127\.0\.0\.1:\d+->6443\/tcp, 0\.0\.0\.0:30080->30080\/tcp {3}k8s-lab-control-plane$/);
    expect(lines[3].slice(0, 12)).toBe(containerId(cluster.name, 'k8s-lab-control-plane').slice(0, 12));
    expect(run("docker ps --format '{{.Names}}'").text).toBe('k8s-lab-worker2\nk8s-lab-worker\nk8s-lab-control-plane\n');
    expect(run('docker ps -q').text.split('\n')).toHaveLength(4);
  });

  it('formats durations and tables as the Docker CLI does', () => {
    expect(humanDuration(500)).toBe('Less than a second');
    expect(humanDuration(61_000)).toBe('About a minute');
    expect(humanDuration(3 * 3600_000)).toBe('3 hours');
    expect(dockerTable([['A', 'BB'], ['x', 'y']])).toBe('A         BB\nx         y\n');
  });
});

describe('docker stop, start, kill, restart', () => {
  it('stop waits for the node to halt, then ps -a shows it exited', () => {
    const { run, shell, cluster } = setup();
    const r = shell.run('docker stop k8s-lab-worker2');
    expect(r.done).toBe(false);
    const t0 = cluster.clock.now();
    // Drive the pending stop: it finishes once systemd has stopped the units.
    while (!r.poll()) cluster.clock.advance(100);
    expect(r.output.map((c) => c.text).join('')).toBe('k8s-lab-worker2\n');
    expect(cluster.clock.now() - t0).toBeLessThanOrEqual(10_000);
    expect(run('docker ps --format "{{.Names}}"').text).toBe('k8s-lab-worker\nk8s-lab-control-plane\n');
    expect(run('docker ps -a --format "{{.Names}} {{.Status}}"').text).toMatch(/^k8s-lab-worker2 Exited \(130\) (Less than a second|\d+ seconds?) ago\n/);
    expect(run('docker exec k8s-lab-worker2 hostname')).toMatchObject({ exitCode: 1, text: `Error response from daemon: container ${containerId('k8s-lab', 'k8s-lab-worker2')} is not running\n` });
    expect(run('docker start k8s-lab-worker2').text).toBe('k8s-lab-worker2\n');
    expect(run('docker exec k8s-lab-worker2 hostname').text).toBe('k8s-lab-worker2\n');
  });

  it('kill stops at once; killing a stopped container is an error', () => {
    const { run } = setup();
    expect(run('docker kill k8s-lab-worker').text).toBe('k8s-lab-worker\n');
    expect(run('docker ps -a --format "{{.Names}} {{.State}}"').text).toContain('k8s-lab-worker exited\n');
    expect(run('docker kill k8s-lab-worker')).toMatchObject({ exitCode: 1 });
    expect(run('docker ps -a --filter name=k8s-lab-worker2 --format "{{.Status}}"').text).toMatch(/^Up /);
  });

  it('restart prints the name once the node is back', () => {
    const { run, cluster } = setup();
    const boots = cluster.machines.get('k8s-lab-worker')!.boots;
    expect(run('docker restart k8s-lab-worker').text).toBe('k8s-lab-worker\n');
    expect(cluster.machines.get('k8s-lab-worker')!.boots).toBe(boots + 1);
  });

  it('reports unknown containers as the daemon does', () => {
    const { run } = setup();
    expect(run('docker stop nope')).toMatchObject({ exitCode: 1, text: 'Error response from daemon: No such container: nope\n' });
    expect(run('docker exec nope ls')).toMatchObject({ exitCode: 1, text: 'Error response from daemon: No such container: nope\n' });
  });
});

describe('docker network', () => {
  it('disconnects and reconnects a node from the kind network', () => {
    const { run, cluster } = setup();
    expect(run('docker network disconnect kind k8s-lab-worker')).toMatchObject({ exitCode: 0, text: '' });
    expect(cluster.machines.get('k8s-lab-worker')!.connected).toBe(false);
    expect(run('docker network disconnect kind k8s-lab-worker').exitCode).toBe(1);
    expect(run('docker network connect kind k8s-lab-worker').exitCode).toBe(0);
    expect(cluster.machines.get('k8s-lab-worker')!.connected).toBe(true);
    expect(run('docker network disconnect nonet k8s-lab-worker').text).toBe('Error response from daemon: network nonet not found\n');
  });
});

describe('docker exec', () => {
  it('runs the seed lines', () => {
    const { run, cluster } = setup();
    expect(run('docker exec k8s-lab-control-plane ls /etc/kubernetes/manifests/').text).toBe('etcd.yaml\nkube-apiserver.yaml\nkube-controller-manager.yaml\nkube-scheduler.yaml\n');
    expect(run('docker exec k8s-lab-worker systemctl status kubelet').text).toMatch(/Active: active \(running\)/);
    const m = cluster.machines.get('k8s-lab-worker')!;
    const pid = m.pgrep('kubelet')[0];
    expect(run(`docker exec k8s-lab-worker sh -c 'kill $(pgrep kubelet)'`)).toMatchObject({ exitCode: 0, text: '' });
    run('sleep 1');
    expect(run('docker exec k8s-lab-worker systemctl is-active kubelet').text).toBe('activating\n');
    run('sleep 12');
    expect(run('docker exec k8s-lab-worker systemctl is-active kubelet').text).toBe('active\n');
    expect(m.pgrep('kubelet')[0]).not.toBe(pid);
    expect(run('docker exec k8s-lab-worker systemctl stop kubelet').exitCode).toBe(0);
    expect(run('docker exec k8s-lab-worker systemctl is-active kubelet')).toMatchObject({ text: 'inactive\n', exitCode: 3 });
  });

  it('says when the executable is not there', () => {
    const { run } = setup();
    expect(run('docker exec k8s-lab-worker vim /etc/hosts')).toMatchObject({ exitCode: 127, text: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "vim": executable file not found in $PATH: unknown\n' });
    expect(run('docker exec k8s-lab-worker')).toMatchObject({ exitCode: 1 });
  });

  it('enters a node with -it bash; exit leaves it', () => {
    const { run, shell } = setup();
    expect(run('docker exec -it k8s-lab-control-plane bash')).toMatchObject({ exitCode: 0, text: '' });
    expect(shell.prompt).toBe('root@k8s-lab-control-plane:/# ');
    expect(run('hostname').text).toBe('k8s-lab-control-plane\n');
    expect(run('cd /etc/kubernetes && ls manifests | wc -l').text).toBe('4\n');
    expect(shell.prompt).toBe('root@k8s-lab-control-plane:/etc/kubernetes# ');
    expect(run('echo hello > /tmp/note; cat /tmp/note').text).toBe('hello\n');
    expect(run('vim /etc/hosts').text).toBe('bash: vim: command not found\n');
    // kindest/node ships kubectl, but no kubeconfig: client-go's default server answers nothing
    expect(run('kubectl get pods').text.split('\n').at(-2)).toBe('The connection to the server localhost:8080 was refused - did you specify the right host or port?');
    expect(run('kill 99999').text).toBe('bash: kill: (99999) - No such process\n');
    expect(run('exit').text).toBe('exit\n');
    expect(shell.prompt).toBe(HOST_PROMPT);
  });

  it('leaves a node whose container stopped', () => {
    const { run, shell, cluster } = setup();
    run('docker exec -it k8s-lab-worker bash');
    expect(shell.prompt).toBe('root@k8s-lab-worker:/# ');
    cluster.docker('kill', 'k8s-lab-worker');
    expect(shell.prompt).toBe(HOST_PROMPT);
    expect(run('docker ps --format "{{.Names}}"').text).toBe('k8s-lab-worker2\nk8s-lab-control-plane\n');
  });

  it('docker cp copies between the working directory and a node', () => {
    const { run, files, cluster } = setup();
    expect(run('docker cp manifests/bookshop/catalog.yaml k8s-lab-worker:/tmp/')).toMatchObject({ exitCode: 0, text: 'Successfully copied 2.05kB to k8s-lab-worker:/tmp/\n' });
    expect(cluster.machines.get('k8s-lab-worker')!.fs.tryReadFile('/tmp/catalog.yaml')).toBe('kind: Deployment\n');
    expect(run('docker cp k8s-lab-control-plane:/etc/kubernetes/manifests/kube-scheduler.yaml .').exitCode).toBe(0);
    expect(files.read('kube-scheduler.yaml')).toContain('kube-scheduler');
  });
});
