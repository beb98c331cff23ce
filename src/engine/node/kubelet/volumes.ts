/**
 * What the kubelet prepares before it creates a container: its environment and its volumes.
 *
 * Mirrors:
 * - pkg/kubelet/kubelet_pods.go (`makeEnvironmentVariables`: service links, `envFrom`, `env` with
 *   `$(VAR)` expansion, `valueFrom` field/resource/ConfigMap/Secret references; errors
 *   `configmap "x" not found`, `couldn't find key k in ConfigMap ns/x` that become
 *   `CreateContainerConfigError`);
 * - pkg/kubelet/envvars/envvars.go (`FromServices`: `<SVC>_SERVICE_HOST`, `<SVC>_PORT_80_TCP`...);
 * - pkg/volume/{emptydir,configmap,secret,projected,downwardapi,hostpath} and the volume
 *   manager's layout `/var/lib/kubelet/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>`: volume
 *   content lives on the node's disk, so it survives container restarts and kubelet restarts and
 *   goes with the pod (`MountVolume.SetUp failed for volume "v" : configmap "x" not found`).
 *
 * Units: bytes for memory.
 */
import type { ApiServer } from '../../api/server';
import type { KubeObject } from '../../api/types';
import { ApiError } from '../../api/errors';
import { parseQuantity, isValidQuantity } from '../../api/quantity';
import type { DirSnapshot, FileSystem } from '../fs';
import { joinPath, FsError, snapshotFiles } from '../fs';
import type { FsMount, MountSource } from '../shell';
import { syntheticDigestHex } from '../registry';
import { flattenString } from '../../strings';

type Obj = Record<string, unknown>;

/** A failure preparing a container: the waiting reason and message, and the event text. */
export class PrepareError extends Error {
  constructor(
    /** `CreateContainerConfigError` or `FailedMount`. */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'PrepareError';
  }
}

/** Decode standard base64 (Secret data) to a string (UTF-8 bytes taken as Latin-1 where not valid). */
export function base64Decode(s: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const clean = s.replace(/[^A-Za-z0-9+/]/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < clean.length; i += 4) {
    const n = [0, 1, 2, 3].map((k) => (i + k < clean.length ? alphabet.indexOf(clean[i + k]) : 0));
    const v = (n[0] << 18) | (n[1] << 12) | (n[2] << 6) | n[3];
    bytes.push((v >> 16) & 255);
    if (i + 2 < clean.length) bytes.push((v >> 8) & 255);
    if (i + 3 < clean.length) bytes.push(v & 255);
  }
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b < 0x80) out += String.fromCharCode(b);
    else if (b >= 0xc0 && b < 0xe0 && i + 1 < bytes.length) out += String.fromCharCode(((b & 31) << 6) | (bytes[++i] & 63));
    else if (b >= 0xe0 && b < 0xf0 && i + 2 < bytes.length) out += String.fromCharCode(((b & 15) << 12) | ((bytes[++i] & 63) << 6) | (bytes[++i] & 63));
    else out += String.fromCharCode(b);
  }
  return out;
}

/** Bytes of a memory quantity (`100Mi`), or undefined. */
export function memoryBytes(q: unknown): number | undefined {
  if (q === undefined || q === null || !isValidQuantity(q)) return undefined;
  return Math.round(parseQuantity(q as string | number));
}

/** A `MountSource` over a directory of the node's filesystem (emptyDir, hostPath, PV directories). */
export function nodeDirMount(fs: FileSystem, base: string, readOnly = false): MountSource {
  return readOnly ? new NodeDirSource(fs, base) : new WritableNodeDirSource(fs, base);
}

/**
 * A read-only `MountSource` over a node directory. Classes rather than closures per mount
 * (performance only: every container of every pod holds its mounts); a read-only source has no
 * `write`/`remove`/`mkdir`, as before.
 */
class NodeDirSource implements MountSource {
  constructor(
    protected readonly fs: FileSystem,
    protected readonly base: string,
  ) {}

  protected abs(rel: string): string {
    return rel === '' ? this.base : joinPath(this.base, rel);
  }

  read(rel: string): string | undefined {
    return this.fs.isFile(this.abs(rel)) ? this.fs.readFile(this.abs(rel)) : undefined;
  }

  list(rel: string): string[] | undefined {
    return this.fs.isDirectory(this.abs(rel)) ? this.fs.readdir(this.abs(rel)) : undefined;
  }
}

/** A writable `MountSource` over a node directory (emptyDir, hostPath, persistent volumes). */
class WritableNodeDirSource extends NodeDirSource {
  write(rel: string, data: string): void {
    const p = this.abs(rel);
    const dir = p.slice(0, p.lastIndexOf('/')) || '/';
    if (!this.fs.isDirectory(dir)) this.fs.mkdir(dir, { parents: true });
    this.fs.writeFile(p, data);
  }

