import { MAX_LIVE_API_KEYS, type ApiKeyAccess } from '@concord/contract';
import type { Actor, BuyerPrincipal } from '../../lib/endpoint.ts';
import { pick } from '../audit/audit-change.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { BuyerApiKeyRecord, BuyerApiKeysRepository } from './buyer-api-keys.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { BUYER_API_KEY_ID_PATTERN, sha256Hex } from '../../lib/ids.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import { displayPrefix, newBuyerApiKeySecret, type BuyerApiKeyMode } from './buyer-api-key-secret.ts';

/** What a key's scope checks of the buyer's projects (the projects repository provides it). */
interface ProjectOwnership {
  /** Which of these ids are projects of this buyer. */
  ownedIds(buyerId: string, ids: string[]): Promise<Set<string>>;
}
/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository; buyerApiKeys: BuyerApiKeysRepository; projects: ProjectOwnership };
type Db = UnitOfWork<Repos>;

const apiKeyNotFound = () => new NotFoundError('API_KEY_NOT_FOUND', 'API key not found');
const MIN_LIFETIME_MS = 60_000;

/** A key as listed: with its creator's e-mail (null when unknown or their account is gone). */
export type KeyWithCreator = BuyerApiKeyRecord & { creatorEmail: string | null };

export class BuyerApiKeysService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly mode: BuyerApiKeyMode,
  ) {}

  /**
   * A new key and its secret: the only time the secret exists outside the caller's hands. Its projects
   * must be the organisation's (checked in the transaction that creates it), its expiry a minute ahead.
   */
  async create(
    principal: BuyerPrincipal,
    actor: Actor,
    input: { name: string; access: ApiKeyAccess; projectIds?: string[]; expiresAt?: string },
  ): Promise<{ key: KeyWithCreator; secret: string }> {
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt.getTime() < this.clock.now().getTime() + MIN_LIFETIME_MS)
      throw new BadRequestError('VALIDATION_ERROR', 'expiresAt must be at least a minute ahead', {
        issues: [{ path: 'expiresAt', message: 'must be at least a minute ahead' }],
      });
    const projectIds = [...new Set(input.projectIds ?? [])];
    const secret = newBuyerApiKeySecret(this.mode);
    const row = { name: input.name, prefix: displayPrefix(secret), secretHash: sha256Hex(secret) };
    const scope = { access: input.access, projectIds, expiresAt, createdBy: principal.accountId };
    const key = await this.db.transaction(async (repos) => {
      const owned = await repos.projects.ownedIds(principal.buyerId, projectIds);
      const foreign = projectIds.find((id) => !owned.has(id));
      if (foreign !== undefined) throw new BadRequestError('INVALID_PROJECT', `projectIds: ${foreign} is not one of your projects`);
      const created = await repos.buyerApiKeys.create(principal.buyerId, { ...row, ...scope }, MAX_LIVE_API_KEYS);
      if (created) await repos.auditLog.append(actor, { targetId: created.id, after: keySettings(created) });
      return created;
    });
    if (!key) throw new BadRequestError('LIMIT_EXCEEDED', `A buyer has at most ${MAX_LIVE_API_KEYS} API keys; revoke one first`);
    return { key: (await this.withCreators([key]))[0] as KeyWithCreator, secret };
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<KeyWithCreator, 'apiKeys'>> {
    return toPage('apiKeys', await this.withCreators(await this.db.repos.buyerApiKeys.list(buyerId, pageRequest(limit, cursor))), limit);
  }

  private async withCreators(keys: BuyerApiKeyRecord[]): Promise<KeyWithCreator[]> {
    const creators = await this.db.repos.buyerApiKeys.creatorEmails([...new Set(keys.flatMap((key) => (key.createdBy ? [key.createdBy] : [])))]);
    return keys.map((key) => ({ ...key, creatorEmail: key.createdBy ? (creators.get(key.createdBy) ?? null) : null }));
  }

  /** Revocation holds at once in every process: authentication reads the key's row on every request. */
  async revoke(actor: Actor, id: string): Promise<void> {
    if (!BUYER_API_KEY_ID_PATTERN.test(id)) throw apiKeyNotFound();
    await this.db.transaction(async (repos) => {
      const revoked = await repos.buyerApiKeys.revoke(actor.organisationId, id, this.clock.now());
      if (!revoked) throw apiKeyNotFound();
      await repos.auditLog.append(actor, { targetId: id, before: keySettings(revoked) });
    });
  }
}

/** What the audit log keeps of a key: its name, visible prefix and scope (the secret is never stored anyway). */
const keySettings = (key: BuyerApiKeyRecord) => pick(key, ['name', 'prefix', 'access', 'projectIds', 'expiresAt']);
