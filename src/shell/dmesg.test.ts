/**
 * dmesg inside a kind node: the host kernel's ring buffer, shared by every node, where an OOM
 * kill of any node's container shows up (uptime-stamped, or ctime-stamped with -T).
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
  cluster = bootedCluster({ seed: 23 });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('dmesg', () => {
  it('is empty of OOM kills until one happens, then every node shows it', () => {
    expect(run('docker exec k8s-lab-worker dmesg')).toMatchObject({ text: '', exitCode: 0 });
    const pod = run('kubectl get pods -n bookshop -l app=web -o jsonpath={.items[0].metadata.name}').text;
    run(`kubectl exec -n bookshop ${pod} -- wget -qO- localhost:8080/debug/eat?mb=300`);
    run('sleep 5');
    const oom = /^\[\d{5}\.\d{6}\] Memory cgroup out of memory: Killed process \d+ \(web\) total-vm:\d+kB, anon-rss:\d+kB, file-rss:0kB, shmem-rss:0kB, UID:10001 pgtables:\d+kB oom_score_adj:\d+\n$/;
    for (const node of ['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2']) expect(run(`docker exec ${node} dmesg`).text).toMatch(oom);
    expect(run('docker exec k8s-lab-worker dmesg -T').text).toMatch(/^\[Mon Jan {2}5 06:\d\d:\d\d 2026\] Memory cgroup out of memory: Killed process \d+ \(web\) /);
    expect(run('docker exec k8s-lab-worker dmesg --bogus')).toMatchObject({ text: "dmesg: unrecognized option '--bogus'\nTry 'dmesg --help' for more information.\n", exitCode: 1 });
  });
});
