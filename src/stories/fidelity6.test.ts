/**
 * A second fresh-user pass over what a learner types on the product's default cluster (k8s-lab
 * with the bookshop up): `kubectl describe` of the kinds that used to fall back to the generic
 * describer, and the mirror pods of the control plane as kubectl describes them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story, type Story } from './storykit';

describe('fidelity pass 6: describe on the default cluster', { timeout: 120_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 120_000);

  it('a mirror pod has no Service Account (the ServiceAccount plugin leaves mirror pods alone)', () => {
    const out = s.out('kubectl describe pod -n kube-system kube-scheduler-k8s-lab-control-plane');
    // describe.go prints `Service Account:` only when spec.serviceAccountName is set.
    expect(out).toContain('\nPriority Class Name:  system-node-critical\nNode:                 k8s-lab-control-plane/172.18.0.2\n');
    expect(out).not.toContain('Service Account:');
    expect(out).toContain('Controlled By:  Node/k8s-lab-control-plane\n');
    expect(s.out("kubectl get pod -n kube-system etcd-k8s-lab-control-plane -o jsonpath='{.spec.serviceAccountName}'")).toBe('');
    // An ordinary pod still gets the default ServiceAccount.
    expect(s.out("kubectl get pod -n bookshop -l app=web -o jsonpath='{.items[0].spec.serviceAccountName}'")).toBe('default\n');
  });

  it('describe endpoints lists the subsets, not the generic dump', () => {
    const out = s.out('kubectl describe endpoints kubernetes');
    expect(out).toBe(`Name:         kubernetes
Namespace:    default
Labels:       endpointslice.kubernetes.io/skip-mirror=true
Annotations:  <none>
Subsets:
  Addresses:          172.18.0.2
  NotReadyAddresses:  <none>
  Ports:
    Name   Port  Protocol
    ----   ----  --------
    https  6443  TCP

Events:  <none>
`);
  });

  it("describe pv / storageclass / pvc of the bookshop's volume", () => {
    const pv = s.out('kubectl describe pv');
    expect(pv).toMatch(/^Name: {14}pvc-[0-9a-f-]{36}\nLabels: {12}<none>\n/);
    expect(pv).toContain('StorageClass:      standard\nStatus:            Bound\nClaim:             bookshop/books-data\nReclaim Policy:    Delete\nAccess Modes:      RWO\n');
    expect(pv).toMatch(/\nNode Affinity: {5}\n {2}Required Terms: {2}\n {4}Term 0: {8}kubernetes\.io\/hostname in \[k8s-lab-worker2?\]\n/);
    expect(pv).toMatch(/\nSource:\n {4}Type: {10}HostPath \(bare host directory volume\)\n {4}Path: {10}\/var\/local-path-provisioner\/pvc-[0-9a-f-]+_bookshop_books-data\n {4}HostPathType: {2}DirectoryOrCreate\nEvents: {12}<none>\n$/);
    const sc = s.out('kubectl describe sc standard');
    expect(sc).toMatch(/^Name: {12}standard\nIsDefaultClass: {2}Yes\nAnnotations: {5}/);
    expect(sc).toContain('\nProvisioner:           rancher.io/local-path\nParameters:            <none>\nAllowVolumeExpansion:  <unset>\nMountOptions:          <none>\nReclaimPolicy:         Delete\nVolumeBindingMode:     WaitForFirstConsumer\nEvents:                <none>\n');
  });

  it('describe clusterrole / clusterrolebinding: the PolicyRule and Subjects tables', () => {
    expect(s.out('kubectl describe clusterrolebinding kindnet')).toBe(`Name:         kindnet
Labels:       <none>
Annotations:  <none>
Role:
  Kind:  ClusterRole
  Name:  kindnet
Subjects:
  Kind            Name     Namespace
  ----            ----     ---------
  ServiceAccount  kindnet  kube-system
`);
    const role = s.out('kubectl describe clusterrole kindnet');
    expect(role).toMatch(/^Name: {9}kindnet\nLabels: {7}<none>\nAnnotations: {2}<none>\nPolicyRule:\n {2}Resources +Non-Resource URLs +Resource Names +Verbs\n/);
    expect(role).toMatch(/\n {2}nodes +\[\] +\[\] +\[list watch patch\]\n/);
  });

  it('a regular init container is Ready only once it has completed (prober_manager.go UpdatePodStatus)', () => {
    s.run(`kubectl apply -f - <<'YAML'
apiVersion: v1
kind: Pod
metadata:
  name: init-demo
spec:
  initContainers:
  - name: prep
    image: busybox:1.36
    command: ['sh', '-c', 'sleep 5']
  containers:
  - name: app
    image: busybox:1.36
    command: ['sleep', '3600']
YAML
sleep 3
`);
    const initReady = "kubectl get pod init-demo -o jsonpath='{.status.initContainerStatuses[0].state}{\" \"}{.status.initContainerStatuses[0].ready}'";
    expect(s.out(initReady)).toMatch(/^\{"running":\{"startedAt":"[^"]+"\}\} false\n$/);
    const during = s.out('kubectl describe pod init-demo');
    expect(during).toMatch(/Init Containers:\n {2}prep:\n[\s\S]*? {4}State: {10}Running\n {6}Started: {6}[^\n]+\n {4}Ready: {10}False\n/);
    s.run('sleep 10\n');
    expect(s.out(initReady)).toMatch(/^\{"terminated":\{[^\n]*"reason":"Completed"[^\n]*\}\} true\n$/);
    expect(s.out('kubectl describe pod init-demo')).toMatch(/ {4}State: {10}Terminated\n {6}Reason: {7}Completed\n {6}Exit Code: {4}0\n {6}Started: [^\n]+\n {6}Finished: [^\n]+\n {4}Ready: {10}True\n/);
  });

  it('crictl logs reads a container log on the node as kubectl logs reads it through the API', () => {
    const pod = s.out("kubectl get pod -n bookshop -l app=catalog -o jsonpath='{.items[0].metadata.name}'").trim();
    const node = s.out(`kubectl get pod -n bookshop ${pod} -o jsonpath='{.spec.nodeName}'`).trim();
    const id = s.out(`kubectl get pod -n bookshop ${pod} -o jsonpath='{.status.containerStatuses[0].containerID}'`).trim().replace('containerd://', '');
    const viaApi = s.out(`kubectl logs -n bookshop ${pod} --tail 2`);
    expect(viaApi.split('\n').filter(Boolean)).toHaveLength(2);
    // A 13-character ID as crictl ps prints it is enough (containerd resolves the prefix).
    expect(s.out(`docker exec ${node} crictl logs --tail 2 ${id.slice(0, 13)}`)).toBe(viaApi);
    const stamped = s.out(`docker exec ${node} crictl logs -t --tail=1 ${id}`);
    expect(stamped).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z \S/);
    expect(stamped.slice(31)).toBe(viaApi.split('\n')[1] + '\n');
    expect(s.out(`docker exec ${node} crictl logs nosuchid`)).toMatch(
      /^time="[^"]+" level=fatal msg="rpc error: code = NotFound desc = an error occurred when try to find container \\"nosuchid\\": not found"\n$/,
    );
    expect(s.out(`docker exec ${node} crictl logs`)).toMatch(/level=fatal msg="ID cannot be empty"\n$/);
  });
});
