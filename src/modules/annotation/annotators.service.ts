// Reputation, earnings and payouts of annotators (SDK side), and the admin's payout decisions.
import type { UnitOfWork } from '../../db/database.ts';
import type { AdminAnnotatorRecord, AnnotatorRecord, AnnotatorsRepository } from './annotators.repository.ts';
import type { AdminPayoutRecord, PayoutMethod, PayoutRecord, PayoutsRepository, PayoutStatus } from './payouts.repository.ts';
import { level, reliability } from '../../consensus/reputation.ts';
import { round4 } from '../../consensus/stop-rule.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors.ts';
import { annotatorNotFound } from './annotation.service.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { annotators: AnnotatorsRepository; payouts: PayoutsRepository };
type Db = UnitOfWork<Repos>;

/** contract: a payout is at least 500 cents. */
export const MIN_PAYOUT_CENTS = 500;

export function toReputation(annotator: AnnotatorRecord) {
  return {
    annotatorId: annotator.externalId,
    level: level(annotator),
    reliability: round4(reliability(annotator)),
    goldenAnswered: annotator.goldenAnswered,
    goldenAccuracy: annotator.goldenAnswered > 0 ? round4(annotator.goldenCorrect / annotator.goldenAnswered) : null,
    totalResponses: annotator.totalResponses,
    resolvedResponses: annotator.resolvedResponses,
    agreementRate: annotator.resolvedResponses > 0 ? round4(annotator.agreedResponses / annotator.resolvedResponses) : null,
    suspended: annotator.suspended,
  };
}

export function toEarnings(annotator: AnnotatorRecord) {
  return {
    annotatorId: annotator.externalId,
    totalEarnedCents: annotator.earnedCents,
    paidOutCents: annotator.paidOutCents,
    pendingPayoutCents: annotator.pendingPayoutCents,
    availableCents: annotator.earnedCents - annotator.paidOutCents - annotator.pendingPayoutCents,
  };
}

export type Reputation = ReturnType<typeof toReputation> & { asOf: string };

/** The annotator as it was created: nothing answered, nothing earned, not suspended. */
function asCreated(annotator: AnnotatorRecord): AnnotatorRecord {
  return {
    ...annotator,
    totalResponses: 0,
    resolvedResponses: 0,
    agreedResponses: 0,
    goldenAnswered: 0,
    goldenCorrect: 0,
    goldenAnsweredBase: 0,
    goldenCorrectBase: 0,
    suspended: false,
    earnedCents: 0,
    pendingPayoutCents: 0,
    paidOutCents: 0,
  };
}

