import { describe, it, expect } from 'vitest';
import { Clock, Rng } from '../clock';
import { ApiServer } from './server';
import { ApiError } from './errors';
import { parseManifests } from './yaml';
import { SharedInformerFactory } from '../client/informer';
import { FileSystem } from '../node/fs';
import type { KubeObject, WatchEvent } from './types';

/**
 * The cheaper read paths of the idle cluster (issue #4) answer what the API answers: a read-only
 * GET sees the stored state and the same errors, a re-read manifest gives the same objects, a
 * watch that the server ends is still noticed, and every watcher sees every write.
 */
function newApi(): { api: ApiServer; clock: Clock } {
  const clock = new Clock();
  return { api: new ApiServer(clock, new Rng(1)), clock };
}

const cm = (name: string, data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });

describe('ApiServer.tryGetShared (a GET for readers that do not change the object)', () => {
  it('returns what GET returns, undefined when absent or of an unknown type, and the connection error when down', () => {
    const { api } = newApi();
    api.create(cm('a', { k: 'v' }));
    expect(api.tryGetShared('configmaps', 'default', 'a')).toEqual(api.get('configmaps', 'default', 'a'));
    expect(api.tryGetShared('configmaps', 'default', 'b')).toBeUndefined();
    expect(api.tryGetShared('nosuchthings', 'default', 'a')).toBeUndefined();
    api.setAvailability('down');
    let err: unknown;
    try {
      api.tryGetShared('configmaps', 'default', 'a');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).connectionRefused).toBe(true);
  });

  it('keeps showing the state at the time of the read after later writes (stored objects are replaced, not changed)', () => {
    const { api } = newApi();
    api.create(cm('a', { k: 'v1' }));
    const seen = api.tryGetShared('configmaps', 'default', 'a')!;
    const cur = api.get('configmaps', 'default', 'a');
    api.update({ ...cur, data: { k: 'v2' } });
    expect(seen.data).toEqual({ k: 'v1' });
    expect(api.tryGetShared('configmaps', 'default', 'a')!.data).toEqual({ k: 'v2' });
  });

  it('tryGet still hands out a private copy', () => {
    const { api } = newApi();
    api.create(cm('a', { k: 'v' }));
    const mine = api.tryGet('configmaps', 'default', 'a')!;
    mine.data = { k: 'changed' };
    expect(api.get('configmaps', 'default', 'a').data).toEqual({ k: 'v' });
  });
});

describe('watch fan-out', () => {
  it('every watch gets every write, in order, with the right event type', () => {
    const { api, clock } = newApi();
    const seen: string[][] = [[], [], []];
    for (const s of seen) api.watch('configmaps', {}, (ev: WatchEvent) => s.push(`${ev.type} ${ev.object.metadata.name} ${(ev.object.data as Record<string, string> | undefined)?.k}`));
    const a = api.create(cm('a', { k: '1' }));
    api.update({ ...a, data: { k: '2' } });
    api.delete('configmaps', 'default', 'a');
    clock.advance(10);
    for (const s of seen) expect(s).toEqual(['ADDED a 1', 'MODIFIED a 2', 'DELETED a 2']);
  });
});

describe('informers notice a watch the server ended', () => {
  it('relist after kube-apiserver comes back (the factory probe still runs while nothing else changes)', () => {
    const { api, clock } = newApi();
    const f = new SharedInformerFactory({ api, clock, rng: new Rng(2), name: 'test' });
    const inf = f.informer('configmaps', { namespace: 'default' });
    f.start();
    clock.advance(5_000);
    expect(inf.listCount).toBe(1);
    expect(inf.isWatching()).toBe(true);
    api.setAvailability('down');
    clock.advance(1_000); // the probe sees the ended watch; the relist is refused and backs off
    expect(inf.isWatching()).toBe(false);
    api.setAvailability('up');
    api.create(cm('made-while-unwatched', { k: 'v' }));
    clock.advance(120_000);
    expect(inf.isWatching()).toBe(true);
    expect(inf.listCount).toBe(2);
    expect(inf.lister.get('default', 'made-while-unwatched')?.data).toEqual({ k: 'v' });
    f.stop();
  });
});

describe('parseManifests reads a file the same way every time', () => {
  it('a caller that changes what it got does not change the next read of the same text', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';
    const first = parseManifests(text, 'a.yaml');
    first[0].object!.metadata.namespace = 'elsewhere';
    (first[0].object!.data as Record<string, string>).k = 'changed';
    const again = parseManifests(text, 'a.yaml');
    expect(again[0].object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    expect(again[0].line).toBe(1);
  });
});

describe('FileSystem.filesUnder', () => {
  it('lists the regular files of a tree with their contents, and gives up on symlinks and non-directories', () => {
    const fs = new FileSystem();
    fs.mkdir('/vol/sub', { parents: true });
    fs.writeFile('/vol/a', 'A');
    fs.writeFile('/vol/sub/b', 'B');
    expect(fs.filesUnder('/vol')).toEqual(
      new Map([
        ['/vol/a', 'A'],
        ['/vol/sub/b', 'B'],
      ]),
    );
    expect(fs.filesUnder('/vol/a')).toBeUndefined();
    expect(fs.filesUnder('/nope')).toBeUndefined();
    fs.symlink('/vol/a', '/vol/link');
    expect(fs.filesUnder('/vol')).toBeUndefined();
  });
});
