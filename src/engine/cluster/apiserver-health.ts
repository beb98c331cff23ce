/**
 * kube-apiserver's health endpoints (`/healthz`, `/livez`, `/readyz` and `/<endpoint>/<check>`),
 * as a kubeadm/kind kube-apiserver 1.35 serves them. One function answers for the
 * kube-apiserver program (the kubelet's probes, `curl` on the node) and for `kubectl get --raw`.
 *
 * Mirrors:
 * - staging/src/k8s.io/apiserver/pkg/server/healthz/healthz.go: `handleRootHealth` (`ok` without
 *   a newline; `?verbose` lists `[+]name ok` then `<endpoint> check passed\n`; any failure lists
 *   every check with `[-]name failed: reason withheld` and ends `<endpoint> check failed`, written
 *   by `http.Error`, so with a newline, HTTP 500; `?exclude=name` prints `[+]name excluded: ok`,
 *   unknown names add `warn: some health checks cannot be excluded: no matches for "x"`) and
 *   `adaptCheckToHandler` (`/readyz/<check>`: `ok`, or `internal server error: <err>\n`, 500).
 * - staging/src/k8s.io/apiserver/pkg/server/options/etcd.go `addEtcdHealthEndpoint`: `etcd` via
 *   `Config.AddHealthChecks` (healthz, livez and readyz alike), `etcd-readiness` via
 *   `AddReadyzChecks` (readyz only). So /livez fails while etcd is unreachable, and the kubelet's
 *   liveness probe on /livez restarts kube-apiserver.
 * - storagebackend/factory/etcd3.go `newETCD3Check`: the probe's error while etcd does not answer,
 *   `error getting data from etcd: context deadline exceeded`.
 * - config.go `New` (`informer-sync`, readyz only), genericapiserver.go `addReadyzShutdownCheck`
 *   (`shutdown`, readyz only, last; `process is shutting down`), and the post-start hooks of the
 *   apiextensions server, the kube-apiserver (pkg/controlplane) and kube-aggregator
 *   (staging/src/k8s.io/kube-aggregator/pkg/apiserver/apiserver.go), in the order a 1.35
 *   kube-apiserver lists them (taken from a real v1.35.8 `/readyz?verbose` transcript).
 *
 * Not modelled: post-start hooks that have not finished (a kube-apiserver started while etcd is
 * unreachable fails `informer-sync` and several hooks on /readyz with `not finished`); here every
 * hook counts as finished once the program serves.
 */
import type { HttpOutcome } from '../node/shell';

/** The three root health endpoints. */
export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

/** What the checks depend on: etcd answering, and whether the process is shutting down (SIGTERM received). */
export interface ApiserverHealthState {
  /** etcd serves (the `etcd` and `etcd-readiness` checks pass). */
  etcdOk: boolean;
  /** The process received SIGTERM (readyz's `shutdown` check fails). */
  shuttingDown?: boolean;
}

/** The post-start hooks (health check `poststarthook/<name>`), in a 1.35 kube-apiserver's order. */
const POST_START_HOOKS = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'start-kubernetes-service-cidr-controller',
  'aggregator-reload-proxy-client-cert',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
];

/** Checks after the hooks: the aggregator's `autoregister-completion` (a plain check), then the OpenAPI controllers' hooks. */
const TAIL = ['autoregister-completion', 'poststarthook/apiservice-openapi-controller', 'poststarthook/apiservice-openapiv3-controller'];

const HOOK_CHECKS = POST_START_HOOKS.map((h) => `poststarthook/${h}`);

/** Each endpoint's checks, in the order the handler runs them. */
const CHECKS: Record<HealthEndpoint, readonly string[]> = {
  healthz: ['ping', 'log', 'etcd', ...HOOK_CHECKS, ...TAIL],
  livez: ['ping', 'log', 'etcd', ...HOOK_CHECKS, ...TAIL],
  readyz: ['ping', 'log', 'etcd', 'etcd-readiness', 'informer-sync', ...HOOK_CHECKS, ...TAIL, 'shutdown'],
};

/** The error of etcd's health and readiness probes while etcd does not answer (etcd3.go). */
const ETCD_ERROR = 'error getting data from etcd: context deadline exceeded';

