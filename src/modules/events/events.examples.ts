// OpenAPI examples of the event log routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';
import { WEBHOOK_EVENTS } from '../webhooks/webhook-payloads.ts';

const event = {
  id: EXAMPLE.eventId,
  type: 'task.completed',
  taskId: EXAMPLE.taskId,
  payload: WEBHOOK_EVENTS['task.completed'].example,
  createdAt: EXAMPLE.later,
  deliveries: [{ id: EXAMPLE.deliveryId, configId: EXAMPLE.webhookId, status: 'DELIVERED', attempts: 1, lastStatusCode: 200, deliveredAt: '2026-03-14T09:31:27.642Z' }],
};

export const eventExamples: Record<string, EndpointExamples> = {
  listEvents: { response: { events: [event], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  getEvent: { response: event },
};
