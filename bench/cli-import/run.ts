// bench/cli-import: `concord import` of a 1 000 000-row CSV. See bench/README.md.
//
// 1. bench:ingest's sustained figure on this server, in this run (bench/ingest/sustained.ts).
// 2. The CLI, built as shipped (scripts/build-package.mjs), imports the CSV as its own process: wall time,
//    throughput, and its RSS (VmRSS from /proc every 50 ms) from the first progress line (modules
//    loaded, file surveyed, service reached) to the end.
// 3. Another buyer imports the same file; the CLI is killed (SIGKILL) half-way and the same command run
//    again to completion; the buyer's tasks are then counted in the database: duplicates and missing rows.
//
//   npm run bench:cli-import            (BENCH_ROWS=100000 for a quick run; BENCH_SECONDS for step 1)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { batchBody, reviewContent, sustainedIngest } from '../ingest/sustained.ts';
import { api, benchDatabase, fundedBuyer, mustBe, round, rssMb, runBench, startServer } from '../lib.ts';
import { installBuiltPackages } from '../../scripts/lib/packages.ts';

/** A positive whole number from the environment, or `fallback`. */
function wholeNumberFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} takes a positive whole number`);
  return value;
}

const ROWS = wholeNumberFromEnv('BENCH_ROWS', 1_000_000);
const SUSTAINED_SECONDS = wholeNumberFromEnv('BENCH_SECONDS', 20);
const root = path.resolve(import.meta.dirname, '../..');
const log = (message: string) => process.stderr.write(`[cli-import] ${message}\n`);

/** The CSV: the very rows bench:ingest posts (one tag per 1 000), so both measure the same work. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write('type,content,options\n');
  const options = batchBody('x').tasks[0]?.options.join('|') ?? 'positive|negative|neutral';
  for (let row = 0; row < rows; row++) {
    const line = `SENTIMENT_ANALYSIS,"${reviewContent(`csv${Math.floor(row / 1_000)}`, row % 1_000)}",${options}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The CLI built as shipped (with the SDK and the contract), in a folder whose node_modules resolve to the repository's. */
async function buildCli(work: string): Promise<string> {
  const { cli } = (await installBuiltPackages(path.join(work, 'node_modules'), ['contract', 'sdk', 'cli'])) as { cli: string };
  return path.join(cli, 'bin/concord.mjs');
}

async function apiKeyOf(base: string, token: string): Promise<string> {
  const res = await api<{ apiKey: { secret: string } }>(base, 'POST', '/api-keys', { name: 'bench' }, token);
  if (res.status !== 201) throw new Error(`API key creation failed: ${res.status}`);
  return res.body.apiKey.secret;
}

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  seconds: number;
  rssGrowthMb: number;
  rssPeakMb: number;
}

/**
 * Runs `concord import FILE --json` for the buyer, sampling its RSS; `killWhen` is polled every 50 ms and
 * SIGKILLs the process when it says so.
 */
