// A test's view of the service: the real app and services on this worker's own database.
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createServices, type Services } from '../../src/container.ts';
import { createPgPool } from '../../src/db/pg-executor.ts';
import { createPrismaClient, type PrismaClient } from '../../src/db/prisma.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { assertTestDatabase, databaseNameOf, templateName, withDatabase, workerName } from './database-names.ts';
import type { Express } from 'express';
import type { DestinationStream } from 'pino';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export function workerDatabaseUrl(): string {
  const base = inject('databaseUrl');
  const url = withDatabase(base, workerName(databaseNameOf(base), process.env.VITEST_POOL_ID ?? '1'));
  assertTestDatabase(url);
  return url;
}

export interface TestContext {
  /** The database this context runs on. */
  databaseUrl: string;
  app: Express;
  services: Services;
  prisma: PrismaClient;
  config: Config;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    DATABASE_URL: workerDatabaseUrl(),
    RATE_LIMIT_MAX: '1000000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    PUBLIC_URL: 'http://concord.test',
    // Reputation is live in tests unless a test sets a snapshot period of its own.
    REPUTATION_SNAPSHOT_MS: '0',
    // An annotator's first task is golden (when its buyer has one of the type and locale) unless a test
    // sets the contract's 0.5: tests then know when a golden task comes (golden-serving.test.ts sets it).
    GOLDEN_FIRST_RATE: '1',
    ...overrides,
  });
}

export interface TestContextOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Another database than this worker's (e.g. one that does not exist, to see failures). */
  databaseUrl?: string;
  /** Where log lines go (LOG_LEVEL still applies). */
  logDestination?: DestinationStream;
  /** A built dashboard to serve at / (default: web/dist). */
  dashboardDir?: string;
  /** The services' source of randomness (golden substitution, a pair's shown order); Math.random by default. */
  random?: () => number;
}

export function createTestContext(options: TestContextOptions = {}): TestContext {
  const config = testConfig(options.env);
  const url = options.databaseUrl ?? workerDatabaseUrl();
  const prisma = createPrismaClient(url, 5);
  // The same two pools the server runs on: Prisma, and plain pg for the SDK's hot path.
  const pgPool = createPgPool(url, 5);
  const logger = createLogger(config.logLevel, options.logDestination);
  const services = createServices({ config, prisma, pgPool, logger, jwtSecret: TEST_JWT_SECRET, clock: options.clock, random: options.random });
  const app = buildApp({ config, logger, services, dashboardDir: options.dashboardDir });
  return {
    databaseUrl: url,
    app,
    services,
    prisma,
    config,
    close: async () => {
      // A background application in progress finishes before the pools close.
      await services.settlementEffects.stop();
      await services.db.close();
      await prisma.$disconnect();
    },
  };
}

/**
 * A context on a database of its own, cloned from the migrated template and dropped on close: for
 * tests of the global work queue, where any open task in the database may be handed out.
 */
export async function createIsolatedTestContext(options: Omit<TestContextOptions, 'databaseUrl'> = {}): Promise<TestContext> {
  const base = inject('databaseUrl');
  const name = `${databaseNameOf(base)}_iso_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName(databaseNameOf(base))}"`);
  } finally {
    await admin.end();
  }
  const ctx = createTestContext({ ...options, databaseUrl: withDatabase(base, name) });
  return {
    ...ctx,
    async close() {
      await ctx.close();
      const dropper = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
      await dropper.connect();
      try {
        // pg-pool's end() resolves before its connections have closed; forcing the drop while one is still
        // closing would make it report the server's termination as an error. Let them go first.
        for (let i = 0; i < 50; i++) {
          const open = await dropper.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (open.rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
