/**
 * `kubectl explain --output=plaintext-openapiv2`: the pre-1.27 explain, which walks the OpenAPI v2
 * document (`/openapi/v2`) with kube-openapi's proto model and prints it with its own printers.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/explain/ (kubectl 1.32): explain.go
 * (PrintModelDescription: a Formatter wrapping at 80 columns), field_lookup.go (the path walk:
 * `field "x" does not exist` names the first missing segment; a primitive ends the walk even with
 * segments left), model_printer.go (`KIND:     K`, `VERSION:  group/version`, a blank line;
 * `RESOURCE: name <type>` and a blank line for a field that is an object, `FIELD:    name <type>`
 * and a blank line for a primitive, nothing for an arbitrary value; `DESCRIPTION:` with every
 * description met on the way (the property's, then its type's), a blank line between them, indented
 * by 5; then for an object a blank line and `FIELDS:`), fields_printer.go (`   name\t<type>` with
 * ` -required-`, the description indented by 5, a blank line), recursive_fields_printer.go (names
 * only, 3 more spaces per level, a `$ref` not expanded inside itself), typename.go (`Object` for a
 * struct, `[]T`, `map[string]T`, the primitive's type, nothing for an arbitrary value) and
 * formatter.go (wrapString: words joined up to the width, lines kept after a word ending in `:`,
 * before a bullet or a blank line, code blocks of 4 spaces kept as they are).
 *
 * The v2 document's shapes of the special types (kube-openapi proto ParseSchema): Time, MicroTime,
 * Quantity and IntOrString are `type: string` primitives; RawExtension, FieldsV1 and
 * CustomResourceSubresourceStatus are `type: object` without properties (a map of an arbitrary
 * value, `map[string]`); JSON and the JSONSchemaPropsOr* types have no type (arbitrary).
 */
import docsJson from './explain-docs.json';

/** One type's documentation (explain-docs.json): description, required fields, `[typeGuess, description, childType?]` per field. */
interface TypeDoc {
  d?: string;
  r?: string[];
  f: Record<string, [string, string] | [string, string, string]>;
}
const DOCS = docsJson as unknown as { kinds: Record<string, string>; types: Record<string, TypeDoc> };

/** A node of kube-openapi's proto model (pkg/util/proto): what the v2 printers visit. */
export type V2Schema =
  | { k: 'kind'; desc: string; required: ReadonlySet<string>; fields: () => Map<string, V2Schema> }
  | { k: 'ref'; desc: string; ref: string; sub: () => V2Schema }
  | { k: 'array'; desc: string; sub: V2Schema }
  | { k: 'map'; desc: string; sub: V2Schema }
  | { k: 'prim'; desc: string; type: string }
  | { k: 'arb'; desc: string };

/** intstr.IntOrString's OpenAPI description (apimachinery pkg/util/intstr/intstr.go); kubernetes-types has no entry for it. */
const INT_OR_STRING_DESC =
  'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.';

/** The v2 definition of a generated type, by name. */
function definition(name: string): V2Schema {
  const t = DOCS.types[name];
  const desc = name === 'IntOrString' ? INT_OR_STRING_DESC : (t?.d ?? '');
  if (['Time', 'MicroTime', 'Quantity', 'IntOrString'].includes(name)) return { k: 'prim', desc, type: 'string' };
  if (name === 'JSON' || name.startsWith('JSONSchemaPropsOr')) return { k: 'arb', desc };
  const fields = Object.entries(t?.f ?? {});
  if (fields.length === 0) return { k: 'map', desc, sub: { k: 'arb', desc } };
  return {
    k: 'kind',
    desc,
    required: new Set(t?.r ?? []),
    fields: () => new Map(fields.map(([f, doc]) => [f, property(doc)])),
  };
}

