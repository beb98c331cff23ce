/**
 * kubectl inside a kind node: the binary is there (kindest/node ships kubectl), the kubeconfig is
 * not: client-go's default `http://localhost:8080` is refused until the user points kubectl at
 * kubeadm's /etc/kubernetes/admin.conf (`--kubeconfig`, `KUBECONFIG`, or a copy in ~/.kube/config
 * as kubeadm's init message says, `cp -i` included).
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
  cluster = bootedCluster({ seed: 13, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

const REFUSED = 'The connection to the server localhost:8080 was refused - did you specify the right host or port?\n';
const DISCOVERY = /^E\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ memcache\.go:265\] "Unhandled Error" err="couldn't get current server API group list: Get \\"http:\/\/localhost:8080\/api\?timeout=32s\\": dial tcp \[::1\]:8080: connect: connection refused"$/;

describe('kubectl in a node', () => {
  it('without a kubeconfig: localhost:8080 refused, as kubectl with no configuration', () => {
    const r = run('docker exec k8s-lab-control-plane kubectl get pods');
    expect(r.exitCode).toBe(1);
    const lines = r.text.split('\n');
    expect(lines.slice(0, 5).every((l) => DISCOVERY.test(l))).toBe(true);
    expect(lines.slice(5).join('\n')).toBe(REFUSED);
    expect(run('docker exec k8s-lab-worker kubectl version')).toMatchObject({ text: `Client Version: ${cluster.version}\nKustomize Version: v5.7.1\n${REFUSED}`, exitCode: 1 });
    expect(run('docker exec k8s-lab-worker kubectl config view').text).toBe(
      'apiVersion: v1\nclusters: null\ncontexts: null\ncurrent-context: ""\nkind: Config\npreferences: {}\nusers: null\n',
    );
    expect(run('docker exec k8s-lab-worker kubectl config current-context')).toMatchObject({ text: 'error: current-context is not set\n', exitCode: 1 });
    expect(run('docker exec k8s-lab-worker which kubectl').text).toBe('/usr/bin/kubectl\n');
  });

  it('with admin.conf: the cluster as kubernetes-admin through https://k8s-lab-control-plane:6443', () => {
    const nodes = run('docker exec k8s-lab-control-plane kubectl --kubeconfig /etc/kubernetes/admin.conf get nodes');
    expect(nodes.exitCode).toBe(0);
    expect(nodes.text.split('\n')[0]).toBe('NAME                    STATUS   ROLES           AGE   VERSION');
    expect(run('docker exec k8s-lab-control-plane kubectl --kubeconfig=/nope get nodes')).toMatchObject({ text: 'error: stat /nope: no such file or directory\n', exitCode: 1 });
    // on a worker there is no admin.conf: kubeadm join writes only the kubelet's kubeconfig
    expect(run('docker exec k8s-lab-worker kubectl --kubeconfig /etc/kubernetes/admin.conf get nodes').text).toBe('error: stat /etc/kubernetes/admin.conf: no such file or directory\n');
    expect(run('docker exec -e KUBECONFIG=/etc/kubernetes/admin.conf k8s-lab-control-plane kubectl config get-contexts').text).toBe(
      'CURRENT   NAME                       CLUSTER   AUTHINFO           NAMESPACE\n*         kubernetes-admin@k8s-lab   k8s-lab   kubernetes-admin   \n',
    );
    expect(run('docker exec -e KUBECONFIG=/etc/kubernetes/admin.conf k8s-lab-control-plane kubectl cluster-info').text.split('\n')[0]).toBe(
      'Kubernetes control plane is running at https://k8s-lab-control-plane:6443',
    );
  });

  it("kubeadm's recipe: mkdir -p $HOME/.kube; cp -i admin.conf $HOME/.kube/config (cp -i asks before overwriting)", () => {
    expect(run('docker exec k8s-lab-control-plane mkdir -p /root/.kube').exitCode).toBe(0);
    expect(run('docker exec k8s-lab-control-plane cp -i /etc/kubernetes/admin.conf /root/.kube/config')).toMatchObject({ text: '', exitCode: 0 });
    expect(run('docker exec k8s-lab-control-plane cp -i /etc/kubernetes/admin.conf /root/.kube/config')).toMatchObject({ text: "cp: overwrite '/root/.kube/config'? ", exitCode: 0 });
    expect(run('docker exec k8s-lab-control-plane kubectl get ns kube-system -o name')).toMatchObject({ text: 'namespace/kube-system\n', exitCode: 0 });
    // another component's kubeconfig is an identity the playground does not model
    expect(run('docker exec k8s-lab-control-plane kubectl --kubeconfig /etc/kubernetes/kubelet.conf get pods').exitCode).toBe(1);
  });
});
