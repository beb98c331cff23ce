/**
 * `kubectl diff` (staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go with GNU `diff -u -N`): the
 * live objects against the server's dry run of what `kubectl apply` would send. The seed's story:
 * a Deployment scaled by hand (replicas 5) while its file says 3; `kubectl diff` shows that the
 * next apply takes it back to 3 (and bumps the generation), before anyone runs it.
 */
import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

const HEADER = /^diff -u -N (\/tmp\/LIVE-\d+)\/(\S+) (\/tmp\/MERGED-\d+)\/(\S+)\n--- \1\/\2\t(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9} \+0000)\n\+\+\+ \3\/\4\t(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{9} \+0000)\n/;

describe('kubectl diff', () => {
  it('nothing to change: no output, exit 0', () => {
    const b = bench({ files: { '/web.yaml': deploymentYaml('web', 3) } });
    expect(b.run('kubectl apply -f /web.yaml').code).toBe(0);
    expect(b.run('kubectl diff -f /web.yaml')).toEqual({ stdout: '', stderr: '', code: 0 });
  });

  it('a manual scale: the next apply sets replicas back to the file\'s number and bumps the generation (exit 1)', () => {
    const b = bench({ files: { '/web.yaml': deploymentYaml('web', 3) } });
    b.run('kubectl apply -f /web.yaml');
    b.run('kubectl scale deployment web --replicas=5');
    const r = b.run('kubectl diff -f /web.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const m = HEADER.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(m![2]).toBe('apps.v1.Deployment.default.web');
    expect(m![5]).toBe(m![6]);
    const body = r.stdout.slice(m![0].length);
    expect(body).toContain('-  generation: 2\n+  generation: 3\n');
    expect(body).toContain('-  replicas: 5\n+  replicas: 3\n');
    expect(body).toMatch(/^@@ -\d+,7 \+\d+,7 @@\n/);
    // managedFields are left out; nothing was changed by the diff.
    expect(r.stdout).not.toContain('managedFields');
    expect(b.run('kubectl get deploy web -o jsonpath={.spec.replicas}').stdout).toBe('5');
  });

  it('an object that does not exist yet: an empty LIVE file (the epoch), every line added, the dry run\'s uid and generation', () => {
    const b = bench({ files: { '/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n', '/web.yaml': deploymentYaml('web', 1) } });
    const r = b.run('kubectl diff -f /ns.yaml');
    expect(r.code).toBe(1);
    const m = HEADER.exec(r.stdout)!;
    expect(m[2]).toBe('v1.Namespace..shop');
    expect(m[5]).toBe('1970-01-01 00:00:00.000000000 +0000');
    expect(r.stdout.slice(m[0].length)).toMatch(/^@@ -0,0 \+1,\d+ @@\n\+apiVersion: v1\n\+kind: Namespace\n\+metadata:\n/);
    const web = b.run('kubectl diff -f /web.yaml').stdout;
    expect(web).toContain('+  generation: 1\n');
    expect(web).toMatch(/\+ {2}uid: [0-9a-f-]{36}\n/);
    expect(web).not.toContain('resourceVersion');
    expect(b.run('kubectl get ns shop').code).toBe(1);
  });

  it('several objects: one diff per changed file, in file-name order; -l keeps the matching ones', () => {
    const b = bench({ files: { '/all.yaml': `${deploymentYaml('web', 2)}---\n${deploymentYaml('api', 2)}` } });
    b.run('kubectl apply -f /all.yaml');
    b.run('kubectl scale deploy web api --replicas=4');
    const out = b.run('kubectl diff -f /all.yaml').stdout;
    const files = [...out.matchAll(/^diff -u -N \S+\/(\S+) /gm)].map((x) => x[1]);
    expect(files).toEqual(['apps.v1.Deployment.default.api', 'apps.v1.Deployment.default.web']);
    const only = b.run('kubectl diff -f /all.yaml -l app=web').stdout;
    expect([...only.matchAll(/^diff -u -N \S+\/(\S+) /gm)].map((x) => x[1])).toEqual(['apps.v1.Deployment.default.web']);
  });

  it('a Secret\'s data values are masked, a changed one as before/after (the last-applied annotation is not: kubectl\'s Masker only masks data)', () => {
    const secret = (v: string) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\ndata:\n  user: YWRtaW4=\n  password: ${v}\n`;
    const b = bench({ files: { '/s1.yaml': secret('c2VjcmV0'), '/s2.yaml': secret('bmV3') } });
    b.run('kubectl apply -f /s1.yaml');
    const out = b.run('kubectl diff -f /s2.yaml').stdout;
    expect(out).toContain('-  password: \'*** (before)\'\n+  password: \'*** (after)\'\n');
    expect(out).toContain('   user: \'***\'\n');
    expect(out).toContain('+      {"apiVersion":"v1","data":{"password":"bmV3","user":"YWRtaW4="}');
  });

  it('errors exit 2 (kubectl adds one to its usual code so that 1 keeps meaning "differences")', () => {
    const b = bench();
    expect(b.run('kubectl diff')).toEqual({ stdout: '', stderr: 'error: must specify one of -f and -k\n', code: 2 });
    expect(b.run('kubectl diff -f /nope.yaml')).toMatchObject({ stderr: 'error: the path "/nope.yaml" does not exist\n', code: 2 });
    expect(b.run('kubectl diff -f /x.yaml extra')).toMatchObject({ code: 2 });
    // The dry run's error as the server gave it: diff.go does not add apply's `error when creating "..."`.
    b.files.write('/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: nope\n');
    expect(b.run('kubectl diff -f /cm.yaml')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): namespaces "nope" not found\n', code: 2 });
  });
});
