/**
 * `kubectl describe`: the per-kind describers (Pod, Deployment, ReplicaSet, Node, Service,
 * StatefulSet, DaemonSet, Job, CronJob, Namespace, ConfigMap, Secret, ServiceAccount,
 * EndpointSlice, PersistentVolumeClaim, Endpoints, PersistentVolume, StorageClass, Ingress,
 * IngressClass, LimitRange, Role/ClusterRole, RoleBinding/ClusterRoleBinding) and the generic
 * one for every other kind, most ending with the Events table (the RBAC and LimitRange
 * describers have none, as in kubectl).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go line by line (the `PrefixWriter`
 * levels of two spaces, `tabbedString` = text/tabwriter minwidth 0, padding 2, the
 * `printLabelsMultiline` / `printAnnotationsMultiline` / `printPodTolerationsMultiline` /
 * `printNodeTaintsMultiline` helpers, `DescribeEvents` with ages `2m3s (x4 over 5m)` and, as
 * kubectl 1.35+ does (PR #133627), the event's `involvedObject.fieldPath` before its message),
 * and staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go (name prefixes: `describe pods web`
 * describes every pod whose name starts with `web`; several objects are separated by a blank
 * line).
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { ApiError } from '../../engine/api/errors';
import { labelSelectorToString, selectorFromLabelSelector } from '../../engine/api/labels';
import { canonicalQuantity, formatQuantity, parseQuantity } from '../../engine/api/quantity';
import { formatLabels, humanDuration, tabwrite, timestampMs } from '../printers';
import { goQuote } from '../printers/gofmt';
import { discover, fail, printError, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** describe.go `LEVEL_0` .. `LEVEL_4`: two spaces per level. */
const L0 = 0;
const L1 = 1;
const L2 = 2;
const L3 = 3;

/** The annotations describe never shows (`skipAnnotations`). */
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

/** describe.go `maxAnnotationLen`. */
const MAX_ANNOTATION_LEN = 140;

/** describe.go `PrefixWriter` over a buffer that `tabbedString` aligns at the end. */
export class PrefixWriter {
  buf = '';
  constructor(private readonly indent = 0) {}
  write(level: number, text: string): void {
    this.buf += '  '.repeat(level + this.indent) + text;
  }
  writeLine(text: string): void {
    this.buf += text + '\n';
  }
  /** A writer that adds `levels` to every write (describe.go `NewNestedPrefixWriter`). */
  nested(levels: number): PrefixWriter {
    const parent = this as PrefixWriter;
    const w = new PrefixWriter(this.indent + levels);
    w.write = (level, text) => parent.write(level + levels, text);
    w.writeLine = (text) => parent.write(levels, text + '\n');
    return w;
  }
}

/** describe.go `tabbedString`: text/tabwriter with minwidth 0, tabwidth 8, padding 2. */
export function tabbed(f: (w: PrefixWriter) => void): string {
  const w = new PrefixWriter();
  f(w);
  return tabwrite(w.buf, 0, 2);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's `time.RFC1123Z` of a timestamp in UTC: `Mon, 05 Jan 2026 06:00:00 +0000`. The zero time for a missing one. */
export function rfc1123z(ts: unknown): string {
  const ms = timestampMs(ts);
  if (ms === undefined) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const days = Math.floor(ms / 86_400_000);
  const dow = DAYS[(((days + 4) % 7) + 7) % 7];
  const iso = typeof ts === 'string' ? ts : '';
  const y = iso.slice(0, 4);
  const mo = MONTHS[Number(iso.slice(5, 7)) - 1];
  const d = iso.slice(8, 10);
  return `${dow}, ${d} ${mo} ${y} ${iso.slice(11, 19)} +0000`;
}

/** Context for ages. */
interface Clock {
  now: number;
}

function since(c: Clock, ts: unknown): string {
  const t = timestampMs(ts);
  if (t === undefined) return '<unknown>';
  return humanDuration(c.now - t);
}

function sortedKeys(m: Record<string, unknown> | undefined): string[] {
  return Object.keys(m ?? {}).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** describe.go `printLabelsMultilineWithIndent`. */
function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined, initialIndent = '', innerIndent = '\t'): void {
  w.write(L0, `${initialIndent}${title}:${innerIndent}`);
  const keys = sortedKeys(labels);
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) {
      w.write(L0, initialIndent);
      w.write(L0, innerIndent);
    }
    w.write(L0, `${k}=${labels![k]}\n`);
  });
}

/** describe.go `printAnnotationsMultiline` (long or multi-line values on their own indented lines). */
function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | undefined): void {
  w.write(L0, `${title}:\t`);
  const keys = sortedKeys(annotations).filter((k) => !SKIP_ANNOTATIONS.has(k));
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const indent = '\t';
  keys.forEach((key, i) => {
    if (i !== 0) w.write(L0, indent);
    const value = annotations![key].replace(/\n$/, '');
    if (value.length + key.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
      w.write(L0, `${key}:\n`);
      for (const s of value.split('\n')) {
        w.write(L0, `${indent}  ${s.length > MAX_ANNOTATION_LEN - 2 ? s.slice(0, MAX_ANNOTATION_LEN - 2) + '...' : s}\n`);
      }
    } else {
      w.write(L0, `${key}: ${value}\n`);
    }
  });
}

/** `Taint.ToString()`: `key=value:Effect`, `key:Effect`. */
function taintString(t: Any): string {
  if (!t.value) return `${t.key}:${t.effect}`;
  return `${t.key}=${t.value}:${t.effect}`;
}

