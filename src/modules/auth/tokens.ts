import jwt from 'jsonwebtoken';
import type { Role } from '../../lib/endpoint.ts';

/** spec: a JWT is valid for 30 days. */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export interface TokenClaims {
  sub: string;
  role: Role;
  /** The account's token version when the token was issued. */
  tv: number;
  /** A buyer's: the organisation the token acts for when it is not the person's own (docs/organisations.md). */
  org?: string;
}

/** contract §1: the `role` claim is lower-case. */
const ROLE_CLAIMS: Readonly<Record<string, Role>> = { buyer: 'BUYER', developer: 'DEVELOPER', admin: 'ADMIN' };

export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly now: () => Date,
  ) {}

  sign(claims: TokenClaims): string {
    const iat = Math.floor(this.now().getTime() / 1000);
    const { sub, role, tv, org } = claims;
    const organisation = org !== undefined && org !== sub ? { org } : {};
    return jwt.sign({ sub, role: role.toLowerCase(), tv, ...organisation, iat, exp: iat + TOKEN_LIFETIME_SECONDS }, this.secret, { algorithm: 'HS256' });
  }

  /**
   * The claims of a valid token, or undefined: wrong algorithm (including `none`), bad signature,
   * expired, without `exp` (it would never expire), malformed, or a role claim not in lower case.
   */
  verify(token: string): TokenClaims | undefined {
    try {
      const payload = jwt.verify(token, this.secret, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.now().getTime() / 1000),
      });
      if (typeof payload !== 'object' || payload === null) return undefined;
      const { sub, role, tv, exp, org } = payload as Record<string, unknown>;
      if (typeof exp !== 'number') return undefined;
      const mapped = typeof role === 'string' && Object.hasOwn(ROLE_CLAIMS, role) ? ROLE_CLAIMS[role] : undefined;
      if (typeof sub !== 'string' || !mapped || !Number.isInteger(tv)) return undefined;
      if (org !== undefined && typeof org !== 'string') return undefined;
      return { sub, role: mapped, tv: tv as number, ...(org === undefined ? {} : { org }) };
    } catch {
      // Any verification failure means "not authenticated"; the reason is not the client's business.
      return undefined;
    }
  }
}
