/**
 * The LimitRanger admission plugin for pods (plugin/pkg/admission/limitranger/admission.go):
 *
 * - mutating, on pod CREATE: every container (and init container) missing a request or limit
 *   the namespace's `type: Container` LimitRanges default gets it, and the pod is annotated
 *   `kubernetes.io/limit-ranger: LimitRanger plugin set: cpu, memory request for container app;
 *   cpu limit for container app` (`mergeContainerResources`);
 * - validating: `min`/`max` of `type: Container` and `type: Pod` items, refused with 403
 *   `pods "x" is forbidden: maximum cpu usage per Container is 1, but limit is 2` (several
 *   errors as `[a, b]`, utilerrors.NewAggregate).
 *
 * A LimitRange item's effective defaults follow SetDefaults_LimitRangeItem
 * (pkg/apis/core/v1/defaults.go): `default` falls back to `max`, `defaultRequest` to `default`
 * then `min`. maxLimitRequestRatio and PersistentVolumeClaim items are not modelled.
 */
import type { ApiServer } from './server';
import type { ResourceType } from './registry';
import type { KubeObject } from './types';
import { errors } from './errors';
import { formatQuantity, parseQuantityFull } from './quantity';

/** The annotation LimitRanger writes. Source: admission.go (`limitRangerAnnotation`). */
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type ResourceList = Record<string, string | number>;

function isPod(t: ResourceType): boolean {
  return t.group === '' && t.resource === 'pods';
}

function limitRanges(api: ApiServer, namespace: string | undefined): KubeObject[] {
  if (!namespace) return [];
  return api.list('limitranges', { namespace }).items;
}

function q(v: unknown): number | undefined {
  try {
    return parseQuantityFull(v as string | number).value;
  } catch {
    return undefined;
  }
}

function canon(v: unknown): string {
  try {
    const p = parseQuantityFull(v as string | number);
    return formatQuantity(p.value, p.format);
  } catch {
    return String(v);
  }
}

/** `defaultContainerResourceRequirements` with the LimitRangeItem defaults applied. */
function containerDefaults(ranges: KubeObject[]): { requests: ResourceList; limits: ResourceList } {
  const requests: ResourceList = {};
  const limits: ResourceList = {};
  for (const lr of ranges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item?.type !== 'Container') continue;
      const def: ResourceList = { ...(item.max ?? {}), ...(item.default ?? {}) };
      const defReq: ResourceList = { ...(item.min ?? {}), ...def, ...(item.defaultRequest ?? {}) };
      Object.assign(limits, def);
      Object.assign(requests, defReq);
    }
  }
  return { requests, limits };
}

/** Mutating LimitRanger on pod CREATE: default requests/limits and the annotation. */
export function limitRangerMutate(api: ApiServer, t: ResourceType, obj: KubeObject): void {
  if (!isPod(t)) return;
  const ranges = limitRanges(api, obj.metadata.namespace);
  if (ranges.length === 0) return;
  const defaults = containerDefaults(ranges);
  if (Object.keys(defaults.requests).length === 0 && Object.keys(defaults.limits).length === 0) return;
  const notes: string[] = [];
  const merge = (c: KubeObject['spec'], prefix: string) => {
    c.resources = c.resources ?? {};
    const setReq: string[] = [];
    const setLim: string[] = [];
    for (const [k, v] of Object.entries(defaults.limits)) {
      c.resources.limits = c.resources.limits ?? {};
      if (c.resources.limits[k] === undefined) {
        c.resources.limits[k] = canon(v);
        setLim.push(k);
      }
    }
    for (const [k, v] of Object.entries(defaults.requests)) {
      c.resources.requests = c.resources.requests ?? {};
      if (c.resources.requests[k] === undefined) {
        c.resources.requests[k] = canon(v);
        setReq.push(k);
      }
    }
    if (setReq.length) notes.push(`${setReq.sort().join(', ')} request for ${prefix} ${c.name}`);
    if (setLim.length) notes.push(`${setLim.sort().join(', ')} limit for ${prefix} ${c.name}`);
  };
  for (const c of obj.spec?.containers ?? []) merge(c, 'container');
  for (const c of obj.spec?.initContainers ?? []) merge(c, 'init container');
  if (notes.length) {
    obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

function checkMinMax(kind: 'Container' | 'Pod', item: KubeObject['spec'], requests: ResourceList, limits: ResourceList, out: string[]): void {
  for (const [k, min] of Object.entries<string | number>(item.min ?? {})) {
    const r = requests[k];
    if (r === undefined) out.push(`minimum ${k} usage per ${kind} is ${canon(min)}.  No request is specified`);
    else if ((q(r) ?? 0) < (q(min) ?? 0)) out.push(`minimum ${k} usage per ${kind} is ${canon(min)}, but request is ${canon(r)}`);
  }
  for (const [k, max] of Object.entries<string | number>(item.max ?? {})) {
    const l = limits[k];
    if (l === undefined) out.push(`maximum ${k} usage per ${kind} is ${canon(max)}.  No limit is specified`);
    else if ((q(l) ?? 0) > (q(max) ?? 0)) out.push(`maximum ${k} usage per ${kind} is ${canon(max)}, but limit is ${canon(l)}`);
  }
}

/** Validating LimitRanger on pod CREATE: min/max per Container and per Pod. Throws 403. */
export function limitRangerValidate(api: ApiServer, t: ResourceType, obj: KubeObject): void {
  if (!isPod(t)) return;
  const ranges = limitRanges(api, obj.metadata.namespace);
  if (ranges.length === 0) return;
  const errs: string[] = [];
  const containers = [...(obj.spec?.containers ?? []), ...(obj.spec?.initContainers ?? [])];
  for (const lr of ranges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item?.type === 'Container') {
        for (const c of containers) checkMinMax('Container', item, c.resources?.requests ?? {}, c.resources?.limits ?? {}, errs);
      } else if (item?.type === 'Pod') {
        const sum = (which: 'requests' | 'limits') => {
          const out: ResourceList = {};
          const keys = new Set(containers.flatMap((c) => Object.keys(c.resources?.[which] ?? {})));
          for (const k of keys) {
            if (!(obj.spec?.containers ?? []).every((c: KubeObject['spec']) => c.resources?.[which]?.[k] !== undefined)) continue;
            let total = 0;
            let fmt: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' = 'DecimalSI';
            for (const c of obj.spec?.containers ?? []) {
              const p = parseQuantityFull(c.resources[which][k]);
              total += p.value;
              fmt = p.format;
            }
            out[k] = formatQuantity(total, fmt);
          }
          return out;
        };
        checkMinMax('Pod', item, sum('requests'), sum('limits'), errs);
      }
    }
  }
  if (errs.length === 0) return;
  const msg = errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
  throw errors.forbidden(t.resource, t.group, obj.metadata.name ?? '', msg);
}
