/**
 * sed on files (GNU sed 4.9): `sed -i` edits a manifest in place, the way a learner changes the
 * bookshop's files before `kubectl diff -k`; without -i the files are one stream (line numbers
 * across them), with -s each on its own; GNU's messages and statuses for what cannot be read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootedCluster } from '../engine/cluster';
import { bookshopFiles } from '../cli';
import { createPlaygroundShell } from './playground';
import { MemoryFiles } from './files';
import { runToCompletion, type Shell } from './shell';

let files: MemoryFiles;
let shell: Shell;
const run = (line: string) => runToCompletion(shell, line);

beforeAll(() => {
  files = new MemoryFiles(bookshopFiles());
  shell = createPlaygroundShell({ cluster: bootedCluster({ seed: 7 }), files });
});

describe('sed on files', () => {
  it('sed -i changes the manifest, and kubectl diff -k shows what the next apply changes (exit 1)', () => {
    expect(run('kubectl diff -k manifests/bookshop')).toMatchObject({ text: '', exitCode: 0 });
    expect(run("sed -i 's/replicas: 2/replicas: 3/' manifests/bookshop/catalog.yaml")).toMatchObject({ text: '', exitCode: 0 });
    expect(run('grep replicas: manifests/bookshop/catalog.yaml')).toMatchObject({ text: '  replicas: 3\n', exitCode: 0 });
    const diff = run('kubectl diff -k manifests/bookshop');
    expect(diff.exitCode).toBe(1);
    expect(diff.text).toMatch(/^diff -u -N \/tmp\/LIVE-\d+\/apps\.v1\.Deployment\.bookshop\.catalog \/tmp\/MERGED-\d+\/apps\.v1\.Deployment\.bookshop\.catalog\n/);
    expect(diff.text).toContain('\n-  replicas: 2\n+  replicas: 3\n');
    // The live Deployment is untouched.
    expect(run('kubectl get deploy catalog -n bookshop -o jsonpath={.spec.replicas}').text).toBe('2');
  });

  it('-iSUFFIX keeps the original as FILE+SUFFIX', () => {
    expect(run("sed -i.bak 's/image: bookshop:v1/image: bookshop:v2/' manifests/bookshop/web.yaml").exitCode).toBe(0);
    expect(run('grep -c bookshop:v2 manifests/bookshop/web.yaml manifests/bookshop/web.yaml.bak')).toMatchObject({
      text: 'manifests/bookshop/web.yaml:1\nmanifests/bookshop/web.yaml.bak:0\n',
    });
  });

  it('files without -i are one stream; -s takes each file on its own', () => {
    expect(run("sed -n '1,2p' manifests/bookshop/kustomization.yaml manifests/bookshop/catalog.yaml").text).toBe(
      files.read('manifests/bookshop/kustomization.yaml')!.split('\n').slice(0, 2).map((l) => `${l}\n`).join(''),
    );
    expect(run("sed -s -n '1p' manifests/bookshop/catalog.yaml manifests/bookshop/orders.yaml")).toMatchObject({
      text: 'apiVersion: apps/v1\napiVersion: apps/v1\n',
      exitCode: 0,
    });
  });

  it('inside a node: sed -i on a static pod manifest, and the kubelet runs the edited pod', () => {
    const file = '/etc/kubernetes/manifests/kube-scheduler.yaml';
    expect(run(`docker exec k8s-lab-control-plane sed -i 's#kube-scheduler:v1.35.0#kube-scheduler:v9.9.9#' ${file}`)).toMatchObject({ text: '', exitCode: 0 });
    expect(run(`docker exec k8s-lab-control-plane grep image: ${file}`).text).toBe('    image: registry.k8s.io/kube-scheduler:v9.9.9\n');
    run('sleep 60');
    expect(run('kubectl get pods -n kube-system -l component=kube-scheduler -o jsonpath={.items[0].spec.containers[0].image}').text).toBe('registry.k8s.io/kube-scheduler:v9.9.9');
  });

  it("GNU sed's messages: a missing file (2), a directory (4), -i without files (4)", () => {
    expect(run('sed s/a/b/ nope.yaml')).toMatchObject({ text: "sed: can't read nope.yaml: No such file or directory\n", exitCode: 2 });
    expect(run('sed s/a/b/ manifests')).toMatchObject({ text: 'sed: read error on manifests: Is a directory\n', exitCode: 4 });
    expect(run('sed -i s/a/b/ manifests')).toMatchObject({ text: "sed: couldn't edit manifests: not a regular file\n", exitCode: 4 });
    expect(run('sed -i s/a/b/')).toMatchObject({ text: 'sed: no input files\n', exitCode: 4 });
  });
});
