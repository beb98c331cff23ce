/**
 * A small, pure subset of kustomize (sigs.k8s.io/kustomize/api v5, the one `kubectl apply -k` and
 * `kubectl kustomize` embed): enough to build every kustomization of the bookshop
 * (fixtures/k8s-bookshop/manifests: the base, the staging overlay, the shelf-controller).
 *
 * Supported Kustomization fields: `resources` (files and directories holding a kustomization),
 * `namespace`, `commonLabels`, `labels` (`pairs`, `includeSelectors`, `includeTemplates`),
 * `commonAnnotations`, `replicas`, `images`, `patches` (strategic merge or JSON 6902, inline or
 * by `path`, with or without `target`), `patchesStrategicMerge` and `patchesJson6902`.
 * Other kustomize fields (generators, name prefixes, components, replacements, ...) are refused
 * with an error naming the field, so a lesson never silently builds something else.
 *
 * Mirrors:
 * - api/krusty/kustomizer.go and api/internal/target/kusttarget.go: resources are accumulated
 *   first (bases built recursively), then the builtin transformers run in kustomize's fixed order:
 *   PatchStrategicMerge, Patch, Namespace, Labels (commonLabels and labels), Annotations,
 *   PatchJson6902, ReplicaCount, ImageTag;
 * - api/filters/namespace: cluster-scoped kinds keep no namespace; RoleBinding and
 *   ClusterRoleBinding subjects named `default` (ServiceAccount) follow the namespace
 *   (`setRoleBindingSubjects: defaultOnly`);
 * - api/konfig/builtinpluginconsts (commonlabels.go, commonannotations.go): where labels go
 *   (metadata, selectors, pod templates, job templates) - `labels` without `includeSelectors`
 *   touches `metadata.labels` only, with `includeTemplates` the templates too;
 * - api/filters/imagetag: `name` matches the image's repository (tag and digest dropped);
 * - api/resource/resource.go + api/resmap/reswrangler.go: the output is sorted in the
 *   `legacy` order (`sortOptions` default) of api/krusty/ordering: Namespace, ResourceQuota,
 *   StorageClass, CustomResourceDefinition, ServiceAccount, PodSecurityPolicy, Role,
 *   ClusterRole, RoleBinding, ClusterRoleBinding, ConfigMap, Secret, Endpoints, Service,
 *   LimitRange, PriorityClass, PersistentVolume, PersistentVolumeClaim, Deployment,
 *   StatefulSet, CronJob, PodDisruptionBudget, then other kinds, then
 *   MutatingWebhookConfiguration and ValidatingWebhookConfiguration.
 *
 * Errors are `KustomizeError` whose message is what kubectl prints after `error: `.
 * Files come from a `KustomizeFs` (no node:fs: the engine and the browser use it alike).
 */
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../engine/api/types';
import { deepCopy } from '../engine/api/types';
import { parseManifests } from '../engine/api/yaml';
import { applyJsonPatch, applyStrategicMergePatch } from '../engine/api/patch';
import { ApiError } from '../engine/api/errors';

/** The files kustomize reads. Paths are POSIX, absolute or relative to the caller's root. */
export interface KustomizeFs {
  /** The file's text, or undefined when there is no such file. */
  readFile(path: string): string | undefined;
  /** True for a directory. */
  isDirectory(path: string): boolean;
}

/**
 * A `KustomizeFs` over a map of path -> text (directories are implied by the paths), e.g.
 * `{ 'manifests/bookshop/kustomization.yaml': '...', ... }`.
 */
export function mapFs(files: Readonly<Record<string, string>>): KustomizeFs {
  const norm = new Map<string, string>();
  const dirs = new Set<string>();
  for (const [p, text] of Object.entries(files)) {
    const n = normalize(p);
    norm.set(n, text);
    for (let d = dirnameOf(n); d !== '' && d !== '.' && !dirs.has(d); d = dirnameOf(d)) {
      dirs.add(d);
      if (d === '/') break;
    }
  }
  return {
    readFile: (p) => norm.get(normalize(p)),
    isDirectory: (p) => {
      const n = normalize(p);
      return n === '.' || n === '/' || dirs.has(n);
    },
  };
}

