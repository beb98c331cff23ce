/**
 * `kubectl auth can-i VERB [TYPE | TYPE/NAME | NONRESOURCEURL] [--as=USER] [-n NS] [-A]
 * [--subresource=S] [-q]` and `kubectl auth whoami`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go (`Complete`: `TYPE/NAME` or `TYPE
 * NAME`, a non-resource URL starts with `/`; unknown types give `Warning: the server doesn't
 * have a resource type 'x'`; `RunAccessCheck`: prints `yes`, or `no` and exits 1) and
 * whoami.go (the SelfSubjectReview table `ATTRIBUTE VALUE`). The kind kubeconfig's user is
 * `kubernetes-admin` in the `kubeadm:cluster-admins` group (kubeadm >= 1.29), bound to
 * cluster-admin, so it may do anything; `--as=system:serviceaccount:NS:NAME` is evaluated
 * against RBAC (src/engine/cluster/rbac.ts), as are other users (their User bindings, and the
 * `system:authenticated` group's).
 */
import { impersonatedAllows, impersonatedAllowsNonResource } from './impersonate';
import { tabwrite } from '../printers/table';
import { CmdError, discover, requireServer, usageError, type Env } from './env';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The user kind's kubeconfig authenticates as (kubeadm's admin.conf client certificate). */
export const KIND_ADMIN_USER = 'kubernetes-admin';
/** Its groups as the SelfSubjectReview reports them (kubeadm >= 1.29: `kubeadm:cluster-admins`). */
export const KIND_ADMIN_GROUPS = ['kubeadm:cluster-admins', 'system:authenticated'];

/** cani.go `resourceVerbs`: the verbs can-i knows for resources (others warn, still asked). */
const RESOURCE_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
/** cani.go `nonResourceURLVerbs`. */
const NON_RESOURCE_URL_VERBS = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);
/** cani.go `nonStandardResourceNames`: RBAC resources that discovery does not list. */
const NON_STANDARD_RESOURCE_NAMES = new Set(['users', 'groups']);

/** `kubectl auth can-i`. */
export function authCanI(env: Env): number {
  const args = env.flags.args;
  const quiet = env.flags.bool('quiet');
  if (env.flags.bool('list')) return authCanIList(env);
  if (args.length < 2) {
    throw new CmdError("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.");
  }
  if (args.length > 3) throw usageError(env, 'you must specify two or three arguments: verb, resource, and optional resourceName');
  discover(env, 3);
  const verb = args[0];
  const allNs = env.flags.bool('all-namespaces');
  const namespace = allNs ? undefined : env.namespace;
  let group = '';
  let resource = '';
  let name = args[2] ?? '';
  const target = args[1];
  const nonResource = target.startsWith('/');
  if (!nonResource) {
    let typed = target;
    if (target.includes('/')) [typed, name] = target.split('/', 2);
    // cani.go resourceFor: `*` is taken as is (no lookup, no warning); `users` and `groups` are
    // not API resources but known to RBAC (nonStandardResourceNames): no warning either.
    const t = typed === '*' ? undefined : env.api.registry.resolve(typed);
    if (typed === '*') resource = typed;
    else if (!t) {
      const dot = typed.indexOf('.');
      const [res, grp] = dot < 0 ? [typed, ''] : [typed.slice(0, dot), typed.slice(dot + 1)];
      if (!NON_STANDARD_RESOURCE_NAMES.has(typed.toLowerCase())) {
        env.err(grp ? `Warning: the server doesn't have a resource type '${res}' in group '${grp}'\n\n` : `Warning: the server doesn't have a resource type '${res}'\n\n`);
      }
      resource = typed;
    } else {
      group = t.group;
      resource = t.resource;
      // cani.go Validate: every cluster-scoped resource warns unless -A (not only with -n).
      if (!t.namespaced && !allNs) env.err(t.group ? `Warning: resource '${t.resource}' is not namespace scoped in group '${t.group}'\n\n` : `Warning: resource '${t.resource}' is not namespace scoped\n\n`);
    }
    if (!RESOURCE_VERBS.has(verb)) env.err(`Warning: verb '${verb}' is not a known verb\n\n`);
  } else if (!NON_RESOURCE_URL_VERBS.has(verb)) env.err(`Warning: verb '${verb}' is not a known verb\n\n`);
  const as = env.flags.str('as');
  let allowed: boolean;
  // An impersonated kubernetes-admin is only that user name, without the kubeadm:cluster-admins
  // group its certificate carries: RBAC decides as for anyone (impersonation.go).
  if (!as) allowed = true;
  else if (nonResource) allowed = impersonatedAllowsNonResource(env.api, as, env.flags.list('as-group'), verb, target);
  else {
    const attrs = { verb, group, resource, subresource: env.flags.str('subresource') || undefined, namespace, name: name || undefined };
    allowed = impersonatedAllows(env.api, as, env.flags.list('as-group'), attrs);
  }
  if (env.flags.bool('no-headers')) throw new CmdError('error: --no-headers cannot be set without --list specified');
  if (!quiet) env.out(allowed ? 'yes\n' : 'no\n');
  return allowed ? 0 : 1;
}

