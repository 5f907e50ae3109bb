// The transport every client shares: fetch, the bearer credential, JSON in and out, typed errors, and
// retries of requests that are safe to repeat (reads, and creations that carry an Idempotency-Key).
import type { components } from './generated/openapi.ts';

export type ErrorBody = components['schemas']['Error'];

/** Any non-2xx answer of the API: `code` is the API's error code (VALIDATION_ERROR, TASK_NOT_FOUND, …). */
export class ConcordError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly taskIndex: number | undefined;

  constructor(status: number, body: Partial<ErrorBody> | undefined) {
    super(body?.error ?? `HTTP ${status}`);
    this.name = 'ConcordError';
    this.status = status;
    this.code = body?.code ?? 'HTTP_ERROR';
    this.details = body?.details as Record<string, unknown> | undefined;
    this.taskIndex = body?.taskIndex;
  }
}

export interface ClientOptions {
  /** The service's address, e.g. https://concord.example.com (the /api/v1 prefix is added). */
  baseUrl: string;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Attempts for retryable requests (network errors, 429, 5xx); 3 unless set. */
  maxAttempts?: number;
  /** First retry delay in milliseconds, doubled each time; 200 unless set. */
  retryDelayMs?: number;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Repeat on network errors, 429 and 5xx (reads, and writes made safe by an Idempotency-Key). */
  retry?: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class HttpClient {
  private readonly fetch: typeof fetch;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;
  readonly apiUrl: string;
  credential: string | undefined;

  constructor(options: ClientOptions, credential?: string) {
    this.apiUrl = `${options.baseUrl.replace(/\/+$/, '')}/api/v1`;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.credential = credential;
  }

  /** The raw response of a successful request (non-2xx becomes a ConcordError). */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = new URL(`${this.apiUrl}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...options.headers };
    if (this.credential) headers.authorization = `Bearer ${this.credential}`;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const attempts = options.retry ? this.maxAttempts : 1;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(url, { method, headers, body });
      } catch (error) {
        if (attempt >= attempts) throw error;
        await sleep(this.retryDelayMs * 2 ** (attempt - 1));
        continue;
      }
      if (response.ok) return response;
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= attempts) {
        const text = await response.text();
        let parsed: Partial<ErrorBody> | undefined;
        try {
          parsed = JSON.parse(text) as Partial<ErrorBody>;
        } catch {
          parsed = { error: text || `HTTP ${response.status}` };
        }
        throw new ConcordError(response.status, parsed);
      }
      await response.body?.cancel();
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : this.retryDelayMs * 2 ** (attempt - 1));
    }
  }

  /** The JSON body of a successful request, or undefined for 204. */
  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, options);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}

/** A fresh Idempotency-Key: a retry of the same creation reuses it, so the server creates once. */
export const newIdempotencyKey = () => globalThis.crypto.randomUUID();
