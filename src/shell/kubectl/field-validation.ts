/**
 * kubectl's `--validate` flag as the server-side field validation it requests, and the
 * `Warning:` lines it prints for the response's warning headers.
 * Source: staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (GetValidationDirective:
 * strict|true -> Strict, warn -> Warn, ignore|false -> Ignore; default strict since 1.27),
 * staging/src/k8s.io/client-go/rest/warnings.go (WarningWriter: `Warning: <text>` on stderr).
 */
import type { FieldValidation } from "../../engine/api/decode";
import { fail, type Env } from "./env";

/** Go's strconv.ParseBool spellings. */
const TRUE = ["1", "t", "T", "TRUE", "true", "True"];
const FALSE = ["0", "f", "F", "FALSE", "false", "False"];

/**
 * The `fieldValidation` kubectl sends for its `--validate` value (unset = the default `strict`).
 * Throws kubectl's `error: invalid - validate option "x"; must be one of: strict (or true), warn, ignore (or false)`
 * (cmdutil.GetValidationDirective, called when the command completes its options, before any request).
 */
export function fieldValidationOf(env: Env): FieldValidation {
  const v = env.flags.str("validate");
  if (v === "" || v === "strict" || TRUE.includes(v)) return "Strict";
  if (v === "warn") return "Warn";
  if (v === "ignore" || FALSE.includes(v)) return "Ignore";
  throw fail(
    `invalid - validate option ${JSON.stringify(v)}; must be one of: strict (or true), warn, ignore (or false)`,
  );
}

/** Prints each server warning as kubectl does: `Warning: unknown field "spec.foo"` on stderr. */
export function printWarnings(env: Env, warnings: string[]): void {
  for (const w of warnings) env.err(`Warning: ${w}\n`);
}

/**
 * Runs one API request that fills `warnings` and prints them after it, also when it failed:
 * the API server sends the Warning headers of a rejected request too (a strict-decoding warning
 * of `fieldValidation=Warn` is recorded before validation rejects the object) and client-go's
 * warning handler sees every response (rest/request.go handleWarnings), so
 * `Warning: unknown field ...` comes before `The Deployment "x" is invalid: ...`.
 */
export function withWarnings<T>(env: Env, warnings: string[], request: () => T): T {
  try {
    return request();
  } finally {
    printWarnings(env, warnings);
  }
}
