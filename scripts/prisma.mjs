#!/usr/bin/env node
// Runs the Prisma CLI on its JavaScript engines (see prisma.config.ts). Without DATABASE_URL, the
// commands that talk to a database (migrate, db, studio) run against the embedded PostgreSQL that
// `npm start` uses — the server's own while it runs, else started for the command
// (scripts/embedded-db.ts); the others (generate, format, validate, version) read no database, but the
// CLI still wants DATABASE_URL to be set, so they get a placeholder.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js');
const args = process.argv.slice(2);
const env = { ...process.env, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' };
const needsDatabase = ['migrate', 'db', 'studio'].includes(args[0] ?? '');

let result;
if (!env.DATABASE_URL && needsDatabase) {
  const embeddedDb = fileURLToPath(new URL('./embedded-db.ts', import.meta.url));
  result = spawnSync(process.execPath, ['--import', 'tsx', embeddedDb, 'run', '--', process.execPath, cli, ...args], { stdio: 'inherit', env });
} else {
  env.DATABASE_URL ||= 'postgresql://unused@localhost:5432/unused';
  result = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit', env });
}
process.exit(result.status ?? 1);
