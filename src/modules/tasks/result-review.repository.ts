// Result review's SQL (result-review.service.ts): a completed task reopened, and what its decision left
// undone — the buyer's charge refunded with its budget reserved again, the participants' counters and the
// earnings of those who agreed taken back. Every method runs inside the rejection's transaction, in the
// lock order of the answer path: task row (the caller's), annotators by id, buyer.
import type { RawExecutor } from '../../db/pg-executor.ts';
import { toCents } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

/** One participant of the rejected decision, as the rejection finds them (their row locked). */
export interface Participant {
  annotatorId: string;
  /** Their answer was the rejected result. */
  agreed: boolean;
  /** What they earned on the task (its EARNING rows). */
  earnedCents: number;
  /** earned − paid out − pending payouts, now. */
  availableCents: number;
}

export class ResultReviewRepository {
  constructor(private readonly db: RawExecutor) {}

  /**
   * COMPLETED → VALIDATING at revision 2, the rejected result kept beside it, at `targetConfidence` (the
   * caller raises it from the locked row's) and `extraAnswers` more answers allowed. Conditional on the
   * state the caller checked: null when the task is no longer a first-revision COMPLETED task.
   */
  async reopen(
    taskId: string,
    rejection: { reason: string; at: Date; extraAnswers: boolean; targetConfidence: number },
  ): Promise<{ targetConfidence: number; maxResponses: number } | null> {
    const rows = await this.db.$queryRaw<Array<{ target_confidence: number; max_responses: number }>>`
      UPDATE tasks SET status = 'VALIDATING', revision = 2, rejected_at = ${rejection.at}, rejection_reason = ${rejection.reason},
        rejected_result = result, rejected_confidence = confidence, result = NULL, confidence = NULL, result_details = NULL,
        validated_at = NULL,
        target_confidence = ${rejection.targetConfidence},
        max_responses = max_responses + CASE WHEN ${rejection.extraAnswers} THEN validations_needed ELSE 0 END,
        updated_at = now()
      WHERE id = ${taskId} AND status = 'COMPLETED' AND revision = 1
      RETURNING target_confidence, max_responses`;
    const row = rows[0];
    return row ? { targetConfidence: row.target_confidence, maxResponses: row.max_responses } : null;
  }

  /** The task's answerers, their rows locked (id order), with what the decision on `result` gave them. */
  async lockParticipants(taskId: string, result: string): Promise<Participant[]> {
    await this.db.$queryRaw`
      SELECT a.id FROM annotators a WHERE a.id IN (SELECT r.annotator_id FROM task_responses r WHERE r.task_id = ${taskId})
      ORDER BY a.id FOR NO KEY UPDATE`;
    const rows = await this.db.$queryRaw<Array<{ id: string; agreed: boolean; earned: bigint; available: bigint }>>`
      SELECT a.id, bool_or(r.answer = ${result}) AS agreed,
             coalesce((SELECT sum(l.amount_cents) FROM ledger_entries l
                       WHERE l.task_id = ${taskId} AND l.annotator_id = a.id AND l.type = 'EARNING'), 0) AS earned,
             a.earned_cents - a.paid_out_cents - a.pending_payout_cents AS available
      FROM annotators a JOIN task_responses r ON r.annotator_id = a.id AND r.task_id = ${taskId}
      GROUP BY a.id ORDER BY a.id`;
    return rows.map((row) => ({ annotatorId: row.id, agreed: row.agreed, earnedCents: toCents(row.earned), availableCents: toCents(row.available) }));
  }

  /**
   * Undoes the decision for each participant: one resolved answer less (and one agreed, for those who gave
   * the result), and `takenCents` of their earnings back with an EARNING_REVERSAL row (its balance: what they
   * have available after it).
   */
  async reverseParticipants(taskId: string, reversals: Array<Participant & { takenCents: number }>): Promise<void> {
    if (reversals.length === 0) return;
    const rows = reversals.map((r) => ({
      id: r.annotatorId,
      agreed: r.agreed ? 1 : 0,
      taken: r.takenCents,
      after: r.availableCents - r.takenCents,
      ledger: newId(),
    }));
    await this.db.$executeRaw`
      UPDATE annotators a SET resolved_responses = a.resolved_responses - 1, agreed_responses = a.agreed_responses - r.agreed,
        earned_cents = a.earned_cents - r.taken
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id text, agreed int, taken bigint)
      WHERE a.id = r.id`;
    const taken = rows.filter((row) => row.taken > 0);
    if (taken.length === 0) return;
    await this.db.$executeRaw`
      INSERT INTO ledger_entries (id, annotator_id, type, amount_cents, balance_after_cents, task_id, reason)
      SELECT r.ledger, r.id, 'EARNING_REVERSAL', -r.taken, r.after, ${taskId}, 'result rejected by the buyer'
      FROM jsonb_to_recordset(${JSON.stringify(taken)}::jsonb) AS r(ledger text, id text, taken bigint, after bigint)`;
  }

  /** What the task was charged (its TASK_CHARGE rows, less any refund), in cents. */
  async chargedCents(taskId: string): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ charged: bigint }>>`
      SELECT -coalesce(sum(amount_cents), 0) AS charged FROM ledger_entries WHERE task_id = ${taskId} AND type IN ('TASK_CHARGE', 'REFUND')`;
    return toCents(rows[0]?.charged ?? 0n);
  }

  /**
   * The buyer's refunds (a REFUND row per task charged) and the reservation of the reopened tasks' budgets
   * (`reserveCents`), provided the balance after the refunds covers the reservation: false otherwise, and
   * nothing changed.
   */
  async refundAndReserve(buyerId: string, refunds: ReadonlyArray<{ taskId: string; cents: number }>, reserveCents: number): Promise<boolean> {
    const refundCents = refunds.reduce((sum, refund) => sum + refund.cents, 0);
    const rows = await this.db.$queryRaw<Array<{ balance: bigint }>>`
      UPDATE buyers SET credit_balance = credit_balance + ${refundCents}, reserved_cents = reserved_cents + ${reserveCents}
      WHERE id = ${buyerId} AND credit_balance + ${refundCents} - reserved_cents >= ${reserveCents}
      RETURNING credit_balance AS balance`;
    const row = rows[0];
    if (!row) return false;
    // Each row's balance after it, in the order written: the balance before the refunds plus those so far.
    let after = toCents(row.balance) - refundCents;
    const entries = refunds
      .filter((refund) => refund.cents > 0)
      .map((refund) => ({ id: newId(), task: refund.taskId, cents: refund.cents, after: (after += refund.cents) }));
    if (entries.length > 0) {
      await this.db.$executeRaw`
        INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents, task_id, reason)
        SELECT e.id, ${buyerId}, 'REFUND', e.cents, e.after, e.task, 'result rejected'
        FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS e(id text, task text, cents bigint, after bigint)`;
    }
    return true;
  }

  /** Whether a decision of the task still has effects to apply (its charge and earnings not yet written). */
  async settling(taskIds: readonly string[]): Promise<boolean> {
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM settlement_effects WHERE task_id = ANY(${[...taskIds]}::text[]) LIMIT 1`;
    return rows.length > 0;
  }
}
