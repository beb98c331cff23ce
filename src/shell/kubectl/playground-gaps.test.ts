import { describe, expect, it } from 'vitest';
import { bootedCluster } from '../../engine/cluster';
import { createPlaygroundShell } from '../playground';
import { MemoryFiles } from '../files';
import { runToCompletion } from '../shell';

// The playground shell on the booted kind cluster with the bookshop (real kubelets, containerd logs).
function setup() {
  const cluster = bootedCluster({ seed: 1, bare: false });
  const shell = createPlaygroundShell({ cluster, files: new MemoryFiles({}) });
  const run = (line: string) => runToCompletion(shell, line);
  return { cluster, run };
}

describe('kubectl logs / exec / set / describe node on the booted cluster', () => {
  const { run } = setup();

  it('logs --timestamps prefixes RFC3339Nano times; -l prefixes lines only with --prefix; --since / --since-time filter', () => {
    const ts = run('kubectl logs -n bookshop deploy/web --timestamps --tail=1');
    expect(ts.text).toMatch(/\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z \S/);
    const plain = run('kubectl logs -n bookshop -l app=web --tail=1').text;
    expect(plain).not.toContain('[pod/');
    expect(plain.trim().split('\n')).toHaveLength(2);
    const prefixed = run('kubectl logs -n bookshop -l app=web --tail=1 --prefix').text.trim().split('\n');
    expect(prefixed.every((l) => /^\[pod\/web-[a-z0-9]+-[a-z0-9]+\/web\] /.test(l))).toBe(true);
    const allPods = run('kubectl logs -n bookshop deploy/web --all-pods --tail=1').text.trim().split('\n');
    expect(allPods).toHaveLength(2);
    expect(allPods.every((l) => /^\[pod\/web-[a-z0-9]+-[a-z0-9]+\/web\] /.test(l))).toBe(true);
    expect(run('kubectl logs -n bookshop nope').text).toBe('error: error from server (NotFound): pods "nope" not found in namespace "bookshop"\n');
    expect(run('kubectl logs -n bookshop -l app=web -f --max-log-requests=1').text).toBe(
      'error: you are attempting to follow 2 log streams, but maximum allowed concurrency is 1, use --max-log-requests to increase the limit\n',
    );
    const all = run('kubectl logs -n bookshop deploy/web --tail=5').text;
    expect(run('kubectl logs -n bookshop deploy/web --tail=5 --since=1h').text).toBe(all);
    expect(run('kubectl logs -n bookshop deploy/web --since-time=2099-01-01T00:00:00Z').text).toMatch(/^(Found 2 pods, using pod\/\S+\n)?$/);
    expect(run('kubectl logs -n bookshop deploy/web --since=1s --since-time=2026-01-05T06:00:00Z').text).toBe('error: at most one of `sinceTime` or `sinceSeconds` may be specified\n');
  });

  it('set env / set resources patch the pod template; --list shows the variables', () => {
    expect(run('kubectl set env deploy/web -n bookshop FOO=bar').text).toBe('deployment.apps/web env updated\n');
    expect(run('kubectl set env deploy/web -n bookshop FOO=bar').text).toBe('');
    const list = run('kubectl set env deploy/web -n bookshop --list').text;
    expect(list.startsWith('# Deployment web, container web\n')).toBe(true);
    expect(list).toContain('\nFOO=bar\n');
    expect(run('kubectl set env deploy/web -n bookshop FOO-').text).toBe('deployment.apps/web env updated\n');
    expect(run('kubectl set env deploy/web -n bookshop --list').text).not.toContain('FOO=');
    expect(run('kubectl set env deploy/web -n bookshop -c nope X=1').text).toBe('Warning: Deployment/web does not have any containers matching "nope"\n');
    expect(run('kubectl set resources deploy/web -n bookshop --limits=cpu=200m,memory=512Mi --requests=cpu=0.1').text).toBe('deployment.apps/web resource requirements updated\n');
    expect(run("kubectl get deploy web -n bookshop -o jsonpath='{.spec.template.spec.containers[0].resources.limits}'").text).toBe('{"cpu":"200m","memory":"512Mi"}');
    expect(run('kubectl set resources deploy/web -n bookshop').text).toBe('error: you must specify an update to requests or limits (in the form of --requests/--limits)\n');
    expect(run('kubectl set resources deploy/web -n bookshop -c nope --limits=cpu=1').text).toBe('error: unable to find container named nope\n');
  });

  it('describe node lists the hugepages rows under Allocated resources', () => {
    const out = run('kubectl describe node k8s-lab-worker').text;
    expect(out).toMatch(/\n {2}ephemeral-storage +0 \(0%\) +0 \(0%\)\n {2}hugepages-1Gi +0 \(0%\) +0 \(0%\)\n {2}hugepages-2Mi +0 \(0%\) +0 \(0%\)\nEvents:/);
  });

  it('logs and exec through an unreachable kubelet fail with the API server errors', () => {
    run('docker network disconnect kind k8s-lab-worker');
    run('docker network disconnect kind k8s-lab-worker2');
    const logs = run('kubectl logs -n bookshop deploy/web').text;
    expect(logs).toMatch(/\nError from server: Get "https:\/\/172\.18\.0\.\d:10250\/containerLogs\/bookshop\/web-[a-z0-9-]+\/web": dial tcp 172\.18\.0\.\d:10250: i\/o timeout\n$/);
    const exec = run('kubectl exec -n bookshop deploy/web -- ls').text;
    expect(exec).toMatch(/\nError from server: error dialing backend: dial tcp 172\.18\.0\.\d:10250: i\/o timeout\n$/);
  });
});
