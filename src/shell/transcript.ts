/**
 * Scripts of shell lines run as a transcript: what a terminal shows when someone types them.
 * For each input the prompt and the line (`$ kubectl get pods`), continuation lines of a
 * here-document or a trailing `|`/`&&`/`\` behind bash's PS2 (`> `), then what the line printed
 * (stdout and stderr interleaved as written). Time passes as the lines make it pass (`sleep`,
 * watches, waits) plus a small fixed cost per line (`LINE_LATENCY_MS`): the same script on the
 * same seed gives the same bytes.
 */
import { inputStatus } from './parse';
import { CONTINUATION_PROMPT, runToCompletion, type Shell } from './shell';
import { LINE_LATENCY_MS } from './session-constants';

/** One input of a script: its lines (the first typed at the prompt, the rest at `> `). */
export interface ScriptInput {
  lines: string[];
  /** 1-based line number of the first line in the script. */
  lineNo: number;
}

/**
 * Group a script's lines into inputs as an interactive bash would read them: a line that leaves
 * the input incomplete (open quote, here-document, trailing `|`) takes the next lines too. Blank
 * lines between inputs are dropped.
 */
export function splitInputs(script: string): ScriptInput[] {
  const lines = script.replace(/\r\n/g, '\n').split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: ScriptInput[] = [];
  let cur: string[] = [];
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    if (cur.length === 0) {
      if (lines[i].trim() === '') continue;
      start = i + 1;
    }
    cur.push(lines[i]);
    if (inputStatus(cur.join('\n') + '\n').status !== 'incomplete') {
      out.push({ lines: cur, lineNo: start });
      cur = [];
    }
  }
  if (cur.length) out.push({ lines: cur, lineNo: start });
  return out;
}

export { LINE_LATENCY_MS };

/** Options of `runTranscript`. */
export interface TranscriptOptions {
  /** Interrupt a line (Ctrl-C, shown as `^C`) after this much virtual time. Default 10 minutes. */
  lineTimeoutMs?: number;
  /** Virtual ms that pass after each input (default `LINE_LATENCY_MS`; 0 = none). */
  lineLatencyMs?: number;
  /** Told about each input before it runs (the CLI's `--record`). */
  onInput?: (input: ScriptInput, prompt: string) => void;
  /** Told about each input after it ran. */
  onDone?: (input: ScriptInput, exitCode: number) => void;
}

/**
 * Run a script in `shell` and return the transcript. Stops early after `exit` on the laptop.
 */
export function runTranscript(shell: Shell, script: string, opts: TranscriptOptions = {}): string {
  let out = '';
  for (const input of splitInputs(script)) {
    if (shell.exited) break;
    const prompt = shell.prompt;
    opts.onInput?.(input, prompt);
    out += `${prompt}${input.lines[0]}\n`;
    for (const l of input.lines.slice(1)) out += `${CONTINUATION_PROMPT}${l}\n`;
    const r = runToCompletion(shell, input.lines.join('\n') + '\n', { maxVirtualMs: opts.lineTimeoutMs });
    out += r.text;
    if (r.text && !r.text.endsWith('\n')) out += '\n';
    if (r.timedOut) out += '^C\n';
    const clock = shell.opts.ctx.clock;
    const latency = opts.lineLatencyMs ?? LINE_LATENCY_MS;
    if (latency > 0) clock.runUntil(clock.now() + latency);
    opts.onDone?.(input, r.exitCode);
  }
  return out;
}
