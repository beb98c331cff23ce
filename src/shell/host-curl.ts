/**
 * `curl` on the laptop (curl 8): what a kind cluster is reachable at from the host, which is
 * only what Docker publishes:
 *
 * - kind's `extraPortMappings` (the bookshop's `hostPort: 30080` -> the control-plane node's
 *   30080): docker-proxy connects to the node's IP, where kube-proxy's NodePort rule sends the
 *   request to one ready endpoint (`ClusterDataPlane.http` from the node itself). A Service with
 *   no ready endpoint rejects (connection refused), as its iptables REJECT rule does.
 * - the API server's port (`127.0.0.1:<random>` -> 6443, https only): without `-k` curl cannot
 *   verify kind's self-signed CA (`curl: (60) SSL certificate problem: unable to get local
 *   issuer certificate`); with it, the anonymous user may read `/healthz`, `/livez`, `/readyz`
 *   and `/version` (the `system:public-info-viewer` ClusterRole) and gets a 403 Status for
 *   anything else.
 * - any other local port: nothing listens (`curl: (7) Failed to connect to localhost port N
 *   after 0 ms: Couldn't connect to server`).
 *
 * - a node's IP on the `kind` Docker network (`172.18.0.x`, reachable from a Linux host): its
 *   NodePorts and, on the control plane, kube-apiserver's 6443; other IPs (pods, Services) have
 *   no route from the host and time out.
 *
 * Names other than localhost do not resolve here (`curl: (6) Could not resolve host: NAME`).
 * `makeNodeCurl` is the same curl inside a kind node.
 */
import type { Command, Pending, ShellContext } from './types';
import type { ClusterAccess, ClusterNodeAccess } from './cluster-access';
import { apiServerHostPort } from './cluster-access';
import type { PlaygroundCluster } from './playground';
import { httpReason, parseCurlArgs, parseUrl, type HttpOutcome, type HttpRequest } from '../engine/node/shell';
import { serverVersionInfo } from './kubectl/info';
import { apiserverHealthAnswer } from '../engine/cluster/apiserver-health';

/** The laptop's view of one published port. */
type Published = { kind: 'nodeport'; node: ClusterNodeAccess; containerPort: number } | { kind: 'apiserver' };

/** The cluster's data plane, as curl reaches it (`Cluster.network`). */
type DataPlane = { http(from: { nodeName: string; podIP: string; podName: string; namespace: string; hostNetwork: boolean }, ip: string, port: number, req: HttpRequest): HttpOutcome | undefined };

/** What a curl target answers: the HTTP outcome, or a curl error (code and message) before any request. */
type CurlAnswer = HttpOutcome | { curlError: number; message: string };

/** Where a request goes: the URL's parts, the request, `-k`; the context of the shell running curl. */
type CurlTarget = (u: { scheme: string; host: string; port: number; path: string }, req: HttpRequest, insecure: boolean, ctx: ShellContext) => CurlAnswer;

/** curl's TLS failure against a server whose CA it does not know (kind's self-signed cluster CA). */
const UNKNOWN_CA: CurlAnswer = {
  curlError: 60,
  message:
    'SSL certificate problem: unable to get local issuer certificate\nMore details here: https://curl.se/docs/sslcerts.html\n\ncurl failed to verify the legitimacy of the server and therefore could not\nestablish a secure connection to it. To learn more about this situation and\nhow to fix it, please visit the webpage mentioned above.',
};

/** kube-apiserver's port as a client outside the cluster meets it: TLS only, anonymous. */
function apiServerAnswer(scheme: string, path: string, insecure: boolean, ctx: ShellContext, version: string): CurlAnswer {
  // Nothing listens while kube-apiserver is down: refused before any TLS.
  if (ctx.api.getAvailability() === 'down') return { error: 'refused' };
  // kube-apiserver speaks TLS only: a plain-HTTP request gets Go's 400 reply.
  if (scheme !== 'https') return { status: 400, body: 'Client sent an HTTP request to an HTTPS server.\n' };
  if (!insecure) return UNKNOWN_CA;
  return anonymousApi(path, version, ctx.api.getAvailability() !== 'etcd-unreachable');
}

