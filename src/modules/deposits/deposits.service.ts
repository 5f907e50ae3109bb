// Top-ups: a deposit is created PENDING with the provider's checkout; the provider's signed confirmation
// decides it exactly once, and a SUCCEEDED deposit credits its amount and its bonus as two ledger rows
// in the same transaction (a zero bonus writes no BONUS row; BillingService.creditDeposit). A confirmation that does not verify
// changes nothing.
import { createHash, randomBytes } from 'node:crypto';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { AccountsRepository } from '../auth/accounts.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { AppError, NotFoundError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Logger } from '../../lib/logger.ts';
import { decodeCursor, toPage, type Page } from '../../lib/pagination.ts';
import type { BillingService, LedgerRepos } from '../billing/billing.service.ts';
import type { DepositMethod, DepositRecord, DepositsRepository } from './deposits.repository.ts';
import { depositBonusCents } from '@concord/contract';
import { InvalidSignatureError, type PaymentProvider } from './payment-provider.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { accounts: AccountsRepository; auditLog: AuditLogRepository; deposits: DepositsRepository } & LedgerRepos;
type Db = UnitOfWork<Repos>;

/**
 * A checkout id: 192 random bits in base64url (contract §6: at least 128, and not the deposit id). Only
 * its SHA-256 is stored; the buyer's checkoutUrl carries the id itself.
 */
export const newCheckoutId = () => randomBytes(24).toString('base64url');
// 32 characters, or 64 hex digits for deposits that predate checkout ids (their migration issued those).
const CHECKOUT_ID_PATTERN = /^(?:[A-Za-z0-9_-]{32}|[0-9a-f]{64})$/;
export const checkoutDigest = (checkoutId: string) => createHash('sha256').update(checkoutId).digest('hex');

export const depositNotFound = () => new NotFoundError('DEPOSIT_NOT_FOUND', 'Deposit not found');

export class DepositsService {
  constructor(
    private readonly db: Db,
    private readonly provider: PaymentProvider,
    private readonly billing: BillingService,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async create(actor: Actor, input: { amountCents: number; method: DepositMethod }): Promise<DepositRecord> {
    const buyerId = actor.organisationId;
    const id = newId();
    const checkoutId = newCheckoutId();
    const contact = await this.db.repos.accounts.findBuyerContact(buyerId);
    const checkout = await this.provider.createCheckout({
      depositId: id,
      checkoutId,
      amountCents: input.amountCents,
      method: input.method,
      buyerEmail: contact?.email ?? null,
    });
    return this.db.transaction(async (repos) => {
      const deposit = await repos.deposits.create({
        id,
        buyerId,
        amountCents: input.amountCents,
        bonusCents: depositBonusCents(input.amountCents),
        method: input.method,
        provider: this.provider.name,
        providerRef: checkout.providerRef,
        checkoutUrl: checkout.checkoutUrl,
        checkoutDigest: checkoutDigest(checkoutId),
      });
      await repos.auditLog.append(actor, {
        targetId: id,
        after: { amountCents: deposit.amountCents, bonusCents: deposit.bonusCents, method: deposit.method, provider: deposit.provider },
      });
      return deposit;
    });
  }

  async get(buyerId: string, id: string): Promise<DepositRecord> {
    const deposit = await this.db.repos.deposits.findForBuyer(buyerId, id);
    if (!deposit) throw depositNotFound();
    return deposit;
  }

  /** The deposit a checkout id opens, whoever holds it (the checkout pages need no login, like a provider's). */
  findByCheckoutId(checkoutId: string): Promise<DepositRecord | null> {
    if (!CHECKOUT_ID_PATTERN.test(checkoutId)) return Promise.resolve(null);
    return this.db.repos.deposits.findByCheckoutDigest(checkoutDigest(checkoutId));
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<DepositRecord, 'deposits'>> {
    const rows = await this.db.repos.deposits.list(buyerId, limit, cursor ? decodeCursor(cursor) : undefined);
    return toPage('deposits', rows, limit);
  }

  /**
   * A provider's confirmation, as received: verified against the exact body bytes, then applied once.
   * Returns what happened, for the log and the provider's retry logic (any 2xx stops its retries).
   */
  async confirm(providerName: string, rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<'applied' | 'duplicate' | 'ignored'> {
    if (providerName !== this.provider.name) throw new NotFoundError('NOT_FOUND', `No payment provider ${providerName} is configured`);
    let confirmation;
    try {
      confirmation = this.provider.parseConfirmation(rawBody, headers);
    } catch (error) {
      if (error instanceof InvalidSignatureError) throw new AppError(400, 'INVALID_SIGNATURE', error.message);
      throw error;
    }
    if (confirmation.kind === 'ignored') return 'ignored';
    const { depositId, status, providerRef } = confirmation;
    const applied = await this.db.transaction(async (repos) => {
      const deposit = await repos.deposits.decide(depositId, this.provider.name, status, providerRef, this.clock.now());
      if (!deposit) return false;
      if (deposit.status === 'SUCCEEDED') await this.billing.creditDeposit(repos, deposit);
      return true;
    });
    this.logger.info({ event: 'deposit.confirmation', depositId, status, applied }, applied ? 'deposit decided' : 'deposit already decided or unknown');
    return applied ? 'applied' : 'duplicate';
  }
}
