/**
 * `kind` on the laptop: `kind version`, `kind get clusters`, `kind get nodes [--name N]`,
 * `kind load docker-image IMAGE... [--name N] [--nodes a,b]`, and the answers `kind create
 * cluster` / `kind delete cluster` give in the playground (one cluster, already there).
 *
 * Wording follows kind's source (pkg/cmd/kind/...): the cluster name defaults to `kind` (or
 * `$KIND_CLUSTER_NAME`), so `kind load docker-image bookshop:v1` without `--name k8s-lab` fails
 * with `ERROR: no nodes found for cluster "kind"` - the trap the bookshop's Makefile avoids.
 * kind logs to stderr; `kind get ...` lists go to stdout.
 */
import type { Command, CommandIO, ShellContext } from './types';
import type { ClusterAccess } from './cluster-access';
import { kindReleaseFor } from './cluster-access';
import { localBuildImage } from '../engine/node/registry';

/** Options of `makeKind`. */
export interface KindOptions {
  cluster: ClusterAccess;
}

interface Parsed {
  name: string;
  nodes?: string[];
  config?: string;
  rest: string[];
  error?: string;
}

function parseFlags(args: string[], ctx: ShellContext): Parsed {
  const p: Parsed = { name: ctx.env.KIND_CLUSTER_NAME || 'kind', rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (): string | undefined => {
      const eq = a.indexOf('=');
      return eq !== -1 ? a.slice(eq + 1) : args[++i];
    };
    if (a === '--name' || a === '-n' || a.startsWith('--name=')) {
      const v = value();
      if (v === undefined) return { ...p, error: `ERROR: flag needs an argument: ${a.startsWith('--') ? "'name'" : "'n' in -n"}` };
      p.name = v;
    } else if (a === '--nodes' || a.startsWith('--nodes=')) {
      const v = value();
      if (v === undefined) return { ...p, error: "ERROR: flag needs an argument: 'nodes'" };
      p.nodes = [...(p.nodes ?? []), ...v.split(',').filter(Boolean)];
    } else if (a === '--config' || a.startsWith('--config=')) {
      const v = value();
      if (v === undefined) return { ...p, error: "ERROR: flag needs an argument: 'config'" };
      p.config = v;
    } else if (a === '--wait' || a === '--image' || a === '--kubeconfig' || a === '--retain' || a === '-q' || a === '--quiet' || a === '-v' || a === '--verbosity') {
      if (a === '--wait' || a === '--image' || a === '--kubeconfig' || a === '-v' || a === '--verbosity') i++;
    } else if (a.startsWith('-') && a !== '-') return { ...p, error: `ERROR: unknown flag: ${a}` };
    else p.rest.push(a);
  }
  return p;
}

