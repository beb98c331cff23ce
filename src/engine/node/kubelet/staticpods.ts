/**
 * Static pods: pod manifests the kubelet reads from `staticPodPath` (/etc/kubernetes/manifests on
 * a kubeadm node) and runs without any API server, and the mirror pods it creates for them so
 * that `kubectl get pods` shows them.
 *
 * Mirrors:
 * - pkg/kubelet/config/file.go and file_linux.go (the directory is listed every
 *   fileCheckFrequency and on inotify events; entries starting with `.` are ignored; one pod per
 *   file; `Could not process manifest file` for a file that does not decode; `Unable to read
 *   config path` when the directory is missing);
 * - pkg/kubelet/config/common.go (`applyDefaults`: UID = hash of the pod plus `host:<node>` and
 *   `file:<path>`, name `<name>-<node>`, namespace `default`, nodeName, the
 *   `kubernetes.io/config.hash` annotation, a toleration of every NoExecute taint, phase Pending);
 * - pkg/kubelet/config/config.go (`kubernetes.io/config.source: file`, `kubernetes.io/config.seen`);
 * - pkg/kubelet/pod/mirror_client.go (`CreateMirrorPod`: the static pod with annotation
 *   `kubernetes.io/config.mirror: <hash>` and an ownerReference to the Node, controller: true;
 *   `IsMirrorPodOf`: same full name and same hash).
 *
 * Units: virtual ms.
 */
import { applyDefaults, MIRROR_POD_ANNOTATION } from '../../api/defaults';
import type { KubeObject } from '../../api/types';
import { deepCopy } from '../../api/types';
import { parseManifests } from '../../api/yaml';
import type { Rng } from '../../clock';
import { canonicalJson } from '../../controllers/util';
import type { FileSystem } from '../fs';
import { joinPath } from '../fs';
import { syntheticDigestHex } from '../registry';

/** `kubetypes.ConfigHashAnnotationKey`. */
export const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';
/** `kubetypes.ConfigSourceAnnotationKey`. */
export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
/** `kubetypes.ConfigFirstSeenAnnotationKey`. */
export const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen';
/** `kubetypes.ConfigMirrorAnnotationKey`. */
export const CONFIG_MIRROR_ANNOTATION = MIRROR_POD_ANNOTATION;

/** One manifest read from the directory. */
export interface StaticPodFile {
  /** Full path of the file. */
  path: string;
  /** The static pod (defaulted, named, with its UID), or undefined when the file did not decode. */
  pod?: KubeObject;
  /** The kubelet's error text for an undecodable file. */
  error?: string;
}

/** True for a static pod (its config source is not the API server). */
export function isStaticPod(pod: KubeObject): boolean {
  const src = pod.metadata.annotations?.[CONFIG_SOURCE_ANNOTATION];
  return src !== undefined && src !== 'api';
}

/** True for a mirror pod (`kubernetes.io/config.mirror` set). */
export function isMirrorPod(pod: KubeObject): boolean {
  return pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] !== undefined;
}

/** `IsMirrorPodOf`: a mirror pod whose hash is the static pod's. */
export function isMirrorPodOf(mirror: KubeObject, pod: KubeObject): boolean {
  if (mirror.metadata.name !== pod.metadata.name || mirror.metadata.namespace !== pod.metadata.namespace) return false;
  const h = mirror.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION];
  return h !== undefined && h === pod.metadata.annotations?.[CONFIG_HASH_ANNOTATION];
}

/**
 * The static pod's UID: `hash.DeepHashObject` of the decoded pod followed by `host:<node>` and
 * `file:<path>` (md5 in the kubelet, 32 hex digits; here a deterministic stand-in of the same
 * shape). Editing the file, or moving it, changes it.
 */
export function staticPodUid(decoded: KubeObject, nodeName: string, path: string): string {
  return syntheticDigestHex(`${canonicalJson(decoded)}host:${nodeName}file:${path}`).slice(0, 32);
}

/**
 * Parsed manifests by path and text (performance only: the kubelet re-reads every manifest each
 * 20 s and the YAML parser keeps only the last text). The parsed documents are never mutated
 * here (`decodeStaticPod` copies the object), so sharing them is safe. One entry per path; bounded.
 */
const parsedManifests = new Map<string, { text: string; docs: ReturnType<typeof parseManifests> }>();
const PARSED_MANIFESTS_MAX = 64;

