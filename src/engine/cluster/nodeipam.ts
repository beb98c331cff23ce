/**
 * node-ipam-controller (the `RangeAllocator` kube-controller-manager runs with
 * `--allocate-node-cidrs=true --cluster-cidr=10.244.0.0/16`, as kubeadm configures it on kind):
 * gives every Node a pod CIDR (`spec.podCIDR`, `spec.podCIDRs`) of `--node-cidr-mask-size` (24)
 * bits from the cluster CIDR. kindnet then configures the node's CNI from it.
 *
 * Mirrors pkg/controller/nodeipam/ipam/range_allocator.go: on start every CIDR already on a
 * Node is marked used (`occupyCIDRs`); a Node without one gets the next free CIDR
 * (`AllocateOrOccupyCIDR`, patched with `PatchNodeCIDRs`); a deleted Node's CIDR is released
 * (`ReleaseCIDR`); when the range is exhausted the Node gets the Warning Event
 * `CIDRNotAvailable` (`Node <name> status is now: CIDRNotAvailable`).
 *
 * Simulation note: each node's containerd hands out pod IPs from the CIDR the cluster planned
 * for it (nodes in kind's order: 10.244.0.0/24, 10.244.1.0/24, ...), which is what the range
 * allocator gives them when they register in that order, as kind's boot makes them do. The
 * allocator takes a node's planned CIDR when it is free (`preferred`), else the next free one
 * (and says so in the trace: that node's pod IPs then do not match its podCIDR).
 *
 * Units: virtual ms.
 */
import type { Controller, ControllerContext, ControllerFactory } from '../controllers/manager';
import { ApiError } from '../api/errors';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';

/** Component name (events and traces). Source: cmd/kube-controller-manager (`node-ipam-controller`). */
export const NODE_IPAM_COMPONENT = 'node-ipam-controller';
/** `--node-cidr-mask-size` default for IPv4. Source: cmd/kube-controller-manager/app/options/nodeipamcontroller.go. */
export const DEFAULT_NODE_CIDR_MASK_SIZE = 24;

/** Options of the node IPAM controller. */
export interface NodeIpamOptions {
  /** `--cluster-cidr`, e.g. `10.244.0.0/16`. */
  clusterCIDR: string;
  /** `--node-cidr-mask-size` (default 24). */
  nodeMaskSize?: number;
  /** The CIDR the cluster planned for a node (its containerd's), if any. */
  preferred?: (nodeName: string) => string | undefined;
}

function ipToNum(ip: string): number {
  return ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
}
function numToIp(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/** A factory for the node IPAM controller with these options (to run inside kube-controller-manager). */
export function nodeIpamController(o: NodeIpamOptions): ControllerFactory {
  return (ctx: ControllerContext): Controller => {
    const { api, clock } = ctx;
    const [base, bits] = o.clusterCIDR.split('/');
    const mask = o.nodeMaskSize ?? DEFAULT_NODE_CIDR_MASK_SIZE;
    const count = 2 ** (mask - Number(bits));
    const size = 2 ** (32 - mask);
    const start = ipToNum(base);
    const cidrOf = (i: number) => `${numToIp(start + i * size)}/${mask}`;
    const indexOf = (cidr: string): number | undefined => {
      const [ip, m] = cidr.split('/');
      const i = (ipToNum(ip) - start) / size;
      return Number(m) === mask && Number.isInteger(i) && i >= 0 && i < count ? i : undefined;
    };
    const used = new Map<number, string>(); // index -> node
    let next = 0;
    const nodes = ctx.informers.informer('nodes');
    const queue = new RateLimitingQueue(clock, { name: NODE_IPAM_COMPONENT });
    const recorder = ctx.recorder(NODE_IPAM_COMPONENT);
    const occupy = (name: string, cidr: string | undefined) => {
      const i = cidr ? indexOf(cidr) : undefined;
      if (i !== undefined) used.set(i, name);
    };
    const regs = [
      nodes.addEventHandler({
        onAdd: (n) => {
          occupy(n.metadata.name!, n.spec?.podCIDR);
          if (!n.spec?.podCIDR) queue.add(n.metadata.name!);
        },
        onUpdate: (_old, n) => {
          occupy(n.metadata.name!, n.spec?.podCIDR);
          if (!n.spec?.podCIDR) queue.add(n.metadata.name!);
        },
        onDelete: (n) => {
          for (const [i, owner] of used) if (owner === n.metadata.name) used.delete(i);
        },
      }),
    ];

    const allocate = (name: string): number | undefined => {
      const want = o.preferred?.(name);
      const p = want ? indexOf(want) : undefined;
      if (p !== undefined && !used.has(p)) return p;
      for (let k = 0; k < count; k++) {
        const i = (next + k) % count;
        if (!used.has(i)) {
          next = (i + 1) % count;
          return i;
        }
      }
      return undefined;
    };

    const reconcile = (name: string): void => {
      const node = nodes.lister.get(undefined, name);
      if (!node || node.spec?.podCIDR) return;
      const i = allocate(name);
      if (i === undefined) {
        recorder.event({ kind: 'Node', name, uid: name, apiVersion: 'v1' }, 'Warning', 'CIDRNotAvailable', `Node ${name} status is now: CIDRNotAvailable`);
        return;
      }
      const cidr = cidrOf(i);
      used.set(i, name);
      try {
        api.patch('nodes', undefined, name, 'strategic', { spec: { podCIDR: cidr, podCIDRs: [cidr] } }, { fieldManager: 'kube-controller-manager' });
      } catch (e) {
        used.delete(i);
        if (e instanceof ApiError && e.code === 404) return;
        throw e;
      }
      const planned = o.preferred?.(name);
      ctx.trace(NODE_IPAM_COMPONENT, `${name}: allocated pod CIDR ${cidr}${planned && planned !== cidr ? ` (its runtime uses ${planned})` : ''}`, { kind: 'Node', name }, planned && planned !== cidr ? 'Warning' : 'info');
    };

    const workers = startWorkers(queue, reconcile, { clock, name: NODE_IPAM_COMPONENT, waitForSync: [nodes] });
    return {
      name: NODE_IPAM_COMPONENT,
      stop() {
        for (const r of regs) r.remove();
        workers.stop();
      },
    };
  };
}
