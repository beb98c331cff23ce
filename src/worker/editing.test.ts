import { describe, expect, it } from 'vitest';
import { BOOKSHOP_FILES } from './testkit';
import { newHostTestCluster, type HostCluster } from './cluster';
import { applyYaml, EDIT_CANCELLED, getObject, handleEdit } from './editing';
import type { EditReply } from '../protocol/messages';
import type { KubeObject } from '../engine/api/types';

const FILES = BOOKSHOP_FILES;

/** The catalog Deployment of catalog.yaml, in its namespace (kustomize sets it for `make up`). */
const CATALOG = FILES['catalog.yaml'].split(/^---$/m)[0].replace('  name: catalog\n', '  name: catalog\n  namespace: bookshop\n');

function cluster(): HostCluster {
  const c = newHostTestCluster(1, FILES);
  c.clock.advance(c.warmupMs);
  return c;
}

function deployment(c: HostCluster, name: string): KubeObject {
  return c.api.get('deployments', 'bookshop', name);
}

function applied(r: EditReply) {
  if (r.op !== 'apply') throw new Error(`not an apply reply: ${JSON.stringify(r)}`);
  return r;
}

function catalogYaml(c: HostCluster): { yaml: string; rv: string } {
  const r = getObject(c, 'Deployment', 'bookshop', 'catalog');
  if (r.op !== 'get' || !r.ok) throw new Error(JSON.stringify(r));
  return { yaml: r.yaml, rv: r.resourceVersion };
}

const MISMATCH = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: mismatch
  namespace: bookshop
spec:
  replicas: 1
  selector:
    matchLabels:
      app: mismatch
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;

describe('getObject', () => {
  it('prints the live object as kubectl get -o yaml does, with its resourceVersion', () => {
    const c = cluster();
    const r = getObject(c, 'deploy', 'bookshop', 'catalog');
    expect(r).toMatchObject({ op: 'get', ok: true, kind: 'Deployment', apiVersion: 'apps/v1', namespace: 'bookshop', name: 'catalog' });
    if (r.op !== 'get' || !r.ok) return;
    expect(r.yaml.startsWith('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n')).toBe(true);
    expect(r.yaml).toContain('  replicas: 2\n');
    expect(r.yaml).toContain(`  resourceVersion: "${deployment(c, 'catalog').metadata.resourceVersion}"\n`);
    expect(r.yaml).not.toContain('managedFields');
    expect(r.resourceVersion).toBe(deployment(c, 'catalog').metadata.resourceVersion);
  });

  it('answers a missing object with kubectl NotFound message', () => {
    const r = getObject(cluster(), 'Deployment', 'bookshop', 'nope');
    expect(r).toEqual({ op: 'get', ok: false, error: 'Error from server (NotFound): deployments.apps "nope" not found' });
  });
});

describe('applyYaml in apply mode (kubectl apply -f -)', () => {
  it('prints one kubectl line per document and changes the cluster', () => {
    const c = cluster();
    const yaml = CATALOG.replace('replicas: 2', 'replicas: 3') + '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: bookshop\ndata:\n  a: "1"\n';
    const r = applied(applyYaml(c, { op: 'apply', mode: 'apply', yaml }));
    expect(r.results.map((x) => [x.ok, x.text])).toEqual([
      [true, 'deployment.apps/catalog configured'],
      [true, 'configmap/extra created'],
    ]);
    expect(r.results.map((x) => x.line)).toEqual([1, yaml.split('\n').indexOf('apiVersion: v1') + 1]);
    expect((deployment(c, 'catalog').spec as { replicas: number }).replicas).toBe(3);
    expect(c.api.tryGet('configmaps', 'bookshop', 'extra')).toBeDefined();
    const actions = c.trace.list().filter((e) => e.kind === 'action');
    expect(actions.map((e) => e.message)).toEqual([
      'kubectl apply -f - (YAML editor): deployment.apps/catalog configured',
      'kubectl apply -f - (YAML editor): configmap/extra created',
    ]);
    expect(actions[0].object).toMatchObject({ kind: 'Deployment', namespace: 'bookshop', name: 'catalog' });
  });

  it('reports the API server error at the line of the field and changes nothing', () => {
    const c = cluster();
    const yaml = `# a comment line\n${MISMATCH}`;
    const r = applied(applyYaml(c, { op: 'apply', mode: 'apply', yaml }));
    expect(r.results).toHaveLength(1);
    const res = r.results[0];
    expect(res.ok).toBe(false);
    expect(res.text).toBe(
      'The Deployment "mismatch" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`',
    );
    expect(res.status?.code).toBe(422);
    expect(res.status?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: 'Invalid value: {"app":"other"}: `selector` does not match template `labels`', line: 14 },
    ]);
    expect(yaml.split('\n')[13]).toBe('      labels:');
    expect(c.api.tryGet('deployments', 'bookshop', 'mismatch')).toBeUndefined();
  });

  it('applies nothing when the YAML does not parse, and says where', () => {
    const c = cluster();
    const before = c.api.resourceVersion();
    const yaml = FILES['catalog.yaml'].replace('replicas: 2', 'replicas: 5') + '---\nkind: ConfigMap\nmetadata: [oops\n';
    const r = applied(applyYaml(c, { op: 'apply', mode: 'apply', yaml }));
    expect(r.results).toEqual([]);
    expect(r.syntaxError?.message).toMatch(/^error: error parsing STDIN: error converting YAML to JSON: yaml: line \d+: /);
    expect(r.syntaxError?.line).toBeGreaterThan(FILES['catalog.yaml'].split('\n').length);
    expect(c.api.resourceVersion()).toBe(before);
  });

  it('dry run changes nothing and returns the live and resulting objects', () => {
    const c = cluster();
    const before = c.api.resourceVersion();
    const r = applied(applyYaml(c, { op: 'apply', mode: 'apply', dryRun: true, yaml: CATALOG.replace('bookshop:v1', 'bookshop:v2') }));
    expect(r.results[0]).toMatchObject({ ok: true, text: 'deployment.apps/catalog configured (server dry run)' });
    expect(r.results[0].diff?.live).toContain('image: bookshop:v1');
    expect(r.results[0].diff?.result).toContain('image: bookshop:v2');
    expect(c.api.resourceVersion()).toBe(before);
    expect(c.trace.list().filter((e) => e.kind === 'action')).toEqual([]);
  });
});

