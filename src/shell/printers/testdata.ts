/**
 * Test fixtures for the printers: a small kind cluster (`k8s-lab`, three nodes, kube-system,
 * the bookshop) as API objects, with pods in the states `kubectl get pods` distinguishes.
 * Used by the printer tests only (imported by *.test.ts), never by the shell itself.
 *
 * Times: `EPOCH_MS` is virtual 0 (2026-01-05T06:00:00Z, `DEFAULT_EPOCH_MS`); objects carry
 * creation times relative to it via `at(seconds)`; tests print at `NOW_MS`.
 */
import { DEFAULT_EPOCH_MS, formatRfc3339 } from '../../engine/clock';
import type { KubeObject } from '../../engine/api/types';

/** Unix ms of virtual 0. */
export const EPOCH_MS = DEFAULT_EPOCH_MS;
/** Virtual "now" for the tests: 10 days + 5 hours after virtual 0. */
export const NOW_MS = (10 * 24 + 5) * 3600 * 1000;

/** RFC 3339 timestamp `s` seconds after virtual 0. */
export function at(s: number): string {
  return formatRfc3339(EPOCH_MS + s * 1000);
}
/** RFC 3339 timestamp `s` seconds before NOW_MS. */
export function ago(s: number): string {
  return at(NOW_MS / 1000 - s);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

function obj(apiVersion: string, kind: string, name: string, namespace: string | undefined, created: string, rest: Any = {}): KubeObject {
  const { metadata, ...more } = rest;
  return {
    apiVersion,
    kind,
    metadata: { name, ...(namespace ? { namespace } : {}), creationTimestamp: created, ...(metadata ?? {}) },
    ...more,
  };
}

const running = (startedAt: string) => ({ running: { startedAt } });

/** A pod with one container per entry of `containers` (name, image, status). */
export function pod(
  name: string,
  namespace: string,
  created: string,
  opts: {
    node?: string;
    ip?: string;
    phase?: string;
    labels?: Record<string, string>;
    containers?: { name: string; image: string; ready?: boolean; restarts?: number; state?: Any; lastState?: Any }[];
    initContainers?: { name: string; image: string; restartPolicy?: string; ready?: boolean; started?: boolean; restarts?: number; state?: Any; lastState?: Any }[];
    conditions?: Any[];
    deletionTimestamp?: string;
    reason?: string;
    owner?: Any;
    readinessGates?: string[];
    nominatedNodeName?: string;
  } = {},
): KubeObject {
  const containers = opts.containers ?? [{ name: 'app', image: 'nginx', ready: true, state: running(created) }];
  return obj('v1', 'Pod', name, namespace, created, {
    metadata: {
      ...(opts.labels ? { labels: opts.labels } : {}),
      ...(opts.deletionTimestamp ? { deletionTimestamp: opts.deletionTimestamp, deletionGracePeriodSeconds: 30 } : {}),
      ...(opts.owner ? { ownerReferences: [opts.owner] } : {}),
      uid: `uid-${name}`,
    },
    spec: {
      ...(opts.initContainers ? { initContainers: opts.initContainers.map((c) => ({ name: c.name, image: c.image, ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}) })) } : {}),
      containers: containers.map((c) => ({ name: c.name, image: c.image })),
      ...(opts.node ? { nodeName: opts.node } : {}),
      ...(opts.readinessGates ? { readinessGates: opts.readinessGates.map((t) => ({ conditionType: t })) } : {}),
    },
    status: {
      phase: opts.phase ?? 'Running',
      ...(opts.reason ? { reason: opts.reason } : {}),
      ...(opts.conditions ? { conditions: opts.conditions } : {}),
      ...(opts.ip ? { podIP: opts.ip, podIPs: [{ ip: opts.ip }] } : {}),
      ...(opts.nominatedNodeName ? { nominatedNodeName: opts.nominatedNodeName } : {}),
      ...(opts.initContainers
        ? {
            initContainerStatuses: opts.initContainers.map((c) => ({
              name: c.name,
              image: c.image,
              ready: c.ready ?? false,
              restartCount: c.restarts ?? 0,
              ...(c.started !== undefined ? { started: c.started } : {}),
              state: c.state ?? { waiting: { reason: 'PodInitializing' } },
              ...(c.lastState ? { lastState: c.lastState } : {}),
            })),
          }
        : {}),
      ...(opts.node ? { containerStatuses: containers.map((c) => ({
        name: c.name,
        image: c.image,
        ready: c.ready ?? false,
        restartCount: c.restarts ?? 0,
        state: c.state ?? { waiting: { reason: 'ContainerCreating' } },
        ...(c.lastState ? { lastState: c.lastState } : {}),
      })) } : {}),
    },
  });
}

