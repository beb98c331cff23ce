import { describe, expect, it } from 'vitest';
import { revealStep, takeBudget } from './reveal';

describe('progressive drawing of long lists', () => {
  it('adds missing items in list order up to the budget, drops gone ones at once', () => {
    const keys = ['a', 'b', 'c', 'd', 'e'];
    let shown = revealStep(new Set(), keys, 2);
    expect([...shown]).toEqual(['a', 'b']);
    shown = revealStep(shown, ['a', 'c', 'd', 'e'], 2);
    expect([...shown].sort()).toEqual(['a', 'c', 'd']);
    const same = revealStep(shown, ['a', 'c', 'd'], 5);
    expect(same).toBe(shown); // nothing to do: the same set (no re-render)
  });

  it('shares one budget per animation frame across every list of the page', () => {
    const state = { frame: -1, left: 0 };
    expect(takeBudget(100, 40, state, 60)).toBe(40);
    expect(takeBudget(100, 40, state, 60)).toBe(20);
    expect(takeBudget(100, 40, state, 60)).toBe(0);
    expect(takeBudget(116.7, 40, state, 60)).toBe(40); // the next frame
  });
});
