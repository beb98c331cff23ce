/**
 * The pod row of the `kubectl get` table (pkg/printers/internalversion/printers.go `printPod`),
 * with the context every printer takes and the small helpers it shares with the other kinds'
 * printers (./columns.ts, which re-exports all of it).
 *
 * A module of its own so the simulation worker's first chunk carries only this printer: the
 * worker computes each pod's READY / STATUS / RESTARTS for the map with it
 * (src/worker/records.ts), while the other kinds' printers load with the shell.
 */
import { humanDuration, timestampMs, translateTimestampSince } from './duration';
import type { Cell } from './table';

/** What a printer needs besides the object: the virtual clock. */
export interface PrintContext {
  /** Virtual now, ms since the cluster epoch (`Clock.now()`). */
  nowMs: number;
  /** Unix ms of virtual 0 (`Clock.epochMs`). */
  epochMs: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** `translateTimestampSince` in the printer's clock: `5m`, `<unknown>` for a missing time. */
export const since = (ts: unknown, ctx: PrintContext) => translateTimestampSince(ts, ctx.nowMs, ctx.epochMs);
/** The AGE cell of an object (its creationTimestamp). */
export const age = (o: Any, ctx: PrintContext) => since(o.metadata?.creationTimestamp, ctx);
/** A number field, or 0 (Go's zero value). */
export const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** The first condition of a type with status True (`hasPodReadyCondition`, `hasJobCondition`). */
export function conditionTrue(conditions: Any[] | undefined, type: string): boolean {
  const c = (conditions ?? []).find((x) => x?.type === type);
  return c?.status === 'True';
}

/** `node.NodeUnreachablePodReason`: the reason the node lifecycle controller sets. */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';

/**
 * printers.go `printPod`: NAME READY STATUS RESTARTS AGE IP NODE NOMINATED-NODE READINESS-GATES.
 * Returns the cells (wide included). See the reference doc 6.1 for the STATUS rules.
 */
export function podRow(pod: Any, ctx: PrintContext): Cell[] {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  let restarts = 0;
  let restartableInitContainerRestarts = 0;
  let totalContainers = (spec.containers ?? []).length;
  let readyContainers = 0;
  let lastRestartDate: number | undefined;
  let lastRestartableInitContainerRestartDate: number | undefined;

  const podPhase: string = status.phase ?? '';
  let reason = podPhase;
  if (status.reason) reason = status.reason;

  for (const c of status.conditions ?? []) {
    if (c?.type === 'PodScheduled' && c?.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }

  const initContainers = new Map<string, Any>();
  for (const c of spec.initContainers ?? []) {
    initContainers.set(c.name, c);
    if (c.restartPolicy === 'Always') totalContainers++;
  }
  const isRestartable = (name: string) => initContainers.get(name)?.restartPolicy === 'Always';
  const later = (cur: number | undefined, ts: unknown) => {
    const t = timestampMs(ts);
    return t !== undefined && (cur === undefined || cur < t) ? t : cur;
  };

  let initializing = false;
  const initStatuses: Any[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += int(c.restartCount);
    if (c.lastState?.terminated) lastRestartDate = later(lastRestartDate, c.lastState.terminated.finishedAt);
    if (isRestartable(c.name)) {
      restartableInitContainerRestarts += int(c.restartCount);
      if (c.lastState?.terminated) lastRestartableInitContainerRestartDate = later(lastRestartableInitContainerRestartDate, c.lastState.terminated.finishedAt);
    }
    const term = c.state?.terminated;
    const wait = c.state?.waiting;
    if (term && int(term.exitCode) === 0) continue;
    if (isRestartable(c.name) && c.started === true) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (term) {
      if (!term.reason) reason = term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${int(term.exitCode)}`;
      else reason = 'Init:' + term.reason;
    } else if (wait && wait.reason && wait.reason !== 'PodInitializing') {
      reason = 'Init:' + wait.reason;
    } else {
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  if (!initializing || conditionIs(status.conditions, 'Initialized', 'True')) {
    restarts = restartableInitContainerRestarts;
    lastRestartDate = lastRestartableInitContainerRestartDate;
    let hasRunning = false;
    const cs: Any[] = status.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      restarts += int(c.restartCount);
      if (c.lastState?.terminated) lastRestartDate = later(lastRestartDate, c.lastState.terminated.finishedAt);
      const wait = c.state?.waiting;
      const term = c.state?.terminated;
      if (wait && wait.reason) reason = wait.reason;
      else if (term && term.reason) reason = term.reason;
      else if (term && !term.reason) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${int(term.exitCode)}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = conditionTrue(status.conditions, 'Ready') ? 'Running' : 'NotReady';
  }

  if (pod.metadata?.deletionTimestamp && status.reason === NODE_UNREACHABLE_POD_REASON) reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && podPhase !== 'Succeeded' && podPhase !== 'Failed') reason = 'Terminating';

  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestartDate !== undefined) {
    restartsStr = `${restarts} (${humanDuration(ctx.epochMs + ctx.nowMs - lastRestartDate)} ago)`;
  }

  const podIP: string = status.podIPs?.[0]?.ip ?? status.podIP ?? '';
  let readinessGates = '<none>';
  const gates: Any[] = spec.readinessGates ?? [];
  if (gates.length > 0) {
    let trueConditions = 0;
    for (const g of gates) {
      const c = (status.conditions ?? []).find((x: Any) => x?.type === g.conditionType);
      if (c?.status === 'True') trueConditions++;
    }
    readinessGates = `${trueConditions}/${gates.length}`;
  }
  return [
    pod.metadata?.name,
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsStr,
    age(pod, ctx),
    podIP || '<none>',
    spec.nodeName || '<none>',
    status.nominatedNodeName || '<none>',
    readinessGates,
  ];
}

/** `isPodInitializedConditionTrue`-style lookup: the first condition of `type` has `status`. */
function conditionIs(conditions: Any[] | undefined, type: string, status: string): boolean {
  const c = (conditions ?? []).find((x) => x?.type === type);
  return c?.status === status;
}
