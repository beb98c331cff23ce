/**
 * The non-table output formats of `kubectl get` (and of create/apply/... `-o`): `yaml`,
 * `json`, `name`, `jsonpath=`, `jsonpath-as-json=`, `custom-columns=`, `custom-columns-file`.
 * Pure functions over API objects; `wide` and the default table are in columns.ts.
 *
 * Sources (kubectl 1.32, checked against the real binary):
 * - staging/src/k8s.io/kubectl/pkg/cmd/get/get.go: several objects (or any list request) are
 *   printed as one `kind: List` (`apiVersion: v1`, `metadata: {resourceVersion: ""}`);
 * - staging/src/k8s.io/cli-runtime/pkg/printers: json.go (`json.MarshalIndent` with 4
 *   spaces, keys sorted, `<>&` escaped), yaml.go (`---` between documents), name.go,
 *   jsonpath.go (error wrapper), tabwriter.go;
 * - staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn.go;
 * - staging/src/k8s.io/kubectl/pkg/cmd/get/get_flags.go / template_flags.go (format names and
 *   the `unable to match a printer` message).
 *
 * - staging/src/k8s.io/cli-runtime/pkg/genericclioptions/template_flags.go and
 *   printers/template.go: `go-template` / `template` run a Go template (gotemplate.ts); the
 *   `-file` forms arrive here with the file's text (the shell reads it: `inlineTemplateOutput`).
 */
import type { KubeObject } from '../../engine/api/types';
import { splitApiVersion } from '../../engine/api/types';
import { toYaml } from '../../engine/api/yaml';
import { goJson, goQuote, goSharpV, goSprint } from './gofmt';
import { JsonPathError, findResults, parseJsonPath, printResultGroup } from './jsonpath';
import { GoTemplateError, executeGoTemplate, parseGoTemplate, type GoTemplate } from './gotemplate';
import { escapeTerminal, tabwrite } from './table';

/** The `-o` values `kubectl get` accepts (get_flags.go), in kubectl's message order. */
export const GET_OUTPUT_FORMATS = [
  'custom-columns',
  'custom-columns-file',
  'go-template',
  'go-template-file',
  'json',
  'jsonpath',
  'jsonpath-as-json',
  'jsonpath-file',
  'name',
  'template',
  'templatefile',
  'wide',
  'yaml',
];

/**
 * kubectl's message for an unknown `-o` value (`NoCompatiblePrinterError`), e.g.
 * `unable to match a printer suitable for the output format "foo", allowed formats are: ...`.
 * `formats` defaults to `kubectl get`'s list; create/apply omit `custom-columns*` and `wide`.
 */
export function unknownFormatMessage(format: string, formats: string[] = GET_OUTPUT_FORMATS): string {
  return `unable to match a printer suitable for the output format ${goQuote(format)}, allowed formats are: ${formats.join(',')}`;
}

/** The Go-template `-o` formats (template_flags.go `templateFormats`). */
export const GO_TEMPLATE_FORMATS = ['go-template', 'go-template-file', 'template', 'templatefile'];

/**
 * Parse the template of a Go-template `-o` value (`go-template=TEXT`, the file forms already
 * inlined by the shell), as kubectl does when it builds the printer, before any request. Throws
 * `PrintError` with template_flags.go's text: `template format specified but no template given`,
 * or `error parsing template TEXT, template: output:1: unclosed action` (kubectl's message ends
 * in a newline, which its error printer does not double).
 */
export function parseGoTemplateOutput(template: string): GoTemplate {
  if (template === '') throw new PrintError('template format specified but no template given');
  try {
    return parseGoTemplate(template);
  } catch (e) {
    if (e instanceof GoTemplateError) throw new PrintError(`error parsing template ${template}, ${e.message}`);
    throw e;
  }
}

/**
 * `-o go-template=TEMPLATE` (printers/template.go `GoTemplatePrinter`): the template runs over
 * the object as JSON decodes it, or over the `kind: List` when `list`. `allowMissingKeys` false
 * is `missingkey=error`. An execution failure throws `PrintError` whose `stdout` is what was
 * printed so far followed by kubectl's debugging report (`Error executing template: ...
 * Printing more information for debugging the template:` with the template, the raw JSON and
 * the decoded object) and whose message is `error executing template "TEMPLATE": <Go's error>`.
 */
