/**
 * The YAML editor's requests to the simulation worker (`edit` / `editReply` of
 * src/protocol/messages.ts), as promises. Tiny and Monaco-free: the bridge imports it to hand
 * replies over, so it is part of the first download.
 */
import type { EditReply, EditRequest, FromWorker, ToWorker } from '../../protocol/messages';

type Reply = Extract<FromWorker, { type: 'editReply' }>;

/** How long to wait for the worker before giving up on a request (wall ms). */
export const EDIT_TIMEOUT_MS = 20_000;

let nextId = 0;
const pending = new Map<number, { resolve: (r: EditReply) => void; timer: ReturnType<typeof setTimeout> }>();

/**
 * Send `request` with `send` (the store's `send`) and resolve with the worker's reply. Never
 * rejects: a worker that does not answer in `EDIT_TIMEOUT_MS` resolves `{ op: 'error' }`.
 */
export function editRequest(send: (msg: ToWorker) => void, request: EditRequest): Promise<EditReply> {
  const id = ++nextId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve({ op: 'error', error: 'the simulation did not answer' });
    }, EDIT_TIMEOUT_MS);
    pending.set(id, { resolve, timer });
    send({ type: 'edit', id, request });
  });
}

/** Hand a reply from the worker to the request waiting for it (unknown ids are ignored). */
export function deliverEditReply(msg: Reply): void {
  const p = pending.get(msg.id);
  if (!p) return;
  pending.delete(msg.id);
  clearTimeout(p.timer);
  p.resolve(msg.reply);
}