/** One RBAC rule as the SelfSubjectRulesReview and kubectl's rbac util handle it. */
interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

const policyRule = (r: Any): PolicyRule => ({ verbs: [...(r.verbs ?? [])], apiGroups: [...(r.apiGroups ?? [])], resources: [...(r.resources ?? [])], resourceNames: [...(r.resourceNames ?? [])], nonResourceURLs: [...(r.nonResourceURLs ?? [])] });

/**
 * The RBAC authorizer's `RulesFor` (plugin/pkg/auth/authorizer/rbac/rbac.go, rule resolver
 * `VisitRulesFor`): the rules of every ClusterRoleBinding naming the user, one of its groups or
 * its service account, then of the RoleBindings in `namespace`, in list order. The kind admin's
 * `kubeadm:cluster-admins` group holds cluster-admin through the ClusterRoleBinding kubeadm init
 * creates (src/engine/cluster/manifests.ts `kubeadmClusterAdminsBinding`); deleted, it no longer
 * counts. Split as the SelfSubjectRulesReview splits them: resource rules first, then
 * non-resource rules.
 */
function rulesFor(env: Env, user: string, groups: string[], namespace: string): PolicyRule[] {
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  const applies = (s: Any, bindingNs: string | undefined) =>
    (s.kind === 'User' && s.name === user) || (s.kind === 'Group' && groups.includes(s.name)) || (sa !== null && s.kind === 'ServiceAccount' && s.name === sa[2] && (s.namespace ?? bindingNs) === sa[1]);
  const rules: PolicyRule[] = [];
  const crbs: Any[] = env.api.list('clusterrolebindings').items;
  const visit = (b: Any, ns: string | undefined) => {
    if (!(b.subjects ?? []).some((s: Any) => applies(s, ns))) return;
    const ref = b.roleRef ?? {};
    const role: Any = ref.kind === 'ClusterRole' ? env.api.tryGet('clusterroles', undefined, ref.name) : env.api.tryGet('roles', ns, ref.name);
    for (const r of role?.rules ?? []) rules.push(policyRule(r));
  };
  for (const b of crbs) visit(b, undefined);
  if (namespace) for (const b of env.api.list('rolebindings', { namespace }).items) visit(b, namespace);
  const resourceRules = rules.filter((r) => r.resources.length > 0).map((r) => ({ ...r, nonResourceURLs: [] }));
  const nonResourceRules = rules.filter((r) => r.nonResourceURLs.length > 0).map((r) => ({ verbs: r.verbs, apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: r.nonResourceURLs }));
  return [...resourceRules, ...nonResourceRules];
}

/** staging/src/k8s.io/component-helpers/auth/rbac/validation `BreakdownRule` (kubectl's rbacutil): one verb, one resource, one name per rule. */
function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const g of r.apiGroups)
    for (const res of r.resources)
      for (const v of r.verbs) {
        if (r.resourceNames.length) for (const n of r.resourceNames) out.push({ verbs: [v], apiGroups: [g], resources: [res], resourceNames: [n], nonResourceURLs: [] });
        else out.push({ verbs: [v], apiGroups: [g], resources: [res], resourceNames: [], nonResourceURLs: [] });
      }
  for (const u of r.nonResourceURLs) for (const v of r.verbs) out.push({ verbs: [v], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [u] });
  return out;
}

