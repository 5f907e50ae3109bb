import { MAX_LIVE_API_KEYS } from '@concord/contract';
import type { Database } from '../../repositories.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { BUYER_API_KEY_ID_PATTERN, sha256Hex } from '../../lib/ids.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import { displayPrefix, newBuyerApiKeySecret, type BuyerApiKeyMode } from './buyer-api-key-secret.ts';
import type { BuyerApiKeyRecord } from './buyer-api-keys.repository.ts';

const apiKeyNotFound = () => new NotFoundError('API_KEY_NOT_FOUND', 'API key not found');

export class BuyerApiKeysService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly mode: BuyerApiKeyMode,
  ) {}

  /** A new key and its secret: the only time the secret exists outside the caller's hands. */
  async create(buyerId: string, name: string): Promise<{ key: BuyerApiKeyRecord; secret: string }> {
    const secret = newBuyerApiKeySecret(this.mode);
    const input = { name, prefix: displayPrefix(secret), secretHash: sha256Hex(secret) };
    const key = await this.db.transaction((repos) => repos.buyerApiKeys.create(buyerId, input, MAX_LIVE_API_KEYS));
    if (!key) throw new BadRequestError('LIMIT_EXCEEDED', `A buyer has at most ${MAX_LIVE_API_KEYS} API keys; revoke one first`);
    return { key, secret };
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<BuyerApiKeyRecord, 'apiKeys'>> {
    return toPage('apiKeys', await this.db.repos.buyerApiKeys.list(buyerId, pageRequest(limit, cursor)), limit);
  }

  /** Revocation holds at once in every process: authentication reads the key's row on every request. */
  async revoke(buyerId: string, id: string): Promise<void> {
    if (!BUYER_API_KEY_ID_PATTERN.test(id)) throw apiKeyNotFound();
    if (!(await this.db.repos.buyerApiKeys.revoke(buyerId, id, this.clock.now()))) throw apiKeyNotFound();
  }
}
