/**
 * API validation: the field errors kube-apiserver returns (422 Invalid) on create and update,
 * with the real paths and messages, so kubectl prints what a 1.32-1.36 cluster prints.
 * Values render as 1.34+ servers render them (JSON; see `renderValue` in errors.ts): map keys
 * sorted (Go's encoding/json), metav1 structs with their JSON names, and internal structs
 * (which carry no JSON tags) with their Go field names.
 *
 * Sources (kubernetes/kubernetes):
 * - staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go (`ValidateObjectMeta`,
 *   `ValidateAnnotations`), .../apis/meta/v1/validation/validation.go (`ValidateLabels`,
 *   `ValidateLabelSelector`).
 * - pkg/apis/core/validation/validation.go (Pod, PodSpec, containers, volumes, probes,
 *   resources, tolerations, Service, ConfigMap, Secret, Namespace, Node, PVC, PV, Event,
 *   `ValidatePodUpdate`, `ValidateServiceUpdate`, `ValidatePersistentVolumeClaimUpdate`).
 * - pkg/apis/apps/validation/validation.go, pkg/apis/batch/validation/validation.go,
 *   pkg/apis/coordination/validation, pkg/apis/scheduling/validation,
 *   pkg/apis/networking/validation, pkg/apis/rbac/validation, pkg/apis/storage/validation.
 * - pkg/registry/apps/deployment/strategy.go (selector immutability in apps/v1).
 *
 * Order of errors follows the Go code, since kubectl prints them in that order.
 * Metadata the server owns (uid, resourceVersion, namespace existence, name immutability) is
 * checked by the server, not here. Quantities that do not parse are the decoder's business
 * (`checkDecodable`); validation skips them.
 */
import { field, errors, type FieldError } from './errors';
import type { KubeObject } from './types';
import { deepEqual } from './types';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  regexError,
  selectorFromLabelSelector,
} from './labels';
import { canonicalQuantity, isValidQuantity, parseQuantity, parseQuantityFull } from './quantity';
import { ApiError } from './errors';
import { validatePodFailurePolicy } from './validation-podfailurepolicy';
import { cronParseStandardError, isKnownTimeZone } from './cron';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
type Errs = FieldError[];

// ------------------------------------------------------------------ helpers

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? (v as Obj[]) : [];
}
function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}
const child = (p: string, c: string) => (p ? `${p}.${c}` : c);
const index = (p: string, i: number) => `${p}[${i}]`;
const keyed = (p: string, k: string) => `${p}[${k}]`;
function unset(v: unknown): boolean {
  return v === undefined || v === null;
}

/** A map as Go's encoding/json writes it: keys sorted. */
export function sortedMap(m: Record<string, unknown> | undefined | null): Record<string, unknown> | null {
  if (!m) return null;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out;
}

/** A metav1.LabelSelector as its JSON: matchLabels (sorted) then matchExpressions, empties omitted. */
export function selectorValue(sel: unknown): unknown {
  if (!isObj(sel)) return null;
  const out: Obj = {};
  if (isObj(sel.matchLabels) && Object.keys(sel.matchLabels).length) out.matchLabels = sortedMap(sel.matchLabels);
  if (Array.isArray(sel.matchExpressions) && sel.matchExpressions.length) {
    out.matchExpressions = sel.matchExpressions.map((e: Obj) => {
      const x: Obj = { key: e?.key ?? '', operator: e?.operator ?? '' };
      if (Array.isArray(e?.values) && e.values.length) x.values = e.values;
      return x;
    });
  }
  return out;
}

/** `ValidateNonnegativeField`: `must be greater than or equal to 0`. */
function nonNegative(v: unknown, path: string, errs: Errs): void {
  if (typeof v === 'number' && v < 0) errs.push(field.invalid(path, v, 'must be greater than or equal to 0'));
}

/** `validation.InclusiveRangeError`. */
function inclusiveRange(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** `IsValidPortNum`. */
function portNumErrors(p: unknown): string[] {
  return typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

/** `IsValidPortName` (IANA_SVC_NAME). */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name[0] === '-' || name[name.length - 1] === '-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** `ValidatePortNumOrName` for an IntOrString: numbers are port numbers, strings port names. */
function portNumOrName(p: unknown, path: string, errs: Errs): void {
  if (typeof p === 'number') for (const m of portNumErrors(p)) errs.push(field.invalid(path, p, m));
  else if (typeof p === 'string') for (const m of portNameErrors(p)) errs.push(field.invalid(path, p, m));
  else errs.push({ type: 'InternalError', field: path, detail: `unknown type: ${typeof p}` });
}

/** `ValidateDNS1123Label` on a field. */
function dnsLabel(v: string, path: string, errs: Errs): void {
  for (const m of isDNS1123Label(v)) errs.push(field.invalid(path, v, m));
}

/** `ValidateDNS1123Subdomain` on a field. */
function dnsSubdomain(v: string, path: string, errs: Errs): void {
  for (const m of isDNS1123Subdomain(v)) errs.push(field.invalid(path, v, m));
}

/** `[-._a-zA-Z0-9]+`, whole (one RegExp: a literal in the function would be a new object per call). */
const CONFIG_KEY_RE = /^[-._a-zA-Z0-9]+$/;

/** `IsConfigMapKey`: `[-._a-zA-Z0-9]+`, at most 253, not `.`/`..`/`..x`. */
export function configMapKeyErrors(k: string): string[] {
  // Fast path (performance only): a valid key (what passes every check below) costs one regex
  // test and no intermediate arrays.
  if (k.length <= 253 && CONFIG_KEY_RE.test(k) && k !== '.' && !k.startsWith('..')) return [];
  const errs: string[] = [];
  if (k.length > 253) errs.push(maxLenError(253));
  if (!CONFIG_KEY_RE.test(k)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", '[-._a-zA-Z0-9]+', 'key.name', 'KEY_NAME', 'key-name'));
  }
  errs.push(...chDirPrefixErrors(k));
  return errs;
}

function chDirPrefixErrors(v: string): string[] {
  if (v === '.') return ["must not be '.'"];
  if (v === '..') return ["must not be '..'"];
  if (v.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** A quantity's canonical string, or undefined when it does not parse. */
function qstr(v: unknown): string | undefined {
  if (!isValidQuantity(v)) return undefined;
  return canonicalQuantity(v as string | number);
}

function qval(v: unknown): number | undefined {
  return isValidQuantity(v) ? parseQuantity(v as string | number) : undefined;
}

// ------------------------------------------------------------------ metadata

type NameFn = (name: string, prefix: boolean) => string[];

/** `maskTrailingDash`: a generateName prefix may end in `-`. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

const nameIsDNSSubdomain: NameFn = (n, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(n) : n);
const nameIsDNSLabel: NameFn = (n, prefix) => isDNS1123Label(prefix ? maskTrailingDash(n) : n);
const nameIsDNS1035Label: NameFn = (n, prefix) => isDNS1035Label(prefix ? maskTrailingDash(n) : n);
/** `path.ValidatePathSegmentName` (RBAC object names). */
const pathSegmentName: NameFn = (n, prefix) => {
  if (!prefix) {
    if (n === '.') return ["may not be '.'"];
    if (n === '..') return ["may not be '..'"];
  }
  const errs: string[] = [];
  if (n.includes('/')) errs.push("may not contain '/'");
  if (n.includes('%')) errs.push("may not contain '%'");
  return errs;
};

/** The name rule of each kind (the `ValidateXxxName` its strategy passes to ValidateObjectMeta). */
function nameFnFor(kind: string): NameFn {
  switch (kind) {
    case 'Namespace':
      return nameIsDNSLabel;
    case 'Service':
      return nameIsDNS1035Label;
    case 'Role':
    case 'ClusterRole':
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return pathSegmentName;
    default:
      return nameIsDNSSubdomain;
  }
}

const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'ClusterRole', 'ClusterRoleBinding', 'PriorityClass', 'StorageClass',
  'CustomResourceDefinition', 'IngressClass', 'ComponentStatus', 'ValidatingWebhookConfiguration',
]);

/** Max total size of annotations (keys + values): 256 KiB (`TotalAnnotationSizeLimitB`). */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;
/** Max size of a ConfigMap's or Secret's data: 1 MiB (`core.MaxSecretSize`). */
export const MAX_SECRET_SIZE = 1024 * 1024;

/**
 * UTF-8 length of a string (Go's `len(string)`): per code point 1, 2, 3 or 4 bytes; a lone
 * surrogate counts 3 (as a code point below 0x10000, which iterating the string yields for it).
 * Walks UTF-16 units without a string iterator (performance only: the same counts as iterating
 * code points: a high surrogate followed by a low one is one code point >= 0x10000).
 */
function utf8Length(s: string): number {
  const len = s.length;
  let n = len;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        // 4 bytes for the two units.
        n += 2;
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** `ValidateLabels`: every key a qualified name, every value a label value; errors at `path`. */
function validateLabels(labels: unknown, path: string, errs: Errs): void {
  if (!isObj(labels)) return;
  for (const k of Object.keys(labels)) {
    for (const m of isQualifiedName(k)) errs.push(field.invalid(path, k, m));
    const v = labels[k];
    for (const m of isValidLabelValue(typeof v === 'string' ? v : String(v))) errs.push(field.invalid(path, v, m));
  }
}

/** `ValidateAnnotations`: keys qualified names (lower-cased), total size at most 256 KiB. */
function validateAnnotations(ann: unknown, path: string, errs: Errs): void {
  if (!isObj(ann)) return;
  let size = 0;
  for (const k of Object.keys(ann)) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(path, k, m));
    size += utf8Length(k) + utf8Length(String(ann[k] ?? ''));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(field.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_B));
}

/**
 * The object `validateUpdate` is validating, and the stored object it replaces when that one's
 * metadata is known to be valid (see `validateObjectMeta`).
 */
let updating: KubeObject | undefined;
let updatingOld: KubeObject | undefined;

/** The metadata fields `validateObjectMeta` reads. */
const OBJECT_META_FIELDS = ['generateName', 'name', 'namespace', 'labels', 'annotations', 'finalizers'];

/**
 * True when `a` and `b` are the same JSON value as validation reads it: equal primitives (===),
 * or arrays of the same length with the same items, or non-array objects with the same own
 * enumerable keys (Object.keys, any order) holding the same values. Stricter than `deepEqual`
 * (an undefined-valued key counts): two values it calls equal are read identically.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Obj;
  const bo = b as Obj;
  const pa = Object.getPrototypeOf(a);
  const pb = Object.getPrototypeOf(b);
  if ((pa === Object.prototype || pa === null) && (pb === Object.prototype || pb === null)) {
    // Plain objects (performance only: no key arrays): for-in visits exactly the own enumerable
    // string keys (Object.prototype has no enumerable ones), as Object.keys lists them.
    let na = 0;
    for (const k in ao) {
      na++;
      if (!Object.prototype.propertyIsEnumerable.call(bo, k) || !sameValue(ao[k], bo[k])) return false;
    }
    let nb = 0;
    for (const k in bo) if (k !== undefined) nb++;
    return na === nb;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(bo, k) || !Object.prototype.propertyIsEnumerable.call(bo, k) || !sameValue(ao[k], bo[k])) return false;
  return true;
}

/**
 * True when `o` is the object `validateUpdate` is validating, the stored object it replaces has
 * validated metadata (its `oldMetadataValidated`) of the same kind, and every field
 * `validateObjectMeta` reads holds the same value in both: then `validateObjectMeta(o)` finds
 * what it found for the stored one, nothing.
 */
function metadataUnchangedAndValid(o: KubeObject): boolean {
  const old = updatingOld;
  if (o !== updating || old === undefined || o.kind !== old.kind) return false;
  const a = o.metadata as Obj | undefined;
  const b = old.metadata as Obj | undefined;
  if (!isObj(a) || !isObj(b)) return false;
  for (const f of OBJECT_META_FIELDS) if (!sameValue(a[f], b[f])) return false;
  return true;
}

/** `ValidateObjectMeta` (without the server-owned parts). */
function validateObjectMeta(o: KubeObject, nameFn: NameFn, errs: Errs, path = 'metadata'): void {
  // An update that leaves validated metadata as it was (see metadataUnchangedAndValid).
  if (path === 'metadata' && metadataUnchangedAndValid(o)) return;
  const meta = obj(o.metadata);
  if (typeof meta.generateName === 'string' && meta.generateName.length) {
    for (const m of nameFn(meta.generateName, true)) errs.push(field.invalid(child(path, 'generateName'), meta.generateName, m));
  }
  if (!meta.name) errs.push(field.required(child(path, 'name'), 'name or generateName is required'));
  else for (const m of nameFn(String(meta.name), false)) errs.push(field.invalid(child(path, 'name'), meta.name, m));
  if (!CLUSTER_SCOPED.has(o.kind) && typeof meta.namespace === 'string' && meta.namespace.length) {
    for (const m of isDNS1123Label(meta.namespace)) errs.push(field.invalid(child(path, 'namespace'), meta.namespace, m));
  }
  validateLabels(meta.labels, child(path, 'labels'), errs);
  validateAnnotations(meta.annotations, child(path, 'annotations'), errs);
  for (const f of arr(meta.finalizers) as unknown[]) {
    for (const m of isQualifiedName(String(f))) errs.push(field.invalid(child(path, 'finalizers'), f, m));
  }
}

/** `ValidateLabelSelector` (metav1 validation): matchLabels as labels, each expression's operator/values/key. */
function validateLabelSelector(sel: unknown, path: string, errs: Errs): void {
  if (!isObj(sel)) return;
  validateLabels(sel.matchLabels, child(path, 'matchLabels'), errs);
  arr(sel.matchExpressions).forEach((e, i) => {
    const p = index(child(path, 'matchExpressions'), i);
    const values = arr(e?.values) as unknown as string[];
    switch (e?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(field.required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(field.forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(field.invalid(child(p, 'operator'), e?.operator ?? '', 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(String(e?.key ?? ''))) errs.push(field.invalid(child(p, 'key'), e?.key ?? '', m));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(String(v))) errs.push(field.invalid(index(child(p, 'values'), j), v, m));
    });
  });
}

/** True when `LabelSelectorAsSelector` accepts `sel` (nil included). */
function selectorConverts(sel: unknown): boolean {
  try {
    selectorFromLabelSelector(isObj(sel) ? sel : undefined);
    return true;
  } catch (e) {
    if (e instanceof ApiError) return false;
    throw e;
  }
}

/** `ValidateImmutableField`: `<path>: Invalid value: <new>: field is immutable`. */
function immutable(newVal: unknown, oldVal: unknown, path: string, errs: Errs, render: (v: unknown) => unknown = (v) => v): void {
  if (!deepEqual(newVal ?? null, oldVal ?? null)) errs.push(field.invalid(path, render(newVal) ?? null, 'field is immutable'));
}

// ------------------------------------------------------------------ pod spec

const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'quota', 'services', 'replicationcontrollers', 'resourcequotas',
  'secrets', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const ENV_FIELD_PATHS = [
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
];

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}
/** `IsOvercommitAllowed`: native resources except hugepages. Extended resources need requests == limits. */
function overcommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePages(name);
}
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName('requests.' + name).length === 0;
}

