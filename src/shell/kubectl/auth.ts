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
import type { KubeObject } from '../../engine/api/types';
import { rbacAllows } from '../../engine/cluster/rbac';
import { tabwrite } from '../printers/table';
import { CmdError, discover, requireServer, usageError, type Env } from './env';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** The user kind's kubeconfig authenticates as (kubeadm's admin.conf client certificate). */
export const KIND_ADMIN_USER = 'kubernetes-admin';
/** Its groups as the SelfSubjectReview reports them (kubeadm >= 1.29: `kubeadm:cluster-admins`). */
export const KIND_ADMIN_GROUPS = ['kubeadm:cluster-admins', 'system:authenticated'];

/** RBAC for a plain user (not a service account): bindings naming the user or `system:authenticated`. */
function userAllows(env: Env, user: string, groups: string[], a: { verb: string; group: string; resource: string; subresource?: string; namespace?: string; name?: string }): boolean {
  const all = ['system:authenticated', ...groups];
  const bindings: { b: Any; ns: string | undefined }[] = env.api.list('clusterrolebindings').items.map((b: KubeObject) => ({ b, ns: undefined }));
  if (a.namespace) for (const b of env.api.list('rolebindings', { namespace: a.namespace }).items) bindings.push({ b, ns: a.namespace });
  const has = (list: string[] | undefined, v: string) => (list ?? []).includes('*') || (list ?? []).includes(v);
  for (const { b, ns } of bindings) {
    const subs: Any[] = b.subjects ?? [];
    if (!subs.some((s) => (s.kind === 'User' && s.name === user) || (s.kind === 'Group' && all.includes(s.name)))) continue;
    const ref = b.roleRef ?? {};
    const role: Any = ref.kind === 'ClusterRole' ? env.api.tryGet('clusterroles', undefined, ref.name) : env.api.tryGet('roles', ns, ref.name);
    for (const r of role?.rules ?? []) {
      const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
      if (has(r.verbs, a.verb) && has(r.apiGroups, a.group) && has(r.resources, combined) && (!(r.resourceNames ?? []).length || (a.name && r.resourceNames.includes(a.name)))) return true;
    }
  }
  return false;
}

/** `kubectl auth can-i`. */
export function authCanI(env: Env): number {
  const args = env.flags.args;
  const quiet = env.flags.bool('quiet');
  if (env.flags.bool('list')) throw usageError(env, '--list is not supported in this playground');
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
    const t = env.api.registry.resolve(typed);
    if (!t) {
      env.err(`Warning: the server doesn't have a resource type '${typed}'\n\n`);
      resource = typed;
    } else {
      group = t.group;
      resource = t.resource;
      if (!t.namespaced && env.explicitNamespace) env.err(`Warning: resource '${t.resource}' is not namespace scoped\n\n`);
    }
  }
  const as = env.flags.str('as');
  let allowed: boolean;
  if (!as || as === KIND_ADMIN_USER) allowed = true;
  else if (nonResource) allowed = false;
  else {
    const attrs = { verb, group, resource, subresource: env.flags.str('subresource') || undefined, namespace, name: name || undefined };
    const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(as);
    allowed = m ? rbacAllows(env.api, { namespace: m[1], name: m[2] }, attrs) : userAllows(env, as, env.flags.list('as-group'), attrs);
  }
  if (!quiet) env.out(allowed ? 'yes\n' : 'no\n');
  return allowed ? 0 : 1;
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
