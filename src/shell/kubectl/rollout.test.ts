import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

describe('kubectl rollout', () => {
  it('status prints kubectl lines until the rollout is done', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 3));
    b.c.run(10_000);
    expect(b.run('kubectl rollout status deploy/web')).toEqual({ stdout: 'deployment "web" successfully rolled out\n', stderr: '', code: 0 });
    expect(b.run('kubectl set image deployment/web web=nginx:1.28').stdout).toBe('deployment.apps/web image updated\n');
    const r = b.run('kubectl rollout status deployment web');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[lines.length - 1]).toBe('deployment "web" successfully rolled out');
    expect(lines).toContain('Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...');
    expect(lines).toContain('Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...');
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^Waiting for deployment (spec update to be observed|"web" rollout to finish: .*)\.\.\.$/);
  });

  it('status fails when the progress deadline passes', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 2, 'nginx:1.27', '  progressDeadlineSeconds: 10\n'.replace(/^/, '')).replace('spec:\n  replicas', 'spec:\n  progressDeadlineSeconds: 10\n  replicas'));
    b.c.run(10_000);
    b.run('kubectl set image deploy/web web=nginx:does-not-exist');
    const r = b.run('kubectl rollout status deploy/web', { maxMs: 120_000 });
    expect(r.stderr).toBe('error: deployment "web" exceeded its progress deadline\n');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated...\n');
    expect(b.run('kubectl rollout status deploy/web').stderr).toBe('error: deployment "web" exceeded its progress deadline\n');
  });

  it('status --watch=false and --timeout', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 2));
    expect(b.run('kubectl rollout status deploy/web --watch=false')).toEqual({ stdout: 'Waiting for deployment spec update to be observed...\n', stderr: '', code: 0 });
    b.c.apply(deploymentYaml('stuck', 1, 'nginx:does-not-exist'));
    b.c.run(1000);
    const r = b.run('kubectl rollout status deploy/stuck --timeout=2s');
    expect(r.stderr).toBe('error: timed out waiting for the condition\n');
    expect(b.run('kubectl rollout status pod/x').stderr).toBe('Error from server (NotFound): pods "x" not found\n');
    expect(b.run('kubectl rollout status').stderr).toBe('error: required resource not specified\n');
  });

  it('history, undo, --to-revision and its errors', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 2));
    b.c.run(10_000);
    b.run('kubectl set image deploy/web web=nginx:1.28');
    b.c.run(20_000);
    expect(b.run('kubectl rollout history deploy/web').stdout).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
    const rev1 = b.run('kubectl rollout history deploy/web --revision=1').stdout;
    expect(rev1).toMatch(/^deployment\.apps\/web with revision #1\nPod Template:\n {2}Labels:\tapp=web\n\tpod-template-hash=\w+\n {2}Containers:\n {3}web:\n {4}Image:\tnginx:1\.27\n/);
    expect(b.run('kubectl rollout undo deploy/web')).toEqual({ stdout: 'deployment.apps/web rolled back\n', stderr: '', code: 0 });
    expect(b.c.api.get('deployments', 'default', 'web').spec.template.spec.containers[0].image).toBe('nginx:1.27');
    b.c.run(20_000);
    expect(b.run('kubectl rollout history deploy/web').stdout).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n2         <none>\n3         <none>\n\n');
    expect(b.run('kubectl rollout undo deploy/web --to-revision=3').stdout).toBe('deployment.apps/web skipped rollback (current template already matches revision 3)\n');
    expect(b.run('kubectl rollout undo deploy/web --to-revision=9')).toEqual({ stdout: '', stderr: 'error: unable to find specified revision 9 in history\n', code: 1 });
  });

  it('restart, pause and resume', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(5000);
    expect(b.run('kubectl rollout restart deploy/web').stdout).toBe('deployment.apps/web restarted\n');
    expect(b.c.api.get('deployments', 'default', 'web').spec.template.metadata.annotations).toEqual({ 'kubectl.kubernetes.io/restartedAt': '2026-01-05T06:00:05Z' });
    expect(b.run('kubectl rollout pause deploy/web').stdout).toBe('deployment.apps/web paused\n');
    expect(b.run('kubectl rollout pause deploy/web').stderr).toBe('error: deployments.apps "web" is already paused\n');
    b.c.run(2000);
    expect(b.run('kubectl rollout restart deploy/web').stderr).toBe('error: deployments.apps "web" can\'t restart paused deployment (run rollout resume first)\n');
    expect(b.run('kubectl rollout undo deploy/web').stderr).toBe("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n");
    expect(b.run('kubectl rollout resume deploy/web').stdout).toBe('deployment.apps/web resumed\n');
    expect(b.run('kubectl rollout resume deploy/web').stderr).toBe('error: deployments.apps "web" is not paused\n');
  });

  it('pause/resume of a kind only Deployments support names the object (rollout_pause.go `error: %s %q %v`)', () => {
    const b = bench();
    b.c.apply(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: a, image: busybox:1.36}]
`);
    expect(b.run('kubectl rollout pause ds/agent')).toMatchObject({ stdout: '', stderr: 'error: daemonsets.apps "agent" pausing is not supported\n', code: 1 });
    expect(b.run('kubectl rollout resume daemonset agent')).toMatchObject({ stdout: '', stderr: 'error: daemonsets.apps "agent" resuming is not supported\n', code: 1 });
  });
});

describe('kubectl scale / set image / label / annotate', () => {
  it('scale', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    expect(b.run('kubectl scale deploy/web --replicas=3')).toEqual({ stdout: 'deployment.apps/web scaled\n', stderr: '', code: 0 });
    expect(b.run('kubectl scale deploy web --replicas=3').stdout).toBe('deployment.apps/web scaled\n');
    expect(b.run('kubectl scale deploy web --replicas=3 --current-replicas=2').stderr).toBe('error: Expected replicas to be 2, was 3\n');
    expect(b.run('kubectl scale deploy web --replicas=-1').stderr).toBe('error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n');
    expect(b.run('kubectl scale deploy nope --replicas=1').stderr).toBe('Error from server (NotFound): deployments.apps "nope" not found\n');
    b.c.run(5000);
    expect(b.c.pods()).toHaveLength(3);
  });

  it('set image', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    expect(b.run('kubectl set image deployment/web web=nginx:1.28').stdout).toBe('deployment.apps/web image updated\n');
    expect(b.run('kubectl set image deployment/web web=nginx:1.28')).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(b.run('kubectl set image deployment/web foo=bar').stderr).toBe('error: unable to find container named "foo"\n');
    expect(b.run('kubectl set image deployment/web *=busybox').stdout).toBe('deployment.apps/web image updated\n');
    expect(b.c.api.get('deployments', 'default', 'web').spec.template.spec.containers[0].image).toBe('busybox');
  });

  it('label and annotate', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', labels: { tier: 'backend' }, annotations: { note: 'hello' } } });
    expect(b.run('kubectl label cm c tier=x').stderr).toBe("error: 'tier' already has a value (backend), and --overwrite is false\n");
    expect(b.run('kubectl label cm c tier=x --overwrite').stdout).toBe('configmap/c labeled\n');
    expect(b.run('kubectl label cm c newl=1').stdout).toBe('configmap/c labeled\n');
    expect(b.run('kubectl label cm c newl-').stdout).toBe('configmap/c unlabeled\n');
    expect(b.run('kubectl label cm c nope-').stdout).toBe('label "nope" not found.\nconfigmap/c not labeled\n');
    expect(b.run('kubectl annotate cm c note=x').stderr).toBe("error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (hello)\n");
    expect(b.run('kubectl annotate cm c n2=1').stdout).toBe('configmap/c annotated\n');
    expect(b.c.api.get('configmaps', 'default', 'c').metadata.annotations).toEqual({ note: 'hello', n2: '1' });
    expect(b.run('kubectl label').stderr).toBe('error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n');
    expect(b.run('kubectl label cm c').stderr).toBe('error: at least one label update is required\n');
    expect(b.run('kubectl label cm c a=b d').stderr).toBe('error: all resources must be specified before label changes: d\n');
  });
});
