import { z } from 'zod';
import { cursorSchema, limitSchema, pageInfo, timestamp } from '../../lib/schemas.ts';
import { LOGGED_EVENT_TYPES } from './events.repository.ts';

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