/** A property of a generated type: `$ref` (with the property's description), array, map or primitive. */
function property([type, desc, child]: [string, string] | [string, string, string]): V2Schema {
  const wrappers: ('array' | 'map')[] = [];
  let base = type;
  for (;;) {
    if (base.startsWith('[]')) {
      wrappers.push('array');
      base = base.slice(2);
    } else if (base.startsWith('map[string]')) {
      wrappers.push('map');
      base = base.slice('map[string]'.length);
    } else break;
  }
  const ref = child ?? (base === 'IntOrString' ? 'IntOrString' : undefined);
  const innerDesc = wrappers.length > 0 ? '' : desc;
  let s: V2Schema = ref ? { k: 'ref', desc: innerDesc, ref, sub: () => definition(ref) } : { k: 'prim', desc: innerDesc, type: base };
  for (let i = wrappers.length - 1; i >= 0; i--) s = { k: wrappers[i], desc: i === 0 ? desc : '', sub: s };
  return s;
}

/** The v2 root of a built-in kind (its definition), or undefined. */
export function builtinV2(kind: string): V2Schema | undefined {
  const name = DOCS.kinds[kind];
  return name ? definition(name) : undefined;
}

/** Loose view of a CRD's JSONSchemaProps. */
export interface V2Props {
  type?: string;
  description?: string;
  properties?: Record<string, V2Props>;
  required?: string[];
  items?: V2Props;
  additionalProperties?: V2Props | boolean;
}

/** The v2 model of an inline CRD schema (ParseSchema: object with properties a kind, without a map, no type arbitrary). */
function inline(p: V2Props): V2Schema {
  const desc = p.description ?? '';
  if (p.properties) {
    const props = p.properties;
    return { k: 'kind', desc, required: new Set(p.required ?? []), fields: () => new Map(Object.entries(props).map(([f, s]) => [f, inline(s)])) };
  }
  if (p.type === 'object') {
    return { k: 'map', desc, sub: p.additionalProperties && typeof p.additionalProperties === 'object' ? inline(p.additionalProperties) : { k: 'arb', desc } };
  }
  if (p.type === 'array') return { k: 'array', desc, sub: p.items ? inline(p.items) : { k: 'arb', desc: '' } };
  if (!p.type) return { k: 'arb', desc };
  return { k: 'prim', desc, type: p.type };
}

/** The v2 root of a custom resource: its schema with the apiVersion, kind and metadata properties the API server adds. */
export function crdV2(schema: V2Props): V2Schema {
  const root = inline({ type: 'object', ...schema, properties: schema.properties ?? {} });
  if (root.k !== 'kind') return root;
  const std = DOCS.types.Pod.f;
  return {
    ...root,
    fields: () => {
      const m = root.fields();
      for (const f of ['apiVersion', 'kind', 'metadata']) m.set(f, property(std[f]));
      return m;
    },
  };
}

/** typename.go GetTypeName. */
function typeName(s: V2Schema): string {
  switch (s.k) {
    case 'kind':
      return 'Object';
    case 'ref':
      return typeName(s.sub());
    case 'array':
      return `[]${typeName(s.sub)}`;
    case 'map':
      return `map[string]${typeName(s.sub)}`;
    case 'prim':
      return s.type;
    case 'arb':
      return '';
  }
}

/** field_lookup.go LookupSchemaForField: the schema at `path`, or the error naming the first missing field. */
function lookup(root: V2Schema, path: string[]): V2Schema | string {
  let s = root;
  let rest = path;
  for (;;) {
    if (s.k === 'prim' || s.k === 'arb') return s;
    if (rest.length === 0) return s;
    if (s.k === 'ref') s = s.sub();
    else if (s.k === 'array' || s.k === 'map') s = s.sub;
    else {
      const next = s.fields().get(rest[0]);
      if (!next) return `field "${rest[0]}" does not exist`;
      rest = rest.slice(1);
      s = next;
    }
  }
}

/** Go's strings.Fields. */
const goFields = (s: string): string[] => s.split(/[ \t\n\v\f\r\u0085\u00a0]+/).filter((w) => w !== '');
/** UTF-8 length, as Go's len(string). */
const byteLen = (s: string): number => new TextEncoder().encode(s).length;

