/**
 * containerd: image pulls and their errors, kind load, sandboxes and IPs, container lifecycle,
 * stop timing, OOM kills, probes, exec, logs, crictl tables, and surviving a containerd restart.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../clock';
import { ProcessTable } from './process';
import { Containerd, CriError, crictlTable, humanDurationAgo, humanSize, rfc3339Nano, type ContainerConfig, type ContainerEvent } from './runtime';
import { memoryMount } from './shell';

const MiB = 1024 * 1024;

function setup(opts: { seed?: number; log?: string[]; kernel?: string[] } = {}) {
  const clock = new Clock();
  const rng = new Rng(opts.seed ?? 7);
  const processes = new ProcessTable(clock);
  // PID 1 of the node (systemd's place), so shims are its children as on a kind node.
  processes.spawn({ command: '/sbin/init', ppid: 0, program: { start: () => {} } });
  const rt = new Containerd({
    nodeName: 'k8s-lab-worker',
    clock,
    rng,
    processes,
    podCIDR: '10.244.1.0/24',
    nodeIP: '172.18.0.3',
    ...(opts.log ? { log: (l: string) => opts.log!.push(l) } : {}),
    ...(opts.kernel ? { kernelLog: (l: string) => opts.kernel!.push(l) } : {}),
  });
  /** Get the image onto the node (kind load for local builds, else a pull) and run one container. */
  const run = (pod: string, cfg: ContainerConfig, sandbox: { hostNetwork?: boolean; namespace?: string } = {}) => {
    if (!rt.imageStatus(cfg.image)) {
      try {
        rt.loadImage(cfg.image);
      } catch {
        rt.pullImage(cfg.image);
        clock.advance(60_000);
      }
    }
    const sb = rt.runPodSandbox({ name: pod, namespace: sandbox.namespace ?? 'default', uid: `${pod}-uid`, ...(sandbox.hostNetwork ? { hostNetwork: true } : {}) });
    const id = rt.createContainer(sb, cfg);
    rt.startContainer(id);
    return { id, sb };
  };
  return { clock, rng, processes, rt, run };
}

const BOOKSHOP_CATALOG: ContainerConfig = {
  name: 'catalog',
  image: 'bookshop:v1',
  command: ['/usr/local/bin/catalog'],
  env: { POD_NAME: 'catalog-58544d89f4-4h2kb', NODE_NAME: 'k8s-lab-worker' },
  ports: [{ name: 'http', containerPort: 8080 }],
  memoryLimitBytes: 128 * MiB,
};