/** `curl` on the laptop next to `cluster`. */
export function makeHostCurl(cluster: PlaygroundCluster & { network?: DataPlane }): Command {
  const published = (port: number): Published | undefined => {
    if (port === apiServerHostPort(cluster)) return { kind: 'apiserver' };
    const cfgNodes = cluster.config?.nodes ?? [];
    for (let i = 0; i < cfgNodes.length; i++) {
      const m = cfgNodes[i].extraPortMappings?.find((p) => p.hostPort === port && (p.protocol ?? 'TCP').toUpperCase() === 'TCP');
      const node = cluster.nodes[i];
      if (m && node) return { kind: 'nodeport', node, containerPort: m.containerPort };
    }
    return undefined;
  };
  return makeCurl((u, req, insecure, ctx) => {
    const host = u.host.replace(/^\[|\]$/g, '');
    // curl looks up no IP literal. The laptop (Linux) routes to the `kind` Docker network, so a
    // node's IP is reachable as from a machine on that network: kube-apiserver on the control
    // plane's 6443, and whatever the node answers there (kube-proxy's NodePorts). Pod and
    // Service IPs have no route from the host: the connection times out.
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && !['127.0.0.1', '0.0.0.0'].includes(host)) {
      const dst = cluster.nodes.find((n) => n.nodeIP === host);
      if (!dst || !dst.machine.running || !dst.machine.connected) return { error: 'timeout' };
      if (dst.role === 'control-plane' && u.port === 6443) return apiServerAnswer(u.scheme, u.path, insecure, ctx, cluster.version);
      const from = { nodeName: dst.name, podIP: dst.nodeIP, podName: '', namespace: '', hostNetwork: true };
      return cluster.network?.http(from, dst.nodeIP, u.port, req) ?? { error: 'refused' };
    }
    if (!['localhost', '127.0.0.1', '::1', '0.0.0.0'].includes(host)) return { curlError: 6, message: `Could not resolve host: ${u.host}` };
    const p = published(u.port);
    const node = p?.kind === 'nodeport' ? p.node : cluster.nodes.find((n) => n.role === 'control-plane');
    // Docker publishes a port only while its container runs.
    if (!p || !node?.machine.running) return { error: 'refused' };
    if (p.kind === 'apiserver') return apiServerAnswer(u.scheme, u.path, insecure, ctx, cluster.version);
    if (u.scheme === 'https') return { curlError: 35, message: 'OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number' };
    const from = { nodeName: node.name, podIP: node.nodeIP, podName: '', namespace: '', hostNetwork: true };
    return cluster.network?.http(from, node.nodeIP, p.containerPort, req) ?? { error: 'refused' };
  });
}

/**
 * `curl` inside a kind node (kindest/node installs curl): the node's own network namespace.
 * `localhost` is the node; other nodes resolve by name through Docker's DNS; cluster Service
 * names do not (the node's resolv.conf is Docker's, not CoreDNS). The kubelet's healthz
 * (`localhost:10248/healthz`, plain HTTP) answers `ok` while the kubelet runs; port 6443 on the
 * control plane is kube-apiserver (as from the laptop, but direct); ClusterIPs, NodePorts and pod
 * IPs go through the node's kube-proxy rules and kindnet's routes (`ClusterDataPlane.http`).
 */
