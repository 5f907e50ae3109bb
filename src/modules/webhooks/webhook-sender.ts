// Sends one webhook request with node:http(s). The address actually connected to is checked by the
// lookup hook, so a hostname that resolves to a private address at send time (DNS rebinding) is refused
// even when it looked public when the configuration was saved.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../../lib/url-guard.ts';

export type SendOutcome =
  | { kind: 'success'; statusCode: number }
  | { kind: 'client-error'; statusCode: number }
  | { kind: 'retryable'; statusCode: number | null; error: string };

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
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
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: options.allowPrivate ? undefined : guardedLookup,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        // The status is all we need; drain the body so the socket is freed.
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve({ kind: 'success', statusCode: status });
        else if (status >= 400 && status < 500) resolve({ kind: 'client-error', statusCode: status });
        else resolve({ kind: 'retryable', statusCode: status, error: `HTTP ${status}` });
      },
    );
    request.on('error', (error: Error) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve({ kind: 'retryable', statusCode: null, error: timedOut ? `timeout after ${options.timeoutMs} ms` : error.message });
    });
    request.end(body);
  });
}
