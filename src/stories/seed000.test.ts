/**
 * The stories of ../shared/seeds/000 (the four layers of supervision: systemd -> kubelet ->
 * static pods -> controllers), typed into the playground shell on the product's default cluster,
 * asserting what a user sees. Timings are Kubernetes 1.32+: node-monitor-grace-period 50 s,
 * the not-ready/unreachable tolerations 300 s, kubelet.service RestartSec=10.
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story, type Story } from './storykit';

const W = 'docker exec k8s-lab-worker';
const CP = 'docker exec k8s-lab-control-plane';

/** `kubectl get pods -o wide` rows as {name, status, node}. */
function pods(s: Story, ns = 'bookshop'): { name: string; ready: string; status: string; node: string }[] {
  const out = s.out(`kubectl get pods -n ${ns} -o wide --no-headers`);
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const f = l.split(/\s+/);
      return { name: f[0], ready: f[1], status: f[2], node: f[6] };
    });
}

describe('seed 000, layer 1: systemd supervises the kubelet', { timeout: 120_000 }, () => {
  it('ps shows systemd as PID 1 and the kubelet under it; the unit says Restart=always, RestartSec=10', () => {
    const s = story({ files: bookshopFiles() });
    const ps = s.out(`${W} ps aux | head -5`).split('\n');
    expect(ps[0]).toMatch(/^USER +PID %CPU %MEM +VSZ +RSS TTY +STAT START +TIME COMMAND$/);
    expect(ps[1]).toMatch(/^root +1 .* \/sbin\/init$/);
    expect(ps.some((l) => /^root +\d+ .* \/usr\/bin\/kubelet --bootstrap-kubeconfig=/.test(l))).toBe(true);
    const unit = s.out(`${W} cat /etc/systemd/system/kubelet.service`);
    expect(unit).toContain('Description=kubelet: The Kubernetes Node Agent\n');
    expect(unit).toContain('\nRestart=always\n');
    expect(unit).toContain('\nRestartSec=10\n');
    expect(unit).toContain('\nStartLimitInterval=0\n');
    const status = s.out(`${W} systemctl status kubelet`).split('\n');
    expect(status[0]).toBe('● kubelet.service - kubelet: The Kubernetes Node Agent');
    expect(status[1]).toBe('     Loaded: loaded (/etc/systemd/system/kubelet.service; enabled; preset: enabled)');
    expect(status[2]).toBe('    Drop-In: /etc/systemd/system/kubelet.service.d');
    expect(status[3]).toBe('             └─10-kubeadm.conf, 11-kind.conf');
    expect(status[4]).toMatch(/^ {5}Active: active \(running\) since Mon 2026-01-05 06:00:\d\d UTC; \d+s ago$/);
    expect(status[5]).toBe('       Docs: http://kubernetes.io/docs/');
    const main = status.find((l) => l.startsWith('   Main PID: '))!;
    expect(main).toMatch(/^ {3}Main PID: \d+ \(kubelet\)$/);
    const pid = main.match(/\d+/)![0];
    expect(status).toContain('     CGroup: /kubelet.slice/kubelet.service');
    expect(status.some((l) => l.startsWith(`             └─${pid} /usr/bin/kubelet `))).toBe(true);
    expect(s.out(`${W} pgrep kubelet`)).toBe(`${pid}\n`);
  });

  it('kill the kubelet: activating (auto-restart), back 10 s later with a new PID; the node never goes NotReady', () => {
    const s = story({ files: bookshopFiles() });
    const oldPid = s.out(`${W} pgrep kubelet`).trim();
    s.run(`${W} sh -c 'kill $(pgrep kubelet)'\nsleep 1\n`);
    const status = s.out(`${W} systemctl status kubelet`).split('\n');
    expect(status[0]).toBe('● kubelet.service - kubelet: The Kubernetes Node Agent');
    // SIGTERM is a clean exit for the kubelet (Result: success), so no "(Result: ...)".
    expect(status[4]).toMatch(/^ {5}Active: activating \(auto-restart\) since Mon 2026-01-05 06:00:\d\d UTC; (\d+ms|1s) ago$/);
    expect(status).toContain(`   Main PID: ${oldPid} (code=exited, status=0/SUCCESS)`);
    expect(s.out(`${W} systemctl is-active kubelet`)).toBe('activating\n');
    expect(s.out(`${W} pgrep kubelet`)).toBe('');
    // Watch the nodes while systemd waits RestartSec=10 and the kubelet comes back.
    const watch = s.out('timeout 70 kubectl get nodes -w');
    expect(watch).not.toContain('NotReady');
    expect(watch.split('\n')[0]).toMatch(/^NAME +STATUS +ROLES +AGE +VERSION$/);
    const newPid = s.out(`${W} pgrep kubelet`).trim();
    expect(Number(newPid)).toBeGreaterThan(Number(oldPid));
    expect(s.out(`${W} systemctl is-active kubelet`)).toBe('active\n');
    expect(s.out(`${W} systemctl show kubelet -p NRestarts`)).toBe('NRestarts=1\n');
    // The journal tells the story, systemd's lines 10 s apart.
    const sd = s
      .out(`${W} journalctl -u kubelet | grep systemd`)
      .trim()
      .split('\n')
      .slice(-6)
      .map((l) => ({ time: l.slice(7, 15), msg: l.replace(/^.*?systemd\[1\]: /, '') }));
    expect(sd.map((l) => l.msg)).toEqual([
      'kubelet.service: Deactivated successfully.',
      'kubelet.service: Scheduled restart job, restart counter is at 1.',
      'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
      expect.stringMatching(/^kubelet\.service: Consumed [\d.]+m?s CPU time\.$/),
      'Starting kubelet.service - kubelet: The Kubernetes Node Agent...',
      'Started kubelet.service - kubelet: The Kubernetes Node Agent.',
    ]);
    const secs = (t: string): number => Number(t.slice(0, 2)) * 3600 + Number(t.slice(3, 5)) * 60 + Number(t.slice(6, 8));
    expect(secs(sd[1].time) - secs(sd[0].time)).toBe(10);
    // The kubelet's own shutdown line, from the old PID.
    expect(s.out(`${W} journalctl -u kubelet | grep 'Shutting down the kubelet'`)).toMatch(new RegExp(`kubelet\\[${oldPid}\\]: .*server\\.go:\\d+\\] "Shutting down the kubelet" signal="terminated"\\n$`));
    expect(s.out('kubectl get events -A --field-selector reason=NodeNotReady')).toBe('No resources found\n');
    // The pods on the node were never touched.
    expect(pods(s).every((p) => p.status === 'Running' && p.ready === '1/1')).toBe(true);
  });

  it('stop the kubelet: NotReady at the 50 s grace period, unreachable taints, pods evicted 300 s later', () => {
    const s = story({ files: bookshopFiles() });
    const onWorker = pods(s).filter((p) => p.node === 'k8s-lab-worker').map((p) => p.name);
    expect(onWorker.length).toBeGreaterThan(0);
    expect(s.out(`${W} systemctl stop kubelet`)).toBe('');
    expect(s.out(`${W} systemctl is-active kubelet`)).toBe('inactive\n');
    expect(s.out(`${W} systemctl status kubelet | head -5 | tail -1`)).toMatch(/^ {5}Active: inactive \(dead\) since /);
    s.run('sleep 44\n');
    expect(s.out('kubectl get node k8s-lab-worker --no-headers')).toMatch(/^k8s-lab-worker +Ready +<none> /);
    s.run('sleep 11\n');
    expect(s.out('kubectl get node k8s-lab-worker --no-headers')).toMatch(/^k8s-lab-worker +NotReady +<none> /);
    expect(s.out(`kubectl get node k8s-lab-worker -o jsonpath='{range .status.conditions[?(@.type=="Ready")]}{.status} {.reason}: {.message}{end}'`)).toBe('Unknown NodeStatusUnknown: Kubelet stopped posting node status.\n');
    expect(s.out(`kubectl get node k8s-lab-worker -o jsonpath='{range .spec.taints[*]}{.key}:{.effect}{"\\n"}{end}'`)).toBe('node.kubernetes.io/unreachable:NoSchedule\nnode.kubernetes.io/unreachable:NoExecute\n');
    expect(s.out('kubectl describe node k8s-lab-worker | grep -A2 Taints')).toBe('Taints:             node.kubernetes.io/unreachable:NoExecute\n                    node.kubernetes.io/unreachable:NoSchedule\nUnschedulable:      false\n');
    expect(s.out('kubectl get events --field-selector reason=NodeNotReady,involvedObject.name=k8s-lab-worker -o custom-columns=FROM:.source.component,MSG:.message --no-headers')).toMatch(/^node-controller +Node k8s-lab-worker status is now: NodeNotReady\n$/);
    // The pods there still read Running: the containers run, nobody can say otherwise yet.
    for (const p of pods(s).filter((x) => onWorker.includes(x.name))) expect(p.status).toBe('Running');
    // Their default toleration of unreachable:NoExecute lasts 300 s from the taint.
    s.run('sleep 275\n');
    expect(pods(s).filter((p) => p.status === 'Terminating')).toEqual([]);
    s.run('sleep 30\n');
    const now = pods(s);
    for (const name of onWorker) expect(now.find((p) => p.name === name)?.status).toBe('Terminating');
    expect(s.out('kubectl get events -n bookshop --field-selector reason=TaintManagerEviction -o custom-columns=MSG:.message --no-headers').trim().split('\n').sort()).toEqual(
      onWorker.map((n) => `Marking for deletion Pod bookshop/${n}`).sort(),
    );
    // Replacements were created and none went to the lost node.
    const fresh = now.filter((p) => !onWorker.includes(p.name) && p.node !== 'k8s-lab-worker2');
    for (const p of fresh) expect(p.node).not.toBe('k8s-lab-worker');
    // Start it again: the Terminating pods go, the node is Ready, the taints are gone.
    s.run(`${W} systemctl start kubelet\nsleep 30\n`);
    expect(s.out('kubectl get node k8s-lab-worker --no-headers')).toMatch(/^k8s-lab-worker +Ready +<none> /);
    expect(s.out(`kubectl get node k8s-lab-worker -o jsonpath='{.spec.taints}'`)).toBe('');
    expect(pods(s).filter((p) => onWorker.includes(p.name))).toEqual([]);
  });
});

