import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { likeLiteral, toCents } from '../../db/client.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';
import type { AnnotatorStats } from '../../consensus/reputation.ts';

export interface AnnotatorRecord extends AnnotatorStats {
  id: string;
  developerId: string;
  externalId: string;
  totalResponses: number;
  suspended: boolean;
  goldenAnsweredBase: number;
  goldenCorrectBase: number;
  earnedCents: number;
  pendingPayoutCents: number;
  paidOutCents: number;
  /** When the annotator was first seen (the service's clock). */
  createdAt: Date;
}

/** An annotator as the admin's list shows it: with its app's name. */
export interface AdminAnnotatorRecord extends AnnotatorRecord {
  appName: string;
}

type Row = {
  id: string;
  developerId: string;
  externalId: string;
  totalResponses: number;
  resolvedResponses: number;
  agreedResponses: number;
  goldenAnswered: number;
  goldenCorrect: number;
  suspended: boolean;
  goldenAnsweredBase: number;
  goldenCorrectBase: number;
  earnedCents: bigint;
  pendingPayoutCents: bigint;
  paidOutCents: bigint;
  createdAt: Date;
};

// Raw SQL on the SDK's hot path: these run on every next and complete.
const ANNOTATOR_COLUMNS = Prisma.raw(
  'id, developer_id AS "developerId", external_id AS "externalId", total_responses AS "totalResponses", ' +
    'resolved_responses AS "resolvedResponses", agreed_responses AS "agreedResponses", golden_answered AS "goldenAnswered", ' +
    'golden_correct AS "goldenCorrect", suspended, golden_answered_base AS "goldenAnsweredBase", ' +
    'golden_correct_base AS "goldenCorrectBase", earned_cents AS "earnedCents", pending_payout_cents AS "pendingPayoutCents", ' +
    'paid_out_cents AS "paidOutCents", created_at AS "createdAt"',
);

