// The OpenAPI 3.1 document, written from the same endpoint declarations (and zod schemas) that the
// router mounts and validates with.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z, type ZodObject, type ZodType } from 'zod';
import type { EndpointDefinition } from './endpoint.ts';
import { errorSchema } from './schemas.ts';

const errorContent = { 'application/json': { schema: errorSchema } };

function errorResponses(endpoint: EndpointDefinition) {
  const responses: Record<string, { description: string; content: typeof errorContent }> = {
    400: { description: 'Invalid request (VALIDATION_ERROR, INVALID_JSON or a route-specific code)', content: errorContent },
    500: { description: 'Internal error', content: errorContent },
  };
  if (endpoint.access !== 'public') {
    responses[401] = { description: 'Missing, invalid, expired or revoked credential', content: errorContent };
    responses[403] = {
      description: endpoint.sessionOnly
        ? 'Credential of the wrong role for this route, or a buyer API key (account management needs a password session)'
        : 'Credential of the wrong role for this route',
      content: errorContent,
    };
  }
  if (endpoint.rateLimited) responses[429] = { description: 'Rate limit exceeded (RATE_LIMITED)', content: errorContent };
  if (endpoint.params) responses[404] = { description: `${endpoint.notFound ?? 'NOT_FOUND'}: unknown, malformed or foreign id`, content: errorContent };
  if (endpoint.method !== 'get') {
    responses[413] = { description: `PAYLOAD_TOO_LARGE: a JSON body over ${endpoint.bodyLimit === '10mb' ? '10 MB' : '1 MB'}`, content: errorContent };
    responses[415] = { description: 'UNSUPPORTED_MEDIA_TYPE: a body of another Content-Type or Content-Encoding than the route takes', content: errorContent };
  }
  if (endpoint.idempotent) responses[409] = { description: 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another request', content: errorContent };
  for (const [status, description] of Object.entries(endpoint.errors ?? {})) responses[status] = { description, content: errorContent };
  return responses;
}

const idempotencyHeaders = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().meta({
    description:
      'Makes the creation safe to retry: a repeat with the same key and body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Keys are per calling account.',
  }),
});

function securityFor(endpoint: EndpointDefinition): Array<Record<string, string[]>> {
  if (endpoint.access === 'public') return [];
  if (endpoint.access === 'apiKey') return [{ apiKey: [] }];
  // A buyer API key acts as its buyer wherever a buyer's JWT is accepted, except on account management.
  const buyerKey = (endpoint.access === 'buyer' || endpoint.access === 'user') && !endpoint.sessionOnly;
  return buyerKey ? [{ jwt: [] }, { buyerApiKey: [] }] : [{ jwt: [] }];
}

export function buildOpenApiDocument(endpoints: EndpointDefinition[], serverUrl: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'jwt', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Developer API key sent as the bearer value',
  });
  registry.registerComponent('securitySchemes', 'buyerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Buyer API key (`cnc_live_…` or `cnc_test_…`, from POST /api-keys) sent as the bearer value: acts as its buyer on the buyer routes, not on account management',
  });
  for (const endpoint of endpoints) {
    const status = String(endpoint.status ?? 200);
    const success = endpoint.produces
      ? { description: 'Success', content: Object.fromEntries(Object.entries(endpoint.produces).map(([type, description]) => [type, { schema: { type: 'string' as const, description } }])) }
      : endpoint.response
        ? { description: 'Success', content: { 'application/json': { schema: endpoint.response } } }
        : { description: 'Success' };
    registry.registerPath({
      method: endpoint.method,
      path: endpoint.path.replace(/:(\w+)/g, '{$1}'),
      summary: endpoint.summary,
      tags: [endpoint.tag],
      security: securityFor(endpoint),
      request: {
        params: endpoint.params as ZodObject | undefined,
        headers: endpoint.idempotent ? idempotencyHeaders : undefined,
        query: endpoint.query as ZodObject | undefined,
        body: endpoint.consumes
          ? { content: Object.fromEntries(Object.entries(endpoint.consumes).map(([type, schema]) => [type, { schema }])) }
          : (endpoint.rawBody ?? endpoint.body) && endpoint.method !== 'get'
            ? { content: { 'application/json': { schema: (endpoint.rawBody ?? endpoint.body) as ZodType } } }
            : undefined,
      },
      responses: { [status]: success, ...errorResponses(endpoint) },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Concord API',
      version: '1.0.0',
      description: 'API-first data labelling: tasks, consensus, webhooks and training-data exports.',
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
  });
}
