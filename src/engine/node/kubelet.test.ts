import { describe, expect, it } from 'vitest';
import { newKubeletFixture } from './kubelet.testkit';

const nginx = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name, labels: { app: name } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ...extra }] },
});

describe('kubelet: startup and node registration', () => {
  it('starts under systemd, registers the Node and renews its Lease', () => {
    const fx = newKubeletFixture();
    fx.run(2000);
    const node = fx.api.get('nodes', undefined, 'k8s-lab-worker');
    expect(node.metadata.labels?.['kubernetes.io/hostname']).toBe('k8s-lab-worker');
    expect(node.spec.providerID).toBe('kind://docker/k8s-lab/k8s-lab-worker');
    const ready = node.status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready.status).toBe('True');
    expect(ready.reason).toBe('KubeletReady');
    expect(ready.message).toBe('kubelet is posting ready status');
    expect(node.status.capacity.pods).toBe('110');
    expect(node.status.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'k8s-lab-worker' },
    ]);
    const lease = fx.api.get('leases', 'kube-node-lease', 'k8s-lab-worker');
    expect(lease.spec.holderIdentity).toBe('k8s-lab-worker');
    expect(lease.spec.leaseDurationSeconds).toBe(40);
    const t1 = lease.spec.renewTime;
    fx.run(10_000);
    expect(fx.api.get('leases', 'kube-node-lease', 'k8s-lab-worker').spec.renewTime).not.toBe(t1);
    expect(fx.eventsFor('k8s-lab-worker')).toContain('Starting: Starting kubelet.');
    // The runtime check and PLEG's first relist precede registration (kubelet.go Run), and this
    // node has no CNI directory to wait for: it registers Ready, so there is no NodeReady
    // transition to record (setters.go ReadyCondition records only changes).
    expect(fx.eventsFor('k8s-lab-worker')).not.toContain('NodeReady: Node k8s-lab-worker status is now: NodeReady');
  });

  it('exits 1 with the real error when config.yaml is missing, and systemd restarts it every 10 s', () => {
    const fx = newKubeletFixture({ kubeletUnit: 'upstream' });
    const m = fx.nodes[0].machine;
    m.fs.rm('/var/lib/kubelet/config.yaml');
    fx.run(25_000);
    const lines = m.journal.entries({ unit: 'kubelet.service' }).map((e) => e.message);
    const failures = lines.filter((l) => l.includes('"command failed"'));
    expect(failures.length).toBe(3);
    expect(failures[0]).toMatch(
      /^E0105 06:00:00\.\d{6} +\d+ run\.go:72\] "command failed" err="failed to load kubelet config file, path: \/var\/lib\/kubelet\/config\.yaml, error: failed to load Kubelet config file \/var\/lib\/kubelet\/config\.yaml, error failed to read kubelet config file \\"\/var\/lib\/kubelet\/config\.yaml\\", error: open \/var\/lib\/kubelet\/config\.yaml: no such file or directory"$/,
    );
    expect(lines).toContain('kubelet.service: Main process exited, code=exited, status=1/FAILURE');
  });

  it('exits when containerd does not answer at start (validate service connection)', () => {
    const fx = newKubeletFixture();
    const m = fx.nodes[0].machine;
    fx.run(2000);
    m.systemctl(['stop', 'containerd']);
    fx.run(1000);
    m.systemctl(['restart', 'kubelet']);
    fx.run(2000);
    const lines = m.journal.entries({ unit: 'kubelet.service' }).map((e) => e.message).join('\n');
    expect(lines).toContain(
      '"command failed" err="failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \\"unix:///run/containerd/containerd.sock\\": rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix /run/containerd/containerd.sock: connect: no such file or directory\\""',
    );
  });

  it('refuses node-role labels in --node-labels, as the real kubelet does', () => {
    const fx = newKubeletFixture();
    const m = fx.nodes[0].machine;
    m.fs.writeFile('/var/lib/kubelet/kubeadm-flags.env', 'KUBELET_KUBEADM_ARGS="--node-ip=172.18.0.2 --node-labels=node-role.kubernetes.io/control-plane= --container-runtime-endpoint=unix:///run/containerd/containerd.sock"\n');
    fx.run(1000);
    const lines = m.journal.entries({ unit: 'kubelet.service' }).map((e) => e.message).join('\n');
    expect(lines).toContain("unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [node-role.kubernetes.io/control-plane]");
  });

  it('fails with the kubelet config error when the file is broken', () => {
    const fx = newKubeletFixture();
    const m = fx.nodes[0].machine;
    m.fs.writeFile('/var/lib/kubelet/config.yaml', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfoo: [\n');
    fx.run(1000);
    const lines = m.journal.entries({ unit: 'kubelet.service' }).map((e) => e.message).join('\n');
    expect(lines).toContain('"command failed" err="failed to load kubelet config file, path: /var/lib/kubelet/config.yaml, error: failed to load Kubelet config file /var/lib/kubelet/config.yaml, error failed to decode: ');
    expect(lines).toContain('status=1/FAILURE');
  });
});

