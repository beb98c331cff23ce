/**
 * `kubectl get`: tables (server-side Table columns from src/shell/printers), `-o
 * wide|yaml|json|name|jsonpath=|custom-columns=`, `-A`, `-l`, `--field-selector`,
 * `--show-labels`, `-L`, `--sort-by`, `--no-headers`, several types (`deploy,svc`, `all`),
 * names and `type/name`, `-f`, and `-w` / `--watch-only` as a Pending that prints rows as the
 * objects change.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (`Run`, `printGeneric`, `watch`,
 * `multipleGVKsRequested`, the `No resources found` message that only table output prints),
 * sorter.go (`--sort-by`: natural string order, numbers numerically) and the liggitt/tabwriter
 * `RememberWidths` behaviour of watch output (columns only ever widen).
 * `kubectl get componentstatuses` mirrors pkg/registry/core/componentstatus/rest.go: its rows
 * are computed, not stored (here: from the API's availability and the leader-election Leases of
 * kube-scheduler and kube-controller-manager).
 */
import type { Pending } from '../types';
import type { KubeObject, WatchEvent } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError, errors } from '../../engine/api/errors';
import { parseRfc3339 } from '../../engine/clock';
import {
  GET_OUTPUT_FORMATS,
  PrintError,
  buildTable,
  cellText,
  decorateTable,
  findResults,
  noResourcesFound,
  parseJsonPath,
  printObjects,
  printTables,
  relaxedJsonPath,
  resourceName,
  unknownFormatMessage,
  type TableGroup,
} from '../printers';
import { toYaml } from '../../engine/api/yaml';
import { CmdError, discover, fail, printError, type Env } from './env';
import { goQuote } from '../printers/gofmt';
import { apiserverHealthAnswer } from '../../engine/cluster/apiserver-health';
import { objectNamespace, parseResourceArgs, readManifestFlags, type Ref } from './builder';
import { checkGoTemplate } from './output';
import { isManifestUrl } from './web-examples';

/** The message `kubectl get` with no resource prints (get.go `Run`). */
const NO_RESOURCE_MESSAGE =
  'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\n' +
  'error: Required resource not specified.\n' +
  'Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
  "See 'kubectl get -h' for help and examples";

/** `--leader-elect-lease-duration` (15 s): a component whose Lease is older is considered down. */
export const COMPONENT_LEASE_FRESH_MS = 15_000;

/** The components `kubectl get componentstatuses` reports, in the order the seed shows them. */
const COMPONENTS: { name: string; lease?: string; url: string }[] = [
  { name: 'scheduler', lease: 'kube-scheduler', url: 'https://127.0.0.1:10259/healthz' },
  { name: 'controller-manager', lease: 'kube-controller-manager', url: 'https://127.0.0.1:10257/healthz' },
  { name: 'etcd-0', url: 'https://127.0.0.1:2379/readyz' },
];

/**
 * The ComponentStatus objects the API server computes (componentstatus/rest.go): Healthy `ok`,
 * or Unhealthy with the probe's connection-refused text as the condition's message (the HTTP
 * prober reports a failed GET as a Failure whose data is the error text, not as an error). Scheduler and controller-manager are
 * healthy while their leader-election Lease was renewed within 15 s; etcd while the API can
 * reach it.
 */
export function componentStatuses(env: Env): KubeObject[] {
  // The cluster probes the components for real when it can (kube-apiserver's live GETs).
  const live = env.options.componentStatuses;
  if (live) return live();
  const nowUnix = env.ctx.clock.epochMs + env.ctx.clock.now();
  return COMPONENTS.map((c) => {
    let healthy: boolean;
    if (c.lease) {
      const lease = env.api.tryGet('leases', 'kube-system', c.lease);
      const renew = lease?.spec?.renewTime ? parseRfc3339(lease.spec.renewTime) : NaN;
      healthy = Number.isFinite(renew) && nowUnix - renew <= COMPONENT_LEASE_FRESH_MS;
    } else {
      healthy = env.api.getAvailability() === 'up';
    }
    const port = /:(\d+)\//.exec(c.url)?.[1];
    const cond = healthy
      ? { type: 'Healthy', status: 'True', message: 'ok' }
      : // DoHTTPProbe (pkg/probe/http/http.go) turns a failed GET into (Failure, err.Error(), nil), and
        // DoServerCheck (componentstatus/validator.go) passes that text on as the message: the
        // connection-refused text lands in MESSAGE, ERROR stays empty.
        { type: 'Healthy', status: 'False', message: `Get "${c.url}": dial tcp 127.0.0.1:${port}: connect: connection refused` };
    return { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: c.name }, conditions: [cond] } as KubeObject;
  });
}

