/**
 * The command line under the map: the last command the UI (or the person) ran, with its output,
 * and an input for the next one. Every button of the UI runs a line here.
 */
import { useState } from 'react';
import { simStore, useSim } from '../state/store';

function LastCommand() {
  const last = useSim((s) => s.shell[s.shell.length - 1]);
  if (!last) return <p className="cmd-hint muted small">Buttons run kubectl lines here; you can type one too.</p>;
  return (
    <div className="cmd-last" aria-live="polite">
      <code className="cmd-line">
        $ {last.line}
        {!last.done ? <span className="cmd-running"> (still running: it waits in cluster time)</span> : null}
      </code>
      <pre className={`cmd-out${last.exitCode ? ' is-error' : ''}`}>{last.output.trimEnd() || (last.done ? '' : '…')}</pre>
    </div>
  );
}

export function CommandBar() {
  const [line, setLine] = useState('');
  const connected = useSim((s) => s.connected);
  return (
    <section className="cmdbar" aria-label="Command line">
      <LastCommand />
      <form
        className="cmd-form"
        onSubmit={(e) => {
          e.preventDefault();
          const l = line.trim();
          if (!l) return;
          simStore.getState().runLine(l);
          setLine('');
        }}
      >
        <label className="cmd-prompt" htmlFor="cmd-input">
          $
        </label>
        <input
          id="cmd-input"
          className="cmd-input"
          value={line}
          onChange={(e) => setLine(e.target.value)}
          placeholder="kubectl scale deployment catalog --replicas=3 -n bookshop"
          autoComplete="off"
          spellCheck={false}
          disabled={!connected}
          aria-label="Shell command"
        />
        <button type="submit" className="btn" disabled={!connected || !line.trim()}>
          Run
        </button>
      </form>
    </section>
  );
}
