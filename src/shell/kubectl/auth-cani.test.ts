import { describe, expect, it } from 'vitest';
import { kubeadmClusterAdminsBinding } from '../../engine/cluster/manifests';
import { bench } from './testing';

// staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go: resourceFor (`*` taken as is; unknown types
// warn, with their group when given; users/groups known to RBAC) and Validate (cluster-scoped
// resources warn unless -A; unknown verbs warn). Warnings go to stderr, the answer to stdout.

describe('kubectl auth can-i warnings', () => {
  it("'*' '*' asks without a lookup: no warning", () => {
    const b = bench();
    expect(b.run("kubectl auth can-i '*' '*'")).toMatchObject({ stdout: 'yes\n', stderr: '', code: 0 });
  });

  it('a cluster-scoped resource warns even without -n, not with -A; with its group when it has one', () => {
    const b = bench();
    expect(b.run('kubectl auth can-i list nodes')).toMatchObject({ stdout: 'yes\n', stderr: "Warning: resource 'nodes' is not namespace scoped\n\n" });
    expect(b.run('kubectl auth can-i list nodes -A')).toMatchObject({ stdout: 'yes\n', stderr: '' });
    expect(b.run('kubectl auth can-i get clusterroles').stderr).toBe("Warning: resource 'clusterroles' is not namespace scoped in group 'rbac.authorization.k8s.io'\n\n");
    expect(b.run('kubectl auth can-i get pods').stderr).toBe('');
  });

  it('unknown types (with their group), unknown verbs; users and groups are not unknown', () => {
    const b = bench();
    expect(b.run('kubectl auth can-i get foo.apps').stderr).toBe("Warning: the server doesn't have a resource type 'foo' in group 'apps'\n\n");
    expect(b.run('kubectl auth can-i get foo').stderr).toBe("Warning: the server doesn't have a resource type 'foo'\n\n");
    expect(b.run('kubectl auth can-i frob pods').stderr).toBe("Warning: verb 'frob' is not a known verb\n\n");
    expect(b.run('kubectl auth can-i impersonate users').stderr).toBe('');
    expect(b.run('kubectl auth can-i post /healthz').stderr).toBe('');
    expect(b.run('kubectl auth can-i list /healthz').stderr).toBe("Warning: verb 'list' is not a known verb\n\n");
  });
});

// cani.go RunAccessList / printStatus: the SelfSubjectRulesReview's rules broken down
// (BreakdownRule), compacted (CompactRules), sorted by PolicyRule.String(), printed by
// CombineResourceGroup with kubectl's tab writer.
describe('kubectl auth can-i --list', () => {
  it("the kind admin: cluster-admin's two rules, then basic-user's, then the discovery and public-info URLs", () => {
    const b = bench();
    // The bare test API server has no kubeadm: bind the admin's group as kubeadm init does.
    b.c.apply(kubeadmClusterAdminsBinding());
    const out = b.run('kubectl auth can-i --list').stdout.split('\n');
    expect(out.slice(0, 7)).toEqual([
      'Resources                                       Non-Resource URLs   Resource Names   Verbs',
      '*.*                                             []                  []               [*]',
      '                                                [*]                 []               [*]',
      'selfsubjectreviews.authentication.k8s.io        []                  []               [create]',
      'selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]',
      'selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]',
      '                                                [/api/*]            []               [get]',
    ]);
    // system:discovery and system:public-info-viewer both grant /healthz: listed twice, as kubectl does.
    expect(out.filter((l) => l.includes('[/healthz]'))).toHaveLength(2);
  });

  it('a service account: its RoleBinding in the namespace, verbs of one resource merged in order', () => {
    const b = bench();
    b.run('kubectl create ns shop');
    b.run('kubectl create sa bot -n shop');
    b.run('kubectl create role reader -n shop --verb=get,list --resource=pods,pods/log');
    b.run('kubectl create rolebinding bot-reader -n shop --role=reader --serviceaccount=shop:bot');
    const out = b.run('kubectl auth can-i --list -n shop --as=system:serviceaccount:shop:bot --no-headers').stdout.split('\n');
    // Sorted by String(): `Resources:[pods/log]` before `Resources:[pods]` ('/' < ']').
    const i = out.findIndex((l) => /^pods\/log +\[\] +\[\] +\[get list\]$/.test(l));
    expect(i).toBeGreaterThan(0);
    expect(out[i + 1]).toMatch(/^pods +\[\] +\[\] +\[get list\]$/);
    expect(out[0]).toMatch(/^selfsubjectreviews\.authentication\.k8s\.io +\[\] +\[\] +\[create\]$/);
    expect(out).toContain('                                                [/.well-known/openid-configuration]   []    [get]');
  });

  it('refuses arguments and -q/-A/--subresource with --list; --no-headers needs --list', () => {
    const b = bench();
    expect(b.run('kubectl auth can-i --list pods')).toMatchObject({ stderr: 'error: list option must be specified with no arguments\n', code: 1 });
    expect(b.run('kubectl auth can-i --list -A').stderr).toBe("error: list option can't be specified with neither quiet, all-namespaces nor subresource options\n");
    expect(b.run('kubectl auth can-i get pods --no-headers').stderr).toBe('error: --no-headers cannot be set without --list specified\n');
  });
});
