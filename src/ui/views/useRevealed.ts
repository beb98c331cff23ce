/**
 * The React side of ./reveal.ts: a list's keys as they are drawn, new ones joining the page a
 * frame's budget at a time (requestAnimationFrame).
 */
import { useEffect, useMemo, useState } from 'react';
import { REVEAL_PER_FRAME, revealStep, takeBudget } from './reveal';

/**
 * `keys` as they are drawn: all of them once revealed, new ones joining a frame's budget at a
 * time. The first render shows up to one frame's budget (a page that opens on a small cluster
 * draws it at once).
 */
export function useRevealed(keys: readonly string[]): readonly string[] {
  const [shown, setShown] = useState<ReadonlySet<string>>(() => revealStep(new Set(), keys, REVEAL_PER_FRAME));
  const missing = useMemo(() => {
    let m = 0;
    for (const k of keys) if (!shown.has(k)) m++;
    return m;
  }, [keys, shown]);
  useEffect(() => {
    if (missing === 0) return;
    let id = 0;
    const tick = (t: number) => {
      const n = takeBudget(t, missing);
      if (n === 0) id = requestAnimationFrame(tick); // this frame's budget went to other lists
      else setShown((prev) => revealStep(prev, keys, n));
    };
    id = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(id);
    // `shown` too: each step schedules the next one.
  }, [keys, shown, missing]);
  return useMemo(() => (missing === 0 ? keys : keys.filter((k) => shown.has(k))), [keys, shown, missing]);
}
