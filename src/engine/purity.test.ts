/**
 * Guards the guard: the lint rules in eslint.config.js that keep src/engine pure
 * (no wall clock, no timers, no unseeded randomness, no DOM, no UI imports) must keep firing.
 * If a config change silently drops them, this test fails.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const SNIPPET = `
import React from 'react';
import { create } from 'zustand';
import { produce } from 'immer';
import { ReactFlow } from '@xyflow/react';
import * as monaco from 'monaco-editor';
import { Terminal } from '@xterm/xterm';
import { App } from '../ui/App';
import { host } from '../../worker/host';

export function impure(): unknown[] {
  const r = Math.random();
  const t = Date.now();
  const d = new Date();
  const h = setTimeout(() => undefined, 10);
  setInterval(() => undefined, 10);
  const p = performance.now();
  const w = window.innerWidth;
  const el = document.body;
  requestAnimationFrame(() => undefined);
  return [React, create, produce, ReactFlow, monaco, Terminal, App, host, r, t, d, h, p, w, el];
}
`;

/** The repository root, where eslint.config.js lives. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function lint(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages;
}

describe('engine purity lint', () => {
  it('reports clock, randomness, DOM and UI-import violations in src/engine', async () => {
    const messages = await lint(SNIPPET, 'src/engine/x.ts');
    const hits = (rule: string) => messages.filter((m) => m.ruleId === rule);
    const texts = messages.map((m) => `${m.line}:${m.ruleId}: ${m.message}`).join('\n');

    // Every violation is an error that names the clock.
    for (const m of hits('no-restricted-imports')
      .concat(hits('no-restricted-globals'))
      .concat(hits('no-restricted-properties'))
      .concat(hits('no-restricted-syntax'))) {
      expect(m.severity, texts).toBe(2);
      expect(m.message, texts).toContain('src/engine/clock.ts');
    }

    // Imports: all eight forbidden modules (lines 2-9).
    expect(hits('no-restricted-imports').map((m) => m.line).sort((a, b) => a - b), texts).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);

    // Math.random() and Date.now().
    const props = hits('no-restricted-properties').map((m) => m.message);
    expect(props.some((m) => m.includes("'Math.random'")), texts).toBe(true);
    expect(props.some((m) => m.includes("'Date.now'")), texts).toBe(true);

    // new Date().
    expect(hits('no-restricted-syntax').some((m) => m.line === 14), texts).toBe(true);

    // Timers, performance, window, document, requestAnimationFrame.
    const globalsHit = hits('no-restricted-globals').map((m) => m.message);
    for (const name of ['setTimeout', 'setInterval', 'performance', 'window', 'document', 'requestAnimationFrame', 'Date']) {
      expect(globalsHit.some((m) => m.startsWith(`Unexpected use of '${name}'`)), `${name}\n${texts}`).toBe(true);
    }
  });

  it('does not apply the engine rules outside src/engine', async () => {
    const messages = await lint(SNIPPET, 'src/ui/x.ts');
    const restricted = messages.filter((m) => m.ruleId?.startsWith('no-restricted-'));
    expect(restricted).toEqual([]);
  });

  it('accepts code that uses the virtual clock', async () => {
    const code = `
import { Clock, Rng } from './clock';
export function pure(clock: Clock, rng: Rng): number {
  clock.schedule(10, () => undefined);
  return clock.now() + rng.int(0, 9);
}
`;
    const messages = await lint(code, 'src/engine/y.ts');
    expect(messages.map((m) => `${m.line}:${m.ruleId}: ${m.message}`)).toEqual([]);
  });
});
