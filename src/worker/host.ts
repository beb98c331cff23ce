/**
 * The simulation host: owns one cluster and decides how fast its virtual time moves. It is the
 * only place where wall time meets the engine (the engine itself never sees it).
 *
 * - Playing: every tick (~16 ms of wall time) runs the events due in `wall elapsed x speed`
 *   virtual ms, within a wall-time budget; if the engine cannot keep up, virtual time lags
 *   (`run.lagging`) rather than piling up a debt.
 * - Step: pause, then run exactly one event.
 * - Fast-forward: run N virtual ms in chunks of bounded wall time, reporting progress after each;
 *   `pause` (or `play`, `reset`) interrupts it between chunks.
 * - Changes: every API write is noted (api.onWrite) and every trace entry kept (trace.subscribe);
 *   after a tick they leave as one `diff` message with the records that really changed.
 *
 * Wall time and timers are injected (`HostEnv`), so the host runs in a worker, in Node tests,
 * or anywhere else.
 */
import type { KubeObject } from '../engine/api/types';
import type { WriteRecord } from '../engine/api/server';
import type { TraceEntry } from '../engine/trace';
import { clampSpeed, PROTOCOL_VERSION, SUPERVISION_MIN_INTERVAL_MS, type FromWorker, type ObjRecord, type RunState, type ToWorker, type TraceItem } from '../protocol/messages';
import type { ClusterKind, HostCluster } from './cluster';
import { MIRRORED_KINDS, toRecord } from './records';
import { defaultRunner, loadShellModule, shellModuleLoaded, type LineRunner, type LineRunnerFactory } from './lines';
import { describeInput, isJournaled, positionOf, runTo } from './journal';
import type { JournalEntry } from '../protocol/messages';
import type { EditRequest } from '../protocol/messages';
import { loadEngineLibraries } from '../engine/libs';

/** The YAML editor's handlers (src/worker/editing.ts: kubectl apply/edit), loaded on the first request. */
let editingModule: Promise<typeof import('./editing')> | undefined;
/** The editor's handlers, with the engine's on-demand libraries (an edit may create a CronJob or a custom resource). */
const loadEditing = () => (editingModule ??= Promise.all([import('./editing'), loadEngineLibraries()]).then(([m]) => m));

