/**
 * `kubectl create -f` and the generators `create deployment|namespace|secret generic|configmap|
 * service clusterip|nodeport|loadbalancer|externalname|job`, with `--dry-run=client -o yaml|json` printing what
 * kubectl would send.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create.go (`RunCreate`: POST each object,
 * errors as `error when creating "web.yaml": ...`, `must specify one of -f and -k`,
 * `Unexpected args`) and the generators in the same package: create_deployment.go
 * (`createDeployment`, `buildPodSpec`, `sanitizeAndUniquify`), create_namespace.go,
 * create_secret.go / create_configmap.go (`handleFromLiteralSources`, `handleFromFileSources`,
 * `handleFromEnvFileSources`, `addKeyFromLiteralToSecret`), create_service.go
 * (`parsePorts`, `createService`), create_job.go (`createJob`, `createJobFromCronJob`).
 * Generated objects keep Go's struct field order, which `-o json` shows (`kind`, `apiVersion`,
 * `metadata`, ..., `creationTimestamp: null`, `resources: {}`, `status: {}`).
 */
import { fieldValidationOf, withWarnings } from './field-validation';
import type { KubeObject } from '../../engine/api/types';
import { ApiError } from '../../engine/api/errors';
import { portNameErrors } from '../../engine/api/validation';
import { withLastApplied } from '../../engine/api/apply';
import { toYaml } from '../../engine/api/yaml';
import { CmdError, addSourceToErr, discover, fail, formatErrors, kindGroup, requiredFlagError, usageError, type Env } from './env';
import { objectNamespace, readManifestFlags, type SourcedObject } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { serverWait, type Wait } from './server-wait';
import { toPending } from '../shell';
import type { Pending } from '../types';
import { dryRunMode, dryRunSuffix, noMappingError, openApiDownError, validating } from './apply';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** `kubectl create -f FILE` (and `kubectl create NAME` with no generator: `Unexpected args`). */
export function create(env: Env): number | Pending {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  fieldValidationOf(env); // a bad --validate value fails before any request
  if (env.flags.args.length > 0) throw usageError(env, `Unexpected args: [${env.flags.args.join(' ')}]`);
  const manifests = readManifestFlags(env);
  if (!manifests) throw fail('must specify one of -f and -k');
  if (env.api.getAvailability() === 'down' && validating(env) && manifests.objects.length > 0) throw openApiDownError(env, manifests.objects[0].source);
  discover(env, 5);
  const dryRun = dryRunMode(env);
  const errs: unknown[] = manifests.errors.map((t) => new CmdError(t));
  const printer = new ResultPrinter(output);
  return toPending(createAll(env, manifests.objects, errs, dryRun, output, printer));
}

function* createAll(env: Env, objects: SourcedObject[], errs: unknown[], dryRun: 'none' | 'client' | 'server', output: string, printer: ResultPrinter): Generator<Wait, number, void> {
  for (const { object, source } of objects) {
    try {
      let type;
      try {
        type = env.api.typeOfObject(object);
      } catch (e) {
        if (e instanceof ApiError && e.code === 404) throw noMappingError(object, source, e);
        throw e;
      }
      let obj = JSON.parse(JSON.stringify(object)) as KubeObject;
      const ns = objectNamespace(env, type, obj);
      if (type.namespaced) obj.metadata.namespace = ns;
      if (env.flags.bool('save-config')) obj = withLastApplied(obj);
      let result = obj;
      if (dryRun !== 'client') {
        const send = obj;
        result = yield* serverWait(env, () => {
          try {
            const warnings: string[] = [];
            const created = withWarnings(env, warnings, () =>
              env.api.create(send, { namespace: ns, dryRun: dryRun === 'server', fieldManager: env.flags.str('field-manager') || 'kubectl-create', fieldValidation: fieldValidationOf(env), warnings }),
            );
            return created;
          } catch (e) {
            throw addSourceToErr('creating', source, e);
          }
        });
      }
      if (output) env.out(printer.print(result));
      else env.out(`${kindGroup(type)}/${result.metadata.name} created${dryRunSuffix(dryRun)}\n`);
    } catch (e) {
      if (e instanceof ApiError || e instanceof CmdError) errs.push(e);
      else throw e;
    }
  }
  if (errs.length > 0) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  return 0;
}

