/**
 * Client-side `kubectl apply` planning.
 * Sources: staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go and patcher.go,
 * staging/src/k8s.io/kubectl/pkg/util/apply.go (`GetModifiedConfiguration`),
 * https://kubernetes.io/docs/tasks/manage-kubernetes-objects/declarative-config/ (the
 * last-applied-configuration of simple_deployment.yaml, merge semantics of apply),
 * /work/shared/cases/cases.md C16 (`kubectl apply` undoes a manual `kubectl scale`;
 * kubernetes/kubernetes#32746, kubernetes/website#29739).
 */
import { describe, expect, it } from 'vitest';
import { LAST_APPLIED_ANNOTATION, applyVerb, goJsonMarshal, lastAppliedConfiguration, missingAnnotationWarning, planApply, type ApplyPlan } from './apply';
import { applyMergePatch, applyStrategicMergePatch } from './patch';
import { deepCopy, type KubeObject } from './types';

/** simple_deployment.yaml from the declarative-config task page, with the namespace kubectl fills in. */
function manifest(replicas?: number, image = 'nginx:1.14.2'): KubeObject {
  const m: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'nginx-deployment', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      minReadySeconds: 5,
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] },
      },
    },
  };
  if (replicas !== undefined) m.spec.replicas = replicas;
  return m;
}

