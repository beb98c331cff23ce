/**
 * System commands inside a kind node (kindest/node is Debian 12: procps-ng 4 `free`/`uptime`,
 * GNU coreutils 9 `df`, iproute2 6 `ip`), answered from the simulated machine:
 *
 * - `df [-h]`: the container's overlay root and its tmpfs mounts; the disk is the node's
 *   `ephemeral-storage` capacity (the laptop's disk, shared by all nodes), used space grows with
 *   the images in the node's containerd;
 * - `free [-m|-h|-g|-k]`: the machine's memory (a container sees the host's), used = the
 *   resident memory of every process on the node plus the kernel's share;
 * - `uptime`: the host kernel's uptime (a container has none of its own), 0 users, a load
 *   average from the number of processes;
 * - `ip addr|a|address [show]`, `ip route|r|ro [show]`, `ip -4 ...`: `lo`, the pod veths of the
 *   kindnet ptp plugin (host side `10.244.N.1/32`), `eth0` on the kind network (`172.18.0.N/16`,
 *   MAC `02:42:ac:12:00:0N`); routes: the default via the Docker gateway, the kind network, one
 *   `/32` per local pod on its veth, and one `via` route per other node's pod CIDR (what kindnetd
 *   programs).
 *
 * - `uname [-asnrvmo]`: GNU coreutils 9's uname over the host kernel every kind node shares (the
 *   kernel the Node reports as `kernelVersion`); `-a` leaves out `-p`/`-i`, which are `unknown`.
 *
 * Not byte-exact: IPv6 addresses of eth0 and link indexes are plausible, not what Docker picks.
 */
import type { Command, ShellContext } from './types';
import type { ClusterNodeAccess } from './cluster-access';
import { processRssBytes } from '../engine/node/systemd';
import { civil } from '../engine/clock';
import { syntheticDigestHex } from '../engine/node/registry';

