/**
 * `kubectl autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS
 * [--cpu=CPU] [--memory=MEMORY]`: a HorizontalPodAutoscaler for each scalable object named.
 *
 * Mirrors kubectl 1.34+'s staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go (the client
 * this playground reports is v1.36.1): `--max` is required (cobra's required-flag line);
 * `--cpu-percent` is deprecated (pflag's `Flag --cpu-percent has been deprecated, ...` on
 * stderr) but still works; `Validate` (`--max=MAXPODS is required and must be at least 1, max:
 * 0`, `--max=MAXPODS must be larger or equal to --min=MINPODS, max: 2, min: 5`, `--cpu-percent and
 * --cpu are mutually exclusive`, and `parseResourceInput`'s `invalid percentage value: x` /
 * `invalid resource cpu value: x`); `Run` fetches the objects (the builder's errors, continuing
 * after a missing one), refuses kinds without a scale subresource (`cannot autoscale a Pod:
 * could not find scale subresource for /v1, Resource=pods in discovery information`) and creates
 * an autoscaling/v2 HPA per object (`createHorizontalPodAutoscalerV2`: name from `--name` or the
 * object, `minReplicas` only when `--min` > 0, a `Resource` metric per CPU/memory target: `70%`
 * an `Utilization` target, a quantity (`500m`, `200Mi`, or a bare number read as milliCPU /
 * MiB) an `AverageValue` target; no target at all leaves `metrics` to the server's default of
 * 80 % CPU), printing `horizontalpodautoscaler.autoscaling/web autoscaled`. The v2 create
 * succeeds here, so the v1 fallback (`canCreateHPAV1`) is never needed.
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
import { canonicalQuantity, isValidQuantity } from '../../engine/api/quantity';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/** `kubectl autoscale`. Returns the exit code; prints per-object errors as kubectl does. */
export function autoscale(env: Env): number {
  if (env.flags.changed('cpu-percent')) env.err(`Flag --cpu-percent has been deprecated, ${CPU_PERCENT_DEPRECATED}\n`);
  if (!env.flags.changed('max')) throw requiredFlagError(env, 'max');
  const output = env.flags.str('output');
  checkOutputFormat(output);
  const dryRun = dryRunMode(env);
  const min = env.flags.int('min');
  const max = env.flags.int('max');
  const cpuPercent = env.flags.int('cpu-percent');
  const cpu = env.flags.str('cpu');
  const memory = env.flags.str('memory');
  if (max < 1) throw fail(`--max=MAXPODS is required and must be at least 1, max: ${max}`);
  if (max < min) throw fail(`--max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`);
  if (cpuPercent > 0 && cpu !== '') throw fail('--cpu-percent and --cpu are mutually exclusive');
  const metrics: Any[] = [];
  if (cpuPercent > 0) metrics.push(resourceMetric('cpu', { type: 'Utilization', averageUtilization: cpuPercent }));
  if (cpu !== '') metrics.push(resourceMetric('cpu', parseResourceInput(cpu, 'cpu')));
  if (memory !== '') metrics.push(resourceMetric('memory', parseResourceInput(memory, 'memory')));

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
      const hpa = hpaV2(env, type, obj.metadata.name ?? '', min, max, metrics);
      if (dryRun === 'client') {
        count++;
        if (output === 'json') env.out(goJsonTyped(hpa));
        else if (output === 'yaml') env.out(toYaml(hpa));
        else if (output) env.out(printer.print(hpa as KubeObject));
        else env.out(`horizontalpodautoscaler.autoscaling/${hpa.metadata.name} created (dry run)\n`);
        continue;
      }
      const send = requestBody(env.flags.bool('save-config') ? withLastApplied(hpa as KubeObject) : hpa);
      const created = env.api.create(send, {
        namespace: env.namespace,
        dryRun: dryRun === 'server',
        fieldManager: env.flags.str('field-manager') || 'kubectl-autoscale',
      });
      count++;
      if (output) env.out(printer.print(created));
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

/** The deprecation message autoscale.go gives `--cpu-percent`. */
const CPU_PERCENT_DEPRECATED = "Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).";

/** A `Resource` MetricSpec in Go field order. */
function resourceMetric(name: 'cpu' | 'memory', target: Any): Any {
  return { type: 'Resource', resource: { name, target } };
}

/**
 * autoscale.go `parseResourceInput`: `70%` -> a Utilization target (a non-negative int32 before
 * the `%`); a bare number -> an AverageValue of that many milliCPU / MiB (`%g` + the unit); a
 * quantity -> an AverageValue of it (canonical form, as the typed Quantity marshals).
 */
function parseResourceInput(raw: string, resource: 'cpu' | 'memory'): Any {
  const input = raw.trim();
  if (input === '') throw fail('empty input');
  if (input.endsWith('%')) {
    const t = input.slice(0, -1);
    const n = /^[+-]?\d+$/.test(t) ? Number(t) : NaN;
    if (!Number.isInteger(n) || n < 0 || n > 2147483647) throw fail(`invalid percentage value: ${t}`);
    return { type: 'Utilization', averageUtilization: n };
  }
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(input)) {
    const q = `${formatG(Number(input))}${resource === 'cpu' ? 'm' : 'Mi'}`;
    if (!isValidQuantity(q)) throw fail(`invalid resource ${resource} value: ${input}`);
    return { type: 'AverageValue', averageValue: canonicalQuantity(q) };
  }
  if (!isValidQuantity(input)) throw fail(`invalid resource ${resource} value: ${input}`);
  return { type: 'AverageValue', averageValue: canonicalQuantity(input) };
}

/** Go's `%g` for the numbers a flag holds (shortest round-trip form; exponent form from 1e21 / below 1e-4). */
function formatG(v: number): string {
  const s = String(v);
  if (!/e/.test(s)) return s;
  const [m, e] = s.split('e');
  const exp = Number(e);
  return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/**
 * `createHorizontalPodAutoscalerV2`: the autoscaling/v2 object in Go field order (TypeMeta as
 * the printer sets it; `creationTimestamp: null`; the zero v2 status: `desiredReplicas: 0`,
 * `currentMetrics: null`).
 */
function hpaV2(env: Env, type: ResourceType, refName: string, min: number, max: number, metrics: Any[]): Any {
  const name = env.flags.str('name') || refName;
  const spec: Any = {
    scaleTargetRef: { kind: type.kind, name: refName, apiVersion: type.group ? `${type.group}/${type.version}` : type.version },
  };
  if (min > 0) spec.minReplicas = min;
  spec.maxReplicas = max;
  if (metrics.length > 0) spec.metrics = metrics;
  const metadata: Any = { name };
  if (env.explicitNamespace) metadata.namespace = env.namespace;
  metadata.creationTimestamp = null;
  return { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', metadata, spec, status: { desiredReplicas: 0, currentMetrics: null } };
}

/** The request body as the typed client sends it: the zero status and null timestamp dropped by the server anyway. */
function requestBody(hpa: Any): KubeObject {
  const metadata: Any = { ...hpa.metadata };
  delete metadata.creationTimestamp;
  return { apiVersion: hpa.apiVersion, kind: hpa.kind, metadata, spec: hpa.spec } as KubeObject;
}
