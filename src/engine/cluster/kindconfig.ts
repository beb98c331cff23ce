/**
 * kind's cluster configuration file (`kind create cluster --config FILE`), API version
 * `kind.x-k8s.io/v1alpha4`: parsing, defaulting and validation, and the node names kind derives
 * from it.
 *
 * Mirrors sigs.k8s.io/kind pkg/apis/config/v1alpha4 (types.go, default.go) and
 * pkg/internal/apis/config (validate.go), and pkg/cluster/internal/create/actions/config and
 * providers/common (node naming: `<cluster>-control-plane`, `<cluster>-control-plane2`, ...,
 * `<cluster>-worker`, `<cluster>-worker2`, ...). Defaults: name `kind`, one control-plane node,
 * pod subnet 10.244.0.0/16, service subnet 10.96.0.0/16, IPv4, kube-proxy mode iptables, the
 * default CNI (kindnet) enabled. `kubeadmConfigPatches` and `kubeadmConfigPatchesJSON6902` are
 * kept (as text) but not applied: the playground's kubeadm configuration is fixed.
 *
 * Errors: `KindConfigError` with kind's wording where it has one (`ERROR: failed to create
 * cluster: ...` is the prefix the kind CLI adds, not part of the message).
 */
import { parseDocument } from 'yaml';
import { deepCopy } from '../api/types';
import { KIND_CONFIG_PARSES } from '../api/yaml-boot-parses';

/** `extraPortMappings[]`: a port of the host published to the node container. */
export interface KindPortMapping {
  containerPort: number;
  hostPort: number;
  listenAddress: string;
  protocol: 'TCP' | 'UDP' | 'SCTP';
}

/** `extraMounts[]`: a host path mounted into the node container (kept, not simulated). */
export interface KindMount {
  hostPath: string;
  containerPath: string;
  readOnly?: boolean;
  propagation?: string;
}

/** One `nodes[]` entry. */
export interface KindNodeConfig {
  role: 'control-plane' | 'worker';
  /** `image:` (kindest/node reference), when set. */
  image?: string;
  /** `labels:`: passed to the kubelet as `--node-labels`. */
  labels: Record<string, string>;
  extraPortMappings: KindPortMapping[];
  extraMounts: KindMount[];
  /** Node-level `kubeadmConfigPatches` (kept verbatim, not applied). */
  kubeadmConfigPatches: string[];
}

/** `networking:`. */
export interface KindNetworking {
  ipFamily: 'ipv4' | 'ipv6' | 'dual';
  apiServerAddress: string;
  /** 0 = a random free host port, as kind picks. */
  apiServerPort: number;
  podSubnet: string;
  serviceSubnet: string;
  disableDefaultCNI: boolean;
  kubeProxyMode: 'iptables' | 'ipvs' | 'nftables' | 'none';
  dnsSearch?: string[];
}

/** A parsed, defaulted kind `Cluster`. */
export interface KindClusterConfig {
  kind: 'Cluster';
  apiVersion: 'kind.x-k8s.io/v1alpha4';
  name: string;
  nodes: KindNodeConfig[];
  networking: KindNetworking;
  featureGates: Record<string, boolean>;
  runtimeConfig: Record<string, string>;
  /** Cluster-level `kubeadmConfigPatches` (kept verbatim, not applied). */
  kubeadmConfigPatches: string[];
  /** `kubeadmConfigPatchesJSON6902` (kept, not applied). */
  kubeadmConfigPatchesJSON6902: unknown[];
  containerdConfigPatches: string[];
}

/** A node of the cluster with the name kind gives its container. */
export interface KindNode extends KindNodeConfig {
  /** `k8s-lab-control-plane`, `k8s-lab-worker2`, ... */
  name: string;
  /** Position in the config (0-based). */
  index: number;
}

/** A configuration kind refuses; `message` is what follows `ERROR: failed to create cluster: `. */
export class KindConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KindConfigError';
  }
}

/** kind's defaults. Source: sigs.k8s.io/kind pkg/apis/config/v1alpha4/default.go. */
export const KIND_DEFAULTS = {
  name: 'kind',
  podSubnet: '10.244.0.0/16',
  serviceSubnet: '10.96.0.0/16',
  apiServerAddress: '127.0.0.1',
  kubeProxyMode: 'iptables',
} as const;

type Obj = Record<string, unknown>;

