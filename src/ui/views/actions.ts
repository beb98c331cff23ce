/**
 * Actions on what a person points at (issue #6): nodes, systemd units, control-plane components,
 * pods and containers. Every action is the playground shell line it stands for; running it goes
 * through the store's `runLine`, so the line shows in the command area and the timeline and the
 * learner can type it next time.
 *
 * The lines are the ones the playground shell runs for real (src/shell/docker.ts,
 * src/shell/node-commands.ts, src/shell/kubectl/): `docker stop|start NODE`, `docker network
 * disconnect|connect kind NODE`, `docker exec NODE systemctl stop|start|restart UNIT`,
 * `docker exec NODE pkill -9 -x NAME` (`-x`: exactly that process name - a bare
 * `pkill containerd` would also match every `containerd-shim-runc-v2`), `docker exec NODE kill -9
 * PID`, `kubectl cordon|uncordon|drain NODE`, `kubectl delete pod`, and the bookshop's switches
 * through `kubectl exec ... -- curl -s localhost:8080/debug/...` (fixtures/k8s-bookshop/SOURCE.md).
 */
import { simStore } from '../state/store';

/** One action: what the menu says, the shell line it runs, and whether it breaks something. */
export interface Action {
  /** Stable id (keys, tests). */
  id: string;
  label: string;
  /** The playground shell line. */
  line: string;
  /** It stops or breaks something (drawn with a warning mark). */
  danger?: boolean;
  /** Not applicable now (shown greyed out with the reason). */
  disabled?: string;
}

/** Run an action's line in the playground shell (recorded in the command area and timeline). */
export function runAction(a: Action): void {
  simStore.getState().runLine(a.line);
}

/** What is known about a node when its actions are built (all optional: the map knows less than the supervision tree). */
export interface NodeFacts {
  name: string;
  /** Container power (`running`, `stopping`, `stopped`); undefined: unknown, offer both. */
  power?: string;
  /** On the kind network; undefined: unknown, offer both. */
  connected?: boolean;
  /** `spec.unschedulable` (cordoned); undefined: unknown, offer both. */
  unschedulable?: boolean;
  /**
   * The Node's `Ready` condition is `True` (its kubelet posts status, so the node is powered and on
   * the network as far as the API server knows). Used only where `power` / `connected` are unknown:
   * "Power on" and "Restore its network" are then shown greyed out (the shell lines still work:
   * the condition lags a `docker stop` by the node-monitor grace period).
   */
  ready?: boolean;
}

/** Power, network, cordon and drain of a node, plus the kill of its kubelet and containerd. */
export function nodeActions(n: NodeFacts): Action[] {
  const on = n.power === undefined ? undefined : n.power !== 'stopped';
  const out: Action[] = [];
  if (on !== false) out.push({ id: 'power-off', label: 'Power off the node', line: `docker stop ${n.name}`, danger: true });
  const reportsReady = n.ready === true ? 'the node reports Ready' : undefined;
  if (on !== true) out.push({ id: 'power-on', label: 'Power on the node', line: `docker start ${n.name}`, ...(on === undefined && reportsReady ? { disabled: reportsReady } : {}) });
  if (n.connected !== false) out.push({ id: 'net-cut', label: 'Cut its network', line: `docker network disconnect kind ${n.name}`, danger: true, ...(on === false ? { disabled: 'the node is off' } : {}) });
  if (n.connected !== true) out.push({ id: 'net-restore', label: 'Restore its network', line: `docker network connect kind ${n.name}`, ...(n.connected === undefined && reportsReady ? { disabled: reportsReady } : {}) });
  out.push({ id: 'kill-kubelet', label: 'Kill the kubelet (SIGKILL)', line: `docker exec ${n.name} pkill -9 -x kubelet`, danger: true, ...(on === false ? { disabled: 'the node is off' } : {}) });
  out.push({ id: 'kill-containerd', label: 'Kill containerd (SIGKILL)', line: `docker exec ${n.name} pkill -9 -x containerd`, danger: true, ...(on === false ? { disabled: 'the node is off' } : {}) });
  if (n.unschedulable !== true) out.push({ id: 'cordon', label: 'Cordon (no new pods)', line: `kubectl cordon ${n.name}` });
  if (n.unschedulable !== false) out.push({ id: 'uncordon', label: 'Uncordon', line: `kubectl uncordon ${n.name}` });
  out.push({ id: 'drain', label: 'Drain (evict its pods)', line: `kubectl drain ${n.name} --ignore-daemonsets --delete-emptydir-data`, danger: true });
  return out;
}

