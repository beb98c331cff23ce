/**
 * The playground's shell, assembled: the laptop next to a kind cluster, with `kubectl` (pointed
 * at the cluster's API server through kind's port mapping), `docker` (the node containers) and
 * `kind`, and the bookshop repository as the working directory.
 *
 * Hosts (the Web Worker, the CLI, tests) build one with `createPlaygroundShell` and feed it
 * lines; see shell.ts for running them in virtual time.
 */
import type { Command, ShellContext, ShellFiles } from './types';
import type { Rng } from '../engine/clock';
import type { ApiServer } from '../engine/api/server';
import type { ClusterAccess } from './cluster-access';
import { apiServerHostAddress } from './cluster-access';
import { Shell } from './shell';
import { makeDocker } from './docker';
import { makeKind } from './kind';
import { makeHostCurl } from './host-curl';
import { makeKubectl } from './kubectl';
import { ApiError } from '../engine/api/errors';
import type { ExecResult, NodeAccess } from './kubectl';
import type { LogOptions, LogStream, NodeAccessError } from './kubectl/node-access';
import type { AttachedContainer } from './kubectl/node-access';

/** What the playground shell needs of a cluster: `Cluster` (src/engine/cluster.ts) fits. */
export interface PlaygroundCluster extends ClusterAccess {
  readonly rng: Rng;
  /** kube-apiserver as kubectl on the laptop reaches it. */
  readonly hostApi: ApiServer;
  /** `kubectl logs`: a container's log lines through kube-apiserver and the kubelet (throws ApiError). */
  containerLogs?(namespace: string, pod: string, container?: string, previous?: boolean, opts?: { timestamps?: boolean; tailLines?: number; sinceSeconds?: number }): string[];
  /** `kubectl exec`: argv in a container (a runtime Pending, settled when the process ends). */
  execInPod?(namespace: string, pod: string, container: string, argv: string[]): { readonly settled: boolean; readonly value: ExecResult | undefined };
  /** `kubectl attach` / `run -i -t`: the container's stdin and output (throws ApiError). */
  attachPod?(namespace: string, pod: string, container: string): AttachedContainer;
}

/** Options of `createPlaygroundShell`. */
export interface PlaygroundShellOptions {
  cluster: PlaygroundCluster;
  /** The working directory (the bookshop repository). */
  files: ShellFiles;
  /** Extra environment variables of the laptop's shell. */
  env?: Record<string, string>;
  /** Replace or add laptop commands (tests). */
  commands?: Record<string, Command>;
}

/** `kubectl logs` / `kubectl exec` through the cluster's kubelets. */
export function clusterNodeAccess(cluster: PlaygroundCluster): NodeAccess | undefined {
  const { containerLogs, execInPod, attachPod } = cluster;
  if (!containerLogs || !execInPod) return undefined;
  const message = (e: unknown): string => (e as Error).message;
  return {
    logs(ns, pod, container, opts) {
      try {
        return containerLogs.call(cluster, ns, pod, container, opts.previous ?? false, {
          timestamps: opts.timestamps,
          ...(opts.tail !== undefined && opts.tail >= 0 ? { tailLines: opts.tail } : {}),
          ...(opts.sinceSeconds !== undefined ? { sinceSeconds: opts.sinceSeconds } : {}),
        });
      } catch (e) {
        // kube-apiserver's own errors (the kubelet unreachable: `Error from server: Get "https://...`).
        if (e instanceof ApiError) throw e;
        return { error: message(e) };
      }
    },
    follow(ns, pod, container, opts, onLine) {
      return followLogs(cluster, ns, pod, container, opts, onLine);
    },
    exec(ns, pod, container, argv) {
      try {
        const p = execInPod.call(cluster, ns, pod, container, argv);
        if (p.settled && p.value) return p.value;
        return { running: p };
      } catch (e) {
        if (e instanceof ApiError) throw e;
        return { error: message(e) };
      }
    },
    ...(attachPod
      ? {
          attach(ns: string, pod: string, container: string) {
            try {
              return attachPod.call(cluster, ns, pod, container);
            } catch (e) {
              if (e instanceof ApiError) throw e;
              return { error: message(e) };
            }
          },
        }
      : {}),
  };
}

/** How often a followed log is read again, virtual ms (the kubelet's follow reads its file as it grows; a second is close enough to show). */
export const LOG_FOLLOW_POLL_MS = 1000;

