/**
 * The journal and systemd's time formats: `journalctl -u kubelet` lines
 * (`Jan 05 06:00:10 k8s-lab-worker kubelet[235]: ...`), `systemctl status`'s
 * `Mon 2026-01-05 06:00:10 UTC; 5min ago`.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EPOCH_MS } from '../clock';
import { Journal, civilTime, formatJournalTime, formatRelative, formatSystemdTimestamp, journalctl } from './journal';

describe('time formats', () => {
  it('journalctl short timestamps and systemd timestamps, in UTC, without Date', () => {
    expect(formatJournalTime(DEFAULT_EPOCH_MS + 10_000)).toBe('Jan 05 06:00:10');
    expect(formatSystemdTimestamp(DEFAULT_EPOCH_MS + 10_000)).toBe('Mon 2026-01-05 06:00:10 UTC');
    expect(civilTime(0)).toMatchObject({ year: 1970, month: 1, day: 1, weekday: 4 });
    expect(formatSystemdTimestamp(Date.UTC(2024, 1, 29, 23, 59, 59))).toBe('Thu 2024-02-29 23:59:59 UTC');
  });

  it("relative times as systemd's format_timestamp_relative", () => {
    expect(formatRelative(0)).toBe('now');
    expect(formatRelative(250)).toBe('250ms ago');
    expect(formatRelative(3_000)).toBe('3s ago');
    expect(formatRelative(90_000)).toBe('1min 30s ago');
    expect(formatRelative(5 * 60_000 + 1)).toBe('5min ago');
    expect(formatRelative(2 * 3600_000 + 7 * 60_000)).toBe('2h 7min ago');
    expect(formatRelative(8 * 3600_000)).toBe('8h ago');
    expect(formatRelative(3 * 86400_000)).toBe('3 days ago');
    expect(formatRelative(-10_000)).toBe('10s left');
  });
});

describe('Journal and journalctl', () => {
  function sample(): { j: Journal; at: { t: number } } {
    const at = { t: 10_000 };
    const j = new Journal(() => at.t, DEFAULT_EPOCH_MS, 'k8s-lab-worker');
    j.append({ identifier: 'systemd', pid: 1, objectUnit: 'kubelet.service', message: 'Started kubelet.service - kubelet: The Kubernetes Node Agent.' });
    j.append({ identifier: 'kubelet', pid: 235, unit: 'kubelet.service', message: 'I0105 06:00:10.000000     235 server.go:484] "Kubelet version"' });
    at.t = 11_000;
    j.append({ identifier: 'systemd', pid: 1, objectUnit: 'containerd.service', message: 'Started containerd.service - containerd container runtime.' });
    j.append({ identifier: 'systemd', pid: 1, message: 'Reached target multi-user.target - Multi-User System.' });
    return { j, at };
  }

  it('-u UNIT selects the unit output and PID 1 lines about the unit (unit suffix optional)', () => {
    const { j } = sample();
    expect(journalctl(j, ['-u', 'kubelet', '--no-pager']).stdout).toBe(
      'Jan 05 06:00:10 k8s-lab-worker systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent.\n' +
        'Jan 05 06:00:10 k8s-lab-worker kubelet[235]: I0105 06:00:10.000000     235 server.go:484] "Kubelet version"\n',
    );
    expect(journalctl(j, []).stdout.split('\n').length).toBe(5);
  });

  it('-n N keeps the last lines; nothing matching prints -- No entries --', () => {
    const { j } = sample();
    expect(journalctl(j, ['-n', '1']).stdout).toBe('Jan 05 06:00:11 k8s-lab-worker systemd[1]: Reached target multi-user.target - Multi-User System.\n');
    expect(journalctl(j, ['-u', 'etcd']).stdout).toBe('-- No entries --\n');
    expect(journalctl(j, ['--bogus'])).toEqual({ stdout: '', stderr: "journalctl: unrecognized option '--bogus'\n", exitCode: 1 });
  });

  it('-p PRIORITY: that level and more important ones, or a range; unit output is info (journalctl.c parse_argv)', () => {
    const { j } = sample();
    // A kubelet's klog `E` line reaches the journal through its stderr: priority info (6).
    j.append({ identifier: 'kubelet', pid: 235, unit: 'kubelet.service', message: 'E0105 06:00:11.000000     235 run.go:72] "command failed"' });
    j.append({ identifier: 'systemd', pid: 1, objectUnit: 'kubelet.service', message: 'kubelet.service: Main process exited, code=exited, status=1/FAILURE', priority: 5 });
    j.append({ identifier: 'systemd', pid: 1, objectUnit: 'kubelet.service', message: "kubelet.service: Failed with result 'exit-code'.", priority: 4 });
    const out = (...a: string[]) => journalctl(j, a).stdout;
    expect(out('-u', 'kubelet', '-p', 'err')).toBe('-- No entries --\n');
    expect(out('-u', 'kubelet', '-p', 'warning')).toBe("Jan 05 06:00:11 k8s-lab-worker systemd[1]: kubelet.service: Failed with result 'exit-code'.\n");
    expect(out('-p5').split('\n')).toHaveLength(3);
    expect(out('--priority=notice..notice')).toBe('Jan 05 06:00:11 k8s-lab-worker systemd[1]: kubelet.service: Main process exited, code=exited, status=1/FAILURE\n');
    expect(out('-u', 'kubelet', '-p', 'info').split('\n')).toHaveLength(6);
    expect(journalctl(j, ['-p', 'bogus'])).toEqual({ stdout: '', stderr: 'Unknown log level bogus\n', exitCode: 1 });
    expect(journalctl(j, ['-p', 'err..x'])).toEqual({ stdout: '', stderr: 'Failed to parse log level range err..x\n', exitCode: 1 });
  });

  it('cursors and clear (the volatile journal of a rebooted kind node)', () => {
    const { j } = sample();
    const c = j.cursor();
    j.append({ identifier: 'kubelet', pid: 240, unit: 'kubelet.service', message: 'later' });
    expect(j.entries({ unit: 'kubelet.service', sinceSeq: c }).map((e) => e.message)).toEqual(['later']);
    j.clear();
    expect(j.entries()).toEqual([]);
    expect(j.cursor()).toBe(c + 1);
  });
});