/** `validateContainerResourceName` (+ `validateResourceName`). */
function validateContainerResourceName(name: string, path: string, errs: Errs): void {
  const q = isQualifiedName(name);
  for (const m of q) errs.push(field.invalid(path, name, m));
  if (q.length) return;
  if (!name.includes('/')) {
    if (!STANDARD_RESOURCES.has(name) && !isHugePages(name)) errs.push(field.invalid(path, name, 'must be a standard resource type or fully qualified'));
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(field.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(field.invalid(path, name, "doesn't follow extended resource name standard"));
  }
}

/** `ValidateResourceQuantityValue`: non-negative, integer for extended resources. */
function validateQuantityValue(name: string, q: unknown, path: string, errs: Errs): void {
  const v = qval(q);
  if (v === undefined) return;
  if (v < 0) errs.push(field.invalid(path, qstr(q), 'must be greater than or equal to 0'));
  if (!isNativeResource(name) && Math.abs(v * 1000 - Math.round(v) * 1000) > 1e-6) errs.push(field.invalid(path, qstr(q), 'must be an integer'));
}

/** `ValidateContainerResourceRequirements`: names, values, requests <= limits (== for extended). */
function validateResources(res: unknown, path: string, errs: Errs): void {
  if (!isObj(res)) return;
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits = obj(res.limits);
  const requests = obj(res.requests);
  for (const name of Object.keys(limits)) {
    validateContainerResourceName(name, keyed(limPath, name), errs);
    validateQuantityValue(name, limits[name], keyed(limPath, name), errs);
  }
  for (const name of Object.keys(requests)) {
    validateContainerResourceName(name, keyed(reqPath, name), errs);
    validateQuantityValue(name, requests[name], keyed(reqPath, name), errs);
    const rv = qval(requests[name]);
    if (name in limits) {
      const lv = qval(limits[name]);
      if (rv === undefined || lv === undefined) continue;
      if (rv !== lv && !overcommitAllowed(name)) {
        errs.push(field.invalid(reqPath, qstr(requests[name]), `must be equal to ${name} limit of ${qstr(limits[name])}`));
      } else if (rv > lv) {
        errs.push(field.invalid(reqPath, qstr(requests[name]), `must be less than or equal to ${name} limit of ${qstr(limits[name])}`));
      }
    } else if (!overcommitAllowed(name)) {
      errs.push(field.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
}

/** `validateHandler`: exactly one of exec, httpGet, tcpSocket, grpc (and sleep for lifecycle hooks). */
function validateHandler(h: Obj, path: string, errs: Errs, allowSleep: boolean): void {
  // The handler types in their Go order: the first one set is checked, each later one set is
  // "may not specify more than 1 handler type". (One loop and a switch instead of a closure per
  // type and call: performance only, same checks in the same order.)
  let n = 0;
  const kinds = allowSleep ? HANDLER_TYPES_WITH_SLEEP : HANDLER_TYPES;
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i];
    if (unset(h[k])) continue;
    if (n > 0) {
      errs.push(field.forbidden(child(path, k), 'may not specify more than 1 handler type'));
      continue;
    }
    n++;
    switch (k) {
      case 'exec':
        if (!arr(h.exec.command).length) errs.push(field.required(child(child(path, 'exec'), 'command')));
        break;
      case 'httpGet': {
        const g = obj(h.httpGet);
        const p = child(path, 'httpGet');
        if (!g.path) errs.push(field.required(child(p, 'path')));
        portNumOrName(g.port, child(p, 'port'), errs);
        if (g.scheme !== 'HTTP' && g.scheme !== 'HTTPS') errs.push(field.notSupported(child(p, 'scheme'), g.scheme ?? '', ['HTTP', 'HTTPS']));
        break;
      }
      case 'tcpSocket':
        portNumOrName(obj(h.tcpSocket).port, child(child(path, 'tcpSocket'), 'port'), errs);
        break;
      case 'grpc': {
        const port = obj(h.grpc).port;
        for (const m of portNumErrors(port)) errs.push(field.invalid(child(child(path, 'grpc'), 'port'), port, m));
        break;
      }
      case 'sleep': {
        const sec = obj(h.sleep).seconds;
        if (typeof sec === 'number' && sec < 0) errs.push(field.invalid(child(child(path, 'sleep'), 'seconds'), sec, 'must be non-negative'));
        break;
      }
    }
  }
  if (n === 0) errs.push(field.required(path, 'must specify a handler type'));
}

/** Handler types of probes, in the order `validateHandler` checks them. */
const HANDLER_TYPES = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
/** Handler types of lifecycle hooks (sleep allowed), in the order `validateHandler` checks them. */
const HANDLER_TYPES_WITH_SLEEP = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'];

/** `validateProbe` + the liveness/startup `successThreshold` rule. */
function validateProbe(p: unknown, path: string, kind: 'liveness' | 'readiness' | 'startup', errs: Errs): void {
  if (!isObj(p)) return;
  validateHandler(p, path, errs, false);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) nonNegative(p[f], child(path, f), errs);
  if (typeof p.terminationGracePeriodSeconds === 'number' && p.terminationGracePeriodSeconds <= 0) {
    errs.push(field.invalid(child(path, 'terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  if (kind !== 'readiness' && p.successThreshold !== undefined && p.successThreshold !== 1) {
    errs.push(field.invalid(child(path, 'successThreshold'), p.successThreshold, 'must be 1'));
  }
  if (kind === 'readiness' && !unset(p.terminationGracePeriodSeconds)) {
    errs.push(field.invalid(child(path, 'terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
}

/** `ValidateEnv` (relaxed names: GA behaviour of RelaxedEnvironmentVariableValidation). */
function validateEnv(env: unknown, path: string, errs: Errs): void {
  arr(env).forEach((e, i) => {
    const p = index(path, i);
    const name = String(e?.name ?? '');
    if (!name) errs.push(field.required(child(p, 'name')));
    else {
      if (!/^[ -<>-~]+$/.test(name)) errs.push(field.invalid(child(p, 'name'), name, "a valid environment variable name must consist only of printable ASCII characters other than '='"));
      for (const m of chDirPrefixErrors(name)) errs.push(field.invalid(child(p, 'name'), name, m));
    }
    const vf = e?.valueFrom;
    if (!isObj(vf)) return;
    const vp = child(p, 'valueFrom');
    let n = 0;
    if (isObj(vf.fieldRef)) {
      n++;
      const fp = String(vf.fieldRef.fieldPath ?? '');
      const fpp = child(child(vp, 'fieldRef'), 'fieldPath');
      if (!fp) errs.push(field.required(fpp));
      else if (!ENV_FIELD_PATHS.includes(fp) && !/^metadata\.(labels|annotations)\['[^']+'\]$/.test(fp)) errs.push(field.notSupported(fpp, fp, ENV_FIELD_PATHS));
    }
    if (isObj(vf.resourceFieldRef)) n++;
    for (const ref of ['configMapKeyRef', 'secretKeyRef']) {
      if (!isObj(vf[ref])) continue;
      n++;
      const rp = child(vp, ref);
      const r = vf[ref];
      for (const m of isDNS1123Subdomain(String(r.name ?? ''))) errs.push(field.invalid(child(rp, 'name'), r.name ?? '', m));
      if (!r.key) errs.push(field.required(child(rp, 'key')));
      else for (const m of configMapKeyErrors(String(r.key))) errs.push(field.invalid(child(rp, 'key'), r.key, m));
    }
    if (n === 0) errs.push(field.invalid(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (e.value) errs.push(field.invalid(vp, '', 'may not be specified when `value` is not empty'));
    else if (n > 1) errs.push(field.invalid(vp, '', 'may not have more than one field specified at a time'));
  });
}

/** `validateContainerPorts`. */
function validateContainerPorts(ports: unknown, path: string, errs: Errs): void {
  const names = new Set<string>();
  arr(ports).forEach((port, i) => {
    const p = index(path, i);
    if (port.name) {
      const msgs = portNameErrors(String(port.name));
      if (msgs.length) for (const m of msgs) errs.push(field.invalid(child(p, 'name'), port.name, m));
      else if (names.has(port.name)) errs.push(field.duplicate(child(p, 'name'), port.name));
      else names.add(port.name);
    }
    if (!port.containerPort) errs.push(field.required(child(p, 'containerPort')));
    else for (const m of portNumErrors(port.containerPort)) errs.push(field.invalid(child(p, 'containerPort'), port.containerPort, m));
    if (port.hostPort) for (const m of portNumErrors(port.hostPort)) errs.push(field.invalid(child(p, 'hostPort'), port.hostPort, m));
    if (!port.protocol) errs.push(field.required(child(p, 'protocol')));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(port.protocol)) errs.push(field.notSupported(child(p, 'protocol'), port.protocol, SUPPORTED_PORT_PROTOCOLS));
  });
}

/** `ValidateVolumeMounts`: name set and naming a volume, mountPath set and unique. */
function validateVolumeMounts(mounts: unknown, volumes: Set<string>, path: string, errs: Errs): void {
  const paths = new Set<string>();
  arr(mounts).forEach((m, i) => {
    const p = index(path, i);
    if (!m.name) errs.push(field.required(child(p, 'name')));
    if (!volumes.has(m.name)) errs.push(field.notFound(child(p, 'name'), m.name ?? ''));
    if (!m.mountPath) errs.push(field.required(child(p, 'mountPath')));
    if (paths.has(m.mountPath)) errs.push(field.invalid(child(p, 'mountPath'), m.mountPath, 'must be unique'));
    paths.add(m.mountPath);
    if (typeof m.subPath === 'string' && m.subPath) {
      if (m.subPath.startsWith('/')) errs.push(field.invalid(child(p, 'subPath'), m.subPath, 'must be a relative path'));
      else if (m.subPath.split('/').includes('..')) errs.push(field.invalid(child(p, 'subPath'), m.subPath, "must not contain '..'"));
    }
  });
}

/** `validateContainerCommon` + probes/lifecycle for regular (and restartable init) containers. */
function validateContainer(c: Obj, path: string, volumes: Set<string>, regular: boolean, errs: Errs): void {
  if (!c.name) errs.push(field.required(child(path, 'name')));
  else dnsLabel(String(c.name), child(path, 'name'), errs);
  if (!c.image) errs.push(field.required(child(path, 'image')));
  else if (typeof c.image === 'string' && c.image.trim() !== c.image) {
    errs.push(field.invalid(child(path, 'image'), c.image, 'must not have leading or trailing whitespace'));
  }
  const tmp = c.terminationMessagePolicy;
  if (!tmp) errs.push(field.required(child(path, 'terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(field.notSupported(child(path, 'terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  validateContainerPorts(c.ports, child(path, 'ports'), errs);
  validateEnv(c.env, child(path, 'env'), errs);
  validateVolumeMounts(c.volumeMounts, volumes, child(path, 'volumeMounts'), errs);
  const ipp = c.imagePullPolicy;
  if (!ipp) errs.push(field.required(child(path, 'imagePullPolicy')));
  else if (!['Always', 'IfNotPresent', 'Never'].includes(ipp)) errs.push(field.notSupported(child(path, 'imagePullPolicy'), ipp, ['Always', 'IfNotPresent', 'Never']));
  validateResources(c.resources, child(path, 'resources'), errs);
  if (regular) {
    if (isObj(c.lifecycle)) {
      for (const hook of ['postStart', 'preStop']) if (isObj(c.lifecycle[hook])) validateHandler(c.lifecycle[hook], child(child(path, 'lifecycle'), hook), errs, true);
    }
    validateProbe(c.livenessProbe, child(path, 'livenessProbe'), 'liveness', errs);
    validateProbe(c.readinessProbe, child(path, 'readinessProbe'), 'readiness', errs);
    validateProbe(c.startupProbe, child(path, 'startupProbe'), 'startup', errs);
  } else {
    for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (!unset(c[f])) errs.push(field.forbidden(child(path, f), 'may not be set for init containers without restartPolicy=Always'));
    }
  }
}

const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'flocker', 'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap',
  'azureFile', 'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO',
  'csi', 'ephemeral', 'image',
];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function validateMode(mode: unknown, path: string, errs: Errs): void {
  if (typeof mode === 'number' && (mode < 0 || mode > 0o777)) errs.push(field.invalid(path, mode, 'must be a number between 0 and 0777 (octal), both inclusive'));
}

/** `validateVolumeSource` (exactly one source) with the common per-source required fields. */
function validateVolumeSource(v: Obj, path: string, errs: Errs): void {
  let n = 0;
  for (const k of VOLUME_SOURCES) {
    if (unset(v[k])) continue;
    if (n > 0) {
      errs.push(field.forbidden(child(path, k), 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    const s = obj(v[k]);
    const p = child(path, k);
    switch (k) {
      case 'configMap':
        if (!s.name) errs.push(field.required(child(p, 'name')));
        validateMode(s.defaultMode, child(p, 'defaultMode'), errs);
        break;
      case 'secret':
        if (!s.secretName) errs.push(field.required(child(p, 'secretName')));
        validateMode(s.defaultMode, child(p, 'defaultMode'), errs);
        break;
      case 'persistentVolumeClaim':
        if (!s.claimName) errs.push(field.required(child(p, 'claimName')));
        break;
      case 'hostPath':
        if (!s.path) errs.push(field.required(child(p, 'path')));
        if (s.type !== undefined && !HOST_PATH_TYPES.includes(s.type)) errs.push(field.notSupported(child(p, 'type'), s.type, HOST_PATH_TYPES));
        break;
      case 'emptyDir':
        if (s.medium !== undefined && !['', 'Memory', 'HugePages'].includes(s.medium) && !String(s.medium).startsWith('HugePages-')) {
          errs.push(field.notSupported(child(p, 'medium'), s.medium, ['', 'Memory', 'HugePages']));
        }
        if (s.sizeLimit !== undefined && (qval(s.sizeLimit) ?? 0) < 0) errs.push(field.forbidden(child(p, 'sizeLimit'), 'SizeLimit field must be a valid resource quantity'));
        break;
      case 'nfs':
        if (!s.server) errs.push(field.required(child(p, 'server')));
        if (!s.path) errs.push(field.required(child(p, 'path')));
        break;
      case 'projected':
        validateMode(s.defaultMode, child(p, 'defaultMode'), errs);
        break;
    }
  }
  if (n === 0) errs.push(field.required(path, 'must specify a volume type'));
}

/** `ValidateVolumes`: names set, DNS-1123 labels, unique; sources. Returns the volume names. */
function validateVolumes(vols: unknown, path: string, errs: Errs): Set<string> {
  const names = new Set<string>();
  arr(vols).forEach((v, i) => {
    const p = index(path, i);
    validateVolumeSource(v, p, errs);
    if (!v.name) errs.push(field.required(child(p, 'name')));
    else dnsLabel(String(v.name), child(p, 'name'), errs);
    if (names.has(v.name)) errs.push(field.duplicate(child(p, 'name'), v.name));
    else if (v.name) names.add(v.name);
  });
  return names;
}

/** An internal core.Toleration as 1.34+ renders it (no JSON tags: Go field names). */
function tolerationValue(t: Obj): unknown {
  return { Key: t.key ?? '', Operator: t.operator ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TolerationSeconds: t.tolerationSeconds ?? null };
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** `validateTaintEffect`. */
function validateTaintEffect(effect: unknown, allowEmpty: boolean, path: string, errs: Errs): void {
  if (!effect) {
    if (!allowEmpty) errs.push(field.required(path));
    return;
  }
  if (!TAINT_EFFECTS.includes(String(effect))) errs.push(field.notSupported(path, effect, TAINT_EFFECTS));
}

/** `ValidateTolerations`. */
function validateTolerations(tols: unknown, path: string, errs: Errs): void {
  arr(tols).forEach((t, i) => {
    const p = index(path, i);
    if (t.key) for (const m of isQualifiedName(String(t.key))) errs.push(field.invalid(child(p, 'key'), t.key, m));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(field.invalid(child(p, 'operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (!unset(t.tolerationSeconds) && t.effect !== 'NoExecute') {
      errs.push(field.invalid(child(p, 'effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal':
      case '': {
        const e = isValidLabelValue(String(t.value ?? ''));
        if (e.length) errs.push(field.invalid(child(p, 'operator'), t.value ?? '', e.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(field.invalid(child(p, 'operator'), tolerationValue(t), "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(field.notSupported(child(p, 'operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect) validateTaintEffect(t.effect, true, child(p, 'effect'), errs);
  });
}

/**
 * `ValidatePodSpec` at `path` (`spec` for a Pod, `spec.template.spec` for a workload):
 * volumes, containers, init containers, restartPolicy, dnsPolicy, nodeSelector,
 * serviceAccountName, activeDeadlineSeconds, hostname/subdomain, tolerations,
 * priorityClassName, preemptionPolicy. Run after defaulting.
 */
function validatePodSpec(spec: unknown, path: string, errs: Errs): void {
  const s = obj(spec);
  const volumes = validateVolumes(s.volumes, child(path, 'volumes'), errs);
  const cpath = child(path, 'containers');
  const containers = arr(s.containers);
  if (containers.length === 0) errs.push(field.required(cpath));
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = index(cpath, i);
    validateContainer(c, p, volumes, true, errs);
    if (c.name && names.has(c.name)) errs.push(field.duplicate(child(p, 'name'), c.name));
    else names.add(c.name);
  });
  // checkHostPortConflicts
  const hostPorts = new Set<string>();
  containers.forEach((c, i) => {
    arr(c.ports).forEach((port, j) => {
      if (!port.hostPort) return;
      const k = `${port.hostIP ?? ''}/${port.protocol ?? ''}/${port.hostPort}`;
      if (hostPorts.has(k)) errs.push(field.duplicate(child(index(child(index(cpath, i), 'ports'), j), 'hostPort'), k));
      else hostPorts.add(k);
    });
  });
  const ipath = child(path, 'initContainers');
  arr(s.initContainers).forEach((c, i) => {
    const p = index(ipath, i);
    validateContainer(c, p, volumes, c.restartPolicy === 'Always', errs);
    if (c.name && names.has(c.name)) errs.push(field.duplicate(child(p, 'name'), c.name));
    else names.add(c.name);
    if (!unset(c.restartPolicy) && c.restartPolicy !== 'Always') errs.push(field.notSupported(child(p, 'restartPolicy'), c.restartPolicy, ['Always']));
  });
  const rp = s.restartPolicy;
  if (!rp) errs.push(field.required(child(path, 'restartPolicy')));
  else if (!['Always', 'OnFailure', 'Never'].includes(rp)) errs.push(field.notSupported(child(path, 'restartPolicy'), rp, ['Always', 'OnFailure', 'Never']));
  const dp = s.dnsPolicy;
  const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (!dp) errs.push(field.required(child(path, 'dnsPolicy')));
  else if (!dnsPolicies.includes(dp)) errs.push(field.notSupported(child(path, 'dnsPolicy'), dp, dnsPolicies));
  validateLabels(s.nodeSelector, child(path, 'nodeSelector'), errs);
  if (dp === 'None') {
    if (!isObj(s.dnsConfig)) errs.push(field.required(child(path, 'dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'));
    else if (!arr(s.dnsConfig.nameservers).length) {
      errs.push(field.required(child(child(path, 'dnsConfig'), 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None'));
    }
  }
  if (s.serviceAccountName) for (const m of isDNS1123Subdomain(String(s.serviceAccountName))) errs.push(field.invalid(child(path, 'serviceAccountName'), s.serviceAccountName, m));
  if (s.nodeName) for (const m of isDNS1123Subdomain(String(s.nodeName))) errs.push(field.invalid(child(path, 'nodeName'), s.nodeName, m));
  if (!unset(s.activeDeadlineSeconds)) {
    const v = s.activeDeadlineSeconds;
    if (typeof v !== 'number' || v < 1 || v > 2147483647) errs.push(field.invalid(child(path, 'activeDeadlineSeconds'), v, inclusiveRange(1, 2147483647)));
  }
  if (s.hostname) dnsLabel(String(s.hostname), child(path, 'hostname'), errs);
  if (s.subdomain) dnsLabel(String(s.subdomain), child(path, 'subdomain'), errs);
  validateTolerations(s.tolerations, child(path, 'tolerations'), errs);
  if (s.priorityClassName) dnsSubdomain(String(s.priorityClassName), child(path, 'priorityClassName'), errs);
  if (!unset(s.preemptionPolicy) && s.preemptionPolicy !== 'Never' && s.preemptionPolicy !== 'PreemptLowerPriority') {
    errs.push(field.notSupported(child(path, 'preemptionPolicy'), s.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
}

/**
 * `ValidatePodTemplateSpec` at `path` (`spec.template`): labels and annotations (printed at
 * `spec.template.labels` / `.annotations`, as the Go code names them), the pod spec at
 * `<path>.spec`, no ephemeral containers.
 */
function validatePodTemplate(t: unknown, path: string, errs: Errs): void {
  const tpl = obj(t);
  const meta = obj(tpl.metadata);
  validateLabels(meta.labels, child(path, 'labels'), errs);
  validateAnnotations(meta.annotations, child(path, 'annotations'), errs);
  validatePodSpec(tpl.spec, child(path, 'spec'), errs);
  if (arr(tpl.spec?.ephemeralContainers).length) errs.push(field.forbidden(child(child(path, 'spec'), 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
}

// ------------------------------------------------------------------ per kind: core

function validatePod(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Pod'), errs);
  validatePodSpec(o.spec, 'spec', errs);
}

/** `IsValidIP` (IPv4 and a loose IPv6 check). */
function isValidIP(ip: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) return v4.slice(1).every((x) => Number(x) <= 255 && !(x.length > 1 && x.startsWith('0')));
  return ip.includes(':') && /^[0-9a-fA-F:.]+$/.test(ip);
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

function serviceIPs(spec: Obj): string[] {
  if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length) return spec.clusterIPs;
  return spec.clusterIP ? [spec.clusterIP] : [];
}

function validateService(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Service'), errs);
  const spec = obj(o.spec);
  const ips = serviceIPs(spec);
  const headless = ips.length === 1 && ips[0] === 'None';
  const ports = arr(spec.ports);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(field.required('spec.ports'));
  switch (spec.type) {
    case 'LoadBalancer':
      ports.forEach((p, i) => {
        if (p.port === 10250) errs.push(field.invalid(index('spec.ports', i), p.port, 'may not expose port 10250 externally since it is used by kubelet'));
      });
      if (headless) errs.push(field.invalid('spec.clusterIPs[0]', ips[0], "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (headless) errs.push(field.invalid('spec.clusterIPs[0]', ips[0], "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (ips.length) errs.push(field.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      const cname = String(spec.externalName ?? '').replace(/\.$/, '');
      if (cname) dnsSubdomain(cname, 'spec.externalName', errs);
      else errs.push(field.required('spec.externalName'));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((sp, i) => {
    const p = index('spec.ports', i);
    if (ports.length > 1 && !sp.name) errs.push(field.required(child(p, 'name')));
    else if (sp.name) {
      dnsLabel(String(sp.name), child(p, 'name'), errs);
      if (names.has(sp.name)) errs.push(field.duplicate(child(p, 'name'), sp.name));
      else names.add(sp.name);
    }
    for (const m of portNumErrors(sp.port)) errs.push(field.invalid(child(p, 'port'), sp.port ?? 0, m));
    if (!sp.protocol) errs.push(field.required(child(p, 'protocol')));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(sp.protocol)) errs.push(field.notSupported(child(p, 'protocol'), sp.protocol, SUPPORTED_PORT_PROTOCOLS));
    portNumOrName(sp.targetPort, child(p, 'targetPort'), errs);
  });
  if (isObj(spec.selector)) validateLabels(spec.selector, 'spec.selector', errs);
  if (!spec.sessionAffinity) errs.push(field.required('spec.sessionAffinity'));
  else if (!['ClientIP', 'None'].includes(spec.sessionAffinity)) errs.push(field.notSupported('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  if (spec.type !== 'ExternalName') {
    ips.forEach((ip, i) => {
      if (ip === 'None' && i === 0) return;
      if (!isValidIP(String(ip))) errs.push(field.invalid(index('spec.clusterIPs', i), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    });
  }
  if (!spec.type) errs.push(field.required('spec.type'));
  else if (!SERVICE_TYPES.includes(spec.type)) errs.push(field.notSupported('spec.type', spec.type, SERVICE_TYPES));
  if (spec.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(field.forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  // Node ports come from the allocator's range (portallocator; the range is also checked at admission).
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') {
    const seen = new Set<string>();
    ports.forEach((p, i) => {
      if (!p.nodePort) return;
      const path = child(index('spec.ports', i), 'nodePort');
      if (p.nodePort < 30000 || p.nodePort > 32767) {
        errs.push(field.invalid(path, p.nodePort, 'provided port is not in the valid range. The range of valid ports is 30000-32767'));
      }
      const k = `${p.protocol}/${p.nodePort}`;
      if (seen.has(k)) errs.push(field.duplicate(path, p.nodePort));
      seen.add(k);
    });
  }
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const k = `${p.protocol}/${p.port}`;
    if (seenPorts.has(k)) {
      errs.push(field.duplicate(index('spec.ports', i), { Name: '', Protocol: p.protocol ?? '', AppProtocol: null, Port: p.port ?? 0, TargetPort: 0, NodePort: 0 }));
    }
    seenPorts.add(k);
  });
  for (const pol of ['externalTrafficPolicy', 'internalTrafficPolicy']) {
    if (!unset(spec[pol]) && spec[pol] !== 'Cluster' && spec[pol] !== 'Local') errs.push(field.notSupported(child('spec', pol), spec[pol], ['Cluster', 'Local']));
  }
}

function validateConfigMapLike(o: KubeObject, dataIsBase64: boolean, errs: Errs): number {
  let total = 0;
  const data = obj(o.data);
  const binary = obj(o.binaryData);
  for (const k of Object.keys(data)) {
    for (const m of configMapKeyErrors(k)) errs.push(field.invalid(keyed('data', k), k, m));
    if (!dataIsBase64 && k in binary) errs.push(field.invalid(keyed('data', k), k, 'duplicate of key present in binaryData'));
    const v = String(data[k] ?? '');
    total += dataIsBase64 ? Math.floor((v.length * 3) / 4) - (v.endsWith('==') ? 2 : v.endsWith('=') ? 1 : 0) : utf8Length(v);
  }
  if (!dataIsBase64) {
    for (const k of Object.keys(binary)) {
      for (const m of configMapKeyErrors(k)) errs.push(field.invalid(keyed('binaryData', k), k, m));
      if (k in data) errs.push(field.invalid(keyed('binaryData', k), k, 'duplicate of key present in data'));
      const v = String(binary[k] ?? '');
      total += Math.floor((v.length * 3) / 4);
    }
  }
  return total;
}

function validateConfigMap(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('ConfigMap'), errs);
  if (validateConfigMapLike(o, false, errs) > MAX_SECRET_SIZE) errs.push(field.tooLong('', MAX_SECRET_SIZE));
}

function validateSecret(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Secret'), errs);
  if (validateConfigMapLike(o, true, errs) > MAX_SECRET_SIZE) errs.push(field.tooLong('data', MAX_SECRET_SIZE));
  const data = obj(o.data);
  const need = (k: string) => {
    if (!(k in data)) errs.push(field.required(keyed('data', k)));
  };
  // ValidateSecret: the docker config must be well-formed JSON (`json.Unmarshal` into a map).
  const wellFormedJson = (k: string) => {
    if (!(k in data)) return;
    const why = goJsonMapError(decodeBase64(String(data[k] ?? '')));
    if (why !== undefined) errs.push(field.invalid(keyed('data', k), '<secret contents redacted>', why));
  };
  switch (o.type) {
    case 'kubernetes.io/service-account-token':
      if (!o.metadata?.annotations?.['kubernetes.io/service-account.name']) errs.push(field.required(keyed('metadata.annotations', 'kubernetes.io/service-account.name')));
      break;
    case 'kubernetes.io/dockercfg':
      need('.dockercfg');
      wellFormedJson('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      need('.dockerconfigjson');
      wellFormedJson('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!('username' in data) && !('password' in data)) errs.push(field.required(keyed('data', 'username')));
      break;
    case 'kubernetes.io/ssh-auth':
      need('ssh-privatekey');
      break;
    case 'kubernetes.io/tls':
      need('tls.crt');
      need('tls.key');
      break;
  }
}

/** Standard base64 to a string of Latin-1 bytes (enough to look at JSON syntax). */
function decodeBase64(s: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const clean = s.replace(/[^A-Za-z0-9+/]/g, '');
  let out = '';
  for (let i = 0; i < clean.length; i += 4) {
    const n = [0, 1, 2, 3].map((k) => (i + k < clean.length ? alphabet.indexOf(clean[i + k]) : 0));
    const v = (n[0] << 18) | (n[1] << 12) | (n[2] << 6) | n[3];
    out += String.fromCharCode((v >> 16) & 255);
    if (i + 2 < clean.length) out += String.fromCharCode((v >> 8) & 255);
    if (i + 3 < clean.length) out += String.fromCharCode(v & 255);
  }
  return out;
}

/**
 * Go's `json.Unmarshal(b, &map[string]interface{}{})` error for the common ways a docker config
 * is not JSON: empty input, a first character that starts no JSON value, a JSON value that is not
 * an object. Other syntax errors inside a document are not worded (undefined: accepted).
 */
function goJsonMapError(text: string): string | undefined {
  const t = text.replace(/^[ \t\r\n]+/, '');
  if (t === '') return 'unexpected end of JSON input';
  const c = t[0];
  if (!'{["-0123456789tfn'.includes(c)) return `invalid character '${c}' looking for beginning of value`;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (v === null || (typeof v === 'object' && !Array.isArray(v))) return undefined;
  const kind = Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

function validateNamespace(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Namespace'), errs);
  for (const f of arr(o.spec?.finalizers) as unknown[]) {
    const s = String(f);
    for (const m of isQualifiedName(s)) errs.push(field.invalid('spec.finalizers', s, m));
    if (!s.includes('/') && s !== 'kubernetes') errs.push(field.invalid('spec.finalizers', s, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
}

function validateNode(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Node'), errs);
  const taints = arr(o.spec?.taints);
  const seen = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const p = index('spec.taints', i);
    for (const m of isQualifiedName(String(t.key ?? ''))) errs.push(field.invalid(child(p, 'key'), t.key ?? '', m));
    const ve = isValidLabelValue(String(t.value ?? ''));
    if (ve.length) errs.push(field.invalid(child(p, 'value'), t.value ?? '', ve.join(';')));
    validateTaintEffect(t.effect, false, child(p, 'effect'), errs);
    const keys = seen.get(t.effect) ?? new Set<string>();
    if (keys.has(t.key)) {
      errs.push({
        type: 'FieldValueDuplicate',
        field: p,
        badValue: { Key: t.key ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TimeAdded: null },
        detail: 'taints must be unique by key and effect pair',
      });
    }
    keys.add(t.key);
    seen.set(t.effect, keys);
  });
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** `ValidatePersistentVolumeClaimSpec` at `path`. */
function validatePvcSpec(spec: unknown, path: string, errs: Errs): void {
  const s = obj(spec);
  const modes = arr(s.accessModes) as unknown as string[];
  if (!modes.length) errs.push(field.required(child(path, 'accessModes'), 'at least 1 access mode is required'));
  if (isObj(s.selector)) validateLabelSelector(s.selector, child(path, 'selector'), errs);
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(field.notSupported(child(path, 'accessModes'), m, ACCESS_MODES));
  const rp = keyed(child(path, 'resources'), 'storage');
  const storage = obj(obj(s.resources).requests).storage;
  if (storage === undefined) errs.push(field.required(rp));
  else {
    const v = qval(storage);
    if (v !== undefined && v <= 0) errs.push(field.invalid(rp, qstr(storage), 'must be greater than zero'));
  }
  if (typeof s.storageClassName === 'string' && s.storageClassName) dnsSubdomain(s.storageClassName, child(path, 'storageClassName'), errs);
  if (!unset(s.volumeMode) && s.volumeMode !== 'Block' && s.volumeMode !== 'Filesystem') errs.push(field.notSupported(child(path, 'volumeMode'), s.volumeMode, ['Block', 'Filesystem']));
}

function validatePvc(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('PersistentVolumeClaim'), errs);
  validatePvcSpec(o.spec, 'spec', errs);
}

const PV_SOURCES = [
  'gcePersistentDisk', 'awsElasticBlockStore', 'hostPath', 'glusterfs', 'nfs', 'rbd', 'iscsi', 'cinder', 'cephfs', 'fc', 'flocker',
  'flexVolume', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'local',
  'storageos', 'csi',
];

function validatePv(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('PersistentVolume'), errs);
  const spec = obj(o.spec);
  const modes = arr(spec.accessModes) as unknown as string[];
  if (!modes.length) errs.push(field.required('spec.accessModes'));
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(field.notSupported('spec.accessModes', m, ACCESS_MODES));
  const cap = obj(spec.capacity);
  if (Object.keys(cap).length === 0) errs.push(field.required('spec.capacity'));
  else if (!('storage' in cap) || Object.keys(cap).length > 1) errs.push(field.notSupported('spec.capacity', Object.keys(cap).sort(), ['storage']));
  const reclaim = spec.persistentVolumeReclaimPolicy;
  if (!unset(reclaim) && !['Delete', 'Recycle', 'Retain'].includes(reclaim)) errs.push(field.notSupported('spec.persistentVolumeReclaimPolicy', reclaim, ['Delete', 'Recycle', 'Retain']));
  let n = 0;
  for (const k of PV_SOURCES) {
    if (unset(spec[k])) continue;
    if (n++ > 0) errs.push(field.forbidden(child('spec', k), 'may not specify more than 1 volume type'));
  }
  if (n === 0) errs.push(field.required('spec', 'must specify a volume type'));
}

/** Length limits of new-style Events. Source: pkg/apis/core/validation/events.go. */
const EVENT_REPORTING_INSTANCE_LIMIT = 128;
const EVENT_ACTION_LIMIT = 128;
const EVENT_REASON_LIMIT = 128;
const EVENT_NOTE_LIMIT = 1024;

/**
 * `legacyValidateEvent` (pkg/apis/core/validation/events.go), which every Event create and update
 * passes whatever its API group: an old-style Event (no `eventTime`) must be in its
 * involvedObject's namespace (or `default` for a cluster-scoped object); a new-style one (with
 * `eventTime`, as events.k8s.io recorders write) needs its reporting controller (a qualified
 * name) and instance, action and reason, within their lengths. Paths are the internal field
 * names (`reportingController`, `message`), as the real messages give them.
 */
function validateEvent(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Event'), errs);
  const io = obj(o.involvedObject);
  const ioNs = typeof io.namespace === 'string' ? io.namespace : '';
  const ns = o.metadata?.namespace ?? '';
  const mismatch = () => errs.push(field.invalid('involvedObject.namespace', ioNs, 'does not match event.namespace'));
  if (unset(o.eventTime)) {
    if (ioNs === '' ? ns !== '' && ns !== 'default' : ns !== ioNs) mismatch();
    return;
  }
  if (ioNs === '' && ns !== 'default' && ns !== 'kube-system') mismatch();
  const controller = typeof o.reportingComponent === 'string' ? o.reportingComponent : '';
  if (controller === '') errs.push(field.required('reportingController'));
  for (const m of isQualifiedName(controller)) errs.push(field.invalid('reportingController', controller, m));
  const lengthOf = (v: unknown): number => (typeof v === 'string' ? v.length : 0);
  if (lengthOf(o.reportingInstance) === 0) errs.push(field.required('reportingInstance'));
  if (lengthOf(o.reportingInstance) > EVENT_REPORTING_INSTANCE_LIMIT) errs.push(field.invalid('reportingInstance', '', `can have at most ${EVENT_REPORTING_INSTANCE_LIMIT} characters`));
  if (lengthOf(o.action) === 0) errs.push(field.required('action'));
  if (lengthOf(o.action) > EVENT_ACTION_LIMIT) errs.push(field.invalid('action', '', `can have at most ${EVENT_ACTION_LIMIT} characters`));
  if (lengthOf(o.reason) === 0) errs.push(field.required('reason'));
  if (lengthOf(o.reason) > EVENT_REASON_LIMIT) errs.push(field.invalid('reason', '', `can have at most ${EVENT_REASON_LIMIT} characters`));
  if (lengthOf(o.message) > EVENT_NOTE_LIMIT) errs.push(field.invalid('message', '', `can have at most ${EVENT_NOTE_LIMIT} characters`));
}

/**
 * The strict part of `ValidateEventCreate` for a create through events.k8s.io/v1 (after the
 * legacy checks `validateCreate` made; `o` is the core/v1 object it converts to): a series of at least 2 with its lastObservedTime, `eventTime` set, type Normal
 * or Warning, and none of the deprecated fields. Returns the field errors in the real order.
 * Source: pkg/apis/core/validation/events.go (`ValidateEventCreate`, `validateV1EventSeries`).
 */
export function validateEventsV1Create(o: KubeObject): FieldError[] {
  const errs: Errs = [];
  // Its ValidateObjectMeta (DNS-1123 subdomain names) is the one `validateEvent` already made.
  const series = o.series;
  if (!unset(series)) {
    const sr = obj(series);
    if (!(typeof sr.count === 'number' && sr.count >= 2)) errs.push(field.invalid('series.count', '', 'should be at least 2'));
    if (unset(sr.lastObservedTime)) errs.push(field.required('series.lastObservedTime'));
  }
  if (unset(o.eventTime)) errs.push(field.required('eventTime'));
  if (o.type !== 'Normal' && o.type !== 'Warning') errs.push(field.invalid('type', '', `has invalid value: ${o.type ?? ''}`));
  if (!unset(o.firstTimestamp)) errs.push(field.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!unset(o.lastTimestamp)) errs.push(field.invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof o.count === 'number' && o.count !== 0) errs.push(field.invalid('count', '', 'needs to be unset'));
  const src = obj(o.source);
  if (src.component || src.host) errs.push(field.invalid('source', '', 'needs to be unset'));
  return errs;
}

function validateLease(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Lease'), errs);
  const spec = obj(o.spec);
  if (!unset(spec.leaseDurationSeconds) && spec.leaseDurationSeconds <= 0) errs.push(field.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  nonNegative(spec.leaseTransitions, 'spec.leaseTransitions', errs);
}

/** Built-in classes: the only names allowed with the `system-` prefix (scheduling.SystemPriorityClasses). */
const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };
/** Largest priority a user class may have (scheduling.HighestUserDefinablePriority). */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;

function validatePriorityClass(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('PriorityClass'), errs);
  const name = String(o.metadata?.name ?? '');
  const value = o.value as number;
  if (name.startsWith('system-')) {
    const known = SYSTEM_PRIORITY_CLASSES[name];
    let why = '';
    if (known === undefined) why = `${name} is not a known system priority class`;
    else if (value !== known) why = `value of ${name} PriorityClass must be ${known}`;
    else if (o.globalDefault) why = `globalDefault of ${name} PriorityClass must be false`;
    if (why) errs.push(field.forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`));
  } else if (typeof value === 'number' && value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(field.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (!unset(o.preemptionPolicy) && o.preemptionPolicy !== 'Never' && o.preemptionPolicy !== 'PreemptLowerPriority') {
    errs.push(field.notSupported('preemptionPolicy', o.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
}

// ------------------------------------------------------------------ per kind: apps

/** Render template labels as the Go map prints: sorted keys, `null` when absent. */
function labelsValue(t: unknown): unknown {
  return sortedMap(obj(obj(t).metadata).labels ?? null);
}

/** The selector/template checks shared by Deployment, ReplicaSet and StatefulSet. */
function validateSelectorAndTemplate(spec: Obj, kindWord: string, errs: Errs, afterSelector?: () => void): { ok: boolean } {
  if (unset(spec.selector)) errs.push(field.required('spec.selector'));
  else {
    validateLabelSelector(spec.selector, 'spec.selector', errs);
    const sel = obj(spec.selector);
    if (Object.keys(obj(sel.matchLabels)).length + arr(sel.matchExpressions).length === 0) {
      errs.push(field.invalid('spec.selector', selectorValue(sel), `empty selector is invalid for ${kindWord}`));
    }
  }
  afterSelector?.();
  if (!selectorConverts(spec.selector)) {
    errs.push(field.invalid('spec.selector', selectorValue(spec.selector), kindWord === 'statefulset' ? '' : 'invalid label selector'));
    return { ok: false };
  }
  return { ok: true };
}

/** `ValidatePodTemplateSpecForReplicaSet` (also used for Deployments). */
function validateTemplateForReplicaSet(spec: Obj, kind: string, errs: Errs): void {
  const t = spec.template;
  if (!isObj(t)) {
    errs.push(field.required('spec.template'));
    return;
  }
  const sel = selectorFromLabelSelector(isObj(spec.selector) ? spec.selector : undefined);
  if (!sel.empty() && !sel.matches(obj(t.metadata).labels)) {
    errs.push(field.invalid('spec.template.metadata.labels', labelsValue(t), '`selector` does not match template `labels`'));
  }
  validatePodTemplate(t, 'spec.template', errs);
  const rp = t.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', rp ?? '', ['Always']));
  if (!unset(t.spec?.activeDeadlineSeconds)) {
    errs.push(field.invalid('spec.template.spec.activeDeadlineSeconds', t.spec.activeDeadlineSeconds, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
}

/** An IntOrString's value for the zero check (`getIntOrPercentValue`). */
function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const m = /^([0-9]+)%$/.exec(v);
    return m ? Number(m[1]) : 0;
  }
  return 0;
}

/** `ValidatePositiveIntOrPercent`. */
function positiveIntOrPercent(v: unknown, path: string, errs: Errs): void {
  if (typeof v === 'string') {
    if (!/^[0-9]+%$/.test(v)) errs.push(field.invalid(path, v, "must be an integer or percentage (e.g '5%')"));
  } else if (typeof v === 'number') nonNegative(v, path, errs);
}

/** `IsNotMoreThan100Percent`. */
function notMoreThan100(v: unknown, path: string, errs: Errs): void {
  if (typeof v === 'string' && /^[0-9]+%$/.test(v) && intOrPercentValue(v) > 100) errs.push(field.invalid(path, v, 'must not be greater than 100%'));
}

/** A strategy struct as an internal (untagged) Go struct renders. */
function strategyValue(s: Obj): unknown {
  return { Type: s.type ?? '', RollingUpdate: isObj(s.rollingUpdate) ? s.rollingUpdate : null };
}

function validateDeployment(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Deployment'), errs);
  const spec = obj(o.spec);
  nonNegative(spec.replicas, 'spec.replicas', errs);
  if (validateSelectorAndTemplate(spec, 'deployment', errs).ok) validateTemplateForReplicaSet(spec, 'ReplicaSet', errs);
  const st = obj(spec.strategy);
  switch (st.type) {
    case 'Recreate':
      if (!unset(st.rollingUpdate)) errs.push(field.forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      if (!isObj(st.rollingUpdate)) {
        errs.push(field.required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil'));
        break;
      }
      const ru = st.rollingUpdate;
      positiveIntOrPercent(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', errs);
      positiveIntOrPercent(ru.maxSurge, 'spec.strategy.rollingUpdate.maxSurge', errs);
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(field.invalid('spec.strategy.rollingUpdate.maxUnavailable', ru.maxUnavailable ?? null, 'may not be 0 when `maxSurge` is 0'));
      }
      notMoreThan100(ru.maxUnavailable, 'spec.strategy.rollingUpdate.maxUnavailable', errs);
      break;
    }
    default:
      errs.push(field.notSupported('spec.strategy', strategyValue(st), ['Recreate', 'RollingUpdate']));
  }
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  if (!unset(spec.revisionHistoryLimit)) nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errs);
  if (!unset(spec.progressDeadlineSeconds)) {
    nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds', errs);
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errs.push(field.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
}

function validateReplicaSet(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('ReplicaSet'), errs);
  const spec = obj(o.spec);
  nonNegative(spec.replicas, 'spec.replicas', errs);
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  // The real message says "deployment" here too (ValidateReplicaSetSpec).
  if (validateSelectorAndTemplate(spec, 'deployment', errs).ok) validateTemplateForReplicaSet(spec, 'ReplicaSet', errs);
}

function validateStatefulSet(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('StatefulSet'), errs);
  const spec = obj(o.spec);
  const pmp = spec.podManagementPolicy;
  if (!pmp) errs.push(field.required('spec.podManagementPolicy'));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(field.invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us = obj(spec.updateStrategy);
  switch (us.type) {
    case undefined:
    case '':
      errs.push(field.required('spec.updateStrategy'));
      break;
    case 'OnDelete':
      if (!unset(us.rollingUpdate)) errs.push(field.invalid('spec.updateStrategy.rollingUpdate', us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      break;
    case 'RollingUpdate':
      if (isObj(us.rollingUpdate)) {
        nonNegative(us.rollingUpdate.partition, 'spec.updateStrategy.rollingUpdate.partition', errs);
        if (!unset(us.rollingUpdate.maxUnavailable)) {
          positiveIntOrPercent(us.rollingUpdate.maxUnavailable, 'spec.updateStrategy.rollingUpdate.maxUnavailable', errs);
          if (intOrPercentValue(us.rollingUpdate.maxUnavailable) === 0) {
            errs.push(field.invalid('spec.updateStrategy.rollingUpdate.maxUnavailable', us.rollingUpdate.maxUnavailable, 'must be greater than 0'));
          }
        }
      }
      break;
    default:
      errs.push(field.invalid('spec.updateStrategy', strategyValue(us), "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const pr = obj(spec.persistentVolumeClaimRetentionPolicy);
  for (const f of ['whenDeleted', 'whenScaled']) {
    if (!pr[f]) errs.push(field.required(`spec.persistentVolumeClaimRetentionPolicy.${f}`));
    else if (pr[f] !== 'Retain' && pr[f] !== 'Delete') errs.push(field.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, pr[f], ['Retain', 'Delete']));
  }
  nonNegative(spec.replicas, 'spec.replicas', errs);
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  if (isObj(spec.ordinals)) nonNegative(spec.ordinals.start, 'spec.ordinals.start', errs);
  const ok = validateSelectorAndTemplate(spec, 'statefulset', errs).ok;
  const t = obj(spec.template);
  if (ok) {
    const sel = selectorFromLabelSelector(isObj(spec.selector) ? spec.selector : undefined);
    if (!sel.empty() && !sel.matches(obj(t.metadata).labels)) {
      errs.push(field.invalid('spec.template.metadata.labels', labelsValue(t), '`selector` does not match template `labels`'));
    }
    // The pods get one volume per volumeClaimTemplate (the controller's `updateStorage`), so
    // mounts may name the claim templates. (Upstream skips the pod-spec check of StatefulSet
    // templates altogether: ValidatePodTemplateSpecForStatefulSet's TODO.)
    const claimVolumes = arr(spec.volumeClaimTemplates)
      .map((vct) => String(obj(vct.metadata).name ?? ''))
      .filter((n) => n && !arr(obj(t.spec).volumes).some((v) => v.name === n))
      .map((n) => ({ name: n, persistentVolumeClaim: { claimName: n } }));
    const withClaims = claimVolumes.length ? { ...t, spec: { ...obj(t.spec), volumes: [...arr(obj(t.spec).volumes), ...claimVolumes] } } : t;
    validatePodTemplate(withClaims, 'spec.template', errs);
  }
  if (t.spec?.restartPolicy !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', t.spec?.restartPolicy ?? '', ['Always']));
  if (!unset(t.spec?.activeDeadlineSeconds)) errs.push(field.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  arr(spec.volumeClaimTemplates).forEach((vct, i) => {
    const p = index('spec.volumeClaimTemplates', i);
    const name = obj(vct.metadata).name;
    if (!name) errs.push(field.required(child(p, 'metadata.name'), 'name or generateName is required'));
    else dnsSubdomain(String(name), child(p, 'metadata.name'), errs);
    validatePvcSpec(vct.spec, child(p, 'spec'), errs);
  });
  if (!unset(spec.revisionHistoryLimit)) nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errs);
}

function validateDaemonSet(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('DaemonSet'), errs);
  const spec = obj(o.spec);
  // ValidateDaemonSetSpec has no Required check: a nil selector is Nothing, so the labels check fails.
  validateLabelSelector(spec.selector, 'spec.selector', errs);
  let sel;
  try {
    sel = selectorFromLabelSelector(isObj(spec.selector) ? spec.selector : undefined);
  } catch {
    sel = undefined;
  }
  const t = obj(spec.template);
  if (sel && !sel.matches(obj(t.metadata).labels)) {
    errs.push(field.invalid('spec.template.metadata.labels', labelsValue(t), '`selector` does not match template `labels`'));
  }
  if (isObj(spec.selector) && Object.keys(obj(spec.selector.matchLabels)).length + arr(spec.selector.matchExpressions).length === 0) {
    errs.push(field.invalid('spec.selector', selectorValue(spec.selector), 'empty selector is invalid for daemonset'));
  }
  validatePodTemplate(t, 'spec.template', errs);
  if (t.spec?.restartPolicy !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', t.spec?.restartPolicy ?? '', ['Always']));
  if (!unset(t.spec?.activeDeadlineSeconds)) errs.push(field.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  nonNegative(spec.minReadySeconds, 'spec.minReadySeconds', errs);
  const us = obj(spec.updateStrategy);
  switch (us.type) {
    case 'OnDelete':
      break;
    case 'RollingUpdate': {
      if (!isObj(us.rollingUpdate)) {
        errs.push(field.required('spec.updateStrategy.rollingUpdate'));
        break;
      }
      const ru = us.rollingUpdate;
      const base = 'spec.updateStrategy.rollingUpdate';
      positiveIntOrPercent(ru.maxUnavailable, `${base}.maxUnavailable`, errs);
      positiveIntOrPercent(ru.maxSurge, `${base}.maxSurge`, errs);
      notMoreThan100(ru.maxUnavailable, `${base}.maxUnavailable`, errs);
      notMoreThan100(ru.maxSurge, `${base}.maxSurge`, errs);
      const hasU = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasS = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasU && hasS) errs.push(field.invalid(`${base}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasU && !hasS) errs.push(field.required(`${base}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      break;
    }
    default:
      errs.push(field.notSupported('spec.updateStrategy', strategyValue(us), ['RollingUpdate', 'OnDelete']));
  }
  if (!unset(spec.revisionHistoryLimit)) nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit', errs);
}

// ------------------------------------------------------------------ per kind: batch

/** `validateJobSpec` + `ValidateJobSpec` at `spec` (or a CronJob's `spec.jobTemplate.spec`). */
function validateJobSpec(spec: Obj, path: string, requireSelector: boolean, errs: Errs): void {
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    if (!unset(spec[f])) nonNegative(spec[f], child(path, f), errs);
  }
  if (!unset(spec.completionMode)) {
    if (spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
      errs.push(field.notSupported(child(path, 'completionMode'), spec.completionMode, ['NonIndexed', 'Indexed']));
    }
    if (spec.completionMode === 'Indexed' && unset(spec.completions)) errs.push(field.required(child(path, 'completions'), 'when completion mode is Indexed'));
  }
  if (!unset(spec.podReplacementPolicy)) {
    // `validatePodReplacementPolicy`: only "Failed" together with a podFailurePolicy.
    if (!unset(spec.podFailurePolicy)) {
      if (spec.podReplacementPolicy !== 'Failed') errs.push(field.notSupported(child(path, 'podReplacementPolicy'), spec.podReplacementPolicy, ['Failed']));
    } else if (!['TerminatingOrFailed', 'Failed'].includes(spec.podReplacementPolicy)) {
      errs.push(field.notSupported(child(path, 'podReplacementPolicy'), spec.podReplacementPolicy, ['TerminatingOrFailed', 'Failed']));
    }
  }
  const tpath = child(path, 'template');
  validatePodTemplate(spec.template, tpath, errs);
  const rp = obj(obj(spec.template).spec).restartPolicy;
  const rpPath = child(child(tpath, 'spec'), 'restartPolicy');
  if (rp === 'Always' || !rp) errs.push(field.required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(field.notSupported(rpPath, rp, ['OnFailure', 'Never']));
  else if (!unset(spec.podFailurePolicy) && rp !== 'Never') errs.push(field.invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  if (!unset(spec.podFailurePolicy)) errs.push(...validatePodFailurePolicy(spec, child(path, 'podFailurePolicy')));
  if (!requireSelector) return;
  if (unset(spec.selector)) errs.push(field.required(child(path, 'selector')));
  else validateLabelSelector(spec.selector, child(path, 'selector'), errs);
  try {
    const sel = selectorFromLabelSelector(isObj(spec.selector) ? spec.selector : undefined);
    if (!sel.matches(obj(obj(spec.template).metadata).labels)) {
      errs.push(field.invalid(child(tpath, 'metadata.labels'), labelsValue(spec.template), '`selector` does not match template `labels`'));
    }
  } catch {
    /* reported by validateLabelSelector */
  }
}

/**
 * A Job. The server generates `spec.selector` (controller-uid) before validation unless
 * `manualSelector: true`; a Job reaching here without one gets `spec.selector: Required value`.
 */
function validateJob(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Job'), errs);
  validateJobSpec(obj(o.spec), 'spec', true, errs);
}

function validateCronJob(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('CronJob'), errs);
  const name = String(o.metadata?.name ?? '');
  // The Job name appends an 11-character suffix; it must stay a 63-character DNS-1035 label.
  if (name.length > 52) errs.push(field.invalid('metadata.name', name, 'must be no more than 52 characters'));
  const spec = obj(o.spec);
  if (!spec.schedule) errs.push(field.required('spec.schedule'));
  else validateScheduleFormat(String(spec.schedule), errs);
  if (!unset(spec.startingDeadlineSeconds)) nonNegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds', errs);
  const cp = spec.concurrencyPolicy;
  if (!cp) errs.push(field.required('spec.concurrencyPolicy'));
  else if (!['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(field.notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) if (!unset(spec[f])) nonNegative(spec[f], child('spec', f), errs);
  const jt = obj(spec.jobTemplate);
  validateLabels(obj(jt.metadata).labels, 'spec.jobTemplate.metadata.labels', errs);
  validateJobSpec(obj(jt.spec), 'spec.jobTemplate.spec', false, errs);
  if (spec.timeZone !== undefined && spec.timeZone !== null) validateTimeZone(spec.timeZone, errs);
}

/** Said of a schedule carrying `TZ=`/`CRON_TZ=` on create (validation.go `validateScheduleFormat`). */
export const CRONJOB_TZ_IN_SCHEDULE_MESSAGE = 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';

/**
 * `validateScheduleFormat`: robfig `cron.ParseStandard` must accept the schedule (its error is the
 * detail), and a new CronJob may not carry `TZ=`/`CRON_TZ=` in it (an update may keep one it already
 * had: `validateUpdate` drops that error then). Source: pkg/apis/batch/validation/validation.go.
 */
function validateScheduleFormat(schedule: string, errs: Errs): void {
  const parseError = cronParseStandardError(schedule);
  if (parseError !== undefined) errs.push(field.invalid('spec.schedule', schedule, parseError));
  if (schedule.includes('TZ')) errs.push(field.invalid('spec.schedule', schedule, CRONJOB_TZ_IN_SCHEDULE_MESSAGE));
}

/**
 * The update side of `validateScheduleFormat`: a CronJob whose old schedule already held `TZ` may
 * keep it, unless `spec.timeZone` is set too.
 */
function validateCronJobScheduleUpdate(o: KubeObject, old: KubeObject, errs: Errs): void {
  const schedule = String(o.spec?.schedule ?? '');
  if (!String(old.spec?.schedule ?? '').includes('TZ') || !schedule.includes('TZ')) return;
  const i = errs.findIndex((e) => e.field === 'spec.schedule' && e.detail === CRONJOB_TZ_IN_SCHEDULE_MESSAGE);
  if (i < 0) return;
  if (o.spec?.timeZone !== undefined && o.spec?.timeZone !== null) {
    errs[i] = field.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule');
  } else {
    errs.splice(i, 1);
  }
}

/** `validateTimeZone`: non-empty, not `Local`, and a zone Go's `time.LoadLocation` knows. */
function validateTimeZone(tz: unknown, errs: Errs): void {
  const s = String(tz);
  if (s === '') {
    errs.push(field.invalid('spec.timeZone', tz, 'timeZone must be nil or non-empty string'));
    return;
  }
  // validation.go `validTimeZoneCharacters`: each part of the name.
  if (s.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part))) {
    errs.push(field.invalid('spec.timeZone', tz, `unknown time zone ${s}`));
    return;
  }
  if (s.toLowerCase() === 'local') errs.push(field.invalid('spec.timeZone', tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!isKnownTimeZone(s)) errs.push(field.invalid('spec.timeZone', tz, `unknown time zone ${s}`));
}

// ------------------------------------------------------------------ per kind: the rest

function validateIngress(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('Ingress'), errs);
  const spec = obj(o.spec);
  const rules = arr(spec.rules);
  if (!isObj(spec.defaultBackend) && rules.length === 0) {
    errs.push(field.invalid('spec', spec, 'either `defaultBackend` or `rules` must be specified'));
  }
  const backend = (b: Obj, path: string) => {
    const svc = b.service;
    if (isObj(svc) && isObj(b.resource)) errs.push(field.invalid(path, b, 'cannot set both resource and service backends'));
    else if (isObj(svc)) {
      if (!svc.name) errs.push(field.required(child(child(path, 'service'), 'name')));
      else dnsLabel(String(svc.name), child(child(path, 'service'), 'name'), errs);
      const port = obj(svc.port);
      const pp = child(child(path, 'service'), 'port');
      if (port.name && !unset(port.number)) errs.push(field.invalid(pp, port, 'cannot set both port name & port number'));
      else if (port.name) for (const m of portNameErrors(String(port.name))) errs.push(field.invalid(child(pp, 'name'), port.name, m));
      else if (!unset(port.number)) for (const m of portNumErrors(port.number)) errs.push(field.invalid(child(pp, 'number'), port.number, m));
      else errs.push(field.required(pp, 'port name or number is required'));
    } else if (!isObj(b.resource)) errs.push(field.invalid(path, b, 'one backend (service or resource) must be specified'));
  };
  if (isObj(spec.defaultBackend)) backend(spec.defaultBackend, 'spec.defaultBackend');
  rules.forEach((r, i) => {
    const p = index('spec.rules', i);
    if (r.host) {
      const host = String(r.host);
      const h = host.startsWith('*.') ? host.slice(2) : host;
      for (const m of isDNS1123Subdomain(h)) errs.push(field.invalid(child(p, 'host'), host, m));
    }
    arr(r.http?.paths).forEach((hp, j) => {
      const pp = index(child(child(p, 'http'), 'paths'), j);
      const pt = hp.pathType;
      if (!pt) errs.push(field.required(child(pp, 'pathType'), 'pathType must be specified'));
      else if (!['Exact', 'ImplementationSpecific', 'Prefix'].includes(pt)) errs.push(field.notSupported(child(pp, 'pathType'), pt, ['Exact', 'ImplementationSpecific', 'Prefix']));
      if ((pt === 'Exact' || pt === 'Prefix') && !String(hp.path ?? '').startsWith('/')) errs.push(field.invalid(child(pp, 'path'), hp.path ?? '', 'must be an absolute path'));
      backend(obj(hp.backend), child(pp, 'backend'));
    });
  });
}

function validateRole(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor(o.kind), errs);
  arr(o.rules).forEach((r, i) => {
    const p = index('rules', i);
    if (!arr(r.verbs).length) errs.push(field.required(child(p, 'verbs'), 'verbs must contain at least one value'));
    const nonResource = arr(r.nonResourceURLs).length > 0;
    if (nonResource) {
      if (o.kind === 'Role') errs.push(field.invalid(child(p, 'nonResourceURLs'), r.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
      if (arr(r.apiGroups).length || arr(r.resources).length || arr(r.resourceNames).length) {
        errs.push(field.invalid(child(p, 'nonResourceURLs'), r.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
      }
      return;
    }
    if (!arr(r.apiGroups).length) errs.push(field.required(child(p, 'apiGroups'), 'resource rules must supply at least one api group'));
    if (!arr(r.resources).length) errs.push(field.required(child(p, 'resources'), 'resource rules must supply at least one resource'));
  });
}

function roleRefValue(r: Obj): unknown {
  return { APIGroup: r.apiGroup ?? '', Kind: r.kind ?? '', Name: r.name ?? '' };
}

function validateRoleBinding(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor(o.kind), errs);
  const ref = obj(o.roleRef);
  if (ref.apiGroup !== 'rbac.authorization.k8s.io') errs.push(field.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', ['rbac.authorization.k8s.io']));
  const kinds = o.kind === 'RoleBinding' ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(field.notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(field.required('roleRef.name'));
  else for (const m of pathSegmentName(String(ref.name), false)) errs.push(field.invalid('roleRef.name', ref.name, m));
  arr(o.subjects).forEach((s, i) => {
    const p = index('subjects', i);
    if (!s.name) errs.push(field.required(child(p, 'name')));
    switch (s.kind) {
      case 'ServiceAccount':
        if (s.name) for (const m of isDNS1123Subdomain(String(s.name))) errs.push(field.invalid(child(p, 'name'), s.name, m));
        if (s.apiGroup) errs.push(field.notSupported(child(p, 'apiGroup'), s.apiGroup, ['']));
        if (o.kind === 'ClusterRoleBinding' && !s.namespace) errs.push(field.required(child(p, 'namespace')));
        break;
      case 'User':
      case 'Group':
        if (s.apiGroup !== 'rbac.authorization.k8s.io') errs.push(field.notSupported(child(p, 'apiGroup'), s.apiGroup ?? '', ['rbac.authorization.k8s.io']));
        break;
      default:
        errs.push(field.notSupported(child(p, 'kind'), s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
    }
  });
}

function validateStorageClass(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('StorageClass'), errs);
  if (!o.provisioner) errs.push(field.required('provisioner'));
  else for (const m of isQualifiedName(String(o.provisioner).toLowerCase())) errs.push(field.invalid('provisioner', o.provisioner, m));
  if (!unset(o.reclaimPolicy) && !['Delete', 'Retain'].includes(o.reclaimPolicy as string)) errs.push(field.notSupported('reclaimPolicy', o.reclaimPolicy, ['Delete', 'Retain']));
  if (!unset(o.volumeBindingMode) && !['Immediate', 'WaitForFirstConsumer'].includes(o.volumeBindingMode as string)) {
    errs.push(field.notSupported('volumeBindingMode', o.volumeBindingMode, ['Immediate', 'WaitForFirstConsumer']));
  }
}

/** Per-kind validators (create). Kinds not listed get metadata validation only. */
/** `MaxPeriodSeconds` / `MaxStabilizationWindowSeconds` of HPA scaling rules. Source: pkg/apis/autoscaling/validation/validation.go. */
const HPA_MAX_PERIOD_SECONDS = 1800;
const HPA_MAX_STABILIZATION_WINDOW_SECONDS = 3600;

/**
 * `ValidateHorizontalPodAutoscaler` (pkg/apis/autoscaling/validation/validation.go, HPAScaleToZero
 * off): `minReplicas` >= 1, `maxReplicas` > 0 and >= `minReplicas`, the scale target's kind and
 * name, each metric's type, source and target (`averageUtilization` > 0, quantities positive),
 * and the behavior's rules. Object/External/Pods metric identifiers are checked for a name only.
 */
function validateHorizontalPodAutoscaler(o: KubeObject, errs: Errs): void {
  validateObjectMeta(o, nameFnFor('HorizontalPodAutoscaler'), errs);
  const spec = obj(o.spec);
  const min = spec.minReplicas;
  if (typeof min === 'number' && min < 1) errs.push(field.invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (max < 1) errs.push(field.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(field.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const ref = obj(spec.scaleTargetRef);
  if (!ref.kind) errs.push(field.required('spec.scaleTargetRef.kind', ''));
  if (!ref.name) errs.push(field.required('spec.scaleTargetRef.name', ''));
  const sources: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
  arr(spec.metrics).forEach((m, i) => {
    const p = index('spec.metrics', i);
    const type = typeof m.type === 'string' ? m.type : '';
    if (type === '') errs.push(field.required(`${p}.type`, 'must specify a metric source type'));
    const expected = sources[type];
    if (!expected) errs.push(field.notSupported(`${p}.type`, type, Object.keys(sources).sort()));
    else if (!m[expected]) errs.push(field.required(`${p}.${expected}`, 'must populate information for the given metric source'));
    const src = expected ? obj(m[expected]) : {};
    if (expected && m[expected]) {
      if ((expected === 'resource' || expected === 'containerResource') && !src.name) errs.push(field.required(`${p}.${expected}.name`, 'must specify a resource name'));
      if (expected !== 'resource' && expected !== 'containerResource' && !obj(src.metric).name) errs.push(field.required(`${p}.${expected}.metric.name`, 'must specify a metric name'));
      const t = obj(src.target);
      const tp = `${p}.${expected}.target`;
      if (!t.type) errs.push(field.required(`${tp}.type`, 'must specify a metric target type'));
      if (t.type !== 'Utilization' && t.type !== 'Value' && t.type !== 'AverageValue') errs.push(field.invalid(`${tp}.type`, t.type ?? '', 'must be either Utilization, Value, or AverageValue'));
      if (typeof t.averageUtilization === 'number' && t.averageUtilization < 1) errs.push(field.invalid(`${tp}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
      if ((expected === 'resource' || expected === 'containerResource') && unset(t.averageUtilization) && unset(t.averageValue)) {
        errs.push(field.required(`${tp}.averageUtilization`, 'must set either a target raw value or a target utilization'));
      }
    }
  });
  const behavior = obj(spec.behavior);
  for (const dir of ['scaleUp', 'scaleDown']) {
    if (!behavior[dir]) continue;
    const rules = obj(behavior[dir]);
    const rp = `spec.behavior.${dir}`;
    const w = rules.stabilizationWindowSeconds;
    if (typeof w === 'number' && w < 0) errs.push(field.invalid(`${rp}.stabilizationWindowSeconds`, w, 'must be greater than or equal to zero'));
    if (typeof w === 'number' && w > HPA_MAX_STABILIZATION_WINDOW_SECONDS) errs.push(field.invalid(`${rp}.stabilizationWindowSeconds`, w, `must be less than or equal to ${HPA_MAX_STABILIZATION_WINDOW_SECONDS}`));
    if (!unset(rules.selectPolicy) && !['Disabled', 'Max', 'Min'].includes(rules.selectPolicy)) errs.push(field.notSupported(`${rp}.selectPolicy`, rules.selectPolicy, ['Disabled', 'Max', 'Min']));
    if (arr(rules.policies).length === 0) errs.push(field.required(`${rp}.policies`, 'must specify at least one Policy'));
    arr(rules.policies).forEach((pol, i) => {
      const pp = index(`${rp}.policies`, i);
      if (pol.type !== 'Pods' && pol.type !== 'Percent') errs.push(field.notSupported(`${pp}.type`, pol.type ?? '', ['Percent', 'Pods']));
      if (!(typeof pol.value === 'number' && pol.value > 0)) errs.push(field.invalid(`${pp}.value`, pol.value ?? 0, 'must be greater than zero'));
      if (!(typeof pol.periodSeconds === 'number' && pol.periodSeconds > 0)) errs.push(field.invalid(`${pp}.periodSeconds`, pol.periodSeconds ?? 0, 'must be greater than zero'));
      if (typeof pol.periodSeconds === 'number' && pol.periodSeconds > HPA_MAX_PERIOD_SECONDS) errs.push(field.invalid(`${pp}.periodSeconds`, pol.periodSeconds, `must be less than or equal to ${HPA_MAX_PERIOD_SECONDS}`));
    });
  }
}

const VALIDATORS: Record<string, (o: KubeObject, errs: Errs) => void> = {
  Pod: validatePod,
  Service: validateService,
  ConfigMap: validateConfigMap,
  Secret: validateSecret,
  Namespace: validateNamespace,
  Node: validateNode,
  PersistentVolumeClaim: validatePvc,
  PersistentVolume: validatePv,
  Event: validateEvent,
  Lease: validateLease,
  PriorityClass: validatePriorityClass,
  Deployment: validateDeployment,
  ReplicaSet: validateReplicaSet,
  StatefulSet: validateStatefulSet,
  DaemonSet: validateDaemonSet,
  Job: validateJob,
  CronJob: validateCronJob,
  Ingress: validateIngress,
  Role: validateRole,
  ClusterRole: validateRole,
  RoleBinding: validateRoleBinding,
  ClusterRoleBinding: validateRoleBinding,
  StorageClass: validateStorageClass,
  HorizontalPodAutoscaler: validateHorizontalPodAutoscaler,
};

/**
 * Validate an object being created, after defaulting and mutating admission. Returns the
 * field errors in the order the real validator produces them ([] when valid). The caller turns
 * them into `errors.invalid(kind, group, name, errs)` (422), which kubectl prints as
 * `The Deployment "web" is invalid: spec.selector: Required value`.
 * Kinds without a validator here get `ValidateObjectMeta` only (DNS-1123 subdomain names).
 */
export function validateCreate(o: KubeObject): FieldError[] {
  const errs: Errs = [];
  const v = Object.prototype.hasOwnProperty.call(VALIDATORS, o.kind) ? VALIDATORS[o.kind] : undefined;
  if (v) v(o, errs);
  else validateObjectMeta(o, nameFnFor(o.kind), errs);
  return errs;
}

// ------------------------------------------------------------------ updates

/** The fields a pod update may change, as the Forbidden message lists them (ValidatePodUpdate). */
export const POD_UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** Go field name of a v1 PodSpec JSON field, for the diff note. */
function goFieldName(k: string): string {
  if (k === 'serviceAccount') return 'DeprecatedServiceAccount';
  return k.charAt(0).toUpperCase() + k.slice(1);
}

/**
 * A short `cmp.Diff`-style note of what differs between two pod specs, one `-`/`+` pair per
 * changed top-level field (the real note is a full Go-syntax diff of core.PodSpec).
 */
function podSpecDiff(oldSpec: Obj, newSpec: Obj): string {
  const keys: string[] = [];
  for (const k of [...Object.keys(oldSpec), ...Object.keys(newSpec)]) if (!keys.includes(k)) keys.push(k);
  const lines = ['  core.PodSpec{'];
  let same = 0;
  for (const k of keys) {
    if (deepEqual(oldSpec[k], newSpec[k])) {
      same++;
      continue;
    }
    if (same) lines.push(`  \t... // ${same} identical field${same > 1 ? 's' : ''}`);
    same = 0;
    if (oldSpec[k] !== undefined) lines.push(`- \t${goFieldName(k)}: ${JSON.stringify(oldSpec[k])},`);
    if (newSpec[k] !== undefined) lines.push(`+ \t${goFieldName(k)}: ${JSON.stringify(newSpec[k])},`);
  }
  if (same) lines.push(`  \t... // ${same} identical field${same > 1 ? 's' : ''}`);
  lines.push('  }');
  return lines.join('\n');
}

function tolerationKey(t: Obj): string {
  return JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
}

/** `ValidatePodUpdate`: container count, images, and the forbidden-fields check. */
function validatePodUpdate(o: KubeObject, old: KubeObject, errs: Errs): void {
  const ns = obj(o.spec);
  const os = obj(old.spec);
  for (const list of ['containers', 'initContainers']) {
    if (arr(ns[list]).length !== arr(os[list]).length) {
      errs.push(field.forbidden(`spec.${list}`, 'pod updates may not add or remove containers'));
      return;
    }
  }
  const munged: Obj = JSON.parse(JSON.stringify(ns));
  for (const list of ['containers', 'initContainers']) {
    arr(munged[list]).forEach((c, i) => {
      c.image = arr(os[list])[i]?.image;
    });
  }
  munged.activeDeadlineSeconds = os.activeDeadlineSeconds;
  if (!unset(ns.activeDeadlineSeconds) && !unset(os.activeDeadlineSeconds) && ns.activeDeadlineSeconds > os.activeDeadlineSeconds) {
    errs.push(field.invalid('spec.activeDeadlineSeconds', ns.activeDeadlineSeconds, 'must be less than or equal to previous value'));
  }
  if (typeof os.terminationGracePeriodSeconds === 'number' && os.terminationGracePeriodSeconds < 0 && ns.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = os.terminationGracePeriodSeconds;
  }
  // validateOnlyAddedTolerations: existing ones may only shorten tolerationSeconds.
  const oldTols = arr(os.tolerations);
  const newTols = arr(ns.tolerations);
  const newKeys = new Map(newTols.map((t) => [tolerationKey(t), t]));
  oldTols.forEach((t, i) => {
    const n = newKeys.get(tolerationKey(t));
    if (!n) errs.push(field.forbidden(index('spec.tolerations', i), 'existing toleration can not be modified except its tolerationSeconds'));
    else if (!unset(t.tolerationSeconds) && (unset(n.tolerationSeconds) || n.tolerationSeconds > t.tolerationSeconds)) {
      errs.push(field.forbidden(index('spec.tolerations', i), 'existing toleration can not be modified except its tolerationSeconds'));
    }
  });
  munged.tolerations = os.tolerations;
  // Scheduling gates may only be removed.
  const oldGates = arr(os.schedulingGates).map((g) => g.name);
  if (arr(ns.schedulingGates).every((g) => oldGates.includes(g.name))) munged.schedulingGates = os.schedulingGates;
  // The binding subresource sets nodeName; an update may carry it unchanged only.
  if (!deepEqual(munged, os)) {
    const mm: Obj = {};
    const oo: Obj = {};
    for (const k of Object.keys(munged)) if (munged[k] !== undefined) mm[k] = munged[k];
    for (const k of Object.keys(os)) if (os[k] !== undefined) oo[k] = os[k];
    errs.push(field.forbidden('spec', `pod updates may not change fields other than ${POD_UPDATABLE_FIELDS.join(',')}\n${podSpecDiff(oo, mm)}`));
  }
}

const STATEFULSET_MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'];

function withoutKeys(o: Obj, keys: string[]): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o)) if (!keys.includes(k) && o[k] !== undefined) out[k] = o[k];
  return out;
}

/**
 * Validate an update of `old` to `o` (after defaulting and admission): everything
 * `validateCreate` checks on the new object, then the kind's immutability rules. The server
 * itself checks name/namespace/uid. Returns [] when the update is allowed.
 *
 * `oldMetadataValidated` (performance only): the caller guarantees that `validateObjectMeta`
 * found no errors in `old` (it was stored by a create or update whose validation passed, and
 * none of the metadata fields it reads changed since). Then, when `o` has the same kind and the
 * same values in those fields, `validateObjectMeta(o)` is skipped: its result depends on nothing
 * else, so it is the same empty list.
 */
export function validateUpdate(o: KubeObject, old: KubeObject, oldMetadataValidated = false): FieldError[] {
  let errs: Errs;
  updating = oldMetadataValidated ? o : undefined;
  updatingOld = oldMetadataValidated ? old : undefined;
  try {
    errs = validateCreate(o);
  } finally {
    updating = undefined;
    updatingOld = undefined;
  }
  const ns = obj(o.spec);
  const os = obj(old.spec);
  switch (o.kind) {
    case 'Pod':
      validatePodUpdate(o, old, errs);
      break;
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
      immutable(ns.selector, os.selector, 'spec.selector', errs, selectorValue);
      break;
    case 'StatefulSet':
      if (!deepEqual(withoutKeys(ns, STATEFULSET_MUTABLE), withoutKeys(os, STATEFULSET_MUTABLE))) {
        errs.push(
          field.forbidden(
            'spec',
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
          ),
        );
      }
      break;
    case 'CronJob':
      validateCronJobScheduleUpdate(o, old, errs);
      break;
    case 'Job': {
      if (ns.completionMode !== 'Indexed' || ns.completions !== ns.parallelism) immutable(ns.completions, os.completions, 'spec.completions', errs);
      immutable(ns.selector, os.selector, 'spec.selector', errs, selectorValue);
      // A suspended Job that never started may change scheduling directives of its template.
      const neverStarted = !old.status?.startTime;
      const suspended = ns.suspend === true && os.suspend === true;
      const strip = (t: Obj) => {
        const c: Obj = JSON.parse(JSON.stringify(t ?? {}));
        if (suspended && neverStarted) {
          if (isObj(c.metadata)) {
            delete c.metadata.labels;
            delete c.metadata.annotations;
          }
          if (isObj(c.spec)) for (const k of ['nodeSelector', 'affinity', 'tolerations', 'schedulingGates']) delete c.spec[k];
        }
        return c;
      };
      if (!deepEqual(strip(ns.template), strip(os.template))) errs.push(field.invalid('spec.template', ns.template, 'field is immutable'));
      immutable(ns.completionMode, os.completionMode, 'spec.completionMode', errs);
      immutable(ns.podFailurePolicy, os.podFailurePolicy, 'spec.podFailurePolicy', errs);
      break;
    }
    case 'Service': {
      if (ns.type === 'ExternalName' || os.type === 'ExternalName') break;
      const oldIPs = serviceIPs(os);
      let newIPs = serviceIPs(ns);
      // clusterIP is the authoritative first entry when the two disagree.
      if (ns.clusterIP && newIPs.length && newIPs[0] !== ns.clusterIP) newIPs = [ns.clusterIP, ...newIPs.slice(1)];
      oldIPs.forEach((ip, i) => {
        if (i < newIPs.length && newIPs[i] !== ip) errs.push(field.invalid(index('spec.clusterIPs', i), newIPs, 'may not change once set'));
      });
      break;
    }
    case 'PersistentVolumeClaim':
      validatePvcUpdate(o, old, errs);
      break;
    case 'PersistentVolume': {
      const src = (s: Obj) => Object.fromEntries(PV_SOURCES.filter((k) => !unset(s[k])).map((k) => [k, s[k]]));
      if (!deepEqual(src(ns), src(os))) errs.push(field.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
      break;
    }
    case 'ConfigMap':
    case 'Secret':
      if (old.immutable === true) {
        if (o.immutable !== true) errs.push(field.forbidden('immutable', 'field is immutable when `immutable` is set'));
        if (!deepEqual(o.data ?? null, old.data ?? null)) errs.push(field.forbidden('data', 'field is immutable when `immutable` is set'));
        if (o.kind === 'ConfigMap' && !deepEqual(o.binaryData ?? null, old.binaryData ?? null)) errs.push(field.forbidden('binaryData', 'field is immutable when `immutable` is set'));
      }
      if (o.kind === 'Secret') immutable(o.type, old.type, 'type', errs);
      break;
    case 'Node': {
      const oc = arr(os.podCIDRs).length ? os.podCIDRs : os.podCIDR ? [os.podCIDR] : [];
      const nc = arr(ns.podCIDRs).length ? ns.podCIDRs : ns.podCIDR ? [ns.podCIDR] : [];
      if (oc.length && !deepEqual(oc, nc)) errs.push(field.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
      if (os.providerID && ns.providerID !== os.providerID) errs.push(field.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
      break;
    }
    case 'PriorityClass':
      if (o.value !== old.value) errs.push(field.forbidden('value', 'may not be changed in an update.'));
      immutable(o.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy', errs);
      break;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      if (!deepEqual(o.roleRef ?? null, old.roleRef ?? null)) errs.push(field.invalid('roleRef', roleRefValue(obj(o.roleRef)), 'cannot change roleRef'));
      break;
    case 'StorageClass':
      if (!deepEqual(o.parameters ?? null, old.parameters ?? null)) errs.push(field.forbidden('parameters', 'updates to parameters are forbidden.'));
      if (o.provisioner !== old.provisioner) errs.push(field.forbidden('provisioner', 'updates to provisioner are forbidden.'));
      if (o.reclaimPolicy !== old.reclaimPolicy) errs.push(field.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
      immutable(o.volumeBindingMode, old.volumeBindingMode, 'volumeBindingMode', errs);
      break;
  }
  return errs;
}

/** `ValidatePersistentVolumeClaimUpdate`: spec immutable except storage requests (growth) and a first volumeName. */
function validatePvcUpdate(o: KubeObject, old: KubeObject, errs: Errs): void {
  const ns: Obj = JSON.parse(JSON.stringify(obj(o.spec)));
  const os: Obj = JSON.parse(JSON.stringify(obj(old.spec)));
  if (!os.volumeName) os.volumeName = ns.volumeName;
  if (!os.storageClassName && old.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] === ns.storageClassName) os.storageClassName = ns.storageClassName;
  // RetroactiveDefaultStorageClass (GA 1.28, `validateStorageClassUpgradeFromNil`): a claim created
  // without a class may be given one later (the PV controller assigns the default class).
  if ((os.storageClassName === undefined || os.storageClassName === null) && old.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] === undefined && typeof ns.storageClassName === 'string' && ns.storageClassName !== '') {
    os.storageClassName = ns.storageClassName;
  }
  const newReq = obj(obj(ns.resources).requests);
  const oldReq = obj(obj(os.resources).requests);
  const newSize = newReq.storage;
  const oldSize = oldReq.storage;
  if (isObj(ns.resources)) {
    if (isObj(ns.resources.requests)) ns.resources.requests = { ...ns.resources.requests, storage: oldSize };
    if (oldSize === undefined && isObj(ns.resources.requests)) delete ns.resources.requests.storage;
  }
  ns.volumeAttributesClassName = os.volumeAttributesClassName;
  if (!deepEqual(withoutKeys(ns, []), withoutKeys(os, []))) {
    errs.push(field.forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${pvcDiff(obj(old.spec), obj(o.spec))}`));
  }
  const nv = qval(newSize);
  const ov = qval(oldSize);
  if (nv !== undefined && ov !== undefined && nv < ov) {
    const capacity = qval(old.status?.capacity?.storage);
    if (capacity !== undefined && nv <= capacity) errs.push(field.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
}

function pvcDiff(a: Obj, b: Obj): string {
  const lines = ['  core.PersistentVolumeClaimSpec{'];
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    if (deepEqual(a[k], b[k])) continue;
    if (a[k] !== undefined) lines.push(`- \t${goFieldName(k)}: ${JSON.stringify(a[k])},`);
    if (b[k] !== undefined) lines.push(`+ \t${goFieldName(k)}: ${JSON.stringify(b[k])},`);
  }
  lines.push('  }');
  return lines.join('\n');
}

// ------------------------------------------------------------------ decoding

/**
 * Every quantity-valued place of a kind, in order, handed to `checkQuantity` with the object
 * (performance only: checked as they are found instead of collected into [path, value] pairs
 * first; the same values in the same order, and reading plain JSON has no side effects, so the
 * first one that does not parse is the same).
 */
function checkQuantities(o: KubeObject): void {
  const spec = obj(o.spec);
  switch (o.kind) {
    case 'Pod':
      checkPodSpecQuantities(o, spec);
      break;
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
    case 'Job':
    case 'ReplicationController':
      checkPodSpecQuantities(o, obj(spec.template).spec);
      break;
    case 'StatefulSet':
      checkPodSpecQuantities(o, obj(spec.template).spec);
      for (const t of arr(spec.volumeClaimTemplates)) {
        checkQuantityMap(o, obj(obj(t.spec).resources).requests);
        checkQuantityMap(o, obj(obj(t.spec).resources).limits);
      }
      break;
    case 'CronJob':
      checkPodSpecQuantities(o, obj(obj(obj(spec.jobTemplate).spec).template).spec);
      break;
    case 'PodTemplate':
      checkPodSpecQuantities(o, obj(o.template as Obj).spec);
      break;
    case 'PersistentVolumeClaim':
      checkQuantityMap(o, obj(spec.resources).requests);
      checkQuantityMap(o, obj(spec.resources).limits);
      checkQuantityMap(o, o.status?.capacity);
      break;
    case 'PersistentVolume':
      checkQuantityMap(o, spec.capacity);
      break;
    case 'Node':
      checkQuantityMap(o, o.status?.capacity);
      checkQuantityMap(o, o.status?.allocatable);
      break;
    case 'ResourceQuota':
      checkQuantityMap(o, spec.hard);
      break;
  }
}

// `checkQuantities` helpers, top-level (performance only: closures made per call cost a
// `defineProperty` each under tsx's keepNames, on every API write).
function checkQuantityMap(o: KubeObject, m: unknown): void {
  if (isObj(m)) for (const k of Object.keys(m)) checkQuantity(o, m[k]);
}

/** The pod spec's container (then init, ephemeral) limits and requests, overhead, emptyDir size limits. */
function checkPodSpecQuantities(o: KubeObject, s: unknown): void {
  const spec = obj(s);
  for (const list of POD_CONTAINER_LISTS) {
    for (const c of arr(spec[list])) {
      checkQuantityMap(o, obj(c.resources).limits);
      checkQuantityMap(o, obj(c.resources).requests);
    }
  }
  checkQuantityMap(o, spec.overhead);
  for (const v of arr(spec.volumes)) if (isObj(v.emptyDir) && v.emptyDir.sizeLimit !== undefined) checkQuantity(o, v.emptyDir.sizeLimit);
}

const POD_CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'];

/** Throws the decoder's 400 for `v` (a string or number quantity of `o`) when it does not parse. */
function checkQuantity(o: KubeObject, v: unknown): void {
  if (typeof v !== 'string' && typeof v !== 'number') return;
  try {
    parseQuantityFull(v);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const version = String(o.apiVersion ?? '').split('/').pop();
    throw errors.badRequest(`${o.kind} in version "${version}" cannot be handled as a ${o.kind}: ${e.message}`);
  }
}

/**
 * What the API server's decoder rejects before defaulting or validation run: a quantity that
 * does not parse. Throws `ApiError` 400 BadRequest with the decoder's message,
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: quantities must match the regular
 * expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` (or the suffix error).
 * Source: staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (`NewBadRequest` of the
 * serializer error) and resource/quantity.go (`UnmarshalJSON`).
 */
export function checkDecodable(o: KubeObject): void {
  checkQuantities(o);
}
