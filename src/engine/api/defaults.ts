/**
 * API defaulting: the fields kube-apiserver fills in when an object is decoded on create and
 * update, so `kubectl get -o yaml` shows what a real 1.32-1.36 cluster shows. Plus the two
 * mutating admission plugins that add to every Pod (DefaultTolerationSeconds, ServiceAccount)
 * and the QoS class the pod strategy records at create.
 *
 * Sources (kubernetes/kubernetes):
 * - pkg/apis/core/v1/defaults.go (`SetDefaults_Pod`, `SetDefaults_PodSpec`, `SetDefaults_Container`,
 *   `SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, `SetDefaults_Volume`, `SetDefaults_Service`,
 *   `SetDefaults_NamespaceStatus`, `SetDefaults_PersistentVolume(Claim)`, `SetDefaults_Secret`,
 *   `SetDefaults_NodeStatus`, `SetDefaults_ObjectFieldSelector`, ...);
 *   pkg/apis/core/v1/conversion.go (`serviceAccount` mirrors `serviceAccountName`; Secret
 *   `stringData` folds into `data`).
 * - pkg/apis/apps/v1/defaults.go, pkg/apis/batch/v1/defaults.go,
 *   pkg/apis/discovery/v1/defaults.go, pkg/apis/rbac/v1/defaults.go,
 *   pkg/apis/scheduling/v1/defaults.go, pkg/apis/storage/v1/defaults.go,
 *   pkg/apis/networking/v1/defaults.go.
 * - pkg/registry/core/namespace/strategy.go (`spec.finalizers: [kubernetes]` at create),
 *   pkg/registry/core/service/storage (single-stack IPv4 families on a kind cluster).
 * - plugin/pkg/admission/defaulttolerationseconds, plugin/pkg/admission/serviceaccount.
 * - pkg/apis/core/v1/helper/qos/qos.go (`GetPodQOS`).
 *
 * Metadata is the server's job (names, uid, timestamps, labels); the only metadata touched here
 * is what a real defaulter touches (a Job copies its template labels when it has none).
 * Every function is idempotent: defaulting an already-defaulted object changes nothing.
 */
import type { Rng } from '../clock';
import type { KubeObject } from './types';
import { parseQuantity, isValidQuantity } from './quantity';

/** What defaulting may need besides the object. */
export interface DefaultingContext {
  /** The engine's seeded generator (random names such as `kube-api-access-xxxxx`). */
  rng: Rng;
  /**
   * `update` skips create-only defaults (a Namespace's `spec.finalizers`). When absent, an
   * object without `metadata.creationTimestamp` is treated as being created.
   */
  operation?: 'create' | 'update';
}

// ------------------------------------------------------------------ named defaults

/** `terminationGracePeriodSeconds` default (v1.DefaultTerminationGracePeriodSeconds). */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** Default scheduler name (v1.DefaultSchedulerName). */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** Container `terminationMessagePath` default (v1.TerminationMessagePathDefault). */
export const TERMINATION_MESSAGE_PATH_DEFAULT = '/dev/termination-log';
/** Probe defaults (SetDefaults_Probe): timeout 1 s, period 10 s, success 1, failure 3. */
export const PROBE_DEFAULTS = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 } as const;
/** Mode of configMap/secret/downwardAPI/projected volume files: 0644 = 420 (v1.*VolumeSourceDefaultMode). */
export const VOLUME_DEFAULT_MODE = 420;
/** Deployment defaults (apps/v1 SetDefaults_Deployment). */
export const DEPLOYMENT_DEFAULTS = { replicas: 1, maxSurge: '25%', maxUnavailable: '25%', revisionHistoryLimit: 10, progressDeadlineSeconds: 600 } as const;
/** Job defaults (batch/v1 SetDefaults_Job). */
export const JOB_DEFAULT_BACKOFF_LIMIT = 6;
/** CronJob history limits (batch/v1 SetDefaults_CronJob). */
export const CRONJOB_DEFAULTS = { successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 } as const;
/** Seconds a pod tolerates the `not-ready` NoExecute taint (`--default-not-ready-toleration-seconds`, DefaultTolerationSeconds plugin). */
export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
/** Seconds a pod tolerates the `unreachable` NoExecute taint (`--default-unreachable-toleration-seconds`). */
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;
/** Where the ServiceAccount plugin mounts the API credentials (serviceaccount.DefaultAPITokenMountPath). */
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** Bound token lifetime the plugin writes: 1 h + 7 s (serviceaccount.WarnOnlyBoundTokenExpirationSeconds). */
export const SERVICE_ACCOUNT_TOKEN_EXPIRATION_SECONDS = 3607;
/** Annotation marking a mirror pod (kubetypes.ConfigMirrorAnnotationKey). */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** ClientIP session affinity timeout: 3 h (v1.DefaultClientIPServiceAffinitySeconds). */
export const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isCreate(obj: KubeObject, ctx: DefaultingContext): boolean {
  if (ctx.operation) return ctx.operation === 'create';
  return !obj.metadata?.creationTimestamp;
}

