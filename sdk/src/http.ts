// The transport every client shares: fetch, the bearer credential, JSON in and out, a request id on every
// request, per-request timeouts and AbortSignals, typed errors, and retries of the requests that are safe
// to repeat (reads, and creations that carry an Idempotency-Key) with jittered exponential backoff that
// honours Retry-After.
import { ConcordAbortError, ConcordError, ConcordNetworkError, ConcordTimeoutError, errorFromResponse, parseRetryAfter } from './errors.ts';

export interface ClientOptions {
  /** The service's address, e.g. https://concord.example.com (the /api/v1 prefix is added). */
  baseUrl: string;
  /** Defaults to the global fetch (Node.js 20+, Deno, Bun, browsers). */
  fetch?: typeof fetch;
  /** How long one attempt may take before it fails with ConcordTimeoutError; 60 000 unless set. */
  timeoutMs?: number;
  /** Retries of a safe request after a network error, a timeout, 408, 429 or a 5xx; 2 unless set. */
  maxRetries?: number;
  /** The first retry's delay before jitter, doubled at each retry; 500 unless set. */
  retryDelayMs?: number;
  /** The longest backoff delay; 8 000 unless set. */
  maxRetryDelayMs?: number;
  /**
   * The longest `Retry-After` the SDK waits for on its own; a longer one (a 15-minute rate-limit window,
   * say) is not waited for: the ConcordRateLimitError is thrown at once with its `retryAfter`. 60 000 unless set.
   */
  maxRetryAfterMs?: number;
  /** Headers sent with every request (a user agent of your own, say). */
  headers?: Record<string, string>;
}

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** This call's timeout per attempt, instead of the client's. */
  timeoutMs?: number;
  /** Aborting it cancels the call at once (even while it waits to retry): ConcordAbortError. */
  signal?: AbortSignal;
  /** This call's retries, instead of the client's (0: no retry). Only safe requests are ever retried. */
  maxRetries?: number;
  /** Headers for this call only. */
  headers?: Record<string, string>;
}