export function makeNodeCurl(cluster: ClusterAccess & { network?: DataPlane }, node: ClusterNodeAccess): Command {
  return makeCurl((u, req, insecure, ctx) => {
    const host = u.host.replace(/^\[|\]$/g, '');
    const byName = cluster.nodes.find((n) => n.name === host);
    const ip = ['localhost', '127.0.0.1', '::1'].includes(host) ? node.nodeIP : byName ? byName.nodeIP : /^\d+\.\d+\.\d+\.\d+$/.test(host) ? host : undefined;
    if (ip === undefined) return { curlError: 6, message: `Could not resolve host: ${u.host}` };
    const dst = cluster.nodes.find((n) => n.nodeIP === ip);
    if (dst && u.port === 10248 && (dst === node || (dst.machine.running && dst.machine.connected && node.machine.connected))) {
      const up = dst.machine.systemd?.snapshot('kubelet.service')?.subState === 'running';
      if (!up) return { error: 'refused' };
      return u.scheme === 'https' ? { curlError: 35, message: 'OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number' } : { status: 200, body: 'ok', headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
    }
    if (dst?.role === 'control-plane' && u.port === 6443 && dst.machine.running) return apiServerAnswer(u.scheme, u.path, insecure, ctx, cluster.version);
    const from = { nodeName: node.name, podIP: node.nodeIP, podName: '', namespace: '', hostNetwork: true };
    return cluster.network?.http(from, ip, u.port, req) ?? (dst ? dst.containerd.http(ip, u.port, req) : { error: 'timeout' });
  });
}

/**
 * curl 8's command line and output over a `target`: `-s`, `-S`, `-f`, `-i`, `-I`, `-k`, `-v`
 * (ignored), `-o FILE`, `-w FMT` (`%{http_code}`), `-X METHOD`, `-d DATA`, `-H HEADER`,
 * `-m SECS`; errors as `curl: (N) message` (hidden by `-s` unless `-S`), exit N. A response
 * that takes virtual time (`delayMs`) waits for it.
 */
function makeCurl(target: CurlTarget): Command {
  return (argv, io, ctx) => {
    const { method, data, silent, showErr, fail, include, head, insecure, output, writeOut, maxTimeMs, headers, url } = parseCurlArgs(argv);
    if (!url) {
      io.stderr("curl: try 'curl --help' or 'curl --manual' for more information\n");
      return 2;
    }
    const u = parseUrl(url);
    if (!u) {
      io.stderr('curl: (3) URL rejected: Malformed input to a URL function\n');
      return 3;
    }
    const errOut = (code: number, msg: string): number => {
      if (!silent || showErr) io.stderr(`curl: (${code}) ${msg}\n`);
      return code;
    };
    const req: HttpRequest = { method: head ? 'HEAD' : (method ?? (data !== undefined ? 'POST' : 'GET')), path: u.path, headers: { Host: `${u.host}:${u.port}`, 'User-Agent': 'curl/8.5.0', Accept: '*/*', ...headers }, ...(data !== undefined ? { body: data } : {}) };
    const res = target(u, req, insecure, ctx);
    if ('curlError' in res) return errOut(res.curlError, res.message);
    const finish = (r: HttpOutcome): number => {
      if ('error' in r) {
        if (r.error === 'refused' || r.error === 'unreachable') return errOut(7, `Failed to connect to ${u.host} port ${u.port} after 0 ms: Couldn't connect to server`);
        if (r.error === 'nxdomain') return errOut(6, `Could not resolve host: ${u.host}`);
        if (r.error === 'reset') return errOut(52, 'Empty reply from server');
        return errOut(28, `Failed to connect to ${u.host} port ${u.port} after ${maxTimeMs ?? 133000} ms: Couldn't connect to server`);
      }
      if (fail && r.status >= 400) return errOut(22, `The requested URL returned error: ${r.status}`);
      let text = '';
      if (include || head) text += `HTTP/1.1 ${r.status} ${httpReason(r.status)}\r\n${Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
      if (!head) text += r.body;
      if (output && output !== '/dev/null') ctx.files.write(output.startsWith('/') ? output : `${ctx.env.PWD ?? ''}/${output}`.replace(/^\//, ''), text);
      else if (!output) io.stdout(text);
      if (writeOut) io.stdout(writeOut.replace(/%\{http_code\}/g, String(r.status)).replace(/\\n/g, '\n'));
      return 0;
    };
    const delay = Math.min(res.delayMs ?? 0, maxTimeMs ?? Infinity);
    if (delay <= 0) return finish(res);
    const clock = ctx.clock;
    const until = clock.now() + delay;
    let cancelled = false;
    const pending: Pending = {
      poll: () => {
        if (cancelled) return 130;
        if (clock.now() < until) return undefined;
        if (maxTimeMs !== undefined && (res.delayMs ?? 0) > maxTimeMs) return errOut(28, `Operation timed out after ${maxTimeMs} milliseconds with 0 bytes received`);
        return finish(res);
      },
      cancel: () => {
        cancelled = true;
      },
      wakeAt: () => until,
    };
    return pending;
  };
}

/**
 * kube-apiserver to an anonymous client: the health endpoints and /version are public
 * (bootstrap ClusterRole `system:public-info-viewer`: `/healthz`, `/livez`, `/readyz` exactly,
 * answered by apiserver-health.ts with the query, so `?verbose` and `?exclude=` work; the
 * individual checks `/readyz/<check>` are `system:monitoring`'s, so 403 here), everything else
 * is a 403 Status as the apiserver's authorization filter writes it (pretty-printed JSON, as for
 * curl's Accept: * / *).
 */
function anonymousApi(path: string, version: string, etcdOk: boolean): HttpOutcome {
  const p = path.split('?')[0];
  if (p === '/healthz' || p === '/livez' || p === '/readyz') return apiserverHealthAnswer(path, { etcdOk }) ?? { error: 'reset' };
  if (p === '/version') return { status: 200, body: JSON.stringify(serverVersionInfo(version), null, 2), headers: { 'Content-Type': 'application/json' } };
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `forbidden: User "system:anonymous" cannot get path "${p}"`,
    reason: 'Forbidden',
    details: {},
    code: 403,
  };
  return { status: 403, body: JSON.stringify(status, null, 2) + '\n', headers: { 'Content-Type': 'application/json' } };
}
