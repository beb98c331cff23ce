/**
 * Test helpers for kubectl (test-only): a test cluster (src/engine/testing/cluster.ts, with the
 * fake kubelet), an in-memory working directory, a small quote-aware line splitter, and a
 * driver that runs a kubectl line to completion in virtual time as the shell does.
 */
import type { CommandIO, Pending, ShellContext, ShellFiles } from '../types';
import { newTestCluster, type TestCluster, type TestClusterOptions } from '../../engine/testing/cluster';
import { makeKubectl, type KubectlOptions } from './index';

/** Split a command line as a POSIX shell would for simple cases: quotes and backslashes. */
export function splitLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let have = false;
  let q: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === q) q = undefined;
      else if (c === '\\' && q === '"' && i + 1 < line.length) cur += line[++i];
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      q = c;
      have = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      have = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (have) out.push(cur);
      cur = '';
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) out.push(cur);
  return out;
}

/** An in-memory directory tree for `-f` / `-k`. */
export function memFiles(init: Record<string, string> = {}): ShellFiles & { files: Map<string, string> } {
  const files = new Map(Object.entries(init));
  const norm = (p: string) => p.replace(/^\.\//, '').replace(/\/+$/, '');
  return {
    files,
    read: (p) => files.get(norm(p)),
    write: (p, content, append) => {
      files.set(norm(p), append ? (files.get(norm(p)) ?? '') + content : content);
    },
    list: (dir) => {
      const d = norm(dir);
      const names = new Set<string>();
      for (const k of files.keys()) {
        if (d === '' || d === '.' ? true : k.startsWith(d + '/')) {
          const rest = d === '' || d === '.' ? k : k.slice(d.length + 1);
          names.add(rest.split('/')[0]);
        }
      }
      return names.size ? [...names].sort() : undefined;
    },
    isDir: (p) => {
      const d = norm(p);
      if (d === '' || d === '.') return true;
      for (const k of files.keys()) if (k.startsWith(d + '/')) return true;
      return false;
    },
  };
}

/** The result of one line. */
export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** A kubectl test bench on a test cluster. */
export interface Bench {
  c: TestCluster;
  files: ReturnType<typeof memFiles>;
  ctx: ShellContext;
  /** Run a line (`kubectl ...`) to completion, driving a Pending in `stepMs` steps for at most `maxMs`. */
  run(line: string, opts?: { stdin?: string; maxMs?: number; stepMs?: number }): RunResult;
  /** Start a line; poll/advance it yourself (watches). */
  start(line: string, opts?: { stdin?: string }): { out: RunResult; pending: Pending | undefined; advance(ms: number): number | undefined };
}

/** A bench: a test cluster with kubectl. */
export function bench(opts: TestClusterOptions & { kubectl?: KubectlOptions; files?: Record<string, string> } = {}): Bench {
  const c = newTestCluster(opts);
  const files = memFiles(opts.files ?? {});
  const ctx: ShellContext = { clock: c.clock, rng: c.rng, api: c.api, files, env: {} };
  const cmd = makeKubectl(opts.kubectl ?? {});
  const start = (line: string, o: { stdin?: string } = {}) => {
    const out: RunResult = { stdout: '', stderr: '', code: -1 };
    const io: CommandIO = { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t), stdin: o.stdin ?? '' };
    const r = cmd(splitLine(line), io, ctx);
    let pending: Pending | undefined;
    if (typeof r === 'number') out.code = r;
    else pending = r;
    return {
      out,
      get pending() {
        return pending;
      },
      advance(ms: number): number | undefined {
        if (!pending) return out.code;
        c.run(ms);
        const code = pending.poll();
        if (code !== undefined) {
          out.code = code;
          pending = undefined;
        }
        return code;
      },
    };
  };
  return {
    c,
    files,
    ctx,
    start,
    run(line, o = {}) {
      const h = start(line, o);
      const step = o.stepMs ?? 100;
      let left = o.maxMs ?? 10 * 60 * 1000;
      while (h.pending && left > 0) {
        h.advance(step);
        left -= step;
      }
      if (h.pending) {
        h.pending.cancel();
        h.out.code = 124;
      }
      return h.out;
    },
  };
}

/** A Deployment manifest for tests. */
export function deploymentYaml(name: string, replicas: number, image = 'nginx:1.27', extra = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: ${name}
        image: ${image}
${extra}`;
}
