import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { routeOf } from './request-log.ts';

export interface HttpMetrics {
  registry: Registry;
  middleware: RequestHandler;
}

/** Request counts and latency by method, route pattern (never the raw URL) and status. */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    // What Histogram.startTimer() measures (process.hrtime to 'finish', in seconds), without its closure.
    const started = process.hrtime();
    res.on('finish', () => {
      const [seconds, nanoseconds] = process.hrtime(started);
      // The matched pattern keeps label cardinality bounded; unmatched paths share one label. Routers
      // record their full pattern in res.locals.route (req.baseUrl is reset once a router is left).
      const labels = { method: req.method, route: routeOf(req, res.locals), status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds + nanoseconds / 1e9);
    });
    next();
  };
  return { registry, middleware };
}
