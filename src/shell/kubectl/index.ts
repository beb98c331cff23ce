/**
 * `kubectl` for the playground shell: finds the subcommand in argv as cobra does, parses its
 * flags as pflag does, and runs it against the simulated API server.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (`NewKubectlCommand`: the command groups,
 * the global flags, the flag error function) and github.com/spf13/cobra command.go (`Find`,
 * `stripFlags`, `findSuggestions`, `legacyArgs`): `kubectl` alone and `-h`/`--help` print help
 * to stdout (exit 0); an unknown command prints `Error: unknown command "x" for "kubectl"`
 * with suggestions; flag errors print `Error: <err>\nSee 'kubectl <cmd> --help' for usage.`;
 * all failures exit 1.
 */
import { changeCause, recordingApi } from './record';
import { impersonatingApi } from './impersonate';
import type { Command, CommandIO, Pending, ShellContext } from '../types';
import { COMMANDS, OPTIONS_HELP, type FlagDef } from './helpdata';
import { FlagError, FlagSet, Flags, suggestionsFor, type ParsedFlags } from './flags';
import { CmdError, errorText, refusedMessage, type Env, type KubectlOptions, type KubectlState, type Subcommand } from './env';
import { ApiError } from '../../engine/api/errors';
import { get } from './get';
import { describe } from './describe';
import { apply } from './apply';
import { replace } from './replace';
import { create, createConfigMap, createDeployment, createJob, createNamespace, createSecretDockerRegistry, createSecretGeneric, createService } from './create';
import { deleteCmd } from './delete';
import { scale } from './scale';
import { autoscale } from './autoscale';
import { rolloutHistory, rolloutPause, rolloutRestart, rolloutResume, rolloutStatus, rolloutUndo } from './rollout';
import { setImage, setServiceAccount } from './setimage';
import { annotate, label } from './label';
import { cordon, drain, uncordon } from './drain';
import { wait } from './wait';
import { edit } from './edit';
import { apiResources, apiVersions, clusterInfo, configCurrentContext, configGetContexts, configSetContext, configUseContext, configView, version } from './info';
import { explain } from './explain';
import { diff } from './diff';
import { logs } from './logs';
import { exec } from './exec';
import { expose, patch, run as runCmd, taint, top } from './extras';
import { attachCmd } from './attach';
import { events } from './events';
import { authCanI, authWhoami } from './auth';
import { setEnv, setResources } from './setenv';
import { createClusterRole, createClusterRoleBinding, createCronJob, createIngress, createPdb, createPriorityClass, createQuota, createRole, createRoleBinding, createServiceAccount, createToken } from './create2';

export type { KubectlOptions } from './env';
export type { NodeAccess, LogOptions, ExecResult, NodeAccessError, LogStream } from './node-access';

/** Implemented subcommands by command path. */
const SUBCOMMANDS: Record<string, Subcommand> = {
  get,
  describe,
  apply,
  create,
  'create deployment': createDeployment,
  'create namespace': createNamespace,
  'create secret generic': createSecretGeneric,
  'create secret docker-registry': createSecretDockerRegistry,
  replace,
  'create configmap': createConfigMap,
  'create service clusterip': (env) => createService(env, 'ClusterIP'),
  'create service nodeport': (env) => createService(env, 'NodePort'),
  'create service loadbalancer': (env) => createService(env, 'LoadBalancer'),
  'create service externalname': (env) => createService(env, 'ExternalName'),
  'create job': createJob,
  'create cronjob': createCronJob,
  'create ingress': createIngress,
  'create role': createRole,
  'create clusterrole': createClusterRole,
  'create rolebinding': createRoleBinding,
  'create clusterrolebinding': createClusterRoleBinding,
  'create quota': createQuota,
  'create poddisruptionbudget': createPdb,
  'create serviceaccount': createServiceAccount,
  'create priorityclass': createPriorityClass,
  'create token': createToken,
  delete: deleteCmd,
  scale,
  autoscale,
  'rollout status': rolloutStatus,
  'rollout history': rolloutHistory,
  'rollout undo': rolloutUndo,
  'rollout restart': rolloutRestart,
  'rollout pause': rolloutPause,
  'rollout resume': rolloutResume,
  'set image': setImage,
  'set env': setEnv,
  'set resources': setResources,
  'set serviceaccount': setServiceAccount,
  label,
  annotate,
  cordon,
  uncordon,
  drain,
  wait,
  edit,
  version,
  'api-resources': apiResources,
  'api-versions': apiVersions,
  explain,
  diff,
  'config view': configView,
  'config current-context': configCurrentContext,
  'config get-contexts': configGetContexts,
  'config use-context': configUseContext,
  'config set-context': configSetContext,
  'cluster-info': clusterInfo,
  logs,
  attach: attachCmd,
  exec,
  run: runCmd,
  expose,
  patch,
  taint,
  events,
  'auth can-i': authCanI,
  'auth whoami': authWhoami,
};

