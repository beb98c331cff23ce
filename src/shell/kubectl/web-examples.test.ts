/**
 * `kubectl ... -f URL` (cli-runtime builder.go FilenameParam -> visitor.go URLVisitor,
 * readHttpWithRetries): the kubernetes.io examples from the bundle, a 404 for a missing one, and
 * the errors of a laptop without internet for every other host, as helpers.go
 * StandardErrorMessage prints a *url.Error.
 */
import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../engine/api/yaml';
import { bench } from './testing';
import { isManifestUrl, readManifestUrl, WEB_EXAMPLES } from './web-examples';

const NGINX_DEPLOY = 'https://k8s.io/examples/application/deployment.yaml';

describe('readManifestUrl', () => {
  it('serves the example tree under its three URL prefixes, http or https', () => {
    const text = WEB_EXAMPLES['application/deployment.yaml'];
    expect(text).toContain('nginx-deployment');
    for (const url of [
      NGINX_DEPLOY,
      'https://kubernetes.io/examples/application/deployment.yaml',
      'http://k8s.io/examples/application/deployment.yaml',
      'https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/application/deployment.yaml',
    ]) {
      expect(readManifestUrl(url)).toEqual({ ok: true, text });
    }
  });

  it('a path the site does not have: 404 Not Found, the URL quoted as given', () => {
    expect(readManifestUrl('https://k8s.io/examples/pods/no-such-pod.yaml')).toEqual({
      ok: false,
      error: 'error: unable to read URL "https://k8s.io/examples/pods/no-such-pod.yaml", server reported 404 Not Found, status code=404',
    });
    // The example hosts answer any other path with a 404 too.
    expect(readManifestUrl('https://raw.githubusercontent.com/kubernetes/dashboard/v2.7.0/aio/deploy/recommended.yaml')).toMatchObject({
      error: 'error: unable to read URL "https://raw.githubusercontent.com/kubernetes/dashboard/v2.7.0/aio/deploy/recommended.yaml", server reported 404 Not Found, status code=404',
    });
  });

  it('any other host: the DNS lookup of a laptop without internet fails (Unable to connect to the server)', () => {
    expect(readManifestUrl('https://example.com/app.yaml')).toEqual({
      ok: false,
      error: 'Unable to connect to the server: dial tcp: lookup example.com on 127.0.0.53:53: no such host',
    });
    expect(readManifestUrl('https://User@GitHub.com:8443/x.yaml')).toMatchObject({ error: 'Unable to connect to the server: dial tcp: lookup github.com on 127.0.0.53:53: no such host' });
    expect(readManifestUrl('http://localhost:8080/x.yaml')).toMatchObject({ error: 'The connection to the server localhost:8080 was refused - did you specify the right host or port?' });
    expect(readManifestUrl('https://10.1.2.3/x.yaml')).toMatchObject({ error: 'Unable to connect to the server: dial tcp 10.1.2.3:443: connect: network is unreachable' });
    expect(readManifestUrl('https:///x.yaml')).toMatchObject({ error: 'Unable to connect to the server: http: no Host in request URL' });
  });

  it('only http:// and https:// are URLs to the builder', () => {
    expect(isManifestUrl('https://k8s.io/x')).toBe(true);
    expect(isManifestUrl('http://k8s.io/x')).toBe(true);
    expect(isManifestUrl('ftp://k8s.io/x')).toBe(false);
    expect(isManifestUrl('k8s.io/examples/x.yaml')).toBe(false);
  });

  it('every bundled example parses into objects with a kind and a name', () => {
    expect(Object.keys(WEB_EXAMPLES).length).toBeGreaterThanOrEqual(50);
    for (const [path, text] of Object.entries(WEB_EXAMPLES)) {
      const docs = parseManifests(text, path);
      expect(docs.length, path).toBeGreaterThan(0);
      for (const d of docs) {
        expect(d.error, path).toBeUndefined();
        expect(d.object?.kind, path).toBeTruthy();
        expect(d.object?.metadata?.name, path).toBeTruthy();
      }
    }
  });
});

describe('kubectl -f URL', () => {
  it('apply, get, diff and delete read the URL; the URL is the source in error messages', () => {
    const b = bench();
    expect(b.run(`kubectl apply -f ${NGINX_DEPLOY}`)).toEqual({ stdout: 'deployment.apps/nginx-deployment created\n', stderr: '', code: 0 });
    expect(b.run(`kubectl get -f ${NGINX_DEPLOY} -o name`).stdout).toBe('deployment.apps/nginx-deployment\n');
    // A URL does not imply a single item (builder.go: singleItemImplied only for a path): a List.
    expect(b.run(`kubectl get -f ${NGINX_DEPLOY} -o jsonpath={.kind}`).stdout).toBe('List');
    expect(b.run(`kubectl create -f ${NGINX_DEPLOY}`)).toMatchObject({
      stderr: `Error from server (AlreadyExists): error when creating "${NGINX_DEPLOY}": deployments.apps "nginx-deployment" already exists\n`,
      code: 1,
    });
    const diff = b.run('kubectl diff -f https://k8s.io/examples/application/deployment-update.yaml');
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('-      - image: nginx:1.14.2\n+      - image: nginx:1.16.1\n');
    expect(b.run(`kubectl delete -f ${NGINX_DEPLOY}`).stdout).toBe('deployment.apps "nginx-deployment" deleted from default namespace\n');
  });

  it('a URL that fails is an error of its own; the other files are still applied', () => {
    const b = bench({ files: { '/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local\n' } });
    expect(b.run('kubectl apply -f https://k8s.io/examples/nope.yaml')).toEqual({
      stdout: '',
      stderr: 'error: unable to read URL "https://k8s.io/examples/nope.yaml", server reported 404 Not Found, status code=404\n',
      code: 1,
    });
    expect(b.run('kubectl apply -f https://example.org/a.yaml -f /cm.yaml')).toEqual({
      stdout: 'configmap/local created\n',
      stderr: 'Unable to connect to the server: dial tcp: lookup example.org on 127.0.0.53:53: no such host\n',
      code: 1,
    });
    // Two failures: each on its line, as CheckErr prints an aggregate.
    const two = 'Unable to connect to the server: dial tcp: lookup example.org on 127.0.0.53:53: no such host\nunable to read URL "https://k8s.io/examples/b.yaml", server reported 404 Not Found, status code=404\n';
    expect(b.run('kubectl apply -f https://example.org/a.yaml -f https://k8s.io/examples/b.yaml').stderr).toBe(two);
    expect(b.run('kubectl get -f https://example.org/a.yaml -f https://k8s.io/examples/b.yaml').stderr).toBe(two);
  });

  it('a missing local path still stops kubectl before any URL is read', () => {
    const b = bench();
    expect(b.run(`kubectl apply -f ${NGINX_DEPLOY} -f /nope.yaml`)).toEqual({ stdout: '', stderr: 'error: the path "/nope.yaml" does not exist\n', code: 1 });
    expect(b.run('kubectl get deploy nginx-deployment --ignore-not-found').stdout).toBe('');
  });
});
