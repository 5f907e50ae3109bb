// The database functions' source files against a migrated database (see scripts/lib/sql-functions.ts).
//   npm run db:functions -- --check              exit 1 when prisma/functions and DATABASE_URL's database differ
//   npm run db:functions -- --migration <name>   write the migration that brings the database to the files
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { compareFunctions, describeComparison, functionsMigration, readFunctionFiles } from './lib/sql-functions.ts';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('DATABASE_URL must name a database migrated to the latest migration (npm run prisma -- migrate deploy).\n');
  process.exit(2);
}
const nameAt = process.argv.indexOf('--migration');
const migrationName = nameAt >= 0 ? process.argv[nameAt + 1] : undefined;
if (nameAt >= 0 && !migrationName?.match(/^[a-z0-9_]+$/)) {
  process.stderr.write('--migration needs a name of lower-case letters, digits and underscores.\n');
  process.exit(2);
}

const client = new pg.Client({ connectionString: url });
await client.connect();
const files = await readFunctionFiles();
const comparison = await compareFunctions(client, files);
await client.end();

if (migrationName) {
  if (comparison.drift.length === 0) {
    process.stdout.write('prisma/functions matches the database: no migration needed.\n');
    process.exit(0);
  }
  // Migrations apply in name order: a new one must sort after every one there, some of which are
  // stamped ahead of the clock.
  const migrationsDir = path.join(import.meta.dirname, '..', 'prisma', 'migrations');
  const newest = (await readdir(migrationsDir))
    .map((name) => /^(\d{14})_/.exec(name)?.[1])
    .filter((s) => s !== undefined)
    .sort()
    .at(-1);
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const stamp = newest !== undefined && newest >= now ? String(BigInt(newest) + 100n) : now;
  const dir = path.join(migrationsDir, `${stamp}_${migrationName}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration.sql'), functionsMigration(files, comparison.drift));
  process.stdout.write(`${path.relative(process.cwd(), dir)}/migration.sql: ${comparison.drift.map((d) => d.name).join(', ')}\n`);
  if (comparison.withoutFile.length > 0) process.stdout.write(`${describeComparison({ drift: [], withoutFile: comparison.withoutFile }).join('\n')}\n`);
} else {
  const problems = describeComparison(comparison);
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\nEdit prisma/functions, then npm run db:functions -- --migration <name> against a migrated database.\n`);
    process.exit(1);
  }
  process.stdout.write(`prisma/functions matches the database (${files.length} functions).\n`);
}
