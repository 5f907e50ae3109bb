import type { EventStreamHub } from './event-stream.ts';
import type { EventsService } from './events.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { idParams, noQuery } from '../../lib/schemas.ts';
import { bearerCredential } from '../../middleware/authenticate.ts';
import { STREAM_PERMISSION, StreamsBusyError } from './event-stream.ts';
import { presentEvent } from './events.presenter.ts';
import { eventSchema, eventStreamFrames, listEventsQuery, listEventsResponse, streamEventsQuery } from './events.schemas.ts';
import { eventExamples } from './events.examples.ts';

/** Last-Event-ID as a client sends it on a reconnect (an empty one names nothing). */
const lastEventIdHeader = (value: string | string[] | undefined) => (typeof value === 'string' && value !== '' ? value : undefined);

export function eventEndpoints({ events, eventStream }: { events: EventsService; eventStream: EventStreamHub }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/events',
      operationId: 'listEvents',
      examples: eventExamples.listEvents,
      tag: 'Events',
      summary: "The buyer's events of the last 30 days, newest first",
      access: 'buyer',
      permission: 'tasks:read',
      query: listEventsQuery,
      response: listEventsResponse,
      handler: async ({ principal, query }) => {
        const { limit, cursor, ...filter } = query;
        const page = await events.list(principal.buyerId, filter, limit, cursor);
        return { ...page, events: page.events.map(presentEvent) };
      },
    }),
    // Before /events/:id, which would take `stream` for an id.
    defineEndpoint({
      method: 'get',
      path: '/events/stream',
      operationId: 'getEventStream',
      examples: eventExamples.getEventStream,
      tag: 'Events',
      summary: "Server-sent events: the buyer's new events as they commit, in order; Last-Event-ID resumes after an event",
      access: 'buyer',
      permission: STREAM_PERMISSION,
      query: streamEventsQuery,
      produces: eventStreamFrames,
      errors: {
        400: 'VALIDATION_ERROR (the Last-Event-ID, or lastEventId, is not one of your events of the last 30 days) or LIMIT_EXCEEDED (the buyer holds 20 open streams on this server process already, or the client address 50; checked before the process cap)',
        503: 'SERVER_BUSY: this server process holds as many open streams as it may; another may not',
      },
      handler: async ({ principal, query, req, res }) => {
        // The header wins: an EventSource reconnecting to a URL that carries ?lastEventId sends a newer one in it.
        const after = await events.resumeAfter(principal.buyerId, lastEventIdHeader(req.headers['last-event-id']) ?? query.lastEventId);
        try {
          await eventStream.open(
            { buyerId: principal.buyerId, credential: bearerCredential(req.headers.authorization) ?? '', address: req.ip ?? '', after },
            res,
          );
        } catch (error) {
          if (error instanceof StreamsBusyError) res.setHeader('retry-after', String(error.retryAfterSeconds));
          throw error;
        }
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/events/:id',
      operationId: 'getEvent',
      examples: eventExamples.getEvent,
      notFound: 'EVENT_NOT_FOUND',
      tag: 'Events',
      summary: 'One event of the last 30 days with its deliveries',
      access: 'buyer',
      permission: 'tasks:read',
      params: idParams,
      query: noQuery,
      response: eventSchema,
      handler: async ({ principal, params }) => presentEvent(await events.get(principal.buyerId, params.id)),
    }),
  ];
}
