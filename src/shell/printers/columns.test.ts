/**
 * Server-side columns: each kind's cells as pkg/printers/internalversion/printers.go computes
 * them (the layout around them is pinned to real kubectl in golden.test.ts). Expected
 * values follow printers.go and the reference doc (k8s-semantics.md 6.1 and 9.1).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../engine/api/types';
import { buildTable, printTable, printTables } from './columns';
import { ago, at, EPOCH_MS, NOW_MS, ofKind, pod, SHELF_CRD_SPEC } from './testdata';

const ctx = { nowMs: NOW_MS, epochMs: EPOCH_MS };
const cells = (kind: string, objs: KubeObject[], crd?: KubeObject) => buildTable(objs, { kind, crd, ...ctx }).rows.map((r) => r.cells);
const headers = (kind: string, crd?: KubeObject) => buildTable([], { kind, crd, ...ctx }).columnDefinitions.map((c) => (c.priority ? `(${c.name})` : c.name));
const row = (kind: string, o: KubeObject) => cells(kind, [o])[0];
const named = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name) as KubeObject;

describe('column sets (printers.go AddHandlers)', () => {
  it.each([
    ['Pod', 'Name Ready Status Restarts Age (IP) (Node) (Nominated Node) (Readiness Gates)'],
    ['Deployment', 'Name Ready Up-to-date Available Age (Containers) (Images) (Selector)'],
    ['ReplicaSet', 'Name Desired Current Ready Age (Containers) (Images) (Selector)'],
    ['StatefulSet', 'Name Ready Age (Containers) (Images)'],
    ['DaemonSet', 'Name Desired Current Ready Up-to-date Available Node Selector Age (Containers) (Images) (Selector)'],
    ['Job', 'Name Status Completions Duration Age (Containers) (Images) (Selector)'],
    ['CronJob', 'Name Schedule Timezone Suspend Active Last Schedule Age (Containers) (Images) (Selector)'],
    ['Service', 'Name Type Cluster-IP External-IP Port(s) Age (Selector)'],
    ['EndpointSlice', 'Name AddressType Ports Endpoints Age'],
    ['Node', 'Name Status Roles Age Version (Internal-IP) (External-IP) (OS-Image) (Kernel-Version) (Container-Runtime)'],
    ['Namespace', 'Name Status Age'],
    ['ConfigMap', 'Name Data Age'],
    ['Secret', 'Name Type Data Age'],
    ['ServiceAccount', 'Name Secrets Age'],
    ['Event', 'Last Seen Type Reason Object (Subobject) (Source) Message (First Seen) (Count) (Name)'],
    ['Lease', 'Name Holder Age'],
    ['PersistentVolume', 'Name Capacity Access Modes Reclaim Policy Status Claim StorageClass VolumeAttributesClass Reason Age (VolumeMode)'],
    ['PersistentVolumeClaim', 'Name Status Volume Capacity Access Modes StorageClass VolumeAttributesClass Age (VolumeMode)'],
    ['StorageClass', 'Name Provisioner ReclaimPolicy VolumeBindingMode AllowVolumeExpansion Age'],
    ['Ingress', 'Name Class Hosts Address Ports Age'],
    ['IngressClass', 'Name Controller Parameters Age'],
    ['RoleBinding', 'Name Role Age (Users) (Groups) (ServiceAccounts)'],
    ['ClusterRoleBinding', 'Name Role Age (Users) (Groups) (ServiceAccounts)'],
    ['Role', 'Name Created At'],
    ['ClusterRole', 'Name Created At'],
    ['CustomResourceDefinition', 'Name Created At'],
    ['PriorityClass', 'Name Value Global-Default Age PreemptionPolicy'],
    ['ControllerRevision', 'Name Controller Revision Age'],
    ['ComponentStatus', 'Name Status Message Error'],
    ['ValidatingWebhookConfiguration', 'Name Webhooks Age'],
  ])('%s', (kind, want) => {
    expect(headers(kind).join(' ')).toBe(want);
  });
});

describe('Pod (printPod)', () => {
  const status = (name: string) => row('Pod', named('Pod', name))[2];
  it.each([
    ['catalog-58544d89f4-4h2kb', 'Running'],
    ['catalog-58544d89f4-wlvdx', 'CrashLoopBackOff'],
    ['web-7d4b9c-pull', 'ErrImagePull'],
    ['web-7d4b9c-back', 'ImagePullBackOff'],
    ['orders-init', 'Init:0/1'],
    ['orders-initfail', 'Init:CrashLoopBackOff'],
    ['creating', 'ContainerCreating'],
    ['pending', 'Pending'],
    ['gated', 'SchedulingGated'],
    ['oom', 'OOMKilled'],
    ['migrate-job-x7k2p', 'Completed'],
    ['failed-job-k9z4q', 'Error'],
    ['signalled', 'Signal:15'],
    ['terminating', 'Terminating'],
    ['lost', 'Unknown'],
    ['half-done', 'NotReady'],
    ['sidecar', 'Running'],
  ])('%s -> %s', (name, want) => expect(status(name)).toBe(want));

  it('READY counts ready running containers over containers + sidecars', () => {
    expect(row('Pod', named('Pod', 'sidecar')).slice(1, 2)).toEqual(['2/2']);
    expect(row('Pod', named('Pod', 'half-done'))[1]).toBe('1/2');
  });
  it('RESTARTS shows the last termination age, init restarts only while initializing', () => {
    expect(row('Pod', named('Pod', 'catalog-58544d89f4-wlvdx'))[3]).toBe('4 (41s ago)');
    expect(row('Pod', named('Pod', 'orders-initfail'))[3]).toBe('2 (20s ago)');
    expect(row('Pod', named('Pod', 'sidecar'))[3]).toBe('1 (3m20s ago)');
    expect(row('Pod', named('Pod', 'catalog-58544d89f4-4h2kb'))[3]).toBe('0');
  });
  it('wide cells: IP, node, nominated node, readiness gates', () => {
    expect(row('Pod', named('Pod', 'catalog-58544d89f4-4h2kb')).slice(5)).toEqual(['10.244.1.5', 'k8s-lab-worker', '<none>', '<none>']);
    expect(row('Pod', named('Pod', 'nominated')).slice(5)).toEqual(['<none>', '<none>', 'k8s-lab-worker', '<none>']);
    expect(row('Pod', named('Pod', 'sidecar'))[8]).toBe('0/1');
  });
  it('the lowest-index non-running container decides, terminated without reason prints ExitCode:N', () => {
    const p = pod('multi', 'x', ago(10), {
      node: 'n',
      containers: [
        { name: 'a', image: 'i', state: { terminated: { exitCode: 3 } } },
        { name: 'b', image: 'i', state: { waiting: { reason: 'CreateContainerConfigError' } } },
      ],
    });
    expect(row('Pod', p)[2]).toBe('ExitCode:3');
  });
  it('init failures: Init:Error, Init:ExitCode:N, Init:Signal:N', () => {
    const init = (state: object) => pod('i', 'x', ago(10), { node: 'n', phase: 'Pending', initContainers: [{ name: 'init', image: 'i', state }], containers: [{ name: 'a', image: 'i', state: { waiting: { reason: 'PodInitializing' } } }] });
    expect(row('Pod', init({ terminated: { exitCode: 1, reason: 'Error' } }))[2]).toBe('Init:Error');
    expect(row('Pod', init({ terminated: { exitCode: 2 } }))[2]).toBe('Init:ExitCode:2');
    expect(row('Pod', init({ terminated: { exitCode: 137, signal: 9 } }))[2]).toBe('Init:Signal:9');
  });
  it('status.reason (Evicted) shows unless a container state overrides it', () => {
    const p = pod('ev', 'x', ago(10), { node: 'n', phase: 'Failed', reason: 'Evicted', containers: [{ name: 'a', image: 'i' }] });
    (p.status.containerStatuses as unknown[]).length = 0;
    expect(row('Pod', p)[2]).toBe('Evicted');
  });
  it('a finished pod being deleted keeps its phase status', () => {
    const p = pod('done', 'x', ago(10), { node: 'n', phase: 'Succeeded', deletionTimestamp: ago(1), containers: [{ name: 'a', image: 'i', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] });
    expect(row('Pod', p)[2]).toBe('Completed');
  });
});

describe('workloads', () => {
  it('Deployment READY is ready/spec.replicas; wide selector is the selector string', () => {
    expect(row('Deployment', named('Deployment', 'catalog'))).toEqual(['catalog', '1/2', 2, 1, '5m', 'catalog,log', 'bookshop:v1,busybox', 'app=catalog']);
  });
  it('ReplicaSet, StatefulSet, DaemonSet', () => {
    expect(row('ReplicaSet', named('ReplicaSet', 'coredns-589f44dc88')).slice(0, 5)).toEqual(['coredns-589f44dc88', 2, 2, 2, '10d']);
    expect(row('StatefulSet', named('StatefulSet', 'postgres'))).toEqual(['postgres', '1/1', '120m', 'postgres', 'postgres:17-alpine']);
    expect(row('DaemonSet', named('DaemonSet', 'kube-proxy')).slice(0, 8)).toEqual(['kube-proxy', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '10d']);
    expect(row('DaemonSet', named('DaemonSet', 'kindnet'))[6]).toBe('<none>');
  });
  it('Job STATUS, COMPLETIONS and DURATION', () => {
    expect(row('Job', named('Job', 'migrate')).slice(0, 5)).toEqual(['migrate', 'Complete', '1/1', '12s', '10m']);
    expect(row('Job', named('Job', 'report')).slice(0, 5)).toEqual(['report', 'Running', '0/1 of 3', '95s', '95s']);
    expect(row('Job', named('Job', 'broken')).slice(0, 4)).toEqual(['broken', 'Failed', '0/3', '66m']);
    expect(row('Job', named('Job', 'unstarted')).slice(0, 4)).toEqual(['unstarted', 'Suspended', '0/1', '']);
  });
  it('CronJob SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE', () => {
    expect(row('CronJob', named('CronJob', 'nightly')).slice(0, 7)).toEqual(['nightly', '0 3 * * *', '<none>', 'false', 0, '123m', '3d']);
    expect(row('CronJob', named('CronJob', 'tz')).slice(0, 7)).toEqual(['tz', '*/5 * * * *', 'Europe/Paris', '<unset>', 1, '<none>', '60s']);
  });
  it('ControllerRevision CONTROLLER is kind.group/name', () => {
    expect(cells('ControllerRevision', ofKind('ControllerRevision'))).toEqual([
      ['kindnet-6cc8bf5b6', 'daemonset.apps/kindnet', 1, '10d'],
      ['orphan-1', '<none>', 3, '10d'],
    ]);
  });
});

