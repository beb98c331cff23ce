/**
 * `kubectl run NAME -i -t --image=IMG [--rm] [--restart=...] [-- CMD...]` and
 * `kubectl attach POD -i -t [-c C]`: the terminal attached to a container's main process.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/run/run.go (`Run` with `o.Attach`:
 * `handleAttachPod` waits, up to --pod-running-timeout (1m), for the pod to be Running with
 * Ready=True (`podRunningAndReady`), streams the logs instead when it already completed
 * (`logOpts`), else attaches; afterwards, for restartPolicy Never or OnFailure, waits for the pod to
 * complete and returns the container's exit code (`pod NS/NAME terminated (Reason)`); `--rm`
 * deletes the pod last (a deferred `removeCreatedObjects`: `pod "x" deleted from NS namespace`))
 * and staging/src/k8s.io/kubectl/pkg/cmd/attach/attach.go (`Run`: the warning that the session is
 * recorded in the container log, `If you don't see a command prompt, try pressing enter.`, then
 * `reattachMessage` for restartPolicy Always: `Session ended, resume using 'kubectl attach NAME -c
 * C -i -t' command when the pod is running`;
 * `cannot attach a container in a completed pod; current phase is Succeeded`; `Unable to use a
 * TTY - container C did not allocate one`).
 *
 * The container side is CRI Attach (src/engine/node/stdin.ts): a shell as the main process reads
 * each line typed here from its stdin, in its own context (so `cd`, `export` persist), and
 * what it prints comes back. Attached to such a shell, the terminal becomes a session (as
 * `kubectl exec -it` does, container-session.ts): the prompt is the one that shell prints, each
 * line ends when the shell waits for input again, and `exit [N]` ends the main process (the
 * container terminates with N) and then kubectl's own ending. A program that does not read stdin
 * (`-- nslookup x`) is shown until it exits.
 */
import type { Pending } from '../types';
import type { ShellEnvironment } from '../shell';
import { sessionOf } from '../shell';
import type { Command, CommandIO } from '../types';
import { ApiError } from '../../engine/api/errors';
import { CmdError, discover, fail, pollUntil, type Env } from './env';
import { isNodeAccessError, type AttachedContainer } from './node-access';
import { badRequest, containerFor, podFor } from './logs';
import { promptOf } from './container-session';
import { parseGoDuration } from './flags';
import { NO_EXEC_ACCESS } from './exec';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** --pod-running-timeout's default (run.go / attach.go `defaultPodAttachTimeout`: 60 s). */
export const DEFAULT_POD_RUNNING_TIMEOUT_MS = 60_000;

/** attach.go `Run` (kubectl >= 1.33, PR #127183): the attach warning, before the prompt hint. */
export const ATTACH_RECORDED_WARNING = 'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.';

/** attach.go `Run`. */
export const PROMPT_HINT = "If you don't see a command prompt, try pressing enter.";

/** Where output goes: the running command's, or the session line's. */
interface Out {
  out(t: string): void;
  err(t: string): void;
}

/** What the ending of `kubectl run --attach` needs to know. */
interface RunEnding {
  namespace: string;
  name: string;
  restartPolicy: string;
  remove: boolean;
  leaveStdinOpen: boolean;
  timeoutMs: number;
}

/** `--pod-running-timeout` in ms (attach.go Validate: must be higher than zero). */
function podRunningTimeout(env: Env): number {
  if (!env.flags.changed('pod-running-timeout')) return DEFAULT_POD_RUNNING_TIMEOUT_MS;
  const ms = parseGoDuration(env.flags.str('pod-running-timeout'));
  if (ms === undefined || ms <= 0) throw fail('--pod-running-timeout must be higher than zero');
  return ms;
}

/** The pod now, or undefined when it is gone. */
function getPod(env: Env, ns: string, name: string): Any | undefined {
  try {
    return env.api.get('pods', ns, name);
  } catch (e) {
    if (e instanceof ApiError && e.status.code === 404) return undefined;
    throw e;
  }
}

/** run.go `podRunningAndReady`. */
function runningAndReady(pod: Any): boolean {
  return pod.status?.phase === 'Running' && (pod.status?.conditions ?? []).some((c: Any) => c.type === 'Ready' && c.status === 'True');
}

/** run.go `logOpts`: the container's log, printed as `kubectl logs` would. */
function printLogs(env: Env, o: Out, ns: string, name: string, container: string): void {
  const na = env.options.nodeAccess;
  if (!na) return;
  const lines = na.logs(ns, name, container, {});
  if (isNodeAccessError(lines)) o.err(`error: ${lines.error}\n`);
  else if (lines.length) o.out(lines.map((l) => `${l}\n`).join(''));
}

/** `pods "x" not found` as kubectl prints an API NotFound. */
function notFound(name: string): string {
  return `Error from server (NotFound): pods "${name}" not found\n`;
}