/** The program name of a unit's main process (`kubelet.service` -> `kubelet`). */
export function unitProgram(unit: string): string {
  return unit.replace(/\.service$/, '');
}

/**
 * Kill / stop / start / restart a systemd unit on a node. `facts.running`: its main process runs
 * (then "Start" is a no-op, as `systemctl start` of an active unit is, and is shown greyed out);
 * `facts.nodeOn === false` greys out everything.
 */
export function unitActions(node: string, unit: string, facts: { running?: boolean; nodeOn?: boolean } = {}): Action[] {
  const short = unitProgram(unit);
  const off = facts.nodeOn === false ? 'the node is off' : undefined;
  return [
    { id: `kill-${short}`, label: `Kill ${short} (SIGKILL)`, line: `docker exec ${node} pkill -9 -x ${short}`, danger: true, ...(off ? { disabled: off } : facts.running === false ? { disabled: 'no process runs' } : {}) },
    { id: `stop-${short}`, label: `Stop ${unit}`, line: `docker exec ${node} systemctl stop ${short}`, danger: true, ...(off ? { disabled: off } : {}) },
    { id: `start-${short}`, label: `Start ${unit}`, line: `docker exec ${node} systemctl start ${short}`, ...(off ? { disabled: off } : facts.running === true ? { disabled: 'it is already running' } : {}) },
    { id: `restart-${short}`, label: `Restart ${unit}`, line: `docker exec ${node} systemctl restart ${short}`, ...(off ? { disabled: off } : {}) },
  ];
}

/** The bookshop's app containers that serve the /debug switches on :8080. */
const BOOKSHOP_APPS = new Set(['catalog', 'orders', 'web']);

/** Memory `/debug/eat` allocates: over the 128Mi limit of catalog, orders and web, so the container is OOMKilled. */
export const EAT_MB = 200;

/** What is known about a pod when its actions are built. */
export interface PodFacts {
  namespace: string;
  name: string;
  /** Node it runs on (for process kills). */
  node?: string;
  /** Its containers: name and, while running, the main PID in the node's PID namespace. */
  containers?: { name: string; pid?: number; component?: string }[];
  /** A static pod's mirror (deleting it: the kubelet creates it again). */
  mirror?: boolean;
}

/** Delete the pod, kill a container's process, and the bookshop's switches (unready, liveness, memory). */
export function podActions(p: PodFacts): Action[] {
  const out: Action[] = [
    {
      id: 'delete',
      label: p.mirror ? 'Delete the mirror pod (the kubelet recreates it)' : 'Delete pod',
      line: `kubectl delete pod ${p.name} -n ${p.namespace}`,
      danger: true,
    },
  ];
  for (const c of p.containers ?? []) {
    if (!p.node) continue;
    if (c.component) {
      out.push({ id: `kill-${c.name}`, label: `Kill ${c.component} (SIGKILL)`, line: `docker exec ${p.node} pkill -9 -x ${c.component}`, danger: true, ...(c.pid === undefined ? { disabled: 'not running' } : {}) });
    } else if (c.pid !== undefined) {
      out.push({ id: `kill-${c.name}`, label: `Kill container ${c.name} (SIGKILL to PID ${c.pid})`, line: `docker exec ${p.node} kill -9 ${c.pid}`, danger: true });
    }
  }
  const app = p.namespace === 'bookshop' ? (p.containers ?? []).find((c) => BOOKSHOP_APPS.has(c.name)) ?? (p.containers === undefined && /^(catalog|orders|web)-/.test(p.name) ? { name: '' } : undefined) : undefined;
  if (app) {
    const exec = `kubectl exec -n ${p.namespace} ${p.name} --`;
    out.push({ id: 'unready', label: 'Make it unready (fail readiness)', line: `${exec} curl -s localhost:8080/debug/unready`, danger: true });
    out.push({ id: 'break', label: 'Break it (fail liveness)', line: `${exec} curl -s localhost:8080/debug/break`, danger: true });
    out.push({ id: 'eat', label: `Eat ${EAT_MB} MiB of memory (over its 128Mi limit)`, line: `${exec} curl -s 'localhost:8080/debug/eat?mb=${EAT_MB}'`, danger: true });
  }
  return out;
}
