import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Ajv, type ErrorObject } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { BUILTIN_TYPES } from '../../engine/api/registry';
import { apiVersionOf } from '../../engine/api/registry';
import { apiVersionOfSchema, BUILTIN_SCHEMAS, kubernetesSchema } from './schema';
import { TEMPLATES } from './templates';

const FIXTURES = new URL('../../../fixtures/k8s-bookshop/manifests/bookshop/', import.meta.url);

/** Validate every document of `text` against the editor's schema (what monaco-yaml checks). */
const compiled = new Map<string, ReturnType<Ajv['compile']>>();
function validate(text: string, custom: Parameters<typeof kubernetesSchema>[0] = []): ErrorObject[][] {
  const key = JSON.stringify(custom);
  let check = compiled.get(key);
  if (!check) {
    check = new Ajv({ allErrors: true, strict: false }).compile(kubernetesSchema(custom));
    compiled.set(key, check);
  }
  return parseAllDocuments(text).map((d) => {
    check(d.toJS());
    return check.errors ? [...check.errors] : [];
  });
}

const unknown = (errs: ErrorObject[]) => errs.filter((e) => e.keyword === 'additionalProperties').map((e) => `${e.instancePath} ${String(e.params.additionalProperty)}`);

describe('the vendored Kubernetes schemas', { timeout: 30_000 }, () => {
  it('cover every kind the API server serves, with its apiVersion', () => {
    // A kind served by two groups (Event: v1 and events.k8s.io/v1) is keyed by kind: its first (core) entry.
    for (const t of BUILTIN_TYPES.filter((x, i, all) => all.findIndex((y) => y.kind === x.kind) === i)) {
      const s = BUILTIN_SCHEMAS[t.kind];
      expect(s, t.kind).toBeDefined();
      expect(apiVersionOfSchema(s), t.kind).toBe(apiVersionOf(t));
    }
  });

  it('accept a PodDisruptionBudget and a ReplicationController (served kinds without a vendored schema), checking their apiVersion', () => {
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: zk-pdb}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: zk}}\n';
    const rc = 'apiVersion: v1\nkind: ReplicationController\nmetadata: {name: nginx}\nspec:\n  replicas: 3\n  selector: {app: nginx}\n';
    expect(validate(`${pdb}---\n${rc}`)).toEqual([[], []]);
    const [bad] = validate(pdb.replace('policy/v1', 'policy/v1beta1'));
    expect(bad.some((e) => e.instancePath === '/apiVersion' && e.keyword === 'const')).toBe(true);
  });

  it('accept the bookshop manifests and the templates', () => {
    for (const f of ['config.yaml', 'catalog.yaml', 'orders.yaml', 'web.yaml', 'postgres.yaml']) {
      for (const errs of validate(readFileSync(new URL(f, FIXTURES), 'utf8'))) expect(errs, f).toEqual([]);
    }
    for (const t of TEMPLATES) expect(validate(t.yaml), t.id).toEqual([[]]);
  });

  it('flag a misspelled field and a wrong apiVersion, and keep descriptions for hover', () => {
    const [errs] = validate(TEMPLATES[0].yaml.replace('  replicas: 2', '  replcas: 2'));
    expect(unknown(errs)).toEqual(['/spec replcas']);
    const [bad] = validate(TEMPLATES[0].yaml.replace('apps/v1', 'apps/v1beta1'));
    expect(bad.some((e) => e.instancePath === '/apiVersion' && e.keyword === 'const')).toBe(true);
    const spec = (kubernetesSchema().definitions as Record<string, { description?: string }>).DeploymentSpec;
    expect(spec.description).toBe('DeploymentSpec is the specification of the desired behavior of the Deployment.');
  });

  it('accept quantities as numbers and null timestamps, as the API server does', () => {
    const pod = TEMPLATES[1].yaml.replace('  containers:', '  containers:').replace('    command: ["sleep", "3600"]\n', '    command: ["sleep", "3600"]\n    resources:\n      requests:\n        cpu: 1\n        memory: 64Mi\n');
    expect(validate(pod.replace('metadata:\n', 'metadata:\n  creationTimestamp: null\n'))).toEqual([[]]);
  });

  it('add the schema of a custom kind', () => {
    const crd = [{ apiVersion: 'bookshop.example.com/v1', kind: 'Shelf', schema: { type: 'object', properties: { spec: { type: 'object', properties: { books: { type: 'integer' } }, additionalProperties: false } } } }];
    const ok = 'apiVersion: bookshop.example.com/v1\nkind: Shelf\nmetadata:\n  name: a\nspec:\n  books: 3\n';
    expect(validate(ok, crd)).toEqual([[]]);
    const [errs] = validate(ok.replace('books: 3', 'bokks: 3'), crd);
    expect(unknown(errs)).toEqual(['/spec bokks']);
    // Without the CRD the kind is not one the cluster serves.
    const [none] = validate(ok);
    expect(none.some((e) => e.instancePath === '/kind' && e.keyword === 'enum')).toBe(true);
  });
});
