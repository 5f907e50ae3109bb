// A Concord server process for the browser tests, as a newcomer runs it: NODE_ENV=development with no
// ADMIN_EMAIL/ADMIN_PASSWORD (so the first start creates the local admin), the sandbox payment provider,
// on a fresh database cloned from the migrated template and a fresh DATA_DIR.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { assertTestDatabase, databaseNameOf, templateName, withDatabase } from '../../helpers/database-names.ts';
import { spawnServer, type ServerProcess } from '../../helpers/server-process.ts';

/** One statement on a test server's database, for what no route may do (moving a task's clock back). */
export async function runSql(databaseUrl: string, text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

export interface DashboardServer {
  url: string;
  server: ServerProcess;
  databaseUrl: string;
  /** The first-run admin's credentials, as the service wrote them to DATA_DIR/local-admin.json. */
  localAdmin: { email: string; password: string };
  stop(): Promise<void>;
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function startDashboardServer(name: string, env: Record<string, string> = {}): Promise<DashboardServer> {
  const base = inject('databaseUrl');
  const database = `${databaseNameOf(base)}_e2e_${name}`;
  const databaseUrl = withDatabase(base, database);
  assertTestDatabase(databaseUrl);
  await adminQuery(base, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await adminQuery(base, `CREATE DATABASE "${database}" TEMPLATE "${templateName(databaseNameOf(base))}"`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-e2e-'));
  const server = await spawnServer(databaseUrl, {
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    PAYMENT_PROVIDER: 'sandbox',
    RATE_LIMIT_MAX: '100000',
    REPUTATION_SNAPSHOT_MS: '0',
    ...env,
  });
  const localAdmin = JSON.parse(await readFile(path.join(dataDir, 'local-admin.json'), 'utf8')) as { email: string; password: string };
  return {
    // The address PUBLIC_URL defaults to, so the sandbox checkout sends the browser back to the same
    // origin (the session lives in that origin's sessionStorage).
    url: server.url.replace('127.0.0.1', 'localhost'),
    server,
    databaseUrl,
    localAdmin,
    async stop() {
      server.child.kill('SIGTERM');
      await server.exited;
      await rm(dataDir, { recursive: true, force: true });
      await adminQuery(base, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    },
  };
}
