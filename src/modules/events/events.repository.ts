import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

/** contract: at most 20 webhook configurations per buyer (also the most deliveries one event makes). */
export const MAX_WEBHOOK_CONFIGS = 20;

export type EventType = 'task.completed' | 'task.failed' | 'budget.low';

/** An event as record_event takes it: its id, the JSON text to send, and ids for its deliveries. */
export interface OutboxEvent {
  id: string;
  type: EventType;
  payload: string;
  deliveryIds: string[];
}

export function outboxEvent(type: EventType, payload: Record<string, unknown>): OutboxEvent {
  return { id: newId(), type, payload: JSON.stringify({ event: type, ...payload }), deliveryIds: Array.from({ length: MAX_WEBHOOK_CONFIGS }, newId) };
}

export class EventsRepository {
  constructor(private readonly db: DbClient) {}

  /**
   * Writes an event to the outbox with one delivery per active configuration of the buyer subscribed
   * to it, in one statement (the SQL function record_event, which sdk_answer's settlement calls too);
   * call it inside the transaction that causes the event. The payload is stored as the exact JSON text
   * that will be sent (and signed).
   */
  async record(buyerId: string, type: EventType, payload: Record<string, unknown>): Promise<string> {
    const event = outboxEvent(type, payload);
    await this.db.$executeRaw`SELECT record_event(${event.id}, ${buyerId}, ${event.type}, ${event.payload}, ${event.deliveryIds}::text[])`;
    return event.id;
  }
}
