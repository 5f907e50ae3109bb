// An organisation's members and invitations (docs/organisations.md). Every change, an invitation's
// acceptance included, takes the organisation's row lock first and then reads the caller's own role again,
// so the rules that span rows (the founder stays owner, at most MAX_ORGANISATION_SEATS seats, one pending
// invitation per address, owners made only by owners) hold under concurrent requests.
import {
  INVITATION_LIFETIME_DAYS,
  MAX_ORGANISATION_SEATS,
  MAX_ORGANISATIONS_PER_PERSON,
  ROLE_PERMISSIONS,
  type MemberRole,
  type Permission,
} from '@concord/contract';
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { AccountsRepository } from '../auth/accounts.repository.ts';
import type { MailRepository } from '../email/mail.repository.ts';
import type { InvitationRecord, MemberRecord, MembershipRecord, MembersRepository } from './members.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { clientAddress, lacksPermission, type Actor, type BuyerPrincipal } from '../../lib/endpoint.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import { newId, newToken, sha256Hex } from '../../lib/ids.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { organisationInviteMail, welcomeMail } from '../email/mail.templates.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { accounts: AccountsRepository; auditLog: AuditLogRepository; mail: MailRepository; members: MembersRepository };
type Db = UnitOfWork<Repos>;

const DAY_MS = 24 * 60 * 60 * 1000;

const memberNotFound = (accountId: string) => new NotFoundError('MEMBER_NOT_FOUND', `No member ${accountId} in this organisation`);
const founderStaysOwner = () =>
  new ConflictError('FOUNDER_STAYS_OWNER', "The organisation's founder stays one of its owners: their account is the organisation's own");

/**
 * Under the organisation's lock: the caller's role as it is now (a concurrent demotion or removal counts),
 * which must include `permission` (members:write; organisation:own to make, change or end an owner).
 */
async function requireNow(repos: Repos, principal: BuyerPrincipal, permission: Permission): Promise<void> {
  const caller = await repos.members.member(principal.buyerId, principal.accountId);
  if (!caller) throw new ForbiddenError(`You are not a member of organisation ${principal.buyerId}`, { organisationId: principal.buyerId });
  const now = { ...principal, memberRole: caller.role, permissions: ROLE_PERMISSIONS[caller.role] };
  if (!now.permissions.includes(permission)) throw lacksPermission(now, permission);
}

export interface AcceptInput {
  token: string;
  /** Only for an address with no account yet: the new account's password. */
  password?: string;
  /** The new account's own organisation's name; the address when absent. */
  companyName?: string;
}

export type AcceptOutcome = { accountCreated: false; organisation: MembershipRecord } | { accountCreated: true; organisation: MembershipRecord; token: string };

