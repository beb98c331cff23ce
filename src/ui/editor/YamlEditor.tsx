/**
 * The YAML editor tab (lazy: Monaco and the schemas load only when it opens).
 *
 * Two kinds of buffer:
 * - a live object, opened from the Inspector's "Edit YAML": loaded as `kubectl get -o yaml`
 *   prints it and saved as `kubectl edit` saves it (the changes since it was loaded, with the
 *   resourceVersion it was loaded at; a change made meanwhile is a conflict, with the difference
 *   to look at and a way to re-apply onto the current version);
 * - a new manifest (templates or paste, several documents allowed), applied as
 *   `kubectl apply -f -` with one result line per object.
 * Diff shows what the apply would change (a server-side dry run against the live objects).
 * Errors land where they happened: YAML syntax errors at line and column, the API server's field
 * errors at the line of the field, schema problems (unknown fields, wrong types) as monaco-yaml
 * reports them; all are markers in the text and lines in the Problems list. The buffer is saved
 * as a draft while typing (localStorage), so neither a rejected apply nor a reload loses it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor';
import './editor.css';
import { simStore } from '../state/store';
import type { EditDocResult, EditReply } from '../../protocol/messages';
import { editRequest } from './client';
import { editorStore, openInEditor, useEditor, type EditTarget } from './editorState';
import { draftKey, dropDraft, loadDraft, saveDraft } from './drafts';
import { TEMPLATES } from './templates';
import { locateFieldPath, syntaxProblems } from './yamlPaths';
import { MODEL_FOLDER, setCustomKinds, setupMonaco } from './monaco';

const monaco = setupMonaco();

/** Marker owners: our own (monaco-yaml uses its own for schema problems). */
const OWNER_SYNTAX = 'yaml-syntax';
const OWNER_API = 'kube-apiserver';

/** A line of the Problems list. */
interface Problem {
  line: number;
  column: number;
  message: string;
  source: string;
  severity: 'error' | 'warning';
}

/** The live object the buffer edits: the YAML and resourceVersion it started from. */
interface Base {
  yaml: string;
  resourceVersion: string;
}

function describeTarget(t: EditTarget): string {
  return `${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name}`;
}

function modelUri(t: EditTarget | undefined): Monaco.Uri {
  const name = t ? `${t.kind}.${t.namespace ?? '_'}.${t.name}` : 'new';
  return monaco.Uri.parse(`${MODEL_FOLDER}${name.replace(/[^A-Za-z0-9._-]/g, '_')}.yaml`);
}

const send = (msg: Parameters<ReturnType<typeof simStore.getState>['send']>[0]) => simStore.getState().send(msg);

async function refreshCustomKinds(): Promise<void> {
  const r = await editRequest(send, { op: 'crds' });
  if (r.op === 'crds') setCustomKinds(r.kinds);
}

/** The problems monaco-yaml and we put on a model, for the list under the editor. */
function problemsOf(model: Monaco.editor.ITextModel): Problem[] {
  return monaco.editor
    .getModelMarkers({ resource: model.uri })
    .map((m) => ({
      line: m.startLineNumber,
      column: m.startColumn,
      message: m.message,
      source: m.owner === OWNER_API ? 'API server' : m.owner === OWNER_SYNTAX ? 'YAML' : 'schema',
      severity: (m.severity >= monaco.MarkerSeverity.Error ? 'error' : 'warning') as Problem['severity'],
    }))
    .sort((a, b) => a.line - b.line || a.column - b.column)
    // monaco-yaml reports YAML syntax errors too: list each problem once.
    .filter((p, i, all) => i === 0 || !(all[i - 1].line === p.line && all[i - 1].message === p.message));
}

function ResultLine({ r }: { r: EditDocResult }) {
  return (
    <li className={`editor-result ${r.ok ? 'is-ok' : 'is-error'}`}>
      <span className="editor-result-tag">{r.ok ? 'OK' : 'Rejected'}</span>
      <pre className="editor-result-text">{r.text}</pre>
    </li>
  );
}

