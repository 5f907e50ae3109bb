// Server-sent events (the WHATWG HTML "text/event-stream" format): the frames GET /events/stream writes.
// Pure: no I/O. Their reader is the SDK's (SseParser in sdk/src/event-stream.ts), which the tests and the
// bench use too, so what is written is checked by what clients read with.

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