export class MembersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Pick<Config, 'publicUrl'>,
    private readonly auth: Pick<AuthService, 'tokenFor'>,
  ) {}

  list(principal: BuyerPrincipal): Promise<MemberRecord[]> {
    return this.db.repos.members.list(principal.buyerId);
  }

  async changeRole(principal: BuyerPrincipal, actor: Actor, accountId: string, role: MemberRole): Promise<MemberRecord> {
    return this.db.transaction(async (repos) => {
      await repos.members.lockOrganisation(principal.buyerId);
      await requireNow(repos, principal, 'members:write');
      const member = await repos.members.member(principal.buyerId, accountId);
      if (!member) throw memberNotFound(accountId);
      if (member.role === role) return member;
      if (member.role === 'owner' || role === 'owner') await requireNow(repos, principal, 'organisation:own');
      if (member.founder) throw founderStaysOwner();
      await repos.members.setRole(principal.buyerId, accountId, role);
      await repos.auditLog.append(actor, { targetId: accountId, before: { email: member.email, role: member.role }, after: { email: member.email, role } });
      return { ...member, role };
    });
  }

  async remove(principal: BuyerPrincipal, actor: Actor, accountId: string): Promise<void> {
    await this.db.transaction(async (repos) => {
      await repos.members.lockOrganisation(principal.buyerId);
      await requireNow(repos, principal, 'members:write');
      const member = await repos.members.member(principal.buyerId, accountId);
      if (!member) throw memberNotFound(accountId);
      if (member.role === 'owner') await requireNow(repos, principal, 'organisation:own');
      if (member.founder) throw founderStaysOwner();
      await repos.members.remove(principal.buyerId, accountId);
      await repos.auditLog.append(actor, { targetId: accountId, before: { email: member.email, role: member.role } });
    });
  }

  /**
   * Invites an address with a role: a one-use link by e-mail, valid INVITATION_LIFETIME_DAYS. Inviting an
   * address with a pending invitation replaces it (the older link stops working).
   */
  async invite(principal: BuyerPrincipal, actor: Actor, input: { email: string; role: MemberRole }): Promise<InvitationRecord> {
    const now = this.clock.now();
    const token = newToken();
    return this.db.transaction(async (repos) => {
      await repos.members.lockOrganisation(principal.buyerId);
      await requireNow(repos, principal, input.role === 'owner' ? 'organisation:own' : 'members:write');
      if (await repos.members.hasMemberWithEmail(principal.buyerId, input.email))
        throw new ConflictError('ALREADY_MEMBER', `${input.email} is a member of this organisation already`);
      await repos.members.revokePendingFor(principal.buyerId, input.email, now);
      if ((await repos.members.seats(principal.buyerId, now)) >= MAX_ORGANISATION_SEATS)
        throw new BadRequestError('LIMIT_EXCEEDED', `An organisation holds at most ${MAX_ORGANISATION_SEATS} members and pending invitations together`);
      const invitation = await repos.members.createInvitation({
        id: newId(),
        organisationId: principal.buyerId,
        email: input.email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: principal.accountId,
        now,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_DAYS * DAY_MS),
      });
      const [organisation, inviter] = await Promise.all([repos.accounts.findBuyer(principal.buyerId), repos.accounts.findById(principal.accountId)]);
      await repos.mail.enqueue(
        organisationInviteMail(
          input.email,
          {
            organisationName: organisation?.companyName ?? 'an organisation',
            role: input.role,
            inviterEmail: inviter?.email ?? 'A member',
            token,
            expiresAt: invitation.expiresAt,
          },
          this.config.publicUrl,
        ),
      );
      await repos.auditLog.append(actor, {
        targetId: invitation.id,
        after: { email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt },
      });
      return invitation;
    });
  }

  pendingInvitations(principal: BuyerPrincipal): Promise<InvitationRecord[]> {
    return this.db.repos.members.pendingInvitations(principal.buyerId, this.clock.now());
  }

  async revokeInvitation(principal: BuyerPrincipal, actor: Actor, id: string): Promise<void> {
    await this.db.transaction(async (repos) => {
      await repos.members.lockOrganisation(principal.buyerId);
      await requireNow(repos, principal, 'members:write');
      const revoked = await repos.members.revokeInvitation(principal.buyerId, id, this.clock.now());
      if (!revoked) throw new NotFoundError('INVITATION_NOT_FOUND', `No pending invitation ${id} in this organisation`);
      await repos.auditLog.append(actor, { targetId: id, before: revoked });
    });
  }

  /**
   * Uses an invitation's link: the address's buyer account joins the organisation with the invitation's
   * role (the link proves the address; the person then logs in as ever), or, with a password, a new buyer
   * account is made for the address (with its own organisation, as registration makes) and joins, and its
   * token acts for the organisation. The link works once: a used, revoked or expired one is
   * INVITATION_INVALID, and a refused acceptance leaves it unused.
   */
  async accept(input: AcceptInput, ip: string | undefined): Promise<AcceptOutcome> {
    const now = this.clock.now();
    const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
    const invalid = () => new BadRequestError('INVITATION_INVALID', 'This invitation link is unknown, already used, revoked or expired');
    const joined = await this.db.transaction(async (repos) => {
      const invitation = await repos.members.invitationByToken(sha256Hex(input.token));
      if (!invitation) throw invalid();
      // The organisation's lock before the invitation's row, as invite takes them: no deadlock between the two.
      await repos.members.lockOrganisation(invitation.organisationId);
      if (!(await repos.members.claimInvitation(invitation.id, now))) throw invalid();
      const existing = await repos.accounts.findByEmail(invitation.email);
      if (existing && existing.role !== 'BUYER') throw new ConflictError('EMAIL_TAKEN', `${invitation.email} belongs to an account that is not a buyer's`);
      let accountId = existing?.id;
      if (accountId) {
        await repos.members.lockAccount(accountId);
        if ((await repos.members.countOrganisations(accountId)) >= MAX_ORGANISATIONS_PER_PERSON)
          throw new BadRequestError('LIMIT_EXCEEDED', `A person belongs to at most ${MAX_ORGANISATIONS_PER_PERSON} organisations, their own included`);
      } else {
        if (passwordHash === undefined)
          throw new BadRequestError('VALIDATION_ERROR', `No account uses ${invitation.email} yet: choose a password to create it`, {
            issues: [{ path: 'password', message: 'required: no account uses this address yet' }],
          });
        const companyName = input.companyName ?? invitation.email;
        accountId = (await repos.accounts.createBuyer({ email: invitation.email, passwordHash, companyName })).id;
        await repos.mail.enqueue(welcomeMail(invitation.email, companyName, this.config.publicUrl));
      }
      if (!(await repos.members.add(invitation.organisationId, accountId, invitation.role, invitation.invitedBy, now)))
        throw new ConflictError('ALREADY_MEMBER', `${invitation.email} is a member of this organisation already`);
      await repos.members.recordAcceptance(invitation.id, accountId);
      const actor: Actor = {
        organisationId: invitation.organisationId,
        kind: 'member',
        accountId,
        apiKeyId: null,
        ip: clientAddress(ip),
        action: 'acceptInvitation',
      };
      await repos.auditLog.append(actor, { targetId: accountId, after: { email: invitation.email, role: invitation.role, invitationId: invitation.id } });
      const organisation = await repos.members.organisation(accountId, invitation.organisationId);
      if (!organisation) throw new Error(`membership of ${accountId} in ${invitation.organisationId} missing right after it was added`);
      return { accountId, organisation, created: !existing };
    });
    if (!joined.created) return { accountCreated: false, organisation: joined.organisation };
    return { accountCreated: true, organisation: joined.organisation, token: await this.auth.tokenFor(joined.accountId, joined.organisation.organisationId) };
  }
}