/** Options of a method that creates something: the Idempotency-Key is yours to choose, or a fresh UUID. */
export interface CreateOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key` (1–255 characters) and kept across the SDK's retries: the server creates
   * once per key and answers a repeat with the first response. Pass your own to make a creation safe
   * across restarts of your program too (a row number of an import, say). A fresh UUID unless set.
   */
  idempotencyKey?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  form?: FormData;
  /**
   * A creation that the server makes idempotent: it gets an Idempotency-Key (the caller's or a fresh
   * one) and is retried with that same key. Other non-GET requests are never retried.
   */
  idempotent?: boolean;
  /** The caller keeps reading the body: the timeout stops once the response headers are in. */
  stream?: boolean;
  options?: RequestOptions & { idempotencyKey?: string };
  /** Send no credential (register, login, the public /meta). */
  anonymous?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  requestId: string | undefined;
}

const DEFAULTS = { timeoutMs: 60_000, maxRetries: 2, retryDelayMs: 500, maxRetryDelayMs: 8_000, maxRetryAfterMs: 60_000 };
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * The wait before attempt `attempt` + 1 after `attempt` failures (1-based): `baseMs` doubled each time,
 * capped at `maxMs`, with jitter in [50 %, 100 %] so clients that failed together do not return together.
 */
export function jitteredBackoffMs(baseMs: number, maxMs: number, attempt: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + Math.random() / 2));
}

/** A fresh id for an Idempotency-Key or an x-request-id. */
export const newIdempotencyKey = (): string => globalThis.crypto.randomUUID();

/** Waits `ms`, or rejects with ConcordAbortError as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined, requestId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal, requestId));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal, requestId));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const abortError = (signal: AbortSignal, requestId: string) =>
  new ConcordAbortError({ message: 'The request was aborted', code: 'ABORTED', requestId, cause: signal.reason });

/** The transport of BuyerClient and AnnotationClient; `send` makes one request with their retries and errors. */
export class HttpClient {
  private readonly fetchImpl: typeof fetch;
  private readonly settings: typeof DEFAULTS;
  /** Sent with every request; the buyer client drops its organisation header once a switched token names the organisation. */
  readonly defaultHeaders: Record<string, string>;
  readonly apiUrl: string;
  /** The bearer credential (a JWT or an API key); requests go without one when it is undefined. */
  credential: string | undefined;

  constructor(options: ClientOptions, credential?: string) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required, e.g. https://concord.example.com');
    this.apiUrl = `${options.baseUrl.replace(/\/+$/, '')}/api/v1`;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.settings = {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxRetries: Math.max(0, options.maxRetries ?? DEFAULTS.maxRetries),
      retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    };
    this.defaultHeaders = { ...options.headers };
    this.credential = credential;
  }

  /** The backoff before retry number `retry` (1-based). */
  backoffMs(retry: number): number {
    return jitteredBackoffMs(this.settings.retryDelayMs, this.settings.maxRetryDelayMs, retry);
  }

  /**
   * Sends the request and returns the successful response (its body unread when `stream`, else read
   * into `text`). A non-2xx answer, a network failure, a timeout or an abort is thrown as a ConcordError.
   */
  async send(request: HttpRequest): Promise<HttpResponse & { response: Response; text: string | undefined }> {
    const options = request.options ?? {};
    const url = new URL(`${this.apiUrl}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const headers = lowerCased({ accept: request.stream ? '*/*' : 'application/json', ...this.defaultHeaders, ...options.headers });
    const requestId = headers['x-request-id'] ?? newIdempotencyKey();
    headers['x-request-id'] = requestId;
    if (this.credential && !request.anonymous) headers.authorization = `Bearer ${this.credential}`;
    if (request.idempotent) headers['idempotency-key'] = options.idempotencyKey ?? headers['idempotency-key'] ?? newIdempotencyKey();
    let body: string | FormData | undefined;
    if (request.form) body = request.form;
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    // A PUT sets a value: sent twice, it leaves what it left once.
    const retryable = request.method === 'GET' || request.method === 'PUT' || request.idempotent === true;
    const maxRetries = retryable ? Math.max(0, options.maxRetries ?? this.settings.maxRetries) : 0;
    const timeoutMs = options.timeoutMs ?? this.settings.timeoutMs;
    const signal = options.signal;

    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw abortError(signal, requestId);
      const attempt = new AbortController();
      const onAbort = () => attempt.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attempt.abort(new DOMException(`No response within ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs);
      let failure: ConcordError;
      let retryAfterMs: number | undefined;
      let streaming = false;
      try {
        const response = await this.fetchImpl(url, { method: request.method, headers, body, signal: attempt.signal });
        const answeredId = response.headers.get('x-request-id') ?? requestId;
        if (response.ok && request.stream) {
          // The caller reads the body from here on: their signal still cancels it, the timeout no longer does.
          streaming = true;
          return { status: response.status, headers: response.headers, requestId: answeredId, response, text: undefined };
        }
        const text = await response.text();
        if (response.ok) return { status: response.status, headers: response.headers, requestId: answeredId, response, text };
        failure = errorFromResponse(response.status, response.headers, text, requestId);
        if (!RETRYABLE_STATUSES.has(response.status)) throw failure;
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        if (retryAfter !== undefined) {
          // Waiting longer than the caller would want is not ours to decide: they get the error and its retryAfter.
          if (retryAfter * 1000 > this.settings.maxRetryAfterMs) throw failure;
          retryAfterMs = retryAfter * 1000;
        }
      } catch (error) {
        if (error instanceof ConcordError) throw error;
        if (signal?.aborted) throw abortError(signal, requestId);
        failure = timedOut
          ? new ConcordTimeoutError({ message: `No response within ${timeoutMs} ms`, code: 'TIMEOUT', requestId, cause: error })
          : new ConcordNetworkError({ message: `Network error: ${describe(error)}`, code: 'NETWORK_ERROR', requestId, cause: error });
      } finally {
        clearTimeout(timer);
        if (!streaming) signal?.removeEventListener('abort', onAbort);
      }
      if (retry >= maxRetries) throw failure;
      await sleep(retryAfterMs ?? this.backoffMs(retry + 1), signal, requestId);
    }
  }

  /** The JSON body of a successful request, or undefined for 204. */
  async json<T>(request: HttpRequest): Promise<T> {
    const { status, text, requestId } = await this.send(request);
    if (status === 204 || !text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new ConcordError({ message: 'The response is not JSON', code: 'INVALID_RESPONSE', status, requestId, cause });
    }
  }
}

/** Header names in lower case, so that the caller's `X-Request-Id` replaces ours instead of doubling it. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) result[key.toLowerCase()] = value;
  return result;
}

/** fetch's `TypeError: fetch failed` hides the reason in `cause` (ECONNREFUSED, ENOTFOUND…): name it. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause && typeof cause === 'object') {
    const code = typeof cause.code === 'string' ? cause.code : undefined;
    const message = typeof cause.message === 'string' ? cause.message : undefined;
    if (code || message) return [code, message].filter(Boolean).join(' ');
  }
  return error.message;
}
