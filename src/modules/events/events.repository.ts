import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { newEventId, newId } from '../../lib/ids.ts';
import type { PageRequest } from '../../lib/pagination.ts';
import { MAX_WEBHOOK_CONFIGS, type EventPayload, type EventType, type LoggedEventType } from '@concord/contract';

/** An event as record_event takes it: its id, the JSON text to send, and ids for its deliveries. */
export interface OutboxEvent {
  id: string;
  type: EventType;
  payload: string;
  deliveryIds: string[];
}

/** An event's payload as its producer gives it: the contract's payload of its type, without `event` (added here). */
export type PayloadOf<T extends EventType> = Omit<EventPayload<T>, 'event'>;

/** The ids an outbox event is written with: its own, and one per delivery it may have (record_event takes those it needs). */
export const outboxIds = (): { id: string; deliveryIds: string[] } => ({ id: newEventId(), deliveryIds: Array.from({ length: MAX_WEBHOOK_CONFIGS }, newId) });

export function outboxEvent<T extends EventType>(type: T, payload: PayloadOf<T>): OutboxEvent {
  return { ...outboxIds(), type, payload: JSON.stringify({ event: type, ...payload }) };
}

/** One delivery of an event, as the buyer's event log shows it. */
export interface EventDeliveryRecord {
  id: string;
  configId: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  lastStatusCode: number | null;
  deliveredAt: Date | null;
}

/** An outbox event with the JSON text that was sent, and its deliveries (oldest first). */
export interface EventRecord {
  id: string;
  type: LoggedEventType;
  payload: string;
  createdAt: Date;
  deliveries: EventDeliveryRecord[];
}

/** An event as the stream sends it: what GET /events/:id shows but its deliveries, and its number. */
export interface StreamedEventRecord {
  id: string;
  buyerId: string;
  /** Its number among the buyer's events, given after commit (events.seq, numbered by number_events). */
  seq: number;
  type: LoggedEventType;
  payload: string;
  createdAt: Date;
}

/** Where a reader of one buyer's events stands: every event numbered up to `after` is behind it. */
export interface StreamPosition {
  buyerId: string;
  after: number;
}

export interface EventFilter {
  /** Events created at or after this moment. */
  since: Date;
  type?: LoggedEventType;
  /** Matches the payload's taskId. */
  taskId?: string;
}

const deliverySelect = { id: true, eventId: true, configId: true, status: true, attempts: true, lastStatusCode: true, deliveredAt: true } as const;

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class EventsRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /**
   * Writes an event to the outbox with one delivery per active configuration of the buyer subscribed
   * to it, in one statement (the SQL function record_event, which sdk_answer's settlement calls too);
   * call it inside the transaction that causes the event. The payload is stored as the exact JSON text
   * that will be sent (and signed).
   */
  async record<T extends EventType>(buyerId: string, type: T, payload: PayloadOf<T>): Promise<string> {
    const event = outboxEvent(type, payload);
    await this.db.$executeRaw`SELECT record_event(${event.id}, ${buyerId}, ${event.type}, ${event.payload}, ${event.deliveryIds}::text[])`;
    return event.id;
  }

  /** The number of the buyer's last committed event (0 before the first): nothing numbered up to it is still to commit. */
  async lastNumber(buyerId: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ seq: bigint | string }>>`SELECT seq FROM event_sequences WHERE buyer_id = ${buyerId}`;
    return rows[0] ? Number(rows[0].seq) : 0;
  }

  /** The number of one of the buyer's events created at or after `since`, or null. */
  async numberOf(buyerId: string, id: string, since: Date): Promise<number | null> {
    const rows = await this.db.$queryRaw<Array<{ seq: bigint | string | null }>>`
      SELECT seq FROM events WHERE id = ${id} AND buyer_id = ${buyerId} AND created_at >= ${since}`;
    const seq = rows[0]?.seq;
    return seq === undefined || seq === null ? null : Number(seq);
  }

  /**
   * Each buyer's events numbered after its position, in number order, at most `limit` per buyer: one
   * statement for every stream a server process holds (an index range on (buyer_id, seq) per buyer).
   */
  async numberedAfter(positions: StreamPosition[], limit: number): Promise<StreamedEventRecord[]> {
    if (positions.length === 0) return [];
    const rows = await this.db.$queryRaw<Array<Omit<StreamedEventRecord, 'seq'> & { seq: bigint | string }>>`
      SELECT e.id, e.buyer_id AS "buyerId", e.seq, e.type, e.payload, e.created_at AS "createdAt"
      FROM unnest(${positions.map((p) => p.buyerId)}::text[], ${positions.map((p) => p.after)}::bigint[]) AS p(buyer_id, after)
      CROSS JOIN LATERAL (
        SELECT id, buyer_id, seq, type, payload, created_at FROM events
        WHERE events.buyer_id = p.buyer_id AND events.seq > p.after ORDER BY events.seq LIMIT ${limit}
      ) e
      ORDER BY e.buyer_id, e.seq`;
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  }
}

export class EventsRepository extends EventsRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  /**
   * The buyer's events, newest first, one keyset page (`limit + 1` rows), each with its deliveries. The
   * (buyer_id, created_at) index bounds the scan to the window; a taskId filter uses events_buyer_task_idx
   * (an index on the payload's taskId, the expression below).
   */
  async list(buyerId: string, filter: EventFilter, page: PageRequest): Promise<EventRecord[]> {
    const conditions = [Prisma.sql`buyer_id = ${buyerId}`, Prisma.sql`created_at >= ${filter.since}`];
    if (filter.type) conditions.push(Prisma.sql`type = ${filter.type}`);
    if (filter.taskId) conditions.push(Prisma.sql`payload::jsonb ->> 'taskId' = ${filter.taskId}`);
    if (page.after) conditions.push(Prisma.sql`(created_at, id) < (${page.after.createdAt}::timestamptz, ${page.after.id})`);
    const events = await this.db.$queryRaw<Array<Omit<EventRecord, 'deliveries'>>>`
      SELECT id, type, payload, created_at AS "createdAt" FROM events WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`;
    return this.withDeliveries(events);
  }

  /** One of the buyer's events created at or after `since`, or null. */
  async findForBuyer(buyerId: string, id: string, since: Date): Promise<EventRecord | null> {
    const event = await this.db.event.findFirst({
      where: { id, buyerId, createdAt: { gte: since } },
      select: { id: true, type: true, payload: true, createdAt: true },
    });
    if (!event) return null;
    const [found] = await this.withDeliveries([{ ...event, type: event.type as LoggedEventType }]);
    return found ?? null;
  }

  private async withDeliveries(events: Array<Omit<EventRecord, 'deliveries'>>): Promise<EventRecord[]> {
    if (events.length === 0) return [];
    const deliveries = await this.db.webhookDelivery.findMany({
      where: { eventId: { in: events.map((event) => event.id) } },
      select: deliverySelect,
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const byEvent = new Map<string, EventDeliveryRecord[]>(events.map((event) => [event.id, []]));
    for (const { eventId, ...delivery } of deliveries) byEvent.get(eventId)?.push(delivery);
    return events.map((event) => ({ ...event, deliveries: byEvent.get(event.id) ?? [] }));
  }
}
