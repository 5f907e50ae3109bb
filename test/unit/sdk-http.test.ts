// The SDK's transport on its own, with a scripted fetch: which requests are retried and how long it waits
// (jittered exponential backoff, Retry-After in seconds or as an HTTP date), the Idempotency-Key and
// request id kept across retries, timeouts, aborts, and how every failure becomes a typed ConcordError.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AnnotationClient,
  BuyerClient,
  ConcordAbortError,
  ConcordAuthenticationError,
  ConcordConflictError,
  ConcordError,
  ConcordInsufficientCreditsError,
  ConcordNetworkError,
  ConcordNotFoundError,
  ConcordPermissionError,
  ConcordRateLimitError,
  ConcordServerError,
  ConcordTimeoutError,
  ConcordValidationError,
} from '../../sdk/src/index.ts';
import { parseRetryAfter } from '../../sdk/src/errors.ts';

interface Call {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
  at: number;
}

type Step = Response | Error | 'hang' | ((call: Call) => Response | Promise<Response>);

/** A fetch that plays `steps` in order (the last one repeats) and records every call. */
function scriptedFetch(...steps: Step[]) {
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const call: Call = { url: new URL(String(input)), method: init?.method ?? 'GET', headers: new Headers(init?.headers), body: init?.body, at: Date.now() };
    calls.push(call);
    const step = steps[Math.min(calls.length - 1, steps.length - 1)];
    if (step === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(call);
    return (step as Response).clone();
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const apiError = (status: number, code: string, headers: Record<string, string> = {}) => json(status, { error: `${code} happened`, code }, headers);
const baseUrl = 'http://concord.test';
const task = { type: 'BINARY_CHOICE' as const, content: 'Yes?', options: ['yes', 'no'] };
const created = { taskId: 't1', status: 'PENDING', type: 'BINARY_CHOICE', costCents: 20, estimatedCompletionMs: 300_000 };

function buyer(fetch: typeof globalThis.fetch, options: Partial<ConstructorParameters<typeof BuyerClient>[0]> = {}) {
  return new BuyerClient({ baseUrl, token: 'jwt', fetch, retryDelayMs: 1, ...options } as ConstructorParameters<typeof BuyerClient>[0]);
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('retries', () => {
  it('retries a read after a network error and a 503, then returns the answer', async () => {
    const { fetch, calls } = scriptedFetch(new TypeError('fetch failed'), apiError(503, 'UNAVAILABLE'), json(200, { id: 't1' }));
    await expect(buyer(fetch).tasks.get('t1')).resolves.toEqual({ id: 't1' });
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.headers.get('x-request-id'))).size).toBe(1);
  });

  it('retries a creation with one Idempotency-Key, generated or given, across every attempt', async () => {
    const first = scriptedFetch(apiError(502, 'BAD_GATEWAY'), apiError(500, 'INTERNAL'), json(201, created));
    await buyer(first.fetch).tasks.create(task);
    const keys = first.calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);

    const second = scriptedFetch(new TypeError('fetch failed'), json(201, created));
    await buyer(second.fetch).tasks.create(task, { idempotencyKey: 'import-row-42' });
    expect(second.calls.map((c) => c.headers.get('idempotency-key'))).toEqual(['import-row-42', 'import-row-42']);

    // Two separate calls get two keys: the server creates twice, as asked.
    const third = scriptedFetch(json(201, created));
    const client = buyer(third.fetch);
    await client.tasks.create(task);
    await client.tasks.create(task);
    expect(third.calls[0]?.headers.get('idempotency-key')).not.toBe(third.calls[1]?.headers.get('idempotency-key'));
  });

  it('every creating POST carries an Idempotency-Key; answers, redeliveries and updates carry none and are never retried', async () => {
    const ok = scriptedFetch((call) => json(call.method === 'POST' ? 201 : 200, { apiKey: {}, ...created }));
    const client = buyer(ok.fetch);
    await client.tasks.createBatch([task]);
    await client.tasks.uploadCsv('type,content,options\n');
    await client.projects.create({ name: 'p' });
    await client.goldenTasks.create({ ...task, goldenAnswer: 'yes' });
    await client.webhooks.create({ url: 'https://example.com/h', events: ['task.completed'], secret: 'sixteen-characters' });
    await client.deposits.create({ amountCents: 500, method: 'card' });
    await client.apiKeys.create({ name: 'ci' });
    await new AnnotationClient({ baseUrl, apiKey: 'k', fetch: ok.fetch }).requestPayout('a1', { amountCents: 500, method: 'paypal', destination: 'x' });
    expect(ok.calls.map((c) => c.headers.get('idempotency-key'))).toEqual(ok.calls.map(() => expect.stringMatching(/^[0-9a-f-]{36}$/)));

    const failing = scriptedFetch(apiError(503, 'UNAVAILABLE'));
    const app = new AnnotationClient({ baseUrl, apiKey: 'k', fetch: failing.fetch, retryDelayMs: 1 });
    const failingBuyer = buyer(failing.fetch);
    const writes: Array<() => Promise<unknown>> = [
      () => app.complete('t1', { annotatorId: 'a', answer: 'yes', timeSpentMs: 1 }),
      () => app.answerAndNext('t1', { annotatorId: 'a', answer: 'yes', timeSpentMs: 1 }),
      () => failingBuyer.webhooks.redeliver('d1'),
      () => failingBuyer.tasks.update('t1', { maxCents: 30 }),
      () => failingBuyer.tasks.delete('t1'),
      () => failingBuyer.auth.changePassword({ currentPassword: 'a', newPassword: 'b' }),
      () => BuyerClient.login({ baseUrl, fetch: failing.fetch, retryDelayMs: 1 }, { email: 'a@b.c', password: 'x' }),
    ];
    for (const write of writes) {
      const before = failing.calls.length;
      await expect(write()).rejects.toBeInstanceOf(ConcordServerError);
      expect(failing.calls.length - before).toBe(1);
      expect(failing.calls.at(-1)?.headers.get('idempotency-key')).toBeNull();
    }
  });

  it('stops after maxRetries (client default, or per call) and throws the last error', async () => {
    const { fetch, calls } = scriptedFetch(apiError(503, 'UNAVAILABLE'));
    const error = await buyer(fetch, { maxRetries: 3 })
      .tasks.get('t1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcordServerError);
    expect(error).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(calls).toHaveLength(4);
    await buyer(fetch, { maxRetries: 3 })
      .tasks.get('t1', { maxRetries: 0 })
      .catch(() => undefined);
    expect(calls).toHaveLength(5);
  });

  it('does not retry 4xx answers other than 408 and 429', async () => {
    for (const [status, code] of [
      [400, 'VALIDATION_ERROR'],
      [401, 'UNAUTHORIZED'],
      [404, 'TASK_NOT_FOUND'],
      [409, 'IDEMPOTENCY_KEY_REUSED'],
    ] as const) {
      const { fetch, calls } = scriptedFetch(apiError(status, code), json(200, {}));
      await expect(buyer(fetch).tasks.create(task)).rejects.toMatchObject({ status, code });
      expect(calls).toHaveLength(1);
    }
    const timeout = scriptedFetch(apiError(408, 'REQUEST_TIMEOUT'), json(200, { id: 't' }));
    await expect(buyer(timeout.fetch).tasks.get('t')).resolves.toEqual({ id: 't' });
  });

  it('waits a jittered, doubling, capped backoff between attempts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0); // the jitter's low end: half of each delay
    const { fetch, calls } = scriptedFetch(apiError(503, 'UNAVAILABLE'));
    const done = buyer(fetch, { maxRetries: 5, retryDelayMs: 1_000, maxRetryDelayMs: 5_000 })
      .tasks.get('t1')
      .catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await done).toBeInstanceOf(ConcordServerError);
    const gaps = calls.slice(1).map((call, i) => call.at - (calls[i]?.at ?? 0));
    expect(gaps).toEqual([500, 1_000, 2_000, 2_500, 2_500]);

    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const high = scriptedFetch(apiError(503, 'UNAVAILABLE'));
    const again = buyer(high.fetch, { maxRetries: 2, retryDelayMs: 1_000 })
      .tasks.get('t1')
      .catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    await again;
    expect(high.calls.slice(1).map((call, i) => call.at - (high.calls[i]?.at ?? 0))).toEqual([1_000, 2_000]);
  });

  it('honours Retry-After in seconds and as an HTTP date instead of the backoff', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.UTC(2026, 0, 1, 12, 0, 0) });
    const seconds = scriptedFetch(apiError(429, 'RATE_LIMITED', { 'retry-after': '7' }), json(200, { id: 't' }));
    const first = buyer(seconds.fetch).tasks.get('t');
    await vi.runAllTimersAsync();
    await expect(first).resolves.toEqual({ id: 't' });
    expect((seconds.calls[1]?.at ?? 0) - (seconds.calls[0]?.at ?? 0)).toBe(7_000);

    const date = new Date(Date.now() + 12_000).toUTCString();
    const dated = scriptedFetch(apiError(503, 'UNAVAILABLE', { 'retry-after': date }), json(200, { id: 't' }));
    const second = buyer(dated.fetch).tasks.get('t');
    await vi.runAllTimersAsync();
    await expect(second).resolves.toEqual({ id: 't' });
    expect((dated.calls[1]?.at ?? 0) - (dated.calls[0]?.at ?? 0)).toBe(12_000);
  });

  it('throws a Retry-After beyond maxRetryAfterMs at once, with retryAfter, rather than sleeping through it', async () => {
    const { fetch, calls } = scriptedFetch(apiError(429, 'RATE_LIMITED', { 'retry-after': '900', 'x-request-id': 'srv-1' }));
    const error = await buyer(fetch)
      .tasks.get('t')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcordRateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 900, requestId: 'srv-1' });
    expect(calls).toHaveLength(1);
  });

  it('parses Retry-After: seconds, HTTP dates (past ones are 0), nothing else', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30);
    expect(parseRetryAfter(new Date(now - 30_000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('timeouts and aborts', () => {
  it('a request without an answer in timeoutMs is a ConcordTimeoutError (a network error), retried when safe', async () => {
    const { fetch, calls } = scriptedFetch('hang');
    const error = await buyer(fetch, { timeoutMs: 30, maxRetries: 1 })
      .tasks.get('t')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcordTimeoutError);
    expect(error).toBeInstanceOf(ConcordNetworkError);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: undefined, requestId: calls[0]?.headers.get('x-request-id') });
    expect(calls).toHaveLength(2);
  });

  it('a per-call timeout overrides the client default, and a reply in time clears it', async () => {
    const { fetch, calls } = scriptedFetch('hang');
    const client = buyer(fetch, { timeoutMs: 60_000, maxRetries: 0 });
    await expect(client.tasks.get('t', { timeoutMs: 20 })).rejects.toBeInstanceOf(ConcordTimeoutError);
    expect(calls).toHaveLength(1);
    const slow = scriptedFetch(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return json(200, { id: 't' });
    });
    await expect(buyer(slow.fetch, { timeoutMs: 200 }).tasks.get('t')).resolves.toEqual({ id: 't' });
  });

  it('an AbortSignal cancels the request in flight, before it starts, and during a backoff; never retried', async () => {
    const hanging = scriptedFetch('hang');
    const controller = new AbortController();
    const pending = buyer(hanging.fetch).tasks.get('t', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 10);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcordAbortError);
    expect(error).toMatchObject({ code: 'ABORTED', requestId: hanging.calls[0]?.headers.get('x-request-id') });
    expect((error as ConcordAbortError).cause).toEqual(new Error('user left'));
    expect(hanging.calls).toHaveLength(1);

    const never = scriptedFetch(json(200, {}));
    await expect(buyer(never.fetch).tasks.get('t', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(ConcordAbortError);
    expect(never.calls).toHaveLength(0);

    // Aborted during a 10 s back-off: rejected at once, and the back-off's timer is cleared (fake timers: no
    // wall-clock figure in the assertion).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const backingOff = scriptedFetch(apiError(503, 'UNAVAILABLE'));
      const waiting = new AbortController();
      const during = buyer(backingOff.fetch, { retryDelayMs: 10_000 }).tasks.get('t', { signal: waiting.signal });
      const outcome = during.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(20);
      waiting.abort();
      expect(await outcome).toBeInstanceOf(ConcordAbortError);
      expect(vi.getTimerCount()).toBe(0);
      expect(backingOff.calls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the signal still cancels an export stream after the headers; the timeout no longer does', async () => {
    const { fetch } = scriptedFetch(() => {
      // One line, then the stream stays open until cancelled.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":1}\n'));
        },
      });
      return new Response(body, {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson', 'content-disposition': 'attachment; filename="tasks-jsonl.jsonl"' },
      });
    });
    const controller = new AbortController();
    const download = await buyer(fetch, { timeoutMs: 20 }).exports.stream({ format: 'jsonl' }, { signal: controller.signal });
    expect(download.filename).toBe('tasks-jsonl.jsonl');
    const reader = download.body.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"id":1}\n');
    await new Promise((resolve) => setTimeout(resolve, 40)); // past the timeout: still readable
    await reader.cancel();
  });
});

