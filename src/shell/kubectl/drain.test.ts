import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

const DS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd
  namespace: kube-system
spec:
  selector:
    matchLabels: {name: fluentd}
  template:
    metadata:
      labels: {name: fluentd}
    spec:
      containers:
      - name: fluentd
        image: fluentd:v1
`;

function cluster() {
  const b = bench();
  b.c.run(2000);
  b.c.apply(deploymentYaml('web', 2));
  b.c.apply(DS);
  b.c.api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', namespace: 'default' }, spec: { nodeName: 'worker-1', containers: [{ name: 'c', image: 'nginx' }] } });
  b.c.run(5000);
  return b;
}

describe('kubectl cordon / uncordon / drain', () => {
  it('cordon and uncordon', () => {
    const b = bench();
    expect(b.run('kubectl cordon worker-1')).toEqual({ stdout: 'node/worker-1 cordoned\n', stderr: '', code: 0 });
    expect(b.c.api.get('nodes', undefined, 'worker-1').spec.unschedulable).toBe(true);
    expect(b.run('kubectl get node worker-1').stdout).toMatch(/worker-1 {3}Ready,SchedulingDisabled {3}<none>/);
    expect(b.run('kubectl cordon worker-1').stdout).toBe('node/worker-1 already cordoned\n');
    expect(b.run('kubectl uncordon worker-1').stdout).toBe('node/worker-1 uncordoned\n');
    expect(b.run('kubectl uncordon worker-1').stdout).toBe('node/worker-1 already uncordoned\n');
    expect(b.run('kubectl cordon worker-2 --dry-run=client').stdout).toBe('node/worker-2 cordoned (dry run)\n');
    expect(b.run('kubectl cordon')).toEqual({ stdout: '', stderr: "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n", code: 1 });
    expect(b.run('kubectl drain').stderr).toBe("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n");
    expect(b.run('kubectl cordon nope').stderr).toBe('Error from server (NotFound): nodes "nope" not found\n');
  });

  it('drain refuses DaemonSet pods and pods without a controller', () => {
    const b = cluster();
    const ds = b.c.pods('kube-system').find((p) => p.spec.nodeName === 'worker-1')!.metadata.name;
    expect(b.run('kubectl drain worker-1')).toEqual({
      stdout: 'node/worker-1 cordoned\n',
      stderr:
        `error: unable to drain node "worker-1" due to error: [cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/${ds}, cannot delete Pods that declare no controller (use --force to override): default/solo], continuing command...\n` +
        'There are pending nodes to be drained:\n worker-1\n' +
        `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/${ds}\n` +
        'cannot delete Pods that declare no controller (use --force to override): default/solo\n',
      code: 1,
    });
    expect(b.run('kubectl drain worker-1 --ignore-daemonsets')).toEqual({
      stdout: 'node/worker-1 already cordoned\n',
      stderr:
        'error: unable to drain node "worker-1" due to error: cannot delete Pods that declare no controller (use --force to override): default/solo, continuing command...\n' +
        'There are pending nodes to be drained:\n worker-1\n' +
        'cannot delete Pods that declare no controller (use --force to override): default/solo\n',
      code: 1,
    });
  });

  it('drain with --ignore-daemonsets --force evicts, waits, and reports the node drained', () => {
    const b = cluster();
    const ds = b.c.pods('kube-system').find((p) => p.spec.nodeName === 'worker-1')!.metadata.name;
    const onNode = b.c.pods().filter((p) => p.spec.nodeName === 'worker-1').map((p) => `default/${p.metadata.name}`);
    const r = b.run('kubectl drain worker-1 --ignore-daemonsets --force');
    expect(r.stderr).toBe(`Warning: ignoring DaemonSet-managed Pods: kube-system/${ds}; deleting Pods that declare no controller: default/solo\n`);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('node/worker-1 cordoned');
    expect(lines.slice(1, 1 + onNode.length)).toEqual(onNode.map((p) => `evicting pod ${p}`));
    expect(lines.slice(1 + onNode.length, -1).sort()).toEqual(onNode.map((p) => `pod/${p.split('/')[1]} evicted`).sort());
    expect(lines[lines.length - 1]).toBe('node/worker-1 drained');
    expect(r.code).toBe(0);
    b.c.run(5000);
    expect(b.c.pods().filter((p) => p.spec.nodeName === 'worker-1')).toHaveLength(0);
    expect(b.c.pods(undefined, 'app=web')).toHaveLength(2);
  });
});
