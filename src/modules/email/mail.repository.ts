import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';

export interface MailMessage {
  kind: 'WELCOME' | 'DEVELOPER_INVITE' | 'BUDGET_LOW';
  to: string;
  subject: string;
  body: string;
}

export class MailRepository {
  constructor(private readonly db: DbClient) {}

  /** Queues a message; call it inside the transaction that causes the mail. */
  async enqueue(message: MailMessage): Promise<string> {
    const id = newId();
    await this.db.$executeRaw`
      INSERT INTO mail_outbox (id, kind, to_address, subject, body)
      VALUES (${id}, ${message.kind}, ${message.to}, ${message.subject}, ${message.body})`;
    return id;
  }
}