// ------------------------------------------------------------------ containers and pod specs

/**
 * The `imagePullPolicy` a container gets when it sets none (SetDefaults_Container): `Always`
 * when the image's tag is `latest`, or when it has neither tag nor digest (which means
 * `latest`); otherwise `IfNotPresent`. The tag is what follows the last `:` after the last `/`
 * (so `localhost:5000/app` has no tag).
 */
export function defaultImagePullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  if (!image) return 'IfNotPresent';
  const at = image.indexOf('@');
  const digest = at >= 0;
  const ref = digest ? image.slice(0, at) : image;
  const lastSlash = ref.lastIndexOf('/');
  const colon = ref.indexOf(':', lastSlash + 1);
  const tag = colon >= 0 ? ref.slice(colon + 1) : '';
  if (tag === 'latest') return 'Always';
  if (tag === '' && !digest) return 'Always';
  return 'IfNotPresent';
}

/** SetDefaults_ObjectFieldSelector (`apiVersion: v1`) and resourceFieldRef's zero `divisor: "0"`. */
function defaultFieldRefs(x: Obj | undefined): void {
  if (!x) return;
  if (isObj(x.fieldRef) && !x.fieldRef.apiVersion) x.fieldRef.apiVersion = 'v1';
  if (isObj(x.resourceFieldRef) && x.resourceFieldRef.divisor === undefined) x.resourceFieldRef.divisor = '0';
}

/** SetDefaults_HTTPGetAction: path `/`, scheme `HTTP`. */
function defaultHandler(h: Obj | undefined): void {
  if (!isObj(h)) return;
  if (isObj(h.httpGet)) {
    if (!h.httpGet.path) h.httpGet.path = '/';
    if (!h.httpGet.scheme) h.httpGet.scheme = 'HTTP';
  }
  if (isObj(h.grpc) && h.grpc.service === undefined) h.grpc.service = '';
}

/** SetDefaults_Probe plus its handler. */
function defaultProbe(p: Obj | undefined): void {
  if (!isObj(p)) return;
  if (!p.timeoutSeconds) p.timeoutSeconds = PROBE_DEFAULTS.timeoutSeconds;
  if (!p.periodSeconds) p.periodSeconds = PROBE_DEFAULTS.periodSeconds;
  if (!p.successThreshold) p.successThreshold = PROBE_DEFAULTS.successThreshold;
  if (!p.failureThreshold) p.failureThreshold = PROBE_DEFAULTS.failureThreshold;
  defaultHandler(p);
}

/** SetDefaults_Container (+ ports, probes, lifecycle, env) for one container. */
function defaultContainer(c: Obj): void {
  if (!isObj(c)) return;
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultImagePullPolicy(c.image);
  if (!c.terminationMessagePath) c.terminationMessagePath = TERMINATION_MESSAGE_PATH_DEFAULT;
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  if (!isObj(c.resources)) c.resources = {};
  if (Array.isArray(c.ports)) for (const p of c.ports) if (isObj(p) && !p.protocol) p.protocol = 'TCP';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (isObj(c.lifecycle)) {
    defaultHandler(c.lifecycle.postStart);
    defaultHandler(c.lifecycle.preStop);
  }
  if (Array.isArray(c.env)) for (const e of c.env) if (isObj(e) && isObj(e.valueFrom)) defaultFieldRefs(e.valueFrom);
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral', 'image',
];

