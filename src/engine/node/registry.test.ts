/**
 * The simulated registries: reference normalisation as containerd does it
 * (distribution/reference), pull times, and the error texts containerd reports.
 */
import { describe, expect, it } from 'vitest';
import {
  ImageReferenceError,
  ImageRegistry,
  REFERENCE_UPPERCASE,
  defaultPullPolicy,
  kindNodeImages,
  knownImage,
  localBuildImage,
  parseImageRef,
} from './registry';

describe('parseImageRef (distribution/reference ParseDockerRef)', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['library/nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['docker.io/nginx', 'docker.io/library/nginx:latest'],
    ['index.docker.io/library/busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['polinux/stress', 'docker.io/polinux/stress:latest'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['registry.k8s.io/coredns/coredns:v1.12.0', 'registry.k8s.io/coredns/coredns:v1.12.0'],
    ['localhost:5000/app', 'localhost:5000/app:latest'],
    ['localhost/app:1', 'localhost/app:1'],
    ['bookshop:v1', 'docker.io/library/bookshop:v1'],
  ])('%s -> %s', (input, ref) => {
    expect(parseImageRef(input).ref).toBe(ref);
  });

  it('keeps only the digest of a tag@digest reference', () => {
    const r = parseImageRef('registry.k8s.io/ingress-nginx/controller:v1.15.1@sha256:594ceea76b01c592858f803f9ff4d2cb40542cae2060410b2c95f75907d659e1');
    expect(r.ref).toBe('registry.k8s.io/ingress-nginx/controller@sha256:594ceea76b01c592858f803f9ff4d2cb40542cae2060410b2c95f75907d659e1');
    expect(r.tag).toBeUndefined();
  });

  it('rejects upper case and malformed references with the kubelet-visible wording', () => {
    expect(() => parseImageRef('Nginx')).toThrow(REFERENCE_UPPERCASE);
    expect(() => parseImageRef('nginx:1.27:2')).toThrow('invalid reference format');
    expect(() => parseImageRef('nginx@sha256:abc')).toThrow(ImageReferenceError);
    expect(() => parseImageRef('')).toThrow('repository name must have at least one component');
  });

  it('defaults imagePullPolicy to Always only for :latest or no tag', () => {
    expect(defaultPullPolicy('nginx')).toBe('Always');
    expect(defaultPullPolicy('nginx:latest')).toBe('Always');
    expect(defaultPullPolicy('nginx:1.27')).toBe('IfNotPresent');
    expect(defaultPullPolicy('bookshop:v1')).toBe('IfNotPresent');
  });
});

describe('ImageRegistry.resolve', () => {
  const reg = new ImageRegistry();

  it('knows the public images with sizes, digests and configs', () => {
    const r = reg.resolve('nginx:1.27');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.image.repository).toBe('docker.io/library/nginx');
    expect(r.image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.image.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.image.config.stopSignal).toBe('SIGQUIT');
    expect(r.image.version).toBe('1.27.5');
  });

  it('gives aliases of one tag the same image (latest = 1.37 for busybox)', () => {
    const a = reg.resolve('busybox');
    const b = reg.resolve('busybox:1.37.0');
    expect(a.ok && b.ok && a.image.id === b.image.id).toBe(true);
    expect(a.ok && a.image.size).toBe(2_222_260);
  });

  it('computes pull time from size: latency + 20 MB/s + unpack at 100 MB/s', () => {
    const r = reg.resolve('busybox:1.37');
    if (!r.ok) throw new Error('expected busybox');
    // 600 ms docker.io latency + 2222260 B / 20 MB/s (111 ms) + / 100 MB/s (22 ms)
    expect(r.durationMs).toBe(733);
    const perl = reg.resolve('perl');
    expect(perl.ok && perl.durationMs).toBeGreaterThan(20_000);
    const pause = reg.resolve('registry.k8s.io/pause:3.10');
    expect(pause.ok && pause.durationMs).toBeLessThan(400);
  });

  it('reports an unknown tag as containerd does (NotFound)', () => {
    const r = reg.resolve('nginx:1.999');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('NotFound');
    expect(r.message).toBe(
      'failed to pull and unpack image "docker.io/library/nginx:1.999": failed to resolve reference "docker.io/library/nginx:1.999": docker.io/library/nginx:1.999: not found',
    );
  });

  it('reports a Docker Hub repository that does not exist as pull access denied (bookshop:v1 is only local)', () => {
    const r = reg.resolve('bookshop:v1');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('Unknown');
    expect(r.message).toBe(
      'failed to pull and unpack image "docker.io/library/bookshop:v1": failed to resolve reference "docker.io/library/bookshop:v1": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
    );
  });

  it('reports unknown hosts and unknown registry.k8s.io repositories', () => {
    const h = reg.resolve('myregistry.example.com/team/app:1.0');
    expect(!h.ok && h.message).toContain('dial tcp: lookup myregistry.example.com on 172.18.0.1:53: no such host');
    const k = reg.resolve('registry.k8s.io/nope:1');
    expect(!k.ok && k.message).toContain('registry.k8s.io/nope:1: not found');
  });

  it('unlocks a private repository with credentials', () => {
    const priv = new ImageRegistry();
    priv.addRepository({ repository: 'docker.io/acme/secret-app', family: 'generic', userland: 'debian', private: true, config: {}, tags: { '1.0': { size: 10_000_000 } } });
    expect(priv.resolve('acme/secret-app:1.0').ok).toBe(false);
    expect(priv.resolve('acme/secret-app:1.0', ['docker.io']).ok).toBe(true);
  });

  it('resolves the digest pinned in the ingress-nginx manifest', () => {
    const r = reg.resolve('registry.k8s.io/ingress-nginx/kube-webhook-certgen:v1.6.9@sha256:01038e7de14b78d702d2849c3aad72fd25903c4765af63cf16aa3398f5d5f2dd');
    expect(r.ok).toBe(true);
    const bad = reg.resolve('registry.k8s.io/ingress-nginx/kube-webhook-certgen@sha256:' + '0'.repeat(64));
    expect(bad.ok).toBe(false);
  });

  it('serves every image the corpus manifests and the bookshop use', () => {
    for (const image of [
      'nginx:1.14.2', 'nginx', 'nginx:1.16.1', 'perl', 'docker.io/library/bash:5', 'busybox:1.28', 'registry.k8s.io/busybox:1.27.2',
      'registry.k8s.io/e2e-test-images/agnhost:2.40', 'registry.k8s.io/goproxy:0.1', 'polinux/stress', 'vish/stress', 'registry.k8s.io/pause:3.8',
      'registry.k8s.io/pause:3.6', 'k8s.gcr.io/pause:2.0', 'registry.k8s.io/nginx-slim:0.7', 'registry.k8s.io/kubernetes-zookeeper:1.0-3.4.10',
      'k8s.gcr.io/fluentd-elasticsearch:1.20', 'quay.io/fluentd_elasticsearch/fluentd:v5.0.1', 'registry.k8s.io/redis:e2e', 'redis:7.2',
      'gcr.io/google_samples/gb-redisslave:v1', 'gcr.io/google-samples/gb-frontend:v5', 'gcr.io/google-samples/cassandra:v14',
      'registry.k8s.io/e2e-test-images/echoserver:2.3', 'quay.io/brancz/prometheus-example-app:v0.5.0', 'quay.io/prometheus-operator/prometheus-operator:v0.93.0',
      'gcr.io/kuar-demo/kuard-amd64:1', 'postgres:17-alpine', 'httpd:2.4', 'alpine:3.21', 'ubuntu:24.04', 'quay.io/jetstack/cert-manager-controller:v1.18.2',
      'registry.k8s.io/ingress-nginx/controller:v1.15.1@sha256:594ceea76b01c592858f803f9ff4d2cb40542cae2060410b2c95f75907d659e1',
    ]) {
      expect(reg.resolve(image).ok, image).toBe(true);
    }
  });
});

