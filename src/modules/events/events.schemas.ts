import { z } from 'zod';
import { cursorSchema, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';
import { LOGGED_EVENT_TYPES } from '@concord/contract';

export const listEventsQuery = z.strictObject({
  type: z.enum(LOGGED_EVENT_TYPES).optional().meta({ description: 'The event name (`ping`: the test sends)' }),
  since: z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .optional()
    .meta({ description: 'ISO 8601 timestamp: events created at or after it (the log reaches back 30 days)' }),
  taskId: z.string().min(1).max(64).optional().meta({ description: "Matches the payload's taskId" }),
  limit: limitSchema,
  cursor: cursorSchema,
});

const deliverySummarySchema = z.object({
  id: z.string(),
  configId: z.string(),
  status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  deliveredAt: timestamp.nullable(),
});

export const eventSchema = z
  .object({
    id: z.string(),
    type: z.enum(LOGGED_EVENT_TYPES).meta({ description: 'The event name: a subscribed one, or `ping` (a test send, POST /webhooks/configs/:id/test)' }),
    taskId: z.string().nullable().meta({ description: "The payload's taskId (null for budget.low)" }),
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The JSON body that was sent to the webhooks' }),
    createdAt: timestamp,
    deliveries: z.array(deliverySummarySchema).meta({ description: 'One per webhook configuration subscribed when the event happened' }),
  })
  .meta({ id: 'Event' });

export const listEventsResponse = z.object({ events: z.array(eventSchema), ...pageInfo });

export const streamEventsQuery = z.strictObject({
  lastEventId: z.string().min(1).max(64).optional().meta({
    description:
      'Resume after this event, like the Last-Event-ID header (for clients that cannot set headers; the header wins when both are sent). It must be one of your events of the last 30 days.',
  }),
});

export const eventStreamFrames = {
  'text/event-stream': {
    description:
      'A `text/event-stream` that stays open. Per event, in the order of the numbers events get after they commit (never one that commits late skipped): `id: <event id>`, `event: <type>`, `data: <the event as GET /events/:id shows it, without its deliveries, as JSON on one line>`. ' +
      'A `: ping` comment line every 15 s keeps proxies from closing it. Reconnect with the last id received in `Last-Event-ID`: the stream resumes right after it, so nothing is missed. ' +
      'The stream ends when the server shuts down or the credential stops being valid (revoked, password changed, expired).',
    schema: z.string().meta({ description: 'Server-sent events; each data line is an Event without `deliveries`' }),
  },
};
