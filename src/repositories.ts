// The repository registry of the composition root: every repository the services reach through the unit
// of work (db/database.ts), built on whatever executor the unit of work hands it. Services name the unit
// of work by `Database` from here, a type-only import: the registry knows every feature, the db layer none.
import type { DbClient } from './db/client.ts';
import type { Database as UnitOfWork } from './db/database.ts';
import { AnnotatorsRepository } from './modules/annotation/annotators.repository.ts';
import { AssignmentsRepository } from './modules/annotation/assignments.repository.ts';
import { LabelCountsRepository } from './modules/annotation/label-counts.repository.ts';
import { PayoutsRepository } from './modules/annotation/payouts.repository.ts';
import { AccountsRepository } from './modules/auth/accounts.repository.ts';
import { RateLimitsRepository } from './modules/auth/rate-limits.repository.ts';
import { BillingRepository } from './modules/billing/billing.repository.ts';
import { SettlementEffectsRepository } from './modules/settlement/settlement.repository.ts';
import { BuyerApiKeysRepository } from './modules/buyer-api-keys/buyer-api-keys.repository.ts';
import { DepositsRepository } from './modules/deposits/deposits.repository.ts';
import { DevelopersRepository } from './modules/developers/developers.repository.ts';
import { MailRepository } from './modules/email/mail.repository.ts';
import { EventsRepository } from './modules/events/events.repository.ts';
import { GoldenTasksRepository } from './modules/golden-tasks/golden-tasks.repository.ts';
import { IdempotencyRepository } from './modules/idempotency/idempotency.repository.ts';
import { ProjectsRepository } from './modules/projects/projects.repository.ts';
import { LabelQualityRepository } from './modules/quality/label-quality.repository.ts';
import { TaskStatsRepository } from './modules/tasks/task-stats.repository.ts';
import { TasksRepository } from './modules/tasks/tasks.repository.ts';
import { WebhooksRepository } from './modules/webhooks/webhooks.repository.ts';

export function createRepositories(db: DbClient) {
  return {
    accounts: new AccountsRepository(db),
    annotators: new AnnotatorsRepository(db),
    assignments: new AssignmentsRepository(db),
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
    payouts: new PayoutsRepository(db),
    projects: new ProjectsRepository(db),
    rateLimits: new RateLimitsRepository(db),
    settlementEffects: new SettlementEffectsRepository(db),
    tasks: new TasksRepository(db),
    taskStats: new TaskStatsRepository(db),
    webhooks: new WebhooksRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** The service's unit of work: the db layer's, over this registry. */
export type Database = UnitOfWork<Repositories>;
