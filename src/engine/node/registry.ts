/**
 * The simulated image registries of the outside world (Docker Hub, registry.k8s.io, gcr.io,
 * quay.io), the images a developer built locally (`docker build -t bookshop:v1`), and image
 * reference parsing as containerd does it.
 *
 * Mirrors:
 * - reference grammar and normalisation: github.com/distribution/reference (`ParseNormalizedNamed`,
 *   `ParseDockerRef`, `splitDockerDomain`): `nginx` -> `docker.io/library/nginx:latest`, a reference
 *   with both a tag and a digest keeps only the digest;
 * - pull errors: containerd's CRI plugin (`PullImage` -> `failed to pull and unpack image %q: failed to
 *   resolve reference %q: ...`) and the resolver's messages (`<ref>: not found` for a missing tag;
 *   Docker Hub answers 401 for a repository that does not exist, which containerd reports as
 *   `pull access denied, repository does not exist or may require authorization: server message:
 *   insufficient_scope: authorization failed` - the message the seed's "forty minutes convinced your
 *   registry credentials are broken" is about);
 * - image sizes: the compressed size containerd reports in CRI `Image.size` (what the kubelet's
 *   `Successfully pulled image ... Image size: N bytes.` prints). Sizes are realistic for
 *   linux/amd64 but not byte-exact; digests are synthetic (a deterministic hash of the
 *   reference) except where a corpus manifest pins a real one (ingress-nginx).
 *
 * Units: sizes in bytes, times in virtual ms.
 */

import { EXTRA_PUBLIC_REPOSITORIES } from './registry-extra';

/** An image reference as containerd normalises it. */
export interface ImageRef {
  /** What was given, e.g. `nginx:1.27`. */
  readonly original: string;
  /** Registry host, e.g. `docker.io`, `registry.k8s.io`, `localhost:5000`. */
  readonly domain: string;
  /** Repository path on the registry, e.g. `library/nginx`. */
  readonly path: string;
  /** `domain/path`, e.g. `docker.io/library/nginx`. */
  readonly repository: string;
  /** The tag; undefined when the reference is by digest only. */
  readonly tag?: string;
  /** `sha256:<64 hex>` when the reference names a digest. */
  readonly digest?: string;
  /** The full normalised reference: `docker.io/library/nginx:1.27` or `...nginx@sha256:...`. */
  readonly ref: string;
}

/** `ErrReferenceInvalidFormat` of distribution/reference. */
export const INVALID_REFERENCE_FORMAT = 'invalid reference format';
/** `ErrNameContainsUppercase`, as the kubelet prints it (InvalidImageName). */
export const REFERENCE_UPPERCASE = 'invalid reference format: repository name must be lowercase';

/**
 * A malformed image reference. `message` is distribution/reference's text, which the kubelet
 * wraps as `Failed to apply default image tag "X": couldn't parse image name "X": <message>`
 * (waiting reason `InvalidImageName`).
 */
export class ImageReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageReferenceError';
  }
}

const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const HEX64_RE = /^[a-f0-9]{64}$/;

/**
 * distribution/reference `ReferenceRegexp.MatchString(s)`: `name[:tag][@digest]` as written, with
 * no normalisation (what `kubectl run` checks before `Invalid image name "X": invalid reference format`).
 */
export function isImageReference(s: string): boolean {
  return REFERENCE_RE.test(s);
}

/**
 * Parse and normalise an image reference the way containerd's CRI plugin does
 * (`reference.ParseDockerRef`): default domain `docker.io`, default namespace `library/` for
 * single-component Docker Hub names, default tag `latest` when there is neither tag nor digest,
 * and a tag dropped when a digest is also given.
 *
 * Errors: throws `ImageReferenceError` with `invalid reference format` (bad characters, empty,
 * bad tag or digest), `invalid reference format: repository name must be lowercase`, or
 * `invalid repository name (X), cannot specify 64-byte hexadecimal strings` for a bare image ID.
 *
 * The result is shared by every call with the same input: read only.
 */
export function parseImageRef(input: string): ImageRef {
  // A pure function of `input`: a parsed reference is kept by its input and handed out again
  // (performance only: the kubelet and containerd parse a pod's image five times per container
  // start; no caller changes the result). Failures are not kept (each throws a new error).
  let r = parsedRefs.get(input);
  if (r === undefined) {
    r = parseImageRefUncached(input);
    if (parsedRefs.size >= PARSED_REFS_MAX) parsedRefs.clear();
    parsedRefs.set(input, r);
  }
  return r;
}

/** `parseImageRef`'s results by input (bounded: cleared when full). */
const parsedRefs = new Map<string, ImageRef>();
/** Most inputs `parsedRefs` keeps. */
const PARSED_REFS_MAX = 1024;

function parseImageRefUncached(input: string): ImageRef {
  const s = input.trim();
  if (s === '') throw new ImageReferenceError('repository name must have at least one component');
  if (HEX64_RE.test(s)) throw new ImageReferenceError(`invalid repository name (${s}), cannot specify 64-byte hexadecimal strings`);
  // splitDockerDomain: the first component is a domain when it has '.' or ':' or is localhost
  // (or has upper case, which then fails the lowercase rule of the remainder).
  const slash = s.indexOf('/');
  let domain: string;
  let remainder: string;
  const first = slash === -1 ? '' : s.slice(0, slash);
  if (slash === -1 || (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first)) {
    domain = 'docker.io';
    remainder = s;
  } else {
    domain = first;
    remainder = s.slice(slash + 1);
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  const full = `${domain}/${remainder}`;
  const m = REFERENCE_RE.exec(full);
  if (!m) {
    if (REFERENCE_RE.exec(full.toLowerCase())) throw new ImageReferenceError(REFERENCE_UPPERCASE);
    throw new ImageReferenceError(INVALID_REFERENCE_FORMAT);
  }
  const repository = m[1];
  if (repository.length > 255) throw new ImageReferenceError('repository name must not be more than 255 characters');
  const digest = m[3];
  if (digest !== undefined && digest.startsWith('sha256:') && !HEX64_RE.test(digest.slice(7))) {
    throw new ImageReferenceError(INVALID_REFERENCE_FORMAT);
  }
  const tag = digest ? undefined : (m[2] ?? 'latest');
  const path = repository.slice(domain.length + 1);
  return {
    original: input,
    domain,
    path,
    repository,
    ...(tag !== undefined ? { tag } : {}),
    ...(digest !== undefined ? { digest } : {}),
    ref: digest ? `${repository}@${digest}` : `${repository}:${tag}`,
  };
}

/**
 * The kubelet's default pull policy for an image string (pkg/apis/core/v1/defaults.go):
 * `Always` when the tag is `latest` or there is no tag and no digest, else `IfNotPresent`.
 * Returns undefined for an unparsable reference.
 */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' | undefined {
  try {
    const r = parseImageRef(image);
    return r.tag === 'latest' ? 'Always' : 'IfNotPresent';
  } catch {
    return undefined;
  }
}

