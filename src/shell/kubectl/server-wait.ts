/**
 * Requests the real kube-apiserver would hold open while it waits on something, made to take
 * that time in the shell's virtual time.
 *
 * The engine's API calls are synchronous. Where the real server blocks a request and retries
 * internally before answering - the ServiceAccount admission plugin polling for a namespace's
 * `default` ServiceAccount (plugin/pkg/admission/serviceaccount/admission.go
 * `getServiceAccount`: 10 tries, 100-199 ms apart) - the engine throws an `ApiError` whose
 * `serverRetry` says so, and kubectl repeats the request on the server's schedule, waiting in
 * virtual time in between. The user sees what they see on a real cluster: `kubectl create ns x`
 * followed at once by `kubectl run -n x ...` succeeds after a moment, because the
 * ServiceAccount controller created `default` meanwhile; without that controller the request
 * fails after about 1.5 s with the plugin's error.
 */
import { ApiError } from '../../engine/api/errors';
import type { Env } from './env';

/** What a generator-based kubectl command yields while it waits (see shell.ts `toPending`). */
export interface Wait {
  /** Virtual ms at which to poll again. */
  wakeAt?: number;
}

/**
 * Run `request` (one API request and what the command does with its answer) as the server
 * would answer it: while it throws an `ApiError` with `serverRetry` and tries remain, wait one
 * retry interval (chosen once per request from the cluster's seeded generator, as the plugin
 * chooses it once) and call it again. Returns `request`'s result or throws its last error.
 */
export function* serverWait<T>(env: Env, request: () => T): Generator<Wait, T, void> {
  let intervalMs: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return request();
    } catch (e) {
      const r = e instanceof ApiError ? e.serverRetry : undefined;
      if (!r || attempt >= r.attempts) throw e;
      intervalMs ??= env.ctx.rng.int(r.minMs, r.maxMs);
      const at = env.ctx.clock.now() + intervalMs;
      while (env.ctx.clock.now() < at) yield { wakeAt: at };
    }
  }
}
