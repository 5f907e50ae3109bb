// A person's organisations (docs/organisations.md): which they belong to, and a token acting for one.
import type { UnitOfWork } from '../../db/database.ts';
import type { MembershipRecord, MembersRepository } from './members.repository.ts';
import type { UserPrincipal } from '../../lib/endpoint.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { AuthService } from '../auth/auth.service.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { members: MembersRepository };
type Db = UnitOfWork<Repos>;

/** Only a person with a buyer account belongs to organisations: a developer's or an admin's token, or an API key, gets 403. */
function buyerAccount(principal: UserPrincipal): string {
  if (principal.role !== 'BUYER' || principal.apiKeyId !== undefined) throw new ForbiddenError('Only a person with a buyer account belongs to organisations');
  return principal.accountId;
}

export class OrganisationsService {
  constructor(
    private readonly db: Db,
    private readonly auth: Pick<AuthService, 'tokenFor'>,
  ) {}

  list(principal: UserPrincipal): Promise<MembershipRecord[]> {
    return this.db.repos.members.organisations(buyerAccount(principal));
  }

  /** A new token acting for `organisationId`; 403 FORBIDDEN where the person is no member. */
  async switchTo(principal: UserPrincipal, organisationId: string): Promise<{ token: string; organisation: MembershipRecord }> {
    const accountId = buyerAccount(principal);
    const organisation = await this.db.repos.members.organisation(accountId, organisationId);
    if (!organisation) throw new ForbiddenError(`You are not a member of organisation ${organisationId}`, { organisationId });
    return { token: await this.auth.tokenFor(accountId, organisationId), organisation };
  }
}