/** What a container image's config says about the process it runs (OCI image config). */
export interface ImageConfig {
  /** `ENTRYPOINT`. */
  entrypoint?: readonly string[];
  /** `CMD`. */
  cmd?: readonly string[];
  /** `ENV` as `NAME=value`. */
  env?: readonly string[];
  workingDir?: string;
  /** `USER`, e.g. `10001`; default root. */
  user?: string;
  /** `STOPSIGNAL` (containerd's StopContainer sends it instead of SIGTERM), e.g. `SIGQUIT` for nginx. */
  stopSignal?: string;
  /** `EXPOSE`d TCP ports. */
  exposedPorts?: readonly number[];
}

/**
 * The userland an image ships, which decides which commands `kubectl exec` finds and how their
 * errors read: `busybox` (busybox/alpine applets, `sh` is ash, no bash), `debian` (bash, dash as
 * sh, GNU coreutils), `distroless` (no shell at all: kube-apiserver, coredns, kube-proxy ...),
 * `scratch` (only the one binary).
 */
export type Userland = 'busybox' | 'debian' | 'distroless' | 'scratch';

/** One image as a registry or a node's image store knows it. */
export interface ImageRecord {
  /** `domain/path`, e.g. `docker.io/library/nginx`. */
  repository: string;
  /** The tag it was resolved by (`latest`, `1.27`), or undefined for digest-only refs. */
  tag?: string;
  /** Manifest (repo) digest, `sha256:<64 hex>`. */
  digest: string;
  /** Image ID (config digest), `sha256:<64 hex>`: what `crictl images` shows truncated. */
  id: string;
  /** Size in bytes as CRI reports it (compressed layers). */
  size: number;
  config: ImageConfig;
  userland: Userland;
  /** Extra commands the image has beyond its userland (`curl`, `pg_isready`, `redis-cli` ...). */
  binaries: readonly string[];
  /** True when the userland and binaries are known completely (unknown commands are "not found"). */
  binariesComplete: boolean;
  /** A hint for the program models (`nginx`, `postgres`, `bookshop`, ...); see programs.ts. */
  family: string;
  /** The application version the image carries (`1.27.5`, `v1`), for log lines. */
  version: string;
}

/** A tag of a repository in the registry table. */
interface TagInfo {
  size: number;
  /** Another tag of the same repository this one points to (same digest and ID). */
  alias?: string;
  /** A known real manifest digest (pinned by a manifest in the corpus). */
  digest?: string;
  /** Override of the repository's version for this tag. */
  version?: string;
}

/** A repository in a registry table. */
export interface RepositoryInfo {
  /** `domain/path`. */
  repository: string;
  tags: Record<string, TagInfo>;
  /** Tags matching this pattern exist too (synthesised size = `patternSize`), e.g. any `v1.x.y`. */
  tagPattern?: RegExp;
  patternSize?: number;
  config: ImageConfig;
  userland: Userland;
  binaries?: readonly string[];
  binariesComplete?: boolean;
  family: string;
  /** Pulls fail with `pull access denied` unless credentials for the registry are given. */
  private?: boolean;
}

const MB = 1_000_000;

/** The nginx image's userland extras: the Debian image ships curl. */
const DEBIAN_NGINX = ['curl', 'nginx', 'docker-entrypoint.sh'];

/**
 * The public repositories the simulated registries serve. Each entry lists the tags that
 * exist with their compressed amd64 sizes; tags marked `alias` share the aliased tag's image.
 * Sources: the images' Docker Hub / registry pages (sizes rounded to realistic values), the
 * images' Dockerfiles for ENTRYPOINT/CMD/STOPSIGNAL, the corpus manifests for what must exist.
 */
