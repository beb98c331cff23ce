/**
 * Test fixture for the kubelet (test-only): kind-style machines with the real systemd, a
 * containerd runtime wired to a minimal `containerd` unit program, the kubelet registered for
 * `/usr/bin/kubelet`, and one API server. No scheduler or controllers: tests bind pods themselves.
 *
 * Units: virtual ms.
 */
import { Clock, Rng } from '../clock';
import { ApiServer } from '../api/server';
import type { KubeObject } from '../api/types';
import type { LocalEventRecord } from '../client/events';
import { Trace } from '../trace';
import { Machine } from './machine';
import type { Program } from './process';
import { Containerd } from './runtime';
import { kindNodeImages } from './registry';
import { KubeletHandle, registerKubelet } from './kubelet';
import { kindNodeFilesystem } from './fs';

/**
 * A stand-in containerd unit program: the runtime answers while the process runs
 * (`setProcessRunning`), READY=1 after 50 ms. SIGTERM (systemctl stop) unlinks the socket.
 */
export function testContainerdProgram(rt: () => Containerd | undefined): Program {
  let how: 'crash' | 'stopped' = 'crash';
  return {
    start(ctx) {
      ctx.setMemory(40 * 1024 * 1024);
      rt()?.setProcessRunning(true);
      ctx.clock.schedule(50, () => ctx.notify?.('READY=1'));
    },
    onSignal(sig, ctx) {
      if (sig !== 'SIGTERM') return false;
      how = 'stopped';
      ctx.clock.schedule(10, () => ctx.exit(0));
      return true;
    },
    stop() {
      rt()?.setProcessRunning(false, how);
    },
  };
}

/** One simulated node of the fixture. */
export interface TestNode {
  name: string;
  machine: Machine;
  /** The current containerd (recreated at every boot of the machine). */
  runtime(): Containerd;
  kubelet: KubeletHandle;
  nodeIP: string;
}

/** The fixture. */
export interface KubeletFixture {
  clock: Clock;
  rng: Rng;
  api: ApiServer;
  trace: Trace;
  events: LocalEventRecord[];
  nodes: TestNode[];
  node(name: string): TestNode;
  /** Advance virtual time by `ms`. */
  run(ms: number): void;
  /** Create a pod (namespace default) and bind it to `node`. Returns the stored pod. */
  createPod(pod: Partial<KubeObject> & { metadata: KubeObject['metadata'] }, node?: string): KubeObject;
  pod(name: string, ns?: string): KubeObject | undefined;
  /** Events (as recorded) about an object name, `reason: message`. */
  eventsFor(name: string): string[];
}

/** Options of `newKubeletFixture`. */
export interface KubeletFixtureOptions {
  seed?: number;
  /** Node names; the first is a control plane if `controlPlane` is set. Default one worker `k8s-lab-worker`. */
  nodes?: { name: string; role?: 'control-plane' | 'worker'; images?: string[] }[];
  /** Images loaded into every node (`kind load docker-image`). */
  load?: string[];
  /** Which kubelet.service the nodes get (default kind's, which has ConditionPathExists). */
  kubeletUnit?: 'kind' | 'upstream';
}

/** Build machines with systemd, containerd and the kubelet, power them on. */
export function newKubeletFixture(opts: KubeletFixtureOptions = {}): KubeletFixture {
  const clock = new Clock();
  const rng = new Rng(opts.seed ?? 7);
  const api = new ApiServer(clock, rng);
  const trace = new Trace(() => clock.now());
  const events: LocalEventRecord[] = [];
  const specs = opts.nodes ?? [{ name: 'k8s-lab-worker' }];
  const nodes: TestNode[] = specs.map((s, i) => {
    const role = s.role ?? 'worker';
    const nodeIP = `172.18.0.${i + 2}`;
    const fs = kindNodeFilesystem({ nodeName: s.name, role, nodeIP, now: () => clock.now(), epochMs: clock.epochMs, kubeletUnit: opts.kubeletUnit });
    const machine = new Machine({ name: s.name, role, clock, fs });
    let rt: Containerd | undefined;
    machine.registerExecutable('/usr/local/bin/containerd', () => testContainerdProgram(() => rt), { sdNotify: true });
    const kubelet = registerKubelet({ api, rng, machine, runtime: () => rt, trace: trace.add, eventSink: (e) => events.push(e), capacity: { cpu: '2', memory: '4Gi' } });
    const boot = (): void => {
      rt = new Containerd({ nodeName: s.name, clock, rng, processes: machine.processes, podCIDR: `10.244.${i}.0/24`, nodeIP, running: false });
      rt.preloadImages(kindNodeImages('v1.35.0'));
      // `kind load docker-image` happened while the node was up (the store is on disk).
      const loads = [...(opts.load ?? []), ...(s.images ?? [])];
      if (loads.length) {
        rt.setProcessRunning(true);
        for (const img of loads) rt.loadImage(img);
        rt.setProcessRunning(false);
      }
    };
    machine.onEvent((e) => {
      if (e.type === 'power-on') boot();
    });
    return { name: s.name, machine, runtime: () => rt!, kubelet, nodeIP };
  });
  for (const n of nodes) n.machine.powerOn();
  api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace: 'default' }, data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n' } } as KubeObject);
  const fx: KubeletFixture = {
    clock,
    rng,
    api,
    trace,
    events,
    nodes,
    node: (name) => nodes.find((n) => n.name === name)!,
    run: (ms) => {
      clock.advance(ms);
    },
    createPod: (pod, node) => {
      const created = api.create({ apiVersion: 'v1', kind: 'Pod', ...pod } as KubeObject);
      if (!node) return created;
      api.bind(created.metadata.namespace!, created.metadata.name!, node);
      return api.get('pods', created.metadata.namespace, created.metadata.name!);
    },
    pod: (name, ns = 'default') => api.tryGet('pods', ns, name),
    eventsFor: (name) => events.filter((e) => e.involvedObject.name === name).map((e) => `${e.reason}: ${e.message}`),
  };
  return fx;
}
