/**
 * The Node object as the kubelet registers and reports it, and its Lease.
 *
 * Mirrors:
 * - pkg/kubelet/kubelet_node_status.go (`initialNode`: default labels, the controller-managed
 *   attach/detach annotation, `registerWithTaints`, `--node-labels`, providerID; `tryRegisterWithAPIServer`
 *   reconciling an existing Node; `tryUpdateNodeStatus`: post when changed or every
 *   nodeStatusReportFrequency);
 * - pkg/kubelet/nodestatus/setters.go (NodeAddress, MachineInfo, VersionInfo, DaemonEndpoints,
 *   the pressure conditions, `ReadyCondition` with `KubeletReady`/`KubeletNotReady`, the
 *   `Node <n> status is now: <event>` node events);
 * - pkg/kubelet/runtime.go (`runtimeErrors`: `container runtime status check may not have
 *   completed yet`, `container runtime is down`, `PLEG is not healthy: ...`);
 * - pkg/util/node/node.go (`nodeStatusHasChanged` ignores heartbeat times);
 * - staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go (the node Lease:
 *   `kube-node-lease/<node>`, holderIdentity, leaseDurationSeconds, renewTime, owned by the Node).
 *
 * Units: virtual ms unless a field says seconds.
 */
import { deepEqual, type KubeObject } from '../../api/types';
import type { TaintSpec } from './config';

/** Inputs of the node status setters (what the kubelet knows about itself). */
export interface NodeFacts {
  nodeName: string;
  /** `kubernetes.io/hostname` and the Hostname address. */
  hostname: string;
  /** InternalIP address (`--node-ip`). */
  nodeIP: string;
  /** Capacity as quantities (`cpu`, `memory`, `ephemeral-storage`, `pods`, hugepages). */
  capacity: Record<string, string>;
  /** Allocatable (capacity minus reservations); defaults to capacity. */
  allocatable?: Record<string, string>;
  /** `status.nodeInfo`. */
  nodeInfo: Record<string, string>;
  /** `status.images` (most recent first, at most 50). */
  images?: { names: string[]; sizeBytes: number }[];
  /** Errors that make the node NotReady (runtime, network, PLEG); empty = Ready. */
  notReadyErrors: string[];
  /** RFC 3339 now. */
  nowIso: string;
}

/**
 * True when two sets of facts give `setNodeStatus` the same input but for `nowIso`: equal
 * strings and records, `images` the same array (or both absent; the kubelet hands out one array
 * per runtime image generation), equal `notReadyErrors`. Performance only (false negatives are
 * fine: the caller then computes the status in full).
 */
export function sameNodeFacts(a: NodeFacts, b: NodeFacts): boolean {
  return (
    a.nodeName === b.nodeName &&
    a.hostname === b.hostname &&
    a.nodeIP === b.nodeIP &&
    a.images === b.images &&
    sameStrings(a.notReadyErrors, b.notReadyErrors) &&
    sameRecord(a.capacity, b.capacity) &&
    sameRecord(a.allocatable, b.allocatable) &&
    sameRecord(a.nodeInfo, b.nodeInfo)
  );
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Same keys in the same order with the same values (or both undefined). */
function sameRecord(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || a[ka[i]] !== b[ka[i]]) return false;
  return true;
}

/** `node.status.daemonEndpoints.kubeletEndpoint.Port` (the kubelet's `--port`, 10250). */
export const KUBELET_PORT = 10250;

/** Pressure conditions with their healthy reason and message (setters.go). */
const PRESSURE_CONDITIONS: ReadonlyArray<[string, string, string, string]> = [
  ['MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', 'NodeHasSufficientMemory'],
  ['DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', 'NodeHasNoDiskPressure'],
  ['PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', 'NodeHasSufficientPID'],
];

/** A node condition as the API carries it. */
export interface NodeCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

/**
 * `initialNode`: the Node the kubelet creates on first registration. Labels: hostname, os, arch
 * (stable and beta) plus `--node-labels`; annotation `volumes.kubernetes.io/controller-managed-attach-detach`;
 * `registerWithTaints` as spec.taints; providerID. Status comes from `setNodeStatus`.
 */