describe('images', () => {
  it('pulls on the clock: busybox in ~0.7 s, nginx in ~4.9 s, sharing concurrent pulls', () => {
    const { clock, rt } = setup();
    const done: string[] = [];
    const a = rt.pullImage('busybox', (r) => done.push(`busybox ${r.ok} ${clock.now()}`));
    const b = rt.pullImage('docker.io/library/busybox:latest');
    expect(b).toBe(a);
    rt.pullImage('nginx:1.27', (r) => done.push(`nginx ${r.ok} ${clock.now()}`));
    clock.advance(800);
    expect(done).toEqual(['busybox true 733']);
    clock.advance(5000);
    expect(done).toEqual(['busybox true 733', 'nginx true 4926']);
    const r = a.value!;
    expect(r.ok && r.durationMs).toBe(733);
    expect(r.ok && r.imageRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(rt.imageStatus('busybox:latest')?.repoTags).toEqual(['docker.io/library/busybox:latest']);
    // Only the tag that was pulled is known locally, even though 1.37 is the same image upstream.
    expect(rt.imageStatus('busybox:1.37')).toBeUndefined();
  });

  it('fails a bad tag with the ErrImagePull message the kubelet shows', () => {
    const { clock, rt } = setup();
    const p = rt.pullImage('nginx:1.999');
    clock.advance(1000);
    const r = p.value!;
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(CriError);
    expect(r.error.message).toBe(
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.999": failed to resolve reference "docker.io/library/nginx:1.999": docker.io/library/nginx:1.999: not found',
    );
    expect(r.durationMs).toBe(600);
    expect(rt.imageStatus('nginx:1.999')).toBeUndefined();
  });

  it('cannot pull bookshop:v1 but has it after kind load', () => {
    const { clock, rt } = setup();
    const p = rt.pullImage('bookshop:v1');
    clock.advance(1000);
    const r = p.value!;
    expect(!r.ok && r.error.message).toContain('pull access denied, repository does not exist or may require authorization');
    expect(rt.imageStatus('bookshop:v1')).toBeUndefined();
    rt.loadImage('bookshop:v1');
    rt.loadImage('bookshop:v2');
    const img = rt.imageStatus('bookshop:v1')!;
    expect(img.repoTags).toEqual(['docker.io/library/bookshop:v1']);
    expect(img.repoDigests).toEqual([]);
    expect(() => rt.loadImage('bookshop:v9')).toThrow('ERROR: image: "bookshop:v9" not present locally');
    expect(rt.crictlImages().map((x) => `${x.image}:${x.tag}`)).toEqual(['docker.io/library/bookshop:v1', 'docker.io/library/bookshop:v2']);
  });

  it('lists images as crictl images does and removes them', () => {
    const { clock, rt } = setup();
    rt.preloadImages(['registry.k8s.io/pause:3.10', 'registry.k8s.io/coredns/coredns:v1.12.0']);
    rt.pullImage('nginx:1.27');
    clock.advance(10_000);
    const rows = rt.crictlImages();
    expect(rows.find((x) => x.image === 'registry.k8s.io/pause')).toMatchObject({ tag: '3.10', size: '320kB' });
    expect(rows.find((x) => x.image === 'docker.io/library/nginx')).toMatchObject({ tag: '1.27', size: '72.1MB' });
    expect(rows[0].imageId).toMatch(/^[0-9a-f]{13}$/);
    rt.removeImage('nginx:1.27');
    rt.removeImage('registry.k8s.io/pause:3.10'); // pinned sandbox image stays
    expect(rt.crictlImages().map((x) => x.image)).toEqual(['registry.k8s.io/coredns/coredns', 'registry.k8s.io/pause']);
  });
});

describe('sandboxes', () => {
  it('spawns a shim with /pause and allocates IPs as host-local does', () => {
    const { rt, processes } = setup();
    rt.preloadImages(['registry.k8s.io/pause:3.10']);
    const a = rt.runPodSandbox({ name: 'a', namespace: 'default', uid: 'ua' });
    const b = rt.runPodSandbox({ name: 'b', namespace: 'default', uid: 'ub' });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(rt.podSandboxStatus(a).network.ip).toBe('10.244.1.2');
    expect(rt.podSandboxStatus(b).network.ip).toBe('10.244.1.3');
    const shim = processes.list().find((p) => p.args.includes(a))!;
    expect(shim.command).toBe('/usr/local/bin/containerd-shim-runc-v2');
    expect(shim.args).toEqual(['-namespace', 'k8s.io', '-id', a, '-address', '/run/containerd/containerd.sock']);
    expect(shim.ppid).toBe(1);
    expect(shim.unit).toBe('containerd.service');
    const pause = processes.children(shim.pid)[0];
    expect(pause.command).toBe('/pause');
    expect(pause.containerId).toBe(a);
    // Released IPs are reused only after the range moves on (host-local's last-reserved rule).
    rt.stopPodSandbox(a);
    const c = rt.runPodSandbox({ name: 'c', namespace: 'default', uid: 'uc' });
    expect(rt.podSandboxStatus(c).network.ip).toBe('10.244.1.4');
    expect(processes.list().some((p) => p.pid === shim.pid)).toBe(false);
    const h = rt.runPodSandbox({ name: 'kube-proxy-x', namespace: 'kube-system', uid: 'uh', hostNetwork: true });
    expect(rt.podSandboxStatus(h).network.ip).toBe('172.18.0.3');
    const pods = new Map(rt.crictlPods().map((p) => [p.name, `${p.state} ${p.runtime}`]));
    expect(Object.fromEntries(pods)).toEqual({ a: 'NotReady (default)', b: 'Ready (default)', c: 'Ready (default)', 'kube-proxy-x': 'Ready (default)' });
  });
});

describe('container lifecycle', () => {
  it('runs busybox `sh -c "echo boom; exit 1"`: exits 1 at once, reason Error', () => {
    const { rt, run } = setup();
    const { id } = run('boom', { name: 'boom', image: 'busybox', command: ['sh', '-c', 'echo boom; exit 1'] });
    const st = rt.containerStatus(id);
    expect(st.state).toBe('CONTAINER_EXITED');
    expect(st.exitCode).toBe(1);
    expect(st.reason).toBe('Error');
    expect(rt.containerLogs(id)).toEqual(['boom']);
  });

  it('runs `sleep 3600` for 3600 s and exits 0 (Completed)', () => {
    const { clock, rt, run } = setup();
    const { id } = run('sleeper', { name: 'sleep', image: 'busybox:1.36', command: ['sleep', '3600'] });
    clock.advance(3_599_999);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    clock.advance(1);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed', finishedAt: clock.now() });
  });

  it('exits at once for the busybox default command (sh without a terminal)', () => {
    const { rt, run } = setup();
    const { id } = run('bb', { name: 'bb', image: 'busybox' });
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
    const { id: id2 } = run('bb-i', { name: 'bb', image: 'busybox', stdin: true, tty: true });
    expect(rt.containerStatus(id2).state).toBe('CONTAINER_RUNNING');
  });

  it('fails to start a command the image does not have (bash in busybox): StartError 128', () => {
    const { rt, run } = setup();
    expect(() => run('bad', { name: 'bad', image: 'busybox', command: ['bash', '-c', 'echo hi'] })).toThrow(
      'rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "bash": executable file not found in $PATH: unknown',
    );
    const [c] = rt.listContainers();
    expect(c).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError' });
  });

  it('reserves container names until removal', () => {
    const { rt, run } = setup();
    const { id, sb } = run('p', { name: 'c', image: 'busybox', command: ['true'] });
    expect(() => rt.createContainer(sb, { name: 'c', image: 'busybox' })).toThrow(/failed to reserve container name "c_p_default_p-uid_0": name "c_p_default_p-uid_0" is reserved for "[0-9a-f]{64}"/);
    rt.removeContainer(id);
    expect(() => rt.createContainer(sb, { name: 'c', image: 'busybox' })).not.toThrow();
  });

  it('refuses to remove a running container', () => {
    const { rt, run } = setup();
    const { id } = run('p', { name: 'c', image: 'busybox', command: ['sleep', '100'] });
    expect(() => rt.removeContainer(id)).toThrow('container is still running, to stop first');
  });

  it('emits CRI container events', () => {
    const { clock, rt, run } = setup();
    const events: ContainerEvent['type'][] = [];
    rt.subscribe((e) => events.push(e.type));
    const { id } = run('p', { name: 'c', image: 'busybox', command: ['sleep', '1'] });
    clock.advance(1000);
    rt.removeContainer(id);
    expect(events).toEqual(['CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT']);
  });
});

describe('stopContainer', () => {
  it('SIGTERM-ignoring `sleep` as PID 1 dies by SIGKILL after the timeout: 137', () => {
    const { clock, rt, run } = setup();
    const { id } = run('sleeper', { name: 'sleep', image: 'busybox', command: ['sleep', '3600'] });
    clock.advance(1000);
    let stoppedAt = -1;
    rt.stopContainer(id, 30_000).then(() => (stoppedAt = clock.now()));
    clock.advance(29_999);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    clock.advance(1);
    expect(stoppedAt).toBe(31_000);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error' });
  });

  it('nginx stops gracefully on its STOPSIGNAL (SIGQUIT) and exits 0 at once', () => {
    const { clock, rt, run } = setup();
    const { id } = run('web', { name: 'nginx', image: 'nginx:1.27' });
    clock.advance(1000);
    let stoppedAt = -1;
    rt.stopContainer(id, 30_000).then(() => (stoppedAt = clock.now()));
    clock.advance(100);
    expect(stoppedAt).toBeGreaterThan(0);
    expect(stoppedAt - 1000).toBeLessThan(100);
    expect(rt.containerStatus(id)).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(rt.containerLogs(id)).toContain('2026/01/05 06:00:01 [notice] 1#1: signal 3 (SIGQUIT) received, shutting down');
  });

  it('the bookshop does not handle SIGTERM: the Go runtime as PID 1 exits 2 at once', () => {
    const { clock, rt, run } = setup();
    const { id } = run('catalog', BOOKSHOP_CATALOG);
    clock.advance(500);
    rt.stopContainer(id, 30_000);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 2, reason: 'Error' });
  });

  it('timeout 0 kills at once: 137', () => {
    const { rt, run } = setup();
    const { id } = run('web', { name: 'nginx', image: 'nginx:1.27' });
    rt.stopContainer(id, 0);
    expect(rt.containerStatus(id)).toMatchObject({ exitCode: 137, reason: 'Error' });
  });
});