export const PUBLIC_REPOSITORIES: readonly RepositoryInfo[] = [
  // ---- Docker Hub official images -------------------------------------------------------
  {
    repository: 'docker.io/library/nginx',
    family: 'nginx',
    userland: 'debian',
    binaries: DEBIAN_NGINX,
    binariesComplete: true,
    config: { entrypoint: ['/docker-entrypoint.sh'], cmd: ['nginx', '-g', 'daemon off;'], stopSignal: 'SIGQUIT', exposedPorts: [80] },
    tags: {
      '1.14.2': { size: 44_710_204 },
      '1.16.1': { size: 51_030_575 },
      '1.19': { size: 53_611_226, version: '1.19.10' },
      // Each minor line's tag points at its last release (nginx.org CHANGES: 1.20.2, 1.21.6,
      // 1.22.1, 1.23.4, 1.24.0); tutorials set these (`kubectl set image ... nginx=nginx:1.21`).
      '1.20': { size: 54_212_430, version: '1.20.2' },
      '1.21': { size: 56_731_912, version: '1.21.6' },
      '1.22': { size: 56_877_304, version: '1.22.1' },
      '1.23': { size: 57_012_866, version: '1.23.4' },
      '1.24': { size: 67_266_180, version: '1.24.0' },
      '1.25': { size: 70_520_136, version: '1.25.5' },
      '1.26': { size: 71_010_466, version: '1.26.3' },
      '1.27': { size: 72_099_410, version: '1.27.5' },
      '1.27.5': { size: 72_099_410, alias: '1.27' },
      '1.28': { size: 72_225_394, version: '1.28.0' },
      '1.28.0': { size: 72_225_394, alias: '1.28' },
      '1.29': { size: 72_326_521, version: '1.29.1' },
      '1.29.1': { size: 72_326_521, alias: '1.29' },
      stable: { size: 72_225_394, alias: '1.28' },
      mainline: { size: 72_326_521, alias: '1.29' },
      latest: { size: 72_326_521, alias: '1.29' },
      alpine: { size: 21_554_301, version: '1.29.1' },
      '1.27-alpine': { size: 20_950_012, version: '1.27.5' },
    },
    // Any 1.2x.y release tag (nginx:1.21.6, nginx:1.25.3, nginx:1.27.0 ...); the docs' typo
    // nginx:1.161 and other made-up tags still fail with `not found`.
    tagPattern: /^1\.2\d\.\d{1,2}$/,
    patternSize: 62 * MB,
  },
  {
    repository: 'docker.io/library/busybox',
    family: 'busybox',
    userland: 'busybox',
    binariesComplete: true,
    config: { cmd: ['sh'] },
    tags: {
      '1.28': { size: 727_869, version: '1.28.4' },
      '1.35': { size: 2_217_894, version: '1.35.0' },
      '1.36': { size: 2_219_913, version: '1.36.1' },
      '1.36.1': { size: 2_219_913, alias: '1.36' },
      '1.37': { size: 2_222_260, version: '1.37.0' },
      '1.37.0': { size: 2_222_260, alias: '1.37' },
      stable: { size: 2_222_260, alias: '1.37' },
      latest: { size: 2_222_260, alias: '1.37' },
    },
  },
  {
    repository: 'docker.io/library/alpine',
    family: 'alpine',
    userland: 'busybox',
    binaries: ['apk'],
    binariesComplete: true,
    config: { cmd: ['/bin/sh'] },
    tags: {
      '3.19': { size: 3_420_881, version: '3.19.8' },
      '3.20': { size: 3_626_898, version: '3.20.7' },
      '3.21': { size: 3_642_247, version: '3.21.4' },
      '3.22': { size: 3_799_891, version: '3.22.1' },
      latest: { size: 3_799_891, alias: '3.22' },
      '3': { size: 3_799_891, alias: '3.22' },
      '3.18': { size: 3_408_711, version: '3.18.12' },
    },
    tagPattern: /^3\.(?:1[0-9]|2[0-2])(?:\.\d{1,2})?$/,
    patternSize: 3_600_000,
  },
  {
    repository: 'docker.io/library/ubuntu',
    family: 'ubuntu',
    userland: 'debian',
    binariesComplete: true,
    config: { cmd: ['/bin/bash'] },
    tags: {
      '22.04': { size: 29_537_710 },
      jammy: { size: 29_537_710, alias: '22.04' },
      '24.04': { size: 29_723_147 },
      noble: { size: 29_723_147, alias: '24.04' },
      latest: { size: 29_723_147, alias: '24.04' },
      '20.04': { size: 27_508_103 },
      focal: { size: 27_508_103, alias: '20.04' },
    },
  },
  {
    repository: 'docker.io/library/debian',
    family: 'debian',
    userland: 'debian',
    binariesComplete: true,
    config: { cmd: ['bash'] },
    tags: {
      bookworm: { size: 48_494_272, version: '12.11' },
      '12': { size: 48_494_272, alias: 'bookworm' },
      'bookworm-slim': { size: 28_230_421, version: '12.11' },
      trixie: { size: 49_280_112, version: '13.0' },
      latest: { size: 49_280_112, alias: 'trixie' },
    },
  },
  {
    repository: 'docker.io/library/bash',
    family: 'bash',
    userland: 'busybox',
    binaries: ['bash', 'docker-entrypoint.sh'],
    binariesComplete: true,
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['bash'] },
    tags: {
      '5': { size: 6_148_001, version: '5.2.37' },
      '5.2': { size: 6_148_001, alias: '5' },
      latest: { size: 6_148_001, alias: '5' },
    },
  },
  {
    repository: 'docker.io/library/perl',
    family: 'perl',
    userland: 'debian',
    binaries: ['perl', 'curl', 'wget', 'git'],
    binariesComplete: true,
    config: { cmd: ['perl5.40.2', '-de0'] },
    tags: {
      '5.40': { size: 354_392_215, version: '5.40.2' },
      '5.40.2': { size: 354_392_215, alias: '5.40' },
      '5.38': { size: 351_904_118, version: '5.38.4' },
      'slim': { size: 51_660_420, version: '5.40.2' },
      latest: { size: 354_392_215, alias: '5.40' },
    },
    // Every stable release line has its tags (`5.34`, `5.34.0`, `5.34.0-slim`): the Job example of
    // the docs pins `perl:5.34.0`. Stable perl minors are even (perlpolicy).
    tagPattern: /^5\.(?:[0-9]*[02468])(?:\.\d{1,2})?(?:-slim)?(?:-(?:bookworm|bullseye|buster))?$/,
    patternSize: 340 * MB,
  },
  {
    repository: 'docker.io/library/postgres',
    family: 'postgres',
    userland: 'debian',
    binaries: ['postgres', 'psql', 'pg_isready', 'pg_ctl', 'initdb', 'gosu', 'docker-entrypoint.sh'],
    binariesComplete: true,
    config: {
      entrypoint: ['docker-entrypoint.sh'],
      cmd: ['postgres'],
      stopSignal: 'SIGINT',
      exposedPorts: [5432],
      env: ['PGDATA=/var/lib/postgresql/data'],
    },
    tags: {
      '15': { size: 154_998_123, version: '15.13' },
      '16': { size: 158_120_409, version: '16.9' },
      '16-alpine': { size: 105_305_118, version: '16.9' },
      '17': { size: 158_734_902, version: '17.5' },
      '17-alpine': { size: 108_051_277, version: '17.5' },
      '17.5-alpine': { size: 108_051_277, alias: '17-alpine' },
      '18': { size: 160_127_754, version: '18.0' },
      latest: { size: 160_127_754, alias: '18' },
      '13': { size: 150_330_118, version: '13.21' },
      '14': { size: 152_441_902, version: '14.18' },
      '15-alpine': { size: 102_770_004, version: '15.13' },
      '16.9': { size: 158_120_409, alias: '16' },
      alpine: { size: 109_004_338, version: '18.0' },
    },
    tagPattern: /^(?:1[2-8])(?:\.\d{1,2})?(?:-(?:alpine(?:3\.\d+)?|bookworm|bullseye|trixie))?$/,
    patternSize: 155 * MB,
  },
  {
    repository: 'docker.io/library/redis',
    family: 'redis',
    userland: 'debian',
    binaries: ['redis-server', 'redis-cli', 'gosu', 'docker-entrypoint.sh'],
    binariesComplete: true,
    config: { entrypoint: ['docker-entrypoint.sh'], cmd: ['redis-server'], exposedPorts: [6379] },
    tags: {
      '6.2': { size: 40_111_210, version: '6.2.19' },
      '7.2': { size: 40_771_932, version: '7.2.10' },
      '7.4': { size: 45_430_561, version: '7.4.5' },
      '8.0': { size: 52_890_773, version: '8.0.3' },
      alpine: { size: 17_410_338, version: '8.0.3' },
      '7-alpine': { size: 16_908_117, version: '7.4.5' },
      latest: { size: 52_890_773, alias: '8.0' },
      '6': { size: 40_111_210, alias: '6.2' },
      '7': { size: 45_430_561, alias: '7.4' },
      '8': { size: 52_890_773, alias: '8.0' },
      '7.0': { size: 40_602_118, version: '7.0.15' },
    },
    // Every patch and variant of the supported lines (`7.4.5`, `7.2-alpine`, `8.0.3-bookworm`).
    tagPattern: /^(?:6\.[02]|7\.[024]|8\.[0-2])(?:\.\d{1,2})?(?:-(?:alpine(?:3\.\d+)?|bookworm))?$/,
    patternSize: 45 * MB,
  },
  {
    repository: 'docker.io/library/httpd',
    family: 'httpd',
    userland: 'debian',
    binaries: ['httpd', 'httpd-foreground', 'apachectl'],
    binariesComplete: true,
    config: { cmd: ['httpd-foreground'], stopSignal: 'SIGWINCH', exposedPorts: [80] },
    tags: {
      '2.4': { size: 58_422_304, version: '2.4.65' },
      '2.4.65': { size: 58_422_304, alias: '2.4' },
      alpine: { size: 22_104_776, version: '2.4.65' },
      latest: { size: 58_422_304, alias: '2.4' },
      '2': { size: 58_422_304, alias: '2.4' },
      '2.4-alpine': { size: 22_104_776, version: '2.4.65' },
    },
    tagPattern: /^2\.4(?:\.\d{1,2})?(?:-(?:alpine(?:3\.\d+)?|bookworm))?$/,
    patternSize: 58 * MB,
  },
  {
    repository: 'docker.io/library/python',
    family: 'python',
    userland: 'debian',
    binaries: ['python', 'python3', 'pip', 'curl', 'wget'],
    binariesComplete: true,
    config: { cmd: ['python3'] },
    tags: {
      '3.12': { size: 383_120_402, version: '3.12.11' },
      '3.13': { size: 385_004_811, version: '3.13.5' },
      '3.13-slim': { size: 43_021_556, version: '3.13.5' },
      latest: { size: 385_004_811, alias: '3.13' },
      '3': { size: 385_004_811, alias: '3.13' },
      '3.9': { size: 370_112_056, version: '3.9.23' },
      '3.10': { size: 372_508_144, version: '3.10.18' },
      '3.11': { size: 378_330_620, version: '3.11.13' },
      slim: { size: 43_021_556, version: '3.13.5' },
      alpine: { size: 17_661_230, version: '3.13.5' },
    },
    tagPattern: /^3(?:\.\d{1,2}){1,2}(?:-(?:slim|alpine(?:3\.\d+)?|bookworm|bullseye|trixie|slim-bookworm|slim-bullseye|slim-trixie))?$/,
    patternSize: 380 * MB,
  },
  // ---- Docker Hub, other namespaces -----------------------------------------------------
  {
    repository: 'docker.io/kindest/kindnetd',
    family: 'kindnetd',
    userland: 'distroless',
    config: { entrypoint: ['/bin/kindnetd'] },
    tags: {
      'v20250214-acbabc1a': { size: 38_996_835 },
      'v20250512-df8de77b': { size: 44_375_501 },
      'v20251212-a2f6fe2d': { size: 45_201_774 },
    },
  },
  {
    repository: 'docker.io/kindest/local-path-provisioner',
    family: 'local-path-provisioner',
    userland: 'distroless',
    config: { entrypoint: ['local-path-provisioner'] },
    tags: {
      'v20250214-acbabc1a': { size: 22_541_737 },
      'v20251212-a2f6fe2d': { size: 22_988_104 },
    },
  },
  {
    repository: 'docker.io/kindest/local-path-helper',
    family: 'busybox',
    userland: 'busybox',
    binariesComplete: true,
    config: { cmd: ['sh'] },
    tags: { 'v20241212-8ac705d0': { size: 3_084_671 }, 'v20251212-a2f6fe2d': { size: 3_102_256 } },
  },
  {
    repository: 'docker.io/polinux/stress',
    family: 'stress',
    userland: 'busybox',
    binaries: ['stress'],
    binariesComplete: true,
    config: { cmd: ['stress', '--help'] },
    tags: { latest: { size: 4_041_540, version: '1.0.4' }, '1.0.4': { size: 4_041_540, alias: 'latest' } },
  },
  {
    repository: 'docker.io/vish/stress',
    family: 'vish-stress',
    userland: 'scratch',
    config: { entrypoint: ['/stress', '-logtostderr'] },
    tags: { latest: { size: 1_227_324 } },
  },
  // ---- registry.k8s.io ------------------------------------------------------------------
  {
    repository: 'registry.k8s.io/pause',
    family: 'pause',
    userland: 'scratch',
    config: { entrypoint: ['/pause'] },
    tags: {
      // 3.1: the "Debug Running Pods" page's `kubectl run ephemeral-demo --image=registry.k8s.io/pause:3.1`.
      '3.1': { size: 317_164 },
      '3.2': { size: 299_513 },
      '3.5': { size: 301_416 },
      '3.6': { size: 301_773 },
      '3.7': { size: 311_278 },
      '3.8': { size: 311_286 },
      '3.9': { size: 321_520 },
      '3.10': { size: 320_368 },
      '3.10.1': { size: 320_448 },
    },
  },
  {
    repository: 'registry.k8s.io/etcd',
    family: 'etcd',
    userland: 'distroless',
    binaries: ['etcd', 'etcdctl', 'etcdutl'],
    config: { cmd: ['/usr/local/bin/etcd'] },
    tags: {
      '3.5.15-0': { size: 56_909_194 },
      '3.5.16-0': { size: 57_680_541 },
      '3.5.21-0': { size: 58_938_593 },
      '3.6.4-0': { size: 74_311_308 },
      '3.6.5-0': { size: 74_520_112 },
      '3.6.6-0': { size: 74_893_027 },
    },
  },
  ...(['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'] as const).map(
    (name): RepositoryInfo => ({
      repository: `registry.k8s.io/${name}`,
      family: name,
      userland: 'distroless',
      binaries: [name],
      config: { entrypoint: [`/usr/local/bin/${name}`] },
      tags: {},
      // Every released version exists; sizes of the control-plane images barely move.
      tagPattern: /^v1\.\d+\.\d+$/,
      patternSize: { 'kube-apiserver': 28_987_331, 'kube-controller-manager': 26_502_617, 'kube-scheduler': 20_651_014, 'kube-proxy': 30_864_721 }[name],
    }),
  ),
  {
    repository: 'registry.k8s.io/coredns/coredns',
    family: 'coredns',
    userland: 'distroless',
    config: { entrypoint: ['/coredns'], exposedPorts: [53] },
    tags: {
      'v1.11.1': { size: 18_182_961 },
      'v1.11.3': { size: 18_562_039 },
      'v1.12.0': { size: 20_939_036 },
      'v1.12.1': { size: 22_384_805 },
      'v1.13.1': { size: 23_001_442 },
    },
  },
  {
    repository: 'registry.k8s.io/ingress-nginx/controller',
    family: 'ingress-nginx',
    userland: 'busybox',
    binaries: ['nginx', 'nginx-ingress-controller', 'wait-shutdown', 'dumb-init', 'curl'],
    config: { entrypoint: ['/usr/bin/dumb-init', '--'], cmd: ['/nginx-ingress-controller'], user: '101', stopSignal: 'SIGTERM', exposedPorts: [80, 443] },
    tags: {
      'v1.12.1': { size: 104_480_112 },
      'v1.13.0': { size: 106_771_530 },
      'v1.15.1': { size: 110_338_208, digest: 'sha256:594ceea76b01c592858f803f9ff4d2cb40542cae2060410b2c95f75907d659e1' },
    },
  },
  {
    repository: 'registry.k8s.io/ingress-nginx/kube-webhook-certgen',
    family: 'kube-webhook-certgen',
    userland: 'distroless',
    config: { entrypoint: ['/kube-webhook-certgen'], user: '65532' },
    tags: {
      'v1.5.2': { size: 27_001_630 },
      'v1.6.9': { size: 28_412_107, digest: 'sha256:01038e7de14b78d702d2849c3aad72fd25903c4765af63cf16aa3398f5d5f2dd' },
    },
  },
  {
    repository: 'registry.k8s.io/e2e-test-images/agnhost',
    family: 'agnhost',
    userland: 'busybox',
    binaries: ['agnhost', 'curl'],
    config: { entrypoint: ['/agnhost'], cmd: ['pause'] },
    tags: {
      '2.39': { size: 51_105_200 },
      '2.40': { size: 51_182_144 },
      '2.43': { size: 51_410_778 },
      '2.47': { size: 52_102_934 },
      '2.52': { size: 53_001_826 },
      '2.53': { size: 53_140_522 },
    },
    tagPattern: /^2\.(?:[2-5]\d)$/,
    patternSize: 52 * MB,
  },
  {
    repository: 'registry.k8s.io/e2e-test-images/echoserver',
    family: 'echoserver',
    userland: 'debian',
    binaries: ['nginx'],
    config: { cmd: ['/usr/local/bin/run.sh'], exposedPorts: [8080, 8443] },
    tags: { '2.3': { size: 42_987_005 }, '2.5': { size: 43_312_668 } },
  },
  {
    repository: 'registry.k8s.io/echoserver',
    family: 'echoserver',
    userland: 'debian',
    binaries: ['nginx'],
    config: { cmd: ['/usr/local/bin/run.sh'], exposedPorts: [8080, 8443] },
    tags: { '1.4': { size: 46_181_318 }, '1.10': { size: 46_610_110 } },
  },
  {
    repository: 'registry.k8s.io/busybox',
    family: 'busybox',
    userland: 'busybox',
    binariesComplete: true,
    config: { cmd: ['sh'] },
    tags: { '1.24': { size: 676_941, version: '1.24.0' }, '1.27.2': { size: 718_009, version: '1.27.2' }, latest: { size: 718_009, alias: '1.27.2' } },
  },
  {
    repository: 'registry.k8s.io/goproxy',
    family: 'goproxy',
    userland: 'scratch',
    config: { cmd: ['/goproxy'], exposedPorts: [8080] },
    tags: { '0.1': { size: 2_368_108 } },
  },
  {
    repository: 'registry.k8s.io/nginx-slim',
    family: 'nginx',
    userland: 'debian',
    binaries: ['nginx'],
    config: { cmd: ['nginx', '-g', 'daemon off;'], exposedPorts: [80, 443] },
    tags: {
      '0.7': { size: 36_011_228, version: '1.9.7' },
      '0.8': { size: 36_105_110, version: '1.11.1' },
      // The StatefulSet docs' tags (concepts/workloads/controllers/statefulset: 0.24; the
      // basic-stateful-set tutorial's web.yaml: 0.21, its rolling update: 0.24). The nginx
      // version inside them is not known here, so it is left as the tag.
      '0.20': { size: 37_862_035 },
      '0.21': { size: 38_004_912 },
      '0.24': { size: 39_120_553 },
      '0.26': { size: 40_774_391 },
      '0.27': { size: 41_330_617, version: '1.23.2' },
    },
  },
  {
    repository: 'registry.k8s.io/kubernetes-zookeeper',
    family: 'zookeeper',
    userland: 'debian',
    binaries: ['start-zookeeper', 'zookeeper-ready', 'java'],
    config: { cmd: ['start-zookeeper'], exposedPorts: [2181, 2888, 3888] },
    tags: { '1.0-3.4.10': { size: 297_408_130, version: '3.4.10' } },
  },
  {
    repository: 'registry.k8s.io/redis',
    family: 'redis',
    userland: 'busybox',
    binaries: ['redis-server', 'redis-cli'],
    config: { cmd: ['redis-server'], exposedPorts: [6379] },
    tags: { e2e: { size: 18_732_611, version: '3.2.12' } },
  },
  {
    repository: 'registry.k8s.io/kubectl',
    family: 'kubectl',
    userland: 'distroless',
    binaries: ['kubectl'],
    config: { entrypoint: ['kubectl'] },
    tags: {},
    tagPattern: /^v1\.\d+\.\d+$/,
    patternSize: 17_118_540,
  },
  {
    repository: 'registry.k8s.io/metrics-server/metrics-server',
    family: 'metrics-server',
    userland: 'distroless',
    config: { entrypoint: ['/metrics-server'], user: '65534' },
    tags: { 'v0.7.2': { size: 19_494_617 }, 'v0.8.0': { size: 20_390_550 } },
  },
  // Legacy k8s.gcr.io (frozen, redirected): the two images the corpus names.
  {
    repository: 'k8s.gcr.io/pause',
    family: 'pause',
    userland: 'scratch',
    config: { entrypoint: ['/pause'] },
    tags: { '2.0': { size: 350_164 }, '3.1': { size: 317_164 }, '3.2': { size: 299_513 } },
  },
  {
    repository: 'k8s.gcr.io/fluentd-elasticsearch',
    family: 'fluentd',
    userland: 'debian',
    binaries: ['td-agent', 'fluentd'],
    config: { entrypoint: ['/entrypoint.sh'] },
    tags: { '1.20': { size: 88_303_556 } },
  },
  // ---- gcr.io ---------------------------------------------------------------------------
  {
    repository: 'gcr.io/google-samples/gb-frontend',
    family: 'guestbook-frontend',
    userland: 'debian',
    binaries: ['apache2-foreground', 'php'],
    config: { cmd: ['apache2-foreground'], exposedPorts: [80] },
    tags: { v4: { size: 128_017_315 }, v5: { size: 130_340_201 }, v6: { size: 131_118_876 } },
  },
  {
    repository: 'gcr.io/google_samples/gb-redisslave',
    family: 'redis',
    userland: 'debian',
    binaries: ['redis-server', 'redis-cli'],
    config: { cmd: ['/run.sh'], exposedPorts: [6379] },
    tags: { v1: { size: 38_110_427, version: '2.8.19' }, v3: { size: 39_005_561, version: '3.2.1' } },
  },
  {
    repository: 'gcr.io/google-samples/cassandra',
    family: 'cassandra',
    userland: 'debian',
    binaries: ['java', 'nodetool', 'cassandra', 'run.sh', 'ready-probe.sh'],
    config: { cmd: ['/usr/local/apache-cassandra/bin/run.sh'], exposedPorts: [7000, 7001, 7199, 9042] },
    tags: { v13: { size: 158_772_660, version: '3.11.2' }, v14: { size: 161_004_321, version: '3.11.2' } },
  },
  {
    repository: 'gcr.io/google-samples/hello-app',
    family: 'hello-app',
    userland: 'scratch',
    config: { cmd: ['/hello-app'], exposedPorts: [8080] },
    tags: { '1.0': { size: 4_331_812 }, '2.0': { size: 4_332_060 } },
  },
  {
    // The Kubernetes Basics tutorial's image: `FROM node:6.3.1`, `COPY server.js .`,
    // `CMD node server.js` (shell form); node:6's Debian userland has bash and curl (the
    // tutorial's `kubectl exec -ti $POD_NAME -- bash` then `curl http://localhost:8080`).
    repository: 'gcr.io/google-samples/kubernetes-bootcamp',
    family: 'kubernetes-bootcamp',
    userland: 'debian',
    binaries: ['node', 'npm', 'curl', 'wget', 'bash'],
    config: { cmd: ['/bin/sh', '-c', 'node server.js'], env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'NPM_CONFIG_LOGLEVEL=info', 'NODE_VERSION=6.3.1'], exposedPorts: [8080] },
    tags: { v1: { size: 71_310_040 } },
  },
  {
    // The tutorial's rolling-update image (`kubectl set image deployments/kubernetes-bootcamp
    // kubernetes-bootcamp=docker.io/jocatalin/kubernetes-bootcamp:v2`): the same app answering v=2.
    repository: 'docker.io/jocatalin/kubernetes-bootcamp',
    family: 'kubernetes-bootcamp',
    userland: 'debian',
    binaries: ['node', 'npm', 'curl', 'wget', 'bash'],
    config: { cmd: ['/bin/sh', '-c', 'node server.js'], env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'NPM_CONFIG_LOGLEVEL=info', 'NODE_VERSION=6.3.1'], exposedPorts: [8080] },
    tags: { v1: { size: 71_310_040 }, v2: { size: 71_310_131 } },
  },
  {
    repository: 'gcr.io/kuar-demo/kuard-amd64',
    family: 'kuard',
    userland: 'busybox',
    binaries: ['kuard'],
    config: { entrypoint: ['/kuard'], exposedPorts: [8080] },
    tags: { '1': { size: 9_977_911, version: 'v0.10.0-blue' }, blue: { size: 9_977_911, alias: '1' }, green: { size: 9_977_998, version: 'v0.10.0-green' } },
  },
  // ---- quay.io --------------------------------------------------------------------------
  ...(['controller', 'cainjector', 'webhook', 'acmesolver', 'startupapicheck'] as const).map(
    (part): RepositoryInfo => ({
      repository: `quay.io/jetstack/cert-manager-${part}`,
      family: `cert-manager-${part}`,
      userland: 'distroless',
      config: { entrypoint: [`/app/cmd/${part}/${part}`], user: '1000' },
      tags: {
        'v1.17.2': { size: { controller: 19_004_532, cainjector: 14_872_304, webhook: 16_120_455, acmesolver: 8_101_227, startupapicheck: 12_330_108 }[part] },
        'v1.18.2': { size: { controller: 19_405_114, cainjector: 15_090_641, webhook: 16_388_720, acmesolver: 8_204_662, startupapicheck: 12_515_390 }[part] },
        'v1.19.1': { size: { controller: 19_877_102, cainjector: 15_312_998, webhook: 16_701_004, acmesolver: 8_330_218, startupapicheck: 12_704_441 }[part] },
      },
    }),
  ),
  {
    repository: 'quay.io/brancz/prometheus-example-app',
    family: 'prometheus-example-app',
    userland: 'busybox',
    config: { entrypoint: ['/bin/prometheus-example-app'], exposedPorts: [8080] },
    tags: { 'v0.5.0': { size: 11_307_524 } },
  },
  {
    repository: 'quay.io/prometheus-operator/prometheus-operator',
    family: 'prometheus-operator',
    userland: 'distroless',
    config: { entrypoint: ['/bin/operator'], user: '65534', exposedPorts: [8080] },
    tags: { 'v0.93.0': { size: 20_873_005 } },
  },
  {
    repository: 'quay.io/prometheus-operator/prometheus-config-reloader',
    family: 'generic',
    userland: 'distroless',
    config: { entrypoint: ['/bin/prometheus-config-reloader'], user: '65534' },
    tags: { 'v0.93.0': { size: 6_190_337 } },
  },
  {
    repository: 'quay.io/fluentd_elasticsearch/fluentd',
    family: 'fluentd',
    userland: 'debian',
    binaries: ['fluentd'],
    config: { entrypoint: ['/entrypoint.sh'] },
    tags: { 'v4.7.5': { size: 120_330_918 }, 'v5.0.1': { size: 125_611_402 } },
  },
  // Databases, runtimes and tutorial images: registry-extra.ts.
  ...EXTRA_PUBLIC_REPOSITORIES,
];

