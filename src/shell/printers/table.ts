/**
 * The client half of `kubectl get` table output: the tabwriter kubectl aligns columns with,
 * and the decoration kubectl applies to the server's Table (NAMESPACE for `-A`, `-L` label
 * columns, `--show-labels`, `kind/` name prefixes, `-o wide` priority filtering, upper-case
 * headers, cell sanitising).
 *
 * Sources:
 * - staging/src/k8s.io/cli-runtime/pkg/printers/tabwriter.go: `GetNewTabWriter` =
 *   `tabwriter.NewWriter(out, 6, 4, 3, ' ', tabwriter.RememberWidths)` (github.com/liggitt/tabwriter,
 *   a fork of Go's text/tabwriter; RememberWidths only matters across flushes);
 * - staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go (`decorateTable`, `printTable`,
 *   `formatLabelHeaders`, `labelValues`) and terminal.go (`EscapeTerminal`).
 */
import type { KubeObject } from '../../engine/api/types';
import { goSprint } from './gofmt';

/** kubectl's tabwriter minimum column width, padding included (cli-runtime printers/tabwriter.go). */
export const TABWRITER_MIN_WIDTH = 6;
/** kubectl's tabwriter tab width (unused: kubectl pads with spaces, not tabs). */
export const TABWRITER_TAB_WIDTH = 4;
/** kubectl's tabwriter padding: spaces added after the widest cell of a column. */
export const TABWRITER_PADDING = 3;

/** Number of Unicode code points (Go's `utf8.RuneCount`, what the tabwriter measures). */
export function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Go's text/tabwriter `Flush` with kubectl's settings (minwidth 6, padding 3, pad char ' ',
 * no flags): `text` is tab-separated cells and `\n`-separated lines. Cells followed by a tab
 * belong to a column; the last cell of a line does not (so it is never padded). A column
 * block is a run of consecutive lines that have a cell in that column; its width is
 * max(6, widest cell + 3) runes, so a line with fewer cells (a blank line between two
 * tables) starts fresh widths below it. Empty cells are padded like others, which is why a
 * row ending in an empty column (ComponentStatus ERROR) keeps trailing spaces.
 */
export function tabwrite(text: string, minWidth = TABWRITER_MIN_WIDTH, padding = TABWRITER_PADDING): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const widths: number[] = [];
  const out: string[] = [];

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const line = lines[i];
      let s = '';
      for (let j = 0; j < line.length; j++) {
        const c = line[j];
        s += c;
        if (j < widths.length) s += ' '.repeat(Math.max(0, widths[j] - runeCount(c)));
      }
      out.push(s);
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= lines[t].length - 1) continue;
      // A cell exists in this column: lines line0..t-1 have no more columns.
      writeLines(line0, t);
      line0 = t;
      let width = minWidth;
      for (; t < line1; t++) {
        const line = lines[t];
        if (column >= line.length - 1) break;
        const w = runeCount(line[column]) + padding;
        if (w > width) width = w;
      }
      widths.push(width);
      format(line0, t);
      widths.pop();
      line0 = t;
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out.join('\n');
}

/** `metav1.TableColumnDefinition`: header name as the server sends it (`Nominated Node`). */
export interface ColumnDefinition {
  name: string;
  /** `string`, `integer`, `number`, `boolean`, `date`. */
  type: string;
  /** `name` marks the NAME column (kind prefixes attach to it). */
  format?: string;
  /** 0 = always shown; > 0 only with `-o wide`. */
  priority: number;
}

/**
 * A cell value: what the server's printer put in the row. Strings print as they are,
 * numbers as Go prints int64/float64 (`3`, `0.25`, `1.2345675e+06`), booleans as
 * `true`/`false`; null/undefined print nothing.
 */
export type Cell = string | number | boolean | null | undefined;

/** `metav1.TableRow`: cells in column order and the object (for namespace and labels). */
export interface TableRow {
  cells: Cell[];
  object?: KubeObject;
}

/** `metav1.Table` as the API server returns it for `Accept: as=Table`. */
export interface Table {
  columnDefinitions: ColumnDefinition[];
  rows: TableRow[];
}

/** The printing flags of `kubectl get` that change table output. */
export interface TableRenderOptions {
  /** `-o wide`: show priority > 0 columns. */
  wide?: boolean;
  /** `--no-headers`. */
  noHeaders?: boolean;
  /** `--show-labels`: a last LABELS column (`k=v,...` or `<none>`). */
  showLabels?: boolean;
  /** `-L key` (repeatable / comma list): one column per key, header = last `/` segment upper-cased. */
  labelColumns?: string[];
  /** `-A` / `--all-namespaces`: a first NAMESPACE column. */
  withNamespace?: boolean;
  /**
   * `--show-kind`, or several resource types in one `get` (`kubectl get pods,svc`, `get all`):
   * the NAME cell becomes `<kindPrefix>/<name>`, e.g. `pod`, `deployment.apps`.
   */
  kindPrefix?: string;
}

