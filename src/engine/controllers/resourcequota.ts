/**
 * resourcequota-controller: writes every ResourceQuota's `status.hard` (a copy of `spec.hard`)
 * and `status.used` (the namespace's usage of those resources, api/quota.ts).
 *
 * Mirrors pkg/controller/resourcequota/resource_quota_controller.go: a quota is synced when it
 * is added or its spec changes, on a full resync every `--resource-quota-sync-period` (5 min),
 * and on "replenishment" (pkg/controller/resourcequota/resource_quota_monitor.go): an object it
 * counts is deleted, or a pod turns Succeeded/Failed. Creates are accounted by the ResourceQuota
 * admission plugin at the time of the request (api/quota.ts `admitQuota`).
 */
import type { Controller, ControllerContext } from './manager';
import type { KubeObject } from '../api/types';
import { deepEqual } from '../api/types';
import { RateLimitingQueue, startWorkers } from '../client/workqueue';
import { metaNamespaceKey } from '../client/informer';
import { namespaceUsage } from '../api/quota';
import type { Timer } from '../clock';

/** Component name. */
export const RESOURCEQUOTA_CONTROLLER = 'resourcequota-controller';

/** `--resource-quota-sync-period` default. Source: pkg/controller/resourcequota/config/v1alpha1/defaults.go. Setting `resourceQuotaSyncPeriodMs`. */
export const RESOURCE_QUOTA_SYNC_PERIOD_MS = 5 * 60 * 1000;

/** `--concurrent-resource-quota-syncs` default. Source: same file. */
export const CONCURRENT_RESOURCE_QUOTA_SYNCS = 5;

/** Kinds whose deletion replenishes quota (the monitors the controller starts for the legacy evaluators). */
const REPLENISH = ['pods', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims'];

/** Start the resource quota controller. */
export function newResourceQuotaController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const queue = new RateLimitingQueue(clock, { name: 'resourcequota_primary' });
  const quotas = ctx.informers.informer('resourcequotas');
  const enqueueNamespace = (ns: string | undefined) => {
    for (const q of quotas.lister.list(ns)) queue.add(metaNamespaceKey(q));
  };
  const regs = [
    quotas.addEventHandler({
      onAdd: (q) => queue.add(metaNamespaceKey(q)),
      onUpdate: (old, cur) => {
        if (!deepEqual(old.spec?.hard, cur.spec?.hard) || !deepEqual(cur.spec?.hard, cur.status?.hard)) queue.add(metaNamespaceKey(cur));
      },
    }),
  ];
  for (const resource of REPLENISH) {
    const inf = ctx.informers.informer(resource);
    regs.push(
      inf.addEventHandler({
        onDelete: (o: KubeObject) => enqueueNamespace(o.metadata.namespace),
        onUpdate: (old: KubeObject, cur: KubeObject) => {
          if (resource !== 'pods') return;
          if (!isTerminalPod(old) && isTerminalPod(cur)) enqueueNamespace(cur.metadata.namespace);
        },
      }),
    );
  }

  /** `syncResourceQuota`: status.hard = spec.hard, status.used recalculated. */
  function sync(key: string): void {
    const q = quotas.lister.getByKey(key);
    if (!q) return;
    const hard: Record<string, unknown> = q.spec?.hard ?? {};
    const used = namespaceUsage(api, q.metadata.namespace!, hard, clock.epochMs + clock.now());
    const status = { hard: { ...hard }, used };
    if (deepEqual(q.status ?? {}, status)) return;
    api.updateStatus({ ...q, status }, { fieldManager: 'kube-controller-manager' });
  }

  const workers = startWorkers(queue, sync, {
    clock,
    name: RESOURCEQUOTA_CONTROLLER,
    workers: CONCURRENT_RESOURCE_QUOTA_SYNCS,
    waitForSync: [quotas],
  });

  let timer: Timer | undefined;
  let stopped = false;
  const period = ctx.setting('resourceQuotaSyncPeriodMs', RESOURCE_QUOTA_SYNC_PERIOD_MS);
  const resync = () => {
    if (stopped) return;
    timer = clock.schedule(
      period,
      () => {
        for (const q of quotas.lister.list()) queue.add(metaNamespaceKey(q));
        resync();
      },
      { label: `${RESOURCEQUOTA_CONTROLLER}: resync`, background: true },
    );
  };
  resync();

  return {
    name: RESOURCEQUOTA_CONTROLLER,
    stop() {
      stopped = true;
      timer?.cancel();
      for (const r of regs) r.remove();
      workers.stop();
    },
  };
}

/** A pod in phase Succeeded or Failed (its usage no longer counts). */
function isTerminalPod(p: KubeObject): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
}
