/**
 * The other everyday kubectl verbs: `run`, `expose`, `patch`, `taint`, and `top` (which kind
 * answers without metrics-server).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/run/run.go (`NAME is required for run`, label
 * `run=<name>`, args after `--` as container args or with `--command` as its command,
 * `pod/x created`), expose/expose.go (selector and labels from the exposed object, the port from
 * `--port` or the pod template, `service/x exposed`), patch/patch.go (`--type
 * strategic|merge|json`, `patched` / `patched (no change)`), taint/taint.go and taint/utils.go
 * (`tainted`, `untainted`, `modified`, `already has k taint(s) with same effect(s) and
 * --overwrite is false`, `taint "k:NoSchedule" not found`) and top/top.go (`Metrics API not
 * available`). Generated objects keep Go's struct field order for `-o json`.
 */
import { parse as parseYamlText } from 'yaml';
import type { KubeObject } from '../../engine/api/types';
import { withWarnings } from './field-validation';
import { ApiError } from '../../engine/api/errors';
import { toYaml } from '../../engine/api/yaml';
import { CmdError, discover, fail, kindGroup, requiredFlagError, usageError, type Env } from './env';
import { parseResourceArgs } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { dryRunMode, dryRunSuffix } from './apply';
import { goJsonTyped } from './create';
import { applyOverrides } from './overrides';
import { isImageReference } from '../../engine/node/registry';
import { serverWait } from './server-wait';
import { toPending } from '../shell';
import type { Pending } from '../types';
import { afterServer, createRunPod, runAttach } from './attach';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** Print or send a generated object as `run`/`expose` do; `verb` is `created` or `exposed`. */
function emit(env: Env, obj: Any, verb: string): number {
  env.out(emitText(env, obj, verb));
  return 0;
}

/** `emit`, returning what it would print instead of printing it (run --expose prints out of order). */
function emitText(env: Env, obj: Any, verb: string): string {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  let result: Any = obj;
  if (dryRun !== 'client') {
    const send = JSON.parse(JSON.stringify(obj));
    delete send.metadata.creationTimestamp;
    try {
      result = env.api.create(send, { namespace: env.namespace, dryRun: dryRun === 'server', fieldManager: `kubectl-${env.path}` });
    } catch (e) {
      if (e instanceof ApiError && e.connectionRefused) throw fail(`failed to create ${obj.kind.toLowerCase()}: ${e.status.message}`);
      throw e;
    }
  }
  const t = env.api.registry.byKind(obj.apiVersion, obj.kind);
  if (output === 'json') return dryRun === 'client' ? goJsonTyped(obj) : new ResultPrinter('json').print(result);
  if (output === 'yaml') return toYaml(result);
  if (output) return new ResultPrinter(output).print(result);
  return `${t ? kindGroup(t) : obj.kind.toLowerCase()}/${result.metadata.name} ${verb}${dryRunSuffix(dryRun)}\n`;
}

/**
 * `kubectl run --expose`: run.go `generateService` with the ServiceV2 generator: the Service is
 * named as the pod, selects `--labels` (else `run=NAME`), carries `--labels` as its own labels
 * (none when not given), and maps `--port` to the same target port over TCP. run.go creates the
 * pod first but prints the Service first (`service/x created`, then `pod/x created`; `---`
 * between them with `-o yaml`).
 */
function runExposed(env: Env, pod: Any, name: string, port: string): number {
  const podText = emitText(env, pod, 'created');
  const labelsFlag = env.flags.str('labels');
  const selector = labelsFlag ? parseLabelList(labelsFlag) : { run: name };
  const svc: Any = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name, ...(env.explicitNamespace ? { namespace: env.namespace } : {}), creationTimestamp: null, ...(labelsFlag ? { labels: parseLabelList(labelsFlag) } : {}) },
    spec: { ports: [{ port: Number(port), protocol: 'TCP', targetPort: Number(port) }], selector },
    status: { loadBalancer: {} },
  };
  const svcText = emitText(env, svc, 'created');
  env.out(svcText + (env.flags.str('output') === 'yaml' ? '---\n' : '') + podText);
  return 0;
}

function metaFor(env: Env, name: string, labels: Record<string, string>): Any {
  return { name, ...(env.explicitNamespace ? { namespace: env.namespace } : {}), creationTimestamp: null, labels };
}

/** `k=v,k2=v2` (run.go `generate.ParseLabels`). */
function parseLabelList(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) throw fail(`unexpected label spec: ${part}`);
    if (kv[0] === '') throw fail('unexpected empty label key');
    out[kv[0]] = kv[1];
  }
  return out;
}

/**
 * `kubectl run NAME --image=IMAGE [--port=N] [--labels=...] [--env=K=V] [--restart=...] [-- ARGS]`
 * (waits in virtual time where the server would hold the request: server-wait.ts).
 */