describe('containerd restarts', () => {
  it('containers survive the containerd process; CRI calls fail meanwhile', () => {
    const { clock, rt, run, processes } = setup();
    const { id } = run('web', { name: 'nginx', image: 'nginx:1.27' });
    clock.advance(1000);
    const pid = rt.containerStatus(id).pid!;
    rt.setProcessRunning(false);
    expect(() => rt.listContainers()).toThrow(
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: connection refused"',
    );
    expect(() => rt.runPodSandbox({ name: 'x', namespace: 'default', uid: 'x' })).toThrow(CriError);
    expect(() => rt.exec(id, ['ls'])).toThrow(/Unavailable/);
    // The process is still there, and HTTP probes (which do not use containerd) still pass.
    expect(processes.get(pid)).toBeDefined();
    expect(rt.probe(id, { httpGet: { path: '/', port: 80 } }).value?.result).toBe('success');
    const exec = rt.probe(id, { exec: { command: ['true'] } }).value!;
    expect(exec).toMatchObject({ result: 'failure', errored: true });
    clock.advance(60_000);
    rt.setProcessRunning(true);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_RUNNING', pid });
    rt.setProcessRunning(false, 'stopped');
    expect(() => rt.version()).toThrow('connect: no such file or directory');
  });

  it('fails pulls in flight when containerd dies', () => {
    const { clock, rt } = setup();
    const p = rt.pullImage('perl');
    clock.advance(1000);
    rt.setProcessRunning(false);
    expect(p.value).toMatchObject({ ok: false });
    expect(!p.value!.ok && p.value!.error.message).toBe('rpc error: code = Unavailable desc = error reading from server: EOF');
  });

  it('after a power loss containers are EXITED 255 (Unknown) and images stay', () => {
    const { clock, rt, run, processes } = setup();
    const { id } = run('web', { name: 'nginx', image: 'nginx:1.27' });
    clock.advance(1000);
    processes.killAll();
    rt.machineStopped();
    // Down for 3 minutes: containerd only learns the task is gone when it starts again, and
    // that is the exit time it records (internal/cri/server/restart.go: FinishedAt = time.Now()).
    clock.advance(180_000);
    rt.setProcessRunning(true);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 255, reason: 'Unknown', finishedAt: clock.now() });
    expect(rt.listPodSandboxes()[0].state).toBe('SANDBOX_NOTREADY');
    expect(rt.imageStatus('nginx:1.27')).toBeDefined();
    // A later restart of containerd alone changes nothing.
    clock.advance(5000);
    rt.setProcessRunning(false);
    rt.setProcessRunning(true);
    expect(rt.containerStatus(id).finishedAt).toBe(clock.now() - 5000);
  });
});

