/**
 * The node layer as seed 000 tells it, the things a learner tries around the story's commands,
 * compared with a real kind cluster (Kubernetes 1.35 nodes): what the node's components record
 * and print.
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story } from './storykit';

describe('node layer: kube-proxy', { timeout: 120_000 }, () => {
  it("records a Normal Starting event on its Node (events.k8s.io recorder: source kube-proxy, no message), again when its pod is replaced", () => {
    const s = story({ files: bookshopFiles() });
    const events = (node: string) => {
      const out = s.out(`kubectl describe node ${node}`);
      return out.slice(out.indexOf('Events:')).split('\n');
    };
    // describe.go: the From column is source.component, else reportingController; the message
    // is empty (kube-proxy's birthCry passes ""), so the row ends after the source.
    const proxyRows = (lines: string[]) => lines.filter((l) => /^ {2}Normal {2}Starting +\S+ +kube-proxy *$/.test(l));
    for (const node of ['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2']) {
      const lines = events(node);
      expect(proxyRows(lines)).toHaveLength(1);
      expect(lines.some((l) => /^ {2}Normal {2}Starting +\S+ +kubelet +Starting kubelet\.$/.test(l))).toBe(true);
    }
    // The stored Event is an events.k8s.io/v1 Event as core/v1 shows it: eventTime (micro),
    // no firstTimestamp/lastTimestamp/count, an empty source, the reporting fields.
    const yaml = s.out(`kubectl get events --field-selector reason=Starting,involvedObject.name=k8s-lab-worker -o yaml`);
    const proxy = yaml.slice(yaml.indexOf('- action: StartKubeProxy'));
    expect(proxy).toMatch(/^- action: StartKubeProxy\n {2}apiVersion: v1\n {2}eventTime: "2026-01-05T06:00:\d\d\.\d{6}Z"\n {2}firstTimestamp: null\n {2}involvedObject:\n {4}kind: Node\n {4}name: k8s-lab-worker\n {4}uid: k8s-lab-worker\n {2}kind: Event\n {2}lastTimestamp: null\n {2}metadata:\n/);
    expect(proxy).toContain('\n  reason: Starting\n  reportingComponent: kube-proxy\n  reportingInstance: kube-proxy-k8s-lab-worker\n  source: {}\n  type: Normal\n');
    expect(proxy).not.toMatch(/^ {2}(message|count):/m);
    // The kubelet's node reference has no apiVersion either (kubelet.go `nodeRef`).
    const kubelet = yaml.slice(yaml.indexOf('- apiVersion: v1\n  count: 1\n'));
    expect(kubelet).toMatch(/^- apiVersion: v1\n {2}count: 1\n {2}eventTime: null\n {2}firstTimestamp: "[^"]+"\n {2}involvedObject:\n {4}kind: Node\n {4}name: k8s-lab-worker\n {4}uid: k8s-lab-worker\n {2}kind: Event\n/);
    // A new kube-proxy (its pod deleted, the DaemonSet's replacement starts) cries again.
    const pod = s.out(`kubectl get pods -n kube-system -l k8s-app=kube-proxy --field-selector spec.nodeName=k8s-lab-worker -o name`).trim();
    s.run(`kubectl delete -n kube-system ${pod}\nsleep 10\n`);
    expect(proxyRows(events('k8s-lab-worker'))).toHaveLength(2);
    // kubectl get events: LAST SEEN from eventTime, the MESSAGE column empty.
    const rows = s.out('kubectl get events --field-selector involvedObject.name=k8s-lab-worker2,reason=Starting').split('\n');
    expect(rows.some((l) => /^\d+s +Normal +Starting +node\/k8s-lab-worker2 *$/.test(l))).toBe(true);
  });
});

describe('node layer: the OOM killer takes the whole container (memory.oom.group)', { timeout: 120_000 }, () => {
  it('kubectl exec of a command that makes the container OOM ends with it: exit 137; an attached shell ends too', () => {
    const s = story({ files: bookshopFiles() });
    // The wget runs in catalog's cgroup; its request makes catalog allocate past 128Mi.
    const b = s.run('kubectl exec deploy/catalog -n bookshop -- wget -qO- localhost:8080/debug/eat?mb=200\necho $?\n');
    expect(b[0].output).toBe('Found 2 pods, using pod/catalog-d66d88fb4-hdrds\ncommand terminated with exit code 137\n');
    expect(b[1].output).toBe('137\n');
    s.run('sleep 5\n');
    expect(s.out('kubectl get pod catalog-d66d88fb4-hdrds -n bookshop -o jsonpath={.status.containerStatuses[0].lastState.terminated.reason}')).toBe('OOMKilled\n');
    // An interactive shell in the container is one of its processes: killed with it, the
    // session ends and the prompt is the laptop's again.
    const t = s.run('kubectl exec -it catalog-d66d88fb4-hdrds -n bookshop -- sh\nwget -qO- localhost:8080/debug/eat?mb=200\necho $?\n');
    expect(t.map((x) => x.input)).toEqual(['kubectl exec -it catalog-d66d88fb4-hdrds -n bookshop -- sh', 'echo $?']);
    expect(t[0].output).toBe('/ $ wget -qO- localhost:8080/debug/eat?mb=200\ncommand terminated with exit code 137\n');
    expect(t[1].output).toBe('137\n');
  });
});

describe('node layer: powering a node off and on', { timeout: 120_000 }, () => {
  it("a container that was running when the node stopped is Terminated 255 Unknown, finished when containerd came back", () => {
    const s = story({ files: bookshopFiles() });
    s.run('docker stop k8s-lab-worker\nsleep 120\ndocker start k8s-lab-worker\nsleep 30\n');
    const pod = 'catalog-d66d88fb4-p649t';
    expect(s.out(`kubectl get pod ${pod} -n bookshop -o jsonpath={.spec.nodeName}`)).toBe('k8s-lab-worker\n');
    const d = s.out(`kubectl describe pod ${pod} -n bookshop`);
    const started = /\n {4}State: +Running\n {6}Started: +(.+)\n/.exec(d)![1];
    const last = /\n {4}Last State: +Terminated\n {6}Reason: +Unknown\n {6}Exit Code: +255\n {6}Started: +(.+)\n {6}Finished: +(.+)\n/.exec(d)!;
    // Finished is when containerd recovered (just before the new container started), not when
    // the power went: two minutes after the container's start, not twenty seconds.
    expect(last[2]).toBe(started);
    expect(Date.parse(last[2]) - Date.parse(last[1])).toBeGreaterThan(120_000);
  });
});

describe('node layer: inside a container', { timeout: 120_000 }, () => {
  it("busybox ps: the PID right-aligned under PID (procps/ps.c, -o pid,user,time,args)", () => {
    const s = story({ files: bookshopFiles() });
    s.run('kubectl run bb --image=busybox:1.36 --restart=Never -- sleep 3600\nsleep 10\n');
    expect(s.out('kubectl exec bb -- ps')).toBe('PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 3600\n    7 root      0:00 ps\n');
  });
});

describe('node layer: crictl exec', { timeout: 120_000 }, () => {
  it("runs a command in a container; a non-zero exit is crictl's fatal error and status 1 (cri-tools cmd/crictl/exec.go)", () => {
    const s = story({ files: bookshopFiles() });
    const id = s.out("docker exec k8s-lab-worker sh -c 'crictl ps -q --name catalog'").trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const N = 'docker exec k8s-lab-worker crictl exec';
    expect(s.out(`${N} ${id.slice(0, 13)} cat /etc/hostname`)).toBe('catalog-d66d88fb4-p649t\n');
    const b = s.run(`${N} ${id.slice(0, 13)} ls /nope\necho $?\n`);
    expect(b[0].output).toBe(`ls: /nope: No such file or directory\ntime="2026-01-05T06:00:36Z" level=fatal msg="execing command in container ${id.slice(0, 13)}: command terminated with exit code 1"\n`);
    expect(b[1].output).toBe('1\n');
    expect(s.out(`${N} -s ${id.slice(0, 13)} ls /nope`)).toBe(`time="2026-01-05T06:00:36Z" level=fatal msg="execing command in container ${id.slice(0, 13)} synchronously: command 'ls /nope' exited with 1: ls: /nope: No such file or directory\\n"\n`);
    expect(s.out(`${N} -s ${id.slice(0, 13)} echo hi`)).toBe('hi\n\n\n');
    // The OOM killer takes the exec'd process with the container's cgroup.
    expect(s.out(`${N} ${id.slice(0, 13)} wget -qO- localhost:8080/debug/eat?mb=200`)).toMatch(new RegExp(`^time="2026-01-05T06:00:\\d\\dZ" level=fatal msg="execing command in container ${id.slice(0, 13)}: command terminated with exit code 137"\n$`));
    expect(s.out(`${N} ${id.slice(0, 13)} ls`)).toMatch(new RegExp(`^time="2026-01-05T06:00:\\d\\dZ" level=fatal msg="execing command in container ${id.slice(0, 13)}: rpc error: code = Unknown desc = container is in CONTAINER_EXITED state"\n$`));
  });
});

describe('node layer: an exec killed with its container', { timeout: 120_000 }, () => {
  it('shows what it wrote before the kill, then exit 137 (the stream carried it already)', () => {
    const s = story({ files: bookshopFiles() });
    const out = s.out(`kubectl exec catalog-d66d88fb4-hdrds -n bookshop -- sh -c 'echo before; wget -qO- localhost:8080/debug/eat?mb=200; echo after'`);
    expect(out).toBe('before\ncommand terminated with exit code 137\n');
  });
});

describe('node layer: componentstatuses probe the components live', { timeout: 120_000 }, () => {
  it('the scheduler is Unhealthy as soon as its process is gone (componentstatus/rest.go probes 127.0.0.1:10259/healthz per request)', () => {
    const s = story({ files: bookshopFiles() });
    s.run('docker exec k8s-lab-control-plane mv /etc/kubernetes/manifests/kube-scheduler.yaml /root/\nsleep 5\n');
    expect(s.out("docker exec k8s-lab-control-plane sh -c 'pgrep kube-scheduler || echo none'")).toBe('none\n');
    const rows = s.out('kubectl get componentstatuses 2>/dev/null').split('\n');
    expect(rows[1]).toMatch(/^scheduler +Unhealthy +Get "https:\/\/127\.0\.0\.1:10259\/healthz": dial tcp 127\.0\.0\.1:10259: connect: connection refused +$/);
    expect(rows[2]).toMatch(/^controller-manager +Healthy +ok +$/);
    s.run('docker exec k8s-lab-control-plane mv /root/kube-scheduler.yaml /etc/kubernetes/manifests/\nsleep 20\n');
    expect(s.out('kubectl get cs scheduler --no-headers 2>/dev/null')).toMatch(/^scheduler +Healthy +ok +$/m);
  });
});
