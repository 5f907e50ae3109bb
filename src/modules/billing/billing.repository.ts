// Balance changes are single conditional SQL statements: the WHERE clause is the business rule, so
// no interleaving of requests can take availableCents below zero. Every change writes a ledger row in
// the same transaction; the CHECK constraints of the buyers table are the last line of defence.
import type { DbClient } from '../../db/client.ts';
import { toCents } from '../../db/client.ts';
import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DayWindow } from '../../lib/day-window.ts';
import { newId } from '../../lib/ids.ts';

export type LedgerType = 'DEPOSIT' | 'BONUS' | 'TASK_CHARGE' | 'REFUND' | 'ADJUSTMENT' | 'EARNING' | 'EARNING_REVERSAL' | 'PAYOUT' | 'PAYOUT_REVERSAL';

export interface LedgerEntryRecord {
  id: string;
  type: LedgerType;
  amountCents: number;
  balanceAfterCents: number;
  taskId: string | null;
  reason: string | null;
  createdAt: Date;
}

export interface BalanceRecord {
  creditBalance: number;
  reservedCents: number;
  availableCents: number;
}

export type BalanceChange =
  { ok: true; after: number; crossedLowBalance: boolean } | { ok: false; reason: 'NOT_FOUND' } | { ok: false; reason: 'INSUFFICIENT'; availableCents: number };

/** One UTC day of a buyer's spending, as GET /billing/spend shows it. */
export interface SpendDay {
  date: string;
  chargedCents: number;
  depositedCents: number;
  adjustedCents: number;
  completedTasks: number;
}

export interface LedgerCursor {
  createdAt: Date;
  id: string;
}

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class BillingRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  async getBalance(buyerId: string): Promise<BalanceRecord | null> {
    const rows = await this.db.$queryRaw<Array<{ credit_balance: bigint; reserved_cents: bigint }>>`
      SELECT credit_balance, reserved_cents FROM buyers WHERE id = ${buyerId}`;
    const row = rows[0];
    if (!row) return null;
    const creditBalance = toCents(row.credit_balance);
    const reservedCents = toCents(row.reserved_cents);
    return { creditBalance, reservedCents, availableCents: creditBalance - reservedCents };
  }

  /**
   * Adds `amountCents` (negative for a debit) to the balance, provided the available balance stays
   * non-negative. Returns the balance after, and whether the move crossed `lowBalanceCents`
   * (the SQL function crosses_low_balance: budget.low's rule lives there alone).
   */
  async changeBalance(buyerId: string, amountCents: number, lowBalanceCents: number): Promise<BalanceChange> {
    const rows = await this.db.$queryRaw<Array<{ after: bigint; crossed: boolean }>>`
      UPDATE buyers SET credit_balance = credit_balance + ${amountCents}
      WHERE id = ${buyerId} AND credit_balance + ${amountCents} - reserved_cents >= 0
      RETURNING credit_balance AS after, crosses_low_balance(credit_balance - ${amountCents}::bigint, credit_balance, ${lowBalanceCents}::bigint) AS crossed`;
    const row = rows[0];
    if (row) return { ok: true, after: toCents(row.after), crossedLowBalance: row.crossed };
    const balance = await this.getBalance(buyerId);
    if (!balance) return { ok: false, reason: 'NOT_FOUND' };
    return { ok: false, reason: 'INSUFFICIENT', availableCents: balance.availableCents };
  }

  /**
   * Reserves cents for open tasks, provided the available balance covers them. The row lock this takes
   * on the buyer lasts until commit, so callers do it last in their transaction.
   */
  async reserve(buyerId: string, cents: number): Promise<{ ok: true } | { ok: false; availableCents: number }> {
    const reserved = await this.db.$executeRaw`
      UPDATE buyers SET reserved_cents = reserved_cents + ${cents}
      WHERE id = ${buyerId} AND credit_balance - reserved_cents >= ${cents}`;
    if (reserved === 1) return { ok: true };
    const balance = await this.getBalance(buyerId);
    return { ok: false, availableCents: balance?.availableCents ?? 0 };
  }

  /** Gives back cents reserved by a task that is deleted, fails or lowers its budget. */
  async release(buyerId: string, cents: number): Promise<void> {
    await this.db.$executeRaw`UPDATE buyers SET reserved_cents = reserved_cents - ${cents} WHERE id = ${buyerId}`;
  }

  async appendLedger(entry: {
    buyerId: string;
    type: LedgerType;
    amountCents: number;
    balanceAfterCents: number;
    taskId?: string;
    depositId?: string;
    reason?: string;
  }): Promise<LedgerEntryRecord> {
    const rows = await this.db.$queryRaw<Array<Parameters<typeof toLedgerRecord>[0]>>`
      INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id, deposit_id, reason)
      VALUES (${newId()}, ${entry.buyerId}, ${entry.type}::"LedgerType", ${entry.amountCents}, ${entry.balanceAfterCents},
              ${entry.taskId ?? null}, ${entry.depositId ?? null}, ${entry.reason ?? null})
      RETURNING id, type, amount_cents AS "amountCents", balance_after_cents AS "balanceAfterCents", task_id AS "taskId", reason,
                created_at AS "createdAt"`;
    const row = rows[0];
    if (!row) throw new Error('ledger insert returned no row');
    return toLedgerRecord(row);
  }

  /**
   * The buyer's charges (less the refunds of rejected results), deposits (with their bonuses), admin
   * adjustments (signed) and completed tasks (charges less refunds) per UTC day of the window,
   * oldest first, every day present. One statement: an index range over the buyer's rows (the
   * (buyer_id, created_at) index bounds it to the window), and generate_series supplies the days without a row.
   */
  async dailySpend(buyerId: string, window: DayWindow): Promise<SpendDay[]> {
    const rows = await this.db.$queryRaw<Array<{ date: string; charged: bigint; deposited: bigint; adjusted: bigint; completed: number }>>`
      WITH totals AS (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
               -COALESCE(SUM(amount_cents) FILTER (WHERE type IN ('TASK_CHARGE', 'REFUND')), 0) AS charged,
               COALESCE(SUM(amount_cents) FILTER (WHERE type IN ('DEPOSIT', 'BONUS')), 0) AS deposited,
               COALESCE(SUM(amount_cents) FILTER (WHERE type = 'ADJUSTMENT'), 0) AS adjusted,
               COUNT(*) FILTER (WHERE type = 'TASK_CHARGE') - COUNT(*) FILTER (WHERE type = 'REFUND') AS completed
        FROM ledger_entries
        WHERE buyer_id = ${buyerId} AND created_at >= ${window.from} AND created_at < ${window.to}
          AND type IN ('TASK_CHARGE', 'REFUND', 'DEPOSIT', 'BONUS', 'ADJUSTMENT')
        GROUP BY 1
      )
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date, COALESCE(t.charged, 0)::bigint AS charged,
             COALESCE(t.deposited, 0)::bigint AS deposited, COALESCE(t.adjusted, 0)::bigint AS adjusted,
             COALESCE(t.completed, 0)::int AS completed
      FROM generate_series(${window.firstDay}::date, ${window.lastDay}::date, interval '1 day') AS d(day)
      LEFT JOIN totals t ON t.day = d.day
      ORDER BY d.day`;
    return rows.map((row) => ({
      date: row.date,
      chargedCents: toCents(row.charged),
      depositedCents: toCents(row.deposited),
      adjustedCents: toCents(row.adjusted),
      completedTasks: row.completed,
    }));
  }
}