  remove(rel: string): boolean {
    const p = this.abs(rel);
    if (!this.fs.exists(p)) return false;
    this.fs.rm(p, { recursive: true, force: true });
    return true;
  }

  mkdir(rel: string): void {
    this.fs.mkdir(this.abs(rel), { parents: true });
  }
}

/** Facts about the pod the downward API and service links need. */
export interface PodFacts {
  pod: KubeObject;
  nodeName: string;
  nodeIP: string;
  podIP?: string;
}

/**
 * A field of the downward API (`metadata.name`, `metadata.labels['app']`, `status.podIP`,
 * `spec.nodeName` ...). Source: pkg/fieldpath/fieldpath.go and kubelet_pods.go (`podFieldSelectorRuntimeValue`).
 */
export function downwardField(f: PodFacts, path: string): string {
  const m = f.pod.metadata;
  // Only a path ending in `']` can be a label or annotation reference (performance only: the
  // usual `metadata.namespace` of every service account volume skips the regular expression).
  const sub = path.endsWith("']") ? /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path) : null;
  if (sub) return (sub[1] === 'labels' ? m.labels : m.annotations)?.[sub[2]] ?? '';
  switch (path) {
    case 'metadata.name':
      return m.name ?? '';
    case 'metadata.namespace':
      return m.namespace ?? '';
    case 'metadata.uid':
      return m.uid ?? '';
    case 'metadata.labels':
      return Object.entries(m.labels ?? {}).sort().map(([k, v]) => `${k}="${v}"`).join('\n');
    case 'metadata.annotations':
      return Object.entries(m.annotations ?? {}).sort().map(([k, v]) => `${k}="${v}"`).join('\n');
    case 'spec.nodeName':
      return f.nodeName;
    case 'spec.serviceAccountName':
      return f.pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return f.nodeIP;
    case 'status.podIP':
    case 'status.podIPs':
      return f.pod.spec?.hostNetwork ? f.nodeIP : (f.podIP ?? '');
    default:
      return '';
  }
}

/** `resourceFieldRef` value with its divisor (cpu rounded up to whole divisor units, as the kubelet does). */
function resourceField(container: Obj, resource: string, divisor: unknown): string {
  const res = (container.resources ?? {}) as Obj;
  const [kind, name] = resource.split('.');
  const src = ((kind === 'limits' ? res.limits : res.requests) ?? {}) as Obj;
  let v = src[name];
  if (v === undefined && kind === 'limits') return name === 'cpu' ? '2' : String(16 * 1024 * 1024 * 1024);
  if (v === undefined) v = 0;
  const value = parseQuantity(v as string | number);
  const div = divisor !== undefined && divisor !== '0' && isValidQuantity(divisor) ? parseQuantity(divisor as string) : 1;
  return String(Math.ceil(value / (div || 1)));
}

/** `$(VAR)` expansion with `$$` escaping (third_party/forked/golang/expansion). */
export function expandVars(s: string, lookup: (name: string) => string | undefined): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    const v = lookup(name!);
    return v === undefined ? m : v;
  });
}

/**
 * `envvars.FromServices`: the Docker-link style variables of each Service with a cluster IP.
 * `services` are the pod namespace's Services (when `enableServiceLinks`) plus `default/kubernetes`.
 */
export function serviceEnv(services: readonly KubeObject[]): Record<string, string> {
  // Memo by the Services' identity (performance only: the variables are a pure function of the
  // Services, and informer objects are never mutated, so the same objects give the same record).
  // Every container of a node then shares one set of value strings instead of building its
  // own (~10k `tcp://...` strings at 10k pods). Callers get a copy, as before.
  if (!services.length) return {};
  const hit = serviceEnvMemo.get(services[0]);
  if (hit && sameInputs(hit.services, services)) return { ...hit.env };
  const env = computeServiceEnv(services);
  serviceEnvMemo.set(services[0], { services: services.slice(), env });
  return { ...env };
}

/** `serviceEnv`'s memo: by the first Service, the last list it began and its variables. */
const serviceEnvMemo = new WeakMap<KubeObject, { services: readonly KubeObject[]; env: Readonly<Record<string, string>> }>();

