/**
 * String storage helpers (performance only; no behaviour).
 *
 * V8 keeps a string built by `+` or a template literal as a tree of its pieces (a "cons
 * string") until something reads its characters; a kept log line, Event message or uid built
 * from 15-20 pieces then costs several times its length. Reading one character flattens the
 * tree in place into one sequential string, so long-lived strings are flattened once when they
 * are stored.
 */

/** Make V8 store `s` as one flat string (in place; every holder of `s` benefits). Returns `s`. */
export function flattenString(s: string): string {
  if (s.length > 0) s.charCodeAt(0);
  return s;
}
