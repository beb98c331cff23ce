/**
 * curl on the laptop reaches only what Docker publishes for the kind cluster: the bookshop's
 * NodePort through kind's extraPortMappings (kube-proxy picks a ready endpoint), and the API
 * server's random host port (TLS with kind's own CA; anonymous users may read /healthz and
 * /version), and the nodes' IPs on the kind network. Everything else is refused or times out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../engine/cluster';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';
import { apiServerHostPort } from './cluster-access';

let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  cluster = bootedCluster({ seed: 17 });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('curl on the laptop', () => {
  it('localhost:30080 is the bookshop web Service (NodePort via extraPortMappings)', () => {
    const r = run('curl -s localhost:30080/healthz');
    expect(r).toMatchObject({ text: 'ok\n', exitCode: 0 });
    expect(run('curl -i localhost:30080/healthz').text).toBe('HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nok\n');
    expect(run('curl -s -o /dev/null -w "%{http_code}\\n" localhost:30080/healthz').text).toBe('200\n');
  });

  it("a node's IP on the kind network is reachable (Linux host): its NodePorts, the control plane's 6443; pod and Service IPs time out", () => {
    const worker = cluster.nodes.find((n) => n.name === 'k8s-lab-worker2')!;
    const cp = cluster.nodes.find((n) => n.role === 'control-plane')!;
    expect(run(`curl -s http://${worker.nodeIP}:30080/healthz`)).toMatchObject({ text: 'ok\n', exitCode: 0 });
    expect(run(`curl -sk https://${cp.nodeIP}:6443/version`).text).toContain('"gitVersion": "v1.35.0"');
    expect(run(`curl http://${worker.nodeIP}:8080`)).toMatchObject({ text: `curl: (7) Failed to connect to ${worker.nodeIP} port 8080 after 0 ms: Couldn't connect to server\n`, exitCode: 7 });
    expect(run('curl -s http://10.96.0.10:53')).toMatchObject({ exitCode: 28 });
  });

  it('an unpublished port is refused (curl 8 wording, exit 7; -s hides it, -sS shows it)', () => {
    const refused = "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server\n";
    expect(run('curl localhost:8080')).toMatchObject({ text: refused, exitCode: 7 });
    expect(run('curl -s localhost:8080')).toMatchObject({ text: '', exitCode: 7 });
    expect(run('curl -sS localhost:8080')).toMatchObject({ text: refused, exitCode: 7 });
    expect(run('curl -s example.com')).toMatchObject({ text: '', exitCode: 6 });
  });

  it("the API server's port: kind's CA is unknown to curl; with -k /version and /healthz are public, the rest 403", () => {
    const port = apiServerHostPort(cluster);
    const tls = run(`curl https://127.0.0.1:${port}/version`);
    expect(tls.exitCode).toBe(60);
    expect(tls.text.split('\n')[0]).toBe('curl: (60) SSL certificate problem: unable to get local issuer certificate');
    expect(run(`curl -k https://127.0.0.1:${port}/healthz`)).toMatchObject({ text: 'ok', exitCode: 0 });
    expect(JSON.parse(run(`curl -sk https://127.0.0.1:${port}/version`).text)).toEqual({
      major: '1',
      minor: '35',
      emulationMajor: '1',
      emulationMinor: '35',
      minCompatibilityMajor: '1',
      minCompatibilityMinor: '34',
      gitVersion: 'v1.35.0',
      gitCommit: expect.any(String),
      gitTreeState: 'clean',
      buildDate: expect.any(String),
      goVersion: expect.any(String),
      compiler: 'gc',
      platform: 'linux/amd64',
    });
    expect(run(`curl -k https://127.0.0.1:${port}/api/v1/pods`).text).toBe(
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "forbidden: User \\"system:anonymous\\" cannot get path \\"/api/v1/pods\\"",\n  "reason": "Forbidden",\n  "details": {},\n  "code": 403\n}\n',
    );
  });

  it('no ready endpoint behind the NodePort: refused (the REJECT rule)', () => {
    run('kubectl scale deploy web -n bookshop --replicas=0');
    run('sleep 10');
    expect(run('curl localhost:30080/')).toMatchObject({ text: "curl: (7) Failed to connect to localhost port 30080 after 0 ms: Couldn't connect to server\n", exitCode: 7 });
  });
});

describe('curl inside a node', () => {
  it("the kubelet's healthz while it runs, kube-apiserver on the control plane, no cluster DNS", () => {
    expect(run('docker exec k8s-lab-worker curl -s localhost:10248/healthz')).toMatchObject({ text: 'ok', exitCode: 0 });
    expect(run('docker exec k8s-lab-worker curl -sk https://k8s-lab-control-plane:6443/livez')).toMatchObject({ text: 'ok', exitCode: 0 });
    expect(run('docker exec k8s-lab-control-plane curl https://localhost:6443/healthz').exitCode).toBe(60);
    // the node's resolver is Docker's: Service names are not known there
    expect(run('docker exec k8s-lab-worker curl catalog.bookshop')).toMatchObject({ text: 'curl: (6) Could not resolve host: catalog.bookshop\n', exitCode: 6 });
    expect(run('docker exec k8s-lab-worker which curl').text).toBe('/usr/bin/curl\n');
    run('docker exec k8s-lab-worker systemctl stop kubelet');
    expect(run('docker exec k8s-lab-worker curl localhost:10248/healthz')).toMatchObject({
      text: "curl: (7) Failed to connect to localhost port 10248 after 0 ms: Couldn't connect to server\n",
      exitCode: 7,
    });
    run('docker exec k8s-lab-worker systemctl start kubelet');
  });
});