describe('networking', () => {
  it('Service TYPE, CLUSTER-IP, EXTERNAL-IP and PORT(S)', () => {
    expect(cells('Service', ofKind('Service', 'bookshop'))).toEqual([
      ['web', 'NodePort', '10.96.120.7', '<none>', '80:30080/TCP', '5m', 'app=web'],
      ['shop-lb', 'LoadBalancer', '10.96.33.2', '<pending>', '80:31234/TCP', '5m', '<none>'],
      ['postgres', 'ClusterIP', 'None', '<none>', '5432/TCP', '120m', 'app=postgres'],
      ['ext', 'ExternalName', '<none>', 'db.example.com', '<none>', '120m', '<none>'],
    ]);
    const lb = { ...named('Service', 'shop-lb'), status: { loadBalancer: { ingress: [{ ip: '172.18.0.9' }, { hostname: 'lb.example.com' }] } } };
    expect(row('Service', lb)[3]).toBe('172.18.0.9,lb.example.com');
  });
  it('EndpointSlice ports and endpoints, <unset> when empty', () => {
    expect(cells('EndpointSlice', ofKind('EndpointSlice'))).toEqual([
      ['kube-dns-7x2vb', 'IPv4', '53,53,9153', '10.244.0.3,10.244.0.2', '10d'],
      ['web-empty', 'IPv4', '<unset>', '<unset>', '5m'],
    ]);
  });
  it('Endpoints: up to 3 ip:port then + N more...', () => {
    expect(row('Endpoints', named('Endpoints', 'kube-dns'))[1]).toBe('10.244.0.2:53,10.244.0.3:53,10.244.0.2:53 + 3 more...');
  });
  it('Ingress CLASS HOSTS ADDRESS PORTS; IngressClass', () => {
    expect(cells('Ingress', ofKind('Ingress'))).toEqual([
      ['bookshop', 'nginx', 'bookshop.local,api.bookshop.local', '172.18.0.2', '80, 443', '60m'],
      ['catch-all', '<none>', '*', '', '80', '60m'],
    ]);
    expect(row('IngressClass', named('IngressClass', 'nginx'))).toEqual(['nginx', 'k8s.io/ingress-nginx', '<none>', '60m']);
  });
});

