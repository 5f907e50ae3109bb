// A person's organisations (docs/organisations.md): which they belong to, and a token acting for one.
import type { Database } from '../../repositories.ts';
import type { UserPrincipal } from '../../lib/endpoint.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { MembershipRecord } from './memberships.repository.ts';

/** Only a buyer's account belongs to organisations; a developer's or an admin's token gets 403. */
function buyerAccount(principal: UserPrincipal): string {
  if (principal.role !== 'BUYER') throw new ForbiddenError('Only a buyer account belongs to organisations');
  return principal.accountId;
}

export class OrganisationsService {
  constructor(
    private readonly db: Database,
    private readonly auth: Pick<AuthService, 'tokenFor'>,
  ) {}

  list(principal: UserPrincipal): Promise<MembershipRecord[]> {
    return this.db.repos.memberships.listForAccount(buyerAccount(principal));
  }

  /** A new token acting for `organisationId`; 403 FORBIDDEN where the person is no member. */
  async switchTo(principal: UserPrincipal, organisationId: string): Promise<{ token: string; organisation: MembershipRecord }> {
    const accountId = buyerAccount(principal);
    const organisation = await this.db.repos.memberships.find(accountId, organisationId);
    if (!organisation) throw new ForbiddenError(`You are not a member of organisation ${organisationId}`, { organisationId });
    return { token: await this.auth.tokenFor(accountId, organisationId), organisation };
  }
}
