// The OpenAPI 3.1 document, written from the same endpoint declarations (and zod schemas) that the
// router mounts and validates with. `npm run openapi:lint` holds it to Redocly's recommended rules with
// no error and no warning; test/unit/openapi-document.test.ts checks what the rules cannot (operationIds,
// examples parsed by each endpoint's own schemas, headers, webhook payloads).
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type ZodMediaTypeObject } from '@asteasolutions/zod-to-openapi';
import type { ZodObject, ZodType } from 'zod';
import { LOGGED_EVENT_TYPES, ORGANISATION_HEADER, PING_EVENT } from '@concord/contract';
import { WEBHOOK_EVENTS } from '../modules/webhooks/webhook-payloads.ts';
import type { EndpointDefinition } from '../lib/endpoint.ts';
import { EXAMPLE } from '../lib/openapi-examples.ts';
import { codesIn, errorExample } from './openapi-errors.ts';
import { errorSchema } from '../lib/schemas.ts';

const ref = (kind: 'headers' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Tags in the order a reader meets them, each with what it groups. */
export const TAGS: Record<string, string> = {
  Meta: 'How this service runs: environment, payment provider, prices and thresholds.',
  Auth: 'Accounts and credentials: buyer registration and log-in, tokens, passwords, developer log-in and API keys.',
  Organisations:
    "A buyer is an organisation and people are its members, one role each (owner, admin, member, billing, viewer): the caller's organisations and a token acting for one; every buyer route names the permission it needs (`x-concord-permission`).",
  'API keys': "A buyer's API keys for server-to-server calls: they act as the buyer on every buyer route, never on account management.",
  Projects: "Group a buyer's tasks and set their quality (target confidence, answer cap).",
  Tasks: 'Create annotation tasks (one, a JSON batch or a CSV file), follow them and read their results.',
  'Golden tasks': 'Tasks with a known answer, served blind to measure annotators; free.',
  Billing: 'The balance, its ledger, daily spend and top-ups through the payment provider.',
  Webhooks: 'Subscribe URLs to events and follow their deliveries (the payloads are under `webhooks`).',
  Events: "The buyer's event log of the last 30 days with each event's deliveries.",
  Exports: 'Download results as training datasets (JSON, JSONL, CSV, OpenAI, Hugging Face, Alpaca), optionally split.',
  SDK: 'For developer apps, with their API key: hand out tasks, submit answers, reputation, earnings and payouts.',
  Admin: 'Platform administration: developers, buyers and credits, payouts, annotators and statistics.',
};

const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

function registerComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'jwt', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A 30-day JWT from a log-in route (POST /auth/login, /admin/login, /dev/login) sent as the bearer value',
  });
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Developer API key sent as the bearer value',
  });
  registry.registerComponent('securitySchemes', 'buyerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Buyer API key (`cnc_live_…` or `cnc_test_…`, from POST /api-keys) sent as the bearer value: acts as its buyer on the buyer routes, not on account management',
  });
  registry.registerComponent('parameters', 'IdempotencyKey', {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      "Makes the creation safe to retry: a repeat with the same key and body within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Keys are per organisation on the buyer routes (a member's retry replays another's), per calling account elsewhere.",
    schema: { type: 'string', minLength: 1, maxLength: 255 },
    example: '5f0c2a8e-7d4b-4c1e-9a63-2b8f1d0e4c77',
  });
  registry.registerComponent('parameters', 'Organisation', {
    name: ORGANISATION_HEADER,
    in: 'header',
    required: false,
    description:
      "The organisation a person's token acts for on this request (one GET /organisations lists): overrides the token's own (its `org` claim, else the person's own organisation). Naming one the person is no member of is 403 FORBIDDEN; a buyer API key ignores it (a key belongs to one organisation).",
    schema: { type: 'string', minLength: 1, maxLength: 100 },
    example: 'cm3q7wbj2000glk08w5x6y7z8',
  });
  registry.registerComponent('parameters', 'RequestId', {
    name: 'x-request-id',
    in: 'header',
    required: false,
    description:
      'Your id for this request (1–128 characters of A–Z a–z 0–9 . _ : -), sent back in `x-request-id` and logged with the request; any other value is replaced by a fresh UUID.',
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
    example: 'import-2026-03-14-batch-0042',
  });
  registry.registerComponent('headers', 'X-Request-Id', {
    description:
      "The request's id: the client's `x-request-id` when it was well-formed, else a fresh UUID. The server logs it with the request: quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
    example: '0b6c4e1a-3f5d-4d8e-9a2b-7c1f0e9d8a36',
  });
  registry.registerComponent('headers', 'RateLimit', {
    description:
      'IETF draft-8 (draft-ietf-httpapi-ratelimit-headers-08): the remaining requests `r` and the seconds `t` until the window resets, of the shared per-IP budget of the sensitive routes (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS, 100 per 15 minutes by default).',
    required: true,
    schema: { type: 'string' },
    example: '"100-in-15min"; r=97; t=812',
  });
  registry.registerComponent('headers', 'RateLimit-Policy', {
    description: 'IETF draft-8: the policy behind `RateLimit`: the quota `q` per window of `w` seconds, and `pk` a digest of the partition (the client IP).',
    required: true,
    schema: { type: 'string' },
    example: '"100-in-15min"; q=100; w=900; pk=:ZWM0NmNhYTRmOGI5:',
  });
  registry.registerComponent('headers', 'Retry-After', {
    description: 'Seconds until the rate-limit window resets and requests are accepted again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example: 812,
  });
  registry.registerComponent('headers', 'Idempotent-Replayed', {
    description: '`true` when this response is the stored first response to the same `Idempotency-Key` and body (nothing was created again); absent otherwise.',
    required: false,
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  });
  registry.registerComponent('parameters', 'WebhookSignature', {
    name: 'x-service-signature',
    in: 'header',
    required: true,
    description:
      "`sha256=` and the lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the configuration's secret. Recompute it over the unparsed body and compare in constant time before trusting the payload.",
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
    example: 'sha256=6f1ed002ab5595859014ebf0951522d9c3f5a1e2d4b6c8a0e2f4a6c8e0b2d4f6',
  });
  registry.registerComponent('parameters', 'WebhookEvent', {
    name: 'x-service-event',
    in: 'header',
    required: true,
    description: "The event's name, the same as the payload's `event`.",
    schema: { type: 'string', enum: [...LOGGED_EVENT_TYPES] },
    example: 'task.completed',
  });
  registry.registerComponent('parameters', 'WebhookDelivery', {
    name: 'x-service-delivery',
    in: 'header',
    required: true,
    description: 'The delivery id, the same on a retry or a redelivery: de-duplicate on it (deliveries are at least once).',
    schema: { type: 'string' },
    example: 'cm3q7w1xb0009lk08q4r5s6t7',
  });
  // Standard Webhooks (https://www.standardwebhooks.com), byte-compatible with the `standardwebhooks` packages.
  const onlyForWhsec =
    "Sent only when the configuration's secret is a Standard Webhooks secret, `whsec_` and standard padded base64 of 24–64 bytes (or, for the 24 h after a rotate-secret, when the secret it replaced was one); absent for any other secret.";
  registry.registerComponent('parameters', 'StandardWebhookId', {
    name: 'webhook-id',
    in: 'header',
    required: false,
    description: `Standard Webhooks: the event id (\`evt_…\`), the same on the first attempt, every retry and every redelivery, and what GET /events/{id} takes: de-duplicate on it. ${onlyForWhsec}`,
    schema: { type: 'string', pattern: '^(?:evt_)?c[0-9a-z]{24}$' },
    example: EXAMPLE.eventId,
  });
  registry.registerComponent('parameters', 'StandardWebhookTimestamp', {
    name: 'webhook-timestamp',
    in: 'header',
    required: false,
    description: `Standard Webhooks: this attempt's time in Unix seconds. Refuse a request whose timestamp is more than 5 minutes from your clock (a replay): the SDK's verifyWebhook and the standardwebhooks packages do. ${onlyForWhsec}`,
    schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
    example: '1773480687',
  });
  registry.registerComponent('parameters', 'StandardWebhookSignature', {
    name: 'webhook-signature',
    in: 'header',
    required: false,
    description:
      'Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the decoded bytes of the `whsec_` secret; during the 24 h after a rotate-secret, one space-separated `v1,` entry per `whsec_` secret that signs (the new one first). Accept the request when any entry matches. ' +
      onlyForWhsec,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=(?: v1,[A-Za-z0-9+/]{43}=)?$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  });
}