/** Command groups: their subcommands (help printed when called bare, unless listed in `BARE_RUNS`). */
const GROUPS: Record<string, string[]> = {
  create: ['clusterrole', 'clusterrolebinding', 'configmap', 'cronjob', 'deployment', 'ingress', 'job', 'namespace', 'poddisruptionbudget', 'priorityclass', 'quota', 'role', 'rolebinding', 'secret', 'service', 'serviceaccount', 'token'],
  'create secret': ['docker-registry', 'generic', 'tls'],
  'create service': ['clusterip', 'externalname', 'loadbalancer', 'nodeport'],
  auth: ['can-i', 'reconcile', 'whoami'],
  rollout: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
  set: ['env', 'image', 'resources', 'selector', 'serviceaccount', 'subject'],
  config: ['current-context', 'delete-cluster', 'delete-context', 'delete-user', 'get-clusters', 'get-contexts', 'get-users', 'rename-context', 'set', 'set-cluster', 'set-context', 'set-credentials', 'unset', 'use-context', 'view'],
};

/** Groups that run themselves when called without a subcommand (`kubectl create -f x`). */
const BARE_RUNS = new Set(['create']);

/** kubectl's top-level commands in the order cobra adds them (for suggestions). */
const TOP_LEVEL = [
  'create', 'expose', 'run', 'set', 'explain', 'get', 'edit', 'delete', 'rollout', 'scale', 'autoscale', 'certificate', 'cluster-info', 'top',
  'cordon', 'uncordon', 'drain', 'taint', 'describe', 'logs', 'attach', 'exec', 'port-forward', 'proxy', 'cp', 'auth', 'debug', 'events', 'diff',
  'apply', 'patch', 'replace', 'wait', 'kustomize', 'label', 'annotate', 'completion', 'alpha', 'api-resources', 'api-versions', 'config',
  'plugin', 'version', 'options', 'help',
];

/** cobra `SuggestFor` entries kubectl declares (delete.go: `SuggestFor: []string{"rm"}`). */
const SUGGEST_FOR: Record<string, string[]> = { delete: ['rm'] };

/** Subcommand aliases (cobra `Aliases` of the create generators). */
const ALIASES: Record<string, string> = {
  'create ns': 'namespace',
  'create cm': 'configmap',
  'create deploy': 'deployment',
  'create svc': 'service',
  'create sa': 'serviceaccount',
  'create pdb': 'poddisruptionbudget',
  'create pc': 'priorityclass',
  'create cj': 'cronjob',
  'create ing': 'ingress',
  'create resourcequota': 'quota',
  // set_serviceaccount.go: `Aliases: []string{"sa"}`.
  'set sa': 'serviceaccount',
}

/** Hidden, deprecated flags kubectl still accepts (with a warning). */
const RECORD_FLAG: FlagDef = ['record', '', 'bool', 'false'];
const RECORD_COMMANDS = new Set(['annotate', 'apply', 'autoscale', 'create', 'create deployment', 'edit', 'label', 'scale', 'set image', 'set serviceaccount', 'rollout undo', 'rollout restart', 'rollout pause', 'rollout resume', 'run', 'expose', 'patch']);

/** Global flags that take a value (cobra's `stripFlags` must skip their values to find the command). */
const GLOBAL_VALUE_FLAGS = new Set(['-n', '--namespace', '-s', '--server', '--context', '--kubeconfig', '--cluster', '--user', '--token', '--as', '--as-group', '--as-uid', '--request-timeout', '--cache-dir', '--certificate-authority', '--client-certificate', '--client-key', '--password', '--username', '--profile', '--profile-output', '--tls-server-name', '--vmodule', '--log-flush-frequency', '-v', '--v']);

