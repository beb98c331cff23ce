/**
 * The YAML editor's side of the worker: read a live object as YAML, apply a buffer as
 * `kubectl apply -f -` does, or save an edited object as `kubectl edit` does.
 *
 * - `get` prints the object as `kubectl get KIND NAME -o yaml` (the shell's YAML printer, so the
 *   editor shows exactly what the terminal shows; the engine keeps no managedFields).
 * - `apply` (mode `apply`) runs the playground's own `kubectl apply -f -`
 *   (src/shell/kubectl/apply.ts, planning with src/engine/api/apply.ts) once per document, so
 *   every document gets the line kubectl prints for it (`deployment.apps/catalog configured`) or
 *   its error, and the API server's Status of a failure is kept with its causes mapped to buffer
 *   lines (`findLineOfPath`).
 * - `apply` (mode `edit`) mirrors staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go
 *   (`visitToPatch`): the patch from the object the person started from (`base`) to the buffer,
 *   a strategic merge patch for built-in kinds and a JSON merge patch for custom resources, with
 *   apiVersion, kind and name required unchanged, sent with the starting `resourceVersion` as a
 *   precondition so a change made meanwhile is a 409 Conflict instead of being overwritten.
 * - `dryRun` sends every request as a server-side dry run (`?dryRun=All`): nothing is stored, and
 *   the reply carries the live and resulting YAML for the diff view.
 *
 * Every non-dry-run apply is recorded in the timeline as a person's action, as shell lines are.
 * Loaded on demand by the host (it pulls in kubectl).
 */
import type { ApiServer } from '../engine/api/server';
import type { Clock } from '../engine/clock';
import type { Trace } from '../engine/trace';
import type { KubeObject } from '../engine/api/types';
import type { ResourceType } from '../engine/api/registry';
import { apiVersionOf } from '../engine/api/registry';
import { ApiError } from '../engine/api/errors';
import { findLineOfPath, parseManifests, type ParsedDoc } from '../engine/api/yaml';
import { createThreeWayJsonMergePatch, createThreeWayMergePatch } from '../engine/api/patch';
import { schemaForVersion } from '../engine/api/crd';
import { makeKubectl } from '../shell/kubectl';
import { kindGroup } from '../shell/kubectl/env';
import { MemoryFiles } from '../shell/files';
import { printObjects } from '../shell/printers';
import type { CommandIO, ShellContext } from '../shell/types';
import type { EditCause, EditDocResult, EditReply, EditRequest } from '../protocol/messages';

/** What editing needs of a cluster (the host's `HostCluster` has it). */
export interface EditingCluster {
  clock: Clock;
  api: ApiServer;
  trace: Trace;
}

/** The trace component of the editor's actions (the timeline shows it next to `shell`). */
export const EDITOR_COMPONENT = 'editor';

/** `--field-manager` default of `kubectl edit` (staging/src/k8s.io/kubectl/pkg/cmd/edit/edit.go). */
export const EDIT_FIELD_MANAGER = 'kubectl-edit';

/** What `kubectl edit` prints when the saved file has no changes (editoptions.go). */
export const EDIT_CANCELLED = 'Edit cancelled, no changes made.';

/** One kubectl per module: its klog pid advances like a shell's. */
const kubectl = makeKubectl();

/** Answer one editor request. Never throws: a failure becomes `{ op: 'error' }`. */
export function handleEdit(c: EditingCluster, req: EditRequest): EditReply {
  try {
    switch (req.op) {
      case 'get':
        return getObject(c, req.kind, req.namespace, req.name);
      case 'apply':
        return applyYaml(c, req);
      case 'crds':
        return { op: 'crds', kinds: crdSchemas(c) };
    }
  } catch (e) {
    return { op: 'error', error: e instanceof ApiError ? e.kubectlMessage() : e instanceof Error ? e.message : String(e) };
  }
  return { op: 'error', error: 'unknown request' };
}

/** An object as `kubectl get -o yaml` prints it (one document, trailing newline). */
export function objectYaml(obj: KubeObject): string {
  return printObjects([obj], 'yaml', { list: false });
}

