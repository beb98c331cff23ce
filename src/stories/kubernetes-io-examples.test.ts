/**
 * The kubernetes.io tutorials' `kubectl apply -f https://k8s.io/examples/...` lines, typed on the
 * product's default cluster: "Run a Stateless Application Using a Deployment" (apply, update by
 * a second file, scale by a third), "Debugging DNS Resolution" (dnsutils and nslookup), the
 * "HorizontalPodAutoscaler Walkthrough" (php-apache and its HPA), the Jobs page's pi, the
 * liveness-probe task's exec probe, and the LimitRange and ResourceQuota task pages. The manifests are the bundled copies of kubernetes/website's
 * content/en/examples (src/shell/kubectl/web-examples.ts); a URL the site does not have is its
 * 404, and a host other than the examples' needs the internet the laptop does not have.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { rows, story, type Story } from './storykit';

describe('kubernetes.io tutorials applied from their URLs', { timeout: 180_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 180_000);

  it('Run a Stateless Application Using a Deployment: deployment.yaml, then deployment-update.yaml and deployment-scale.yaml', () => {
    expect(s.out('kubectl apply -f https://k8s.io/examples/application/deployment.yaml')).toBe('deployment.apps/nginx-deployment created\n');
    expect(s.out('kubectl rollout status deployment/nginx-deployment')).toMatch(/deployment "nginx-deployment" successfully rolled out\n$/);
    const pods = rows(s.out('kubectl get pods -l app=nginx'));
    expect(pods).toHaveLength(3);
    for (const p of pods.slice(1)) expect(p).toMatch(/^nginx-deployment-[a-z0-9]+-[a-z0-9]{5} \| 1\/1 \| Running \| 0 \| \d+s$/);
    expect(s.out('kubectl apply -f https://k8s.io/examples/application/deployment-update.yaml')).toBe('deployment.apps/nginx-deployment configured\n');
    expect(s.out('kubectl rollout status deployment/nginx-deployment')).toMatch(/deployment "nginx-deployment" successfully rolled out\n$/);
    expect(s.out("kubectl get deploy nginx-deployment -o jsonpath='{.spec.template.spec.containers[0].image}'").trim()).toBe('nginx:1.16.1');
    expect(s.out('kubectl apply -f https://k8s.io/examples/application/deployment-scale.yaml')).toBe('deployment.apps/nginx-deployment configured\n');
    s.run('sleep 20\n');
    expect(rows(s.out('kubectl get deploy nginx-deployment'))[1]).toMatch(/^nginx-deployment \| 4\/4 \| 4 \| 4 \| \d+s$/);
    // The same file through kubernetes.io itself and through GitHub's raw view is the same object.
    expect(s.out('kubectl diff -f https://kubernetes.io/examples/application/deployment-scale.yaml')).toBe('');
    expect(s.out('kubectl get -f https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/application/deployment-scale.yaml -o name')).toBe(
      'deployment.apps/nginx-deployment\n',
    );
    expect(s.out('kubectl delete -f https://k8s.io/examples/application/deployment.yaml')).toBe('deployment.apps "nginx-deployment" deleted from default namespace\n');
  });

  it('Debugging DNS Resolution: dnsutils runs, and nslookup kubernetes.default answers with the kubernetes Service', () => {
    expect(s.out('kubectl apply -f https://k8s.io/examples/admin/dns/dnsutils.yaml')).toBe('pod/dnsutils created\n');
    expect(s.out('kubectl wait --for=condition=Ready pod/dnsutils')).toBe('pod/dnsutils condition met\n');
    expect(rows(s.out('kubectl get pods dnsutils'))[1]).toMatch(/^dnsutils \| 1\/1 \| Running \| 0 \| \d+s$/);
    // dnsutils.yaml runs agnhost, whose nslookup is BIND's (bind-tools).
    expect(s.out('kubectl exec -i -t dnsutils -- nslookup kubernetes.default')).toBe(
      'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n',
    );
  });

  it('HorizontalPodAutoscaler Walkthrough: php-apache.yaml (Deployment and Service) and hpa/php-apache.yaml', () => {
    expect(s.out('kubectl apply -f https://k8s.io/examples/application/php-apache.yaml')).toBe('deployment.apps/php-apache created\nservice/php-apache created\n');
    expect(s.out('kubectl apply -f https://k8s.io/examples/application/hpa/php-apache.yaml')).toBe('horizontalpodautoscaler.autoscaling/php-apache created\n');
    s.run('sleep 30\n');
    expect(rows(s.out('kubectl get deploy php-apache'))[1]).toMatch(/^php-apache \| 1\/1 \| 1 \| 1 \| 30s$/);
    expect(rows(s.out('kubectl get hpa php-apache'))[1]).toMatch(/^php-apache \| Deployment\/php-apache \| cpu: <unknown>\/50% \| 1 \| 10 \| 1 \| 30s$/);
    const out = s.out('kubectl run -i --rm load-generator --image=busybox:1.28 --restart=Never -- wget -q -O- http://php-apache');
    expect(out.startsWith('OK!')).toBe(true);
  });

  it("Jobs: controllers/job.yaml computes pi, and the liveness task's exec probe restarts its container", () => {
    expect(s.out('kubectl apply -f https://kubernetes.io/examples/controllers/job.yaml')).toBe('job.batch/pi created\n');
    expect(s.out('kubectl wait --for=condition=complete job/pi --timeout=300s')).toBe('job.batch/pi condition met\n');
    expect(s.out('kubectl logs job/pi').startsWith('3.14159265358979323846')).toBe(true);
    expect(s.out('kubectl apply -f https://k8s.io/examples/pods/probe/exec-liveness.yaml')).toBe('pod/liveness-exec created\n');
    s.run('sleep 90\n');
    expect(rows(s.out('kubectl get pod liveness-exec'))[1]).toMatch(/^liveness-exec \| 1\/1 \| Running \| 1 \(\d+s ago\) \| 90s$/);
    expect(s.out('kubectl describe pod liveness-exec')).toContain('Container liveness failed liveness probe, will be restarted\n');
  });

  it('Configure Default Memory Requests and Limits / Memory and CPU Quotas: the LimitRange fills the pod in, the quota forbids the second pod', () => {
    s.run('kubectl create namespace default-mem-example\nkubectl create namespace quota-mem-cpu-example\n');
    expect(s.out('kubectl apply -f https://k8s.io/examples/admin/resource/memory-defaults.yaml --namespace=default-mem-example')).toBe('limitrange/mem-limit-range created\n');
    expect(s.out('kubectl apply -f https://k8s.io/examples/admin/resource/memory-defaults-pod.yaml --namespace=default-mem-example')).toBe('pod/default-mem-demo created\n');
    expect(s.out("kubectl get pod default-mem-demo -n default-mem-example -o jsonpath='{.spec.containers[0].resources}'").trim()).toBe('{"limits":{"memory":"512Mi"},"requests":{"memory":"256Mi"}}');
    expect(s.out('kubectl apply -f https://k8s.io/examples/admin/resource/quota-mem-cpu.yaml --namespace=quota-mem-cpu-example')).toBe('resourcequota/mem-cpu-demo created\n');
    expect(s.out('kubectl apply -f https://k8s.io/examples/admin/resource/quota-mem-cpu-pod.yaml --namespace=quota-mem-cpu-example')).toBe('pod/quota-mem-cpu-demo created\n');
    expect(s.out('kubectl apply -f https://k8s.io/examples/admin/resource/quota-mem-cpu-pod-2.yaml --namespace=quota-mem-cpu-example')).toBe(
      'Error from server (Forbidden): error when creating "https://k8s.io/examples/admin/resource/quota-mem-cpu-pod-2.yaml": pods "quota-mem-cpu-demo-2" is forbidden: exceeded quota: mem-cpu-demo, requested: requests.memory=700Mi, used: requests.memory=600Mi, limited: requests.memory=1Gi\n',
    );
  });

  it('a URL the site does not have is a 404; another host needs the internet the laptop lacks', () => {
    expect(s.out('kubectl apply -f https://k8s.io/examples/application/deployment-v2.yaml')).toBe(
      'error: unable to read URL "https://k8s.io/examples/application/deployment-v2.yaml", server reported 404 Not Found, status code=404\n',
    );
    expect(s.out('kubectl apply -f https://example.com/manifests/app.yaml')).toBe('Unable to connect to the server: dial tcp: lookup example.com on 127.0.0.53:53: no such host\n');
    expect(s.out('echo $?')).toBe('1\n');
  });
});