/** The headers of every webhook request: the spec's three, then the Standard Webhooks ones (whsec_ secrets only). */
const WEBHOOK_HEADERS = ['WebhookSignature', 'WebhookEvent', 'WebhookDelivery', 'StandardWebhookId', 'StandardWebhookTimestamp', 'StandardWebhookSignature'];

/** Response headers every response of the endpoint carries. */
function commonHeaders(endpoint: EndpointDefinition) {
  return {
    'x-request-id': ref('headers', 'X-Request-Id'),
    ...(endpoint.rateLimited ? { RateLimit: ref('headers', 'RateLimit'), 'RateLimit-Policy': ref('headers', 'RateLimit-Policy') } : {}),
  };
}

interface ErrorStatus {
  description: string;
  codes: string[];
}

/** The error statuses an endpoint can answer, with the codes each may carry. */
function errorStatuses(endpoint: EndpointDefinition): Record<number, ErrorStatus> {
  const jsonBody = endpoint.method !== 'get' && !endpoint.consumes && !endpoint.bodyBytes;
  const paginated = Boolean((endpoint.query as ZodObject | undefined)?.shape?.cursor);
  const statuses: Record<number, ErrorStatus> = {
    400: {
      description:
        'The body or the query fails its schema (VALIDATION_ERROR: `details.issues` lists each field and reason)' +
        (jsonBody ? ', or the body is not JSON (INVALID_JSON)' : '') +
        (paginated ? ', or the cursor is not one this API produced (INVALID_CURSOR)' : ''),
      codes: ['VALIDATION_ERROR', ...(jsonBody ? ['INVALID_JSON'] : []), ...(paginated ? ['INVALID_CURSOR'] : [])],
    },
    500: { description: 'Internal error (logged with the request id); nothing was changed', codes: ['INTERNAL'] },
  };
  if (endpoint.access !== 'public') {
    statuses[401] = { description: 'Missing, invalid, expired or revoked credential (UNAUTHORIZED)', codes: ['UNAUTHORIZED'] };
    const member =
      endpoint.access === 'buyer'
        ? `; or the caller's role in the organisation lacks \`${endpoint.permission}\` (details: {permission, role}), or ${ORGANISATION_HEADER} names an organisation the caller is no member of`
        : '';
    statuses[403] = {
      description: endpoint.sessionOnly
        ? `A credential of the wrong role for this route, or a buyer API key: account management needs a password session${member} (FORBIDDEN)`
        : `A credential of the wrong role for this route${member} (FORBIDDEN)`,
      codes: ['FORBIDDEN'],
    };
  }
  if (endpoint.rateLimited)
    statuses[429] = {
      description: "The sensitive routes' shared per-IP budget is spent (RATE_LIMITED); retry after `Retry-After` seconds",
      codes: ['RATE_LIMITED'],
    };
  if (endpoint.params) {
    const code = endpoint.notFound ?? 'NOT_FOUND';
    statuses[404] = { description: `${code}: unknown, malformed or foreign id`, codes: [code] };
  }
  if (endpoint.method !== 'get') {
    statuses[413] = { description: `PAYLOAD_TOO_LARGE: a body over ${endpoint.bodyLimit === '10mb' ? '10 MB' : '1 MB'}`, codes: ['PAYLOAD_TOO_LARGE'] };
    statuses[415] = {
      description: 'UNSUPPORTED_MEDIA_TYPE: a body of another Content-Type or Content-Encoding than the route takes',
      codes: ['UNSUPPORTED_MEDIA_TYPE'],
    };
  }
  if (endpoint.idempotent)
    statuses[409] = { description: 'IDEMPOTENCY_KEY_REUSED: the Idempotency-Key was used with another request', codes: ['IDEMPOTENCY_KEY_REUSED'] };
  for (const [key, description] of Object.entries(endpoint.errors ?? {})) {
    const status = Number(key);
    const existing = statuses[status];
    const codes = codesIn(description);
    statuses[status] = existing
      ? { description: `${existing.description}; ${description}`, codes: [...new Set([...existing.codes, ...codes])] }
      : { description, codes };
  }
  return statuses;
}

