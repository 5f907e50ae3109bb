// One concise line per request (at debug level in development) — method, route pattern, status, duration, request id — and the
// request id on every response. Headers, bodies and raw URLs are never logged: they carry credentials
// (and the sandbox checkout's secret sits in its path), so the route pattern stands in for the path.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../lib/logger.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request id sent back in `x-request-id`. */
    id: string;
    /** The service logger with this request's id bound (for the error pipeline). */
    log: Logger;
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The route pattern a request matched (`/api/v1/tasks/:id`), or `unmatched`. */
export function routeOf(req: { route?: { path?: unknown } }, locals: Record<string, unknown>): string {
  if (typeof locals.route === 'string') return locals.route;
  return req.route?.path ? String(req.route.path) : 'unmatched';
}

/**
 * `level`: the level of a request's line (info; debug in development, where a line per request drowns
 * what a person reads, unless LOG_LEVEL=debug). A 5xx is always an error line.
 */
export function requestLog(logger: Logger, level: 'info' | 'debug' = 'info'): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    // A child logger per request costs an allocation on the hot path; bind the id only when one is used.
    let bound: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (bound ??= logger.child({ reqId: id })), configurable: true });
    const started = process.hrtime.bigint();
    res.once('close', () => {
      if (!logger.isLevelEnabled(level) && res.statusCode < 500) return;
      const line = {
        event: 'http.request',
        reqId: id,
        method: req.method,
        route: routeOf(req, res.locals),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger[level](line, 'request');
    });
    next();
  };
}
