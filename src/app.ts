// Builds the Express application; it never listens (server.ts does), so tests drive it in-process.
import { timingSafeEqual } from 'node:crypto';
import express, { type Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { Config } from './config.ts';
import type { Services } from './container.ts';
import type { EndpointDefinition } from './lib/endpoint.ts';
import { buildRouter } from './http/endpoint-router.ts';
import { installFastPath } from './http/fast-path.ts';
import { series } from './http/series.ts';
import type { Logger } from './lib/logger.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { errorHandler, notFoundHandler } from './middleware/error-handler.ts';
import { createHttpMetrics } from './middleware/metrics.ts';
import { createSensitiveRateLimit } from './middleware/rate-limit.ts';
import { requestLog } from './middleware/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { methodNotAllowed, repairPercentEncoding } from './middleware/routing.ts';
import { adminEndpoints } from './modules/admin/admin.router.ts';
import { adminAnnotationEndpoints, sdkEndpoints } from './modules/annotation/annotation.router.ts';
import { authEndpoints } from './modules/auth/auth.router.ts';
import { billingEndpoints } from './modules/billing/billing.router.ts';
import { buyerApiKeyEndpoints } from './modules/buyer-api-keys/buyer-api-keys.router.ts';
import { goldenTaskEndpoints } from './modules/golden-tasks/golden-tasks.router.ts';
import { memberEndpoints } from './modules/organisations/members.router.ts';
import { auditEndpoints } from './modules/audit/audit.router.ts';
import { spendingCapEndpoints } from './modules/billing/spending-caps.router.ts';
import { organisationEndpoints } from './modules/organisations/organisations.router.ts';
import { projectEndpoints } from './modules/projects/projects.router.ts';
import { labelQualityEndpoints } from './modules/quality/label-quality.router.ts';
import { depositEndpoints } from './modules/deposits/deposits.router.ts';
import { SandboxProvider } from './modules/deposits/sandbox.provider.ts';
import { checkoutPagesRouter } from './modules/deposits/checkout.pages.ts';
import { exportEndpoints } from './modules/exports/exports.router.ts';
import { taskEndpoints } from './modules/tasks/tasks.router.ts';
import { webhookEndpoints } from './modules/webhooks/webhooks.router.ts';
import { dashboardRouter } from './modules/dashboard/dashboard.router.ts';
import { eventEndpoints } from './modules/events/events.router.ts';
import { metaEndpoints } from './modules/meta/meta.router.ts';

export interface AppDeps {
  config: Config;
  logger: Logger;
  services: Services;
  /** The built dashboard (web/dist by default). */
  dashboardDir?: string;
}

const READINESS_TIMEOUT_MS = 2_000;
/** Where the API's endpoints are mounted. */
const API_BASE = '/api/v1';

export function allEndpoints(services: Services): EndpointDefinition[] {
  return [
    ...metaEndpoints(services),
    ...authEndpoints(services),
    ...organisationEndpoints(services),
    ...memberEndpoints(services),
    ...auditEndpoints(services),
    ...buyerApiKeyEndpoints(services),
    ...adminEndpoints(services),
    ...adminAnnotationEndpoints(services),
    ...projectEndpoints(services),
    ...labelQualityEndpoints(services),
    ...taskEndpoints(services),
    ...billingEndpoints(services),
    ...spendingCapEndpoints(services),
    ...goldenTaskEndpoints(services),
    ...sdkEndpoints(services),
    ...webhookEndpoints(services),
    ...eventEndpoints(services),
    ...exportEndpoints(services),
    ...depositEndpoints(services),
  ];
}

export function buildApp({ config, logger, services, dashboardDir }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);

  const metrics = createHttpMetrics();
  // What every request passes, in this order, as one layer: its id and log line, a path with broken
  // percent-encoding repaired, metrics, and helmet's security headers (worked out once).
  const prelude = series([requestLog(logger, config.env === 'development' ? 'debug' : 'info'), repairPercentEncoding, metrics.middleware, securityHeaders()]);
  const endpoints = allEndpoints(services);
  const api = buildRouter(endpoints, {
    auth: services.auth,
    idempotency: services.idempotency,
    settled: () => services.settlementEffects.settledForRead(),
    sensitiveRateLimit: createSensitiveRateLimit(config.rateLimit, services.db.rawRepos.rateLimits),
  });
  // The API's requests reach these two without Express's router (src/http/fast-path.ts); every other
  // request, and those the API does not answer, pass them here. The API comes first: no route below
  // serves a path under /api/v1 that an endpoint serves, so the order answers the same.
  const fast = installFastPath(app, API_BASE, prelude, api);
  app.use(fast.prelude);
  app.use(API_BASE, fast.api);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await Promise.race([
        services.db.ping(),
        new Promise((_resolve, reject) => setTimeout(() => reject(new Error('readiness timeout')), READINESS_TIMEOUT_MS).unref()),
      ]);
      res.json({ status: 'ok' });
    } catch (error) {
      logger.warn({ event: 'readiness.failed', err: error }, 'database unreachable');
      res.status(503).json({ error: 'Database unreachable', code: 'NOT_READY' });
    }
  });
  app.get('/metrics', async (req, res, next) => {
    if (!metricsAllowed(config, req.headers.authorization)) return next();
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  const openApi = buildOpenApiDocument(endpoints);
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(openApi, { customSiteTitle: 'Concord API' }));

  app.use(checkoutPagesRouter(services.deposits, services.paymentProvider instanceof SandboxProvider ? services.paymentProvider : null));
  app.use('/api/v1', methodNotAllowed(endpoints));
  app.use(dashboardRouter(dashboardDir));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}

/**
 * contract §10: /metrics is open outside production; in production it needs `Bearer <METRICS_TOKEN>`,
 * and without a configured token it does not exist (404), so nothing about the service leaks.
 */
function metricsAllowed(config: Config, authorization: string | undefined): boolean {
  if (config.env !== 'production') return true;
  if (!config.metricsToken || !authorization) return false;
  const given = Buffer.from(authorization);
  const expected = Buffer.from(`Bearer ${config.metricsToken}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