/** Go `sortorder.NaturalLess`: digit runs compare numerically. */
export function naturalLess(a: string, b: string): boolean {
  const re = /(\d+|\D+)/g;
  const pa = a.match(re) ?? [];
  const pb = b.match(re) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      const nx = Number(x);
      const ny = Number(y);
      if (nx !== ny) return nx < ny;
      return x.length < y.length;
    }
    return x < y;
  }
  return pa.length < pb.length;
}

/**
 * `--sort-by`: a stable sort of objects by the first value the JSONPath finds (sorter.go):
 * numbers numerically, strings in natural order, objects without the field (or with null) first.
 * `requireField`: when no object has the field, fail as NewTableSorter / SortObjects do
 * (`couldn't find any field with path "{.x}" in the list of objects`).
 */
export function sortObjects(objs: KubeObject[], sortBy: string, requireField = false): KubeObject[] {
  let parsed;
  let field;
  try {
    field = relaxedJsonPath(sortBy);
    parsed = parseJsonPath(field);
  } catch (e) {
    throw fail((e as Error).message);
  }
  const key = (o: KubeObject): unknown => {
    try {
      const g = findResults(parsed, o, { allowMissingKeys: true });
      return g[0]?.[0];
    } catch {
      return undefined;
    }
  };
  const keyed = objs.map((o, i) => ({ o, k: key(o), i }));
  // NewTableSorter / SortObjects: a path no object has is taken for a typo.
  if (requireField && objs.length > 0 && keyed.every((x) => x.k === undefined)) throw fail(`couldn't find any field with path ${goQuote(field)} in the list of objects`);
  keyed.sort((x, y) => {
    const a = x.k;
    const b = y.k;
    if (a === undefined || b === undefined) return a === b ? x.i - y.i : a === undefined ? -1 : 1;
    // A field that is there but null (an events.k8s.io Event's `lastTimestamp`) sorts first too:
    // isLess' `reflect.Interface` case, nil before anything.
    if (a === null || b === null) return a === b ? x.i - y.i : a === null ? -1 : 1;
    let less: boolean;
    let greater: boolean;
    if (typeof a === 'number' && typeof b === 'number') {
      less = a < b;
      greater = b < a;
    } else {
      const sa = typeof a === 'string' ? a : JSON.stringify(a);
      const sb = typeof b === 'string' ? b : JSON.stringify(b);
      less = naturalLess(sa, sb);
      greater = naturalLess(sb, sa);
    }
    return less ? -1 : greater ? 1 : x.i - y.i;
  });
  return keyed.map((x) => x.o);
}

/** The printing flags of one get. */
interface GetPrintOptions {
  output: string;
  wide: boolean;
  noHeaders: boolean;
  showLabels: boolean;
  labelColumns: string[];
  allNamespaces: boolean;
  showKind: boolean;
}

function printOptions(env: Env): GetPrintOptions {
  const output = env.flags.str('output');
  return {
    output,
    wide: output === 'wide',
    noHeaders: env.flags.bool('no-headers'),
    showLabels: env.flags.bool('show-labels'),
    labelColumns: env.flags.list('label-columns'),
    allNamespaces: env.flags.bool('all-namespaces'),
    showKind: env.flags.bool('show-kind'),
  };
}

/** True for `-o` values printed as tables (the human-readable printer). */
function isTableOutput(output: string): boolean {
  return output === '' || output === 'wide';
}

/** Check `-o` before doing anything (kubectl builds the printer first). */
function checkOutput(env: Env, output: string): void {
  if (isTableOutput(output)) return;
  const eq = output.indexOf('=');
  const format = eq < 0 ? output : output.slice(0, eq);
  if (!GET_OUTPUT_FORMATS.includes(format)) throw fail(unknownFormatMessage(output));
  checkGoTemplate(output);
  void env;
}

/** The objects of one resolved request, grouped by type in request order. */
interface Found {
  groups: { type: ResourceType; objs: KubeObject[] }[];
  errors: unknown[];
  /** Exactly one object was named (kubectl prints it as itself, not as a List). */
  single: boolean;
  /** The errors of reading `-f`/`-k` (a parse error, a URL that could not be read). */
  manifestErrors?: Set<unknown>;
}

function listOpts(env: Env, type: ResourceType, allNs: boolean) {
  return {
    namespace: type.namespaced && !allNs ? env.namespace : undefined,
    labelSelector: env.flags.str('selector') || undefined,
    fieldSelector: env.flags.str('field-selector') || undefined,
  };
}