export function run(env: Env): number | Pending {
  const before = env.flags.argsLenAtDash >= 0 ? env.flags.args.slice(0, env.flags.argsLenAtDash) : env.flags.args;
  const after = env.flags.argsLenAtDash >= 0 ? env.flags.args.slice(env.flags.argsLenAtDash) : env.flags.args.slice(1);
  if (!env.flags.changed('image')) throw requiredFlagError(env, 'image');
  if (before.length === 0) throw usageError(env, 'NAME is required for run');
  // run.go's own checks of the attach flags come first.
  if (env.flags.bool('tty') && !env.flags.bool('stdin')) throw usageError(env, '-i/--stdin is required for containers with -t/--tty=true');
  const attach = env.flags.changed('attach') ? env.flags.bool('attach') : env.flags.bool('stdin');
  if (!attach && env.flags.bool('rm')) throw usageError(env, '--rm should only be used for attached containers');
  if (attach && dryRunMode(env) !== 'none') throw usageError(env, "--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)");
  const name = before[0];
  // run.go Run: the image must match distribution/reference's ReferenceRegexp.
  if (!isImageReference(env.flags.str('image'))) throw fail(`Invalid image name ${JSON.stringify(env.flags.str('image'))}: invalid reference format`);
  const pullPolicy = env.flags.str('image-pull-policy');
  if (pullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(pullPolicy)) throw usageError(env, `invalid image pull policy: ${pullPolicy}`);
  const restart = env.flags.str('restart') || 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart)) throw usageError(env, `invalid restart policy: ${restart}`);
  const labels = env.flags.str('labels') ? parseLabelList(env.flags.str('labels')) : { run: name };
  const c: Any = { name, image: env.flags.str('image') };
  if (after.length > 0) {
    if (env.flags.bool('command')) c.command = after;
    else c.args = after;
  }
  const port = env.flags.str('port');
  if (env.flags.bool('expose') && !port) throw fail('--port must be set when exposing a service');
  if (port) {
    if (!/^\d+$/.test(port)) throw fail(`strconv.Atoi: parsing "${port}": invalid syntax`);
    c.ports = [{ containerPort: Number(port) }];
  }
  const envVars = env.flags.list('env').map((kv) => {
    const eq = kv.indexOf('=');
    if (eq <= 0) throw fail(`invalid env: ${kv}`);
    return { name: kv.slice(0, eq), value: kv.slice(eq + 1) };
  });
  if (envVars.length) c.env = envVars;
  c.resources = {};
  if (env.flags.str('image-pull-policy')) c.imagePullPolicy = env.flags.str('image-pull-policy');
  // generate/versioned/run.go: stdin from -i, stdinOnce unless --leave-stdin-open, tty from -t.
  if (env.flags.bool('stdin')) c.stdin = true;
  if (env.flags.bool('stdin') && !env.flags.bool('leave-stdin-open')) c.stdinOnce = true;
  if (env.flags.bool('tty')) c.tty = true;
  const pod = { kind: 'Pod', apiVersion: 'v1', metadata: metaFor(env, name, labels), spec: { containers: [c], restartPolicy: restart, dnsPolicy: 'ClusterFirst' }, status: {} };
  const sent = applyOverrides(env, pod);
  // --attach / -i: no `created` line; the terminal attaches to the pod (attach.ts).
  if (attach) return afterServer(serverWait(env, () => createRunPod(env, sent)), (created) => runAttach(env, created, { stdin: env.flags.bool('stdin'), tty: env.flags.bool('tty'), quiet: env.flags.bool('quiet'), remove: env.flags.bool('rm'), leaveStdinOpen: env.flags.bool('leave-stdin-open'), restartPolicy: restart }));
  if (env.flags.bool('expose')) return toPending(serverWait(env, () => runExposed(env, sent, name, port)));
  return toPending(serverWait(env, () => emit(env, sent, 'created')));
}

/** The container port a pod template exposes, for `expose` without `--port`. */
function introspectPorts(spec: Any): number[] {
  const out: number[] = [];
  for (const c of spec?.containers ?? []) for (const p of c.ports ?? []) out.push(p.containerPort);
  return out;
}