/** Split argv (without `kubectl`) into the command path and the rest, skipping flags as cobra's `stripFlags` does. */
function findCommand(args: string[]): { path: string[]; rest: string[] } {
  const path: string[] = [];
  const rest: string[] = [];
  let group = '';
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (a.startsWith('-') && a.length > 1) {
      rest.push(a);
      if (!a.includes('=') && GLOBAL_VALUE_FLAGS.has(a) && i + 1 < args.length) rest.push(args[++i]);
      continue;
    }
    const word = ALIASES[`${group} ${a}`] ?? a;
    if (path.length === 0 || (GROUPS[group] && GROUPS[group].includes(word) && path.length < 3)) {
      path.push(word);
      group = group === '' ? word : `${group} ${word}`;
      continue;
    }
    rest.push(a);
    rest.push(...args.slice(i + 1));
    break;
  }
  return { path, rest };
}

/** kubectl's version as `kubectl version` prints it. */
const DEFAULT_CLIENT_VERSION = 'v1.36.1';

/** `makeKubectl()` with no node layer. */
export function makeKubectl(options: KubectlOptions = {}): Command {
  const state: KubectlState = { pid: 45934, namespace: 'default' };
  const server = options.server ?? '127.0.0.1:6443';
  const opts = {
    clientVersion: options.clientVersion ?? DEFAULT_CLIENT_VERSION,
    server,
    contextName: options.contextName ?? 'kind-k8s-lab',
    serverUrl: options.serverUrl ?? `https://${server}`,
    dialAddress: options.dialAddress ?? server,
    kubeconfigNames: options.kubeconfigNames ?? { cluster: options.contextName ?? 'kind-k8s-lab', user: options.contextName ?? 'kind-k8s-lab' },
    nodeAccess: options.nodeAccess,
    componentStatuses: options.componentStatuses,
  };
  return (argv: string[], io: CommandIO, ctx: ShellContext): number | Pending => {
    state.pid += 17;
    const out = (t: string) => io.stdout(t);
    const err = (t: string) => io.stderr(t);
    const { path: words, rest } = findCommand(argv.slice(1));
    if (words.length === 0) {
      // `kubectl` alone, or with only flags: -h/--help or nothing prints help.
      const fs = new FlagSet([]);
      try {
        fs.parse(rest);
      } catch (e) {
        if (e instanceof FlagError) {
          err(`Error: ${e.message}\nSee 'kubectl --help' for usage.\n`);
          return 1;
        }
        throw e;
      }
      out(COMMANDS[''].help);
      return 0;
    }
    const top = words[0];
    if (top === 'help') {
      const target = words.slice(1).concat(rest.filter((r) => !r.startsWith('-'))).join(' ');
      const h = COMMANDS[target];
      if (h) {
        out(h.help);
        return 0;
      }
      out(COMMANDS[''].help);
      return 0;
    }
    if (top === 'options') {
      out(OPTIONS_HELP);
      return 0;
    }
    if (!TOP_LEVEL.includes(top)) {
      const sugg = suggestionsFor(top, TOP_LEVEL, SUGGEST_FOR);
      let msg = `Error: unknown command "${top}" for "kubectl"\n`;
      if (sugg.length) msg += `\nDid you mean this?\n${sugg.map((s) => `\t${s}\n`).join('')}\n`;
      err(msg);
      return 1;
    }
    // The deepest known command path.
    const pathWords = [top];
    for (let i = 1; i < words.length; i++) pathWords.push(words[i]);
    const path = pathWords.join(' ');
    const args = rest;
    // A group's unknown subcommand / a group called bare.
    while (GROUPS[path] && !BARE_RUNS.has(path)) {
      const next = args.find((a) => !a.startsWith('-'));
      const fs = new FlagSet(COMMANDS[path]?.flags ?? []);
      let parsed;
      try {
        parsed = fs.parse(args);
      } catch (e) {
        if (e instanceof FlagError) {
          err(`Error: ${e.message}\nSee 'kubectl ${path} --help' for usage.\n`);
          return 1;
        }
        throw e;
      }
      if (parsed.help) {
        out(COMMANDS[path]?.help ?? '');
        return 0;
      }
      if (next === undefined) {
        // cmdutil.DefaultSubCommandRun(streams.ErrOut): help on stderr, exit 1; rollout's own Run
        // prints it on stdout, and exits 1 all the same.
        (path === 'rollout' ? out : err)(COMMANDS[path]?.help ?? '');
        return 1;
      }
      err(`error: unknown command "${next}"\nSee 'kubectl ${path} -h' for help and examples\n`);
      return 1;
    }
    if (top === 'top') return runTop(io, ctx, opts, state, rest);
    const spec = COMMANDS[path];
    const run = SUBCOMMANDS[path];
    if (!spec || !run) {
      err(`error: "kubectl ${path}" is not available in this playground\n`);
      return 1;
    }
    const fs = new FlagSet(spec.flags, RECORD_COMMANDS.has(path) ? [RECORD_FLAG] : []);
    let parsed;
    try {
      parsed = fs.parse(args);
    } catch (e) {
      if (e instanceof FlagError) {
        err(`Error: ${e.message}\nSee 'kubectl ${path} --help' for usage.\n`);
        return 1;
      }
      throw e;
    }
    if (parsed.help) {
      out(spec.help);
      return 0;
    }
    const tplErr = inlineTemplateOutput(parsed, ctx.files);
    if (tplErr !== undefined) {
      err(`error: ${tplErr}\n`);
      return 1;
    }
    const flags = new Flags(parsed);
    if (flags.changed('record')) err('Flag --record has been deprecated, --record will be removed in the future\n');
    // record_flags.go: --record=true writes the command line as the change-cause annotation.
    let api = ctx.api;
    if (RECORD_COMMANDS.has(path) && flags.bool('record')) {
      let whole;
      try {
        whole = fs.parse(argv.slice(1));
      } catch {
        whole = parsed;
      }
      api = recordingApi(ctx.api, changeCause(whole));
    }
    // --as: every request is authorized as the impersonated user (impersonation.go); can-i and
    // whoami ask the server about that user themselves, the rest only use discovery or kubeconfig.
    const as = flags.str('as');
    if (as && !IMPERSONATION_EXEMPT.has(path)) api = impersonatingApi(api, as, flags.list('as-group'), path === 'describe' ? new Set(['events']) : undefined);
    const env: Env = {
      io,
      ctx,
      api,
      path,
      flags,
      namespace: flags.str('namespace') || state.namespace,
      explicitNamespace: flags.changed('namespace'),
      options: opts,
      state,
      out,
      err,
    };
    try {
      const r = run(env);
      if (typeof r === 'number') return r;
      return guardPending(env, r);
    } catch (e) {
      // A dial that never reached a server names the server of kubectl's kubeconfig (the API
      // server's own error text knows only its in-cluster address).
      const t = e instanceof ApiError && e.connectionRefused ? refusedMessage(opts.server) : errorText(e);
      err(t.endsWith('\n') ? t : t + '\n');
      return e instanceof CmdError ? e.code : 1;
    }
  };
}

