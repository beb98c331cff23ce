/**
 * ttl-after-finished-controller: delete a finished Job `ttlSecondsAfterFinished` seconds after it
 * finished (the time of its `Complete` or `Failed` condition).
 *
 * Mirrors pkg/controller/ttlafterfinished/ttlafterfinished_controller.go: informer (Jobs) ->
 * handlers enqueue finished Jobs that have a TTL -> reconcile(key): not expired yet -> requeue at
 * the expiry time; expired -> DELETE with `propagationPolicy: Foreground` and a uid
 * precondition, so the garbage collector removes the pods first and the Job last. No Events
 * (the real controller records none).
 *
 * Simulation note: the real controller re-reads the Job from kube-apiserver right before
 * deleting it; here the uid precondition on the DELETE plays that part.
 */
import { ApiError } from '../api/errors';
import type { KubeObject } from '../api/types';
import { parseRfc3339 } from '../clock';
import { metaNamespaceKey } from '../client/informer';
import { RateLimitingQueue, startWorkers, type ReconcileResult } from '../client/workqueue';
import type { Controller, ControllerContext } from './manager';
import { isJobFinished } from './job';

/** The component name on traces. */
export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';

/** Workers (`--concurrent-ttl-after-finished-syncs`, default 5). Source: cmd/kube-controller-manager/app/options/ttlafterfinishedcontroller.go. */
export const DEFAULT_CONCURRENT_TTL_SYNCS = 5;

/** `needsCleanup`: a TTL is set and the Job is finished. */
function needsCleanup(job: KubeObject): boolean {
  const ttl = job.spec?.ttlSecondsAfterFinished;
  return ttl !== undefined && ttl !== null && isJobFinished(job);
}

/** `jobFinishTime`: lastTransitionTime of the True Complete/Failed condition (Unix ms), or undefined. */
function finishTime(job: KubeObject): number | undefined {
  const c = (job.status?.conditions ?? []).find(
    (x: { type: string; status: string }) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  );
  return c?.lastTransitionTime ? parseRfc3339(c.lastTransitionTime) : undefined;
}

/** Start the ttl-after-finished-controller (see the file comment). */
export function newTTLAfterFinishedController(ctx: ControllerContext): Controller {
  const { api, clock } = ctx;
  const informer = ctx.informers.informer('jobs');
  const jobs = informer.lister;
  const queue = new RateLimitingQueue(clock, { name: 'ttl_jobs_to_delete' });

  const enqueue = (job: KubeObject) => {
    if (!job.metadata.deletionTimestamp && needsCleanup(job)) queue.add(metaNamespaceKey(job));
  };
  informer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, j) => enqueue(j) });

  const reconcile = (key: string): ReconcileResult | void => {
    const job = jobs.getByKey(key);
    if (!job || job.metadata.deletionTimestamp || !needsCleanup(job)) return;
    const finished = finishTime(job);
    if (finished === undefined) return; // "unable to find the time when the Job finished"
    const expireAt = finished + job.spec.ttlSecondsAfterFinished * 1000;
    const remaining = expireAt - (clock.epochMs + clock.now());
    if (remaining > 0) return { requeueAfterMs: remaining };
    try {
      api.delete('jobs', job.metadata.namespace, job.metadata.name!, {
        propagationPolicy: 'Foreground',
        preconditions: { uid: job.metadata.uid },
        fieldManager: 'kube-controller-manager',
      });
    } catch (e) {
      if (e instanceof ApiError && (e.code === 404 || e.code === 409)) return;
      throw e;
    }
    ctx.trace(TTL_AFTER_FINISHED_CONTROLLER, `${key} finished ${job.spec.ttlSecondsAfterFinished}s ago -> delete (Foreground)`, {
      kind: 'Job',
      namespace: job.metadata.namespace,
      name: job.metadata.name!,
      uid: job.metadata.uid,
    });
  };

  const workers = startWorkers(queue, reconcile, {
    clock,
    name: TTL_AFTER_FINISHED_CONTROLLER,
    workers: ctx.setting('concurrentTTLSyncs', DEFAULT_CONCURRENT_TTL_SYNCS),
    waitForSync: [informer],
  });
  return {
    name: TTL_AFTER_FINISHED_CONTROLLER,
    stop() {
      workers.stop();
    },
  };
}
