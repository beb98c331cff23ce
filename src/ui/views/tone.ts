/**
 * Status -> tone, without the icons (plain TypeScript: the owner graph's model and the tests use
 * it outside React). Every status is drawn with its text, a colour AND an icon shape
 * (./status.tsx), so it reads without colour.
 */
import type { ObjRecord } from '../../protocol/messages';

export type Tone = 'ok' | 'progress' | 'notready' | 'error' | 'terminating' | 'done' | 'unknown';

const PROGRESS = new Set(['Pending', 'ContainerCreating', 'PodInitializing', 'SchedulingGated']);
const DONE = new Set(['Completed', 'Succeeded']);
const UNKNOWN = new Set(['Unknown', 'NodeLost']);

/** The tone of a pod's kubectl STATUS text. */
export function podTone(rec: Pick<ObjRecord, 'status' | 'ready' | 'deleting'>): Tone {
  const s = rec.status ?? 'Pending';
  if (s === 'Terminating') return 'terminating';
  if (UNKNOWN.has(s)) return 'unknown';
  if (DONE.has(s)) return 'done';
  if (PROGRESS.has(s) || s.startsWith('Init:') && /^Init:\d+\/\d+$/.test(s)) return 'progress';
  if (s === 'Running') {
    const [a, b] = (rec.ready ?? '0/0').split('/');
    return a === b ? 'ok' : 'notready';
  }
  if (s === 'NotReady') return 'notready';
  return 'error';
}

/** The tone of a node's Ready condition. */
export function nodeTone(rec: Pick<ObjRecord, 'nodeReady'>): Tone {
  return rec.nodeReady === 'True' ? 'ok' : rec.nodeReady === 'False' ? 'error' : 'unknown';
}

/** What a tone means, in words (screen readers, tooltips). */
export const TONE_WORDS: Record<Tone, string> = {
  ok: 'healthy',
  progress: 'starting',
  notready: 'running, not ready',
  error: 'failing',
  terminating: 'shutting down',
  done: 'finished',
  unknown: 'unknown',
};
