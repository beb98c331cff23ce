/**
 * The classic control-plane troubleshooting exercise: a typo in a kubeconfig path in
 * /etc/kubernetes/manifests/kube-scheduler.yaml. The kubelet restarts the static pod, the new
 * kube-scheduler exits 1 at once (component-base cli.Run: `"command failed" err="stat PATH: no
 * such file or directory"`), crash-loops, and new pods stay Pending until the path is fixed.
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story } from './storykit';

const CP = 'docker exec k8s-lab-control-plane';

describe('a typo in kube-scheduler.yaml', { timeout: 120_000 }, () => {
  it('crash-loops with the real error; new pods wait; fixing the file brings it back', () => {
    const s = story({ files: bookshopFiles() });
    s.run(`${CP} sed -i "s#--kubeconfig=/etc/kubernetes/scheduler.conf#--kubeconfig=/etc/kubernetes/schedulerr.conf#" /etc/kubernetes/manifests/kube-scheduler.yaml\nsleep 60\n`);
    expect(s.out('kubectl get pod -n kube-system kube-scheduler-k8s-lab-control-plane --no-headers')).toMatch(/ +0\/1 +(CrashLoopBackOff|Error) +\d+ /);
    expect(s.out('kubectl logs -n kube-system kube-scheduler-k8s-lab-control-plane')).toMatch(/^E\d{4} [\d:.]+ +1 run\.go:72\] "command failed" err="stat \/etc\/kubernetes\/schedulerr\.conf: no such file or directory"\n$/);
    s.run('kubectl run waiting --image=nginx:1.27\nsleep 5\n');
    expect(s.out('kubectl get pod waiting --no-headers')).toMatch(/^waiting +0\/1 +Pending /);
    // The authentication kubeconfig is loaded first, and its error wraps the stat twice.
    s.run(`${CP} sed -i "s#--authentication-kubeconfig=/etc/kubernetes/scheduler.conf#--authentication-kubeconfig=/etc/kubernetes/nope.conf#" /etc/kubernetes/manifests/kube-scheduler.yaml\nsleep 60\n`);
    expect(s.out('kubectl logs -n kube-system kube-scheduler-k8s-lab-control-plane')).toContain(
      '"command failed" err="failed to get delegated authentication kubeconfig: failed to get delegated authentication kubeconfig: stat /etc/kubernetes/nope.conf: no such file or directory"',
    );
    s.run(`${CP} sed -i -e "s#schedulerr.conf#scheduler.conf#" -e "s#nope.conf#scheduler.conf#" /etc/kubernetes/manifests/kube-scheduler.yaml\nsleep 60\n`);
    expect(s.out('kubectl get pod waiting --no-headers')).toMatch(/^waiting +1\/1 +Running /);
  });
});
