/**
 * CustomResourceDefinition support: the served resource type of a CRD, the CRD's own
 * validation, and validation, pruning and defaulting of custom resources against the version's
 * `openAPIV3Schema` (a structural schema), with the apiserver's error wording.
 *
 * Sources: staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/
 * validation.go (`ValidateCustomResourceDefinition`), .../apis/apiextensions/v1/defaults.go,
 * .../pkg/apiserver/schema/validation.go + structural/ (`ValidateStructural`),
 * .../pkg/apiserver/validation/validation.go (`ValidateCustomResource`, go-openapi error
 * mapping), .../pkg/apiserver/schema/pruning/algorithm.go (`Prune`),
 * .../pkg/apiserver/schema/defaulting/algorithm.go, .../pkg/registry/customresource/
 * tableconvertor/tableconvertor.go and customresource_handler.go (`serveDefaultColumnsIfEmpty`).
 */
import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvClass } from '../libs';
import type { CustomResourceDefinitionVersion, JSONSchemaProps as BaseSchemaProps } from 'kubernetes-types/apiextensions/v1';
import { field, type FieldError } from './errors';
import type { ResourceType } from './registry';
import { deepCopy, splitApiVersion, type KubeObject } from './types';

type Obj = Record<string, unknown>;

/**
 * An OpenAPI v3 schema of a CRD version (`apiextensions/v1.JSONSchemaProps`, as JSON) with the
 * Kubernetes extensions (`x-kubernetes-preserve-unknown-fields`, `x-kubernetes-int-or-string`,
 * `x-kubernetes-embedded-resource`) under their JSON names. Source:
 * staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types_jsonschema.go.
 */
export type JSONSchemaProps = Omit<BaseSchemaProps, 'properties' | 'items' | 'additionalProperties' | 'allOf' | 'anyOf' | 'oneOf' | 'not'> & {
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps | JSONSchemaProps[];
  additionalProperties?: JSONSchemaProps | boolean;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
};

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The CRD's spec, loosely typed (the object comes from the store as plain JSON). */
interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; singular?: string; kind?: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  versions?: CustomResourceDefinitionVersion[];
  /** v1beta1-era top-level fields, still honoured when present. */
  validation?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceDefinitionVersion['subresources'];
  additionalPrinterColumns?: CustomResourceDefinitionVersion['additionalPrinterColumns'];
  preserveUnknownFields?: boolean;
}

function specOf(crd: KubeObject): CrdSpec {
  return (crd.spec ?? {}) as CrdSpec;
}

// ------------------------------------------------------------------------------------------
// Versions and the served type
// ------------------------------------------------------------------------------------------

/**
 * Kube-aware version order (`version.CompareKubeAwareVersionStrings`,
 * staging/src/k8s.io/apimachinery/pkg/version/helpers.go): GA before beta before alpha, higher
 * numbers first, then non-matching names alphabetically. Negative when `a` sorts first.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/.exec(v);
    if (!m) return undefined;
    return { major: +m[1], rank: m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, minor: m[3] ? +m[3] : 0 };
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return a < b ? -1 : a > b ? 1 : 0;
  if (!pa) return 1;
  if (!pb) return -1;
  if (pa.rank !== pb.rank) return pb.rank - pa.rank;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

/**
 * The version clients use by default: the highest-priority served version, as discovery
 * orders a CRD's versions (apiextensions-apiserver pkg/apiserver/customresource_discovery_controller.go,
 * sorted with `version.CompareKubeAwareVersionStrings`). `undefined` when none is served.
 */
export function preferredVersion(crd: KubeObject): CustomResourceDefinitionVersion | undefined {
  const served = (specOf(crd).versions ?? []).filter((v) => v.served);
  return [...served].sort((a, b) => compareKubeAwareVersions(a.name, b.name))[0];
}

function versionNamed(crd: KubeObject, version: string): CustomResourceDefinitionVersion | undefined {
  return (specOf(crd).versions ?? []).find((v) => v.name === version);
}

