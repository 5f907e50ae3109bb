// The one API client: openapi-fetch over the types generated from the service's OpenAPI document, so a
// renamed field breaks the build, not the page. Every call goes through `call`, which turns an error
// body into an ApiError carrying the API's `code`.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../sdk/src/generated/openapi';
import { ApiError, type ErrorBody } from './errors';

export type Schemas = components['schemas'];

let currentToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** The session module keeps the client's credential in step with the signed-in account. */
export function setCredential(token: string | null, unauthorized: (() => void) | null): void {
  currentToken = token;
  onUnauthorized = unauthorized;
}

const auth: Middleware = {
  onRequest({ request }) {
    if (currentToken && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${currentToken}`);
    return request;
  },
  onResponse({ response, request }) {
    // A revoked or expired token ends the session; a failed log-in (no credential sent) does not.
    if (response.status === 401 && request.headers.has('authorization')) onUnauthorized?.();
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
    throw new ApiError(0, { error: 'The service could not be reached. Check your connection and try again.', code: 'NETWORK' });
  }
  const { data, error, response } = outcome;
  if (!response.ok) throw new ApiError(response.status, toErrorBody(error, response));
  return data as T;
}

function toErrorBody(error: unknown, response: Response): ErrorBody {
  if (error && typeof error === 'object' && 'code' in error && 'error' in error) return error as ErrorBody;
  return { error: response.statusText || 'Request failed', code: `HTTP_${response.status}` };
}

/** Calls a route whose body is not JSON (file downloads, multipart uploads) with the session's credential. */
export async function rawFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (currentToken) headers.set('authorization', `Bearer ${currentToken}`);
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { ...init, headers });
  } catch {
    throw new ApiError(0, { error: 'The service could not be reached. Check your connection and try again.', code: 'NETWORK' });
  }
  if (response.status === 401 && currentToken) onUnauthorized?.();
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as unknown;
    throw new ApiError(response.status, toErrorBody(body, response));
  }
  return response;
}

/** For requests made outside this client (XHR uploads): a 401 there ends the session too. */
export function reportUnauthorized(): void {
  if (currentToken) onUnauthorized?.();
}

/** The credential for code that must build its own request (XMLHttpRequest uploads with progress). */
export const currentCredential = (): string | null => currentToken;