function computeServiceEnv(services: readonly KubeObject[]): Record<string, string> {
  const out: Record<string, string> = {};
  const sorted = [...services].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const s of sorted) {
    const ip = s.spec?.clusterIP;
    if (!ip || ip === 'None') continue;
    const name = (s.metadata.name ?? '').toUpperCase().replace(/-/g, '_');
    const ports: Obj[] = s.spec?.ports ?? [];
    if (!ports.length) continue;
    out[`${name}_SERVICE_HOST`] = ip;
    out[`${name}_SERVICE_PORT`] = String(ports[0].port);
    for (const p of ports) if (p.name) out[`${name}_SERVICE_PORT_${String(p.name).toUpperCase().replace(/-/g, '_')}`] = String(p.port);
    const proto0 = String(ports[0].protocol ?? 'TCP').toLowerCase();
    out[`${name}_PORT`] = `${proto0}://${ip}:${ports[0].port}`;
    for (const p of ports) {
      const proto = String(p.protocol ?? 'TCP');
      const prefix = `${name}_PORT_${p.port}_${proto.toUpperCase()}`;
      out[prefix] = `${proto.toLowerCase()}://${ip}:${p.port}`;
      out[`${prefix}_PROTO`] = proto.toLowerCase();
      out[`${prefix}_PORT`] = String(p.port);
      out[`${prefix}_ADDR`] = ip;
    }
  }
  return out;
}

/** Reads ConfigMaps and Secrets through the kubelet's API client. */
export class ObjectSource {
  constructor(private readonly api: ApiServer) {}

  /** A ConfigMap's data (binaryData ignored), or undefined when absent. Other API errors throw. */
  configMap(ns: string, name: string): Record<string, string> | undefined {
    return configMapData(this.configMapObject(ns, name));
  }

  /** A Secret's decoded data (stringData merged by the API already), or undefined when absent. */
  secret(ns: string, name: string): Record<string, string> | undefined {
    return secretData(this.secretObject(ns, name));
  }

  /**
   * The stored ConfigMap itself (read only, never to be changed; undefined when absent; other
   * API errors throw). Stored objects are never mutated (every write stores a fresh object), so
   * the same object means the same content.
   */
  configMapObject(ns: string, name: string): Readonly<KubeObject> | undefined {
    // Read only (its data is copied by configMapData): no deep copy of the ConfigMap on every pod sync.
    return this.api.tryGetShared('configmaps', ns, name);
  }

  /** The stored Secret itself (as `configMapObject`). */
  secretObject(ns: string, name: string): Readonly<KubeObject> | undefined {
    return this.api.tryGetShared('secrets', ns, name);
  }
}

/** A ConfigMap object's data as a fresh record (binaryData ignored), or undefined for no object. */
function configMapData(o: Readonly<KubeObject> | undefined): Record<string, string> | undefined {
  return o ? { ...((o as Obj).data as Record<string, string> | undefined) } : undefined;
}

/** A Secret object's decoded data (stringData merged by the API already), or undefined for no object. */
function secretData(o: Readonly<KubeObject> | undefined): Record<string, string> | undefined {
  if (!o) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(((o as Obj).data as Record<string, string> | undefined) ?? {})) out[k] = base64Decode(String(v));
  for (const [k, v] of Object.entries(((o as Obj).stringData as Record<string, string> | undefined) ?? {})) out[k] = String(v);
  return out;
}

/**
 * `makeEnvironmentVariables` for one container. Throws `PrepareError('CreateContainerConfigError', ...)`
 * for a missing ConfigMap/Secret or key that is not optional.
 */
export function containerEnv(container: Obj, f: PodFacts, src: ObjectSource, services: readonly KubeObject[]): Record<string, string> {
  const ns = f.pod.metadata.namespace ?? 'default';
  const env: Record<string, string> = serviceEnv(services); // a fresh record
  for (const ef of (container.envFrom as Obj[] | undefined) ?? []) {
    const prefix = String(ef.prefix ?? '');
    const cmRef = ef.configMapRef as Obj | undefined;
    const secRef = ef.secretRef as Obj | undefined;
    const ref = cmRef ?? secRef;
    if (!ref) continue;
    const data = cmRef ? src.configMap(ns, String(ref.name)) : src.secret(ns, String(ref.name));
    if (!data) {
      if (ref.optional) continue;
      throw new PrepareError('CreateContainerConfigError', `${cmRef ? 'configmap' : 'secret'} "${String(ref.name)}" not found`);
    }
    for (const [k, v] of Object.entries(data)) if (/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(prefix + k)) env[prefix + k] = v;
  }
  const lookup = (n: string): string | undefined => env[n];
  for (const e of (container.env as Obj[] | undefined) ?? []) {
    const name = String(e.name);
    if (e.valueFrom) {
      const vf = e.valueFrom as Obj;
      if (vf.fieldRef) env[name] = downwardField(f, String((vf.fieldRef as Obj).fieldPath));
      else if (vf.resourceFieldRef) {
        const r = vf.resourceFieldRef as Obj;
        env[name] = resourceField(container, String(r.resource), r.divisor);
      } else if (vf.configMapKeyRef || vf.secretKeyRef) {
        const isCm = !!vf.configMapKeyRef;
        const ref = (vf.configMapKeyRef ?? vf.secretKeyRef) as Obj;
        const data = isCm ? src.configMap(ns, String(ref.name)) : src.secret(ns, String(ref.name));
        if (!data) {
          if (ref.optional) continue;
          throw new PrepareError('CreateContainerConfigError', `${isCm ? 'configmap' : 'secret'} "${String(ref.name)}" not found`);
        }
        const v = data[String(ref.key)];
        if (v === undefined) {
          if (ref.optional) continue;
          throw new PrepareError('CreateContainerConfigError', `couldn't find key ${String(ref.key)} in ${isCm ? 'ConfigMap' : 'Secret'} ${ns}/${String(ref.name)}`);
        }
        env[name] = v;
      }
    } else {
      env[name] = expandVars(String(e.value ?? ''), lookup);
    }
  }
  return env;
}

