// OpenAPI examples of the event log routes, by operationId (checked against the routes' schemas by
// test/unit/openapi-document.test.ts).
import type { EndpointExamples } from '../../lib/endpoint.ts';
import { EXAMPLE, EXAMPLE_CURSOR } from '../../lib/openapi-examples.ts';
import { sseComment, sseEvent, sseRetry } from '@concord/contract';
import { WEBHOOK_EVENTS } from '../webhooks/webhook-payloads.ts';

const event = {
  id: EXAMPLE.eventId,
  type: 'task.completed',
  taskId: EXAMPLE.taskId,
  payload: WEBHOOK_EVENTS['task.completed'].example,
  createdAt: EXAMPLE.later,
  deliveries: [
    { id: EXAMPLE.deliveryId, configId: EXAMPLE.webhookId, status: 'DELIVERED', attempts: 1, lastStatusCode: 200, deliveredAt: '2026-03-14T09:31:27.642Z' },
  ],
};

const { id, type, taskId, payload, createdAt } = event;
const streamed = { id, type, taskId, payload, createdAt };

export const eventExamples: Record<string, EndpointExamples> = {
  listEvents: { response: { events: [event], nextCursor: EXAMPLE_CURSOR, hasMore: true } },
  getEvent: { response: event },
  getEventStream: {
    content: {
      // The frames GET /events/stream writes: the opening lines, an event (without its deliveries, still
      // being attempted when it is sent), a heartbeat.
      'text/event-stream': sseRetry(3_000) + sseComment('connected') + sseEvent(event.id, event.type, JSON.stringify(streamed)) + sseComment('ping'),
    },
  },
};
