import { describe, expect, it } from 'vitest';
import { bootViewFor } from './bootView';
import { createSimStore } from './store';

describe('bootViewFor: what the page draws before the worker has booted', () => {
  it('the default start (seed 1, kind cluster) draws the booted bookshop, marked starting until the worker takes over', () => {
    const v = bootViewFor({ seed: 1, paused: false });
    expect(v).toBeDefined();
    expect(v!.run).toMatchObject({ seed: 1, cluster: 'booted', playing: true, booting: true, starting: true });
    const store = createSimStore();
    store.getState().applySnapshot(v!);
    const pods = Object.values(store.getState().objects).filter((r) => r.kind === 'Pod' && r.namespace === 'bookshop');
    expect(pods.map((p) => p.status)).toEqual(pods.map(() => 'Running'));
    expect(pods.length).toBeGreaterThanOrEqual(6);
  });

  it('keeps what the URL asked for: paused, speed', () => {
    expect(bootViewFor({ seed: 1, paused: true, speed: 10 })!.run).toMatchObject({ playing: false, speed: 10 });
  });

  it('another seed or the test cluster shows its boot as it happens instead', () => {
    expect(bootViewFor({ seed: 2, paused: false })).toBeUndefined();
    expect(bootViewFor({ seed: 1, paused: false, cluster: 'test' })).toBeUndefined();
  });
});
