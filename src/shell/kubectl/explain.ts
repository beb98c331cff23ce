/**
 * `kubectl explain TYPE[.field.path] [--recursive] [--api-version=G/V] [-o plaintext|plaintext-openapiv2]`: the
 * documentation of a kind and its fields, as kubectl renders the OpenAPI v3 schema the server
 * publishes.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go and the plaintext template of
 * staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl with the template functions
 * of v2/funcs.go (kubectl 1.32):
 * - header `GROUP:` (named groups only), `KIND:`, `VERSION:`, a blank line;
 * - for a field path, `FIELD: name <type>` and two blank lines (only the last segment is named);
 * - `DESCRIPTION:`: the field's description and then its type's (a `$ref` behind `allOf`, also
 *   through `items` and `additionalProperties`), each ending in a newline, word-wrapped at 76
 *   columns by mitchellh/go-wordwrap (existing newlines kept) and indented by four, so the last
 *   line is four spaces; `<empty>` when there is none;
 * - `FIELDS:`: every property sorted by name, `  name\t<type>` with ` -required-`, its description
 *   wrapped at 76 and indented by four (`<no description>` when empty), a blank line after each;
 *   with `--recursive` only the names, two more spaces per level, a type not expanded again inside
 *   itself (the template's `history` of `$ref`s);
 * - a final newline;
 * - the type names of the template's `typeGuess`: `[]T`, `map[string]T`, a struct's name,
 *   `string` for Time (its schema has a type), `Quantity`/`IntOrString` (a `oneOf`), `Object`.
 *
 * Errors (exit 1): `the server doesn't have a resource type "foo"` (the mapper's
 * NoResourceMatchError, printed without `error: `); after the header on stdout,
 * `error: field "<last segment of the path>" does not exist` (the template names the path's last
 * segment, whichever one is missing); `error: couldn't find resource for "apps/v2, Resource=deployments"`
 * for an unserved --api-version; `error: unrecognized format: x`; `error: invalid jsonpath syntax, ...`
 * for a path segment that is not a field (the argument is read as a JSONPath, splitResourceRequest).
 *
 * The documentation comes from src/shell/kubectl/explain-docs.json (scripts/gen-explain.mjs over
 * kubernetes-types 1.30.0: the OpenAPI descriptions of k8s.io/api, without the `Possible enum
 * values` notes and `enum:` lines, which kubernetes-types drops, and without fields added after
 * 1.30). A CustomResourceDefinition's kind is explained from its served version's
 * `openAPIV3Schema`, with the `apiVersion`, `kind` and `metadata` properties the API server adds
 * to the schema it publishes (apiextensions-apiserver pkg/controller/openapi/builder/builder.go).
 *
 * `-o plaintext-openapiv2` prints the same documentation the old way (the OpenAPI v2 printers of
 * pkg/explain/, explain-v2.ts).
 */
import type { ResourceType } from '../../engine/api/registry';
import { CmdError, discover, fail, type Env } from './env';
import docsJson from './explain-docs.json';
import { builtinV2, crdV2, printModelDescriptionV2, type V2Props, type V2Schema } from './explain-v2';

/** One type's documentation: description, required fields, and `[typeGuess, description, childType?]` per field. */
interface TypeDoc {
  d?: string;
  r?: string[];
  f: Record<string, [string, string] | [string, string, string]>;
}
const DOCS = docsJson as unknown as { kinds: Record<string, string>; types: Record<string, TypeDoc> };

/** A schema node `explain` walks: a description and, for objects, fields. `id` names a `$ref`'d type (cycle detection). */
interface ExplainNode {
  id?: string;
  desc?: string;
  fields?: Map<string, ExplainField>;
}

/** One property of a node. */
interface ExplainField {
  type: string;
  desc: string;
  required: boolean;
  /** The node `explain` descends into (the property's type, through `[]` and `map[string]`). */
  child?: () => ExplainNode | undefined;
}

/** The node of a generated type (explain-docs.json). */
function typeNode(name: string): ExplainNode | undefined {
  const t = DOCS.types[name];
  if (!t) return undefined;
  const required = new Set(t.r ?? []);
  const fields = new Map<string, ExplainField>();
  for (const [f, [type, desc, child]] of Object.entries(t.f)) {
    fields.set(f, { type, desc, required: required.has(f), ...(child ? { child: () => typeNode(child) } : {}) });
  }
  return { id: name, desc: t.d, fields: fields.size > 0 ? fields : undefined };
}

