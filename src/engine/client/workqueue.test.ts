/**
 * The work queue and worker loop, checked against client-go util/workqueue behaviour
 * (queue_test.go, delaying_queue_test.go, default_rate_limiters_test.go) on the virtual clock.
 */
import { describe, expect, it } from 'vitest';
import { Clock } from '../clock';
import { errors } from '../api/errors';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  RateLimitingQueue,
  defaultControllerRateLimiter,
  startWorkers,
  type CacheSyncWaiter,
  type ReconcileResult,
} from './workqueue';

function newQueue(clock = new Clock()) {
  return { clock, q: new RateLimitingQueue(clock, { name: 'test' }) };
}

describe('RateLimitingQueue: de-duplication (queue.go)', () => {
  it('queues a key once however often it is added while waiting', () => {
    const { q } = newQueue();
    q.add('ns/a');
    q.add('ns/a');
    q.add('ns/b');
    expect(q.len()).toBe(2);
    expect(q.get()).toBe('ns/a');
    expect(q.get()).toBe('ns/b');
    expect(q.get()).toBeUndefined();
  });

  it('re-queues a key added while it is processed only after done()', () => {
    const { q } = newQueue();
    q.add('a');
    expect(q.get()).toBe('a');
    q.add('a');
    q.add('a');
    // Never handed to a second worker while the first holds it.
    expect(q.len()).toBe(0);
    expect(q.get()).toBeUndefined();
    q.done('a');
    expect(q.len()).toBe(1);
    expect(q.get()).toBe('a');
    q.done('a');
    expect(q.len()).toBe(0);
  });

  it('ignores adds after shutDown and drops what was queued', () => {
    const { q, clock } = newQueue();
    q.add('a');
    q.addAfter('b', 100);
    q.shutDown();
    q.add('c');
    expect(q.len()).toBe(0);
    expect(q.get()).toBeUndefined();
    expect(clock.pending()).toBe(0); // the delay timer was cancelled
  });
});

describe('RateLimitingQueue: addAfter on the virtual clock (delaying_queue.go)', () => {
  it('makes a key ready exactly when its delay has passed', () => {
    const { q, clock } = newQueue();
    q.addAfter('a', 50);
    clock.runUntil(49);
    expect(q.len()).toBe(0);
    clock.runUntil(50);
    expect(q.len()).toBe(1);
  });

  it('keeps the earlier ready time when a waiting key is added again', () => {
    const { q, clock } = newQueue();
    q.addAfter('a', 500);
    q.addAfter('a', 200); // earlier: replaces
    q.addAfter('b', 200);
    q.addAfter('b', 500); // later: ignored
    expect(q.delayed()).toBe(2);
    clock.runUntil(200);
    expect(q.len()).toBe(2);
    expect(q.delayed()).toBe(0);
    q.get();
    q.get();
    clock.runUntil(1000);
    expect(q.len()).toBe(0); // nothing left over from the replaced timers
  });

  it('treats a zero or negative delay as add()', () => {
    const { q } = newQueue();
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    expect(q.len()).toBe(2);
  });
});

describe('rate limiters (default_rate_limiters.go)', () => {
  it('ItemExponentialFailureRateLimiter doubles from 5 ms and caps at 1000 s', () => {
    const r = new ItemExponentialFailureRateLimiter();
    expect([1, 2, 3, 4, 5].map(() => r.when('one'))).toEqual([5, 10, 20, 40, 80]);
    expect(r.numRequeues('one')).toBe(5);
    expect(r.when('two')).toBe(5); // per item
    r.forget('one');
    expect(r.numRequeues('one')).toBe(0);
    expect(r.when('one')).toBe(5);
    // 5 ms * 2^18 = 1310.72 s > 1000 s
    for (let i = 0; i < 17; i++) r.when('many');
    expect(r.when('many')).toBe(655_360);
    expect(r.when('many')).toBe(1_000_000);
    expect(r.when('many')).toBe(1_000_000);
  });

  it('BucketRateLimiter lets a burst of 100 through, then paces at 10 qps', () => {
    const clock = new Clock();
    const r = new BucketRateLimiter(clock);
    for (let i = 0; i < 100; i++) expect(r.when(`k${i}`)).toBe(0);
    expect(r.when('x')).toBeCloseTo(100, 6);
    expect(r.when('y')).toBeCloseTo(200, 6);
    clock.runUntil(1000); // refills 10 tokens: the bucket is back to +8
    expect(r.when('z')).toBe(0);
  });

  it('DefaultControllerRateLimiter takes the larger of the two delays', () => {
    const clock = new Clock();
    const r = defaultControllerRateLimiter(clock);
    expect(r.when('a')).toBe(5);
    expect(r.when('a')).toBe(10);
    for (let i = 0; i < 98; i++) r.when(`b${i}`); // the bucket's burst is now spent
    expect(r.when('c')).toBeCloseTo(100, 6); // bucket 100 ms > item 5 ms
    expect(r.numRequeues('a')).toBe(2);
    r.forget('a');
    expect(r.numRequeues('a')).toBe(0);
  });

  it('addRateLimited delays a key by the per-item backoff', () => {
    const { q, clock } = newQueue();
    q.addRateLimited('a'); // 5 ms
    clock.runUntil(4);
    expect(q.len()).toBe(0);
    clock.runUntil(5);
    expect(q.get()).toBe('a');
    q.done('a');
    q.addRateLimited('a'); // 10 ms
    clock.runUntil(14);
    expect(q.len()).toBe(0);
    clock.runUntil(15);
    expect(q.len()).toBe(1);
    expect(q.numRequeues('a')).toBe(2);
  });
});

