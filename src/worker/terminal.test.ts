import { describe, expect, it } from 'vitest';
import { pausedTestHost } from './testkit';
import type { FromWorker } from '../protocol/messages';

/** The worker's side of the terminal: `complete`, `interrupt`, the prompt on `done`. */

const host = pausedTestHost;

const completions = (msgs: FromWorker[]) => msgs.filter((m): m is Extract<FromWorker, { type: 'completions' }> => m.type === 'completions');
const outputs = (msgs: FromWorker[], id: number) => msgs.filter((m): m is Extract<FromWorker, { type: 'shellOutput' }> => m.type === 'shellOutput' && m.id === id);

describe('terminal protocol in the worker', () => {
  it('completes kinds, flags and live object names', async () => {
    const { h, msgs } = await host();
    h.handle({ type: 'complete', id: 1, line: 'kubectl get depl', cursor: 16 });
    expect(completions(msgs).at(-1)).toEqual({ type: 'completions', id: 1, start: 12, end: 16, candidates: ['deployments'] });
    const line = 'kubectl delete pod -n bookshop cat';
    h.handle({ type: 'complete', id: 2, line, cursor: line.length });
    const pods = completions(msgs).at(-1)!;
    expect(pods.id).toBe(2);
    expect(pods.candidates).toHaveLength(2);
    for (const p of pods.candidates) expect(p).toMatch(/^catalog-[a-z0-9]+-[a-z0-9]{5}$/);
    h.handle({ type: 'complete', id: 3, line: 'kub', cursor: 3 });
    expect(completions(msgs).at(-1)!.candidates).toEqual(['kubectl']);
  });

  it('ends a running line on interrupt (exit 130) and reports the prompt on done', async () => {
    const { h, msgs } = await host();
    h.handle({ type: 'shell', line: 'sleep 30', id: 7 });
    expect(outputs(msgs, 7).some((m) => m.done)).toBe(false);
    h.handle({ type: 'interrupt' });
    const done = outputs(msgs, 7).find((m) => m.done);
    expect(done).toMatchObject({ done: true, exitCode: 130, prompt: '$ ' });
    h.handle({ type: 'shell', line: 'echo after', id: 8 });
    expect(outputs(msgs, 8).map((m) => m.text).join('')).toBe('after\n');
  });
});
