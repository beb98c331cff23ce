import { describe, expect, it } from 'vitest';
import { bench, deploymentYaml, type Bench } from './testing';

// `kubectl autoscale` (kubectl 1.32, staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go)
// and the horizontal-pod-autoscaler controller behind it
// (pkg/controller/podautoscaler/horizontal.go) on a cluster without metrics-server, as kind
// ships: what `kubectl get hpa`, `kubectl describe hpa` and the events show, and what happens to
// the target's replicas.

const NO_METRICS = 'unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)';

/** A bench with Deployment `web` at `replicas`, its pods created. */
function withWeb(replicas: number): Bench {
  const b = bench();
  b.c.apply(deploymentYaml('web', replicas));
  b.c.run(5000);
  return b;
}

/** The deployment's spec.replicas and its active pods. */
function scaleOf(b: Bench): { spec: number; pods: number } {
  const d = b.c.api.get('deployments', 'default', 'web');
  return { spec: d.spec.replicas, pods: b.c.pods('default', 'app=web').filter((p) => !p.metadata.deletionTimestamp).length };
}

/** The Conditions block of `kubectl describe hpa` (rows, spaces collapsed). */
function conditionRows(describe: string): string[] {
  const block = describe.split('Conditions:\n')[1]?.split('Events:')[0] ?? '';
  return block
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(2)
    .map((l) => l.trim().split(/\s{2,}/).join(' | '));
}

