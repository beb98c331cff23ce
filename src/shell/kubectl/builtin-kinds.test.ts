/**
 * The built-in API kinds of a v1.35 kind cluster as kubectl shows them: `kubectl api-resources`,
 * the `kubectl get` columns of pkg/printers/internalversion/printers.go for the kinds added
 * (ReplicationController, PodDisruptionBudget, HorizontalPodAutoscaler, ResourceQuota,
 * NetworkPolicy, LimitRange, ...), and `kubectl drain` evicting through the eviction
 * subresource, retrying every 5 s while a PodDisruptionBudget refuses
 * (staging/src/k8s.io/kubectl/pkg/drain/drain.go `evictPods`).
 */
import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml } from './testing';

const rowsOf = (out: string) => out.trimEnd().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('kubectl api-resources: every built-in resource of a v1.35 cluster', () => {
  it('lists the 65 built-in types with their short names, versions and scope', () => {
    const b = bench({ controllers: [] });
    const r = b.run('kubectl api-resources');
    expect(r.code).toBe(0);
    const rows = rowsOf(r.stdout);
    expect(rows[0]).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    expect(rows).toHaveLength(66);
    const line = (name: string, group = '') => r.stdout.split('\n').find((l) => l.startsWith(name + ' ') && l.includes(` ${group}`))!.trim().split(/\s+/);
    expect(line('bindings')).toEqual(['bindings', 'v1', 'true', 'Binding']);
    expect(line('limitranges')).toEqual(['limitranges', 'limits', 'v1', 'true', 'LimitRange']);
    expect(line('podtemplates')).toEqual(['podtemplates', 'v1', 'true', 'PodTemplate']);
    expect(line('replicationcontrollers')).toEqual(['replicationcontrollers', 'rc', 'v1', 'true', 'ReplicationController']);
    expect(line('resourcequotas')).toEqual(['resourcequotas', 'quota', 'v1', 'true', 'ResourceQuota']);
    expect(line('horizontalpodautoscalers')).toEqual(['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', 'true', 'HorizontalPodAutoscaler']);
    expect(line('poddisruptionbudgets')).toEqual(['poddisruptionbudgets', 'pdb', 'policy/v1', 'true', 'PodDisruptionBudget']);
    expect(line('networkpolicies')).toEqual(['networkpolicies', 'netpol', 'networking.k8s.io/v1', 'true', 'NetworkPolicy']);
    expect(line('certificatesigningrequests')).toEqual(['certificatesigningrequests', 'csr', 'certificates.k8s.io/v1', 'false', 'CertificateSigningRequest']);
    expect(line('apiservices')).toEqual(['apiservices', 'apiregistration.k8s.io/v1', 'false', 'APIService']);
    expect(line('runtimeclasses')).toEqual(['runtimeclasses', 'node.k8s.io/v1', 'false', 'RuntimeClass']);
    expect(line('flowschemas')).toEqual(['flowschemas', 'flowcontrol.apiserver.k8s.io/v1', 'false', 'FlowSchema']);
    expect(line('volumeattributesclasses')).toEqual(['volumeattributesclasses', 'vac', 'storage.k8s.io/v1', 'false', 'VolumeAttributesClass']);
    expect(line('events', 'events.k8s.io')).toEqual(['events', 'ev', 'events.k8s.io/v1', 'true', 'Event']);
    expect(line('deviceclasses')).toEqual(['deviceclasses', 'resource.k8s.io/v1', 'false', 'DeviceClass']);
  });

  it('-o wide shows create-only review APIs and the `all` / `api-extensions` categories', () => {
    const b = bench({ controllers: [] });
    const wide = b.run('kubectl api-resources -o wide').stdout;
    const row = (name: string) => wide.split('\n').find((l) => l.startsWith(name + ' '))!.trim().split(/\s+/);
    expect(row('tokenreviews')).toEqual(['tokenreviews', 'authentication.k8s.io/v1', 'false', 'TokenReview', 'create']);
    expect(row('subjectaccessreviews')).toEqual(['subjectaccessreviews', 'authorization.k8s.io/v1', 'false', 'SubjectAccessReview', 'create']);
    expect(row('replicationcontrollers').slice(-1)).toEqual(['all']);
    expect(row('horizontalpodautoscalers').slice(-1)).toEqual(['all']);
    expect(row('mutatingwebhookconfigurations').slice(-1)).toEqual(['api-extensions']);
    expect(row('apiservices').slice(-1)).toEqual(['api-extensions']);
    const names = b.run('kubectl api-resources --categories=all -o name').stdout;
    expect(names).toContain('replicationcontrollers\n');
    expect(names).toContain('horizontalpodautoscalers.autoscaling\n');
  });
});

