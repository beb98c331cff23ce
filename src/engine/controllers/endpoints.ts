/**
 * endpoints-controller: for every Service with a selector, keeps the legacy v1 Endpoints object of
 * the same name listing the selected pods: ready pods in `subsets[].addresses`, the others in
 * `subsets[].notReadyAddresses`. Mirrors pkg/controller/endpoint/endpoints_controller.go
 * (`syncService`, `addEndpointSubset`, `podToEndpointAddressForService`, `truncateEndpoints`) and
 * pkg/api/v1/endpoints/util.go (`RepackSubsets`). Endpoints are deprecated since 1.33 in favour of
 * EndpointSlices but still written by kube-controller-manager in 1.36, and what most tutorials
 * (and `kubectl get endpoints`) look at.
 *
 * Informers: services (add/update/delete -> queue the service), pods (a change -> queue every
 * service selecting the pod before or after), endpoints (delete -> queue the service, so a deleted
 * Endpoints comes back). `reconcile(namespace/name)`:
 *   1. no Service: delete the Endpoints of that name (they carry no ownerReference);
 *   2. ExternalName or no selector: leave alone (selector-less services get user-written Endpoints);
 *   3. for every selected pod that `ShouldPodBeInEndpoints` (not terminal, has an IP, and not
 *      terminating unless publishNotReadyAddresses), one address {ip, hostname?, nodeName,
 *      targetRef} per service port whose targetPort resolves on the pod; ready (pod Ready, or
 *      publishNotReadyAddresses) -> addresses, else notReadyAddresses; then repacked into subsets
 *      grouping addresses that offer the same ports;
 *   4. create or update the Endpoints (labels = the Service's, plus `service.kubernetes.io/headless`
 *      for headless services; annotation `endpoints.kubernetes.io/last-change-trigger-time`), only
 *      when subsets or labels differ; more than 1000 addresses are truncated with the annotation
 *      `endpoints.kubernetes.io/over-capacity: truncated`;
 *   5. a failed write records `FailedToCreateEndpoint` / `FailedToUpdateEndpoint` and retries
 *      (rate limited, at most 15 times).
 * Subsets and ports are sorted by a canonical string (the real code sorts by an md5 hash of each,
 * which only matters for services with several ports or port sets).
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import { selectorFromSet } from '../api/labels';
import { parseRfc3339 } from '../clock';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../client/informer';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import { canonicalJson, findServicePort, isNamespaceTerminatingError, isPodReady, isPodTerminal, podEndpointFactsEqual, type ServicePortSpec } from './util';

/** Component name (Event source). Source: endpoints_controller.go (`NewEndpointController`: `endpoint-controller`). */
export const ENDPOINTS_COMPONENT = 'endpoint-controller';
/** `--concurrent-endpoint-syncs` default 5. Setting `concurrentEndpointSyncs`. */
export const DEFAULT_CONCURRENT_ENDPOINT_SYNCS = 5;
/** Retries before a service is dropped from the queue. Source: endpoints_controller.go `maxRetries`. */
export const ENDPOINTS_MAX_RETRIES = 15;
/** Most addresses one Endpoints object keeps. Source: endpoints_controller.go `maxCapacity`. */
export const ENDPOINTS_MAX_CAPACITY = 1000;
/** Annotation set when addresses were truncated (`v1.EndpointsOverCapacity`). */
export const ANNOTATION_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
/** Annotation with the time of the change that triggered the write (`v1.EndpointsLastChangeTriggerTime`). */
export const ANNOTATION_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
/** Label on the Endpoints of headless services (`v1.IsHeadlessService`). */
export const LABEL_HEADLESS_SERVICE = 'service.kubernetes.io/headless';
/** Workqueue backoff: 5 ms doubling to 1000 s (`workqueue.DefaultTypedControllerRateLimiter`). */
const BACKOFF_BASE_MS = 5;
const BACKOFF_MAX_MS = 1000 * 1000;

/** `v1.EndpointAddress`. */
export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind: string; namespace?: string; name: string; uid?: string };
}
/** `v1.EndpointPort`. */
export interface EndpointPortV1 {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
}
/** `v1.EndpointSubset`. */
export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPortV1[];
}