/** formatter.go wrapString: the lines of `str` wrapped at `wrap` bytes. */
export function wrapString(str: string, wrap: number): string[] {
  const wrapped: string[] = [];
  let words: string[] = [];
  let lastWord = '';
  const flush = (): void => {
    if (words.length > 0) {
      lastWord = '';
      wrapped.push(words.join(' '));
      words = [];
    }
  };
  const add = (word: string): boolean => {
    const next = [...words, word];
    if (byteLen(next.join(' ')) <= wrap || words.length === 0) {
      words = next;
      return true;
    }
    return false;
  };
  for (const line of str.split('\n')) {
    if (line.startsWith('    ')) {
      flush();
      wrapped.push(line);
      continue;
    }
    if (wrapped.length > 0 && line.trim() === '') {
      flush();
      wrapped.push('');
      continue;
    }
    const t = line.trim();
    if (lastWord.endsWith(':') || t === '' || /^(\d+\.?|-|\*)\s/.test(t)) flush();
    for (const word of goFields(line)) {
      lastWord = word;
      if (!add(word)) {
        flush();
        add(word);
      }
    }
  }
  flush();
  return wrapped;
}

/** formatter.go Formatter.Write: an indented line; an empty one is not indented. */
const write = (indent: number, s: string): string => (s === '' ? '\n' : `${' '.repeat(indent)}${s}\n`);
/** formatter.go Formatter.WriteWrapped at the explain width of 80. */
const writeWrapped = (indent: number, s: string): string => wrapString(s, 80 - indent).map((l) => write(indent, l)).join('');

/** fields_printer.go / recursive_fields_printer.go over the kind reached through `s`. */
function printFields(s: V2Schema, indent: number, recursive: boolean, visited: Set<string>): string {
  if (s.k === 'array' || s.k === 'map') return printFields(s.sub, indent, recursive, visited);
  if (s.k === 'ref') {
    if (!recursive) return printFields(s.sub(), indent, recursive, visited);
    if (visited.has(s.ref)) return '';
    visited.add(s.ref);
    const out = printFields(s.sub(), indent, recursive, visited);
    visited.delete(s.ref);
    return out;
  }
  if (s.k !== 'kind') return '';
  const fields = s.fields();
  let out = '';
  for (const key of [...fields.keys()].sort()) {
    const v = fields.get(key)!;
    if (recursive) {
      out += write(indent, `${key}\t<${typeName(v)}>`);
      out += printFields(v, indent + 3, true, visited);
    } else {
      out += write(indent, `${key}\t<${typeName(v)}>${s.required.has(key) ? ' -required-' : ''}`);
      out += writeWrapped(indent + 2, v.desc);
      out += write(indent, '');
    }
  }
  return out;
}

/**
 * explain.go PrintModelDescription for the kind `root` of `group/version` `kind` and the field
 * path: the text kubectl prints, or `{ error }` (`field "x" does not exist`).
 */
export function printModelDescriptionV2(root: V2Schema, gv: string, kind: string, path: string[], recursive: boolean): { text: string } | { error: string } {
  const found = lookup(root, path);
  if (typeof found === 'string') return { error: found };
  const name = path.length > 0 ? path[path.length - 1] : '';
  const descriptions: string[] = [];
  let type = '';
  const header = write(0, `KIND:     ${kind}`) + write(0, `VERSION:  ${gv}\n`);
  const description = (s: V2Schema): string => {
    let out = write(0, 'DESCRIPTION:');
    let empty = true;
    [...descriptions, s.desc].forEach((d, i) => {
      if (d === '') return;
      empty = false;
      if (i !== 0) out += write(0, '');
      out += writeWrapped(5, d);
    });
    return empty ? out + writeWrapped(5, '<empty>') : out;
  };
  let s = found;
  for (;;) {
    if (s.k === 'array' || s.k === 'map') {
      descriptions.push(s.desc);
      if (type === '') type = typeName(s);
      s = s.sub;
    } else if (s.k === 'ref') {
      descriptions.push(s.desc);
      s = s.sub();
    } else break;
  }
  if (s.k === 'prim') {
    if (type === '') type = typeName(s);
    return { text: header + write(0, `FIELD:    ${name} <${type}>\n`) + description(s) };
  }
  if (s.k === 'arb') return { text: header + description(s) };
  if (type === '') type = typeName(s);
  let text = header;
  if (name !== '') text += write(0, `RESOURCE: ${name} <${type}>\n`);
  text += description(s) + write(0, '\nFIELDS:') + printFields(s, 3, recursive, new Set());
  return { text };
}
