// GET /events/stream for the CLI (issue 18): the buyer's events as server-sent events, read with the SDK's
// transport (its typed errors and request ids), and followed across disconnections: each reconnection
// sends the last event id received as Last-Event-ID, so the service resumes right after it and nothing is
// missed or repeated.
import { ConcordAuthenticationError, ConcordError, ConcordNotFoundError, ConcordPermissionError, ConcordRateLimitError } from '../errors.ts';
import type { HttpClient } from '../http.ts';

/** One event of the stream: the `id:`, `event:` and `data:` lines of a frame. */
export interface StreamMessage {
  id: string | undefined;
  event: string;
  data: string;
}

/** An incremental reader of text/event-stream (the HTML standard's parsing rules; comments are heartbeats). */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private hasData = false;
  lastEventId: string | undefined;

  push(chunk: string): StreamMessage[] {
    this.buffer += chunk;
    const messages: StreamMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (this.hasData) messages.push({ id: this.lastEventId, event: this.event || 'message', data: this.data.join('\n') });
        this.data = [];
        this.event = '';
        this.hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') {
        this.data.push(value);
        this.hasData = true;
      } else if (field === 'event') this.event = value;
      else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    }
    return messages;
  }
}

/** The stream's events in order, until it ends (the server closed it) or `signal` aborts. */
export async function* readEventStream(
  http: HttpClient,
  options: { lastEventId?: string; signal: AbortSignal; onOpen?: () => void },
): AsyncGenerator<StreamMessage> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const { response } = await http.send({ method: 'GET', path: '/events/stream', stream: true, options: { headers, signal: options.signal, maxRetries: 0, timeoutMs: 30_000 } });
  options.onOpen?.();
  if (!response.body) return;
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  options.signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const message of parser.push(decoder.decode(value, { stream: true }))) yield message;
    }
  } finally {
    options.signal.removeEventListener('abort', cancel);
    cancel();
  }
}

export interface FollowOptions {
  signal: AbortSignal;
  /** Called when a connection opens (`reconnected`: not the first). */
  onConnect?: (reconnected: boolean) => void;
  /** Called when a connection is lost, before waiting `delayMs` to reconnect. */
  onDisconnect?: (error: unknown, delayMs: number) => void;
}

/** Whether the service has no event stream (an older server): 404 or 405 on the route. */
export const streamUnavailable = (error: unknown) =>
  error instanceof ConcordNotFoundError || (error instanceof ConcordError && (error.status === 405 || error.code === 'METHOD_NOT_ALLOWED'));

/**
 * Follows the stream for ever (until `signal` aborts): reconnects after any disconnection with
 * Last-Event-ID, backing off from 1 s to 30 s (or the service's Retry-After). A refused credential, or a
 * service without the stream, ends it with the error.
 */
export async function* followEventStream(http: HttpClient, options: FollowOptions): AsyncGenerator<StreamMessage> {
  let lastEventId: string | undefined;
  let failures = 0;
  let connected = false;
  while (!options.signal.aborted) {
    let failure: unknown;
    try {
      const onOpen = () => {
        options.onConnect?.(connected);
        connected = true;
        failures = 0;
      };
      for await (const message of readEventStream(http, { lastEventId, signal: options.signal, onOpen })) {
        if (message.id) lastEventId = message.id;
        yield message;
      }
      // The stream ended: the server closed it (a shutdown, say); reconnect.
    } catch (error) {
      if (options.signal.aborted) return;
      if (error instanceof ConcordAuthenticationError || error instanceof ConcordPermissionError || streamUnavailable(error)) throw error;
      failure = error;
    }
    if (options.signal.aborted) return;
    failures += 1;
    const retryAfter = failure instanceof ConcordRateLimitError || (failure instanceof ConcordError && failure.status === 503) ? Number(failure.headers?.get('retry-after')) : NaN;
    const delayMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : Math.min(30_000, 1_000 * 2 ** Math.min(failures - 1, 5));
    options.onDisconnect?.(failure, delayMs);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, delayMs);
      function done() {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', done);
        resolve();
      }
      options.signal.addEventListener('abort', done, { once: true });
    });
  }
}