export function printGoTemplate(objs: KubeObject[], template: string, opts: { list: boolean; allowMissingKeys?: boolean }): string {
  const parsed = parseGoTemplateOutput(template);
  const targets: unknown[] = opts.list ? [asList(objs)] : objs;
  let out = '';
  for (const obj of targets) {
    // json.Marshal of the object kubectl holds (unstructured: keys sorted, <>& escaped).
    const raw = goJson(obj);
    const data = JSON.parse(JSON.stringify(obj)) as unknown;
    try {
      out += executeGoTemplate(parsed, data, { missingKeyError: opts.allowMissingKeys === false });
    } catch (e) {
      if (!(e instanceof GoTemplateError)) throw e;
      const partial = (e as GoTemplateError & { partial?: string }).partial ?? '';
      const report =
        `Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
        `\ttemplate was:\n\t\t${template}\n` +
        `\traw data was:\n\t\t${raw}\n` +
        `\tobject given to template engine was:\n\t\t${goSprint(data)}\n\n`;
      throw new PrintError(`error executing template ${goQuote(template)}: ${e.message}`, out + partial + report);
    }
  }
  return out;
}

/** A printer failure: `message` is what kubectl prints after `error: `; `stdout` what was written before. */
export class PrintError extends Error {
  constructor(
    message: string,
    readonly stdout = '',
  ) {
    super(message);
    this.name = 'PrintError';
  }
}

/** The `kind: List` kubectl wraps several objects in (get.go). */
export function asList(objs: KubeObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', items: objs, kind: 'List', metadata: { resourceVersion: '' } };
}

// ------------------------------------------------------------------------------------------
// yaml, json, name
// ------------------------------------------------------------------------------------------

/**
 * `-o yaml`. With `list` (what `kubectl get` does unless exactly one object was named)
 * prints one `kind: List`; otherwise each object as its own document, `---` between them
 * (create/apply of several objects). Text ends with a newline.
 */
export function printYaml(objs: KubeObject[], list: boolean): string {
  if (list) return toYaml(asList(objs));
  return objs.map((o) => toYaml(o)).join('---\n');
}

/**
 * `-o json`: Go's `json.MarshalIndent(obj, "", "    ")` + newline, keys sorted. With `list`
 * one `kind: List`; otherwise objects one after another.
 */
export function printJson(objs: KubeObject[], list: boolean): string {
  if (list) return goJson(asList(objs), '    ') + '\n';
  return objs.map((o) => goJson(o, '    ') + '\n').join('');
}

/**
 * The `kind.group/name` kubectl prints for `-o name` and in mutation messages
 * (name.go): lower-case kind, `.group` unless core: `deployment.apps/web`, `pod/web-1`,
 * `shelf.bookshop.example.com/fiction`.
 */
export function resourceName(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>): string {
  const { group } = splitApiVersion(obj.apiVersion ?? '');
  const kind = String(obj.kind ?? '').toLowerCase();
  return `${kind}${group ? `.${group}` : ''}/${obj.metadata?.name ?? ''}`;
}

/**
 * `-o name`: one `kind.group/name` line per object; with `operation` (`created`,
 * `configured`, `deleted`, `created (dry run)`) it is appended after a space, as
 * create/apply print `deployment.apps/web created`.
 */
export function printName(objs: KubeObject[], operation?: string): string {
  return objs.map((o) => resourceName(o) + (operation ? ` ${operation}` : '') + '\n').join('');
}

// ------------------------------------------------------------------------------------------
// jsonpath
// ------------------------------------------------------------------------------------------

/**
 * `-o jsonpath=TEMPLATE` (or `jsonpath-as-json`): the template runs over the object when one
 * object is printed, over the `kind: List` when `list`. `allowMissingKeys` is kubectl's
 * `--allow-missing-template-keys` (default true). Throws `PrintError` with kubectl's text:
 * - no template: `template format specified but no template given`
 * - parse error: `error parsing jsonpath {.a, unclosed action`
 * - execution error: `error executing jsonpath "{.a[5]}": Error executing template: array
 *   index out of bounds: index 5, length 2. Printing more information for debugging the
 *   template:\n\ttemplate was:\n\t\t{.a[5]}\n\tobject given to jsonpath engine was:\n\t\t<%#v>\n\n\n`
 *   (kubectl prints it after `error: ` as it is, trailing blank lines included).
 * Without a trailing newline unless the template prints one.
 */
export function printJsonPath(objs: KubeObject[], template: string, opts: { list: boolean; asJson?: boolean; allowMissingKeys?: boolean }): string {
  if (template === '') throw new PrintError('template format specified but no template given');
  let parsed;
  try {
    parsed = parseJsonPath(template);
  } catch (e) {
    throw new PrintError(`error parsing jsonpath ${template}, ${(e as Error).message}`);
  }
  const targets: unknown[] = opts.list ? [asList(objs)] : objs;
  let out = '';
  for (const data of targets) {
    let groups: unknown[][];
    try {
      groups = findResults(parsed, data, { allowMissingKeys: opts.allowMissingKeys ?? true });
    } catch (e) {
      if (!(e instanceof JsonPathError)) throw e;
      const detail =
        `Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
        `\ttemplate was:\n\t\t${template}\n` +
        `\tobject given to jsonpath engine was:\n\t\t${goSharpV(data)}\n\n`;
      throw new PrintError(`error executing jsonpath ${goQuote(template)}: ${detail}\n`, out);
    }
    out += opts.asJson ? groups.map((g) => goJson(g, '    ') + '\n').join('') : groups.map(printResultGroup).join('');
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// custom-columns
// ------------------------------------------------------------------------------------------

/** One custom column: header and normalised JSONPath (`{.metadata.name}`). */
export interface CustomColumn {
  header: string;
  fieldSpec: string;
}

const RELAXED = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/**
 * customcolumn.go `RelaxedJSONPathExpression`: `metadata.name`, `.metadata.name`,
 * `{metadata.name}` and `{.metadata.name}` all become `{.metadata.name}`; `''` stays `''`.
 */
export function relaxedJsonPath(expr: string): string {
  if (expr === '') return '';
  const m = RELAXED.exec(expr);
  if (!m) throw new PrintError("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'");
  return `{.${m[1] || m[2]}}`;
}

/**
 * Parse `-o custom-columns=SPEC` (`NAME:.metadata.name,NODE:.spec.nodeName`): split on `,`,
 * each on the first `:`. Throws `PrintError` with kubectl's messages.
 */
export function parseCustomColumns(spec: string): CustomColumn[] {
  if (spec === '') throw new PrintError('custom-columns format specified but no custom columns given');
  return spec.split(',').map((part) => {
    const i = part.indexOf(':');
    if (i < 0) throw new PrintError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
    return { header: part.slice(0, i), fieldSpec: relaxedJsonPath(part.slice(i + 1)) };
  });
}

/**
 * Parse a `-o custom-columns-file` template: first line the headers, second line the
 * JSONPaths, both whitespace-separated. Throws `PrintError` with kubectl's messages.
 */
export function parseCustomColumnsFile(text: string): CustomColumn[] {
  // bufio.Scanner lines: `\n`-separated, a final `\r` dropped, no empty line after a trailing `\n`.
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  const words = (l: string) => l.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter((w) => w !== '');
  if (lines.length < 1) {
    throw new PrintError('invalid template, missing header line. Expected format is one line of space separated headers, one line of space separated column specs.');
  }
  if (lines.length < 2) {
    throw new PrintError('invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.');
  }
  const headers = words(lines[0]);
  const specs = words(lines[1]);
  if (headers.length !== specs.length) throw new PrintError(`number of headers (${headers.length}) and field specifications (${specs.length}) don't match`);
  return headers.map((h, i) => ({ header: h, fieldSpec: relaxedJsonPath(specs[i]) }));
}

/**
 * `-o custom-columns`: a header line (unless `noHeaders`), then one row per object; each
 * cell is every value the column's JSONPath finds, `fmt.Sprint`-ed (`map[k:v]`, `[a b]`,
 * `<nil>`), terminal-escaped and joined by `,`; `<none>` when it finds nothing. Aligned by
 * kubectl's tabwriter. Missing keys are never an error. Throws `PrintError` (with the
 * header and rows already printed in `stdout`) on a JSONPath error.
 */
export function printCustomColumns(objs: KubeObject[], columns: CustomColumn[], opts: { noHeaders?: boolean } = {}): string {
  const lines: string[] = [];
  if (!opts.noHeaders) lines.push(columns.map((c) => c.header).join('\t'));
  const flush = () => (lines.length ? tabwrite(lines.join('\n') + '\n') : '');
  let parsers;
  try {
    parsers = columns.map((c) => parseJsonPath(c.fieldSpec));
  } catch (e) {
    throw new PrintError((e as Error).message, flush());
  }
  for (const obj of objs) {
    const cells: string[] = [];
    for (const p of parsers) {
      let groups: unknown[][];
      try {
        groups = findResults(p, obj, { allowMissingKeys: true });
      } catch (e) {
        throw new PrintError((e as Error).message, flush());
      }
      const values: string[] = [];
      if (groups.length === 0 || groups[0].length === 0) values.push('<none>');
      for (const g of groups) for (const v of g) values.push(escapeTerminal(goSprint(v)));
      cells.push(values.join(','));
    }
    lines.push(cells.join('\t'));
  }
  return flush();
}

// ------------------------------------------------------------------------------------------
// Dispatch
// ------------------------------------------------------------------------------------------

/** Options of `printObjects`. */
export interface PrintObjectsOptions {
  /**
   * Print as one `kind: List` (kubectl get of a list, several names, several types), rather
   * than the single object (get of exactly one name) or one document per object (create,
   * apply).
   */
  list: boolean;
  /** `--no-headers` (custom-columns). */
  noHeaders?: boolean;
  /** `--allow-missing-template-keys` (default true). */
  allowMissingKeys?: boolean;
  /** Contents of the file named by `custom-columns-file=` (the shell reads it). */
  fileContents?: string;
}

/**
 * Print objects in a non-table `-o` format: `yaml`, `json`, `name`, `jsonpath=T`,
 * `jsonpath-as-json=T`, `jsonpath-file` / `custom-columns-file` (template given in
 * `fileContents`), `custom-columns=SPEC`, `go-template=T` / `template=T` (`printGoTemplate`; the
 * `-file` forms with `fileContents`). Throws `PrintError` with kubectl's message for bad formats
 * or templates.
 */
export function printObjects(objs: KubeObject[], output: string, opts: PrintObjectsOptions): string {
  const eq = output.indexOf('=');
  const format = eq < 0 ? output : output.slice(0, eq);
  const arg = eq < 0 ? '' : output.slice(eq + 1);
  switch (format) {
    case 'yaml':
      return printYaml(objs, opts.list);
    case 'json':
      return printJson(objs, opts.list);
    case 'name':
      return printName(objs);
    case 'jsonpath':
    case 'jsonpath-as-json':
      return printJsonPath(objs, arg, { list: opts.list, asJson: format === 'jsonpath-as-json', allowMissingKeys: opts.allowMissingKeys });
    case 'jsonpath-file':
      return printJsonPath(objs, opts.fileContents ?? '', { list: opts.list, allowMissingKeys: opts.allowMissingKeys });
    case 'custom-columns':
      return printCustomColumns(objs, parseCustomColumns(arg), { noHeaders: opts.noHeaders });
    case 'custom-columns-file':
      return printCustomColumns(objs, parseCustomColumnsFile(opts.fileContents ?? ''), { noHeaders: opts.noHeaders });
    case 'go-template':
    case 'template':
      return printGoTemplate(objs, arg, { list: opts.list, allowMissingKeys: opts.allowMissingKeys });
    case 'go-template-file':
    case 'templatefile':
      return printGoTemplate(objs, opts.fileContents ?? '', { list: opts.list, allowMissingKeys: opts.allowMissingKeys });
  }
  throw new PrintError(unknownFormatMessage(output));
}
