/**
 * The Supervision view (issue #6, "Views: Supervision tree"): the four layers of DESIGN.md
 * section 2 for the whole cluster or one node - the machine and systemd (PID 1), the units
 * systemd restarts (containerd.service, kubelet.service), the kubelet and the pods it runs
 * (static control-plane pods with their mirror pods, crash-loop back-off), and, through
 * kube-controller-manager, the controllers and the workloads they reconcile.
 *
 * Every process and pod shows its state in words with an icon (never colour alone): `running`,
 * `restarting in 7 s`, `stopped`, `crash-looping (back-off 40 s)`, `terminating`, its restart
 * count and how it last ended. Countdowns follow virtual time (the store's clock). Each row has
 * an action menu (button, right-click or the context-menu key) whose items run the shell line
 * they stand for.
 *
 * The tree comes from the worker only while this view is shown (`supervision` messages).
 */
import { memo, useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ExitInfo, SupervisedContainer, SupervisedMachine, SupervisedPod, SupervisedUnit, SupervisionState } from '../../protocol/messages';
import { simStore, useSim } from '../state/store';
import { useSupervision } from '../state/supervision';
import { ToneIcon, type Tone } from './status';
import { ActionArea } from './ActionMenu';
import { nodeActions, podActions, unitActions } from './actions';
import './supervision.css';

/** Whole seconds left until `at` (virtual ms), never negative. */
function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Go duration text (`20s`, `1m20s`, `5m0s`) as `40 s` / `1 min 20 s` for people. */
export function backoffWords(go: string): string {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(go);
  if (!m) return go;
  const min = Number(m[1] ?? 0);
  const sec = Number(m[2] ?? 0);
  return min ? `${min} min${sec ? ` ${sec} s` : ''}` : `${sec} s`;
}

/** The tone (icon shape and colour) of a supervision state. */
function toneOf(state: SupervisionState): Tone {
  switch (state) {
    case 'running':
      return 'ok';
    case 'starting':
    case 'waiting':
    case 'restarting':
      return 'progress';
    case 'stopping':
    case 'terminating':
      return 'terminating';
    case 'completed':
      return 'done';
    case 'stopped':
      return 'unknown';
    default:
      return 'error';
  }
}