const CP = 'k8s-lab-control-plane';
const W1 = 'k8s-lab-worker';
const W2 = 'k8s-lab-worker2';
const BOOT = at(0);
const NODE_OWNER = (node: string) => ({ apiVersion: 'v1', kind: 'Node', name: node, uid: `uid-${node}`, controller: true });
const owner = (kind: string, apiVersion: string, name: string) => ({ apiVersion, kind, name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true });

/** The three kind nodes, as `kubectl get nodes -o wide` shows them on kind v1.32. */
export function nodes(): KubeObject[] {
  const node = (name: string, ip: string, cp: boolean, created: string) =>
    obj('v1', 'Node', name, undefined, created, {
      metadata: {
        labels: {
          'beta.kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          ...(cp ? { 'node-role.kubernetes.io/control-plane': '' } : {}),
        },
      },
      spec: { podCIDR: '10.244.0.0/24' },
      status: {
        addresses: [
          { type: 'InternalIP', address: ip },
          { type: 'Hostname', address: name },
        ],
        conditions: [
          { type: 'MemoryPressure', status: 'False' },
          { type: 'Ready', status: 'True', reason: 'KubeletReady' },
        ],
        nodeInfo: {
          kubeletVersion: 'v1.32.2',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          kernelVersion: '6.8.0-90-generic',
          containerRuntimeVersion: 'containerd://2.0.3',
        },
      },
    });
  return [node(CP, '172.18.0.3', true, BOOT), node(W1, '172.18.0.2', false, at(17)), node(W2, '172.18.0.4', false, at(17))];
}

