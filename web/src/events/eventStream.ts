// The buyer's live events (GET /events/stream) in the browser. EventSource cannot send the
// Authorization header, and the session's token must never ride in a URL (it would land in access logs
// and the browser's history), so the stream is read with fetch and a streaming body instead. One
// connection per signed-in tab: it reconnects with back-off, sends the last event id it saw so nothing
// is missed, and closes while the tab is hidden (like TanStack Query's polling, which stops there too).
import { SseParser } from '@concord/contract';
import { rawFetch } from '../api/client';
import { ApiError } from '../api/errors';

/** One event as the stream sends it (the `data:` line, parsed): GET /events/:id without its deliveries. */
export interface StreamedEvent {
  id: string;
  type: string;
  taskId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
}

/**
 * Reads `text/event-stream` text as it arrives (in chunks cut anywhere) with the contract's SseParser and
 * returns the complete events each chunk ends: the `data:` of every message, parsed. Comments (`: ping`)
 * and blocks without data are skipped, as the HTML standard's EventSource does.
 */
export class EventStreamReader {
  private readonly parser = new SseParser();

  get lastEventId(): string | undefined {
    return this.parser.lastEventId;
  }

  push(chunk: string): StreamedEvent[] {
    return this.parser.push(chunk).map((message) => JSON.parse(message.data) as StreamedEvent);
  }
}

export type StreamStatus = 'connecting' | 'live' | 'down';

export interface StreamHandlers {
  /** Each event, in the order the server numbered them (after commit). */
  onEvent(event: StreamedEvent): void;
  /** The stream (re)started: anything may have changed while it was down. */
  onOpen(): void;
  onStatus(status: StreamStatus): void;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** A 400 (too many open streams) is not retried soon: the pages poll meanwhile. */
const REFUSED_RETRY_MS = 60_000;

/**
 * Keeps one stream open while `start`ed; `stop` closes it. Never throws: a failure is a reconnection
 * later, and the pages keep their polling fallback meanwhile. A 401 ends the session (rawFetch reports
 * it); a 403 (not a buyer) stops trying.
 */
export class EventStreamConnection {
  private abort: AbortController | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = FIRST_RETRY_MS;
  private lastEventId: string | undefined;
  private running = false;

  constructor(private readonly handlers: StreamHandlers) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.connect();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.abort?.abort();
    this.abort = undefined;
    this.handlers.onStatus('down');
  }

  private async connect(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.handlers.onStatus('connecting');
    let retryMs: number | null = null;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
      const response = await rawFetch('/events/stream', { headers, signal: abort.signal, cache: 'no-store' });
      const body = response.body;
      if (!body) throw new ApiError(0, { error: 'The stream has no body', code: 'NETWORK_ERROR' });
      this.retryMs = FIRST_RETRY_MS;
      this.handlers.onStatus('live');
      this.handlers.onOpen();
      await this.read(body, abort.signal);
      retryMs = FIRST_RETRY_MS;
    } catch (error) {
      if (abort.signal.aborted) return;
      retryMs = this.retryAfter(error);
    }
    if (!this.running || abort.signal.aborted || retryMs === null) return;
    this.handlers.onStatus('down');
    this.retryTimer = setTimeout(() => void this.connect(), retryMs);
  }

  private async read(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
    const reader = new EventStreamReader();
    const decoder = new TextDecoder();
    const bytes = body.getReader();
    try {
      for (;;) {
        const { done, value } = await bytes.read();
        if (done || signal.aborted) return;
        // stream: a character cut between two chunks is completed by the next.
        for (const event of reader.push(decoder.decode(value, { stream: true }))) this.handlers.onEvent(event);
        this.lastEventId = reader.lastEventId ?? this.lastEventId;
      }
    } finally {
      bytes.releaseLock();
    }
  }

  /** When to try again after a failure, or null never (this tab's session is not a buyer's any more). */
  private retryAfter(error: unknown): number | null {
    if (error instanceof ApiError) {
      if (error.status === 401 || error.status === 403) return null;
      // The last event id is older than the log's 30 days (or gone): start from now; the pages refetch on open.
      if (error.code === 'VALIDATION_ERROR') {
        this.lastEventId = undefined;
        return FIRST_RETRY_MS;
      }
      if (error.code === 'LIMIT_EXCEEDED') return REFUSED_RETRY_MS;
      if (error.retryAfterSeconds !== undefined) return error.retryAfterSeconds * 1_000;
    }
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    return wait;
  }
}
