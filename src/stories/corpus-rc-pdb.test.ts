/**
 * Corpus manifests (fixtures/corpus/manifests/INDEX.md) that need ReplicationControllers and
 * PodDisruptionBudgets, applied through the playground shell on the product's default cluster
 * (k8s-lab, bookshop up), checked against the INDEX.md expectations:
 *
 * - #7 website__controllers-replication.yaml: 3 pods labelled `app=nginx` on the workers.
 * - #9 website__application-zookeeper.yaml (with the default local-path storage): zk-0, zk-1,
 *   zk-2 start in order; PDB `zk-pdb` ALLOWED DISRUPTIONS 1 when all 3 are Ready, 0 otherwise.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { rows, story } from './storykit';

const corpus = (f: string) => readFileSync(new URL(`../../fixtures/corpus/manifests/${f}`, import.meta.url), 'utf8');
const applyHeredoc = (yaml: string) => `cat <<'EOFX' | kubectl apply -f -\n${yaml.trimEnd()}\nEOFX`;

describe('corpus: ReplicationController and PodDisruptionBudget', { timeout: 180_000 }, () => {
  it('#7 website__controllers-replication.yaml: rc/nginx runs 3 pods labelled app=nginx on the workers', () => {
    const s = story({ files: bookshopFiles() });
    expect(s.out(applyHeredoc(corpus('website__controllers-replication.yaml')))).toBe('replicationcontroller/nginx created\n');
    s.run('sleep 30\n');
    expect(rows(s.out('kubectl get rc nginx'))).toEqual(['NAME | DESIRED | CURRENT | READY | AGE', 'nginx | 3 | 3 | 3 | 30s']);
    const pods = rows(s.out('kubectl get pods -l app=nginx -o wide --no-headers'));
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      const [name, ready, status, , , , node] = p.split(' | ');
      expect(name).toMatch(/^nginx-[a-z0-9]{5}$/);
      expect([ready, status]).toEqual(['1/1', 'Running']);
      expect(['k8s-lab-worker', 'k8s-lab-worker2']).toContain(node);
    }
    const events = s.out('kubectl get events --field-selector involvedObject.kind=ReplicationController -o custom-columns=REASON:.reason,SOURCE:.source.component --no-headers');
    expect(rows(events)).toEqual(Array(3).fill('SuccessfulCreate | replication-controller'));
    // Deleting the RC takes its pods with it (garbage collection through ownerReferences).
    expect(s.out('kubectl delete rc nginx')).toBe('replicationcontroller "nginx" deleted from default namespace\n');
    s.run('sleep 60\n');
    expect(s.out('kubectl get pods -l app=nginx')).toBe('No resources found in default namespace.\n');
  });

  it('#9 website__application-zookeeper.yaml: zk-0..2 start in order; zk-pdb allows 0 disruptions until all 3 are Ready, then 1', () => {
    const s = story({ files: bookshopFiles() });
    expect(s.out(applyHeredoc(corpus('website__application-zookeeper.yaml')))).toBe(
      'service/zk-hs created\nservice/zk-cs created\npoddisruptionbudget.policy/zk-pdb created\nstatefulset.apps/zk created\n',
    );
    s.run('sleep 5\n');
    expect(rows(s.out('kubectl get pdb zk-pdb'))).toEqual(['NAME | MIN AVAILABLE | MAX UNAVAILABLE | ALLOWED DISRUPTIONS | AGE', 'zk-pdb | N/A | 1 | 0 | 5s']);
    s.run('sleep 120\n');
    const pods = rows(s.out('kubectl get pods -l app.kubernetes.io/name=zk --no-headers'));
    expect(pods.map((p) => p.split(' | ').slice(0, 3).join(' '))).toEqual(['zk-0 1/1 Running', 'zk-1 1/1 Running', 'zk-2 1/1 Running']);
    const created = s
      .out(`kubectl get pods -l app.kubernetes.io/name=zk -o jsonpath='{range .items[*]}{.metadata.creationTimestamp}{"\\n"}{end}'`)
      .trimEnd()
      .split('\n');
    expect([...created].sort()).toEqual(created);
    expect(new Set(created).size).toBe(3);
    expect(rows(s.out('kubectl get pdb zk-pdb'))[1]).toMatch(/^zk-pdb \| N\/A \| 1 \| 1 \| \d+m\d+s$/);
    expect(s.out(`kubectl get pdb zk-pdb -o jsonpath='{.status.currentHealthy} {.status.desiredHealthy} {.status.expectedPods} {.status.conditions[0].reason}'`)).toBe('3 2 3 SufficientPods\n');
  });
});
