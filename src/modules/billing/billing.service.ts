import type { Database, Repositories } from '../../db/database.ts';
import { InsufficientCreditsError, NotFoundError } from '../../lib/errors.ts';
import { decodeCursor, toPage, type Page } from '../../lib/pagination.ts';
import { budgetLowMail } from '../email/mail.templates.ts';
import type { LedgerEntryRecord } from './billing.repository.ts';

const buyerNotFound = () => new NotFoundError('BUYER_NOT_FOUND', 'Buyer not found');

/** spec: budget.low fires when the balance drops below 500 cents. */
export const LOW_BALANCE_THRESHOLD_CENTS = 500;

export interface SettledTask {
  id: string;
  buyerId: string;
  costCents: number;
  maxCents: number;
}

export interface ChargeResult {
  balanceAfterCents: number;
  /** The charge took the balance from ≥ 500 to < 500 (once per crossing; a top-up re-arms it). */
  crossedLowBalance: boolean;
}

/** From ≥ 500 to < 500: once per crossing; a top-up back to ≥ 500 re-arms it. */
const crossesLowBalance = (before: number, after: number) => before >= LOW_BALANCE_THRESHOLD_CENTS && after < LOW_BALANCE_THRESHOLD_CENTS;

export class BillingService {
  constructor(
    private readonly db: Database,
    private readonly publicUrl: string,
  ) {}

  /**
   * An admin's manual credit (positive) or debit (negative); a debit may not exceed availableCents. A
   * debit that takes the balance from ≥ 500 to < 500 cents records budget.low, like a charge does.
   */
  adjustCredits(buyerId: string, amountCents: number, reason: string): Promise<LedgerEntryRecord> {
    return this.db.transaction(async (repos) => {
      const change = await repos.billing.changeBalance(buyerId, amountCents);
      if (!change.ok) {
        if (change.reason === 'NOT_FOUND') throw buyerNotFound();
        throw new InsufficientCreditsError(-amountCents, change.availableCents);
      }
      const entry = await repos.billing.appendLedger({ buyerId, type: 'ADJUSTMENT', amountCents, balanceAfterCents: change.after, reason });
      if (crossesLowBalance(change.before, change.after)) await this.recordBudgetLow(repos, buyerId, change.after, entry.createdAt);
      return entry;
    });
  }

  /** budget.low (an event for webhooks, an e-mail for people), inside the caller's transaction. */
  async recordBudgetLow(repos: Repositories, buyerId: string, creditBalance: number, at: Date): Promise<void> {
    await repos.events.record(buyerId, 'budget.low', { creditBalance, thresholdCents: LOW_BALANCE_THRESHOLD_CENTS, at: at.toISOString() });
    const buyer = await repos.accounts.findBuyerContact(buyerId);
    if (buyer) await repos.mail.enqueue(budgetLowMail(buyer.email, buyer.companyName, creditBalance, this.publicUrl));
  }

  /**
   * Bills a task that reached COMPLETED, inside the caller's transaction: its cost leaves the balance,
   * its reservation is released, and a TASK_CHARGE ledger row records it.
   */
  async chargeCompletedTask(repos: Repositories, task: SettledTask): Promise<ChargeResult> {
    const { before, after } = await repos.billing.chargeTask(task.buyerId, task.id, task.costCents, task.maxCents);
    return { balanceAfterCents: after, crossedLowBalance: crossesLowBalance(before, after) };
  }

  /** Releases the reservation of a task that FAILED (nothing is billed), inside the caller's transaction. */
  async releaseFailedTask(repos: Repositories, task: SettledTask): Promise<void> {
    await repos.billing.release(task.buyerId, task.maxCents);
  }

  async listLedger(buyerId: string, limit: number, cursor?: string): Promise<Page<LedgerEntryRecord, 'entries'>> {
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.db.repos.billing.listLedger(buyerId, limit, after);
    return toPage('entries', rows, limit);
  }
}
