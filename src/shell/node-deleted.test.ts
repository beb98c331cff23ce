import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../engine/cluster';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';

// `kubectl delete node` while the kubelet runs: the kubelet never registers again by itself
// (pkg/kubelet/kubelet_node_status.go registerWithAPIServer returns once registrationCompleted;
// kubernetes/kubernetes#71398), it logs its failed status updates; pod GC deletes the pods bound
// to the missing node; a kubelet restart registers the node again.
let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  cluster = bootedCluster({ seed: 7, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('a deleted Node object', () => {
  it('stays deleted while the kubelet runs; its pods are garbage-collected', () => {
    expect(run('kubectl delete node k8s-lab-worker2').text).toBe('node "k8s-lab-worker2" deleted\n');
    run('sleep 90');
    expect(run('kubectl get nodes -o name').text).toBe('node/k8s-lab-control-plane\nnode/k8s-lab-worker\n');
    expect(run('kubectl get pods -A --field-selector spec.nodeName=k8s-lab-worker2').text).toBe('No resources found\n');
    const journal = run('docker exec k8s-lab-worker2 journalctl -u kubelet -n 2 --no-pager').text.split('\n');
    expect(journal[0]).toMatch(/kubelet_node_status\.go:\d+\] "Error updating node status, will retry" err="error getting node \\"k8s-lab-worker2\\": nodes \\"k8s-lab-worker2\\" not found"$/);
    expect(journal[1]).toMatch(/\] "Unable to update node status" err="update node status exceeds retry count"$/);
  });

  it('comes back when the kubelet restarts', () => {
    run('docker exec k8s-lab-worker2 systemctl restart kubelet');
    run('sleep 30');
    expect(run('kubectl get node k8s-lab-worker2').text).toMatch(/\nk8s-lab-worker2 +Ready +<none> +\d+s +v1\.35\.0\n$/);
  });
});