function errorExamples(codes: string[]) {
  return Object.fromEntries(
    codes.flatMap((code) => {
      const value = errorExample(code);
      return value ? [[code, { summary: code, value }]] : [];
    }),
  );
}

function errorResponses(endpoint: EndpointDefinition): Record<string, ResponseConfig> {
  const headers = commonHeaders(endpoint);
  return Object.fromEntries(
    Object.entries(errorStatuses(endpoint)).map(([status, { description, codes }]) => [
      status,
      {
        description,
        headers: status === '429' && endpoint.rateLimited ? { ...headers, 'Retry-After': ref('headers', 'Retry-After') } : headers,
        content: { 'application/json': { schema: errorSchema, examples: errorExamples(codes) } },
      },
    ]),
  );
}

function successResponse(endpoint: EndpointDefinition): ResponseConfig {
  const description = endpoint.status === 204 ? 'Done; no body' : endpoint.status === 201 ? 'Created' : endpoint.status === 202 ? 'Accepted' : 'Success';
  const headers = {
    ...commonHeaders(endpoint),
    ...(endpoint.idempotent ? { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') } : {}),
    ...Object.fromEntries(
      Object.entries(endpoint.responseHeaders ?? {}).map(([name, text]) => [name, { description: text, schema: { type: 'string' as const } }]),
    ),
  };
  if (endpoint.produces) {
    const content: Record<string, ZodMediaTypeObject> = {};
    for (const [type, produced] of Object.entries(endpoint.produces)) {
      const example = endpoint.examples?.content?.[type];
      const schema = typeof produced === 'string' ? { type: 'string' as const, description: produced } : produced.schema;
      content[type] = { schema, ...(example === undefined ? {} : { example }) };
    }
    return { description, headers, content };
  }
  if (endpoint.response) {
    const example = endpoint.examples?.response;
    return { description, headers, content: { 'application/json': { schema: endpoint.response, ...(example === undefined ? {} : { example }) } } };
  }
  return { description, headers };
}

function requestBody(endpoint: EndpointDefinition) {
  if (endpoint.consumes) return { content: Object.fromEntries(Object.entries(endpoint.consumes).map(([type, schema]) => [type, { schema }])) };
  const schema = endpoint.rawBody ?? endpoint.body;
  if (!schema || endpoint.method === 'get') return undefined;
  const example = endpoint.examples?.request;
  return { content: { 'application/json': { schema: schema as ZodType, ...(example === undefined ? {} : { example }) } } };
}

function securityFor(endpoint: EndpointDefinition): Array<Record<string, string[]>> {
  if (endpoint.access === 'public') return [];
  if (endpoint.access === 'apiKey') return [{ apiKey: [] }];
  // A buyer API key acts as its buyer wherever a buyer's JWT is accepted, except on account management.
  const buyerKey = (endpoint.access === 'buyer' || endpoint.access === 'user') && !endpoint.sessionOnly;
  return buyerKey ? [{ jwt: [] }, { buyerApiKey: [] }] : [{ jwt: [] }];
}

const SIGNATURES =
  'Verify the signature over the exact body bytes before trusting it: `webhook-signature` (Standard Webhooks, with its 5-minute replay window) when the secret is a `whsec_` one, else `x-service-signature`.';

function registerWebhooks(registry: OpenAPIRegistry): void {
  for (const [event, { schema, summary, example }] of Object.entries(WEBHOOK_EVENTS)) {
    const ping = event === PING_EVENT;
    registry.registerWebhook({
      method: 'post',
      path: event,
      operationId: `${event.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Webhook`,
      summary,
      description: ping
        ? 'Sent by a test send (POST /webhooks/configs/{id}/test) to that configuration only, active or not and whatever it subscribes to, as a POST with `content-type: application/json` and `user-agent: Concord-Webhooks/1.0`, signed like every delivery and with its own event id. ' +
          `${SIGNATURES} The outcome (status, latency, the first 500 characters of the response) is the test send's answer; it is never retried.`
        : `Sent to each active webhook configuration subscribed to \`${event}\`, as a POST with \`content-type: application/json\` and \`user-agent: Concord-Webhooks/1.0\`. ${SIGNATURES} ` +
          "A 2xx within 10 s (WEBHOOK_TIMEOUT_MS) is delivered. What a failure leads to is the configuration's `retryPolicy`: `spec` retries a timeout, a network error or a 5xx once, 30 s later, and no 4xx; `extended` makes up to 8 attempts over about a day and also retries 408 and 429.",
      tags: ['Webhooks'],
      security: [],
      parameters: WEBHOOK_HEADERS.map((name) => ref('parameters', name)),
      request: { body: { required: true, content: { 'application/json': { schema, example } } } },
      responses: ping
        ? {
            '2XX': { description: 'Received: the test send answers `delivered: true` (the response body is shown in its `responseExcerpt`)' },
            '4XX': { description: 'Refused: the test send answers `delivered: false` with the status' },
            '5XX': { description: 'Failed: the test send answers `delivered: false` with the status; not retried' },
          }
        : {
            '2XX': { description: 'Received: the delivery is DELIVERED (the response body is ignored)' },
            '4XX': {
              description:
                'Refused: not retried (`extended` retries 408 and 429), the delivery is FAILED (redeliver it with POST /webhooks/deliveries/{id}/redeliver)',
            },
            '5XX': { description: 'Failed: retried as the retryPolicy says (as are timeouts and network errors), then FAILED' },
          },
    });
  }
}

export function buildOpenApiDocument(endpoints: EndpointDefinition[]) {
  const registry = new OpenAPIRegistry();
  registerComponents(registry);
  for (const endpoint of endpoints) {
    registry.registerPath({
      method: endpoint.method,
      path: endpoint.path.replace(/:(\w+)/g, '{$1}'),
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      tags: [endpoint.tag],
      security: securityFor(endpoint),
      parameters: [
        ref('parameters', 'RequestId'),
        ...(endpoint.idempotent ? [ref('parameters', 'IdempotencyKey')] : []),
        ...(endpoint.access === 'buyer' || endpoint.access === 'user' ? [ref('parameters', 'Organisation')] : []),
      ],
      // The permission a member's role must grant (docs/organisations.md); the permission test reads it from here.
      ...(endpoint.permission ? { 'x-concord-permission': endpoint.permission } : {}),
      request: {
        params: endpoint.params as ZodObject | undefined,
        query: endpoint.query as ZodObject | undefined,
        body: requestBody(endpoint),
      },
      responses: { [String(endpoint.status ?? 200)]: successResponse(endpoint), ...errorResponses(endpoint) },
    });
  }
  registerWebhooks(registry);
  const used = new Set(endpoints.map((endpoint) => endpoint.tag));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Concord API',
      version: '1.0.0',
      description:
        'API-first data labelling: tasks, consensus, webhooks and training-data exports. ' +
        'Buyers post annotation tasks and pay for each task that reaches a result; developer apps hand the tasks to their annotators through the SDK routes; ' +
        'Concord runs the consensus, bills, pays annotators, notifies buyers by signed webhook and exports results as training datasets. ' +
        'Every response carries `x-request-id`; errors are `{error, code, details?}` with a stable `code`.',
      // Not open source (the packages say UNLICENSED): an SPDX reference of our own, as SPDX allows.
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the API is on the host that serves this document (GET /api/v1/openapi.json), whatever
    // name or proxy it was reached through.
    servers: [{ url: '/api/v1', description: 'This service' }],
    tags: [...Object.entries(TAGS), ...[...used].filter((tag) => !(tag in TAGS)).map((tag) => [tag, undefined] as const)]
      .filter(([name]) => used.has(name) || name === 'Webhooks')
      .map(([name, description]) => (description ? { name, description } : { name })),
  });
}
