// The answer loop's floor: the statements the service sends for `next` and `complete`, sent straight
// through `pg`, with no HTTP, Express, authentication, validation, logging or JSON in front of them.
// The clients call the service's own AnnotationService on a `pg` pool of the server's size, so the
// statements are the repositories' own (sdk_next_batch, sdk_answer_batch, sdk_answer with the
// settlement when an answer can decide its task), built by the same code: the floor follows the answer
// path whatever it becomes.
// - `batched` (the default): one service for all clients, so calls that arrive together share a
//   statement exactly as in the server.
// - `single`: one service per client, so every call is sent alone (one claim, one answer per statement).
//   PostgreSQL then spends about twice the CPU per answer, and the server's batched loop beats this
//   "floor" (bench/README.md), so it is not the default.
import { loadConfig } from '../../src/config.ts';
import { createServices } from '../../src/container.ts';
import { createPgPool } from '../../src/db/pg-executor.ts';
import { createPrismaClient } from '../../src/db/prisma.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { BENCH_JWT_SECRET } from '../lib.ts';

export interface FloorClient {
  next(annotatorId: string): Promise<{ id: string; options: string[]; answerKind?: string; candidates?: { first: string; second: string } } | null>;
  complete(taskId: string, annotatorId: string, answer: string | string[]): Promise<void>;
}

export interface Floor {
  clients: FloorClient[];
  close(): Promise<void>;
}

export type FloorMode = 'batched' | 'single';

/** `count` clients of the annotation service for the developer, on one pool of `connections`. */
export function floorClients(databaseUrl: string, developerId: string, count: number, connections: number, mode: FloorMode): Floor {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    LOG_LEVEL: 'warn',
    PAYMENT_PROVIDER: 'sandbox',
    ALLOW_SANDBOX_PAYMENTS: 'true',
  });
  const logger = createLogger('warn');
  // The answer path runs on the pg pool; Prisma is only there because the container needs one.
  const prisma = createPrismaClient(databaseUrl, 1);
  const pgPool = createPgPool(databaseUrl, connections);
  const containers: Array<ReturnType<typeof createServices>> = [];
  const service = () => {
    const services = createServices({ config, prisma, pgPool, logger, jwtSecret: BENCH_JWT_SECRET });
    containers.push(services);
    return services.annotation;
  };
  const shared = mode === 'batched' ? service() : undefined;
  const clients = Array.from({ length: count }, (): FloorClient => {
    const annotation = shared ?? service();
    return {
      async next(annotatorId) {
        const served = await annotation.next(developerId, annotatorId, {});
        return served && { id: served.task.id, options: served.task.options, answerKind: served.task.answerKind, candidates: served.task.candidates };
      },
      complete: (taskId, annotatorId, answer) => annotation.complete(developerId, taskId, { annotatorId, answer, timeSpentMs: 1200 }),
    };
  });
  return {
    clients,
    async close() {
      // Each container's settlement applier (the server's does the same work) stops before the pool ends.
      await Promise.all(containers.map((services) => services.settlementEffects.stop()));
      await pgPool.end();
      await prisma.$disconnect();
    },
  };
}
