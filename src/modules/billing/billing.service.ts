import type { Database } from '../../db/database.ts';
import { InsufficientCreditsError, NotFoundError } from '../../lib/errors.ts';
import { decodeCursor, encodeCursor, type Page } from '../../lib/pagination.ts';
import type { LedgerEntryRecord } from './billing.repository.ts';

const buyerNotFound = () => new NotFoundError('BUYER_NOT_FOUND', 'Buyer not found');

export class BillingService {
  constructor(private readonly db: Database) {}

  /** An admin's manual credit (positive) or debit (negative); a debit may not exceed availableCents. */
  adjustCredits(buyerId: string, amountCents: number, reason: string): Promise<LedgerEntryRecord> {
    return this.db.transaction(async (repos) => {
      const change = await repos.billing.changeBalance(buyerId, amountCents);
      if (!change.ok) {
        if (change.reason === 'NOT_FOUND') throw buyerNotFound();
        throw new InsufficientCreditsError(-amountCents, change.availableCents);
      }
      return repos.billing.appendLedger({ buyerId, type: 'ADJUSTMENT', amountCents, balanceAfterCents: change.after, reason });
    });
  }

  async listLedger(buyerId: string, limit: number, cursor?: string): Promise<Page<LedgerEntryRecord, 'entries'>> {
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.db.repos.billing.listLedger(buyerId, limit, after);
    const entries = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    const last = entries.at(-1);
    return { entries, hasMore, nextCursor: hasMore && last ? encodeCursor(last) : null };
  }
}
