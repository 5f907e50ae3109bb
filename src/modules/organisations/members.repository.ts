import type { MemberRole } from '@concord/contract';
import type { DbClient } from '../../db/client.ts';

/** A member of an organisation, as the members list shows them. */
export interface MemberRecord {
  accountId: string;
  email: string;
  role: MemberRole;
  /** The account the organisation was created with: it stays an owner. */
  founder: boolean;
  invitedBy: string | null;
  joinedAt: Date;
}

/** One organisation a person belongs to, with their role there. */
export interface MembershipRecord {
  organisationId: string;
  name: string;
  role: MemberRole;
  /** The person's own organisation, created with their account (its id is theirs). */
  personal: boolean;
  joinedAt: Date;
}

/** An invitation as the invitations list shows it (never its token). */
export interface InvitationRecord {
  id: string;
  email: string;
  role: MemberRole;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Memberships seen from both ends (an organisation's members, a person's organisations) and invitations;
 * every change to an organisation's members runs under its row lock.
 */
export class MembersRepository {
  constructor(private readonly db: DbClient) {}

  /**
   * Locks the organisation's buyer row for the rest of the transaction: changes to its members and
   * invitations (and the count of seats) are taken one after another, so no two can pass a rule together.
   */
  async lockOrganisation(organisationId: string): Promise<void> {
    await this.db.$queryRaw`SELECT 1 FROM buyers WHERE id = ${organisationId} FOR NO KEY UPDATE`;
  }

  async list(organisationId: string): Promise<MemberRecord[]> {
    const rows = await this.db.membership.findMany({
      where: { buyerId: organisationId },
      include: { account: { select: { email: true } } },
      orderBy: [{ createdAt: 'asc' }, { accountId: 'asc' }],
    });
    return rows.map((row) => toMember(organisationId, row));
  }

  /** Every organisation of a person: their own first, then in the order they joined. */
  async organisations(accountId: string): Promise<MembershipRecord[]> {
    const rows = await this.db.membership.findMany({
      where: { accountId },
      include: { buyer: { select: { companyName: true } } },
      orderBy: [{ createdAt: 'asc' }, { buyerId: 'asc' }],
    });
    const memberships = rows.map((row) => toMembership(accountId, row));
    return [...memberships.filter((m) => m.personal), ...memberships.filter((m) => !m.personal)];
  }

  /** A person's membership of one organisation, as their organisations list shows it. */
  async organisation(accountId: string, organisationId: string): Promise<MembershipRecord | null> {
    const row = await this.db.membership.findUnique({
      where: { accountId_buyerId: { accountId, buyerId: organisationId } },
      include: { buyer: { select: { companyName: true } } },
    });
    return row ? toMembership(accountId, row) : null;
  }

  /** A member of an organisation, as its members list shows them. */
  async member(organisationId: string, accountId: string): Promise<MemberRecord | null> {
    const row = await this.db.membership.findUnique({
      where: { accountId_buyerId: { accountId, buyerId: organisationId } },
      include: { account: { select: { email: true } } },
    });
    return row ? toMember(organisationId, row) : null;
  }

  async setRole(organisationId: string, accountId: string, role: MemberRole): Promise<void> {
    await this.db.membership.update({ where: { accountId_buyerId: { accountId, buyerId: organisationId } }, data: { role } });
  }

  async remove(organisationId: string, accountId: string): Promise<void> {
    await this.db.membership.delete({ where: { accountId_buyerId: { accountId, buyerId: organisationId } } });
  }

  /** Members plus pending invitations (not accepted, revoked or expired). */
  async seats(organisationId: string, now: Date): Promise<number> {
    const [members, pending] = await Promise.all([
      this.db.membership.count({ where: { buyerId: organisationId } }),
      this.db.invitation.count({ where: { buyerId: organisationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } } }),
    ]);
    return members + pending;
  }

  /** Locks a person's account row: their joining organisations is taken one at a time. */
  async lockAccount(accountId: string): Promise<void> {
    await this.db.$queryRaw`SELECT 1 FROM accounts WHERE id = ${accountId} FOR NO KEY UPDATE`;
  }

