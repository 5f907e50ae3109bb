// Start-up: configuration, database, migrations, admin seed, HTTP server, graceful shutdown.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import v8 from 'node:v8';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createServices } from './container.ts';
import { prepareDatabase } from './db/bootstrap.ts';
import { createPgPool } from './db/pg-executor.ts';
import { createPrismaClient } from './db/prisma.ts';
import { closeGracefully, createHttpServer } from './lib/http-server.ts';
import { createLogger, framed, prettyDestination, wantsPrettyLogs, type Logger } from './lib/logger.ts';
import { startPeriodic } from './lib/periodic.ts';
import { localAdminFile } from './modules/auth/auth.service.ts';
import { REFIT_INTERVAL_MS } from './modules/quality/quality.service.ts';

/** How often each process looks for settlement effects nobody nudged (see SettlementEffects). */
const SETTLEMENT_SWEEP_MS = 1_000;

// A streamed export allocates fast and keeps little: ~30 MB stays live, but with V8's default heap
// growth the old generation filled to ~140 MB of promoted garbage between full collections, and the
// process's peak RSS rose ~140 MB over idle (bench/exports). Growing the heap by at most 50 % over
// what the last full collection kept makes those collections come sooner, for a few per cent of speed.
v8.setFlagsFromString('--heap-growing-percent=50');

/** How long in-flight requests get to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 25_000;
/** Expired Idempotency-Keys are swept hourly (a key past 24 h is also taken over on its next use). */
const EXPIRED_SWEEP_MS = 60 * 60 * 1000;
/**
 * How often open tasks past their deadline are closed (one probe of a small partial index when none is
 * due). Answers past a deadline are refused at once (sdk_answer), and next stops serving the task: this
 * only decides how soon its event and released reservation follow.
 */
const DEADLINE_SWEEP_MS = 1_000;

/** Outside production a missing JWT_SECRET is generated once and kept, so tokens survive restarts. */
async function resolveJwtSecret(config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.resolve(config.dataDir, 'jwt-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600);
    return secret;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const terminal = process.stdout.isTTY === true;
  const pretty = wantsPrettyLogs(config.logFormat, config.env, terminal) ? prettyDestination(terminal) : null;
  const logger = createLogger(config.logLevel, pretty ?? undefined);
  if (config.env === 'production' && config.paymentProvider === 'sandbox') {
    logger.warn(
      { event: 'payments.sandbox.production' },
      'PAYMENT_PROVIDER=sandbox in production (ALLOW_SANDBOX_PAYMENTS=true): anyone can credit an account without paying; never use this where credits are real money',
    );
  }
  const database = await prepareDatabase(config, logger);
  const prisma = createPrismaClient(database.url, config.databasePoolSize);
  const pgPool = createPgPool(database.url, config.databasePoolSize, (error) =>
    logger.warn({ event: 'database.connection.lost', err: error }, 'a database connection was closed by the server; a new one is opened on demand'),
  );
  const services = createServices({ config, prisma, pgPool, logger, jwtSecret: await resolveJwtSecret(config) });
  if (config.admin) await services.auth.seedAdmin(config.admin.email, config.admin.password);
  else if (config.env === 'development') await announceLocalAdmin(config, logger, await services.auth.ensureLocalAdmin());
  else if ((await services.db.repos.accounts.countByRole()).ADMIN === 0) {
    logger.warn(
      { event: 'admin.none' },
      'No admin account exists, so nobody can create developers or credit buyers: set ADMIN_EMAIL and ADMIN_PASSWORD and restart (the admin is created at start-up; a later change of ADMIN_PASSWORD resets its password)',
    );
  }

  const app = buildApp({ config, logger, services });
  const server: Server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  logger.info({ event: 'server.listening', port: config.port, url: config.publicUrl }, 'Concord is listening');

  services.deliveryWorker.start();
  if (services.mailWorker.sending) await services.mailWorker.requeueKept();
  else logger.warn({ event: 'mail.smtp.unset' }, 'SMTP_URL is not set: e-mails are logged and kept in mail_outbox');
  services.mailWorker.start();
  // Expired idempotency keys and rate-limit windows go once an hour (neither is read once expired).
  const sweeper = startPeriodic({
    name: 'expired.sweep',
    intervalMs: EXPIRED_SWEEP_MS,
    run: async () => (await services.idempotency.sweepExpired()) + (await services.db.repos.rateLimits.deleteExpired()) + (await services.audit.sweepExpired()),
    logger,
  });
  // Decisions nudge the settlement-effects applier themselves; this catches what a process that died
  // between a decision and its application left, and events recorded outside decisions.
  const applier = startPeriodic({
    name: 'settlement.effects',
    intervalMs: SETTLEMENT_SWEEP_MS,
    run: () => services.settlementEffects.settled(SETTLEMENT_SWEEP_MS),
    logger,
  });
  const expiry = startPeriodic({ name: 'tasks.expiry', intervalMs: DEADLINE_SWEEP_MS, run: () => services.deadlines.expireDue(), logger });
  // The label model's scopes are re-fitted when their answers have grown (CONTRACT §5). Shutdown aborts
  // a fit in progress: it writes nothing, and the scope stays due for the next start.
  const refitAbort = new AbortController();
  const refitter = startPeriodic({ name: 'quality.refit', intervalMs: REFIT_INTERVAL_MS, run: () => services.quality.refitDue(refitAbort.signal), logger });

  installShutdown(logger, async () => {
    refitAbort.abort();
    const closed = closeGracefully(server);
    // Open event streams never finish by themselves: ended now, or they would hold the close until the
    // grace period runs out. Their clients reconnect (to another process) with their Last-Event-ID.
    await services.eventStream.stop();
    await closed;
    // Lets the delivery in progress finish and be recorded; the rest stays queued for the next start.
    await services.deliveryWorker.stop();
    await services.mailWorker.stop();
    await sweeper.stop();
    await expiry.stop();
    await refitter.stop();
    await services.settlementEffects.stop();
    await applier.stop();
    // What the last decisions owe is applied before the pool closes, for at most 5 s; if the database is
    // already going (Ctrl-C reaches an embedded PostgreSQL too) or a row stays locked, the next start's
    // applier (or another process's) does it.
    await services.settlementEffects.settled(5_000).catch((error: unknown) =>
      // An expected end (Ctrl-C stops an embedded PostgreSQL at the same time): one line, not a stack.
      logger.warn(
        { event: 'settlement.effects.deferred', error: error instanceof Error ? error.message : String(error) },
        "the last decisions' effects are applied at the next start",
      ),
    );
    await services.db.close();
    await prisma.$disconnect();
    await database.embedded?.stop();
  });
}

/**
 * contract §1: in development with no ADMIN_EMAIL/ADMIN_PASSWORD the service creates a local admin once and
 * prints its credentials (in the message: pino redacts fields named password), and keeps them in
 * DATA_DIR/local-admin.json (mode 0600) so they can be found again; later starts say where they are.
 */
async function announceLocalAdmin(config: Config, logger: Logger, created: { email: string; password: string } | null): Promise<void> {
  const file = localAdminFile(config.dataDir);
  if (created) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
    // The credentials are in the message (pino redacts fields named password), in a box a person cannot miss.
    logger.warn({ event: 'admin.local.created' }, framed(localAdminLines(config.publicUrl, created, file)));
  } else {
    logger.info(
      { event: 'admin.local.exists', file },
      `Admin login at ${config.publicUrl}/admin/login: the credentials of the local development admin are in ${file} (unless ADMIN_EMAIL/ADMIN_PASSWORD set them)`,
    );
  }
}

