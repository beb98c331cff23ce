/**
 * statefulset-controller, checked against documented Kubernetes behaviour:
 * https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/ ("Deployment and
 * Scaling Guarantees", "Rolling Updates", "Forced rollback", "PersistentVolumeClaim retention"),
 * pkg/controller/statefulset (event wording), reference 1.3 / 8.1, cases.md C18 and C26.
 *
 * The scheduler and the PV binder are written separately; these tests run with
 * `scheduler: false` and two test-local stand-ins: `TestBinder` (binds pending pods, refusing
 * pods whose PVCs are not Bound) and `startClaimBinder` below (binds Pending PVCs to matching
 * PVs, optionally provisioning one per claim).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { TestBinder } from '../testing/testbinder';

const WEB = (image = 'nginx:1.27', extra = '') => `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: web
  replicas: 3
  selector: {matchLabels: {app: web}}
${extra}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "${image}"}]
`;

function setup(): TestCluster {
  const c = newTestCluster({ controllers: ['statefulset'], scheduler: false });
  new TestBinder({ api: c.api, clock: c.clock }).start();
  return c;
}

/**
 * Test-local stand-in for the PersistentVolume binder: every 500 ms, bind each Pending claim to
 * an Available PV with the same storageClassName and access modes; with `provision`, create
 * one (hostPath) first, as a default StorageClass's provisioner would.
 */
function startClaimBinder(c: TestCluster, provision: boolean): void {
  const tick = () => {
    for (const pvc of c.api.list('persistentvolumeclaims').items) {
      if (pvc.status?.phase === 'Bound') continue;
      let pv = c.api
        .list('persistentvolumes')
        .items.find(
          (v) =>
            v.status?.phase !== 'Bound' &&
            !v.spec.claimRef &&
            (v.spec.storageClassName ?? '') === (pvc.spec.storageClassName ?? '') &&
            (pvc.spec.accessModes ?? []).every((m: string) => (v.spec.accessModes ?? []).includes(m)),
        );
      if (!pv && provision) {
        pv = c.api.create({
          apiVersion: 'v1',
          kind: 'PersistentVolume',
          metadata: { name: `pvc-${pvc.metadata.uid}` },
          spec: { capacity: { storage: '1Gi' }, accessModes: pvc.spec.accessModes, hostPath: { path: `/data/${pvc.metadata.name}` }, persistentVolumeReclaimPolicy: 'Delete' },
        });
      }
      if (!pv) continue;
      c.api.update({ ...pv, spec: { ...pv.spec, claimRef: { kind: 'PersistentVolumeClaim', namespace: pvc.metadata.namespace, name: pvc.metadata.name, uid: pvc.metadata.uid } } });
      const pvNow = c.api.get('persistentvolumes', undefined, pv.metadata.name!);
      c.api.updateStatus({ ...pvNow, status: { phase: 'Bound' } });
      const claim = c.api.update({ ...pvc, spec: { ...pvc.spec, volumeName: pv.metadata.name } });
      c.api.updateStatus({ ...claim, status: { phase: 'Bound', accessModes: pvc.spec.accessModes, capacity: { storage: '1Gi' } } });
    }
    c.clock.schedule(500, tick, { background: true, label: 'test claim binder' });
  };
  c.clock.schedule(500, tick, { background: true, label: 'test claim binder' });
}

const sts = (c: TestCluster, name = 'web') => c.api.get('statefulsets', 'default', name);
const pod = (c: TestCluster, name: string) => c.api.tryGet('pods', 'default', name);
const names = (c: TestCluster) => c.pods().map((p) => p.metadata.name);
const ready = (p: KubeObject | undefined) => !!p && (p.status?.conditions ?? []).some((x: { type: string; status: string }) => x.type === 'Ready' && x.status === 'True');
const stsEvents = (c: TestCluster) => c.events.filter((e) => e.component === 'statefulset-controller').map((e) => `${e.reason} ${e.message}`);

