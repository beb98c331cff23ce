import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KustomizeError, kustomizeBuild, mapFs, sortLegacy } from './kustomize';
import type { KubeObject } from '../engine/api/types';

/** Every file under fixtures/k8s-bookshop/manifests, keyed `manifests/...`. */
function fixtureFiles(): Record<string, string> {
  const root = fileURLToPath(new URL('../../fixtures/k8s-bookshop/', import.meta.url));
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(join(root, 'manifests'));
  return out;
}

const fs = mapFs(fixtureFiles());
const ids = (objs: KubeObject[]) => objs.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
const find = (objs: KubeObject[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name)!;

describe('kustomize build (the bookshop fixtures)', () => {
  it('manifests/bookshop: every resource in namespace bookshop, labelled part-of, in the legacy order', () => {
    const objs = kustomizeBuild(fs, 'manifests/bookshop');
    expect(ids(objs)).toEqual([
      'ConfigMap/bookshop/books-schema',
      'ConfigMap/bookshop/bookshop-config',
      'Service/bookshop/catalog',
      'Service/bookshop/orders',
      'Service/bookshop/postgres',
      'Service/bookshop/web',
      'PersistentVolumeClaim/bookshop/books-data',
      'Deployment/bookshop/catalog',
      'Deployment/bookshop/orders',
      'Deployment/bookshop/postgres',
      'Deployment/bookshop/web',
    ]);
    for (const o of objs) expect(o.metadata.labels?.['part-of'], o.metadata.name).toBe('bookshop');
    // `labels` with includeSelectors: false leaves selectors and templates alone.
    const svc = find(objs, 'Service', 'catalog');
    expect(svc.spec.selector).toEqual({ app: 'catalog' });
    expect(find(objs, 'Deployment', 'catalog').spec.selector).toEqual({ matchLabels: { app: 'catalog' } });
    expect(find(objs, 'Service', 'web').spec.ports[0].nodePort).toBe(30080);
    expect(find(objs, 'Deployment', 'web').spec.replicas).toBe(2);
  });

  it('manifests/overlays/staging: namespace, replicas, the ConfigMap patch and the JSON 6902 nodePort removal', () => {
    const objs = kustomizeBuild(fs, 'manifests/overlays/staging');
    expect(objs).toHaveLength(11);
    for (const o of objs) expect(o.metadata.namespace).toBe('bookshop-staging');
    expect(find(objs, 'Deployment', 'web').spec.replicas).toBe(1);
    expect(find(objs, 'Deployment', 'catalog').spec.replicas).toBe(1);
    expect(find(objs, 'Deployment', 'orders').spec.replicas).toBe(1);
    const cm = find(objs, 'ConfigMap', 'bookshop-config');
    expect(cm.data).toEqual({ GREETING: 'The Bookshop (STAGING)', CURRENCY: '$', 'banner.txt': 'Free shipping on orders over 30' });
    expect(find(objs, 'Service', 'web').spec.ports[0]).toEqual({ name: 'http', port: 80, targetPort: 'http' });
    // env[0] is untouched (the overlay's comment explains the trap it avoids).
    expect(find(objs, 'Deployment', 'web').spec.template.spec.containers[0].env[0]).toEqual({ name: 'CATALOG_URL', value: 'http://catalog' });
  });

  it('manifests/shelf-controller: the CRD stays cluster-scoped', () => {
    const objs = kustomizeBuild(fs, 'manifests/shelf-controller');
    expect(ids(objs)).toEqual([
      'CustomResourceDefinition//shelves.bookshop.engineers-musings.dev',
      'ServiceAccount/bookshop/shelf-controller',
      'Role/bookshop/shelf-controller',
      'RoleBinding/bookshop/shelf-controller',
      'Deployment/bookshop/shelf-controller',
    ]);
  });

  it('commonLabels, images, patchesStrategicMerge and patchesJson6902', () => {
    const files = {
      'base/kustomization.yaml': 'resources:\n- deploy.yaml\n',
      'base/deploy.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: bookshop:v1\n      - name: side\n        image: busybox:1.36\n',
      'prod/kustomization.yaml':
        'resources:\n- ../base\ncommonLabels:\n  env: prod\ncommonAnnotations:\n  team: shop\nimages:\n- name: bookshop\n  newTag: v2\n- name: busybox\n  newName: registry.k8s.io/busybox\npatchesStrategicMerge:\n- patch.yaml\npatchesJson6902:\n- target: {group: apps, version: v1, kind: Deployment, name: web}\n  patch: |-\n    - op: replace\n      path: /spec/replicas\n      value: 3\n',
      'prod/patch.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources:\n          limits: {memory: 128Mi}\n',
    };
    const [d] = kustomizeBuild(mapFs(files), 'prod');
    expect(d.metadata.labels).toEqual({ env: 'prod' });
    expect(d.metadata.annotations).toEqual({ team: 'shop' });
    expect(d.spec.selector.matchLabels).toEqual({ app: 'web', env: 'prod' });
    expect(d.spec.template.metadata.labels).toEqual({ app: 'web', env: 'prod' });
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.template.spec.containers.map((c: { image: string }) => c.image)).toEqual(['bookshop:v2', 'registry.k8s.io/busybox:1.36']);
    expect(d.spec.template.spec.containers[0].resources).toEqual({ limits: { memory: '128Mi' } });
  });

  it('errors in kustomize words', () => {
    expect(() => kustomizeBuild(fs, 'manifests')).toThrow("unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory 'manifests'");
    const missing = mapFs({ 'k/kustomization.yaml': 'resources:\n- nope.yaml\n' });
    expect(() => kustomizeBuild(missing, 'k')).toThrow("accumulating resources: accumulation err='accumulating resources from 'nope.yaml': open k/nope.yaml: no such file or directory'");
    const unsupported = mapFs({ 'k/kustomization.yaml': 'configMapGenerator:\n- name: x\n' });
    expect(() => kustomizeBuild(unsupported, 'k')).toThrow(KustomizeError);
    const unknown = mapFs({ 'k/kustomization.yaml': 'resourcez: []\n' });
    expect(() => kustomizeBuild(unknown, 'k')).toThrow('invalid Kustomization: json: unknown field "resourcez"');
    const noTarget = mapFs({ 'k/kustomization.yaml': 'patchesStrategicMerge:\n- |-\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ghost\n' });
    expect(() => kustomizeBuild(noTarget, 'k')).toThrow('no resource matches strategic merge patch "ConfigMap.v1.[noGrp]/ghost.[noNs]"');
  });

  it('sortLegacy orders Namespace first and webhooks last', () => {
    const o = (kind: string, name: string) => ({ apiVersion: 'v1', kind, metadata: { name } }) as KubeObject;
    expect(sortLegacy([o('ValidatingWebhookConfiguration', 'v'), o('Deployment', 'd'), o('Widget', 'w'), o('Namespace', 'n')]).map((x) => x.kind)).toEqual([
      'Namespace',
      'Deployment',
      'Widget',
      'ValidatingWebhookConfiguration',
    ]);
  });
});
