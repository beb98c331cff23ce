/**
 * The one JSON Schema the editor validates every YAML document against: the vendored per-kind
 * schemas of ./schemas/ (generated from kubernetes-types by scripts/gen-schemas.mjs) joined with
 * their shared definitions, picked per document by `kind` with `if`/`then`, plus one entry per
 * custom kind the cluster serves (its CRD's openAPIV3Schema). A single schema serves
 * multi-document buffers, where one document is a Deployment and the next a Service.
 */
/// <reference types="vite/client" />
import shared from './schemas/_definitions.json';
import { BUILTIN_TYPES, apiVersionOf } from '../../engine/api/registry';

/** The schema's URI: file-like, so monaco-yaml never tries to download it (monaco-yaml README FAQ). */
export const KUBERNETES_SCHEMA_URI = 'file:///schemas/kubernetes.json';

/** A JSON Schema object (loosely typed: it is data). */
export type SchemaObject = Record<string, unknown>;

/** A custom kind with its schema (the worker's `crds` reply). */
export interface CustomKindSchema {
  apiVersion: string;
  kind: string;
  schema: unknown;
}

const kindFiles = import.meta.glob<SchemaObject>('./schemas/*.json', { eager: true, import: 'default' });

const VENDORED: Record<string, SchemaObject> = Object.fromEntries(
  Object.entries(kindFiles)
    .filter(([path]) => !path.endsWith('/_definitions.json'))
    .map(([, schema]) => {
      const { $comment: _c, ...rest } = schema;
      const kind = ((rest.properties as Record<string, { const?: string }>).kind?.const ?? '') as string;
      return [kind, rest];
    }),
);

/**
 * A served built-in kind without a vendored schema (scripts/schema-kinds.ts does not export it
 * yet, or kubernetes-types 1.30.0 predates its GA version): apiVersion and kind are checked,
 * metadata is an ObjectMeta, the rest is open (no false "unknown field" marks).
 */
function openBuiltinRoot(apiVersion: string, kind: string): SchemaObject {
  return {
    type: 'object',
    description: `${kind} (${apiVersion}). Fields are not checked by the editor.`,
    properties: {
      apiVersion: { type: 'string', const: apiVersion, description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', const: kind, description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { $ref: '#/definitions/ObjectMeta' },
    },
  };
}

/**
 * The built-in kinds with their root schemas, by kind (`Deployment`): the vendored ones, and an
 * open schema for every other kind the API server serves (registry.ts `BUILTIN_TYPES`; a kind
 * served by two groups, `Event`, keeps its first, core, entry).
 */
export const BUILTIN_SCHEMAS: Readonly<Record<string, SchemaObject>> = (() => {
  const out: Record<string, SchemaObject> = { ...VENDORED };
  for (const t of BUILTIN_TYPES) if (!out[t.kind]) out[t.kind] = openBuiltinRoot(apiVersionOf(t), t.kind);
  return out;
})();

/** The `apiVersion` a built-in kind's schema requires (`apps/v1`). */
export function apiVersionOfSchema(s: SchemaObject): string | undefined {
  return (s.properties as Record<string, { const?: string }> | undefined)?.apiVersion?.const;
}

const CUSTOM_PREFIX = 'custom_';

/** A CRD's schema made editor-friendly: object schemas the CRD leaves open stay open. */
function customRoot(c: CustomKindSchema): SchemaObject {
  const s = (c.schema && typeof c.schema === 'object' ? c.schema : {}) as SchemaObject;
  const props = (s.properties ?? {}) as Record<string, unknown>;
  return {
    ...s,
    type: 'object',
    properties: {
      ...props,
      apiVersion: { type: 'string', const: c.apiVersion, description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', const: c.kind, description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { $ref: '#/definitions/ObjectMeta' },
    },
  };
}

/**
 * The editor's schema: every built-in kind, and `custom` kinds (CRDs applied in the cluster)
 * matched by apiVersion and kind. A document whose kind is neither gets the kind enum's message.
 */
export function kubernetesSchema(custom: readonly CustomKindSchema[] = []): SchemaObject {
  const definitions: Record<string, unknown> = { ...(shared as { definitions: Record<string, unknown> }).definitions };
  const allOf: SchemaObject[] = [];
  const kinds = new Set<string>();
  for (const [kind, schema] of Object.entries(BUILTIN_SCHEMAS)) {
    definitions[kind] = schema;
    kinds.add(kind);
    allOf.push({ if: { properties: { kind: { const: kind } }, required: ['kind'] }, then: { $ref: `#/definitions/${kind}` } });
  }
  for (const c of custom) {
    const name = `${CUSTOM_PREFIX}${c.apiVersion}_${c.kind}`.replace(/[^A-Za-z0-9_]/g, '_');
    definitions[name] = customRoot(c);
    kinds.add(c.kind);
    allOf.push({
      if: { properties: { kind: { const: c.kind }, apiVersion: { const: c.apiVersion } }, required: ['kind', 'apiVersion'] },
      then: { $ref: `#/definitions/${name}` },
    });
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object (`v1`, `apps/v1`, ...).' },
      kind: { type: 'string', enum: [...kinds].sort(), description: 'Kind is a string value representing the REST resource this object represents.' },
    },
    required: ['apiVersion', 'kind'],
    allOf,
    definitions,
  };
}
