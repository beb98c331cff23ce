/**
 * The default RBAC policy kube-apiserver's `rbac/bootstrap-roles` post-start hook creates, in a
 * compact form (decoded by bootstrappolicy.ts). Transcribed from the Kubernetes test fixtures
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/testdata/cluster-roles.yaml (commit
 * 025f2834a128798cef30018a5e6a6ae82b5ad885), cluster-role-bindings.yaml (commit
 * c60df8997f62f861cf0cd2b13ab62271464589ed, plus the `system:monitoring` and
 * `system:service-account-issuer-discovery` bindings of bootstrappolicy/policy.go
 * `ClusterRoleBindings()`), namespace-roles.yaml and namespace-role-bindings.yaml (commit
 * 008b3652959ca58af8be3fb5b6ecfe9ae7638282). The per-controller `system:controller:*` roles
 * (controller-roles.yaml) are `CONTROLLER_ROLES` at the end.
 *
 * Rule encoding: `"verbs|apiGroups|resources|resourceNames"`, each a comma-separated list (the
 * core group is the empty string; `resourceNames` optional); a non-resource rule is
 * `"verbs||@url,url"`. An entry's `agg` is its aggregationRule's matchLabels keys (value
 * `"true"`), `lab` the extra `rbac.authorization.k8s.io/aggregate-to-*` labels it carries.
 */

/** One bootstrap ClusterRole or Role: name, optional namespace, encoded rules, aggregation. */
export interface CompactRole {
  n: string;
  ns?: string;
  r: string[];
  agg?: string[];
  lab?: string[];
}

/** One bootstrap (Cluster)RoleBinding: name, optional namespace, role name, subjects `Kind:name[:namespace]`. */
export interface CompactBinding {
  n: string;
  ns?: string;
  role: string;
  s: string[];
}

const RW = "create,delete,deletecollection,patch,update";
const GLW = "get,list,watch";
const EV = "create,patch,update|,events.k8s.io|events";

