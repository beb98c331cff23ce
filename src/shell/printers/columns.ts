/**
 * The server half of `kubectl get` table output: the columns and cells kube-apiserver puts
 * in a `Table` for each kind (what you see is then `renderTable` in table.ts).
 *
 * Mirrors pkg/printers/internalversion/printers.go (`AddHandlers` column definitions and the
 * `printPod`, `printDeployment`, ... row functions) as of 1.32-1.36; kinds without a printer
 * there (Role, ClusterRole, CustomResourceDefinition, ...) get the API server's default table
 * (staging/src/k8s.io/apiserver/pkg/registry/rest/table.go: NAME, CREATED AT); custom
 * resources get their CRD's `additionalPrinterColumns`
 * (apiextensions-apiserver pkg/registry/customresource/tableconvertor/tableconvertor.go).
 *
 * Like the real server, rows are always generated as for `-o wide` (the server calls the
 * printers with `Wide: true`); the client hides priority-1 columns unless `-o wide`.
 */
import type { KubeObject } from '../../engine/api/types';
import { splitApiVersion } from '../../engine/api/types';
import { labelSelectorToString } from '../../engine/api/labels';
import { canonicalQuantity } from '../../engine/api/quantity';
import { printerColumns } from '../../engine/api/crd';
import { EVENTS_V1 } from '../../engine/api/conversion';
import { formatRfc3339 } from '../../engine/clock';
import { humanDuration, timestampMs } from './duration';
import { age, conditionTrue, int, podRow, since, type PrintContext } from './podrow';
import { findResults, parseJsonPath, printResultGroup } from './jsonpath';
import { isGoInt } from './gofmt';
import { formatLabels, renderTable, type Cell, type ColumnDefinition, type Table, type TableRow } from './table';

export { podRow, type PrintContext } from './podrow';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

interface KindPrinter {
  group: string;
  columns: ColumnDefinition[];
  row(obj: Any, ctx: PrintContext): Cell[];
}

const col = (name: string, type = 'string', priority = 0, format?: string): ColumnDefinition => ({ name, type, priority, ...(format ? { format } : {}) });
const NAME = col('Name', 'string', 0, 'name');
const AGE = col('Age');
const wide = (name: string, type = 'string') => col(name, type, 1);

const len = (v: unknown): number => (Array.isArray(v) ? v.length : v && typeof v === 'object' ? Object.keys(v).length : 0);

/** printers.go `layoutContainerCells`: names and images joined by `,`. */
function containerCells(containers: Any[] | undefined): [string, string] {
  const cs = containers ?? [];
  return [cs.map((c) => c.name ?? '').join(','), cs.map((c) => c.image ?? '').join(',')];
}

/** `metav1.FormatLabelSelector`: `app=web`, `<none>` when empty, `<error>` when invalid. */
function formatLabelSelector(sel: Any): string {
  return labelSelectorToString(sel);
}

/** `selector.String()` of `LabelSelectorAsSelector` (Deployment wide): empty stays empty, `<invalid>` on error. */
function selectorString(sel: Any): string {
  const s = labelSelectorToString(sel);
  if (s === '<none>') return '';
  if (s === '<error>') return '<invalid>';
  return s;
}

/** `resource.Quantity.String()` of a stored quantity (canonical form; zero value `0`). */
function quantityString(q: unknown): string {
  if (q === undefined || q === null || q === '') return '0';
  try {
    return canonicalQuantity(q as string | number);
  } catch {
    return String(q);
  }
}

/** `printBoolPtr`: the value, or `<unset>`. */
function boolPtr(v: unknown): string {
  return typeof v === 'boolean' ? String(v) : '<unset>';
}


// ------------------------------------------------------------------------------------------
// Pod
// ------------------------------------------------------------------------------------------

// podRow, printers.go `printPod`, lives in ./podrow.ts (the worker's records import it alone).

// ------------------------------------------------------------------------------------------
// Services, ingresses, endpoints
// ------------------------------------------------------------------------------------------

/** `loadBalancerStatusStringer` with wide=true (the server never clips): IPs/hostnames, sorted, `,`. */
function loadBalancerStatus(s: Any): string {
  const set = new Set<string>();
  for (const i of s?.ingress ?? []) {
    if (i?.ip) set.add(i.ip);
    else if (i?.hostname) set.add(i.hostname);
  }
  return [...set].sort().join(',');
}

/** printers.go `getServiceExternalIP`. */
function serviceExternalIP(svc: Any): string {
  const spec = svc.spec ?? {};
  const ext: string[] = spec.externalIPs ?? [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return ext.length > 0 ? ext.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerStatus(svc.status?.loadBalancer);
      if (ext.length > 0) return [...(lb ? lb.split(',') : []), ...ext].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
  }
  return '<unknown>';
}

/** printers.go `makePortString`: `80/TCP`, `80:30080/TCP`, joined by `,`. */
function portString(ports: Any[] | undefined): string {
  return (ports ?? []).map((p) => (int(p.nodePort) > 0 ? `${int(p.port)}:${p.nodePort}/${p.protocol ?? ''}` : `${int(p.port)}/${p.protocol ?? ''}`)).join(',');
}

