// The settlement-effects applier's SQL (applier.ts): raw SQL only, on the pool or the applier's
// transaction. The functions it calls are in prisma/functions/ (apply_settlement_effects.sql,
// number_events.sql); what the first reports goes through its codec (codecs.ts).
import type { RawExecutor } from '../../db/pg-executor.ts';
import { appliedEffectsCodec, type AppliedEffects } from './codecs.ts';

/** The applier's advisory lock key (one applier at a time, across processes). */
const APPLIER_LOCK = 0x636e6373; // "cncs"

export class SettlementEffectsRepository {
  constructor(private readonly db: RawExecutor) {}

  /**
   * What waits now: the newest effect's id (null when none; effects that failed are not waited for) and
   * whether an event waits for its number.
   */
  async unsettled(): Promise<{ newestEffect: string | null; unnumberedEvents: boolean }> {
    const rows = await this.db.$queryRaw<Array<{ newest: bigint | string | null; events: boolean }>>`
      SELECT (SELECT max(id) FROM settlement_effects WHERE failed_at IS NULL) AS newest,
             EXISTS (SELECT 1 FROM events WHERE seq IS NULL) AS events`;
    const newest = rows[0]?.newest;
    return { newestEffect: newest === null || newest === undefined ? null : String(newest), unnumberedEvents: rows[0]?.events === true };
  }

  /** Whether an effect with an id up to `id` is still to apply (one that failed does not count). */
  async hasEffectsUpTo(id: string): Promise<boolean> {
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM settlement_effects WHERE id <= ${id}::bigint AND failed_at IS NULL LIMIT 1`;
    return rows.length > 0;
  }

  /** Waits for the applier's lock, held until the caller's transaction ends. */
  async lock(): Promise<void> {
    await this.db.$queryRaw`SELECT pg_advisory_xact_lock(${APPLIER_LOCK}::bigint)`;
  }

  /** Applies up to `limit` effects, oldest first, skipping those whose answerer is busy. */
  async apply(limit: number, lowBalanceCents: number): Promise<AppliedEffects> {
    const rows = await this.db.$queryRaw<Array<{ result: unknown }>>`
      SELECT apply_settlement_effects(${limit}::int, ${lowBalanceCents}::bigint) AS result`;
    if (!rows[0]) throw new Error('apply_settlement_effects returned no row');
    return appliedEffectsCodec.parse(rows[0].result);
  }

  /** Whether an event waits for its number. */
  async hasUnnumberedEvents(): Promise<boolean> {
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM events WHERE seq IS NULL LIMIT 1`;
    return rows.length > 0;
  }

  /** Numbers the events that have none yet, per buyer (number_events). */
  async numberEvents(): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ numbered: number }>>`SELECT number_events() AS numbered`;
    return rows[0]?.numbered ?? 0;
  }
}
