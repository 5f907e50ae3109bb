// The SDK's hot path runs its raw SQL on a plain `pg` pool instead of through Prisma: the same queries,
// without Prisma's per-query compilation, which made a single server process CPU-bound at a few dozen
// answers per second (see bench/README.md). Only repositories' raw-SQL methods ($queryRaw and
// $executeRaw tagged templates) may be used through it; it offers nothing else.
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.ts';

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/**
 * Every statement is sent as a named prepared statement, so each pooled connection parses and plans a
 * statement's text once and later executions skip straight to running it (PostgreSQL keeps a generic
 * plan once it is no worse than custom ones). Unnamed statements were parsed and planned on every call,
 * which showed all over a `perf` profile of the database during the answer loop.
 * Statement texts come from the repositories' tagged templates, so there are a few dozen of them; past
 * MAX_NAMED_STATEMENTS (a safety bound, never reached by this code) further texts go unnamed.
 */
const MAX_NAMED_STATEMENTS = 1_000;
const statementNames = new Map<string, string>();
function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `concord_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/** BIGINT parameters travel as text (pg cannot serialise bigint itself). */
const toParam = (value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * What a repository made only of raw SQL runs on: the `pg` pool or one of its clients on the hot path,
 * or Prisma's client or transaction elsewhere (both have these two methods). Such repositories are typed
 * on it, so they cannot call a Prisma model method by mistake.
 */
export interface RawExecutor {
  $queryRaw<T = unknown>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
  $executeRaw(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

export function pgExecutor(target: Queryable): RawExecutor {
  const build = (strings: TemplateStringsArray | Prisma.Sql, values: unknown[]) =>
    strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...(values as Prisma.Sql[]));
  return {
    async $queryRaw<T>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T> {
      const statement = build(strings, values);
      const result = await target.query({ name: statementName(statement.text), text: statement.text, values: statement.values.map(toParam) });
      return result.rows as T;
    },
    async $executeRaw(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number> {
      const statement = build(strings, values);
      const result = await target.query({ name: statementName(statement.text), text: statement.text, values: statement.values.map(toParam) });
      return result.rowCount ?? 0;
    },
  };
}

/**
 * BIGINT and NUMERIC results as JavaScript numbers or strings are handled by callers (toCents).
 * A connection that the database ends (a restart, a failover, a shutdown) is reported to
 * `onConnectionError`: an idle one is dropped and the pool opens a fresh one on demand; one checked out
 * between two of its holder's queries (a transaction waiting on its TypeScript, the re-fit's session lock
 * while its worker computes) makes the holder's next query fail, which the holder handles. pg emits both as
 * 'error' events, the pool's and the client's, and either crashes the process if nothing listens (as it
 * did when Ctrl-C stopped the embedded PostgreSQL first under a checked-out client).
 */
export function createPgPool(connectionString: string, max: number, onConnectionError: (error: Error) => void = () => undefined): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  // Reported once, by the client's own listener (it outlives checkouts); the pool's would repeat it for an idle one.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', onConnectionError));
  return pool;
}
