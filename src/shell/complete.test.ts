import { describe, expect, it } from 'vitest';
import { complete, type CompletionSource } from './complete';
import { BUILTIN_TYPES } from '../engine/api/registry';

/** A source over a fixed cluster: the bookshop's pods and deployments, three kind nodes. */
function source(): CompletionSource {
  const objects: Record<string, Record<string, string[]>> = {
    pods: { bookshop: ['catalog-7d4b9c-abcde', 'catalog-7d4b9c-fghij', 'orders-5f6d7-klmno', 'postgres-0'], 'kube-system': ['coredns-668d6bf9bc-x1'] },
    deployments: { bookshop: ['catalog', 'orders', 'web'] },
    namespaces: { '': ['bookshop', 'default', 'kube-system'] },
    nodes: { '': ['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2'] },
  };
  return {
    commands: ['cat', 'clear', 'docker', 'echo', 'exit', 'grep', 'help', 'kind', 'kubectl', 'ls', 'sleep'],
    resources: BUILTIN_TYPES,
    names: (resource, _group, ns) => {
      const byNs = objects[resource] ?? {};
      return byNs[''] ?? byNs[ns] ?? [];
    },
    containers: () => ['k8s-lab-control-plane', 'k8s-lab-worker', 'k8s-lab-worker2'],
    files: () => ['Makefile', 'manifests', 'kind-config.yaml'],
  };
}

const at = (line: string) => complete(line, line.length, source());

describe('complete', () => {
  it('completes a resource type to its plural name: kubectl get depl -> deployments', () => {
    expect(at('kubectl get depl')).toEqual({ start: 12, end: 16, candidates: ['deployments'] });
  });

  it('lists command words by prefix', () => {
    expect(at('ku').candidates).toEqual(['kubectl']);
    expect(at('c').candidates).toEqual(['cat', 'clear']);
    expect(at('kubectl get pods | gr').candidates).toEqual(['grep']);
  });

  it('completes kubectl subcommands and the subcommands of groups', () => {
    expect(at('kubectl ge').candidates).toEqual(['get']);
    expect(at('kubectl rollout st').candidates).toEqual(['status']);
    expect(at('kubectl de').candidates).toEqual(['delete', 'describe']);
  });

  it('completes flags of the subcommand and the global ones', () => {
    expect(at('kubectl get pods --all-n').candidates).toEqual(['--all-namespaces']);
    expect(at('kubectl get pods --names').candidates).toEqual(['--namespace']);
    expect(at('kubectl scale deployment catalog --repl').candidates).toEqual(['--replicas']);
  });

  it('completes pod names in the namespace -n names', () => {
    expect(at('kubectl delete pod cat -n book').candidates).toEqual(['bookshop']); // the cursor is after book
    const line = 'kubectl delete pod -n bookshop cat';
    expect(complete(line, line.length, source()).candidates).toEqual(['catalog-7d4b9c-abcde', 'catalog-7d4b9c-fghij']);
    const mid = 'kubectl delete pod cat -n bookshop';
    expect(complete(mid, 'kubectl delete pod cat'.length, source()).candidates).toEqual(['catalog-7d4b9c-abcde', 'catalog-7d4b9c-fghij']);
    expect(at('kubectl get pods -n kube-system co').candidates).toEqual(['coredns-668d6bf9bc-x1']);
    expect(at('kubectl get pods --namespace=bookshop po').candidates).toEqual(['postgres-0']);
  });

  it('completes TYPE/NAME and namespace values', () => {
    expect(at('kubectl -n bookshop rollout status deployment/ca').candidates).toEqual(['deployment/catalog']);
    expect(at('kubectl get pods -n book').candidates).toEqual(['bookshop']);
    expect(at('kubectl get pods --namespace=kube').candidates).toEqual(['--namespace=kube-system']);
    expect(at('kubectl get pods -o ya').candidates).toEqual(['yaml']);
  });

  it('completes pods for logs and nodes for cordon', () => {
    expect(at('kubectl logs -n bookshop ord').candidates).toEqual(['orders-5f6d7-klmno']);
    expect(at('kubectl cordon k8s-lab-w').candidates).toEqual(['k8s-lab-worker', 'k8s-lab-worker2']);
  });

  it('completes docker subcommands and node containers', () => {
    expect(at('docker ex').candidates).toEqual(['exec']);
    expect(at('docker exec -it k8s-lab-c').candidates).toEqual(['k8s-lab-control-plane']);
    expect(at('docker exec -it k8s-lab-control-plane ba').candidates).toEqual(['bash']);
    expect(at('docker stop k8s-lab-worker').candidates).toEqual(['k8s-lab-worker', 'k8s-lab-worker2']);
  });

  it('completes kind words and file names', () => {
    expect(at('kind get n').candidates).toEqual(['nodes']);
    expect(at('kubectl apply -f ma').candidates).toEqual(['manifests']);
    expect(at('cat Ma').candidates).toEqual(['Makefile']);
  });
});
