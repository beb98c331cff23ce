/**
 * Which container `kubectl logs` / `exec` pick without `-c`, and how they say so
 * (podcmd.FindOrDefaultContainerByName, AllContainerNames: containers, then ephemeral, then init;
 * logsforobject.go for the annotation that names no container).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster, type Cluster } from '../../engine/cluster';
import { createPlaygroundShell } from '../playground';
import { MemoryFiles } from '../files';
import { runToCompletion, type Shell } from '../shell';

let cluster: Cluster;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

const pod = (name: string, annotation?: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}${annotation ? `\n  annotations:\n    kubectl.kubernetes.io/default-container: ${annotation}` : ''}
spec:
  initContainers:
  - name: init
    image: busybox:1.36
    command: ['sh', '-c', 'echo init done']
  containers:
  - name: a
    image: busybox:1.36
    command: ['sh', '-c', 'echo from a; sleep 3600']
  - name: b
    image: busybox:1.36
    command: ['sh', '-c', 'echo from b; sleep 3600']
`;

beforeAll(() => {
  cluster = bootedCluster({ seed: 19, bare: true });
  shell = createPlaygroundShell({ cluster, files: new MemoryFiles({ 'two.yaml': pod('two'), 'ann.yaml': pod('ann', 'b'), 'bad.yaml': pod('bad', 'nope') }) });
  for (const f of ['two', 'ann', 'bad']) run(`kubectl apply -f ${f}.yaml`);
  run('sleep 20');
});

describe('the defaulted container', () => {
  it('names the containers, then the init containers', () => {
    expect(run('kubectl logs two').text).toBe('Defaulted container "a" out of: a, b, init (init)\nfrom a\n');
    expect(run('kubectl exec two -- hostname').text).toBe('Defaulted container "a" out of: a, b, init (init)\ntwo\n');
    expect(run('kubectl logs two -c init').text).toBe('init done\n');
  });

  it('follows the default-container annotation silently; one naming no container is skipped', () => {
    expect(run('kubectl logs ann').text).toBe('from b\n');
    expect(run('kubectl logs bad').text).toBe('Default container name "nope" not found in pod bad\nDefaulted container "a" out of: a, b, init (init)\nfrom a\n');
    expect(run('kubectl exec bad -- hostname').text).toBe('Defaulted container "a" out of: a, b, init (init)\nbad\n');
  });
});