export function initialNode(o: { nodeName: string; hostname: string; labels: Record<string, string>; taints: TaintSpec[]; providerID?: string }): KubeObject {
  const node: KubeObject = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: o.nodeName,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': o.hostname,
        'kubernetes.io/os': 'linux',
        ...o.labels,
      },
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {
      ...(o.providerID ? { providerID: o.providerID } : {}),
      ...(o.taints.length ? { taints: o.taints.map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect })) } : {}),
    },
    status: {},
  };
  return node;
}

/**
 * `reconcileDefaultLabels` + the CMAD annotation, for a Node that already exists: the kubelet
 * keeps hostname/os/arch labels right and nothing else (taints and `--node-labels` are applied
 * only when the Node is created). Returns true when `node` changed.
 */
export function reconcileExistingNode(node: KubeObject, fresh: KubeObject): boolean {
  let changed = false;
  const labels = (node.metadata.labels = { ...(node.metadata.labels ?? {}) });
  for (const k of ['kubernetes.io/hostname', 'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch']) {
    const want = fresh.metadata.labels?.[k];
    if (want !== undefined && labels[k] !== want) {
      labels[k] = want;
      changed = true;
    }
  }
  const ann = (node.metadata.annotations = { ...(node.metadata.annotations ?? {}) });
  if (ann['volumes.kubernetes.io/controller-managed-attach-detach'] !== 'true') {
    ann['volumes.kubernetes.io/controller-managed-attach-detach'] = 'true';
    changed = true;
  }
  return changed;
}

/**
 * `setNodeStatus`: run the setters on `node.status` in place. Returns the node events to record
 * (`NodeHasSufficientMemory`, `NodeReady`, `NodeNotReady`, ...), each emitted when a condition
 * is first set or changes status.
 */
