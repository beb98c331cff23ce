/**
 * The cluster's data plane: what carries a packet from a pod to a Service, to a pod on another
 * node, or to a NodePort - the `ClusterNetwork` every node's containerd consults.
 *
 * What it models, and who owns each part (as on a kind cluster):
 * - **Routes between nodes**: every node sits on the `kind` docker network; a pod IP belongs to
 *   the node whose pod CIDR holds it (kindnet's routes). Traffic between two nodes needs both
 *   running and attached to the network (`docker network disconnect` drops it: a timeout).
 * - **Service rules** (`ProxyRules`): one table per node, the iptables `KUBE-SERVICES` chain that
 *   node's kube-proxy last wrote: ClusterIP:port and NodePort -> the ready endpoints. The table
 *   lives in the node's network namespace, not in kube-proxy: when kube-proxy dies the rules stay
 *   (and go stale); they vanish only when the node container restarts. A Service without ready
 *   endpoints is a REJECT rule (connection refused); a ClusterIP with no rule at all (kube-proxy
 *   never saw it) goes nowhere (timeout). The endpoint is picked at random, as iptables'
 *   `statistic --mode random` does (from this data plane's own seeded stream).
 * - **Cluster DNS**: a pod's resolver (ClusterFirst) sends to the kube-dns ClusterIP, so it goes
 *   through the source node's Service rules to one CoreDNS pod, which answers from its own
 *   informer cache (`DnsServer`, registered by the CoreDNS program while it runs). The search
 *   path `<ns>.svc.cluster.local svc.cluster.local cluster.local` with `ndots:5` is applied here.
 *   Names outside cluster.local are forwarded upstream: the runtime resolves internet names.
 *
 * Simplifications (documented): UDP and TCP share one notion of "reachable"; a dead DNS path is
 * reported as NXDOMAIN (`null`) rather than an i/o timeout, because `ClusterNetwork.resolve` has
 * no timeout result; ExternalName Services do not resolve; NetworkPolicies are not enforced.
 *
 * Units: virtual ms.
 */
import { Rng } from '../clock';
import { flattenString } from '../strings';
import type { ClusterNetwork, Containerd, NetSource } from '../node/runtime';
import type { Machine } from '../node/machine';
import type { DialOutcome } from '../node/programs';
import type { HttpOutcome, HttpRequest } from '../node/shell';

/** An endpoint a Service rule sends to. */
export interface RuleEndpoint {
  ip: string;
  port: number;
}

/** One node's Service rules as its kube-proxy last programmed them (iptables KUBE-SERVICES / KUBE-NODEPORTS). */
export interface ProxyRules {
  /** `<clusterIP>:<port>/<protocol>` -> endpoints (empty: REJECT). */
  services: Map<string, RuleEndpoint[]>;
  /** `<nodePort>/<protocol>` -> endpoints. */
  nodePorts: Map<string, RuleEndpoint[]>;
  /** `namespace/name` of the Service behind each key (for traces). */
  owners: Map<string, string>;
  /** Virtual ms of the last sync. */
  syncedAt: number;
}

/** A CoreDNS instance: answers one fully qualified name. */
export interface DnsServer {
  /**
   * The A record of `fqdn` (no trailing dot): an IP; `null` for NXDOMAIN (or SERVFAIL) inside the
   * cluster zone; `undefined` for a name outside it (forwarded upstream).
   */
  answer(fqdn: string): string | null | undefined;
}

/** What the data plane knows of a node. */
export interface NetNode {
  name: string;
  nodeIP: string;
  /** `10.244.1.0/24`. */
  podCIDR: string;
  machine: Machine;
  containerd: Containerd;
}

/** The cluster domain (kubelet `clusterDomain`, CoreDNS `kubernetes cluster.local`). */
export const CLUSTER_DOMAIN = 'cluster.local';
/** resolv.conf `options ndots:5` the kubelet writes for ClusterFirst pods. Source: pkg/kubelet/network/dns/dns.go. */
export const NDOTS = 5;

function ipToNum(ip: string): number {
  // Dotted digits parsed in place (every packet asks; performance only); anything else as before.
  let a = 0;
  let o = 0;
  let digits = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      o = o * 10 + (c - 48);
      digits++;
    } else if (c === 46 && digits > 0) {
      a = a * 256 + o;
      o = 0;
      digits = 0;
    } else return ip.split('.').reduce((x, p) => x * 256 + Number(p), 0);
  }
  if (digits === 0) return ip.split('.').reduce((x, p) => x * 256 + Number(p), 0);
  return a * 256 + o;
}

/** Parsed CIDRs: [first address, size] (a cluster has a handful; performance only). */
const CIDR_CACHE = new Map<string, readonly [number, number]>();

/** True when `ip` is inside `cidr`. */
export function cidrContains(cidr: string, ip: string): boolean {
  let parsed = CIDR_CACHE.get(cidr);
  if (!parsed) {
    const [base, bits] = cidr.split('/');
    const size = 2 ** (32 - Number(bits));
    const b = ipToNum(base);
    parsed = [b - (b % size), size];
    if (CIDR_CACHE.size < 4096) CIDR_CACHE.set(cidr, parsed);
  }
  const n = ipToNum(ip);
  return n >= parsed[0] && n < parsed[0] + parsed[1];
}

