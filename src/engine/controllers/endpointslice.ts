/**
 * endpointslice-controller: for every Service with a selector, keeps EndpointSlices listing the
 * matching pods that have an IP, with their readiness. Mirrors
 * pkg/controller/endpointslice/endpointslice_controller.go and the reconciler in
 * staging/src/k8s.io/endpointslice (reconciler.go, utils.go, trackers).
 *
 * Informers: services (any change -> queue the service), pods (a change that matters for
 * endpoints -> queue every service selecting the pod, before or after), endpointslices (a change
 * to a slice this controller manages that it did not write itself -> queue its service after
 * 1 s), nodes (read for the pod's node). `reconcile(namespace/name)`:
 *   1. no Service: nothing (the GC deletes the slices through their ownerReference);
 *      ExternalName or no selector: left alone (slices of selector-less services are written by
 *      users);
 *   2. desired endpoints: every selected pod that is not terminal and has an IP
 *      (`ShouldPodBeInEndpoints(pod, includeTerminating=true)`), as
 *      {addresses, conditions {ready, serving, terminating}, nodeName, targetRef}:
 *      serving = pod Ready, terminating = deletionTimestamp set, ready = serving and not
 *      terminating (always true with publishNotReadyAddresses). Pods are grouped by their
 *      resolved ports (a named targetPort is looked up in the pod's container ports);
 *   3. existing slices (label `kubernetes.io/service-name`, managed by this controller) are
 *      updated in place, emptied slices deleted, new endpoints fill slices with room (at most
 *      100 per slice) or new slices (`generateName: <service>-`, ownerReference to the Service);
 *      a service with no endpoints keeps one empty placeholder slice;
 *   4. failures record the Warning Event `FailedToUpdateEndpointSlices` on the Service and retry
 *      (up to 15 times, backoff 1 s doubling).
 * An informer cache older than this controller's own last writes (`EndpointSliceTracker`) makes
 * it wait and retry instead of writing duplicates. Legacy v1 Endpoints are not written (deprecated
 * in 1.33 and not a served kind here).
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import { selectorFromSet, isDNS1123Subdomain } from '../api/labels';
import { parseRfc3339 } from '../clock';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  RateLimitingQueue,
  startWorkers,
  type ReconcileResult,
} from '../client/workqueue';
import { canonicalJson, findServicePort, isNamespaceTerminatingError, isPodReady, isPodTerminal, podEndpointFactsEqual, type ServicePortSpec, newControllerRef } from './util';

/** Component name (Event source). Source: endpointslice_controller.go (`ControllerName`'s recorder). */
export const ENDPOINTSLICE_COMPONENT = 'endpointslice-controller';
/** `endpointslice.kubernetes.io/managed-by` value. Source: endpointslice_controller.go (`ControllerName`). */
export const ENDPOINTSLICE_MANAGED_BY = 'endpointslice-controller.k8s.io';
/** Label naming the Service (`discovery.LabelServiceName`). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** Label naming the managing controller (`discovery.LabelManagedBy`). */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
/** Label on slices of headless services (`v1.IsHeadlessService`). */
export const LABEL_HEADLESS = 'service.kubernetes.io/headless';
/** Annotation with the time of the change that triggered the write (`v1.EndpointsLastChangeTriggerTime`). */
export const ANNOTATION_LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

/** `--max-endpoints-per-slice` default 100. Setting `maxEndpointsPerSlice`. */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
/** `--concurrent-service-endpoint-syncs` default 5. Setting `concurrentServiceEndpointSyncs`. */
export const DEFAULT_CONCURRENT_SERVICE_ENDPOINT_SYNCS = 5;
/** Delay before a service is synced after one of its slices changed, virtual ms (`endpointSliceChangeMinSyncDelay`). */
export const ENDPOINTSLICE_CHANGE_MIN_SYNC_DELAY_MS = 1000;
/** First retry delay, virtual ms: 1 s, doubling (`defaultSyncBackOff`). */
export const ENDPOINTSLICE_SYNC_BACKOFF_MS = 1000;
/** Largest retry delay, virtual ms: 1000 s (`maxSyncBackOff`). */
export const ENDPOINTSLICE_MAX_SYNC_BACKOFF_MS = 1000 * 1000;
/** Retries before a service is dropped from the queue (`maxRetries`). */
export const ENDPOINTSLICE_MAX_RETRIES = 15;

