/**
 * Turning kubectl's arguments into objects: `TYPE NAME...`, `TYPE/NAME...`, `TYPE1,TYPE2 NAME`,
 * `all`, `-l`/`--all` listings, and `-f FILE|DIR|-` / `-k DIR` manifests.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/resource/builder.go (`ResourceTypeOrNameArgs`,
 * `normalizeMultipleResourcesArgs`, `hasCombinedTypeArgs`, `splitResourceTypeName`,
 * `ReplaceAliases`, `SplitResourceArgument`, the `Do()` checks) and visitor.go / mapper.go
 * (`FileVisitorForSTDIN`, `ExpandPathsToFileVisitors` with the `.json`, `.yaml`, `.yml`
 * extensions, `URLVisitor` (src/shell/kubectl/web-examples.ts), namespace defaulting and
 * enforcement).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { parseManifests } from '../../engine/api/yaml';
import { KustomizeError, kustomizeBuild, type KustomizeFs } from '../kustomize';
import { CmdError, fail, type Env } from './env';
import { isManifestUrl, readManifestUrl } from './web-examples';

/** One named object to act on. */
export interface Ref {
  type: ResourceType;
  name: string;
}

/** What the arguments select: named objects, or whole types to list. */
export type Selection = { mode: 'names'; refs: Ref[] } | { mode: 'list'; types: ResourceType[] };

/** `SplitResourceArgument`: `pods,svc` -> [pods, svc] (empty parts dropped, duplicates removed). */
export function splitResourceArgument(arg: string): string[] {
  const out: string[] = [];
  for (const s of arg.split(',')) if (s !== '' && !out.includes(s)) out.push(s);
  return out;
}

/**
 * Resolve a typed resource (`po`, `deploy`, `deployments.apps`, `deployment.v1.apps`, `Pod`)
 * through discovery, as builder.go `mappingFor` does: `schema.ParseResourceArg` reads two dots
 * or more as `resource.version.group` (`pods.v1.` is the core group), tried first; then the
 * whole as `resource.group`. Unknown: `error: the server doesn't have a resource type "foo"`,
 * naming only the part before the first dot (the GroupResource's Resource).
 */
export function resolveType(env: Env, typed: string): ResourceType {
  const t = resolveTypeArg(env, typed);
  if (!t) throw fail(`the server doesn't have a resource type "${typed.split('.')[0]}"`);
  return t;
}

/** `resolveType` without the error: undefined when discovery has no such resource. */
export function resolveTypeArg(env: Pick<Env, 'api'>, typed: string): ResourceType | undefined {
  const parts = typed.split('.');
  if (parts.length >= 3) {
    const [resource, version] = parts;
    const group = parts.slice(2).join('.');
    const t = env.api.registry.resolve(group ? `${resource}.${group}` : resource);
    if (t && t.group === group && t.version === version) return t;
    // Another served version of the same resource (hpa.v1.autoscaling).
    const other = t && t.group === group ? env.api.registry.byKind(group ? `${group}/${version}` : version, t.kind) : undefined;
    if (other) return other;
  }
  return env.api.registry.resolve(typed);
}

/** The resources of a category (`all`), in discovery order. */
export function categoryTypes(env: Env, category: string): ResourceType[] {
  return env.api.registry.all().filter((t) => t.categories.includes(category));
}

