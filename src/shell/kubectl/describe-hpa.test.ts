import { describe, expect, it } from 'vitest';
import { bench } from './testing';

// staging/src/k8s.io/kubectl/pkg/describe/describe.go `describeHorizontalPodAutoscalerV2`: the
// HPA describer, not the generic one (which printed Spec/Metadata blocks). kind runs no
// metrics-server, so a CPU target reads `<unknown> / 80%`.

describe('kubectl describe hpa', () => {
  it('a CPU utilization target before any measurement; behavior when set', () => {
    const b = bench();
    b.c.api.create({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      },
    } as never);
    const created = b.c.api.get('horizontalpodautoscalers', 'default', 'web').metadata.creationTimestamp;
    const ts = new Date(created as string).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, '$1, $2 $3 $4 $5 +0000');
    expect(b.run('kubectl describe hpa web').stdout).toBe(`Name:                                                  web
Namespace:                                             default
Labels:                                                <none>
Annotations:                                           <none>
CreationTimestamp:                                     ${ts}
Reference:                                             Deployment/web
Metrics:                                               ( current / target )
  resource cpu on pods  (as a percentage of request):  <unknown> / 80%
  resource memory on pods:                             <unknown> / 100Mi
Min replicas:                                          2
Max replicas:                                          5
Behavior:
  Scale Up:
    Stabilization Window: 0 seconds
    Select Policy: Max
    Policies:
      - Type: Pods     Value: 4    Period: 15 seconds
      - Type: Percent  Value: 100  Period: 15 seconds
  Scale Down:
    Stabilization Window: 300 seconds
    Select Policy: Max
    Policies:
      - Type: Pods  Value: 1  Period: 60 seconds
Deployment pods:    0 current / 0 desired
Events:             <none>
`);
    // Lines without a tab (Behavior:, its rules) end a tabwriter column block, so the lines
    // after them align among themselves only, as Go's text/tabwriter does. The Scale Up rules
    // are the API server's defaults for a `behavior` that names only scaleDown
    // (pkg/apis/autoscaling/v2/defaults.go `GenerateHPAScaleUpRules`).
  });
});
