/**
 * Constants of a shell session that the worker needs before the shell's own (lazily loaded)
 * chunk is there. No imports: importing this module loads nothing else.
 */

/** The laptop's prompt (`$ `), shown before `docker exec -it` moves into a node. */
export const HOST_PROMPT = '$ ';

/**
 * Virtual ms each input costs after it finished, as a real `kubectl`/`docker exec` call costs
 * tens of milliseconds (process start, TLS, the request). In that time what the line set off
 * happens: a `pkill kubelet` lets the kubelet exit (5 ms) and systemd reap it, so the next line's
 * `systemctl status kubelet` no longer shows `active (running)`. Used by the headless runner
 * (src/shell/transcript.ts) and the worker (src/worker/lines.ts) alike.
 */
export const LINE_LATENCY_MS = 50;
