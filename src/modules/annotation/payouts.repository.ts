import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';

export type PayoutMethod = 'mobile_money' | 'paypal' | 'bank_transfer';
export type PayoutStatus = 'PENDING' | 'PAID' | 'REJECTED';

export interface PayoutRecord {
  id: string;
  annotatorId: string;
  amountCents: number;
  method: PayoutMethod;
  destination: string;
  status: PayoutStatus;
  note: string | null;
  createdAt: Date;
  decidedAt: Date | null;
}

export interface AdminPayoutRecord extends PayoutRecord {
  annotator: { developerId: string; externalId: string };
}

export class PayoutsRepository {
  constructor(private readonly db: DbClient) {}

  create(annotatorId: string, input: { amountCents: number; method: PayoutMethod; destination: string }): Promise<PayoutRecord> {
    return this.db.payout.create({ data: { id: newId(), annotatorId, ...input } });
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  listForAnnotator(annotatorId: string, page: PageRequest): Promise<PayoutRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    return this.db.payout.findMany({ where: { annotatorId, ...where }, ...rest });
  }

  /** Oldest first (the order to work through them), one keyset page (`limit + 1` rows). */
  list(page: PageRequest, status?: PayoutStatus): Promise<AdminPayoutRecord[]> {
    const { where, ...rest } = keysetArgs(page, 'asc');
    return this.db.payout.findMany({
      where: { ...(status ? { status } : {}), ...where },
      include: { annotator: { select: { developerId: true, externalId: true } } },
      ...rest,
    });
  }

  findById(id: string): Promise<AdminPayoutRecord | null> {
    return this.db.payout.findUnique({ where: { id }, include: { annotator: { select: { developerId: true, externalId: true } } } });
  }

  /** PENDING → PAID or REJECTED, once: the conditional update succeeds for one caller only. */
  async decide(id: string, status: 'PAID' | 'REJECTED', note: string | null, at: Date): Promise<boolean> {
    const updated = await this.db.payout.updateMany({ where: { id, status: 'PENDING' }, data: { status, note, decidedAt: at } });
    return updated.count === 1;
  }

  async pendingTotals(): Promise<{ count: number; cents: number }> {
    const result = await this.db.payout.aggregate({ where: { status: 'PENDING' }, _count: { _all: true }, _sum: { amountCents: true } });
    return { count: result._count._all, cents: result._sum.amountCents ?? 0 };
  }
}
