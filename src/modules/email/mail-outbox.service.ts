// The mail outbox as the development dashboard reads it: without SMTP the mail a newcomer needs (a
// developer's invite) stays in the outbox, and this is how they reach it. The container builds this
// service only outside production, so there the route does not exist at all.
import type { UnitOfWork } from '../../db/database.ts';
import type { MailRecord, MailRepository } from './mail.repository.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { mail: MailRepository };
type Db = UnitOfWork<Repos>;

export class MailOutboxService {
  constructor(private readonly db: Db) {}

  async list(limit: number, cursor?: string): Promise<Page<MailRecord, 'messages'>> {
    return toPage('messages', await this.db.repos.mail.list(pageRequest(limit, cursor)), limit);
  }
}