/** What the first run says about the admin it created: where to log in, with what, and where that is kept. */
function localAdminLines(publicUrl: string, admin: { email: string; password: string }, file: string): string[] {
  return [
    'No ADMIN_EMAIL/ADMIN_PASSWORD: created a local development admin.',
    `Log in at ${publicUrl}/admin/login (or POST /api/v1/admin/login) with`,
    `  e-mail    ${admin.email}`,
    `  password  ${admin.password}`,
    `Kept in ${file}; later starts say where.`,
  ];
}

function installShutdown(logger: Logger, shutdown: () => Promise<void>): void {
  // Stop accepting, drain in-flight requests, close the pool, stop an embedded PostgreSQL, exit 0.
  let stopping = false;
  const stop = (reason: string) => {
    // A second signal (a process manager and its wrapper often both relay one) must not kill the drain.
    if (stopping) return;
    stopping = true;
    logger.info({ event: 'server.stopping', reason }, 'shutting down');
    setTimeout(() => {
      logger.error({ event: 'server.shutdown.timeout' }, 'graceful shutdown took too long');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    shutdown().then(
      () => {
        logger.info({ event: 'server.stopped' }, 'stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ event: 'server.shutdown.failed', err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // SIGHUP: the terminal closed. Unhandled, it killed the process on the spot and left an embedded
  // PostgreSQL running (a reload signal to PostgreSQL, not a stop).
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  // `kill <pid of npm start>` signals npm alone, and npm exits without passing it on: started by npm, the
  // server stops (and stops its embedded PostgreSQL) when npm is gone. npm runs the script through a
  // shell, which stays, so npm is watched as the parent's parent where /proc tells it.
  if (process.env.npm_lifecycle_event) {
    const parent = process.ppid;
    const npm = parentOf(parent);
    setInterval(() => {
      if (process.ppid !== parent || (npm !== undefined && !isAlive(npm))) stop('npm exited');
    }, 500).unref();
  }
}

function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

main().catch((error: unknown) => {
  const explained = error instanceof Error && error.name === 'EmbeddedStartError';
  process.stderr.write(`Concord failed to start: ${error instanceof Error ? (explained ? error.message : (error.stack ?? error.message)) : String(error)}\n`);
  process.exit(1);
});