/** The bootstrap ClusterRoles (cluster-roles.yaml), in the fixture's order. */
export const CLUSTER_ROLES: CompactRole[] = [
  { n: "admin", r: [], agg: ["admin"] },
  { n: "cluster-admin", r: ["*|*|*", "*||@*"] },
  { n: "edit", r: [], agg: ["edit"], lab: ["admin"] },
  {
    n: "system:aggregate-to-admin",
    lab: ["admin"],
    r: [
      "create|authorization.k8s.io|localsubjectaccessreviews",
      "create,delete,deletecollection,get,list,patch,update,watch|rbac.authorization.k8s.io|rolebindings,roles",
    ],
  },
  {
    n: "system:aggregate-to-edit",
    lab: ["edit"],
    r: [
      `${GLW}||pods/attach,pods/exec,pods/portforward,pods/proxy,secrets,services/proxy`,
      "impersonate||serviceaccounts",
      `${RW}||pods,pods/attach,pods/exec,pods/portforward,pods/proxy`,
      "create||pods/eviction",
      `${RW}||configmaps,events,persistentvolumeclaims,replicationcontrollers,replicationcontrollers/scale,secrets,serviceaccounts,services,services/proxy`,
      "create||serviceaccounts/token",
      `${RW}|apps|daemonsets,deployments,deployments/rollback,deployments/scale,replicasets,replicasets/scale,statefulsets,statefulsets/scale`,
      `${RW}|autoscaling|horizontalpodautoscalers`,
      `${RW}|batch|cronjobs,jobs`,
      `${RW}|extensions|daemonsets,deployments,deployments/rollback,deployments/scale,ingresses,networkpolicies,replicasets,replicasets/scale,replicationcontrollers/scale`,
      `${RW}|policy|poddisruptionbudgets`,
      `${RW}|networking.k8s.io|ingresses,networkpolicies`,
      "create,delete,deletecollection,get,list,patch,update,watch|coordination.k8s.io|leases",
    ],
  },
  {
    n: "system:aggregate-to-view",
    lab: ["view"],
    r: [
      `${GLW}||configmaps,endpoints,persistentvolumeclaims,persistentvolumeclaims/status,pods,replicationcontrollers,replicationcontrollers/scale,serviceaccounts,services,services/status`,
      `${GLW}||bindings,events,limitranges,namespaces/status,pods/log,pods/status,replicationcontrollers/status,resourcequotas,resourcequotas/status`,
      `${GLW}||namespaces`,
      `${GLW}|discovery.k8s.io|endpointslices`,
      `${GLW}|apps|controllerrevisions,daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,replicasets,replicasets/scale,replicasets/status,statefulsets,statefulsets/scale,statefulsets/status`,
      `${GLW}|autoscaling|horizontalpodautoscalers,horizontalpodautoscalers/status`,
      `${GLW}|batch|cronjobs,cronjobs/status,jobs,jobs/status`,
      `${GLW}|extensions|daemonsets,daemonsets/status,deployments,deployments/scale,deployments/status,ingresses,ingresses/status,networkpolicies,replicasets,replicasets/scale,replicasets/status,replicationcontrollers/scale`,
      `${GLW}|policy|poddisruptionbudgets,poddisruptionbudgets/status`,
      `${GLW}|networking.k8s.io|ingresses,ingresses/status,networkpolicies`,
    ],
  },
  {
    n: "system:auth-delegator",
    r: [
      "create|authentication.k8s.io|tokenreviews",
      "create|authorization.k8s.io|subjectaccessreviews",
    ],
  },
  {
    n: "system:basic-user",
    r: [
      "create|authorization.k8s.io|selfsubjectaccessreviews,selfsubjectrulesreviews",
      "create|authentication.k8s.io|selfsubjectreviews",
    ],
  },
  {
    n: "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
    r: ["create|certificates.k8s.io|certificatesigningrequests/nodeclient"],
  },
  {
    n: "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
    r: ["create|certificates.k8s.io|certificatesigningrequests/selfnodeclient"],
  },
  {
    n: "system:certificates.k8s.io:kube-apiserver-client-approver",
    r: [
      "approve|certificates.k8s.io|signers|kubernetes.io/kube-apiserver-client",
    ],
  },
  {
    n: "system:certificates.k8s.io:kube-apiserver-client-kubelet-approver",
    r: [
      "approve|certificates.k8s.io|signers|kubernetes.io/kube-apiserver-client-kubelet",
    ],
  },
  {
    n: "system:certificates.k8s.io:kubelet-serving-approver",
    r: ["approve|certificates.k8s.io|signers|kubernetes.io/kubelet-serving"],
  },
  {
    n: "system:certificates.k8s.io:legacy-unknown-approver",
    r: ["approve|certificates.k8s.io|signers|kubernetes.io/legacy-unknown"],
  },
  {
    n: "system:discovery",
    r: [
      "get||@/api,/api/*,/apis,/apis/*,/healthz,/livez,/openapi,/openapi/*,/readyz,/version,/version/",
    ],
  },
  {
    n: "system:heapster",
    r: [
      `${GLW}||events,namespaces,nodes,pods`,
      `${GLW}|extensions|deployments`,
    ],
  },
  { n: "system:kube-aggregator", r: [`${GLW}||endpoints,services`] },
  {
    n: "system:kube-controller-manager",
    r: [
      EV,
      "create|coordination.k8s.io|leases",
      "get,update|coordination.k8s.io|leases|kube-controller-manager",
      "create||secrets,serviceaccounts",
      "delete||secrets",
      "get||configmaps,namespaces,secrets,serviceaccounts",
      "update||secrets,serviceaccounts",
      "create|authentication.k8s.io|tokenreviews",
      "create|authorization.k8s.io|subjectaccessreviews",
      "list,watch|*|*",
      "create||serviceaccounts/token",
    ],
  },
  { n: "system:kube-dns", r: ["list,watch||endpoints,services"] },
  {
    n: "system:kube-scheduler",
    r: [
      EV,
      "create|coordination.k8s.io|leases",
      "get,update|coordination.k8s.io|leases|kube-scheduler",
      `${GLW}||nodes`,
      "delete,get,list,watch||pods",
      "create||bindings,pods/binding",
      "patch,update||pods/status",
      `${GLW}||replicationcontrollers,services`,
      `${GLW}|apps,extensions|replicasets`,
      `${GLW}|apps|statefulsets`,
      `${GLW}|policy|poddisruptionbudgets`,
      `${GLW}||persistentvolumeclaims,persistentvolumes`,
      "create|authentication.k8s.io|tokenreviews",
      "create|authorization.k8s.io|subjectaccessreviews",
      `${GLW}|storage.k8s.io|csinodes`,
      `${GLW}||namespaces`,
      `${GLW}|storage.k8s.io|csidrivers`,
      `${GLW}|storage.k8s.io|csistoragecapacities`,
    ],
  },
  {
    n: "system:kubelet-api-admin",
    r: [
      `${GLW}||nodes`,
      "proxy||nodes",
      "*||nodes/log,nodes/metrics,nodes/proxy,nodes/stats",
    ],
  },
  {
    n: "system:monitoring",
    r: [
      "get||@/healthz,/healthz/*,/livez,/livez/*,/metrics,/metrics/slis,/readyz,/readyz/*",
    ],
  },
  {
    n: "system:node",
    r: [
      "create|authentication.k8s.io|tokenreviews",
      "create|authorization.k8s.io|localsubjectaccessreviews,subjectaccessreviews",
      `${GLW}||services`,
      "create,get,list,watch||nodes",
      "patch,update||nodes/status",
      "patch,update||nodes",
      "create,patch,update||events",
      `${GLW}||pods`,
      "create,delete||pods",
      "patch,update||pods/status",
      "create||pods/eviction",
      `${GLW}||configmaps,secrets`,
      "get||persistentvolumeclaims,persistentvolumes",
      "get||endpoints",
      "create,get,list,watch|certificates.k8s.io|certificatesigningrequests",
      "create,delete,get,patch,update|coordination.k8s.io|leases",
      "get|storage.k8s.io|volumeattachments",
      "create||serviceaccounts/token",
      "get,patch,update||persistentvolumeclaims/status",
      `${GLW}|storage.k8s.io|csidrivers`,
      "create,delete,get,patch,update|storage.k8s.io|csinodes",
      `${GLW}|node.k8s.io|runtimeclasses`,
    ],
  },
  {
    n: "system:node-bootstrapper",
    r: ["create,get,list,watch|certificates.k8s.io|certificatesigningrequests"],
  },
  {
    n: "system:node-problem-detector",
    r: ["get||nodes", "patch||nodes/status", EV],
  },
  {
    n: "system:node-proxier",
    r: [
      "list,watch||endpoints,services",
      `${GLW}||nodes`,
      EV,
      "list,watch|discovery.k8s.io|endpointslices",
    ],
  },
  {
    n: "system:persistent-volume-provisioner",
    r: [
      "create,delete,get,list,watch||persistentvolumes",
      "get,list,update,watch||persistentvolumeclaims",
      `${GLW}|storage.k8s.io|storageclasses`,
      "watch||events",
      EV,
    ],
  },
  {
    n: "system:public-info-viewer",
    r: ["get||@/healthz,/livez,/readyz,/version,/version/"],
  },
  {
    n: "system:service-account-issuer-discovery",
    r: ["get||@/.well-known/openid-configuration,/openid/v1/jwks"],
  },
  {
    n: "system:volume-scheduler",
    r: [
      "get,list,patch,update,watch||persistentvolumes",
      `${GLW}|storage.k8s.io|storageclasses`,
      "get,list,patch,update,watch||persistentvolumeclaims",
    ],
  },
  { n: "view", r: [], agg: ["view"], lab: ["edit"] },
];

