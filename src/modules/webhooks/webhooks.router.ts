import { z } from 'zod';
import type { UnitOfWork } from '../../db/database.ts';
import type { RateLimitsRepository } from '../auth/rate-limits.repository.ts';
import type { WebhooksService } from './webhooks.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { createAccountRateLimit } from '../../middleware/rate-limit.ts';
import { cursorSchema, emptyBody, httpUrlSchema, idParams, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';
import { EVENT_TYPES, LOGGED_EVENT_TYPES, RETRY_POLICIES, webhookSecretSchema } from '@concord/contract';
import type { DeliveryRecord, WebhookConfigRecord } from './webhooks.repository.ts';
import { webhookExamples } from './webhooks.examples.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type RawRepos = { rateLimits: RateLimitsRepository };
type Db = UnitOfWork<unknown, RawRepos>;

const events = z
  .array(z.enum(EVENT_TYPES))
  .min(1)
  .transform((list) => [...new Set(list)]);
const secret = webhookSecretSchema.meta({
  description:
    '16–256 characters, never returned. A `whsec_<base64>` secret (24–64 bytes once decoded) also signs the Standard Webhooks headers; any other secret signs `x-service-signature` only.',
});
const retryPolicy = z.enum(RETRY_POLICIES).meta({
  description:
    '`spec` (default): one retry 30 s later, none on a 4xx. `extended`: 8 attempts over about a day, 408 and 429 retried, disabled after 3 days of failures.',
});

const createBody = z.strictObject({ url: httpUrlSchema, events, secret, retryPolicy: retryPolicy.optional() });
const updateBody = z.strictObject({
  url: httpUrlSchema.optional(),
  events: events.optional(),
  isActive: z.boolean().optional(),
  secret: secret.optional(),
  retryPolicy: retryPolicy.optional(),
});
const rotateBody = z.strictObject({ secret });

const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    isActive: z.boolean(),
    createdAt: timestamp,
    retryPolicy,
    rotationEndsAt: timestamp.nullable().meta({
      description:
        'When the secret replaced by the last rotate-secret stops (or stopped) signing beside the current one: 24 h after the rotation. null when the secret was never rotated, or was last replaced by PATCH',
    }),
    disabledAt: timestamp.nullable().meta({ description: 'When the service disabled the configuration (extended policy: 3 days of failures)' }),
    disabledReason: z.string().nullable(),
  })
  .meta({ id: 'WebhookConfig' });
const testSendSchema = z
  .object({
    eventId: z.string().meta({ description: "The ping event's id (its webhook-id; GET /events/:id shows it)" }),
    delivered: z.boolean().meta({ description: 'A 2xx came back within the timeout' }),
    statusCode: z.number().int().nullable().meta({ description: 'null when no response came' }),
    latencyMs: z.number().int(),
    responseHeaders: z.record(z.string(), z.string()).nullable().meta({
      description: 'The response headers (names lower-case, at most 50, each value at most 500 characters), from any address; null without a response',
    }),
    responseExcerpt: z.string().nullable().meta({
      description:
        'The first 500 characters of the response body, as text; null without a response, or when the endpoint answered from an address that is not public (allowed only where WEBHOOK_ALLOW_PRIVATE_URLS is on: its answer may be an internal service’s)',
    }),
    error: z.string().optional().meta({ description: 'Why it was not delivered: HTTP <status>, a timeout, a refused address, a network error' }),
  })
  .meta({ id: 'WebhookTestResult' });
