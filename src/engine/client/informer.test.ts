/**
 * Shared informers against the simulated kube-apiserver: list + watch, handlers, the lister and
 * indexers, and above all the catch-up after a process restart or an API outage
 * (client-go tools/cache: reflector.go, shared_informer.go, delta_fifo.go `Replace`).
 */
import { describe, expect, it, vi } from 'vitest';
import { Clock, Rng } from '../clock';
import { ApiServer } from '../api/server';
import { errors } from '../api/errors';
import type { KubeObject, WatchEvent } from '../api/types';
import {
  REFLECTOR_BACKOFF,
  SharedInformerFactory,
  indexByControllerUid,
  metaNamespaceKey,
  splitMetaNamespaceKey,
  type ClientLogLine,
  type EventHandler,
  type SharedInformerFactoryOptions,
} from './informer';
import { RateLimitingQueue, startWorkers } from './workqueue';

function setup(seed = 1) {
  const clock = new Clock();
  const api = new ApiServer(clock, new Rng(seed));
  return { clock, api };
}

function cm(name: string, data: Record<string, string> = { v: '1' }, ns = 'default', labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, ...(labels ? { labels } : {}) }, data };
}

function factory(api: ApiServer, clock: Clock, extra: Partial<SharedInformerFactoryOptions> = {}) {
  return new SharedInformerFactory({ api, clock, rng: new Rng(42), name: 'test-controller', ...extra });
}

/** `data.v` of a ConfigMap. */
const v = (o: KubeObject) => (o.data as Record<string, string> | undefined)?.v;

/** A handler that records what it is told, as `add ns/name`, `update ns/name v1->v2`, ... */
function recorder() {
  const log: string[] = [];
  const h: EventHandler = {
    onAdd: (o, initial) => log.push(`add ${metaNamespaceKey(o)}${initial ? ' (initial)' : ''}`),
    onUpdate: (a, b) => log.push(`update ${metaNamespaceKey(b)} ${v(a)}->${v(b)}`),
    onDelete: (o, unknown) => log.push(`delete ${metaNamespaceKey(o)}${unknown ? ' (final state unknown)' : ''}`),
  };
  return { log, h };
}

function update(api: ApiServer, name: string, value: string, ns = 'default') {
  const o = api.get('configmaps', ns, name);
  o.data = { ...(o.data as Record<string, string>), v: value };
  return api.update(o);
}

describe('keys', () => {
  it('uses namespace/name, or name for cluster-scoped objects (MetaNamespaceKeyFunc)', () => {
    expect(metaNamespaceKey(cm('a'))).toBe('default/a');
    expect(metaNamespaceKey({ metadata: { name: 'node-1' } })).toBe('node-1');
    expect(splitMetaNamespaceKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitMetaNamespaceKey('node-1')).toEqual({ name: 'node-1' });
  });
});

