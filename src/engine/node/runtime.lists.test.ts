/**
 * containerd's lists as the kubelet reads them: `ListContainers` with the pod UID label selector
 * (GetPodStatus) and the PLEG's view of ids, states and pod UIDs agree with the full listing.
 */
import { describe, expect, it } from 'vitest';
import { Clock, Rng } from '../clock';
import { ProcessTable } from './process';
import { Containerd } from './runtime';

function setup() {
  const clock = new Clock();
  const processes = new ProcessTable(clock);
  processes.spawn({ command: '/sbin/init', ppid: 0, program: { start: () => {} } });
  const rt = new Containerd({ nodeName: 'k8s-lab-worker', clock, rng: new Rng(3), processes, podCIDR: '10.244.1.0/24', nodeIP: '172.18.0.3' });
  rt.pullImage('busybox');
  clock.advance(60_000);
  const pod = (name: string) => {
    const sb = rt.runPodSandbox({ name, namespace: 'default', uid: `${name}-uid` });
    clock.advance(1000);
    const id = rt.createContainer(sb, { name: 'main', image: 'busybox', command: ['sleep', '3600'] });
    rt.startContainer(id);
    clock.advance(1000);
    return { sb, id };
  };
  return { clock, rt, pod };
}

describe('containerd lists', () => {
  it('ListContainers by pod UID returns that pod\'s containers only, newest first', () => {
    const { rt, pod } = setup();
    const a = pod('a');
    const b = pod('b');
    const second = rt.createContainer(a.sb, { name: 'side', image: 'busybox', command: ['sleep', '3600'] });
    expect(rt.listContainers({ podUid: 'a-uid' }).map((c) => c.id)).toEqual([second, a.id]);
    expect(rt.listContainers({ podUid: 'b-uid' }).map((c) => [c.id, c.labels['io.kubernetes.pod.uid']])).toEqual([[b.id, 'b-uid']]);
    expect(rt.listContainers({ podUid: 'c-uid' })).toEqual([]);
    expect(rt.listContainers().filter((c) => c.labels['io.kubernetes.pod.uid'] === 'a-uid')).toEqual(rt.listContainers({ podUid: 'a-uid' }));
  });

  it('the PLEG view has the ids, states and pod UIDs of the full lists, in the same order', () => {
    const { rt, pod } = setup();
    pod('a');
    const b = pod('b');
    rt.stopContainer(b.id, 0);
    const view = rt.listPlegStates();
    expect(view.containers).toEqual(rt.listContainers().map((c) => ({ id: c.id, state: c.state, podUid: c.labels['io.kubernetes.pod.uid'] })));
    expect(view.sandboxes).toEqual(rt.listPodSandboxes().map((s) => ({ id: s.id, state: s.state, podUid: s.metadata.uid })));
    expect(view.containers.map((c) => c.state)).toEqual(['CONTAINER_EXITED', 'CONTAINER_RUNNING']);
  });
});
