import type { RawExecutor } from '../../db/pg-executor.ts';

export interface Hits {
  hits: number;
  resetAt: Date;
}

/**
 * Fixed-window counters in PostgreSQL, so that every server process counts against one budget. Each
 * method is one statement; the window is measured on the database's clock, which all processes share.
 */
export class RateLimitsRepository {
  constructor(private readonly db: RawExecutor) {}

  /** Counts one hit; a key whose window has ended starts a new one. Atomic under concurrency. */
  async increment(key: string, windowMs: number): Promise<Hits> {
    const rows = await this.db.$queryRaw<Hits[]>`
      INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
      VALUES (${key}, 1, clock_timestamp() + ${windowMs} * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN c.reset_at <= clock_timestamp() THEN 1 ELSE c.hits + 1 END,
        reset_at = CASE WHEN c.reset_at <= clock_timestamp() THEN EXCLUDED.reset_at ELSE c.reset_at END
      RETURNING hits, reset_at AS "resetAt"`;
    const row = rows[0];
    if (!row) throw new Error('rate-limit upsert returned no row');
    return row;
  }

  async get(key: string): Promise<Hits | undefined> {
    const rows = await this.db.$queryRaw<Hits[]>`
      SELECT hits, reset_at AS "resetAt" FROM rate_limit_counters WHERE key = ${key} AND reset_at > clock_timestamp()`;
    return rows[0];
  }

  async decrement(key: string): Promise<void> {
    await this.db.$executeRaw`UPDATE rate_limit_counters SET hits = hits - 1 WHERE key = ${key} AND hits > 0`;
  }

  async reset(key: string): Promise<void> {
    await this.db.$executeRaw`DELETE FROM rate_limit_counters WHERE key = ${key}`;
  }

  /** Drops counters whose window has ended; returns how many. */
  async deleteExpired(): Promise<number> {
    return this.db.$executeRaw`DELETE FROM rate_limit_counters WHERE reset_at <= clock_timestamp()`;
  }
}
