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
    await this.db.mailOutbox.create({
      data: { id, kind: message.kind, toAddress: message.to, subject: message.subject, body: message.body },
    });
    return id;
  }
}