/** SetDefaults_Volume and the per-source defaults (modes 420, hostPath type ``, fieldRef v1). */
function defaultVolume(v: Obj): void {
  if (!isObj(v)) return;
  if (!VOLUME_SOURCES.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  for (const k of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    if (isObj(v[k]) && v[k].defaultMode === undefined) v[k].defaultMode = VOLUME_DEFAULT_MODE;
  }
  if (isObj(v.hostPath) && v.hostPath.type === undefined) v.hostPath.type = '';
  if (isObj(v.downwardAPI) && Array.isArray(v.downwardAPI.items)) for (const it of v.downwardAPI.items) defaultFieldRefs(it);
  if (isObj(v.projected) && Array.isArray(v.projected.sources)) {
    for (const s of v.projected.sources) {
      if (!isObj(s)) continue;
      if (isObj(s.downwardAPI) && Array.isArray(s.downwardAPI.items)) for (const it of s.downwardAPI.items) defaultFieldRefs(it);
      // SetDefaults_ServiceAccountTokenProjection: 1 h.
      if (isObj(s.serviceAccountToken) && s.serviceAccountToken.expirationSeconds === undefined) s.serviceAccountToken.expirationSeconds = 3600;
    }
  }
  if (isObj(v.image) && !v.image.pullPolicy) v.image.pullPolicy = defaultImagePullPolicy(v.image.reference);
}

/**
 * SetDefaults_PodSpec and the defaults of everything inside a PodSpec. Applies to Pods and to
 * every pod template (Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, RC,
 * PodTemplate): `dnsPolicy: ClusterFirst`, `restartPolicy: Always`, `securityContext: {}`,
 * `terminationGracePeriodSeconds: 30`, `schedulerName: default-scheduler`, container and volume
 * defaults, and the `serviceAccount`/`serviceAccountName` mirror of the v1 conversion.
 */
export function defaultPodSpec(spec: Obj | undefined): void {
  if (!isObj(spec)) return;
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!isObj(spec.securityContext)) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    spec.terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  }
  if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER_NAME;
  // conversion.go: the deprecated field is read when the new one is empty, and always written back.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers]) {
    if (Array.isArray(list)) for (const c of list) defaultContainer(c);
  }
  if (Array.isArray(spec.volumes)) for (const v of spec.volumes) defaultVolume(v);
}

/** SetDefaults_Pod: requests default to limits, per resource, when only limits are given. */
function defaultRequestsFromLimits(c: Obj): void {
  if (!isObj(c) || !isObj(c.resources) || !isObj(c.resources.limits)) return;
  const req: Obj = isObj(c.resources.requests) ? c.resources.requests : (c.resources.requests = {});
  for (const k of Object.keys(c.resources.limits)) if (req[k] === undefined) req[k] = c.resources.limits[k];
}

/**
 * Pod-only defaults (SetDefaults_Pod and friends) on top of `defaultPodSpec`:
 * requests from limits, `enableServiceLinks: true`, `hostPort = containerPort` with
 * `hostNetwork`, `serviceAccountName: default` (the ServiceAccount plugin's choice; not for
 * mirror pods), `preemptionPolicy: PreemptLowerPriority` and `priority: 0` when no
 * `priorityClassName` (the Priority plugin's result for a cluster without a global default).
 */
function defaultPod(pod: KubeObject): void {
  const spec = pod.spec;
  if (!isObj(spec)) return;
  defaultPodSpec(spec);
  for (const list of [spec.containers, spec.initContainers]) if (Array.isArray(list)) for (const c of list) defaultRequestsFromLimits(c);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork) {
    for (const list of [spec.containers, spec.initContainers]) {
      if (!Array.isArray(list)) continue;
      for (const c of list) for (const p of (isObj(c) && Array.isArray(c.ports) ? c.ports : [])) if (isObj(p) && !p.hostPort) p.hostPort = p.containerPort;
    }
  }
  // Presence, not value, as the plugin's `_, isMirrorPod := pod.Annotations[...]` (the kubelet's
  // own decoding of a static pod marks it with an empty value).
  const mirror = pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
  if (!mirror && !spec.serviceAccountName) {
    spec.serviceAccountName = 'default';
    spec.serviceAccount = 'default';
  }
  if (!spec.preemptionPolicy) spec.preemptionPolicy = 'PreemptLowerPriority';
  if (!spec.priorityClassName && (spec.priority === undefined || spec.priority === null)) spec.priority = 0;
}

function defaultTemplate(template: Obj | undefined): void {
  if (isObj(template)) defaultPodSpec(template.spec);
}

// ------------------------------------------------------------------ admission-time additions

/**
 * The DefaultTolerationSeconds admission plugin: a Pod that does not already tolerate
 * `node.kubernetes.io/not-ready` (resp. `unreachable`) with effect NoExecute (or any effect, or
 * an empty key = everything) gets `{key, operator: Exists, effect: NoExecute,
 * tolerationSeconds: 300}`, not-ready first. Mutates `pod.spec.tolerations`. Idempotent.
 * Source: plugin/pkg/admission/defaulttolerationseconds/admission.go.
 */