/**
 * Images built on the developer's machine (`docker build`) and loaded with `kind load
 * docker-image`: in no registry, so pulling them fails. The bookshop image is `FROM alpine:3.21`
 * plus curl and the three Go binaries, `USER 10001`, `CMD ["/usr/local/bin/catalog"]`
 * (k8s-bookshop Dockerfile); the controller image is alpine + kubectl with `ENTRYPOINT
 * ["/bin/sh"]` (controller/Dockerfile).
 */
export const LOCAL_BUILD_REPOSITORIES: readonly RepositoryInfo[] = [
  {
    repository: 'docker.io/library/bookshop',
    family: 'bookshop',
    userland: 'busybox',
    binaries: ['curl', 'catalog', 'orders', 'web', 'apk'],
    binariesComplete: true,
    config: { cmd: ['/usr/local/bin/catalog'], user: '10001', exposedPorts: [8080] },
    tags: { v1: { size: 14_882_316 }, v2: { size: 14_882_402 } },
  },
  {
    repository: 'docker.io/library/bookshop-controller',
    family: 'bookshop-controller',
    userland: 'busybox',
    binaries: ['curl', 'kubectl', 'apk'],
    binariesComplete: true,
    config: { entrypoint: ['/bin/sh'] },
    tags: { v1: { size: 31_220_874 } },
  },
];