/**
 * The end of `kubectl run --attach` once the attach is over: for Never/OnFailure wait for the
 * pod to complete (podCompleted / podSucceeded) and take the container's exit code; then
 * `--rm`'s deletion, then the error. Returns a check to poll: kubectl's exit status once done.
 */
function runEnding(env: Env, o: Out, e: RunEnding): () => number | undefined {
  const waitForExit = !e.leaveStdinOpen && (e.restartPolicy === 'Never' || e.restartPolicy === 'OnFailure');
  const deadline = env.ctx.clock.now() + e.timeoutMs;
  const finish = (code: number, message?: string): number => {
    if (e.remove) {
      try {
        // DeleteOptions: IgnoreNotFound, default grace period, no wait for deletion.
        env.api.delete('pods', e.namespace, e.name, {});
        o.out(`pod "${e.name}" deleted from ${e.namespace} namespace\n`);
      } catch (err) {
        if (!(err instanceof ApiError && err.status.code === 404)) throw err;
      }
    }
    if (message) o.err(message);
    return code;
  };
  return () => {
    if (!waitForExit) return finish(0);
    const pod = getPod(env, e.namespace, e.name);
    if (!pod) return finish(1, notFound(''));
    const phase = pod.status?.phase;
    const done = e.restartPolicy === 'OnFailure' ? phase === 'Succeeded' : phase === 'Succeeded' || phase === 'Failed';
    if (!done) return env.ctx.clock.now() >= deadline ? finish(1, 'error: timed out waiting for the condition\n') : undefined;
    if (phase === 'Succeeded') return finish(0);
    const term = pod.status?.containerStatuses?.[0]?.state?.terminated;
    const rc = term?.exitCode ?? 0;
    if (!term || rc === 0) return finish(1, `error: pod ${e.namespace}/${e.name} failed with unknown exit code\n`);
    // uexec.CodeExitError: printed as it is, kubectl exits with the code.
    return finish(rc, `pod ${e.namespace}/${e.name} terminated (${term.reason ?? ''})\n${term.message ?? ''}`);
  };
}

/** What an attach needs: the pod, its container, and the flags of the attach. */
interface AttachTarget {
  namespace: string;
  name: string;
  uid: string | undefined;
  container: string;
  /** The container's spec (tty, stdin, command). */
  spec: Any;
  restartPolicy: string;
  stdin: boolean;
  tty: boolean;
  quiet: boolean;
  commandName: string;
}

/**
 * attach.go `reattachMessage` as kubectl 1.36 has it: only for restartPolicy Always, without the
 * namespace (PR #111185's form; adding `-n NS` is kubernetes/kubernetes PR #133404, still open
 * when 1.36 was released).
 */
function reattachMessage(t: AttachTarget): string {
  if (t.quiet || !t.stdin || !t.tty || t.restartPolicy !== 'Always') return '';
  return `Session ended, resume using '${t.commandName} ${t.name} -c ${t.container} -i -t' command when the pod is running\n`;
}

/** The shell the container runs as its main process (for its prompt): `sh` unless it names another. */
function mainShell(spec: Any): string {
  const argv0 = String(spec.command?.[0] ?? spec.args?.[0] ?? 'sh');
  const b = argv0.slice(argv0.lastIndexOf('/') + 1);
  return ['sh', 'ash', 'bash', 'dash'].includes(b) ? b : 'sh';
}

/**
 * Attach to `t` (the pod runs): print attach.go's lines, then either enter a session (a shell
 * reading stdin, with a tty and a terminal to attach) or follow the output until the main
 * process ends. `after` runs kubectl's ending (run.go) once the attach is over and returns the
 * exit status (a check to poll). Returns the command's result.
 */
function attachTo(env: Env, o: Out, t: AttachTarget, after: (o: Out) => () => number | undefined, onAttachError: (message: string) => number | Pending): number | Pending {
  const na = env.options.nodeAccess;
  if (!na?.attach) throw fail(NO_EXEC_ACCESS);
  const a = na.attach(t.namespace, t.name, t.container);
  if (isNodeAccessError(a)) return onAttachError(a.error);
  // stdin piped into kubectl (`echo ls | kubectl run -i ...`): no terminal (term/tty.go
  // `IsTerminalIn` false: exec.go SetupTTY's warning), the lines go to the container, then EOF.
  const piped = t.stdin && env.io.stdin ? env.io.stdin : undefined;
  if (piped !== undefined && t.tty) {
    t = { ...t, tty: false };
    if (!t.quiet) o.err('Unable to use a TTY - input is not a terminal or the right kind of file\n');
  }
  if (!t.quiet) o.err(`${ATTACH_RECORDED_WARNING}\n${PROMPT_HINT}\n`);
  const session = sessionOf(env.ctx);
  if (piped === undefined && t.stdin && session && a.interactive && !a.ended) {
    enterSession(env, t, a, after, (e) => session.enter(e));
    return 0;
  }
  // Output until the main process ends (stdin, when not piped, stays unused).
  const off = a.onOutput((text) => o.out(text));
  if (piped !== undefined) {
    for (const line of piped.replace(/\n$/, '').split('\n')) a.write(line);
    a.close();
  }
  let ending: (() => number | undefined) | undefined;
  return pollUntil(env, () => {
    if (!a.ended) return undefined;
    off();
    if (!ending) {
      o.out(reattachMessage(t));
      ending = after(o);
    }
    return ending();
  }, { onCancel: off });
}

