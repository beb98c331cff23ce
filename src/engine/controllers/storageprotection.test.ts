/**
 * StorageObjectInUseProtection admission plus the pvc-protection and pv-protection controllers,
 * as a user sees them through kubectl: plugin/pkg/admission/storage/storageobjectinuseprotection,
 * pkg/controller/volume/pvcprotection/pvc_protection_controller.go (`podUsesPVC`) and
 * pkg/controller/volume/pvprotection/pv_protection_controller.go (`isVolumeUsed`).
 */
import { describe, expect, it } from 'vitest';
import { bench, type Bench } from '../../shell/kubectl/testing';

const PV = `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-data}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  hostPath: {path: /mnt/data}
`;
const PVC = `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const POD = `
apiVersion: v1
kind: Pod
metadata: {name: writer}
spec:
  containers: [{name: app, image: busybox:1.36, command: [sleep, '3600'], volumeMounts: [{name: data, mountPath: /data}]}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;

/** A bench with a PV, a claim bound to it and (optionally) a running pod mounting the claim. */
function setup(withPod: boolean): Bench {
  const b = bench();
  b.c.apply(PV);
  b.c.apply(PVC);
  b.c.run(30_000);
  if (withPod) {
    b.c.apply(POD);
    b.c.run(10_000);
  }
  return b;
}
const pvcRow = (b: Bench) => b.run('kubectl get pvc').stdout.split('\n').find((l) => l.startsWith('data ')) ?? '';
const pvRow = (b: Bench) => b.run('kubectl get pv').stdout.split('\n').find((l) => l.startsWith('pv-data ')) ?? '';

describe('StorageObjectInUseProtection admission', () => {
  it('puts kubernetes.io/pvc-protection on a new claim and kubernetes.io/pv-protection on a new volume', () => {
    const b = setup(false);
    expect(b.run('kubectl get pvc data -o yaml').stdout).toContain('  finalizers:\n  - kubernetes.io/pvc-protection\n');
    expect(b.run('kubectl get pv pv-data -o yaml').stdout).toContain('  finalizers:\n  - kubernetes.io/pv-protection\n');
    expect(b.run('kubectl describe pvc data').stdout).toMatch(/^Finalizers:\s+\[kubernetes\.io\/pvc-protection\]$/m);
    expect(b.run('kubectl describe pv pv-data').stdout).toMatch(/^Finalizers:\s+\[kubernetes\.io\/pv-protection\]$/m);
  });
});

describe('pvc-protection controller', () => {
  it('keeps a claim a running pod mounts Terminating until the pod is deleted', () => {
    const b = setup(true);
    expect(b.run('kubectl get pod writer').stdout).toMatch(/writer\s+1\/1\s+Running/);
    expect(pvcRow(b)).toMatch(/^data\s+Bound\s+pv-data\s+1Gi\s+RWO/);
    expect(b.run('kubectl describe pvc data').stdout).toMatch(/^Used By:\s+writer$/m);

    const del = b.run('kubectl delete pvc data --wait=false');
    expect(del.stdout).toBe('persistentvolumeclaim "data" deleted from default namespace\n');
    b.c.run(60_000);
    expect(pvcRow(b)).toMatch(/^data\s+Terminating\s+pv-data\s+1Gi\s+RWO/);
    const described = b.run('kubectl describe pvc data').stdout;
    expect(described).toMatch(/^Status:\s+Terminating \(lasts \d+s\)$/m);
    expect(described).toMatch(/^Finalizers:\s+\[kubernetes\.io\/pvc-protection\]$/m);
    expect(described).toMatch(/^Used By:\s+writer$/m);

    b.run('kubectl delete pod writer');
    b.c.run(5_000);
    const after = b.run('kubectl get pvc data');
    expect(after.stderr).toBe('Error from server (NotFound): persistentvolumeclaims "data" not found\n');
    // The Retain volume is Released once its claim is gone (the binder's next sync).
    b.c.run(30_000);
    expect(pvRow(b)).toMatch(/^pv-data\s+1Gi\s+RWO\s+Retain\s+Released\s+default\/data/);
  });

  it('a completed pod still holds the claim until the pod object is deleted', () => {
    const b = setup(false);
    b.c.apply(POD.replace("command: [sleep, '3600']", "command: [sh, -c, 'exit 0']").replace('spec:\n  containers', 'spec:\n  restartPolicy: Never\n  containers'));
    b.c.run(20_000);
    expect(b.run('kubectl get pod writer').stdout).toMatch(/writer\s+0\/1\s+Completed/);
    b.run('kubectl delete pvc data --wait=false');
    b.c.run(30_000);
    expect(pvcRow(b)).toMatch(/^data\s+Terminating/);
    b.run('kubectl delete pod writer');
    b.c.run(2_000);
    expect(b.run('kubectl get pvc').stderr).toBe('No resources found in default namespace.\n');
  });

  it('kubectl delete pvc of an unused claim returns once the claim is gone', () => {
    const b = setup(false);
    const start = b.c.clock.now();
    const del = b.run('kubectl delete pvc data');
    expect(del).toMatchObject({ code: 0, stdout: 'persistentvolumeclaim "data" deleted from default namespace\n' });
    expect(b.c.clock.now() - start).toBeLessThan(2_000);
    expect(b.run('kubectl get pvc').stderr).toBe('No resources found in default namespace.\n');
  });
});

describe('pv-protection controller', () => {
  it('keeps a Bound volume Terminating until it is no longer Bound', () => {
    const b = setup(false);
    expect(pvRow(b)).toMatch(/Bound\s+default\/data/);
    b.run('kubectl delete pv pv-data --wait=false');
    b.c.run(30_000);
    expect(pvRow(b)).toMatch(/^pv-data\s+1Gi\s+RWO\s+Retain\s+Terminating\s+default\/data/);
    expect(b.run('kubectl describe pv pv-data').stdout).toMatch(/^Finalizers:\s+\[kubernetes\.io\/pv-protection\]$/m);

    // Deleting the claim: the binder marks the volume Released, then pv-protection lets it go.
    b.run('kubectl delete pvc data');
    b.c.run(30_000);
    expect(b.run('kubectl get pv').stderr).toBe('No resources found\n');
  });

  it('an unbound volume is deleted at once', () => {
    const b = bench();
    b.c.apply(PV);
    b.c.run(2_000);
    expect(b.run('kubectl delete pv pv-data')).toMatchObject({ code: 0, stdout: 'persistentvolume "pv-data" deleted\n' });
    expect(b.run('kubectl get pv').stderr).toBe('No resources found\n');
  });
});

describe('storage protection in the flows around it', () => {
  it('kubectl delete namespace with a pod mounting a claim: the claim waits for the pod, then the namespace goes', () => {
    const b = bench();
    b.c.apply('apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n');
    b.c.apply('apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: default, namespace: shop}\n');
    b.c.apply(PV);
    b.c.apply(PVC, 'shop');
    b.c.run(30_000);
    b.c.apply(POD, 'shop');
    b.c.run(10_000);
    expect(b.run('kubectl get pod writer -n shop').stdout).toMatch(/writer\s+1\/1\s+Running/);
    b.run('kubectl delete namespace shop --wait=false');
    b.c.run(120_000);
    expect(b.run('kubectl get namespace shop').stderr).toBe('Error from server (NotFound): namespaces "shop" not found\n');
    expect(b.c.api.list('persistentvolumeclaims', { namespace: 'shop' }).items).toEqual([]);
  });

  it('a StatefulSet with whenDeleted: Delete: its claims go once its pods are gone', () => {
    const b = bench();
    b.c.apply(PV);
    b.c.apply(`
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 1
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`);
    b.c.run(60_000);
    expect(b.run('kubectl get pod db-0').stdout).toMatch(/db-0\s+1\/1\s+Running/);
    expect(b.run('kubectl get pvc data-db-0').stdout).toMatch(/data-db-0\s+Bound\s+pv-data/);
    b.run('kubectl delete statefulset db --wait=false');
    b.c.run(120_000);
    expect(b.run('kubectl get pods').stderr).toBe('No resources found in default namespace.\n');
    expect(b.run('kubectl get pvc').stderr).toBe('No resources found in default namespace.\n');
  });
});