describe('memory limits', () => {
  it('OOM-kills the bookshop after /debug/eat?mb=200 against 128Mi: 137 OOMKilled', () => {
    const kernel: string[] = [];
    const { clock, rt, run } = setup({ kernel });
    const { id } = run('catalog', BOOKSHOP_CATALOG);
    clock.advance(100);
    expect(rt.containerStats(id).memoryBytes).toBe(7 * MiB);
    const small = rt.exec(id, ['curl', '-s', 'localhost:8080/debug/eat?mb=64']).value!;
    expect(small.stdout).toBe('allocated\n');
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    // The curl runs in the container's cgroup: memory.oom.group (set by the kubelet on cgroup v2,
    // kuberuntime_container_linux.go) makes the OOM killer take it too, so it prints nothing and
    // ends by SIGKILL (137), as `kubectl exec` shows it; a client in another pod sees the
    // connection drop instead.
    const r = rt.exec(id, ['curl', '-sS', 'localhost:8080/debug/eat?mb=200']).value!;
    expect(r).toEqual({ stdout: '', stderr: '', exitCode: 137, killedWithContainer: true });
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137, reason: 'OOMKilled' });
    expect(kernel[0]).toMatch(/^Memory cgroup out of memory: Killed process \d+ \(catalog\) total-vm:\d+kB, anon-rss:277504kB/);
  });

  it('OOM-kills polinux/stress allocating 250M against 100Mi (corpus memory-demo-2)', () => {
    const { clock, rt, run } = setup();
    const { id } = run('memory-demo-2', { name: 'memory-demo-2-ctr', image: 'polinux/stress', command: ['stress'], args: ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'], memoryLimitBytes: 100 * MiB });
    clock.advance(50);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    clock.advance(100);
    expect(rt.containerStatus(id)).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
    expect(rt.containerLogs(id)).toEqual(['stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd']);
  });
});

