/**
 * kube-scheduler's Events as a learner reads them on the default cluster: kube-scheduler records
 * through events.k8s.io/v1 (client-go tools/events), so its Events carry `eventTime`,
 * `reportingComponent`/`reportingInstance` and `action` and no `source`, first/last timestamps
 * or `count`; a pod that stays unschedulable shows the series count the API holds, which moves
 * only when a series starts, ends or is refreshed (event_broadcaster.go). Both API groups list
 * the same Events.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story, type Story } from './storykit';

const BIG = `kubectl run big --image=nginx:1.27 --overrides='{"spec":{"containers":[{"name":"big","image":"nginx:1.27","resources":{"requests":{"cpu":"100"}}}]}}'\n`;

describe('kube-scheduler Events through events.k8s.io/v1', { timeout: 120_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 120_000);

  it('a Scheduled Event: eventTime and the reporting controller, no source or timestamps', () => {
    s.run('kubectl run one --image=nginx:1.27\nsleep 5\n');
    const y = s.out('kubectl get events --field-selector involvedObject.name=one,reason=Scheduled -o yaml');
    expect(y).toMatch(/^- action: Binding\n {2}apiVersion: v1\n {2}eventTime: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"\n {2}firstTimestamp: null\n {2}involvedObject:\n/m);
    expect(y).toContain('  lastTimestamp: null\n');
    expect(y).toContain('  reportingComponent: default-scheduler\n  reportingInstance: default-scheduler-k8s-lab-control-plane\n  source: {}\n  type: Normal\n');
    expect(y).not.toContain('count:');
    // describe's From falls back to the reporting controller.
    expect(s.out('kubectl describe pod one')).toMatch(/ Normal {2}Scheduled {2}5s +default-scheduler {2}Successfully assigned default\/one to k8s-lab-worker2?\n/);
    // The events.k8s.io view of the same Event.
    const v = s.out('kubectl get events.v1.events.k8s.io --field-selector involvedObject.name=one,reason=Scheduled -o yaml');
    expect(v).toContain('  apiVersion: events.k8s.io/v1\n  deprecatedFirstTimestamp: null\n  deprecatedLastTimestamp: null\n  deprecatedSource: {}\n');
    expect(v).toContain('  note: Successfully assigned default/one to k8s-lab-worker');
    expect(v).toContain('  regarding:\n    apiVersion: v1\n    kind: Pod\n    name: one\n');
    // Its table is the core/v1 one (the server prints the internal Event).
    expect(s.out('kubectl get events.events.k8s.io --field-selector involvedObject.name=one -o wide')).toBe(s.out('kubectl get events --field-selector involvedObject.name=one -o wide'));
  });

  it('--sort-by=.lastTimestamp puts the scheduler\'s Events (lastTimestamp null) first, as real kubectl does', () => {
    const rows = s.out('kubectl get events --field-selector involvedObject.name=one --sort-by=.lastTimestamp --no-headers').trim().split('\n');
    expect(rows[0]).toMatch(/ Scheduled /);
    expect(rows.slice(1).map((r) => r.split(/\s+/)[2])).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
  });

  it('an unschedulable pod: FailedScheduling becomes a series whose count the API learns late', () => {
    s.run(BIG);
    s.run('sleep 600\n');
    // First failure (Event 1), the retry after the pod's condition changed its resourceVersion
    // (Event 2, another regarding), the next retry (Event 2 becomes a series of 2).
    const d = s.out('kubectl describe pod big');
    const rows = d.split('\n').filter((l) => l.includes('FailedScheduling'));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^ {2}Warning {2}FailedScheduling {2}10m +default-scheduler {2}0\/3 nodes are available: /);
    expect(rows[1]).not.toContain('(x');
    s.run('sleep 600\n');
    const later = s.out('kubectl describe pod big').split('\n').filter((l) => l.includes('FailedScheduling'));
    expect(later).toHaveLength(2);
    expect(later[1]).toMatch(/^ {2}Warning {2}FailedScheduling {2}\S+ \(x2 over 14m\) {2}default-scheduler {2}0\/3 nodes are available: /);
  });
});