/** A pull that failed, with containerd's error (`desc` of the CRI status) and its gRPC code. */
export interface PullFailure {
  ok: false;
  /** gRPC status code name as printed in `rpc error: code = <code>`. */
  code: 'NotFound' | 'Unknown';
  /** containerd's message, e.g. `failed to pull and unpack image "...": failed to resolve reference "...": ...: not found`. */
  message: string;
  /** Virtual ms until the failure is known (resolution latency). */
  latencyMs: number;
}

/** A pull that will succeed. */
export interface PullSuccess {
  ok: true;
  image: ImageRecord;
  /** Virtual ms the pull takes (resolve + download + unpack). */
  durationMs: number;
}

/** Options of `ImageRegistry`. */
export interface RegistryOptions {
  /**
   * Download bandwidth in bytes per second. Default 20 MB/s (a typical laptop pulling from
   * Docker Hub through kind; the kubelet event for busybox 2.2 MB says ~1 s, nginx ~5 s).
   */
  bytesPerSecond?: number;
  /** Unpack (decompress + snapshot) speed in bytes per second. Default 100 MB/s. */
  unpackBytesPerSecond?: number;
  /** Resolve latency (token + manifest round trips) in ms per registry host; default 600 ms for docker.io, 300 ms otherwise. */
  latencyMs?: Record<string, number>;
  /** Repositories served; default `PUBLIC_REPOSITORIES`. */
  repositories?: readonly RepositoryInfo[];
}

