// The embedded PostgreSQL that `npm start` uses when DATABASE_URL is not set (DATA_DIR/postgres, port
// EMBEDDED_PG_PORT), for the tools that need a database too:
//   npm run db:url                      prints its connection string (and says whether it is running)
//   tsx scripts/embedded-db.ts run -- <command…>
//                                       runs the command with DATABASE_URL set to it: a running one (the
//                                       server's) is used as it is; otherwise it is started for the
//                                       command and stopped afterwards. scripts/prisma.mjs uses this.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';
import { embeddedUrl, isEmbeddedRunning, startEmbeddedPostgres, stopEmbeddedOnSignals } from '../src/db/embedded.ts';
import { EMBEDDED_DATABASE } from '../src/db/bootstrap.ts';

function settings(): { databaseDir: string; port: number } {
  try {
    const config = loadConfig();
    return { databaseDir: path.resolve(config.dataDir, 'postgres'), port: config.embeddedPgPort };
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

const [mode, ...rest] = process.argv.slice(2);
const { databaseDir, port } = settings();

if (mode === 'url') {
  process.stdout.write(`${embeddedUrl(port, EMBEDDED_DATABASE)}\n`);
  if (!(await isEmbeddedRunning(databaseDir))) {
    process.stderr.write(`(the embedded PostgreSQL in ${databaseDir} is not running: \`npm start\` starts it)\n`);
  }
} else if (mode === 'run' && rest[0] === '--' && rest.length > 1) {
  const [command, ...args] = rest.slice(1) as [string, ...string[]];
  stopEmbeddedOnSignals();
  const embedded = await startEmbeddedPostgres({ databaseDir, port, persistent: true });
  let status = 1;
  try {
    await embedded.createDatabase(EMBEDDED_DATABASE);
    const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: embedded.urlFor(EMBEDDED_DATABASE) } });
    status = result.status ?? 1;
  } finally {
    // A server that was already running (npm start) keeps its database.
    if (!embedded.adopted) await embedded.stop();
  }
  process.exit(status);
} else {
  process.stderr.write('usage: tsx scripts/embedded-db.ts url | run -- <command…>\n');
  process.exit(2);
}
