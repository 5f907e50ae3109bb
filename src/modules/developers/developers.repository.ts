import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { isRecordNotFound, isUniqueViolation } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';
import type { DeveloperAccounts, DeveloperKeys, DeveloperRecord } from '../auth/accounts.repository.ts';

const developerNotFound = () => new NotFoundError('DEVELOPER_NOT_FOUND', 'Developer not found');

const include = { account: { select: { email: true, isActive: true, passwordHash: true } } } as const;

function toRecord(row: {
  id: string;
  appName: string;
  appUrl: string;
  createdAt: Date;
  account: { email: string; isActive: boolean; passwordHash: string | null };
}): DeveloperRecord {
  return {
    id: row.id,
    email: row.account.email,
    appName: row.appName,
    appUrl: row.appUrl,
    isActive: row.account.isActive,
    hasPassword: row.account.passwordHash !== null,
    createdAt: row.createdAt,
  };
}

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class DevelopersRawRepository implements DeveloperKeys {
  constructor(protected readonly db: RawExecutor) {}

  /** The active developer owning this API key digest, if any. */
  async findActiveIdByApiKeyHash(apiKeyHash: string): Promise<string | null> {
    // Raw SQL: this runs on every SDK request, and a raw query skips Prisma's query compilation.
    const rows = await this.db.$queryRaw<Array<{ id: string }>>`
      SELECT d.id FROM developers d JOIN accounts a ON a.id = d.id WHERE d.api_key_hash = ${apiKeyHash} AND a.is_active`;
    return rows[0]?.id ?? null;
  }
}

export class DevelopersRepository extends DevelopersRawRepository implements DeveloperAccounts {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  async create(input: {
    email: string;
    appName: string;
    appUrl: string;
    apiKeyHash: string;
    inviteTokenHash: string;
    inviteExpiresAt: Date;
  }): Promise<DeveloperRecord> {
    try {
      const id = newId();
      await this.db.account.create({
        data: {
          id,
          email: input.email,
          role: 'DEVELOPER',
          developer: {
            create: {
              appName: input.appName,
              appUrl: input.appUrl,
              apiKeyHash: input.apiKeyHash,
              invites: { create: { id: newId(), tokenHash: input.inviteTokenHash, expiresAt: input.inviteExpiresAt } },
            },
          },
        },
      });
      return this.get(id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('EMAIL_TAKEN', 'An account with this e-mail already exists');
      throw error;
    }
  }

  async get(id: string): Promise<DeveloperRecord> {
    const row = await this.db.developer.findUnique({ where: { id }, include });
    if (!row) throw developerNotFound();
    return toRecord(row);
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  async list(page: PageRequest): Promise<DeveloperRecord[]> {
    const rows = await this.db.developer.findMany({ include, ...keysetArgs(page) });
    return rows.map(toRecord);
  }

  async update(id: string, changes: { appName?: string; appUrl?: string; isActive?: boolean }): Promise<DeveloperRecord> {
    try {
      await this.db.developer.update({
        where: { id },
        data: {
          appName: changes.appName,
          appUrl: changes.appUrl,
          account: changes.isActive === undefined ? undefined : { update: { isActive: changes.isActive } },
        },
      });
    } catch (error) {
      if (isRecordNotFound(error)) throw developerNotFound();
      throw error;
    }
    return this.get(id);
  }

  /** Replaces the key digest: the previous key stops matching in the same statement. */
  async setApiKeyHash(id: string, apiKeyHash: string): Promise<void> {
    try {
      await this.db.developer.update({ where: { id }, data: { apiKeyHash } });
    } catch (error) {
      if (isRecordNotFound(error)) throw developerNotFound();
      throw error;
    }
  }

  /**
   * Marks an unused, unexpired invite as used and returns its developer. Single use holds under
   * concurrency: the conditional update succeeds for one caller only.
   */
  async consumeInvite(tokenHash: string, now: Date): Promise<string | null> {
    const invite = await this.db.developerInvite.findUnique({ where: { tokenHash }, select: { id: true, developerId: true } });
    if (!invite) return null;
    const claimed = await this.db.developerInvite.updateMany({
      where: { id: invite.id, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    return claimed.count === 1 ? invite.developerId : null;
  }
}
