/**
 * The admission chain of the simulated kube-apiserver: the plugins a kind cluster enables by
 * default that change what a learner sees.
 *
 * - NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle): no objects in a namespace
 *   that does not exist or is terminating.
 * - ServiceAccount (plugin/pkg/admission/serviceaccount): a pod's ServiceAccount must exist;
 *   the token volume `kube-api-access-xxxxx` is mounted into every container.
 * - DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): the two 300 s
 *   NoExecute tolerations.
 * - Priority (plugin/pkg/admission/priority): priorityClassName -> spec.priority.
 * - DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault): a claim
 *   without a class gets the default StorageClass's name at create.
 * - StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection):
 *   the `kubernetes.io/pvc-protection` / `kubernetes.io/pv-protection` finalizers at create.
 * - Service IP and NodePort allocation (pkg/registry/core/service/ipallocator and portallocator):
 *   ClusterIPs from 10.96.0.0/12, NodePorts from 30000-32767, conflicts rejected.
 *
 * Allocations are derived from the stored Services each time (nothing to leak when a
 * Service is deleted or a request is rejected).
 */
import type { ApiServer } from './server';
import type { ResourceType } from './registry';
import type { KubeObject } from './types';
import { errors, field, type FieldError } from './errors';
import { addDefaultTolerations, addServiceAccountVolume } from './defaults';
import { addStorageProtectionFinalizer } from './storageprotection';

/** Service CIDR of a kind cluster (kubeadm default `--service-cluster-ip-range`). */
export const SERVICE_CIDR = '10.96.0.0/12';

/**
 * How the ServiceAccount admission plugin looks up a missing `default` ServiceAccount: 10 GETs,
 * `rand.Int63n(100)+100` ms apart (plugin/pkg/admission/serviceaccount/admission.go
 * `getServiceAccount`; other names get one attempt).
 */
export const DEFAULT_SA_LOOKUP = { attempts: 10, minMs: 100, maxMs: 199 } as const;
/** NodePort range (`--service-node-port-range` default). */
export const NODE_PORT_MIN = 30000;
export const NODE_PORT_MAX = 32767;

/** Built-in priority classes. Source: pkg/apis/scheduling/types.go (SystemCriticalPriority). */
export const SYSTEM_PRIORITY_CLASSES: Record<string, number> = {
  'system-cluster-critical': 2000000000,
  'system-node-critical': 2000001000,
};

const SERVICE_BASE = ipToInt('10.96.0.0');
const SERVICE_SIZE = 1 << 20; // /12
/**
 * Dynamic allocations start above a reserved low band (KEP-3070): min(max(16, size/16), 256).
 * Source: pkg/registry/core/service/ipallocator/bitmap.go (calculateRangeOffset).
 */
const DYNAMIC_OFFSET = Math.min(Math.max(16, Math.floor(SERVICE_SIZE / 16)), 256);

/** Admission operation. */
export type Operation = 'CREATE' | 'UPDATE';

/** Parse a dotted IPv4 address to an unsigned integer. */
export function ipToInt(ip: string): number {
  const p = ip.split('.').map(Number);
  if (p.length !== 4 || p.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) return Number.NaN;
  return ((p[0] << 24) >>> 0) + (p[1] << 16) + (p[2] << 8) + p[3];
}