/** The terminal as the container's attached shell, until that shell exits. */
function enterSession(env: Env, t: AttachTarget, a: AttachedContainer, after: (o: Out) => () => number | undefined, enter: (e: ShellEnvironment) => void): void {
  const shell = mainShell(t.spec);
  // The prompt's user and distribution, as container-session.ts learns them (hostname: the pod's).
  const probe = env.options.nodeAccess!.exec(t.namespace, t.name, t.container, [shell, '-c', 'id; grep ^ID= /etc/os-release 2>/dev/null; exit 0']);
  const text = !isNodeAccessError(probe) && !('running' in probe) ? probe.stdout : '';
  const root = (/uid=(\d+)/.exec(text)?.[1] ?? '0') === '0';
  const distro = /^ID="?([\w.-]+)"?$/m.exec(text)?.[1] ?? '';
  const hostname = t.spec.hostname ?? t.name;
  let over = false;
  const commands: Record<string, Command> = {};
  enter({
    name: `${t.namespace}/${t.name}/${t.container}`,
    commands,
    ctx: { ...env.ctx, env: { ...env.ctx.env } },
    // Without a tty the shell is not interactive and prints no prompt.
    prompt: () => (t.tty ? promptOf(shell, { cwd: a.cwd, root, distro, hostname }, a.cwd) : ''),
    alive: () => !over,
    ownExit: true,
    runLine: (line: string, io: CommandIO): number | Pending => {
      const o: Out = { out: (s) => io.stdout(s), err: (s) => io.stderr(s) };
      // With a tty the container's stdout and stderr are one stream.
      const off = a.onOutput((s) => io.stdout(s));
      // The terminal sends the line with its Enter; a line ending (from a script's line) is not doubled.
      a.write(line.replace(/\n+$/, ''));
      let ending: (() => number | undefined) | undefined;
      const check = (): number | undefined => {
        if (ending) return ending();
        if (!a.ended && !a.idle) return undefined;
        off();
        if (!a.ended) return 0;
        over = true;
        o.out(reattachMessage(t));
        ending = after(o);
        return ending();
      };
      const now = check();
      // Ctrl-C: the terminal sends SIGINT to the container shell's foreground command.
      return now !== undefined ? now : pollUntil(env, check, { onCancel: () => (off(), a.interrupt()) });
    },
  });
}

/** The attach flags of `kubectl run` as run.go reads them. */
export interface RunAttachOptions {
  stdin: boolean;
  tty: boolean;
  quiet: boolean;
  remove: boolean;
  leaveStdinOpen: boolean;
  restartPolicy: string;
}

/**
 * `kubectl run --attach|-i`: `created` is the pod as the API server returned it. Waits for it to
 * run and be ready, then attaches (run.go `handleAttachPod`), then the ending.
 */
export function runAttach(env: Env, created: Any, opts: RunAttachOptions): number | Pending {
  const ns = created.metadata.namespace ?? env.namespace;
  const name = created.metadata.name;
  const container = created.spec.containers[0].name;
  const timeoutMs = podRunningTimeout(env);
  const o: Out = { out: (t) => env.out(t), err: (t) => env.err(t) };
  const ending: RunEnding = { namespace: ns, name, restartPolicy: opts.restartPolicy, remove: opts.remove, leaveStdinOpen: opts.leaveStdinOpen, timeoutMs };
  const after = (out: Out) => runEnding(env, out, ending);
  const deadline = env.ctx.clock.now() + timeoutMs;
  let next: number | Pending | undefined;
  let cancelled = false;
  const step = (): number | undefined => {
    if (next !== undefined) {
      if (typeof next === 'number') return next;
      return next.poll();
    }
    const pod = getPod(env, ns, name);
    if (!pod) {
      o.err(notFound(''));
      return (next = after(o)() ?? 1);
    }
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      // ErrPodCompleted: the log instead of an attach.
      printLogs(env, o, ns, name, container);
      next = pendingOf(env, after(o));
      return step();
    }
    if (!runningAndReady(pod)) {
      if (env.ctx.clock.now() < deadline) return undefined;
      o.err('error: timed out waiting for the condition\n');
      const end = after({ out: o.out, err: () => {} });
      next = pendingOf(env, () => {
        const r = end();
        return r === undefined ? undefined : 1;
      });
      return step();
    }
    const target: AttachTarget = { namespace: ns, name, uid: pod.metadata.uid, container, spec: pod.spec.containers[0], restartPolicy: pod.spec.restartPolicy, stdin: opts.stdin, tty: opts.tty, quiet: opts.quiet, commandName: 'kubectl attach' };
    next = attachTo(env, o, target, after, (message) => {
      o.err(`warning: couldn't attach to pod/${name}, falling back to streaming logs: ${message}\n`);
      printLogs(env, o, ns, name, container);
      return pendingOf(env, after(o));
    });
    return step();
  };
  const first = step();
  if (first !== undefined) return first;
  return {
    poll: () => (cancelled ? 130 : step()),
    cancel: () => {
      cancelled = true;
      if (next !== undefined && typeof next !== 'number') next.cancel();
    },
    wakeAt: () => (next === undefined ? deadline : typeof next === 'number' ? undefined : next.wakeAt?.()),
  };
}