const CLUSTER_FIELDS = new Set([
  'kind',
  'apiVersion',
  'name',
  'nodes',
  'networking',
  'featureGates',
  'runtimeConfig',
  'kubeadmConfigPatches',
  'kubeadmConfigPatchesJSON6902',
  'containerdConfigPatches',
  'containerdConfigPatchesJSON6902',
]);
const NODE_FIELDS = new Set(['role', 'image', 'labels', 'extraMounts', 'extraPortMappings', 'kubeadmConfigPatches', 'kubeadmConfigPatchesJSON6902']);
const NETWORK_FIELDS = new Set(['ipFamily', 'apiServerAddress', 'apiServerPort', 'podSubnet', 'serviceSubnet', 'disableDefaultCNI', 'kubeProxyMode', 'dnsSearch']);

function unknownField(field: string, type: string): KindConfigError {
  // kind decodes strictly with sigs.k8s.io/yaml (UnmarshalStrict): `error unmarshaling JSON: while decoding JSON: json: unknown field "x"`.
  return new KindConfigError(`unable to decode config: error unmarshaling JSON: while decoding JSON: json: unknown field "${field}" (in ${type})`);
}

function strings(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new KindConfigError(`unable to decode config: ${what} must be a list`);
  return v.map((x) => String(x));
}

/** A valid IPv4 CIDR (`10.244.0.0/16`). */
function isCidr(s: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(s);
  return !!m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 32;
}

/**
 * Parse a kind cluster configuration (YAML). Unknown fields are errors (kind decodes strictly);
 * defaults are filled in. Errors: `KindConfigError` for YAML syntax, an unknown `kind` or
 * `apiVersion`, unknown fields, an invalid role, no control-plane node, a bad port or subnet.
 */
