/**
 * The resource types the simulated kube-apiserver serves: group, version, kind, plural,
 * short names, scope and subresources, as `kubectl api-resources` lists them on a 1.32+ cluster.
 * CustomResourceDefinitions add entries at run time (`ResourceRegistry.addCustom`).
 *
 * Source: `kubectl api-resources` on a kind v1.32 cluster; staging/src/k8s.io/api/*.
 */

import { EVENTS_V1, HPA_V1, type Conversion } from './conversion';

/** One served resource type. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  /** Plural, lowercase: `pods`, `deployments`. */
  resource: string;
  singular: string;
  shortNames: string[];
  namespaced: boolean;
  /** Has a `/status` subresource (spec and status are written separately). */
  status: boolean;
  /** Has a `/scale` subresource; path of the replicas fields. */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  categories: string[];
  /** True for kinds defined by a CustomResourceDefinition. */
  custom?: boolean;
  verbs: string[];
  /**
   * Set on a served version that is not the storage version (autoscaling/v1
   * HorizontalPodAutoscaler): requests in this version are converted to and from the stored
   * objects (see conversion.ts). Such a version is not in `all()` (discovery lists the preferred
   * version); manifests and `resource.version.group` names reach it through `byKind`.
   */
  conversion?: Conversion;
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function rt(
  group: string,
  version: string,
  kind: string,
  resource: string,
  shortNames: string[],
  namespaced: boolean,
  opts: Partial<Pick<ResourceType, 'status' | 'scale' | 'categories' | 'verbs' | 'conversion'>> = {},
): ResourceType {
  return {
    ...(opts.conversion ? { conversion: opts.conversion } : {}),
    group,
    version,
    kind,
    resource,
    singular: kind.toLowerCase(),
    shortNames,
    namespaced,
    status: opts.status ?? false,
    scale: opts.scale,
    categories: opts.categories ?? [],
    verbs: opts.verbs ?? ALL_VERBS,
  };
}

const REPLICAS = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
/** A ReplicationController's scale: its selector is a map, served from `.spec.selector`. */
const REPLICAS_RC = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };

const CREATE_ONLY = ['create'];
const API_EXT = { categories: ['api-extensions'] };
const ALL = ['all'];

/**
 * The built-in kinds (apiVersion `group/version`, or `v1` for core), in `kubectl api-resources`
 * order: core first, then by group. The resource types a v1.35 kube-apiserver serves with its
 * default feature gates and runtime config: pkg/controlplane/instance.go
 * (`DefaultAPIResourceConfigSource`, the GA versions) and the `RESTStorageProvider` of each
 * group (pkg/registry/<group>/rest/storage_<group>.go), with the short names, categories and
 * verbs of each storage (pkg/registry/<group>/<resource>/storage/storage.go `ShortNames`,
 * `Categories`, and which of Creater/Getter/Lister/Updater/... it implements). Matches
 * `kubectl api-resources -o wide` on a kind v1.35 cluster. Not served: beta/alpha APIs that are
 * off by default (MutatingAdmissionPolicy, ClusterTrustBundle, LeaseCandidate, storagemigration).
 */