/** `command`/`args` with `$(VAR)` expanded against the container's environment. */
export function expandArgs(list: unknown, env: Record<string, string>): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((s) => expandVars(String(s), (n) => env[n]));
}

/** The kubelet's per-pod directory. */
export function podDir(uid: string): string {
  return `/var/lib/kubelet/pods/${uid}`;
}

/** Memo of `fakeToken` (a pure function of its arguments; bounded, cleared when full). */
const tokenMemo = new Map<string, string>();
/** Most tokens kept in `tokenMemo` (a 10,000-pod cluster fits). */
const TOKEN_MEMO_MAX = 16_384;

/** A stand-in bound service account token (a JWT-shaped string, deterministic per pod). */
export function fakeToken(podUid: string, ns: string, sa: string): string {
  const key = `${podUid}/${ns}/${sa}`;
  let t = tokenMemo.get(key);
  if (t === undefined) {
    if (tokenMemo.size >= TOKEN_MEMO_MAX) tokenMemo.clear();
    // Flat (performance only: the template's pieces, slices of longer digests, would otherwise
    // stay alive with every pod's token file; ~270 bytes a token).
    t = flattenString(computeFakeToken(podUid, ns, sa));
    tokenMemo.set(flattenString(key), t);
  }
  return t;
}

function computeFakeToken(podUid: string, ns: string, sa: string): string {
  // The pieces are 64 and 128 lowercase hex digits: already URL-safe and shorter than 600, so
  // the `replace(/[^A-Za-z0-9]/g, '').slice(0, 600)` they went through left them as they were.
  const h = syntheticDigestHex(`${podUid}/${ns}/${sa}`);
  return `eyJhbGciOiJSUzI1NiIsImtpZCI6I${h.slice(0, 40)}In0.eyJhdWQiOlsiaHR0cHM6Ly9rdWJlcm5ldGVzLmRlZmF1bHQuc3ZjLmNsdXN0ZXIubG9jYWwiXSwia3ViZXJuZXRlcy5pbyI6eyJuYW1lc3BhY2Ui${syntheticDigestHex(h)}.${syntheticDigestHex(`sig${h}`) + syntheticDigestHex(`sig2${h}`)}`;
}

/**
 * Write `files` (relative path -> content) into `dir`, replacing what was there. Like the
 * kubelet's AtomicWriter (pkg/volume/util/atomic_writer.go, `shouldWritePayload`), a payload
 * equal to what is on disk is not written again (no new mtimes, no fs events). Returns true when
 * the payload was found on disk (nothing written).
 */
