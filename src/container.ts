// Wires services to their dependencies. Tests build the same container on their own database.
import type pg from 'pg';
import type { Config } from './config.ts';
import { Database } from './db/database.ts';
import { createRawRepositories, createRepositories } from './repositories.ts';
import type { PrismaClient } from './db/prisma.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import type { Logger } from './lib/logger.ts';
import { AdminService } from './modules/admin/admin.service.ts';
import { AnnotationService } from './modules/annotation/annotation.service.ts';
import { AnnotatorsService } from './modules/annotation/annotators.service.ts';
import { createHmac } from 'node:crypto';
import { DepositsService } from './modules/deposits/deposits.service.ts';
import type { PaymentProvider } from './modules/deposits/payment-provider.ts';
import { SandboxProvider } from './modules/deposits/sandbox.provider.ts';
import { StripeProvider } from './modules/deposits/stripe.provider.ts';
import { ApiKeyCache } from './modules/auth/api-key-cache.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { TokenService } from './modules/auth/tokens.ts';
import { BillingService } from './modules/billing/billing.service.ts';
import { SettlementEffects } from './modules/settlement/applier.ts';
import { modeForProvider } from './modules/buyer-api-keys/buyer-api-key-secret.ts';
import { BuyerApiKeysService } from './modules/buyer-api-keys/buyer-api-keys.service.ts';
import { DevelopersService } from './modules/developers/developers.service.ts';
import { GoldenTasksService } from './modules/golden-tasks/golden-tasks.service.ts';
import { IdempotencyService } from './modules/idempotency/idempotency.service.ts';
import { MetaService } from './modules/meta/meta.service.ts';
import { ProjectsService } from './modules/projects/projects.service.ts';
import { MembersService } from './modules/organisations/members.service.ts';
import { AuditService } from './modules/audit/audit.service.ts';
import { SpendingCapsService } from './modules/billing/spending-caps.service.ts';
import { OrganisationsService } from './modules/organisations/organisations.service.ts';
import { QualityRepository } from './modules/quality/quality.repository.ts';
import { QualityService } from './modules/quality/quality.service.ts';
import { LabelQualityService } from './modules/quality/label-quality.service.ts';
import { MailOutboxService } from './modules/email/mail-outbox.service.ts';
import { MailWorker } from './modules/email/mail.worker.ts';
import { buyerCredentialCheck, EventStreamHub } from './modules/events/event-stream.ts';
import { EventsService } from './modules/events/events.service.ts';
import { ExportsRepository } from './modules/exports/exports.repository.ts';
import { ExportsService } from './modules/exports/exports.service.ts';
import { TasksService } from './modules/tasks/tasks.service.ts';
import { DeadlinesService } from './modules/tasks/deadlines.service.ts';
import { ResultReviewService } from './modules/tasks/result-review.service.ts';
import { DeliveryWorker } from './modules/webhooks/delivery.worker.ts';
import { WebhooksService } from './modules/webhooks/webhooks.service.ts';

export interface ContainerDeps {
  config: Config;
  prisma: PrismaClient;
  logger: Logger;
  /** Required: server start-up resolves it (config, or a generated one kept under DATA_DIR). */
  jwtSecret: string;
  clock?: Clock;
  /** A plain `pg` pool on the same database, for the SDK's hot path and streaming exports. */
  pgPool: pg.Pool;
  /** First mail retry delay (tests shorten it). */
  mailBackoffBaseMs?: number;
  /** Source of randomness for golden-task sampling and the order a pair is shown in (tests make it deterministic). */
  random?: () => number;
}

