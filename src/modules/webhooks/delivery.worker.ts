// Delivers the outbox: claims due deliveries (FOR UPDATE SKIP LOCKED, with a lease), signs and sends
// them, and records the outcome. 2xx within WEBHOOK_TIMEOUT_MS is delivered; what a failure leads to is
// the configuration's retry policy (retry-policy.ts): `spec` (contract §7) retries a timeout, network
// error or 5xx once, WEBHOOK_RETRY_DELAY_MS later, and never a 4xx; `extended` retries on a schedule of
// 8 attempts, and disables a configuration that has failed for 3 days (with an e-mail to the buyer).
import type { Config } from '../../config.ts';
import type { Database } from '../../repositories.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { PollingLoop } from '../../lib/polling-loop.ts';
import { webhookDisabledMail } from '../email/mail.templates.ts';
import { PING_EVENT, signedWebhookHeaders } from '@concord/contract';
import { AUTO_DISABLE_AFTER_MS, nextAttemptAt, shouldDisable } from './retry-policy.ts';
import { sendWebhook, type SendOutcome } from './webhook-sender.ts';
import type { ClaimedDelivery } from './webhooks.repository.ts';

const BATCH = 32;
const IDLE_POLL_MS = 200;
/** A claim outlives the request's own timeout, so only a dead worker's deliveries are taken over. */
const LEASE_MARGIN_MS = 5_000;

export class DeliveryWorker {
  private readonly loop: PollingLoop;

  constructor(
    private readonly db: Database,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The extended policy's jitter draws from it (tests pin it). */
    private readonly random: () => number = Math.random,
  ) {
    this.loop = new PollingLoop('webhook.worker', () => this.tick(), BATCH, IDLE_POLL_MS, logger);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops polling and waits for the batch in flight to be sent and recorded. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends one batch of due deliveries; returns how many it handled. */
  async tick(): Promise<number> {
    const now = this.clock.now();
    const claimed = await this.db.repos.webhooks.claimDue(now, this.config.webhookTimeoutMs + LEASE_MARGIN_MS, BATCH);
    await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    return claimed.length;
  }

  /** Runs ticks until nothing is due (tests, shutdown drains). */
  async drain(): Promise<void> {
    while ((await this.tick()) > 0);
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const outcome: SendOutcome = delivery.isActive
      ? await sendWebhook(
          delivery.url,
          delivery.payload,
          await signedWebhookHeaders({
            eventId: delivery.eventId,
            event: delivery.event,
            deliveryId: delivery.id,
            body: delivery.payload,
            secret: delivery.secret,
            previousSecret: delivery.previousSecret,
            now: this.clock.now(),
          }),
          { timeoutMs: this.config.webhookTimeoutMs, allowPrivate: this.config.webhookAllowPrivateUrls },
        )
      : { kind: 'client-error', statusCode: 0 };
    const now = this.clock.now();
    // A test send's ping, redelivered by hand, is tried once and stays out of the extended failure clock,
    // as the test send itself is (README, Webhooks).
    const ping = delivery.event === PING_EVENT;
    const extended = delivery.retryPolicy === 'extended' && !ping;
    const log = { deliveryId: delivery.id, webhookEvent: delivery.event, attempt: delivery.attempts };
    if (outcome.kind === 'success') {
      await this.db.repos.webhooks.markDelivered(delivery.id, outcome.statusCode, now, extended);
      this.logger.info({ ...log, event: 'webhook.delivery.delivered', statusCode: outcome.statusCode }, 'webhook delivered');
      return;
    }
    const error = outcome.kind === 'client-error' ? (delivery.isActive ? `HTTP ${outcome.statusCode}` : 'configuration inactive') : outcome.error;
    const retryAt = ping
      ? null
      : nextAttemptAt({
          policy: delivery.retryPolicy,
          attempts: delivery.attempts,
          outcome,
          now,
          specRetryDelayMs: this.config.webhookRetryDelayMs,
          random: this.random,
        });
    // Only the receiver's failures run the extended policy's failure clock (not a configuration switched off).
    const failureAt = extended && delivery.isActive ? now : null;
    const failingSince = await this.db.repos.webhooks.markAttemptFailed(delivery.id, { statusCode: outcome.statusCode, error }, retryAt, failureAt);
    this.logger.warn({ ...log, event: retryAt ? 'webhook.delivery.retrying' : 'webhook.delivery.failed', error }, 'webhook attempt failed');
    // Only once this delivery has no attempt left: a first failure after a quiet spell, with retries to
    // come, must not switch off a configuration whose next attempt may well succeed.
    if (extended && retryAt === null && shouldDisable(delivery.retryPolicy, failingSince, now)) await this.disable(delivery, now, error);
  }

  /** extended: switches off a configuration that has failed for 3 days and tells the buyer, in one transaction. */
  private async disable(delivery: ClaimedDelivery, now: Date, lastError: string): Promise<void> {
    const disabled = await this.db.transaction(async (repos) => {
      const failingBefore = new Date(now.getTime() - AUTO_DISABLE_AFTER_MS);
      const reason = 'Every delivery attempt failed for 3 days';
      const config = await repos.webhooks.disableFailing(delivery.configId, failingBefore, now, `${reason} (last error: ${lastError})`);
      if (!config) return null;
      const buyer = await repos.accounts.findBuyerContact(config.buyerId);
      if (buyer) await repos.mail.enqueue(webhookDisabledMail(buyer.email, buyer.companyName, config, lastError, this.config.publicUrl));
      return config;
    });
    if (disabled) {
      this.logger.warn(
        { event: 'webhook.config.disabled', webhookId: disabled.id, failingSince: disabled.failingSince.toISOString(), error: lastError },
        'webhook configuration disabled after 3 days of failures',
      );
    }
  }
}