function fetchList(env: Env, type: ResourceType, allNs: boolean): KubeObject[] {
  if (type.kind === 'ComponentStatus') return componentStatuses(env);
  return env.api.list(type, listOpts(env, type, allNs)).items;
}

function fetchOne(env: Env, ref: Ref): KubeObject {
  if (ref.type.kind === 'ComponentStatus') {
    const cs = componentStatuses(env).find((o) => o.metadata.name === ref.name);
    if (!cs) throw errors.notFound('componentstatuses', '', ref.name);
    return cs;
  }
  return env.api.get(ref.type, ref.type.namespaced ? env.namespace : undefined, ref.name);
}

function addTo(found: Found, type: ResourceType, objs: KubeObject[]): void {
  const last = found.groups[found.groups.length - 1];
  if (last && last.type === type) last.objs.push(...objs);
  else found.groups.push({ type, objs: [...objs] });
}

/** Resolve args / -f into objects (errors per object are collected, as ContinueOnError). */
function collect(env: Env, allNs: boolean, ignoreNotFound: boolean): Found {
  const found: Found = { groups: [], errors: [], single: false };
  const manifests = readManifestFlags(env);
  if (manifests) {
    const manifestErrors = manifests.errors.map((t) => new CmdError(t));
    found.errors.push(...manifestErrors);
    found.manifestErrors = new Set(manifestErrors);
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      try {
        addTo(found, type, [env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? '')]);
      } catch (e) {
        if (!(ignoreNotFound && e instanceof ApiError && e.code === 404)) found.errors.push(e);
      }
    }
    // builder.go FilenameParam: one path implies a single item; a URL does not (a List is printed).
    const files = env.flags.list('filename');
    found.single = manifests.objects.length === 1 && files.length === 1 && !isManifestUrl(files[0]);
    return found;
  }
  const hasSelector = env.flags.str('selector') !== '' || env.flags.str('field-selector') !== '';
  const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: true, hasSelector });
  if (sel.mode === 'list') {
    for (const t of sel.types) found.groups.push({ type: t, objs: fetchList(env, t, allNs) });
    return found;
  }
  found.single = sel.refs.length === 1;
  for (const ref of sel.refs) {
    try {
      addTo(found, ref.type, [fetchOne(env, ref)]);
    } catch (e) {
      if (ignoreNotFound && e instanceof ApiError && e.code === 404) continue;
      if (found.single) throw e;
      found.errors.push(e);
    }
  }
  return found;
}

/** `kubectl get`. */
export function get(env: Env): number | Pending {
  const po = printOptions(env);
  checkOutput(env, po.output);
  const watch = env.flags.bool('watch') || env.flags.bool('watch-only');
  const raw = env.flags.str('raw');
  if (raw) return getRaw(env, raw);
  if (env.flags.args.length === 0 && env.flags.list('filename').length === 0 && env.flags.str('kustomize') === '') {
    throw new CmdError(NO_RESOURCE_MESSAGE);
  }
  discover(env, env.flags.args.some((a) => a.includes('/')) ? 4 : 5);
  const allNs = po.allNamespaces;
  const sortBy = env.flags.str('sort-by');
  const ignoreNotFound = env.flags.bool('ignore-not-found');

  if (env.flags.args.length > 0) for (const w of deprecationWarnings(env)) env.err(`Warning: ${w}\n`);
  if (watch) return startWatch(env, po);

  const found = collect(env, allNs, ignoreNotFound);
  // get.go RuntimeSorter.Sort: each table is sorted on its own (NewTableSorter errors when no
  // row has the field); other outputs sort the objects together, and not at all when there is
  // only one (SortObjects errors the same way).
  if (sortBy) {
    const table = isTableOutput(po.output);
    const total = found.groups.reduce((n, g) => n + g.objs.length, 0);
    for (const g of found.groups) g.objs = sortObjects(g.objs, sortBy, table || (total > 1 && found.groups.length === 1));
  }

  let status = 0;
  if (isTableOutput(po.output)) {
    const groups: TableGroup[] = found.groups.map((g) => ({ kind: g.type.kind, objs: g.objs, crd: crdOf(env, g.type) }));
    const multiple = new Set(found.groups.map((g) => g.type)).size > 1;
    const text = printTables(groups, {
      nowMs: env.ctx.clock.now(),
      epochMs: env.ctx.clock.epochMs,
      wide: po.wide,
      noHeaders: po.noHeaders,
      showLabels: po.showLabels,
      labelColumns: po.labelColumns,
      allNamespaces: allNs,
      showKind: po.showKind || multiple,
    });
    env.out(text);
    if (text === '' && found.errors.length === 0 && !ignoreNotFound) {
      const allNamespaced = found.groups.every((g) => g.type.namespaced);
      env.err(noResourcesFound(allNamespaced && !allNs ? env.namespace : undefined) + '\n');
    }
  } else {
    const objs = found.groups.flatMap((g) => g.objs);
    if (!(objs.length === 0 && found.single)) {
      try {
        env.out(printObjects(objs, po.output, { list: !found.single, noHeaders: po.noHeaders, allowMissingKeys: env.flags.bool('allow-missing-template-keys') }));
      } catch (e) {
        if (!(e instanceof PrintError)) throw e;
        env.out(e.stdout);
        found.errors.push(fail(e.message));
      }
    }
  }
  for (const e of found.errors) {
    // helpers.go CheckErr prints an aggregate of several errors with MultipleErrors: each
    // message bare, without the `error: ` a lone error gets (the builder's errors are one).
    if (found.errors.length > 1 && found.manifestErrors?.has(e) && e instanceof CmdError) printError(env, new CmdError(e.text.replace(/^error: /, '')));
    else printError(env, e);
    status = 1;
  }
  return status;
}

