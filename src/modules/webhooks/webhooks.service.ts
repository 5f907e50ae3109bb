import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequestError, NotFoundError } from '../../lib/errors.ts';
import { decodeCursor, pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import { findPrivateAddress } from '../../lib/url-guard.ts';
import { MAX_WEBHOOK_CONFIGS } from '../events/events.repository.ts';
import type { DeliveryRecord, WebhookConfigRecord } from './webhooks.repository.ts';

const webhookNotFound = () => new NotFoundError('WEBHOOK_NOT_FOUND', 'Webhook configuration not found');

export class WebhooksService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly config: Config,
  ) {}

  async create(buyerId: string, input: { url: string; events: string[]; secret: string }): Promise<WebhookConfigRecord> {
    await this.assertReachableUrl(input.url);
    const created = await this.db.transaction((repos) => repos.webhooks.createConfig(buyerId, input, MAX_WEBHOOK_CONFIGS));
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

  async update(buyerId: string, id: string, changes: { url?: string; events?: string[]; isActive?: boolean; secret?: string }) {
    if (changes.url) await this.assertReachableUrl(changes.url);
    const updated = await this.db.repos.webhooks.updateConfig(buyerId, id, changes);
    if (!updated) throw webhookNotFound();
    return updated;
  }

  async delete(buyerId: string, id: string): Promise<void> {
    if (!(await this.db.repos.webhooks.deleteConfig(buyerId, id))) throw webhookNotFound();
  }

  async deliveries(buyerId: string, configId: string, limit: number, cursor?: string): Promise<Page<DeliveryRecord, 'deliveries'>> {
    await this.get(buyerId, configId);
    const rows = await this.db.repos.webhooks.listDeliveries(configId, limit, cursor ? decodeCursor(cursor) : undefined);
    return toPage('deliveries', rows, limit);
  }

  async redeliver(buyerId: string, deliveryId: string): Promise<void> {
    if (!(await this.db.repos.webhooks.redeliver(buyerId, deliveryId, this.clock.now()))) {
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