/** What the apiserver and the deployment controller make of a created object (defaults, status, revision). */
function asStored(obj: KubeObject): KubeObject {
  const o = deepCopy(obj);
  o.metadata = {
    ...o.metadata,
    uid: '6f1b1c1e-0000-4000-8000-000000000001',
    resourceVersion: '1234',
    generation: 1,
    creationTimestamp: '2026-01-05T06:16:38Z',
    annotations: { ...o.metadata.annotations, 'deployment.kubernetes.io/revision': '1' },
  };
  o.spec.replicas ??= 1;
  o.spec.revisionHistoryLimit = 10;
  o.spec.progressDeadlineSeconds = 600;
  o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
  const c = o.spec.template.spec.containers[0];
  Object.assign(c, { imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
  c.ports[0].protocol = 'TCP';
  Object.assign(o.spec.template.spec, { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 });
  o.status = { observedGeneration: 1, replicas: o.spec.replicas, readyReplicas: o.spec.replicas, availableReplicas: o.spec.replicas };
  return o;
}

function patched(live: KubeObject, plan: ApplyPlan): KubeObject {
  if (plan.action !== 'patch') throw new Error(`expected a patch, got ${plan.action}`);
  return (plan.patchType === 'strategic' ? applyStrategicMergePatch(live, plan.patch, live.kind) : applyMergePatch(live, plan.patch)) as KubeObject;
}

describe('last-applied-configuration', () => {
  it('is the manifest as compact JSON with sorted keys, "annotations":{} and a trailing newline (declarative-config task page)', () => {
    expect(lastAppliedConfiguration(manifest())).toBe(
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"nginx-deployment","namespace":"default"},' +
        '"spec":{"minReadySeconds":5,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},' +
        '"spec":{"containers":[{"image":"nginx:1.14.2","name":"nginx","ports":[{"containerPort":80}]}]}}}}\n',
    );
  });

  it('never contains itself, keeps other annotations, and escapes <, > and & as Go encoding/json does', () => {
    const m = manifest();
    m.metadata.annotations = { [LAST_APPLIED_ANNOTATION]: 'old', note: '<b>&' };
    const s = lastAppliedConfiguration(m);
    expect(s).toContain('"annotations":{"note":"\\u003cb\\u003e\\u0026"}');
    expect(s).not.toContain('old');
    expect(goJsonMarshal({ b: 1, a: [true, null, 'x'] })).toBe('{"a":[true,null,"x"],"b":1}');
  });
});

describe('planApply', () => {
  it('creates an absent object with the annotation set (CreateApplyAnnotation) and prints "created"', () => {
    const plan = planApply(manifest(2), undefined, 'Deployment', false);
    expect(plan.action).toBe('create');
    if (plan.action !== 'create') return;
    expect(plan.object.metadata.annotations).toEqual({ [LAST_APPLIED_ANNOTATION]: lastAppliedConfiguration(manifest(2)) });
    expect(plan.object.spec.replicas).toBe(2);
    expect(applyVerb(plan)).toBe('created');
  });

  it('prints "unchanged" when re-applying the same file to an untouched object, whatever the server added', () => {
    const created = planApply(manifest(2), undefined, 'Deployment', false);
    if (created.action !== 'create') throw new Error('create expected');
    const live = asStored(created.object);
    const plan = planApply(manifest(2), live, 'Deployment', false);
    expect(plan).toEqual({ action: 'unchanged' });
    expect(applyVerb(plan)).toBe('unchanged');
  });

  it('undoes a manual `kubectl scale` because replicas is in the file (C16), keeping fields only the live object has', () => {
    const created = planApply(manifest(2), undefined, 'Deployment', false);
    if (created.action !== 'create') throw new Error('create expected');
    const live = asStored(created.object);
    live.spec.replicas = 5; // kubectl scale deploy nginx-deployment --replicas=5
    live.status.replicas = 5;

    const plan = planApply(manifest(2), live, 'Deployment', false);
    expect(plan).toEqual({ action: 'patch', patch: { spec: { replicas: 2 } }, patchType: 'strategic' });
    expect(applyVerb(plan)).toBe('configured');

    const after = patched(live, plan);
    expect(after.spec.replicas).toBe(2);
    expect(after.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(after.metadata.annotations?.[LAST_APPLIED_ANNOTATION]).toBe(lastAppliedConfiguration(manifest(2)));
    expect(after.status).toEqual(live.status);
    expect(after.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
  });

  it('C16 repro: a new image plus the old replicas rolls out at the file\'s count, container defaults kept', () => {
    const created = planApply(manifest(3), undefined, 'Deployment', false);
    if (created.action !== 'create') throw new Error('create expected');
    const live = asStored(created.object);
    live.spec.replicas = 5;
    const plan = planApply(manifest(3, 'nginx:1.16.1'), live, 'Deployment', false);
    if (plan.action !== 'patch') throw new Error('patch expected');
    expect(plan.patch).toEqual({
      metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: lastAppliedConfiguration(manifest(3, 'nginx:1.16.1')) } },
      spec: {
        replicas: 3,
        template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ name: 'nginx', image: 'nginx:1.16.1' }] } },
      },
    });
    const after = patched(live, plan);
    expect(after.spec.replicas).toBe(3);
    expect(after.spec.template.spec.containers).toEqual([
      {
        name: 'nginx',
        image: 'nginx:1.16.1',
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 80, protocol: 'TCP' }],
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ]);
  });

  it('C16 variant: deleting the replicas line deletes the field (the server then defaults it to 1)', () => {
    const created = planApply(manifest(3), undefined, 'Deployment', false);
    if (created.action !== 'create') throw new Error('create expected');
    const live = asStored(created.object);
    live.spec.replicas = 5;
    const plan = planApply(manifest(), live, 'Deployment', false);
    if (plan.action !== 'patch') throw new Error('patch expected');
    expect(plan.patch.spec).toEqual({ replicas: null });
    expect('replicas' in patched(live, plan).spec).toBe(false);
  });

  it('patches an object created without apply, adding the annotation, and flags the warning kubectl prints', () => {
    const live = asStored(manifest(2));
    const plan = planApply(manifest(2), live, 'Deployment', false);
    if (plan.action !== 'patch') throw new Error('patch expected');
    expect(plan.missingAnnotation).toBe(true);
    expect(plan.patch).toEqual({ metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: lastAppliedConfiguration(manifest(2)) } } });
    expect(missingAnnotationWarning('deployments', 'nginx-deployment')).toBe(
      'Warning: resource deployments/nginx-deployment is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.',
    );
  });

  it('uses a JSON merge patch for custom resources, which kubectl\'s scheme does not know', () => {
    const shelf = (name: string): KubeObject => ({
      apiVersion: 'bookshop.engineers-musings.dev/v1',
      kind: 'Shelf',
      metadata: { name: 'staff-picks', namespace: 'bookshop' },
      spec: { displayName: name, isbns: ['978-0132350884'] },
    });
    const created = planApply(shelf('Staff Picks'), undefined, 'Shelf', true);
    if (created.action !== 'create') throw new Error('create expected');
    const live = { ...deepCopy(created.object), status: { bookCount: 1 } };
    const plan = planApply(shelf('Picks'), live, 'Shelf', true);
    if (plan.action !== 'patch') throw new Error('patch expected');
    expect(plan.patchType).toBe('merge');
    expect(plan.patch).toEqual({
      metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: lastAppliedConfiguration(shelf('Picks')) } },
      spec: { displayName: 'Picks' },
    });
    const after = patched(live, plan);
    expect(after.status).toEqual({ bookCount: 1 });
    expect(planApply(shelf('Staff Picks'), live, 'Shelf', true)).toEqual({ action: 'unchanged' });
  });
});
