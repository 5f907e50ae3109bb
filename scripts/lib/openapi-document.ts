// The service's OpenAPI document (the one GET /api/v1/openapi.json serves) built without a database:
// declaring the endpoints needs the services object, and nothing here connects. Used by
// `npm run sdk:types`, `npm run openapi:lint` and the document's unit tests.
import pg from 'pg';
import { allEndpoints } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createServices } from '../../src/container.ts';
import { createPrismaClient } from '../../src/db/prisma.ts';
import type { EndpointDefinition } from '../../src/lib/endpoint.ts';
import { buildOpenApiDocument } from '../../src/http/openapi.ts';
import { createLogger } from '../../src/lib/logger.ts';

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** Every endpoint as a development or test server mounts it, and the document written from them. */
export async function offlineOpenApi(): Promise<{ endpoints: EndpointDefinition[]; document: OpenApiDocument }> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PAYMENT_PROVIDER: 'sandbox' });
  const url = 'postgresql://unused@127.0.0.1:1/unused';
  const prisma = createPrismaClient(url, 1);
  const pgPool = new pg.Pool({ connectionString: url, max: 1 });
  const services = createServices({ config, prisma, pgPool, logger: createLogger('silent'), jwtSecret: 'x'.repeat(32) });
  const endpoints = allEndpoints(services);
  await pgPool.end();
  return { endpoints, document: buildOpenApiDocument(endpoints) };
}

export async function offlineOpenApiDocument(): Promise<OpenApiDocument> {
  return (await offlineOpenApi()).document;
}