describe('Node (printNode)', () => {
  const node = named('Node', 'k8s-lab-worker');
  const withReady = (status: string | undefined, unschedulable = false) => ({
    ...node,
    spec: { ...node.spec, unschedulable },
    status: { ...node.status, conditions: status ? [{ type: 'Ready', status }] : [] },
  });
  it('STATUS: Ready, NotReady (False and Unknown), Unknown without a Ready condition, ,SchedulingDisabled', () => {
    expect(row('Node', withReady('True'))[1]).toBe('Ready');
    expect(row('Node', withReady('False'))[1]).toBe('NotReady');
    expect(row('Node', withReady('Unknown'))[1]).toBe('NotReady');
    expect(row('Node', withReady(undefined))[1]).toBe('Unknown');
    expect(row('Node', withReady('True', true))[1]).toBe('Ready,SchedulingDisabled');
  });
  it('ROLES from node-role.kubernetes.io/* and kubernetes.io/role, sorted, <none> without', () => {
    expect(row('Node', named('Node', 'k8s-lab-control-plane'))[2]).toBe('control-plane');
    expect(row('Node', node)[2]).toBe('<none>');
    const multi = { ...node, metadata: { ...node.metadata, labels: { 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'infra', 'node-role.kubernetes.io/': '' } } };
    expect(row('Node', multi)[2]).toBe('infra,worker');
  });
  it('wide: addresses and node info, <unknown> when empty', () => {
    expect(row('Node', node).slice(3)).toEqual(['10d', 'v1.32.2', '172.18.0.2', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.8.0-90-generic', 'containerd://2.0.3']);
    expect(row('Node', { ...node, status: {} }).slice(4)).toEqual(['', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });
});

describe('config, storage, rbac, misc', () => {
  it('ConfigMap DATA counts data + binaryData; Secret TYPE DATA; ServiceAccount SECRETS', () => {
    expect(cells('ConfigMap', ofKind('ConfigMap'))).toEqual([
      ['bookshop-config', 3, '5m'],
      ['kube-root-ca.crt', 1, '24h'],
    ]);
    expect(cells('Secret', ofKind('Secret'))).toEqual([
      ['bookshop-secrets', 'Opaque', 2, '5m'],
      ['tls', 'kubernetes.io/tls', 2, '5m'],
    ]);
    expect(row('ServiceAccount', named('ServiceAccount', 'default'))).toEqual(['default', 0, '24h']);
  });
  it('PV and PVC: canonical capacity, access modes, claim, <unset> attributes class', () => {
    expect(row('PersistentVolume', named('PersistentVolume', 'pvc-8e2c5b1a'))).toEqual([
      'pvc-8e2c5b1a', '1Gi', 'RWO', 'Delete', 'Bound', 'bookshop/data-postgres-0', 'standard', '<unset>', '', '120m', 'Filesystem',
    ]);
    expect(cells('PersistentVolumeClaim', ofKind('PersistentVolumeClaim'))).toEqual([
      ['data-postgres-0', 'Bound', 'pvc-8e2c5b1a', '1Gi', 'RWO', 'standard', '<unset>', '120m', 'Filesystem'],
      ['waiting', 'Pending', '', '', '', 'standard', '<unset>', '60s', '<unset>'],
    ]);
  });
  it('StorageClass marks the default and fills in Delete / Immediate / false', () => {
    expect(row('StorageClass', named('StorageClass', 'standard'))).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '10d']);
    expect(row('StorageClass', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'x', creationTimestamp: ago(5) }, provisioner: 'p' })).toEqual(['x', 'p', 'Delete', 'Immediate', false, '5s']);
  });
  it('Namespace, Lease, PriorityClass, ComponentStatus, RoleBinding', () => {
    expect(row('Namespace', named('Namespace', 'old'))).toEqual(['old', 'Terminating', '40s']);
    expect(cells('Lease', ofKind('Lease'))).toEqual([
      ['kube-scheduler', 'k8s-lab-control-plane_3f6e0a1c-52b6-4a43-9f0d-2b0b3c4d5e6f', '10d'],
      ['empty', '', '10d'],
    ]);
    expect(row('PriorityClass', named('PriorityClass', 'system-node-critical'))).toEqual(['system-node-critical', 2000001000, false, '10d', 'PreemptLowerPriority']);
    expect(row('ComponentStatus', named('ComponentStatus', 'etcd-0'))).toEqual(['etcd-0', 'Healthy', 'ok', '']);
    expect(row('RoleBinding', named('RoleBinding', 'shelf-reader'))).toEqual(['shelf-reader', 'Role/shelf-reader', '60m', 'jane', 'devs', 'bookshop/shelf-controller']);
  });
  it('kinds without a printer get NAME and CREATED AT (RFC 3339)', () => {
    expect(row('ClusterRole', named('ClusterRole', 'view'))).toEqual(['view', at(2)]);
    expect(row('Role', named('Role', 'shelf-reader'))).toEqual(['shelf-reader', ago(3600)]);
  });
});

