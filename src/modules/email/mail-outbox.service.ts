// The mail outbox as the development dashboard reads it: without SMTP the mail a newcomer needs (a
// developer's invite) stays in the outbox, and this is how they reach it. The container builds this
// service only outside production, so there the route does not exist at all.
import type { Database } from '../../repositories.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import type { MailRecord } from './mail.repository.ts';

export class MailOutboxService {
  constructor(private readonly db: Database) {}

  async list(limit: number, cursor?: string): Promise<Page<MailRecord, 'messages'>> {
    return toPage('messages', await this.db.repos.mail.list(pageRequest(limit, cursor)), limit);
  }
}