/** An empty rules table. */
export function emptyRules(): ProxyRules {
  return { services: new Map(), nodePorts: new Map(), owners: new Map(), syncedAt: -1 };
}

/** The cluster's data plane (implements the runtime's `ClusterNetwork`). */
export class ClusterDataPlane implements ClusterNetwork {
  private readonly nodes = new Map<string, NetNode>();
  private readonly rulesByNode = new Map<string, ProxyRules>();
  private readonly dns = new Map<string, DnsServer>();
  private readonly rng: Rng;

  /**
   * @param rng the engine's generator; one draw seeds the data plane's own stream (endpoint
   *   choice), so traffic never shifts other components' draws
   * @param serviceSubnet the Service CIDR (`10.96.0.0/16`)
   * @param dnsIP the kube-dns ClusterIP (`10.96.0.10`)
   */
  constructor(
    rng: Rng,
    readonly serviceSubnet: string,
    readonly dnsIP: string,
  ) {
    this.rng = new Rng(rng.int(0, 0x7fffffff));
  }

  /** Add a node (its routes exist from now on). */
  addNode(n: NetNode): void {
    this.nodes.set(n.name, n);
  }

  /** The Service rules of a node (created empty on first use). */
  rules(nodeName: string): ProxyRules {
    let r = this.rulesByNode.get(nodeName);
    if (!r) {
      r = emptyRules();
      this.rulesByNode.set(nodeName, r);
    }
    return r;
  }

  /** The node container stopped: its network namespace (and so its iptables rules) is gone. */
  nodeStopped(nodeName: string): void {
    this.rulesByNode.delete(nodeName);
  }

  /** A CoreDNS pod serving at `podIP`; returns the function that unregisters it. */
  registerDns(podIP: string, server: DnsServer): () => void {
    this.dns.set(podIP, server);
    return () => {
      if (this.dns.get(podIP) === server) this.dns.delete(podIP);
    };
  }

  // ------------------------------------------------------------------ routing

  /** The node owning an address: a pod IP in its pod CIDR, or its node IP. */
  nodeForIp(ip: string): NetNode | undefined {
    for (const n of this.nodes.values()) if (n.nodeIP === ip || cidrContains(n.podCIDR, ip)) return n;
    return undefined;
  }

  /** Can traffic go from node `a` to node `b`? Both running; across nodes, both on the kind network. */
  linked(a: NetNode, b: NetNode): boolean {
    if (!a.machine.running || !b.machine.running) return false;
    if (a === b) return true;
    return a.machine.connected && b.machine.connected;
  }

  private pick(eps: RuleEndpoint[]): RuleEndpoint {
    return eps.length === 1 ? eps[0] : eps[this.rng.int(0, eps.length - 1)];
  }

  /** Rule lookup on `src` for a ClusterIP (`ip:port`), or a NodePort when `ip` is a node's IP. */
  /** `ip:port/proto` rule keys already built, by ip, proto and port (performance only: see `ruleKey`). */
  private readonly ruleKeys = new Map<string, Map<string, Map<number, string>>>();

  /**
   * The Service rule key `ip:port/proto`, the same flat string for the same rule each time: no
   * new string to build and hash per packet (a DNS query or a dial looks one up).
   */
  private ruleKey(ip: string, port: number, proto: string): string {
    let byProto = this.ruleKeys.get(ip);
    if (!byProto) {
      if (this.ruleKeys.size >= 4096) this.ruleKeys.clear();
      byProto = new Map();
      this.ruleKeys.set(ip, byProto);
    }
    let byPort = byProto.get(proto);
    if (!byPort) {
      byPort = new Map();
      byProto.set(proto, byPort);
    }
    let key = byPort.get(port);
    if (key === undefined) {
      if (byPort.size >= 4096) byPort.clear();
      key = flattenString(`${ip}:${port}/${proto}`);
      byPort.set(port, key);
    }
    return key;
  }

  private translate(src: NetNode, ip: string, port: number, proto: string): { eps: RuleEndpoint[]; via: NetNode } | 'no-rule' {
    const svc = this.rulesByNode.get(src.name)?.services.get(this.ruleKey(ip, port, proto));
    if (svc) return { eps: svc, via: src };
    let node: NetNode | undefined;
    for (const n of this.nodes.values()) {
      if (n.nodeIP === ip) {
        node = n;
        break;
      }
    }
    if (node) {
      const np = this.rulesByNode.get(node.name)?.nodePorts.get(`${port}/${proto}`);
      if (np) return { eps: np, via: node };
    }
    return 'no-rule';
  }

  private inServiceCidr(ip: string): boolean {
    return cidrContains(this.serviceSubnet, ip);
  }

