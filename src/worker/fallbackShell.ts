/**
 * A minimal stand-in for the playground shell, used only when the real one (src/shell/shell.ts)
 * cannot be loaded: the two lines the UI's buttons issue, by calling the API server directly.
 *
 *   kubectl delete pod NAME [-n NS]
 *   kubectl scale deployment NAME --replicas=N [-n NS]
 *
 * Anything else answers with a line saying so.
 */
import type { ApiServer } from '../engine/api/server';
import { ApiError } from '../engine/api/errors';

/** Result of one line. */
export interface FallbackResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Split a line into words (single and double quotes group; no expansion). */
export function splitWords(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The flags and positional words of a kubectl argv (only `-n/--namespace` and `--replicas` take values). */
function parseArgs(words: string[]): { args: string[]; namespace: string; replicas?: number } {
  const args: string[] = [];
  let namespace = 'default';
  let replicas: number | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === '-n' || w === '--namespace') namespace = words[++i] ?? namespace;
    else if (w.startsWith('--namespace=')) namespace = w.slice('--namespace='.length);
    else if (w.startsWith('-n') && w.length > 2 && !w.startsWith('--')) namespace = w.slice(2);
    else if (w === '--replicas') replicas = Number(words[++i]);
    else if (w.startsWith('--replicas=')) replicas = Number(w.slice('--replicas='.length));
    else if (!w.startsWith('-')) args.push(w);
  }
  return { args, namespace, replicas };
}

const POD_TYPES = new Set(['pod', 'pods', 'po']);
const DEPLOY_TYPES = new Set(['deployment', 'deployments', 'deploy', 'deployment.apps']);

/** Run one line against `api`. */
export function runFallbackLine(api: ApiServer, line: string): FallbackResult {
  const words = splitWords(line.trim());
  const ok = (stdout: string): FallbackResult => ({ stdout, stderr: '', exitCode: 0 });
  const fail = (stderr: string): FallbackResult => ({ stdout: '', stderr, exitCode: 1 });
  if (words[0] !== 'kubectl') {
    return fail(`(the playground shell is not loaded yet: this build only runs "kubectl delete pod" and "kubectl scale deployment")\n`);
  }
  const verb = words[1];
  const { args, namespace, replicas } = parseArgs(words.slice(2));
  try {
    if (verb === 'delete') {
      let [type, name] = args;
      if (type?.includes('/') && name === undefined) [type, name] = type.split('/', 2);
      if (!type || !POD_TYPES.has(type) || !name) return fail('(fallback shell) usage: kubectl delete pod NAME -n NAMESPACE\n');
      api.delete('pods', namespace, name, { fieldManager: 'kubectl' });
      return ok(`pod "${name}" deleted\n`);
    }
    if (verb === 'scale') {
      let [type, name] = args;
      if (type?.includes('/') && name === undefined) [type, name] = type.split('/', 2);
      if (!type || !DEPLOY_TYPES.has(type) || !name || replicas === undefined || !Number.isInteger(replicas) || replicas < 0) {
        return fail('(fallback shell) usage: kubectl scale deployment NAME --replicas=N -n NAMESPACE\n');
      }
      api.updateScale('deployments', namespace, name, replicas, { fieldManager: 'kubectl' });
      return ok(`deployment.apps/${name} scaled\n`);
    }
  } catch (e) {
    if (e instanceof ApiError) return fail(e.kubectlMessage() + '\n');
    throw e;
  }
  return fail(`(the playground shell is not loaded yet: this build only runs "kubectl delete pod" and "kubectl scale deployment")\n`);
}
