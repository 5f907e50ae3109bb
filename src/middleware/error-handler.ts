// The one place where errors become responses. The body is always {error, code, details?, taskIndex?};
// nothing but AppError messages ever reaches a client.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, NotFoundError } from '../lib/errors.ts';
import { describeZodError } from '@concord/contract';

interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
  taskIndex?: number;
}

/** Errors raised while reading a body (body-parser, raw-body) or a path (the router) carry their status. */
interface HttpishError {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  limit?: unknown;
}

function bodyError(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status, statusCode, expose, limit } = error as HttpishError;
  switch (type) {
    case 'entity.parse.failed':
      return new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than this route accepts (${typeof limit === 'number' ? `${limit} bytes` : 'see its limit'})`,
      );
    case 'encoding.unsupported':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The Content-Encoding of the request body is not accepted; use identity, gzip, deflate or br');
    case 'charset.unsupported':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body must be UTF-8 JSON');
    case 'request.aborted':
    case 'request.size.invalid':
      return new AppError(400, 'INVALID_JSON', 'The request body ended before its declared length');
    default:
      break;
  }
  // Anything else a parser marks as the client's fault keeps its status, never a 500.
  const code = typeof status === 'number' ? status : statusCode;
  if (expose === true && typeof code === 'number' && code >= 400 && code < 500) {
    if (code === 413) return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than this route accepts');
    if (code === 415) return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body is not of a type this route accepts');
    // e.g. zlib's "incorrect header check": the bytes are not what their Content-Encoding says.
    return new AppError(code, code === 400 ? 'INVALID_JSON' : 'VALIDATION_ERROR', 'The request body could not be read');
  }
  return undefined;
}

export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    const issues = describeZodError(error);
    const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    return new AppError(400, 'VALIDATION_ERROR', `Invalid request: ${summary}`, { issues });
  }
  return bodyError(error);
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError('NOT_FOUND', `No route ${req.method} ${req.path}`));
};

/**
 * A refused request whose body was never read: close the connection after the answer instead of
 * reading (and throwing away) megabytes the client is still sending.
 */
function closeIfUnread(req: Parameters<ErrorRequestHandler>[1], res: Parameters<ErrorRequestHandler>[2]): void {
  if (!req.complete) res.setHeader('Connection', 'close');
}

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const appError = toAppError(error);
  if (res.headersSent) {
    // A streamed response failed part-way: the status is gone, so cut the connection.
    req.log.error({ err: error, event: 'response.stream.failed' }, 'response failed after headers were sent');
    res.destroy();
    return;
  }
  closeIfUnread(req, res);
  if (!appError) {
    req.log.error({ err: error, event: 'request.failed' }, 'unhandled error');
    res.status(500).json({ error: 'Internal error', code: 'INTERNAL' } satisfies ErrorBody);
    return;
  }
  const body: ErrorBody = { error: appError.message, code: appError.code };
  if (appError.details) body.details = appError.details;
  if (appError.taskIndex !== undefined) body.taskIndex = appError.taskIndex;
  res.status(appError.status).json(body);
};