export function addDefaultTolerations(pod: KubeObject): void {
  const spec = pod.spec;
  if (!isObj(spec)) return;
  const tols: Obj[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const add: Obj[] = [];
  if (!toleratesNoExecute(tols, 'node.kubernetes.io/not-ready')) {
    add.push({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS });
  }
  if (!toleratesNoExecute(tols, 'node.kubernetes.io/unreachable')) {
    add.push({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_UNREACHABLE_TOLERATION_SECONDS });
  }
  if (add.length) spec.tolerations = [...tols, ...add];
}

/**
 * True when one of `tols` tolerates the NoExecute taint `key`: same key or an empty key (all
 * keys), effect NoExecute or empty (all effects). A top-level function (performance only: a
 * closure per call costs a `__name` define under tsx).
 */
function toleratesNoExecute(tols: Obj[], key: string): boolean {
  for (const t of tols) if (isObj(t) && (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect)) return true;
  return false;
}

/**
 * The ServiceAccount admission plugin's mutation of a Pod at create:
 * `serviceAccountName: default` when empty, then, unless automounting is off
 * (`spec.automountServiceAccountToken: false`, else the ServiceAccount's own field), the
 * projected volume `kube-api-access-<5 chars>` (bound token `token` expiring in 3607 s, the
 * `kube-root-ca.crt` ConfigMap's `ca.crt`, the downward-API `namespace`; defaultMode 420),
 * appended to `spec.volumes`, and a read-only mount at
 * `/var/run/secrets/kubernetes.io/serviceaccount` in every init and regular container that
 * does not already mount something there. An existing `kube-api-access-*` volume is reused.
 * Mirror pods are left alone. The 5 characters come from `rng.nameSuffix()`.
 * Source: plugin/pkg/admission/serviceaccount/admission.go (`mountServiceAccountToken`,
 * `TokenVolumeSource`).
 */
export function addServiceAccountVolume(pod: KubeObject, rng: Rng, serviceAccount?: { automountServiceAccountToken?: boolean }): void {
  const spec = pod.spec;
  if (!isObj(spec)) return;
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return;
  if (!spec.serviceAccountName) {
    spec.serviceAccountName = 'default';
    spec.serviceAccount = 'default';
  }
  const automount = spec.automountServiceAccountToken ?? serviceAccount?.automountServiceAccountToken ?? true;
  if (!automount) return;
  const volumes: Obj[] = Array.isArray(spec.volumes) ? spec.volumes : [];
  const existing = volumes.find((v) => isObj(v) && typeof v.name === 'string' && v.name.startsWith('kube-api-access-'));
  const needs: Obj[] = [];
  for (const list of [spec.initContainers, spec.containers]) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObj(c)) continue;
      const mounts: Obj[] = Array.isArray(c.volumeMounts) ? c.volumeMounts : [];
      if (!mounts.some((m) => isObj(m) && m.mountPath === SERVICE_ACCOUNT_MOUNT_PATH)) needs.push(c);
    }
  }
  if (!needs.length) return;
  const name: string = existing ? existing.name : `kube-api-access-${rng.nameSuffix(5)}`;
  for (const c of needs) {
    c.volumeMounts = [...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []), { name, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH }];
  }
  if (!existing) {
    spec.volumes = [
      ...volumes,
      {
        name,
        projected: {
          defaultMode: VOLUME_DEFAULT_MODE,
          sources: [
            { serviceAccountToken: { expirationSeconds: SERVICE_ACCOUNT_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
          ],
        },
      },
    ];
  }
}

/** A pod's QoS class, as `status.qosClass` shows it. */
export type QOSClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

function positiveQuantity(q: unknown): number {
  if (!isValidQuantity(q)) return 0;
  return parseQuantity(q as string | number);
}

/**
 * `GetPodQOS` (pkg/apis/core/v1/helper/qos/qos.go), over init and regular containers, cpu and
 * memory only, zero quantities ignored:
 * - `BestEffort`: no container requests or limits cpu or memory;
 * - `Guaranteed`: every container limits both cpu and memory, and the summed requests equal the
 *   summed limits for each (requests defaulted from limits count as set);
 * - `Burstable`: anything else.
 * Call after defaulting (SetDefaults_Pod copies limits to requests).
 */
export function qosClass(pod: KubeObject): QOSClass {
  const spec = pod.spec ?? {};
  const requests: Record<string, number> = {};
  const limits: Record<string, number> = {};
  let guaranteed = true;
  const all: Obj[] = [...(Array.isArray(spec.containers) ? spec.containers : []), ...(Array.isArray(spec.initContainers) ? spec.initContainers : [])];
  for (const c of all) {
    const res = isObj(c) && isObj(c.resources) ? c.resources : {};
    const req = isObj(res.requests) ? res.requests : {};
    const lim = isObj(res.limits) ? res.limits : {};
    for (const name of ['cpu', 'memory']) {
      const r = positiveQuantity(req[name]);
      if (r > 0) requests[name] = (requests[name] ?? 0) + r;
    }
    let found = 0;
    for (const name of ['cpu', 'memory']) {
      const l = positiveQuantity(lim[name]);
      if (l > 0) {
        found++;
        limits[name] = (limits[name] ?? 0) + l;
      }
    }
    if (found < 2) guaranteed = false;
  }
  const rk = Object.keys(requests);
  if (rk.length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  if (guaranteed) {
    for (const k of rk) {
      if (limits[k] === undefined || Math.abs(limits[k] - requests[k]) > 1e-9 * Math.max(1, limits[k])) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && rk.length === Object.keys(limits).length ? 'Guaranteed' : 'Burstable';
}

// ------------------------------------------------------------------ per kind

function defaultDeployment(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = DEPLOYMENT_DEFAULTS.replicas;
  const strategy: Obj = isObj(spec.strategy) ? spec.strategy : (spec.strategy = {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru: Obj = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = DEPLOYMENT_DEFAULTS.maxUnavailable;
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = DEPLOYMENT_DEFAULTS.maxSurge;
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = DEPLOYMENT_DEFAULTS.revisionHistoryLimit;
  if (spec.progressDeadlineSeconds === undefined || spec.progressDeadlineSeconds === null) spec.progressDeadlineSeconds = DEPLOYMENT_DEFAULTS.progressDeadlineSeconds;
  defaultTemplate(spec.template);
}

function defaultReplicaSet(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  defaultTemplate(spec.template);
}

/** core/v1 SetDefaults_ReplicationController: selector and labels from the template, replicas 1. */
function defaultReplicationController(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  const tl = spec.template?.metadata?.labels;
  if (tl && Object.keys(tl).length) {
    if (!spec.selector || !Object.keys(spec.selector).length) spec.selector = { ...tl };
    if (!o.metadata.labels || !Object.keys(o.metadata.labels).length) o.metadata.labels = { ...tl };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  defaultTemplate(spec.template);
}

/** SetDefaults_PersistentVolumeClaimSpec: `volumeMode: Filesystem`. */
function defaultPvcSpec(spec: Obj | undefined): void {
  if (isObj(spec) && !spec.volumeMode) spec.volumeMode = 'Filesystem';
}

function defaultStatefulSet(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us: Obj = isObj(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru: Obj = isObj(us.rollingUpdate) ? us.rollingUpdate : (us.rollingUpdate = {});
    if (ru.partition === undefined || ru.partition === null) ru.partition = 0;
  }
  // StatefulSetAutoDeletePVC (GA 1.32): both Retain.
  const pr: Obj = isObj(spec.persistentVolumeClaimRetentionPolicy) ? spec.persistentVolumeClaimRetentionPolicy : (spec.persistentVolumeClaimRetentionPolicy = {});
  if (!pr.whenDeleted) pr.whenDeleted = 'Retain';
  if (!pr.whenScaled) pr.whenScaled = 'Retain';
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  if (Array.isArray(spec.volumeClaimTemplates)) {
    for (const t of spec.volumeClaimTemplates) {
      if (!isObj(t)) continue;
      defaultPvcSpec(t.spec);
      // The templates are PersistentVolumeClaims and get SetDefaults_PersistentVolumeClaim too.
      const st: Obj = isObj(t.status) ? t.status : (t.status = {});
      if (!st.phase) st.phase = 'Pending';
    }
  }
  defaultTemplate(spec.template);
}

function defaultDaemonSet(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  const us: Obj = isObj(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru: Obj = isObj(us.rollingUpdate) ? us.rollingUpdate : (us.rollingUpdate = {});
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = 1;
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = 0;
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  defaultTemplate(spec.template);
}

/**
 * batch/v1 SetDefaults_Job: completions and parallelism 1 when both unset (parallelism 1 when
 * only it is unset), backoffLimit 6 (MaxInt32 with backoffLimitPerIndex), completionMode
 * NonIndexed, suspend false, podReplacementPolicy TerminatingOrFailed (Failed with a
 * podFailurePolicy), podFailurePolicy condition status True, and the Job's labels copied from
 * its template when it has none.
 */
function defaultJob(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  const unset = (v: unknown) => v === undefined || v === null;
  if (unset(spec.completions) && unset(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (unset(spec.parallelism)) spec.parallelism = 1;
  if (unset(spec.backoffLimit)) spec.backoffLimit = unset(spec.backoffLimitPerIndex) ? JOB_DEFAULT_BACKOFF_LIMIT : 2147483647;
  const tl = spec.template?.metadata?.labels;
  if (tl && Object.keys(tl).length && (!o.metadata.labels || !Object.keys(o.metadata.labels).length)) o.metadata.labels = { ...tl };
  if (!spec.completionMode) spec.completionMode = 'NonIndexed';
  if (unset(spec.suspend)) spec.suspend = false;
  if (isObj(spec.podFailurePolicy) && Array.isArray(spec.podFailurePolicy.rules)) {
    for (const r of spec.podFailurePolicy.rules) {
      if (isObj(r) && Array.isArray(r.onPodConditions)) for (const c of r.onPodConditions) if (isObj(c) && !c.status) c.status = 'True';
    }
  }
  if (!spec.podReplacementPolicy) spec.podReplacementPolicy = isObj(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  defaultTemplate(spec.template);
}

/** batch/v1 SetDefaults_CronJob; the job template's pod spec gets pod-spec defaults only. */
function defaultCronJob(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  if (spec.suspend === undefined || spec.suspend === null) spec.suspend = false;
  if (spec.successfulJobsHistoryLimit === undefined || spec.successfulJobsHistoryLimit === null) spec.successfulJobsHistoryLimit = CRONJOB_DEFAULTS.successfulJobsHistoryLimit;
  if (spec.failedJobsHistoryLimit === undefined || spec.failedJobsHistoryLimit === null) spec.failedJobsHistoryLimit = CRONJOB_DEFAULTS.failedJobsHistoryLimit;
  defaultTemplate(spec.jobTemplate?.spec?.template);
}

/**
 * SetDefaults_Service plus what the Service REST storage fills on a single-stack IPv4 kind
 * cluster: type ClusterIP, sessionAffinity None (ClientIP gets a 10800 s timeout), ports
 * protocol TCP and targetPort = port, externalTrafficPolicy Cluster when externally reachable
 * (NodePort, LoadBalancer, or externalIPs), internalTrafficPolicy Cluster (not for
 * ExternalName), allocateLoadBalancerNodePorts true for LoadBalancer, ipFamilies [IPv4] and
 * ipFamilyPolicy SingleStack (RequireDualStack for a headless Service without selector).
 * The ClusterIP itself is allocated by admission.
 */
function defaultService(o: KubeObject): void {
  const spec: Obj = isObj(o.spec) ? o.spec : (o.spec = {});
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const c: Obj = isObj(spec.sessionAffinityConfig) ? spec.sessionAffinityConfig : (spec.sessionAffinityConfig = {});
    const ip: Obj = isObj(c.clientIP) ? c.clientIP : (c.clientIP = {});
    if (!ip.timeoutSeconds) ip.timeoutSeconds = DEFAULT_CLIENT_IP_AFFINITY_SECONDS;
  }
  if (!spec.type) spec.type = 'ClusterIP';
  if (Array.isArray(spec.ports)) {
    for (const p of spec.ports) {
      if (!isObj(p)) continue;
      if (!p.protocol) p.protocol = 'TCP';
      if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
    }
  }
  const external = spec.type === 'NodePort' || spec.type === 'LoadBalancer' || (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
  if (external && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (!spec.internalTrafficPolicy && (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer')) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) spec.allocateLoadBalancerNodePorts = true;
  if (spec.type !== 'ExternalName') {
    const headless = spec.clusterIP === 'None' || (Array.isArray(spec.clusterIPs) && spec.clusterIPs[0] === 'None');
    const noSelector = !isObj(spec.selector) || Object.keys(spec.selector).length === 0;
    if (!spec.ipFamilyPolicy) spec.ipFamilyPolicy = headless && noSelector ? 'RequireDualStack' : 'SingleStack';
    if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) spec.ipFamilies = ['IPv4'];
  }
}

function defaultNamespace(o: KubeObject, ctx: DefaultingContext): void {
  if (isCreate(o, ctx)) {
    const spec: Obj = isObj(o.spec) ? o.spec : (o.spec = {});
    if (!Array.isArray(spec.finalizers)) spec.finalizers = ['kubernetes'];
  }
  const status: Obj = isObj(o.status) ? o.status : (o.status = {});
  if (!status.phase) status.phase = 'Active';
}

function defaultPvc(o: KubeObject): void {
  defaultPvcSpec(isObj(o.spec) ? o.spec : (o.spec = {}));
  const status: Obj = isObj(o.status) ? o.status : (o.status = {});
  if (!status.phase) status.phase = 'Pending';
}

function defaultPv(o: KubeObject): void {
  const spec: Obj = isObj(o.spec) ? o.spec : (o.spec = {});
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
  if (!spec.volumeMode) spec.volumeMode = 'Filesystem';
  if (isObj(spec.hostPath) && spec.hostPath.type === undefined) spec.hostPath.type = '';
  const status: Obj = isObj(o.status) ? o.status : (o.status = {});
  if (!status.phase) status.phase = 'Pending';
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of the UTF-8 bytes of `s` (the engine has no `btoa`/`Buffer`). */
export function base64EncodeUtf8(s: string): string {
  const bytes: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else bytes.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? B64[n & 63] : '=';
  }
  return out;
}

/** SetDefaults_Secret (type Opaque) and the v1 conversion folding write-only `stringData` into `data`. */
function defaultSecret(o: KubeObject): void {
  if (!o.type) o.type = 'Opaque';
  const sd = o.stringData;
  if (isObj(sd)) {
    const data: Obj = isObj(o.data) ? (o.data as Obj) : {};
    for (const k of Object.keys(sd)) data[k] = base64EncodeUtf8(String(sd[k]));
    o.data = data;
    delete o.stringData;
  }
}

/** SetDefaults_NodeStatus (allocatable = capacity when unset) and the podCIDR/podCIDRs mirror. */
function defaultNode(o: KubeObject): void {
  if (isObj(o.spec)) {
    const spec = o.spec;
    if (spec.podCIDR && (!Array.isArray(spec.podCIDRs) || spec.podCIDRs.length === 0)) spec.podCIDRs = [spec.podCIDR];
    if (!spec.podCIDR && Array.isArray(spec.podCIDRs) && spec.podCIDRs.length) spec.podCIDR = spec.podCIDRs[0];
  }
  if (isObj(o.status) && isObj(o.status.capacity) && !isObj(o.status.allocatable)) o.status.allocatable = { ...o.status.capacity };
}

/** discovery/v1 SetDefaults_EndpointPort: `name: ""`, `protocol: TCP`. */
function defaultEndpointSlice(o: KubeObject): void {
  if (!Array.isArray(o.ports)) return;
  for (const p of o.ports as Obj[]) {
    if (!isObj(p)) continue;
    if (p.name === undefined || p.name === null) p.name = '';
    if (!p.protocol) p.protocol = 'TCP';
  }
}

/** core/v1 SetDefaults_EndpointPort: `protocol: TCP`. */
function defaultEndpoints(o: KubeObject): void {
  if (!Array.isArray(o.subsets)) return;
  for (const s of o.subsets as Obj[]) if (isObj(s) && Array.isArray(s.ports)) for (const p of s.ports) if (isObj(p) && !p.protocol) p.protocol = 'TCP';
}

/** rbac/v1 SetDefaults_Subject: User and Group subjects get `apiGroup: rbac.authorization.k8s.io`. */
function defaultBinding(o: KubeObject): void {
  if (!Array.isArray(o.subjects)) return;
  for (const s of o.subjects as Obj[]) {
    if (!isObj(s) || s.apiGroup) continue;
    if (s.kind === 'ServiceAccount') s.apiGroup = '';
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = 'rbac.authorization.k8s.io';
  }
}

/** networking/v1 SetDefaults_NetworkPolicy: port protocol TCP, policyTypes from the rules. */
function defaultNetworkPolicy(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  for (const dir of ['ingress', 'egress']) {
    if (!Array.isArray(spec[dir])) continue;
    for (const rule of spec[dir]) if (isObj(rule) && Array.isArray(rule.ports)) for (const p of rule.ports) if (isObj(p) && !p.protocol) p.protocol = 'TCP';
  }
  if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
    spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

/**
 * Apply the API server's defaulting to `obj` in place, by kind (see the file comment for the
 * sources). Kinds without defaults (ConfigMap, Lease, Event, ServiceAccount, Role, Ingress,
 * custom resources, ...) are left as they are. Never throws; tolerates partial objects (a
 * missing `spec` stays missing where the real defaulter would have nothing to default).
 *
 * Pods get only defaulting here; the server runs `addDefaultTolerations` and
 * `addServiceAccountVolume` as admission and records `qosClass(pod)` in `status.qosClass`.
 */
export function applyDefaults(obj: KubeObject, ctx: DefaultingContext): void {
  if (!obj || !isObj(obj)) return;
  if (!isObj(obj.metadata)) obj.metadata = {};
  switch (obj.kind) {
    case 'Pod':
      defaultPod(obj);
      return;
    case 'PodTemplate':
      defaultTemplate(obj.template as Obj | undefined);
      return;
    case 'Deployment':
      defaultDeployment(obj);
      return;
    case 'ReplicaSet':
      defaultReplicaSet(obj);
      return;
    case 'ReplicationController':
      defaultReplicationController(obj);
      return;
    case 'StatefulSet':
      defaultStatefulSet(obj);
      return;
    case 'DaemonSet':
      defaultDaemonSet(obj);
      return;
    case 'Job':
      defaultJob(obj);
      return;
    case 'CronJob':
      defaultCronJob(obj);
      return;
    case 'Service':
      defaultService(obj);
      return;
    case 'Namespace':
      defaultNamespace(obj, ctx);
      return;
    case 'PersistentVolumeClaim':
      defaultPvc(obj);
      return;
    case 'PersistentVolume':
      defaultPv(obj);
      return;
    case 'Secret':
      defaultSecret(obj);
      return;
    case 'Node':
      defaultNode(obj);
      return;
    case 'EndpointSlice':
      defaultEndpointSlice(obj);
      return;
    case 'Endpoints':
      defaultEndpoints(obj);
      return;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      defaultBinding(obj);
      return;
    case 'PriorityClass':
      if (!obj.preemptionPolicy) obj.preemptionPolicy = 'PreemptLowerPriority';
      return;
    case 'StorageClass':
      if (!obj.reclaimPolicy) obj.reclaimPolicy = 'Delete';
      if (!obj.volumeBindingMode) obj.volumeBindingMode = 'Immediate';
      return;
    case 'NetworkPolicy':
      defaultNetworkPolicy(obj);
      return;
    case 'LimitRange':
      defaultLimitRange(obj);
      return;
    case 'HorizontalPodAutoscaler':
      defaultHorizontalPodAutoscaler(obj);
      return;
  }
}

/**
 * `autoscaling.DefaultCPUUtilization`: the CPU target of an HPA that names no metric (80 %).
 * Source: pkg/apis/autoscaling/types.go.
 */
export const DEFAULT_CPU_UTILIZATION = 80;

/**
 * autoscaling/v2 SetDefaults_HorizontalPodAutoscaler (pkg/apis/autoscaling/v2/defaults.go):
 * `minReplicas: 1`; no metrics -> CPU at `DEFAULT_CPU_UTILIZATION` % of requests; a `behavior`
 * gets every unset rule filled (scale up: no stabilization, Max of 4 pods / 100 % per 15 s;
 * scale down: 100 % per 15 s, its window left to the controller's flag).
 */
function defaultHorizontalPodAutoscaler(o: KubeObject): void {
  const spec = o.spec;
  if (!isObj(spec)) return;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isObj(spec.behavior)) {
    const fill = (rules: unknown, defaults: Obj): Obj => {
      const out: Obj = { ...defaults };
      if (isObj(rules)) for (const k of ['stabilizationWindowSeconds', 'selectPolicy', 'policies']) if (rules[k] !== undefined && rules[k] !== null) out[k] = rules[k];
      return out;
    };
    spec.behavior.scaleUp = fill(spec.behavior.scaleUp, {
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    });
    spec.behavior.scaleDown = fill(spec.behavior.scaleDown, { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });
  }
}

/**
 * SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults.go), for `type: Container` items only:
 * a missing `default` takes `max`, a missing `defaultRequest` takes `default`, then `min`.
 */
function defaultLimitRange(o: KubeObject): void {
  const limits = isObj(o.spec) && Array.isArray(o.spec.limits) ? (o.spec.limits as unknown[]) : [];
  for (const item of limits) {
    if (!isObj(item) || item.type !== 'Container') continue;
    const def: Obj = isObj(item.default) ? item.default : {};
    const req: Obj = isObj(item.defaultRequest) ? item.defaultRequest : {};
    for (const [k, v] of Object.entries(isObj(item.max) ? item.max : {})) if (def[k] === undefined) def[k] = v;
    for (const [k, v] of Object.entries(def)) if (req[k] === undefined) req[k] = v;
    for (const [k, v] of Object.entries(isObj(item.min) ? item.min : {})) if (req[k] === undefined) req[k] = v;
    // ResourceList fields are `omitempty`: an empty map is not stored (no `default: {}`).
    if (Object.keys(def).length > 0) item.default = def;
    if (Object.keys(req).length > 0) item.defaultRequest = req;
  }
}
