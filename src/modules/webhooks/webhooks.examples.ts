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
  retryPolicy: 'extended',
  rotationEndsAt: null,
  disabledAt: null,
  disabledReason: null,
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
    request: { url: config.url, events: config.events, secret: 'whsec_Hk3vQ9pX2mLr7TzW8cYb1NdF6gJs4AeU0iKo5RtVxZE=', retryPolicy: 'extended' },
    response: config,
  },
  listWebhookConfigs: { response: { webhooks: [config], nextCursor: null, hasMore: false } },
  getWebhookConfig: { response: config },
  updateWebhookConfig: { request: { events: ['task.completed'], isActive: true }, response: { ...config, events: ['task.completed'] } },
  rotateWebhookSecret: {
    request: { secret: 'whsec_p4Lw8Xk2Rn6Tq0Vz3Bc7Hf1Jm5Ds9Ga2Ye6Ui0Ok4Nt=' },
    response: { ...config, rotationEndsAt: '2026-03-16T16:02:11.047Z' },
  },
  sendWebhookTest: {
    request: {},
    response: {
      eventId: 'evt_cm3q7wbj2000glk08w5x6y7z8',
      delivered: true,
      statusCode: 200,
      latencyMs: 142,
      responseHeaders: { 'content-type': 'application/json', 'content-length': '17' },
      responseExcerpt: '{"received":true}',
    },
  },
  listWebhookDeliveries: { response: { deliveries: [delivery], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  redeliverWebhookDelivery: { response: { queued: true } },
};
