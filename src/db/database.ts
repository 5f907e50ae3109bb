// The unit of work: services reach the database only through these repositories, either directly or
// inside `transaction`, which hands them repositories bound to one PostgreSQL transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DbClient } from './client.ts';
import { asDbClient, pgExecutor } from './pg-executor.ts';
import { AnnotatorsRepository } from '../modules/annotation/annotators.repository.ts';
import { AssignmentsRepository } from '../modules/annotation/assignments.repository.ts';
import { LabelCountsRepository } from '../modules/annotation/label-counts.repository.ts';
import { PayoutsRepository } from '../modules/annotation/payouts.repository.ts';
import { AccountsRepository } from '../modules/auth/accounts.repository.ts';
import { RateLimitsRepository } from '../modules/auth/rate-limits.repository.ts';
import { BillingRepository } from '../modules/billing/billing.repository.ts';
import { SettlementEffectsRepository } from '../modules/billing/settlement-effects.repository.ts';
import { BuyerApiKeysRepository } from '../modules/buyer-api-keys/buyer-api-keys.repository.ts';
import { DepositsRepository } from '../modules/deposits/deposits.repository.ts';
import { DevelopersRepository } from '../modules/developers/developers.repository.ts';
import { ExportsRepository } from '../modules/exports/exports.repository.ts';
import { MailRepository } from '../modules/email/mail.repository.ts';
import { EventsRepository } from '../modules/events/events.repository.ts';
import { GoldenTasksRepository } from '../modules/golden-tasks/golden-tasks.repository.ts';
import { IdempotencyRepository } from '../modules/idempotency/idempotency.repository.ts';
import { ProjectsRepository } from '../modules/projects/projects.repository.ts';
import { LabelQualityRepository } from '../modules/quality/label-quality.repository.ts';
import { TaskStatsRepository } from '../modules/tasks/task-stats.repository.ts';
import { TasksRepository } from '../modules/tasks/tasks.repository.ts';
import { WebhooksRepository } from '../modules/webhooks/webhooks.repository.ts';

function createRepositories(db: DbClient) {
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

export class Database {
  private readonly baseRepos: Repositories;
  /** The repositories of the ambient transaction (see `ambientTransaction`), if one is open. */
  private readonly ambient = new AsyncLocalStorage<Repositories>();
  /**
   * The same repositories on a plain `pg` pool, for the hot path's raw-SQL methods only (see
   * pg-executor.ts).
   */
  readonly rawRepos: Repositories;
  /** Streaming reads on the pg pool (server-side cursors). */
  readonly exports: ExportsRepository;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: pg.Pool,
  ) {
    this.baseRepos = createRepositories(prisma);
    this.rawRepos = createRepositories(asDbClient(pgExecutor(pool)));
    this.exports = new ExportsRepository(pool);
  }

  /**
   * A transaction on the `pg` pool for work made only of repositories' raw-SQL methods (the SDK's next
   * and complete).
   */
  async rawTransaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(createRepositories(asDbClient(pgExecutor(client))));
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      // A connection that cannot even roll back is destroyed rather than returned to the pool.
      const broken = await client.query('ROLLBACK').then(
        () => undefined,
        (rollbackError: unknown) => rollbackError,
      );
      client.release(broken instanceof Error ? broken : undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Repositories outside any transaction, or those of the ambient transaction when one is open. */
  get repos(): Repositories {
    return this.ambient.getStore() ?? this.baseRepos;
  }

  /** A Prisma transaction; inside an ambient transaction, that one (PostgreSQL has no nested transactions). */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const current = this.ambient.getStore();
    if (current) return work(current);
    return this.prisma.$transaction((tx) => work(createRepositories(tx)), {
      maxWait: 10_000,
      timeout: 15_000,
    });
  }

  /**
   * A transaction that everything called from `work` joins: `repos` and `transaction` use it until it
   * ends. Idempotent creations run in one, so a service's own writes and the stored response of its
   * Idempotency-Key commit together (or not at all). The raw-SQL `rawTransaction` does not join it.
   */
  ambientTransaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.transaction((repos) => this.ambient.run(repos, () => work(repos)));
  }

  /** Readiness probe: one round trip. */
  async ping(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }
}
