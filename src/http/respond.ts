// An endpoint's JSON answer, written as Express's `res.status(status).json(body)` writes it — the same
// bytes and headers (Content-Type, Content-Length, a weak ETag from the app's `etag fn`, 304 for a fresh
// conditional GET, no body for HEAD) — without the generic work `res.json` and `res.send` do for every kind
// of body (settings lookups, the content-type's charset parsed and rebuilt, type checks). Anything unusual
// (a Content-Type the handler set, a body JSON cannot write, a status without a body) goes through Express.
import { hash } from 'node:crypto';
import type { Request, Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

type EtagFn = (body: Buffer | string, encoding?: BufferEncoding) => string | undefined;

/**
 * Express's default ETag (`etag` setting 'weak': the `etag` package, weak) of a body: its length in hex and
 * the first 27 characters of its SHA-1 in base64 — with the one-shot `crypto.hash` instead of a Hash object.
 */
export function weakEtag(body: Buffer): string {
  if (body.length === 0) return 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
  return `W/"${body.length.toString(16)}-${hash('sha1', body, 'base64').substring(0, 27)}"`;
}

export function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  const plain = body !== null && typeof body === 'object' && status >= 200 && status <= 299 && status !== 204 && status !== 205;
  const json = plain ? JSON.stringify(body) : undefined;
  const etagFn = req.app.get('etag fn') as EtagFn | undefined;
  if (
    json === undefined ||
    typeof etagFn !== 'function' ||
    res.getHeader('content-type') !== undefined ||
    res.getHeader('transfer-encoding') !== undefined ||
    res.getHeader('etag') !== undefined
  ) {
    res.status(status).json(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  const chunk = Buffer.from(json, 'utf8');
  res.setHeader('Content-Length', String(chunk.length));
  const etag = req.app.get('etag') === 'weak' ? weakEtag(chunk) : etagFn(chunk);
  if (etag) res.setHeader('ETag', etag);
  if (req.fresh) {
    res.statusCode = 304;
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.removeHeader('Transfer-Encoding');
    if (req.method === 'HEAD') res.end();
    else res.end('');
    return;
  }
  if (req.method === 'HEAD') res.end();
  else res.end(chunk);
}
