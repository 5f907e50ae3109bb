import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { MailRepository } from '../email/mail.repository.ts';
import type { DevelopersRepository } from './developers.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { newApiKey, newToken, sha256Hex } from '../../lib/ids.ts';
import type { ApiKeyCache } from '../auth/api-key-cache.ts';
import { normaliseEmail } from '../auth/auth.service.ts';
import { developerInviteMail } from '../email/mail.templates.ts';
import type { DeveloperRecord } from '../auth/accounts.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { developers: DevelopersRepository; mail: MailRepository };
type Db = UnitOfWork<Repos>;

/** contract: the invite token is single use and valid for 7 days. */
const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export class DevelopersService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly apiKeys: ApiKeyCache,
  ) {}

  /** Creates the developer with a fresh API key and queues the invite e-mail in the same transaction. */
  async create(input: { email: string; appName: string; appUrl: string }): Promise<{ developer: DeveloperRecord; apiKey: string }> {
    const email = normaliseEmail(input.email);
    const apiKey = newApiKey();
    const inviteToken = newToken();
    const inviteExpiresAt = new Date(this.clock.now().getTime() + INVITE_LIFETIME_MS);
    const developer = await this.db.transaction(async (repos) => {
      const created = await repos.developers.create({
        email,
        appName: input.appName,
        appUrl: input.appUrl,
        apiKeyHash: sha256Hex(apiKey),
        inviteTokenHash: sha256Hex(inviteToken),
        inviteExpiresAt,
      });
      await repos.mail.enqueue(developerInviteMail(email, input.appName, inviteToken, this.config.publicUrl, inviteExpiresAt));
      return created;
    });
    return { developer, apiKey };
  }

  async list(limit: number, cursor?: string): Promise<Page<DeveloperRecord, 'developers'>> {
    return toPage('developers', await this.db.repos.developers.list(pageRequest(limit, cursor)), limit);
  }

  async update(id: string, changes: { appName?: string; appUrl?: string; isActive?: boolean }): Promise<DeveloperRecord> {
    const developer = await this.db.repos.developers.update(id, changes);
    this.apiKeys.forgetDeveloper(id);
    return developer;
  }
}
