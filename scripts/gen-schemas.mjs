#!/usr/bin/env node
/**
 * Generate the JSON Schemas the YAML editor validates against (`npm run gen:schemas`).
 *
 * Source: the `kubernetes-types` package (1.30.0, TypeScript types generated from the
 * Kubernetes OpenAPI, docs included), read by ts-json-schema-generator 2.4.0 through
 * scripts/schema-kinds.ts (one export per kind the engine serves). Output, committed under
 * src/ui/editor/schemas/ so the build never runs this:
 *   - `_definitions.json`: every type the kinds use (`ObjectMeta`, `PodSpec`, ...), by name;
 *   - `<kind>.json` (lower case, e.g. `deployment.json`): the kind's root object schema, its
 *     `$ref`s pointing into `_definitions.json` as `#/definitions/<Name>` (src/ui/editor/schema.ts
 *     joins them into one schema at run time).
 * Objects get `additionalProperties: false` (a misspelled field is flagged), `apiVersion` and
 * `kind` are constants (from kubernetes-types), descriptions are kept for hover. A few
 * types the TypeScript view gets wrong for YAML are corrected after generation (see FIXES).
 */
import { createGenerator } from 'ts-json-schema-generator';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'src/ui/editor/schemas');
const COMMAND = 'npm run gen:schemas (node scripts/gen-schemas.mjs: ts-json-schema-generator 2.4.0 over kubernetes-types 1.30.0 via scripts/schema-kinds.ts)';

const generator = createGenerator({
  path: join(root, 'scripts/schema-kinds.ts'),
  tsconfig: join(root, 'tsconfig.node.json'),
  type: '*',
  expose: 'export',
  topRef: true,
  jsDoc: 'extended',
  additionalProperties: false,
  skipTypeCheck: true,
  sortProps: true,
});
const full = generator.createSchema('*');
const defs = full.definitions;

/** The kinds: the names exported by scripts/schema-kinds.ts (generated schema keeps them as definitions). */
const KINDS = [
  'ComponentStatus', 'ConfigMap', 'Endpoints', 'Event', 'Namespace', 'Node', 'PersistentVolumeClaim', 'PersistentVolume', 'Pod', 'Secret', 'ServiceAccount', 'Service',
  'ValidatingWebhookConfiguration', 'CustomResourceDefinition', 'ControllerRevision', 'DaemonSet', 'Deployment', 'ReplicaSet', 'StatefulSet', 'CronJob', 'Job',
  'Lease', 'EndpointSlice', 'IngressClass', 'Ingress', 'ClusterRoleBinding', 'ClusterRole', 'RoleBinding', 'Role', 'PriorityClass', 'StorageClass',
];

// FIXES: what YAML accepts but the TypeScript types say otherwise.
/** resource.Quantity is a string in Go's JSON, but the API server also accepts a number (`cpu: 1`). */
defs.Quantity = { type: ['string', 'number'], description: defs.Quantity.description };
/** metav1.Time/MicroTime marshal a zero time as `null` (`creationTimestamp: null` in templates). */
defs.Time = { type: ['string', 'null'], description: defs.Time.description };
defs.MicroTime = { type: ['string', 'null'], description: defs.MicroTime.description };
/** Free-form values (the TypeScript view has no properties, which would forbid every key). */
for (const name of ['JSON', 'RawExtension', 'FieldsV1']) defs[name] = { description: defs[name].description };
/**
 * The `x-kubernetes-*` extensions of JSONSchemaProps, which kubernetes-types leaves out.
 * Source: staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types_jsonschema.go.
 */
Object.assign(defs.JSONSchemaProps.properties, {
  'x-kubernetes-embedded-resource': { type: 'boolean', description: 'x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta.' },
  'x-kubernetes-int-or-string': { type: 'boolean', description: 'x-kubernetes-int-or-string specifies that this value is either an integer or a string.' },
  'x-kubernetes-list-map-keys': { type: 'array', items: { type: 'string' }, description: 'x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.' },
  'x-kubernetes-list-type': { type: 'string', enum: ['atomic', 'set', 'map'], description: 'x-kubernetes-list-type annotates an array to further describe its topology: atomic, set or map.' },
  'x-kubernetes-map-type': { type: 'string', enum: ['granular', 'atomic'], description: 'x-kubernetes-map-type annotates an object to further describe its topology: granular or atomic.' },
  'x-kubernetes-preserve-unknown-fields': { type: 'boolean', description: 'x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema.' },
  'x-kubernetes-validations': { type: 'array', items: { $ref: '#/definitions/ValidationRule' }, description: 'x-kubernetes-validations describes a list of validation rules written in the CEL expression language.' },
});

/** Names a schema refers to (`#/definitions/X`), transitively. */
function reachable(start) {
  const seen = new Set();
  const visit = (v) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/definitions/')) {
        const name = decodeURIComponent(x.slice('#/definitions/'.length));
        if (!seen.has(name)) {
          seen.add(name);
          visit(defs[name]);
        }
      } else visit(x);
    }
  };
  start.forEach((k) => visit(defs[k]));
  return seen;
}

mkdirSync(outDir, { recursive: true });
for (const f of readdirSync(outDir)) if (f.endsWith('.json')) rmSync(join(outDir, f));

const shared = {};
// Kinds that other kinds embed (PersistentVolumeClaim in a StatefulSet) are shared definitions too.
for (const name of [...reachable(KINDS)].sort()) shared[name] = defs[name];
const write = (file, obj) => writeFileSync(join(outDir, file), JSON.stringify(obj) + '\n');
write('_definitions.json', { $comment: `Generated by ${COMMAND}. Do not edit.`, definitions: shared });
for (const kind of KINDS) {
  const schema = defs[kind];
  if (!schema) throw new Error(`kubernetes-types has no ${kind}`);
  write(`${kind.toLowerCase()}.json`, { $comment: `Generated by ${COMMAND}. Refs resolve against _definitions.json.`, ...schema });
}
console.log(`wrote ${KINDS.length} kinds and ${Object.keys(shared).length} shared definitions to ${outDir}`);

// The engine's compact field table (src/engine/api/schema/fields.json) is derived from these schemas.
await import('./gen-fields.mjs');
// kubectl explain's documentation (src/shell/kubectl/explain-docs.json), from the same package.
await import('./gen-explain.mjs');