/**
 * Commands that `--as` does not turn into impersonated requests: can-i and whoami send their own
 * reviews about the user; the others read only discovery, the OpenAPI schema or the kubeconfig.
 */
const IMPERSONATION_EXEMPT = new Set(['auth can-i', 'auth whoami', 'api-resources', 'api-versions', 'explain', 'version', 'completion', 'config view', 'config current-context', 'config get-contexts', 'config set-context', 'config use-context']);

/** `kubectl top`'s help (top.go), printed on stderr when it is called without a subcommand. */
const TOP_HELP =
  'Display resource (CPU/memory) usage.\n\n The top command allows you to see the resource consumption for nodes or pods.\n\n This command requires Metrics Server to be correctly configured and working on the server.\n\nAvailable Commands:\n  node          Display resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods\n\nUsage:\n  kubectl top [flags] [options]\n\nUse "kubectl top <command> --help" for more information about a given command.\nUse "kubectl options" for a list of global command-line options (applies to all commands).\n';

/** The subcommands of `kubectl top` and their aliases. */
const TOP_SUBCOMMANDS = new Set(['node', 'nodes', 'no', 'pod', 'pods', 'po']);

/**
 * `kubectl top pod|node`: no metrics-server in kind. The subcommand and `--sort-by` are checked
 * first, as top_pod.go / top_node.go `Validate` do; other flags are not modelled.
 */
