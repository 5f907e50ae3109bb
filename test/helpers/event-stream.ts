// A client of GET /events/stream for the tests (and the bench): node:http, the service's own SSE reader.
import http from 'node:http';
import { SseParser, type SseMessage } from '@concord/contract';

export interface StreamOptions {
  lastEventId?: string;
  /** Appended to the path as it is, e.g. `?lastEventId=…`. */
  query?: string;
}

/** A refused stream: its status, headers and JSON error body. */
export interface RefusedStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error: string; code: string; details?: Record<string, unknown> };
}

export class EventStreamClient {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  /** Resolves when the server ends the stream (or the connection breaks). */
  readonly ended: Promise<void>;
  private readonly reader: SseParser;
  private waiters: Array<() => void> = [];

  constructor(
    private readonly request: http.ClientRequest,
    readonly response: http.IncomingMessage,
  ) {
    this.reader = new SseParser((comment) => {
      this.comments.push(comment);
      this.wake();
    });
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      this.messages.push(...this.reader.push(chunk));
      this.wake();
    });
    this.ended = new Promise<void>((resolve) => {
      response.once('end', resolve);
      response.once('close', resolve);
      response.once('error', () => resolve());
    });
    void this.ended.then(() => this.wake());
  }

  /** The event objects of the messages received so far (their `data`, parsed). */
  events<T = { id: string; type: string; taskId: string | null; payload: Record<string, unknown>; createdAt: string }>(): T[] {
    return this.messages.map((message) => JSON.parse(message.data) as T);
  }

  get lastEventId(): string | undefined {
    return this.reader.lastEventId;
  }

  /** Waits until `condition` holds, re-checked on every chunk; throws after `timeoutMs` saying what it waited for. */
  async until(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} (${this.messages.length} events, ${this.comments.length} comments received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for `count` events in all. */
  received(count: number, timeoutMs?: number): Promise<void> {
    return this.until(() => this.messages.length >= count, `${count} events`, timeoutMs);
  }

  /** The client goes away. */
  close(): void {
    this.request.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * Opens GET /events/stream on a listening server and resolves once the stream has started (its first
 * bytes have arrived, so its starting point is fixed), or with the refusal (any status but 200).
 */
export function openEventStream(baseUrl: string, credential: string | undefined, options: StreamOptions = {}): Promise<EventStreamClient | RefusedStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (credential !== undefined) headers.authorization = `Bearer ${credential}`;
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const request = http.get(`${baseUrl}/api/v1/events/stream${options.query ?? ''}`, { headers, agent: false }, (response) => {
      if (response.statusCode !== 200) {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
        return;
      }
      const client = new EventStreamClient(request, response);
      client.until(() => client.comments.includes('connected'), 'the stream to start').then(() => resolve(client), reject);
    });
    request.on('error', reject);
  });
}

/** The stream, or a failed test naming the refusal. */
export async function openedStream(baseUrl: string, credential: string, options: StreamOptions = {}): Promise<EventStreamClient> {
  const stream = await openEventStream(baseUrl, credential, options);
  if (!(stream instanceof EventStreamClient)) throw new Error(`the stream was refused: ${stream.status} ${JSON.stringify(stream.body)}`);
  return stream;
}
