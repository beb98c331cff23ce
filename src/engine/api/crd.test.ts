/**
 * CustomResourceDefinitions and custom resources, checked against the bookshop's Shelf CRD.
 * Sources: staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/
 * validation.go, .../pkg/apiserver/validation/validation.go (go-openapi error mapping),
 * .../pkg/apiserver/schema/pruning, .../customresource_handler.go (default columns),
 * https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/
 * (pruning, additionalPrinterColumns, int-or-string, defaulting).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applySchemaDefaults, compareKubeAwareVersions, crdToResourceType, printerColumns, pruneUnknownFields, schemaForVersion, validateCrd, validateCustomResource, type JSONSchemaProps } from './crd';
import { formatFieldError } from './errors';
import { deepCopy, type KubeObject } from './types';
import { parseManifests } from './yaml';

const dir = new URL('../../../fixtures/k8s-bookshop/manifests/shelf-controller/', import.meta.url);
const load = (f: string): KubeObject => {
  const [doc] = parseManifests(readFileSync(new URL(f, dir), 'utf8'), f);
  if (!doc?.object) throw new Error(doc?.error ?? `no object in ${f}`);
  return doc.object;
};
const crd = load('crd.yaml');
const shelf = load('example-shelf.yaml');
const messages = (errs: ReturnType<typeof validateCrd>) => errs.map(formatFieldError);

/** A CRD with a richer schema, for the keywords the Shelf CRD does not use. */
function widgetCrd(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'widgets', kind: 'Widget', categories: ['all'] },
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'string', enum: ['S', 'M'] },
                    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                    name: { type: 'string', pattern: '^[a-z]+$', minLength: 1, maxLength: 5 },
                    port: { 'x-kubernetes-int-or-string': true },
                    tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
                    note: { type: 'string', nullable: true },
                  },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
              },
            },
          },
        },
      ],
    },
  };
}

function widget(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec };
}

