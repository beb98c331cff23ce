/**
 * autoscaling/v1 HorizontalPodAutoscalers, served by kube-apiserver 1.35 beside the stored
 * autoscaling/v2 (pkg/apis/autoscaling/v1/conversion.go): a tutorial's v1 manifest applies, the
 * same object reads as v1 (`hpa.v1.autoscaling`, the conditions in the
 * `autoscaling.alpha.kubernetes.io/conditions` annotation) and as v2 (`hpa`), a re-apply patches
 * the v1 view, `kubectl diff` compares in v1, and what v1 cannot say (behavior) survives.
 */
import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml, type Bench } from './testing';

const V1 = (target: number) => `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 1
  maxReplicas: 5
  targetCPUUtilizationPercentage: ${target}
`;

function withWeb(): Bench {
  const b = bench({ files: { '/web.yaml': deploymentYaml('web', 2), '/hpa.yaml': V1(50), '/hpa60.yaml': V1(60) } });
  expect(b.run('kubectl apply -f /web.yaml').code).toBe(0);
  b.c.run(10_000);
  return b;
}

describe('autoscaling/v1 HorizontalPodAutoscaler', () => {
  it('a v1 manifest applies; the object reads as v2 (the CPU target a Resource metric) and as v1', () => {
    const b = withWeb();
    expect(b.run('kubectl apply -f /hpa.yaml')).toEqual({ stdout: 'horizontalpodautoscaler.autoscaling/web created\n', stderr: '', code: 0 });
    b.c.run(20_000);
    expect(b.run('kubectl get hpa web -o "jsonpath={.apiVersion} {.spec.metrics}"').stdout).toBe(
      'autoscaling/v2 [{"resource":{"name":"cpu","target":{"averageUtilization":50,"type":"Utilization"}},"type":"Resource"}]',
    );
    const v1 = b.run('kubectl get hpa.v1.autoscaling web -o yaml').stdout;
    expect(v1).toMatch(/^apiVersion: autoscaling\/v1\nkind: HorizontalPodAutoscaler\nmetadata:\n {2}annotations:\n {4}autoscaling\.alpha\.kubernetes\.io\/conditions: '\[\{"type":"AbleToScale","status":"True"/);
    expect(v1).toContain('  targetCPUUtilizationPercentage: 50\nstatus:\n  currentReplicas: 2\n  desiredReplicas: 0\n');
    expect(b.run('kubectl get hpa --no-headers').stdout).toMatch(/^web +Deployment\/web +cpu: <unknown>\/50% +1 +5 +2 /);
    expect(b.run('kubectl api-versions').stdout).toContain('autoscaling/v1\nautoscaling/v2\n');
  });

  it('a re-apply patches the v1 view (diff first shows it), an unchanged one sends nothing; behavior set in v2 survives', () => {
    const b = withWeb();
    b.run('kubectl apply -f /hpa.yaml');
    expect(b.run(`kubectl patch hpa web --type=merge -p '{"spec":{"behavior":{"scaleDown":{"stabilizationWindowSeconds":60}}}}'`).code).toBe(0);
    const diff = b.run('kubectl diff -f /hpa60.yaml');
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('/autoscaling.v1.HorizontalPodAutoscaler.default.web ');
    expect(diff.stdout).toContain('-  targetCPUUtilizationPercentage: 50\n+  targetCPUUtilizationPercentage: 60\n');
    expect(b.run('kubectl apply -f /hpa60.yaml').stdout).toBe('horizontalpodautoscaler.autoscaling/web configured\n');
    expect(b.run('kubectl apply -f /hpa60.yaml').stdout).toBe('horizontalpodautoscaler.autoscaling/web unchanged\n');
    expect(b.run('kubectl get hpa web -o "jsonpath={.spec.metrics[0].resource.target.averageUtilization} {.spec.behavior.scaleDown.stabilizationWindowSeconds}"').stdout).toBe('60 60');
    expect(b.run('kubectl delete -f /hpa60.yaml').code).toBe(0);
    expect(b.run('kubectl get hpa').stderr).toBe('No resources found in default namespace.\n');
  });

  it('the API server\'s own apply (what boots the cluster) compares in the manifest\'s version too', () => {
    const b = withWeb();
    expect(b.c.apply(V1(50))).toEqual(['horizontalpodautoscaler/web created']);
    expect(b.c.apply(V1(50))).toEqual(['horizontalpodautoscaler/web unchanged']);
    expect(b.c.apply(V1(70))).toEqual(['horizontalpodautoscaler/web configured']);
    expect(b.c.api.get('horizontalpodautoscalers', 'default', 'web').spec.metrics[0].resource.target.averageUtilization).toBe(70);
  });
});
