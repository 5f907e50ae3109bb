import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { BuyerApiKeysRawRepository } from '../buyer-api-keys/buyer-api-keys.repository.ts';
import type { MailRepository } from '../email/mail.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { API_KEY_PERMISSIONS, ROLE_PERMISSIONS, type MemberRole } from '@concord/contract';
import { actingOrganisation, type ApiKeyPrincipal, type BuyerPrincipal, type Role, type UserPrincipal } from '../../lib/endpoint.ts';
import { AppError, BadRequestError, ConflictError, ForbiddenError, UnauthorizedError } from '../../lib/errors.ts';
import { ID_PATTERN, newApiKey, sha256Hex } from '../../lib/ids.ts';
import type { Logger } from '../../lib/logger.ts';
import { isBuyerApiKeySecret } from '../buyer-api-keys/buyer-api-key-secret.ts';
import { welcomeMail } from '../email/mail.templates.ts';
import type {
  AccountRecord,
  AccountsRawRepository,
  AccountsRepository,
  BuyerRecord,
  DeveloperAccounts,
  DeveloperKeys,
  DeveloperRecord,
} from './accounts.repository.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { checkPassword, hashPassword, verifyPassword } from './passwords.ts';
import type { TokenService } from './tokens.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { accounts: AccountsRepository; developers: DeveloperAccounts; mail: MailRepository };
type RawRepos = { accounts: AccountsRawRepository; buyerApiKeys: BuyerApiKeysRawRepository; developers: DeveloperKeys };
type Db = UnitOfWork<Repos, RawRepos>;

/** The first-run development admin's e-mail (contract §1). */
export const LOCAL_ADMIN_EMAIL = 'admin@concord.local';
/** Where start-up keeps the first-run admin's credentials (mode 0600). */
export const localAdminFile = (dataDir: string) => path.resolve(dataDir, 'local-admin.json');

const invalidCredentials = () => new AppError(401, 'INVALID_CREDENTIALS', 'Invalid e-mail or password');