export class BillingRepository extends BillingRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  /**
   * Newest first in commit order (the per-buyer `seq`); `limit + 1` rows are read so the caller can tell
   * whether more remain. The cursor names the last row seen; rows numbered below it follow.
   */
  async listLedger(buyerId: string, limit: number, after?: LedgerCursor): Promise<LedgerEntryRecord[]> {
    const before = after ? await this.db.ledgerEntry.findFirst({ where: { id: after.id, buyerId }, select: { seq: true } }) : undefined;
    if (before === null) return [];
    const rows = await this.db.ledgerEntry.findMany({
      where: { buyerId, ...(before ? { seq: { lt: before.seq } } : {}) },
      orderBy: { seq: 'desc' },
      take: limit + 1,
    });
    return rows.map(toLedgerRecord);
  }

  /** Sum of the buyer's ledger rows: always equal to creditBalance. */
  async ledgerSum(buyerId: string): Promise<number> {
    const result = await this.db.ledgerEntry.aggregate({ where: { buyerId }, _sum: { amountCents: true } });
    return toCents(result._sum.amountCents ?? 0n);
  }

  /** Platform revenue: everything charged for completed tasks, less the refunds of rejected results. */
  async totalCharged(): Promise<number> {
    const result = await this.db.ledgerEntry.aggregate({ where: { type: { in: ['TASK_CHARGE', 'REFUND'] } }, _sum: { amountCents: true } });
    return -toCents(result._sum.amountCents ?? 0n);
  }
}
function toLedgerRecord(row: {
  id: string;
  type: LedgerType;
  amountCents: bigint;
  balanceAfterCents: bigint;
  taskId: string | null;
  reason: string | null;
  createdAt: Date;
}): LedgerEntryRecord {
  return {
    id: row.id,
    type: row.type,
    amountCents: toCents(row.amountCents),
    balanceAfterCents: toCents(row.balanceAfterCents),
    taskId: row.taskId,
    reason: row.reason,
    createdAt: row.createdAt,
  };
}