function writeAll(fs: FileSystem, dir: string, files: Record<string, string>): boolean {
  if (payloadOnDisk(fs, dir, files)) return true;
  if (fs.exists(dir)) fs.rm(dir, { recursive: true, force: true });
  fs.mkdir(dir, { parents: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = joinPath(dir, rel);
    const d = p.slice(0, p.lastIndexOf('/'));
    // `dir` itself was just made (performance only: no lookup for the usual flat payload).
    if (d !== dir && !fs.isDirectory(d)) fs.mkdir(d, { parents: true });
    fs.writeFile(p, content);
  }
  return false;
}

/** True when `dir` holds exactly `files` (same paths, same contents, no other files). */
function payloadOnDisk(fs: FileSystem, dir: string, files: Record<string, string>): boolean {
  // `filesUnder` answers only for a directory (performance only: one lookup when it is there).
  const tree = fs.filesUnder(dir);
  if (!tree && !fs.isDirectory(dir)) return false;
  const want = new Map<string, string>();
  for (const [rel, content] of Object.entries(files)) want.set(joinPath(dir, rel), content);
  if (tree) {
    if (tree.size !== want.size) return false;
    for (const [p, content] of tree) if (want.get(p) !== content) return false;
    return true;
  }
  let found = 0;
  for (const p of fs.find(dir)) {
    const content = fs.tryReadFile(p);
    if (content === undefined) {
      if (fs.isDirectory(p)) continue;
      return false;
    }
    if (want.get(p) !== content) return false;
    found++;
  }
  return found === want.size;
}

/**
 * True when the tree `snap` records is exactly the flat payload `files`: every path a plain
 * name, one regular file per name with that content, nothing else (what `payloadOnDisk` would
 * answer for it, read from the snapshot instead of the disk; false when unsure).
 */
function snapshotHolds(snap: DirSnapshot, files: Record<string, string>): boolean {
  let n = 0;
  for (const rel in files) {
    if (rel === '' || rel === '.' || rel === '..' || rel.includes('/')) return false;
    n++;
  }
  const onDisk = snapshotFiles(snap);
  if (!onDisk || onDisk.size !== n) return false;
  for (const [name, content] of onDisk) if (!Object.hasOwn(files, name) || files[name] !== content) return false;
  return true;
}

function itemsOf(data: Record<string, string>, items: Obj[] | undefined, what: 'ConfigMap' | 'Secret', optional: boolean, fail: (why: string) => never): Record<string, string> {
  if (!items || !items.length) return { ...data };
  const out: Record<string, string> = {};
  for (const it of items) {
    const k = String(it.key);
    if (data[k] === undefined) {
      if (optional) continue;
      fail(what === 'Secret' ? `references non-existent secret key: ${k}` : `configmap references non-existent config key: ${k}`);
    }
    out[String(it.path)] = data[k];
  }
  return out;
}

/** The directory of a pod's volume of a plugin (`empty-dir`, `configmap`, `projected`...). */
function pluginDir(uid: string, volume: string, plugin: string): string {
  return joinPath(podDir(uid), `volumes/kubernetes.io~${plugin}/${volume}`);
}

/** Fail the mount of `vol` (the kubelet's FailedMount event text). */
function failMount(vol: string, why: string): never {
  throw new PrepareError('FailedMount', `MountVolume.SetUp failed for volume "${vol}" : ${why}`);
}

/**
 * What a ConfigMap, Secret, projected or downward API volume of a pod was last written from, and
 * the proof that its files are still as written (see `setUpVolumes`).
 */
export interface ProjectionMemo {
  /** The volume's name. */
  name: string;
  /**
   * The caller's generation of the pod spec the files were made from (`setUpVolumes`'s
   * `specGen`; a number rather than the spec itself, which would keep old pod objects alive).
   */
  specGen: number;
  /** The inputs of `projectionInputs` the files were made from. */
  inputs: unknown[];
  /** The volume directory's tree right after the files were written (or found in place). */
  disk: DirSnapshot;
  /**
   * The volume's directory (`pluginDir` of the pod UID, the volume name and its plugin: the
   * same path while `specGen` is) and the read-only mount source over it that the call
   * returned (immutable, so shared by the calls that find the files in place).
   */
  dir: string;
  source: MountSource;
}

/**
 * A pod's projection memos, at most one per volume name (the kubelet keeps one per pod worker,
 * in memory). `setUpVolumes` replaces `list` with an exactly sized array after a change (a pod
 * has a few volumes, and 10,000 pods keep one each: no map, no spare array capacity).
 */
export interface VolumeMemo {
  list: readonly ProjectionMemo[];
  /**
   * The emptyDir and hostPath volumes' last answers (see `setUpVolumes`), made on a pod's first
   * such volume (most pods have none).
   */
  local?: LocalVolumeMemo[];
}

/**
 * An emptyDir or hostPath volume's answer of `setUpVolumes` (`vol`), for the pod spec generation
 * `specGen`, and the node filesystem and its `generation()` right after the answer was made.
 */
export interface LocalVolumeMemo {
  /** The volume's position in `spec.volumes` and its name. */
  index: number;
  name: string;
  specGen: number;
  fs: FileSystem;
  fsGen: number;
  vol: { source: MountSource; readOnly: boolean; dir?: string };
}

/**
 * The memoised answer of emptyDir or hostPath volume `name` at position `index` of the pod's
 * volumes, when it still holds. Why it is the answer the branch would give, with no side effect
 * skipped: the branch reads only the volume spec (the same while `specGen` is: the volume at
 * that position in a deepEqual pod spec; the position also keeps two volumes of one name apart), the pod
 * UID (fixed per memo) and the filesystem. With the same filesystem at the same `generation()`
 * as right after the answer was made, the tree is exactly as the branch left it: the directory
 * (or file) it found or created still exists, so `mkdir`/`writeFile` would not run, every
 * existence and type check answers as it did after that call, and a type check that fails
 * threw then (nothing was kept). The source is a read-only record of the filesystem and the
 * path (`nodeDirMount`: no state of its own), so the kept one serves as a new one would.
 */
function localVolumeHit(fs: FileSystem, memo: VolumeMemo | undefined, index: number, name: string, specGen: number): LocalVolumeMemo['vol'] | undefined {
  const local = memo?.local;
  if (!local) return undefined;
  for (const m of local) {
    if (m.index === index && m.name === name) return m.specGen === specGen && m.fs === fs && m.fsGen === fs.generation() ? m.vol : undefined;
  }
  return undefined;
}

/** Keep `vol` as the answer of emptyDir or hostPath volume `name` at `index` (see `localVolumeHit`), replacing an older one. */
function rememberLocalVolume(fs: FileSystem, memo: VolumeMemo | undefined, index: number, name: string, specGen: number, vol: LocalVolumeMemo['vol']): void {
  if (!memo) return;
  const entry: LocalVolumeMemo = { index, name, specGen, fs, fsGen: fs.generation(), vol };
  const local = (memo.local ??= []);
  const i = local.findIndex((m) => m.index === index && m.name === name);
  if (i === -1) local.push(entry);
  else local[i] = entry;
}

/**
 * Everything a ConfigMap, Secret, projected or downward API volume's files are computed from,
 * in source order: per ConfigMap or Secret source the stored object (or undefined when absent),
 * per service account token source the token, per downward API source its items' values.
 * API errors (server unreachable) throw, as the reads in the kubelet do. `sameSpec`, when given,
 * must be the result of a call for the same pod UID and namespace and an equal volume spec (its
 * tokens are reused).
 */
function projectionInputs(v: Obj, f: PodFacts, src: ObjectSource, ns: string, sameSpec?: readonly unknown[]): unknown[] {
  const inputs: unknown[] = [];
  if (v.configMap) inputs.push(src.configMapObject(ns, String((v.configMap as Obj).name)));
  else if (v.secret) inputs.push(src.secretObject(ns, String((v.secret as Obj).secretName)));
  else {
    for (const s of projectedSources(v)) {
      // `sameSpec`: the inputs of an earlier call for this pod UID and an equal volume spec,
      // whose sources (so input slots) are the same list; its token, a pure function of the
      // pod UID, namespace and service account name (all unchanged), is this call's token
      // (performance only: no memo key built and looked up on every pod sync).
      if (s.serviceAccountToken) inputs.push(sameSpec ? sameSpec[inputs.length] : fakeToken(f.pod.metadata.uid!, ns, String(f.pod.spec?.serviceAccountName ?? 'default')));
      else if (s.configMap) inputs.push(src.configMapObject(ns, String((s.configMap as Obj).name)));
      else if (s.secret) inputs.push(src.secretObject(ns, String((s.secret as Obj).name)));
      else if (s.downwardAPI) {
        for (const it of (((s.downwardAPI as Obj).items as Obj[] | undefined) ?? [])) {
          if (it.fieldRef) inputs.push(downwardField(f, String((it.fieldRef as Obj).fieldPath)));
        }
      } else inputs.push(undefined);
    }
  }
  return inputs;
}

/** The sources of a projected volume, or the one downward API source of a downwardAPI volume. */
function projectedSources(v: Obj): Obj[] {
  return v.projected ? (((v.projected as Obj).sources as Obj[] | undefined) ?? []) : [{ downwardAPI: v.downwardAPI }];
}

/**
 * The files (relative path -> content) of a ConfigMap, Secret, projected or downward API volume
 * from its `projectionInputs`. Throws `PrepareError('FailedMount', ...)` for a missing object or
 * key that is not optional, at the first failing source.
 */
function projectionFiles(v: Obj, name: string, inputs: readonly unknown[]): Record<string, string> {
  if (v.configMap) {
    const cm = v.configMap as Obj;
    const data = configMapData(inputs[0] as KubeObject | undefined);
    if (!data && !cm.optional) failMount(name, `configmap "${String(cm.name)}" not found`);
    return itemsOf(data ?? {}, cm.items as Obj[] | undefined, 'ConfigMap', !!cm.optional, (why) => failMount(name, why));
  }
  if (v.secret) {
    const sec = v.secret as Obj;
    const data = secretData(inputs[0] as KubeObject | undefined);
    if (!data && !sec.optional) failMount(name, `secret "${String(sec.secretName)}" not found`);
    return itemsOf(data ?? {}, sec.items as Obj[] | undefined, 'Secret', !!sec.optional, (why) => failMount(name, why));
  }
  const files: Record<string, string> = {};
  let i = 0;
  for (const s of projectedSources(v)) {
    if (s.serviceAccountToken) {
      files[String((s.serviceAccountToken as Obj).path ?? 'token')] = inputs[i++] as string;
    } else if (s.configMap) {
      const cm = s.configMap as Obj;
      const data = configMapData(inputs[i++] as KubeObject | undefined);
      if (!data && !cm.optional) failMount(name, `configmap "${String(cm.name)}" not found`);
      Object.assign(files, itemsOf(data ?? {}, cm.items as Obj[] | undefined, 'ConfigMap', !!cm.optional, (why) => failMount(name, why)));
    } else if (s.secret) {
      const sec = s.secret as Obj;
      const data = secretData(inputs[i++] as KubeObject | undefined);
      if (!data && !sec.optional) failMount(name, `secret "${String(sec.name)}" not found`);
      Object.assign(files, itemsOf(data ?? {}, sec.items as Obj[] | undefined, 'Secret', !!sec.optional, (why) => failMount(name, why)));
    } else if (s.downwardAPI) {
      for (const it of (((s.downwardAPI as Obj).items as Obj[] | undefined) ?? [])) {
        if (it.fieldRef) files[String(it.path)] = inputs[i++] as string;
      }
    } else i++;
  }
  return files;
}

/** True when two `projectionInputs` lists are the same values (objects by identity). */
function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Set up the pod's volumes on the node's disk and return, per volume name, the mount source.
 * Throws `PrepareError('FailedMount', 'MountVolume.SetUp failed for volume "v" : <why>')`.
 * ConfigMap, Secret, projected and downward API volumes are refreshed on every call (the
 * kubelet refreshes them on each pod sync). With `memo` (the pod's, kept across calls and only
 * ever given for that one pod UID), a
 * refresh that provably changes nothing is skipped (see below); `specGen` must then change
 * whenever the pod's spec may have changed (the kubelet bumps it on every pod update whose spec
 * is not deepEqual to the last one).
 */
