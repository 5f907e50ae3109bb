// The SDK's event stream (client.events.stream(), sdk/src/event-stream.ts) with a scripted fetch: the SSE
// parser against the service's own frames cut at every size, and the iterator's connection logic —
// resuming with Last-Event-ID after the server ends a stream, after a broken body, after an idle
// connection and after a timeout waiting for headers; Retry-After on 503 and 429; the per-buyer cap
// retried; 401, 403 and 404 ending it; a refused Last-Event-ID as ConcordStreamResumeError; the request
// timeout never cutting an open stream; heartbeats keeping it; abort and break closing the body.
import { describe, expect, it } from 'vitest';
import {
  BuyerClient,
  ConcordAuthenticationError,
  ConcordNotFoundError,
  ConcordPermissionError,
  ConcordStreamResumeError,
  ConcordValidationError,
  SseParser,
  type EventStreamOptions,
  type SseMessage,
} from '../../sdk/src/index.ts';
import type { ConcordError } from '../../sdk/src/errors.ts';
import { sseComment, sseEvent, sseRetry } from '@concord/contract';

const baseUrl = 'http://concord.test';
const encoder = new TextEncoder();

/** A response body the test writes to, ends, breaks, and sees cancelled. */
function sseBody() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      state.cancelled = true;
    },
  });
  return {
    body,
    state,
    send: (text: string) => controller?.enqueue(encoder.encode(text)),
    end: () => controller?.close(),
    fail: (error: Error) => controller?.error(error),
  };
}
type Body = ReturnType<typeof sseBody>;

interface Call {
  url: URL;
  headers: Headers;
  signal: AbortSignal | undefined;
}
type Step = ((call: Call) => Response | Promise<Response>) | 'hang';

/** A fetch that plays one step per call (the last repeats) and records each call. */
function scriptedFetch(...steps: Step[]) {
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const call = { url: new URL(String(input)), headers: new Headers(init?.headers), signal: init?.signal ?? undefined };
    calls.push(call);
    const step = steps[Math.min(calls.length - 1, steps.length - 1)] as Step;
    if (step === 'hang') {
      return new Promise<Response>((_resolve, reject) => {
        call.signal?.addEventListener('abort', () => reject(call.signal?.reason), { once: true });
      });
    }
    return step(call);
  };
  return { fetch, calls };
}

const streamOf = (body: Body) => () => new Response(body.body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
const apiError =
  (status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ error: `${code} happened`, code, ...extra }), { status, headers: { 'content-type': 'application/json', ...headers } });

/** An event frame as the service writes it (src/lib/sse.ts), for an event `id` of `type`. */
const frame = (id: string, type = 'task.completed') =>
  sseEvent(
    id,
    type,
    JSON.stringify({ id, type, taskId: `task-of-${id}`, payload: { event: type, taskId: `task-of-${id}` }, createdAt: '2026-03-14T09:31:27.215Z' }),
  );
const opening = sseRetry(3_000) + sseComment('connected');

