import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

/** contract: at most 20 webhook configurations per buyer (also the most deliveries one event makes). */
export const MAX_WEBHOOK_CONFIGS = 20;

export type EventType = 'task.completed' | 'task.failed' | 'budget.low';

export class EventsRepository {
  constructor(private readonly db: DbClient) {}

  /**
   * Writes an event to the outbox with one delivery per active configuration of the buyer subscribed
   * to it, in one statement; call it inside the transaction that causes the event. The payload is
   * stored as the exact JSON text that will be sent (and signed).
   */
  async record(buyerId: string, type: EventType, payload: Record<string, unknown>): Promise<string> {
    const id = newId();
    const deliveryIds = Array.from({ length: MAX_WEBHOOK_CONFIGS }, newId);
    await this.db.$executeRaw`
      WITH event AS (
        INSERT INTO events (id, buyer_id, type, payload)
        VALUES (${id}, ${buyerId}, ${type}, ${JSON.stringify({ event: type, ...payload })})
        RETURNING id
      )
      INSERT INTO webhook_deliveries (id, event_id, config_id)
      SELECT (${deliveryIds}::text[])[row_number() OVER (ORDER BY c.id)], event.id, c.id
      FROM event, webhook_configs c
      WHERE c.buyer_id = ${buyerId} AND c.is_active AND ${type} = ANY(c.events)`;
    return id;
  }
}
