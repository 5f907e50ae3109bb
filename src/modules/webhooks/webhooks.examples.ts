// OpenAPI examples of the webhook configuration routes, by operationId (checked against the routes'
// schemas by test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';

const config = {
  id: EXAMPLE.webhookId,
  url: 'https://hooks.acme-robotics.com/concord',
  events: ['task.completed', 'task.failed', 'budget.low'],
  isActive: true,
  createdAt: EXAMPLE.createdAt,
};

const delivery = {
  id: EXAMPLE.deliveryId,
  event: 'task.completed',
  status: 'FAILED',
  attempts: 2,
  lastStatusCode: 503,
  lastError: 'HTTP 503',
  createdAt: EXAMPLE.later,
  deliveredAt: null,
};

export const webhookExamples: Record<string, EndpointExamples> = {
  createWebhookConfig: {
    request: { url: config.url, events: config.events, secret: 'whsec_Hk3vQ9pX2mLr7TzW8cYb1NdF6gJs4AeU0iKo5RtVxZE=' },
    response: config,
  },
  listWebhookConfigs: { response: { webhooks: [config], nextCursor: null, hasMore: false } },
  getWebhookConfig: { response: config },
  updateWebhookConfig: { request: { events: ['task.completed'], isActive: true }, response: { ...config, events: ['task.completed'] } },
  listWebhookDeliveries: { response: { deliveries: [delivery], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  redeliverWebhookDelivery: { response: { queued: true } },
};