function client(fetch: typeof globalThis.fetch, timeoutMs?: number) {
  return new BuyerClient({ baseUrl, apiKey: 'cnc_test_0123456789abcdef', fetch, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

/** Collects `count` events' ids, then leaves the loop; the connect and disconnect reports come along. */
async function take(fetch: typeof globalThis.fetch, count: number, options: EventStreamOptions = {}, timeoutMs?: number, onEvent?: (id: string) => void) {
  const ids: string[] = [];
  const connects: boolean[] = [];
  const disconnects: Array<{ code: string; delayMs: number; lastEventId: string | undefined }> = [];
  const stream = client(fetch, timeoutMs).events.stream({
    reconnectDelayMs: 1,
    ...options,
    onConnect: ({ reconnected }) => connects.push(reconnected),
    onDisconnect: ({ error, delayMs, lastEventId }) => disconnects.push({ code: error.code, delayMs, lastEventId }),
  });
  for await (const event of stream) {
    ids.push(event.id);
    onEvent?.(event.id);
    if (ids.length >= count) break;
  }
  return { ids, connects, disconnects, stream };
}

describe('SseParser', () => {
  const text = opening + frame('evt_1') + sseComment('ping') + frame('evt_2', 'budget.low') + sseEvent('evt_3', 'ping', 'line one\nline two');

  it("reads the service's frames however the text is cut", () => {
    for (let size = 1; size <= text.length; size += size < 12 ? 1 : 17) {
      const comments: string[] = [];
      const parser = new SseParser((comment) => comments.push(comment));
      const messages: SseMessage[] = [];
      for (let i = 0; i < text.length; i += size) messages.push(...parser.push(text.slice(i, i + size)));
      expect(
        messages.map((m) => [m.id, m.event]),
        `chunks of ${size}`,
      ).toEqual([
        ['evt_1', 'task.completed'],
        ['evt_2', 'budget.low'],
        ['evt_3', 'ping'],
      ]);
      expect(messages[2]?.data).toBe('line one\nline two');
      expect(JSON.parse(messages[0]?.data ?? '')).toMatchObject({ id: 'evt_1', taskId: 'task-of-evt_1' });
      expect(comments).toEqual(['connected', 'ping']);
      expect(parser.retryMs).toBe(3_000);
      expect(parser.lastEventId).toBe('evt_3');
    }
  });

  it('follows the standard: CRLF and CR, no space after the colon, "message" by default, no dispatch without data, id kept, NUL ids and bad retry values ignored', () => {
    const parser = new SseParser();
    expect(parser.push('id:7\r\ndata:x\r\n\r\nevent: lone\r\n\r\ndata: y\r')).toEqual([{ id: '7', event: 'message', data: 'x' }]);
    expect(parser.push('\n\n')).toEqual([{ id: '7', event: 'message', data: 'y' }]);
    expect(parser.push('id: a\0b\nretry: soon\ndata\n\n')).toEqual([{ id: '7', event: 'message', data: '' }]);
    expect(parser.retryMs).toBeUndefined();
    expect(parser.push('data: 1\ndata: 2\nunknown: field\n\n')).toEqual([{ id: '7', event: 'message', data: '1\n2' }]);
  });
});

describe('client.events.stream()', () => {
  it('yields the events of the frames, asks for text/event-stream with the credential, skips what is not an event', async () => {
    const body = sseBody();
    const { fetch, calls } = scriptedFetch(streamOf(body));
    body.send(opening + sseEvent('x', 'message', 'not json') + 'data: {"no":"id"}\n\n' + frame('evt_1') + frame('evt_2', 'ping'));
    const { ids, connects } = await take(fetch, 2);
    expect(ids).toEqual(['evt_1', 'evt_2']);
    expect(connects).toEqual([false]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.pathname).toBe('/api/v1/events/stream');
    expect(calls[0]?.headers.get('accept')).toBe('text/event-stream');
    expect(calls[0]?.headers.get('authorization')).toBe('Bearer cnc_test_0123456789abcdef');
    expect(calls[0]?.headers.has('last-event-id')).toBe(false);
    expect(body.state.cancelled).toBe(true); // the break released the connection
  });

  it('starts after the lastEventId given, and exposes the last event handed out', async () => {
    const body = sseBody();
    const { fetch, calls } = scriptedFetch(streamOf(body));
    body.send(opening + frame('evt_8') + frame('evt_9'));
    const { ids, stream } = await take(fetch, 1, { lastEventId: 'evt_7' });
    expect(ids).toEqual(['evt_8']);
    expect(calls[0]?.headers.get('last-event-id')).toBe('evt_7');
    expect(stream.lastEventId).toBe('evt_8');
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/iterated once/);
  });

  it('resumes with Last-Event-ID when the service ends the stream, and after a body that breaks off', async () => {
    const first = sseBody();
    const second = sseBody();
    const third = sseBody();
    const { fetch, calls } = scriptedFetch(streamOf(first), streamOf(second), streamOf(third));
    first.send(opening + frame('evt_1') + frame('evt_2'));
    first.end();
    second.send(opening + frame('evt_3'));
    third.send(opening + frame('evt_4'));
    // The second body breaks off once evt_3 has been read (a timer could fire before it was, and the
    // failure would discard it).
    const { ids, connects, disconnects } = await take(fetch, 4, {}, undefined, (id) => {
      if (id === 'evt_3') second.fail(new TypeError('terminated'));
    });
    expect(ids).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4']);
    expect(calls.map((call) => call.headers.get('last-event-id'))).toEqual([null, 'evt_2', 'evt_3']);
    expect(connects).toEqual([false, true, true]);
    expect(disconnects.map((d) => [d.code, d.lastEventId])).toEqual([
      ['STREAM_ENDED', 'evt_2'],
      ['NETWORK_ERROR', 'evt_3'],
    ]);
  });

  it('waits what Retry-After says on 503 SERVER_BUSY and 429, and retries the per-buyer cap (400 LIMIT_EXCEEDED)', async () => {
    const body = sseBody();
    const { fetch, calls } = scriptedFetch(
      apiError(503, 'SERVER_BUSY', {}, { 'retry-after': '1' }),
      apiError(429, 'RATE_LIMITED', {}, { 'retry-after': '0' }),
      apiError(400, 'LIMIT_EXCEEDED', { details: { maxPerBuyer: 20 } }),
      streamOf(body),
    );
    body.send(opening + frame('evt_1'));
    const { ids, disconnects } = await take(fetch, 1, { reconnectDelayMs: 40 });
    expect(ids).toEqual(['evt_1']);
    expect(calls).toHaveLength(4);
    expect(disconnects.map((d) => d.code)).toEqual(['SERVER_BUSY', 'RATE_LIMITED', 'LIMIT_EXCEEDED']);
    expect(disconnects[0]?.delayMs).toBe(1_000);
    expect(disconnects[1]?.delayMs).toBe(0);
    // The third failure in a row: 40 ms doubled twice, with 50–100 % jitter.
    expect(disconnects[2]?.delayMs).toBeGreaterThanOrEqual(80);
    expect(disconnects[2]?.delayMs).toBeLessThanOrEqual(160);
  });

  it.each([
    [401, 'UNAUTHORIZED', ConcordAuthenticationError],
    [403, 'FORBIDDEN', ConcordPermissionError],
    [404, 'NOT_FOUND', ConcordNotFoundError],
  ])('stops on %i (%s): thrown, never retried', async (status, code, type) => {
    const { fetch, calls } = scriptedFetch(apiError(status, code));
    const failure = await take(fetch, 1).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(type);
    expect(failure).toMatchObject({ status, code });
    expect(calls).toHaveLength(1);
  });

  it('a refused Last-Event-ID (400, details.issues[].path Last-Event-ID) is a ConcordStreamResumeError naming the id, not retried', async () => {
    const message = 'not one of your events of the last 30 days: reconcile with GET /events?since=…, then connect without it';
    const { fetch, calls } = scriptedFetch(
      apiError(400, 'VALIDATION_ERROR', { error: `Invalid request: Last-Event-ID: ${message}`, details: { issues: [{ path: 'Last-Event-ID', message }] } }),
    );
    const failure = await take(fetch, 1, { lastEventId: 'evt_gone' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConcordStreamResumeError);
    expect(failure).toBeInstanceOf(ConcordValidationError);
    expect(failure).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', lastEventId: 'evt_gone', requestId: expect.any(String) });
    expect(calls).toHaveLength(1);
    // Another 400 stays what it is.
    const other = scriptedFetch(apiError(400, 'VALIDATION_ERROR', { details: { issues: [{ path: 'lastEventId', message: 'too long' }] } }));
    const plain = await take(other.fetch, 1, { lastEventId: 'evt_x' }).catch((error: unknown) => error);
    expect(plain).toBeInstanceOf(ConcordValidationError);
    expect(plain).not.toBeInstanceOf(ConcordStreamResumeError);
  });

  it('the request timeout bounds the wait for headers only: an open stream outlives it', async () => {
    const body = sseBody();
    const { fetch, calls } = scriptedFetch(streamOf(body));
    body.send(opening + frame('evt_1'));
    setTimeout(() => body.send(frame('evt_2')), 150); // well past the 20 ms timeout
    const { ids, disconnects } = await take(fetch, 2, { idleTimeoutMs: 5_000 }, 20);
    expect(ids).toEqual(['evt_1', 'evt_2']);
    expect(calls).toHaveLength(1);
    expect(disconnects).toEqual([]);
  });

  it('no headers within the timeout: reconnects (TIMEOUT)', async () => {
    const body = sseBody();
    const { fetch, calls } = scriptedFetch('hang', streamOf(body));
    body.send(opening + frame('evt_1'));
    const { ids, disconnects } = await take(fetch, 1, { timeoutMs: 20 });
    expect(ids).toEqual(['evt_1']);
    expect(calls).toHaveLength(2);
    expect(disconnects.map((d) => d.code)).toEqual(['TIMEOUT']);
  });

  it('a connection silent for idleTimeoutMs is dropped and resumed after its last event; heartbeats keep one open', async () => {
    const silent = sseBody();
    const next = sseBody();
    const { fetch, calls } = scriptedFetch(streamOf(silent), streamOf(next));
    silent.send(opening + frame('evt_1')); // then nothing, not even a heartbeat
    next.send(opening + frame('evt_2'));
    const { ids, disconnects } = await take(fetch, 2, { idleTimeoutMs: 50 });
    expect(ids).toEqual(['evt_1', 'evt_2']);
    expect(calls.map((call) => call.headers.get('last-event-id'))).toEqual([null, 'evt_1']);
    expect(disconnects.map((d) => d.code)).toEqual(['STREAM_IDLE']);
    expect(silent.state.cancelled).toBe(true);

    // Heartbeats far more often than the idle timeout: the one connection lasts as long as it takes.
    const beating = sseBody();
    const kept = scriptedFetch(streamOf(beating));
    beating.send(opening);
    let beats = 0;
    const heart = setInterval(() => {
      beats += 1;
      beating.send(sseComment('ping'));
      if (beats === 15) beating.send(frame('evt_9'));
    }, 20);
    try {
      const alive = await take(kept.fetch, 1, { idleTimeoutMs: 250 });
      expect(alive.ids).toEqual(['evt_9']);
      expect(kept.calls).toHaveLength(1);
      expect(alive.disconnects).toEqual([]);
    } finally {
      clearInterval(heart);
    }
  });

  it("uses the service's retry: as the first reconnection delay when none is set", async () => {
    const first = sseBody();
    const second = sseBody();
    const { fetch } = scriptedFetch(streamOf(first), streamOf(second));
    first.send(sseRetry(30) + frame('evt_1'));
    first.end();
    second.send(frame('evt_2'));
    const { disconnects } = await take(fetch, 2, { reconnectDelayMs: undefined });
    expect(disconnects).toHaveLength(1);
    expect(disconnects[0]?.delayMs).toBeGreaterThanOrEqual(15);
    expect(disconnects[0]?.delayMs).toBeLessThanOrEqual(30);
  });

  it('an aborted signal ends the loop quietly and closes the connection, while reading or while waiting to reconnect', async () => {
    const body = sseBody();
    const { fetch } = scriptedFetch(streamOf(body));
    body.send(opening + frame('evt_1'));
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const event of client(fetch).events.stream({ signal: controller.signal })) {
      seen.push(event.id);
      setTimeout(() => controller.abort(), 10);
    }
    expect(seen).toEqual(['evt_1']);
    expect(body.state.cancelled).toBe(true);

    const waiting = new AbortController();
    const busy = scriptedFetch(apiError(503, 'SERVER_BUSY', {}, { 'retry-after': '3600' }));
    const errors: ConcordError[] = [];
    const loop = (async () => {
      for await (const _event of client(busy.fetch).events.stream({ signal: waiting.signal, onDisconnect: ({ error }) => errors.push(error) })) {
        // none comes
      }
    })();
    while (errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    waiting.abort();
    await expect(loop).resolves.toBeUndefined();
    expect(busy.calls).toHaveLength(1);
  });
});
