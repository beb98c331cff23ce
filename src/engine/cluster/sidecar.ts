/**
 * A container program with something more running beside it: the data model of an image (its
 * logs, ports, readiness, exec) plus a component's own loop (kube-apiserver serving the API,
 * a controller's reconcile loop) started and stopped with the same process.
 */
import type { ProcessContext, Program } from '../node/process';
import type { ContainerProgram } from '../node/programs';

/**
 * Wrap a data model's program (`inner`) with extra behaviour (`extra`) started after it and
 * stopped before it, once; signals, ports, HTTP, exec and readiness are the model's.
 */
export function withSidecar(inner: ContainerProgram, extra: { start(ctx: ProcessContext): void; stop(): void }): Program & Partial<Omit<ContainerProgram, 'model'>> {
  let stopped = false;
  return {
    start(ctx) {
      inner.start(ctx);
      extra.start(ctx);
    },
    onSignal: (sig, ctx) => (inner.onSignal ? inner.onSignal(sig, ctx) : false),
    stop() {
      if (stopped) return;
      stopped = true;
      extra.stop();
      inner.stop?.();
    },
    listening: (port) => inner.listening(port),
    http: (port, req) => inner.http(port, req),
    exec: (argv, done, onOutput) => inner.exec(argv, done, onOutput),
    ready: () => inner.ready(),
  };
}