/** `kubectl expose (TYPE NAME | TYPE/NAME) [--port=N] [--target-port=N] [--name=...] [--type=...]`. */
export function expose(env: Env): number {
  if (env.flags.args.length === 0) {
    // expose.go returns the builder's error as it is (no usage hint).
    throw fail('You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   \'-f rsrc.yaml\'\n   \'--filename=rsrc.json\'\n   \'<resource> <name>\'\n   \'<resource>\'');
  }
  discover(env, 4);
  const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: false });
  if (sel.mode !== 'names') throw fail('resource(s) were provided, but no name was specified');
  const ref = sel.refs[0];
  const obj: Any = env.api.get(ref.type, ref.type.namespaced ? env.namespace : undefined, ref.name);
  let selector: Record<string, string> | undefined;
  let podSpec: Any;
  switch (obj.kind) {
    case 'Pod':
      selector = obj.metadata.labels;
      podSpec = obj.spec;
      break;
    case 'Service':
      selector = obj.spec?.selector;
      break;
    case 'Deployment':
    case 'ReplicaSet':
      if ((obj.spec?.selector?.matchExpressions ?? []).length) throw fail(`couldn't convert expressions - "${JSON.stringify(obj.spec.selector.matchExpressions)}" to map-based selector format`);
      selector = obj.spec?.selector?.matchLabels;
      podSpec = obj.spec?.template?.spec;
      break;
    case 'ReplicationController':
      selector = obj.spec?.selector;
      podSpec = obj.spec?.template?.spec;
      break;
    default:
      throw fail(`cannot expose a ${obj.kind}`);
  }
  if (env.flags.str('selector')) selector = parseLabelList(env.flags.str('selector'));
  if (!selector || Object.keys(selector).length === 0) throw fail(`couldn't retrieve selectors via --selector flag or introspection: the ${obj.kind} has no selector`);
  let ports: number[];
  if (env.flags.str('port')) ports = [Number(env.flags.str('port'))];
  else if (obj.kind === 'Service') ports = (obj.spec?.ports ?? []).map((p: Any) => p.port);
  else ports = introspectPorts(podSpec);
  if (ports.length === 0 || ports.some((p) => !Number.isInteger(p))) throw fail("couldn't find port via --port flag or introspection");
  const target = env.flags.str('target-port');
  const protocol = env.flags.str('protocol') || 'TCP';
  const svcPorts = ports.map((p, i) => {
    const sp: Any = {};
    if (ports.length > 1) sp.name = `port-${i + 1}`;
    sp.protocol = protocol;
    sp.port = p;
    sp.targetPort = target ? (/^\d+$/.test(target) ? Number(target) : target) : p;
    return sp;
  });
  const spec: Any = { ports: svcPorts, selector };
  if (env.flags.str('cluster-ip')) spec.clusterIP = env.flags.str('cluster-ip');
  if (env.flags.str('type')) spec.type = env.flags.str('type');
  const name = env.flags.str('name') || obj.metadata.name;
  const labels = env.flags.str('labels') ? parseLabelList(env.flags.str('labels')) : (obj.metadata.labels ?? {});
  const svc = { kind: 'Service', apiVersion: 'v1', metadata: metaFor(env, name, labels), spec, status: { loadBalancer: {} } };
  return emit(env, applyOverrides(env, svc), 'exposed');
}

/** `kubectl patch (TYPE NAME | TYPE/NAME) -p PATCH [--type strategic|merge|json]`. */
export function patch(env: Env): number {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const type = env.flags.str('type') || 'strategic';
  if (!['json', 'merge', 'strategic'].includes(type)) throw fail(`--type must be one of [json merge strategic], not "${type}"`);
  let text = env.flags.str('patch');
  const file = env.flags.str('patch-file');
  if (!text && !file) throw fail('must specify --patch or --patch-file containing the contents of the patch');
  if (file) {
    const t = env.ctx.files.read(file);
    if (t === undefined) throw fail(`unable to read patch file: open ${file}: no such file or directory`);
    text = t;
  }
  let body: unknown;
  try {
    body = parseYamlText(text);
  } catch (e) {
    throw fail(`unable to parse "${text}": ${(e as Error).message.split('\n')[0]}`);
  }
  if (env.flags.args.length === 0) throw usageError(env, 'You must provide one or more resources by argument or filename.');
  discover(env, 4);
  const dryRun = dryRunMode(env);
  const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: false });
  if (sel.mode !== 'names') throw fail('resource(s) were provided, but no name was specified');
  const printer = new ResultPrinter(output);
  for (const ref of sel.refs) {
    const ns = ref.type.namespaced ? env.namespace : undefined;
    const before: KubeObject = env.api.get(ref.type, ns, ref.name);
    const subresource = env.flags.str('subresource') === 'status' ? ('status' as const) : undefined;
    // kubectl patch sends no fieldValidation: the server's default, Warn (handlers/rest.go fieldValidation).
    const warnings: string[] = [];
    const after = withWarnings(env, warnings, () =>
      env.api.patch(ref.type, ns, ref.name, type as 'json' | 'merge' | 'strategic', body, { fieldManager: 'kubectl-patch', dryRun: dryRun !== 'none', subresource, fieldValidation: 'Warn', warnings }),
    );
    const changed = after.metadata.resourceVersion !== before.metadata.resourceVersion || (dryRun !== 'none' && JSON.stringify(after) !== JSON.stringify(before));
    if (output) env.out(printer.print(after));
    else env.out(`${kindGroup(ref.type)}/${ref.name} patched${changed ? '' : ' (no change)'}${dryRunSuffix(dryRun)}\n`);
  }
  return 0;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** taint/utils.go `parseTaint`: `key[=value]:Effect`. */