/** The laptop had been up this long when the cluster's clock started (virtual ms): 3 h 12 min. */
export const HOST_UPTIME_AT_START_MS = (3 * 60 + 12) * 60_000;
/** Disk the laptop's other files take (bytes), before any image: Docker's and the OS's. */
const BASE_DISK_USED_BYTES = 31_400_000_000;
/** Kernel, page tables and caches not in any process (bytes), as `free` counts them in `used`. */
const KERNEL_USED_BYTES = 780 * 1024 * 1024;
/** Page cache (`buff/cache`) of a laptop running a kind cluster (bytes). */
const BUFF_CACHE_BYTES = 3_120 * 1024 * 1024;
/** The laptop's kernel (a kind node is a container: `uname` answers the host's), as the Node's `kernelVersion`. */
export const HOST_KERNEL_RELEASE = '6.8.0-60-generic';
/** `uname -v` of that kernel (Ubuntu 24.04's 6.8.0-60 build). */
export const HOST_KERNEL_VERSION = '#63-Ubuntu SMP PREEMPT_DYNAMIC Tue Apr 15 19:04:15 UTC 2025';
/** Docker network gateway of the kind network. */
const KIND_GATEWAY = '172.18.0.1';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `-h` sizes as coreutils prints them: one decimal below 10, `K`/`M`/`G`/`T`, rounded up. */
function human(bytes: number): string {
  if (bytes === 0) return '0';
  const units = ['', 'K', 'M', 'G', 'T'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return String(bytes);
  if (v < 10) return `${(Math.ceil(v * 10) / 10).toFixed(1)}${units[i]}`;
  return `${Math.ceil(v)}${units[i]}`;
}

/** Bytes of a quantity like `102626232Ki` / `16Gi` / plain bytes. */
function quantityBytes(q: string | undefined, dflt: number): number {
  const m = /^(\d+)(Ki|Mi|Gi|Ti)?$/.exec(q ?? '');
  if (!m) return dflt;
  const mult = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * mult;
}

/** Columns padded to their widest cell (at least `min`); `right` columns are right-aligned. */
function columns(rows: string[][], right: boolean[], min: number[]): string {
  const widths = rows[0].map((_, c) => Math.max(min[c] ?? 0, ...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 && !right[c] ? cell : right[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join(' ')).join('\n') + '\n';
}

/** The node's API object, if the API server answers. */
function nodeObject(ctx: ShellContext, name: string): Obj | undefined {
  try {
    return ctx.api.get('nodes', undefined, name) as Obj;
  } catch {
    return undefined;
  }
}

/** Pods with an IP on this node's pod network (not hostNetwork). */
function localPods(ctx: ShellContext, name: string): Obj[] {
  try {
    return (ctx.api.list('pods').items as Obj[])
      .filter((p) => p.spec?.nodeName === name && !p.spec?.hostNetwork && p.status?.podIP && !['Succeeded', 'Failed'].includes(p.status?.phase))
      .sort((a, b) => (a.status.podIP < b.status.podIP ? -1 : 1));
  } catch {
    return [];
  }
}

/** Bytes of the images in the node's containerd (0 when containerd is down). */
function imageBytes(node: ClusterNodeAccess): number {
  try {
    return node.containerd.listImages().reduce((s, i) => s + i.size, 0);
  } catch {
    return 0;
  }
}

/** The other nodes with a pod CIDR. */
function otherNodes(ctx: ShellContext, name: string): Obj[] {
  try {
    return (ctx.api.list('nodes').items as Obj[]).filter((n) => n.metadata?.name !== name && n.spec?.podCIDR);
  } catch {
    return [];
  }
}

/** The host-side veth name kindnet's ptp plugin gives a pod (`veth` + 8 hex). */
function vethName(pod: Obj): string {
  return `veth${syntheticDigestHex(`veth ${pod.metadata?.uid ?? pod.metadata?.name}`).slice(0, 8)}`;
}

/** The commands `df`, `free`, `uptime`, `ip` of one node. */
export function nodeSystemCommands(node: ClusterNodeAccess): Record<string, Command> {
  const m = node.machine;
  const name = node.name;
  const ipLast = Number(node.nodeIP.split('.')[3] ?? '2');
  const mac = `02:42:ac:12:00:${ipLast.toString(16).padStart(2, '0')}`;

  const df: Command = (argv, io, ctx) => {
    const h = argv.includes('-h') || argv.some((a) => /^-\w*h/.test(a));
    const disk = quantityBytes(nodeObject(ctx, name)?.status?.capacity?.['ephemeral-storage'], 102626232 * 1024);
    const images = imageBytes(node);
    const used = BASE_DISK_USED_BYTES + images * 2;
    const mem = m.memoryBytes;
    const rows: [string, number, number][] = [
      ['overlay', disk, used],
      ['tmpfs', 64 * 1024 * 1024, 0],
      ['shm', 64 * 1024 * 1024, 0],
      ['/dev/sda2', disk, used],
      ['tmpfs', Math.floor(mem / 2), 9_830_400],
      ['tmpfs', 5 * 1024 * 1024, 0],
      ['tmpfs', Math.floor(mem / 2), 0],
    ];
    const mounts = ['/', '/dev', '/dev/shm', '/var', '/run', '/run/lock', '/tmp'];
    const kb = (b: number) => String(Math.ceil(b / 1024));
    const table: string[][] = [[ 'Filesystem', h ? 'Size' : '1K-blocks', 'Used', h ? 'Avail' : 'Available', 'Use%', 'Mounted on']];
    rows.forEach(([fs, size, u], i) => {
      const avail = Math.max(0, size - u - (fs === 'overlay' || fs === '/dev/sda2' ? Math.floor(size * 0.05) : 0));
      const pct = u === 0 ? 0 : Math.ceil((u * 100) / (u + avail));
      table.push([fs, h ? human(size) : kb(size), h ? human(u) : kb(u), h ? human(avail) : kb(avail), `${pct}%`, mounts[i]]);
    });
    // coreutils df.c `field_data`: minimum widths 14 (Filesystem), 5, 5, 5, 4 (Use%).
    io.stdout(columns(table, [false, true, true, true, true, false], [14, 5, 5, 5, 4, 0]));
    return 0;
  };

  const free: Command = (argv, io) => {
    const unit = argv.includes('-g') ? 1024 ** 3 : argv.includes('-k') ? 1024 : argv.includes('-b') ? 1 : argv.includes('-m') ? 1024 ** 2 : argv.includes('-h') ? 0 : 1024;
    const total = m.memoryBytes;
    const procs = m.processes.list().reduce((s, p) => s + processRssBytes(p), 0);
    const used = KERNEL_USED_BYTES + procs;
    const shared = 14 * 1024 * 1024;
    const cache = BUFF_CACHE_BYTES;
    const freeB = Math.max(0, total - used - cache);
    const avail = Math.max(0, total - used);
    const swap = 2 * 1024 ** 3;
    const fmt = (b: number) => (unit === 0 ? humanFree(b) : String(Math.floor(b / unit)));
    const head = ['total', 'used', 'free', 'shared', 'buff/cache', 'available'];
    let out = `${' '.repeat(15)}${head[0].padStart(5)}${head.slice(1).map((x) => x.padStart(12)).join('')}\n`;
    out += `Mem:${fmt(total).padStart(16)}${[used, freeB, shared, cache, avail].map((b) => fmt(b).padStart(12)).join('')}\n`;
    out += `Swap:${fmt(swap).padStart(15)}${[0, swap].map((b) => fmt(b).padStart(12)).join('')}\n`;
    io.stdout(out);
    return 0;
  };

  const uptime: Command = (argv, io, ctx) => {
    const now = ctx.clock.now();
    const up = now + HOST_UPTIME_AT_START_MS;
    if (argv.includes('-p')) {
      const mins = Math.floor(up / 60_000);
      const parts = [];
      if (mins >= 1440) parts.push(`${Math.floor(mins / 1440)} day${Math.floor(mins / 1440) === 1 ? '' : 's'}`);
      if (Math.floor(mins / 60) % 24) parts.push(`${Math.floor(mins / 60) % 24} hour${Math.floor(mins / 60) % 24 === 1 ? '' : 's'}`);
      if (mins % 60) parts.push(`${mins % 60} minute${mins % 60 === 1 ? '' : 's'}`);
      io.stdout(`up ${parts.join(', ')}\n`);
      return 0;
    }
    const c = civil(ctx.clock.epochMs + now);
    const p2 = (n: number) => String(n).padStart(2, '0');
    const mins = Math.floor(up / 60_000);
    const days = Math.floor(mins / 1440);
    const hm = mins % 1440;
    let upText = days ? `${days} day${days === 1 ? '' : 's'}, ` : '';
    upText += hm >= 60 ? `${String(Math.floor(hm / 60)).padStart(2)}:${p2(hm % 60)}` : `${hm} min`;
    const n = m.processes.list().length;
    const load = (f: number) => (Math.min(4, n * 0.012) * f).toFixed(2);
    io.stdout(` ${p2(c.hour)}:${p2(c.minute)}:${p2(c.second)} up ${upText},  0 users,  load average: ${load(1)}, ${load(0.9)}, ${load(0.8)}\n`);
    return 0;
  };

  const ip: Command = (argv, io, ctx) => {
    const args = argv.slice(1).filter((a) => a !== '-4' && a !== '-6' && a !== '-c' && a !== '-br');
    const v4only = argv.includes('-4');
    const obj = args[0] ?? '';
    const pods = localPods(ctx, name);
    if (['addr', 'a', 'address', 'ad'].includes(obj) && (args.length === 1 || ['show', 's', 'list', 'ls'].includes(args[1]))) {
      const want = args[1] && args[2] ? (args[2] === 'dev' ? args[3] : args[2]) : undefined;
      // eth0 keeps the index Docker's veth had on the host; the pod veths are numbered in this netns.
      const eidx = 10 + 2 * ipLast;
      const blocks: { name: string; idx: number; text: string }[] = [];
      blocks.push({
        name: 'lo',
        idx: 1,
        text:
          `1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n` +
          (v4only ? '' : `    inet6 ::1/128 scope host noprefixroute \n       valid_lft forever preferred_lft forever\n`),
      });
      const cidr: string = nodeObject(ctx, name)?.spec?.podCIDR ?? '';
      const gw = cidr ? cidr.replace(/\.0\/\d+$/, '.1') : '';
      pods.forEach((p, i) => {
        const v = vethName(p);
        const idx = i + 2 >= eidx ? i + 3 : i + 2;
        const pmac = syntheticDigestHex(`mac ${p.metadata?.uid}`).slice(0, 12).replace(/(..)(?!$)/g, '$1:').replace(/^./, 'a');
        blocks.push({
          name: v,
          idx,
          text:
            `${idx}: ${v}@if2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 65535 qdisc noqueue state UP group default \n    link/ether ${pmac} brd ff:ff:ff:ff:ff:ff link-netns cni-${syntheticDigestHex(`netns ${p.metadata?.uid}`).slice(0, 8)}-${syntheticDigestHex(`ns2 ${p.metadata?.uid}`).slice(0, 4)}\n` +
            (gw ? `    inet ${gw}/32 scope global ${v}\n       valid_lft forever preferred_lft forever\n` : ''),
        });
      });
      blocks.push({
        name: 'eth0',
        idx: eidx,
        text:
          `${eidx}: eth0@if${eidx + 1}: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP group default \n    link/ether ${mac} brd ff:ff:ff:ff:ff:ff link-netnsid 0\n    inet ${node.nodeIP}/16 brd 172.18.255.255 scope global eth0\n       valid_lft forever preferred_lft forever\n` +
          (v4only ? '' : `    inet6 fc00:f853:ccd:e793::${ipLast}/64 scope global nodad \n       valid_lft forever preferred_lft forever\n    inet6 fe80::42:acff:fe12:${ipLast.toString(16)}/64 scope link \n       valid_lft forever preferred_lft forever\n`),
      });
      blocks.sort((a, b) => a.idx - b.idx);
      const shown = want ? blocks.filter((b) => b.name === want) : blocks;
      if (want && !shown.length) {
        io.stderr(`Device "${want}" does not exist.\n`);
        return 1;
      }
      io.stdout(shown.map((b) => b.text).join(''));
      return 0;
    }
    if (['route', 'r', 'ro', 'rou'].includes(obj) && (args.length === 1 || ['show', 's', 'list', 'ls'].includes(args[1]))) {
      const lines = [`default via ${KIND_GATEWAY} dev eth0 `];
      const others = otherNodes(ctx, name);
      const routes: { key: string; line: string }[] = [];
      for (const o of others) {
        const ipAddr = (o.status?.addresses ?? []).find((a: Obj) => a.type === 'InternalIP')?.address;
        if (ipAddr) routes.push({ key: o.spec.podCIDR, line: `${o.spec.podCIDR} via ${ipAddr} dev eth0 ` });
      }
      for (const p of pods) routes.push({ key: p.status.podIP, line: `${p.status.podIP} dev ${vethName(p)} scope host ` });
      routes.push({ key: '172.18.0.0/16', line: `172.18.0.0/16 dev eth0 proto kernel scope link src ${node.nodeIP} ` });
      const ipKey = (k: string) => k.split(/[./]/).slice(0, 4).map((x) => x.padStart(3, '0')).join('.');
      routes.sort((a, b) => (ipKey(a.key) < ipKey(b.key) ? -1 : 1));
      io.stdout([...lines, ...routes.map((r) => r.line)].join('\n') + '\n');
      return 0;
    }
    if (obj === '' || obj === 'help') {
      io.stderr('Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n       ip [ -force ] -batch filename\nwhere  OBJECT := { address | link | neighbor | route | rule | ... }\n');
      return obj === '' ? 255 : 0;
    }
    io.stderr(`the playground's ip knows \`ip addr\` and \`ip route\`\n`);
    return 1;
  };

  /**
   * coreutils `uname` (src/uname.c): the fields in their fixed order whatever the order of the
   * options, `-a` = `-snrvmo` (processor and hardware platform are `unknown` on Debian; with `-a`
   * they are skipped even when asked for, as uname.c's `toprint == UINT_MAX` test does), no option = `-s`.
   */
  const uname: Command = (argv, io, ctx) => {
    const host = node.machine.fs.tryReadFile('/etc/hostname')?.trim() || ctx.env.HOSTNAME || name;
    const long: Record<string, string> = {
      '--all': 'a', '--kernel-name': 's', '--nodename': 'n', '--kernel-release': 'r', '--kernel-version': 'v',
      '--machine': 'm', '--processor': 'p', '--hardware-platform': 'i', '--operating-system': 'o',
    };
    const want = new Set<string>();
    for (const a of argv.slice(1)) {
      if (a.startsWith('--')) {
        const f = long[a];
        if (!f) {
          io.stderr(`uname: unrecognized option '${a}'\nTry 'uname --help' for more information.\n`);
          return 1;
        }
        want.add(f);
      } else if (a.startsWith('-') && a.length > 1) {
        for (const c of a.slice(1)) {
          if (!'asnrvmpio'.includes(c)) {
            io.stderr(`uname: invalid option -- '${c}'\nTry 'uname --help' for more information.\n`);
            return 1;
          }
          want.add(c);
        }
      } else {
        io.stderr(`uname: extra operand '${a}'\nTry 'uname --help' for more information.\n`);
        return 1;
      }
    }
    const all = want.has('a');
    if (want.size === 0) want.add('s');
    const fields: [string, string][] = [
      ['s', 'Linux'], ['n', host], ['r', HOST_KERNEL_RELEASE], ['v', HOST_KERNEL_VERSION], ['m', 'x86_64'],
      ['p', 'unknown'], ['i', 'unknown'], ['o', 'GNU/Linux'],
    ];
    const out = fields.filter(([f, v]) => (all ? v !== 'unknown' : want.has(f))).map(([, v]) => v);
    io.stdout(out.join(' ') + '\n');
    return 0;
  };

  return { df, free, uptime, ip, uname };
}

/** `free -h`: `15Gi`, `2.1Gi`, `780Mi`. */
function humanFree(b: number): string {
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti'];
  let v = b;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return v < 10 && i > 0 ? `${v.toFixed(1)}${units[i]}` : `${Math.round(v)}${units[i]}`;
}