describe('errors', () => {
  it('a failed fetch is a ConcordNetworkError naming the cause, with the request id the SDK sent — never a bare TypeError', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve)); // nothing listens there now
    const client = new BuyerClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'jwt', retryDelayMs: 1, maxRetries: 1 });
    const error = await client.tasks.get('t').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcordNetworkError);
    expect(error).not.toBeInstanceOf(ConcordTimeoutError);
    expect((error as ConcordNetworkError).code).toBe('NETWORK_ERROR');
    expect((error as ConcordNetworkError).message).toMatch(/ECONNREFUSED/);
    expect((error as ConcordNetworkError).requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((error as ConcordNetworkError).cause).toBeInstanceOf(TypeError);
  });

  it('maps each status to its class with status, code, details, taskIndex and the response request id', async () => {
    const cases = [
      [400, 'VALIDATION_ERROR', ConcordValidationError],
      [413, 'PAYLOAD_TOO_LARGE', ConcordValidationError],
      [401, 'UNAUTHORIZED', ConcordAuthenticationError],
      [402, 'INSUFFICIENT_CREDITS', ConcordInsufficientCreditsError],
      [403, 'FORBIDDEN', ConcordPermissionError],
      [404, 'TASK_NOT_FOUND', ConcordNotFoundError],
      [409, 'ALREADY_ANSWERED', ConcordConflictError],
      [429, 'RATE_LIMITED', ConcordRateLimitError],
      [500, 'INTERNAL', ConcordServerError],
      [418, 'TEAPOT', ConcordError],
    ] as const;
    for (const [status, code, type] of cases) {
      const { fetch } = scriptedFetch(json(status, { error: 'nope', code, details: { requiredCents: 20 }, taskIndex: 2 }, { 'x-request-id': `srv-${status}` }));
      const error = await buyer(fetch, { maxRetries: 0 })
        .tasks.create(task)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(ConcordError);
      expect(error).toMatchObject({ status, code, message: 'nope', details: { requiredCents: 20 }, taskIndex: 2, requestId: `srv-${status}` });
      expect((error as ConcordError).name).toBe(type.name);
    }
  });

  it('a non-JSON error page keeps its status and an excerpt; a response without x-request-id gets the id the SDK sent', async () => {
    const { fetch, calls } = scriptedFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
    const error = await buyer(fetch, { maxRetries: 0 })
      .tasks.get('t')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', message: '<html>Bad gateway</html>' });
    expect((error as ConcordError).requestId).toBe(calls[0]?.headers.get('x-request-id'));
  });

  it("sends the caller's x-request-id when given (once, whatever its case) and the bearer credential", async () => {
    const { fetch, calls } = scriptedFetch(json(200, { id: 't' }));
    await buyer(fetch).tasks.get('t', { headers: { 'X-Request-Id': 'mine-1' } });
    expect(calls[0]?.headers.get('x-request-id')).toBe('mine-1');
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer jwt');
  });
});

