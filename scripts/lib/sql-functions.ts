// The database's functions live in prisma/functions/<name>.sql, one function per file, its current
// source; migrations only carry copies. This module compares those files with a migrated database and
// writes the migration that brings a database from its current functions to the files':
//   npm run db:functions -- --check                 (DATABASE_URL: a migrated database) exit 1 on drift
//   npm run db:functions -- --migration <name>      write prisma/migrations/<timestamp>_<name>/migration.sql
// test/integration/db-functions.test.ts runs the check on the suite's migrated database, so CI fails
// when a file changed without its migration (or a migration changed a function without its file).
//
// How it compares: inside a transaction that is rolled back, it reads pg_get_functiondef of every
// function of the public schema, runs every file, reads them again. A file that matches the database
// changes nothing; one that differs shows as a changed definition, a new signature (its arguments
// changed: the old one must be dropped), or an error (its result type changed: it must be dropped first).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

export const FUNCTIONS_DIR = path.join(import.meta.dirname, '..', '..', 'prisma', 'functions');

export interface FunctionFile {
  name: string;
  sql: string;
}

/** What one file changes against the database: nothing, or what its migration must do. */
export interface FunctionDrift {
  name: string;
  /** new: no function of that name yet; changed: same signature, other definition; replaced: other signature or result type. */
  kind: 'new' | 'changed' | 'replaced';
  /** The database's signatures of that name, to drop when replaced. */
  dropSignatures: string[];
}

export interface Comparison {
  drift: FunctionDrift[];
  /** Functions of the database that no file defines. */
  withoutFile: string[];
}

export async function readFunctionFiles(dir = FUNCTIONS_DIR): Promise<FunctionFile[]> {
  const names = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(names.map(async (file) => ({ name: file.slice(0, -'.sql'.length), sql: await readFile(path.join(dir, file), 'utf8') })));
}

interface Definition {
  name: string;
  signature: string;
  definition: string;
}

// Functions an extension installed are the extension's, not ours.
async function definitions(client: pg.ClientBase): Promise<Definition[]> {
  const { rows } = await client.query<Definition>(`
    SELECT p.proname AS name, p.oid::regprocedure::text AS signature, pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND p.prokind = 'f'
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`);
  return rows;
}

/** SQL functions are checked against the catalogue when created; the files' order must not matter. */
const NO_BODY_CHECK = 'SET check_function_bodies = off;';

export async function compareFunctions(client: pg.ClientBase, files: FunctionFile[]): Promise<Comparison> {
  await client.query('BEGIN');
  try {
    await client.query(NO_BODY_CHECK.replace('SET', 'SET LOCAL'));
    const before = await definitions(client);
    const drift: FunctionDrift[] = [];
    const resultTypeChanged = new Set<string>();
    for (const file of files) {
      await client.query('SAVEPOINT file');
      try {
        await client.query(file.sql);
        await client.query('RELEASE SAVEPOINT file');
      } catch (error) {
        await client.query('ROLLBACK TO SAVEPOINT file');
        // 42P13: CREATE OR REPLACE cannot change a function's result type; the migration drops it first.
        if ((error as { code?: string }).code !== '42P13') throw new Error(`prisma/functions/${file.name}.sql: ${(error as Error).message}`);
        resultTypeChanged.add(file.name);
      }
    }
    const after = await definitions(client);
    const beforeBySignature = new Map(before.map((d) => [d.signature, d.definition]));
    for (const file of files) {
      const old = before.filter((d) => d.name === file.name);
      const now = after.filter((d) => d.name === file.name);
      if (now.length === 0) throw new Error(`prisma/functions/${file.name}.sql defines no function named ${file.name}`);
      const dropSignatures = old.map((d) => d.signature);
      if (old.length === 0) drift.push({ name: file.name, kind: 'new', dropSignatures: [] });
      else if (resultTypeChanged.has(file.name) || now.length > old.length) drift.push({ name: file.name, kind: 'replaced', dropSignatures });
      else if (now.some((d) => beforeBySignature.get(d.signature) !== d.definition)) drift.push({ name: file.name, kind: 'changed', dropSignatures: [] });
    }
    const named = new Set(files.map((file) => file.name));
    return { drift, withoutFile: before.filter((d) => !named.has(d.name)).map((d) => d.signature) };
  } finally {
    await client.query('ROLLBACK');
  }
}

/** The migration that takes the database to the files: each drifting file, after dropping what it replaces. */
export function functionsMigration(files: FunctionFile[], drift: FunctionDrift[]): string {
  const byName = new Map(files.map((file) => [file.name, file]));
  const parts = [
    "-- Generated by `npm run db:functions -- --migration` from prisma/functions/*.sql (the functions' current",
    '-- source: edit those files, not this copy).',
    NO_BODY_CHECK,
  ];
  for (const item of drift) {
    parts.push('');
    for (const signature of item.dropSignatures) parts.push(`DROP FUNCTION ${signature};`);
    parts.push(`-- prisma/functions/${item.name}.sql`, (byName.get(item.name)?.sql ?? '').trimEnd());
  }
  return `${parts.join('\n')}\n`;
}

export function describeComparison({ drift, withoutFile }: Comparison): string[] {
  return [
    ...drift.map(
      (item) =>
        `prisma/functions/${item.name}.sql: ${item.kind === 'new' ? 'not in the database' : item.kind === 'changed' ? 'differs from the database' : 'changes the signature or result type'}`,
    ),
    ...withoutFile.map((signature) => `${signature}: in the database, but no prisma/functions file defines it`),
  ];
}
