import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import { AppError } from '../lib/errors.ts';

/**
 * One budget per client IP shared by every sensitive route (contract: 100 requests per 15 minutes).
 * The count lives in this process; behind several processes each keeps its own count.
 */
export function createSensitiveRateLimit(options: { max: number; windowMs: number }): RateLimitRequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, _res, next, opts) => {
      next(new AppError(opts.statusCode, 'RATE_LIMITED', 'Too many requests; retry after the time in the Retry-After header'));
    },
  });
}
