/**
 * The event recorder against the simulated kube-apiserver: Event naming and shape
 * (tools/record/event.go `makeEvent`), the correlator's counting, aggregation and spam filter
 * (tools/record/events_cache.go), and the broadcaster's retries (event.go `recordToSink`).
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng, DEFAULT_EPOCH_MS } from '../clock';
import { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import {
  AGGREGATE_MAX_EVENTS,
  EVENT_LRU_ENTRIES,
  EVENT_RETRY_SLEEP_MS,
  EventCorrelator,
  EventRecorder,
  MAX_TRIES_PER_EVENT,
  SPAM_BURST,
  referenceTo,
  sprintf,
  unixNanosHex,
  type CoreEvent,
  type EventRecorderOptions,
  type LocalEventRecord,
} from './events';

function setup(extra: Partial<EventRecorderOptions> = {}) {
  const clock = new Clock();
  const api = new ApiServer(clock, new Rng(1));
  const rec = new EventRecorder({ api, clock, rng: new Rng(9), component: 'replicaset-controller', ...extra });
  return { clock, api, rec };
}

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'catalog-58544d89f4-4h2kb', namespace: 'default', uid: '1b4e28ba-2fa1-4d2a-9c5e-000000000001', resourceVersion: '42' },
};

const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'k8s-lab-worker', uid: 'node-uid' } };

function events(api: ApiServer, ns = 'default'): CoreEvent[] {
  return api.list('events', { namespace: ns }).items as CoreEvent[];
}

/** `%x` of the Unix time in nanoseconds at virtual time `ms`. */
function hexNs(ms: number, plus = 0n): string {
  return (BigInt(DEFAULT_EPOCH_MS + ms) * 1_000_000n + plus).toString(16);
}

describe('EventRecorder: the Event it writes (makeEvent)', () => {
  it('names it <object>.<hex unix ns> and fills every field as client-go does', () => {
    const { clock, api, rec } = setup({ component: 'kubelet', host: 'k8s-lab-worker' });
    clock.runUntil(1500);
    rec.event(pod, 'Normal', 'Pulled', 'Container image "nginx:1.27" already present on machine');
    expect(events(api)).toEqual([]); // written asynchronously, on the clock
    clock.runUntilQuiet();
    const [ev] = events(api);
    expect(ev.metadata.name).toBe(`catalog-58544d89f4-4h2kb.${hexNs(1500)}`);
    expect(ev.metadata.name).toBe('catalog-58544d89f4-4h2kb.1887c049b0f1ef00');
    expect(ev.metadata.namespace).toBe('default');
    expect(ev.involvedObject).toEqual({
      kind: 'Pod',
      namespace: 'default',
      name: 'catalog-58544d89f4-4h2kb',
      uid: '1b4e28ba-2fa1-4d2a-9c5e-000000000001',
      apiVersion: 'v1',
      resourceVersion: '42',
    });
    expect(ev.reason).toBe('Pulled');
    expect(ev.type).toBe('Normal');
    expect(ev.count).toBe(1);
    expect(ev.source).toEqual({ component: 'kubelet', host: 'k8s-lab-worker' });
    expect(ev.firstTimestamp).toBe('2026-01-05T06:00:01Z');
    expect(ev.lastTimestamp).toBe('2026-01-05T06:00:01Z');
    expect(ev.eventTime).toBeNull();
    expect(ev.reportingComponent).toBe('kubelet');
    expect(ev.reportingInstance).toBe('k8s-lab-worker');
  });

  it('puts events about cluster-scoped objects in the default namespace', () => {
    const { clock, api, rec } = setup({ component: 'node-controller' });
    rec.event(node, 'Normal', 'RegisteredNode', 'Node k8s-lab-worker event: Registered Node k8s-lab-worker in Controller');
    clock.runUntilQuiet();
    const [ev] = events(api);
    expect(ev.metadata.namespace).toBe('default');
    expect(ev.involvedObject.namespace).toBeUndefined();
    expect(ev.source).toEqual({ component: 'node-controller' });
    expect(ev.reportingInstance).toBe('');
  });

  it('keeps names unique within one virtual millisecond by adding nanoseconds', () => {
    const { clock, api, rec } = setup();
    rec.event(pod, 'Normal', 'A', 'one');
    rec.event(pod, 'Normal', 'B', 'two');
    clock.runUntilQuiet();
    expect(events(api).map((e) => e.metadata.name).sort()).toEqual([`${pod.metadata.name}.${hexNs(0)}`, `${pod.metadata.name}.${hexNs(0, 1n)}`]);
  });

  it('carries a fieldPath for container events and formats eventf like fmt.Sprintf', () => {
    const { clock, api, rec } = setup({ component: 'kubelet', host: 'k8s-lab-worker' });
    rec.eventf(referenceTo(pod, 'spec.containers{web}'), 'Warning', 'BackOff', 'Back-off restarting failed container %s in pod %s', 'web', 'catalog');
    clock.runUntilQuiet();
    const [ev] = events(api);
    expect(ev.involvedObject.fieldPath).toBe('spec.containers{web}');
    expect(ev.message).toBe('Back-off restarting failed container web in pod catalog');
    expect(sprintf('%d%% of %q, %v', 50.7, 'x', { a: 1 })).toBe('50% of "x", {"a":1}');
    expect(sprintf('%s and %s', 'one')).toBe('one and %!s(MISSING)');
  });

  it('tells the local sink about every call, at call time', () => {
    const seen: LocalEventRecord[] = [];
    const { clock, rec } = setup({ sink: (e) => seen.push(e) });
    clock.runUntil(250);
    rec.event(pod, 'Normal', 'SuccessfulCreate', 'Created pod: x');
    rec.event(pod, 'Normal', 'SuccessfulCreate', 'Created pod: x');
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ time: 250, component: 'replicaset-controller', type: 'Normal', reason: 'SuccessfulCreate', message: 'Created pod: x' });
    expect(seen[0].involvedObject.name).toBe(pod.metadata.name);
  });
});