describe('kubelet: pods', () => {
  it('runs a pod to Running with events in order', () => {
    const fx = newKubeletFixture();
    fx.run(1000);
    fx.createPod(nginx('web'), 'k8s-lab-worker');
    fx.run(15_000);
    const pod = fx.pod('web')!;
    expect(pod.status.phase).toBe('Running');
    const cs = pod.status.containerStatuses[0];
    expect(cs.ready).toBe(true);
    expect(cs.started).toBe(true);
    expect(cs.restartCount).toBe(0);
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs.image).toBe('docker.io/library/nginx:1.27');
    expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:/);
    expect(pod.status.podIP).toMatch(/^10\.244\.0\./);
    expect(pod.status.hostIP).toBe('172.18.0.2');
    expect(pod.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`)).toEqual([
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    const ev = fx.eventsFor('web');
    expect(ev[0]).toBe('Pulling: Pulling image "nginx:1.27"');
    expect(ev[1]).toMatch(/^Pulled: Successfully pulled image "nginx:1\.27" in [\d.]+m?s \([\d.]+m?s including waiting\)\. Image size: \d+ bytes\.$/);
    // kubelet 1.35+ wording (PR #134043): the container is named by the event's fieldPath.
    expect(ev.slice(2)).toEqual(['Created: Container created', 'Started: Container started']);
  });
});

describe('kubelet: control-plane registration', () => {
  it('registers with the taints of registerWithTaints; kubeadm adds the node-role label', async () => {
    const { kubeadmMarkControlPlane } = await import('./kubelet/nodestatus');
    const fx = newKubeletFixture({ nodes: [{ name: 'k8s-lab-control-plane', role: 'control-plane' }] });
    const fs = fx.nodes[0].machine.fs;
    fs.writeFile(
      '/var/lib/kubelet/config.yaml',
      fs.readFile('/var/lib/kubelet/config.yaml') + 'registerWithTaints:\n- effect: NoSchedule\n  key: node-role.kubernetes.io/control-plane\n',
    );
    fx.run(2000);
    const node = fx.api.get('nodes', undefined, 'k8s-lab-control-plane');
    expect(node.spec.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    const marked = kubeadmMarkControlPlane(fx.api, 'k8s-lab-control-plane');
    expect(marked.metadata.labels!['node-role.kubernetes.io/control-plane']).toBe('');
    expect(marked.spec.taints.length).toBe(1);
    // A restarted kubelet keeps what kubeadm set (only default labels are reconciled).
    fx.nodes[0].machine.systemctl(['restart', 'kubelet']);
    fx.run(5000);
    expect(fx.api.get('nodes', undefined, 'k8s-lab-control-plane').metadata.labels!['node-role.kubernetes.io/control-plane']).toBe('');
  });
});
