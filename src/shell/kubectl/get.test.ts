import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';
import { RememberingTabWriter, naturalLess, sortObjects } from './get';
import type { KubeObject } from '../../engine/api/types';

/** The seed's kind cluster: three nodes named as kind names them. */
const KIND_NODES = [
  { name: 'k8s-lab-control-plane', labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
  { name: 'k8s-lab-worker' },
  { name: 'k8s-lab-worker2' },
];

/** kube-system pods as the seed lists them (created bound, so only the table matters). */
function seedKubeSystem(b: ReturnType<typeof bench>): void {
  const pods: [string, string][] = [
    ['coredns-589f44dc88-8d99k', 'k8s-lab-control-plane'],
    ['coredns-589f44dc88-kzr5x', 'k8s-lab-control-plane'],
    ['etcd-k8s-lab-control-plane', 'k8s-lab-control-plane'],
    ['kindnet-46mqk', 'k8s-lab-control-plane'],
    ['kindnet-9vtqq', 'k8s-lab-worker2'],
    ['kindnet-wmxxt', 'k8s-lab-worker'],
    ['kube-apiserver-k8s-lab-control-plane', 'k8s-lab-control-plane'],
    ['kube-controller-manager-k8s-lab-control-plane', 'k8s-lab-control-plane'],
    ['kube-proxy-4lhvp', 'k8s-lab-control-plane'],
    ['kube-proxy-pkhvx', 'k8s-lab-worker2'],
    ['kube-proxy-tp9xb', 'k8s-lab-worker'],
    ['kube-scheduler-k8s-lab-control-plane', 'k8s-lab-control-plane'],
  ];
  const cp = b.c.api.get('nodes', undefined, 'k8s-lab-control-plane');
  for (const [name, node] of pods) {
    const mirror = name.endsWith('-k8s-lab-control-plane');
    b.c.api.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'kube-system',
        ...(mirror ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'k8s-lab-control-plane', uid: cp.metadata.uid!, controller: true }] } : {}),
      },
      spec: { nodeName: node, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }], tolerations: [{ operator: 'Exists' }] },
    });
  }
}

