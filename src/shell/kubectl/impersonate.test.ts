import { describe, expect, it } from 'vitest';
import { kubeadmClusterAdminsBinding } from '../../engine/cluster/manifests';
import { bench } from './testing';

// `--as`: kube-apiserver authorizes every request of the command as the impersonated user
// (impersonation.go, rbac.go) and answers a denial with errors.go `forbiddenMessage`; kubectl
// prints it as `Error from server (Forbidden): ...` (helpers.go StandardErrorMessage).

function withBob() {
  const b = bench();
  for (const l of [
    'kubectl create namespace dev',
    'kubectl create serviceaccount bob -n dev',
    'kubectl create role reader --verb=get,list --resource=pods -n dev',
    'kubectl create rolebinding bob-reader --role=reader --serviceaccount=dev:bob -n dev',
  ])
    expect(b.run(l).code).toBe(0);
  return b;
}

describe('kubectl --as', () => {
  it('a ServiceAccount lists pods where its Role is bound, and is Forbidden elsewhere', () => {
    const b = withBob();
    expect(b.run('kubectl get pods -n dev --as=system:serviceaccount:dev:bob')).toMatchObject({ stdout: '', stderr: 'No resources found in dev namespace.\n', code: 0 });
    expect(b.run('kubectl get pods -n default --as=system:serviceaccount:dev:bob')).toMatchObject({
      stdout: '',
      stderr: 'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:dev:bob" cannot list resource "pods" in API group "" in the namespace "default"\n',
      code: 1,
    });
    expect(b.run('kubectl get pods -A --as=system:serviceaccount:dev:bob').stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:dev:bob" cannot list resource "pods" in API group "" at the cluster scope\n',
    );
    expect(b.run('kubectl run x --image=nginx -n dev --as=system:serviceaccount:dev:bob')).toMatchObject({
      stderr: 'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:dev:bob" cannot create resource "pods" in API group "" in the namespace "dev"\n',
      code: 1,
    });
    expect(b.run('kubectl get pod x -n dev')).toMatchObject({ code: 1, stderr: 'Error from server (NotFound): pods "x" not found\n' });
  });

  it('a user with no bindings: get, named get, delete, create deployment and scale are Forbidden with their verbs', () => {
    const b = bench();
    expect(b.run('kubectl get nodes --as=alice').stderr).toBe('Error from server (Forbidden): nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope\n');
    expect(b.run('kubectl get pod x --as=alice').stderr).toBe('Error from server (Forbidden): pods "x" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "default"\n');
    // delete.go builds with RequireObject(false): the DELETE is the first request.
    expect(b.run('kubectl delete pod x --as=alice').stderr).toBe('Error from server (Forbidden): pods "x" is forbidden: User "alice" cannot delete resource "pods" in API group "" in the namespace "default"\n');
    expect(b.run('kubectl create deployment web --image=nginx --as=alice')).toMatchObject({
      stderr: 'error: failed to create deployment: deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"\n',
      code: 1,
    });
    expect(b.run('kubectl create deployment web --image=nginx').code).toBe(0);
    expect(b.run('kubectl scale deployment web --replicas=2 --as=alice').stderr).toBe(
      'Error from server (Forbidden): deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments" in API group "apps" in the namespace "default"\n',
    );
    expect(b.run('kubectl get deployment web -o jsonpath={.spec.replicas}').stdout).toBe('1');
  });

  it('a ClusterRoleBinding to the user grants what its rules say and no more; system:masters is allowed everything', () => {
    const b = bench();
    expect(b.run('kubectl create clusterrole node-getter --verb=get --resource=nodes').code).toBe(0);
    expect(b.run('kubectl create clusterrolebinding alice-nodes --clusterrole=node-getter --user=alice').code).toBe(0);
    const node = b.run('kubectl get nodes -o name').stdout.split('\n')[0];
    expect(b.run(`kubectl get ${node} -o name --as=alice`)).toMatchObject({ stdout: `${node}\n`, code: 0 });
    expect(b.run('kubectl get nodes --as=alice').stderr).toBe('Error from server (Forbidden): nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope\n');
    expect(b.run('kubectl get nodes -o name --as=alice --as-group=system:masters').stdout).toContain(node);
  });

  it('cluster-info as a user who may not list services: no control-plane line, the dump hint, then the error', () => {
    const b = bench();
    expect(b.run('kubectl cluster-info --as=alice')).toMatchObject({
      stdout: "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n",
      stderr: 'Error from server (Forbidden): services is forbidden: User "alice" cannot list resource "services" in API group "" in the namespace "kube-system"\n',
      code: 1,
    });
  });

  it('auth can-i on non-resource URLs: system:discovery and system:public-info-viewer bind system:authenticated', () => {
    const b = bench();
    expect(b.run('kubectl auth can-i get /healthz --as=alice')).toMatchObject({ stdout: 'yes\n', code: 0 });
    expect(b.run('kubectl auth can-i get /api/v1 --as=system:serviceaccount:default:default')).toMatchObject({ stdout: 'yes\n', code: 0 });
    expect(b.run('kubectl auth can-i post /healthz --as=alice')).toMatchObject({ stdout: 'no\n', code: 1 });
    expect(b.run('kubectl auth can-i get /logs --as=alice')).toMatchObject({ stdout: 'no\n', code: 1 });
    expect(b.run('kubectl auth can-i get /logs --as=alice --as-group=system:masters')).toMatchObject({ stdout: 'yes\n', code: 0 });
  });

  it('--as=kubernetes-admin is that user name alone (no kubeadm:cluster-admins group): RBAC refuses it', () => {
    const b = bench();
    expect(b.run('kubectl auth can-i list pods --as=kubernetes-admin')).toMatchObject({ stdout: 'no\n', code: 1 });
    expect(b.run('kubectl get pods --as=kubernetes-admin').stderr).toBe('Error from server (Forbidden): pods is forbidden: User "kubernetes-admin" cannot list resource "pods" in API group "" in the namespace "default"\n');
    // The group is cluster-admin through the ClusterRoleBinding kubeadm init creates (the test
    // cluster has no kubeadm: create it, and the ClusterRole, as the booted cluster has them).
    b.c.apply('apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: cluster-admin\nrules:\n- apiGroups: ["*"]\n  resources: ["*"]\n  verbs: ["*"]\n- nonResourceURLs: ["*"]\n  verbs: ["*"]\n');
    b.c.apply(kubeadmClusterAdminsBinding());
    expect(b.run('kubectl get pods --as=kubernetes-admin --as-group=kubeadm:cluster-admins')).toMatchObject({ stderr: 'No resources found in default namespace.\n', code: 0 });
    expect(b.run('kubectl auth can-i delete nodes --as=alice --as-group=kubeadm:cluster-admins')).toMatchObject({ stdout: 'yes\n', code: 0 });
    // Deleted, the binding no longer grants anything: RBAC decides from the real objects.
    expect(b.run('kubectl delete clusterrolebinding kubeadm:cluster-admins').stdout).toBe('clusterrolebinding.rbac.authorization.k8s.io "kubeadm:cluster-admins" deleted\n');
    expect(b.run('kubectl get pods --as=kubernetes-admin --as-group=kubeadm:cluster-admins').stderr).toBe('Error from server (Forbidden): pods is forbidden: User "kubernetes-admin" cannot list resource "pods" in API group "" in the namespace "default"\n');
    expect(b.run('kubectl auth can-i delete nodes --as=alice --as-group=kubeadm:cluster-admins')).toMatchObject({ stdout: 'no\n', code: 1 });
  });

  it('logs and exec need pods/log (get) and pods/exec (create) besides reading the pod', () => {
    const b = withBob();
    expect(b.run('kubectl run web --image=nginx -n dev').code).toBe(0);
    b.c.run(10_000);
    expect(b.run('kubectl logs web -n dev --as=system:serviceaccount:dev:bob')).toMatchObject({
      stderr: 'Error from server (Forbidden): pods "web" is forbidden: User "system:serviceaccount:dev:bob" cannot get resource "pods/log" in API group "" in the namespace "dev"\n',
      code: 1,
    });
    expect(b.run('kubectl exec web -n dev --as=system:serviceaccount:dev:bob -- hostname')).toMatchObject({
      stderr: 'Error from server (Forbidden): pods "web" is forbidden: User "system:serviceaccount:dev:bob" cannot create resource "pods/exec" in API group "" in the namespace "dev"\n',
      code: 1,
    });
    expect(b.run('kubectl create role logger --verb=get --resource=pods/log -n dev').code).toBe(0);
    expect(b.run('kubectl create rolebinding bob-logger --role=logger --serviceaccount=dev:bob -n dev').code).toBe(0);
    expect(b.run('kubectl logs web -n dev --as=system:serviceaccount:dev:bob').stderr).not.toContain('Forbidden');
  });

  it('auth can-i still answers about the user (not as it)', () => {
    const b = withBob();
    expect(b.run('kubectl auth can-i list pods -n dev --as=system:serviceaccount:dev:bob')).toMatchObject({ stdout: 'yes\n', code: 0 });
    expect(b.run('kubectl auth can-i delete pods -n dev --as=system:serviceaccount:dev:bob')).toMatchObject({ stdout: 'no\n', code: 1 });
  });
});
