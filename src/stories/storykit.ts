/**
 * Story tests' kit: a booted kind cluster (the product's start state) with the playground shell
 * on the laptop next to it, driven the way a user drives it - typed lines, one after another, in
 * virtual time - and the transcript split into what each line printed.
 *
 * Pure (no Node APIs): the test files pass the working directory's files in (`bookshopFiles()`
 * from src/cli.ts).
 */
import { bootedCluster, type Cluster } from '../engine/cluster';
import { MemoryFiles } from '../shell/files';
import { createPlaygroundShell } from '../shell/playground';
import type { Shell } from '../shell/shell';
import { runTranscript } from '../shell/transcript';

/** One typed input and what it printed (continuation lines `> ...` belong to the input). */
export interface Block {
  /** The input as typed, first line without the prompt. */
  input: string;
  /** Everything printed after the input, newline-terminated lines. */
  output: string;
}

/** A running story: the cluster, its shell, and the transcript so far. */
export interface Story {
  cluster: Cluster;
  shell: Shell;
  /** Every line run so far, as a terminal shows it. */
  transcript: string;
  /**
   * Run lines (a script: one input per line, here-documents allowed) and return the blocks
   * they printed. `lineTimeoutSecs` bounds each line in virtual seconds (default 3600).
   */
  run(script: string, lineTimeoutSecs?: number): Block[];
  /** Run one input and return its output. */
  out(line: string): string;
}

/** Options of `story`. */
export interface StoryOptions {
  /** The cluster's seed (default 1). */
  seed?: number;
  /** The shell's working directory (path -> content). */
  files?: Record<string, string>;
  /** kube-system only, no bookshop. */
  bare?: boolean;
}

/** Split a transcript into blocks at each `$ ` prompt (the laptop's PS1). */
export function splitBlocks(transcript: string): Block[] {
  const blocks: Block[] = [];
  const lines = transcript.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let cur: { input: string[]; output: string[]; inInput: boolean } | undefined;
  for (const l of lines) {
    if (l.startsWith('$ ')) {
      if (cur) blocks.push({ input: cur.input.join('\n'), output: cur.output.map((x) => x + '\n').join('') });
      cur = { input: [l.slice(2)], output: [], inInput: true };
    } else if (cur && cur.inInput && l.startsWith('> ')) cur.input.push(l.slice(2));
    else if (cur) {
      cur.inInput = false;
      cur.output.push(l);
    }
  }
  if (cur) blocks.push({ input: cur.input.join('\n'), output: cur.output.map((x) => x + '\n').join('') });
  return blocks;
}

/** Boot the product's default cluster (the bookshop up, as after `make up`) and attach a shell. */
export function story(o: StoryOptions = {}): Story {
  const cluster = bootedCluster({ seed: o.seed ?? 1, bare: o.bare ?? false });
  const shell = createPlaygroundShell({ cluster, files: new MemoryFiles(o.files ?? {}) });
  const s: Story = {
    cluster,
    shell,
    transcript: '',
    run(script, lineTimeoutSecs = 3600) {
      const t = runTranscript(shell, script, { lineTimeoutMs: lineTimeoutSecs * 1000 });
      s.transcript += t;
      return splitBlocks(t);
    },
    out(line) {
      const b = s.run(line + '\n');
      return b.map((x) => x.output).join('');
    },
  };
  return s;
}

/**
 * Replace the random parts of generated names with placeholders, as a reader compares two
 * runs: `catalog-58544d89f4-4h2kb` -> `catalog-HASH-XXXXX`, `kindnet-46mqk` -> `kindnet-XXXXX`.
 * Columns keep their width only when the names keep theirs; compare rows, not padding.
 */
export function normalizeNames(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9-]*?)-[bcdfghjklmnpqrstvwxz2456789]{8,10}-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, '$1-HASH-XXXXX')
    .replace(/\b(kindnet|kube-proxy)-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g, '$1-XXXXX');
}

/** Rows of a table with runs of spaces collapsed and trailing blanks dropped. */
export function rows(table: string): string[] {
  return table
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/).join(' | '));
}
