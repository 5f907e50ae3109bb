// The memberships migration on a database in use: every migration before it applied, buyers with money,
// ledgers, projects and API keys written, then the migration. Every buyer becomes an organisation whose
// founder is its only owner, and not one balance, ledger row or resource changes.
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseNameOf, withDatabase } from '../helpers/database-names.ts';

const MIGRATION = '20261128070000_memberships';
const TRIGGER = '20261128074500_founder_membership_trigger';
const migrationsDir = path.resolve(import.meta.dirname, '../../prisma/migrations');

const base = inject('databaseUrl');
const name = `${databaseNameOf(base)}_mig_${randomBytes(4).toString('hex')}`;
let db: pg.Client;

async function onServer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

const migrationSql = (migration: string) => readFile(path.join(migrationsDir, migration, 'migration.sql'), 'utf8');

beforeAll(async () => {
  await onServer(`CREATE DATABASE "${name}"`);
  db = new pg.Client({ connectionString: withDatabase(base, name) });
  await db.connect();
  const migrations = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  expect(migrations).toContain(MIGRATION);
  for (const migration of migrations.filter((m) => m < MIGRATION)) await db.query(await migrationSql(migration));
}, 120_000);

afterAll(async () => {
  await db?.end();
  await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

/** Everything a buyer owns that the migration must leave as it was. */
const snapshot = async () => ({
  buyers: (await db.query('SELECT id, company_name, credit_balance, reserved_cents FROM buyers ORDER BY id')).rows,
  ledger: (await db.query('SELECT id, buyer_id, type, amount_cents, balance_after_cents, seq FROM ledger_entries ORDER BY id')).rows,
  projects: (await db.query('SELECT id, buyer_id, name FROM projects ORDER BY id')).rows,
  keys: (await db.query('SELECT id, buyer_id, name FROM buyer_api_keys ORDER BY id')).rows,
  accounts: (await db.query('SELECT id, email, role, token_version FROM accounts ORDER BY id')).rows,
});

describe(`migration ${MIGRATION} on a populated database`, () => {
  it('makes every buyer an organisation with its founder as its only owner, and moves no money or resource', async () => {
    for (let i = 0; i < 5; i++) {
      const id = `buyer-${i}`;
      await db.query(`INSERT INTO accounts (id, email, role) VALUES ($1, $2, 'BUYER')`, [id, `${id}@example.test`]);
      await db.query(`INSERT INTO buyers (id, company_name, credit_balance, reserved_cents) VALUES ($1, $2, $3, $4)`, [id, `Company ${i}`, 1_000 * i, 20 * i]);
      if (i > 0) {
        await db.query(`INSERT INTO ledger_entries (id, buyer_id, type, amount_cents, balance_after_cents) VALUES ($1, $2, 'DEPOSIT', $3, $3)`, [
          `ledger-${i}`,
          id,
          1_000 * i,
        ]);
      }
      await db.query(`INSERT INTO projects (id, buyer_id, name) VALUES ($1, $2, 'Birds')`, [`project-${i}`, id]);
      await db.query(`INSERT INTO buyer_api_keys (id, buyer_id, name, prefix, secret_hash) VALUES ($1, $2, 'ci', 'cnc_test_abcde', $3)`, [
        `key-${i}`,
        id,
        String(i).repeat(64),
      ]);
    }
    // Accounts that are no buyer's get no membership.
    await db.query(`INSERT INTO accounts (id, email, role) VALUES ('dev-1', 'dev-1@example.test', 'DEVELOPER'), ('admin-1', 'admin-1@example.test', 'ADMIN')`);
    const before = await snapshot();

    await db.query(await migrationSql(MIGRATION));

    expect(await snapshot()).toEqual(before);
    const memberships = await db.query('SELECT account_id, buyer_id, role::text AS role, invited_by FROM memberships ORDER BY buyer_id');
    expect(memberships.rows).toEqual(before.buyers.map((buyer) => ({ account_id: buyer.id, buyer_id: buyer.id, role: 'owner', invited_by: null })));
  });

  it('and the trigger after it: a buyer a server from before organisations registered in between, and every later one, has its owner', async () => {
    const owners = async (id: string) => (await db.query(`SELECT role::text AS role FROM memberships WHERE account_id = $1 AND buyer_id = $1`, [id])).rows;
    // Registered by old code after the backfill: no membership row.
    await db.query(`INSERT INTO accounts (id, email, role) VALUES ('late', 'late@example.test', 'BUYER')`);
    await db.query(`INSERT INTO buyers (id, company_name) VALUES ('late', 'Late Co')`);
    expect(await owners('late')).toEqual([]);
    const all = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    for (const migration of all.filter((m) => m > MIGRATION && m <= TRIGGER)) await db.query(await migrationSql(migration));
    expect(await owners('late')).toEqual([{ role: 'owner' }]);
    await db.query(`INSERT INTO accounts (id, email, role) VALUES ('next', 'next@example.test', 'BUYER')`);
    await db.query(`INSERT INTO buyers (id, company_name) VALUES ('next', 'Next Co')`);
    expect(await owners('next')).toEqual([{ role: 'owner' }]);
  });
});