/** `CompactRules`: simple rules (one group, one resource, at most one name) of the same target merge their verbs, in order. */
function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = r.resourceNames.length <= 1 && r.nonResourceURLs.length === 0 && r.apiGroups.length === 1 && r.resources.length === 1;
    if (!isSimple) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups[0], r.resources[0], r.resourceNames[0] ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...r.verbs);
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...compacted, ...simple.values()];
}

/** The generated `(*PolicyRule).String()` that `SortableRuleSlice` sorts by. */
const ruleString = (r: PolicyRule): string =>
  `&PolicyRule{Verbs:[${r.verbs.join(' ')}],APIGroups:[${r.apiGroups.join(' ')}],Resources:[${r.resources.join(' ')}],ResourceNames:[${r.resourceNames.join(' ')}],NonResourceURLs:[${r.nonResourceURLs.join(' ')}],}`;

/** describe.go `CombineResourceGroup`: `deployments.apps`, `pods/log`, `*.*`. */
function combineResourceGroup(resources: string[], groups: string[]): string {
  if (resources.length === 0) return '';
  const [base, sub] = resources[0].split(/\/(.*)/s, 2);
  let out = base;
  if (groups.length > 0 && groups[0] !== '') out += '.' + groups[0];
  if (sub !== undefined) out += '/' + sub;
  return out;
}

/**
 * `kubectl auth can-i --list [--no-headers] [-n NS] [--as USER]`: cani.go `RunAccessList` /
 * `printStatus`: the SelfSubjectRulesReview's rules broken down, compacted, sorted by their
 * String(), as `Resources  Non-Resource URLs  Resource Names  Verbs`.
 */
function authCanIList(env: Env): number {
  if (env.flags.args.length !== 0) throw new CmdError('error: list option must be specified with no arguments');
  if (env.flags.bool('quiet') || env.flags.bool('all-namespaces') || env.flags.str('subresource')) {
    throw new CmdError("error: list option can't be specified with neither quiet, all-namespaces nor subresource options");
  }
  requireServer(env);
  const as = env.flags.str('as');
  const user = as || KIND_ADMIN_USER;
  const sa = /^system:serviceaccount:([^:]+):[^:]+$/.exec(user);
  const groups = !as ? KIND_ADMIN_GROUPS : sa ? ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`, 'system:authenticated'] : [...env.flags.list('as-group'), 'system:authenticated'];
  const rules = compactRules(rulesFor(env, user, groups, env.namespace).flatMap(breakdownRule));
  const sorted = rules.map((r) => ({ r, k: ruleString(r) })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  let text = env.flags.bool('no-headers') ? '' : 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n';
  for (const { r } of sorted) text += `${combineResourceGroup(r.resources, r.apiGroups)}\t[${r.nonResourceURLs.join(' ')}]\t[${r.resourceNames.join(' ')}]\t[${r.verbs.join(' ')}]\n`;
  env.out(tabwrite(text));
  return 0;
}

/** `kubectl auth whoami`: the SelfSubjectReview of the kubeconfig's user. */
export function authWhoami(env: Env): number {
  requireServer(env);
  const as = env.flags.str('as');
  const user = as || KIND_ADMIN_USER;
  const groups = as ? [...env.flags.list('as-group'), 'system:authenticated'] : KIND_ADMIN_GROUPS;
  const output = env.flags.str('output');
  if (output === 'json' || output === 'yaml') {
    const review = { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: { username: user, groups } } };
    env.out(output === 'json' ? JSON.stringify(review, null, 4) + '\n' : `apiVersion: authentication.k8s.io/v1\nkind: SelfSubjectReview\nmetadata:\n  creationTimestamp: null\nstatus:\n  userInfo:\n    groups:\n${groups.map((g) => `    - ${g}\n`).join('')}    username: ${user}\n`);
    return 0;
  }
  env.out(tabwrite(`ATTRIBUTE\tVALUE\nUsername\t${user}\nGroups\t[${groups.join(' ')}]\n`));
  return 0;
}