describe('kubectl get', () => {
  it("prints the seed's custom-columns and jsonpath lines", () => {
    const b = bench({ nodes: KIND_NODES });
    b.c.run(2000);
    seedKubeSystem(b);
    b.c.run(3000);
    expect(b.run('kubectl get pods -n kube-system -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName')).toEqual({
      stdout: `NAME                                            NODE
coredns-589f44dc88-8d99k                        k8s-lab-control-plane
coredns-589f44dc88-kzr5x                        k8s-lab-control-plane
etcd-k8s-lab-control-plane                      k8s-lab-control-plane
kindnet-46mqk                                   k8s-lab-control-plane
kindnet-9vtqq                                   k8s-lab-worker2
kindnet-wmxxt                                   k8s-lab-worker
kube-apiserver-k8s-lab-control-plane            k8s-lab-control-plane
kube-controller-manager-k8s-lab-control-plane   k8s-lab-control-plane
kube-proxy-4lhvp                                k8s-lab-control-plane
kube-proxy-pkhvx                                k8s-lab-worker2
kube-proxy-tp9xb                                k8s-lab-worker
kube-scheduler-k8s-lab-control-plane            k8s-lab-control-plane
`,
      stderr: '',
      code: 0,
    });
    expect(b.run("kubectl get pod -n kube-system kube-scheduler-k8s-lab-control-plane -o jsonpath='{.metadata.ownerReferences[0].kind}'")).toEqual({ stdout: 'Node', stderr: '', code: 0 });
  });

  it('prints pod tables, wide, and the replacement after a delete', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 2));
    b.c.run(5000);
    const r = b.run('kubectl get pods');
    expect(r.stdout.split('\n')[0]).toBe('NAME                   READY   STATUS    RESTARTS   AGE');
    expect(r.stdout).toMatch(/^web-[a-z0-9]+-[a-z0-9]{5} {3}1\/1 {5}Running {3}0 {10}5s$/m);
    const names = b.c.pods().map((p) => p.metadata.name!);
    const del = b.run(`kubectl delete pod ${names[0]}`);
    expect(del.stdout).toBe(`pod "${names[0]}" deleted from default namespace\n`);
    const after = b.run('kubectl get pods').stdout;
    expect(after).not.toContain(names[0]);
    expect(after).toContain(names[1]);
    expect(after.trim().split('\n')).toHaveLength(3);
  });

  it('several types get kind prefixes and a blank line between tables', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 2));
    b.c.run(5000);
    expect(b.run('kubectl get deploy,svc').stdout).toBe(`NAME                  READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/web   2/2     2            2           5s

NAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE
service/kubernetes   ClusterIP   10.96.0.1    <none>        443/TCP   5s
`);
    const all = b.run('kubectl get all').stdout;
    expect(all).toContain('\nNAME                 TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\nservice/kubernetes');
    expect(all).toMatch(/^pod\/web-/m);
    expect(all).toMatch(/^replicaset\.apps\/web-/m);
  });

  it('errors and empty results', () => {
    const b = bench();
    expect(b.run('kubectl get pod nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', code: 1 });
    expect(b.run('kubectl get foo')).toEqual({ stdout: '', stderr: 'error: the server doesn\'t have a resource type "foo"\n', code: 1 });
    expect(b.run('kubectl get pods')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', code: 0 });
    expect(b.run('kubectl get pods -A').stderr).toBe('No resources found\n');
    expect(b.run('kubectl get pods -o name')).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(b.run('kubectl get pods -o custom-columns=NAME:.metadata.name').stdout).toBe('NAME\n');
    expect(b.run('kubectl get pods -o yaml').stdout).toBe('apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: ""\n');
    expect(b.run('kubectl get pods -o foo').stderr).toBe(
      'error: unable to match a printer suitable for the output format "foo", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml\n',
    );
    expect(b.run('kubectl get').stderr).toBe(
      'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples\n',
    );
    expect(b.run('kubectl get pods/').stderr).toBe('error: arguments in resource/name form must have a single resource and name\n');
    expect(b.run('kubectl get pods pod/x').stderr).toBe(
      "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'\n",
    );
  });

  it('found objects are printed before the NotFound of the missing ones', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } });
    const r = b.run('kubectl get cm nope a nope2');
    expect(r.stdout).toBe('NAME   DATA   AGE\na      0      0s\n');
    expect(r.stderr).toBe('Error from server (NotFound): configmaps "nope" not found\nError from server (NotFound): configmaps "nope2" not found\n');
    expect(r.code).toBe(1);
    expect(b.run('kubectl get cm nope --ignore-not-found')).toEqual({ stdout: '', stderr: '', code: 0 });
  });

  it('selectors, labels, sorting and name output', () => {
    const b = bench();
    for (const [n, tier] of [['b', 'web'], ['a', 'db'], ['c', 'web']]) {
      b.c.api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, namespace: 'default', labels: { tier } }, data: { k: n } });
    }
    expect(b.run('kubectl get cm -l tier=web -o name').stdout).toBe('configmap/b\nconfigmap/c\n');
    expect(b.run('kubectl get cm --field-selector metadata.name=a -o name').stdout).toBe('configmap/a\n');
    expect(b.run('kubectl get cm -L tier --show-labels').stdout).toBe(`NAME   DATA   AGE   TIER   LABELS
a      1      0s    db     tier=db
b      1      0s    web    tier=web
c      1      0s    web    tier=web
`);
    expect(b.run('kubectl get cm --sort-by=.metadata.labels.tier --no-headers -o custom-columns=N:.metadata.name').stdout).toBe('a\nb\nc\n');
    expect(b.run('kubectl get cm b -o jsonpath={.data.k}').stdout).toBe('b');
  });

  it('componentstatuses follow the Leases of the scheduler and the controller-manager', () => {
    const b = bench();
    b.c.run(5000);
    expect(b.run('kubectl get componentstatuses')).toEqual({
      stdout: 'NAME                 STATUS    MESSAGE   ERROR\nscheduler            Healthy   ok        \ncontroller-manager   Healthy   ok        \netcd-0               Healthy   ok        \n',
      stderr: 'Warning: v1 ComponentStatus is deprecated in v1.19+\n',
      code: 0,
    });
    b.c.stopScheduler();
    b.c.run(20_000);
    expect(b.run('kubectl get cs').stdout).toBe(
      // the kubesphere/kubesphere#5498 and easzlab/kubeasz#1000 transcripts: the text in MESSAGE
      'NAME                 STATUS      MESSAGE                                                                                        ERROR\n' +
        'scheduler            Unhealthy   Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused   \n' +
        'controller-manager   Healthy     ok                                                                                             \n' +
        'etcd-0               Healthy     ok                                                                                             \n',
    );
  });

  it('while kube-apiserver is down: discovery log lines and the connection-refused line', () => {
    const b = bench();
    b.c.api.setAvailability('down');
    const r = b.run('kubectl get pods');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(
      /^E0105 06:00:00\.\d{6} +\d+ memcache\.go:265\] "Unhandled Error" err="couldn't get current server API group list: Get \\"https:\/\/127\.0\.0\.1:6443\/api\?timeout=32s\\": dial tcp 127\.0\.0\.1:6443: connect: connection refused"$/,
    );
    expect(lines[5]).toBe('The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?');
    expect(r.code).toBe(1);
  });

  it('-w prints new rows as objects change, headers once, widths only growing', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(5000);
    const pod = b.c.pods()[0].metadata.name!;
    const h = b.start('kubectl get pods -w');
    expect(h.pending).toBeDefined();
    expect(h.out.stdout).toBe(`NAME                   READY   STATUS    RESTARTS   AGE\n${pod}   1/1     Running   0          5s\n`);
    b.c.api.delete('pods', 'default', pod);
    expect(h.advance(5000)).toBeUndefined();
    const lines = h.out.stdout.split('\n');
    expect(lines).toContain(`${pod}   1/1     Terminating   0          5s`);
    expect(lines.some((l) => /^web-\S+ +0\/1 +Pending +0 +0s$/.test(l))).toBe(true);
    expect(lines.filter((l) => l.startsWith('NAME'))).toHaveLength(1);
    h.pending!.cancel();
    const only = b.start('kubectl get pods --watch-only --output-watch-events');
    expect(only.out.stdout).toBe('');
    b.run('kubectl label pods --all x=y');
    only.advance(100);
    expect(only.out.stdout).toMatch(/^EVENT {6}NAME +READY +STATUS +RESTARTS +AGE\nMODIFIED {3}web-/);
  });

  it('--raw health endpoints', () => {
    const b = bench();
    expect(b.run('kubectl get --raw /healthz')).toEqual({ stdout: 'ok', stderr: '', code: 0 });
    expect(b.run('kubectl get --raw /nope').stderr).toBe('Error from server (NotFound): the server could not find the requested resource\n');
    b.c.api.setAvailability('down');
    expect(b.run('kubectl get --raw /readyz').stderr).toBe('The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?\n');
  });

  it('watching several types is refused', () => {
    const b = bench();
    expect(b.run('kubectl get pods,svc -w').stderr).toBe('error: watch is only supported on individual resources and resource collections, but 2 resources were found\n');
  });
});

