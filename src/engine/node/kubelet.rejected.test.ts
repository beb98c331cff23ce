/**
 * A pod the kubelet rejects at admission (pkg/kubelet/kubelet.go `HandlePodAdditions` ->
 * `rejectPod`): it never reaches the pod workers, so its status is only phase Failed, the reason,
 * `Pod was rejected: <message>` and the QoS class. `kubectl get pod` (printers.go `printPod`) then
 * prints the reason as STATUS and READY 0/N, not a container state.
 */
import { describe, expect, it } from 'vitest';
import { printTable } from '../../shell/printers/columns';
import { newKubeletFixture } from './kubelet.testkit';

describe('kubelet: admission rejection status', () => {
  it('nodeName set but nodeSelector not matching: Failed / NodeAffinity, no container statuses, kubectl STATUS NodeAffinity', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod({ metadata: { name: 'na' }, spec: { nodeSelector: { disktype: 'ssd' }, containers: [{ name: 'c', image: 'nginx:1.27' }] } }, 'k8s-lab-worker');
    fx.run(10_000);
    const pod = fx.pod('na')!;
    expect(pod.status).toMatchObject({ phase: 'Failed', reason: 'NodeAffinity', message: 'Pod was rejected: Predicate NodeAffinity failed', qosClass: 'BestEffort' });
    expect(pod.status.containerStatuses).toBeUndefined();
    expect(pod.status.startTime).toBeUndefined();
    // Only conditions the kubelet does not own (the binding's PodScheduled) remain.
    expect(pod.status.conditions.map((c: { type: string }) => c.type)).toEqual(['PodScheduled']);
    const out = printTable([pod], { kind: 'Pod', nowMs: fx.clock.now(), epochMs: fx.clock.epochMs });
    expect(out.split('\n')[1]).toMatch(/^na\s+0\/1\s+NodeAffinity\s+0\s+\d+s$/);
  });
});