function parseTaint(env: Env, spec: string): Any {
  const colon = spec.lastIndexOf(':');
  if (colon < 0) throw usageError(env, `invalid taint spec: ${spec}`);
  const kv = spec.slice(0, colon);
  const effect = spec.slice(colon + 1);
  if (!TAINT_EFFECTS.includes(effect)) throw usageError(env, `invalid taint effect: ${effect}, unsupported taint effect`);
  const eq = kv.indexOf('=');
  return eq < 0 ? { key: kv, effect } : { key: kv.slice(0, eq), value: kv.slice(eq + 1), effect };
}

/** `kubectl taint nodes NAME KEY[=VALUE]:EFFECT ... | KEY[:EFFECT]-`. */
export function taint(env: Env): number {
  const args = env.flags.args;
  const specs = args.filter((a) => a.includes(':') || a.endsWith('-') || a.includes('='));
  const resources = args.filter((a) => !specs.includes(a));
  // taint.go Complete/validateFlags: plain fmt.Errorf, no usage hint.
  if (args.length === 0) throw fail('one or more resources must be specified as <resource> <name>');
  if (specs.length === 0) throw fail('at least one taint update is required');
  // validateFlags counts the resource type among the resources: `taint nodes k=v:E` names no node.
  if ((resources.length === 0 || (resources.length === 1 && !resources[0].includes('/'))) && !env.flags.bool('all') && !env.flags.str('selector')) throw fail('at least one resource name must be specified since \'all\' parameter is not set');
  const toAdd: Any[] = [];
  const toRemove: Any[] = [];
  for (const s of specs) {
    if (s.endsWith('-')) {
      const body = s.slice(0, -1);
      const colon = body.indexOf(':');
      toRemove.push(colon < 0 ? { key: body } : { key: body.slice(0, colon), effect: body.slice(colon + 1) });
    } else toAdd.push(parseTaint(env, s));
  }
  discover(env, 4);
  const nodes: KubeObject[] = [];
  if (env.flags.bool('all') || env.flags.str('selector')) nodes.push(...env.api.list('nodes', { labelSelector: env.flags.str('selector') || undefined }).items);
  else {
    const sel = parseResourceArgs(env, resources, { allowEmptySelector: false });
    if (sel.mode !== 'names') throw fail('resource(s) were provided, but no name was specified');
    for (const r of sel.refs) {
      if (r.type.kind !== 'Node') throw new CmdError(`error: invalid resource type ${r.type.resource}, only node types are supported`);
      nodes.push(env.api.get('nodes', undefined, r.name));
    }
  }
  const overwrite = env.flags.bool('overwrite');
  for (const node of nodes) {
    const old: Any[] = node.spec?.taints ?? [];
    if (!overwrite) {
      const clash = toAdd.filter((t) => old.some((o) => o.key === t.key && o.effect === t.effect));
      if (clash.length) throw fail(`node ${node.metadata.name} already has ${clash.map((t) => t.key).join(',')} taint(s) with same effect(s) and --overwrite is false`);
    }
    let next = old.filter((o) => !toAdd.some((t) => t.key === o.key && t.effect === o.effect));
    const added = toAdd.length > 0;
    let deleted = false;
    for (const r of toRemove) {
      const before = next.length;
      next = next.filter((o) => !(o.key === r.key && (r.effect === undefined || o.effect === r.effect)));
      if (next.length === before) throw fail(`taint "${r.effect ? `${r.key}:${r.effect}` : r.key}" not found`);
      deleted = true;
    }
    next = [...next, ...toAdd.map((t) => (t.effect === 'NoExecute' ? { ...t, timeAdded: env.ctx.clock.rfc3339() } : t))];
    const replaced = toAdd.some((t) => old.some((o) => o.key === t.key && o.effect === t.effect));
    const op = (added && deleted) || replaced ? 'modified' : added ? 'tainted' : 'untainted';
    env.api.patch('nodes', undefined, node.metadata.name ?? '', 'merge', { spec: { taints: next.length ? next : null } }, { fieldManager: 'kubectl-taint' });
    env.out(`node/${node.metadata.name} ${op}\n`);
  }
  return 0;
}

/** `kubectl top`: kind clusters have no metrics-server, so the Metrics API is missing. */
export function top(env: Env): number {
  discover(env, 5);
  throw fail('Metrics API not available');
}
