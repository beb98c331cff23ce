import { describe, expect, it } from 'vitest';
import { bench } from './testing';
import { compactPolicyRules } from './describe';

// Layouts of staging/src/k8s.io/kubectl/pkg/describe/describe.go for the kinds that used to fall
// back to the generic describer: Endpoints, PersistentVolume, StorageClass, Ingress, Role,
// ClusterRole, RoleBinding, ClusterRoleBinding.

describe('kubectl describe of the other common kinds', () => {
  it('endpoints: one block per subset with the ports table', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web', namespace: 'default' },
      subsets: [{ addresses: [{ ip: '10.244.1.2' }, { ip: '10.244.2.3' }], notReadyAddresses: [{ ip: '10.244.1.9' }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }, { port: 9090, protocol: 'TCP' }] }],
    } as never);
    expect(b.run('kubectl describe endpoints web').stdout).toBe(`Name:         web
Namespace:    default
Labels:       <none>
Annotations:  <none>
Subsets:
  Addresses:          10.244.1.2,10.244.2.3
  NotReadyAddresses:  10.244.1.9
  Ports:
    Name     Port  Protocol
    ----     ----  --------
    http     8080  TCP
    <unset>  9090  TCP

Events:  <none>
`);
  });

  it('persistentvolume: claim, node affinity terms and the hostPath source', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1', annotations: { 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' } },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: 'standard',
        claimRef: { namespace: 'shop', name: 'data' },
        hostPath: { path: '/var/local-path-provisioner/pv-1', type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['worker-1'] }] }] } },
      },
    } as never);
    expect(b.run('kubectl describe pv pv-1').stdout).toBe(`Name:              pv-1
Labels:            <none>
Annotations:       pv.kubernetes.io/provisioned-by: rancher.io/local-path
Finalizers:        [kubernetes.io/pv-protection]
StorageClass:      standard
Status:            ${b.c.api.get('persistentvolumes', undefined, 'pv-1').status?.phase ?? ''}
Claim:             shop/data
Reclaim Policy:    Delete
Access Modes:      RWO
VolumeMode:        Filesystem
Capacity:          1Gi
Node Affinity:     
  Required Terms:  
    Term 0:        kubernetes.io/hostname in [worker-1]
Message:           
Source:
    Type:          HostPath (bare host directory volume)
    Path:          /var/local-path-provisioner/pv-1
    HostPathType:  DirectoryOrCreate
Events:            <none>
`);
  });

  it('storageclass: IsDefaultClass and the annotations on one line', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    } as never);
    expect(b.run('kubectl describe storageclass fast').stdout).toBe(`Name:                  fast
IsDefaultClass:        Yes
Annotations:           storageclass.kubernetes.io/is-default-class=true
Provisioner:           rancher.io/local-path
Parameters:            <none>
AllowVolumeExpansion:  <unset>
MountOptions:          <none>
ReclaimPolicy:         Delete
VolumeBindingMode:     WaitForFirstConsumer
Events:                <none>
`);
  });

  it('role and clusterrole: the compacted PolicyRule table, without a Namespace line', () => {
    // Sorted by PolicyRule.String(), which starts with the verbs: `[get list]` < `[get]` (' ' < ']'),
    // and `pods/log` < `pods` (']' > '/').
    const b = bench();
    b.c.api.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'reader', namespace: 'default' },
      rules: [
        { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['watch'] },
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
        { apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'], verbs: ['get'] },
      ],
    } as never);
    expect(b.run('kubectl describe role reader').stdout).toBe(`Name:         reader
Labels:       <none>
Annotations:  <none>
PolicyRule:
  Resources         Non-Resource URLs  Resource Names  Verbs
  ---------         -----------------  --------------  -----
  pods/log          []                 []              [get list]
  pods              []                 []              [get list]
  configmaps        []                 [a]             [get]
  configmaps        []                 [b]             [get]
  deployments.apps  []                 []              [watch get]
`);
    b.c.api.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'health' },
      rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
    } as never);
    expect(b.run('kubectl describe clusterrole health').stdout).toContain('  Resources  Non-Resource URLs  Resource Names  Verbs\n  ---------  -----------------  --------------  -----\n             [/healthz]         []              [get]\n');
  });

  it('rolebinding and clusterrolebinding: Role and the Subjects table', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'read', namespace: 'default' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
        { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:nodes' },
      ],
    } as never);
    expect(b.run('kubectl describe rolebinding read').stdout).toBe(`Name:         read
Labels:       <none>
Annotations:  <none>
Role:
  Kind:  Role
  Name:  reader
Subjects:
  Kind            Name          Namespace
  ----            ----          ---------
  ServiceAccount  default       default
  Group           system:nodes  
`);
  });

  it('ingress: rules with their backends and endpoints, class and default backend', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } } as never);
    b.run('kubectl create ingress shop --rule=shop.local/*=web:80 --rule=shop.local/api=missing:http --class=nginx');
    expect(b.run('kubectl describe ingress shop').stdout).toBe(`Name:             shop
Labels:           <none>
Namespace:        default
Address:          
Ingress Class:    nginx
Default backend:  <default>
Rules:
  Host        Path  Backends
  ----        ----  --------
  shop.local  
              /      web:80 (<none>)
              /api   missing:http (<error: services "missing" not found>)
Annotations:  <none>
Events:       <none>
`);
  });

  it('a LimitRange Container item with only min gets defaultRequest from it, and no empty default map (omitempty)', () => {
    const b = bench();
    b.c.api.create({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'only-min', namespace: 'default' }, spec: { limits: [{ type: 'Container', min: { cpu: '100m' } }] } } as never);
    expect(b.run("kubectl get limitrange only-min -o jsonpath='{.spec.limits[0]}'").stdout).toBe('{"defaultRequest":{"cpu":"100m"},"min":{"cpu":"100m"},"type":"Container"}');
  });

  it('limitrange (defaulted as SetDefaults_LimitRangeItem) and the namespace with its quotas and limits', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr', namespace: 'default' },
      spec: {
        limits: [
          { type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } },
          { type: 'Pod', max: { cpu: '2' } },
        ],
      },
    } as never);
    b.run('kubectl create quota q --hard=pods=10,requests.cpu=2');
    b.c.run(2000);
    // defaultRequest.memory comes from default.memory; the Pod item gets no defaults.
    expect(b.run("kubectl get limitrange lr -o jsonpath='{.spec.limits[0].defaultRequest}'").stdout).toBe('{"cpu":"100m","memory":"256Mi"}');
    expect(b.run('kubectl describe limitrange lr').stdout).toBe(`Name:       lr
Namespace:  default
Type        Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
----        --------  ---  ---  ---------------  -------------  -----------------------
Container   cpu       -    1    100m             500m           -
Container   memory    -    -    256Mi            256Mi          -
Pod         cpu       -    2    -                -              -
`);
    expect(b.run('kubectl describe ns default').stdout).toBe(`Name:         default
Labels:       kubernetes.io/metadata.name=default
Annotations:  <none>
Status:       Active

Resource Quotas
  Name:         q
  Resource      Used  Hard
  --------      ---   ---
  pods          0     10
  requests.cpu  0     2

Resource Limits
 Type       Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
 ----       --------  ---  ---  ---------------  -------------  -----------------------
 Container  cpu       -    1    100m             500m           -
 Container  memory    -    -    256Mi            256Mi          -
 Pod        cpu       -    2    -                -              -
`);
  });

  it('ingressclass: Controller and Parameters', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx', labels: { 'app.kubernetes.io/name': 'ingress-nginx' } },
      spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } },
    } as never);
    expect(b.run('kubectl describe ingressclass nginx').stdout).toBe(`Name:         nginx
Labels:       app.kubernetes.io/name=ingress-nginx
Annotations:  <none>
Controller:   k8s.io/ingress-nginx
Parameters:
  APIGroup:  k8s.example.com
  Kind:      IngressParameters
  Name:      external-lb
Events:      <none>
`);
    // (The tab-free "Parameters:" line ends tabwriter's column block, so the rows below align anew.)
  });
});

describe('compactPolicyRules', () => {
  it('merges the verbs of simple rules and keeps SortableRuleSlice order (by PolicyRule.String(), verbs first)', () => {
    const out = compactPolicyRules([
      { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch', 'patch'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
      { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
    ]);
    expect(out.map((r) => `${r.resources[0]}:${r.verbs.join(' ')}`)).toEqual(['configmaps:get', 'nodes:list watch patch', 'pods:list watch', 'networkpolicies:list watch']);
  });
});
