/**
 * What every kubectl subcommand works with: the shell's I/O and context, the parsed flags, the
 * namespace, and kubectl's error conventions.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (`CheckErr`, `StandardErrorMessage`,
 * `UsageErrorf`): API errors print as the server's message (`Error from server (NotFound): ...`),
 * other errors as `error: <message>`, usage errors add `See 'kubectl <cmd> -h' for help and
 * examples`; the exit status is 1.
 */
import type { CommandIO, Pending, ShellContext } from '../types';
import type { ApiServer } from '../../engine/api/server';
import type { KubeObject } from '../../engine/api/types';
import { ApiError } from '../../engine/api/errors';
import { formatRfc3339 } from '../../engine/clock';
import type { Flags } from './flags';
import type { NodeAccess } from './node-access';

/** Options of `makeKubectl`. */
export interface KubectlOptions {
  /** How `kubectl logs` / `exec` reach containers (the node layer); absent: they explain why they cannot. */
  nodeAccess?: NodeAccess;
  /** `kubectl version` client line. Default `v1.36.1` (the seeds' kubectl). */
  clientVersion?: string;
  /** The API server address kubectl's kubeconfig points at (kind's). Default `127.0.0.1:6443`. */
  server?: string;
  /** kubeconfig context / cluster name. Default `kind-k8s-lab`. */
  contextName?: string;
  /**
   * The server's URL as requests spell it. Default `https://` + `server`; kubectl without any
   * kubeconfig talks to `http://localhost:8080` (client-go's default, clientcmd `getDefaultServer`).
   */
  serverUrl?: string;
  /**
   * The address a refused dial names (`dial tcp ADDR: connect: connection refused`): the server's
   * host resolved. Default `server` (an IP already); `[::1]:8080` for localhost in a kind node.
   */
  dialAddress?: string;
  /**
   * The kubeconfig's cluster and user names for `config view|get-contexts` when they differ from
   * the context's (kubeadm's admin.conf: context `kubernetes-admin@k8s-lab`, cluster `k8s-lab`,
   * user `kubernetes-admin`). Default: both are `contextName` (kind's kubeconfig on the laptop).
   */
  kubeconfigNames?: { cluster: string; user: string };
  /**
   * The ComponentStatus objects kube-apiserver answers, probed live (the cluster's
   * `componentStatuses`: GET https://127.0.0.1:10259/healthz etc. from the control-plane node);
   * absent: kubectl derives them from the components' leader-election Leases.
   */
  componentStatuses?: () => KubeObject[];
}

/** Per-kubectl-instance state (one per shell): process ids for klog lines, the kubeconfig context's namespace. */
export interface KubectlState {
  pid: number;
  /** The current context's namespace (`kubectl config set-context --current --namespace=x`). */
  namespace: string;
}

/** What a subcommand gets. */
export interface Env {
  io: CommandIO;
  ctx: ShellContext;
  api: ApiServer;
  /** Command path without `kubectl` (`get`, `rollout status`). */
  path: string;
  flags: Flags;
  /** `-n`, else the kubeconfig context's namespace (`default` unless set with `config set-context`). */
  namespace: string;
  /** `-n` was given (kubectl's `enforceNamespace`). */
  explicitNamespace: boolean;
  options: Required<Omit<KubectlOptions, 'nodeAccess' | 'componentStatuses'>> & { nodeAccess?: NodeAccess; componentStatuses?: () => KubeObject[] };
  state: KubectlState;
  out(text: string): void;
  err(text: string): void;
}

/** A subcommand: returns an exit status or a Pending; throws `CmdError` / `ApiError` for kubectl's error output. */
export type Subcommand = (env: Env) => number | Pending;

/**
 * A failure kubectl reports and exits on. `text` is printed to stderr as it is (a trailing
 * newline is added when missing).
 */
export class CmdError extends Error {
  constructor(
    readonly text: string,
    readonly code = 1,
  ) {
    super(text);
    this.name = 'CmdError';
  }
}

/** `error: <msg>` (helpers.go `CheckErr` for a plain error). */
export function fail(msg: string): CmdError {
  return new CmdError(`error: ${msg}`);
}

/** `cmdutil.UsageErrorf`: `error: <msg>\nSee 'kubectl <path> -h' for help and examples`. */
export function usageError(env: Pick<Env, 'path'>, msg: string): CmdError {
  return new CmdError(`error: ${msg}\nSee 'kubectl ${env.path} -h' for help and examples`);
}

/** The text kubectl prints for an error thrown by a subcommand. */
export function errorText(e: unknown): string {
  if (e instanceof CmdError) return e.text;
  if (e instanceof ApiError) return e.kubectlMessage();
  throw e;
}

/** Print an error to stderr as kubectl does (newline-terminated). */
export function printError(env: Pick<Env, 'err'>, e: unknown): void {
  const t = errorText(e);
  env.err(t.endsWith('\n') ? t : t + '\n');
}

/**
 * A klog line as kubectl writes it to stderr (`E0105 06:00:05.123456   45934 run.go:72] ...`):
 * severity, month/day, time with microseconds, the process id padded to 7, file:line.
 * Source: k8s.io/klog/v2 (`formatHeader`).
 */
