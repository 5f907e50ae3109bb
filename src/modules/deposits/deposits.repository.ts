import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import type { Cursor } from '../../lib/pagination.ts';

export type DepositStatus = 'PENDING' | 'SUCCEEDED' | 'CANCELLED' | 'FAILED';
export type DepositMethod = 'card' | 'mobile_money';

export interface DepositRecord {
  id: string;
  buyerId: string;
  amountCents: number;
  bonusCents: number;
  method: DepositMethod;
  status: DepositStatus;
  provider: string;
  providerRef: string | null;
  checkoutUrl: string;
  createdAt: Date;
  decidedAt: Date | null;
}

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class DepositsRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /** Newest first by (createdAt, id); reads `limit + 1` rows so the caller can tell whether more remain. */
  async list(buyerId: string, limit: number, after?: Cursor): Promise<DepositRecord[]> {
    return this.db.$queryRaw<DepositRecord[]>`
      SELECT id, buyer_id AS "buyerId", amount_cents AS "amountCents", bonus_cents AS "bonusCents", method, status, provider,
             provider_ref AS "providerRef", checkout_url AS "checkoutUrl", created_at AS "createdAt", decided_at AS "decidedAt"
      FROM deposits
      WHERE buyer_id = ${buyerId} AND (${after === undefined} OR (created_at, id) < (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}))
      ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`;
  }

  /**
   * Decides a PENDING deposit of this provider, once: the conditional update lets exactly one of any
   * number of concurrent confirmations through; the others get null and change nothing.
   */
  async decide(id: string, provider: string, status: Exclude<DepositStatus, 'PENDING'>, providerRef: string | null, at: Date): Promise<DepositRecord | null> {
    const rows = await this.db.$queryRaw<DepositRecord[]>`
      UPDATE deposits SET status = ${status}::"DepositStatus", decided_at = ${at}, provider_ref = COALESCE(provider_ref, ${providerRef})
      WHERE id = ${id} AND provider = ${provider} AND status = 'PENDING'
      RETURNING id, buyer_id AS "buyerId", amount_cents AS "amountCents", bonus_cents AS "bonusCents", method, status, provider,
                provider_ref AS "providerRef", checkout_url AS "checkoutUrl", created_at AS "createdAt", decided_at AS "decidedAt"`;
    return rows[0] ?? null;
  }
}

export class DepositsRepository extends DepositsRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  create(deposit: Omit<DepositRecord, 'status' | 'createdAt' | 'decidedAt'> & { checkoutDigest: string }): Promise<DepositRecord> {
    return this.db.deposit.create({ data: deposit, omit: { checkoutDigest: true } });
  }

  findForBuyer(buyerId: string, id: string): Promise<DepositRecord | null> {
    return this.db.deposit.findFirst({ where: { id, buyerId }, omit: { checkoutDigest: true } });
  }

  findByCheckoutDigest(checkoutDigest: string): Promise<DepositRecord | null> {
    return this.db.deposit.findUnique({ where: { checkoutDigest }, omit: { checkoutDigest: true } });
  }
}
