// Delivers the outbox: claims due deliveries (FOR UPDATE SKIP LOCKED, with a lease), signs and sends
// them, and records the outcome. Policy (spec and CONTRACT §7): 2xx within WEBHOOK_TIMEOUT_MS is
// delivered; a timeout, network error or 5xx is retried once, WEBHOOK_RETRY_DELAY_MS later; a 4xx is not
// retried; then the delivery is FAILED.
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { PollingLoop } from '../../lib/polling-loop.ts';
import { SIGNATURE_HEADER, signWebhookBody } from './signature.ts';
import { sendWebhook, type SendOutcome } from './webhook-sender.ts';
import type { ClaimedDelivery } from './webhooks.repository.ts';

/** spec: one retry, so at most two attempts. */
export const MAX_ATTEMPTS = 2;
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
          {
            'content-type': 'application/json',
            'user-agent': 'Concord-Webhooks/1.0',
            [SIGNATURE_HEADER]: signWebhookBody(delivery.payload, delivery.secret),
            'x-service-event': delivery.event,
            'x-service-delivery': delivery.id,
          },
          { timeoutMs: this.config.webhookTimeoutMs, allowPrivate: this.config.webhookAllowPrivateUrls },
        )
      : { kind: 'client-error', statusCode: 0 };
    const now = this.clock.now();
    const log = { deliveryId: delivery.id, webhookEvent: delivery.event, attempt: delivery.attempts };
    if (outcome.kind === 'success') {
      await this.db.repos.webhooks.markDelivered(delivery.id, outcome.statusCode, now);
      this.logger.info({ ...log, event: 'webhook.delivery.delivered', statusCode: outcome.statusCode }, 'webhook delivered');
      return;
    }
    const error = outcome.kind === 'client-error' ? (delivery.isActive ? `HTTP ${outcome.statusCode}` : 'configuration inactive') : outcome.error;
    const retryAt =
      outcome.kind === 'retryable' && delivery.attempts < MAX_ATTEMPTS ? new Date(now.getTime() + this.config.webhookRetryDelayMs) : null;
    await this.db.repos.webhooks.markAttemptFailed(delivery.id, { statusCode: outcome.statusCode, error }, retryAt);
    this.logger.warn({ ...log, event: retryAt ? 'webhook.delivery.retrying' : 'webhook.delivery.failed', error }, 'webhook attempt failed');
  }
}
