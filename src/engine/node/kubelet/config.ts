/**
 * The kubelet's configuration: the command line (`KubeletFlags`) and the KubeletConfiguration
 * file (`--config`, /var/lib/kubelet/config.yaml on a kubeadm/kind node), with the v1beta1
 * defaults applied to every field left empty or zero - kubeadm writes `0s` for most durations
 * and relies on exactly that defaulting.
 *
 * Mirrors:
 * - cmd/kubelet/app/server.go (`NewKubeletCommand`: parse flags, `loadConfigFile`, the error
 *   `failed to load kubelet config file, path: %s, error: %w`);
 * - cmd/kubelet/app/options/options.go (the flags this simulation reads);
 * - pkg/kubelet/kubeletconfig/configfiles/configfiles.go (`failed to read kubelet config file %q,
 *   error: %v`, `kubelet config file %q was empty`);
 * - pkg/kubelet/kubeletconfig/util/codec/codec.go (`failed to decode: %w`);
 * - pkg/kubelet/apis/config/v1beta1/defaults.go (the defaults below).
 *
 * Units: every duration is virtual milliseconds.
 */
import { parseManifests } from '../../api/yaml';
import type { FileSystem } from '../fs';
import { FsError } from '../fs';

/** A taint as `registerWithTaints` / `--register-with-taints` carry it. */
export interface TaintSpec {
  key: string;
  value?: string;
  effect: string;
}

/** The parts of KubeletConfiguration (kubelet.config.k8s.io/v1beta1) the simulation uses, defaulted. */
export interface KubeletConfig {
  /** Directory of static pod manifests; '' disables the file source. */
  staticPodPath: string;
  /** How often the static pod directory is rescanned (default 20 s). */
  fileCheckFrequencyMs: number;
  /** Pod worker resync period (default 1 min). */
  syncFrequencyMs: number;
  /** How often node status is computed and posted if changed (default 10 s). */
  nodeStatusUpdateFrequencyMs: number;
  /** Longest time between two status posts even without change (default 5 min). */
  nodeStatusReportFrequencyMs: number;
  /** Lease duration in seconds (default 40); renewed every quarter of it. */
  nodeLeaseDurationSeconds: number;
  /** Pods this node accepts (default 110): `capacity.pods`. */
  maxPods: number;
  /** Register the Node object (default true). */
  registerNode: boolean;
  /** Taints the Node is created with (only on first registration). */
  registerWithTaints: TaintSpec[];
  /** Pull one image at a time (default true). */
  serializeImagePulls: boolean;
  /** Cap of the crash-loop backoff (`crashLoopBackOff.maxContainerRestartPeriod`, default 300 s). */
  maxContainerRestartPeriodMs: number;
  /** `clusterDNS` (for pods' resolv.conf; kind: 10.96.0.10). */
  clusterDNS: string[];
  /** `clusterDomain` (kind: cluster.local). */
  clusterDomain: string;
  /** CRI endpoint (flag or config). */
  containerRuntimeEndpoint: string;
  /** Feature gates as given. */
  featureGates: Record<string, boolean>;
}

/** Defaults of KubeletConfiguration v1beta1. Source: pkg/kubelet/apis/config/v1beta1/defaults.go. */
export const KUBELET_CONFIG_DEFAULTS: Readonly<KubeletConfig> = Object.freeze({
  staticPodPath: '',
  fileCheckFrequencyMs: 20_000,
  syncFrequencyMs: 60_000,
  nodeStatusUpdateFrequencyMs: 10_000,
  nodeStatusReportFrequencyMs: 5 * 60_000,
  nodeLeaseDurationSeconds: 40,
  maxPods: 110,
  registerNode: true,
  registerWithTaints: [],
  serializeImagePulls: true,
  maxContainerRestartPeriodMs: 300_000,
  clusterDNS: [],
  clusterDomain: '',
  containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
  featureGates: {},
});

/** The command line flags the simulation reads (cmd/kubelet/app/options/options.go `KubeletFlags`). */
export interface KubeletFlags {
  /** `--config`. */
  config?: string;
  /** `--kubeconfig`. */
  kubeconfig?: string;
  /** `--bootstrap-kubeconfig`. */
  bootstrapKubeconfig?: string;
  /** `--hostname-override`. */
  hostnameOverride?: string;
  /** `--node-ip`. */
  nodeIP?: string;
  /** `--node-labels` (key=value pairs). */
  nodeLabels: Record<string, string>;
  /** `--register-with-taints`. */
  registerWithTaints?: TaintSpec[];
  /** `--provider-id`. */
  providerID?: string;
  /** `--pod-infra-container-image` (deprecated; the sandbox image comes from containerd's config). */
  podInfraContainerImage?: string;
  /** `--container-runtime-endpoint`. */
  containerRuntimeEndpoint?: string;
}

