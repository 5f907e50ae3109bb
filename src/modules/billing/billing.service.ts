import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { AccountsRawRepository } from '../auth/accounts.repository.ts';
import type { MailRawRepository } from '../email/mail.repository.ts';
import type { EventsRawRepository } from '../events/events.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { dayWindow } from '../../lib/day-window.ts';
import { InsufficientCreditsError, NotFoundError } from '../../lib/errors.ts';
import { decodeCursor, toPage, type Page } from '../../lib/pagination.ts';
import { LOW_BALANCE_THRESHOLD_CENTS } from '@concord/contract';
import { budgetLowMail } from '../email/mail.templates.ts';
import type { BalanceChange, BillingRawRepository, BillingRepository, LedgerEntryRecord, SpendDay } from './billing.repository.ts';

/** What a move of a buyer's balance writes through, in the caller's transaction (raw or Prisma). */
export type LedgerRepos = { accounts: AccountsRawRepository; billing: BillingRawRepository; events: EventsRawRepository; mail: MailRawRepository };
/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository; billing: BillingRepository } & LedgerRepos;
type Db = UnitOfWork<Repos>;

const buyerNotFound = () => new NotFoundError('BUYER_NOT_FOUND', 'Buyer not found');

export class BillingService {
  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly clock: Clock,
  ) {}

  /**
   * An admin's manual credit (positive) or debit (negative); a debit may not exceed availableCents. A
   * debit that takes the balance from ≥ 500 to < 500 cents records budget.low, like a charge does. It is in
   * the organisation's audit log with the operator as its actor.
   */
  adjustCredits(actor: Actor, amountCents: number, reason: string): Promise<LedgerEntryRecord> {
    return this.db.transaction(async (repos) => {
      const moved = await this.move(repos, { buyerId: actor.organisationId, type: 'ADJUSTMENT', amountCents, reason });
      if (moved.ok) {
        await repos.auditLog.append(actor, { targetId: actor.organisationId, after: { amountCents, reason, ledgerEntryId: moved.entry.id } });
        return moved.entry;
      }
      if (moved.reason === 'NOT_FOUND') throw buyerNotFound();
      throw new InsufficientCreditsError(-amountCents, moved.availableCents);
    });
  }

  /**
   * Credits a SUCCEEDED deposit inside the caller's transaction: a DEPOSIT row for the amount and, when
   * there is one, a BONUS row for the bonus.
   */
  async creditDeposit(repos: LedgerRepos, deposit: { id: string; buyerId: string; amountCents: number; bonusCents: number }): Promise<void> {
    const credits = [
      ['DEPOSIT', deposit.amountCents],
      ['BONUS', deposit.bonusCents],
    ] as const;
    for (const [type, amountCents] of credits) {
      if (amountCents === 0) continue;
      const moved = await this.move(repos, { buyerId: deposit.buyerId, type, amountCents, depositId: deposit.id, reason: `deposit ${deposit.id}` });
      if (!moved.ok) throw new Error(`crediting deposit ${deposit.id} failed: ${moved.reason}`);
    }
  }

  /**
   * Moves the balance by a ledger row's amount and writes the row, in the caller's transaction; a move
   * that takes the balance from ≥ 500 to < 500 cents records budget.low.
   */
  private async move(
    repos: LedgerRepos,
    entry: { buyerId: string; type: 'ADJUSTMENT' | 'DEPOSIT' | 'BONUS'; amountCents: number; depositId?: string; reason: string },
  ): Promise<{ ok: true; entry: LedgerEntryRecord } | Exclude<BalanceChange, { ok: true }>> {
    const change = await repos.billing.changeBalance(entry.buyerId, entry.amountCents, LOW_BALANCE_THRESHOLD_CENTS);
    if (!change.ok) return change;
    const written = await repos.billing.appendLedger({ ...entry, balanceAfterCents: change.after });
    if (change.crossedLowBalance) await this.recordBudgetLow(repos, entry.buyerId, change.after, written.createdAt);
    return { ok: true, entry: written };
  }

  /** budget.low (an event for webhooks, an e-mail for people), inside the caller's transaction. */
  async recordBudgetLow(repos: LedgerRepos, buyerId: string, creditBalance: number, at: Date): Promise<void> {
    await repos.events.record(buyerId, 'budget.low', { creditBalance, thresholdCents: LOW_BALANCE_THRESHOLD_CENTS, at: at.toISOString() });
    const recipients = await repos.accounts.findBuyerRecipients(buyerId, 'money:write');
    for (const email of recipients?.emails ?? []) await repos.mail.enqueue(budgetLowMail(email, recipients?.companyName ?? '', creditBalance, this.publicUrl));
  }

  /**
   * What the buyer spent, deposited and was adjusted by per UTC day over the last `days` days (today
   * included), with totals: every credit and debit of the balance but annotator-side rows appears.
   */
  async spend(
    buyerId: string,
    days: number,
  ): Promise<{ days: SpendDay[]; totalChargedCents: number; totalDepositedCents: number; totalAdjustedCents: number }> {
    const perDay = await this.db.repos.billing.dailySpend(buyerId, dayWindow(this.clock.now(), days));
    return {
      days: perDay,
      totalChargedCents: perDay.reduce((sum, day) => sum + day.chargedCents, 0),
      totalDepositedCents: perDay.reduce((sum, day) => sum + day.depositedCents, 0),
      totalAdjustedCents: perDay.reduce((sum, day) => sum + day.adjustedCents, 0),
    };
  }

  async listLedger(buyerId: string, limit: number, cursor?: string): Promise<Page<LedgerEntryRecord, 'entries'>> {
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.db.repos.billing.listLedger(buyerId, limit, after);
    return toPage('entries', rows, limit);
  }
}