describe('statefulset-controller: identity and ordering', () => {
  it('OrderedReady: creates web-0, web-1, web-2 in order, never more than one not-Ready pod at a time (docs: Deployment and Scaling Guarantees)', () => {
    const c = setup();
    c.apply(WEB());
    let maxUnready = 0;
    for (let t = 0; t < 10_000; t += 100) {
      c.run(100);
      maxUnready = Math.max(maxUnready, c.pods().filter((p) => !ready(p)).length);
    }
    expect(maxUnready).toBe(1);
    expect(names(c)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(stsEvents(c).filter((e) => e.startsWith('SuccessfulCreate'))).toEqual([
      'SuccessfulCreate create Pod web-0 in StatefulSet web successful',
      'SuccessfulCreate create Pod web-1 in StatefulSet web successful',
      'SuccessfulCreate create Pod web-2 in StatefulSet web successful',
    ]);
  });

  it('pods carry the stable identity: name, hostname, subdomain, pod-name, pod-index and controller-revision-hash labels (reference 1.3)', () => {
    const c = setup();
    c.apply(WEB());
    c.run(10_000);
    const s = sts(c);
    for (const [i, p] of c.pods().entries()) {
      expect(p.metadata.name).toBe(`web-${i}`);
      expect(p.metadata.generateName).toBe('web-');
      expect(p.spec.hostname).toBe(`web-${i}`);
      expect(p.spec.subdomain).toBe('web');
      expect(p.metadata.labels).toMatchObject({
        app: 'web',
        'statefulset.kubernetes.io/pod-name': `web-${i}`,
        'apps.kubernetes.io/pod-index': String(i),
        'controller-revision-hash': s.status.updateRevision,
      });
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: s.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    }
  });

  it('status and ControllerRevision after convergence', () => {
    const c = setup();
    c.apply(WEB());
    c.run(10_000);
    const s = sts(c);
    expect(s.status).toMatchObject({
      observedGeneration: 1,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      collisionCount: 0,
    });
    expect(s.status.currentRevision).toBe(s.status.updateRevision);
    expect(s.status.updateRevision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    const revs = c.api.list('controllerrevisions', { namespace: 'default' }).items;
    expect(revs.map((r) => [r.metadata.name, r.revision])).toEqual([[s.status.updateRevision, 1]]);
    expect(revs[0].metadata.labels).toMatchObject({ app: 'web', 'controller.kubernetes.io/hash': s.status.updateRevision.slice('web-'.length) });
    expect(revs[0].metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', controller: true });
    expect((revs[0].data as { spec: { template: { $patch: string } } }).spec.template.$patch).toBe('replace');
  });

  it('spec.ordinals.start numbers the pods from the start ordinal (StatefulSetStartOrdinal, GA 1.31)', () => {
    const c = setup();
    c.apply(WEB('nginx:1.27', '  ordinals: {start: 5}'));
    c.run(10_000);
    expect(names(c)).toEqual(['web-5', 'web-6', 'web-7']);
    expect(sts(c).status.readyReplicas).toBe(3);
  });

  it('Parallel: creates every pod at once (docs: Parallel Pod Management)', () => {
    const c = setup();
    c.apply(WEB('nginx:1.27', '  podManagementPolicy: Parallel'));
    c.run(200);
    expect(names(c)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(c.pods().every((p) => !ready(p))).toBe(true);
  });

  it('a controller-manager restart relists and carries on where it stopped', () => {
    const c = setup();
    c.apply(WEB());
    c.run(1500);
    c.stopControllerManager();
    c.run(30_000);
    expect(names(c)).toEqual(['web-0', 'web-1']);
    c.startControllerManager();
    c.run(20_000);
    expect(names(c)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(sts(c).status.readyReplicas).toBe(3);
  });
});

describe('statefulset-controller: scaling', () => {
  it('scale down removes the highest ordinal first, one at a time, each fully gone before the next (OrderedReady)', () => {
    const c = setup();
    c.apply(WEB());
    c.run(10_000);
    c.api.patch('statefulsets', 'default', 'web', 'merge', { spec: { replicas: 1 } });
    let sawBothTerminating = false;
    for (let t = 0; t < 10_000; t += 100) {
      c.run(100);
      const terminating = c.pods().filter((p) => p.metadata.deletionTimestamp).map((p) => p.metadata.name);
      if (terminating.length > 1) sawBothTerminating = true;
    }
    expect(sawBothTerminating).toBe(false);
    expect(names(c)).toEqual(['web-0']);
    expect(stsEvents(c).filter((e) => e.startsWith('SuccessfulDelete'))).toEqual([
      'SuccessfulDelete delete Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete delete Pod web-1 in StatefulSet web successful',
    ]);
    expect(sts(c).status).toMatchObject({ replicas: 1, readyReplicas: 1 });
  });

  it('a failed pod is deleted and recreated with the same name', () => {
    const c = setup();
    c.apply(WEB());
    c.run(10_000);
    const old = pod(c, 'web-1')!;
    c.api.updateStatus({ ...old, status: { ...old.status, phase: 'Failed' } });
    c.run(5000);
    const fresh = pod(c, 'web-1')!;
    expect(fresh.metadata.uid).not.toBe(old.metadata.uid);
    expect(ready(fresh)).toBe(true);
    expect(stsEvents(c)).toContain('SuccessfulDelete delete Pod web-1 in StatefulSet web successful');
  });

  it('a pod stuck Terminating on a dead node is not replaced: the name is still taken (at most one pod per identity)', () => {
    const c = setup();
    c.apply(WEB());
    c.run(10_000);
    const victim = pod(c, 'web-1')!;
    c.kubelet.stopNode(victim.spec.nodeName);
    c.api.delete('pods', 'default', 'web-1');
    c.run(300_000);
    const still = pod(c, 'web-1')!;
    expect(still.metadata.uid).toBe(victim.metadata.uid);
    expect(still.metadata.deletionTimestamp).toBeDefined();
    expect(c.pods().filter((p) => p.metadata.name === 'web-1')).toHaveLength(1);
    expect(stsEvents(c).filter((e) => e.includes('create Pod web-1'))).toHaveLength(1);
  });
});

describe('statefulset-controller: updates', () => {
  it('RollingUpdate replaces pods from the highest ordinal down, each after the previous is Ready; the update revision becomes current', () => {
    const c = setup();
    c.apply(WEB());
    c.run(10_000);
    const before = sts(c).status.currentRevision;
    c.apply(WEB('nginx:1.28'));
    c.run(30_000);
    const deletes = stsEvents(c).filter((e) => e.startsWith('SuccessfulDelete'));
    expect(deletes).toEqual([
      'SuccessfulDelete delete Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete delete Pod web-1 in StatefulSet web successful',
      'SuccessfulDelete delete Pod web-0 in StatefulSet web successful',
    ]);
    const s = sts(c);
    expect(s.status.currentRevision).not.toBe(before);
    expect(s.status).toMatchObject({ currentRevision: s.status.updateRevision, updatedReplicas: 3, currentReplicas: 3, readyReplicas: 3, observedGeneration: 2 });
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.28', 'nginx:1.28', 'nginx:1.28']);
    const revs = c.api.list('controllerrevisions', { namespace: 'default' }).items.map((r) => [r.metadata.name, r.revision]);
    expect(revs).toEqual(expect.arrayContaining([[before, 1], [s.status.updateRevision, 2]]));
  });

  it('partition: only ordinals >= partition move to the new revision', () => {
    const c = setup();
    c.apply(WEB('nginx:1.27', '  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}'));
    c.run(10_000);
    c.apply(WEB('nginx:1.28', '  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 2}}'));
    c.run(30_000);
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.28']);
    const s = sts(c);
    expect(s.status).toMatchObject({ currentReplicas: 2, updatedReplicas: 1, readyReplicas: 3 });
    expect(s.status.currentRevision).not.toBe(s.status.updateRevision);
  });

  it('OnDelete: nothing changes until a pod is deleted, which comes back at the update revision', () => {
    const c = setup();
    c.apply(WEB('nginx:1.27', '  updateStrategy: {type: OnDelete}'));
    c.run(10_000);
    c.apply(WEB('nginx:1.28', '  updateStrategy: {type: OnDelete}'));
    c.run(30_000);
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
    c.api.delete('pods', 'default', 'web-0');
    c.run(10_000);
    expect(c.pods().map((p) => p.spec.containers[0].image)).toEqual(['nginx:1.28', 'nginx:1.27', 'nginx:1.27']);
    expect(sts(c).status).toMatchObject({ updatedReplicas: 1, currentReplicas: 2 });
  });

  it('cases.md C18: stuck on a broken pod; reverting the template does not roll it back until the pod is deleted by hand', () => {
    const c = setup();
    c.apply(WEB());
    c.run(60_000);
    expect(c.pods().every(ready)).toBe(true);
    const uid0 = pod(c, 'web-0')!.metadata.uid;
    const uid1 = pod(c, 'web-1')!.metadata.uid;
    c.apply(WEB('nginx:does-not-exist'));
    c.run(120_000);
    const broken = pod(c, 'web-2')!;
    expect(broken.spec.containers[0].image).toBe('nginx:does-not-exist');
    expect(ready(broken)).toBe(false);
    expect(broken.status.containerStatuses[0].state.waiting.reason).toMatch(/ErrImagePull|ImagePullBackOff/);
    expect([pod(c, 'web-0')!.metadata.uid, pod(c, 'web-1')!.metadata.uid]).toEqual([uid0, uid1]);

    c.apply(WEB('nginx:1.27'));
    c.run(120_000);
    // expected: 120 s after the revert web-2 still has the bad image and is not Ready; web-0/web-1 untouched.
    expect(pod(c, 'web-2')!.metadata.uid).toBe(broken.metadata.uid);
    expect(pod(c, 'web-2')!.spec.containers[0].image).toBe('nginx:does-not-exist');
    expect(ready(pod(c, 'web-2'))).toBe(false);
    expect([pod(c, 'web-0')!.metadata.uid, pod(c, 'web-1')!.metadata.uid]).toEqual([uid0, uid1]);

    c.api.delete('pods', 'default', 'web-2');
    c.run(60_000);
    // expected: 60 s after the delete web-2 is Ready with nginx:1.27.
    expect(pod(c, 'web-2')!.spec.containers[0].image).toBe('nginx:1.27');
    expect(ready(pod(c, 'web-2'))).toBe(true);
    const s = sts(c);
    expect(s.status.readyReplicas).toBe(3);
    expect(s.status.currentRevision).toBe(s.status.updateRevision);
    // The revert found the first revision again and renumbered it (docs: ControllerRevision history).
    const revs = c.api.list('controllerrevisions', { namespace: 'default' }).items;
    expect(revs.find((r) => r.metadata.name === s.status.updateRevision)!.revision).toBe(3);
  });
});

describe('statefulset-controller: volumeClaimTemplates', () => {
  const WITH_PVC = (extra = '') => `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: web
  replicas: 2
  selector: {matchLabels: {app: web}}
${extra}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        volumeMounts: [{name: www, mountPath: /usr/share/nginx/html}]
  volumeClaimTemplates:
  - metadata: {name: www}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`;

  it('creates the claim <template>-<set>-<ordinal> before the pod, mounts it, and records both Events', () => {
    const c = setup();
    startClaimBinder(c, true);
    c.apply(WITH_PVC());
    c.run(20_000);
    const claims = c.api.list('persistentvolumeclaims', { namespace: 'default' }).items;
    expect(claims.map((x) => x.metadata.name)).toEqual(['www-web-0', 'www-web-1']);
    expect(claims[0].metadata.labels).toEqual({ app: 'web' });
    expect(claims[0].metadata.ownerReferences).toBeUndefined();
    expect(pod(c, 'web-0')!.spec.volumes).toEqual(expect.arrayContaining([{ name: 'www', persistentVolumeClaim: { claimName: 'www-web-0' } }]));
    expect(stsEvents(c).slice(0, 2)).toEqual([
      'SuccessfulCreate create Claim www-web-0 Pod web-0 in StatefulSet web success',
      'SuccessfulCreate create Pod web-0 in StatefulSet web successful',
    ]);
    expect(c.pods().every(ready)).toBe(true);
  });

  it('Retain (default): scaling down keeps the claims, scaling up again reuses them', () => {
    const c = setup();
    startClaimBinder(c, true);
    c.apply(WITH_PVC());
    c.run(20_000);
    const uid = c.api.get('persistentvolumeclaims', 'default', 'www-web-1').metadata.uid;
    c.api.patch('statefulsets', 'default', 'web', 'merge', { spec: { replicas: 1 } });
    c.run(10_000);
    expect(names(c)).toEqual(['web-0']);
    expect(c.api.get('persistentvolumeclaims', 'default', 'www-web-1').metadata.uid).toBe(uid);
    c.api.patch('statefulsets', 'default', 'web', 'merge', { spec: { replicas: 2 } });
    c.run(10_000);
    expect(names(c)).toEqual(['web-0', 'web-1']);
    expect(c.api.get('persistentvolumeclaims', 'default', 'www-web-1').metadata.uid).toBe(uid);
    expect(stsEvents(c).filter((e) => e.includes('Claim www-web-1'))).toHaveLength(1);
  });

  it('persistentVolumeClaimRetentionPolicy Delete: claims point at the set, a scaled-down ordinal\'s claim at its pod (the GC deletes them)', () => {
    const c = setup();
    startClaimBinder(c, true);
    c.apply(WITH_PVC('  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Delete}'));
    c.run(20_000);
    const s = sts(c);
    for (const n of ['www-web-0', 'www-web-1']) {
      expect(c.api.get('persistentvolumeclaims', 'default', n).metadata.ownerReferences).toEqual([
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: s.metadata.uid, controller: true, blockOwnerDeletion: true },
      ]);
    }
    const web1 = pod(c, 'web-1')!;
    c.api.patch('statefulsets', 'default', 'web', 'merge', { spec: { replicas: 1 } });
    c.run(200);
    expect(c.api.get('persistentvolumeclaims', 'default', 'www-web-1').metadata.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: web1.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
  });

  it('cases.md C26: an unbound PVC keeps web-0 Pending and web-1 is never created; a matching PV unblocks both in order', () => {
    const c = setup();
    startClaimBinder(c, false);
    c.apply(readFileSync(new URL('../../../fixtures/corpus/manifests/website__application-web-statefulset.yaml', import.meta.url), 'utf8'));
    c.run(60_000);
    // expected: at 60 s the PVC is Pending, web-0 is Pending, and pod web-1 does not exist.
    expect(c.api.get('persistentvolumeclaims', 'default', 'www-web-0').status.phase).toBe('Pending');
    expect(pod(c, 'web-0')!.status.phase).toBe('Pending');
    expect(pod(c, 'web-0')!.spec.nodeName).toBeUndefined();
    expect(pod(c, 'web-1')).toBeUndefined();
    c.api.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-www' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data/www' } },
    });
    c.run(30_000);
    // expected: after the PV, www-web-0 is Bound, web-0 Running, and web-1 exists (Pending on its own PVC).
    expect(c.api.get('persistentvolumeclaims', 'default', 'www-web-0').status.phase).toBe('Bound');
    expect(pod(c, 'web-0')!.status.phase).toBe('Running');
    expect(pod(c, 'web-1')!.status.phase).toBe('Pending');
    expect(c.api.get('persistentvolumeclaims', 'default', 'www-web-1').status.phase).toBe('Pending');
  });
});
