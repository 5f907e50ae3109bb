import { MEMBER_ROLES, roleHas, type MemberRole, type Permission } from '@concord/contract';
import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { isUniqueViolation, likeLiteral, toCents } from '../../db/client.ts';
import { ConflictError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Role } from '../../lib/endpoint.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';

/** A developer account as the service reads it (authentication signs developers in; developers/ manages them). */
export interface DeveloperRecord {
  id: string;
  email: string;
  appName: string;
  appUrl: string;
  isActive: boolean;
  hasPassword: boolean;
  createdAt: Date;
}

/**
 * What authentication does with developer accounts. developers/'s repository provides it; auth/ names
 * only what it uses, so it never imports developers/, which manages developers through auth's rules.
 */
export interface DeveloperAccounts {
  get(id: string): Promise<DeveloperRecord>;
  /** Marks an unused, unexpired invite as used; its developer, or null. */
  consumeInvite(tokenHash: string, now: Date): Promise<string | null>;
  setApiKeyHash(id: string, apiKeyHash: string): Promise<void>;
}

/** The SDK's key check, on the raw path. */
export interface DeveloperKeys {
  /** The active developer owning this API key digest, if any. */
  findActiveIdByApiKeyHash(apiKeyHash: string): Promise<string | null>;
}

export interface AccountRecord {
  id: string;
  email: string;
  role: Role;
  passwordHash: string | null;
  tokenVersion: number;
  isActive: boolean;
  createdAt: Date;
}

export interface BuyerRecord {
  id: string;
  email: string;
  companyName: string;
  creditBalance: number;
  reservedCents: number;
  availableCents: number;
  isActive: boolean;
  createdAt: Date;
}

const emailTaken = () => new ConflictError('EMAIL_TAKEN', 'An account with this e-mail already exists');

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class AccountsRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  async findById(id: string): Promise<AccountRecord | null> {
    const rows = await this.db.$queryRaw<AccountRecord[]>`
      SELECT id, email, role, password_hash AS "passwordHash", token_version AS "tokenVersion", is_active AS "isActive",
             created_at AS "createdAt"
      FROM accounts WHERE id = ${id}`;
    return rows[0] ?? null;
  }

  /**
   * Runs on every JWT request (raw SQL skips Prisma's query compilation): the account, and its role in
   * `organisationId` (null when it is no member there, and for every account that is not a buyer's).
   */
  async findWithMembership(id: string, organisationId: string): Promise<(AccountRecord & { memberRole: MemberRole | null }) | null> {
    const rows = await this.db.$queryRaw<Array<AccountRecord & { memberRole: MemberRole | null }>>`
      SELECT a.id, a.email, a.role, a.password_hash AS "passwordHash", a.token_version AS "tokenVersion", a.is_active AS "isActive",
             a.created_at AS "createdAt", m.role::text AS "memberRole"
      FROM accounts a LEFT JOIN memberships m ON m.account_id = a.id AND m.buyer_id = ${organisationId}
      WHERE a.id = ${id}`;
    return rows[0] ?? null;
  }

  /**
   * Who hears about something of an organisation by e-mail: its active members whose role includes
   * `permission` (budget.low: money:write — owners, admins, billing; a disabled webhook: webhooks:write),
   * oldest first, with the organisation's name. Raw SQL: used inside raw-SQL transactions.
   */
  async findBuyerRecipients(id: string, permission: Permission): Promise<{ companyName: string; emails: string[] } | null> {
    const roles = MEMBER_ROLES.filter((role) => roleHas(role, permission));
    const rows = await this.db.$queryRaw<Array<{ email: string | null; companyName: string }>>`
      SELECT a.email, b.company_name AS "companyName"
      FROM buyers b
      LEFT JOIN memberships m ON m.buyer_id = b.id AND m.role::text = ANY(${roles}::text[])
      LEFT JOIN accounts a ON a.id = m.account_id AND a.is_active
      WHERE b.id = ${id}
      ORDER BY m.created_at, m.account_id`;
    const first = rows[0];
    if (!first) return null;
    return { companyName: first.companyName, emails: rows.flatMap((row) => (row.email ? [row.email] : [])) };
  }

  /** E-mail and company of a buyer (raw SQL: used inside the SDK's raw-SQL transactions). */
  async findBuyerContact(id: string): Promise<{ email: string; companyName: string } | null> {
    const rows = await this.db.$queryRaw<Array<{ email: string; companyName: string }>>`
      SELECT a.email, b.company_name AS "companyName" FROM buyers b JOIN accounts a ON a.id = b.id WHERE b.id = ${id}`;
    return rows[0] ?? null;
  }
}

