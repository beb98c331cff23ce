/**
 * The events.k8s.io/v1 recorder (client-go tools/events) against the simulated kube-apiserver:
 * the Event it writes and both API views of it, isomorphic events becoming a series whose count
 * reaches the API only when the series is started, finished (6 min) or refreshed (30 min), and
 * retries while the API server is down.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng, DEFAULT_EPOCH_MS } from '../clock';
import { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import { EventsV1Recorder, SERIES_FINISH_MS, SERIES_REFRESH_MS } from './eventsv1';
import type { LocalEventRecord } from './events';

function setup() {
  const clock = new Clock();
  const api = new ApiServer(clock, new Rng(1));
  const local: LocalEventRecord[] = [];
  const rec = new EventsV1Recorder({
    api,
    clock,
    rng: new Rng(9),
    reportingController: 'default-scheduler',
    reportingInstance: 'default-scheduler-k8s-lab-control-plane',
    sink: (e) => local.push(e),
  });
  return { clock, api, rec, local };
}

const pod = (rv = '42'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'big', namespace: 'default', uid: 'pod-uid', resourceVersion: rv },
});

type Any = any;
const core = (api: ApiServer): Any[] => api.list('events', { namespace: 'default' }).items;
const v1 = (api: ApiServer): Any[] => api.list('events.events.k8s.io', { namespace: 'default' }).items;

describe('EventsV1Recorder: the Event it writes (event_recorder.go makeEvent)', () => {
  it('writes eventTime, reporting controller and instance and action, and no deprecated fields', () => {
    const { clock, api, rec, local } = setup();
    clock.runUntil(1500);
    rec.eventf(pod(), undefined, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned default/big to k8s-lab-worker');
    expect(core(api)).toEqual([]); // written on the clock
    expect(local.map((e) => [e.component, e.reason])).toEqual([['default-scheduler', 'Scheduled']]);
    clock.runUntilQuiet();
    const [e] = v1(api);
    expect(e.metadata.name).toBe(`big.${((BigInt(DEFAULT_EPOCH_MS + 1500) * 1_000_000n).toString(16))}`);
    expect(e).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      eventTime: '2026-01-05T06:00:01.500000Z',
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-k8s-lab-control-plane',
      action: 'Binding',
      reason: 'Scheduled',
      regarding: { kind: 'Pod', namespace: 'default', name: 'big', uid: 'pod-uid', apiVersion: 'v1', resourceVersion: '42' },
      note: 'Successfully assigned default/big to k8s-lab-worker',
      type: 'Normal',
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    expect(e).not.toHaveProperty('deprecatedCount');
    // The same object in the core/v1 view (one resource, two views).
    const [c] = core(api);
    expect(c.metadata.name).toBe(e.metadata.name);
    expect(c).toMatchObject({
      apiVersion: 'v1',
      involvedObject: e.regarding,
      message: e.note,
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: '2026-01-05T06:00:01.500000Z',
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      reportingInstance: 'default-scheduler-k8s-lab-control-plane',
    });
    expect(c).not.toHaveProperty('count');
  });

  it('sets related (the preemptor of a Preempted victim)', () => {
    const { clock, api, rec } = setup();
    rec.eventf(pod(), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'vip', namespace: 'default', uid: 'vip-uid' } }, 'Normal', 'Preempted', 'Preempting', 'Preempted by pod vip-uid on node k8s-lab-worker');
    clock.runUntilQuiet();
    expect(v1(api)[0].related).toEqual({ kind: 'Pod', namespace: 'default', name: 'vip', uid: 'vip-uid', apiVersion: 'v1' });
    expect(core(api)[0].related).toEqual({ kind: 'Pod', namespace: 'default', name: 'vip', uid: 'vip-uid', apiVersion: 'v1' });
  });
});

describe('EventsV1Recorder: series (event_broadcaster.go recordToSink, finishSeries, refreshExistingEventSeries)', () => {
  it('makes the second isomorphic event a series of 2 and counts later ones only in its cache', () => {
    const { clock, api, rec } = setup();
    rec.eventf(pod(), undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/3 nodes are available: 2 Insufficient cpu.');
    clock.runUntil(60_000);
    // A different note is still the same series (the key leaves the note out).
    rec.eventf(pod(), undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/3 nodes are available: 3 Insufficient cpu.');
    clock.runUntil(120_000);
    rec.eventf(pod(), undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/3 nodes are available: 3 Insufficient cpu.');
    clock.runUntil(180_000);
    const [e] = v1(api);
    expect(v1(api)).toHaveLength(1);
    // The first note stays; the series says 2, observed at the second event.
    expect(e.note).toBe('0/3 nodes are available: 2 Insufficient cpu.');
    expect(e.series).toEqual({ count: 2, lastObservedTime: '2026-01-05T06:01:00.000000Z' });
    expect(core(api)[0].series).toEqual(e.series);
  });

  it('writes the final count when a series ends (6 min without a repeat) and starts a new Event after', () => {
    const { clock, api, rec } = setup();
    const fail = () => rec.eventf(pod(), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no');
    fail();
    clock.runUntil(10_000);
    fail();
    clock.runUntil(20_000);
    fail();
    clock.runUntil(SERIES_FINISH_MS + 1000); // the first finishSeries: last seen 340 s ago
    expect(v1(api)[0].series.count).toBe(2);
    clock.runUntil(2 * SERIES_FINISH_MS + 1000); // the second: more than 6 min ago
    expect(v1(api)).toHaveLength(1);
    expect(v1(api)[0].series).toEqual({ count: 3, lastObservedTime: '2026-01-05T06:00:20.000000Z' });
    fail();
    clock.runUntil(2 * SERIES_FINISH_MS + 2000);
    const all = v1(api);
    expect(all).toHaveLength(2);
    expect(all.filter((e) => !e.series)).toHaveLength(1);
  });

  it('refreshes an open series every 30 min', () => {
    const { clock, api, rec } = setup();
    const fail = () => rec.eventf(pod(), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no');
    // A repeat every 5 min keeps the series open: at 0, 5, ..., 25 min.
    for (let t = 0; t <= 25 * 60_000; t += 5 * 60_000) {
      clock.runUntil(t);
      fail();
    }
    clock.runUntil(SERIES_REFRESH_MS - 1000);
    expect(v1(api)[0].series.count).toBe(2);
    clock.runUntil(SERIES_REFRESH_MS + 1000);
    expect(v1(api)[0].series).toEqual({ count: 6, lastObservedTime: '2026-01-05T06:25:00.000000Z' });
  });

  it('keeps events about different resourceVersions of the object apart (the key has the whole reference)', () => {
    const { clock, api, rec } = setup();
    rec.eventf(pod('42'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no');
    clock.runUntil(1000);
    rec.eventf(pod('43'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no');
    clock.runUntil(2000);
    expect(v1(api).map((e) => [e.regarding.resourceVersion, e.series])).toEqual([
      ['42', undefined],
      ['43', undefined],
    ]);
  });

  it('retries while the API server is down (10 s jittered by up to 25 %) and forgets everything when stopped', () => {
    const { clock, api, rec } = setup();
    api.setAvailability('down');
    rec.eventf(pod(), undefined, 'Normal', 'Scheduled', 'Binding', 'ok');
    clock.runUntil(9_999);
    api.setAvailability('up');
    expect(core(api)).toEqual([]);
    clock.runUntil(12_500);
    expect(core(api)).toHaveLength(1);
    rec.stop();
    rec.eventf(pod(), undefined, 'Normal', 'Scheduled', 'Binding', 'ok');
    clock.runUntil(60_000);
    expect(core(api)).toHaveLength(1);
  });
});

describe('kube-apiserver: Event validation by API version (pkg/apis/core/validation/events.go)', () => {
  const meta = (name: string, namespace = 'default') => ({ name, namespace });
  const invalid = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return 'created';
  };

  it('events.k8s.io/v1 creates are strict: eventTime, a known type, no deprecated fields', () => {
    const { api } = setup();
    const msg = invalid(() => api.create({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: meta('hand.1'), regarding: { kind: 'Pod', name: 'x', namespace: 'default' }, note: 'hi', type: 'Info', deprecatedCount: 3 } as KubeObject));
    expect(msg).toBe('Event "hand.1" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Info, count: Invalid value: "": needs to be unset]');
  });

  it('every new-style Event (with eventTime) needs its reporting controller and instance, action and reason', () => {
    const { api } = setup();
    const msg = invalid(() => api.create({ apiVersion: 'v1', kind: 'Event', metadata: meta('hand.2'), involvedObject: { kind: 'Pod', name: 'x', namespace: 'default' }, eventTime: '2026-01-05T06:00:00.000000Z', type: 'Normal', message: 'hi' } as KubeObject));
    // An empty reporting controller also fails IsQualifiedName, twice, as in Go.
    expect(msg).toBe(
      'Event "hand.2" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, ' +
        "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
        'reportingInstance: Required value, action: Required value, reason: Required value]',
    );
  });

  it('an old-style core/v1 Event must be in its object\'s namespace; core/v1 is not strict', () => {
    const { api } = setup();
    expect(invalid(() => api.create({ apiVersion: 'v1', kind: 'Event', metadata: meta('hand.3', 'kube-system'), involvedObject: { kind: 'Pod', name: 'x', namespace: 'default' }, reason: 'Hand', message: 'hi', type: 'Info' } as KubeObject))).toBe(
      'Event "hand.3" is invalid: involvedObject.namespace: Invalid value: "default": does not match event.namespace',
    );
    expect(invalid(() => api.create({ apiVersion: 'v1', kind: 'Event', metadata: meta('hand.4'), involvedObject: { kind: 'Node', name: 'k8s-lab-worker' }, reason: 'Hand', message: 'hi', type: 'Info' } as KubeObject))).toBe('created');
  });
});
