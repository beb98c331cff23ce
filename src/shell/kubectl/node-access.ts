/**
 * What `kubectl logs` and `kubectl exec` need from the node layer: the kubelet's container logs
 * and exec (the kubelet's /containerLogs and /exec endpoints, which kube-apiserver proxies to
 * from `pods/log` and `pods/exec`; staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go and
 * staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go are the client side).
 *
 * kubectl checks what the API server checks before proxying (pod exists, is bound, container
 * exists and has started) itself, from the Pod object; an implementation of `NodeAccess` only
 * answers for containers that run or ran. The shell passes one to `makeKubectl({ nodeAccess })`
 * once the node layer (kubelet + containerd) provides it.
 */
import type { ContainerAttach } from '../../engine/node/stdin';

/** Options of a log read (`kubectl logs --previous --tail=N -f --timestamps`). */
export interface LogOptions {
  /** The previous (terminated) instance of the container. */
  previous?: boolean;
  /** Last N lines only (`--tail`, -1 = all). */
  tail?: number;
  /** Prefix each line with its RFC 3339 timestamp (`--timestamps`). */
  timestamps?: boolean;
  /** Only lines written in the last N seconds (`--since`, rounded; `--since-time` as the seconds since then, fractional). */
  sinceSeconds?: number;
}

/** A failure the node answers with; `message` is what kubectl prints (it is printed as it is). */
export interface NodeAccessError {
  error: string;
}

/** The result of an exec: output and the process's exit code. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * The exec could not start (binary missing from the image, container not running): the CRI
   * error's description, e.g. `failed to exec in container: failed to start exec "ID": OCI runtime
   * exec failed: ...: unknown` (containerd's `CriError.desc`).
   */
  error?: { readonly desc: string };
  /**
   * The process was killed with its container (its init died, or the OOM killer took the
   * container's whole cgroup): exit 137, and an attached shell session is over.
   */
  killedWithContainer?: boolean;
}

/**
 * An exec whose process is still running in the container (`sleep 5`, a shell loop): it
 * settles with the result when the process ends, in virtual time.
 */
export interface RunningExec {
  /** True once the process has ended. */
  readonly settled: boolean;
  /** The result, once settled. */
  readonly value: ExecResult | undefined;
}

/** A live log stream (`kubectl logs -f`). */
export interface LogStream {
  /** Stop following (Ctrl-C). */
  stop(): void;
  /** True once the container has exited and every line was delivered. */
  readonly ended: boolean;
  /**
   * Deliver what the container wrote since the last call (a stream that reads the log as it
   * grows); kubectl calls it each time virtual time moves. Optional: a push stream needs none.
   */
  poll?(): void;
  /** Virtual ms at which `poll` next has something to do (undefined: whenever time moves). */
  wakeAt?(): number | undefined;
}

/** The node layer as kubectl logs/exec reach it. */
export interface NodeAccess {
  /**
   * The container's log lines (without trailing newlines), oldest first, or an error (kube-apiserver's
   * own failures, such as the kubelet being unreachable, are thrown as `ApiError`). Called
   * only for a pod that is bound to a node and a container that has started at least once.
   */
  logs(namespace: string, pod: string, container: string, opts: LogOptions): string[] | NodeAccessError;
  /**
   * Follow the log (`-f`): existing lines (per `opts.tail`) then new ones as the container writes
   * them, each passed to `onLine`; optional (without it `-f` prints what is there and ends).
   */
  follow?(namespace: string, pod: string, container: string, opts: LogOptions, onLine: (line: string) => void): LogStream | NodeAccessError;
  /**
   * Run `argv` in the container (with `stdin` when `-i`): the result when the process ended at
   * once, `{ running }` while it still runs (kubectl then waits for it), or an error (e.g.
   * executable not found).
   */
  exec(namespace: string, pod: string, container: string, argv: string[], stdin?: string): ExecResult | NodeAccessError | { running: RunningExec };
  /**
   * Attach to the container's main process (`kubectl attach`, `kubectl run -i -t`: the kubelet's
   * /attach, CRI Attach): its stdin and output, or an error. Optional (without it, attaching is
   * not available). kube-apiserver's own failures are thrown as `ApiError`.
   */
  attach?(namespace: string, pod: string, container: string): AttachedContainer | NodeAccessError;
}

/** An attached container: the engine's side of CRI Attach (src/engine/node/stdin.ts), as kubectl attach/run -it use it. */
export type AttachedContainer = ContainerAttach;

/** True for a `NodeAccessError`. */
export function isNodeAccessError(v: unknown): v is NodeAccessError {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as NodeAccessError).error === 'string';
}
