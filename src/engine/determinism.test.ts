import { describe, it, expect } from 'vitest';
import { Clock, Rng } from './clock';
import { ApiServer } from './api/server';
import type { KubeObject } from './api/types';

/**
 * DESIGN.md principle 2: a run is a pure function of (seed, cluster config, the commands and
 * the virtual times they were issued at). This scenario mixes generated names, uids, allocated
 * ClusterIPs and NodePorts, timers and watches; two runs with one seed must write the same bytes.
 */
function scenario(seed: number): { digest: string; writes: number; log: string[] } {
  const clock = new Clock();
  const rng = new Rng(seed);
  const api = new ApiServer(clock, rng);
  let h = 0x811c9dc5;
  let writes = 0;
  const log: string[] = [];
  api.onWrite((w) => {
    const line = `${clock.now()} ${w.type} ${w.resource.resource} ${JSON.stringify(w.object)}`;
    for (let i = 0; i < line.length; i++) {
      h ^= line.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    writes++;
    if (log.length < 5) log.push(line);
  });
  const watched: string[] = [];
  api.watch('pods', {}, (ev) => watched.push(`${clock.now()} ${ev.type} ${ev.object.metadata.name}`));
  api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });

  // "Commands" issued at chosen virtual times.
  const commands: [number, () => void][] = [];
  for (let i = 0; i < 20; i++) {
    commands.push([
      i * 250,
      () =>
        api.create({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { generateName: 'catalog-58544d89f4-', namespace: 'default', labels: { app: 'catalog' } },
          spec: { containers: [{ name: 'catalog', image: 'bookshop:v1' }] },
        } as KubeObject),
    ]);
  }
  commands.push([
    1000,
    () => api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] } }),
  ]);
  commands.push([
    6000,
    () => {
      for (const p of api.list('pods', { namespace: 'default' }).items.slice(0, 5)) api.delete('pods', 'default', p.metadata.name!);
    },
  ]);
  for (const [at, fn] of commands) clock.scheduleAt(at, fn, { label: 'command' });
  // A component that acts on its own random timer.
  const tick = () => {
    const name = `tick-${rng.nameSuffix(5)}`;
    api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { at: String(clock.now()) } });
    if (clock.now() < 20_000) clock.schedule(rng.jitter(1000, 1.0), tick);
  };
  clock.schedule(0, tick);
  clock.runUntilQuiet(60_000);
  const digestWatch = watched.join('\n');
  return { digest: `${h.toString(16)}:${digestWatch.length}`, writes, log };
}

describe('determinism', () => {
  it('the same seed and commands give byte-identical API writes', () => {
    const a = scenario(42);
    const b = scenario(42);
    expect(a.writes).toBeGreaterThan(40);
    expect(b.digest).toBe(a.digest);
    expect(b.log).toEqual(a.log);
  });

  it('another seed gives other names, uids and timings', () => {
    expect(scenario(7).digest).not.toBe(scenario(42).digest);
  });
});
