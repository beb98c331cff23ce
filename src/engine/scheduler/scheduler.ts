/**
 * kube-scheduler: not written yet (a stub with the process interface the cluster uses).
 */
import type { ProcessOptions } from '../controllers/manager';

/** The kube-scheduler process. */
export class KubeScheduler {
  private running = false;
  constructor(readonly o: ProcessOptions) {}
  /** Start the process. */
  start(): void {
    this.running = true;
  }
  /** The process dies: its queue and cache are thrown away. */
  stop(): void {
    this.running = false;
  }
  /** True while running. */
  isRunning(): boolean {
    return this.running;
  }
}
