import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../engine/cluster';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';
import { kindReleaseFor } from './cluster-access';

let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  cluster = bootedCluster({ seed: 2, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles({ 'cluster/kind.yaml': 'kind: Cluster\nname: k8s-lab\n' }) });
});

describe('kind', () => {
  it('prints its version for the node image it ships', () => {
    expect(run('kind version').text).toBe('kind v0.31.0 go1.25.5 linux/amd64\n');
    expect(kindReleaseFor('v1.36.1')).toEqual({ kind: 'v0.32.0', go: 'go1.26.3' });
  });

  it('lists clusters and nodes; the default cluster name is kind', () => {
    expect(run('kind get clusters').text).toBe('k8s-lab\n');
    expect(run('kind get nodes --name k8s-lab').text).toBe('k8s-lab-worker2\nk8s-lab-worker\nk8s-lab-control-plane\n');
    expect(run('kind get nodes')).toMatchObject({ text: 'No kind nodes found for cluster "kind".\n', exitCode: 0 });
    expect(run('KIND_CLUSTER_NAME=k8s-lab kind get nodes').text.split('\n')).toHaveLength(4);
  });

  it('loads images with kind\'s messages', () => {
    const r = run('kind load docker-image bookshop:v1 --name k8s-lab');
    expect(r.exitCode).toBe(0);
    expect(r.text).toMatch(/^Image: "bookshop:v1" with ID "sha256:[0-9a-f]{64}" not yet present on node "k8s-lab-control-plane", loading...\n/);
    expect(r.text.split('\n').filter(Boolean)).toHaveLength(3);
    expect(run('docker exec k8s-lab-worker crictl images').text).toContain('docker.io/library/bookshop');
    expect(run('kind load docker-image bookshop:v1 --name k8s-lab').text).toMatch(/^Image: "bookshop:v1" with ID "sha256:[0-9a-f]{64}" found to be already present on all nodes.\n$/);
  });

  it('loads into chosen nodes only', () => {
    const r = run('kind load docker-image bookshop:v2 --name k8s-lab --nodes k8s-lab-worker');
    expect(r.text).toMatch(/not yet present on node "k8s-lab-worker", loading...\n$/);
    expect(run('docker exec k8s-lab-worker2 crictl images | grep -c bookshop').text).toBe('1\n');
    expect(run('kind load docker-image bookshop:v2 --name k8s-lab --nodes nope')).toMatchObject({ text: 'ERROR: unknown node: "nope"\n', exitCode: 1 });
  });

  it('fails as kind does', () => {
    expect(run('kind load docker-image bookshop:v1')).toMatchObject({ text: 'ERROR: no nodes found for cluster "kind"\n', exitCode: 1 });
    expect(run('kind load docker-image nginx:1.27 --name k8s-lab')).toMatchObject({ text: 'ERROR: image: "nginx:1.27" not present locally\n', exitCode: 1 });
    expect(run('kind load docker-image --name k8s-lab')).toMatchObject({ text: 'ERROR: a list of image names is required\n', exitCode: 1 });
    expect(run('kind create cluster --config cluster/kind.yaml')).toMatchObject({ text: 'ERROR: failed to create cluster: node(s) already exist for a cluster with the name "k8s-lab"\n', exitCode: 1 });
  });
});