describe('probes', () => {
  it('exec liveness example: /tmp/healthy exists for 30 s, then `cat` fails', () => {
    const { clock, rt, run } = setup();
    const { id } = run('liveness-exec', { name: 'liveness', image: 'registry.k8s.io/busybox:1.27.2', args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'] });
    const probe = { exec: { command: ['cat', '/tmp/healthy'] } };
    clock.advance(5000);
    expect(rt.probe(id, probe).value).toEqual({ result: 'success', output: '' });
    clock.advance(24_999);
    expect(rt.probe(id, probe).value?.result).toBe('success');
    clock.advance(1);
    expect(rt.probe(id, probe).value).toEqual({ result: 'failure', output: "cat: can't open '/tmp/healthy': No such file or directory\n" });
    // The kubelet's liveness kill: sh as PID 1 ignores SIGTERM, so the grace period runs out.
    rt.stopContainer(id, 30_000);
    clock.advance(30_000);
    expect(rt.containerStatus(id).exitCode).toBe(137);
  });

  it('http liveness example (agnhost liveness): 200 for 10 s, then 500', () => {
    const { clock, rt, run } = setup();
    const { id } = run('liveness-http', { name: 'liveness', image: 'registry.k8s.io/e2e-test-images/agnhost:2.40', args: ['liveness'] });
    const probe = { httpGet: { path: '/healthz', port: 8080, httpHeaders: [{ name: 'Custom-Header', value: 'Awesome' }] } };
    clock.advance(3000);
    expect(rt.probe(id, probe).value).toEqual({ result: 'success', output: 'ok' });
    clock.advance(7000);
    expect(rt.probe(id, probe).value?.result).toBe('success');
    clock.advance(1);
    expect(rt.probe(id, probe).value).toEqual({ result: 'failure', output: 'HTTP probe failed with statuscode: 500' });
  });

  it('a container that has just exited is probed like any other: the port refuses, an exec errors', () => {
    // The kubelet probes from its cached status until the PLEG notices the exit
    // (pkg/kubelet/prober/worker.go): what answers is what is there now.
    const { clock, rt, run } = setup();
    const { id } = run('liveness-http', { name: 'liveness', image: 'registry.k8s.io/e2e-test-images/agnhost:2.40', args: ['liveness'] });
    clock.advance(3000);
    const ip = rt.listPodSandboxes()[0].network?.ip;
    expect(ip).toMatch(/^10\.244\.1\.\d+$/);
    expect(rt.signalContainer(id, 'SIGKILL')).toBe(true);
    clock.advance(1);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_EXITED');
    expect(rt.probe(id, { httpGet: { path: '/healthz', port: 8080 } }).value).toEqual({ result: 'failure', output: `Get "http://${ip}:8080/healthz": dial tcp ${ip}:8080: connect: connection refused` });
    expect(rt.probe(id, { tcpSocket: { port: 8080 } }).value).toEqual({ result: 'failure', output: `dial tcp ${ip}:8080: connect: connection refused` });
    expect(rt.probe(id, { exec: { command: ['true'] } }).value).toMatchObject({ result: 'failure', errored: true, output: expect.stringContaining('failed to exec in container: container is in CONTAINER_EXITED state') });
  });

  it('probes of hostNetwork pods reach any hostNetwork listener of the node, as containers come and go', () => {
    const { clock, rt, run } = setup();
    const a = run('proxy-a', { name: 'goproxy', image: 'registry.k8s.io/goproxy:0.1', ports: [{ containerPort: 8080 }] }, { hostNetwork: true });
    const b = run('web-b', { name: 'nginx', image: 'nginx:1.27' }, { hostNetwork: true });
    clock.advance(15_000);
    // b's probe of 8080 is answered by a's listener (one network namespace: the node's).
    expect(rt.probe(b.id, { tcpSocket: { port: 8080 } }).value).toEqual({ result: 'success', output: '' });
    rt.stopPodSandbox(a.sb);
    rt.removePodSandbox(a.sb);
    expect(rt.probe(b.id, { tcpSocket: { port: 8080 } }).value).toEqual({ result: 'failure', output: 'dial tcp 172.18.0.3:8080: connect: connection refused' });
    run('proxy-c', { name: 'goproxy', image: 'registry.k8s.io/goproxy:0.1', ports: [{ containerPort: 8080 }] }, { hostNetwork: true });
    clock.advance(15_000);
    expect(rt.probe(b.id, { tcpSocket: { port: 8080 } }).value).toEqual({ result: 'success', output: '' });
    // The same httpGet object probed again, then with another path: each answer is its own.
    const http = { httpGet: { path: '/', port: 80 } };
    expect(rt.probe(b.id, http).value?.result).toBe('success');
    expect(rt.probe(b.id, http).value?.result).toBe('success');
    http.httpGet.path = '/missing';
    expect(rt.probe(b.id, http).value).toEqual({ result: 'failure', output: 'HTTP probe failed with statuscode: 404' });
  });

  it('tcp probe example (goproxy): the port accepts', () => {
    const { clock, rt, run } = setup();
    const { id } = run('goproxy', { name: 'goproxy', image: 'registry.k8s.io/goproxy:0.1', ports: [{ containerPort: 8080 }] });
    clock.advance(15_000);
    expect(rt.probe(id, { tcpSocket: { port: 8080 } }).value).toEqual({ result: 'success', output: '' });
    expect(rt.probe(id, { tcpSocket: { port: 9999 } }).value).toEqual({ result: 'failure', output: 'dial tcp 10.244.1.2:9999: connect: connection refused' });
  });

  it('bookshop switches: /debug/unready fails readiness, /debug/break fails liveness', () => {
    const { clock, rt, run } = setup();
    const { id } = run('orders', { ...BOOKSHOP_CATALOG, name: 'orders', command: ['/usr/local/bin/orders'] });
    clock.advance(100);
    const ready = { httpGet: { path: '/readyz', port: 'http' } };
    const live = { httpGet: { path: '/healthz', port: 'http' } };
    expect(rt.probe(id, ready).value?.result).toBe('success');
    expect(rt.exec(id, ['curl', '-s', 'localhost:8080/debug/unready']).value?.stdout).toBe('readiness is now failing\n');
    expect(rt.probe(id, ready).value).toEqual({ result: 'failure', output: 'HTTP probe failed with statuscode: 503' });
    expect(rt.probe(id, live).value?.result).toBe('success');
    rt.exec(id, ['curl', '-s', 'localhost:8080/debug/break']);
    expect(rt.probe(id, live).value).toEqual({ result: 'failure', output: 'HTTP probe failed with statuscode: 500' });
    expect(rt.containerLogs(id).slice(1)).toEqual([
      '2026/01/05 06:00:00 orders: readiness flipped to NOT READY',
      '2026/01/05 06:00:00 orders: liveness flipped to BROKEN — the kubelet should restart this container',
    ]);
  });

  it('a hung handler fails the probe at timeoutSeconds (context deadline exceeded)', () => {
    const { clock, rt, run } = setup();
    const { id } = run('catalog', BOOKSHOP_CATALOG);
    clock.advance(100);
    const p = rt.probe(id, { httpGet: { path: '/debug/slow?ms=5000', port: 8080 }, timeoutSeconds: 1 });
    expect(p.settled).toBe(false);
    clock.advance(999);
    expect(p.settled).toBe(false);
    clock.advance(1);
    expect(p.value).toEqual({ result: 'failure', output: 'Get "http://10.244.1.2:8080/debug/slow?ms=5000": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' });
  });

  it('a port nothing listens on: connection refused, as the prober words it', () => {
    const { rt, run } = setup();
    const { id } = run('catalog', BOOKSHOP_CATALOG);
    expect(rt.probe(id, { httpGet: { path: '/healthz', port: 8080 } }).value).toEqual({
      result: 'failure',
      output: 'Get "http://10.244.1.2:8080/healthz": dial tcp 10.244.1.2:8080: connect: connection refused',
    });
  });
});

describe('exec', () => {
  it('answers from the container: hostname, ls, a missing binary', () => {
    const { clock, rt, run } = setup();
    const { id } = run('web', { name: 'nginx', image: 'nginx:1.27' });
    clock.advance(500);
    expect(rt.exec(id, ['cat', '/etc/hostname']).value).toEqual({ stdout: 'web\n', stderr: '', exitCode: 0 });
    expect(rt.exec(id, ['ls', '/usr/share/nginx/html']).value?.stdout).toBe('50x.html\nindex.html\n');
    expect(rt.exec(id, ['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', 'localhost']).value?.stdout).toBe('200');
    const missing = rt.exec(id, ['ps']).value!;
    expect(missing.error?.message).toMatch(/^rpc error: code = Unknown desc = failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "ps": executable file not found in \$PATH: unknown$/);
  });

  it('takes virtual time for sleep and honours the timeout', () => {
    const { clock, rt, run } = setup();
    const { id } = run('web', { ...BOOKSHOP_CATALOG, name: 'web', command: ['/usr/local/bin/web'] });
    const p = rt.exec(id, ['sleep', '5']);
    expect(p.settled).toBe(false);
    clock.advance(5000);
    expect(p.value).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const t = rt.exec(id, ['sleep', '10'], { timeoutMs: 2000 });
    clock.advance(2000);
    expect(t.value?.timedOut).toBe(true);
  });

  it('`kill 1` from inside reaches the main process (ignored by sh as PID 1)', () => {
    const { rt, run } = setup();
    const { id } = run('sh', { name: 'sh', image: 'busybox', command: ['sh', '-c', 'sleep 3600'] });
    rt.exec(id, ['kill', '1']);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    rt.exec(id, ['kill', '-9', '1']);
    expect(rt.containerStatus(id).exitCode).toBe(137);
  });
});

describe('logs, crictl and determinism', () => {
  it('keeps log lines with virtual timestamps, after exit too (--previous)', () => {
    const { clock, rt, run } = setup();
    const { id } = run('ticker', { name: 't', image: 'busybox', command: ['sh', '-c', 'while true; do echo "tick $(date +%S)"; sleep 5; done'] });
    clock.advance(11_000);
    const lines = rt.containerLogs(id, { format: 'timestamps' });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^2026-01-05T06:00:00\.\d{1,9}Z tick 00$/);
    expect(lines[2]).toMatch(/^2026-01-05T06:00:10\.\d{1,9}Z tick 10$/);
    expect(rt.containerLogs(id, { format: 'cri', tailLines: 1 })[0]).toMatch(/^2026-01-05T06:00:10\.\d+Z stdout F tick 10$/);
    rt.stopContainer(id, 0);
    expect(rt.containerLogs(id)).toEqual(['tick 00', 'tick 05', 'tick 10']);
  });

  it('formats crictl ps rows and tables', () => {
    const { clock, rt, run } = setup();
    run('web', { name: 'nginx', image: 'nginx:1.27' });
    clock.advance(90_000);
    const rows = rt.crictlPs();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ created: 'About a minute ago', state: 'Running', name: 'nginx', attempt: '0', pod: 'web', namespace: 'default' });
    expect(rows[0].container).toMatch(/^[0-9a-f]{13}$/);
    const table = crictlTable([
      ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'],
      ...rows.map((r) => [r.container, r.image, r.created, r.state, r.name, r.attempt, r.podId, r.pod, r.namespace]),
    ]);
    const [header, line] = table.split('\n');
    expect(header).toBe('CONTAINER           IMAGE               CREATED              STATE               NAME                ATTEMPT             POD ID              POD                 NAMESPACE');
    expect(line.indexOf('About a minute ago')).toBe(40);
  });

  it('formats durations, sizes and timestamps like crictl and Go', () => {
    expect(humanDurationAgo(500)).toBe('Less than a second ago');
    expect(humanDurationAgo(1000)).toBe('1 second ago');
    expect(humanDurationAgo(59_000)).toBe('59 seconds ago');
    expect(humanDurationAgo(61_000)).toBe('About a minute ago');
    expect(humanDurationAgo(5 * 60_000)).toBe('5 minutes ago');
    expect(humanDurationAgo(3 * 3_600_000)).toBe('3 hours ago');
    expect(humanDurationAgo(3 * 86_400_000)).toBe('3 days ago');
    expect(humanSize(320_368)).toBe('320kB');
    expect(humanSize(72_099_410)).toBe('72.1MB');
    expect(humanSize(354_392_215)).toBe('354MB');
    expect(rfc3339Nano(1767592800123, 456789)).toBe('2026-01-05T06:00:00.123456789Z');
    expect(rfc3339Nano(1767592800000, 0)).toBe('2026-01-05T06:00:00Z');
    expect(rfc3339Nano(1767592800100, 0)).toBe('2026-01-05T06:00:00.1Z');
  });

  it('is deterministic for a seed', () => {
    const once = () => {
      const log: string[] = [];
      const { clock, rt, run } = setup({ seed: 42, log });
      const { id } = run('web', { name: 'nginx', image: 'nginx:1.27' });
      clock.advance(2000);
      rt.probe(id, { httpGet: { path: '/', port: 80 } });
      return [...log, ...rt.containerLogs(id, { format: 'cri' })].join('\n');
    };
    expect(once()).toBe(once());
  });

  it('writes containerd log lines in logrus format', () => {
    const log: string[] = [];
    const { run } = setup({ log });
    run('web', { name: 'nginx', image: 'busybox', command: ['true'] });
    expect(log.some((l) => /^time="2026-01-05T06:00:00\.\d+Z" level=info msg="StartContainer for \\"[0-9a-f]{64}\\" returns successfully"$/.test(l))).toBe(true);
  });
});