/** `ReplaceAliases` + type resolution of a comma list (`all` expands to its category). */
export function resolveTypes(env: Env, arg: string): ResourceType[] {
  const out: ResourceType[] = [];
  for (const s of splitResourceArgument(arg)) {
    const types = s === 'all' ? categoryTypes(env, 'all') : [resolveType(env, s)];
    for (const t of types) if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** The message of `hasCombinedTypeArgs` when `type/name` and bare names are mixed. */
const MIXED_ARGS =
  "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'";

/** Options of `parseResourceArgs`. */
export interface ParseArgsOptions {
  /** A bare `TYPE` lists everything (get); otherwise it needs a selector or `--all`. */
  allowEmptySelector: boolean;
  /** `-l`/`--field-selector`/`--all` was given. */
  hasSelector?: boolean;
}

/**
 * `ResourceTypeOrNameArgs` + the builder's checks. Throws kubectl's errors:
 * `arguments in resource/name form must have a single resource and name`,
 * `arguments in resource/name form may not have more than one slash`, the mixed-form message,
 * `resource(s) were provided, but no name was specified`,
 * `name cannot be provided when a selector is specified`, unknown types.
 */
export function parseResourceArgs(env: Env, args: string[], opts: ParseArgsOptions): Selection {
  let a = [...args];
  if (a.length >= 2) {
    const resources = splitResourceArgument(a[0]);
    if (resources.length > 1) {
      const names = a.slice(1);
      a = [];
      for (const r of resources) for (const n of names) a.push(`${r}/${n}`);
    }
  }
  const slashes = a.filter((s) => s.includes('/')).length;
  if (slashes > 0) {
    if (slashes !== a.length) throw fail(MIXED_ARGS);
    const refs: Ref[] = [];
    const tuples: [string, string][] = [];
    for (const s of a) {
      const seg = s.split('/');
      if (seg.length !== 2) throw fail('arguments in resource/name form may not have more than one slash');
      const [resource, name] = seg;
      if (resource === '' || name === '' || splitResourceArgument(resource).length !== 1) {
        throw fail('arguments in resource/name form must have a single resource and name');
      }
      tuples.push([resource, name]);
    }
    if (opts.hasSelector) throw fail('name cannot be provided when a selector is specified');
    for (const [resource, name] of tuples) {
      for (const t of resolveTypes(env, resource)) refs.push({ type: t, name });
    }
    return { mode: 'names', refs };
  }
  if (a.length === 0) return { mode: 'list', types: [] };
  const types = resolveTypes(env, a[0]);
  const names = a.slice(1);
  if (names.length > 0) {
    if (opts.hasSelector) throw fail('name cannot be provided when a selector is specified');
    const refs: Ref[] = [];
    for (const t of types) for (const n of names) refs.push({ type: t, name: n });
    return { mode: 'names', refs };
  }
  if (!opts.allowEmptySelector && !opts.hasSelector) throw fail('resource(s) were provided, but no name was specified');
  return { mode: 'list', types };
}

/** One object read from a manifest, with where it came from (for error messages). */
export interface SourcedObject {
  object: KubeObject;
  /** File name as kubectl names it (`web.yaml`, `STDIN`, or the kustomization dir). */
  source: string;
}

/** What reading `-f`/`-k` gave: objects in order, and the parse error that stopped reading (if any). */
export interface ManifestResult {
  objects: SourcedObject[];
  /** Errors to print (each already `error: ...`), in order; reading continues with the next file. */
  errors: string[];
}

/** The file extensions kubectl reads from a directory (cli-runtime visitor.go `FileExtensions`). */
const FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];

function joinPath(dir: string, name: string): string {
  if (dir === '' || dir === '.') return name;
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

/** Files under a directory, sorted (filepath.Walk order), recursing when asked. */
function filesOf(env: Env, dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  const entries = [...(env.ctx.files.list(dir) ?? [])].sort();
  for (const e of entries) {
    const p = joinPath(dir, e.replace(/\/$/, ''));
    if (env.ctx.files.isDir(p)) {
      if (recursive) out.push(...filesOf(env, p, recursive));
      continue;
    }
    if (FILE_EXTENSIONS.some((x) => p.endsWith(x))) out.push(p);
  }
  return out;
}

/**
 * Read `-f` arguments (files, directories, `-` for stdin, `http(s)://` URLs) into objects, as
 * kubectl's builder does. A path that does not exist is `error: the path "x" does not exist`
 * (thrown: kubectl stops before doing anything); a parse error in one file, or a URL that cannot
 * be read, is recorded and the other files are still read.
 */
export function readFilenames(env: Env, filenames: string[], recursive: boolean): ManifestResult {
  const res: ManifestResult = { objects: [], errors: [] };
  const paths: { path: string; url?: boolean }[] = [];
  for (const f of filenames) {
    if (f === '-') {
      paths.push({ path: '-' });
      continue;
    }
    // builder.go FilenameParam: `http://` / `https://` is a URLVisitor, read when visited
    // (src/shell/kubectl/web-examples.ts); its failure is an error of the visit, after the
    // paths were expanded, and the other files are still read (EagerVisitorList).
    if (isManifestUrl(f)) {
      paths.push({ path: f, url: true });
      continue;
    }
    if (env.ctx.files.isDir(f)) {
      paths.push(...filesOf(env, f, recursive).map((path) => ({ path })));
      continue;
    }
    if (env.ctx.files.read(f) === undefined) throw fail(`the path "${f}" does not exist`);
    paths.push({ path: f });
  }
  for (const { path: p, url } of paths) {
    let text: string;
    if (url) {
      const r = readManifestUrl(p);
      if (!r.ok) {
        res.errors.push(r.error);
        continue;
      }
      text = r.text;
    } else text = p === '-' ? env.io.stdin : (env.ctx.files.read(p) ?? '');
    // The StreamVisitor's source: the path, `STDIN`, or the URL as given (url.URL.String()).
    const source = p === '-' ? 'STDIN' : p;
    for (const d of parseManifests(text, source)) {
      if (d.error) {
        res.errors.push(d.error);
        break;
      }
      if (d.object) res.objects.push({ object: d.object, source });
    }
  }
  return res;
}

/** The shell's files as kustomize reads them. */
export function kustomizeFs(env: Env): KustomizeFs {
  return { readFile: (p) => env.ctx.files.read(p), isDirectory: (p) => env.ctx.files.isDir(p) };
}

/** `-k DIR`: build the kustomization (src/shell/kustomize.ts) into objects. */
export function readKustomize(env: Env, dir: string): ManifestResult {
  try {
    return { objects: kustomizeBuild(kustomizeFs(env), dir).map((object) => ({ object, source: dir })), errors: [] };
  } catch (e) {
    if (e instanceof KustomizeError) throw fail(e.message);
    throw e;
  }
}

/**
 * `-f`/`-k` as a command's FilenameOptions: exactly one of them, `-k` alone. Returns undefined
 * when neither was given.
 */
export function readManifestFlags(env: Env): ManifestResult | undefined {
  const files = env.flags.list('filename');
  const k = env.flags.str('kustomize');
  if (files.length > 0 && k !== '') throw fail('only one of -f or -k can be specified');
  if (k !== '') return readKustomize(env, k);
  if (files.length > 0) return readFilenames(env, files, env.flags.bool('recursive'));
  return undefined;
}

/**
 * The namespace an object from a manifest goes to: its own, else `-n`/default; with `-n` given,
 * a different namespace in the object is an error (mapper.go / visitor.go `SetNamespace`).
 */
export function objectNamespace(env: Env, type: ResourceType, obj: KubeObject): string | undefined {
  if (!type.namespaced) return undefined;
  const own = obj.metadata?.namespace;
  if (own && env.explicitNamespace && own !== env.namespace) {
    throw new CmdError(
      `error: the namespace from the provided object "${own}" does not match the namespace "${env.namespace}". You must pass '--namespace=${own}' to perform this operation.`,
    );
  }
  return own || env.namespace;
}
