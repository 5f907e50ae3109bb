// The concord CLI as a user runs it: @concord/cli, with the SDK and the contract it depends on, built as
// shipped into a project's node_modules (its `bin` linked as npm links it), every command run as its own process against the real server process on
// PostgreSQL, with its stdout (results, --json), stderr (progress) and exit code captured. Each test has
// its own config and state directories (XDG_CONFIG_HOME, XDG_STATE_HOME), as separate users would.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, verifyWebhookSignature } from '../../sdk/src/index.ts';
import { createIsolatedTestContext, type TestContext } from '../helpers/context.ts';
import { bearer, createAdmin, createBuyer, createDeveloper, fundBuyer, type TestBuyer } from '../helpers/factories.ts';
import { sdk } from '../helpers/sdk.ts';
import { installBuiltPackages } from '../../scripts/lib/packages.ts';
import { spawnServer, waitFor, type ServerProcess } from '../helpers/server-process.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

let ctx: TestContext;
let server: ServerProcess;
let adminToken: string;
/** Under the repository's node_modules, so the package's dependencies resolve as in an install. */
let work: string;
let project: string;
let bin: string;
let db: pg.Client;

beforeAll(async () => {
  // Answers decide at 0.9 (three agreeing new annotators: 0.927); no golden task is ever served.
  ctx = await createIsolatedTestContext({ env: { GOLDEN_RATE: '0', CONSENSUS_THRESHOLD: '0.9' } });
  await mkdir(path.join(root, 'node_modules', '.cache'), { recursive: true });
  work = await mkdtemp(path.join(root, 'node_modules', '.cache', 'concord-cli-test-'));
  project = path.join(work, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'cli-consumer', private: true }));
  let pkg: string;
  [server, { cli: pkg }] = await Promise.all([
    spawnServer(ctx.databaseUrl, { RATE_LIMIT_MAX: '1000000' }),
    installBuiltPackages(path.join(project, 'node_modules'), ['contract', 'sdk', 'cli']) as Promise<{ cli: string }>,
  ]);
  // What npm does for a dependency's "bin": a link in node_modules/.bin.
  const manifest = JSON.parse(await readFile(path.join(pkg, 'package.json'), 'utf8')) as { bin: { concord: string } };
  bin = path.join(pkg, manifest.bin.concord);
  await mkdir(path.join(project, 'node_modules', '.bin'), { recursive: true });
  await symlink(path.relative(path.join(project, 'node_modules', '.bin'), bin), path.join(project, 'node_modules', '.bin', 'concord'));
  adminToken = (await createAdmin(ctx)).token;
  db = new pg.Client({ connectionString: ctx.databaseUrl });
  await db.connect();
}, 180_000);

