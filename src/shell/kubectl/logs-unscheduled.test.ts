import { describe, expect, it } from 'vitest';
import { bench } from './testing';

// pkg/registry/core/pod/strategy.go LogLocation: a pod with no spec.nodeName gets an empty
// location, so the log stream is empty: `kubectl logs` prints nothing and exits 0 (not the
// kubelet's "is waiting to start" error, which needs a kubelet to answer).
describe('kubectl logs of a pod no node has taken', () => {
  it('prints nothing and succeeds, with or without -f; a bad -c still fails first', () => {
    const b = bench();
    const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: pend\nspec:\n  nodeSelector: {disk: none}\n  containers:\n  - name: pend\n    image: nginx\n';
    expect(b.run('kubectl apply -f -', { stdin: pod }).code).toBe(0);
    b.c.run(5000);
    expect(b.run('kubectl get pod pend -o jsonpath={.spec.nodeName}').stdout).toBe('');
    expect(b.run('kubectl logs pend')).toMatchObject({ stdout: '', stderr: '', code: 0 });
    expect(b.run('kubectl logs -f pend')).toMatchObject({ stdout: '', stderr: '', code: 0 });
    expect(b.run('kubectl logs pend -c nope')).toMatchObject({ stderr: 'error: container nope is not valid for pod pend\n', code: 1 });
  });
});
