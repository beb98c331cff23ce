/**
 * A seventh fresh-user pass, engine-level gaps on the product's default cluster (k8s-lab with the
 * bookshop up): kubeadm's `kubeadm:cluster-admins` ClusterRoleBinding, the kubelet's probe
 * User-Agent, `nginx -v/-V/-t` in a container.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story, type Story } from './storykit';

describe('fidelity pass 7: engine-level gaps on the default cluster', { timeout: 120_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 120_000);

  it('kubeadm init created the kubeadm:cluster-admins ClusterRoleBinding (kubeadm >= 1.29)', () => {
    const wide = s.out('kubectl get clusterrolebinding kubeadm:cluster-admins -o wide');
    expect(wide).toBe('NAME                     ROLE                        AGE   USERS   GROUPS                   SERVICEACCOUNTS\nkubeadm:cluster-admins   ClusterRole/cluster-admin   32s           kubeadm:cluster-admins   \n');
    const y = s.out('kubectl get clusterrolebinding kubeadm:cluster-admins -o yaml');
    expect(y).toContain('roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: cluster-admin\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: Group\n  name: kubeadm:cluster-admins\n');
    // --as-group is decided by that binding.
    expect(s.out('kubectl auth can-i delete pods -n kube-system --as=alice --as-group=kubeadm:cluster-admins')).toBe('yes\n');
    expect(s.out('kubectl auth can-i delete pods -n kube-system --as=alice')).toBe('no\n');
  });

  it("the kubelet's HTTP probes send User-Agent kube-probe/<major>.<minor> of the kubelet (v1.35.0)", () => {
    s.run(`kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: probed
spec:
  containers:
  - name: web
    image: nginx:1.27
    readinessProbe:
      httpGet:
        path: /
        port: 80
      periodSeconds: 5
EOF
sleep 20
`);
    expect(s.out('kubectl get node k8s-lab-worker -o jsonpath={.status.nodeInfo.kubeletVersion}')).toBe('v1.35.0\n');
    const logs = s.out('kubectl logs probed');
    expect(logs).toMatch(/"GET \/ HTTP\/1\.1" 200 615 "-" "kube-probe\/1\.35" "-"\n/);
    expect(logs).not.toContain('kube-probe/1.36');
  });

  it('nginx -v / -V / -t print on stderr and exit 0 instead of starting a second server', () => {
    expect(s.run('kubectl exec probed -- nginx -v\necho rc=$?\n').map((b) => b.output)).toEqual([expect.stringMatching(/^nginx version: nginx\/1\.27\.\d+\n$/), 'rc=0\n']);
    const big = s.out('kubectl exec probed -- nginx -V');
    expect(big).toMatch(/^nginx version: nginx\/1\.27\.\d+\nbuilt by gcc 12\.2\.0 \(Debian [^)]+\) \nbuilt with OpenSSL 3\.\S+ .*\nTLS SNI support enabled\nconfigure arguments: --prefix=\/etc\/nginx --sbin-path=\/usr\/sbin\/nginx /);
    expect(big).toContain(' --with-http_v3_module ');
    expect(s.out('kubectl exec probed -- nginx -t')).toBe('nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: the configuration file /etc/nginx/nginx.conf test is successful\n');
    // stderr, as a redirect shows, and the server keeps serving alone.
    expect(s.out('kubectl exec probed -- sh -c "nginx -v 2>/dev/null; echo done"')).toBe('done\n');
    expect(s.out('kubectl exec probed -- sh -c "nginx -v 2>&1 >/dev/null; echo rc=$?"')).toMatch(/^nginx version: nginx\/1\.27\.\d+\nrc=0\n$/);
  });

  it("the controllers' system:controller:* ClusterRoles and their bindings to kube-system ServiceAccounts (controller_policy.go)", () => {
    const roles = s.out('kubectl get clusterroles -o name').split('\n').filter((l) => l.startsWith('clusterrole.rbac.authorization.k8s.io/system:controller:'));
    // 37 for 1.35's default feature gates (device-taint-eviction-controller needs DRADeviceTaints).
    expect(roles).toHaveLength(37);
    expect(roles).toContain('clusterrole.rbac.authorization.k8s.io/system:controller:replicaset-controller');
    expect(roles).not.toContain('clusterrole.rbac.authorization.k8s.io/system:controller:device-taint-eviction-controller');
    expect(s.out('kubectl get clusterrolebinding system:controller:job-controller -o wide')).toMatch(/^NAME {31}ROLE {43}AGE {3}USERS {3}GROUPS {3}SERVICEACCOUNTS\nsystem:controller:job-controller {3}ClusterRole\/system:controller:job-controller {3}\S+ +kube-system\/job-controller\n$/);
    expect(s.out('kubectl describe clusterrole system:controller:replicaset-controller')).toContain(
      '  Resources                          Non-Resource URLs  Resource Names  Verbs\n  ---------                          -----------------  --------------  -----\n  pods                               []                 []              [create delete list patch watch]\n',
    );
    expect(s.out('kubectl auth can-i create pods --as=system:serviceaccount:kube-system:replicaset-controller -n bookshop')).toBe('yes\n');
    expect(s.out('kubectl auth can-i create deployments.apps --as=system:serviceaccount:kube-system:replicaset-controller -n bookshop')).toBe('no\n');
  });

  it("an exec session dies with its container's main process: exit code 137", () => {
    s.run(`kubectl run short --image=busybox:1.36 --restart=Never -- sh -c 'sleep 12; exit 3'
kubectl wait --for=condition=Ready pod/short --timeout=60s
`);
    const started = s.cluster.clock.now();
    const out = s.run('kubectl exec short -- sleep 100\necho rc=$?\n').map((b) => b.output);
    expect(out).toEqual(['command terminated with exit code 137\n', 'rc=137\n']);
    // It ended when the container's init exited (within its 12 s), not after sleep's 100 s.
    expect(s.cluster.clock.now() - started).toBeLessThan(15_000);
    s.run('sleep 5\n');
    expect(s.out("kubectl get pod short -o jsonpath='{.status.containerStatuses[0].state.terminated.exitCode}'")).toBe('3\n');
  });
});
