import { performance } from 'node:perf_hooks';
import type { Config } from '../../config.ts';
import type { Database } from '../../repositories.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { newEventId, newId } from '../../lib/ids.ts';
import { decodeCursor, pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import { findPrivateAddress } from '../../lib/url-guard.ts';
import { MAX_WEBHOOK_CONFIGS, PING_EVENT, signedWebhookHeaders } from '@concord/contract';
import type { RetryPolicy } from '@concord/contract';
import { sendWebhook } from './webhook-sender.ts';
import type { ConfigChanges, DeliveryRecord, WebhookConfigRecord } from './webhooks.repository.ts';

const webhookNotFound = () => new NotFoundError('WEBHOOK_NOT_FOUND', 'Webhook configuration not found');

/** After rotate-secret, the replaced secret keeps signing (Standard Webhooks) this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** How much of a test send's response body is returned. */
export const TEST_RESPONSE_EXCERPT_CHARS = 500;

/** What POST /webhooks/configs/:id/test answers. */
export interface TestSendResult {
  /** The `ping` event's id (its `webhook-id`; GET /events/:id shows it). */
  eventId: string;
  delivered: boolean;
  /** The receiver's status, or null when no response came (timeout, refused address, network error). */
  statusCode: number | null;
  latencyMs: number;
  /** The response's headers (at most 50), or null without a response. */
  responseHeaders: Record<string, string> | null;
  /** The first 500 characters of the response body as text: from a public address only; else null. */
  responseExcerpt: string | null;
  error?: string;
}

export class WebhooksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  async create(buyerId: string, input: { url: string; events: string[]; secret: string; retryPolicy?: RetryPolicy }): Promise<WebhookConfigRecord> {
    await this.assertReachableUrl(input.url);
    const config = { ...input, retryPolicy: input.retryPolicy ?? 'spec' };
    const created = await this.db.transaction((repos) => repos.webhooks.createConfig(buyerId, config, MAX_WEBHOOK_CONFIGS));
    if (!created) throw new BadRequestError('LIMIT_EXCEEDED', `A buyer has at most ${MAX_WEBHOOK_CONFIGS} webhook configurations`);
    return created;
  }

  async list(buyerId: string, limit: number, cursor?: string): Promise<Page<WebhookConfigRecord, 'webhooks'>> {
    return toPage('webhooks', await this.db.repos.webhooks.listConfigs(buyerId, pageRequest(limit, cursor)), limit);
  }

  async get(buyerId: string, id: string): Promise<WebhookConfigRecord> {
    const config = await this.db.repos.webhooks.findConfig(buyerId, id);
    if (!config) throw webhookNotFound();
    return config;
  }

  async update(buyerId: string, id: string, changes: ConfigChanges) {
    if (changes.url) await this.assertReachableUrl(changes.url);
    const updated = await this.db.repos.webhooks.updateConfig(buyerId, id, changes);
    if (!updated) throw webhookNotFound();
    return updated;
  }

  /**
   * Replaces the secret; the one it replaces keeps signing the Standard Webhooks header for 24 h beside
   * it (ROTATION_OVERLAP_MS), so receivers can switch without missing a delivery.
   */
  async rotateSecret(buyerId: string, id: string, secret: string): Promise<WebhookConfigRecord> {
    const expiresAt = new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS);
    const outcome = await this.db.repos.webhooks.rotateSecret(buyerId, id, secret, expiresAt);
    if (outcome === 'not-found') throw webhookNotFound();
    if (outcome === 'same') {
      throw new BadRequestError('VALIDATION_ERROR', 'The new secret is the current one', {
        issues: [{ path: 'secret', message: 'must differ from the current secret' }],
      });
    }
    return this.get(buyerId, id);
  }

  /**
   * Sends a signed `ping` event to the configuration now, active or not (so an endpoint can be checked
   * before it is switched back on), with the sender, timeout and address guard of real deliveries, and
   * records it as an event with one delivery, DELIVERED or FAILED: it is never retried, and it does not
   * touch the failure clock of the extended policy.
   */
  async testSend(buyerId: string, id: string): Promise<TestSendResult> {
    const sentAt = this.clock.now();
    const config = await this.db.repos.webhooks.findSigningConfig(buyerId, id, sentAt);
    if (!config) throw webhookNotFound();
    const eventId = newEventId();
    const deliveryId = newId();
    const body = JSON.stringify({ event: PING_EVENT, webhookId: config.id, sentAt: sentAt.toISOString() });
    const headers = await signedWebhookHeaders({
      eventId,
      event: PING_EVENT,
      deliveryId,
      body,
      secret: config.secret,
      previousSecret: config.previousSecret,
      now: sentAt,
    });
    const started = performance.now();
    const outcome = await sendWebhook(config.url, body, headers, {
      timeoutMs: this.config.webhookTimeoutMs,
      allowPrivate: this.config.webhookAllowPrivateUrls,
      excerptChars: TEST_RESPONSE_EXCERPT_CHARS,
    });
    const latencyMs = Math.round(performance.now() - started);
    const delivered = outcome.kind === 'success';
    const statusCode = outcome.statusCode === 0 ? null : outcome.statusCode;
    const error =
      outcome.kind === 'success' ? undefined : outcome.kind === 'retryable' ? outcome.error : statusCode === null ? 'invalid URL' : `HTTP ${statusCode}`;
    const recorded = await this.db.repos.webhooks.recordTestSend({
      eventId,
      buyerId,
      payload: body,
      at: sentAt,
      deliveryId,
      configId: config.id,
      delivered,
      statusCode,
      error: error ?? null,
      finishedAt: this.clock.now(),
    });
    // Deleted while the ping was on its way.
    if (!recorded) throw webhookNotFound();
    return {
      eventId,
      delivered,
      statusCode,
      latencyMs,
      responseHeaders: outcome.headers ?? null,
      responseExcerpt: outcome.excerpt ?? null,
      ...(error === undefined ? {} : { error }),
    };
  }

  async delete(buyerId: string, id: string): Promise<void> {
    if (!(await this.db.repos.webhooks.deleteConfig(buyerId, id))) throw webhookNotFound();
  }

  async deliveries(buyerId: string, configId: string, limit: number, cursor?: string): Promise<Page<DeliveryRecord, 'deliveries'>> {
    await this.get(buyerId, configId);
    const rows = await this.db.repos.webhooks.listDeliveries(configId, limit, cursor ? decodeCursor(cursor) : undefined);
    return toPage('deliveries', rows, limit);
  }

  /** Queues a delivery again; one being sent right now is on its way already, and is left as it is. */
  async redeliver(buyerId: string, deliveryId: string): Promise<void> {
    if ((await this.db.repos.webhooks.redeliver(buyerId, deliveryId, this.clock.now())) === 'not-found') {
      throw new NotFoundError('DELIVERY_NOT_FOUND', 'Webhook delivery not found');
    }
  }

  /** Outside development (unless WEBHOOK_ALLOW_PRIVATE_URLS), a URL must resolve to public addresses only. */
  private async assertReachableUrl(url: string): Promise<void> {
    if (this.config.webhookAllowPrivateUrls) return;
    const refused = await findPrivateAddress(url);
    if (refused) {
      throw new BadRequestError('VALIDATION_ERROR', `The webhook URL resolves to a private or unreachable address (${refused})`, {
        issues: [{ path: 'url', message: 'must resolve to public addresses only' }],
      });
    }
  }
}
