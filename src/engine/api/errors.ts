/**
 * API errors as the kube-apiserver returns them: a `Status` object with code, reason, message
 * and details, wrapped in `ApiError` so engine code can `throw` and `catch` it.
 *
 * Sources: staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go (constructors and
 * messages), staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go (field errors).
 */

/** Field error types, with the text `field.ErrorType.String()` prints. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

const FIELD_ERROR_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** One validation failure at a field path (`spec.template.spec.containers[0].image`). */
export interface FieldError {
  type: FieldErrorType;
  /** Field path as printed, e.g. `metadata.name`. */
  field: string;
  /** The bad value (omitted from the message for Required, Forbidden, TooLong, Internal). */
  badValue?: unknown;
  /** Human detail appended after the value. */
  detail?: string;
}

/** Render a bad value as 1.34+ apiservers do: strings quoted, numbers bare, structs as JSON. */
export function renderValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * `field.Error.Error()`: `<field>: <Type>[: <value>][: <detail>]`.
 * Required/Forbidden/TooLong/Internal print no value (errors.go `ErrorBody`).
 */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** The part after `<field>: `, as `field.Error.ErrorBody()`. */
export function fieldErrorBody(e: FieldError): string {
  let s = FIELD_ERROR_TEXT[e.type];
  const omitValue =
    e.type === 'FieldValueRequired' ||
    e.type === 'FieldValueForbidden' ||
    e.type === 'FieldValueTooLong' ||
    e.type === 'InternalError' ||
    e.badValue === undefined;
  if (!omitValue) s += `: ${renderValue(e.badValue)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** Field error constructors mirroring `field.Required`, `field.Invalid`, ... */
export const field = {
  required: (f: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: f, detail }),
  invalid: (f: string, value: unknown, detail = ''): FieldError => ({ type: 'FieldValueInvalid', field: f, badValue: value, detail }),
  notSupported: (f: string, value: unknown, supported: string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field: f,
    badValue: value,
    detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  }),
  forbidden: (f: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: f, detail }),
  duplicate: (f: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: f, badValue: value }),
  notFound: (f: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field: f, badValue: value }),
  tooLong: (f: string, max: number): FieldError => ({ type: 'FieldValueTooLong', field: f, detail: `may not be more than ${max} bytes` }),
  tooMany: (f: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field: f,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  typeInvalid: (f: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field: f, badValue: value, detail }),
};

/** `metav1.StatusReason` values used here. */
export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'BadRequest'
  | 'Forbidden'
  | 'Gone'
  | 'Expired'
  | 'MethodNotAllowed'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'ServiceUnavailable'
  | 'TooManyRequests'
  | 'InternalError'
  | 'Timeout'
  | 'Unknown';

/** `metav1.StatusCause`. */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

/** `metav1.Status` as the API server writes it for a failed request. */
export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: StatusReason;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/**
 * A failed API request. `status` is what the server would send; `kubectlMessage()` is what
 * kubectl prints (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go `StandardErrorMessage`).
 * `connectionRefused` marks a request that never reached a server (kube-apiserver down):
 * there is no Status then, only the client's dial error.
 */
export class ApiError extends Error {
  /**
   * Set when the real kube-apiserver would not have answered yet: it blocks the request and
   * retries internally (`attempts` tries in all, one pause of `minMs`..`maxMs` virtual ms
   * between tries) before sending this error. The engine's requests are synchronous, so a
   * client that can wait in virtual time (the shell's kubectl) repeats the request on that
   * schedule instead; controllers see the error at once and retry on their own back-off.
   */
  serverRetry?: { attempts: number; minMs: number; maxMs: number };

  constructor(
    readonly status: StatusObject,
    readonly connectionRefused = false,
  ) {
    super(status.message);
    this.name = 'ApiError';
  }

  /** A copy of this error with another message (e.g. kubectl-facing wording). */
  withMessage(message: string): ApiError {
    const e = new ApiError({ ...this.status, message }, this.connectionRefused);
    if (this.serverRetry) e.serverRetry = this.serverRetry;
    return e;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason {
    return this.status.reason;
  }

  /**
   * The line(s) kubectl prints for this error. Invalid gets the `The Kind "name" is invalid:`
   * form (one cause inline, several as `* ` lines); other errors `Error from server (Reason): msg`.
   */
  kubectlMessage(): string {
    if (this.connectionRefused) return this.status.message;
    const s = this.status;
    if (s.reason === 'Invalid' && s.details?.causes?.length) {
      const kind = s.details.kind ? s.details.kind.charAt(0).toUpperCase() + s.details.kind.slice(1) : 'Object';
      const causes = s.details.causes;
      // checkErr: no kind and no name (a PATCH's strict decoding error) reads "The request is invalid".
      const head = !s.details.kind && !s.details.name ? 'The request is invalid: ' : `The ${kind} "${s.details.name ?? ''}" is invalid: `;
      if (causes.length === 1) return head + causeText(causes[0]);
      return head + '\n' + causes.map((c) => `* ${causeText(c)}`).join('\n');
    }
    // kubectl's StandardErrorMessage: an Invalid without details reads "The request is invalid";
    // a Status whose reason is Unknown (e.g. a malformed strategic patch) prints no reason.
    if (s.reason === 'Invalid' && !s.details?.kind) return `The request is invalid`;
    if (s.reason === 'Unknown') return `Error from server: ${s.message}`;
    return `Error from server (${s.reason}): ${s.message}`;
  }
}

function causeText(c: StatusCause): string {
  return c.field ? `${c.field}: ${c.message}` : c.message;
}

function status(code: number, reason: StatusReason, message: string, details?: StatusObject['details']): StatusObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

/** `qualifiedResource`: `deployments.apps`, or `pods` for the core group. */
export function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

/** Qualified kind for messages: `Deployment.apps`, `Pod`. */
export function qualifiedKind(kind: string, group: string): string {
  return group ? `${kind}.${group}` : kind;
}

/** Constructors mirroring apimachinery/pkg/api/errors. */
export const errors = {
  /** 404: `pods "x" not found` (NewNotFound). */
  notFound: (resource: string, group: string, name: string) =>
    new ApiError(status(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, { name, group: group || undefined, kind: resource })),
  /** 409: `pods "x" already exists` (NewAlreadyExists). */
  alreadyExists: (resource: string, group: string, name: string) =>
    new ApiError(status(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, { name, group: group || undefined, kind: resource })),
  /**
   * 409: optimistic-concurrency failure (NewConflict with the registry's message).
   * Source: staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (OptimisticLockErrorMsg).
   */
  conflict: (resource: string, group: string, name: string, message = 'the object has been modified; please apply your changes to the latest version and try again') =>
    new ApiError(
      status(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": ${message}`, { name, group: group || undefined, kind: resource }),
    ),
  /** 422: `Deployment.apps "web" is invalid: <causes joined by ", ">` (NewInvalid). */
  invalid: (kind: string, group: string, name: string, errs: FieldError[]) => {
    const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
    const agg = errs.map(formatFieldError);
    const aggText = agg.length === 1 ? agg[0] : `[${agg.join(', ')}]`;
    return new ApiError(status(422, 'Invalid', `${qualifiedKind(kind, group)} "${name}" is invalid: ${aggText}`, { name, group: group || undefined, kind, causes }));
  },
  /** 400 BadRequest with a free-form message. */
  badRequest: (message: string) => new ApiError(status(400, 'BadRequest', message)),
  /** 403 Forbidden (admission refusals): `<resource> "<name>" is forbidden: <why>`. */
  forbidden: (resource: string, group: string, name: string, why: string) =>
    new ApiError(status(403, 'Forbidden', `${qualified(resource, group)} "${name}" is forbidden: ${why}`, { name, group: group || undefined, kind: resource })),
  /** 410 Gone for a watch/list from a compacted resourceVersion. */
  gone: (message: string) => new ApiError(status(410, 'Expired', message)),
  /** 405 MethodNotAllowed. */
  methodNotAllowed: (message: string) => new ApiError(status(405, 'MethodNotAllowed', message)),
  /** 413 for pasted documents over the request-size limit. */
  tooLarge: (message: string) => new ApiError(status(413, 'RequestEntityTooLarge', message)),
  /** 500 with a message (an engine bug surfaced as a server error, never a thrown exception to users). */
  internal: (message: string) => new ApiError(status(500, 'InternalError', `Internal error occurred: ${message}`)),
  /**
   * The client-side dial failure while kube-apiserver is not running.
   * kubectl prints exactly this line (client-go's connection-refused wording).
   */
  connectionRefused: (server = '127.0.0.1:6443') =>
    new ApiError(status(503, 'ServiceUnavailable', `The connection to the server ${server} was refused - did you specify the right host or port?`), true),
  /**
   * kube-apiserver runs but cannot reach etcd (`etcdserver: request timed out`). The storage
   * layer returns etcd's error unconverted, so `ErrorToAPIStatus` (apiserver
   * endpoints/handlers/responsewriters/status.go) makes a 500 with reason Unknown and kubectl
   * prints `Error from server: etcdserver: request timed out`.
   */
  etcdUnavailable: () => new ApiError(status(500, 'Unknown', 'etcdserver: request timed out')),
};

/** True when `e` is an `ApiError` with the given reason. */
export function isReason(e: unknown, reason: StatusReason): boolean {
  return e instanceof ApiError && e.reason === reason;
}
