import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs handlers in order as Express's Route does: each runs when the one before calls `next()`; an error
 * (passed to `next`, thrown, or a rejected promise) ends the chain and goes to `done`, as does the end.
 */
export function runInOrder(chain: readonly RequestHandler[], req: Request, res: Response, done: (error?: unknown) => void): void {
  let index = 0;
  const step: NextFunction = (error?: unknown) => {
    if (error) return done(error);
    const handler = chain[index++];
    if (!handler) return done();
    try {
      const returned: unknown = handler(req, res, step);
      if (returned instanceof Promise) returned.then(undefined, (rejected: unknown) => step(rejected || new Error('Rejected promise')));
    } catch (thrown) {
      step(thrown);
    }
  };
  step();
}

/**
 * Several middlewares as one (runInOrder), for the handlers every request passes (request log, metrics,
 * security headers), so that Express's router steps over one layer instead of one per handler.
 */
export function series(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => runInOrder(handlers, req, res, next);
}