const toRecord = (row: Row): AnnotatorRecord => ({
  ...row,
  earnedCents: toCents(row.earnedCents),
  pendingPayoutCents: toCents(row.pendingPayoutCents),
  paidOutCents: toCents(row.paidOutCents),
});

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class AnnotatorsRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /** The developer's annotator, created on first sight at `now` (the same function the SDK statements use). */
  async ensure(developerId: string, externalId: string, now: Date): Promise<AnnotatorRecord> {
    const rows = await this.db.$queryRaw<Row[]>`
      SELECT ${ANNOTATOR_COLUMNS} FROM sdk_annotator(${developerId}, ${externalId}, ${newId()}, ${now}::timestamptz)`;
    if (!rows[0]) throw new Error('sdk_annotator returned no row');
    return toRecord(rows[0]);
  }

  async find(developerId: string, externalId: string): Promise<AnnotatorRecord | null> {
    const rows = await this.db.$queryRaw<Row[]>`
      SELECT ${ANNOTATOR_COLUMNS} FROM annotators WHERE developer_id = ${developerId} AND external_id = ${externalId}`;
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async getById(id: string): Promise<AnnotatorRecord> {
    const rows = await this.db.$queryRaw<Row[]>`SELECT ${ANNOTATOR_COLUMNS} FROM annotators WHERE id = ${id}`;
    if (!rows[0]) throw new Error(`annotator ${id} not found`);
    return toRecord(rows[0]);
  }

  /** Records a golden answer and returns the updated counters. */
  async countGoldenAnswer(annotatorId: string, correct: boolean): Promise<AnnotatorRecord> {
    await this.db.$executeRaw`
      UPDATE annotators SET golden_answered = golden_answered + 1, golden_correct = golden_correct + ${correct ? 1 : 0}
      WHERE id = ${annotatorId}`;
    return this.getById(annotatorId);
  }

  async setSuspended(annotatorId: string, suspended: boolean): Promise<void> {
    await this.db.$executeRaw`UPDATE annotators SET suspended = ${suspended} WHERE id = ${annotatorId}`;
  }

  /** Lifts a suspension; suspension then looks only at golden answers given after this moment. */
  async reinstate(annotatorId: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE annotators SET suspended = false, golden_answered_base = golden_answered, golden_correct_base = golden_correct
      WHERE id = ${annotatorId}`;
  }

  /** Moves cents from available to pending payout, if they are available. */
  async reservePayout(annotatorId: string, cents: number): Promise<{ ok: true; availableAfter: number } | { ok: false; available: number }> {
    const rows = await this.db.$queryRaw<Array<{ available: bigint }>>`
      UPDATE annotators SET pending_payout_cents = pending_payout_cents + ${cents}
      WHERE id = ${annotatorId} AND earned_cents - paid_out_cents - pending_payout_cents >= ${cents}
      RETURNING earned_cents - paid_out_cents - pending_payout_cents AS available`;
    const row = rows[0];
    if (row) return { ok: true, availableAfter: toCents(row.available) };
    const current = await this.getById(annotatorId);
    return { ok: false, available: current.earnedCents - current.paidOutCents - current.pendingPayoutCents };
  }

  /** Settles a pending payout: paid (the cents leave) or rejected (they become available again). */
  async settlePayout(annotatorId: string, cents: number, paid: boolean): Promise<number> {
    const rows = await this.db.$queryRaw<Array<{ available: bigint }>>`
      UPDATE annotators SET pending_payout_cents = pending_payout_cents - ${cents},
        paid_out_cents = paid_out_cents + ${paid ? cents : 0}
      WHERE id = ${annotatorId}
      RETURNING earned_cents - paid_out_cents - pending_payout_cents AS available`;
    return toCents(rows[0]?.available ?? 0n);
  }

  /**
   * The annotator's reputation snapshot: `first` when there is none yet, `live` (taken `now`) when the
   * stored one was taken at or before `expiredBefore`; otherwise the stored one stays. Concurrent first
   * reads agree: the upsert of one waits for the other's and then finds a fresh snapshot.
   */
  async reputationSnapshot<T>(
    annotatorId: string,
    first: { snapshot: T; asOf: Date },
    live: T,
    now: Date,
    expiredBefore: Date,
  ): Promise<{ snapshot: T; asOf: Date }> {
    const taken = await this.db.$queryRaw<Array<{ snapshot: T; asOf: Date }>>`
      INSERT INTO reputation_snapshots AS s (annotator_id, snapshot, as_of) VALUES (${annotatorId}, ${JSON.stringify(first.snapshot)}::jsonb, ${first.asOf})
      ON CONFLICT (annotator_id) DO UPDATE SET snapshot = ${JSON.stringify(live)}::jsonb, as_of = ${now} WHERE s.as_of <= ${expiredBefore}
      RETURNING snapshot, as_of AS "asOf"`;
    const row =
      taken[0] ??
      (
        await this.db.$queryRaw<Array<{ snapshot: T; asOf: Date }>>`
      SELECT snapshot, as_of AS "asOf" FROM reputation_snapshots WHERE annotator_id = ${annotatorId}`
      )[0];
    if (!row) throw new Error('reputation snapshot vanished');
    return row;
  }
}

export class AnnotatorsRepository extends AnnotatorsRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  async appendLedger(annotatorId: string, type: 'PAYOUT' | 'PAYOUT_REVERSAL', amountCents: number, balanceAfterCents: number, reason?: string): Promise<void> {
    await this.db.ledgerEntry.create({
      data: { id: newId(), annotatorId, type, amountCents: BigInt(amountCents), balanceAfterCents: BigInt(balanceAfterCents), reason: reason ?? null },
    });
  }

  /** Sum of an annotator's ledger rows: always their available earnings. */
  async ledgerSum(annotatorId: string): Promise<number> {
    const result = await this.db.ledgerEntry.aggregate({ where: { annotatorId }, _sum: { amountCents: true } });
    return toCents(result._sum.amountCents ?? 0n);
  }

  /** Every developer's annotators, newest first, one keyset page (`limit + 1` rows). */
  async listForAdmin(page: PageRequest, filter: { suspended?: boolean; q?: string }): Promise<AdminAnnotatorRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    const suspended = filter.suspended === undefined ? {} : { suspended: filter.suspended };
    const search = filter.q ? { externalId: { contains: likeLiteral(filter.q), mode: 'insensitive' as const } } : {};
    const rows = await this.db.annotator.findMany({
      where: { AND: [where, suspended, search] },
      include: { developer: { select: { appName: true } } },
      ...rest,
    });
    return rows.map(({ developer, ...row }) => ({ ...toRecord(row), appName: developer.appName }));
  }

  count(): Promise<number> {
    return this.db.annotator.count();
  }
}
