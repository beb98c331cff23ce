/**
 * serviceaccount-controller: makes sure every Active namespace has a ServiceAccount named
 * `default`, and recreates it when it is deleted. Mirrors
 * pkg/controller/serviceaccount/serviceaccounts_controller.go.
 *
 * Informers: namespaces (add/update -> queue the namespace), serviceaccounts (delete -> queue
 * its namespace). `reconcile(namespace)` reads both caches and creates what is missing.
 * Since 1.24 (LegacyServiceAccountTokenNoAutoGeneration, GA) no token Secret is created for the
 * account: pods get a projected, time-bound token instead (the `kube-api-access-*` volume).
 * A namespace that is not Active (Terminating) gets nothing; a create refused because the
 * namespace is being terminated is not an error. The real controller records no Events.
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { ApiError } from '../api/errors';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';
import { isNamespaceTerminatingError } from './util';

/** Component name. Source: cmd/kube-controller-manager (`serviceaccount-controller`). */
export const SERVICEACCOUNT_COMPONENT = 'serviceaccount-controller';

/**
 * The accounts ensured in every namespace.
 * Source: serviceaccounts_controller.go (`DefaultServiceAccountsControllerOptions`).
 */
export const SERVICE_ACCOUNTS_TO_ENSURE: readonly string[] = ['default'];

/** Workers. Source: cmd/kube-controller-manager/app/core.go (`serviceAccountController.Run(ctx, 1)`). */
export const SERVICEACCOUNT_WORKERS = 1;

/** Start the serviceaccount controller. */
export function newServiceAccountController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const namespaces = ctx.informers.informer('namespaces');
  const serviceAccounts = ctx.informers.informer('serviceaccounts');
  const queue = new RateLimitingQueue(clock, { name: 'serviceaccount' });

  const regs = [
    namespaces.addEventHandler({
      onAdd: (ns) => queue.add(ns.metadata.name!),
      onUpdate: (_old, ns) => queue.add(ns.metadata.name!),
    }),
    serviceAccounts.addEventHandler({
      onDelete: (sa) => queue.add(sa.metadata.namespace!),
    }),
  ];

  /** `syncNamespace`. */
  const reconcile = (name: string): void => {
    const ns = namespaces.lister.get(undefined, name);
    if (!ns) return;
    // If namespace is not active, we shouldn't try to create anything.
    if (ns.status?.phase !== 'Active') return;
    const failures: ApiError[] = [];
    for (const saName of SERVICE_ACCOUNTS_TO_ENSURE) {
      if (serviceAccounts.lister.get(name, saName)) continue;
      const sa: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: saName, namespace: name } };
      try {
        const created = api.create(sa, { fieldManager: 'kube-controller-manager' });
        ctx.trace(SERVICEACCOUNT_COMPONENT, `${name} has no ServiceAccount ${saName} -> create`, {
          kind: 'ServiceAccount',
          namespace: name,
          name: saName,
          uid: created.metadata.uid,
        });
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        if (e.code === 409 && e.reason === 'AlreadyExists') continue;
        if (isNamespaceTerminatingError(e)) continue;
        failures.push(e);
      }
    }
    if (failures.length) throw failures[0];
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: SERVICEACCOUNT_COMPONENT,
    workers: SERVICEACCOUNT_WORKERS,
    waitForSync: [namespaces, serviceAccounts],
  });

  return {
    name: SERVICEACCOUNT_COMPONENT,
    stop() {
      for (const r of regs) r.remove();
      workers.stop();
    },
  };
}
