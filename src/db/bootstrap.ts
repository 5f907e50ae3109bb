// Resolves the database the service runs on: DATABASE_URL when set, otherwise an embedded PostgreSQL
// whose files live under DATA_DIR and survive restarts. Either way pending migrations are applied.
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../lib/logger.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.ts';
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
    embedded = await startEmbeddedPostgres({ databaseDir, port: config.embeddedPgPort, persistent: true, logger });
    await embedded.createDatabase(EMBEDDED_DATABASE);
    url = embedded.urlFor(EMBEDDED_DATABASE);
  }
  await applyMigrations(url);
  logger.info({ event: 'database.migrated', embedded: Boolean(embedded) }, 'migrations applied');
  return { url, embedded };
}