afterAll(async () => {
  await db?.end();
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface Home {
  dir: string;
  env: Record<string, string>;
}

/** A user's own config and state directories. */
async function newHome(): Promise<Home> {
  const dir = await mkdtemp(path.join(work, 'home-'));
  return { dir, env: { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') } };
}

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  done: Promise<Result>;
}

/** Starts `concord ARGS` as its own process (no terminal: plain progress lines). */
function start(args: string[], home: Home, options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Running {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('VITEST') && !key.startsWith('CONCORD_')) env[key] = value;
  }
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? home.dir,
    env: { ...env, ...home.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  child.stdin?.end(options.input ?? '');
  const done = new Promise<Result>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

const concord = (args: string[], home: Home, options: { env?: Record<string, string>; input?: string } = {}) => start(args, home, options).done;

/** The one JSON document a --json command prints on stdout. */
function json<T = Record<string, unknown>>(result: Result): T {
  const lines = result.stdout.trim().split('\n');
  expect(lines, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toHaveLength(1);
  return JSON.parse(lines[0] as string) as T;
}
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A buyer with `cents` of credit and a buyer API key. */
async function buyerWithKey(cents: number): Promise<TestBuyer & { apiKey: string }> {
  const buyer = await createBuyer(ctx);
  if (cents > 0) await fundBuyer(ctx, adminToken, buyer.id, cents);
  const res = await request(ctx.app).post('/api/v1/api-keys').set(bearer(buyer.token)).send({ name: 'cli' });
  expect(res.status).toBe(201);
  return { ...buyer, apiKey: res.body.apiKey.secret as string };
}

/** The credential for one command, as a script would pass it. */
const as = (buyer: { apiKey: string }, url = server.url) => ({ env: { CONCORD_API_KEY: buyer.apiKey, CONCORD_URL: url } });

async function taskCounts(buyerId: string): Promise<{ total: number; distinct: number }> {
  const { rows } = await db.query<{ total: number; distinct: number }>(
    'SELECT count(*)::int AS total, count(DISTINCT content)::int AS distinct FROM tasks WHERE buyer_id = $1',
    [buyerId],
  );
  return rows[0] as { total: number; distinct: number };
}

/** A CSV of `rows` tasks with distinct contents; `bad` maps a 1-based row to its broken line. */
async function csvFile(home: Home, name: string, rows: number, bad: Record<number, string> = {}): Promise<string> {
  const lines = ['type,content,options,maxCents'];
  for (let row = 1; row <= rows; row++) lines.push(bad[row] ?? `BINARY_CHOICE,"Row ${row}: is it ""fine"", really?",yes|no,20`);
  const file = path.join(home.dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/** The one checkpoint file of `home`, if any. */
async function checkpointFileOf(home: Home): Promise<string | undefined> {
  const dir = path.join(home.env.XDG_STATE_HOME as string, 'concord', 'imports');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json'));
  expect(files.length).toBeLessThanOrEqual(1);
  return files[0] === undefined ? undefined : path.join(dir, files[0]);
}

async function checkpointOf(home: Home): Promise<{ doneBelow: number; complete: boolean; created: number } | undefined> {
  const file = await checkpointFileOf(home);
  if (!file) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as { doneBelow: number; complete: boolean; created: number };
  } catch {
    return undefined; // being replaced
  }
}

/**
 * A proxy in front of the server that answers the POST /tasks/batch of batches numbered below
 * `passBatches` (the number ending the import's Idempotency-Key, `cnc-import-<id>-<n>`) and forwards the
 * later ones but keeps their answers: the service commits them, the CLI never hears back — a connection
 * lost after the commit. By number, not by arrival: with two batches in flight, batch 3 may reach the
 * proxy before batch 2. With `hideProjects`, GET /projects/:id answers 404.
 */
async function startProxy() {
  const state = { passBatches: Number.POSITIVE_INFINITY, answered: 0, withheld: 0, hideProjects: false };
  const proxy = http.createServer((req, res) => {
    if (state.hideProjects && req.method === 'GET' && req.url?.startsWith('/api/v1/projects/')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'PROJECT_NOT_FOUND', message: 'Project not found' } }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const isBatch = req.method === 'POST' && req.url === '/api/v1/tasks/batch';
      const batchNumber = Number(/-(\d+)$/.exec(String(req.headers['idempotency-key'] ?? ''))?.[1] ?? Number.NaN);
      const withhold = isBatch && !(batchNumber < state.passBatches);
      if (isBatch && !withhold) state.answered += 1;
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(key)) headers[key] = value;
      }
      const upstream = await fetch(`${server.url}${req.url}`, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (withhold) {
        state.withheld += 1;
        return; // committed, never answered
      }
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, key) => {
        if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'].includes(key)) out[key] = value;
      });
      res.writeHead(upstream.status, { ...out, 'content-length': String(body.length) }).end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe('the package', () => {
  it('installs a `concord` bin that npx runs', async () => {
    const home = await newHome();
    const { stdout } = await run('npm', ['exec', '--no', '--', 'concord', '--version'], { cwd: project, env: { ...process.env, ...home.env } });
    const { version } = JSON.parse(await readFile(path.join(root, 'packages/cli/package.json'), 'utf8')) as { version: string };
    expect(stdout.trim()).toBe(version);
    expect((await stat(bin)).mode & 0o111).not.toBe(0);
  }, 60_000);

  it('answers a usage error with exit 2, and with --json a JSON error on stdout', async () => {
    const home = await newHome();
    const unknown = await concord(['bogus'], home);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'bogus'");
    const split = await concord(['export', '--format', 'jsonl', '--split', '0.5,0.5,0.5', '--json'], home);
    expect(split.code).toBe(2);
    expect(json(split)).toEqual({ error: { code: 'INVALID_RATIOS', message: expect.stringContaining('sum to 1'), exitCode: 2 } });
    const missing = await concord(['import', 'nowhere.csv', '--json'], home);
    expect(missing.code).toBe(2);
    expect(json<{ error: { code: string } }>(missing).error.code).toBe('ENOENT');
  });
});

describe('concord login / logout', () => {
  it('checks the key with the service and stores it in a file only its user can read', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const result = await concord(['login', '--base-url', server.url, '--json'], home, { input: `${buyer.apiKey}\n` });
    expect(result.code, result.stderr).toBe(0);
    const file = path.join(home.env.XDG_CONFIG_HOME as string, 'concord', 'config.json');
    expect(json(result)).toEqual({
      loggedIn: true,
      baseUrl: server.url,
      buyer: { id: buyer.id, email: buyer.email, companyName: 'Acme Labs' },
      keyPrefix: buyer.apiKey.slice(0, 14),
      configFile: file,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ baseUrl: server.url, apiKey: buyer.apiKey, buyer: { id: buyer.id, email: buyer.email } });

    // Later commands use the stored login; the environment overrides it.
    const balance = await concord(['balance', '--json'], home);
    expect(balance.code).toBe(0);
    expect(json(balance)).toEqual({ creditBalance: 0, reservedCents: 0, availableCents: 0 });
    const overridden = await concord(['balance', '--json'], home, { env: { CONCORD_API_KEY: `cnc_test_${'x'.repeat(43)}` } });
    expect(overridden.code).toBe(3);
    expect(json<{ error: { code: string } }>(overridden).error.code).toBe('UNAUTHORIZED');

    const out = await concord(['logout', '--json'], home);
    expect(out.code).toBe(0);
    expect(json(out)).toEqual({ loggedOut: true, configFile: file });
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    const after = await concord(['balance', '--json'], home);
    expect(after.code).toBe(3);
    expect(json(after)).toEqual({ error: { code: 'NOT_LOGGED_IN', message: expect.stringContaining('concord login'), exitCode: 3 } });
  });

  it('refuses a malformed key (2) and a key the service does not know (3), storing nothing', async () => {
    const home = await newHome();
    const malformed = await concord(['login', '--base-url', server.url, '--api-key', 'not-a-key', '--json'], home);
    expect(malformed.code).toBe(2);
    expect(json<{ error: { code: string } }>(malformed).error.code).toBe('API_KEY_MALFORMED');
    const unknown = await concord(['login', '--base-url', server.url, '--api-key', `cnc_live_${'A'.repeat(43)}`], home);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^error: .*\(request [\w-]+\)$/m);
    await expect(stat(path.join(home.env.XDG_CONFIG_HOME as string, 'concord', 'config.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('concord import', () => {
  it('imports a CSV, reports refused rows in the error report, and exits 4', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(1_000_000);
    const file = await csvFile(home, 'reviews.csv', 2_500, {
      3: 'NOPE,Unknown type,yes|no,20',
      40: 'BINARY_CHOICE,,yes|no,20',
      41: 'BINARY_CHOICE,Only one option,yes,20',
      1_200: 'BINARY_CHOICE,Cheap,yes|no,5',
      2_000: 'BINARY_CHOICE,"Too, many, fields",yes|no,20,extra',
    });
    const result = await concord(['import', file, '--batch-size', '400', '--json'], home, as(buyer));
    expect(result.code, result.stderr).toBe(4);
    const summary = json(result);
    expect(summary).toMatchObject({
      format: 'csv',
      complete: true,
      resumed: false,
      rows: 2_500,
      created: 2_495,
      refused: 5,
      refusedLocally: 5,
      refusedByService: 0,
      batches: 7,
      batchesSent: 7,
      batchesSkipped: 0,
      batchesReplayed: 0,
      errorsFile: `${file}.errors.csv`,
      priceCents: 20,
    });
    expect(await readFile(`${file}.errors.csv`, 'utf8')).toBe(
      [
        'row,code,message',
        '3,INVALID_TYPE,"Unknown task type ""NOPE""; expected one of SENTIMENT_ANALYSIS, IMAGE_CLASSIFICATION, BINARY_CHOICE, AI_RESPONSE_RATING, RELEVANCE_RATING"',
        '40,MISSING_FIELDS,Missing required fields: content',
        '41,OPTIONS_REQUIRED,A task needs at least 2 options',
        '1200,VALIDATION_ERROR,Invalid task: maxCents: Too small: expected number to be >=20',
        '2000,VALIDATION_ERROR,"Expected 4 fields, found 5"',
        '',
      ].join('\n'),
    );
    expect(await taskCounts(buyer.id)).toEqual({ total: 2_495, distinct: 2_495 });
    // Progress went to stderr: a first line, and a last one with the totals.
    expect(result.stderr).toMatch(/^import: 0\/~2,500 rows/m);
    expect(result.stderr).toMatch(/^import: 2,500\/2,500 rows .* 2,495 created · 5 refused$/m);
    // The last progress line's rate is the summary's: one clock, the same rows.
    const lastRate = [...result.stderr.matchAll(/^import: .* · ([\d,]+) rows\/s · /gm)].at(-1)?.[1];
    expect(lastRate).toBe(new Intl.NumberFormat('en-US').format(Number(summary.rowsPerSec)));

    // The same command again creates nothing: every batch is in the checkpoint.
    const again = await concord(['import', file, '--batch-size', '400', '--json'], home, as(buyer));
    expect(again.code).toBe(4);
    expect(json(again)).toMatchObject({ resumed: true, complete: true, created: 2_495, batchesSent: 0, batchesSkipped: 7, refused: 5 });
    expect(await taskCounts(buyer.id)).toEqual({ total: 2_495, distinct: 2_495 });
  });

  it("imports JSONL; a row of another buyer's project is refused, and --project fills the rest", async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(1_000_000);
    const mine = await request(ctx.app).post('/api/v1/projects').set(bearer(buyer.token)).send({ name: 'Mine' });
    const other = await buyerWithKey(0);
    const theirs = await request(ctx.app).post('/api/v1/projects').set(bearer(other.token)).send({ name: 'Theirs' });
    const lines = [
      JSON.stringify({ type: 'SENTIMENT_ANALYSIS', content: 'Lovely', options: ['positive', 'negative'], locale: 'fr' }),
      '{"type": "SENTIMENT_ANALYSIS", "content": ',
      JSON.stringify({ type: 'SENTIMENT_ANALYSIS', content: 'Theirs', options: ['positive', 'negative'], projectId: theirs.body.id }),
      '',
      JSON.stringify({ type: 'SENTIMENT_ANALYSIS', content: 'Typo', options: ['positive', 'negative'], maxcents: 30 }),
      JSON.stringify({ type: 'SENTIMENT_ANALYSIS', content: 'Awful', options: ['positive', 'negative'], maxCents: 40 }),
    ];
    const file = path.join(home.dir, 'reviews.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const result = await concord(['import', file, '--project', mine.body.id, '--json'], home, as(buyer));
    expect(result.code, result.stderr).toBe(4);
    expect(json(result)).toMatchObject({ format: 'jsonl', rows: 5, created: 2, refused: 3 });
    const report = (await readFile(`${file}.errors.csv`, 'utf8')).trim().split('\n');
    expect(report[0]).toBe('row,code,message');
    expect(report.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['2,INVALID_JSON', '3,INVALID_PROJECT', '5,VALIDATION_ERROR']);
    expect(report[3]).toContain('maxcents: Unknown field');
    const { rows } = await db.query('SELECT content, project_id, locale, max_cents FROM tasks WHERE buyer_id = $1 ORDER BY content', [buyer.id]);
    expect(rows).toEqual([
      { content: 'Awful', project_id: mine.body.id, locale: 'en', max_cents: 40 },
      { content: 'Lovely', project_id: mine.body.id, locale: 'fr', max_cents: 20 },
    ]);
  });

  it('imports pairwise rows (their candidates in two columns) and exports the preference format, ties on request', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(1_000);
    const file = path.join(home.dir, 'pairs.csv');
    const header = 'type,content,options,answerKind,candidateA,candidateB,allowTie,group';
    await writeFile(file, `${header}\nAI_RESPONSE_RATING,Say hi,,pairwise,Hi,"Hello, there",true,greetings\nAI_RESPONSE_RATING,Say bye,,pairwise,Bye,,,\n`);
    const result = await concord(['import', file, '--json'], home, as(buyer));
    expect(json(result)).toMatchObject({ rows: 2, created: 1, refused: 1 });
    expect((await readFile(`${file}.errors.csv`, 'utf8')).split('\n')[1]).toMatch(/^2,VALIDATION_ERROR,.*candidates\.B/);
    const { rows } = await db.query('SELECT options, candidates, pair_group FROM tasks WHERE buyer_id = $1', [buyer.id]);
    expect(rows).toEqual([{ options: ['A', 'B', 'tie'], candidates: { A: 'Hi', B: 'Hello, there' }, pair_group: 'greetings' }]);

    // Undecided pairs are not preference lines; --include-ties belongs to the preference format.
    const output = path.join(home.dir, 'pairs.jsonl');
    const exported = await concord(['export', '--format', 'preference', '--include-ties', '-o', output, '--json'], home, as(buyer));
    expect(exported.code, exported.stderr).toBe(0);
    expect(await readFile(output, 'utf8')).toBe('');
    expect((await concord(['export', '--format', 'jsonl', '--include-ties'], home, as(buyer))).code).toBe(2);
  });

  it('--dry-run checks every row and creates nothing', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const file = await csvFile(home, 'dry.csv', 30, { 7: 'BINARY_CHOICE,x,yes|yes,20' });
    const result = await concord(['import', file, '--dry-run', '--batch-size', '10', '--json'], home, as(buyer));
    expect(result.code).toBe(4);
    expect(json(result)).toMatchObject({
      dryRun: true,
      rows: 30,
      refused: 1,
      batches: 3,
      batchesSent: 0,
      reservedCents: 29 * 20,
      checkedAgainstService: true,
      checkpointFile: null,
    });
    expect(await taskCounts(buyer.id)).toEqual({ total: 0, distinct: 0 });
  });

  it('resumes after kill -9, even when the service committed batches whose answers were lost: every row exactly once', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000_000);
    const file = await csvFile(home, 'big.csv', 3_000, { 2_500: 'BINARY_CHOICE,,yes|no,20', 2_800: 'BINARY_CHOICE,Bad budget,yes|no,0' });
    const proxy = await startProxy();
    try {
      proxy.state.passBatches = 8;
      const args = ['import', file, '--batch-size', '100', '--concurrency', '2', '--json'];
      const first = start(args, home, as(buyer, proxy.url));
      // Batches 0–7 answered; 8 and 9 committed by the service, their answers lost; the checkpoint saved.
      await waitFor(async () => proxy.state.withheld === 2 && (await checkpointOf(home))?.doneBelow === 8, 90_000, 'two withheld batches and the checkpoint');
      expect(await taskCounts(buyer.id)).toEqual({ total: 1_000, distinct: 1_000 });
      first.child.kill('SIGKILL');
      expect((await first.done).signal).toBe('SIGKILL');

      // The same command: batches 0–7 skipped, 8 and 9 replayed by the service, the rest created.
      proxy.state.passBatches = Number.POSITIVE_INFINITY;
      const second = await concord(args, home, as(buyer, proxy.url));
      expect(second.code, second.stderr).toBe(4);
      expect(json(second)).toMatchObject({
        complete: true,
        resumed: true,
        rows: 3_000,
        created: 2_998,
        refused: 2,
        batches: 30,
        batchesSkipped: 8,
        batchesSent: 22,
        batchesReplayed: 2,
      });
      expect(second.stderr).toContain('Resuming: 8 batches were committed by an earlier run');
      expect(await taskCounts(buyer.id)).toEqual({ total: 2_998, distinct: 2_998 });
      expect(
        (await readFile(`${file}.errors.csv`, 'utf8'))
          .split('\n')
          .slice(1, 3)
          .map((line) => line.split(',')[0]),
      ).toEqual(['2500', '2800']);
    } finally {
      await proxy.close();
    }
  }, 150_000);

  it('Ctrl-C stops at once with exit 130 and the checkpoint saved; the same command finishes the import', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000_000);
    const file = await csvFile(home, 'interrupted.csv', 1_000);
    const proxy = await startProxy();
    try {
      proxy.state.passBatches = 3;
      const args = ['import', file, '--batch-size', '100', '--concurrency', '2', '--json'];
      const first = start(args, home, as(buyer, proxy.url));
      await waitFor(async () => proxy.state.withheld === 2 && (await checkpointOf(home))?.doneBelow === 3, 90_000, 'two withheld batches');
      first.child.kill('SIGINT');
      const stopped = await first.done;
      expect(stopped.code).toBe(130);
      expect(json(stopped)).toMatchObject({
        error: { code: 'INTERRUPTED', exitCode: 130, summary: { complete: false, created: 300, checkpointFile: expect.any(String) } },
      });
      expect(stopped.stderr).toContain('SIGINT: saving the checkpoint');
      expect(await checkpointOf(home)).toMatchObject({ doneBelow: 3, complete: false, created: 300 });

      proxy.state.passBatches = Number.POSITIVE_INFINITY;
      const second = await concord(args, home, as(buyer, proxy.url));
      expect(second.code, second.stderr).toBe(0);
      expect(json(second)).toMatchObject({ complete: true, created: 1_000, refused: 0, batchesSkipped: 3, batchesReplayed: 2, errorsFile: null });
      expect(await taskCounts(buyer.id)).toEqual({ total: 1_000, distinct: 1_000 });
    } finally {
      await proxy.close();
    }
  }, 150_000);

  it('refuses to resume with another --batch-size, creating nothing; --restart starts over (and creates the rows again)', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000_000);
    const file = await csvFile(home, 'params.csv', 1_000);
    const proxy = await startProxy();
    try {
      proxy.state.passBatches = 3;
      const first = start(['import', file, '--batch-size', '100', '--concurrency', '2', '--json'], home, as(buyer, proxy.url));
      await waitFor(async () => proxy.state.withheld === 2 && (await checkpointOf(home))?.doneBelow === 3, 90_000, 'two withheld batches');
      first.child.kill('SIGKILL');
      await first.done;
      const checkpointFile = await checkpointFileOf(home);
      expect(await taskCounts(buyer.id)).toEqual({ total: 500, distinct: 500 });
      proxy.state.passBatches = Number.POSITIVE_INFINITY;

      // Another --batch-size would cut other batches under other keys: refused, nothing sent.
      const other = await concord(['import', file, '--batch-size', '50', '--json'], home, as(buyer, proxy.url));
      expect(other.code).toBe(2);
      const { error } = json<{ error: Record<string, unknown> }>(other);
      expect(error).toMatchObject({
        code: 'IMPORT_PARAMETERS_CHANGED',
        exitCode: 2,
        checkpointFile,
        differences: [{ parameter: '--batch-size', was: 100, now: 50 }],
      });
      expect(error.message).toContain('--batch-size was 100, now 50');
      expect(error.message).toContain('--restart');
      const human = await concord(['import', file, '--batch-size', '50', '--project', 'proj_x'], home, as(buyer, proxy.url));
      expect(human.code).toBe(2);
      expect(human.stderr).toMatch(/--batch-size was 100, now 50; --project was none, now proj_x\./);
      expect(await taskCounts(buyer.id)).toEqual({ total: 500, distinct: 500 });
      expect(await checkpointOf(home)).toMatchObject({ doneBelow: 3, complete: false, created: 300 });

      // --restart discards the checkpoint: every row is sent again under new keys, as documented.
      const restarted = await concord(['import', file, '--batch-size', '50', '--restart', '--json'], home, as(buyer, proxy.url));
      expect(restarted.code, restarted.stderr).toBe(0);
      expect(restarted.stderr).toContain('--restart: discarded the checkpoint');
      expect(json(restarted)).toMatchObject({ complete: true, resumed: false, created: 1_000, batches: 20, batchesSent: 20, batchesReplayed: 0 });
      expect(await taskCounts(buyer.id)).toEqual({ total: 1_500, distinct: 1_000 });
      expect(await checkpointFileOf(home)).not.toBe(checkpointFile);
      // And the restarted import is the one the same command finds: finished, nothing sent again.
      const again = await concord(['import', file, '--batch-size', '50', '--json'], home, as(buyer, proxy.url));
      expect(again.code, again.stderr).toBe(0);
      expect(json(again)).toMatchObject({ resumed: true, complete: true, created: 1_000, batchesSent: 0, batchesSkipped: 20 });
      expect(await taskCounts(buyer.id)).toEqual({ total: 1_500, distinct: 1_000 });
    } finally {
      await proxy.close();
    }
  }, 150_000);

  it('cuts batches by source rows: a project lookup that changes between runs shifts no batch, and a resume sends every row once', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000_000);
    const mine = await request(ctx.app).post('/api/v1/projects').set(bearer(buyer.token)).send({ name: 'Mine' });
    const withProject = new Set([1, 2, 3, 150]);
    const lines = ['type,content,options,maxCents,projectId'];
    for (let row = 1; row <= 1_000; row++) lines.push(`BINARY_CHOICE,Row ${row},yes|no,20,${withProject.has(row) ? mine.body.id : ''}`);
    const file = path.join(home.dir, 'lookup.csv');
    await writeFile(file, `${lines.join('\n')}\n`);
    const proxy = await startProxy();
    try {
      // First run: the project cannot be found, so rows 1, 2, 3 and 150 are refused; batches 0–2 (rows
      // 1–300) answered, 3 and 4 committed with their answers lost.
      proxy.state.hideProjects = true;
      proxy.state.passBatches = 3;
      const args = ['import', file, '--batch-size', '100', '--concurrency', '2', '--json'];
      const first = start(args, home, as(buyer, proxy.url));
      await waitFor(async () => proxy.state.withheld === 2 && (await checkpointOf(home))?.doneBelow === 3, 90_000, 'two withheld batches');
      first.child.kill('SIGKILL');
      await first.done;
      expect(await taskCounts(buyer.id)).toEqual({ total: 496, distinct: 496 });

      // A checkpoint whose batches end elsewhere than this file's is not skipped by: the import stops.
      const checkpointFile = (await checkpointFileOf(home)) as string;
      const saved = JSON.parse(await readFile(checkpointFile, 'utf8')) as { doneBelowRow: number; refusedByLookup: Array<{ row: number }> };
      expect(saved.doneBelowRow).toBe(300);
      expect(saved.refusedByLookup.map((refused) => refused.row)).toEqual([1, 2, 3, 150]);
      await writeFile(checkpointFile, JSON.stringify({ ...saved, doneBelowRow: 299 }));
      proxy.state.hideProjects = false;
      proxy.state.passBatches = Number.POSITIVE_INFINITY;
      const shifted = await concord(args, home, as(buyer, proxy.url));
      expect(shifted.code).toBe(2);
      expect(json(shifted)).toMatchObject({ error: { code: 'IMPORT_BATCHES_CHANGED', exitCode: 2, batch: 2, summary: { batchesSent: 0 } } });
      expect(await taskCounts(buyer.id)).toEqual({ total: 496, distinct: 496 });
      await writeFile(checkpointFile, JSON.stringify(saved));

      // Second run: the project is found now, yet batches 0–2 still cover rows 1–300 and are skipped (their
      // refusals come from the checkpoint), 3 and 4 are replayed with the same bodies, the rest created.
      const second = await concord(args, home, as(buyer, proxy.url));
      expect(second.code, second.stderr).toBe(4);
      expect(json(second)).toMatchObject({
        complete: true,
        resumed: true,
        rows: 1_000,
        created: 996,
        refused: 4,
        refusedLocally: 4,
        batches: 10,
        batchesSkipped: 3,
        batchesSent: 7,
        batchesReplayed: 2,
      });
      expect(await taskCounts(buyer.id)).toEqual({ total: 996, distinct: 996 });
      const report = (await readFile(`${file}.errors.csv`, 'utf8')).trim().split('\n').slice(1);
      expect(report.map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
        '1,INVALID_PROJECT',
        '2,INVALID_PROJECT',
        '3,INVALID_PROJECT',
        '150,INVALID_PROJECT',
      ]);
    } finally {
      await proxy.close();
    }
  }, 150_000);

  it('stops with exit 5 when the balance runs out, and resumes once topped up', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(500 * 20);
    const file = await csvFile(home, 'credit.csv', 1_000);
    const args = ['import', file, '--batch-size', '100', '--json'];
    const short = await concord(args, home, as(buyer));
    expect(short.code).toBe(5);
    expect(json(short)).toMatchObject({
      error: {
        code: 'INSUFFICIENT_CREDITS',
        exitCode: 5,
        status: 402,
        details: { requiredCents: 2_000, availableCents: 0 },
        summary: { complete: false, created: 500 },
      },
    });
    expect(await taskCounts(buyer.id)).toEqual({ total: 500, distinct: 500 });
    await fundBuyer(ctx, adminToken, buyer.id, 500 * 20);
    const resumed = await concord(args, home, as(buyer));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(json(resumed)).toMatchObject({ complete: true, created: 1_000, batchesSkipped: 5 });
    expect(await taskCounts(buyer.id)).toEqual({ total: 1_000, distinct: 1_000 });
  });
});