describe('Informer: list, watch, handlers', () => {
  it('lists on start (in a clock event), fires onAdd for existing objects, then follows the watch', () => {
    const { clock, api } = setup();
    api.create(cm('a'));
    api.create(cm('b'));
    const f = factory(api, clock);
    const inf = f.informer('configmaps', { namespace: 'default' });
    const { log, h } = recorder();
    inf.addEventHandler(h);
    f.start();
    expect(inf.hasSynced()).toBe(false); // nothing happens inside start()
    clock.runUntilQuiet();
    expect(inf.hasSynced()).toBe(true);
    expect(log).toEqual(['add default/a (initial)', 'add default/b (initial)']);

    log.length = 0;
    api.create(cm('c'));
    update(api, 'a', '2');
    api.delete('configmaps', 'default', 'b');
    clock.runUntilQuiet();
    expect(log).toEqual(['add default/c', 'update default/a 1->2', 'delete default/b']);
    expect(inf.lister.list().map(metaNamespaceKey)).toEqual(['default/a', 'default/c']);
    expect(v(inf.lister.get('default', 'a')!)).toBe('2');
    expect(inf.lastSyncResourceVersion).toBe(api.resourceVersion());
  });

  it('replays the cache as adds to a handler registered after sync', () => {
    const { clock, api } = setup();
    api.create(cm('a'));
    const f = factory(api, clock);
    const inf = f.informer('configmaps');
    f.start();
    clock.runUntilQuiet();
    const { log, h } = recorder();
    const reg = inf.addEventHandler(h);
    expect(log).toEqual(['add default/a (initial)']);
    expect(reg.hasSynced()).toBe(true);
    reg.remove();
    api.create(cm('z'));
    clock.runUntilQuiet();
    expect(log).toEqual(['add default/a (initial)']);
  });

  it('serves the lister by namespace, label selector and custom indexes', () => {
    const { clock, api } = setup();
    api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    api.create(cm('a', {}, 'default', { app: 'web' }));
    api.create(cm('b', {}, 'shop', { app: 'web' }));
    api.create(cm('c', {}, 'shop', { app: 'db' }));
    const f = factory(api, clock);
    const inf = f.informer('configmaps', { indexers: { byApp: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) } });
    f.start();
    clock.runUntilQuiet();
    const names = (xs: KubeObject[]) => xs.map((o) => o.metadata.name);
    expect(names(inf.lister.list('shop'))).toEqual(['b', 'c']);
    expect(names(inf.lister.list(undefined, 'app=web'))).toEqual(['a', 'b']);
    expect(names(inf.lister.list('shop', 'app!=web'))).toEqual(['c']);
    expect(names(inf.lister.byIndex('byApp', 'web'))).toEqual(['a', 'b']);
    expect(names(inf.lister.byIndex('namespace', 'shop'))).toEqual(['b', 'c']);
    // Index values follow updates.
    const c = api.get('configmaps', 'shop', 'c');
    c.metadata.labels = { app: 'web' };
    api.update(c);
    clock.runUntilQuiet();
    expect(names(inf.lister.byIndex('byApp', 'web'))).toEqual(['a', 'b', 'c']);
    expect(inf.lister.byIndex('byApp', 'db')).toEqual([]);
    expect(() => inf.lister.byIndex('nope', 'x')).toThrow(/does not exist/);
  });

  it('indexes by controller owner uid', () => {
    const { clock, api } = setup();
    const owner = api.create(cm('owner'));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid!, controller: true };
    api.create({ ...cm('child'), metadata: { name: 'child', namespace: 'default', ownerReferences: [ref] } });
    const f = factory(api, clock);
    const inf = f.informer('configmaps', { indexers: { controller: indexByControllerUid } });
    f.start();
    clock.runUntilQuiet();
    expect(inf.lister.byIndex('controller', owner.metadata.uid!).map((o) => o.metadata.name)).toEqual(['child']);
  });

  it('shares one informer per resource and options within a factory', () => {
    const { clock, api } = setup();
    const f = factory(api, clock);
    expect(f.informer('configmaps')).toBe(f.informer('configmaps'));
    expect(f.informer('configmaps')).not.toBe(f.informer('configmaps', { namespace: 'default' }));
  });

  it('fires onUpdate(obj, obj) for every object on each resync, as background events', () => {
    const { clock, api } = setup();
    api.create(cm('a'));
    const f = factory(api, clock);
    const inf = f.informer('configmaps', { resyncMs: 30_000 });
    const { log, h } = recorder();
    inf.addEventHandler(h);
    f.start();
    const q = clock.runUntilQuiet();
    expect(q.quiet).toBe(true); // the resync timer does not count as pending work
    clock.runUntil(60_000);
    expect(log).toEqual(['add default/a (initial)', 'update default/a 1->1', 'update default/a 1->1']);
  });
});

