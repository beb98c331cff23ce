/**
 * The contract between the playground shell (parsing, pipes, redirection, here-documents,
 * `sleep`, `timeout`) and the commands it runs (`kubectl`, `docker`, `kind`, `systemctl`, ...).
 *
 * A command is a function of its argv and an I/O context that returns an exit status. Commands
 * are synchronous in virtual time except where they wait (`kubectl delete` waiting for the object
 * to go, `kubectl get -w`, `kubectl rollout status`, `sleep`): those return a `Pending` that the
 * shell drives by advancing the virtual clock, so the same script gives the same transcript.
 */
import type { Clock, Rng } from '../engine/clock';
import type { ApiServer } from '../engine/api/server';

/** Where a command writes. Lines end with '\n' as the command prints them. */
export interface CommandIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Standard input (a here-document, a pipe's upstream output, or '' when none). */
  stdin: string;
}

/** A command still running in virtual time (a watch, a wait). */
export interface Pending {
  /**
   * Called by the shell after virtual time advanced; returns the exit status once the command is
   * done, or undefined while it still runs.
   */
  poll(): number | undefined;
  /** The shell ends it (Ctrl-C, `timeout N` expiring): exit status 130 or 124 is the shell's. */
  cancel(): void;
  /** Virtual ms at which the command next wants to be polled (undefined: whenever time moves). */
  wakeAt?(): number | undefined;
}

/** What every command gets. */
export interface ShellContext {
  clock: Clock;
  rng: Rng;
  /** The cluster's API server, as kubectl reaches it (availability applies). */
  api: ApiServer;
  /** The shell's working directory files (kubectl apply -f reads them; `>` writes them). */
  files: ShellFiles;
  /** Environment variables. */
  env: Record<string, string>;
  /** The node the shell is attached to (inside `docker exec -it NODE bash`), if any. */
  node?: string;
  /**
   * The playground's $EDITOR, when there is one (the browser's YAML editor, provided by the
   * worker's line runner, src/worker/lines.ts): `kubectl edit` hands it the one object to open in
   * edit mode. Absent (the headless runner, tests, a node's shell): `kubectl edit` fails as a
   * terminal without an editor does.
   */
  openEditor?(target: { kind: string; namespace?: string; name: string }): void;
}

/** The working directory the shell sees (the bookshop repository by default). */
export interface ShellFiles {
  read(path: string): string | undefined;
  write(path: string, content: string, append?: boolean): void;
  list(dir: string): string[] | undefined;
  isDir(path: string): boolean;
}

/** A command implementation: argv[0] is the command name. Returns an exit status or a Pending. */
export type Command = (argv: string[], io: CommandIO, ctx: ShellContext) => number | Pending;
