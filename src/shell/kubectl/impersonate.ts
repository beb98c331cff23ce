/**
 * `--as USER [--as-group GROUP]...`: kubectl sends the `Impersonate-User` / `Impersonate-Group`
 * headers and kube-apiserver authorizes every request of the command as that user. The kind
 * admin may impersonate anyone; the impersonated user has only the groups given with
 * `--as-group` plus `system:authenticated` (a ServiceAccount `system:serviceaccount:NS:NAME`
 * also gets `system:serviceaccounts` and `system:serviceaccounts:NS`).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go (the groups an
 * impersonated user gets), plugin/pkg/auth/authorizer/rbac/rbac.go (`RBACAuthorizer.Authorize`:
 * the bindings naming the user, its groups or its ServiceAccount; `system:masters` is allowed
 * everything by the authorizer chain's privileged-group check) and
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * (`forbiddenMessage`: `pods is forbidden: User "alice" cannot list resource "pods" in API
 * group "" in the namespace "default"`, with `"<name>"` after the resource for a named object,
 * `at the cluster scope` for cluster-scoped or all-namespaces requests).
 */
import { ApiError } from '../../engine/api/errors';
import type { ApiServer } from '../../engine/api/server';
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { rbacAllows, type RequestAttributes } from '../../engine/cluster/rbac';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const has = (list: string[] | undefined, v: string): boolean => (list ?? []).includes('*') || (list ?? []).includes(v);

/**
 * True when RBAC allows `user` (with `groups`, `system:authenticated` added) the request: a
 * ServiceAccount user (`system:serviceaccount:NS:NAME`) is evaluated as the engine's authorizer
 * evaluates app controllers (src/engine/cluster/rbac.ts); any other user through the bindings
 * naming it or one of its groups. `system:masters` is allowed everything.
 */
export function impersonatedAllows(api: ApiServer, user: string, groups: string[], a: RequestAttributes): boolean {
  if (groups.includes('system:masters')) return true;
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  if (m && rbacAllows(api, { namespace: m[1], name: m[2] }, a)) return true;
  const all = ['system:authenticated', ...groups];
  const bindings: { b: Any; ns: string | undefined }[] = api.list('clusterrolebindings').items.map((b: KubeObject) => ({ b, ns: undefined }));
  if (a.namespace) for (const b of api.list('rolebindings', { namespace: a.namespace }).items) bindings.push({ b, ns: a.namespace });
  for (const { b, ns } of bindings) {
    const subs: Any[] = b.subjects ?? [];
    if (!subs.some((s) => (s.kind === 'User' && s.name === user) || (s.kind === 'Group' && all.includes(s.name)))) continue;
    const ref = b.roleRef ?? {};
    const role: Any = ref.kind === 'ClusterRole' ? api.tryGet('clusterroles', undefined, ref.name) : api.tryGet('roles', ns, ref.name);
    for (const r of role?.rules ?? []) {
      const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
      const resOk = has(r.resources, combined) || (a.subresource !== undefined && (r.resources ?? []).includes(`*/${a.subresource}`));
      if (has(r.verbs, a.verb) && has(r.apiGroups, a.group) && resOk && (!(r.resourceNames ?? []).length || (a.name && r.resourceNames.includes(a.name)))) return true;
    }
  }
  return false;
}

/**
 * True when RBAC allows `user` (with `groups`, `system:authenticated` added; a ServiceAccount
 * also in `system:serviceaccounts` and `system:serviceaccounts:NS`) `verb` on the non-resource
 * URL `url` (`/healthz`): only ClusterRoleBindings grant non-resource URLs; a rule's URL matches
 * exactly, or as a prefix when it ends in `*` (evaluation_helpers.go `NonResourceURLMatches`).
 */
export function impersonatedAllowsNonResource(api: ApiServer, user: string, groups: string[], verb: string, url: string): boolean {
  if (groups.includes('system:masters')) return true;
  const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user);
  const all = ['system:authenticated', ...groups, ...(m ? ['system:serviceaccounts', `system:serviceaccounts:${m[1]}`] : [])];
  const urlMatches = (rule: string) => rule === '*' || rule === url || (rule.endsWith('*') && url.startsWith(rule.replace(/\*+$/, '')));
  for (const b of api.list('clusterrolebindings').items as Any[]) {
    const subs: Any[] = b.subjects ?? [];
    if (!subs.some((s) => (s.kind === 'User' && s.name === user) || (s.kind === 'Group' && all.includes(s.name)) || (m !== null && s.kind === 'ServiceAccount' && s.name === m[2] && s.namespace === m[1]))) continue;
    const ref = b.roleRef ?? {};
    if (ref.kind !== 'ClusterRole') continue;
    const role: Any = api.tryGet('clusterroles', undefined, ref.name);
    for (const r of role?.rules ?? []) if (has(r.verbs, verb) && (r.nonResourceURLs ?? []).some(urlMatches)) return true;
  }
  return false;
}