/**
 * `get`: the live object's YAML and resourceVersion. `kind` is anything `kubectl get` accepts
 * (`Deployment`, `deploy`, `deployments.apps`); `namespace` defaults to `default` for namespaced
 * kinds. A missing object answers `ok: false` with kubectl's `Error from server (NotFound): ...`.
 */
export function getObject(c: EditingCluster, kind: string, namespace: string | undefined, name: string): EditReply {
  try {
    const t = c.api.resolveType(kind);
    const obj = c.api.get(t, t.namespaced ? (namespace ?? 'default') : undefined, name);
    return {
      op: 'get',
      ok: true,
      yaml: objectYaml(obj),
      resourceVersion: obj.metadata.resourceVersion ?? '',
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
      name: obj.metadata.name ?? name,
    };
  } catch (e) {
    if (e instanceof ApiError) return { op: 'get', ok: false, error: e.kubectlMessage() };
    throw e;
  }
}

/** An ApiServer whose failed requests are also recorded in `sink` (the Status of each). */
function recording(api: ApiServer, sink: ApiError[]): ApiServer {
  return new Proxy(api, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        try {
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        } catch (e) {
          if (e instanceof ApiError) sink.push(e);
          throw e;
        }
      };
    },
  });
}

/** Run `kubectl <args>` with `stdin` against `api`; returns the exit code and what it printed. */
function runKubectl(c: EditingCluster, api: ApiServer, args: string[], stdin: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io: CommandIO = { stdin, stdout: (t) => (out += t), stderr: (t) => (err += t) };
  const ctx: ShellContext = { clock: c.clock, rng: c.api.rng, api, files: new MemoryFiles(), env: {} };
  const r = kubectl(['kubectl', ...args], io, ctx);
  if (typeof r !== 'number') {
    // apply never waits; should it ever, it must not hang the editor.
    r.cancel();
    return { code: 1, out, err: err + 'error: the command did not finish\n' };
  }
  return { code: r, out, err };
}

/** The Status of a failed request, its causes mapped to lines of the `docIndex`-th document of `text`. */
function statusOf(e: ApiError, text: string, docIndex: number, docLine: number): NonNullable<EditDocResult['status']> {
  // A strict decoding failure names the fields (`strict decoding error: unknown field
  // "spec.replicaz", unknown field "..."`), so each one is placed at its line in the buffer, as a
  // cause would be: in the message of a bare BadRequest (apply's create or update: no causes),
  // or in the one cause of an invalid patch (kubectl edit: the field is `patch`, no line of the
  // buffer; staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go, applyPatchToObject
  // returns field.Invalid(field.NewPath("patch"), patchMap, strictDecodingError)).
  const unknownFields = (message: string | undefined, reason: string): EditCause[] =>
    [...(message ?? '').matchAll(/unknown field "([^"]+)"/g)].map((m) => {
      const field = m[1].replace(/^\./, '');
      return { reason, message: `unknown field "${m[1]}"`, field, line: findLineOfPath(text, docIndex, field) ?? docLine };
    });
  const causes: EditCause[] = (e.status.details?.causes ?? []).flatMap((cause) => {
    const named = unknownFields(cause.message, cause.reason);
    if (named.length > 0) return named;
    const line = cause.field ? findLineOfPath(text, docIndex, cause.field) : undefined;
    return [{ reason: cause.reason, message: cause.message, ...(cause.field ? { field: cause.field } : {}), line: line ?? docLine }];
  });
  if (causes.length === 0) causes.push(...unknownFields(e.status.message, e.status.reason));
  return { code: e.status.code, reason: e.status.reason, message: e.status.message, causes };
}

/** Identity of a document's object, for results and the timeline. */
function identity(obj: KubeObject | undefined): Pick<EditDocResult, 'kind' | 'namespace' | 'name'> {
  if (!obj) return {};
  return { kind: obj.kind, ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}), name: obj.metadata?.name };
}

/**
 * `apply`: parse the buffer (a YAML syntax error anywhere applies nothing and answers
 * `syntaxError` with its line), then apply it document by document (`mode: 'apply'`) or save the
 * one edited object (`mode: 'edit'`).
 */
