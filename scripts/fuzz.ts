// `npm run fuzz -- --runs N [--seed S]`: the property-based fuzzer of test/fuzz/fuzz.ts over every
// OpenAPI operation, against an in-process app on a fresh database (DATABASE_URL's server, or an embedded
// PostgreSQL). Prints each violation, then one JSON line:
//   {"bench":"fuzz","requests","operations","status5xx","partialWrites","contractShapeViolations", …}
// and exits 1 when any property failed.
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createServices } from '../src/container.ts';
import { createPgPool } from '../src/db/pg-executor.ts';
import { createPrismaClient } from '../src/db/prisma.ts';
import { createLogger } from '../src/lib/logger.ts';
import { benchDatabase } from '../bench/lib.ts';
import { fuzz } from '../test/fuzz/fuzz.ts';
import { seedFuzzData } from '../test/fuzz/seed.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string', default: String(Date.now() % 1_000_000_007) } },
});
const runs = Number(values.runs);
const seed = Number(values.seed);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) throw new Error('usage: npm run fuzz -- --runs N [--seed S]');

const database = await benchDatabase('fuzz');
const jwtSecret = 'fuzz-secret-that-is-long-enough-for-hs256-0123456789';
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  JWT_SECRET: jwtSecret,
  DATABASE_URL: database.url,
  RATE_LIMIT_MAX: '1000000',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
});
const prisma = createPrismaClient(database.url, 5);
const pgPool = createPgPool(database.url, 5);
const logger = createLogger('silent');
const services = createServices({ config, prisma, pgPool, logger, jwtSecret });
const app = buildApp({ config, logger, services });
const started = Date.now();
try {
  const { identities, ids } = await seedFuzzData(app, services);
  const result = await fuzz({
    app,
    databaseUrl: database.url,
    runs,
    seed,
    identities,
    ids,
    onProgress: (done) => {
      if (done % 1_000 === 0) process.stderr.write(`${done}/${runs} requests\n`);
    },
  });
  for (const violation of result.violations)
    console.log(JSON.stringify(violation, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('utf8').slice(0, 300) : v)));
  const { violations, ...figures } = result;
  console.log(JSON.stringify({ bench: 'fuzz', ...figures, seed, seconds: Math.round((Date.now() - started) / 1000) }));
  process.exitCode = violations.length > 0 ? 1 : 0;
} finally {
  await services.db.close();
  await prisma.$disconnect();
  await database.stop();
}
// Explicitly, with the code the run decided: nothing loaded on the way may turn a failure into 0.
process.exit(process.exitCode);
