// The database tools a newcomer runs before anything is configured: without
// DATABASE_URL, `npm run prisma -- migrate …` works on the embedded PostgreSQL that `npm start` uses, and
// `npm run db:url` prints its address. Each runs the real scripts as a child process.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedUrl, isEmbeddedRunning, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { freePort } from '../helpers/ports.ts';

const run = promisify(execFile);

describe('database tools without DATABASE_URL', () => {
  let dataDir: string;
  let port: number;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-newcomer-'));
    // As root, the embedded PostgreSQL runs as `postgres`, which must reach the directory.
    await chmod(dataDir, 0o755);
    port = await freePort();
    env = { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port), NODE_ENV: 'development' };
    delete env.DATABASE_URL;
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const prisma = (...args: string[]) => run(process.execPath, ['scripts/prisma.mjs', ...args], { env, timeout: 120_000 });

  it('npm run db:url prints the embedded database address and says when it is not running', async () => {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/embedded-db.ts', 'url'], { env });
    expect(stdout.trim()).toBe(embeddedUrl(port, 'concord'));
    expect(stdout.trim()).toBe(`postgresql://postgres:concord-embedded@127.0.0.1:${port}/concord`);
    expect(stderr).toContain('is not running');
  });

  // Its child processes may take up to 120 s each on a loaded machine: the test's own limit leaves them that.
  it('npm run prisma -- migrate deploy / status start the embedded PostgreSQL for the command and stop it after', { timeout: 240_000 }, async () => {
    const deploy = await prisma('migrate', 'deploy');
    expect(deploy.stdout).toMatch(/migrations have been successfully applied|No pending migrations/);
    expect(await isEmbeddedRunning(path.join(dataDir, 'postgres'))).toBe(false);
    const status = await prisma('migrate', 'status');
    expect(status.stdout).toContain('Database schema is up to date');
    expect(await isEmbeddedRunning(path.join(dataDir, 'postgres'))).toBe(false);
  });

  it('uses the embedded PostgreSQL a running server started, and leaves it running', async () => {
    const databaseDir = path.join(dataDir, 'postgres');
    const server = await startEmbeddedPostgres({ databaseDir, port, persistent: true });
    try {
      const status = await prisma('migrate', 'status');
      expect(status.stdout).toContain('Database schema is up to date');
      expect(await isEmbeddedRunning(databaseDir)).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
