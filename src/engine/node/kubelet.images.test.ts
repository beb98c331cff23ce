import { describe, expect, it } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';

const pod = (name: string, image: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image, ...extra }] },
});

describe('kubelet: images', () => {
  it('ErrImagePull then ImagePullBackOff for a tag that does not exist, with the real events', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(pod('bad', 'nginx:does-not-exist'), 'k8s-lab-worker');
    fx.run(3000);
    const cs = fx.pod('bad')!.status.containerStatuses[0];
    expect(cs.state.waiting.reason).toBe('ErrImagePull');
    expect(cs.state.waiting.message).toContain('rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:does-not-exist"');
    fx.run(12_000);
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      fx.run(1000);
      seen.add(fx.pod('bad')!.status.containerStatuses[0].state.waiting?.reason);
    }
    expect(seen.has('ImagePullBackOff')).toBe(true);
    expect(fx.pod('bad')!.status.phase).toBe('Pending');
    const ev = fx.eventsFor('bad');
    expect(ev[0]).toBe('Pulling: Pulling image "nginx:does-not-exist"');
    expect(ev[1]).toMatch(/^Failed: Failed to pull image "nginx:does-not-exist": rpc error: code = NotFound desc = /);
    expect(ev[2]).toBe('Failed: Error: ErrImagePull');
    expect(ev).toContain('BackOff: Back-off pulling image "nginx:does-not-exist"');
    expect(ev).toContain('Failed: Error: ImagePullBackOff');
    const waiting = fx.pod('bad')!.status.containerStatuses[0].state.waiting;
    if (waiting.reason === 'ImagePullBackOff') expect(waiting.message).toMatch(/^Back-off pulling image "nginx:does-not-exist": ErrImagePull: rpc error/);
  });

  it('bookshop:v1 with IfNotPresent runs only on the node where it was loaded', () => {
    const fx = newKubeletFixture({ nodes: [{ name: 'k8s-lab-worker', images: ['bookshop:v1'] }, { name: 'k8s-lab-worker2' }] });
    fx.run(1000);
    fx.createPod(pod('loaded', 'bookshop:v1'), 'k8s-lab-worker');
    fx.createPod(pod('notloaded', 'bookshop:v1'), 'k8s-lab-worker2');
    fx.run(20_000);
    expect(fx.pod('loaded')!.status.phase).toBe('Running');
    expect(fx.eventsFor('loaded')[0]).toBe('Pulled: Container image "bookshop:v1" already present on machine');
    const w = fx.pod('notloaded')!.status.containerStatuses[0].state.waiting;
    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(w.reason);
    expect(fx.eventsFor('notloaded').join('\n')).toContain('pull access denied, repository does not exist or may require authorization');
  });

  it(':latest defaults to Always and ignores the node cache (the seed chapter 2 trap)', () => {
    const fx = newKubeletFixture({ load: ['bookshop:v1', 'nginx:latest'] });
    fx.run(1000);
    // `bookshop` means bookshop:latest: policy Always, and no registry has it.
    fx.createPod(pod('implicit', 'bookshop'), 'k8s-lab-worker');
    // nginx:latest is in the cache, but Always pulls anyway.
    fx.createPod(pod('cached', 'nginx:latest'), 'k8s-lab-worker');
    fx.run(20_000);
    expect(fx.pod('implicit')!.spec.containers[0].imagePullPolicy).toBe('Always');
    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(fx.pod('implicit')!.status.containerStatuses[0].state.waiting.reason);
    expect(fx.eventsFor('implicit')[0]).toBe('Pulling: Pulling image "bookshop:latest"');
    expect(fx.eventsFor('cached')[0]).toBe('Pulling: Pulling image "nginx:latest"');
    expect(fx.eventsFor('cached').join('\n')).not.toContain('already present');
    expect(fx.pod('cached')!.status.phase).toBe('Running');
  });

  it('imagePullPolicy Never without the image: ErrImageNeverPull', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(pod('never', 'bookshop:v2', { imagePullPolicy: 'Never' }), 'k8s-lab-worker');
    fx.run(5000);
    const w = fx.pod('never')!.status.containerStatuses[0].state.waiting;
    expect(w.reason).toBe('ErrImageNeverPull');
    expect(w.message).toBe('Container image "bookshop:v2" is not present with pull policy of Never');
    expect(fx.eventsFor('never')[0]).toBe('ErrImageNeverPull: Container image "bookshop:v2" is not present with pull policy of Never');
  });

  it('pulls one image at a time: the second pull waits', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(pod('a', 'nginx:1.27'), 'k8s-lab-worker');
    fx.createPod(pod('b', 'postgres:17-alpine'), 'k8s-lab-worker');
    fx.run(60_000);
    const pulled = fx.eventsFor('b').find((e) => e.startsWith('Pulled:'))!;
    const m = /in ([\d.]+)s \(([\d.]+)s including waiting\)/.exec(pulled)!;
    expect(Number(m[2])).toBeGreaterThan(Number(m[1]));
  });
});
