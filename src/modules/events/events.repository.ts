import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

export type EventType = 'task.completed' | 'task.failed' | 'budget.low';

export class EventsRepository {
  constructor(private readonly db: DbClient) {}

  /**
   * Writes an event to the outbox; call it inside the transaction that causes the event. The payload
   * is stored as the exact JSON text that will be sent (and signed).
   */
  async record(buyerId: string, type: EventType, payload: Record<string, unknown>): Promise<string> {
    const id = newId();
    await this.db.$executeRaw`
      INSERT INTO events (id, buyer_id, type, payload) VALUES (${id}, ${buyerId}, ${type}, ${JSON.stringify({ event: type, ...payload })})`;
    return id;
  }
}
