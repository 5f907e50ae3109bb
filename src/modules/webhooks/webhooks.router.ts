import { z } from 'zod';
import type { Services } from '../../container.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { cursorSchema, httpUrlSchema, idParams, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';
import { EVENT_TYPES } from '../events/events.repository.ts';
import type { DeliveryRecord, WebhookConfigRecord } from './webhooks.repository.ts';
import { webhookExamples } from './webhooks.examples.ts';

const events = z
  .array(z.enum(EVENT_TYPES))
  .min(1)
  .transform((list) => [...new Set(list)]);
const secret = z.string().min(16, { error: 'must be at least 16 characters' }).max(256);

const createBody = z.strictObject({ url: httpUrlSchema, events, secret });
const updateBody = z.strictObject({ url: httpUrlSchema.optional(), events: events.optional(), isActive: z.boolean().optional(), secret: secret.optional() });

const webhookSchema = z
  .object({ id: z.string(), url: z.string(), events: z.array(z.enum(EVENT_TYPES)), isActive: z.boolean(), createdAt: timestamp })
  .meta({ id: 'WebhookConfig' });
const deliverySchema = z
  .object({
    id: z.string(),
    event: z.enum(EVENT_TYPES),
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
});
const toDelivery = (delivery: DeliveryRecord) => ({
  ...delivery,
  createdAt: delivery.createdAt.toISOString(),
  deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
});

export function webhookEndpoints({ webhooks }: Services) {
  return [
    defineEndpoint({
      method: 'post', idempotent: 'router', path: '/webhooks/configs', operationId: 'createWebhookConfig', examples: webhookExamples.createWebhookConfig, tag: 'Webhooks', summary: 'Subscribe a URL to events (the secret is never returned)',
      access: 'buyer', body: createBody, status: 201, response: webhookSchema, errors: { 400: 'VALIDATION_ERROR or LIMIT_EXCEEDED (20 per buyer)' },
      handler: async ({ principal, body }) => toWebhook(await webhooks.create(principal.accountId, body)),
    }),
    defineEndpoint({
      method: 'get', path: '/webhooks/configs', operationId: 'listWebhookConfigs', examples: webhookExamples.listWebhookConfigs, tag: 'Webhooks', summary: "The buyer's webhook configurations", access: 'buyer',
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ webhooks: z.array(webhookSchema), ...pageInfo }),
      handler: async ({ principal, query }) => {
        const page = await webhooks.list(principal.accountId, query.limit, query.cursor);
        return { ...page, webhooks: page.webhooks.map(toWebhook) };
      },
    }),
    defineEndpoint({
      method: 'get', path: '/webhooks/configs/:id', operationId: 'getWebhookConfig', examples: webhookExamples.getWebhookConfig, notFound: 'WEBHOOK_NOT_FOUND', tag: 'Webhooks', summary: 'One webhook configuration', access: 'buyer',
      params: idParams, response: webhookSchema,
      handler: async ({ principal, params }) => toWebhook(await webhooks.get(principal.accountId, params.id)),
    }),
    defineEndpoint({
      method: 'patch', path: '/webhooks/configs/:id', operationId: 'updateWebhookConfig', examples: webhookExamples.updateWebhookConfig, notFound: 'WEBHOOK_NOT_FOUND', tag: 'Webhooks', summary: 'Change url, events, isActive or secret', access: 'buyer',
      params: idParams, body: updateBody, response: webhookSchema,
      handler: async ({ principal, params, body }) => toWebhook(await webhooks.update(principal.accountId, params.id, body)),
    }),
    defineEndpoint({
      method: 'delete', path: '/webhooks/configs/:id', operationId: 'deleteWebhookConfig', notFound: 'WEBHOOK_NOT_FOUND', tag: 'Webhooks', summary: 'Delete a webhook configuration', access: 'buyer',
      params: idParams, status: 204,
      handler: ({ principal, params }) => webhooks.delete(principal.accountId, params.id),
    }),
    defineEndpoint({
      method: 'get', path: '/webhooks/configs/:id/deliveries', operationId: 'listWebhookDeliveries', examples: webhookExamples.listWebhookDeliveries, notFound: 'WEBHOOK_NOT_FOUND', tag: 'Webhooks', summary: 'Delivery log, newest first', access: 'buyer',
      params: idParams, query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ deliveries: z.array(deliverySchema), ...pageInfo }),
      handler: async ({ principal, params, query }) => {
        const page = await webhooks.deliveries(principal.accountId, params.id, query.limit, query.cursor);
        return { ...page, deliveries: page.deliveries.map(toDelivery) };
      },
    }),
    defineEndpoint({
      method: 'post', path: '/webhooks/deliveries/:id/redeliver', operationId: 'redeliverWebhookDelivery', examples: webhookExamples.redeliverWebhookDelivery, notFound: 'DELIVERY_NOT_FOUND', tag: 'Webhooks', summary: 'Queue a delivery again', access: 'buyer',
      params: idParams, status: 202, response: z.object({ queued: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await webhooks.redeliver(principal.accountId, params.id);
        return { queued: true };
      },
    }),
  ];
}