/** A kustomize build failure; `message` is kubectl's text after `error: `. */
export class KustomizeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KustomizeError';
  }
}

/** The file names a kustomization directory may use (konfig.RecognizedKustomizationFileNames). */
export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** Kustomization fields this subset implements. */
const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'resources',
  'namespace',
  'commonLabels',
  'labels',
  'commonAnnotations',
  'replicas',
  'images',
  'patches',
  'patchesStrategicMerge',
  'patchesJson6902',
  'sortOptions',
]);

/** Fields of the real Kustomization the playground does not implement (refused by name). */
const KNOWN_UNSUPPORTED = new Set([
  'bases',
  'components',
  'configMapGenerator',
  'secretGenerator',
  'generatorOptions',
  'namePrefix',
  'nameSuffix',
  'replacements',
  'vars',
  'crds',
  'generators',
  'transformers',
  'validators',
  'helmCharts',
  'helmGlobals',
  'openapi',
  'configurations',
  'buildMetadata',
]);

/** Kinds without a namespace (the namespace transformer skips them). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'StorageClass',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'PriorityClass',
  'IngressClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
  'ComponentStatus',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'RuntimeClass',
  'CertificateSigningRequest',
]);

/** `legacy` sort: kinds first, in this order (api/krusty/ordering.go `orderFirst`). */
const ORDER_FIRST = [
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'CustomResourceDefinition',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Endpoints',
  'Service',
  'LimitRange',
  'PriorityClass',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
/** `legacy` sort: kinds last (`orderLast`). */
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

type Obj = Record<string, unknown>;

/** A patch target selector (types.Selector). */
interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

// ------------------------------------------------------------------------------------ paths

function normalize(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
      continue;
    }
    out.push(part);
  }
  const s = out.join('/');
  return abs ? `/${s}` : s || '.';
}

function dirnameOf(p: string): string {
  const i = p.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return p.slice(0, i);
}

function join(dir: string, rel: string): string {
  if (rel.startsWith('/')) return normalize(rel);
  return normalize(dir === '.' ? rel : `${dir}/${rel}`);
}

// ------------------------------------------------------------------------------------ build

/**
 * `kustomize build DIR` (`kubectl kustomize DIR`, what `kubectl apply -k DIR` sends): the
 * objects, sorted in the legacy order. Errors: `KustomizeError` with kustomize's wording for a
 * missing kustomization, a missing resource, an unparsable file, a strategic merge patch with
 * no target, and unsupported fields.
 */
export function kustomizeBuild(fs: KustomizeFs, dir: string): KubeObject[] {
  const objs = buildDir(fs, normalize(dir), []);
  return sortLegacy(objs);
}

/** Read a directory's kustomization file: its path and parsed content. */
function readKustomization(fs: KustomizeFs, dir: string): { path: string; k: Obj } {
  if (!fs.isDirectory(dir)) throw new KustomizeError(`must build at directory: not a valid directory: evalsymlink failure on '${dir}' : lstat ${dir}: no such file or directory`);
  for (const name of KUSTOMIZATION_FILE_NAMES) {
    const path = join(dir, name);
    const text = fs.readFile(path);
    if (text === undefined) continue;
    let k: unknown;
    try {
      k = parseYaml(text, { version: '1.1' }) ?? {};
    } catch (e) {
      throw new KustomizeError(`invalid Kustomization: ${(e as Error).message.split('\n')[0]}`);
    }
    if (typeof k !== 'object' || k === null || Array.isArray(k)) throw new KustomizeError(`invalid Kustomization: json: cannot unmarshal ${Array.isArray(k) ? 'array' : typeof k} into Go value of type types.Kustomization`);
    return { path, k: k as Obj };
  }
  throw new KustomizeError(`unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '${dir}'`);
}