  /** See `ClusterNetwork.http`. */
  http(from: NetSource, ip: string, port: number, req: HttpRequest): HttpOutcome | undefined {
    const src = this.nodes.get(from.nodeName);
    if (!src) return undefined;
    const address = `${ip}:${port}`;
    const t = this.translate(src, ip, port, 'TCP');
    if (t !== 'no-rule') {
      if (t.via !== src && !this.linked(src, t.via)) return { error: 'timeout', address };
      if (t.eps.length === 0) return { error: 'refused', address };
      const ep = this.pick(t.eps);
      return this.deliverHttp(t.via, ep.ip, ep.port, req, address);
    }
    if (this.inServiceCidr(ip)) return { error: 'timeout', address };
    if (!this.nodeForIp(ip)) return undefined;
    return this.deliverHttp(src, ip, port, req, address);
  }

  /** See `ClusterNetwork.dial`. */
  dial(from: NetSource, ip: string, port: number): DialOutcome | undefined {
    const src = this.nodes.get(from.nodeName);
    if (!src) return undefined;
    const address = `${ip}:${port}`;
    const t = this.translate(src, ip, port, 'TCP');
    if (t !== 'no-rule') {
      if (t.via !== src && !this.linked(src, t.via)) return { ok: false, error: 'timeout', address };
      if (t.eps.length === 0) return { ok: false, error: 'refused', address };
      const ep = this.pick(t.eps);
      return this.deliverDial(t.via, ep.ip, ep.port, address);
    }
    if (this.inServiceCidr(ip)) return { ok: false, error: 'timeout', address };
    if (!this.nodeForIp(ip)) return undefined;
    return this.deliverDial(src, ip, port, address);
  }

  private deliverHttp(src: NetNode, ip: string, port: number, req: HttpRequest, shown: string): HttpOutcome {
    const dst = this.nodeForIp(ip);
    if (!dst) return { error: 'timeout', address: shown };
    if (!this.linked(src, dst)) return { error: dst.machine.running ? 'timeout' : 'unreachable', address: shown };
    const r = dst.containerd.http(ip, port, req);
    if ('error' in r && r.error === 'unreachable') return { error: 'timeout', address: shown };
    return 'error' in r ? { ...r, address: shown } : r;
  }

  private deliverDial(src: NetNode, ip: string, port: number, shown: string): DialOutcome {
    const dst = this.nodeForIp(ip);
    if (!dst) return { ok: false, error: 'timeout', address: shown };
    if (!this.linked(src, dst)) return { ok: false, error: dst.machine.running ? 'timeout' : 'unreachable', address: shown };
    const r = dst.containerd.dial(ip, port);
    if (!r.ok && r.error === 'unreachable') return { ok: false, error: 'timeout', address: shown };
    return r.ok ? r : { ...r, address: shown };
  }

  // ------------------------------------------------------------------ DNS

  /**
   * See `ClusterNetwork.resolve`: the pod's resolver through kube-dns. Returns an IP, `null`
   * (no answer) or `undefined` (not a cluster name: let the runtime's upstream answer).
   */
  resolve(from: NetSource, name: string): string | null | undefined {
    // hostNetwork pods (ClusterFirst falls back to Default) use the node's resolver: no cluster names.
    if (from.hostNetwork) return undefined;
    const src = this.nodes.get(from.nodeName);
    if (!src) return undefined;
    const server = this.dnsServerFor(src);
    const candidates = this.queryNames(from.namespace, name);
    if (!server) return null;
    let forwarded = false;
    for (const fqdn of candidates) {
      const a = server.answer(fqdn);
      if (typeof a === 'string') return a;
      if (a === undefined) forwarded = true;
    }
    return forwarded ? undefined : null;
  }

  /** `queryNames` answers by namespace and name (a pure function, kept: performance only). */
  private readonly queryNamesMemo = new Map<string, readonly string[]>();

  /**
   * The names the pod's resolver asks for `name`, lowercased, in order: resolv.conf's search
   * path (`<ns>.svc.cluster.local svc.cluster.local cluster.local`) with `ndots:5`.
   */
  private queryNames(namespace: string, name: string): readonly string[] {
    const key = `${namespace}/${name}`;
    let out = this.queryNamesMemo.get(key);
    if (out) return out;
    const absolute = name.endsWith('.');
    const bare = absolute ? name.slice(0, -1) : name;
    const search = [`${namespace}.svc.${CLUSTER_DOMAIN}`, `svc.${CLUSTER_DOMAIN}`, CLUSTER_DOMAIN];
    const dots = bare.split('.').length - 1;
    const candidates = absolute ? [bare] : dots >= NDOTS ? [bare, ...search.map((s) => `${bare}.${s}`)] : [...search.map((s) => `${bare}.${s}`), bare];
    out = candidates.map((c) => c.toLowerCase());
    if (this.queryNamesMemo.size >= 4096) this.queryNamesMemo.clear();
    this.queryNamesMemo.set(key, out);
    return out;
  }

  /** The CoreDNS instance the source node's rules send a query to, if the path works. */
  private dnsServerFor(src: NetNode): DnsServer | undefined {
    const t = this.translate(src, this.dnsIP, 53, 'UDP');
    if (t === 'no-rule' || t.eps.length === 0) return undefined;
    const ep = this.pick(t.eps);
    const dst = this.nodeForIp(ep.ip);
    if (!dst || !this.linked(src, dst)) return undefined;
    return this.dns.get(ep.ip);
  }
}
