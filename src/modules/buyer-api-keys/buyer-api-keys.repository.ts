import type { ApiKeyAccess } from '@concord/contract';
import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { newBuyerApiKeyId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';

export interface BuyerApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  access: ApiKeyAccess;
  /** Empty: the whole organisation. */
  projectIds: string[];
  expiresAt: Date | null;
  /** The creating member's account id. */
  createdBy: string | null;
}

export interface KeyScope {
  access: ApiKeyAccess;
  projectIds: string[];
  expiresAt: Date | null;
  createdBy: string;
}

/** A live key found by its secret's digest, with what authentication needs to decide. */
export interface KeyOwner {
  id: string;
  buyerId: string;
  accountActive: boolean;
  access: ApiKeyAccess;
  projectIds: string[];
  expiresAt: Date | null;
  /** Past its expiry by the database's clock. */
  expired: boolean;
  /** last_used_at is unset or more than a minute old (by the database's clock): time to record a use. */
  useStale: boolean;
}

const select = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  access: true,
  projectIds: true,
  expiresAt: true,
  createdBy: true,
} as const;

type KeyRow = Omit<BuyerApiKeyRecord, 'access'> & { access: string };
const toRecord = (row: KeyRow): BuyerApiKeyRecord => ({ ...row, access: row.access === 'read' ? 'read' : 'write' });

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class BuyerApiKeysRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /**
   * The live key with this secret digest and its buyer's account status, or null. Raw SQL on the
   * unique index: it runs on every request that presents a buyer key, and nothing caches it, so a
   * revocation holds at once in every process.
   */
  async findLiveBySecretHash(secretHash: string): Promise<KeyOwner | null> {
    const rows = await this.db.$queryRaw<KeyOwner[]>`
      SELECT k.id, k.buyer_id AS "buyerId", a.is_active AS "accountActive", k.access, k.project_ids AS "projectIds",
             k.expires_at AS "expiresAt", coalesce(k.expires_at <= now(), false) AS expired,
             (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS "useStale"
      FROM buyer_api_keys k JOIN accounts a ON a.id = k.buyer_id
      WHERE k.secret_hash = ${secretHash} AND k.revoked_at IS NULL`;
    return rows[0] ?? null;
  }

  /**
   * Records a use, at most about once a minute per key: the condition makes concurrent requests (in any
   * process) write once, and a request that finds the time recent writes nothing.
   */
  async recordUse(id: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE buyer_api_keys SET last_used_at = now()
      WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  }
}

export class BuyerApiKeysRepository extends BuyerApiKeysRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  /**
   * Creates a key unless the buyer already has `limit` live ones; null when at the cap. Must run in a
   * transaction: the buyer row is locked first, so concurrent creations are counted one after the other
   * (no check-then-insert race). FOR NO KEY UPDATE, not FOR UPDATE: it serialises key creations without
   * blocking the foreign-key checks of the buyer's concurrent task inserts (FOR KEY SHARE).
   */
  async create(buyerId: string, input: { name: string; prefix: string; secretHash: string } & KeyScope, limit: number): Promise<BuyerApiKeyRecord | null> {
    await this.db.$queryRaw`SELECT id FROM buyers WHERE id = ${buyerId} FOR NO KEY UPDATE`;
    if ((await this.db.buyerApiKey.count({ where: { buyerId, revokedAt: null } })) >= limit) return null;
    return toRecord(await this.db.buyerApiKey.create({ data: { id: newBuyerApiKeyId(), buyerId, ...input }, select }));
  }

  /** The buyer's live keys (an expired one too, until revoked: it says when it expired), newest first, one keyset page (`limit + 1` rows). */
  async list(buyerId: string, page: PageRequest): Promise<BuyerApiKeyRecord[]> {
    const { where, ...rest } = keysetArgs(page);
    return (await this.db.buyerApiKey.findMany({ where: { buyerId, revokedAt: null, ...where }, select, ...rest })).map(toRecord);
  }

  /** The e-mails of the accounts that created keys, by account id. */
  async creatorEmails(accountIds: string[]): Promise<Map<string, string>> {
    const accounts = await this.db.account.findMany({ where: { id: { in: accountIds } }, select: { id: true, email: true } });
    return new Map(accounts.map((account) => [account.id, account.email]));
  }

  /** Revokes a live key of this buyer: the key as it was, or null when there is none by that id (unknown, foreign or already revoked). */
  async revoke(buyerId: string, id: string, now: Date): Promise<BuyerApiKeyRecord | null> {
    const revoked = await this.db.buyerApiKey.updateMany({ where: { id, buyerId, revokedAt: null }, data: { revokedAt: now } });
    if (revoked.count === 0) return null;
    return toRecord((await this.db.buyerApiKey.findUniqueOrThrow({ where: { id }, select })) as KeyRow);
  }
}