describe('Event (printEvent)', () => {
  it('LAST SEEN, OBJECT kind/name, trimmed MESSAGE, wide SUBOBJECT SOURCE FIRST SEEN COUNT NAME', () => {
    expect(cells('Event', ofKind('Event'))).toEqual([
      ['14s', 'Warning', 'BackOff', 'pod/catalog-58544d89f4-wlvdx', 'spec.containers{catalog}', 'kubelet, k8s-lab-worker2', 'Back-off restarting failed container catalog in pod catalog-58544d89f4-wlvdx_bookshop(uid)', '4m50s', 4, 'catalog-58544d89f4-wlvdx.17f3a'],
      ['5m', 'Normal', 'ScalingReplicaSet', 'deployment/catalog', '', 'deployment-controller', 'Scaled up replica set catalog-58544d89f4 from 0 to 2', '5m', 1, 'catalog.17f39'],
      ['65s', 'Warning', 'Failed', 'pod/web-7d4b9c-back', '', 'kubelet, k8s-lab-worker2', 'Error: ImagePullBackOff', '10m', 12, 'web.series'],
    ]);
  });
  it('is not sorted: rows keep the order they are given', () => {
    const evs = ofKind('Event');
    expect(cells('Event', [evs[2], evs[0]]).map((r) => r[9])).toEqual(['web.series', 'catalog-58544d89f4-wlvdx.17f3a']);
  });
});

