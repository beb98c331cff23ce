import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';
import { CREATE_GENERATOR_CASES, USAGE_ERROR_CASES } from './create2.testdata';

// Client-side expectations are kubectl v1.32's own output (create2.testdata.ts was captured from it).
describe('kubectl create generators (cronjob, ingress, role, clusterrole, rolebinding, clusterrolebinding, quota, pdb, sa, priorityclass)', () => {
  it.each(CREATE_GENERATOR_CASES)('%s', (line, code, expected) => {
    const b = bench();
    const r = b.run(line);
    expect(r.stderr + r.stdout).toBe(expected);
    expect(r.code).toBe(code);
  });

  it.each(USAGE_ERROR_CASES)('%s', (line, code, expected) => {
    const r = bench().run(line);
    expect(r.stderr + r.stdout).toBe(expected);
    expect(r.code).toBe(code);
  });

  it('creates the objects for real, and create token prints a JWT for an existing service account', () => {
    const b = bench();
    expect(b.run('kubectl create sa robot').stdout).toBe('serviceaccount/robot created\n');
    expect(b.run('kubectl create role reader --verb=get,list --resource=pods').stdout).toBe('role.rbac.authorization.k8s.io/reader created\n');
    expect(b.run('kubectl create rolebinding rb --role=reader --serviceaccount=default:robot').stdout).toBe('rolebinding.rbac.authorization.k8s.io/rb created\n');
    expect(b.run("kubectl create cronjob hello --image=busybox --schedule='*/5 * * * *' -- echo hi").stdout).toBe('cronjob.batch/hello created\n');
    expect(b.run('kubectl get cronjob hello -o jsonpath={.spec.jobTemplate.spec.template.spec.restartPolicy}').stdout).toBe('OnFailure');
    const tok = b.run('kubectl create token robot');
    expect(tok.code).toBe(0);
    const [h, p, sig] = tok.stdout.trim().split('.');
    expect(JSON.parse(atob(h.replace(/-/g, '+').replace(/_/g, '/')))).toMatchObject({ alg: 'RS256' });
    const claims = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/') + '=='.slice(0, (4 - (p.length % 4)) % 4)));
    expect(claims.sub).toBe('system:serviceaccount:default:robot');
    expect(claims.exp - claims.iat).toBe(3600);
    expect(sig.length).toBe(342);
    expect(b.run('kubectl create token nope').stderr).toBe('error: failed to create token: serviceaccounts "nope" not found\n');
  });
});

describe('kubectl auth', () => {
  it('whoami shows the kind admin user; can-i says yes for it and evaluates RBAC for service accounts', () => {
    const b = bench();
    expect(b.run('kubectl auth whoami').stdout).toBe('ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [kubeadm:cluster-admins system:authenticated]\n');
    expect(b.run('kubectl auth can-i create pods')).toMatchObject({ stdout: 'yes\n', code: 0 });
    b.run('kubectl create sa robot');
    const as = '--as=system:serviceaccount:default:robot';
    expect(b.run(`kubectl auth can-i list pods ${as}`)).toMatchObject({ stdout: 'no\n', code: 1 });
    b.run('kubectl create role reader --verb=get,list --resource=pods');
    b.run('kubectl create rolebinding rb --role=reader --serviceaccount=default:robot');
    expect(b.run(`kubectl auth can-i list pods ${as}`)).toMatchObject({ stdout: 'yes\n', code: 0 });
    expect(b.run(`kubectl auth can-i delete pods ${as}`)).toMatchObject({ stdout: 'no\n', code: 1 });
    expect(b.run(`kubectl auth can-i list pods ${as} -n kube-system`)).toMatchObject({ stdout: 'no\n', code: 1 });
    expect(b.run(`kubectl auth can-i list pods ${as} -q`)).toMatchObject({ stdout: '', code: 0 });
  });
});

describe('unknown types / delete -f with a kustomization', () => {
  it('explain and events --for of an unknown type: the mapper\'s NoResourceMatchError, printed by CheckErr without "error: "', () => {
    const b = bench();
    expect(b.run('kubectl explain foo')).toMatchObject({ stderr: 'the server doesn\'t have a resource type "foo"\n', code: 1 });
    expect(b.run('kubectl events --for foo/x')).toMatchObject({ stderr: 'the server doesn\'t have a resource type "foo"\n', code: 1 });
    expect(b.run('kubectl create role r --verb=get --resource=foo')).toMatchObject({ stderr: 'the server doesn\'t have a resource type "foo"\n', code: 1 });
  });

  it('delete -f DIR deletes the other files and reports the Kustomization as unmapped', () => {
    const b = bench({
      files: {
        'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n',
        'app/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- cm.yaml\n',
      },
    });
    b.run('kubectl create configmap c --from-literal=a=b');
    const r = b.run('kubectl delete -f app/');
    expect(r.stdout).toBe('configmap "c" deleted from default namespace\n');
    expect(r.stderr).toBe(
      'error: resource mapping not found for name: "" namespace: "" from "app/kustomization.yaml": no matches for kind "Kustomization" in version "kustomize.config.k8s.io/v1beta1"\nensure CRDs are installed first\n',
    );
    expect(r.code).toBe(1);
  });
});

describe('kubectl events', () => {
  it('lists events sorted by time with LAST SEEN TYPE REASON OBJECT MESSAGE, --for, --types, -A and -o', () => {
    const b = bench({ files: { 'web.yaml': deploymentYaml('web', 1) } });
    b.run('kubectl apply -f web.yaml');
    b.c.run(5000);
    const r = b.run('kubectl events');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/);
    expect(r.stdout).toMatch(/\n\d+s +Normal +ScalingReplicaSet +Deployment\/web +Scaled up replica set web-[a-z0-9]+ from 0 to 1\n/);
    expect(b.run('kubectl events --for deploy/web').stdout.trim().split('\n')).toHaveLength(2);
    expect(b.run('kubectl events --types=Warning')).toMatchObject({ stdout: '', stderr: 'No events found in default namespace.\n', code: 0 });
    expect(b.run('kubectl events --types=foo')).toMatchObject({ stderr: 'error: valid --types are Normal or Warning\n', code: 1 });
    expect(b.run('kubectl events -o wide')).toMatchObject({
      stderr:
        'error: unable to match a printer suitable for the output format "wide", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n',
      code: 1,
    });
    expect(b.run('kubectl events --for web')).toMatchObject({ stderr: 'error: --for must be in resource/name form\n', code: 1 });
    expect(b.run('kubectl events -A').stdout.split('\n')[0]).toMatch(/^NAMESPACE +LAST SEEN +TYPE/);
    b.c.api.setAvailability('down');
    expect(b.run('kubectl events')).toMatchObject({ stderr: 'The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n', code: 1 });
    b.c.api.setAvailability('up');
    const y = b.run('kubectl events --for deploy/web -o yaml').stdout;
    expect(y.startsWith('apiVersion: v1\nitems:\n- apiVersion: v1\n')).toBe(true);
    expect(y.endsWith('kind: EventList\nmetadata: {}\n')).toBe(true);
  });

  it('-w prints new events as they are recorded', () => {
    const b = bench({ files: { 'web.yaml': deploymentYaml('web', 1) } });
    const w = b.start('kubectl events -w --for deploy/web');
    expect(w.out.stdout).toBe('');
    b.run('kubectl apply -f web.yaml');
    w.advance(3000);
    expect(w.out.stdout).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE\n.*ScalingReplicaSet +Deployment\/web/);
    w.pending?.cancel();
  });
});
