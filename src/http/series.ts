import type { RequestHandler } from 'express';

/**
 * Several middlewares as one: each runs when the one before calls `next()`; an error passed to `next`
 * (or thrown) skips the rest and goes on to Express's error handling. For the handlers every request
 * passes (request log, metrics, security headers), so that Express's router steps over one layer
 * instead of one per handler.
 */
export function series(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) returned.then(undefined, (rejected: unknown) => step(rejected || new Error('Rejected promise')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
