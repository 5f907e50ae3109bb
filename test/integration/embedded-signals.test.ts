// A tool that owns an embedded PostgreSQL (a bench, the crash check, scripts/embedded-db.ts) and is ended
// by a signal stops its server: the process's `exit` listener does not run when a signal kills it, and
// the package's own signal hooks are removed (src/db/embedded.ts).
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('an embedded PostgreSQL owned by a tool', () => {
  it('is stopped when the tool is ended by SIGTERM, and the tool still ends by that signal', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'concord-signal-pg-'));
    dirs.push(dir);
    await chmod(dir, 0o755);
    const databaseDir = path.join(dir, 'data');
    const source = `
      const { startEmbeddedPostgres, stopEmbeddedOnSignals } = await import('./src/db/embedded.ts');
      stopEmbeddedOnSignals();
      await startEmbeddedPostgres({ databaseDir: ${JSON.stringify(databaseDir)}, port: ${await freePort()}, persistent: true });
      console.log('ready');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
      child.once('exit', (code) => reject(new Error(`the tool exited (${code}) before its server was ready: ${stderr}`)));
    });
    const postmaster = Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(alive(postmaster)).toBe(true);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    const deadline = Date.now() + 30_000;
    while (alive(postmaster) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(postmaster)).toBe(false);
  });

  it('stops at once when its PostgreSQL has already ended (Ctrl-C reaches the whole process group)', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'concord-gone-pg-'));
    dirs.push(dir);
    await chmod(dir, 0o755);
    const databaseDir = path.join(dir, 'data');
    const { startEmbeddedPostgres } = await import('../../src/db/embedded.ts');
    const database = await startEmbeddedPostgres({ databaseDir, port: await freePort(), persistent: true });
    const pid = Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    process.kill(pid, 'SIGINT');
    while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
    // Before, stop() waited for an exit that had already happened, until the caller's grace ran out.
    const outcome = await Promise.race([
      database.stop().then(() => 'stopped'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 20 s'), 20_000).unref()),
    ]);
    expect(outcome).toBe('stopped');
  });
});