describe('custom resources (CRD additionalPrinterColumns)', () => {
  const crd = named('CustomResourceDefinition', 'shelves.bookshop.engineers-musings.dev');
  it('NAME then the declared columns; missing values print nothing', () => {
    expect(headers('Shelf', crd)).toEqual(['Name', 'Display', 'Books']);
    expect(printTable(ofKind('Shelf'), { kind: 'Shelf', crd, ...ctx })).toBe('NAME          DISPLAY       BOOKS\nstaff-picks   Staff Picks   \nclassics      Classics      12\n');
  });
  it('without columns: NAME AGE; date columns print ages, bad dates <invalid>', () => {
    const bare = { ...crd, spec: { ...SHELF_CRD_SPEC, versions: [{ name: 'v1', served: true, storage: true }] } };
    expect(headers('Shelf', bare)).toEqual(['Name', 'Age']);
    expect(cells('Shelf', ofKind('Shelf'), bare)).toEqual([
      ['staff-picks', '60m'],
      ['classics', '60s'],
    ]);
    const typed = {
      ...crd,
      spec: {
        ...SHELF_CRD_SPEC,
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            additionalPrinterColumns: [
              { name: 'Since', type: 'date', jsonPath: '.spec.since' },
              { name: 'N', type: 'integer', jsonPath: '.spec.n' },
              { name: 'Ok', type: 'boolean', jsonPath: '.spec.ok', priority: 1 },
              { name: 'Spec', type: 'string', jsonPath: '.spec.labels' },
            ],
          },
        ],
      },
    };
    const shelf = (spec: object): KubeObject => ({ apiVersion: 'bookshop.engineers-musings.dev/v1', kind: 'Shelf', metadata: { name: 's', creationTimestamp: ago(1) }, spec });
    expect(cells('Shelf', [shelf({ since: ago(90), n: 2.7, ok: true, labels: { a: 'b' } })], typed)).toEqual([['s', '90s', 2, true, '{"a":"b"}']]);
    expect(cells('Shelf', [shelf({ since: 'yesterday', n: 'two', ok: 'yes' })], typed)).toEqual([['s', '<invalid>', null, null, null]]);
    expect(printTable([shelf({ since: ago(90) })], { kind: 'Shelf', crd: typed, wide: true, ...ctx })).toBe('NAME   SINCE   N     OK    SPEC\ns      90s                 \n');
  });
});

describe('printTables (kubectl get a,b)', () => {
  it('skips kinds with nothing found, separates tables by a blank line', () => {
    const out = printTables(
      [
        { kind: 'Deployment', objs: ofKind('Deployment', 'kube-system') },
        { kind: 'StatefulSet', objs: [] },
        { kind: 'Service', objs: ofKind('Service', 'kube-system') },
      ],
      { ...ctx, showKind: true },
    );
    expect(out).toBe(
      [
        'NAME                      READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/coredns   2/2     2            2           10d',
        '',
        'NAME               TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)                  AGE',
        'service/kube-dns   ClusterIP   10.96.0.10   <none>        53/UDP,53/TCP,9153/TCP   10d',
        '',
      ].join('\n'),
    );
    expect(printTables([{ kind: 'Pod', objs: [] }], ctx)).toBe('');
  });
});