describe('startWorkers: the controller loop on the clock', () => {
  it('processes one key per clock event, interleaved with other events', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'rs' });
    const log: string[] = [];
    startWorkers(q, (key) => void log.push(`reconcile ${key}`), { clock, name: 'rs' });
    q.add('a');
    q.add('b');
    clock.schedule(0, () => log.push('other component'));
    clock.runUntilQuiet();
    // `a` runs in its own event; the other component's event (scheduled after a's drain) runs
    // before `b`'s.
    expect(log).toEqual(['reconcile a', 'other component', 'reconcile b']);
  });

  it('retries a key whose reconcile threw an ApiError with per-item backoff, then forgets it', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'rs' });
    const times: number[] = [];
    const errs: string[] = [];
    startWorkers(
      q,
      (key) => {
        times.push(clock.now());
        if (times.length <= 3) throw errors.connectionRefused();
        expect(q.numRequeues(key)).toBe(3);
      },
      { clock, name: 'rs', onError: (_k, e) => errs.push(e.reason) },
    );
    q.add('a');
    clock.runUntilQuiet();
    // 5 ms, 10 ms, 20 ms of backoff after each failure.
    expect(times).toEqual([0, 5, 15, 35]);
    expect(errs).toEqual(['ServiceUnavailable', 'ServiceUnavailable', 'ServiceUnavailable']);
    expect(q.numRequeues('a')).toBe(0); // forgotten after success
  });

  it('honours requeueAfterMs and requeue like controller-runtime', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'x' });
    const seen: [string, number][] = [];
    const results: ReconcileResult[] = [{ requeueAfterMs: 30_000 }, { requeue: true }, {}];
    startWorkers(
      q,
      (key) => {
        seen.push([key, clock.now()]);
        return results.shift();
      },
      { clock, name: 'x' },
    );
    q.add('k');
    clock.runUntilQuiet();
    expect(seen).toEqual([
      ['k', 0],
      ['k', 30_000],
      ['k', 30_005], // requeue: rate limited, first failure = 5 ms
    ]);
    expect(q.numRequeues('k')).toBe(0);
  });

  it('rethrows a non-API exception (an engine bug) and leaves the queue consistent', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'x' });
    let calls = 0;
    startWorkers(
      q,
      () => {
        calls++;
        if (calls === 1) throw new TypeError('bug');
      },
      { clock, name: 'x' },
    );
    q.add('k');
    expect(() => clock.runUntilQuiet()).toThrow(TypeError);
    q.add('k'); // not stuck in "processing"
    clock.runUntilQuiet();
    expect(calls).toBe(2);
  });

  it('waits for informer caches to sync before processing (WaitForCacheSync)', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'x' });
    let synced = false;
    const cbs: (() => void)[] = [];
    const waiter: CacheSyncWaiter = {
      hasSynced: () => synced,
      whenSynced: (cb) => (synced ? cb() : cbs.push(cb)),
    };
    const seen: string[] = [];
    startWorkers(q, (k) => void seen.push(k), { clock, name: 'x', waitForSync: [waiter] });
    q.add('a');
    clock.runUntil(1000);
    expect(seen).toEqual([]);
    synced = true;
    cbs.forEach((cb) => cb());
    clock.runUntilQuiet();
    expect(seen).toEqual(['a']);
  });

  it('holds a key for costMs and runs up to `workers` keys at once', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'x' });
    const starts: [string, number][] = [];
    startWorkers(q, (k) => void starts.push([k, clock.now()]), { clock, name: 'x', workers: 2, costMs: 100 });
    for (const k of ['a', 'b', 'c']) q.add(k);
    clock.runUntilQuiet();
    expect(starts).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 100],
    ]);
  });

  it('a key re-added while its worker is busy is reconciled again after done', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'x' });
    const starts: number[] = [];
    startWorkers(q, () => void starts.push(clock.now()), { clock, name: 'x', workers: 3, costMs: 50 });
    q.add('a');
    clock.schedule(10, () => q.add('a'));
    clock.runUntilQuiet();
    expect(starts).toEqual([0, 50]); // not concurrently, not twice in a row at 10
  });

  it('stop() shuts the queue down and cancels every pending timer', () => {
    const clock = new Clock();
    const q = new RateLimitingQueue(clock, { name: 'x' });
    let calls = 0;
    const w = startWorkers(
      q,
      () => {
        calls++;
        return { requeueAfterMs: 60_000 };
      },
      { clock, name: 'x', costMs: 10 },
    );
    q.add('a');
    q.add('b');
    clock.runUntil(5); // 'a' is being processed (cost timer), 'a' requeue timer pending
    w.stop();
    expect(clock.pending()).toBe(0);
    clock.runUntil(120_000);
    expect(calls).toBe(1);
    expect(w.processed).toBe(1);
  });
});
