/**
 * What the shell's node commands (`docker ...`, `kind ...`, and the commands run inside a node)
 * need from the simulated cluster. `Cluster` from src/engine/cluster.ts satisfies it as it is:
 * the names follow that file (`docker(verb, node)`, `dockerNetwork`, `systemctl`, `kill`,
 * `pgrep`, `pkill`, `mv`, `kindLoad`), so the faults the shell causes go through the cluster's
 * own methods and land in its trace.
 *
 * Also here: the Docker-side facts the shell prints about the node containers (IDs, the API
 * server's host port, the kind version that ships a given node image).
 */
import type { KubeObject } from '../engine/api/types';
import type { Clock } from '../engine/clock';
import type { Machine } from '../engine/node/machine';
import type { Containerd } from '../engine/node/runtime';
import type { CommandResult } from '../engine/node/journal';
import type { Signal } from '../engine/node/process';

/** One node container as the shell needs it. */
export interface ClusterNodeAccess {
  readonly name: string;
  readonly role: 'control-plane' | 'worker';
  /** Address on the kind network (`172.18.0.2`). */
  readonly nodeIP: string;
  /** The container: power, disk (`fs`), processes, systemd, journal. */
  readonly machine: Machine;
  /** The node's containerd (crictl). */
  readonly containerd: Containerd;
}

/** A port kind maps from the host into a node (`extraPortMappings`). */
export interface PortMappingAccess {
  containerPort: number;
  hostPort: number;
  listenAddress: string;
  protocol: string;
}

/** The cluster as the shell reaches it. */
export interface ClusterAccess {
  readonly clock: Clock;
  /** Cluster name (`k8s-lab`): kind's `--name`, the node name prefix. */
  readonly name: string;
  /** Kubernetes version of the node image (`v1.35.0`): `kindest/node:<version>`. */
  readonly version: string;
  /** The nodes in kind's order: control plane first, then workers. */
  readonly nodes: readonly ClusterNodeAccess[];
  /** The kind configuration's port mappings and API server port (docker ps PORTS). */
  readonly config?: {
    nodes: readonly { role: string; extraPortMappings?: readonly PortMappingAccess[] }[];
    networking?: { apiServerAddress?: string; apiServerPort?: number };
  };

  /** `docker stop|start|kill|restart NODE`: starts the change and answers at once. */
  docker(verb: 'stop' | 'start' | 'kill' | 'restart', node: string): CommandResult;
  /** `docker network disconnect|connect kind NODE`. */
  dockerNetwork(verb: 'disconnect' | 'connect', node: string): CommandResult;
  /** `systemctl ARGS...` inside NODE. */
  systemctl(node: string, argv: readonly string[]): CommandResult;
  /** `kill [-SIG] PID` inside NODE (stderr `kill: (PID) - No such process` when there is none). */
  kill(node: string, pid: number, signal?: Signal | string): CommandResult;
  /** `pgrep [-f] [-x] PATTERN` inside NODE: PIDs. */
  pgrep(node: string, pattern: string, opts?: { full?: boolean; exact?: boolean }): number[];
  /** `pkill [-SIG] [-f] [-x] PATTERN` inside NODE: how many matched. */
  pkill(node: string, pattern: string, signal?: Signal | string, opts?: { full?: boolean; exact?: boolean }): number;
  /** `mv SRC DST` inside NODE (absolute paths). */
  mv(node: string, src: string, dst: string): CommandResult;
  /** `kind load docker-image IMAGE... [--nodes a,b]`: kind's lines (stdout) or `ERROR: ...` (stderr). */
  kindLoad(images: string[], opts?: { nodes?: string[] }): CommandResult;
  /**
   * `GET /api/v1/componentstatuses` as kube-apiserver answers it, each component probed live
   * from the control-plane node. Throws the API's own error (ApiError) while it is not up.
   * Optional: without it kubectl derives the statuses from the components' Leases.
   */
  componentStatuses?(): KubeObject[];
}

/** FNV-1a over a string, as an unsigned 32-bit number. */
function fnv(s: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A node container's Docker ID (64 hex digits), stable for a cluster and node name. */
export function containerId(cluster: string, node: string): string {
  let out = '';
  let h = fnv(`${cluster}/${node}`);
  while (out.length < 64) {
    h = fnv(out + node, h);
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 64);
}

/**
 * The host port kind maps to the API server (`127.0.0.1:PORT->6443/tcp`): the configured
 * `apiServerPort`, else a port from the ephemeral range that kind's random pick would give,
 * fixed per cluster name so transcripts stay identical.
 */
export function apiServerHostPort(c: Pick<ClusterAccess, 'name' | 'config'>): number {
  const p = c.config?.networking?.apiServerPort;
  if (p) return p;
  return 32768 + (fnv(`apiserver/${c.name}`) % (60999 - 32768));
}

/** The API server address kubectl's kubeconfig points at (`127.0.0.1:PORT`). */
export function apiServerHostAddress(c: Pick<ClusterAccess, 'name' | 'config'>): string {
  return `${c.config?.networking?.apiServerAddress ?? '127.0.0.1'}:${apiServerHostPort(c)}`;
}

/**
 * The kind release whose default node image is `version`, and the Go it was built with, as
 * `kind version` prints them. Sources: kind release notes (v0.31.0 defaults to kindest/node
 * v1.35.0, v0.32.0 to v1.36.1) and `kind version` output of the release binaries
 * (`kind v0.31.0 go1.25.5 linux/amd64`, `kind v0.32.0 go1.26.3 linux/amd64`).
 */
export function kindReleaseFor(version: string): { kind: string; go: string } {
  const minor = Number(/^v?1\.(\d+)/.exec(version)?.[1] ?? 0);
  if (minor >= 36) return { kind: 'v0.32.0', go: 'go1.26.3' };
  if (minor === 35) return { kind: 'v0.31.0', go: 'go1.25.5' };
  if (minor === 34) return { kind: 'v0.30.0', go: 'go1.24.6' };
  return { kind: 'v0.29.0', go: 'go1.24.2' };
}

/** The node image (`kindest/node:v1.35.0`). */
export function nodeImage(c: Pick<ClusterAccess, 'version'>): string {
  return `kindest/node:${c.version}`;
}

/** A node by name, or undefined. */
export function findNode(c: ClusterAccess, name: string): ClusterNodeAccess | undefined {
  return c.nodes.find((n) => n.name === name);
}
