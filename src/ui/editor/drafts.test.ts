import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_PREFIX, draftKey, dropDraft, loadDraft, saveDraft } from './drafts';

/** A Storage with the Web Storage API's behaviour (strings in, strings out). */
class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, String(v));
  }
  removeItem(k: string): void {
    this.m.delete(k);
  }
}

describe('drafts', () => {
  beforeEach(() => {
    (globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage();
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });

  it('keys a draft by object, and the new-objects buffer by itself', () => {
    expect(draftKey({ kind: 'Deployment', namespace: 'bookshop', name: 'catalog' })).toBe(`${DRAFT_PREFIX}Deployment/bookshop/catalog`);
    expect(draftKey({ kind: 'Node', name: 'k8s-lab-worker' })).toBe(`${DRAFT_PREFIX}Node//k8s-lab-worker`);
    expect(draftKey(undefined)).toBe(`${DRAFT_PREFIX}new`);
  });

  it('keeps the buffer with the version it started from, until dropped', () => {
    const key = draftKey({ kind: 'Deployment', namespace: 'bookshop', name: 'catalog' });
    saveDraft(key, { text: 'spec:\n  replicas: 3\n', base: 'spec:\n  replicas: 2\n', resourceVersion: '450' });
    expect(loadDraft(key)).toEqual({ text: 'spec:\n  replicas: 3\n', base: 'spec:\n  replicas: 2\n', resourceVersion: '450' });
    expect(loadDraft(draftKey(undefined))).toBeUndefined();
    dropDraft(key);
    expect(loadDraft(key)).toBeUndefined();
  });

  it('ignores a malformed draft and works without storage', () => {
    (globalThis as unknown as { localStorage: MemoryStorage }).localStorage.setItem(`${DRAFT_PREFIX}new`, '{not json');
    expect(loadDraft(`${DRAFT_PREFIX}new`)).toBeUndefined();
    delete (globalThis as { localStorage?: unknown }).localStorage;
    saveDraft(`${DRAFT_PREFIX}new`, { text: 'x' });
    expect(loadDraft(`${DRAFT_PREFIX}new`)).toBeUndefined();
  });
});