describe('kubectl get for the added kinds', () => {
  it('an empty list of each reads "No resources found", not "the server doesn\'t have a resource type"', () => {
    const b = bench({ controllers: [] });
    for (const t of ['networkpolicy', 'hpa', 'pdb', 'resourcequota', 'limitrange', 'rc', 'podtemplates', 'netpol', 'quota', 'limits']) {
      expect(b.run(`kubectl get ${t}`)).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', code: 0 });
    }
    for (const t of ['csr', 'apiservices', 'runtimeclass', 'csidrivers', 'csinodes', 'volumeattachments', 'flowschemas', 'prioritylevelconfigurations']) {
      expect(b.run(`kubectl get ${t}`)).toEqual({ stdout: '', stderr: 'No resources found\n', code: 0 });
    }
  });

  it('HPA without metrics: TARGETS `cpu: <unknown>/50%`, MINPODS, MAXPODS, REPLICAS', () => {
    const b = bench({ controllers: [] });
    const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;
    expect(b.run('kubectl apply -f -', { stdin: hpa }).stdout).toBe('horizontalpodautoscaler.autoscaling/web created\n');
    expect(rowsOf(b.run('kubectl get hpa').stdout)).toEqual([
      ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE'],
      ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', '10', '0', '0s'],
    ]);
  });

  it('NetworkPolicy POD-SELECTOR, LimitRange CREATED AT, ResourceQuota AGE REQUEST LIMIT', () => {
    const b = bench({ controllers: ['resourcequota'] });
    const yaml = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Ingress]
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: Container
    default: {cpu: 500m}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: rq}
spec:
  hard: {pods: "4", requests.cpu: "2", limits.memory: 1Gi}
`;
    expect(b.run('kubectl apply -f -', { stdin: yaml }).stdout).toBe('networkpolicy.networking.k8s.io/deny created\nlimitrange/lr created\nresourcequota/rq created\n');
    b.c.run(1000);
    expect(rowsOf(b.run('kubectl get netpol').stdout)).toEqual([
      ['NAME', 'POD-SELECTOR', 'AGE'],
      ['deny', 'app=web', '1s'],
    ]);
    expect(rowsOf(b.run('kubectl get limits').stdout)[0]).toEqual(['NAME', 'CREATED AT']);
    expect(rowsOf(b.run('kubectl get quota').stdout)).toEqual([
      ['NAME', 'AGE', 'REQUEST', 'LIMIT'],
      ['rq', '1s', 'pods: 0/4, requests.cpu: 0/2', 'limits.memory: 0/1Gi'],
    ]);
  });

  it('PDB and RC columns', () => {
    const b = bench({ controllers: ['replicationcontroller', 'disruption'] });
    const yaml = `apiVersion: v1
kind: ReplicationController
metadata: {name: nginx}
spec:
  replicas: 2
  selector: {app: nginx}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: nginx}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: nginx}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: nginx}}
`;
    b.run('kubectl apply -f -', { stdin: yaml });
    b.c.run(20_000);
    expect(rowsOf(b.run('kubectl get rc').stdout)).toEqual([
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
      ['nginx', '2', '2', '2', '20s'],
    ]);
    expect(rowsOf(b.run('kubectl get pdb').stdout)).toEqual([
      ['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE'],
      ['nginx', 'N/A', '1', '1', '20s'],
    ]);
    expect(b.run('kubectl get all').stdout).toContain('replicationcontroller/nginx   2         2         2       20s');
  });

  it('describe pdb / quota / rc as describe.go prints them', () => {
    const b = bench({ controllers: ['replicationcontroller', 'disruption', 'resourcequota'] });
    b.run('kubectl apply -f -', {
      stdin: `apiVersion: v1
