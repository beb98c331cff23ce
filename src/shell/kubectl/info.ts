/**
 * kubectl's information commands: `version`, `api-resources`, `api-versions`, `cluster-info`
 * and `config view|current-context|get-contexts|use-context` for the kind cluster's kubeconfig.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/version/version.go (`Client Version`, `Kustomize
 * Version`, `Server Version`; `-o json` indented by two spaces; the skew warning beyond one
 * minor), apiresources/apiresources.go (NAME SHORTNAMES APIVERSION NAMESPACED KIND, wide adds
 * VERBS CATEGORIES; sorted by group), apiresources/apiversions.go, clusterinfo/clusterinfo.go
 * (services labelled `kubernetes.io/cluster-service=true` in kube-system; printed without the
 * colours kubectl uses on a terminal) and config/*.go with kind's kubeconfig (`kind-k8s-lab`,
 * `DATA+OMITTED`).
 */
import { toYaml } from '../../engine/api/yaml';
import { PrintError, printObjects, tabwrite } from '../printers';
import type { KubeObject } from '../../engine/api/types';
import { CONVERTED_VERSIONS } from '../../engine/api/registry';
import { CmdError, discover, discoveryErrorLines, fail, refusedMessage, type Env } from './env';
import { COMMANDS } from './helpdata';

/** kubectl's embedded kustomize (v5.7.x since kubectl 1.34). */
export const KUSTOMIZE_VERSION = 'v5.7.1';

/** The Kubernetes version when no node reports one (src/engine/cluster/defaults.ts). */
const FALLBACK_SERVER_VERSION = 'v1.35.0';

/** The API server's version: the control-plane node's kubelet version (kind ships one version). */
export function serverVersion(env: Env): string {
  const nodes = env.api.list('nodes').items;
  const cp = nodes.find((n) => n.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined) ?? nodes[0];
  return cp?.status?.nodeInfo?.kubeletVersion ?? FALLBACK_SERVER_VERSION;
}