describe('the pod network', () => {
  it('two nginx in one pod: the second cannot bind :80 and exits 1', () => {
    const { clock, rt, run } = setup();
    const { id, sb } = run('twin', { name: 'a', image: 'nginx:1.27' });
    const b = rt.createContainer(sb, { name: 'b', image: 'nginx:1.27' });
    rt.startContainer(b);
    clock.advance(1000);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    expect(rt.containerStatus(b)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 1 });
    expect(rt.containerLogs(b).slice(-2)).toEqual([
      '2026/01/05 06:00:00 [emerg] 1#1: bind() to 0.0.0.0:80 failed (98: Address in use)',
      'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address in use)',
    ]);
  });

  it('init container writes index.html into an emptyDir that nginx then serves (corpus init-demo)', () => {
    const { clock, rt, run } = setup();
    const workdir = memoryMount();
    const { id: init, sb } = run('init-demo', { name: 'install', image: 'busybox:1.28', command: ['wget', '-O', '/work-dir/index.html', 'http://info.cern.ch'], mounts: [{ path: '/work-dir', source: workdir }] });
    clock.advance(1000);
    expect(rt.containerStatus(init)).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(rt.containerLogs(init)[0]).toMatch(/^Connecting to info\.cern\.ch \(\d+\.\d+\.\d+\.\d+:80\)$/);
    rt.pullImage('nginx');
    clock.advance(10_000);
    const web = rt.createContainer(sb, { name: 'nginx', image: 'nginx', mounts: [{ path: '/usr/share/nginx/html', source: workdir }] });
    rt.startContainer(web);
    clock.advance(1000);
    expect(rt.http('10.244.1.2', 80, { method: 'GET', path: '/' })).toMatchObject({ status: 200, body: expect.stringContaining('home of the first website') });
  });

  it('catalog with DATABASE_URL is not ready while postgres is unreachable', () => {
    const { clock, rt, run } = setup();
    const { id } = run('catalog', { ...BOOKSHOP_CATALOG, env: { ...(BOOKSHOP_CATALOG.env as Record<string, string>), DATABASE_URL: 'postgres://bookshop:pw@postgres:5432/bookshop?sslmode=disable' } });
    clock.advance(100);
    expect(rt.probe(id, { httpGet: { path: '/readyz', port: 8080 } }).value?.result).toBe('failure');
    expect(rt.containerLogs(id)[1]).toBe('2026/01/05 06:00:00 catalog: database not reachable: dial tcp: lookup postgres on 10.96.0.10:53: no such host');
    expect(rt.exec(id, ['curl', '-s', 'localhost:8080/books']).value?.stdout).toBe('dial tcp: lookup postgres on 10.96.0.10:53: no such host\n');
  });
});