describe('requests', () => {
  it('numbers go into the query as numbers: limits, ratios, days', async () => {
    const { fetch, calls } = scriptedFetch((call) =>
      call.url.pathname.endsWith('/exports')
        ? new Response('[]', { headers: { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="tasks-json.json"' } })
        : json(200, { tasks: [], nextCursor: null, hasMore: false, days: [] }),
    );
    const client = buyer(fetch);
    await client.exports.stream({ format: 'jsonl', trainRatio: 0.8, valRatio: 0.1, testRatio: 0.1, seed: 's' });
    await client.tasks.list({ status: 'COMPLETED', limit: 5 }).page();
    await client.billing.spend({ days: 7 });
    expect(calls.map((c) => `${c.url.pathname}${c.url.search}`)).toEqual([
      '/api/v1/exports?format=jsonl&trainRatio=0.8&valRatio=0.1&testRatio=0.1&seed=s',
      '/api/v1/tasks?status=COMPLETED&limit=5',
      '/api/v1/billing/spend?days=7',
    ]);
  });

  it('uploadCsv sends the file part from a string, bytes (a Buffer) or a Blob, under the given file name', async () => {
    const { fetch, calls } = scriptedFetch(json(201, { created: 0, tasks: [], errors: [], totalCostCents: 0 }));
    const client = buyer(fetch);
    const csv = 'type,content,options\nBINARY_CHOICE,Ünïcode?,yes|no\n';
    await client.tasks.uploadCsv(csv);
    await client.tasks.uploadCsv(Buffer.from(csv), { filename: 'mine.csv' });
    await client.tasks.uploadCsv(new Blob([csv]), { filename: 'blob.csv', idempotencyKey: 'csv-1' });
    const files = calls.map((call) => (call.body as FormData).get('file') as File);
    expect(files.map((file) => file.name)).toEqual(['tasks.csv', 'mine.csv', 'blob.csv']);
    expect(await Promise.all(files.map((file) => file.text()))).toEqual([csv, csv, csv]);
    expect(calls[2]?.headers.get('idempotency-key')).toBe('csv-1');
    expect(calls[0]?.headers.get('content-type')).toBeNull(); // fetch sets the multipart boundary itself
  });

  it('ids are escaped into paths; a buyer takes a JWT or an API key; changePassword switches a JWT client to the fresh token', async () => {
    const { fetch, calls } = scriptedFetch((call) => (call.url.pathname.endsWith('change-password') ? json(200, { token: 'fresh' }) : json(200, {})));
    const jwtClient = new BuyerClient({ baseUrl, token: 'old', fetch });
    await jwtClient.tasks.get('a/b?c');
    expect(calls[0]?.url.pathname).toBe('/api/v1/tasks/a%2Fb%3Fc');
    await expect(jwtClient.auth.changePassword({ currentPassword: 'x', newPassword: 'y' })).resolves.toEqual({ token: 'fresh' });
    await jwtClient.tasks.get('t');
    expect(calls.at(-1)?.headers.get('authorization')).toBe('Bearer fresh');
    expect(jwtClient.credential).toBe('fresh');

    const keyClient = new BuyerClient({ baseUrl, apiKey: 'cnc_test_abc', fetch });
    expect(keyClient.usesApiKey).toBe(true);
    await keyClient.tasks.get('t');
    expect(calls.at(-1)?.headers.get('authorization')).toBe('Bearer cnc_test_abc');
    expect(() => new BuyerClient({ baseUrl, token: '' })).toThrow(/credential/);
  });
});
