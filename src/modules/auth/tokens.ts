import jwt from 'jsonwebtoken';
import type { Role } from '../../lib/endpoint.ts';

/** spec: a JWT is valid for 30 days. */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export interface TokenClaims {
  sub: string;
  role: Role;
  /** The account's token version when the token was issued. */
  tv: number;
}

const ROLES: ReadonlySet<string> = new Set(['BUYER', 'DEVELOPER', 'ADMIN']);

export class TokenService {
  constructor(
    private readonly secret: string,
    private readonly now: () => Date,
  ) {}

  sign(claims: TokenClaims): string {
    const iat = Math.floor(this.now().getTime() / 1000);
    return jwt.sign({ ...claims, iat, exp: iat + TOKEN_LIFETIME_SECONDS }, this.secret, { algorithm: 'HS256' });
  }

  /** The claims of a valid token, or undefined: wrong algorithm (including `none`), bad signature, expired, malformed. */
  verify(token: string): TokenClaims | undefined {
    try {
      const payload = jwt.verify(token, this.secret, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.now().getTime() / 1000),
      });
      if (typeof payload !== 'object' || payload === null) return undefined;
      const { sub, role, tv } = payload as Record<string, unknown>;
      if (typeof sub !== 'string' || typeof role !== 'string' || !ROLES.has(role) || !Number.isInteger(tv)) return undefined;
      return { sub, role: role as Role, tv: tv as number };
    } catch {
      // Any verification failure means "not authenticated"; the reason is not the client's business.
      return undefined;
    }
  }
}