function buildDir(fs: KustomizeFs, dir: string, stack: string[]): KubeObject[] {
  if (stack.includes(dir)) throw new KustomizeError(`cycle detected: candidate root '${dir}' contains visited root '${stack[stack.length - 1]}'`);
  const { k } = readKustomization(fs, dir);
  for (const key of Object.keys(k)) {
    if (SUPPORTED_FIELDS.has(key)) continue;
    if (KNOWN_UNSUPPORTED.has(key)) throw new KustomizeError(`kustomization field "${key}" is not supported by the playground (in ${join(dir, 'kustomization.yaml')})`);
    throw new KustomizeError(`invalid Kustomization: json: unknown field "${key}"`);
  }
  if (k.kind !== undefined && k.kind !== 'Kustomization') {
    throw new KustomizeError(`kind should be Kustomization`);
  }

  // 1. Accumulate resources.
  let objs: KubeObject[] = [];
  for (const r of asStringList(k.resources, 'resources')) {
    const path = join(dir, r);
    if (fs.isDirectory(path)) {
      try {
        objs.push(...buildDir(fs, path, [...stack, dir]));
      } catch (e) {
        if (!(e instanceof KustomizeError)) throw e;
        throw new KustomizeError(`accumulating resources: accumulation err='accumulating resources from '${r}': ${e.message}'`);
      }
      continue;
    }
    const text = fs.readFile(path);
    if (text === undefined) {
      throw new KustomizeError(
        `accumulating resources: accumulation err='accumulating resources from '${r}': open ${path}: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '${path}' : lstat ${path}: no such file or directory`,
      );
    }
    objs.push(...readObjects(text, path));
  }
  checkUnique(objs);

  // 2. Transformers, in kustomize's builtin order.
  objs = patchStrategicMerge(fs, dir, objs, k.patchesStrategicMerge);
  objs = patches(fs, dir, objs, k.patches);
  if (typeof k.namespace === 'string' && k.namespace !== '') objs = objs.map((o) => setNamespace(o, k.namespace as string));
  if (k.commonLabels !== undefined) objs = objs.map((o) => addLabels(o, asStringMap(k.commonLabels, 'commonLabels'), true, true));
  for (const l of asList(k.labels, 'labels')) {
    const pairs = asStringMap((l as Obj).pairs, 'labels.pairs');
    const sel = (l as Obj).includeSelectors === true;
    const tmpl = sel || (l as Obj).includeTemplates === true;
    objs = objs.map((o) => addLabels(o, pairs, sel, tmpl));
  }
  if (k.commonAnnotations !== undefined) objs = objs.map((o) => addAnnotations(o, asStringMap(k.commonAnnotations, 'commonAnnotations')));
  objs = patchesJson6902(fs, dir, objs, k.patchesJson6902);
  for (const r of asList(k.replicas, 'replicas')) objs = objs.map((o) => setReplicas(o, r as Obj));
  for (const im of asList(k.images, 'images')) objs = objs.map((o) => setImage(o, im as Obj));
  return objs;
}

function readObjects(text: string, path: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const d of parseManifests(text, path)) {
    if (d.error) throw new KustomizeError(`accumulating resources: accumulation err='accumulating resources from '${path}': ${d.error.replace(/^error: /, '')}'`);
    if (d.object) out.push(d.object);
  }
  return out;
}

/** `resid` as kustomize prints it: `Kind.version.group/name.namespace` with `[noGrp]`/`[noNs]`. */
function resId(o: { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } }): string {
  const av = o.apiVersion ?? '';
  const slash = av.indexOf('/');
  const group = slash < 0 ? '' : av.slice(0, slash);
  const version = slash < 0 ? av : av.slice(slash + 1);
  return `${o.kind ?? ''}.${version}.${group || '[noGrp]'}/${o.metadata?.name ?? ''}.${o.metadata?.namespace || '[noNs]'}`;
}

function checkUnique(objs: KubeObject[]): void {
  const seen = new Set<string>();
  for (const o of objs) {
    const id = resId(o);
    if (seen.has(id)) throw new KustomizeError(`may not add resource with an already registered id: ${id}`);
    seen.add(id);
  }
}

// ------------------------------------------------------------------------------------ field helpers

function asList(v: unknown, field: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new KustomizeError(`invalid Kustomization: json: cannot unmarshal ${typeof v} into Go struct field Kustomization.${field}`);
  return v;
}

function asStringList(v: unknown, field: string): string[] {
  return asList(v, field).map((x) => {
    if (typeof x !== 'string') throw new KustomizeError(`invalid Kustomization: json: cannot unmarshal ${typeof x} into Go struct field Kustomization.${field} of type string`);
    return x;
  });
}