export function createServices(deps: ContainerDeps) {
  const clock = deps.clock ?? systemClock;
  const db = new Database(deps.prisma, deps.pgPool, createRepositories, createRawRepositories);
  const tokens = new TokenService(deps.jwtSecret, () => clock.now());
  const idempotency = new IdempotencyService(db, clock);
  const billing = new BillingService(db, deps.config.publicUrl, clock);
  const apiKeys = new ApiKeyCache(() => clock.now().getTime());
  const paymentProvider = createPaymentProvider(deps.config, deps.jwtSecret, clock);
  const auth = new AuthService(db, tokens, clock, deps.config, deps.logger, apiKeys);
  const settlementEffects = new SettlementEffects(db, billing, clock, deps.logger);
  const spendingCaps = new SpendingCapsService(db, clock, deps.config.publicUrl);
  const tasks = new TasksService(db, idempotency, clock, deps.config, spendingCaps);
  return {
    db,
    clock,
    tokens,
    auth,
    admin: new AdminService(db, clock),
    billing,
    /** Projects' budget caps and the organisation's monthly cap; task creation enforces them. */
    spendingCaps,
    /** Applies what decided tasks owe (charges, earnings, label counts) and numbers events; see its header. */
    settlementEffects,
    /** Buyer API keys: `cnc_live_…` with Stripe, `cnc_test_…` with the sandbox. */
    buyerApiKeys: new BuyerApiKeysService(db, clock, modeForProvider(deps.config.paymentProvider)),
    developers: new DevelopersService(db, clock, deps.config, apiKeys),
    projects: new ProjectsService(db),
    organisations: new OrganisationsService(db, auth),
    members: new MembersService(db, clock, deps.config, auth),
    /** The audit log's reading and its retention sweep; every change appends its entry itself. */
    audit: new AuditService(db),
    idempotency,
    tasks,
    /** The expiry job (server.ts runs it every DEADLINE_SWEEP_MS, a second) and the at-risk list. */
    deadlines: new DeadlinesService(db, settlementEffects, clock),
    /** POST /tasks/:id/reject: a completed result rejected, its task reopened and its decision undone. */
    resultReview: new ResultReviewService(db, clock, spendingCaps, tasks, deps.logger),
    goldenTasks: new GoldenTasksService(db),
    annotation: new AnnotationService(db, settlementEffects, clock, deps.config, deps.logger, deps.random),
    annotators: new AnnotatorsService(db, clock, deps.config.reputationSnapshotMs),
    webhooks: new WebhooksService(db, clock, deps.config),
    events: new EventsService(db, clock),
    /** GET /events/stream's streams in this process; server.ts ends them at shutdown. */
    eventStream: new EventStreamHub(db, settlementEffects, deps.config.eventStream, buyerCredentialCheck(auth), deps.logger),
    meta: new MetaService(deps.config, db),
    exports: new ExportsService(new ExportsRepository(deps.pgPool)),
    paymentProvider,
    deposits: new DepositsService(db, paymentProvider, billing, clock, deps.logger),
    deliveryWorker: new DeliveryWorker(db, deps.config, clock, deps.logger),
    mailWorker: new MailWorker(db, deps.config, clock, deps.logger, deps.mailBackoffBaseMs),
    /** The label model's re-fit job; server.ts runs it every REFIT_INTERVAL_MS. */
    quality: new QualityService(new QualityRepository(deps.pgPool), clock, deps.logger),
    /** GET /projects/:id/quality and GET /quality/option-sets. */
    labelQuality: new LabelQualityService(db),
    /** Reading the mail outbox is a development aid: in production it does not exist (null), nor does its route. */
    mailOutbox: deps.config.env === 'production' ? null : new MailOutboxService(db),
  };
}

export type Services = ReturnType<typeof createServices>;

/** Stripe with its keys, or the sandbox, which signs with a key derived from the JWT secret. */
function createPaymentProvider(config: Config, jwtSecret: string, clock: Clock): PaymentProvider {
  if (config.paymentProvider === 'stripe') {
    if (!config.stripe) throw new Error('PAYMENT_PROVIDER is stripe but the Stripe keys are missing');
    return new StripeProvider(config.stripe.secretKey, config.stripe.webhookSecret, config.publicUrl);
  }
  const secret = createHmac('sha256', jwtSecret).update('concord sandbox payments').digest('hex');
  return new SandboxProvider(secret, config.publicUrl, () => Math.floor(clock.now().getTime() / 1000));
}
