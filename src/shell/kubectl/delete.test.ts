import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

describe('kubectl delete', () => {
  it('prints the deletion when the DELETE returns, then waits until the pod is gone', () => {
    const b = bench({ kubelet: { terminateMs: 30_000 } });
    b.c.apply(deploymentYaml('catalog', 2));
    b.c.run(5000);
    const [victim, other] = b.c.pods().map((p) => p.metadata.name!);
    const h = b.start(`kubectl delete pod ${victim}`);
    expect(h.out.stdout).toBe(`pod "${victim}" deleted from default namespace\n`);
    expect(h.pending).toBeDefined();
    expect(h.advance(10_000)).toBeUndefined();
    expect(h.advance(21_000)).toBe(0);
    const after = b.run('kubectl get pods -o name').stdout.split('\n').filter(Boolean);
    expect(after).toHaveLength(2);
    expect(after).toContain(`pod/${other}`);
    expect(after).not.toContain(`pod/${victim}`);
  });

  it('--wait=false returns at once; -o name; NotFound; --ignore-not-found', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(5000);
    const pod = b.c.pods()[0].metadata.name!;
    expect(b.run(`kubectl delete pod ${pod} --wait=false -o name`)).toEqual({ stdout: `pod/${pod}\n`, stderr: '', code: 0 });
    expect(b.run('kubectl delete pod nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', code: 1 });
    expect(b.run('kubectl delete pod nope --ignore-not-found')).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(b.run('kubectl delete pods -l app=nope')).toEqual({ stdout: 'No resources found\n', stderr: '', code: 0 });
  });

  it('--force --grace-period=0 warns and force-deletes', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    b.c.run(3000);
    expect(b.run('kubectl delete pod solo --grace-period=0 --force')).toEqual({
      stdout: 'pod "solo" force deleted from default namespace\n',
      stderr: 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
      code: 0,
    });
    expect(b.c.api.tryGet('pods', 'default', 'solo')).toBeUndefined();
  });

  it("kubectl's validation messages", () => {
    const b = bench();
    expect(b.run('kubectl delete').stderr).toBe(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
    );
    expect(b.run('kubectl delete pods').stderr).toBe('error: resource(s) were provided, but no name was specified\n');
    expect(b.run('kubectl delete pod x -o yaml').stderr).toBe("error: unexpected -o output mode: yaml. We only support '-o name'\n");
    expect(b.run('kubectl delete pods --all -l a=b').stderr).toBe("error: setting 'all' parameter but found a non empty selector. \n");
    expect(b.run('kubectl delete pod a --cascade=foo').stderr).toBe('error: invalid cascade value (foo). Must be "background", "foreground", or "orphan"\n');
    expect(b.run('kubectl delete pod x --grace-period=5 --force').stderr).toBe('error: --force and --grace-period greater than 0 cannot be specified together\n');
    expect(b.run('kubectl delete pod a --cascade=false --wait=false').stderr).toBe(
      'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\nError from server (NotFound): pods "a" not found\n',
    );
    expect(b.run('kubectl delete ns default').stderr).toBe('Error from server (Forbidden): namespaces "default" is forbidden: this namespace may not be deleted\n');
    expect(b.run('kubectl delete node nope -n default').stderr).toBe(
      'Warning: deleting cluster-scoped resources, not scoped to the provided namespace\nError from server (NotFound): nodes "nope" not found\n',
    );
  });

  it('--cascade=orphan keeps the pods of a deleted Deployment; background removes them', () => {
    const b = bench();
    b.c.apply(deploymentYaml('keep', 1));
    b.c.apply(deploymentYaml('drop', 1));
    b.c.run(5000);
    expect(b.run('kubectl delete deploy keep --cascade=orphan').stdout).toBe('deployment.apps "keep" deleted from default namespace\n');
    expect(b.run('kubectl delete deployment drop').stdout).toBe('deployment.apps "drop" deleted from default namespace\n');
    b.c.run(10_000);
    expect(b.c.pods(undefined, 'app=keep')).toHaveLength(1);
    expect(b.c.pods(undefined, 'app=drop')).toHaveLength(0);
  });

  it('-f deletes what the file names, with the file in the error', () => {
    const b = bench({ files: { 'web.yaml': deploymentYaml('web', 1) } });
    expect(b.run('kubectl delete -f web.yaml').stderr).toBe('Error from server (NotFound): error when deleting "web.yaml": deployments.apps "web" not found\n');
    b.run('kubectl apply -f web.yaml');
    expect(b.run('kubectl delete -f web.yaml').stdout).toBe('deployment.apps "web" deleted from default namespace\n');
  });

  it('--timeout ends the wait with kubectl\'s error', () => {
    const b = bench({ kubelet: { terminateMs: 60_000 } });
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(5000);
    const pod = b.c.pods()[0].metadata.name!;
    const r = b.run(`kubectl delete pod ${pod} --timeout=5s`);
    expect(r).toEqual({ stdout: `pod "${pod}" deleted from default namespace\n`, stderr: `error: timed out waiting for the condition on pods/${pod}\n`, code: 1 });
  });
});
