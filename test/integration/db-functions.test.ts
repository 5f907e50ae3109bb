// prisma/functions holds every database function's current source: the suite's
// migrated database must define exactly what the files say. A file edited without its migration (or a
// migration that changes a function without its file) fails here, and so CI.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareFunctions, describeComparison, functionsMigration, readFunctionFiles, type FunctionFile } from '../../scripts/lib/sql-functions.ts';
import { workerDatabaseUrl } from '../helpers/context.ts';

describe('prisma/functions against the migrated database', () => {
  const client = new pg.Client({ connectionString: workerDatabaseUrl() });
  let files: FunctionFile[];
  beforeAll(async () => {
    await client.connect();
    files = await readFunctionFiles();
  });
  afterAll(() => client.end());

  it('match: every function has a file and every file its function, definitions equal', async () => {
    const comparison = await compareFunctions(client, files);
    expect(describeComparison(comparison)).toEqual([]);
    expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(['sdk_next', 'sdk_answer', 'sdk_next_batch', 'sdk_answer_batch', 'settle_task']));
  });

  it('a changed body, a changed signature and a missing file are each reported, and the migration drops what it replaces', async () => {
    const edited = files.map((file) => {
      if (file.name === 'record_event') return { ...file, sql: file.sql.replace('BEGIN', 'BEGIN\n  -- edited') };
      if (file.name === 'label_counts_add') return { ...file, sql: file.sql.replace('b double precision[])', 'b double precision[], c integer)') };
      return file;
    });
    const comparison = await compareFunctions(
      client,
      edited.filter((file) => file.name !== 'sdk_annotator'),
    );
    expect(comparison.drift).toEqual([
      { name: 'label_counts_add', kind: 'replaced', dropSignatures: ['label_counts_add(double precision[],double precision[])'] },
      { name: 'record_event', kind: 'changed', dropSignatures: [] },
    ]);
    expect(comparison.withoutFile).toEqual(['sdk_annotator(text,text,text,timestamp with time zone)']);
    const migration = functionsMigration(edited, comparison.drift);
    expect(migration).toContain('DROP FUNCTION label_counts_add(double precision[],double precision[]);');
    expect(migration).toContain('-- edited');
    // The comparison rolled back: the database still matches the files.
    expect(describeComparison(await compareFunctions(client, files))).toEqual([]);
  });

  it('a changed result type is reported as a replacement, not an error', async () => {
    // Bodies are not checked here (check_function_bodies is off), so only the result type matters.
    const edited = files.map((file) => (file.name === 'label_scope_options' ? { ...file, sql: file.sql.replace('RETURNS text[]', 'RETURNS text') } : file));
    const comparison = await compareFunctions(client, edited);
    expect(comparison.drift).toEqual([{ name: 'label_scope_options', kind: 'replaced', dropSignatures: ['label_scope_options(text[])'] }]);
  });
});
