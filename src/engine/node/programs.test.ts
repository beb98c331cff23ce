/**
 * Program models: what runs for an image and command, the extension point for the control
 * plane, and the behaviour of the bookshop, postgres, perl's pi and friends.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../clock';
import { ProcessTable, type Program } from './process';
import { ProgramRegistry, bpi, logTime, piDigits, resolveArgv } from './programs';
import { knownImage } from './registry';
import { Containerd, type ClusterNetwork, type ContainerConfig } from './runtime';
import { memoryMount } from './shell';

const MiB = 1024 * 1024;

function setup(opts: { programs?: ProgramRegistry; network?: ClusterNetwork } = {}) {
  const clock = new Clock();
  const processes = new ProcessTable(clock);
  processes.spawn({ command: '/sbin/init', ppid: 0, program: { start: () => {} } });
  const rt = new Containerd({
    nodeName: 'k8s-lab-worker',
    clock,
    rng: new Rng(3),
    processes,
    podCIDR: '10.244.2.0/24',
    nodeIP: '172.18.0.4',
    ...(opts.programs ? { programs: opts.programs } : {}),
    ...(opts.network ? { network: opts.network } : {}),
  });
  const run = (pod: string, cfg: ContainerConfig, sandbox: { namespace?: string; hostNetwork?: boolean } = {}) => {
    if (!rt.imageStatus(cfg.image)) rt.loadImage(cfg.image);
    const sb = rt.runPodSandbox({ name: pod, namespace: sandbox.namespace ?? 'bookshop', uid: `${pod}-uid`, ...(sandbox.hostNetwork ? { hostNetwork: true } : {}) });
    const id = rt.createContainer(sb, cfg);
    rt.startContainer(id);
    return { id, sb, ip: rt.podSandboxStatus(sb).network.ip };
  };
  return { clock, rt, run, processes };
}

describe('resolveArgv (command replaces ENTRYPOINT and CMD, args replaces CMD)', () => {
  const nginx = knownImage('nginx:1.27')!.config;
  it.each([
    [undefined, undefined, ['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;']],
    [undefined, ['nginx-debug'], ['/docker-entrypoint.sh', 'nginx-debug']],
    [['sh', '-c', 'sleep 1'], undefined, ['sh', '-c', 'sleep 1']],
    [['sleep'], ['5'], ['sleep', '5']],
  ])('command %j args %j', (command, args, argv) => {
    expect(resolveArgv(nginx, command, args)).toEqual(argv);
  });
});

describe('perl -Mbignum=bpi', () => {
  it('computes pi and rounds like Math::BigFloat::bpi', () => {
    expect(piDigits(50).slice(0, 30)).toBe('314159265358979323846264338327');
    expect(bpi(5)).toBe('3.1416');
    expect(bpi(10)).toBe('3.141592654');
    expect(bpi(1000)).toHaveLength(1001);
    // All but the (rounded) last digit are pi's digits.
    expect(bpi(2000).replace('.', '').slice(0, 1999)).toBe(piDigits(2000).slice(0, 1999));
  });

  it('runs the pi Job: prints 1000 digits after ~5 s and exits 0', () => {
    const { clock, rt, run } = setup();
    const { id } = run('pi-abcde', { name: 'pi', image: 'perl', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(1000)'] });
    clock.advance(4999);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    clock.advance(1);
    expect(rt.containerStatus(id)).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' });
    expect(rt.containerLogs(id)).toEqual([bpi(1000)]);
  });

  it('perl as PID 1 ignores SIGTERM (no handler): 137 after the grace period', () => {
    const { clock, rt, run } = setup();
    const { id } = run('pi', { name: 'pi', image: 'perl', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] });
    rt.stopContainer(id, 2000);
    clock.advance(2000);
    expect(rt.containerStatus(id).exitCode).toBe(137);
  });
});

describe('ProgramRegistry', () => {
  it('checks registered factories before the built-in models', () => {
    const programs = new ProgramRegistry();
    const started: string[] = [];
    programs.registerProgramFactory(
      (image, command) => image.startsWith('registry.k8s.io/kube-apiserver:') && command?.[0] === 'kube-apiserver',
      (spec) => ({ start: (ctx) => { started.push(spec.pod.name); ctx.log('I0105 06:00:00.000000       1 options.go:228] external host was not specified, using 172.18.0.2'); } }) as Program,
      'kube-apiserver',
    );
    const { rt, run } = setup({ programs });
    rt.preloadImages(['registry.k8s.io/kube-apiserver:v1.36.1']);
    const { id } = run('kube-apiserver-k8s-lab-control-plane', { name: 'kube-apiserver', image: 'registry.k8s.io/kube-apiserver:v1.36.1', command: ['kube-apiserver', '--etcd-servers=https://127.0.0.1:2379'], ports: [{ containerPort: 6443 }] }, { namespace: 'kube-system', hostNetwork: true });
    expect(started).toEqual(['kube-apiserver-k8s-lab-control-plane']);
    expect(rt.containerStatus(id).model).toBe('kube-apiserver');
    expect(rt.containerLogs(id)).toHaveLength(1);
    // Defaults for what the factory's program does not implement: declared ports listen, HTTP 200.
    expect(rt.probe(id, { httpGet: { path: '/livez', port: 6443, scheme: 'HTTPS' } }).value?.result).toBe('success');
    // exec falls back to the image's userland: distroless has no shell.
    expect(rt.exec(id, ['sh', '-c', 'ls']).value?.error?.message).toContain('exec: "sh": executable file not found in $PATH');
  });

  it('names the model for each corpus container', () => {
    const reg = new ProgramRegistry();
    const name = (image: string, command?: string[], args?: string[]) =>
      reg.describe({
        id: 'x', name: 'c', image: knownImage(image)!, imageRef: image, ...(command ? { command } : {}), ...(args ? { args } : {}),
        argv: resolveArgv(knownImage(image)!.config, command, args), env: {}, ports: [], mounts: [], attempt: 0,
        pod: { name: 'p', namespace: 'default', uid: 'u', nodeName: 'n', podIP: '10.244.1.2', hostIP: '172.18.0.3', hostname: 'p' },
      });
    expect(name('nginx:1.14.2')).toBe('nginx');
    expect(name('redis:7.2')).toBe('redis');
    expect(name('postgres:17-alpine')).toBe('postgres');
    expect(name('bookshop:v1', ['/usr/local/bin/catalog'])).toBe('bookshop-catalog');
    expect(name('bookshop:v2', ['/usr/local/bin/web'])).toBe('bookshop-web');
    expect(name('registry.k8s.io/e2e-test-images/agnhost:2.40', undefined, ['liveness'])).toBe('agnhost-liveness');
    expect(name('registry.k8s.io/coredns/coredns:v1.12.0', undefined, ['-conf', '/etc/coredns/Corefile'])).toBe('coredns');
    expect(name('registry.k8s.io/kube-proxy:v1.36.1', ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf'])).toBe('kube-proxy');
    expect(name('docker.io/kindest/kindnetd:v20250512-df8de77b')).toBe('kindnetd');
    expect(name('docker.io/kindest/local-path-provisioner:v20250214-acbabc1a', ['local-path-provisioner', '--debug', 'start'])).toBe('local-path-provisioner');
    expect(name('perl', ['perl', '-Mbignum=bpi', '-wle', 'print bpi(1000)'])).toBe('perl-bpi');
    expect(name('busybox', ['sh', '-c', 'sleep 3600'])).toBe('busybox-sh');
    expect(name('docker.io/library/bash:5', ['bash'], ['-c', 'echo "Hello world!" && sleep 5 && exit 42'])).toBe('bash-bash');
    expect(name('registry.k8s.io/ingress-nginx/controller:v1.15.1', undefined, ['/nginx-ingress-controller', '--election-id=ingress-nginx-leader'])).toBe('ingress-nginx-controller');
    expect(name('quay.io/prometheus-operator/prometheus-operator:v0.93.0', undefined, ['--kubelet-service=kube-system/kubelet'])).toBe('prometheus-operator-server');
    expect(name('registry.k8s.io/etcd:3.6.6-0', ['etcd', '--data-dir=/var/lib/etcd'])).toBe('etcd-server');
    expect(name('gcr.io/google-samples/gb-frontend:v5')).toBe('guestbook-frontend');
  });
});

describe('models', () => {
  it('the Job pod-failure-policy example: bash prints, sleeps 5 s, exits 42', () => {
    const { clock, rt, run } = setup();
    const { id } = run('job-pod-failure-policy-example-x', { name: 'main', image: 'docker.io/library/bash:5', command: ['bash'], args: ['-c', 'echo "Hello world!" && sleep 5 && exit 42'] });
    clock.advance(5000);
    expect(rt.containerStatus(id)).toMatchObject({ exitCode: 42, reason: 'Error' });
    expect(rt.containerLogs(id)).toEqual(['Hello world!']);
  });

  it('postgres: initdb on an empty volume, skips it on restart, recovers after a kill', () => {
    const { clock, rt, run } = setup();
    const data = memoryMount();
    const schema = memoryMount({ 'schema.sql': "CREATE TABLE books (isbn TEXT PRIMARY KEY);\nINSERT INTO books (isbn) VALUES\n  ('1'),\n  ('2'),\n  ('3'),\n  ('4');\n" });
    const cfg: ContainerConfig = {
      name: 'postgres',
      image: 'postgres:17-alpine',
      env: { POSTGRES_DB: 'bookshop', POSTGRES_USER: 'bookshop', POSTGRES_PASSWORD: 's3cret', PGDATA: '/var/lib/postgresql/data/pgdata' },
      ports: [{ name: 'pg', containerPort: 5432 }],
      mounts: [{ path: '/var/lib/postgresql/data', source: data }, { path: '/docker-entrypoint-initdb.d', source: schema, readOnly: true }],
      memoryLimitBytes: 512 * MiB,
    };
    const { id, sb } = run('postgres-1', cfg);
    const probe = { exec: { command: ['pg_isready', '-U', 'bookshop', '-d', 'bookshop'] } };
    clock.advance(1000);
    expect(rt.probe(id, probe).value?.result).toBe('failure');
    clock.advance(3000);
    expect(rt.probe(id, probe).value).toEqual({ result: 'success', output: '/var/run/postgresql:5432 - accepting connections\n' });
    const logs = rt.containerLogs(id);
    expect(logs).toContain('/usr/local/bin/docker-entrypoint.sh: running /docker-entrypoint-initdb.d/schema.sql');
    expect(logs).toContain('INSERT 0 4');
    expect(logs[logs.length - 1]).toMatch(/^2026-01-05 06:00:0\d\.\d{3} UTC \[1\] LOG: {2}database system is ready to accept connections$/);
    expect(data.files.get('pgdata/PG_VERSION')).toBe('17\n');
    // Killed (no clean shutdown): the next start skips initdb and recovers.
    rt.stopContainer(id, 0);
    rt.removeContainer(id);
    const id2 = rt.createContainer(sb, { ...cfg, attempt: 1 });
    rt.startContainer(id2);
    clock.advance(2000);
    const logs2 = rt.containerLogs(id2);
    expect(logs2).toContain('PostgreSQL Database directory appears to contain a database; Skipping initialization');
    expect(logs2.some((l) => l.includes('database system was not properly shut down; automatic recovery in progress'))).toBe(true);
    // A clean stop (STOPSIGNAL SIGINT: fast shutdown) removes postmaster.pid and exits 0.
    rt.stopContainer(id2, 30_000);
    clock.advance(1000);
    expect(rt.containerStatus(id2)).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(data.files.has('pgdata/postmaster.pid')).toBe(false);
    expect(rt.containerLogs(id2).slice(-1)[0]).toMatch(/LOG: {2}database system is shut down$/);
  });

  it('postgres without POSTGRES_PASSWORD on an empty volume exits 1 with the entrypoint error', () => {
    const { rt, run } = setup();
    const { id } = run('pg', { name: 'postgres', image: 'postgres:17-alpine' });
    expect(rt.containerStatus(id)).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(rt.containerLogs(id)[0]).toBe('Error: Database is uninitialized and superuser password is not specified.');
  });

  it('the bookshop over Services: web renders catalog books, orders validates ISBNs through catalog', () => {
    // A minimal cluster network: Service names -> pod IPs on this node, port 80 -> 8080.
    const services = new Map<string, string>();
    const ref: { rt?: Containerd } = {};
    const network: ClusterNetwork = {
      resolve: (_from, name) => {
        const short = name.split('.')[0];
        return services.has(short) ? `10.96.0.${100 + [...services.keys()].indexOf(short)}` : null;
      },
      http: (_from, ip, port, req) => {
        const svc = [...services.entries()].find((_e, i) => ip === `10.96.0.${100 + i}`);
        if (!svc) return undefined;
        return ref.rt!.http(svc[1], port === 80 ? 8080 : port, req);
      },
    };
    const env = (pod: string) => ({ POD_NAME: pod, NODE_NAME: 'k8s-lab-worker', CATALOG_URL: 'http://catalog', ORDERS_URL: 'http://orders' });
    const s = setup({ network });
    ref.rt = s.rt;
    const catalog = s.run('catalog-58544d89f4-4h2kb', { name: 'catalog', image: 'bookshop:v1', command: ['/usr/local/bin/catalog'], env: env('catalog-58544d89f4-4h2kb'), ports: [{ name: 'http', containerPort: 8080 }] });
    const orders = s.run('orders-6f7d9c8b5-x2x9k', { name: 'orders', image: 'bookshop:v1', command: ['/usr/local/bin/orders'], env: env('orders-6f7d9c8b5-x2x9k') });
    services.set('catalog', catalog.ip);
    services.set('orders', orders.ip);
    const banner = memoryMount({ 'banner.txt': 'Free shipping on orders over 30', GREETING: 'The Bookshop' });
    const web = s.run('web-7c9f8d6b4-abcde', {
      name: 'web',
      image: 'bookshop:v2',
      command: ['/usr/local/bin/web'],
      env: { ...env('web-7c9f8d6b4-abcde'), GREETING: 'The Bookshop', CURRENCY: '$', API_KEY: 'sk-12345678' },
      mounts: [{ path: '/etc/bookshop', source: banner, readOnly: true }],
    });
    s.clock.advance(100);
    const post = s.rt.exec(orders.id, ['curl', '-s', '-X', 'POST', '-d', '{"isbn":"978-0132350884","qty":2}', 'localhost:8080/orders']).value!;
    expect(JSON.parse(post.stdout)).toMatchObject({ id: 1, isbn: '978-0132350884', title: 'Clean Code', qty: 2 });
    expect(s.rt.containerLogs(orders.id)[1]).toBe('2026/01/05 06:00:00 orders: accepted order for "Clean Code" x2');
    const bad = s.rt.exec(orders.id, ['curl', '-s', '-X', 'POST', '-d', '{"isbn":"nope"}', 'localhost:8080/orders']).value!;
    expect(bad.stdout).toBe('unknown isbn\n');
    const page = s.rt.http(web.ip, 8080, { method: 'GET', path: '/' });
    if (!('status' in page)) throw new Error('no page');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>The Bookshop</h1>');
    expect(page.body).toContain('web v2 · pod web-7c9f8d6b4-abcde · node k8s-lab-worker · banner: Free shipping on orders over 30');
    expect(page.body).toContain('<li><strong>Clean Code</strong> — Robert C. Martin · $39.99</li>');
    expect(page.body).toContain('catalog v1 served by catalog-58544d89f4-4h2kb (source: seed)');
    expect(page.body).toContain('1 order(s) placed · api key: *******5678');
    // Editing the mounted ConfigMap changes the page without a restart.
    banner.write!('banner.txt', 'Sale!');
    const page2 = s.rt.http(web.ip, 8080, { method: 'GET', path: '/' });
    expect('status' in page2 && page2.body).toContain('banner: Sale!');
    // catalog gone: the storefront says so.
    s.rt.stopContainer(catalog.id, 0);
    const page3 = s.rt.http(web.ip, 8080, { method: 'GET', path: '/' });
    expect('status' in page3 && page3.body).toContain(`catalog is unreachable: Get &#34;http://catalog/books&#34;: dial tcp ${catalog.ip}:8080: connect: connection refused`);
  });

  it('/debug/poison makes catalog fail /books while /readyz still passes; /debug/fail interleaves', () => {
    const { clock, rt, run } = setup();
    const { id } = run('catalog', { name: 'catalog', image: 'bookshop:v1', command: ['/usr/local/bin/catalog'] });
    clock.advance(50);
    const get = (p: string) => rt.exec(id, ['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', `localhost:8080${p}`]).value!.stdout;
    expect(get('/books')).toBe('200');
    expect(get('/debug/poison')).toBe('200');
    expect(get('/books')).toBe('500');
    expect(get('/readyz')).toBe('200');
    const codes = Array.from({ length: 10 }, () => get('/debug/fail?pct=50'));
    // bookshop.go: request n fails when (n*61)%100 < pct: 6 of the first 10 at 50%.
    expect(codes.filter((c) => c === '500')).toHaveLength(6);
    expect(codes.slice(0, 4)).toEqual(['200', '500', '200', '500']);
  });

  it('coredns serves /health and /ready, and takes 5 s of lameduck to stop', () => {
    const { clock, rt, run } = setup();
    rt.preloadImages(['registry.k8s.io/coredns/coredns:v1.12.0']);
    const { id } = run('coredns-589f44dc88-8d99k', { name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.12.0', args: ['-conf', '/etc/coredns/Corefile'] }, { namespace: 'kube-system' });
    clock.advance(1000);
    expect(rt.probe(id, { httpGet: { path: '/health', port: 8080 } }).value).toEqual({ result: 'success', output: 'OK' });
    expect(rt.probe(id, { httpGet: { path: '/ready', port: 8181 } }).value?.result).toBe('success');
    expect(rt.containerLogs(id)).toEqual(['.:53', expect.stringMatching(/^\[INFO\] plugin\/reload: Running configuration SHA512 = /), 'CoreDNS-v1.12.0', 'linux/amd64, go1.23.3, 51e11f1']);
    rt.stopContainer(id, 30_000);
    clock.advance(4999);
    expect(rt.containerStatus(id).state).toBe('CONTAINER_RUNNING');
    clock.advance(1);
    expect(rt.containerStatus(id).exitCode).toBe(0);
  });

  it('a generic server for an unknown application listens on its declared ports', () => {
    const { clock, rt, run } = setup();
    rt.preloadImages(['quay.io/brancz/prometheus-example-app:v0.5.0', 'gcr.io/kuar-demo/kuard-amd64:1']);
    const { id } = run('kuard', { name: 'kuard', image: 'gcr.io/kuar-demo/kuard-amd64:1', ports: [{ containerPort: 8080 }] });
    clock.advance(100);
    expect(rt.probe(id, { httpGet: { path: '/healthy', port: 8080 } }).value?.result).toBe('success');
    expect(rt.containerLogs(id)[0]).toBe('2026/01/05 06:00:00 Starting kuard version: v0.10.0-blue');
    const { id: ex } = run('example-app', { name: 'example-app', image: 'quay.io/brancz/prometheus-example-app:v0.5.0', ports: [{ name: 'web', containerPort: 8080 }] });
    clock.advance(100);
    expect(rt.probe(ex, { httpGet: { path: '/metrics', port: 'web' } }).value?.output).toContain('version{version="v0.5.0"} 1');
  });

  it('formats log timestamps as the real programs do', () => {
    const t = 1767592801123;
    expect(logTime('go', t)).toBe('2026/01/05 06:00:01');
    expect(logTime('access', t)).toBe('05/Jan/2026:06:00:01 +0000');
    expect(logTime('pg', t)).toBe('2026-01-05 06:00:01.123 UTC');
    expect(logTime('redis', t)).toBe('05 Jan 2026 06:00:01.123');
    expect(logTime('klog', t, 456)).toBe('0105 06:00:01.123456');
    expect(logTime('httpd', t, 456)).toBe('Mon Jan 05 06:00:01.123456 2026');
    // The second's date and time are kept between calls: the next second, another day, back again.
    expect(logTime('pg', t + 877)).toBe('2026-01-05 06:00:02.000 UTC');
    expect(logTime('rfc3339', t + 86_400_000)).toBe('2026-01-06T06:00:01Z');
    expect(logTime('pg', t - 124)).toBe('2026-01-05 06:00:00.999 UTC');
    expect(logTime('klog', t, 456)).toBe('0105 06:00:01.123456');
  });
});
