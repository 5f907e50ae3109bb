import type { Services } from '../../container.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { idParams, noQuery } from '../../lib/schemas.ts';
import type { EventRecord } from './events.repository.ts';
import { eventSchema, listEventsQuery, listEventsResponse } from './events.schemas.ts';
import { eventExamples } from './events.examples.ts';

/** The event with the payload parsed back into the object that was sent. */
const toEvent = (event: EventRecord) => {
  const payload = JSON.parse(event.payload) as Record<string, unknown>;
  return {
    id: event.id,
    type: event.type,
    taskId: typeof payload.taskId === 'string' ? payload.taskId : null,
    payload,
    createdAt: event.createdAt.toISOString(),
    deliveries: event.deliveries.map((delivery) => ({ ...delivery, deliveredAt: delivery.deliveredAt?.toISOString() ?? null })),
  };
};

export function eventEndpoints({ events }: Services) {
  return [
    defineEndpoint({
      method: 'get', path: '/events', operationId: 'listEvents', examples: eventExamples.listEvents, tag: 'Events', summary: "The buyer's events of the last 30 days, newest first", access: 'buyer',
      query: listEventsQuery, response: listEventsResponse,
      handler: async ({ principal, query }) => {
        const { limit, cursor, ...filter } = query;
        const page = await events.list(principal.accountId, filter, limit, cursor);
        return { ...page, events: page.events.map(toEvent) };
      },
    }),
    defineEndpoint({
      method: 'get', path: '/events/:id', operationId: 'getEvent', examples: eventExamples.getEvent, notFound: 'EVENT_NOT_FOUND', tag: 'Events', summary: 'One event of the last 30 days with its deliveries', access: 'buyer',
      params: idParams, query: noQuery, response: eventSchema,
      handler: async ({ principal, params }) => toEvent(await events.get(principal.accountId, params.id)),
    }),
  ];
}
