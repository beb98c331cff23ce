/**
 * A small cluster for controller and scheduler tests: the API server, kube-controller-manager,
 * kube-scheduler and the fake kubelet (KWOK-style) on the cases.md topology: `cp-1` (control
 * plane, tainted), `worker-1`, `worker-2`, each 2 CPU / 4Gi.
 *
 * Test-only. The node layer builds the real cluster (systemd, kubelet, static pods).
 */
import { Clock, Rng } from '../clock';
import { ApiServer } from '../api/server';
import { parseManifests } from '../api/yaml';
import type { KubeObject } from '../api/types';
import { Trace } from '../trace';
import { newKubeControllerManager } from '../controllers';
import type { ControllerProcess } from '../controllers/manager';
import { KubeScheduler } from '../scheduler/scheduler';
import { FakeKubelet, type FakeNodeSpec } from './fakekubelet';
import type { LocalEventRecord } from '../client/events';

/** The cases.md nodes. */
export const CASES_NODES: FakeNodeSpec[] = [
  {
    name: 'cp-1',
    labels: { 'node-role.kubernetes.io/control-plane': '' },
    taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
  },
  { name: 'worker-1' },
  { name: 'worker-2' },
];

/** Options of `newTestCluster`. */
export interface TestClusterOptions {
  seed?: number;
  nodes?: FakeNodeSpec[];
  /** kube-controller-manager controllers by name (default all); [] runs none. */
  controllers?: string[];
  /** Run kube-scheduler (default true). */
  scheduler?: boolean;
  /** Per-cluster controller settings overrides. */
  settings?: Record<string, number>;
  /** Fake kubelet timings. */
  kubelet?: { startMs?: number; runMs?: number; terminateMs?: number };
  /** Create the `default` ServiceAccount in `default` up front (default true: the serviceaccount controller would). */
  defaultServiceAccount?: boolean;
}

/** What a test drives. */
export interface TestCluster {
  clock: Clock;
  rng: Rng;
  api: ApiServer;
  trace: Trace;
  kubelet: FakeKubelet;
  /** Events as recorded (before API aggregation), newest last. */
  events: LocalEventRecord[];
  kcm: ControllerProcess;
  scheduler: KubeScheduler | undefined;
  /** Apply YAML (one or more documents) as `kubectl apply -f -`. Returns the verbs. */
  apply(yaml: string, namespace?: string): string[];
  /** Advance virtual time by `ms`, running everything due. */
  run(ms: number): void;
  /** Stop the controller-manager process (it loses everything). */
  stopControllerManager(): void;
  /** Start a fresh controller-manager process (it relists and catches up). */
  startControllerManager(): void;
  stopScheduler(): void;
  startScheduler(): void;
  /** Pods in a namespace (default `default`), optionally by label selector, sorted by name. */
  pods(namespace?: string, selector?: string): KubeObject[];
}

/** Build and start a test cluster. Nothing runs until `run()` advances the clock. */
export function newTestCluster(opts: TestClusterOptions = {}): TestCluster {
  const clock = new Clock();
  const rng = new Rng(opts.seed ?? 1);
  const api = new ApiServer(clock, rng);
  const trace = new Trace(() => clock.now());
  const events: LocalEventRecord[] = [];
  const kubelet = new FakeKubelet({ api, clock, ...(opts.kubelet ?? {}) });
  kubelet.start(opts.nodes ?? CASES_NODES);
  if (opts.defaultServiceAccount ?? true) {
    api.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  }
  const common = { api, clock, rng, trace: trace.add, settings: opts.settings, eventSink: (e: LocalEventRecord) => events.push(e) };
  const makeKcm = () => newKubeControllerManager({ ...common, controllers: opts.controllers });
  const makeScheduler = () => new KubeScheduler({ ...common });
  const c: TestCluster = {
    clock,
    rng,
    api,
    trace,
    kubelet,
    events,
    kcm: makeKcm(),
    scheduler: opts.scheduler === false ? undefined : makeScheduler(),
    apply(yaml, namespace) {
      const verbs: string[] = [];
      for (const d of parseManifests(yaml)) {
        if (d.error) throw new Error(d.error);
        if (!d.object) continue;
        const r = api.apply(d.object, { namespace });
        verbs.push(`${r.object.kind.toLowerCase()}/${r.object.metadata.name} ${r.verb}`);
      }
      return verbs;
    },
    run(ms) {
      clock.advance(ms);
    },
    stopControllerManager() {
      c.kcm.stop();
    },
    startControllerManager() {
      c.kcm = makeKcm();
      c.kcm.start();
    },
    stopScheduler() {
      c.scheduler?.stop();
    },
    startScheduler() {
      c.scheduler = makeScheduler();
      c.scheduler.start();
    },
    pods(namespace = 'default', selector) {
      return api.list('pods', { namespace, labelSelector: selector }).items;
    },
  };
  c.kcm.start();
  c.scheduler?.start();
  return c;
}