/** Wall time and timers (the worker passes `performance.now` and `setTimeout`). */
export interface HostEnv {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of `SimHost`. */
export interface SimHostOptions {
  env: HostEnv;
  post: (msg: FromWorker) => void;
  makeCluster: (seed: number, kind: ClusterKind) => HostCluster;
  makeRunner?: LineRunnerFactory;
  /** Wall ms between ticks. Default 16 (one animation frame). */
  tickMs?: number;
  /** Wall ms of engine work per tick while playing. Default 12. */
  playBudgetMs?: number;
  /** Wall ms of engine work per fast-forward chunk. Default 40. */
  fastForwardBudgetMs?: number;
  /** Wall ms of engine work per boot chunk (the UI redraws between chunks). Default 100. */
  bootBudgetMs?: number;
  /** Trace entries kept for snapshots. Default 2000. */
  traceKept?: number;
}

/** The longest wall gap a tick accounts for (a throttled background tab does not jump ahead). */
const MAX_TICK_WALL_MS = 250;
/**
 * Wall ms after the boot ends before the shell's code starts loading (unless a line or a
 * completion asks for it sooner): the page is still drawing the booted cluster then, and the
 * download and compile of the shell chunks would compete with it for the network and the CPU.
 */
const SHELL_AFTER_BOOT_MS = 1000;
/** Mirror types: the `group/resource` keys of the API store. */
const MIRRORED_TYPES = ['/nodes', '/pods', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets', 'batch/jobs', 'batch/cronjobs'];

/** A root bash prompt inside a kind node (src/shell/shell.ts, nodePrompt): `root@NODE:/DIR# `. */
const NODE_PROMPT = /^root@([^:\s]+):[^#]*# $/;
const SHELL_OBJECT = /^kubectl\s+(delete|scale)\s+(pods?|po|deployments?|deploy)(?:\.apps)?\s+(\S+)(?:.*?(?:-n|--namespace)[= ](\S+))?/;

export class SimHost {
  private cluster: HostCluster | undefined;
  private runner: LineRunner | undefined;
  private unsubscribe: (() => void)[] = [];
  /** Latest object by uid (read-only views of the API server's objects). */
  private latest = new Map<string, KubeObject>();
  /** The record last sent per uid, serialised (to send only real changes). */
  private sent = new Map<string, string>();
  private dirty = new Set<string>();
  private pendingTrace: TraceItem[] = [];
  private recentTrace: TraceItem[] = [];
  private traceId = 0;
  private seq = 0;
  private run: RunState = { playing: false, speed: 1, seed: 1, cluster: 'test' };
  private runChanged = false;
  private lastTimeSent = -1;
  private timer: unknown;
  private flushTimer: unknown;
  /** Wall time of the last snapshot or diff (diffs are at most one per frame). */
  private lastPost = Number.NEGATIVE_INFINITY;
  private lastWall = 0;
  /** Fraction of a virtual ms not yet run (playing). */
  private carry = 0;
  private ffTarget: number | undefined;
  private ffStart = 0;
  /** While the cluster boots: play afterwards (or stay paused). */
  private boot: { playAfter: boolean; until: number } | undefined;
  private lineQueue: { line: string; id?: number }[] = [];
  private kind: ClusterKind = 'booted';
  /** The Supervision view subscribes (`supervision` messages): the tree last sent (JSON), when (wall ms), the throttle timer. */
  private supervisionOn = false;
  private supervisionSent: string | undefined;
  private supervisionAt = Number.NEGATIVE_INFINITY;
  private supervisionTimer: unknown;
  private readonly tickMs: number;
  private readonly playBudgetMs: number;
  private readonly ffBudgetMs: number;
  private readonly bootBudgetMs: number;
  private readonly traceKept: number;
  /** Replaying a journal (src/worker/journal.ts): nothing is posted. */
  private replaying = false;
  /** Messages that arrived while a restore ran (handled after it). */
  private queued: ToWorker[] | undefined;
  /** The shell's code is loaded: lines run (and are journaled) at once. */
  private shellReady = true;
  private lastEventsSent = -1;
  /**
   * A `quiet` reset's boot is running: the page shows the boot view already, so nothing is posted
   * (no snapshot, diffs, supervision trees; shell lines wait) until the boot is over.
   */
  private quiet = false;
  /** Edits and completions that arrived during a quiet boot or before the shell's code (handled then, in order). */
  private afterQuiet: ToWorker[] = [];

  constructor(private readonly opts: SimHostOptions) {
    const post = opts.post;
    this.opts = { ...opts, post: (m) => (this.replaying ? undefined : post(m)) };
    this.tickMs = opts.tickMs ?? 16;
    this.playBudgetMs = opts.playBudgetMs ?? 12;
    this.ffBudgetMs = opts.fastForwardBudgetMs ?? 40;
    this.bootBudgetMs = opts.bootBudgetMs ?? 100;
    this.traceKept = opts.traceKept ?? 2000;
  }

  /** The cluster (for tests). */
  get current(): HostCluster | undefined {
    return this.cluster;
  }

  /** The run state (for tests). */
  get state(): RunState {
    return { ...this.run };
  }

  /** Handle one message from the UI. */
  handle(msg: ToWorker): void {
    if (msg.type === 'ping') {
      this.opts.post({ type: 'pong', id: msg.id });
      return;
    }
    if (this.queued) {
      this.queued.push(msg);
      return;
    }
    // During a quiet boot the page shows the booted cluster: an edit or a completion is for that
    // cluster, so it waits for the boot's end (lines wait in the line queue the same way); a
    // completion also waits for the shell's code (which knows the words).
    if ((this.quiet && (msg.type === 'edit' || msg.type === 'complete')) || (msg.type === 'complete' && !this.shellReady && this.cluster)) {
      this.afterQuiet.push(msg);
      if (msg.type === 'complete') this.wantShell();
      return;
    }
    if (msg.type === 'restore') {
      void this.restore(msg);
      return;
    }
    try {
      this.dispatch(msg);
    } catch (e) {
      this.opts.post({ type: 'error', message: e instanceof Error ? `${e.message}` : String(e) });
    }
    this.requestFlush();
    this.schedule();
  }

  /** Flush now, or at the next frame boundary when a message went out less than a frame ago. */
  private requestFlush(): void {
    const wait = this.lastPost + this.tickMs - this.opts.env.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    if (this.flushTimer === undefined) {
      this.flushTimer = this.opts.env.setTimeout(() => {
        this.flushTimer = undefined;
        this.flush();
      }, wait);
    }
  }

  private dispatch(msg: ToWorker): void {
    if (msg.type === 'reset') {
      this.reset(msg.seed, msg.paused ?? false, msg.cluster ?? this.kind, msg.quiet === true);
      return;
    }
    if (!this.cluster) throw new Error(`no cluster yet: send reset first (got ${msg.type})`);
    if (msg.type !== 'shell' && isJournaled(msg) && msg.type !== 'edit') this.journalInput(msg);
    if (msg.type === 'edit') {
      this.edit(msg.id, msg.request);
      return;
    }
    if (msg.type === 'supervision') {
      this.supervisionOn = msg.on;
      this.supervisionSent = undefined;
      if (msg.on) this.postSupervision(true);
      return;
    }
    if (this.boot && msg.type !== 'shell' && msg.type !== 'resync' && msg.type !== 'speed' && msg.type !== 'interrupt' && msg.type !== 'complete') {
      // The boot runs to its end; play/pause choose what happens after it.
      if (msg.type === 'play' || msg.type === 'pause') {
        this.boot.playAfter = msg.type === 'play';
        this.setRun({ playing: this.boot.playAfter });
      }
      return;
    }
    switch (msg.type) {
      case 'play':
        this.ffTarget = undefined;
        this.setRun({ playing: true, fastForward: undefined });
        this.lastWall = this.opts.env.now();
        break;
      case 'pause':
        this.ffTarget = undefined;
        this.setRun({ playing: false, fastForward: undefined, lagging: false });
        break;
      case 'speed':
        this.setRun({ speed: clampSpeed(msg.factor) });
        break;
      case 'step':
        this.ffTarget = undefined;
        this.setRun({ playing: false, fastForward: undefined, lagging: false });
        this.cluster.clock.step();
        this.pollLine();
        break;
      case 'fastForward':
        this.ffStart = this.cluster.clock.now();
        this.ffTarget = this.ffStart + msg.ms;
        this.setRun({ fastForward: { doneMs: 0, totalMs: msg.ms } });
        break;
      case 'shell':
        this.lineQueue.push({ line: msg.line, id: msg.id });
        this.wantShell();
        this.startLines();
        break;
      case 'resync':
        if (!this.quiet) this.sendSnapshot();
        break;
      case 'interrupt':
        // Ctrl-C: the running line ends (exit 130) and its `done` goes out.
        if (this.runner?.busy) this.runner.interrupt();
        break;
      case 'complete': {
        this.wantShell();
        const c = this.runner?.complete(msg.line, msg.cursor) ?? { start: msg.cursor, end: msg.cursor, candidates: [] };
        this.opts.post({ type: 'completions', id: msg.id, ...c });
        break;
      }
    }
  }

  // ------------------------------------------------------------------------------ cluster

  private reset(seed: number, paused: boolean, kind: ClusterKind, quiet = false): void {
    this.kind = kind;
    this.quiet = false;
    this.afterQuiet = [];
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    if (this.timer !== undefined) this.opts.env.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushTimer !== undefined) this.opts.env.clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.latest.clear();
    this.sent.clear();
    this.dirty.clear();
    this.pendingTrace = [];
    this.recentTrace = [];
    this.ffTarget = undefined;
    this.boot = undefined;
    this.lineQueue = [];

    const cluster = this.opts.makeCluster(seed, kind);
    this.cluster = cluster;
    const runner = (this.opts.makeRunner ?? defaultRunner)(cluster, () => {
      if (this.cluster === cluster) this.requestFlush();
    });
    this.runner = runner;
    // Lines wait until the shell's code is there, so each runs (and is journaled) at one position.
    this.shellReady = !cluster.shell || this.opts.makeRunner !== undefined;
    if (!this.shellReady) {
      const ready = () => {
        if (this.cluster !== cluster || this.shellReady) return;
        this.shellReady = true;
        this.startLines();
        this.handleWaiting();
        this.requestFlush();
        this.schedule();
      };
      // The chunk loads when the boot is over (or at the first line or completion): see wantShell.
      shellModuleLoaded().then(ready, ready);
    }
    // Objects that exist already (nodes registered while the cluster was built).
    for (const typeKey of MIRRORED_TYPES) {
      for (const obj of cluster.api.store.values(typeKey)) this.note(obj, false);
    }
    this.unsubscribe.push(cluster.api.onWrite((w) => this.onWrite(w)));
    this.unsubscribe.push(cluster.trace.subscribe((e) => this.onTrace(e)));
    for (const e of cluster.trace.list()) this.onTrace(e);

    if (cluster.warmupMs > 0) cluster.clock.advance(cluster.warmupMs);
    this.run = { playing: !paused, speed: this.run.speed, seed, cluster: cluster.kind };
    if (cluster.booted && !cluster.booted()) {
      this.boot = { playAfter: !paused, until: cluster.clock.now() + (cluster.bootTimeoutMs ?? 10 * 60_000) };
      // `playing` says what happens once booted; the boot itself runs as fast as it can.
      this.run = { ...this.run, booting: true };
      this.quiet = quiet;
    }
    this.lastWall = this.opts.env.now();
    if (!this.quiet) this.sendSnapshot();
    this.supervisionSent = undefined;
    this.postSupervision(true);
    if (!this.boot) this.wantShell();
  }

  /**
   * Start loading the shell's code (src/worker/shells.ts: the playground shell, kubectl, docker,
   * kind) unless it is there. Asked for SHELL_AFTER_BOOT_MS after the boot is over, or by the
   * first line or completion before that: the cluster boots and is drawn without waiting for it
   * (lines wait for it, in order).
   */
  private wantShell(): void {
    if (!this.shellReady) void loadShellModule().catch(() => undefined);
  }

  private onWrite(w: WriteRecord): void {
    if (!MIRRORED_KINDS.has(w.object.kind)) return;
    this.note(w.object, w.type === 'DELETED');
  }

  private note(obj: KubeObject, deleted: boolean): void {
    if (!MIRRORED_KINDS.has(obj.kind)) return;
    const uid = obj.metadata.uid;
    if (!uid) return;
    if (deleted) this.latest.delete(uid);
    else this.latest.set(uid, obj);
    this.dirty.add(uid);
  }

  private onTrace(e: TraceEntry): void {
    const item: TraceItem = { id: ++this.traceId, time: e.time, component: e.component, message: e.message };
    if (e.object) item.object = { ...e.object };
    if (e.kind && e.kind !== 'info') item.kind = e.kind;
    this.pendingTrace.push(item);
    this.recentTrace.push(item);
    if (this.recentTrace.length > this.traceKept * 2) this.recentTrace.splice(0, this.recentTrace.length - this.traceKept);
  }

  private setRun(patch: Partial<RunState>): void {
    const next = { ...this.run, ...patch };
    for (const k of Object.keys(next) as (keyof RunState)[]) if (next[k] === undefined) delete next[k];
    if (JSON.stringify(next) !== JSON.stringify(this.run)) {
      this.run = next;
      this.runChanged = true;
    }
  }

  // ------------------------------------------------------------------------------ shell lines

  private startLines(): void {
    const runner = this.runner;
    const cluster = this.cluster;
    // During a quiet boot the page shows the booted cluster: a line typed there runs on it, after the boot.
    if (!runner || !cluster || !this.shellReady || this.quiet) return;
    while (this.lineQueue.length > 0) {
      // A line still waiting (a `kubectl delete` waiting for the pod to go) is interrupted the
      // way a person presses Ctrl-C to type the next command.
      if (runner.busy) runner.interrupt();
      const { line, id } = this.lineQueue.shift()!;
      this.journalInput({ type: 'shell', line, ...(id !== undefined ? { id } : {}) });
      const m = SHELL_OBJECT.exec(line.trim());
      const object = m ? { kind: m[2].startsWith('d') ? 'Deployment' : 'Pod', namespace: m[4] ?? 'default', name: m[3].includes('/') ? m[3].split('/')[1] : m[3] } : this.promptNode(runner.prompt);
      cluster.trace.add('shell', line.trim(), object, 'action');
      this.opts.post({ type: 'shellOutput', text: '', id, line, done: false });
      runner.run(
        line,
        (c) => this.opts.post({ type: 'shellOutput', text: c.text, stream: c.stream, id }),
        (exitCode) => this.opts.post({ type: 'shellOutput', text: '', id, done: true, exitCode, prompt: runner.prompt }),
        // `kubectl edit`: the browser's YAML editor is the line's $EDITOR.
        (target) => this.opts.post({ type: 'openEditor', target, ...(id !== undefined ? { id } : {}) }),
      );
    }
  }

  /**
   * The Node a line runs in, from the prompt it is typed at (`root@k8s-lab-control-plane:/# `
   * after `docker exec -it k8s-lab-control-plane bash`), when that names a Node of the cluster:
   * the timeline then says where `mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/` ran,
   * and links the line to the Node. Undefined on the laptop (`$ `) and in a container's shell.
   */
  private promptNode(prompt: string): { kind: string; name: string; uid?: string } | undefined {
    const name = NODE_PROMPT.exec(prompt)?.[1];
    const node = name ? this.cluster?.api.tryGet('nodes', undefined, name) : undefined;
    if (!name || !node) return undefined;
    return { kind: 'Node', name, ...(node.metadata.uid ? { uid: node.metadata.uid } : {}) };
  }

  /** Tell the UI an input takes effect here (it keeps the journal to restore a crashed worker). */
  private journalInput(msg: ToWorker): void {
    const cluster = this.cluster;
    if (!cluster || this.replaying) return;
    this.opts.post({ type: 'journal', entry: { at: positionOf(cluster.clock, cluster.api), msg } });
  }

  /**
   * Start where a crashed worker was: boot the same cluster, replay the journal, run to the
   * recorded position, check the resourceVersion, then play or pause as before. Posts
   * `restored`, then a snapshot; messages arriving meanwhile are handled afterwards.
   */
  private async restore(msg: Extract<ToWorker, { type: 'restore' }>): Promise<void> {
    this.queued = [];
    this.replaying = true;
    let replayed = 0;
    let failed: { entry: JournalEntry; message: string } | undefined;
    let diverged: string | undefined;
    const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
    try {
      this.reset(msg.seed, true, msg.cluster);
      const cluster = this.cluster!;
      if (!this.shellReady) {
        await loadShellModule().catch(() => undefined);
        this.shellReady = true;
      }
      for (const entry of msg.entries) {
        try {
          if (!runTo(cluster.clock, entry.at)) {
            diverged = `the replay could not reach the moment of "${describeInput(entry.msg)}"`;
            break;
          }
        } catch (e) {
          failed = { entry, message: errorText(e) };
          break;
        }
        try {
          if (entry.msg.type === 'edit') {
            const m = await loadEditing();
            m.handleEdit(cluster, entry.msg.request);
          } else {
            this.dispatch(entry.msg);
          }
        } catch {
          // The original run reported this error and went on; so does the replay.
        }
        replayed++;
      }
      if (!failed && !diverged) {
        try {
          if (!runTo(cluster.clock, msg.until)) diverged = 'the replay could not reach the last recorded moment';
          else if (cluster.api.resourceVersion() !== msg.until.rv) diverged = `the API server is at resourceVersion ${cluster.api.resourceVersion()}, not ${msg.until.rv} as before`;
        } catch (e) {
          diverged = `the replay stopped: ${errorText(e)}`;
        }
      }
      if (!msg.run.booting) this.boot = undefined;
      else if (this.boot) this.boot.playAfter = msg.run.playing;
      this.setRun({ playing: msg.run.playing, speed: clampSpeed(msg.run.speed), booting: this.boot ? true : undefined });
    } catch (e) {
      diverged = `the replay stopped: ${errorText(e)}`;
    }
    this.replaying = false;
    this.lastWall = this.opts.env.now();
    this.opts.post({ type: 'restored', replayed, total: msg.entries.length, ...(failed ? { failed } : {}), ...(diverged ? { diverged } : {}) });
    this.sendSnapshot();
    this.schedule();
    const queued = this.queued;
    this.queued = undefined;
    for (const m of queued) this.handle(m);
  }

  private pollLine(): void {
    if (this.runner?.busy) this.runner.poll();
  }

  /** Answer a YAML editor request (`editReply`), then send what its writes changed. */
  private edit(id: number, request: EditRequest): void {
    const cluster = this.cluster!;
    loadEditing().then(
      (m) => {
        if (this.cluster !== cluster) {
          this.opts.post({ type: 'editReply', id, reply: { op: 'error', error: 'the cluster was reset meanwhile' } });
          return;
        }
        if (isJournaled({ type: 'edit', id, request })) this.journalInput({ type: 'edit', id, request });
        this.opts.post({ type: 'editReply', id, reply: m.handleEdit(cluster, request) });
        this.requestFlush();
        this.schedule();
      },
      (e: unknown) => this.opts.post({ type: 'editReply', id, reply: { op: 'error', error: `the editor's worker code did not load: ${String(e)}` } }),
    );
  }

  // ------------------------------------------------------------------------------ time

  private schedule(): void {
    if (this.timer !== undefined || !this.cluster) return;
    const fast = this.ffTarget !== undefined || this.boot !== undefined;
    if (!fast && !this.run.playing) return;
    this.timer = this.opts.env.setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, fast ? 0 : this.tickMs);
  }

  /** Run events until virtual time `target` or until `budgetMs` of wall time is spent. */
  private runUntil(target: number, budgetMs: number): boolean {
    const clock = this.cluster!.clock;
    const start = this.opts.env.now();
    let n = 0;
    for (;;) {
      const next = clock.peekTime();
      if (next === undefined || next > target) {
        clock.runUntil(target); // moves `now` to the target (no events left before it)
        return true;
      }
      clock.step();
      if (++n % 32 === 0 && this.opts.env.now() - start > budgetMs) return false;
    }
  }

  private tick(): void {
    const cluster = this.cluster;
    if (!cluster) return;
    const wall = this.opts.env.now();
    try {
      if (this.boot) {
        this.bootChunk();
        this.lastWall = wall;
      } else if (this.ffTarget !== undefined) {
        const done = this.runUntil(this.ffTarget, this.ffBudgetMs);
        const total = this.ffTarget - this.ffStart;
        if (done) {
          this.ffTarget = undefined;
          this.setRun({ fastForward: undefined });
        } else {
          this.setRun({ fastForward: { doneMs: cluster.clock.now() - this.ffStart, totalMs: total } });
        }
        this.lastWall = wall;
      } else if (this.run.playing) {
        const dt = Math.min(MAX_TICK_WALL_MS, Math.max(0, wall - this.lastWall));
        this.lastWall = wall;
        // Virtual time moves in whole milliseconds (the engine's clock is integral); the
        // fraction carries over to the next tick.
        this.carry += dt * this.run.speed;
        const ms = Math.floor(this.carry);
        this.carry -= ms;
        const target = cluster.clock.now() + ms;
        const kept = this.runUntil(target, this.playBudgetMs);
        this.setRun({ lagging: kept ? undefined : true });
      }
      this.pollLine();
    } catch (e) {
      this.ffTarget = undefined;
      this.boot = undefined;
      this.setRun({ playing: false, fastForward: undefined, booting: undefined });
      if (this.quiet) this.endQuiet();
      this.opts.post({ type: 'error', message: `the simulation stopped: ${e instanceof Error ? e.message : String(e)}` });
    }
    this.requestFlush();
    this.schedule();
  }

  /** Run the boot for one chunk of wall time, in steps of `bootStepMs`, until `booted()` holds. */
  private bootChunk(): void {
    const cluster = this.cluster!;
    const boot = this.boot!;
    const start = this.opts.env.now();
    const step = cluster.bootStepMs ?? 250;
    while (this.opts.env.now() - start < this.bootBudgetMs) {
      if (cluster.booted!()) {
        this.boot = undefined;
        this.setRun({ booting: undefined, playing: boot.playAfter });
        this.lastWall = this.opts.env.now();
        if (this.quiet) this.endQuiet();
        this.opts.env.setTimeout(() => this.wantShell(), SHELL_AFTER_BOOT_MS);
        return;
      }
      if (cluster.clock.now() >= boot.until) {
        this.boot = undefined;
        this.wantShell();
        this.setRun({ booting: undefined, playing: false });
        if (this.quiet) this.endQuiet();
        this.opts.post({ type: 'error', message: `the cluster did not finish booting within ${Math.round((cluster.bootTimeoutMs ?? 600_000) / 1000)} s of virtual time` });
        return;
      }
      cluster.clock.advance(step);
      this.pollLine();
    }
  }

  /** A quiet boot is over: the page gets the cluster as it is now, then the lines typed meanwhile run. */
  private endQuiet(): void {
    this.quiet = false;
    this.sendSnapshot();
    this.postSupervision(true);
    this.startLines();
    this.handleWaiting();
  }

  /** Handle the edits and completions that waited (see `afterQuiet`), once nothing holds them. */
  private handleWaiting(): void {
    if (this.quiet || !this.shellReady) return;
    const waiting = this.afterQuiet;
    this.afterQuiet = [];
    for (const m of waiting) this.handle(m);
  }

  // ------------------------------------------------------------------------------ messages

  private recordOf(obj: KubeObject): ObjRecord | undefined {
    const clock = this.cluster!.clock;
    return toRecord(obj, { nowMs: clock.now(), epochMs: clock.epochMs });
  }

  private sendSnapshot(): void {
    const cluster = this.cluster;
    if (!cluster) return;
    const objects: Record<string, ObjRecord> = {};
    this.sent.clear();
    for (const [uid, obj] of this.latest) {
      const rec = this.recordOf(obj);
      if (!rec) continue;
      objects[uid] = rec;
      this.sent.set(uid, JSON.stringify(rec));
    }
    this.dirty.clear();
    this.pendingTrace = [];
    if (this.recentTrace.length > this.traceKept) this.recentTrace.splice(0, this.recentTrace.length - this.traceKept);
    this.seq = 0;
    this.runChanged = false;
    this.lastTimeSent = cluster.clock.now();
    this.lastEventsSent = cluster.clock.executed;
    this.lastPost = this.opts.env.now();
    this.opts.post({
      type: 'snapshot',
      protocol: PROTOCOL_VERSION,
      seq: this.seq,
      objects,
      time: { now: cluster.clock.now(), epochMs: cluster.clock.epochMs, events: cluster.clock.executed, rv: cluster.api.resourceVersion() },
      trace: [...this.recentTrace],
      run: { ...this.run },
    });
  }

  /**
   * While the Supervision view subscribes: build the tree (at most every
   * SUPERVISION_MIN_INTERVAL_MS of wall time unless `force`; a timer catches up on a throttled
   * change) and send it when it differs from the last one sent.
   */
  private postSupervision(force: boolean): void {
    const cluster = this.cluster;
    if (!this.supervisionOn || !cluster || this.quiet) return;
    const wall = this.opts.env.now();
    const wait = this.supervisionAt + SUPERVISION_MIN_INTERVAL_MS - wall;
    if (!force && wait > 0) {
      if (this.supervisionTimer === undefined) {
        this.supervisionTimer = this.opts.env.setTimeout(() => {
          this.supervisionTimer = undefined;
          this.postSupervision(false);
        }, wait);
      }
      return;
    }
    this.supervisionAt = wall;
    const tree = cluster.supervision ? cluster.supervision() : null;
    const json = JSON.stringify(tree);
    if (json === this.supervisionSent) return;
    this.supervisionSent = json;
    this.opts.post({ type: 'supervision', tree });
  }

  /** Send what changed since the last message (nothing at all when nothing did). */
  private flush(): void {
    const cluster = this.cluster;
    if (!cluster || this.quiet) return;
    this.postSupervision(false);
    const upserts: ObjRecord[] = [];
    const removals: string[] = [];
    for (const uid of this.dirty) {
      const obj = this.latest.get(uid);
      if (!obj) {
        if (this.sent.delete(uid)) removals.push(uid);
        continue;
      }
      const rec = this.recordOf(obj);
      if (!rec) continue;
      const json = JSON.stringify(rec);
      if (this.sent.get(uid) === json) continue;
      this.sent.set(uid, json);
      upserts.push(rec);
    }
    this.dirty.clear();
    const now = cluster.clock.now();
    const events = cluster.clock.executed;
    if (upserts.length === 0 && removals.length === 0 && this.pendingTrace.length === 0 && !this.runChanged && now === this.lastTimeSent && events === this.lastEventsSent) return;
    const trace = this.pendingTrace;
    this.pendingTrace = [];
    this.lastTimeSent = now;
    this.lastEventsSent = events;
    this.lastPost = this.opts.env.now();
    const msg: FromWorker = { type: 'diff', seq: ++this.seq, upserts, removals, trace, time: { now, epochMs: cluster.clock.epochMs, events, rv: cluster.api.resourceVersion() } };
    if (this.runChanged) {
      msg.run = { ...this.run };
      this.runChanged = false;
    }
    this.opts.post(msg);
  }
}
