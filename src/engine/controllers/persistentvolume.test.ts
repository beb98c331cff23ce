/**
 * persistentvolume-binder-controller, the DefaultStorageClass admission plugin and the kind
 * local-path provisioner, checked against documented behaviour:
 * pkg/controller/volume/persistentvolume/pv_controller.go, rancher/local-path-provisioner,
 * observed kind events, and cases.md C26.
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { ControllerProcess } from './manager';
import { newLocalPathProvisioner } from './localpathprovisioner';
import { findBestMatchForClaim, kindDefaultStorageClass } from './persistentvolume';
import type { KubeObject } from '../api/types';

function cluster(opts: { provisioner?: boolean } = {}): TestCluster {
  // With the protection controllers: StorageObjectInUseProtection admission puts finalizers on
  // every claim and volume, which only they remove.
  const c = newTestCluster({ controllers: ['persistentvolume-binder', 'pvc-protection', 'pv-protection'] });
  if (opts.provisioner) {
    // In a kind cluster this runs in the local-path-provisioner pod (namespace local-path-storage).
    const p = new ControllerProcess('local-path-provisioner', [(ctx) => newLocalPathProvisioner(ctx, { podName: 'local-path-provisioner-7dc846544d-lcbt6' })], {
      api: c.api,
      clock: c.clock,
      rng: c.rng,
      trace: c.trace.add,
      eventSink: (e) => c.events.push(e),
      leaderElect: false,
    });
    p.start();
  }
  return c;
}
const pvc = (name: string, extra = '', size = '1Gi', modes = '[ReadWriteOnce]') => `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
  accessModes: ${modes}
  resources: {requests: {storage: ${size}}}
${extra}`;
const pv = (name: string, size: string, extra = '', modes = '[ReadWriteOnce]') => `
apiVersion: v1
kind: PersistentVolume
metadata: {name: ${name}}
spec:
  capacity: {storage: ${size}}
  accessModes: ${modes}
  hostPath: {path: /mnt/data/${name}}
${extra}`;
const getPvc = (c: TestCluster, name: string) => c.api.get('persistentvolumeclaims', 'default', name);
const getPv = (c: TestCluster, name: string) => c.api.get('persistentvolumes', undefined, name);
const eventsOf = (c: TestCluster, name: string) => c.events.filter((e) => e.involvedObject.name === name).map((e) => [e.component, e.type, e.reason, e.message]);

describe('persistentvolume-binder-controller', () => {
  it('C26: a claim without a class and no default StorageClass stays Pending (FailedBinding), then binds to a matching PV', () => {
    const c = cluster();
    c.apply(pvc('www-web-0'));
    c.run(60_000);
    const claim = getPvc(c, 'www-web-0');
    expect(claim.status.phase).toBe('Pending');
    expect(claim.spec.storageClassName).toBeUndefined();
    const failed = c.events.filter((e) => e.reason === 'FailedBinding');
    expect(failed[0]).toMatchObject({ component: 'persistentvolume-controller', type: 'Normal', message: 'no persistent volumes available for this claim and no storage class is set' });
    // Repeated on every resync (--pvclaimbinder-sync-period 15 s): kubectl shows "(x5 over 60s)".
    expect(failed).toHaveLength(5);

    // A matching PV (1Gi, RWO, hostPath, no storageClassName): Available, then bound at the claim's next resync.
    c.apply(pv('pv-web', '1Gi'));
    c.run(1_000);
    expect(getPv(c, 'pv-web').status.phase).toBe('Available');
    c.run(29_000);
    const bound = getPvc(c, 'www-web-0');
    const vol = getPv(c, 'pv-web');
    expect(bound.status).toMatchObject({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    expect(bound.spec.volumeName).toBe('pv-web');
    expect(bound.metadata.annotations).toMatchObject({ 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(vol.status.phase).toBe('Bound');
    expect(vol.spec.claimRef).toMatchObject({ kind: 'PersistentVolumeClaim', namespace: 'default', name: 'www-web-0', uid: bound.metadata.uid, apiVersion: 'v1' });
    expect(vol.metadata.annotations?.['pv.kubernetes.io/bound-by-controller']).toBe('yes');
  });

  it('binds the smallest Available volume of the same class that is big enough and has every requested access mode', () => {
    const c = cluster();
    c.apply(pv('small', '500Mi'));
    c.apply(pv('big', '10Gi'));
    c.apply(pv('medium', '2Gi'));
    c.apply(pv('fast-2g', '2Gi', '  storageClassName: fast'));
    c.apply(pv('rwx', '1Gi', '', '[ReadWriteMany]'));
    c.run(2_000);
    c.apply(pvc('data'));
    c.apply(pvc('shared', '', '1Gi', '[ReadWriteMany]'));
    c.run(2_000);
    expect(getPvc(c, 'data').spec.volumeName).toBe('medium');
    expect(getPvc(c, 'shared').spec.volumeName).toBe('rwx');
    expect(getPv(c, 'small').status.phase).toBe('Available');
    expect(getPv(c, 'fast-2g').status.phase).toBe('Available');
  });

  it('a claim naming a volume that does not fit gets VolumeMismatch', () => {
    const c = cluster();
    c.apply(pv('tiny', '100Mi'));
    c.run(2_000);
    c.apply(pvc('wants-tiny', '  volumeName: tiny'));
    c.run(2_000);
    expect(getPvc(c, 'wants-tiny').status.phase).toBe('Pending');
    expect(eventsOf(c, 'wants-tiny')[0]).toEqual(['persistentvolume-controller', 'Warning', 'VolumeMismatch', 'Cannot bind to requested volume "tiny": requested PV is too small']);
  });

  it('DefaultStorageClass admission: a claim without a class gets the default one; storageClassName "" stays ""', () => {
    const c = cluster();
    c.api.create(kindDefaultStorageClass());
    c.apply(pvc('defaulted'));
    c.apply(pvc('explicit-none', '  storageClassName: ""'));
    expect(getPvc(c, 'defaulted').spec.storageClassName).toBe('standard');
    expect(getPvc(c, 'explicit-none').spec.storageClassName).toBe('');
    c.run(1_000);
    // "" means "no class": it waits for a class-less PV.
    expect(eventsOf(c, 'explicit-none')).toEqual([['persistentvolume-controller', 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set']]);
  });

  it('the kind StorageClass is `standard (default)`: rancher.io/local-path, Delete, WaitForFirstConsumer', () => {
    const c = cluster();
    const sc = c.api.create(kindDefaultStorageClass());
    expect(sc).toMatchObject({
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
  });

  it('a claim created before any default StorageClass gets it later (RetroactiveDefaultStorageClass)', () => {
    const c = cluster();
    c.apply(pvc('early'));
    c.run(1_000);
    c.api.create(kindDefaultStorageClass());
    c.run(16_000);
    const claim = getPvc(c, 'early');
    expect(claim.spec.storageClassName).toBe('standard');
    expect(claim.status.phase).toBe('Pending');
    expect(c.events.at(-1)).toMatchObject({ reason: 'WaitForFirstConsumer', message: 'waiting for first consumer to be created before binding' });
  });

  it('WaitForFirstConsumer, then the scheduler picks a node: ExternalProvisioning, and local-path provisions and binds pvc-<uid>', () => {
    const c = cluster({ provisioner: true });
    c.api.create(kindDefaultStorageClass());
    c.apply(pvc('notes', '', '500Mi'));
    c.run(5_000);
    expect(getPvc(c, 'notes').status.phase).toBe('Pending');
    expect(eventsOf(c, 'notes')).toEqual([['persistentvolume-controller', 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding']]);

    // What kube-scheduler's VolumeBinding plugin does when it places a pod using the claim.
    c.api.patch('persistentvolumeclaims', 'default', 'notes', 'merge', { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'worker-1' } } });
    c.run(1_000);
    const uid = getPvc(c, 'notes').metadata.uid;
    const source = 'rancher.io/local-path_local-path-provisioner-7dc846544d-lcbt6_';
    const ev = eventsOf(c, 'notes');
    expect(ev[1]).toEqual([
      'persistentvolume-controller',
      'Normal',
      'ExternalProvisioning',
      "Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    ]);
    expect(ev[2].slice(1)).toEqual(['Normal', 'Provisioning', 'External provisioner is provisioning volume for claim "default/notes"']);
    expect(String(ev[2][0]).startsWith(source)).toBe(true);
    expect(getPvc(c, 'notes').metadata.annotations).toMatchObject({
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });

    c.run(4_000);
    expect(eventsOf(c, 'notes')[3].slice(1)).toEqual(['Normal', 'ProvisioningSucceeded', `Successfully provisioned volume pvc-${uid}`]);
    const vol = getPv(c, `pvc-${uid}`);
    expect(vol.metadata.annotations).toEqual({ 'local.path.provisioner/selected-node': 'worker-1', 'pv.kubernetes.io/provisioned-by': 'rancher.io/local-path' });
    expect(vol.spec).toMatchObject({
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '500Mi' },
      hostPath: { path: `/var/local-path-provisioner/pvc-${uid}_default_notes`, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['worker-1'] }] }] } },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'standard',
      volumeMode: 'Filesystem',
    });
    expect(vol.status.phase).toBe('Bound');
    const claim = getPvc(c, 'notes');
    expect(claim.spec.volumeName).toBe(`pvc-${uid}`);
    expect(claim.status).toMatchObject({ phase: 'Bound', capacity: { storage: '500Mi' }, accessModes: ['ReadWriteOnce'] });
    // A provisioned volume already pointed at its claim: not "bound by controller" on the PV side.
    expect(vol.metadata.annotations?.['pv.kubernetes.io/bound-by-controller']).toBeUndefined();

    // Deleting the claim releases the volume; reclaim policy Delete: local-path removes it.
    c.api.delete('persistentvolumeclaims', 'default', 'notes');
    c.run(1_000);
    expect(getPv(c, `pvc-${uid}`).status.phase).toBe('Released');
    c.run(5_000);
    expect(c.api.tryGet('persistentvolumes', undefined, `pvc-${uid}`)).toBeUndefined();
  });

  it('local-path refuses ReadWriteMany with the real message', () => {
    const c = cluster({ provisioner: true });
    c.api.create(kindDefaultStorageClass());
    c.apply(pvc('shared', '', '1Gi', '[ReadWriteMany]'));
    c.api.patch('persistentvolumeclaims', 'default', 'shared', 'merge', { metadata: { annotations: { 'volume.kubernetes.io/selected-node': 'worker-2' } } });
    c.run(2_000);
    const failed = c.events.find((e) => e.reason === 'ProvisioningFailed');
    expect(failed).toMatchObject({
      type: 'Warning',
      message: 'failed to provision volume with StorageClass "standard": NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes',
    });
    expect(getPvc(c, 'shared').status.phase).toBe('Pending');
  });

  it('ProvisioningFailed for a missing class and for kubernetes.io/no-provisioner', () => {
    const c = cluster();
    c.apply(pvc('fast', '  storageClassName: fast'));
    c.api.create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'local' }, provisioner: 'kubernetes.io/no-provisioner' });
    c.apply(pvc('local', '  storageClassName: local'));
    c.run(2_000);
    expect(eventsOf(c, 'fast')).toEqual([['persistentvolume-controller', 'Warning', 'ProvisioningFailed', 'storageclass.storage.k8s.io "fast" not found']]);
    expect(eventsOf(c, 'local')).toEqual([['persistentvolume-controller', 'Warning', 'ProvisioningFailed', 'no volume plugin matched name: kubernetes.io/no-provisioner']]);
  });

  it('reclaim: Retain keeps a Released volume; Delete on a hostPath outside /tmp fails with VolumeFailedDelete', () => {
    const c = cluster();
    c.apply(pv('keep', '1Gi', '  persistentVolumeReclaimPolicy: Retain\n  storageClassName: manual'));
    c.apply(pv('drop', '1Gi', '  persistentVolumeReclaimPolicy: Delete\n  storageClassName: other'));
    c.run(1_000);
    c.apply(pvc('a', '  storageClassName: manual'));
    c.apply(pvc('b', '  storageClassName: other'));
    c.run(2_000);
    expect([getPv(c, 'keep').status.phase, getPv(c, 'drop').status.phase]).toEqual(['Bound', 'Bound']);
    c.api.delete('persistentvolumeclaims', 'default', 'a');
    c.api.delete('persistentvolumeclaims', 'default', 'b');
    c.run(2_000);
    expect(getPv(c, 'keep').status.phase).toBe('Released');
    expect(getPv(c, 'keep').spec.claimRef.name).toBe('a');
    expect(getPv(c, 'drop').status).toMatchObject({ phase: 'Failed', message: 'host_path deleter only supports /tmp/.+ but received provided /mnt/data/drop' });
    expect(eventsOf(c, 'drop').at(-1)).toEqual(['persistentvolume-controller', 'Warning', 'VolumeFailedDelete', 'host_path deleter only supports /tmp/.+ but received provided /mnt/data/drop']);
  });

  it('findBestMatchForClaim prefers the volume with the fewest access modes', () => {
    const vol = (name: string, modes: string[], size = '1Gi'): KubeObject => ({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name },
      spec: { capacity: { storage: size }, accessModes: modes },
      status: { phase: 'Available' },
    });
    const claim: KubeObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'default' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    expect(findBestMatchForClaim(claim, [vol('both', ['ReadWriteOnce', 'ReadOnlyMany'], '1Gi'), vol('rwo', ['ReadWriteOnce'], '5Gi')], false)?.metadata.name).toBe('rwo');
    // Delay binding: only a volume pre-bound to the claim counts.
    expect(findBestMatchForClaim(claim, [vol('rwo', ['ReadWriteOnce'])], true)).toBeUndefined();
  });

  it('C26 (StatefulSet): web-0 Pending on its unbound claim and no web-1; after the PV, web-0 Running and web-1 created', (t) => {
    const c = newTestCluster();
    c.apply(`
apiVersion: v1
kind: Service
metadata: {name: nginx, labels: {app: nginx}}
spec:
  ports: [{port: 80, name: web}]
  clusterIP: None
  selector: {app: nginx}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: nginx
  replicas: 2
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: registry.k8s.io/nginx-slim:0.21
        ports: [{containerPort: 80, name: web}]
        volumeMounts: [{name: www, mountPath: /usr/share/nginx/html}]
  volumeClaimTemplates:
  - metadata: {name: www}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
`);
    c.run(60_000);
    // Needs the statefulset controller and kube-scheduler's VolumeBinding (written by other helpers).
    if (!c.api.tryGet('persistentvolumeclaims', 'default', 'www-web-0') || !c.trace.list().some((e) => e.component.startsWith('kube-scheduler') || e.component.startsWith('default-scheduler'))) t.skip();
    expect(getPvc(c, 'www-web-0').status.phase).toBe('Pending');
    expect(c.api.get('pods', 'default', 'web-0').status.phase).toBe('Pending');
    expect(c.api.tryGet('pods', 'default', 'web-1')).toBeUndefined();
    c.apply(pv('pv-web-0', '1Gi'));
    c.run(30_000);
    expect(getPvc(c, 'www-web-0').status.phase).toBe('Bound');
    expect(c.api.get('pods', 'default', 'web-0').status.phase).toBe('Running');
    expect(c.api.tryGet('pods', 'default', 'web-1')).toBeDefined();
  });
});
