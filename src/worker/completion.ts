/**
 * The live side of tab completion (src/shell/complete.ts) in the worker: the commands of the
 * shell's current environment, the API server's discovery (its resource registry, CRDs
 * included) and the names of the objects it stores.
 */
import type { ApiServer } from '../engine/api/server';
import type { ShellFiles } from '../shell/types';
import { complete, type Completion, type CompletionSource } from '../shell/complete';

/** What the source reads: the API server, the shell's command names, its working directory. */
export interface CompletionInputs {
  api: ApiServer;
  commands: readonly string[];
  files?: ShellFiles;
}

/** A CompletionSource over a live API server (read at each call: names are those of the moment). */
export function completionSource(inputs: CompletionInputs): CompletionSource {
  const { api } = inputs;
  const namesOf = (resource: string, group: string, namespace: string | undefined): string[] => {
    const t = api.registry.byResource(resource, group);
    if (!t) return [];
    try {
      return api.list(t, t.namespaced ? { namespace } : {}).items.map((o) => o.metadata.name ?? '').filter((n) => n !== '');
    } catch {
      return [];
    }
  };
  return {
    commands: inputs.commands,
    resources: api.registry.all(),
    names: (resource, group, namespace) => namesOf(resource, group, namespace),
    // kind's node containers carry the node names.
    containers: () => namesOf('nodes', '', undefined),
    files: () => {
      try {
        return inputs.files?.list('.') ?? inputs.files?.list('') ?? [];
      } catch {
        return [];
      }
    },
  };
}

/** Complete `line` at `cursor` against `inputs` (never throws: a failure completes nothing). */
export function completeAgainst(inputs: CompletionInputs, line: string, cursor: number): Completion {
  try {
    return complete(line, cursor, completionSource(inputs));
  } catch {
    return { start: cursor, end: cursor, candidates: [] };
  }
}