/** The icon of a state: the shared tone icons, plus a circular arrow for `restarting` and a stop square for `stopped`. */
function StateIcon({ state }: { state: SupervisionState }) {
  if (state === 'restarting')
    return (
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" className="tone-icon tone-icon-progress">
        <path d="M13.2 8a5.2 5.2 0 1 1-1.6-3.8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        <path d="M12.6 1.2v3.6H9" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  if (state === 'stopped')
    return (
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" className="tone-icon tone-icon-unknown">
        <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <rect x="5" y="5" width="6" height="6" rx="0.8" fill="currentColor" />
      </svg>
    );
  return <ToneIcon tone={toneOf(state)} />;
}

/** The words of a state that has no countdown. */
function plainWords(state: SupervisionState, reason?: string): string {
  if (state === 'waiting') return reason ? `waiting (${reason})` : 'waiting';
  if (state === 'exited') return reason ? `exited (${reason})` : 'exited';
  return state;
}

/** `restarting in 7 s`: re-renders with the clock (only this span). */
function Countdown({ prefix, at, suffix = '' }: { prefix: string; at: number; suffix?: string }) {
  const now = useSim((s) => s.time.now);
  const s = secondsUntil(at, now);
  return (
    <>
      {s > 0 ? `${prefix} in ${s} s` : `${prefix} now`}
      {suffix}
    </>
  );
}

/** A state badge: icon + words (+ countdown), with `data-state` for tests and styles. */
function StateBadge({ state, restartAt, backoff, backoffUntil, reason }: { state: SupervisionState; restartAt?: number; backoff?: string; backoffUntil?: number; reason?: string }) {
  let words: React.ReactNode = plainWords(state, reason);
  if (state === 'restarting' && restartAt !== undefined) words = <Countdown prefix="restarting" at={restartAt} />;
  if (state === 'crash-looping') {
    const b = backoff ? ` (back-off ${backoffWords(backoff)})` : '';
    words = backoffUntil !== undefined ? <Countdown prefix={`crash-looping${b}, next start`} at={backoffUntil} /> : `crash-looping${b}`;
  }
  return (
    <span className={`sup-state tone-${toneOf(state)}`} data-state={state}>
      <StateIcon state={state} />
      <span className="sup-state-text">{words}</span>
    </span>
  );
}

/**
 * A last exit in its supervisor's words: systemd's `code=killed, status=9/KILL` /
 * `code=exited, status=1/FAILURE` for units (src/engine/node/systemd.ts), the kubelet's reason and
 * exit code for containers.
 */
function exitText(e: ExitInfo): string {
  const pid = e.pid ? ` (PID ${e.pid})` : '';
  if (e.reason.startsWith('status=')) return `${e.exitCode !== undefined && e.exitCode > 128 ? 'code=killed' : 'code=exited'}, ${e.reason}${pid}`;
  return `${e.reason}${e.exitCode !== undefined && !e.reason.includes(String(e.exitCode)) ? `, exit ${e.exitCode}` : ''}${pid}`;
}

function Facts({ items }: { items: (string | false | undefined)[] }) {
  const shown = items.filter((x): x is string => !!x);
  if (!shown.length) return null;
  return (
    <span className="sup-facts">
      {shown.map((t) => (
        <span key={t} className="sup-fact">
          {t}
        </span>
      ))}
    </span>
  );
}

function UnitRow({ node, unit, nodeOn }: { node: string; unit: SupervisedUnit; nodeOn: boolean }) {
  return (
    <li className="sup-row" data-unit={unit.name}>
      <ActionArea target={`${unit.name} on ${node}`} actions={unitActions(node, unit.name, { running: unit.mainPid !== undefined, nodeOn })}>
        <span className="sup-name">
          <code>{unit.name}</code>
        </span>
        <StateBadge state={unit.state} {...(unit.restartAt !== undefined ? { restartAt: unit.restartAt } : {})} />
        {unit.activeState ? (
          <span className="sup-systemd" title="systemctl's ActiveState (SubState)">
            {unit.activeState} ({unit.subState})
          </span>
        ) : null}
        <Facts items={[unit.mainPid !== undefined && `PID ${unit.mainPid}`, `restarts ${unit.restarts}`, unit.lastExit && `last exit: ${exitText(unit.lastExit)}`]} />
      </ActionArea>
    </li>
  );
}

function containerFacts(c: SupervisedContainer): (string | false | undefined)[] {
  return [c.pid !== undefined && `PID ${c.pid}`, `restarts ${c.restarts}`, c.lastTermination && `last termination: ${c.lastTermination.reason} (exit ${c.lastTermination.exitCode})`];
}

function ContainerName({ c }: { c: SupervisedContainer }) {
  return (
    <span className="sup-name">
      {c.component ? <strong>{c.component}</strong> : <code>{c.name}</code>}
      <span className="sup-kind">{c.component ? ' process' : ' container'}</span>
    </span>
  );
}

function ContainerBadge({ c }: { c: SupervisedContainer }) {
  return (
    <StateBadge
      state={c.state}
      {...(c.backoff ? { backoff: c.backoff } : {})}
      {...(c.backoffUntil !== undefined ? { backoffUntil: c.backoffUntil } : {})}
      {...(c.reason ? { reason: c.reason } : {})}
    />
  );
}

function ContainerRow({ c }: { c: SupervisedContainer }) {
  return (
    <li className="sup-container" data-container={c.name}>
      <ContainerName c={c} />
      <ContainerBadge c={c} />
      <Facts items={containerFacts(c)} />
    </li>
  );
}

function PodRow({ node, pod }: { node: string; pod: SupervisedPod }) {
  const actions = podActions({ namespace: pod.namespace, name: pod.name, node, mirror: !!pod.mirror, containers: pod.containers.map((c) => ({ name: c.name, ...(c.pid !== undefined ? { pid: c.pid } : {}), ...(c.component ? { component: c.component } : {}) })) });
  // One container (most pods): its line joins the pod's.
  const only = pod.containers.length === 1 ? pod.containers[0] : undefined;
  return (
    <li className={`sup-pod${pod.static ? ' is-static' : ''}`} data-sup-pod={pod.name}>
      <ActionArea target={`pod ${pod.namespace}/${pod.name}`} actions={actions}>
        <div className="sup-pod-head">
          <span className="sup-name">
            <span className="sup-ns">{pod.namespace}/</span>
            {pod.name}
          </span>
          {!only || only.state !== pod.state ? <StateBadge state={pod.state} /> : null}
          {pod.static ? (
            <span className="sup-badge" title="Run by the kubelet from /etc/kubernetes/manifests, not from the API">
              static pod{pod.mirror ? ' · mirror pod in the API' : ' · no mirror pod'}
            </span>
          ) : null}
          {pod.supervisedBy === 'none' && pod.state !== 'stopped' ? (
            <span className="sup-badge is-warn" title="No kubelet runs on this node: nobody restarts these containers">
              unsupervised
            </span>
          ) : null}
        </div>
        {only ? (
          <div className="sup-container sup-container-only" data-container={only.name}>
            <ContainerName c={only} />
            <ContainerBadge c={only} />
            <Facts items={containerFacts(only)} />
          </div>
        ) : (
          <ul className="sup-containers">
            {pod.containers.map((c) => (
              <ContainerRow key={c.name} c={c} />
            ))}
          </ul>
        )}
        {pod.controllers ? (
          <div className="sup-layer4" data-layer="4">
            <span className="sup-layer-tag" title="Layer 4">
              4
            </span>
            <ul className="sup-controllers" aria-label="Controllers of kube-controller-manager and the workloads they reconcile">
              {pod.controllers
                .filter((x) => x.workloads.length)
                .map((x) => (
                  <li key={x.name} data-controller={x.name}>
                    <code>{x.name}</code> → {x.workloads.length} {x.kind}
                    {x.workloads.length === 1 ? '' : 's'}: <span className="sup-workloads">{x.workloads.join(', ')}</span>
                  </li>
                ))}
            </ul>
          </div>
        ) : null}
      </ActionArea>
    </li>
  );
}

function powerWords(m: SupervisedMachine): { state: SupervisionState; text: string } {
  if (m.power === 'running') return { state: 'running', text: 'powered on' };
  if (m.power === 'stopping') return { state: 'stopping', text: 'powering off' };
  return { state: 'stopped', text: 'powered off' };
}

const NodeCard = memo(function NodeCard({ m }: { m: SupervisedMachine }) {
  const node = useSim(useShallow((s) => {
    const rec = Object.values(s.objects).find((o) => o.kind === 'Node' && o.name === m.name);
    return { ready: rec?.nodeReady, unschedulable: rec?.unschedulable };
  }));
  const power = powerWords(m);
  const on = m.power !== 'stopped';
  const statics = m.pods.filter((p) => p.static);
  const others = m.pods.filter((p) => !p.static);
  const ready = node.ready === 'True' ? 'Ready' : node.ready === 'False' ? 'NotReady' : node.ready ? 'NotReady (Unknown)' : 'not registered';
  return (
    <section className="sup-node" aria-label={`Node ${m.name}`} data-sup-node={m.name}>
      <ActionArea target={`node ${m.name}`} actions={nodeActions({ name: m.name, power: m.power, connected: m.connected, unschedulable: node.unschedulable ?? false })} className="sup-node-head">
        <h3 className="sup-node-name">
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
            <rect x="1.5" y="2.5" width="13" height="4.5" rx="1" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <rect x="1.5" y="9" width="13" height="4.5" rx="1" fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
          {m.name} <span className="sup-role">{m.role}</span>
        </h3>
        <div className="sup-node-facts">
          <span className={`sup-state tone-${toneOf(power.state)}`} data-power={m.power}>
            <StateIcon state={power.state} />
            <span>{power.text}</span>
          </span>
          <span className={`sup-state tone-${m.connected ? 'ok' : 'error'}`} data-network={m.connected ? 'connected' : 'cut'}>
            <ToneIcon tone={m.connected ? 'ok' : 'error'} />
            <span>{m.connected ? 'network connected' : 'network cut'}</span>
          </span>
          <span className={`sup-state tone-${node.ready === 'True' ? 'ok' : node.ready === 'False' ? 'error' : 'unknown'}`} data-ready={ready}>
            <ToneIcon tone={node.ready === 'True' ? 'ok' : node.ready === 'False' ? 'error' : 'unknown'} />
            <span>Node {ready}</span>
          </span>
          {node.unschedulable ? <span className="sup-badge is-warn">cordoned</span> : null}
          {m.boots > 1 ? <span className="sup-fact">boot {m.boots}</span> : null}
        </div>
      </ActionArea>
      <ol className="sup-layers">
        <li className="sup-layer" data-layer="1">
          <span className="sup-layer-tag" title="Layer 1: brought back by a node restart">
            1
          </span>
          <div className="sup-layer-body">
            <ul className="sup-rows">
              <li className="sup-row" data-unit="systemd">
                <span className="sup-name">
                  <code>systemd</code> <span className="sup-kind">PID 1</span>
                </span>
                <StateBadge state={m.systemd.state} />
              </li>
            </ul>
          </div>
        </li>
        <li className="sup-layer" data-layer="2">
          <span className="sup-layer-tag" title="Layer 2: systemd restarts them (Restart=always, RestartSec=10)">
            2
          </span>
          <div className="sup-layer-body">
            <ul className="sup-rows">
              {m.units.map((u) => (
                <UnitRow key={u.name} node={m.name} unit={u} nodeOn={on} />
              ))}
            </ul>
          </div>
        </li>
        <li className="sup-layer" data-layer="3">
          <span className="sup-layer-tag" title="Layer 3: the kubelet runs the pods (static pods from files, with crash-loop back-off)">
            3
          </span>
          <div className="sup-layer-body">
            <p className="sup-kubelet" data-kubelet={m.kubelet.state}>
              <code>kubelet</code>
              {m.kubelet.pid !== undefined ? <span className="sup-kind"> PID {m.kubelet.pid}</span> : null}
              {m.kubelet.serving ? ' runs these pods and restarts their containers:' : on ? ' is not running: the containers keep running, but nobody restarts them.' : ': the node is off.'}
            </p>
            {statics.length ? (
              <>
                <h4 className="sup-sub">Static pods (the control plane, from /etc/kubernetes/manifests)</h4>
                <ul className="sup-pods">
                  {statics.map((p) => (
                    <PodRow key={p.name} node={m.name} pod={p} />
                  ))}
                </ul>
              </>
            ) : null}
            {others.length ? (
              <>
                {statics.length ? <h4 className="sup-sub">Pods from the API</h4> : null}
                <ul className="sup-pods">
                  {others.map((p) => (
                    <PodRow key={`${p.namespace}/${p.name}`} node={m.name} pod={p} />
                  ))}
                </ul>
              </>
            ) : (
              <p className="empty">No pods.</p>
            )}
          </div>
        </li>
      </ol>
    </section>
  );
});

/** The Supervision tab. */
export default function Supervision() {
  const tree = useSupervision((s) => s.tree);
  const connected = useSim((s) => s.connected);
  const fresh = useSim((s) => s.seq === 0);
  const [scope, setScope] = useState('all');

  useEffect(() => {
    simStore.getState().send({ type: 'supervision', on: true });
    return () => simStore.getState().send({ type: 'supervision', on: false });
  }, []);
  // A new snapshot (reset, or a worker restored after a crash): subscribe again.
  useEffect(() => {
    if (connected && fresh) simStore.getState().send({ type: 'supervision', on: true });
  }, [connected, fresh]);

  if (tree === undefined) return <p className="starting">Loading the supervision tree…</p>;
  if (tree === null) return <p className="starting">The test cluster has no node layer (no systemd, containerd or kubelet processes): open the kind cluster to see who supervises what.</p>;
  const nodes = scope === 'all' ? tree.nodes : tree.nodes.filter((n) => n.name === scope);
  return (
    <div className="sup">
      <div className="sup-head">
        <p className="sup-intro">
          Who brings what back: <strong>1</strong> the machine → systemd · <strong>2</strong> systemd → containerd, kubelet · <strong>3</strong> kubelet → pods ·{' '}
          <strong>4</strong> controller-manager → workloads. Right-click a row or use its Actions menu.
        </p>
        <div className="sup-scope" role="group" aria-label="Nodes shown">
          {['all', ...tree.nodes.map((n) => n.name)].map((s) => (
            <button key={s} type="button" className={`ns-toggle${scope === s ? ' is-on' : ''}`} aria-pressed={scope === s} onClick={() => setScope(s)}>
              {s === 'all' ? 'Whole cluster' : s}
            </button>
          ))}
        </div>
      </div>
      <div className={`sup-nodes${nodes.length === 1 ? ' is-single' : ''}`}>
        {nodes.map((m) => (
          <NodeCard key={m.name} m={m} />
        ))}
      </div>
    </div>
  );
}
