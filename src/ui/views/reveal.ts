/**
 * Progressive drawing of long lists: a burst of new items (a ReplicaSet creates up to 500 pods at
 * once, `kubectl scale --replicas=1000`) is added to the page at most `REVEAL_PER_FRAME` items per
 * animation frame across the whole page, instead of in one commit that freezes the page for
 * half a second. Items that go away leave at once; items keep the list's order. The map is at
 * most a few frames behind the cluster during such a burst, and exactly in step otherwise.
 *
 * The pure steps are here; the hook is `useRevealed` (./useRevealed.ts).
 */
/** New items drawn per animation frame, page-wide (about 8 ms of DOM, style and layout work on a laptop). */
export const REVEAL_PER_FRAME = 60;

/** The budget left in the current frame (frames are told apart by the rAF timestamp). */
const budget = { frame: -1, left: REVEAL_PER_FRAME };

/** Take up to `want` items from the page-wide budget of the frame starting at `frameTime` (ms). */
export function takeBudget(frameTime: number, want: number, state = budget, perFrame = REVEAL_PER_FRAME): number {
  if (state.frame !== frameTime) {
    state.frame = frameTime;
    state.left = perFrame;
  }
  const n = Math.min(want, state.left);
  state.left -= n;
  return n;
}

/**
 * One step: the items of `keys` already shown (minus those gone), plus up to `n` more of the
 * missing ones in list order. Returns `shown` itself when nothing changes.
 */
export function revealStep(shown: ReadonlySet<string>, keys: readonly string[], n: number): ReadonlySet<string> {
  const present = new Set(keys);
  let changed = false;
  const next = new Set<string>();
  for (const k of shown) {
    if (present.has(k)) next.add(k);
    else changed = true;
  }
  for (const k of keys) {
    if (n <= 0) break;
    if (!next.has(k)) {
      next.add(k);
      n--;
      changed = true;
    }
  }
  return changed ? next : shown;
}