/**
 * The resource type a CRD serves, for the registry: group, preferred served version,
 * `names.kind/plural/singular/shortNames/categories`, scope (`Namespaced` -> namespaced),
 * `subresources.status` and `subresources.scale` (its JSON paths). `singular` defaults to the
 * lower-cased kind as the apiserver's defaulting does.
 */
export function crdToResourceType(crd: KubeObject): ResourceType {
  const spec = specOf(crd);
  const names = spec.names ?? {};
  const v = preferredVersion(crd) ?? spec.versions?.find((x) => x.storage) ?? spec.versions?.[0];
  const sub = v?.subresources ?? spec.subresources;
  const scale = sub?.scale;
  const kind = names.kind ?? '';
  return {
    group: spec.group ?? '',
    version: v?.name ?? '',
    kind,
    resource: names.plural ?? '',
    singular: names.singular || kind.toLowerCase(),
    shortNames: [...(names.shortNames ?? [])],
    namespaced: spec.scope !== 'Cluster',
    status: !!sub?.status,
    scale: scale
      ? { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, ...(scale.labelSelectorPath ? { labelSelectorPath: scale.labelSelectorPath } : {}) }
      : undefined,
    categories: [...(names.categories ?? [])],
    custom: true,
    verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  };
}

/**
 * The `openAPIV3Schema` that applies to a version: the version's own, or the legacy
 * top-level `spec.validation` one (`apiextensions.GetSchemaForVersion`). `undefined` if none.
 */
export function schemaForVersion(crd: KubeObject, version: string): JSONSchemaProps | undefined {
  return versionNamed(crd, version)?.schema?.openAPIV3Schema ?? specOf(crd).validation?.openAPIV3Schema;
}

// ------------------------------------------------------------------------------------------
// Printer columns
// ------------------------------------------------------------------------------------------

/**
 * One column of `kubectl get` for a custom resource, after the implicit NAME column: a
 * `metav1.TableColumnDefinition` as the CR table convertor builds it
 * (apiextensions-apiserver pkg/registry/customresource/tableconvertor/tableconvertor.go).
 */
export interface PrinterColumn {
  name: string;
  /** `integer`, `number`, `string`, `boolean` or `date` (dates print as an age). */
  type: string;
  format?: string;
  /** Simple JSONPath into the object, e.g. `.spec.displayName`. */
  jsonPath: string;
  description: string;
  /** 0 = shown by default; > 0 only with `-o wide`. */
  priority: number;
}

const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/**
 * The columns `kubectl get` prints for a version of a CRD, after NAME (always first):
 * the version's `additionalPrinterColumns` in order; when it declares none, a single AGE
 * column (`.metadata.creationTimestamp`). Declaring columns replaces the default, so AGE only
 * shows if the CRD lists it: the bookshop's Shelf prints `NAME DISPLAY BOOKS`, no AGE.
 * A column without a description is described as `Custom resource definition column (in
 * JSONPath format): <jsonPath>`.
 */
export function printerColumns(crd: KubeObject, version: string): PrinterColumn[] {
  const declared = versionNamed(crd, version)?.additionalPrinterColumns ?? specOf(crd).additionalPrinterColumns ?? [];
  if (declared.length === 0) {
    return [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0 }];
  }
  return declared.map((c) => ({
    name: c.name,
    type: c.type,
    ...(c.format ? { format: c.format } : {}),
    jsonPath: c.jsonPath,
    description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    priority: c.priority ?? 0,
  }));
}

// ------------------------------------------------------------------------------------------
// validateCrd
// ------------------------------------------------------------------------------------------

const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** `validation.IsDNS1035Label`. */
function isDns1035Label(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(v)) errs.push(DNS1035_MSG);
  return errs;
}