/** Default download bandwidth, bytes/s. */
export const DEFAULT_PULL_BYTES_PER_SECOND = 20 * MB;
/** Default unpack speed, bytes/s. */
export const DEFAULT_UNPACK_BYTES_PER_SECOND = 100 * MB;

/** The network's DNS server as a kind node sees it (Docker network gateway); used in lookup errors. */
export const NODE_DNS_SERVER = '172.18.0.1:53';

/** Registry hosts that exist (others fail DNS resolution from the node). */
const KNOWN_HOSTS = new Set(['docker.io', 'registry.k8s.io', 'k8s.gcr.io', 'gcr.io', 'quay.io', 'ghcr.io', 'registry-1.docker.io', 'mcr.microsoft.com', 'public.ecr.aws', 'us-docker.pkg.dev']);

/** The eight rounds' FNV-1a start states of `syntheticDigestHex` (int32 bit patterns). */
const DIGEST_INIT = Array.from({ length: 8 }, (_, round) => (0x811c9dc5 ^ Math.imul(round + 1, 0x9e3779b1)) | 0);

/** Lowercase hex digit codes. */
const HEX_DIGIT_CODES: readonly number[] = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** `syntheticDigestHex`'s code buffer (64 hex digits; filled and read within one call). */
const DIGEST_CODES: number[] = new Array<number>(64).fill(0);