function parsedManifest(text: string, path: string): ReturnType<typeof parseManifests> {
  const hit = parsedManifests.get(path);
  if (hit && hit.text === text) return hit.docs;
  const docs = parseManifests(text, path);
  if (parsedManifests.size >= PARSED_MANIFESTS_MAX) parsedManifests.clear();
  parsedManifests.set(path, { text, docs });
  return docs;
}

/**
 * Decode one manifest into a static pod, as `tryDecodeSinglePod` + `applyDefaults` do.
 * `seenIso` is the RFC 3339 (nanosecond) time for `kubernetes.io/config.seen`.
 */
export function decodeStaticPod(text: string, path: string, nodeName: string, seenIso: string, rng: Rng): StaticPodFile {
  const docs = parsedManifest(text, path);
  const bad = (why: string): StaticPodFile => ({ path, error: `${path}: couldn't parse as pod(${why}), please check config file` });
  if (docs.length === 0) return bad('Object \'Kind\' is missing in \'null\'');
  const d = docs[0];
  if (d.error || !d.object) return bad((d.error ?? '').replace(/^error: error parsing [^:]*: /, '').replace(/^error: /, ''));
  const obj = d.object;
  if (obj.kind !== 'Pod' || obj.apiVersion !== 'v1') return bad(`no kind "${obj.kind}" is registered for version "${obj.apiVersion}"`);
  if (!obj.metadata?.name) return bad('metadata.name: Required value: name or generateName is required');
  const pod = deepCopy(obj);
  // The kubelet decodes with the API's defaulting (legacyscheme), but no admission: no service
  // account, no default tolerations. The mirror annotation keeps the ServiceAccount default off.
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [CONFIG_MIRROR_ANNOTATION]: '' };
  applyDefaults(pod, { rng, operation: 'create' });
  delete pod.metadata.annotations[CONFIG_MIRROR_ANNOTATION];
  delete pod.status;
  const uid = staticPodUid(pod, nodeName, path);
  pod.metadata.uid = uid;
  pod.metadata.name = `${pod.metadata.name}-${nodeName}`;
  if (!pod.metadata.namespace) pod.metadata.namespace = 'default';
  pod.spec.nodeName = nodeName;
  pod.metadata.annotations = {
    ...pod.metadata.annotations,
    [CONFIG_HASH_ANNOTATION]: uid,
    [CONFIG_SEEN_ANNOTATION]: seenIso,
    [CONFIG_SOURCE_ANNOTATION]: 'file',
  };
  // Static pods tolerate every NoExecute taint (common.go: AddOrUpdateTolerationInPod).
  const tols: Record<string, unknown>[] = Array.isArray(pod.spec.tolerations) ? pod.spec.tolerations : [];
  if (!tols.some((t) => t.operator === 'Exists' && t.effect === 'NoExecute' && !t.key)) tols.push({ operator: 'Exists', effect: 'NoExecute' });
  pod.spec.tolerations = tols;
  pod.status = { phase: 'Pending' };
  return { path, pod };
}

/**
 * List the manifests of `dir`: regular files not starting with `.`, in name order. Returns
 * undefined when the directory does not exist (`path does not exist, ignoring`).
 */
export function listManifestFiles(fs: FileSystem, dir: string): string[] | undefined {
  if (!fs.isDirectory(dir)) return undefined;
  return fs
    .readdir(dir)
    .filter((n) => !n.startsWith('.'))
    .map((n) => joinPath(dir, n))
    .filter((p) => fs.isFile(p))
    .sort();
}

/**
 * `CreateMirrorPod`'s object: a copy of the static pod with the mirror annotation (= config
 * hash) and the Node as controller owner; no uid, no status (the API assigns them).
 */
export function mirrorPodFor(staticPod: KubeObject, nodeName: string, nodeUid: string): KubeObject {
  const m = deepCopy(staticPod);
  const hash = staticPod.metadata.annotations?.[CONFIG_HASH_ANNOTATION] ?? staticPod.metadata.uid!;
  m.metadata = {
    name: staticPod.metadata.name,
    namespace: staticPod.metadata.namespace,
    ...(staticPod.metadata.labels ? { labels: { ...staticPod.metadata.labels } } : {}),
    annotations: { ...(staticPod.metadata.annotations ?? {}), [CONFIG_MIRROR_ANNOTATION]: hash },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid, controller: true }],
  };
  delete m.status;
  return m;
}
