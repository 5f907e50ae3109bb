// GET /events/stream as an async iterator (client.events.stream()): the buyer's events as server-sent
// events, parsed frame by frame, and followed across disconnections. Each reconnection sends the id of the
// last event handed out as Last-Event-ID, so the service resumes right after it: nothing is missed or
// repeated. Only the wait for each connection's response headers is bounded by the request timeout; once
// open, the stream is kept alive by the service's heartbeats (a `: ping` comment every 15 s), and a
// connection that brings no byte for `idleTimeoutMs` (three heartbeats) is dropped and resumed.
import {
  ConcordAbortError,
  ConcordAuthenticationError,
  ConcordError,
  ConcordNetworkError,
  ConcordPermissionError,
  ConcordTimeoutError,
  ConcordValidationError,
  parseRetryAfter,
  type ConcordErrorInit,
} from './errors.ts';
import { jitteredBackoffMs, type HttpClient } from './http.ts';
import type { StreamedEvent } from './types.ts';
import { SseParser, type SseMessage } from '@concord/contract';

export { SseParser, type SseMessage } from '@concord/contract';

/**
 * The stream could not resume: the Last-Event-ID sent is not one of the buyer's events of the last 30
 * days (too old, or unknown to this service). The service refuses to guess (starting from now would skip
 * what was missed), so the iterator stops with this error. Reconcile with `client.events.list({since})`
 * from the last event you handled, then open a new stream without `lastEventId` (from now on).
 */
export class ConcordStreamResumeError extends ConcordValidationError {
  /** The id the stream tried to resume after. */
  readonly lastEventId: string;

  constructor(init: ConcordErrorInit & { lastEventId: string }) {
    super(init);
    this.lastEventId = init.lastEventId;
  }
}

export interface EventStreamOptions {
  /** Resume right after this event (one of yours of the last 30 days); from now on unless set. */
  lastEventId?: string;
  /** Aborting it ends the iteration (the loop simply finishes) and closes the connection at once. */
  signal?: AbortSignal;
  /** How long each connection may take to answer with its headers; the client's `timeoutMs` unless set. Never limits the open stream. */
  timeoutMs?: number;
  /**
   * A connection that brings no byte (not even a heartbeat) for this long is dropped and resumed;
   * 45 000 (three of the service's 15 s heartbeats) unless set; 0 never drops one.
   */
  idleTimeoutMs?: number;
  /** The first reconnection's delay, doubled at each failure in a row; the service's `retry:` (3 s), else 1 000, unless set. */
  reconnectDelayMs?: number;
  /** The longest reconnection delay (a `Retry-After` is honoured whatever its length); 30 000 unless set. */
  maxReconnectDelayMs?: number;
  /** Headers for each connection (an `x-request-id` of your own, say). */
  headers?: Record<string, string>;
  /** Called each time a connection opens (the service has answered 200): `reconnected` is false for the first. */
  onConnect?: (info: { reconnected: boolean; lastEventId: string | undefined }) => void;
  /** Called when a connection is lost or refused, before waiting `delayMs` to reconnect. */
  onDisconnect?: (info: { error: ConcordError; delayMs: number; lastEventId: string | undefined }) => void;
}

const DEFAULTS = { idleTimeoutMs: 45_000, reconnectDelayMs: 1_000, maxReconnectDelayMs: 30_000 };

/** A failure that ends the iteration instead of a reconnection. */
function isFinal(error: ConcordError): boolean {
  if (error instanceof ConcordAuthenticationError || error instanceof ConcordPermissionError) return true;
  if (error.status === undefined || error.status >= 500 || error.status === 408 || error.status === 429) return false;
  // The buyer's cap of open streams per server process: another process may have room, or a stream may close.
  if (error.status === 400 && error.code === 'LIMIT_EXCEEDED') return false;
  // Any other 4xx (a refused Last-Event-ID, a service without the stream: 404 or 405) would only be refused again.
  return error.status >= 400;
}

/** Whether a 400 is the service refusing the Last-Event-ID (details.issues[].path). */
function refusesLastEventId(error: ConcordError): boolean {
  const issues = error.details?.issues;
  return error.status === 400 && Array.isArray(issues) && issues.some((issue) => (issue as { path?: unknown } | null)?.path === 'Last-Event-ID');
}

