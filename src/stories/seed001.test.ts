/**
 * The stories of ../shared/seeds/001 ("The Cluster That Puts It Back"), typed into the playground
 * shell on the product's default cluster (k8s-lab with the bookshop up), asserting the lines the
 * chapter shows - exact where the chapter prints exact output, with generated name suffixes and
 * ages normalized.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { normalizeNames, rows, story, type Story } from './storykit';

/** The chapter's listing, byte for byte. */
const SEED_KUBE_SYSTEM = `NAME                                            NODE
coredns-589f44dc88-8d99k                        k8s-lab-control-plane
coredns-589f44dc88-kzr5x                        k8s-lab-control-plane
etcd-k8s-lab-control-plane                      k8s-lab-control-plane
kindnet-46mqk                                   k8s-lab-control-plane
kindnet-9vtqq                                   k8s-lab-worker2
kindnet-wmxxt                                   k8s-lab-worker
kube-apiserver-k8s-lab-control-plane            k8s-lab-control-plane
kube-controller-manager-k8s-lab-control-plane   k8s-lab-control-plane
kube-proxy-4lhvp                                k8s-lab-control-plane
kube-proxy-pkhvx                                k8s-lab-worker2
kube-proxy-tp9xb                                k8s-lab-worker
kube-scheduler-k8s-lab-control-plane            k8s-lab-control-plane
`;

describe('seed 001: the control plane is made of pods', { timeout: 120_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 120_000);

  it('kubectl get pods -n kube-system with custom columns lists what the chapter lists', () => {
    const out = s.out('kubectl get pods -n kube-system -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName');
    const lines = out.split('\n');
    // Same header and column width: the longest name (kube-controller-manager-...) sets it.
    expect(lines[0]).toBe(SEED_KUBE_SYSTEM.split('\n')[0]);
    for (const l of lines.filter(Boolean)) expect(/^\S+\s+/.exec(l)![0].length).toBe(48);
    // The same rows, up to the random suffixes (and which suffix sorts first).
    expect(rows(normalizeNames(out)).sort()).toEqual(rows(normalizeNames(SEED_KUBE_SYSTEM)).sort());
    // Names sorted as kubectl sorts them.
    const names = lines.slice(1).filter(Boolean).map((l) => l.split(/\s+/)[0]);
    expect(names).toEqual([...names].sort());
  });

  it('the static pods are files on the control-plane node', () => {
    expect(s.out('docker exec k8s-lab-control-plane ls /etc/kubernetes/manifests/')).toBe('etcd.yaml\nkube-apiserver.yaml\nkube-controller-manager.yaml\nkube-scheduler.yaml\n');
  });

  it("a mirror pod's owner is the Node", () => {
    expect(s.out("kubectl get pod -n kube-system kube-scheduler-k8s-lab-control-plane \\\n    -o jsonpath='{.metadata.ownerReferences[0].kind}'")).toBe('Node\n');
    expect(s.out("kubectl get pod kube-apiserver-k8s-lab-control-plane -n kube-system -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}'")).toBe('Node/k8s-lab-control-plane\n');
    // The kubelet's mirror annotation, and no controller.
    expect(s.out("kubectl get pod kube-apiserver-k8s-lab-control-plane -n kube-system -o jsonpath='{.metadata.ownerReferences[0].controller}'")).toBe('true\n');
  });

  it('componentstatuses answers Healthy under its deprecation warning', () => {
    const out = s.out('kubectl get componentstatuses');
    // tabwriter pads the empty ERROR column's predecessor; the chapter's copy lost the trailing blanks.
    expect(out.split('\n').map((l) => l.trimEnd()).join('\n')).toBe(`Warning: v1 ComponentStatus is deprecated in v1.19+
NAME                 STATUS    MESSAGE   ERROR
scheduler            Healthy   ok
controller-manager   Healthy   ok
etcd-0               Healthy   ok
`);
    // The warning goes to stderr, before the table, as kubectl's warning handler writes it.
    expect(s.out('kubectl get componentstatuses 2>/dev/null | head -1')).toBe('NAME                 STATUS    MESSAGE   ERROR\n');
  });
});

describe('seed 001: the loop, watched', { timeout: 120_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 120_000);

  it('a deleted catalog pod is replaced by a new one about two seconds later, owned by ReplicaSet then Deployment', () => {
    const before = s.out('kubectl get pods -n bookshop -l app=catalog -o name').trim().split('\n').map((n) => n.replace('pod/', ''));
    expect(before).toHaveLength(2);
    const [victim, survivor] = before;
    const hash = victim.split('-')[1];
    expect(survivor.split('-')[1]).toBe(hash);
    expect(s.out(`kubectl delete pod ${victim} -n bookshop`)).toBe(`pod "${victim}" deleted from bookshop namespace\n`);
    s.run('sleep 2\n');
    const after = s.out('kubectl get pods -n bookshop -l app=catalog');
    const table = after.trim().split('\n');
    expect(table[0]).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE$/);
    const byName = new Map(table.slice(1).map((l) => [l.split(/\s+/)[0], l.split(/\s+/)] as const));
    expect(byName.size).toBe(2);
    expect(byName.has(victim)).toBe(false);
    expect(byName.get(survivor)![2]).toBe('Running');
    const fresh = [...byName.keys()].find((n) => n !== survivor)!;
    expect(fresh).toMatch(new RegExp(`^catalog-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    const [, ready, status, restarts, age] = byName.get(fresh)!;
    expect(['ContainerCreating', 'Running']).toContain(status);
    expect(ready).toMatch(/^[01]\/1$/);
    expect(restarts).toBe('0');
    expect(age).toBe('2s');
    // "So who did it? Ask the pod", then ask its owner.
    expect(s.out(`kubectl get pod ${fresh} -n bookshop \\\n    -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}'`)).toBe(`ReplicaSet/catalog-${hash}\n`);
    expect(s.out(`kubectl get rs catalog-${hash} -n bookshop -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}'`)).toBe('Deployment/catalog\n');
    // A new pod with a new IP.
    const ips = s.out("kubectl get pods -n bookshop -l app=catalog -o jsonpath='{range .items[*]}{.status.podIP}{\"\\n\"}{end}'").trim().split('\n');
    expect(new Set(ips).size).toBe(2);
    // The ReplicaSet says so in its events.
    expect(s.out(`kubectl get events -n bookshop --field-selector reason=SuccessfulCreate -o custom-columns=MSG:.message --no-headers`)).toContain(`Created pod: ${fresh}\n`);
  });

  it('a bare pod has no owner, so nothing brings it back', () => {
    s.run('kubectl run solo -n bookshop --image=nginx:1.27\nsleep 10\n');
    expect(s.out(`kubectl get pod solo -n bookshop -o jsonpath='{.metadata.ownerReferences}'`)).toBe('');
    s.run('kubectl delete pod solo -n bookshop\nsleep 30\n');
    expect(s.out('kubectl get pod solo -n bookshop')).toBe('Error from server (NotFound): pods "solo" not found\n');
  });
});
