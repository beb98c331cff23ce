/**
 * The terminal under the map: @xterm/xterm 6 running the playground shell in the simulation
 * worker. Loaded on demand (React.lazy in src/ui/views/TerminalPanel.tsx: xterm stays out of the
 * initial bundle).
 *
 * xterm.js draws; the line discipline is ours (./lineEditor.ts): prompt, editing keys, history
 * (kept in localStorage), continuation lines (`> `) while the input is incomplete (an open
 * here-document, quote or trailing `|`), Ctrl-C (`interrupt` to the worker), Ctrl-L, Tab
 * (`complete` to the worker), copy (the selection) and paste (line by line).
 *
 * What it shows is the store's `shell` entries (src/ui/state/store.ts): the lines typed here and
 * the lines the rest of the UI runs (inspector buttons, the editor's applies), each echoed after
 * the prompt as if typed, with its output streamed chunk by chunk, stderr in its own colour.
 */
import { useEffect, useRef, useState } from 'react';
import { Terminal as XTerm, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import { simStore, type ShellEntry } from '../state/store';
import { inputStatus } from '../../shell/parse';
import { columns, commonPrefix, erase, insertCompletion, keystroke, newEditor, redraw, splitKeys, toTerminal, type EditorState, type LinePosition } from './lineEditor';

/** localStorage key of the history. */
const HISTORY_KEY = 'cluster-playground:terminal-history';
/** The continuation prompt (bash's PS2). */
const PS2 = '> ';

/** Dark theme, every colour >= 7:1 on the background (readable on a projector). */
const THEME: ITheme = {
  background: '#10151c',
  foreground: '#e8edf3',
  cursor: '#e8edf3',
  cursorAccent: '#10151c',
  selectionBackground: '#3a5a8c',
  selectionForeground: '#ffffff',
};
/** SGR colours: the host prompt, a node's prompt, stderr, a Ctrl-C. */
const SGR = {
  hostPrompt: '\x1b[1;38;2;126;231;135m',
  nodePrompt: '\x1b[1;38;2;255;200;110m',
  stderr: '\x1b[38;2;255;166;150m',
  dim: '\x1b[38;2;160;172;186m',
  reset: '\x1b[0m',
};

function loadHistory(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function saveHistory(history: readonly string[]): void {
  try {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // storage full or blocked (sandboxed embed): the history lives for this page only
  }
}

/** What tests (and people debugging) can read: the terminal's text as seen. */
export interface TerminalProbe {
  /** Every line of the buffer (scrollback included), wrapped rows joined, right-trimmed. */
  text(): string;
  /** The prompt shown now ('' while a line runs). */
  prompt(): string;
}

declare global {
  interface Window {
    __terminal?: TerminalProbe;
  }
}

/** The imperative part: one xterm and its line discipline, fed by the store. */
class TerminalSession {
  readonly term: XTerm;
  private readonly fit = new FitAddon();
  private editor: EditorState = newEditor(loadHistory());
  private pos: LinePosition = { row: 0 };
  /** The prompt and the buffer are on screen. */
  private promptShown = false;
  /** Lines of an incomplete input (here-document, open quote) typed so far. */
  private pending: string[] = [];
  /** Keystrokes typed while a line runs (typeahead, a paste's later lines). */
  private typeahead: string[] = [];
  /** The entry whose output is being shown. */
  private active: number | undefined;
  /** Entries already echoed and how many of their chunks are written. */
  private written = new Map<number, { chunks: number; done: boolean }>();
  /** The line being handed to the store by a submit here (its echo is the typing itself). */
  private submitting: string | undefined;
  /** The output so far ended with a newline (else one is added before the prompt). */
  private atLineStart = true;
  private completing = 0;
  private readonly disposers: (() => void)[] = [];

  constructor(private readonly host: HTMLElement, fontSize: number) {
    this.term = new XTerm({
      fontSize,
      fontFamily: "'DejaVu Sans Mono', 'Liberation Mono', ui-monospace, Menlo, Consolas, monospace",
      lineHeight: 1.15,
      theme: THEME,
      cursorBlink: true,
      scrollback: 5000,
      allowProposedApi: false,
      // Right-click selects a word (copy with Ctrl-Shift-C / the browser's menu).
      rightClickSelectsWord: true,
    });
    this.term.loadAddon(this.fit);
    this.term.open(host);
    // Ctrl-C copies when there is a selection (and interrupts otherwise); Ctrl-Shift-C/V as in terminals.
    this.term.attachCustomKeyEventHandler((e) => {
      if (e.type !== 'keydown') return true;
      const key = e.key.toLowerCase();
      if ((e.ctrlKey || e.metaKey) && key === 'c' && (e.shiftKey || this.term.hasSelection())) {
        const sel = this.term.getSelection();
        if (sel) void navigator.clipboard?.writeText(sel).catch(() => {});
        e.preventDefault();
        return false;
      }
      // Ctrl-V / Ctrl-Shift-V: left to the browser, whose paste event xterm turns into input.
      if ((e.ctrlKey || e.metaKey) && key === 'v') return false;
      return true;
    });
    const onData = this.term.onData((data) => this.input(data));
    this.disposers.push(() => onData.dispose());

    // fit() in a hidden or zero-size container gives 0 columns: fit when the panel has a size.
    const ro = new ResizeObserver(() => this.resize());
    ro.observe(host);
    this.disposers.push(() => ro.disconnect());
    this.resize();

    // Lines issued before the terminal loaded, then everything that comes.
    this.sync(simStore.getState().shell);
    this.disposers.push(simStore.subscribe((s) => s.shell, (shell) => this.sync(shell)));
    this.disposers.push(
      simStore.subscribe(
        (s) => s.prompt,
        () => {
          if (this.promptShown && this.pending.length === 0) this.showPrompt();
        },
      ),
    );
    // A reset boots a new cluster with a new shell: it starts on the laptop.
    this.disposers.push(
      simStore.subscribe(
        (s) => s.run.booting === true,
        (booting) => {
          if (!booting) return;
          if (simStore.getState().prompt !== '$ ') simStore.setState({ prompt: '$ ' });
          // A line still running went with the old cluster: it never finishes.
          if (this.active !== undefined) {
            const w = this.written.get(this.active);
            if (w) w.done = true;
            this.active = undefined;
            this.typeahead = [];
            this.newPrompt();
          }
        },
      ),
    );
    if (this.active === undefined) this.newPrompt();

    window.__terminal = {
      text: () => this.text(),
      prompt: () => (this.promptShown ? this.promptText() : ''),
    };
  }

  dispose(): void {
    for (const d of this.disposers.splice(0)) d();
    if (window.__terminal) delete window.__terminal;
    this.term.dispose();
  }

  focus(): void {
    this.term.focus();
  }

  private resize(): void {
    if (this.host.clientWidth === 0 || this.host.clientHeight === 0) return;
    const before = this.term.cols;
    try {
      this.fit.fit();
    } catch {
      return;
    }
    if (this.term.cols !== before && this.promptShown) this.showPrompt();
  }

  private text(): string {
    const b = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < b.length; i++) {
      const l = b.getLine(i);
      if (!l) continue;
      const t = l.translateToString(true);
      if (l.isWrapped && lines.length > 0) lines[lines.length - 1] += t;
      else lines.push(t);
    }
    return lines.map((l) => l.trimEnd()).join('\n').trimEnd();
  }

  // ------------------------------------------------------------------------------ prompt

  private promptText(): string {
    return this.pending.length > 0 ? PS2 : simStore.getState().prompt;
  }

  private styledPrompt(p = this.promptText()): string {
    if (p === PS2) return p;
    return `${p.startsWith('$') ? SGR.hostPrompt : SGR.nodePrompt}${p}${SGR.reset}`;
  }

  /** Redraw the prompt and the buffer where they are. */
  private showPrompt(): void {
    const p = this.promptText();
    const r = redraw(this.styledPrompt(p), p.length, this.editor.buffer, this.editor.cursor, this.term.cols, this.promptShown ? this.pos : { row: 0 });
    this.term.write(r.out);
    this.pos = r.at;
    this.promptShown = true;
  }

  /** A fresh prompt on a line of its own. */
  private newPrompt(): void {
    if (!this.atLineStart) this.term.write('\r\n');
    this.atLineStart = true;
    this.promptShown = false;
    this.pos = { row: 0 };
    this.showPrompt();
  }

  /** Leave the edited line as it is, cursor after it, and go to the next line. */
  private endLine(text: string, suffix = ''): void {
    const p = this.promptText();
    const r = redraw(this.styledPrompt(p), p.length, text, text.length, this.term.cols, this.pos);
    this.term.write(`${r.out}${suffix}\r\n`);
    this.promptShown = false;
    this.pos = { row: 0 };
    this.atLineStart = true;
  }

  // ------------------------------------------------------------------------------ keys

  private input(data: string): void {
    for (const key of splitKeys(data)) this.key(key);
  }

  private key(key: string): void {
    if (this.active !== undefined) {
      if (key === '\x03') {
        this.typeahead = [];
        this.term.write(`${SGR.dim}^C${SGR.reset}`);
        this.atLineStart = false;
        simStore.getState().interrupt();
      } else if (key === '\x0c') {
        this.term.clear();
      } else this.typeahead.push(key);
      return;
    }
    const line = this.editor.buffer;
    const continuing = this.pending.length > 0;
    const before = this.editor.history;
    const r = keystroke(this.editor, key);
    this.editor = r.state;
    switch (r.action?.type) {
      case undefined:
        this.showPrompt();
        return;
      case 'submit':
        if (continuing) this.editor = { ...this.editor, history: before, histIndex: before.length };
        else if (this.editor.history !== before) saveHistory(this.editor.history);
        this.endLine(line);
        this.submit(line);
        return;
      case 'interrupt':
        this.endLine(line, `${SGR.dim}^C${SGR.reset}`);
        this.pending = [];
        this.newPrompt();
        return;
      case 'clear':
        this.term.clear();
        this.term.write(erase(this.pos));
        this.promptShown = false;
        this.pos = { row: 0 };
        this.showPrompt();
        return;
      case 'complete':
        void this.complete();
        return;
      case 'eof':
        // Ctrl-D on an empty line leaves a node's shell (as `exit` does); on the laptop it does nothing.
        if (!continuing && !simStore.getState().prompt.startsWith('$')) {
          this.endLine('exit');
          this.submit('exit');
        }
        return;
    }
  }

  private submit(line: string): void {
    const full = [...this.pending, line].join('\n');
    if (inputStatus(full).status === 'incomplete') {
      this.pending.push(line);
      this.showPrompt();
      return;
    }
    this.pending = [];
    if (full.trim() === '') {
      this.newPrompt();
      return;
    }
    // runLine notifies the store's subscribers (this.sync) at once: the entry is known as ours there.
    this.submitting = full;
    try {
      simStore.getState().runLine(full);
    } finally {
      this.submitting = undefined;
    }
    this.sync(simStore.getState().shell);
  }

  private async complete(): Promise<void> {
    const { buffer, cursor } = this.editor;
    const ticket = ++this.completing;
    const c = await simStore.getState().complete(buffer, cursor);
    if (ticket !== this.completing || this.active !== undefined || this.editor.buffer !== buffer || this.editor.cursor !== cursor) return;
    if (c.candidates.length === 0) return;
    if (c.candidates.length === 1) {
      this.editor = insertCompletion(this.editor, c.start, c.end, c.candidates[0], true);
      this.showPrompt();
      return;
    }
    const prefix = commonPrefix(c.candidates);
    if (prefix.length > c.end - c.start) {
      this.editor = insertCompletion(this.editor, c.start, c.end, prefix, false);
      this.showPrompt();
      return;
    }
    // Several, nothing more in common: list them below the line (bash's second Tab), then the line again.
    this.endLine(buffer);
    for (const l of columns(c.candidates, this.term.cols)) this.term.write(`${l}\r\n`);
    this.showPrompt();
  }

  // ------------------------------------------------------------------------------ output

  /** Show what changed in the store's shell entries, in order. */
  private sync(shell: readonly ShellEntry[]): void {
    for (const e of shell) {
      let w = this.written.get(e.id);
      if (w?.done) continue;
      if (this.active !== undefined && this.active !== e.id) {
        // Lines run one at a time: a later one starts when the active one is done.
        continue;
      }
      if (!w && this.submitting !== undefined && e.line === this.submitting) {
        this.submitting = undefined;
        w = { chunks: 0, done: false };
        this.written.set(e.id, w);
        this.active = e.id;
      }
      if (!w) {
        // A line from elsewhere in the UI: echo it after the prompt, as if typed.
        if (this.promptShown) this.term.write(erase(this.pos));
        this.promptShown = false;
        this.pos = { row: 0 };
        if (!this.atLineStart) this.term.write('\r\n');
        const p = simStore.getState().prompt;
        this.term.write(`${this.styledPrompt(p)}${toTerminal(e.line)}\r\n`);
        this.atLineStart = true;
        w = { chunks: 0, done: false };
        this.written.set(e.id, w);
        this.active = e.id;
      }
      for (const c of e.chunks.slice(w.chunks)) {
        const text = toTerminal(c.text);
        this.term.write(c.stream === 'stderr' ? `${SGR.stderr}${text}${SGR.reset}` : text);
        if (text) this.atLineStart = text.endsWith('\n');
      }
      w.chunks = e.chunks.length;
      if (!e.done) return;
      w.done = true;
      this.active = undefined;
    }
    if (this.active === undefined && !this.promptShown) {
      this.newPrompt();
      const keys = this.typeahead.splice(0);
      for (const k of keys) this.key(k);
    }
  }
}

/** The default font size: larger on wide screens (projectors). */
function fontSizeFor(width: number): number {
  return width >= 1800 ? 17 : width >= 1400 ? 16 : 15;
}

/** The terminal panel's content (default export for React.lazy). */
/** Props of the terminal: the panel's collapse state, shown as a toggle in the title bar. */
export interface ShellTerminalProps {
  /** The panel is folded down to its title bar (the session keeps running). */
  collapsed?: boolean;
  /** Fold or unfold the panel. */
  onToggleCollapsed?: () => void;
}

export default function ShellTerminal({ collapsed = false, onToggleCollapsed }: ShellTerminalProps = {}) {
  const ref = useRef<HTMLDivElement>(null);
  const session = useRef<TerminalSession | undefined>(undefined);
  const [readerMode, setReaderMode] = useState(false);
  useEffect(() => {
    const s = new TerminalSession(ref.current!, fontSizeFor(window.innerWidth));
    session.current = s;
    return () => {
      s.dispose();
      session.current = undefined;
    };
  }, []);
  useEffect(() => {
    if (session.current) session.current.term.options.screenReaderMode = readerMode;
  }, [readerMode]);
  return (
    <div className="term-wrap">
      <div className="term-bar">
        <span className="term-title" id="term-title">
          Terminal
        </span>
        <span className="term-hint muted small">Tab completes · ↑↓ history · Ctrl-C stops a line · Ctrl-L clears</span>
        <label className="term-reader small">
          <input type="checkbox" checked={readerMode} onChange={(e) => setReaderMode(e.target.checked)} /> Screen reader mode
        </label>
        {onToggleCollapsed ? (
          <button type="button" className="term-toggle" aria-expanded={!collapsed} aria-controls="term-host" onClick={onToggleCollapsed}>
            {collapsed ? '▴ Show' : '▾ Hide'}
          </button>
        ) : null}
      </div>
      <div className="term-host" id="term-host" ref={ref} role="region" aria-labelledby="term-title" onClick={() => session.current?.focus()} />
    </div>
  );
}
