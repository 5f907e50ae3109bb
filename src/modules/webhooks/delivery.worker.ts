// Delivers the outbox: claims due deliveries (with a lease), signs and sends them, and records the
// outcome. 2xx within WEBHOOK_TIMEOUT_MS is delivered; what a failure leads to is the configuration's
// retry policy (retry-policy.ts): `spec` (contract §7) retries a timeout, network error or 5xx once,
// WEBHOOK_RETRY_DELAY_MS later, and never a 4xx; `extended` retries on a schedule of 8 attempts, and
// disables a configuration that has failed for 3 days (with an e-mail to the buyer).
//
// Fair between buyers: no buyer's slow or dead endpoints may delay another's deliveries. The worker keeps
// up to SLOTS sends in flight and claims again as soon as slots are free, never waiting for the slowest
// send of a claim (a receiver that never answers holds its own slot until the timeout, nothing else);
// the claim caps what is in flight per endpoint and per buyer over every process, and lets the buyers
// with due work take turns (webhooks.repository.ts claimDue); an endpoint whose last attempts timed out,
// could not connect or answered 5xx (in a row; a 4xx neither counts nor ends the run) is sent one
// delivery at a time until a delivery succeeds.
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AccountsRepository } from '../auth/accounts.repository.ts';
import type { MailRepository } from '../email/mail.repository.ts';
import type { ClaimedDelivery, ClaimLimits, WebhooksRawRepository, WebhooksRepository } from './webhooks.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import { Gate } from '../../lib/gate.ts';
import type { Logger } from '../../lib/logger.ts';
import { webhookDisabledMail } from '../email/mail.templates.ts';
import { PING_EVENT, signedWebhookHeaders } from '@concord/contract';
import { AUTO_DISABLE_AFTER_MS, nextAttemptAt, shouldDisable } from './retry-policy.ts';
import { nodeHmacSha256, sendWebhook, type SendOutcome } from './webhook-sender.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { accounts: AccountsRepository; mail: MailRepository; webhooks: WebhooksRepository };
type RawRepos = { webhooks: WebhooksRawRepository };
type Db = UnitOfWork<Repos, RawRepos>;

/** Sends in flight at once in one process. */
const SLOTS = 512;
/** The caps of a claim, over every process (README, Webhooks: "Fair delivery"). */
export const DELIVERY_CAPS: Omit<ClaimLimits, 'slots'> = { perEndpoint: 64, perBuyer: 128, troubledAfter: 3 };
/** How long the worker waits between claims when nothing was due, or at most for a claim's sends. */
const IDLE_POLL_MS = 200;
/**
 * Outcomes written at once. They run on the pg pool the SDK's next and complete use (DATABASE_POOL_SIZE,
 * 10 by default); 512 sends finishing together (a backlog draining) would otherwise queue 512 statements
 * ahead of annotators' answers. Four keep one endpoint's deliveries at what bench:webhooks measures.
 */
const OUTCOME_WRITES = 4;
/** A claim outlives the request's own timeout, so only a dead worker's deliveries are taken over. */
const LEASE_MARGIN_MS = 5_000;

export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly outcomeWrites = new Gate(OUTCOME_WRITES);
  private stopped = true;
  private running: Promise<void> = Promise.resolve();
  /** Ends the loop's pause early (its sends are done, or the worker stops). */
  private wake: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The extended policy's jitter draws from it (tests pin it). */
    private readonly random: () => number = Math.random,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.running = this.run();
  }

  /** Stops claiming and waits for the sends in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    await Promise.all(this.inFlight);
  }

  /** Claims and sends until nothing is due, waiting for every send (tests, shutdown drains). */
  async drain(): Promise<void> {
    for (;;) {
      const started = await this.claimAndSend();
      await Promise.all(this.inFlight);
      if (started.length === 0) return;
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let started: Array<Promise<void>> = [];
      try {
        started = await this.claimAndSend();
      } catch (error) {
        this.logger.error({ event: 'webhook.worker.failed', err: error }, 'webhook worker claim failed');
      }
      await this.pause(started);
    }
  }

  /**
   * Until half of this claim's sends are done (more may be due then), or IDLE_POLL_MS at most: a send
   * that hangs until its timeout holds only its own slot, never the next claim.
   */
  private pause(started: Array<Promise<void>>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, IDLE_POLL_MS);
      timer.unref();
      this.wake = done;
      // Half of the claim's sends done frees enough slots to make the next claim worth its round trips.
      let finished = 0;
      for (const sending of started) void sending.then(() => ++finished * 2 >= started.length && done());
    });
  }

  /** Claims as many due deliveries as there are free slots and starts sending them. */
  private async claimAndSend(): Promise<Array<Promise<void>>> {
    const slots = SLOTS - this.inFlight.size;
    if (slots <= 0) return [];
    const leaseMs = this.config.webhookTimeoutMs + LEASE_MARGIN_MS;
    const claimed = await this.db.rawTransaction((repos) => repos.webhooks.claimDue(() => this.clock.now(), leaseMs, { slots, ...DELIVERY_CAPS }));
    return claimed.map((delivery) => {
      const sending: Promise<void> = this.deliver(delivery)
        .catch((error: unknown) =>
          this.logger.error({ event: 'webhook.delivery.unrecorded', deliveryId: delivery.id, err: error }, 'webhook outcome not recorded'),
        )
        .finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
      return sending;
    });
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const outcome: SendOutcome = delivery.isActive
      ? await sendWebhook(
          delivery.url,
          delivery.payload,
          await signedWebhookHeaders(
            {
              eventId: delivery.eventId,
              event: delivery.event,
              deliveryId: delivery.id,
              body: delivery.payload,
              secret: delivery.secret,
              previousSecret: delivery.previousSecret,
              now: this.clock.now(),
            },
            nodeHmacSha256,
          ),
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
      await this.outcomeWrites.run(() => this.db.rawRepos.webhooks.markDelivered(delivery, outcome.statusCode, now, extended));
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
    // Only the receiver's failures run the extended policy's failure clock (not a configuration switched off)
    // and lengthen the endpoint's run of failures (a 4xx answered: the endpoint is up).
    const failed = outcome.kind === 'retryable';
    const failureAt = extended && delivery.isActive ? now : null;
    const failingSince = await this.outcomeWrites.run(() =>
      this.db.rawRepos.webhooks.markAttemptFailed(delivery, { statusCode: outcome.statusCode, error }, retryAt, { failed, failureAt }),
    );
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
      const recipients = await repos.accounts.findBuyerRecipients(config.buyerId, 'webhooks:write');
      for (const email of recipients?.emails ?? [])
        await repos.mail.enqueue(webhookDisabledMail(email, recipients?.companyName ?? '', config, lastError, this.config.publicUrl));
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
