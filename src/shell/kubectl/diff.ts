/**
 * `kubectl diff -f FILE|DIR|- / -k DIR`: the live objects against what `kubectl apply` would make
 * of them, as a unified diff of their YAML.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go (kubectl 1.32):
 * - each object is read live (GET; absent = an empty LIVE file) and "merged" by the server in a
 *   dry run of the same request `kubectl apply` would send: a create, the three-way patch of the
 *   client-side apply patcher (src/engine/api/apply.ts `planApply`; an empty patch sends nothing,
 *   the merged object is the live one), or with `--server-side` a server-side apply;
 * - both are printed as YAML (sigs.k8s.io/yaml: the `-o yaml` printer) without
 *   `metadata.managedFields` unless `--show-managed-fields`, into files named
 *   `[<group>.]<version>.<Kind>.<namespace>.<name>` of two temporary directories
 *   `/tmp/LIVE-<n>` and `/tmp/MERGED-<n>` (os.MkdirTemp's random decimal suffix);
 * - a v1 Secret's `data` values are masked (`***`, `*** (before)` / `*** (after)` where a value changed);
 * - then `diff -u -N LIVE MERGED` (GNU diffutils) compares the directories: for each differing
 *   file, in name order, the `diff -u -N a b` line, the `---`/`+++` lines with the files' times
 *   (`2006-01-02 15:04:05.000000000 +0000`; an absent file is the epoch), and unified hunks with
 *   three lines of context (`@@ -l,n +l,n @@`, a count of 1 left out);
 * - exit status 0 when nothing differs, 1 when something does, and 2 for an error
 *   (cmdutil.CheckDiffErr adds one to kubectl's usual exit code).
 *
 * The line diff itself is jsdiff's (the `diff` package), whose Myers diff may place a change
 * differently from GNU diff where both are minimal.
 */
import { structuredPatch } from 'diff';
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { planApply } from '../../engine/api/apply';
import { parseLabelSelector } from '../../engine/api/labels';
import { CmdError, discover, formatErrors, type Env } from './env';
import { readManifestFlags, type SourcedObject } from './builder';
import { mapObjectTypes, requestObject } from './apply';
import { withWarnings } from './field-validation';
import { printYaml } from '../printers/formats';
import { formatRfc3339 } from '../../engine/clock';

/** diff.go's masks of a Secret's values. */
const MASK = '***';
const MASK_BEFORE = '*** (before)';
const MASK_AFTER = '*** (after)';

/** `kubectl diff`. Returns 0 (no differences), 1 (differences) or 2 (an error). */
export function diff(env: Env): number {
  try {
    return run(env);
  } catch (e) {
    if (e instanceof CmdError) throw new CmdError(e.text, e.code + 1);
    if (e instanceof ApiError) throw new CmdError(formatErrors([e]), 2);
    throw e;
  }
}