export default function YamlEditor() {
  const target = useEditor((s) => s.target);
  const openCount = useEditor((s) => s.openCount);
  const hostRef = useRef<HTMLDivElement>(null);
  const diffHostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | undefined>(undefined);
  const baseRef = useRef<Base | undefined>(undefined);
  const [base, setBase] = useState<Base | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [results, setResults] = useState<{ dryRun: boolean; items: EditDocResult[] } | undefined>(undefined);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [conflict, setConflict] = useState<{ liveYaml: string; resourceVersion: string } | undefined>(undefined);
  const [diff, setDiff] = useState<{ title: string; original: string; modified: string } | undefined>(undefined);
  const key = draftKey(target);
  const mode: 'edit' | 'apply' = target ? 'edit' : 'apply';

  const setBaseBoth = (b: Base | undefined) => {
    baseRef.current = b;
    setBase(b);
  };

  // The editor itself (once).
  useEffect(() => {
    const ed = monaco.editor.create(hostRef.current!, {
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 14,
      tabSize: 2,
      insertSpaces: true,
      scrollBeyondLastLine: false,
      renderWhitespace: 'boundary',
      fixedOverflowWidgets: true,
      ariaLabel: 'YAML buffer',
      model: null,
    });
    editorRef.current = ed;
    const markers = monaco.editor.onDidChangeMarkers((uris) => {
      const model = ed.getModel();
      if (model && uris.some((u) => u.toString() === model.uri.toString())) setProblems(problemsOf(model));
    });
    void refreshCustomKinds();
    return () => {
      markers.dispose();
      ed.dispose();
      editorRef.current = undefined;
    };
  }, []);

  /** Put `text` into the model of the current document (creating it), keeping undo history. */
  const setText = useCallback(
    (text: string, opts: { top?: boolean } = {}) => {
      const ed = editorRef.current;
      if (!ed) return;
      const uri = modelUri(target);
      let model = monaco.editor.getModel(uri);
      if (!model) model = monaco.editor.createModel(text, 'yaml', uri);
      else if (model.getValue() !== text) model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
      if (ed.getModel() !== model) ed.setModel(model);
      if (opts.top) {
        ed.setPosition({ lineNumber: 1, column: 1 });
        ed.setScrollTop(0);
      }
      monaco.editor.setModelMarkers(model, OWNER_API, []);
      monaco.editor.setModelMarkers(model, OWNER_SYNTAX, []);
      setProblems(problemsOf(model));
    },
    [target],
  );

  /** Load the live object (edit) into the buffer, replacing it; false when it is gone. */
  const loadLive = useCallback(
    async (t: EditTarget): Promise<boolean> => {
      const r = await editRequest(send, { op: 'get', kind: t.kind, namespace: t.namespace, name: t.name });
      if (r.op !== 'get' || !r.ok) {
        setNotice(r.op === 'get' && !r.ok ? r.error : r.op === 'error' ? r.error : 'could not read the object');
        return false;
      }
      setBaseBoth({ yaml: r.yaml, resourceVersion: r.resourceVersion });
      setText(r.yaml, { top: true });
      return true;
    },
    [setText],
  );

  // Open the document: a draft if there is one, else the live object or a template.
  useEffect(() => {
    let cancelled = false;
    setResults(undefined);
    setConflict(undefined);
    setDiff(undefined);
    setNotice(undefined);
    const draft = loadDraft(key);
    void (async () => {
      if (target) {
        setBusy('Loading…');
        if (draft && draft.base !== undefined) {
          setBaseBoth({ yaml: draft.base, resourceVersion: draft.resourceVersion ?? '' });
          setText(draft.text);
          setNotice(`Restored your unsaved changes to ${describeTarget(target)} (a draft kept in this browser). Revert discards them and reloads the live object.`);
        } else {
          const ok = await loadLive(target);
          if (!ok && !cancelled) setBaseBoth(undefined);
        }
      } else {
        setBaseBoth(undefined);
        const tpl = editorStore.getState().template;
        if (tpl) {
          editorStore.setState({ template: undefined });
          setText(tpl.yaml, { top: true });
          setNotice(`New ${tpl.label} from a template: edit it, then Apply (kubectl apply -f -).`);
        } else {
          setText(draft?.text ?? TEMPLATES[0].yaml);
          if (draft) setNotice('Restored your new-objects buffer (a draft kept in this browser).');
        }
      }
      if (!cancelled) setBusy(undefined);
    })();
    return () => {
      cancelled = true;
    };
  }, [key, openCount, target, loadLive, setText]);

  // Save drafts while typing.
  useEffect(() => {
    const ed = editorRef.current;
    if (!ed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const sub = ed.onDidChangeModelContent(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const text = ed.getValue();
        const b = baseRef.current;
        if (target && b && text === b.yaml) dropDraft(key);
        else saveDraft(key, { text, ...(b ? { base: b.yaml, resourceVersion: b.resourceVersion } : {}) });
      }, 250);
    });
    return () => {
      if (timer) clearTimeout(timer);
      sub.dispose();
    };
  }, [key, target]);

  // The diff view.
  useEffect(() => {
    if (!diff || !diffHostRef.current) return;
    const d = monaco.editor.createDiffEditor(diffHostRef.current, {
      automaticLayout: true,
      readOnly: true,
      renderSideBySide: true,
      minimap: { enabled: false },
      originalEditable: false,
      // Show the changes, not the hundred unchanged lines around them (kubectl diff's context).
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 3, revealLineCount: 20 },
      renderOverviewRuler: false,
    });
    const original = monaco.editor.createModel(diff.original, 'yaml');
    const modified = monaco.editor.createModel(diff.modified, 'yaml');
    d.setModel({ original, modified });
    return () => {
      d.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [diff]);

  /** Show syntax errors as markers; true when there are none. */
  const checkSyntax = (model: Monaco.editor.ITextModel): boolean => {
    const errs = syntaxProblems(model.getValue());
    monaco.editor.setModelMarkers(
      model,
      OWNER_SYNTAX,
      errs.map((e) => ({ severity: monaco.MarkerSeverity.Error, message: e.message, startLineNumber: e.line, startColumn: e.column, endLineNumber: e.endLine, endColumn: e.endColumn, source: 'YAML' })),
    );
    return errs.length === 0;
  };

  /** Put the API server's errors of `reply` on the buffer, at the fields they name. */
  const showApiErrors = (model: Monaco.editor.ITextModel, text: string, reply: Extract<EditReply, { op: 'apply' }>) => {
    const markers: Monaco.editor.IMarkerData[] = [];
    if (reply.syntaxError) {
      const line = Math.min(model.getLineCount(), Math.max(1, reply.syntaxError.line));
      markers.push({ severity: monaco.MarkerSeverity.Error, message: reply.syntaxError.message, startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: model.getLineMaxColumn(line), source: 'kubectl' });
    }
    for (const r of reply.results) {
      if (r.ok) continue;
      const causes = r.status?.causes ?? [];
      if (causes.length === 0) {
        const line = Math.min(model.getLineCount(), Math.max(1, r.line));
        markers.push({ severity: monaco.MarkerSeverity.Error, message: r.text, startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: model.getLineMaxColumn(line), source: 'kube-apiserver' });
      }
      for (const c of causes) {
        const span = c.field ? locateFieldPath(text, c.field, r.line) : undefined;
        const line = Math.min(model.getLineCount(), Math.max(1, span?.line ?? c.line ?? r.line));
        const col = span && span.line === line ? span.column : model.getLineFirstNonWhitespaceColumn(line) || 1;
        const end = span && span.endLine === line ? span.endColumn : model.getLineMaxColumn(line);
        markers.push({
          severity: monaco.MarkerSeverity.Error,
          message: c.field ? `${c.field}: ${c.message}` : c.message,
          startLineNumber: line,
          startColumn: col,
          endLineNumber: line,
          endColumn: Math.max(end, col + 1),
          source: 'kube-apiserver',
        });
      }
    }
    monaco.editor.setModelMarkers(model, OWNER_API, markers);
    const first = markers.reduce<number | undefined>((m, x) => (m === undefined || x.startLineNumber < m ? x.startLineNumber : m), undefined);
    if (first !== undefined) editorRef.current?.revealLineInCenterIfOutsideViewport(first);
  };

  const run = async (opts: { dryRun: boolean; resourceVersion?: string }) => {
    const ed = editorRef.current;
    const model = ed?.getModel();
    if (!ed || !model) return;
    setDiff(undefined);
    monaco.editor.setModelMarkers(model, OWNER_API, []);
    if (!checkSyntax(model)) {
      const first = monaco.editor.getModelMarkers({ resource: model.uri, owner: OWNER_SYNTAX })[0];
      if (first) ed.revealLineInCenterIfOutsideViewport(first.startLineNumber);
      setResults(undefined);
      setNotice('The YAML does not parse: fix the marked lines first. Nothing was sent to the cluster.');
      return;
    }
    const text = model.getValue();
    setBusy(opts.dryRun ? 'Computing the difference…' : 'Applying…');
    setNotice(undefined);
    const b = baseRef.current;
    const reply = await editRequest(send, {
      op: 'apply',
      yaml: text,
      mode,
      ...(mode === 'edit' && b ? { base: b.yaml, resourceVersion: opts.resourceVersion ?? b.resourceVersion } : {}),
      ...(opts.dryRun ? { dryRun: true } : {}),
    });
    setBusy(undefined);
    if (reply.op !== 'apply') {
      setNotice(reply.op === 'error' ? `The simulation could not do it: ${reply.error}` : 'Unexpected answer from the simulation.');
      return;
    }
    showApiErrors(model, text, reply);
    setResults({ dryRun: reply.dryRun, items: reply.results });
    const c = reply.results.find((r) => r.conflict)?.conflict;
    setConflict(c);
    if (reply.syntaxError) setNotice(reply.syntaxError.message);
    if (opts.dryRun && reply.results.length > 0 && reply.results.every((r) => r.ok)) {
      setDiff({
        title: mode === 'edit' ? 'Live object (left) and the object after your edit (right), from a server-side dry run' : 'Live objects (left) and the result of applying the buffer (right), from a server-side dry run',
        original: reply.results.map((r) => r.diff?.live ?? '').join('---\n'),
        modified: reply.results.map((r) => r.diff?.result ?? '').join('---\n'),
      });
    }
    if (!opts.dryRun && reply.results.some((r) => r.ok)) void refreshCustomKinds();
    // A saved edit: the buffer becomes the object as it is now (kubectl edit is done with it).
    if (!opts.dryRun && mode === 'edit' && target && reply.results.length === 1 && reply.results[0].ok) {
      dropDraft(key);
      await loadLive(target);
    }
  };

  const revert = async () => {
    dropDraft(key);
    setResults(undefined);
    setConflict(undefined);
    setDiff(undefined);
    setNotice(undefined);
    if (target) await loadLive(target);
    else setText(TEMPLATES[0].yaml);
  };

  const showConflictDiff = () => {
    if (!conflict || !editorRef.current) return;
    setDiff({ title: 'The object as it is now (left) and your buffer (right)', original: conflict.liveYaml, modified: editorRef.current.getValue() });
  };

  const reveal = (p: Problem) => {
    const ed = editorRef.current;
    if (!ed) return;
    setDiff(undefined);
    ed.revealLineInCenter(p.line);
    ed.setPosition({ lineNumber: p.line, column: p.column });
    ed.focus();
  };

  const chooseTemplate = (id: string) => {
    const t = TEMPLATES.find((x) => x.id === id);
    if (!t) return;
    // Opens the new-objects buffer with the template (what was there stays in its undo history).
    openInEditor(undefined, t);
  };

  const title = target ? `Editing ${describeTarget(target)}` : 'New objects';
  return (
    <div className="yaml-editor" data-testid="yaml-editor">
      <div className="editor-toolbar" role="toolbar" aria-label="YAML editor">
        <div className="editor-title">
          <strong>{title}</strong>
          <span className="muted small">
            {target
              ? `kubectl edit${base ? ` · from resourceVersion ${base.resourceVersion}` : ''}`
              : 'kubectl apply -f - · separate documents with ---'}
          </span>
        </div>
        <label className="editor-template">
          <select aria-label="New from template" value="" onChange={(e) => chooseTemplate(e.target.value)}>
            <option value="">Template…</option>
            {TEMPLATES.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        {target ? (
          <button type="button" className="btn btn-small" onClick={() => openInEditor(undefined)} title="A buffer for new objects (templates or paste)">
            New buffer
          </button>
        ) : null}
        <button type="button" className="btn" onClick={() => void revert()} disabled={busy !== undefined} title={target ? 'Discard your changes and reload the live object' : 'Discard the buffer'}>
          Revert
        </button>
        <button type="button" className="btn" onClick={() => (diff ? setDiff(undefined) : void run({ dryRun: true }))} disabled={busy !== undefined} aria-pressed={diff !== undefined}>
          {diff ? 'Back to editing' : 'Diff'}
        </button>
        <button type="button" className="btn btn-primary" onClick={() => void run({ dryRun: false })} disabled={busy !== undefined}>
          Apply
        </button>
      </div>
      {notice ? (
        <p className="editor-notice" role="status">
          {notice}
        </p>
      ) : null}
      {conflict ? (
        <div className="editor-conflict" role="alert">
          <p>
            <strong>Conflict:</strong> the object changed in the cluster since you loaded it (now at resourceVersion {conflict.resourceVersion}). Nothing was saved; your
            buffer is kept.
          </p>
          <div className="editor-conflict-actions">
            <button type="button" className="btn btn-small" onClick={showConflictDiff}>
              Show the difference
            </button>
            <button type="button" className="btn btn-small btn-primary" onClick={() => void run({ dryRun: false, resourceVersion: conflict.resourceVersion })}>
              Re-apply my changes onto the current version
            </button>
          </div>
        </div>
      ) : null}
      <div className="editor-body">
        <div ref={hostRef} className="editor-monaco" hidden={diff !== undefined} data-testid="monaco-host" />
        {diff ? (
          <div className="editor-diff">
            <p className="editor-diff-title small">{diff.title}</p>
            <div ref={diffHostRef} className="editor-monaco" data-testid="diff-host" />
          </div>
        ) : null}
      </div>
      <div className="editor-messages">
        {busy ? (
          <p className="muted small" role="status">
            {busy}
          </p>
        ) : null}
        {results ? (
          <section aria-label={results.dryRun ? 'Dry run results' : 'Apply results'}>
            <h3 className="insp-h">{results.dryRun ? 'Dry run (nothing changed)' : 'Result'}</h3>
            <ul className="editor-results">
              {results.items.map((r) => (
                <ResultLine key={r.index} r={r} />
              ))}
            </ul>
          </section>
        ) : null}
        <section aria-label="Problems">
          <h3 className="insp-h">Problems {problems.length ? `(${problems.length})` : ''}</h3>
          {problems.length === 0 ? (
            <p className="muted small">None.</p>
          ) : (
            <ul className="editor-problems" data-testid="editor-problems">
              {problems.map((p, i) => (
                <li key={`${p.line}:${p.column}:${i}`}>
                  <button type="button" className="link editor-problem" onClick={() => reveal(p)}>
                    <span className={`editor-problem-sev sev-${p.severity}`}>{p.severity === 'error' ? 'Error' : 'Warning'}</span>
                    <span className="editor-problem-pos">
                      line {p.line}:{p.column}
                    </span>
                    <span className="editor-problem-msg">{p.message}</span>
                    <span className="muted small"> ({p.source})</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
