/**
 * `kubectl exec -it POD -- sh` (or bash, ash): the container's shell attached to the terminal.
 *
 * From the next line on, every line goes whole to a shell in the container (`sh -c LINE` through
 * the kubelet's exec, as the attached shell would read it from its tty) until `exit`, Ctrl-D's
 * stand-in, ends it; kubectl then returns, printing `command terminated with exit code N` for a
 * non-zero `exit N` (staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go: the remote command's
 * exit status becomes kubectl's). The prompt is the one that shell prints without a profile:
 * busybox/alpine `ash` shows `\w \$ ` (`/ # `, `/app $ `), dash `# ` or `$ `, bash `root@POD:/# `
 * (Debian's /etc/bash.bashrc) or `bash-5.2$ `.
 *
 * The playground keeps the working directory between lines (each line runs `cd` to it first, and a
 * line that is only `cd DIR` moves it); variables set with `export` do not outlive their line.
 * The session ends by itself when the container stops running (the pod deleted, the container
 * restarted), as the stream breaks in a real cluster: the shell, a process of that container
 * instance, is killed with it (SIGKILL: `command terminated with exit code 137`), also when a
 * line it runs brings the OOM killer on the container (memory.oom.group kills the whole cgroup).
 */
import type { Command, CommandIO, Pending } from '../types';
import type { ShellEnvironment } from '../shell';
import type { Env } from './env';
import { isNodeAccessError, type ExecResult, type NodeAccess } from './node-access';

/** Shells `kubectl exec -it` attaches as a session. */
export const SESSION_SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'ash', 'dash']);

/** What the first exec learned about the container: its directory, user, distribution and hostname. */
export interface Probe {
  cwd: string;
  root: boolean;
  distro: string;
  hostname: string;
}

/** `'...'`-quote for sh. */
function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The prompt of `shell` run without a profile in that container (also kubectl attach's, attach.ts). */
export function promptOf(shell: string, p: Probe, cwd: string): string {
  const mark = p.root ? '#' : '$';
  if (shell === 'bash') return p.distro === 'debian' || p.distro === 'ubuntu' ? `${p.root ? 'root' : 'user'}@${p.hostname}:${cwd}${mark} ` : `bash-5.2${mark} `;
  if (shell === 'dash' || (shell === 'sh' && (p.distro === 'debian' || p.distro === 'ubuntu'))) return `${mark} `;
  return `${cwd} ${mark} `;
}

/** A result now, or a Pending that settles with `finish(result)` when the exec ends. */
function settle(r: ExecResult | { running: { settled: boolean; value: ExecResult | undefined } }, finish: (r: ExecResult) => number): number | Pending {
  if (!('running' in r)) return finish(r);
  const running = r.running;
  let done: number | undefined;
  return {
    poll: () => (done ??= running.settled && running.value ? finish(running.value) : undefined),
    cancel: () => {
      done ??= 130;
    },
  };
}

/**
 * Attach `shell` in `container` of pod `ns/pod` as the terminal's environment (`env.ctx`'s
 * session). Returns undefined (nothing attached) when the shell cannot start there: the caller
 * then runs the command the ordinary way, which reports why.
 */
export function attachContainerShell(env: Env, na: NodeAccess, ns: string, pod: string, podUid: string | undefined, container: string, shell: string, enter: (e: ShellEnvironment) => void): boolean {
  const probe = na.exec(ns, pod, container, [shell, '-c', 'pwd; hostname; id; grep ^ID= /etc/os-release 2>/dev/null; exit 0']);
  if (isNodeAccessError(probe) || 'running' in probe || probe.exitCode !== 0) return false;
  const [cwd0 = '/', hostname = pod] = probe.stdout.split('\n');
  const uid = /uid=(\d+)/.exec(probe.stdout)?.[1] ?? '0';
  const distro = /^ID="?([\w.-]+)"?$/m.exec(probe.stdout)?.[1] ?? '';
  const p: Probe = { cwd: cwd0 || '/', root: uid === '0', hostname: hostname.trim() || pod, distro };
  let cwd = p.cwd;
  type Status = { name: string; containerID?: string; state?: { running?: unknown } };
  const statusOf = (): Status | undefined => {
    try {
      const o = env.api.get('pods', ns, pod);
      if (podUid && o.metadata.uid !== podUid) return undefined;
      return (o.status?.containerStatuses ?? []).find((s: Status) => s.name === container);
    } catch {
      return undefined;
    }
  };
  // The attached shell is a process of this instance of the container: a restart (a new
  // containerID) ends it, as the old instance's end killed it.
  const instance = statusOf()?.containerID;
  // Set once the shell is known to be dead (killed with its container).
  let killed = false;
  const alive = (): boolean => {
    if (killed) return false;
    const st = statusOf();
    return !!st?.state?.running && (instance === undefined || st.containerID === instance);
  };
  const runLine = (line: string, io: CommandIO): number | Pending => {
    if (line.trim() === '') return 0;
    const cd = /^\s*cd(?:\s+(\S+))?\s*$/.exec(line);
    const script = cd ? `cd ${cd[1] ?? '~'} && pwd` : line;
    const r = na.exec(ns, pod, container, [shell, '-c', `cd ${quote(cwd)} 2>/dev/null; ${script}`]);
    if (isNodeAccessError(r)) {
      io.stderr(`${r.error.startsWith('error: ') ? r.error : `error: ${r.error}`}\n`);
      return 1;
    }
    return settle(r, (res) => {
      if (res.killedWithContainer || res.error) {
        // The container's end took the shell with it (the PID namespace's init died, or the OOM
        // killer took the cgroup: memory.oom.group), or the container is already gone: the
        // stream breaks (what it carried so far was shown) and kubectl reports the shell's
        // SIGKILL (exec.go: the remote exit code).
        killed = true;
        io.stdout(res.stdout);
        io.stderr(res.stderr);
        return 137;
      }
      if (cd && res.exitCode === 0) {
        cwd = res.stdout.trim() || cwd;
      } else io.stdout(res.stdout);
      io.stderr(res.stderr);
      return res.exitCode;
    });
  };
  const commands: Record<string, Command> = {};
  enter({
    name: `${ns}/${pod}/${container}`,
    commands,
    ctx: { ...env.ctx, env: { ...env.ctx.env } },
    prompt: () => promptOf(shell, p, cwd),
    alive,
    runLine,
    // bash echoes `exit` when it leaves (not when it is killed); ash and dash do not. Then
    // kubectl's own word on the status.
    sessionExit: (code) => `${shell === 'bash' && !killed ? 'exit\n' : ''}${code !== 0 ? `command terminated with exit code ${code}\n` : ''}`,
  });
  return true;
}
