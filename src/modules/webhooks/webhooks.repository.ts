import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type Cursor, type PageRequest } from '../../lib/pagination.ts';
import type { RetryPolicy } from '@concord/contract';

export type WebhookEvent = 'task.completed' | 'task.failed' | 'budget.low';

export interface WebhookConfigRecord {
  id: string;
  buyerId: string;
  url: string;
  events: string[];
  isActive: boolean;
  createdAt: Date;
  retryPolicy: RetryPolicy;
  /** When the secret before the last rotation stops signing (null: none signs beside the current one). */
  previousSecretExpiresAt: Date | null;
  /** Set when the service disabled the configuration (extended: 3 days of failures). */
  disabledAt: Date | null;
  disabledReason: string | null;
}

/** What a configuration can be changed to (PATCH); the secret here replaces the current one at once. */
export interface ConfigChanges {
  url?: string;
  events?: string[];
  isActive?: boolean;
  secret?: string;
  retryPolicy?: RetryPolicy;
}

/** A configuration as a test send needs it (the secrets never leave the service). */
export interface SigningConfig {
  id: string;
  url: string;
  secret: string;
  /** The secret before a rotation, while it still signs. */
  previousSecret: string | null;
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
  eventId: string;
  event: string;
  payload: string;
  configId: string;
  url: string;
  secret: string;
  /** The secret before a rotation, while it still signs (null once expired). */
  previousSecret: string | null;
  isActive: boolean;
  retryPolicy: RetryPolicy;
}

/** A configuration the service has just disabled, with whom to tell. */
export interface DisabledConfig {
  id: string;
  buyerId: string;
  url: string;
  failingSince: Date;
}

const configSelect = {
  id: true,
  buyerId: true,
  url: true,
  events: true,
  isActive: true,
  createdAt: true,
  retryPolicy: true,
  previousSecretExpiresAt: true,
  disabledAt: true,
  disabledReason: true,
} as const;

export class WebhooksRepository {
  constructor(private readonly db: DbClient) {}