/** The bootstrap ClusterRoleBindings (cluster-role-bindings.yaml + policy.go), roleRef name = `role`. */
export const CLUSTER_ROLE_BINDINGS: CompactBinding[] = [
  { n: "cluster-admin", role: "cluster-admin", s: ["Group:system:masters"] },
  {
    n: "system:basic-user",
    role: "system:basic-user",
    s: ["Group:system:authenticated"],
  },
  {
    n: "system:discovery",
    role: "system:discovery",
    s: ["Group:system:authenticated"],
  },
  {
    n: "system:kube-controller-manager",
    role: "system:kube-controller-manager",
    s: ["User:system:kube-controller-manager"],
  },
  {
    n: "system:kube-dns",
    role: "system:kube-dns",
    s: ["ServiceAccount:kube-dns:kube-system"],
  },
  {
    n: "system:kube-scheduler",
    role: "system:kube-scheduler",
    s: ["User:system:kube-scheduler"],
  },
  {
    n: "system:monitoring",
    role: "system:monitoring",
    s: ["Group:system:monitoring"],
  },
  { n: "system:node", role: "system:node", s: [] },
  {
    n: "system:node-proxier",
    role: "system:node-proxier",
    s: ["User:system:kube-proxy"],
  },
  {
    n: "system:public-info-viewer",
    role: "system:public-info-viewer",
    s: ["Group:system:authenticated", "Group:system:unauthenticated"],
  },
  {
    n: "system:service-account-issuer-discovery",
    role: "system:service-account-issuer-discovery",
    s: ["Group:system:serviceaccounts"],
  },
  {
    n: "system:volume-scheduler",
    role: "system:volume-scheduler",
    s: ["User:system:kube-scheduler"],
  },
];