export function parseKindConfig(yaml: string): KindClusterConfig {
  // The default config's parse is precomputed (scripts/gen-boot-parses.ts; performance only).
  const pre = KIND_CONFIG_PARSES.find((e) => e.text === yaml);
  let raw: unknown;
  if (pre) raw = deepCopy(pre.value);
  else {
    const doc = parseDocument(yaml, { version: '1.1' });
    if (doc.errors.length) throw new KindConfigError(`unable to decode config: ${doc.errors[0].message.split('\n')[0]}`);
    raw = (doc.toJS() ?? {}) as unknown;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new KindConfigError('unable to decode config: expected a mapping');
  const c = raw as Obj;
  if (c.kind !== 'Cluster') throw new KindConfigError(`unknown kind "${String(c.kind ?? '')}" for apiVersion "${String(c.apiVersion ?? '')}"`);
  if (c.apiVersion !== 'kind.x-k8s.io/v1alpha4') {
    throw new KindConfigError(`unknown apiVersion: ${String(c.apiVersion ?? '')}`);
  }
  for (const k of Object.keys(c)) if (!CLUSTER_FIELDS.has(k)) throw unknownField(k, 'v1alpha4.Cluster');

  const nodesRaw = c.nodes === undefined || c.nodes === null ? [{ role: 'control-plane' }] : c.nodes;
  if (!Array.isArray(nodesRaw)) throw new KindConfigError('unable to decode config: nodes must be a list');
  const nodes: KindNodeConfig[] = nodesRaw.map((n, i) => {
    const o = (n ?? {}) as Obj;
    for (const k of Object.keys(o)) if (!NODE_FIELDS.has(k)) throw unknownField(k, 'v1alpha4.Node');
    const role = o.role === undefined ? 'control-plane' : o.role;
    if (role !== 'control-plane' && role !== 'worker') throw new KindConfigError(`invalid configuration: node ${i}: invalid role: "${String(role)}"`);
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries((o.labels ?? {}) as Obj)) labels[k] = v === null ? '' : String(v);
    const ports = ((o.extraPortMappings ?? []) as Obj[]).map((p) => {
      const containerPort = Number(p.containerPort ?? 0);
      const hostPort = Number(p.hostPort ?? 0);
      const protocol = String(p.protocol ?? 'TCP').toUpperCase();
      if (!Number.isInteger(containerPort) || containerPort < 0 || containerPort > 65535) throw new KindConfigError(`invalid configuration: node ${i}: invalid containerPort: ${String(p.containerPort)}`);
      if (!Number.isInteger(hostPort) || hostPort < -1 || hostPort > 65535) throw new KindConfigError(`invalid configuration: node ${i}: invalid hostPort: ${String(p.hostPort)}`);
      if (protocol !== 'TCP' && protocol !== 'UDP' && protocol !== 'SCTP') throw new KindConfigError(`invalid configuration: node ${i}: invalid protocol: ${String(p.protocol)}`);
      return { containerPort, hostPort, listenAddress: String(p.listenAddress ?? '0.0.0.0'), protocol } as KindPortMapping;
    });
    const mounts = ((o.extraMounts ?? []) as Obj[]).map((m) => ({
      hostPath: String(m.hostPath ?? ''),
      containerPath: String(m.containerPath ?? ''),
      ...(m.readOnly !== undefined ? { readOnly: !!m.readOnly } : {}),
      ...(m.propagation !== undefined ? { propagation: String(m.propagation) } : {}),
    }));
    return {
      role,
      ...(o.image !== undefined ? { image: String(o.image) } : {}),
      labels,
      extraPortMappings: ports,
      extraMounts: mounts,
      kubeadmConfigPatches: strings(o.kubeadmConfigPatches, 'kubeadmConfigPatches'),
    } as KindNodeConfig;
  });
  if (!nodes.some((n) => n.role === 'control-plane')) throw new KindConfigError('invalid configuration: must have at least one control-plane node');

  const net = (c.networking ?? {}) as Obj;
  for (const k of Object.keys(net)) if (!NETWORK_FIELDS.has(k)) throw unknownField(k, 'v1alpha4.Networking');
  const networking: KindNetworking = {
    ipFamily: (net.ipFamily as KindNetworking['ipFamily']) ?? 'ipv4',
    apiServerAddress: String(net.apiServerAddress ?? KIND_DEFAULTS.apiServerAddress),
    apiServerPort: Number(net.apiServerPort ?? 0),
    podSubnet: String(net.podSubnet ?? KIND_DEFAULTS.podSubnet),
    serviceSubnet: String(net.serviceSubnet ?? KIND_DEFAULTS.serviceSubnet),
    disableDefaultCNI: net.disableDefaultCNI === true,
    kubeProxyMode: (net.kubeProxyMode as KindNetworking['kubeProxyMode']) ?? KIND_DEFAULTS.kubeProxyMode,
    ...(net.dnsSearch !== undefined ? { dnsSearch: strings(net.dnsSearch, 'dnsSearch') } : {}),
  };
  if (networking.ipFamily !== 'ipv4') throw new KindConfigError(`invalid configuration: the playground simulates ipFamily ipv4 only, not "${networking.ipFamily}"`);
  if (!isCidr(networking.podSubnet)) throw new KindConfigError(`invalid configuration: invalid podSubnet: "${networking.podSubnet}"`);
  if (!isCidr(networking.serviceSubnet)) throw new KindConfigError(`invalid configuration: invalid serviceSubnet: "${networking.serviceSubnet}"`);
  if (!['iptables', 'ipvs', 'nftables', 'none'].includes(networking.kubeProxyMode)) throw new KindConfigError(`invalid configuration: invalid kubeProxyMode: ${networking.kubeProxyMode}`);

  const featureGates: Record<string, boolean> = {};
  for (const [k, v] of Object.entries((c.featureGates ?? {}) as Obj)) featureGates[k] = v === true || v === 'true';
  const runtimeConfig: Record<string, string> = {};
  for (const [k, v] of Object.entries((c.runtimeConfig ?? {}) as Obj)) runtimeConfig[k] = String(v);
  const name = c.name === undefined || c.name === null || c.name === '' ? KIND_DEFAULTS.name : String(c.name);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
    throw new KindConfigError(`'${name}' is not a valid cluster name, cluster names must match \`^[a-z0-9.-]+$\``);
  }
  return {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    name,
    nodes,
    networking,
    featureGates,
    runtimeConfig,
    kubeadmConfigPatches: strings(c.kubeadmConfigPatches, 'kubeadmConfigPatches'),
    kubeadmConfigPatchesJSON6902: Array.isArray(c.kubeadmConfigPatchesJSON6902) ? c.kubeadmConfigPatchesJSON6902 : [],
    containerdConfigPatches: strings(c.containerdConfigPatches, 'containerdConfigPatches'),
  };
}

/**
 * The nodes with the container names kind gives them: control planes first in config order
 * (`<name>-control-plane`, then `-control-plane2`, `-control-plane3`), then workers
 * (`<name>-worker`, `-worker2`, ...). Source: kind pkg/cluster/internal/providers/common/getport.go
 * and provision.go (`MakeNodeNamer`).
 */
export function kindNodes(config: KindClusterConfig): KindNode[] {
  const counters: Record<string, number> = {};
  const named = config.nodes.map((n, index) => {
    const c = (counters[n.role] = (counters[n.role] ?? 0) + 1);
    return { ...n, index, name: `${config.name}-${n.role}${c === 1 ? '' : c}` };
  });
  return [...named.filter((n) => n.role === 'control-plane'), ...named.filter((n) => n.role === 'worker')];
}
