// The one place where errors become responses. The body is always {error, code, details?, taskIndex?};
// nothing but AppError messages ever reaches a client.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, NotFoundError } from '../lib/errors.ts';
import { describeZodError } from '../lib/zod-issues.ts';

interface ErrorBody {
  error: string;
  code: string;
  details?: Record<string, unknown>;
  taskIndex?: number;
}

/** Errors raised by express.json() (body-parser) carry a `type`. */
function bodyParserError(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null || !('type' in error)) return undefined;
  switch ((error as { type: unknown }).type) {
    case 'entity.parse.failed':
      return new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 10 MB');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(400, 'INVALID_JSON', 'The request body must be UTF-8 JSON');
    default:
      return undefined;
  }
}

export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) {
    const issues = describeZodError(error);
    const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    return new AppError(400, 'VALIDATION_ERROR', `Invalid request: ${summary}`, { issues });
  }
  return bodyParserError(error);
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError('NOT_FOUND', `No route ${req.method} ${req.path}`));
};

export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const appError = toAppError(error);
  if (res.headersSent) {
    // A streamed response failed part-way: the status is gone, so cut the connection.
    req.log.error({ err: error, event: 'response.stream.failed' }, 'response failed after headers were sent');
    res.destroy();
    return;
  }
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
