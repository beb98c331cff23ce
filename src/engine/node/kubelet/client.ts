/**
 * The kubelet's view of kube-apiserver: the shared `ApiServer`, reached through the node's
 * network. While the node is cut off the kind network (`docker network disconnect`), every
 * request fails as a dial error and every open watch breaks; the kubelet's loops (informers,
 * lease, node status, status manager, event recorder) then retry as client-go does. While
 * kube-apiserver itself is down the `ApiServer` already answers connection refused.
 *
 * Mirrors what client-go's transport does to a kubelet whose network went away
 * (staging/src/k8s.io/client-go/rest/request.go: the request error is a `*url.Error` wrapping a
 * dial error; no Status from a server).
 *
 * Units: virtual ms.
 */
import { ApiError } from '../../api/errors';
import type { ApiServer, WatchHandle } from '../../api/server';

/** Methods of `ApiServer` that are requests (they need the network). */
const REQUEST_METHODS = new Set([
  'get',
  'tryGet',
  'tryGetShared',
  'list',
  'watch',
  'create',
  'update',
  'updateStatus',
  'patch',
  'apply',
  'delete',
  'deleteCollection',
  'bind',
  'getScale',
  'updateScale',
]);

/** The dial error a request from a disconnected node gets (a client-side error, no Status). */
export function networkUnreachable(server: string): ApiError {
  return new ApiError(
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Get "https://${server}/api/v1": dial tcp ${server}: connect: network is unreachable`,
      reason: 'ServiceUnavailable',
      code: 503,
    },
    true,
  );
}

/** A network-gated API client and its controls. */
export interface NodeApiClient {
  /** Use wherever an `ApiServer` is expected (informers, event recorder, direct calls). */
  readonly api: ApiServer;
  /** Break every watch opened through this client (the node lost its network). */
  breakWatches(): void;
  /** Stop tracking (the kubelet process died). */
  close(): void;
}

/**
 * Wrap `api` so that requests throw `networkUnreachable(server)` while `connected()` is false,
 * and watches opened through it end when `breakWatches()` is called (or a later request finds
 * the node disconnected). Non-request members (clock, rng, registry...) pass through.
 */
export function nodeApiClient(api: ApiServer, connected: () => boolean, server: string): NodeApiClient {
  const watches = new Set<{ inner: WatchHandle; stopped: boolean }>();
  const breakWatches = (): void => {
    for (const w of [...watches]) {
      w.stopped = true;
      w.inner.stop();
      watches.delete(w);
    }
  };
  // Each request method's wrapper is made once per client (performance only: every API call of
  // the component reads its method through this proxy).
  const wrappers = new Map<string, { value: unknown; wrapper: (...args: unknown[]) => unknown }>();
  const proxy = new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !REQUEST_METHODS.has(prop) || typeof value !== 'function') return value;
      const cached = wrappers.get(prop);
      if (cached && cached.value === value) return cached.wrapper;
      const wrapper = (...args: unknown[]): unknown => {
        if (!connected()) {
          breakWatches();
          throw networkUnreachable(server);
        }
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (prop !== 'watch') return result;
        const inner = result as WatchHandle;
        const entry = { inner, stopped: false };
        watches.add(entry);
        const handle: WatchHandle = {
          stop: () => {
            entry.stopped = true;
            inner.stop();
            watches.delete(entry);
          },
          get stopped() {
            return entry.stopped || inner.stopped;
          },
        };
        // The handler must not hear events once the connection is gone.
        return handle;
      };
      wrappers.set(prop, { value, wrapper });
      return wrapper;
    },
  });
  return {
    api: proxy,
    breakWatches,
    close: () => watches.clear(),
  };
}