/** The 403 for `user` (errors.go `forbiddenMessage`, as kube-apiserver words it for any user). */
export function userForbidden(user: string, a: RequestAttributes): ApiError {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const why = `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: a.name ? `${qualified} "${a.name}" is forbidden: ${why}` : `${qualified} is forbidden: ${why}`,
    reason: 'Forbidden',
    details: { name: a.name || undefined, group: a.group || undefined, kind: a.resource },
    code: 403,
  });
}

/**
 * The API as `kubectl --as=USER` reaches it: every request is authorized as `user` before it
 * runs (the server's own errors, such as NotFound, come only after authorization, as in
 * kube-apiserver's handler chain). Returns a Proxy over `api`; other members are the server's.
 * `quiet`: resources whose denied `list` reads as an empty list (describe's event search, which
 * describe.go does with its error ignored).
 */
export function impersonatingApi(api: ApiServer, user: string, groups: string[], quiet: Set<string> = new Set()): ApiServer {
  const type = (t: string | ResourceType): ResourceType => api.resolveType(t);
  const authorize = (a: RequestAttributes) => {
    if (!impersonatedAllows(api, user, groups, a)) throw userForbidden(user, a);
  };
  const check = (t: ResourceType, verb: string, namespace: string | undefined, name?: string, subresource?: string) =>
    authorize({ verb, group: t.group, resource: t.resource, subresource, namespace: t.namespaced ? namespace : undefined, name: name || undefined });
  const nsOf = (o: Any, dflt?: string): string | undefined => o?.metadata?.namespace || dflt || 'default';
  const wrapped: Partial<Record<keyof ApiServer, unknown>> = {
    get: (t: Any, ns: string | undefined, name: string) => {
      check(type(t), 'get', ns || 'default', name);
      return api.get(t, ns, name);
    },
    tryGet: (t: Any, ns: string | undefined, name: string) => {
      check(type(t), 'get', ns || 'default', name);
      return api.tryGet(t, ns, name);
    },
    tryGetShared: (t: Any, ns: string | undefined, name: string) => {
      check(type(t), 'get', ns || 'default', name);
      return api.tryGetShared(t, ns, name);
    },
    list: (t: Any, opts: Any = {}) => {
      const rt = type(t);
      try {
        check(rt, 'list', opts.namespace);
      } catch (e) {
        if (quiet.has(rt.resource)) return { ...api.list(t, opts), items: [] };
        throw e;
      }
      return api.list(t, opts);
    },
    watch: (t: Any, opts: Any, handler: Any) => {
      check(type(t), 'watch', opts?.namespace);
      return api.watch(t, opts, handler);
    },
    create: (obj: KubeObject, opts: Any = {}) => {
      check(api.typeOfObject(obj), 'create', nsOf(obj, opts.namespace));
      return api.create(obj, opts);
    },
    update: (obj: KubeObject, opts: Any = {}) => {
      check(api.typeOfObject(obj), 'update', nsOf(obj), obj.metadata?.name, opts.subresource);
      return api.update(obj, opts);
    },
    updateStatus: (obj: KubeObject, opts: Any = {}) => {
      check(api.typeOfObject(obj), 'update', nsOf(obj), obj.metadata?.name, 'status');
      return api.updateStatus(obj, opts);
    },
    patch: (t: Any, ns: string | undefined, name: string, patchType: Any, patch: Any, opts: Any = {}) => {
      check(type(t), 'patch', ns || 'default', name, opts.subresource);
      return api.patch(t, ns, name, patchType, patch, opts);
    },
    apply: (manifest: KubeObject, opts: Any = {}) => {
      // Client-side apply: GET the live object, then POST or PATCH it.
      const t = api.typeOfObject(manifest);
      const ns = nsOf(manifest, opts.namespace);
      check(t, 'get', ns, manifest.metadata?.name);
      const live = manifest.metadata?.name ? api.tryGet(t, ns, manifest.metadata.name) : undefined;
      check(t, live ? 'patch' : 'create', ns, live ? manifest.metadata?.name : undefined);
      return api.apply(manifest, opts);
    },
    delete: (t: Any, ns: string | undefined, name: string, opts: Any) => {
      check(type(t), 'delete', ns || 'default', name);
      return api.delete(t, ns, name, opts);
    },
    evict: (ns: string, name: string, opts: Any) => {
      check(type('pods'), 'create', ns, name, 'eviction');
      return api.evict(ns, name, opts);
    },
    deleteCollection: (t: Any, opts: Any = {}) => {
      check(type(t), 'deletecollection', opts.namespace);
      return api.deleteCollection(t, opts);
    },
    getScale: (t: Any, ns: string | undefined, name: string) => {
      check(type(t), 'get', ns || 'default', name, 'scale');
      return api.getScale(t, ns, name);
    },
    updateScale: (t: Any, ns: string | undefined, name: string, replicas: number, opts: Any) => {
      check(type(t), 'update', ns || 'default', name, 'scale');
      return api.updateScale(t, ns, name, replicas, opts);
    },
  };
  const proxy = new Proxy(api, {
    get(target, prop) {
      if (typeof prop === 'string' && Object.hasOwn(wrapped, prop)) return wrapped[prop as keyof ApiServer];
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  AUTHORIZERS.set(proxy, authorize);
  return proxy;
}

/** The authorizer of each impersonating API (for the requests that do not go through its methods). */
const AUTHORIZERS = new WeakMap<ApiServer, (a: RequestAttributes) => void>();

/**
 * Authorize a request the shell serves without an API method (the `pods/log` GET and `pods/exec`
 * POST kube-apiserver proxies to the kubelet) when `api` impersonates a user; a no-op for the
 * kind admin. Throws the 403 (`pods "x" is forbidden: User "bob" cannot get resource "pods/log"
 * in API group "" in the namespace "dev"`).
 */
export function authorizeRequest(api: ApiServer, a: RequestAttributes): void {
  AUTHORIZERS.get(api)?.(a);
}
