/**
 * Patch semantics as kube-apiserver applies them.
 * Sources: RFC 7386 (merge patch, Appendix A examples), RFC 6902 (JSON patch),
 * https://kubernetes.io/docs/tasks/manage-kubernetes-objects/update-api-object-kubectl-patch/
 * (strategic merge examples: patch-demo containers, tolerations, retainKeys),
 * staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go and its testdata, and
 * https://git.k8s.io/design-proposals-archive/cli/preserve-order-in-strategic-merge-patch.md.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  createThreeWayJsonMergePatch,
  createThreeWayMergePatch,
  strategicMergeSupported,
  strategicMergeUnsupportedError,
} from './patch';

function thrown(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

/** The Deployment of the kubectl-patch task page (patch-demo). */
function patchDemo() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'patch-demo', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'nginx' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'nginx' } },
        spec: {
          containers: [{ name: 'patch-demo-ctr', image: 'nginx', imagePullPolicy: 'Always', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
          tolerations: [{ effect: 'NoSchedule', key: 'dedicated', value: 'test-team' }],
        },
      },
    },
  };
}

describe('applyMergePatch (RFC 7386)', () => {
  it('follows the RFC 7386 Appendix A examples', () => {
    expect(applyMergePatch({ a: 'b' }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'b' }, { b: 'c' })).toEqual({ a: 'b', b: 'c' });
    expect(applyMergePatch({ a: 'b' }, { a: null })).toEqual({});
    expect(applyMergePatch({ a: 'b', b: 'c' }, { a: null })).toEqual({ b: 'c' });
    expect(applyMergePatch({ a: ['b'] }, { a: 'c' })).toEqual({ a: 'c' });
    expect(applyMergePatch({ a: 'c' }, { a: ['b'] })).toEqual({ a: ['b'] });
    expect(applyMergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } })).toEqual({ a: { b: 'd' } });
    expect(applyMergePatch({ a: [{ b: 'c' }] }, { a: [1] })).toEqual({ a: [1] });
    expect(applyMergePatch(['a', 'b'], ['c', 'd'])).toEqual(['c', 'd']);
    expect(applyMergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
    expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(applyMergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });

  it('replaces lists whole: a merge patch of containers drops the others (kubectl patch --type merge)', () => {
    const out = applyMergePatch(patchDemo(), { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-3', image: 'gcr.io/google-samples/hello-app:2.0' }] } } } }) as ReturnType<typeof patchDemo>;
    expect(out.spec.template.spec.containers).toEqual([{ name: 'patch-demo-ctr-3', image: 'gcr.io/google-samples/hello-app:2.0' }]);
  });

  it('does not modify its inputs', () => {
    const target = { a: { b: 1 } };
    const patch = { a: { c: 2 } };
    applyMergePatch(target, patch);
    expect(target).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { c: 2 } });
  });
});

describe('applyJsonPatch (RFC 6902)', () => {
  it('applies add, replace, remove, move, copy and test', () => {
    const out = applyJsonPatch(patchDemo(), [
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'side', image: 'busybox' } },
      { op: 'remove', path: '/spec/template/spec/tolerations' },
      { op: 'test', path: '/metadata/name', value: 'patch-demo' },
      { op: 'copy', from: '/metadata/name', path: '/metadata/labels' },
      { op: 'move', from: '/metadata/labels', path: '/metadata/annotations' },
    ]) as ReturnType<typeof patchDemo> & { metadata: Record<string, unknown> };
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.template.spec.containers.map((c) => c.name)).toEqual(['patch-demo-ctr', 'side']);
    expect(out.spec.template.spec.tolerations).toBeUndefined();
    expect(out.metadata.annotations).toBe('patch-demo');
  });

  it('answers 422 with the generic message when an operation does not apply (handlers/patch.go NewGenericServerResponse)', () => {
    for (const ops of [
      [{ op: 'replace', path: '/spec/nothing/here', value: 1 }],
      [{ op: 'test', path: '/spec/replicas', value: 5 }],
      [{ op: 'remove', path: '/metadata/labels' }],
      [{ op: 'frobnicate', path: '/spec' }],
    ]) {
      const e = thrown(() => applyJsonPatch(patchDemo(), ops));
      expect(e.code).toBe(422);
      expect(e.reason).toBe('Invalid');
      expect(e.message).toBe('the server rejected our request due to an error in our request');
    }
  });

  it('answers 400 when the body is not a list of operations (jsonpatch.DecodePatch)', () => {
    const e = thrown(() => applyJsonPatch(patchDemo(), { op: 'add', path: '/x', value: 1 }));
    expect(e.code).toBe(400);
    expect(e.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  });

  it('refuses more than 10000 operations with 413 (maxJSONPatchOperations)', () => {
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'Deployment' }));
    const e = thrown(() => applyJsonPatch(patchDemo(), ops));
    expect(e.code).toBe(413);
    expect(e.message).toBe('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
  });

  it('leaves the target untouched', () => {
    const d = patchDemo();
    applyJsonPatch(d, [{ op: 'replace', path: '/spec/replicas', value: 9 }]);
    expect(d.spec.replicas).toBe(2);
  });
});

