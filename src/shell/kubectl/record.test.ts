import { describe, expect, it } from 'vitest';
import { bench } from './testing';

// record_flags.go: --record (deprecated, still honoured) writes the command line as the
// kubernetes.io/change-cause annotation, which `kubectl rollout history` shows as CHANGE-CAUSE.
describe('kubectl --record', () => {
  it('set image --record: the warning, then the command line in the rollout history', () => {
    const b = bench();
    expect(b.run('kubectl create deployment web --image=nginx:1.27 --replicas=1').code).toBe(0);
    b.c.run(20_000);
    const r = b.run('kubectl set image deploy/web nginx=nginx:1.28 --record');
    expect(r.stderr).toBe('Flag --record has been deprecated, --record will be removed in the future\n');
    expect(r.stdout).toBe('deployment.apps/web image updated\n');
    b.c.run(30_000);
    expect(b.run('kubectl rollout history deploy/web').stdout).toBe(
      'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image deploy/web nginx=nginx:1.28 --record=true\n\n',
    );
  });

  it('flags are spelled by their long names, in the order given; scale records on the object too', () => {
    const b = bench();
    expect(b.run('kubectl create ns shop').code).toBe(0);
    expect(b.run('kubectl create deployment api -n shop --image=nginx --record').code).toBe(0);
    expect(b.run("kubectl get deploy api -n shop -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'").stdout).toBe('kubectl create deployment api --namespace=shop --image=nginx --record=true');
    expect(b.run('kubectl scale deploy api -n shop --replicas=2 --record').code).toBe(0);
    expect(b.run("kubectl get deploy api -n shop -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'").stdout).toBe('kubectl scale deploy api --namespace=shop --replicas=2 --record=true');
  });

  it('without --record (or with --record=false) nothing is written', () => {
    const b = bench();
    expect(b.run('kubectl create deployment web --image=nginx').code).toBe(0);
    expect(b.run('kubectl scale deploy web --replicas=2 --record=false').code).toBe(0);
    expect(b.run('kubectl get deploy web -o jsonpath={.metadata.annotations}').stdout).not.toContain('change-cause');
  });
});
