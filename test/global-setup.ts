// Starts the PostgreSQL the suite runs on (DATABASE_URL, or an embedded one in a temporary directory),
// migrates a template database once and clones it for each worker.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { freePort } from './helpers/ports.ts';
import { assertTestDatabase, databaseNameOf, templateName, withDatabase, workerName } from './helpers/database-names.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

const WORKER_DATABASES = 4;

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let embeddedDir: string | undefined;
  let baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    embeddedDir = await mkdtemp(path.join(os.tmpdir(), 'concord-test-pg-'));
    // PostgreSQL runs as the `postgres` user when we are root: it must be able to reach its directory.
    await chmod(embeddedDir, 0o755);
    embedded = await startEmbeddedPostgres({ databaseDir: path.join(embeddedDir, 'data'), port: await freePort(), persistent: false });
    baseUrl = embedded.urlFor('concord_test');
  }
  assertTestDatabase(baseUrl);
  const base = databaseNameOf(baseUrl);
  const names = [templateName(base), ...Array.from({ length: WORKER_DATABASES }, (_, i) => workerName(base, String(i + 1)))];

  await admin(baseUrl, async (client) => {
    for (const name of names.toReversed()) await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quote(templateName(base))}`);
  });
  await applyMigrations(withDatabase(baseUrl, templateName(base)));
  await admin(baseUrl, async (client) => {
    for (const name of names.slice(1)) {
      await client.query(`CREATE DATABASE ${quote(name)} TEMPLATE ${quote(templateName(base))}`);
    }
  });
  project.provide('databaseUrl', baseUrl);

  return async () => {
    if (embedded) {
      await embedded.stop();
      if (embeddedDir) await rm(embeddedDir, { recursive: true, force: true });
    }
  };
}