/** Flags that take a value and are accepted but not otherwise modelled. */
const IGNORED_VALUE_FLAGS = new Set(['runtime-cgroups', 'v', 'cgroup-driver', 'cgroup-root', 'fail-swap-on', 'image-service-endpoint', 'root-dir', 'cert-dir', 'kube-reserved', 'system-reserved']);

/** A failure while parsing flags or loading the config: the text `"command failed" err=...` prints. */
export class KubeletConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubeletConfigError';
  }
}

/**
 * Parse `--taint` lists as `--register-with-taints` takes them: `key=value:Effect,key2:Effect`.
 * Source: pkg/util/taints/taints.go (`ParseTaints`).
 */
export function parseTaints(spec: string): TaintSpec[] {
  const out: TaintSpec[] = [];
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(part);
    if (!m) throw new KubeletConfigError(`invalid taint spec: ${part}`);
    out.push({ key: m[1], ...(m[2] !== undefined && m[2] !== '' ? { value: m[2] } : {}), effect: m[3] });
  }
  return out;
}

/**
 * Parse the kubelet's argv (argv[0] is the binary). `--flag=value` and `--flag value` are both
 * accepted, as pflag does. Errors: `failed to parse kubelet flag: unknown flag: --x` and
 * `unknown command x` for a non-flag argument (cmd/kubelet/app/server.go).
 */
export function parseKubeletFlags(argv: readonly string[]): KubeletFlags {
  const flags: KubeletFlags = { nodeLabels: {} };
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-')) throw new KubeletConfigError(`unknown command ${a}`);
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = (eq >= 0 ? body.slice(0, eq) : body).replace(/_/g, '-');
    const take = (): string => {
      if (eq >= 0) return body.slice(eq + 1);
      const v = args[i + 1];
      if (v === undefined) throw new KubeletConfigError(`failed to parse kubelet flag: flag needs an argument: --${name}`);
      i++;
      return v;
    };
    switch (name) {
      case 'config':
        flags.config = take();
        break;
      case 'kubeconfig':
        flags.kubeconfig = take();
        break;
      case 'bootstrap-kubeconfig':
        flags.bootstrapKubeconfig = take();
        break;
      case 'hostname-override':
        flags.hostnameOverride = take();
        break;
      case 'node-ip':
        flags.nodeIP = take();
        break;
      case 'node-labels': {
        const v = take();
        for (const kv of v.split(',').map((s) => s.trim()).filter(Boolean)) {
          const j = kv.indexOf('=');
          if (j < 0) throw new KubeletConfigError(`failed to parse kubelet flag: invalid argument "${v}" for "--node-labels" flag: ${kv} must be formatted as key=value`);
          flags.nodeLabels[kv.slice(0, j)] = kv.slice(j + 1);
        }
        break;
      }
      case 'register-with-taints':
        flags.registerWithTaints = parseTaints(take());
        break;
      case 'provider-id':
        flags.providerID = take();
        break;
      case 'pod-infra-container-image':
        flags.podInfraContainerImage = take();
        break;
      case 'container-runtime-endpoint':
        flags.containerRuntimeEndpoint = take();
        break;
      default:
        if (IGNORED_VALUE_FLAGS.has(name)) {
          take();
          break;
        }
        throw new KubeletConfigError(`failed to parse kubelet flag: unknown flag: --${name}`);
    }
  }
  return flags;
}

/**
 * A Go duration (`20s`, `1m0s`, `5m`, `300ms`, `1h30m`) in ms; undefined when malformed.
 * Source: Go time.ParseDuration.
 */
export function parseGoDuration(s: unknown): number | undefined {
  if (typeof s === 'number') return s === 0 ? 0 : undefined;
  if (typeof s !== 'string') return undefined;
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    total += Number(m[1]) * unit[m[2]];
    pos = re.lastIndex;
  }
  if (pos !== s.length || s.length === 0) return undefined;
  return Math.round(total);
}

/** Read a positive duration field, or the default when absent or zero (kubeadm writes `0s`). */
function durationField(doc: Record<string, unknown>, key: string, def: number): number {
  const v = parseGoDuration(doc[key]);
  return v === undefined || v === 0 ? def : v;
}

/**
 * `loadConfigFile` + `DecodeKubeletConfiguration`: read and default the KubeletConfiguration at
 * `path` on the node's disk. Throws `KubeletConfigError` with the kubelet's whole error chain:
 * `failed to load kubelet config file, path: P, error: failed to load Kubelet config file P, error <cause>`
 * where the cause is `failed to read kubelet config file "P", error: open P: no such file or directory`,
 * `kubelet config file "P" was empty` or `failed to decode: ...`.
 */