kind: ReplicationController
metadata: {name: nginx}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers: [{name: nginx, image: nginx, resources: {requests: {cpu: 100m}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: nginx}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: nginx}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: rq}
spec:
  hard: {pods: "10", requests.cpu: "4"}
`,
    });
    b.c.run(20_000);
    expect(b.run('kubectl describe pdb nginx').stdout).toBe(
      'Name:           nginx\nNamespace:      default\nMin available:  1\nSelector:       app=nginx\nStatus:\n    Allowed disruptions:  1\n    Current:              2\n    Desired:              1\n    Total:                2\n' +
        // Created in the same apply as the RC: the first sync saw no pods yet.
        'Events:\n  Type    Reason  Age   From                   Message\n  ----    ------  ----  ----                   -------\n  Normal  NoPods  20s   disruption-controller  No matching pods found\n',
    );
    expect(b.run('kubectl describe quota rq').stdout).toBe('Name:         rq\nNamespace:    default\nResource      Used  Hard\n--------      ----  ----\npods          2     10\nrequests.cpu  200m  4\n');
    const rc = b.run('kubectl describe rc nginx').stdout;
    expect(rc).toContain('Selector:     app=nginx\n');
    expect(rc).toContain('Replicas:     2 current / 2 desired\nPods Status:  2 Running / 0 Waiting / 0 Succeeded / 0 Failed\n');
    expect(rc).toMatch(/Normal {2}SuccessfulCreate {2}20s {3}replication-controller {2}Created pod: nginx-[a-z0-9]{5}\n/);
  });
});

describe('kubectl drain evicts through the eviction subresource', () => {
  it('a PodDisruptionBudget with no disruption left: 429, the retry line every 5 s, until --timeout', () => {
    const b = bench({ controllers: ['replicaset', 'deployment', 'disruption'] });
    b.c.run(2000);
    b.c.apply(deploymentYaml('web', 1));
    b.c.apply(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
`);
    b.c.run(10_000);
    const [pod] = b.c.pods('default', 'app=web');
    const node = pod.spec.nodeName;
    const name = pod.metadata.name!;
    const r = b.run(`kubectl drain ${node} --timeout=12s`, { stepMs: 500 });
    const retry = `error when evicting pods/"${name}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`;
    expect(r.stdout).toBe(`node/${node} cordoned\n` + `evicting pod default/${name}\n`.repeat(3));
    const timeout = `error when evicting pods/"${name}" -n "default": global timeout reached: 12s`;
    expect(r.stderr).toBe(
      `${retry}\n`.repeat(3) +
        `There are pending pods in node "${node}" when an error occurred: ${timeout}\npod/${name}\n` +
        `error: unable to drain node "${node}" due to error: ${timeout}, continuing command...\nThere are pending nodes to be drained:\n ${node}\n${timeout}\n`,
    );
    expect(r.code).toBe(1);
    expect(b.c.api.get('pods', 'default', name).metadata.deletionTimestamp).toBeUndefined();
  });

  it('when the budget allows it, the pod is evicted and the node drained', () => {
    const b = bench({ controllers: ['replicaset', 'deployment', 'disruption'] });
    b.c.run(2000);
    b.c.apply(deploymentYaml('web', 2));
    b.c.apply(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: web}}
`);
    b.c.run(10_000);
    const node = 'worker-1';
    const mine = b.c.pods('default', 'app=web').filter((p) => p.spec.nodeName === node);
    const r = b.run(`kubectl drain ${node}`);
    expect(r.stderr).toBe('');
    for (const p of mine) expect(r.stdout).toContain(`evicting pod default/${p.metadata.name}\n`);
    expect(r.stdout.endsWith(`node/${node} drained\n`)).toBe(true);
    expect(r.code).toBe(0);
  });
});
