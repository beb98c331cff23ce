/**
 * `kubectl exec POD|TYPE/NAME [-c CONTAINER] [-i] [-t] -- COMMAND [args...]`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go (`Complete`: `exec [POD] [COMMAND] is
 * not supported anymore. Use exec [POD] -- [COMMAND] instead`, `you must specify at least one
 * command for the container`; `Run`: `cannot exec into a container in a completed pod; current
 * phase is Succeeded`; a non-zero exit prints `command terminated with exit code N` and exits
 * with N) and the kubelet's answer for a container that has not started
 * (`unable to upgrade connection: container not found ("c")`). The command runs in the node
 * layer through `NodeAccess`.
 */
import { discover, fail, usageError, CmdError, pollUntil, type Env } from './env';
import { isNodeAccessError, type ExecResult } from './node-access';
import type { Pending } from '../types';
import { badRequest, containerFor, podFor } from './logs';
import { sessionOf } from '../shell';
import { attachContainerShell, SESSION_SHELLS } from './container-session';
import { authorizeRequest } from './impersonate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Said when there is no node layer to run commands in. */
export const NO_EXEC_ACCESS = 'unable to upgrade connection: this playground has no node layer connected to kubectl yet';

/**
 * `kubectl exec`. A command that keeps running (`sleep 5`, a loop) makes the line wait in
 * virtual time until the process ends; its output is printed then (Ctrl-C stops waiting).
 */
export function exec(env: Env): number | Pending {
  const args = env.flags.args;
  const dash = env.flags.argsLenAtDash;
  if (args.length === 0 && env.flags.list('filename').length === 0) throw fail('pod, type/name or --filename must be specified');
  if (dash === -1 && args.length > 1) throw usageError(env, 'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead');
  const before = dash === -1 ? args : args.slice(0, dash);
  const command = dash === -1 ? [] : args.slice(dash);
  if (before.length === 0) throw usageError(env, 'pod, type/name or --filename must be specified');
  if (command.length === 0) throw fail('you must specify at least one command for the container');
  discover(env, 4);
  const pod: Any = podFor(env, before[0]);
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') throw fail(`cannot exec into a container in a completed pod; current phase is ${phase}`);
  const container = containerFor(env, pod, env.flags.str('container'));
  // The pods/exec POST is authorized (verb create) before the registry looks at the pod.
  authorizeRequest(env.api, { verb: 'create', group: '', resource: 'pods', subresource: 'exec', namespace: pod.metadata.namespace, name: pod.metadata.name });
  // kube-apiserver's pods/exec (pkg/registry/core/pod/strategy.go streamLocation): no node, no kubelet to proxy to.
  if (!pod.spec?.nodeName) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  const cs = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((s: Any) => s.name === container);
  if (!cs?.state?.running) throw fail(`unable to upgrade connection: container not found ("${container}")`);
  const na = env.options.nodeAccess;
  if (!na) throw fail(NO_EXEC_ACCESS);
  // `-it -- sh`: the container's shell becomes the terminal's environment from the next line on.
  const session = sessionOf(env.ctx);
  const shell = command.length === 1 ? command[0].slice(command[0].lastIndexOf('/') + 1) : '';
  if (session && env.flags.bool('stdin') && env.flags.bool('tty') && SESSION_SHELLS.has(shell) && !env.io.stdin) {
    if (attachContainerShell(env, na, pod.metadata.namespace, pod.metadata.name, pod.metadata.uid, container, shell, (e) => session.enter(e))) return 0;
  }
  const r = na.exec(pod.metadata.namespace, pod.metadata.name, container, command, env.flags.bool('stdin') ? env.io.stdin : undefined);
  if (isNodeAccessError(r)) throw new CmdError(r.error.startsWith('error: ') ? r.error : `error: ${r.error}`);
  if ('running' in r) {
    const running = r.running;
    return pollUntil(env, () => (running.settled && running.value ? finish(env, running.value) : undefined));
  }
  return finish(env, r);
}

/**
 * Print what the process wrote and how it ended, as kubectl does; returns kubectl's exit status.
 * An exec that could not start (binary missing from the image, container not running) is not an
 * exit status: the CRI streaming server (k8s.io/kubelet/pkg/cri/streaming/remotecommand/exec.go
 * ServeExec) answers `apierrors.NewInternalError("error executing command in container: ...")`,
 * which kubectl prints as `error: Internal error occurred: ...` and exits 1.
 */
function finish(env: Env, r: ExecResult): number {
  if (r.error) throw new CmdError(`error: Internal error occurred: error executing command in container: ${r.error.desc}`);
  env.out(r.stdout);
  env.err(r.stderr);
  if (r.exitCode !== 0) {
    env.err(`command terminated with exit code ${r.exitCode}\n`);
    return r.exitCode;
  }
  return 0;
}
