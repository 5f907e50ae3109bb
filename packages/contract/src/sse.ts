// Server-sent events (the WHATWG HTML "text/event-stream" format): the frames GET /events/stream writes,
// and the reader the SDK's event stream, the dashboard's live events, the tests and the bench read them
// with, so what is written is checked by what clients read with. Pure: no I/O.

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

const LINE_BREAK = /\r\n|\r|\n/;

function singleLine(field: string, value: string): string {
  if (LINE_BREAK.test(value) || value.includes('\0')) throw new Error(`an SSE ${field} cannot hold a line break or NUL`);
  return value;
}

/** An event frame; every line of `data` becomes a `data:` line, so a reader rebuilds it exactly. */
export function sseEvent(id: string, event: string, data: string): string {
  const lines = data
    .split(LINE_BREAK)
    .map((line) => `data: ${line}\n`)
    .join('');
  return `id: ${singleLine('id', id)}\nevent: ${singleLine('event', event)}\n${lines}\n`;
}

/** A comment line (ignored by readers; a heartbeat keeps proxies from closing an idle stream). */
export function sseComment(text: string): string {
  return `: ${singleLine('comment', text)}\n\n`;
}

/** How long an EventSource waits before reconnecting after the stream ends. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.trunc(ms))}\n\n`;
}

/** One dispatched message of a text/event-stream: its `id:`, `event:` and `data:` lines. */
export interface SseMessage {
  /** The last event id at dispatch (it persists across messages, as the HTML standard says). */
  id: string | undefined;
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with line feeds. */
  data: string;
}

/**
 * An incremental reader of text/event-stream, by the HTML standard's rules: chunks may cut lines
 * anywhere (CRLF, LF or CR line ends), one space after the colon is dropped, a message without data is
 * not dispatched, `id` persists (and one holding NUL is ignored), `retry` sets the reconnection time,
 * and comments (`: ping`, the heartbeats) go to `onComment`.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private hasData = false;
  /** The last event id the stream set (what a client sends as Last-Event-ID when it reconnects). */
  lastEventId: string | undefined;
  /** The reconnection time the last `retry:` field set, in milliseconds. */
  retryMs: number | undefined;

  constructor(private readonly onComment: (text: string) => void = () => undefined) {}

  /** Reads `chunk` and returns the messages it completes. */
  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const messages: SseMessage[] = [];
    for (;;) {
      const match = LINE_BREAK.exec(this.buffer);
      // A lone CR at the end may be the first half of a CRLF: wait for the next chunk.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.onComment(line.slice(1).replace(/^ /, ''));
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const message = this.hasData ? { id: this.lastEventId, event: this.event || 'message', data: this.data.join('\n') } : undefined;
    this.data = [];
    this.event = '';
    this.hasData = false;
    return message;
  }
}
