/**
 * The terminal's line discipline, without a DOM: xterm.js renders a terminal but is "not bash"
 * (xtermjs/xterm.js README, "What xterm.js is not"), so the keystrokes it hands over (`onData`
 * strings: printable text, control characters, VT escape sequences, whole pastes) are turned
 * here into an edit buffer with a cursor, readline-style history, and actions (run a line,
 * Ctrl-C, Ctrl-L, Tab), plus the escape sequences that redraw the edited line.
 *
 * Keys follow GNU readline's emacs mode as bash binds it: Left/Right (Ctrl-B/F), Home/End
 * (Ctrl-A/E), Backspace, Delete (Ctrl-D on a non-empty line), Ctrl-U (kill to the start),
 * Ctrl-K (kill to the end), Ctrl-W (unix-word-rubout: back to the previous blank), Ctrl-Left/Right
 * and Alt-B/F (words), Up/Down (Ctrl-P/N) through the history. Ctrl-D on an empty line is EOF.
 */

/** The edit buffer and the history. Immutable: `keystroke` returns a new state. */
export interface EditorState {
  /** The line being edited (no newline). */
  buffer: string;
  /** Cursor offset into `buffer` (0..buffer.length). */
  cursor: number;
  /** Earlier lines, oldest first. */
  history: readonly string[];
  /** Which history line is shown: `history.length` is the line being typed (`draft`). */
  histIndex: number;
  /** The line being typed, kept while the person browses the history. */
  draft: string;
}

/** What the terminal has to do after a keystroke, besides redrawing the line. */
export type EditorAction =
  /** Enter: run `line` (the buffer is empty again). */
  | { type: 'submit'; line: string }
  /** Ctrl-C. */
  | { type: 'interrupt' }
  /** Ctrl-L: clear the screen. */
  | { type: 'clear' }
  /** Tab: complete the word before the cursor. */
  | { type: 'complete' }
  /** Ctrl-D on an empty line. */
  | { type: 'eof' };

/** Lines kept in the history (bash's HISTSIZE default is 500). */
export const HISTORY_KEPT = 500;

/** A fresh editor over `history`. */
export function newEditor(history: readonly string[] = []): EditorState {
  return { buffer: '', cursor: 0, history, histIndex: history.length, draft: '' };
}

/**
 * Split what xterm's `onData` delivered into single keystrokes: one escape sequence
 * (`ESC [ ... final`, `ESC O x`, `ESC x`) or one character each. A paste arrives as one string
 * with `\r` between lines; it splits into its characters and Enters.
 */
export function splitKeys(data: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < data.length) {
    const c = data[i];
    if (c === '\x1b' && i + 1 < data.length) {
      const n = data[i + 1];
      if (n === '[') {
        let j = i + 2;
        while (j < data.length && !/[A-Za-z~]/.test(data[j])) j++;
        keys.push(data.slice(i, j + 1));
        i = j + 1;
        continue;
      }
      if (n === 'O' && i + 2 < data.length) {
        keys.push(data.slice(i, i + 3));
        i += 3;
        continue;
      }
      keys.push(data.slice(i, i + 2));
      i += 2;
      continue;
    }
    // Windows line ends in a paste: one Enter.
    if (c === '\r' && data[i + 1] === '\n') {
      keys.push('\r');
      i += 2;
      continue;
    }
    const cp = data.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    keys.push(ch);
    i += ch.length;
  }
  return keys;
}

const isBlank = (c: string | undefined) => c === ' ' || c === '\t';

/** Offset of the start of the word before `cursor` (readline backward-word: skip blanks, then non-blanks). */
export function wordStartBefore(buffer: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && isBlank(buffer[i - 1])) i--;
  while (i > 0 && !isBlank(buffer[i - 1])) i--;
  return i;
}

/** Offset of the end of the word after `cursor` (readline forward-word). */
export function wordEndAfter(buffer: string, cursor: number): number {
  let i = cursor;
  while (i < buffer.length && isBlank(buffer[i])) i++;
  while (i < buffer.length && !isBlank(buffer[i])) i++;
  return i;
}

function edit(s: EditorState, buffer: string, cursor: number): EditorState {
  return { ...s, buffer, cursor };
}

/** Add `line` to `history` (not blank, not a repeat of the last; at most HISTORY_KEPT). */
export function remember(history: readonly string[], line: string): string[] {
  const h = [...history];
  if (line.trim() !== '' && h[h.length - 1] !== line) h.push(line);
  return h.slice(-HISTORY_KEPT);
}

/**
 * Apply one keystroke (as `splitKeys` returns them). Printable text is inserted at the cursor;
 * unknown control keys and escape sequences change nothing.
 */
