/**
 * RBAC as kube-apiserver's authorizer applies it to a ServiceAccount's requests, for the app
 * controllers that run inside pods (appcontrollers.ts): a request is allowed when a Role or
 * ClusterRole bound to the ServiceAccount (directly, or through the groups every ServiceAccount is
 * in) has a rule matching its verb, API group, resource (`shelves/status` is a resource of its
 * own) and name. Denials carry the API server's exact text.
 *
 * Mirrors plugin/pkg/auth/authorizer/rbac/rbac.go (`RBACAuthorizer.Authorize`, `RuleAllows`),
 * pkg/apis/rbac/v1/evaluation_helpers.go (`VerbMatches`, `APIGroupMatches`, `ResourceMatches`,
 * `ResourceNameMatches`), staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go
 * (`system:serviceaccount:<ns>:<name>`, groups `system:serviceaccounts`,
 * `system:serviceaccounts:<ns>`, plus `system:authenticated`) and
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * (`forbiddenMessage`).
 *
 * The bindings and roles are read through the client's `ApiServer` (the authorizer's cache lives
 * in kube-apiserver, so a request that cannot reach it fails the same way before authorization).
 */
import { ApiError } from '../api/errors';
import type { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';

/** What a request asks to do (authorizer.Attributes for a resource request). */
export interface RequestAttributes {
  /** `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`. */
  verb: string;
  /** API group (`''` for the core group). */
  group: string;
  /** Plural resource (`shelves`). */
  resource: string;
  /** Subresource (`status`), if any. */
  subresource?: string;
  /** Namespace of the request (undefined: cluster scope). */
  namespace?: string;
  /** Object name (empty for list and create). */
  name?: string;
}

/** A ServiceAccount as the authenticator sees its token. */
export interface ServiceAccountUser {
  namespace: string;
  name: string;
}

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

/** `system:serviceaccount:<ns>:<name>`. */
export function serviceAccountUsername(sa: ServiceAccountUser): string {
  return `system:serviceaccount:${sa.namespace}:${sa.name}`;
}

const has = (list: string[] | undefined, v: string): boolean => (list ?? []).includes('*') || (list ?? []).includes(v);

/** `RuleAllows` of evaluation_helpers.go. */
function ruleAllows(r: PolicyRule, a: RequestAttributes): boolean {
  if (!has(r.verbs, a.verb)) return false;
  if (!has(r.apiGroups, a.group)) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resources = r.resources ?? [];
  const resOk = resources.includes('*') || resources.includes(combined) || (a.subresource ? resources.includes(`*/${a.subresource}`) : false);
  if (!resOk) return false;
  const names = r.resourceNames ?? [];
  return names.length === 0 || (!!a.name && names.includes(a.name));
}

function subjectMatches(s: { kind?: string; name?: string; namespace?: string }, sa: ServiceAccountUser, bindingNs: string | undefined): boolean {
  if (s.kind === 'ServiceAccount') return s.name === sa.name && (s.namespace || bindingNs) === sa.namespace;
  if (s.kind === 'Group') return s.name === 'system:serviceaccounts' || s.name === `system:serviceaccounts:${sa.namespace}` || s.name === 'system:authenticated';
  if (s.kind === 'User') return s.name === serviceAccountUsername(sa);
  return false;
}

function rulesOf(api: ApiServer, ref: { kind?: string; name?: string }, bindingNs: string | undefined): PolicyRule[] {
  const role = ref.kind === 'ClusterRole' ? api.tryGet('clusterroles', undefined, ref.name ?? '') : api.tryGet('roles', bindingNs, ref.name ?? '');
  return ((role as (KubeObject & { rules?: PolicyRule[] }) | undefined)?.rules ?? []) as PolicyRule[];
}

/** True when RBAC allows `sa` to make the request. Errors: the client's ApiError when kube-apiserver cannot be reached. */
export function rbacAllows(api: ApiServer, sa: ServiceAccountUser, a: RequestAttributes): boolean {
  const bindings: { b: KubeObject; ns: string | undefined }[] = [];
  for (const b of api.list('clusterrolebindings').items) bindings.push({ b, ns: undefined });
  if (a.namespace) for (const b of api.list('rolebindings', { namespace: a.namespace }).items) bindings.push({ b, ns: a.namespace });
  for (const { b, ns } of bindings) {
    const subjects =
      (
        b as KubeObject & {
          subjects?: { kind?: string; name?: string; namespace?: string }[];
        }
      ).subjects ?? [];
    if (!subjects.some((s) => subjectMatches(s, sa, ns))) continue;
    const ref = (b as KubeObject & { roleRef?: { kind?: string; name?: string } }).roleRef ?? {};
    if (rulesOf(api, ref, ns).some((r) => ruleAllows(r, a))) return true;
  }
  return false;
}

/**
 * The 403 kube-apiserver answers a denied request with:
 * `shelves.bookshop.engineers-musings.dev is forbidden: User "system:serviceaccount:bookshop:shelf-controller"
 * cannot list resource "shelves" in API group "bookshop.engineers-musings.dev" in the namespace "bookshop"`
 * (with `"<name>"` after the resource when the request names an object).
 */
export function forbiddenError(sa: ServiceAccountUser, a: RequestAttributes): ApiError {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const why = `User "${serviceAccountUsername(sa)}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const message = a.name ? `${qualified} "${a.name}" is forbidden: ${why}` : `${qualified} is forbidden: ${why}`;
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Forbidden',
    details: {
      name: a.name || undefined,
      group: a.group || undefined,
      kind: a.resource,
    },
    code: 403,
  });
}

/** Throw `forbiddenError` unless RBAC allows the request (and the client's error when the server cannot be reached). */
export function authorize(api: ApiServer, sa: ServiceAccountUser, a: RequestAttributes): void {
  if (!rbacAllows(api, sa, a)) throw forbiddenError(sa, a);
}
