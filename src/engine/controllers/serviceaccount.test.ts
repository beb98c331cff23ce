/**
 * serviceaccount-controller and root-ca-cert-publisher, checked against
 * https://kubernetes.io/docs/concepts/security/service-accounts/#default-service-accounts
 * ("each namespace has a default ServiceAccount ... if you delete it, the control plane replaces
 * it"), https://kubernetes.io/docs/reference/access-authn-authz/service-accounts-admin/ (no
 * auto-generated token Secrets since 1.24; the `kube-root-ca.crt` ConfigMap in every namespace),
 * reference 8.6 ("Every namespace has ConfigMap kube-root-ca.crt").
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import { ControllerProcess } from './manager';
import { newRootCACertPublisher, ROOT_CA_CERT_PLACEHOLDER, ROOT_CA_DESCRIPTION } from './rootcacertpublisher';

describe('serviceaccount-controller', () => {
  const cluster = () => newTestCluster({ controllers: ['serviceaccount'], scheduler: false, defaultServiceAccount: false });

  it('creates the default ServiceAccount in every Active namespace, without a token Secret', () => {
    const c = cluster();
    c.run(1000);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      expect(c.api.tryGet('serviceaccounts', ns, 'default'), ns).toBeDefined();
    }
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    c.run(100);
    const sa = c.api.get('serviceaccounts', 'shop', 'default');
    expect(sa.secrets).toBeUndefined();
    expect(c.api.list('secrets', { namespace: 'shop' }).items).toHaveLength(0);
    expect(c.trace.list({ component: 'serviceaccount-controller' }).map((e) => e.message)).toContain('shop has no ServiceAccount default -> create');
  });

  it('recreates the default ServiceAccount when it is deleted (a new object, new uid)', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    c.run(1000);
    const before = c.api.get('serviceaccounts', 'shop', 'default');
    c.api.delete('serviceaccounts', 'shop', 'default');
    c.run(100);
    const after = c.api.get('serviceaccounts', 'shop', 'default');
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
  });

  it('does nothing in a Terminating namespace', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old' }, spec: { finalizers: ['example.com/hold'] } });
    c.run(1000);
    c.api.delete('namespaces', undefined, 'old');
    c.api.delete('serviceaccounts', 'old', 'default');
    c.run(1000);
    expect(c.api.tryGet('serviceaccounts', 'old', 'default')).toBeUndefined();
  });
});

describe('root-ca-cert-publisher', () => {
  function cluster(): TestCluster {
    const c = newTestCluster({ controllers: [], scheduler: false });
    new ControllerProcess('kube-controller-manager', [newRootCACertPublisher], { api: c.api, clock: c.clock, rng: c.rng, trace: c.trace.add, leaderElect: false }).start();
    return c;
  }

  it('publishes kube-root-ca.crt with ca.crt and the description annotation in every namespace', () => {
    const c = cluster();
    c.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    c.run(1000);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'shop']) {
      const cm = c.api.get('configmaps', ns, 'kube-root-ca.crt');
      expect(cm.data).toEqual({ 'ca.crt': ROOT_CA_CERT_PLACEHOLDER });
      expect(cm.metadata.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });
    }
    expect(ROOT_CA_CERT_PLACEHOLDER.startsWith('-----BEGIN CERTIFICATE-----\n')).toBe(true);
    expect(ROOT_CA_CERT_PLACEHOLDER.endsWith('-----END CERTIFICATE-----\n')).toBe(true);
  });

  it('puts the ConfigMap back when it is deleted or edited', () => {
    const c = cluster();
    c.run(1000);
    c.api.delete('configmaps', 'default', 'kube-root-ca.crt');
    c.run(100);
    expect(c.api.get('configmaps', 'default', 'kube-root-ca.crt').data).toEqual({ 'ca.crt': ROOT_CA_CERT_PLACEHOLDER });
    c.api.patch('configmaps', 'default', 'kube-root-ca.crt', 'merge', { data: { 'ca.crt': 'tampered' } });
    c.run(100);
    expect(c.api.get('configmaps', 'default', 'kube-root-ca.crt').data).toEqual({ 'ca.crt': ROOT_CA_CERT_PLACEHOLDER });
  });
});