export function applyYaml(c: EditingCluster, req: Extract<EditRequest, { op: 'apply' }>): EditReply {
  const dryRun = req.dryRun === true;
  const docs = parseManifests(req.yaml, 'STDIN');
  const bad = docs.find((d) => d.error);
  if (bad) return { op: 'apply', mode: req.mode, dryRun, results: [], syntaxError: { message: bad.error!, line: bad.errorLine ?? bad.line } };
  const objects = docs.filter((d) => d.object);
  if (objects.length === 0) {
    return { op: 'apply', mode: req.mode, dryRun, results: [{ index: 0, line: 1, ok: false, text: 'error: no objects passed to apply' }] };
  }
  if (req.mode === 'edit') {
    if (objects.length !== 1) {
      return { op: 'apply', mode: 'edit', dryRun, results: [{ index: 0, line: 1, ok: false, text: 'error: editing one object at a time: the buffer holds ' + objects.length + ' objects (use Apply for several)' }] };
    }
    return { op: 'apply', mode: 'edit', dryRun, results: [editOne(c, req, docs.indexOf(objects[0]), objects[0], dryRun)] };
  }
  const results = docs.map((d, i) => (d.object ? applyOne(c, req.yaml, i, d, dryRun) : undefined)).filter((r): r is EditDocResult => r !== undefined);
  return { op: 'apply', mode: 'apply', dryRun, results };
}

/** The live object a manifest names, if its kind is served and it exists. */
function liveOf(api: ApiServer, obj: KubeObject): { type: ResourceType; live?: KubeObject } | undefined {
  let type: ResourceType;
  try {
    type = api.typeOfObject(obj);
  } catch {
    return undefined;
  }
  const ns = type.namespaced ? (obj.metadata?.namespace ?? 'default') : undefined;
  try {
    return { type, live: api.tryGet(type, ns, obj.metadata?.name ?? '') };
  } catch {
    return { type };
  }
}

/** One document through `kubectl apply -f -` (the same code the terminal runs). */
function applyOne(c: EditingCluster, text: string, index: number, doc: ParsedDoc, dryRun: boolean): EditDocResult {
  const obj = doc.object!;
  const errors: ApiError[] = [];
  const api = recording(c.api, errors);
  const stdin = JSON.stringify(obj);
  const before = dryRun ? liveOf(c.api, obj) : undefined;
  const flags = dryRun ? ['--dry-run=server'] : [];
  const r = runKubectl(c, api, ['apply', '-f', '-', ...flags], stdin);
  const res: EditDocResult = { index, line: doc.line, ...identity(obj), ok: r.code === 0, text: (r.err + r.out).trimEnd() };
  if (r.code !== 0 && errors.length > 0) res.status = statusOf(errors[errors.length - 1], text, index, doc.line);
  if (dryRun && r.code === 0) {
    const shown = runKubectl(c, c.api, ['apply', '-f', '-', '--dry-run=server', '-o', 'yaml'], stdin);
    res.diff = { live: before?.live ? objectYaml(before.live) : '', result: shown.code === 0 ? shown.out : '' };
  }
  if (!dryRun) {
    const what = res.ok ? r.out.trim().split('\n').pop() : r.err.trim().split('\n')[0];
    c.trace.add(EDITOR_COMPONENT, `kubectl apply -f - (YAML editor): ${what}`, traceRef(obj), 'action');
  }
  return res;
}

function traceRef(obj: KubeObject): { kind: string; namespace?: string; name: string } {
  return { kind: obj.kind, ...(obj.metadata?.namespace ? { namespace: obj.metadata.namespace } : {}), name: obj.metadata?.name ?? '' };
}

