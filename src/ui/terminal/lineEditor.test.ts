import { describe, expect, it } from 'vitest';
import { columns, commonPrefix, erase, insertCompletion, keystroke, newEditor, redraw, remember, splitKeys, toTerminal, type EditorAction, type EditorState } from './lineEditor';

/** Type `data` (as xterm's onData delivers it) into `s`; returns the state and the actions. */
function type(s: EditorState, data: string): { s: EditorState; actions: EditorAction[] } {
  const actions: EditorAction[] = [];
  for (const k of splitKeys(data)) {
    const r = keystroke(s, k);
    s = r.state;
    if (r.action) actions.push(r.action);
  }
  return { s, actions };
}

const LEFT = '\x1b[D';
const RIGHT = '\x1b[C';
const UP = '\x1b[A';
const DOWN = '\x1b[B';

describe('splitKeys', () => {
  it('splits escape sequences, characters and pasted lines', () => {
    expect(splitKeys('ab\x1b[D\x1b[3~\x1bOH\x1bb\r')).toEqual(['a', 'b', '\x1b[D', '\x1b[3~', '\x1bOH', '\x1bb', '\r']);
    expect(splitKeys('one\r\ntwo\r')).toEqual(['o', 'n', 'e', '\r', 't', 'w', 'o', '\r']);
    expect(splitKeys('\x1b[1;5C')).toEqual(['\x1b[1;5C']);
  });
});

describe('keystroke', () => {
  it('inserts at the cursor and moves with the arrows, Home and End', () => {
    let { s } = type(newEditor(), 'kubectl get pods');
    expect(s).toMatchObject({ buffer: 'kubectl get pods', cursor: 16 });
    ({ s } = type(s, `${LEFT}${LEFT}${LEFT}${LEFT}${LEFT}x`));
    expect(s).toMatchObject({ buffer: 'kubectl getx pods', cursor: 12 });
    ({ s } = type(s, '\x01#'));
    expect(s).toMatchObject({ buffer: '#kubectl getx pods', cursor: 1 });
    ({ s } = type(s, `\x05${RIGHT}!`));
    expect(s.buffer).toBe('#kubectl getx pods!');
    ({ s } = type(s, '\x1b[H\x1b[3~\x1b[F\x7f'));
    expect(s).toMatchObject({ buffer: 'kubectl getx pods', cursor: 17 });
  });

  it('kills with Ctrl-U, Ctrl-K and Ctrl-W', () => {
    let { s } = type(newEditor(), 'kubectl get pods -n bookshop');
    ({ s } = type(s, '\x17'));
    expect(s).toMatchObject({ buffer: 'kubectl get pods -n ', cursor: 20 });
    ({ s } = type(s, '\x17\x17'));
    expect(s.buffer).toBe('kubectl get ');
    ({ s } = type(s, `${LEFT}${LEFT}${LEFT}${LEFT}\x0b`));
    expect(s).toMatchObject({ buffer: 'kubectl ', cursor: 8 });
    ({ s } = type(s, `${LEFT}${LEFT}\x15`));
    expect(s).toMatchObject({ buffer: 'l ', cursor: 0 });
  });

  it('moves by words with Ctrl-Left/Right', () => {
    let { s } = type(newEditor(), 'kubectl get pods');
    ({ s } = type(s, '\x1b[1;5D'));
    expect(s.cursor).toBe(12);
    ({ s } = type(s, '\x1b[1;5D\x1b[1;5D'));
    expect(s.cursor).toBe(0);
    ({ s } = type(s, '\x1b[1;5C'));
    expect(s.cursor).toBe(7);
  });

  it('submits on Enter and remembers the line; Up/Down walk the history and keep the draft', () => {
    const first = type(newEditor(['kubectl get nodes']), 'kubectl get pods\r');
    let s = first.s;
    expect(first.actions).toEqual([{ type: 'submit', line: 'kubectl get pods' }]);
    expect(s).toMatchObject({ buffer: '', cursor: 0, history: ['kubectl get nodes', 'kubectl get pods'] });
    ({ s } = type(s, 'draft'));
    ({ s } = type(s, UP));
    expect(s.buffer).toBe('kubectl get pods');
    ({ s } = type(s, `${UP}${UP}`));
    expect(s.buffer).toBe('kubectl get nodes');
    ({ s } = type(s, DOWN));
    expect(s.buffer).toBe('kubectl get pods');
    ({ s } = type(s, DOWN));
    expect(s).toMatchObject({ buffer: 'draft', cursor: 5 });
  });

  it('runs a multi-line paste line by line', () => {
    const { actions } = type(newEditor(), 'echo one\recho two\r');
    expect(actions).toEqual([
      { type: 'submit', line: 'echo one' },
      { type: 'submit', line: 'echo two' },
    ]);
  });

  it('turns Ctrl-C, Ctrl-L, Tab and Ctrl-D into actions', () => {
    const { s, actions } = type(newEditor(), 'sleep 30\x03');
    expect(s.buffer).toBe('');
    expect(actions).toEqual([{ type: 'interrupt' }]);
    expect(type(s, '\x0c\t\x04').actions).toEqual([{ type: 'clear' }, { type: 'complete' }, { type: 'eof' }]);
    expect(type(newEditor(), 'ab\x01\x04').s.buffer).toBe('b');
  });

  it('ignores unknown control keys', () => {
    expect(type(newEditor(), 'a\x1b[15~\x07b').s.buffer).toBe('ab');
  });
});