  /**
   * Creates a configuration unless the buyer already has `limit`. The buyer row is locked first, so
   * concurrent creations are counted one after the other.
   */
  async createConfig(
    buyerId: string,
    input: { url: string; events: string[]; secret: string; retryPolicy: RetryPolicy },
    limit: number,
  ): Promise<WebhookConfigRecord | null> {
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

  /**
   * Applies a PATCH. A new secret replaces the current one at once and ends any rotation's overlap;
   * re-activating clears what an automatic disabling left; a new retry policy restarts the failure clock.
   */
  async updateConfig(buyerId: string, id: string, changes: ConfigChanges): Promise<WebhookConfigRecord | null> {
    const data = {
      ...changes,
      ...(changes.secret !== undefined ? { previousSecret: null, previousSecretExpiresAt: null } : {}),
      ...(changes.isActive === true ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
      ...(changes.retryPolicy !== undefined ? { failingSince: null } : {}),
    };
    const updated = await this.db.webhookConfig.updateMany({ where: { id, buyerId }, data });
    return updated.count === 1 ? this.findConfig(buyerId, id) : null;
  }

  /**
   * rotate-secret: the current secret becomes the previous one, signing beside `secret` until
   * `previousExpiresAt`; a previous secret still in its overlap is dropped (the overlap is always between
   * the last two secrets). 'not-found' when the buyer has no such configuration; 'same' when `secret` is
   * already the current one (nothing is changed).
   */
  async rotateSecret(buyerId: string, id: string, secret: string, previousExpiresAt: Date): Promise<'rotated' | 'same' | 'not-found'> {
    // SET reads the row as it was: previous_secret takes the secret being replaced.
    const rotated = await this.db.$executeRaw`
      UPDATE webhook_configs SET previous_secret = secret, previous_secret_expires_at = ${previousExpiresAt}, secret = ${secret}, updated_at = now()
      WHERE id = ${id} AND buyer_id = ${buyerId} AND secret <> ${secret}`;
    if (rotated === 1) return 'rotated';
    return (await this.findConfig(buyerId, id)) ? 'same' : 'not-found';
  }

  /** The configuration's secrets as they sign at `now`, for a test send; null when not the buyer's. */
  async findSigningConfig(buyerId: string, id: string, now: Date): Promise<SigningConfig | null> {
    const rows = await this.db.$queryRaw<SigningConfig[]>`
      SELECT id, url, secret, CASE WHEN previous_secret_expires_at > ${now} THEN previous_secret END AS "previousSecret"
      FROM webhook_configs WHERE id = ${id} AND buyer_id = ${buyerId}`;
    return rows[0] ?? null;
  }

  /**
   * Records a test send that has happened: a `ping` event of the buyer and its one delivery, already
   * DELIVERED or FAILED (never PENDING, so no worker sends it again by itself).
   */
  async recordTestSend(input: {
    eventId: string;
    buyerId: string;
    payload: string;
    at: Date;
    deliveryId: string;
    configId: string;
    delivered: boolean;
    statusCode: number | null;
    error: string | null;
    finishedAt: Date;
  }): Promise<boolean> {
    // Only while the configuration exists (held against a concurrent delete until COMMIT): one deleted
    // during the send records nothing, and the caller answers 404 instead of a foreign-key failure.
    const inserted = await this.db.$executeRaw`
      WITH config AS (
        SELECT id FROM webhook_configs WHERE id = ${input.configId} AND buyer_id = ${input.buyerId} FOR KEY SHARE
      ), event AS (
        INSERT INTO events (id, buyer_id, type, payload, created_at)
        SELECT ${input.eventId}, ${input.buyerId}, 'ping', ${input.payload}, ${input.at} FROM config
        RETURNING id
      )
      INSERT INTO webhook_deliveries (id, event_id, config_id, status, attempts, next_attempt_at, last_status_code, last_error, created_at, delivered_at)
      SELECT ${input.deliveryId}, event.id, ${input.configId}, ${input.delivered ? 'DELIVERED' : 'FAILED'}::"DeliveryStatus", 1, ${input.at},
        ${input.statusCode}, ${input.error?.slice(0, 500) ?? null}, ${input.at}, ${input.delivered ? input.finishedAt : null}::timestamptz
      FROM event`;
    return inserted === 1;
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
    // The previous secret only while its overlap lasts: after it, deliveries carry the new one alone.
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
      RETURNING d.id, d.attempts, e.id AS "eventId", e.type AS event, e.payload, c.id AS "configId", c.url, c.secret,
        CASE WHEN c.previous_secret_expires_at > ${now} THEN c.previous_secret END AS "previousSecret",
        c.is_active AS "isActive", c.retry_policy::text AS "retryPolicy"`;
  }

  /**
   * Records a delivered attempt. `endFailure` (extended configurations): the configuration is healthy
   * again, so its failure clock stops, in the same statement.
   */
  async markDelivered(id: string, statusCode: number, now: Date, endFailure = false): Promise<void> {
    if (!endFailure) {
      await this.db.$executeRaw`
        UPDATE webhook_deliveries SET status = 'DELIVERED', delivered_at = ${now}, last_status_code = ${statusCode},
          last_error = NULL, locked_until = NULL
        WHERE id = ${id}`;
      return;
    }
    await this.db.$executeRaw`
      WITH delivered AS (
        UPDATE webhook_deliveries SET status = 'DELIVERED', delivered_at = ${now}, last_status_code = ${statusCode},
          last_error = NULL, locked_until = NULL
        WHERE id = ${id} RETURNING config_id
      )
      UPDATE webhook_configs c SET failing_since = NULL FROM delivered WHERE c.id = delivered.config_id AND c.failing_since IS NOT NULL`;
  }

  /**
   * Records a failed attempt: due again at `retryAt`, or FAILED for good when there is none. `failureAt`
   * (extended configurations): starts the configuration's failure clock unless it is already running;
   * returns when it started (null when not tracked).
   */
  async markAttemptFailed(
    id: string,
    outcome: { statusCode: number | null; error: string },
    retryAt: Date | null,
    failureAt: Date | null = null,
  ): Promise<Date | null> {
    if (!failureAt) {
      await this.db.$executeRaw`
        UPDATE webhook_deliveries SET
          status = ${retryAt ? 'PENDING' : 'FAILED'}::"DeliveryStatus",
          next_attempt_at = COALESCE(${retryAt}::timestamptz, next_attempt_at),
          last_status_code = ${outcome.statusCode}, last_error = ${outcome.error.slice(0, 500)}, locked_until = NULL
        WHERE id = ${id}`;
      return null;
    }
    const rows = await this.db.$queryRaw<Array<{ failingSince: Date }>>`
      WITH failed AS (
        UPDATE webhook_deliveries SET
          status = ${retryAt ? 'PENDING' : 'FAILED'}::"DeliveryStatus",
          next_attempt_at = COALESCE(${retryAt}::timestamptz, next_attempt_at),
          last_status_code = ${outcome.statusCode}, last_error = ${outcome.error.slice(0, 500)}, locked_until = NULL
        WHERE id = ${id} RETURNING config_id
      )
      UPDATE webhook_configs c SET failing_since = COALESCE(c.failing_since, ${failureAt})
      FROM failed WHERE c.id = failed.config_id
      RETURNING c.failing_since AS "failingSince"`;
    return rows[0]?.failingSince ?? null;
  }

  /**
   * Disables an active extended configuration whose failure clock started at or before `failingBefore`.
   * Conditional, so of several workers seeing the same failure one disables it (and tells the buyer);
   * null when it was not (any more) due.
   */
  async disableFailing(id: string, failingBefore: Date, now: Date, reason: string): Promise<DisabledConfig | null> {
    const rows = await this.db.$queryRaw<DisabledConfig[]>`
      UPDATE webhook_configs SET is_active = false, disabled_at = ${now}, disabled_reason = ${reason}, updated_at = now()
      WHERE id = ${id} AND is_active AND retry_policy = 'extended' AND failing_since <= ${failingBefore}
      RETURNING id, buyer_id AS "buyerId", url, failing_since AS "failingSince"`;
    return rows[0] ?? null;
  }
}