describe('concord balance, top-up and export', () => {
  it('balance prints the money fields', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(12_345);
    const text = await concord(['balance'], home, as(buyer));
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('Balance $123.45 · reserved by open tasks $0.00 · available $123.45\n');
  });

  it('caps shows the spending caps; set-monthly and set-project set them (none removes one)', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000);
    expect((await concord(['caps', 'show'], home, as(buyer))).stdout).toBe(
      `Monthly cap (${new Date().toISOString().slice(0, 7)}): no cap ($0.00 committed)\nNo project has a budget cap.\n`,
    );
    const project = await request(ctx.app).post('/api/v1/projects').set(bearer(buyer.token)).send({ name: 'Tickets' });
    const set = await concord(['caps', 'set-project', project.body.id, '0.40'], home, as(buyer));
    expect(set.stdout).toBe(`Project Tickets (${project.body.id}): $0.00 of $0.40 committed\n`);
    const holding = await concord(['caps', 'set-project', project.body.id, '0.40', '--hold'], home, as(buyer));
    expect(holding.stdout).toBe(`Project Tickets (${project.body.id}): $0.00 of $0.40 committed, holding past it (0 held)\n`);
    expect((await concord(['caps', 'set-project', project.body.id, '0.40'], home, as(buyer))).stdout).toMatch(/holding past it/);
    await concord(['caps', 'set-project', project.body.id, '0.40', '--refuse'], home, as(buyer));
    expect(json(await concord(['caps', 'set-monthly', '25', '--json'], home, as(buyer)))).toMatchObject({ capCents: 2_500, committedCents: 0 });
    const create = () =>
      request(ctx.app)
        .post('/api/v1/tasks')
        .set(bearer(buyer.token))
        .send({ type: 'BINARY_CHOICE', content: 'Spam?', options: ['y', 'n'], projectId: project.body.id });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    expect((await create()).body.code).toBe('BUDGET_CAP_REACHED');
    expect((await concord(['caps', 'set-monthly', 'none'], home, as(buyer))).stdout).toMatch(/^Monthly cap \(\d{4}-\d{2}\): no cap \(\$0\.40 committed\)\n$/);
    const usage = await concord(['caps', 'set-monthly', 'lots'], home, as(buyer));
    expect(usage.code).toBe(2);
  });

  it('tasks at-risk lists tasks likely to miss their deadline; tasks schedule changes a deadline or a priority', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000);
    expect((await concord(['tasks', 'at-risk'], home, as(buyer))).stdout).toBe('No open task is at risk of missing its deadline.\n');
    const created = await request(ctx.app)
      .post('/api/v1/tasks')
      .set(bearer(buyer.token))
      .send({ type: 'BINARY_CHOICE', content: 'Spam?', options: ['y', 'n'], deadline: new Date(Date.now() + 3 * 60_000).toISOString() });
    const taskId: string = created.body.taskId;
    const listed = await concord(['tasks', 'at-risk'], home, as(buyer));
    expect(listed.stdout).toMatch(new RegExp(`^${taskId}  PENDING  deadline in [23] min, median completion 5 min \\(no task completed yet: the default\\)\n$`));
    expect(json(await concord(['tasks', 'at-risk', '--json', '--limit', '5'], home, as(buyer)))).toMatchObject({ hasMore: false, tasks: [{ id: taskId }] });

    const later = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const scheduled = await concord(['tasks', 'schedule', taskId, '--deadline', later, '--priority', '-4'], home, as(buyer));
    expect(scheduled.stdout).toBe(`Task ${taskId} (PENDING): deadline ${later}, priority -4\n`);
    expect((await concord(['tasks', 'at-risk'], home, as(buyer))).stdout).toBe('No open task is at risk of missing its deadline.\n');
    expect((await concord(['tasks', 'schedule', taskId, '--deadline', 'none'], home, as(buyer))).stdout).toBe(
      `Task ${taskId} (PENDING): no deadline, priority -4\n`,
    );
    // The contract's rules, before anything is sent.
    for (const args of [['--deadline', new Date(Date.now() + 10_000).toISOString()], ['--priority', '11'], ['--priority', 'high'], []]) {
      const refused = await concord(['tasks', 'schedule', taskId, ...args], home, as(buyer));
      expect(refused.code, args.join(' ')).toBe(2);
    }
  });

  it('tasks reject rejects a completed result: the task is decided again, its charge refunded', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(10_000);
    const created = await request(ctx.app)
      .post('/api/v1/tasks')
      .set(bearer(buyer.token))
      .send({ type: 'BINARY_CHOICE', content: 'Spam?', options: ['y', 'n'] });
    const taskId: string = created.body.taskId;
    // A PENDING task's result cannot be rejected: the service's refusal, as the CLI prints every refusal.
    const early = await concord(['tasks', 'reject', taskId, '--reason', 'Wrong', '--json'], home, as(buyer));
    expect(early.code).not.toBe(0);
    expect(json(early)).toMatchObject({ error: { code: 'TASK_NOT_COMPLETED' } });
    await ctx.prisma.task.update({ where: { id: taskId }, data: { status: 'COMPLETED', result: 'y', confidence: 0.97, validatedAt: new Date() } });
    expect((await concord(['tasks', 'reject', taskId], home, as(buyer))).code).toBe(2);
    const rejected = await concord(['tasks', 'reject', taskId, '--reason', 'It is not spam'], home, as(buyer));
    const row = await ctx.prisma.task.findUniqueOrThrow({ where: { id: taskId } });
    expect(row).toMatchObject({ revision: 2, rejectionReason: 'It is not spam' });
    expect(rejected.stdout).toBe(
      `Task ${taskId}: result "y" rejected; VALIDATING again at target ${row.targetConfidence} (up to ${row.maxResponses} answers), its charge refunded\n`,
    );
  });

  it('top-up creates a deposit and prints its checkout URL; --open hands it to the browser opener; --wait waits for the payment', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const made = await concord(['top-up', '12.50', '--json'], home, as(buyer));
    expect(made.code, made.stderr).toBe(0);
    const { deposit, opened } = json<{ deposit: { amountCents: number; status: string; method: string; checkoutUrl: string }; opened: boolean }>(made);
    expect(deposit).toMatchObject({
      amountCents: 1_250,
      status: 'PENDING',
      method: 'card',
      checkoutUrl: expect.stringMatching(/\/sandbox\/checkout\/[\w-]{20,}$/),
    });
    expect(opened).toBe(false);

    // A fake xdg-open on the PATH records what it was asked to open.
    const binDir = path.join(home.dir, 'bin');
    await mkdir(binDir);
    const opener = path.join(binDir, 'xdg-open');
    await writeFile(opener, `#!/bin/sh\necho "$1" > "${path.join(home.dir, 'opened.txt')}"\n`);
    await chmod(opener, 0o755);
    const human = await concord(['top-up', '20', '--method', 'mobile_money', '--open'], home, {
      env: { ...as(buyer).env, PATH: `${binDir}:${process.env.PATH ?? ''}` },
    });
    expect(human.code, human.stderr).toBe(0);
    const url = /^Pay \$20\.00 at:\n(http\S+)\n$/.exec(human.stdout)?.[1];
    expect(url).toMatch(/\/sandbox\/checkout\//);
    await waitFor(async () => (await readFile(path.join(home.dir, 'opened.txt'), 'utf8').catch(() => '')).trim() === url, 15_000, 'the opener');

    const waiting = start(['top-up', '50', '--wait'], home, as(buyer));
    await waitFor(() => /\/sandbox\/checkout\/\S+\n/.test(waiting.stdout()), 10_000, 'the checkout URL');
    const checkout = new URL((/(http\S+\/sandbox\/checkout\/\S+)\n/.exec(waiting.stdout()) as RegExpExecArray)[1] as string);
    const paid = await fetch(`${server.url}${checkout.pathname}/pay`, { method: 'POST' });
    expect(paid.status).toBe(200);
    const done = await waiting.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('Paid: $50.00 credited. Available now: $50.00.');
  }, 30_000);

  it('export streams a dataset to a file (a ZIP for a split), with its progress on stderr', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(1_000_000);
    const file = await csvFile(home, 'to-export.csv', 40);
    expect((await concord(['import', file], home, as(buyer))).code).toBe(0);

    const output = path.join(home.dir, 'pending.jsonl');
    const plain = await concord(['export', '--format', 'jsonl', '--status', 'PENDING', '-o', output, '--json'], home, as(buyer));
    expect(plain.code, plain.stderr).toBe(0);
    const written = await readFile(output, 'utf8');
    expect(json(plain)).toMatchObject({
      file: output,
      filename: 'tasks-jsonl.jsonl',
      contentType: expect.stringContaining('application/x-ndjson'),
      bytes: Buffer.byteLength(written),
    });
    const records = jsonLines(written);
    expect(records).toHaveLength(40);
    expect(new Set(records.map((record) => record.content)).size).toBe(40);
    expect(plain.stderr).toMatch(/^export: \d+(\.\d+)? (B|KiB) · /m);
    await expect(stat(`${output}.partial`)).rejects.toMatchObject({ code: 'ENOENT' });

    const split = await concord(['export', '--format', 'csv', '--status', 'PENDING', '--split', '0.5,0.25,0.25', '--seed', 's1'], home, as(buyer));
    expect(split.code, split.stderr).toBe(0);
    expect(split.stdout).toMatch(/^Exported .* \(application\/zip\) to .*tasks-csv\.zip in .*: train 20, val 10, test 10\.$/m);
    const zip = new AdmZip(path.join(home.dir, 'tasks-csv.zip'));
    const sizes = Object.fromEntries(zip.getEntries().map((entry) => [entry.entryName, entry.getData().toString('utf8').trim().split('\n').length - 1]));
    expect(sizes).toEqual({ 'train.csv': 20, 'val.csv': 10, 'test.csv': 10 });

    // Too few tasks for a part: the summary names the empty file (40 tasks at 0.98/0.01/0.01: 39, 0, 1).
    const uneven = ['export', '--format', 'csv', '--status', 'PENDING', '--split', '0.98,0.01,0.01', '-o', path.join(home.dir, 'uneven.zip')];
    const told = await concord(uneven, home, as(buyer));
    expect(told.code, told.stderr).toBe(0);
    expect(told.stdout).toMatch(/: train 39, val 0, test 1 — val is empty \(too few tasks for this split\)\.$/m);
    const toldJson = await concord([...uneven, '--json'], home, as(buyer));
    expect(json(toldJson)).toMatchObject({ parts: { train: 39, val: 0, test: 1 }, emptyParts: ['val'] });
    expect(json(plain)).toMatchObject({ parts: null, emptyParts: null });
  });
});

