/**
 * ResourceQuota usage and admission: what an object counts against a quota, the namespace's
 * usage, and the ResourceQuota admission plugin that refuses a create over a quota's `hard`
 * and records the new usage in the quota's status.
 *
 * Mirrors pkg/quota/v1/evaluator/core (pods.go `PodUsageFunc`, `QuotaV1Pod`, `Constraints`;
 * services.go; persistent_volume_claims.go; the generic `count/<resource>.<group>` evaluator)
 * and plugin/pkg/admission/resourcequota/controller.go (`checkRequest`: the messages
 * `exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2` and
 * `failed quota: q: must specify limits.cpu for: c`). Quota scopes and scopeSelector are not
 * modelled (every quota covers every object of its namespace).
 */
import type { ApiServer } from './server';
import type { ResourceType } from './registry';
import type { KubeObject } from './types';
import { errors } from './errors';
import { formatQuantity, parseQuantityFull, type QuantityFormat } from './quantity';
import { parseRfc3339 } from '../clock';

/** A usage: resource name -> value in base units, with the format to print it in. */
export type Usage = Map<string, { value: number; format: QuantityFormat }>;

/** The resources a container must name when a quota constrains them. Source: pods.go (`validationSet`). */
const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** Legacy object-count names (`pods`, `services`, ...) by `group/resource`. Source: pkg/quota/v1/evaluator/core/registry.go. */
const LEGACY_COUNTS: Record<string, string> = {
  '/pods': 'pods',
  '/services': 'services',
  '/replicationcontrollers': 'replicationcontrollers',
  '/resourcequotas': 'resourcequotas',
  '/secrets': 'secrets',
  '/configmaps': 'configmaps',
  '/persistentvolumeclaims': 'persistentvolumeclaims',
};

function add(u: Usage, name: string, q: unknown): void {
  if (q === undefined || q === null) return;
  let parsed: { value: number; format: QuantityFormat };
  try {
    parsed = parseQuantityFull(q as string | number);
  } catch {
    return;
  }
  const cur = u.get(name);
  if (cur) cur.value += parsed.value;
  else u.set(name, { ...parsed });
}

/** `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function countName(t: Pick<ResourceType, 'group' | 'resource'>): string {
  return t.group ? `count/${t.resource}.${t.group}` : `count/${t.resource}`;
}

/**
 * `QuotaV1Pod`: a pod counts unless it is Succeeded/Failed, or being deleted and past its grace
 * period. `nowMs` is wall time in ms since the Unix epoch (clock epoch + virtual now).
 */
export function podCountsForQuota(pod: KubeObject, nowMs: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const ts = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (ts && typeof grace === 'number' && nowMs > parseRfc3339(ts) + grace * 1000) return false;
  return true;
}

/** requests/limits of one container as quota names them (`podComputeUsageHelper`). */
function containerUsage(c: KubeObject['spec']): Usage {
  const u: Usage = new Map();
  const req = c?.resources?.requests ?? {};
  const lim = c?.resources?.limits ?? {};
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if (req[r] !== undefined) {
      if (r !== 'ephemeral-storage') add(u, r, req[r]);
      add(u, `requests.${r}`, req[r]);
    }
    if (lim[r] !== undefined) add(u, `limits.${r}`, lim[r]);
  }
  return u;
}

/** `PodUsageFunc`: count/pods always; pods, requests.* and limits.* while the pod counts (max of init containers and the sum of the rest). */
function podUsage(pod: KubeObject, nowMs: number): Usage {
  const u: Usage = new Map();
  u.set('count/pods', { value: 1, format: 'DecimalSI' });
  if (!podCountsForQuota(pod, nowMs)) return u;
  u.set('pods', { value: 1, format: 'DecimalSI' });
  const sum: Usage = new Map();
  for (const c of pod.spec?.containers ?? []) for (const [k, v] of containerUsage(c)) add(sum, k, formatQuantity(v.value, v.format));
  for (const c of pod.spec?.initContainers ?? []) {
    for (const [k, v] of containerUsage(c)) {
      const cur = sum.get(k);
      if (!cur || v.value > cur.value) sum.set(k, { ...v });
    }
  }
  for (const [k, v] of sum) u.set(k, v);
  return u;
}

/** What one object counts against quotas of its namespace. `nowMs` as in `podCountsForQuota`. */
export function usageOf(t: ResourceType, obj: KubeObject, nowMs: number): Usage {
  if (t.group === '' && t.resource === 'pods') return podUsage(obj, nowMs);
  const u: Usage = new Map();
  u.set(countName(t), { value: 1, format: 'DecimalSI' });
  const legacy = LEGACY_COUNTS[`${t.group}/${t.resource}`];
  if (legacy) u.set(legacy, { value: 1, format: 'DecimalSI' });
  if (t.group === '' && t.resource === 'services') {
    const type = obj.spec?.type ?? 'ClusterIP';
    if (type === 'LoadBalancer') u.set('services.loadbalancers', { value: 1, format: 'DecimalSI' });
    if (type === 'NodePort' || type === 'LoadBalancer') u.set('services.nodeports', { value: (obj.spec?.ports ?? []).length, format: 'DecimalSI' });
  }
  if (t.group === '' && t.resource === 'persistentvolumeclaims') add(u, 'requests.storage', obj.spec?.resources?.requests?.storage);
  return u;
}