/** Loose view of a CRD's JSONSchemaProps. */
interface Props {
  type?: string;
  description?: string;
  properties?: Record<string, Props>;
  required?: string[];
  items?: Props;
  additionalProperties?: Props | boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

/** The template's typeGuess of an inline (ref-free) schema. */
function guessInline(p: Props): string {
  if (p.items) return `[]${guessInline(p.items)}`;
  if (p.additionalProperties && typeof p.additionalProperties === 'object') return `map[string]${guessInline(p.additionalProperties)}`;
  if (p.type === 'object' || !p.type) return 'Object';
  return p.type;
}

/** The node of an inline CRD schema: its own properties, or those of its items / map values. */
function propsNode(p: Props | undefined): ExplainNode | undefined {
  if (!p) return undefined;
  let target: Props = p;
  while (!target.properties && (target.items || (target.additionalProperties && typeof target.additionalProperties === 'object'))) {
    target = target.items ?? (target.additionalProperties as Props);
  }
  const required = new Set(target.required ?? []);
  let fields: Map<string, ExplainField> | undefined;
  if (target.properties) {
    fields = new Map();
    for (const [f, sub] of Object.entries(target.properties)) {
      fields.set(f, { type: guessInline(sub), desc: sub.description ?? '', required: required.has(f), child: () => propsNode(sub) });
    }
  }
  return { desc: p.description, fields };
}

/** The standard properties apiextensions' OpenAPI builder adds to a custom resource's schema. */
function withTypeMeta(root: ExplainNode): ExplainNode {
  const fields = new Map(root.fields ?? []);
  for (const f of ['apiVersion', 'kind', 'metadata']) {
    const std = DOCS.types.Pod.f[f];
    fields.set(f, { type: std[0], desc: std[1], required: false, ...(std[2] ? { child: () => typeNode(std[2]!) } : {}) });
  }
  return { ...root, fields };
}

/**
 * mitchellh/go-wordwrap `WrapString(s, lim)` (v1.0.1): breaks at whitespace so lines stay within
 * `lim` runes where words allow, keeps existing newlines, drops the spaces at a break, never
 * splits a word (a longer one gets a line of its own).
 */
export function wordWrap(s: string, lim: number): string {
  let out = '';
  let current = 0;
  let word = '';
  let wordLen = 0;
  let space = '';
  let spaceLen = 0;
  for (const ch of s) {
    if (ch === '\n') {
      // The line ends here: pending spaces are kept when they fit (or always before a word).
      if (wordLen > 0 || current + spaceLen <= lim) out += space + word;
      space = '';
      spaceLen = 0;
      word = '';
      wordLen = 0;
      out += ch;
      current = 0;
    } else if (/\s/.test(ch) && ch !== '\u00a0') {
      if (spaceLen === 0 || wordLen > 0) {
        current += spaceLen + wordLen;
        out += space + word;
        space = '';
        spaceLen = 0;
        word = '';
        wordLen = 0;
      }
      space += ch;
      spaceLen++;
    } else {
      word += ch;
      wordLen++;
      if (current + spaceLen + wordLen > lim && wordLen < lim) {
        out += '\n';
        current = 0;
        space = '';
        spaceLen = 0;
      }
    }
  }
  if (wordLen === 0) {
    if (current + spaceLen <= lim) out += space;
  } else out += space + word;
  return out;
}

/** The template's `indent N`: the pad before the text and after every newline. */
function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return pad + text.split('\n').join(`\n${pad}`);
}

/** `FIELDS:` rows of a node (fieldList + fieldDetail). `seen` holds the types on the current path. */
function fieldList(node: ExplainNode, level: number, recursive: boolean, seen: ReadonlySet<string>): string {
  if (node.id && seen.has(node.id)) return '';
  const inner = node.id ? new Set(seen).add(node.id) : seen;
  let s = '';
  for (const name of [...(node.fields?.keys() ?? [])].sort()) {
    const f = node.fields!.get(name)!;
    const pad = level * 2;
    s += `${' '.repeat(pad)}${name}\t<${f.type}>${f.required ? ' -required-' : ''}\n`;
    if (recursive) {
      const child = f.child?.();
      if (child) s += fieldList(child, level + 1, true, inner);
    } else {
      s += `${indent(wordWrap(f.desc || '<no description>', 78 - pad), pad + 2)}\n\n`;
    }
  }
  return s;
}

/** The kind's root node: a built-in type's documentation or a CRD's served schema. The root is not a `$ref` (not in the cycle history). */
function rootNode(env: Env, t: ResourceType): ExplainNode | undefined {
  if (!t.custom) {
    const builtin = DOCS.kinds[t.kind];
    const node = builtin ? typeNode(builtin) : undefined;
    return node && { desc: node.desc, fields: node.fields };
  }
  const crd = [...env.api.store.values('apiextensions.k8s.io/customresourcedefinitions')].find((c) => {
    const spec = c.spec as { group?: string; names?: { kind?: string } };
    return spec.group === t.group && spec.names?.kind === t.kind;
  });
  if (!crd) return undefined;
  const versions = (crd.spec as { versions?: { name: string; schema?: { openAPIV3Schema?: Props } }[] }).versions ?? [];
  const schema = versions.find((x) => x.name === t.version)?.schema?.openAPIV3Schema ?? { type: 'object' };
  return withTypeMeta(propsNode(schema)!);
}

/**
 * explain.go SplitAndParseResourceRequest(WithMatchingPrefix) over the argument read as the
 * JSONPath `{.ARG}` (a trailing `.` dropped): the first segment names the resource; without
 * --api-version, when `resource.group` (the resolved type's GroupResource) begins the argument,
 * the fields are what follows it (`deployments.apps.spec.replicas`), else every segment after
 * the first. A segment that is not a field (`..`, `x[0]`) is `invalid jsonpath syntax, first node
 * must be field node` (`all nodes must be field nodes` with --api-version).
 */
