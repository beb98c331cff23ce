/**
 * The remaining `kubectl create` generators: cronjob, ingress, role, clusterrole, rolebinding,
 * clusterrolebinding, quota, poddisruptionbudget, serviceaccount, priorityclass, and
 * `create token` (the TokenRequest API).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/: create_cronjob.go (`createCronJob`,
 * restart policy OnFailure by default), create_ingress.go (`ruleRegex`, `buildTLSRules`,
 * `buildIngressRules`, `buildHTTPIngressPath`: a trailing `*` makes pathType Prefix),
 * create_role.go (`validResourceVerbs`, rules grouped by API group in sorted group order),
 * create_clusterrole.go (`--non-resource-url`, `--aggregation-rule`), create_rolebinding.go /
 * create_clusterrolebinding.go (subjects: users, groups, then `ns:name` service accounts),
 * create_quota.go (`--hard`, `--scopes`), create_pdb.go, create_serviceaccount.go,
 * create_priorityclass.go and create_token.go. Objects keep Go's struct field order, which
 * `-o json` shows; `-o yaml` sorts keys.
 */
import { isValidQuantity } from '../../engine/api/quantity';
import { ApiError } from '../../engine/api/errors';
import { formatRfc3339 } from '../../engine/clock';
import { CmdError, fail, requiredFlagError, type Env } from './env';
import { base64, commandArgs, finish, meta, nameArg } from './create';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const RBAC = 'rbac.authorization.k8s.io';

/** `kubectl create cronjob NAME --image=IMAGE --schedule='0/5 * * * ?' [--restart=OnFailure] [-- COMMAND]`. */
export function createCronJob(env: Env): number {
  const name = nameArg(env);
  const missing = ['image', 'schedule'].filter((f) => !env.flags.changed(f));
  if (missing.length > 0) throw requiredFlagError(env, ...missing);
  const restart = env.flags.str('restart') || 'OnFailure';
  const c: Any = { name, image: env.flags.str('image') };
  const command = commandArgs(env);
  if (command.length > 0) c.command = command;
  c.resources = {};
  const jtMeta: Any = { name, creationTimestamp: null };
  return finish(env, {
    kind: 'CronJob',
    apiVersion: 'batch/v1',
    metadata: meta(env, name),
    spec: {
      schedule: env.flags.str('schedule'),
      jobTemplate: { metadata: jtMeta, spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: [c], restartPolicy: restart } } } },
    },
    status: {},
  }, false, 'failed to create cronjob: ');
}

/** create_ingress.go `ruleRegex`. */
const INGRESS_RULE = /^([\w*\-.]*)(\/[^,=\n]*)=([\w-]+):([\w-]+)(,(tls)=?([\w-]+)?)?$/;

/** `intstr.Parse` of a port: a number, else a name. */
function backendPort(p: string): Any {
  return /^-?\d+$/.test(p) ? { number: Number(p) } : { name: p };
}

function backend(svc: string): Any {
  const [name, port] = svc.split(':');
  return { service: { name, port: backendPort(port) } };
}