describe('seed 000, layers 2 and 3: the kubelet runs the control plane from files', { timeout: 120_000 }, () => {
  it('delete a mirror pod: the kubelet puts it back at once, the static pod never stopped', () => {
    const s = story({ files: bookshopFiles() });
    const cid = s.out(`${CP} crictl ps -q --name kube-scheduler`);
    expect(cid).toMatch(/^[0-9a-f]{64}\n$/);
    const uid = s.out(`kubectl get pod kube-scheduler-k8s-lab-control-plane -n kube-system -o jsonpath='{.metadata.uid}'`);
    expect(s.out('kubectl delete pod kube-scheduler-k8s-lab-control-plane -n kube-system')).toBe('pod "kube-scheduler-k8s-lab-control-plane" deleted from kube-system namespace\n');
    s.run('sleep 2\n');
    expect(s.out('kubectl get pod kube-scheduler-k8s-lab-control-plane -n kube-system --no-headers')).toMatch(/^kube-scheduler-k8s-lab-control-plane +1\/1 +Running +0 +\ds\n$/);
    expect(s.out(`kubectl get pod kube-scheduler-k8s-lab-control-plane -n kube-system -o jsonpath='{.metadata.uid}'`)).not.toBe(uid);
    expect(s.out(`kubectl get pod kube-scheduler-k8s-lab-control-plane -n kube-system -o jsonpath='{.metadata.ownerReferences[0].kind}'`)).toBe('Node\n');
    // Same container, same attempt: the mirror is only the API's copy.
    expect(s.out(`${CP} crictl ps -q --name kube-scheduler`)).toBe(cid);
  });

  it('move kube-scheduler.yaml out: new pods stay Pending with no events; back in: scheduled', () => {
    const s = story({ files: bookshopFiles() });
    s.run(`${CP} mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/\nsleep 5\n`);
    expect(s.out(`${CP} ls /etc/kubernetes/manifests/`)).toBe('etcd.yaml\nkube-apiserver.yaml\nkube-controller-manager.yaml\n');
    expect(s.out('kubectl get pods -n kube-system -l component=kube-scheduler')).toBe('No resources found in kube-system namespace.\n');
    expect(s.out(`${CP} crictl ps --name kube-scheduler -q`)).toBe('');
    expect(s.out('kubectl create deployment hello --image=nginx:1.27 --replicas=2')).toBe('deployment.apps/hello created\n');
    s.run('sleep 30\n');
    const pending = s.out('kubectl get pods -l app=hello -o wide --no-headers').trim().split('\n');
    expect(pending).toHaveLength(2);
    for (const l of pending) expect(l).toMatch(/^hello-\w+-\w+ +0\/1 +Pending +0 +30s +<none> +<none> +<none> +<none>$/);
    const describe = s.out('kubectl describe pods -l app=hello');
    expect(describe.match(/^Events: +<none>$/gm)).toHaveLength(2);
    expect(s.out('kubectl get events --field-selector involvedObject.kind=Pod')).toBe('No resources found in default namespace.\n');
    s.run(`${CP} mv /tmp/kube-scheduler.yaml /etc/kubernetes/manifests/\nsleep 20\n`);
    const placed = s.out('kubectl get pods -l app=hello -o wide --no-headers').trim().split('\n');
    for (const l of placed) expect(l).toMatch(/^hello-\w+-\w+ +1\/1 +Running +0 +50s +[\d.]+ +k8s-lab-worker2? /);
    // kube-scheduler records through events.k8s.io/v1: the core view has no `source`, only the
    // reporting controller.
    const events = s.out('kubectl get events --field-selector reason=Scheduled -o custom-columns=FROM:.reportingComponent,SOURCE:.source.component,MSG:.message --no-headers').trim().split('\n');
    expect(events).toHaveLength(2);
    for (const e of events) expect(e).toMatch(/^default-scheduler +<none> +Successfully assigned default\/hello-\w+-\w+ to k8s-lab-worker2?$/);
  });

  it('stop kube-controller-manager: a deleted catalog pod stays gone until it returns', () => {
    const s = story({ files: bookshopFiles() });
    s.run(`${CP} mv /etc/kubernetes/manifests/kube-controller-manager.yaml /root/\nsleep 5\n`);
    expect(s.out('kubectl get pods -n kube-system -l component=kube-controller-manager')).toBe('No resources found in kube-system namespace.\n');
    const [victim, survivor] = s.out('kubectl get pods -n bookshop -l app=catalog -o name').trim().split('\n').map((n) => n.replace('pod/', ''));
    s.run(`kubectl delete pod ${victim} -n bookshop\nsleep 30\n`);
    expect(s.out('kubectl get pods -n bookshop -l app=catalog -o name')).toBe(`pod/${survivor}\n`);
    // Nobody updates the Deployment's status either: it still claims 2/2.
    expect(s.out('kubectl get deploy catalog -n bookshop --no-headers')).toMatch(/^catalog +2\/2 +2 +2 /);
    s.run(`${CP} mv /root/kube-controller-manager.yaml /etc/kubernetes/manifests/\nsleep 30\n`);
    const names = s.out('kubectl get pods -n bookshop -l app=catalog -o name').trim().split('\n');
    expect(names).toHaveLength(2);
    expect(names).toContain(`pod/${survivor}`);
    expect(names).not.toContain(`pod/${victim}`);
    expect(s.out('kubectl get pods -n bookshop -l app=catalog --no-headers').trim().split('\n').every((l) => / Running /.test(l))).toBe(true);
  });

  it('stop etcd: the API fails, the pods keep running, and the cluster remembers when it is back', () => {
    const s = story({ files: bookshopFiles() });
    const before = s.out("kubectl get pods -n bookshop -o custom-columns=NAME:.metadata.name,UID:.metadata.uid --no-headers");
    s.run(`${CP} mv /etc/kubernetes/manifests/etcd.yaml /root/\nsleep 5\n`);
    expect(s.out('kubectl get pods -n bookshop')).toBe('Error from server: etcdserver: request timed out\n');
    expect(s.out('kubectl delete pod -n bookshop -l app=catalog')).toBe('Error from server: etcdserver: request timed out\n');
    s.run('sleep 30\n');
    // The containers do not need the API: they run on.
    const running = s.out(`${W} crictl ps --name catalog`).trim().split('\n');
    expect(running[0]).toMatch(/^CONTAINER +IMAGE +CREATED +STATE +NAME +ATTEMPT +POD ID +POD +NAMESPACE$/);
    expect(running.slice(1).every((l) => / Running +catalog +0 /.test(l))).toBe(true);
    s.run(`${CP} mv /root/etcd.yaml /etc/kubernetes/manifests/\nsleep 60\n`);
    expect(s.out("kubectl get pods -n bookshop -o custom-columns=NAME:.metadata.name,UID:.metadata.uid --no-headers")).toBe(before);
    expect(s.out('kubectl get pods -n bookshop --no-headers').trim().split('\n').every((l) => / 1\/1 +Running +0 /.test(l))).toBe(true);
  });
});