/** client-go's `maxUnstructuredResponseTextBytes`: how much of a non-Status error body kubectl reads. */
const MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES = 2048;

/**
 * `kubectl get --raw PATH` for kube-apiserver's health endpoints (`/healthz`, `/livez`, `/readyz`,
 * `/readyz/<check>`, with `?verbose` and `?exclude=`: the answer of apiserver-health.ts, the
 * same function the kube-apiserver program serves); any other path is answered with the
 * server's 404 Status (not modelled further). A 500 is a text body, not a Status: client-go's `newUnstructuredResponseError`
 * (rest/request.go) reads at most 2048 bytes, trims the space around them, and
 * `errors.NewGenericServerResponse` words it `an error on the server (%q) has prevented the
 * request from succeeding` (reason InternalError); kubectl prints it and exits 1.
 */
function getRaw(env: Env, raw: string): number {
  discover(env, 0);
  const res = apiserverHealthAnswer(raw, { etcdOk: env.api.getAvailability() !== 'etcd-unreachable' });
  if (res && 'status' in res) {
    if (res.status === 200) {
      env.out(res.body);
      return 0;
    }
    const message = res.body.slice(0, MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES).trim();
    env.err(`Error from server (InternalError): an error on the server (${goQuote(message)}) has prevented the request from succeeding\n`);
    return 1;
  }
  throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
}

/**
 * The API server's deprecation warnings for the kinds named (`Warning:` response headers, printed
 * by kubectl on stderr). Source: the `// +k8s:prerelease-lifecycle-gen:deprecated` tags of
 * staging/src/k8s.io/api/core/v1/types.go (ComponentStatus 1.19, Endpoints 1.33 with its
 * replacement).
 */
const DEPRECATED_KINDS: Record<string, string> = {
  ComponentStatus: 'v1 ComponentStatus is deprecated in v1.19+',
  Endpoints: 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice',
};

function deprecationWarnings(env: Env): string[] {
  const first = env.flags.args[0].split('/')[0];
  const out: string[] = [];
  for (const t of first.split(',')) {
    const w = DEPRECATED_KINDS[env.api.registry.resolve(t)?.kind ?? ''];
    if (w && !out.includes(w)) out.push(w);
  }
  return out;
}

function crdOf(env: Env, t: ResourceType): KubeObject | undefined {
  if (!t.custom) return undefined;
  return env.api.tryGet('customresourcedefinitions', undefined, `${t.resource}.${t.group}`);
}

// ------------------------------------------------------------------------------------------
// Watch
// ------------------------------------------------------------------------------------------

/**
 * Table rows written over time with liggitt/tabwriter's `RememberWidths`: each flush aligns its
 * rows, and a column never gets narrower than it has been (minwidth 6, padding 3).
 */
export class RememberingTabWriter {
  private widths: number[] = [];

  /** Format rows (cells already sanitised); returns the text with trailing newlines. */
  write(rows: string[][]): string {
    if (rows.length === 0) return '';
    const cols = Math.max(...rows.map((r) => r.length));
    for (let i = 0; i < cols - 1; i++) {
      let w = Math.max(6, this.widths[i] ?? 0);
      for (const r of rows) if (i < r.length - 1) w = Math.max(w, [...r[i]].length + 3);
      this.widths[i] = w;
    }
    return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c + ' '.repeat(this.widths[i] - [...c].length) : c)).join('') + '\n').join('');
  }
}