/** The `kind` command for a cluster. */
export function makeKind(o: KindOptions): Command {
  const cluster = o.cluster;
  const release = kindReleaseFor(cluster.version);

  const load = (p: Parsed, io: CommandIO): number => {
    const images = p.rest;
    if (images.length === 0) {
      io.stderr('ERROR: a list of image names is required\n');
      return 1;
    }
    const ids: string[] = [];
    for (const img of images) {
      const rec = localBuildImage(img);
      if (!rec) {
        io.stderr(`ERROR: image: "${img}" not present locally\n`);
        return 1;
      }
      ids.push(rec.id);
    }
    if (p.name !== cluster.name) {
      io.stderr(`ERROR: no nodes found for cluster "${p.name}"\n`);
      return 1;
    }
    let candidates = cluster.nodes;
    if (p.nodes) {
      const picked = [];
      for (const n of p.nodes) {
        const node = cluster.nodes.find((x) => x.name === n);
        if (!node) {
          io.stderr(`ERROR: unknown node: "${n}"\n`);
          return 1;
        }
        picked.push(node);
      }
      candidates = picked;
    }
    // As kind does (docker-image.go): per image, the nodes whose store lacks it (or has another ID).
    // `selected` accumulates across images, so "found to be already present" is only printed
    // while nothing has been selected yet - kind's own behaviour.
    const selected: string[] = [];
    for (let i = 0; i < images.length; i++) {
      for (const n of candidates) {
        let have: string | undefined;
        try {
          have = n.containerd.running ? n.containerd.imageStatus(images[i])?.id : undefined;
        } catch {
          have = undefined;
        }
        if (have !== ids[i]) {
          if (!selected.includes(n.name)) selected.push(n.name);
          io.stderr(`Image: "${images[i]}" with ID "${ids[i]}" not yet present on node "${n.name}", loading...\n`);
        }
      }
      if (selected.length === 0) io.stderr(`Image: "${images[i]}" with ID "${ids[i]}" found to be already present on all nodes.\n`);
    }
    if (selected.length === 0) return 0;
    const r = cluster.kindLoad(images, { nodes: selected });
    if (r.exitCode !== 0) {
      io.stderr(r.stderr.startsWith('ERROR') ? r.stderr : `ERROR: ${r.stderr}`);
      return 1;
    }
    return 0;
  };

  return (argv, io, ctx) => {
    const args = argv.slice(1);
    const verb = args[0];
    if (verb === 'version' || verb === '--version') {
      io.stdout(verb === 'version' ? `kind ${release.kind} ${release.go} linux/amd64\n` : `kind version ${release.kind.slice(1)}\n`);
      return 0;
    }
    if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
      io.stdout(KIND_HELP);
      return 0;
    }
    if (verb === 'get') {
      const what = args[1];
      const p = parseFlags(args.slice(2), ctx);
      if (p.error) {
        io.stderr(p.error + '\n');
        return 1;
      }
      if (what === 'clusters') {
        io.stdout(`${cluster.name}\n`);
        return 0;
      }
      if (what === 'nodes') {
        if (p.name !== cluster.name) {
          io.stderr(`No kind nodes found for cluster "${p.name}".\n`);
          return 0;
        }
        for (const n of [...cluster.nodes].reverse()) io.stdout(`${n.name}\n`);
        return 0;
      }
      if (what === 'kubeconfig') {
        io.stderr('ERROR: kind get kubeconfig is not available in the playground (kubectl is already configured for this cluster)\n');
        return 1;
      }
      io.stderr(what === undefined ? 'ERROR: Subcommand is required\n' : `ERROR: unknown command "${what}" for "kind get"\n`);
      return 1;
    }
    if (verb === 'load') {
      if (args[1] !== 'docker-image') {
        io.stderr(args[1] === undefined ? 'ERROR: Subcommand is required\n' : `ERROR: unknown command "${args[1]}" for "kind load"\n`);
        return 1;
      }
      const p = parseFlags(args.slice(2), ctx);
      if (p.error) {
        io.stderr(p.error + '\n');
        return 1;
      }
      return load(p, io);
    }
    if (verb === 'create' || verb === 'delete') {
      const p = parseFlags(args.slice(2), ctx);
      if (args[1] !== 'cluster') {
        io.stderr(args[1] === undefined ? 'ERROR: Subcommand is required\n' : `ERROR: unknown command "${args[1]}" for "kind ${verb}"\n`);
        return 1;
      }
      let name = p.name;
      if (p.config !== undefined && !args.slice(2).some((a) => a === '--name' || a === '-n' || a.startsWith('--name='))) {
        const text = ctx.files.read(p.config);
        if (text === undefined) {
          io.stderr(`ERROR: failed to create cluster: error reading file: open ${p.config}: no such file or directory\n`);
          return 1;
        }
        name = /^name:\s*(\S+)/m.exec(text)?.[1] ?? 'kind';
      }
      if (verb === 'create') {
        if (name === cluster.name) io.stderr(`ERROR: failed to create cluster: node(s) already exist for a cluster with the name "${name}"\n`);
        else io.stderr(`ERROR: the playground runs one cluster ("${cluster.name}"); creating "${name}" is not supported\n`);
        return 1;
      }
      io.stderr(`ERROR: the playground's cluster cannot be deleted from the shell (use Reset to start a fresh one)\n`);
      return 1;
    }
    io.stderr(`ERROR: unknown command "${verb}" for "kind"\n`);
    return 1;
  };
}

const KIND_HELP = `kind creates and manages local Kubernetes clusters using Docker container 'nodes'

Usage:
  kind [command]

Available Commands (in the playground):
  get         Gets one of [clusters, nodes]
  load        Loads images into nodes
  version     Prints the kind CLI version

Flags:
  -h, --help   help for kind
`;
