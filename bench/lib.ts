// Shared by the benchmarks: a PostgreSQL (DATABASE_URL or an embedded one), a migrated database, and
// the real server started as its own process so load generation does not share its event loop.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, stopEmbeddedOnSignals, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { applyMigrations } from '../src/db/migrate.ts';
import { freePort } from '../test/helpers/ports.ts';

export const BENCH_JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
export const ADMIN = { email: 'bench-admin@concord.test', password: 'bench admin password' };

export interface BenchDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A fresh, migrated database named `concord_bench_<name>` on DATABASE_URL's server or an embedded one. */
export async function benchDatabase(name: string): Promise<BenchDatabase> {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'concord-bench-pg-'));
    stopEmbeddedOnSignals();
    await chmod(dir, 0o755);
    embedded = await startEmbeddedPostgres({
      databaseDir: path.join(dir, 'data'),
      port: await freePort(),
      persistent: false,
    });
    serverUrl = embedded.urlFor('postgres');
  }
  const database = `concord_bench_${name}`;
  const adminUrl = withDatabase(serverUrl, 'postgres');
  const drop = `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`;
  // A run that was killed may have left its database behind: start from a fresh one.
  await onAdmin(adminUrl, drop, `CREATE DATABASE ${database}`);
  const url = withDatabase(serverUrl, database);
  await applyMigrations(url);
  return {
    url,
    async stop() {
      if (embedded) await embedded.stop();
      else await onAdmin(adminUrl, drop);
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function onAdmin(adminUrl: string, ...statements: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface BenchServer {
  url: string;
  pid: number;
  /** SIGTERM: a graceful stop. */
  stop(): Promise<void>;
  /** Sends `signal` and resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the server in production mode against the database; resolves once /readyz answers. `compiled`
 * runs the build (`npm run build` first) as production does, instead of the TypeScript sources via tsx.
 */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: { compiled?: boolean; port?: number } = {},
): Promise<BenchServer> {
  const port = options.port ?? (await freePort());
  if (options.compiled) execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const entry = options.compiled ? ['dist/server.js'] : ['--conditions=source', '--import', 'tsx', 'src/server.ts'];
  const child: ChildProcess = spawn(process.execPath, [...(process.env.BENCH_SERVER_ARGS ?? '').split(' ').filter(Boolean), ...entry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      JWT_SECRET: BENCH_JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000',
      // Benches credit buyers through the sandbox; production refuses it unless this says so.
      PAYMENT_PROVIDER: 'sandbox',
      ALLOW_SANDBOX_PAYMENTS: 'true',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (
      (await fetch(`${url}/readyz`).then(
        (r) => r.status,
        () => 0,
      )) === 200
    ) {
      const kill = (signal: NodeJS.Signals) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill(signal);
        });
      return { url, pid: child.pid ?? 0, stop: () => kill('SIGTERM'), kill };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

export async function api<T = unknown>(base: string, method: string, pathname: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/api/v1${pathname}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A buyer with `cents` of credit, funded through the admin route. */
export async function fundedBuyer(base: string, cents: number): Promise<{ id: string; token: string }> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@concord.test`;
  const reg = await api<{ token: string; buyer: { id: string } }>(base, 'POST', '/auth/register', { email, password: 'bench password', companyName: 'Bench' });
  const admin = await api<{ token: string }>(base, 'POST', '/admin/login', ADMIN);
  const credit = await api(base, 'POST', `/admin/buyers/${reg.body.buyer.id}/credits`, { amountCents: cents, reason: 'bench' }, admin.body.token);
  if (credit.status !== 201) throw new Error(`funding failed: ${JSON.stringify(credit.body)}`);
  return { id: reg.body.buyer.id, token: reg.body.token };
}

/**
 * A load generator's HTTP client: node:http over keep-alive sockets. Load generation shares the two
 * cores with the server and PostgreSQL, and `fetch` (undici) costs ~335 µs of CPU per request here
 * against ~105 µs for this (measured against a hello-world server), so the benchmarks that count
 * requests use this one.
 */
export class LoadClient {
  private readonly agent: http.Agent;
  private readonly target: URL;

  constructor(base: string, sockets: number) {
    this.target = new URL(base);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  request(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.target.hostname,
          port: this.target.port,
          path,
          method,
          agent: this.agent,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** /proc/<pid>/stat's fields after the command name (field 3 of proc(5) is index 0); none once it has ended. */
export async function statFields(pid: number): Promise<string[]> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return text.slice(text.lastIndexOf(') ') + 2).split(' ');
}

/** CPU time a process has used, in milliseconds (utime + stime, 100 ticks a second); with its reaped children's when asked. */
export async function cpuMs(pid: number, reapedChildren = false): Promise<number> {
  const f = await statFields(pid);
  return (Number(f[11]) + Number(f[12]) + (reapedChildren ? Number(f[13]) + Number(f[14]) : 0)) * 10;
}

/** Resident set size of a process, in megabytes (Linux). */
export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** `--name N` from the command line: a positive whole number, or `fallback` when absent. */
export function wholeNumberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

const broken: string[] = [];

/**
 * A correctness figure of the run (answers over the limit, tasks charged twice, deliveries lost …): any
 * value but `expected` makes the bench exit 1 once it has printed its line. Speed figures are never checked
 * this way: they differ between machines, and the bench's own line says how they compare with its floor.
 */
export function mustBe(name: string, actual: unknown, expected: unknown = 0): void {
  if (actual !== expected) broken.push(`${name}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

/** Runs a benchmark's main function; a failure, or a broken `mustBe`, prints why and exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => {
      for (const line of broken) process.stderr.write(`BROKEN ${line}\n`);
      process.exit(broken.length > 0 ? 1 : 0);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