export const BUILTIN_TYPES: ResourceType[] = [
  rt('', 'v1', 'Binding', 'bindings', [], true, { verbs: CREATE_ONLY }),
  rt('', 'v1', 'ComponentStatus', 'componentstatuses', ['cs'], false, { verbs: ['get', 'list'] }),
  rt('', 'v1', 'ConfigMap', 'configmaps', ['cm'], true),
  rt('', 'v1', 'Endpoints', 'endpoints', ['ep'], true),
  rt('', 'v1', 'Event', 'events', ['ev'], true),
  rt('', 'v1', 'LimitRange', 'limitranges', ['limits'], true),
  rt('', 'v1', 'Namespace', 'namespaces', ['ns'], false, { status: true, verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }),
  rt('', 'v1', 'Node', 'nodes', ['no'], false, { status: true }),
  rt('', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', ['pvc'], true, { status: true }),
  rt('', 'v1', 'PersistentVolume', 'persistentvolumes', ['pv'], false, { status: true }),
  rt('', 'v1', 'Pod', 'pods', ['po'], true, { status: true, categories: ALL }),
  rt('', 'v1', 'PodTemplate', 'podtemplates', [], true),
  rt('', 'v1', 'ReplicationController', 'replicationcontrollers', ['rc'], true, { status: true, scale: REPLICAS_RC, categories: ALL }),
  rt('', 'v1', 'ResourceQuota', 'resourcequotas', ['quota'], true, { status: true }),
  rt('', 'v1', 'Secret', 'secrets', [], true),
  rt('', 'v1', 'ServiceAccount', 'serviceaccounts', ['sa'], true),
  rt('', 'v1', 'Service', 'services', ['svc'], true, { status: true, categories: ALL }),
  rt('admissionregistration.k8s.io', 'v1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', [], false, API_EXT),
  rt('admissionregistration.k8s.io', 'v1', 'ValidatingAdmissionPolicy', 'validatingadmissionpolicies', [], false, { status: true, ...API_EXT }),
  rt('admissionregistration.k8s.io', 'v1', 'ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', [], false, API_EXT),
  rt('admissionregistration.k8s.io', 'v1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', [], false, API_EXT),
  rt('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', ['crd', 'crds'], false, {
    status: true,
    categories: ['api-extensions'],
  }),
  rt('apiregistration.k8s.io', 'v1', 'APIService', 'apiservices', [], false, { status: true, ...API_EXT }),
  rt('apps', 'v1', 'ControllerRevision', 'controllerrevisions', [], true),
  rt('apps', 'v1', 'DaemonSet', 'daemonsets', ['ds'], true, { status: true, categories: ALL }),
  rt('apps', 'v1', 'Deployment', 'deployments', ['deploy'], true, { status: true, scale: REPLICAS, categories: ALL }),
  rt('apps', 'v1', 'ReplicaSet', 'replicasets', ['rs'], true, { status: true, scale: REPLICAS, categories: ALL }),
  rt('apps', 'v1', 'StatefulSet', 'statefulsets', ['sts'], true, { status: true, scale: REPLICAS, categories: ALL }),
  rt('authentication.k8s.io', 'v1', 'SelfSubjectReview', 'selfsubjectreviews', [], false, { verbs: CREATE_ONLY }),
  rt('authentication.k8s.io', 'v1', 'TokenReview', 'tokenreviews', [], false, { verbs: CREATE_ONLY }),
  rt('authorization.k8s.io', 'v1', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', [], true, { verbs: CREATE_ONLY }),
  rt('authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', [], false, { verbs: CREATE_ONLY }),
  rt('authorization.k8s.io', 'v1', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', [], false, { verbs: CREATE_ONLY }),
  rt('authorization.k8s.io', 'v1', 'SubjectAccessReview', 'subjectaccessreviews', [], false, { verbs: CREATE_ONLY }),
  rt('autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', ['hpa'], true, { status: true, categories: ALL }),
  rt('batch', 'v1', 'CronJob', 'cronjobs', ['cj'], true, { status: true, categories: ALL }),
  rt('batch', 'v1', 'Job', 'jobs', [], true, { status: true, categories: ALL }),
  rt('certificates.k8s.io', 'v1', 'CertificateSigningRequest', 'certificatesigningrequests', ['csr'], false, { status: true }),
  rt('coordination.k8s.io', 'v1', 'Lease', 'leases', [], true),
  rt('discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', [], true),
  // Stored as core/v1 Events (one resource, two views; conversion.ts).
  rt('events.k8s.io', 'v1', 'Event', 'events', ['ev'], true, { conversion: EVENTS_V1 }),
  rt('flowcontrol.apiserver.k8s.io', 'v1', 'FlowSchema', 'flowschemas', [], false, { status: true }),
  rt('flowcontrol.apiserver.k8s.io', 'v1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', [], false, { status: true }),
  rt('networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', [], false),
  rt('networking.k8s.io', 'v1', 'Ingress', 'ingresses', ['ing'], true, { status: true }),
  rt('networking.k8s.io', 'v1', 'IPAddress', 'ipaddresses', ['ip'], false),
  rt('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', ['netpol'], true),
  rt('networking.k8s.io', 'v1', 'ServiceCIDR', 'servicecidrs', [], false, { status: true }),
  rt('node.k8s.io', 'v1', 'RuntimeClass', 'runtimeclasses', [], false),
  rt('policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', ['pdb'], true, { status: true }),
  rt('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', [], false),
  rt('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', [], false),
  rt('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', [], true),
  rt('rbac.authorization.k8s.io', 'v1', 'Role', 'roles', [], true),
  rt('resource.k8s.io', 'v1', 'DeviceClass', 'deviceclasses', [], false),
  rt('resource.k8s.io', 'v1', 'ResourceClaim', 'resourceclaims', [], true, { status: true }),
  rt('resource.k8s.io', 'v1', 'ResourceClaimTemplate', 'resourceclaimtemplates', [], true),
  rt('resource.k8s.io', 'v1', 'ResourceSlice', 'resourceslices', [], false),
  rt('scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', ['pc'], false),
  rt('storage.k8s.io', 'v1', 'CSIDriver', 'csidrivers', [], false),
  rt('storage.k8s.io', 'v1', 'CSINode', 'csinodes', [], false),
  rt('storage.k8s.io', 'v1', 'CSIStorageCapacity', 'csistoragecapacities', [], true),
  rt('storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', ['sc'], false),
  rt('storage.k8s.io', 'v1', 'VolumeAttachment', 'volumeattachments', [], false, { status: true }),
  rt('storage.k8s.io', 'v1', 'VolumeAttributesClass', 'volumeattributesclasses', ['vac'], false),
];

/**
 * Served versions that are not the storage version, each converted to and from its stored kind
 * (conversion.ts). Real 1.35 serves autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscalers
 * (v2 preferred and stored).
 */
export const CONVERTED_VERSIONS: ResourceType[] = [
  rt('autoscaling', 'v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', ['hpa'], true, { status: true, categories: ALL, conversion: HPA_V1 }),
];

/** `byResource`'s memo key when no group is given (a symbol: no group name can equal it). */
const ANY_GROUP: unique symbol = Symbol('any group');

/**
 * Lookup of served types by kind, plural, singular or short name, optionally qualified by group
 * (`deployments.apps`, `deploy`, `Deployment`). Mutable: CRDs register and unregister kinds.
 */
export class ResourceRegistry {
  private types: ResourceType[] = [...BUILTIN_TYPES];

  /** All served types, in `kubectl api-resources` order (core first, then by group). */
  all(): readonly ResourceType[] {
    return this.types;
  }

  /** Find by `apiVersion` + `kind` (what a manifest names). */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    // Memoised (performance only: every write resolves its type; cleared when types change).
    let byVersion = this.byKindMemo.get(kind);
    if (!byVersion) this.byKindMemo.set(kind, (byVersion = new Map()));
    let t = byVersion.get(apiVersion);
    if (t === undefined) byVersion.set(apiVersion, (t = this.findByKind(apiVersion, kind) ?? null));
    return t ?? undefined;
  }

  /** Memo of `byKind`: kind -> apiVersion -> type (null: none). */
  private byKindMemo = new Map<string, Map<string, ResourceType | null>>();
  /** Memo of `resolve`: typed name -> type (null: none). */
  private resolveMemo = new Map<string, ResourceType | null>();

  private findByKind(apiVersion: string, kind: string): ResourceType | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    return (
      this.types.find((t) => t.kind === kind && t.group === group && t.version === version) ??
      CONVERTED_VERSIONS.find((t) => t.kind === kind && t.group === group && t.version === version)
    );
  }

  /** Find by kind alone (first match), e.g. for ownerReferences. */
  byKindName(kind: string): ResourceType | undefined {
    return this.types.find((t) => t.kind === kind);
  }

  /** Find by plural resource and group. */
  byResource(resource: string, group?: string): ResourceType | undefined {
    // Memoised like byKind (performance only: admission looks up namespaces and service accounts
    // on every create; cleared when types change). `ANY_GROUP` stands for no group given.
    let byGroup = this.byResourceMemo.get(resource);
    if (!byGroup) this.byResourceMemo.set(resource, (byGroup = new Map()));
    const g = group ?? ANY_GROUP;
    let t = byGroup.get(g);
    if (t === undefined) byGroup.set(g, (t = this.types.find((x) => x.resource === resource && (group === undefined || x.group === group)) ?? null));
    return t ?? undefined;
  }

  /** Memo of `byResource`: plural -> group (ANY_GROUP: none given) -> type (null: none). */
  private byResourceMemo = new Map<string, Map<string | typeof ANY_GROUP, ResourceType | null>>();

  /**
   * Resolve what a person types after `kubectl get`: plural, singular, short name or kind,
   * case-insensitive, optionally `name.group` qualified (`deployments.apps`).
   */
  resolve(typed: string): ResourceType | undefined {
    // Memoised (performance only: every get/list/patch/delete by name resolves; cleared when types change).
    let t = this.resolveMemo.get(typed);
    if (t === undefined) this.resolveMemo.set(typed, (t = this.findResolve(typed) ?? null));
    return t ?? undefined;
  }

  private findResolve(typed: string): ResourceType | undefined {
    const lower = typed.toLowerCase();
    const dot = lower.indexOf('.');
    const name = dot < 0 ? lower : lower.slice(0, dot);
    const group = dot < 0 ? undefined : lower.slice(dot + 1);
    return this.types.find(
      (t) =>
        (group === undefined || t.group === group) &&
        (t.resource === name || t.singular === name || t.kind.toLowerCase() === name || t.shortNames.includes(name)),
    );
  }

  /** Register a kind defined by a CRD (replaces an earlier registration of the same group/kind). */
  addCustom(t: ResourceType): void {
    this.types = this.types.filter((x) => !(x.group === t.group && x.resource === t.resource));
    this.types.push({ ...t, custom: true });
    this.forgetMemos();
  }

  private forgetMemos(): void {
    this.byKindMemo.clear();
    this.resolveMemo.clear();
    this.byResourceMemo.clear();
  }

  /** Unregister a CRD's kind. */
  removeCustom(group: string, resource: string): void {
    this.types = this.types.filter((x) => !(x.custom && x.group === group && x.resource === resource));
    this.forgetMemos();
  }
}

/** `apiVersion` string of a type: `v1` or `apps/v1`. */
export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}