const deliverySchema = z
  .object({
    id: z.string(),
    event: z.enum(LOGGED_EVENT_TYPES),
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: timestamp,
    deliveredAt: timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const toWebhook = (config: WebhookConfigRecord) => ({
  id: config.id,
  url: config.url,
  events: config.events,
  isActive: config.isActive,
  createdAt: config.createdAt.toISOString(),
  retryPolicy: config.retryPolicy,
  rotationEndsAt: config.previousSecretExpiresAt?.toISOString() ?? null,
  disabledAt: config.disabledAt?.toISOString() ?? null,
  disabledReason: config.disabledReason,
});
const toDelivery = (delivery: DeliveryRecord) => ({
  ...delivery,
  createdAt: delivery.createdAt.toISOString(),
  deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
});

/** Test sends per buyer: each makes the service send a request, so a buyer gets 10 a minute (README). */
export const TEST_SEND_LIMIT = { max: 10, windowMs: 60_000 };

export function webhookEndpoints({ webhooks, db }: { webhooks: WebhooksService; db: Db }) {
  const testSendLimit = createAccountRateLimit('webhook-test', TEST_SEND_LIMIT, db.rawRepos.rateLimits);
  return [
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/webhooks/configs',
      operationId: 'createWebhookConfig',
      examples: webhookExamples.createWebhookConfig,
      tag: 'Webhooks',
      summary: 'Subscribe a URL to events (the secret is never returned)',
      access: 'buyer',
      permission: 'webhooks:write',
      body: createBody,
      status: 201,
      response: webhookSchema,
      errors: { 400: 'VALIDATION_ERROR or LIMIT_EXCEEDED (20 per buyer)' },
      handler: async ({ actor, body }) => toWebhook(await webhooks.create(actor, body)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/webhooks/configs',
      operationId: 'listWebhookConfigs',
      examples: webhookExamples.listWebhookConfigs,
      tag: 'Webhooks',
      summary: "The buyer's webhook configurations",
      access: 'buyer',
      permission: 'tasks:read',
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ webhooks: z.array(webhookSchema), ...pageInfo }),
      handler: async ({ principal, query }) => {
        const page = await webhooks.list(principal.buyerId, query.limit, query.cursor);
        return { ...page, webhooks: page.webhooks.map(toWebhook) };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/webhooks/configs/:id',
      operationId: 'getWebhookConfig',
      examples: webhookExamples.getWebhookConfig,
      notFound: 'WEBHOOK_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'One webhook configuration',
      access: 'buyer',
      permission: 'tasks:read',
      params: idParams,
      response: webhookSchema,
      handler: async ({ principal, params }) => toWebhook(await webhooks.get(principal.buyerId, params.id)),
    }),
    defineEndpoint({
      method: 'patch',
      path: '/webhooks/configs/:id',
      operationId: 'updateWebhookConfig',
      examples: webhookExamples.updateWebhookConfig,
      notFound: 'WEBHOOK_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'Change url, events, isActive, secret (replaced at once) or retryPolicy',
      access: 'buyer',
      permission: 'webhooks:write',
      params: idParams,
      body: updateBody,
      response: webhookSchema,
      handler: async ({ actor, params, body }) => toWebhook(await webhooks.update(actor, params.id, body)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/webhooks/configs/:id/rotate-secret',
      operationId: 'rotateWebhookSecret',
      examples: webhookExamples.rotateWebhookSecret,
      notFound: 'WEBHOOK_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'Replace the secret; the old one keeps signing (Standard Webhooks) for 24 h',
      access: 'buyer',
      permission: 'webhooks:write',
      params: idParams,
      body: rotateBody,
      response: webhookSchema,
      errors: { 400: 'VALIDATION_ERROR (also when the secret is the current one)' },
      handler: async ({ actor, params, body }) => toWebhook(await webhooks.rotateSecret(actor, params.id, body.secret)),
    }),
    defineEndpoint({
      method: 'post',
      path: '/webhooks/configs/:id/test',
      operationId: 'sendWebhookTest',
      examples: webhookExamples.sendWebhookTest,
      notFound: 'WEBHOOK_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'Send a signed ping event now and report the outcome',
      access: 'buyer',
      permission: 'webhooks:write',
      middleware: [testSendLimit],
      params: idParams,
      body: emptyBody,
      response: testSendSchema,
      errors: {
        429: 'RATE_LIMITED: more than 10 test sends in a minute by this buyer (Retry-After, RateLimit and RateLimit-Policy headers as on the sensitive routes)',
      },
      handler: ({ actor, params }) => webhooks.testSend(actor, params.id),
    }),
    defineEndpoint({
      method: 'delete',
      path: '/webhooks/configs/:id',
      operationId: 'deleteWebhookConfig',
      notFound: 'WEBHOOK_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'Delete a webhook configuration',
      access: 'buyer',
      permission: 'webhooks:write',
      params: idParams,
      status: 204,
      handler: ({ actor, params }) => webhooks.delete(actor, params.id),
    }),
    defineEndpoint({
      method: 'get',
      path: '/webhooks/configs/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      examples: webhookExamples.listWebhookDeliveries,
      notFound: 'WEBHOOK_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'Delivery log, newest first',
      access: 'buyer',
      permission: 'tasks:read',
      params: idParams,
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ deliveries: z.array(deliverySchema), ...pageInfo }),
      handler: async ({ principal, params, query }) => {
        const page = await webhooks.deliveries(principal.buyerId, params.id, query.limit, query.cursor);
        return { ...page, deliveries: page.deliveries.map(toDelivery) };
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/webhooks/deliveries/:id/redeliver',
      operationId: 'redeliverWebhookDelivery',
      examples: webhookExamples.redeliverWebhookDelivery,
      notFound: 'DELIVERY_NOT_FOUND',
      tag: 'Webhooks',
      summary: 'Queue a delivery again',
      access: 'buyer',
      permission: 'webhooks:write',
      params: idParams,
      status: 202,
      response: z.object({ queued: z.literal(true) }),
      handler: async ({ actor, params }) => {
        await webhooks.redeliver(actor, params.id);
        return { queued: true };
      },
    }),
  ];
}