describe('history', () => {
  it('skips blanks and repeats, keeps the last 500', () => {
    expect(remember(['a'], 'a')).toEqual(['a']);
    expect(remember(['a'], '  ')).toEqual(['a']);
    const many = Array.from({ length: 500 }, (_, i) => `l${i}`);
    expect(remember(many, 'new')).toHaveLength(500);
    expect(remember(many, 'new').at(-1)).toBe('new');
  });
});

describe('completion insertion', () => {
  it('replaces the word and adds a blank after a whole word', () => {
    const s = type(newEditor(), 'kubectl get depl').s;
    expect(insertCompletion(s, 12, 16, 'deployments', true)).toMatchObject({ buffer: 'kubectl get deployments ', cursor: 24 });
    expect(insertCompletion(s, 12, 16, 'deployment', false)).toMatchObject({ buffer: 'kubectl get deployment', cursor: 22 });
    expect(insertCompletion(s, 12, 16, 'deployment/', true).buffer).toBe('kubectl get deployment/');
  });
});

describe('redraw', () => {
  it('redraws the prompt and buffer and places the cursor', () => {
    const r = redraw('$ ', 2, 'kubectl', 3, 80, { row: 0 });
    expect(r.out).toBe('\r\x1b[J$ kubectl\x1b[6G');
    expect(r.at).toEqual({ row: 0 });
  });

  it('counts wrapped rows: goes up from the cursor row first, and back up from the end', () => {
    // 2 + 18 = 20 cells on a 10-wide terminal: exactly two rows, the cursor goes to a third.
    const r = redraw('$ ', 2, 'abcdefghijklmnopqr', 5, 10, { row: 1 });
    expect(r.out).toBe('\x1b[1A\r\x1b[J$ abcdefghijklmnopqr \b\x1b[2A\x1b[8G');
    expect(r.at).toEqual({ row: 0 });
    expect(erase({ row: 2 })).toBe('\x1b[2A\r\x1b[J');
  });

  it('converts line ends and lists candidates in columns', () => {
    expect(toTerminal('a\nb\r\nc')).toBe('a\r\nb\r\nc');
    expect(columns(['alpha', 'beta', 'gamma', 'delta', 'epsilon'], 30)).toEqual(['alpha    gamma    epsilon', 'beta     delta']);
  });
});

describe('commonPrefix', () => {
  it('finds the common prefix of several candidates', () => {
    expect(commonPrefix(['catalog-7d4b9c-abcde', 'catalog-7d4b9c-fghij'])).toBe('catalog-7d4b9c-');
    expect(commonPrefix([])).toBe('');
  });
});
