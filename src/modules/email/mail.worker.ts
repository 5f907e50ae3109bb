// Sends the mail outbox. With SMTP_URL, by nodemailer, retried with exponential backoff; without it,
// each mail is logged and kept PENDING in the table, to go out once SMTP is configured (requeueKept at
// start-up). The log holds the subject, the links and the body only in development, where a newcomer
// without SMTP needs them (the developer invite's link); elsewhere never (an invite carries a token).
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { MailRepository } from './mail.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { PollingLoop } from '../../lib/polling-loop.ts';
import { linksIn } from './mail-links.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { mail: MailRepository };
type Db = UnitOfWork<Repos>;

const BATCH = 16;
const IDLE_POLL_MS = 1_000;
const LEASE_MS = 60_000;
/** After this many failed attempts a mail is FAILED. */
export const MAIL_MAX_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Without SMTP, a logged mail is looked at again a day later (it stays PENDING). */
const KEPT_RECHECK_MS = 24 * 60 * 60 * 1000;

export class MailWorker {
  private readonly loop: PollingLoop;
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** First retry delay; doubles with every attempt up to an hour. */
    private readonly backoffBaseMs = 5_000,
  ) {
    this.transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;
    this.loop = new PollingLoop('mail.worker', () => this.tick(), BATCH, IDLE_POLL_MS, logger);
  }

  get sending(): boolean {
    return this.transport !== undefined;
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.transport?.close();
  }

  /** With SMTP configured, mail kept while it was not is due again now. */
  async requeueKept(): Promise<number> {
    return this.transport ? this.db.repos.mail.requeueKept(this.clock.now()) : 0;
  }

  async tick(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.db.repos.mail.claimDue(now, LEASE_MS, BATCH);
    for (const mail of claimed) {
      const log = { mailId: mail.id, kind: mail.kind, to: mail.toAddress, attempt: mail.attempts };
      if (!this.transport) {
        if (this.config.env === 'development') {
          // The subject and links first (a developer's invite link is how they set a password), then the text.
          const links = linksIn(mail.body);
          const message =
            `SMTP_URL is not set: mail "${mail.subject}" to ${mail.toAddress} kept in the outbox.` +
            (links.length > 0 ? ` Links: ${links.join(' ')}` : '') +
            `\nIt reads:\n${mail.body}`;
          this.logger.info({ ...log, event: 'mail.kept', subject: mail.subject, links }, message);
        } else {
          this.logger.info({ ...log, event: 'mail.kept', subject: mail.subject }, 'SMTP_URL is not set: mail kept in the outbox');
        }
        await this.db.repos.mail.keep(mail.id, new Date(now.getTime() + KEPT_RECHECK_MS));
        continue;
      }
      try {
        await this.transport.sendMail({ from: this.config.mailFrom, to: mail.toAddress, subject: mail.subject, text: mail.body });
        await this.db.repos.mail.markSent(mail.id, this.clock.now());
        this.logger.info({ ...log, event: 'mail.sent' }, 'mail sent');
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const retryAt =
          mail.attempts < MAIL_MAX_ATTEMPTS
            ? new Date(this.clock.now().getTime() + Math.min(this.backoffBaseMs * 2 ** (mail.attempts - 1), MAX_BACKOFF_MS))
            : null;
        await this.db.repos.mail.markAttemptFailed(mail.id, message, retryAt);
        this.logger.warn({ ...log, event: retryAt ? 'mail.retrying' : 'mail.failed', error: message }, 'mail attempt failed');
      }
    }
    return claimed.length;
  }

  async drain(): Promise<void> {
    while ((await this.tick()) > 0);
  }
}
