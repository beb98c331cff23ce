/**
 * The playground cluster booted from the bookshop's kind config, and the seeds' stories on it
 * (seed 001: the kube-system listing, the static pods, the deleted catalog pod coming back;
 * seed 000: systemd restarting the kubelet, static pods from /etc/kubernetes/manifests, the
 * controller-manager as the loop that puts pods back; DESIGN.md: with etcd gone the API fails
 * and running containers keep running).
 *
 * Every test boots its own cluster (about a second of wall time) except the read-only checks,
 * which share one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, createCluster, type Cluster } from './cluster';
import { ApiError } from './api/errors';
import type { KubeObject } from './api/types';

const CP = 'k8s-lab-control-plane';
const W1 = 'k8s-lab-worker';
const W2 = 'k8s-lab-worker2';

type Cond = { type: string; status: string };
const condition = (o: KubeObject, type: string) => ((o.status?.conditions ?? []) as Cond[]).find((c) => c.type === type)?.status;
const nodeReady = (c: Cluster, n: string) => condition(c.api.get('nodes', undefined, n), 'Ready');
const pods = (c: Cluster, ns: string, selector?: string) => c.api.list('pods', { namespace: ns, labelSelector: selector }).items;
const catalogPods = (c: Cluster) => pods(c, 'bookshop', 'app=catalog').filter((p) => !p.metadata.deletionTimestamp);
const cmData = (c: Cluster, ns: string, name: string) => (c.api.get('configmaps', ns, name) as KubeObject & { data: Record<string, string> }).data;
const runningReady = (p: KubeObject) => p.status?.phase === 'Running' && condition(p, 'Ready') === 'True';

describe('the default cluster, booted', () => {
  let c: Cluster;
  beforeAll(() => {
    c = bootedCluster({ seed: 1 });
  });

  it('boots within a few virtual minutes, in kind and make-up order', () => {
    const m = c.milestones;
    expect(c.clock.now()).toBeLessThan(3 * 60_000);
    expect(m.apiServerUp).toBeDefined();
    expect(m.apiServerUp!).toBeLessThan(m.kubeadmInit!);
    expect(m.kubeadmInit!).toBeLessThanOrEqual(m.cniInstalled!);
    expect(m.cniInstalled!).toBeLessThanOrEqual(m.storageInstalled!);
    expect(m.storageInstalled!).toBeLessThan(m.clusterCreated!);
    expect(m.clusterCreated!).toBeLessThan(m.imagesLoaded!);
    expect(m.imagesLoaded!).toBeLessThanOrEqual(m.bookshopApplied!);
  });

  it('has 3 Ready nodes; the control plane carries kubeadm\'s label and taint', () => {
    expect(c.api.list('nodes').items.map((n) => n.metadata.name)).toEqual([CP, W1, W2]);
    for (const n of [CP, W1, W2]) expect(nodeReady(c, n), n).toBe('True');
    const cp = c.api.get('nodes', undefined, CP);
    expect(cp.metadata.labels).toMatchObject({ 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': CP });
    expect(cp.spec.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(c.api.get('nodes', undefined, W1).spec.taints ?? []).toEqual([]);
    // node-ipam-controller gave each node the pod CIDR its pods' IPs come from.
    expect(c.api.list('nodes').items.map((n) => n.spec.podCIDR)).toEqual(['10.244.0.0/24', '10.244.1.0/24', '10.244.2.0/24']);
    for (const p of pods(c, 'bookshop')) {
      const node = c.node(p.spec.nodeName);
      expect(p.status?.podIP?.startsWith(node.podCIDR.replace(/0\/24$/, '')), p.metadata.name).toBe(true);
    }
  });

  it('kube-system looks like the seed\'s listing, and it came out of the simulation', () => {
    const ks = pods(c, 'kube-system');
    const rows = ks.map((p) => `${p.metadata.name!.replace(/^(kindnet|kube-proxy)-[a-z0-9]{5}$/, '$1-*').replace(/^coredns-[a-z0-9]+-[a-z0-9]{5}$/, 'coredns-*-*')} ${p.spec.nodeName}`);
    expect(rows.sort()).toEqual(
      [
        `coredns-*-* ${CP}`,
        `coredns-*-* ${CP}`,
        `etcd-${CP} ${CP}`,
        `kindnet-* ${CP}`,
        `kindnet-* ${W1}`,
        `kindnet-* ${W2}`,
        `kube-apiserver-${CP} ${CP}`,
        `kube-controller-manager-${CP} ${CP}`,
        `kube-proxy-* ${CP}`,
        `kube-proxy-* ${W1}`,
        `kube-proxy-* ${W2}`,
        `kube-scheduler-${CP} ${CP}`,
      ].sort(),
    );
    for (const p of ks) expect(runningReady(p), p.metadata.name).toBe(true);
    // DaemonSet and Deployment pods were made by their controllers and placed by the scheduler.
    const proxy = ks.find((p) => p.metadata.name!.startsWith('kube-proxy-'))!;
    expect(proxy.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'kube-proxy' });
    const dns = ks.find((p) => p.metadata.name!.startsWith('coredns-'))!;
    expect(dns.metadata.ownerReferences?.[0].kind).toBe('ReplicaSet');
    expect(c.events.some((e) => e.reason === 'Scheduled' && e.involvedObject.name === dns.metadata.name)).toBe(true);
  });

  it('runs the control plane as static pods with mirror pods owned by the Node', () => {
    const cpNode = c.api.get('nodes', undefined, CP);
    for (const comp of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) {
      const p = c.api.get('pods', 'kube-system', `${comp}-${CP}`);
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: CP, uid: cpNode.metadata.uid, controller: true }]);
      expect(p.metadata.labels).toEqual({ component: comp, tier: 'control-plane' });
      expect(p.metadata.annotations?.['kubernetes.io/config.source']).toBe('file');
      expect(p.spec.priorityClassName).toBe('system-node-critical');
      expect(p.spec.hostNetwork).toBe(true);
      expect(p.spec.containers[0].image).toMatch(comp === 'etcd' ? /^registry\.k8s\.io\/etcd:3\.6\.5-0$/ : new RegExp(`^registry\\.k8s\\.io/${comp}:v1\\.35\\.0$`));
    }
    expect(c.node(CP).fs.readdir('/etc/kubernetes/manifests')).toEqual(['etcd.yaml', 'kube-apiserver.yaml', 'kube-controller-manager.yaml', 'kube-scheduler.yaml']);
    expect(c.node(W1).fs.readdir('/etc/kubernetes/manifests')).toEqual([]);
  });

  it('has kubeadm\'s and kind\'s objects: kubeadm-config, kube-dns at 10.96.0.10, the standard StorageClass, local-path-provisioner', () => {
    expect(cmData(c, 'kube-system', 'kubeadm-config').ClusterConfiguration).toContain('clusterName: k8s-lab');
    expect(cmData(c, 'kube-system', 'kubelet-config').kubelet).toContain('kind: KubeletConfiguration');
    expect(cmData(c, 'kube-public', 'cluster-info').kubeconfig).toContain('server: https://k8s-lab-control-plane:6443');
    expect(cmData(c, 'kube-system', 'coredns').Corefile).toContain('kubernetes cluster.local in-addr.arpa ip6.arpa');
    expect(c.api.get('services', 'kube-system', 'kube-dns').spec.clusterIP).toBe('10.96.0.10');
    expect(c.api.get('deployments', 'kube-system', 'coredns').status).toMatchObject({ replicas: 2, readyReplicas: 2 });
    const sc = c.api.get('storageclasses', undefined, 'standard');
    expect(sc).toMatchObject({ provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer', reclaimPolicy: 'Delete' });
    expect(sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class']).toBe('true');
    const lpp = pods(c, 'local-path-storage');
    expect(lpp).toHaveLength(1);
    expect(runningReady(lpp[0])).toBe(true);
  });

  it('the bookshop is up: images loaded on every node, namespace and Secret, every Deployment Available', () => {
    for (const n of c.nodes) {
      for (const img of ['docker.io/library/bookshop:v1', 'docker.io/library/bookshop:v2', 'docker.io/library/bookshop-controller:v1']) {
        expect(n.containerd.imageStatus(img), `${img} on ${n.name}`).toBeDefined();
      }
    }
    expect(c.api.get('secrets', 'bookshop', 'bookshop-secrets').data).toEqual({ API_KEY: 'c2stbGl2ZS1hYmNkMTIzNA==', PGPASSWORD: 'czNjcmV0' });
    const deps = c.api.list('deployments', { namespace: 'bookshop' }).items;
    expect(deps.map((d) => d.metadata.name)).toEqual(['catalog', 'orders', 'postgres', 'web']);
    for (const d of deps) expect(condition(d, 'Available'), d.metadata.name).toBe('True');
    expect(catalogPods(c)).toHaveLength(2);
    // Postgres got its volume from the local-path provisioner.
    const pvc = c.api.get('persistentvolumeclaims', 'bookshop', 'books-data');
    expect(pvc.status?.phase).toBe('Bound');
    expect(c.api.get('persistentvolumes', undefined, pvc.spec.volumeName).spec.hostPath.path).toMatch(/^\/var\/local-path-provisioner\/pvc-/);
    // catalog is Ready because it reached postgres through cluster DNS and the Service.
    expect(c.api.get('endpointslices', 'bookshop', c.api.list('endpointslices', { namespace: 'bookshop', labelSelector: 'kubernetes.io/service-name=catalog' }).items[0].metadata.name!).endpoints).toHaveLength(2);
  });

  it('the data plane: cluster DNS through CoreDNS, Services and NodePorts through each node\'s kube-proxy rules', () => {
    const from = { nodeName: W1, podIP: '10.244.1.250', podName: 'probe', namespace: 'bookshop', hostNetwork: false };
    const pg = c.api.get('services', 'bookshop', 'postgres').spec.clusterIP;
    expect(c.network.resolve(from, 'postgres')).toBe(pg);
    expect(c.network.resolve(from, 'postgres.bookshop.svc.cluster.local')).toBe(pg);
    expect(c.network.resolve(from, 'kubernetes.default')).toBe('10.96.0.1');
    expect(c.network.resolve(from, 'kube-dns.kube-system.svc')).toBe('10.96.0.10');
    expect(c.network.resolve(from, 'nope.bookshop.svc.cluster.local')).toBeNull();
    expect(c.network.resolve(from, 'nope') ?? null).toBeNull(); // forwarded upstream, where it does not exist either
    expect(c.network.resolve(from, 'example.com')).toBeUndefined();
    expect(c.network.dial(from, pg, 5432)).toMatchObject({ ok: true });
    const web = c.network.http(from, '172.18.0.2', 30080, { method: 'GET', path: '/healthz' });
    expect(web && 'status' in web ? web.status : web).toBe(200);
    expect(c.network.dial(from, c.api.get('services', 'bookshop', 'orders').spec.clusterIP, 81)).toMatchObject({ ok: false, error: 'timeout' });
  });

  it('componentstatuses: scheduler, controller-manager and etcd-0 Healthy', () => {
    expect(c.componentStatuses().map((s) => `${s.metadata.name} ${(s as KubeObject & { conditions: Cond[] }).conditions[0].status}`)).toEqual(['scheduler True', 'controller-manager True', 'etcd-0 True']);
  });

  it('systemd runs containerd and the kubelet on every node; the kubelet of a worker started at kubeadm join', () => {
    for (const n of c.nodes) {
      expect(c.systemctl(n.name, ['is-active', 'containerd']).stdout).toBe('active\n');
      expect(c.systemctl(n.name, ['is-active', 'kubelet']).stdout).toBe('active\n');
      expect(c.pgrep(n.name, 'kubelet')).toHaveLength(1);
    }
    expect(c.machines.get(W1)!.journalctl(['-u', 'kubelet']).stdout).toContain('was skipped because of an unmet condition check (ConditionPathExists=/var/lib/kubelet/config.yaml)');
  });
});

describe('the seeds\' stories', () => {
  it('a deleted catalog pod is replaced by a new one within seconds', () => {
    const c = bootedCluster({ seed: 2 });
    const before = catalogPods(c).map((p) => p.metadata.name!);
    c.api.delete('pods', 'bookshop', before[0]);
    c.run(3000);
    const after = catalogPods(c);
    expect(after).toHaveLength(2);
    expect(after.map((p) => p.metadata.name)).toContain(before[1]);
    expect(after.map((p) => p.metadata.name)).not.toContain(before[0]);
    const fresh = after.find((p) => p.metadata.name !== before[1])!;
    expect(fresh.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet' });
    c.run(5000);
    expect(runningReady(c.api.get('pods', 'bookshop', fresh.metadata.name!))).toBe(true);
  });

  it('SIGKILL to the kubelet: systemd restarts it 10 s later and the Node never goes NotReady; systemctl stop: NotReady after ~50 s', () => {
    const c = bootedCluster({ seed: 3 });
    const [pid] = c.pgrep(W1, 'kubelet');
    expect(c.kill(W1, pid, '-9').exitCode).toBe(0);
    c.run(9_000);
    expect(c.pgrep(W1, 'kubelet')).toEqual([]);
    expect(c.systemctl(W1, ['is-active', 'kubelet']).stdout).toBe('activating\n');
    c.run(2_000);
    const [again] = c.pgrep(W1, 'kubelet');
    expect(again).toBeGreaterThan(pid);
    const workers = c.node(W1).containerd.listContainers().filter((x) => x.state === 'CONTAINER_RUNNING').length;
    for (let i = 0; i < 90; i++) {
      c.run(1000);
      expect(nodeReady(c, W1)).toBe('True');
    }
    // The pods were never restarted: the new kubelet adopted their containers.
    expect(c.node(W1).containerd.listContainers().filter((x) => x.state === 'CONTAINER_RUNNING').length).toBe(workers);

    const stoppedAt = c.clock.now();
    expect(c.systemctl(W1, ['stop', 'kubelet']).exitCode).toBe(0);
    let notReadyAfter = -1;
    for (let i = 0; i < 70 && notReadyAfter < 0; i++) {
      c.run(1000);
      if (nodeReady(c, W1) !== 'True') notReadyAfter = c.clock.now() - stoppedAt;
    }
    expect(nodeReady(c, W1)).toBe('Unknown');
    expect(notReadyAfter).toBeGreaterThanOrEqual(50_000);
    expect(notReadyAfter).toBeLessThanOrEqual(60_000);
    // Its pods' containers keep running (nobody stops them).
    expect(c.node(W1).containerd.listContainers().filter((x) => x.state === 'CONTAINER_RUNNING').length).toBe(workers);
  });

  it('kube-scheduler.yaml moved out: new pods stay Pending with no events; moved back: scheduled', () => {
    const c = bootedCluster({ seed: 4 });
    expect(c.mv(CP, '/etc/kubernetes/manifests/kube-scheduler.yaml', '/root/kube-scheduler.yaml').exitCode).toBe(0);
    c.run(3000);
    expect(c.api.tryGet('pods', 'kube-system', `kube-scheduler-${CP}`)).toBeUndefined();
    expect(c.pgrep(CP, 'kube-scheduler')).toEqual([]);
    expect((c.componentStatuses()[0] as KubeObject & { conditions: Cond[] }).conditions[0].status).toBe('False');
    const victim = catalogPods(c)[0].metadata.name!;
    c.api.delete('pods', 'bookshop', victim);
    c.run(60_000);
    const pending = catalogPods(c).find((p) => !p.spec.nodeName)!;
    expect(pending.status?.phase).toBe('Pending');
    expect(pending.status?.conditions ?? []).toEqual([]);
    expect(c.events.filter((e) => e.involvedObject.name === pending.metadata.name)).toEqual([]);
    c.mv(CP, '/root/kube-scheduler.yaml', '/etc/kubernetes/manifests/kube-scheduler.yaml');
    c.run(20_000);
    const placed = c.api.get('pods', 'bookshop', pending.metadata.name!);
    expect(placed.spec.nodeName).toMatch(/^k8s-lab-worker2?$/);
    expect(c.events.some((e) => e.reason === 'Scheduled' && e.involvedObject.name === pending.metadata.name)).toBe(true);
  });

  it('kube-controller-manager gone: a deleted catalog pod stays gone until it returns', () => {
    const c = bootedCluster({ seed: 5 });
    c.mv(CP, '/etc/kubernetes/manifests/kube-controller-manager.yaml', '/root/kube-controller-manager.yaml');
    c.run(3000);
    expect(c.pgrep(CP, 'kube-controller')).toEqual([]);
    c.api.delete('pods', 'bookshop', catalogPods(c)[0].metadata.name!);
    c.run(120_000);
    expect(pods(c, 'bookshop', 'app=catalog')).toHaveLength(1);
    c.mv(CP, '/root/kube-controller-manager.yaml', '/etc/kubernetes/manifests/kube-controller-manager.yaml');
    c.run(30_000);
    expect(catalogPods(c)).toHaveLength(2);
    expect(catalogPods(c).every(runningReady)).toBe(true);
  });

  it('etcd stopped: the API fails, running containers keep running; etcd back: the cluster recovers', () => {
    const c = bootedCluster({ seed: 6 });
    const running = () =>
      c.nodes
        .filter((n) => n.role === 'worker')
        .flatMap((n) => n.containerd.listContainers().filter((x) => x.state === 'CONTAINER_RUNNING').map((x) => x.id))
        .sort();
    const before = running();
    c.mv(CP, '/etc/kubernetes/manifests/etcd.yaml', '/root/etcd.yaml');
    c.run(5000);
    expect(() => c.api.list('pods')).toThrow(ApiError);
    expect(c.api.getAvailability()).not.toBe('up');
    c.run(120_000);
    expect(running()).toEqual(before);
    c.mv(CP, '/root/etcd.yaml', '/etc/kubernetes/manifests/etcd.yaml');
    expect(c.runUntil(() => c.kubeSystemReady() && c.bookshopAvailable(), { timeoutMs: 5 * 60_000 })).toBe(true);
    expect(running()).toEqual(before);
  });
});

describe('faults on the node containers', () => {
  it('docker stop / start of a worker: NotReady, then back with its pods restarted; network disconnect: unreachable', () => {
    const c = bootedCluster({ seed: 7 });
    expect(c.docker('stop', W2)).toEqual({ stdout: `${W2}\n`, stderr: '', exitCode: 0 });
    c.run(70_000);
    expect(c.machines.get(W2)!.running).toBe(false);
    expect(nodeReady(c, W2)).toBe('Unknown');
    expect(c.docker('kill', W2).exitCode).toBe(1);
    c.docker('start', W2);
    c.run(30_000);
    expect(nodeReady(c, W2)).toBe('True');
    expect(c.runUntil(() => c.bookshopAvailable(), { timeoutMs: 3 * 60_000 })).toBe(true);

    expect(c.dockerNetwork('disconnect', W1)).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(c.dockerNetwork('disconnect', W1).exitCode).toBe(1);
    expect(() => c.apiFor(W1).list('pods')).toThrow('network is unreachable');
    const onW1 = pods(c, 'bookshop').find((p) => p.spec.nodeName === W1)!;
    expect(() => c.containerLogs('bookshop', onW1.metadata.name!, onW1.spec.containers[0].name)).toThrow('i/o timeout');
    c.run(70_000);
    expect(nodeReady(c, W1)).toBe('Unknown');
    c.dockerNetwork('connect', W1);
    c.run(20_000);
    expect(nodeReady(c, W1)).toBe('True');
  });

  it('kind load docker-image puts an image on the named nodes only', () => {
    const c = createCluster({ seed: 8, bare: true });
    c.runUntil(() => c.kubeSystemReady());
    const r = c.kindLoad(['bookshop:v2'], { nodes: [W1] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`not yet present on node "${W1}", loading...`);
    expect(c.node(W1).containerd.imageStatus('bookshop:v2')).toBeDefined();
    expect(c.node(W2).containerd.imageStatus('bookshop:v2')).toBeUndefined();
    expect(c.kindLoad(['nope:v9']).stderr).toContain('ERROR: image: "nope:v9" not present locally');
  });
});

describe('boot variants', () => {
  it('bare: kube-system only, no bookshop', () => {
    const c = bootedCluster({ seed: 9, bare: true });
    expect(c.kubeSystemReady()).toBe(true);
    expect(c.api.tryGet('namespaces', undefined, 'bookshop')).toBeUndefined();
    expect(c.node(W1).containerd.imageStatus('bookshop:v1')).toBeUndefined();
    // kindnetd's loop (every 10 s) puts its CNI config back when it is removed or changed, also
    // after loops that found it in place.
    const fs = c.node(W1).fs;
    const path = '/etc/cni/net.d/10-kindnet.conflist';
    const text = fs.readFile(path);
    c.run(30_000);
    fs.rm(path);
    c.run(11_000);
    expect(fs.readFile(path)).toBe(text);
    c.run(30_000);
    fs.writeFile(path, '{}\n');
    c.run(11_000);
    expect(fs.readFile(path)).toBe(text);
    c.run(30_000);
    fs.writeFile('/etc/cni/net.d/other', 'x'); // another change of the node's files
    fs.writeFile(path, '{"edited": true}\n');
    c.run(11_000);
    expect(fs.readFile(path)).toBe(text);
  });

  it('the whole boot is deterministic: one seed, identical API writes', () => {
    const a = bootedCluster({ seed: 42, recordWriteDigest: true });
    const b = bootedCluster({ seed: 42, recordWriteDigest: true });
    expect(a.writeDigest().writes).toBeGreaterThan(300);
    expect(b.clock.now()).toBe(a.clock.now());
    expect(b.writeDigest()).toEqual(a.writeDigest());
    const other = createCluster({ seed: 43, recordWriteDigest: true });
    other.run(a.clock.now());
    expect(other.writeDigest().digest).not.toBe(a.writeDigest().digest);
  });

  it('disableDefaultCNI: no kindnet, so the nodes stay NotReady (no CNI configuration)', () => {
    const c = createCluster({ seed: 11, bare: true, kindConfig: 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nname: nocni\nnetworking:\n  disableDefaultCNI: true\n' });
    c.run(60_000);
    expect(c.milestones.clusterCreated).toBeDefined();
    expect(c.api.tryGet('daemonsets', 'kube-system', 'kindnet')).toBeUndefined();
    const node = c.api.get('nodes', undefined, 'nocni-control-plane');
    expect(condition(node, 'Ready')).toBe('False');
    expect(((node.status?.conditions ?? []) as (Cond & { message: string })[]).find((x) => x.type === 'Ready')!.message).toContain('cni plugin not initialized');
    expect(pods(c, 'kube-system').filter((p) => p.metadata.name!.startsWith('coredns-')).every((p) => p.status?.phase === 'Pending')).toBe(true);
  });

  it('a single-node kind config boots too', () => {
    const c = bootedCluster({ seed: 10, bare: true, kindConfig: 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nname: solo\nnodes:\n- role: control-plane\n  labels:\n    tier: edge\n' });
    // kind config labels reach the kubelet as --node-labels.
    expect(c.api.get('nodes', undefined, 'solo-control-plane').metadata.labels?.tier).toBe('edge');
    expect(c.api.list('nodes').items.map((n) => n.metadata.name)).toEqual(['solo-control-plane']);
    // kind removes the control-plane taint when there are no workers.
    expect(c.api.get('nodes', undefined, 'solo-control-plane').spec.taints ?? []).toEqual([]);
    expect(pods(c, 'kube-system').filter((p) => p.metadata.name!.startsWith('coredns-')).every(runningReady)).toBe(true);
  });
});