/** `labels.FormatLabels`: `k=v` sorted by key, joined by `,`; `<none>` when empty. */
export function formatLabels(labels: Record<string, string> | undefined | null): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${(labels as Record<string, string>)[k]}`).join(',');
}

/** tableprinter.go `formatLabelHeaders`: `app.kubernetes.io/name` -> `NAME`. */
export function labelHeader(key: string): string {
  const parts = key.split('/');
  return parts[parts.length - 1].toUpperCase();
}

/** cli-runtime terminal.go `EscapeTerminal`: ESC -> `^[`, CR -> `\r` (literal backslash-r). */
export function escapeTerminal(s: string): string {
  return s.split('\x1b').join('^[').split('\r').join('\\r');
}

/** How tableprinter.go writes one cell: text cut at the first `\f`, `\n` or `\r` + `...`, escaped. */
export function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return escapeTerminal(goSprint(cell));
  const brk = cell.search(/[\f\n\r]/);
  return brk >= 0 ? escapeTerminal(cell.slice(0, brk)) + '...' : escapeTerminal(cell);
}

/**
 * tableprinter.go `decorateTable`: NAMESPACE first (`-A`), `-L` columns then LABELS last,
 * `kind/` on the NAME cell (the first `string` column with format `name`).
 */
export function decorateTable(table: Table, opts: TableRenderOptions): Table {
  const labelCols = opts.labelColumns ?? [];
  const columns: ColumnDefinition[] = [];
  if (opts.withNamespace) columns.push({ name: 'Namespace', type: 'string', priority: 0 });
  columns.push(...table.columnDefinitions);
  for (const h of labelCols.map(labelHeader)) columns.push({ name: h, type: 'string', priority: 0 });
  if (opts.showLabels) columns.push({ name: 'Labels', type: 'string', priority: 0 });

  let nameColumn = -1;
  if (opts.kindPrefix) nameColumn = table.columnDefinitions.findIndex((c) => c.format === 'name' && c.type === 'string');
  const rows = table.rows.map((row) => {
    let cells = [...row.cells];
    if (nameColumn >= 0) cells[nameColumn] = `${opts.kindPrefix}/${cells[nameColumn] ?? ''}`;
    const meta = row.object?.metadata;
    if (opts.withNamespace) cells = [meta?.namespace ?? '', ...cells];
    const labels = (meta?.labels ?? {}) as Record<string, string>;
    for (const k of labelCols) cells.push(labels[k] ?? '');
    if (opts.showLabels) cells.push(formatLabels(labels));
    return { cells, object: row.object };
  });
  return { columnDefinitions: columns, rows };
}

/**
 * Print a server Table as `kubectl get` does (tableprinter.go `decorateTable` + `printTable`,
 * then the tabwriter): upper-cased headers (skipped with `noHeaders`), priority > 0 columns
 * only when `wide`, cells sanitised by `cellText`. No rows prints nothing at all (kubectl
 * then says `No resources found ...` on stderr, see `noResourcesFound`). Returns the text
 * with a trailing newline, or `''`.
 */
export function renderTable(table: Table, opts: TableRenderOptions = {}): string {
  if (table.rows.length === 0) return '';
  const t = decorateTable(table, opts);
  const visible = t.columnDefinitions.map((c) => opts.wide || c.priority === 0);
  const lines: string[] = [];
  if (!opts.noHeaders) lines.push(t.columnDefinitions.filter((_, i) => visible[i]).map((c) => c.name.toUpperCase()).join('\t'));
  for (const row of t.rows) {
    const cells: string[] = [];
    row.cells.forEach((cell, i) => {
      if (i >= t.columnDefinitions.length || !visible[i]) return;
      cells.push(cellText(cell));
    });
    lines.push(cells.join('\t'));
  }
  return tabwrite(lines.join('\n') + '\n');
}

/**
 * What `kubectl get` writes to stderr when a list comes back empty
 * (staging/src/k8s.io/kubectl/pkg/cmd/get/get.go): `No resources found in <ns> namespace.`
 * for a namespaced listing, `No resources found` for `-A` or cluster-scoped kinds.
 */
export function noResourcesFound(namespace?: string): string {
  return namespace ? `No resources found in ${namespace} namespace.` : 'No resources found';
}