export function klogLine(env: Pick<Env, 'ctx' | 'state'>, severity: 'E' | 'W' | 'I', file: string, msg: string, seq = 0): string {
  const unixMs = env.ctx.clock.epochMs + env.ctx.clock.now();
  const iso = formatRfc3339(unixMs, true); // 2026-01-05T06:00:05.123000Z
  const micro = Number(iso.slice(20, 26)) + 1417 + seq * 1389;
  const t = `${iso.slice(11, 19)}.${String(micro % 1_000_000).padStart(6, '0')}`;
  return `${severity}${iso.slice(5, 7)}${iso.slice(8, 10)} ${t} ${String(env.state.pid).padStart(7, ' ')} ${file}] ${msg}\n`;
}

/** cobra's required-flag failure as kubectl 1.32 reports it: one klog line from run.go. */
export function requiredFlagError(env: Env, ...names: string[]): CmdError {
  const list = names.map((n) => `\\"${n}\\"`).join(', ');
  return new CmdError(klogLine(env, 'E', 'run.go:72', `"command failed" err="required flag(s) ${list} not set"`).trimEnd());
}

/**
 * The client-side discovery failure kubectl logs before the connection-refused line when
 * kube-apiserver is down (client-go discovery/cached/memory/memcache.go:265), `n` times.
 */
export function discoveryErrorLines(env: Env, n: number): string {
  const { serverUrl, dialAddress } = env.options;
  let s = '';
  for (let i = 0; i < n; i++) {
    s += klogLine(
      env,
      'E',
      'memcache.go:265',
      `"Unhandled Error" err="couldn't get current server API group list: Get \\"${serverUrl}/api?timeout=32s\\": dial tcp ${dialAddress}: connect: connection refused"`,
      i,
    );
  }
  return s;
}

/** client-go's connection-refused line for `server` (what kubectl prints when nothing answers). */
export function refusedMessage(server: string): string {
  return `The connection to the server ${server} was refused - did you specify the right host or port?`;
}

/**
 * Discovery, as kubectl does it before resolving resource types: while kube-apiserver is down it
 * fails with `n` memcache log lines and the connection-refused message.
 */
export function discover(env: Env, n = 5): void {
  if (env.api.getAvailability() === 'down') {
    const lines = discoveryErrorLines(env, n);
    throw new CmdError(lines + `The connection to the server ${env.options.server} was refused - did you specify the right host or port?`);
  }
}

/**
 * A typed-client request (no discovery first: `kubectl events`, `auth whoami`) while
 * kube-apiserver is down: only the connection-refused line.
 */
export function requireServer(env: Env): void {
  if (env.api.getAvailability() === 'down') throw new CmdError(`The connection to the server ${env.options.server} was refused - did you specify the right host or port?`);
}

/** A Pending that is already done (for code paths that sometimes wait and sometimes do not). */
export function donePending(code: number): Pending {
  return { poll: () => code, cancel: () => undefined };
}

/**
 * How kubectl prints the errors a command collected (helpers.go `checkErr`): one error as
 * `CheckErr` prints it; several as an aggregate, one line each through `messageForError`
 * (API errors as `Error from server (Reason): message` even when Invalid, other errors without
 * the `error: ` prefix).
 */
export function formatErrors(errs: unknown[]): string {
  if (errs.length === 1) return errorText(errs[0]);
  return errs
    .map((e) => {
      if (e instanceof ApiError) {
        if (e.connectionRefused) return e.status.message;
        const s = e.status;
        return s.reason === 'Unknown' ? `Error from server: ${s.message}` : `Error from server (${s.reason}): ${s.message}`;
      }
      const t = errorText(e);
      return t.startsWith('error: ') ? t.slice(7) : t;
    })
    .join('\n');
}

/** `cmdutil.AddSourceToErr`: `error when <verb> "<source>": <message>` on an API error's message. */
export function addSourceToErr(verb: string, source: string, e: unknown): unknown {
  if (!source) return e;
  if (e instanceof ApiError) {
    if (e.connectionRefused) return e;
    return e.withMessage(`error when ${verb} "${source}": ${e.status.message}`);
  }
  if (e instanceof CmdError) return new CmdError(e.text.replace(/^error: /, `error: error when ${verb} "${source}": `), e.code);
  return e;
}

/**
 * A Pending that calls `check` whenever the shell polls, until it returns an exit status;
 * `deadlineMs` (virtual, absolute) makes it end with `onTimeout()`'s status.
 */
export function pollUntil(env: Env, check: () => number | undefined, opts: { deadlineMs?: number; onTimeout?: () => number; onCancel?: () => void } = {}): Pending {
  let done: number | undefined;
  return {
    poll: () => {
      if (done !== undefined) return done;
      done = check();
      if (done === undefined && opts.deadlineMs !== undefined && env.ctx.clock.now() >= opts.deadlineMs) done = opts.onTimeout ? opts.onTimeout() : 1;
      return done;
    },
    cancel: () => {
      done = done ?? 130;
      opts.onCancel?.();
    },
    // The shell polls at every clock event anyway; the deadline is the latest wake-up.
    wakeAt: () => (done === undefined ? opts.deadlineMs : undefined),
  };
}

/** `kind.group` as kubectl prints it before a name (`deployment.apps`, `pod`). */
export function kindGroup(t: { kind: string; group: string }): string {
  return t.kind.toLowerCase() + (t.group ? `.${t.group}` : '');
}
