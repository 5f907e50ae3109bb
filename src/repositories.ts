// The repository registries of the composition root: every repository the services reach through the unit
// of work (db/database.ts), built on whatever executor the unit of work hands it: Prisma's client or a
// transaction of it, or, for the raw path, the `pg` pool or one of its clients. The registry knows every
// feature, the db layer none; no feature imports it: each service names the slice it uses (docs/architecture.md).
import type { DbClient } from './db/client.ts';
import type { RawExecutor } from './db/pg-executor.ts';
import { AnnotatorsRawRepository, AnnotatorsRepository } from './modules/annotation/annotators.repository.ts';
import { AuditLogRepository } from './modules/audit/audit.repository.ts';
import { AssignmentsRepository } from './modules/annotation/assignments.repository.ts';
import { LabelCountsRepository } from './modules/annotation/label-counts.repository.ts';
import { PayoutsRepository } from './modules/annotation/payouts.repository.ts';
import { AccountsRawRepository, AccountsRepository } from './modules/auth/accounts.repository.ts';
import { RateLimitsRepository } from './modules/auth/rate-limits.repository.ts';
import { BillingRawRepository, BillingRepository } from './modules/billing/billing.repository.ts';
import { SpendingCapsRepository } from './modules/billing/spending-caps.repository.ts';
import { SettlementEffectsRepository } from './modules/settlement/settlement.repository.ts';
import { BuyerApiKeysRawRepository, BuyerApiKeysRepository } from './modules/buyer-api-keys/buyer-api-keys.repository.ts';
import { DepositsRawRepository, DepositsRepository } from './modules/deposits/deposits.repository.ts';
import { DevelopersRawRepository, DevelopersRepository } from './modules/developers/developers.repository.ts';
import { MailRawRepository, MailRepository } from './modules/email/mail.repository.ts';
import { EventsRawRepository, EventsRepository } from './modules/events/events.repository.ts';
import { GoldenTasksRawRepository, GoldenTasksRepository } from './modules/golden-tasks/golden-tasks.repository.ts';
import { IdempotencyRawRepository, IdempotencyRepository } from './modules/idempotency/idempotency.repository.ts';
import { MembersRepository } from './modules/organisations/members.repository.ts';
import { ProjectsRawRepository, ProjectsRepository } from './modules/projects/projects.repository.ts';
import { LabelQualityRepository } from './modules/quality/label-quality.repository.ts';
import { ResultReviewRepository } from './modules/tasks/result-review.repository.ts';
import { TaskStatsRepository } from './modules/tasks/task-stats.repository.ts';
import { TasksRawRepository, TasksRepository } from './modules/tasks/tasks.repository.ts';
import { WebhooksRawRepository, WebhooksRepository } from './modules/webhooks/webhooks.repository.ts';

export function createRepositories(db: DbClient) {
  return {
    accounts: new AccountsRepository(db),
    annotators: new AnnotatorsRepository(db),
    assignments: new AssignmentsRepository(db),
    auditLog: new AuditLogRepository(db),
    billing: new BillingRepository(db),
    buyerApiKeys: new BuyerApiKeysRepository(db),
    labelCounts: new LabelCountsRepository(db),
    labelQuality: new LabelQualityRepository(db),
    deposits: new DepositsRepository(db),
    developers: new DevelopersRepository(db),
    events: new EventsRepository(db),
    goldenTasks: new GoldenTasksRepository(db),
    idempotency: new IdempotencyRepository(db),
    mail: new MailRepository(db),
    members: new MembersRepository(db),
    payouts: new PayoutsRepository(db),
    projects: new ProjectsRepository(db),
    rateLimits: new RateLimitsRepository(db),
    resultReview: new ResultReviewRepository(db),
    settlementEffects: new SettlementEffectsRepository(db),
    spendingCaps: new SpendingCapsRepository(db),
    tasks: new TasksRepository(db),
    taskStats: new TaskStatsRepository(db),
    webhooks: new WebhooksRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/**
 * The raw path's registry (the SDK's next and complete, authentication, the applier, the webhook claim):
 * the repositories' raw-SQL parts only, on the `pg` pool or one of its clients. A Prisma model call cannot
 * be written against it: those methods are not there.
 */
export function createRawRepositories(db: RawExecutor) {
  return {
    accounts: new AccountsRawRepository(db),
    annotators: new AnnotatorsRawRepository(db),
    assignments: new AssignmentsRepository(db),
    auditLog: new AuditLogRepository(db),
    billing: new BillingRawRepository(db),
    buyerApiKeys: new BuyerApiKeysRawRepository(db),
    deposits: new DepositsRawRepository(db),
    developers: new DevelopersRawRepository(db),
    events: new EventsRawRepository(db),
    goldenTasks: new GoldenTasksRawRepository(db),
    idempotency: new IdempotencyRawRepository(db),
    labelCounts: new LabelCountsRepository(db),
    labelQuality: new LabelQualityRepository(db),
    mail: new MailRawRepository(db),
    projects: new ProjectsRawRepository(db),
    rateLimits: new RateLimitsRepository(db),
    resultReview: new ResultReviewRepository(db),
    settlementEffects: new SettlementEffectsRepository(db),
    spendingCaps: new SpendingCapsRepository(db),
    tasks: new TasksRawRepository(db),
    taskStats: new TaskStatsRepository(db),
    webhooks: new WebhooksRawRepository(db),
  };
}

export type RawRepositories = ReturnType<typeof createRawRepositories>;
