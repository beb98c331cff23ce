/**
 * `kubectl` inside a kind node. kindest/node ships the release's kubectl (`/usr/bin/kubectl`,
 * the node image's Kubernetes version: kind's node image build installs kubeadm, kubelet and
 * kubectl), but no kubeconfig for it: kind writes the admin kubeconfig to
 * `/etc/kubernetes/admin.conf` on the control plane (kubeadm init) and to the laptop, never to
 * `$HOME/.kube/config` in a node. So, as client-go's loading rules
 * (staging/src/k8s.io/client-go/tools/clientcmd/loader.go `ClientConfigLoadingRules`) decide:
 *
 * - `--kubeconfig FILE` names the file (a missing one: `error: stat FILE: no such file or
 *   directory`); else `$KUBECONFIG` (missing files in it are skipped); else `~/.kube/config`;
 * - no kubeconfig at all: client-go's default server `http://localhost:8080`, which nothing in
 *   the node serves: the discovery lines and `The connection to the server localhost:8080 was
 *   refused - did you specify the right host or port?` (localhost dials `[::1]` first);
 * - kubeadm's admin.conf (read with `--kubeconfig`, `KUBECONFIG=` or copied to
 *   `~/.kube/config` as kubeadm's init message says): the cluster as `kubernetes-admin`,
 *   through `https://<cluster>-control-plane:6443`.
 *
 * Other kubeconfigs of the node (the kubelet's, the controller-manager's, the scheduler's) act as
 * their component's identity, which the playground does not model: kubectl says so instead.
 */
import type { Command, ShellContext } from './types';
import type { ClusterAccess, ClusterNodeAccess } from './cluster-access';
import type { NodeAccess } from './kubectl/node-access';
import type { ApiServer } from '../engine/api/server';
import { errors } from '../engine/api/errors';
import { makeKubectl } from './kubectl';

/** kubectl's flags that carry a kubeconfig path. */
const KUBECONFIG_FLAG = '--kubeconfig';

/** An API server that a client reaches nowhere: every request is refused (`server` named in the error). */
function unreachableApi(api: ApiServer, server: string): ApiServer {
  return new Proxy(api, {
    get(target, prop, receiver) {
      if (prop === 'getAvailability') return () => 'down';
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || prop === 'registry') return v;
      return () => {
        throw errors.connectionRefused(server);
      };
    },
  });
}

/** The path `--kubeconfig` names in `argv` (`--kubeconfig F`, `--kubeconfig=F`), if any. */
function kubeconfigFlag(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (a === KUBECONFIG_FLAG) return argv[i + 1] ?? '';
    if (a.startsWith(`${KUBECONFIG_FLAG}=`)) return a.slice(KUBECONFIG_FLAG.length + 1);
  }
  return undefined;
}

/** Options of `nodeKubectl`. */
export interface NodeKubectlOptions {
  cluster: ClusterAccess;
  node: ClusterNodeAccess;
  /** How kubectl reaches containers (logs, exec), as on the laptop. */
  nodeAccess?: NodeAccess;
}

/** The `kubectl` command of one node (see the file comment). */
export function nodeKubectl(o: NodeKubectlOptions): Command {
  const { cluster, node } = o;
  const cp = cluster.nodes.find((n) => n.role === 'control-plane');
  const server = `${cluster.name}-control-plane:6443`;
  const admin = makeKubectl({
    server,
    dialAddress: `${cp?.nodeIP ?? '172.18.0.2'}:6443`,
    contextName: `kubernetes-admin@${cluster.name}`,
    kubeconfigNames: { cluster: cluster.name, user: 'kubernetes-admin' },
    clientVersion: cluster.version,
    ...(o.nodeAccess ? { nodeAccess: o.nodeAccess } : {}),
    ...(cluster.componentStatuses ? { componentStatuses: () => cluster.componentStatuses!() } : {}),
  });
  const none = makeKubectl({ server: 'localhost:8080', serverUrl: 'http://localhost:8080', dialAddress: '[::1]:8080', contextName: '', clientVersion: cluster.version });
  const abs = (ctx: ShellContext, p: string): string => (p.startsWith('/') ? p : `${ctx.env.PWD ?? '/'}/${p}`.replace(/\/+/g, '/'));
  const read = (ctx: ShellContext, p: string): string | undefined => node.machine.fs.tryReadFile(abs(ctx, p));
  return (argv, io, ctx) => {
    let config: string | undefined;
    let path: string | undefined;
    const flag = kubeconfigFlag(argv);
    if (flag !== undefined) {
      path = flag;
      config = flag === '' ? undefined : read(ctx, flag);
      if (flag !== '' && config === undefined) {
        io.stderr(`error: stat ${flag}: no such file or directory\n`);
        return 1;
      }
    } else {
      const list = (ctx.env.KUBECONFIG ?? '').split(':').filter((p) => p !== '');
      const candidates = list.length > 0 ? list : [`${ctx.env.HOME ?? '/root'}/.kube/config`];
      for (const p of candidates) {
        config = read(ctx, p);
        if (config !== undefined) {
          path = p;
          break;
        }
      }
    }
    if (config === undefined || config.trim() === '') {
      const args = argv.slice(1);
      const words = args.filter((a) => !a.startsWith('-'));
      // An empty configuration: what `config` shows of it (config view/current-context/get-contexts).
      if (words[0] === 'config' && words[1] === 'view' && !args.some((a) => a.startsWith('-o') || a.startsWith('--output'))) {
        io.stdout('apiVersion: v1\nclusters: null\ncontexts: null\ncurrent-context: ""\nkind: Config\npreferences: {}\nusers: null\n');
        return 0;
      }
      if (words[0] === 'config' && words[1] === 'current-context') {
        io.stderr('error: current-context is not set\n');
        return 1;
      }
      if (words[0] === 'config' && words[1] === 'get-contexts' && words.length === 2) {
        io.stdout('CURRENT   NAME   CLUSTER   AUTHINFO   NAMESPACE\n');
        return 0;
      }
      return none(argv, io, { ...ctx, api: unreachableApi(ctx.api, 'localhost:8080') });
    }
    const adminConf = cp?.machine.fs.tryReadFile('/etc/kubernetes/admin.conf');
    if (adminConf === undefined || config !== adminConf) {
      io.stderr(`error: the playground's kubectl in a node reads only kubeadm's admin kubeconfig (/etc/kubernetes/admin.conf), not ${path}\n`);
      return 1;
    }
    return admin(argv, io, ctx);
  };
}