/** `discovery.EndpointPort`. */
interface EndpointPort {
  name: string;
  protocol: string;
  port: number;
  appProtocol?: string;
}

/** `discovery.Endpoint` as this controller writes it. */
interface Endpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
  nodeName?: string;
  zone?: string;
}


/** `getEndpointPorts`. */
function endpointPorts(svc: KubeObject, pod: KubeObject): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of (svc.spec?.ports ?? []) as ServicePortSpec[]) {
    const port = findServicePort(pod, sp);
    if (port === undefined) continue;
    out.push({ name: sp.name ?? '', protocol: sp.protocol ?? 'TCP', port, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
  }
  return out;
}

/** `NewPortMapKey`: the same key for the same set of ports in any order. */
function portMapKey(ports: EndpointPort[] | null | undefined): string {
  return canonicalJson([...(ports ?? [])].map((p) => canonicalJson(p)).sort());
}

/** `hashEndpoint`: addresses, hostname and the target's namespace/name identify an endpoint. */
function endpointKey(ep: Endpoint): string {
  return canonicalJson({ a: [...ep.addresses].sort(), h: ep.hostname ?? '', n: ep.targetRef?.namespace ?? '', p: ep.targetRef?.name ?? '' });
}

/** `IsServiceIPSet`: a ClusterIP that is neither empty nor None. */
function isServiceIPSet(svc: KubeObject): boolean {
  const ip = svc.spec?.clusterIP;
  return !!ip && ip !== 'None';
}

/** `setEndpointSliceLabels`: the service's labels plus the reserved ones; `changed` as the real check computes it. */
function sliceLabels(slice: KubeObject | undefined, svc: KubeObject): { labels: Record<string, string>; changed: boolean } {
  const reserved = (k: string) => k === LABEL_SERVICE_NAME || k === LABEL_MANAGED_BY || k === LABEL_HEADLESS;
  const svcLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(svc.metadata.labels ?? {})) if (!reserved(k)) svcLabels[k] = v;
  let changed = false;
  for (const [k, v] of Object.entries(slice?.metadata.labels ?? {})) {
    if (reserved(k)) continue;
    if (svcLabels[k] !== v) {
      changed = true;
      break;
    }
  }
  if (!isServiceIPSet(svc)) svcLabels[LABEL_HEADLESS] = '';
  svcLabels[LABEL_SERVICE_NAME] = svc.metadata.name!;
  svcLabels[LABEL_MANAGED_BY] = ENDPOINTSLICE_MANAGED_BY;
  return { labels: svcLabels, changed };
}

/** `getEndpointSlicePrefix`: `<service>-`, or the bare name when that is not a valid name prefix. */
function slicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  return isDNS1123Subdomain(prefix + 'a').length ? serviceName : prefix;
}

/** `ownedBy`: the slice has an ownerReference to this Service (same uid). */
function ownedBy(slice: KubeObject, svc: KubeObject): boolean {
  return (slice.metadata.ownerReferences ?? []).some((r) => r.uid === svc.metadata.uid && r.kind === 'Service' && r.apiVersion === 'v1');
}

/** A slice's own resourceVersion as a number (the tracker's stand-in for `generation`). */
const rvOf = (o: KubeObject) => Number(o.metadata.resourceVersion ?? 0);
const DELETION_EXPECTED = -1;

