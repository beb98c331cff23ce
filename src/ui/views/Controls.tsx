/** The header controls: play/pause, step, speed, fast-forward, the cluster clock, seed and reset. */
import { useState } from 'react';
import { formatClock, SPEEDS } from '../../protocol/messages';
import { simStore, useSim } from '../state/store';

const send = (...args: Parameters<ReturnType<typeof simStore.getState>['send']>) => simStore.getState().send(...args);

function speedLabel(f: number): string {
  return `×${f}`;
}

function PlayPause() {
  const playing = useSim((s) => s.run.playing);
  const ff = useSim((s) => s.run.fastForward !== undefined);
  const connected = useSim((s) => s.connected);
  const active = playing || ff;
  return (
    <button
      type="button"
      className={`btn btn-primary play-btn${active ? ' is-playing' : ''}`}
      onClick={() => send(active ? { type: 'pause' } : { type: 'play' })}
      disabled={!connected}
      aria-keyshortcuts="Space"
      title={active ? 'Pause virtual time (Space)' : 'Let virtual time run (Space)'}
    >
      {active ? (
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <rect x="3" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
          <rect x="9.5" y="2" width="3.5" height="12" rx="1" fill="currentColor" />
        </svg>
      ) : (
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <path d="M4 2l10 6-10 6z" fill="currentColor" />
        </svg>
      )}
      <span>{active ? 'Pause' : 'Play'}</span>
    </button>
  );
}

function Speed() {
  const speed = useSim((s) => s.run.speed);
  const connected = useSim((s) => s.connected);
  return (
    <label className="control speed-control">
      <span className="control-label">Speed</span>
      <select value={speed} disabled={!connected} onChange={(e) => send({ type: 'speed', factor: Number(e.target.value) })} aria-label="Speed of virtual time">
        {SPEEDS.map((f) => (
          <option key={f} value={f}>
            {speedLabel(f)}
          </option>
        ))}
      </select>
    </label>
  );
}

function FastForward() {
  const ff = useSim((s) => s.run.fastForward);
  const connected = useSim((s) => s.connected && !s.run.booting);
  if (ff) {
    const pct = Math.min(100, Math.round((ff.doneMs / ff.totalMs) * 100));
    return (
      <div className="control ff-progress" role="status" aria-live="polite">
        <span className="control-label">Fast-forward</span>
        <progress max={ff.totalMs} value={ff.doneMs} aria-label={`Fast-forwarding, ${pct}% done`} />
        <button type="button" className="btn btn-small" onClick={() => send({ type: 'pause' })}>
          Stop
        </button>
      </div>
    );
  }
  return (
    <div className="control ff" role="group" aria-label="Fast-forward virtual time">
      <span className="control-label">Fast-forward</span>
      <div className="btn-row">
        <button type="button" className="btn" disabled={!connected} onClick={() => send({ type: 'fastForward', ms: 60_000 })} title="Run 1 minute of virtual time now">
          +1 min
        </button>
        <button type="button" className="btn" disabled={!connected} onClick={() => send({ type: 'fastForward', ms: 300_000 })} title="Run 5 minutes of virtual time now">
          +5 min
        </button>
      </div>
    </div>
  );
}

function ClusterClock() {
  const text = useSim((s) => (s.connected ? formatClock(s.time) : '--:--:--'));
  const playing = useSim((s) => s.run.playing || s.run.fastForward !== undefined);
  const lagging = useSim((s) => s.run.lagging === true);
  const booting = useSim((s) => s.run.booting === true || !s.connected);
  const starting = useSim((s) => s.run.starting === true);
  return (
    <div className="clock" title="Cluster time: virtual time inside the simulation (UTC)">
      <span className="control-label">Cluster time</span>
      <span className="clock-time" data-testid="cluster-time">
        {text}
      </span>
      <span
        className={`clock-state${playing || booting ? ' is-running' : ''}`}
        data-testid="cluster-state"
        title={starting ? 'The cluster as its boot ends, drawn while the simulation boots it in the background; time runs once it has' : undefined}
      >
        {starting ? 'starting' : booting ? 'booting' : playing ? (lagging ? 'running (behind)' : 'running') : 'paused'}
      </span>
    </div>
  );
}

function SeedReset() {
  const seed = useSim((s) => s.run.seed);
  const playing = useSim((s) => s.run.playing);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const value = draft ?? String(seed);
  const reset = () => {
    const n = Number.parseInt(value, 10);
    const next = Number.isInteger(n) && n >= 0 ? n : seed;
    setDraft(undefined);
    simStore.getState().select(undefined);
    send({ type: 'reset', seed: next, paused: !playing });
  };
  return (
    <form
      className="control seed-control"
      onSubmit={(e) => {
        e.preventDefault();
        reset();
      }}
    >
      <label className="seed-label">
        <span className="control-label">Seed</span>
        <input type="number" min={0} step={1} inputMode="numeric" value={value} onChange={(e) => setDraft(e.target.value)} aria-label="Random seed" />
      </label>
      <button type="submit" className="btn" title="Throw this cluster away and boot a new one from the seed">
        Reset
      </button>
    </form>
  );
}

export function Controls() {
  const connected = useSim((s) => s.connected && !s.run.booting);
  return (
    <div className="controls" role="toolbar" aria-label="Simulation controls">
      <div className="control time-buttons">
        <span className="control-label">Time</span>
        <div className="btn-row">
          <PlayPause />
          <button type="button" className="btn" onClick={() => send({ type: 'step' })} disabled={!connected} title="Pause and run exactly one event">
            Step
          </button>
        </div>
      </div>
      <Speed />
      <FastForward />
      <ClusterClock />
      <SeedReset />
    </div>
  );
}
