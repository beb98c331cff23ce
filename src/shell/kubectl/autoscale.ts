/**
 * `kubectl autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS
 * [--cpu-percent=CPU]`: a HorizontalPodAutoscaler for each scalable object named.
 *
 * Mirrors kubectl 1.32's staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go:
 * `--max` is required (cobra's required-flag line); `Validate` (`--max=MAXPODS is required and
 * must be at least 1, max: 0`, `--max=MAXPODS must be larger or equal to --min=MINPODS, max: 2,
 * min: 5`); `Run` fetches the objects (the builder's errors), refuses kinds without a scale
 * subresource (`cannot autoscale a Pod: could not find scale subresource for /v1,
 * Resource=pods in discovery information`) and creates an autoscaling/v1 HPA per object
 * (`createHorizontalPodAutoscaler`: name from `--name` or the object, `minReplicas` only when
 * `--min` > 0, `targetCPUUtilizationPercentage` when `--cpu-percent` >= 0), printing
 * `horizontalpodautoscaler.autoscaling/web autoscaled`. kubectl 1.32 has no `--cpu`/`--memory`
 * (added, with the autoscaling/v2 request, in later releases).
 *
 * The API server here stores autoscaling/v2 only: the v1 object is converted as
 * kube-apiserver converts it (pkg/apis/autoscaling/v1/conversion.go: the CPU percentage becomes a
 * `Resource` metric with a `Utilization` target; no percentage -> the v2 default of 80 %), and
 * `-o yaml|json` prints the stored object converted back to autoscaling/v1, which is what the
 * v1 client kubectl uses receives.
 */
import type { KubeObject } from '../../engine/api/types';
import type { ResourceType } from '../../engine/api/registry';
import { withLastApplied } from '../../engine/api/apply';
import { toYaml } from '../../engine/api/yaml';
import { discover, fail, formatErrors, kindGroup, requiredFlagError, type Env } from './env';
import { objectNamespace, parseResourceArgs, readManifestFlags } from './builder';
import { ResultPrinter, checkOutputFormat } from './output';
import { dryRunMode, dryRunSuffix } from './apply';
import { goJsonTyped } from './create';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** `kubectl autoscale`. Returns the exit code; prints per-object errors as kubectl does. */
export function autoscale(env: Env): number {
  if (!env.flags.changed('max')) throw requiredFlagError(env, 'max');
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const min = env.flags.int('min');
  const max = env.flags.int('max');
  const cpuPercent = env.flags.int('cpu-percent');
  if (max < 1) throw fail(`--max=MAXPODS is required and must be at least 1, max: ${max}`);
  if (max < min) throw fail(`--max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`);

  const manifests = readManifestFlags(env);
  if (!manifests && env.flags.args.length === 0) {
    throw fail("You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
  }
  discover(env, 5);
  const errs: unknown[] = [];
  const targets: { type: ResourceType; obj: KubeObject }[] = [];
  if (manifests) {
    if (manifests.errors.length) throw fail(manifests.errors[0].replace(/^error: /, ''));
    for (const { object } of manifests.objects) {
      const type = env.api.typeOfObject(object);
      try {
        targets.push({ type, obj: env.api.get(type, objectNamespace(env, type, object), object.metadata.name ?? '') });
      } catch (e) {
        errs.push(e);
      }
    }
  } else {
    const sel = parseResourceArgs(env, env.flags.args, { allowEmptySelector: false, hasSelector: false });
    if (sel.mode === 'names') {
      for (const r of sel.refs) {
        try {
          targets.push({ type: r.type, obj: env.api.get(r.type, r.type.namespaced ? env.namespace : undefined, r.name) });
        } catch (e) {
          errs.push(e);
        }
      }
    }
  }
  // A failed GET (`Error from server (NotFound): deployments.apps "web" not found`) is reported
  // with the others at the end; the objects found are still autoscaled (ContinueOnError).

  const printer = new ResultPrinter(output);
  let count = 0;
  for (const { type, obj } of targets) {
    try {
      if (!type.scale) {
        throw fail(`cannot autoscale a ${type.kind}: could not find scale subresource for ${type.group}/${type.version}, Resource=${type.resource} in discovery information`);
      }
      const v1 = hpaV1(env, type, obj.metadata.name ?? '', min, max, cpuPercent);
      if (dryRun === 'client') {
        count++;
        if (output === 'json') env.out(goJsonTyped(v1));
        else if (output === 'yaml') env.out(toYaml(v1));
        else if (output) env.out(printer.print(v1 as KubeObject));
        else env.out(`horizontalpodautoscaler.autoscaling/${v1.metadata.name} created (dry run)\n`);
        continue;
      }
      const send = toV2(env.flags.bool('save-config') ? withLastApplied(v1 as KubeObject) : v1);
      const created = env.api.create(send, {
        namespace: env.namespace,
        dryRun: dryRun === 'server',
        fieldManager: env.flags.str('field-manager') || 'kubectl-autoscale',
      });
      count++;
      if (output) env.out(printer.print(toV1(created)));
      else env.out(`${kindGroup({ kind: 'HorizontalPodAutoscaler', group: 'autoscaling' })}/${created.metadata.name} autoscaled${dryRunSuffix(dryRun)}\n`);
    } catch (e) {
      errs.push(e);
    }
  }
  if (errs.length) {
    env.err(formatErrors(errs) + '\n');
    return 1;
  }
  if (count === 0) throw fail('no objects passed to autoscale');
  return 0;
}

/**
 * `createHorizontalPodAutoscaler` (kubectl 1.32): the autoscaling/v1 object in Go field order
 * (TypeMeta as the printer sets it; `creationTimestamp: null`; the v1 status's two non-omitempty
 * counts).
 */
function hpaV1(env: Env, type: ResourceType, refName: string, min: number, max: number, cpuPercent: number): Any {
  const name = env.flags.str('name') || refName;
  const spec: Any = {
    scaleTargetRef: { kind: type.kind, name: refName, apiVersion: type.group ? `${type.group}/${type.version}` : type.version },
  };
  if (min > 0) spec.minReplicas = min;
  spec.maxReplicas = max;
  if (cpuPercent >= 0) spec.targetCPUUtilizationPercentage = cpuPercent;
  const metadata: Any = { name };
  if (env.explicitNamespace) metadata.namespace = env.namespace;
  metadata.creationTimestamp = null;
  return { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1', metadata, spec, status: { currentReplicas: 0, desiredReplicas: 0 } };
}

/**
 * autoscaling/v1 -> autoscaling/v2 as kube-apiserver converts a request body
 * (Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec): the CPU
 * percentage becomes `metrics[0]`; without one the v2 defaulting adds the 80 % CPU target.
 */
function toV2(v1: Any): KubeObject {
  const { metadata, spec } = v1;
  const m: Any = { ...metadata };
  delete m.creationTimestamp;
  const out: Any = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: m,
    spec: {
      scaleTargetRef: { ...spec.scaleTargetRef },
      ...(spec.minReplicas !== undefined ? { minReplicas: spec.minReplicas } : {}),
      maxReplicas: spec.maxReplicas,
    },
  };
  if (spec.targetCPUUtilizationPercentage !== undefined) {
    out.spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } }];
  }
  return out;
}