/** The Events block rows of `kubectl describe` as `Type | Reason | From | Message` (age dropped). */
function eventRows(describe: string): string[] {
  const block = describe.split('Events:\n')[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(2)
    .map((l) => {
      const cols = l.trim().split(/\s{2,}/);
      return [cols[0], cols[1], cols[3], cols.slice(4).join('  ')].join(' | ');
    });
}

describe('kubectl autoscale + the HPA controller without metrics-server', () => {
  it('the walkthrough: autoscaled, <unknown> targets, AbleToScale/ScalingActive, the two warnings', () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale deployment web --cpu=50% --min=1 --max=10')).toEqual({ stdout: 'horizontalpodautoscaler.autoscaling/web autoscaled\n', stderr: '', code: 0 });
    // Before the controller's first look (one sync period after the add): no replicas counted.
    expect(b.run('kubectl get hpa').stdout).toBe(
      'NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE\n' + 'web    Deployment/web   cpu: <unknown>/50%   1         10        0          0s\n',
    );
    b.c.run(14_000);
    // The status the API server gave it at create (the zero status, as autoscaling/v2 serializes it).
    expect(b.c.api.get('horizontalpodautoscalers', 'default', 'web').status).toEqual({ desiredReplicas: 0, currentMetrics: null });
    b.c.run(6_000);
    expect(b.run('kubectl get hpa').stdout).toBe(
      'NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE\n' + 'web    Deployment/web   cpu: <unknown>/50%   1         10        1          20s\n',
    );
    expect(b.run('kubectl get hpa -o wide').stdout.split('\n')[0]).toBe('NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE');

    const d = b.run('kubectl describe hpa web').stdout;
    expect(d).toContain('Reference:                                             Deployment/web\n');
    expect(d).toContain('Metrics:                                               ( current / target )\n  resource cpu on pods  (as a percentage of request):  <unknown> / 50%\n');
    expect(d).toContain('Min replicas:                                          1\nMax replicas:                                          10\n');
    expect(d).toContain('Deployment pods:                                       1 current / 0 desired\n');
    expect(conditionRows(d)).toEqual([
      "AbleToScale | True | SucceededGetScale | the HPA controller was able to get the target's current scale",
      `ScalingActive | False | FailedGetResourceMetric | the HPA was unable to compute the replica count: failed to get cpu utilization: ${NO_METRICS}`,
    ]);
    expect(eventRows(d)).toEqual([
      `Warning | FailedGetResourceMetric | horizontal-pod-autoscaler | failed to get cpu utilization: ${NO_METRICS}`,
      `Warning | FailedComputeMetricsReplicas | horizontal-pod-autoscaler | invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: ${NO_METRICS}`,
    ]);

    // The stored object: the v1 request converted to v2, the status the controller wrote.
    const hpa = b.c.api.get('horizontalpodautoscalers', 'default', 'web');
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    });
    expect(hpa.status).toMatchObject({ currentReplicas: 1, desiredReplicas: 0, currentMetrics: [{ type: '' }] });

    // Every sync period the same warnings again, aggregated; the Deployment is left alone.
    b.c.run(30_000);
    const again = b.run('kubectl describe hpa web').stdout;
    expect(again).toMatch(/Warning {2}FailedGetResourceMetric {7}\d+s \(x3 over 3\ds\) {2}horizontal-pod-autoscaler/);
    expect(scaleOf(b)).toEqual({ spec: 1, pods: 1 });
  });

  it('min enforcement: a Deployment at 1 replica under an HPA with min 3 gets 3 pods', () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale deployment web --min=3 --max=5 --cpu=50%').code).toBe(0);
    b.c.run(16_000);
    expect(scaleOf(b)).toEqual({ spec: 3, pods: 3 });
    const first = b.run('kubectl describe hpa web').stdout;
    expect(first).toContain('Deployment pods:                                       1 current / 3 desired\n');
    expect(conditionRows(first)).toEqual(['AbleToScale | True | SucceededRescale | the HPA controller was able to update the target scale to 3']);
    expect(eventRows(first)).toEqual(['Normal | SuccessfulRescale | horizontal-pod-autoscaler | New size: 3; reason: Current number of replicas below Spec.MinReplicas']);
    // The Deployment's own events show the scale-up the HPA asked for.
    expect(b.run('kubectl describe deployment web').stdout).toMatch(/Normal {2}ScalingReplicaSet {2}\d+s +deployment-controller {2}Scaled up replica set web-\w+ from 1 to 3\n/);
    expect(b.c.api.get('horizontalpodautoscalers', 'default', 'web').status.lastScaleTime).toBeDefined();

    // The next sync finds 3 within [3, 5] and asks the metrics, which are not there.
    b.c.run(15_000);
    expect(b.run('kubectl get hpa web --no-headers').stdout).toMatch(/^web +Deployment\/web +cpu: <unknown>\/50% +3 +5 +3 +\d+s\n$/);
    const second = b.run('kubectl describe hpa web').stdout;
    expect(second).toContain('Deployment pods:                                       3 current / 3 desired\n');
    expect(conditionRows(second)).toEqual([
      "AbleToScale | True | SucceededGetScale | the HPA controller was able to get the target's current scale",
      `ScalingActive | False | FailedGetResourceMetric | the HPA was unable to compute the replica count: failed to get cpu utilization: ${NO_METRICS}`,
    ]);
    expect(scaleOf(b)).toEqual({ spec: 3, pods: 3 });
  });

  it('min enforcement holds: scaling the target below min is undone at the next sync', () => {
    const b = withWeb(2);
    b.run('kubectl autoscale deployment web --min=2 --max=4');
    b.c.run(16_000);
    expect(scaleOf(b)).toEqual({ spec: 2, pods: 2 });
    expect(b.run('kubectl scale deployment web --replicas=1').stdout).toBe('deployment.apps/web scaled\n');
    b.c.run(16_000);
    expect(scaleOf(b)).toEqual({ spec: 2, pods: 2 });
    expect(eventRows(b.run('kubectl describe hpa web').stdout)).toContainEqual('Normal | SuccessfulRescale | horizontal-pod-autoscaler | New size: 2; reason: Current number of replicas below Spec.MinReplicas');
  });

  it('max enforcement: 6 replicas under an HPA with max 4 are scaled down to 4', () => {
    const b = withWeb(6);
    expect(scaleOf(b)).toEqual({ spec: 6, pods: 6 });
    b.run('kubectl autoscale deployment web --min=1 --max=4 --cpu=80%');
    b.c.run(16_000);
    expect(scaleOf(b).spec).toBe(4);
    b.c.run(30_000);
    expect(scaleOf(b)).toEqual({ spec: 4, pods: 4 });
    const d = b.run('kubectl describe hpa web').stdout;
    expect(eventRows(d)[0]).toBe('Normal | SuccessfulRescale | horizontal-pod-autoscaler | New size: 4; reason: Current number of replicas above Spec.MaxReplicas');
    expect(b.run('kubectl get hpa web --no-headers').stdout).toMatch(/^web +Deployment\/web +cpu: <unknown>\/80% +1 +4 +4 +\d+s\n$/);
  });

  it('a missing target: FailedGetScale, AbleToScale False, nothing scaled', () => {
    const b = bench();
    b.c.apply(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ghost
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ghost
  maxReplicas: 3
`);
    b.c.run(16_000);
    expect(b.run('kubectl get hpa').stdout).toBe(
      'NAME    REFERENCE          TARGETS              MINPODS   MAXPODS   REPLICAS   AGE\n' + 'ghost   Deployment/ghost   cpu: <unknown>/80%   1         3         0          16s\n',
    );
    const d = b.run('kubectl describe hpa ghost').stdout;
    expect(d).toContain('Deployment pods:                                       0 current / 0 desired\n');
    expect(conditionRows(d)).toEqual(['AbleToScale | False | FailedGetScale | the HPA controller was unable to get the target\'s current scale: deployments.apps "ghost" not found']);
    expect(eventRows(d)).toEqual(['Warning | FailedGetScale | horizontal-pod-autoscaler | deployments.apps "ghost" not found']);
    // kubectl autoscale itself refuses a target that is not there.
    expect(b.run('kubectl autoscale deployment ghost --max=3')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): deployments.apps "ghost" not found\n', code: 1 });
  });

  it('a target kind that does not exist: the REST mapper error', () => {
    const b = bench();
    b.c.apply(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: odd
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deploymnet
    name: web
  maxReplicas: 3
`);
    b.c.run(16_000);
    expect(eventRows(b.run('kubectl describe hpa odd').stdout)).toEqual(['Warning | FailedGetScale | horizontal-pod-autoscaler | no matches for kind "Deploymnet" in group "apps"']);
  });

  it('scale-to-zero: a target at 0 replicas disables autoscaling (ScalingDisabled), min is not enforced', () => {
    const b = withWeb(0);
    b.run('kubectl autoscale deployment web --min=2 --max=5 --cpu=50%');
    b.c.run(31_000);
    expect(scaleOf(b)).toEqual({ spec: 0, pods: 0 });
    const d = b.run('kubectl describe hpa web').stdout;
    expect(d).toContain('Deployment pods:                                       0 current / 0 desired\n');
    expect(conditionRows(d)).toEqual([
      "AbleToScale | True | SucceededGetScale | the HPA controller was able to get the target's current scale",
      'ScalingActive | False | ScalingDisabled | scaling is disabled since the replica count of the target is zero',
    ]);
    expect(d).toMatch(/Events: +<none>\n$/);
    expect(b.c.api.get('horizontalpodautoscalers', 'default', 'web').status).toMatchObject({ desiredReplicas: 0, currentMetrics: null });
    // Scaling the target up again re-enables it: below min -> min.
    b.run('kubectl scale deployment web --replicas=1');
    b.c.run(16_000);
    expect(scaleOf(b)).toEqual({ spec: 2, pods: 2 });
  });

  it('the HPA deleted: no more syncs, the target keeps its size', () => {
    const b = withWeb(1);
    b.run('kubectl autoscale deployment web --min=1 --max=3');
    b.c.run(16_000);
    expect(b.run('kubectl delete hpa web').stdout).toMatch(/^horizontalpodautoscaler\.autoscaling "web" deleted/);
    b.run('kubectl scale deployment web --replicas=5');
    b.c.run(60_000);
    expect(scaleOf(b)).toEqual({ spec: 5, pods: 5 });
  });

  it('the controller-manager away: nothing enforced; back, it relists and enforces', () => {
    const b = withWeb(1);
    b.run('kubectl autoscale deployment web --min=2 --max=3');
    b.c.stopControllerManager();
    b.c.run(60_000);
    expect(b.c.api.get('deployments', 'default', 'web').spec.replicas).toBe(1);
    b.c.startControllerManager();
    b.c.run(20_000);
    expect(scaleOf(b)).toEqual({ spec: 2, pods: 2 });
  });

  it('--dry-run=client prints the autoscaling/v2 object kubectl would send', () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale deployment web --cpu=50% --min=1 --max=10 --dry-run=client -o yaml').stdout).toBe(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  creationTimestamp: null
  name: web
spec:
  maxReplicas: 10
  metrics:
  - resource:
      name: cpu
      target:
        averageUtilization: 50
        type: Utilization
    type: Resource
  minReplicas: 1
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
status:
  currentMetrics: null
  desiredReplicas: 0
`);
    expect(b.run('kubectl autoscale deploy/web --max=3 --dry-run=client').stdout).toBe('horizontalpodautoscaler.autoscaling/web created (dry run)\n');
    expect(b.run('kubectl autoscale deploy/web --max=3 --name=web-hpa --dry-run=server').stdout).toBe('horizontalpodautoscaler.autoscaling/web-hpa autoscaled (server dry run)\n');
    expect(b.run('kubectl get hpa').stderr).toBe('No resources found in default namespace.\n');
  });

  it('no --cpu-percent: the API server defaults the 80 % CPU target; --name names the HPA; -o name', () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale deployment web --max=4 --name=web-hpa -o name').stdout).toBe('horizontalpodautoscaler.autoscaling/web-hpa\n');
    expect(b.run('kubectl get hpa --no-headers').stdout).toMatch(/^web-hpa +Deployment\/web +cpu: <unknown>\/80% +1 +4 +0 +0s\n$/);
  });

  it('-o yaml prints the created HPA; --cpu/--memory quantities are AverageValue targets (a bare number is milliCPU / MiB)', () => {
    const b = withWeb(1);
    const y = b.run('kubectl autoscale deployment web --min=2 --max=4 --cpu=60% -o yaml').stdout;
    expect(y).toMatch(/^apiVersion: autoscaling\/v2\nkind: HorizontalPodAutoscaler\n/);
    expect(y).toContain('spec:\n  maxReplicas: 4\n  metrics:\n  - resource:\n      name: cpu\n      target:\n        averageUtilization: 60\n        type: Utilization\n    type: Resource\n  minReplicas: 2\n');
    const v = b.run('kubectl autoscale deployment web --name=by-value --max=4 --cpu=500 --memory=200 --dry-run=client -o json').stdout;
    expect(JSON.parse(v).spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '500m' } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '200Mi' } } },
    ]);
    expect(b.run('kubectl autoscale deployment web --name=mem --max=4 --memory=70%').code).toBe(0);
    expect(b.run('kubectl get hpa mem --no-headers').stdout).toMatch(/^mem +Deployment\/web +memory: <unknown>\/70% +1 +4 /);
  });

  it('--cpu-percent still works, with pflag\'s deprecation line on stderr', () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale deployment web --cpu-percent=50 --max=10')).toEqual({
      stdout: 'horizontalpodautoscaler.autoscaling/web autoscaled\n',
      stderr: "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).\n",
      code: 0,
    });
    expect(b.run('kubectl get hpa web --no-headers').stdout).toMatch(/^web +Deployment\/web +cpu: <unknown>\/50% /);
  });

  it("kubectl's own errors: required --max, Validate (bounds, --cpu/--cpu-percent, resource inputs), kinds without a scale subresource", () => {
    const b = withWeb(1);
    const req = b.run('kubectl autoscale deployment web');
    expect(req.code).toBe(1);
    expect(req.stderr).toMatch(/^E\d{4} [\d:.]+ +\d+ run\.go:72\] "command failed" err="required flag\(s\) \\"max\\" not set"\n$/);
    expect(b.run('kubectl autoscale deployment web --max=0')).toEqual({ stdout: '', stderr: 'error: --max=MAXPODS is required and must be at least 1, max: 0\n', code: 1 });
    expect(b.run('kubectl autoscale deployment web --max=2 --min=5')).toEqual({ stdout: '', stderr: 'error: --max=MAXPODS must be larger or equal to --min=MINPODS, max: 2, min: 5\n', code: 1 });
    expect(b.run('kubectl autoscale deployment web --max=abc').stderr).toBe(`Error: invalid argument "abc" for "--max" flag: strconv.ParseInt: parsing "abc": invalid syntax\nSee 'kubectl autoscale --help' for usage.\n`);
    expect(b.run('kubectl autoscale deployment web --max=3 --cpu=50% --cpu-percent=50').stderr).toBe(
      "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).\nerror: --cpu-percent and --cpu are mutually exclusive\n",
    );
    expect(b.run('kubectl autoscale deployment web --max=3 --cpu=abc')).toEqual({ stdout: '', stderr: 'error: invalid resource cpu value: abc\n', code: 1 });
    expect(b.run('kubectl autoscale deployment web --max=3 --memory=x%')).toEqual({ stdout: '', stderr: 'error: invalid percentage value: x\n', code: 1 });
    const pod = b.c.pods('default', 'app=web')[0].metadata.name;
    expect(b.run(`kubectl autoscale pod ${pod} --max=3`)).toEqual({ stdout: '', stderr: 'error: cannot autoscale a Pod: could not find scale subresource for /v1, Resource=pods in discovery information\n', code: 1 });
    expect(b.run('kubectl autoscale --max=3').stderr).toMatch(/^error: You must provide one or more resources by argument or filename\./);
    expect(b.run('kubectl autoscale --help').stdout).toMatch(/^Creates an autoscaler that automatically chooses and sets the number of pods/);
  });

  it("the API server's validation (pkg/apis/autoscaling/validation): a 0 % target, minReplicas 0", () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale deployment web --max=3 --cpu=0%')).toEqual({
      stdout: '',
      stderr: 'The HorizontalPodAutoscaler "web" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0\n',
      code: 1,
    });
    const r = b.run('kubectl apply -f -', {
      stdin: 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: zero\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 0\n  maxReplicas: 3\n',
    });
    expect(r.stderr).toBe('The HorizontalPodAutoscaler "zero" is invalid: spec.minReplicas: Invalid value: 0: must be greater than or equal to 1\n');
  });

  it('two HPAs on one Deployment: AmbiguousSelector on both once each has read the selector', () => {
    const b = withWeb(1);
    b.run('kubectl autoscale deployment web --max=3');
    b.run('kubectl autoscale deployment web --max=3 --name=web2');
    b.c.run(31_000);
    const msg = 'pods by selector app=web are controlled by multiple HPAs: [default/web default/web2]';
    for (const name of ['web', 'web2']) {
      const d = b.run(`kubectl describe hpa ${name}`).stdout;
      expect(conditionRows(d)[1]).toBe(`ScalingActive | False | AmbiguousSelector | ${msg}`);
      expect(eventRows(d)).toContainEqual(`Warning | AmbiguousSelector | horizontal-pod-autoscaler | ${msg}`);
    }
  });

  it('several targets: the ones found are autoscaled, the missing ones reported (ContinueOnError)', () => {
    const b = withWeb(1);
    expect(b.run('kubectl autoscale rs,deploy web --max=3')).toEqual({
      stdout: 'horizontalpodautoscaler.autoscaling/web autoscaled\n',
      stderr: 'Error from server (NotFound): replicasets.apps "web" not found\n',
      code: 1,
    });
    expect(b.c.api.get('horizontalpodautoscalers', 'default', 'web').spec.scaleTargetRef.kind).toBe('Deployment');
  });

  it('-f names the target from a manifest', () => {
    const b = bench({ files: { 'web.yaml': deploymentYaml('web', 1) } });
    b.c.apply(deploymentYaml('web', 1));
    b.c.run(3000);
    expect(b.run('kubectl autoscale -f web.yaml --max=2').stdout).toBe('horizontalpodautoscaler.autoscaling/web autoscaled\n');
  });
});
