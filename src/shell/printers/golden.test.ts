/**
 * Replays golden.ts: for each `kubectl get` captured from the real kubectl 1.32 client, the
 * printer functions must produce byte-identical stdout and stderr.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../engine/api/types';
import { GOLDEN } from './golden';
import { allObjects, jsonpathObjects, NOW_MS, EPOCH_MS } from './testdata';
import { printTable, printTables } from './columns';
import { noResourcesFound } from './table';
import { printObjects, PrintError } from './formats';

const ALL = [...allObjects(), ...jsonpathObjects()];
const CRD = ALL.find((o) => o.kind === 'CustomResourceDefinition');
const select = (kind: string, ns?: string, names?: string[]): KubeObject[] =>
  ALL.filter((o) => o.kind === kind && (ns === undefined || o.metadata.namespace === ns) && (!names || names.includes(o.metadata.name as string)));

/** What our printers print for a golden `call`, as kubectl's stdout and stderr. */
function run(call: any): { stdout: string; stderr: string } {
  const clock = { nowMs: NOW_MS, epochMs: EPOCH_MS };
  if (call.fn === 'table') {
    const objs = select(call.kind, call.opts.allNamespaces ? undefined : call.ns);
    const stdout = printTable(objs, { kind: call.kind, crd: call.kind === 'Shelf' ? CRD : undefined, ...clock, ...call.opts });
    const stderr = objs.length ? '' : noResourcesFound(call.opts.allNamespaces ? undefined : call.ns) + '\n';
    return { stdout, stderr };
  }
  if (call.fn === 'tables') {
    const groups = call.kinds.map((k: string) => ({ kind: k, objs: select(k, call.ns), crd: k === 'Shelf' ? CRD : undefined }));
    return { stdout: printTables(groups, { ...clock, ...call.opts }), stderr: '' };
  }
  const objs = select(call.kind, call.ns, call.names);
  try {
    return { stdout: printObjects(objs, call.output, { list: call.list, noHeaders: call.noHeaders, allowMissingKeys: call.allowMissingKeys }), stderr: '' };
  } catch (e) {
    if (!(e instanceof PrintError)) throw e;
    return { stdout: e.stdout, stderr: `error: ${e.message}${e.message.endsWith('\n') ? '' : '\n'}` };
  }
}

describe('golden kubectl 1.32 outputs', () => {
  it('has cases', () => {
    expect(GOLDEN.length).toBeGreaterThan(300);
  });
  for (const g of GOLDEN) {
    it(g.cmd, () => {
      const got = run(g.call);
      expect(got.stdout).toBe(g.stdout);
      expect(got.stderr).toBe(g.stderr);
    });
  }
});