export function loadKubeletConfig(fs: FileSystem, path: string): KubeletConfig {
  const wrap = (cause: string): KubeletConfigError =>
    new KubeletConfigError(`failed to load kubelet config file, path: ${path}, error: failed to load Kubelet config file ${path}, error ${cause}`);
  let text: string;
  try {
    if (fs.isDirectory(path)) throw wrap(`failed to read kubelet config file "${path}", error: read ${path}: is a directory`);
    text = fs.readFile(path);
  } catch (e) {
    if (e instanceof KubeletConfigError) throw e;
    if (e instanceof FsError) throw wrap(`failed to read kubelet config file "${path}", error: open ${path}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`);
    throw e;
  }
  if (text.trim() === '') throw wrap(`kubelet config file "${path}" was empty`);
  const docs = parseManifests(text, path);
  const first = docs[0];
  if (!first || first.error || !first.object) {
    const msg = (first?.error ?? 'Object \'Kind\' is missing in \'{}\'')
      .replace(/^error: error parsing [^:]*: /, '')
      .replace(/^error: error validating "[^"]*": error validating data: /, '');
    throw wrap(`failed to decode: ${msg}`);
  }
  const doc = first.object as unknown as Record<string, unknown>;
  if (doc.kind !== 'KubeletConfiguration' || doc.apiVersion !== 'kubelet.config.k8s.io/v1beta1') {
    throw wrap(`failed to decode: no kind "${String(doc.kind)}" is registered for version "${String(doc.apiVersion)}" in scheme "pkg/kubelet/apis/config/scheme/scheme.go:33"`);
  }
  return defaultKubeletConfig(doc);
}

/** Apply the v1beta1 defaults to a decoded KubeletConfiguration document. */
export function defaultKubeletConfig(doc: Record<string, unknown>): KubeletConfig {
  const d = KUBELET_CONFIG_DEFAULTS;
  const clb = (doc.crashLoopBackOff ?? {}) as Record<string, unknown>;
  const taints = Array.isArray(doc.registerWithTaints)
    ? (doc.registerWithTaints as Record<string, unknown>[]).map((t) => ({ key: String(t.key ?? ''), ...(t.value ? { value: String(t.value) } : {}), effect: String(t.effect ?? '') }))
    : [];
  const maxPods = typeof doc.maxPods === 'number' && doc.maxPods > 0 ? doc.maxPods : d.maxPods;
  const lease = typeof doc.nodeLeaseDurationSeconds === 'number' && doc.nodeLeaseDurationSeconds > 0 ? doc.nodeLeaseDurationSeconds : d.nodeLeaseDurationSeconds;
  const restartMax = parseGoDuration(clb.maxContainerRestartPeriod);
  return {
    staticPodPath: typeof doc.staticPodPath === 'string' ? doc.staticPodPath : d.staticPodPath,
    fileCheckFrequencyMs: durationField(doc, 'fileCheckFrequency', d.fileCheckFrequencyMs),
    syncFrequencyMs: durationField(doc, 'syncFrequency', d.syncFrequencyMs),
    nodeStatusUpdateFrequencyMs: durationField(doc, 'nodeStatusUpdateFrequency', d.nodeStatusUpdateFrequencyMs),
    nodeStatusReportFrequencyMs: durationField(doc, 'nodeStatusReportFrequency', d.nodeStatusReportFrequencyMs),
    nodeLeaseDurationSeconds: lease,
    maxPods,
    registerNode: doc.registerNode === undefined ? d.registerNode : doc.registerNode !== false,
    registerWithTaints: taints,
    serializeImagePulls: doc.serializeImagePulls === undefined ? d.serializeImagePulls : doc.serializeImagePulls !== false,
    maxContainerRestartPeriodMs: restartMax && restartMax >= 1000 && restartMax <= 300_000 ? restartMax : d.maxContainerRestartPeriodMs,
    clusterDNS: Array.isArray(doc.clusterDNS) ? (doc.clusterDNS as unknown[]).map(String) : [],
    clusterDomain: typeof doc.clusterDomain === 'string' ? doc.clusterDomain : '',
    containerRuntimeEndpoint: typeof doc.containerRuntimeEndpoint === 'string' && doc.containerRuntimeEndpoint ? doc.containerRuntimeEndpoint : d.containerRuntimeEndpoint,
    featureGates: (doc.featureGates ?? {}) as Record<string, boolean>,
  };
}
