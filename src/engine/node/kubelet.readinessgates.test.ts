/**
 * Pod readiness gates (pkg/kubelet/status/generate.go `GeneratePodReadyCondition`): the kubelet's
 * Ready condition waits for every `spec.readinessGates` condition, which someone else sets on the
 * pod's status. A gate condition set later reaches Ready with the next pod sync, though nothing
 * on the node changed (the kubelet reuses a pod's computed status only while its inputs, the
 * pod's conditions among them, are unchanged).
 */
import { describe, it, expect } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';

const ready = (pod: { status?: { conditions?: { type: string; status: string; reason?: string }[] } } | undefined) => pod?.status?.conditions?.find((c) => c.type === 'Ready');

describe('readiness gates', () => {
  it('hold Ready at False until the gate condition is True, then the next sync sets Ready', () => {
    const fx = newKubeletFixture({ load: ['nginx:1.27'] });
    fx.run(30_000);
    fx.createPod(
      {
        metadata: { name: 'gated', namespace: 'default' },
        spec: { readinessGates: [{ conditionType: 'example.com/ok' }], containers: [{ name: 'web', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] },
      },
      'k8s-lab-worker',
    );
    fx.run(20_000);
    expect(fx.pod('gated')?.status?.phase).toBe('Running');
    expect(ready(fx.pod('gated'))).toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady' });
    fx.run(3 * 60_000); // periodic syncs with nothing changed
    expect(ready(fx.pod('gated'))?.status).toBe('False');
    const cur = fx.api.get('pods', 'default', 'gated');
    fx.api.updateStatus({ ...cur, status: { ...cur.status, conditions: [...(cur.status?.conditions ?? []), { type: 'example.com/ok', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' }] } });
    fx.run(70_000); // the next periodic sync (syncFrequency 1 min)
    expect(ready(fx.pod('gated'))?.status).toBe('True');
  });
});
