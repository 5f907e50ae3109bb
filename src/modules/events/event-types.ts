// The event vocabulary: what a webhook configuration subscribes to, what the event log holds, and the
// most configurations a buyer has. Constants of the feature, read by its repository, schemas, routers and
// the OpenAPI document alike.

/** contract: at most 20 webhook configurations per buyer (also the most deliveries one event makes). */
export const MAX_WEBHOOK_CONFIGS = 20;

/** The events a webhook configuration subscribes to. */
export const EVENT_TYPES = ['task.completed', 'task.failed', 'budget.low'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** A test send's event (POST /webhooks/configs/:id/test): in the log, never subscribed to. */
export const PING_EVENT = 'ping';
/** Every type the event log holds. */
export const LOGGED_EVENT_TYPES = [...EVENT_TYPES, PING_EVENT] as const;
export type LoggedEventType = (typeof LOGGED_EVENT_TYPES)[number];
