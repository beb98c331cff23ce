/**
 * Positions in the editor's buffer, from the `yaml` package's parse (which keeps source ranges):
 * YAML syntax errors at their line and column, and API field paths
 * (`spec.template.metadata.labels`, `spec.template.spec.containers[0].image`,
 * `metadata.labels[app]`) mapped to the key they name in one document of the buffer.
 * Lines and columns are 1-based, as Monaco counts them.
 */
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node, type Pair } from 'yaml';
import { splitFieldPath } from '../../engine/api/yaml';

/** A span of the buffer (1-based, end exclusive column). */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A YAML syntax error, where it is. */
export interface SyntaxProblem extends Span {
  message: string;
}

/** Every syntax error of a (multi-document) buffer, in order. Empty when the YAML parses. */
export function syntaxProblems(text: string): SyntaxProblem[] {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false });
  const out: SyntaxProblem[] = [];
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    for (const e of d.errors) {
      const a = lc.linePos(e.pos[0]);
      const b = lc.linePos(Math.max(e.pos[1], e.pos[0] + 1));
      out.push({ message: e.message.split('\n')[0], line: a.line, column: a.col, endLine: b.line, endColumn: b.line === a.line ? Math.max(b.col, a.col + 1) : b.col });
    }
  }
  return out;
}

/** Field path -> segments: the API server's own parser (src/engine/api/yaml.ts), shared. */
export { splitFieldPath };

/**
 * The span of `fieldPath` in the document of `text` that starts at or contains 1-based
 * `docLine` (the first document when absent): the key of the deepest field of the path that is
 * in the buffer (a `Required value` names a field that is not there: its parent is shown).
 * `undefined` when the buffer does not parse to such a document.
 */
export function locateFieldPath(text: string, fieldPath: string, docLine = 1): Span | undefined {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc });
  const list = Array.isArray(docs) ? docs : [docs];
  const lineStart = (line: number) => {
    const starts = lc.lineStarts;
    return starts[Math.max(0, Math.min(starts.length - 1, line - 1))];
  };
  const at = lineStart(docLine);
  // The document whose range holds the line (a `---` line belongs to the next document).
  const doc = list.find((d) => d.range[0] <= at && at < Math.max(d.range[2], d.range[0] + 1)) ?? list.find((d) => d.range[0] >= at) ?? list[0];
  if (!doc || !doc.contents) return undefined;
  const span = (range: [number, number, number] | null | undefined): Span | undefined => {
    if (!range) return undefined;
    const a = lc.linePos(range[0]);
    const b = lc.linePos(range[1]);
    return { line: a.line, column: a.col, endLine: b.line, endColumn: b.col };
  };
  let node: Node | null = doc.contents as Node;
  let best = span(node.range);
  for (const seg of splitFieldPath(fieldPath)) {
    if (!node) break;
    if (typeof seg === 'number') {
      if (!isSeq(node) || seg >= node.items.length) break;
      node = node.items[seg] as Node;
      best = span(node.range) ?? best;
    } else {
      if (!isMap(node)) break;
      const pair: Pair | undefined = (node.items as Pair[]).find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) break;
      best = span((pair.key as Node).range) ?? best;
      node = (pair.value as Node | null) ?? null;
    }
  }
  return best;
}