describe('applyStrategicMergePatch', () => {
  it('merges containers by name and puts new ones first (kubectl patch task page: patch-demo-ctr-2)', () => {
    const out = applyStrategicMergePatch(patchDemo(), { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(out.spec.template.spec.containers.map((c) => [c.name, c.image])).toEqual([
      ['patch-demo-ctr-2', 'redis'],
      ['patch-demo-ctr', 'nginx'],
    ]);
    // the existing container keeps its fields
    expect(out.spec.template.spec.containers[1].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
  });

  it('replaces tolerations, which have no patch strategy (kubectl patch task page)', () => {
    const out = applyStrategicMergePatch(patchDemo(), { spec: { template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } } } }, 'Deployment') as ReturnType<
      typeof patchDemo
    >;
    expect(out.spec.template.spec.tolerations).toEqual([{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }]);
  });

  it('updates one container image in place (kubectl set image sends this patch)', () => {
    const d = patchDemo();
    d.spec.template.spec.containers.push({ name: 'b', image: 'busybox', imagePullPolicy: 'IfNotPresent', ports: [] });
    const out = applyStrategicMergePatch(d, { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr', image: 'nginx:1.27' }] } } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(out.spec.template.spec.containers.map((c) => [c.name, c.image, c.imagePullPolicy])).toEqual([
      ['patch-demo-ctr', 'nginx:1.27', 'Always'],
      ['b', 'busybox', 'IfNotPresent'],
    ]);
  });

  it('clears keys missing from $retainKeys (retainKeys example: RollingUpdate -> Recreate)', () => {
    const out = applyStrategicMergePatch(patchDemo(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    // Without the directive the rollingUpdate block stays (and validation then rejects it).
    const plain = applyStrategicMergePatch(patchDemo(), { spec: { strategy: { type: 'Recreate' } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(plain.spec.strategy.rollingUpdate).toEqual({ maxSurge: '25%', maxUnavailable: '25%' });
  });

  it('deletes a list element with $patch: delete and replaces a list with $patch: replace', () => {
    const d = patchDemo();
    d.spec.template.spec.containers.push({ name: 'b', image: 'busybox', imagePullPolicy: 'IfNotPresent', ports: [] });
    const del = applyStrategicMergePatch(d, { spec: { template: { spec: { containers: [{ name: 'b', $patch: 'delete' }] } } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(del.spec.template.spec.containers.map((c) => c.name)).toEqual(['patch-demo-ctr']);
    const rep = applyStrategicMergePatch(d, { spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }, { $patch: 'replace' }] } } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(rep.spec.template.spec.containers).toEqual([{ name: 'only', image: 'x' }]);
    const mapDel = applyStrategicMergePatch(d, { spec: { strategy: { $patch: 'delete' } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(mapDel.spec.strategy).toEqual({});
    const mapRep = applyStrategicMergePatch(d, { spec: { strategy: { $patch: 'replace', type: 'Recreate' } } }, 'Deployment') as ReturnType<typeof patchDemo>;
    expect(mapRep.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('orders by $setElementOrder, then patch order, then live order (preserve-order design)', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'a', image: 'a' }, { name: 'b', image: 'b' }, { name: 'c', image: 'c' }] },
    };
    const out = applyStrategicMergePatch(
      pod,
      { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }], containers: [{ name: 'a', image: 'a2' }] } },
      'Pod',
    ) as typeof pod;
    expect(out.spec.containers).toEqual([
      { name: 'c', image: 'c' },
      { name: 'a', image: 'a2' },
      { name: 'b', image: 'b' },
    ]);
  });

  it('merges finalizers as a set and deletes from it with $deleteFromPrimitiveList (ObjectMeta patchStrategy merge)', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', finalizers: ['a', 'b', 'c'] } };
    const add = applyStrategicMergePatch(obj, { metadata: { finalizers: ['d', 'a'] } }, 'ConfigMap') as typeof obj;
    expect([...add.metadata.finalizers].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(add.metadata.finalizers.slice(0, 2)).toEqual(['d', 'a']);
    const del = applyStrategicMergePatch(obj, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } }, 'ConfigMap') as typeof obj;
    expect(del.metadata.finalizers).toEqual(['a', 'c']);
  });

  it('uses the right merge key for each list: containerPort, Service port, env name, volumeMounts mountPath, ownerReferences uid, conditions type', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', ownerReferences: [{ uid: 'u1', name: 'rs', kind: 'ReplicaSet', apiVersion: 'apps/v1' }] },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'x',
            ports: [{ containerPort: 80, name: 'http' }],
            env: [{ name: 'A', value: '1' }],
            volumeMounts: [{ mountPath: '/data', name: 'd' }],
          },
        ],
      },
      status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'True' }] },
    };
    const out = applyStrategicMergePatch(
      pod,
      {
        metadata: { ownerReferences: [{ uid: 'u1', controller: true }] },
        spec: { containers: [{ name: 'c', ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'B', value: '2' }], volumeMounts: [{ mountPath: '/data', readOnly: true }] }] },
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      },
      'Pod',
    ) as typeof pod & { metadata: { ownerReferences: Record<string, unknown>[] } };
    const c = out.spec.containers[0];
    expect(c.ports).toEqual([{ containerPort: 80, name: 'http', protocol: 'TCP' }]);
    expect(c.env.map((e) => e.name)).toEqual(['B', 'A']);
    expect(c.volumeMounts).toEqual([{ mountPath: '/data', name: 'd', readOnly: true }]);
    expect(out.metadata.ownerReferences).toEqual([{ uid: 'u1', name: 'rs', kind: 'ReplicaSet', apiVersion: 'apps/v1', controller: true }]);
    expect(out.status.conditions).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]);

    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    const s2 = applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, 'Service') as typeof svc;
    expect(s2.spec.ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  });

  it('replaces node taints and EndpointSlice lists, which carry no patch strategy', () => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { taints: [{ key: 'a', effect: 'NoSchedule' }], podCIDRs: ['10.0.0.0/24'] } };
    const n2 = applyStrategicMergePatch(node, { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } }, 'Node') as typeof node;
    expect(n2.spec.taints).toEqual([{ key: 'b', effect: 'NoExecute' }]);
    const slice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'e' }, endpoints: [{ addresses: ['10.0.0.1'] }] };
    const s2 = applyStrategicMergePatch(slice, { endpoints: [{ addresses: ['10.0.0.2'] }] }, 'EndpointSlice') as typeof slice;
    expect(s2.endpoints).toEqual([{ addresses: ['10.0.0.2'] }]);
  });

  it('deletes map keys with null and ignores nulls for absent keys (IgnoreUnmatchedNulls)', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '1', b: '2' } }, data: { k: 'v' } };
    const out = applyStrategicMergePatch(obj, { metadata: { labels: { a: null, c: null, d: '4' } }, data: null }, 'ConfigMap') as Record<string, unknown>;
    expect(out).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { b: '2', d: '4' } } });
  });

  it('fails like the server when a merge-keyed element lacks its key (500, strategicpatch ErrNoMergeKey)', () => {
    const e = thrown(() => applyStrategicMergePatch(patchDemo(), { spec: { template: { spec: { containers: [{ image: 'x' }] } } } }, 'Deployment'));
    expect(e.code).toBe(500);
    expect(e.message).toBe('map: map[image:x] does not contain declared merge key: name');
    const bad = thrown(() => applyStrategicMergePatch(patchDemo(), { spec: { strategy: { $retainKeys: 'type' } } }, 'Deployment'));
    expect(bad.code).toBe(400);
    expect(bad.message).toBe('invalid patch format of retainKeys');
  });

  it('is refused for custom resources (415) while built-in kinds support it', () => {
    expect(strategicMergeSupported('Deployment', false)).toBe(true);
    expect(strategicMergeSupported('Shelf', true)).toBe(false);
    const e = strategicMergeUnsupportedError();
    expect(e.code).toBe(415);
    expect(e.reason).toBe('UnsupportedMediaType');
    expect(e.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });
});