describe('Informer: catch-up after the process restarts', () => {
  it('a new factory lists and fires onAdd for everything written while the old one was dead', () => {
    const { clock, api } = setup();
    api.create(cm('a'));
    const f1 = factory(api, clock);
    const inf1 = f1.informer('configmaps', { namespace: 'default' });
    const first = recorder();
    inf1.addEventHandler(first.h);
    f1.start();
    clock.runUntilQuiet();
    expect(first.log).toEqual(['add default/a (initial)']);

    // The process dies: memory, watches and timers are gone.
    f1.stop();
    expect(inf1.hasSynced()).toBe(false);
    expect(inf1.size()).toBe(0);
    expect(inf1.isWatching()).toBe(false);
    expect(clock.pending()).toBe(0);

    // The cluster moves on without it.
    api.create(cm('b'));
    api.create(cm('c'));
    update(api, 'a', '2');
    api.delete('configmaps', 'default', 'c');
    clock.runUntil(60_000);
    expect(first.log).toEqual(['add default/a (initial)']); // the dead process heard nothing

    // The restarted process relists and sees the current state as adds.
    const f2 = factory(api, clock);
    const inf2 = f2.informer('configmaps', { namespace: 'default' });
    const second = recorder();
    inf2.addEventHandler(second.h);
    f2.start();
    clock.runUntilQuiet();
    expect(second.log).toEqual(['add default/a (initial)', 'add default/b (initial)']);
    expect(v(inf2.lister.get('default', 'a')!)).toBe('2');
  });

  it('stop() makes further use of the factory an error', () => {
    const { clock, api } = setup();
    const f = factory(api, clock);
    f.start();
    f.stop();
    expect(() => f.informer('pods')).toThrow(/stopped/);
    expect(() => f.start()).toThrow(/stopped/);
  });
});