describe('get helpers', () => {
  it('natural order', () => {
    expect(naturalLess('pod-2', 'pod-10')).toBe(true);
    expect(naturalLess('b', 'a')).toBe(false);
  });

  it('--sort-by puts objects without the field first', () => {
    const o = (name: string, n?: number) => ({ apiVersion: 'v1', kind: 'X', metadata: { name }, ...(n === undefined ? {} : { spec: { n } }) }) as KubeObject;
    expect(sortObjects([o('a', 10), o('b'), o('c', 2)], '.spec.n').map((x) => x.metadata.name)).toEqual(['b', 'c', 'a']);
  });

  it('--sort-by with a path no object has is an error (sorter.go NewTableSorter / SortObjects), not a silent no-op', () => {
    const b = bench();
    for (const n of ['a', 'b']) expect(b.run(`kubectl create configmap ${n} --from-literal=k=${n}`).code).toBe(0);
    expect(b.run('kubectl get cm --sort-by=.spec.foo')).toMatchObject({ stdout: '', stderr: 'error: couldn\'t find any field with path "{.spec.foo}" in the list of objects\n', code: 1 });
    expect(b.run('kubectl get cm --sort-by=foo -o name')).toMatchObject({ stdout: '', stderr: 'error: couldn\'t find any field with path "{.foo}" in the list of objects\n', code: 1 });
    // One object and no table: kubectl does not sort at all.
    expect(b.run('kubectl get cm a --sort-by=.foo -o name')).toMatchObject({ stdout: 'configmap/a\n', code: 0 });
    // A table of one row is still sorted, so still checked.
    expect(b.run('kubectl get cm a --sort-by=.foo').code).toBe(1);
    // A field some objects have is fine: those without it come first.
    expect(b.run('kubectl create configmap c --from-literal=other=x').code).toBe(0);
    expect(b.run('kubectl get cm --sort-by=.data.k -o name').stdout).toBe('configmap/c\nconfigmap/a\nconfigmap/b\n');
  });

  it('resource.version.group (the Deployment docs\' deployment.v1.apps/NAME) resolves as builder.go mappingFor does', () => {
    const b = bench();
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(2000);
    expect(b.run('kubectl get deployment.v1.apps -o name').stdout).toBe('deployment.apps/web\n');
    expect(b.run('kubectl get deployments.v1.apps/web -o name').stdout).toBe('deployment.apps/web\n');
    expect(b.run('kubectl rollout history deployment.v1.apps/web').stdout).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n\n');
    expect(b.run('kubectl set image deployment.v1.apps/web web=nginx:1.28').stdout).toBe('deployment.apps/web image updated\n');
    expect(b.run('kubectl get cj.v1.batch').stderr).toBe('No resources found in default namespace.\n');
    // A version the group does not serve, or an unknown resource with a group: the error names
    // only the resource (the GroupResource's Resource).
    expect(b.run('kubectl get deployment.v2.apps')).toMatchObject({ stderr: 'error: the server doesn\'t have a resource type "deployment"\n', code: 1 });
    expect(b.run('kubectl get foo.apps')).toMatchObject({ stderr: 'error: the server doesn\'t have a resource type "foo"\n', code: 1 });
  });

  it('remembers column widths across flushes', () => {
    const tw = new RememberingTabWriter();
    expect(tw.write([['NAME', 'STATUS', 'AGE'], ['a', 'Running', '1s']])).toBe('NAME   STATUS    AGE\na      Running   1s\n');
    expect(tw.write([['a', 'Terminating', '2s']])).toBe('a      Terminating   2s\n');
    expect(tw.write([['a', 'Running', '3s']])).toBe('a      Running       3s\n');
  });
});