/**
 * `kubectl logs -f`: the lines there now (per `opts`), then every line the container writes,
 * until the container ends. Mirrors the kubelet's follow (pkg/kubelet/kuberuntime/logs/logs.go
 * `ReadLogs` with `Follow`: it reads the file as it grows and stops once the container is no
 * longer running, so a restart ends the stream: kubectl then exits 0 without showing the next
 * instance). The log is read again every `LOG_FOLLOW_POLL_MS` of virtual time; the stream ends
 * quietly when the pod, its node's kubelet or the API go away (the connection closes).
 * `--previous` has nothing to follow: the lines, then the end.
 */
export function followLogs(
  cluster: PlaygroundCluster,
  ns: string,
  pod: string,
  container: string,
  opts: LogOptions,
  onLine: (line: string) => void,
): LogStream | NodeAccessError {
  const { containerLogs } = cluster;
  if (!containerLogs) return { error: 'no node layer' };
  const read = (previous: boolean, o: { timestamps?: boolean; tailLines?: number; sinceSeconds?: number } = {}): string[] =>
    containerLogs.call(cluster, ns, pod, container, previous, o);
  /** The container's current instance as the Pod's status has it (`undefined`: not running). */
  const instance = (): string | undefined => {
    const p = cluster.hostApi.tryGet('pods', ns, pod) as { status?: { containerStatuses?: { name: string; containerID?: string; state?: { running?: unknown } }[] } } | undefined;
    const st = p?.status?.containerStatuses?.find((c) => c.name === container);
    return st?.state?.running ? st.containerID : undefined;
  };
  // New lines are found after the last line delivered, compared with its timestamp (the kubelet
  // keeps a bounded log, so a count of lines would stall once old lines are rotated away).
  let first: string[];
  let lastSeen: string | undefined;
  let id: string | undefined;
  try {
    first = read(opts.previous ?? false, {
      timestamps: opts.timestamps,
      ...(opts.tail !== undefined && opts.tail >= 0 ? { tailLines: opts.tail } : {}),
      ...(opts.sinceSeconds !== undefined ? { sinceSeconds: opts.sinceSeconds } : {}),
    });
    lastSeen = opts.previous ? undefined : read(false, { timestamps: true, tailLines: 1 })[0];
    id = opts.previous ? undefined : instance();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    return { error: (e as Error).message };
  }
  for (const l of first) onLine(l);
  let ended = opts.previous === true || id === undefined;
  let stopped = false;
  let last = cluster.clock.now();
  /** The lines of an instance after `lastSeen`; false when `lastSeen` is not among them (another instance). */
  const more = (previous: boolean, mustContain: boolean): boolean => {
    const all = read(previous, { timestamps: true });
    const at = lastSeen === undefined ? -1 : all.lastIndexOf(lastSeen);
    if (at < 0 && mustContain && lastSeen !== undefined) return false;
    for (const l of all.slice(at + 1)) onLine(opts.timestamps ? l : l.slice(l.indexOf(' ') + 1));
    if (all.length > 0) lastSeen = all[all.length - 1];
    return true;
  };
  return {
    get ended() {
      return ended || stopped;
    },
    stop() {
      stopped = true;
    },
    wakeAt: () => last + LOG_FOLLOW_POLL_MS,
    poll() {
      if (ended || stopped || cluster.clock.now() < last + LOG_FOLLOW_POLL_MS) return;
      last = cluster.clock.now();
      try {
        const now = instance();
        if (now === id) {
          // the same instance, unless the log no longer holds the last line seen (it restarted
          // and the status does not show it yet): then the rest of the old one, and the end
          if (more(false, true)) return;
          more(true, false);
        } else if (now === undefined && cluster.hostApi.tryGet('pods', ns, pod)) {
          // stopped (not yet restarted): its last lines are still the current log
          more(false, false);
        } else if (now !== undefined) {
          more(true, false);
        }
      } catch {
        // the pod, the kubelet or the API went away: the stream closes
      }
      ended = true;
    },
  };
}

/** A shell on the laptop next to `cluster`. */
export function createPlaygroundShell(o: PlaygroundShellOptions): Shell {
  const c = o.cluster;
  const ctx: ShellContext = { clock: c.clock, rng: c.rng, api: c.hostApi, files: o.files, env: { ...(o.env ?? {}) } };
  const nodeAccess = clusterNodeAccess(c);
  const componentStatuses = c.componentStatuses ? () => c.componentStatuses!() : undefined;
  const kubectl = makeKubectl({ server: apiServerHostAddress(c), contextName: `kind-${c.name}`, nodeAccess, ...(componentStatuses ? { componentStatuses } : {}) });
  const commands: Record<string, Command> = {
    kubectl,
    docker: makeDocker({ cluster: c, ...(nodeAccess ? { nodeAccess } : {}) }),
    kind: makeKind({ cluster: c }),
    curl: makeHostCurl(c),
    ...(o.commands ?? {}),
  };
  return new Shell({ ctx, commands });
}
