/**
 * What the YAML editor has open, outside the editor's lazy chunk so the Inspector's "Edit YAML"
 * button can open it without loading Monaco first: a live object (edited as `kubectl edit`
 * does) or a new buffer (applied as `kubectl apply -f -`).
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { simStore } from '../state/store';

/** A live object by kind (as `kubectl get` accepts it), namespace and name. */
export interface EditTarget {
  kind: string;
  namespace?: string;
  name: string;
}

/** The editor's document: a live object, or a new manifest (`target` absent). */
export interface EditorState {
  target?: EditTarget;
  /** Bumped on every open, so opening the same object again reloads it. */
  openCount: number;
  /** A template to put into the new-objects buffer when it opens (taken once). */
  template?: { label: string; yaml: string };
}

/** The editor's store. */
export const editorStore = createStore<EditorState>()(() => ({ openCount: 0 }));

/** React hook over the editor's store. */
export function useEditor<T>(selector: (s: EditorState) => T): T {
  return useStore(editorStore, selector);
}

/** Open `target` (or the new-objects buffer, with `template` in it when given) in the YAML editor tab. */
export function openInEditor(target: EditTarget | undefined, template?: { label: string; yaml: string }): void {
  editorStore.setState((s) => ({ target, openCount: s.openCount + 1, template: target ? undefined : template }));
  simStore.getState().setView('editor');
}
