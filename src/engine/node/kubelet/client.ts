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
  const watches = new Set<ClientWatch>();
  const breakWatches = (): void => {
    for (const w of [...watches]) {
      w.stopped = true;
      w.inner.stop();
      watches.delete(w);
    }
  };
  const client: ClientState = { target: api, connected, server, watches, breakWatches };
  // Each request method's wrapper is made once per client (performance only: every API call of
  // the component reads its method through this proxy). A wrapper is `request` bound to the
  // client, the method name and the method (no closure per method and client).
  // A prop with a wrapper is a request method (only those get one), so a wrapper made for the
  // value read now is returned before the method-name check (performance only: one lookup
  // instead of two per call; any other read is answered as before).
  const wrappers = new Map<string, { value: unknown; wrapper: (...args: unknown[]) => unknown }>();
  const proxy = new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const cached = wrappers.get(prop);
      if (cached !== undefined && cached.value === value) return cached.wrapper;
      if (!REQUEST_METHODS.has(prop)) return value;
      const wrapper = request.bind(undefined, client, prop, value as (...a: unknown[]) => unknown);
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

/** One node client (see `nodeApiClient`). */
interface ClientState {
  target: ApiServer;
  connected: () => boolean;
  server: string;
  watches: Set<ClientWatch>;
  breakWatches: () => void;
}

/** A watch opened through a node client: ended by `breakWatches` or by its handle. */
interface ClientWatch {
  inner: WatchHandle;
  stopped: boolean;
}

/** A request through a node client: refused while disconnected; a watch gets a breakable handle. */
function request(client: ClientState, prop: string, method: (...a: unknown[]) => unknown, ...args: unknown[]): unknown {
  if (!client.connected()) {
    client.breakWatches();
    throw networkUnreachable(client.server);
  }
  const result = method.apply(client.target, args);
  if (prop !== 'watch') return result;
  const entry: ClientWatch = { inner: result as WatchHandle, stopped: false };
  client.watches.add(entry);
  // The handler must not hear events once the connection is gone.
  return new ClientWatchHandle(entry, client.watches);
}

/** The handle of a watch opened through a node client (methods on one prototype, not closures per watch). */
class ClientWatchHandle implements WatchHandle {
  constructor(
    private readonly entry: ClientWatch,
    private readonly watches: Set<ClientWatch>,
  ) {}

  stop(): void {
    this.entry.stopped = true;
    this.entry.inner.stop();
    this.watches.delete(this.entry);
  }

  get stopped(): boolean {
    return this.entry.stopped || this.entry.inner.stopped;
  }
}