async function runCli(bin: string, file: string, env: Record<string, string>, killWhen?: () => Promise<boolean>): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'import', file, '--json'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let baseline: number | undefined;
  let peak = 0;
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let running = true;
  void exited.then(() => (running = false));
  const pid = child.pid as number;
  const sampler = (async () => {
    while (running) {
      const mb = await rssMb(pid).catch(() => undefined);
      if (mb !== undefined && mb > 0) {
        // The first progress line: modules loaded, the file surveyed, the service reached. Growth is counted from there.
        if (baseline === undefined && /^import: /m.test(stderr)) baseline = mb;
        if (baseline !== undefined) peak = Math.max(peak, mb);
      }
      if (killWhen && running && (await killWhen())) child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const [code, signal] = await exited;
  await sampler;
  return { code, signal, stdout, seconds: (performance.now() - started) / 1000, rssGrowthMb: baseline === undefined ? 0 : peak - baseline, rssPeakMb: peak };
}

async function createdSoFar(stateDir: string): Promise<number> {
  const dir = path.join(stateDir, 'concord', 'imports');
  // The checkpoint is <import id>.json (replaced by renaming a temporary file over it).
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    try {
      return (JSON.parse(await readFile(path.join(dir, name), 'utf8')) as { created: number }).created;
    } catch {
      return 0;
    }
  }
  return 0;
}

async function main() {
  await mkdir(path.join(root, 'node_modules/.cache'), { recursive: true });
  const work = await mkdtemp(path.join(root, 'node_modules/.cache', 'concord-bench-cli-'));
  const database = await benchDatabase('cli_import');
  const server = await startServer(database.url);
  try {
    const csv = path.join(work, 'tasks.csv');
    log(`writing a ${ROWS}-row CSV; building the CLI`);
    const [bin] = await Promise.all([buildCli(work), writeCsv(csv, ROWS)]);

    log(`(1) bench:ingest's sustained figure: 16 clients for ${SUSTAINED_SECONDS} s`);
    const ingestBuyer = await fundedBuyer(server.url, 1_000_000_000);
    const sustainedTasksPerSec = await sustainedIngest(server.url, ingestBuyer.token, SUSTAINED_SECONDS, log);
    log(`sustained: ${Math.round(sustainedTasksPerSec)} tasks/s`);

    log('(2) concord import');
    const first = await fundedBuyer(server.url, ROWS * 20 + 10_000);
    const firstEnv = {
      CONCORD_URL: server.url,
      CONCORD_API_KEY: await apiKeyOf(server.url, first.token),
      XDG_CONFIG_HOME: path.join(work, 'config'),
      XDG_STATE_HOME: path.join(work, 'state-1'),
    };
    const timed = await runCli(bin, csv, firstEnv);
    const summary = JSON.parse(timed.stdout) as { created: number; refused: number };
    if (timed.code !== 0 || summary.created !== ROWS) throw new Error(`the import failed: exit ${timed.code}, ${timed.stdout}`);
    log(`import: ${ROWS} rows in ${round(timed.seconds)} s, RSS peak ${round(timed.rssPeakMb, 1)} MB (+${round(timed.rssGrowthMb, 1)} MB)`);

    log('(3) the same import for another buyer, SIGKILLed half-way, then run again');
    const second = await fundedBuyer(server.url, ROWS * 20 + 10_000);
    const stateDir = path.join(work, 'state-2');
    const secondEnv = {
      CONCORD_URL: server.url,
      CONCORD_API_KEY: await apiKeyOf(server.url, second.token),
      XDG_CONFIG_HOME: path.join(work, 'config'),
      XDG_STATE_HOME: stateDir,
    };
    const killed = await runCli(bin, csv, secondEnv, async () => (await createdSoFar(stateDir)) >= ROWS / 2);
    if (killed.signal !== 'SIGKILL') throw new Error(`the import was meant to be killed half-way, but ended: exit ${killed.code}`);
    log(`killed with ${await createdSoFar(stateDir)} tasks in the checkpoint`);
    const resumed = await runCli(bin, csv, secondEnv);
    if (resumed.code !== 0) throw new Error(`the resumed import failed: exit ${resumed.code}, ${resumed.stdout}`);
    log(`resumed: ${resumed.stdout.trim()}`);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client
      .query<{ total: number; distinct: number }>('SELECT count(*)::int AS total, count(DISTINCT content)::int AS distinct FROM tasks WHERE buyer_id = $1', [
        second.id,
      ])
      .finally(() => client.end());
    const counted = rows[0] as { total: number; distinct: number };

    const result = {
      bench: 'cli-import',
      rows: ROWS,
      seconds: round(timed.seconds),
      tasksPerSec: Math.round(ROWS / timed.seconds),
      sustainedIngestTasksPerSec: Math.round(sustainedTasksPerSec),
      rssGrowthMb: round(timed.rssGrowthMb, 1),
      resumedDuplicates: counted.total - counted.distinct,
      resumedMissing: ROWS - counted.distinct,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    mustBe('resumedDuplicates', result.resumedDuplicates);
    mustBe('resumedMissing', result.resumedMissing);
  } finally {
    await server.stop();
    await database.stop();
    await rm(work, { recursive: true, force: true });
  }
}

runBench(main);
