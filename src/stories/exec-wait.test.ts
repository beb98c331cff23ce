/**
 * `kubectl exec` of a command that keeps running: the line waits in virtual time until the
 * process in the container ends, then prints what it wrote and how it ended.
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story } from './storykit';
import { LINE_LATENCY_MS } from '../shell/transcript';

describe('kubectl exec waits for the process', { timeout: 120_000 }, () => {
  it('sleep 5 takes 5 s; a loop prints its output and its exit code; timeout ends the wait', () => {
    const s = story({ files: bookshopFiles() });
    s.run('kubectl run bb --image=busybox:1.36 -- sleep 3600\nsleep 10\n');
    const t0 = s.cluster.clock.now();
    expect(s.run('kubectl exec bb -- sleep 5\necho $?\n').map((b) => b.output)).toEqual(['', '0\n']);
    const waited = s.cluster.clock.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(5000);
    // Two lines, each with the per-line cost of the transcript runner.
    expect(waited).toBeLessThan(5100 + 2 * LINE_LATENCY_MS);
    const t1 = s.cluster.clock.now();
    const b = s.run(`kubectl exec bb -- sh -c 'for i in 1 2 3; do echo $i; sleep 1; done; exit 3'\necho $?\n`);
    expect(b.map((x) => x.output)).toEqual(['1\n2\n3\ncommand terminated with exit code 3\n', '3\n']);
    expect(s.cluster.clock.now() - t1).toBeGreaterThanOrEqual(3000);
    // `timeout` interrupts the wait as Ctrl-C would, with timeout's status.
    const t2 = s.cluster.clock.now();
    expect(s.run('timeout 2 kubectl exec bb -- sleep 30\necho $?\n').map((x) => x.output)).toEqual(['', '124\n']);
    expect(s.cluster.clock.now() - t2).toBeLessThan(2100 + 2 * LINE_LATENCY_MS);
    // Short commands still answer at once.
    const t3 = s.cluster.clock.now();
    expect(s.out('kubectl exec bb -- echo hi')).toBe('hi\n');
    expect(s.cluster.clock.now()).toBe(t3 + LINE_LATENCY_MS);
  });
});
