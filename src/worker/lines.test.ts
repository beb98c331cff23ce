/**
 * The worker's line runner: a finished line costs LINE_LATENCY_MS of virtual time, so what it set
 * off (a process exiting, systemd reaping it) has happened before the next line runs, even while
 * the simulation is paused.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../engine/clock';
import { ApiServer } from '../engine/api/server';
import { MemoryFiles } from '../shell/files';
import { Shell } from '../shell/shell';
import { LINE_LATENCY_MS } from '../shell/transcript';
import { shellRunner } from './lines';

describe('shellRunner', () => {
  it('a finished line advances the clock by the per-line latency, running what fell due', () => {
    const clock = new Clock();
    const rng = new Rng(1);
    let exited = false;
    const shell = new Shell({
      ctx: { clock, rng, api: new ApiServer(clock, rng), files: new MemoryFiles(), env: {} },
      // `stop` asks something to end 5 ms later, as a SIGTERM'd kubelet does.
      commands: { stop: () => (clock.schedule(5, () => (exited = true)), 0) },
    });
    const runner = shellRunner(shell);
    const codes: number[] = [];
    runner.run('stop', () => {}, (c) => codes.push(c));
    expect(codes).toEqual([0]);
    expect(exited).toBe(true);
    expect(clock.now()).toBe(LINE_LATENCY_MS);
  });
});