describe('EventRecorder: correlation (events_cache.go)', () => {
  it('counts identical events on one Event: count and lastTimestamp move, firstTimestamp stays', () => {
    const { clock, api, rec } = setup({ component: 'kubelet', host: 'k8s-lab-worker' });
    for (let i = 0; i < 5; i++) {
      rec.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container web');
      clock.runUntil(clock.now() + 20_000);
    }
    const evs = events(api);
    expect(evs).toHaveLength(1);
    expect(evs[0].count).toBe(5);
    expect(evs[0].firstTimestamp).toBe('2026-01-05T06:00:00Z');
    expect(evs[0].lastTimestamp).toBe('2026-01-05T06:01:20Z');
    expect(evs[0].metadata.name).toBe(`${pod.metadata.name}.${hexNs(0)}`);
  });

  it(`combines the ${AGGREGATE_MAX_EVENTS}th distinct message of a reason into one "(combined from similar events)" event`, () => {
    const { clock, api, rec } = setup();
    for (let i = 1; i <= 9; i++) rec.event(pod, 'Warning', 'FailedCreate', `Error creating: quota ${i}`);
    clock.runUntilQuiet();
    expect(events(api)).toHaveLength(9);
    rec.event(pod, 'Warning', 'FailedCreate', 'Error creating: quota 10');
    clock.runUntilQuiet();
    let evs = events(api);
    expect(evs).toHaveLength(10);
    const combined = evs.filter((e) => e.message.startsWith('(combined from similar events): '));
    expect(combined.map((e) => [e.message, e.count])).toEqual([['(combined from similar events): Error creating: quota 10', 1]]);
    // Every further distinct message updates the combined event (count, message).
    clock.runUntil(60_000);
    rec.event(pod, 'Warning', 'FailedCreate', 'Error creating: quota 11');
    clock.runUntilQuiet();
    evs = events(api);
    expect(evs).toHaveLength(10);
    const again = evs.find((e) => e.metadata.name === combined[0].metadata.name)!;
    expect(again.count).toBe(2);
    expect(again.message).toBe('(combined from similar events): Error creating: quota 11');
    expect(again.lastTimestamp).toBe('2026-01-05T06:01:00Z');
  });

  it('starts aggregation afresh after 10 minutes without a similar event', () => {
    const { clock, api, rec } = setup();
    for (let i = 1; i <= 9; i++) rec.event(pod, 'Warning', 'FailedCreate', `m${i}`);
    clock.runUntilQuiet();
    clock.runUntil(600_001);
    rec.event(pod, 'Warning', 'FailedCreate', 'm10');
    clock.runUntilQuiet();
    expect(events(api).some((e) => e.message.startsWith('(combined'))).toBe(false);
  });

  it(`drops events beyond a burst of ${SPAM_BURST} per source and object, refilling one per 5 minutes`, () => {
    const { clock, api, rec } = setup();
    for (let i = 0; i < 30; i++) rec.event(pod, 'Normal', `Reason${i}`, 'x');
    clock.runUntilQuiet();
    expect(events(api)).toHaveLength(25);
    expect(rec.dropped).toBe(5);
    rec.event(node, 'Normal', 'Other', 'x'); // another object has its own bucket
    clock.runUntil(299_999);
    rec.event(pod, 'Normal', 'Late', 'x');
    clock.runUntilQuiet();
    expect(events(api)).toHaveLength(26);
    clock.runUntil(300_000 + 1);
    rec.event(pod, 'Normal', 'Later', 'x');
    clock.runUntilQuiet();
    expect(events(api).map((e) => e.reason)).toContain('Later');
  });

  it('re-creates an event the API server expired (1 h TTL) under its old name, keeping the count', () => {
    const { clock, api, rec } = setup();
    rec.event(pod, 'Normal', 'Sync', 'same');
    clock.runUntilQuiet();
    const name = events(api)[0].metadata.name;
    clock.runUntil(61 * 60_000);
    expect(events(api)).toHaveLength(0); // --event-ttl
    rec.event(pod, 'Normal', 'Sync', 'same');
    clock.runUntil(clock.now() + 1);
    const [ev] = events(api);
    expect(ev.metadata.name).toBe(name);
    expect(ev.count).toBe(2);
    expect(ev.firstTimestamp).toBe('2026-01-05T06:00:00Z');
  });
});

