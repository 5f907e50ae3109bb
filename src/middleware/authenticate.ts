import { ORGANISATION_HEADER, type Permission } from '@concord/contract';
import type { RequestHandler } from 'express';
import { lacksPermission, type Access, type BuyerPrincipal } from '../lib/endpoint.ts';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../lib/errors.ts';
import type { AuthService, Principal } from '../modules/auth/auth.service.ts';

const ROLE_FOR_ACCESS = { buyer: 'BUYER', admin: 'ADMIN', developer: 'DEVELOPER' } as const;

/** Whether an authenticated principal may use a route of this access level. */
export function isAllowed(access: Exclude<Access, 'public'>, principal: Principal): boolean {
  if (access === 'apiKey') return principal.kind === 'apiKey';
  if (principal.kind !== 'user') return false;
  return access === 'user' || principal.role === ROLE_FOR_ACCESS[access];
}

/** A buyer API key acting as its buyer, rather than a JWT from a password log-in. */
const isBuyerApiKey = (principal: Principal) => principal.kind === 'user' && principal.apiKeyId !== undefined;

/** The bearer credential of an `Authorization` header (`Bearer <credential>`), if it has one. */
export function bearerCredential(header: string | undefined): string | undefined {
  return /^Bearer ([^\s]+)$/i.exec((header ?? '').trim())?.[1];
}

/** What an organisation id may look like in the header: an id, as GET /organisations lists them. */
const ORGANISATION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The organisation a request names by header (ORGANISATION_HEADER), if it names one. A header that is sent
 * but names nothing an id could be (empty, too long, two values joined, other characters) is 400, not
 * quietly the person's own organisation: a script with an unset variable should hear of it.
 */
function organisationHeader(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const id = typeof value === 'string' ? value.trim() : '';
  if (!ORGANISATION_ID.test(id))
    throw new BadRequestError('VALIDATION_ERROR', `${ORGANISATION_HEADER} must be one organisation id (1–100 letters, digits, _ or -)`, {
      issues: [{ path: ORGANISATION_HEADER, message: 'must be one organisation id' }],
    });
  return id;
}

/**
 * Resolves the bearer credential and stores the principal in `res.locals.principal`.
 * Missing or invalid → 401 UNAUTHORIZED; valid but of the wrong kind or role → 403 FORBIDDEN; a buyer
 * API key on a `sessionOnly` route (account management) → 403 FORBIDDEN; on a buyer route, a member whose
 * role in the organisation lacks the route's `permission` → 403 FORBIDDEN naming both.
 */
export function authenticate(
  auth: Pick<AuthService, 'knownApiKey' | 'resolvePrincipal'>,
  access: Exclude<Access, 'public'>,
  options: { sessionOnly?: boolean; permission?: Permission; projectScoped?: boolean; personal?: boolean } = {},
): RequestHandler {
  const admit = (principal: Principal, res: Parameters<RequestHandler>[1], next: Parameters<RequestHandler>[2]) => {
    if (!isAllowed(access, principal)) throw new ForbiddenError();
    if (options.sessionOnly && isBuyerApiKey(principal)) throw new ForbiddenError('An API key cannot manage the account: log in with the password for this');
    // isAllowed admitted a buyer: resolvePrincipal gives every buyer its organisation, role and scope.
    if (access === 'buyer') {
      const buyer = principal as BuyerPrincipal;
      const { projectIds } = buyer;
      if (options.permission && !buyer.permissions.includes(options.permission)) throw lacksPermission(buyer, options.permission);
      if (projectIds && !options.projectScoped)
        throw new ForbiddenError("This API key is limited to projects: this route reaches the whole organisation's data", { projectIds });
    }
    res.locals.principal = principal;
    next();
  };
  return (req, res, next) => {
    const credential = bearerCredential(req.headers.authorization);
    if (!credential) throw new UnauthorizedError('Missing bearer credential');
    // An API key this process knows is answered at once; anything else is looked up.
    const known = auth.knownApiKey(credential);
    if (known) return admit(known, res, next);
    return auth
      .resolvePrincipal(credential, organisationHeader(req.headers[ORGANISATION_HEADER.toLowerCase()]), { ownWhenGone: options.personal === true })
      .then((principal) => admit(principal, res, next));
  };
}
