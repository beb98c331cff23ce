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
import { makeKubectl } from './kubectl';
import { ApiError } from '../engine/api/errors';
import type { ExecResult, NodeAccess } from './kubectl';
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

/** A shell on the laptop next to `cluster`. */
export function createPlaygroundShell(o: PlaygroundShellOptions): Shell {
  const c = o.cluster;
  const ctx: ShellContext = { clock: c.clock, rng: c.rng, api: c.hostApi, files: o.files, env: { ...(o.env ?? {}) } };
  const kubectl = makeKubectl({ server: apiServerHostAddress(c), contextName: `kind-${c.name}`, nodeAccess: clusterNodeAccess(c) });
  const commands: Record<string, Command> = {
    kubectl,
    docker: makeDocker({ cluster: c }),
    kind: makeKind({ cluster: c }),
    ...(o.commands ?? {}),
  };
  return new Shell({ ctx, commands });
}
