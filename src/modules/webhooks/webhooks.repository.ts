import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type Cursor, type PageRequest } from '../../lib/pagination.ts';

export type WebhookEvent = 'task.completed' | 'task.failed' | 'budget.low';

export interface WebhookConfigRecord {
  id: string;
  buyerId: string;
  url: string;
  events: string[];
  isActive: boolean;
  createdAt: Date;
}

export interface DeliveryRecord {
  id: string;
  event: string;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A delivery claimed by a worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  event: string;
  payload: string;
  url: string;
  secret: string;
  isActive: boolean;
}

const configSelect = { id: true, buyerId: true, url: true, events: true, isActive: true, createdAt: true } as const;

export class WebhooksRepository {
  constructor(private readonly db: DbClient) {}

  /**
   * Creates a configuration unless the buyer already has `limit`. The buyer row is locked first, so
   * concurrent creations are counted one after the other.
   */
  async createConfig(buyerId: string, input: { url: string; events: string[]; secret: string }, limit: number): Promise<WebhookConfigRecord | null> {
    await this.db.$queryRaw`SELECT id FROM buyers WHERE id = ${buyerId} FOR UPDATE`;
    if ((await this.db.webhookConfig.count({ where: { buyerId } })) >= limit) return null;
    return this.db.webhookConfig.create({ data: { id: newId(), buyerId, ...input }, select: configSelect });
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  listConfigs(buyerId: string, page: PageRequest): Promise<WebhookConfigRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    return this.db.webhookConfig.findMany({ where: { buyerId, ...where }, select: configSelect, ...rest });
  }

  findConfig(buyerId: string, id: string): Promise<WebhookConfigRecord | null> {
    return this.db.webhookConfig.findFirst({ where: { id, buyerId }, select: configSelect });
  }

  async updateConfig(
    buyerId: string,
    id: string,
    changes: { url?: string; events?: string[]; isActive?: boolean; secret?: string },
  ): Promise<WebhookConfigRecord | null> {
    const updated = await this.db.webhookConfig.updateMany({ where: { id, buyerId }, data: changes });
    return updated.count === 1 ? this.findConfig(buyerId, id) : null;
  }

  async deleteConfig(buyerId: string, id: string): Promise<boolean> {
    return (await this.db.webhookConfig.deleteMany({ where: { id, buyerId } })).count === 1;
  }

  /** Newest first; `limit + 1` rows so the caller can tell whether more remain. */
  async listDeliveries(configId: string, limit: number, after?: Cursor): Promise<DeliveryRecord[]> {
    const rows = await this.db.webhookDelivery.findMany({
      where: {
        configId,
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      include: { event: { select: { type: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    return rows.map((row) => ({
      id: row.id,
      event: row.event.type,
      status: row.status,
      attempts: row.attempts,
      lastStatusCode: row.lastStatusCode,
      lastError: row.lastError,
      createdAt: row.createdAt,
      deliveredAt: row.deliveredAt,
    }));
  }

  /** Queues a delivery of the buyer's again, as new: status PENDING, attempts 0, due now. */
  async redeliver(buyerId: string, id: string, now: Date): Promise<boolean> {
    const updated = await this.db.$executeRaw`
      UPDATE webhook_deliveries d SET status = 'PENDING', attempts = 0, next_attempt_at = ${now}, locked_until = NULL
      FROM webhook_configs c WHERE d.id = ${id} AND c.id = d.config_id AND c.buyer_id = ${buyerId}`;
    return updated === 1;
  }

  /**
   * Claims up to `limit` due deliveries for `leaseMs`: other workers (in this process or another) skip
   * them, and a delivery whose worker died is due again once its lease has passed. Claiming counts an
   * attempt.
   */
  claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    return this.db.$queryRaw<ClaimedDelivery[]>`
      UPDATE webhook_deliveries d
      SET locked_until = ${new Date(now.getTime() + leaseMs)}, attempts = d.attempts + 1
      FROM (
        SELECT id FROM webhook_deliveries
        WHERE status = 'PENDING' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ) due, events e, webhook_configs c
      WHERE d.id = due.id AND e.id = d.event_id AND c.id = d.config_id
      RETURNING d.id, d.attempts, e.type AS event, e.payload, c.url, c.secret, c.is_active AS "isActive"`;
  }

  async markDelivered(id: string, statusCode: number, now: Date): Promise<void> {
    await this.db.$executeRaw`
      UPDATE webhook_deliveries SET status = 'DELIVERED', delivered_at = ${now}, last_status_code = ${statusCode},
        last_error = NULL, locked_until = NULL
      WHERE id = ${id}`;
  }

  /** Records a failed attempt: due again at `retryAt`, or FAILED for good when there is none. */
  async markAttemptFailed(id: string, outcome: { statusCode: number | null; error: string }, retryAt: Date | null): Promise<void> {
    await this.db.$executeRaw`
      UPDATE webhook_deliveries SET
        status = ${retryAt ? 'PENDING' : 'FAILED'}::"DeliveryStatus",
        next_attempt_at = COALESCE(${retryAt}::timestamptz, next_attempt_at),
        last_status_code = ${outcome.statusCode}, last_error = ${outcome.error.slice(0, 500)}, locked_until = NULL
      WHERE id = ${id}`;
  }
}
