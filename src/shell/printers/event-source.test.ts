/**
 * The SOURCE column of `kubectl get events -o wide` for an event written the events.k8s.io way
 * (no `source`, the reporting controller and instance instead): printers.go formatEventSource
 * falls back to them, and core/v1 names the controller `reportingComponent` on the wire. Such an
 * event has no lastTimestamp: LAST SEEN and FIRST SEEN come from eventTime, and
 * `--sort-by=.lastTimestamp` puts it first (sorter.go: a missing value is less).
 */
import { describe, expect, it } from 'vitest';
import { bench } from '../kubectl/testing';

const EVENT = `apiVersion: v1
kind: Event
metadata:
  name: probe.1
  namespace: default
eventTime: "2026-01-05T06:00:01.000000Z"
reportingComponent: example.com/prober
reportingInstance: prober-1
action: Probing
reason: Probed
message: probed the pod
type: Normal
involvedObject:
  kind: Pod
  name: web
  namespace: default
`;

describe('events without source', () => {
  it('SOURCE is the reporting component and instance; a missing lastTimestamp sorts first', () => {
    const b = bench({ files: { '/ev.yaml': EVENT } });
    expect(b.run('kubectl create -f /ev.yaml')).toMatchObject({ stdout: 'event/probe.1 created\n', code: 0 });
    b.run('kubectl create deployment web --image=nginx:1.27');
    b.c.run(2000);
    const wide = b.run('kubectl get events -o wide --field-selector reason=Probed').stdout.split('\n');
    const header = wide[0];
    const row = wide[1];
    const at = (col: string) => row.slice(header.indexOf(col)).split(/ {2,}/)[0];
    expect(at('SOURCE')).toBe('example.com/prober, prober-1');
    expect(at('COUNT')).toBe('1');
    const sorted = b.run('kubectl get events --sort-by=.lastTimestamp').stdout.split('\n');
    expect(sorted.length).toBeGreaterThan(3);
    expect(sorted[1]).toMatch(/^\S+\s+Normal\s+Probed\s+pod\/web\s+probed the pod$/);
  });
});
