// One concise line per request (at debug level in development) — method, route pattern, status, duration, request id — and the
// request id on every response. Headers, bodies and raw URLs are never logged: they carry credentials
// (and the sandbox checkout's secret sits in its path), so the route pattern stands in for the path.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
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

const boundLogger = Symbol('boundLogger');

/**
 * `req.log`, the service logger with the request's id bound, made when first used (a child logger per
 * request would be an allocation on every request, and a getter defined on every request another): one
 * getter on the prototype Express gives this app's requests (each app has its own), reading `req.id`.
 */
function installLogGetter(prototype: object, logger: Logger): void {
  Object.defineProperty(prototype, 'log', {
    configurable: true,
    get(this: { id: string; [boundLogger]?: Logger }) {
      return (this[boundLogger] ??= logger.child({ reqId: this.id }));
    },
  });
}

/**
 * `level`: the level of a request's line (info; debug in development, where a line per request drowns
 * what a person reads, unless LOG_LEVEL=debug). A 5xx is always an error line.
 */
export function requestLog(logger: Logger, level: 'info' | 'debug' = 'info'): RequestHandler {
  let prototypeWithGetter: object | undefined;
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('x-request-id', id);
    const prototype = Object.getPrototypeOf(req) as object;
    if (prototype !== prototypeWithGetter) {
      // Express's per-app request prototype; a bare IncomingMessage (no Express) gets the getter on itself.
      if (prototype === http.IncomingMessage.prototype) installLogGetter(req, logger);
      else installLogGetter((prototypeWithGetter = prototype), logger);
    }
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