describe('createThreeWayMergePatch (strategicpatch.CreateThreeWayMergePatch)', () => {
  const original = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'w', labels: { app: 'w', tier: 'web' } }, spec: { replicas: 2, minReadySeconds: 5 } };

  it('sets changed fields, deletes fields removed since last apply, and leaves unmanaged fields alone', () => {
    const modified = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'w', labels: { app: 'w' } }, spec: { replicas: 3 } };
    const current = {
      ...original,
      metadata: { ...original.metadata, labels: { app: 'w', tier: 'web', added: 'by-hand' }, uid: 'u' },
      spec: { replicas: 2, minReadySeconds: 5, revisionHistoryLimit: 10 },
      status: { replicas: 2 },
    };
    const patch = createThreeWayMergePatch(original, modified, current, 'Deployment');
    expect(patch).toEqual({ metadata: { labels: { tier: null } }, spec: { replicas: 3, minReadySeconds: null } });
  });

  it('returns {} when the manifest already matches, whatever else the live object has', () => {
    const current = { ...original, metadata: { ...original.metadata, uid: 'u', annotations: { 'deployment.kubernetes.io/revision': '1' } }, status: { replicas: 2 } };
    expect(createThreeWayMergePatch(original, original, current, 'Deployment')).toEqual({});
  });

  it('deletes a removed container with $patch: delete and sends $setElementOrder', () => {
    const tpl = (names: string[]) => ({ spec: { template: { spec: { containers: names.map((n) => ({ name: n, image: n })) } } } });
    const orig = { apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'x' }, ...tpl(['a', 'b']) };
    const mod = { apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'x' }, ...tpl(['a']) };
    const cur = { apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'x' }, ...tpl(['a', 'b']) };
    cur.spec.template.spec.containers[0] = { ...cur.spec.template.spec.containers[0], imagePullPolicy: 'Always' } as { name: string; image: string };
    const patch = createThreeWayMergePatch(orig, mod, cur, 'Deployment');
    expect(patch).toEqual({
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b', $patch: 'delete' }] } } },
    });
    const applied = applyStrategicMergePatch(cur, patch, 'Deployment') as typeof cur;
    expect(applied.spec.template.spec.containers).toEqual([{ name: 'a', image: 'a', imagePullPolicy: 'Always' }]);
  });

  it('sends $deleteFromPrimitiveList for finalizers dropped from the manifest', () => {
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', finalizers: ['a', 'b'] } };
    const m = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', finalizers: ['a'] } };
    const patch = createThreeWayMergePatch(o, m, o, 'ConfigMap');
    expect(patch).toEqual({ metadata: { '$deleteFromPrimitiveList/finalizers': ['b'], '$setElementOrder/finalizers': ['a'] } });
    expect((applyStrategicMergePatch(o, patch, 'ConfigMap') as typeof o).metadata.finalizers).toEqual(['a']);
  });

  it('adds $retainKeys when a retainKeys field changes (Deployment strategy)', () => {
    const o = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { strategy: { type: 'RollingUpdate' } } };
    const m = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { strategy: { type: 'Recreate' } } };
    const c = { ...o, spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } } };
    const patch = createThreeWayMergePatch(o, m, c, 'Deployment');
    expect(patch).toEqual({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    expect((applyStrategicMergePatch(c, patch, 'Deployment') as typeof c).spec.strategy).toEqual({ type: 'Recreate' });
  });
});

describe('createThreeWayJsonMergePatch (jsonmergepatch.CreateThreeWayJSONMergePatch, used for custom resources)', () => {
  it('sets changes, deletes removed fields, keeps live-only fields, and replaces lists', () => {
    const o = { apiVersion: 'x.io/v1', kind: 'Shelf', metadata: { name: 's' }, spec: { displayName: 'A', old: 1, isbns: ['1'] } };
    const m = { apiVersion: 'x.io/v1', kind: 'Shelf', metadata: { name: 's' }, spec: { displayName: 'B', isbns: ['1', '2'] } };
    const c = { ...o, status: { bookCount: 1 } };
    expect(createThreeWayJsonMergePatch(o, m, c)).toEqual({ spec: { displayName: 'B', old: null, isbns: ['1', '2'] } });
    expect(createThreeWayJsonMergePatch(m, m, { ...m, status: { bookCount: 2 } })).toEqual({});
  });

  it('refuses to change apiVersion, kind or name', () => {
    const o = { apiVersion: 'x.io/v1', kind: 'Shelf', metadata: { name: 's' } };
    expect(() => createThreeWayJsonMergePatch(o, { ...o, metadata: { name: 't' } }, o)).toThrow('At least one of apiVersion, kind and name was changed');
  });
});
