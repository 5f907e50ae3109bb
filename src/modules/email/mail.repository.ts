import type { RawExecutor } from '../../db/pg-executor.ts';
import type { DbClient } from '../../db/client.ts';
import { newId } from '../../lib/ids.ts';
import { keysetArgs, type PageRequest } from '../../lib/pagination.ts';

export interface MailMessage {
  kind: 'WELCOME' | 'DEVELOPER_INVITE' | 'ORGANISATION_INVITE' | 'BUDGET_LOW' | 'BUDGET_CAP_REACHED' | 'WEBHOOK_DISABLED';
  to: string;
  subject: string;
  body: string;
}

export interface QueuedMail {
  id: string;
  kind: string;
  toAddress: string;
  subject: string;
  body: string;
  attempts: number;
}

/** A message as the outbox holds it. */
export interface MailRecord {
  id: string;
  kind: string;
  toAddress: string;
  subject: string;
  body: string;
  status: 'PENDING' | 'SENT' | 'FAILED';
  createdAt: Date;
  sentAt: Date | null;
}

const mailSelect = { id: true, kind: true, toAddress: true, subject: true, body: true, status: true, createdAt: true, sentAt: true } as const;

/** The raw-SQL methods, all the raw path (the pg pool, Database.rawRepos) may call. */
export class MailRawRepository {
  constructor(protected readonly db: RawExecutor) {}

  /** Queues a message; call it inside the transaction that causes the mail. */
  async enqueue(message: MailMessage): Promise<string> {
    const id = newId();
    await this.db.$executeRaw`
      INSERT INTO mail_outbox (id, kind, to_address, subject, body)
      VALUES (${id}, ${message.kind}, ${message.to}, ${message.subject}, ${message.body})`;
    return id;
  }

  /** Claims due mail for `leaseMs` (other workers skip it; a dead worker's mail is due again after). */
  claimDue(now: Date, leaseMs: number, limit: number): Promise<QueuedMail[]> {
    return this.db.$queryRaw<QueuedMail[]>`
      UPDATE mail_outbox m SET locked_until = ${new Date(now.getTime() + leaseMs)}, attempts = m.attempts + 1
      FROM (
        SELECT id FROM mail_outbox
        WHERE status = 'PENDING' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      ) due
      WHERE m.id = due.id
      RETURNING m.id, m.kind, m.to_address AS "toAddress", m.subject, m.body, m.attempts`;
  }

  async markSent(id: string, now: Date): Promise<void> {
    await this.db.$executeRaw`UPDATE mail_outbox SET status = 'SENT', sent_at = ${now}, last_error = NULL, locked_until = NULL WHERE id = ${id}`;
  }

  async markAttemptFailed(id: string, error: string, retryAt: Date | null): Promise<void> {
    await this.db.$executeRaw`
      UPDATE mail_outbox SET status = ${retryAt ? 'PENDING' : 'FAILED'}::"MailStatus",
        next_attempt_at = COALESCE(${retryAt}::timestamptz, next_attempt_at), last_error = ${error.slice(0, 500)}, locked_until = NULL
      WHERE id = ${id}`;
  }

  /** Without SMTP: the mail stays PENDING, not counted as an attempt, and is looked at again later. */
  async keep(id: string, recheckAt: Date): Promise<void> {
    await this.db.$executeRaw`
      UPDATE mail_outbox SET attempts = attempts - 1, next_attempt_at = ${recheckAt}, locked_until = NULL,
        last_error = 'SMTP_URL not configured; kept'
      WHERE id = ${id}`;
  }

  /** Mail kept while SMTP was not configured becomes due now. */
  async requeueKept(now: Date): Promise<number> {
    return this.db.$executeRaw`
      UPDATE mail_outbox SET next_attempt_at = ${now}, last_error = NULL
      WHERE status = 'PENDING' AND last_error = 'SMTP_URL not configured; kept'`;
  }
}

export class MailRepository extends MailRawRepository {
  constructor(protected override readonly db: DbClient) {
    super(db);
  }

  /** Newest first, one keyset page (`limit + 1` rows). */
  list(page: PageRequest): Promise<MailRecord[]> {
    return this.db.mailOutbox.findMany({ select: mailSelect, ...keysetArgs(page) });
  }
}
