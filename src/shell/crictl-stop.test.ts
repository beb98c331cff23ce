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

describe('crictl commands the playground lacks', () => {
  it('are named as missing whatever their flags (not a flag error of another command)', () => {
    // (`crictl exec` is simulated now; `attach` with its flags is still missing.)
    const r = run('docker exec k8s-lab-control-plane crictl attach -it abc');
    expect(r.exitCode).toBe(1);
    expect(r.text).toMatch(/^time="[^"]+" level=fatal msg="command \\"attach\\" is not available in the playground \(crictl ps, pods, images, logs, exec, stop, rm, version\)"\n$/);
    expect(run('docker exec k8s-lab-control-plane crictl inspect -o json abc').text).toMatch(/msg="command \\"inspect\\" is not available in the playground/);
  });
});

describe('crictl ps --state and crictl logs -f', () => {
  it('filters by state (case-insensitive), rejects an unknown one, and follows a log until interrupted', () => {
    run(`kubectl run ticker --image=busybox:1.36 -- sh -c 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 2; done'`);
    run(`kubectl run crashy --image=busybox:1.36 --restart=Never -- sh -c 'echo boom; exit 3'`);
    run('sleep 20');
    const node = (pod: string) => run(`kubectl get pod ${pod} -o jsonpath={.spec.nodeName}`).text;
    const exited = run(`docker exec ${node('crashy')} crictl ps -s Exited`).text.split('\n');
    expect(exited[0]).toMatch(/^CONTAINER +IMAGE +CREATED +STATE +NAME +ATTEMPT +POD ID +POD +NAMESPACE$/);
    expect(exited.some((l) => / Exited +crashy +0 +\w+ +crashy +default$/.test(l))).toBe(true);
    expect(exited.some((l) => / Running /.test(l))).toBe(false);
    expect(run(`docker exec ${node('ticker')} crictl ps --state=running --name ticker -q`).text).toMatch(/^[0-9a-f]{64}\n$/);
    expect(run('docker exec k8s-lab-worker crictl ps -s bogus')).toMatchObject({ exitCode: 1 });
    expect(run('docker exec k8s-lab-worker crictl ps -s bogus').text).toMatch(/level=fatal msg="--state should be one of created, running, exited or unknown"\n$/);
    const id = run(`docker exec ${node('ticker')} crictl ps --name ticker -q`).text.trim();
    const r = runToCompletion(shell, `docker exec ${node('ticker')} crictl logs -f --tail 1 ${id}`, { maxVirtualMs: 7000 });
    expect(r.timedOut).toBe(true);
    const lines = r.text.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const first = Number(/^tick (\d+)$/.exec(lines[0])![1]);
    expect(lines).toEqual(lines.map((_, i) => `tick ${first + i}`));
    // an exited container has nothing to follow: its lines, then exit 0
    const cid = run(`docker exec ${node('crashy')} crictl ps -a --name crashy -q`).text.trim().split('\n')[0];
    expect(run(`docker exec ${node('crashy')} crictl logs -f ${cid}`)).toMatchObject({ text: 'boom\n', exitCode: 0, timedOut: false });
  });
});
