/**
 * root-ca-cert-publisher: publishes the cluster CA bundle as the ConfigMap `kube-root-ca.crt`
 * (key `ca.crt`) in every namespace, so that pods can verify kube-apiserver (the projected
 * `kube-api-access-*` volume mounts it). Mirrors
 * pkg/controller/certificates/rootcacertpublisher/publisher.go.
 *
 * Informers: namespaces (add, and update while Active -> queue the namespace) and configmaps
 * (update or delete of a `kube-root-ca.crt` -> queue its namespace). `reconcile(namespace)`
 * creates the ConfigMap when missing, or puts back its data and description annotation when
 * someone changed them. Namespaces being deleted are skipped. No Events.
 *
 * The CA here is a placeholder shaped like a kind cluster's self-signed `kubernetes` CA in PEM:
 * the simulation has no TLS, and it is not a valid certificate.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { ApiError } from '../api/errors';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';
import { isNamespaceTerminatingError } from './util';

/** Component name (trace prefix). */
export const ROOT_CA_PUBLISHER_COMPONENT = 'root-ca-cert-publisher';

/** Name of the ConfigMap. Source: publisher.go (`RootCACertConfigMapName`). */
export const ROOT_CA_CONFIGMAP_NAME = 'kube-root-ca.crt';

/** Annotation key. Source: publisher.go (`DescriptionAnnotation`). */
export const ROOT_CA_DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
/** Annotation text. Source: publisher.go (`Description`). */
export const ROOT_CA_DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** Workers. Source: cmd/kube-controller-manager/app/certificates.go (`Run(ctx, 1)`). */
export const ROOT_CA_PUBLISHER_WORKERS = 1;

/** The published `ca.crt`: a PEM-shaped placeholder (not a real certificate). */
export const ROOT_CA_CERT_PLACEHOLDER = [
  '-----BEGIN CERTIFICATE-----',
  'MIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl',
  'cm5ldGVzpU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw0YL4xIB5p/tqg',
  '7ui5mX9cfCmZ/a/lkyU81lSvTfrXFCegrrP+6SMvivIhH57kkcWxC+y1Vjv8Hm+T',
  'Qn7LyP4pVeXNjkbcjtS3wnZNKlpNdncG+F2GkAJK1r2jQBvpyMvMyTX2zR9hImrh',
  'UziuGjQATTO6DSRqwEyBsbryPjv57vX3nytJNK+H9VILablLDZguhbtVtnKocmN6',
  'zXRm/LYODo/xhGOw5LK6KXA0dPBkrGj3APWwKz3GZvRb3qosyu3NK1FXQQ5N7kry',
  's09DCgc0R95jbA6AbJV7poTWQx+16tdCTQnhXQJMWEjyPR+m9zYdf2GNFTLnDiDi',
  'pmaN5/R+hGflRtU+yOKhJXvbJWybPk+7SYFG73Awy/lTclLczq3XZLajL7sJrerh',
  'CcSplyA5dTUrh4sUXIpC2ITPTP2nLY4dXdkliQgthSpxIoc+6AWt1YlCFno4UoYZ',
  'XGefnGmU5FuKsQmAEgcJYfN95Dbd/cmdbnWvZUfPsRtCBySC3FMcK8OQfJYX615Q',
  'ieQBhrqopX0Rnm+2XQCrwyrzjmZ/Ai6HLUnMFckLmZt3K0/Hpv1MkUoW20cIdSsP',
  'FUS4NcDnGQl9+ocB6SMvIfKBJod4aXbr/MMn9ZMXZSdLqYKbRAb2H/iJMm/6lJLt',
  '7u48Zp8r8giU6ifmicZrayYuSIa4Q485unb++MkMUQH75s+aSNWwwKE9qQCmrcs9',
  'ZAaUgb4hyccnuNuMGI80GpJMf4jfoWG/2w7MaCkZ0uZGkvgZQVfx1K+QmIKFz3qa',
  '98k9VVImav5w56rm2kdifC5Zry6jeryEZwrTxNNrwIqtH/+OuEBuL4p/xMzk3Z8L',
  'QRDZ8voAJcjv5X83ck9NN+orFABAdxObQYDfOTIkmWLGhXIABZrrjqF883h+DtKd',
  'HAs=',
  '-----END CERTIFICATE-----',
  '',
].join('\n');

/** Start the root CA publisher. */
export function newRootCACertPublisher(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const namespaces = ctx.informers.informer('namespaces');
  const configMaps = ctx.informers.informer('configmaps');
  const queue = new RateLimitingQueue(clock, { name: 'root_ca_cert_publisher' });
  const data = { 'ca.crt': ROOT_CA_CERT_PLACEHOLDER };

  const regs = [
    namespaces.addEventHandler({
      onAdd: (ns) => queue.add(ns.metadata.name!),
      onUpdate: (_old, ns) => {
        if (ns.status?.phase === 'Active') queue.add(ns.metadata.name!);
      },
    }),
    configMaps.addEventHandler({
      onUpdate: (_old, cm) => {
        if (cm.metadata.name === ROOT_CA_CONFIGMAP_NAME) queue.add(cm.metadata.namespace!);
      },
      onDelete: (cm) => {
        if (cm.metadata.name === ROOT_CA_CONFIGMAP_NAME) queue.add(cm.metadata.namespace!);
      },
    }),
  ];

  /** `syncNamespace`. */
  const reconcile = (name: string): void => {
    const ns = namespaces.lister.get(undefined, name);
    // If the namespace is being terminated, create will fail no matter what.
    if (!ns || ns.metadata.deletionTimestamp) return;
    const cm = configMaps.lister.get(name, ROOT_CA_CONFIGMAP_NAME);
    const ref = (o: KubeObject) => ({ kind: 'ConfigMap', namespace: name, name: ROOT_CA_CONFIGMAP_NAME, uid: o.metadata.uid });
    if (!cm) {
      try {
        const created = api.create(
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: ROOT_CA_CONFIGMAP_NAME, namespace: name, annotations: { [ROOT_CA_DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
            data,
          },
          { fieldManager: 'kube-controller-manager' },
        );
        ctx.trace(ROOT_CA_PUBLISHER_COMPONENT, `${name} has no ${ROOT_CA_CONFIGMAP_NAME} -> create`, ref(created));
      } catch (e) {
        // Don't retry a create if the namespace doesn't exist or is terminating.
        if (e instanceof ApiError && (e.code === 404 || isNamespaceTerminatingError(e))) return;
        throw e;
      }
      return;
    }
    if (deepEqual(cm.data, data) && cm.metadata.annotations?.[ROOT_CA_DESCRIPTION_ANNOTATION]) return;
    const next: KubeObject = {
      ...cm,
      metadata: { ...cm.metadata, annotations: { ...(cm.metadata.annotations ?? {}), [ROOT_CA_DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
      data,
    };
    api.update(next, { fieldManager: 'kube-controller-manager' });
    ctx.trace(ROOT_CA_PUBLISHER_COMPONENT, `${name}/${ROOT_CA_CONFIGMAP_NAME} was changed -> restore ca.crt`, ref(cm));
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: ROOT_CA_PUBLISHER_COMPONENT,
    workers: ROOT_CA_PUBLISHER_WORKERS,
    waitForSync: [namespaces, configMaps],
  });

  return {
    name: ROOT_CA_PUBLISHER_COMPONENT,
    stop() {
      for (const r of regs) r.remove();
      workers.stop();
    },
  };
}
