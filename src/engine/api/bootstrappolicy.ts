/**
 * The default RBAC policy kube-apiserver creates at start-up: its `rbac/bootstrap-roles`
 * post-start hook (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go, reconciled by
 * pkg/registry/rbac/rest/storage_rbac.go `PostStartHook`) creates every missing default
 * ClusterRole, ClusterRoleBinding, Role and RoleBinding, each labelled
 * `kubernetes.io/bootstrapping: rbac-defaults` and annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "true"`.
 *
 * The aggregated roles (`admin`, `edit`, `view`) are stored with their rules filled as
 * kube-controller-manager's clusterrole-aggregation controller fills them
 * (pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go `syncClusterRole`:
 * for each selector, the matching ClusterRoles sorted by name, their rules appended unless an
 * equal rule is already there); `aggregateClusterRoleRules` is that union.
 */
import type { KubeObject } from "./types";
import {
  CLUSTER_ROLES,
  CLUSTER_ROLE_BINDINGS,
  CONTROLLER_ROLES,
  CONTROLLER_ROLE_BINDINGS,
  NAMESPACE_ROLES,
  NAMESPACE_ROLE_BINDINGS,
  type CompactBinding,
  type CompactRole,
} from "./bootstrappolicy-data";

/** `kubernetes.io/bootstrapping: rbac-defaults` (bootstrappolicy/policy.go `addDefaultMetadata`). */
export const BOOTSTRAP_LABELS: Readonly<Record<string, string>> = {
  "kubernetes.io/bootstrapping": "rbac-defaults",
};
/** `rbac.authorization.kubernetes.io/autoupdate: "true"` (rbacv1helpers `AutoUpdateAnnotationKey`). */
export const AUTOUPDATE_ANNOTATIONS: Readonly<Record<string, string>> = {
  "rbac.authorization.kubernetes.io/autoupdate": "true",
};
/**
 * XOR'd into the run's seed for the stream the bootstrap policy's uids are drawn from (a
 * simulation choice, not a Kubernetes value: it keeps the seeded run's other draws unchanged).
 */
export const BOOTSTRAP_POLICY_RNG_SALT = 0x5bac;
/** Label prefix of the aggregation selectors (`rbac.authorization.k8s.io/aggregate-to-<role>`). */
const AGGREGATE_TO = "rbac.authorization.k8s.io/aggregate-to-";
const RBAC_GROUP = "rbac.authorization.k8s.io";

/** An RBAC PolicyRule (rbac/v1). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** Decode one compact rule string (see bootstrappolicy-data.ts). */
function decodeRule(s: string): PolicyRule {
  const [verbs, groups, resources, names] = s.split("|");
  const list = (x: string) => x.split(",");
  if (resources.startsWith("@"))
    return { nonResourceURLs: list(resources.slice(1)), verbs: list(verbs) };
  const r: PolicyRule = {
    apiGroups: list(groups),
    resources: list(resources),
    verbs: list(verbs),
  };
  if (names) r.resourceNames = list(names);
  // Field order as the API server serialises rbac/v1 PolicyRule: verbs, apiGroups, resources, resourceNames.
  return {
    verbs: r.verbs,
    apiGroups: r.apiGroups,
    resources: r.resources,
    ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
  };
}

function roleObject(c: CompactRole): KubeObject {
  const labels: Record<string, string> = { ...BOOTSTRAP_LABELS };
  for (const l of c.lab ?? []) labels[AGGREGATE_TO + l] = "true";
  const o: Record<string, unknown> = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: c.ns ? "Role" : "ClusterRole",
    metadata: {
      name: c.n,
      ...(c.ns ? { namespace: c.ns } : {}),
      labels,
      annotations: { ...AUTOUPDATE_ANNOTATIONS },
    },
  };
  if (c.agg)
    o.aggregationRule = {
      clusterRoleSelectors: c.agg.map((a) => ({
        matchLabels: { [AGGREGATE_TO + a]: "true" },
      })),
    };
  o.rules = c.r.map(decodeRule);
  return o as unknown as KubeObject;
}

