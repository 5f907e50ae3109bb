// The start of a test send's response body (webhook-sender.ts readExcerpt), read only from public
// addresses, which the integration tests cannot reach: the reading itself is checked here; and the
// response headers a test send hands back (responseHeaders).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_RESPONSE_HEADERS, readExcerpt, responseHeaders } from '../../src/modules/webhooks/webhook-sender.ts';

const excerptOf = (chunks: Buffer[], chars: number, end = true) =>
  new Promise<string>((resolve) => {
    const stream = new PassThrough();
    readExcerpt(stream, chars, resolve);
    for (const chunk of chunks) stream.write(chunk);
    if (end) stream.end();
  });

describe('readExcerpt', () => {
  it('keeps the first characters of a UTF-8 body, whole characters across chunk boundaries', async () => {
    const body = Buffer.from(`${'é'.repeat(300)}${'x'.repeat(400)}`);
    // Split inside a two-byte é.
    expect(await excerptOf([body.subarray(0, 301), body.subarray(301)], 500)).toBe(`${'é'.repeat(300)}${'x'.repeat(200)}`);
  });

  it('gives what arrived of a short body, and an empty one as empty', async () => {
    expect(await excerptOf([Buffer.from('down for maintenance')], 500)).toBe('down for maintenance');
    expect(await excerptOf([], 500)).toBe('');
  });

  it('stops reading once it holds enough, without waiting for the end', async () => {
    expect(await excerptOf([Buffer.from('a'.repeat(5000))], 10, false)).toBe('a'.repeat(10));
  });
});

describe('responseHeaders', () => {
  it('lower-cases the names, joins repeated headers and bounds what it hands back', () => {
    expect(responseHeaders(['Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'X-Long', 'v'.repeat(600)])).toEqual({
      'content-type': 'text/plain',
      'set-cookie': 'a=1, b=2',
      'x-long': 'v'.repeat(500),
    });
    // Names are the receiver's: ones an object inherits are headers like any other.
    expect(responseHeaders(['Constructor', 'c', '__proto__', 'p', 'toString', 't'])).toEqual(
      Object.fromEntries([
        ['constructor', 'c'],
        ['__proto__', 'p'],
        ['tostring', 't'],
      ]),
    );
    const many = Array.from({ length: 80 }, (_, i) => [`X-H${i}`, String(i)]).flat();
    expect(Object.keys(responseHeaders(many))).toHaveLength(MAX_RESPONSE_HEADERS);
  });
});
