import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

// staging/src/k8s.io/kubectl/pkg/cmd/set/set_serviceaccount.go: `kubectl set serviceaccount|sa
// TYPE NAME SERVICE_ACCOUNT`, the pod spec's serviceAccountName patched (field manager
// kubectl-set), `<kind>.<group>/<name> serviceaccount updated`.

describe('kubectl set serviceaccount', () => {
  it('sets the pod template ServiceAccount, under its alias too, and prints what it updated', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(2000);
    expect(b.run('kubectl set sa deploy/web builder')).toMatchObject({ stdout: 'deployment.apps/web serviceaccount updated\n', stderr: '', code: 0 });
    expect(b.c.api.get('deployments', 'default', 'web').spec.template.spec.serviceAccountName).toBe('builder');
    // Sent whether or not it changes anything, so printed again.
    expect(b.run('kubectl set serviceaccount deployment web builder').stdout).toBe('deployment.apps/web serviceaccount updated\n');
    expect(b.run('kubectl set sa deploy/web other --dry-run=server').stdout).toBe('deployment.apps/web serviceaccount updated (server dry run)\n');
    expect(b.run("kubectl set sa deploy/web other --dry-run=client -o jsonpath='{.spec.template.spec.serviceAccountName}'").stdout).toBe('other');
    expect(b.c.api.get('deployments', 'default', 'web').spec.template.spec.serviceAccountName).toBe('builder');
  });

  it('errors: no arguments, no resource, a kind without a pod template, a missing object', () => {
    const b = bench();
    expect(b.run('kubectl create service clusterip web --tcp=80:80').code).toBe(0);
    expect(b.run('kubectl set sa')).toMatchObject({ stderr: 'error: serviceaccount is required\n', code: 1 });
    expect(b.run('kubectl set sa builder').stderr).toBe(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
    );
    expect(b.run('kubectl set sa svc/web builder')).toMatchObject({ stdout: '', stderr: 'error: services/web the object is not a pod or does not have a pod template: *v1.Service\n', code: 1 });
    expect(b.run('kubectl set sa deploy/nope builder')).toMatchObject({ stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n', code: 1 });
  });

  it('-h prints the command help with its alias', () => {
    const b = bench();
    const out = b.run('kubectl set sa -h').stdout;
    expect(out.startsWith('Update the service account of pod template resources.\n')).toBe(true);
    expect(out).toContain('Aliases:\nserviceaccount, sa\n');
  });
});