describe('EventRecorder: writing while kube-apiserver is away (recordToSink)', () => {
  it('retries a refused write: first after a random part of 10 s, then every 10 s', () => {
    const { clock, api, rec } = setup();
    api.setAvailability('down');
    rec.event(pod, 'Normal', 'A', 'first');
    rec.event(pod, 'Normal', 'B', 'queued behind the first');
    clock.runUntil(0);
    const first = Math.floor(EVENT_RETRY_SLEEP_MS * new Rng(9).float()); // twin of the recorder's Rng
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(10_000);
    clock.runUntil(first + 15_000); // tries at 0, first, first + 10 s
    api.setAvailability('up');
    clock.runUntil(first + 20_000 - 1);
    expect(events(api)).toHaveLength(0);
    clock.runUntil(first + 20_000);
    expect(events(api).map((e) => e.reason)).toEqual(['A', 'B']);
    expect(rec.pending()).toBe(0);
  });

  it(`drops an event after ${MAX_TRIES_PER_EVENT} refused tries, then writes the next one`, () => {
    const { clock, api, rec } = setup();
    api.setAvailability('down');
    rec.event(pod, 'Normal', 'Lost', 'never written');
    clock.runUntil(0);
    const first = Math.floor(EVENT_RETRY_SLEEP_MS * new Rng(9).float());
    // 12 tries: at 0, first, first + 10 s, ..., first + 100 s; then dropped.
    const lastTry = first + 10 * EVENT_RETRY_SLEEP_MS;
    clock.runUntil(lastTry - 1);
    expect(rec.pending()).toBe(1);
    clock.runUntil(lastTry);
    expect(rec.pending()).toBe(0);
    expect(rec.dropped).toBe(1);
    api.setAvailability('up');
    rec.event(pod, 'Normal', 'Next', 'written');
    clock.runUntilQuiet();
    expect(events(api).map((e) => e.reason)).toEqual(['Next']);
  });

  it('does not retry when the server answers with an error Status (e.g. the namespace is gone)', () => {
    const { clock, api, rec } = setup();
    const ghost: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'gone', uid: 'u' } };
    rec.event(ghost, 'Normal', 'X', 'y');
    clock.runUntilQuiet();
    expect(rec.pending()).toBe(0);
    expect(rec.dropped).toBe(1);
    expect(clock.pending()).toBe(0);
    expect(events(api, 'gone')).toEqual([]);
  });

  it('stop() drops queued events and cancels the retry timer', () => {
    const { clock, api, rec } = setup();
    api.setAvailability('down');
    rec.event(pod, 'Normal', 'A', 'a');
    clock.runUntil(0);
    rec.stop();
    api.setAvailability('up');
    rec.event(pod, 'Normal', 'B', 'b'); // a dead process records nothing
    clock.runUntil(60_000);
    expect(events(api)).toEqual([]);
  });
});