/** The form every e-mail is stored and compared in. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export type Principal = UserPrincipal | ApiKeyPrincipal;

export type Me =
  | { role: 'BUYER'; buyer: BuyerRecord; memberRole: MemberRole | null }
  | { role: 'DEVELOPER'; developer: DeveloperRecord }
  | { role: 'ADMIN'; admin: { id: string; email: string } };

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly apiKeys: ApiKeyCache,
  ) {}

  async register(input: { email: string; password: string; companyName: string }): Promise<{ token: string; buyer: BuyerRecord }> {
    const email = normaliseEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    const buyer = await this.db.transaction(async (repos) => {
      const created = await repos.accounts.createBuyer({ email, passwordHash, companyName: input.companyName });
      await repos.mail.enqueue(welcomeMail(email, input.companyName, this.config.publicUrl));
      return created;
    });
    return { token: this.tokens.sign({ sub: buyer.id, role: 'BUYER', tv: 0 }), buyer };
  }

  async loginBuyer(email: string, password: string): Promise<{ token: string; buyer: BuyerRecord }> {
    const { token, account } = await this.login('BUYER', email, password);
    const buyer = await this.db.repos.accounts.findBuyer(account.id);
    if (!buyer) throw invalidCredentials();
    return { token, buyer };
  }

  async loginDeveloper(email: string, password: string): Promise<{ token: string; developer: DeveloperRecord }> {
    const { token, account } = await this.login('DEVELOPER', email, password);
    return { token, developer: await this.db.repos.developers.get(account.id) };
  }

  async loginAdmin(email: string, password: string): Promise<{ token: string; admin: { id: string; email: string } }> {
    const { token, account } = await this.login('ADMIN', email, password);
    return { token, admin: { id: account.id, email: account.email } };
  }

  /**
   * The calling account, in the shape of its role. A buyer's is the organisation it acts for (its id,
   * name and money), with the person's own e-mail and their role there.
   */
  async me(principal: UserPrincipal): Promise<Me> {
    if (principal.role === 'BUYER') {
      if ((principal as BuyerPrincipal).projectIds)
        throw new ForbiddenError('An API key limited to projects does not read the organisation’s account: GET /projects lists what it reaches', {
          projectIds: (principal as BuyerPrincipal).projectIds,
        });
      const organisationId = actingOrganisation(principal) ?? principal.accountId;
      const [buyer, account] = await Promise.all([this.db.repos.accounts.findBuyer(organisationId), this.requireAccount(principal.accountId)]);
      if (!buyer) throw new UnauthorizedError();
      return { role: 'BUYER', buyer: { ...buyer, email: account.email }, memberRole: (principal as BuyerPrincipal).memberRole };
    }
    if (principal.role === 'DEVELOPER') return { role: 'DEVELOPER', developer: await this.developer(principal.accountId) };
    const admin = await this.requireAccount(principal.accountId);
    return { role: 'ADMIN', admin: { id: admin.id, email: admin.email } };
  }

  /** Password login for one role; another role's e-mail is treated as unknown. */
  private async login(role: Role, email: string, password: string): Promise<{ token: string; account: AccountRecord }> {
    const account = await this.db.repos.accounts.findByEmail(normaliseEmail(email));
    const check = await checkPassword(password, account?.role === role ? account.passwordHash : null);
    if (!account || check === 'mismatch') throw invalidCredentials();
    if (!account.isActive) throw new UnauthorizedError('This account is disabled');
    // A hash from before the pre-hash is replaced now that the password is at hand (sessions stay valid).
    if (check === 'legacy' && account.passwordHash)
      await this.db.repos.accounts.upgradePasswordHash(account.id, account.passwordHash, await hashPassword(password));
    return { token: this.issueToken(account), account };
  }

  /** A developer's profile, as GET /dev/me shows it to the holder of its API key. */
  developer(developerId: string): Promise<DeveloperRecord> {
    return this.db.repos.developers.get(developerId);
  }

  /** The new token keeps acting for `organisationId`, the organisation the changing token acted for. */
  async changePassword(accountId: string, currentPassword: string, newPassword: string, organisationId?: string): Promise<string> {
    const account = await this.requireAccount(accountId);
    if (!(await verifyPassword(currentPassword, account.passwordHash))) {
      throw new BadRequestError('INVALID_CURRENT_PASSWORD', 'The current password is wrong');
    }
    const updated = await this.db.repos.accounts.setPassword(accountId, await hashPassword(newPassword));
    return this.issueToken(updated, organisationId);
  }

  /** A token of the account acting for `organisationId` (the caller checked the membership). */
  async tokenFor(accountId: string, organisationId: string): Promise<string> {
    return this.issueToken(await this.requireAccount(accountId), organisationId);
  }

  /** A developer sets a password with the single-use token from the invite e-mail. */
  async setupDeveloperPassword(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.db.transaction(async (repos) => {
      const developerId = await repos.developers.consumeInvite(sha256Hex(token), this.clock.now());
      if (!developerId) throw new BadRequestError('INVALID_TOKEN', 'The invite token is unknown, already used or expired');
      await repos.accounts.setPassword(developerId, passwordHash);
    });
  }

  /** A new API key for the developer; the previous one stops working at once. */
  async regenerateApiKey(developerId: string): Promise<string> {
    const apiKey = newApiKey();
    await this.db.repos.developers.setApiKeyHash(developerId, sha256Hex(apiKey));
    this.apiKeys.forgetDeveloper(developerId);
    return apiKey;
  }

  /** Creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD, or resets its password when it changed. */
  async seedAdmin(email: string, password: string): Promise<void> {
    const normalised = normaliseEmail(email);
    const existing = await this.db.repos.accounts.findByEmail(normalised);
    if (existing && existing.role !== 'ADMIN') {
      throw new ConflictError('EMAIL_TAKEN', `ADMIN_EMAIL ${normalised} already belongs to a ${existing.role.toLowerCase()} account`);
    }
    if (existing && (await verifyPassword(password, existing.passwordHash))) return;
    const passwordHash = await hashPassword(password);
    if (existing) await this.db.repos.accounts.setPassword(existing.id, passwordHash);
    else await this.db.repos.accounts.createAdmin(normalised, passwordHash);
    this.logger.info({ event: 'admin.seeded', email: normalised }, existing ? 'admin password reset' : 'admin created');
  }

  /**
   * contract §1: in development with no ADMIN_EMAIL/ADMIN_PASSWORD, a local admin is created once, so a
   * newcomer can use the admin routes. Returns its credentials when this call created it, else null.
   */
  async ensureLocalAdmin(): Promise<{ email: string; password: string } | null> {
    if ((await this.db.repos.accounts.countByRole()).ADMIN > 0) return null;
    const email = LOCAL_ADMIN_EMAIL;
    const password = randomBytes(12).toString('base64url');
    await this.seedAdmin(email, password);
    return { email, password };
  }

  /**
   * Who is calling: a JWT (checked against the account's current token version and status), a
   * developer API key, or a buyer API key (acting as its buyer). Anything else is 401.
   */
  async resolvePrincipal(credential: string, organisationId?: string, options: { ownWhenGone?: boolean } = {}): Promise<Principal> {
    return this.knownApiKey(credential) ?? this.lookUpPrincipal(credential, organisationId, options.ownWhenGone === true);
  }

  /**
   * A developer API key this process has just seen (ApiKeyCache), answered without waiting for anything:
   * the SDK's calls, nearly every request, then cost no promise. Undefined for anything else, which
   * `resolvePrincipal` looks up.
   */
  knownApiKey(credential: string): ApiKeyPrincipal | undefined {
    if (!ID_PATTERN.test(credential)) return undefined;
    const keyHash = sha256Hex(credential);
    const developerId = this.apiKeys.get(keyHash);
    if (!developerId) return undefined;
    this.apiKeys.set(keyHash, developerId);
    return { kind: 'apiKey', developerId };
  }

  /**
   * A buyer's token acts for one organisation: the one a request names by header, else the token's `org`,
   * else the person's own. Naming one the person is no member of is 403 (a header never grants anything
   * the account does not have) — but with `ownWhenGone` (the routes about the person: their organisations,
   * switching, the password), a token whose `org` the person has left acts for their own organisation
   * instead, so it can still find and switch to the others.
   */
  private async lookUpPrincipal(credential: string, organisationId: string | undefined, ownWhenGone: boolean): Promise<Principal> {
    if (ID_PATTERN.test(credential)) {
      const keyHash = sha256Hex(credential);
      const developerId = this.apiKeys.get(keyHash) ?? (await this.db.rawRepos.developers.findActiveIdByApiKeyHash(keyHash));
      if (!developerId) throw new UnauthorizedError('Invalid or revoked API key');
      this.apiKeys.set(keyHash, developerId);
      return { kind: 'apiKey', developerId };
    }
    if (isBuyerApiKeySecret(credential)) return this.resolveBuyerApiKey(credential);
    const claims = this.tokens.verify(credential);
    if (!claims) throw new UnauthorizedError('Invalid or expired token');
    let organisation = organisationId ?? claims.org ?? claims.sub;
    let account = await this.db.rawRepos.accounts.findWithMembership(claims.sub, organisation);
    if (account && !account.memberRole && ownWhenGone && organisationId === undefined && organisation !== claims.sub) {
      organisation = claims.sub;
      account = await this.db.rawRepos.accounts.findWithMembership(claims.sub, organisation);
    }
    if (!account || account.role !== claims.role || account.tokenVersion !== claims.tv) {
      throw new UnauthorizedError('Invalid or expired token');
    }
    if (!account.isActive) throw new UnauthorizedError('This account is disabled');
    if (account.role !== 'BUYER') return { kind: 'user', accountId: account.id, role: account.role };
    if (!account.memberRole) throw new ForbiddenError(`You are not a member of organisation ${organisation}`, { organisationId: organisation });
    const buyer: BuyerPrincipal = {
      kind: 'user',
      accountId: account.id,
      role: 'BUYER',
      buyerId: organisation,
      memberRole: account.memberRole,
      permissions: ROLE_PERMISSIONS[account.memberRole],
      projectIds: null,
    };
    return buyer;
  }

  /**
   * A buyer API key acts as its buyer. It is read from the database on every request, never cached, so
   * a revocation (or a disabled account) holds at once in every process; a password change does not
   * touch it. A use is recorded at most about once a minute per key.
   */
  private async resolveBuyerApiKey(secret: string): Promise<BuyerPrincipal> {
    const key = await this.db.rawRepos.buyerApiKeys.findLiveBySecretHash(sha256Hex(secret));
    if (!key) throw new UnauthorizedError('Invalid or revoked API key');
    if (!key.accountActive) throw new UnauthorizedError('This account is disabled');
    if (key.expired) throw new UnauthorizedError(`This API key expired on ${key.expiresAt?.toISOString()}`);
    if (key.useStale) await this.db.rawRepos.buyerApiKeys.recordUse(key.id);
    // Project-scoped routes keep a scoped key within its projects; every other buyer route refuses it.
    return {
      kind: 'user',
      accountId: key.buyerId,
      role: 'BUYER',
      apiKeyId: key.id,
      buyerId: key.buyerId,
      memberRole: null,
      keyAccess: key.access,
      permissions: API_KEY_PERMISSIONS[key.access],
      projectIds: key.projectIds.length > 0 ? key.projectIds : null,
    };
  }

  async requireAccount(accountId: string): Promise<AccountRecord> {
    const account = await this.db.repos.accounts.findById(accountId);
    if (!account) throw new UnauthorizedError();
    return account;
  }

  private issueToken(account: AccountRecord, organisationId?: string): string {
    return this.tokens.sign({ sub: account.id, role: account.role, tv: account.tokenVersion, ...(organisationId ? { org: organisationId } : {}) });
  }
}