/** `kubectl edit`'s save of one object (see the module comment). */
function editOne(c: EditingCluster, req: Extract<EditRequest, { op: 'apply' }>, index: number, doc: ParsedDoc, dryRun: boolean): EditDocResult {
  const edited = doc.object!;
  const res: EditDocResult = { index, line: doc.line, ...identity(edited), ok: false, text: '' };
  const fail = (e: unknown): EditDocResult => {
    if (!(e instanceof ApiError)) throw e;
    res.status = statusOf(e, req.yaml, index, doc.line);
    return res;
  };
  let type: ResourceType;
  try {
    type = c.api.typeOfObject(edited);
  } catch (e) {
    res.text = e instanceof ApiError ? `error: ${e.status.message}` : String(e);
    return fail(e);
  }
  const ns = type.namespaced ? (edited.metadata?.namespace ?? 'default') : undefined;
  const name = edited.metadata?.name ?? '';
  const ref = `${kindGroup(type)}/${name}`;
  let live: KubeObject;
  try {
    live = c.api.get(type, ns, name);
  } catch (e) {
    res.text = e instanceof ApiError ? e.kubectlMessage() : String(e);
    return fail(e);
  }
  let original: KubeObject = live;
  if (req.base) {
    const b = parseManifests(req.base, 'STDIN').find((d) => d.object)?.object;
    if (b) original = b;
  }
  // editoptions.go preconditions: RequireKeyUnchanged("apiVersion"), ("kind"), RequireMetadataKeyUnchanged("name").
  if (original.apiVersion !== edited.apiVersion || original.kind !== edited.kind || original.metadata?.name !== edited.metadata?.name) {
    res.text = 'error: At least one of apiVersion, kind and name was changed';
    return res;
  }
  const patch = type.custom ? createThreeWayJsonMergePatch(original, edited, original) : createThreeWayMergePatch(original, edited, original, type.kind);
  const rv = req.resourceVersion ?? edited.metadata?.resourceVersion ?? original.metadata?.resourceVersion;
  if (Object.keys(patch).length === 0) {
    res.ok = true;
    res.text = EDIT_CANCELLED;
    if (dryRun) res.diff = { live: objectYaml(live), result: objectYaml(live) };
    return res;
  }
  const body = { ...patch, metadata: { ...((patch.metadata as Record<string, unknown> | undefined) ?? {}), ...(rv ? { resourceVersion: rv } : {}) } };
  try {
    // kubectl edit sends fieldValidation=Strict (--validate defaults to strict): an unknown field fails the patch.
    const result = c.api.patch(type, ns, name, type.custom ? 'merge' : 'strategic', body, { fieldManager: EDIT_FIELD_MANAGER, dryRun, fieldValidation: 'Strict' });
    res.ok = true;
    res.text = `${ref} edited${dryRun ? ' (server dry run)' : ''}`;
    if (dryRun) res.diff = { live: objectYaml(live), result: objectYaml(result) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    // editoptions.go: a failed patch is reported as `error: <ref> could not be patched: <err>`;
    // an invalid object is shown as the API server's message.
    res.text = e.reason === 'Invalid' ? e.kubectlMessage() : `error: ${type.resource}${type.group ? '.' + type.group : ''} "${name}" could not be patched: ${e.status.message}`;
    if (e.code === 409) {
      const now = c.api.tryGet(type, ns, name);
      if (now) res.conflict = { liveYaml: objectYaml(now), resourceVersion: now.metadata.resourceVersion ?? '' };
    }
    fail(e);
  }
  if (!dryRun) c.trace.add(EDITOR_COMPONENT, `kubectl edit ${ref} (YAML editor): ${res.ok ? res.text.replace(`${ref} `, '') : res.text.split('\n')[0]}`, traceRef({ ...edited, metadata: { ...edited.metadata, namespace: ns } }), 'action');
  return res;
}

/** The custom kinds the cluster serves now, each with its version's openAPIV3Schema. */
export function crdSchemas(c: EditingCluster): { apiVersion: string; kind: string; schema: unknown }[] {
  const out: { apiVersion: string; kind: string; schema: unknown }[] = [];
  for (const crd of c.api.list('customresourcedefinitions').items) {
    const spec = crd.spec as { group?: string; names?: { kind?: string }; versions?: { name: string; served?: boolean }[] } | undefined;
    if (!spec?.group || !spec.names?.kind) continue;
    for (const v of spec.versions ?? []) {
      if (v.served === false) continue;
      const schema = schemaForVersion(crd, v.name);
      if (schema) out.push({ apiVersion: apiVersionOf({ group: spec.group, version: v.name }), kind: spec.names.kind, schema });
    }
  }
  return out;
}