/**
 * murmur3's fmix32 of one round's state, as 8 lowercase hex digits (its unsigned value, most
 * significant digit first) written into `DIGEST_CODES` from `at`.
 */
function fmix32Hex(h: number, at: number): void {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  for (let k = 7; k >= 0; k--) {
    DIGEST_CODES[at + k] = HEX_DIGIT_CODES[h & 15];
    h >>>= 4;
  }
}

/**
 * A deterministic stand-in for a sha256 of `seed`: 64 lowercase hex digits from eight rounds of
 * a 32-bit mixing function. Not cryptographic; only stable and well spread.
 */
export function syntheticDigestHex(seed: string): string {
  // The eight rounds' FNV-1a states advance together in one pass over the seed, in locals (the
  // same values as eight passes; performance only).
  let h0 = DIGEST_INIT[0];
  let h1 = DIGEST_INIT[1];
  let h2 = DIGEST_INIT[2];
  let h3 = DIGEST_INIT[3];
  let h4 = DIGEST_INIT[4];
  let h5 = DIGEST_INIT[5];
  let h6 = DIGEST_INIT[6];
  let h7 = DIGEST_INIT[7];
  for (let i = 0; i < seed.length; i++) {
    const ch = seed.charCodeAt(i);
    h0 = Math.imul(h0 ^ ch, 0x01000193);
    h1 = Math.imul(h1 ^ ch, 0x01000193);
    h2 = Math.imul(h2 ^ ch, 0x01000193);
    h3 = Math.imul(h3 ^ ch, 0x01000193);
    h4 = Math.imul(h4 ^ ch, 0x01000193);
    h5 = Math.imul(h5 ^ ch, 0x01000193);
    h6 = Math.imul(h6 ^ ch, 0x01000193);
    h7 = Math.imul(h7 ^ ch, 0x01000193);
  }
  // One flat string made from a reused code buffer, not a tree of 32 pieces (digests are kept
  // in image records and container statuses; performance only: no partial strings either).
  fmix32Hex(h0, 0);
  fmix32Hex(h1, 8);
  fmix32Hex(h2, 16);
  fmix32Hex(h3, 24);
  fmix32Hex(h4, 32);
  fmix32Hex(h5, 40);
  fmix32Hex(h6, 48);
  fmix32Hex(h7, 56);
  return String.fromCharCode.apply(null, DIGEST_CODES);
}

/**
 * The synthetic manifest and config digests by `repository:tag` (pure functions of the name,
 * computed once: every pull and every image lookup of every node builds a record). Bounded.
 */
const imageDigests = new Map<string, { manifest: string; config: string }>();
/** Most entries kept in `imageDigests` (cleared when full). */
const IMAGE_DIGESTS_MAX = 4096;

/** Build the record of `repo:tag` from a repository table entry (resolving aliases). */
export function imageRecordOf(repo: RepositoryInfo, tag: string): ImageRecord | undefined {
  let info = repo.tags[tag];
  let canonicalTag = tag;
  if (!info && repo.tagPattern?.test(tag)) info = { size: repo.patternSize ?? 20 * MB };
  if (!info) return undefined;
  for (let i = 0; info.alias && i < 4; i++) {
    canonicalTag = info.alias;
    const next = repo.tags[info.alias];
    if (!next) break;
    info = { ...next, size: next.size };
  }
  const key = `${repo.repository}:${canonicalTag}`;
  let digests = imageDigests.get(key);
  if (!digests) {
    if (imageDigests.size >= IMAGE_DIGESTS_MAX) imageDigests.clear();
    digests = { manifest: `sha256:${syntheticDigestHex(`manifest ${key}`)}`, config: `sha256:${syntheticDigestHex(`config ${key}`)}` };
    imageDigests.set(key, digests);
  }
  return {
    repository: repo.repository,
    tag,
    digest: info.digest ?? digests.manifest,
    id: digests.config,
    size: info.size,
    config: repo.config,
    userland: repo.userland,
    binaries: repo.binaries ?? [],
    binariesComplete: repo.binariesComplete ?? false,
    family: repo.family,
    version: info.version ?? canonicalTag,
  };
}

/** `failed to pull and unpack image %q: failed to resolve reference %q: <cause>` (containerd CRI). */
function resolveFailure(ref: string, cause: string): string {
  return `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${cause}`;
}

/**
 * The registries of the outside world, as seen from a node. Pure lookups: the runtime turns a
 * resolution into a pull on the clock.
 */
export class ImageRegistry {
  private readonly repos = new Map<string, RepositoryInfo>();
  readonly bytesPerSecond: number;
  readonly unpackBytesPerSecond: number;
  private readonly latency: Record<string, number>;

  constructor(opts: RegistryOptions = {}) {
    for (const r of opts.repositories ?? PUBLIC_REPOSITORIES) this.repos.set(r.repository, r);
    this.bytesPerSecond = opts.bytesPerSecond ?? DEFAULT_PULL_BYTES_PER_SECOND;
    this.unpackBytesPerSecond = opts.unpackBytesPerSecond ?? DEFAULT_UNPACK_BYTES_PER_SECOND;
    this.latency = { 'docker.io': 600, ...(opts.latencyMs ?? {}) };
  }

  /** Add or replace a repository (a lesson pushing an image, a private registry). */
  addRepository(repo: RepositoryInfo): void {
    this.repos.set(repo.repository, repo);
  }

  /** The repository table entry, if the registry serves it. */
  repository(repository: string): RepositoryInfo | undefined {
    return this.repos.get(repository);
  }

  /** Resolve latency in ms for a registry host. */
  latencyMs(domain: string): number {
    return this.latency[domain] ?? 300;
  }

  /**
   * Pull duration in virtual ms for an image: resolve latency + size / bandwidth + size / unpack
   * speed, rounded to the ms. Deterministic.
   */
  pullTimeMs(image: ImageRecord, domain = image.repository.split('/')[0]): number {
    return Math.round(this.latencyMs(domain) + (image.size * 1000) / this.bytesPerSecond + (image.size * 1000) / this.unpackBytesPerSecond);
  }

