import { performance } from 'node:perf_hooks';
import type { Config } from '../../config.ts';
import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { ConfigChanges, DeliveryRecord, WebhookConfigRecord, WebhooksRepository } from './webhooks.repository.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../../lib/endpoint.ts';
import { pick, settingsChange } from '../audit/audit-change.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { newEventId, newId } from '../../lib/ids.ts';
import { decodeCursor, pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import { findPrivateAddress } from '../../lib/url-guard.ts';
import { MAX_WEBHOOK_CONFIGS, PING_EVENT, signedWebhookHeaders } from '@concord/contract';
import type { RetryPolicy } from '@concord/contract';
import { nodeHmacSha256, sendWebhook } from './webhook-sender.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository; webhooks: WebhooksRepository };
type Db = UnitOfWork<Repos>;

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
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  async create(actor: Actor, input: { url: string; events: string[]; secret: string; retryPolicy?: RetryPolicy }): Promise<WebhookConfigRecord> {
    await this.assertReachableUrl(input.url);
    const config = { ...input, retryPolicy: input.retryPolicy ?? 'spec' };
    const created = await this.db.transaction(async (repos) => {
      const webhook = await repos.webhooks.createConfig(actor.organisationId, config, MAX_WEBHOOK_CONFIGS);
      if (webhook) await repos.auditLog.append(actor, { targetId: webhook.id, after: webhookSettings(webhook) });
      return webhook;
    });
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

  async update(actor: Actor, id: string, changes: ConfigChanges) {
    if (changes.url) await this.assertReachableUrl(changes.url);
    return this.db.transaction(async (repos) => {
      const before = await repos.webhooks.lockConfig(actor.organisationId, id);
      const updated = before && (await repos.webhooks.updateConfig(actor.organisationId, id, changes));
      if (!before || !updated) throw webhookNotFound();
      const secret = changes.secret === undefined ? {} : { secretReplaced: true };
      await repos.auditLog.append(actor, settingsChange(id, webhookSettings(before), { ...webhookSettings(updated), ...secret }));
      return updated;
    });
  }

  /**
   * Replaces the secret; the one it replaces keeps signing the Standard Webhooks header for 24 h beside
   * it (ROTATION_OVERLAP_MS), so receivers can switch without missing a delivery.
   */
  async rotateSecret(actor: Actor, id: string, secret: string): Promise<WebhookConfigRecord> {
    const expiresAt = new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS);
    await this.db.transaction(async (repos) => {
      const outcome = await repos.webhooks.rotateSecret(actor.organisationId, id, secret, expiresAt);
      if (outcome === 'not-found') throw webhookNotFound();
      if (outcome === 'same') {
        throw new BadRequestError('VALIDATION_ERROR', 'The new secret is the current one', {
          issues: [{ path: 'secret', message: 'must differ from the current secret' }],
        });
      }
      await repos.auditLog.append(actor, { targetId: id, after: { secretRotated: true, previousSecretExpiresAt: expiresAt } });
    });
    return this.get(actor.organisationId, id);
  }

  /**
   * Sends a signed `ping` event to the configuration now, active or not (so an endpoint can be checked
   * before it is switched back on), with the sender, timeout and address guard of real deliveries, and
   * records it as an event with one delivery, DELIVERED or FAILED: it is never retried, and it does not
   * touch the failure clock of the extended policy.
   */
  async testSend(actor: Actor, id: string): Promise<TestSendResult> {
    const buyerId = actor.organisationId;
    const sentAt = this.clock.now();
    const config = await this.db.repos.webhooks.findSigningConfig(buyerId, id, sentAt);
    if (!config) throw webhookNotFound();
    const eventId = newEventId();
    const deliveryId = newId();
    const body = JSON.stringify({ event: PING_EVENT, webhookId: config.id, sentAt: sentAt.toISOString() });
    const headers = await signedWebhookHeaders(
      {
        eventId,
        event: PING_EVENT,
        deliveryId,
        body,
        secret: config.secret,
        previousSecret: config.previousSecret,
        now: sentAt,
      },
      nodeHmacSha256,
    );
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
    await this.db.transaction(async (repos) => {
      const recorded = await repos.webhooks.recordTestSend({
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
      await repos.auditLog.append(actor, { targetId: config.id, after: { eventId, delivered, statusCode } });
    });
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

  async delete(actor: Actor, id: string): Promise<void> {
    await this.db.transaction(async (repos) => {
      const before = await repos.webhooks.lockConfig(actor.organisationId, id);
      if (!before || !(await repos.webhooks.deleteConfig(actor.organisationId, id))) throw webhookNotFound();
      await repos.auditLog.append(actor, { targetId: id, before: webhookSettings(before) });
    });
  }

  async deliveries(buyerId: string, configId: string, limit: number, cursor?: string): Promise<Page<DeliveryRecord, 'deliveries'>> {
    await this.get(buyerId, configId);
    const rows = await this.db.repos.webhooks.listDeliveries(configId, limit, cursor ? decodeCursor(cursor) : undefined);
    return toPage('deliveries', rows, limit);
  }

  /** Queues a delivery again; one being sent right now is on its way already, and is left as it is. */
  async redeliver(actor: Actor, deliveryId: string): Promise<void> {
    await this.db.transaction(async (repos) => {
      const outcome = await repos.webhooks.redeliver(actor.organisationId, deliveryId, this.clock.now());
      if (outcome === 'not-found') throw new NotFoundError('DELIVERY_NOT_FOUND', 'Webhook delivery not found');
      await repos.auditLog.append(actor, { targetId: deliveryId, after: { outcome } });
    });
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

/**
 * What the audit log keeps of a configuration: its settings, never a secret — nor what a URL may carry like
 * one (user and password, the query string), which a log nobody can delete would keep for 400 days.
 */
const webhookSettings = (config: WebhookConfigRecord) => ({ ...pick(config, ['events', 'isActive', 'retryPolicy']), url: auditedUrl(config.url) });

function auditedUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}