/** The bootstrap Roles in kube-system and kube-public (namespace-roles.yaml). */
export const NAMESPACE_ROLES: CompactRole[] = [
  {
    n: "system:controller:bootstrap-signer",
    ns: "kube-public",
    r: [`${GLW}||configmaps`, "update||configmaps|cluster-info", EV],
  },
  {
    n: "extension-apiserver-authentication-reader",
    ns: "kube-system",
    r: [`${GLW}||configmaps|extension-apiserver-authentication`],
  },
  {
    n: "system::leader-locking-kube-controller-manager",
    ns: "kube-system",
    r: [
      "create,get,list,update,watch|coordination.k8s.io|leases",
      "create,get,list,update,watch|coordination.k8s.io|leasecandidates",
    ],
  },
  {
    n: "system::leader-locking-kube-scheduler",
    ns: "kube-system",
    r: [
      "create,get,list,update,watch|coordination.k8s.io|leases",
      "create,get,list,update,watch|coordination.k8s.io|leasecandidates",
    ],
  },
  {
    n: "system:controller:bootstrap-signer",
    ns: "kube-system",
    r: [`${GLW}||secrets`],
  },
  {
    n: "system:controller:cloud-provider",
    ns: "kube-system",
    r: ["create,get,list,watch||configmaps"],
  },
  {
    n: "system:controller:token-cleaner",
    ns: "kube-system",
    r: ["delete,get,list,watch||secrets", EV],
  },
];

