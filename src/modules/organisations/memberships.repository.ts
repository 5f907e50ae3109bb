import type { MemberRole } from '@concord/contract';
import type { DbClient } from '../../db/client.ts';

/** One organisation a person belongs to, with their role there. */
export interface MembershipRecord {
  organisationId: string;
  name: string;
  role: MemberRole;
  /** The person's own organisation, created with their account (its id is theirs). */
  personal: boolean;
  joinedAt: Date;
}

export class MembershipsRepository {
  constructor(private readonly db: DbClient) {}

  /** Every organisation of a person: their own first, then in the order they joined. */
  async listForAccount(accountId: string): Promise<MembershipRecord[]> {
    const rows = await this.db.membership.findMany({
      where: { accountId },
      include: { buyer: { select: { companyName: true } } },
      orderBy: [{ createdAt: 'asc' }, { buyerId: 'asc' }],
    });
    const memberships = rows.map((row) => toMembership(accountId, row));
    return [...memberships.filter((m) => m.personal), ...memberships.filter((m) => !m.personal)];
  }

  async find(accountId: string, organisationId: string): Promise<MembershipRecord | null> {
    const row = await this.db.membership.findUnique({
      where: { accountId_buyerId: { accountId, buyerId: organisationId } },
      include: { buyer: { select: { companyName: true } } },
    });
    return row ? toMembership(accountId, row) : null;
  }
}

const toMembership = (accountId: string, row: { buyerId: string; role: MemberRole; createdAt: Date; buyer: { companyName: string } }): MembershipRecord => ({
  organisationId: row.buyerId,
  name: row.buyer.companyName,
  role: row.role,
  personal: row.buyerId === accountId,
  joinedAt: row.createdAt,
});