/** Header and row cells of objects of one type, as `kubectl get` prints them. */
function tableRows(env: Env, type: ResourceType, objs: KubeObject[], po: GetPrintOptions): { header: string[]; rows: string[][] } {
  const table = buildTable(objs, { kind: type.kind, crd: crdOf(env, type), nowMs: env.ctx.clock.now(), epochMs: env.ctx.clock.epochMs });
  const t = decorateTable(table, {
    withNamespace: po.allNamespaces,
    showLabels: po.showLabels,
    labelColumns: po.labelColumns,
    kindPrefix: po.showKind ? resourceName({ apiVersion: objs[0]?.apiVersion ?? '', kind: type.kind, metadata: {} }).replace(/\/$/, '') : undefined,
  });
  const visible = t.columnDefinitions.map((c) => po.wide || c.priority === 0);
  const header = t.columnDefinitions.filter((_, i) => visible[i]).map((c) => c.name.toUpperCase());
  const rows = t.rows.map((r) => r.cells.filter((_, i) => i < visible.length && visible[i]).map(cellText));
  return { header, rows };
}

function startWatch(env: Env, po: GetPrintOptions): Pending {
  const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: true, hasSelector: env.flags.str('selector') !== '' });
  const types = sel.mode === 'list' ? sel.types : [...new Set(sel.refs.map((r) => r.type))];
  const count = sel.mode === 'list' ? sel.types.length : sel.refs.length;
  if (types.length !== 1 || (sel.mode === 'names' && count > 1)) {
    throw fail(`watch is only supported on individual resources and resource collections, but ${count} resources were found`);
  }
  const type = types[0];
  const single = sel.mode === 'names' ? sel.refs[0].name : undefined;
  const allNs = po.allNamespaces;
  const opts = listOpts(env, type, allNs);
  if (single) opts.fieldSelector = `metadata.name=${single}`;

  let initial: KubeObject[];
  let rv: string;
  if (single) {
    const o = env.api.get(type, type.namespaced ? env.namespace : undefined, single);
    initial = [o];
    rv = o.metadata.resourceVersion ?? '';
  } else {
    const list = env.api.list(type, opts);
    initial = list.items;
    rv = list.metadata.resourceVersion;
  }
  const tw = new RememberingTabWriter();
  const events = env.flags.bool('output-watch-events');
  const table = isTableOutput(po.output);
  let headerDone = po.noHeaders;
  let printed = 0;
  const print = (evType: string, objs: KubeObject[]) => {
    if (objs.length === 0) return;
    if (table) {
      const { header, rows } = tableRows(env, type, objs, po);
      const lines: string[][] = [];
      if (!headerDone) {
        lines.push(events ? ['EVENT', ...header] : header);
        headerDone = true;
      }
      for (const r of rows) lines.push(events ? [evType, ...r] : r);
      env.out(tw.write(lines));
    } else if (po.output === 'yaml') {
      for (const o of objs) env.out((printed++ > 0 ? '---\n' : '') + toYaml(events ? { type: evType, object: o } : o));
    } else {
      const out = printObjects(
        objs.map((o) => (events ? ({ type: evType, object: o } as unknown as KubeObject) : o)),
        po.output,
        { list: false, noHeaders: po.noHeaders || printed > 0 },
      );
      printed++;
      env.out(out);
    }
  };
  if (!env.flags.bool('watch-only')) print('ADDED', initial);
  // A watch started for one named object swallows its first event (get.go: "watches started for
  // individual items emit a synthetic ADDED event first").
  let suppress = single !== undefined && !env.flags.bool('watch-only');
  let done: number | undefined;
  const handle = env.api.watch(type, { ...opts, resourceVersion: rv }, (ev: WatchEvent) => {
    if (done !== undefined) return;
    if (ev.type === 'ERROR') {
      done = 1;
      return;
    }
    if (suppress) {
      suppress = false;
      return;
    }
    print(ev.type, [ev.object]);
  });
  return {
    poll: () => {
      if (done !== undefined) return done;
      if (handle.stopped) done = 0;
      return done;
    },
    cancel: () => handle.stop(),
  };
}

/** `resourceName` without the name: `deployment.apps`. */
export function kindString(type: ResourceType): string {
  return type.kind.toLowerCase() + (type.group ? `.${type.group}` : '');
}