/**
 * autoscaling/v2 -> autoscaling/v1 as the v1 client receives it
 * (Convert_autoscaling_HorizontalPodAutoscalerSpec_To_v1_HorizontalPodAutoscalerSpec and the
 * status conversion): the CPU utilization target and current value. Only what `kubectl
 * autoscale` prints right after the create: the annotations the real conversion adds for other
 * metrics, current metrics and conditions (`autoscaling.alpha.kubernetes.io/...`) are left out.
 */
export function toV1(v2: KubeObject): KubeObject {
  const spec: Any = v2.spec ?? {};
  const st: Any = v2.status ?? {};
  const metrics: Any[] = spec.metrics ?? [];
  const isCpuUtil = (m: Any) => m?.type === 'Resource' && m.resource?.name === 'cpu' && m.resource?.target?.type === 'Utilization' && typeof m.resource.target.averageUtilization === 'number';
  const cpu = metrics.find((m) => m?.type === 'Resource' && m.resource?.name === 'cpu');
  const v1Spec: Any = { scaleTargetRef: { ...(spec.scaleTargetRef ?? {}) } };
  if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
  v1Spec.maxReplicas = spec.maxReplicas;
  if (cpu && isCpuUtil(cpu)) v1Spec.targetCPUUtilizationPercentage = cpu.resource.target.averageUtilization;
  const status: Any = {};
  if (st.observedGeneration !== undefined) status.observedGeneration = st.observedGeneration;
  if (st.lastScaleTime) status.lastScaleTime = st.lastScaleTime;
  status.currentReplicas = st.currentReplicas ?? 0;
  status.desiredReplicas = st.desiredReplicas ?? 0;
  const curCpu = (st.currentMetrics ?? []).find((m: Any) => m?.type === 'Resource' && m.resource?.name === 'cpu' && typeof m.resource?.current?.averageUtilization === 'number');
  if (curCpu) status.currentCPUUtilizationPercentage = curCpu.resource.current.averageUtilization;
  return { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { ...v2.metadata }, spec: v1Spec, status } as KubeObject;
}