  /**
   * Resolve a reference for pulling. `credentials` lists registry hosts the pull has
   * credentials for (imagePullSecrets), which unlock private repositories.
   *
   * Failures (containerd's wording, inside `rpc error: code = <code> desc = <message>`):
   * - unknown tag or digest of a known repository: NotFound `... failed to resolve reference "R": R: not found`;
   * - unknown (or private) Docker Hub / ghcr.io repository: Unknown `... pull access denied, repository
   *   does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
   * - unknown quay.io repository: Unknown `... unexpected status from HEAD request to https://quay.io/v2/<path>/manifests/<tag>: 401 UNAUTHORIZED`;
   * - unknown repository elsewhere (registry.k8s.io, gcr.io): NotFound `R: not found`;
   * - a host that does not resolve: Unknown `... failed to do request: Head "https://h/v2/<path>/manifests/<tag>": dial tcp: lookup h on 172.18.0.1:53: no such host`;
   * - localhost registries that are not running: `dial tcp 127.0.0.1:<port>: connect: connection refused`.
   *
   * Errors: throws `ImageReferenceError` for an unparsable reference.
   */
  resolve(reference: string | ImageRef, credentials: readonly string[] = []): PullSuccess | PullFailure {
    const r = typeof reference === 'string' ? parseImageRef(reference) : reference;
    const latencyMs = this.latencyMs(r.domain);
    const fail = (code: PullFailure['code'], cause: string): PullFailure => ({ ok: false, code, message: resolveFailure(r.ref, cause), latencyMs });
    const reference404 = r.digest ?? r.tag ?? 'latest';
    const host = r.domain.replace(/:\d+$/, '');
    if (host === 'localhost' || host === '127.0.0.1') {
      const port = /:(\d+)$/.exec(r.domain)?.[1] ?? '443';
      return fail('Unknown', `failed to do request: Head "https://${r.domain}/v2/${r.path}/manifests/${reference404}": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    }
    if (!KNOWN_HOSTS.has(r.domain)) {
      return fail('Unknown', `failed to do request: Head "https://${r.domain}/v2/${r.path}/manifests/${reference404}": dial tcp: lookup ${host} on ${NODE_DNS_SERVER}: no such host`);
    }
    const repo = this.repos.get(r.repository);
    if (!repo || (repo.private && !credentials.includes(r.domain))) {
      if (r.domain === 'docker.io' || r.domain === 'ghcr.io' || repo?.private) {
        return fail('Unknown', 'pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed');
      }
      if (r.domain === 'quay.io') {
        return fail('Unknown', `unexpected status from HEAD request to https://quay.io/v2/${r.path}/manifests/${reference404}: 401 UNAUTHORIZED`);
      }
      return fail('NotFound', `${r.ref}: not found`);
    }
    let image: ImageRecord | undefined;
    if (r.digest) {
      image = this.findByDigest(repo, r.digest);
    } else {
      image = imageRecordOf(repo, r.tag ?? 'latest');
    }
    if (!image) return fail('NotFound', `${r.ref}: not found`);
    return { ok: true, image, durationMs: this.pullTimeMs(image, r.domain) };
  }

  private findByDigest(repo: RepositoryInfo, digest: string): ImageRecord | undefined {
    for (const tag of Object.keys(repo.tags)) {
      const rec = imageRecordOf(repo, tag);
      if (rec && rec.digest === digest) return { ...rec, tag: undefined };
    }
    return undefined;
  }
}

/**
 * The locally built images (`docker images` on the developer's machine): what `kind load
 * docker-image NAME` can copy into a node. Returns undefined when the reference names no local
 * image (`ERROR: image: "x" not present locally`).
 */
export function localBuildImage(reference: string): ImageRecord | undefined {
  let r: ImageRef;
  try {
    r = parseImageRef(reference);
  } catch {
    return undefined;
  }
  const repo = LOCAL_BUILD_REPOSITORIES.find((x) => x.repository === r.repository);
  return repo && r.tag ? imageRecordOf(repo, r.tag) : undefined;
}

/**
 * Look up any image known anywhere (public registries or local builds) by reference, for
 * preloading node caches (kind's node image ships the control-plane images).
 */
export function knownImage(reference: string): ImageRecord | undefined {
  const local = localBuildImage(reference);
  if (local) return local;
  try {
    const res = new ImageRegistry().resolve(reference);
    return res.ok ? res.image : undefined;
  } catch {
    return undefined;
  }
}

/** Image tags kind's node image preloads for a Kubernetes minor. [unverified patch-level tags for 1.35/1.36] */
const KIND_PRELOADS: Record<string, { etcd: string; coredns: string; pause: string; kindnetd: string; lpp: string; lph: string }> = {
  '1.32': { etcd: '3.5.16-0', coredns: 'v1.11.3', pause: '3.10', kindnetd: 'v20250214-acbabc1a', lpp: 'v20250214-acbabc1a', lph: 'v20241212-8ac705d0' },
  '1.33': { etcd: '3.5.21-0', coredns: 'v1.12.0', pause: '3.10', kindnetd: 'v20250512-df8de77b', lpp: 'v20250214-acbabc1a', lph: 'v20241212-8ac705d0' },
  '1.34': { etcd: '3.6.4-0', coredns: 'v1.12.1', pause: '3.10.1', kindnetd: 'v20250512-df8de77b', lpp: 'v20250214-acbabc1a', lph: 'v20241212-8ac705d0' },
  '1.35': { etcd: '3.6.5-0', coredns: 'v1.13.1', pause: '3.10.1', kindnetd: 'v20251212-a2f6fe2d', lpp: 'v20251212-a2f6fe2d', lph: 'v20251212-a2f6fe2d' },
  '1.36': { etcd: '3.6.6-0', coredns: 'v1.13.1', pause: '3.10.1', kindnetd: 'v20251212-a2f6fe2d', lpp: 'v20251212-a2f6fe2d', lph: 'v20251212-a2f6fe2d' },
};

/**
 * The image references a kindest/node image for `version` (`v1.36.1`) has in its containerd
 * store before anything is pulled (kind bakes them in): the control-plane images, kube-proxy,
 * etcd, CoreDNS, pause, kindnetd and the local-path provisioner and helper.
 * Errors: throws `RangeError` for a version outside 1.32-1.36.
 */
export function kindNodeImages(version: string): string[] {
  const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(version);
  const minor = m ? `${m[1]}.${m[2]}` : '';
  const p = KIND_PRELOADS[minor];
  if (!m || !p) throw new RangeError(`unsupported Kubernetes version ${version}`);
  const v = `v${m[1]}.${m[2]}.${m[3]}`;
  return [
    `docker.io/kindest/kindnetd:${p.kindnetd}`,
    `docker.io/kindest/local-path-helper:${p.lph}`,
    `docker.io/kindest/local-path-provisioner:${p.lpp}`,
    `registry.k8s.io/coredns/coredns:${p.coredns}`,
    `registry.k8s.io/etcd:${p.etcd}`,
    `registry.k8s.io/kube-apiserver:${v}`,
    `registry.k8s.io/kube-controller-manager:${v}`,
    `registry.k8s.io/kube-proxy:${v}`,
    `registry.k8s.io/kube-scheduler:${v}`,
    `registry.k8s.io/pause:${p.pause}`,
  ];
}
