/**
 * `journalctl --since/--until` inside a kind node: systemd.time(7) timestamps (UTC on a kind
 * node), the node's journal between them, `-n` applied after the range, and journalctl's
 * `Failed to parse timestamp: X` for what systemd cannot read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../engine/cluster';
import { parseRfc3339 } from '../engine/clock';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';
import { parseSystemdTimestamp } from './journal-time';

let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  cluster = bootedCluster({ seed: 11, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles() });
});

describe('systemd timestamps', () => {
  const now = parseRfc3339('2026-01-05T06:10:30Z');
  it.each([
    ['now', '2026-01-05T06:10:30Z'],
    ['today', '2026-01-05T00:00:00Z'],
    ['yesterday', '2026-01-04T00:00:00Z'],
    ['5 min ago', '2026-01-05T06:05:30Z'],
    ['1h 30min ago', '2026-01-05T04:40:30Z'],
    ['-90s', '2026-01-05T06:09:00Z'],
    ['-10m', '2026-01-05T06:00:30Z'],
    ['06:00', '2026-01-05T06:00:00Z'],
    ['06:00:10', '2026-01-05T06:00:10Z'],
    ['2026-01-05 06:00:10', '2026-01-05T06:00:10Z'],
    ['2026-01-04', '2026-01-04T00:00:00Z'],
  ])('%s', (text, iso) => {
    expect(parseSystemdTimestamp(text, now)).toBe(parseRfc3339(iso));
  });
  it.each(['5 minutes agoo', 'soon', '25:00', '2026-13-01'])('%s is not a timestamp', (text) => {
    expect(parseSystemdTimestamp(text, now)).toBeUndefined();
  });
});

describe('journalctl --since/--until on a node', () => {
  it('shows the entries in the range, -n after the range, and the parse error', () => {
    run('sleep 60');
    run('docker exec k8s-lab-worker systemctl restart kubelet');
    const recent = run('docker exec k8s-lab-worker journalctl -u kubelet --since "20 sec ago" --no-pager');
    expect(recent.exitCode).toBe(0);
    const lines = recent.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Jan 05 \d\d:\d\d:\d\d k8s-lab-worker systemd\[1\]: Stopping kubelet\.service - kubelet: The Kubernetes Node Agent\.\.\.$/);
    expect(lines).toContain(lines.find((l) => l.endsWith('systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent.')));
    // the whole journal of the unit has the first boot's lines too; the range does not
    const all = run('docker exec k8s-lab-worker journalctl -u kubelet').text.trimEnd().split('\n');
    expect(all.length).toBeGreaterThan(lines.length);
    expect(all.slice(-lines.length)).toEqual(lines);
    expect(run('docker exec k8s-lab-worker journalctl -u kubelet -S -20s -n 2').text.trimEnd().split('\n')).toEqual(lines.slice(-2));
    // before the cluster's first second: nothing; --until before --since: nothing
    expect(run('docker exec k8s-lab-worker journalctl -u kubelet --until "2026-01-05 05:00:00"').text).toBe('-- No entries --\n');
    expect(run('docker exec k8s-lab-worker journalctl -u kubelet --since=tomorrow -q')).toMatchObject({ text: '', exitCode: 0 });
    expect(run('docker exec k8s-lab-worker journalctl -u kubelet --since "5 minutes agoo"')).toMatchObject({ text: 'Failed to parse timestamp: 5 minutes agoo\n', exitCode: 1 });
    expect(run('docker exec k8s-lab-worker journalctl --since')).toMatchObject({ text: "journalctl: option '--since' requires an argument\n", exitCode: 1 });
  });
});
