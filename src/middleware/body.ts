// Request bodies are read only once a request has been routed and authenticated (contract §0): an unknown
// route or a missing credential is refused without reading what the client sends.
import { BATCH_BODY_MAX_BYTES, JSON_BODY_MAX_BYTES } from '@concord/contract';
import express, { type RequestHandler } from 'express';
import { AppError } from '../lib/errors.ts';

/** Content encodings body-parser inflates for JSON (within the same byte limit, after inflation). */
const JSON_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

function hasBody(headers: { 'transfer-encoding'?: string; 'content-length'?: string }): boolean {
  return headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
}

function unsupported(message: string): AppError {
  return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
}

const jsonParsers = {
  '1mb': express.json({ limit: JSON_BODY_MAX_BYTES }),
  '10mb': express.json({ limit: BATCH_BODY_MAX_BYTES }),
} as const;

/** JSON bodies: `application/json` (UTF-8) only, at most `limit` bytes once inflated. */
export function jsonBody(limit: keyof typeof jsonParsers): RequestHandler {
  const parse = jsonParsers[limit];
  return (req, res, next) => {
    if (!hasBody(req.headers)) return next();
    if (!req.is('application/json')) {
      return next(unsupported('Send the body as application/json'));
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (!JSON_ENCODINGS.has(encoding)) {
      return next(unsupported(`Content-Encoding ${encoding} is not accepted; use identity, gzip, deflate or br`));
    }
    parse(req, res, next);
  };
}

/** Any content type, kept as the exact bytes sent (provider confirmations are verified against them). */
export const rawBytes: RequestHandler = express.raw({ type: () => true, limit: JSON_BODY_MAX_BYTES });

/** Multipart uploads are parsed by their own middleware; this refuses other content before it runs. */
export const multipartOnly: RequestHandler = (req, _res, next) => {
  if (!hasBody(req.headers)) return next();
  if (!req.is('multipart/form-data')) return next(unsupported('Send the file as multipart/form-data'));
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return next(unsupported(`Content-Encoding ${encoding} is not accepted on uploads`));
  next();
};