function run(env: Env): number {
  if (env.flags.args.length > 0) throw new CmdError(`error: Unexpected args: [${env.flags.args.join(' ')}]\nSee 'kubectl diff -h' for help and examples`);
  if (env.flags.bool('force-conflicts') && !env.flags.bool('server-side')) throw new CmdError('error: --force-conflicts only works with --server-side');
  if (env.flags.bool('prune')) throw new CmdError('error: --prune is not supported in this playground');
  const manifests = readManifestFlags(env);
  if (!manifests) throw new CmdError('error: must specify one of -f and -k');
  discover(env, 5);
  const errs: unknown[] = manifests.errors.map((t) => new CmdError(t));
  if (errs.length > 0) throw new CmdError(formatErrors(errs));
  const selector = env.flags.str('selector') ? parseLabelSelector(env.flags.str('selector')) : undefined;
  const objects = selector ? manifests.objects.filter((o) => selector.matches(o.object.metadata?.labels)) : manifests.objects;
  const mapped = mapObjectTypes(env, objects, errs);
  if (errs.length > 0) throw new CmdError(formatErrors(errs));

  const files = new Map<string, { live: string | undefined; merged: string }>();
  for (const { type, ...item } of mapped) {
    const { name, live, merged } = versions(env, item, type);
    let from = live;
    let to = merged;
    if (type.group === '' && type.kind === 'Secret') [from, to] = maskSecret(from, to);
    files.set(name, { live: from ? yaml(env, from) : undefined, merged: yaml(env, to) });
  }

  const rng = env.ctx.rng;
  const liveDir = `/tmp/LIVE-${rng.int(0, 4294967295)}`;
  const mergedDir = `/tmp/MERGED-${rng.int(0, 4294967295)}`;
  const written = fileTime(env.ctx.clock.epochMs + env.ctx.clock.now());
  let out = '';
  for (const name of [...files.keys()].sort()) {
    const { live, merged } = files.get(name)!;
    if (live === merged) continue;
    const a = `${liveDir}/${name}`;
    const b = `${mergedDir}/${name}`;
    out += `diff -u -N ${a} ${b}\n--- ${a}\t${live === undefined ? fileTime(0) : written}\n+++ ${b}\t${written}\n`;
    for (const h of structuredPatch(a, b, live ?? '', merged, '', '', { context: 3 }).hunks) {
      out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n`;
      for (const line of h.lines) out += `${line}\n`;
    }
  }
  env.out(out);
  return out === '' ? 0 : 1;
}

/** The file name of diff.go's `InfoObject.Name()` and the object's LIVE and MERGED versions. */
function versions(env: Env, item: SourcedObject, type: ResourceType): { name: string; live: KubeObject | undefined; merged: KubeObject } {
  const { obj, ns, name } = requestObject(env, item, type);
  const fileName = `${type.group ? `${type.group}.` : ''}${type.version}.${type.kind}.${type.namespaced ? ns : ''}.${name}`;
  const serverSide = env.flags.bool('server-side');
  const fieldManager = env.flags.str('field-manager') || (serverSide ? 'kubectl' : 'kubectl-client-side-apply');
  // resource.Helper without WithFieldValidation: the server's default, Warn (its warnings printed as they come).
  const warnings: string[] = [];
  const opts = { fieldManager, dryRun: true, fieldValidation: 'Warn' as const, warnings };
  // diff.go returns the GET's, the dry-run create's and the patcher's errors as they are (only
  // apply's caller wraps them with the source: `error when creating "x.yaml": ...`).
  const live = env.api.tryGet(type, ns, name);
  const plan = planApply(obj, live, type.kind, !!type.custom);
  // withWarnings: the warnings of a failed dry run are printed too, before its error.
  const merged = withWarnings(env, warnings, (): KubeObject => {
    if (plan.action === 'create') return env.api.create(serverSide ? obj : plan.object, { ...opts, namespace: ns });
    // patcher.go: an empty patch is not sent; the merged object is the live one.
    if (plan.action === 'unchanged') return live!;
    return env.api.patch(type, ns, name, plan.patchType, plan.patch, opts);
  });
  return { name: fileName, live, merged };
}

/** diff.go's Printer: YAML without managedFields (unless --show-managed-fields). */
function yaml(env: Env, obj: KubeObject): string {
  const copy = JSON.parse(JSON.stringify(obj)) as KubeObject;
  if (!env.flags.bool('show-managed-fields') && copy.metadata) delete copy.metadata.managedFields;
  return printYaml([copy], false);
}

/** diff.go's Masker over two versions of a Secret. */
function maskSecret(from: KubeObject | undefined, to: KubeObject): [KubeObject | undefined, KubeObject] {
  const f = from && (JSON.parse(JSON.stringify(from)) as KubeObject & { data?: Record<string, string> });
  const t = JSON.parse(JSON.stringify(to)) as KubeObject & { data?: Record<string, string> };
  const fd = f?.data;
  const td = t.data;
  if (fd) {
    for (const k of Object.keys(fd)) {
      if (td && k in td) {
        if (fd[k] !== td[k]) {
          fd[k] = MASK_BEFORE;
          td[k] = MASK_AFTER;
          continue;
        }
        td[k] = MASK;
      }
      fd[k] = MASK;
    }
  }
  if (td) for (const k of Object.keys(td)) if (!fd || !(k in fd)) td[k] = MASK;
  return [f, t];
}

/** GNU diff's unified range: `l,n`, `l` alone for one line, the line before for none. */
function range(start: number, lines: number): string {
  if (lines === 0) return `${start - 1},0`;
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

/** A file time as GNU diff prints it (`%Y-%m-%d %H:%M:%S.%N %z`, UTC). Virtual time has millisecond resolution. */
function fileTime(unixMs: number): string {
  const iso = formatRfc3339(unixMs, true); // 2026-01-05T06:00:05.123000Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000000 +0000`;
}
