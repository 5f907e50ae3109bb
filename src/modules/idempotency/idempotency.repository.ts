import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';

export type Claim = { claimed: true } | { claimed: false; requestHash: string; statusCode: number | null; response: string | null };

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class IdempotencyRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /**
   * Claims (account, key) for this transaction. A concurrent claim of the same key waits on the unique
   * index until this transaction ends, then sees the stored response (or claims the key itself if this
   * transaction rolled back). A key older than `expiredBefore` is taken over.
   */
  async claim(accountId: string, key: string, requestHash: string, now: Date, expiredBefore: Date): Promise<Claim> {
    const claimed = await this.db.$queryRaw<Array<{ key: string }>>`
      INSERT INTO idempotency_keys (account_id, key, request_hash, created_at)
      VALUES (${accountId}, ${key}, ${requestHash}, ${now})
      ON CONFLICT (account_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL, created_at = EXCLUDED.created_at
        WHERE idempotency_keys.created_at < ${expiredBefore}
      RETURNING key`;
    if (claimed.length === 1) return { claimed: true };
    const rows = await this.db.$queryRaw<Array<{ requestHash: string; statusCode: number | null; response: string | null }>>`
      SELECT request_hash AS "requestHash", status_code AS "statusCode", response FROM idempotency_keys
      WHERE account_id = ${accountId} AND key = ${key}`;
    const existing = rows[0];
    if (!existing) throw new Error('idempotency key vanished after a conflicting insert');
    return { claimed: false, ...existing };
  }

  async complete(accountId: string, key: string, statusCode: number, responseJson: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE idempotency_keys SET status_code = ${statusCode}, response = ${responseJson} WHERE account_id = ${accountId} AND key = ${key}`;
  }
}

export class IdempotencyRepository extends IdempotencyRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  /** Drops keys past their retention; returns how many. */
  async deleteExpired(expiredBefore: Date): Promise<number> {
    const deleted = await this.db.idempotencyKey.deleteMany({ where: { createdAt: { lt: expiredBefore } } });
    return deleted.count;
  }
}
