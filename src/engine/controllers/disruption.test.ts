/**
 * disruption-controller status and the eviction subresource that reads it. Checked against
 * https://kubernetes.io/docs/tasks/run-application/configure-pdb/ ("Check the status of the
 * PDB": ALLOWED DISRUPTIONS, currentHealthy/desiredHealthy/expectedPods, the DisruptionAllowed
 * condition) and https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/ (429 Too
 * Many Requests when the budget would be violated), pkg/controller/disruption/disruption.go and
 * pkg/registry/core/pod/storage/eviction.go (messages).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { EVICTION_PDB_MESSAGE } from '../api/eviction';
import { newTestCluster, type TestCluster } from '../testing/cluster';

const DEPLOY = (replicas: number) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx}]
`;

const PDB = (spec: string, name = 'web-pdb') => `
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: ${name}}
spec:
  selector: {matchLabels: {app: web}}
  ${spec}
`;

function setup(replicas = 3): TestCluster {
  const c = newTestCluster({ controllers: ['replicaset', 'deployment', 'disruption'] });
  c.apply(DEPLOY(replicas));
  c.run(20_000);
  return c;
}

const pdb = (c: TestCluster, name = 'web-pdb') => c.api.get('poddisruptionbudgets', 'default', name);
const cond = (o: { status?: { conditions?: { type: string; status: string; reason: string }[] } }) =>
  (o.status?.conditions ?? []).map((x) => `${x.type}=${x.status}/${x.reason}`);

describe('disruption controller', () => {
  it('maxUnavailable 1 over a 3-replica Deployment: expectedPods 3, desiredHealthy 2, disruptionsAllowed 1, SufficientPods', () => {
    const c = setup();
    c.apply(PDB('maxUnavailable: 1'));
    c.run(2000);
    const p = pdb(c);
    expect(p.status).toMatchObject({ currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1, observedGeneration: 1 });
    expect(p.status.conditions).toEqual([
      { type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: expect.any(String), reason: 'SufficientPods', message: '' },
    ]);
  });

  it('minAvailable as a number counts the matching pods; as a percentage the controllers scale, rounded up', () => {
    const c = setup();
    c.apply(PDB('minAvailable: 3'));
    c.apply(PDB('minAvailable: "50%"', 'half'));
    c.run(2000);
    expect(pdb(c).status).toMatchObject({ currentHealthy: 3, desiredHealthy: 3, expectedPods: 3, disruptionsAllowed: 0 });
    expect(cond(pdb(c))).toEqual(['DisruptionAllowed=False/InsufficientPods']);
    expect(pdb(c, 'half').status).toMatchObject({ desiredHealthy: 2, expectedPods: 3, disruptionsAllowed: 1 });
  });

  it('a budget selecting nothing: NoPods event "No matching pods found", nothing allowed', () => {
    const c = newTestCluster({ controllers: ['disruption'] });
    c.apply(PDB('minAvailable: 1'));
    c.run(2000);
    expect(pdb(c).status).toMatchObject({ currentHealthy: 0, desiredHealthy: 1, expectedPods: 0, disruptionsAllowed: 0 });
    const ev = c.events.find((e) => e.reason === 'NoPods')!;
    expect(ev).toMatchObject({ component: 'disruption-controller', type: 'Normal', message: 'No matching pods found', involvedObject: { kind: 'PodDisruptionBudget', name: 'web-pdb' } });
  });

  it('maxUnavailable over bare pods (no controller): they are unmanaged, expectedPods 0, nothing allowed', () => {
    const c = newTestCluster({ controllers: ['disruption'] });
    c.api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    c.apply(PDB('maxUnavailable: 1'));
    c.run(5000);
    // A pod without a controller is "unmanaged": expected 0, so nothing may be disrupted.
    expect(pdb(c).status).toMatchObject({ expectedPods: 0, disruptionsAllowed: 0 });
  });

  it('follows the pods: a scale-up makes room, a not-Ready pod takes it away', () => {
    const c = setup(2);
    c.apply(PDB('minAvailable: 2'));
    c.run(2000);
    expect(pdb(c).status.disruptionsAllowed).toBe(0);
    c.api.patch('deployments', 'default', 'web', 'merge', { spec: { replicas: 3 } });
    c.run(20_000);
    expect(pdb(c).status).toMatchObject({ currentHealthy: 3, disruptionsAllowed: 1 });
    expect(cond(pdb(c))).toEqual(['DisruptionAllowed=True/SufficientPods']);
  });
});

describe('eviction subresource', () => {
  it('refuses with 429 when the budget allows no disruption, with the DisruptionBudget cause', () => {
    const c = setup(2);
    c.apply(PDB('minAvailable: 2'));
    c.run(2000);
    const [victim] = c.pods('default', 'app=web');
    let err: ApiError | undefined;
    try {
      c.api.evict('default', victim.metadata.name!);
    } catch (e) {
      err = e as ApiError;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect(err!.status.code).toBe(429);
    expect(err!.status.reason).toBe('TooManyRequests');
    expect(err!.message).toBe(EVICTION_PDB_MESSAGE);
    expect(err!.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(err!.status.details?.causes).toEqual([{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb needs 2 healthy pods and has 2 currently' }]);
    expect(err!.kubectlMessage()).toBe("Error from server (TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget.");
    expect(c.api.get('pods', 'default', victim.metadata.name!).metadata.deletionTimestamp).toBeUndefined();
  });

  it('allows one eviction: decrements disruptionsAllowed, records disruptedPods, deletes the pod; the next is refused', () => {
    const c = setup(3);
    c.apply(PDB('maxUnavailable: 1'));
    c.run(2000);
    const [a, b] = c.pods('default', 'app=web');
    expect(c.api.evict('default', a.metadata.name!)).toMatchObject({ kind: 'Status', status: 'Success' });
    const after = pdb(c);
    expect(after.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(after.status.disruptedPods)).toEqual([a.metadata.name]);
    expect(cond(after)).toEqual(['DisruptionAllowed=False/InsufficientPods']);
    expect(c.api.get('pods', 'default', a.metadata.name!).metadata.deletionTimestamp).toBeDefined();
    expect(() => c.api.evict('default', b.metadata.name!)).toThrow(EVICTION_PDB_MESSAGE);
    // The replacement becomes Ready and the budget allows one disruption again.
    c.run(30_000);
    expect(pdb(c).status).toMatchObject({ currentHealthy: 3, disruptionsAllowed: 1 });
    expect(pdb(c).status.disruptedPods).toBeUndefined();
  });

  it('a pod no budget covers is simply deleted; a missing pod is 404', () => {
    const c = setup(1);
    const [p] = c.pods('default', 'app=web');
    c.api.evict('default', p.metadata.name!);
    expect(c.api.get('pods', 'default', p.metadata.name!).metadata.deletionTimestamp).toBeDefined();
    expect(() => c.api.evict('default', 'nope')).toThrow('pods "nope" not found');
  });
});
