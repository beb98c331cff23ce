/**
 * A container's attached stdin and output: what CRI `Attach` streams (kubectl attach / run -i -t).
 *
 * A container created with `stdin: true` (and `tty: true`, as `kubectl run -i -t` makes it) has
 * its main process's standard input held open by the runtime; a shell as main process reads its
 * commands from it line by line, in its own context (so `cd` and `export` persist), and writes
 * its output to the container's stdout, which is also the container log (with a tty the
 * kubelet logs what the terminal shows). Closing stdin (`stdinOnce: true` when the attached
 * client leaves, or Ctrl-D) is EOF: the shell exits with the status of its last command.
 *
 * Mirrors the CRI `Attach` call (k8s.io/cri-api/pkg/apis/runtime/v1/api.proto `AttachRequest`:
 * stdin, stdout, stderr, tty) as containerd's shim serves it: one stream per container, output
 * fanned out to every attached client. Pure: no timers; a write resumes the reading shell at the
 * current virtual instant.
 */

/** The attach side of a container's stdin/stdout, as a client (the kubelet's attach) uses it. */
export interface ContainerAttach {
  /** Send one line (without its newline) to the main process's stdin. Ignored once closed or ended. */
  write(line: string): void;
  /** Close stdin (EOF). */
  close(): void;
  /** Ctrl-C on the terminal (tty): the foreground command of the reading shell ends with 130; nothing while it waits. */
  interrupt(): void;
  /** The main process waits for input (a shell at its prompt) with nothing queued. */
  readonly idle: boolean;
  /** The main process has ever read stdin (a shell); false for a program that never does. */
  readonly interactive: boolean;
  /** The container's main process has ended (or the container was stopped). */
  readonly ended: boolean;
  /** The reading shell's working directory, as of its last wait for input (its prompt shows it). */
  readonly cwd: string;
  /** Receive the container's output from now on (stdout and stderr text); returns the unsubscribe. */
  onOutput(cb: (text: string, stream: 'stdout' | 'stderr') => void): () => void;
}

/** The runtime's end of an attachable stdin: the container's program reads from it and writes through it. */
export class ContainerStdin implements ContainerAttach {
  // Allocated on first use: every container start has one, few are ever attached (performance only).
  private queue: string[] | undefined;
  private closed = false;
  private waiter: (() => void) | undefined;
  private listeners: Set<(text: string, stream: 'stdout' | 'stderr') => void> | undefined;
  private reads = false;
  private done = false;
  private dir = '/';
  /**
   * With a tty: what the terminal shows besides the program's output (the shell's prompt and the
   * echoed input) goes to the container log only (the attached client draws its own).
   */
  echo: ((text: string) => void) | undefined;
  /** Set by the reading shell while it runs a line: what Ctrl-C does. */
  onInterrupt: (() => void) | undefined;

  write(line: string): void {
    if (this.closed || this.done) return;
    (this.queue ??= []).push(line);
    this.wake();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake();
  }

  interrupt(): void {
    if (this.done || this.waiter) return;
    this.onInterrupt?.();
  }

  get idle(): boolean {
    return this.waiter !== undefined && !this.queue?.length && !this.done;
  }

  get interactive(): boolean {
    return this.reads;
  }

  get ended(): boolean {
    return this.done;
  }

  get cwd(): string {
    return this.dir;
  }

  onOutput(cb: (text: string, stream: 'stdout' | 'stderr') => void): () => void {
    const ls = (this.listeners ??= new Set());
    ls.add(cb);
    return () => ls.delete(cb);
  }

  /** The reader: the next line, `null` at EOF, undefined when nothing is there yet (then `wait`). */
  read(): string | null | undefined {
    this.reads = true;
    if (this.queue?.length) return this.queue.shift();
    return this.closed ? null : undefined;
  }

  /** The reader waits for input; `resume` is called (synchronously, once) on the next write or close. */
  wait(resume: () => void, cwd: string): void {
    this.reads = true;
    this.dir = cwd;
    this.waiter = resume;
  }

  /** The program wrote `text` (to its log as well). */
  emit(text: string, stream: 'stdout' | 'stderr'): void {
    if (!this.listeners) return;
    for (const l of this.listeners) l(text, stream);
  }

  /** The main process ended: nothing reads any more. */
  end(): void {
    this.done = true;
    this.waiter = undefined;
    this.onInterrupt = undefined;
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }
}