function runTop(io: CommandIO, ctx: ShellContext, options: Env['options'], state: KubectlState, rest: string[]): number {
  const sub = rest.find((a, i) => !a.startsWith('-') && !/^(-n|--namespace|--sort-by|-l|--selector)$/.test(rest[i - 1] ?? ''));
  if (sub === undefined) {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(TOP_HELP);
      return 0;
    }
    io.stderr(TOP_HELP);
    return 1;
  }
  if (!TOP_SUBCOMMANDS.has(sub)) {
    io.stderr(`error: unknown command "${sub}"\nSee 'kubectl top -h' for help and examples\n`);
    return 1;
  }
  const sortAt = rest.findIndex((a) => a === '--sort-by' || a.startsWith('--sort-by='));
  const sortBy = sortAt < 0 ? '' : rest[sortAt].startsWith('--sort-by=') ? rest[sortAt].slice('--sort-by='.length) : (rest[sortAt + 1] ?? '');
  if (sortBy !== '' && sortBy !== 'cpu' && sortBy !== 'memory') {
    io.stderr('error: --sort-by accepts only cpu or memory\n');
    return 1;
  }
  const fs = new FlagSet([]);
  let ns = state.namespace;
  try {
    ns = (fs.parse(rest.filter((a) => a.startsWith('-n') || a.startsWith('--namespace') || !a.startsWith('-'))).values.get('namespace') as string) || state.namespace;
  } catch {
    // `kubectl top` flags this playground does not model are ignored.
  }
  const env: Env = {
    io,
    ctx,
    api: ctx.api,
    path: 'top',
    flags: new Flags(fs.parse([])),
    namespace: ns,
    explicitNamespace: false,
    options,
    state,
    out: (t) => io.stdout(t),
    err: (t) => io.stderr(t),
  };
  try {
    return top(env);
  } catch (e) {
    const t = errorText(e);
    io.stderr(t.endsWith('\n') ? t : t + '\n');
    return 1;
  }
}

/** Errors thrown while a Pending runs are printed like any other kubectl error. */
function guardPending(env: Env, p: Pending): Pending {
  let failed: number | undefined;
  const wrap = <T>(fn: () => T, dflt: T): T => {
    if (failed !== undefined) return dflt;
    try {
      return fn();
    } catch (e) {
      const t = errorText(e);
      env.err(t.endsWith('\n') ? t : t + '\n');
      failed = e instanceof CmdError ? e.code : 1;
      return dflt;
    }
  };
  return {
    poll: () => (failed !== undefined ? failed : wrap(() => p.poll(), undefined) ?? failed),
    cancel: () => wrap(() => p.cancel(), undefined),
    wakeAt: p.wakeAt ? () => (failed !== undefined ? undefined : wrap(() => p.wakeAt!(), undefined)) : undefined,
  };
}

/** kubectl with no node layer (logs/exec explain that containers are not reachable). */
export const kubectl: Command = makeKubectl();

/**
 * Fold `--template` and template files into `-o` as `go-template=TEXT`, the one form the
 * printers take (genericclioptions/template_flags.go `ToPrinter`, get_flags.go):
 * - `--template T` with no `-o` selects `go-template` (get_flags.go: "For backwards
 *   compatibility we want to support a --template argument given, even when no --output format
 *   is provided");
 * - `-o go-template` / `-o template` take the template from `--template` unless the value
 *   carries it (`-o go-template=T`);
 * - `-o go-template-file=F` / `templatefile` / with `--template F` read the file F; a missing
 *   file is `error reading --template F, open F: no such file or directory` (returned, with
 *   kubectl's trailing newline dropped; the caller prints it after `error: `).
 * Commands without a `--template` flag are left alone. Mutates `parsed.values`.
 */
function inlineTemplateOutput(parsed: ParsedFlags, files: ShellContext['files']): string | undefined {
  const tpl = parsed.values.get('template');
  if (typeof tpl !== 'string') return undefined;
  let output = String(parsed.values.get('output') ?? '');
  if (output === '' && tpl !== '') output = 'go-template';
  const eq = output.indexOf('=');
  const format = eq < 0 ? output : output.slice(0, eq);
  if (!['go-template', 'template', 'go-template-file', 'templatefile'].includes(format)) return undefined;
  let value = eq < 0 ? tpl : output.slice(eq + 1);
  if ((format === 'go-template-file' || format === 'templatefile') && value !== '') {
    const text = files.read(value);
    if (text === undefined) return `error reading --template ${value}, open ${value}: no such file or directory`;
    value = text;
  }
  parsed.values.set('output', `${format.endsWith('file') ? 'go-template' : format}=${value}`);
  return undefined;
}