export class AccountsRepository extends AccountsRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  findByEmail(email: string): Promise<AccountRecord | null> {
    return this.db.account.findUnique({ where: { email } });
  }

  async createBuyer(input: { email: string; passwordHash: string; companyName: string }): Promise<BuyerRecord> {
    try {
      const account = await this.db.account.create({
        data: {
          id: newId(),
          email: input.email,
          passwordHash: input.passwordHash,
          role: 'BUYER',
          buyer: { create: { companyName: input.companyName } },
        },
        include: { buyer: true },
      });
      // The founder's owner membership is the buyers_founder_owner trigger's, in this same transaction.
      return {
        id: account.id,
        email: account.email,
        companyName: input.companyName,
        creditBalance: 0,
        reservedCents: 0,
        availableCents: 0,
        isActive: account.isActive,
        createdAt: account.createdAt,
      };
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  async findBuyer(id: string): Promise<BuyerRecord | null> {
    const buyer = await this.db.buyer.findUnique({ where: { id }, include: { account: true } });
    return buyer ? toBuyerRecord(buyer) : null;
  }

  /** Newest first, one keyset page (`limit + 1` rows); `q` matches the e-mail or the company name, ignoring case. */
  async listBuyers(page: PageRequest, q?: string): Promise<BuyerRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    // Prisma's `contains` is a LIKE: escape % and _ so a search matches them literally.
    const search = q
      ? {
          OR: [
            { companyName: { contains: likeLiteral(q), mode: 'insensitive' as const } },
            { account: { email: { contains: likeLiteral(q), mode: 'insensitive' as const } } },
          ],
        }
      : {};
    const buyers = await this.db.buyer.findMany({ where: { AND: [where, search] }, include: { account: true }, ...rest });
    return buyers.map(toBuyerRecord);
  }

  /** Sets a new password and bumps the token version, which revokes every JWT issued before. */
  async setPassword(id: string, passwordHash: string): Promise<AccountRecord> {
    return this.db.account.update({
      where: { id },
      data: { passwordHash, tokenVersion: { increment: 1 } },
    });
  }

  /**
   * Replaces a password hash by the same password's hash of the current scheme, only if it is still the
   * one the login checked (a concurrent password change wins); the token version is unchanged.
   */
  async upgradePasswordHash(id: string, checkedHash: string, passwordHash: string): Promise<void> {
    await this.db.account.updateMany({ where: { id, passwordHash: checkedHash }, data: { passwordHash } });
  }

  async createAdmin(email: string, passwordHash: string): Promise<AccountRecord> {
    try {
      return await this.db.account.create({ data: { id: newId(), email, passwordHash, role: 'ADMIN' } });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  async countByRole(): Promise<Record<Role, number>> {
    const groups = await this.db.account.groupBy({ by: ['role'], _count: { _all: true } });
    const counts: Record<Role, number> = { BUYER: 0, DEVELOPER: 0, ADMIN: 0 };
    for (const group of groups) counts[group.role] = group._count._all;
    return counts;
  }
}
function toBuyerRecord(buyer: {
  id: string;
  companyName: string;
  creditBalance: bigint;
  reservedCents: bigint;
  createdAt: Date;
  account: { email: string; isActive: boolean };
}): BuyerRecord {
  const creditBalance = toCents(buyer.creditBalance);
  const reservedCents = toCents(buyer.reservedCents);
  return {
    id: buyer.id,
    email: buyer.account.email,
    companyName: buyer.companyName,
    creditBalance,
    reservedCents,
    availableCents: creditBalance - reservedCents,
    isActive: buyer.account.isActive,
    createdAt: buyer.createdAt,
  };
}