export class AnnotatorsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** REPUTATION_SNAPSHOT_MS: how long a reputation snapshot is shown; 0 shows live figures. */
    private readonly reputationSnapshotMs: number,
  ) {}

  /**
   * What an app reads of its annotator's reputation (contract §5): a snapshot at most
   * REPUTATION_SNAPSHOT_MS old, every field taken together at `asOf`, so that answering a golden task
   * changes nothing the app can see right after it. The first snapshot is the annotator at its creation
   * (nothing answered, dated then), so a first read right after a first answer shows nothing of it; it is
   * stored at that first read, which tells the same as storing it at the creation. Levels and suspension
   * act on live figures elsewhere.
   */
  async reputation(developerId: string, externalId: string): Promise<Reputation> {
    const annotator = await this.get(developerId, externalId);
    const now = this.clock.now();
    const live = toReputation(annotator);
    if (this.reputationSnapshotMs === 0) return { ...live, asOf: now.toISOString() };
    const expiredBefore = new Date(now.getTime() - this.reputationSnapshotMs);
    const first =
      annotator.createdAt > expiredBefore ? { snapshot: toReputation(asCreated(annotator)), asOf: annotator.createdAt } : { snapshot: live, asOf: now };
    const { snapshot, asOf } = await this.db.repos.annotators.reputationSnapshot(annotator.id, first, live, now, expiredBefore);
    return { ...snapshot, asOf: new Date(asOf).toISOString() };
  }

  async get(developerId: string, externalId: string): Promise<AnnotatorRecord> {
    const annotator = await this.db.repos.annotators.find(developerId, externalId);
    if (!annotator) throw annotatorNotFound();
    return annotator;
  }

  /** Reserves the cents at once (PENDING) and writes a PAYOUT ledger row; an admin pays or rejects. */
  async requestPayout(
    developerId: string,
    externalId: string,
    input: { amountCents: number; method: PayoutMethod; destination: string },
  ): Promise<PayoutRecord> {
    if (input.amountCents < MIN_PAYOUT_CENTS) {
      throw new BadRequestError('PAYOUT_TOO_SMALL', `A payout is at least ${MIN_PAYOUT_CENTS} cents`);
    }
    const annotator = await this.get(developerId, externalId);
    return this.db.transaction(async (repos) => {
      const reserved = await repos.annotators.reservePayout(annotator.id, input.amountCents);
      if (!reserved.ok) {
        throw new BadRequestError(
          'INSUFFICIENT_EARNINGS',
          `Insufficient earnings: ${input.amountCents} cents requested, ${reserved.available} cents available`,
          { requestedCents: input.amountCents, availableCents: reserved.available },
        );
      }
      const payout = await repos.payouts.create(annotator.id, input);
      await repos.annotators.appendLedger(annotator.id, 'PAYOUT', -input.amountCents, reserved.availableAfter, `payout ${payout.id}`);
      return payout;
    });
  }

  async listPayouts(developerId: string, externalId: string, limit: number, cursor?: string): Promise<Page<PayoutRecord, 'payouts'>> {
    const page = pageRequest(limit, cursor);
    const annotator = await this.get(developerId, externalId);
    return toPage('payouts', await this.db.repos.payouts.listForAnnotator(annotator.id, page), limit);
  }

  /** Every app's annotators for the admin, newest first; `q` matches the app's annotator id (any case). */
  async adminListAnnotators(
    limit: number,
    cursor: string | undefined,
    filter: { suspended?: boolean; q?: string },
  ): Promise<Page<AdminAnnotatorRecord, 'annotators'>> {
    return toPage('annotators', await this.db.repos.annotators.listForAdmin(pageRequest(limit, cursor), filter), limit);
  }

  async adminListPayouts(limit: number, cursor?: string, status?: PayoutStatus): Promise<Page<AdminPayoutRecord, 'payouts'>> {
    return toPage('payouts', await this.db.repos.payouts.list(pageRequest(limit, cursor), status), limit);
  }

  /** PENDING → PAID (the cents leave) or REJECTED (they return to the annotator, PAYOUT_REVERSAL). */
  async decidePayout(id: string, approve: boolean, note: string | null): Promise<AdminPayoutRecord> {
    await this.db.transaction(async (repos) => {
      const payout = await repos.payouts.findById(id);
      if (!payout) throw new NotFoundError('PAYOUT_NOT_FOUND', 'Payout not found');
      if (!(await repos.payouts.decide(id, approve ? 'PAID' : 'REJECTED', note, this.clock.now()))) {
        throw new ConflictError('PAYOUT_NOT_PENDING', `The payout is already ${payout.status}`);
      }
      const available = await repos.annotators.settlePayout(payout.annotatorId, payout.amountCents, approve);
      if (!approve) await repos.annotators.appendLedger(payout.annotatorId, 'PAYOUT_REVERSAL', payout.amountCents, available, `payout ${id} rejected`);
    });
    const decided = await this.db.repos.payouts.findById(id);
    if (!decided) throw new NotFoundError('PAYOUT_NOT_FOUND', 'Payout not found');
    return decided;
  }

  /** Lifts a suspension; the admin sees the live reputation at once. */
  async reinstate(developerId: string, externalId: string): Promise<Reputation> {
    const annotator = await this.get(developerId, externalId);
    await this.db.repos.annotators.reinstate(annotator.id);
    return { ...toReputation(await this.db.repos.annotators.getById(annotator.id)), asOf: this.clock.now().toISOString() };
  }
}