export function setNodeStatus(node: KubeObject, f: NodeFacts): string[] {
  const st = (node.status = node.status ?? {});
  const events: string[] = [];
  st.addresses = [
    { type: 'InternalIP', address: f.nodeIP },
    { type: 'Hostname', address: f.hostname },
  ];
  st.capacity = { ...f.capacity };
  st.allocatable = { ...(f.allocatable ?? f.capacity) };
  st.daemonEndpoints = { kubeletEndpoint: { Port: KUBELET_PORT } };
  st.nodeInfo = { ...f.nodeInfo };
  if (f.images) st.images = f.images.map((i) => ({ names: [...i.names], sizeBytes: i.sizeBytes }));
  // RuntimeHandlers (1.30+, from CRI Status: containerd's default handler and runc) and the
  // node features the kubelet reports (SupplementalGroupsPolicy, 1.31+).
  st.runtimeHandlers = ['', 'runc'].map((name) => ({ features: { recursiveReadOnlyMounts: true, userNamespaces: true }, name }));
  st.features = { supplementalGroupsPolicy: true };
  const old: NodeCondition[] = Array.isArray(st.conditions) ? st.conditions : [];
  const byType = new Map(old.map((c) => [c.type, c]));
  const next: NodeCondition[] = [];
  const put = (type: string, status: string, reason: string, message: string, eventOnChange?: string): void => {
    const prev = byType.get(type);
    const transition = !prev || prev.status !== status;
    next.push({
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: f.nowIso,
      lastTransitionTime: transition ? f.nowIso : prev.lastTransitionTime,
    });
    if (transition && eventOnChange) events.push(eventOnChange);
  };
  for (const [type, reason, message, event] of PRESSURE_CONDITIONS) put(type, 'False', reason, message, event);
  // Conditions someone else owns (NetworkUnavailable, node-problem-detector's) are kept.
  const ready = f.notReadyErrors.length === 0;
  const message = ready ? 'kubelet is posting ready status' : aggregateMessage(f.notReadyErrors);
  const prevReady = byType.get('Ready');
  // setters.go records NodeReady/NodeNotReady only when an existing Ready condition changes
  // status (a new condition, as at registration, records nothing).
  const readyEvent = prevReady && prevReady.status !== (ready ? 'True' : 'False') ? (ready ? 'NodeReady' : 'NodeNotReady') : undefined;
  const others = old.filter((c) => !['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].includes(c.type));
  put('Ready', ready ? 'True' : 'False', ready ? 'KubeletReady' : 'KubeletNotReady', message);
  if (readyEvent) events.push(readyEvent);
  // NodeReady is kept last (setters.go: "NodeReady condition needs to be the last in the list").
  st.conditions = [...others, ...next];
  return events;
}

/**
 * `utilerrors.NewAggregate(errs).Error()`: one error as is, several as `[a, b]`, duplicates once.
 * Source: staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go.
 */
export function aggregateMessage(errs: readonly string[]): string {
  const seen = [...new Set(errs)];
  return seen.length === 1 ? seen[0] : `[${seen.join(', ')}]`;
}

/**
 * `nodeStatusHasChanged`: a difference other than the conditions' `lastHeartbeatTime`.
 * Source: pkg/util/node/node.go.
 */
export function nodeStatusHasChanged(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  if (!a || !b) return a !== b;
  // Structural comparison (Semantic.DeepEqual), conditions compared without lastHeartbeatTime;
  // no serialisation of the whole status (50 images) every 10 s (performance only).
  if (!deepEqual({ ...a, conditions: undefined }, { ...b, conditions: undefined })) return true;
  const ca = a.conditions;
  const cb = b.conditions;
  if (!Array.isArray(ca) || !Array.isArray(cb)) return !deepEqual(ca, cb);
  if (ca.length !== cb.length) return true;
  for (let i = 0; i < ca.length; i++) {
    if (!deepEqual({ ...(ca[i] as Record<string, unknown>), lastHeartbeatTime: undefined }, { ...(cb[i] as Record<string, unknown>), lastHeartbeatTime: undefined })) return true;
  }
  return false;
}

/**
 * The node Lease as `newLease` builds it: `kube-node-lease/<node>`, holderIdentity = node name,
 * leaseDurationSeconds, renewTime (RFC 3339 with microseconds), owned by the Node when its uid is
 * known (`setNodeOwnerFunc`).
 */
export function newNodeLease(nodeName: string, leaseDurationSeconds: number, renewTime: string, nodeUid?: string): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: nodeName,
      namespace: 'kube-node-lease',
      ...(nodeUid ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }] } : {}),
    },
    spec: { holderIdentity: nodeName, leaseDurationSeconds, renewTime },
  };
}

/** Format bytes as the kubelet reports memory capacity: whole KiB (`16318760Ki`). */
export function memoryQuantity(bytes: number): string {
  return `${Math.floor(bytes / 1024)}Ki`;
}

/**
 * What `kubeadm init`'s `mark-control-plane` phase does to the control-plane Node once the API
 * answers (not the kubelet: a kubelet may not give itself `node-role.kubernetes.io/*` labels):
 * labels `node-role.kubernetes.io/control-plane: ""` and
 * `node.kubernetes.io/exclude-from-external-load-balancers: ""`, and the taint
 * `node-role.kubernetes.io/control-plane:NoSchedule` when missing. Returns the patched Node.
 * Throws ApiError (NotFound before the kubelet registered the Node, connection refused).
 * Source: cmd/kubeadm/app/phases/markcontrolplane/markcontrolplane.go.
 */
export function kubeadmMarkControlPlane(api: { get(t: string, ns: string | undefined, n: string): KubeObject; update(o: KubeObject, opts?: { fieldManager?: string }): KubeObject }, nodeName: string): KubeObject {
  const node = api.get('nodes', undefined, nodeName);
  node.metadata.labels = { ...(node.metadata.labels ?? {}), 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' };
  const taints: { key: string; effect: string }[] = node.spec?.taints ?? [];
  if (!taints.some((t) => t.key === 'node-role.kubernetes.io/control-plane' && t.effect === 'NoSchedule')) {
    node.spec = { ...(node.spec ?? {}), taints: [...taints, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] };
  }
  return api.update(node, { fieldManager: 'kubeadm' });
}
