// The real `npm start`, with no DATABASE_URL: embedded PostgreSQL under DATA_DIR, data kept across a
// restart, and a graceful exit on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../helpers/factories.ts';
import { freePort } from '../helpers/ports.ts';

let dataDir: string;
let port: number;
let pgPort: number;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'concord-start-'));
  await chmod(dataDir, 0o755);
  port = await freePort();
  pgPort = await freePort();
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves when every process of the group has closed its output, i.e. the server has exited. */
  closed: Promise<void>;
}

async function startServer(extraEnv: Record<string, string> = {}): Promise<Started> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && key !== 'DATABASE_URL' && !key.startsWith('VITEST') && key !== 'NODE_ENV') env[key] = value;
  }
  Object.assign(env, { PORT: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), LOG_LEVEL: 'info' }, extraEnv);
  // Its own process group, so SIGTERM reaches npm, tsx and the server alike, as a terminal or a
  // container runtime would deliver it.
  const child = spawn('npm', ['start', '--silent'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) return { child, output: () => output, closed };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (child.pid) process.kill(-child.pid, 'SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

/** SIGTERM to the group; resolves with the server's own last log lines once it has exited. */
async function stopServer(server: Started): Promise<string> {
  if (server.child.pid) process.kill(-server.child.pid, 'SIGTERM');
  await server.closed;
  return server.output();
}

const post = (pathname: string, body: object) =>
  fetch(`http://127.0.0.1:${port}/api/v1${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('npm start without DATABASE_URL', () => {
  it('serves on an embedded PostgreSQL, keeps data across a restart and exits 0 on SIGTERM', { timeout: 180_000 }, async () => {
    const email = uniqueEmail('restart');
    const first = await startServer();
    const registered = await post('/auth/register', { email, password: PASSWORD, companyName: 'Persistent' });
    expect(registered.status).toBe(201);
    const firstLog = await stopServer(first);
    // server.stopped is logged right before process.exit(0); a failed drain logs shutdown.failed.
    expect(firstLog).toContain('"event":"server.stopped"');
    expect(firstLog).not.toContain('shutdown.failed');
    expect(firstLog).not.toContain(PASSWORD);

    // Development with no ADMIN_EMAIL/ADMIN_PASSWORD: a local admin was created once, its credentials
    // printed and kept under DATA_DIR (contract §1).
    // The log names the dashboard's admin log-in page and the API route, in a box (one JSON line here).
    const created =
      /Log in at http:\/\/localhost:\d+\/admin\/login \(or POST \/api\/v1\/admin\/login\) with[\s\S]*?e-mail +(\S+)[\s\S]*?password +(\S+)[\s\S]*?Kept in (\S+?);/.exec(
        firstLog,
      );
    expect(created).not.toBeNull();
    const [, adminEmail, adminPassword, file] = created as RegExpExecArray;
    expect(JSON.parse(await readFile(file as string, 'utf8'))).toEqual({ email: adminEmail, password: adminPassword });
    expect((await stat(file as string)).mode & 0o777).toBe(0o600);

    const second = await startServer();
    try {
      expect(second.output()).not.toContain(adminPassword);
      expect(second.output()).toContain('"event":"admin.local.exists"');
      expect((await post('/admin/login', { email: adminEmail, password: adminPassword })).status).toBe(200);
      const login = await post('/auth/login', { email, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { buyer: { companyName: string } }).buyer.companyName).toBe('Persistent');
    } finally {
      expect(await stopServer(second)).toContain('"event":"server.stopped"');
    }
  });
});

/** Every process descended from `pid`, read from /proc. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1];
    if (ppid) parents.set(Number(entry), Number(ppid));
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portFree = (p: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(p, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

describe('stopping npm start', () => {
  it.each([
    // `kill <pid>` or a supervisor that signals npm alone (npm exits without passing it on).
    ['SIGTERM to the npm process', 'SIGTERM', 'process'],
    // Ctrl-C: the terminal sends SIGINT to the whole foreground process group.
    ['Ctrl-C (SIGINT to the process group)', 'SIGINT', 'group'],
  ] as const)('%s stops the server and the embedded PostgreSQL: the ports are free, no child survives', { timeout: 120_000 }, async (_name, signal, target) => {
    const server = await startServer();
    const pid = server.child.pid as number;
    const children = await descendants(pid);
    expect(children.length).toBeGreaterThan(2); // the shell, node, postgres and its workers
    process.kill(target === 'group' ? -pid : pid, signal);
    await server.closed;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && children.some(alive)) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(children.filter(alive)).toEqual([]);
    expect(await portFree(port)).toBe(true);
    expect(await portFree(pgPort)).toBe(true);
    expect(server.output(), server.output().slice(-3_000)).toContain('"event":"server.stopped"');
  });
});

describe.runIf(process.getuid?.() === 0)('as root, with the data in a directory other users cannot enter', () => {
  it('stops with a message that says why and what to do, not a bare EACCES', { timeout: 60_000 }, async () => {
    const closed = await mkdtemp(path.join(os.tmpdir(), 'concord-closed-'));
    await chmod(closed, 0o700);
    await mkdir(path.join(closed, 'data'));
    try {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) {
        if (value !== undefined && key !== 'DATABASE_URL' && !key.startsWith('VITEST') && key !== 'NODE_ENV') env[key] = value;
      }
      Object.assign(env, { PORT: String(port), DATA_DIR: path.join(closed, 'data'), EMBEDDED_PG_PORT: String(pgPort) });
      const child = spawn('npm', ['start', '--silent'], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).not.toBe(0);
      expect(output).toContain(`cannot enter ${closed}`);
      expect(output).toMatch(/Run Concord as a non-root user/);
      expect(output).not.toContain('EACCES');
    } finally {
      await rm(closed, { recursive: true, force: true });
    }
  });
});