function asStringMap(v: unknown, field: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new KustomizeError(`invalid Kustomization: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field Kustomization.${field} of type map[string]string`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Obj)) out[k] = x === null ? '' : String(x);
  return out;
}

// ------------------------------------------------------------------------------------ patches

function splitApiVersion(av: string | undefined): { group: string; version: string } {
  const s = av ?? '';
  const i = s.indexOf('/');
  return i < 0 ? { group: '', version: s } : { group: s.slice(0, i), version: s.slice(i + 1) };
}

/** A label or annotation selector (`a=b,c!=d,e`), the equality forms kustomize accepts. */
function matchesSelector(sel: string, labels: Record<string, string> | undefined): boolean {
  for (const term of sel.split(',').map((t) => t.trim()).filter(Boolean)) {
    const ne = /^([^!=]+)!=(.*)$/.exec(term);
    const eq = /^([^!=]+)==?(.*)$/.exec(term);
    if (ne) {
      if (labels?.[ne[1].trim()] === ne[2].trim()) return false;
    } else if (eq) {
      if (labels?.[eq[1].trim()] !== eq[2].trim()) return false;
    } else if (term.startsWith('!')) {
      if (labels && term.slice(1) in labels) return false;
    } else if (!labels || !(term in labels)) return false;
  }
  return true;
}

/** Does `o` match a patch target? Names and namespaces are regular expressions, anchored (kustomize's `Selector`). */
function matchesTarget(o: KubeObject, t: Target): boolean {
  const { group, version } = splitApiVersion(o.apiVersion);
  const re = (pattern: string, value: string) => new RegExp(`^(?:${pattern})$`).test(value);
  if (t.group !== undefined && t.group !== group) return false;
  if (t.version !== undefined && t.version !== version) return false;
  if (t.kind !== undefined && t.kind !== o.kind) return false;
  if (t.name !== undefined && !re(t.name, o.metadata.name ?? '')) return false;
  if (t.namespace !== undefined && !re(t.namespace, o.metadata.namespace ?? '')) return false;
  if (t.labelSelector !== undefined && !matchesSelector(t.labelSelector, o.metadata.labels)) return false;
  if (t.annotationSelector !== undefined && !matchesSelector(t.annotationSelector, o.metadata.annotations)) return false;
  return true;
}

/** Parse a patch text: a list means JSON 6902 operations, a map a strategic merge patch. */
function parsePatch(text: string, where: string): { json6902?: unknown[]; smp?: Obj[] } {
  let docs: unknown[];
  try {
    docs = text
      .split(/^---[ \t]*$/m)
      .map((d) => parseYaml(d, { version: '1.1' }) as unknown)
      .filter((d) => d !== null && d !== undefined);
  } catch (e) {
    throw new KustomizeError(`trouble configuring builtin PatchTransformer with config: \`\n${where}\n\`: ${(e as Error).message.split('\n')[0]}`);
  }
  if (docs.length === 1 && Array.isArray(docs[0])) return { json6902: docs[0] };
  if (docs.every((d) => typeof d === 'object' && !Array.isArray(d))) return { smp: docs as Obj[] };
  throw new KustomizeError(`unable to parse SM or JSON patch from [${text.trim()}]`);
}

function patchText(fs: KustomizeFs, dir: string, p: Obj, field: string): string {
  if (typeof p.patch === 'string') {
    if (p.path !== undefined) throw new KustomizeError(`patch and path can't be set at the same time`);
    return p.patch;
  }
  if (typeof p.path === 'string') {
    const path = join(dir, p.path);
    const text = fs.readFile(path);
    if (text === undefined) throw new KustomizeError(`trouble configuring builtin ${field} with config: \`\npath: ${p.path}\n\`: open ${path}: no such file or directory`);
    return text;
  }
  throw new KustomizeError(`must specify one of patch and path in ${field === 'PatchJson6902Transformer' ? 'patchesJson6902' : 'patches'}`);
}

