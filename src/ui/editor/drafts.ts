/**
 * Drafts: the editor's buffer saved in localStorage as it is typed, so a reload, a crash or a
 * rejected apply never loses it. One draft per live object (`Deployment/bookshop/catalog`) and
 * one for the new-manifest buffer. A draft of a live object keeps the YAML and resourceVersion
 * the edit started from, so saving it later still detects a change made meanwhile.
 */
import type { EditTarget } from './editorState';

/** localStorage key prefix. */
export const DRAFT_PREFIX = 'cluster-playground:yaml-draft:';

/** A saved buffer. */
export interface Draft {
  text: string;
  /** Edit of a live object: the YAML and resourceVersion it started from. */
  base?: string;
  resourceVersion?: string;
}

/** The draft key of a live object, or of the new-manifest buffer. */
export function draftKey(target: EditTarget | undefined): string {
  return DRAFT_PREFIX + (target ? `${target.kind}/${target.namespace ?? ''}/${target.name}` : 'new');
}

/** What drafts use of the Web Storage API (this module is also typechecked for Node tests). */
interface DraftStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function storage(): DraftStorage | undefined {
  try {
    return (globalThis as { localStorage?: DraftStorage }).localStorage;
  } catch {
    return undefined;
  }
}

/** The saved draft, if any (a malformed one is ignored). */
export function loadDraft(key: string): Draft | undefined {
  const raw = storage()?.getItem(key);
  if (!raw) return undefined;
  try {
    const d = JSON.parse(raw) as Draft;
    return typeof d.text === 'string' ? d : undefined;
  } catch {
    return undefined;
  }
}

/** Save a draft (quota errors are ignored: the buffer itself is still there). */
export function saveDraft(key: string, d: Draft): void {
  try {
    storage()?.setItem(key, JSON.stringify(d));
  } catch {
    // full or unavailable storage: nothing more to do
  }
}

/** Forget a draft. */
export function dropDraft(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // unavailable storage
  }
}
