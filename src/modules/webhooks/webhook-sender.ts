// Sends one webhook request with node:http(s). The address actually connected to is checked by the
// lookup hook, so a hostname that resolves to a private address at send time (DNS rebinding) is refused
// even when it looked public when the configuration was saved.
import type { HmacSha256 } from '@concord/contract';
import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../../lib/url-guard.ts';

/**
 * The HMAC the server signs webhooks with: Node's own, synchronous and about ten times cheaper than Web
 * Crypto's importKey and sign, which cost 15 % of the server's CPU per delivery in bench:webhooks.
 */
export const nodeHmacSha256: HmacSha256 = (key, data) => createHmac('sha256', key).update(data).digest();

/**
 * How a request ended. `retryAfter` is the response's Retry-After header, if any; for test sends
 * (SendOptions.excerptChars), `headers` the response's headers and `excerpt` the start of its body as text.
 */
export type SendOutcome =
  | ({ kind: 'success'; statusCode: number } & Inspected)
  | ({ kind: 'client-error'; statusCode: number; retryAfter?: string } & Inspected)
  | ({ kind: 'retryable'; statusCode: number | null; error: string; retryAfter?: string } & Inspected);

interface Inspected {
  excerpt?: string;
  headers?: Record<string, string>;
}

/** A test send hands back at most this many response headers, each value cut to MAX_HEADER_CHARS. */
export const MAX_RESPONSE_HEADERS = 50;
const MAX_HEADER_CHARS = 500;

/**
 * The response's headers as the receiver sent them (names lower-cased, repeated ones joined with ", "). A
 * Map, not an object, while they are gathered: the names are the receiver's, and one named `constructor`
 * or `__proto__` must not meet an object's inherited properties.
 */
export function responseHeaders(raw: readonly string[]): Record<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length && headers.size < MAX_RESPONSE_HEADERS; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = (raw[i + 1] as string).slice(0, MAX_HEADER_CHARS);
    const earlier = headers.get(name);
    headers.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return Object.fromEntries(headers);
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /**
   * A test send: the response's headers go into `headers`, and this many characters of its body into
   * `excerpt` from a public address only (otherwise the body is discarded): where private URLs are allowed
   * (development), the answer of an internal service is not handed back to whoever configured the URL.
   */
  excerptChars?: number;
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find(({ address }) => isPrivateAddress(address));
    if (refused) return callback(new Error(`refused private address ${refused.address}`), '', 0);
    const first = addresses[0];
    if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, first.address, first.family);
  });
};

export function sendWebhook(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ kind: 'client-error', statusCode: 0 });
      return;
    }
    // An IP literal is connected to without a lookup: check it here.
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      resolve({ kind: 'retryable', statusCode: null, error: `refused private address ${host}` });
      return;
    }
    const transport = target.protocol === 'https:' ? https : http;
    let responded = false;
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: options.allowPrivate ? undefined : guardedLookup,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        responded = true;
        const status = response.statusCode ?? 0;
        const header = response.headers['retry-after'];
        const outcome = classify(status, typeof header === 'string' ? header : undefined);
        const remote = response.socket.remoteAddress;
        const inspected = options.excerptChars === undefined ? outcome : { ...outcome, headers: responseHeaders(response.rawHeaders) };
        if (options.excerptChars === undefined || remote === undefined || isPrivateAddress(remote)) {
          // The status (and a test send's headers) is all that is handed back; drain the body so the socket is freed.
          response.resume();
          resolve(inspected);
          return;
        }
        readExcerpt(response, options.excerptChars, (excerpt) => resolve({ ...inspected, excerpt }));
      },
    );
    request.on('error', (error: Error) => {
      // Once the status is in, the outcome is decided (a body cut short by the timeout only ends the excerpt).
      if (responded) return;
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve({ kind: 'retryable', statusCode: null, error: timedOut ? `timeout after ${options.timeoutMs} ms` : error.message });
    });
    request.end(body);
  });
}

function classify(status: number, retryAfter: string | undefined): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'success', statusCode: status };
  const extra = retryAfter === undefined ? {} : { retryAfter };
  if (status >= 400 && status < 500) return { kind: 'client-error', statusCode: status, ...extra };
  return { kind: 'retryable', statusCode: status, error: `HTTP ${status}`, ...extra };
}

/**
 * Reads at most `chars` characters of a response body as UTF-8 text, then lets the rest go. The status is
 * already known: a body cut short by the timeout or a reset still gives what arrived.
 */
export function readExcerpt(response: NodeJS.ReadableStream & { destroy(): void }, chars: number, done: (excerpt: string) => void): void {
  // A character is at most 4 bytes in UTF-8: this many bytes always hold `chars` of them.
  const maxBytes = chars * 4;
  const chunks: Buffer[] = [];
  let bytes = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done(Buffer.concat(chunks).toString('utf8').slice(0, chars));
  };
  response.on('data', (chunk: Buffer) => {
    if (bytes < maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - bytes));
      bytes += Math.min(chunk.length, maxBytes - bytes);
    }
    if (bytes >= maxBytes) {
      finish();
      response.destroy();
    }
  });
  response.on('end', finish);
  response.on('error', finish);
  response.on('close', finish);
}
