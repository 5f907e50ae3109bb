import { rateLimit, type IncrementResponse, type Options, type RateLimitRequestHandler, type Store } from 'express-rate-limit';
import type { UserPrincipal } from '../lib/endpoint.ts';
import { AppError } from '../lib/errors.ts';
import type { RateLimitsRepository } from '../modules/auth/rate-limits.repository.ts';

/**
 * express-rate-limit's store on PostgreSQL: every server process counts against the same rows. Keys are
 * prefixed with the budget's name and policy, so changing RATE_LIMIT_MAX or RATE_LIMIT_WINDOW_MS starts
 * fresh counts instead of judging old hits by a new rule, and two budgets never share a count.
 */
export class PostgresRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;

  constructor(
    private readonly counters: RateLimitsRepository,
    policy: { max: number; windowMs: number },
    budget = 'sensitive',
  ) {
    this.prefix = `${budget}:${policy.max}:${policy.windowMs}:`;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const { hits, resetAt } = await this.counters.increment(this.prefix + key, this.windowMs);
    return { totalHits: hits, resetTime: resetAt };
  }

  async get(key: string): Promise<IncrementResponse | undefined> {
    const row = await this.counters.get(this.prefix + key);
    return row && { totalHits: row.hits, resetTime: row.resetAt };
  }

  decrement(key: string): Promise<void> {
    return this.counters.decrement(this.prefix + key);
  }

  resetKey(key: string): Promise<void> {
    return this.counters.reset(this.prefix + key);
  }
}

/** 429 RATE_LIMITED through the error pipeline (express-rate-limit has set Retry-After and RateLimit). */
const rateLimited: Options['handler'] = (_req, _res, next, opts) => {
  next(new AppError(opts.statusCode, 'RATE_LIMITED', 'Too many requests; retry after the time in the Retry-After header'));
};

/**
 * One budget per client IP shared by every sensitive route and every server process (contract §1:
 * 100 requests per 15 minutes), with the IETF draft-8 `RateLimit` and `RateLimit-Policy` headers.
 */
export function createSensitiveRateLimit(options: { max: number; windowMs: number }, counters: RateLimitsRepository): RateLimitRequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new PostgresRateLimitStore(counters, options),
    handler: rateLimited,
  });
}

/**
 * A budget of its own per authenticated account (run after authentication), shared by every server
 * process, with the same headers and 429 RATE_LIMITED as the sensitive routes: for routes whose cost is
 * the account's doing wherever it calls from (webhook test sends make the service send a request).
 */
export function createAccountRateLimit(budget: string, options: { max: number; windowMs: number }, counters: RateLimitsRepository): RateLimitRequestHandler {
  return rateLimit({
    windowMs: options.windowMs,
    limit: options.max,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new PostgresRateLimitStore(counters, options, budget),
    keyGenerator: (_req, res) => (res.locals.principal as UserPrincipal).accountId,
    handler: rateLimited,
  });
}
