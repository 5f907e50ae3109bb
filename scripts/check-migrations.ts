// Landed migrations are append-only (scripts/lib/migration-ledger.ts says why and how).
//   npm run db:migrations            exit 1 when a listed migration changed or went, or one is not listed
//   npm run db:migrations -- --add   list the new migrations (never changes a line that is there)
import { execFileSync } from 'node:child_process';
import { appendFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkLedger, LEDGER_FILE, ledgerLine, parseLedger, rewrittenLines } from './lib/migration-ledger.ts';

const root = path.resolve(import.meta.dirname, '..');
const migrationsDir = path.join(root, 'prisma/migrations');
const ledgerPath = path.join(root, LEDGER_FILE);

const onDisk = new Map<string, Buffer>();
for (const entry of await readdir(migrationsDir, { withFileTypes: true })) {
  if (entry.isDirectory()) onDisk.set(entry.name, await readFile(path.join(migrationsDir, entry.name, 'migration.sql')));
}
const ledgerText = await readFile(ledgerPath, 'utf8').catch(() => '');
const ledger = parseLedger(ledgerText);
const check = checkLedger(onDisk, ledger);
const problems: string[] = [];
for (const migration of ledger.repeated)
  problems.push(`${migration} is listed more than once in ${LEDGER_FILE}: a migration has one checksum, the one it landed with`);
for (const migration of check.edited) problems.push(`${migration} changed after it landed: restore it and write a new migration instead`);
for (const migration of check.removed) problems.push(`${migration} is in ${LEDGER_FILE} but not in prisma/migrations: a landed migration is never removed`);

// The ledger's own history: a line once written is never changed (where git history is at hand).
let history = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
try {
  // A shallow clone hides the commits that could have rewritten a line: CI fetches the whole history first.
  if (git('rev-parse', '--is-shallow-repository').trim() === 'true')
    problems.push("this clone is shallow: fetch the whole history (git fetch --unshallow) so that the ledger's history can be read");
  history = git('log', '-p', '--format=', '--', LEDGER_FILE);
} catch {
  if (process.env.CI) problems.push("no git history here: CI must check the ledger's history too");
  else process.stderr.write('db:migrations: no git history here; the ledger itself is checked, not its history.\n');
}
for (const line of rewrittenLines(history)) problems.push(`${LEDGER_FILE} once listed "${line.slice(1)}" and no longer does: its lines are never changed`);

if (process.argv.includes('--add') && problems.length === 0 && check.added.length > 0) {
  const lines = check.added.map((migration) => ledgerLine(migration, onDisk.get(migration) ?? ''));
  await appendFile(ledgerPath, `${ledgerText.length > 0 && !ledgerText.endsWith('\n') ? '\n' : ''}${lines.join('\n')}\n`);
  process.stdout.write(`added to ${LEDGER_FILE}: ${check.added.join(', ')}\n`);
  process.exit(0);
}
for (const migration of check.added) problems.push(`${migration} is not in ${LEDGER_FILE} yet: run npm run db:migrations -- --add and commit the line with it`);
if (problems.length > 0) {
  process.stderr.write(`${problems.map((problem) => `db:migrations: ${problem}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`db:migrations: ${onDisk.size} migrations, each as it landed.\n`);