/** A check's error, or undefined when it passes. */
function checkError(name: string, state: ApiserverHealthState): string | undefined {
  if ((name === 'etcd' || name === 'etcd-readiness') && !state.etcdOk) return ETCD_ERROR;
  if (name === 'shutdown' && state.shuttingDown) return 'process is shutting down';
  return undefined;
}

/** The names of the checks `endpoint` runs, in order (`ping`, `log`, `etcd`, ..., `shutdown`). */
export function apiserverHealthChecks(endpoint: HealthEndpoint): readonly string[] {
  return CHECKS[endpoint];
}

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** The root health endpoints by their exact path (no query, no check name). */
const ROOT_ENDPOINTS: ReadonlyMap<string, HealthEndpoint> = new Map([
  ['/healthz', 'healthz'],
  ['/livez', 'livez'],
  ['/readyz', 'readyz'],
]);

/** Go's `%q` for a check name (ASCII names: quotes and backslashes escaped). */
function quoted(s: string): string {
  return '"' + s.replace(/[\\"]/g, (c) => '\\' + c) + '"';
}

/** Go's `url.QueryUnescape` (`+` is a space, `%XX` a byte); undefined when malformed. */
function queryUnescape(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Go's `url.ParseQuery`: `&`-separated `key=value` pairs, values per key in order (malformed pairs skipped). */
function parseQuery(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const key = queryUnescape(eq === -1 ? part : part.slice(0, eq));
    const value = queryUnescape(eq === -1 ? '' : part.slice(eq + 1));
    if (key === undefined || value === undefined) continue;
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

/**
 * kube-apiserver's answer to a GET of `path` (with its query, e.g. `/readyz?verbose&exclude=etcd`)
 * when `path` is a health endpoint: the status, body and headers healthz.go writes. Returns
 * undefined for any other path (the caller's 404 or 403). Query: `verbose` (present, any value),
 * `exclude` (repeatable; names excluded print `[+]name excluded: ok`). Pure: no clock, no state
 * beyond `state`.
 */
export function apiserverHealthAnswer(path: string, state: ApiserverHealthState): HttpOutcome | undefined {
  // A root endpoint without a query (every kubelet probe): the general path below would run no
  // exclusion, find a failure only in `etcd`/`etcd-readiness` (etcd not serving, in every
  // endpoint's checks) or readyz's `shutdown`, and without a failure or `verbose` answer `ok`;
  // its verbose text is then never used. Answered here without building that text
  // (performance only: same status, body and headers object; a failure takes the general path).
  const root = ROOT_ENDPOINTS.get(path);
  if (root !== undefined && state.etcdOk && !(root === 'readyz' && state.shuttingDown)) return { status: 200, body: 'ok', headers: TEXT_HEADERS };
  const q = path.indexOf('?');
  const p = q === -1 ? path : path.slice(0, q);
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(p);
  if (!m) return undefined;
  const endpoint = m[1] as HealthEndpoint;
  const checks = CHECKS[endpoint];
  if (m[2] !== undefined) {
    // One check (mux.Handle(path + "/" + name)): exact names only.
    if (!checks.includes(m[2])) return undefined;
    const err = checkError(m[2], state);
    if (err === undefined) return { status: 200, body: 'ok', headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
    return { status: 500, body: `internal server error: ${err}\n`, headers: TEXT_HEADERS };
  }
  const query = parseQuery(q === -1 ? '' : path.slice(q + 1));
  const excluded = new Set<string>(query.get('exclude') ?? []);
  let out = '';
  let failed = false;
  for (const name of checks) {
    if (excluded.has(name)) {
      excluded.delete(name);
      out += `[+]${name} excluded: ok\n`;
      continue;
    }
    if (checkError(name, state) !== undefined) {
      out += `[-]${name} failed: reason withheld\n`;
      failed = true;
    } else out += `[+]${name} ok\n`;
  }
  if (excluded.size > 0) out += `warn: some health checks cannot be excluded: no matches for ${[...excluded].sort().map(quoted).join(',')}\n`;
  if (failed) return { status: 500, body: `${out}${endpoint} check failed\n`, headers: TEXT_HEADERS };
  if (!query.has('verbose')) return { status: 200, body: 'ok', headers: TEXT_HEADERS };
  return { status: 200, body: `${out}${endpoint} check passed\n`, headers: TEXT_HEADERS };
}