export function setUpVolumes(fs: FileSystem, f: PodFacts, src: ObjectSource, api: ApiServer, memo?: VolumeMemo, specGen = 0): Map<string, { source: MountSource; readOnly: boolean; dir?: string }> {
  const uid = f.pod.metadata.uid!;
  const ns = f.pod.metadata.namespace ?? 'default';
  const out = new Map<string, { source: MountSource; readOnly: boolean; dir?: string }>();
  // The volume's position in the list (the key of the local volumes' memo, with its name).
  let index = -1;
  for (const v of (f.pod.spec?.volumes as Obj[] | undefined) ?? []) {
    index++;
    const name = String(v.name);
    if (v.emptyDir !== undefined) {
      const hit = localVolumeHit(fs, memo, index, name, specGen);
      if (hit) {
        out.set(name, hit);
        continue;
      }
      const dir = pluginDir(uid, name, 'empty-dir');
      if (!fs.isDirectory(dir)) fs.mkdir(dir, { parents: true });
      const vol = { source: nodeDirMount(fs, dir), readOnly: false, dir };
      out.set(name, vol);
      rememberLocalVolume(fs, memo, index, name, specGen, vol);
    } else if (v.configMap || v.secret || v.projected || v.downwardAPI) {
      const m = memo?.list.find((x) => x.name === name);
      // An entry of the same spec generation was made for this pod and an equal volume spec:
      // the same directory (a pure function of the UID, the name and the plugin), the same
      // token (see `projectionInputs`).
      const sameSpec = m !== undefined && m.specGen === specGen ? m : undefined;
      const dir = sameSpec ? sameSpec.dir : pluginDir(uid, name, v.configMap ? 'configmap' : v.secret ? 'secret' : v.projected ? 'projected' : 'downward-api');
      const inputs = projectionInputs(v, f, src, ns, sameSpec?.inputs);
      // The skip, and why it changes nothing: the files are a pure function of the volume spec
      // and `inputs` (`projectionFiles`: stored objects are never mutated, so the same object is
      // the same data; the token and downward values are compared as strings). The spec is
      // deepEqual to the last successful call's while `specGen` is the same (the volume of that
      // name in a deepEqual pod spec). When both equal the last call's, the files equal what
      // that call left in `dir`; when the tree
      // under `dir` is also unchanged since (`unchangedSince`: same nodes, same contents), it
      // still holds exactly those files, so `writeAll` would find the payload on disk and write
      // nothing. What remains of the call is what it returns: the same directory and a
      // read-only source over it (the one made with the files: immutable, so shareable).
      if (sameSpec && sameInputs(sameSpec.inputs, inputs) && fs.unchangedSince(dir, sameSpec.disk)) {
        out.set(name, { source: sameSpec.source, readOnly: true, dir });
        continue;
      }
      if (m) memo!.list = memo!.list.filter((x) => x !== m);
      const files = projectionFiles(v, name, inputs);
      const found = writeAll(fs, dir, files);
      // Remember only a tree that holds the payload now (a payload `writeAll` cannot leave in
      // place, e.g. one with a path outside `dir`, is written again on every call, as before).
      const disk = memo ? fs.snapshotDir(dir) : undefined;
      const source = nodeDirMount(fs, dir, true);
      if (memo && disk && (found || snapshotHolds(disk, files) || payloadOnDisk(fs, dir, files))) {
        const entry: ProjectionMemo = { name, specGen, inputs: inputs.slice(), disk, dir, source };
        // An array literal is exactly sized; a spread of the usual empty list reserves 17 slots
        // (performance only: one list per pod, most with one entry).
        memo.list = memo.list.length ? [...memo.list, entry] : [entry];
      }
      out.set(name, { source, readOnly: true, dir });
    } else if (v.hostPath) {
      const hit = localVolumeHit(fs, memo, index, name, specGen);
      if (hit) {
        out.set(name, hit);
        continue;
      }
      const hp = v.hostPath as Obj;
      const path = String(hp.path);
      const type = String(hp.type ?? '');
      if (type === 'DirectoryOrCreate' && !fs.exists(path)) fs.mkdir(path, { parents: true });
      if (type === 'FileOrCreate' && !fs.exists(path)) fs.writeFile(path, '');
      if (type === 'Directory' && !fs.isDirectory(path)) failMount(name, `hostPath type check failed: ${path} is not a directory`);
      if (type === 'File' && !fs.isFile(path)) failMount(name, `hostPath type check failed: ${path} is not a file`);
      const vol = { source: fs.isFile(path) ? nodeDirMount(fs, path.slice(0, path.lastIndexOf('/')) || '/') : nodeDirMount(fs, path), readOnly: false, dir: path };
      out.set(name, vol);
      rememberLocalVolume(fs, memo, index, name, specGen, vol);
    } else if (v.persistentVolumeClaim) {
      const claim = String((v.persistentVolumeClaim as Obj).claimName);
      // Read only (the claim's volume name, the volume's path): the stored objects, no deep copy
      // per pod sync (performance only; same answers, same errors).
      const pvc = api.tryGetShared('persistentvolumeclaims', ns, claim);
      if (!pvc) failMount(name, `persistentvolumeclaim "${claim}" not found`);
      const pvName = pvc!.spec?.volumeName;
      const pv = pvName ? api.tryGetShared('persistentvolumes', undefined, pvName) : undefined;
      if (!pv) failMount(name, `PVC ${ns}/${claim} is not bound`);
      const path: string = pv!.spec?.hostPath?.path ?? pv!.spec?.local?.path ?? joinPath(podDir(uid), `volumes/kubernetes.io~csi/${pvName}/mount`);
      if (!fs.isDirectory(path)) fs.mkdir(path, { parents: true });
      out.set(name, { source: nodeDirMount(fs, path), readOnly: !!(v.persistentVolumeClaim as Obj).readOnly, dir: path });
    }
  }
  return out;
}