describe('concord tasks watch', () => {
  it('follows the counts until every task is decided, then exits 0', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(100_000);
    const developer = await createDeveloper(ctx, adminToken);
    const tasks = [1, 2].map((n) => ({ type: 'RELEVANCE_RATING', content: `Watch me ${n}`, options: ['relevant', 'irrelevant'], locale: 'de' }));
    expect((await request(ctx.app).post('/api/v1/tasks/batch').set(bearer(buyer.token)).send({ tasks })).status).toBe(201);

    const once = await concord(['tasks', 'watch', '--once'], home, as(buyer));
    expect(once.code).toBe(0);
    expect(once.stdout).toBe('PENDING 2 · VALIDATING 0 · COMPLETED 0 · FAILED 0 (0% done of 2)\n');

    const watching = start(['tasks', 'watch', '--json'], home, as(buyer));
    await waitFor(() => watching.stdout().includes('\n'), 10_000, 'the first counts');
    // Three agreeing annotators decide each task (the in-process app answers; the server process streams).
    const app = sdk(ctx, developer.apiKey);
    for (const annotator of ['w-1', 'w-2', 'w-3']) {
      for (let i = 0; i < 2; i++) await app.answerNext(annotator, 'relevant', { types: 'RELEVANCE_RATING', locale: 'de' });
    }
    const done = await watching.done;
    expect(done.code, done.stderr).toBe(0);
    const updates = jsonLines(done.stdout);
    expect(updates[0]).toMatchObject({ counts: { PENDING: 2, VALIDATING: 0, COMPLETED: 0, FAILED: 0 }, total: 2, open: 2, done: false, mode: 'stream' });
    expect(updates.at(-1)).toMatchObject({ counts: { PENDING: 0, VALIDATING: 0, COMPLETED: 2, FAILED: 0 }, total: 2, open: 0, done: true, mode: 'stream' });
  }, 30_000);

  it('polls with --no-stream, and is done at once when nothing is open', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const result = await concord(['tasks', 'watch', '--no-stream', '--interval', '0.2', '--json'], home, as(buyer));
    expect(result.code).toBe(0);
    expect(json(result)).toMatchObject({ counts: { PENDING: 0, VALIDATING: 0, COMPLETED: 0, FAILED: 0 }, total: 0, open: 0, done: true, mode: 'poll' });
  });
});