function applySmp(o: KubeObject, patch: Obj): KubeObject {
  const p = deepCopy(patch);
  // The patch's own identity is not part of what it changes (the target is chosen by selector).
  if (p.metadata && typeof p.metadata === 'object') {
    const m = { ...(p.metadata as Obj) };
    delete m.name;
    delete m.namespace;
    p.metadata = m;
  }
  delete p.apiVersion;
  delete p.kind;
  try {
    return applyStrategicMergePatch(o, p, o.kind) as KubeObject;
  } catch (e) {
    if (e instanceof ApiError) throw new KustomizeError(e.message);
    throw e;
  }
}

function applyJson(o: KubeObject, ops: unknown[], where: string): KubeObject {
  try {
    return applyJsonPatch(o, ops) as KubeObject;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const first = ops[0] as Obj | undefined;
    throw new KustomizeError(`unable to apply json patch to ${resId(o)} (${where}): ${first ? `${String(first.op)} operation does not apply: doc is missing path: "${String(first.path)}"` : e.message}`);
  }
}

/** `patchesStrategicMerge`: file paths or inline patches, each targeting the object it names. */
function patchStrategicMerge(fs: KustomizeFs, dir: string, objs: KubeObject[], list: unknown): KubeObject[] {
  let out = objs;
  for (const entry of asStringList(list, 'patchesStrategicMerge')) {
    const looksInline = entry.includes('\n') || /^\s*(apiVersion|kind|metadata)\s*:/.test(entry);
    const text = looksInline ? entry : fs.readFile(join(dir, entry));
    if (text === undefined) throw new KustomizeError(`trouble configuring builtin PatchStrategicMergeTransformer with config: \`\npaths:\n- ${entry}\n\`: open ${join(dir, entry)}: no such file or directory`);
    const parsed = parsePatch(text, entry);
    if (!parsed.smp) throw new KustomizeError(`unable to parse SM patch from [${entry}]`);
    for (const patch of parsed.smp) out = applyNamedSmp(out, patch);
  }
  return out;
}

/** A strategic merge patch without a target: it names its target (kind, name, namespace). */
function applyNamedSmp(objs: KubeObject[], patch: Obj): KubeObject[] {
  const meta = (patch.metadata ?? {}) as Obj;
  const id = resId(patch as { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } });
  const matches = objs.filter(
    (o) =>
      o.kind === patch.kind &&
      splitApiVersion(o.apiVersion).group === splitApiVersion(patch.apiVersion as string | undefined).group &&
      o.metadata.name === meta.name &&
      (meta.namespace === undefined || o.metadata.namespace === meta.namespace),
  );
  if (matches.length === 0) throw new KustomizeError(`no resource matches strategic merge patch "${id}": no matches for Id ${id}; failed to find unique target for patch ${id}`);
  if (matches.length > 1) throw new KustomizeError(`multiple matches for Id ${id}; failed to find unique target for patch ${id}`);
  return objs.map((o) => (o === matches[0] ? applySmp(o, patch) : o));
}

/** `patches`: SMP or JSON 6902, applied to every object the target selects (none selected is no error). */
function patches(fs: KustomizeFs, dir: string, objs: KubeObject[], list: unknown): KubeObject[] {
  let out = objs;
  for (const raw of asList(list, 'patches')) {
    const p = raw as Obj;
    const text = patchText(fs, dir, p, 'PatchTransformer');
    const parsed = parsePatch(text, typeof p.path === 'string' ? p.path : 'patch');
    const target = p.target as Target | undefined;
    if (!target) {
      if (parsed.json6902) throw new KustomizeError('must specify a target for patch ' + text.trim());
      for (const patch of parsed.smp ?? []) out = applyNamedSmp(out, patch);
      continue;
    }
    out = out.map((o) => {
      if (!matchesTarget(o, target)) return o;
      if (parsed.json6902) return applyJson(o, parsed.json6902, 'patches');
      let r = o;
      for (const patch of parsed.smp ?? []) r = applySmp(r, patch);
      return r;
    });
  }
  return out;
}