/** An event of a frame's data, or undefined for a frame that is not one (skipped). */
function eventOf(message: SseMessage): StreamedEvent | undefined {
  try {
    const event: unknown = JSON.parse(message.data);
    if (event && typeof event === 'object' && typeof (event as StreamedEvent).id === 'string' && typeof (event as StreamedEvent).type === 'string') {
      return event as StreamedEvent;
    }
  } catch {
    // not JSON: a message of another kind, skipped
  }
  return undefined;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (elapsed: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(elapsed);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

class IdleTimeout extends Error {}

/**
 * The buyer's events as they commit, in order, for as long as you iterate: `for await (const event of
 * client.events.stream())`. One iteration per EventStream. `lastEventId` is the id of the last event
 * handed out: keep it to resume later.
 */
export class EventStream implements AsyncIterable<StreamedEvent> {
  private last: string | undefined;
  private serverRetryMs: number | undefined;
  private started = false;

  constructor(
    private readonly http: HttpClient,
    private readonly options: EventStreamOptions = {},
  ) {
    this.last = options.lastEventId || undefined;
  }

  /** The id of the last event handed out (or the `lastEventId` given, before any). */
  get lastEventId(): string | undefined {
    return this.last;
  }

  [Symbol.asyncIterator](): AsyncGenerator<StreamedEvent, void, undefined> {
    if (this.started) throw new TypeError('An EventStream is iterated once: call events.stream() again (with its lastEventId) for another loop');
    this.started = true;
    return this.run();
  }

  private async *run(): AsyncGenerator<StreamedEvent, void, undefined> {
    const { signal } = this.options;
    let connections = 0;
    let failures = 0;
    while (!signal?.aborted) {
      let reason: ConcordError;
      // This connection's own signal: the caller's, or the end of the iteration. Aborting also cancels the
      // body being read, for fetch implementations that do not end it themselves.
      const connection = new AbortController();
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      const onAbort = () => {
        connection.abort(signal?.reason);
        reader?.cancel().catch(() => undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const headers: Record<string, string> = { ...this.options.headers, accept: 'text/event-stream' };
        if (this.last) headers['last-event-id'] = this.last;
        const { response, requestId } = await this.http.send({
          method: 'GET',
          path: '/events/stream',
          stream: true,
          options: { headers, signal: connection.signal, maxRetries: 0, timeoutMs: this.options.timeoutMs },
        });
        connections += 1;
        this.options.onConnect?.({ reconnected: connections > 1, lastEventId: this.last });
        if (!response.body) throw new ConcordError({ message: 'The event stream has no body', code: 'INVALID_RESPONSE', status: response.status, requestId });
        reader = response.body.getReader();
        const parser = new SseParser();
        const decoder = new TextDecoder();
        for (;;) {
          const { done, value } = await this.read(reader);
          if (done) break;
          // Bytes arrive: the connection works, so the next failure starts the backoff afresh.
          failures = 0;
          const messages = parser.push(decoder.decode(value, { stream: true }));
          if (parser.retryMs !== undefined) this.serverRetryMs = parser.retryMs;
          for (const message of messages) {
            if (message.id !== undefined) this.last = message.id || undefined;
            const event = eventOf(message);
            if (!event) continue;
            yield event;
            if (signal?.aborted) return;
          }
        }
        reason = new ConcordNetworkError({ message: 'The service ended the stream', code: 'STREAM_ENDED', requestId });
      } catch (error) {
        if (signal?.aborted) return;
        reason = this.reasonOf(error);
      } finally {
        signal?.removeEventListener('abort', onAbort);
        connection.abort();
        reader?.cancel().catch(() => undefined);
      }
      if (signal?.aborted) return;
      if (isFinal(reason)) throw reason;
      failures += 1;
      const delayMs = this.delayMs(reason, failures);
      this.options.onDisconnect?.({ error: reason, delayMs, lastEventId: this.last });
      if (!(await pause(delayMs, signal))) return;
    }
  }

  /** The next chunk, or IdleTimeout when none comes within idleTimeoutMs. */
  private read(reader: ReadableStreamDefaultReader<Uint8Array>): ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> {
    const idleMs = this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
    if (!(idleMs > 0)) return reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new IdleTimeout()), idleMs);
    });
    return Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
  }

  /** Any failure of a connection as a ConcordError (a refused Last-Event-ID as ConcordStreamResumeError). */
  private reasonOf(error: unknown): ConcordError {
    if (error instanceof IdleTimeout) {
      const idleMs = this.options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs;
      return new ConcordTimeoutError({ message: `No data (not even a heartbeat) for ${idleMs} ms`, code: 'STREAM_IDLE' });
    }
    if (error instanceof ConcordError && !(error instanceof ConcordAbortError)) {
      if (this.last && refusesLastEventId(error)) {
        return new ConcordStreamResumeError({
          message: error.message,
          code: error.code,
          status: error.status,
          details: error.details,
          requestId: error.requestId,
          headers: error.headers,
          cause: error,
          lastEventId: this.last,
        });
      }
      return error;
    }
    // The body broke off while being read (a reset connection, a proxy giving up).
    const message = error instanceof Error ? error.message : String(error);
    return new ConcordNetworkError({ message: `The event stream broke off: ${message}`, code: 'NETWORK_ERROR', cause: error });
  }

  /** Retry-After when the service sent one (503 SERVER_BUSY, 429), else a jittered exponential backoff. */
  private delayMs(reason: ConcordError, failures: number): number {
    const retryAfter = parseRetryAfter(reason.headers?.get('retry-after') ?? null);
    if (retryAfter !== undefined) return retryAfter * 1000;
    const base = this.options.reconnectDelayMs ?? this.serverRetryMs ?? DEFAULTS.reconnectDelayMs;
    // The doubling stops after 10 failures, whatever the cap.
    return jitteredBackoffMs(base, this.options.maxReconnectDelayMs ?? DEFAULTS.maxReconnectDelayMs, Math.min(failures, 11));
  }
}
