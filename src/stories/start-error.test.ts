/**
 * A container whose command does not exist (a typo in `command:`): runc fails the start
 * (StartError, exit 128), the kubelet restarts it at once and then with the crash-loop back-off,
 * RESTARTS climbs, and `kubectl describe` shows the never-started container's Started as the
 * Unix epoch (containerd's StartedAt 0, kuberuntime_container.go toKubeContainerStatus).
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story } from './storykit';

describe('a container whose command is not found', { timeout: 120_000 }, () => {
  it('crash-loops with StartError, restarts climbing, Started 1970', () => {
    const s = story({ files: bookshopFiles() });
    s.run('kubectl run nocmd --image=nginx:1.27 --command -- foo\nsleep 28\n');
    expect(s.out('kubectl get pod nocmd --no-headers')).toMatch(/^nocmd +0\/1 +CrashLoopBackOff +2 \(\d+s ago\) +28s\n$/);
    const d = s.out('kubectl describe pod nocmd');
    expect(d).toContain(
      '    Last State:     Terminated\n      Reason:       StartError\n      Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "foo": executable file not found in $PATH: unknown\n      Exit Code:    128\n      Started:      Thu, 01 Jan 1970 00:00:00 +0000\n',
    );
    // Each restart is a new attempt (no second create of one attempt's name).
    expect(s.out('kubectl get events --field-selector involvedObject.name=nocmd')).not.toContain('failed to reserve container name');
    s.run('sleep 60\n');
    expect(s.out('kubectl get pod nocmd --no-headers')).toMatch(/^nocmd +0\/1 +CrashLoopBackOff +4 \(\d+s ago\) +89s\n$/);
  });
});
