/**
 * kube-controller-manager as one simulated process: a shared informer factory, one event
 * recorder per controller, leader election on the `kube-controller-manager` Lease, and the
 * controllers of `controllers/index.ts`. Mirrors cmd/kube-controller-manager/app.
 *
 * `start()` is the process starting: it acquires the Lease, then starts every controller, whose
 * informers list and watch, so whatever drifted while the process was away gets reconciled.
 * `stop()` is the process dying: every cache, queue, expectation and timer is thrown away.
 */
import type { Clock, Rng } from '../clock';
import type { ApiServer } from '../api/server';
import { SharedInformerFactory, type ClientLogLine } from '../client/informer';
import { EventRecorder, type LocalEventRecord } from '../client/events';
import { LeaderElector } from '../client/leaderelection';
import type { TraceFn } from '../trace';
import { noTrace } from '../trace';

/** What every controller gets from the process that runs it. */
export interface ControllerContext {
  api: ApiServer;
  clock: Clock;
  rng: Rng;
  /** The process's informers; controllers ask for what they watch, the manager starts them. */
  informers: SharedInformerFactory;
  /** The event recorder for a component name (`replicaset-controller`, `deployment-controller`, ...). */
  recorder(component: string): EventRecorder;
  /** Add a timeline line: `trace('replicaset-controller', 'bookshop/catalog-... has 1 of 2 -> create 1', ref)`. */
  trace: TraceFn;
  /**
   * A tunable number (durations in virtual ms unless the key says otherwise) with its default,
   * overridable per cluster for a lesson, e.g. `setting('nodeMonitorGracePeriodMs', 50_000)`.
   */
  setting(key: string, defaultValue: number): number;
}

/** A running controller; `stop()` drops its queue, workers and timers. */
export interface Controller {
  readonly name: string;
  stop(): void;
}

/** Builds and starts one controller (registering informer handlers, starting workers). */
export type ControllerFactory = (ctx: ControllerContext) => Controller;

/** Options of the process. */
export interface ProcessOptions {
  api: ApiServer;
  clock: Clock;
  rng: Rng;
  /** Node the process runs on (holder identity `<node>_<uuid>`). Default `k8s-lab-control-plane`. */
  nodeName?: string;
  trace?: TraceFn;
  /** Per-cluster overrides of controller settings (see `ControllerContext.setting`). */
  settings?: Record<string, number>;
  /** Receives every Event a controller records (the UI timeline). */
  eventSink?: (e: LocalEventRecord) => void;
  /** Client log lines (reflector errors) for the process log. */
  log?: (line: ClientLogLine) => void;
  /** Called when the process would exit (e.g. `leaderelection lost`); the node layer restarts it. */
  onExit?: (reason: string) => void;
  /** Skip leader election (tests of a single controller). */
  leaderElect?: boolean;
}

/**
 * One run of a control-plane process that hosts controllers (kube-controller-manager, or an app
 * controller such as the bookshop's shelf-controller). A stopped process cannot be restarted:
 * make a new one, as the kubelet starts a new container.
 */
export class ControllerProcess {
  readonly informers: SharedInformerFactory;
  private controllers: Controller[] = [];
  private recorders = new Map<string, EventRecorder>();
  private elector: LeaderElector | undefined;
  private running = false;
  private stopped = false;
  readonly ctx: ControllerContext;

  constructor(
    readonly name: string,
    private readonly factories: readonly ControllerFactory[],
    private readonly o: ProcessOptions,
  ) {
    this.informers = new SharedInformerFactory({ api: o.api, clock: o.clock, rng: o.rng, name, log: o.log });
    const settings = o.settings ?? {};
    this.ctx = {
      api: o.api,
      clock: o.clock,
      rng: o.rng,
      informers: this.informers,
      recorder: (component) => {
        let r = this.recorders.get(component);
        if (!r) {
          r = new EventRecorder({ api: o.api, clock: o.clock, rng: o.rng, component, sink: o.eventSink });
          this.recorders.set(component, r);
        }
        return r;
      },
      trace: o.trace ?? noTrace,
      setting: (key, d) => settings[key] ?? d,
    };
  }

  /** True while the controllers run (after leader election succeeded). */
  isRunning(): boolean {
    return this.running;
  }

  /** Start: elect (unless disabled), then start the controllers and informers. */
  start(): void {
    if (this.stopped) throw new Error(`${this.name}: a stopped process cannot start again`);
    const run = () => {
      this.running = true;
      this.ctx.trace(this.name, 'started controllers');
      for (const f of this.factories) this.controllers.push(f(this.ctx));
      this.informers.start();
    };
    if (this.o.leaderElect === false) {
      run();
      return;
    }
    const node = this.o.nodeName ?? 'k8s-lab-control-plane';
    this.elector = new LeaderElector({
      api: this.o.api,
      clock: this.o.clock,
      namespace: 'kube-system',
      name: this.name,
      identity: `${node}_${this.o.rng.uuid()}`,
      onStartedLeading: () => {
        this.ctx.trace(this.name, `successfully acquired lease kube-system/${this.name}`);
        run();
      },
      onStoppedLeading: () => {
        this.ctx.trace(this.name, 'leaderelection lost', undefined, 'Warning');
        this.stop();
        this.o.onExit?.('leaderelection lost');
      },
    });
    this.elector.start();
  }

  /** The process dies: drop every controller, queue, cache, recorder and timer. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.running = false;
    this.elector?.stop();
    for (const c of this.controllers) c.stop();
    this.controllers = [];
    this.informers.stop();
    for (const r of this.recorders.values()) r.stop();
    this.recorders.clear();
  }
}
