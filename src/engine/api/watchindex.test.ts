/**
 * Watches with a `spec.nodeName=` field selector (every kubelet's pod watch) are indexed by node
 * in the API server (performance only). These tests pin what a watcher sees: the same events,
 * in the same order, as without the index.
 */
import { describe, it, expect } from 'vitest';
import { Clock, Rng } from '../clock';
import { ApiServer } from './server';
import type { KubeObject } from './types';

function pod(name: string, nodeName?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...(nodeName ? { nodeName } : {}) },
  };
}

function setup(): { api: ApiServer; clock: Clock; log: string[]; watch: (who: string, fieldSelector?: string) => void } {
  const clock = new Clock();
  const api = new ApiServer(clock, new Rng(1));
  api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  const log: string[] = [];
  const watch = (who: string, fieldSelector?: string): void => {
    api.watch('pods', { fieldSelector }, (ev) => log.push(`${who} ${ev.type} ${ev.object.metadata.name}`));
  };
  return { api, clock, log, watch };
}

describe('pod watches by spec.nodeName', () => {
  it('a node watch sees only its pods: ADDED when bound there, MODIFIED, DELETED; others see nothing', () => {
    const { api, clock, log, watch } = setup();
    watch('n1', 'spec.nodeName=n1');
    watch('n2', 'spec.nodeName=n2');
    api.create(pod('a'));
    api.bind('default', 'a', 'n1');
    api.create(pod('b', 'n2'));
    clock.advance(10);
    const a = api.get('pods', 'default', 'a');
    api.updateStatus({ ...a, status: { ...a.status, phase: 'Running' } });
    api.delete('pods', 'default', 'b', { gracePeriodSeconds: 0 });
    clock.advance(10);
    expect(log).toEqual(['n1 ADDED a', 'n2 ADDED b', 'n1 MODIFIED a', 'n2 DELETED b']);
  });

  it('unscheduled pods (spec.nodeName=) and all-pod watches interleave in the order the watches were opened', () => {
    const { api, clock, log, watch } = setup();
    watch('all');
    watch('n1', 'spec.nodeName=n1');
    watch('pending', 'spec.nodeName=');
    watch('not-n1', 'spec.nodeName!=n1');
    watch('all2');
    api.create(pod('a'));
    clock.advance(10);
    api.bind('default', 'a', 'n1');
    clock.advance(10);
    expect(log).toEqual([
      'all ADDED a',
      'pending ADDED a',
      'not-n1 ADDED a',
      'all2 ADDED a',
      'all MODIFIED a',
      'n1 ADDED a',
      'pending DELETED a',
      'not-n1 DELETED a',
      'all2 MODIFIED a',
    ]);
  });

  it('a stopped node watch gets nothing more; a new one for the same node does', () => {
    const { api, clock, log } = setup();
    const h = api.watch('pods', { fieldSelector: 'spec.nodeName=n1' }, (ev) => log.push(`old ${ev.type} ${ev.object.metadata.name}`));
    h.stop();
    api.watch('pods', { fieldSelector: 'spec.nodeName=n1' }, (ev) => log.push(`new ${ev.type} ${ev.object.metadata.name}`));
    api.create(pod('a', 'n1'));
    clock.advance(10);
    expect(log).toEqual(['new ADDED a']);
  });
});

describe('watches by metadata.name (the kubelet watches its own Node)', () => {
  function node(name: string): KubeObject {
    return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name } } };
  }

  it('a name watch sees only its object, in the same order as without the index', () => {
    const clock = new Clock();
    const api = new ApiServer(clock, new Rng(1));
    const log: string[] = [];
    const watch = (who: string, fieldSelector?: string): void => {
      api.watch('nodes', { fieldSelector }, (ev) => log.push(`${who} ${ev.type} ${ev.object.metadata.name}`));
    };
    watch('w1', 'metadata.name=w1');
    watch('all');
    watch('not-w1', 'metadata.name!=w1');
    watch('w2', 'metadata.name=w2');
    watch('w1-again', 'metadata.name==w1');
    api.create(node('w1'));
    api.create(node('w2'));
    clock.advance(10);
    api.patch('nodes', undefined, 'w1', 'merge', { metadata: { labels: { role: 'worker' } } });
    api.delete('nodes', undefined, 'w2');
    clock.advance(10);
    // Each watch's batch is delivered in the order the watches first got an event.
    expect(log).toEqual([
      'w1 ADDED w1',
      'all ADDED w1',
      'all ADDED w2',
      'w1-again ADDED w1',
      'not-w1 ADDED w2',
      'w2 ADDED w2',
      'w1 MODIFIED w1',
      'all MODIFIED w1',
      'all DELETED w2',
      'w1-again MODIFIED w1',
      'not-w1 DELETED w2',
      'w2 DELETED w2',
    ]);
  });
});