describe('applyYaml in edit mode (kubectl edit)', () => {
  it('saves the edit with the starting resourceVersion', () => {
    const c = cluster();
    const { yaml, rv } = catalogYaml(c);
    const edited = yaml.replace('  replicas: 2\n', '  replicas: 3\n');
    const r = applied(applyYaml(c, { op: 'apply', mode: 'edit', yaml: edited, base: yaml, resourceVersion: rv }));
    expect(r.results.map((x) => [x.ok, x.text])).toEqual([[true, 'deployment.apps/catalog edited']]);
    expect((deployment(c, 'catalog').spec as { replicas: number }).replicas).toBe(3);
    expect(c.trace.list().filter((e) => e.kind === 'action').map((e) => e.message)).toEqual(['kubectl edit deployment.apps/catalog (YAML editor): edited']);
  });

  it('an unchanged buffer is "Edit cancelled, no changes made."', () => {
    const c = cluster();
    const { yaml, rv } = catalogYaml(c);
    const r = applied(applyYaml(c, { op: 'apply', mode: 'edit', yaml, base: yaml, resourceVersion: rv }));
    expect(r.results[0]).toMatchObject({ ok: true, text: EDIT_CANCELLED });
  });

  it('a change made meanwhile is a 409 Conflict with the live object; re-applying onto it keeps both changes', () => {
    const c = cluster();
    const { yaml, rv } = catalogYaml(c);
    // Someone else changes the Deployment after the editor loaded it.
    c.api.patch('deployments', 'bookshop', 'catalog', 'merge', { metadata: { labels: { touched: 'yes' } } });
    const edited = yaml.replace('  replicas: 2\n', '  replicas: 4\n');
    const r = applied(applyYaml(c, { op: 'apply', mode: 'edit', yaml: edited, base: yaml, resourceVersion: rv }));
    const res = r.results[0];
    expect(res.ok).toBe(false);
    expect(res.status?.code).toBe(409);
    expect(res.text).toBe(
      'error: deployments.apps "catalog" could not be patched: Operation cannot be fulfilled on deployments.apps "catalog": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(res.conflict?.liveYaml).toContain('touched: "yes"');
    expect((deployment(c, 'catalog').spec as { replicas: number }).replicas).toBe(2);
    // Re-apply onto the current version: the same edit, with the live resourceVersion.
    const again = applied(applyYaml(c, { op: 'apply', mode: 'edit', yaml: edited, base: yaml, resourceVersion: res.conflict!.resourceVersion }));
    expect(again.results[0]).toMatchObject({ ok: true, text: 'deployment.apps/catalog edited' });
    const d = deployment(c, 'catalog');
    expect((d.spec as { replicas: number }).replicas).toBe(4);
    expect(d.metadata.labels?.touched).toBe('yes');
  });

  it('an invalid edit reports the field at its line and leaves the object', () => {
    const c = cluster();
    const { yaml, rv } = catalogYaml(c);
    const edited = yaml.replace('  replicas: 2\n', '  replicas: -1\n');
    const r = applied(applyYaml(c, { op: 'apply', mode: 'edit', yaml: edited, base: yaml, resourceVersion: rv }));
    const res = r.results[0];
    expect(res.ok).toBe(false);
    expect(res.text).toBe('The Deployment "catalog" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(res.status?.causes[0]).toMatchObject({ field: 'spec.replicas', line: edited.split('\n').indexOf('  replicas: -1') + 1 });
    expect(deployment(c, 'catalog').metadata.resourceVersion).toBe(rv);
  });
});

describe('handleEdit', () => {
  it('lists CRD kinds with their schemas', () => {
    const c = cluster();
    c.api.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'shelves.bookshop.example.com' },
      spec: {
        group: 'bookshop.example.com',
        names: { kind: 'Shelf', plural: 'shelves', singular: 'shelf', listKind: 'ShelfList' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { books: { type: 'integer' } } } } } } }],
      },
    });
    const r = handleEdit(c, { op: 'crds' });
    expect(r).toEqual({
      op: 'crds',
      kinds: [{ apiVersion: 'bookshop.example.com/v1', kind: 'Shelf', schema: { type: 'object', properties: { spec: { type: 'object', properties: { books: { type: 'integer' } } } } } }],
    });
  });
});
