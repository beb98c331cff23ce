/**
 * `kubectl logs -f` against the real node layer: the lines there now, then each line as the
 * container writes it, until the container ends (the kubelet's ReadLogs with Follow stops once
 * the container no longer runs; a restart ends the stream rather than showing the next instance).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../../engine/cluster';
import { createPlaygroundShell } from '../playground';
import { MemoryFiles } from '../files';
import { runToCompletion, type Shell } from '../shell';

let cluster: Cluster;
let shell: Shell;
const run = (line: string, maxVirtualMs?: number) => runToCompletion(shell, line, maxVirtualMs === undefined ? {} : { maxVirtualMs });

beforeAll(() => {
  cluster = bootedCluster({ seed: 7, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('kubectl logs -f', () => {
  it('keeps printing what a running container writes until interrupted', () => {
    run(`kubectl run ticker --image=busybox:1.36 -- sh -c 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 2; done'`);
    run('sleep 5');
    const r = run('kubectl logs -f ticker --tail=1', 7000);
    expect(r.timedOut).toBe(true);
    const lines = r.text.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const first = Number(/^tick (\d+)$/.exec(lines[0])![1]);
    expect(lines).toEqual(lines.map((_, i) => `tick ${first + i}`));
    // --timestamps applies to the new lines too (RFC 3339 with nanoseconds, as the kubelet writes them)
    const t = run('kubectl logs -f ticker --tail=1 --timestamps', 3000).text.trimEnd().split('\n');
    for (const l of t) expect(l).toMatch(/^2026-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z tick \d+$/);
  });

  it('ends with the container: the rest of its lines, then exit 0', () => {
    run(`kubectl run once --image=busybox:1.36 --restart=Never -- sh -c 'echo line 1; sleep 3; echo line 2; sleep 3; echo line 3'`);
    for (let i = 0; i < 20 && !/Running/.test(run('kubectl get pod once --no-headers').text); i++) run('sleep 1');
    const r = run('kubectl logs -f once', 60_000);
    expect(r).toMatchObject({ text: 'line 1\nline 2\nline 3\n', exitCode: 0, timedOut: false });
  });

  it('a restart ends the stream: the next instance is not shown', () => {
    run(`kubectl run crashy --image=busybox:1.36 -- sh -c 'echo start; sleep 4; echo dying; exit 1'`);
    for (let i = 0; i < 20 && !/Running/.test(run('kubectl get pod crashy --no-headers').text); i++) run('sleep 1');
    const r = run('kubectl logs -f crashy', 60_000);
    expect(r).toMatchObject({ text: 'start\ndying\n', exitCode: 0, timedOut: false });
  });
});