/** A check as a Pending (its result now when it has one). */
function pendingOf(env: Env, check: () => number | undefined): number | Pending {
  const now = check();
  return now !== undefined ? now : pollUntil(env, check);
}

/** `kubectl attach (POD | TYPE/NAME) [-c CONTAINER] [-i] [-t] [-q]`. */
export function attachCmd(env: Env): number | Pending {
  const args = env.flags.args;
  if (args.length === 0) throw fail('at least 1 argument is required for attach');
  if (args.length > 2) throw fail(`expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw ${args.length}: [${args.join(' ')}]`);
  podRunningTimeout(env);
  discover(env, 4);
  const pod: Any = podFor(env, args.length === 2 ? `${args[0]}/${args[1]}` : args[0]);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') throw fail(`cannot attach a container in a completed pod; current phase is ${phase}`);
  const container = containerFor(env, pod, env.flags.str('container'));
  const spec = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].find((c: Any) => c.name === container);
  const quiet = env.flags.bool('quiet');
  let tty = env.flags.bool('tty');
  if (tty && !spec?.tty) {
    tty = false;
    if (!quiet) env.err(`error: Unable to use a TTY - container ${container} did not allocate one\n`);
  } else if (!tty && spec?.tty) tty = true;
  // kube-apiserver's pods/attach (pkg/registry/core/pod/strategy.go streamLocation): no node, no kubelet to proxy to.
  if (!pod.spec?.nodeName) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  const cs = (pod.status?.containerStatuses ?? []).find((s: Any) => s.name === container);
  if (!cs?.state?.running) throw new CmdError(`error: unable to upgrade connection: container not found ("${container}")`);
  const o: Out = { out: (t) => env.out(t), err: (t) => env.err(t) };
  const target: AttachTarget = { namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid, container, spec, restartPolicy: pod.spec.restartPolicy, stdin: env.flags.bool('stdin'), tty, quiet, commandName: 'kubectl attach' };
  return attachTo(env, o, target, () => () => 0, (message) => {
    throw new CmdError(`error: ${message}`);
  });
}

/** Create the pod `kubectl run` generated (run.go `createGeneratedObject`), as emit() sends it. */
export function createRunPod(env: Env, obj: Any): Any {
  const send = JSON.parse(JSON.stringify(obj));
  delete send.metadata.creationTimestamp;
  try {
    return env.api.create(send, { namespace: env.namespace, fieldManager: `kubectl-${env.path}` });
  } catch (e) {
    if (e instanceof ApiError && e.connectionRefused) throw fail(`failed to create ${String(obj.kind).toLowerCase()}: ${e.status.message}`);
    throw e;
  }
}

/**
 * Run `gen` (a request the server may hold: server-wait.ts) to its value, then `then(value)`:
 * one command result, waiting in virtual time where either waits.
 */
export function afterServer<T>(gen: Generator<{ wakeAt?: number }, T, void>, then: (v: T) => number | Pending): number | Pending {
  let r = gen.next();
  if (r.done) return then(r.value);
  let wait = r.value;
  let next: number | Pending | undefined;
  let cancelled = false;
  return {
    poll() {
      if (cancelled) return 130;
      if (next === undefined) {
        r = gen.next();
        if (!r.done) {
          wait = r.value;
          return undefined;
        }
        next = then(r.value);
      }
      return typeof next === 'number' ? next : next.poll();
    },
    cancel() {
      cancelled = true;
      if (next !== undefined && typeof next !== 'number') next.cancel();
    },
    wakeAt: () => (next === undefined ? wait.wakeAt : typeof next === 'number' ? undefined : next.wakeAt?.()),
  };
}