/** `patchesJson6902` (deprecated in v5 but still read): a target and JSON 6902 operations. */
function patchesJson6902(fs: KustomizeFs, dir: string, objs: KubeObject[], list: unknown): KubeObject[] {
  let out = objs;
  for (const raw of asList(list, 'patchesJson6902')) {
    const p = raw as Obj;
    const target = p.target as Target | undefined;
    if (!target) throw new KustomizeError('must specify a target for patch');
    const parsed = parsePatch(patchText(fs, dir, p, 'PatchJson6902Transformer'), 'patchesJson6902');
    const ops = parsed.json6902 ?? [];
    out = out.map((o) => (matchesTarget(o, target) ? applyJson(o, ops, 'patchesJson6902') : o));
  }
  return out;
}

// ------------------------------------------------------------------------------------ transformers

function setNamespace(o: KubeObject, ns: string): KubeObject {
  if (CLUSTER_SCOPED.has(o.kind)) {
    if (o.kind === 'ClusterRoleBinding') return bindSubjects(o, ns);
    return o;
  }
  const c = deepCopy(o);
  c.metadata.namespace = ns;
  return c.kind === 'RoleBinding' ? bindSubjects(c, ns) : c;
}

/** RoleBinding/ClusterRoleBinding subjects: ServiceAccounts named `default` follow the namespace. */
function bindSubjects(o: KubeObject, ns: string): KubeObject {
  const subjects = (o as Obj).subjects as Obj[] | undefined;
  if (!Array.isArray(subjects)) return o;
  const c = deepCopy(o) as Obj;
  c.subjects = subjects.map((s) => (s.kind === 'ServiceAccount' && s.name === 'default' ? { ...s, namespace: ns } : s));
  return c as unknown as KubeObject;
}

/** Kinds whose `spec.selector.matchLabels` and `spec.template` carry labels (commonlabels.go). */
const WORKLOADS = new Set(['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet']);

function mergeInto(target: Obj, key: string, pairs: Record<string, string>): void {
  target[key] = { ...((target[key] as Record<string, string> | undefined) ?? {}), ...pairs };
}

function addLabels(o: KubeObject, pairs: Record<string, string>, selectors: boolean, templates: boolean): KubeObject {
  if (Object.keys(pairs).length === 0) return o;
  const c = deepCopy(o) as KubeObject & Obj;
  mergeInto(c.metadata as Obj, 'labels', pairs);
  const spec = c.spec as Obj | undefined;
  if (!spec) return c;
  if (selectors) {
    if (c.kind === 'Service' || c.kind === 'ReplicationController') mergeInto(spec, 'selector', pairs);
    if (WORKLOADS.has(c.kind) || c.kind === 'Job') {
      const sel = (spec.selector ?? {}) as Obj;
      if (c.kind !== 'Job' || spec.selector) {
        mergeInto(sel, 'matchLabels', pairs);
        spec.selector = sel;
      }
    }
    if (c.kind === 'PodDisruptionBudget' || c.kind === 'NetworkPolicy') {
      const field = c.kind === 'NetworkPolicy' ? 'podSelector' : 'selector';
      const sel = (spec[field] ?? {}) as Obj;
      mergeInto(sel, 'matchLabels', pairs);
      spec[field] = sel;
    }
  }
  if (templates) {
    const tmpl = (WORKLOADS.has(c.kind) || c.kind === 'Job' || c.kind === 'ReplicationController' ? spec.template : c.kind === 'CronJob' ? ((spec.jobTemplate as Obj | undefined)?.spec as Obj | undefined)?.template : undefined) as Obj | undefined;
    if (tmpl) {
      tmpl.metadata = (tmpl.metadata ?? {}) as Obj;
      mergeInto(tmpl.metadata as Obj, 'labels', pairs);
    }
    if (c.kind === 'CronJob' && spec.jobTemplate) {
      const jt = spec.jobTemplate as Obj;
      jt.metadata = (jt.metadata ?? {}) as Obj;
      mergeInto(jt.metadata as Obj, 'labels', pairs);
    }
  }
  return c;
}

