/**
 * What the page says when the simulation worker died (src/ui/state/bridge.ts restarts it and
 * replays the journal): while it restarts (a status), once it is back (a status the person
 * dismisses), or when the bridge gave up (an alert).
 */
import { simStore, useSim } from '../state/store';

export function RecoveryBanner() {
  const recovery = useSim((s) => s.recovery);
  if (!recovery) return null;
  const failed = recovery.state === 'failed';
  const title = recovery.state === 'restarting' ? 'Restarting the simulation…' : recovery.state === 'restored' ? 'The simulation was restarted.' : 'The simulation stopped.';
  return (
    <div className={`recovery-banner is-${recovery.state}`} role={failed ? 'alert' : 'status'} aria-live={failed ? 'assertive' : 'polite'} data-recovery={recovery.state}>
      {recovery.state === 'restarting' ? <span className="boot-spinner" aria-hidden="true" /> : <span aria-hidden="true">{failed ? '⛔' : '↻'}</span>}
      <p>
        <strong>{title}</strong> {recovery.message}
      </p>
      {recovery.state !== 'restarting' ? (
        <button type="button" className="btn btn-small" onClick={() => simStore.getState().setRecovery(undefined)}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