/** The bootstrap RoleBindings (namespace-role-bindings.yaml), roleRef kind Role. */
export const NAMESPACE_ROLE_BINDINGS: CompactBinding[] = [
  {
    n: "system:controller:bootstrap-signer",
    ns: "kube-public",
    role: "system:controller:bootstrap-signer",
    s: ["ServiceAccount:bootstrap-signer:kube-system"],
  },
  {
    n: "system::extension-apiserver-authentication-reader",
    ns: "kube-system",
    role: "extension-apiserver-authentication-reader",
    s: ["User:system:kube-controller-manager", "User:system:kube-scheduler"],
  },
  {
    n: "system::leader-locking-kube-controller-manager",
    ns: "kube-system",
    role: "system::leader-locking-kube-controller-manager",
    s: [
      "User:system:kube-controller-manager",
      "ServiceAccount:kube-controller-manager:kube-system",
      "ServiceAccount:leader-election-controller:kube-system",
    ],
  },
  {
    n: "system::leader-locking-kube-scheduler",
    ns: "kube-system",
    role: "system::leader-locking-kube-scheduler",
    s: [
      "User:system:kube-scheduler",
      "ServiceAccount:kube-scheduler:kube-system",
    ],
  },
  {
    n: "system:controller:bootstrap-signer",
    ns: "kube-system",
    role: "system:controller:bootstrap-signer",
    s: ["ServiceAccount:bootstrap-signer:kube-system"],
  },
  {
    n: "system:controller:cloud-provider",
    ns: "kube-system",
    role: "system:controller:cloud-provider",
    s: ["ServiceAccount:cloud-provider:kube-system"],
  },
  {
    n: "system:controller:token-cleaner",
    ns: "kube-system",
    role: "system:controller:token-cleaner",
    s: ["ServiceAccount:token-cleaner:kube-system"],
  },
];

/**
 * The per-controller ClusterRoles kube-apiserver's rbac/bootstrap-roles hook creates after the
 * ClusterRoles above (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go
 * `buildControllerRoles`; storage_rbac.go appends `ControllerRoles()` to `ClusterRoles()`), each
 * `system:controller:<name>` bound to the ServiceAccount `kube-system/<name>` (see
 * `CONTROLLER_ROLE_BINDING_SUBJECT`). Rules transcribed from testdata/controller-roles.yaml
 * (commit 008b3652959ca58af8be3fb5b6ecfe9ae7638282), in its (name) order, for 1.35's default
 * feature gates: `device-taint-eviction-controller` is left out (controller_policy.go adds it only
 * with DRADeviceTaints, alpha and off until 1.36; the fixture was generated with it on).
 */
