// What happens to a request no endpoint takes: a path whose percent-encoding is broken, and a known
// path asked with a method it does not have.
import type { RequestHandler } from 'express';
import type { EndpointDefinition } from '../lib/endpoint.ts';
import { AppError } from '../lib/errors.ts';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * A path segment with broken percent-encoding (`/tasks/%FF`) is re-encoded so that it reads as the
 * literal text the client sent: the router then matches it like any other id, which names nothing, so
 * the client gets the resource's 404 after authentication — never the router's decoding error.
 */
export const repairPercentEncoding: RequestHandler = (req, _res, next) => {
  const queryAt = req.url.indexOf('?');
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  if (!path.includes('%')) return next();
  const segments = path.split('/');
  if (segments.every(decodes)) return next();
  const repaired = segments.map((segment) => (decodes(segment) ? segment : encodeURIComponent(segment))).join('/');
  req.url = queryAt === -1 ? repaired : `${repaired}${req.url.slice(queryAt)}`;
  next();
};

function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** 405 METHOD_NOT_ALLOWED with `Allow` for a path some endpoint serves under another method. */
export function methodNotAllowed(endpoints: EndpointDefinition[]): RequestHandler {
  const routes = endpoints.map((endpoint) => ({ pattern: pathPattern(endpoint.path), method: endpoint.method.toUpperCase() }));
  return (req, res, next) => {
    const methods = new Set(routes.filter((route) => route.pattern.test(req.path)).map((route) => route.method));
    if (methods.size === 0) return next();
    // Express answers HEAD wherever it answers GET.
    if (methods.has('GET')) methods.add('HEAD');
    const allow = [...methods].sort().join(', ');
    res.setHeader('Allow', allow);
    next(new AppError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${allow}`));
  };
}
