/**
 * The HorizontalPodAutoscaler walkthrough (kubernetes.io "HorizontalPodAutoscaler Walkthrough")
 * typed on the product's default cluster, which, like every kind cluster, runs no
 * metrics-server: the HPA is created, reads `cpu: <unknown>/50%`, and says why in its conditions
 * and events; `kubectl top` has no Metrics API either. The min/max bounds still hold without
 * metrics, on the bookshop's own Deployments.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bookshopFiles } from '../cli';
import { rows, story, type Story } from './storykit';

const NO_METRICS = 'unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

describe('the HPA walkthrough on a kind cluster without metrics-server', { timeout: 180_000 }, () => {
  let s: Story;
  beforeAll(() => {
    s = story({ files: bookshopFiles() });
  }, 180_000);

  it('kubectl autoscale, then get and describe: <unknown> targets, ScalingActive False, FailedGetResourceMetric', () => {
    expect(s.out('kubectl create deployment web --image=nginx:1.27 --port=80')).toBe('deployment.apps/web created\n');
    expect(s.out('kubectl autoscale deployment web --cpu=50% --min=1 --max=10')).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    expect(rows(s.out('kubectl get hpa'))).toEqual(['NAME | REFERENCE | TARGETS | MINPODS | MAXPODS | REPLICAS | AGE', 'web | Deployment/web | cpu: <unknown>/50% | 1 | 10 | 0 | 0s']);
    s.run('sleep 20\n');
    expect(rows(s.out('kubectl get hpa'))).toEqual(['NAME | REFERENCE | TARGETS | MINPODS | MAXPODS | REPLICAS | AGE', 'web | Deployment/web | cpu: <unknown>/50% | 1 | 10 | 1 | 20s']);
    const d = s.out('kubectl describe hpa web');
    expect(d).toContain('Metrics:                                               ( current / target )\n  resource cpu on pods  (as a percentage of request):  <unknown> / 50%\n');
    expect(d).toContain('Deployment pods:                                       1 current / 0 desired\n');
    expect(d).toContain(`  ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute the replica count: failed to get cpu utilization: ${NO_METRICS}\n`);
    expect(d).toMatch(new RegExp(`Warning {2}FailedGetResourceMetric {7}\\d+s +horizontal-pod-autoscaler {2}failed to get cpu utilization: ${NO_METRICS.replace(/[().]/g, '\\$&')}\n`));
    expect(d).toContain(`horizontal-pod-autoscaler  invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: ${NO_METRICS}\n`);
    // The events, as `kubectl get events` lists them.
    const ev = s.out('kubectl get events --field-selector involvedObject.kind=HorizontalPodAutoscaler');
    expect(ev).toContain('Warning   FailedGetResourceMetric        horizontalpodautoscaler/web');
    expect(ev).toContain('Warning   FailedComputeMetricsReplicas   horizontalpodautoscaler/web');
    expect(s.out('kubectl top pods')).toBe('error: Metrics API not available\n');
    expect(s.out('kubectl get deployment web -o jsonpath={.spec.replicas}').trim()).toBe('1');
  });

  it("min and max hold without metrics: the bookshop's web (2 replicas) under min 3, catalog (2) under max 1", () => {
    expect(s.out('kubectl autoscale deployment web -n bookshop --min=3 --max=5 --cpu=70%')).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    expect(s.out('kubectl autoscale deployment catalog -n bookshop --max=1')).toBe('horizontalpodautoscaler.autoscaling/catalog autoscaled\n');
    s.run('sleep 60\n');
    expect(s.out('kubectl get deploy web catalog -n bookshop -o jsonpath={.items[*].spec.replicas}').trim()).toBe('3 1');
    expect(s.out('kubectl get pods -n bookshop -l app=web --no-headers').trim().split('\n')).toHaveLength(3);
    const hpas = rows(s.out('kubectl get hpa -n bookshop'));
    expect(hpas[1]).toMatch(/^catalog \| Deployment\/catalog \| cpu: <unknown>\/80% \| 1 \| 1 \| 1 \| \d+s$/);
    expect(hpas[2]).toMatch(/^web \| Deployment\/web \| cpu: <unknown>\/70% \| 3 \| 5 \| 3 \| \d+s$/);
    expect(s.out('kubectl describe hpa web -n bookshop')).toMatch(/Normal {3}SuccessfulRescale +\d+s +horizontal-pod-autoscaler {2}New size: 3; reason: Current number of replicas below Spec.MinReplicas\n/);
    expect(s.out('kubectl describe hpa catalog -n bookshop')).toMatch(/Normal {3}SuccessfulRescale +\d+s +horizontal-pod-autoscaler {2}New size: 1; reason: Current number of replicas above Spec.MaxReplicas\n/);
  });

  it("the walkthrough's php-apache (registry.k8s.io/hpa-example) runs and answers OK! to the load generator's wget", () => {
    s.run(`cat > php-apache.yaml <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: php-apache
spec:
  selector:
    matchLabels:
      run: php-apache
  template:
    metadata:
      labels:
        run: php-apache
    spec:
      containers:
      - name: php-apache
        image: registry.k8s.io/hpa-example
        ports:
        - containerPort: 80
        resources:
          limits:
            cpu: 500m
          requests:
            cpu: 200m
---
apiVersion: v1
kind: Service
metadata:
  name: php-apache
  labels:
    run: php-apache
spec:
  ports:
  - port: 80
  selector:
    run: php-apache
EOF
`);
    expect(s.out('kubectl apply -f php-apache.yaml')).toBe('deployment.apps/php-apache created\nservice/php-apache created\n');
    s.run('sleep 30\n');
    expect(rows(s.out('kubectl get deploy php-apache'))[1]).toMatch(/^php-apache \| 1\/1 \| 1 \| 1 \| 30s$/);
    // index.php prints `OK!` with no newline (the playground's container logs are whole lines, so
    // the deletion message starts on a new line where a real terminal would continue the line).
    const out = s.out('kubectl run -i --rm load-generator --image=busybox:1.28 --restart=Never -- wget -q -O- http://php-apache');
    expect(out.startsWith('OK!')).toBe(true);
    expect(out.endsWith('pod "load-generator" deleted from default namespace\n')).toBe(true);
  });
});