function subject(s: string): Record<string, string> {
  const i = s.indexOf(":");
  const kind = s.slice(0, i);
  const rest = s.slice(i + 1);
  if (kind === "ServiceAccount") {
    const [name, namespace] = rest.split(":");
    return { kind, name, namespace };
  }
  return { apiGroup: RBAC_GROUP, kind, name: rest };
}

function bindingObject(c: CompactBinding): KubeObject {
  const o: Record<string, unknown> = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: c.ns ? "RoleBinding" : "ClusterRoleBinding",
    metadata: {
      name: c.n,
      ...(c.ns ? { namespace: c.ns } : {}),
      labels: { ...BOOTSTRAP_LABELS },
      annotations: { ...AUTOUPDATE_ANNOTATIONS },
    },
    roleRef: {
      apiGroup: RBAC_GROUP,
      kind: c.ns ? "Role" : "ClusterRole",
      name: c.role,
    },
  };
  if (c.s.length) o.subjects = c.s.map(subject);
  return o as unknown as KubeObject;
}

/** Go's sort by name (byte order), as `byName` in the aggregation controller. */
const byName = (a: KubeObject, b: KubeObject): number => {
  const x = a.metadata.name ?? "";
  const y = b.metadata.name ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
};

const ruleKey = (r: PolicyRule): string =>
  JSON.stringify([
    r.verbs,
    r.apiGroups ?? [],
    r.resources ?? [],
    r.resourceNames ?? [],
    r.nonResourceURLs ?? [],
  ]);

/**
 * The rules the clusterrole-aggregation controller gives `role`: for each of its
 * `aggregationRule.clusterRoleSelectors` (matchLabels only), the other ClusterRoles in `all`
 * whose labels match, sorted by name, their rules appended unless an equal rule is already in
 * the result. Returns undefined when `role` has no aggregationRule.
 */
export function aggregateClusterRoleRules(
  role: KubeObject,
  all: readonly KubeObject[],
): PolicyRule[] | undefined {
  const agg = (
    role as KubeObject & {
      aggregationRule?: {
        clusterRoleSelectors?: { matchLabels?: Record<string, string> }[];
      };
    }
  ).aggregationRule;
  if (!agg) return undefined;
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const sel of agg.clusterRoleSelectors ?? []) {
    const want = Object.entries(sel.matchLabels ?? {});
    const matching = all
      .filter(
        (c) =>
          c.metadata.name !== role.metadata.name &&
          want.every(([k, v]) => c.metadata.labels?.[k] === v),
      )
      .sort((a, b) => byName(a, b));
    for (const c of matching) {
      for (const r of (c as KubeObject & { rules?: PolicyRule[] }).rules ??
        []) {
        const k = ruleKey(r);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(r);
      }
    }
  }
  return out;
}

/**
 * Every default RBAC object, in creation order (ClusterRoles then the controllers' ClusterRoles,
 * ClusterRoleBindings then the controllers', Roles, RoleBindings, as storage_rbac.go's hook
 * reconciles `append(ClusterRoles(), ControllerRoles()...)` and the bindings likewise), the aggregated ClusterRoles with
 * their rules already filled (view, then edit, then admin: each aggregates the one before).
 */
export function bootstrapPolicyObjects(): KubeObject[] {
  const clusterRoles = CLUSTER_ROLES.map(roleObject);
  for (const name of ["view", "edit", "admin"]) {
    const role = clusterRoles.find((c) => c.metadata.name === name);
    if (role)
      (role as KubeObject & { rules?: PolicyRule[] }).rules =
        aggregateClusterRoleRules(role, clusterRoles) ?? [];
  }
  return [
    ...clusterRoles,
    ...CONTROLLER_ROLES.map(roleObject),
    ...CLUSTER_ROLE_BINDINGS.map(bindingObject),
    ...CONTROLLER_ROLE_BINDINGS.map(bindingObject),
    ...NAMESPACE_ROLES.map(roleObject),
    ...NAMESPACE_ROLE_BINDINGS.map(bindingObject),
  ];
}