/** Format an unsigned integer as a dotted IPv4 address. */
export function intToIp(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The admission plugins, bound to one API server (they read through its store). */
export class Admission {
  constructor(private readonly api: ApiServer) {}

  /** Mutating admission: may change `obj`. Runs after defaulting, before validation. */
  mutate(op: Operation, t: ResourceType, obj: KubeObject, old: KubeObject | undefined): void {
    // DefaultTolerationSeconds runs on create and update, so a patch replacing the tolerations
    // list gets the two defaults back (cases.md C04).
    if (t.kind === 'Pod') addDefaultTolerations(obj);
    if (t.kind === 'Pod' && op === 'CREATE') {
      const isMirror = !!obj.metadata.annotations?.['kubernetes.io/config.mirror'];
      if (!isMirror) addServiceAccountVolume(obj, this.api.rng);
      this.setPriority(obj);
    }
    if (t.kind === 'Service') this.allocateService(obj, old);
    if (t.kind === 'PersistentVolumeClaim' && op === 'CREATE') this.setDefaultStorageClass(obj);
    if (op === 'CREATE') addStorageProtectionFinalizer(t, obj);
  }

  /**
   * DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault): a claim created
   * without a class (no `spec.storageClassName`, not even "", and no beta annotation) gets the
   * default StorageClass: the newest class annotated `storageclass.kubernetes.io/is-default-class:
   * "true"` (or the beta annotation), ties by name. No default class: the claim is left alone.
   */
  private setDefaultStorageClass(pvc: KubeObject): void {
    const spec = pvc.spec ?? (pvc.spec = {});
    if (pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return;
    if (spec.storageClassName !== undefined && spec.storageClassName !== null) return;
    const t = this.api.registry.byResource('storageclasses')!;
    const isDefault = (c: KubeObject) =>
      c.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ||
      c.metadata.annotations?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
    const defaults = [...this.api.store.values(`${t.group}/${t.resource}`)].filter(isDefault);
    defaults.sort((a, b) => {
      const ta = a.metadata.creationTimestamp ?? '';
      const tb = b.metadata.creationTimestamp ?? '';
      if (ta !== tb) return ta > tb ? -1 : 1;
      return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
    });
    if (defaults.length) spec.storageClassName = defaults[0].metadata.name;
  }

  /**
   * Validating admission: throws ApiError to refuse. `requestName` is the name as the request
   * gave it (its generateName when unnamed): the ServiceAccount plugin runs before the name is
   * generated, so its Forbidden says `pods "web-7d4b9c-" is forbidden`
   * (staging/src/k8s.io/apiserver/pkg/admission/errors.go `extractResourceName`).
   */
  validate(op: Operation, t: ResourceType, obj: KubeObject, old: KubeObject | undefined, requestName?: string): void {
    const ns = obj.metadata.namespace;
    if (t.namespaced && ns && op === 'CREATE') {
      const nsObj = this.peek('namespaces', undefined, ns);
      if (!nsObj) throw errors.notFound('namespaces', '', ns);
      if (nsObj.metadata.deletionTimestamp || nsObj.status?.phase === 'Terminating') {
        if (t.kind !== 'Event') {
          throw errors.forbidden(t.resource, t.group, obj.metadata.name ?? '', `unable to create new content in namespace ${ns} because it is being terminated`);
        }
      }
    }
    if (t.kind === 'Pod' && op === 'CREATE') this.checkServiceAccount(obj, requestName);
    if (t.kind === 'Service') {
      const errs = this.checkServiceAllocations(obj, old);
      if (errs.length) throw errors.invalid('Service', '', obj.metadata.name ?? '', errs);
    }
  }

  private peek(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const t = this.api.registry.byResource(resource)!;
    // The store's type key, made once per type (performance only: a lookup on every create).
    let key = this.typeKeys.get(t);
    if (key === undefined) this.typeKeys.set(t, (key = `${t.group}/${t.resource}`));
    return this.api.store.getByName(key, t.namespaced ? namespace : undefined, name);
  }

  /** Store type keys (`<group>/<resource>`) by type object (see `peek`). */
  private readonly typeKeys = new WeakMap<ResourceType, string>();

  private checkServiceAccount(pod: KubeObject, requestName?: string): void {
    if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) {
      // Mirror pods may not reference service accounts (plugin: "a mirror pod may not reference service accounts").
      return;
    }
    const sa = pod.spec?.serviceAccountName || 'default';
    const ns = pod.metadata.namespace!;
    if (!this.peek('serviceaccounts', ns, sa)) {
      const err = errors.forbidden('pods', '', requestName ?? pod.metadata.name ?? '', `error looking up service account ${ns}/${sa}: serviceaccount "${sa}" not found`);
      // The plugin waits for the default ServiceAccount, "since it should be auto-created by
      // the controller": the request blocks while it polls, then fails.
      if (sa === 'default') err.serverRetry = DEFAULT_SA_LOOKUP;
      throw err;
    }
  }

  private setPriority(pod: KubeObject): void {
    const spec = pod.spec ?? {};
    const name: string | undefined = spec.priorityClassName;
    if (name) {
      let value = SYSTEM_PRIORITY_CLASSES[name];
      let preemption: string | undefined;
      if (value === undefined) {
        const pc = this.peek('priorityclasses', undefined, name);
        if (!pc) throw errors.forbidden('pods', '', pod.metadata.name ?? '', `no PriorityClass with name ${name} was found`);
        value = (pc as { value?: number }).value ?? 0;
        preemption = (pc as { preemptionPolicy?: string }).preemptionPolicy;
      }
      spec.priority = value;
      if (preemption) spec.preemptionPolicy = preemption;
    } else {
      // A globalDefault PriorityClass applies to pods without a class.
      const t = this.api.registry.byResource('priorityclasses')!;
      for (const pc of this.api.store.values(`${t.group}/${t.resource}`)) {
        if ((pc as { globalDefault?: boolean }).globalDefault) {
          spec.priorityClassName = pc.metadata.name;
          spec.priority = (pc as { value?: number }).value ?? 0;
          break;
        }
      }
      spec.priority = spec.priority ?? 0;
    }
  }

  private services(except?: KubeObject): KubeObject[] {
    const out: KubeObject[] = [];
    for (const s of this.api.store.values('/services')) {
      if (except && s.metadata.uid === except.metadata.uid) continue;
      out.push(s);
    }
    return out;
  }

  private usedIps(except?: KubeObject): Set<string> {
    const used = new Set<string>();
    for (const s of this.services(except)) for (const ip of s.spec?.clusterIPs ?? [s.spec?.clusterIP]) if (ip && ip !== 'None') used.add(ip);
    return used;
  }

  private usedNodePorts(except?: KubeObject): Set<number> {
    const used = new Set<number>();
    for (const s of this.services(except)) for (const p of s.spec?.ports ?? []) if (p.nodePort) used.add(p.nodePort);
    return used;
  }

  private allocateService(svc: KubeObject, old: KubeObject | undefined): void {
    const spec = svc.spec ?? (svc.spec = {});
    if (spec.type === 'ExternalName') return;
    if (old && old.spec?.clusterIP && !spec.clusterIP) {
      spec.clusterIP = old.spec.clusterIP;
      spec.clusterIPs = old.spec.clusterIPs;
    }
    if (!spec.clusterIP) {
      const used = this.usedIps(old);
      const rng = this.api.rng;
      const span = SERVICE_SIZE - DYNAMIC_OFFSET - 1;
      let ip = '';
      for (let i = 0; i < 64 && !ip; i++) {
        const cand = intToIp(SERVICE_BASE + DYNAMIC_OFFSET + rng.int(0, span - 1));
        if (!used.has(cand)) ip = cand;
      }
      spec.clusterIP = ip;
    }
    if (!spec.clusterIPs) spec.clusterIPs = [spec.clusterIP];
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
      const used = this.usedNodePorts(old);
      for (const p of spec.ports ?? []) if (p.nodePort) used.add(p.nodePort);
      const oldPorts: { port: number; nodePort?: number }[] = old?.spec?.ports ?? [];
      for (const p of spec.ports ?? []) {
        if (p.nodePort) continue;
        const keep = oldPorts.find((o) => o.port === p.port)?.nodePort;
        if (keep) {
          p.nodePort = keep;
          continue;
        }
        for (let i = 0; i < 64; i++) {
          const cand = this.api.rng.int(NODE_PORT_MIN, NODE_PORT_MAX);
          if (!used.has(cand)) {
            p.nodePort = cand;
            used.add(cand);
            break;
          }
        }
      }
    }
  }

  private checkServiceAllocations(svc: KubeObject, old: KubeObject | undefined): FieldError[] {
    const errs: FieldError[] = [];
    const spec = svc.spec ?? {};
    const ip: string | undefined = spec.clusterIP;
    if (ip && ip !== 'None' && ip !== old?.spec?.clusterIP) {
      const n = ipToInt(ip);
      if (!(n >= SERVICE_BASE && n < SERVICE_BASE + SERVICE_SIZE)) {
        errs.push(field.invalid('spec.clusterIPs', [ip], `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}`));
      } else if (this.usedIps(old).has(ip)) {
        errs.push(field.invalid('spec.clusterIPs', [ip], `failed to allocate IP ${ip}: provided IP is already allocated`));
      }
    }
    const used = this.usedNodePorts(old);
    (spec.ports ?? []).forEach((p: { nodePort?: number }, i: number) => {
      if (!p.nodePort) return;
      if (p.nodePort < NODE_PORT_MIN || p.nodePort > NODE_PORT_MAX) {
        errs.push(
          field.invalid(`spec.ports[${i}].nodePort`, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`),
        );
      } else if (used.has(p.nodePort)) {
        errs.push(field.invalid(`spec.ports[${i}].nodePort`, p.nodePort, 'provided port is already allocated'));
      }
    });
    return errs;
  }
}
