// The unit of work: services reach the database only through these repositories, either directly or
// inside `transaction`, which hands them repositories bound to one PostgreSQL transaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { DbClient } from './client.ts';
import { pgExecutor, type RawExecutor } from './pg-executor.ts';

/** Builds the repositories on one executor: a Prisma client or transaction (the composition root's registry). */
export type RepositoryFactory<R> = (db: DbClient) => R;
/** Builds the raw path's repositories on the `pg` pool or one of its clients. */
export type RawRepositoryFactory<W> = (db: RawExecutor) => W;

/**
 * What a service sees of the unit of work: the repositories it uses (`R`, on Prisma's client or the
 * current transaction; `W`, the raw path's on the `pg` pool). Each service names its own slice of the
 * registries, so features depend on the repositories they use, not on the registry that lists them all;
 * the composition root hands every service the one `Database`, which satisfies every slice.
 */
export interface UnitOfWork<R, W = unknown> {
  readonly repos: R;
  readonly rawRepos: W;
  transaction<T>(work: (repos: R) => Promise<T>): Promise<T>;
  ambientTransaction<T>(work: (repos: R) => Promise<T>): Promise<T>;
  rawTransaction<T>(work: (repos: W) => Promise<T>): Promise<T>;
}

export class Database<R, W> implements UnitOfWork<R, W> {
  private readonly baseRepos: R;
  /** The repositories of the ambient transaction (see `ambientTransaction`), if one is open. */
  private readonly ambient = new AsyncLocalStorage<R>();
  /** The raw path's repositories (raw SQL only) on a plain `pg` pool (see pg-executor.ts). */
  readonly rawRepos: W;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: pg.Pool,
    private readonly createRepositories: RepositoryFactory<R>,
    private readonly createRawRepositories: RawRepositoryFactory<W>,
  ) {
    this.baseRepos = createRepositories(prisma);
    this.rawRepos = createRawRepositories(pgExecutor(pool));
  }

  /**
   * A transaction on the `pg` pool for work made only of repositories' raw-SQL methods (the SDK's next
   * and complete).
   */
  async rawTransaction<T>(work: (repos: W) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(this.createRawRepositories(pgExecutor(client)));
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
  get repos(): R {
    return this.ambient.getStore() ?? this.baseRepos;
  }

  /** A Prisma transaction; inside an ambient transaction, that one (PostgreSQL has no nested transactions). */
  transaction<T>(work: (repos: R) => Promise<T>): Promise<T> {
    const current = this.ambient.getStore();
    if (current) return work(current);
    return this.prisma.$transaction((tx) => work(this.createRepositories(tx)), {
      maxWait: 10_000,
      timeout: 15_000,
    });
  }

  /**
   * A transaction that everything called from `work` joins: `repos` and `transaction` use it until it
   * ends. Idempotent creations run in one, so a service's own writes and the stored response of its
   * Idempotency-Key commit together (or not at all). The raw-SQL `rawTransaction` does not join it.
   */
  ambientTransaction<T>(work: (repos: R) => Promise<T>): Promise<T> {
    return this.transaction((repos) => this.ambient.run(repos, () => work(repos)));
  }

  /** Readiness probe: one round trip. */
  async ping(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }
}
