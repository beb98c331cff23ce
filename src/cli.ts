/// <reference types="node" />
/**
 * The headless runner: `cluster-playground run FILE` runs a script of shell lines on a fresh
 * simulated cluster and prints the transcript (each line behind its prompt, here-document bodies
 * behind `> `, then what the line printed). FILE `-` reads the script from standard input.
 *
 * Start state: the product's - `kind create cluster` with the bookshop's cluster/kind.yaml and
 * `make up` done (the bookshop Available), the shell's working directory holding the bookshop
 * repository (cluster/, manifests/ from fixtures/k8s-bookshop).
 *
 * Options:
 *   --seed N             the cluster's seed (default 1)
 *   --bare               stop after `kind create cluster` (kube-system only, no bookshop)
 *   --cluster FILE       a kind cluster configuration instead of the bookshop's
 *   --record FILE        write the trace (cluster components and the script's lines) as JSON lines
 *   --line-timeout SECS  interrupt a line (shown as ^C) after this much virtual time (default 600)
 *   --test-cluster       the small test cluster (API server, controllers, fake kubelets; only kubectl)
 *
 * Exit status: 0 when the script ran (whatever its lines returned), 2 for usage errors, 1 when
 * the cluster did not boot. Same seed and script: byte-identical transcript.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootedCluster } from './engine/cluster';
import type { Cluster } from './engine/cluster';
import { newTestCluster } from './engine/testing/cluster';
import { Shell } from './shell/shell';
import { MemoryFiles } from './shell/files';
import { createPlaygroundShell } from './shell/playground';
import { makeKubectl } from './shell/kubectl';
import { runTranscript } from './shell/transcript';
import type { TraceEntry } from './engine/trace';
import { SHELF_CONTROLLER_FILES } from './engine/cluster/appcontrollers';
import { loadEngineLibraries } from './engine/libs';

// cron-parser, ajv and the field table load on demand in the browser (src/engine/libs.ts); here, once, up front.
await loadEngineLibraries();

/** Parsed command line. */
export interface CliOptions {
  file: string;
  seed: number;
  bare: boolean;
  clusterConfig?: string;
  record?: string;
  lineTimeoutSecs: number;
  testCluster: boolean;
}

const USAGE = `usage: cluster-playground run [--seed N] [--bare] [--cluster KIND_CONFIG] [--record FILE] [--line-timeout SECS] [--test-cluster] FILE|-
`;

/** Parse argv (without node and the script). Returns an error message for bad usage. */
export function parseArgs(argv: string[]): CliOptions | string {
  if (argv[0] !== 'run') return argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' ? USAGE : `unknown command: ${argv[0]}\n${USAGE}`;
  const o: Partial<CliOptions> = { seed: 1, bare: false, lineTimeoutSecs: 600, testCluster: false };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const val = (): string | undefined => (a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i]);
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    switch (name) {
      case '--seed': {
        const v = Number(val());
        if (!Number.isInteger(v)) return `--seed needs an integer\n${USAGE}`;
        o.seed = v;
        break;
      }
      case '--bare':
        o.bare = true;
        break;
      case '--cluster':
        o.clusterConfig = val();
        if (!o.clusterConfig) return `--cluster needs a file\n${USAGE}`;
        break;
      case '--record':
        o.record = val();
        if (!o.record) return `--record needs a file\n${USAGE}`;
        break;
      case '--line-timeout': {
        const v = Number(val());
        if (!(v > 0)) return `--line-timeout needs a positive number of seconds\n${USAGE}`;
        o.lineTimeoutSecs = v;
        break;
      }
      case '--test-cluster':
        o.testCluster = true;
        break;
      default:
        if (a.startsWith('-') && a !== '-') return `unknown option: ${a}\n${USAGE}`;
        if (o.file !== undefined) return `one script only\n${USAGE}`;
        o.file = a;
    }
  }
  if (o.file === undefined) return `missing FILE\n${USAGE}`;
  return o as CliOptions;
}

/** The bookshop repository's files (cluster/, manifests/) from fixtures/k8s-bookshop. */
export function bookshopFiles(root = fileURLToPath(new URL('../fixtures/k8s-bookshop/', import.meta.url))): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p).split('\\').join('/')] = readFileSync(p, 'utf8');
    }
  };
  for (const top of ['cluster', 'manifests']) walk(join(root, top));
  return out;
}

/** Result of `runScript`. */
export interface ScriptResult {
  transcript: string;
  /** The trace as JSON lines (cluster components, plus each script line as a `shell` action). */
  trace: string;
}

/** Run a script on a fresh cluster (no I/O besides building it). */
export function runScript(script: string, o: Omit<CliOptions, 'file' | 'record'> & { kindConfig?: string; files?: Record<string, string> }): ScriptResult {
  const files = new MemoryFiles(o.files ?? { ...bookshopFiles(), ...SHELF_CONTROLLER_FILES });
  let shell: Shell;
  let traceOf: () => TraceEntry[];
  let addTrace: (line: string) => void;
  if (o.testCluster) {
    const c = newTestCluster({ seed: o.seed });
    c.run(5000);
    shell = new Shell({ ctx: { clock: c.clock, rng: c.rng, api: c.api, files, env: {} }, commands: { kubectl: makeKubectl() } });
    traceOf = () => c.trace.list();
    addTrace = (line) => c.trace.add('shell', line, undefined, 'action');
  } else {
    const c: Cluster = bootedCluster({ seed: o.seed, bare: o.bare, ...(o.kindConfig !== undefined ? { kindConfig: o.kindConfig } : {}) });
    shell = createPlaygroundShell({ cluster: c, files });
    traceOf = () => c.trace.list();
    addTrace = (line) => c.trace.add('shell', line, undefined, 'action');
  }
  const transcript = runTranscript(shell, script, {
    lineTimeoutMs: o.lineTimeoutSecs * 1000,
    onInput: (input, prompt) => addTrace(`${prompt}${input.lines.join('\n')}`),
  });
  return { transcript, trace: traceOf().map((e) => JSON.stringify(e) + '\n').join('') };
}

/** The CLI. Returns the exit status. */
export function main(argv: string[], io: { stdout(s: string): void; stderr(s: string): void; readStdin(): string } = nodeIo()): number {
  const o = parseArgs(argv);
  if (typeof o === 'string') {
    const help = argv.length === 0 || argv[0] === '--help' || argv[0] === '-h';
    (help ? io.stdout : io.stderr)(o);
    return help ? 0 : 2;
  }
  let script: string;
  let kindConfig: string | undefined;
  try {
    script = o.file === '-' ? io.readStdin() : readFileSync(o.file, 'utf8');
    if (o.clusterConfig !== undefined) kindConfig = readFileSync(o.clusterConfig, 'utf8');
  } catch (e) {
    io.stderr(`cluster-playground: ${(e as Error).message}\n`);
    return 2;
  }
  let result: ScriptResult;
  try {
    result = runScript(script, { ...o, kindConfig });
  } catch (e) {
    io.stderr(`cluster-playground: ${(e as Error).message}\n`);
    return 1;
  }
  io.stdout(result.transcript);
  if (o.record) writeFileSync(o.record, result.trace);
  return 0;
}

function nodeIo(): { stdout(s: string): void; stderr(s: string): void; readStdin(): string } {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readStdin: () => readFileSync(0, 'utf8'),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2));
}
