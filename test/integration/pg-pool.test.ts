// The raw-SQL pool survives the database ending its connections, idle or checked out (a restart, a failover, a shutdown): the lost
// connection is reported and dropped, the next query opens a new one, and the process does not crash
// (pg-pool's 'error' event with no listener throws).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPgPool } from '../../src/db/pg-executor.ts';
import { workerDatabaseUrl } from '../helpers/context.ts';

describe('createPgPool', () => {
  it('reports an idle connection the server terminates and keeps serving queries', async () => {
    const lost: Error[] = [];
    const pool = createPgPool(workerDatabaseUrl(), 2, (error) => lost.push(error));
    const admin = new pg.Client({ connectionString: workerDatabaseUrl() });
    await admin.connect();
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pid = rows[0]?.pid;
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The pool notices the terminated backend asynchronously: a busy machine can take more than poll's 1 s default.
      await expect.poll(() => lost.length, { timeout: 15_000 }).toBe(1);
      expect(lost[0]?.message).toMatch(/terminat/);
      const again = await pool.query<{ ok: number }>('SELECT 1 AS ok');
      expect(again.rows[0]?.ok).toBe(1);
    } finally {
      await admin.end();
      await pool.end();
    }
  });

  it('reports a checked-out connection the server terminates between its holder’s queries, and the holder’s next query fails', async () => {
    const lost: Error[] = [];
    const pool = createPgPool(workerDatabaseUrl(), 2, (error) => lost.push(error));
    const admin = new pg.Client({ connectionString: workerDatabaseUrl() });
    await admin.connect();
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      // Without a listener on the client, pg's 'error' event here ended the process. (A checked-out client
      // reports the server's FATAL and then the end of its connection.)
      await expect.poll(() => lost.length > 0, { timeout: 15_000 }).toBe(true);
      expect(lost[0]?.message).toMatch(/terminat/);
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(new Error('lost'));
      expect((await pool.query<{ ok: number }>('SELECT 1 AS ok')).rows[0]?.ok).toBe(1);
    } finally {
      await admin.end();
      await pool.end();
    }
  });
});