/** printers.go `formatHosts`: up to 3 hosts then ` + N more...`; `*` when none. */
function formatHosts(rules: Any[] | undefined): string {
  const list: string[] = [];
  let more = false;
  for (const r of rules ?? []) {
    if (list.length === 3) more = true;
    if (!more && r?.host) list.push(r.host);
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${(rules ?? []).length - 3} more...` : list.join(',');
}

/** Go's `net.JoinHostPort`. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** printers.go `formatEndpoints` (v1 Endpoints). */
function formatEndpoints(ep: Any): string {
  const subsets: Any[] = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addrs: Any[] = ss.addresses ?? [];
    const ports: Any[] = ss.ports ?? [];
    if (ports.length === 0) {
      count += addrs.length;
      for (const a of addrs) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(a.ip);
      }
      continue;
    }
    for (const port of ports) {
      count += addrs.length;
      for (const a of addrs) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(joinHostPort(a.ip, int(port.port)));
      }
    }
  }
  return more ? `${list.join(',')} + ${count - max} more...` : list.join(',');
}

/** printers.go `listWithMoreString`. */
function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret === '' ? '<unset>' : ret;
}

/** printers.go `formatDiscoveryPorts`. */
function formatDiscoveryPorts(ports: Any[] | undefined): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const p of ports ?? []) {
    if (list.length < 3) list.push(typeof p?.port === 'number' ? String(p.port) : typeof p?.name === 'string' ? p.name : '*');
    else if (list.length === 3) more = true;
    count++;
  }
  return listWithMore(list, more, count, 3);
}

/** printers.go `formatDiscoveryEndpoints`. */
function formatDiscoveryEndpoints(endpoints: Any[] | undefined): string {
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const e of endpoints ?? []) {
    for (const a of e?.addresses ?? []) {
      if (list.length < 3) list.push(a);
      else if (list.length === 3) more = true;
      count++;
    }
  }
  return listWithMore(list, more, count, 3);
}

// ------------------------------------------------------------------------------------------
// Nodes, storage, events, rbac
// ------------------------------------------------------------------------------------------

/** printers.go `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role` values, sorted. */
function nodeRoles(labels: Record<string, string> | undefined): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

function nodeAddress(node: Any, type: string): string {
  return (node.status?.addresses ?? []).find((a: Any) => a?.type === type)?.address ?? '<none>';
}

/** `helper.GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order. */
function accessModes(modes: string[] | undefined): string {
  const m = new Set(modes ?? []);
  const out: string[] = [];
  if (m.has('ReadWriteOnce')) out.push('RWO');
  if (m.has('ReadOnlyMany')) out.push('ROX');
  if (m.has('ReadWriteMany')) out.push('RWX');
  if (m.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** `helper.GetPersistentVolumeClass` / `GetPersistentVolumeClaimClass`: beta annotation, else spec. */
function storageClassOf(o: Any): string {
  const ann = o.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (ann !== undefined) return ann;
  return o.spec?.storageClassName ?? '';
}

/**
 * printers.go `formatEventSource`: component (or the reporting controller), `, host` (or the
 * reporting instance) when set. core/v1 serializes Event.ReportingController as
 * `reportingComponent` (k8s.io/api core/v1 types.go), so that is the field read here.
 */
function eventSource(ev: Any): string {
  const component = ev.source?.component || ev.reportingComponent || '';
  const instance = ev.source?.host || ev.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

/**
 * printers.go `printEvent` (wide cells). The server prints the internal Event, so an
 * events.k8s.io/v1 Event is read in its core/v1 form (pkg/apis/events/v1/conversion.go), with the
 * same columns as `kubectl get events`.
 */
function eventRow(e: Any, ctx: PrintContext): Cell[] {
  const ev: Any = e?.apiVersion === 'events.k8s.io/v1' ? EVENTS_V1.toStorage(e) : e;
  let first = since(ev.firstTimestamp, ctx);
  if (timestampMs(ev.firstTimestamp) === undefined) first = since(ev.eventTime, ctx);
  let last = since(ev.lastTimestamp, ctx);
  if (timestampMs(ev.lastTimestamp) === undefined) last = first;
  let count = int(ev.count);
  if (ev.series) {
    last = since(ev.series.lastObservedTime, ctx);
    count = int(ev.series.count);
  } else if (count === 0) count = 1;
  const io = ev.involvedObject ?? {};
  const kind = String(io.kind ?? '').toLowerCase();
  const target = io.name ? `${kind}/${io.name}` : kind;
  return [last, ev.type ?? '', ev.reason ?? '', target, io.fieldPath ?? '', eventSource(ev), String(ev.message ?? '').trim(), first, count, ev.metadata?.name];
}

/** `rbac.SubjectsStrings`: users, groups, `ns/name` service accounts. */
function subjects(subs: Any[] | undefined): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subs ?? []) {
    if (s?.kind === 'ServiceAccount') sas.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
    else if (s?.kind === 'User') users.push(s.name ?? '');
    else if (s?.kind === 'Group') groups.push(s.name ?? '');
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingRow(o: Any, ctx: PrintContext): Cell[] {
  return [o.metadata?.name, `${o.roleRef?.kind ?? ''}/${o.roleRef?.name ?? ''}`, age(o, ctx), ...subjects(o.subjects)];
}

/** Go's `intstr.IntOrString.String()`. */
function intOrString(v: unknown): string {
  return typeof v === 'number' ? String(v) : String(v ?? '');
}

// ------------------------------------------------------------------------------------------
// The table
// ------------------------------------------------------------------------------------------

/**
 * `formatHPAMetrics` (printers.go): each metric as `current/target` (resource metrics prefixed
 * `cpu: `), `<unknown>` before the first metrics read, at most 2 then `+ N more...`.
 */
function formatHPAMetrics(specs: Any[] | undefined, statuses: Any[] | undefined): string {
  if (!specs || specs.length === 0) return '<none>';
  const st = statuses ?? [];
  const q = (v: unknown) => quantityString(v);
  const list: string[] = [];
  specs.forEach((spec, i) => {
    const s = st[i];
    switch (spec?.type) {
      case 'External': {
        const t = spec.external?.target ?? {};
        if (t.averageValue !== undefined) list.push(`${s?.external?.current?.averageValue !== undefined ? q(s.external.current.averageValue) : '<unknown>'}/${q(t.averageValue)} (avg)`);
        else list.push(`${s?.external ? q(s.external.current?.value) : '<unknown>'}/${q(t.value)}`);
        break;
      }
      case 'Pods':
        list.push(`${s?.pods ? q(s.pods.current?.averageValue) : '<unknown>'}/${q(spec.pods?.target?.averageValue)}`);
        break;
      case 'Object': {
        const t = spec.object?.target ?? {};
        if (t.averageValue !== undefined) list.push(`${s?.object?.current?.averageValue !== undefined ? q(s.object.current.averageValue) : '<unknown>'}/${q(t.averageValue)} (avg)`);
        else list.push(`${s?.object ? q(s.object.current?.value) : '<unknown>'}/${q(t.value)}`);
        break;
      }
      case 'Resource':
      case 'ContainerResource': {
        const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
        const r = spec[key] ?? {};
        const cur = s?.[key];
        if (r.target?.averageValue !== undefined) {
          list.push(`${r.name}: ${cur ? q(cur.current?.averageValue) : '<unknown>'}/${q(r.target.averageValue)}`);
        } else {
          const current = typeof cur?.current?.averageUtilization === 'number' ? `${cur.current.averageUtilization}%` : '<unknown>';
          const target = typeof r.target?.averageUtilization === 'number' ? `${r.target.averageUtilization}%` : '<auto>';
          list.push(`${r.name}: ${current}/${target}`);
        }
        break;
      }
      default:
        list.push('<unknown type>');
    }
  });
  if (list.length > 2) return `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...`;
  return list.join(', ');
}

/** `extractCSRStatus` (printers.go): Denied / Approved / Pending, then `,Failed`, `,Issued`. */
function csrStatus(o: Any): string {
  const types = new Set((o.status?.conditions ?? []).map((c: Any) => c?.type));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (o.status?.certificate) status += ',Issued';
  return status;
}

const CONTAINERS_IMAGES = [wide('Containers'), wide('Images')];

/** Column definitions and row functions per built-in kind (printers.go `AddHandlers`). */
export const KIND_PRINTERS: Record<string, KindPrinter> = {
  Pod: {
    group: '',
    columns: [NAME, col('Ready'), col('Status'), col('Restarts'), AGE, wide('IP'), wide('Node'), wide('Nominated Node'), wide('Readiness Gates')],
    row: podRow,
  },
  ReplicaSet: {
    group: 'apps',
    columns: [NAME, col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), AGE, ...CONTAINERS_IMAGES, wide('Selector')],
    row: (o, ctx) => [o.metadata?.name, o.spec?.replicas ?? 1, int(o.status?.replicas), int(o.status?.readyReplicas), age(o, ctx), ...containerCells(o.spec?.template?.spec?.containers), formatLabelSelector(o.spec?.selector)],
  },
  ReplicationController: {
    group: '',
    columns: [NAME, col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), AGE, ...CONTAINERS_IMAGES, wide('Selector')],
    row: (o, ctx) => [o.metadata?.name, o.spec?.replicas ?? 1, int(o.status?.replicas), int(o.status?.readyReplicas), age(o, ctx), ...containerCells(o.spec?.template?.spec?.containers), formatLabels(o.spec?.selector)],
  },
  Deployment: {
    group: 'apps',
    columns: [NAME, col('Ready'), col('Up-to-date'), col('Available'), AGE, ...CONTAINERS_IMAGES, wide('Selector')],
    row: (o, ctx) => [
      o.metadata?.name,
      `${int(o.status?.readyReplicas)}/${o.spec?.replicas ?? 1}`,
      int(o.status?.updatedReplicas),
      int(o.status?.availableReplicas),
      age(o, ctx),
      ...containerCells(o.spec?.template?.spec?.containers),
      selectorString(o.spec?.selector),
    ],
  },
  StatefulSet: {
    group: 'apps',
    columns: [NAME, col('Ready'), AGE, ...CONTAINERS_IMAGES],
    row: (o, ctx) => [o.metadata?.name, `${int(o.status?.readyReplicas)}/${o.spec?.replicas ?? 1}`, age(o, ctx), ...containerCells(o.spec?.template?.spec?.containers)],
  },
  DaemonSet: {
    group: 'apps',
    columns: [
      NAME,
      col('Desired', 'integer'),
      col('Current', 'integer'),
      col('Ready', 'integer'),
      col('Up-to-date', 'integer'),
      col('Available', 'integer'),
      col('Node Selector'),
      AGE,
      ...CONTAINERS_IMAGES,
      wide('Selector'),
    ],
    row: (o, ctx) => {
      const s = o.status ?? {};
      return [
        o.metadata?.name,
        int(s.desiredNumberScheduled),
        int(s.currentNumberScheduled),
        int(s.numberReady),
        int(s.updatedNumberScheduled),
        int(s.numberAvailable),
        formatLabels(o.spec?.template?.spec?.nodeSelector),
        age(o, ctx),
        ...containerCells(o.spec?.template?.spec?.containers),
        formatLabelSelector(o.spec?.selector),
      ];
    },
  },
  Job: {
    group: 'batch',
    columns: [NAME, col('Status'), col('Completions'), col('Duration'), AGE, ...CONTAINERS_IMAGES, wide('Selector')],
    row: (o, ctx) => {
      const spec = o.spec ?? {};
      const st = o.status ?? {};
      const succeeded = int(st.succeeded);
      let completions: string;
      if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
      else if (int(spec.parallelism) > 1) completions = `${succeeded}/1 of ${spec.parallelism}`;
      else completions = `${succeeded}/1`;
      let duration = '';
      const start = timestampMs(st.startTime);
      const done = timestampMs(st.completionTime);
      if (start !== undefined) duration = done === undefined ? humanDuration(ctx.epochMs + ctx.nowMs - start) : humanDuration(done - start);
      const c = st.conditions;
      let status: string;
      if (conditionTrue(c, 'Complete')) status = 'Complete';
      else if (conditionTrue(c, 'Failed')) status = 'Failed';
      else if (o.metadata?.deletionTimestamp) status = 'Terminating';
      else if (conditionTrue(c, 'Suspended')) status = 'Suspended';
      else if (conditionTrue(c, 'FailureTarget')) status = 'FailureTarget';
      else if (conditionTrue(c, 'SuccessCriteriaMet')) status = 'SuccessCriteriaMet';
      else status = 'Running';
      return [o.metadata?.name, status, completions, duration, age(o, ctx), ...containerCells(spec.template?.spec?.containers), formatLabelSelector(spec.selector)];
    },
  },
  CronJob: {
    group: 'batch',
    columns: [NAME, col('Schedule'), col('Timezone'), col('Suspend', 'boolean'), col('Active', 'integer'), col('Last Schedule'), AGE, ...CONTAINERS_IMAGES, wide('Selector')],
    row: (o, ctx) => {
      const spec = o.spec ?? {};
      const last = o.status?.lastScheduleTime ? since(o.status.lastScheduleTime, ctx) : '<none>';
      const jt = spec.jobTemplate?.spec ?? {};
      return [
        o.metadata?.name,
        spec.schedule ?? '',
        spec.timeZone ?? '<none>',
        boolPtr(spec.suspend),
        len(o.status?.active),
        last,
        age(o, ctx),
        ...containerCells(jt.template?.spec?.containers),
        formatLabelSelector(jt.selector),
      ];
    },
  },
  Service: {
    group: '',
    columns: [NAME, col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), AGE, wide('Selector')],
    row: (o, ctx) => {
      const spec = o.spec ?? {};
      const clusterIP = spec.clusterIPs?.[0] ?? spec.clusterIP ?? '';
      return [o.metadata?.name, spec.type ?? '', clusterIP || '<none>', serviceExternalIP(o), portString(spec.ports) || '<none>', age(o, ctx), formatLabels(spec.selector)];
    },
  },
  Ingress: {
    group: 'networking.k8s.io',
    columns: [NAME, col('Class'), col('Hosts'), col('Address'), col('Ports'), AGE],
    row: (o, ctx) => [
      o.metadata?.name,
      o.spec?.ingressClassName ?? '<none>',
      formatHosts(o.spec?.rules),
      loadBalancerStatus(o.status?.loadBalancer),
      (o.spec?.tls ?? []).length > 0 ? '80, 443' : '80',
      age(o, ctx),
    ],
  },
  IngressClass: {
    group: 'networking.k8s.io',
    columns: [NAME, col('Controller'), col('Parameters'), AGE],
    row: (o, ctx) => {
      const p = o.spec?.parameters;
      let params = '<none>';
      if (p) params = `${p.kind ?? ''}${p.apiGroup !== undefined ? '.' + p.apiGroup : ''}/${p.name ?? ''}`;
      return [o.metadata?.name, o.spec?.controller ?? '', params, age(o, ctx)];
    },
  },
  Endpoints: {
    group: '',
    columns: [NAME, col('Endpoints'), AGE],
    row: (o, ctx) => [o.metadata?.name, formatEndpoints(o), age(o, ctx)],
  },
  EndpointSlice: {
    group: 'discovery.k8s.io',
    columns: [NAME, col('AddressType'), col('Ports'), col('Endpoints'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.addressType ?? '', formatDiscoveryPorts(o.ports as Any[]), formatDiscoveryEndpoints(o.endpoints as Any[]), age(o, ctx)],
  },
  Node: {
    group: '',
    columns: [NAME, col('Status'), col('Roles'), AGE, col('Version'), wide('Internal-IP'), wide('External-IP'), wide('OS-Image'), wide('Kernel-Version'), wide('Container-Runtime')],
    row: (o, ctx) => {
      const status: string[] = [];
      const ready = (o.status?.conditions ?? []).filter((c: Any) => c?.type === 'Ready').pop();
      if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
      if (status.length === 0) status.push('Unknown');
      if (o.spec?.unschedulable) status.push('SchedulingDisabled');
      const info = o.status?.nodeInfo ?? {};
      return [
        o.metadata?.name,
        status.join(','),
        nodeRoles(o.metadata?.labels).join(',') || '<none>',
        age(o, ctx),
        info.kubeletVersion ?? '',
        nodeAddress(o, 'InternalIP'),
        nodeAddress(o, 'ExternalIP'),
        info.osImage || '<unknown>',
        info.kernelVersion || '<unknown>',
        info.containerRuntimeVersion || '<unknown>',
      ];
    },
  },
  Namespace: {
    group: '',
    columns: [NAME, col('Status'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.status?.phase ?? '', age(o, ctx)],
  },
  Secret: {
    group: '',
    columns: [NAME, col('Type'), col('Data'), AGE],
    row: (o, ctx) => [o.metadata?.name, (o.type as string) ?? '', len(o.data), age(o, ctx)],
  },
  ServiceAccount: {
    group: '',
    columns: [NAME, col('Secrets'), AGE],
    row: (o, ctx) => [o.metadata?.name, len(o.secrets), age(o, ctx)],
  },
  ConfigMap: {
    group: '',
    columns: [NAME, col('Data'), AGE],
    row: (o, ctx) => [o.metadata?.name, len(o.data) + len(o.binaryData), age(o, ctx)],
  },
  PersistentVolume: {
    group: '',
    columns: [
      NAME,
      col('Capacity'),
      col('Access Modes'),
      col('Reclaim Policy'),
      col('Status'),
      col('Claim'),
      col('StorageClass'),
      col('VolumeAttributesClass'),
      col('Reason'),
      AGE,
      wide('VolumeMode'),
    ],
    row: (o, ctx) => {
      const spec = o.spec ?? {};
      const claim = spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : '';
      const phase = o.metadata?.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? '');
      return [
        o.metadata?.name,
        quantityString(spec.capacity?.storage),
        accessModes(spec.accessModes),
        spec.persistentVolumeReclaimPolicy ?? '',
        phase,
        claim,
        storageClassOf(o),
        spec.volumeAttributesClassName ?? '<unset>',
        o.status?.reason ?? '',
        age(o, ctx),
        spec.volumeMode ?? '<unset>',
      ];
    },
  },
  PersistentVolumeClaim: {
    group: '',
    columns: [NAME, col('Status'), col('Volume'), col('Capacity'), col('Access Modes'), col('StorageClass'), col('VolumeAttributesClass'), AGE, wide('VolumeMode')],
    row: (o, ctx) => {
      const spec = o.spec ?? {};
      const phase = o.metadata?.deletionTimestamp ? 'Terminating' : (o.status?.phase ?? '');
      let capacity = '';
      let modes = '';
      if (spec.volumeName) {
        modes = accessModes(o.status?.accessModes);
        capacity = quantityString(o.status?.capacity?.storage);
      }
      return [
        o.metadata?.name,
        phase,
        spec.volumeName ?? '',
        capacity,
        modes,
        storageClassOf(o),
        spec.volumeAttributesClassName ?? '<unset>',
        age(o, ctx),
        spec.volumeMode ?? '<unset>',
      ];
    },
  },
  StorageClass: {
    group: 'storage.k8s.io',
    columns: [NAME, col('Provisioner'), col('ReclaimPolicy'), col('VolumeBindingMode'), col('AllowVolumeExpansion'), AGE],
    row: (o, ctx) => {
      const ann = o.metadata?.annotations ?? {};
      const isDefault = ann['storageclass.kubernetes.io/is-default-class'] === 'true' || ann['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
      return [
        `${o.metadata?.name ?? ''}${isDefault ? ' (default)' : ''}`,
        (o.provisioner as string) ?? '',
        (o.reclaimPolicy as string) ?? 'Delete',
        (o.volumeBindingMode as string) ?? 'Immediate',
        typeof o.allowVolumeExpansion === 'boolean' ? o.allowVolumeExpansion : false,
        age(o, ctx),
      ];
    },
  },
  Event: {
    group: '',
    columns: [col('Last Seen'), col('Type'), col('Reason'), col('Object'), wide('Subobject'), wide('Source'), col('Message'), wide('First Seen'), wide('Count'), col('Name', 'string', 1, 'name')],
    row: eventRow,
  },
  RoleBinding: {
    group: 'rbac.authorization.k8s.io',
    columns: [NAME, col('Role'), AGE, wide('Users'), wide('Groups'), wide('ServiceAccounts')],
    row: bindingRow,
  },
  ClusterRoleBinding: {
    group: 'rbac.authorization.k8s.io',
    columns: [NAME, col('Role'), AGE, wide('Users'), wide('Groups'), wide('ServiceAccounts')],
    row: bindingRow,
  },
  ComponentStatus: {
    group: '',
    columns: [NAME, col('Status'), col('Message'), col('Error')],
    row: (o) => {
      let status = 'Unknown';
      let message = '';
      let error = '';
      const c = ((o.conditions as Any[]) ?? []).find((x) => x?.type === 'Healthy');
      if (c) {
        status = c.status === 'True' ? 'Healthy' : 'Unhealthy';
        message = c.message ?? '';
        error = c.error ?? '';
      }
      return [o.metadata?.name, status, message, error];
    },
  },
  Lease: {
    group: 'coordination.k8s.io',
    columns: [NAME, col('Holder'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.spec?.holderIdentity ?? '', age(o, ctx)],
  },
  PriorityClass: {
    group: 'scheduling.k8s.io',
    columns: [NAME, col('Value', 'integer'), col('Global-Default', 'boolean'), AGE, col('PreemptionPolicy')],
    row: (o, ctx) => [o.metadata?.name, int(o.value), o.globalDefault === true, age(o, ctx), (o.preemptionPolicy as string) ?? ''],
  },
  ControllerRevision: {
    group: 'apps',
    columns: [NAME, col('Controller'), col('Revision'), AGE],
    row: (o, ctx) => {
      const ref = (o.metadata?.ownerReferences ?? []).find((r: Any) => r?.controller === true);
      let controller = '<none>';
      if (ref) {
        const { group } = splitApiVersion(ref.apiVersion ?? '');
        const gk = group ? `${ref.kind}.${group}` : ref.kind;
        controller = gk ? `${String(gk).toLowerCase()}/${ref.name}` : ref.name;
      }
      return [o.metadata?.name, controller, int(o.revision), age(o, ctx)];
    },
  },
  ValidatingWebhookConfiguration: {
    group: 'admissionregistration.k8s.io',
    columns: [NAME, col('Webhooks', 'integer'), AGE],
    row: (o, ctx) => [o.metadata?.name, len(o.webhooks), age(o, ctx)],
  },
  MutatingWebhookConfiguration: {
    group: 'admissionregistration.k8s.io',
    columns: [NAME, col('Webhooks', 'integer'), AGE],
    row: (o, ctx) => [o.metadata?.name, len(o.webhooks), age(o, ctx)],
  },
  PodDisruptionBudget: {
    group: 'policy',
    columns: [NAME, col('Min Available'), col('Max Unavailable'), col('Allowed Disruptions', 'integer'), AGE],
    row: (o, ctx) => [
      o.metadata?.name,
      o.spec?.minAvailable !== undefined ? intOrString(o.spec.minAvailable) : 'N/A',
      o.spec?.maxUnavailable !== undefined ? intOrString(o.spec.maxUnavailable) : 'N/A',
      int(o.status?.disruptionsAllowed),
      age(o, ctx),
    ],
  },
  NetworkPolicy: {
    group: 'networking.k8s.io',
    columns: [NAME, col('Pod-Selector'), AGE],
    row: (o, ctx) => [o.metadata?.name, formatLabelSelector(o.spec?.podSelector ?? {}), age(o, ctx)],
  },
  HorizontalPodAutoscaler: {
    group: 'autoscaling',
    columns: [NAME, col('Reference'), col('Targets'), col('MinPods'), col('MaxPods'), col('Replicas'), AGE],
    row: (o, ctx) => [
      o.metadata?.name,
      `${o.spec?.scaleTargetRef?.kind ?? ''}/${o.spec?.scaleTargetRef?.name ?? ''}`,
      formatHPAMetrics(o.spec?.metrics, o.status?.currentMetrics),
      typeof o.spec?.minReplicas === 'number' ? String(o.spec.minReplicas) : '<unset>',
      int(o.spec?.maxReplicas),
      int(o.status?.currentReplicas),
      age(o, ctx),
    ],
  },
  ResourceQuota: {
    group: '',
    columns: [NAME, AGE, col('Request'), col('Limit')],
    row: (o, ctx) => {
      const hard: Record<string, unknown> = o.status?.hard ?? {};
      const used: Record<string, unknown> = o.status?.used ?? {};
      const req: string[] = [];
      const lim: string[] = [];
      for (const r of Object.keys(hard).sort()) {
        const pieces = r.split('.');
        (pieces.length > 1 && pieces[0] === 'limits' ? lim : req).push(`${r}: ${quantityString(used[r])}/${quantityString(hard[r])}`);
      }
      return [o.metadata?.name, age(o, ctx), req.join(', '), lim.join(', ')];
    },
  },
  PodTemplate: {
    group: '',
    columns: [NAME, col('Containers'), col('Images'), col('Pod Labels')],
    row: (o) => [o.metadata?.name, ...containerCells(o.template?.spec?.containers), formatLabels(o.template?.metadata?.labels)],
  },
  CertificateSigningRequest: {
    group: 'certificates.k8s.io',
    columns: [NAME, AGE, col('SignerName'), col('Requestor'), col('RequestedDuration'), col('Condition')],
    row: (o, ctx) => [
      o.metadata?.name,
      age(o, ctx),
      o.spec?.signerName || '<none>',
      o.spec?.username ?? '',
      typeof o.spec?.expirationSeconds === 'number' ? humanDuration(o.spec.expirationSeconds * 1000) : '<none>',
      csrStatus(o),
    ],
  },
  RuntimeClass: {
    group: 'node.k8s.io',
    columns: [NAME, col('Handler'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.handler ?? '', age(o, ctx)],
  },
  APIService: {
    group: 'apiregistration.k8s.io',
    columns: [NAME, col('Service'), col('Available'), AGE],
    row: (o, ctx) => {
      const svc = o.spec?.service ? `${o.spec.service.namespace}/${o.spec.service.name}` : 'Local';
      const c = (o.status?.conditions ?? []).find((x: Any) => x?.type === 'Available');
      const available = !c ? 'Unknown' : c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
      return [o.metadata?.name, svc, available, age(o, ctx)];
    },
  },
  VolumeAttachment: {
    group: 'storage.k8s.io',
    columns: [NAME, col('Attacher', 'string', 0, 'name'), col('PV'), col('Node'), col('Attached', 'boolean'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.spec?.attacher ?? '', o.spec?.source?.persistentVolumeName ?? '', o.spec?.nodeName ?? '', o.status?.attached === true, age(o, ctx)],
  },
  CSINode: {
    group: 'storage.k8s.io',
    columns: [NAME, col('Drivers', 'integer'), AGE],
    row: (o, ctx) => [o.metadata?.name, len(o.spec?.drivers), age(o, ctx)],
  },
  CSIDriver: {
    group: 'storage.k8s.io',
    columns: [
      NAME,
      col('AttachRequired', 'boolean'),
      col('PodInfoOnMount', 'boolean'),
      col('StorageCapacity', 'boolean'),
      col('TokenRequests'),
      col('RequiresRepublish', 'boolean'),
      col('Modes'),
      AGE,
    ],
    row: (o, ctx) => {
      const s = o.spec ?? {};
      const tokens = (s.tokenRequests ?? []).map((t: Any) => t?.audience ?? '').join(',');
      const modes = (s.volumeLifecycleModes ?? []).join(',');
      return [o.metadata?.name, s.attachRequired !== false, s.podInfoOnMount === true, s.storageCapacity === true, tokens || '<unset>', s.requiresRepublish === true, modes || '<none>', age(o, ctx)];
    },
  },
  CSIStorageCapacity: {
    group: 'storage.k8s.io',
    columns: [NAME, col('StorageClassName'), col('Capacity')],
    row: (o) => [o.metadata?.name, o.storageClassName ?? '', o.capacity !== undefined ? quantityString(o.capacity) : '<unset>'],
  },
  VolumeAttributesClass: {
    group: 'storage.k8s.io',
    columns: [NAME, col('DriverName'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.driverName ?? '', age(o, ctx)],
  },
  FlowSchema: {
    group: 'flowcontrol.apiserver.k8s.io',
    columns: [NAME, col('PriorityLevel'), col('MatchingPrecedence'), col('DistinguisherMethod'), AGE, col('MissingPL')],
    row: (o, ctx) => {
      const dangling = (o.status?.conditions ?? []).find((c: Any) => c?.type === 'Dangling');
      return [o.metadata?.name, o.spec?.priorityLevelConfiguration?.name ?? '', int(o.spec?.matchingPrecedence), o.spec?.distinguisherMethod?.type ?? '<none>', age(o, ctx), dangling ? String(dangling.status) : '?'];
    },
  },
  PriorityLevelConfiguration: {
    group: 'flowcontrol.apiserver.k8s.io',
    columns: [NAME, col('Type'), col('NominalConcurrencyShares'), col('Queues'), col('HandSize'), col('QueueLengthLimit'), AGE],
    row: (o, ctx) => {
      const lim = o.spec?.limited;
      const q = lim?.limitResponse?.queuing;
      const v = (x: unknown) => (x === undefined || x === null ? '<none>' : (x as number));
      return [o.metadata?.name, o.spec?.type ?? '', lim ? int(lim.nominalConcurrencyShares) : '<none>', q ? v(q.queues) : '<none>', q ? v(q.handSize) : '<none>', q ? v(q.queueLengthLimit) : '<none>', age(o, ctx)];
    },
  },
  ValidatingAdmissionPolicy: {
    group: 'admissionregistration.k8s.io',
    columns: [NAME, col('Validations', 'integer'), col('ParamKind'), AGE],
    row: (o, ctx) => {
      const pk = o.spec?.paramKind;
      return [o.metadata?.name, len(o.spec?.validations), pk ? `${pk.apiVersion}/${pk.kind}` : '<unset>', age(o, ctx)];
    },
  },
  ValidatingAdmissionPolicyBinding: {
    group: 'admissionregistration.k8s.io',
    columns: [NAME, col('PolicyName'), col('ParamRef'), AGE],
    row: (o, ctx) => {
      const pr = o.spec?.paramRef;
      const ref = pr ? (pr.namespace ? `${pr.namespace}/${pr.name ?? '*'}` : (pr.name ?? '*')) : '<unset>';
      return [o.metadata?.name, o.spec?.policyName ?? '', ref, age(o, ctx)];
    },
  },
  ServiceCIDR: {
    group: 'networking.k8s.io',
    columns: [NAME, col('CIDRs'), AGE],
    row: (o, ctx) => [o.metadata?.name, (o.spec?.cidrs ?? []).join(','), age(o, ctx)],
  },
  IPAddress: {
    group: 'networking.k8s.io',
    columns: [NAME, col('ParentRef')],
    row: (o) => {
      const p = o.spec?.parentRef;
      if (!p) return [o.metadata?.name, '<none>'];
      const gr = (p.group ? `${p.resource}.${p.group}` : p.resource ?? '').toLowerCase();
      return [o.metadata?.name, `${gr}${p.namespace ? `/${p.namespace}` : ''}/${p.name ?? ''}`];
    },
  },
  ResourceClaim: {
    group: 'resource.k8s.io',
    columns: [NAME, col('State'), AGE],
    row: (o, ctx) => {
      const states: string[] = [];
      if (o.metadata?.deletionTimestamp) states.push('deleted');
      states.push(o.status?.allocation ? 'allocated' : 'pending');
      if ((o.status?.reservedFor ?? []).length) states.push('reserved');
      return [o.metadata?.name, states.join(','), age(o, ctx)];
    },
  },
  ResourceSlice: {
    group: 'resource.k8s.io',
    columns: [NAME, col('Node'), col('Driver'), col('Pool'), AGE],
    row: (o, ctx) => [o.metadata?.name, o.spec?.nodeName ?? '', o.spec?.driver ?? '', o.spec?.pool?.name ?? '', age(o, ctx)],
  },
  DeviceClass: {
    group: 'resource.k8s.io',
    columns: [NAME, AGE],
    row: (o, ctx) => [o.metadata?.name, age(o, ctx)],
  },
  ResourceClaimTemplate: {
    group: 'resource.k8s.io',
    columns: [NAME, AGE],
    row: (o, ctx) => [o.metadata?.name, age(o, ctx)],
  },
};

/** The API server's default table (rest/table.go): NAME and CREATED AT (RFC 3339, UTC). */
const DEFAULT_PRINTER: KindPrinter = {
  group: '',
  columns: [NAME, col('Created At', 'date')],
  row: (o) => [o.metadata?.name, createdAt(o.metadata?.creationTimestamp)],
};

function createdAt(ts: unknown): string {
  const t = timestampMs(ts);
  return formatRfc3339(t ?? -62135596800000);
}

/**
 * A CR column cell (tableconvertor.go): the first value the column's JSONPath finds, as
 * `cellForJSONValue` types it (`date` -> age, `integer` -> int, ...); `string` columns print
 * the value as jsonpath does (maps as JSON). Missing or mistyped -> empty cell.
 */
function crCell(obj: KubeObject, c: { type: string; jsonPath: string }, ctx: PrintContext): Cell {
  let groups: unknown[][];
  try {
    groups = findResults(parseJsonPath(`{${c.jsonPath}}`), obj, { allowMissingKeys: true });
  } catch {
    return null;
  }
  if (groups.length === 0 || groups[0].length === 0) return null;
  const value = groups[0][0];
  if (c.type === 'string') return printResultGroup([value]);
  if (value === null || value === undefined) return null;
  switch (c.type) {
    case 'integer':
      return typeof value === 'number' ? (isGoInt(value) ? value : Math.trunc(value)) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      if (value === '' || value === 'null') return '<unknown>';
      const t = timestampMs(value);
      return t === undefined ? '<invalid>' : humanDuration(ctx.epochMs + ctx.nowMs - t);
    }
  }
  return null;
}

/** Options of `buildTable`. */
export interface BuildTableOptions extends PrintContext {
  /** The kind of every object (`Pod`, `Deployment`, or a CR kind). */
  kind: string;
  /** For custom resources: the CustomResourceDefinition object (its printer columns). */
  crd?: KubeObject;
}

/**
 * What kube-apiserver answers to a list with `Accept: as=Table`: column definitions and one
 * row per object, wide cells included. Unknown kinds without a CRD get NAME / CREATED AT.
 */
export function buildTable(objs: KubeObject[], opts: BuildTableOptions): Table {
  if (opts.crd) {
    const version = objs[0] ? splitApiVersion(objs[0].apiVersion).version : (opts.crd.spec?.versions?.[0]?.name ?? '');
    const cols = printerColumns(opts.crd, version);
    return {
      columnDefinitions: [NAME, ...cols.map((c) => ({ name: c.name, type: c.type, priority: c.priority, ...(c.format ? { format: c.format } : {}) }))],
      rows: objs.map((o) => ({ cells: [o.metadata?.name, ...cols.map((c) => crCell(o, c, opts))], object: o })),
    };
  }
  const p = KIND_PRINTERS[opts.kind] ?? DEFAULT_PRINTER;
  const rows: TableRow[] = objs.map((o) => ({ cells: p.row(o, opts), object: o }));
  return { columnDefinitions: p.columns, rows };
}

/** API group of a built-in kind served with a table printer ('' for core), if known. */
export function groupOfKind(kind: string): string | undefined {
  return KIND_PRINTERS[kind]?.group;
}

/** Options of `printTable`: the kind, the clock, and `kubectl get`'s table flags. */
export interface PrintTableOptions extends BuildTableOptions {
  /** `-o wide`. */
  wide?: boolean;
  /** `--no-headers`. */
  noHeaders?: boolean;
  /** `--show-labels`. */
  showLabels?: boolean;
  /** `-L key1,key2`. */
  labelColumns?: string[];
  /** `-A`: NAMESPACE first. */
  allNamespaces?: boolean;
  /**
   * `--show-kind` or a multi-type get: prefix NAME with `kind[.group]/` (lower-case kind,
   * e.g. `deployment.apps/web`, `pod/web-1`). The group comes from `objs[0].apiVersion`.
   */
  showKind?: boolean;
}

/**
 * `kubectl get <kind>` table output for objects of one kind: `buildTable` (server side) then
 * `renderTable` (client side). Returns `''` for no objects (print `noResourcesFound` to
 * stderr then), else the lines with a trailing newline.
 */
export function printTable(objs: KubeObject[], opts: PrintTableOptions): string {
  const table = buildTable(objs, opts);
  let kindPrefix: string | undefined;
  if (opts.showKind) {
    const group = objs[0] ? splitApiVersion(objs[0].apiVersion).group : (groupOfKind(opts.kind) ?? '');
    kindPrefix = opts.kind.toLowerCase() + (group ? `.${group}` : '');
  }
  return renderTable(table, {
    wide: opts.wide,
    noHeaders: opts.noHeaders,
    showLabels: opts.showLabels,
    labelColumns: opts.labelColumns,
    withNamespace: opts.allNamespaces,
    kindPrefix,
  });
}

/** One kind's objects in a multi-type `kubectl get` (`get deploy,svc`, `get all`). */
export interface TableGroup {
  kind: string;
  objs: KubeObject[];
  /** For custom resources: their CRD. */
  crd?: KubeObject;
}

/**
 * `kubectl get a,b,c` in table form: one table per kind that has objects (empty kinds print
 * nothing), each aligned on its own, NAME prefixed with `kind[.group]/` (pass `showKind`,
 * which kubectl sets whenever several types were asked for), a blank line between tables
 * unless `noHeaders` (get.go flushes the tabwriter and resets its widths per type).
 * Returns `''` when nothing was found.
 */
export function printTables(groups: TableGroup[], opts: Omit<PrintTableOptions, 'kind' | 'crd'>): string {
  return groups
    .filter((g) => g.objs.length > 0)
    .map((g) => printTable(g.objs, { ...opts, kind: g.kind, crd: g.crd }))
    .join(opts.noHeaders ? '' : '\n');
}