/** The namespace's usage of the resources `hard` names (the controller's `CalculateUsage`, masked to `hard`). */
export function namespaceUsage(api: ApiServer, namespace: string, hard: Record<string, unknown>, nowMs: number): Record<string, string> {
  const names = Object.keys(hard);
  const total: Usage = new Map();
  const types = api.registry.all().filter((t) => t.namespaced && t.verbs.includes('list'));
  for (const t of types) {
    const count = countName(t);
    const legacy = LEGACY_COUNTS[`${t.group}/${t.resource}`];
    const relevant = names.some(
      (n) =>
        n === count ||
        n === legacy ||
        (t.resource === 'pods' && t.group === '' && (VALIDATION_SET.includes(n) || n.startsWith('requests.') || n.startsWith('limits.'))) ||
        (t.resource === 'services' && t.group === '' && n.startsWith('services.')) ||
        (t.resource === 'persistentvolumeclaims' && t.group === '' && n === 'requests.storage'),
    );
    if (!relevant) continue;
    for (const obj of api.list(t, { namespace }).items) {
      for (const [k, v] of usageOf(t, obj, nowMs)) {
        const cur = total.get(k);
        if (cur) cur.value += v.value;
        else total.set(k, { ...v });
      }
    }
  }
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = total.get(n);
    out[n] = v ? formatQuantity(v.value, v.format) : '0';
  }
  return out;
}

function qty(v: unknown): number {
  try {
    return parseQuantityFull(v as string | number).value;
  } catch {
    return 0;
  }
}

function fmt(v: unknown): string {
  try {
    const p = parseQuantityFull(v as string | number);
    return formatQuantity(p.value, p.format);
  } catch {
    return String(v);
  }
}

/** `prettyPrint`: `a=1,b=2`, sorted by name. */
function prettyPrint(entries: [string, string][]): string {
  return entries
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** Pod `Constraints`: each container must name the cpu/memory the quota constrains. Returns the error text or undefined. */
function podConstraints(pod: KubeObject, hard: Record<string, unknown>): string | undefined {
  const required = Object.keys(hard).filter((r) => VALIDATION_SET.includes(r));
  if (required.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const have = containerUsage(c);
    for (const r of required) {
      if (have.has(r)) continue;
      if (!missing.has(r)) missing.set(r, new Set());
      missing.get(r)!.add(c.name);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

/**
 * The ResourceQuota admission plugin on CREATE: for every quota in the object's namespace,
 * refuse (403 Forbidden) when the object would take a constrained resource over `hard`, or when
 * a pod does not name a cpu/memory the quota constrains; otherwise add the object's usage to
 * each quota's `status.used` (not for dry runs). Quotas without a status yet (the controller has
 * not seen them) are recalculated from the namespace first. No-op for cluster-scoped kinds.
 */
export function admitQuota(api: ApiServer, t: ResourceType, obj: KubeObject, dryRun: boolean): void {
  const ns = obj.metadata.namespace;
  if (!t.namespaced || !ns) return;
  // No ResourceQuota anywhere: nothing to check (performance only: skips a LIST on every create).
  if (api.store.count('/resourcequotas') === 0) return;
  const quotas = api.list('resourcequotas', { namespace: ns }).items;
  if (quotas.length === 0) return;
  const nowMs = api.clock.epochMs + api.clock.now();
  const delta = usageOf(t, obj, nowMs);
  const name = obj.metadata.name ?? '';
  const updates: KubeObject[] = [];
  for (const q of [...quotas].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1))) {
    const hard: Record<string, unknown> = q.spec?.hard ?? {};
    const names = Object.keys(hard);
    const touched = names.filter((n) => delta.has(n));
    if (t.group === '' && t.resource === 'pods') {
      const err = podConstraints(obj, hard);
      if (err) throw errors.forbidden(t.resource, t.group, name, `failed quota: ${q.metadata.name}: ${err}`);
    }
    if (touched.length === 0) continue;
    const used: Record<string, unknown> = q.status?.used && q.status?.hard ? { ...q.status.used } : namespaceUsage(api, ns, hard, nowMs);
    const exceeded = touched.filter((n) => qty(used[n] ?? 0) + delta.get(n)!.value > qty(hard[n]));
    if (exceeded.length) {
      const requested = prettyPrint(exceeded.map((n) => [n, formatQuantity(delta.get(n)!.value, delta.get(n)!.format)]));
      const usedS = prettyPrint(exceeded.map((n) => [n, fmt(used[n] ?? '0')]));
      const limited = prettyPrint(exceeded.map((n) => [n, fmt(hard[n])]));
      throw errors.forbidden(t.resource, t.group, name, `exceeded quota: ${q.metadata.name}, requested: ${requested}, used: ${usedS}, limited: ${limited}`);
    }
    for (const n of touched) {
      const cur = used[n] ?? '0';
      let format: QuantityFormat = delta.get(n)!.format;
      try {
        const p = parseQuantityFull(cur as string | number);
        if (p.value !== 0) format = p.format;
      } catch {
        // keep the delta's format
      }
      used[n] = formatQuantity(qty(cur) + delta.get(n)!.value, format);
    }
    updates.push({ ...q, status: { hard: { ...hard }, used } });
  }
  if (dryRun) return;
  for (const u of updates) api.updateStatus(u, { fieldManager: 'kube-apiserver' });
}
