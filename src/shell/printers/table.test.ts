/**
 * The tabwriter (Go text/tabwriter with kubectl's minwidth 6 / padding 3) and the client-side
 * table decoration. Expected strings are real kubectl 1.32 output (see golden.ts for the full
 * set) or follow from text/tabwriter's rules.
 */
import { describe, expect, it } from 'vitest';
import { cellText, decorateTable, escapeTerminal, formatLabels, labelHeader, noResourcesFound, renderTable, tabwrite, type Table } from './table';
import { printTable } from './columns';
import { EPOCH_MS, NOW_MS, ofKind } from './testdata';

describe('tabwrite', () => {
  it('pads each column to its widest cell + 3, and never pads the last cell', () => {
    expect(tabwrite('NAME\tREADY\tSTATUS\nweb-7d4b9c-x2kq\t1/1\tRunning\n')).toBe('NAME              READY   STATUS\nweb-7d4b9c-x2kq   1/1     Running\n');
  });
  it('uses a minimum column width of 6', () => {
    expect(tabwrite('A\tB\nx\ty\n')).toBe('A     B\nx     y\n');
    expect(tabwrite('AGE\tX\n5m\ty\n')).toBe('AGE   X\n5m    y\n');
  });
  it('pads an empty cell before a trailing tab (the ComponentStatus ERROR column)', () => {
    expect(tabwrite('NAME\tSTATUS\tMESSAGE\tERROR\nscheduler\tHealthy\tok\t\n')).toBe(
      'NAME        STATUS    MESSAGE   ERROR\nscheduler   Healthy   ok        \n',
    );
  });
  it('measures runes, not UTF-16 units or bytes', () => {
    expect(tabwrite('é\tx\n😀😀😀😀😀\ty\n')).toBe('é       x\n😀😀😀😀😀   y\n');
  });
  it('starts new column widths below a line with fewer cells (blank line between tables)', () => {
    expect(tabwrite('A\tB\nlong-name-here\tx\n\nC\tD\ny\tz\n')).toBe('A                B\nlong-name-here   x\n\nC     D\ny     z\n');
  });
  it('aligns a column only over the consecutive lines that have it', () => {
    expect(tabwrite('a\tb\tc\nxxxxxxxxxx\tb\nq\tr\ts\n')).toBe('a            b     c\nxxxxxxxxxx   b\nq            r     s\n');
  });
});

describe('cell and label helpers', () => {
  it('formats labels like labels.FormatLabels', () => {
    expect(formatLabels({ tier: 'front', app: 'web' })).toBe('app=web,tier=front');
    expect(formatLabels({})).toBe('<none>');
    expect(formatLabels(undefined)).toBe('<none>');
  });
  it('uses the last path segment of a -L key as its header', () => {
    expect(labelHeader('app.kubernetes.io/name')).toBe('NAME');
    expect(labelHeader('k8s-app')).toBe('K8S-APP');
  });
  it('cuts a cell at the first line break and escapes terminal controls', () => {
    expect(cellText('Scaled up\nmore')).toBe('Scaled up...');
    expect(cellText('a\rb')).toBe('a...');
    expect(cellText(escapeTerminal('\x1b[31mred'))).toBe('^[[31mred');
    expect(cellText(3)).toBe('3');
    expect(cellText(0.5)).toBe('0.5');
    expect(cellText(false)).toBe('false');
    expect(cellText(null)).toBe('');
  });
});

describe('renderTable', () => {
  const table: Table = {
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', priority: 0 },
      { name: 'Status', type: 'string', priority: 0 },
      { name: 'Nominated Node', type: 'string', priority: 1 },
    ],
    rows: [
      { cells: ['a', 'Running', '<none>'], object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'ns1', labels: { app: 'x' } } } },
      { cells: ['bb', 'Pending', 'node-1'], object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bb', namespace: 'default' } } },
    ],
  };
  it('upper-cases headers and hides priority-1 columns unless wide', () => {
    expect(renderTable(table)).toBe('NAME   STATUS\na      Running\nbb     Pending\n');
    expect(renderTable(table, { wide: true })).toBe('NAME   STATUS    NOMINATED NODE\na      Running   <none>\nbb     Pending   node-1\n');
  });
  it('decorates: NAMESPACE first, -L columns, LABELS last, kind prefix on NAME', () => {
    expect(renderTable(table, { withNamespace: true, labelColumns: ['app'], showLabels: true, kindPrefix: 'pod' })).toBe(
      'NAMESPACE   NAME     STATUS    APP   LABELS\nns1         pod/a    Running   x     app=x\ndefault     pod/bb   Pending         <none>\n',
    );
    expect(decorateTable(table, { withNamespace: true }).columnDefinitions[0].name).toBe('Namespace');
  });
  it('prints nothing for no rows, headers or not', () => {
    expect(renderTable({ ...table, rows: [] })).toBe('');
    expect(renderTable({ ...table, rows: [] }, { noHeaders: true })).toBe('');
    expect(renderTable(table, { noHeaders: true })).toBe('a     Running\nbb    Pending\n');
  });
  it('says No resources found like kubectl get', () => {
    expect(noResourcesFound('bookshop')).toBe('No resources found in bookshop namespace.');
    expect(noResourcesFound()).toBe('No resources found');
  });
});

describe('the seed transcript (001): kubectl get componentstatuses', () => {
  // Real kubectl pads the empty ERROR cell, so these rows end in spaces; the article's copy
  // of the output has them trimmed.
  const seed = ['NAME                 STATUS    MESSAGE   ERROR', 'scheduler            Healthy   ok', 'controller-manager   Healthy   ok', 'etcd-0               Healthy   ok', ''].join('\n');
  const out = printTable(ofKind('ComponentStatus'), { kind: 'ComponentStatus', nowMs: NOW_MS, epochMs: EPOCH_MS });
  it('matches the article once trailing spaces are trimmed', () => {
    expect(out.replace(/ +$/gm, '')).toBe(seed);
  });
  it('keeps the trailing spaces kubectl prints', () => {
    expect(out.split('\n')[1]).toBe('scheduler            Healthy   ok        ');
  });
});
