/**
 * `spec.podFailurePolicy` of a Job as the API server validates it: pkg/apis/batch/validation/
 * validation.go `validatePodFailurePolicy`, `validatePodFailurePolicyRule`,
 * `validatePodFailurePolicyRuleOnExitCodes`, `validatePodFailurePolicyRuleOnPodConditions`
 * (Kubernetes 1.32-1.36). Messages and field paths as kubectl prints them, e.g.
 * `spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"`.
 */
import { field, type FieldError } from './errors';

/** `maxPodFailurePolicyRules`. */
const MAX_RULES = 20;
/** `maxPodFailurePolicyOnExitCodesValues`. */
const MAX_EXIT_CODE_VALUES = 255;
/** `maxPodFailurePolicyOnPodConditionsPatterns`. */
const MAX_CONDITION_PATTERNS = 20;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const STATUSES = ['False', 'True', 'Unknown'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
const unset = (v: unknown) => v === undefined || v === null;
/** Go's `%q` of a string list: `["Count" "FailIndex"]`. */
const goQuoteList = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;

/**
 * The errors of a Job spec's `podFailurePolicy` at `path` (`spec.podFailurePolicy`, or the one
 * of a CronJob's job template). The spec's containers and init containers name the valid
 * `onExitCodes.containerName` values. Returns [] when valid.
 */
export function validatePodFailurePolicy(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules: Obj[] = Array.isArray(spec.podFailurePolicy?.rules) ? spec.podFailurePolicy.rules : [];
  const rulesPath = `${path}.rules`;
  if (rules.length > MAX_RULES) errs.push(field.tooMany(rulesPath, rules.length, MAX_RULES));
  const tspec: Obj = spec.template?.spec ?? {};
  const names = new Set<string>([...(tspec.containers ?? []), ...(tspec.initContainers ?? [])].map((c: Obj) => c?.name));
  rules.forEach((rule, i) => {
    const rp = `${rulesPath}[${i}]`;
    const action = rule?.action;
    if (unset(action) || action === '') errs.push(field.required(`${rp}.action`, `valid values: ${goQuoteList(ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (unset(spec.backoffLimitPerIndex)) errs.push(field.invalid(`${rp}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!ACTIONS.includes(action)) errs.push(field.notSupported(`${rp}.action`, action, ACTIONS));
    const oec: Obj | undefined = rule?.onExitCodes ?? undefined;
    const opc: Obj[] = Array.isArray(rule?.onPodConditions) ? rule.onPodConditions : [];
    if (oec) {
      const p = `${rp}.onExitCodes`;
      if (unset(oec.operator) || oec.operator === '') errs.push(field.required(`${p}.operator`, `valid values: ${goQuoteList(OPERATORS)}`));
      else if (!OPERATORS.includes(oec.operator)) errs.push(field.notSupported(`${p}.operator`, oec.operator, OPERATORS));
      if (!unset(oec.containerName) && !names.has(oec.containerName)) {
        errs.push(field.invalid(`${p}.containerName`, oec.containerName, 'must be one of the container or initContainer names in the pod template'));
      }
      const values: number[] = Array.isArray(oec.values) ? oec.values : [];
      if (values.length === 0) errs.push(field.invalid(`${p}.values`, values, 'at least one value is required'));
      else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(field.tooMany(`${p}.values`, values.length, MAX_EXIT_CODE_VALUES));
      const seen = new Set<number>();
      let ordered = true;
      values.forEach((v, j) => {
        if (oec.operator === 'In' && v === 0) errs.push(field.invalid(`${p}.values[${j}]`, v, 'must not be 0 for the In operator'));
        if (seen.has(v)) errs.push(field.duplicate(`${p}.values[${j}]`, v));
        else seen.add(v);
        if (j > 0 && values[j - 1] > v) ordered = false;
      });
      if (!ordered) errs.push(field.invalid(`${p}.values`, values, 'must be ordered'));
    }
    if (opc.length > 0) {
      const p = `${rp}.onPodConditions`;
      if (opc.length > MAX_CONDITION_PATTERNS) errs.push(field.tooMany(p, opc.length, MAX_CONDITION_PATTERNS));
      opc.forEach((pat, j) => {
        const status = pat?.status;
        if (unset(status) || status === '') errs.push(field.required(`${p}[${j}].status`, `valid values: ${goQuoteList(STATUSES)}`));
        else if (!STATUSES.includes(status)) errs.push(field.notSupported(`${p}[${j}].status`, status, STATUSES));
      });
    }
    if (oec && opc.length > 0) errs.push(field.invalid(rp, undefined, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!oec && opc.length === 0) errs.push(field.invalid(rp, undefined, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}