/** Start the EndpointSlice controller. */
export function newEndpointSliceController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(ENDPOINTSLICE_COMPONENT);
  const maxPerSlice = ctx.setting('maxEndpointsPerSlice', DEFAULT_MAX_ENDPOINTS_PER_SLICE);
  const services = ctx.informers.informer('services');
  const pods = ctx.informers.informer('pods');
  const slices = ctx.informers.informer('endpointslices');
  const nodes = ctx.informers.informer('nodes');
  const queue = new RateLimitingQueue(clock, {
    name: 'endpoint_slice',
    rateLimiter: new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(ENDPOINTSLICE_SYNC_BACKOFF_MS, ENDPOINTSLICE_MAX_SYNC_BACKOFF_MS), new BucketRateLimiter(clock)),
  });

  /** `EndpointSliceTracker`: per service key, slice uid -> resourceVersion we wrote (or deletion expected). */
  const written = new Map<string, Map<string, number>>();
  /** `TriggerTimeTracker`: per service key, the trigger times seen at the last sync. */
  const triggerState = new Map<string, { pods: Map<string, number>; service: number }>();

  const managedBy = (s: KubeObject) => s.metadata.labels?.[LABEL_MANAGED_BY] === ENDPOINTSLICE_MANAGED_BY;
  const serviceKeyOfSlice = (s: KubeObject) => {
    const svc = s.metadata.labels?.[LABEL_SERVICE_NAME];
    return svc ? `${s.metadata.namespace}/${svc}` : undefined;
  };

  /** `GetPodServiceMemberships`: keys of the services in the pod's namespace that select it. */
  const servicesOf = (pod: KubeObject): string[] =>
    services.lister
      .list(pod.metadata.namespace)
      .filter((s) => s.spec?.selector && Object.keys(s.spec.selector).length > 0 && selectorFromSet(s.spec.selector).matches(pod.metadata.labels))
      .map(metaNamespaceKey);

  /** `EndpointSliceTracker.ShouldSync`: a slice state we did not write ourselves. */
  const shouldSync = (s: KubeObject) => {
    const key = serviceKeyOfSlice(s);
    const g = key ? written.get(key)?.get(s.metadata.uid!) : undefined;
    return g === undefined || g !== rvOf(s);
  };
  const queueForSlice = (s: KubeObject) => {
    const key = serviceKeyOfSlice(s);
    if (key) queue.addAfter(key, ENDPOINTSLICE_CHANGE_MIN_SYNC_DELAY_MS);
  };

  const regs = [
    services.addEventHandler({
      onAdd: (s) => queue.add(metaNamespaceKey(s)),
      onUpdate: (_o, s) => queue.add(metaNamespaceKey(s)),
      onDelete: (s) => queue.add(metaNamespaceKey(s)),
    }),
    pods.addEventHandler({
      onAdd: (p) => servicesOf(p).forEach((k) => queue.add(k)),
      onUpdate: (old, p) => {
        if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
        const podChanged = !podEndpointFactsEqual(old, p);
        const labelsChanged = !deepEqual(old.metadata.labels, p.metadata.labels);
        if (!podChanged && !labelsChanged) return;
        const keys = new Set(servicesOf(p));
        if (labelsChanged) for (const k of servicesOf(old)) keys.add(k);
        for (const k of keys) queue.add(k);
      },
      onDelete: (p) => servicesOf(p).forEach((k) => queue.add(k)),
    }),
    slices.addEventHandler({
      onAdd: (s) => {
        if (managedBy(s) && shouldSync(s)) queueForSlice(s);
      },
      onUpdate: (old, s) => {
        if (managedBy(old) !== managedBy(s) || (managedBy(s) && shouldSync(s))) queueForSlice(s);
      },
      onDelete: (s) => {
        // `HandleDeletion`: forget the slice; a deletion we did not ask for means: sync again.
        const key = serviceKeyOfSlice(s);
        const gfs = key ? written.get(key) : undefined;
        if (!managedBy(s) || !gfs?.has(s.metadata.uid!)) return;
        const g = gfs.get(s.metadata.uid!);
        gfs.delete(s.metadata.uid!);
        if (g !== DELETION_EXPECTED) queueForSlice(s);
      },
    }),
  ];

  /** `StaleSlices`: the cache misses or lags behind one of our writes. */
  const stale = (key: string, current: KubeObject[]): boolean => {
    const gfs = written.get(key);
    if (!gfs) return false;
    const seen = new Set<string>();
    for (const s of current) {
      seen.add(s.metadata.uid!);
      const g = gfs.get(s.metadata.uid!);
      if (g !== undefined && (g === DELETION_EXPECTED || g > rvOf(s))) return true;
    }
    for (const [uid, g] of gfs) if (g !== DELETION_EXPECTED && !seen.has(uid)) return true;
    return false;
  };

  /** `ComputeEndpointLastChangeTriggerTime` (virtual ms since the epoch, or undefined). */
  const triggerTime = (key: string, svc: KubeObject, selected: KubeObject[]): number | undefined => {
    const toMs = (t: string | undefined) => (t ? parseRfc3339(t) - clock.epochMs : 0);
    const state = triggerState.get(key);
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const p of selected) {
      const ready = (p.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
      const t = toMs(ready?.lastTransitionTime);
      if (!ready?.lastTransitionTime) continue;
      podTimes.set(p.metadata.name!, t);
      if (!state || t > (state.pods.get(p.metadata.name!) ?? -Infinity)) min = min === undefined ? t : Math.min(min, t);
    }
    const svcTime = toMs(svc.metadata.creationTimestamp);
    if (!state || svcTime > state.service) min = min === undefined ? svcTime : Math.min(min, svcTime);
    triggerState.set(key, { pods: podTimes, service: svcTime });
    return state ? min : svcTime;
  };

  const newSlice = (svc: KubeObject, addressType: string, ports: EndpointPort[] | null): KubeObject => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: slicePrefix(svc.metadata.name!),
      namespace: svc.metadata.namespace,
      labels: sliceLabels(undefined, svc).labels,
      ownerReferences: [newControllerRef(svc)],
    },
    addressType,
    endpoints: [] as Endpoint[],
    ports,
  });

  /** The writes one sync decided on. */
  interface Plan {
    create: KubeObject[];
    update: KubeObject[];
    remove: KubeObject[];
  }

  /** `reconcileByPortMapping`. */
  const reconcileByPortMapping = (svc: KubeObject, existing: KubeObject[], desired: Map<string, Endpoint>, ports: EndpointPort[], addressType: string, plan: Plan) => {
    const byName = new Map<string, KubeObject>();
    const unchanged: string[] = [];
    const toUpdate = new Set<string>();
    const toDelete = new Set<string>();
    for (const s of existing) {
      byName.set(s.metadata.name!, s);
      const kept: Endpoint[] = [];
      let endpointUpdated = false;
      const eps = (s.endpoints ?? []) as Endpoint[];
      for (const ep of eps) {
        const k = endpointKey(ep);
        const want = desired.get(k);
        if (!want) continue;
        kept.push(want);
        if (!deepEqual(want, ep)) endpointUpdated = true;
        desired.delete(k);
      }
      const { labels, changed } = sliceLabels(s, svc);
      if (endpointUpdated || eps.length !== kept.length) {
        if (kept.length === 0) toDelete.add(s.metadata.name!);
        else {
          byName.set(s.metadata.name!, { ...s, metadata: { ...s.metadata, labels }, endpoints: kept });
          toUpdate.add(s.metadata.name!);
        }
      } else if (changed) {
        byName.set(s.metadata.name!, { ...s, metadata: { ...s.metadata, labels } });
        toUpdate.add(s.metadata.name!);
      } else {
        unchanged.push(s.metadata.name!);
      }
    }
    const take = (slice: KubeObject) => {
      const eps = slice.endpoints as Endpoint[];
      for (const [k, ep] of desired) {
        if (eps.length >= maxPerSlice) break;
        eps.push(ep);
        desired.delete(k);
      }
    };
    // 2. Fill the slices being updated anyway, fullest first.
    if (desired.size > 0 && toUpdate.size > 0) {
      const list = [...toUpdate].map((n) => byName.get(n)!).sort((a, b) => (b.endpoints as Endpoint[]).length - (a.endpoints as Endpoint[]).length);
      for (const s of list) {
        s.endpoints = [...(s.endpoints as Endpoint[])];
        take(s);
      }
    }
    // 3. Put what is left into the fullest unchanged slice with room for all of it, or new slices.
    while (desired.size > 0) {
      let fill: KubeObject | undefined;
      if (desired.size < maxPerSlice && unchanged.length > 0) {
        let closest = maxPerSlice;
        for (const n of unchanged) {
          const s = byName.get(n)!;
          const diff = maxPerSlice - (desired.size + ((s.endpoints ?? []) as Endpoint[]).length);
          if (diff >= 0 && diff < closest) {
            closest = diff;
            fill = s;
          }
        }
      }
      if (!fill) {
        fill = newSlice(svc, addressType, ports);
        take(fill);
        plan.create.push(fill);
      } else {
        fill = { ...fill, endpoints: [...((fill.endpoints ?? []) as Endpoint[])] };
        byName.set(fill.metadata.name!, fill);
        unchanged.splice(unchanged.indexOf(fill.metadata.name!), 1);
        take(fill);
        toUpdate.add(fill.metadata.name!);
      }
    }
    for (const n of toUpdate) plan.update.push(byName.get(n)!);
    for (const n of toDelete) plan.remove.push(byName.get(n)!);
  };

  /** `reconcileByAddressType`: returns the per-pod errors (pods skipped). */
  const reconcileByAddressType = (svc: KubeObject, selected: KubeObject[], existing: KubeObject[], addressType: string, plan: Plan): string[] => {
    const errors: string[] = [];
    const existingByPorts = new Map<string, KubeObject[]>();
    const planDeleteBefore = plan.remove.length;
    for (const s of existing) {
      // A slice of an older Service of the same name (another uid) is deleted (`ownedBy`).
      if (!ownedBy(s, svc)) {
        plan.remove.push(s);
        continue;
      }
      const k = portMapKey(s.ports as EndpointPort[] | null);
      existingByPorts.set(k, [...(existingByPorts.get(k) ?? []), s]);
    }
    const desiredByPorts = new Map<string, { ports: EndpointPort[]; endpoints: Map<string, Endpoint> }>();
    for (const pod of selected) {
      if (isPodTerminal(pod)) continue;
      const ips: string[] = (pod.status?.podIPs ?? []).map((x: { ip: string }) => x.ip);
      if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
      if (ips.length === 0) continue;
      const ports = endpointPorts(svc, pod);
      const pk = portMapKey(ports);
      let group = desiredByPorts.get(pk);
      if (!group) {
        group = { ports, endpoints: new Map() };
        desiredByPorts.set(pk, group);
      }
      const nodeName: string | undefined = pod.spec?.nodeName;
      const node = nodeName ? nodes.lister.get(undefined, nodeName) : undefined;
      if (!node && !svc.spec?.publishNotReadyAddresses) {
        errors.push(`skipping Pod ${pod.metadata.name} for Service ${svc.metadata.namespace}/${svc.metadata.name}: Node ${nodeName ?? ''} Not Found`);
        continue;
      }
      const serving = isPodReady(pod);
      const terminating = !!pod.metadata.deletionTimestamp;
      const ready = !!svc.spec?.publishNotReadyAddresses || (serving && !terminating);
      const addresses = ips.filter((ip) => ip.includes(':') === (addressType === 'IPv6'));
      if (addresses.length === 0) continue;
      const zone = node?.metadata.labels?.['topology.kubernetes.io/zone'];
      const hostname = pod.spec?.hostname && pod.spec?.subdomain === svc.metadata.name ? pod.spec.hostname : undefined;
      const ep: Endpoint = {
        addresses,
        conditions: { ready, serving, terminating },
        ...(hostname ? { hostname } : {}),
        targetRef: { kind: 'Pod', namespace: pod.metadata.namespace!, name: pod.metadata.name!, uid: pod.metadata.uid! },
        ...(nodeName ? { nodeName } : {}),
        ...(zone ? { zone } : {}),
      };
      group.endpoints.set(endpointKey(ep), ep);
    }
    const createBefore = plan.create.length;
    for (const [pk, group] of desiredByPorts) {
      reconcileByPortMapping(svc, existingByPorts.get(pk) ?? [], group.endpoints, group.ports, addressType, plan);
    }
    for (const [pk, group] of existingByPorts) if (!desiredByPorts.has(pk)) plan.remove.push(...group);
    // When no endpoint slices would usually exist, keep (or make) a placeholder.
    const removedHere = plan.remove.length - planDeleteBefore;
    if (existing.length === removedHere && plan.create.length === createBefore) {
      const placeholder = newSlice(svc, addressType, null);
      placeholder.endpoints = null;
      const last = plan.remove[plan.remove.length - 1];
      if (removedHere === 1 && isPlaceholder(last, placeholder)) plan.remove.pop();
      else plan.create.push(placeholder);
    }
    return errors;
  };

  /** `placeholderSliceCompare`: same owner, labels, address type, and no endpoints or ports. */
  const isPlaceholder = (s: KubeObject, p: KubeObject) =>
    s.addressType === p.addressType &&
    !((s.endpoints as Endpoint[] | null) ?? []).length &&
    !((s.ports as EndpointPort[] | null) ?? []).length &&
    deepEqual(s.metadata.labels, p.metadata.labels) &&
    deepEqual(s.metadata.ownerReferences, p.metadata.ownerReferences);

  const describe = (s: KubeObject) => {
    const eps = ((s.endpoints ?? []) as Endpoint[]);
    return `${eps.length} endpoint(s), ${eps.filter((e) => e.conditions.ready).length} ready`;
  };

  /** `Reconciler.finalize`: turn create+delete pairs into updates, then write. */
  const finalize = (svc: KubeObject, key: string, plan: Plan, trigger: number | undefined) => {
    const ns = svc.metadata.namespace!;
    for (let i = 0; i < plan.remove.length && plan.create.length > 0; ) {
      const del = plan.remove[i];
      const cre = plan.create[plan.create.length - 1];
      if (del.addressType === cre.addressType && ownedBy(del, svc)) {
        plan.create.pop();
        plan.update.push({ ...del, metadata: { ...del.metadata, labels: cre.metadata.labels }, endpoints: cre.endpoints, ports: cre.ports });
        plan.remove.splice(i, 1);
      } else i++;
    }
    let gfs = written.get(key);
    if (!gfs) {
      gfs = new Map();
      written.set(key, gfs);
    }
    const annotate = (s: KubeObject) => {
      const annotations = { ...(s.metadata.annotations ?? {}) };
      if (trigger !== undefined) annotations[ANNOTATION_LAST_CHANGE_TRIGGER_TIME] = clock.rfc3339(trigger);
      else delete annotations[ANNOTATION_LAST_CHANGE_TRIGGER_TIME];
      s.metadata = { ...s.metadata };
      if (Object.keys(annotations).length) s.metadata.annotations = annotations;
      else delete s.metadata.annotations;
    };
    const ref = (s: KubeObject) => ({ kind: 'EndpointSlice', namespace: ns, name: s.metadata.name!, uid: s.metadata.uid });
    // Don't create slices for a Service being deleted (the GC is removing them).
    if (!svc.metadata.deletionTimestamp) {
      for (const s of plan.create) {
        annotate(s);
        let created: KubeObject;
        try {
          created = api.create(s, { fieldManager: 'kube-controller-manager' });
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          if (isNamespaceTerminatingError(e)) return;
          throw new SyncError(`failed to create EndpointSlice for Service ${key}: ${e.message}`, e);
        }
        gfs.set(created.metadata.uid!, rvOf(created));
        ctx.trace(ENDPOINTSLICE_COMPONENT, `${key} -> create EndpointSlice ${created.metadata.name} (${describe(created)})`, ref(created));
      }
    }
    for (const s of plan.update) {
      const next = { ...s };
      annotate(next);
      let updated: KubeObject;
      try {
        updated = api.update(next, { fieldManager: 'kube-controller-manager' });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        throw new SyncError(`failed to update ${s.metadata.name} EndpointSlice for Service ${key}: ${e.message}`, e);
      }
      gfs.set(updated.metadata.uid!, rvOf(updated));
      ctx.trace(ENDPOINTSLICE_COMPONENT, `${key} -> update EndpointSlice ${updated.metadata.name} (${describe(updated)})`, ref(updated));
    }
    for (const s of plan.remove) {
      try {
        api.delete('endpointslices.discovery.k8s.io', ns, s.metadata.name!, { fieldManager: 'kube-controller-manager' });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        throw new SyncError(`failed to delete ${s.metadata.name} EndpointSlice for Service ${key}: ${e.message}`, e);
      }
      gfs.set(s.metadata.uid!, DELETION_EXPECTED);
      ctx.trace(ENDPOINTSLICE_COMPONENT, `${key} -> delete EndpointSlice ${s.metadata.name}`, ref(s));
    }
  };

  /** `syncService` + `handleErr`. */
  const reconcile = (key: string): ReconcileResult | void => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const svc = services.lister.get(namespace, name);
    if (!svc) {
      triggerState.delete(key);
      written.delete(key);
      return;
    }
    if (svc.spec?.type === 'ExternalName') return;
    const selector = svc.spec?.selector;
    if (!selector || Object.keys(selector).length === 0) return;
    const selected = pods.lister.list(namespace, selectorFromSet(selector));
    const current = slices.lister
      .list(namespace, selectorFromSet({ [LABEL_SERVICE_NAME]: name, [LABEL_MANAGED_BY]: ENDPOINTSLICE_MANAGED_BY }))
      .filter((s) => !s.metadata.deletionTimestamp);
    // Forget deletions the cache has caught up with.
    const gfs = written.get(key);
    if (gfs) {
      const present = new Set(current.map((s) => s.metadata.uid));
      for (const [uid, g] of [...gfs]) if (g === DELETION_EXPECTED && !present.has(uid)) gfs.delete(uid);
    }
    if (stale(key, current)) return retry(key); // "EndpointSlice informer cache is out of date"
    const trigger = triggerTime(key, svc, selected);

    const families: string[] = svc.spec?.ipFamilies?.length ? svc.spec.ipFamilies : ['IPv4'];
    const plan: Plan = { create: [], update: [], remove: [] };
    const errors: string[] = [];
    const byType = new Map<string, KubeObject[]>();
    for (const s of current) {
      if (!families.includes(s.addressType as string)) plan.remove.push(s);
      else byType.set(s.addressType as string, [...(byType.get(s.addressType as string) ?? []), s]);
    }
    try {
      for (const family of families) errors.push(...reconcileByAddressType(svc, selected, byType.get(family) ?? [], family, plan));
      finalize(svc, key, plan, trigger);
    } catch (e) {
      if (!(e instanceof SyncError)) throw e;
      errors.push(e.message);
    }
    if (errors.length === 0) return;
    const agg = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
    recorder.event(svc, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${key}: ${agg}`);
    return retry(key);
  };

  const retry = (key: string): ReconcileResult | void => {
    if (queue.numRequeues(key) < ENDPOINTSLICE_MAX_RETRIES) return { requeue: true };
    ctx.trace(ENDPOINTSLICE_COMPONENT, `${key}: retry budget exceeded, dropping the service out of the queue`);
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: ENDPOINTSLICE_COMPONENT,
    workers: ctx.setting('concurrentServiceEndpointSyncs', DEFAULT_CONCURRENT_SERVICE_ENDPOINT_SYNCS),
    waitForSync: [services, pods, slices, nodes],
  });

  return {
    name: ENDPOINTSLICE_COMPONENT,
    stop() {
      for (const r of regs) r.remove();
      workers.stop();
    },
  };
}

/** A failed write of one sync, with the API error that caused it. */
class SyncError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
  }
}