/** Go's `json.MarshalIndent(obj, "", "    ")` of a typed object: fields in struct order, HTML-escaped. */
export function goJsonTyped(obj: unknown): string {
  return JSON.stringify(obj, null, 4).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

/** `exactly one NAME is required, got N` (create.go `NameFromCommandArgs`). */
export function nameArg(env: Env): string {
  const args = env.flags.argsLenAtDash >= 0 ? env.flags.args.slice(0, env.flags.argsLenAtDash) : env.flags.args;
  if (args.length !== 1) throw usageError(env, `exactly one NAME is required, got ${args.length}`);
  return args[0];
}

/** Arguments after `--` (the command of `create deployment|job NAME --image=X -- CMD ...`). */
export function commandArgs(env: Env): string[] {
  return env.flags.argsLenAtDash >= 0 ? env.flags.args.slice(env.flags.argsLenAtDash) : [];
}

/** `metadata` in ObjectMeta field order: name, namespace (only with `-n`), creationTimestamp, labels, annotations. */
export function meta(env: Env, name: string, rest: { labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: Any[] } = {}): Any {
  const m: Any = { name };
  if (env.explicitNamespace) m.namespace = env.namespace;
  m.creationTimestamp = null;
  if (rest.labels) m.labels = rest.labels;
  if (rest.annotations) m.annotations = rest.annotations;
  if (rest.ownerReferences) m.ownerReferences = rest.ownerReferences;
  return m;
}

/**
 * Send or print a generated object: `--dry-run=client` prints it (`-o yaml|json|name` or
 * `kind/name created (dry run)`); otherwise POST it and print the result. `failedToCreate` is the
 * prefix a generator puts before a server error it wraps (`failed to create deployment: `, as
 * create_deployment.go's `fmt.Errorf("failed to create deployment: %v", err)`); without it the
 * server's error prints as kubectl prints an API status (`Error from server (AlreadyExists): ...`).
 */
export function finish(env: Env, obj: Any, clusterScoped = false, failedToCreate?: string): number {
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const t = env.api.registry.byKind(obj.apiVersion, obj.kind);
  const kg = t ? kindGroup(t) : obj.kind.toLowerCase();
  if (env.flags.bool('save-config')) {
    const withAnn = withLastApplied(obj);
    obj.metadata.annotations = withAnn.metadata.annotations;
  }
  let result: Any = obj;
  if (dryRun !== 'client') {
    // Generators use the typed client: no discovery, so no memcache lines when the API is down.
    const send = JSON.parse(JSON.stringify(obj));
    delete send.metadata.creationTimestamp;
    if (send.spec?.template?.metadata) delete send.spec.template.metadata.creationTimestamp;
    try {
      result = env.api.create(send, {
        namespace: clusterScoped ? undefined : env.namespace,
        dryRun: dryRun === 'server',
        fieldManager: env.flags.str('field-manager') || 'kubectl-create',
      });
    } catch (e) {
      if (e instanceof ApiError && e.connectionRefused) {
        const { serverUrl, dialAddress } = env.options;
        const path = t ? `${t.group ? `/apis/${t.group}/${t.version}` : '/api/v1'}${t.namespaced ? `/namespaces/${env.namespace}` : ''}/${t.resource}` : '';
        throw fail(`failed to create ${obj.kind.toLowerCase()}: Post "${serverUrl}${path}?fieldManager=kubectl-create&fieldValidation=Strict": dial tcp ${dialAddress}: connect: connection refused`);
      }
      // The generators that wrap the server's answer (`fmt.Errorf("failed to create deployment: %v", err)`)
      // print it as a plain error, not `Error from server (...)`.
      if (e instanceof ApiError && failedToCreate !== undefined) throw fail(`${failedToCreate}${e.status.message}`);
      throw e;
    }
  }
  if (output === 'json') env.out(dryRun === 'client' ? goJsonTyped(obj) : new ResultPrinter('json').print(result));
  else if (output === 'yaml') env.out(toYaml(result));
  else if (output) env.out(new ResultPrinter(output).print(result));
  else env.out(`${kg}/${result.metadata.name} created${dryRunSuffix(dryRun)}\n`);
  return 0;
}

/** create_deployment.go `buildPodSpec`: the container name is the image's last path segment without tag or digest. */
function containerName(env: Env, image: string): string {
  let name = image.split('/').pop() ?? image;
  if (name.includes(':')) name = name.split(':')[0];
  if (name.includes('@')) name = name.split('@')[0];
  if (/[_.]/.test(name)) name = `${name.replace(/_/g, '-').replace(/\./g, '-')}-${env.ctx.rng.nameSuffix(5)}`;
  return name;
}

/** `kubectl create deployment NAME --image=IMAGE [--replicas=N] [--port=N] [-- COMMAND]`. */
export function createDeployment(env: Env): number {
  const images = env.flags.list('image');
  if (!env.flags.changed('image')) throw requiredFlagError(env, 'image');
  const name = nameArg(env);
  const command = commandArgs(env);
  if (images.length > 1 && command.length > 0) throw fail('cannot specify multiple --image options and command');
  const labels = { app: name };
  const containers = images.map((image) => {
    const c: Any = { name: containerName(env, image), image };
    if (command.length > 0) c.command = command;
    c.resources = {};
    return c;
  });
  const port = env.flags.int('port');
  if (port >= 0 && containers.length > 0) {
    const c0 = containers[0];
    containers[0] = { name: c0.name, image: c0.image, ...(c0.command ? { command: c0.command } : {}), ports: [{ containerPort: port }], resources: {} };
  }
  const obj = {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: meta(env, name, { labels }),
    spec: {
      replicas: env.flags.int('replicas'),
      selector: { matchLabels: labels },
      template: { metadata: { creationTimestamp: null, labels }, spec: { containers } },
      strategy: {},
    },
    status: {},
  };
  return finish(env, obj, false, 'failed to create deployment: ');
}

/** `kubectl create namespace NAME`. */
export function createNamespace(env: Env): number {
  const name = nameArg(env);
  const m: Any = { name, creationTimestamp: null };
  return finish(env, { kind: 'Namespace', apiVersion: 'v1', metadata: m, spec: {}, status: {} }, true);
}

/** UTF-8 bytes of a string, base64-encoded (what Secret `data` holds). */
export function base64(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** `validation.IsConfigMapKey`. */
function checkKey(key: string, kind: string): void {
  if (!/^[-._a-zA-Z0-9]+$/.test(key) || key.length > 253) {
    throw fail(
      `"${key}" is not a valid key name for a ${kind}: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
  }
}

function baseName(p: string): string {
  return p.replace(/\/+$/, '').split('/').pop() ?? p;
}

/**
 * The key/value pairs of `--from-literal`, `--from-file` and `--from-env-file`, in kubectl's
 * order (files, then literals, then env files), with its errors.
 */
function sources(env: Env, kind: string, objName = ''): [string, string][] {
  // ConfigMapOptions/CreateSecretOptions.Validate, before any file is read.
  if (env.flags.list('from-env-file').length > 0 && (env.flags.list('from-file').length > 0 || env.flags.list('from-literal').length > 0)) {
    throw fail('from-env-file cannot be combined with from-file or from-literal');
  }
  const out = new Map<string, string>();
  const add = (k: string, v: string) => {
    checkKey(k, kind);
    if (out.has(k)) {
      // create_configmap.go validateNewConfigMap quotes both names; create_secret.go does not.
      if (kind === 'ConfigMap') throw fail(`cannot add key ${JSON.stringify(k)}, another key by that name already exists in Data for ConfigMap ${JSON.stringify(objName)}`);
      throw fail(`cannot add key ${k}, another key by that name already exists`);
    }
    out.set(k, v);
  };
  for (const spec of env.flags.list('from-file')) {
    const eq = spec.indexOf('=');
    const key = eq >= 0 ? spec.slice(0, eq) : '';
    const path = eq >= 0 ? spec.slice(eq + 1) : spec;
    if (eq === 0) throw fail(`key name for file path ${path} missing`);
    if (env.ctx.files.isDir(path)) {
      if (key) throw fail('cannot give a key name for a directory path');
      for (const f of [...(env.ctx.files.list(path) ?? [])].sort()) {
        const p = `${path.replace(/\/+$/, '')}/${f}`;
        if (env.ctx.files.isDir(p)) continue;
        add(baseName(f), env.ctx.files.read(p) ?? '');
      }
      continue;
    }
    const text = env.ctx.files.read(path);
    if (text === undefined) throw fail(`error reading ${path}: no such file or directory`);
    add(key || baseName(path), text);
  }
  for (const lit of env.flags.list('from-literal')) {
    const eq = lit.indexOf('=');
    if (eq <= 0) throw fail(`invalid literal source ${lit}, expected key=value`);
    add(lit.slice(0, eq), lit.slice(eq + 1));
  }
  for (const path of env.flags.list('from-env-file')) {
    const text = env.ctx.files.read(path);
    if (text === undefined) throw fail(`error reading ${path}: no such file or directory`);
    text.split('\n').forEach((line) => {
      const l = line.replace(/^\uFEFF/, '').trim();
      if (l === '' || l.startsWith('#')) return;
      const eq = l.indexOf('=');
      if (eq < 0) {
        add(l, env.ctx.env[l] ?? '');
        return;
      }
      add(l.slice(0, eq), l.slice(eq + 1));
    });
  }
  return [...out.entries()];
}

function sortedRecord(pairs: [string, string][], f: (v: string) => string): Record<string, string> {
  const r: Record<string, string> = {};
  for (const [k, v] of [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) r[k] = f(v);
  return r;
}

/** `kubectl create secret generic NAME [--from-literal=k=v] [--from-file=[k=]path] [--type=T]`. */
export function createSecretGeneric(env: Env): number {
  const name = nameArg(env);
  const pairs = sources(env, 'Secret');
  const obj: Any = { kind: 'Secret', apiVersion: 'v1', metadata: meta(env, name) };
  if (pairs.length > 0) obj.data = sortedRecord(pairs, base64);
  if (env.flags.str('type')) obj.type = env.flags.str('type');
  // create_secret.go: `fmt.Errorf("failed to create secret %v", err)` (no colon).
  return finish(env, obj, false, 'failed to create secret ');
}

/**
 * `kubectl create secret docker-registry NAME --docker-username=U --docker-password=P
 * [--docker-email=E] [--docker-server=S] | --from-file=[key=]path` (create_secret_docker.go): a
 * `kubernetes.io/dockerconfigjson` Secret whose `.dockerconfigjson` is
 * `{"auths":{"<server>":{"username","password","email","auth":base64(user:password)}}}`.
 */
export function createSecretDockerRegistry(env: Env): number {
  const name = nameArg(env);
  const user = env.flags.str('docker-username');
  const password = env.flags.str('docker-password');
  const server = env.flags.str('docker-server');
  const files = env.flags.list('from-file');
  if (files.length === 0 && (!user || !password || !server)) {
    throw fail('either --from-file or the combination of --docker-username, --docker-password and --docker-server is required');
  }
  const obj: Any = { kind: 'Secret', apiVersion: 'v1', metadata: meta(env, name), type: 'kubernetes.io/dockerconfigjson' };
  if (files.length > 0) {
    obj.data = sortedRecord(sources(env, 'Secret'), base64);
  } else {
    // DockerConfigEntry: omitempty fields, in struct order.
    const entry: Record<string, string> = {};
    if (user) entry.username = user;
    if (password) entry.password = password;
    const email = env.flags.str('docker-email');
    if (email) entry.email = email;
    entry.auth = base64(`${user}:${password}`);
    obj.data = { '.dockerconfigjson': base64(JSON.stringify({ auths: { [server]: entry } })) };
  }
  // create_secret_docker.go: `fmt.Errorf("failed to create secret %v", err)`.
  return finish(env, obj, false, 'failed to create secret ');
}

/** `kubectl create configmap NAME [--from-literal=k=v] [--from-file=[k=]path]`. */
export function createConfigMap(env: Env): number {
  const name = nameArg(env);
  const pairs = sources(env, 'ConfigMap', name);
  const obj: Any = { kind: 'ConfigMap', apiVersion: 'v1', metadata: meta(env, name) };
  if (pairs.length > 0) obj.data = sortedRecord(pairs, (v) => v);
  return finish(env, obj, false, 'failed to create configmap: ');
}

/** k8s.io/utils/net `ParsePort(port, true)`: Go `strconv.ParseUint(port, 10, 16)`, with its errors. */
function parsePort(p: string): number {
  if (!/^\d+$/.test(p)) throw fail(`strconv.ParseUint: parsing ${JSON.stringify(p)}: invalid syntax`);
  if (Number(p) > 65535) throw fail(`strconv.ParseUint: parsing ${JSON.stringify(p)}: value out of range`);
  return Number(p);
}

/** create_service.go `parsePorts`: a target port is a number 1-65535 (Go `strconv.Atoi`), else a port name. */
function parseTargetPort(t: string): number | string {
  if (/^[+-]?\d+$/.test(t)) {
    const n = Number(t);
    if (n < 1 || n > 65535) throw fail('must be between 1 and 65535, inclusive');
    return n;
  }
  const errs = portNameErrors(t);
  if (errs.length > 0) throw fail(errs.join(','));
  return t;
}

/** `kubectl create service clusterip|nodeport NAME --tcp=port[:targetPort]`. */
export function createService(env: Env, type: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName'): number {
  const name = nameArg(env);
  if (type === 'ExternalName' && !env.flags.changed('external-name')) throw requiredFlagError(env, 'external-name');
  const clusterIP = type === 'ClusterIP' ? env.flags.str('clusterip') : '';
  const tcp = env.flags.list('tcp');
  if (tcp.length === 0 && clusterIP !== 'None' && type !== 'ExternalName') throw fail('at least one tcp port specifier must be provided');
  const ports: Any[] = [];
  for (const spec of tcp) {
    const [p, t] = spec.split(':');
    const port = parsePort(p);
    const target = t === undefined ? port : parseTargetPort(t);
    const sp: Any = { name: t === undefined ? p : `${p}-${t}`, protocol: 'TCP', port, targetPort: target };
    if (type === 'NodePort' && env.flags.int('node-port') > 0) sp.nodePort = env.flags.int('node-port');
    ports.push(sp);
  }
  const labels = { app: name };
  const spec: Any = {};
  if (ports.length > 0) spec.ports = ports;
  spec.selector = labels;
  if (clusterIP) spec.clusterIP = clusterIP;
  spec.type = type;
  if (type === 'ExternalName') spec.externalName = env.flags.str('external-name');
  return finish(env, { kind: 'Service', apiVersion: 'v1', metadata: meta(env, name, { labels }), spec, status: { loadBalancer: {} } }, false, `failed to create ${type} service: `);
}

/** `kubectl create job NAME --image=IMAGE [-- COMMAND]` or `--from=cronjob/NAME`. */
export function createJob(env: Env): number {
  const name = nameArg(env);
  const image = env.flags.str('image');
  const from = env.flags.str('from');
  // create_job.go Validate: one message for neither and for both.
  if (!image === !from) throw fail('either --image or --from must be specified');
  if (from) {
    const [kind, cjName] = from.split('/');
    const t = env.api.registry.resolve(kind ?? '');
    if (!t || t.kind !== 'CronJob' || !cjName) throw fail(`from must be an existing cronjob: ${from}`);
    discover(env, 5);
    const cj = env.api.get('cronjobs', env.namespace, cjName);
    const jt = cj.spec?.jobTemplate ?? {};
    const annotations = { ...(jt.metadata?.annotations ?? {}), 'cronjob.kubernetes.io/instantiate': 'manual' };
    const m: Any = { name, ...(env.explicitNamespace ? { namespace: env.namespace } : {}), creationTimestamp: null };
    if (jt.metadata?.labels) m.labels = jt.metadata.labels;
    m.annotations = annotations;
    m.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name, uid: cj.metadata.uid, controller: true }];
    return finish(env, { kind: 'Job', apiVersion: 'batch/v1', metadata: m, spec: jt.spec ?? {}, status: {} }, false, 'failed to create job: ');
  }
  const command = commandArgs(env);
  const c: Any = { name, image };
  if (command.length > 0) c.command = command;
  c.resources = {};
  return finish(env, {
    kind: 'Job',
    apiVersion: 'batch/v1',
    metadata: meta(env, name),
    spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [c], restartPolicy: 'Never' } } },
    status: {},
  }, false, 'failed to create job: ');
}
