/**
 * `kubectl events [--for TYPE/NAME] [--types=Normal,Warning] [-A] [-w] [-o FORMAT] [--no-headers]`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/events/events.go (`ToOptions`: `--for` resolved
 * through the REST mapper, `--for must be in resource/name form`; `Validate`: `valid --types are
 * Normal or Warning`; `Run`: list with the field selector `involvedObject.kind=K,
 * involvedObject.name=N`, filter by type, `No events found in NS namespace.` on stderr, sort by
 * `eventTime` (series last observed, else lastTimestamp, else eventTime); `runWatch`: print each
 * new event, never DELETED ones) and event_printer.go (`LAST SEEN TYPE REASON OBJECT MESSAGE`,
 * `NAMESPACE` first with `-A`; LAST SEEN is `getInterval`: `5m (x3 over 10m)` for repeated events,
 * else the age of the first occurrence).
 */
import type { Pending } from '../types';
import type { KubeObject, WatchEvent } from '../../engine/api/types';
import { translateTimestampSince, timestampMs } from '../printers/duration';
import { printObjects, unknownFormatMessage } from '../printers/formats';
import { tabwrite } from '../printers/table';
import { CmdError, discover, fail, requireServer, type Env } from './env';
import { RememberingTabWriter } from './get';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** `-o` formats `kubectl events` accepts (genericclioptions.PrintFlags without table formats). */
const EVENTS_OUTPUT_FORMATS = ['json', 'yaml', 'name', 'go-template', 'go-template-file', 'template', 'templatefile', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file'];

/** events.go `eventTime`: the time events sort by (virtual-independent Unix ms). */
function eventSortTime(e: Any): number {
  if (e.series) return timestampMs(e.series.lastObservedTime) ?? 0;
  return timestampMs(e.lastTimestamp) ?? timestampMs(e.eventTime) ?? 0;
}

/** event_printer.go `getInterval`. */
function interval(env: Env, e: Any): string {
  const since = (ts: unknown) => translateTimestampSince(ts, env.ctx.clock.now(), env.ctx.clock.epochMs);
  const first = e.eventTime ? since(e.eventTime) : since(e.firstTimestamp);
  if (e.series) return `${since(e.series.lastObservedTime)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${since(e.lastTimestamp)} (x${e.count} over ${first})`;
  return first;
}

/** event_printer.go `escapeCell`: a cell is cut at the first line break. */
function cell(s: string | undefined): string {
  const v = s ?? '';
  const i = v.search(/[\f\n\r]/);
  return i >= 0 ? v.slice(0, i) + '...' : v;
}

function row(env: Env, e: Any, allNs: boolean): string[] {
  const r = [interval(env, e), cell(e.type), cell(e.reason), `${cell(e.involvedObject?.kind)}/${cell(e.involvedObject?.name)}`, cell((e.message ?? '').trim())];
  return allNs ? [e.metadata?.namespace ?? '', ...r] : r;
}

function header(allNs: boolean): string[] {
  return [...(allNs ? ['NAMESPACE'] : []), 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'];
}

/** `kubectl events`. */
export function events(env: Env): number | Pending {
  const output = env.flags.str('output');
  if (output) {
    const format = output.split('=')[0];
    if (!EVENTS_OUTPUT_FORMATS.includes(format)) throw fail(unknownFormatMessage(output, [...EVENTS_OUTPUT_FORMATS].sort()));
  }
  // Only `--for` goes through the REST mapper (discovery); the list itself is a typed-client call.
  if (env.flags.str('for')) discover(env, 3);
  else requireServer(env);
  const allNs = env.flags.bool('all-namespaces');
  const noHeaders = env.flags.bool('no-headers');
  let fieldSelector: string | undefined;
  const forObj = env.flags.str('for');
  if (forObj) {
    if (!forObj.includes('/')) throw fail('--for must be in resource/name form');
    const seg = forObj.split('/');
    if (seg.length !== 2) throw fail('arguments in resource/name form may not have more than one slash');
    const t = env.api.registry.resolve(seg[0]);
    // The REST mapper's NoResourceMatchError, which CheckErr prints without `error: `.
    if (!t) throw new CmdError(`the server doesn't have a resource type "${seg[0]}"`);
    fieldSelector = `involvedObject.kind=${t.kind},involvedObject.name=${seg[1]}`;
  }
  const types = [...new Set(env.flags.list('types'))].sort();
  for (const v of types) if (!/^(normal|warning)$/i.test(v)) throw fail('valid --types are Normal or Warning');
  const wanted = (e: Any) => types.length === 0 || types.some((t) => t.toLowerCase() === String(e.type ?? '').toLowerCase());
  const namespace = allNs ? undefined : env.namespace;
  const withKind = (e: KubeObject): KubeObject => ({ ...e, kind: e.kind || 'Event', apiVersion: e.apiVersion || 'v1' });
  const print = (items: KubeObject[]): string => printObjects(items.map(withKind), output, { list: false });

  if (env.flags.bool('watch')) {
    const tw = new RememberingTabWriter();
    let headerDone = noHeaders;
    const printOne = (e: KubeObject) => {
      if (output) {
        env.out(print([e]));
        return;
      }
      const lines = headerDone ? [] : [header(allNs)];
      headerDone = true;
      lines.push(row(env, e, allNs));
      env.out(tw.write(lines));
    };
    // A watch without a resourceVersion starts with an ADDED event for every existing event.
    const list = env.api.list('events', { namespace, fieldSelector });
    for (const e of list.items) if (wanted(e)) printOne(e);
    let done: number | undefined;
    const handle = env.api.watch('events', { namespace, fieldSelector, resourceVersion: list.metadata.resourceVersion }, (ev: WatchEvent) => {
      if (done !== undefined || ev.type === 'DELETED') return;
      if (ev.type === 'ERROR') {
        done = 1;
        return;
      }
      if (wanted(ev.object)) printOne(ev.object);
    });
    return {
      poll: () => {
        if (done === undefined && handle.stopped) done = 0;
        return done;
      },
      cancel: () => handle.stop(),
    };
  }

  const items = env.api
    .list('events', { namespace, fieldSelector })
    .items.filter(wanted)
    .map((e, i) => ({ e, i }))
    .sort((a, b) => eventSortTime(a.e) - eventSortTime(b.e) || a.i - b.i)
    .map((x) => x.e);
  if (items.length === 0) {
    env.err(allNs ? 'No events found.\n' : `No events found in ${env.namespace} namespace.\n`);
    return 0;
  }
  if (output) {
    const list = { apiVersion: 'v1', items: items.map(withKind), kind: 'EventList', metadata: {} } as unknown as KubeObject;
    env.out(printObjects([list], output, { list: false }));
    return 0;
  }
  const lines = [...(noHeaders ? [] : [header(allNs)]), ...items.map((e) => row(env, e, allNs))];
  env.out(tabwrite(lines.map((l) => l.join('\t')).join('\n') + '\n'));
  return 0;
}
