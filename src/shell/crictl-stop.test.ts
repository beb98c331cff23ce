import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../engine/cluster';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';

// crictl stop / rm as cri-tools prints them (cmd/crictl/container.go: stopContainerCommand,
// removeContainerCommand): each ID on its own line once done; errors as logrus fatal lines.
let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  cluster = bootedCluster({ seed: 5, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('crictl stop and rm', () => {
  it('crictl stop kills etcd; the API answers etcd timeouts; the kubelet restarts it (RESTARTS 1)', () => {
    const id = run('docker exec k8s-lab-control-plane crictl ps --name etcd -q').text.trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(run(`docker exec k8s-lab-control-plane crictl stop ${id.slice(0, 13)}`)).toMatchObject({ text: `${id.slice(0, 13)}\n`, exitCode: 0 });
    run('sleep 30');
    const etcd = run('kubectl get pod -n kube-system etcd-k8s-lab-control-plane').text.split('\n')[1];
    expect(etcd).toMatch(/^etcd-k8s-lab-control-plane +1\/1 +Running +1 \(\d+s ago\) /);
    const ps = run('docker exec k8s-lab-control-plane crictl ps -a --name etcd').text.split('\n');
    expect(ps[1]).toMatch(/ Running +etcd +1 /);
    expect(ps[2]).toMatch(new RegExp(`^${id.slice(0, 13)} .* Exited +etcd +0 `));
  });

  it('errors: an unknown ID, no ID, an ID with --all, a running container for rm', () => {
    const nf = run('docker exec k8s-lab-control-plane crictl stop deadbeef1234');
    expect(nf.exitCode).toBe(1);
    expect(nf.text).toMatch(/^time="[^"]+" level=fatal msg="stopping the container \\"deadbeef1234\\": rpc error: code = NotFound desc = an error occurred when try to find container \\"deadbeef1234\\": not found"\n$/);
    expect(run('docker exec k8s-lab-control-plane crictl stop').text).toMatch(/msg="you must specify at least one CONTAINER-ID or use --all"/);
    expect(run('docker exec k8s-lab-control-plane crictl stop -a abc').text).toMatch(/msg="cannot specify CONTAINER-ID\(s\) when using --all"/);
    const id = run('docker exec k8s-lab-worker crictl ps --name kindnet-cni -q').text.trim();
    expect(run(`docker exec k8s-lab-worker crictl rm ${id}`).text).toMatch(new RegExp(`msg="container \\\\"${id}\\\\" is running, please stop it first"`));
    expect(run(`docker exec k8s-lab-worker crictl rm -f ${id}`)).toMatchObject({ text: `${id}\n`, exitCode: 0 });
    expect(run('docker exec k8s-lab-worker crictl ps -a -q').text).not.toContain(id);
  });
});
