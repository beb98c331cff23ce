/**
 * A pod created in a namespace the moment after the namespace: the ServiceAccount admission
 * plugin holds the request while it polls for the `default` ServiceAccount (10 tries,
 * 100-199 ms apart), so the create succeeds once the ServiceAccount controller made it - and
 * fails after the whole wait when no controller will (kube-controller-manager stopped).
 */
import { describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { story } from './storykit';
import { LINE_LATENCY_MS } from '../shell/transcript';

describe('kubectl waits where kube-apiserver holds the request', { timeout: 120_000 }, () => {
  it('create namespace, then at once run / apply / create -f a pod in it: all succeed', () => {
    const s = story({ files: bookshopFiles() });
    const t0 = s.cluster.clock.now();
    const b = s.run(`kubectl create namespace lab
kubectl run p -n lab --image=nginx:1.27
kubectl create namespace lab2
kubectl apply -n lab2 -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  containers: [{name: c, image: "nginx:1.27"}]
EOF
kubectl create namespace lab3
kubectl create -n lab3 -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: r}
spec:
  containers: [{name: c, image: "nginx:1.27"}]
EOF
`);
    expect(b.map((x) => x.output)).toEqual(['namespace/lab created\n', 'pod/p created\n', 'namespace/lab2 created\n', 'pod/q created\n', 'namespace/lab3 created\n', 'pod/r created\n']);
    // Each create waited one retry interval at most.
    expect(s.cluster.clock.now() - t0).toBeLessThan(3 * 200 + 6 * LINE_LATENCY_MS);
    s.run('sleep 10\n');
    expect(s.out('kubectl get pod p -n lab --no-headers')).toMatch(/^p +1\/1 +Running +0 /);
  });

  it('with no ServiceAccount controller the request fails after the plugin gave up, about 1-2 s later', () => {
    const s = story({ files: bookshopFiles() });
    s.run('docker exec k8s-lab-control-plane mv /etc/kubernetes/manifests/kube-controller-manager.yaml /root/\nsleep 5\n');
    expect(s.out('kubectl create namespace lab')).toBe('namespace/lab created\n');
    const t0 = s.cluster.clock.now();
    expect(s.out('kubectl run p -n lab --image=nginx:1.27')).toBe('Error from server (Forbidden): pods "p" is forbidden: error looking up service account lab/default: serviceaccount "default" not found\n');
    const waited = s.cluster.clock.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(1800);
    // A named ServiceAccount is looked up once: no wait.
    const t1 = s.cluster.clock.now();
    const b = s.run(`kubectl apply -n lab -f - <<EOF
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  serviceAccountName: robot
  containers: [{name: c, image: "nginx:1.27"}]
EOF
`);
    expect(b[0].output).toBe('Error from server (Forbidden): error when creating "STDIN": pods "q" is forbidden: error looking up service account lab/robot: serviceaccount "robot" not found\n');
    expect(s.cluster.clock.now() - t1).toBe(LINE_LATENCY_MS);
  });
});