/** The mounts of one container from its `volumeMounts` (subPath honoured). */
export function containerMounts(fs: FileSystem, container: Obj, volumes: Map<string, { source: MountSource; readOnly: boolean; dir?: string }>): FsMount[] {
  const out: FsMount[] = [];
  for (const m of (container.volumeMounts as Obj[] | undefined) ?? []) {
    const vol = volumes.get(String(m.name));
    if (!vol) continue;
    let source = vol.source;
    const sub = m.subPath ? String(m.subPath) : '';
    if (sub && vol.dir) {
      const dir = joinPath(vol.dir, sub);
      try {
        if (!fs.exists(dir) && !vol.readOnly) fs.mkdir(dir, { parents: true });
      } catch (e) {
        if (!(e instanceof FsError)) throw e;
      }
      source = nodeDirMount(fs, dir, vol.readOnly || !!m.readOnly);
    }
    out.push({ path: String(m.mountPath), readOnly: vol.readOnly || !!m.readOnly, source });
  }
  return out;
}

/** Remove the pod's directory (volumes) once it is gone (emptyDir content goes with it). */
export function cleanUpPodDir(fs: FileSystem, uid: string): void {
  try {
    if (fs.exists(podDir(uid))) fs.rm(podDir(uid), { recursive: true, force: true });
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
  }
}

/** True when `e` is an API error that did not reach a server (network or API down). */
export function isUnreachable(e: unknown): boolean {
  return e instanceof ApiError && e.connectionRefused;
}