/** kube-system as kind starts it (the seed's listing), all Running. */
export function kubeSystemPods(): KubeObject[] {
  const ns = 'kube-system';
  const sp = (name: string, image: string, node: string) =>
    pod(name, ns, at(5), { node, ip: '172.18.0.3', containers: [{ name: name.replace(`-${CP}`, ''), image, ready: true, state: running(at(4)) }], owner: NODE_OWNER(node), conditions: [{ type: 'Ready', status: 'True' }] });
  const ds = (name: string, app: string, image: string, node: string, ip: string) =>
    pod(name, ns, at(30), { node, ip, labels: { 'k8s-app': app }, containers: [{ name: app, image, ready: true, state: running(at(32)) }], owner: owner('DaemonSet', 'apps/v1', app), conditions: [{ type: 'Ready', status: 'True' }] });
  const dns = (name: string, ip: string) =>
    pod(name, ns, at(30), {
      node: CP,
      ip,
      labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '589f44dc88' },
      containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3', ready: true, state: running(at(40)) }],
      owner: owner('ReplicaSet', 'apps/v1', 'coredns-589f44dc88'),
      conditions: [{ type: 'Ready', status: 'True' }],
    });
  return [
    dns('coredns-589f44dc88-8d99k', '10.244.0.3'),
    dns('coredns-589f44dc88-kzr5x', '10.244.0.2'),
    sp(`etcd-${CP}`, 'registry.k8s.io/etcd:3.5.16-0', CP),
    ds('kindnet-46mqk', 'kindnet', 'docker.io/kindest/kindnetd:v20250214-acbabc1a', CP, '172.18.0.3'),
    ds('kindnet-9vtqq', 'kindnet', 'docker.io/kindest/kindnetd:v20250214-acbabc1a', W2, '172.18.0.4'),
    ds('kindnet-wmxxt', 'kindnet', 'docker.io/kindest/kindnetd:v20250214-acbabc1a', W1, '172.18.0.2'),
    sp(`kube-apiserver-${CP}`, 'registry.k8s.io/kube-apiserver:v1.32.2', CP),
    sp(`kube-controller-manager-${CP}`, 'registry.k8s.io/kube-controller-manager:v1.32.2', CP),
    ds('kube-proxy-4lhvp', 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.32.2', CP, '172.18.0.3'),
    ds('kube-proxy-pkhvx', 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.32.2', W2, '172.18.0.4'),
    ds('kube-proxy-tp9xb', 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.32.2', W1, '172.18.0.2'),
    sp(`kube-scheduler-${CP}`, 'registry.k8s.io/kube-scheduler:v1.32.2', CP),
  ];
}

/** Bookshop pods in every STATUS `printPod` can produce, created 5 minutes before NOW. */
export function troubledPods(): KubeObject[] {
  const ns = 'bookshop';
  const t = ago(300);
  const ready = [{ type: 'Ready', status: 'True' }];
  return [
    pod('catalog-58544d89f4-4h2kb', ns, t, { node: W1, ip: '10.244.1.5', containers: [{ name: 'catalog', image: 'bookshop:v1', ready: true, state: running(t) }], conditions: ready, labels: { app: 'catalog' } }),
    pod('catalog-58544d89f4-wlvdx', ns, t, {
      node: W2,
      ip: '10.244.2.7',
      containers: [{ name: 'catalog', image: 'bookshop:v1', ready: false, restarts: 4, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(41) } } }],
      labels: { app: 'catalog' },
    }),
    pod('web-7d4b9c-pull', ns, t, { node: W1, phase: 'Pending', containers: [{ name: 'web', image: 'bookshop:v3', state: { waiting: { reason: 'ErrImagePull' } } }] }),
    pod('web-7d4b9c-back', ns, t, { node: W2, phase: 'Pending', containers: [{ name: 'web', image: 'bookshop:v3', state: { waiting: { reason: 'ImagePullBackOff' } } }] }),
    pod('orders-init', ns, t, { node: W1, phase: 'Pending', initContainers: [{ name: 'wait-db', image: 'busybox', state: running(t) }], containers: [{ name: 'orders', image: 'bookshop:v1', state: { waiting: { reason: 'PodInitializing' } } }] }),
    pod('orders-initfail', ns, t, {
      node: W1,
      phase: 'Pending',
      initContainers: [{ name: 'migrate', image: 'bookshop:v1', restarts: 2, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, finishedAt: ago(20) } } }],
      containers: [{ name: 'orders', image: 'bookshop:v1', state: { waiting: { reason: 'PodInitializing' } } }],
    }),
    pod('creating', ns, ago(3), { node: W2, phase: 'Pending', containers: [{ name: 'app', image: 'nginx' }] }),
    pod('pending', ns, ago(3), { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }], containers: [{ name: 'app', image: 'nginx' }] }),
    pod('gated', ns, ago(3), { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }], containers: [{ name: 'app', image: 'nginx' }] }),
    pod('oom', ns, t, {
      node: W1,
      ip: '10.244.1.9',
      containers: [{ name: 'app', image: 'bookshop:v1', restarts: 1, state: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ago(2) } }, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: ago(70) } } }],
    }),
    pod('migrate-job-x7k2p', ns, t, { node: W2, phase: 'Succeeded', containers: [{ name: 'migrate', image: 'bookshop:v1', state: { terminated: { exitCode: 0, reason: 'Completed', finishedAt: ago(250) } } }] }),
    pod('failed-job-k9z4q', ns, t, { node: W2, phase: 'Failed', containers: [{ name: 'main', image: 'busybox', state: { terminated: { exitCode: 2, reason: 'Error', finishedAt: ago(250) } } }] }),
    pod('signalled', ns, t, { node: W2, phase: 'Failed', containers: [{ name: 'main', image: 'busybox', state: { terminated: { exitCode: 143, signal: 15, finishedAt: ago(250) } } }] }),
    pod('terminating', ns, t, { node: W1, ip: '10.244.1.6', containers: [{ name: 'web', image: 'bookshop:v1', ready: true, state: running(t) }], conditions: ready, deletionTimestamp: ago(-25) }),
    pod('lost', ns, t, { node: W2, ip: '10.244.2.8', reason: 'NodeLost', containers: [{ name: 'web', image: 'bookshop:v1', ready: true, state: running(t) }], deletionTimestamp: ago(10) }),
    pod('evicted', ns, t, { node: W2, phase: 'Failed', reason: 'Evicted', containers: [{ name: 'web', image: 'bookshop:v1', state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', finishedAt: ago(100) } } }] }),
    pod('sidecar', ns, t, {
      node: W1,
      ip: '10.244.1.7',
      conditions: [{ type: 'Initialized', status: 'True' }, ...ready],
      initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always', started: true, ready: true, restarts: 1, state: running(t), lastState: { terminated: { exitCode: 1, finishedAt: ago(200) } } }],
      containers: [{ name: 'web', image: 'bookshop:v1', ready: true, state: running(t) }],
      readinessGates: ['example.com/lb'],
    }),
    pod('half-done', ns, t, {
      node: W1,
      conditions: [{ type: 'Ready', status: 'False' }],
      containers: [
        { name: 'a', image: 'busybox', state: { terminated: { exitCode: 0, reason: 'Completed', finishedAt: ago(100) } } },
        { name: 'b', image: 'busybox', ready: true, state: running(t) },
      ],
    }),
    pod('nominated', ns, ago(3), { phase: 'Pending', nominatedNodeName: W1, containers: [{ name: 'app', image: 'nginx' }] }),
  ];
}

/** A sample of every other kind the printers know, in kube-system / bookshop / cluster scope. */
export function otherObjects(): KubeObject[] {
  const ns = 'bookshop';
  return [
    obj('apps/v1', 'Deployment', 'coredns', 'kube-system', at(3), {
      metadata: { labels: { 'k8s-app': 'kube-dns' } },
      spec: { replicas: 2, selector: { matchLabels: { 'k8s-app': 'kube-dns' } }, template: { spec: { containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3' }] } } },
      status: { replicas: 2, readyReplicas: 2, updatedReplicas: 2, availableReplicas: 2 },
    }),
    obj('apps/v1', 'Deployment', 'catalog', ns, ago(300), {
      metadata: { labels: { app: 'catalog', 'part-of': 'bookshop' } },
      spec: { replicas: 2, selector: { matchLabels: { app: 'catalog' } }, template: { spec: { containers: [{ name: 'catalog', image: 'bookshop:v1' }, { name: 'log', image: 'busybox' }] } } },
      status: { replicas: 2, readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
    }),
    obj('apps/v1', 'ReplicaSet', 'coredns-589f44dc88', 'kube-system', at(30), {
      metadata: { labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '589f44dc88' }, ownerReferences: [owner('Deployment', 'apps/v1', 'coredns')] },
      spec: { replicas: 2, selector: { matchLabels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '589f44dc88' } }, template: { spec: { containers: [{ name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.11.3' }] } } },
      status: { replicas: 2, readyReplicas: 2 },
    }),
    obj('apps/v1', 'DaemonSet', 'kindnet', 'kube-system', at(4), {
      metadata: { labels: { app: 'kindnet', 'k8s-app': 'kindnet' } },
      spec: { selector: { matchLabels: { app: 'kindnet' } }, template: { spec: { containers: [{ name: 'kindnet-cni', image: 'docker.io/kindest/kindnetd:v20250214-acbabc1a' }] } } },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3 },
    }),
    obj('apps/v1', 'DaemonSet', 'kube-proxy', 'kube-system', at(3), {
      metadata: { labels: { 'k8s-app': 'kube-proxy' } },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.32.2' }] } },
      },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    }),
    obj('apps/v1', 'StatefulSet', 'postgres', ns, ago(7200), {
      spec: { replicas: 1, serviceName: 'postgres', selector: { matchLabels: { app: 'postgres' } }, template: { spec: { containers: [{ name: 'postgres', image: 'postgres:17-alpine' }] } } },
      status: { replicas: 1, readyReplicas: 1 },
    }),
    obj('apps/v1', 'ControllerRevision', 'kindnet-6cc8bf5b6', 'kube-system', at(4), { metadata: { ownerReferences: [owner('DaemonSet', 'apps/v1', 'kindnet')] }, revision: 1 }),
    obj('apps/v1', 'ControllerRevision', 'orphan-1', 'kube-system', at(4), { revision: 3 }),
    obj('batch/v1', 'Job', 'migrate', ns, ago(600), {
      spec: { completions: 1, parallelism: 1, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } }, template: { spec: { containers: [{ name: 'migrate', image: 'bookshop:v1' }] } } },
      status: { succeeded: 1, startTime: ago(600), completionTime: ago(588), conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True' }] },
    }),
    obj('batch/v1', 'Job', 'report', ns, ago(95), {
      spec: { parallelism: 3, template: { spec: { containers: [{ name: 'r', image: 'busybox' }] } } },
      status: { active: 3, startTime: ago(95) },
    }),
    obj('batch/v1', 'Job', 'broken', ns, ago(4000), {
      spec: { completions: 3, template: { spec: { containers: [{ name: 'b', image: 'busybox' }] } } },
      status: { failed: 7, startTime: ago(4000), conditions: [{ type: 'FailureTarget', status: 'True' }, { type: 'Failed', status: 'True' }] },
    }),
    obj('batch/v1', 'Job', 'unstarted', ns, ago(5), { spec: { suspend: true, template: { spec: { containers: [{ name: 'b', image: 'busybox' }] } } }, status: { conditions: [{ type: 'Suspended', status: 'True' }] } }),
    obj('batch/v1', 'CronJob', 'nightly', ns, ago(86400 * 3), {
      spec: { schedule: '0 3 * * *', suspend: false, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'backup', image: 'postgres:17-alpine' }] } } } } },
      status: { lastScheduleTime: ago(3600 * 2 + 60 * 3) },
    }),
    obj('batch/v1', 'CronJob', 'tz', ns, ago(60), {
      spec: { schedule: '*/5 * * * *', timeZone: 'Europe/Paris', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'x', image: 'busybox' }] } } } } },
      status: { active: [{ kind: 'Job', name: 'tz-1' }] },
    }),
    obj('v1', 'Service', 'kubernetes', 'default', at(2), { spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] } }),
    obj('v1', 'Service', 'kube-dns', 'kube-system', at(3), {
      metadata: { labels: { 'k8s-app': 'kube-dns' } },
      spec: {
        type: 'ClusterIP',
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        selector: { 'k8s-app': 'kube-dns' },
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'metrics', port: 9153, protocol: 'TCP' },
        ],
      },
    }),
    obj('v1', 'Service', 'web', ns, ago(300), { spec: { type: 'NodePort', clusterIP: '10.96.120.7', clusterIPs: ['10.96.120.7'], selector: { app: 'web' }, ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] } }),
    obj('v1', 'Service', 'shop-lb', ns, ago(300), { spec: { type: 'LoadBalancer', clusterIP: '10.96.33.2', clusterIPs: ['10.96.33.2'], ports: [{ port: 80, nodePort: 31234, protocol: 'TCP' }] } }),
    obj('v1', 'Service', 'postgres', ns, ago(7200), { spec: { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], selector: { app: 'postgres' }, ports: [{ port: 5432, protocol: 'TCP' }] } }),
    obj('v1', 'Service', 'ext', ns, ago(7200), { spec: { type: 'ExternalName', externalName: 'db.example.com' } }),
    obj('discovery.k8s.io/v1', 'EndpointSlice', 'kube-dns-7x2vb', 'kube-system', at(31), {
      addressType: 'IPv4',
      ports: [
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'metrics', port: 9153, protocol: 'TCP' },
      ],
      endpoints: [{ addresses: ['10.244.0.3'] }, { addresses: ['10.244.0.2'] }],
    }),
    obj('discovery.k8s.io/v1', 'EndpointSlice', 'web-empty', ns, ago(300), { addressType: 'IPv4', endpoints: [] }),
    obj('v1', 'Endpoints', 'kube-dns', 'kube-system', at(31), {
      subsets: [{ addresses: [{ ip: '10.244.0.2' }, { ip: '10.244.0.3' }], ports: [{ name: 'dns-tcp', port: 53 }, { name: 'dns', port: 53 }, { name: 'metrics', port: 9153 }] }],
    }),
    obj('v1', 'Namespace', 'default', undefined, at(2), { status: { phase: 'Active' } }),
    obj('v1', 'Namespace', 'bookshop', undefined, ago(86400), { status: { phase: 'Active' } }),
    obj('v1', 'Namespace', 'old', undefined, ago(40), { metadata: { deletionTimestamp: ago(5) }, status: { phase: 'Terminating' } }),
    obj('v1', 'ConfigMap', 'bookshop-config', ns, ago(300), { data: { GREETING: 'Welcome', 'banner.txt': 'Hi\n' }, binaryData: { 'logo.png': 'iVBORw0=' } }),
    obj('v1', 'ConfigMap', 'kube-root-ca.crt', ns, ago(86400), { data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\n' } }),
    obj('v1', 'Secret', 'bookshop-secrets', ns, ago(300), { type: 'Opaque', data: { PGPASSWORD: 'c2VjcmV0', API_KEY: 'a2V5' } }),
    obj('v1', 'Secret', 'tls', ns, ago(300), { type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==', 'tls.key': 'eQ==' } }),
    obj('v1', 'ServiceAccount', 'default', ns, ago(86400)),
    obj('v1', 'Event', 'catalog-58544d89f4-wlvdx.17f3a', ns, ago(290), {
      involvedObject: { kind: 'Pod', namespace: ns, name: 'catalog-58544d89f4-wlvdx', fieldPath: 'spec.containers{catalog}' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container catalog in pod catalog-58544d89f4-wlvdx_bookshop(uid)',
      source: { component: 'kubelet', host: W2 },
      firstTimestamp: ago(290),
      lastTimestamp: ago(14),
      count: 4,
      type: 'Warning',
    }),
    obj('v1', 'Event', 'catalog.17f39', ns, ago(300), {
      involvedObject: { kind: 'Deployment', namespace: ns, name: 'catalog', apiVersion: 'apps/v1' },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set catalog-58544d89f4 from 0 to 2\n',
      source: { component: 'deployment-controller' },
      firstTimestamp: ago(300),
      lastTimestamp: ago(300),
      count: 1,
      type: 'Normal',
    }),
    obj('v1', 'Event', 'web.series', ns, ago(600), {
      involvedObject: { kind: 'Pod', namespace: ns, name: 'web-7d4b9c-back' },
      reason: 'Failed',
      message: 'Error: ImagePullBackOff',
      reportingComponent: 'kubelet',
      reportingController: 'kubelet',
      reportingInstance: W2,
      eventTime: ago(600),
      series: { count: 12, lastObservedTime: ago(65) },
      type: 'Warning',
    }),
    obj('coordination.k8s.io/v1', 'Lease', 'kube-scheduler', 'kube-system', at(6), { spec: { holderIdentity: `${CP}_3f6e0a1c-52b6-4a43-9f0d-2b0b3c4d5e6f`, leaseDurationSeconds: 15 } }),
    obj('coordination.k8s.io/v1', 'Lease', 'empty', 'kube-system', at(6), { spec: {} }),
    obj('v1', 'PersistentVolume', 'pvc-8e2c5b1a', undefined, ago(7200), {
      spec: {
        capacity: { storage: '1024Mi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: 'standard',
        claimRef: { kind: 'PersistentVolumeClaim', namespace: ns, name: 'data-postgres-0' },
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    }),
    obj('v1', 'PersistentVolumeClaim', 'data-postgres-0', ns, ago(7200), {
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard', volumeName: 'pvc-8e2c5b1a', volumeMode: 'Filesystem' },
      status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } },
    }),
    obj('v1', 'PersistentVolumeClaim', 'waiting', ns, ago(60), { spec: { accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], resources: { requests: { storage: '5Gi' } }, storageClassName: 'standard' }, status: { phase: 'Pending' } }),
    obj('storage.k8s.io/v1', 'StorageClass', 'standard', undefined, at(3), {
      metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    }),
    obj('networking.k8s.io/v1', 'IngressClass', 'nginx', undefined, ago(3600), { spec: { controller: 'k8s.io/ingress-nginx' } }),
    obj('networking.k8s.io/v1', 'Ingress', 'bookshop', ns, ago(3600), {
      spec: { ingressClassName: 'nginx', rules: [{ host: 'bookshop.local' }, { host: 'api.bookshop.local' }], tls: [{ hosts: ['bookshop.local'] }] },
      status: { loadBalancer: { ingress: [{ ip: '172.18.0.2' }] } },
    }),
    obj('networking.k8s.io/v1', 'Ingress', 'catch-all', ns, ago(3600), { spec: { rules: [{}] } }),
    obj('rbac.authorization.k8s.io/v1', 'Role', 'shelf-reader', ns, ago(3600)),
    obj('rbac.authorization.k8s.io/v1', 'RoleBinding', 'shelf-reader', ns, ago(3600), {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'shelf-reader' },
      subjects: [
        { kind: 'ServiceAccount', name: 'shelf-controller', namespace: ns },
        { kind: 'User', name: 'jane' },
        { kind: 'Group', name: 'devs' },
      ],
    }),
    obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'view', undefined, at(2)),
    obj('scheduling.k8s.io/v1', 'PriorityClass', 'system-cluster-critical', undefined, at(2), { value: 2000000000, description: 'x', preemptionPolicy: 'PreemptLowerPriority' }),
    obj('scheduling.k8s.io/v1', 'PriorityClass', 'system-node-critical', undefined, at(2), { value: 2000001000, description: 'x', preemptionPolicy: 'PreemptLowerPriority' }),
    obj('v1', 'ComponentStatus', 'scheduler', undefined, '', { metadata: { creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }),
    obj('v1', 'ComponentStatus', 'controller-manager', undefined, '', { metadata: { creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }),
    obj('v1', 'ComponentStatus', 'etcd-0', undefined, '', { metadata: { creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }),
    obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'shelves.bookshop.engineers-musings.dev', undefined, ago(3600), { spec: SHELF_CRD_SPEC }),
    obj('bookshop.engineers-musings.dev/v1', 'Shelf', 'staff-picks', ns, ago(3600), { spec: { displayName: 'Staff Picks', isbns: ['978-0132350884', '978-1492034025', '978-1449373320'] } }),
    obj('bookshop.engineers-musings.dev/v1', 'Shelf', 'classics', ns, ago(60), { spec: { displayName: 'Classics' }, status: { bookCount: 12 } }),
  ];
}

/** The bookshop's Shelf CRD spec (manifests/shelf-controller/crd.yaml). */
export const SHELF_CRD_SPEC = {
  group: 'bookshop.engineers-musings.dev',
  scope: 'Namespaced',
  names: { plural: 'shelves', singular: 'shelf', kind: 'Shelf', shortNames: ['sh'] },
  versions: [
    {
      name: 'v1',
      served: true,
      storage: true,
      subresources: { status: {} },
      additionalPrinterColumns: [
        { name: 'Display', type: 'string', jsonPath: '.spec.displayName' },
        { name: 'Books', type: 'integer', jsonPath: '.status.bookCount' },
      ],
    },
  ],
};

/** Every fixture object. */
export function allObjects(): KubeObject[] {
  return [...nodes(), ...kubeSystemPods(), ...troubledPods(), ...otherObjects()];
}

/** Objects of one kind (and namespace when given), in fixture order. */
export function ofKind(kind: string, namespace?: string): KubeObject[] {
  return allObjects().filter((o) => o.kind === kind && (namespace === undefined || o.metadata.namespace === namespace));
}

/**
 * Odd objects for the JSONPath and format tests (namespace `default`): two pods (one with a
 * `<`/`&` message and an integer uid), a Deployment whose status carries floats and control
 * characters, and a custom `Book` with null, empty map and empty list fields.
 */
export function jsonpathObjects(): KubeObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web', tier: 'front' }, creationTimestamp: '2026-01-05T06:00:00Z', uid: 1111 as unknown as string },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] }, { name: 'side', image: 'busybox' }], nodeName: 'k8s-lab-worker' },
      status: {
        phase: 'Running',
        podIP: '10.244.1.5',
        conditions: [
          { type: 'Ready', status: 'True' },
          { type: 'PodScheduled', status: 'True' },
        ],
        containerStatuses: [
          { name: 'app', ready: true, restartCount: 3, image: 'nginx:1.27', state: { running: { startedAt: '2026-01-05T06:01:00Z' } } },
          { name: 'side', ready: false, restartCount: 0, image: 'busybox', state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s <restarting> & "quoted"' } } },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-2', namespace: 'default', labels: { app: 'web' }, creationTimestamp: '2026-01-05T06:00:00Z' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], priority: 2000001000, nodeSelector: {}, tolerations: [] },
      status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-05T06:00:00Z', labels: { app: 'web' } },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } } },
      status: {
        replicas: 2,
        readyReplicas: 1,
        weight: 0.25,
        tiny: 1e-7,
        big: 1e22,
        f1: 1234567.5,
        f2: 123456.5,
        f3: 0.0001,
        f4: 1e-5,
        f5: -2.5,
        f6: 1e300,
        i1: -7,
        s1: 'tab\there "q" \\ \u00e9 \u0001 \u2028 \u001b[31m',
      },
    },
    {
      apiVersion: 'bookshop.example.com/v1',
      kind: 'Book',
      metadata: { name: 'fiction', namespace: 'default', creationTimestamp: '2026-01-05T06:00:00Z' },
      spec: { books: 3, html: '<b>&</b> \u2028 \u00e9', empty: {}, list: [], nul: null },
    },
  ];
}