/** `endpointsliceutil.ShouldPodBeInEndpoints(pod, includeTerminating)`. */
function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && !(pod.status?.podIPs ?? []).length) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/** `podToEndpointAddressForService`: the pod IP of the service's first IP family. */
function podAddress(svc: KubeObject, pod: KubeObject): EndpointAddress | undefined {
  const families: string[] = svc.spec?.ipFamilies ?? [];
  let v6 = families.length ? families[0] === 'IPv6' : false;
  if (!families.length) {
    const cip: string | undefined = svc.spec?.clusterIP;
    v6 = cip && cip !== 'None' ? cip.includes(':') : String(pod.status?.podIP ?? '').includes(':');
  }
  const ips: string[] = (pod.status?.podIPs ?? []).map((x: { ip: string }) => x.ip);
  if (!ips.length && pod.status?.podIP) ips.push(pod.status.podIP);
  const ip = ips.find((x) => x.includes(':') === v6);
  if (!ip) return undefined;
  const addr: EndpointAddress = { ip };
  // `ShouldSetHostname`: the pod's hostname, when its subdomain names this service.
  if (pod.spec?.hostname && pod.spec?.subdomain === svc.metadata.name && svc.metadata.namespace === pod.metadata.namespace) addr.hostname = pod.spec.hostname;
  addr.nodeName = pod.spec?.nodeName ?? '';
  addr.targetRef = { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name!, uid: pod.metadata.uid };
  return addr;
}