describe('Informer: kube-apiserver outage', () => {
  it('notices the broken watch, retries the list with backoff, and catches up when the API is back', () => {
    const { clock, api } = setup();
    api.create(cm('keep'));
    api.create(cm('change'));
    api.create(cm('remove'));
    const lines: [number, ClientLogLine][] = [];
    const f = factory(api, clock, { backoff: { jitter: 0 }, log: (l) => lines.push([clock.now(), l]) });
    const inf = f.informer('configmaps', { namespace: 'default' });
    const { log, h } = recorder();
    inf.addEventHandler(h);
    f.start();
    clock.runUntilQuiet();
    log.length = 0;

    api.setAvailability('down'); // at t=0: the watch ends silently
    expect(inf.isWatching()).toBe(false);
    clock.runUntil(10_000);
    // The probe notices at 1 s and relists at once (refused), then backs off 0.8, 1.6, 3.2 s.
    const listFailures = lines.filter(([, l]) => l.message.includes('failed to list')).map(([t]) => t);
    expect(listFailures).toEqual([1000, 1800, 3400, 6600]);
    expect(lines[0][1].message).toContain('watch of *v1.ConfigMap ended with');
    expect(lines[1][1].message).toContain('was refused - did you specify the right host or port?');
    expect(inf.lister.list().length).toBe(3); // the cache is kept while the API is away
    expect(inf.hasSynced()).toBe(true);

    // The API comes back; a writer changes things before the informer's next attempt (13 s).
    api.setAvailability('up');
    api.create(cm('new'));
    update(api, 'change', '2');
    api.delete('configmaps', 'default', 'remove');
    clock.runUntil(12_999);
    expect(log).toEqual([]);
    clock.runUntil(13_000);
    expect(inf.listCount).toBe(2);
    expect(log).toEqual(['update default/change 1->2', 'add default/new', 'delete default/remove (final state unknown)']);
    expect(inf.lastError).toBeUndefined();

    // And it watches again.
    log.length = 0;
    api.create(cm('later'));
    clock.runUntilQuiet();
    expect(log).toEqual(['add default/later']);
  });

  it('runs no probe while every watch is open, and notices a watch ended at the next tick of its 1 s grid', () => {
    const { clock, api } = setup();
    api.create(cm('keep'));
    const lines: [number, ClientLogLine][] = [];
    const f = factory(api, clock, { backoff: { jitter: 0 }, log: (l) => lines.push([clock.now(), l]) });
    const inf = f.informer('configmaps', { namespace: 'default' });
    f.start(); // the grid: 1000, 2000, ... from t=0
    clock.runUntilQuiet();
    clock.runUntil(1500);
    const idle = clock.pending(); // no probe among them: nothing has ended
    const executed = clock.executed;
    clock.runUntil(2999); // across the grid's 2000: no event runs
    expect(clock.executed).toBe(executed);
    api.setAvailability('down'); // at t=2999: the watch ends, the probe is queued for the grid's 3000
    expect(clock.pending()).toBe(idle + 1);
    expect(lines).toEqual([]);
    clock.runUntil(3000);
    expect(lines.map(([t, l]) => [t, l.message.slice(0, 40)])).toEqual([
      [3000, 'reflector: watch of *v1.ConfigMap ended '],
      [3000, 'reflector: failed to list *v1.ConfigMap:'],
    ]);
    expect(inf.isWatching()).toBe(false);
  });

  it('draws the backoff jitter from the Rng: [d, 2d), capped at [30, 60) s', () => {
    const { clock, api } = setup();
    const attempts: number[] = [];
    const rng = new Rng(7);
    const f = new SharedInformerFactory({
      api,
      clock,
      rng,
      name: 'kcm',
      log: (l) => l.message.includes('failed to list') && attempts.push(clock.now()),
    });
    api.setAvailability('down');
    f.informer('configmaps');
    f.start(); // the process starts while kube-apiserver is down
    clock.runUntil(10 * 60_000);

    // Expected times from a twin generator: client-go's steps are 0.8, 1.6, ..., 25.6, then 30 s.
    const twin = new Rng(7);
    const expected: number[] = [0];
    let d = REFLECTOR_BACKOFF.initialMs;
    while (expected.length < attempts.length) {
      expected.push(expected[expected.length - 1] + twin.jitter(d, 1));
      d = Math.min(d * 2, REFLECTOR_BACKOFF.maxMs);
    }
    expect(attempts.length).toBeGreaterThan(15);
    expect(attempts).toEqual(expected);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
    expect(gaps[0]).toBeGreaterThanOrEqual(800);
    expect(gaps[0]).toBeLessThan(1600);
    for (const g of gaps.slice(7)) {
      expect(g).toBeGreaterThanOrEqual(30_000);
      expect(g).toBeLessThan(60_000);
    }
  });

  it('the first retry after a long healthy period starts from 800 ms again (2 min reset)', () => {
    const { clock, api } = setup();
    const attempts: number[] = [];
    const f = factory(api, clock, { backoff: { jitter: 0 }, log: (l) => l.message.includes('failed to list') && attempts.push(clock.now()) });
    f.informer('configmaps');
    api.setAvailability('down');
    f.start();
    clock.runUntil(20_000); // 0, 0.8, 2.4, 5.6, 12 (next would be 24.8)
    expect(attempts).toEqual([0, 800, 2400, 5600, 12_000]);
    api.setAvailability('up');
    clock.runUntil(30_000); // relisted at 24.8 s
    clock.runUntil(10 * 60_000); // healthy for minutes
    attempts.length = 0;
    api.setAvailability('down');
    clock.runUntil(10 * 60_000 + 5000);
    const t0 = attempts[0];
    expect(attempts.map((t) => t - t0)).toEqual([0, 800, 2400]);
  });

  it('keeps listing with backoff while etcd is unreachable (500 from the server)', () => {
    const { clock, api } = setup();
    const f = factory(api, clock, { backoff: { jitter: 0 } });
    const inf = f.informer('configmaps');
    api.setAvailability('etcd-unreachable');
    f.start();
    clock.runUntil(5000);
    expect(inf.hasSynced()).toBe(false);
    expect(inf.lastError?.message).toBe('etcdserver: request timed out');
    api.setAvailability('up');
    clock.runUntil(6000); // attempts at 0, 0.8, 2.4, 5.6 s
    expect(inf.hasSynced()).toBe(true);
  });
});