describe('crdToResourceType', () => {
  it('serves the Shelf CRD as kubectl api-resources lists it (shelves, sh, namespaced, status subresource)', () => {
    expect(crdToResourceType(crd)).toEqual({
      group: 'bookshop.engineers-musings.dev',
      version: 'v1',
      kind: 'Shelf',
      resource: 'shelves',
      singular: 'shelf',
      shortNames: ['sh'],
      namespaced: true,
      status: true,
      scale: undefined,
      categories: [],
      custom: true,
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    });
  });

  it('prefers the highest-priority served version and carries the scale paths; singular defaults to the lower-cased kind', () => {
    const t = crdToResourceType(widgetCrd());
    expect(t.version).toBe('v1');
    expect(t.singular).toBe('widget');
    expect(t.namespaced).toBe(false);
    expect(t.categories).toEqual(['all']);
    expect(t.scale).toEqual({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' });
    // version.CompareKubeAwareVersionStrings: v1 > v1beta2 > v1beta1 > v1alpha1 > foo
    expect(['foo', 'v1alpha1', 'v1beta1', 'v2', 'v1', 'v1beta2'].sort(compareKubeAwareVersions)).toEqual(['v2', 'v1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo']);
  });
});

describe('validateCrd', () => {
  it('accepts the bookshop CRD', () => {
    expect(validateCrd(crd)).toEqual([]);
    expect(validateCrd(widgetCrd())).toEqual([]);
  });

  it('requires the name to be <plural>.<group>', () => {
    const bad = deepCopy(crd);
    bad.metadata.name = 'shelfs.bookshop.engineers-musings.dev';
    expect(messages(validateCrd(bad))).toEqual(['metadata.name: Invalid value: "shelfs.bookshop.engineers-musings.dev": must be spec.names.plural+"."+spec.group']);
  });

  it('requires exactly one storage version and unique version names', () => {
    const bad = widgetCrd();
    bad.spec.versions[0].storage = true;
    const errs = validateCrd(bad);
    expect(errs.map((e) => `${e.field}: ${e.detail}`)).toEqual(['spec.versions: must have exactly one version marked as storage version']);
    bad.spec.versions[0].name = 'v1';
    expect(validateCrd(bad).map((e) => e.detail)).toEqual(['must contain unique version names', 'must have exactly one version marked as storage version']);
  });

  it('checks group, scope, names, schemas, structural types, scale paths and printer columns', () => {
    const bad = deepCopy(crd);
    bad.metadata.name = 'Shelves.bookshop';
    bad.spec.group = 'bookshop';
    bad.spec.scope = 'Global';
    bad.spec.names = { plural: 'Shelves', kind: 'Shelf', shortNames: ['s_h'] };
    const v = bad.spec.versions[0];
    v.schema.openAPIV3Schema.properties.spec.properties.isbns = { items: { type: 'string' } };
    v.subresources.scale = { specReplicasPath: '.status.replicas', statusReplicasPath: '' };
    v.additionalPrinterColumns.push({ name: 'Bad', type: 'float', jsonPath: 'spec.x' });
    expect(messages(validateCrd(bad))).toEqual([
      'spec.group: Invalid value: "bookshop": should be a domain with at least one dot',
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[isbns].type: Required value: must not be empty for specified object fields',
      'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
      'spec.versions[0].subresources.scale.statusReplicasPath: Required value',
      'spec.versions[0].additionalPrinterColumns[2].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
      'spec.versions[0].additionalPrinterColumns[2].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
      "spec.names.plural: Invalid value: \"Shelves\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      "spec.names.shortNames[0]: Invalid value: \"s_h\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
    const noSchema = deepCopy(crd);
    delete noSchema.spec.versions[0].schema;
    expect(messages(validateCrd(noSchema))).toEqual(['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
  });
});

describe('validateCustomResource', () => {
  it('accepts example-shelf.yaml', () => {
    expect(validateCustomResource(shelf, crd)).toEqual([]);
  });

  it('reports missing required fields and wrong types in the apiserver\'s words', () => {
    const bad = deepCopy(shelf);
    delete bad.spec.displayName;
    bad.spec.isbns = [9780132350884, '978-1492034025'];
    expect(messages(validateCustomResource(bad, crd))).toEqual([
      'spec.displayName: Required value',
      'spec.isbns[0]: Invalid value: "integer": spec.isbns[0] in body must be of type string: "integer"',
    ]);
  });

  it('maps enum, minimum/maximum, pattern, minLength, maxLength, maxItems and int-or-string', () => {
    const c = widgetCrd();
    expect(validateCustomResource(widget({ size: 'S', replicas: 3, name: 'abc', port: 'http', tags: ['a'], labels: { a: 'b' }, note: null }), c)).toEqual([]);
    expect(validateCustomResource(widget({ size: 'M', port: 8080 }), c)).toEqual([]);
    expect(messages(validateCustomResource(widget({ size: 'XL' }), c))).toEqual(['spec.size: Unsupported value: "XL": supported values: "S", "M"']);
    expect(messages(validateCustomResource(widget({ size: 'S', replicas: 'two' }), c))).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    expect(messages(validateCustomResource(widget({ size: 'S', replicas: 0 }), c))).toEqual(['spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1']);
    expect(messages(validateCustomResource(widget({ size: 'S', replicas: 11 }), c))).toEqual(['spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10']);
    expect(messages(validateCustomResource(widget({ size: 'S', name: 'Ab' }), c))).toEqual(['spec.name: Invalid value: "Ab": spec.name in body should match \'^[a-z]+$\'']);
    expect(messages(validateCustomResource(widget({ size: 'S', name: 'abcdef' }), c))).toEqual(['spec.name: Too long: may not be more than 5 bytes']);
    expect(messages(validateCustomResource(widget({ size: 'S', tags: ['a', 'b', 'c'] }), c))).toEqual(['spec.tags: Too many: 3: must have at most 2 items']);
    expect(messages(validateCustomResource(widget({ size: 'S', port: 1.5 }), c))).toEqual([
      'spec.port: Invalid value: "number": spec.port in body must be of type integer,string: "number"',
    ]);
  });

  it('validates the version named by apiVersion', () => {
    const c = widgetCrd();
    const old = { ...widget({ anything: 1 }), apiVersion: 'example.com/v1beta1' };
    expect(validateCustomResource(old, c)).toEqual([]);
    expect(schemaForVersion(c, 'v1beta1')?.properties?.spec?.['x-kubernetes-preserve-unknown-fields']).toBe(true);
  });

  it('compiles each schema once and stays fast on the hot path', () => {
    const c = widgetCrd();
    validateCustomResource(widget({ size: 'S' }), c);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 2000; i++) validateCustomResource(widget({ size: i % 2 ? 'S' : 'XL' }), deepCopy(c));
    expect(Number(process.hrtime.bigint() - t0) / 1e6).toBeLessThan(1000);
  });
});

describe('pruneUnknownFields', () => {
  it('drops fields the schema does not declare and reports them; keeps apiVersion, kind, metadata and status', () => {
    const obj = deepCopy(shelf) as KubeObject & { extra?: unknown };
    obj.spec.colour = 'red';
    obj.extra = { a: 1 };
    obj.status = { bookCount: 3, shelfLife: 'long' };
    const schema = schemaForVersion(crd, 'v1') as JSONSchemaProps;
    expect(pruneUnknownFields(obj, schema)).toEqual(['spec.colour', 'extra', 'status.shelfLife']);
    expect(obj).toEqual({ ...shelf, status: { bookCount: 3 } });
  });

  it('never prunes metadata, even when the schema constrains metadata.name', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } } };
    const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', labels: { a: 'b' } } };
    expect(pruneUnknownFields(obj, schema)).toEqual([]);
    expect(obj.metadata).toEqual({ name: 'w', namespace: 'default', labels: { a: 'b' } });
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields but still prunes declared properties below it', () => {
    const c = widgetCrd();
    const obj = widget({ size: 'S', extra: { free: 1, known: { a: 'x', b: 'y' } }, labels: { any: 'thing' }, note: null, name: null });
    expect(pruneUnknownFields(obj, schemaForVersion(c, 'v1'))).toEqual(['spec.extra.known.b']);
    expect(obj.spec).toEqual({ size: 'S', extra: { free: 1, known: { a: 'x' } }, labels: { any: 'thing' }, note: null });
  });

  it('applies schema defaults to absent fields', () => {
    const obj = widget({ size: 'S' });
    applySchemaDefaults(obj, schemaForVersion(widgetCrd(), 'v1'));
    expect(obj.spec).toEqual({ size: 'S', replicas: 1 });
  });
});

describe('printerColumns', () => {
  it('lists the Shelf columns after NAME, with no AGE since the CRD declares columns', () => {
    expect(printerColumns(crd, 'v1')).toEqual([
      { name: 'Display', type: 'string', jsonPath: '.spec.displayName', description: 'Custom resource definition column (in JSONPath format): .spec.displayName', priority: 0 },
      { name: 'Books', type: 'integer', jsonPath: '.status.bookCount', description: 'Custom resource definition column (in JSONPath format): .status.bookCount', priority: 0 },
    ]);
  });

  it('defaults to a single AGE column when none are declared (serveDefaultColumnsIfEmpty)', () => {
    const cols = printerColumns(widgetCrd(), 'v1');
    expect(cols.map((c) => [c.name, c.type, c.jsonPath, c.priority])).toEqual([['Age', 'date', '.metadata.creationTimestamp', 0]]);
  });
});
