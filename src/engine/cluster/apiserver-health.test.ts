/**
 * kube-apiserver's /healthz, /livez and /readyz on the booted kind cluster, through the
 * playground shell: `kubectl get --raw` (kubectl's rendering of a 500) and `curl -k` on the
 * control-plane node (the raw body), healthy and with etcd stopped the way a user stops it
 * (its static pod manifest moved out of /etc/kubernetes/manifests).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../cluster';
import { createPlaygroundShell } from '../../shell/playground';
import { MemoryFiles } from '../../shell/files';
import { runToCompletion, type Shell } from '../../shell/shell';
import { apiserverHealthAnswer, apiserverHealthChecks } from './apiserver-health';

const HOOKS = [
  'poststarthook/start-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/priority-and-fairness-filter',
  'poststarthook/storage-object-count-tracker-hook',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/start-system-namespaces-controller',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/start-kube-apiserver-identity-lease-controller',
  'poststarthook/start-kube-apiserver-identity-lease-garbage-collector',
  'poststarthook/start-legacy-token-tracking-controller',
  'poststarthook/start-service-ip-repair-controllers',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/bootstrap-controller',
  'poststarthook/start-kubernetes-service-cidr-controller',
  'poststarthook/aggregator-reload-proxy-client-cert',
  'poststarthook/start-kube-aggregator-informers',
  'poststarthook/apiservice-status-local-available-controller',
  'poststarthook/apiservice-status-remote-available-controller',
  'poststarthook/apiservice-registration-controller',
  'poststarthook/apiservice-discovery-controller',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
  'poststarthook/apiservice-openapiv3-controller',
];
const lines = (names: string[], failing: string[] = []) => names.map((n) => (failing.includes(n) ? `[-]${n} failed: reason withheld\n` : `[+]${n} ok\n`)).join('');
const READYZ = ['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', ...HOOKS, 'shutdown'];
const LIVEZ = ['ping', 'log', 'etcd', ...HOOKS];
/** Go's %q of an ASCII text with newlines and quotes. */
const q = (s: string) => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
const internalError = (body: string) => `Error from server (InternalError): an error on the server (${q(body.trim())}) has prevented the request from succeeding\n`;

let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);
const kubectl = (line: string) => {
  const r = run(line);
  return { text: r.text, exitCode: r.exitCode };
};