function versionInfo(git: string, commit: string, build: string, goVersion: string, server = false): Record<string, string> {
  const m = /^v(\d+)\.(\d+)/.exec(git);
  const major = m?.[1] ?? '1';
  const minor = m?.[2] ?? '0';
  return {
    major,
    minor,
    // A server's version.Info also carries its compatibility versions (component-base
    // compatibility effectiveVersion.Info, 1.33+): emulating itself, compatible with the minor
    // before. The client's (kubectl's own build info) has none.
    ...(server ? { emulationMajor: major, emulationMinor: minor, minCompatibilityMajor: major, minCompatibilityMinor: String(Math.max(0, Number(minor) - 1)) } : {}),
    gitVersion: git,
    gitCommit: commit,
    gitTreeState: 'clean',
    buildDate: build,
    goVersion,
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/**
 * kube-apiserver's `/version` document for `gitVersion` (`v1.35.0`), fields in version.Info's
 * order: the build of the node image's kube-apiserver.
 */
export function serverVersionInfo(gitVersion: string): Record<string, string> {
  return versionInfo(gitVersion, '5e1c7a9b3d2f4e6a8c0b1d3f5a7c9e1b3d5f7a9c', '2025-12-17T15:38:52Z', 'go1.25.5', true);
}

/** `kubectl version [--client] [-o json|yaml]`. */
export function version(env: Env): number {
  const output = env.flags.str('output');
  if (output !== '' && output !== 'json' && output !== 'yaml') throw fail(`--output must be 'yaml' or 'json'`);
  const client = versionInfo(env.options.clientVersion, 'a8b2c3d4e5f60718293a4b5c6d7e8f9012345678', '2026-05-12T10:21:44Z', 'go1.26.2');
  const clientOnly = env.flags.bool('client');
  let server: Record<string, string> | undefined;
  let serverErr: unknown;
  if (!clientOnly) {
    try {
      const v = serverVersion(env);
      server = serverVersionInfo(v);
    } catch (e) {
      serverErr = e;
    }
  }
  if (output === 'json' || output === 'yaml') {
    const doc: Record<string, unknown> = { clientVersion: client, kustomizeVersion: KUSTOMIZE_VERSION };
    if (server) doc.serverVersion = server;
    env.out(output === 'json' ? JSON.stringify(doc, null, 2) + '\n' : toYaml(doc));
  } else {
    env.out(`Client Version: ${client.gitVersion}\nKustomize Version: ${KUSTOMIZE_VERSION}\n`);
    if (server) env.out(`Server Version: ${server.gitVersion}\n`);
  }
  if (server) {
    const skew = Math.abs(Number(client.minor) - Number(server.minor));
    if (client.major === server.major && skew > 1) {
      env.err(`WARNING: version difference between client (${client.major}.${client.minor}) and server (${server.major}.${server.minor}) exceeds the supported minor version skew of +/-1\n`);
    }
  }
  if (serverErr) throw serverErr;
  return 0;
}

/** `kubectl api-resources`. */
export function apiResources(env: Env): number {
  const output = env.flags.str('output');
  if (output !== '' && output !== 'wide' && output !== 'name') throw fail(`--output ${output} is not available`);
  const wide = output === 'wide';
  const header = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', ...(wide ? ['VERBS', 'CATEGORIES'] : [])].join('\t');
  if (env.api.getAvailability() === 'down') {
    // Discovery fails once; kubectl has already printed the (empty) table's header.
    env.err(discoveryErrorLines(env, 1));
    if (output !== 'name' && !env.flags.bool('no-headers')) env.out(tabwrite(header + '\n'));
    throw new CmdError(`The connection to the server ${env.options.server} was refused - did you specify the right host or port?`);
  }
  let types = [...env.api.registry.all()];
  if (env.flags.changed('namespaced')) types = types.filter((t) => t.namespaced === env.flags.bool('namespaced'));
  if (env.flags.changed('api-group')) types = types.filter((t) => t.group === env.flags.str('api-group'));
  const verbs = env.flags.list('verbs');
  if (verbs.length) types = types.filter((t) => verbs.every((v) => t.verbs.includes(v)));
  const cats = env.flags.list('categories');
  if (cats.length) types = types.filter((t) => cats.every((c) => t.categories.includes(c)));
  const sortBy = env.flags.str('sort-by');
  const key = (t: (typeof types)[number]) => (sortBy === 'name' ? t.resource : sortBy === 'kind' ? t.kind : t.group);
  types = types
    .map((t, i) => ({ t, i }))
    .sort((a, b) => {
      const ka = key(a.t);
      const kb = key(b.t);
      if (ka !== kb) return ka < kb ? -1 : 1;
      if (a.t.group === b.t.group && a.t.resource !== b.t.resource) return a.t.resource < b.t.resource ? -1 : 1;
      return a.i - b.i;
    })
    .map((x) => x.t);
  if (output === 'name') {
    for (const t of types) env.out(`${t.resource}${t.group ? `.${t.group}` : ''}\n`);
    return 0;
  }
  const lines: string[] = [];
  if (!env.flags.bool('no-headers')) lines.push(header);
  for (const t of types) {
    const cells = [t.resource, t.shortNames.join(','), t.group ? `${t.group}/${t.version}` : t.version, String(t.namespaced), t.kind];
    if (wide) cells.push([...t.verbs].sort().join(','), t.categories.join(','));
    lines.push(cells.join('\t'));
  }
  env.out(tabwrite(lines.join('\n') + '\n'));
  return 0;
}

/** `kubectl api-versions`: every group/version the server serves, sorted. */
export function apiVersions(env: Env): number {
  discover(env, 5);
  const set = new Set<string>();
  for (const t of [...env.api.registry.all(), ...CONVERTED_VERSIONS]) set.add(t.group ? `${t.group}/${t.version}` : t.version);
  for (const gv of [...set].sort()) env.out(gv + '\n');
  return 0;
}

/** `kubectl cluster-info`. */
export function clusterInfo(env: Env): number {
  if (env.flags.args[0] === 'dump') throw fail('cluster-info dump is not available in this playground');
  // clusterinfo.go Run: the dump hint is written whether or not the services could be listed,
  // then the listing's error (here the discovery failure: its log lines came first) is returned.
  if (env.api.getAvailability() === 'down') {
    env.err(discoveryErrorLines(env, 5));
    env.out(CLUSTER_INFO_DUMP_HINT);
    throw new CmdError(refusedMessage(env.options.server));
  }
  const base = env.options.serverUrl;
  // Complete: `-n` names the namespace listed (kube-system when not given). Run: the visitor
  // gets the list's error before it prints anything (a Forbidden `--as` user sees no control
  // plane line), the dump hint is written all the same, then the error is returned.
  let services;
  try {
    services = env.api.list('services', { namespace: env.explicitNamespace ? env.namespace : 'kube-system', labelSelector: 'kubernetes.io/cluster-service=true' }).items;
  } catch (e) {
    env.out(CLUSTER_INFO_DUMP_HINT);
    throw e;
  }
  env.out(`Kubernetes control plane is running at ${base}\n`);
  for (const svc of services) {
    const name = svc.metadata.labels?.['kubernetes.io/name'] ?? svc.metadata.name;
    const port = svc.spec?.ports?.[0];
    const portName = port?.name ? `:${port.name}` : '';
    // clusterinfo.go: "guess if the scheme is https" from the port's name or number.
    const scheme = port?.name === 'https' || port?.port === 443 ? 'https:' : '';
    env.out(`${name} is running at ${base}/api/v1/namespaces/${svc.metadata.namespace}/services/${scheme}${svc.metadata.name}${portName}/proxy\n`);
  }
  env.out(CLUSTER_INFO_DUMP_HINT);
  return 0;
}

/** The last lines of `kubectl cluster-info` (clusterinfo.go), printed even when listing failed. */
const CLUSTER_INFO_DUMP_HINT = "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n";

/** kind's kubeconfig for the cluster. */
function kubeconfig(env: Env): Record<string, unknown> {
  const n = env.options.contextName;
  const { cluster, user } = env.options.kubeconfigNames;
  return {
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': 'DATA+OMITTED', server: env.options.serverUrl }, name: cluster }],
    contexts: [{ context: { cluster, ...(env.state.namespace !== 'default' ? { namespace: env.state.namespace } : {}), user }, name: n }],
    'current-context': n,
    kind: 'Config',
    preferences: {},
    users: [{ name: user, user: { 'client-certificate-data': 'DATA+OMITTED', 'client-key-data': 'DATA+OMITTED' } }],
  };
}

/** `kubectl config view`. */
export function configView(env: Env): number {
  const output = env.flags.str('output') || 'yaml';
  const cfg = kubeconfig(env);
  if (output === 'json') env.out(JSON.stringify(cfg, null, 4) + '\n');
  else if (output === 'yaml') env.out(toYaml(cfg));
  else if (output.startsWith('jsonpath')) {
    try {
      env.out(printObjects([cfg as unknown as KubeObject], output, { list: false }));
    } catch (e) {
      if (e instanceof PrintError) throw fail(e.message);
      throw e;
    }
  } else throw fail(`unable to match a printer suitable for the output format "${output}", allowed formats are: json,jsonpath,jsonpath-as-json,jsonpath-file,yaml`);
  return 0;
}

/** `kubectl config current-context`. */
export function configCurrentContext(env: Env): number {
  env.out(`${env.options.contextName}\n`);
  return 0;
}

/** `kubectl config get-contexts`. */
export function configGetContexts(env: Env): number {
  const n = env.options.contextName;
  const names = env.flags.args;
  // get_contexts.go: the known names are printed (after the header), each unknown one is an error.
  const missing = names.filter((x) => x !== n);
  const show = names.length === 0 || names.includes(n);
  const nameOnly = env.flags.str('output') === 'name';
  const lines = [];
  if (!nameOnly && !env.flags.bool('no-headers')) lines.push('CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE');
  const { cluster, user } = env.options.kubeconfigNames;
  if (show) lines.push(nameOnly ? n : `*\t${n}\t${cluster}\t${user}\t${env.state.namespace === 'default' ? '' : env.state.namespace}`);
  if (lines.length) env.out(nameOnly ? lines.join('\n') + '\n' : tabwrite(lines.join('\n') + '\n'));
  if (missing.length === 1) throw fail(`context ${missing[0]} not found`);
  // An aggregate of several errors prints one per line, without the `error: ` prefix.
  if (missing.length > 1) throw new CmdError(missing.map((x) => `context ${x} not found`).join('\n'));
  return 0;
}

/** `kubectl config use-context NAME` (only kind's context exists). */
export function configUseContext(env: Env): number {
  // use_context.go complete: anything but one argument prints the help, then the error.
  if (env.flags.args.length !== 1) {
    env.out(COMMANDS['config use-context']?.help ?? '');
    throw fail(`Unexpected args: [${env.flags.args.join(' ')}]`);
  }
  const name = env.flags.args[0];
  if (!name) throw fail('empty context names are not allowed');
  if (name !== env.options.contextName) throw fail(`no context exists with the name: "${name}"`);
  env.out(`Switched to context "${name}".\n`);
  return 0;
}

/**
 * `kubectl config set-context --current --namespace=NS` (or the context's name): changes the
 * namespace later commands use without `-n`; prints `Context "kind-k8s-lab" modified.`.
 * Only kind's context exists here.
 */
export function configSetContext(env: Env): number {
  const n = env.options.contextName;
  const name = env.flags.args[0];
  if (!name && !env.flags.bool('current')) throw fail('you must specify a non-empty context name or --current');
  if (name && env.flags.bool('current')) throw fail('you cannot specify both a context name and --current');
  if (name && name !== n) throw fail(`only the context "${n}" exists in this playground`);
  if (env.flags.changed('namespace')) env.state.namespace = env.flags.str('namespace') || 'default';
  env.out(`Context "${n}" modified.\n`);
  return 0;
}