describe('concord webhooks listen', () => {
  it('forwards a real event to a local URL, signed with the secret it prints', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(1_000);
    const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      const listening = start(['webhooks', 'listen', '--forward-to', target, '--json'], home, as(buyer));
      await waitFor(() => listening.stdout().includes('\n'), 15_000, 'the ready line');
      const ready = jsonLines(listening.stdout())[0] as { ready: boolean; forwardTo: string; secret: string };
      expect(ready).toMatchObject({ ready: true, forwardTo: target, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
      // The secret is kept for next time.
      const config = JSON.parse(await readFile(path.join(home.env.XDG_CONFIG_HOME as string, 'concord', 'config.json'), 'utf8')) as { listenSecret: string };
      expect(config.listenSecret).toBe(ready.secret);

      // A real event: a debit takes the balance under 500 cents (budget.low).
      const debit = await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents: -600, reason: 'test' });
      expect(debit.status).toBe(201);
      await waitFor(() => received.length === 1 && jsonLines(listening.stdout()).length === 2, 15_000, 'the forwarded event');
      const [delivery] = received as [{ headers: http.IncomingHttpHeaders; body: string }];
      expect(JSON.parse(delivery.body)).toMatchObject({ event: 'budget.low', creditBalance: 400, thresholdCents: 500 });
      expect(delivery.headers['x-service-event']).toBe('budget.low');
      // Signed like a real delivery: the SDK's check, the spec header, and the standardwebhooks package.
      await expect(verifyWebhook(delivery.body, delivery.headers, ready.secret, { scheme: 'standard' })).resolves.toMatchObject({ event: 'budget.low' });
      expect(await verifyWebhookSignature(delivery.body, delivery.headers['x-service-signature'] as string, ready.secret)).toBe(true);
      expect(new Webhook(ready.secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject({ event: 'budget.low' });
      const { rows } = await db.query<{ id: string }>("SELECT id FROM events WHERE buyer_id = $1 AND type = 'budget.low'", [buyer.id]);
      expect(delivery.headers['webhook-id']).toBe(rows[0]?.id);
      expect(jsonLines(listening.stdout())[1]).toMatchObject({ event: { id: rows[0]?.id, type: 'budget.low', taskId: null }, status: 202, error: null });

      // Ctrl-C is how a listener ends: a summary line, not an error, and exit 0.
      listening.child.kill('SIGINT');
      const stopped = await listening.done;
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(jsonLines(stopped.stdout).at(-1)).toEqual({ stopped: true, forwarded: 1 });
      expect(stopped.stderr).not.toMatch(/^error:/m);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 40_000);

  it('reconnects after a lost connection with Last-Event-ID: the event written meanwhile is forwarded, none twice', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(1_000);
    // A streaming proxy whose connections can be cut, as a network would.
    const sockets = new Set<Socket>();
    const streams: Array<string | undefined> = [];
    const proxy = http.createServer((req, res) => {
      if (req.url?.startsWith('/api/v1/events/stream')) streams.push(req.headers['last-event-id'] as string | undefined);
      const upstream = http.request(
        `${server.url}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(server.url).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    proxy.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      received.push(req.headers['webhook-id'] as string);
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const adjust = async (amountCents: number) =>
      expect(
        (await request(ctx.app).post(`/api/v1/admin/buyers/${buyer.id}/credits`).set(bearer(adminToken)).send({ amountCents, reason: 'test' })).status,
      ).toBe(201);
    try {
      const listening = start(
        ['webhooks', 'listen', '--forward-to', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, '--json'],
        home,
        as(buyer, proxyUrl),
      );
      await waitFor(() => listening.stdout().includes('"ready":true'), 15_000, 'the ready line');
      await adjust(-600); // budget.low
      await waitFor(() => received.length === 1, 15_000, 'the first event');
      for (const socket of sockets) socket.destroy();
      // While the stream is down: a top-up re-arms budget.low, and a debit fires it again.
      await adjust(600);
      await adjust(-600);
      await waitFor(() => received.length === 2, 20_000, 'the event written while disconnected');
      const { rows } = await db.query<{ id: string }>("SELECT id FROM events WHERE buyer_id = $1 AND type = 'budget.low' ORDER BY seq", [buyer.id]);
      expect(received).toEqual(rows.map((row) => row.id));
      expect(streams).toEqual([undefined, rows[0]?.id]);
      expect(listening.stderr()).toContain('Reconnected: resuming after the last event received');
      listening.child.kill('SIGINT');
      expect((await listening.done).code).toBe(0);
    } finally {
      for (const closing of [proxy, receiver]) {
        closing.closeAllConnections();
        await new Promise((resolve) => closing.close(resolve));
      }
    }
  }, 60_000);

  it('when the service cannot resume after the last event (400 on Last-Event-ID), says so and follows the stream from now on', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    // Events come from test sends of a configuration whose URL refuses connections (recorded all the same).
    const config = await request(ctx.app)
      .post('/api/v1/webhooks/configs')
      .set(bearer(buyer.token))
      .send({ url: 'http://127.0.0.1:9/nothing', events: ['budget.low'], secret: 'cli-gap-secret-0123456789' });
    expect(config.status).toBe(201);
    const ping = async () => {
      const sent = await request(ctx.app).post(`/api/v1/webhooks/configs/${config.body.id}/test`).set(bearer(buyer.token)).send({});
      expect(sent.status).toBe(200);
      return sent.body.eventId as string;
    };
    const sockets = new Set<Socket>();
    const streams: Array<{ lastEventId: string | undefined; status?: number }> = [];
    const proxy = http.createServer((req, res) => {
      const record: { lastEventId: string | undefined; status?: number } | undefined = req.url?.startsWith('/api/v1/events/stream')
        ? { lastEventId: req.headers['last-event-id'] as string | undefined }
        : undefined;
      if (record) streams.push(record);
      const upstream = http.request(
        `${server.url}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(server.url).host } },
        (answer) => {
          if (record) record.status = answer.statusCode;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    proxy.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const received: string[] = [];
    const receiver = http.createServer((req, res) => {
      received.push(req.headers['webhook-id'] as string);
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const listening = start(
        ['webhooks', 'listen', '--forward-to', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, '--json'],
        home,
        as(buyer, proxyUrl),
      );
      await waitFor(() => listening.stdout().includes('"ready":true'), 15_000, 'the ready line');
      const first = await ping();
      await waitFor(() => received.length === 1 && jsonLines(listening.stdout()).length === 2, 15_000, 'the first event');
      // The event the listener would resume after falls out of the service's 30 days; the connection drops.
      await db.query("UPDATE events SET created_at = now() - interval '31 days' WHERE id = $1", [first]);
      for (const socket of sockets) socket.destroy();
      await waitFor(() => listening.stderr().includes('Connected again: forwarding the events from now on'), 20_000, 'the fresh stream');
      expect(listening.stderr()).toContain(`warning: the stream cannot resume after event ${first} (`);
      expect(listening.stderr()).toMatch(
        /Continuing from now on: events written in between were not forwarded \(GET \/events\?since=\d{4}-\d\d-\d\dT[^)]+ lists them\)/,
      );
      const next = await ping();
      // The listener prints a forwarded event's line after the receiver answered: wait for the line, not only the receipt.
      await waitFor(() => received.length === 2 && jsonLines(listening.stdout()).length === 3, 15_000, 'the event after the fresh start');
      expect(received).toEqual([first, next]);
      expect(streams).toEqual([
        { lastEventId: undefined, status: 200 },
        { lastEventId: first, status: 400 },
        { lastEventId: undefined, status: 200 },
      ]);
      // stdout stays the JSON lines of the ready line and the forwarded events.
      expect(jsonLines(listening.stdout()).map((line) => (line.event as { id?: string } | undefined)?.id ?? 'ready')).toEqual(['ready', first, next]);
      listening.child.kill('SIGINT');
      const stopped = await listening.done;
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(jsonLines(stopped.stdout).at(-1)).toEqual({ stopped: true, forwarded: 2 });
    } finally {
      for (const closing of [proxy, receiver]) {
        closing.closeAllConnections();
        await new Promise((resolve) => closing.close(resolve));
      }
    }
  }, 60_000);

  it('refuses a --secret that is not a Standard Webhooks secret', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const result = await concord(
      ['webhooks', 'listen', '--forward-to', 'http://127.0.0.1:9/x', '--secret', `whsec_${randomBytes(8).toString('base64')}`, '--json'],
      home,
      as(buyer),
    );
    expect(result.code).toBe(2);
    expect(json<{ error: { code: string } }>(result).error.code).toBe('INVALID_SECRET');
  });
});

describe('concord webhooks test / rotate-secret', () => {
  /** A receiver that answers each request with the next status of `statuses` (the last one repeats). */
  async function receiverAnswering(...statuses: number[]) {
    const requests: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = statuses[Math.min(requests.length - 1, statuses.length - 1)] ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status }));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      requests,
      close: async () => {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
      },
    };
  }

  it('test sends a signed ping and prints the outcome: exit 0 when delivered, 1 when not, 1 for an unknown configuration', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const receiver = await receiverAnswering(200, 503);
    try {
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const config = await request(ctx.app)
        .post('/api/v1/webhooks/configs')
        .set(bearer(buyer.token))
        .send({ url: receiver.url, events: ['task.completed'], secret });
      expect(config.status).toBe(201);
      const ok = await concord(['webhooks', 'test', config.body.id, '--json'], home, as(buyer));
      expect(ok.code, ok.stderr).toBe(0);
      const result = json<{ eventId: string; delivered: boolean }>(ok);
      expect(result).toEqual({
        webhook: { id: config.body.id, url: receiver.url, isActive: true },
        eventId: expect.stringMatching(/^evt_c[0-9a-z]{24}$/),
        delivered: true,
        statusCode: 200,
        latencyMs: expect.any(Number),
        responseHeaders: expect.objectContaining({ date: expect.any(String) }),
        responseExcerpt: null,
      });
      const [delivery] = receiver.requests;
      expect(delivery?.headers['webhook-id']).toBe(result.eventId);
      expect(new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers as Record<string, string>)).toMatchObject({
        event: 'ping',
        webhookId: config.body.id,
      });

      const failed = await concord(['webhooks', 'test', config.body.id], home, as(buyer));
      expect(failed.code).toBe(1);
      expect(failed.stdout).toMatch(
        // No "Response:" line: the receiver is on a private address, whose answer is not handed back.
        new RegExp(`^Ping evt_c[0-9a-z]{24} to ${receiver.url}: not delivered: HTTP 503 \\(\\d+ ms\\)\n$`),
      );

      const unknown = await concord(['webhooks', 'test', 'cnosuchconfig000000000000', '--json'], home, as(buyer));
      expect(unknown.code).toBe(1);
      expect(json<{ error: { code: string; status: number } }>(unknown).error).toMatchObject({ code: 'WEBHOOK_NOT_FOUND', status: 404 });
      expect(receiver.requests).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('rotate-secret generates a whsec_ secret, prints it once, and both secrets sign for 24 h; a bad --secret is a usage error', async () => {
    const home = await newHome();
    const buyer = await buyerWithKey(0);
    const receiver = await receiverAnswering(200);
    try {
      const old = `whsec_${randomBytes(32).toString('base64')}`;
      const config = await request(ctx.app)
        .post('/api/v1/webhooks/configs')
        .set(bearer(buyer.token))
        .send({ url: receiver.url, events: ['budget.low'], secret: old });
      const rotated = await concord(['webhooks', 'rotate-secret', config.body.id, '--json'], home, as(buyer));
      expect(rotated.code, rotated.stderr).toBe(0);
      const { webhook, secret } = json<{ webhook: Record<string, unknown>; secret: string }>(rotated);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secret).not.toBe(old);
      expect(webhook).toMatchObject({ id: config.body.id, url: receiver.url, rotationEndsAt: expect.any(String) });
      expect(webhook).not.toHaveProperty('secret');
      // Deliveries from now on verify with the new secret and, for the overlap, with the old one.
      expect((await request(ctx.app).post(`/api/v1/webhooks/configs/${config.body.id}/test`).set(bearer(buyer.token)).send({})).body.delivered).toBe(true);
      const delivery = receiver.requests.at(-1);
      for (const key of [secret, old]) {
        expect(new Webhook(key).verify(delivery?.body ?? '', delivery?.headers as Record<string, string>)).toMatchObject({ event: 'ping' });
      }
      expect(await verifyWebhookSignature(delivery?.body ?? '', delivery?.headers['x-service-signature'] as string, secret)).toBe(true);

      // Without --json: the secret in the text, once.
      const human = await concord(['webhooks', 'rotate-secret', config.body.id], home, as(buyer));
      expect(human.code, human.stderr).toBe(0);
      const printed = /^New secret: (whsec_\S+)$/m.exec(human.stdout)?.[1];
      expect(printed).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(human.stdout.split(printed ?? '?')).toHaveLength(2);
      expect(human.stdout).toContain('Shown this once');

      const bad = await concord(['webhooks', 'rotate-secret', config.body.id, '--secret', 'whsec_tooshort', '--json'], home, as(buyer));
      expect(bad.code).toBe(2);
      expect(json<{ error: { code: string } }>(bad).error.code).toBe('INVALID_SECRET');
      const own = await concord(['webhooks', 'rotate-secret', config.body.id, '--secret', 'a-plain-secret-of-my-own', '--json'], home, as(buyer));
      expect(own.code, own.stderr).toBe(0);
      expect(json<{ secret: string }>(own).secret).toBe('a-plain-secret-of-my-own');
      const same = await concord(['webhooks', 'rotate-secret', config.body.id, '--secret', 'a-plain-secret-of-my-own', '--json'], home, as(buyer));
      expect(same.code).toBe(1);
      expect(json<{ error: { code: string } }>(same).error.code).toBe('VALIDATION_ERROR');
    } finally {
      await receiver.close();
    }
  });
});