function splitResourceRequest(env: Env, arg: string, matchPrefix: boolean): { t: ResourceType; path: string[] } {
  const notField = (segs: string[]): boolean => segs.some((x) => x === '' || /[[\]*@$()?]/.test(x));
  const trimmed = arg.endsWith('.') ? arg.slice(0, -1) : arg;
  const [first, ...rest] = trimmed.split('.');
  if (notField([first])) throw fail('invalid jsonpath syntax, first node must be field node');
  const t = env.api.registry.resolve(first);
  if (!t) throw new CmdError(`the server doesn't have a resource type "${first}"`);
  if (!matchPrefix) {
    if (notField(rest)) throw fail('invalid jsonpath syntax, all nodes must be field nodes');
    return { t, path: rest };
  }
  const groupResource = t.group ? `${t.resource}.${t.group}` : t.resource;
  let path = rest;
  if (arg.startsWith(groupResource)) {
    const suffix = arg.slice(groupResource.length);
    const segs = suffix === '' ? [] : (suffix.endsWith('.') ? suffix.slice(0, -1) : suffix).split('.');
    path = segs.slice(1);
  }
  if (notField(path)) throw fail('invalid jsonpath syntax, first node must be field node');
  return { t, path };
}

/** `--output=plaintext-openapiv2`: the kind from the OpenAPI v2 document, printed as explain-v2.ts does. */
function explainV2(env: Env, t: ResourceType, path: string[]): number {
  let root: V2Schema | undefined;
  if (!t.custom) root = builtinV2(t.kind);
  else {
    const crd = [...env.api.store.values('apiextensions.k8s.io/customresourcedefinitions')].find((c) => {
      const spec = c.spec as { group?: string; names?: { kind?: string } };
      return spec.group === t.group && spec.names?.kind === t.kind;
    });
    const versions = ((crd?.spec ?? {}) as { versions?: { name: string; schema?: { openAPIV3Schema?: V2Props } }[] }).versions ?? [];
    if (crd) root = crdV2(versions.find((x) => x.name === t.version)?.schema?.openAPIV3Schema ?? { type: 'object' });
  }
  const gv = t.group ? `${t.group}/${t.version}` : t.version;
  if (!root) throw fail(`couldn't find resource for "${gv}, Kind=${t.kind}"`);
  const r = printModelDescriptionV2(root, gv, t.kind, path, env.flags.bool('recursive'));
  if ('error' in r) throw fail(r.error);
  env.out(r.text);
  return 0;
}

/** `kubectl explain`. */
export function explain(env: Env): number {
  const args = env.flags.args;
  if (args.length === 0) {
    // explain.go (v1.27+): one plain error line.
    throw new CmdError('error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.');
  }
  if (args.length > 1) throw fail(`We accept only this format: explain RESOURCE`);
  const output = env.flags.str('output') || 'plaintext';
  if (output !== 'plaintext' && output !== 'plaintext-openapiv2') throw fail(`unrecognized format: ${output}`);
  discover(env, 2);
  const apiVersion = env.flags.str('api-version');
  const { t, path } = splitResourceRequest(env, args[0], !apiVersion);
  if (apiVersion) {
    const [g, v] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    if (g !== t.group || v !== t.version) {
      // renderOpenAPIV2 looks the kind up in the v2 document (a GroupVersionKind); the v3 path the resource.
      throw fail(output === 'plaintext-openapiv2' ? `couldn't find resource for "${g ? `${g}/` : ''}${v}, Kind=${t.kind}"` : `couldn't find resource for "${g}/${v}, Resource=${t.resource}"`);
    }
  }
  if (output === 'plaintext-openapiv2') return explainV2(env, t, path);
  const root = rootNode(env, t);
  let header = t.group ? `GROUP:      ${t.group}\n` : '';
  header += `KIND:       ${t.kind}\nVERSION:    ${t.version}\n\n`;
  if (!root) throw fail(`GVK ${t.group}/${t.version}, Kind=${t.kind} not found in OpenAPI schema`);
  const recursive = env.flags.bool('recursive');

  let node: ExplainNode | undefined = root;
  let field: ExplainField | undefined;
  for (const seg of path) {
    field = node?.fields?.get(seg);
    if (!field) {
      env.out(header);
      throw fail(`field "${path[path.length - 1]}" does not exist`);
    }
    node = field.child?.();
  }
  let s = header;
  let desc: string;
  if (field) {
    s += `FIELD: ${path[path.length - 1]} <${field.type}>\n\n\n`;
    desc = (field.desc ? `${field.desc}\n` : '') + (node?.desc ? `${node.desc}\n` : '');
  } else desc = root.desc ? `${root.desc}\n` : '';
  s += `DESCRIPTION:\n${indent(wordWrap(desc || '<empty>', 76), 4)}\n`;
  if (node?.fields && node.fields.size > 0) s += `FIELDS:\n${fieldList(node, 1, recursive, new Set())}`;
  env.out(`${s}\n`);
  return 0;
}