export function keystroke(s: EditorState, key: string): { state: EditorState; action?: EditorAction } {
  const { buffer, cursor } = s;
  switch (key) {
    case '\r':
    case '\n': {
      const history = remember(s.history, buffer);
      return { state: { buffer: '', cursor: 0, history, histIndex: history.length, draft: '' }, action: { type: 'submit', line: buffer } };
    }
    case '\x03':
      return { state: { ...s, buffer: '', cursor: 0, histIndex: s.history.length, draft: '' }, action: { type: 'interrupt' } };
    case '\x0c':
      return { state: s, action: { type: 'clear' } };
    case '\t':
      return { state: s, action: { type: 'complete' } };
    case '\x04':
      if (buffer === '') return { state: s, action: { type: 'eof' } };
      return { state: edit(s, buffer.slice(0, cursor) + buffer.slice(cursor + 1), cursor) };
    case '\x7f':
    case '\b':
      if (cursor === 0) return { state: s };
      return { state: edit(s, buffer.slice(0, cursor - 1) + buffer.slice(cursor), cursor - 1) };
    case '\x1b[3~':
      return { state: edit(s, buffer.slice(0, cursor) + buffer.slice(cursor + 1), cursor) };
    case '\x1b[D':
    case '\x1bOD':
    case '\x02':
      return { state: { ...s, cursor: Math.max(0, cursor - 1) } };
    case '\x1b[C':
    case '\x1bOC':
    case '\x06':
      return { state: { ...s, cursor: Math.min(buffer.length, cursor + 1) } };
    case '\x1b[H':
    case '\x1bOH':
    case '\x1b[1~':
    case '\x01':
      return { state: { ...s, cursor: 0 } };
    case '\x1b[F':
    case '\x1bOF':
    case '\x1b[4~':
    case '\x05':
      return { state: { ...s, cursor: buffer.length } };
    case '\x1b[1;5D':
    case '\x1b[1;3D':
    case '\x1bb':
      return { state: { ...s, cursor: wordStartBefore(buffer, cursor) } };
    case '\x1b[1;5C':
    case '\x1b[1;3C':
    case '\x1bf':
      return { state: { ...s, cursor: wordEndAfter(buffer, cursor) } };
    case '\x15':
      return { state: edit(s, buffer.slice(cursor), 0) };
    case '\x0b':
      return { state: edit(s, buffer.slice(0, cursor), cursor) };
    case '\x17': {
      const from = wordStartBefore(buffer, cursor);
      return { state: edit(s, buffer.slice(0, from) + buffer.slice(cursor), from) };
    }
    case '\x1b[A':
    case '\x1bOA':
    case '\x10': {
      if (s.histIndex === 0) return { state: s };
      const draft = s.histIndex === s.history.length ? buffer : s.draft;
      const line = s.history[s.histIndex - 1];
      return { state: { ...s, draft, histIndex: s.histIndex - 1, buffer: line, cursor: line.length } };
    }
    case '\x1b[B':
    case '\x1bOB':
    case '\x0e': {
      if (s.histIndex >= s.history.length) return { state: s };
      const i = s.histIndex + 1;
      const line = i === s.history.length ? s.draft : s.history[i];
      return { state: { ...s, histIndex: i, buffer: line, cursor: line.length } };
    }
  }
  // Printable text (no control characters, no escape sequences).
  if (key.startsWith('\x1b') || [...key].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f')) return { state: s };
  return { state: edit(s, buffer.slice(0, cursor) + key + buffer.slice(cursor), cursor + key.length) };
}

/**
 * Insert a completion: replace `buffer.slice(start, end)` with `word`, and a blank after it
 * when it is whole (`final`) and does not end in `/` or `=` (more follows those).
 */
export function insertCompletion(s: EditorState, start: number, end: number, word: string, final: boolean): EditorState {
  const tail = final && !/[/=]$/.test(word) && s.buffer[end] !== ' ' ? ' ' : '';
  const buffer = s.buffer.slice(0, start) + word + tail + s.buffer.slice(end);
  return { ...s, buffer, cursor: start + word.length + tail.length };
}

/** Where the cursor sits, counted from the first cell of the prompt. */
export interface LinePosition {
  /** Rows below the prompt's row. */
  row: number;
}

/**
 * The escape sequences that redraw the prompt and the buffer in place, for a terminal `cols`
 * wide, when the cursor is now `from.row` rows below the prompt's row. The prompt is `prompt`
 * (may carry SGR colour codes) of `promptWidth` cells. Returns the output and where the cursor
 * is afterwards. A line that fills its last row exactly gets the cursor moved onto the next row
 * (`' \b'`), so rows are counted the same way xterm wraps them.
 */
export function redraw(prompt: string, promptWidth: number, buffer: string, cursor: number, cols: number, from: LinePosition): { out: string; at: LinePosition } {
  const width = Math.max(1, cols);
  let out = from.row > 0 ? `\x1b[${from.row}A` : '';
  out += `\r\x1b[J${prompt}${buffer}`;
  const total = promptWidth + buffer.length;
  if (total > 0 && total % width === 0) out += ' \b';
  const endRow = Math.floor(total / width);
  const target = promptWidth + cursor;
  const row = Math.floor(target / width);
  if (endRow > row) out += `\x1b[${endRow - row}A`;
  out += `\x1b[${(target % width) + 1}G`;
  return { out, at: { row } };
}

/** The escape sequences that erase the prompt and the buffer (to print output above them). */
export function erase(from: LinePosition): string {
  return `${from.row > 0 ? `\x1b[${from.row}A` : ''}\r\x1b[J`;
}

/** Output text for the terminal: bare `\n` line ends become `\r\n` (the shell prints `\n`). */
export function toTerminal(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/**
 * Candidates listed the way bash lists them after a double Tab: in columns, sorted down each
 * column, as wide as the terminal allows (two blanks between columns). Returns the lines.
 */
export function columns(words: readonly string[], cols: number): string[] {
  if (words.length === 0) return [];
  const w = Math.max(...words.map((x) => x.length)) + 2;
  const perRow = Math.max(1, Math.floor(cols / w));
  const rows = Math.ceil(words.length / perRow);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < perRow; c++) {
      const word = words[c * rows + r];
      if (word === undefined) continue;
      line += c * rows + r + rows < words.length && c < perRow - 1 ? word.padEnd(w) : word;
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** The longest prefix all of `words` share ('' for none). */
export function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let p = words[0];
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}