describe('EventCorrelator: its LRU caches (groupcache/lru, 4096 entries)', () => {
  const ev = (name: string, ms: number): CoreEvent => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.${ms}`, namespace: 'default' },
    involvedObject: { kind: 'Pod', namespace: 'default', name, apiVersion: 'v1' },
    reason: 'Pulled',
    message: 'Container image "pause:3.10" already present on machine',
    source: { component: 'kubelet', host: 'k8s-lab-worker' },
    firstTimestamp: '2026-01-05T06:00:00Z',
    lastTimestamp: '2026-01-05T06:00:00Z',
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: 'k8s-lab-worker',
  });

  it('forgets the least recently used key past 4096 entries; a repeat refreshes its key', () => {
    const c = new EventCorrelator(new Clock(), (n) => `${n}.agg`);
    expect(c.correlate(ev('a', 0)).patch).toBeUndefined();
    for (let i = 0; i < EVENT_LRU_ENTRIES - 1; i++) expect(c.correlate(ev(`b${i}`, 0)).patch).toBeUndefined();
    // 4096 keys: 'a' is the oldest; seeing it again counts it and makes it the newest.
    expect(c.correlate(ev('a', 1)).patch?.count).toBe(2);
    // One more key evicts the oldest, now b0 (not a).
    expect(c.correlate(ev(`b${EVENT_LRU_ENTRIES - 1}`, 1)).patch).toBeUndefined();
    expect(c.correlate(ev('b0', 2)).patch).toBeUndefined();
    expect(c.correlate(ev('a', 2)).patch?.count).toBe(3);
  });

  it('updateState records what the server stored, right after its correlation or after others', () => {
    const c = new EventCorrelator(new Clock(), (n) => `${n}.agg`);
    const stored = (r: { event: CoreEvent }, rv: string, count = r.event.count): CoreEvent => ({ ...r.event, count, metadata: { ...r.event.metadata, resourceVersion: rv } });
    // Right after: the write's own entry.
    const a = c.correlate(ev('a', 0));
    c.updateState(stored(a, '11'), a);
    expect(c.correlate(ev('a', 1)).event.metadata).toEqual({ name: 'a.0', namespace: 'default', resourceVersion: '11' });
    // After another correlation, and with a count the server changed.
    const b = c.correlate(ev('b', 0));
    const x = c.correlate(ev('x', 0));
    c.updateState(stored(b, '12', 5), b);
    c.updateState(stored(x, '13'), x);
    const b2 = c.correlate(ev('b', 1));
    expect(b2.event.metadata.resourceVersion).toBe('12');
    expect(b2.patch?.count).toBe(6);
    // Without the correlation result: the key is made from the stored event.
    c.updateState(stored(x, '14', 9));
    expect(c.correlate(ev('x', 1)).patch?.count).toBe(10);
  });
});

describe('unixNanosHex: the hex Unix nanoseconds of Event names, without BigInt', () => {
  it('is %x of ms * 1e6 + extra', () => {
    const cases: [number, number][] = [];
    for (const ms of [0, 1, 999, 1048575, 1048576, 1048577, DEFAULT_EPOCH_MS, DEFAULT_EPOCH_MS + 3_599_999, 2 ** 42 - 1, 2 ** 42, 4e12 + 7]) {
      for (const extra of [0, 1, 15, 999_999, 1_000_000, 1_048_575, 1_048_576, 2_500_001]) cases.push([ms, extra]);
    }
    for (const [ms, extra] of cases) expect(unixNanosHex({ ms, extra })).toBe((BigInt(ms) * 1_000_000n + BigInt(extra)).toString(16));
  });

  it('is %x around the 2^28 boundaries of its digit parts, and for spread-out values', () => {
    const cases: [number, number][] = [];
    // ms * 1e6 / 2^20 near multiples of 2^28 (the split of the high digits).
    for (const k of [1, 2, 3, 255, 4096, 65535]) {
      const ms = Math.floor((k * 2 ** 28 * 2 ** 20) / 1e6);
      for (const d of [-2, -1, 0, 1, 2]) for (const extra of [0, 1, 999_999]) cases.push([ms + d, extra]);
    }
    let x = 12345;
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      cases.push([x * 2048 + (i % 2048), i % 7 === 0 ? x % 3_000_000 : i % 5]);
    }
    for (const [ms, extra] of cases) expect(unixNanosHex({ ms, extra })).toBe((BigInt(ms) * 1_000_000n + BigInt(extra)).toString(16));
  });
});