/** `kubectl create ingress NAME --rule=host/path=service:port[,tls[=secret]]`. */
export function createIngress(env: Env): number {
  const name = nameArg(env);
  const rules = env.flags.list('rule');
  const annotations = env.flags.list('annotation');
  const def = env.flags.str('default-backend');
  if (!def && rules.length === 0) {
    throw fail('not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)');
  }
  for (const r of rules) if (!INGRESS_RULE.test(r)) throw fail(`rule ${r} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]`);
  for (const a of annotations) if (!a.includes('=')) throw fail(`annotation ${a} is invalid and should be in format key=[value]`);
  if (def && def.split(':').length !== 2) throw fail('default-backend should be in format servicename:serviceport');
  const ann: Record<string, string> = {};
  for (const a of annotations) {
    const i = a.indexOf('=');
    ann[a.slice(0, i)] = a.slice(i + 1);
  }
  const spec: Any = {};
  const cls = env.flags.str('class');
  if (cls) spec.ingressClassName = cls;
  if (def) spec.defaultBackend = backend(def);
  // buildTLSRules
  const tls: Any[] = [];
  const seen = new Set<string>();
  for (const r of rules) {
    const parts = r.split(',');
    if (parts.length !== 2) continue;
    const host = r.split('/')[0];
    const sn = parts[1].split('=');
    const secret = sn.length > 1 ? sn[1] : '';
    if (seen.has(host)) continue;
    const idx = tls.findIndex((t) => (t.secretName ?? '') === secret);
    seen.add(host);
    if (idx >= 0) {
      (tls[idx].hosts ??= []).push(host);
      continue;
    }
    const t: Any = {};
    if (host) t.hosts = [host];
    if (secret) t.secretName = secret;
    if (t.hosts || t.secretName) tls.push(t);
  }
  if (tls.length > 0) spec.tls = tls;
  // buildIngressRules
  const out: Any[] = [];
  for (const r of rules) {
    const noTls = r.split(',')[0];
    const slash = noTls.indexOf('/');
    const host = noTls.slice(0, slash);
    const [p, svc] = noTls.slice(slash + 1).split('=');
    let path = '/' + p;
    let pathType = 'Exact';
    if (path.endsWith('*')) {
      pathType = 'Prefix';
      path = path.slice(0, -1);
    }
    const ip = { path, pathType, backend: backend(svc) };
    const existing = out.find((x) => (x.host ?? '') === host);
    if (existing) {
      existing.http.paths.push(ip);
      continue;
    }
    out.push({ ...(host ? { host } : {}), http: { paths: [ip] } });
  }
  if (out.length > 0) spec.rules = out;
  const m: Any = { name };
  if (env.explicitNamespace) m.namespace = env.namespace;
  m.creationTimestamp = null;
  if (Object.keys(ann).length > 0) m.annotations = ann;
  return finish(env, { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', metadata: m, spec, status: { loadBalancer: {} } });
}

/** create_role.go `validResourceVerbs`. */
const VALID_RESOURCE_VERBS = ['*', 'get', 'delete', 'list', 'create', 'update', 'patch', 'watch', 'proxy', 'deletecollection', 'use', 'bind', 'escalate', 'impersonate'];
/** create_role.go `specialVerbs`: verbs that only apply to some resources ([group, resource]). */
const SPECIAL_VERBS: Record<string, [string, string][]> = {
  use: [
    ['policy', 'podsecuritypolicies'],
    ['extensions', 'podsecuritypolicies'],
  ],
  bind: [
    [RBAC, 'roles'],
    [RBAC, 'clusterroles'],
  ],
  escalate: [
    [RBAC, 'roles'],
    [RBAC, 'clusterroles'],
  ],
  impersonate: [
    ['', 'users'],
    ['', 'serviceaccounts'],
    ['', 'groups'],
    ['authentication.k8s.io', 'userextras'],
    ['authentication.k8s.io', 'uids'],
  ],
};

/** create_clusterrole.go `validNonResourceVerbs`. */
const VALID_NON_RESOURCE_VERBS = ['*', 'get', 'post', 'put', 'delete', 'patch', 'head', 'options'];

/** Rules of `--verb`/`--resource`/`--resource-name`: one rule per API group, groups sorted. */
function resourceRules(env: Env, clusterRole: boolean): Any[] {
  const verbs = env.flags.list('verb');
  const resources = env.flags.list('resource');
  const names = env.flags.list('resource-name');
  const nonResource = clusterRole ? env.flags.list('non-resource-url') : [];
  if (verbs.length === 0) throw fail('at least one verb must be specified');
  if (resources.length === 0 && nonResource.length === 0) {
    throw fail(clusterRole ? 'one of resource or nonResourceURL must be specified' : 'at least one resource must be specified');
  }
  if (resources.length > 0) {
    for (const v of verbs) if (!VALID_RESOURCE_VERBS.includes(v)) env.err(`Warning: '${v}' is not a standard resource verb\n`);
  }
  if (nonResource.length > 0) {
    for (const v of verbs) if (!VALID_NON_RESOURCE_VERBS.includes(v)) throw fail(`invalid verb: '${v}' for nonResourceURL`);
    for (const u of nonResource) {
      if (u === '*') continue;
      if (!u.startsWith('/')) throw fail(`nonResourceURL should start with /`);
      if (u.slice(0, -1).includes('*')) throw fail(`nonResourceURL only supports wildcard matches when '*' is at the end`);
    }
  }
  const byGroup = new Map<string, string[]>();
  for (const r of resources) {
    const [res, sub] = r.split('/', 2);
    let group: string;
    let plural: string;
    if (res === '*') {
      group = '';
      plural = '*';
    } else {
      const t = env.api.registry.resolve(res);
      const dot = res.indexOf('.');
      group = t ? t.group : dot < 0 ? '' : res.slice(dot + 1);
      plural = t ? t.resource : dot < 0 ? res : res.slice(0, dot);
      // create_role.go validateResource: special verbs only on their resources; then the
      // mapper's NoResourceMatchError (printed by CheckErr without `error: `).
      let matchedSpecial = false;
      for (const v of verbs) {
        const allowed = SPECIAL_VERBS[v];
        if (!allowed) continue;
        if (!allowed.some(([g, r]) => g === group && r === plural)) throw fail(`can not perform '${v}' on '${plural}' in group '${group}'`);
        matchedSpecial = true;
      }
      if (!t && !matchedSpecial) {
        throw new CmdError(dot < 0 ? `the server doesn't have a resource type "${res}"` : `the server doesn't have a resource type "${plural}" in group "${group}"`);
      }
    }
    const list = byGroup.get(group) ?? [];
    list.push(sub ? `${plural}/${sub}` : plural);
    byGroup.set(group, list);
  }
  const rules: Any[] = [];
  for (const g of [...byGroup.keys()].sort()) {
    const rule: Any = { verbs, apiGroups: [g], resources: byGroup.get(g) };
    if (names.length > 0) rule.resourceNames = names;
    rules.push(rule);
  }
  if (nonResource.length > 0) rules.push({ verbs, nonResourceURLs: nonResource });
  return rules;
}

/** `kubectl create role NAME --verb=verb --resource=resource.group/subresource [--resource-name=n]`. */
export function createRole(env: Env): number {
  const name = nameArg(env);
  const rules = resourceRules(env, false);
  return finish(env, { kind: 'Role', apiVersion: `${RBAC}/v1`, metadata: meta(env, name), rules });
}

/** `kubectl create clusterrole NAME --verb=... --resource=... | --non-resource-url=... | --aggregation-rule=k=v`. */
export function createClusterRole(env: Env): number {
  const name = nameArg(env);
  const agg = env.flags.list('aggregation-rule');
  const m: Any = { name, creationTimestamp: null };
  if (agg.length > 0) {
    if (env.flags.list('verb').length > 0 || env.flags.list('resource').length > 0 || env.flags.list('non-resource-url').length > 0) {
      throw fail('aggregation rule must not be specified when verb, resource or nonResourceURL is specified');
    }
    const matchLabels: Record<string, string> = {};
    for (const kv of agg) {
      const i = kv.indexOf('=');
      matchLabels[kv.slice(0, i)] = kv.slice(i + 1);
    }
    return finish(env, { kind: 'ClusterRole', apiVersion: `${RBAC}/v1`, metadata: m, rules: null, aggregationRule: { clusterRoleSelectors: [{ matchLabels }] } }, true);
  }
  const rules = resourceRules(env, true);
  return finish(env, { kind: 'ClusterRole', apiVersion: `${RBAC}/v1`, metadata: m, rules }, true);
}

/** Subjects of `--user`, `--group`, `--serviceaccount=ns:name` in that order. */
function subjects(env: Env): Any[] | undefined {
  const out: Any[] = [];
  for (const u of env.flags.list('user')) out.push({ kind: 'User', apiGroup: RBAC, name: u });
  for (const g of env.flags.list('group')) out.push({ kind: 'Group', apiGroup: RBAC, name: g });
  for (const sa of env.flags.list('serviceaccount')) {
    const parts = sa.split(':');
    if (parts.length !== 2 || !parts[0] || !parts[1]) throw fail(`serviceaccount must be <namespace>:<name>`);
    out.push({ kind: 'ServiceAccount', name: parts[1], namespace: parts[0] });
  }
  return out.length > 0 ? out : undefined;
}

/** `kubectl create rolebinding NAME --clusterrole=NAME|--role=NAME [--user=u] [--group=g] [--serviceaccount=ns:name]`. */
export function createRoleBinding(env: Env): number {
  const name = nameArg(env);
  const role = env.flags.str('role');
  const clusterRole = env.flags.str('clusterrole');
  if ((role === '') === (clusterRole === '')) throw fail('exactly one of clusterrole or role must be specified');
  const obj: Any = { kind: 'RoleBinding', apiVersion: `${RBAC}/v1`, metadata: meta(env, name) };
  const subs = subjects(env);
  if (subs) obj.subjects = subs;
  obj.roleRef = { apiGroup: RBAC, kind: role ? 'Role' : 'ClusterRole', name: role || clusterRole };
  return finish(env, obj);
}

/** `kubectl create clusterrolebinding NAME --clusterrole=NAME [--user=u] [--group=g] [--serviceaccount=ns:name]`. */
export function createClusterRoleBinding(env: Env): number {
  const name = nameArg(env);
  if (!env.flags.changed('clusterrole')) throw requiredFlagError(env, 'clusterrole');
  const obj: Any = { kind: 'ClusterRoleBinding', apiVersion: `${RBAC}/v1`, metadata: { name, creationTimestamp: null } };
  const subs = subjects(env);
  if (subs) obj.subjects = subs;
  obj.roleRef = { apiGroup: RBAC, kind: 'ClusterRole', name: env.flags.str('clusterrole') };
  return finish(env, obj, true);
}

/** `kubectl create quota NAME [--hard=key1=value1] [--scopes=Scope1,Scope2]`. */
export function createQuota(env: Env): number {
  const name = nameArg(env);
  const spec: Any = {};
  const hard = env.flags.str('hard');
  if (hard) {
    const h: Record<string, string> = {};
    for (const kv of hard.split(',')) {
      const i = kv.indexOf('=');
      if (i < 0) throw fail(`Invalid argument syntax ${kv}, expected <resource>=<value>`);
      h[kv.slice(0, i)] = kv.slice(i + 1);
    }
    // create_quota.go parses each value with resource.ParseQuantity (ErrFormatWrong).
    if (Object.values(h).some((v) => !isValidQuantity(v))) {
      throw fail("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }
    spec.hard = Object.fromEntries(Object.entries(h).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  }
  const scopes = env.flags.str('scopes');
  if (scopes) spec.scopes = scopes.split(',');
  return finish(env, { kind: 'ResourceQuota', apiVersion: 'v1', metadata: meta(env, name), spec, status: {} });
}

/** `metav1.ParseToLabelSelector` for the simple `k=v,k2=v2` form (and set-based expressions). */
function labelSelector(s: string): Any {
  const matchLabels: Record<string, string> = {};
  const matchExpressions: Any[] = [];
  for (const part of s.split(/,(?![^(]*\))/)) {
    const p = part.trim();
    let m: RegExpExecArray | null;
    if ((m = /^([^\s!=]+)\s*(?:==|=)\s*(\S*)$/.exec(p))) matchLabels[m[1]] = m[2];
    else if ((m = /^([^\s!=]+)\s+(in|notin)\s+\((.*)\)$/.exec(p))) matchExpressions.push({ key: m[1], operator: m[2] === 'in' ? 'In' : 'NotIn', values: m[3].split(',').map((v) => v.trim()) });
    else if ((m = /^!([^\s!=]+)$/.exec(p))) matchExpressions.push({ key: m[1], operator: 'DoesNotExist' });
    else if ((m = /^([^\s!=]+)$/.exec(p))) matchExpressions.push({ key: m[1], operator: 'Exists' });
    else throw fail(`couldn't parse the selector string "${s}"`);
  }
  const out: Any = {};
  if (Object.keys(matchLabels).length > 0) out.matchLabels = matchLabels;
  if (matchExpressions.length > 0) out.matchExpressions = matchExpressions;
  return out;
}

/** `kubectl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N|--max-unavailable=N`. */
export function createPdb(env: Env): number {
  const name = nameArg(env);
  const min = env.flags.str('min-available');
  const max = env.flags.str('max-unavailable');
  const selector = env.flags.str('selector');
  if (!selector) throw fail('a selector must be specified');
  if (!min && !max) throw fail('one of min-available or max-unavailable must be specified');
  if (min && max) throw fail('min-available and max-unavailable cannot be both specified');
  const intstr = (v: string) => (/^-?\d+$/.test(v) ? Number(v) : v);
  const check = (flag: string, v: string) => {
    if (!/^(\d+|\d+%)$/.test(v)) throw fail(`invalid format specified for ${flag}`);
  };
  if (min) check('min-available', min);
  if (max) check('max-unavailable', max);
  const spec: Any = {};
  if (min) spec.minAvailable = intstr(min);
  spec.selector = labelSelector(selector);
  if (max) spec.maxUnavailable = intstr(max);
  return finish(env, {
    kind: 'PodDisruptionBudget',
    apiVersion: 'policy/v1',
    metadata: meta(env, name),
    spec,
    status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
  });
}

/** `kubectl create serviceaccount NAME`. */
export function createServiceAccount(env: Env): number {
  const name = nameArg(env);
  return finish(env, { kind: 'ServiceAccount', apiVersion: 'v1', metadata: meta(env, name) }, false, 'failed to create serviceaccount: ');
}

/** `kubectl create priorityclass NAME --value=VALUE [--global-default] [--description=D] [--preemption-policy=P]`. */
export function createPriorityClass(env: Env): number {
  const name = nameArg(env);
  const obj: Any = { kind: 'PriorityClass', apiVersion: 'scheduling.k8s.io/v1', metadata: { name, creationTimestamp: null }, value: env.flags.int('value') };
  if (env.flags.bool('global-default')) obj.globalDefault = true;
  if (env.flags.str('description')) obj.description = env.flags.str('description');
  obj.preemptionPolicy = env.flags.str('preemption-policy') || 'PreemptLowerPriority';
  return finish(env, obj, true);
}

/** base64url without padding (JWT segments). */
function b64url(s: string): string {
  return base64(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** kube-apiserver's default token lifetime for `kubectl create token` without `--duration` (1h, TokenRequest `expirationSeconds` default 3600). */
const DEFAULT_TOKEN_SECONDS = 3600;
/** The service-account issuer kind configures (`--service-account-issuer=https://kubernetes.default.svc.cluster.local`). */
const KIND_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/**
 * `kubectl create token SERVICEACCOUNT [--audience=A] [--duration=D] [--bound-object-kind=K --bound-object-name=N]`:
 * a TokenRequest against the ServiceAccount, printing a JWT shaped like kube-apiserver's (RS256
 * header with a key id, the `kubernetes.io` claims). The signature is random bytes: the token is
 * not verifiable, only shaped.
 */
export function createToken(env: Env): number {
  const saName = nameArg(env);
  const output = env.flags.str('output');
  const durMs = env.flags.duration('duration');
  if (durMs < 0) throw fail('--duration must be greater than or equal to 0');
  if (durMs % 1000 !== 0) throw fail('--duration cannot be expressed in units less than seconds');
  const boundKind = env.flags.str('bound-object-kind');
  const boundName = env.flags.str('bound-object-name');
  if (!boundKind && (boundName || env.flags.str('bound-object-uid'))) throw fail('--bound-object-name can only be set if --bound-object-kind is provided');
  if (boundKind && !['Pod', 'Secret', 'Node'].includes(boundKind)) throw fail(`supported --bound-object-kind values are Node, Pod, Secret`);
  if (boundKind && !boundName) throw fail('--bound-object-name is required if --bound-object-kind is provided');
  let sa;
  try {
    sa = env.api.get('serviceaccounts', env.namespace, saName);
  } catch (e) {
    if (e instanceof ApiError && e.connectionRefused) {
      const { serverUrl, dialAddress } = env.options;
      throw fail(`failed to create token: Post "${serverUrl}/api/v1/namespaces/${env.namespace}/serviceaccounts/${saName}/token": dial tcp ${dialAddress}: connect: connection refused`);
    }
    if (e instanceof ApiError) throw fail(`failed to create token: ${e.status.message}`);
    throw e;
  }
  const nowS = Math.floor((env.ctx.clock.epochMs + env.ctx.clock.now()) / 1000);
  const exp = nowS + (durMs > 0 ? durMs / 1000 : DEFAULT_TOKEN_SECONDS);
  const audiences = env.flags.list('audience');
  const rng = env.ctx.rng;
  const claims: Any = {
    aud: audiences.length > 0 ? audiences : [KIND_ISSUER],
    exp,
    iat: nowS,
    iss: KIND_ISSUER,
    jti: rng.uuid(),
    'kubernetes.io': { namespace: env.namespace, serviceaccount: { name: saName, uid: sa.metadata.uid } },
    nbf: nowS,
    sub: `system:serviceaccount:${env.namespace}:${saName}`,
  };
  if (boundKind) claims['kubernetes.io'][boundKind.toLowerCase()] = { name: boundName, uid: env.flags.str('bound-object-uid') || rng.uuid() };
  const kidChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let kid = '';
  for (let i = 0; i < 43; i++) kid += kidChars[rng.int(0, kidChars.length - 1)];
  let sig = '';
  for (let i = 0; i < 342; i++) sig += kidChars[rng.int(0, kidChars.length - 1)];
  const token = `${b64url(JSON.stringify({ alg: 'RS256', kid }))}.${b64url(JSON.stringify(claims))}.${sig}`;
  if (output) {
    const tr = {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: saName, namespace: env.namespace, creationTimestamp: null },
      spec: { audiences: claims.aud, expirationSeconds: exp - nowS, boundObjectRef: null },
      status: { token, expirationTimestamp: formatRfc3339(exp * 1000) },
    };
    env.out(output === 'json' ? JSON.stringify(tr, null, 4) + '\n' : token + '\n');
    return 0;
  }
  env.out(token + '\n');
  return 0;
}
