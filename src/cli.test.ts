import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookshopFiles, main, parseArgs, runScript } from './cli';

const SEED_SCRIPT = `kubectl get pods -n bookshop
docker exec k8s-lab-control-plane ls /etc/kubernetes/manifests/
docker exec k8s-lab-worker systemctl status kubelet | head -3
docker exec k8s-lab-worker sh -c 'kill $(pgrep kubelet)'
sleep 2
docker exec k8s-lab-worker systemctl is-active kubelet
docker exec k8s-lab-worker systemctl stop kubelet
kind load docker-image bookshop:v1 bookshop:v2 --name k8s-lab
cat <<EOF | grep -c kind
kind: Pod
kind: Service
EOF
`;

function io(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), readStdin: () => stdin } };
}

const opts = { seed: 1, bare: false, lineTimeoutSecs: 600, testCluster: false };

describe('parseArgs', () => {
  it('reads the options', () => {
    expect(parseArgs(['run', '--seed', '7', '--bare', '--record=t.jsonl', 'x.sh'])).toEqual({ file: 'x.sh', seed: 7, bare: true, record: 't.jsonl', lineTimeoutSecs: 600, testCluster: false });
    expect(parseArgs(['run', '-'])).toMatchObject({ file: '-' });
    expect(parseArgs(['run'])).toMatch(/missing FILE/);
    expect(parseArgs(['run', '--nope', 'x'])).toMatch(/unknown option: --nope/);
    expect(parseArgs(['frobnicate'])).toMatch(/unknown command/);
  });
});

describe('bookshopFiles', () => {
  it('holds the repository files the shell starts in', () => {
    const files = bookshopFiles();
    expect(Object.keys(files)).toContain('cluster/kind.yaml');
    expect(Object.keys(files)).toContain('manifests/bookshop/kustomization.yaml');
  });
});

describe('runScript', () => {
  it('runs the seed lines on the booted bookshop and prints a transcript', () => {
    const { transcript } = runScript(SEED_SCRIPT, opts);
    const lines = transcript.split('\n');
    expect(lines[0]).toBe('$ kubectl get pods -n bookshop');
    expect(lines[1]).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE$/);
    expect(transcript).toContain('$ docker exec k8s-lab-control-plane ls /etc/kubernetes/manifests/\netcd.yaml\nkube-apiserver.yaml\nkube-controller-manager.yaml\nkube-scheduler.yaml\n');
    expect(transcript).toContain("$ docker exec k8s-lab-worker sh -c 'kill $(pgrep kubelet)'\n$ sleep 2\n$ docker exec k8s-lab-worker systemctl is-active kubelet\nactivating\n");
    expect(transcript).toContain('$ cat <<EOF | grep -c kind\n> kind: Pod\n> kind: Service\n> EOF\n2\n');
  });

  it('is deterministic: same seed and script, same bytes', () => {
    const a = runScript(SEED_SCRIPT, { ...opts, seed: 5 });
    const b = runScript(SEED_SCRIPT, { ...opts, seed: 5 });
    expect(a.transcript).toBe(b.transcript);
    expect(a.trace).toBe(b.trace);
    const c = runScript('kubectl get pods -n kube-system -o name | head -2\n', { ...opts, seed: 6, bare: true });
    const d = runScript('kubectl get pods -n kube-system -o name | head -2\n', { ...opts, seed: 7, bare: true });
    expect(c.transcript).not.toBe(d.transcript);
  });

  it('runs kubectl on the test cluster', () => {
    const { transcript } = runScript('kubectl get nodes -o name\ndocker ps\n', { ...opts, testCluster: true });
    expect(transcript).toBe('$ kubectl get nodes -o name\nnode/cp-1\nnode/worker-1\nnode/worker-2\n$ docker ps\nbash: docker: command not found\n');
  });
});

describe('main', () => {
  it('reads the script from stdin with -, prints the transcript, writes the trace, exits 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-cli-'));
    const record = join(dir, 'trace.jsonl');
    const t = io('kind get clusters\nfalse\n');
    expect(main(['run', '--bare', '--record', record, '-'], t.io)).toBe(0);
    expect(t.out.join('')).toBe('$ kind get clusters\nk8s-lab\n$ false\n');
    const entries = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(entries.some((e) => e.component === 'shell' && e.message === '$ kind get clusters')).toBe(true);
  });

  it('reads a kind configuration with --cluster and reports usage errors with 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-cli-'));
    const cfg = join(dir, 'kind.yaml');
    writeFileSync(cfg, 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nname: tiny\nnodes:\n- role: control-plane\n- role: worker\n');
    const t = io('kind get nodes --name tiny\n');
    expect(main(['run', '--bare', '--cluster', cfg, '-'], t.io)).toBe(0);
    expect(t.out.join('')).toBe('$ kind get nodes --name tiny\ntiny-worker\ntiny-control-plane\n');
    const u = io();
    expect(main(['run'], u.io)).toBe(2);
    expect(main(['run', join(dir, 'missing.sh')], u.io)).toBe(2);
  });
});