export const CONTROLLER_ROLES: CompactRole[] = [
  { n: "system:controller:attachdetach-controller", r: ["list,watch||persistentvolumeclaims,persistentvolumes", `${GLW}||nodes`, "patch,update||nodes/status", "list,watch||pods", EV, "create,delete,get,list,watch|storage.k8s.io|volumeattachments", `${GLW}|storage.k8s.io|csidrivers`, `${GLW}|storage.k8s.io|csinodes`] },
  {
    n: "system:controller:certificate-controller",
    r: [
      "delete,get,list,watch|certificates.k8s.io|certificatesigningrequests",
      "update|certificates.k8s.io|certificatesigningrequests/approval,certificatesigningrequests/status",
      "approve|certificates.k8s.io|signers|kubernetes.io/kube-apiserver-client-kubelet",
      "sign|certificates.k8s.io|signers|kubernetes.io/kube-apiserver-client,kubernetes.io/kube-apiserver-client-kubelet,kubernetes.io/kubelet-serving,kubernetes.io/legacy-unknown",
      "create|authorization.k8s.io|subjectaccessreviews",
      EV,
    ],
  },
  { n: "system:controller:clusterrole-aggregation-controller", r: ["escalate,get,list,patch,update,watch|rbac.authorization.k8s.io|clusterroles"] },
  { n: "system:controller:cronjob-controller", r: ["get,list,update,watch|batch|cronjobs", "create,delete,get,list,patch,update,watch|batch|jobs", "update|batch|cronjobs/status", "update|batch|cronjobs/finalizers", "delete,list,watch||pods", EV] },
  {
    n: "system:controller:daemon-set-controller",
    r: [`${GLW}|apps,extensions|daemonsets`, "update|apps,extensions|daemonsets/status", "update|apps,extensions|daemonsets/finalizers", "list,watch||nodes", "create,delete,list,patch,watch||pods", "create||pods/binding", "create,delete,get,list,patch,update,watch|apps|controllerrevisions", EV],
  },
  {
    n: "system:controller:deployment-controller",
    r: ["get,list,update,watch|apps,extensions|deployments", "update|apps,extensions|deployments/status", "update|apps,extensions|deployments/finalizers", "create,delete,get,list,patch,update,watch|apps,extensions|replicasets", "get,list,update,watch||pods", EV],
  },
  {
    n: "system:controller:disruption-controller",
    r: [`${GLW}|apps,extensions|deployments`, `${GLW}|apps,extensions|replicasets`, `${GLW}||replicationcontrollers`, `${GLW}|policy|poddisruptionbudgets`, `${GLW}|apps|statefulsets`, "update|policy|poddisruptionbudgets/status", "patch,update||pods/status", "get|*|*/scale", EV],
  },
  { n: "system:controller:endpoint-controller", r: [`${GLW}||pods,services`, "create,delete,get,list,update,watch||endpoints", "create||endpoints/restricted", EV] },
  { n: "system:controller:endpointslice-controller", r: [`${GLW}||nodes,pods,services`, "update||services/finalizers", "create,delete,get,list,update,watch|discovery.k8s.io|endpointslices", EV] },
  { n: "system:controller:endpointslicemirroring-controller", r: [`${GLW}||endpoints,services`, "update||services/finalizers", "update||endpoints/finalizers", "create,delete,get,list,update,watch|discovery.k8s.io|endpointslices", EV] },
  { n: "system:controller:ephemeral-volume-controller", r: [`${GLW}||pods`, "update||pods/finalizers", "create,get,list,watch||persistentvolumeclaims", EV] },
  { n: "system:controller:expand-controller", r: ["get,list,patch,update,watch||persistentvolumes", "patch,update||persistentvolumeclaims/status", `${GLW}||persistentvolumeclaims`, EV] },
  { n: "system:controller:generic-garbage-collector", r: ["delete,get,list,patch,update,watch|*|*", EV] },
  {
    n: "system:controller:horizontal-pod-autoscaler",
    r: [`${GLW}|autoscaling|horizontalpodautoscalers`, "update|autoscaling|horizontalpodautoscalers/status", "get,update|*|*/scale", "list,watch||pods", "list,watch|metrics.k8s.io|pods", `${GLW}|custom.metrics.k8s.io|*`, `${GLW}|external.metrics.k8s.io|*`, EV],
  },
  { n: "system:controller:job-controller", r: ["get,list,patch,update,watch|batch|jobs", "update|batch|jobs/status", "update|batch|jobs/finalizers", "create,delete,list,patch,watch||pods", EV] },
  { n: "system:controller:legacy-service-account-token-cleaner", r: ["get||configmaps|kube-apiserver-legacy-service-account-token-tracking", "delete,patch||secrets"] },
  { n: "system:controller:namespace-controller", r: ["delete,get,list,watch||namespaces", "update||namespaces/finalize,namespaces/status", "delete,deletecollection,get,list,watch|*|*"] },
  { n: "system:controller:node-controller", r: ["delete,get,list,patch,update,watch||nodes", "patch,update||nodes/status", "patch,update||pods/status", "delete,get,list,watch||pods", EV] },
  {
    n: "system:controller:persistent-volume-binder",
    r: [
      "create,delete,get,list,update,watch||persistentvolumes",
      "update||persistentvolumes/status",
      "get,list,update,watch||persistentvolumeclaims",
      "update||persistentvolumeclaims/status",
      "create,delete,get,list,watch||pods",
      `${GLW}|storage.k8s.io|storageclasses`,
      "list,watch||nodes",
      EV,
      "watch||events",
    ],
  },
  { n: "system:controller:pod-garbage-collector", r: ["delete,list,watch||pods", `${GLW}||nodes`, "patch||pods/status"] },
  { n: "system:controller:pv-protection-controller", r: ["get,list,update,watch||persistentvolumes", EV] },
  { n: "system:controller:pvc-protection-controller", r: ["get,list,update,watch||persistentvolumeclaims", "update||persistentvolumeclaims/status", `${GLW}||pods`, EV] },
  { n: "system:controller:replicaset-controller", r: ["get,list,update,watch|apps,extensions|replicasets", "update|apps,extensions|replicasets/status", "update|apps,extensions|replicasets/finalizers", "create,delete,list,patch,watch||pods", EV] },
  { n: "system:controller:replication-controller", r: ["get,list,update,watch||replicationcontrollers", "update||replicationcontrollers/status", "update||replicationcontrollers/finalizers", "create,delete,list,patch,watch||pods", EV] },
  {
    n: "system:controller:resource-claim-controller",
    r: [`${GLW}||pods`, "update||pods/finalizers", "create,delete,get,list,watch|resource.k8s.io|resourceclaims", "patch,update|resource.k8s.io|resourceclaims,resourceclaims/status", "patch,update||pods/status", EV, "patch,update|resource.k8s.io|resourceclaims/binding"],
  },
  { n: "system:controller:resourcequota-controller", r: ["list,watch|*|*", "update||resourcequotas/status", EV] },
  { n: "system:controller:root-ca-cert-publisher", r: ["create,update||configmaps", EV] },
  { n: "system:controller:route-controller", r: ["list,watch||nodes", "patch||nodes/status", EV] },
  { n: "system:controller:selinux-warning-controller", r: [EV, `${GLW}||persistentvolumes`, `${GLW}||persistentvolumeclaims`, `${GLW}||pods`, `${GLW}|storage.k8s.io|csidrivers`] },
  { n: "system:controller:service-account-controller", r: ["create||serviceaccounts", EV] },
  {
    n: "system:controller:service-cidrs-controller",
    r: ["get,list,patch,update,watch|networking.k8s.io|servicecidrs", "patch,update|networking.k8s.io|servicecidrs/finalizers", "patch,update|networking.k8s.io|servicecidrs/status", `${GLW}|networking.k8s.io|ipaddresses`, EV],
  },
  { n: "system:controller:service-controller", r: [`${GLW}||services`, "patch,update||services/status", "list,watch||nodes", EV] },
  {
    n: "system:controller:statefulset-controller",
    r: [
      "list,watch||pods",
      `${GLW}|apps|statefulsets`,
      "update|apps|statefulsets/status",
      "update|apps|statefulsets/finalizers",
      "create,delete,get,patch,update||pods",
      "create,delete,get,list,patch,update,watch|apps|controllerrevisions",
      "create,get,list,watch||persistentvolumeclaims",
      "delete,update||persistentvolumeclaims",
      "update||pods/finalizers",
      EV,
    ],
  },
  { n: "system:controller:ttl-after-finished-controller", r: ["delete,get,list,watch|batch|jobs", EV] },
  { n: "system:controller:ttl-controller", r: ["list,patch,update,watch||nodes", EV] },
  {
    n: "system:controller:validatingadmissionpolicy-status-controller",
    r: [`${GLW}|admissionregistration.k8s.io|validatingadmissionpolicies`, "get,patch,update|admissionregistration.k8s.io|validatingadmissionpolicies/status", EV],
  },
  { n: "system:controller:volumeattributesclass-protection-controller", r: [`${GLW}||persistentvolumeclaims`, `${GLW}||persistentvolumes`, "get,list,update,watch|storage.k8s.io|volumeattributesclasses", EV] },
];

/**
 * The ClusterRoleBinding of each controller role (controller_policy.go `addControllerRole`:
 * `NewClusterBinding(role.Name).SAs("kube-system", <name without system:controller:>)`), in the
 * roles' order, after the ClusterRoleBindings above.
 */
export const CONTROLLER_ROLE_BINDINGS: CompactBinding[] = CONTROLLER_ROLES.map((r) => ({
  n: r.n,
  role: r.n,
  s: [`ServiceAccount:${r.n.slice("system:controller:".length)}:kube-system`],
}));