beforeAll(() => {
  cluster = bootedCluster({ seed: 17 });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('kube-apiserver health endpoints (1.35, kubeadm flags)', () => {
  it('the check lists, in order', () => {
    expect(apiserverHealthChecks('readyz')).toEqual(READYZ);
    expect(apiserverHealthChecks('livez')).toEqual(LIVEZ);
    expect(apiserverHealthChecks('healthz')).toEqual(LIVEZ);
  });

  it('healthy: `ok` without a newline; ?verbose lists every check; ?exclude=; one check at /readyz/<name>', () => {
    expect(kubectl('kubectl get --raw /readyz')).toEqual({ text: 'ok', exitCode: 0 });
    expect(kubectl("kubectl get --raw '/readyz?verbose'")).toEqual({ text: lines(READYZ) + 'readyz check passed\n', exitCode: 0 });
    expect(kubectl("kubectl get --raw '/livez?verbose'")).toEqual({ text: lines(LIVEZ) + 'livez check passed\n', exitCode: 0 });
    expect(kubectl("kubectl get --raw '/healthz?verbose'")).toEqual({ text: lines(LIVEZ) + 'healthz check passed\n', exitCode: 0 });
    expect(kubectl("kubectl get --raw '/livez?verbose&exclude=etcd&exclude=nope&exclude=also'")).toEqual({
      text: lines(LIVEZ).replace('[+]etcd ok\n', '[+]etcd excluded: ok\n') + 'warn: some health checks cannot be excluded: no matches for "also","nope"\nlivez check passed\n',
      exitCode: 0,
    });
    // Excluding without ?verbose: still just `ok`.
    expect(kubectl("kubectl get --raw '/readyz?exclude=etcd'")).toEqual({ text: 'ok', exitCode: 0 });
    expect(kubectl('kubectl get --raw /readyz/etcd')).toEqual({ text: 'ok', exitCode: 0 });
    expect(kubectl('kubectl get --raw /readyz/poststarthook/rbac/bootstrap-roles')).toEqual({ text: 'ok', exitCode: 0 });
    expect(kubectl('kubectl get --raw /livez/etcd-readiness')).toEqual({ text: 'Error from server (NotFound): the server could not find the requested resource\n', exitCode: 1 });
    expect(run("docker exec k8s-lab-control-plane curl -sk 'https://127.0.0.1:6443/readyz?verbose'")).toMatchObject({ text: lines(READYZ) + 'readyz check passed\n', exitCode: 0 });
  });

  it('etcd stopped: every endpoint fails with the full list (500); kubectl quotes the body; curl on the node gets it raw', () => {
    expect(run('docker exec k8s-lab-control-plane mv /etc/kubernetes/manifests/etcd.yaml /root/etcd.yaml').exitCode).toBe(0);
    cluster.run(5000);
    expect(cluster.api.getAvailability()).toBe('etcd-unreachable');
    const readyz = lines(READYZ, ['etcd', 'etcd-readiness']) + 'readyz check failed\n';
    const livez = lines(LIVEZ, ['etcd']) + 'livez check failed\n';
    const healthz = lines(LIVEZ, ['etcd']) + 'healthz check failed\n';
    for (const path of ['/readyz', "'/readyz?verbose'"]) expect(kubectl(`kubectl get --raw ${path}`)).toEqual({ text: internalError(readyz), exitCode: 1 });
    expect(kubectl('kubectl get --raw /livez')).toEqual({ text: internalError(livez), exitCode: 1 });
    expect(kubectl('kubectl get --raw /healthz')).toEqual({ text: internalError(healthz), exitCode: 1 });
    expect(kubectl('kubectl get --raw /readyz').text.startsWith('Error from server (InternalError): an error on the server ("[+]ping ok\\n[+]log ok\\n[-]etcd failed: reason withheld\\n[-]etcd-readiness failed: reason withheld\\n')).toBe(true);
    expect(kubectl('kubectl get --raw /readyz').text.endsWith('[+]shutdown ok\\nreadyz check failed") has prevented the request from succeeding\n')).toBe(true);
    // Excluding the failing checks makes it pass.
    expect(kubectl("kubectl get --raw '/readyz?exclude=etcd&exclude=etcd-readiness'")).toEqual({ text: 'ok', exitCode: 0 });
    expect(kubectl('kubectl get --raw /readyz/etcd')).toEqual({
      text: 'Error from server (InternalError): an error on the server ("internal server error: error getting data from etcd: context deadline exceeded") has prevented the request from succeeding\n',
      exitCode: 1,
    });
    expect(kubectl('kubectl get --raw /readyz/ping')).toEqual({ text: 'ok', exitCode: 0 });
    expect(run("docker exec k8s-lab-control-plane curl -sk 'https://127.0.0.1:6443/readyz?verbose'")).toMatchObject({ text: readyz, exitCode: 0 });
    expect(run('docker exec k8s-lab-control-plane curl -sk -o /dev/null -w "%{http_code}\\n" https://127.0.0.1:6443/livez')).toMatchObject({ text: '500\n', exitCode: 0 });
    // In a shell on the node: the raw body (curl exits 0 on a 500 without -f); one check is
    // system:monitoring's, not the anonymous user's.
    expect(run('docker exec -it k8s-lab-control-plane bash').exitCode).toBe(0);
    expect(run('curl -k https://127.0.0.1:6443/readyz?verbose')).toMatchObject({ text: readyz, exitCode: 0 });
    expect(run('curl -k https://localhost:6443/livez')).toMatchObject({ text: livez, exitCode: 0 });
    expect(run('curl -sk https://127.0.0.1:6443/readyz/etcd').text).toContain('"message": "forbidden: User \\"system:anonymous\\" cannot get path \\"/readyz/etcd\\""');
    expect(run('curl -sfk https://127.0.0.1:6443/readyz')).toMatchObject({ text: '', exitCode: 22 });
    run('exit');
    // The kube-apiserver program answers the kubelet's probes the same way (the liveness probe's /livez).
    expect(apiserverHealthAnswer('/livez', { etcdOk: false })).toEqual({ status: 500, body: livez, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } });
    expect(run('docker exec k8s-lab-control-plane mv /root/etcd.yaml /etc/kubernetes/manifests/etcd.yaml').exitCode).toBe(0);
    expect(cluster.runUntil(() => cluster.api.getAvailability() === 'up', { timeoutMs: 5 * 60_000 })).toBe(true);
    expect(kubectl('kubectl get --raw /readyz')).toEqual({ text: 'ok', exitCode: 0 });
  });

  it('the handler alone: shutdown (readyz only), any value of verbose, URL-encoded exclude, unknown paths', () => {
    const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };
    expect(apiserverHealthAnswer('/readyz/shutdown', { etcdOk: true, shuttingDown: true })).toEqual({ status: 500, body: 'internal server error: process is shutting down\n', headers: text });
    expect(apiserverHealthAnswer('/livez', { etcdOk: true, shuttingDown: true })).toEqual({ status: 200, body: 'ok', headers: text });
    expect(apiserverHealthAnswer('/readyz', { etcdOk: true, shuttingDown: true })).toEqual({ status: 500, body: lines(READYZ, ['shutdown']) + 'readyz check failed\n', headers: text });
    expect(apiserverHealthAnswer('/healthz?verbose=false', { etcdOk: true })).toEqual({ status: 200, body: lines(LIVEZ) + 'healthz check passed\n', headers: text });
    expect(apiserverHealthAnswer('/healthz?verbose&exclude=poststarthook%2Frbac%2Fbootstrap-roles', { etcdOk: true })).toMatchObject({ body: expect.stringContaining('[+]poststarthook/rbac/bootstrap-roles excluded: ok\n') });
    expect(apiserverHealthAnswer('/readyz/', { etcdOk: true })).toBeUndefined();
    expect(apiserverHealthAnswer('/readyz/nope', { etcdOk: true })).toBeUndefined();
    expect(apiserverHealthAnswer('/version', { etcdOk: true })).toBeUndefined();
  });
});
