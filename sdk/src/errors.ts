// Every failure the SDK reports is a ConcordError: an answer of the API (status and code), a request
// that got no answer (network failure, timeout, abort), or a webhook that failed verification. Each one
// carries the request id, the one the server answered with or else the one the SDK sent, so a support
// request or a log search can always name the request.

/** The JSON error body of the API: `{error, code, details?, taskIndex?}`. */
export interface ApiErrorBody {
  error?: string;
  code?: string;
  details?: Record<string, unknown>;
  taskIndex?: number;
}

export interface ConcordErrorInit {
  message: string;
  code: string;
  /** The HTTP status; undefined when no response arrived (network failure, timeout, abort). */
  status?: number;
  details?: Record<string, unknown>;
  taskIndex?: number;
  requestId?: string;
  /** The response headers, when a response arrived. */
  headers?: Headers;
  cause?: unknown;
}

/**
 * The base class. `code` is the API's error code (VALIDATION_ERROR, TASK_NOT_FOUND, …) or, for failures
 * without a response, one of the SDK's own: NETWORK_ERROR, TIMEOUT, ABORTED, INVALID_RESPONSE, NOT_A_BUYER, or a
 * WEBHOOK_… code of a failed webhook verification.
 */
export class ConcordError extends Error {
  readonly status: number | undefined;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  /** Zero-based index of the refused item of a JSON batch (INVALID_TASK). */
  readonly taskIndex: number | undefined;
  /** `x-request-id` of the response, or the one the SDK sent when no response arrived. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;

  constructor(init: ConcordErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.taskIndex = init.taskIndex;
    this.requestId = init.requestId;
    this.headers = init.headers;
  }
}

/** The request got no response: DNS, connection refused or reset, TLS… (`cause` holds fetch's error). */
export class ConcordNetworkError extends ConcordError {}

/** No response within the timeout (`timeoutMs` of the client or of the call). */
export class ConcordTimeoutError extends ConcordNetworkError {}

/** The caller's AbortSignal fired; `cause` is the signal's reason. Never retried. */
export class ConcordAbortError extends ConcordError {}

/** 400, 413, 415, 422: the request itself is wrong (VALIDATION_ERROR, INVALID_TASK, INVALID_CSV, …). */
export class ConcordValidationError extends ConcordError {}

/** 401: the credential is missing, wrong, expired or revoked (UNAUTHORIZED, INVALID_CREDENTIALS). */
export class ConcordAuthenticationError extends ConcordError {}

/**
 * 402: money refuses it. `code` INSUFFICIENT_CREDITS: `details` has `requiredCents` and `availableCents`;
 * BUDGET_CAP_REACHED (a spending cap): `details` has `scope`, `projectId`, `capCents`, `committedCents`, `requiredCents`.
 */
export class ConcordInsufficientCreditsError extends ConcordError {}

/** 403: a valid credential of the wrong kind for the route (FORBIDDEN, ANNOTATOR_SUSPENDED). */
export class ConcordPermissionError extends ConcordError {}

/** 404: unknown route or id, or one owned by another account (TASK_NOT_FOUND, …). */
export class ConcordNotFoundError extends ConcordError {}

/** 409: the state forbids it (ALREADY_ANSWERED, TASK_CLOSED, IDEMPOTENCY_KEY_REUSED, PROJECT_HAS_TASKS, …). */
export class ConcordConflictError extends ConcordError {}

/** 429: too many requests. `retryAfter` is the server's `Retry-After`, in seconds, when it sent one. */
export class ConcordRateLimitError extends ConcordError {
  readonly retryAfter: number | undefined;

  constructor(init: ConcordErrorInit & { retryAfter?: number }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the service (or a proxy before it) failed; retried for safe requests before it is thrown. */
export class ConcordServerError extends ConcordError {}

/** A webhook request whose signature, timestamp or headers do not check out (see verifyWebhook). */
export class ConcordWebhookVerificationError extends ConcordError {}

/**
 * `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3); undefined when
 * absent or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The typed error of a non-2xx response, from its status, headers and (already read) body text. */
export function errorFromResponse(status: number, headers: Headers, text: string, sentRequestId: string | undefined): ConcordError {
  let body: ApiErrorBody = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as ApiErrorBody;
  } catch {
    // A proxy's HTML page or plain text: keep a short excerpt as the message.
  }
  const init: ConcordErrorInit = {
    status,
    code: typeof body.code === 'string' ? body.code : `HTTP_${status}`,
    message: typeof body.error === 'string' ? body.error : text.trim().slice(0, 200) || `HTTP ${status}`,
    details: body.details && typeof body.details === 'object' ? body.details : undefined,
    taskIndex: typeof body.taskIndex === 'number' ? body.taskIndex : undefined,
    requestId: headers.get('x-request-id') ?? sentRequestId,
    headers,
  };
  if (status === 429) return new ConcordRateLimitError({ ...init, retryAfter: parseRetryAfter(headers.get('retry-after')) });
  if (status === 401) return new ConcordAuthenticationError(init);
  if (status === 402) return new ConcordInsufficientCreditsError(init);
  if (status === 403) return new ConcordPermissionError(init);
  if (status === 404) return new ConcordNotFoundError(init);
  if (status === 409) return new ConcordConflictError(init);
  if (status === 400 || status === 413 || status === 415 || status === 422) return new ConcordValidationError(init);
  if (status >= 500) return new ConcordServerError(init);
  return new ConcordError(init);
}