/** describe.go `printNodeTaintsMultiline` (sorted by effect, then key). */
function printTaintsMultiline(w: PrefixWriter, title: string, taints: Any[] | undefined): void {
  w.write(L0, `${title}:\t`);
  if (!taints || taints.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const sorted = [...taints].sort((a, b) => {
    const ka = `${a.effect ?? ''},${a.key ?? ''}`;
    const kb = `${b.effect ?? ''},${b.key ?? ''}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(L0, '\t');
    w.write(L0, `${taintString(t)}\n`);
  });
}

/** describe.go `printTolerationsMultilineWithIndent` (sorted by key). */
function printTolerationsMultiline(w: PrefixWriter, title: string, tolerations: Any[] | undefined, initialIndent = ''): void {
  w.write(L0, `${initialIndent}${title}:\t`);
  if (!tolerations || tolerations.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const sorted = [...tolerations].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
  sorted.forEach((t, i) => {
    if (i !== 0) {
      w.write(L0, initialIndent);
      w.write(L0, '\t');
    }
    let s = t.key ?? '';
    if (t.value) s += `=${t.value}`;
    if (t.effect) s += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) s += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (typeof t.tolerationSeconds === 'number') s += ` for ${t.tolerationSeconds}s`;
    w.write(L0, s + '\n');
  });
}

/** describe.go `printController`: `Kind/name` of the controller ownerReference. */
function controllerOf(obj: KubeObject): string {
  const ref = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  return ref ? `${ref.kind}/${ref.name}` : '';
}

/** An intstr as Go prints it (`25%`, `1`). */
function intOrString(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

// ------------------------------------------------------------------------------------------
// Events
// ------------------------------------------------------------------------------------------

/** `event.SortableEvents`' time: series last observed, else lastTimestamp, else eventTime. */
function eventTime(e: Any): number {
  return timestampMs(e.series?.lastObservedTime) ?? timestampMs(e.lastTimestamp) ?? timestampMs(e.eventTime) ?? 0;
}

/**
 * describe.go `searchEvents`: events whose involvedObject has the object's name, namespace,
 * kind (unless `kind` is '') and uid, listed in the object's namespace.
 */
function searchEvents(env: Env, ref: { name: string; namespace?: string; kind: string; uid?: string }): Any[] {
  const list = env.api.list('events', { namespace: ref.namespace || undefined }).items as Any[];
  return list.filter((e) => {
    const io = e.involvedObject ?? {};
    if ((io.name ?? '') !== ref.name) return false;
    if ((io.namespace ?? '') !== (ref.namespace ?? '')) return false;
    if (ref.kind && io.kind !== ref.kind) return false;
    if (ref.uid && (io.uid ?? '') !== ref.uid) return false;
    return true;
  });
}

function eventsFor(env: Env, obj: KubeObject, kind = obj.kind): Any[] {
  return searchEvents(env, { name: obj.metadata.name ?? '', namespace: obj.metadata.namespace, kind, uid: obj.metadata.uid });
}

/** describe.go `DescribeEvents`. */
function describeEvents(w: PrefixWriter, events: Any[], c: Clock): void {
  if (events.length === 0) {
    w.write(L0, 'Events:\t<none>\n');
    return;
  }
  const sorted = events.map((e, i) => ({ e, i })).sort((a, b) => eventTime(a.e) - eventTime(b.e) || a.i - b.i);
  w.write(L0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(L1, '----\t------\t----\t----\t-------\n');
  for (const { e } of sorted) {
    let first = since(c, e.eventTime);
    if (!timestampMs(e.eventTime)) first = since(c, e.firstTimestamp);
    let interval: string;
    if (e.series) interval = `${since(c, e.series.lastObservedTime)} (x${e.series.count} over ${first})`;
    else if ((e.count ?? 0) > 1) interval = `${since(c, e.lastTimestamp)} (x${e.count} over ${first})`;
    else interval = first;
    const source = e.source?.component || e.reportingComponent || '';
    let message = String(e.message ?? '').trim();
    const fieldPath = e.involvedObject?.fieldPath;
    if (fieldPath) message = `${fieldPath}: ${message}`;
    w.write(L1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${message}\n`);
  }
}

// ------------------------------------------------------------------------------------------
// Containers and pod templates
// ------------------------------------------------------------------------------------------

function describeStatus(w: PrefixWriter, stateName: string, state: Any): void {
  if (state?.running) {
    w.write(L2, `${stateName}:\tRunning\n`);
    w.write(L3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state?.waiting) {
    w.write(L2, `${stateName}:\tWaiting\n`);
    if (state.waiting.reason) w.write(L3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state?.terminated) {
    const t = state.terminated;
    w.write(L2, `${stateName}:\tTerminated\n`);
    if (t.reason) w.write(L3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(L3, `Message:\t${t.message}\n`);
    w.write(L3, `Exit Code:\t${t.exitCode ?? 0}\n`);
    if ((t.signal ?? 0) > 0) w.write(L3, `Signal:\t${t.signal}\n`);
    w.write(L3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(L3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(L2, `${stateName}:\tWaiting\n`);
  }
}

/** describe.go `DescribeProbe`. */
export function describeProbe(p: Any): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 0}s period=${p.periodSeconds ?? 0}s #success=${p.successThreshold ?? 0} #failure=${p.failureThreshold ?? 0}`;
  if (p.exec) return `exec [${(p.exec.command ?? []).join(' ')}] ${attrs}`;
  if (p.httpGet) {
    const h = p.httpGet;
    const port = intOrString(h.port);
    const host = h.host ?? '';
    const hostPort = port ? (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`) : host;
    const scheme = String(h.scheme ?? '').toLowerCase();
    return `http-get ${scheme}://${hostPort}${h.path ?? ''} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${intOrString(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function quantityString(q: unknown): string {
  try {
    return canonicalQuantity(q as string);
  } catch {
    return String(q);
  }
}

function describeResources(w: PrefixWriter, resources: Any, level: number): void {
  if (!resources) return;
  const limits = resources.limits ?? {};
  const requests = resources.requests ?? {};
  if (Object.keys(limits).length > 0) w.write(level, 'Limits:\n');
  for (const k of sortedKeys(limits)) w.write(level + 1, `${k}:\t${quantityString(limits[k])}\n`);
  if (Object.keys(requests).length > 0) w.write(level, 'Requests:\n');
  for (const k of sortedKeys(requests)) w.write(level + 1, `${k}:\t${quantityString(requests[k])}\n`);
}

/**
 * The value of a downward-API `fieldRef` as describe resolves it (describe.go
 * `EnvValueRetriever`): kubectl's scheme converts only `metadata.name` and `metadata.namespace`
 * field labels, so every other path (`status.podIP`, `spec.nodeName`, ...) shows empty.
 */
function fieldRefValue(pod: Any, path: string): string {
  if (path === 'metadata.name') return pod.metadata?.name ?? '';
  if (path === 'metadata.namespace') return pod.metadata?.namespace ?? '';
  return '';
}

function describeContainers(w: PrefixWriter, label: string, containers: Any[] | undefined, statuses: Any[] | undefined, pod: Any | undefined, space: string): void {
  const byName = new Map<string, Any>();
  for (const s of statuses ?? []) byName.set(s.name, s);
  const cs = containers ?? [];
  w.write(L0, `${space}${label}:${cs.length === 0 ? ' <none>' : ''}\n`);
  const nameIndent = space.length > 0 ? ' ' : '';
  for (const c of cs) {
    const status = byName.get(c.name);
    const ok = status !== undefined;
    w.write(L1, `${nameIndent}${c.name}:\n`);
    if (ok) w.write(L2, `Container ID:\t${status.containerID ?? ''}\n`);
    w.write(L2, `Image:\t${c.image ?? ''}\n`);
    if (ok) w.write(L2, `Image ID:\t${status.imageID ?? ''}\n`);
    const ports = (c.ports ?? []).map((p: Any) => `${p.containerPort ?? 0}/${p.protocol ?? ''}`).join(', ');
    if (ports.includes(',')) w.write(L2, `Ports:\t${ports}\n`);
    else w.write(L2, `Port:\t${ports || '<none>'}\n`);
    const hostPorts = (c.ports ?? []).map((p: Any) => `${p.hostPort ?? 0}/${p.protocol ?? ''}`).join(', ');
    if (hostPorts.includes(',')) w.write(L2, `Host Ports:\t${hostPorts}\n`);
    else w.write(L2, `Host Port:\t${hostPorts || '<none>'}\n`);
    const sp = c.securityContext?.seccompProfile;
    if (sp) {
      w.write(L2, `SeccompProfile:\t${sp.type}\n`);
      if (sp.type === 'Localhost') w.write(L3, `LocalhostProfile:\t${sp.localhostProfile ?? ''}\n`);
    }
    if ((c.command ?? []).length > 0) {
      w.write(L2, 'Command:\n');
      for (const x of c.command) for (const s of String(x).split('\n')) w.write(L3, `${s}\n`);
    }
    if ((c.args ?? []).length > 0) {
      w.write(L2, 'Args:\n');
      for (const x of c.args) for (const s of String(x).split('\n')) w.write(L3, `${s}\n`);
    }
    if (ok) {
      describeStatus(w, 'State', status.state);
      if (status.lastState?.terminated) describeStatus(w, 'Last State', status.lastState);
      w.write(L2, `Ready:\t${status.ready ? 'True' : 'False'}\n`);
      w.write(L2, `Restart Count:\t${status.restartCount ?? 0}\n`);
    }
    describeResources(w, c.resources, L2);
    if (c.livenessProbe) w.write(L2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
    if (c.readinessProbe) w.write(L2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
    if (c.startupProbe) w.write(L2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
    if ((c.envFrom ?? []).length > 0) {
      w.write(L2, 'Environment Variables from:\n');
      for (const e of c.envFrom) {
        const ref = e.configMapRef ?? e.secretRef ?? {};
        const from = e.configMapRef ? 'ConfigMap' : e.secretRef ? 'Secret' : '';
        const optional = ref.optional === true;
        if (!e.prefix) w.write(L3, `${ref.name ?? ''}\t${from}\tOptional: ${optional}\n`);
        else w.write(L3, `${ref.name ?? ''}\t${from} with prefix '${e.prefix}'\tOptional: ${optional}\n`);
      }
    }
    const env = c.env ?? [];
    w.write(L2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
    for (const e of env) {
      const vf = e.valueFrom;
      if (!vf) {
        String(e.value ?? '')
          .split('\n')
          .forEach((s: string, i: number) => w.write(L3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
        continue;
      }
      if (vf.fieldRef) {
        const value = pod ? fieldRefValue(pod, vf.fieldRef.fieldPath) : '';
        w.write(L3, `${e.name}:\t${value} (${vf.fieldRef.apiVersion ?? 'v1'}:${vf.fieldRef.fieldPath})\n`);
      } else if (vf.resourceFieldRef) {
        const res = vf.resourceFieldRef.resource ?? '';
        const [kind, name] = res.split('.');
        const q = c.resources?.[kind]?.[name];
        let value = q !== undefined ? quantityString(q) : '0';
        if (value === '0' && (res === 'limits.cpu' || res === 'limits.memory')) value = 'node allocatable';
        w.write(L3, `${e.name}:\t${value} (${res})\n`);
      } else if (vf.secretKeyRef) {
        w.write(L3, `${e.name}:\t<set to the key '${vf.secretKeyRef.key}' in secret '${vf.secretKeyRef.name}'>\tOptional: ${vf.secretKeyRef.optional === true}\n`);
      } else if (vf.configMapKeyRef) {
        w.write(L3, `${e.name}:\t<set to the key '${vf.configMapKeyRef.key}' of config map '${vf.configMapKeyRef.name}'>\tOptional: ${vf.configMapKeyRef.optional === true}\n`);
      }
    }
    const mounts = [...(c.volumeMounts ?? [])].sort((a: Any, b: Any) => (a.mountPath < b.mountPath ? -1 : a.mountPath > b.mountPath ? 1 : 0));
    w.write(L2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
    for (const m of mounts) {
      const flags = [m.readOnly ? 'ro' : 'rw'];
      if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
      w.write(L3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
    }
    if ((c.volumeDevices ?? []).length > 0) {
      w.write(L2, 'Devices:\n');
      for (const d of c.volumeDevices) w.write(L3, `${d.devicePath} from ${d.name}\n`);
    }
  }
}

function describeVolumes(w: PrefixWriter, volumes: Any[] | undefined, space: string): void {
  if (!volumes || volumes.length === 0) {
    w.write(L0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(L0, `${space}Volumes:\n`);
  const nameIndent = space.length > 0 ? ' ' : '';
  for (const v of volumes) {
    w.write(L1, `${nameIndent}${v.name}:\n`);
    if (v.hostPath) {
      w.write(L2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${v.hostPath.path ?? ''}\n    HostPathType:\t${v.hostPath.type ?? ''}\n`);
    } else if (v.emptyDir) {
      const limit = v.emptyDir.sizeLimit && parseQuantity(v.emptyDir.sizeLimit) > 0 ? quantityString(v.emptyDir.sizeLimit) : '<unset>';
      w.write(L2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${v.emptyDir.medium ?? ''}\n    SizeLimit:\t${limit}\n`);
    } else if (v.secret) {
      w.write(L2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${v.secret.secretName ?? ''}\n    Optional:\t${v.secret.optional === true}\n`);
    } else if (v.configMap) {
      w.write(L2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${v.configMap.name ?? ''}\n    Optional:\t${v.configMap.optional === true}\n`);
    } else if (v.persistentVolumeClaim) {
      w.write(
        L2,
        `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${v.persistentVolumeClaim.claimName ?? ''}\n    ReadOnly:\t${v.persistentVolumeClaim.readOnly === true}\n`,
      );
    } else if (v.projected) {
      w.write(L2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret) w.write(L2, `SecretName:\t${s.secret.name ?? ''}\n    Optional:\t${s.secret.optional === true}\n`);
        else if (s.downwardAPI) w.write(L2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap) w.write(L2, `ConfigMapName:\t${s.configMap.name ?? ''}\n    ConfigMapOptional:\t${s.configMap.optional === undefined ? '<nil>' : s.configMap.optional}\n`);
        else if (s.serviceAccountToken) w.write(L2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 3607}\n`);
      }
    } else if (v.downwardAPI) {
      w.write(L2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
      for (const it of v.downwardAPI.items ?? []) {
        if (it.fieldRef) w.write(L3, `${it.fieldRef.fieldPath} -> ${it.path}\n`);
        if (it.resourceFieldRef) w.write(L3, `${it.resourceFieldRef.resource} -> ${it.path}\n`);
      }
    } else if (v.nfs) {
      w.write(L2, `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${v.nfs.server}\n    Path:\t${v.nfs.path}\n    ReadOnly:\t${v.nfs.readOnly === true}\n`);
    } else if (v.csi) {
      w.write(L2, `Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t${v.csi.driver}\n    FSType:\t${v.csi.fsType ?? ''}\n    ReadOnly:\t${v.csi.readOnly === true}\n`);
    } else if (v.ephemeral) {
      w.write(L2, 'Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n');
    } else {
      w.write(L1, '<unknown>\n');
    }
  }
}

function describeTopologySpread(w: PrefixWriter, tscs: Any[] | undefined, space: string): void {
  if (!tscs || tscs.length === 0) return;
  const sorted = [...tscs].sort((a, b) => (a.topologyKey < b.topologyKey ? -1 : a.topologyKey > b.topologyKey ? 1 : 0));
  w.write(L0, `${space}Topology Spread Constraints:\t`);
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(L0, `${space}\t`);
    let s = `${t.topologyKey}:${t.whenUnsatisfiable} when max skew ${t.maxSkew} is exceeded`;
    if (t.labelSelector) s += ` for selector ${labelSelectorToString(t.labelSelector)}`;
    w.write(L0, s + '\n');
  });
}

/** describe.go `DescribePodTemplate`. */
export function describePodTemplate(w: PrefixWriter, template: Any): void {
  w.write(L0, 'Pod Template:\n');
  if (!template) {
    w.write(L1, '<unset>');
    return;
  }
  const spec = template.spec ?? {};
  printLabelsMultiline(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length > 0) printAnnotationsMultiline(w, '  Annotations', template.metadata.annotations);
  if (spec.serviceAccountName) w.write(L1, `Service Account:\t${spec.serviceAccountName}\n`);
  if ((spec.initContainers ?? []).length > 0) describeContainers(w, 'Init Containers', spec.initContainers, undefined, undefined, '  ');
  describeContainers(w, 'Containers', spec.containers, undefined, undefined, '  ');
  describeVolumes(w, spec.volumes, '  ');
  describeTopologySpread(w, spec.topologySpreadConstraints, '  ');
  if (spec.priorityClassName) w.write(L1, `Priority Class Name:\t${spec.priorityClassName}\n`);
  printLabelsMultiline(w, '  Node-Selectors', spec.nodeSelector);
  printTolerationsMultiline(w, '  Tolerations', spec.tolerations);
}

/** `qos.GetPodQOS`: status.qosClass, else computed from requests and limits. */
export function podQOS(pod: Any): string {
  if (pod.status?.qosClass) return pod.status.qosClass;
  const cs: Any[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of cs) {
    const req = { ...(c.resources?.requests ?? {}) };
    const lim = c.resources?.limits ?? {};
    for (const r of ['cpu', 'memory']) if (req[r] === undefined && lim[r] !== undefined) req[r] = lim[r];
    for (const r of ['cpu', 'memory']) {
      if (req[r] !== undefined || lim[r] !== undefined) any = true;
      if (lim[r] === undefined || req[r] === undefined || parseQuantity(req[r]) !== parseQuantity(lim[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

// ------------------------------------------------------------------------------------------
// Describers
// ------------------------------------------------------------------------------------------

function podEventsFor(env: Env, pod: Any): Any[] {
  const mirror = pod.metadata?.annotations?.['kubernetes.io/config.mirror'];
  return searchEvents(env, { name: pod.metadata.name, namespace: pod.metadata.namespace, kind: '', uid: mirror ?? pod.metadata.uid });
}

function describePod(env: Env, pod: Any, c: Clock): string {
  const events = podEventsFor(env, pod);
  return tabbed((w) => {
    const spec = pod.spec ?? {};
    const status = pod.status ?? {};
    w.write(L0, `Name:\t${pod.metadata.name}\n`);
    w.write(L0, `Namespace:\t${pod.metadata.namespace}\n`);
    if (spec.priority !== undefined) w.write(L0, `Priority:\t${spec.priority}\n`);
    if (spec.priorityClassName) w.write(L0, `Priority Class Name:\t${spec.priorityClassName}\n`);
    if (spec.runtimeClassName) w.write(L0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
    if (spec.serviceAccountName) w.write(L0, `Service Account:\t${spec.serviceAccountName}\n`);
    if (!spec.nodeName) w.write(L0, 'Node:\t<none>\n');
    else w.write(L0, `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n`);
    if (status.startTime) w.write(L0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
    printLabelsMultiline(w, 'Labels', pod.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', pod.metadata.annotations);
    if (pod.metadata.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
      w.write(L0, `Status:\tTerminating (lasts ${since(c, pod.metadata.deletionTimestamp)})\n`);
      w.write(L0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
    } else {
      w.write(L0, `Status:\t${status.phase ?? ''}\n`);
    }
    if (status.reason) w.write(L0, `Reason:\t${status.reason}\n`);
    if (status.message) w.write(L0, `Message:\t${status.message}\n`);
    const seccomp = spec.securityContext?.seccompProfile;
    if (seccomp) {
      w.write(L0, `SeccompProfile:\t${seccomp.type}\n`);
      if (seccomp.type === 'Localhost') w.write(L0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
    }
    w.write(L0, `IP:\t${status.podIP ?? ''}\n`);
    if ((status.podIPs ?? []).length === 0) w.write(L0, 'IPs:\t<none>\n');
    else {
      w.write(L0, 'IPs:\n');
      for (const ip of status.podIPs) w.write(L1, `IP:\t${ip.ip}\n`);
    }
    const ctl = controllerOf(pod);
    if (ctl) w.write(L0, `Controlled By:\t${ctl}\n`);
    if (status.nominatedNodeName) w.write(L0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
    if (spec.resources) {
      w.write(L0, 'Resources:\n');
      describeResources(w, spec.resources, L1);
    }
    if ((spec.initContainers ?? []).length > 0) describeContainers(w, 'Init Containers', spec.initContainers, status.initContainerStatuses, pod, '');
    describeContainers(w, 'Containers', spec.containers, status.containerStatuses, pod, '');
    if ((spec.ephemeralContainers ?? []).length > 0) describeContainers(w, 'Ephemeral Containers', spec.ephemeralContainers, status.ephemeralContainerStatuses, pod, '');
    if ((spec.readinessGates ?? []).length > 0) {
      w.write(L0, 'Readiness Gates:\n  Type\tStatus\n');
      for (const g of spec.readinessGates) {
        const cond = (status.conditions ?? []).find((x: Any) => x.type === g.conditionType);
        w.write(L1, `${g.conditionType} \t${cond ? cond.status : '<none>'} \n`);
      }
    }
    if ((status.conditions ?? []).length > 0) {
      w.write(L0, 'Conditions:\n  Type\tStatus\n');
      for (const cond of status.conditions) w.write(L1, `${cond.type} \t${cond.status} \n`);
    }
    describeVolumes(w, spec.volumes, '');
    w.write(L0, `QoS Class:\t${podQOS(pod)}\n`);
    printLabelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
    printTolerationsMultiline(w, 'Tolerations', spec.tolerations);
    describeTopologySpread(w, spec.topologySpreadConstraints, '');
    describeEvents(w, events, c);
  });
}

/** Pods a controller owns, counted by phase (describe.go `getPodStatusForController`). */
function podStatusFor(env: Env, obj: Any): [number, number, number, number] {
  let running = 0;
  let waiting = 0;
  let succeeded = 0;
  let failed = 0;
  let pods: Any[];
  try {
    const sel = selectorFromLabelSelector(obj.spec?.selector);
    pods = env.api.list('pods', { namespace: obj.metadata.namespace, labelSelector: sel }).items;
  } catch {
    pods = [];
  }
  for (const p of pods) {
    const ref = (p.metadata.ownerReferences ?? []).find((r: Any) => r.controller === true);
    if (!ref || ref.uid !== obj.metadata.uid) continue;
    switch (p.status?.phase) {
      case 'Running':
        running++;
        break;
      case 'Pending':
        waiting++;
        break;
      case 'Succeeded':
        succeeded++;
        break;
      case 'Failed':
        failed++;
        break;
    }
  }
  return [running, waiting, succeeded, failed];
}

/** `metav1.LabelSelectorAsSelector(sel).String()`: empty for an empty selector. */
function selectorAsString(sel: Any): string {
  const s = labelSelectorToString(sel);
  return s === '<none>' ? '' : s;
}

/**
 * deploymentutil `GetAllReplicaSets`: the ReplicaSets the Deployment controls (API list order);
 * the new one is the oldest whose pod template equals the Deployment's ignoring
 * `pod-template-hash`; every other one is old (scaled to zero or not).
 */
export function replicaSetsOf(env: Env, d: Any): { all: Any[]; old: Any[]; newRS: Any | undefined } {
  const all = (env.api.list('replicasets', { namespace: d.metadata.namespace }).items as Any[]).filter((rs) =>
    (rs.metadata.ownerReferences ?? []).some((r: Any) => r.controller === true && r.uid === d.metadata.uid),
  );
  const template = stripHash(d.spec?.template);
  const byAge = [...all].sort((a, b) => (timestampMs(a.metadata.creationTimestamp) ?? 0) - (timestampMs(b.metadata.creationTimestamp) ?? 0) || (a.metadata.name < b.metadata.name ? -1 : 1));
  const newRS = byAge.find((rs) => equalJson(stripHash(rs.spec?.template), template));
  return { all, old: all.filter((rs) => rs !== newRS), newRS };
}

function stripHash(t: Any): Any {
  const c = JSON.parse(JSON.stringify(t ?? {}));
  if (c.metadata?.labels) delete c.metadata.labels['pod-template-hash'];
  return c;
}

function equalJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${sortedKeys(o)
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

function rsList(rses: Any[]): string {
  const s = rses.map((rs) => `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`).join(', ');
  return s === '' ? '<none>' : s;
}

function describeDeployment(env: Env, d: Any, c: Clock): string {
  const events = eventsFor(env, d);
  const { old, newRS } = replicaSetsOf(env, d);
  return tabbed((w) => {
    const spec = d.spec ?? {};
    const st = d.status ?? {};
    w.write(L0, `Name:\t${d.metadata.name}\n`);
    w.write(L0, `Namespace:\t${d.metadata.namespace}\n`);
    w.write(L0, `CreationTimestamp:\t${rfc1123z(d.metadata.creationTimestamp)}\n`);
    printLabelsMultiline(w, 'Labels', d.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', d.metadata.annotations);
    w.write(L0, `Selector:\t${selectorAsString(spec.selector)}\n`);
    w.write(
      L0,
      `Replicas:\t${spec.replicas ?? 0} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`,
    );
    w.write(L0, `StrategyType:\t${spec.strategy?.type ?? ''}\n`);
    w.write(L0, `MinReadySeconds:\t${spec.minReadySeconds ?? 0}\n`);
    const ru = spec.strategy?.rollingUpdate;
    if (ru) w.write(L0, `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`);
    describePodTemplate(w, spec.template);
    if ((st.conditions ?? []).length > 0) {
      w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(L1, '----\t------\t------\n');
      for (const cond of st.conditions) w.write(L1, `${cond.type} \t${cond.status}\t${cond.reason ?? ''}\n`);
    }
    if (old.length > 0 || newRS) {
      w.write(L0, `OldReplicaSets:\t${rsList(old)}\n`);
      w.write(L0, `NewReplicaSet:\t${rsList(newRS ? [newRS] : [])}\n`);
    }
    describeEvents(w, events, c);
  });
}

function describeReplicaSet(env: Env, rs: Any, c: Clock): string {
  const [running, waiting, succeeded, failed] = podStatusFor(env, rs);
  const events = eventsFor(env, rs);
  return tabbed((w) => {
    w.write(L0, `Name:\t${rs.metadata.name}\n`);
    w.write(L0, `Namespace:\t${rs.metadata.namespace}\n`);
    w.write(L0, `Selector:\t${labelSelectorToString(rs.spec?.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rs.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
    const ctl = controllerOf(rs);
    if (ctl) w.write(L0, `Controlled By:\t${ctl}\n`);
    w.write(L0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
    w.write(L0, 'Pods Status:\t');
    w.write(L0, `${running} Running / ${waiting} Waiting / ${succeeded} Succeeded / ${failed} Failed\n`);
    describePodTemplate(w, rs.spec?.template);
    if ((rs.status?.conditions ?? []).length > 0) {
      w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(L1, '----\t------\t------\n');
      for (const cond of rs.status.conditions) w.write(L1, `${cond.type} \t${cond.status}\t${cond.reason ?? ''}\n`);
    }
    describeEvents(w, events, c);
  });
}

/** describe.go `describeReplicationController` (selector: a label map). */
function describeReplicationController(env: Env, rc: Any, c: Clock): string {
  const [running, waiting, succeeded, failed] = podStatusFor(env, { ...rc, spec: { ...rc.spec, selector: { matchLabels: rc.spec?.selector ?? {} } } });
  const events = eventsFor(env, rc);
  return tabbed((w) => {
    w.write(L0, `Name:\t${rc.metadata.name}\n`);
    w.write(L0, `Namespace:\t${rc.metadata.namespace}\n`);
    w.write(L0, `Selector:\t${formatLabels(rc.spec?.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rc.metadata.annotations);
    w.write(L0, `Replicas:\t${rc.status?.replicas ?? 0} current / ${rc.spec?.replicas ?? 0} desired\n`);
    w.write(L0, `Pods Status:\t${running} Running / ${waiting} Waiting / ${succeeded} Succeeded / ${failed} Failed\n`);
    describePodTemplate(w, rc.spec?.template);
    if ((rc.status?.conditions ?? []).length > 0) {
      w.write(L0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(L1, '----\t------\t------\n');
      for (const cond of rc.status.conditions) w.write(L1, `${cond.type} \t${cond.status}\t${cond.reason ?? ''}\n`);
    }
    describeEvents(w, events, c);
  });
}

/** Go's `time.Time.String()` of a UTC timestamp (`2026-01-05 06:00:42 +0000 UTC`), fraction only when non-zero. */
function goTimeString(ts: string | undefined): string {
  if (!ts) return '0001-01-01 00:00:00 +0000 UTC';
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z$/.exec(ts);
  if (!m) return ts;
  const frac = (m[3] ?? '').replace(/0+$/, '');
  return `${m[1]} ${m[2]}${frac === '.' ? '' : frac} +0000 UTC`;
}

/** A NetworkPolicy port as describe.go prints it (`80/TCP`, `8000-9000/TCP`; TCP when unset). */
function networkPolicyPort(port: Any): string {
  const proto = port.protocol ?? 'TCP';
  const p = port.port === undefined || port.port === null ? '<nil>' : String(port.port);
  return port.endPort === undefined || port.endPort === null ? `To Port: ${p}/${proto}` : `To Port Range: ${p}-${port.endPort}/${proto}`;
}

/**
 * describe.go `printNetworkPolicySpecIngressFrom` / `printNetworkPolicySpecEgressTo`: each rule's
 * ports, then its peers (`From:` / `To:` with the selectors or the IPBlock), rules split by
 * `----------`; no rules: the pods are isolated in that direction.
 */
function printNetworkPolicyRules(w: PrefixWriter, rules: Any[] | undefined, dir: 'ingress' | 'egress'): void {
  const indent = '    ';
  const peerKey = dir === 'ingress' ? 'from' : 'to';
  const peerTitle = dir === 'ingress' ? 'From' : 'To';
  if (!rules || rules.length === 0) {
    w.write(L0, `${indent}<none> (Selected pods are isolated for ${dir} connectivity)\n`);
    return;
  }
  rules.forEach((rule: Any, i: number) => {
    const ports: Any[] = rule.ports ?? [];
    if (ports.length === 0) w.write(L0, `${indent}To Port: <any> (traffic allowed to all ports)\n`);
    else for (const port of ports) w.write(L0, `${indent}${networkPolicyPort(port)}\n`);
    const peers: Any[] = rule[peerKey] ?? [];
    if (peers.length === 0) w.write(L0, `${indent}${peerTitle}: <any> (traffic not restricted by ${dir === 'ingress' ? 'source' : 'destination'})\n`);
    else
      for (const peer of peers) {
        w.write(L0, `${indent}${peerTitle}:\n`);
        if (peer.podSelector && peer.namespaceSelector) {
          w.write(L1, `${indent}NamespaceSelector: ${labelSelectorToString(peer.namespaceSelector)}\n`);
          w.write(L1, `${indent}PodSelector: ${labelSelectorToString(peer.podSelector)}\n`);
        } else if (peer.podSelector) w.write(L1, `${indent}PodSelector: ${labelSelectorToString(peer.podSelector)}\n`);
        else if (peer.namespaceSelector) w.write(L1, `${indent}NamespaceSelector: ${labelSelectorToString(peer.namespaceSelector)}\n`);
        else if (peer.ipBlock) {
          w.write(L1, `${indent}IPBlock:\n`);
          w.write(L2, `${indent}CIDR: ${peer.ipBlock.cidr}\n`);
          w.write(L2, `${indent}Except: ${(peer.ipBlock.except ?? []).join(', ')}\n`);
        }
      }
    if (i !== rules.length - 1) w.write(L0, `${indent}----------\n`);
  });
}

/**
 * describe.go `describeNetworkPolicy` / `describeNetworkPolicySpec` (kubectl 1.32-1.36): Name,
 * Namespace, `Created on` (Go's time.Time String), labels, annotations, then the spec in words:
 * which pods, the ingress and egress rules of the enabled policy types, and the types. No events.
 */
function describeNetworkPolicy(np: Any): string {
  const spec = np.spec ?? {};
  const types: string[] = spec.policyTypes ?? [];
  return tabbed((w) => {
    w.write(L0, `Name:\t${np.metadata.name}\n`);
    w.write(L0, `Namespace:\t${np.metadata.namespace}\n`);
    w.write(L0, `Created on:\t${goTimeString(np.metadata.creationTimestamp)}\n`);
    printLabelsMultiline(w, 'Labels', np.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', np.metadata.annotations);
    w.write(L0, 'Spec:\n');
    w.write(L1, 'PodSelector: ');
    const ps = spec.podSelector ?? {};
    if (Object.keys(ps.matchLabels ?? {}).length === 0 && (ps.matchExpressions ?? []).length === 0) w.write(L2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
    else w.write(L2, `${labelSelectorToString(ps)}\n`);
    if (types.includes('Ingress')) {
      w.write(L1, 'Allowing ingress traffic:\n');
      printNetworkPolicyRules(w, spec.ingress, 'ingress');
    } else w.write(L1, 'Not affecting ingress traffic\n');
    if (types.includes('Egress')) {
      w.write(L1, 'Allowing egress traffic:\n');
      printNetworkPolicyRules(w, spec.egress, 'egress');
    } else w.write(L1, 'Not affecting egress traffic\n');
    w.write(L1, `Policy Types: ${types.length ? types.join(', ') : '<none>'}\n`);
  });
}

/** describe.go `describePriorityClass`: value, global default, preemption policy, description, annotations on one line, events. */
function describePriorityClass(env: Env, pc: Any, c: Clock): string {
  const events = eventsFor(env, pc);
  return tabbed((w) => {
    w.write(L0, `Name:\t${pc.metadata.name}\n`);
    w.write(L0, `Value:\t${pc.value ?? 0}\n`);
    w.write(L0, `GlobalDefault:\t${pc.globalDefault === true}\n`);
    w.write(L0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
    w.write(L0, `Description:\t${pc.description ?? ''}\n`);
    w.write(L0, `Annotations:\t${formatLabels(pc.metadata.annotations)}\n`);
    describeEvents(w, events, c);
  });
}

/** describe.go `describePodDisruptionBudgetV1`. */
function describePodDisruptionBudget(env: Env, pdb: Any, c: Clock): string {
  const events = eventsFor(env, pdb);
  const spec = pdb.spec ?? {};
  const st = pdb.status ?? {};
  return tabbed((w) => {
    w.write(L0, `Name:\t${pdb.metadata.name}\n`);
    w.write(L0, `Namespace:\t${pdb.metadata.namespace}\n`);
    if (spec.minAvailable !== undefined && spec.minAvailable !== null) w.write(L0, `Min available:\t${spec.minAvailable}\n`);
    else if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) w.write(L0, `Max unavailable:\t${spec.maxUnavailable}\n`);
    w.write(L0, `Selector:\t${spec.selector ? labelSelectorToString(spec.selector) : '<unset>'}\n`);
    w.write(L0, 'Status:\n');
    w.write(L2, `Allowed disruptions:\t${st.disruptionsAllowed ?? 0}\n`);
    w.write(L2, `Current:\t${st.currentHealthy ?? 0}\n`);
    w.write(L2, `Desired:\t${st.desiredHealthy ?? 0}\n`);
    w.write(L2, `Total:\t${st.expectedPods ?? 0}\n`);
    describeEvents(w, events, c);
  });
}

/** describe.go `DescribeResourceQuota`: Resource / Used / Hard, sorted, used in hard's format. */
function describeResourceQuota(_env: Env, rq: Any): string {
  const hard: Record<string, string> = rq.status?.hard ?? {};
  const used: Record<string, string> = rq.status?.used ?? {};
  const q = (v: unknown) => {
    try {
      return canonicalQuantity(v as string);
    } catch {
      return String(v);
    }
  };
  return tabbed((w) => {
    w.write(L0, `Name:\t${rq.metadata.name}\n`);
    w.write(L0, `Namespace:\t${rq.metadata.namespace}\n`);
    if ((rq.spec?.scopes ?? []).length) w.write(L0, `Scopes:\t${[...rq.spec.scopes].sort().join(', ')}\n`);
    w.write(L0, 'Resource\tUsed\tHard\n');
    w.write(L0, '--------\t----\t----\n');
    for (const r of Object.keys(hard).sort()) w.write(L0, `${r}\t${used[r] === undefined ? '0' : q(used[r])}\t${q(hard[r])}\n`);
  });
}

function describeStatefulSet(env: Env, ss: Any, c: Clock): string {
  const [running, waiting, succeeded, failed] = podStatusFor(env, ss);
  const events = eventsFor(env, ss);
  return tabbed((w) => {
    const spec = ss.spec ?? {};
    w.write(L0, `Name:\t${ss.metadata.name}\n`);
    w.write(L0, `Namespace:\t${ss.metadata.namespace}\n`);
    w.write(L0, `CreationTimestamp:\t${rfc1123z(ss.metadata.creationTimestamp)}\n`);
    w.write(L0, `Selector:\t${selectorAsString(spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', ss.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ss.metadata.annotations);
    w.write(L0, `Replicas:\t${spec.replicas ?? 0} desired | ${ss.status?.replicas ?? 0} total\n`);
    w.write(L0, `Update Strategy:\t${spec.updateStrategy?.type ?? ''}\n`);
    const ru = spec.updateStrategy?.rollingUpdate;
    if (ru && ru.partition !== undefined) {
      w.write(L1, `Partition:\t${ru.partition}\n`);
      if (ru.maxUnavailable !== undefined) w.write(L1, `MaxUnavailable:\t${intOrString(ru.maxUnavailable)}\n`);
    }
    w.write(L0, `Pods Status:\t${running} Running / ${waiting} Waiting / ${succeeded} Succeeded / ${failed} Failed\n`);
    describePodTemplate(w, spec.template);
    const vcts: Any[] = spec.volumeClaimTemplates ?? [];
    if (vcts.length === 0) w.write(L0, 'Volume Claims:\t<none>\n');
    else {
      w.write(L0, 'Volume Claims:\n');
      for (const p of vcts) {
        w.write(L1, `Name:\t${p.metadata?.name ?? ''}\n`);
        w.write(L1, `StorageClass:\t${p.spec?.storageClassName ?? ''}\n`);
        printLabelsMultiline(w, 'Labels', p.metadata?.labels, '  ');
        printLabelsMultiline(w, 'Annotations', p.metadata?.annotations, '  ');
        const cap = p.spec?.resources?.requests?.storage;
        w.write(L1, `Capacity:\t${cap !== undefined ? quantityString(cap) : '<default>'}\n`);
        w.write(L1, `Access Modes:\t[${(p.spec?.accessModes ?? []).join(' ')}]\n`);
      }
    }
    describeEvents(w, events, c);
  });
}

function describeDaemonSet(env: Env, ds: Any, c: Clock): string {
  const [running, waiting, succeeded, failed] = podStatusFor(env, ds);
  const events = eventsFor(env, ds);
  return tabbed((w) => {
    const st = ds.status ?? {};
    w.write(L0, `Name:\t${ds.metadata.name}\n`);
    w.write(L0, `Namespace:\t${ds.metadata.namespace}\n`);
    w.write(L0, `Selector:\t${selectorAsString(ds.spec?.selector)}\n`);
    w.write(L0, `Node-Selector:\t${formatLabels(ds.spec?.template?.spec?.nodeSelector)}\n`);
    printLabelsMultiline(w, 'Labels', ds.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
    w.write(L0, `Desired Number of Nodes Scheduled: ${st.desiredNumberScheduled ?? 0}\n`);
    w.write(L0, `Current Number of Nodes Scheduled: ${st.currentNumberScheduled ?? 0}\n`);
    w.write(L0, `Number of Nodes Scheduled with Up-to-date Pods: ${st.updatedNumberScheduled ?? 0}\n`);
    w.write(L0, `Number of Nodes Scheduled with Available Pods: ${st.numberAvailable ?? 0}\n`);
    w.write(L0, `Number of Nodes Misscheduled: ${st.numberMisscheduled ?? 0}\n`);
    w.write(L0, `Pods Status:\t${running} Running / ${waiting} Waiting / ${succeeded} Succeeded / ${failed} Failed\n`);
    describePodTemplate(w, ds.spec?.template);
    describeEvents(w, events, c);
  });
}

function describeJob(env: Env, job: Any, c: Clock): string {
  const events = eventsFor(env, job);
  return tabbed((w) => {
    const spec = job.spec ?? {};
    const st = job.status ?? {};
    w.write(L0, `Name:\t${job.metadata.name}\n`);
    w.write(L0, `Namespace:\t${job.metadata.namespace}\n`);
    w.write(L0, `Selector:\t${selectorAsString(spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', job.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', job.metadata.annotations);
    const ctl = controllerOf(job);
    if (ctl) w.write(L0, `Controlled By:\t${ctl}\n`);
    if (spec.parallelism !== undefined) w.write(L0, `Parallelism:\t${spec.parallelism}\n`);
    w.write(L0, `Completions:\t${spec.completions !== undefined ? spec.completions : '<unset>'}\n`);
    if (spec.completionMode) w.write(L0, `Completion Mode:\t${spec.completionMode}\n`);
    if (spec.suspend !== undefined) w.write(L0, `Suspend:\t${spec.suspend}\n`);
    if (spec.backoffLimit !== undefined) w.write(L0, `Backoff Limit:\t${spec.backoffLimit}\n`);
    if (spec.ttlSecondsAfterFinished !== undefined) w.write(L0, `TTL Seconds After Finished:\t${spec.ttlSecondsAfterFinished}\n`);
    if (st.startTime) w.write(L0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
    if (st.completionTime) w.write(L0, `Completed At:\t${rfc1123z(st.completionTime)}\n`);
    if (st.startTime && st.completionTime) {
      w.write(L0, `Duration:\t${humanDuration((timestampMs(st.completionTime) ?? 0) - (timestampMs(st.startTime) ?? 0))}\n`);
    }
    if (spec.activeDeadlineSeconds !== undefined) w.write(L0, `Active Deadline Seconds:\t${spec.activeDeadlineSeconds}s\n`);
    if (st.ready === undefined) w.write(L0, `Pods Statuses:\t${st.active ?? 0} Active / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
    else w.write(L0, `Pods Statuses:\t${st.active ?? 0} Active (${st.ready} Ready) / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
    if (spec.completionMode === 'Indexed') w.write(L0, `Completed Indexes:\t${st.completedIndexes || '<none>'}\n`);
    describePodTemplate(w, spec.template);
    describeEvents(w, events, c);
  });
}

function describeCronJob(env: Env, cj: Any, c: Clock): string {
  const events = eventsFor(env, cj);
  return tabbed((w) => {
    const spec = cj.spec ?? {};
    w.write(L0, `Name:\t${cj.metadata.name}\n`);
    w.write(L0, `Namespace:\t${cj.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', cj.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cj.metadata.annotations);
    w.write(L0, `Schedule:\t${spec.schedule ?? ''}\n`);
    w.write(L0, `Concurrency Policy:\t${spec.concurrencyPolicy ?? ''}\n`);
    w.write(L0, `Suspend:\t${spec.suspend === undefined ? '<unset>' : spec.suspend ? 'True' : 'False'}\n`);
    w.write(L0, `Successful Job History Limit:\t${spec.successfulJobsHistoryLimit ?? '<unset>'}\n`);
    w.write(L0, `Failed Job History Limit:\t${spec.failedJobsHistoryLimit ?? '<unset>'}\n`);
    w.write(L0, `Starting Deadline Seconds:\t${spec.startingDeadlineSeconds !== undefined ? `${spec.startingDeadlineSeconds}s` : '<unset>'}\n`);
    const jt = spec.jobTemplate?.spec ?? {};
    w.write(L0, `Selector:\t${jt.selector ? selectorAsString(jt.selector) : '<unset>'}\n`);
    w.write(L0, `Parallelism:\t${jt.parallelism ?? '<unset>'}\n`);
    w.write(L0, `Completions:\t${jt.completions ?? '<unset>'}\n`);
    if (jt.activeDeadlineSeconds !== undefined) w.write(L0, `Active Deadline Seconds:\t${jt.activeDeadlineSeconds}s\n`);
    describePodTemplate(w, jt.template);
    w.write(L0, `Last Schedule Time:\t${cj.status?.lastScheduleTime ? rfc1123z(cj.status.lastScheduleTime) : '<unset>'}\n`);
    const active: Any[] = cj.status?.active ?? [];
    w.write(L0, 'Active Jobs:\t');
    if (active.length === 0) w.writeLine('<none>');
    else w.writeLine(active.map((j) => j.name).join(', '));
    describeEvents(w, events, c);
  });
}

/**
 * describe.go `describeLimitRangeSpec`: one row per (item, resource) with `-` for what is unset.
 * Go ranges over a map here (the row order within an item varies between runs of the real
 * kubectl); rows come in resource-name order.
 */
function describeLimitRangeSpec(w: PrefixWriter, spec: Any, prefix: string): void {
  for (const item of (spec?.limits ?? []) as Any[]) {
    const fields = [item.min, item.max, item.defaultRequest, item.default, item.maxLimitRequestRatio] as (Record<string, string> | undefined)[];
    const names = [...new Set(fields.flatMap((f) => Object.keys(f ?? {})))].sort();
    for (const k of names) {
      const v = (f: Record<string, string> | undefined) => (f && f[k] !== undefined ? quantityString(f[k]) : '-');
      w.write(L0, `${prefix}${item.type ?? ''}\t${k}\t${v(item.min)}\t${v(item.max)}\t${v(item.defaultRequest)}\t${v(item.default)}\t${v(item.maxLimitRequestRatio)}\n`);
    }
  }
}

/** describe.go `describeLimitRange`. */
function describeLimitRange(lr: Any): string {
  return tabbed((w) => {
    w.write(L0, `Name:\t${lr.metadata.name}\n`);
    w.write(L0, `Namespace:\t${lr.metadata.namespace}\n`);
    w.write(L0, 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
    w.write(L0, '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
    describeLimitRangeSpec(w, lr.spec, '');
  });
}

/**
 * describe.go `describeNamespace` with `DescribeResourceQuotas` (quotas by name, each with its
 * Resource / Used / Hard table) and `DescribeLimitRanges` (one merged table).
 */
function describeNamespace(env: Env, ns: Any): string {
  const name = ns.metadata.name;
  const quotas = (env.api.list('resourcequotas', { namespace: name }).items as Any[]).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const limitRanges = env.api.list('limitranges', { namespace: name }).items as Any[];
  return tabbed((w) => {
    w.write(L0, `Name:\t${name}\n`);
    printLabelsMultiline(w, 'Labels', ns.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
    w.write(L0, `Status:\t${ns.status?.phase ?? ''}\n`);
    const conds: Any[] = ns.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(L0, 'Conditions:\n');
      w.write(L1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
      w.write(L1, '----\t------\t------------------\t------\t-------\n');
      for (const cond of conds) w.write(L1, `${cond.type}\t${cond.status}\t${rfc1123z(cond.lastTransitionTime)}\t${cond.reason ?? ''}\t${cond.message ?? ''}\n`);
    }
    w.write(L0, '\n');
    if (quotas.length === 0) w.write(L0, 'No resource quota.\n');
    else {
      w.write(L0, 'Resource Quotas\n');
      for (const rq of quotas) {
        w.write(L1, `Name:\t${rq.metadata.name}\n`);
        const scopes: string[] = [...(rq.spec?.scopes ?? [])].sort();
        if (scopes.length > 0) w.write(L1, `Scopes:\t${scopes.join(', ')}\n`);
        w.write(L1, 'Resource\tUsed\tHard\n');
        w.write(L1, '--------\t---\t---\n');
        const hard: Record<string, string> = rq.status?.hard ?? {};
        const used: Record<string, string> = rq.status?.used ?? {};
        for (const r of Object.keys(hard).sort()) w.write(L1, `${r}\t${used[r] === undefined ? '0' : quantityString(used[r])}\t${quantityString(hard[r])}\n`);
      }
    }
    w.write(L0, '\n');
    if (limitRanges.length === 0) w.write(L0, 'No LimitRange resource.\n');
    else {
      w.write(L0, 'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
      w.write(L0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
      for (const lr of limitRanges) describeLimitRangeSpec(w, lr.spec, ' ');
    }
  });
}

/** Go's `net.JoinHostPort`. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** describe.go `formatEndpointSlices` for one port name (ready endpoints only, up to 3 then `+ N more...`). */
function formatEndpointSlices(slices: Any[], portName: string | undefined): string {
  if (slices.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const s of slices) {
    const ports: Any[] = s.ports ?? [];
    const eps: Any[] = s.endpoints ?? [];
    if (ports.length === 0) {
      for (const e of eps) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(e.addresses?.[0]);
        count++;
      }
      continue;
    }
    for (const p of ports) {
      if (portName !== undefined && (p.name ?? '') !== portName) continue;
      for (const e of eps) {
        if (list.length === max) more = true;
        if (e.conditions?.ready === false) continue;
        if (!more) list.push(joinHostPort(e.addresses?.[0] ?? '', p.port ?? 0));
        count++;
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

function describeService(env: Env, svc: Any, c: Clock): string {
  const slices = env.api.list('endpointslices', { namespace: svc.metadata.namespace, labelSelector: `kubernetes.io/service-name=${svc.metadata.name}` }).items;
  const events = eventsFor(env, svc);
  return tabbed((w) => {
    const spec = svc.spec ?? {};
    w.write(L0, `Name:\t${svc.metadata.name}\n`);
    w.write(L0, `Namespace:\t${svc.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', svc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
    w.write(L0, `Selector:\t${formatLabels(spec.selector).replace(/^<none>$/, '')}\n`);
    w.write(L0, `Type:\t${spec.type ?? ''}\n`);
    if (spec.ipFamilyPolicy) w.write(L0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
    w.write(L0, `IP Families:\t${(spec.ipFamilies ?? []).length > 0 ? spec.ipFamilies.join(',') : '<none>'}\n`);
    w.write(L0, `IP:\t${spec.clusterIP ?? ''}\n`);
    w.write(L0, `IPs:\t${(spec.clusterIPs ?? []).length > 0 ? spec.clusterIPs.join(',') : '<none>'}\n`);
    if ((spec.externalIPs ?? []).length > 0) w.write(L0, `External IPs:\t${spec.externalIPs.join(',')}\n`);
    if (spec.loadBalancerIP) w.write(L0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
    if (spec.externalName) w.write(L0, `External Name:\t${spec.externalName}\n`);
    const ing: Any[] = svc.status?.loadBalancer?.ingress ?? [];
    if (ing.length > 0) w.write(L0, `LoadBalancer Ingress:\t${ing.map((i) => (i.ip ? i.ip + (i.ipMode ? ` (${i.ipMode})` : '') : i.hostname)).join(', ')}\n`);
    for (const p of spec.ports ?? []) {
      const name = p.name || '<unset>';
      w.write(L0, `Port:\t${name}\t${p.port}/${p.protocol ?? ''}\n`);
      w.write(L0, `TargetPort:\t${intOrString(p.targetPort)}/${p.protocol ?? ''}\n`);
      if (p.nodePort) w.write(L0, `NodePort:\t${name}\t${p.nodePort}/${p.protocol ?? ''}\n`);
      w.write(L0, `Endpoints:\t${formatEndpointSlices(slices, p.name ?? '')}\n`);
    }
    w.write(L0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
    if (spec.externalTrafficPolicy) w.write(L0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
    if (spec.internalTrafficPolicy) w.write(L0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
    if (spec.healthCheckNodePort) w.write(L0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
    if ((spec.loadBalancerSourceRanges ?? []).length > 0) w.write(L0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges.join(',')}\n`);
    if (spec.trafficDistribution) w.write(L0, `Traffic Distribution:\t${spec.trafficDistribution}\n`);
    describeEvents(w, events, c);
  });
}

/** `printers.go` node roles, for `Roles:`. */
function nodeRoles(labels: Record<string, string> | undefined): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const r = k.slice('node-role.kubernetes.io/'.length);
      if (r) roles.add(r);
    } else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return [...roles].sort();
}

/** `resourcehelper.PodRequestsAndLimits` (containers summed, init containers as the max). */
function podRequestsAndLimits(pod: Any): { req: Record<string, number>; lim: Record<string, number> } {
  const sum = (list: Any[], field: 'requests' | 'limits') => {
    const out: Record<string, number> = {};
    for (const c of list) for (const [k, v] of Object.entries(c.resources?.[field] ?? {})) out[k] = (out[k] ?? 0) + parseQuantity(v as string);
    return out;
  };
  const req = sum(pod.spec?.containers ?? [], 'requests');
  const lim = sum(pod.spec?.containers ?? [], 'limits');
  for (const c of pod.spec?.initContainers ?? []) {
    for (const [k, v] of Object.entries(c.resources?.requests ?? {})) req[k] = Math.max(req[k] ?? 0, parseQuantity(v as string));
    for (const [k, v] of Object.entries(c.resources?.limits ?? {})) lim[k] = Math.max(lim[k] ?? 0, parseQuantity(v as string));
  }
  for (const [k, v] of Object.entries(pod.spec?.overhead ?? {})) {
    req[k] = (req[k] ?? 0) + parseQuantity(v as string);
    if (lim[k] !== undefined) lim[k] += parseQuantity(v as string);
  }
  return { req, lim };
}

/** A summed quantity as `Quantity.String()` prints it (cpu in millicores, memory in binary units). */
function q(name: string, v: number): string {
  if (v === 0) return '0';
  if (name === 'cpu') return formatQuantity(v, 'DecimalSI');
  return formatQuantity(v, 'BinarySI');
}

function pct(v: number, of: number): number {
  return of === 0 ? 0 : Math.trunc((v / of) * 100);
}

function describeNode(env: Env, node: Any, c: Clock): string {
  const name = node.metadata.name;
  const pods = env.api.list('pods', { fieldSelector: `spec.nodeName=${name},status.phase!=Succeeded,status.phase!=Failed` }).items as Any[];
  const events = [
    ...searchEvents(env, { name, namespace: '', kind: 'Node', uid: node.metadata.uid }),
    ...searchEvents(env, { name, namespace: '', kind: 'Node', uid: name }),
  ];
  const lease = env.api.tryGet('leases', 'kube-node-lease', name);
  return tabbed((w) => {
    const st = node.status ?? {};
    w.write(L0, `Name:\t${name}\n`);
    const roles = nodeRoles(node.metadata.labels);
    w.write(L0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
    printLabelsMultiline(w, 'Labels', node.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
    w.write(L0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
    printTaintsMultiline(w, 'Taints', node.spec?.taints);
    w.write(L0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
    if (lease) {
      w.write(L0, 'Lease:\n');
      w.write(L1, `HolderIdentity:\t${lease.spec?.holderIdentity ?? '<unset>'}\n`);
      w.write(L1, `AcquireTime:\t${lease.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
      w.write(L1, `RenewTime:\t${lease.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
    } else {
      w.write(L0, `Lease:\tFailed to get lease: leases.coordination.k8s.io "${name}" not found\n`);
    }
    const conds: Any[] = st.conditions ?? [];
    if (conds.length > 0) {
      w.write(L0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
      w.write(L1, '----\t------\t-----------------\t------------------\t------\t-------\n');
      for (const cond of conds) {
        w.write(L1, `${cond.type} \t${cond.status} \t${rfc1123z(cond.lastHeartbeatTime)} \t${rfc1123z(cond.lastTransitionTime)} \t${cond.reason ?? ''} \t${cond.message ?? ''}\n`);
      }
    }
    w.write(L0, 'Addresses:\n');
    for (const a of st.addresses ?? []) w.write(L1, `${a.type}:\t${a.address}\n`);
    const printResources = (rl: Record<string, unknown>) => {
      for (const k of sortedKeys(rl)) w.write(L0, `  ${k}:\t${quantityString(rl[k])}\n`);
    };
    if (Object.keys(st.capacity ?? {}).length > 0) {
      w.write(L0, 'Capacity:\n');
      printResources(st.capacity);
    }
    if (Object.keys(st.allocatable ?? {}).length > 0) {
      w.write(L0, 'Allocatable:\n');
      printResources(st.allocatable);
    }
    const ni = st.nodeInfo ?? {};
    w.write(L0, 'System Info:\n');
    w.write(L0, `  Machine ID:\t${ni.machineID ?? ''}\n`);
    w.write(L0, `  System UUID:\t${ni.systemUUID ?? ''}\n`);
    w.write(L0, `  Boot ID:\t${ni.bootID ?? ''}\n`);
    w.write(L0, `  Kernel Version:\t${ni.kernelVersion ?? ''}\n`);
    w.write(L0, `  OS Image:\t${ni.osImage ?? ''}\n`);
    w.write(L0, `  Operating System:\t${ni.operatingSystem ?? ''}\n`);
    w.write(L0, `  Architecture:\t${ni.architecture ?? ''}\n`);
    w.write(L0, `  Container Runtime Version:\t${ni.containerRuntimeVersion ?? ''}\n`);
    w.write(L0, `  Kubelet Version:\t${ni.kubeletVersion ?? ''}\n`);
    w.write(L0, `  Kube-Proxy Version:\t${ni.kubeProxyVersion ?? ''}\n`);
    if (node.spec?.podCIDR) w.write(L0, `PodCIDR:\t${node.spec.podCIDR}\n`);
    const cidrs: string[] = node.spec?.podCIDRs ?? (node.spec?.podCIDR ? [node.spec.podCIDR] : []);
    if (cidrs.length > 0) w.write(L0, `PodCIDRs:\t${cidrs.join(',')}\n`);
    if (node.spec?.providerID) w.write(L0, `ProviderID:\t${node.spec.providerID}\n`);
    const alloc: Record<string, unknown> = Object.keys(st.allocatable ?? {}).length > 0 ? st.allocatable : (st.capacity ?? {});
    const av = (k: string) => (alloc[k] !== undefined ? parseQuantity(alloc[k] as string) : 0);
    w.write(L0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
    w.write(L1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
    w.write(L1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
    const totalReq: Record<string, number> = {};
    const totalLim: Record<string, number> = {};
    for (const p of pods) {
      const { req, lim } = podRequestsAndLimits(p);
      for (const [k, v] of Object.entries(req)) totalReq[k] = (totalReq[k] ?? 0) + v;
      for (const [k, v] of Object.entries(lim)) totalLim[k] = (totalLim[k] ?? 0) + v;
      const cr = req.cpu ?? 0;
      const cl = lim.cpu ?? 0;
      const mr = req.memory ?? 0;
      const ml = lim.memory ?? 0;
      w.write(
        L1,
        `${p.metadata.namespace}\t${p.metadata.name}\t\t${q('cpu', cr)} (${pct(cr, av('cpu'))}%)\t${q('cpu', cl)} (${pct(cl, av('cpu'))}%)\t${q('memory', mr)} (${pct(mr, av('memory'))}%)\t${q('memory', ml)} (${pct(ml, av('memory'))}%)\t${since(c, p.metadata.creationTimestamp)}\n`,
      );
    }
    w.write(L0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
    w.write(L1, 'Resource\tRequests\tLimits\n');
    w.write(L1, '--------\t--------\t------\n');
    for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
      const rq = totalReq[r] ?? 0;
      const lm = totalLim[r] ?? 0;
      w.write(L1, `${r}\t${q(r, rq)} (${pct(rq, av(r))}%)\t${q(r, lm)} (${pct(lm, av(r))}%)\n`);
    }
    // describe.go describeNodeResource: every hugepages-* resource in allocatable (sorted), then
    // the extended resources (not standard, not pods) as plain requests/limits.
    const names = Object.keys(alloc).sort();
    for (const r of names.filter((n) => n.startsWith('hugepages-'))) {
      const rq = totalReq[r] ?? 0;
      const lm = totalLim[r] ?? 0;
      w.write(L1, `${r}\t${q('memory', rq)} (${pct(rq, av(r))}%)\t${q('memory', lm)} (${pct(lm, av(r))}%)\n`);
    }
    const standard = new Set(['cpu', 'memory', 'ephemeral-storage', 'storage', 'pods']);
    for (const r of names.filter((n) => !n.startsWith('hugepages-') && !standard.has(n) && !n.startsWith('requests.') && !n.startsWith('limits.'))) {
      w.write(L1, `${r}\t${totalReq[r] ?? 0}\t${totalLim[r] ?? 0}\n`);
    }
    describeEvents(w, events, c);
  });
}

function describeConfigMap(env: Env, cm: Any, c: Clock): string {
  const events = eventsFor(env, cm);
  return tabbed((w) => {
    w.write(L0, `Name:\t${cm.metadata.name}\n`);
    w.write(L0, `Namespace:\t${cm.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', cm.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
    w.write(L0, '\nData\n====\n');
    for (const k of sortedKeys(cm.data)) {
      w.write(L0, `${k}:\n----\n`);
      w.write(L0, `${cm.data[k]}\n`);
      w.write(L0, '\n');
    }
    w.write(L0, '\nBinaryData\n====\n');
    for (const k of sortedKeys(cm.binaryData)) w.write(L0, `${k}: ${base64Length(cm.binaryData[k])} bytes\n`);
    w.write(L0, '\n');
    describeEvents(w, events, c);
  });
}

/** Decoded length of a base64 string. */
function base64Length(s: string): number {
  const clean = String(s ?? '').replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - pad;
}

function base64Decode(s: string): string {
  try {
    const bin = atob(String(s ?? '').replace(/\s/g, ''));
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

function describeSecret(_env: Env, s: Any): string {
  return tabbed((w) => {
    w.write(L0, `Name:\t${s.metadata.name}\n`);
    w.write(L0, `Namespace:\t${s.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', s.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', s.metadata.annotations);
    w.write(L0, `\nType:\t${s.type ?? ''}\n`);
    w.write(L0, '\nData\n====\n');
    for (const k of sortedKeys(s.data)) {
      if (k === 'token' && s.type === 'kubernetes.io/service-account-token') w.write(L0, `${k}:\t${base64Decode(s.data[k])}\n`);
      else w.write(L0, `${k}:\t${base64Length(s.data[k])} bytes\n`);
    }
  });
}

function describeServiceAccount(env: Env, sa: Any, c: Clock): string {
  const events = eventsFor(env, sa);
  const secrets = new Set((env.api.list('secrets', { namespace: sa.metadata.namespace }).items as Any[]).map((s) => s.metadata.name));
  return tabbed((w) => {
    w.write(L0, `Name:\t${sa.metadata.name}\n`);
    w.write(L0, `Namespace:\t${sa.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', sa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
    const groups: [string, string[]][] = [
      ['Image pull secrets:', (sa.imagePullSecrets ?? []).map((s: Any) => s.name)],
      ['Mountable secrets: ', (sa.secrets ?? []).map((s: Any) => s.name)],
      ['Tokens:            ', []],
    ];
    for (const [header, names] of groups) {
      if (names.length === 0) {
        w.write(L0, `${header}\t<none>\n`);
        continue;
      }
      let prefix = header;
      for (const n of names) {
        w.write(L0, `${prefix}\t${n}${secrets.has(n) ? '' : ' (not found)'}\n`);
        prefix = '                   ';
      }
    }
    describeEvents(w, events, c);
  });
}

function describeEndpointSlice(env: Env, eps: Any, c: Clock): string {
  const events = eventsFor(env, eps);
  return tabbed((w) => {
    w.write(L0, `Name:\t${eps.metadata.name}\n`);
    w.write(L0, `Namespace:\t${eps.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', eps.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', eps.metadata.annotations);
    w.write(L0, `AddressType:\t${eps.addressType ?? ''}\n`);
    const ports: Any[] = eps.ports ?? [];
    if (ports.length === 0) w.write(L0, 'Ports: <unset>\n');
    else {
      w.write(L0, 'Ports:\n');
      w.write(L1, 'Name\tPort\tProtocol\n');
      w.write(L1, '----\t----\t--------\n');
      for (const p of ports) w.write(L1, `${p.name || '<unset>'}\t${p.port ?? '<unset>'}\t${p.protocol ?? ''}\n`);
    }
    const endpoints: Any[] = eps.endpoints ?? [];
    if (endpoints.length === 0) w.write(L0, 'Endpoints: <none>\n');
    else {
      w.write(L0, 'Endpoints:\n');
      for (const e of endpoints) {
        w.write(L1, `- Addresses:\t${(e.addresses ?? []).join(', ') || '<none>'}\n`);
        w.write(L2, 'Conditions:\n');
        w.write(L3, `Ready:\t${e.conditions?.ready === undefined ? '<unset>' : String(e.conditions.ready)}\n`);
        w.write(L2, `Hostname:\t${e.hostname ?? '<unset>'}\n`);
        if (e.targetRef) w.write(L2, `TargetRef:\t${e.targetRef.kind}/${e.targetRef.name}\n`);
        w.write(L2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
        w.write(L2, `Zone:\t${e.zone ?? '<unset>'}\n`);
      }
    }
    describeEvents(w, events, c);
  });
}

function accessModes(modes: string[] | undefined): string {
  const m = new Set(modes ?? []);
  const out: string[] = [];
  if (m.has('ReadWriteOnce')) out.push('RWO');
  if (m.has('ReadOnlyMany')) out.push('ROX');
  if (m.has('ReadWriteMany')) out.push('RWX');
  if (m.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

function describePVC(env: Env, pvc: Any, c: Clock): string {
  const events = eventsFor(env, pvc);
  const pods = (env.api.list('pods', { namespace: pvc.metadata.namespace }).items as Any[])
    .filter((p) => (p.spec?.volumes ?? []).some((v: Any) => v.persistentVolumeClaim?.claimName === pvc.metadata.name))
    .map((p) => p.metadata.name)
    .sort();
  return tabbed((w) => {
    const spec = pvc.spec ?? {};
    w.write(L0, `Name:\t${pvc.metadata.name}\n`);
    w.write(L0, `Namespace:\t${pvc.metadata.namespace}\n`);
    w.write(L0, `StorageClass:\t${spec.storageClassName ?? pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? ''}\n`);
    if (pvc.metadata.deletionTimestamp) w.write(L0, `Status:\tTerminating (lasts ${since(c, pvc.metadata.deletionTimestamp)})\n`);
    else w.write(L0, `Status:\t${pvc.status?.phase ?? ''}\n`);
    w.write(L0, `Volume:\t${spec.volumeName ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', pvc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', pvc.metadata.annotations);
    w.write(L0, `Finalizers:\t[${(pvc.metadata.finalizers ?? []).join(' ')}]\n`);
    let capacity = '';
    let modes = '';
    if (spec.volumeName) {
      modes = accessModes(pvc.status?.accessModes);
      capacity = pvc.status?.capacity?.storage !== undefined ? quantityString(pvc.status.capacity.storage) : '0';
    }
    w.write(L0, `Capacity:\t${capacity}\n`);
    w.write(L0, `Access Modes:\t${modes}\n`);
    if (spec.volumeMode) w.write(L0, `VolumeMode:\t${spec.volumeMode}\n`);
    w.write(L0, 'Used By:\t');
    if (pods.length === 0) w.writeLine('<none>');
    else
      pods.forEach((n, i) => {
        if (i !== 0) w.write(L0, '\t');
        w.write(L0, `${n}\n`);
      });
    describeEvents(w, events, c);
  });
}

/** describe.go `describeEndpoints`: one block per subset (ready and not-ready IPs, the ports table), each followed by a blank line. */
function describeEndpoints(env: Env, ep: Any, c: Clock): string {
  const events = eventsFor(env, ep);
  return tabbed((w) => {
    w.write(L0, `Name:\t${ep.metadata.name}\n`);
    w.write(L0, `Namespace:\t${ep.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', ep.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ep.metadata.annotations);
    w.write(L0, 'Subsets:\n');
    for (const subset of (ep.subsets ?? []) as Any[]) {
      const ips = (list: Any[] | undefined) => (list ?? []).map((a) => a.ip).join(',') || '<none>';
      w.write(L1, `Addresses:\t${ips(subset.addresses)}\n`);
      w.write(L1, `NotReadyAddresses:\t${ips(subset.notReadyAddresses)}\n`);
      const ports: Any[] = subset.ports ?? [];
      if (ports.length > 0) {
        w.write(L1, 'Ports:\n');
        w.write(L2, 'Name\tPort\tProtocol\n');
        w.write(L2, '----\t----\t--------\n');
        for (const p of ports) w.write(L2, `${p.name || '<unset>'}\t${p.port ?? 0}\t${p.protocol ?? ''}\n`);
      }
      w.write(L0, '\n');
    }
    describeEvents(w, events, c);
  });
}

/** Go's `%v` of a `[]string`: `[a b]`, `[]` when empty. */
function goList(v: string[] | undefined): string {
  return `[${(v ?? []).join(' ')}]`;
}

/** rbacv1 `PolicyRule.String()` (generated.pb.go: Verbs, APIGroups, Resources, ResourceNames, NonResourceURLs), the key `SortableRuleSlice` sorts by. */
function policyRuleString(r: Any): string {
  return `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;
}

/**
 * kubectl/pkg/util/rbac `BreakdownRule` then `CompactRules` then `sort.Stable(SortableRuleSlice)`:
 * every rule split into one (group, resource, verb[, resourceName]) rule, the simple ones with
 * the same group/resource/resourceName merged back with their verbs appended in order.
 */
export function compactPolicyRules(rules: Any[] | undefined): Any[] {
  const broken: Any[] = [];
  for (const rule of rules ?? []) {
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        for (const verb of rule.verbs ?? []) {
          if ((rule.resourceNames ?? []).length > 0) {
            for (const rn of rule.resourceNames) broken.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [rn] });
          } else broken.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
    for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) broken.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  const compacted: Any[] = [];
  const simple = new Map<string, Any>();
  for (const r of broken) {
    if (r.nonResourceURLs) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs);
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  compacted.push(...simple.values());
  const keyed = compacted.map((r) => ({ r, k: policyRuleString(r) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.r);
}

/** describe.go `CombineResourceGroup`: `deployments.apps`, `pods/log`, `` for a non-resource rule. */
function combineResourceGroup(resources: string[] | undefined, groups: string[] | undefined): string {
  if (!resources || resources.length === 0) return '';
  const [res, sub] = resources[0].split(/\/(.*)/s);
  let out = res;
  if (groups && groups.length > 0 && groups[0] !== '') out += `.${groups[0]}`;
  if (sub !== undefined) out += `/${sub}`;
  return out;
}

/** describe.go `RoleDescriber` / `ClusterRoleDescriber` (no Namespace line, no Events). */
function describeRole(role: Any): string {
  const rules = compactPolicyRules(role.rules);
  return tabbed((w) => {
    w.write(L0, `Name:\t${role.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', role.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', role.metadata.annotations);
    w.write(L0, 'PolicyRule:\n');
    w.write(L1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
    w.write(L1, '---------\t-----------------\t--------------\t-----\n');
    for (const r of rules) w.write(L1, `${combineResourceGroup(r.resources, r.apiGroups)}\t${goList(r.nonResourceURLs)}\t${goList(r.resourceNames)}\t${goList(r.verbs)}\n`);
  });
}

/** describe.go `RoleBindingDescriber` / `ClusterRoleBindingDescriber` (no Namespace line, no Events). */
function describeRoleBinding(b: Any): string {
  return tabbed((w) => {
    w.write(L0, `Name:\t${b.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', b.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', b.metadata.annotations);
    w.write(L0, 'Role:\n');
    w.write(L1, `Kind:\t${b.roleRef?.kind ?? ''}\n`);
    w.write(L1, `Name:\t${b.roleRef?.name ?? ''}\n`);
    w.write(L0, 'Subjects:\n');
    w.write(L1, 'Kind\tName\tNamespace\n');
    w.write(L1, '----\t----\t---------\n');
    for (const s of (b.subjects ?? []) as Any[]) w.write(L1, `${s.kind ?? ''}\t${s.name ?? ''}\t${s.namespace ?? ''}\n`);
  });
}

/** describe.go `printVolumeNodeAffinity` + `printNodeSelectorTermsMultilineWithIndent`. */
function printVolumeNodeAffinity(w: PrefixWriter, affinity: Any): void {
  w.write(L0, 'Node Affinity:\t');
  if (!affinity?.required) {
    w.writeLine('<none>');
    return;
  }
  w.writeLine('');
  w.write(L1, 'Required Terms:\t');
  const terms: Any[] = affinity.required.nodeSelectorTerms ?? [];
  if (terms.length === 0) {
    w.writeLine('<none>');
    return;
  }
  w.writeLine('');
  terms.forEach((term, i) => {
    w.write(L2, `Term ${i}:\t`);
    const reqs: Any[] = term.matchExpressions ?? [];
    if (reqs.length === 0) {
      w.writeLine('<none>');
      return;
    }
    reqs.forEach((req, j) => {
      if (j !== 0) w.write(L2, '\t');
      let expr = `${req.key} ${String(req.operator ?? '').toLowerCase()}`;
      if ((req.values ?? []).length > 0) expr += ` [${req.values.join(', ')}]`;
      w.write(L0, `${expr}\n`);
    });
  });
}

/** describe.go `describePersistentVolume` (the hostPath, local, NFS and CSI sources; `<unknown>` for the rest). */
function describePV(env: Env, pv: Any, c: Clock): string {
  const events = eventsFor(env, pv);
  return tabbed((w) => {
    const spec = pv.spec ?? {};
    w.write(L0, `Name:\t${pv.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', pv.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', pv.metadata.annotations);
    w.write(L0, `Finalizers:\t[${(pv.metadata.finalizers ?? []).join(' ')}]\n`);
    w.write(L0, `StorageClass:\t${spec.storageClassName ?? pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? ''}\n`);
    if (pv.metadata.deletionTimestamp) w.write(L0, `Status:\tTerminating (lasts ${since(c, pv.metadata.deletionTimestamp)})\n`);
    else w.write(L0, `Status:\t${pv.status?.phase ?? ''}\n`);
    w.write(L0, `Claim:\t${spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : ''}\n`);
    w.write(L0, `Reclaim Policy:\t${spec.persistentVolumeReclaimPolicy ?? ''}\n`);
    w.write(L0, `Access Modes:\t${accessModes(spec.accessModes)}\n`);
    if (spec.volumeMode) w.write(L0, `VolumeMode:\t${spec.volumeMode}\n`);
    w.write(L0, `Capacity:\t${spec.capacity?.storage !== undefined ? quantityString(spec.capacity.storage) : '0'}\n`);
    printVolumeNodeAffinity(w, spec.nodeAffinity);
    w.write(L0, `Message:\t${pv.status?.message ?? ''}\n`);
    w.write(L0, 'Source:\n');
    if (spec.hostPath) w.write(L2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${spec.hostPath.path ?? ''}\n    HostPathType:\t${spec.hostPath.type ?? ''}\n`);
    else if (spec.local) w.write(L2, `Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t${spec.local.path ?? ''}\n`);
    else if (spec.nfs) w.write(L2, `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${spec.nfs.server}\n    Path:\t${spec.nfs.path}\n    ReadOnly:\t${spec.nfs.readOnly === true}\n`);
    else if (spec.csi)
      w.write(
        L2,
        `Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t${spec.csi.driver}\n    FSType:\t${spec.csi.fsType ?? ''}\n    VolumeHandle:\t${spec.csi.volumeHandle ?? ''}\n    ReadOnly:\t${spec.csi.readOnly === true}\n`,
      );
    else w.write(L1, '<unknown>\n');
    describeEvents(w, events, c);
  });
}

/** describe.go `StorageClassDescriber` (annotations and parameters as `labels.FormatLabels`). */
function describeStorageClass(env: Env, sc: Any, c: Clock): string {
  const events = eventsFor(env, sc);
  const isDefault = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'].some((k) => sc.metadata.annotations?.[k] === 'true');
  return tabbed((w) => {
    w.write(L0, `Name:\t${sc.metadata.name}\n`);
    w.write(L0, `IsDefaultClass:\t${isDefault ? 'Yes' : 'No'}\n`);
    w.write(L0, `Annotations:\t${formatLabels(sc.metadata.annotations)}\n`);
    w.write(L0, `Provisioner:\t${sc.provisioner ?? ''}\n`);
    w.write(L0, `Parameters:\t${formatLabels(sc.parameters)}\n`);
    w.write(L0, `AllowVolumeExpansion:\t${sc.allowVolumeExpansion === undefined ? '<unset>' : sc.allowVolumeExpansion ? 'True' : 'False'}\n`);
    const opts: string[] = sc.mountOptions ?? [];
    if (opts.length === 0) w.write(L0, 'MountOptions:\t<none>\n');
    else {
      w.write(L0, 'MountOptions:\n');
      for (const o of opts) w.write(L1, `${o}\n`);
    }
    if (sc.reclaimPolicy) w.write(L0, `ReclaimPolicy:\t${sc.reclaimPolicy}\n`);
    if (sc.volumeBindingMode) w.write(L0, `VolumeBindingMode:\t${sc.volumeBindingMode}\n`);
    describeEvents(w, events, c);
  });
}

/** describe.go `describeBackendV1`: `svc:port (ip:port,...)`, or the error of a missing Service. */
function describeIngressBackend(env: Env, ns: string, backend: Any): string {
  if (backend?.service) {
    const b = backend.service;
    const sb = `${b.name}:${b.port?.number ? b.port.number : (b.port?.name ?? '')}`;
    let svc: Any;
    try {
      svc = env.api.get('services', ns, b.name);
    } catch (e) {
      return `${sb} (<error: ${e instanceof ApiError ? e.message : String(e)}>)`;
    }
    const slices = env.api.list('endpointslices', { namespace: ns, labelSelector: `kubernetes.io/service-name=${b.name}` }).items;
    let spName = '';
    for (const sp of (svc.spec?.ports ?? []) as Any[]) {
      if (b.port?.number && b.port.number === sp.port) spName = sp.name ?? '';
      else if (b.port?.name && b.port.name === sp.name) spName = sp.name ?? '';
    }
    return `${sb} (${formatEndpointSlices(slices, spName)})`;
  }
  if (backend?.resource) {
    const r = backend.resource;
    return `APIGroup: ${r.apiGroup ?? '<none>'}, Kind: ${r.kind}, Name: ${r.name}`;
  }
  return '';
}

/** describe.go `describeIngressV1`. */
function describeIngress(env: Env, ing: Any, c: Clock): string {
  const events = eventsFor(env, ing);
  const ns = ing.metadata.namespace;
  return tabbed((w) => {
    const spec = ing.spec ?? {};
    w.write(L0, `Name:\t${ing.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ing.metadata.labels);
    w.write(L0, `Namespace:\t${ns}\n`);
    const lb: Any[] = ing.status?.loadBalancer?.ingress ?? [];
    w.write(L0, `Address:\t${lb.map((i) => i.ip || i.hostname || '').filter((s) => s).join(',')}\n`);
    w.write(L0, `Ingress Class:\t${spec.ingressClassName ?? '<none>'}\n`);
    const def = spec.defaultBackend ? describeIngressBackend(env, ns, spec.defaultBackend) : '<default>';
    w.write(L0, `Default backend:\t${def}\n`);
    if ((spec.tls ?? []).length > 0) {
      w.write(L0, 'TLS:\n');
      for (const t of spec.tls as Any[]) {
        if (!t.secretName) w.write(L1, `SNI routes ${(t.hosts ?? []).join(',')}\n`);
        else w.write(L1, `${t.secretName} terminates ${(t.hosts ?? []).join(',')}\n`);
      }
    }
    w.write(L0, 'Rules:\n  Host\tPath\tBackends\n');
    w.write(L1, '----\t----\t--------\n');
    let count = 0;
    for (const rule of (spec.rules ?? []) as Any[]) {
      if (!rule.http) continue;
      count++;
      w.write(L1, `${rule.host || '*'}\t\n`);
      for (const p of (rule.http.paths ?? []) as Any[]) w.write(L2, `\t${p.path ?? ''} \t${describeIngressBackend(env, ns, p.backend)}\n`);
    }
    if (count === 0) w.write(L1, `*\t*\t${def}\n`);
    printAnnotationsMultiline(w, 'Annotations', ing.metadata.annotations);
    describeEvents(w, events, c);
  });
}

/** describe.go `describeIngressClassV1`. */
function describeIngressClass(env: Env, ic: Any, c: Clock): string {
  const events = eventsFor(env, ic);
  return tabbed((w) => {
    w.write(L0, `Name:\t${ic.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ic.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ic.metadata.annotations);
    w.write(L0, `Controller:\t${ic.spec?.controller ?? ''}\n`);
    const params = ic.spec?.parameters;
    if (params) {
      w.write(L0, 'Parameters:\n');
      if (params.apiGroup !== undefined) w.write(L1, `APIGroup:\t${params.apiGroup}\n`);
      w.write(L1, `Kind:\t${params.kind ?? ''}\n`);
      w.write(L1, `Name:\t${params.name ?? ''}\n`);
    }
    describeEvents(w, events, c);
  });
}

/** describe.go `smartLabelFor`: `resourceVersion` -> `Resource Version`, `uid` -> `UID`. */
export function smartLabelFor(field: string): string {
  if (/[^\p{L}-]/u.test(field)) return field;
  const parts = field.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/);
  const acronyms = ['API', 'URL', 'UID', 'OSB', 'GUID'];
  return parts
    .filter((p) => p !== '_')
    .map((p) => (acronyms.includes(p.toUpperCase()) ? p.toUpperCase() : p.charAt(0).toUpperCase() + p.slice(1)))
    .join(' ');
}

/** describe.go `printUnstructuredContent`. */
function printUnstructured(w: PrefixWriter, level: number, content: Record<string, unknown>, skipPrefix: string, skip: string[]): void {
  for (const field of sortedKeys(content)) {
    const value = content[field];
    const expr = `${skipPrefix}.${field}`;
    if (skip.includes(expr)) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      printUnstructured(w, level + 1, value as Record<string, unknown>, expr, skip);
    } else if (Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      for (const child of value) {
        if (child !== null && typeof child === 'object' && !Array.isArray(child)) printUnstructured(w, level + 1, child as Record<string, unknown>, expr, skip);
        else w.write(level + 1, `${goValue(child)}\n`);
      }
    } else {
      w.write(level, `${smartLabelFor(field)}:\t${goValue(value)}\n`);
    }
  }
}

/** `%v` of a JSON scalar. */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  return String(v);
}

/**
 * describe.go `describeHorizontalPodAutoscalerV2` (autoscaling/v2; `describeHorizontalPodAutoscalerV1`
 * for a v1 object): the reference, each metric as `( current / target )` with `<unknown>` until the
 * controller has measured it, min/max replicas, the behavior when set, `<Kind> pods: N current / M
 * desired`, the conditions, the events.
 */
function describeHPA(env: Env, hpa: Any, c: Clock): string {
  const events = eventsFor(env, hpa);
  const spec = hpa.spec ?? {};
  const st = hpa.status ?? {};
  const ref = spec.scaleTargetRef ?? {};
  const cur: Any[] = st.currentMetrics ?? [];
  const q = (v: unknown) => (v === undefined || v === null ? '' : quantityString(v));
  return tabbed((w) => {
    w.write(L0, `Name:\t${hpa.metadata.name}\n`);
    w.write(L0, `Namespace:\t${hpa.metadata.namespace}\n`);
    printLabelsMultiline(w, 'Labels', hpa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
    w.write(L0, `CreationTimestamp:\t${rfc1123z(hpa.metadata.creationTimestamp)}\n`);
    w.write(L0, `Reference:\t${ref.kind ?? ''}/${ref.name ?? ''}\n`);
    if (hpa.apiVersion === 'autoscaling/v1') {
      if (spec.targetCPUUtilizationPercentage !== undefined) {
        w.write(L0, `Target CPU utilization:\t${spec.targetCPUUtilizationPercentage}%\n`);
        w.write(L0, `Current CPU utilization:\t${st.currentCPUUtilizationPercentage ?? '<unknown>'}%\n`);
      }
    } else {
      w.write(L0, 'Metrics:\t( current / target )\n');
      (spec.metrics ?? []).forEach((m: Any, i: number) => {
        const now = cur[i];
        switch (m.type) {
          case 'External':
            if (m.external?.target?.averageValue !== undefined) {
              const current = now?.external?.current?.averageValue !== undefined ? q(now.external.current.averageValue) : '<unknown>';
              w.write(L1, `${goQuote(m.external?.metric?.name ?? '')} (target average value):\t${current} / ${q(m.external.target.averageValue)}\n`);
            } else {
              const current = now?.external ? q(now.external.current?.value) : '<unknown>';
              w.write(L1, `${goQuote(m.external?.metric?.name ?? '')} (target value):\t${current} / ${q(m.external?.target?.value)}\n`);
            }
            break;
          case 'Pods': {
            const current = now?.pods ? q(now.pods.current?.averageValue) : '<unknown>';
            w.write(L1, `${goQuote(m.pods?.metric?.name ?? '')} on pods:\t${current} / ${q(m.pods?.target?.averageValue)}\n`);
            break;
          }
          case 'Object': {
            w.write(L1, `"${m.object?.metric?.name ?? ''}" on ${m.object?.describedObject?.kind ?? ''}/${m.object?.describedObject?.name ?? ''} `);
            if (m.object?.target?.type === 'AverageValue') {
              const current = now?.object ? q(now.object.current?.averageValue) : '<unknown>';
              w.write(L0, `(target average value):\t${current} / ${q(m.object.target.averageValue)}\n`);
            } else {
              const current = now?.object ? q(now.object.current?.value) : '<unknown>';
              w.write(L0, `(target value):\t${current} / ${q(m.object?.target?.value)}\n`);
            }
            break;
          }
          case 'Resource':
          case 'ContainerResource': {
            const src = m.type === 'Resource' ? m.resource : m.containerResource;
            const now2 = m.type === 'Resource' ? now?.resource : now?.containerResource;
            w.write(L1, m.type === 'Resource' ? `resource ${src?.name ?? ''} on pods` : `resource ${src?.name ?? ''} of container "${src?.container ?? ''}" on pods`);
            if (src?.target?.averageValue !== undefined) {
              const current = now2 ? q(now2.current?.averageValue) : '<unknown>';
              w.write(L0, `:\t${current} / ${q(src.target.averageValue)}\n`);
            } else {
              const current = now2 && now2.current?.averageUtilization !== undefined ? `${now2.current.averageUtilization}% (${q(now2.current.averageValue)})` : '<unknown>';
              const target = src?.target?.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
              w.write(L1, `(as a percentage of request):\t${current} / ${target}\n`);
            }
            break;
          }
          default:
            w.write(L1, `<unknown metric type ${goQuote(String(m.type ?? ''))}>\n`);
        }
      });
    }
    w.write(L0, `Min replicas:\t${spec.minReplicas ?? '<unset>'}\n`);
    w.write(L0, `Max replicas:\t${spec.maxReplicas ?? 0}\n`);
    if (hpa.apiVersion !== 'autoscaling/v1' && spec.behavior) {
      w.write(L0, 'Behavior:\n');
      for (const [direction, rules] of [
        ['Scale Up', spec.behavior.scaleUp],
        ['Scale Down', spec.behavior.scaleDown],
      ] as [string, Any][]) {
        if (!rules) continue;
        w.write(L1, `${direction}:\n`);
        if (rules.stabilizationWindowSeconds !== undefined) w.write(L2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
        if ((rules.policies ?? []).length > 0) {
          w.write(L2, `Select Policy: ${rules.selectPolicy ?? 'Max'}\n`);
          w.write(L2, 'Policies:\n');
          for (const p of rules.policies) w.write(L3, `- Type: ${p.type}\tValue: ${p.value}\tPeriod: ${p.periodSeconds} seconds\n`);
        }
      }
    }
    w.write(L0, `${ref.kind ?? ''} pods:\t`);
    w.write(L0, `${st.currentReplicas ?? 0} current / ${st.desiredReplicas ?? 0} desired\n`);
    if (hpa.apiVersion !== 'autoscaling/v1' && (st.conditions ?? []).length > 0) {
      w.write(L0, 'Conditions:\n');
      w.write(L1, 'Type\tStatus\tReason\tMessage\n');
      w.write(L1, '----\t------\t------\t-------\n');
      for (const cond of st.conditions) w.write(L1, `${cond.type}\t${cond.status}\t${cond.reason ?? ''}\t${cond.message ?? ''}\n`);
    }
    describeEvents(w, events, c);
  });
}

/** describe.go `genericDescriber`. */
function describeGeneric(env: Env, obj: Any, c: Clock): string {
  const events = eventsFor(env, obj);
  return tabbed((w) => {
    w.write(L0, `Name:\t${obj.metadata.name}\n`);
    w.write(L0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', obj.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
    printUnstructured(w, L0, obj, '', ['.metadata.managedFields', '.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']);
    describeEvents(w, events, c);
  });
}

/** The describer for an object's kind. */
export function describeObject(env: Env, obj: KubeObject): string {
  const c = { now: env.ctx.clock.epochMs + env.ctx.clock.now() };
  const { group } = { group: obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '' };
  const key = `${group}/${obj.kind}`;
  switch (key) {
    case '/Pod':
      return describePod(env, obj, c);
    case 'apps/Deployment':
      return describeDeployment(env, obj, c);
    case 'apps/ReplicaSet':
      return describeReplicaSet(env, obj, c);
    case 'apps/StatefulSet':
      return describeStatefulSet(env, obj, c);
    case 'apps/DaemonSet':
      return describeDaemonSet(env, obj, c);
    case 'batch/Job':
      return describeJob(env, obj, c);
    case 'batch/CronJob':
      return describeCronJob(env, obj, c);
    case '/Namespace':
      return describeNamespace(env, obj);
    case '/Node':
      return describeNode(env, obj, c);
    case '/Service':
      return describeService(env, obj, c);
    case '/ConfigMap':
      return describeConfigMap(env, obj, c);
    case '/Secret':
      return describeSecret(env, obj);
    case '/ServiceAccount':
      return describeServiceAccount(env, obj, c);
    case 'discovery.k8s.io/EndpointSlice':
      return describeEndpointSlice(env, obj, c);
    case '/PersistentVolumeClaim':
      return describePVC(env, obj, c);
    case '/ReplicationController':
      return describeReplicationController(env, obj, c);
    case 'policy/PodDisruptionBudget':
      return describePodDisruptionBudget(env, obj, c);
    case '/ResourceQuota':
      return describeResourceQuota(env, obj);
    case '/Endpoints':
      return describeEndpoints(env, obj, c);
    case '/LimitRange':
      return describeLimitRange(obj);
    case '/PersistentVolume':
      return describePV(env, obj, c);
    case 'storage.k8s.io/StorageClass':
      return describeStorageClass(env, obj, c);
    case 'networking.k8s.io/Ingress':
      return describeIngress(env, obj, c);
    case 'autoscaling/HorizontalPodAutoscaler':
      return describeHPA(env, obj, c);
    case 'networking.k8s.io/IngressClass':
      return describeIngressClass(env, obj, c);
    case 'networking.k8s.io/NetworkPolicy':
      return describeNetworkPolicy(obj);
    case 'scheduling.k8s.io/PriorityClass':
      return describePriorityClass(env, obj, c);
    case 'rbac.authorization.k8s.io/Role':
    case 'rbac.authorization.k8s.io/ClusterRole':
      return describeRole(obj);
    case 'rbac.authorization.k8s.io/RoleBinding':
    case 'rbac.authorization.k8s.io/ClusterRoleBinding':
      return describeRoleBinding(obj);
  }
  return describeGeneric(env, obj, c);
}

/**
 * `kubectl describe TYPE [NAME_PREFIX]`, `TYPE/NAME`, `-f`, `-l`, `-A`. A name that is not an
 * object is taken as a prefix (describe.go `DescribeMatchingResources`); nothing matching gives
 * the NotFound of the name.
 */
export function describe(env: Env): number {
  const manifests = readManifestFlags(env);
  if (!manifests && env.flags.args.length === 0) {
    throw fail('You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.');
  }
  discover(env, 5);
  const allNs = env.flags.bool('all-namespaces');
  const selector = env.flags.str('selector');
  const objs: KubeObject[] = [];
  const errs: unknown[] = [];
  if (manifests) {
    errs.push(...manifests.errors.map((t) => fail(t.replace(/^error: /, ''))));
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      try {
        objs.push(env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? ''));
      } catch (e) {
        errs.push(e);
      }
    }
  } else {
    const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: true, hasSelector: selector !== '' });
    if (sel.mode === 'list') {
      for (const t of sel.types) {
        objs.push(...env.api.list(t, { namespace: t.namespaced && !allNs ? env.namespace : undefined, labelSelector: selector || undefined }).items);
      }
      if (objs.length === 0) {
        const allNamespaced = sel.types.every((t) => t.namespaced);
        env.err(allNamespaced && !allNs ? `No resources found in ${env.namespace} namespace.\n` : 'No resources found\n');
        return 0;
      }
    } else {
      for (const ref of sel.refs) {
        const ns = ref.type.namespaced ? env.namespace : undefined;
        try {
          objs.push(env.api.get(ref.type, ns, ref.name));
        } catch (e) {
          if (!(e instanceof ApiError && e.code === 404)) throw e;
          const matches = prefixMatches(env, ref.type, ns, ref.name);
          if (matches.length === 0) errs.push(e);
          objs.push(...matches);
        }
      }
    }
  }
  let first = true;
  for (const o of objs) {
    const s = describeObject(env, o);
    env.out(first ? s : `\n\n${s}`);
    first = false;
  }
  for (const e of errs) printError(env, e);
  return errs.length > 0 ? 1 : 0;
}

function prefixMatches(env: Env, type: ResourceType, ns: string | undefined, prefix: string): KubeObject[] {
  return env.api.list(type, { namespace: ns }).items.filter((o) => (o.metadata.name ?? '').startsWith(prefix));
}

