import { describe, expect, it } from 'vitest';
import { pausedTestHost } from './testkit';
import type { FromWorker } from '../protocol/messages';
import { loadShellModule, shellRunner } from './lines';
import { newTestCluster } from '../engine/testing/cluster';

/** `kubectl edit` typed in the browser's terminal: the worker asks the UI to open the YAML editor. */

const host = pausedTestHost;

/** The messages of line `id` (shell output and editor openings), in the order posted. */
const ofLine = (msgs: FromWorker[], id: number) => msgs.filter((m) => (m.type === 'shellOutput' || m.type === 'openEditor') && m.id === id);
const text = (msgs: FromWorker[], id: number, stream: 'stdout' | 'stderr') =>
  ofLine(msgs, id)
    .map((m) => (m.type === 'shellOutput' && m.stream === stream ? m.text : ''))
    .join('');
const done = (msgs: FromWorker[], id: number) => ofLine(msgs, id).find((m) => m.type === 'shellOutput' && m.done);
const openings = (msgs: FromWorker[]) => msgs.filter((m) => m.type === 'openEditor');

describe('kubectl edit in the browser terminal', () => {
  it('opens the one Deployment in the YAML editor and ends the line without an error', async () => {
    const { h, msgs } = await host();
    h.handle({ type: 'shell', line: 'kubectl edit deployment catalog -n bookshop', id: 1 });
    const mine = ofLine(msgs, 1);
    const open = mine.findIndex((m) => m.type === 'openEditor');
    expect(mine[open]).toEqual({ type: 'openEditor', id: 1, target: { kind: 'Deployment', namespace: 'bookshop', name: 'catalog' } });
    expect(open).toBeLessThan(mine.findIndex((m) => m.type === 'shellOutput' && m.done));
    expect(text(msgs, 1, 'stdout')).toBe('deployment.apps/catalog opened in the YAML editor (Apply saves the edit)\n');
    expect(text(msgs, 1, 'stderr')).toBe('');
    expect(done(msgs, 1)).toMatchObject({ exitCode: 0 });
  });

  it('takes TYPE/NAME, -n before the subcommand, and cluster-scoped objects without a namespace', async () => {
    const { h, msgs } = await host();
    h.handle({ type: 'shell', line: 'kubectl -n bookshop edit deploy/web', id: 2 });
    h.handle({ type: 'shell', line: 'kubectl edit ns bookshop', id: 3 });
    expect(openings(msgs)).toEqual([
      { type: 'openEditor', id: 2, target: { kind: 'Deployment', namespace: 'bookshop', name: 'web' } },
      { type: 'openEditor', id: 3, target: { kind: 'Namespace', name: 'bookshop' } },
    ]);
  });

  it('keeps kubectl errors: a missing object, several objects, and no editor opened', async () => {
    const { h, msgs } = await host();
    h.handle({ type: 'shell', line: 'kubectl edit deployment nope -n bookshop', id: 4 });
    expect(text(msgs, 4, 'stderr')).toBe('Error from server (NotFound): deployments.apps "nope" not found\n');
    expect(done(msgs, 4)).toMatchObject({ exitCode: 1 });
    h.handle({ type: 'shell', line: 'kubectl edit deployment catalog web -n bookshop', id: 5 });
    expect(text(msgs, 5, 'stderr')).toMatch(/^error: this terminal has no text editor: open objects in the playground's YAML editor/);
    expect(done(msgs, 5)).toMatchObject({ exitCode: 1 });
    expect(openings(msgs)).toEqual([]);
  });

  it('fails as before when the line has no editor (headless runner, tests)', async () => {
    const m = await loadShellModule();
    const runner = shellRunner(m.testShell(newTestCluster({ seed: 1 })));
    const out: string[] = [];
    let code: number | undefined;
    runner.run('kubectl edit ns default', (c) => out.push(c.text), (c) => (code = c));
    expect(out.join('')).toBe("error: this terminal has no text editor: open namespace/default in the playground's YAML editor to edit it (or use kubectl apply, scale, label, annotate or set image)\n");
    expect(code).toBe(1);
  });
});
