/**
 * pod-garbage-collector-controller, checked against
 * https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-garbage-collection
 * (orphan pods bound to a node that no longer exists, terminated pods beyond
 * --terminated-pod-gc-threshold, unscheduled terminating pods; 1.26+ adds the DisruptionTarget
 * condition with reason DeletionByPodGC), reference section 7 (pods on a deleted node), and
 * pkg/controller/podgc/gc_controller.go (20 s period, 40 s quarantine, force delete).
 */
import { describe, expect, it } from 'vitest';
import { newTestCluster, type TestCluster } from '../testing/cluster';
import type { KubeObject } from '../api/types';

function pod(c: TestCluster, name: string, node?: string, extra: { command?: string[]; restartPolicy?: string; finalizers?: string[] } = {}): void {
  c.api.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
    spec: {
      ...(extra.restartPolicy ? { restartPolicy: extra.restartPolicy } : {}),
      containers: [{ name: 'app', image: 'busybox:1.36', ...(extra.command ? { command: extra.command } : {}) }],
    },
  });
  if (node) c.api.bind('default', name, node);
}

describe('pod-garbage-collector-controller', () => {
  it('force-deletes pods bound to a deleted node after the 40 s quarantine, marking them Failed with DisruptionTarget first', () => {
    const c = newTestCluster({ controllers: ['podgc'], scheduler: false });
    c.run(1000);
    pod(c, 'orphan', 'worker-2');
    pod(c, 'safe', 'worker-1');
    c.run(2000);
    expect(c.api.get('pods', 'default', 'orphan').status.phase).toBe('Running');
    const writes: KubeObject[] = [];
    c.api.onWrite((w) => {
      if (w.resource.kind === 'Pod' && w.object.metadata.name === 'orphan') writes.push(w.object);
    });

    c.kubelet.stopNode('worker-2');
    c.api.delete('nodes', undefined, 'worker-2');
    c.run(30_000);
    expect(c.api.tryGet('pods', 'default', 'orphan')).toBeDefined(); // still in quarantine
    c.run(40_000);
    expect(c.api.tryGet('pods', 'default', 'orphan')).toBeUndefined();
    expect(c.api.get('pods', 'default', 'safe').status.phase).toBe('Running');

    // The status patch came before the (grace 0) delete.
    const failed = writes.find((o) => o.status?.phase === 'Failed');
    expect(failed?.status.conditions).toContainEqual(
      expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' }),
    );
    expect(writes[writes.length - 1].metadata.deletionGracePeriodSeconds).toBe(0);
    expect(c.trace.list({ component: 'pod-garbage-collector-controller' }).map((e) => e.message)).toContain(
      'default/orphan is bound to node worker-2, which no longer exists -> mark Failed (DisruptionTarget: DeletionByPodGC) and force delete',
    );
  });

  it('deletes terminated pods beyond --terminated-pod-gc-threshold, oldest first', () => {
    const c = newTestCluster({ controllers: ['podgc'], scheduler: false, settings: { terminatedPodGcThreshold: 2 } });
    c.run(1000);
    for (const n of ['done-1', 'done-2', 'done-3', 'done-4']) {
      pod(c, n, 'worker-1', { command: ['sh', '-c', 'exit 0'], restartPolicy: 'Never' });
      c.run(1000); // distinct creation timestamps
    }
    pod(c, 'running', 'worker-1');
    c.run(5000);
    expect(c.pods().filter((p) => p.status.phase === 'Succeeded')).toHaveLength(4);
    c.run(20_000);
    expect(c.pods().map((p) => p.metadata.name)).toEqual(['done-3', 'done-4', 'running']);
  });

  it('force-deletes terminating pods that were never scheduled', () => {
    const c = newTestCluster({ controllers: ['podgc'], scheduler: false });
    c.run(1000);
    pod(c, 'pending', undefined, { finalizers: ['example.com/hold'] });
    c.api.delete('pods', 'default', 'pending');
    expect(c.api.get('pods', 'default', 'pending').metadata.deletionTimestamp).toBeDefined();
    c.run(21_000);
    // PodGC marked it Failed and deleted it; the finalizer still holds the object.
    expect(c.api.get('pods', 'default', 'pending').status.phase).toBe('Failed');
    c.api.patch('pods', 'default', 'pending', 'merge', { metadata: { finalizers: null } });
    expect(c.api.tryGet('pods', 'default', 'pending')).toBeUndefined();
  });

  it('force-deletes terminating pods on a not-Ready node tainted node.kubernetes.io/out-of-service', () => {
    const c = newTestCluster({ controllers: ['podgc'], scheduler: false });
    c.run(1000);
    pod(c, 'stuck', 'worker-2');
    c.run(2000);
    c.kubelet.stopNode('worker-2');
    c.api.delete('pods', 'default', 'stuck');
    c.run(21_000);
    expect(c.api.get('pods', 'default', 'stuck').metadata.deletionTimestamp).toBeDefined(); // nobody confirms
    const node = c.api.get('nodes', undefined, 'worker-2');
    node.status.conditions = node.status.conditions.map((x: { type: string }) => (x.type === 'Ready' ? { ...x, status: 'Unknown', reason: 'NodeStatusUnknown' } : x));
    c.api.updateStatus(node);
    c.api.patch('nodes', undefined, 'worker-2', 'merge', { spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }] } });
    c.run(21_000);
    expect(c.api.tryGet('pods', 'default', 'stuck')).toBeUndefined();
  });
});