/** `validation.IsDNS1123Subdomain`. */
function isDns1123Subdomain(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(v)) errs.push(DNS1123_SUBDOMAIN_MSG);
  return errs;
}

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/**
 * Validate a CustomResourceDefinition (apiextensions.k8s.io/v1) as the apiserver does on
 * create, after its defaulting (`names.singular` = lower-case kind, `names.listKind` =
 * kind + `List`). Returns field errors in the apiserver's order and words, e.g.
 * `metadata.name: Invalid value: "x": must be spec.names.plural+"."+spec.group`,
 * `spec.versions: Invalid value: [...]: must have exactly one version marked as storage version`,
 * `spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required`,
 * `spec.scope: Unsupported value: "x": supported values: "Cluster", "Namespaced"`, structural
 * schema errors (`...properties[spec].type: Required value: must not be empty for specified
 * object fields`), scale subresource paths and printer columns. The generic ObjectMeta checks
 * (name is a DNS subdomain, ...) are the caller's.
 */
export function validateCrd(crd: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(crd);
  const names = { ...(spec.names ?? {}) };
  if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  const versions = spec.versions ?? [];

  const name = crd.metadata?.name ?? '';
  if (name && name !== `${names.plural ?? ''}.${spec.group ?? ''}`) {
    errs.push(field.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }

  if (!spec.group) errs.push(field.required('spec.group'));
  else {
    const ge = isDns1123Subdomain(spec.group);
    if (ge.length) errs.push(field.invalid('spec.group', spec.group, ge.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(field.invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }

  if (!spec.scope) errs.push(field.required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errs.push(field.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));

  if (!spec.validation?.openAPIV3Schema) {
    versions.forEach((v, i) => {
      if (!v.schema?.openAPIV3Schema) errs.push(field.required(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
    });
  }

  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const ne = isDns1035Label(v.name ?? '');
    if (ne.length) errs.push(field.invalid(`spec.versions[${i}].name`, v.name, ne.join(',')));
    const path = `spec.versions[${i}]`;
    const sub = v.subresources ?? spec.subresources;
    const schema = v.schema?.openAPIV3Schema;
    if (schema) validateSchemaRoot(schema, `${path}.schema.openAPIV3Schema`, !!sub?.status, errs);
    validateSubresources(v.subresources, `${path}.subresources`, errs);
    (v.additionalPrinterColumns ?? []).forEach((c, j) => validateColumn(c, `${path}.additionalPrinterColumns[${j}]`, errs));
  });
  const versionsValue = spec.versions ?? null;
  if (!unique) errs.push(field.invalid('spec.versions', versionsValue, 'must contain unique version names'));
  if (storage !== 1) errs.push(field.invalid('spec.versions', versionsValue, 'must have exactly one version marked as storage version'));

  if (!names.plural) errs.push(field.required('spec.names.plural'));
  if (!names.singular) errs.push(field.required('spec.names.singular'));
  if (!names.kind) errs.push(field.required('spec.names.kind'));
  if (!names.listKind) errs.push(field.required('spec.names.listKind'));
  const label = (p: string, v: string | undefined, lower = false, prefix = '') => {
    if (!v) return;
    const e = isDns1035Label(lower ? v.toLowerCase() : v);
    if (e.length) errs.push(field.invalid(p, v, prefix + e.join(',')));
  };
  label('spec.names.plural', names.plural);
  label('spec.names.singular', names.singular);
  label('spec.names.kind', names.kind, true, 'may have mixed case, but should otherwise match: ');
  label('spec.names.listKind', names.listKind, true, 'may have mixed case, but should otherwise match: ');
  (names.shortNames ?? []).forEach((s, i) => label(`spec.names.shortNames[${i}]`, s));
  if (names.kind && names.kind === names.listKind) errs.push(field.invalid('spec.names.listKind', names.listKind, 'kind and listKind may not be the same'));
  (names.categories ?? []).forEach((s, i) => label(`spec.names.categories[${i}]`, s));
  return errs;
}

const ROOT_FIELDS_WITH_STATUS = ['description', 'type', 'required', 'properties', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations'];

function validateSchemaRoot(schema: JSONSchemaProps, path: string, statusEnabled: boolean, errs: FieldError[]): void {
  if (schema.nullable) errs.push(field.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  if (!schema.type) errs.push(field.required(`${path}.type`, 'must not be empty at the root'));
  else if (schema.type !== 'object') {
    if (statusEnabled) errs.push(field.invalid(`${path}.type`, schema.type, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
    else errs.push(field.invalid(`${path}.type`, schema.type, 'must be object at the root'));
  }
  if (statusEnabled) {
    const extra = Object.keys(schema).filter((k) => !ROOT_FIELDS_WITH_STATUS.includes(k) && (schema as Obj)[k] !== undefined);
    if (extra.length) {
      errs.push(field.invalid(path, schema, `only [${ROOT_FIELDS_WITH_STATUS.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
    }
  }
  validateSchemaNode(schema, path, true, '', errs);
}

function validateSchemaNode(s: JSONSchemaProps, path: string, isRoot: boolean, role: string, errs: FieldError[]): void {
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (s.type !== undefined && !OPENAPI_TYPES.includes(s.type)) errs.push(field.notSupported(`${path}.type`, s.type, OPENAPI_TYPES));
  if (!isRoot && !s.type && !intOrString && !preserve && !s['x-kubernetes-embedded-resource']) {
    errs.push(field.required(`${path}.type`, `must not be empty for specified ${role}`));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(field.invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  if (s.type === 'array' && !s.items) errs.push(field.required(`${path}.items`, 'must be specified'));
  if (s.uniqueItems) errs.push(field.forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const ap = s.additionalProperties;
  if (ap !== undefined && s.properties && Object.keys(s.properties).length > 0 && (ap === false || isObj(ap))) {
    errs.push(field.forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) validateSchemaNode(p, `${path}.properties[${k}]`, false, 'object fields', errs);
  if (isObj(s.items)) validateSchemaNode(s.items as JSONSchemaProps, `${path}.items`, false, 'array items', errs);
  if (isObj(ap)) validateSchemaNode(ap as JSONSchemaProps, `${path}.additionalProperties`, false, 'map values', errs);
}

function validateSimpleJsonPath(p: string, path: string, errs: FieldError[]): boolean {
  if (!p.startsWith('.')) {
    errs.push(field.invalid(path, p, 'must be a simple json path starting with .'));
    return false;
  }
  return true;
}

function validateSubresources(sub: CustomResourceDefinitionVersion['subresources'] | undefined, path: string, errs: FieldError[]): void {
  const scale = sub?.scale;
  if (!scale) return;
  if (!scale.specReplicasPath) errs.push(field.required(`${path}.scale.specReplicasPath`));
  else if (validateSimpleJsonPath(scale.specReplicasPath, `${path}.scale.specReplicasPath`, errs) && !scale.specReplicasPath.startsWith('.spec.')) {
    errs.push(field.invalid(`${path}.scale.specReplicasPath`, scale.specReplicasPath, 'should be a json path under .spec'));
  }
  if (!scale.statusReplicasPath) errs.push(field.required(`${path}.scale.statusReplicasPath`));
  else if (validateSimpleJsonPath(scale.statusReplicasPath, `${path}.scale.statusReplicasPath`, errs) && !scale.statusReplicasPath.startsWith('.status.')) {
    errs.push(field.invalid(`${path}.scale.statusReplicasPath`, scale.statusReplicasPath, 'should be a json path under .status'));
  }
  const ls = scale.labelSelectorPath;
  if (ls && validateSimpleJsonPath(ls, `${path}.scale.labelSelectorPath`, errs) && !ls.startsWith('.spec.') && !ls.startsWith('.status.')) {
    errs.push(field.invalid(`${path}.scale.labelSelectorPath`, ls, 'should be a json path under either .spec or .status'));
  }
}

function validateColumn(c: NonNullable<CustomResourceDefinitionVersion['additionalPrinterColumns']>[number], path: string, errs: FieldError[]): void {
  if (!c.name) errs.push(field.required(`${path}.name`));
  const typeMsg = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!c.type) errs.push(field.required(`${path}.type`, typeMsg));
  else if (!PRINTER_COLUMN_TYPES.includes(c.type)) errs.push(field.invalid(`${path}.type`, c.type, typeMsg));
  if (c.format && !PRINTER_COLUMN_FORMATS.includes(c.format)) errs.push(field.invalid(`${path}.format`, c.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  if (!c.jsonPath) errs.push(field.required(`${path}.JSONPath`));
  else validateSimpleJsonPath(c.jsonPath, `${path}.JSONPath`, errs);
}

// ------------------------------------------------------------------------------------------
// Pruning and defaulting
// ------------------------------------------------------------------------------------------

const META_FIELDS = ['apiVersion', 'kind', 'metadata'];

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * Drop the fields a structural schema does not specify, in place, and return their paths
 * (`spec.foo`, `spec.items[0].bar`). Kept: `apiVersion`, `kind`, `metadata` at the root and in
 * `x-kubernetes-embedded-resource` objects; everything under `x-kubernetes-preserve-unknown-fields:
 * true` (known properties below it are still pruned); map values of `additionalProperties`.
 * An `object` with neither properties nor additionalProperties keeps nothing. `null` values of
 * non-nullable fields are dropped too (not reported). The apiserver prunes silently; with
 * kubectl's default `--validate=strict` the returned paths become the request's
 * `strict decoding error: unknown field "spec.foo"`.
 * Source: staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go,
 * .../schema/defaulting/prunenulls.go.
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps | undefined): string[] {
  const pruned: string[] = [];
  if (!schema) return pruned;
  pruneValue(obj, schema, '', true, pruned);
  return pruned;
}

function pruneValue(v: unknown, s: JSONSchemaProps, path: string, isResourceRoot: boolean, pruned: string[]): void {
  if (Array.isArray(v)) {
    const items = isObj(s.items) ? (s.items as JSONSchemaProps) : undefined;
    if (!items) return;
    v.forEach((x, i) => {
      if (x === null && !items.nullable) return;
      pruneValue(x, items, `${path}[${i}]`, false, pruned);
    });
    return;
  }
  if (!isObj(v)) return;
  const props = s.properties ?? {};
  const ap = s.additionalProperties;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const keepMeta = isResourceRoot || s['x-kubernetes-embedded-resource'] === true;
  for (const k of Object.keys(v)) {
    const p = childPath(path, k);
    // ObjectMeta is pruned by its own rules, never by the schema (which may only constrain name).
    if (keepMeta && META_FIELDS.includes(k)) continue;
    const ps = props[k] ?? (isObj(ap) ? (ap as JSONSchemaProps) : undefined);
    if (ps) {
      if (v[k] === null && !ps.nullable && ps.default === undefined) {
        delete v[k];
        continue;
      }
      pruneValue(v[k], ps, p, false, pruned);
      continue;
    }
    if (preserve || ap === true) continue;
    delete v[k];
    pruned.push(p);
  }
}

/**
 * Apply the schema's `default` values to absent fields, in place (objects only; a default is
 * copied, then defaulted further). Source: .../pkg/apiserver/schema/defaulting/algorithm.go.
 */
export function applySchemaDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (!schema) return;
  if (Array.isArray(obj)) {
    if (isObj(schema.items)) for (const x of obj) applySchemaDefaults(x, schema.items as JSONSchemaProps);
    return;
  }
  if (!isObj(obj)) return;
  for (const [k, ps] of Object.entries(schema.properties ?? {})) {
    if (!(k in obj) && ps.default !== undefined) obj[k] = deepCopy(ps.default);
    if (k in obj) applySchemaDefaults(obj[k], ps);
  }
  if (isObj(schema.additionalProperties)) {
    for (const [k, x] of Object.entries(obj)) if (!(schema.properties && k in schema.properties)) applySchemaDefaults(x, schema.additionalProperties as JSONSchemaProps);
  }
}

// ------------------------------------------------------------------------------------------
// validateCustomResource (ajv)
// ------------------------------------------------------------------------------------------

let ajvInstance: Ajv | undefined;
function ajv(): Ajv {
  // ajv loads on demand (src/engine/libs.ts).
  const AjvClass = ajvClass();
  ajvInstance ??= new AjvClass({ allErrors: true, strict: false, verbose: true, validateFormats: false, validateSchema: false });
  return ajvInstance;
}

/** Compiled validators by schema object (fast path) and by schema JSON (objects are copied by the store). */
const bySchemaObject = new WeakMap<object, ValidateFunction>();
const bySchemaJson = new Map<string, ValidateFunction>();
const MAX_CACHED = 128;

/** An OpenAPI v3 (structural) schema as JSON Schema for ajv. */
function toJsonSchema(s: JSONSchemaProps, withPatterns: boolean): Obj {
  const out: Obj = {};
  const type = s.type ?? (s['x-kubernetes-int-or-string'] ? 'integer,string' : undefined);
  if (type) {
    const types = type.split(',');
    out.type = s.nullable ? [...types, 'null'] : types.length === 1 ? types[0] : types;
    out['x-k8s-type'] = type;
  }
  for (const k of ['enum', 'required', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf'] as const) {
    if (s[k] !== undefined) out[k] = s[k];
  }
  if (withPatterns && s.pattern !== undefined) out.pattern = s.pattern;
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum) out.exclusiveMinimum = s.minimum;
    else out.minimum = s.minimum;
  }
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum) out.exclusiveMaximum = s.maximum;
    else out.maximum = s.maximum;
  }
  if (s.enum && s.nullable) out.enum = [...s.enum, null];
  if (s.properties) {
    const props: Obj = {};
    for (const [k, p] of Object.entries(s.properties)) props[k] = toJsonSchema(p, withPatterns);
    out.properties = props;
  }
  if (isObj(s.items)) out.items = toJsonSchema(s.items as JSONSchemaProps, withPatterns);
  if (isObj(s.additionalProperties)) out.additionalProperties = toJsonSchema(s.additionalProperties as JSONSchemaProps, withPatterns);
  else if (s.additionalProperties === false) out.additionalProperties = false;
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (s[k]) out[k] = s[k]!.map((x) => toJsonSchema(x, withPatterns));
  }
  if (s.not) out.not = toJsonSchema(s.not, withPatterns);
  return out;
}

function validatorFor(schema: JSONSchemaProps): ValidateFunction {
  const hit = bySchemaObject.get(schema);
  if (hit) return hit;
  const key = JSON.stringify(schema);
  let fn = bySchemaJson.get(key);
  if (!fn) {
    try {
      fn = ajv().compile(toJsonSchema(schema, true));
    } catch (_e) {
      // A pattern in Go RE2 syntax that JavaScript cannot compile: validate without patterns.
      fn = ajv().compile(toJsonSchema(schema, false));
    }
    if (bySchemaJson.size >= MAX_CACHED) bySchemaJson.delete(bySchemaJson.keys().next().value as string);
    bySchemaJson.set(key, fn);
  }
  bySchemaObject.set(schema, fn);
  return fn;
}

/** The JSON type name go-openapi reports for a value (`integer` for whole numbers). */
function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  return typeof v;
}

/** JSON pointer -> field path with `[i]` for list indices, using the data to tell lists from maps. */
function fieldPathOf(data: unknown, pointer: string): { path: string; value: unknown } {
  let cur: unknown = data;
  let path = '';
  if (!pointer) return { path, value: cur };
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      path += `[${seg}]`;
      cur = cur[Number(seg)];
    } else {
      path = childPath(path, seg);
      cur = isObj(cur) ? cur[seg] : undefined;
    }
  }
  return { path, value: cur };
}

function numberText(n: unknown): string {
  return typeof n === 'number' ? String(n) : String(n);
}

/** One ajv error in the words of `ValidateCustomResource` (go-openapi messages, field types). */
function toFieldError(e: ErrorObject, data: unknown): FieldError | undefined {
  const { path, value } = fieldPathOf(data, e.instancePath);
  const p = e.params as Record<string, unknown>;
  const inBody = (msg: string) => `${path} in body ${msg}`;
  switch (e.keyword) {
    case 'required':
      return field.required(childPath(path, String(p.missingProperty)));
    case 'type': {
      const t = (e.parentSchema as Obj | undefined)?.['x-k8s-type'] ?? p.type;
      const actual = typeName(value);
      return field.typeInvalid(path, actual, inBody(`must be of type ${String(t)}: ${JSON.stringify(actual)}`));
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]).filter((x) => x !== null).map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
      return field.notSupported(path, value, allowed);
    }
    case 'minimum':
      return field.invalid(path, value, inBody(`should be greater than or equal to ${numberText(p.limit)}`));
    case 'exclusiveMinimum':
      return field.invalid(path, value, inBody(`should be greater than ${numberText(p.limit)}`));
    case 'maximum':
      return field.invalid(path, value, inBody(`should be less than or equal to ${numberText(p.limit)}`));
    case 'exclusiveMaximum':
      return field.invalid(path, value, inBody(`should be less than ${numberText(p.limit)}`));
    case 'multipleOf':
      return field.invalid(path, value, inBody(`should be a multiple of ${numberText(p.multipleOf)}`));
    case 'pattern':
      return field.invalid(path, value, inBody(`should match '${String(p.pattern)}'`));
    case 'minLength':
      return field.invalid(path, value, inBody(`should be at least ${numberText(p.limit)} chars long`));
    case 'maxLength':
      return field.tooLong(path, Number(p.limit));
    case 'minItems':
      return field.invalid(path, value, inBody(`should have at least ${numberText(p.limit)} items`));
    case 'maxItems':
      return field.tooMany(path, Array.isArray(value) ? value.length : -1, Number(p.limit));
    case 'minProperties':
      return field.invalid(path, value, inBody(`should have at least ${numberText(p.limit)} properties`));
    case 'maxProperties':
      return field.tooMany(path, isObj(value) ? Object.keys(value).length : -1, Number(p.limit));
    case 'additionalProperties':
      return field.invalid(childPath(path, String(p.additionalProperty)), '', `${childPath(path, String(p.additionalProperty))} in body is a forbidden property`);
    case 'anyOf':
      return { type: 'FieldValueInvalid', field: '<nil>', badValue: '', detail: `"${path}" must validate at least one schema (anyOf)` };
    case 'oneOf':
      return { type: 'FieldValueInvalid', field: '<nil>', badValue: '', detail: `"${path}" must validate one and only one schema (oneOf)` };
    case 'not':
      return { type: 'FieldValueInvalid', field: '<nil>', badValue: '', detail: `"${path}" must not validate the schema (not)` };
    default:
      return field.invalid(path, value ?? '', inBody(e.message ?? 'is invalid'));
  }
}

/**
 * Validate a custom resource against the `openAPIV3Schema` of its version (from `apiVersion`)
 * and return field errors in the apiserver's words:
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`,
 * `spec.size: Unsupported value: "XL": supported values: "S", "M"`, `spec.foo: Required value`,
 * `spec.n: Invalid value: 0: spec.n in body should be greater than or equal to 1`,
 * `spec.s: Invalid value: "x": spec.s in body should match '^a'`, lists indexed as `spec.isbns[0]`.
 * `x-kubernetes-int-or-string` accepts integers and strings (`must be of type integer,string`).
 * Formats are not checked. Call `pruneUnknownFields` first, as the apiserver prunes before it
 * validates. Validators are compiled once per schema and cached.
 */
export function validateCustomResource(obj: KubeObject, crd: KubeObject): FieldError[] {
  const version = splitApiVersion(obj.apiVersion ?? '').version;
  const schema = schemaForVersion(crd, version);
  if (!schema) return [];
  const validate = validatorFor(schema);
  if (validate(obj)) return [];
  const out: FieldError[] = [];
  for (const e of validate.errors ?? []) {
    // go-openapi reports the first alternative of a failed anyOf/oneOf, not every branch.
    if (/\/(anyOf|oneOf)\/[1-9][0-9]*\//.test(e.schemaPath)) continue;
    const fe = toFieldError(e, obj);
    if (fe) out.push(fe);
  }
  return out;
}