/** `LessEndpointAddress`: by IP, then by target uid. */
function lessAddress(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

/**
 * `endpoints.RepackSubsets`: one subset per distinct set of addresses, listing every port those
 * addresses offer; an address ready for one port and not ready for another counts as ready.
 * `entries` are (address, port or undefined for a port-less headless service, ready).
 */
export function repackSubsets(entries: { addr: EndpointAddress; port?: EndpointPortV1; ready: boolean }[]): EndpointSubset[] {
  const addrKey = (a: EndpointAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
  const portKey = (p: EndpointPortV1 | undefined) => (p ? canonicalJson(p) : '');
  const ports = new Map<string, { port?: EndpointPortV1; addrs: Map<string, { addr: EndpointAddress; ready: boolean }> }>();
  for (const e of entries) {
    const pk = portKey(e.port);
    let g = ports.get(pk);
    if (!g) ports.set(pk, (g = { port: e.port, addrs: new Map() }));
    const k = addrKey(e.addr);
    const cur = g.addrs.get(k);
    if (!cur) g.addrs.set(k, { addr: e.addr, ready: e.ready });
    else if (e.ready) cur.ready = true;
  }
  // Group the ports by the exact set of (address, readiness) offering them.
  const bySet = new Map<string, { addrs: { addr: EndpointAddress; ready: boolean }[]; ports: EndpointPortV1[] }>();
  for (const g of ports.values()) {
    const list = [...g.addrs.values()].sort((a, b) => lessAddress(a.addr, b.addr));
    const key = list.map((x) => `${addrKey(x.addr)}=${x.ready}`).join('|');
    let s = bySet.get(key);
    if (!s) bySet.set(key, (s = { addrs: list, ports: [] }));
    if (g.port) s.ports.push(g.port);
  }
  const out: EndpointSubset[] = [];
  for (const s of bySet.values()) {
    const subset: EndpointSubset = {};
    const ready = s.addrs.filter((x) => x.ready).map((x) => x.addr);
    const notReady = s.addrs.filter((x) => !x.ready).map((x) => x.addr);
    if (ready.length) subset.addresses = ready;
    if (notReady.length) subset.notReadyAddresses = notReady;
    if (s.ports.length) subset.ports = [...s.ports].sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
    out.push(subset);
  }
  return out.sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
}

/** `truncateEndpoints`: keep at most 1000 addresses, ready ones first, proportionally per subset. */
function truncate(subsets: EndpointSubset[]): boolean {
  let totalReady = 0;
  let totalNotReady = 0;
  for (const s of subsets) {
    totalReady += s.addresses?.length ?? 0;
    totalNotReady += s.notReadyAddresses?.length ?? 0;
  }
  if (totalReady + totalNotReady <= ENDPOINTS_MAX_CAPACITY) return false;
  const truncateReady = totalReady > ENDPOINTS_MAX_CAPACITY;
  const max = truncateReady ? ENDPOINTS_MAX_CAPACITY : ENDPOINTS_MAX_CAPACITY - totalReady;
  const numTotal = truncateReady ? totalReady : totalNotReady;
  let canBeAdded = max;
  for (const s of subsets) {
    const inSubset = (truncateReady ? s.addresses?.length : s.notReadyAddresses?.length) ?? 0;
    const toBeAdded = Math.min(Math.ceil((inSubset / numTotal) * max), canBeAdded);
    if (truncateReady) {
      s.addresses = (s.addresses ?? []).slice(0, toBeAdded);
      delete s.notReadyAddresses;
      canBeAdded -= s.addresses.length;
    } else {
      s.notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, toBeAdded);
      canBeAdded -= s.notReadyAddresses.length;
    }
  }
  return true;
}

/** Subsets as stored, ignoring targetRef resourceVersions (`endpointSubsetsEqualIgnoreResourceVersion`). */
function subsetsKey(subsets: EndpointSubset[] | undefined): string {
  const strip = (a: EndpointAddress) => (a.targetRef ? { ...a, targetRef: { ...a.targetRef, resourceVersion: undefined } } : a);
  return canonicalJson((subsets ?? []).map((s) => ({ ...s, addresses: s.addresses?.map(strip), notReadyAddresses: s.notReadyAddresses?.map(strip) })));
}

/** Start the Endpoints controller (`--controllers` name `endpoint`). */
export function newEndpointsController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const recorder = ctx.recorder(ENDPOINTS_COMPONENT);
  const services = ctx.informers.informer('services');
  const pods = ctx.informers.informer('pods');
  const endpoints = ctx.informers.informer('endpoints');
  const queue = new RateLimitingQueue(clock, {
    name: 'endpoint',
    rateLimiter: new MaxOfRateLimiter(new ItemExponentialFailureRateLimiter(BACKOFF_BASE_MS, BACKOFF_MAX_MS), new BucketRateLimiter(clock)),
  });
  /** `staleEndpointsTracker`: per key, the resourceVersion we replaced by our last update. */
  const staleRv = new Map<string, string>();
  /** `TriggerTimeTracker` state per service key. */
  const triggerState = new Map<string, { pods: Map<string, number>; service: number }>();

  /** `GetPodServiceMemberships`. */
  const servicesOf = (pod: KubeObject): string[] =>
    services.lister
      .list(pod.metadata.namespace)
      .filter((s) => s.spec?.selector && Object.keys(s.spec.selector).length > 0 && selectorFromSet(s.spec.selector).matches(pod.metadata.labels))
      .map(metaNamespaceKey);

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
        const labelsChanged = !deepEqual(old.metadata.labels, p.metadata.labels);
        if (!labelsChanged && podEndpointFactsEqual(old, p)) return;
        const keys = new Set(servicesOf(p));
        if (labelsChanged) for (const k of servicesOf(old)) keys.add(k);
        for (const k of keys) queue.add(k);
      },
      onDelete: (p) => servicesOf(p).forEach((k) => queue.add(k)),
    }),
    endpoints.addEventHandler({ onDelete: (e) => queue.add(metaNamespaceKey(e)) }),
  ];

  /** `ComputeEndpointLastChangeTriggerTime` (virtual ms, or undefined for none). */
  const triggerTime = (key: string, svc: KubeObject, selected: KubeObject[]): number | undefined => {
    const toMs = (t: string) => parseRfc3339(t) - clock.epochMs;
    const state = triggerState.get(key);
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const p of selected) {
      const ready = (p.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
      if (!ready?.lastTransitionTime) continue;
      const t = toMs(ready.lastTransitionTime);
      podTimes.set(p.metadata.name!, t);
      if (!state || t > (state.pods.get(p.metadata.name!) ?? -Infinity)) min = min === undefined ? t : Math.min(min, t);
    }
    const svcTime = svc.metadata.creationTimestamp ? toMs(svc.metadata.creationTimestamp) : 0;
    if (!state || svcTime > state.service) min = min === undefined ? svcTime : Math.min(min, svcTime);
    triggerState.set(key, { pods: podTimes, service: svcTime });
    return state ? min : svcTime;
  };

  const ref = (ns: string, name: string, uid?: string) => ({ kind: 'Endpoints', namespace: ns, name, uid });

  /** `syncService`. */
  const reconcile = (key: string): ReconcileResult | void => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const ns = namespace ?? '';
    const svc = services.lister.get(namespace, name);
    if (!svc) {
      try {
        api.delete('endpoints', ns, name, { fieldManager: 'kube-controller-manager' });
        ctx.trace(ENDPOINTS_COMPONENT, `${key}: Service gone -> delete Endpoints ${name}`, ref(ns, name));
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code !== 404) return retry(key);
      }
      triggerState.delete(key);
      staleRv.delete(key);
      return;
    }
    if (svc.spec?.type === 'ExternalName') return;
    const selector = svc.spec?.selector;
    if (!selector) return;
    const selected = pods.lister.list(namespace, selectorFromSet(selector));
    const trigger = triggerTime(key, svc, selected);
    const publishNotReady = !!svc.spec?.publishNotReadyAddresses;
    const svcPorts = (svc.spec?.ports ?? []) as ServicePortSpec[];
    const entries: { addr: EndpointAddress; port?: EndpointPortV1; ready: boolean }[] = [];
    let ready = 0;
    let notReady = 0;
    for (const pod of selected) {
      if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
      const addr = podAddress(svc, pod);
      if (!addr) continue;
      const isReady = publishNotReady || isPodReady(pod);
      if (svcPorts.length === 0) {
        if (svc.spec?.clusterIP === 'None') entries.push({ addr, ready: isReady });
        continue;
      }
      for (const sp of svcPorts) {
        const port = findServicePort(pod, sp);
        if (port === undefined) continue;
        const epp: EndpointPortV1 = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
        if (!epp.name) delete epp.name;
        if (sp.appProtocol) epp.appProtocol = sp.appProtocol;
        entries.push({ addr, port: epp, ready: isReady });
        if (isReady) ready++;
        else notReady++;
      }
    }
    const subsets = repackSubsets(entries);

    const current = endpoints.lister.get(namespace, name);
    if (current && staleRv.get(key) === current.metadata.resourceVersion) return retry(key); // "endpoints informer cache is out of date"
    const svcLabels: Record<string, string> = svc.metadata.labels ?? {};
    const compareLabels = { ...(current?.metadata.labels ?? {}) };
    delete compareLabels[LABEL_HEADLESS_SERVICE];
    const annotations = current?.metadata.annotations ?? {};
    const total = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);
    const capacityOk = total <= ENDPOINTS_MAX_CAPACITY && !(ANNOTATION_OVER_CAPACITY in annotations);
    if (current && subsetsKey(current.subsets as EndpointSubset[]) === subsetsKey(subsets) && deepEqual(compareLabels, svcLabels) && capacityOk) return;

    const nextAnnotations: Record<string, string> = { ...annotations };
    if (trigger !== undefined) nextAnnotations[ANNOTATION_TRIGGER_TIME] = clock.rfc3339(trigger);
    else delete nextAnnotations[ANNOTATION_TRIGGER_TIME];
    if (truncate(subsets)) nextAnnotations[ANNOTATION_OVER_CAPACITY] = 'truncated';
    else delete nextAnnotations[ANNOTATION_OVER_CAPACITY];
    const labels: Record<string, string> = { ...svcLabels };
    const headless = !svc.spec?.clusterIP || svc.spec.clusterIP === 'None';
    if (headless) labels[LABEL_HEADLESS_SERVICE] = '';
    else delete labels[LABEL_HEADLESS_SERVICE];

    const metadata: KubeObject['metadata'] = { ...(current?.metadata ?? { name, namespace }), labels };
    if (Object.keys(nextAnnotations).length) metadata.annotations = nextAnnotations;
    else delete metadata.annotations;
    const next: KubeObject = { apiVersion: 'v1', kind: 'Endpoints', metadata };
    if (subsets.length) next.subsets = subsets;
    const summary = `${ready} ready, ${notReady} not ready`;
    try {
      if (!current) {
        const created = api.create(next, { fieldManager: 'kube-controller-manager' });
        ctx.trace(ENDPOINTS_COMPONENT, `${key} -> create Endpoints (${summary})`, ref(ns, name, created.metadata.uid));
      } else {
        const updated = api.update(next, { fieldManager: 'kube-controller-manager' });
        if (updated.metadata.resourceVersion !== current.metadata.resourceVersion) staleRv.set(key, current.metadata.resourceVersion!);
        ctx.trace(ENDPOINTS_COMPONENT, `${key} -> update Endpoints (${summary})`, ref(ns, name, updated.metadata.uid));
      }
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (!current && isNamespaceTerminatingError(e)) return;
      if (!current) recorder.event(next, 'Warning', 'FailedToCreateEndpoint', `Failed to create endpoint for service ${ns}/${name}: ${e.message}`);
      else recorder.event(next, 'Warning', 'FailedToUpdateEndpoint', `Failed to update endpoint ${ns}/${name}: ${e.message}`);
      return retry(key);
    }
  };

  const retry = (key: string): ReconcileResult | void => {
    if (queue.numRequeues(key) < ENDPOINTS_MAX_RETRIES) return { requeue: true };
    ctx.trace(ENDPOINTS_COMPONENT, `${key}: retry budget exceeded, dropping the service out of the queue`);
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: ENDPOINTS_COMPONENT,
    workers: ctx.setting('concurrentEndpointSyncs', DEFAULT_CONCURRENT_ENDPOINT_SYNCS),
    waitForSync: [services, pods, endpoints],
  });
  // `checkLeftoverEndpoints`: once synced, queue every Endpoints, so those of services deleted
  // while this controller was down are deleted too.
  endpoints.whenSynced(() => {
    for (const e of endpoints.lister.list()) queue.add(metaNamespaceKey(e));
  });

  return {
    name: ENDPOINTS_COMPONENT,
    stop() {
      for (const r of regs) r.remove();
      workers.stop();
    },
  };
}