describe('Informer: 410 Gone', () => {
  it('relists after a watch ERROR with a 410 Status and fires what changed', () => {
    const { clock, api } = setup();
    api.create(cm('a'));
    api.create(cm('b'));
    let deliver: ((ev: WatchEvent) => void) | undefined;
    const realWatch = api.watch.bind(api);
    vi.spyOn(api, 'watch').mockImplementation((type, opts, handler) => {
      deliver = handler;
      return realWatch(type, opts, handler);
    });
    const f = factory(api, clock, { backoff: { jitter: 0 } });
    const inf = f.informer('configmaps');
    const { log, h } = recorder();
    inf.addEventHandler(h);
    f.start();
    clock.runUntilQuiet();
    log.length = 0;

    // The watch was compacted away; the server says so and ends the watch.
    const stale = deliver!;
    stale({ type: 'ERROR', object: errors.gone('too old resource version: 3 (9)').status as unknown as KubeObject });
    expect(inf.isWatching()).toBe(false);
    expect(inf.lastError?.code).toBe(410);
    // Events still arriving on the old watch are ignored.
    api.create(cm('c'));
    update(api, 'a', '2');
    clock.runUntil(799);
    expect(log).toEqual([]);
    clock.runUntil(800); // reflector backoff (800 ms), then the relist
    expect(inf.listCount).toBe(2);
    expect(log).toEqual(['update default/a 1->2', 'add default/c']);
    expect(inf.isWatching()).toBe(true);
  });
});

describe('informer + work queue: a level-triggered controller in miniature', () => {
  /**
   * A toy controller of one process: for every ConfigMap labelled `role=source` it ensures a
   * `<name>-copy` exists. Handlers only enqueue keys; reconcile reads the cache and writes
   * through the API; a refused write is retried with backoff.
   */
  function startProcess(api: ApiServer, clock: Clock) {
    const factory = new SharedInformerFactory({ api, clock, rng: new Rng(3), name: 'copy-controller' });
    const inf = factory.informer('configmaps', { namespace: 'default' });
    const queue = new RateLimitingQueue(clock, { name: 'copy' });
    const enqueue = (o: KubeObject) => o.metadata.labels?.role === 'source' && queue.add(metaNamespaceKey(o));
    inf.addEventHandler({ onAdd: enqueue, onUpdate: (_old, o) => enqueue(o) });
    const workers = startWorkers(
      queue,
      (key) => {
        const { namespace, name } = splitMetaNamespaceKey(key);
        if (!inf.lister.get(namespace, name) || inf.lister.get(namespace, `${name}-copy`)) return;
        api.create(cm(`${name}-copy`));
      },
      { clock, name: 'copy-controller', waitForSync: [inf] },
    );
    factory.start();
    return {
      kill: () => {
        workers.stop();
        factory.stop();
      },
    };
  }
  const copies = (api: ApiServer) =>
    api
      .list('configmaps', { namespace: 'default' })
      .items.map((o) => o.metadata.name!)
      .filter((n) => n.endsWith('-copy'));

  it('catches up on what happened while it was dead, and retries through an API outage', () => {
    const { clock, api } = setup();
    const p1 = startProcess(api, clock);
    api.create(cm('a', {}, 'default', { role: 'source' }));
    clock.runUntilQuiet();
    expect(copies(api)).toEqual(['a-copy']);

    p1.kill();
    api.create(cm('b', {}, 'default', { role: 'source' }));
    clock.runUntil(clock.now() + 60_000);
    expect(copies(api)).toEqual(['a-copy']); // nobody is reconciling

    startProcess(api, clock);
    clock.runUntilQuiet();
    expect(copies(api)).toEqual(['a-copy', 'b-copy']);

    // The API goes away mid-flight: the watch breaks, writes are refused, everything retries.
    api.create(cm('c', {}, 'default', { role: 'source' }));
    api.setAvailability('down');
    clock.runUntil(clock.now() + 20_000);
    api.setAvailability('up');
    clock.runUntil(clock.now() + 60_000);
    expect(copies(api)).toEqual(['a-copy', 'b-copy', 'c-copy']);
  });
});