  async countOrganisations(accountId: string): Promise<number> {
    return this.db.membership.count({ where: { accountId } });
  }

  /** Whether an account with this (normalised) e-mail is a member already. */
  async hasMemberWithEmail(organisationId: string, email: string): Promise<boolean> {
    return (await this.db.membership.count({ where: { buyerId: organisationId, account: { email } } })) > 0;
  }

  /** Pending invitations, newest first. */
  async pendingInvitations(organisationId: string, now: Date): Promise<InvitationRecord[]> {
    return this.db.invitation.findMany({
      where: { buyerId: organisationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      select: invitationSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  /** Revokes the address's pending invitation, if any (inviting again replaces it). */
  async revokePendingFor(organisationId: string, email: string, now: Date): Promise<void> {
    await this.db.invitation.updateMany({ where: { buyerId: organisationId, email, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
  }

  async createInvitation(input: {
    id: string;
    organisationId: string;
    email: string;
    role: MemberRole;
    tokenHash: string;
    invitedBy: string;
    now: Date;
    expiresAt: Date;
  }): Promise<InvitationRecord> {
    return this.db.invitation.create({
      data: {
        id: input.id,
        buyerId: input.organisationId,
        email: input.email,
        role: input.role,
        tokenHash: input.tokenHash,
        invitedBy: input.invitedBy,
        createdAt: input.now,
        expiresAt: input.expiresAt,
      },
      select: invitationSelect,
    });
  }

  /**
   * Revokes a pending invitation of the organisation (under its lock, so nothing else changes it meanwhile):
   * what it was for, or null when there is none by that id.
   */
  async revokeInvitation(organisationId: string, id: string, now: Date): Promise<{ email: string; role: MemberRole } | null> {
    const pending = await this.db.invitation.findFirst({
      where: { id, buyerId: organisationId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      select: { email: true, role: true },
    });
    if (pending) await this.db.invitation.update({ where: { id }, data: { revokedAt: now } });
    return pending;
  }

  /** The invitation a link's token names, whatever its state. */
  async invitationByToken(tokenHash: string): Promise<{ id: string; organisationId: string; email: string; role: MemberRole; invitedBy: string } | null> {
    const invitation = await this.db.invitation.findUnique({ where: { tokenHash } });
    return invitation
      ? { id: invitation.id, organisationId: invitation.buyerId, email: invitation.email, role: invitation.role, invitedBy: invitation.invitedBy }
      : null;
  }

  /**
   * Uses an invitation once: marks it accepted if it is still pending (a conditional update, so two
   * acceptances of one link cannot both pass; recordAcceptance names the account). False when it is not.
   */
  async claimInvitation(id: string, now: Date): Promise<boolean> {
    const claimed = await this.db.invitation.updateMany({
      where: { id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    return claimed.count === 1;
  }

  async recordAcceptance(invitationId: string, accountId: string): Promise<void> {
    await this.db.invitation.update({ where: { id: invitationId }, data: { acceptedBy: accountId } });
  }

  /** Adds a member; false when the account is one already (its role is left as it is). */
  async add(organisationId: string, accountId: string, role: MemberRole, invitedBy: string, now: Date): Promise<boolean> {
    const added = await this.db.membership.createMany({
      data: [{ accountId, buyerId: organisationId, role, invitedBy, createdAt: now }],
      skipDuplicates: true,
    });
    return added.count === 1;
  }
}

const invitationSelect = { id: true, email: true, role: true, invitedBy: true, createdAt: true, expiresAt: true } as const;

const toMember = (
  organisationId: string,
  row: { accountId: string; role: MemberRole; invitedBy: string | null; createdAt: Date; account: { email: string } },
): MemberRecord => ({
  accountId: row.accountId,
  email: row.account.email,
  role: row.role,
  founder: row.accountId === organisationId,
  invitedBy: row.invitedBy,
  joinedAt: row.createdAt,
});

const toMembership = (accountId: string, row: { buyerId: string; role: MemberRole; createdAt: Date; buyer: { companyName: string } }): MembershipRecord => ({
  organisationId: row.buyerId,
  name: row.buyer.companyName,
  role: row.role,
  personal: row.buyerId === accountId,
  joinedAt: row.createdAt,
});
