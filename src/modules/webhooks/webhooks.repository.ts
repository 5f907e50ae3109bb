import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type Cursor, type PageRequest } from '../../lib/pagination.ts';
import type { EventType, RetryPolicy } from '@concord/contract';

export type WebhookEvent = EventType;

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

/** How many deliveries the claim may take (webhooks.repository.ts claimDue). */
export interface ClaimLimits {
  /** At most this many in this claim (the worker's free slots). */
  slots: number;
  /** In flight at once to one configuration, over every process. */
  perEndpoint: number;
  /** In flight at once for one buyer, over every process. */
  perBuyer: number;
  /** A configuration whose last this many attempts failed (timeout, connection, 5xx) gets one in flight. */
  troubledAfter: number;
}

/**
 * A claimed delivery as its outcome is recorded: the outcome counts only while the row is still that
 * claim's (PENDING at the attempt it was claimed at), so a send that outlived its lease, or was queued
 * again meanwhile, cannot overwrite what came after it.
 */
export type ClaimRef = Pick<ClaimedDelivery, 'id' | 'attempts'>;

/** The claim's advisory lock key (claims one at a time, across processes). */
const CLAIM_LOCK = 0x636e7768; // "cnwh"

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

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class WebhooksRawRepository {
  constructor(protected readonly db: RawExecutor) {}

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

  /**
   * Queues a delivery of the buyer's again, as new: status PENDING, attempts 0, due now. One being sent
   * right now (claimed, its lease running) is left as it is: it is on its way, and queueing it again would
   * send it twice at once and free its place under the caps while its send still runs. 'not-found' when
   * the buyer has no such delivery.
   */
  async redeliver(buyerId: string, id: string, now: Date): Promise<'queued' | 'in-flight' | 'not-found'> {
    const rows = await this.db.$queryRaw<Array<{ queued: boolean }>>`
      WITH target AS (
        SELECT d.id, (d.status = 'PENDING' AND d.locked_until > ${now}) AS in_flight
        FROM webhook_deliveries d JOIN webhook_configs c ON c.id = d.config_id
        WHERE d.id = ${id} AND c.buyer_id = ${buyerId}
        FOR UPDATE OF d
      ), queued AS (
        UPDATE webhook_deliveries d SET status = 'PENDING', attempts = 0, next_attempt_at = ${now}, locked_until = NULL
        FROM target WHERE d.id = target.id AND NOT target.in_flight
        RETURNING d.id
      )
      SELECT EXISTS (SELECT 1 FROM queued) AS queued FROM target`;
    const row = rows[0];
    if (!row) return 'not-found';
    return row.queued ? 'queued' : 'in-flight';
  }

  /**
   * Claims up to `limits.slots` due deliveries for `leaseMs`: other workers (in this process or another)
   * skip them, and a delivery whose worker died is due again once its lease has passed. Claiming counts an
   * attempt. Fair between buyers and endpoints: an endpoint has at most `perEndpoint` deliveries in flight
   * (one, once `troubledAfter` attempts in a row failed), a buyer at most `perBuyer`, counted over every
   * process from the leased rows; the buyers with due work take turns (each one's oldest first, then each
   * one's second…), so one buyer's backlog is never in front of another's. Call it inside a transaction:
   * the claims of all workers are taken one at a time under an advisory lock, so a cap is never overshot.
   */
  async claimDue(clock: () => Date, leaseMs: number, limits: ClaimLimits): Promise<ClaimedDelivery[]> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`;
    // The time is read once the lock is held: a wait for it must not shorten the lease, nor make a lease
    // that ran out meanwhile look current.
    const now = clock();
    // The previous secret only while its overlap lasts: after it, deliveries carry the new one alone.
    return this.db.$queryRaw<ClaimedDelivery[]>`
      WITH RECURSIVE pending AS (
        -- Every configuration with a pending delivery, one index probe each (a skip scan).
        (SELECT config_id FROM webhook_deliveries WHERE status = 'PENDING' ORDER BY config_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.config_id FROM webhook_deliveries d WHERE d.status = 'PENDING' AND d.config_id > p.config_id ORDER BY d.config_id LIMIT 1)
        FROM pending p WHERE p.config_id IS NOT NULL
      ), in_flight AS (
        SELECT config_id, count(*)::int AS n FROM webhook_deliveries
        WHERE locked_until IS NOT NULL AND locked_until > ${now} AND status = 'PENDING' GROUP BY config_id
      ), room AS (
        SELECT c.id AS config_id, c.buyer_id,
          CASE WHEN c.consecutive_failures >= ${limits.troubledAfter}::int THEN 1 ELSE ${limits.perEndpoint}::int END - COALESCE(f.n, 0) AS endpoint_room,
          ${limits.perBuyer}::int - sum(COALESCE(f.n, 0)) OVER (PARTITION BY c.buyer_id) AS buyer_room
        FROM pending p JOIN webhook_configs c ON c.id = p.config_id LEFT JOIN in_flight f ON f.config_id = p.config_id
      ), candidates AS (
        SELECT due.id, due.next_attempt_at, r.buyer_room,
          row_number() OVER (PARTITION BY r.buyer_id ORDER BY due.next_attempt_at, due.id) AS buyer_rank
        FROM room r CROSS JOIN LATERAL (
          SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.config_id = r.config_id AND d.status = 'PENDING' AND d.next_attempt_at <= ${now}
            AND (d.locked_until IS NULL OR d.locked_until <= ${now})
          ORDER BY d.next_attempt_at LIMIT r.endpoint_room
        ) due
        WHERE r.endpoint_room > 0 AND r.buyer_room > 0
      ), chosen AS (
        SELECT id FROM candidates WHERE buyer_rank <= buyer_room ORDER BY buyer_rank, next_attempt_at LIMIT ${limits.slots}::int
      )
      UPDATE webhook_deliveries d
      SET locked_until = ${new Date(now.getTime() + leaseMs)}, attempts = d.attempts + 1
      FROM chosen, events e, webhook_configs c
      WHERE d.id = chosen.id AND e.id = d.event_id AND c.id = d.config_id
        -- Checked again on the row as it is once locked: an outcome recorded meanwhile (a send that
        -- outlived its lease) is not claimed over.
        AND d.status = 'PENDING' AND (d.locked_until IS NULL OR d.locked_until <= ${now})
      RETURNING d.id, d.attempts, e.id AS "eventId", e.type AS event, e.payload, c.id AS "configId", c.url, c.secret,
        CASE WHEN c.previous_secret_expires_at > ${now} THEN c.previous_secret END AS "previousSecret",
        c.is_active AS "isActive", c.retry_policy::text AS "retryPolicy"`;
  }

  /**
   * Records a delivered attempt: the endpoint answers again, so its run of failures ends, and with
   * `endFailure` (extended configurations) its failure clock stops, in the same statement.
   */
  async markDelivered(claim: ClaimRef, statusCode: number, now: Date, endFailure = false): Promise<void> {
    await this.db.$executeRaw`
      WITH delivered AS (
        UPDATE webhook_deliveries SET status = 'DELIVERED', delivered_at = ${now}, last_status_code = ${statusCode},
          last_error = NULL, locked_until = NULL
        WHERE id = ${claim.id} AND attempts = ${claim.attempts} AND status = 'PENDING' RETURNING config_id
      )
      UPDATE webhook_configs c SET consecutive_failures = 0, failing_since = CASE WHEN ${endFailure}::boolean THEN NULL ELSE c.failing_since END
      FROM delivered WHERE c.id = delivered.config_id AND (c.consecutive_failures <> 0 OR (${endFailure}::boolean AND c.failing_since IS NOT NULL))`;
  }

  /**
   * Records a failed attempt: due again at `retryAt`, or FAILED for good when there is none.
   * `endpointFailed` (a timeout, no connection or a 5xx) lengthens the configuration's run of failures.
   * `failureAt` (extended configurations) starts its failure clock unless it is already running; returns
   * when it started (null when not tracked).
   */
  async markAttemptFailed(
    claim: ClaimRef,
    outcome: { statusCode: number | null; error: string },
    retryAt: Date | null,
    endpoint: { failed: boolean; failureAt: Date | null },
  ): Promise<Date | null> {
    const rows = await this.db.$queryRaw<Array<{ failingSince: Date | null }>>`
      WITH failed AS (
        UPDATE webhook_deliveries SET
          status = ${retryAt ? 'PENDING' : 'FAILED'}::"DeliveryStatus",
          next_attempt_at = COALESCE(${retryAt}::timestamptz, next_attempt_at),
          last_status_code = ${outcome.statusCode}, last_error = ${outcome.error.slice(0, 500)}, locked_until = NULL
        WHERE id = ${claim.id} AND attempts = ${claim.attempts} AND status = 'PENDING' RETURNING config_id
      )
      UPDATE webhook_configs c SET failing_since = COALESCE(c.failing_since, ${endpoint.failureAt}::timestamptz),
        consecutive_failures = c.consecutive_failures + ${endpoint.failed ? 1 : 0}::int
      FROM failed WHERE c.id = failed.config_id AND (${endpoint.failureAt}::timestamptz IS NOT NULL OR ${endpoint.failed}::boolean)
      RETURNING c.failing_since AS "failingSince"`;
    return endpoint.failureAt ? (rows[0]?.failingSince ?? null) : null;
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

export class WebhooksRepository extends WebhooksRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

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
   * The configuration, its row locked until the transaction ends: what a change reads as its `before`. FOR NO
   * KEY UPDATE, the lock the change's own UPDATE takes: it does not hold up the deliveries that decisions insert.
   */
  async lockConfig(buyerId: string, id: string): Promise<WebhookConfigRecord | null> {
    const locked = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM webhook_configs WHERE id = ${id} AND buyer_id = ${buyerId} FOR NO KEY UPDATE`;
    return locked.length === 0 ? null : this.findConfig(buyerId, id);
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
}
