// The one API client: openapi-fetch over the types generated from the service's OpenAPI document, so a
// renamed field breaks the build, not the page. Every call goes through `call`, which turns an error
// body into an ApiError carrying the API's `code`.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../../sdk/src/generated/openapi';
import { ApiError, NETWORK_ERROR, parseRetryAfter, type ErrorBody } from './errors';

export type { Schemas } from './schemas';

let currentToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** The session module keeps the client's credential in step with the signed-in account. */
export function setCredential(token: string | null, unauthorized: (() => void) | null): void {
  currentToken = token;
  onUnauthorized = unauthorized;
}

/** The credential for code that must build its own request (XMLHttpRequest uploads with progress). */
export const currentCredential = (): string | null => currentToken;

/**
 * A 401 ends the session only when the request carried the session's current token. A failed log-in
 * (no credential sent) does not; nor does a request still in flight with a token that a password change
 * has just replaced, which would otherwise sign the new session out.
 */
export function reportUnauthorized(sentToken: string | null): void {
  if (sentToken !== null && sentToken === currentToken) onUnauthorized?.();
}

const bearer = (token: string) => `Bearer ${token}`;
const tokenOf = (authorization: string | null) => (authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : null);

const auth: Middleware = {
  onRequest({ request }) {
    if (currentToken && !request.headers.has('authorization')) request.headers.set('authorization', bearer(currentToken));
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401) reportUnauthorized(tokenOf(request.headers.get('authorization')));
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: '/api/v1' });
api.use(auth);

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call and returns its data, or throws an ApiError with the API's code. */
export async function call<T>(request: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await request;
  } catch {
    throw new ApiError(0, NETWORK_ERROR);
  }
  const { data, error, response } = outcome;
  if (!response.ok)
    throw new ApiError(response.status, toErrorBody(error, response.status, response.statusText), parseRetryAfter(response.headers.get('retry-after')));
  return data as T;
}

/** The header the service sets on an Idempotency-Key replay: the answer of an earlier request, nothing new done. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Like `call`, and whether the answer is a replay of an earlier request with the same Idempotency-Key. */
export async function callReplayable<T>(request: Promise<Outcome<T>>): Promise<{ data: T; replayed: boolean }> {
  let response: Response | undefined;
  const data = await call(
    request.then((outcome) => {
      response = outcome.response;
      return outcome;
    }),
  );
  return { data, replayed: response?.headers.get(REPLAYED_HEADER) === 'true' };
}

/** The API's error body, or one made from the status when the answer is not one (a proxy's page). */
export function toErrorBody(body: unknown, status: number, statusText = ''): ErrorBody {
  if (body && typeof body === 'object' && 'code' in body && 'error' in body) return body as ErrorBody;
  return { error: statusText || `Request failed (HTTP ${status})`, code: `HTTP_${status}` };
}

/** Calls a route whose body is not JSON (file downloads, multipart uploads) with the session's credential. */
export async function rawFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = currentToken;
  if (token) headers.set('authorization', bearer(token));
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { ...init, headers });
  } catch {
    throw new ApiError(0, NETWORK_ERROR);
  }
  if (response.status === 401) reportUnauthorized(token);
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as unknown;
    throw new ApiError(response.status, toErrorBody(body, response.status, response.statusText), parseRetryAfter(response.headers.get('retry-after')));
  }
  return response;
}