describe('the images of the kubernetes.io tutorials', () => {
  const reg = new ImageRegistry();
  it('Kubernetes Basics (bootcamp v1, v2), the StatefulSet pages (nginx-slim 0.21, 0.24), nginx minor lines and patch releases, Guestbook, HPA, debugging', () => {
    for (const image of [
      'gcr.io/google-samples/kubernetes-bootcamp:v1', 'docker.io/jocatalin/kubernetes-bootcamp:v2', 'jocatalin/kubernetes-bootcamp:v2',
      'registry.k8s.io/nginx-slim:0.21', 'registry.k8s.io/nginx-slim:0.24', 'nginx:1.20', 'nginx:1.21', 'nginx:1.22', 'nginx:1.23', 'nginx:1.24',
      'nginx:1.21.6', 'nginx:1.25.3', 'nginx:1.27.0',
      // Debug Running Pods; the Guestbook's frontend and follower under each path the page has named; the HPA walkthrough.
      'registry.k8s.io/pause:3.1', 'gcr.io/google_samples/gb-frontend:v5', 'us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5',
      'docker.io/corelab/gb-frontend:v5', 'gcr.io/google_samples/gb-redis-follower:v2', 'us-docker.pkg.dev/google-samples/containers/gke/gb-redis-follower:v2',
      'registry.k8s.io/hpa-example',
    ]) {
      expect(reg.resolve(image).ok, image).toBe(true);
    }
    const r = reg.resolve('nginx:1.21');
    expect(r.ok && r.image.version).toBe('1.21.6');
  });

  it("still fails the tags that do not exist: the bootcamp's v10 and the docs' nginx:1.161", () => {
    for (const image of ['gcr.io/google-samples/kubernetes-bootcamp:v10', 'nginx:1.161', 'nginx:1.2.3']) expect(reg.resolve(image).ok, image).toBe(false);
  });
});

describe('local builds and kind node images', () => {
  it('knows bookshop:v1/v2 only as local builds', () => {
    expect(localBuildImage('bookshop:v1')?.config.user).toBe('10001');
    expect(localBuildImage('bookshop:v2')?.version).toBe('v2');
    expect(localBuildImage('bookshop:v3')).toBeUndefined();
  });

  it('lists the images a kindest/node image preloads, all known', () => {
    const imgs = kindNodeImages('v1.36.1');
    expect(imgs).toContain('registry.k8s.io/kube-apiserver:v1.36.1');
    expect(imgs.some((i) => i.startsWith('registry.k8s.io/pause:'))).toBe(true);
    for (const i of imgs) expect(knownImage(i), i).toBeDefined();
    expect(kindNodeImages('v1.33.1')).toContain('registry.k8s.io/coredns/coredns:v1.12.0');
    expect(() => kindNodeImages('v1.20.0')).toThrow(RangeError);
  });
});