function addAnnotations(o: KubeObject, pairs: Record<string, string>): KubeObject {
  if (Object.keys(pairs).length === 0) return o;
  const c = deepCopy(o) as KubeObject & Obj;
  mergeInto(c.metadata as Obj, 'annotations', pairs);
  const spec = c.spec as Obj | undefined;
  const tmpl = (spec && (WORKLOADS.has(c.kind) || c.kind === 'Job' || c.kind === 'ReplicationController') ? spec.template : undefined) as Obj | undefined;
  if (tmpl) {
    tmpl.metadata = (tmpl.metadata ?? {}) as Obj;
    mergeInto(tmpl.metadata as Obj, 'annotations', pairs);
  }
  return c;
}

/** `replicas: [{name, count}]` for Deployment, ReplicaSet, StatefulSet, ReplicationController (replicacount.go). */
function setReplicas(o: KubeObject, r: Obj): KubeObject {
  if (!['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'].includes(o.kind)) return o;
  if (o.metadata.name !== r.name) return o;
  const count = Number(r.count);
  if (!Number.isInteger(count)) throw new KustomizeError(`invalid Kustomization: json: cannot unmarshal ${typeof r.count} into Go struct field Replica.replicas.count of type int64`);
  const c = deepCopy(o);
  c.spec = { ...(c.spec ?? {}), replicas: count };
  return c;
}

/** The repository part of an image reference: tag and digest removed. */
function imageName(image: string): string {
  const at = image.indexOf('@');
  const noDigest = at >= 0 ? image.slice(0, at) : image;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

/** `images: [{name, newName, newTag, digest}]` over containers and initContainers of pod templates and pods (imagetag.go). */
function setImage(o: KubeObject, im: Obj): KubeObject {
  const name = String(im.name ?? '');
  const specs: Obj[] = [];
  const spec = o.spec as Obj | undefined;
  if (!spec) return o;
  const c = deepCopy(o) as KubeObject & Obj;
  const cs = c.spec as Obj;
  if (c.kind === 'Pod') specs.push(cs);
  const tmpl = cs.template as Obj | undefined;
  if (tmpl?.spec) specs.push(tmpl.spec as Obj);
  const jt = ((cs.jobTemplate as Obj | undefined)?.spec as Obj | undefined)?.template as Obj | undefined;
  if (jt?.spec) specs.push(jt.spec as Obj);
  let changed = false;
  for (const ps of specs) {
    for (const list of ['initContainers', 'containers']) {
      for (const ctr of ((ps[list] as Obj[] | undefined) ?? [])) {
        const image = String(ctr.image ?? '');
        if (imageName(image) !== name) continue;
        const at = image.indexOf('@');
        const base = imageName(image);
        const oldTag = at >= 0 ? '' : image.slice(base.length + 1);
        const repo = typeof im.newName === 'string' ? im.newName : base;
        let ref = repo;
        if (typeof im.digest === 'string') ref = `${repo}@${im.digest}`;
        else if (im.newTag !== undefined) ref = `${repo}:${String(im.newTag)}`;
        else if (at >= 0) ref = `${repo}${image.slice(at)}`;
        else if (oldTag) ref = `${repo}:${oldTag}`;
        ctr.image = ref;
        changed = true;
      }
    }
  }
  return changed ? c : o;
}

// ------------------------------------------------------------------------------------ sorting

function kindRank(kind: string): number {
  const f = ORDER_FIRST.indexOf(kind);
  if (f >= 0) return f;
  const l = ORDER_LAST.indexOf(kind);
  if (l >= 0) return ORDER_FIRST.length + 1 + l;
  return ORDER_FIRST.length;
}

function gvkString(o: KubeObject): string {
  const { group, version } = splitApiVersion(o.apiVersion);
  return `${group}_${version}_${o.kind}`;
}

/** The legacy order: by kind rank, then (for unlisted kinds) GVK, then namespace and name. Stable. */
export function sortLegacy(objs: readonly KubeObject[]): KubeObject[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return objs
    .map((o, i) => ({ o, i }))
    .sort(
      (a, b) =>
        kindRank(a.o.kind) - kindRank(b.o.kind) ||
        cmp(gvkString(a.o), gvkString(b.o)) ||
        cmp(a.o.metadata.namespace ?? '', b.o.metadata.namespace ?? '') ||
        cmp(a.o.metadata.name ?? '', b.o.metadata.name ?? '') ||
        a.i - b.i,
    )
    .map((x) => x.o);
}
